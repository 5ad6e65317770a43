/*
 * proto_stream_decode.c - the client's side of streams (PROTOCOL.md, "STREAM,
 * CSTREAM, UNSTREAM, STREAMS and blocks"): the stream object of a STREAM or
 * CSTREAM reply, and the lines that come between replies on a streaming
 * connection (block headers S-4 and STREAMEND S-7, in both spellings).
 * The requests are proto_request_encode()'s; the server's side is
 * proto_stream.c.
 *
 * Place in the flow: server -> wire -> *protocol* -> libiiowire's stream.c.
 * Pure code like the rest of protocol/: no sockets, no payload bytes (the
 * caller reads the <bytes> that follow a header itself). Everything decoded
 * lives in the struct proto_reply's arena until proto_reply_fini(). The
 * decoder does not trust the server: types, ranges and counts are checked.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "proto_priv.h"

/* A JSON integer member in [lo, hi]. Return: 0, or -EPROTO (missing when @need). */
static int proto_stream_jnum(const cJSON *o, const char *key, int64_t lo, int64_t hi,
			     bool need, int64_t *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!it)
		return need ? -EPROTO : 0;
	if (!cJSON_IsNumber(it) || it->valuedouble != floor(it->valuedouble) ||
	    it->valuedouble < (double)lo || it->valuedouble > (double)hi)
		return -EPROTO;
	*out = (int64_t)it->valuedouble;
	return 0;
}

/* A JSON string member copied into @r's arena. Return: 0, -EPROTO (missing when @need), -ENOMEM. */
static int proto_stream_jstr(struct proto_reply *r, const cJSON *o, const char *key, bool need,
			     const char **out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = NULL;
	if (!it)
		return need ? -EPROTO : 0;
	if (!cJSON_IsString(it) || !it->valuestring)
		return -EPROTO;
	*out = proto_reply_dup(r, it->valuestring, strlen(it->valuestring));
	return *out ? 0 : -ENOMEM;
}

/* One member of the reply's "channels": channel, index, offset, type. */
static int proto_stream_chan_decode(struct proto_reply *r, const cJSON *o, int scan_bytes,
				    struct proto_stream_chan *ch)
{
	int64_t index = -1, offset = -1;
	int ret;

	if (!cJSON_IsObject(o))
		return -EPROTO;
	ret = proto_stream_jstr(r, o, "channel", true, &ch->channel);
	if (!ret)
		ret = proto_stream_jstr(r, o, "type", true, &ch->type);
	if (!ret)
		ret = proto_stream_jnum(o, "index", -1, INT_MAX, true, &index);
	if (!ret)
		ret = proto_stream_jnum(o, "offset", 0, scan_bytes - 1, true, &offset);
	ch->index = (int)index;
	ch->offset = (int)offset;
	return ret;
}

/* The reply's "stream" object into @info. */
static int proto_stream_info_decode(struct proto_reply *r, const cJSON *st,
				    struct proto_stream_info *info)
{
	struct proto_stream_chan *out;
	const cJSON *chans, *c;
	const char *format;
	int64_t id = 0, scans = 0, bytes = 0;
	int ret, i = 0;

	if (!cJSON_IsObject(st))
		return -EPROTO;
	ret = proto_stream_jnum(st, "id", 1, INT_MAX, true, &id);
	if (!ret)
		ret = proto_stream_jnum(st, "scans", 1, INT_MAX, true, &scans);
	if (!ret)
		ret = proto_stream_jnum(st, "scan_bytes", 1, INT_MAX, true, &bytes);
	if (!ret)
		ret = proto_stream_jstr(r, st, "device", true, &info->device);
	if (!ret)
		ret = proto_stream_jstr(r, st, "trigger", true, &info->trigger);
	if (!ret)
		ret = proto_stream_jstr(r, st, "format", true, &format);
	if (ret)
		return ret;
	for (info->format = PROTO_FORMAT_RAW; info->format < PROTO_FORMAT_COUNT; info->format++)
		if (!strcmp(format, proto_format_name(info->format)))
			break;
	if (info->format == PROTO_FORMAT_COUNT)
		return -EPROTO;
	info->id = (int)id;
	info->scans = (int)scans;
	info->scan_bytes = (int)bytes;
	chans = cJSON_GetObjectItemCaseSensitive(st, "channels");
	if (!cJSON_IsArray(chans) || cJSON_GetArraySize(chans) < 1)
		return -EPROTO;
	info->nchans = cJSON_GetArraySize(chans);
	out = proto_arena_alloc(r->arena, (size_t)info->nchans * sizeof(*out));
	if (!out)
		return -ENOMEM;
	info->chans = out;
	cJSON_ArrayForEach(c, chans) {
		ret = proto_stream_chan_decode(r, c, info->scan_bytes, &out[i++]);
		if (ret)
			return ret;
	}
	return 0;
}

int proto_stream_reply_decode(struct proto_reply *r, struct proto_stream_info *info,
			      const char *line, size_t len, char *err, size_t errlen)
{
	cJSON *root;
	int ret;

	memset(info, 0, sizeof(*info));
	ret = proto_reply_decode(r, PROTO_OP_NONE, line, len, err, errlen);
	if (ret < 0 || r->kind != PROTO_REPLY_OK || !r->json)
		return ret < 0 ? ret : 0;
	root = cJSON_ParseWithLength(line, len);
	if (!root)
		return proto_reply_bad(err, errlen, "malformed JSON");
	ret = proto_stream_info_decode(r, cJSON_GetObjectItemCaseSensitive(root, "stream"), info);
	cJSON_Delete(root);
	if (ret == -EPROTO)
		return proto_reply_bad(err, errlen, "stream object");
	return ret;
}

/* {"block":{...}}: stream, scans, lost, and bytes or (json format) values. */
static int proto_stream_json_block(struct proto_reply *r, const cJSON *o,
				   struct proto_stream_line *l)
{
	int64_t stream = 0, scans = 0, lost = 0, bytes = -1;
	const cJSON *values;
	char *text;
	int ret;

	if (!cJSON_IsObject(o))
		return -EPROTO;
	ret = proto_stream_jnum(o, "stream", 1, INT_MAX, true, &stream);
	if (!ret)
		ret = proto_stream_jnum(o, "scans", 0, INT_MAX, true, &scans);
	if (!ret)
		ret = proto_stream_jnum(o, "lost", 0, INT64_MAX / 2, true, &lost);
	if (!ret)
		ret = proto_stream_jnum(o, "bytes", 0, INT_MAX, false, &bytes);
	if (ret)
		return ret;
	l->kind = PROTO_STREAM_BLOCK;
	l->stream = (int)stream;
	l->scans = (int)scans;
	l->lost = (uint64_t)lost;
	l->bytes = bytes < 0 ? 0 : (size_t)bytes;
	values = cJSON_GetObjectItemCaseSensitive(o, "values");
	if (bytes >= 0 || !values)
		return bytes >= 0 ? 0 : -EPROTO;
	if (!cJSON_IsArray(values))
		return -EPROTO;
	text = cJSON_PrintUnformatted(values);
	if (!text)
		return -ENOMEM;
	l->values = proto_reply_dup(r, text, strlen(text));
	cJSON_free(text);
	return l->values ? 0 : -ENOMEM;
}

/* {"streamend":{"stream":N,"error":NAME,"message":...}} */
static int proto_stream_json_end(struct proto_reply *r, const cJSON *o,
				 struct proto_stream_line *l)
{
	int64_t stream = 0;
	int ret;

	if (!cJSON_IsObject(o))
		return -EPROTO;
	ret = proto_stream_jnum(o, "stream", 1, INT_MAX, true, &stream);
	if (!ret)
		ret = proto_stream_jstr(r, o, "error", true, &l->error_name);
	if (!ret)
		ret = proto_stream_jstr(r, o, "message", false, &l->message);
	if (ret)
		return ret;
	l->kind = PROTO_STREAM_END;
	l->stream = (int)stream;
	l->err = proto_errno_from_name(l->error_name);
	if (!l->err)
		l->err = -EPROTO;
	return 0;
}

static int proto_stream_line_json(struct proto_reply *r, struct proto_stream_line *l,
				  const char *line, size_t len)
{
	const cJSON *blk, *end;
	cJSON *root = cJSON_ParseWithLength(line, len);
	int ret = 0;

	if (!root)
		return -EPROTO;
	blk = cJSON_GetObjectItemCaseSensitive(root, "block");
	end = cJSON_GetObjectItemCaseSensitive(root, "streamend");
	if (blk)
		ret = proto_stream_json_block(r, blk, l);
	else if (end)
		ret = proto_stream_json_end(r, end, l);
	cJSON_Delete(root);
	return ret < 0 ? ret : l->kind != 0;
}

/* "BLOCK <stream> <scans> <bytes> <lost>" or "STREAMEND <stream> <NAME> <message>" */
static int proto_stream_line_text(struct proto_reply *r, struct proto_stream_line *l,
				  const char *line, size_t len)
{
	char *copy = proto_reply_dup(r, line, len), *f[5];
	const char *msg;
	unsigned long long lost;
	int n, v[3];

	if (!copy)
		return -ENOMEM;
	if (!strncmp(copy, "BLOCK ", 6)) {
		n = proto_reply_split(copy, f, 5);
		if (n != 5 || proto_reply_int(f[1], &v[0]) || proto_reply_int(f[2], &v[1]) ||
		    proto_reply_int(f[3], &v[2]) || v[0] < 1 || v[1] < 0 || v[2] < 0 ||
		    f[4][0] < '0' || f[4][0] > '9' || sscanf(f[4], "%llu", &lost) != 1)
			return -EPROTO;
		*l = (struct proto_stream_line){ .kind = PROTO_STREAM_BLOCK, .stream = v[0],
						 .scans = v[1], .bytes = (size_t)v[2],
						 .lost = lost };
		return 1;
	}
	if (strncmp(copy, "STREAMEND ", 10))
		return 0;
	n = proto_reply_split(copy, f, 3);
	if (n < 3 || proto_reply_int(f[1], &v[0]) || v[0] < 1)
		return -EPROTO;
	l->kind = PROTO_STREAM_END;
	l->stream = v[0];
	l->error_name = f[2];
	/* the message is the rest of the line after the third field, blanks kept */
	for (n = 0, msg = line; n < 3 && msg; n++) {
		msg = memchr(msg, ' ', len - (size_t)(msg - line));
		if (msg)
			msg++;
	}
	l->message = msg ? proto_reply_dup(r, msg, len - (size_t)(msg - line)) : NULL;
	l->err = proto_errno_from_name(f[2]);
	if (!l->err)
		l->err = -EPROTO;
	return 1;
}

int proto_stream_line_decode(struct proto_reply *r, struct proto_stream_line *l,
			     const char *line, size_t len, char *err, size_t errlen)
{
	int ret;

	memset(l, 0, sizeof(*l));
	if (!r->arena)
		r->arena = proto_arena_create();
	if (!r->arena)
		return -ENOMEM;
	if (proto_line_check(line, len, err, errlen))
		return -EPROTO;
	if (len && line[0] == '{')
		ret = proto_stream_line_json(r, l, line, len);
	else
		ret = proto_stream_line_text(r, l, line, len);
	if (ret == -EPROTO)
		return proto_reply_bad(err, errlen, "block or streamend line");
	return ret;
}
