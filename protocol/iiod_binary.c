/*
 * iiod_binary.c - libiio 1.0's binary frames (iiod_binary.h): a decoder
 * that turns a byte stream into whole commands, whatever the chunking, and
 * never holds more than one WRITE value of its limit; and the answers.
 *
 * The payload of a command is implied by its opcode, as libiio's
 * responder reads it: a 64-bit number (WRITE's length, a block's size or
 * bytes used), then for WRITE that many bytes; a 32-bit value for
 * REG_WRITE; the channel mask for OPEN_BUFFER, whose length only the
 * device's channel count gives, and an output buffer's block after its
 * bytes used (both the caller's @payload).
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iiod_binary.h"

enum {
	DEC_HDR,	/* collecting the 8-byte header */
	DEC_NUM,	/* collecting @want bytes of a number into @num */
	DEC_DATA,	/* collecting @want bytes into @buf */
	DEC_SKIP,	/* dropping @left bytes */
};

static const char *const proto_iiodb_names[PROTO_IIODB_OP_COUNT] = {
	"RESPONSE", "PRINT", "TIMEOUT", "READ_ATTR", "READ_DBG_ATTR", "READ_BUF_ATTR",
	"READ_CHN_ATTR", "READ_DEV_EVT_ATTR", "READ_CHN_EVT_ATTR", "WRITE_ATTR",
	"WRITE_DBG_ATTR", "WRITE_BUF_ATTR", "WRITE_CHN_ATTR", "WRITE_DEV_EVT_ATTR",
	"WRITE_CHN_EVT_ATTR", "GETTRIG", "SETTRIG", "OPEN_BUFFER", "CLOSE_BUFFER",
	"ENABLE_BUFFER", "DISABLE_BUFFER", "CREATE_BLOCK", "FREE_BLOCK", "TRANSFER_BLOCK",
	"ENQUEUE_BLOCK_CYCLIC", "RETRY_DEQUEUE_BLOCK", "CREATE_EVSTREAM", "FREE_EVSTREAM",
	"READ_EVENT", "REG_READ", "REG_WRITE", "REFRESH_FORMAT", "NOP",
};

const char *proto_iiodb_op_name(unsigned int op)
{
	return op < PROTO_IIODB_OP_COUNT ? proto_iiodb_names[op] : NULL;
}

void proto_iiodb_dec_init(struct proto_iiodb_dec *d, size_t write_max, uint64_t skip_max)
{
	memset(d, 0, sizeof(*d));
	d->stage = DEC_HDR;
	d->write_max = write_max;
	d->skip_max = skip_max;
}

void proto_iiodb_dec_fini(struct proto_iiodb_dec *d)
{
	free(d->buf);
	d->buf = NULL;
	d->cap = 0;
}

bool proto_iiodb_dec_partial(const struct proto_iiodb_dec *d)
{
	return d->stage != DEC_HDR || d->have;
}

static bool proto_iiodb_is_write(unsigned int op)
{
	return op >= PROTO_IIODB_WRITE_ATTR && op <= PROTO_IIODB_WRITE_CHN_EVT_ATTR;
}

/* Collect @want bytes of @d->buf; the buffer grows to the command's size, no further. */
static int proto_iiodb_want_data(struct proto_iiodb_dec *d, size_t want)
{
	uint8_t *grown;

	if (want > d->cap) {
		grown = realloc(d->buf, want);
		if (!grown)
			return -ENOMEM;
		d->buf = grown;
		d->cap = want;
	}
	d->want = want;
	d->have = 0;
	d->stage = want ? DEC_DATA : DEC_HDR;
	return 0;
}

/*
 * The header is whole: decode it and say what follows.
 * Return: 1 when the command is whole already, 0 when a payload follows, or -errno.
 */
static int proto_iiodb_after_hdr(struct proto_iiodb_dec *d,
				 long long (*payload)(void *ctx, const struct proto_iiodb_cmd *c),
				 void *ctx)
{
	struct proto_iiodb_cmd *c = &d->cmd;
	uint16_t id;
	uint32_t code;
	long long n;

	memcpy(&id, d->hdr, 2);
	memcpy(&code, d->hdr + 4, 4);
	memset(c, 0, sizeof(*c));
	c->client_id = le16toh(id);
	c->op = d->hdr[2];
	c->dev = d->hdr[3];
	c->code = (int32_t)le32toh(code);
	d->have = 0;
	if (c->op == PROTO_IIODB_RESPONSE || c->op >= PROTO_IIODB_OP_COUNT)
		return -EPROTO;
	if (proto_iiodb_is_write(c->op) || c->op == PROTO_IIODB_CREATE_BLOCK ||
	    c->op == PROTO_IIODB_TRANSFER_BLOCK || c->op == PROTO_IIODB_ENQUEUE_BLOCK_CYCLIC) {
		d->want = 8;
		d->stage = DEC_NUM;
		return 0;
	}
	if (c->op == PROTO_IIODB_REG_WRITE) {
		d->want = 4;
		d->stage = DEC_NUM;
		return 0;
	}
	if (c->op != PROTO_IIODB_OPEN_BUFFER)
		return 1;
	n = payload(ctx, c);
	if (n < 0 || n > PROTO_IIODB_MASK_MAX_BYTES)
		return -ENODEV;
	if (proto_iiodb_want_data(d, (size_t)n))
		return -ENOMEM;
	return n ? 0 : 1;
}

/* The number after the header is whole. Return: as proto_iiodb_after_hdr(). */
static int proto_iiodb_after_num(struct proto_iiodb_dec *d,
				 long long (*payload)(void *ctx, const struct proto_iiodb_cmd *c),
				 void *ctx)
{
	struct proto_iiodb_cmd *c = &d->cmd;
	long long n;
	uint64_t v64;
	uint32_t v32;

	if (d->want == 4) {
		memcpy(&v32, d->num, 4);
		c->arg = le32toh(v32);
	} else {
		memcpy(&v64, d->num, 8);
		c->arg = le64toh(v64);
	}
	d->have = 0;
	d->stage = DEC_HDR;
	if (c->op == PROTO_IIODB_TRANSFER_BLOCK || c->op == PROTO_IIODB_ENQUEUE_BLOCK_CYCLIC) {
		n = payload(ctx, c);	/* an output buffer's block follows */
		if (n < 0)
			return (int)n;
		return !n ? 1 : proto_iiodb_want_data(d, (size_t)n) ? -ENOMEM : 0;
	}
	if (!proto_iiodb_is_write(c->op))
		return 1;
	if (c->arg <= d->write_max)
		return proto_iiodb_want_data(d, (size_t)c->arg) ? -ENOMEM : c->arg ? 0 : 1;
	if (c->arg > d->skip_max)
		return -EMSGSIZE;
	c->err = -EFBIG;
	d->left = c->arg;
	d->stage = DEC_SKIP;
	return 0;
}

/* Take what the current stage wants from @p; Return: bytes taken. */
static size_t proto_iiodb_take(struct proto_iiodb_dec *d, const uint8_t *p, size_t len)
{
	size_t n;

	switch (d->stage) {
	case DEC_HDR:
		n = PROTO_IIODB_HDR_BYTES - d->have;
		n = n < len ? n : len;
		memcpy(d->hdr + d->have, p, n);
		break;
	case DEC_NUM:
		n = d->want - d->have < len ? d->want - d->have : len;
		memcpy(d->num + d->have, p, n);
		break;
	case DEC_DATA:
		n = d->want - d->have < len ? d->want - d->have : len;
		memcpy(d->buf + d->have, p, n);
		break;
	default:
		n = d->left < len ? (size_t)d->left : len;
		d->left -= n;
		return n;
	}
	d->have += n;
	return n;
}

/* Is the current stage complete? Then move on. Return: as proto_iiodb_after_hdr(). */
static int proto_iiodb_step(struct proto_iiodb_dec *d,
			    long long (*payload)(void *ctx, const struct proto_iiodb_cmd *c),
			    void *ctx)
{
	switch (d->stage) {
	case DEC_HDR:
		return d->have < PROTO_IIODB_HDR_BYTES ? 0 :
			proto_iiodb_after_hdr(d, payload, ctx);
	case DEC_NUM:
		return d->have < d->want ? 0 : proto_iiodb_after_num(d, payload, ctx);
	case DEC_DATA:
		if (d->have < d->want)
			return 0;
		d->cmd.data = d->buf;
		d->cmd.len = d->want;
		d->have = 0;
		d->stage = DEC_HDR;
		return 1;
	default:
		if (d->left)
			return 0;
		d->stage = DEC_HDR;
		return 1;
	}
}

int proto_iiodb_feed(struct proto_iiodb_dec *d, const uint8_t *p, size_t len, size_t *used,
		     struct proto_iiodb_cmd *out,
		     long long (*payload)(void *ctx, const struct proto_iiodb_cmd *c), void *ctx)
{
	size_t off = 0;
	int ret;

	*used = 0;
	for (;;) {
		/* a stage may complete with no byte (an empty WRITE, a device of no channels) */
		ret = proto_iiodb_step(d, payload, ctx);
		if (ret) {
			*used = off;
			if (ret > 0) {
				*out = d->cmd;
				d->have = 0;
			}
			return ret;
		}
		if (off == len)
			break;
		off += proto_iiodb_take(d, p + off, len - off);
	}
	*used = off;
	return 0;
}

int proto_iiodb_reply(struct proto_buf *b, uint16_t client_id, int32_t code, const void *data,
		      size_t len)
{
	uint8_t hdr[PROTO_IIODB_HDR_BYTES];
	uint16_t id = htole16(client_id);
	uint32_t c = htole32((uint32_t)code);
	size_t start = b->len;

	memcpy(hdr, &id, 2);
	hdr[2] = PROTO_IIODB_RESPONSE;
	hdr[3] = 0;
	memcpy(hdr + 4, &c, 4);
	if (proto_buf_append(b, hdr, sizeof(hdr)) ||
	    (data && len && proto_buf_append(b, data, len))) {
		proto_buf_truncate(b, start);
		return -ENOMEM;
	}
	return 0;
}

int proto_iiodb_reply_event(struct proto_buf *b, uint16_t client_id, uint64_t id,
			    int64_t timestamp)
{
	uint8_t ev[16];
	uint64_t v = htole64(id);
	uint64_t t = htole64((uint64_t)timestamp);

	memcpy(ev, &v, 8);
	memcpy(ev + 8, &t, 8);
	return proto_iiodb_reply(b, client_id, (int32_t)sizeof(ev), ev, sizeof(ev));
}
