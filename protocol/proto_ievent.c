/*
 * proto_ievent.c - the lines a SUBSCRIBE pushes: one IIO event (the
 * kernel's struct iio_event_data, decoded into iio_event_monitor's fields),
 * a count of events a slow reader lost, the end of a subscription.
 *
 * The text line carries what `iio_event_monitor` prints after "Event: ",
 * preceded by the device and the raw code, so a script that parses the
 * tool's lines parses ours after two fields. JSON carries the same fields
 * as members, the code as a hex string (it exceeds 2^53) and the
 * timestamp as an integer read back exactly by the decoder. Place in the
 * flow: server -> *wire* -> client. Pure code, as the rest of protocol/.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "iio_events.h"
#include "proto.h"
#include "proto_priv.h"

/* The JSON members, by kind; the text words likewise. */
static const char *const proto_ievent_json_keys[] = {
	[PROTO_IEVENT_EVENT] = "iio_event",
	[PROTO_IEVENT_LOST] = "iio_event_lost",
	[PROTO_IEVENT_END] = "iio_event_end",
};

static const char *const proto_ievent_words[] = {
	[PROTO_IEVENT_EVENT] = "IIOEVENT",
	[PROTO_IEVENT_LOST] = "IIOEVENTLOST",
	[PROTO_IEVENT_END] = "IIOEVENTEND",
};

#define PROTO_IEVENT_KINDS	(sizeof(proto_ievent_words) / sizeof(proto_ievent_words[0]))

static const char *proto_ievent_errname(int err)
{
	return proto_errno_name(err) ? proto_errno_name(err) : "EIO";
}

static const char *proto_ievent_msg(const struct proto_ievent *ev)
{
	if (ev->message && ev->message[0])
		return ev->message;
	return proto_errno_message(ev->err) ? proto_errno_message(ev->err) : "";
}

static int proto_ievent_text(struct proto_buf *b, const struct proto_ievent *ev)
{
	char line[IIO_EVENT_LINE_MAX];
	const char *rest;
	int ret;

	ret = proto_buf_printf(b, "%s ", proto_ievent_words[ev->kind]);
	if (!ret)
		ret = proto_buf_text(b, ev->device, strlen(ev->device), true);
	if (ret)
		return ret;
	switch (ev->kind) {
	case PROTO_IEVENT_EVENT:
		iio_event_monitor_line(line, sizeof(line), ev->id, ev->timestamp);
		rest = strstr(line, "time: ");
		return proto_buf_printf(b, " 0x%016" PRIx64 " %s\n", ev->id, rest ? rest : line);
	case PROTO_IEVENT_LOST:
		return proto_buf_printf(b, " %" PRIu64 "\n", ev->lost);
	case PROTO_IEVENT_END:
		ret = proto_buf_printf(b, " %s ", proto_ievent_errname(ev->err));
		if (!ret)
			ret = proto_buf_text(b, proto_ievent_msg(ev), strlen(proto_ievent_msg(ev)),
					     false);
		return ret ? ret : proto_buf_append(b, "\n", 1);
	}
	return -EINVAL;
}

/* The decoded fields of an event, as members; names only where the tables have them. */
static int proto_ievent_json_fields(struct proto_buf *b, const struct proto_ievent *ev)
{
	struct iio_event_fields f;
	const char *type, *mod, *evtype, *dir;
	int ret;

	iio_event_decode(ev->id, &f);
	type = iio_chan_type_name(f.chan_type);
	mod = f.modifier ? iio_modifier_name(f.modifier) : NULL;
	evtype = iio_event_type_name(f.type);
	dir = iio_event_dir_name(f.dir);
	ret = proto_buf_printf(b, ",\"id\":\"0x%016" PRIx64 "\",\"timestamp\":%" PRId64, ev->id,
			       ev->timestamp);
	if (!ret && type)
		ret = proto_buf_printf(b, ",\"type\":\"%s\"", type);
	if (!ret && mod)
		ret = proto_buf_printf(b, ",\"modifier\":\"%s\"", mod);
	if (!ret && f.chan >= 0)
		ret = proto_buf_printf(b, ",\"channel\":%d", f.chan);
	if (!ret && f.diff && f.chan2 >= 0)
		ret = proto_buf_printf(b, ",\"channel2\":%d", f.chan2);
	if (!ret && evtype)
		ret = proto_buf_printf(b, ",\"evtype\":\"%s\"", evtype);
	if (!ret && dir)
		ret = proto_buf_printf(b, ",\"direction\":\"%s\"", dir);
	return ret;
}

static int proto_ievent_json(struct proto_buf *b, const struct proto_ievent *ev)
{
	int ret;

	ret = proto_buf_printf(b, "{\"%s\":{\"device\":", proto_ievent_json_keys[ev->kind]);
	if (!ret)
		ret = proto_buf_json_str(b, ev->device, strlen(ev->device));
	if (ret)
		return ret;
	switch (ev->kind) {
	case PROTO_IEVENT_EVENT:
		ret = proto_ievent_json_fields(b, ev);
		break;
	case PROTO_IEVENT_LOST:
		ret = proto_buf_printf(b, ",\"count\":%" PRIu64, ev->lost);
		break;
	case PROTO_IEVENT_END:
		ret = proto_buf_printf(b, ",\"error\":\"%s\",\"message\":",
				       proto_ievent_errname(ev->err));
		if (!ret)
			ret = proto_buf_json_str(b, proto_ievent_msg(ev), strlen(proto_ievent_msg(ev)));
		break;
	}
	return ret ? ret : proto_buf_str(b, "}}\n");
}

int proto_ievent_encode(struct proto_buf *b, bool json, const struct proto_ievent *ev)
{
	size_t start = b->len;
	int ret;

	if (!ev->device || (unsigned int)ev->kind >= PROTO_IEVENT_KINDS)
		return -EINVAL;
	ret = json ? proto_ievent_json(b, ev) : proto_ievent_text(b, ev);
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}

/*
 * A 64-bit member read from the raw line: cJSON's double is not exact above
 * 2^53. @key cannot occur unescaped inside a JSON string, so the first
 * match is the member (as proto_reply_decode.c reads timestamp_ns).
 */
static int proto_ievent_raw_i64(const char *line, size_t len, const char *key, int64_t *out)
{
	char pat[32], digits[24];
	const char *p;
	size_t n = 0;
	char *end;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = memmem(line, len, pat, strlen(pat));
	if (!p)
		return -EPROTO;
	p += strlen(pat);
	while (p < line + len && n < sizeof(digits) - 1 &&
	       ((*p >= '0' && *p <= '9') || (n == 0 && *p == '-')))
		digits[n++] = *p++;
	digits[n] = '\0';
	errno = 0;
	*out = strtoll(digits, &end, 10);
	return n && !*end && !errno ? 0 : -EPROTO;
}

static const char *proto_ievent_jstr(struct proto_reply *r, const cJSON *obj, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsString(it) || !it->valuestring)
		return NULL;
	return proto_reply_dup(r, it->valuestring, strlen(it->valuestring));
}

int proto_ievent_decode_json(struct proto_reply *r, const struct cJSON *root, const char *line,
			     size_t len, char *err, size_t errlen)
{
	struct proto_ievent *e = &r->ievent;
	const cJSON *obj = NULL, *it;
	const char *s;
	size_t k;

	for (k = 0; k < PROTO_IEVENT_KINDS && !obj; k++)
		if ((obj = cJSON_GetObjectItemCaseSensitive(root, proto_ievent_json_keys[k])))
			e->kind = (enum proto_ievent_kind)k;
	if (!obj)
		return 1;
	r->kind = PROTO_REPLY_IEVENT;
	if (!cJSON_IsObject(obj) || !(e->device = proto_ievent_jstr(r, obj, "device")))
		return proto_reply_bad(err, errlen, "iio event: device");
	switch (e->kind) {
	case PROTO_IEVENT_EVENT:
		s = proto_ievent_jstr(r, obj, "id");
		if (!s || strncmp(s, "0x", 2) != 0 || proto_ievent_raw_i64(line, len, "timestamp",
									   &e->timestamp))
			return proto_reply_bad(err, errlen, "iio event: id or timestamp");
		e->id = strtoull(s, NULL, 16);
		return 0;
	case PROTO_IEVENT_LOST:
		it = cJSON_GetObjectItemCaseSensitive(obj, "count");
		if (!cJSON_IsNumber(it) || it->valuedouble < 0)
			return proto_reply_bad(err, errlen, "iio event: count");
		e->lost = (uint64_t)it->valuedouble;
		return 0;
	case PROTO_IEVENT_END:
		s = proto_ievent_jstr(r, obj, "error");
		e->err = s ? proto_errno_from_name(s) : 0;
		if (!e->err)
			e->err = -EPROTO;
		e->message = proto_ievent_jstr(r, obj, "message");
		return 0;
	}
	return proto_reply_bad(err, errlen, "iio event");
}

/* "0x<16 hex> time: <ts>, ..." after the device of an IIOEVENT line. */
static int proto_ievent_text_event(struct proto_ievent *e, const char *rest)
{
	char *end;

	if (strncmp(rest, "0x", 2) != 0)
		return -EPROTO;
	errno = 0;
	e->id = strtoull(rest + 2, &end, 16);
	if (errno || end != rest + 18 || strncmp(end, " time: ", 7) != 0)
		return -EPROTO;
	e->timestamp = strtoll(end + 7, &end, 10);
	return errno || (*end != ',' && *end != '\0') ? -EPROTO : 0;
}

int proto_ievent_decode_text(struct proto_reply *r, const char *word, char *rest, char *err,
			     size_t errlen)
{
	struct proto_ievent *e = &r->ievent;
	char *sp, *end;
	size_t k;

	for (k = 0; k < PROTO_IEVENT_KINDS && strcmp(word, proto_ievent_words[k]); k++)
		;
	if (k == PROTO_IEVENT_KINDS)
		return 1;
	r->kind = PROTO_REPLY_IEVENT;
	e->kind = (enum proto_ievent_kind)k;
	sp = strchr(rest, ' ');
	if (!sp || sp == rest)
		return proto_reply_bad(err, errlen, "iio event: device");
	*sp = '\0';
	e->device = rest;
	rest = sp + 1;
	switch (e->kind) {
	case PROTO_IEVENT_EVENT:
		if (proto_ievent_text_event(e, rest))
			return proto_reply_bad(err, errlen, "iio event: id or time");
		return 0;
	case PROTO_IEVENT_LOST:
		errno = 0;
		e->lost = strtoull(rest, &end, 10);
		if (errno || end == rest || *end)
			return proto_reply_bad(err, errlen, "iio event: count");
		return 0;
	case PROTO_IEVENT_END:
		sp = strchr(rest, ' ');
		if (sp)
			*sp = '\0';
		e->err = proto_errno_from_name(rest);
		if (!e->err)
			e->err = -EPROTO;
		e->message = sp ? sp + 1 : proto_errno_message(e->err);
		return 0;
	}
	return proto_reply_bad(err, errlen, "iio event");
}
