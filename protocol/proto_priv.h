/*
 * proto_priv.h - helpers shared by the files of protocol/, not its API.
 *
 * Byte checks (UTF-8, control characters), the JSON pre-scan that bounds
 * nesting and finds the raw text of "id" before cJSON sees a line, the
 * escapers that keep every encoded line one line, the op table, the
 * reply decoders' helpers, and a small string arena for decoded replies. Nothing outside protocol/
 * includes this file; nothing here does I/O or keeps global state.
 */
#ifndef IIOWIRE_PROTO_PRIV_H
#define IIOWIRE_PROTO_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "proto.h"

/* printf-like message into a caller's (possibly NULL) buffer; cut to fit. */
void proto_msg(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * proto_line_check() - a line must be UTF-8 without NUL or control
 * characters (TAB allowed); this keeps every later step byte-safe.
 * Return: 0, or -EINVAL with @err saying what is at which offset.
 */
int proto_line_check(const char *s, size_t len, char *err, size_t errlen);

/* true for the bytes the text spelling replaces: below 0x20 and DEL */
static inline bool proto_is_ctrl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static inline bool proto_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/**
 * struct proto_json_scan - what the pre-scan found on a JSON line.
 * @id_off/@id_len: raw text of the top-level "id" value (first one), when
 *	@has_id; @id_scalar: it is not an object or array.
 * @value_off/@value_len: raw text of the top-level "value" (first one),
 *	when @has_value, so a JSON number written there reaches the driver
 *	as the text it was (2048, 1.50), not as cJSON's double.
 */
struct proto_json_scan {
	bool has_id;
	bool id_scalar;
	size_t id_off;
	size_t id_len;
	bool has_value;
	size_t value_off;
	size_t value_len;
};

/**
 * proto_json_scan() - one non-recursive pass over a JSON line before
 * cJSON parses it: refuses nesting deeper than @max_depth (so a line
 * nested 100000 deep costs one pass and no stack) and "\u0000" in a
 * string (cJSON would silently cut the string there), and finds the raw
 * "id" and "value". It does not validate the JSON: cJSON does that next.
 * Return: 0, or -EINVAL with @err set.
 */
int proto_json_scan(const char *s, size_t len, int max_depth, struct proto_json_scan *out,
		    char *err, size_t errlen);

/* Appenders used by every encoder; 0 or -ENOMEM (then @b may hold a part:
 * encoders roll back to their start length). */
/* JSON string with quotes; control characters escaped, bad UTF-8 -> U+FFFD */
int proto_buf_json_str(struct proto_buf *b, const char *s, size_t len);
/* text field: control characters -> ' '; with @no_blank, blanks -> '_'; "" -> "-" */
int proto_buf_text(struct proto_buf *b, const char *s, size_t len, bool no_blank);
static inline int proto_buf_str(struct proto_buf *b, const char *s)
{
	return proto_buf_append(b, s, __builtin_strlen(s));
}

/* Op table row (proto_request.c). */
enum proto_field {
	PROTO_F_NONE = 0,
	PROTO_F_DEVICE,
	PROTO_F_ATTR,
	PROTO_F_VALUE,
	PROTO_F_CONSUMER,
	PROTO_F_CHANNEL,
	PROTO_F_WHAT,
	PROTO_F_MULTIPLIER,
	PROTO_F_INTERVAL,
	PROTO_F_TOKEN,
	PROTO_F_TRIGGER,
	PROTO_F_SCANS,
	PROTO_F_FORMAT,
	PROTO_F_CHANNELS,
	PROTO_F_STREAM,
	PROTO_F_EVTYPE,
	PROTO_F_BYTES,
	PROTO_F_COUNT
};

#define PROTO_ARGS_MAX	5

/**
 * struct proto_op_row - one request: names, usage, its arguments in text order.
 * @nreq: how many of @args are required; the rest are optional.
 * @rest: the last argument takes the rest of the line (blanks included).
 * @pair: the optional arguments come all together or not at all.
 * @list_key: JSON key of the reply's array/object (listing ops), or NULL.
 */
struct proto_op_row {
	const char *name;
	const char *usage;
	const char *summary;
	enum proto_field args[PROTO_ARGS_MAX];
	int nargs;
	int nreq;
	bool rest;
	bool pair;
	const char *list_key;
};

const struct proto_op_row *proto_op_row(enum proto_op op);

/* Reply encoding helpers (proto_reply.c), shared with proto_stream.c. */
bool proto_reply_is_json(const struct proto_request *req);
/* "OK"/"ERR", or {"id":..,"ok":..; the caller closes the object */
int proto_reply_head(struct proto_buf *b, const struct proto_request *req, bool ok);
/* close the JSON object, end the line; on @ret != 0 cut @b back to @start */
int proto_reply_finish(struct proto_buf *b, const struct proto_request *req, int ret,
		       size_t start);
/* "\n<key> <value>" of a text key/value listing */
int proto_reply_kv_line(struct proto_buf *b, const char *key, const char *value);
struct cJSON;
/*
 * proto_ievent_decode_json() - a pushed SUBSCRIBE line (proto_ievent.c),
 * when @root has one of its members. Return: 1 when it has none (not an
 * IIO event), 0 with r->ievent filled, -EPROTO (@err says why), -ENOMEM.
 */
int proto_ievent_decode_json(struct proto_reply *r, const struct cJSON *root, const char *line,
			     size_t len, char *err, size_t errlen);
/* ...and a text line whose first word is @word, @rest after it (modified, owned by @r). */
int proto_ievent_decode_text(struct proto_reply *r, const char *word, char *rest, char *err,
			     size_t errlen);

/*
 * Reply decoding helpers (proto_reply_decode.c), shared with the text
 * listing decoder (proto_reply_text.c).
 */
/* "bad reply: @what" into @err. Return: -EPROTO. */
int proto_reply_bad(char *err, size_t errlen, const char *what);
/* an arena copy of @len bytes of @s, owned by @r; NULL on -ENOMEM */
char *proto_reply_dup(struct proto_reply *r, const char *s, size_t len);
/* room for item r->nitems in *@arr (elements of @size). Return: 0 or -ENOMEM. */
int proto_reply_grow(struct proto_reply *r, void **arr, size_t size);
#define PROTO_REPLY_GROW(r, field)	\
	proto_reply_grow((r), (void **)&(r)->field, sizeof(*(r)->field))
/* strict decimal int (optional '-'). Return: 0, or -EPROTO. */
int proto_reply_int(const char *s, int *out);
/* cut @s in place at blanks into at most @max fields. Return: the count. */
int proto_reply_split(char *s, char **f, int max);
/* a text listing field: "-" is absent (NULL) */
const char *proto_reply_opt(const char *s);

/* String arena of decoded replies: everything is freed at once. */
struct proto_arena;
struct proto_arena *proto_arena_create(void);
void proto_arena_destroy(struct proto_arena *a);
/* a NUL-terminated copy of @len bytes; NULL on -ENOMEM */
char *proto_arena_strndup(struct proto_arena *a, const char *s, size_t len);
/* @size zeroed bytes, aligned for pointers; NULL on -ENOMEM */
void *proto_arena_alloc(struct proto_arena *a, size_t size);

#endif /* IIOWIRE_PROTO_PRIV_H */
