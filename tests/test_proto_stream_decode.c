/*
 * test_proto_stream_decode.c - the client's side of streams in protocol/
 * (proto_stream_decode.c): the reply's stream object (PROTOCOL.md S-1's
 * transcript), and the BLOCK and STREAMEND lines of S-4 and S-7 in both
 * spellings, malformed ones refused; and the server's text BLOCK line
 * (proto_block_head()) against printf's spelling.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "proto.h"
#include "testutil.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* S-1's JSON transcript reply */
static const char reply_ok[] =
	"{\"id\":3,\"ok\":true,\"stream\":{\"id\":3,\"device\":\"iio:device0\",\"trigger\":"
	"\"hrt0\",\"scans\":2,\"format\":\"json\",\"scan_bytes\":4,\"channels\":[{\"channel\":"
	"\"voltage0\",\"index\":0,\"offset\":0,\"type\":\"le:u13/16>>0\"},{\"channel\":"
	"\"accel_x\",\"index\":3,\"offset\":2,\"type\":\"le:s16/16>>0\"}]}}";

static void test_reply_decode(void)
{
	struct proto_stream_info in;
	struct proto_reply r;
	char msg[PROTO_MSG_MAX_BYTES];
	const char *err = "{\"id\":1,\"ok\":false,\"error\":\"EINVAL\",\"message\":\"no scan mode\"}";
	const char *bad = "{\"id\":1,\"ok\":true,\"stream\":{\"id\":1,\"device\":\"d\",\"trigger\":"
			  "\"t\",\"scans\":1,\"format\":\"raw\",\"scan_bytes\":2,\"channels\":"
			  "[{\"channel\":\"v\",\"index\":0,\"offset\":2,\"type\":\"le:u8/8>>0\"}]}}";

	CU_ASSERT(proto_stream_reply_decode(&r, &in, reply_ok, strlen(reply_ok), msg,
					    sizeof(msg)) == 0);
	CU_ASSERT(r.kind == PROTO_REPLY_OK && r.id && !strcmp(r.id, "3"));
	CU_ASSERT(in.id == 3 && in.scans == 2 && in.scan_bytes == 4 && in.nchans == 2);
	CU_ASSERT(!strcmp(in.device, "iio:device0") && in.format == PROTO_FORMAT_JSON);
	CU_ASSERT(!strcmp(in.chans[1].channel, "accel_x") && in.chans[1].index == 3 &&
		  in.chans[1].offset == 2 && !strcmp(in.chans[1].type, "le:s16/16>>0"));
	proto_reply_fini(&r);
	CU_ASSERT(proto_stream_reply_decode(&r, &in, err, strlen(err), msg, sizeof(msg)) == 0);
	CU_ASSERT(r.kind == PROTO_REPLY_ERR && r.err == -EINVAL);
	CU_ASSERT(!strcmp(r.message, "no scan mode") && in.nchans == 0);
	proto_reply_fini(&r);
	/* an element past the record's end is refused */
	CU_ASSERT(proto_stream_reply_decode(&r, &in, bad, strlen(bad), msg, sizeof(msg)) ==
		  -EPROTO);
	proto_reply_fini(&r);
}
TEST_CASE(test_reply_decode, "the reply's stream object, error replies, bad offsets");

struct line_row {
	const char *name;
	const char *line;
	int ret;
	int kind, stream, scans;
	size_t bytes;
	unsigned long long lost;
	const char *values;
	int err;
	const char *message;
};

static const struct line_row line_rows[] = {
	{ "text block", "BLOCK 1 4 64 0", 1, PROTO_STREAM_BLOCK, 1, 4, 64, 0 },
	{ "text block lost", "BLOCK 2 2 50 17", 1, PROTO_STREAM_BLOCK, 2, 2, 50, 17 },
	{ "json block", "{\"block\":{\"stream\":1,\"scans\":4,\"bytes\":64,\"lost\":3}}", 1,
	  PROTO_STREAM_BLOCK, 1, 4, 64, 3 },
	{ "json block with its format", "{\"block\":{\"stream\":2,\"scans\":2,\"bytes\":50,"
	  "\"lost\":0,\"format\":\"csv\"}}", 1, PROTO_STREAM_BLOCK, 2, 2, 50, 0 },
	{ "json values", "{\"block\":{\"stream\":2,\"scans\":2,\"lost\":0,\"values\":[[0,344],"
	  "[0,344]]}}", 1, PROTO_STREAM_BLOCK, 2, 2, 0, 0, "[[0,344],[0,344]]" },
	{ "text end", "STREAMEND 1 ENODEV max1363 removed by a board reload", 1,
	  PROTO_STREAM_END, 1, 0, 0, 0, NULL, -ENODEV, "max1363 removed by a board reload" },
	{ "json end", "{\"streamend\":{\"stream\":1,\"error\":\"EIO\",\"message\":\"bus\"}}", 1,
	  PROTO_STREAM_END, 1, 0, 0, 0, NULL, -EIO, "bus" },
	{ "a reply", "{\"id\":2,\"ok\":true}", 0 },
	{ "a text reply", "OK", 0 },
	{ "text block short", "BLOCK 1 4 64", -EPROTO },
	{ "text block negative", "BLOCK 1 -4 64 0", -EPROTO },
	{ "json block without bytes", "{\"block\":{\"stream\":1,\"scans\":4,\"lost\":0}}",
	  -EPROTO },
	{ "json block stream 0", "{\"block\":{\"stream\":0,\"scans\":4,\"bytes\":1,\"lost\":0}}",
	  -EPROTO },
	{ "json end without error", "{\"streamend\":{\"stream\":1}}", -EPROTO },
};

static void test_line_decode(void)
{
	struct proto_stream_line l;
	struct proto_reply r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(line_rows); i++) {
		const struct line_row *w = &line_rows[i];

		memset(&r, 0, sizeof(r));
		TEST_ROW_ASSERT(proto_stream_line_decode(&r, &l, w->line, strlen(w->line), NULL,
							 0) == w->ret, w->name);
		if (w->ret == 1) {
			TEST_ROW_ASSERT((int)l.kind == w->kind && l.stream == w->stream &&
					l.scans == w->scans && l.bytes == w->bytes &&
					l.lost == w->lost && l.err == w->err, w->name);
			TEST_ROW_ASSERT(!w->values || (l.values && !strcmp(l.values, w->values)),
					w->name);
			TEST_ROW_ASSERT(!w->message || (l.message &&
							!strcmp(l.message, w->message)), w->name);
		}
		proto_reply_fini(&r);
	}
}
TEST_CASE(test_line_decode, "BLOCK and STREAMEND in both spellings, malformed ones refused");

/* proto_block_head()'s text line (written without printf) is printf's, and decodes back */
static void test_block_head(void)
{
	static const struct {
		int stream, scans;
		size_t bytes;
		uint64_t lost;
	} rows[] = {
		{ 1, 256, 2048, 0 }, { 0, 0, 0, 0 }, { 10, 1, 9, 10 },
		{ INT_MAX, INT_MAX, SIZE_MAX, UINT64_MAX }, { -1, -4, 64, 3 },
	};
	struct proto_stream_line l;
	struct proto_reply r;
	struct proto_buf b;
	char want[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		proto_buf_init(&b);
		snprintf(want, sizeof(want), "BLOCK %d %d %zu %" PRIu64 "\n", rows[i].stream,
			 rows[i].scans, rows[i].bytes, rows[i].lost);
		CU_ASSERT_EQUAL_FATAL(proto_block_head(&b, false, rows[i].stream, rows[i].scans,
						       rows[i].bytes, rows[i].lost,
						       PROTO_FORMAT_RAW), 0);
		CU_ASSERT_EQUAL(b.len, strlen(want));
		CU_ASSERT(b.len == strlen(want) && memcmp(b.data, want, b.len) == 0);
		memset(&r, 0, sizeof(r));
		if (rows[i].stream > 0 && rows[i].scans > 0 && rows[i].lost < UINT64_MAX) {
			CU_ASSERT_EQUAL(proto_stream_line_decode(&r, &l, b.data, b.len - 1, NULL, 0), 1);
			CU_ASSERT(l.stream == rows[i].stream && l.scans == rows[i].scans &&
				  l.bytes == rows[i].bytes && l.lost == rows[i].lost);
		}
		proto_reply_fini(&r);
		proto_buf_fini(&b);
	}
}
TEST_CASE(test_block_head, "the text BLOCK line: printf's spelling at 0, the largest values, negatives");

TEST_MAIN("proto_stream_decode", NULL, NULL)
