/*
 * test_iiod_codec.c - the iiod text codec (protocol/iiod_codec.c) as tables.
 *
 * Parser rows cover every request shape of iiod 0.24 as libiio clients send
 * it (lines captured from iio_info, iio_attr, iio_readdev and the Python
 * bindings), keyword case rules, the name pattern, numbers at their limits,
 * and the WRITE payload length that must be known even for a refused line.
 * Reply rows check the exact bytes of each frame; the "all attributes"
 * layout is checked both ways. Pure code under test: no sockets here.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iiod.h"
#include "testutil.h"

/* ---- parser ---- */

struct iiod_parse_row {
	const char *name;
	const char *line;
	size_t len;		/* 0: strlen(line) */
	int ret;
	enum proto_iiod_op op;
	enum proto_iiod_target target;
	bool output;
	bool all;
	const char *device;
	const char *channel;
	const char *attr;
	uint64_t num;
	uint64_t payload;
	const char *trigger;
	const char *mask;
	bool cyclic;
};

#define T_DEV	PROTO_IIOD_TARGET_DEVICE
#define T_DBG	PROTO_IIOD_TARGET_DEBUG
#define T_BUF	PROTO_IIOD_TARGET_BUFFER
#define T_CHN	PROTO_IIOD_TARGET_CHANNEL

static const struct iiod_parse_row iiod_parse_rows[] = {
	{ "empty line", "", 0, 0, PROTO_IIOD_OP_NONE },
	{ "blank line", " \t ", 0, 0, PROTO_IIOD_OP_NONE },
	{ "PRINT", "PRINT", 0, 0, PROTO_IIOD_OP_PRINT },
	{ "print lower case", "print", 0, 0, PROTO_IIOD_OP_PRINT },
	{ "Print mixed case refused", "Print", 0, -EINVAL, PROTO_IIOD_OP_NONE },
	{ "PRINT with trailing blanks", "PRINT \t ", 0, 0, PROTO_IIOD_OP_PRINT },
	{ "PRINT with leading blanks", "  PRINT", 0, 0, PROTO_IIOD_OP_PRINT },
	{ "PRINT with an argument", "PRINT x", 0, -EINVAL, PROTO_IIOD_OP_PRINT },
	{ "ZPRINT", "ZPRINT", 0, 0, PROTO_IIOD_OP_ZPRINT },
	{ "VERSION", "VERSION", 0, 0, PROTO_IIOD_OP_VERSION },
	{ "BINARY (1.0 clients)", "BINARY", 0, 0, PROTO_IIOD_OP_BINARY },
	{ "HELP", "help", 0, 0, PROTO_IIOD_OP_HELP },
	{ "EXIT", "EXIT", 0, 0, PROTO_IIOD_OP_EXIT },
	{ "QUIT is EXIT", "quit", 0, 0, PROTO_IIOD_OP_EXIT },
	{ "unknown keyword", "FROB iio:device0", 0, -EINVAL, PROTO_IIOD_OP_NONE },
	{ "TIMEOUT as the client sends it", "TIMEOUT 2500", 0, 0, PROTO_IIOD_OP_TIMEOUT,
	  .num = 2500 },
	{ "TIMEOUT 0", "TIMEOUT 0", 0, 0, PROTO_IIOD_OP_TIMEOUT, .num = 0 },
	{ "TIMEOUT UINT64_MAX", "TIMEOUT 18446744073709551615", 0, 0, PROTO_IIOD_OP_TIMEOUT,
	  .num = UINT64_MAX },
	{ "TIMEOUT UINT64_MAX + 1", "TIMEOUT 18446744073709551616", 0, -EINVAL,
	  PROTO_IIOD_OP_TIMEOUT },
	{ "TIMEOUT negative", "TIMEOUT -1", 0, -EINVAL, PROTO_IIOD_OP_TIMEOUT },
	{ "TIMEOUT not a number", "TIMEOUT 1x", 0, -EINVAL, PROTO_IIOD_OP_TIMEOUT },
	{ "TIMEOUT missing", "TIMEOUT", 0, -EINVAL, PROTO_IIOD_OP_TIMEOUT },
	{ "READ device attribute", "READ iio:device0 sampling_frequency", 0, 0,
	  PROTO_IIOD_OP_READ, T_DEV, false, false, "iio:device0", "", "sampling_frequency" },
	{ "READ by device name", "READ dummy0 in_voltage0_raw", 0, 0, PROTO_IIOD_OP_READ,
	  T_DEV, false, false, "dummy0", "", "in_voltage0_raw" },
	{ "READ channel attribute", "READ iio:device0 INPUT voltage0 raw", 0, 0,
	  PROTO_IIOD_OP_READ, T_CHN, false, false, "iio:device0", "voltage0", "raw" },
	{ "read in lower case", "read iio:device1 output voltage0 raw", 0, 0,
	  PROTO_IIOD_OP_READ, T_CHN, true, false, "iio:device1", "voltage0", "raw" },
	{ "READ differential channel", "READ iio:device1 INPUT voltage0-voltage1 raw", 0, 0,
	  PROTO_IIOD_OP_READ, T_CHN, false, false, "iio:device1", "voltage0-voltage1", "raw" },
	{ "READ tabs between tokens", "READ\tiio:device0\t\tINPUT voltage0\traw", 0, 0,
	  PROTO_IIOD_OP_READ, T_CHN, false, false, "iio:device0", "voltage0", "raw" },
	{ "READ DEBUG attribute", "READ iio:device0 DEBUG direct_reg_access", 0, 0,
	  PROTO_IIOD_OP_READ, T_DBG, false, false, "iio:device0", "", "direct_reg_access" },
	{ "READ BUFFER attribute", "READ trigger0 BUFFER data_available", 0, 0,
	  PROTO_IIOD_OP_READ, T_BUF, false, false, "trigger0", "", "data_available" },
	{ "READ all device attributes", "READ iio:device0", 0, 0, PROTO_IIOD_OP_READ, T_DEV,
	  false, true, "iio:device0", "", "" },
	{ "READ all debug attributes", "READ iio:device0 debug", 0, 0, PROTO_IIOD_OP_READ, T_DBG,
	  false, true, "iio:device0", "", "" },
	{ "READ all channel attributes", "READ iio:device0 INPUT accel_x", 0, 0,
	  PROTO_IIOD_OP_READ, T_CHN, false, true, "iio:device0", "accel_x", "" },
	{ "READ INPUT without a channel", "READ iio:device0 INPUT", 0, -EINVAL,
	  PROTO_IIOD_OP_READ },
	{ "READ one token too many", "READ iio:device0 INPUT voltage0 raw extra", 0, -EINVAL,
	  PROTO_IIOD_OP_READ },
	{ "READ two attributes", "READ iio:device0 raw scale", 0, -EINVAL, PROTO_IIOD_OP_READ },
	{ "READ mixed-case keyword is a name", "READ iio:device0 Input", 0, 0,
	  PROTO_IIOD_OP_READ, T_DEV, false, false, "iio:device0", "", "Input" },
	{ "READ without a device", "READ", 0, -EINVAL, PROTO_IIOD_OP_READ },
	{ "READ path traversal", "READ iio:device0 ../../etc/passwd", 0, -EINVAL,
	  PROTO_IIOD_OP_READ },
	{ "READ slash in a name", "READ iio:device0 a/b", 0, -EINVAL, PROTO_IIOD_OP_READ },
	{ "READ modifier character", "READ iio:device0 INPUT accel_x&y raw", 0, -EINVAL,
	  PROTO_IIOD_OP_READ },
	{ "READ word, prefix", "READ local,kernel x", 0, 0, PROTO_IIOD_OP_READ, T_DEV, false,
	  false, "local,kernel", "", "x" },
	{ "READ empty after prefix", "READ iio: x", 0, -EINVAL, PROTO_IIOD_OP_READ },
	{ "READ comma inside a name", "READ a,b,c x", 0, -EINVAL, PROTO_IIOD_OP_READ },
	{ "READ name of 128 bytes",
	  "READ d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, 0,
	  PROTO_IIOD_OP_READ, T_DEV, false, false, "d", "",
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
	{ "READ name of 129 bytes",
	  "READ d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, -EINVAL,
	  PROTO_IIOD_OP_READ },
	{ "READ with a NUL byte", "READ iio:device0 r\0w", 20, -EINVAL, PROTO_IIOD_OP_READ },
	{ "READ with a control character", "READ iio:device0 r\001w", 0, -EINVAL,
	  PROTO_IIOD_OP_READ },
	{ "WRITE channel attribute", "WRITE iio:device0 OUTPUT voltage0 raw 5", 0, 0,
	  PROTO_IIOD_OP_WRITE, T_CHN, true, false, "iio:device0", "voltage0", "raw", 5, 5 },
	{ "WRITE device attribute", "WRITE iio:device0 sampling_frequency 4", 0, 0,
	  PROTO_IIOD_OP_WRITE, T_DEV, false, false, "iio:device0", "", "sampling_frequency", 4,
	  4 },
	{ "WRITE BUFFER attribute", "WRITE iio:device0 BUFFER watermark 2", 0, 0,
	  PROTO_IIOD_OP_WRITE, T_BUF, false, false, "iio:device0", "", "watermark", 2, 2 },
	{ "WRITE all device attributes", "WRITE iio:device0 16", 0, 0, PROTO_IIOD_OP_WRITE,
	  T_DEV, false, true, "iio:device0", "", "", 16, 16 },
	{ "WRITE all channel attributes", "WRITE iio:device0 INPUT voltage0 8", 0, 0,
	  PROTO_IIOD_OP_WRITE, T_CHN, false, true, "iio:device0", "voltage0", "", 8, 8 },
	{ "WRITE of zero bytes", "WRITE iio:device0 x 0", 0, 0, PROTO_IIOD_OP_WRITE, T_DEV,
	  false, false, "iio:device0", "", "x", 0, 0 },
	{ "WRITE without a length", "WRITE iio:device0 raw", 0, -EINVAL, PROTO_IIOD_OP_WRITE },
	{ "WRITE bad name keeps its payload", "WRITE iio:device0 a/b 7", 0, -EINVAL,
	  PROTO_IIOD_OP_WRITE, .payload = 7 },
	{ "WRITE too many tokens keeps its payload", "WRITE a INPUT b c d e 9", 0, -EINVAL,
	  PROTO_IIOD_OP_WRITE, .payload = 9 },
	{ "WRITE length past UINT64_MAX", "WRITE iio:device0 x 99999999999999999999", 0,
	  -EINVAL, PROTO_IIOD_OP_WRITE, .payload = UINT64_MAX },
	{ "WRITE length UINT64_MAX", "WRITE iio:device0 x 18446744073709551615", 0, 0,
	  PROTO_IIOD_OP_WRITE, T_DEV, false, false, "iio:device0", "", "x", UINT64_MAX,
	  UINT64_MAX },
	{ "WRITE length in hex is not a length", "WRITE iio:device0 x 0x10", 0, -EINVAL,
	  PROTO_IIOD_OP_WRITE },
	{ "Write mixed case: no payload known", "Write iio:device0 x 5", 0, -EINVAL,
	  PROTO_IIOD_OP_NONE },
	{ "GETTRIG", "GETTRIG iio:device0", 0, 0, PROTO_IIOD_OP_GETTRIG, .device = "iio:device0" },
	{ "GETTRIG without a device", "GETTRIG", 0, -EINVAL, PROTO_IIOD_OP_GETTRIG },
	{ "SETTRIG with a trigger", "SETTRIG iio:device0 trigger0", 0, 0, PROTO_IIOD_OP_SETTRIG,
	  .device = "iio:device0", .trigger = "trigger0" },
	{ "SETTRIG clearing", "SETTRIG iio:device0", 0, 0, PROTO_IIOD_OP_SETTRIG,
	  .device = "iio:device0", .trigger = "" },
	{ "SET BUFFERS_COUNT", "SET iio:device0 BUFFERS_COUNT 4", 0, 0, PROTO_IIOD_OP_SET,
	  .device = "iio:device0", .num = 4 },
	{ "SET other setting", "SET iio:device0 FOO 4", 0, -EINVAL, PROTO_IIOD_OP_SET },
	{ "OPEN as iio_readdev sends it", "OPEN iio:device0 8 00000003", 0, 0,
	  PROTO_IIOD_OP_OPEN, .device = "iio:device0", .num = 8, .mask = "00000003" },
	{ "OPEN CYCLIC", "OPEN iio:device2 8 0000000f CYCLIC", 0, 0, PROTO_IIOD_OP_OPEN,
	  .device = "iio:device2", .num = 8, .mask = "0000000f", .cyclic = true },
	{ "OPEN mask not hex", "OPEN iio:device0 8 0000000g", 0, -EINVAL, PROTO_IIOD_OP_OPEN },
	{ "OPEN bad fourth word", "OPEN iio:device0 8 00000003 LOOP", 0, -EINVAL,
	  PROTO_IIOD_OP_OPEN },
	{ "CLOSE", "CLOSE iio:device0", 0, 0, PROTO_IIOD_OP_CLOSE, .device = "iio:device0" },
	{ "READBUF", "READBUF iio:device0 32", 0, 0, PROTO_IIOD_OP_READBUF,
	  .device = "iio:device0", .num = 32 },
	{ "WRITEBUF has no payload of its own", "WRITEBUF iio:device2 32", 0, 0,
	  PROTO_IIOD_OP_WRITEBUF, .device = "iio:device2", .num = 32, .payload = 0 },
};

static void test_iiod_parse(void)
{
	const struct iiod_parse_row *r;
	struct proto_iiod_cmd cmd;
	size_t i, len;
	int ret;

	for (i = 0; i < sizeof(iiod_parse_rows) / sizeof(iiod_parse_rows[0]); i++) {
		r = &iiod_parse_rows[i];
		len = r->len ? r->len : strlen(r->line);
		ret = proto_iiod_parse(r->line, len, &cmd);
		TEST_ROW_ASSERT(ret == r->ret, r->name);
		TEST_ROW_ASSERT(cmd.op == r->op, r->name);
		TEST_ROW_ASSERT(cmd.payload == r->payload, r->name);
		if (ret)
			continue;
		TEST_ROW_ASSERT(cmd.target == r->target, r->name);
		TEST_ROW_ASSERT(cmd.output == r->output, r->name);
		TEST_ROW_ASSERT(cmd.all == r->all, r->name);
		TEST_ROW_ASSERT(cmd.num == r->num, r->name);
		TEST_ROW_ASSERT(cmd.cyclic == r->cyclic, r->name);
		TEST_ROW_ASSERT(strcmp(cmd.device, r->device ? r->device : "") == 0, r->name);
		TEST_ROW_ASSERT(strcmp(cmd.channel, r->channel ? r->channel : "") == 0, r->name);
		TEST_ROW_ASSERT(strcmp(cmd.attr, r->attr ? r->attr : "") == 0, r->name);
		TEST_ROW_ASSERT(strcmp(cmd.trigger, r->trigger ? r->trigger : "") == 0, r->name);
		TEST_ROW_ASSERT(strcmp(cmd.mask, r->mask ? r->mask : "") == 0, r->name);
	}
}
TEST_CASE(test_iiod_parse, "parse: request shapes, names, numbers, payloads");

/* The mask limit at N and N+1 digits, built at run time (too long for a row). */
static void test_iiod_parse_mask_limit(void)
{
	static char line[PROTO_IIOD_MASK_MAX_BYTES + 64];
	struct proto_iiod_cmd cmd;
	int n;

	n = snprintf(line, sizeof(line), "OPEN iio:device0 8 ");
	memset(line + n, 'f', PROTO_IIOD_MASK_MAX_BYTES);
	CU_ASSERT_EQUAL(proto_iiod_parse(line, (size_t)n + PROTO_IIOD_MASK_MAX_BYTES, &cmd), 0);
	CU_ASSERT_EQUAL(strlen(cmd.mask), PROTO_IIOD_MASK_MAX_BYTES);
	line[n + PROTO_IIOD_MASK_MAX_BYTES] = 'f';
	CU_ASSERT_EQUAL(proto_iiod_parse(line, (size_t)n + PROTO_IIOD_MASK_MAX_BYTES + 1, &cmd),
			-EINVAL);
}
TEST_CASE(test_iiod_parse_mask_limit, "parse: OPEN mask at its limit and one past");

static void test_iiod_op_names(void)
{
	int i;

	CU_ASSERT_PTR_NULL(proto_iiod_op_name(PROTO_IIOD_OP_NONE));
	CU_ASSERT_PTR_NULL(proto_iiod_op_name(PROTO_IIOD_OP_COUNT));
	for (i = PROTO_IIOD_OP_NONE + 1; i < PROTO_IIOD_OP_COUNT; i++) {
		struct proto_iiod_cmd cmd;
		const char *name = proto_iiod_op_name((enum proto_iiod_op)i);

		/* every op has a name the parser maps back to it */
		CU_ASSERT_PTR_NOT_NULL_FATAL(name);
		proto_iiod_parse(name, strlen(name), &cmd);
		CU_ASSERT_EQUAL(cmd.op, i);
	}
}
TEST_CASE(test_iiod_op_names, "op names map back to their op");

/* ---- replies ---- */

struct iiod_reply_row {
	const char *name;
	int kind;		/* 0 code, 1 data, 2 value, 3 version */
	long long code;
	const char *in;
	size_t in_len;
	const char *out;
	size_t out_len;
};

static const struct iiod_reply_row iiod_reply_rows[] = {
	{ "code 0", 0, 0, NULL, 0, "0\n", 2 },
	{ "code -EINVAL", 0, -22, NULL, 0, "-22\n", 4 },
	{ "code -ENOSYS", 0, -38, NULL, 0, "-38\n", 4 },
	{ "byte count", 0, 5, NULL, 0, "5\n", 2 },
	{ "data", 1, 0, "<x/>", 4, "4\n<x/>\n", 7 },
	{ "data of zero bytes keeps its newline", 1, 0, "", 0, "0\n\n", 3 },
	{ "data with a NUL", 1, 0, "a\0b", 3, "3\na\0b\n", 6 },
	{ "value: newline becomes NUL", 2, 0, "1000\n", 5, "5\n1000\0\n", 8 },
	{ "value without a newline", 2, 0, "1000", 4, "5\n1000\0\n", 8 },
	{ "value: only one newline dropped", 2, 0, "a\n\n", 3, "3\na\n\0\n", 6 },
	{ "empty value", 2, 0, "", 0, "1\n\0\n", 4 },
	{ "version", 3, 0, NULL, 0, "0.24.iiowire\n", 13 },
};

static void test_iiod_replies(void)
{
	const struct iiod_reply_row *r;
	struct proto_buf b;
	size_t i;
	int ret = -1;

	for (i = 0; i < sizeof(iiod_reply_rows) / sizeof(iiod_reply_rows[0]); i++) {
		r = &iiod_reply_rows[i];
		proto_buf_init(&b);
		switch (r->kind) {
		case 0:
			ret = proto_iiod_reply_code(&b, r->code);
			break;
		case 1:
			ret = proto_iiod_reply_data(&b, r->in, r->in_len);
			break;
		case 2:
			ret = proto_iiod_reply_value(&b, r->in, r->in_len);
			break;
		case 3:
			ret = proto_iiod_reply_version(&b);
			break;
		}
		TEST_ROW_ASSERT(ret == 0, r->name);
		TEST_ROW_ASSERT(b.len == r->out_len, r->name);
		TEST_ROW_ASSERT(b.len == r->out_len && memcmp(b.data, r->out, b.len) == 0, r->name);
		proto_buf_fini(&b);
	}
}
TEST_CASE(test_iiod_replies, "reply frames, byte for byte");

static void test_iiod_help(void)
{
	struct proto_buf b;
	int i;

	proto_buf_init(&b);
	CU_ASSERT_EQUAL_FATAL(proto_iiod_reply_help(&b), 0);
	CU_ASSERT_FATAL(proto_buf_append(&b, "", 1) == 0);
	/* free text: no integer line first, and every request is listed */
	CU_ASSERT(b.data[0] < '0' || b.data[0] > '9');
	for (i = PROTO_IIOD_OP_NONE + 1; i < PROTO_IIOD_OP_COUNT; i++)
		CU_ASSERT_PTR_NOT_NULL(strstr(b.data, proto_iiod_op_name((enum proto_iiod_op)i)));
	proto_buf_fini(&b);
}
TEST_CASE(test_iiod_help, "HELP lists every request");

struct iiod_value_len_row {
	const char *name;
	const char *in;
	size_t len;
	size_t out;
};

static const struct iiod_value_len_row iiod_value_len_rows[] = {
	{ "C string with its NUL", "1234\0", 5, 4 },
	{ "no NUL", "1234", 4, 4 },
	{ "newline kept for the core", "12\n\0", 4, 3 },
	{ "NUL inside cuts", "1\0002\0", 4, 1 },
	{ "only a NUL", "\0", 1, 0 },
	{ "empty", "", 0, 0 },
};

static void test_iiod_value_len(void)
{
	const struct iiod_value_len_row *r;
	size_t i;

	for (i = 0; i < sizeof(iiod_value_len_rows) / sizeof(iiod_value_len_rows[0]); i++) {
		r = &iiod_value_len_rows[i];
		TEST_ROW_ASSERT(proto_iiod_value_len(r->in, r->len) == r->out, r->name);
	}
	/* a WRITE of zero bytes has no payload buffer at all */
	CU_ASSERT_EQUAL(proto_iiod_value_len(NULL, 0), 0);
}
TEST_CASE(test_iiod_value_len, "WRITE payload: value length");

/* ---- the "all attributes" layout ---- */

static void test_iiod_all_roundtrip(void)
{
	static const char expect[] = {
		0, 0, 0, 5, '1', '0', '0', '0', 0, 0, 0, 0,	/* "1000\0" padded to 8 */
		(char)0xff, (char)0xff, (char)0xff, (char)0xed,	/* -19 */
		0, 0, 0, 4, 'a', 'b', 'c', 0,			/* exactly 4: no padding */
		0, 0, 0, 0,					/* empty */
	};
	const char *v;
	struct proto_buf b;
	size_t off = 0, vlen;

	proto_buf_init(&b);
	CU_ASSERT_EQUAL(proto_iiod_all_append(&b, 5, "1000"), 0);
	CU_ASSERT_EQUAL(proto_iiod_all_append(&b, -19, NULL), 0);
	CU_ASSERT_EQUAL(proto_iiod_all_append(&b, 4, "abc"), 0);
	CU_ASSERT_EQUAL(proto_iiod_all_append(&b, 0, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(b.len, sizeof(expect));
	CU_ASSERT_EQUAL(memcmp(b.data, expect, sizeof(expect)), 0);

	CU_ASSERT_EQUAL(proto_iiod_all_next(b.data, b.len, &off, &v, &vlen), 0);
	CU_ASSERT(vlen == 5 && memcmp(v, "1000", 5) == 0 && off == 12);
	CU_ASSERT_EQUAL(proto_iiod_all_next(b.data, b.len, &off, &v, &vlen), 0);
	CU_ASSERT(vlen == 0 && v == NULL && off == 16);
	CU_ASSERT_EQUAL(proto_iiod_all_next(b.data, b.len, &off, &v, &vlen), 0);
	CU_ASSERT(vlen == 4 && memcmp(v, "abc", 4) == 0 && off == 24);
	CU_ASSERT_EQUAL(proto_iiod_all_next(b.data, b.len, &off, &v, &vlen), 0);
	CU_ASSERT(vlen == 0 && off == 28);
	/* nothing left: a further entry is malformed */
	CU_ASSERT_EQUAL(proto_iiod_all_next(b.data, b.len, &off, &v, &vlen), -EINVAL);
	proto_buf_fini(&b);
}
TEST_CASE(test_iiod_all_roundtrip, "all-attributes layout: round trip");

struct iiod_all_bad_row {
	const char *name;
	const char *data;
	size_t len;
	int ret;
	size_t vlen;
};

static const struct iiod_all_bad_row iiod_all_rows[] = {
	{ "fewer than 4 bytes", "\0\0\0", 3, -EINVAL, 0 },
	{ "length past the end", "\0\0\0\x09" "abcd", 8, -EINVAL, 0 },
	{ "last entry unpadded", "\0\0\0\x03" "abc", 7, 0, 3 },
	{ "negative length carries nothing", "\xff\xff\xff\xfe" "abcd", 8, 0, 0 },
	{ "INT32_MIN", "\x80\0\0\0", 4, 0, 0 },
	{ "INT32_MAX past the end", "\x7f\xff\xff\xff", 4, -EINVAL, 0 },
};

static void test_iiod_all_bad(void)
{
	const struct iiod_all_bad_row *r;
	const char *v;
	size_t i, off, vlen;

	for (i = 0; i < sizeof(iiod_all_rows) / sizeof(iiod_all_rows[0]); i++) {
		r = &iiod_all_rows[i];
		off = 0;
		TEST_ROW_ASSERT(proto_iiod_all_next(r->data, r->len, &off, &v, &vlen) == r->ret,
				r->name);
		if (!r->ret)
			TEST_ROW_ASSERT(vlen == r->vlen, r->name);
	}
	/* an offset past the data is refused, not read */
	off = 12;
	CU_ASSERT_EQUAL(proto_iiod_all_next("abcd", 4, &off, &v, &vlen), -EINVAL);
	/* a length that a 32-bit word cannot carry is refused */
	{
		struct proto_buf b;

		proto_buf_init(&b);
		CU_ASSERT_EQUAL(proto_iiod_all_append(&b, (long)INT32_MAX + 1, "x"), -EINVAL);
		CU_ASSERT_EQUAL(b.len, 0);
		proto_buf_fini(&b);
	}
}
TEST_CASE(test_iiod_all_bad, "all-attributes layout: malformed entries");

/* The limits the server applies are ordered the way the skip logic needs. */
static void test_iiod_limits(void)
{
	CU_ASSERT(PROTO_IIOD_WRITE_MAX_BYTES >= 4096);	/* a whole sysfs page fits */
	CU_ASSERT(PROTO_IIOD_SKIP_MAX_BYTES > PROTO_IIOD_WRITE_MAX_BYTES);
	CU_ASSERT(PROTO_IIOD_LINE_MAX_BYTES > 6 * (PROTO_IIOD_NAME_MAX_BYTES + 1));
	CU_ASSERT_EQUAL(strlen(PROTO_IIOD_VERSION_TAG), 7);
}
TEST_CASE(test_iiod_limits, "limits are consistent");

TEST_MAIN("iiod_codec", NULL, NULL)
