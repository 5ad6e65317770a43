/*
 * iiodb_proto.c - libiio 1.0's binary protocol on the iiod listener
 * (iiodb_proto.h, PROTOCOL-iiod.md "The binary protocol").
 *
 * The decoder (protocol/iiod_binary.c) cuts whole commands out of the
 * stream, whatever its chunking; a table by opcode answers each. Devices
 * are numbered as libiio 1.0 sorts them (by id), attributes as it sorts
 * each list (by name), channels in the XML's order. iiod 1.0's faults are
 * not copied: a refused command still has its payload read, so the stream
 * stays in step; an unknown opcode, a RESPONSE from the client, or an
 * OPEN_BUFFER whose mask length cannot be known closes the connection
 * (logged) instead of desynchronising it; REFRESH_FORMAT goes by scan
 * index, as clients send it. Nothing here touches a socket.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "acl.h"
#include "board.h"
#include "dispatch_trig.h"
#include "events.h"
#include "iio_buffer.h"
#include "iio_registry.h"
#include "iio_trigger.h"
#include "iiod.h"
#include "iiod_io.h"
#include "iiod_proto.h"
#include "iiod_xml.h"
#include "iiodb_proto.h"
#include "play.h"
#include "session.h"
#include "srv.h"
#include "stream_iiod.h"

/* ---- answers ---- */

void srv_iiodb_answer(struct srv_session *s, uint16_t client_id, int32_t code)
{
	srv_session_check(s, proto_iiodb_reply(srv_session_out(s), client_id, code, NULL, 0));
	if (code < 0)
		s->srv->stats.errors++;
}

/*
 * The model @c's numbers refer to: the one whose XML the client read.
 * Return: it, or NULL with the error answered (-ENOMEM, -ESTALE).
 */
static const struct srv_iiod_ctx *srv_iiodb_ctx(struct srv_session *s,
					       const struct proto_iiodb_cmd *c)
{
	const struct srv_iiod_ctx *ctx = srv_iiod_model(s->srv);

	if (!ctx) {
		srv_iiodb_answer(s, c->client_id, -ENOMEM);
		return NULL;
	}
	if (s->iiod.bin->gen && s->iiod.bin->gen != s->srv->iiod_model_gen) {
		srv_iiodb_answer(s, c->client_id, -ESTALE);
		return NULL;
	}
	return ctx;
}

/* Device number @c->dev, or NULL with -ENODEV (or the model's error) answered. */
static const struct srv_iiod_bdev *srv_iiodb_bdev(struct srv_session *s,
						  const struct proto_iiodb_cmd *c)
{
	const struct srv_iiod_ctx *ctx = srv_iiodb_ctx(s, c);

	if (!ctx)
		return NULL;
	if (c->dev >= ctx->nbdevs) {
		srv_iiodb_answer(s, c->client_id, -ENODEV);
		return NULL;
	}
	return &ctx->bdevs[c->dev];
}

/* ---- attributes ---- */

/* A buffer's attribute in the XML's order: its files but "direction" (iiod_xml.c). */
static const struct iio_attr *srv_iiodb_battr(const struct srv_iiod_dev *d, unsigned int idx)
{
	const char *rest;
	int i;

	for (i = 0; i < d->nbattrs; i++) {
		rest = strchr(d->battrs[i]->name, '/');
		if (rest && !strcmp(rest + 1, "direction"))
			continue;
		if (!idx--)
			return d->battrs[i];
	}
	return NULL;
}

/* Attribute @arg1 of the kind @op names, of channel or buffer @arg2 of @d; NULL: none. */
static const struct iio_attr *srv_iiodb_attr(const struct srv_iiod_dev *d, unsigned int op,
					     unsigned int arg1, unsigned int arg2)
{
	const struct srv_iiod_chan *ch = arg2 < (unsigned int)d->nchans ? &d->chans[arg2] : NULL;

	switch (op) {
	case PROTO_IIODB_READ_ATTR:
	case PROTO_IIODB_WRITE_ATTR:
		return arg1 < (unsigned int)d->nattrs ? d->attrs[arg1] : NULL;
	case PROTO_IIODB_READ_BUF_ATTR:
	case PROTO_IIODB_WRITE_BUF_ATTR:
		return arg2 == 0 ? srv_iiodb_battr(d, arg1) : NULL;
	case PROTO_IIODB_READ_CHN_ATTR:
	case PROTO_IIODB_WRITE_CHN_ATTR:
		return ch && arg1 < (unsigned int)ch->nattrs ? ch->attrs[arg1].attr : NULL;
	case PROTO_IIODB_READ_DEV_EVT_ATTR:
	case PROTO_IIODB_WRITE_DEV_EVT_ATTR:
		return arg1 < (unsigned int)d->nevattrs ? d->evattrs[arg1] : NULL;
	case PROTO_IIODB_READ_CHN_EVT_ATTR:
	case PROTO_IIODB_WRITE_CHN_EVT_ATTR:
		return ch && arg1 < (unsigned int)ch->nevattrs ? ch->evattrs[arg1].attr : NULL;
	default:
		return NULL;	/* debug attributes: iiowire has no debugfs */
	}
}

/* The value as iiod 1.0 sends it: the file's bytes, its final newline a NUL. */
static int srv_iiodb_run_read(struct srv_iiod_io *io, struct proto_buf *out)
{
	ssize_t n = iio_attr_read(io->dev, io->one, io->val, sizeof(io->val) - 1);

	if (n < 0)
		return proto_iiodb_reply(out, io->client_id, (int32_t)n, NULL, 0);
	if (n > 0 && io->val[n - 1] == '\n')
		io->val[n - 1] = '\0';
	else
		io->val[n++] = '\0';
	return proto_iiodb_reply(out, io->client_id, (int32_t)n, io->val, (size_t)n);
}

/* The answer is the bytes taken, as iiod 1.0's (the whole value, its NUL included). */
static int srv_iiodb_run_write(struct srv_iiod_io *io, struct proto_buf *out)
{
	size_t vlen = proto_iiod_value_len(io->wbuf ? io->wbuf : "", io->wlen);
	int ret = iio_attr_write(io->dev, io->one, io->wbuf ? io->wbuf : "", vlen);

	return proto_iiodb_reply(out, io->client_id, ret < 0 ? ret : (int32_t)io->wlen, NULL, 0);
}

/* A trigger device's file (its sampling_frequency, add_trigger): on the loop. */
static void srv_iiodb_trigger_file(struct srv_session *s, const struct srv_iiod_bdev *bd,
				   const struct proto_iiodb_cmd *c, unsigned int idx, bool write)
{
	char val[IIO_VALUE_MAX_BYTES + 1];
	struct srv_trigdev td;
	const char *file = idx < (unsigned int)bd->nfiles ? bd->files[idx] : NULL;
	int n;

	if (!file || !srv_trigdev_find(s->srv, bd->id, &td) ||
	    (c->op != PROTO_IIODB_READ_ATTR && c->op != PROTO_IIODB_WRITE_ATTR)) {
		srv_iiodb_answer(s, c->client_id, -EINVAL);
		return;
	}
	if (!write) {
		n = srv_trigdev_read_file(s->srv, &td, file, val, sizeof(val) - 1);
		if (n > 0 && val[n - 1] == '\n')
			val[n - 1] = '\0';
		else if (n >= 0)
			val[n++] = '\0';
		srv_session_check(s, proto_iiodb_reply(srv_session_out(s), c->client_id, n,
						       n < 0 ? NULL : val, n < 0 ? 0 : (size_t)n));
		return;
	}
	if (s->srv->cfg.read_only ||
	    !srv_acl_may_write_named(&s->srv->cfg, td.names, td.nnames, file)) {
		srv_iiodb_answer(s, c->client_id, -EACCES);
		return;
	}
	snprintf(val, sizeof(val), "%.*s", (int)proto_iiod_value_len((const char *)c->data, c->len),
		 c->data ? (const char *)c->data : "");
	n = srv_trigdev_write_file(s->srv, &td, file, val);
	srv_iiodb_answer(s, c->client_id, n < 0 ? n : (int32_t)c->len);
}

/* READ_*_ATTR and WRITE_*_ATTR: the attribute by its numbers, then the I/O. */
static void srv_iiodb_attr_cmd(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	bool write = c->op >= PROTO_IIODB_WRITE_ATTR;
	const struct srv_iiod_bdev *bd = srv_iiodb_bdev(s, c);
	unsigned int arg1 = (uint32_t)c->code >> 16, arg2 = (uint32_t)c->code & 0xffff;
	const struct iio_attr *a;
	struct srv_iiod_io *io;

	if (!bd)
		return;
	if (write && c->err) {
		srv_iiodb_answer(s, c->client_id, c->err);	/* a value past the limit */
		return;
	}
	if (!bd->d) {
		srv_iiodb_trigger_file(s, bd, c, arg1, write);
		return;
	}
	a = srv_iiodb_attr(bd->d, c->op, arg1, arg2);
	if (!a) {
		srv_iiodb_answer(s, c->client_id, -EINVAL);	/* as iiod 1.0: no such attribute */
		return;
	}
	if (write && (s->srv->cfg.read_only || !srv_acl_may_write(&s->srv->cfg, bd->d->dev, a->name))) {
		srv_iiodb_answer(s, c->client_id, -EACCES);
		return;
	}
	io = srv_iiod_io_new(bd->d->dev, a);
	if (io && write && c->len && !(io->wbuf = malloc(c->len))) {
		srv_iiod_io_free(io);
		io = NULL;
	}
	if (!io) {
		srv_iiodb_answer(s, c->client_id, -ENOMEM);
		return;
	}
	io->bin = true;
	io->client_id = c->client_id;
	io->run = write ? srv_iiodb_run_write : srv_iiodb_run_read;
	if (write && c->len)
		memcpy(io->wbuf, c->data, c->len);
	io->wlen = c->len;
	srv_iiod_io_start(s, io);
}

/* ---- the context ---- */

/* PRINT: the 1.0 XML, plain while a client takes it so, else zstd-compressed. */
static void srv_iiodb_print(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	const struct srv_iiod_ctx *ctx = srv_iiod_model(s->srv);
	size_t cap, n;
	void *z;

	if (!ctx) {
		srv_iiodb_answer(s, c->client_id, -ENOMEM);
		return;
	}
	s->iiod.bin->gen = s->srv->iiod_model_gen;
	if (ctx->xml1_len <= PROTO_IIODB_XML_PLAIN_MAX) {
		srv_session_check(s, proto_iiodb_reply(srv_session_out(s), c->client_id,
						       (int32_t)ctx->xml1_len, ctx->xml1,
						       ctx->xml1_len));
		return;
	}
	cap = ZSTD_compressBound(ctx->xml1_len);
	z = malloc(cap);
	n = z ? ZSTD_compress(z, cap, ctx->xml1, ctx->xml1_len, ZSTD_CLEVEL_DEFAULT) : 0;
	if (!z || ZSTD_isError(n) || n > PROTO_IIODB_XML_PLAIN_MAX)
		srv_iiodb_answer(s, c->client_id, z && !ZSTD_isError(n) ? -EFBIG : -ENOMEM);
	else
		srv_session_check(s, proto_iiodb_reply(srv_session_out(s), c->client_id,
						       (int32_t)n, z, n));
	free(z);
}

static void srv_iiodb_timeout(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	s->iiod.bin->timeout_ms = c->code;
	srv_iiodb_answer(s, c->client_id, 0);
}

static void srv_iiodb_nop(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	srv_iiodb_answer(s, c->client_id, 0);
}

/* REG_READ/REG_WRITE: a kernel device without direct_reg_access has no such file. */
static void srv_iiodb_reg(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	if (srv_iiodb_bdev(s, c))
		srv_iiodb_answer(s, c->client_id, -ENOENT);
}

/* REFRESH_FORMAT: the channel of scan index @code's format, as the XML gives it. */
static void srv_iiodb_refresh_format(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	const struct srv_iiod_bdev *bd = srv_iiodb_bdev(s, c);
	int i;

	if (!bd)
		return;
	for (i = 0; bd->d && i < bd->d->nchans; i++) {
		const struct srv_iiod_chan *ch = &bd->d->chans[i];

		if (ch->scan_index >= 0 && ch->scan_index == (c->code & 0xffff)) {
			srv_session_check(s, proto_iiodb_reply(srv_session_out(s), c->client_id,
							       (int32_t)strlen(ch->format),
							       ch->format, strlen(ch->format)));
			return;
		}
	}
	srv_iiodb_answer(s, c->client_id, -EINVAL);
}

/* ---- triggers ---- */

/* The number of device "triggerN" for @trig in @ctx, or -ENODEV. */
static int srv_iiodb_trigger_number(const struct srv_iiod_ctx *ctx, const struct iio_trigger *trig)
{
	char id[SRV_IIOD_DEVID_MAX];
	int i;

	snprintf(id, sizeof(id), "trigger%d", trig->id);
	for (i = 0; i < ctx->nbdevs; i++)
		if (!strcmp(ctx->bdevs[i].id, id))
			return i;
	return -ENODEV;
}

/* GETTRIG: the number of the device's trigger; -ENOENT without trigger/, -ENODEV for none. */
static void srv_iiodb_gettrig(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	const struct srv_iiod_bdev *bd = srv_iiodb_bdev(s, c);
	struct iio_trigger *trig;

	if (!bd)
		return;
	if (!bd->d || !iio_device_takes_trigger(bd->d->dev)) {
		srv_iiodb_answer(s, c->client_id, -ENOENT);
		return;
	}
	trig = iio_device_current_trigger(bd->d->dev);
	srv_iiodb_answer(s, c->client_id,
			 trig ? srv_iiodb_trigger_number(srv_iiod_model(s->srv), trig) : -ENODEV);
}

static int srv_iiodb_run_settrig(struct srv_iiod_io *io, struct proto_buf *out)
{
	return proto_iiodb_reply(out, io->client_id, iio_device_set_trigger(io->dev, io->trig),
				 NULL, 0);
}

/* SETTRIG: device @code (a trigger) or -1 (none), on the device's worker as the text row's. */
static void srv_iiodb_settrig(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	const struct srv_iiod_ctx *ctx = srv_iiodb_ctx(s, c);
	const struct srv_iiod_bdev *bd, *tb = NULL;
	struct iio_trigger *trig = NULL;
	struct srv_iiod_io *io;

	if (!ctx)
		return;
	bd = c->dev < ctx->nbdevs ? &ctx->bdevs[c->dev] : NULL;
	if (c->code >= 0 && c->code < ctx->nbdevs)
		tb = &ctx->bdevs[c->code];
	if (tb && !tb->d)
		trig = iio_trigger_find(s->srv->board->reg, tb->id);
	if (!bd || !bd->d || (c->code != -1 && !trig)) {
		srv_iiodb_answer(s, c->client_id, -EINVAL);
		return;
	}
	if (!iio_device_takes_trigger(bd->d->dev)) {
		srv_iiodb_answer(s, c->client_id, -ENOENT);
		return;
	}
	if (!srv_acl_may(&s->srv->cfg, bd->d->dev, SRV_IIOD_TRIGGER_ATTR) &&
	    trig != iio_device_current_trigger(bd->d->dev)) {
		srv_iiodb_answer(s, c->client_id, -EACCES);
		return;
	}
	io = srv_iiod_io_new(bd->d->dev, NULL);
	if (!io) {
		srv_iiodb_answer(s, c->client_id, -ENOMEM);
		return;
	}
	io->bin = true;
	io->client_id = c->client_id;
	io->run = srv_iiodb_run_settrig;
	io->trig = iio_trigger_get(trig);
	srv_iiod_io_start(s, io);
}

/* ---- buffers and event streams ---- */

static void srv_iiodb_buffer(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	const struct srv_iiod_bdev *bd = srv_iiodb_bdev(s, c);

	if (bd)
		srv_iiodb_buffer_cmd(s, bd, c);
}

static void srv_iiodb_events(struct srv_session *s, const struct proto_iiodb_cmd *c)
{
	const struct srv_iiod_bdev *bd = srv_iiodb_bdev(s, c);

	if (bd)
		srv_events_iiodb(s, bd->d ? bd->d->dev : NULL, c);
}

/* ---- the row ---- */

static void (*const srv_iiodb_handlers[PROTO_IIODB_OP_COUNT])(struct srv_session *s,
							      const struct proto_iiodb_cmd *c) = {
	[PROTO_IIODB_PRINT] = srv_iiodb_print,
	[PROTO_IIODB_TIMEOUT] = srv_iiodb_timeout,
	[PROTO_IIODB_READ_ATTR ... PROTO_IIODB_WRITE_CHN_EVT_ATTR] = srv_iiodb_attr_cmd,
	[PROTO_IIODB_GETTRIG] = srv_iiodb_gettrig,
	[PROTO_IIODB_SETTRIG] = srv_iiodb_settrig,
	[PROTO_IIODB_OPEN_BUFFER ... PROTO_IIODB_RETRY_DEQUEUE_BLOCK] = srv_iiodb_buffer,
	[PROTO_IIODB_CREATE_EVSTREAM ... PROTO_IIODB_READ_EVENT] = srv_iiodb_events,
	[PROTO_IIODB_REG_READ] = srv_iiodb_reg,
	[PROTO_IIODB_REG_WRITE] = srv_iiodb_reg,
	[PROTO_IIODB_REFRESH_FORMAT] = srv_iiodb_refresh_format,
	[PROTO_IIODB_NOP] = srv_iiodb_nop,
};

/*
 * The decoder's question: OPEN_BUFFER's mask bytes (32 channels a word), or
 * the block a TRANSFER_BLOCK or ENQUEUE_BLOCK_CYCLIC of an output buffer
 * carries (at most SRV_IIODB_OUT_BLOCK_MAX_BYTES: past that, -EMSGSIZE).
 */
static long long srv_iiodb_payload(void *ctx, const struct proto_iiodb_cmd *c)
{
	struct srv_session *s = ctx;
	const struct srv_iiod_ctx *m = srv_iiod_model(s->srv);
	const struct srv_iiod_dev *d = m && c->dev < m->nbdevs ? m->bdevs[c->dev].d : NULL;

	if (c->op == PROTO_IIODB_OPEN_BUFFER) {
		if (!m || c->dev >= m->nbdevs)
			return -ENODEV;
		return d ? 4 * ((d->nchans + 31) / 32) : 0;
	}
	if (!d || iio_device_buffer_direction(d->dev) != IIO_BUFFER_DIRECTION_OUT)
		return 0;
	return c->arg > SRV_IIODB_OUT_BLOCK_MAX_BYTES ? -EMSGSIZE : (long long)c->arg;
}

static size_t srv_iiodb_feed(struct srv_session *s, const char *data, size_t len)
{
	struct srv_iiodb_conn *b = s->iiod.bin;
	struct proto_iiodb_cmd c;
	size_t off = 0, used;
	int ret;

	while (off < len && srv_session_take(s)) {
		ret = proto_iiodb_feed(&b->dec, (const uint8_t *)data + off, len - off, &used, &c,
				       srv_iiodb_payload, s);
		off += used;
		if (ret < 0) {
			srv_session_log(SRV_LOG_INFO, s, "binary stream broken (%s), closing",
					strerror(-ret));
			s->srv->stats.errors++;
			srv_session_finish(s);
			return len;
		}
		if (!ret)
			break;
		s->srv->stats.requests++;
		srv_iiodb_handlers[c.op](s, &c);
	}
	return off;
}

/* After EOF: a half-received command is dropped (it has no answer to wait for). */
static void srv_iiodb_on_eof(struct srv_session *s)
{
	(void)s;
}

static void srv_iiodb_error(struct srv_session *s, int err, const char *msg)
{
	(void)msg;
	srv_iiodb_answer(s, 0, err);
}

static bool srv_iiodb_partial(const struct srv_session *s)
{
	return proto_iiodb_dec_partial(&s->iiod.bin->dec);
}

/* A connection waiting for block data or events is not idle. */
static bool srv_iiodb_keeps_alive(const struct srv_session *s)
{
	return s->iiod.bin->nevstreams || !srv_list_empty(&s->iiod.readers) ||
	       !srv_list_empty(&s->iiod.plays);
}

static void srv_iiodb_close(struct srv_session *s)
{
	srv_events_session_close(s);
	srv_iiodb_buffers_close(s);
	srv_play_stop_all(s);
	proto_iiodb_dec_fini(&s->iiod.bin->dec);
	free(s->iiod.bin);
	s->iiod.bin = NULL;
	free(s->iiod.wcmd);
	free(s->iiod.wbuf);
}

int srv_iiodb_begin(struct srv_session *s)
{
	struct srv_iiodb_conn *b = calloc(1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	proto_iiodb_dec_init(&b->dec, PROTO_IIOD_WRITE_MAX_BYTES, PROTO_IIOD_SKIP_MAX_BYTES);
	srv_list_init(&b->evstreams);
	b->timeout_ms = -1;
	s->iiod.bin = b;
	s->proto = &srv_proto_iiodb;
	return 0;
}

const struct srv_proto_ops srv_proto_iiodb = {
	.name = "iiod ",
	.listening = "for libiio (iiod) clients ",
	.line_max = PROTO_IIOD_LINE_MAX_BYTES,
	.inflight_max = SRV_SESSION_INFLIGHT_MAX,
	.feed = srv_iiodb_feed,
	.on_eof = srv_iiodb_on_eof,
	.error = srv_iiodb_error,
	.partial = srv_iiodb_partial,
	.keeps_alive = srv_iiodb_keeps_alive,
	.waiting = srv_play_waiting,
	.close = srv_iiodb_close,
};
