/*
 * iiod.h - the text protocol of libiio's iiod (0.24), as pure code.
 *
 * libiio's tools and bindings talk to a server with one request line at a
 * time ("READ iio:device0 INPUT voltage0 raw\r\n") and read back an
 * "integer line" (a byte count or -errno), then that many payload bytes.
 * This file is the whole C API of that codec: proto_iiod_parse() turns a
 * line into a struct proto_iiod_cmd, the reply encoders append framed
 * answers to a struct proto_buf, and two helpers read and write the
 * "all attributes at once" layout. PROTOCOL-iiod.md beside it is the
 * specification. Place in the flow: server (iiod listener) -> *wire* ->
 * libiio client. Pure code: no sockets, no device access, no logging.
 */
#ifndef IIOWIRE_PROTO_IIOD_H
#define IIOWIRE_PROTO_IIOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

/* iiod's registered TCP port; iiowired's listener has no default port of its own. */
#define PROTO_IIOD_PORT			30431

/* The libiio release whose protocol this is, as VERSION and the XML say. */
#define PROTO_IIOD_VERSION_MAJOR	0
#define PROTO_IIOD_VERSION_MINOR	24
/* The "git tag" of VERSION: clients read exactly 7 characters of it. */
#define PROTO_IIOD_VERSION_TAG		"iiowire"

/*
 * Longest request line, terminator not counted. The longest line a libiio
 * client sends is a WRITE naming a device, a channel and an attribute: a
 * few hundred bytes at most.
 */
#define PROTO_IIOD_LINE_MAX_BYTES	1024
/* Longest device, channel, attribute or trigger name in a request. */
#define PROTO_IIOD_NAME_MAX_BYTES	128
/* Longest OPEN channel mask: 8 hex digits per 32 channels, so 4096 channels. */
#define PROTO_IIOD_MASK_MAX_BYTES	1024
/*
 * Longest WRITE payload the server takes in and applies (a single value is
 * at most a sysfs page; "write all" packs several). A longer one is refused
 * with -EFBIG after its bytes have been read and dropped, so the stream
 * stays in step without ever holding more than this per connection.
 */
#define PROTO_IIOD_WRITE_MAX_BYTES	16384
/*
 * Longest refused WRITE payload the server still reads and drops. Past
 * this it answers -EFBIG and closes the connection instead of reading
 * whatever a broken client announced.
 */
#define PROTO_IIOD_SKIP_MAX_BYTES	(1024 * 1024)

/* Requests. The value order is the HELP order. */
enum proto_iiod_op {
	PROTO_IIOD_OP_NONE = 0,	/* an empty or blank line: no reply */
	PROTO_IIOD_OP_HELP,
	PROTO_IIOD_OP_EXIT,	/* EXIT or QUIT: no reply, the server closes */
	PROTO_IIOD_OP_VERSION,
	PROTO_IIOD_OP_PRINT,
	PROTO_IIOD_OP_ZPRINT,
	PROTO_IIOD_OP_BINARY,
	PROTO_IIOD_OP_TIMEOUT,
	PROTO_IIOD_OP_READ,
	PROTO_IIOD_OP_WRITE,
	PROTO_IIOD_OP_GETTRIG,
	PROTO_IIOD_OP_SETTRIG,
	PROTO_IIOD_OP_SET,	/* SET <dev> BUFFERS_COUNT <n> */
	PROTO_IIOD_OP_OPEN,
	PROTO_IIOD_OP_CLOSE,
	PROTO_IIOD_OP_READBUF,
	PROTO_IIOD_OP_WRITEBUF,
	PROTO_IIOD_OP_COUNT	/* not an op: the size of the op table */
};

/* What a READ or WRITE addresses. */
enum proto_iiod_target {
	PROTO_IIOD_TARGET_DEVICE = 0,	/* a device attribute */
	PROTO_IIOD_TARGET_DEBUG,	/* a debug (debugfs) attribute */
	PROTO_IIOD_TARGET_BUFFER,	/* a buffer attribute */
	PROTO_IIOD_TARGET_CHANNEL,	/* an attribute of an INPUT or OUTPUT channel */
};

/**
 * struct proto_iiod_cmd - one parsed request line.
 * @op: the request; PROTO_IIOD_OP_NONE for a blank line.
 * @target: READ/WRITE: what @attr belongs to.
 * @output: TARGET_CHANNEL: the channel was named after OUTPUT (else INPUT).
 * @all: READ/WRITE without an attribute name: every attribute of the
 *	target at once (the "read all" / "write all" layout).
 * @cyclic: OPEN ... CYCLIC.
 * @device: the device named (id, label or name); "" when the op has none.
 * @channel: TARGET_CHANNEL: the channel id or name.
 * @attr: READ/WRITE: the attribute; "" when @all.
 * @trigger: SETTRIG: the trigger to set; "" clears it.
 * @mask: OPEN: the channel mask as sent (hexadecimal digits).
 * @num: TIMEOUT milliseconds, WRITE/WRITEBUF/READBUF byte count, OPEN
 *	samples, SET buffer count.
 * @payload: bytes that follow the line on the wire and belong to it
 *	(WRITE's value). Set whenever the line starts with WRITE and ends with
 *	a number, even when the rest fails to parse, so that a refused WRITE
 *	can still be skipped; UINT64_MAX when the number does not fit.
 */
struct proto_iiod_cmd {
	enum proto_iiod_op op;
	enum proto_iiod_target target;
	bool output;
	bool all;
	bool cyclic;
	char device[PROTO_IIOD_NAME_MAX_BYTES + 1];
	char channel[PROTO_IIOD_NAME_MAX_BYTES + 1];
	char attr[PROTO_IIOD_NAME_MAX_BYTES + 1];
	char trigger[PROTO_IIOD_NAME_MAX_BYTES + 1];
	char mask[PROTO_IIOD_MASK_MAX_BYTES + 1];
	uint64_t num;
	uint64_t payload;
};

/**
 * proto_iiod_parse() - parse one request line.
 * @line/@len: the line without its LF or CRLF (as proto_splitter_next()
 *	gives it); need not be NUL-terminated.
 * @cmd: overwritten, whatever the outcome; on failure @cmd->op and
 *	@cmd->payload still say what was understood.
 *
 * Keywords are all upper or all lower case ("READ", "read", not "Read").
 * Tokens are separated by spaces or tabs. Names are an optional "word,"
 * or "iio:" prefix followed by letters, digits, '_', '.' and '-' only,
 * so no name can carry '/' or a control character.
 * Return: 0, or -EINVAL for a line that is not a request (unknown
 * keyword, wrong arguments, a bad name or number, a NUL byte); the
 * server answers that with -22.
 */
int proto_iiod_parse(const char *line, size_t len, struct proto_iiod_cmd *cmd);

/** proto_iiod_op_name() - "READ", ...; NULL for NONE or out of range. */
const char *proto_iiod_op_name(enum proto_iiod_op op);

/*
 * Reply encoders. Each appends one whole reply to @b and returns 0, or
 * -ENOMEM leaving @b as it was.
 */

/** proto_iiod_reply_code() - "<code>\n": a result code or -errno. */
int proto_iiod_reply_code(struct proto_buf *b, long long code);

/**
 * proto_iiod_reply_data() - "<len>\n", @len bytes of @data, then "\n"
 * (PRINT, read all). The final "\n" is sent for @len 0 too: clients skip
 * empty lines before an integer line.
 */
int proto_iiod_reply_data(struct proto_buf *b, const void *data, size_t len);

/**
 * proto_iiod_reply_value() - an attribute value as iiod sends it: one
 * trailing '\n' of @value is dropped and a NUL put in its place, the
 * count includes that NUL ("1000\n" goes out as "5\n1000\0\n").
 */
int proto_iiod_reply_value(struct proto_buf *b, const char *value, size_t len);

/** proto_iiod_reply_version() - "0.24.iiowire\n" (no length prefix, as iiod). */
int proto_iiod_reply_version(struct proto_buf *b);

/** proto_iiod_reply_help() - the request list, free text with no length prefix. */
int proto_iiod_reply_help(struct proto_buf *b);

/**
 * proto_iiod_value_len() - how much of a WRITE payload is the value: the
 * bytes before the first NUL (libiio sends the C string's terminator).
 * Return: that length (<= @len).
 */
size_t proto_iiod_value_len(const char *payload, size_t len);

/*
 * The "all attributes" layout of READ/WRITE without an attribute name: for
 * each attribute in XML order, a 4-byte big-endian signed length (or
 * -errno), then that many bytes of value padded with zeros to a multiple
 * of 4.
 */

/**
 * proto_iiod_all_append() - append one attribute's entry.
 * @ret: the value's length, or -errno (then @value is not used).
 * Return: 0 or -ENOMEM (then @b is as it was).
 */
int proto_iiod_all_append(struct proto_buf *b, long ret, const char *value);

/**
 * proto_iiod_all_next() - read the next entry of a write-all payload.
 * @off: in/out: where the entry starts; moved past it (padding included).
 * @value/@vlen: out: the entry's bytes; @vlen 0 (and @value NULL) when the
 *	entry carries no value (a length of 0 or below: leave it unchanged).
 * Return: 0, or -EINVAL when the entry runs past @len.
 */
int proto_iiod_all_next(const char *data, size_t len, size_t *off, const char **value,
			size_t *vlen);

#endif /* IIOWIRE_PROTO_IIOD_H */
