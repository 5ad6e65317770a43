/*
 * stream.c - libiiowire's streams: open a STREAM or CSTREAM on a connection
 * of its own, read its blocks (blocking, or with a callback), decode its
 * records, close it.
 *
 * Place in the flow: wire -> conn.c -> *stream.c* (-> scan.c) -> your
 * program and `iiowire capture`. The stream's connection carries nothing
 * but the stream, as libiio's buffer sockets do: after the reply, every
 * line is a block header (its payload read as bytes) or the STREAMEND that
 * ends it, so binary payloads never meet the line-based request path of
 * request.c. Requests are encoded and lines decoded by protocol/
 * (proto_stream_decode.c). Scale and offset, for processed values, are read once
 * at open through the caller's connection: exactly through the consumer
 * API for a consumer's stream, as sysfs text for a device's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_value.h"
#include "iiowire_priv.h"
#include "iiowire_req.h"

/* The JSON id of the STREAM request on the stream's own connection. */
#define IIOWIRE_STREAM_REQ_ID	"1"

/* The public limits are the wire's. */
_Static_assert(IIOWIRE_STREAM_SCANS_MAX == PROTO_STREAM_SCANS_MAX, "scans per block");
_Static_assert(IIOWIRE_STREAM_CHANNELS_MAX == PROTO_STREAM_CHANNELS_MAX, "channels");

static const enum proto_format iiowire_stream_formats[] = {
	[IIOWIRE_STREAM_RAW] = PROTO_FORMAT_RAW,
	[IIOWIRE_STREAM_CSV] = PROTO_FORMAT_CSV,
	[IIOWIRE_STREAM_JSON] = PROTO_FORMAT_JSON,
};

struct iiowire_stream {
	struct iiowire *conn;		/* owned: the stream's connection */
	int id;				/* the daemon's stream number */
	int format;
	char *device;			/* owned, as is trigger */
	char *trigger;
	size_t scan_bytes;
	int nchans;
	struct iiowire_scan_channel *chans;	/* owned, names and types too */
	int ts_chan;			/* the timestamp's element, -1 without */
	int timeout_ms;
	int end_err;			/* 0 while the stream runs */
	bool have_header;		/* hdr is read, its payload not (all) yet */
	struct iiowire_block hdr;
	char *values;			/* owned: a JSON-spelled json block's values */
};

/* Free what @s owns (its connection included). */
static void iiowire_stream_free(struct iiowire_stream *s)
{
	int i;

	for (i = 0; s->chans && i < s->nchans; i++) {
		free((char *)s->chans[i].name);
		free((char *)s->chans[i].type);
	}
	free(s->chans);
	free(s->device);
	free(s->trigger);
	free(s->values);
	iiowire_close(s->conn);
	free(s);
}

/* Check @cfg before anything is sent. Return: the channel count, or -EINVAL. */
static int iiowire_stream_check(struct iiowire *w, const struct iiowire_stream_config *cfg)
{
	int n = 0;

	if (!cfg || !cfg->device == !cfg->consumer || cfg->scans > IIOWIRE_STREAM_SCANS_MAX ||
	    cfg->format < IIOWIRE_STREAM_RAW || cfg->format > IIOWIRE_STREAM_JSON) {
		iiowire_err_set(w, "stream: give a device or a consumer, 0..%d scans and a format",
				IIOWIRE_STREAM_SCANS_MAX);
		return -EINVAL;
	}
	while (cfg->channels && cfg->channels[n])
		if (++n > IIOWIRE_STREAM_CHANNELS_MAX) {
			iiowire_err_set(w, "stream: more than %d channels",
					IIOWIRE_STREAM_CHANNELS_MAX);
			return -EINVAL;
		}
	return n;
}

/* A connection of the stream's own: @w's address, timeout and token. Return: 0 or -errno. */
static int iiowire_stream_connect(struct iiowire *w, struct iiowire_stream *s)
{
	int ret;

	s->conn = iiowire_connect(w->addr.normal, w->timeout_ms);
	if (!s->conn) {
		ret = -errno;
		iiowire_err_set(w, "%s", iiowire_connect_errmsg());
		return ret;
	}
	if (w->token) {
		ret = iiowire_auth(s->conn, w->token);
		if (ret < 0) {
			iiowire_err_set(w, "%s", iiowire_errmsg(s->conn));
			return ret;
		}
	}
	return 0;
}

/* Encode @req (JSON, id IIOWIRE_STREAM_REQ_ID) and send it on @c. Return: 0 or -errno. */
static int iiowire_stream_send(struct iiowire *c, struct proto_request *req, int64_t deadline)
{
	struct proto_buf b;
	int ret;

	req->flags = PROTO_REQ_JSON;
	snprintf(req->id, sizeof(req->id), "%s", IIOWIRE_STREAM_REQ_ID);
	proto_buf_init(&b);
	ret = proto_request_encode(&b, req);
	if (!ret && b.len > PROTO_LINE_MAX_BYTES + 1)
		ret = -E2BIG;
	if (!ret)
		ret = iiowire_conn_send(c, b.data, b.len, deadline);
	proto_buf_fini(&b);
	return ret;
}

/* Send the STREAM/CSTREAM request on the stream's connection. Return: 0 or -errno. */
static int iiowire_stream_send_open(struct iiowire_stream *s,
				    const struct iiowire_stream_config *cfg, int nchannels,
				    int64_t deadline)
{
	struct proto_request req = {
		.op = cfg->device ? PROTO_OP_STREAM : PROTO_OP_CSTREAM, .device = cfg->device,
		.consumer = cfg->consumer, .trigger = cfg->trigger,
		.scans = cfg->scans ? (int)cfg->scans : 1,
		.format = iiowire_stream_formats[cfg->format], .nchannels = nchannels,
	};
	int i;

	for (i = 0; i < nchannels; i++)
		req.channels[i] = cfg->channels[i];
	return iiowire_stream_send(s->conn, &req, deadline);
}

/* Take the reply's channels: names, offsets and types, checked against the record. */
static int iiowire_stream_take_chans(struct iiowire_stream *s, const struct proto_stream_info *in)
{
	struct iiowire_scan_channel *ch;
	int i;

	s->chans = calloc((size_t)in->nchans, sizeof(*s->chans));
	if (!s->chans)
		return -ENOMEM;
	s->nchans = in->nchans;
	s->ts_chan = -1;
	for (i = 0; i < in->nchans; i++) {
		ch = &s->chans[i];
		ch->name = strdup(in->chans[i].channel);
		ch->type = strdup(in->chans[i].type);
		if (!ch->name || !ch->type)
			return -ENOMEM;
		ch->index = in->chans[i].index;
		ch->offset = in->chans[i].offset;
		if (iiowire_scan_type_parse(ch->type, ch) < 0 ||
		    (size_t)ch->offset + (size_t)ch->storagebits / 8 * (size_t)ch->repeat >
		    s->scan_bytes)
			return -EPROTO;
		if (!strcmp(ch->name, "timestamp") && ch->storagebits == 64)
			s->ts_chan = i;
	}
	return 0;
}

/* Copy the reply's stream object into @s. Return: 0, -EPROTO, -ENOMEM. */
static int iiowire_stream_take(struct iiowire_stream *s, const struct proto_stream_info *in,
			       int format)
{
	s->id = in->id;
	s->format = format;
	s->scan_bytes = (size_t)in->scan_bytes;
	s->device = strdup(in->device);
	s->trigger = strdup(in->trigger);
	if (!s->device || !s->trigger)
		return -ENOMEM;
	if (in->format != iiowire_stream_formats[format])
		return -EPROTO;
	return iiowire_stream_take_chans(s, in);
}

/*
 * A line a stream waits for: 1 when @line is the caller's (decoded into @r
 * and @out), 0 when it belongs to another request or stream, -errno when it
 * cannot be decoded (message in @msg).
 */
typedef int (*iiowire_stream_match_fn)(struct proto_reply *r, void *out, const char *line,
				       size_t len, char *msg, size_t msglen, long want);

/*
 * Read lines until @match takes one: replies, events and other streams'
 * blocks share the connection, so both the STREAM reply and each block
 * header are waited for this way. @r is left for proto_reply_fini() only on
 * success. @bad_line tells a decode error from a connection error.
 * Return: 0, or -errno.
 */
static int iiowire_stream_wait_line(struct iiowire *c, int64_t deadline,
				    iiowire_stream_match_fn match, long want,
				    struct proto_reply *r, void *out, char *msg,
				    size_t msglen, bool *bad_line)
{
	char *line;
	size_t len;
	int ret;

	*bad_line = false;
	for (;;) {
		ret = iiowire_conn_read_line(c, deadline, &line, &len);
		if (ret < 0)
			return ret;
		memset(r, 0, sizeof(*r));
		ret = match(r, out, line, len, msg, msglen, want);
		if (ret > 0)
			return 0;
		proto_reply_fini(r);
		if (ret < 0) {
			*bad_line = true;
			return ret;
		}
	}
}

/* iiowire_stream_match_fn for the reply to our STREAM request. */
static int iiowire_stream_match_open(struct proto_reply *r, void *out, const char *line,
				     size_t len, char *msg, size_t msglen, long want)
{
	int ret = proto_stream_reply_decode(r, out, line, len, msg, msglen);

	(void)want;
	if (ret < 0)
		return ret;
	return r->id && !strcmp(r->id, IIOWIRE_STREAM_REQ_ID);
}

/* iiowire_stream_match_fn for a BLOCK or STREAMEND line of stream @want. */
static int iiowire_stream_match_line(struct proto_reply *r, void *out, const char *line,
				     size_t len, char *msg, size_t msglen, long want)
{
	struct proto_stream_line *l = out;
	int ret = proto_stream_line_decode(r, l, line, len, msg, msglen);

	if (ret <= 0)
		return ret;
	return l->stream == want;
}

/*
 * Wait for the STREAM reply and take it. An error reply's message goes to
 * @w. Return: 0, or -errno.
 */
static int iiowire_stream_await_open(struct iiowire *w, struct iiowire_stream *s, int format,
				     int64_t deadline)
{
	char msg[PROTO_MSG_MAX_BYTES];
	struct proto_stream_info info;
	struct proto_reply r;
	bool bad_line;
	int ret;

	ret = iiowire_stream_wait_line(s->conn, deadline, iiowire_stream_match_open, 0, &r,
				       &info, msg, sizeof(msg), &bad_line);
	if (ret < 0)
		return iiowire_err_local(w, ret, bad_line ? msg : "stream");
	if (r.kind == PROTO_REPLY_ERR) {
		iiowire_err_set(w, "%s", r.message ? r.message : iiowire_strerror(r.err));
		ret = r.err < 0 ? r.err : -EPROTO;
	} else {
		ret = iiowire_stream_take(s, &info, format);
		if (ret < 0)
			iiowire_err_local(w, ret, "stream reply");
	}
	proto_reply_fini(&r);
	return ret;
}

/* Scale and offset reads that fail with these mean "the channel has none". */
static bool iiowire_stream_absent(int err)
{
	return err == -EINVAL || err == -ENOENT || err == -ENODATA;
}

/* A consumer's element: the exact IIO_VAL_* scale and offset through the consumer API. */
static int iiowire_stream_consumer_scale(struct iiowire *w, const char *consumer,
					 struct iiowire_scan_channel *ch)
{
	struct iiowire_channel *c = iiowire_channel_get(w, consumer, ch->name);
	int ret;

	if (!c)
		return -errno;
	ret = iiowire_read_channel_scale(c, &ch->scale_val, &ch->scale_val2);
	ch->has_scale = ret > 0;
	ch->scale_type = ret;
	if (ret < 0 && !iiowire_stream_absent(ret))
		goto out_release;
	ret = iiowire_read_channel_offset(c, &ch->offset_val, &ch->offset_val2);
	ch->has_offset = ret > 0;
	ch->offset_type = ret;
	if (ret >= 0 || iiowire_stream_absent(ret))
		ret = 0;
out_release:
	iiowire_channel_release(c);
	return ret;
}

/*
 * A sysfs value as the kernel prints it: no decimals is IIO_VAL_INT, 6 is
 * INT_PLUS_MICRO, anything else INT_PLUS_NANO (the kernel's 9 decimals).
 */
static int iiowire_stream_parse_text(const char *text, int *type, int *val, int *val2)
{
	const char *dot = strchr(text, '.');
	size_t decimals = dot ? strspn(dot + 1, "0123456789") : 0;

	*type = !dot ? IIO_VAL_INT : decimals == 6 ? IIO_VAL_INT_PLUS_MICRO : IIO_VAL_INT_PLUS_NANO;
	return iio_parse_value(text, *type, val, val2);
}

/* The sysfs stem of a CHANNELS row: "voltage0", "voltage0-voltage1", "accel_x". */
static void iiowire_stream_row_id(const struct iiowire_chan *c, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s", c->type_name);

	if (c->index >= 0 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%d", c->index);
	if (c->differential && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "-%s%d", c->type_name, c->index2);
	if (c->modifier && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "_%s", c->modifier);
}

/* Does CHANNELS row @c describe element @name? By its id, or by its raw attribute's stem. */
static bool iiowire_stream_row_is(const struct iiowire_chan *c, const char *name)
{
	char id[128], stem[160];
	int i;

	if (c->output)
		return false;
	iiowire_stream_row_id(c, id, sizeof(id));
	if (!strcmp(id, name))
		return true;
	/* an extend_name channel (adis16400's in_voltage0_supply_raw) may go by its name */
	snprintf(stem, sizeof(stem), "_%s_raw", name);
	for (i = 0; i < c->num_attrs; i++) {
		size_t al = strlen(c->attrs[i]), sl = strlen(stem);

		if (al > sl && !strcmp(c->attrs[i] + al - sl, stem))
			return true;
	}
	return false;
}

/* Read the attribute of @c ending in @suffix ("_scale") into a value. Return: 1, 0 (none), -errno. */
static int iiowire_stream_read_info(struct iiowire *w, const char *dev, const struct iiowire_chan *c,
				    const char *suffix, int *type, int *val, int *val2)
{
	size_t sl = strlen(suffix), al;
	char text[64];
	int i, ret;

	for (i = 0; i < c->num_attrs; i++) {
		al = strlen(c->attrs[i]);
		if (al <= sl || strcmp(c->attrs[i] + al - sl, suffix))
			continue;
		ret = iiowire_attr_read(w, dev, c->attrs[i], text, sizeof(text));
		if (ret < 0)
			return iiowire_stream_absent(ret) ? 0 : ret;
		return iiowire_stream_parse_text(text, type, val, val2) < 0 ? 0 : 1;
	}
	return 0;
}

/* A device's elements: scale and offset from the sysfs text of their CHANNELS rows. */
static int iiowire_stream_device_scales(struct iiowire *w, struct iiowire_stream *s)
{
	struct iiowire_chan *rows;
	struct iiowire_scan_channel *ch;
	int n, i, j, ret = 0;

	n = iiowire_chan_list(w, s->device, &rows);
	if (n < 0)
		return n;
	for (i = 0; i < s->nchans && ret >= 0; i++) {
		ch = &s->chans[i];
		for (j = 0; j < n && !iiowire_stream_row_is(&rows[j], ch->name); j++)
			;
		if (i == s->ts_chan || j == n)
			continue;
		ret = iiowire_stream_read_info(w, s->device, &rows[j], "_scale", &ch->scale_type,
					       &ch->scale_val, &ch->scale_val2);
		ch->has_scale = ret > 0;
		if (ret >= 0)
			ret = iiowire_stream_read_info(w, s->device, &rows[j], "_offset",
						       &ch->offset_type, &ch->offset_val,
						       &ch->offset_val2);
		ch->has_offset = ret > 0;
	}
	iiowire_free(rows);
	return ret < 0 ? ret : 0;
}

/* Scale and offset of every element, through @w. Return: 0 or -errno. */
static int iiowire_stream_scales(struct iiowire *w, struct iiowire_stream *s,
				 const struct iiowire_stream_config *cfg)
{
	int i, ret;

	if (!cfg->consumer)
		return iiowire_stream_device_scales(w, s);
	for (i = 0; i < s->nchans; i++) {
		if (i == s->ts_chan)
			continue;
		ret = iiowire_stream_consumer_scale(w, cfg->consumer, &s->chans[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* A stream object with a connection of its own, @w's. Return: 0 with *out, or -errno. */
static int iiowire_stream_new(struct iiowire *w, struct iiowire_stream **out)
{
	struct iiowire_stream *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	s->timeout_ms = w->timeout_ms;
	ret = iiowire_stream_connect(w, s);
	if (ret < 0) {
		iiowire_stream_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

/** iiowire_stream_open() - see iiowire.h. Return: the stream, or NULL with errno set. */
IIOWIRE_EXPORT struct iiowire_stream *iiowire_stream_open(struct iiowire *w,
							  const struct iiowire_stream_config *cfg)
{
	struct iiowire_stream *s;
	int64_t deadline;
	int n, ret;

	iiowire_err_clear(w);
	n = iiowire_stream_check(w, cfg);
	if (n < 0) {
		errno = -n;
		return NULL;
	}
	ret = iiowire_stream_new(w, &s);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	deadline = iiowire_conn_deadline(w->timeout_ms);
	ret = iiowire_stream_send_open(s, cfg, n, deadline);
	if (ret < 0) {
		iiowire_err_local(w, ret, "stream");
		goto err_free;
	}
	ret = iiowire_stream_await_open(w, s, cfg->format, deadline);
	if (ret == 0)
		ret = iiowire_stream_scales(w, s, cfg);
	if (ret < 0)
		goto err_free;
	return s;

err_free:
	iiowire_stream_free(s);
	errno = -ret;
	return NULL;
}

/** iiowire_stream_close() - see iiowire.h. */
IIOWIRE_EXPORT void iiowire_stream_close(struct iiowire_stream *s)
{
	struct proto_request req = { .op = PROTO_OP_UNSTREAM };

	if (!s)
		return;
	/* a courtesy: closing the connection ends the stream in the daemon as well */
	if (!s->end_err && s->conn->fd >= 0) {
		req.stream = s->id;
		iiowire_stream_send(s->conn, &req, iiowire_conn_deadline(100));
	}
	iiowire_stream_free(s);
}

/* The stream is over with @err (the daemon's, or the connection's). Return: @err. */
static int iiowire_stream_end(struct iiowire_stream *s, int err, const char *msg)
{
	s->end_err = err;
	if (msg && *msg)
		iiowire_err_set(s->conn, "%s", msg);
	else
		iiowire_err_local(s->conn, err, "stream");
	iiowire_conn_shut(s->conn);
	return err;
}

/*
 * Read lines until a block header of this stream (kept in s->hdr) or its
 * STREAMEND. A json-format block spelled in JSON has its values in the
 * header: it is complete at once. Return: 0, or -errno.
 */
static int iiowire_stream_header(struct iiowire_stream *s, int64_t deadline)
{
	char msg[PROTO_MSG_MAX_BYTES];
	struct proto_stream_line l;
	struct proto_reply r;
	bool bad_line;
	int ret;

	ret = iiowire_stream_wait_line(s->conn, deadline, iiowire_stream_match_line, s->id, &r,
				       &l, msg, sizeof(msg), &bad_line);
	if (ret < 0)
		return bad_line ? iiowire_stream_end(s, ret, msg) : ret;
	if (l.kind == PROTO_STREAM_END) {
		snprintf(msg, sizeof(msg), "%s", l.message ? l.message : "");
		proto_reply_fini(&r);
		return iiowire_stream_end(s, l.err, msg);
	}
	s->hdr = (struct iiowire_block){ .bytes = l.bytes, .scans = (unsigned int)l.scans,
					 .lost = l.lost };
	free(s->values);
	s->values = l.values ? strdup(l.values) : NULL;
	ret = l.values && !s->values ? -ENOMEM : 0;
	if (s->values) {
		s->hdr.data = s->values;
		s->hdr.bytes = strlen(s->values);
	}
	proto_reply_fini(&r);
	s->have_header = ret == 0;
	return ret;
}

/* iiowire_stream_read() within @deadline. */
static int iiowire_stream_read_by(struct iiowire_stream *s, struct iiowire_block *blk,
				  int64_t deadline)
{
	const char *p;
	int ret;

	if (s->end_err)
		return s->end_err;
	iiowire_err_clear(s->conn);
	if (!s->have_header) {
		ret = iiowire_stream_header(s, deadline);
		if (ret < 0)
			goto err;
	}
	if (!s->values) {
		ret = iiowire_conn_read_bytes(s->conn, deadline, s->hdr.bytes, &p);
		if (ret < 0)
			goto err;
		s->hdr.data = p;
	}
	s->have_header = false;
	*blk = s->hdr;
	return 0;

err:
	if (ret == -ETIMEDOUT || s->end_err)
		return iiowire_err_local(s->conn, ret, "stream read");
	return iiowire_stream_end(s, iiowire_conn_is_broken_err(ret) ? -ECONNRESET : ret, NULL);
}

/** iiowire_stream_read() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_stream_read(struct iiowire_stream *s, struct iiowire_block *blk)
{
	return iiowire_stream_read_by(s, blk, iiowire_conn_deadline(s->timeout_ms));
}

/** iiowire_stream_dispatch() - see iiowire.h. Return: blocks delivered, or -errno. */
IIOWIRE_EXPORT int iiowire_stream_dispatch(struct iiowire_stream *s, iiowire_stream_cb cb,
					   void *data, int max_blocks, int timeout_ms)
{
	int64_t deadline = iiowire_conn_deadline(timeout_ms);
	struct iiowire_block blk;
	int n = 0, ret;

	while (max_blocks <= 0 || n < max_blocks) {
		ret = iiowire_stream_read_by(s, &blk, deadline);
		if (ret == -ETIMEDOUT)
			break;
		if (ret < 0)
			return n ? n : ret;
		n++;
		if (cb(s, &blk, data))
			break;
	}
	return n;
}

/** iiowire_stream_set_timeout() - see iiowire.h. Return: 0 or -EINVAL. */
IIOWIRE_EXPORT int iiowire_stream_set_timeout(struct iiowire_stream *s, int timeout_ms)
{
	if (timeout_ms == 0)
		return -EINVAL;
	s->timeout_ms = timeout_ms;
	return 0;
}

/** iiowire_stream_errmsg() - see iiowire.h. Return: borrowed text. */
IIOWIRE_EXPORT const char *iiowire_stream_errmsg(const struct iiowire_stream *s)
{
	return iiowire_errmsg(s->conn);
}

/** iiowire_stream_fd() - see iiowire.h. Return: the fd, or -ENOTCONN. */
IIOWIRE_EXPORT int iiowire_stream_fd(const struct iiowire_stream *s)
{
	return s->end_err || s->conn->fd < 0 ? -ENOTCONN : s->conn->fd;
}

/** iiowire_stream_pending() - see iiowire.h. Return: 1 or 0. */
IIOWIRE_EXPORT int iiowire_stream_pending(const struct iiowire_stream *s)
{
	if (s->have_header)
		return s->values || iiowire_conn_buffered(s->conn) >= s->hdr.bytes;
	return iiowire_conn_has_line(s->conn);
}

/** iiowire_stream_channels() - see iiowire.h. Return: the element count. */
IIOWIRE_EXPORT int iiowire_stream_channels(const struct iiowire_stream *s,
					   const struct iiowire_scan_channel **chans)
{
	*chans = s->chans;
	return s->nchans;
}

/** iiowire_stream_scan_bytes() - see iiowire.h. Return: the record size. */
IIOWIRE_EXPORT size_t iiowire_stream_scan_bytes(const struct iiowire_stream *s)
{
	return s->scan_bytes;
}

/** iiowire_stream_device() - see iiowire.h. Return: borrowed. */
IIOWIRE_EXPORT const char *iiowire_stream_device(const struct iiowire_stream *s)
{
	return s->device;
}

/** iiowire_stream_trigger() - see iiowire.h. Return: borrowed. */
IIOWIRE_EXPORT const char *iiowire_stream_trigger(const struct iiowire_stream *s)
{
	return s->trigger;
}

/** iiowire_scan_raw() - see iiowire.h. Return: 0, or -EINVAL. */
IIOWIRE_EXPORT int iiowire_scan_raw(const struct iiowire_stream *s, const void *record,
				    int chan, int64_t *raw)
{
	if (!record || chan < 0 || chan >= s->nchans)
		return -EINVAL;
	*raw = iiowire_scan_extract(&s->chans[chan], record);
	return 0;
}

/** iiowire_scan_processed() - see iiowire.h. Return: 0, -EINVAL, -ERANGE. */
IIOWIRE_EXPORT int iiowire_scan_processed(const struct iiowire_stream *s, const void *record,
					  int chan, int *val, unsigned int scale)
{
	if (!record || chan < 0 || chan >= s->nchans || chan == s->ts_chan)
		return -EINVAL;
	return iiowire_scan_convert(&s->chans[chan], iiowire_scan_extract(&s->chans[chan], record),
				    val, scale);
}

/* ---- output: PLAY, LOOP and SEND ---- */

/* Check @cfg, send PLAY or LOOP and take the reply into @s. Return: 0 or -errno. */
static int iiowire_play_start(struct iiowire *w, struct iiowire_stream *s,
			      const struct iiowire_play_config *cfg, int64_t deadline)
{
	struct proto_request req = {
		.op = cfg->cyclic ? PROTO_OP_LOOP : PROTO_OP_PLAY, .device = cfg->device,
		.trigger = cfg->trigger, .scans = cfg->scans ? (int)cfg->scans : 1,
	};
	int ret;

	while (cfg->channels && cfg->channels[req.nchannels]) {
		if (req.nchannels == IIOWIRE_STREAM_CHANNELS_MAX) {
			iiowire_err_set(w, "play: more than %d channels",
					IIOWIRE_STREAM_CHANNELS_MAX);
			return -EINVAL;
		}
		req.channels[req.nchannels] = cfg->channels[req.nchannels];
		req.nchannels++;
	}
	ret = iiowire_stream_send(s->conn, &req, deadline);
	if (ret < 0)
		return iiowire_err_local(w, ret, "play");
	return iiowire_stream_await_open(w, s, IIOWIRE_STREAM_RAW, deadline);
}

/** iiowire_play_open() - see iiowire.h. Return: the stream, or NULL with errno set. */
IIOWIRE_EXPORT struct iiowire_stream *iiowire_play_open(struct iiowire *w,
							const struct iiowire_play_config *cfg)
{
	struct iiowire_stream *s;
	int ret;

	iiowire_err_clear(w);
	if (!cfg || !cfg->device || cfg->scans > IIOWIRE_STREAM_SCANS_MAX) {
		iiowire_err_set(w, "play: give a device and 0..%d scans", IIOWIRE_STREAM_SCANS_MAX);
		errno = EINVAL;
		return NULL;
	}
	ret = iiowire_stream_new(w, &s);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	ret = iiowire_play_start(w, s, cfg, iiowire_conn_deadline(w->timeout_ms));
	if (ret < 0) {
		iiowire_stream_free(s);
		errno = -ret;
		return NULL;
	}
	return s;
}

/* iiowire_stream_match_fn for SEND's reply (1), or this stream's STREAMEND (1, @out set). */
static int iiowire_play_match_reply(struct proto_reply *r, void *out, const char *line,
				    size_t len, char *msg, size_t msglen, long want)
{
	struct proto_stream_line *l = out;
	int ret = proto_stream_line_decode(r, l, line, len, msg, msglen);

	if (ret != 0)
		return ret < 0 ? ret : l->kind == PROTO_STREAM_END && l->stream == want;
	l->kind = PROTO_STREAM_BLOCK;	/* not an end: a reply */
	proto_reply_fini(r);
	memset(r, 0, sizeof(*r));
	ret = proto_reply_decode(r, PROTO_OP_SEND, line, len, msg, msglen);
	if (ret < 0)
		return ret;
	return r->id && !strcmp(r->id, IIOWIRE_STREAM_REQ_ID);
}

/** iiowire_play_send() - see iiowire.h. Return: underruns, or -errno. */
IIOWIRE_EXPORT long long iiowire_play_send(struct iiowire_stream *s, const void *recs,
					   size_t bytes)
{
	struct proto_request req = { .op = PROTO_OP_SEND, .stream = s->id, .bytes = (int)bytes };
	int64_t deadline = iiowire_conn_deadline(s->timeout_ms);
	char msg[PROTO_MSG_MAX_BYTES];
	struct proto_stream_line l;
	struct proto_reply r;
	bool bad_line = false;
	long long ret;

	if (s->end_err)
		return s->end_err;
	iiowire_err_clear(s->conn);
	if (!bytes || bytes > (size_t)PROTO_SEND_BYTES_MAX)
		return iiowire_err_local(s->conn, -EINVAL, "play: bytes");
	ret = iiowire_stream_send(s->conn, &req, deadline);
	if (!ret)
		ret = iiowire_conn_send(s->conn, recs, bytes, deadline);
	if (!ret)
		ret = iiowire_stream_wait_line(s->conn, deadline, iiowire_play_match_reply, s->id,
					       &r, &l, msg, sizeof(msg), &bad_line);
	if (ret < 0)
		return bad_line ? iiowire_stream_end(s, (int)ret, msg) : ret;
	if (l.kind == PROTO_STREAM_END) {
		snprintf(msg, sizeof(msg), "%s", l.message ? l.message : "");
		proto_reply_fini(&r);
		return iiowire_stream_end(s, l.err, msg);
	}
	if (r.kind == PROTO_REPLY_ERR) {
		iiowire_err_set(s->conn, "%s", r.message ? r.message : iiowire_strerror(r.err));
		ret = r.err < 0 ? r.err : -EPROTO;
	} else {
		ret = r.value ? strtoll(r.value, NULL, 10) : -EPROTO;
	}
	proto_reply_fini(&r);
	return ret;
}
