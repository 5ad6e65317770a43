/*
 * fuzz_iiodb.c - libFuzzer target for libiio 1.0's binary frames
 * (protocol/iiod_binary.h), the decoder the iiod listener runs on every
 * byte a binary client sends.
 *
 * The input is split into chunks whose sizes come from the input itself
 * (the first byte), so every way a stream can be cut is tried. On top of
 * "no crash, leak or sanitizer report" it checks what the server relies
 * on: every byte is taken exactly once, a command's opcode is a command,
 * a WRITE value never exceeds the limit it was given, a refused one says
 * -EFBIG and carries no data, and the decoder never holds more than that
 * limit (or an OPEN_BUFFER mask) however long the stream.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iiod_binary.h"

#define FUZZ_WRITE_MAX	64
#define FUZZ_SKIP_MAX	256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Devices 0..15 exist with 8 * dev channels (mask words as the server
 * computes them); the odd ones have output buffers taking blocks of up to
 * FUZZ_BLOCK_MAX bytes.
 */
#define FUZZ_BLOCK_MAX	200

static long long fuzz_payload(void *ctx, const struct proto_iiodb_cmd *c)
{
	(void)ctx;
	if (c->op == PROTO_IIODB_OPEN_BUFFER)
		return c->dev < 16 ? 4 * ((8 * c->dev + 31) / 32) : -ENODEV;
	if (!(c->dev & 1))
		return 0;
	return c->arg > FUZZ_BLOCK_MAX ? -EMSGSIZE : (long long)c->arg;
}

static void fuzz_iiodb_check(const struct proto_iiodb_dec *d, const struct proto_iiodb_cmd *c)
{
	if (c->op == PROTO_IIODB_RESPONSE || c->op >= PROTO_IIODB_OP_COUNT)
		abort();
	if (c->len > (c->op == PROTO_IIODB_TRANSFER_BLOCK ||
		      c->op == PROTO_IIODB_ENQUEUE_BLOCK_CYCLIC ? FUZZ_BLOCK_MAX : FUZZ_WRITE_MAX) &&
	    c->op != PROTO_IIODB_OPEN_BUFFER)
		abort();
	if (c->err && (c->err != -EFBIG || c->len))
		abort();
	if (c->len && !c->data)
		abort();
	if (d->cap > FUZZ_WRITE_MAX && d->cap > FUZZ_BLOCK_MAX && d->cap > PROTO_IIODB_MASK_MAX_BYTES)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_iiodb_dec d;
	struct proto_iiodb_cmd c;
	size_t off, chunk, n, used;
	int ret = 0;

	if (!size)
		return 0;
	chunk = (size_t)data[0] % 13 + 1;
	proto_iiodb_dec_init(&d, FUZZ_WRITE_MAX, FUZZ_SKIP_MAX);
	for (off = 1; off < size && ret >= 0;) {
		n = size - off < chunk ? size - off : chunk;
		ret = proto_iiodb_feed(&d, data + off, n, &used, &c, fuzz_payload, NULL);
		if (used > n || (ret == 0 && used != n))
			abort();
		if (ret > 0)
			fuzz_iiodb_check(&d, &c);
		off += used;
	}
	proto_iiodb_dec_fini(&d);
	return 0;
}
