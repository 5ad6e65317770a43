/*
 * proto_stream.c - the stream replies and pushed lines of PROTOCOL.md's
 * STREAM section: the STREAM/CSTREAM reply, STREAMS items, a block's
 * header line, decoded values (csv lines, JSON arrays) and STREAMEND.
 *
 * A block is one header line a person with nc can read, then exactly the
 * byte count it gives (gpsd's and redis's habit of self-describing frames);
 * only a JSON stream's json-format block is a single line with its values.
 * Pure encoders: the server owns the bytes and when they go out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "proto_priv.h"

static int proto_stream_json_obj(struct proto_buf *b, const struct proto_stream_info *st,
				 bool list)
{
	int i, ret;

	ret = proto_buf_printf(b, list ? "\"stream\":%d,\"device\":" : "{\"id\":%d,\"device\":",
			       st->id);
	if (!ret)
		ret = proto_buf_json_str(b, st->device, strlen(st->device));
	if (!ret)
		ret = proto_buf_str(b, ",\"trigger\":");
	if (!ret)
		ret = proto_buf_json_str(b, st->trigger, strlen(st->trigger));
	if (!ret)
		ret = proto_buf_printf(b, ",\"scans\":%d,\"format\":\"%s\"", st->scans,
				       proto_format_name(st->format));
	if (!ret && !list)
		ret = proto_buf_printf(b, ",\"scan_bytes\":%d", st->scan_bytes);
	if (!ret)
		ret = proto_buf_str(b, ",\"channels\":[");
	for (i = 0; !ret && i < st->nchans; i++) {
		const struct proto_stream_chan *c = &st->chans[i];

		ret = proto_buf_str(b, i ? "," : "");
		if (!ret && list) {
			ret = proto_buf_json_str(b, c->channel, strlen(c->channel));
			continue;
		}
		if (!ret)
			ret = proto_buf_str(b, "{\"channel\":");
		if (!ret)
			ret = proto_buf_json_str(b, c->channel, strlen(c->channel));
		if (!ret)
			ret = proto_buf_printf(b, ",\"index\":%d,\"offset\":%d,\"type\":", c->index,
					       c->offset);
		if (!ret)
			ret = proto_buf_json_str(b, c->type, strlen(c->type));
		if (!ret)
			ret = proto_buf_str(b, "}");
	}
	if (!ret)
		ret = proto_buf_str(b, "]");
	if (!ret && list)
		ret = proto_buf_printf(b, ",\"delivered\":%" PRIu64 ",\"lost\":%" PRIu64,
				       st->delivered, st->lost);
	if (!ret && !list)
		ret = proto_buf_str(b, "}");
	return ret;
}

static int proto_stream_text_kv(struct proto_buf *b, const struct proto_stream_info *st)
{
	char num[3][16];
	int i, ret;

	snprintf(num[0], sizeof(num[0]), "%d", st->id);
	snprintf(num[1], sizeof(num[1]), "%d", st->scans);
	snprintf(num[2], sizeof(num[2]), "%d", st->scan_bytes);
	ret = proto_buf_printf(b, " %d", 6 + st->nchans);
	if (!ret)
		ret = proto_reply_kv_line(b, "stream", num[0]);
	if (!ret)
		ret = proto_reply_kv_line(b, "device", st->device);
	if (!ret)
		ret = proto_reply_kv_line(b, "trigger", st->trigger);
	if (!ret)
		ret = proto_reply_kv_line(b, "scans", num[1]);
	if (!ret)
		ret = proto_reply_kv_line(b, "format", proto_format_name(st->format));
	if (!ret)
		ret = proto_reply_kv_line(b, "scan_bytes", num[2]);
	for (i = 0; !ret && i < st->nchans; i++) {
		ret = proto_buf_str(b, "\nchannel ");
		if (!ret)
			ret = proto_buf_text(b, st->chans[i].channel, strlen(st->chans[i].channel),
					     true);
		if (!ret)
			ret = proto_buf_printf(b, " %d %d ", st->chans[i].index,
					       st->chans[i].offset);
		if (!ret)
			ret = proto_buf_text(b, st->chans[i].type, strlen(st->chans[i].type), true);
	}
	return ret;
}

int proto_reply_stream(struct proto_buf *b, const struct proto_request *req,
		       const struct proto_stream_info *st)
{
	size_t start = b->len;
	int ret;

	ret = proto_reply_head(b, req, true);
	if (!ret && proto_reply_is_json(req)) {
		ret = proto_buf_str(b, ",\"stream\":");
		if (!ret)
			ret = proto_stream_json_obj(b, st, false);
	} else if (!ret) {
		ret = proto_stream_text_kv(b, st);
	}
	return proto_reply_finish(b, req, ret, start);
}

int proto_list_stream(struct proto_buf *b, const struct proto_request *req, int i,
		      const struct proto_stream_info *st)
{
	size_t start = b->len;
	int k, ret;

	if (proto_reply_is_json(req)) {
		ret = proto_buf_str(b, i ? ",{" : "{");
		if (!ret)
			ret = proto_stream_json_obj(b, st, true);
		if (!ret)
			ret = proto_buf_str(b, "}");
	} else {
		ret = proto_buf_printf(b, "%d ", st->id);
		if (!ret)
			ret = proto_buf_text(b, st->device, strlen(st->device), true);
		if (!ret)
			ret = proto_buf_str(b, " ");
		if (!ret)
			ret = proto_buf_text(b, st->trigger, strlen(st->trigger), true);
		if (!ret)
			ret = proto_buf_printf(b, " %d %s ", st->scans,
					       proto_format_name(st->format));
		for (k = 0; !ret && k < st->nchans; k++) {
			ret = proto_buf_str(b, k ? "," : "");
			if (!ret)
				ret = proto_buf_text(b, st->chans[k].channel,
						     strlen(st->chans[k].channel), true);
		}
		if (!ret)
			ret = proto_buf_printf(b, " %" PRIu64 " %" PRIu64 "\n", st->delivered,
					       st->lost);
	}
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}

/* The decimal digits of @v, written backwards to end at @end: where they start. */
static char *proto_stream_dec(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/*
 * "BLOCK stream scans bytes lost\n" without printf: the line heads every
 * block, and a kernel device's stream of 2 KiB blocks spent 6 % of its
 * samples in proto_buf_printf()'s two vsnprintf calls (bench/RESULTS.md).
 */
static int proto_block_line(struct proto_buf *b, int stream, int scans, size_t bytes,
			    uint64_t lost)
{
	char line[sizeof("BLOCK ") + 4 * 21], *p = line + sizeof(line);

	*--p = '\n';
	p = proto_stream_dec(p, lost);
	*--p = ' ';
	p = proto_stream_dec(p, bytes);
	*--p = ' ';
	p = proto_stream_dec(p, (uint64_t)scans);
	*--p = ' ';
	p = proto_stream_dec(p, (uint64_t)stream);
	p -= strlen("BLOCK ");
	memcpy(p, "BLOCK ", strlen("BLOCK "));
	return proto_buf_append(b, p, (size_t)(line + sizeof(line) - p));
}

int proto_block_head(struct proto_buf *b, bool json, int stream, int scans, size_t bytes,
		     uint64_t lost, enum proto_format format)
{
	/* JSON names the payload's format: a WebSocket sends raw as binary, csv as text (W-7) */
	if (json)
		return proto_buf_printf(b, "{\"block\":{\"stream\":%d,\"scans\":%d,\"bytes\":%zu,"
					"\"lost\":%" PRIu64 ",\"format\":\"%s\"}}\n", stream, scans,
					bytes, lost, proto_format_name(format));
	if (stream < 0 || scans < 0)	/* never from the server; printf's spelling then */
		return proto_buf_printf(b, "BLOCK %d %d %zu %" PRIu64 "\n", stream, scans, bytes,
					lost);
	return proto_block_line(b, stream, scans, bytes, lost);
}

int proto_block_values(struct proto_buf *b, bool csv, const int64_t *vals, int scans, int n)
{
	size_t start = b->len;
	int s, k, ret = 0;

	if (!csv)
		ret = proto_buf_str(b, "[");
	for (s = 0; !ret && s < scans; s++) {
		if (!csv)
			ret = proto_buf_str(b, s ? ",[" : "[");
		for (k = 0; !ret && k < n; k++)
			ret = proto_buf_printf(b, k ? ",%" PRId64 : "%" PRId64, vals[s * n + k]);
		if (!ret)
			ret = proto_buf_str(b, csv ? "\n" : "]");
	}
	if (!ret && !csv)
		ret = proto_buf_str(b, "]");
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}

int proto_block_json(struct proto_buf *b, int stream, int scans, uint64_t lost,
		     const int64_t *vals, int n)
{
	size_t start = b->len;
	int ret;

	ret = proto_buf_printf(b, "{\"block\":{\"stream\":%d,\"scans\":%d,\"lost\":%" PRIu64
			       ",\"values\":", stream, scans, lost);
	if (!ret)
		ret = proto_block_values(b, false, vals, scans, n);
	if (!ret)
		ret = proto_buf_str(b, "}}\n");
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}

int proto_streamend_encode(struct proto_buf *b, bool json, int stream, int err, const char *msg)
{
	const char *name = proto_errno_name(err);
	size_t start = b->len;
	int ret;

	if (!name)
		name = "EIO";
	if (!msg)
		msg = "";
	if (json) {
		ret = proto_buf_printf(b, "{\"streamend\":{\"stream\":%d,\"error\":\"%s\","
				       "\"message\":", stream, name);
		if (!ret)
			ret = proto_buf_json_str(b, msg, strlen(msg));
		if (!ret)
			ret = proto_buf_str(b, "}}\n");
	} else {
		ret = proto_buf_printf(b, "STREAMEND %d %s ", stream, name);
		if (!ret)
			ret = proto_buf_text(b, msg, strlen(msg), false);
		if (!ret)
			ret = proto_buf_str(b, "\n");
	}
	if (ret)
		proto_buf_truncate(b, start);
	return ret;
}
