/*
 * test_server_protocol.c - every request and every error against a live
 * iiowired, in both spellings (server/dispatch.c through the wire).
 *
 * The daemon runs the SRVTEST_BOARD board (tests/srvtest.h): constant
 * emulated inputs, so every value is known. Rows are requests with the
 * exact reply (or its start, for listings whose tail is long); the
 * transcripts of protocol/PROTOCOL.md are the source of the expectations.
 * Further tests: 1000 pipelined requests in one write answered in order
 * (P-5), the line limit at N and N+1 (P-2), and a daemon that keeps serving
 * other clients after hostile input (P-3, P-10). One daemon for the suite.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srvtest.h"
#include "testutil.h"

static struct srvtest srv;

static int suite_init(void)
{
	return srvtest_suite_up(&srv, SRVTEST_BOARD, NULL);
}

static int suite_fini(void)
{
	return srvtest_suite_down(&srv);
}

enum match {
	EXACT,		/* the whole reply */
	PREFIX,		/* its start */
};

struct row {
	const char *name;
	const char *req;
	bool listing;	/* a text "OK <n>" followed by n lines */
	enum match match;
	const char *want;
};

#define E2BIG_LINE	"ERR E2BIG request line longer than 4096 bytes"
#define VERSION_TEXT	"iiowire " IIOWIRE_VERSION " proto 1.0"

/* One row per request and spelling; WRITE rows change state later rows read. */
static const struct row request_rows[] = {
	{ "HELP text", "HELP", true, PREFIX, "OK 16\nHELP -- list the requests\nVERSION" },
	{ "HELP json", "{\"id\":1,\"op\":\"help\"}", false, PREFIX,
	  "{\"id\":1,\"ok\":true,\"help\":[\"HELP -- list the requests\"," },
	{ "VERSION text", "version", false, EXACT, "OK " VERSION_TEXT },
	{ "VERSION json", "{\"id\":2,\"op\":\"version\"}", false, PREFIX,
	  "{\"id\":2,\"ok\":true,\"value\":\"" VERSION_TEXT "\"" },
	{ "DEVICES text", "DEVICES", true, EXACT,
	  "OK 6\niio:device0 dummy0 - -\niio:device1 max1238 0-0035 adc\n"
	  "iio:device2 twin - -\niio:device3 twin - -\n"
	  "iio:device4 max1238 1-0035 nacker\niio:device5 max1238 1-0036 eio" },
	{ "DEVICES json", "{\"id\":3,\"op\":\"devices\"}", false, PREFIX,
	  "{\"id\":3,\"ok\":true,\"devices\":[{\"id\":\"iio:device0\",\"name\":\"dummy0\"},"
	  "{\"id\":\"iio:device1\",\"name\":\"max1238\",\"label\":\"adc\",\"hwid\":\"0-0035\"}," },
	{ "DEVICE text by label", "DEVICE adc", true, EXACT,
	  "OK 6\nid iio:device1\nname max1238\nlabel adc\nhwid 0-0035\nchannels 25\nattrs 29" },
	{ "DEVICE json by hwid", "{\"id\":4,\"op\":\"device\",\"device\":\"0-0035\"}", false, EXACT,
	  "{\"id\":4,\"ok\":true,\"device\":{\"id\":\"iio:device1\",\"name\":\"max1238\","
	  "\"label\":\"adc\",\"hwid\":\"0-0035\",\"channels\":25,\"attrs\":29}}" },
	{ "ATTRS text", "attrs dummy0", true, PREFIX,
	  "OK 18\nin_voltage0_raw rw\nin_voltage0_scale rw\n" },
	{ "ATTRS json", "{\"op\":\"attrs\",\"device\":\"iio:device1\"}", false, PREFIX,
	  "{\"ok\":true,\"attrs\":[{\"name\":\"in_voltage0_raw\",\"mode\":\"r" },
	{ "CHANNELS text", "CHANNELS adc", true, PREFIX,
	  "OK 25\nvoltage 0 - AIN0 in - in_voltage0_raw,in_voltage_scale\n"
	  "voltage 1 - AIN1 in - in_voltage_scale,in_voltage1_raw\n" },
	{ "CHANNELS json", "{\"id\":5,\"op\":\"channels\",\"device\":\"dummy0\"}", false, PREFIX,
	  "{\"id\":5,\"ok\":true,\"channels\":[{\"type\":\"voltage\",\"index\":0,\"output\":false,"
	  "\"differential\":false,\"attributes\":[\"in_voltage0_raw\",\"in_voltage0_scale\","
	  "\"in_voltage0_offset\",\"in_sampling_frequency\"]}," },
	{ "READ text by label", "READ adc in_voltage0_raw", false, EXACT, "OK 3300" },
	{ "READ text by id", "read iio:device1 in_voltage_scale", false, EXACT, "OK 1.000000000" },
	{ "READ json by hwid", "{\"id\":\"r\",\"op\":\"read\",\"device\":\"0-0035\","
	  "\"attr\":\"in_voltage1_raw\"}", false, EXACT,
	  "{\"id\":\"r\",\"ok\":true,\"value\":\"1800\"}" },
	{ "WRITE text", "WRITE dummy0 out_voltage0_raw 1000", false, EXACT, "OK" },
	{ "READ back the write", "READ dummy0 out_voltage0_raw", false, EXACT, "OK 1000" },
	{ "WRITE json", "{\"id\":6,\"op\":\"write\",\"device\":\"dummy0\","
	  "\"attr\":\"out_voltage0_raw\",\"value\":\"1200\"}", false, EXACT,
	  "{\"id\":6,\"ok\":true}" },
	{ "READ back the json write", "{\"id\":7,\"op\":\"read\",\"device\":\"dummy0\","
	  "\"attr\":\"out_voltage0_raw\"}", false, EXACT,
	  "{\"id\":7,\"ok\":true,\"value\":\"1200\"}" },
	{ "MAPS text", "MAPS", true, EXACT,
	  "OK 2\nhwmon0 vin iio:device1 AIN1 0-0035\nhwmon0 vref iio:device1 AIN2 0-0035" },
	{ "MAPS json", "{\"op\":\"maps\"}", false, EXACT,
	  "{\"ok\":true,\"maps\":[{\"consumer\":\"hwmon0\",\"channel\":\"vin\",\"device\":"
	  "\"iio:device1\",\"datasheet_name\":\"AIN1\",\"provider\":\"0-0035\"},{\"consumer\":"
	  "\"hwmon0\",\"channel\":\"vref\",\"device\":\"iio:device1\",\"datasheet_name\":\"AIN2\","
	  "\"provider\":\"0-0035\"}]}" },
	{ "CONSUMER text", "CONSUMER hwmon0", true, EXACT,
	  "OK 2\nvin iio:device1 AIN1 voltage\nvref iio:device1 AIN2 voltage" },
	{ "CONSUMER json", "{\"id\":8,\"op\":\"consumer\",\"consumer\":\"hwmon0\"}", false, EXACT,
	  "{\"id\":8,\"ok\":true,\"channels\":[{\"channel\":\"vin\",\"device\":\"iio:device1\","
	  "\"datasheet_name\":\"AIN1\",\"type\":\"voltage\"},{\"channel\":\"vref\",\"device\":"
	  "\"iio:device1\",\"datasheet_name\":\"AIN2\",\"type\":\"voltage\"}]}" },
	{ "CREAD raw", "CREAD hwmon0 vin raw", false, EXACT, "OK 1800" },
	{ "CREAD processed", "cread hwmon0 vin processed", false, EXACT, "OK 1800" },
	{ "CREAD processed x1000", "CREAD hwmon0 vref processed 1000", false, EXACT, "OK 200000" },
	{ "CREAD scale text", "CREAD hwmon0 vin scale", false, EXACT, "OK 1.000000000" },
	{ "CREAD scale json", "{\"id\":9,\"op\":\"cread\",\"consumer\":\"hwmon0\","
	  "\"channel\":\"vin\",\"what\":\"scale\"}", false, EXACT,
	  "{\"id\":9,\"ok\":true,\"value\":\"1.000000000\",\"val\":4096,\"val2\":12,"
	  "\"format\":\"FRACTIONAL_LOG2\"}" },
	{ "CREAD type", "CREAD hwmon0 vref type", false, EXACT, "OK voltage" },
	{ "CREAD json processed x1000", "{\"id\":10,\"op\":\"cread\",\"consumer\":\"hwmon0\","
	  "\"channel\":\"vin\",\"what\":\"processed\",\"multiplier\":1000}", false, EXACT,
	  "{\"id\":10,\"ok\":true,\"value\":\"1800000\"}" },
	{ "UNWATCH all (none held)", "UNWATCH", false, EXACT, "OK" },
	{ "UNWATCH json", "{\"id\":11,\"op\":\"unwatch\"}", false, EXACT,
	  "{\"id\":11,\"ok\":true}" },
	{ "STATS text", "STATS", true, PREFIX, "OK 14\nuptime_ms " },
	{ "STATS json", "{\"op\":\"stats\"}", false, PREFIX,
	  "{\"ok\":true,\"stats\":{\"uptime_ms\":" },
	{ "AUTH without a token configured", "AUTH anything", false, EXACT, "OK" },
	{ "AUTH json", "{\"id\":\"a\",\"op\":\"auth\",\"token\":\"x y\"}", false, EXACT,
	  "{\"id\":\"a\",\"ok\":true}" },
	{ "blank line then VERSION", "\n \t\nVERSION", false, EXACT, "OK " VERSION_TEXT },
	{ "CRLF line", "VERSION\r", false, EXACT, "OK " VERSION_TEXT },
};

/* Every errno name the daemon sends on this board, in the spelling asked. */
static const struct row error_rows[] = {
	{ "ENOSYS text", "FROB max1238", false, EXACT,
	  "ERR ENOSYS unknown request 'FROB' (try HELP)" },
	{ "ENOSYS json", "{\"id\":13,\"op\":\"frob\"}", false, EXACT,
	  "{\"id\":13,\"ok\":false,\"error\":\"ENOSYS\",\"message\":\"op: unknown request 'frob' "
	  "(try help)\"}" },
	{ "EINVAL missing argument", "READ adc", false, EXACT,
	  "ERR EINVAL READ: missing <attr> (usage: READ <dev> <attr>)" },
	{ "EINVAL extra argument", "READ adc in_voltage0_raw extra", false, EXACT,
	  "ERR EINVAL READ: too many arguments (usage: READ <dev> <attr>)" },
	{ "EINVAL json missing member", "{\"id\":14,\"op\":\"read\",\"device\":\"adc\"}", false,
	  EXACT, "{\"id\":14,\"ok\":false,\"error\":\"EINVAL\",\"message\":\"attr: missing\"}" },
	{ "EINVAL json wrong type", "{\"id\":15,\"op\":\"read\",\"device\":\"adc\",\"attr\":5}",
	  false, EXACT,
	  "{\"id\":15,\"ok\":false,\"error\":\"EINVAL\",\"message\":\"attr: must be a string\"}" },
	{ "EINVAL malformed json", "{\"op\":\"read\",", false, EXACT,
	  "{\"ok\":false,\"error\":\"EINVAL\",\"message\":\"malformed JSON at offset 12\"}" },
	{ "EINVAL json too deep", "{\"a\":[[[[[[[[[[1]]]]]]]]]]}", false, EXACT,
	  "{\"ok\":false,\"error\":\"EINVAL\",\"message\":\"JSON nested deeper than 8 levels\"}" },
	{ "EINVAL value the driver refuses", "WRITE dummy0 in_voltage0_scale bogus", false, EXACT,
	  "ERR EINVAL dummy0 in_voltage0_scale: invalid argument" },
	{ "EINVAL cread offset of a channel without one", "CREAD hwmon0 vin offset", false, EXACT,
	  "ERR EINVAL hwmon0 vin offset: invalid argument" },
	{ "ENODEV device", "READ nosuch in_voltage0_raw", false, EXACT,
	  "ERR ENODEV no device nosuch" },
	{ "ENODEV json", "{\"id\":16,\"op\":\"device\",\"device\":\"iio:device9\"}", false, EXACT,
	  "{\"id\":16,\"ok\":false,\"error\":\"ENODEV\",\"message\":\"no device iio:device9\"}" },
	{ "ENODEV consumer", "CONSUMER nobody", false, EXACT,
	  "ERR ENODEV no channel map for consumer nobody" },
	{ "ENODEV consumer channel", "CREAD hwmon0 nochan raw", false, EXACT,
	  "ERR ENODEV no channel nochan of consumer hwmon0" },
	{ "ENOTUNIQ", "ATTRS twin", false, EXACT,
	  "ERR ENOTUNIQ twin matches several devices: iio:device2 (twin), iio:device3 (twin)" },
	{ "ENOENT attribute", "READ adc in_voltage99_raw", false, EXACT,
	  "ERR ENOENT adc has no attribute in_voltage99_raw" },
	{ "ENOENT json", "{\"id\":17,\"op\":\"read\",\"device\":\"adc\",\"attr\":\"nope\"}", false,
	  EXACT, "{\"id\":17,\"ok\":false,\"error\":\"ENOENT\",\"message\":\"adc has no attribute "
	  "nope\"}" },
	{ "ENOENT unwatch", "UNWATCH adc in_voltage0_raw", false, EXACT,
	  "ERR ENOENT no watch on adc in_voltage0_raw" },
	{ "EACCES read-only attribute", "WRITE dummy0 name other", false, EXACT,
	  "ERR EACCES dummy0 name is read-only" },
	{ "ERANGE watch interval", "WATCH adc in_voltage0_raw 5", false, EXACT,
	  "ERR ERANGE interval_ms: 5 is out of range 10..3600000" },
	{ "ERANGE multiplier", "CREAD hwmon0 vin processed 0", false, EXACT,
	  "ERR ERANGE multiplier: 0 is out of range 1..2147483647" },
	{ "ENXIO chip does not acknowledge", "READ nacker in_voltage0_raw", false, EXACT,
	  "ERR ENXIO nacker in_voltage0_raw: no such device or address" },
	{ "EIO bus error",
	  "{\"id\":18,\"op\":\"read\",\"device\":\"eio\",\"attr\":\"in_voltage0_raw\"}",
	  false, EXACT, "{\"id\":18,\"ok\":false,\"error\":\"EIO\",\"message\":"
	  "\"eio in_voltage0_raw: input/output error\"}" },
};

static void run_rows(const struct row *rows, size_t n)
{
	struct srvc *c = srvc_open(srv.port);
	static char got[SRVTEST_LINE_MAX];
	char line[8192];
	ssize_t len;
	size_t i;
	bool ok;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%s\n", rows[i].req);
		srvc_sends(c, line);
		len = srvc_reply(c, rows[i].listing, got, sizeof(got));
		if (len < 0) {
			TEST_ROW_ASSERT(false, rows[i].name);
			fprintf(stderr, "\n%s: no reply (%zd)\n", rows[i].name, len);
			break;
		}
		if (rows[i].match == EXACT)
			ok = strcmp(got, rows[i].want) == 0;
		else
			ok = strncmp(got, rows[i].want, strlen(rows[i].want)) == 0;
		TEST_ROW_ASSERT(ok, rows[i].name);
		if (!ok)
			fprintf(stderr, "\n%s:\n got: %.400s\nwant: %s\n", rows[i].name, got,
				rows[i].want);
	}
	srvc_close(c);
}

static void test_requests(void)
{
	run_rows(request_rows, sizeof(request_rows) / sizeof(request_rows[0]));
}
TEST_CASE(test_requests, "every request, both spellings");

static void test_errors(void)
{
	run_rows(error_rows, sizeof(error_rows) / sizeof(error_rows[0]));
}
TEST_CASE(test_errors, "every error, both spellings");

/* Lines that are not UTF-8 or hold NUL/control bytes: EINVAL with the offset (P-3). */
static void test_bad_bytes(void)
{
	static const struct {
		const char *name;
		const char *bytes;
		size_t len;
		const char *want;
	} rows[] = {
		{ "NUL byte", "READ adc \0x\n", 12, "ERR EINVAL NUL byte at offset 9" },
		{ "invalid UTF-8", "READ adc \xff\n", 11, "ERR EINVAL invalid UTF-8 at offset 9" },
		{ "control character", "READ adc \x01x\n", 12,
		  "ERR EINVAL control character 0x01 at offset 9" },
		{ "json with NUL", "{\"op\":\0}\n", 9,
		  "{\"ok\":false,\"error\":\"EINVAL\",\"message\":\"NUL byte at offset 6\"}" },
	};
	struct srvc *c = srvc_open(srv.port);
	char got[1024];
	size_t i;
	bool ok;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		srvc_send(c, rows[i].bytes, rows[i].len);
		ok = srvc_line(c, got, sizeof(got)) > 0 && strcmp(got, rows[i].want) == 0;
		TEST_ROW_ASSERT(ok, rows[i].name);
		if (!ok)
			fprintf(stderr, "\n%s: got %s\n", rows[i].name, got);
	}
	/* the connection is still good (P-3: it stays open) */
	CU_ASSERT(srvc_req(c, "VERSION", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK " VERSION_TEXT);
	srvc_close(c);
}
TEST_CASE(test_bad_bytes, "NUL, control and non-UTF-8 bytes");

/* P-5: 1000 requests in one write, mixed spellings, answered in order. */
static void test_pipelining(void)
{
	enum { N = 1000 };
	struct srvc *c = srvc_open(srv.port);
	char *reqs = malloc(N * 96), want[128], got[1024];
	size_t len = 0;
	int i, bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(reqs);
	for (i = 0; i < N; i++) {
		switch (i % 4) {
		case 0:
			len += (size_t)sprintf(reqs + len, "{\"id\":%d,\"op\":\"read\",\"device\":"
					       "\"adc\",\"attr\":\"in_voltage2_raw\"}\n", i);
			break;
		case 1:
			len += (size_t)sprintf(reqs + len, "READ adc in_voltage%d_raw\n", i % 3);
			break;
		case 2:
			len += (size_t)sprintf(reqs + len, "READ adc no_such_%d\n", i);
			break;
		default:
			len += (size_t)sprintf(reqs + len,
					       "{\"id\":\"s%d\",\"op\":\"version\"}\n", i);
			break;
		}
	}
	CU_ASSERT_EQUAL(srvc_send(c, reqs, len), 0);
	for (i = 0; i < N; i++) {
		static const char *const vals[] = { "3300", "1800", "200" };

		switch (i % 4) {
		case 0:
			snprintf(want, sizeof(want), "{\"id\":%d,\"ok\":true,\"value\":\"200\"}",
				 i);
			break;
		case 1:
			snprintf(want, sizeof(want), "OK %s", vals[i % 3]);
			break;
		case 2:
			snprintf(want, sizeof(want), "ERR ENOENT adc has no attribute no_such_%d",
				 i);
			break;
		default:
			snprintf(want, sizeof(want), "{\"id\":\"s%d\",\"ok\":true,", i);
			break;
		}
		if (srvc_line(c, got, sizeof(got)) < 0) {
			fprintf(stderr, "\nreply %d missing\n", i);
			bad++;
			break;
		}
		if (strncmp(got, want, strlen(want)) != 0) {
			if (!bad)
				fprintf(stderr, "\nreply %d: got %s want %s\n", i, got, want);
			bad++;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	free(reqs);
	srvc_close(c);
}
TEST_CASE(test_pipelining, "1000 pipelined requests in order");

/*
 * Replies far bigger than one wakeup's write burst (SRV_WRITE_BURST_BYTES)
 * and than the output pause (SRV_OUT_PAUSE_BYTES): 2000 HELP listings
 * (about 2 MB) asked in one write, read slowly at first, arrive whole and
 * in order.
 */
static void test_pipelined_listings(void)
{
	enum { N = 2000, LINES = 17 };
	struct srvc *c = srvc_open(srv.port);
	char *reqs = malloc(N * 8), got[1024];
	int i, k, bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(reqs);
	for (i = 0; i < N; i++)
		memcpy(reqs + i * 5, "HELP\n", 5);
	CU_ASSERT_EQUAL(srvc_send(c, reqs, N * 5), 0);
	/* let the daemon fill the socket and stop reading us for a while */
	srvtest_sleep_ms(200);
	for (i = 0; i < N && !bad; i++) {
		for (k = 0; k < LINES; k++) {
			if (srvc_line(c, got, sizeof(got)) < 0) {
				bad++;
				break;
			}
			if ((k == 0 && strcmp(got, "OK 16") != 0) ||
			    (k == 1 && strcmp(got, "HELP -- list the requests") != 0) ||
			    (k == 16 && strncmp(got, "QUIT ", 5) != 0)) {
				fprintf(stderr, "\nlisting %d line %d: %s\n", i, k, got);
				bad++;
				break;
			}
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(srvc_req(c, "VERSION", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK " VERSION_TEXT);
	free(reqs);
	srvc_close(c);
}
TEST_CASE(test_pipelined_listings, "2 MB of pipelined listings in order");

/* P-2: a line of exactly PROTO_LINE_MAX_BYTES is a request; one byte more is E2BIG, then close. */
static void test_line_limit(void)
{
	enum { MAX = 4096 };
	struct {
		const char *name;
		size_t len;
		bool crlf;
	} rows[] = {
		{ "N bytes", MAX, false },
		{ "N bytes with CRLF", MAX, true },
		{ "N+1 bytes", MAX + 1, false },
	};
	char *line = malloc(MAX + 8), got[1024];
	const char *head = "READ adc ";
	struct srvc *c;
	size_t i, hl = strlen(head);

	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		c = srvc_open(srv.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		memcpy(line, head, hl);
		memset(line + hl, 'a', rows[i].len - hl);
		strcpy(line + rows[i].len, rows[i].crlf ? "\r\n" : "\n");
		srvc_sends(c, line);
		TEST_ROW_ASSERT(srvc_line(c, got, sizeof(got)) > 0, rows[i].name);
		if (rows[i].len <= MAX) {
			TEST_ROW_ASSERT(!strncmp(got, "ERR ENOENT adc has no attribute aaaa", 36),
					rows[i].name);
			/* still open */
			TEST_ROW_ASSERT(srvc_req(c, "VERSION", got, sizeof(got)) > 0 &&
					strcmp(got, "OK " VERSION_TEXT) == 0, rows[i].name);
		} else {
			TEST_ROW_ASSERT(!strcmp(got, E2BIG_LINE), rows[i].name);
			TEST_ROW_ASSERT(srvc_closed(c, SRVTEST_REPLY_MS), rows[i].name);
		}
		srvc_close(c);
	}
	free(line);
}
TEST_CASE(test_line_limit, "line limit N and N+1");

/*
 * Hostile input on one connection never stops the daemon serving another:
 * a 1 MiB line without newline, JSON nested 100,000 deep (over the line
 * limit) and 3000 deep (under it), garbage bytes.
 */
static void test_hostile_then_serving(void)
{
	struct {
		const char *name;
		size_t len;
		char fill;	/* 0: nested JSON */
		const char *want;
	} rows[] = {
		{ "1 MiB line without newline", 1 << 20, 'x',
		  "ERR E2BIG request line longer than 4096 bytes" },
		{ "JSON nested 100000 deep", 200000, 0,
		  "ERR E2BIG request line longer than 4096 bytes" },
		{ "JSON nested 2000 deep", 4000, 0,
		  "{\"ok\":false,\"error\":\"EINVAL\","
		  "\"message\":\"JSON nested deeper than 8 levels\"}" },
		{ "random bytes", 3000, 1, NULL },
	};
	struct srvc *bad, *good;
	char *buf, got[1024];
	size_t i, j;

	good = srvc_open(srv.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(good);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bad = srvc_open(srv.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
		buf = malloc(rows[i].len + 2);
		CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
		for (j = 0; j < rows[i].len; j++) {
			if (rows[i].fill == 0)	/* {"a":[[[...]]]} */
				buf[j] = j < 5 ? "{\"a\":"[j] : j == rows[i].len - 1 ? '}' :
					 j < 5 + (rows[i].len - 6) / 2 ? '[' : ']';
			else if (rows[i].fill == 1)
				buf[j] = (char)(rand() & 0xff);
			else
				buf[j] = rows[i].fill;
		}
		if (rows[i].fill == 1)
			buf[0] = 'x';	/* not JSON: a text line, whatever follows */
		buf[rows[i].len] = '\n';
		/* the server may close mid-send on E2BIG: a send error is fine */
		srvc_send(bad, buf, rows[i].len + 1);
		if (rows[i].want) {
			TEST_ROW_ASSERT(srvc_line(bad, got, sizeof(got)) > 0 &&
					strcmp(got, rows[i].want) == 0, rows[i].name);
		}
		TEST_ROW_ASSERT(srvc_req(good, "READ adc in_voltage0_raw", got, sizeof(got)) > 0 &&
				strcmp(got, "OK 3300") == 0, rows[i].name);
		srvc_close(bad);
		free(buf);
	}
	srvc_close(good);
}
TEST_CASE(test_hostile_then_serving, "hostile input, others still served");

/* QUIT answers OK and closes (both spellings). */
static void test_quit(void)
{
	static const struct {
		const char *name;
		const char *req;
		const char *want;
	} rows[] = {
		{ "text", "QUIT", "OK" },
		{ "json", "{\"id\":99,\"op\":\"quit\"}", "{\"id\":99,\"ok\":true}" },
	};
	struct srvc *c;
	char got[256];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		c = srvc_open(srv.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		TEST_ROW_ASSERT(srvc_req(c, rows[i].req, got, sizeof(got)) >= 0 &&
				strcmp(got, rows[i].want) == 0, rows[i].name);
		TEST_ROW_ASSERT(srvc_closed(c, SRVTEST_REPLY_MS), rows[i].name);
		srvc_close(c);
	}
}
TEST_CASE(test_quit, "QUIT closes");

TEST_MAIN("server protocol", suite_init, suite_fini)
