/*
 * test_hwmon.c - the iiowire-hwmon bridge (client/hwmon.c), run as a program
 * against a live iiowired and against a scripted fake daemon.
 *
 * The tree it writes under --sysfs-root is checked file by file (names,
 * contents, nothing else), with the kernel's iio_hwmon rules: prefixes by
 * type, counters from 1, processed values in hwmon units (power in µW),
 * labels from the consumer channel names, other types skipped. Then the
 * bridge's life: the daemon going away (the _input files go), coming back,
 * a reload that changes a value or removes the provider, and a clean exit.
 * The real tools that read the tree are exercised in test_hwmon_tools.c.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "clienttest.h"

#define HW_WAIT_MS	10000

CT_SUITE_DAEMON(hw, "test_hwmon")

/* A fresh --sysfs-root under the daemon's directory. */
static void hw_root(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "%s/root-%s", hw_daemon.dir, tag);
}

/* The visible files of @dir, sorted, joined with ' '. Return: count, or -errno. */
static int hw_list(const char *dir, char *out, size_t len)
{
	struct dirent **names;
	int n, i, count = 0;

	out[0] = '\0';
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			snprintf(out + strlen(out), len - strlen(out), "%s%s", count ? " " : "",
				 names[i]->d_name);
			count++;
		}
		free(names[i]);
	}
	free(names);
	return count;
}

/* Run the bridge once with @args (NULL-ended). Return: its exit status. */
static int hw_run(const char *const *args, char *out, size_t outlen, char *err, size_t errlen)
{
	const char *argv[32];
	int i, n = 0;

	argv[n++] = CT_HWMON_PATH;
	for (i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return ct_run(argv, out, outlen, err, errlen);
}

/* Wait until @path holds @text (NULL: until it does not exist). Return: true on time. */
static bool hw_wait_file(const char *path, const char *text)
{
	int64_t end = ct_now_ms() + HW_WAIT_MS;
	char buf[256];
	int n;

	while (ct_now_ms() < end) {
		n = ct_read_file(path, buf, sizeof(buf));
		if (!text && n == -ENOENT)
			return true;
		if (text && n >= 0 && strcmp(buf, text) == 0)
			return true;
		ct_sleep_ms(20);
	}
	return false;
}

static void test_hwmon_tree_once(void)
{
	struct {
		const char *file;
		const char *text;
	} rows[] = {
		{ "in1_input", "1000\n" },
		{ "in1_label", "testchan1\n" },
		{ "in2_input", "2000\n" },
		{ "in2_label", "testchan2\n" },
		{ "name", "iio_hwmon\n" },
	};
	char root[160], dir[200], path[260], buf[256], out[4096], err[4096];
	const char *args[] = { "-a", hw_daemon.address, "--consumer", "iio_hwmon.0",
			       "--sysfs-root", root, "--once", NULL };
	size_t i;

	hw_root(root, sizeof(root), "once");
	snprintf(dir, sizeof(dir), "%s/class/hwmon/hwmon0", root);
	CU_ASSERT_EQUAL(hw_run(args, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_STRING_EQUAL(err, "");
	/* exactly these files, nothing else visible */
	CU_ASSERT_EQUAL(hw_list(dir, buf, sizeof(buf)), 5);
	CU_ASSERT_STRING_EQUAL(buf, "in1_input in1_label in2_input in2_label name");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, rows[i].file);
		TEST_ROW_ASSERT(ct_read_file(path, buf, sizeof(buf)) >= 0, rows[i].file);
		TEST_ROW_ASSERT(strcmp(buf, rows[i].text) == 0, rows[i].file);
	}
	/* a second run reuses its own hwmon0 instead of adding hwmon1 */
	CU_ASSERT_EQUAL(hw_run(args, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/class/hwmon", root);
	CU_ASSERT_EQUAL(hw_list(path, buf, sizeof(buf)), 1);
	CU_ASSERT_STRING_EQUAL(buf, "hwmon0");
	test_rmtree(root);

	/* another device already at hwmon0: ours is hwmon1, the other is untouched */
	CU_ASSERT_EQUAL(mkdir(root, 0755), 0);
	snprintf(path, sizeof(path), "%s/class", root);
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/hwmon", root);
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/hwmon/hwmon0", root);
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/hwmon/hwmon0/name", root);
	CU_ASSERT_EQUAL(ct_write_file(path, "coretemp\n", 0644), 0);
	CU_ASSERT_EQUAL(hw_run(args, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(ct_read_file(path, buf, sizeof(buf)), 9);
	CU_ASSERT_STRING_EQUAL(buf, "coretemp\n");
	snprintf(path, sizeof(path), "%s/class/hwmon/hwmon1/in2_input", root);
	CU_ASSERT_EQUAL(ct_read_file(path, buf, sizeof(buf)), 5);
	CU_ASSERT_STRING_EQUAL(buf, "2000\n");
	test_rmtree(root);
}
TEST_CASE(test_hwmon_tree_once, "tree, file by file (--once)");

static void test_hwmon_print_and_names(void)
{
	char root[160], path[260], buf[256], out[4096], err[4096];
	const char *print[] = { "-a", hw_daemon.address, "--consumer", "iio_hwmon.0", "--once",
				NULL };
	const char *named[] = { "-a", hw_daemon.address, "--consumer", "meter", "--name",
				"lab-bench", "--sysfs-root", root, "--once", NULL };

	/* without --sysfs-root: a sensors-like listing */
	CU_ASSERT_EQUAL(hw_run(print, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "iio_hwmon-iiowire-0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "consumer iio_hwmon.0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1.000 V  (testchan1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "2.000 V  (testchan2)"));
	/* '-' is not allowed in an hwmon name: it becomes '_', with a warning */
	hw_root(root, sizeof(root), "named");
	CU_ASSERT_EQUAL(hw_run(named, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "lab_bench"));
	snprintf(path, sizeof(path), "%s/class/hwmon/hwmon0/name", root);
	CU_ASSERT_EQUAL(ct_read_file(path, buf, sizeof(buf)), 10);
	CU_ASSERT_STRING_EQUAL(buf, "lab_bench\n");
	/* a differential map: in1 from AIN0-AIN1 = 3300 - 1000 mV */
	snprintf(path, sizeof(path), "%s/class/hwmon/hwmon0/in1_input", root);
	CU_ASSERT_EQUAL(ct_read_file(path, buf, sizeof(buf)), 5);
	CU_ASSERT_STRING_EQUAL(buf, "2300\n");
	test_rmtree(root);
}
TEST_CASE(test_hwmon_print_and_names, "--print and hwmon names");

/* README's "iiowire-hwmon --consumer iio_hwmon.0 --print": one listing and exit, as sensors */
static void test_hwmon_print_once(void)
{
	const char *argv[] = { "/usr/bin/timeout", "10", CT_HWMON_PATH, "-a", hw_daemon.address,
			       "--consumer", "iio_hwmon.0", "--print", NULL };
	char out[8192], err[4096];
	const char *at;
	int status, listings = 0;

	status = ct_run(argv, out, sizeof(out), err, sizeof(err));
	for (at = out; (at = strstr(at, "Adapter: ")); at++)
		listings++;
	/* (timeout's 124: it was still printing after 10 s) */
	TEST_ROW_ASSERT_GOT(status == 0 && listings == 1, "--print without --sysfs-root",
			    "exit status %d, %d listings; stderr: %.200s", status, listings, err);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1.000 V  (testchan1)"));
}
TEST_CASE(test_hwmon_print_once, "--print alone lists once and exits (as sensors)");

static void test_hwmon_errors(void)
{
	char refused[64];
	struct {
		const char *name;
		const char *args[10];
		int status;
		const char *err;	/* in stderr */
	} rows[] = {
		{ "no consumer", { "--once", NULL }, 2, "--consumer is required" },
		{ "blank in name", { "-c", "x", "--name", "a b", NULL }, 2, "not a valid hwmon" },
		{ "star in name", { "-c", "x", "--name", "a*", NULL }, 2, "not a valid hwmon" },
		{ "empty name", { "-c", "x", "--name", "", NULL }, 2, "not a valid hwmon name" },
		{ "interval 0", { "-c", "x", "--interval", "0", NULL }, 2, "--interval" },
		{ "stray argument", { "-c", "x", "extra", NULL }, 2, "unexpected argument" },
		{ "unknown consumer",
		  { "-a", hw_daemon.address, "-c", "nobody", "--once", NULL }, 1, "ENODEV" },
		{ "daemon away", { "-a", refused, "-c", "iio_hwmon.0", "--once", NULL }, 1,
		  "ECONNREFUSED" },
	};
	char out[4096], err[4096];
	size_t i;

	snprintf(refused, sizeof(refused), "127.0.0.1:%d", ct_free_port());
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		TEST_ROW_ASSERT(hw_run(rows[i].args, out, sizeof(out), err, sizeof(err)) ==
				rows[i].status, rows[i].name);
		TEST_ROW_ASSERT(strstr(err, rows[i].err) != NULL, rows[i].name);
	}
	CU_ASSERT_EQUAL(hw_run((const char *[]){ "--help", NULL }, out, sizeof(out), err,
			       sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "--sysfs-root DIR"));
}
TEST_CASE(test_hwmon_errors, "option and connection errors");

/* The bridge across a daemon restart, reloads, and a clean exit. */
static void test_hwmon_life(void)
{
	char root[160], in1[260], in2[260], name[260], label[260], dir[200], errf[200];
	char err[4096], want[512];
	const char *argv[] = { CT_HWMON_PATH, "-a", hw_daemon.address, "--consumer",
			       "iio_hwmon.0", "--sysfs-root", root, "--interval", "50",
			       "--timeout", "500", NULL };
	int status = -1;
	pid_t pid;

	hw_root(root, sizeof(root), "life");
	snprintf(dir, sizeof(dir), "%s/class/hwmon/hwmon0", root);
	snprintf(in1, sizeof(in1), "%s/in1_input", dir);
	snprintf(in2, sizeof(in2), "%s/in2_input", dir);
	snprintf(name, sizeof(name), "%s/name", dir);
	snprintf(label, sizeof(label), "%s/in1_label", dir);
	snprintf(errf, sizeof(errf), "%s/life.err", hw_daemon.dir);
	pid = fork();
	if (pid == 0) {
		int fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT(hw_wait_file(in1, "1000\n"));

	/* the daemon goes away: the values are withdrawn, name and labels stay */
	ct_daemon_kill(&hw_daemon);
	CU_ASSERT(hw_wait_file(in1, NULL));
	CU_ASSERT(hw_wait_file(in2, NULL));
	CU_ASSERT(hw_wait_file(name, "iio_hwmon\n"));
	CU_ASSERT(hw_wait_file(label, "testchan1\n"));
	/* it comes back: so do the values */
	CU_ASSERT_EQUAL_FATAL(ct_daemon_spawn(&hw_daemon), 0);
	CU_ASSERT(hw_wait_file(in1, "1000\n"));
	CU_ASSERT(hw_wait_file(in2, "2000\n"));

	/* a reload with a new AIN1: the next update shows it */
	CU_ASSERT_EQUAL(ct_daemon_reload(&hw_daemon, CT_BOARD_WITH("1500")), 0);
	CU_ASSERT(hw_wait_file(in1, "1500\n"));
	/* a reload that removes the provider: ENODEV, values withdrawn */
	CU_ASSERT_EQUAL(ct_daemon_reload(&hw_daemon, CT_BOARD_NO_ADC), 0);
	CU_ASSERT(hw_wait_file(in1, NULL));
	CU_ASSERT(hw_wait_file(name, "iio_hwmon\n"));
	CU_ASSERT_EQUAL(ct_daemon_reload(&hw_daemon, CT_BOARD), 0);
	CU_ASSERT(hw_wait_file(in1, "1000\n"));

	/* SIGTERM: exit 0, the device directory goes as on an unbind */
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CU_ASSERT_EQUAL(access(dir, F_OK), -1);
	/* the ready line, once: not again after the daemon came back (issue 29) */
	snprintf(want, sizeof(want), "iiowire-hwmon: iio_hwmon.0: 2 channels in %s, updated "
		 "every 50 ms\n", dir);
	CU_ASSERT(ct_read_file(errf, err, sizeof(err)) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	CU_ASSERT_PTR_NULL(strstr(strstr(err, want) ? strstr(err, want) + 1 : err, want));
	if (!strstr(err, want))
		fprintf(stderr, "\nstderr:\n%s\nwanted:\n%s", err, want);
	test_rmtree(root);
}
TEST_CASE(test_hwmon_life, "restart, reloads, clean exit, one ready line");

/* ---- every hwmon class, from a fake daemon ---------------------------- */

/* A consumer whose channels have each type iio_hwmon knows, plus two it does not. */
static const struct {
	const char *channel;
	const char *type;
	int value;		/* processed, IIO units */
} hw_fake_chans[] = {
	{ "vbat", "voltage", 3700 },
	{ "board", "temp", 41500 },
	{ "vcore", "voltage", 900 },
	{ "ibat", "current", -250 },
	{ "pin", "power", 1500 },
	{ "tilt", "accel", 9 },
	{ "rh", "humidityrelative", 45000 },
	{ "cpu", "temp", 60250 },
	{ "lux", "illuminance", 300 },
};
#define HW_FAKE_N	(sizeof(hw_fake_chans) / sizeof(hw_fake_chans[0]))

static void hw_fake(struct ct_fake *f, const struct proto_request *req, struct proto_buf *out,
		    int conn)
{
	struct proto_consumer_info ci;
	char text[32];
	size_t i;

	(void)f;
	(void)conn;
	if (req->op == PROTO_OP_CONSUMER) {
		proto_list_begin(out, req, (int)HW_FAKE_N);
		for (i = 0; i < HW_FAKE_N; i++) {
			ci = (struct proto_consumer_info){ hw_fake_chans[i].channel, "iio:device0",
							  "CH", hw_fake_chans[i].type };
			proto_list_consumer(out, req, (int)i, &ci);
		}
		proto_list_end(out, req);
		return;
	}
	for (i = 0; i < HW_FAKE_N; i++)
		if (req->channel && strcmp(req->channel, hw_fake_chans[i].channel) == 0)
			break;
	if (req->op != PROTO_OP_CREAD || i == HW_FAKE_N) {
		proto_reply_error(out, req, -ENODEV, NULL);
		return;
	}
	if (req->what == PROTO_WHAT_TYPE) {
		proto_reply_value(out, req, hw_fake_chans[i].type, strlen(hw_fake_chans[i].type));
		return;
	}
	/* the daemon applies the multiplier; mirror iio_multiply_value for INT */
	snprintf(text, sizeof(text), "%d", hw_fake_chans[i].value *
		 (int)(req->multiplier ? req->multiplier : 1));
	proto_reply_value(out, req, text, strlen(text));
}

static void test_hwmon_classes(void)
{
	struct {
		const char *file;
		const char *text;
	} rows[] = {
		{ "in1_input", "3700\n" }, { "in1_label", "vbat\n" },
		{ "temp1_input", "41500\n" }, { "temp1_label", "board\n" },
		{ "in2_input", "900\n" }, { "in2_label", "vcore\n" },
		{ "curr1_input", "-250\n" }, { "curr1_label", "ibat\n" },
		/* power: IIO's mW become hwmon's µW */
		{ "power1_input", "1500000\n" }, { "power1_label", "pin\n" },
		{ "humidity1_input", "45000\n" }, { "humidity1_label", "rh\n" },
		{ "temp2_input", "60250\n" }, { "temp2_label", "cpu\n" },
		{ "name", "iio_hwmon\n" },
	};
	char root[160], dir[200], path[300], buf[512], out[4096], err[4096];
	const char *args[] = { "-a", NULL, "--consumer", "board.0", "--sysfs-root", root,
			       "--once", "--print", NULL };
	struct ct_fake f;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(ct_fake_start(&f, hw_fake, NULL), 0);
	args[1] = f.address;
	hw_root(root, sizeof(root), "classes");
	snprintf(dir, sizeof(dir), "%s/class/hwmon/hwmon0", root);
	CU_ASSERT_EQUAL(hw_run(args, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(hw_list(dir, buf, sizeof(buf)), (int)(sizeof(rows) / sizeof(rows[0])));
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, rows[i].file);
		TEST_ROW_ASSERT(ct_read_file(path, buf, sizeof(buf)) >= 0, rows[i].file);
		TEST_ROW_ASSERT(strcmp(buf, rows[i].text) == 0, rows[i].file);
	}
	/* the kernel refuses the whole device for these; the bridge skips them, loudly */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "tilt"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "accel"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "lux"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "+41.5 C  (board)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "-0.250 A  (ibat)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1.500 W  (pin)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "45.0 %RH  (rh)"));
	test_rmtree(root);
	ct_fake_stop(&f);
}
TEST_CASE(test_hwmon_classes, "every hwmon class (fake daemon)");

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	return test_main("hwmon", hw_suite_init, hw_suite_cleanup);
}
