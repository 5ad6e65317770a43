/*
 * fuzz_proto.c - libFuzzer target for the wire protocol's decoders.
 *
 * The input is treated as a byte stream from a client: the line splitter
 * cuts it (with a small line limit so over-long lines are exercised), each
 * line goes to the request decoder and, for decoded requests, back through
 * the encoder; the same lines go to the reply decoder as a client would see
 * them, listing lines included. Any crash, leak or sanitizer report fails.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_proto_line(const char *line, size_t len, enum proto_op *last_op, int *more,
			    struct proto_reply *rep)
{
	struct proto_request req;
	struct proto_buf out;
	char err[PROTO_MSG_MAX_BYTES];
	int ret;

	memset(&req, 0, sizeof(req));
	ret = proto_request_decode(&req, line, len, err, sizeof(err));
	proto_buf_init(&out);
	if (ret == 0 && req.op != PROTO_OP_NONE) {
		*last_op = req.op;
		proto_request_encode(&out, &req);
		proto_reply_error(&out, &req, -EINVAL, "fuzz");
		proto_reply_ok(&out, &req);
	}
	proto_buf_fini(&out);
	proto_request_fini(&req);

	/* the same bytes as a server's answer to the last request seen */
	if (*more > 0) {
		ret = proto_reply_decode_more(rep, line, len, err, sizeof(err));
		*more = ret > 0 ? ret : 0;
		if (*more == 0)
			proto_reply_fini(rep);
		return;
	}
	ret = proto_reply_decode(rep, *last_op, line, len, err, sizeof(err));
	if (ret > 0) {
		*more = ret;
		return;
	}
	proto_reply_fini(rep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_splitter sp;
	struct proto_reply rep;
	enum proto_op last_op = PROTO_OP_READ;
	const char *line;
	size_t used, line_len;
	int more = 0, ret;

	memset(&rep, 0, sizeof(rep));
	proto_splitter_init(&sp, 512);
	while (size > 0) {
		ret = proto_splitter_next(&sp, (const char *)data, size, &used, &line, &line_len);
		data += used;
		size -= used;
		if (ret == 1)
			fuzz_proto_line(line, line_len, &last_op, &more, &rep);
		else if (ret == 0 || ret == -ENOMEM || used == 0)
			break;
	}
	if (proto_splitter_flush(&sp, &line, &line_len) == 1)
		fuzz_proto_line(line, line_len, &last_op, &more, &rep);
	if (more)
		proto_reply_fini(&rep);
	proto_splitter_fini(&sp);
	return 0;
}
