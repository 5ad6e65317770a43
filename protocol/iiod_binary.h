/*
 * iiod_binary.h - the binary protocol of libiio 1.0's iiod, as pure code.
 *
 * A libiio 1.0 client sends "BINARY\r\n" on the text protocol; once the
 * server answers 0, both sides speak frames: an 8-byte header (client id,
 * opcode, device index, a 32-bit code) and, for some opcodes, a payload
 * whose length the opcode implies. Answers are headers of opcode RESPONSE
 * whose code is a byte count (data follows) or -errno, tagged with the
 * client id of the command they answer, so they may leave in any order.
 * This file is the decoder (a byte stream to whole commands, bounded) and
 * the encoder of answers. PROTOCOL-iiod.md ("The binary protocol") is the
 * specification. Place in the flow: server (iiod listener) -> *wire* ->
 * libiio 1.0 client. Pure code: no sockets, no device access, no logging.
 */
#ifndef IIOWIRE_PROTO_IIOD_BINARY_H
#define IIOWIRE_PROTO_IIOD_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

/* What a 1.0 client reads as the server's libiio version (the XML's). */
#define PROTO_IIODB_VERSION_MAJOR	1
#define PROTO_IIODB_VERSION_MINOR	0

/* A frame's header. The fields are in the byte order of the sender's host (libiio copies
 * its struct): iiowire reads and writes little-endian, the order of every host libiio 1.0
 * runs on (x86, ARM, RISC-V). */
#define PROTO_IIODB_HDR_BYTES		8
/*
 * The longest XML a client takes uncompressed: libiio 1.0 reads PRINT's answer into 64 KiB.
 * A longer one goes zstd-compressed (the client tells them apart by "<?xml").
 */
#define PROTO_IIODB_XML_PLAIN_MAX	65536
/* An OPEN_BUFFER's channel mask: 32 channels per 32-bit word, so 4096 channels at most. */
#define PROTO_IIODB_MASK_MAX_BYTES	512

/* Opcodes, in libiio 1.0's order (their values are the wire's). */
enum proto_iiodb_op {
	PROTO_IIODB_RESPONSE = 0,
	PROTO_IIODB_PRINT,
	PROTO_IIODB_TIMEOUT,
	PROTO_IIODB_READ_ATTR,
	PROTO_IIODB_READ_DBG_ATTR,
	PROTO_IIODB_READ_BUF_ATTR,
	PROTO_IIODB_READ_CHN_ATTR,
	PROTO_IIODB_READ_DEV_EVT_ATTR,
	PROTO_IIODB_READ_CHN_EVT_ATTR,
	PROTO_IIODB_WRITE_ATTR,
	PROTO_IIODB_WRITE_DBG_ATTR,
	PROTO_IIODB_WRITE_BUF_ATTR,
	PROTO_IIODB_WRITE_CHN_ATTR,
	PROTO_IIODB_WRITE_DEV_EVT_ATTR,
	PROTO_IIODB_WRITE_CHN_EVT_ATTR,
	PROTO_IIODB_GETTRIG,
	PROTO_IIODB_SETTRIG,
	PROTO_IIODB_OPEN_BUFFER,
	PROTO_IIODB_CLOSE_BUFFER,
	PROTO_IIODB_ENABLE_BUFFER,
	PROTO_IIODB_DISABLE_BUFFER,
	PROTO_IIODB_CREATE_BLOCK,
	PROTO_IIODB_FREE_BLOCK,
	PROTO_IIODB_TRANSFER_BLOCK,
	PROTO_IIODB_ENQUEUE_BLOCK_CYCLIC,
	PROTO_IIODB_RETRY_DEQUEUE_BLOCK,
	PROTO_IIODB_CREATE_EVSTREAM,
	PROTO_IIODB_FREE_EVSTREAM,
	PROTO_IIODB_READ_EVENT,
	PROTO_IIODB_REG_READ,
	PROTO_IIODB_REG_WRITE,
	PROTO_IIODB_REFRESH_FORMAT,
	PROTO_IIODB_NOP,
	PROTO_IIODB_OP_COUNT	/* not an op: the size of the op table */
};

/**
 * struct proto_iiodb_cmd - one whole command.
 * @client_id/@op/@dev/@code: the header. For attributes @code is
 *	(attribute index << 16 | channel or buffer index); for blocks
 *	(block index << 16 | buffer index).
 * @arg: the 64-bit number after the header (WRITE_*: the value's length;
 *	CREATE_BLOCK: the block's size; TRANSFER_BLOCK and
 *	ENQUEUE_BLOCK_CYCLIC: the bytes used; REG_WRITE: the 32-bit value).
 * @data/@len: WRITE_*'s value, OPEN_BUFFER's mask words, or an output
 *	buffer's block (TRANSFER_BLOCK, ENQUEUE_BLOCK_CYCLIC); borrowed until
 *	the next call of proto_iiodb_feed().
 * @err: 0, or -EFBIG: a WRITE longer than the decoder takes, its value
 *	dropped (the stream stays in step; answer the error).
 */
struct proto_iiodb_cmd {
	uint16_t client_id;
	uint8_t op;
	uint8_t dev;
	int32_t code;
	uint64_t arg;
	const uint8_t *data;
	size_t len;
	int err;
};

/**
 * struct proto_iiodb_dec - the decoder: set up with proto_iiodb_dec_init(),
 * freed with proto_iiodb_dec_fini(). Fields are private.
 */
struct proto_iiodb_dec {
	int stage;
	uint8_t hdr[PROTO_IIODB_HDR_BYTES];
	uint8_t num[8];
	size_t have;
	uint64_t left;
	size_t want;
	uint8_t *buf;
	size_t cap;
	size_t write_max;
	uint64_t skip_max;
	struct proto_iiodb_cmd cmd;
};

/**
 * proto_iiodb_dec_init() - a decoder that takes WRITE values up to
 * @write_max bytes, drops longer ones up to @skip_max (-EFBIG) and gives
 * up past that (-EMSGSIZE).
 */
void proto_iiodb_dec_init(struct proto_iiodb_dec *d, size_t write_max, uint64_t skip_max);
/** proto_iiodb_dec_fini() - free what the decoder holds. */
void proto_iiodb_dec_fini(struct proto_iiodb_dec *d);
/** proto_iiodb_dec_partial() - true while a command is half received. */
bool proto_iiodb_dec_partial(const struct proto_iiodb_dec *d);

/**
 * proto_iiodb_feed() - take bytes of the stream until one command is whole.
 * @used: the bytes of @p taken (all of them unless a command completed).
 * @payload: the bytes only the device knows: OPEN_BUFFER's mask (one bit
 *	per channel of device @c->dev), and the block a TRANSFER_BLOCK or
 *	ENQUEUE_BLOCK_CYCLIC carries after its bytes used (@c->arg) when the
 *	buffer is an output one (0 for an input one); or a negative errno.
 * Return: 1 with *@out filled, 0 when all of @p went into a command not
 * yet whole, or a negative errno after which the stream cannot be
 * followed: -EPROTO (an opcode that is not a command), -ENODEV (an
 * OPEN_BUFFER of a device that does not exist: its mask has no known
 * length), -EMSGSIZE (a WRITE past the skip limit, a block past
 * @payload's), -ENOMEM.
 */
int proto_iiodb_feed(struct proto_iiodb_dec *d, const uint8_t *p, size_t len, size_t *used,
		     struct proto_iiodb_cmd *out,
		     long long (*payload)(void *ctx, const struct proto_iiodb_cmd *c), void *ctx);

/** proto_iiodb_op_name() - "READ_ATTR", ...; NULL out of range. */
const char *proto_iiodb_op_name(unsigned int op);

/**
 * proto_iiodb_reply() - an answer: a RESPONSE header for @client_id with
 * @code, then @len bytes of @data (none when @data is NULL). Callers send
 * data with @code = its length, or a code alone.
 * Return: 0, or -ENOMEM leaving @b as it was.
 */
int proto_iiodb_reply(struct proto_buf *b, uint16_t client_id, int32_t code, const void *data,
		      size_t len);

/**
 * proto_iiodb_reply_event() - READ_EVENT's answer: 16 bytes, the kernel's
 * 64-bit event code and the timestamp in ns, as struct iio_event.
 */
int proto_iiodb_reply_event(struct proto_buf *b, uint16_t client_id, uint64_t id,
			    int64_t timestamp);

#endif /* IIOWIRE_PROTO_IIOD_BINARY_H */
