/*
 * fuzz_iiod.c - libFuzzer target for the iiod (libiio 0.24) text codec.
 *
 * The input is a byte stream from a libiio client as the iiod listener
 * sees it: the line splitter cuts it (iiod's line limit), each line goes to
 * proto_iiod_parse(), and a WRITE's announced payload is taken off the
 * stream the way the session does, then walked as a write-all layout. On
 * top of "no crash, leak or sanitizer report" it checks what the server
 * relies on: a parsed name never holds '/' or a blank, and a refused line
 * that starts with WRITE still says how long its payload is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iiod.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A name from a successful parse: iiod's word pattern, never a path. */
static void fuzz_iiod_name_ok(const char *name)
{
	if (strpbrk(name, "/ \t\r\n") || strlen(name) > PROTO_IIOD_NAME_MAX_BYTES)
		abort();
}

/* The layout walk and the value helper on whatever the payload holds. */
static void fuzz_iiod_payload(const char *p, size_t len)
{
	const char *v;
	size_t off = 0, vlen;
	int guard = 0;

	if (proto_iiod_value_len(p, len) > len)
		abort();
	while (off < len && guard++ < 4096) {
		if (proto_iiod_all_next(p, len, &off, &v, &vlen))
			break;
		if (off > len || (vlen && (v < p || v + vlen > p + len)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *line;
	struct proto_splitter sp;
	struct proto_iiod_cmd cmd;
	struct proto_buf out;
	size_t used, len, take;
	int ret;

	proto_splitter_init(&sp, PROTO_IIOD_LINE_MAX_BYTES);
	proto_buf_init(&out);
	while (size) {
		ret = proto_splitter_next(&sp, in, size, &used, &line, &len);
		in += used;
		size -= used;
		if (ret <= 0)
			break;
		ret = proto_iiod_parse(line, len, &cmd);
		if (!ret) {
			fuzz_iiod_name_ok(cmd.device);
			fuzz_iiod_name_ok(cmd.channel);
			fuzz_iiod_name_ok(cmd.attr);
			fuzz_iiod_name_ok(cmd.trigger);
			if (cmd.op == PROTO_IIOD_OP_WRITE && cmd.payload != cmd.num)
				abort();
		}
		if (cmd.op == PROTO_IIOD_OP_WRITE && cmd.payload) {
			take = cmd.payload < size ? (size_t)cmd.payload : size;
			fuzz_iiod_payload(in, take);
			in += take;
			size -= take;
		}
		proto_buf_truncate(&out, 0);
		proto_iiod_reply_code(&out, ret);
		proto_iiod_reply_value(&out, line, len);
		proto_iiod_reply_data(&out, line, len);
		proto_iiod_all_append(&out, (long)len, line);
	}
	proto_buf_fini(&out);
	proto_splitter_fini(&sp);
	return 0;
}
