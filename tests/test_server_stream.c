/*
 * test_server_stream.c - STREAM, CSTREAM, UNSTREAM, STREAMS and blocks
 * against a live iiowired (server/stream*.c; PROTOCOL.md's STREAM section).
 *
 * The reply and the block framing exactly as documented; record bytes
 * exactly as the kernel lays them out for the model inputs (iio_dummy's
 * fixed table, max1363's unmasked top nibble, a demuxed subset while
 * another reader runs the union); timestamps one trigger period apart;
 * decoded csv values; every fault of the issue (impossible channel set,
 * unknown trigger, another trigger while capturing, limits at N and N+1,
 * a NACKing and a hung chip, a reload removing the device, a client that
 * disconnects mid-block, a stalled reader, --read-only) each with the
 * daemon still serving another client. Triggers as devices (DEVICES,
 * ATTRS, READ, WRITE of triggerN and iio_sysfs_trigger; trigger_now,
 * add/remove_trigger at the limit and in use; the write policy).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "srvtest.h"
#include "srvvectors.h"
#include "testutil.h"

#define STREAM_BOARD_HEAD							\
	"{\"board\": \"stream\", \"buses\": {"					\
	"  \"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"},"		\
	"  \"i2c-1\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"		\
	" \"triggers\": [{\"type\": \"hrtimer\", \"name\": \"hrt0\","		\
	"   \"sampling_frequency\": 1000},"					\
	"  {\"type\": \"hrtimer\", \"name\": \"hrt1\"},"			\
	"  {\"type\": \"sysfs\", \"number\": 0}],"				\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"	\
	"  {\"driver\": \"tsl2563\", \"bus\": \"i2c-1\", \"address\": \"0x39\"}"

#define STREAM_BOARD_ADCS							\
	", {\"driver\": \"max1363\", \"bus\": \"i2c-0\", \"address\": \"0x34\","	\
	"   \"emulate\": {\"AIN0\": 1000, \"AIN1\": 145.5, \"AIN2\": 2047.5, \"AIN3\": 0}},"	\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x36\","	\
	"   \"label\": \"nacker\", \"fault\": {\"mode\": \"nack\"}},"		\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-1\", \"address\": \"0x35\","	\
	"   \"label\": \"hung\", \"fault\": {\"mode\": \"hang\", \"hang_ms\": 400}}"

#define STREAM_BOARD	STREAM_BOARD_HEAD STREAM_BOARD_ADCS "]}"
/* the same board without the ADCs: a reload removes max1363 */
#define STREAM_BOARD_NO_ADC	STREAM_BOARD_HEAD "]}"

#define TS_PERIOD_NS	1000000LL	/* hrt0 at 1000 Hz */

static struct srvtest srv;
static char sock_path[64], sock_listen[80];

/* A unix socket as well: the kernel holds little for a reader that stops (no TCP autotuning). */
static int suite_init(void)
{
	const char *const args[] = { "--io-timeout-ms", "150", "--listen", sock_listen, NULL };

	snprintf(sock_path, sizeof(sock_path), "/tmp/iiowire-streamtest-%d.sock", (int)getpid());
	snprintf(sock_listen, sizeof(sock_listen), "unix:%s", sock_path);
	return srvtest_suite_up(&srv, STREAM_BOARD, args);
}

static int suite_fini(void)
{
	return srvtest_suite_down(&srv);
}

/* Exactly @n bytes after the lines taken so far. Return: 0 or -errno. */
static int srvc_bytes(struct srvc *c, void *out, size_t n)
{
	size_t take = n < c->len ? n : c->len;
	ssize_t r;

	memcpy(out, c->buf, take);
	memmove(c->buf, c->buf + take, c->len - take);
	c->len -= take;
	while (take < n) {
		r = recv(c->fd, (char *)out + take, n - take, 0);
		if (r <= 0)
			return r == 0 ? -EPIPE : -errno;
		take += (size_t)r;
	}
	return 0;
}

/* One text block of @c: the header fields, the payload into @pay. Return: payload bytes. */
static int read_block(struct srvc *c, int *stream, int *scans, unsigned long long *lost,
		      uint8_t *pay, size_t paylen)
{
	char line[256];
	size_t bytes;

	if (srvc_line(c, line, sizeof(line)) < 0)
		return -1;
	if (sscanf(line, "BLOCK %d %d %zu %llu", stream, scans, &bytes, lost) != 4) {
		fprintf(stderr, "not a block header: %s\n", line);
		return -1;
	}
	if (bytes > paylen || srvc_bytes(c, pay, bytes) < 0)
		return -1;
	return (int)bytes;
}

/*
 * Send @req and take its whole text reply (listings included); blocks the
 * connection's streams push meanwhile are skipped.
 */
static const char *ask(struct srvc *c, const char *req)
{
	static char got[8192];
	static uint8_t pay[65536];
	size_t bytes, used;
	ssize_t n;
	int i, count;

	if (srvc_sends(c, req) || srvc_sends(c, "\n"))
		return "<no reply>";
	do {
		n = srvc_line(c, got, sizeof(got));
		if (n < 0)
			return "<no reply>";
		if (sscanf(got, "BLOCK %*d %*d %zu", &bytes) != 1)
			break;
		if (bytes > sizeof(pay) || srvc_bytes(c, pay, bytes) < 0)
			return "<bad block>";
	} while (1);
	used = (size_t)n;
	count = strncmp(got, "OK ", 3) == 0 ? atoi(got + 3) : 0;
	for (i = 0; i < count && used + 2 < sizeof(got); i++) {
		got[used++] = '\n';
		n = srvc_line(c, got + used, sizeof(got) - used);
		if (n < 0)
			return "<short listing>";
		used += (size_t)n;
	}
	return got;
}

/* The daemon still answers a fresh client. */
static bool still_serving(void)
{
	struct srvc *c = srvc_open(srv.port);
	bool ok = c && strncmp(ask(c, "VERSION"), "OK iiowire ", 11) == 0;

	srvc_close(c);
	return ok;
}

static int64_t rec_ts(const uint8_t *rec)
{
	int64_t ts;

	memcpy(&ts, rec, sizeof(ts));
	return ts;
}

/* Lines of @c until one starts with @prefix (blocks skipped). Return: found. */
static bool wait_line(struct srvc *c, const char *prefix, char *line, size_t len, int ms)
{
	long end = srvtest_now_ms() + ms;
	uint8_t pay[65536];
	size_t bytes;

	srvc_timeout(c, ms);
	while (srvtest_now_ms() < end) {
		if (srvc_line(c, line, len) < 0)
			return false;
		if (strncmp(line, prefix, strlen(prefix)) == 0)
			return true;
		if (sscanf(line, "BLOCK %*d %*d %zu", &bytes) == 1 && bytes <= sizeof(pay))
			srvc_bytes(c, pay, bytes);
	}
	return false;
}

/* ---- the reply, the blocks, the bytes ---- */

static void test_dummy_raw(void)
{
	static const uint8_t rec0[8] = { 0x07, 0x00, 0x58, 0x01, 0, 0, 0, 0 };
	struct srvc *c = srvc_open(srv.port);
	int stream, scans, n, i;
	unsigned long long lost;
	uint8_t pay[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(ask(c, "STREAM dummy0 hrt0 3 raw voltage0 accel_x timestamp"),
			       "OK 9\nstream 1\ndevice iio:device0\ntrigger hrt0\nscans 3\n"
			       "format raw\nscan_bytes 16\nchannel voltage0 0 0 le:u13/16>>0\n"
			       "channel accel_x 3 2 le:s16/16>>0\n"
			       "channel timestamp 4 8 le:s64/64>>0");
	n = read_block(c, &stream, &scans, &lost, pay, sizeof(pay));
	CU_ASSERT_EQUAL_FATAL(n, 48);
	CU_ASSERT_EQUAL(stream, 1);
	CU_ASSERT_EQUAL(scans, 3);
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(memcmp(pay + 16 * i, rec0, 8), 0);
	/* the trigger's time: one period apart, whatever the loop did */
	CU_ASSERT_EQUAL(rec_ts(pay + 24) - rec_ts(pay + 8), TS_PERIOD_NS);
	CU_ASSERT_EQUAL(rec_ts(pay + 40) - rec_ts(pay + 24), TS_PERIOD_NS);
	CU_ASSERT_STRING_EQUAL(ask(c, "UNSTREAM 1"), "OK");
	CU_ASSERT_STRING_EQUAL(ask(c, "STREAMS"), "OK 0");
	srvc_close(c);
}
TEST_CASE(test_dummy_raw, "STREAM reply, BLOCK framing, dummy's fixed table, trigger timestamps");

static void test_max1363_two_readers(void)
{
	/* AIN0..3 = 2000, 0x123, 4095, 0 counts with the chip's top nibble of 1s */
	static const uint8_t all[8] = { 0xF7, 0xD0, 0xF1, 0x23, 0xFF, 0xFF, 0xF0, 0x00 };
	static const uint8_t sub[8] = { 0xF1, 0x23, 0xF0, 0x00, 0, 0, 0, 0 };
	struct srvc *a = srvc_open(srv.port), *b = srvc_open(srv.port), *c;
	int stream, scans;
	unsigned long long lost;
	uint8_t pay[4096];
	char line[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT(strncmp(ask(a, "STREAM max1363 hrt0 2 raw"), "OK 11\n", 6) == 0);
	CU_ASSERT(strncmp(ask(b, "STREAM max1363 - 1 raw voltage1 voltage3 timestamp"),
			  "OK 9\n", 5) == 0);
	CU_ASSERT_EQUAL_FATAL(read_block(a, &stream, &scans, &lost, pay, sizeof(pay)), 32);
	CU_ASSERT_EQUAL(memcmp(pay, all, 8), 0);
	CU_ASSERT_EQUAL_FATAL(read_block(b, &stream, &scans, &lost, pay, sizeof(pay)), 16);
	CU_ASSERT_EQUAL(memcmp(pay, sub, 8), 0);
	/* decoded: processed values (0.5 mV per count; 4095 counts is 2047.5, cut to 2047) */
	CU_ASSERT(strncmp(ask(b, "STREAM max1363 - 2 csv voltage0 voltage2"), "OK 8\n", 5) == 0);
	CU_ASSERT_FATAL(wait_line(b, "BLOCK 2 ", line, sizeof(line), 5000));
	CU_ASSERT_STRING_EQUAL(line, "BLOCK 2 2 20 0");
	CU_ASSERT_EQUAL(srvc_bytes(b, pay, 20), 0);
	CU_ASSERT_EQUAL(memcmp(pay, "1000,2047\n1000,2047\n", 20), 0);
	/* buffered mode: direct reads are EBUSY, as the kernel's claim_direct */
	c = srvc_open(srv.port);
	CU_ASSERT(strncmp(ask(c, "READ max1363 in_voltage0_raw"), "ERR EBUSY ", 10) == 0);
	srvc_close(c);
	srvc_close(a);
	srvc_close(b);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_max1363_two_readers,
	  "two readers of max1363: the union s0to3, a demuxed subset, csv values");

/* ---- bad input ---- */

struct err_row {
	const char *req;
	const char *reply;	/* prefix */
};

static const struct err_row err_rows[] = {
	{ "STREAM max1363 hrt0 4 raw voltage0 voltage0-voltage1",
	  "ERR EINVAL max1363: no scan mode has these channels together" },
	{ "STREAM max1363 hrt9 4 raw", "ERR ENODEV no trigger hrt9" },
	{ "STREAM tsl2563 hrt0 4 raw", "ERR EINVAL tsl2563 has no buffer" },
	{ "STREAM max1363 hrt0 0 raw", "ERR ERANGE scans: 0 is out of range 1..4096" },
	{ "STREAM max1363 hrt0 4097 raw", "ERR ERANGE scans: 4097 is out of range 1..4096" },
	{ "STREAM max1363 hrt0 4 raw voltage9", "ERR ENOENT max1363 has no scan element voltage9" },
	{ "STREAM max1363 hrt0 4 raw voltage0 voltage0", "ERR EINVAL channels: voltage0 named twice" },
	{ "STREAM max1363 hrt0 4 wav", "ERR EINVAL format: unknown 'wav'" },
	{ "STREAM max1363", "ERR EINVAL STREAM: missing <scans>" },
	{ "STREAM nodev hrt0 4 raw", "ERR ENODEV no device nodev" },
	{ "UNSTREAM 7", "ERR ENOENT no stream 7" },
	{ "CSTREAM nobody - 4 raw", "ERR ENODEV no consumer nobody" },
	{ "{\"op\":\"stream\",\"device\":\"dummy0\",\"scans\":2,\"channels\":\"voltage0\"}",
	  "{\"ok\":false,\"error\":\"EINVAL\",\"message\":\"channels: must be an array" },
};

static void test_errors(void)
{
	struct srvc *c = srvc_open(srv.port);
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (i = 0; i < sizeof(err_rows) / sizeof(err_rows[0]); i++) {
		const char *got = ask(c, err_rows[i].req);

		TEST_ROW_ASSERT(strncmp(got, err_rows[i].reply, strlen(err_rows[i].reply)) == 0,
				err_rows[i].req);
	}
	CU_ASSERT(strncmp(ask(c, "STREAM max1363 hrt0 4096 raw voltage0"), "OK 7\n", 5) == 0);
	CU_ASSERT_STRING_EQUAL(ask(c, "UNSTREAM"), "OK");
	srvc_close(c);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_errors, "every bad STREAM is a clear error; scans 4096 works, 4097 ERANGE");

static void test_trigger_in_use_and_limits(void)
{
	struct srvc *a = srvc_open(srv.port), *b = srvc_open(srv.port);
	char req[64];
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT(strncmp(ask(a, "STREAM dummy0 hrt0 64 raw voltage0"), "OK ", 3) == 0);
	CU_ASSERT(strncmp(ask(b, "STREAM dummy0 hrt1 64 raw voltage0"),
			  "ERR EBUSY dummy0 is capturing on hrt0", 37) == 0);
	CU_ASSERT(strncmp(ask(b, "READ dummy0 trigger/current_trigger"), "OK hrt0", 7) == 0);
	CU_ASSERT(strncmp(ask(b, "WRITE dummy0 trigger/current_trigger hrt1"), "ERR EBUSY", 9) == 0);
	/* SRV_STREAM_MAX_PER_SESSION: 15 more fit on a, the 17th does not */
	for (i = 1; i < 16; i++) {
		snprintf(req, sizeof(req), "STREAM dummy0 - 4096 raw accel_x");
		CU_ASSERT(strncmp(ask(a, req), "OK ", 3) == 0);
	}
	CU_ASSERT(strncmp(ask(a, "STREAM dummy0 - 4096 raw accel_x"),
			  "ERR EBUSY at most 16 streams per connection", 40) == 0);
	srvc_close(a);
	srvc_close(b);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_trigger_in_use_and_limits,
	  "another trigger while capturing is EBUSY; 16 streams per connection, the 17th EBUSY");

/* ---- faults ---- */

static void test_nack_and_hung_chip(void)
{
	struct srvc *a = srvc_open(srv.port), *b = srvc_open(srv.port), *d = srvc_open(srv.port);
	int stream, scans, n;
	unsigned long long lost;
	uint8_t pay[256];
	char line[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT(strncmp(ask(d, "STREAM dummy0 hrt0 8 raw voltage0"), "OK ", 3) == 0);
	/* the NACKing chip: its enable (the scan mode write) already fails */
	CU_ASSERT(strncmp(ask(a, "STREAM nacker hrt0 8 raw voltage0"), "ERR ENXIO ", 10) == 0);
	/* the hung chip: the enable passes the I/O timeout */
	CU_ASSERT(strncmp(ask(b, "STREAM hung hrt0 8 raw voltage0"), "ERR ETIMEDOUT ", 14) == 0);
	/* the dummy's reader never noticed */
	n = read_block(d, &stream, &scans, &lost, pay, sizeof(pay));
	if (n != 16)
		fprintf(stderr, "\nread_block: %d\n%s\n", n, srv.log);
	CU_ASSERT_EQUAL(n, 16);	/* 8 scans of one u16: 16 bytes, no timestamp */
	CU_ASSERT_EQUAL(lost, 0);
	(void)line;
	srvc_close(a);
	srvc_close(b);
	srvc_close(d);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_nack_and_hung_chip, "a NACKing or hung chip fails only its own stream");

static void test_disconnect_and_stall(void)
{
	struct srvc *quitter = srvc_open(srv.port), *slow = srvc_open(srv.port);
	struct srvc *fast = srvc_open(srv.port);
	int stream, scans, i;
	unsigned long long lost, lost_fast = 0;
	uint8_t pay[65536];
	char line[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(fast);
	CU_ASSERT(strncmp(ask(quitter, "STREAM dummy0 hrt0 1 raw"), "OK ", 3) == 0);
	CU_ASSERT(strncmp(ask(slow, "STREAM dummy0 hrt0 1000 raw"), "OK ", 3) == 0);
	CU_ASSERT(strncmp(ask(fast, "STREAM dummy0 hrt0 100 raw voltage0"), "OK ", 3) == 0);
	srvc_close(quitter);	/* mid-block, with blocks unread */
	/* the slow reader stops reading for 2 s; the fast one goes on, losing nothing */
	for (i = 0; i < 20; i++) {
		CU_ASSERT_EQUAL_FATAL(read_block(fast, &stream, &scans, &lost, pay, sizeof(pay)),
				      200);
		lost_fast += lost;
	}
	CU_ASSERT_EQUAL(lost_fast, 0);
	CU_ASSERT(wait_line(slow, "BLOCK", line, sizeof(line), 5000));
	srvc_close(slow);
	srvc_close(fast);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_disconnect_and_stall,
	  "a client gone mid-block and a stalled reader do not disturb another");

/* SRV_STREAM_QUEUE_BYTES, SRV_STREAM_OUT_BYTES (server/stream.h) */
#define QUEUE_BYTES	(512 * 1024)
#define OUT_BYTES	(64 * 1024)
#define FAST_BLOCK	64	/* scans per block of the stalled-reader test */

/* Scan bytes of a STREAM reply's listing; the timestamp is its last 8 bytes. */
static int reply_scan_bytes(const char *reply)
{
	const char *p = strstr(reply, "\nscan_bytes ");

	return p ? atoi(p + 12) : -1;
}

/* Index of @ts in @seen[0..n), or -1 (binary search: timestamps rise). */
static long seen_index(const int64_t *seen, long n, int64_t ts)
{
	long lo = 0, hi = n - 1, mid;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (seen[mid] == ts)
			return mid;
		if (seen[mid] < ts)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/*
 * The reader that keeps up: every scan's timestamp until @want scans came,
 * and in @cum the device's losses (a stalled trigger's, counted to every
 * reader) up to each. Return: how many.
 */
static long fast_collect(struct srvc *c, int rec, int64_t *seen, uint64_t *cum, long want,
			 unsigned long long *lost_sum)
{
	static uint8_t pay[FAST_BLOCK * 64];
	unsigned long long lost;
	int stream, scans, n, i;
	long got = 0;

	while (got + FAST_BLOCK <= want) {
		n = read_block(c, &stream, &scans, &lost, pay, sizeof(pay));
		if (n != FAST_BLOCK * rec)
			break;
		*lost_sum += lost;
		for (i = 0; i < FAST_BLOCK; i++) {
			cum[got] = *lost_sum;
			seen[got++] = rec_ts(pay + (size_t)i * (size_t)rec + (size_t)rec - 8);
		}
	}
	return got;
}

/* What the stalled reader's blocks showed against the keeping-up reader's scans. */
struct stall_check {
	long gaps, wrong_lost, holes, strangers;
	unsigned long long lost;
	long first_gap_end;	/* index in seen of the first scan after the first gap */
	bool got_newest;	/* the newest scan at the resume came */
};

/* Read the resumed reader until it passes seen[n - 1], checking each block against @seen. */
static void stall_replay(struct srvc *c, int rec, const int64_t *seen, const uint64_t *cum,
			 long n, struct stall_check *k)
{
	static uint8_t pay[FAST_BLOCK * 64];
	unsigned long long lost;
	int stream, scans, i;
	long prev = -1, idx;
	int64_t ts = 0;

	k->first_gap_end = -1;
	while (ts < seen[n - 1] &&
	       read_block(c, &stream, &scans, &lost, pay, sizeof(pay)) == FAST_BLOCK * rec) {
		for (i = 0; i < FAST_BLOCK; i++) {
			ts = rec_ts(pay + (size_t)i * (size_t)rec + (size_t)rec - 8);
			if (ts < seen[0])
				continue;	/* before the other reader began */
			idx = seen_index(seen, n, ts);
			if (idx < 0 && ts <= seen[n - 1])
				k->strangers++;
			if (idx < 0)
				continue;
			if (i == 0 && prev >= 0) {
				/* exact: the scans the other reader got in between, and
				 * what the device lost there (counted to both) */
				if ((uint64_t)(idx - prev - 1) + cum[idx] - cum[prev] != lost)
					k->wrong_lost++;
				if (lost && k->gaps++ == 0)
					k->first_gap_end = idx;
				k->lost += lost;
			} else if (prev >= 0 && idx != prev + 1) {
				k->holes++;	/* a scan missing inside a block */
			}
			prev = idx;
			k->got_newest |= idx == n - 1;
		}
	}
}

static void test_stalled_reader_gets_newest(void)
{
	struct srvc *slow = srvc_open_unix(sock_path), *fast = srvc_open(srv.port);
	char req[128], reply[8192];
	struct stall_check k = { 0 };
	unsigned long long lost_fast = 0;
	long want, n;
	int64_t *seen;
	uint64_t *cum;
	int rec;

	CU_ASSERT_PTR_NOT_NULL_FATAL(slow);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fast);
	CU_ASSERT_STRING_EQUAL(ask(fast, "WRITE hrt1 sampling_frequency 50000"), "OK");
	snprintf(req, sizeof(req), "STREAM dummy0 hrt1 %d raw voltage0 timestamp", FAST_BLOCK);
	snprintf(reply, sizeof(reply), "%s", ask(slow, req));
	rec = reply_scan_bytes(reply);
	CU_ASSERT_FATAL(rec >= 16 && rec <= 64);
	CU_ASSERT(strncmp(ask(fast, req), "OK ", 3) == 0);
	/* the slow one stops reading for three queues' worth: the socket's, the output's, its own */
	want = 3L * (QUEUE_BYTES + OUT_BYTES) / rec;
	seen = malloc((size_t)want * sizeof(*seen));
	cum = malloc((size_t)want * sizeof(*cum));
	CU_ASSERT_FATAL(seen && cum);
	srvc_timeout(fast, srvtest_ms(20000));
	n = fast_collect(fast, rec, seen, cum, want, &lost_fast);
	CU_ASSERT_FATAL(n > want - FAST_BLOCK);
	/* under valgrind the trigger itself may fall behind (counted to every reader) */
	if (!srvtest_slow())
		CU_ASSERT_EQUAL(lost_fast, 0);
	/* it reads again: a gap, counted exactly, then the newest scans, none torn */
	srvc_timeout(slow, srvtest_ms(20000));
	stall_replay(slow, rec, seen, cum, n, &k);
	CU_ASSERT(k.got_newest);
	CU_ASSERT(k.gaps >= 1);
	CU_ASSERT(k.lost > 0);
	CU_ASSERT_EQUAL(k.wrong_lost, 0);
	CU_ASSERT_EQUAL(k.holes, 0);
	CU_ASSERT_EQUAL(k.strangers, 0);
	/* what waited in its queue was the newest: at least half a queue of it before the resume */
	CU_ASSERT(k.first_gap_end >= 0 && n - k.first_gap_end >= QUEUE_BYTES / 2 / rec);
	if (!k.got_newest || k.wrong_lost || k.holes || k.first_gap_end < 0 ||
	    n - k.first_gap_end < QUEUE_BYTES / 2 / rec)
		fprintf(stderr, "\nstall: %ld scans, gaps %ld lost %llu wrong %ld holes %ld "
			"strangers %ld first gap end %ld newest %d\n", n, k.gaps, k.lost,
			k.wrong_lost, k.holes, k.strangers, k.first_gap_end, k.got_newest);
	free(seen);
	free(cum);
	srvc_close(slow);
	CU_ASSERT_STRING_EQUAL(ask(fast, "UNSTREAM"), "OK");
	CU_ASSERT_STRING_EQUAL(ask(fast, "WRITE hrt1 sampling_frequency 100"), "OK");
	srvc_close(fast);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_stalled_reader_gets_newest,
	  "a stalled unix-socket reader loses its oldest blocks: on resuming it gets the newest, "
	  "each gap's lost count exact against a reader that kept up");

/*
 * A max1238 whose bus hangs after 240 good transfers, mid-capture; the dummy
 * beside it. 240, not 24: the second reader's STREAM must be served before
 * the hang, and under valgrind 24 transfers (a few polls at 1 kHz) were
 * sometimes gone first (ETIMEDOUT for the STREAM itself, on main too).
 */
#define HANG_BOARD								\
	"{\"board\": \"hang\", \"buses\": {"					\
	"  \"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"		\
	" \"triggers\": [{\"type\": \"hrtimer\", \"name\": \"hrt0\","		\
	"   \"sampling_frequency\": 1000}],"					\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"	\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x35\","	\
	"   \"label\": \"hangs\", \"fault\": {\"mode\": \"hang\", \"after\": 240,"	\
	"   \"hang_ms\": 1500}}]}"

static void test_chip_hangs_mid_capture(void)
{
	const char *const args[] = { "--io-timeout-ms", "150", NULL };
	unsigned long long lost;
	int stream, scans, i, blocks = 0;
	struct srvc *a, *b, *d, *e;
	uint8_t pay[256];
	char line[256];
	struct srvtest h;

	CU_ASSERT_FATAL(srvtest_up(&h, HANG_BOARD, args));
	a = srvc_open(h.port);
	b = srvc_open(h.port);
	d = srvc_open(h.port);
	CU_ASSERT_FATAL(a && b && d);
	CU_ASSERT(strncmp(ask(d, "STREAM dummy0 hrt0 8 raw voltage0"), "OK ", 3) == 0);
	CU_ASSERT(strncmp(ask(a, "STREAM hangs hrt0 2 raw voltage0"), "OK ", 3) == 0);
	CU_ASSERT(strncmp(ask(b, "STREAM hangs hrt0 2 raw voltage0 timestamp"), "OK ", 3) == 0);
	/* blocks come, then the bus hangs: both readers of that chip are told */
	srvc_timeout(a, srvtest_ms(5000));
	while (srvc_line(a, line, sizeof(line)) > 0 && strncmp(line, "BLOCK 1 2 4 ", 12) == 0 &&
	       srvc_bytes(a, pay, 4) == 0)
		blocks++;
	CU_ASSERT(blocks >= 1);
	CU_ASSERT(strncmp(line, "STREAMEND 1 ETIMEDOUT ", 22) == 0);
	if (strncmp(line, "STREAMEND 1 ETIMEDOUT ", 22))
		fprintf(stderr, "\nafter %d blocks: %s\n", blocks, line);
	CU_ASSERT(wait_line(b, "STREAMEND 1 ETIMEDOUT ", line, sizeof(line), srvtest_ms(5000)));
	/* the other device's stream and new clients go on */
	for (i = 0; i < 5; i++) {
		CU_ASSERT_EQUAL(read_block(d, &stream, &scans, &lost, pay, sizeof(pay)), 16);
		/* under valgrind the loop itself may fall behind the trigger (counted lost) */
		if (!srvtest_slow())
			CU_ASSERT_EQUAL(lost, 0);
	}
	e = srvc_open(h.port);
	CU_ASSERT(e && strncmp(ask(e, "VERSION"), "OK iiowire ", 11) == 0);
	CU_ASSERT_STRING_EQUAL(ask(a, "STREAMS"), "OK 0");
	srvc_close(a);
	srvc_close(b);
	srvc_close(d);
	srvc_close(e);
	CU_ASSERT_EQUAL(srvtest_down(&h), 0);
}
TEST_CASE(test_chip_hangs_mid_capture,
	  "a chip that hangs mid-capture: STREAMEND ETIMEDOUT to each of its readers only");

static void test_reload_removes_device(void)
{
	struct srvc *c = srvc_open(srv.port);
	char line[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(strncmp(ask(c, "STREAM max1363 hrt0 4 raw voltage0"), "OK ", 3) == 0);
	CU_ASSERT_FATAL(srvtest_rewrite_file(srv.board, STREAM_BOARD_NO_ADC) == 0);
	kill(srv.pid, SIGHUP);
	CU_ASSERT(wait_line(c, "STREAMEND 1 ENODEV ", line, sizeof(line), 5000));
	CU_ASSERT(strstr(line, "removed by a board reload") != NULL);
	CU_ASSERT_STRING_EQUAL(ask(c, "STREAMS"), "OK 0");
	CU_ASSERT(strncmp(ask(c, "STREAM dummy0 hrt0 1 raw voltage0"), "OK ", 3) == 0);
	CU_ASSERT_FATAL(srvtest_rewrite_file(srv.board, STREAM_BOARD) == 0);
	kill(srv.pid, SIGHUP);
	CU_ASSERT(srvtest_log_wait(&srv, "board reloaded", 5000));
	srvc_close(c);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_reload_removes_device, "a reload removing the device: STREAMEND ENODEV");

static void test_read_only(void)
{
	const char *const args[] = { "--read-only", NULL };
	struct srvtest ro;
	struct srvc *c;

	CU_ASSERT_FATAL(srvtest_up(&ro, STREAM_BOARD, args));
	c = srvc_open(ro.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(strncmp(ask(c, "STREAM dummy0 hrt0 4 raw"),
			  "ERR EACCES dummy0: setting trigger/current_trigger is a write", 60) == 0);
	CU_ASSERT_STRING_EQUAL(ask(c, "STREAM dummy0 - 4 raw"),
			       "ERR EACCES dummy0: enabling its buffer (buffer/enable) is a write "
			       "(--read-only)");
	CU_ASSERT(strncmp(ask(c, "WRITE dummy0 buffer/enable 1"), "ERR EACCES", 10) == 0);
	CU_ASSERT(strncmp(ask(c, "VERSION"), "OK iiowire", 10) == 0);
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_down(&ro), 0);
}
TEST_CASE(test_read_only,
	  "--read-only: setting a trigger or enabling a buffer is EACCES, the rest is served");

/* ---- triggers as devices (dispatch_trig.c) ---- */

static void test_trigger_devices(void)
{
	struct srvc *c = srvc_open(srv.port);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvvec_run(c, "server_stream_triggers.txt", NULL);
	srvc_close(c);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_trigger_devices, "triggers as devices: DEVICES, ATTRS, READ, WRITE, errors");

/* trigger_now makes one scan per write; remove_trigger of a trigger in use ends its streams */
static void test_trigger_now_and_remove_in_use(void)
{
	struct srvc *a = srvc_open(srv.port), *b = srvc_open(srv.port);
	static const uint8_t rec0[2] = { 0x07, 0x00 };	/* the dummy's first voltage0 */
	int stream, scans;
	unsigned long long lost;
	uint8_t pay[64];
	char line[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT(strncmp(ask(a, "STREAM dummy0 sysfstrig0 2 raw voltage0"), "OK ", 3) == 0);
	CU_ASSERT_STRING_EQUAL(ask(b, "WRITE sysfstrig0 trigger_now 1"), "OK");
	CU_ASSERT_STRING_EQUAL(ask(b, "WRITE trigger2 trigger_now anything"), "OK");
	srvc_timeout(a, 5000);
	CU_ASSERT_EQUAL(read_block(a, &stream, &scans, &lost, pay, sizeof(pay)), 4);
	CU_ASSERT_EQUAL(scans, 2);
	CU_ASSERT_EQUAL(lost, 0);
	CU_ASSERT(memcmp(pay, rec0, 2) == 0);
	/* as the kernel, the remove succeeds; here the capture ends with ENODEV, not silently */
	CU_ASSERT_STRING_EQUAL(ask(b, "WRITE iio_sysfs_trigger remove_trigger 0"), "OK");
	CU_ASSERT(wait_line(a, "STREAMEND ", line, sizeof(line), 5000));
	CU_ASSERT(strncmp(line + strlen("STREAMEND "), "1 ENODEV", 8) == 0 ||
		  strstr(line, " ENODEV") != NULL);
	CU_ASSERT_STRING_EQUAL(ask(a, "READ dummy0 trigger/current_trigger"), "OK");
	CU_ASSERT_STRING_EQUAL(ask(b, "WRITE iio_sysfs_trigger add_trigger 0"), "OK");
	CU_ASSERT_STRING_EQUAL(ask(b, "READ trigger2 name"), "OK sysfstrig0");
	srvc_close(a);
	srvc_close(b);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_trigger_now_and_remove_in_use,
	  "trigger_now polls once per write; removing a trigger in use ends its streams");

/* IIO_TRIGGERS_MAX (128) triggers: add_trigger up to it, one more ENOSPC */
static void test_trigger_limit(void)
{
	struct srvc *c = srvc_open(srv.port);
	char req[96], want[64];
	int k, have = 3;	/* hrt0, hrt1, sysfstrig0 */

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (k = 100; have < 128; k++, have++) {
		snprintf(req, sizeof(req), "WRITE iio_sysfs_trigger add_trigger %d", k);
		CU_ASSERT_STRING_EQUAL_FATAL(ask(c, req), "OK");
	}
	snprintf(want, sizeof(want), "OK 134");	/* 5 devices, the control device, 128 */
	CU_ASSERT(strncmp(ask(c, "DEVICES"), want, strlen(want)) == 0);
	snprintf(req, sizeof(req), "WRITE iio_sysfs_trigger add_trigger %d", k);
	CU_ASSERT_STRING_EQUAL(ask(c, req), "ERR ENOSPC iio_sysfs_trigger add_trigger: "
			       "no space left on device");
	while (--k >= 100) {
		snprintf(req, sizeof(req), "WRITE iio_sysfs_trigger remove_trigger %d", k);
		CU_ASSERT_STRING_EQUAL(ask(c, req), "OK");
	}
	CU_ASSERT(strncmp(ask(c, "DEVICES"), "OK 9\n", 5) == 0);
	srvc_close(c);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_trigger_limit, "128 triggers: add_trigger at N works, at N+1 ENOSPC");

/* --read-only and --allow-write govern trigger files as any device's */
static void test_trigger_write_policy(void)
{
	const char *const ro_args[] = { "--read-only", NULL };
	const char *const aw_args[] = { "--allow-write", "hrt0:sampling_frequency",
					"--allow-write", "iio_sysfs_trigger:add_*", NULL };
	const char *const en_args[] = { "--allow-write", "dummy0:buffer/enable",
					"--allow-write", "*:trigger/current_trigger", NULL };
	struct srvtest t;
	struct srvc *c;
	char line[128];

	CU_ASSERT_FATAL(srvtest_up(&t, STREAM_BOARD, ro_args));
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(ask(c, "WRITE hrt0 sampling_frequency 5"),
			       "ERR EACCES server is read-only (--read-only)");
	CU_ASSERT_STRING_EQUAL(ask(c, "WRITE iio_sysfs_trigger add_trigger 3"),
			       "ERR EACCES server is read-only (--read-only)");
	CU_ASSERT(srvc_req(c, "READ hrt0 sampling_frequency", line, sizeof(line)) > 0);
	CU_ASSERT_STRING_EQUAL(line, "OK 1000.000000");
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_down(&t), 0);

	CU_ASSERT_FATAL(srvtest_up(&t, STREAM_BOARD, aw_args));
	CU_ASSERT(strstr(t.log, "matches no writable attribute") == NULL);
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(ask(c, "WRITE hrt0 sampling_frequency 5"), "OK");
	CU_ASSERT_STRING_EQUAL(ask(c, "WRITE trigger0 sampling_frequency 6"), "OK");
	CU_ASSERT_STRING_EQUAL(ask(c, "WRITE hrt1 sampling_frequency 5"),
			       "ERR EACCES hrt1 sampling_frequency: not writable here (--allow-write)");
	CU_ASSERT_STRING_EQUAL(ask(c, "WRITE sysfstrig0 trigger_now 1"),
			       "ERR EACCES sysfstrig0 trigger_now: not writable here (--allow-write)");
	CU_ASSERT_STRING_EQUAL(ask(c, "WRITE iio_sysfs_trigger add_trigger 3"), "OK");
	CU_ASSERT_STRING_EQUAL(ask(c, "WRITE iio_sysfs_trigger remove_trigger 3"),
			       "ERR EACCES iio_sysfs_trigger remove_trigger: not writable here "
			       "(--allow-write)");
	CU_ASSERT(srvc_req(c, "READ hrt0 sampling_frequency", line, sizeof(line)) > 0);
	CU_ASSERT_STRING_EQUAL(line, "OK 6.000000");
	CU_ASSERT_STRING_EQUAL(ask(c, "STREAM max1363 - 4 raw"),
			       "ERR EACCES max1363: enabling its buffer (buffer/enable) is a write "
			       "(--allow-write)");
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_down(&t), 0);

	/* naming a device's buffer/enable lets it capture, on the trigger it has */
	CU_ASSERT_FATAL(srvtest_up(&t, STREAM_BOARD, en_args));
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(strncmp(ask(c, "STREAM dummy0 hrt0 4 raw"), "OK ", 3) == 0);
	CU_ASSERT(strncmp(ask(c, "STREAM max1363 hrt0 4 raw"), "ERR EACCES max1363: enabling", 28)
		  == 0);
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_down(&t), 0);
}
TEST_CASE(test_trigger_write_policy, "--read-only and --allow-write govern trigger writes");

/*
 * Read @nblocks blocks of voltage0+timestamp records (16 bytes) from @c and
 * check each against the trigger's @period: the time from the previous
 * block's last scan to this one's is exactly (scans + lost) periods, so
 * every poll was either made or counted lost. Return: the lost total, or -1.
 */
static long long stall_blocks(struct srvc *c, int nblocks, int64_t period)
{
	static uint8_t pay[4096 * 16];
	unsigned long long lost, total = 0;
	int64_t prev = 0, last;
	int i, stream, scans, n;

	for (i = 0; i < nblocks; i++) {
		n = read_block(c, &stream, &scans, &lost, pay, sizeof(pay));
		if (n != scans * 16 || scans < 1)
			return -1;
		last = rec_ts(pay + (size_t)(scans - 1) * 16 + 8);
		if (prev && last - prev != (int64_t)((unsigned long long)scans + lost) * period) {
			fprintf(stderr, "\nblock %d: %d scans, %llu lost, %lld ns since the last\n", i,
				scans, lost, (long long)(last - prev));
			return -1;
		}
		prev = last;
		total += lost;
	}
	return (long long)total;
}

/* The daemon's loop stalls (SIGSTOP): the trigger's timerfd counts what came due. */
static void stall(int ms)
{
	kill(srv.pid, SIGSTOP);
	usleep((useconds_t)ms * 1000);
	kill(srv.pid, SIGCONT);
}

static void test_stall_catch_up(void)
{
	struct srvc *c = srvc_open(srv.port);
	char line[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_timeout(c, 20000);
	/* 1 kHz: a 300 ms stall is caught up, every scan made, none lost */
	CU_ASSERT(srvc_req(c, "WRITE hrt1 sampling_frequency 1000", line, sizeof(line)) > 0);
	CU_ASSERT(strncmp(ask(c, "STREAM dummy0 hrt1 50 raw voltage0 timestamp"), "OK ", 3) == 0);
	CU_ASSERT_EQUAL(stall_blocks(c, 2, 1000000), 0);
	stall(300);
	CU_ASSERT_EQUAL(stall_blocks(c, 10, 1000000), 0);
	CU_ASSERT_STRING_EQUAL(ask(c, "UNSTREAM"), "OK");
	/* 100 kHz: a 500 ms stall is 50,000 polls, past SRV_STREAM_TICK_POLLS_MAX (16384):
	 * the oldest are counted lost, and the timestamps say exactly as many are missing */
	CU_ASSERT(srvc_req(c, "WRITE hrt1 sampling_frequency 100000", line, sizeof(line)) > 0);
	CU_ASSERT(strncmp(ask(c, "STREAM dummy0 hrt1 4096 raw voltage0 timestamp"), "OK ", 3) == 0);
	CU_ASSERT(stall_blocks(c, 2, 10000) >= 0);
	stall(500);
	CU_ASSERT(stall_blocks(c, 12, 10000) >= 50000 - 16384);
	CU_ASSERT_STRING_EQUAL(ask(c, "UNSTREAM"), "OK");
	CU_ASSERT(srvc_req(c, "WRITE hrt1 sampling_frequency 100", line, sizeof(line)) > 0);
	srvc_close(c);
	CU_ASSERT(still_serving());
}
TEST_CASE(test_stall_catch_up,
	  "a stalled loop: polls due are made (1 kHz) or counted lost past the bound (100 kHz)");

/* ---- lifetimes and the daemon-wide queue bound (server/README.md, "Who owns what") ---- */

#define FULL_BOARD							\
	"{\"board\": \"full\", \"triggers\": [{\"type\": \"hrtimer\", \"name\": \"fast\","	\
	"   \"sampling_frequency\": 50000}],"					\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"}]}"
#define FULL_SCANS	1024	/* 16 KiB blocks of voltage0 + timestamp: 32 fill a reader's queue */
#define FULL_BLOCK	(FULL_SCANS * 16)

/*
 * A daemon whose freed memory is poisoned (glibc's MALLOC_PERTURB_), so a
 * use after free crashes a release build as it would ASan's.
 */
static bool full_up(struct srvtest *t, const char *const *args)
{
	bool up;

	setenv("MALLOC_PERTURB_", "165", 1);
	up = srvtest_up(t, FULL_BOARD, args);
	unsetenv("MALLOC_PERTURB_");
	return up;
}

/* @c opens @n streams of dummy0 on "fast", then stops reading. Return: how many opened. */
static int full_streams(struct srvc *c, int n)
{
	char req[96];
	int i, ok = 0;

	snprintf(req, sizeof(req), "STREAM dummy0 fast %d raw voltage0 timestamp", FULL_SCANS);
	for (i = 0; i < n; i++)
		ok += strncmp(ask(c, req), "OK ", 3) == 0;
	return ok;
}

/* Poll STATS on @c until @name reaches @want (or @ms pass). Return: the last value. */
static long stat_until(struct srvc *c, const char *name, long want, long ms)
{
	long end = srvtest_now_ms() + ms, v;

	while ((v = srvc_stat(c, name)) >= 0 && v < want && srvtest_now_ms() < end)
		srvtest_sleep_ms(50);
	return v;
}

/*
 * Issue 26's third way in: a reload ends 16 streams whose queues are full;
 * their blocks and STREAMENDs push the connection past SRV_OUT_HARD_BYTES,
 * which closes it in the middle of the reload's walk of the readers.
 */
static void test_full_streams_reload(void)
{
	struct srvtest t;
	struct srvc *c, *m;

	CU_ASSERT_FATAL(full_up(&t, NULL));
	c = srvc_open(t.port);
	m = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(full_streams(c, 16), 16);
	/* every reader's queue full: SRV_STREAM_QUEUE_BYTES each */
	CU_ASSERT_EQUAL(stat_until(m, "queued_bytes", 16L * QUEUE_BYTES, srvtest_ms(20000)),
			16L * QUEUE_BYTES);
	kill(t.pid, SIGHUP);
	CU_ASSERT(srvtest_log_wait(&t, "board reloaded", (int)srvtest_ms(5000)));
	CU_ASSERT(srvc_closed(c, (int)srvtest_ms(5000)));
	CU_ASSERT_EQUAL(srvc_stat(m, "queued_bytes"), 0);
	CU_ASSERT(strncmp(ask(m, "VERSION"), "OK iiowire ", 11) == 0);
	srvc_close(c);
	srvc_close(m);
	CU_ASSERT_EQUAL(srvtest_down(&t), 0);
}
TEST_CASE(test_full_streams_reload,
	  "16 full streams, then SIGHUP: the output limit closes the connection mid-reload, "
	  "the daemon goes on");

/* One stalled reader under --max-queued-bytes @cap: what it holds once steady. */
static long queued_under_cap(long cap, long *shed)
{
	char capv[24];
	const char *const args[] = { "--max-queued-bytes", capv, NULL };
	struct srvtest t;
	struct srvc *c, *m;
	long held = -1;

	snprintf(capv, sizeof(capv), "%ld", cap);
	*shed = -1;
	if (!full_up(&t, args))
		return -1;
	c = srvc_open(t.port);
	m = srvc_open(t.port);
	if (c && m && full_streams(c, 1) == 1 &&
	    stat_until(m, "queue_shed_bytes", 1, srvtest_ms(20000)) > 0) {
		held = srvc_stat(m, "queued_bytes");
		*shed = srvc_stat(m, "queue_shed_bytes");
		CU_ASSERT_EQUAL(srvc_stat(m, "max_queued_bytes"), cap);
	}
	srvc_close(c);
	srvc_close(m);
	CU_ASSERT_EQUAL(srvtest_down(&t), 0);
	return held;
}

/* --max-queued-bytes at N (ten blocks fit exactly) and N - 1 (the tenth is one byte too many) */
static void test_queue_cap(void)
{
	long shed;

	CU_ASSERT_EQUAL(queued_under_cap(10L * FULL_BLOCK, &shed), 10L * FULL_BLOCK);
	CU_ASSERT(shed > 0 && shed % FULL_BLOCK == 0);
	CU_ASSERT_EQUAL(queued_under_cap(10L * FULL_BLOCK - 1, &shed), 9L * FULL_BLOCK);
	CU_ASSERT(shed > 0 && shed % FULL_BLOCK == 0);
}
TEST_CASE(test_queue_cap,
	  "--max-queued-bytes: a stalled reader holds N bytes at a cap of N, sheds its oldest "
	  "block at N + 1");

TEST_MAIN("server_stream", suite_init, suite_fini)
