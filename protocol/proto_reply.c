/*
 * proto_reply.c - encoding replies and events, in the request's spelling.
 *
 * The server's last step before the socket: a handler's result (a value,
 * an error, a listing built from plain structs) becomes whole lines in a
 * struct proto_buf, text or JSON as the request was, the JSON ones with
 * the request's id echoed as written. Every call appends complete lines
 * or nothing (it rolls back on -ENOMEM). This file knows the shape of
 * replies, not where their data comes from: it never touches a device.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iio_types.h"
#include "proto_priv.h"

bool proto_reply_is_json(const struct proto_request *req)
{
	return req && (req->flags & PROTO_REQ_JSON);
}

/* "OK" / "ERR", or "{"id":..,"ok":true|false"; the caller closes the object. */
int proto_reply_head(struct proto_buf *b, const struct proto_request *req, bool ok)
{
	int ret = 0;

	if (!proto_reply_is_json(req))
		return proto_buf_str(b, ok ? "OK" : "ERR");
	ret = proto_buf_append(b, "{", 1);
	if (!ret && req->id[0])
		ret = proto_buf_printf(b, "\"id\":%s,", req->id);
	if (!ret)
		ret = proto_buf_str(b, ok ? "\"ok\":true" : "\"ok\":false");
	return ret;
}

/* ,"key":"string" (nothing when @s is NULL) */
static int proto_reply_json_kv(struct proto_buf *b, const char *key, const char *s)
{
	int ret;

	if (!s)
		return 0;
	ret = proto_buf_printf(b, ",\"%s\":", key);
	if (!ret)
		ret = proto_buf_json_str(b, s, strlen(s));
	return ret;
}

/* A listing field on a text line: blank-free, "-" when absent or empty. */
static int proto_reply_text_field(struct proto_buf *b, const char *s)
{
	int ret = proto_buf_append(b, " ", 1);

	if (!ret)
		ret = proto_buf_text(b, s, s ? strlen(s) : 0, true);
	return ret;
}

/* Finish: JSON closes the object; both end the line. Rolls back on error. */
int proto_reply_finish(struct proto_buf *b, const struct proto_request *req, int ret,
		       size_t start)
{
	if (!ret && proto_reply_is_json(req))
		ret = proto_buf_append(b, "}", 1);
	if (!ret)
		ret = proto_buf_append(b, "\n", 1);
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}

/* A message cut to PROTO_MSG_MAX_BYTES - 1 bytes, on a UTF-8 boundary. */
static size_t proto_reply_msg_len(const char *msg)
{
	size_t n = strlen(msg);

	if (n < PROTO_MSG_MAX_BYTES)
		return n;
	n = PROTO_MSG_MAX_BYTES - 1;
	while (n > 0 && ((unsigned char)msg[n] & 0xc0) == 0x80)
		n--;
	return n;
}

int proto_reply_ok(struct proto_buf *b, const struct proto_request *req)
{
	size_t start = b->len;

	return proto_reply_finish(b, req, proto_reply_head(b, req, true), start);
}

/* "OK <value>" / ..,"value":".."; the caller finishes the line. */
static int proto_reply_value_head(struct proto_buf *b, const struct proto_request *req,
				  const char *value, size_t len)
{
	int ret;

	if (len && value[len - 1] == '\n')
		len--;
	ret = proto_reply_head(b, req, true);
	if (ret)
		return ret;
	if (proto_reply_is_json(req)) {
		ret = proto_buf_str(b, ",\"value\":");
		if (!ret)
			ret = proto_buf_json_str(b, value, len);
	} else if (len) {
		ret = proto_buf_append(b, " ", 1);
		if (!ret)
			ret = proto_buf_text(b, value, len, false);
	}
	return ret;
}

int proto_reply_value(struct proto_buf *b, const struct proto_request *req,
		      const char *value, size_t len)
{
	size_t start = b->len;

	return proto_reply_finish(b, req, proto_reply_value_head(b, req, value, len), start);
}

int proto_reply_iio_value(struct proto_buf *b, const struct proto_request *req,
			  const char *value, size_t len, int type, int val, int val2)
{
	size_t start = b->len;
	int ret;

	ret = proto_reply_value_head(b, req, value, len);
	/* val and val2 mean nothing without a format a client can name */
	if (!ret && proto_reply_is_json(req) && iio_val_type_name(type)) {
		ret = proto_buf_printf(b, ",\"val\":%d,\"val2\":%d", val, val2);
		if (!ret)
			ret = proto_reply_json_kv(b, "format", iio_val_type_name(type));
	}
	return proto_reply_finish(b, req, ret, start);
}

int proto_reply_error(struct proto_buf *b, const struct proto_request *req, int err,
		      const char *msg)
{
	const char *name = proto_errno_name(err);
	size_t start = b->len, n;
	int ret;

	if (!name) {
		name = proto_errno_name(-EIO);
		err = -EIO;
	}
	if (!msg || !msg[0])
		msg = proto_errno_message(err);
	n = proto_reply_msg_len(msg);
	ret = proto_reply_head(b, req, false);
	if (ret)
		goto out;
	if (proto_reply_is_json(req)) {
		ret = proto_buf_printf(b, ",\"error\":\"%s\",\"message\":", name);
		if (!ret)
			ret = proto_buf_json_str(b, msg, n);
	} else {
		ret = proto_buf_printf(b, " %s ", name);
		if (!ret)
			ret = proto_buf_text(b, msg, n, false);
	}
out:
	return proto_reply_finish(b, req, ret, start);
}

int proto_reply_version(struct proto_buf *b, const struct proto_request *req,
			const char *release)
{
	size_t start = b->len;
	struct proto_buf text;
	int ret;

	proto_buf_init(&text);
	ret = proto_buf_printf(&text, "iiowire %s proto %d.%d", release, PROTO_VERSION_MAJOR,
			       PROTO_VERSION_MINOR);
	if (!ret)
		ret = proto_reply_value_head(b, req, text.data, text.len);
	if (!ret && proto_reply_is_json(req)) {
		ret = proto_reply_json_kv(b, "release", release);
		if (!ret)
			ret = proto_buf_printf(b, ",\"proto_major\":%d,\"proto_minor\":%d",
					       PROTO_VERSION_MAJOR, PROTO_VERSION_MINOR);
	}
	proto_buf_fini(&text);
	return proto_reply_finish(b, req, ret, start);
}

int proto_reply_help(struct proto_buf *b, const struct proto_request *req)
{
	const struct proto_op_row *row;
	bool json = proto_reply_is_json(req);
	size_t start = b->len;
	struct proto_buf line;
	int op, ret;

	proto_buf_init(&line);
	ret = proto_reply_head(b, req, true);
	if (!ret)
		ret = json ? proto_buf_str(b, ",\"help\":[") :
			     proto_buf_printf(b, " %d\n", PROTO_OP_COUNT - 1);
	for (op = PROTO_OP_NONE + 1; !ret && op < PROTO_OP_COUNT; op++) {
		row = proto_op_row(op);
		line.len = 0;
		ret = proto_buf_printf(&line, "%s -- %s", row->usage, row->summary);
		if (ret)
			break;
		if (json) {
			if (op > PROTO_OP_NONE + 1)
				ret = proto_buf_append(b, ",", 1);
			if (!ret)
				ret = proto_buf_json_str(b, line.data, line.len);
		} else {
			ret = proto_buf_append(b, line.data, line.len);
			/* the last line's LF comes from proto_reply_finish() */
			if (!ret && op < PROTO_OP_COUNT - 1)
				ret = proto_buf_append(b, "\n", 1);
		}
	}
	if (!ret && json)
		ret = proto_buf_append(b, "]", 1);
	proto_buf_fini(&line);
	return proto_reply_finish(b, req, ret, start);
}

/* {"id":..,"name":..,"label":..,"hwid":..[,"channels":n][,"attrs":n]} */
static int proto_reply_device_json(struct proto_buf *b, const struct proto_device_info *dev)
{
	int ret;

	ret = proto_buf_str(b, "{\"id\":");
	if (!ret)
		ret = proto_buf_json_str(b, dev->id ? dev->id : "", dev->id ? strlen(dev->id) : 0);
	if (!ret)
		ret = proto_reply_json_kv(b, "name", dev->name);
	if (!ret)
		ret = proto_reply_json_kv(b, "label", dev->label);
	if (!ret)
		ret = proto_reply_json_kv(b, "hwid", dev->hwid && dev->hwid[0] ? dev->hwid : NULL);
	if (!ret && dev->num_channels >= 0)
		ret = proto_buf_printf(b, ",\"channels\":%d", dev->num_channels);
	if (!ret && dev->num_attrs >= 0)
		ret = proto_buf_printf(b, ",\"attrs\":%d", dev->num_attrs);
	if (!ret)
		ret = proto_buf_append(b, "}", 1);
	return ret;
}

/* "key value" line of DEVICE/STATS; the value keeps its blanks */
int proto_reply_kv_line(struct proto_buf *b, const char *key, const char *value)
{
	int ret = proto_buf_printf(b, "\n%s ", key);

	if (!ret)
		ret = proto_buf_text(b, value, strlen(value), false);
	return ret;
}

int proto_reply_device(struct proto_buf *b, const struct proto_request *req,
		       const struct proto_device_info *dev)
{
	size_t start = b->len;
	char num[2][16];
	int ret, n;

	ret = proto_reply_head(b, req, true);
	if (ret)
		goto out;
	if (proto_reply_is_json(req)) {
		ret = proto_buf_str(b, ",\"device\":");
		if (!ret)
			ret = proto_reply_device_json(b, dev);
		goto out;
	}
	n = 2 + !!dev->label + !!(dev->hwid && dev->hwid[0]) + (dev->num_channels >= 0) +
	    (dev->num_attrs >= 0);
	snprintf(num[0], sizeof(num[0]), "%d", dev->num_channels);
	snprintf(num[1], sizeof(num[1]), "%d", dev->num_attrs);
	/* lines are "\n"-led so that the last one's LF is the finish's */
	ret = proto_buf_printf(b, " %d", n);
	if (!ret)
		ret = proto_reply_kv_line(b, "id", dev->id ? dev->id : "");
	if (!ret)
		ret = proto_reply_kv_line(b, "name", dev->name ? dev->name : "");
	if (!ret && dev->label)
		ret = proto_reply_kv_line(b, "label", dev->label);
	if (!ret && dev->hwid && dev->hwid[0])
		ret = proto_reply_kv_line(b, "hwid", dev->hwid);
	if (!ret && dev->num_channels >= 0)
		ret = proto_reply_kv_line(b, "channels", num[0]);
	if (!ret && dev->num_attrs >= 0)
		ret = proto_reply_kv_line(b, "attrs", num[1]);
out:
	return proto_reply_finish(b, req, ret, start);
}

int proto_reply_stats(struct proto_buf *b, const struct proto_request *req,
		      const struct proto_stat *stats, int n)
{
	bool json = proto_reply_is_json(req);
	size_t start = b->len;
	int i, ret;

	ret = proto_reply_head(b, req, true);
	if (!ret)
		ret = json ? proto_buf_str(b, ",\"stats\":{") : proto_buf_printf(b, " %d", n);
	for (i = 0; !ret && i < n; i++) {
		if (json) {
			ret = proto_buf_str(b, i ? "," : "");
			if (!ret)
				ret = proto_buf_json_str(b, stats[i].name, strlen(stats[i].name));
			if (!ret)
				ret = proto_buf_printf(b, ":%" PRId64, stats[i].value);
		} else {
			ret = proto_buf_str(b, "\n");
			if (!ret)
				ret = proto_buf_text(b, stats[i].name, strlen(stats[i].name), true);
			if (!ret)
				ret = proto_buf_printf(b, " %" PRId64, stats[i].value);
		}
	}
	if (!ret && json)
		ret = proto_buf_append(b, "}", 1);
	return proto_reply_finish(b, req, ret, start);
}

/* ------------------------------------------------------------------------ */
/* Listings                                                                 */
/* ------------------------------------------------------------------------ */

int proto_list_begin(struct proto_buf *b, const struct proto_request *req, int n)
{
	const struct proto_op_row *row = req ? proto_op_row(req->op) : NULL;
	size_t start = b->len;
	int ret;

	if (!row || !row->list_key || n < 0 || req->op == PROTO_OP_DEVICE ||
	    req->op == PROTO_OP_STATS || req->op == PROTO_OP_HELP)
		return -EINVAL;
	ret = proto_reply_head(b, req, true);
	if (!ret)
		ret = proto_reply_is_json(req) ? proto_buf_printf(b, ",\"%s\":[", row->list_key) :
						 proto_buf_printf(b, " %d\n", n);
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}

int proto_list_end(struct proto_buf *b, const struct proto_request *req)
{
	return proto_reply_is_json(req) ? proto_buf_append(b, "]}\n", 3) : 0;
}

/* Opens item @i: a comma between JSON objects. */
static int proto_list_item_start(struct proto_buf *b, const struct proto_request *req, int i)
{
	if (proto_reply_is_json(req))
		return proto_buf_str(b, i ? ",{" : "{");
	return 0;
}

static int proto_list_item_end(struct proto_buf *b, const struct proto_request *req, int ret,
			       size_t start)
{
	if (!ret)
		ret = proto_buf_str(b, proto_reply_is_json(req) ? "}" : "\n");
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}

int proto_list_device(struct proto_buf *b, const struct proto_request *req, int i,
		      const struct proto_device_info *dev)
{
	size_t start = b->len;
	int ret;

	if (proto_reply_is_json(req)) {
		ret = proto_buf_str(b, i ? "," : "");
		if (!ret)
			ret = proto_reply_device_json(b, dev);
		if (ret)
			proto_buf_truncate(b, start);
		return ret;
	}
	ret = proto_buf_text(b, dev->id, dev->id ? strlen(dev->id) : 0, true);
	if (!ret)
		ret = proto_reply_text_field(b, dev->name);
	if (!ret)
		ret = proto_reply_text_field(b, dev->hwid);
	if (!ret)
		ret = proto_reply_text_field(b, dev->label);
	return proto_list_item_end(b, req, ret, start);
}

static const char *proto_attr_mode_name(unsigned int mode)
{
	static const char *const names[4] = { "-", "r", "w", "rw" };

	return names[mode & (PROTO_ATTR_R | PROTO_ATTR_W)];
}

int proto_list_attr(struct proto_buf *b, const struct proto_request *req, int i,
		    const struct proto_attr_info *attr)
{
	size_t start = b->len;
	int ret;

	ret = proto_list_item_start(b, req, i);
	if (ret)
		goto out;
	if (proto_reply_is_json(req)) {
		ret = proto_buf_str(b, "\"name\":");
		if (!ret)
			ret = proto_buf_json_str(b, attr->name, strlen(attr->name));
		if (!ret)
			ret = proto_buf_printf(b, ",\"mode\":\"%s\"",
					       proto_attr_mode_name(attr->mode));
	} else {
		ret = proto_buf_text(b, attr->name, strlen(attr->name), true);
		if (!ret)
			ret = proto_reply_text_field(b, proto_attr_mode_name(attr->mode));
	}
out:
	return proto_list_item_end(b, req, ret, start);
}

static int proto_list_channel_json(struct proto_buf *b, const struct proto_channel_info *ch)
{
	int ret, k;

	ret = proto_buf_str(b, "\"type\":");
	if (!ret)
		ret = proto_buf_json_str(b, ch->type ? ch->type : "",
					 ch->type ? strlen(ch->type) : 0);
	if (!ret && ch->index >= 0)
		ret = proto_buf_printf(b, ",\"index\":%d", ch->index);
	if (!ret)
		ret = proto_reply_json_kv(b, "modifier", ch->modifier);
	if (!ret)
		ret = proto_reply_json_kv(b, "datasheet_name", ch->datasheet_name);
	if (!ret)
		ret = proto_buf_printf(b, ",\"output\":%s,\"differential\":%s",
				       ch->output ? "true" : "false",
				       ch->differential ? "true" : "false");
	if (!ret && ch->differential)
		ret = proto_buf_printf(b, ",\"index2\":%d", ch->index2);
	if (!ret)
		ret = proto_buf_str(b, ",\"attributes\":[");
	for (k = 0; !ret && k < ch->nattrs; k++) {
		if (k)
			ret = proto_buf_append(b, ",", 1);
		if (!ret)
			ret = proto_buf_json_str(b, ch->attrs[k], strlen(ch->attrs[k]));
	}
	if (!ret)
		ret = proto_buf_append(b, "]", 1);
	return ret;
}

static int proto_list_channel_text(struct proto_buf *b, const struct proto_channel_info *ch)
{
	char num[16];
	int ret, k;

	ret = proto_buf_text(b, ch->type, ch->type ? strlen(ch->type) : 0, true);
	snprintf(num, sizeof(num), "%d", ch->index);
	if (!ret)
		ret = proto_reply_text_field(b, ch->index >= 0 ? num : NULL);
	if (!ret)
		ret = proto_reply_text_field(b, ch->modifier);
	if (!ret)
		ret = proto_reply_text_field(b, ch->datasheet_name);
	if (!ret)
		ret = proto_reply_text_field(b, ch->output ? "out" : "in");
	snprintf(num, sizeof(num), "%d", ch->index2);
	if (!ret)
		ret = proto_reply_text_field(b, ch->differential ? num : NULL);
	if (!ret)
		ret = proto_buf_append(b, " ", 1);
	if (!ret && !ch->nattrs)
		ret = proto_buf_append(b, "-", 1);
	/* attribute names never hold commas: the kernel builds them from [a-z0-9_] */
	for (k = 0; !ret && k < ch->nattrs; k++) {
		if (k)
			ret = proto_buf_append(b, ",", 1);
		if (!ret)
			ret = proto_buf_text(b, ch->attrs[k], strlen(ch->attrs[k]), true);
	}
	return ret;
}

int proto_list_channel(struct proto_buf *b, const struct proto_request *req, int i,
		       const struct proto_channel_info *chan)
{
	size_t start = b->len;
	int ret;

	ret = proto_list_item_start(b, req, i);
	if (!ret)
		ret = proto_reply_is_json(req) ? proto_list_channel_json(b, chan) :
						 proto_list_channel_text(b, chan);
	return proto_list_item_end(b, req, ret, start);
}

/* Up to five named optional strings as a JSON object body or a text line. */
static int proto_list_fields(struct proto_buf *b, const struct proto_request *req,
			     const char *const *keys, const char *const *vals, int n)
{
	bool json = proto_reply_is_json(req), first = true;
	int k, ret = 0;

	for (k = 0; !ret && k < n; k++) {
		if (json) {
			if (!vals[k])
				continue;
			ret = proto_buf_printf(b, "%s\"%s\":", first ? "" : ",", keys[k]);
			if (!ret)
				ret = proto_buf_json_str(b, vals[k], strlen(vals[k]));
			first = false;
		} else if (k) {
			ret = proto_reply_text_field(b, vals[k]);
		} else {
			ret = proto_buf_text(b, vals[k], vals[k] ? strlen(vals[k]) : 0, true);
		}
	}
	return ret;
}

int proto_list_map(struct proto_buf *b, const struct proto_request *req, int i,
		   const struct proto_map_info *map)
{
	static const char *const keys[] = {
		"consumer", "channel", "device", "datasheet_name", "provider"
	};
	const char *vals[] = {
		map->consumer, map->channel, map->device, map->datasheet_name, map->provider
	};
	size_t start = b->len;
	int ret;

	ret = proto_list_item_start(b, req, i);
	if (!ret)
		ret = proto_list_fields(b, req, keys, vals, 5);
	return proto_list_item_end(b, req, ret, start);
}

int proto_list_consumer(struct proto_buf *b, const struct proto_request *req, int i,
			const struct proto_consumer_info *cc)
{
	static const char *const keys[] = { "channel", "device", "datasheet_name", "type" };
	const char *vals[] = { cc->channel, cc->device, cc->datasheet_name, cc->type };
	size_t start = b->len;
	int ret;

	ret = proto_list_item_start(b, req, i);
	if (!ret)
		ret = proto_list_fields(b, req, keys, vals, 4);
	return proto_list_item_end(b, req, ret, start);
}

/* ------------------------------------------------------------------------ */
/* Events                                                                   */
/* ------------------------------------------------------------------------ */

static int proto_event_json(struct proto_buf *b, const struct proto_event *ev)
{
	const char *name, *msg;
	size_t len;
	int ret;

	ret = proto_buf_str(b, "{\"event\":{\"device\":");
	if (!ret)
		ret = proto_buf_json_str(b, ev->device, strlen(ev->device));
	if (!ret)
		ret = proto_reply_json_kv(b, "attr", ev->attr);
	if (!ret && !ev->err) {
		len = ev->value ? strlen(ev->value) : 0;
		if (len && ev->value[len - 1] == '\n')
			len--;
		ret = proto_buf_str(b, ",\"value\":");
		if (!ret)
			ret = proto_buf_json_str(b, ev->value ? ev->value : "", len);
	} else if (!ret) {
		name = proto_errno_name(ev->err) ? proto_errno_name(ev->err) : "EIO";
		msg = ev->message && ev->message[0] ? ev->message : proto_errno_message(ev->err);
		if (!msg)
			msg = proto_errno_message(-EIO);
		ret = proto_buf_printf(b, ",\"error\":\"%s\",\"message\":", name);
		if (!ret)
			ret = proto_buf_json_str(b, msg, proto_reply_msg_len(msg));
	}
	if (!ret)
		ret = proto_buf_printf(b, ",\"timestamp_ns\":%" PRIu64 "}}\n", ev->timestamp_ns);
	return ret;
}

static int proto_event_text(struct proto_buf *b, const struct proto_event *ev)
{
	const char *name, *msg;
	size_t len;
	int ret;

	ret = proto_buf_str(b, ev->err ? "EVENTERR" : "EVENT");
	if (!ret)
		ret = proto_reply_text_field(b, ev->device);
	if (!ret)
		ret = proto_reply_text_field(b, ev->attr);
	if (ret)
		return ret;
	if (!ev->err) {
		len = ev->value ? strlen(ev->value) : 0;
		if (len && ev->value[len - 1] == '\n')
			len--;
		ret = proto_buf_append(b, " ", 1);
		if (!ret && len)
			ret = proto_buf_text(b, ev->value, len, false);
		if (!ret)
			ret = proto_buf_printf(b, " %" PRIu64 "\n", ev->timestamp_ns);
		return ret;
	}
	name = proto_errno_name(ev->err) ? proto_errno_name(ev->err) : "EIO";
	msg = ev->message && ev->message[0] ? ev->message : proto_errno_message(ev->err);
	if (!msg)
		msg = proto_errno_message(-EIO);
	ret = proto_buf_printf(b, " %s %" PRIu64 " ", name, ev->timestamp_ns);
	if (!ret)
		ret = proto_buf_text(b, msg, proto_reply_msg_len(msg), false);
	if (!ret)
		ret = proto_buf_append(b, "\n", 1);
	return ret;
}

int proto_event_encode(struct proto_buf *b, bool json, const struct proto_event *ev)
{
	size_t start = b->len;
	int ret;

	if (!ev->device || !ev->attr)
		return -EINVAL;
	ret = json ? proto_event_json(b, ev) : proto_event_text(b, ev);
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}
