/*
 * proto_reply_decode.c - reply and event lines back into structs (client).
 *
 * The client library reads a line from the server and decodes it here,
 * telling which request the line answers. Of the text spelling only the
 * first line is decoded here (the daemon refuses a connection in text);
 * the item lines of text listings are proto_reply_text.c's, which only the
 * tests and the fuzzer link. Everything decoded lives in the reply's arena
 * (and a few heap arrays) until proto_reply_fini(). The decoder does not
 * trust the server: depth, types and counts are checked, and a bad line is
 * -EPROTO. Unknown fields are ignored (a minor version may add some). No
 * I/O here: the caller owns the socket and the line splitter.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "iio_types.h"
#include "proto_priv.h"

/* Reply parts that must be there: a missing one makes the line -EPROTO. */
int proto_reply_bad(char *err, size_t errlen, const char *what)
{
	proto_msg(err, errlen, "bad reply: %s", what);
	return -EPROTO;
}

char *proto_reply_dup(struct proto_reply *r, const char *s, size_t len)
{
	return proto_arena_strndup(r->arena, s, len);
}

/*
 * Make room for item r->nitems in *@arr (elements of @size): capacity is
 * 4, then the power of two above the count, so it needs no field of its own.
 */
int proto_reply_grow(struct proto_reply *r, void **arr, size_t size)
{
	size_t n = (size_t)r->nitems, cap;
	void *p;

	if (n && (n < 4 || (n & (n - 1))))
		return 0;
	cap = n ? n * 2 : 4;
	if (cap > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*arr, cap * size);
	if (!p)
		return -ENOMEM;
	memset((char *)p + n * size, 0, (cap - n) * size);
	*arr = p;
	return 0;
}

static bool proto_reply_is_listing(enum proto_op op)
{
	const struct proto_op_row *row = proto_op_row(op);

	return row && row->list_key;
}

/* Strict decimal int (optional '-'); -EPROTO otherwise. */
int proto_reply_int(const char *s, int *out)
{
	long long v = 0;
	bool neg = *s == '-';
	const char *p = s + neg;

	if (!*p)
		return -EPROTO;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EPROTO;
		v = v * 10 + (*p - '0');
		if (v > (long long)INT_MAX + 1)
			return -EPROTO;
	}
	v = neg ? -v : v;
	if (v > INT_MAX || v < INT_MIN)
		return -EPROTO;
	*out = (int)v;
	return 0;
}

static int proto_reply_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;

	if (!*p)
		return -EPROTO;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -EPROTO;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p)
		return -EPROTO;
	*out = v;
	return 0;
}

/* Cut @s (an arena copy) at blanks into at most @max fields; returns the count. */
int proto_reply_split(char *s, char **f, int max)
{
	int n = 0;

	while (*s && n < max) {
		while (proto_is_blank(*s))
			*s++ = '\0';
		if (!*s)
			break;
		f[n++] = s;
		while (*s && !proto_is_blank(*s))
			s++;
	}
	if (*s)
		*s = '\0';
	return n;
}

/* A text listing field: "-" is absent. */
const char *proto_reply_opt(const char *s)
{
	return strcmp(s, "-") ? s : NULL;
}

/* ------------------------------------------------------------------------ */
/* Text                                                                     */
/* ------------------------------------------------------------------------ */

static int proto_reply_text_version(struct proto_reply *r, const char *value)
{
	char *copy = proto_reply_dup(r, value, strlen(value));
	char *f[4];
	int maj, min;
	char *dot;

	if (!copy)
		return -ENOMEM;
	if (proto_reply_split(copy, f, 4) < 4 || strcmp(f[0], "iiowire") || strcmp(f[2], "proto"))
		return 0;	/* a value, just not one we can take apart */
	dot = strchr(f[3], '.');
	if (!dot)
		return 0;
	*dot = '\0';
	if (proto_reply_int(f[3], &maj) || proto_reply_int(dot + 1, &min))
		return 0;
	r->release = f[1];
	r->proto_major = maj;
	r->proto_minor = min;
	return 0;
}

static int proto_reply_text_event(struct proto_reply *r, char *rest, bool error,
				  char *err, size_t errlen)
{
	struct proto_event *ev = &r->event;
	char *f[4], *p, *ts, *end;
	int n;

	r->kind = PROTO_REPLY_EVENT;
	if (error) {
		/* EVENTERR <dev> <attr> <NAME> <ts> <message, may hold blanks> */
		end = rest + strlen(rest);
		n = proto_reply_split(rest, f, 4);
		if (n < 4)
			return proto_reply_bad(err, errlen, "EVENTERR needs 4 fields");
		ev->device = f[0];
		ev->attr = f[1];
		ev->err = proto_errno_from_name(f[2]);
		if (!ev->err)
			ev->err = -EPROTO;
		if (proto_reply_u64(f[3], &ev->timestamp_ns))
			return proto_reply_bad(err, errlen, "event timestamp");
		/* the split cut the line just after the timestamp; the rest is the message */
		p = f[3] + strlen(f[3]);
		ev->message = p < end ? p + 1 : p;
		return 0;
	}
	/* EVENT <dev> <attr> <value, may hold blanks> <ts> */
	ts = strrchr(rest, ' ');
	if (!ts)
		return proto_reply_bad(err, errlen, "EVENT without timestamp");
	*ts++ = '\0';
	if (proto_reply_u64(ts, &ev->timestamp_ns))
		return proto_reply_bad(err, errlen, "event timestamp");
	ev->device = rest;
	p = strchr(rest, ' ');
	if (!p)
		return proto_reply_bad(err, errlen, "EVENT without attribute");
	*p++ = '\0';
	ev->attr = p;
	p = strchr(p, ' ');
	if (!p)
		return proto_reply_bad(err, errlen, "EVENT without value");
	*p++ = '\0';
	ev->value = p;
	return 0;
}

static int proto_reply_decode_text(struct proto_reply *r, const char *line, size_t len,
				   char *err, size_t errlen)
{
	char *copy, *rest, *sp;
	int n;

	copy = proto_reply_dup(r, line, len);
	if (!copy)
		return -ENOMEM;
	sp = strchr(copy, ' ');
	rest = sp ? sp + 1 : copy + len;
	if (sp)
		*sp = '\0';

	if (!strcmp(copy, "EVENT") || !strcmp(copy, "EVENTERR"))
		return proto_reply_text_event(r, rest, copy[5] == 'E', err, errlen);
	n = proto_ievent_decode_text(r, copy, rest, err, errlen);
	if (n != 1)
		return n;
	if (!strcmp(copy, "ERR")) {
		r->kind = PROTO_REPLY_ERR;
		sp = strchr(rest, ' ');
		if (sp)
			*sp = '\0';
		if (!rest[0])
			return proto_reply_bad(err, errlen, "ERR without a name");
		r->error_name = rest;
		r->err = proto_errno_from_name(rest);
		if (!r->err)
			r->err = -EPROTO;
		r->message = sp ? sp + 1 : proto_errno_message(r->err);
		return 0;
	}
	if (strcmp(copy, "OK"))
		return proto_reply_bad(err, errlen, "neither OK, ERR nor EVENT");

	r->kind = PROTO_REPLY_OK;
	if (!proto_reply_is_listing(r->op)) {
		r->value = sp ? rest : NULL;
		return r->op == PROTO_OP_VERSION ? proto_reply_text_version(r, rest) : 0;
	}
	if (proto_reply_int(rest, &n) || n < 0)
		return proto_reply_bad(err, errlen, "listing without a count");
	r->count = n;
	r->pending = n;
	if (r->op == PROTO_OP_DEVICE) {
		if (PROTO_REPLY_GROW(r, devices))
			return -ENOMEM;
		r->devices[0].num_channels = -1;
		r->devices[0].num_attrs = -1;
		r->nitems = 1;
	}
	return n;
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                     */
/* ------------------------------------------------------------------------ */

/* Optional string member: *out NULL when absent; -EPROTO when not a string. */
static int proto_reply_jstr(struct proto_reply *r, const cJSON *obj, const char *key,
			    const char **out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (!it)
		return 0;
	if (!cJSON_IsString(it) || !it->valuestring)
		return -EPROTO;
	*out = proto_reply_dup(r, it->valuestring, strlen(it->valuestring));
	return *out ? 0 : -ENOMEM;
}

/* Optional int member: *out = @dflt when absent; -EPROTO when not an int. */
static int proto_reply_jint(const cJSON *obj, const char *key, int *out, int dflt)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	double d;

	*out = dflt;
	if (!it)
		return 0;
	if (!cJSON_IsNumber(it))
		return -EPROTO;
	d = it->valuedouble;
	if (d != floor(d) || d < INT_MIN || d > INT_MAX)
		return -EPROTO;
	*out = (int)d;
	return 0;
}

/* A string member and where it goes: @off into the struct being filled. */
struct proto_reply_jkey {
	const char *key;
	size_t off;
};

#define PROTO_REPLY_JKEY(type, member)	{ #member, offsetof(type, member) }

/* proto_reply_jstr() for each of @n keys into @base, stopping at the first error. */
static int proto_reply_jstrs(struct proto_reply *r, const cJSON *obj, void *base,
			     const struct proto_reply_jkey *keys, size_t n)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < n; i++)
		ret = proto_reply_jstr(r, obj, keys[i].key,
				       (const char **)(void *)((char *)base + keys[i].off));
	return ret;
}

#define PROTO_REPLY_JSTRS(r, obj, base, keys)	\
	proto_reply_jstrs((r), (obj), (base), (keys), sizeof(keys) / sizeof((keys)[0]))

static const struct proto_reply_jkey proto_reply_device_keys[] = {
	PROTO_REPLY_JKEY(struct proto_device_info, id),
	PROTO_REPLY_JKEY(struct proto_device_info, name),
	PROTO_REPLY_JKEY(struct proto_device_info, label),
	PROTO_REPLY_JKEY(struct proto_device_info, hwid),
};

static const struct proto_reply_jkey proto_reply_map_keys[] = {
	PROTO_REPLY_JKEY(struct proto_map_info, consumer),
	PROTO_REPLY_JKEY(struct proto_map_info, channel),
	PROTO_REPLY_JKEY(struct proto_map_info, device),
	PROTO_REPLY_JKEY(struct proto_map_info, datasheet_name),
	PROTO_REPLY_JKEY(struct proto_map_info, provider),
};

static const struct proto_reply_jkey proto_reply_consumer_keys[] = {
	PROTO_REPLY_JKEY(struct proto_consumer_info, channel),
	PROTO_REPLY_JKEY(struct proto_consumer_info, device),
	PROTO_REPLY_JKEY(struct proto_consumer_info, datasheet_name),
	PROTO_REPLY_JKEY(struct proto_consumer_info, type),
};

/* The strings of an ok reply (VERSION's release, a READ's value). */
static const struct proto_reply_jkey proto_reply_ok_keys[] = {
	PROTO_REPLY_JKEY(struct proto_reply, value),
	PROTO_REPLY_JKEY(struct proto_reply, release),
};

static int proto_reply_json_device(struct proto_reply *r, const cJSON *o,
				   struct proto_device_info *d)
{
	int ret;

	if (!cJSON_IsObject(o))
		return -EPROTO;
	ret = PROTO_REPLY_JSTRS(r, o, d, proto_reply_device_keys);
	if (!ret)
		ret = proto_reply_jint(o, "channels", &d->num_channels, -1);
	if (!ret)
		ret = proto_reply_jint(o, "attrs", &d->num_attrs, -1);
	if (!ret && !d->id)
		ret = -EPROTO;
	return ret;
}

static int proto_reply_json_channel(struct proto_reply *r, const cJSON *o,
				    struct proto_channel_info *ch)
{
	const cJSON *attrs, *a, *out, *diff;
	const char **arr;
	int ret, k = 0;

	if (!cJSON_IsObject(o))
		return -EPROTO;
	ret = proto_reply_jstr(r, o, "type", &ch->type);
	if (!ret)
		ret = proto_reply_jint(o, "index", &ch->index, -1);
	if (!ret)
		ret = proto_reply_jstr(r, o, "modifier", &ch->modifier);
	if (!ret)
		ret = proto_reply_jstr(r, o, "datasheet_name", &ch->datasheet_name);
	if (!ret)
		ret = proto_reply_jint(o, "index2", &ch->index2, 0);
	if (ret)
		return ret;
	out = cJSON_GetObjectItemCaseSensitive(o, "output");
	diff = cJSON_GetObjectItemCaseSensitive(o, "differential");
	if ((out && !cJSON_IsBool(out)) || (diff && !cJSON_IsBool(diff)))
		return -EPROTO;
	ch->output = cJSON_IsTrue(out);
	ch->differential = cJSON_IsTrue(diff);
	attrs = cJSON_GetObjectItemCaseSensitive(o, "attributes");
	if (!attrs)
		return 0;
	if (!cJSON_IsArray(attrs))
		return -EPROTO;
	ch->nattrs = cJSON_GetArraySize(attrs);
	arr = proto_arena_alloc(r->arena, (size_t)(ch->nattrs ? ch->nattrs : 1) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	cJSON_ArrayForEach(a, attrs) {
		if (!cJSON_IsString(a) || !a->valuestring)
			return -EPROTO;
		arr[k] = proto_reply_dup(r, a->valuestring, strlen(a->valuestring));
		if (!arr[k++])
			return -ENOMEM;
	}
	ch->attrs = arr;
	return 0;
}

/* One element of a JSON listing array into the op's item array. */
static int proto_reply_json_item(struct proto_reply *r, const cJSON *o)
{
	const char *mode = NULL;
	int ret;

	if (r->op != PROTO_OP_HELP && !cJSON_IsObject(o))
		return -EPROTO;
	switch (r->op) {
	case PROTO_OP_HELP:
		if (!cJSON_IsString(o) || !o->valuestring)
			return -EPROTO;
		if (PROTO_REPLY_GROW(r, lines))
			return -ENOMEM;
		r->lines[r->nitems] = proto_reply_dup(r, o->valuestring, strlen(o->valuestring));
		return r->lines[r->nitems] ? 0 : -ENOMEM;
	case PROTO_OP_DEVICES:
		if (PROTO_REPLY_GROW(r, devices))
			return -ENOMEM;
		return proto_reply_json_device(r, o, &r->devices[r->nitems]);
	case PROTO_OP_ATTRS:
		if (PROTO_REPLY_GROW(r, attrs))
			return -ENOMEM;
		ret = proto_reply_jstr(r, o, "name", &r->attrs[r->nitems].name);
		if (!ret)
			ret = proto_reply_jstr(r, o, "mode", &mode);
		if (!ret && (!r->attrs[r->nitems].name || !mode))
			ret = -EPROTO;
		if (!ret)
			r->attrs[r->nitems].mode = (strchr(mode, 'r') ? PROTO_ATTR_R : 0) |
						   (strchr(mode, 'w') ? PROTO_ATTR_W : 0);
		return ret;
	case PROTO_OP_CHANNELS:
		if (PROTO_REPLY_GROW(r, channels))
			return -ENOMEM;
		return proto_reply_json_channel(r, o, &r->channels[r->nitems]);
	case PROTO_OP_MAPS:
		if (PROTO_REPLY_GROW(r, maps))
			return -ENOMEM;
		return PROTO_REPLY_JSTRS(r, o, &r->maps[r->nitems], proto_reply_map_keys);
	case PROTO_OP_CONSUMER:
		if (PROTO_REPLY_GROW(r, consumer))
			return -ENOMEM;
		return PROTO_REPLY_JSTRS(r, o, &r->consumer[r->nitems], proto_reply_consumer_keys);
	default:
		return -EPROTO;
	}
}

static int proto_reply_json_listing(struct proto_reply *r, const cJSON *root,
				    char *err, size_t errlen)
{
	const char *key = proto_op_row(r->op)->list_key;
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, key);
	const cJSON *it;
	int ret;

	if (r->op == PROTO_OP_DEVICE) {
		if (PROTO_REPLY_GROW(r, devices))
			return -ENOMEM;
		ret = proto_reply_json_device(r, list, &r->devices[0]);
		if (ret)
			return ret == -EPROTO ? proto_reply_bad(err, errlen, key) : ret;
		r->nitems = r->count = 1;
		return 0;
	}
	if (r->op == PROTO_OP_STATS) {
		if (!cJSON_IsObject(list))
			return proto_reply_bad(err, errlen, key);
		cJSON_ArrayForEach(it, list) {
			if (!cJSON_IsNumber(it) || !it->string)
				return proto_reply_bad(err, errlen, "stats value");
			if (PROTO_REPLY_GROW(r, stats))
				return -ENOMEM;
			r->stats[r->nitems].name = proto_reply_dup(r, it->string,
								   strlen(it->string));
			if (!r->stats[r->nitems].name)
				return -ENOMEM;
			/* exact up to 2^53; clamped, not undefined, beyond int64 */
			if (it->valuedouble >= 9223372036854775807.0)
				r->stats[r->nitems++].value = INT64_MAX;
			else if (it->valuedouble <= -9223372036854775808.0)
				r->stats[r->nitems++].value = INT64_MIN;
			else
				r->stats[r->nitems++].value = (int64_t)it->valuedouble;
		}
		r->count = r->nitems;
		return 0;
	}
	if (!cJSON_IsArray(list))
		return proto_reply_bad(err, errlen, key);
	cJSON_ArrayForEach(it, list) {
		ret = proto_reply_json_item(r, it);
		if (ret)
			return ret == -EPROTO ? proto_reply_bad(err, errlen, key) : ret;
		r->nitems++;
	}
	r->count = r->nitems;
	return 0;
}

/*
 * timestamp_ns exceeds 2^53, so cJSON's double is not exact: read the
 * digits from the raw line. The key cannot occur unescaped inside a JSON
 * string, so the first match is the member.
 */
static int proto_reply_json_timestamp(const char *line, size_t len, const cJSON *ts,
				      uint64_t *out)
{
	static const char key[] = "\"timestamp_ns\":";
	const char *p = memmem(line, len, key, sizeof(key) - 1);
	char digits[24];
	size_t n = 0;

	if (!cJSON_IsNumber(ts) || ts->valuedouble < 0)
		return -EPROTO;
	if (p) {
		p += sizeof(key) - 1;
		while (p < line + len && *p >= '0' && *p <= '9' && n < sizeof(digits) - 1)
			digits[n++] = *p++;
		digits[n] = '\0';
		if (n && !proto_reply_u64(digits, out))
			return 0;
	}
	*out = (uint64_t)ts->valuedouble;
	return 0;
}

static int proto_reply_json_event(struct proto_reply *r, const cJSON *ev, const char *line,
				  size_t len, char *err, size_t errlen)
{
	struct proto_event *e = &r->event;
	const char *name = NULL;
	int ret;

	r->kind = PROTO_REPLY_EVENT;
	if (!cJSON_IsObject(ev))
		return proto_reply_bad(err, errlen, "event");
	ret = proto_reply_jstr(r, ev, "device", &e->device);
	if (!ret)
		ret = proto_reply_jstr(r, ev, "attr", &e->attr);
	if (!ret)
		ret = proto_reply_jstr(r, ev, "value", &e->value);
	if (!ret)
		ret = proto_reply_jstr(r, ev, "error", &name);
	if (!ret)
		ret = proto_reply_jstr(r, ev, "message", &e->message);
	if (!ret && (!e->device || !e->attr || (!e->value && !name)))
		ret = -EPROTO;
	if (!ret)
		ret = proto_reply_json_timestamp(line, len, cJSON_GetObjectItemCaseSensitive(ev,
						 "timestamp_ns"), &e->timestamp_ns);
	if (ret)
		return ret == -EPROTO ? proto_reply_bad(err, errlen, "event") : ret;
	if (name) {
		e->err = proto_errno_from_name(name);
		if (!e->err)
			e->err = -EPROTO;
	}
	return 0;
}

/* The id of a reply, as the server wrote it (cJSON's spelling if escaped). */
static void proto_reply_json_id(struct proto_reply *r, const cJSON *root, const char *line,
				const struct proto_json_scan *scan)
{
	const cJSON *idj = cJSON_GetObjectItemCaseSensitive(root, "id");
	char *printed;

	if (scan->has_id && scan->id_scalar) {
		r->id = proto_reply_dup(r, line + scan->id_off, scan->id_len);
	} else if (idj) {
		printed = cJSON_PrintUnformatted(idj);
		r->id = printed ? proto_reply_dup(r, printed, strlen(printed)) : NULL;
		cJSON_free(printed);
	}
}

/* {"ok":false,"error":NAME[,"message":...]} */
static int proto_reply_json_err(struct proto_reply *r, const cJSON *root, char *err,
				size_t errlen)
{
	int ret;

	r->kind = PROTO_REPLY_ERR;
	ret = proto_reply_jstr(r, root, "error", &r->error_name);
	if (!ret)
		ret = proto_reply_jstr(r, root, "message", &r->message);
	if (!ret && !r->error_name)
		ret = -EPROTO;
	if (ret)
		return ret == -EPROTO ? proto_reply_bad(err, errlen, "error") : ret;
	r->err = proto_errno_from_name(r->error_name);
	if (!r->err)
		r->err = -EPROTO;
	if (!r->message)
		r->message = proto_errno_message(r->err);
	return 0;
}

/* {"ok":true, ...}: a value, a version, an exact (format, val, val2), a listing. */
static int proto_reply_json_ok(struct proto_reply *r, const cJSON *root, char *err,
			       size_t errlen)
{
	const cJSON *fmt;
	int ret;

	r->kind = PROTO_REPLY_OK;
	ret = PROTO_REPLY_JSTRS(r, root, r, proto_reply_ok_keys);
	if (!ret)
		ret = proto_reply_jint(root, "proto_major", &r->proto_major, -1);
	if (!ret)
		ret = proto_reply_jint(root, "proto_minor", &r->proto_minor, -1);
	fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
	if (!ret && cJSON_IsString(fmt) && fmt->valuestring &&
	    iio_val_type_from_name(fmt->valuestring) > 0) {
		r->format = iio_val_type_from_name(fmt->valuestring);
		ret = proto_reply_jint(root, "val", &r->val, 0);
		if (!ret)
			ret = proto_reply_jint(root, "val2", &r->val2, 0);
		r->has_val = !ret;
	}
	if (ret)
		return ret == -EPROTO ? proto_reply_bad(err, errlen, "value fields") : ret;
	if (proto_reply_is_listing(r->op))
		return proto_reply_json_listing(r, root, err, errlen);
	return 0;
}

static int proto_reply_decode_json(struct proto_reply *r, const char *line, size_t len,
				   char *err, size_t errlen)
{
	struct proto_json_scan scan;
	const cJSON *ok, *ev;
	const char *end = NULL;
	cJSON *root;
	int ret;

	r->json = true;
	ret = proto_json_scan(line, len, PROTO_JSON_DEPTH_MAX, &scan, err, errlen);
	if (ret)
		return -EPROTO;
	root = cJSON_ParseWithLengthOpts(line, len, &end, false);
	if (!root)
		return proto_reply_bad(err, errlen, "malformed JSON");
	if (!cJSON_IsObject(root)) {
		ret = proto_reply_bad(err, errlen, "not a JSON object");
		goto out_delete_root;
	}
	proto_reply_json_id(r, root, line, &scan);
	ev = cJSON_GetObjectItemCaseSensitive(root, "event");
	ok = cJSON_GetObjectItemCaseSensitive(root, "ok");
	if (ev)
		ret = proto_reply_json_event(r, ev, line, len, err, errlen);
	else if ((ret = proto_ievent_decode_json(r, root, line, len, err, errlen)) != 1)
		;	/* an IIO event line (SUBSCRIBE) */
	else if (!cJSON_IsBool(ok))
		ret = proto_reply_bad(err, errlen, "ok: missing or not true/false");
	else if (cJSON_IsFalse(ok))
		ret = proto_reply_json_err(r, root, err, errlen);
	else
		ret = proto_reply_json_ok(r, root, err, errlen);

out_delete_root:
	cJSON_Delete(root);
	return ret;
}

int proto_reply_decode(struct proto_reply *r, enum proto_op op, const char *line, size_t len,
		       char *err, size_t errlen)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->op = op;
	r->proto_major = -1;
	r->proto_minor = -1;
	if (err && errlen)
		err[0] = '\0';
	r->arena = proto_arena_create();
	if (!r->arena)
		return -ENOMEM;
	if (proto_line_check(line, len, err, errlen))
		return -EPROTO;
	if (len && line[0] == '{')
		ret = proto_reply_decode_json(r, line, len, err, errlen);
	else
		ret = proto_reply_decode_text(r, line, len, err, errlen);
	if (ret < 0)
		r->pending = 0;
	return ret;
}

void proto_reply_fini(struct proto_reply *r)
{
	if (!r)
		return;
	free(r->devices);
	free(r->attrs);
	free(r->channels);
	free(r->maps);
	free(r->consumer);
	free(r->stats);
	free(r->lines);
	proto_arena_destroy(r->arena);
	memset(r, 0, sizeof(*r));
}
