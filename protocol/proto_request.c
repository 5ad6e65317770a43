/*
 * proto_request.c - requests: the op table, decoding a line (text or
 * JSON) into struct proto_request, and encoding one back into a line.
 *
 * The server decodes every line it gets here and dispatches on the op;
 * the client library encodes here what it sends. Both spellings go
 * through one table of ops and their arguments, so a request cannot
 * exist in one spelling only. Errors name the field at fault. This file
 * validates shape only (arguments present, types, number ranges): whether
 * a device or attribute exists is the server's business.
 */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "proto_priv.h"

#define F(x)	PROTO_F_##x

static const struct proto_op_row proto_op_rows[PROTO_OP_COUNT] = {
	[PROTO_OP_HELP] = {
		.name = "HELP", .usage = "HELP", .summary = "list the requests",
		.list_key = "help" },
	[PROTO_OP_VERSION] = {
		.name = "VERSION", .usage = "VERSION",
		.summary = "server release and protocol version" },
	[PROTO_OP_DEVICES] = {
		.name = "DEVICES", .usage = "DEVICES", .summary = "list the devices",
		.list_key = "devices" },
	[PROTO_OP_DEVICE] = {
		.name = "DEVICE", .usage = "DEVICE <dev>", .summary = "details of one device",
		.args = { F(DEVICE) }, .nargs = 1, .nreq = 1, .list_key = "device" },
	[PROTO_OP_ATTRS] = {
		.name = "ATTRS", .usage = "ATTRS <dev>",
		.summary = "list the attributes of a device (r, w, rw)",
		.args = { F(DEVICE) }, .nargs = 1, .nreq = 1, .list_key = "attrs" },
	[PROTO_OP_CHANNELS] = {
		.name = "CHANNELS", .usage = "CHANNELS <dev>",
		.summary = "list the channels of a device",
		.args = { F(DEVICE) }, .nargs = 1, .nreq = 1, .list_key = "channels" },
	[PROTO_OP_READ] = {
		.name = "READ", .usage = "READ <dev> <attr>", .summary = "read an attribute",
		.args = { F(DEVICE), F(ATTR) }, .nargs = 2, .nreq = 2 },
	[PROTO_OP_WRITE] = {
		.name = "WRITE", .usage = "WRITE <dev> <attr> <value>",
		.summary = "write an attribute (value: rest of line)",
		.args = { F(DEVICE), F(ATTR), F(VALUE) }, .nargs = 3, .nreq = 3, .rest = true },
	[PROTO_OP_MAPS] = {
		.name = "MAPS", .usage = "MAPS", .summary = "list the consumer channel maps",
		.list_key = "maps" },
	[PROTO_OP_CONSUMER] = {
		.name = "CONSUMER", .usage = "CONSUMER <consumer>",
		.summary = "list the channels of a consumer",
		.args = { F(CONSUMER) }, .nargs = 1, .nreq = 1, .list_key = "channels" },
	[PROTO_OP_CREAD] = {
		.name = "CREAD",
		.usage = "CREAD <consumer> <channel> raw|processed|scale|offset|type|label "
			 "[<multiplier>]",
		.summary = "read a consumer channel (multiplier: processed only)",
		.args = { F(CONSUMER), F(CHANNEL), F(WHAT), F(MULTIPLIER) },
		.nargs = 4, .nreq = 3 },
	[PROTO_OP_WATCH] = {
		.name = "WATCH", .usage = "WATCH <dev> <attr> <interval_ms>",
		.summary = "push an attribute's value periodically",
		.args = { F(DEVICE), F(ATTR), F(INTERVAL) }, .nargs = 3, .nreq = 3 },
	[PROTO_OP_UNWATCH] = {
		.name = "UNWATCH", .usage = "UNWATCH [<dev> <attr>]",
		.summary = "stop one watch, or every watch",
		.args = { F(DEVICE), F(ATTR) }, .nargs = 2, .nreq = 0, .pair = true },
	[PROTO_OP_STATS] = {
		.name = "STATS", .usage = "STATS", .summary = "server counters",
		.list_key = "stats" },
	[PROTO_OP_AUTH] = {
		.name = "AUTH", .usage = "AUTH <token>",
		.summary = "authenticate (token: rest of line)",
		.args = { F(TOKEN) }, .nargs = 1, .nreq = 1, .rest = true },
	[PROTO_OP_QUIT] = {
		.name = "QUIT", .usage = "QUIT", .summary = "close the connection" },
	[PROTO_OP_STREAM] = {
		.name = "STREAM", .usage = "STREAM <dev> <trigger>|- <scans> [raw|csv|json "
			 "[<channel>...]]",
		.summary = "stream a device's scans in blocks (channels: all if none)",
		.args = { F(DEVICE), F(TRIGGER), F(SCANS), F(FORMAT), F(CHANNELS) },
		.nargs = 5, .nreq = 1 },
	[PROTO_OP_CSTREAM] = {
		.name = "CSTREAM", .usage = "CSTREAM <consumer> <trigger>|- <scans> "
			 "[raw|csv|json [<channel>...]]",
		.summary = "stream a consumer's channels in blocks",
		.args = { F(CONSUMER), F(TRIGGER), F(SCANS), F(FORMAT), F(CHANNELS) },
		.nargs = 5, .nreq = 1 },
	[PROTO_OP_UNSTREAM] = {
		.name = "UNSTREAM", .usage = "UNSTREAM [<stream>]",
		.summary = "stop one stream, or every stream",
		.args = { F(STREAM) }, .nargs = 1, .nreq = 0 },
	[PROTO_OP_STREAMS] = {
		.name = "STREAMS", .usage = "STREAMS", .summary = "list this connection's streams",
		.list_key = "streams" },
	[PROTO_OP_SUBSCRIBE] = {
		.name = "SUBSCRIBE", .usage = "SUBSCRIBE <dev> [<channel> [<evtype>]]",
		.summary = "push a device's IIO events (channel * for any)",
		.args = { F(DEVICE), F(CHANNEL), F(EVTYPE) }, .nargs = 3, .nreq = 1 },
	[PROTO_OP_UNSUBSCRIBE] = {
		.name = "UNSUBSCRIBE", .usage = "UNSUBSCRIBE [<dev>]",
		.summary = "stop one device's events, or every device's",
		.args = { F(DEVICE) }, .nargs = 1, .nreq = 0 },
	[PROTO_OP_PLAY] = {
		.name = "PLAY", .usage = "PLAY <dev> <trigger>|- <scans> [<channel>...]",
		.summary = "play blocks of scans sent with SEND on an output device",
		.args = { F(DEVICE), F(TRIGGER), F(SCANS), F(CHANNELS) }, .nargs = 4, .nreq = 1 },
	[PROTO_OP_LOOP] = {
		.name = "LOOP", .usage = "LOOP <dev> <trigger>|- <scans> [<channel>...]",
		.summary = "play one block sent with SEND over and over (cyclic)",
		.args = { F(DEVICE), F(TRIGGER), F(SCANS), F(CHANNELS) }, .nargs = 4, .nreq = 1 },
	[PROTO_OP_SEND] = {
		.name = "SEND", .usage = "SEND <stream> <bytes>",
		.summary = "a block of raw scans for a PLAY or LOOP: <bytes> bytes follow the line",
		.args = { F(STREAM), F(BYTES) }, .nargs = 2, .nreq = 2 },
};

/* What an argument holds, which says how both spellings read and write it. */
enum proto_field_kind {
	PROTO_FIELD_STR,	/* a string member of struct proto_request */
	PROTO_FIELD_NUM,	/* a bounded integer (multiplier, interval_ms) */
	PROTO_FIELD_WHAT,	/* a name of enum proto_what */
	PROTO_FIELD_FORMAT,	/* a name of enum proto_format */
	PROTO_FIELD_LIST,	/* names: the rest of the text line, a JSON array of strings */
};

/**
 * struct proto_field_row - one argument.
 * @name: its JSON key (and the name errors give it).
 * @placeholder: how the text usage spells it.
 * @str_off: for PROTO_FIELD_STR, the offset of its member in struct proto_request.
 */
static const struct proto_field_row {
	const char *name;
	const char *placeholder;
	enum proto_field_kind kind;
	size_t str_off;
} proto_fields[PROTO_F_COUNT] = {
	[PROTO_F_DEVICE] = { "device", "<dev>", PROTO_FIELD_STR,
			     offsetof(struct proto_request, device) },
	[PROTO_F_ATTR] = { "attr", "<attr>", PROTO_FIELD_STR,
			   offsetof(struct proto_request, attr) },
	[PROTO_F_VALUE] = { "value", "<value>", PROTO_FIELD_STR,
			    offsetof(struct proto_request, value) },
	[PROTO_F_CONSUMER] = { "consumer", "<consumer>", PROTO_FIELD_STR,
			       offsetof(struct proto_request, consumer) },
	[PROTO_F_CHANNEL] = { "channel", "<channel>", PROTO_FIELD_STR,
			      offsetof(struct proto_request, channel) },
	[PROTO_F_WHAT] = { "what", "raw|processed|scale|offset|type|label", PROTO_FIELD_WHAT },
	[PROTO_F_MULTIPLIER] = { "multiplier", "<multiplier>", PROTO_FIELD_NUM },
	[PROTO_F_INTERVAL] = { "interval_ms", "<interval_ms>", PROTO_FIELD_NUM },
	[PROTO_F_TOKEN] = { "token", "<token>", PROTO_FIELD_STR,
			    offsetof(struct proto_request, token) },
	[PROTO_F_TRIGGER] = { "trigger", "<trigger>", PROTO_FIELD_STR,
			      offsetof(struct proto_request, trigger) },
	[PROTO_F_SCANS] = { "scans", "<scans>", PROTO_FIELD_NUM },
	[PROTO_F_FORMAT] = { "format", "raw|csv|json", PROTO_FIELD_FORMAT },
	[PROTO_F_CHANNELS] = { "channels", "<channel>", PROTO_FIELD_LIST },
	[PROTO_F_STREAM] = { "stream", "<stream>", PROTO_FIELD_NUM },
	[PROTO_F_EVTYPE] = { "evtype", "<evtype>", PROTO_FIELD_STR,
			     offsetof(struct proto_request, evtype) },
	[PROTO_F_BYTES] = { "bytes", "<bytes>", PROTO_FIELD_NUM },
};

static const char *const proto_format_names[PROTO_FORMAT_COUNT] = {
	[PROTO_FORMAT_RAW] = "raw",
	[PROTO_FORMAT_CSV] = "csv",
	[PROTO_FORMAT_JSON] = "json",
};

/* The text spelling's "no trigger given: the current one". */
#define PROTO_TRIGGER_CURRENT	"-"

static const char *const proto_what_names[PROTO_WHAT_COUNT] = {
	[PROTO_WHAT_RAW] = "raw",
	[PROTO_WHAT_PROCESSED] = "processed",
	[PROTO_WHAT_SCALE] = "scale",
	[PROTO_WHAT_OFFSET] = "offset",
	[PROTO_WHAT_TYPE] = "type",
	[PROTO_WHAT_LABEL] = "label",
};

/* The multiplier is an unsigned int in the core; INT_MAX keeps it printable as int. */
#define PROTO_MULTIPLIER_MAX	INT_MAX

const struct proto_op_row *proto_op_row(enum proto_op op)
{
	if ((int)op <= PROTO_OP_NONE || op >= PROTO_OP_COUNT)
		return NULL;
	return &proto_op_rows[op];
}

const char *proto_op_name(enum proto_op op)
{
	const struct proto_op_row *row = proto_op_row(op);

	return row ? row->name : NULL;
}

const char *proto_op_usage(enum proto_op op)
{
	const struct proto_op_row *row = proto_op_row(op);

	return row ? row->usage : NULL;
}

/* ASCII case-insensitive compare of @len bytes with a NUL-terminated @name */
static bool proto_name_eq(const char *s, size_t len, const char *name)
{
	return strlen(name) == len && !strncasecmp(s, name, len);
}

int proto_op_from_name(const char *name, size_t len)
{
	int op;

	for (op = PROTO_OP_NONE + 1; op < PROTO_OP_COUNT; op++)
		if (proto_name_eq(name, len, proto_op_rows[op].name))
			return op;
	return -ENOSYS;
}

const char *proto_what_name(enum proto_what what)
{
	if ((int)what < 0 || what >= PROTO_WHAT_COUNT)
		return NULL;
	return proto_what_names[what];
}

const char *proto_format_name(enum proto_format format)
{
	if ((int)format < 0 || format >= PROTO_FORMAT_COUNT)
		return NULL;
	return proto_format_names[format];
}

static int proto_request_set_format(struct proto_request *req, const char *s, size_t len,
				    char *err, size_t errlen)
{
	int f;

	for (f = 0; f < PROTO_FORMAT_COUNT; f++) {
		if (proto_name_eq(s, len, proto_format_names[f])) {
			req->format = (enum proto_format)f;
			return 0;
		}
	}
	proto_msg(err, errlen, "format: unknown '%.*s' (raw, csv or json)",
		  (int)(len > 32 ? 32 : len), s);
	return -EINVAL;
}

/* One more channel name; the count is bounded by PROTO_STREAM_CHANNELS_MAX. */
static int proto_request_add_channel(struct proto_request *req, const char *name, char *err,
				     size_t errlen)
{
	if (req->nchannels >= PROTO_STREAM_CHANNELS_MAX) {
		proto_msg(err, errlen, "channels: more than %d", PROTO_STREAM_CHANNELS_MAX);
		return -EINVAL;
	}
	req->channels[req->nchannels++] = name;
	return 0;
}

int proto_what_from_name(const char *name, size_t len)
{
	int w;

	for (w = 0; w < PROTO_WHAT_COUNT; w++)
		if (proto_name_eq(name, len, proto_what_names[w]))
			return w;
	return -EINVAL;
}

/* ------------------------------------------------------------------------ */
/* Decoding                                                                 */
/* ------------------------------------------------------------------------ */

/* The member a string argument is stored in; NULL for the other kinds. */
static const char **proto_request_str_field(struct proto_request *req, enum proto_field f)
{
	if (proto_fields[f].kind != PROTO_FIELD_STR)
		return NULL;
	return (const char **)(void *)((char *)req + proto_fields[f].str_off);
}

static int proto_request_set_what(struct proto_request *req, const char *s, size_t len,
				  char *err, size_t errlen)
{
	int w = proto_what_from_name(s, len);

	if (w < 0) {
		proto_msg(err, errlen,
			  "what: unknown '%.*s' (raw, processed, scale, offset, type or label)",
			  (int)(len > 32 ? 32 : len), s);
		return -EINVAL;
	}
	req->what = (enum proto_what)w;
	return 0;
}

/* The bounds of a number argument, both inclusive. */
static void proto_request_range(enum proto_field f, long long *lo, long long *hi)
{
	if (f == PROTO_F_INTERVAL) {
		*lo = PROTO_WATCH_INTERVAL_MIN_MS;
		*hi = PROTO_WATCH_INTERVAL_MAX_MS;
	} else if (f == PROTO_F_SCANS) {
		*lo = 1;
		*hi = PROTO_STREAM_SCANS_MAX;
	} else if (f == PROTO_F_STREAM) {
		*lo = 1;
		*hi = INT_MAX;
	} else if (f == PROTO_F_BYTES) {
		*lo = 1;
		*hi = PROTO_SEND_BYTES_MAX;
	} else {
		*lo = 1;
		*hi = PROTO_MULTIPLIER_MAX;
	}
}

/* Range check shared by both spellings; @v is already an integer. */
static int proto_request_set_number(struct proto_request *req, enum proto_field f, long long v,
				    char *err, size_t errlen)
{
	long long lo, hi;

	proto_request_range(f, &lo, &hi);
	if (v < lo || v > hi) {
		proto_msg(err, errlen, "%s: %lld is out of range %lld..%lld",
			  proto_fields[f].name, v, lo, hi);
		return -ERANGE;
	}
	if (f == PROTO_F_INTERVAL)
		req->interval_ms = (int)v;
	else if (f == PROTO_F_SCANS)
		req->scans = (int)v;
	else if (f == PROTO_F_STREAM)
		req->stream = (int)v;
	else if (f == PROTO_F_BYTES)
		req->bytes = (int)v;
	else
		req->multiplier = (unsigned int)v;
	return 0;
}

/* Decimal digits only (no sign, no blanks); too many digits is -ERANGE. */
static int proto_request_parse_number(enum proto_field f, const char *s, long long *v,
				      char *err, size_t errlen)
{
	long long n = 0, lo, hi;
	bool over = false;
	const char *p;

	for (p = s; *p; p++) {
		if (!isdigit((unsigned char)*p)) {
			proto_msg(err, errlen, "%s: '%.32s' is not a decimal integer",
				  proto_fields[f].name, s);
			return -EINVAL;
		}
		if (n > (LLONG_MAX - 9) / 10)
			over = true;
		else
			n = n * 10 + (*p - '0');
	}
	if (p == s) {
		proto_msg(err, errlen, "%s: empty", proto_fields[f].name);
		return -EINVAL;
	}
	if (over) {
		proto_request_range(f, &lo, &hi);
		proto_msg(err, errlen, "%s: %.32s is out of range %lld..%lld",
			  proto_fields[f].name, s, lo, hi);
		return -ERANGE;
	}
	*v = n;
	return 0;
}

/*
 * Checks every op makes once its arguments are in, whatever the spelling.
 * @missing: index in row->args of the first argument that is missing, or -1.
 */
static int proto_request_check(struct proto_request *req, const struct proto_op_row *row,
			       int missing, bool has_multiplier, char *err, size_t errlen)
{
	enum proto_field f;

	if (missing >= 0) {
		f = row->args[missing];
		if (req->flags & PROTO_REQ_JSON)
			proto_msg(err, errlen, "%s: missing", proto_fields[f].name);
		else
			proto_msg(err, errlen, "%s: missing %s (usage: %s)", row->name,
				  proto_fields[f].placeholder, row->usage);
		return -EINVAL;
	}
	if (has_multiplier && req->what != PROTO_WHAT_PROCESSED) {
		proto_msg(err, errlen, "multiplier: only with processed");
		return -EINVAL;
	}
	if ((req->op == PROTO_OP_STREAM || req->op == PROTO_OP_CSTREAM ||
	     req->op == PROTO_OP_PLAY || req->op == PROTO_OP_LOOP) && !req->scans) {
		if (req->flags & PROTO_REQ_JSON)
			proto_msg(err, errlen, "scans: missing");
		else
			proto_msg(err, errlen, "%s: missing <scans> (usage: %s)", row->name,
				  row->usage);
		return -EINVAL;
	}
	return 0;
}

/*
 * The first missing argument given which are present: a required one, or
 * for a @pair op the first absent one when only some are there. -1: none.
 */
static int proto_request_missing(const struct proto_op_row *row, const bool *present)
{
	int k, n = 0;

	for (k = 0; k < row->nargs; k++) {
		if (!present[k] && k < row->nreq)
			return k;
		n += present[k];
	}
	if (row->pair && n > 0 && n < row->nargs)
		for (k = 0; k < row->nargs; k++)
			if (!present[k])
				return k;
	return -1;
}

/* One text argument @tok (cut in place in req->store) into @req. Return: 0 or -errno. */
static int proto_request_text_arg(struct proto_request *req, enum proto_field f, char *tok,
				  char *err, size_t errlen)
{
	long long v;
	int ret;

	switch (proto_fields[f].kind) {
	case PROTO_FIELD_WHAT:
		return proto_request_set_what(req, tok, strlen(tok), err, errlen);
	case PROTO_FIELD_FORMAT:
		return proto_request_set_format(req, tok, strlen(tok), err, errlen);
	case PROTO_FIELD_LIST:
		return proto_request_add_channel(req, tok, err, errlen);
	case PROTO_FIELD_NUM:
		ret = proto_request_parse_number(f, tok, &v, err, errlen);
		return ret ? ret : proto_request_set_number(req, f, v, err, errlen);
	default:
		if (f == PROTO_F_TRIGGER && strcmp(tok, PROTO_TRIGGER_CURRENT) == 0)
			return 0;
		*proto_request_str_field(req, f) = tok;
		return 0;
	}
}

/*
 * The request word of a text line: sets req->op (PROTO_OP_NONE for a blank
 * line) and moves *pos past the word. Return: 0, or -errno for an unknown word.
 */
static int proto_request_text_op(struct proto_request *req, const char *line, size_t len,
				 size_t *pos, char *err, size_t errlen)
{
	size_t i = 0, vs;
	int op;

	while (i < len && proto_is_blank(line[i]))
		i++;
	req->op = PROTO_OP_NONE;
	if (i == len)
		return 0;
	vs = i;
	while (i < len && !proto_is_blank(line[i]))
		i++;
	op = proto_op_from_name(line + vs, i - vs);
	if (op < 0) {
		proto_msg(err, errlen, "unknown request '%.*s' (try HELP)",
			  (int)(i - vs > 32 ? 32 : i - vs), line + vs);
		return op;
	}
	req->op = (enum proto_op)op;
	*pos = i;
	return 0;
}

static int proto_request_decode_text(struct proto_request *req, const char *line, size_t len,
				     char *err, size_t errlen)
{
	const struct proto_op_row *row;
	size_t i = 0;
	char *p, *end, *tok;
	bool present[PROTO_ARGS_MAX];
	bool has_multiplier = false;
	enum proto_field f;
	int k, ret;

	ret = proto_request_text_op(req, line, len, &i, err, errlen);
	if (ret || req->op == PROTO_OP_NONE)
		return ret;
	row = &proto_op_rows[req->op];

	/* the arguments are cut in place in one copy of the rest of the line */
	req->store = malloc(len - i + 1);
	if (!req->store) {
		proto_msg(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memcpy(req->store, line + i, len - i);
	req->store[len - i] = '\0';
	p = req->store;
	end = p + (len - i);

	for (k = 0; k < row->nargs; k++) {
		while (p < end && proto_is_blank(*p))
			p++;
		if (p == end)
			break;
		tok = p;
		/* a list takes every token left: stay on it */
		if (proto_fields[row->args[k]].kind == PROTO_FIELD_LIST && k + 1 < row->nargs)
			return -EINVAL;
		if (row->rest && k == row->nargs - 1) {
			/* rest of line: inner blanks stay, trailing ones go */
			while (end > p && proto_is_blank(end[-1]))
				*--end = '\0';
			p = end;
		} else {
			while (p < end && !proto_is_blank(*p))
				p++;
			if (p < end)
				*p++ = '\0';
		}
		f = row->args[k];
		has_multiplier |= f == PROTO_F_MULTIPLIER;
		ret = proto_request_text_arg(req, f, tok, err, errlen);
		if (ret)
			return ret;
		if (proto_fields[f].kind == PROTO_FIELD_LIST)
			k--;
	}
	if (k < row->nargs && row->nargs && proto_fields[row->args[row->nargs - 1]].kind ==
	    PROTO_FIELD_LIST && req->nchannels)
		k = row->nargs;
	while (p < end && proto_is_blank(*p))
		p++;
	if (p != end) {
		proto_msg(err, errlen, "%s: too many arguments (usage: %s)", row->name, row->usage);
		return -EINVAL;
	}
	for (i = 0; i < PROTO_ARGS_MAX; i++)
		present[i] = (int)i < k;
	return proto_request_check(req, row, proto_request_missing(row, present), has_multiplier,
				   err, errlen);
}

/* The raw text of "id", as written when the scan found it. */
static int proto_request_json_id(struct proto_request *req, const cJSON *idj, const char *line,
				 const struct proto_json_scan *scan, char *err, size_t errlen)
{
	char *printed = NULL;
	const char *raw;
	size_t n;

	if (!cJSON_IsNumber(idj) && !cJSON_IsString(idj) && !cJSON_IsBool(idj) &&
	    !cJSON_IsNull(idj)) {
		proto_msg(err, errlen, "id: must be a number, string, true, false or null");
		return -EINVAL;
	}
	if (scan->has_id && scan->id_scalar) {
		raw = line + scan->id_off;
		n = scan->id_len;
	} else {
		/* the key was spelled with escapes: echo cJSON's spelling */
		printed = cJSON_PrintUnformatted(idj);
		if (!printed) {
			proto_msg(err, errlen, "out of memory");
			return -ENOMEM;
		}
		raw = printed;
		n = strlen(printed);
	}
	if (n >= PROTO_ID_MAX_BYTES) {
		cJSON_free(printed);
		proto_msg(err, errlen, "id: longer than %d bytes", PROTO_ID_MAX_BYTES - 1);
		return -EINVAL;
	}
	memcpy(req->id, raw, n);
	req->id[n] = '\0';
	cJSON_free(printed);
	return 0;
}

static int proto_request_json_string(const cJSON *item, enum proto_field f, char *err,
				     size_t errlen)
{
	const char *s;

	if (!cJSON_IsString(item) || !item->valuestring) {
		proto_msg(err, errlen, "%s: must be a string", proto_fields[f].name);
		return -EINVAL;
	}
	if (!item->valuestring[0]) {
		proto_msg(err, errlen, "%s: empty", proto_fields[f].name);
		return -EINVAL;
	}
	for (s = item->valuestring; *s; s++) {
		if (proto_is_ctrl((unsigned char)*s) && *s != '\t') {
			proto_msg(err, errlen, "%s: control character 0x%02x", proto_fields[f].name,
				  (unsigned char)*s);
			return -EINVAL;
		}
	}
	return 0;
}

static int proto_request_json_number(struct proto_request *req, const cJSON *item,
				     enum proto_field f, char *err, size_t errlen)
{
	double d;

	if (!cJSON_IsNumber(item)) {
		proto_msg(err, errlen, "%s: must be a number", proto_fields[f].name);
		return -EINVAL;
	}
	d = item->valuedouble;
	if (!isfinite(d) || d != floor(d)) {
		proto_msg(err, errlen, "%s: must be an integer", proto_fields[f].name);
		return -EINVAL;
	}
	if (d < -1e18 || d > 1e18) {
		proto_msg(err, errlen, "%s: out of range", proto_fields[f].name);
		return -ERANGE;
	}
	return proto_request_set_number(req, f, (long long)d, err, errlen);
}

/*
 * Parse @line into *@root and check the envelope: one object, nothing after
 * it, a valid "id" (copied into @req) and a known "op" (set in @req).
 * Return: 0 with *@root to be freed by the caller, or -errno with @err set
 * and nothing to free.
 */
static int proto_request_json_root(struct proto_request *req, const char *line, size_t len,
				   cJSON **root, struct proto_json_scan *scan, char *err,
				   size_t errlen)
{
	const char *end = NULL;
	const cJSON *idj, *opj;
	int ret, op;

	ret = proto_json_scan(line, len, PROTO_JSON_DEPTH_MAX, scan, err, errlen);
	if (ret)
		return ret;
	*root = cJSON_ParseWithLengthOpts(line, len, &end, false);
	if (!*root) {
		proto_msg(err, errlen, "malformed JSON at offset %zu",
			  end ? (size_t)(end - line) : (size_t)0);
		return -EINVAL;
	}
	while (end && end < line + len && (*end == ' ' || *end == '\t'))
		end++;
	ret = -EINVAL;
	if (end != line + len) {
		proto_msg(err, errlen, "bytes after the JSON object at offset %zu",
			  (size_t)(end - line));
		goto err_delete_root;
	}
	if (!cJSON_IsObject(*root)) {
		proto_msg(err, errlen, "a JSON request must be an object");
		goto err_delete_root;
	}
	idj = cJSON_GetObjectItemCaseSensitive(*root, "id");
	if (idj) {
		ret = proto_request_json_id(req, idj, line, scan, err, errlen);
		if (ret)
			goto err_delete_root;
	}
	opj = cJSON_GetObjectItemCaseSensitive(*root, "op");
	if (!opj || !cJSON_IsString(opj) || !opj->valuestring) {
		proto_msg(err, errlen, opj ? "op: must be a string" : "op: missing");
		ret = -EINVAL;
		goto err_delete_root;
	}
	op = proto_op_from_name(opj->valuestring, strlen(opj->valuestring));
	if (op < 0) {
		proto_msg(err, errlen, "op: unknown request '%.32s' (try help)", opj->valuestring);
		ret = op;
		goto err_delete_root;
	}
	req->op = (enum proto_op)op;
	return 0;

err_delete_root:
	cJSON_Delete(*root);
	*root = NULL;
	return ret;
}

/* One JSON argument: its member, and the text a string field stores. */
struct proto_json_arg {
	const cJSON *item;
	const char *text;
	size_t len;
};

/*
 * A JSON number given as "value": taken as the text it was written as (the
 * driver parses it, as it parses a string), never through cJSON's double.
 * Return: 0 with @a's text set, or -EINVAL.
 */
static int proto_request_json_number_text(struct proto_json_arg *a, const char *line,
					  const struct proto_json_scan *scan, char *err,
					  size_t errlen)
{
	size_t i;

	if (!scan->has_value) {
		/* the key was spelled with escapes: the raw text was not found */
		proto_msg(err, errlen, "value: must be a string");
		return -EINVAL;
	}
	a->text = line + scan->value_off;
	a->len = scan->value_len;
	for (i = 0; i < a->len; i++)
		if (!strchr("0123456789+-.eE", a->text[i]))
			break;
	if (i != a->len || !a->len) {
		proto_msg(err, errlen, "value: must be a string");
		return -EINVAL;
	}
	return 0;
}

/* Check a string (or, for "value", number) argument and note its text. Return: 0, -errno. */
static int proto_request_json_text(struct proto_json_arg *a, enum proto_field f,
				   const char *line, const struct proto_json_scan *scan,
				   char *err, size_t errlen)
{
	int ret;

	if (f == PROTO_F_VALUE && cJSON_IsNumber(a->item))
		return proto_request_json_number_text(a, line, scan, err, errlen);
	ret = proto_request_json_string(a->item, f, err, errlen);
	if (ret)
		return ret;
	a->text = a->item->valuestring;
	a->len = strlen(a->text);
	return 0;
}

/* A JSON list argument: an array of at most PROTO_STREAM_CHANNELS_MAX non-empty strings. */
static int proto_request_json_list(const cJSON *item, enum proto_field f, size_t *need,
				   char *err, size_t errlen)
{
	const cJSON *el;
	int n = 0, ret;

	if (!cJSON_IsArray(item)) {
		proto_msg(err, errlen, "%s: must be an array of strings", proto_fields[f].name);
		return -EINVAL;
	}
	cJSON_ArrayForEach(el, item) {
		ret = proto_request_json_string(el, f, err, errlen);
		if (ret)
			return ret;
		if (++n > PROTO_STREAM_CHANNELS_MAX) {
			proto_msg(err, errlen, "%s: more than %d", proto_fields[f].name,
				  PROTO_STREAM_CHANNELS_MAX);
			return -EINVAL;
		}
		*need += strlen(el->valuestring) + 1;
	}
	return 0;
}

/*
 * First pass over the op's arguments: find each in @root (@args), check
 * its type, store numbers and "what" in @req, and add up in *@need the
 * bytes the strings take in one store. Return: 0 or -errno with @err set.
 */
static int proto_request_json_args(struct proto_request *req, const struct proto_op_row *row,
				   const cJSON *root, const char *line,
				   const struct proto_json_scan *scan, struct proto_json_arg *args,
				   size_t *need, char *err, size_t errlen)
{
	bool present[PROTO_ARGS_MAX] = { false };
	bool has_multiplier = false;
	enum proto_field f;
	int ret = 0, k;

	for (k = 0; k < row->nargs; k++) {
		f = row->args[k];
		args[k].item = cJSON_GetObjectItemCaseSensitive(root, proto_fields[f].name);
		if (!args[k].item)
			continue;
		present[k] = true;
		if (proto_fields[f].kind == PROTO_FIELD_NUM) {
			has_multiplier |= f == PROTO_F_MULTIPLIER;
			ret = proto_request_json_number(req, args[k].item, f, err, errlen);
		} else if (proto_fields[f].kind == PROTO_FIELD_LIST) {
			ret = proto_request_json_list(args[k].item, f, need, err, errlen);
		} else if (proto_fields[f].kind == PROTO_FIELD_FORMAT) {
			ret = proto_request_json_text(&args[k], f, line, scan, err, errlen);
			if (!ret)
				ret = proto_request_set_format(req, args[k].text, args[k].len,
							       err, errlen);
		} else {
			ret = proto_request_json_text(&args[k], f, line, scan, err, errlen);
			if (!ret && proto_fields[f].kind == PROTO_FIELD_WHAT)
				ret = proto_request_set_what(req, args[k].text, args[k].len,
							     err, errlen);
			else if (!ret)
				*need += args[k].len + 1;
		}
		if (ret)
			return ret;
	}
	return proto_request_check(req, row, proto_request_missing(row, present), has_multiplier,
				   err, errlen);
}

/* Copy a checked list's strings to @p and point req->channels at them. Return: past them. */
static char *proto_request_json_store_list(struct proto_request *req, const cJSON *item,
					   char *p)
{
	const cJSON *el;
	size_t n;

	cJSON_ArrayForEach(el, item) {
		n = strlen(el->valuestring);
		memcpy(p, el->valuestring, n + 1);
		req->channels[req->nchannels++] = p;
		p += n + 1;
	}
	return p;
}

/* Copy the string arguments (@need bytes in all) into one store owned by @req. */
static int proto_request_json_store(struct proto_request *req, const struct proto_op_row *row,
				    const struct proto_json_arg *args, size_t need, char *err,
				    size_t errlen)
{
	const char **field;
	char *p;
	size_t n;
	int k;

	if (!need)
		return 0;
	req->store = malloc(need);
	if (!req->store) {
		proto_msg(err, errlen, "out of memory");
		return -ENOMEM;
	}
	p = req->store;
	for (k = 0; k < row->nargs; k++) {
		field = proto_request_str_field(req, row->args[k]);
		if (args[k].item && proto_fields[row->args[k]].kind == PROTO_FIELD_LIST) {
			p = proto_request_json_store_list(req, args[k].item, p);
			continue;
		}
		if (!args[k].item || !field)
			continue;
		n = args[k].len;
		memcpy(p, args[k].text, n);
		p[n] = '\0';
		*field = p;
		p += n + 1;
	}
	return 0;
}

static int proto_request_decode_json(struct proto_request *req, const char *line, size_t len,
				     char *err, size_t errlen)
{
	struct proto_json_arg args[PROTO_ARGS_MAX] = { { NULL, NULL, 0 } };
	const struct proto_op_row *row;
	struct proto_json_scan scan;
	size_t need = 0;
	cJSON *root;
	int ret;

	req->flags |= PROTO_REQ_JSON;
	ret = proto_request_json_root(req, line, len, &root, &scan, err, errlen);
	if (ret)
		return ret;
	row = &proto_op_rows[req->op];
	ret = proto_request_json_args(req, row, root, line, &scan, args, &need, err, errlen);
	if (!ret)
		ret = proto_request_json_store(req, row, args, need, err, errlen);
	cJSON_Delete(root);
	return ret;
}

int proto_request_decode(struct proto_request *req, const char *line, size_t len,
			 char *err, size_t errlen)
{
	const size_t chans = offsetof(struct proto_request, channels);
	const size_t after = chans + sizeof(req->channels);
	int ret;

	/* all but channels[] (half the struct), which is read only below nchannels */
	memset(req, 0, chans);
	memset((char *)req + after, 0, sizeof(*req) - after);
	if (err && errlen)
		err[0] = '\0';
	if (len && line[0] == '{')
		req->flags |= PROTO_REQ_JSON;
	ret = proto_line_check(line, len, err, errlen);
	if (!ret && (req->flags & PROTO_REQ_JSON))
		ret = proto_request_decode_json(req, line, len, err, errlen);
	else if (!ret)
		ret = proto_request_decode_text(req, line, len, err, errlen);
	if (ret) {
		/* keep op, flags and id for the error reply; drop the arguments */
		free(req->store);
		req->store = NULL;
		req->device = req->attr = req->value = NULL;
		req->consumer = req->channel = req->token = req->trigger = NULL;
		req->nchannels = 0;
	}
	return ret;
}

void proto_request_fini(struct proto_request *req)
{
	if (!req)
		return;
	free(req->store);
	req->store = NULL;
	req->device = req->attr = req->value = NULL;
	req->consumer = req->channel = req->token = req->trigger = NULL;
	req->nchannels = 0;
}

/* ------------------------------------------------------------------------ */
/* Encoding (client)                                                        */
/* ------------------------------------------------------------------------ */

/* A string the text spelling can carry: non-empty, no control characters,
 * no blanks at all (@rest: none at either end). */
static bool proto_request_text_ok(const char *s, bool rest, bool json)
{
	size_t i, n = strlen(s);

	if (!n)
		return false;
	for (i = 0; i < n; i++) {
		if (proto_is_ctrl((unsigned char)s[i]) && s[i] != '\t')
			return false;
		if (!json && !rest && proto_is_blank(s[i]))
			return false;
	}
	return json || !rest || (!proto_is_blank(s[0]) && !proto_is_blank(s[n - 1]));
}

/* A number argument as text into @buf. Return: 0, or 1 when it is absent (0 = none). */
static int proto_request_encode_number(const struct proto_request *req, enum proto_field f,
				       char *buf, size_t len)
{
	long long v;

	switch (f) {
	case PROTO_F_MULTIPLIER:
		v = req->multiplier;
		break;
	case PROTO_F_SCANS:
		v = req->scans;
		break;
	case PROTO_F_STREAM:
		v = req->stream;
		break;
	case PROTO_F_BYTES:
		v = req->bytes;
		break;
	default:
		return snprintf(buf, len, "%u", (unsigned int)req->interval_ms) < 0;
	}
	if (!v && f != PROTO_F_INTERVAL)
		return 1;
	snprintf(buf, len, "%lld", v);
	return 0;
}

/* Can every channel name be spelled? Return: 0 or -EINVAL. */
static int proto_request_encode_list_ok(const struct proto_request *req, bool json)
{
	int i;

	if (req->nchannels < 0 || req->nchannels > PROTO_STREAM_CHANNELS_MAX)
		return -EINVAL;
	for (i = 0; i < req->nchannels; i++)
		if (!req->channels[i] || !proto_request_text_ok(req->channels[i], false, json))
			return -EINVAL;
	return 0;
}

/*
 * The op's arguments as text (@vals, NULL when absent; numbers printed into
 * @nums), checked against the op's rules and what the spelling can carry.
 * Return: 0, or -EINVAL.
 */
static int proto_request_encode_args(const struct proto_request *req,
				     const struct proto_op_row *row, bool json,
				     const char **vals, char (*nums)[24])
{
	bool present[PROTO_ARGS_MAX] = { false };
	enum proto_field f;
	int k;

	for (k = 0; k < row->nargs; k++) {
		f = row->args[k];
		if (proto_fields[f].kind == PROTO_FIELD_WHAT) {
			vals[k] = proto_what_name(req->what);
		} else if (proto_fields[f].kind == PROTO_FIELD_FORMAT) {
			vals[k] = proto_format_name(req->format);
		} else if (proto_fields[f].kind == PROTO_FIELD_LIST) {
			if (proto_request_encode_list_ok(req, json))
				return -EINVAL;
			continue;
		} else if (proto_fields[f].kind == PROTO_FIELD_NUM) {
			if (proto_request_encode_number(req, f, nums[k], sizeof(nums[k])))
				continue;
			vals[k] = nums[k];
		} else {
			vals[k] = *proto_request_str_field((struct proto_request *)req, f);
			if (f == PROTO_F_TRIGGER && !vals[k] && !json)
				vals[k] = PROTO_TRIGGER_CURRENT;
		}
		present[k] = vals[k] != NULL;
		if (vals[k] && !proto_request_text_ok(vals[k], row->rest && k == row->nargs - 1,
						      json))
			return -EINVAL;
	}
	if (proto_request_missing(row, present) >= 0)
		return -EINVAL;
	if (req->multiplier && req->what != PROTO_WHAT_PROCESSED)
		return -EINVAL;
	/* text has no way to skip an optional argument and give a later one */
	for (k = 1; k < row->nargs && !json; k++)
		if (present[k] && !present[k - 1])
			return -EINVAL;
	return 0;
}

static int proto_request_encode_text(struct proto_buf *b, const struct proto_request *req,
				     const struct proto_op_row *row, const char **vals)
{
	int k, i, ret;

	ret = proto_buf_str(b, row->name);
	for (k = 0; !ret && k < row->nargs; k++) {
		if (proto_fields[row->args[k]].kind == PROTO_FIELD_LIST) {
			for (i = 0; !ret && i < req->nchannels; i++) {
				ret = proto_buf_append(b, " ", 1);
				if (!ret)
					ret = proto_buf_str(b, req->channels[i]);
			}
			continue;
		}
		if (!vals[k])
			continue;
		ret = proto_buf_append(b, " ", 1);
		if (!ret)
			ret = proto_buf_str(b, vals[k]);
	}
	if (!ret)
		ret = proto_buf_append(b, "\n", 1);
	return ret;
}

/* ,"channels":[...] when the request names any. */
static int proto_request_encode_json_list(struct proto_buf *b, const struct proto_request *req,
					  enum proto_field f)
{
	int i, ret;

	if (!req->nchannels)
		return 0;
	ret = proto_buf_printf(b, ",\"%s\":[", proto_fields[f].name);
	for (i = 0; !ret && i < req->nchannels; i++) {
		if (i)
			ret = proto_buf_append(b, ",", 1);
		if (!ret)
			ret = proto_buf_json_str(b, req->channels[i], strlen(req->channels[i]));
	}
	return ret ? ret : proto_buf_append(b, "]", 1);
}

static int proto_request_encode_json(struct proto_buf *b, const struct proto_request *req,
				     const struct proto_op_row *row, const char **vals)
{
	enum proto_field f;
	char lower[16];
	int k, ret;
	size_t i;

	for (i = 0; row->name[i] && i < sizeof(lower) - 1; i++)
		lower[i] = (char)tolower((unsigned char)row->name[i]);
	lower[i] = '\0';
	ret = proto_buf_append(b, "{", 1);
	if (!ret && req->id[0]) {
		for (i = 0; req->id[i]; i++)
			if (proto_is_ctrl((unsigned char)req->id[i]))
				ret = -EINVAL;
		if (!ret)
			ret = proto_buf_printf(b, "\"id\":%s,", req->id);
	}
	if (!ret)
		ret = proto_buf_printf(b, "\"op\":\"%s\"", lower);
	for (k = 0; !ret && k < row->nargs; k++) {
		f = row->args[k];
		if (proto_fields[f].kind == PROTO_FIELD_LIST) {
			ret = proto_request_encode_json_list(b, req, f);
			continue;
		}
		if (!vals[k])
			continue;
		ret = proto_buf_printf(b, ",\"%s\":", proto_fields[f].name);
		if (ret)
			break;
		if (proto_fields[f].kind == PROTO_FIELD_NUM)
			ret = proto_buf_str(b, vals[k]);
		else
			ret = proto_buf_json_str(b, vals[k], strlen(vals[k]));
	}
	if (!ret)
		ret = proto_buf_append(b, "}\n", 2);
	return ret;
}

int proto_request_encode(struct proto_buf *b, const struct proto_request *req)
{
	const struct proto_op_row *row = proto_op_row(req->op);
	bool json = req->flags & PROTO_REQ_JSON;
	const char *vals[PROTO_ARGS_MAX] = { NULL };
	char nums[PROTO_ARGS_MAX][24];
	size_t start = b->len;
	int ret;

	if (!row)
		return -EINVAL;
	ret = proto_request_encode_args(req, row, json, vals, nums);
	if (ret)
		return ret;
	if (json)
		ret = proto_request_encode_json(b, req, row, vals);
	else
		ret = proto_request_encode_text(b, req, row, vals);
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}
