/*
 * play.c - PLAY, LOOP and SEND: the native protocol's buffered output, the
 * mirror of stream.c's capture (see play.h for the model).
 *
 * A player is the one OUT buffer of its device. Its handler runs where a
 * buffer/enable without a stream runs (the trigger's poll on the loop),
 * popping one scan per poll; the core wakes the player through the push
 * notify (a uv_async) when the queue falls to half, and ends it (device
 * removed) through its end(), also by uv_async, so everything here runs
 * on the loop. Ownership follows server/README.md: a player belongs to its
 * session's list and is freed in its async handle's close callback; a
 * SEND's reply slot keeps only a back-pointer.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl.h"
#include "board.h"
#include "dispatch.h"
#include "iio_buffer.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "iiod.h"
#include "iiod_binary.h"
#include "iiodb_proto.h"
#include "iiod_proto.h"
#include "play.h"
#include "session.h"
#include "srv.h"
#include "stream.h"

#define SRV_PLAY_TRIGGER_ATTR	"trigger/current_trigger"

struct srv_play {
	struct srv_list node;		/* srv_play_list(s) */
	struct srv_session *s;
	struct iio_dev *dev;		/* referenced */
	struct iio_buffer buf;
	uv_async_t async;		/* the queue fell to half, or the core ended it */
	atomic_int ended;		/* the core's end(): its -errno, 0 while it plays */
	int id;
	int scans;
	bool loop;			/* LOOP: one block, repeated */
	bool looping;			/* its block is set */
	bool attached;
	bool iiod;			/* an iiod OPEN: its replies are iiod's codes */
	bool bin;			/* ...of libiio 1.0: binary answers to @bin_id */
	uint16_t bin_id;		/* the client id of the block being queued */
	/* libiio 1.0's TX blocks, answered once played: their ends in scans handed over */
	uint64_t handed, written;	/* scans given by blocks; scans the core took */
	struct { uint16_t id; uint64_t end; } done[SRV_PLAY_BIN_BLOCKS];
	int dhead, ndone;
	/* a SEND waiting for room: its records from @at on, and its reply's place */
	uint8_t *pend;
	unsigned int npend, at;
	size_t pend_bytes;		/* what the waiting SEND (WRITEBUF) carried */
	struct srv_slot *slot;
	struct proto_request rq;	/* op, flags and id of the PLAY (and then the SEND) */
	char device[24];
	char trigger[IIO_TRIGGER_NAME_MAX];
	char names[IIO_SCAN_INDEX_MAX][48];
	char types[IIO_SCAN_INDEX_MAX][24];
	struct proto_stream_chan chans[IIO_SCAN_INDEX_MAX];
};

/* A SEND whose bytes are being read; @p NULL (with @err) drops them, then answers @err. */
struct srv_play_in {
	struct srv_play *p;
	bool iiod;
	uint8_t *buf;
	size_t want, got;
	int err;
	char msg[PROTO_MSG_MAX_BYTES];
	struct proto_request rq;
};

/* The session's players and the SEND being read: the native row's, or the iiod row's. */
static struct srv_list *srv_play_list(const struct srv_session *s)
{
	return srv_proto_is_native(s->proto) ? (struct srv_list *)&s->native.plays :
					       (struct srv_list *)&s->iiod.plays;
}

static struct srv_play_in **srv_play_in_ptr(const struct srv_session *s)
{
	return srv_proto_is_native(s->proto) ? (struct srv_play_in **)&s->native.play_in :
					       (struct srv_play_in **)&s->iiod.play_in;
}

static void srv_play_rq(struct proto_request *dst, const struct proto_request *req)
{
	memset(dst, 0, sizeof(*dst));
	dst->op = req->op;
	dst->flags = req->flags;
	memcpy(dst->id, req->id, sizeof(dst->id));
}

static struct srv_play *srv_play_find(struct srv_session *s, int id)
{
	struct srv_list *pos, *tmp;
	struct srv_play *p;

	srv_list_for_each_safe(pos, tmp, srv_play_list(s)) {
		p = srv_container_of(pos, struct srv_play, node);
		if (p->id == id)
			return p;
	}
	return NULL;
}

/* "OK <underruns>": the pops that found nothing since the player started. */
static int srv_play_reply_ok(struct proto_buf *b, const struct proto_request *rq,
			     struct iio_dev *dev)
{
	char v[24];
	int n = snprintf(v, sizeof(v), "%llu", (unsigned long long)iio_buffer_underruns(dev));

	return proto_reply_value(b, rq, v, (size_t)n);
}

/*
 * A SEND's (or WRITEBUF's) answer into @b: native "OK <underruns>" or the
 * error with @msg; iiod's code, the bytes taken or the -errno.
 */
static int srv_play_reply_to(struct proto_buf *b, const struct srv_play *p,
			     const struct proto_request *rq, size_t bytes, int err, const char *msg)
{
	if (p && p->bin)	/* a TX block: its dequeue's 0 once it is queued, or the error */
		return proto_iiodb_reply(b, p->bin_id, err, NULL, 0);
	if (p && p->iiod)
		return proto_iiod_reply_code(b, err ? err : (long long)bytes);
	return err ? proto_reply_error(b, rq, err, msg) : srv_play_reply_ok(b, rq, p->dev);
}

/* ---- the core's side: any thread; the work is the loop's ---- */

static void srv_play_notify(void *ctx)
{
	struct srv_play *p = ctx;

	uv_async_send(&p->async);
}

static void srv_play_end(struct iio_buffer *buf, int err)
{
	struct srv_play *p = buf->priv;

	atomic_store(&p->ended, err ? err : -ENODEV);
	uv_async_send(&p->async);
}

static const struct iio_buffer_ops srv_play_buf_ops = { .end = srv_play_end };

/* ---- lifetime ---- */

static void srv_play_close_cb(uv_handle_t *h)
{
	struct srv_play *p = srv_container_of(h, struct srv_play, async);

	iio_device_put(p->dev);
	free(p->pend);
	free(p);
}

/* Off its session's list, detached (the outputs keep their last codes), freed later. */
static void srv_play_release(struct srv_play *p)
{
	struct srv_play_in *in = *srv_play_in_ptr(p->s);

	if (in && in->p == p) {	/* its SEND's bytes are dropped and answered */
		in->p = NULL;
		in->err = -ENODEV;
		snprintf(in->msg, sizeof(in->msg), "%s: stream %d ended", p->device, p->id);
	}
	if (p->attached) {
		iio_device_set_push_notify(p->dev, NULL, NULL);
		iio_buffer_detach(p->dev, &p->buf);
		p->attached = false;
	}
	srv_list_del(&p->node);
	uv_close((uv_handle_t *)&p->async, srv_play_close_cb);
}

/* The waiting SEND is answered (0: all its scans are queued) and input resumes. */
static void srv_play_answer(struct srv_play *p, int err, const char *msg)
{
	struct srv_slot *slot = p->slot;
	int ret;

	free(p->pend);
	p->pend = NULL;
	if (!slot)
		return;	/* the session went first, or a TX block answers once played */
	ret = srv_play_reply_to(&slot->text, p, &p->rq, p->pend_bytes, err, msg);
	srv_session_check(p->s, ret);
	srv_session_slot_done(p->s, slot);
}

/* The device went away: the waiting SEND fails, STREAMEND follows, the player goes. */
static void srv_play_ended(struct srv_play *p, int err)
{
	struct srv_session *s = p->s;
	char msg[PROTO_MSG_MAX_BYTES];

	p->attached = false;	/* the core detached it */
	snprintf(msg, sizeof(msg), "%s: %s", p->device,
		 err == -ENODEV ? "device removed" : "output ended");
	srv_play_answer(p, err, msg);
	for (; p->ndone; p->ndone--, p->dhead = (p->dhead + 1) % SRV_PLAY_BIN_BLOCKS)
		srv_session_check(s, proto_iiodb_reply(srv_session_out(s), p->done[p->dhead].id,
						       err, NULL, 0));
	if (!p->iiod)	/* iiod has no such line: its next WRITEBUF fails */
		srv_session_check(s, proto_streamend_encode(srv_session_out(s),
							   p->rq.flags & PROTO_REQ_JSON, p->id,
							   err, msg));
	srv_play_release(p);
	srv_session_flush(s);
}

/* Room again: queue what the waiting SEND has left, and answer it once all is in. */
static void srv_play_async_cb(uv_async_t *async)
{
	struct srv_play *p = srv_container_of(async, struct srv_play, async);
	int err = atomic_exchange(&p->ended, 0), n;

	if (uv_is_closing((uv_handle_t *)async))
		return;
	if (err) {
		srv_play_ended(p, err);
		return;
	}
	if (!p->pend)
		return;
	n = iio_buffer_write_scans(p->dev, &p->buf,
				   p->pend + (size_t)p->at * (size_t)p->buf.layout.bytes,
				   p->npend - p->at);
	if (n > 0) {
		p->at += (unsigned int)n;
		p->written += (uint64_t)n;
	}
	if (p->at == p->npend)
		srv_play_answer(p, 0, NULL);
}

int srv_play_stop(struct srv_session *s, int id)
{
	struct srv_play *p = srv_play_find(s, id);

	if (!p)
		return -ENOENT;
	srv_play_release(p);
	return 0;
}

void srv_play_stop_all(struct srv_session *s)
{
	struct srv_play_in **in = srv_play_in_ptr(s);
	struct srv_list *pos, *tmp;

	srv_list_for_each_safe(pos, tmp, srv_play_list(s))
		srv_play_release(srv_container_of(pos, struct srv_play, node));
	if (*in) {
		free((*in)->buf);
		free(*in);
		*in = NULL;
	}
}

bool srv_play_waiting(const struct srv_session *s)
{
	const struct srv_list *head = srv_play_list(s), *pos;

	for (pos = head->next; pos != head; pos = pos->next)
		if (srv_container_of(pos, const struct srv_play, node)->pend)
			return true;
	return false;
}

static unsigned int srv_play_count(const struct srv_session *s)
{
	const struct srv_list *head = srv_play_list(s), *pos;
	unsigned int n = 0;

	for (pos = head->next; pos != head; pos = pos->next)
		n++;
	return n;
}

bool srv_play_in_payload(const struct srv_session *s)
{
	return *srv_play_in_ptr(s) != NULL;
}

/* ---- PLAY, LOOP ---- */

/* The output channels named (none: every one the device plays at once). */
static int srv_play_pick(struct srv_session *s, const struct proto_request *req,
			 struct iio_dev *dev, uint64_t *mask)
{
	const struct iio_chan_spec *c = NULL;
	char id[64];
	int i, k;

	*mask = req->nchannels ? 0 : iio_buffer_widest_mask(dev);
	for (i = 0; i < req->nchannels; i++) {
		for (k = 0; k < dev->num_channels; k++) {
			c = &dev->channels[k];
			if (c->scan_index >= 0 && c->output && c->type != IIO_TIMESTAMP &&
			    iio_chan_id(id, sizeof(id), c) >= 0 && !strcmp(id, req->channels[i]))
				break;
		}
		if (k == dev->num_channels || !c) {
			srv_dispatch_error(s, req, -ENOENT, "%s has no output scan element %s",
					   req->device, req->channels[i]);
			return -ENOENT;
		}
		if (*mask & (1ULL << c->scan_index)) {
			srv_dispatch_error(s, req, -EINVAL, "channels: %s named twice",
					   req->channels[i]);
			return -EINVAL;
		}
		*mask |= 1ULL << c->scan_index;
	}
	return 0;
}

/* An output buffer, a trigger that exists, and the writes it takes allowed. */
static int srv_play_check(struct srv_session *s, const struct proto_request *req,
			  struct iio_dev *dev, struct iio_trigger **trig)
{
	const struct srv_config *cfg = &s->srv->cfg;
	const char *why = cfg->read_only ? "--read-only" : "--allow-write";

	if (!iio_device_has_buffer(dev) ||
	    iio_device_buffer_direction(dev) != IIO_BUFFER_DIRECTION_OUT) {
		srv_dispatch_error(s, req, -EINVAL, "%s has no output buffer", dev->name);
		return -EINVAL;
	}
	*trig = NULL;
	if (req->trigger) {
		*trig = iio_trigger_find(s->srv->board->reg, req->trigger);
		if (!*trig) {
			srv_dispatch_error(s, req, -ENODEV, "no trigger %s", req->trigger);
			return -ENODEV;
		}
		if (*trig != iio_device_current_trigger(dev) &&
		    !srv_acl_may(cfg, dev, SRV_PLAY_TRIGGER_ATTR)) {
			srv_dispatch_error(s, req, -EACCES, "%s: setting %s is a write (%s)",
					   dev->name, SRV_PLAY_TRIGGER_ATTR, why);
			return -EACCES;
		}
	}
	if (!srv_acl_may(cfg, dev, SRV_STREAM_ENABLE_ATTR)) {
		srv_dispatch_error(s, req, -EACCES, "%s: enabling its buffer (%s) is a write (%s)",
				   dev->name, SRV_STREAM_ENABLE_ATTR, why);
		return -EACCES;
	}
	return 0;
}

/* Trigger, then the core's attach: -errno with @err set, or 0. */
static int srv_play_attach(struct srv_play *p, struct iio_trigger *trig, char *err, size_t len)
{
	struct iio_trigger *cur = iio_device_current_trigger(p->dev);
	int ret;

	if (trig && trig != cur) {
		ret = iio_device_set_trigger(p->dev, trig);
		if (ret == -EBUSY && cur)
			snprintf(err, len, "%s plays on %s (current_trigger cannot change while "
				 "buffered)", p->dev->name, cur->name);
		else if (ret)
			snprintf(err, len, "%s refuses trigger %s", p->dev->name, trig->name);
		if (ret)
			return ret;
	}
	ret = iio_buffer_attach(p->dev, &p->buf, err, len);
	if (ret)
		return ret;
	p->attached = true;
	iio_device_set_push_notify(p->dev, srv_play_notify, p);
	return 0;
}

/* The reply: STREAM's, with format raw (SEND's bytes are the kernel's records). */
static int srv_play_reply(struct srv_play *p, const struct proto_request *req)
{
	const struct iio_scan_layout *l = &p->buf.layout;
	struct iio_trigger *trig = iio_device_current_trigger(p->dev);
	struct proto_stream_info info;
	int i;

	for (i = 0; i < l->n && i < IIO_SCAN_INDEX_MAX; i++) {
		iio_chan_id(p->names[i], sizeof(p->names[i]), l->chan[i]);
		iio_scan_type_format(l->chan[i], p->types[i], sizeof(p->types[i]));
		p->types[i][strcspn(p->types[i], "\n")] = '\0';
		p->chans[i] = (struct proto_stream_chan){ p->names[i], l->chan[i]->scan_index,
							  l->offset[i], p->types[i] };
	}
	snprintf(p->trigger, sizeof(p->trigger), "%s", trig ? trig->name : "-");
	info = (struct proto_stream_info){
		.id = p->id, .device = p->device, .trigger = p->trigger, .scans = p->scans,
		.format = PROTO_FORMAT_RAW, .scan_bytes = l->bytes, .chans = p->chans,
		.nchans = i,
	};
	return proto_reply_stream(srv_session_out(p->s), req, &info);
}

static struct srv_play *srv_play_new(struct srv_session *s, const struct proto_request *req,
				     struct iio_dev *dev, uint64_t mask)
{
	struct srv_play *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (uv_async_init(&s->srv->loop, &p->async, srv_play_async_cb) < 0) {
		free(p);
		return NULL;
	}
	uv_unref((uv_handle_t *)&p->async);
	srv_list_init(&p->node);
	p->s = s;
	p->dev = iio_device_get(dev);
	p->loop = req->op == PROTO_OP_LOOP;
	p->scans = req->scans;
	p->buf.ops = &srv_play_buf_ops;
	p->buf.priv = p;
	p->buf.mask = mask;
	p->buf.direction = IIO_BUFFER_DIRECTION_OUT;
	p->buf.length = (unsigned int)req->scans * SRV_PLAY_QUEUE_BLOCKS;
	srv_play_rq(&p->rq, req);
	snprintf(p->device, sizeof(p->device), "iio:device%d", iio_device_id(dev));
	return p;
}

void srv_play_request(struct srv_session *s, const struct proto_request *req)
{
	char err[PROTO_MSG_MAX_BYTES] = "";
	struct iio_trigger *trig;
	struct iio_dev *dev;
	struct srv_play *p;
	uint64_t mask;
	int ret;

	if (s->native.nstreams + srv_play_count(s) >= SRV_STREAM_MAX_PER_SESSION) {
		srv_dispatch_error(s, req, -EBUSY, "at most %d streams per connection",
				   SRV_STREAM_MAX_PER_SESSION);
		return;
	}
	dev = srv_dispatch_find_device(s, req);
	if (!dev || srv_play_check(s, req, dev, &trig) || srv_play_pick(s, req, dev, &mask))
		return;
	p = srv_play_new(s, req, dev, mask);
	if (!p) {
		srv_dispatch_error(s, req, -ENOMEM, NULL);
		return;
	}
	ret = srv_play_attach(p, trig, err, sizeof(err));
	if (ret) {
		s->srv->stats.errors++;
		srv_dispatch_error(s, req, ret, err[0] ? "%s" : NULL, err);
		srv_play_release(p);
		return;
	}
	p->id = ++s->native.next_stream;
	srv_list_add_tail(srv_play_list(s), &p->node);
	srv_session_check(s, srv_play_reply(p, req));
}

/* ---- SEND ---- */

/* Why @p cannot take @bytes, into @in; 0 when it can. */
static int srv_play_refuse(struct srv_play_in *in, const struct srv_play *p, size_t bytes)
{
	size_t rec = (size_t)p->buf.layout.bytes;

	if (bytes % rec)
		snprintf(in->msg, sizeof(in->msg), "SEND: %zu bytes is not a whole number of "
			 "%zu-byte scans", bytes, rec);
	else if (bytes > rec * (size_t)p->scans)
		snprintf(in->msg, sizeof(in->msg), "SEND: %zu bytes is more than a block of %d "
			 "scans (%zu bytes)", bytes, p->scans, rec * (size_t)p->scans);
	else if (p->loop && p->looping)
		snprintf(in->msg, sizeof(in->msg), "LOOP %d plays its block already", p->id);
	else
		return 0;
	return p->loop && p->looping ? -EBUSY : -EINVAL;
}

void srv_play_send(struct srv_session *s, const struct proto_request *req)
{
	struct srv_play_in *in;
	struct srv_play *p;

	if (s->proto != &srv_proto_native) {
		srv_dispatch_error(s, req, -ENOSYS, "SEND's bytes follow its line: not over a "
				   "WebSocket");
		return;
	}
	in = calloc(1, sizeof(*in));
	if (!in) {
		srv_session_broken(s);
		return;
	}
	srv_play_rq(&in->rq, req);
	in->want = (size_t)req->bytes;
	p = srv_play_find(s, req->stream);
	if (!p) {
		in->err = -ENOENT;
		snprintf(in->msg, sizeof(in->msg), "no stream %d", req->stream);
	} else {
		in->err = srv_play_refuse(in, p, in->want);
	}
	if (!in->err) {
		in->buf = malloc(in->want);
		in->err = in->buf ? 0 : -ENOMEM;
		in->p = in->buf ? p : NULL;
	}
	*srv_play_in_ptr(s) = in;
}

/* All of a SEND's bytes are in: set the LOOP's block, or queue what fits and wait for the rest. */
static void srv_play_block(struct srv_session *s, struct srv_play_in *in)
{
	struct srv_play *p = in->p;
	unsigned int n = (unsigned int)(in->want / (size_t)p->buf.layout.bytes);
	int ret;

	if (p->loop) {
		ret = iio_buffer_set_cyclic(p->dev, &p->buf, in->buf, n);
		p->looping = ret == 0;
		srv_session_check(s, srv_play_reply_to(srv_session_out(s), p, &in->rq, in->want,
						       ret, NULL));
		return;
	}
	ret = iio_buffer_write_scans(p->dev, &p->buf, in->buf, n);
	if (ret < 0 || (unsigned int)ret == n) {
		srv_session_check(s, srv_play_reply_to(srv_session_out(s), p, &in->rq, in->want,
						       ret < 0 ? ret : 0, NULL));
		return;
	}
	/* the rest waits for room; the connection is read no further until then */
	p->pend = in->buf;
	in->buf = NULL;
	p->npend = n;
	p->at = (unsigned int)ret;
	p->pend_bytes = in->want;
	p->rq = in->rq;
	if (!srv_session_slot_new(s, &p->slot)) {
		srv_session_broken(s);
		free(p->pend);
		p->pend = NULL;
	}
}

size_t srv_play_feed(struct srv_session *s, const char *data, size_t len)
{
	struct srv_play_in *in = *srv_play_in_ptr(s);
	size_t n = in->want - in->got < len ? in->want - in->got : len;

	if (in->buf && in->p)
		memcpy(in->buf + in->got, data, n);
	in->got += n;
	if (in->got < in->want)
		return n;
	*srv_play_in_ptr(s) = NULL;
	if (in->p && !in->err)
		srv_play_block(s, in);
	else if (in->iiod)
		srv_session_check(s, proto_iiod_reply_code(srv_session_out(s),
							   in->err ? in->err : -ENODEV));
	else
		srv_dispatch_error(s, &in->rq, in->err ? in->err : -ENODEV, in->msg[0] ? "%s" : NULL,
				   in->msg);
	free(in->buf);
	free(in);
	return n;
}

/* ---- iiod 0.24: OPEN of an output device, WRITEBUF, CLOSE ---- */

static struct srv_play *srv_play_of_dev(struct srv_session *s, const struct iio_dev *dev)
{
	struct srv_list *pos, *tmp;
	struct srv_play *p;

	srv_list_for_each_safe(pos, tmp, srv_play_list(s)) {
		p = srv_container_of(pos, struct srv_play, node);
		if (p->dev == dev)
			return p;
	}
	return NULL;
}

int srv_play_open_iiod(struct srv_session *s, struct iio_dev *dev, uint64_t mask,
		       unsigned int samples, bool cyclic)
{
	struct proto_request rq = { .op = cyclic ? PROTO_OP_LOOP : PROTO_OP_PLAY,
				    .scans = (int)samples };
	struct srv_play *p;
	int ret;

	if (srv_play_of_dev(s, dev))
		return -EBUSY;
	p = srv_play_new(s, &rq, dev, mask);
	if (!p)
		return -ENOMEM;
	p->iiod = true;
	ret = srv_play_attach(p, NULL, NULL, 0);
	if (ret) {
		srv_play_release(p);
		return ret;
	}
	srv_list_add_tail(srv_play_list(s), &p->node);
	return 0;
}

void srv_play_writebuf(struct srv_session *s, const struct iio_dev *dev, uint64_t bytes)
{
	struct srv_play *p = srv_play_of_dev(s, dev);
	struct srv_play_in *in;
	int err;

	if (!p) {
		srv_session_check(s, proto_iiod_reply_code(srv_session_out(s), -EBADF));
		return;
	}
	in = calloc(1, sizeof(*in));
	if (!in) {
		srv_session_broken(s);
		return;
	}
	/* refused before the samples, which libiio then does not send */
	err = !bytes || bytes > PROTO_SEND_BYTES_MAX ? -EINVAL :
	      srv_play_refuse(in, p, (size_t)bytes);
	if (!err) {
		in->buf = malloc((size_t)bytes);
		err = in->buf ? 0 : -ENOMEM;
	}
	srv_session_check(s, proto_iiod_reply_code(srv_session_out(s), err));
	if (err) {
		free(in);
		return;
	}
	in->p = p;
	in->iiod = true;
	in->want = (size_t)bytes;
	*srv_play_in_ptr(s) = in;
}

int srv_play_close_dev(struct srv_session *s, const struct iio_dev *dev)
{
	struct srv_play *p = srv_play_of_dev(s, dev);

	if (!p)
		return -ENOENT;
	srv_play_release(p);
	return 0;
}

/* ---- libiio 1.0: an output buffer's blocks ---- */

int srv_play_open_bin(struct srv_session *s, struct iio_dev *dev, uint64_t mask,
		      unsigned int samples)
{
	struct srv_play *p;
	int ret = srv_play_open_iiod(s, dev, mask, samples, false);

	if (ret)
		return ret;
	p = srv_play_of_dev(s, dev);
	p->bin = true;
	return 0;
}

/* Queue a TX block's scans (the rest waits for room, input paused); it is answered once played. */
static int srv_play_bin_queue(struct srv_session *s, struct srv_play *p, const void *data,
			      size_t len, uint16_t client_id)
{
	unsigned int n = (unsigned int)(len / (size_t)p->buf.layout.bytes);
	int ret;

	if (p->ndone == SRV_PLAY_BIN_BLOCKS)
		return -EBUSY;
	ret = iio_buffer_write_scans(p->dev, &p->buf, data, n);
	if (ret < 0)
		return ret;
	p->written += (uint64_t)ret;
	p->handed += n;
	p->done[(p->dhead + p->ndone++) % SRV_PLAY_BIN_BLOCKS].id = client_id;
	p->done[(p->dhead + p->ndone - 1) % SRV_PLAY_BIN_BLOCKS].end = p->handed;
	if ((unsigned int)ret == n)
		return 0;
	p->pend = malloc(len);
	if (!p->pend) {
		srv_session_broken(s);
		return 0;
	}
	memcpy(p->pend, data, len);
	p->npend = n;
	p->at = (unsigned int)ret;
	p->pend_bytes = len;
	return 0;
}

void srv_play_block_bin(struct srv_session *s, const struct iio_dev *dev, const void *data,
			size_t len, bool cyclic, uint16_t client_id)
{
	struct srv_play *p = srv_play_of_dev(s, dev);
	struct srv_play_in in = { .p = p, .want = len };
	int err;

	if (!p || p->pend) {
		/* not enqueued: the error in the upper 16 bits, as libiio 1.0 reads it */
		srv_session_check(s, proto_iiodb_reply(srv_session_out(s), client_id,
						       (p ? -EBUSY : -EBADF) * 65536, NULL, 0));
		return;
	}
	p->bin_id = client_id;
	p->loop = cyclic;
	err = !len ? -EINVAL : srv_play_refuse(&in, p, len);
	if (!err && cyclic) {
		err = iio_buffer_set_cyclic(p->dev, &p->buf, data,
					    (unsigned int)(len / (size_t)p->buf.layout.bytes));
		p->looping = err == 0;
		if (!err)	/* a cyclic block is answered once set, as iiod 1.0 does */
			srv_session_check(s, proto_iiodb_reply(srv_session_out(s), client_id, 0,
							       NULL, 0));
	} else if (!err) {
		err = srv_play_bin_queue(s, p, data, len, client_id);
	}
	if (err)
		srv_session_check(s, proto_iiodb_reply(srv_session_out(s), client_id, err * 65536,
						       NULL, 0));
}

/* A TX block is played once the handler popped past its end: answer it (0, as a dequeue). */
static void srv_play_bin_tick(struct srv_play *p)
{
	uint64_t popped = p->written - iio_buffer_queued(p->dev);
	bool any = false;

	while (p->ndone && popped >= p->done[p->dhead].end) {
		srv_session_check(p->s, proto_iiodb_reply(srv_session_out(p->s),
							  p->done[p->dhead].id, 0, NULL, 0));
		p->dhead = (p->dhead + 1) % SRV_PLAY_BIN_BLOCKS;
		p->ndone--;
		any = true;
	}
	if (any)
		srv_session_flush(p->s);
}

void srv_play_tick(struct srv *srv)
{
	struct srv_list *pos, *tmp, *q, *t2;
	struct srv_session *s;

	srv_list_for_each_safe(pos, tmp, &srv->sessions) {
		s = srv_container_of(pos, struct srv_session, node);
		if (s->proto != &srv_proto_iiodb || srv_session_closing(s))
			continue;
		srv_list_for_each_safe(q, t2, &s->iiod.plays)
			srv_play_bin_tick(srv_container_of(q, struct srv_play, node));
	}
}
