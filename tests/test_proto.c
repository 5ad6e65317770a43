/*
 * test_proto.c - the wire codec (protocol/): framing, request decoding and
 * encoding, reply encoding and decoding, and PROTOCOL.md's transcripts.
 *
 * Tables of named rows: byte streams cut into lines (CRLF, split reads,
 * limits at N and N+1, NUL bytes); every request in both spellings decoding
 * to one struct; every class of malformed line with its errno and message;
 * ids echoed as written; replies encoded byte for byte; decoded replies
 * re-encoded to the same bytes. Finally every ```transcript block of
 * protocol/PROTOCOL.md is decoded and re-encoded line for line, so the
 * document cannot drift from the code. Requirement ids (P-n) name the
 * PROTOCOL.md rule a test proves. Pure code: no socket, no server.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio.h"
#include "proto.h"
#include "testutil.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* a string literal with its length, NUL bytes included */
#define BYTES(s)	s, sizeof(s) - 1

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool buf_is(const struct proto_buf *b, const char *want)
{
	return b->len == strlen(want) && memcmp(b->data, want, b->len) == 0;
}

/* ------------------------------------------------------------------------ */
/* Framing (P-1, P-2)                                                       */
/* ------------------------------------------------------------------------ */

#define SPLIT_OUT_MAX	6
#define SPLIT_CHUNKS_MAX	6

/* One thing the splitter hands out: a line (ret 1) or an error. */
struct split_out {
	int ret;
	const char *line;
	size_t len;
};

struct split_row {
	const char *name;
	size_t max;
	const char *data;
	size_t len;
	size_t chunks[SPLIT_CHUNKS_MAX];	/* sizes; 0 ends; none = one chunk */
	struct split_out out[SPLIT_OUT_MAX];	/* ret 0 ends */
	struct split_out flush;			/* ret 0: nothing at EOF */
};

#define L(s)	{ 1, s, sizeof(s) - 1 }
#define TOOBIG	{ -E2BIG, NULL, 0 }

static const struct split_row split_rows[] = {
	{ "LF ends a line (P-1)", 0, BYTES("READ a b\n"), { 0 }, { L("READ a b") }, { 0 } },
	{ "CRLF ends a line (P-1)", 0, BYTES("READ a b\r\n"), { 0 }, { L("READ a b") }, { 0 } },
	{ "two lines in one read", 0, BYTES("A\nB\r\nC\n"), { 0 }, { L("A"), L("B"), L("C") },
	  { 0 } },
	{ "a line split over three reads", 0, BYTES("READ a b\n"), { 3, 3, 3 },
	  { L("READ a b") }, { 0 } },
	{ "CR and LF in two reads", 0, BYTES("A\r\n"), { 2, 1 }, { L("A") }, { 0 } },
	{ "byte by byte", 0, BYTES("AB\r\nC\n"), { 1, 1, 1, 1, 1, 1 }, { L("AB"), L("C") },
	  { 0 } },
	{ "empty lines", 0, BYTES("\n\r\n"), { 0 }, { L(""), L("") }, { 0 } },
	{ "a CR inside a line stays", 0, BYTES("A\rB\n"), { 0 }, { L("A\rB") }, { 0 } },
	{ "two CRs: one is the terminator", 0, BYTES("A\r\r\n"), { 0 }, { L("A\r") }, { 0 } },
	{ "NUL bytes pass through to the decoder", 0, BYTES("A\0B\n"), { 0 }, { L("A\0B") },
	  { 0 } },
	{ "N bytes: accepted (P-2)", 8, BYTES("12345678\n"), { 0 }, { L("12345678") }, { 0 } },
	{ "N bytes + CRLF: accepted", 8, BYTES("12345678\r\n"), { 0 }, { L("12345678") },
	  { 0 } },
	{ "N bytes + CR, LF in the next read", 8, BYTES("12345678\r\n"), { 9, 1 },
	  { L("12345678") }, { 0 } },
	{ "N bytes buffered, then LF", 8, BYTES("12345678\n"), { 4, 4, 1 }, { L("12345678") },
	  { 0 } },
	{ "N+1 bytes in one read: E2BIG, then the next line (P-2)", 8,
	  BYTES("123456789\nok\n"), { 0 }, { TOOBIG, L("ok") }, { 0 } },
	{ "N+1 bytes without LF: E2BIG at once", 8, BYTES("123456789"), { 0 }, { TOOBIG },
	  { 0 } },
	{ "N+1 bytes over two reads, rest skipped", 8, BYTES("12345" "6789" "abc\nok\n"),
	  { 5, 4, 7 }, { TOOBIG, L("ok") }, { 0 } },
	{ "N bytes + CR + not LF: E2BIG", 8, BYTES("12345678\rX\nok\n"), { 9, 5 },
	  { TOOBIG, L("ok") }, { 0 } },
	{ "N bytes + CR + not LF in one read: E2BIG", 8, BYTES("12345678\rX\n"), { 0 },
	  { TOOBIG }, { 0 } },
	{ "last line without LF: flushed at EOF", 0, BYTES("A\nVERSION"), { 0 }, { L("A") },
	  L("VERSION") },
	{ "last line with CR only: flushed without it", 0, BYTES("VERSION\r"), { 0 }, { { 0 } },
	  L("VERSION") },
	{ "over-long line at EOF: nothing flushed", 4, BYTES("123456"), { 0 }, { TOOBIG },
	  { 0 } },
};

static void split_row_run(const struct split_row *r)
{
	struct proto_splitter sp;
	struct split_out got[SPLIT_OUT_MAX + 2];
	/* a line is borrowed until the next call: keep a copy */
	char copies[SPLIT_OUT_MAX + 2][64];
	size_t off = 0, n, used, line_len = 0;
	const char *line = NULL;
	int k = 0, c, ret, i;

	proto_splitter_init(&sp, r->max);
	for (c = 0; off < r->len && c <= SPLIT_CHUNKS_MAX; c++) {
		n = (c < SPLIT_CHUNKS_MAX && r->chunks[c]) ? r->chunks[c] : r->len - off;
		while (n > 0) {
			ret = proto_splitter_next(&sp, r->data + off, n, &used, &line, &line_len);
			TEST_ROW_ASSERT(used <= n, r->name);
			off += used;
			n -= used;
			if (ret == 0) {
				TEST_ROW_ASSERT(n == 0, r->name);
				break;
			}
			if (k < SPLIT_OUT_MAX + 2 && (ret != 1 || line_len <= sizeof(copies[0]))) {
				if (ret == 1)
					memcpy(copies[k], line, line_len);
				got[k] = (struct split_out){ ret, ret == 1 ? copies[k] : NULL,
							     ret == 1 ? line_len : 0 };
				k++;
			}
			/* memory stays bounded whatever comes (P-2) */
			TEST_ROW_ASSERT(sp.cap <= (r->max ? r->max : PROTO_LINE_MAX_BYTES) + 1,
					r->name);
		}
	}
	for (i = 0; i < SPLIT_OUT_MAX && r->out[i].ret; i++) {
		TEST_ROW_ASSERT(i < k, r->name);
		if (i >= k)
			break;
		TEST_ROW_ASSERT(got[i].ret == r->out[i].ret, r->name);
		if (r->out[i].ret == 1)
			TEST_ROW_ASSERT(got[i].len == r->out[i].len &&
					memcmp(got[i].line, r->out[i].line, got[i].len) == 0,
					r->name);
	}
	TEST_ROW_ASSERT(k == i, r->name);
	ret = proto_splitter_flush(&sp, &line, &line_len);
	TEST_ROW_ASSERT(ret == r->flush.ret, r->name);
	if (ret == 1 && r->flush.ret == 1)
		TEST_ROW_ASSERT(line_len == r->flush.len &&
				memcmp(line, r->flush.line, line_len) == 0, r->name);
	TEST_ROW_ASSERT(proto_splitter_pending(&sp) == 0, r->name);
	proto_splitter_fini(&sp);
	proto_splitter_fini(&sp);	/* idempotent */
}

static void test_split_rows(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(split_rows); i++)
		split_row_run(&split_rows[i]);
	proto_splitter_fini(NULL);
}
TEST_CASE(test_split_rows, "framing rows: CRLF, split reads, N and N+1, NUL (P-1, P-2)");

/* The default limit at N and N+1, and a 1 MiB line without a newline. */
static void test_split_default_limit(void)
{
	size_t big = 1024 * 1024, used, n, len, reported = 0, off;
	struct proto_splitter sp;
	const char *line;
	char *data = malloc(big + 1);
	int ret;

	CU_ASSERT_FATAL(data != NULL);
	memset(data, 'x', big);
	proto_splitter_init(&sp, 0);
	CU_ASSERT(sp.max_bytes == PROTO_LINE_MAX_BYTES);

	/* N: accepted, handed out in place */
	data[PROTO_LINE_MAX_BYTES] = '\n';
	ret = proto_splitter_next(&sp, data, PROTO_LINE_MAX_BYTES + 1, &used, &line, &len);
	CU_ASSERT(ret == 1 && len == PROTO_LINE_MAX_BYTES && line == data);
	CU_ASSERT(used == PROTO_LINE_MAX_BYTES + 1);
	/* N + 1: refused */
	data[PROTO_LINE_MAX_BYTES] = 'x';
	data[PROTO_LINE_MAX_BYTES + 1] = '\n';
	ret = proto_splitter_next(&sp, data, PROTO_LINE_MAX_BYTES + 2, &used, &line, &len);
	CU_ASSERT(ret == -E2BIG);
	data[PROTO_LINE_MAX_BYTES + 1] = 'x';

	/* 1 MiB in 64 KiB reads: one E2BIG, memory never above N + 1 */
	for (off = 0; off < big; off += n) {
		n = big - off < 65536 ? big - off : 65536;
		ret = proto_splitter_next(&sp, data + off, n, &used, &line, &len);
		if (ret == -E2BIG)
			reported++;
		CU_ASSERT(ret == 0 || ret == -E2BIG);
		CU_ASSERT(sp.cap <= PROTO_LINE_MAX_BYTES + 1);
		if (ret == -E2BIG && used < n) {
			ret = proto_splitter_next(&sp, data + off + used, n - used, &used, &line,
						  &len);
			CU_ASSERT(ret == 0);
		}
	}
	CU_ASSERT(reported == 1);
	/* the end of that line, then a good one */
	ret = proto_splitter_next(&sp, "x\nok\n", 5, &used, &line, &len);
	CU_ASSERT(ret == 1 && len == 2 && memcmp(line, "ok", 2) == 0 && used == 5);
	proto_splitter_fini(&sp);
	free(data);
}
TEST_CASE(test_split_default_limit, "framing: default limit, 1 MiB line (P-2)");

/* An idle connection's splitter gives its buffer back, never a line it holds. */
static void test_split_trim(void)
{
	struct proto_splitter sp;
	const char *line;
	size_t used, len;
	int ret;

	proto_splitter_init(&sp, 0);
	proto_splitter_trim(&sp);	/* nothing held: nothing to do */
	CU_ASSERT(sp.buf == NULL && sp.cap == 0);
	/* a line in two reads: its first half is held, and a trim keeps it */
	ret = proto_splitter_next(&sp, "READ dum", 8, &used, &line, &len);
	CU_ASSERT(ret == 0 && used == 8 && proto_splitter_pending(&sp) == 8);
	proto_splitter_trim(&sp);
	CU_ASSERT(sp.buf != NULL && proto_splitter_pending(&sp) == 8);
	ret = proto_splitter_next(&sp, "my0 x\n", 6, &used, &line, &len);
	CU_ASSERT(ret == 1 && len == 13 && memcmp(line, "READ dummy0 x", 13) == 0);
	/* between lines the buffer goes, and the next line needs none */
	proto_splitter_trim(&sp);
	CU_ASSERT(sp.buf == NULL && sp.cap == 0 && proto_splitter_pending(&sp) == 0);
	ret = proto_splitter_next(&sp, "ok\n", 3, &used, &line, &len);
	CU_ASSERT(ret == 1 && len == 2 && memcmp(line, "ok", 2) == 0 && sp.buf == NULL);
	proto_splitter_fini(&sp);
}
TEST_CASE(test_split_trim, "framing: an idle splitter frees its buffer, keeps a partial line");

/* ------------------------------------------------------------------------ */
/* Request decoding: both spellings, one struct                             */
/* ------------------------------------------------------------------------ */

struct req_want {
	enum proto_op op;
	const char *device;
	const char *attr;
	const char *value;
	const char *consumer;
	const char *channel;
	const char *token;
	enum proto_what what;
	unsigned int multiplier;
	int interval_ms;
};

struct spell_row {
	const char *name;
	const char *text;
	const char *json;
	bool canonical;		/* re-encoding gives back exactly text and json */
	struct req_want want;
};

#define OP(x)	.op = PROTO_OP_##x
#define W(x)	.what = PROTO_WHAT_##x

static const struct spell_row spell_rows[] = {
	{ "HELP", "HELP", "{\"op\":\"help\"}", true, { OP(HELP) } },
	{ "VERSION", "VERSION", "{\"op\":\"version\"}", true, { OP(VERSION) } },
	{ "DEVICES", "DEVICES", "{\"op\":\"devices\"}", true, { OP(DEVICES) } },
	{ "DEVICE", "DEVICE stargate2-adc", "{\"op\":\"device\",\"device\":\"stargate2-adc\"}",
	  true, { OP(DEVICE), .device = "stargate2-adc" } },
	{ "ATTRS", "ATTRS dummy0", "{\"op\":\"attrs\",\"device\":\"dummy0\"}", true,
	  { OP(ATTRS), .device = "dummy0" } },
	{ "CHANNELS", "CHANNELS iio:device0", "{\"op\":\"channels\",\"device\":\"iio:device0\"}",
	  true, { OP(CHANNELS), .device = "iio:device0" } },
	{ "READ", "READ max1238 in_voltage0_raw",
	  "{\"op\":\"read\",\"device\":\"max1238\",\"attr\":\"in_voltage0_raw\"}", true,
	  { OP(READ), .device = "max1238", .attr = "in_voltage0_raw" } },
	{ "READ, verb in any case, blanks and TABs (P-7)", "  rEaD\tmax1238   in_voltage0_raw \t",
	  "{ \"attr\" : \"in_voltage0_raw\" , \"op\" : \"ReAd\", \"device\":\"max1238\" } ",
	  false, { OP(READ), .device = "max1238", .attr = "in_voltage0_raw" } },
	{ "READ, UTF-8 in a name", "READ capteur-é tempé",
	  "{\"op\":\"read\",\"device\":\"capteur-\\u00e9\",\"attr\":\"temp\xc3\xa9\"}", false,
	  { OP(READ), .device = "capteur-é", .attr = "tempé" } },
	{ "READ, unknown JSON members ignored (P-8)", "READ a b",
	  "{\"op\":\"read\",\"device\":\"a\",\"attr\":\"b\",\"extra\":[1,{\"x\":null}],"
	  "\"value\":\"ignored\"}", false, { OP(READ), .device = "a", .attr = "b" } },
	{ "WRITE", "WRITE dummy0 out_voltage0_raw 1000",
	  "{\"op\":\"write\",\"device\":\"dummy0\",\"attr\":\"out_voltage0_raw\","
	  "\"value\":\"1000\"}",
	  true, { OP(WRITE), .device = "dummy0", .attr = "out_voltage0_raw", .value = "1000" } },
	{ "WRITE, the value is the rest of the line (P-7)", "WRITE d a  hello \t world  \t",
	  "{\"op\":\"write\",\"device\":\"d\",\"attr\":\"a\",\"value\":\"hello \\t world\"}",
	  false, { OP(WRITE), .device = "d", .attr = "a", .value = "hello \t world" } },
	{ "MAPS", "MAPS", "{\"op\":\"maps\"}", true, { OP(MAPS) } },
	{ "CONSUMER", "CONSUMER iio_hwmon.0", "{\"op\":\"consumer\",\"consumer\":\"iio_hwmon.0\"}",
	  true, { OP(CONSUMER), .consumer = "iio_hwmon.0" } },
	{ "CREAD raw", "CREAD iio_hwmon.0 testchan1 raw",
	  "{\"op\":\"cread\",\"consumer\":\"iio_hwmon.0\",\"channel\":\"testchan1\","
	  "\"what\":\"raw\"}",
	  true, { OP(CREAD), .consumer = "iio_hwmon.0", .channel = "testchan1", W(RAW) } },
	{ "CREAD processed", "CREAD c ch processed",
	  "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\",\"what\":\"processed\"}", true,
	  { OP(CREAD), .consumer = "c", .channel = "ch", W(PROCESSED) } },
	{ "CREAD processed with a multiplier", "CREAD c ch processed 1000",
	  "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\",\"what\":\"processed\","
	  "\"multiplier\":1000}", true,
	  { OP(CREAD), .consumer = "c", .channel = "ch", W(PROCESSED), .multiplier = 1000 } },
	{ "CREAD multiplier 1 (lowest)", "CREAD c ch processed 1",
	  "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\",\"what\":\"processed\","
	  "\"multiplier\":1}", true,
	  { OP(CREAD), .consumer = "c", .channel = "ch", W(PROCESSED), .multiplier = 1 } },
	{ "CREAD multiplier INT_MAX (highest)", "CREAD c ch processed 2147483647",
	  "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\",\"what\":\"processed\","
	  "\"multiplier\":2147483647}", true,
	  { OP(CREAD), .consumer = "c", .channel = "ch", W(PROCESSED),
	    .multiplier = INT_MAX } },
	{ "CREAD scale", "CREAD c ch scale",
	  "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\",\"what\":\"scale\"}", true,
	  { OP(CREAD), .consumer = "c", .channel = "ch", W(SCALE) } },
	{ "CREAD offset", "CREAD c ch offset",
	  "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\",\"what\":\"offset\"}", true,
	  { OP(CREAD), .consumer = "c", .channel = "ch", W(OFFSET) } },
	{ "CREAD type, what in any case", "CREAD c ch TYPE",
	  "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\",\"what\":\"Type\"}", false,
	  { OP(CREAD), .consumer = "c", .channel = "ch", W(TYPE) } },
	{ "CREAD label", "CREAD c ch label",
	  "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\",\"what\":\"label\"}", true,
	  { OP(CREAD), .consumer = "c", .channel = "ch", W(LABEL) } },
	{ "WATCH", "WATCH max1238 in_voltage2_raw 1000",
	  "{\"op\":\"watch\",\"device\":\"max1238\",\"attr\":\"in_voltage2_raw\","
	  "\"interval_ms\":1000}", true,
	  { OP(WATCH), .device = "max1238", .attr = "in_voltage2_raw", .interval_ms = 1000 } },
	{ "WATCH at the lowest interval", "WATCH d a 10",
	  "{\"op\":\"watch\",\"device\":\"d\",\"attr\":\"a\",\"interval_ms\":10}", true,
	  { OP(WATCH), .device = "d", .attr = "a", .interval_ms = PROTO_WATCH_INTERVAL_MIN_MS } },
	{ "WATCH at the highest interval", "WATCH d a 3600000",
	  "{\"op\":\"watch\",\"device\":\"d\",\"attr\":\"a\",\"interval_ms\":3600000}", true,
	  { OP(WATCH), .device = "d", .attr = "a", .interval_ms = PROTO_WATCH_INTERVAL_MAX_MS } },
	{ "WATCH, interval as 1e3 in JSON", "WATCH d a 1000",
	  "{\"op\":\"watch\",\"device\":\"d\",\"attr\":\"a\",\"interval_ms\":1e3}", false,
	  { OP(WATCH), .device = "d", .attr = "a", .interval_ms = 1000 } },
	{ "UNWATCH all", "UNWATCH", "{\"op\":\"unwatch\"}", true, { OP(UNWATCH) } },
	{ "UNWATCH one", "UNWATCH max1238 in_voltage2_raw",
	  "{\"op\":\"unwatch\",\"device\":\"max1238\",\"attr\":\"in_voltage2_raw\"}", true,
	  { OP(UNWATCH), .device = "max1238", .attr = "in_voltage2_raw" } },
	{ "STATS", "STATS", "{\"op\":\"stats\"}", true, { OP(STATS) } },
	{ "AUTH, the token is the rest of the line", "AUTH s3cret token",
	  "{\"op\":\"auth\",\"token\":\"s3cret token\"}", true,
	  { OP(AUTH), .token = "s3cret token" } },
	{ "QUIT", "QUIT", "{\"op\":\"quit\"}", true, { OP(QUIT) } },
};

static bool req_matches(const struct proto_request *req, const struct req_want *w)
{
	return req->op == w->op && str_eq(req->device, w->device) && str_eq(req->attr, w->attr) &&
	       str_eq(req->value, w->value) && str_eq(req->consumer, w->consumer) &&
	       str_eq(req->channel, w->channel) && str_eq(req->token, w->token) &&
	       (w->op != PROTO_OP_CREAD || req->what == w->what) &&
	       req->multiplier == w->multiplier && req->interval_ms == w->interval_ms;
}

static void test_spellings(void)
{
	const struct spell_row *r;
	struct proto_request req, again;
	struct proto_buf b;
	char err[PROTO_MSG_MAX_BYTES];
	int ret, s;
	size_t i;

	proto_buf_init(&b);
	for (i = 0; i < ARRAY_SIZE(spell_rows); i++) {
		r = &spell_rows[i];
		for (s = 0; s < 2; s++) {
			const char *line = s ? r->json : r->text;

			ret = proto_request_decode(&req, line, strlen(line), err, sizeof(err));
			TEST_ROW_ASSERT(ret == 0, r->name);
			TEST_ROW_ASSERT(req_matches(&req, &r->want), r->name);
			TEST_ROW_ASSERT(!!(req.flags & PROTO_REQ_JSON) == s, r->name);
			TEST_ROW_ASSERT(req.id[0] == '\0', r->name);
			/* encode in both spellings, decode again: the same request */
			b.len = 0;
			TEST_ROW_ASSERT(proto_request_encode(&b, &req) == 0, r->name);
			TEST_ROW_ASSERT(b.len && b.data[b.len - 1] == '\n', r->name);
			if (r->canonical)
				TEST_ROW_ASSERT(b.len == strlen(line) + 1 &&
						memcmp(b.data, line, b.len - 1) == 0, r->name);
			TEST_ROW_ASSERT(proto_request_decode(&again, b.data, b.len - 1, err,
							     sizeof(err)) == 0, r->name);
			TEST_ROW_ASSERT(req_matches(&again, &r->want), r->name);
			proto_request_fini(&again);
			proto_request_fini(&req);
			proto_request_fini(&req);	/* idempotent */
		}
	}
	proto_request_fini(NULL);
	proto_buf_fini(&b);
}
TEST_CASE(test_spellings, "every request in both spellings, encode round trip (P-6..P-8)");

/* A decoded request owns its strings: the line may go, the struct may move. */
static void test_request_ownership(void)
{
	struct proto_request req, moved;
	char line[] = "WRITE dummy0 out_voltage0_raw 1 2 3";

	CU_ASSERT_FATAL(proto_request_decode(&req, line, strlen(line), NULL, 0) == 0);
	memset(line, 'z', sizeof(line) - 1);
	memcpy(&moved, &req, sizeof(req));
	CU_ASSERT_STRING_EQUAL(moved.device, "dummy0");
	CU_ASSERT_STRING_EQUAL(moved.value, "1 2 3");
	proto_request_fini(&moved);
	CU_ASSERT(moved.store == NULL && moved.device == NULL);
}
TEST_CASE(test_request_ownership, "decoded requests own their strings");

/* Blank lines are no request and get no reply (P-4). */
static void test_blank_lines(void)
{
	static const char *const blanks[] = { "", " ", "\t", " \t  " };
	struct proto_request req;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(blanks); i++) {
		CU_ASSERT(proto_request_decode(&req, blanks[i], strlen(blanks[i]), NULL, 0) == 0);
		CU_ASSERT(req.op == PROTO_OP_NONE);
		proto_request_fini(&req);
	}
}
TEST_CASE(test_blank_lines, "blank lines are no request (P-4)");

/* ------------------------------------------------------------------------ */
/* Malformed requests                                                       */
/* ------------------------------------------------------------------------ */

struct bad_row {
	const char *name;
	const char *line;
	size_t len;		/* 0: strlen(line) */
	int err;
	const char *msg;
	bool json;
	const char *id;		/* what the error reply echoes */
	enum proto_op op;	/* what was understood */
};

static const struct bad_row bad_rows[] = {
	/* bytes (P-3) */
	{ "NUL byte", BYTES("READ a\0b"), -EINVAL, "NUL byte at offset 6", false, "", 0 },
	{ "NUL byte in JSON", BYTES("{\"op\":\0}"), -EINVAL, "NUL byte at offset 6", true, "", 0 },
	{ "invalid UTF-8 (0xff)", "READ \xff", 0, -EINVAL, "invalid UTF-8 at offset 5", false,
	  "", 0 },
	{ "overlong UTF-8", "READ a \xc0\xaf", 0, -EINVAL, "invalid UTF-8 at offset 7", false,
	  "", 0 },
	{ "UTF-8 surrogate", "READ \xed\xa0\x80", 0, -EINVAL, "invalid UTF-8 at offset 5",
	  false, "", 0 },
	{ "UTF-8 past U+10FFFF", "READ \xf4\x90\x80\x80", 0, -EINVAL,
	  "invalid UTF-8 at offset 5", false, "", 0 },
	{ "truncated UTF-8 at the end", "READ \xe2\x82", 0, -EINVAL,
	  "invalid UTF-8 at offset 5", false, "", 0 },
	{ "lone continuation byte", "\x80READ", 0, -EINVAL, "invalid UTF-8 at offset 0", false,
	  "", 0 },
	{ "control character", "READ a\x01", 0, -EINVAL, "control character 0x01 at offset 6",
	  false, "", 0 },
	{ "CR inside a line", "READ a\rb", 0, -EINVAL, "control character 0x0d at offset 6",
	  false, "", 0 },
	{ "DEL", "READ a\x7f", 0, -EINVAL, "control character 0x7f at offset 6", false, "", 0 },
	/* the check takes 8 bytes at a time: a bad byte at each end of a word, and after UTF-8 */
	{ "control character at offset 8", "READ dum\x01my0", 0, -EINVAL,
	  "control character 0x01 at offset 8", false, "", 0 },
	{ "DEL at offset 15", "READ dummy0 abc\x7f", 0, -EINVAL,
	  "control character 0x7f at offset 15", false, "", 0 },
	{ "NUL byte at offset 16", BYTES("READ dummy0 abcd\0x"), -EINVAL, "NUL byte at offset 16",
	  false, "", 0 },
	{ "invalid UTF-8 a word after valid UTF-8", "READ dummy0 \xc3\xa9\xc3\xa9" "abcdefgh\xff", 0,
	  -EINVAL, "invalid UTF-8 at offset 24", false, "", 0 },
	{ "raw LF inside a JSON line", "{\"op\":\n\"help\"}", 0, -EINVAL,
	  "control character 0x0a at offset 6", true, "", 0 },
	/* text (P-7, P-12) */
	{ "unknown verb: ENOSYS", "FROB max1238", 0, -ENOSYS,
	  "unknown request 'FROB' (try HELP)", false, "", 0 },
	{ "unknown verb cut to 32 bytes", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 0, -ENOSYS,
	  "unknown request 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345' (try HELP)", false, "", 0 },
	{ "JSON array is not JSON here: text, unknown", "[1]", 0, -ENOSYS,
	  "unknown request '[1]' (try HELP)", false, "", 0 },
	{ "blank then brace is text", " {\"op\":\"help\"}", 0, -ENOSYS,
	  "unknown request '{\"op\":\"help\"}' (try HELP)", false, "", 0 },
	{ "READ without arguments", "READ", 0, -EINVAL,
	  "READ: missing <dev> (usage: READ <dev> <attr>)", false, "", PROTO_OP_READ },
	{ "READ without attr", "READ max1238", 0, -EINVAL,
	  "READ: missing <attr> (usage: READ <dev> <attr>)", false, "", PROTO_OP_READ },
	{ "READ with an extra argument", "READ max1238 in_voltage0_raw extra", 0, -EINVAL,
	  "READ: too many arguments (usage: READ <dev> <attr>)", false, "", PROTO_OP_READ },
	{ "HELP with an argument", "HELP READ", 0, -EINVAL,
	  "HELP: too many arguments (usage: HELP)", false, "", PROTO_OP_HELP },
	{ "WRITE without value", "WRITE d a", 0, -EINVAL,
	  "WRITE: missing <value> (usage: WRITE <dev> <attr> <value>)", false, "",
	  PROTO_OP_WRITE },
	{ "WRITE with blanks as value", "WRITE d a  \t ", 0, -EINVAL,
	  "WRITE: missing <value> (usage: WRITE <dev> <attr> <value>)", false, "",
	  PROTO_OP_WRITE },
	{ "AUTH without token", "AUTH", 0, -EINVAL,
	  "AUTH: missing <token> (usage: AUTH <token>)", false, "", PROTO_OP_AUTH },
	{ "CREAD unknown what", "CREAD c ch volts", 0, -EINVAL,
	  "what: unknown 'volts' (raw, processed, scale, offset, type or label)", false, "",
	  PROTO_OP_CREAD },
	{ "CREAD without what", "CREAD c ch", 0, -EINVAL,
	  "CREAD: missing raw|processed|scale|offset|type|label (usage: CREAD <consumer> "
	  "<channel> raw|processed|scale|offset|type|label [<multiplier>])", false, "",
	  PROTO_OP_CREAD },
	{ "CREAD multiplier with scale", "CREAD c ch scale 1000", 0, -EINVAL,
	  "multiplier: only with processed", false, "", PROTO_OP_CREAD },
	{ "CREAD multiplier 0 (N-1)", "CREAD c ch processed 0", 0, -ERANGE,
	  "multiplier: 0 is out of range 1..2147483647", false, "", PROTO_OP_CREAD },
	{ "CREAD multiplier INT_MAX+1", "CREAD c ch processed 2147483648", 0, -ERANGE,
	  "multiplier: 2147483648 is out of range 1..2147483647", false, "", PROTO_OP_CREAD },
	{ "CREAD multiplier far too big", "CREAD c ch processed 99999999999999999999999", 0,
	  -ERANGE, "multiplier: 99999999999999999999999 is out of range 1..2147483647", false, "",
	  PROTO_OP_CREAD },
	{ "CREAD multiplier negative", "CREAD c ch processed -5", 0, -EINVAL,
	  "multiplier: '-5' is not a decimal integer", false, "", PROTO_OP_CREAD },
	{ "CREAD multiplier 1e3", "CREAD c ch processed 1e3", 0, -EINVAL,
	  "multiplier: '1e3' is not a decimal integer", false, "", PROTO_OP_CREAD },
	{ "WATCH interval N-1", "WATCH d a 9", 0, -ERANGE,
	  "interval_ms: 9 is out of range 10..3600000", false, "", PROTO_OP_WATCH },
	{ "WATCH interval max+1", "WATCH d a 3600001", 0, -ERANGE,
	  "interval_ms: 3600001 is out of range 10..3600000", false, "", PROTO_OP_WATCH },
	{ "WATCH interval not a number", "WATCH d a soon", 0, -EINVAL,
	  "interval_ms: 'soon' is not a decimal integer", false, "", PROTO_OP_WATCH },
	{ "UNWATCH with a device only", "UNWATCH max1238", 0, -EINVAL,
	  "UNWATCH: missing <attr> (usage: UNWATCH [<dev> <attr>])", false, "",
	  PROTO_OP_UNWATCH },
	/* JSON (P-8 .. P-12) */
	{ "malformed JSON", "{\"op\":\"read\",", 0, -EINVAL, "malformed JSON at offset 12", true,
	  "", 0 },
	{ "bytes after the object", "{\"op\":\"help\"} x", 0, -EINVAL,
	  "bytes after the JSON object at offset 14", true, "", 0 },
	{ "two objects", "{\"op\":\"help\"}{\"op\":\"help\"}", 0, -EINVAL,
	  "bytes after the JSON object at offset 13", true, "", 0 },
	{ "op missing", "{\"id\":1}", 0, -EINVAL, "op: missing", true, "1", 0 },
	{ "op not a string", "{\"id\":2,\"op\":5}", 0, -EINVAL, "op: must be a string", true,
	  "2", 0 },
	{ "unknown op: ENOSYS", "{\"id\":3,\"op\":\"frob\"}", 0, -ENOSYS,
	  "op: unknown request 'frob' (try help)", true, "3", 0 },
	{ "member missing", "{\"id\":4,\"op\":\"read\",\"device\":\"a\"}", 0, -EINVAL,
	  "attr: missing", true, "4", PROTO_OP_READ },
	{ "member of the wrong type", "{\"op\":\"read\",\"device\":\"a\",\"attr\":5}", 0,
	  -EINVAL, "attr: must be a string", true, "", PROTO_OP_READ },
	{ "member null", "{\"op\":\"read\",\"device\":null,\"attr\":\"b\"}", 0, -EINVAL,
	  "device: must be a string", true, "", PROTO_OP_READ },
	{ "member empty", "{\"op\":\"read\",\"device\":\"\",\"attr\":\"b\"}", 0, -EINVAL,
	  "device: empty", true, "", PROTO_OP_READ },
	{ "escaped control character in a member",
	  "{\"op\":\"write\",\"device\":\"a\",\"attr\":\"b\",\"value\":\"1\\n2\"}", 0, -EINVAL,
	  "value: control character 0x0a", true, "", PROTO_OP_WRITE },
	{ "\\u0000 in a string (P-10)", "{\"op\":\"read\",\"device\":\"a\\u0000b\",\"attr\":\"b\"}",
	  0, -EINVAL, "\\u0000 in a JSON string at offset 24", true, "", 0 },
	{ "interval as a string", "{\"op\":\"watch\",\"device\":\"a\",\"attr\":\"b\","
	  "\"interval_ms\":\"1000\"}", 0, -EINVAL, "interval_ms: must be a number", true, "",
	  PROTO_OP_WATCH },
	{ "interval with a fraction", "{\"op\":\"watch\",\"device\":\"a\",\"attr\":\"b\","
	  "\"interval_ms\":1000.5}", 0, -EINVAL, "interval_ms: must be an integer", true, "",
	  PROTO_OP_WATCH },
	{ "interval N-1", "{\"op\":\"watch\",\"device\":\"a\",\"attr\":\"b\",\"interval_ms\":9}",
	  0, -ERANGE, "interval_ms: 9 is out of range 10..3600000", true, "", PROTO_OP_WATCH },
	{ "interval negative", "{\"op\":\"watch\",\"device\":\"a\",\"attr\":\"b\","
	  "\"interval_ms\":-10}", 0, -ERANGE, "interval_ms: -10 is out of range 10..3600000",
	  true, "", PROTO_OP_WATCH },
	{ "interval 1e300", "{\"op\":\"watch\",\"device\":\"a\",\"attr\":\"b\","
	  "\"interval_ms\":1e300}", 0, -ERANGE, "interval_ms: out of range", true, "",
	  PROTO_OP_WATCH },
	{ "what not a string", "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\","
	  "\"what\":1}", 0, -EINVAL, "what: must be a string", true, "", PROTO_OP_CREAD },
	{ "multiplier with scale", "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"ch\","
	  "\"what\":\"scale\",\"multiplier\":10}", 0, -EINVAL, "multiplier: only with processed",
	  true, "", PROTO_OP_CREAD },
	{ "unwatch with a device only", "{\"id\":\"u\",\"op\":\"unwatch\",\"device\":\"a\"}", 0,
	  -EINVAL, "attr: missing", true, "\"u\"", PROTO_OP_UNWATCH },
	{ "unwatch with an attr only", "{\"op\":\"unwatch\",\"attr\":\"a\"}", 0, -EINVAL,
	  "device: missing", true, "", PROTO_OP_UNWATCH },
	{ "id an object (P-11)", "{\"id\":{\"a\":1},\"op\":\"help\"}", 0, -EINVAL,
	  "id: must be a number, string, true, false or null", true, "", 0 },
	{ "id an array", "{\"id\":[1],\"op\":\"version\"}", 0, -EINVAL,
	  "id: must be a number, string, true, false or null", true, "", 0 },
	{ "nested 9 deep (N+1, P-10)", "{\"op\":\"help\",\"x\":[[[[[[[[1]]]]]]]]}", 0, -EINVAL,
	  "JSON nested deeper than 8 levels", true, "", 0 },
	{ "object not closed", "{\"op\":\"help\"", 0, -EINVAL,
	  "malformed JSON at offset 11", true, "", 0 },
};

static void test_bad_requests(void)
{
	const struct bad_row *r;
	struct proto_request req;
	char err[PROTO_MSG_MAX_BYTES];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bad_rows); i++) {
		r = &bad_rows[i];
		memset(err, 'x', sizeof(err));
		ret = proto_request_decode(&req, r->line, r->len ? r->len : strlen(r->line), err,
					   sizeof(err));
		TEST_ROW_ASSERT(ret == r->err, r->name);
		TEST_ROW_ASSERT(strcmp(err, r->msg) == 0, r->name);
		if (strcmp(err, r->msg))
			fprintf(stderr, "\n  %s: got message \"%s\"\n", r->name, err);
		TEST_ROW_ASSERT(!!(req.flags & PROTO_REQ_JSON) == r->json, r->name);
		TEST_ROW_ASSERT(strcmp(req.id, r->id) == 0, r->name);
		TEST_ROW_ASSERT(req.op == r->op, r->name);
		/* a failed decode keeps no arguments and nothing to free */
		TEST_ROW_ASSERT(!req.store && !req.device && !req.attr && !req.value, r->name);
		proto_request_fini(&req);
	}
}
TEST_CASE(test_bad_requests, "malformed requests: errno and message (P-3, P-7..P-12)");

/* JSON 100,000 deep is refused by the flat scan, without recursion (P-10). */
static void test_deep_json(void)
{
	struct proto_request req;
	size_t depth = 100000, i;
	char *line = malloc(2 * depth + 16);
	char err[PROTO_MSG_MAX_BYTES];
	size_t n = 0;

	CU_ASSERT_FATAL(line != NULL);
	n += (size_t)sprintf(line, "{\"op\":");
	for (i = 0; i < depth; i++)
		line[n++] = '[';
	for (i = 0; i < depth; i++)
		line[n++] = ']';
	line[n++] = '}';
	CU_ASSERT(proto_request_decode(&req, line, n, err, sizeof(err)) == -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "JSON nested deeper than 8 levels");
	proto_request_fini(&req);
	/* the same with objects, and inside a string it is only text */
	n = (size_t)sprintf(line, "{\"op\":\"help\",\"x\":\"");
	for (i = 0; i < 1000; i++)
		line[n++] = '[';
	n += (size_t)sprintf(line + n, "\"}");
	CU_ASSERT(proto_request_decode(&req, line, n, err, sizeof(err)) == 0);
	CU_ASSERT(req.op == PROTO_OP_HELP);
	proto_request_fini(&req);
	/* exactly 8 levels: accepted */
	strcpy(line, "{\"op\":\"help\",\"x\":[[[[[[[1]]]]]]]}");
	CU_ASSERT(proto_request_decode(&req, line, strlen(line), err, sizeof(err)) == 0);
	proto_request_fini(&req);
	free(line);
}
TEST_CASE(test_deep_json, "JSON 100000 deep is refused flat (P-10)");

/* ------------------------------------------------------------------------ */
/* ids (P-11)                                                               */
/* ------------------------------------------------------------------------ */

struct id_row {
	const char *name;
	const char *line;
	const char *id;		/* raw text echoed */
};

static const struct id_row id_rows[] = {
	{ "integer", "{\"id\":7,\"op\":\"help\"}", "7" },
	{ "string", "{\"id\":\"a7\",\"op\":\"help\"}", "\"a7\"" },
	{ "decimal as written", "{\"id\":1.50,\"op\":\"help\"}", "1.50" },
	{ "beyond double precision", "{\"id\":12345678901234567890,\"op\":\"help\"}",
	  "12345678901234567890" },
	{ "exponent", "{\"id\":-1E+3,\"op\":\"help\"}", "-1E+3" },
	{ "true", "{\"id\":true,\"op\":\"help\"}", "true" },
	{ "false", "{\"id\":false,\"op\":\"help\"}", "false" },
	{ "null", "{\"id\":null,\"op\":\"help\"}", "null" },
	{ "string with escapes", "{\"id\":\"a\\\"b\\\\c\\u00e9\",\"op\":\"help\"}",
	  "\"a\\\"b\\\\c\\u00e9\"" },
	{ "blanks around", "{ \"id\" :  7  , \"op\":\"help\"}", "7" },
	{ "after op", "{\"op\":\"help\",\"id\":\"last\"}", "\"last\"" },
	{ "the first of two", "{\"id\":1,\"op\":\"help\",\"id\":2}", "1" },
	{ "a nested id is not the id", "{\"x\":{\"id\":5},\"op\":\"help\"}", "" },
	{ "id in a string is not the id", "{\"x\":\"\\\"id\\\":5\",\"op\":\"help\"}", "" },
	{ "key spelled with an escape", "{\"\\u0069d\":8,\"op\":\"help\"}", "8" },
};

static void test_ids(void)
{
	const struct id_row *r;
	struct proto_request req;
	struct proto_buf b;
	char want[512];
	size_t i;

	proto_buf_init(&b);
	for (i = 0; i < ARRAY_SIZE(id_rows); i++) {
		r = &id_rows[i];
		TEST_ROW_ASSERT(proto_request_decode(&req, r->line, strlen(r->line), NULL, 0) == 0,
				r->name);
		TEST_ROW_ASSERT(strcmp(req.id, r->id) == 0, r->name);
		/* the reply carries it byte for byte */
		b.len = 0;
		TEST_ROW_ASSERT(proto_reply_ok(&b, &req) == 0, r->name);
		if (r->id[0])
			snprintf(want, sizeof(want), "{\"id\":%s,\"ok\":true}\n", r->id);
		else
			snprintf(want, sizeof(want), "{\"ok\":true}\n");
		TEST_ROW_ASSERT(buf_is(&b, want), r->name);
		proto_request_fini(&req);
	}
	proto_buf_fini(&b);
}
TEST_CASE(test_ids, "ids echoed as written (P-11)");

/* An id of PROTO_ID_MAX_BYTES - 1 bytes of JSON text is kept, one more is not. */
static void test_id_limit(void)
{
	char line[PROTO_ID_MAX_BYTES + 64], err[PROTO_MSG_MAX_BYTES];
	struct proto_request req;
	size_t n;
	int k;

	for (k = 0; k < 2; k++) {
		/* a string id of (N - 2 + k) characters plus its quotes: N - 1 + k bytes */
		n = (size_t)sprintf(line, "{\"id\":\"");
		memset(line + n, 'i', PROTO_ID_MAX_BYTES - 3 + k);
		n += PROTO_ID_MAX_BYTES - 3 + k;
		n += (size_t)sprintf(line + n, "\",\"op\":\"help\"}");
		if (k == 0) {
			CU_ASSERT(proto_request_decode(&req, line, n, err, sizeof(err)) == 0);
			CU_ASSERT(strlen(req.id) == PROTO_ID_MAX_BYTES - 1);
			CU_ASSERT(memcmp(req.id, line + 6, PROTO_ID_MAX_BYTES - 1) == 0);
		} else {
			CU_ASSERT(proto_request_decode(&req, line, n, err, sizeof(err)) == -EINVAL);
			CU_ASSERT_STRING_EQUAL(err, "id: longer than 127 bytes");
			CU_ASSERT(req.id[0] == '\0' && req.op == PROTO_OP_NONE);
		}
		proto_request_fini(&req);
	}
}
TEST_CASE(test_id_limit, "id length at N and N+1 (P-11)");

/* ------------------------------------------------------------------------ */
/* Reply encoding, byte for byte                                            */
/* ------------------------------------------------------------------------ */

typedef int (*enc_fn)(struct proto_buf *b, const struct proto_request *req);

static int enc_ok(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_ok(b, req);
}

static int enc_value(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_value(b, req, BYTES("3300\n"));
}

static int enc_value_empty(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_value(b, req, BYTES("\n"));
}

static int enc_value_blanks(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_value(b, req, BYTES("1 2\t3"));
}

static int enc_value_crlf(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_value(b, req, BYTES("a\r\nb\x01\n"));
}

static int enc_value_quotes(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_value(b, req, BYTES("say \"hi\" \\ \x7f"));
}

static int enc_value_bad_utf8(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_value(b, req, BYTES("\xff\xc3\xa9\xe2\x82"));
}

static int enc_value_nul(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_value(b, req, BYTES("a\0b"));
}

static int enc_iio_value(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_iio_value(b, req, BYTES("1.000000000\n"), IIO_VAL_FRACTIONAL_LOG2,
				     4096, 12);
}

static int enc_iio_value_unknown_type(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_iio_value(b, req, BYTES("7"), 99, 7, 0);
}

static int enc_error(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_error(b, req, -ENOENT, "max1238 has no attribute in_voltage9_raw");
}

static int enc_error_default(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_error(b, req, -ETIMEDOUT, NULL);
}

static int enc_error_unknown(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_error(b, req, -EXDEV, "");
}

static int enc_error_newline(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_error(b, req, -EINVAL, "two\r\nlines");
}

static int enc_version(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_version(b, req, "0.1.0");
}

static int enc_device(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_device_info d = {
		"iio:device1", "max1238", "stargate2-adc", "0-0035", 25, 29
	};

	return proto_reply_device(b, req, &d);
}

static int enc_device_bare(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_device_info d = { "iio:device0", "dummy0", NULL, "", 9, 18 };

	return proto_reply_device(b, req, &d);
}

static int enc_stats(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_stat st[] = {
		{ "uptime_ms", 5230 }, { "bus.i2c-0.queue", 0 }, { "big", 9007199254740992 },
		{ "neg", -1 },
	};

	return proto_reply_stats(b, req, st, 4);
}

static int enc_stats_empty(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_stats(b, req, NULL, 0);
}

static int enc_devices(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_device_info d[] = {
		{ "iio:device0", "dummy0", NULL, NULL, -1, -1 },
		{ "iio:device1", "max1238", "board adc", "0-0035", -1, -1 },
	};
	int ret = proto_list_begin(b, req, 2);

	ret = ret ? ret : proto_list_device(b, req, 0, &d[0]);
	ret = ret ? ret : proto_list_device(b, req, 1, &d[1]);
	return ret ? ret : proto_list_end(b, req);
}

static int enc_devices_none(struct proto_buf *b, const struct proto_request *req)
{
	int ret = proto_list_begin(b, req, 0);

	return ret ? ret : proto_list_end(b, req);
}

static int enc_attrs(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_attr_info a[] = {
		{ "in_voltage0_raw", PROTO_ATTR_R | PROTO_ATTR_W }, { "name", PROTO_ATTR_R },
		{ "trigger", PROTO_ATTR_W }, { "odd", 0 },
	};
	int ret = proto_list_begin(b, req, 4), i;

	for (i = 0; !ret && i < 4; i++)
		ret = proto_list_attr(b, req, i, &a[i]);
	return ret ? ret : proto_list_end(b, req);
}

static int enc_channels(struct proto_buf *b, const struct proto_request *req)
{
	static const char *const at0[] = { "in_voltage0-voltage1_raw", "in_voltage-voltage_scale" };
	static const char *const at1[] = { "in_accel_x_raw" };
	static const struct proto_channel_info c[] = {
		{ "voltage", 0, NULL, "AIN0-AIN1", false, true, 1, at0, 2 },
		{ "accel", -1, "x", NULL, false, false, -1, at1, 1 },
		{ "voltage", 0, NULL, NULL, true, false, -1, NULL, 0 },
	};
	int ret = proto_list_begin(b, req, 3), i;

	for (i = 0; !ret && i < 3; i++)
		ret = proto_list_channel(b, req, i, &c[i]);
	return ret ? ret : proto_list_end(b, req);
}

static int enc_maps(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_map_info m[] = {
		{ "iio_hwmon.0", "testchan1", "iio:device1", "AIN1", "0-0035" },
		{ "iio_hwmon.1", NULL, NULL, "AIN2", "gone" },
	};
	int ret = proto_list_begin(b, req, 2);

	ret = ret ? ret : proto_list_map(b, req, 0, &m[0]);
	ret = ret ? ret : proto_list_map(b, req, 1, &m[1]);
	return ret ? ret : proto_list_end(b, req);
}

static int enc_consumer(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_consumer_info c[] = {
		{ "testchan1", "iio:device1", "AIN1", "voltage" },
		{ NULL, "iio:device1", "AIN2", "voltage" },
	};
	int ret = proto_list_begin(b, req, 2);

	ret = ret ? ret : proto_list_consumer(b, req, 0, &c[0]);
	ret = ret ? ret : proto_list_consumer(b, req, 1, &c[1]);
	return ret ? ret : proto_list_end(b, req);
}

static int enc_event(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_event ev = {
		"max1238", "in_voltage2_raw", "260\n", 0, NULL, 1767225601000000000ull
	};

	return proto_event_encode(b, req->flags & PROTO_REQ_JSON, &ev);
}

static int enc_event_blanks(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_event ev = { "d", "a", "1 2\n3", 0, NULL, UINT64_MAX };

	return proto_event_encode(b, req->flags & PROTO_REQ_JSON, &ev);
}

static int enc_event_empty(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_event ev = { "d", "a", "", 0, NULL, 0 };

	return proto_event_encode(b, req->flags & PROTO_REQ_JSON, &ev);
}

static int enc_event_error(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_event ev = {
		"max1238", "in_voltage2_raw", NULL, -ETIMEDOUT, "no answer from the bus in time", 5
	};

	return proto_event_encode(b, req->flags & PROTO_REQ_JSON, &ev);
}

static int enc_event_error_default(struct proto_buf *b, const struct proto_request *req)
{
	static const struct proto_event ev = { "d", "a", NULL, -ENODEV, NULL, 6 };

	return proto_event_encode(b, req->flags & PROTO_REQ_JSON, &ev);
}

struct enc_row {
	const char *name;
	enum proto_op op;
	enc_fn fn;
	const char *text;
	const char *json;	/* for a request with "id":7 */
};

static const struct enc_row enc_rows[] = {
	{ "OK", PROTO_OP_WRITE, enc_ok, "OK\n", "{\"id\":7,\"ok\":true}\n" },
	{ "value, trailing newline dropped (P-14)", PROTO_OP_READ, enc_value, "OK 3300\n",
	  "{\"id\":7,\"ok\":true,\"value\":\"3300\"}\n" },
	{ "empty value", PROTO_OP_READ, enc_value_empty, "OK\n",
	  "{\"id\":7,\"ok\":true,\"value\":\"\"}\n" },
	{ "value with blanks, TAB becomes a space", PROTO_OP_READ, enc_value_blanks, "OK 1 2 3\n",
	  "{\"id\":7,\"ok\":true,\"value\":\"1 2\\t3\"}\n" },
	{ "value with CR, LF, control: one line (P-14)", PROTO_OP_READ, enc_value_crlf,
	  "OK a  b \n", "{\"id\":7,\"ok\":true,\"value\":\"a\\r\\nb\\u0001\"}\n" },
	{ "value with quotes, backslash, DEL", PROTO_OP_READ, enc_value_quotes,
	  "OK say \"hi\" \\  \n",
	  "{\"id\":7,\"ok\":true,\"value\":\"say \\\"hi\\\" \\\\ \\u007f\"}\n" },
	{ "value not UTF-8: U+FFFD (P-14)", PROTO_OP_READ, enc_value_bad_utf8,
	  "OK \xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\n",
	  "{\"id\":7,\"ok\":true,\"value\":\"\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\"}\n" },
	{ "value with a NUL byte: space / U+FFFD", PROTO_OP_READ, enc_value_nul, "OK a b\n",
	  "{\"id\":7,\"ok\":true,\"value\":\"a\xef\xbf\xbd" "b\"}\n" },
	{ "scale with val, val2, format", PROTO_OP_CREAD, enc_iio_value, "OK 1.000000000\n",
	  "{\"id\":7,\"ok\":true,\"value\":\"1.000000000\",\"val\":4096,\"val2\":12,"
	  "\"format\":\"FRACTIONAL_LOG2\"}\n" },
	{ "value of an unknown IIO_VAL type: no format", PROTO_OP_CREAD,
	  enc_iio_value_unknown_type, "OK 7\n", "{\"id\":7,\"ok\":true,\"value\":\"7\"}\n" },
	{ "error", PROTO_OP_READ, enc_error,
	  "ERR ENOENT max1238 has no attribute in_voltage9_raw\n",
	  "{\"id\":7,\"ok\":false,\"error\":\"ENOENT\",\"message\":\"max1238 has no attribute "
	  "in_voltage9_raw\"}\n" },
	{ "error with the default message", PROTO_OP_READ, enc_error_default,
	  "ERR ETIMEDOUT device timed out\n",
	  "{\"id\":7,\"ok\":false,\"error\":\"ETIMEDOUT\",\"message\":\"device timed out\"}\n" },
	{ "errno not in the table goes out as EIO (P-21)", PROTO_OP_READ, enc_error_unknown,
	  "ERR EIO input/output error\n",
	  "{\"id\":7,\"ok\":false,\"error\":\"EIO\",\"message\":\"input/output error\"}\n" },
	{ "error message with CRLF (P-14)", PROTO_OP_READ, enc_error_newline,
	  "ERR EINVAL two  lines\n",
	  "{\"id\":7,\"ok\":false,\"error\":\"EINVAL\",\"message\":\"two\\r\\nlines\"}\n" },
	{ "VERSION", PROTO_OP_VERSION, enc_version, "OK iiowire 0.1.0 proto 1.0\n",
	  "{\"id\":7,\"ok\":true,\"value\":\"iiowire 0.1.0 proto 1.0\",\"release\":\"0.1.0\","
	  "\"proto_major\":1,\"proto_minor\":0}\n" },
	{ "DEVICE", PROTO_OP_DEVICE, enc_device,
	  "OK 6\nid iio:device1\nname max1238\nlabel stargate2-adc\nhwid 0-0035\nchannels 25\n"
	  "attrs 29\n",
	  "{\"id\":7,\"ok\":true,\"device\":{\"id\":\"iio:device1\",\"name\":\"max1238\","
	  "\"label\":\"stargate2-adc\",\"hwid\":\"0-0035\",\"channels\":25,\"attrs\":29}}\n" },
	{ "DEVICE without label and hwid", PROTO_OP_DEVICE, enc_device_bare,
	  "OK 4\nid iio:device0\nname dummy0\nchannels 9\nattrs 18\n",
	  "{\"id\":7,\"ok\":true,\"device\":{\"id\":\"iio:device0\",\"name\":\"dummy0\","
	  "\"channels\":9,\"attrs\":18}}\n" },
	{ "STATS", PROTO_OP_STATS, enc_stats,
	  "OK 4\nuptime_ms 5230\nbus.i2c-0.queue 0\nbig 9007199254740992\nneg -1\n",
	  "{\"id\":7,\"ok\":true,\"stats\":{\"uptime_ms\":5230,\"bus.i2c-0.queue\":0,"
	  "\"big\":9007199254740992,\"neg\":-1}}\n" },
	{ "STATS, none", PROTO_OP_STATS, enc_stats_empty, "OK 0\n",
	  "{\"id\":7,\"ok\":true,\"stats\":{}}\n" },
	{ "DEVICES, a blank in a label becomes _ (P-15)", PROTO_OP_DEVICES, enc_devices,
	  "OK 2\niio:device0 dummy0 - -\niio:device1 max1238 0-0035 board_adc\n",
	  "{\"id\":7,\"ok\":true,\"devices\":[{\"id\":\"iio:device0\",\"name\":\"dummy0\"},"
	  "{\"id\":\"iio:device1\",\"name\":\"max1238\",\"label\":\"board adc\","
	  "\"hwid\":\"0-0035\"}]}\n" },
	{ "DEVICES, none", PROTO_OP_DEVICES, enc_devices_none, "OK 0\n",
	  "{\"id\":7,\"ok\":true,\"devices\":[]}\n" },
	{ "ATTRS, every mode", PROTO_OP_ATTRS, enc_attrs,
	  "OK 4\nin_voltage0_raw rw\nname r\ntrigger w\nodd -\n",
	  "{\"id\":7,\"ok\":true,\"attrs\":[{\"name\":\"in_voltage0_raw\",\"mode\":\"rw\"},"
	  "{\"name\":\"name\",\"mode\":\"r\"},{\"name\":\"trigger\",\"mode\":\"w\"},"
	  "{\"name\":\"odd\",\"mode\":\"-\"}]}\n" },
	{ "CHANNELS: differential, modified, output without attributes", PROTO_OP_CHANNELS,
	  enc_channels,
	  "OK 3\nvoltage 0 - AIN0-AIN1 in 1 in_voltage0-voltage1_raw,in_voltage-voltage_scale\n"
	  "accel - x - in - in_accel_x_raw\nvoltage 0 - - out - -\n",
	  "{\"id\":7,\"ok\":true,\"channels\":[{\"type\":\"voltage\",\"index\":0,"
	  "\"datasheet_name\":\"AIN0-AIN1\",\"output\":false,\"differential\":true,\"index2\":1,"
	  "\"attributes\":[\"in_voltage0-voltage1_raw\",\"in_voltage-voltage_scale\"]},"
	  "{\"type\":\"accel\",\"modifier\":\"x\",\"output\":false,\"differential\":false,"
	  "\"attributes\":[\"in_accel_x_raw\"]},{\"type\":\"voltage\",\"index\":0,"
	  "\"output\":true,\"differential\":false,\"attributes\":[]}]}\n" },
	{ "MAPS, a provider not registered", PROTO_OP_MAPS, enc_maps,
	  "OK 2\niio_hwmon.0 testchan1 iio:device1 AIN1 0-0035\niio_hwmon.1 - - AIN2 gone\n",
	  "{\"id\":7,\"ok\":true,\"maps\":[{\"consumer\":\"iio_hwmon.0\",\"channel\":\"testchan1\","
	  "\"device\":\"iio:device1\",\"datasheet_name\":\"AIN1\",\"provider\":\"0-0035\"},"
	  "{\"consumer\":\"iio_hwmon.1\",\"datasheet_name\":\"AIN2\",\"provider\":\"gone\"}]}\n" },
	{ "CONSUMER, a channel without name", PROTO_OP_CONSUMER, enc_consumer,
	  "OK 2\ntestchan1 iio:device1 AIN1 voltage\n- iio:device1 AIN2 voltage\n",
	  "{\"id\":7,\"ok\":true,\"channels\":[{\"channel\":\"testchan1\","
	  "\"device\":\"iio:device1\","
	  "\"datasheet_name\":\"AIN1\",\"type\":\"voltage\"},{\"device\":\"iio:device1\","
	  "\"datasheet_name\":\"AIN2\",\"type\":\"voltage\"}]}\n" },
	{ "EVENT", PROTO_OP_WATCH, enc_event,
	  "EVENT max1238 in_voltage2_raw 260 1767225601000000000\n",
	  "{\"event\":{\"device\":\"max1238\",\"attr\":\"in_voltage2_raw\",\"value\":\"260\","
	  "\"timestamp_ns\":1767225601000000000}}\n" },
	{ "EVENT, value with blanks and a newline", PROTO_OP_WATCH, enc_event_blanks,
	  "EVENT d a 1 2 3 18446744073709551615\n",
	  "{\"event\":{\"device\":\"d\",\"attr\":\"a\",\"value\":\"1 2\\n3\","
	  "\"timestamp_ns\":18446744073709551615}}\n" },
	{ "EVENT, empty value", PROTO_OP_WATCH, enc_event_empty, "EVENT d a  0\n",
	  "{\"event\":{\"device\":\"d\",\"attr\":\"a\",\"value\":\"\",\"timestamp_ns\":0}}\n" },
	{ "EVENTERR", PROTO_OP_WATCH, enc_event_error,
	  "EVENTERR max1238 in_voltage2_raw ETIMEDOUT 5 no answer from the bus in time\n",
	  "{\"event\":{\"device\":\"max1238\",\"attr\":\"in_voltage2_raw\",\"error\":\"ETIMEDOUT\","
	  "\"message\":\"no answer from the bus in time\",\"timestamp_ns\":5}}\n" },
	{ "EVENTERR, default message", PROTO_OP_WATCH, enc_event_error_default,
	  "EVENTERR d a ENODEV 6 no such device\n",
	  "{\"event\":{\"device\":\"d\",\"attr\":\"a\",\"error\":\"ENODEV\","
	  "\"message\":\"no such device\",\"timestamp_ns\":6}}\n" },
};

/* Forward: re-encode a decoded reply (used by the round trips and transcripts). */
static int reencode(struct proto_buf *b, const struct proto_request *req,
		    const struct proto_reply *r);

static void test_encode_rows(void)
{
	struct proto_request req;
	struct proto_reply r;
	struct proto_buf b, again;
	const struct enc_row *row;
	int s, ret, n;
	size_t i, pos, eol;
	char err[PROTO_MSG_MAX_BYTES];

	proto_buf_init(&b);
	proto_buf_init(&again);
	for (i = 0; i < ARRAY_SIZE(enc_rows); i++) {
		row = &enc_rows[i];
		for (s = 0; s < 2; s++) {
			memset(&req, 0, sizeof(req));
			req.op = row->op;
			if (s) {
				req.flags = PROTO_REQ_JSON;
				strcpy(req.id, "7");
			}
			/* appends after what is there */
			proto_buf_truncate(&b, 0);
			proto_buf_append(&b, "X", 1);
			TEST_ROW_ASSERT(row->fn(&b, &req) == 0, row->name);
			TEST_ROW_ASSERT(b.len == strlen(s ? row->json : row->text) + 1 &&
					memcmp(b.data + 1, s ? row->json : row->text,
					       b.len - 1) == 0, row->name);
			if (b.len < 2)
				continue;
			/* decode it back (line by line) and encode it again: same bytes */
			eol = (size_t)((char *)memchr(b.data + 1, '\n', b.len - 1) - b.data);
			ret = proto_reply_decode(&r, row->op, b.data + 1, eol - 1, err,
						 sizeof(err));
			TEST_ROW_ASSERT(ret >= 0, row->name);
			for (pos = eol + 1, n = ret; n > 0 && pos < b.len; pos = eol + 1) {
				eol = (size_t)((char *)memchr(b.data + pos, '\n', b.len - pos) -
					       b.data);
				n = proto_reply_decode_more(&r, b.data + pos, eol - pos, err,
							    sizeof(err));
				TEST_ROW_ASSERT(n >= 0, row->name);
			}
			TEST_ROW_ASSERT(r.pending == 0 && r.json == s, row->name);
			again.len = 0;
			TEST_ROW_ASSERT(ret >= 0 && reencode(&again, &req, &r) == 0, row->name);
			TEST_ROW_ASSERT(again.len == b.len - 1 &&
					memcmp(again.data, b.data + 1, again.len) == 0, row->name);
			proto_reply_fini(&r);
		}
	}
	proto_buf_fini(&b);
	proto_buf_fini(&again);
}
TEST_CASE(test_encode_rows, "reply encoding byte for byte and back (P-13..P-15, P-21)");

/* Errors without a request are text; long messages are cut at 255 bytes (P-13, P-16). */
static void test_encode_edges(void)
{
	struct proto_request req = { .op = PROTO_OP_READ };
	char msg[600], want[300];
	struct proto_buf b;
	size_t i;

	proto_buf_init(&b);
	CU_ASSERT(proto_reply_error(&b, NULL, -E2BIG, "request line longer than 4096 bytes") == 0);
	CU_ASSERT(buf_is(&b, "ERR E2BIG request line longer than 4096 bytes\n"));

	/* 254 ASCII bytes then a 2-byte character: cut before it, not in it */
	memset(msg, 'm', 254);
	strcpy(msg + 254, "\xc3\xa9 and more");
	b.len = 0;
	CU_ASSERT(proto_reply_error(&b, &req, -EINVAL, msg) == 0);
	snprintf(want, sizeof(want), "ERR EINVAL %.254s\n", msg);
	CU_ASSERT(buf_is(&b, want));
	/* 255 bytes exactly stay */
	memset(msg, 'n', 255);
	msg[255] = '\0';
	b.len = 0;
	CU_ASSERT(proto_reply_error(&b, &req, -EINVAL, msg) == 0);
	CU_ASSERT(b.len == strlen("ERR EINVAL \n") + 255);
	/* 256: one cut */
	memset(msg, 'n', 256);
	msg[256] = '\0';
	b.len = 0;
	CU_ASSERT(proto_reply_error(&b, &req, -EINVAL, msg) == 0);
	CU_ASSERT(b.len == strlen("ERR EINVAL \n") + 255);

	/* listings only for listing requests */
	for (i = 0; i < 5; i++) {
		static const enum proto_op not_lists[] = {
			PROTO_OP_READ, PROTO_OP_DEVICE, PROTO_OP_STATS, PROTO_OP_HELP, PROTO_OP_NONE
		};

		req.op = not_lists[i];
		b.len = 0;
		CU_ASSERT(proto_list_begin(&b, &req, 1) == -EINVAL);
		CU_ASSERT(b.len == 0);
	}
	req.op = PROTO_OP_DEVICES;
	CU_ASSERT(proto_list_begin(&b, &req, -1) == -EINVAL);
	CU_ASSERT(proto_list_begin(&b, NULL, 1) == -EINVAL);
	/* an event needs a device and an attribute */
	CU_ASSERT(proto_event_encode(&b, false, &(struct proto_event){ .attr = "a" }) == -EINVAL);
	proto_buf_fini(&b);
}
TEST_CASE(test_encode_edges, "reply encoding edges (P-13, P-16)");

/* ------------------------------------------------------------------------ */
/* Reply decoding                                                           */
/* ------------------------------------------------------------------------ */

static int reencode_listing(struct proto_buf *b, const struct proto_request *req,
			    const struct proto_reply *r)
{
	int ret = proto_list_begin(b, req, r->nitems), i;

	for (i = 0; !ret && i < r->nitems; i++) {
		switch (req->op) {
		case PROTO_OP_DEVICES:
			ret = proto_list_device(b, req, i, &r->devices[i]);
			break;
		case PROTO_OP_ATTRS:
			ret = proto_list_attr(b, req, i, &r->attrs[i]);
			break;
		case PROTO_OP_CHANNELS:
			ret = proto_list_channel(b, req, i, &r->channels[i]);
			break;
		case PROTO_OP_MAPS:
			ret = proto_list_map(b, req, i, &r->maps[i]);
			break;
		case PROTO_OP_CONSUMER:
			ret = proto_list_consumer(b, req, i, &r->consumer[i]);
			break;
		default:
			ret = -EINVAL;
		}
	}
	return ret ? ret : proto_list_end(b, req);
}

static int reencode(struct proto_buf *b, const struct proto_request *req,
		    const struct proto_reply *r)
{
	struct proto_request q = *req;

	/* the reply's spelling and id are what the decoder saw */
	q.flags = r->json ? PROTO_REQ_JSON : 0;
	snprintf(q.id, sizeof(q.id), "%s", r->id ? r->id : "");
	q.store = NULL;
	if (r->kind == PROTO_REPLY_EVENT)
		return proto_event_encode(b, r->json, &r->event);
	if (r->kind == PROTO_REPLY_IEVENT)
		return proto_ievent_encode(b, r->json, &r->ievent);
	if (r->kind == PROTO_REPLY_ERR)
		return proto_reply_error(b, &q, r->err, r->message);
	switch (q.op) {
	case PROTO_OP_HELP:
		return proto_reply_help(b, &q);
	case PROTO_OP_VERSION:
		return proto_reply_version(b, &q, r->release);
	case PROTO_OP_DEVICE:
		return r->nitems == 1 ? proto_reply_device(b, &q, &r->devices[0]) : -EINVAL;
	case PROTO_OP_STATS:
		return proto_reply_stats(b, &q, r->stats, r->nitems);
	case PROTO_OP_DEVICES:
	case PROTO_OP_ATTRS:
	case PROTO_OP_CHANNELS:
	case PROTO_OP_MAPS:
	case PROTO_OP_CONSUMER:
	case PROTO_OP_STREAMS:
		return reencode_listing(b, &q, r);
	default:
		break;
	}
	if (r->has_val)
		return proto_reply_iio_value(b, &q, r->value, strlen(r->value), r->format, r->val,
					     r->val2);
	if (r->value && (r->value[0] || r->json || q.op == PROTO_OP_READ ||
			 q.op == PROTO_OP_CREAD))
		return proto_reply_value(b, &q, r->value, strlen(r->value));
	return proto_reply_ok(b, &q);
}

/* What the decoder gives, field by field, for a few lines. */
static void test_decode_fields(void)
{
	struct proto_reply r;
	char err[PROTO_MSG_MAX_BYTES];
	const char *line;

	line = "OK iiowire 0.1.0 proto 1.0";
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_VERSION, line, strlen(line), err,
				     sizeof(err)) == 0);
	CU_ASSERT(r.kind == PROTO_REPLY_OK && r.proto_major == 1 && r.proto_minor == 0);
	CU_ASSERT(str_eq(r.release, "0.1.0") && str_eq(r.value, "iiowire 0.1.0 proto 1.0"));
	proto_reply_fini(&r);

	line = "OK";
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_READ, line, 2, err, sizeof(err)) == 0);
	CU_ASSERT(r.kind == PROTO_REPLY_OK && r.value == NULL && !r.json);
	proto_reply_fini(&r);

	line = "ERR ENOTUNIQ adc matches several devices: iio:device1 (0-0035), iio:device4";
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_READ, line, strlen(line), err,
				     sizeof(err)) == 0);
	CU_ASSERT(r.kind == PROTO_REPLY_ERR && r.err == -ENOTUNIQ);
	CU_ASSERT(str_eq(r.error_name, "ENOTUNIQ"));
	CU_ASSERT(str_eq(r.message,
			 "adc matches several devices: iio:device1 (0-0035), iio:device4"));
	proto_reply_fini(&r);

	/* a name from a later version: EPROTO, the name kept (P-18) */
	line = "{\"id\":\"x\",\"ok\":false,\"error\":\"EFUTURE\",\"message\":\"m\"}";
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_READ, line, strlen(line), err,
				     sizeof(err)) == 0);
	CU_ASSERT(r.kind == PROTO_REPLY_ERR && r.err == -EPROTO && r.json);
	CU_ASSERT(str_eq(r.error_name, "EFUTURE") && str_eq(r.id, "\"x\""));
	proto_reply_fini(&r);

	/* ERR without message: the table's */
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_READ, "ERR EIO", 7, err, sizeof(err)) == 0);
	CU_ASSERT(r.err == -EIO && str_eq(r.message, "input/output error"));
	proto_reply_fini(&r);

	/* exact timestamps past 2^53, in both spellings */
	line = "{\"event\":{\"device\":\"d\",\"attr\":\"a\",\"value\":\"1\","
	       "\"timestamp_ns\":18446744073709551615}}";
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_NONE, line, strlen(line), err,
				     sizeof(err)) == 0);
	CU_ASSERT(r.kind == PROTO_REPLY_EVENT && r.event.timestamp_ns == UINT64_MAX);
	proto_reply_fini(&r);
	line = "{\"event\":{\"device\":\"d\",\"attr\":\"a\",\"value\":\"1\","
	       "\"timestamp_ns\":1767225601000000001}}";
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_READ, line, strlen(line), err,
				     sizeof(err)) == 0);
	CU_ASSERT(r.kind == PROTO_REPLY_EVENT && r.event.timestamp_ns == 1767225601000000001ull);
	proto_reply_fini(&r);
	line = "EVENT d a 1 2  3 1767225601000000001";
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_READ, line, strlen(line), err,
				     sizeof(err)) == 0);
	CU_ASSERT(r.kind == PROTO_REPLY_EVENT && str_eq(r.event.value, "1 2  3"));
	CU_ASSERT(str_eq(r.event.device, "d") && str_eq(r.event.attr, "a"));
	CU_ASSERT(r.event.timestamp_ns == 1767225601000000001ull && r.event.err == 0);
	proto_reply_fini(&r);
	line = "EVENTERR d a ENXIO 9 chip did not answer";
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_NONE, line, strlen(line), err,
				     sizeof(err)) == 0);
	CU_ASSERT(r.event.err == -ENXIO && str_eq(r.event.message, "chip did not answer"));
	CU_ASSERT(r.event.value == NULL && r.event.timestamp_ns == 9);
	proto_reply_fini(&r);

	/* scale for exact arithmetic */
	line = "{\"ok\":true,\"value\":\"0.001333\",\"val\":0,\"val2\":1333,"
	       "\"format\":\"INT_PLUS_MICRO\"}";
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_CREAD, line, strlen(line), err,
				     sizeof(err)) == 0);
	CU_ASSERT(r.has_val && r.val == 0 && r.val2 == 1333 && r.format == IIO_VAL_INT_PLUS_MICRO);
	proto_reply_fini(&r);

	/* text listing: items as they come, unknown trailing fields ignored (P-15) */
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_CHANNELS, "OK 2", 4, err, sizeof(err)) == 2);
	line = "voltage 3 - AIN3-AIN2 in 2 in_voltage3-voltage2_raw,in_voltage-voltage_scale";
	CU_ASSERT(proto_reply_decode_more(&r, line, strlen(line), err, sizeof(err)) == 1);
	line = "accel - y - out - - future-field";
	CU_ASSERT(proto_reply_decode_more(&r, line, strlen(line), err, sizeof(err)) == 0);
	CU_ASSERT(r.nitems == 2 && r.count == 2);
	CU_ASSERT(r.channels[0].index == 3 && r.channels[0].differential &&
		  r.channels[0].index2 == 2 && r.channels[0].nattrs == 2);
	CU_ASSERT(str_eq(r.channels[0].attrs[1], "in_voltage-voltage_scale"));
	CU_ASSERT(str_eq(r.channels[0].datasheet_name, "AIN3-AIN2"));
	CU_ASSERT(r.channels[1].index == -1 && str_eq(r.channels[1].modifier, "y") &&
		  r.channels[1].output && r.channels[1].nattrs == 0);
	/* nothing more is expected */
	CU_ASSERT(proto_reply_decode_more(&r, "x", 1, err, sizeof(err)) == -EPROTO);
	proto_reply_fini(&r);
	proto_reply_fini(&r);	/* idempotent */
	proto_reply_fini(NULL);

	/* a listing may grow past the first allocations */
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_ATTRS, "OK 100", 6, err, sizeof(err)) == 100);
	for (int i = 0; i < 100; i++) {
		char l[32];

		snprintf(l, sizeof(l), "in_voltage%d_raw %s", i, i % 2 ? "r" : "rw");
		CU_ASSERT(proto_reply_decode_more(&r, l, strlen(l), err, sizeof(err)) == 99 - i);
	}
	CU_ASSERT(r.nitems == 100 && str_eq(r.attrs[99].name, "in_voltage99_raw"));
	CU_ASSERT(r.attrs[98].mode == (PROTO_ATTR_R | PROTO_ATTR_W));
	CU_ASSERT(r.attrs[99].mode == PROTO_ATTR_R);
	proto_reply_fini(&r);
}
TEST_CASE(test_decode_fields, "reply decoding fields (P-18, P-19)");

struct bad_reply_row {
	const char *name;
	enum proto_op op;
	const char *line;
};

static const struct bad_reply_row bad_reply_rows[] = {
	{ "garbage", PROTO_OP_READ, "HELLO there" },
	{ "empty line", PROTO_OP_READ, "" },
	{ "lower-case ok", PROTO_OP_READ, "ok 1" },
	{ "listing without a count", PROTO_OP_DEVICES, "OK" },
	{ "listing with a negative count", PROTO_OP_DEVICES, "OK -1" },
	{ "listing with a word as count", PROTO_OP_DEVICES, "OK two" },
	{ "ERR without a name", PROTO_OP_READ, "ERR" },
	{ "EVENT without a timestamp", PROTO_OP_READ, "EVENT d a" },
	{ "EVENT with a bad timestamp", PROTO_OP_READ, "EVENT d a 1 -5" },
	{ "EVENTERR too short", PROTO_OP_READ, "EVENTERR d a EIO" },
	{ "control character", PROTO_OP_READ, "OK 1\x02" },
	{ "not UTF-8", PROTO_OP_READ, "OK \xff" },
	{ "malformed JSON", PROTO_OP_READ, "{\"ok\":tru}" },
	{ "JSON without ok", PROTO_OP_READ, "{\"value\":\"1\"}" },
	{ "JSON ok not a boolean", PROTO_OP_READ, "{\"ok\":\"yes\"}" },
	{ "JSON error without name", PROTO_OP_READ, "{\"ok\":false,\"message\":\"m\"}" },
	{ "JSON value not a string", PROTO_OP_READ, "{\"ok\":true,\"value\":5}" },
	{ "JSON listing missing", PROTO_OP_DEVICES, "{\"ok\":true}" },
	{ "JSON listing not an array", PROTO_OP_DEVICES, "{\"ok\":true,\"devices\":{}}" },
	{ "JSON device without id", PROTO_OP_DEVICES,
	  "{\"ok\":true,\"devices\":[{\"name\":\"a\"}]}" },
	{ "JSON item not an object", PROTO_OP_ATTRS, "{\"ok\":true,\"attrs\":[1]}" },
	{ "JSON attr without mode", PROTO_OP_ATTRS, "{\"ok\":true,\"attrs\":[{\"name\":\"a\"}]}" },
	{ "JSON channel attributes not an array", PROTO_OP_CHANNELS,
	  "{\"ok\":true,\"channels\":[{\"type\":\"voltage\",\"attributes\":\"a\"}]}" },
	{ "JSON channel index not an integer", PROTO_OP_CHANNELS,
	  "{\"ok\":true,\"channels\":[{\"type\":\"voltage\",\"index\":0.5}]}" },
	{ "JSON stats value not a number", PROTO_OP_STATS,
	  "{\"ok\":true,\"stats\":{\"a\":\"1\"}}" },
	{ "JSON help not strings", PROTO_OP_HELP, "{\"ok\":true,\"help\":[1]}" },
	{ "JSON event without device", PROTO_OP_READ,
	  "{\"event\":{\"attr\":\"a\",\"value\":\"1\",\"timestamp_ns\":1}}" },
	{ "JSON event without timestamp", PROTO_OP_READ,
	  "{\"event\":{\"device\":\"d\",\"attr\":\"a\",\"value\":\"1\"}}" },
	{ "JSON event timestamp negative", PROTO_OP_READ,
	  "{\"event\":{\"device\":\"d\",\"attr\":\"a\",\"value\":\"1\",\"timestamp_ns\":-1}}" },
	{ "JSON too deep", PROTO_OP_READ, "{\"ok\":true,\"x\":[[[[[[[[[1]]]]]]]]]}" },
	{ "JSON array", PROTO_OP_READ, "{\"ok\":true}]" },
};

static void test_bad_replies(void)
{
	const struct bad_reply_row *row;
	struct proto_reply r;
	char err[PROTO_MSG_MAX_BYTES];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bad_reply_rows); i++) {
		row = &bad_reply_rows[i];
		err[0] = '\0';
		ret = proto_reply_decode(&r, row->op, row->line, strlen(row->line), err,
					 sizeof(err));
		/* trailing garbage after a JSON object is tolerated by the client */
		if (!strcmp(row->name, "JSON array"))
			TEST_ROW_ASSERT(ret == 0, row->name);
		else
			TEST_ROW_ASSERT(ret == -EPROTO && err[0], row->name);
		proto_reply_fini(&r);
	}
	/* text listing lines too short */
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_DEVICES, "OK 1", 4, err, sizeof(err)) == 1);
	CU_ASSERT(proto_reply_decode_more(&r, "iio:device0 dummy0 -", 20, err, sizeof(err)) ==
		  -EPROTO);
	proto_reply_fini(&r);
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_STATS, "OK 1", 4, err, sizeof(err)) == 1);
	CU_ASSERT(proto_reply_decode_more(&r, "uptime_ms soon", 14, err, sizeof(err)) == -EPROTO);
	proto_reply_fini(&r);
	CU_ASSERT(proto_reply_decode(&r, PROTO_OP_DEVICE, "OK 1", 4, err, sizeof(err)) == 1);
	CU_ASSERT(proto_reply_decode_more(&r, "channels many", 13, err, sizeof(err)) == -EPROTO);
	proto_reply_fini(&r);
}
TEST_CASE(test_bad_replies, "malformed replies are EPROTO");

/* ------------------------------------------------------------------------ */
/* Buffer, names                                                            */
/* ------------------------------------------------------------------------ */

static void test_buf(void)
{
	struct proto_buf b;
	size_t len;
	char *p;
	int i;

	proto_buf_init(&b);
	CU_ASSERT(proto_buf_steal(&b, &len) == NULL && len == 0);
	CU_ASSERT(proto_buf_append(&b, "", 0) == 0 && b.len == 0);
	for (i = 0; i < 1000; i++)
		CU_ASSERT(proto_buf_printf(&b, "%04d", i) == 0);
	CU_ASSERT(b.len == 4000 && memcmp(b.data + 3996, "0999", 4) == 0);
	proto_buf_truncate(&b, 8);
	CU_ASSERT(b.len == 8 && memcmp(b.data, "00000001", 8) == 0);
	proto_buf_truncate(&b, 100);	/* never grows */
	CU_ASSERT(b.len == 8);
	p = proto_buf_steal(&b, &len);
	CU_ASSERT(p && len == 8 && b.data == NULL && b.len == 0 && b.cap == 0);
	free(p);
	CU_ASSERT(proto_buf_append(&b, "abc", 3) == 0 && buf_is(&b, "abc"));
	proto_buf_fini(&b);
	proto_buf_fini(&b);
	proto_buf_fini(NULL);
}
TEST_CASE(test_buf, "output buffer");

static void test_names(void)
{
	const char *name, *usage;
	char lower[32];
	int op, w;
	size_t i;

	CU_ASSERT(proto_op_name(PROTO_OP_NONE) == NULL && proto_op_usage(PROTO_OP_NONE) == NULL);
	CU_ASSERT(proto_op_name(PROTO_OP_COUNT) == NULL);
	CU_ASSERT(proto_op_name((enum proto_op)-1) == NULL);
	for (op = PROTO_OP_NONE + 1; op < PROTO_OP_COUNT; op++) {
		name = proto_op_name(op);
		usage = proto_op_usage(op);
		CU_ASSERT_FATAL(name && usage);
		CU_ASSERT(strncmp(usage, name, strlen(name)) == 0);
		CU_ASSERT(proto_op_from_name(name, strlen(name)) == op);
		for (i = 0; name[i] && i < sizeof(lower) - 1; i++)
			lower[i] = (char)(name[i] | 0x20);
		CU_ASSERT(proto_op_from_name(lower, i) == op);
		/* a prefix is not the name (DEVICE is another op than DEVICES) */
		CU_ASSERT(proto_op_from_name(name, strlen(name) - 1) != op);
	}
	CU_ASSERT(proto_op_from_name("", 0) == -ENOSYS);
	for (w = 0; w < PROTO_WHAT_COUNT; w++) {
		name = proto_what_name(w);
		CU_ASSERT_FATAL(name != NULL);
		CU_ASSERT(proto_what_from_name(name, strlen(name)) == w);
	}
	CU_ASSERT(proto_what_name(PROTO_WHAT_COUNT) == NULL);
	CU_ASSERT(proto_what_from_name("volts", 5) == -EINVAL);
}
TEST_CASE(test_names, "op and what names");

/* proto_request_encode refuses what the text spelling cannot carry. */
static void test_encode_requests_refused(void)
{
	static const struct {
		const char *name;
		struct proto_request req;
	} rows[] = {
		{ "no op", { .op = PROTO_OP_NONE } },
		{ "READ without attr", { .op = PROTO_OP_READ, .device = "d" } },
		{ "blank in a text name", { .op = PROTO_OP_READ, .device = "a b", .attr = "x" } },
		{ "empty name", { .op = PROTO_OP_READ, .device = "", .attr = "x" } },
		{ "LF in a value", { .op = PROTO_OP_WRITE, .device = "d", .attr = "a",
				     .value = "1\n" } },
		{ "leading blank in a text value", { .op = PROTO_OP_WRITE, .device = "d",
						     .attr = "a", .value = " 1" } },
		{ "UNWATCH with one name", { .op = PROTO_OP_UNWATCH, .device = "d" } },
		{ "multiplier without processed", { .op = PROTO_OP_CREAD, .consumer = "c",
						    .channel = "ch", .what = PROTO_WHAT_RAW,
						    .multiplier = 2 } },
		{ "LF in JSON", { .op = PROTO_OP_READ, .flags = PROTO_REQ_JSON, .device = "d\n",
				  .attr = "a" } },
	};
	struct proto_buf b;
	size_t i;

	proto_buf_init(&b);
	proto_buf_append(&b, "keep", 4);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		TEST_ROW_ASSERT(proto_request_encode(&b, &rows[i].req) == -EINVAL, rows[i].name);
		TEST_ROW_ASSERT(buf_is(&b, "keep"), rows[i].name);
	}
	/* a blank inside a JSON name is fine, and the id goes first */
	{
		struct proto_request req = { .op = PROTO_OP_READ, .flags = PROTO_REQ_JSON,
					     .id = "\"q\"", .device = "a b", .attr = "x" };

		b.len = 0;
		CU_ASSERT(proto_request_encode(&b, &req) == 0);
		CU_ASSERT(buf_is(&b, "{\"id\":\"q\",\"op\":\"read\",\"device\":\"a b\","
				 "\"attr\":\"x\"}\n"));
	}
	proto_buf_fini(&b);
}
TEST_CASE(test_encode_requests_refused, "requests the encoder refuses");

/* ------------------------------------------------------------------------ */
/* PROTOCOL.md transcripts as vectors                                       */
/* ------------------------------------------------------------------------ */

struct transcript {
	const char *where;	/* "PROTOCOL.md:<line>" for messages */
	struct proto_request req;
	int req_ret;
	char req_err[PROTO_MSG_MAX_BYTES];
	bool have_req;
	struct proto_reply r;
	bool in_reply;
	struct proto_buf lines;	/* the reply's lines as the document has them */
	unsigned int seen[PROTO_OP_COUNT];	/* bit 0: text, bit 1: JSON */
	int requests;
	int replies;
};

/* One reply (all its lines) is in: check it against the request and re-encode it. */
static void transcript_reply_done(struct transcript *t)
{
	struct proto_buf b;

	proto_buf_init(&b);
	TEST_ROW_ASSERT(reencode(&b, &t->req, &t->r) == 0, t->where);
	TEST_ROW_ASSERT(b.len == t->lines.len && memcmp(b.data, t->lines.data, b.len) == 0,
			t->where);
	if (b.len != t->lines.len || memcmp(b.data, t->lines.data, b.len))
		fprintf(stderr, "\n  %s: re-encoded\n%.*s  but the document has\n%.*s", t->where,
			(int)b.len, b.data, (int)t->lines.len, t->lines.data);
	if (t->r.kind != PROTO_REPLY_EVENT && t->r.kind != PROTO_REPLY_IEVENT) {
		/* P-13: the reply's spelling is the request's */
		TEST_ROW_ASSERT(t->r.json == !!(t->req.flags & PROTO_REQ_JSON), t->where);
		/* an error from the decoder is exactly what the document shows */
		if (t->req_ret < 0)
			TEST_ROW_ASSERT(t->r.kind == PROTO_REPLY_ERR && t->r.err == t->req_ret &&
					str_eq(t->r.message, t->req_err), t->where);
		else if (t->req.op > PROTO_OP_NONE && t->req.op < PROTO_OP_COUNT)
			t->seen[t->req.op] |= 1u << !!(t->req.flags & PROTO_REQ_JSON);
		t->replies++;
	}
	proto_reply_fini(&t->r);
	proto_buf_fini(&b);
	t->in_reply = false;
	t->lines.len = 0;
}

static void transcript_line(struct transcript *t, const char *line, size_t len)
{
	char err[PROTO_MSG_MAX_BYTES];
	int ret;

	if (len >= 2 && line[0] == '>' && line[1] == ' ') {
		TEST_ROW_ASSERT(!t->in_reply, t->where);
		if (t->have_req)
			proto_request_fini(&t->req);
		t->req_ret = proto_request_decode(&t->req, line + 2, len - 2, t->req_err,
						  sizeof(t->req_err));
		t->have_req = true;
		t->requests++;
		return;
	}
	TEST_ROW_ASSERT(len >= 2 && line[0] == '<' && line[1] == ' ' && t->have_req, t->where);
	if (len < 2 || !t->have_req)
		return;
	proto_buf_append(&t->lines, line + 2, len - 2);
	proto_buf_append(&t->lines, "\n", 1);
	if (t->in_reply) {
		ret = proto_reply_decode_more(&t->r, line + 2, len - 2, err, sizeof(err));
	} else {
		ret = proto_reply_decode(&t->r, t->req.op, line + 2, len - 2, err, sizeof(err));
		t->in_reply = true;
	}
	TEST_ROW_ASSERT(ret >= 0, t->where);
	if (ret < 0)
		fprintf(stderr, "\n  %s: %s\n", t->where, err);
	if (ret <= 0)
		transcript_reply_done(t);
}

static void test_transcripts(void)
{
	struct transcript t = { 0 };
	char where[64], *text = NULL, *line, *nl;
	size_t size = 0, len;
	bool in_block = false;
	int lineno = 0, blocks = 0, op;
	FILE *f;

	f = fopen(test_path("protocol/PROTOCOL.md"), "r");
	CU_ASSERT_FATAL(f != NULL);
	text = malloc(1 << 20);
	CU_ASSERT_FATAL(text != NULL);
	size = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	text[size] = '\0';
	proto_buf_init(&t.lines);
	for (line = text; line < text + size; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = text + size;
		len = (size_t)(nl - line);
		lineno++;
		snprintf(where, sizeof(where), "PROTOCOL.md:%d", lineno);
		t.where = where;
		if (!in_block) {
			in_block = len == 13 && !memcmp(line, "```transcript", 13);
			blocks += in_block;
			continue;
		}
		if (len == 3 && !memcmp(line, "```", 3)) {
			/* a block ends with every reply complete */
			TEST_ROW_ASSERT(!t.in_reply, where);
			if (t.in_reply)
				transcript_reply_done(&t);
			in_block = false;
			continue;
		}
		transcript_line(&t, line, len);
	}
	CU_ASSERT(!in_block);
	CU_ASSERT(blocks >= 15);
	/* every request in the document has its one reply (P-5) */
	CU_ASSERT(t.requests >= 50 && t.replies == t.requests);
	/* every request is shown in both spellings */
	for (op = PROTO_OP_NONE + 1; op < PROTO_OP_COUNT; op++)
		TEST_ROW_ASSERT(t.seen[op] == 3, proto_op_name(op));
	if (t.have_req)
		proto_request_fini(&t.req);
	proto_buf_fini(&t.lines);
	free(text);
}
TEST_CASE(test_transcripts, "PROTOCOL.md transcripts decode and re-encode exactly");

TEST_MAIN("proto", NULL, NULL)
