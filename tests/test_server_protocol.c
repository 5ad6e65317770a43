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

#include "proto.h"
#include "srvtest.h"
#include "srvvectors.h"
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

#define E2BIG_LINE	"ERR E2BIG request line longer than 4096 bytes"
#define VERSION_TEXT	"iiowire " IIOWIRE_VERSION " proto 1.0"

/* Rows of tests/vectors/ on one new connection, in order. */
static void run_vectors(const char *file)
{
	struct srvc *c = srvc_open(srv.port);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvvec_run(c, file, NULL);
	srvc_close(c);
}

static void test_requests(void)
{
	run_vectors("server_protocol_requests.txt");
}
TEST_CASE(test_requests, "every request, both spellings");

static void test_errors(void)
{
	run_vectors("server_protocol_errors.txt");
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
	/* "OK <n>" and one line per request, the last one's verb first */
	enum { N = 2000, LINES = PROTO_OP_COUNT };
	const char *last = proto_op_name(PROTO_OP_COUNT - 1);
	struct srvc *c = srvc_open(srv.port);
	char *reqs = malloc(N * 8), got[1024], head[16];
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
			snprintf(head, sizeof(head), "OK %d", LINES - 1);
			if ((k == 0 && strcmp(got, head) != 0) ||
			    (k == 1 && strcmp(got, "HELP -- list the requests") != 0) ||
			    (k == LINES - 1 && strncmp(got, last, strlen(last)) != 0)) {
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
