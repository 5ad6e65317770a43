/*
 * proto.h - the iiowire wire protocol: framing, requests, replies, events.
 *
 * One request per line, in one of two spellings (a text line, or a JSON
 * object when the line starts with '{'); both decode to the same struct
 * proto_request. Replies are encoded from plain structs into a caller's
 * growable buffer (struct proto_buf), and decoded back (struct proto_reply)
 * by the client library. PROTOCOL.md beside this file is the specification;
 * this header is the whole C API of protocol/.
 * Place in the flow: server -> *wire* -> client. Pure code: no sockets, no
 * event loop, no logging, no mutable globals; cJSON stays inside protocol/.
 * Errors are -errno; messages go into the caller's buffers.
 */
#ifndef IIOWIRE_PROTO_H
#define IIOWIRE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto_errno.h"

struct proto_buf;
struct proto_arena;

/* Protocol version: a minor bump adds requests or fields, a major one breaks. */
#define PROTO_VERSION_MAJOR		1
#define PROTO_VERSION_MINOR		0

/* Default TCP port of iiowired. */
#define PROTO_DEFAULT_PORT		30432

/* Longest request or reply line, terminator (LF or CRLF) not counted. */
#define PROTO_LINE_MAX_BYTES		4096
/*
 * Longest reply line a client must accept: a JSON listing is one line, and
 * a value may be a full sysfs page (4096 bytes) before escaping.
 */
#define PROTO_REPLY_LINE_MAX_BYTES	(1024 * 1024)
/* Deepest JSON nesting accepted on a line (a request needs 1, a reply 4). */
#define PROTO_JSON_DEPTH_MAX		8
/* Longest JSON "id" as raw text (e.g. "\"abc\"" or 12345), NUL included. */
#define PROTO_ID_MAX_BYTES		128
/* Size of an error message buffer, NUL included; longer messages are cut. */
#define PROTO_MSG_MAX_BYTES		256
/* Scans per STREAM block, both inclusive. */
#define PROTO_STREAM_SCANS_MAX		4096
/* Bytes one SEND may carry: a block of PROTO_STREAM_SCANS_MAX records of the largest size. */
#define PROTO_SEND_BYTES_MAX		(PROTO_STREAM_SCANS_MAX * 256)
/* Channels one STREAM or CSTREAM may name. */
#define PROTO_STREAM_CHANNELS_MAX	64
/* WATCH interval bounds, both inclusive. */
#define PROTO_WATCH_INTERVAL_MIN_MS	10
#define PROTO_WATCH_INTERVAL_MAX_MS	3600000

/* ------------------------------------------------------------------------ */
/* Framing: a byte stream into lines.                                       */
/* ------------------------------------------------------------------------ */

/**
 * struct proto_splitter - cuts a byte stream into lines (LF or CRLF).
 * Make with proto_splitter_init(), end with proto_splitter_fini(). Holds
 * at most max_bytes + 1 bytes of an unfinished line, so memory per
 * connection stays bounded whatever a peer sends.
 * All fields are private.
 */
struct proto_splitter {
	size_t max_bytes;	/* longest line, terminator not counted */
	char *buf;		/* the unfinished line (owned) */
	size_t len;
	size_t cap;
	bool discarding;	/* skipping the rest of an over-long line */
};

/**
 * proto_splitter_init() - set up @sp (caller's memory); pair: proto_splitter_fini().
 * @max_bytes: line limit; 0 means PROTO_LINE_MAX_BYTES.
 */
void proto_splitter_init(struct proto_splitter *sp, size_t max_bytes);

/** proto_splitter_fini() - free what @sp holds; NULL-safe, idempotent. */
void proto_splitter_fini(struct proto_splitter *sp);

/**
 * proto_splitter_next() - take the next line out of @data.
 * @data/@len: bytes received and not yet consumed.
 * @used: out: how many bytes of @data this call consumed.
 * @line/@line_len: out (return 1): the line without its LF or CRLF; not
 *	NUL-terminated, may contain any byte (NUL included: the decoder
 *	rejects it). Borrowed: valid until the next call on @sp, and while
 *	@data is (it may point into @data, with no copy).
 *
 * Call in a loop, advancing @data by *@used, until it returns 0. A line
 * longer than the limit is reported once, as soon as the limit is crossed
 * (without waiting for its end); its remaining bytes up to the next LF are
 * then skipped and the following lines come out normally.
 * Return: 1 with a line; 0 when all of @data was consumed (kept, if it
 * is the start of a line); -E2BIG for an over-long line; -ENOMEM.
 */
int proto_splitter_next(struct proto_splitter *sp, const char *data, size_t len, size_t *used,
			const char **line, size_t *line_len);

/**
 * proto_splitter_flush() - at end of stream, hand out an unfinished last line.
 * @line/@line_len: as proto_splitter_next(); borrowed until the next call.
 * Return: 1 with a line (non-empty), 0 if nothing is pending.
 */
int proto_splitter_flush(struct proto_splitter *sp, const char **line, size_t *line_len);

/**
 * proto_splitter_pending() - how much of an unfinished line @sp holds, for
 * partial-line (slowloris) timeouts.
 * Return: the byte count, 0 between lines.
 */
size_t proto_splitter_pending(const struct proto_splitter *sp);

/**
 * proto_splitter_trim() - free the buffer of @sp when it holds no unfinished
 * line (an idle connection); the line last returned from it is invalid after.
 */
void proto_splitter_trim(struct proto_splitter *sp);

/* ------------------------------------------------------------------------ */
/* Requests.                                                                */
/* ------------------------------------------------------------------------ */

/* Requests; the text verb is the name in capitals, the JSON "op" in lower case. */
enum proto_op {
	PROTO_OP_NONE = 0,	/* an empty (or blank) text line: gets no reply */
	PROTO_OP_HELP,
	PROTO_OP_VERSION,
	PROTO_OP_DEVICES,
	PROTO_OP_DEVICE,
	PROTO_OP_ATTRS,
	PROTO_OP_CHANNELS,
	PROTO_OP_READ,
	PROTO_OP_WRITE,
	PROTO_OP_MAPS,
	PROTO_OP_CONSUMER,
	PROTO_OP_CREAD,
	PROTO_OP_WATCH,
	PROTO_OP_UNWATCH,
	PROTO_OP_STATS,
	PROTO_OP_AUTH,
	PROTO_OP_QUIT,
	PROTO_OP_STREAM,
	PROTO_OP_CSTREAM,
	PROTO_OP_UNSTREAM,
	PROTO_OP_STREAMS,
	PROTO_OP_SUBSCRIBE,
	PROTO_OP_UNSUBSCRIBE,
	PROTO_OP_PLAY,
	PROTO_OP_LOOP,
	PROTO_OP_SEND,
	PROTO_OP_COUNT		/* not an op: the size of the op table */
};

/* What CREAD reads of a consumer channel. */
enum proto_what {
	PROTO_WHAT_RAW = 0,
	PROTO_WHAT_PROCESSED,
	PROTO_WHAT_SCALE,
	PROTO_WHAT_OFFSET,
	PROTO_WHAT_TYPE,
	PROTO_WHAT_LABEL,
	PROTO_WHAT_COUNT	/* not a value: the size of the name table */
};

/* What a stream's blocks carry (STREAM, CSTREAM). */
enum proto_format {
	PROTO_FORMAT_RAW = 0,	/* the kernel's record bytes */
	PROTO_FORMAT_CSV,	/* decoded values, one line per scan */
	PROTO_FORMAT_JSON,	/* decoded values as JSON arrays */
	PROTO_FORMAT_COUNT
};

/* proto_request.flags */
#define PROTO_REQ_JSON		0x1	/* spelled as JSON: answer in JSON */

/**
 * struct proto_request - one decoded request, the same for both spellings.
 * @op: the request; PROTO_OP_NONE for a blank line.
 * @flags: PROTO_REQ_*.
 * @id: the JSON "id" exactly as written on the line (raw JSON text of a
 *	number, string, true, false or null), "" when absent or text.
 * @device, @attr, @value, @consumer, @channel, @token: the named
 *	arguments, NULL when the op has none (or an optional one is absent).
 *	Borrowed from @store: valid until proto_request_fini().
 * @what: CREAD only.
 * @multiplier: CREAD processed only: the caller's scale factor, 0 = none.
 * @interval_ms: WATCH only.
 * @trigger: STREAM, CSTREAM: the trigger, NULL for the current one ("-").
 * @scans: STREAM, CSTREAM: scans per block (0 when absent).
 * @format: STREAM, CSTREAM.
 * @channels/@nchannels: STREAM, CSTREAM: the channels named (none: all);
 *	proto_request_decode() leaves the entries from @nchannels on unset.
 * @stream: UNSTREAM: the stream, 0 for all; SEND: the PLAY or LOOP.
 * @bytes: SEND: the bytes that follow the line.
 * PLAY and LOOP take @device, @trigger, @scans and @channels as STREAM.
 * @evtype: SUBSCRIBE only: the event type filter ("thresh"), NULL for any.
 * @store: private: owned storage of the strings (the struct may be moved
 *	with memcpy; it then owns the store in its new place).
 */
struct proto_request {
	enum proto_op op;
	unsigned int flags;
	char id[PROTO_ID_MAX_BYTES];
	const char *device;
	const char *attr;
	const char *value;
	const char *consumer;
	const char *channel;
	const char *token;
	const char *evtype;
	enum proto_what what;
	unsigned int multiplier;
	int interval_ms;
	const char *trigger;
	int scans;
	enum proto_format format;
	const char *channels[PROTO_STREAM_CHANNELS_MAX];
	int nchannels;
	int stream;
	int bytes;
	char *store;
};

/**
 * proto_request_decode() - parse one line (text or JSON) into @req.
 * @req: overwritten (no init needed); call proto_request_fini() after
 *	either outcome. On failure @req->flags, @req->id and @req->op hold
 *	what was understood, so the error can be answered in the request's
 *	spelling with its id.
 * @line/@len: one line as proto_splitter_next() gives it.
 * @err: filled with a message naming the field at fault (may be NULL);
 *	PROTO_MSG_MAX_BYTES is enough.
 * Return: 0; -EINVAL (malformed line: NUL byte, invalid UTF-8, control
 * character, bad JSON, JSON nested deeper than PROTO_JSON_DEPTH_MAX,
 * missing or extra argument, wrong JSON type); -ENOSYS (unknown request);
 * -ERANGE (number out of range); -ENOMEM.
 */
int proto_request_decode(struct proto_request *req, const char *line, size_t len,
			 char *err, size_t errlen);

/** proto_request_fini() - free @req's store and clear it; NULL-safe, idempotent. */
void proto_request_fini(struct proto_request *req);

/**
 * proto_request_encode() - append @req as one line ending in "\n", in the
 * spelling its flags say; the client's side of proto_request_decode().
 * @req->store is not used: the string fields may point anywhere.
 * Return: 0, -EINVAL (a missing argument, or a text argument that cannot
 * be spelled: a blank in a name, a control character anywhere), -ENOMEM.
 * On failure @b is as it was.
 */
int proto_request_encode(struct proto_buf *b, const struct proto_request *req);

/**
 * proto_op_name() - the text verb of @op.
 * Return: a static string ("READ"), NULL for PROTO_OP_NONE or out of range.
 */
const char *proto_op_name(enum proto_op op);
/**
 * proto_op_from_name() - the op a verb or JSON "op" names (ASCII case-insensitive).
 * @name/@len: the verb, not NUL-terminated.
 * Return: the enum proto_op value, or -ENOSYS if no request has that name.
 */
int proto_op_from_name(const char *name, size_t len);
/**
 * proto_op_usage() - the text usage of @op, as HELP shows it.
 * Return: a static string ("READ <dev> <attr>"), NULL for NONE or out of range.
 */
const char *proto_op_usage(enum proto_op op);
/**
 * proto_what_name() - the CREAD word for @what.
 * Return: a static string ("processed"), NULL if out of range.
 */
const char *proto_what_name(enum proto_what what);
/** proto_format_name() - "raw", "csv", "json"; NULL if out of range. */
const char *proto_format_name(enum proto_format format);
/**
 * proto_what_from_name() - inverse of proto_what_name() (case-insensitive).
 * Return: the enum proto_what value, or -EINVAL if unknown.
 */
int proto_what_from_name(const char *name, size_t len);

/* ------------------------------------------------------------------------ */
/* Output buffer.                                                           */
/* ------------------------------------------------------------------------ */

/**
 * struct proto_buf - a growable byte buffer the encoders append to.
 * Make with proto_buf_init() (caller's memory), end with proto_buf_fini().
 * @data is not NUL-terminated; its first @len bytes are the output.
 */
struct proto_buf {
	char *data;
	size_t len;
	size_t cap;
};

/** proto_buf_init() - an empty buffer (no allocation yet); pair: proto_buf_fini(). */
void proto_buf_init(struct proto_buf *b);
/** proto_buf_fini() - free the data and leave @b empty; NULL-safe, idempotent. */
void proto_buf_fini(struct proto_buf *b);
/**
 * proto_buf_append() - append @n bytes (may move @b->data).
 * Return: 0, or -ENOMEM with @b unchanged.
 */
int proto_buf_append(struct proto_buf *b, const void *p, size_t n);
/**
 * proto_buf_printf() - append formatted text (no NUL is counted in @b->len).
 * Return: 0, or -ENOMEM with @b unchanged.
 */
int proto_buf_printf(struct proto_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** proto_buf_truncate() - cut back to @len bytes (no-op if already shorter); keeps the memory. */
void proto_buf_truncate(struct proto_buf *b, size_t len);
/**
 * proto_buf_steal() - take the data out (owned: free with free()), leaving
 * @b empty; for handing a write buffer to its writer until it completes.
 * @len: out: the data length. Return: the data, NULL if @b was empty.
 */
char *proto_buf_steal(struct proto_buf *b, size_t *len);

/* ------------------------------------------------------------------------ */
/* What listings carry (encoder input, decoder output).                     */
/* ------------------------------------------------------------------------ */

/* Strings: the encoder borrows them for the call; the decoder's belong to
 * its struct proto_reply. Optional strings are NULL when absent. */

/**
 * struct proto_device_info - a device in DEVICES and DEVICE.
 * @id: "iio:device0"; @name: "max1238"; @label, @hwid: optional.
 * @num_channels, @num_attrs: DEVICE only; -1 when absent (DEVICES).
 */
struct proto_device_info {
	const char *id;
	const char *name;
	const char *label;
	const char *hwid;
	int num_channels;
	int num_attrs;
};

#define PROTO_ATTR_R	0x1
#define PROTO_ATTR_W	0x2

/** struct proto_attr_info - an attribute in ATTRS; @mode: PROTO_ATTR_R|PROTO_ATTR_W. */
struct proto_attr_info {
	const char *name;
	unsigned int mode;
};

/**
 * struct proto_channel_info - a channel in CHANNELS.
 * @type: "voltage", ...; @index: -1 when the channel is not indexed;
 * @modifier: "x", ... or NULL; @datasheet_name: "AIN0" or NULL;
 * @index2: the negative input, when @differential;
 * @attrs: its attribute names (those it owns or shares), @nattrs of them.
 */
struct proto_channel_info {
	const char *type;
	int index;
	const char *modifier;
	const char *datasheet_name;
	bool output;
	bool differential;
	int index2;
	const char *const *attrs;
	int nattrs;
};

/**
 * struct proto_map_info - a consumer map in MAPS.
 * @consumer, @channel: the consumer's names (@channel may be NULL);
 * @device: the provider's "iio:deviceN", NULL when it is not registered;
 * @datasheet_name: the provider channel; @provider: the board's name for
 * the provider (hardware id, name or label as written in the board file).
 */
struct proto_map_info {
	const char *consumer;
	const char *channel;
	const char *device;
	const char *datasheet_name;
	const char *provider;
};

/**
 * struct proto_consumer_info - one channel of CONSUMER (iio_channel_get_all).
 * @channel: the consumer channel name (may be NULL); @device: the
 * provider's "iio:deviceN"; @datasheet_name; @type: "voltage", ...
 */
struct proto_consumer_info {
	const char *channel;
	const char *device;
	const char *datasheet_name;
	const char *type;
};

/** struct proto_stat - one STATS counter; names as PROTOCOL.md lists them. */
struct proto_stat {
	const char *name;
	int64_t value;
};

/**
 * struct proto_event - one pushed WATCH event.
 * @device, @attr: as the WATCH request named them.
 * @value: the attribute text (without '\n'), NULL for an error event.
 * @err: 0, or -errno of a failed read (then @message says why).
 * @timestamp_ns: CLOCK_REALTIME of the read, in ns since the Unix epoch.
 */
struct proto_event {
	const char *device;
	const char *attr;
	const char *value;
	int err;
	const char *message;
	uint64_t timestamp_ns;
};

/**
 * struct proto_stream_chan - one element of a stream's record.
 * @channel: its id ("voltage0") or, for CSTREAM, the consumer's name.
 * @index: its scan index; @offset: bytes into the raw record;
 * @type: its scan_elements _type without '\n' ("be:u12/16>>0").
 */
struct proto_stream_chan {
	const char *channel;
	int index;
	int offset;
	const char *type;
};

/**
 * struct proto_stream_info - a stream, as STREAM answers and STREAMS lists it.
 * @device: "iio:deviceN"; @trigger: its name; @chans: @nchans in record order.
 * @delivered/@lost: scans sent and lost (STREAMS only).
 */
struct proto_stream_info {
	int id;
	const char *device;
	const char *trigger;
	int scans;
	enum proto_format format;
	int scan_bytes;
	const struct proto_stream_chan *chans;
	int nchans;
	uint64_t delivered;
	uint64_t lost;
};

/* What a pushed IIO event line says (SUBSCRIBE). */
enum proto_ievent_kind {
	PROTO_IEVENT_EVENT,	/* IIOEVENT: one event */
	PROTO_IEVENT_LOST,	/* IIOEVENTLOST: @lost events were dropped before the next */
	PROTO_IEVENT_END,	/* IIOEVENTEND: the subscription ended (@err, @message) */
};

/**
 * struct proto_ievent - one pushed line of a SUBSCRIBE.
 * @device: the device as the SUBSCRIBE named it.
 * @id/@timestamp: EVENT: the kernel's struct iio_event_data (code, ns on
 *	the device's current_timestamp_clock).
 * @lost: LOST: how many. @err/@message: END: why (-ENODEV: device gone).
 */
struct proto_ievent {
	enum proto_ievent_kind kind;
	const char *device;
	uint64_t id;
	int64_t timestamp;
	uint64_t lost;
	int err;
	const char *message;
};

/* ------------------------------------------------------------------------ */
/* Reply encoding (server).                                                 */
/* ------------------------------------------------------------------------ */

/*
 * Every proto_reply_*() and proto_event_encode() call appends whole lines
 * in the spelling of @req (JSON with its id as written, or text) and
 * returns 0, or -ENOMEM leaving @b as it was. Strings are borrowed for the
 * call. Text never has CR or LF inside a line: control characters in
 * values and messages become spaces; JSON escapes them (PROTOCOL.md P-14).
 */

/** proto_reply_ok() - "OK" / {"ok":true}: WRITE, WATCH, UNWATCH, AUTH, QUIT. Return: 0, -ENOMEM. */
int proto_reply_ok(struct proto_buf *b, const struct proto_request *req);

/**
 * proto_reply_value() - "OK <value>" / {"ok":true,"value":"..."}: READ,
 * CREAD raw/processed/type/label. One trailing '\n' of @value is dropped
 * (the kernel's text goes in as read).
 * Return: 0, -ENOMEM.
 */
int proto_reply_value(struct proto_buf *b, const struct proto_request *req,
		      const char *value, size_t len);

/**
 * proto_reply_iio_value() - as proto_reply_value(), plus in JSON the exact
 * (val, val2, format) the text was formatted from: CREAD scale and offset.
 * @type: IIO_VAL_* (kernel numbering); its wire name is iio_val_type_name(),
 *	and a type without a name sends no val/val2/format.
 * Return: 0, -ENOMEM.
 */
int proto_reply_iio_value(struct proto_buf *b, const struct proto_request *req,
			  const char *value, size_t len, int type, int val, int val2);

/**
 * proto_reply_error() - "ERR <NAME> <message>" / {"ok":false,"error":..}.
 * @req: may be NULL for an error that belongs to no decoded request (an
 *	over-long line, a refused connection): text spelling, no id.
 * @err: -errno; one the table does not know goes out as EIO.
 * @msg: NULL or "" for the table's default message; cut to
 *	PROTO_MSG_MAX_BYTES - 1 bytes.
 * Return: 0, -ENOMEM.
 */
int proto_reply_error(struct proto_buf *b, const struct proto_request *req, int err,
		      const char *msg);

/**
 * proto_reply_version() - "OK iiowire <release> proto <major>.<minor>", and
 * in JSON also "release", "proto_major", "proto_minor".
 * @release: the server's version, e.g. IIOWIRE_VERSION ("0.1.0").
 * Return: 0, -ENOMEM.
 */
int proto_reply_version(struct proto_buf *b, const struct proto_request *req,
			const char *release);

/** proto_reply_help() - the request list, built from the op table. Return: 0, -ENOMEM. */
int proto_reply_help(struct proto_buf *b, const struct proto_request *req);

/**
 * proto_reply_device() - DEVICE: "OK <n>" and key/value lines / {"device":{..}};
 * NULL label/hwid and negative counts are left out.
 * Return: 0, -ENOMEM.
 */
int proto_reply_device(struct proto_buf *b, const struct proto_request *req,
		       const struct proto_device_info *dev);

/**
 * proto_reply_stats() - STATS: "OK <n>" and "name value" lines / {"stats":{..}}.
 * Return: 0, -ENOMEM.
 */
int proto_reply_stats(struct proto_buf *b, const struct proto_request *req,
		      const struct proto_stat *stats, int n);

/*
 * Listings (DEVICES, ATTRS, CHANNELS, MAPS, CONSUMER): proto_list_begin()
 * with the item count, then exactly @n items numbered 0..n-1 with the
 * proto_list_*() call matching req->op, then proto_list_end(). Text:
 * "OK <n>" and one line per item; JSON: one line {"ok":true,"<key>":[..]}.
 * The JSON line is only complete after proto_list_end(): if building the
 * listing fails half way, cut @b back to its length before begin with
 * proto_buf_truncate() and send an error instead. Each call appends all
 * of its part or nothing.
 * Return: 0, -ENOMEM; proto_list_begin() also -EINVAL when req->op is not
 * DEVICES, ATTRS, CHANNELS, MAPS or CONSUMER (or @n < 0).
 */
int proto_list_begin(struct proto_buf *b, const struct proto_request *req, int n);
int proto_list_device(struct proto_buf *b, const struct proto_request *req, int i,
		      const struct proto_device_info *dev);
int proto_list_attr(struct proto_buf *b, const struct proto_request *req, int i,
		    const struct proto_attr_info *attr);
int proto_list_channel(struct proto_buf *b, const struct proto_request *req, int i,
		       const struct proto_channel_info *chan);
int proto_list_map(struct proto_buf *b, const struct proto_request *req, int i,
		   const struct proto_map_info *map);
int proto_list_consumer(struct proto_buf *b, const struct proto_request *req, int i,
			const struct proto_consumer_info *cc);
int proto_list_end(struct proto_buf *b, const struct proto_request *req);

/**
 * proto_reply_stream() - STREAM, CSTREAM: "OK <n>" and key/value lines
 * (stream, device, trigger, scans, format, scan_bytes, then one "channel
 * <channel> <index> <offset> <type>" per element) / {"stream":{..}}.
 * Return: 0, -ENOMEM.
 */
int proto_reply_stream(struct proto_buf *b, const struct proto_request *req,
		       const struct proto_stream_info *st);
/** proto_list_stream() - one STREAMS item (inside proto_list_begin/end). Return: 0, -ENOMEM. */
int proto_list_stream(struct proto_buf *b, const struct proto_request *req, int i,
		      const struct proto_stream_info *st);

/**
 * proto_block_head() - a block's header line: "BLOCK <stream> <scans>
 * <bytes> <lost>" / {"block":{"stream":..,"scans":..,"bytes":..,"lost":..,
 * "format":..}} (@format: what the payload is, JSON only); exactly @bytes
 * bytes of payload follow it.
 * Return: 0, -ENOMEM.
 */
int proto_block_head(struct proto_buf *b, bool json, int stream, int scans, size_t bytes,
		     uint64_t lost, enum proto_format format);
/**
 * proto_block_values() - decoded values of @scans scans of @n values each
 * (@vals, scan after scan): @csv: "v,v,..\n" lines; else one JSON array
 * of arrays, "[[v,..],..]" (no newline).
 * Return: 0, -ENOMEM.
 */
int proto_block_values(struct proto_buf *b, bool csv, const int64_t *vals, int scans, int n);
/**
 * proto_block_json() - a JSON stream's json-format block, values inline:
 * {"block":{"stream":..,"scans":..,"lost":..,"values":[[..],..]}}.
 * Return: 0, -ENOMEM.
 */
int proto_block_json(struct proto_buf *b, int stream, int scans, uint64_t lost,
		     const int64_t *vals, int n);
/**
 * proto_streamend_encode() - "STREAMEND <stream> <NAME> <message>" /
 * {"streamend":{"stream":..,"error":..,"message":..}}.
 * Return: 0, -ENOMEM.
 */
int proto_streamend_encode(struct proto_buf *b, bool json, int stream, int err, const char *msg);

/**
 * proto_event_encode() - "EVENT <dev> <attr> <value> <ts>" (or, for an
 * error, "EVENTERR <dev> <attr> <NAME> <ts> <message>") / {"event":{..}}.
 * @json: the spelling of the WATCH that asked for it.
 * Return: 0, -ENOMEM, -EINVAL without @ev->device or @ev->attr.
 */
int proto_event_encode(struct proto_buf *b, bool json, const struct proto_event *ev);

/**
 * proto_ievent_encode() - one SUBSCRIBE line: text
 * "IIOEVENT <dev> 0x<id> time: <ts>, type: ..." (the fields of
 * iio_event_monitor's line after "Event: "), "IIOEVENTLOST <dev> <n>",
 * "IIOEVENTEND <dev> <NAME> <message>"; JSON {"iio_event":{..}},
 * {"iio_event_lost":{..}}, {"iio_event_end":{..}} (PROTOCOL.md, SUBSCRIBE).
 * Return: 0, -ENOMEM, -EINVAL without @ev->device.
 */
int proto_ievent_encode(struct proto_buf *b, bool json, const struct proto_ievent *ev);

/* ------------------------------------------------------------------------ */
/* Reply decoding (client).                                                 */
/* ------------------------------------------------------------------------ */

enum proto_reply_kind {
	PROTO_REPLY_OK = 0,
	PROTO_REPLY_ERR,
	PROTO_REPLY_EVENT,	/* a pushed event, not the answer to a request */
	PROTO_REPLY_IEVENT,	/* a pushed IIO event line (SUBSCRIBE) */
};

/**
 * struct proto_reply - a decoded reply (or event) line, and its listing.
 * Make with proto_reply_decode(), end with proto_reply_fini(). Every
 * pointer in it is owned by it (borrowed by the caller until fini).
 * @err: PROTO_REPLY_ERR: the -errno of the error name (-EPROTO for a name
 *	this version does not know; @error_name keeps the name as sent).
 * @id: the raw JSON id text, NULL when absent.
 * @value: "OK <value>" / "value", NULL when the reply has none.
 * @has_val/@val/@val2/@format: JSON CREAD scale and offset (IIO_VAL_*).
 * @release/@proto_major/@proto_minor: VERSION (-1 when absent).
 * @count: listing size announced ("OK <n>", or the JSON array length).
 * @nitems: items decoded so far, in the array matching the op:
 *	@devices (DEVICES, DEVICE), @attrs, @channels, @maps, @consumer,
 *	@stats, @lines (HELP).
 * @event: PROTO_REPLY_EVENT.
 * @ievent: PROTO_REPLY_IEVENT (JSON only: libiiowire speaks JSON).
 * @pending: text listings: item lines still to be fed.
 */
struct proto_reply {
	enum proto_reply_kind kind;
	enum proto_op op;
	bool json;
	int err;
	const char *error_name;
	const char *message;
	const char *id;
	const char *value;
	bool has_val;
	int val;
	int val2;
	int format;
	const char *release;
	int proto_major;
	int proto_minor;
	int count;
	int nitems;
	struct proto_device_info *devices;
	struct proto_attr_info *attrs;
	struct proto_channel_info *channels;
	struct proto_map_info *maps;
	struct proto_consumer_info *consumer;
	struct proto_stat *stats;
	const char **lines;
	struct proto_event event;
	struct proto_ievent ievent;
	int pending;
	/* private */
	struct proto_arena *arena;
};

/**
 * proto_reply_decode() - parse the first line of a reply, or an event.
 * @r: overwritten (no init needed); call proto_reply_fini() after either
 *	outcome.
 * @op: the op of the oldest request still unanswered (it says whether
 *	"OK 3" is a value or a listing of three lines); an event line is
 *	recognised whatever @op is, and is not the reply to it.
 * @err: why a line was refused (may be NULL).
 * Return: 0 when the reply is complete; > 0, the number of text listing
 * lines that follow (feed each to proto_reply_decode_more()); -EPROTO for
 * a line that is not a valid reply; -ENOMEM.
 */
int proto_reply_decode(struct proto_reply *r, enum proto_op op, const char *line, size_t len,
		       char *err, size_t errlen);

/**
 * proto_reply_decode_more() - parse the next line of a text listing.
 * Not in libiiowire (the client speaks JSON): link iiowire_proto_text.
 * Return: lines still to come (0: complete), -EPROTO, -ENOMEM.
 */
int proto_reply_decode_more(struct proto_reply *r, const char *line, size_t len,
			    char *err, size_t errlen);

/** proto_reply_fini() - free everything @r owns; NULL-safe, idempotent. */
void proto_reply_fini(struct proto_reply *r);

/* ------------------------------------------------------------------------ */
/* Streams, client side (proto_stream_decode.c; PROTOCOL.md, STREAM).      */
/* ------------------------------------------------------------------------ */

/**
 * proto_stream_reply_decode() - decode the reply line of a JSON STREAM or
 * CSTREAM: @r as proto_reply_decode() fills it (ok or error, id), and on
 * success @info from its "stream" object (its strings and chans live in
 * @r's arena; delivered and lost are 0).
 * @r: overwritten; call proto_reply_fini() after either outcome.
 * Return: 0 (check r->kind), -EPROTO for a line that is no valid reply or
 * an ok reply without a valid stream object, -ENOMEM.
 */
int proto_stream_reply_decode(struct proto_reply *r, struct proto_stream_info *info,
			      const char *line, size_t len, char *err, size_t errlen);

enum proto_stream_kind {
	PROTO_STREAM_NONE = 0,
	PROTO_STREAM_BLOCK,	/* a block header: @bytes of payload follow */
	PROTO_STREAM_END,	/* the server ended the stream (S-7) */
};

/**
 * struct proto_stream_line - a line between replies on a streaming connection.
 * @stream: the stream's id. BLOCK: @scans, @bytes (the payload that
 * follows the line; 0 with @values for a json-format block in the JSON
 * spelling), @lost, @values (that block's values array as JSON text, else
 * NULL). END: @err (-errno of @error_name, -EPROTO for an unknown name),
 * @message (may be NULL). Strings live in the struct proto_reply's arena.
 */
struct proto_stream_line {
	enum proto_stream_kind kind;
	int stream;
	int scans;
	size_t bytes;
	uint64_t lost;
	const char *values;
	int err;
	const char *error_name;
	const char *message;
};

/**
 * proto_stream_line_decode() - recognise a block header or a STREAMEND,
 * in either spelling.
 * @r: gives the arena (made here when @r has none: memset it to 0 first);
 *	proto_reply_fini() frees what was decoded.
 * Return: 1 with @l filled; 0 for a line that is neither (a reply, an
 * event); -EPROTO for a malformed one; -ENOMEM.
 */
int proto_stream_line_decode(struct proto_reply *r, struct proto_stream_line *l,
			     const char *line, size_t len, char *err, size_t errlen);

#endif /* IIOWIRE_PROTO_H */
