/*
 * test_emu_signal.c - signal sources of the chip models (emu_signal.c).
 *
 * What must hold: each kind gives its formula's value at chosen times
 * (constant; sine offset/amplitude/period/phase; ramp wrap-around, also for
 * negative t; CSV interpolation and looping); noise is reproducible for a
 * seed and a millisecond, differs between seeds and has the asked mean and
 * deviation; CSV files load with comments and a caption and fail with the
 * file and line named, leaving the signal as it was; copies are deep.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "emu/emu.h"

static void test_sample_rows(void)
{
	static const struct {
		const char *name;
		struct emu_signal sig;
		double t;
		double expect;
	} rows[] = {
		{ "const at 0", { .kind = EMU_SIGNAL_CONST, .value = 42.5 }, 0, 42.5 },
		{ "const much later", { .kind = EMU_SIGNAL_CONST, .value = -3 }, 1e6, -3 },
		{ "sine at 0", { .kind = EMU_SIGNAL_SINE, .offset = 100, .amplitude = 50,
				 .period_s = 4 }, 0, 100 },
		{ "sine quarter period", { .kind = EMU_SIGNAL_SINE, .offset = 100, .amplitude = 50,
					   .period_s = 4 }, 1, 150 },
		{ "sine three quarters", { .kind = EMU_SIGNAL_SINE, .offset = 100, .amplitude = 50,
					   .period_s = 4 }, 3, 50 },
		{ "sine with phase pi/2", { .kind = EMU_SIGNAL_SINE, .offset = 0, .amplitude = 2,
					    .period_s = 10, .phase = M_PI / 2 }, 0, 2 },
		{ "sine without period stays at offset", { .kind = EMU_SIGNAL_SINE, .offset = 7,
							   .amplitude = 5 }, 3, 7 },
		{ "ramp start", { .kind = EMU_SIGNAL_RAMP, .offset = 10, .amplitude = 100,
				  .period_s = 2 }, 0, 10 },
		{ "ramp quarter", { .kind = EMU_SIGNAL_RAMP, .offset = 10, .amplitude = 100,
				    .period_s = 2 }, 0.5, 35 },
		{ "ramp wraps at the period", { .kind = EMU_SIGNAL_RAMP, .offset = 10,
						.amplitude = 100, .period_s = 2 }, 2, 10 },
		{ "ramp second lap", { .kind = EMU_SIGNAL_RAMP, .offset = 10, .amplitude = 100,
				       .period_s = 2 }, 3.5, 85 },
		{ "ramp before 0", { .kind = EMU_SIGNAL_RAMP, .offset = 10, .amplitude = 100,
				     .period_s = 2 }, -0.5, 85 },
		{ "ramp falling", { .kind = EMU_SIGNAL_RAMP, .offset = 0, .amplitude = -8,
				    .period_s = 4 }, 1, -2 },
		{ "noise of zero deviation", { .kind = EMU_SIGNAL_NOISE, .offset = 12,
					       .amplitude = 0, .seed = 9 }, 5.5, 12 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		TEST_ROW_ASSERT(fabs(emu_signal_sample(&rows[i].sig, rows[i].t) -
				     rows[i].expect) < 1e-9, rows[i].name);
	CU_ASSERT(emu_signal_sample(NULL, 1) == 0.0);
}
TEST_CASE(test_sample_rows, "each kind at chosen times");

/* A model reads the bus clock only for inputs that move with time: all but a constant. */
static void test_timed(void)
{
	static const enum emu_signal_kind moving[] = {
		EMU_SIGNAL_SINE, EMU_SIGNAL_RAMP, EMU_SIGNAL_NOISE, EMU_SIGNAL_CSV,
	};
	struct emu_signal sig = { .kind = EMU_SIGNAL_CONST, .value = 5 };
	size_t i;

	CU_ASSERT_FALSE(emu_signal_timed(NULL));
	CU_ASSERT_FALSE(emu_signal_timed(&sig));
	for (i = 0; i < sizeof(moving) / sizeof(moving[0]); i++) {
		sig.kind = moving[i];
		CU_ASSERT_TRUE(emu_signal_timed(&sig));
	}
}
TEST_CASE(test_timed, "only a constant signal does not depend on the time");

static void test_noise(void)
{
	struct emu_signal a = { .kind = EMU_SIGNAL_NOISE, .offset = 1000, .amplitude = 10,
				.seed = 1 };
	struct emu_signal a2 = a, b = a;
	double sum = 0, sum2 = 0, mean, sd, v;
	int i, n = 20000, same_b = 0;

	b.seed = 2;
	TEST_ROW_ASSERT(emu_signal_sample(&a, 3.25) == emu_signal_sample(&a2, 3.25),
			"same seed, same t, same value");
	TEST_ROW_ASSERT(emu_signal_sample(&a, 3.2501) == emu_signal_sample(&a, 3.2509),
			"same millisecond, same value");
	TEST_ROW_ASSERT(emu_signal_sample(&a, 3.250) != emu_signal_sample(&a, 3.251),
			"next millisecond differs");
	for (i = 0; i < n; i++) {
		v = emu_signal_sample(&a, i / 1000.0);
		sum += v;
		sum2 += v * v;
		if (emu_signal_sample(&b, i / 1000.0) == v)
			same_b++;
	}
	TEST_ROW_ASSERT(same_b == 0, "another seed differs");
	mean = sum / n;
	sd = sqrt(sum2 / n - mean * mean);
	/* 4 standard errors: a correct generator fails this about once in 15000 seeds */
	TEST_ROW_ASSERT(fabs(mean - 1000) < 4 * 10 / sqrt(n), "mean is the offset");
	TEST_ROW_ASSERT(fabs(sd - 10) < 0.3, "deviation is the amplitude");
}
TEST_CASE(test_noise, "noise: reproducible, seeded, right statistics");

/* Write @text to a fresh file under /tmp; its path goes to @path. */
static void test_write_file(char *path, size_t len, const char *tag, const char *text)
{
	FILE *f;

	snprintf(path, len, "/tmp/iiowire-test-signal-%ld-%s.csv", (long)getpid(), tag);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

static void test_csv(void)
{
	static const struct {
		const char *name;
		double t;
		double expect;
	} rows[] = {
		{ "first point", 0, 0 },
		{ "between first and second", 0.5, 5 },
		{ "second point", 1, 10 },
		{ "uneven spacing", 2, 20 },
		{ "end loops to start", 3, 0 },
		{ "second lap", 4, 10 },
		{ "before the trace: from its end", -1, 20 },
	};
	char path[256], err[256] = "";
	struct emu_signal sig = { .kind = EMU_SIGNAL_CONST };
	size_t i;

	test_write_file(path, sizeof(path), "ok",
			"# a trace\n"
			"t,value\n"
			"\n"
			"0, 0\n"
			"  1 ,10   # not a comment position\n");
	/* a trailing comment is not allowed: that line must fail */
	CU_ASSERT(emu_signal_load_csv(&sig, path, err, sizeof(err)) == -EINVAL);
	CU_ASSERT(strstr(err, ":5:") != NULL);
	CU_ASSERT(sig.kind == EMU_SIGNAL_CONST && sig.csv_n == 0);
	unlink(path);

	test_write_file(path, sizeof(path), "ok", "# a trace\nt,value\n\n0, 0\n  1 ,10\n3,30\r\n");
	CU_ASSERT_FATAL(emu_signal_load_csv(&sig, path, err, sizeof(err)) == 0);
	unlink(path);
	CU_ASSERT(sig.kind == EMU_SIGNAL_CSV);
	CU_ASSERT(sig.csv_n == 3);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		TEST_ROW_ASSERT(fabs(emu_signal_sample(&sig, rows[i].t) - rows[i].expect) < 1e-9,
				rows[i].name);
	emu_signal_fini(&sig);
	CU_ASSERT(sig.csv_t == NULL && sig.csv_v == NULL && sig.csv_n == 0);
	emu_signal_fini(&sig);	/* twice is fine */
	emu_signal_fini(NULL);
}
TEST_CASE(test_csv, "CSV: load, interpolate, loop");

static void test_csv_errors(void)
{
	static const struct {
		const char *name;
		const char *text;	/* NULL: the file does not exist */
		int expect;
		const char *where;	/* expected in the message */
	} rows[] = {
		{ "missing file", NULL, -ENOENT, "No such file" },
		{ "empty file", "", -EINVAL, "no \"t,value\" points" },
		{ "only comments", "# nothing\n# here\n", -EINVAL, "no \"t,value\" points" },
		{ "one value per line", "0,1\n1\n", -EINVAL, ":2:" },
		{ "not a number", "0,1\n1,abc\n", -EINVAL, ":2:" },
		{ "second caption", "t,v\nt,v\n", -EINVAL, ":2:" },
		{ "time going back", "0,1\n2,2\n1,3\n", -EINVAL, ":3: time 1 does not follow 2" },
		{ "time repeated", "0,1\n0,2\n", -EINVAL, ":2:" },
		{ "three fields", "0,1,2\n", -EINVAL, ":1:" },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct emu_signal sig = { .kind = EMU_SIGNAL_CONST, .value = 5 };
		char path[256], err[256] = "";
		int ret;

		if (rows[i].text)
			test_write_file(path, sizeof(path), "bad", rows[i].text);
		else
			snprintf(path, sizeof(path), "/tmp/iiowire-test-signal-none/x.csv");
		ret = emu_signal_load_csv(&sig, path, err, sizeof(err));
		if (rows[i].text)
			unlink(path);
		TEST_ROW_ASSERT(ret == rows[i].expect, rows[i].name);
		TEST_ROW_ASSERT(strstr(err, path) == err, rows[i].name);
		TEST_ROW_ASSERT(strstr(err, rows[i].where) != NULL, rows[i].name);
		/* a failed load leaves the signal as it was */
		TEST_ROW_ASSERT(sig.kind == EMU_SIGNAL_CONST && sig.value == 5 && !sig.csv_t,
				rows[i].name);
	}
}
TEST_CASE(test_csv_errors, "CSV: errors name file and line");

static void test_copy(void)
{
	double t[] = { 0, 1 }, v[] = { 2, 4 };
	struct emu_signal src = { .kind = EMU_SIGNAL_CSV, .csv_t = t, .csv_v = v, .csv_n = 2 };
	struct emu_signal sine = { .kind = EMU_SIGNAL_SINE, .offset = 1, .amplitude = 2,
				   .period_s = 3 };
	struct emu_signal dst;

	CU_ASSERT_FATAL(emu_signal_copy(&dst, &src) == 0);
	CU_ASSERT(dst.csv_t != t && dst.csv_v != v && dst.csv_n == 2);
	v[1] = 100;	/* the copy does not follow the original */
	CU_ASSERT_DOUBLE_EQUAL(emu_signal_sample(&dst, 0.5), 3.0, 1e-9);
	emu_signal_fini(&dst);
	CU_ASSERT(emu_signal_copy(&dst, &sine) == 0);
	CU_ASSERT(dst.csv_t == NULL);
	CU_ASSERT_DOUBLE_EQUAL(emu_signal_sample(&dst, 0.75), emu_signal_sample(&sine, 0.75), 0);
	emu_signal_fini(&dst);
}
TEST_CASE(test_copy, "copies are deep");

TEST_MAIN("emu_signal", NULL, NULL)
