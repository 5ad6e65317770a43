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
		"HELP", "HELP", "list the requests", { 0 }, 0, 0, false, false, "help" },
	[PROTO_OP_VERSION] = {
		"VERSION", "VERSION", "server release and protocol version",
		{ 0 }, 0, 0, false, false, NULL },
	[PROTO_OP_DEVICES] = {
		"DEVICES", "DEVICES", "list the devices", { 0 }, 0, 0, false, false, "devices" },
	[PROTO_OP_DEVICE] = {
		"DEVICE", "DEVICE <dev>", "details of one device",
		{ F(DEVICE) }, 1, 1, false, false, "device" },
	[PROTO_OP_ATTRS] = {
		"ATTRS", "ATTRS <dev>", "list the attributes of a device (r, w, rw)",
		{ F(DEVICE) }, 1, 1, false, false, "attrs" },
	[PROTO_OP_CHANNELS] = {
		"CHANNELS", "CHANNELS <dev>", "list the channels of a device",
		{ F(DEVICE) }, 1, 1, false, false, "channels" },
	[PROTO_OP_READ] = {
		"READ", "READ <dev> <attr>", "read an attribute",
		{ F(DEVICE), F(ATTR) }, 2, 2, false, false, NULL },
	[PROTO_OP_WRITE] = {
		"WRITE", "WRITE <dev> <attr> <value>", "write an attribute (value: rest of line)",
		{ F(DEVICE), F(ATTR), F(VALUE) }, 3, 3, true, false, NULL },
	[PROTO_OP_MAPS] = {
		"MAPS", "MAPS", "list the consumer channel maps",
		{ 0 }, 0, 0, false, false, "maps" },
	[PROTO_OP_CONSUMER] = {
		"CONSUMER", "CONSUMER <consumer>", "list the channels of a consumer",
		{ F(CONSUMER) }, 1, 1, false, false, "channels" },
	[PROTO_OP_CREAD] = {
		"CREAD",
		"CREAD <consumer> <channel> raw|processed|scale|offset|type|label [<multiplier>]",
		"read a consumer channel (multiplier: processed only)",
		{ F(CONSUMER), F(CHANNEL), F(WHAT), F(MULTIPLIER) }, 4, 3, false, false, NULL },
	[PROTO_OP_WATCH] = {
		"WATCH", "WATCH <dev> <attr> <interval_ms>",
		"push an attribute's value periodically",
		{ F(DEVICE), F(ATTR), F(INTERVAL) }, 3, 3, false, false, NULL },
	[PROTO_OP_UNWATCH] = {
		"UNWATCH", "UNWATCH [<dev> <attr>]", "stop one watch, or every watch",
		{ F(DEVICE), F(ATTR) }, 2, 0, false, true, NULL },
	[PROTO_OP_STATS] = {
		"STATS", "STATS", "server counters", { 0 }, 0, 0, false, false, "stats" },
	[PROTO_OP_AUTH] = {
		"AUTH", "AUTH <token>", "authenticate (token: rest of line)",
		{ F(TOKEN) }, 1, 1, true, false, NULL },
	[PROTO_OP_QUIT] = {
		"QUIT", "QUIT", "close the connection", { 0 }, 0, 0, false, false, NULL },
};

/* JSON field names and the text spelling's placeholders, indexed by field. */
static const char *const proto_field_names[PROTO_F_COUNT] = {
	[PROTO_F_DEVICE] = "device",
	[PROTO_F_ATTR] = "attr",
	[PROTO_F_VALUE] = "value",
	[PROTO_F_CONSUMER] = "consumer",
	[PROTO_F_CHANNEL] = "channel",
	[PROTO_F_WHAT] = "what",
	[PROTO_F_MULTIPLIER] = "multiplier",
	[PROTO_F_INTERVAL] = "interval_ms",
	[PROTO_F_TOKEN] = "token",
};

static const char *const proto_field_placeholders[PROTO_F_COUNT] = {
	[PROTO_F_DEVICE] = "<dev>",
	[PROTO_F_ATTR] = "<attr>",
	[PROTO_F_VALUE] = "<value>",
	[PROTO_F_CONSUMER] = "<consumer>",
	[PROTO_F_CHANNEL] = "<channel>",
	[PROTO_F_WHAT] = "raw|processed|scale|offset|type|label",
	[PROTO_F_MULTIPLIER] = "<multiplier>",
	[PROTO_F_INTERVAL] = "<interval_ms>",
	[PROTO_F_TOKEN] = "<token>",
};

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

static const char **proto_request_str_field(struct proto_request *req, enum proto_field f)
{
	switch (f) {
	case PROTO_F_DEVICE:
		return &req->device;
	case PROTO_F_ATTR:
		return &req->attr;
	case PROTO_F_VALUE:
		return &req->value;
	case PROTO_F_CONSUMER:
		return &req->consumer;
	case PROTO_F_CHANNEL:
		return &req->channel;
	case PROTO_F_TOKEN:
		return &req->token;
	default:
		return NULL;
	}
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
			  proto_field_names[f], v, lo, hi);
		return -ERANGE;
	}
	if (f == PROTO_F_INTERVAL)
		req->interval_ms = (int)v;
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
				  proto_field_names[f], s);
			return -EINVAL;
		}
		if (n > (LLONG_MAX - 9) / 10)
			over = true;
		else
			n = n * 10 + (*p - '0');
	}
	if (p == s) {
		proto_msg(err, errlen, "%s: empty", proto_field_names[f]);
		return -EINVAL;
	}
	if (over) {
		proto_request_range(f, &lo, &hi);
		proto_msg(err, errlen, "%s: %.32s is out of range %lld..%lld",
			  proto_field_names[f], s, lo, hi);
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
			proto_msg(err, errlen, "%s: missing", proto_field_names[f]);
		else
			proto_msg(err, errlen, "%s: missing %s (usage: %s)", row->name,
				  proto_field_placeholders[f], row->usage);
		return -EINVAL;
	}
	if (has_multiplier && req->what != PROTO_WHAT_PROCESSED) {
		proto_msg(err, errlen, "multiplier: only with processed");
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

static int proto_request_decode_text(struct proto_request *req, const char *line, size_t len,
				     char *err, size_t errlen)
{
	const struct proto_op_row *row;
	size_t i = 0, vs;
	char *p, *end, *tok;
	bool present[PROTO_ARGS_MAX];
	bool has_multiplier = false;
	enum proto_field f;
	long long v;
	int op, k, ret;

	while (i < len && proto_is_blank(line[i]))
		i++;
	if (i == len) {
		req->op = PROTO_OP_NONE;
		return 0;
	}
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
	row = &proto_op_rows[op];

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
		if (f == PROTO_F_WHAT) {
			ret = proto_request_set_what(req, tok, strlen(tok), err, errlen);
		} else if (f == PROTO_F_MULTIPLIER || f == PROTO_F_INTERVAL) {
			has_multiplier |= f == PROTO_F_MULTIPLIER;
			ret = proto_request_parse_number(f, tok, &v, err, errlen);
			if (!ret)
				ret = proto_request_set_number(req, f, v, err, errlen);
		} else {
			*proto_request_str_field(req, f) = tok;
			ret = 0;
		}
		if (ret)
			return ret;
	}
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
		proto_msg(err, errlen, "%s: must be a string", proto_field_names[f]);
		return -EINVAL;
	}
	if (!item->valuestring[0]) {
		proto_msg(err, errlen, "%s: empty", proto_field_names[f]);
		return -EINVAL;
	}
	for (s = item->valuestring; *s; s++) {
		if (proto_is_ctrl((unsigned char)*s) && *s != '\t') {
			proto_msg(err, errlen, "%s: control character 0x%02x", proto_field_names[f],
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
		proto_msg(err, errlen, "%s: must be a number", proto_field_names[f]);
		return -EINVAL;
	}
	d = item->valuedouble;
	if (!isfinite(d) || d != floor(d)) {
		proto_msg(err, errlen, "%s: must be an integer", proto_field_names[f]);
		return -EINVAL;
	}
	if (d < -1e18 || d > 1e18) {
		proto_msg(err, errlen, "%s: out of range", proto_field_names[f]);
		return -ERANGE;
	}
	return proto_request_set_number(req, f, (long long)d, err, errlen);
}

static int proto_request_decode_json(struct proto_request *req, const char *line, size_t len,
				     char *err, size_t errlen)
{
	const cJSON *items[PROTO_ARGS_MAX] = { NULL };
	bool present[PROTO_ARGS_MAX];
	const struct proto_op_row *row;
	struct proto_json_scan scan;
	bool has_multiplier = false;
	const char *end = NULL;
	const cJSON *idj, *opj;
	size_t need = 0, n;
	enum proto_field f;
	cJSON *root;
	int ret, k, op;
	char *p;

	req->flags |= PROTO_REQ_JSON;
	ret = proto_json_scan(line, len, PROTO_JSON_DEPTH_MAX, &scan, err, errlen);
	if (ret)
		return ret;
	root = cJSON_ParseWithLengthOpts(line, len, &end, false);
	if (!root) {
		proto_msg(err, errlen, "malformed JSON at offset %zu",
			  end ? (size_t)(end - line) : (size_t)0);
		return -EINVAL;
	}
	while (end && end < line + len && (*end == ' ' || *end == '\t'))
		end++;
	if (end != line + len) {
		proto_msg(err, errlen, "bytes after the JSON object at offset %zu",
			  (size_t)(end - line));
		ret = -EINVAL;
		goto err_delete_root;
	}
	if (!cJSON_IsObject(root)) {
		proto_msg(err, errlen, "a JSON request must be an object");
		ret = -EINVAL;
		goto err_delete_root;
	}
	idj = cJSON_GetObjectItemCaseSensitive(root, "id");
	if (idj) {
		ret = proto_request_json_id(req, idj, line, &scan, err, errlen);
		if (ret)
			goto err_delete_root;
	}
	opj = cJSON_GetObjectItemCaseSensitive(root, "op");
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
	row = &proto_op_rows[op];

	/* first pass: presence and types; strings are sized for one store */
	for (k = 0; k < row->nargs; k++) {
		f = row->args[k];
		items[k] = cJSON_GetObjectItemCaseSensitive(root, proto_field_names[f]);
		if (!items[k])
			continue;
		if (f == PROTO_F_MULTIPLIER || f == PROTO_F_INTERVAL) {
			has_multiplier |= f == PROTO_F_MULTIPLIER;
			ret = proto_request_json_number(req, items[k], f, err, errlen);
		} else {
			ret = proto_request_json_string(items[k], f, err, errlen);
			if (!ret && f == PROTO_F_WHAT)
				ret = proto_request_set_what(req, items[k]->valuestring,
							     strlen(items[k]->valuestring),
							     err, errlen);
			else if (!ret)
				need += strlen(items[k]->valuestring) + 1;
		}
		if (ret)
			goto err_delete_root;
	}
	for (k = 0; k < PROTO_ARGS_MAX; k++)
		present[k] = items[k] != NULL;
	ret = proto_request_check(req, row, proto_request_missing(row, present), has_multiplier,
				  err, errlen);
	if (ret)
		goto err_delete_root;

	if (need) {
		req->store = malloc(need);
		if (!req->store) {
			proto_msg(err, errlen, "out of memory");
			ret = -ENOMEM;
			goto err_delete_root;
		}
	}
	p = req->store;
	for (k = 0; k < row->nargs; k++) {
		f = row->args[k];
		if (!items[k] || !proto_request_str_field(req, f))
			continue;
		n = strlen(items[k]->valuestring) + 1;
		memcpy(p, items[k]->valuestring, n);
		*proto_request_str_field(req, f) = p;
		p += n;
	}
	cJSON_Delete(root);
	return 0;

err_delete_root:
	cJSON_Delete(root);
	return ret;
}

int proto_request_decode(struct proto_request *req, const char *line, size_t len,
			 char *err, size_t errlen)
{
	int ret;

	memset(req, 0, sizeof(*req));
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
		req->consumer = req->channel = req->token = NULL;
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
	req->consumer = req->channel = req->token = NULL;
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

int proto_request_encode(struct proto_buf *b, const struct proto_request *req)
{
	const struct proto_op_row *row = proto_op_row(req->op);
	bool json = req->flags & PROTO_REQ_JSON;
	const char *vals[PROTO_ARGS_MAX] = { NULL };
	bool present[PROTO_ARGS_MAX] = { false };
	char nums[PROTO_ARGS_MAX][24];
	size_t start = b->len, i;
	enum proto_field f;
	int k, ret;
	char lower[16];

	if (!row)
		return -EINVAL;
	for (k = 0; k < row->nargs; k++) {
		f = row->args[k];
		if (f == PROTO_F_WHAT) {
			vals[k] = proto_what_name(req->what);
		} else if (f == PROTO_F_MULTIPLIER || f == PROTO_F_INTERVAL) {
			if (f == PROTO_F_MULTIPLIER && !req->multiplier)
				continue;
			snprintf(nums[k], sizeof(nums[k]), "%u",
				 f == PROTO_F_MULTIPLIER ? req->multiplier :
				 (unsigned int)req->interval_ms);
			vals[k] = nums[k];
		} else {
			vals[k] = *proto_request_str_field((struct proto_request *)req, f);
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

	if (!json) {
		ret = proto_buf_str(b, row->name);
		for (k = 0; !ret && k < row->nargs; k++) {
			if (!vals[k])
				continue;
			ret = proto_buf_append(b, " ", 1);
			if (!ret)
				ret = proto_buf_str(b, vals[k]);
		}
		if (!ret)
			ret = proto_buf_append(b, "\n", 1);
		goto out;
	}

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
		if (!vals[k])
			continue;
		ret = proto_buf_printf(b, ",\"%s\":", proto_field_names[f]);
		if (ret)
			break;
		if (f == PROTO_F_MULTIPLIER || f == PROTO_F_INTERVAL)
			ret = proto_buf_str(b, vals[k]);
		else
			ret = proto_buf_json_str(b, vals[k], strlen(vals[k]));
	}
	if (!ret)
		ret = proto_buf_append(b, "}\n", 2);
out:
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}
