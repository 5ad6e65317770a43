/*
 * test_server_watch.c - WATCH, UNWATCH and pushed events against a live
 * iiowired (server/watch.c).
 *
 * Events come in the spelling of their WATCH, at the interval asked, with a
 * wall-clock timestamp; UNWATCH ends them; the per-connection limit is
 * EBUSY at N+1; a failing read is an EVENTERR line; a hung bus lowers the
 * event rate (ticks are skipped) instead of queueing; an event never lands
 * inside a listing (P-19); and a watch follows its device name across a
 * board reload (ENODEV while the device is gone, values once it is back).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srvtest.h"
#include "testutil.h"

#define WATCH_BOARD								\
	"{\"board\": \"watch\", \"buses\": {"					\
	"  \"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"},"		\
	"  \"i2c-1\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"		\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"		\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x35\","	\
	"   \"label\": \"adc\","								\
	"   \"emulate\": {\"AIN0\": 3300}},"						\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x36\","	\
	"   \"label\": \"nacker\","								\
	"   \"fault\": {\"mode\": \"nack\"}},"						\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-1\", \"address\": \"0x35\","	\
	"   \"label\": \"hung\","								\
	"   \"fault\": {\"mode\": \"hang\", \"hang_ms\": 400}}]}"

#define DUMMY_ONLY_BOARD							\
	"{\"board\": \"other\", \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"}]}"

static struct srvtest srv;

static int suite_init(void)
{
	const char *const args[] = { "--io-timeout-ms", "150", NULL };

	return srvtest_suite_up(&srv, WATCH_BOARD, args);
}

static int suite_fini(void)
{
	return srvtest_suite_down(&srv);
}

/* The timestamp: the last blank-separated field of a text event. */
static unsigned long long event_ts(const char *line)
{
	const char *sp = strrchr(line, ' ');

	return sp ? strtoull(sp + 1, NULL, 10) : 0;
}

static unsigned long long wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void test_text_events(void)
{
	struct srvc *c = srvc_open(srv.port);
	unsigned long long ts, last = 0, now;
	char got[512];
	long t0;
	int n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(srvc_req(c, "WATCH dummy0 in_voltage0_raw 50", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK");
	t0 = srvtest_now_ms();
	for (n = 0; n < 6; n++) {
		CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
		CU_ASSERT(strncmp(got, "EVENT dummy0 in_voltage0_raw 73 ", 32) == 0);
		ts = event_ts(got);
		now = wall_ns();
		/* the read's wall-clock time: recent, and rising */
		CU_ASSERT(ts > last && ts <= now && now - ts < 5000000000ull);
		last = ts;
	}
	/* the first comes at once, then one per 50 ms */
	CU_ASSERT(srvtest_now_ms() - t0 >= 200 && srvtest_now_ms() - t0 < srvtest_ms(2000));
	CU_ASSERT(srvc_req(c, "UNWATCH dummy0 in_voltage0_raw", got, sizeof(got)) > 0);
	while (strncmp(got, "EVENT ", 6) == 0)
		CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK");
	/* nothing after the UNWATCH's OK */
	srvc_timeout(c, 300);
	CU_ASSERT_EQUAL(srvc_line(c, got, sizeof(got)), -EAGAIN);
	srvc_close(c);
}
TEST_CASE(test_text_events, "text events, UNWATCH");

static void test_json_events(void)
{
	struct srvc *c = srvc_open(srv.port);
	const char *want = "{\"event\":{\"device\":\"adc\",\"attr\":\"in_voltage0_raw\","
			   "\"value\":\"3300\",\"timestamp_ns\":";
	char got[512];
	int n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(srvc_req(c, "{\"id\":5,\"op\":\"watch\",\"device\":\"adc\",\"attr\":"
			   "\"in_voltage0_raw\",\"interval_ms\":20}", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "{\"id\":5,\"ok\":true}");
	for (n = 0; n < 3; n++) {
		CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
		CU_ASSERT(strncmp(got, want, strlen(want)) == 0);
	}
	/* the same attribute again: a new interval, not a second watch */
	srvc_sends(c, "{\"id\":6,\"op\":\"watch\",\"device\":\"adc\",\"attr\":\"in_voltage0_raw\","
		   "\"interval_ms\":3600000}\n{\"id\":7,\"op\":\"stats\"}\n");
	do {
		CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
	} while (strncmp(got, "{\"event\"", 8) == 0);
	CU_ASSERT_STRING_EQUAL(got, "{\"id\":6,\"ok\":true}");
	CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
	while (strncmp(got, "{\"event\"", 8) == 0)
		CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "\"watches\":1,"));
	CU_ASSERT(srvc_req(c, "{\"id\":8,\"op\":\"unwatch\"}", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "{\"id\":8,\"ok\":true}");
	srvc_close(c);
}
TEST_CASE(test_json_events, "JSON events, new interval");

/* SRV_WATCH_MAX_PER_SESSION (32) watches; the 33rd is EBUSY. */
static void test_watch_limit(void)
{
	struct srvc *c = srvc_open(srv.port);
	char req[128], got[512];
	int i, oks = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (i = 0; i < 33; i++) {
		/* 12 single-ended and 12 differential raws, then scales: 33 distinct */
		if (i < 12)
			snprintf(req, sizeof(req), "WATCH adc in_voltage%d_raw 3600000\n", i);
		else if (i < 24)
			snprintf(req, sizeof(req), "WATCH adc in_voltage%d-voltage%d_raw 3600000\n",
				 (i - 12) / 2 * 2 + (i % 2), (i - 12) / 2 * 2 + 1 - (i % 2));
		else
			snprintf(req, sizeof(req), "WATCH dummy0 %s 3600000\n",
				 (const char *[]){ "in_voltage0_raw", "in_voltage0_scale",
				 "in_voltage0_offset", "in_sampling_frequency",
				 "in_voltage1-voltage2_raw", "in_voltage-voltage_scale",
				 "in_voltage3-voltage4_raw", "in_accel_x_raw",
				 "in_accel_x_calibscale" }[i - 24]);
		srvc_sends(c, req);
		do {
			CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
		} while (strncmp(got, "EVENT", 5) == 0);
		if (strcmp(got, "OK") == 0)
			oks++;
		else if (i < 32)
			fprintf(stderr, "\n%s-> %s\n", req, got);
	}
	CU_ASSERT_EQUAL(oks, 32);
	CU_ASSERT_STRING_EQUAL(got, "ERR EBUSY at most 32 watches per connection");
	CU_ASSERT(srvc_req(c, "UNWATCH", got, sizeof(got)) > 0);
	while (strncmp(got, "EVENT", 5) == 0)
		CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK");
	srvc_close(c);
}
TEST_CASE(test_watch_limit, "32 watches, the 33rd EBUSY");

/* Failed reads are EVENTERR lines; a hung bus skips ticks rather than queue them. */
static void test_error_events(void)
{
	static const struct {
		const char *name;
		const char *req;
		const char *want;
		int max_events;		/* per second */
	} rows[] = {
		{ "NACK", "WATCH nacker in_voltage0_raw 100",
		  "EVENTERR nacker in_voltage0_raw ENXIO ", 15 },
		{ "hung bus", "WATCH hung in_voltage0_raw 20",
		  "EVENTERR hung in_voltage0_raw ETIMEDOUT ", 10 },
	};
	char got[512];
	struct srvc *c;
	long end, window = srvtest_slow() ? 5000 : 1000;
	size_t i;
	int n, max;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		max = rows[i].max_events * (int)(window / 1000);
		c = srvc_open(srv.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		TEST_ROW_ASSERT(srvc_req(c, rows[i].req, got, sizeof(got)) > 0 &&
				strcmp(got, "OK") == 0, rows[i].name);
		srvc_timeout(c, 200);
		for (n = 0, end = srvtest_now_ms() + window; srvtest_now_ms() < end;) {
			if (srvc_line(c, got, sizeof(got)) < 0)
				continue;
			TEST_ROW_ASSERT(strncmp(got, rows[i].want, strlen(rows[i].want)) == 0,
					rows[i].name);
			n++;
		}
		/* a 20 ms watch on a bus that takes 400 ms per read: a few, not 50 */
		TEST_ROW_ASSERT(n >= 1 && n <= max, rows[i].name);
		if (n < 1 || n > max)
			fprintf(stderr, "\n%s: %d events, last %s\n", rows[i].name, n, got);
		srvc_close(c);
	}
}
TEST_CASE(test_error_events, "EVENTERR, skipped ticks on a hung bus");

/* P-19: with events every 10 ms, listings still arrive whole. */
static void test_not_inside_listings(void)
{
	struct srvc *c = srvc_open(srv.port);
	char got[512];
	int i, k, n, bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(srvc_req(c, "WATCH dummy0 in_voltage0_raw 10", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK");
	for (i = 0; i < 50; i++) {
		srvc_sends(c, "CHANNELS adc\n");
		do {
			CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
		} while (strncmp(got, "EVENT ", 6) == 0);
		CU_ASSERT_FATAL(strncmp(got, "OK ", 3) == 0);
		n = atoi(got + 3);
		for (k = 0; k < n; k++) {
			CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
			if (strncmp(got, "EVENT", 5) == 0)
				bad++;
		}
		srvtest_sleep_ms(2);
	}
	CU_ASSERT_EQUAL(bad, 0);
	srvc_close(c);
}
TEST_CASE(test_not_inside_listings, "never inside a listing");

/* A watch follows its name: ENODEV while the device is gone, values when it is back. */
static void test_follows_reload(void)
{
	struct srvc *c = srvc_open(srv.port);
	char got[512];
	long end;
	bool gone = false, back = false;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(srvc_req(c, "WATCH adc in_voltage0_raw 50", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK");
	CU_ASSERT_FATAL(srvtest_rewrite_file(srv.board, DUMMY_ONLY_BOARD) == 0);
	kill(srv.pid, SIGHUP);
	for (end = srvtest_now_ms() + 5000; !gone && srvtest_now_ms() < end;) {
		CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
		gone = strncmp(got, "EVENTERR adc in_voltage0_raw ENODEV ", 36) == 0 &&
		       strstr(got, " device not on the board");
	}
	CU_ASSERT(gone);
	CU_ASSERT_FATAL(srvtest_rewrite_file(srv.board, WATCH_BOARD) == 0);
	kill(srv.pid, SIGHUP);
	for (end = srvtest_now_ms() + 5000; !back && srvtest_now_ms() < end;) {
		CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
		back = strncmp(got, "EVENT adc in_voltage0_raw 3300 ", 31) == 0;
	}
	CU_ASSERT(back);
	srvc_close(c);
}
TEST_CASE(test_follows_reload, "a watch follows a reload");

TEST_MAIN("server watch", suite_init, suite_fini)
