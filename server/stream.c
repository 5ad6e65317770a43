/*
 * stream.c - the reader side of streams: STREAM and CSTREAM (channels,
 * trigger, the enable sequence on the loop or on the bus worker), the
 * blocks a reader gets (raw records, csv lines, JSON arrays), UNSTREAM,
 * STREAMS, and how a reader ends (STREAMEND, or quietly when its
 * connection goes).
 *
 * A reader is a core buffer (iio_buffer.h), so its record is the kernel's
 * for exactly its channels, demuxed by the core from the device's one
 * capture. Its records go straight into a ring of blocks (no copy more
 * than into one block); a finished block goes to the connection's output,
 * whole and behind any reply, while that output is below
 * SRV_STREAM_OUT_BYTES, and otherwise waits in the ring, up to
 * SRV_STREAM_QUEUE_BYTES. When the ring is full the oldest block is dropped
 * and its scans are counted in the next block's lost field (as events.c's
 * subscriptions do), so a slow reader gets the newest data when it reads
 * again and never slows the capture or the others; the output's drain
 * (srv_streams_writable()) moves the rest. The core calls store() while it
 * holds its list lock: store() only appends, flushing waits for
 * srv_streams_flush().
 * A reader detached on a bus worker is freed when that job ends.
 *
 * Names: a "stream" is the request (STREAM, CSTREAM: srv_stream_request(),
 * srv_open) and the module (srv_streams_*); a "reader" is one client's end
 * of a capture (struct srv_reader, srv_reader_*); the socket under a
 * session is the session's (uv_stream_t, session.c) and is never called so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl.h"
#include "board.h"
#include "busq.h"
#include "dispatch.h"
#include "iio_consumer.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "iio_value.h"
#include "session.h"
#include "srv.h"
#include "stream.h"
#include "stream_priv.h"

/* the attribute a changed trigger writes, for --read-only and --allow-write */
#define SRV_STREAM_TRIGGER_ATTR	"trigger/current_trigger"
/* sessions collected per round of srv_streams_flush() */
#define SRV_STREAM_FLUSH_BATCH	64
/* what a reader's record names the soft timestamp */
#define SRV_STREAM_TS_NAME	"timestamp"

/* Any thread for a retired reader: its share of the queues left when it was unlinked. */
static void srv_reader_free(struct srv_reader *st)
{
	int i;

	for (i = 0; i < st->nq; i++)
		free(st->q[i].rec);
	free(st->q);
	free(st->fifo);
	free(st->vals);
	free(st->sink_data);
	free(st);
}

/* ---- blocks ---- */

static size_t srv_reader_block_bytes(const struct srv_reader *st)
{
	return (size_t)st->scans * (size_t)st->buf.layout.bytes;
}

/* The queues' bound this reader counts in (queues.h). */
static struct srv_queues *srv_reader_queues(struct srv_reader *st)
{
	return &st->cap->ss->srv->queues;
}

/* Its share: the finished blocks waiting, or what its iiod FIFO holds. */
void srv_reader_account(struct srv_reader *st)
{
	srv_queue_set(srv_reader_queues(st), &st->acct, st->sink->held(st));
}

static size_t srv_native_held(const struct srv_reader *st)
{
	return (size_t)st->qlen * srv_reader_block_bytes(st);
}

size_t srv_iiod_held(const struct srv_reader *st)
{
	return st->fifo_len;
}

/*
 * Drop the oldest finished block: its scans and what it had lost move to the
 * next finished block's count, or to the next block begun (@carry).
 */
static void srv_reader_drop_oldest(struct srv_reader *st)
{
	struct srv_block *old = &st->q[st->qhead];
	uint64_t lost = old->lost + (uint64_t)st->scans;

	st->qhead = (st->qhead + 1) % st->nq;
	st->qlen--;
	if (st->qlen)
		st->q[st->qhead].lost += lost;
	else
		st->carry += lost;
	st->lost += (uint64_t)st->scans;
}

/* queues.h: over --max-queued-bytes, a native reader sheds its oldest blocks (S-6). */
static size_t srv_reader_shed_oldest(struct srv_queue *q, size_t want)
{
	struct srv_reader *st = srv_container_of(q, struct srv_reader, acct);
	size_t got = 0;

	while (st->qlen && got < want) {
		srv_reader_drop_oldest(st);
		got += srv_reader_block_bytes(st);
	}
	return got;
}

/* ...and an iiod reader its newest samples, as the kernel's kfifo refuses them. */
static size_t srv_reader_shed_newest(struct srv_queue *q, size_t want)
{
	struct srv_reader *st = srv_container_of(q, struct srv_reader, acct);
	size_t bytes = (size_t)st->buf.layout.bytes;
	size_t k = (want + bytes - 1) / bytes;

	if (k > st->fifo_len / bytes)
		k = st->fifo_len / bytes;
	st->fifo_len -= k * bytes;
	st->lost += k;
	return k * bytes;
}

static const struct srv_queue_ops srv_stream_queue_ops = { .shed = srv_reader_shed_oldest };
const struct srv_queue_ops srv_iiod_queue_ops = { .shed = srv_reader_shed_newest };

/* The ring of blocks: SRV_STREAM_QUEUE_BYTES of finished ones (at least 2), and the filling one. */
static int srv_reader_queue_alloc(struct srv_reader *st)
{
	size_t fit = SRV_STREAM_QUEUE_BYTES / srv_reader_block_bytes(st);

	st->nq = (fit < 2 ? 2 : (int)fit) + 1;
	st->q = calloc((size_t)st->nq, sizeof(*st->q));
	return st->q ? 0 : -ENOMEM;
}

static void srv_reader_decode(struct srv_reader *st, const uint8_t *rec, int64_t *out)
{
	const struct iio_scan_layout *l = &st->buf.layout;
	const struct srv_reader_conv *cv;
	int64_t raw;
	int i, v;

	for (i = 0; i < l->n; i++) {
		cv = &st->conv[i];
		raw = iio_scan_element_value(l->chan[i], rec + l->offset[i]);
		out[i] = raw;
		if (cv->is_ts || raw < INT32_MIN || raw > INT32_MAX)
			continue;
		if (iio_raw_to_processed((int)raw, cv->has_offset, cv->otype, cv->oval, cv->oval2,
					 cv->has_scale, cv->stype, cv->sval, cv->sval2, 1, &v) == 0)
			out[i] = v;
	}
}

/* Block @blk encoded into @b in the reader's format. Return: 0 or -errno. */
static int srv_reader_encode(struct srv_reader *st, const struct srv_block *blk,
			     struct proto_buf *b)
{
	size_t bytes = (size_t)st->buf.layout.bytes;
	struct proto_buf pay;
	int i, ret;

	if (st->format == PROTO_FORMAT_RAW) {
		ret = proto_block_head(b, st->json, st->id, st->scans, srv_reader_block_bytes(st),
				       blk->lost, st->format);
		return ret ? ret : proto_buf_append(b, blk->rec, srv_reader_block_bytes(st));
	}
	/* decoded only when sent: a slow reader's dropped blocks cost no decoding */
	for (i = 0; i < st->scans; i++)
		srv_reader_decode(st, blk->rec + (size_t)i * bytes,
				  st->vals + (size_t)i * (size_t)st->nchans);
	if (st->json && st->format == PROTO_FORMAT_JSON)
		return proto_block_json(b, st->id, st->scans, blk->lost, st->vals, st->nchans);
	proto_buf_init(&pay);
	ret = proto_block_values(&pay, st->format == PROTO_FORMAT_CSV, st->vals, st->scans,
				 st->nchans);
	if (!ret && st->format == PROTO_FORMAT_JSON)
		ret = proto_buf_append(&pay, "\n", 1);
	if (!ret)
		ret = proto_block_head(b, st->json, st->id, st->scans, pay.len, blk->lost,
				       st->format);
	if (!ret)
		ret = proto_buf_append(b, pay.data, pay.len);
	proto_buf_fini(&pay);
	return ret;
}

/*
 * Hand the oldest finished blocks to the session while its output is below
 * SRV_STREAM_OUT_BYTES (all of them when @all: the stream ends) and no
 * reply waits on a bus before them. Return: true if any went.
 */
static bool srv_reader_pump(struct srv_reader *st, bool all)
{
	struct srv_session *s = st->s;
	struct srv_block *blk;
	bool moved = false;

	while (st->qlen && s->state == SRV_CONN_OPEN && !s->slots_head &&
	       (all || srv_session_queued(s) < SRV_STREAM_OUT_BYTES)) {
		blk = &st->q[st->qhead];
		if (srv_session_check(s, srv_reader_encode(st, blk, srv_session_out(s))) < 0)
			break;
		st->delivered += (uint64_t)st->scans;
		st->qhead = (st->qhead + 1) % st->nq;
		st->qlen--;
		moved = true;
	}
	if (moved) {
		st->dirty = true;
		srv_reader_account(st);
	}
	return moved;
}

/* The filling block is full: queue it, hand out what fits, drop the oldest if no block is free. */
static void srv_reader_finish(struct srv_reader *st)
{
	st->qlen++;
	st->n = 0;
	srv_reader_pump(st, false);
	if (!st->qlen)
		st->qhead = 0;	/* a reader that keeps up fills the same block */
	if (st->qlen == st->nq)
		srv_reader_drop_oldest(st);	/* nq >= 3: a finished block follows it */
	srv_reader_account(st);
}

/* Is @st still taking records? */
static bool srv_reader_taking(const struct srv_reader *st)
{
	return !st->ended && st->s && st->s->state == SRV_CONN_OPEN;
}

/*
 * Core callback of an iiod reader (the iiod sink): its records, as the kfifo
 * iiod reads from, where a full queue drops the new scans.
 */
static void srv_iiod_store_n(struct iio_buffer *buf, const uint8_t *recs, unsigned int n,
			     uint64_t lost)
{
	struct srv_reader *st = srv_container_of(buf, struct srv_reader, buf);
	size_t bytes = (size_t)st->buf.layout.bytes;
	size_t fit = (st->fifo_cap - st->fifo_len) / bytes;

	(void)lost;	/* iiod has no count of it */
	if (!srv_reader_taking(st))
		return;
	if (fit > n)
		fit = n;
	memcpy(st->fifo + st->fifo_len, recs, fit * bytes);
	st->fifo_len += fit * bytes;
	st->dirty = st->want != 0;
	srv_reader_account(st);
}

/* The block being filled, its records allocated on first use; NULL: out of memory. */
static struct srv_block *srv_reader_filling(struct srv_reader *st)
{
	struct srv_block *blk = &st->q[(st->qhead + st->qlen) % st->nq];

	if (!blk->rec) {
		blk->rec = malloc(srv_reader_block_bytes(st));
		if (!blk->rec) {
			srv_session_broken(st->s);
			return NULL;
		}
	}
	if (st->n == 0) {
		blk->lost = st->carry;
		st->carry = 0;
	}
	return blk;
}

/*
 * Core callback, consumer (loop) thread, under the core's list lock: @n
 * records as the core's ring holds them, copied into the blocks a stretch
 * at a time (a memcpy per block, not per 8-byte scan).
 */
static void srv_reader_store_n(struct iio_buffer *buf, const uint8_t *recs, unsigned int n,
			       uint64_t lost)
{
	struct srv_reader *st = srv_container_of(buf, struct srv_reader, buf);
	size_t bytes = (size_t)buf->layout.bytes;
	struct srv_block *blk;
	unsigned int take;

	while (n && srv_reader_taking(st)) {
		blk = srv_reader_filling(st);
		if (!blk)
			return;
		st->lost += lost;
		blk->lost += lost;
		lost = 0;
		take = (unsigned int)st->scans - (unsigned int)st->n;
		if (take > n)
			take = n;
		memcpy(blk->rec + (size_t)st->n * bytes, recs, take * bytes);
		st->n += (int)take;
		recs += take * bytes;
		n -= take;
		if (st->n == st->scans)
			srv_reader_finish(st);
	}
}

/* Core callbacks: one record (a demuxed one), as a stretch of one. */
static void srv_reader_store(struct iio_buffer *buf, const uint8_t *rec, uint64_t lost)
{
	srv_reader_store_n(buf, rec, 1, lost);
}

static void srv_iiod_store(struct iio_buffer *buf, const uint8_t *rec, uint64_t lost)
{
	srv_iiod_store_n(buf, rec, 1, lost);
}

void srv_streams_writable(struct srv_session *s)
{
	struct srv_list *pos, *tmp;
	bool moved;

	if (!srv_proto_is_native(s->proto))
		return;
	do {
		moved = false;
		srv_list_for_each_safe(pos, tmp, &s->native.streams)
			moved |= srv_reader_pump(srv_container_of(pos, struct srv_reader, node),
						 false);
		if (moved)
			srv_session_flush(s);	/* may take it all: then more fits */
	} while (moved && s->state == SRV_CONN_OPEN);
}

/* Core callback: the capture ended without the reader asking (removal, bus). */
static void srv_reader_core_end(struct iio_buffer *buf, int err)
{
	struct srv_reader *st = srv_container_of(buf, struct srv_reader, buf);

	st->attached = false;
	if (st->retired) {
		srv_reader_free(st);	/* any thread: nothing else points at it */
		return;
	}
	srv_reader_ended(st, err, NULL);
	srv_stream_reap(st->cap);
}

static const struct iio_buffer_ops srv_stream_ops = {
	.store = srv_reader_store,
	.store_n = srv_reader_store_n,
	.end = srv_reader_core_end,
};

const struct iio_buffer_ops srv_iiod_buffer_ops = {
	.store = srv_iiod_store,
	.store_n = srv_iiod_store_n,
	.end = srv_reader_core_end,
};

/*
 * Hand what the readers got to the kernel, one flush per session however
 * many of its readers got blocks: the sessions are collected first, then
 * flushed. A flush may close a session; its readers stay until its close
 * callback (server/README.md, "Who owns what").
 */
void srv_streams_flush(struct srv_streams *ss)
{
	struct srv_session *todo[SRV_STREAM_FLUSH_BATCH];
	struct srv_slot *slots[SRV_STREAM_FLUSH_BATCH];
	struct srv_list *pos, *tmp, *p2, *t2;
	uint64_t now = uv_now(&ss->srv->loop);
	struct srv_reader *st;
	int n, i, k;

	do {
		n = 0;
		srv_list_for_each_safe(pos, tmp, &ss->captures) {
			srv_list_for_each_safe(p2, t2, &srv_container_of(pos, struct srv_capture,
									   node)->readers) {
				st = srv_container_of(p2, struct srv_reader, cnode);
				if (!st->s || n == SRV_STREAM_FLUSH_BATCH)
					continue;
				/* an iiod READBUF answered now: its slot is done below */
				slots[n] = st->sink->ready && st->sink->ready(st, now) ? st->slot : NULL;
				if (slots[n])
					st->slot = NULL;
				else if (!st->dirty)
					continue;
				st->dirty = false;
				for (k = 0; k < n && (todo[k] != st->s || slots[k] || slots[n]); k++)
					;
				if (k == n)
					todo[n++] = st->s;
			}
		}
		for (i = 0; i < n; i++) {
			if (slots[i]) {
				srv_session_slot_done(todo[i], slots[i]);
				continue;
			}
			srv_session_flush(todo[i]);
			/* the socket took it all: blocks held meanwhile need not wait for the next */
			if (srv_session_queued(todo[i]) < SRV_STREAM_OUT_BYTES)
				srv_streams_writable(todo[i]);
		}
	} while (n == SRV_STREAM_FLUSH_BATCH);
}

/* ---- leaving ---- */

void srv_reader_unlink(struct srv_reader *st)
{
	if (st->cap)
		srv_queue_leave(srv_reader_queues(st), &st->acct);
	if (st->in_session) {
		srv_list_del(&st->node);
		if (st->sink->leave)
			st->sink->leave(st);
		st->in_session = false;
	}
	st->s = NULL;
}

struct srv_detach_job {
	struct srv_job job;
	struct srv_reader *st;
	struct iio_dev *dev;	/* referenced */
	bool ran;
};

static void srv_detach_job_run(struct srv_job *job)
{
	struct srv_detach_job *dj = srv_container_of(job, struct srv_detach_job, job);

	iio_buffer_detach(dj->dev, &dj->st->buf);
	dj->ran = true;
}

static void srv_detach_job_done(struct srv_job *job, int status)
{
	(void)job;
	(void)status;
}

static void srv_detach_job_fini(struct srv_job *job)
{
	struct srv_detach_job *dj = srv_container_of(job, struct srv_detach_job, job);
	struct srv_capture *c = dj->st->cap;

	/* cancelled at shutdown: detach here, unless a worker still holds the device */
	if (!dj->ran && !c->hung)
		iio_buffer_detach(dj->dev, &dj->st->buf);
	if (dj->ran || !c->hung)
		srv_reader_free(dj->st);
	iio_device_put(dj->dev);
	free(dj);
	c->refs--;
	srv_capture_put_if_idle(c);
}

/* Take @st out of its capture and free it, on the bus worker when the device may block. */
void srv_reader_release(struct srv_reader *st)
{
	struct srv_capture *c = st->cap;
	struct srv_detach_job *dj;

	if (st->in_capture) {
		srv_list_del(&st->cnode);
		c->nreaders--;
		st->in_capture = false;
	}
	if (st->attached && c->q) {
		dj = calloc(1, sizeof(*dj));
		if (dj) {
			dj->st = st;
			dj->dev = iio_device_get(c->dev);
			dj->job.run = srv_detach_job_run;
			dj->job.done = srv_detach_job_done;
			dj->job.fini = srv_detach_job_fini;
			c->refs++;
			if (srv_busq_submit(c->q, &dj->job) == 0)
				return;
			c->refs--;
			iio_device_put(dj->dev);
			free(dj);
		}
		if (c->hung)
			return;		/* leaked on purpose: the core may still use it */
	}
	if (st->attached)
		iio_buffer_detach(c->dev, &st->buf);
	srv_reader_free(st);
	srv_capture_put_if_idle(c);
}

/* The native sink's end: its finished blocks, then STREAMEND with @err and why. */
static void srv_native_end(struct srv_reader *st, int err, const char *why)
{
	char msg[PROTO_MSG_MAX_BYTES];

	if (!st->s)
		return;
	snprintf(msg, sizeof(msg), "%s: %s", st->device,
		 why ? why : (err == -ENODEV ? "device removed" :
			      proto_errno_message(err) ? proto_errno_message(err) : "error"));
	srv_reader_pump(st, true);	/* its finished blocks come before the end */
	srv_session_check(st->s, proto_streamend_encode(srv_session_out(st->s), st->json,
						       st->id, err, msg));
	st->dirty = true;
	srv_session_flush(st->s);
}

static void srv_iiod_end(struct srv_reader *st, int err, const char *why)
{
	(void)why;	/* iiod has a code and no text */
	srv_iiod_reader_answer(st, err);
}

void srv_reader_ended(struct srv_reader *st, int err, const char *why)
{
	if (st->ended)
		return;
	st->ended = true;
	st->sink->end(st, err, why);
	srv_reader_unlink(st);
}

/* ---- the two sinks: a STREAM's blocks, an iiod OPEN's FIFO ---- */

/* A native reader's blocks and decoded values, before it joins. */
static int srv_native_prepare(struct srv_reader *st)
{
	st->vals = malloc((size_t)st->scans * (size_t)st->nchans * sizeof(*st->vals));
	return !st->vals ? -ENOMEM : srv_reader_queue_alloc(st);
}

static void srv_native_join(struct srv_reader *st, struct srv_session *s)
{
	st->id = ++s->native.next_stream;
	srv_list_add_tail(&s->native.streams, &st->node);
	s->native.nstreams++;
}

static void srv_native_leave(struct srv_reader *st)
{
	st->s->native.nstreams--;
}

void srv_iiod_join(struct srv_reader *st, struct srv_session *s)
{
	srv_list_add_tail(&s->iiod.readers, &st->node);
}

/* an OPEN's answer: its code */
static int srv_iiod_answer(struct srv_reader *st, struct proto_buf *b, int err)
{
	(void)st;
	return proto_iiod_reply_code(b, err);
}

const struct srv_sink srv_sink_native = {
	.buf_ops = &srv_stream_ops,
	.queue_ops = &srv_stream_queue_ops,
	.held = srv_native_held,
	.prepare = srv_native_prepare,
	.join = srv_native_join,
	.leave = srv_native_leave,
	.end = srv_native_end,
};

const struct srv_sink srv_sink_iiod = {
	.buf_ops = &srv_iiod_buffer_ops,
	.queue_ops = &srv_iiod_queue_ops,
	.held = srv_iiod_held,
	.join = srv_iiod_join,
	.answer = srv_iiod_answer,
	.ready = srv_iiod_reader_ready,
	.end = srv_iiod_end,
};

/* Release the ended readers of @c that are no longer attached (or can be detached). */
void srv_stream_reap(struct srv_capture *c)
{
	struct srv_list *pos, *tmp;
	struct srv_reader *st;

	if (!c)
		return;
	srv_list_for_each_safe(pos, tmp, &c->readers) {
		st = srv_container_of(pos, struct srv_reader, cnode);
		if (st->ended && (!st->attached || !c->job))
			srv_reader_release(st);
	}
}

/*
 * @c's device left (the board was replaced, or it went alone): its readers
 * end with ENODEV and @why, the core's unregister frees them later.
 */
void srv_capture_retire(struct srv_capture *c, const char *why)
{
	struct srv_list *pos, *tmp;
	struct srv_reader *st;

	c->retired = true;
	srv_list_for_each_safe(pos, tmp, &c->readers) {
		st = srv_container_of(pos, struct srv_reader, cnode);
		srv_reader_ended(st, -ENODEV, why);
		srv_list_del(&st->cnode);
		st->in_capture = false;
		c->nreaders--;
		if (st->attached)
			st->retired = true;	/* the old board's unregister ends and frees it */
		else
			srv_reader_free(st);
	}
	srv_capture_put_if_idle(c);
}

void srv_stream_stop_all(struct srv_session *s)
{
	struct srv_list *pos, *tmp;
	struct srv_reader *st;

	srv_list_for_each_safe(pos, tmp, &s->native.streams) {
		st = srv_container_of(pos, struct srv_reader, node);
		st->ended = true;
		srv_reader_unlink(st);
		srv_reader_release(st);
	}
}

void srv_stream_unstream(struct srv_session *s, const struct proto_request *req)
{
	struct srv_list *pos, *tmp;
	struct srv_reader *st;
	bool found = false;

	srv_list_for_each_safe(pos, tmp, &s->native.streams) {
		st = srv_container_of(pos, struct srv_reader, node);
		if (req->stream && st->id != req->stream)
			continue;
		found = true;
		st->ended = true;
		srv_reader_unlink(st);
		srv_reader_release(st);
	}
	if (req->stream && !found) {
		srv_dispatch_error(s, req, -ENOENT, "no stream %d", req->stream);
		return;
	}
	srv_session_check(s, proto_reply_ok(srv_session_out(s), req));
}

/* ---- STREAMS ---- */

static void srv_reader_info(const struct srv_reader *st, struct proto_stream_info *info)
{
	*info = (struct proto_stream_info){
		.id = st->id, .device = st->device, .trigger = st->trigger, .scans = st->scans,
		.format = st->format, .scan_bytes = st->buf.layout.bytes, .chans = st->chans,
		.nchans = st->nchans, .delivered = st->delivered, .lost = st->lost,
	};
}

void srv_stream_list(struct srv_session *s, const struct proto_request *req)
{
	struct proto_buf *b = srv_session_out(s);
	struct proto_stream_info info;
	struct srv_list *pos, *tmp;
	int i = 0, ret;

	ret = proto_list_begin(b, req, (int)s->native.nstreams);
	srv_list_for_each_safe(pos, tmp, &s->native.streams) {
		if (ret)
			break;
		srv_reader_info(srv_container_of(pos, struct srv_reader, node), &info);
		ret = proto_list_stream(b, req, i++, &info);
	}
	if (!ret)
		ret = proto_list_end(b, req);
	srv_session_check(s, ret);
}

/* ---- opening ---- */

/* The INFO attribute @info of @chan (its own or shared), read as (type, vals). */
static bool srv_stream_read_info(struct iio_dev *dev, const struct iio_chan_spec *chan, int info,
				 int *type, int *v1, int *v2)
{
	const struct iio_attr *a;
	int vals[2], n, i, ret;

	for (i = 0; i < iio_device_attr_count(dev); i++) {
		a = iio_device_attr_at(dev, i);
		if (a->kind != IIO_ATTR_INFO || a->info != info || !iio_chan_has_attr(chan, a))
			continue;
		ret = iio_attr_read_value(dev, a, vals, 2, &n);
		if (ret < 0)
			return false;
		*type = ret;
		*v1 = vals[0];
		*v2 = n > 1 ? vals[1] : 0;
		return true;
	}
	return false;
}

/* What the enable needs of the device, wherever it runs (loop or bus worker). */
static int srv_stream_open_run(struct srv_reader *st, struct iio_dev *dev,
			       struct iio_trigger *trig, char *err, size_t errlen)
{
	struct iio_trigger *cur = iio_device_current_trigger(dev);
	const struct iio_scan_layout *l = &st->buf.layout;
	struct srv_reader_conv *cv;
	int i, ret;

	if (trig && trig != cur) {
		ret = iio_device_set_trigger(dev, trig);
		if (ret == -EBUSY && cur)
			snprintf(err, errlen, "%s is capturing on %s (current_trigger cannot change "
				 "while buffered)", dev->name, cur->name);
		else if (ret)
			snprintf(err, errlen, "%s refuses trigger %s", dev->name, trig->name);
		if (ret)
			return ret;
	}
	ret = iio_buffer_attach(dev, &st->buf, err, errlen);
	if (ret)
		return ret;
	for (i = 0; i < l->n; i++) {
		cv = &st->conv[i];
		cv->is_ts = l->chan[i]->type == IIO_TIMESTAMP;
		if (cv->is_ts)
			continue;
		cv->has_scale = srv_stream_read_info(dev, l->chan[i], IIO_CHAN_INFO_SCALE,
						     &cv->stype, &cv->sval, &cv->sval2);
		cv->has_offset = srv_stream_read_info(dev, l->chan[i], IIO_CHAN_INFO_OFFSET,
						      &cv->otype, &cv->oval, &cv->oval2);
	}
	return 0;
}

/* ---- STREAM, CSTREAM ---- */

/**
 * struct srv_open - one STREAM/CSTREAM being enabled, on the loop or as a
 * bus job. @names/@specs: what the reply calls each channel (CSTREAM: the
 * consumer's names). @ret: the enable's outcome (-ECANCELED until it ran).
 */
struct srv_open {
	struct srv_job job;
	struct srv_session *s;
	struct srv_slot *slot;
	struct proto_request rq;	/* op, flags and id, for the reply */
	struct srv_reader *st;
	struct srv_capture *cap;
	struct iio_dev *dev;		/* referenced */
	struct iio_trigger *trig;
	bool consumer;
	int nnames;
	const struct iio_chan_spec *specs[IIO_SCAN_INDEX_MAX + 1];
	char names[IIO_SCAN_INDEX_MAX + 1][48];
	int ret;
	char err[PROTO_MSG_MAX_BYTES];
};

/* The reply's name of @chan: the consumer's, or its ABI id. */
static void srv_open_name(const struct srv_open *op, const struct iio_chan_spec *chan, char *buf,
			  size_t len)
{
	int i;

	for (i = 0; i < op->nnames; i++) {
		if (op->specs[i] == chan) {
			snprintf(buf, len, "%s", op->names[i]);
			return;
		}
	}
	if (chan->type == IIO_TIMESTAMP || iio_chan_id(buf, len, chan) < 0)
		snprintf(buf, len, "%s", SRV_STREAM_TS_NAME);
}

/* The enable worked: the reader joins its session and capture; the reply goes out. */
static int srv_open_accept(struct srv_open *op, struct proto_buf *b)
{
	struct srv_reader *st = op->st;
	const struct iio_scan_layout *l = &st->buf.layout;
	struct iio_trigger *trig = iio_device_current_trigger(op->dev);
	struct proto_stream_info info;
	int i;

	st->nchans = l->n;
	if (st->sink->prepare && st->sink->prepare(st))
		return -ENOMEM;
	for (i = 0; i < l->n; i++) {
		srv_open_name(op, l->chan[i], st->names[i], sizeof(st->names[i]));
		iio_scan_type_format(l->chan[i], st->types[i], sizeof(st->types[i]));
		st->types[i][strcspn(st->types[i], "\n")] = '\0';
		st->chans[i] = (struct proto_stream_chan){ st->names[i], l->chan[i]->scan_index,
							   l->offset[i], st->types[i] };
	}
	snprintf(st->trigger, sizeof(st->trigger), "%s", trig ? trig->name : "-");
	st->sink->join(st, op->s);
	srv_reader_info(st, &info);
	st->in_session = true;
	srv_list_add_tail(&op->cap->readers, &st->cnode);
	op->cap->nreaders++;
	st->in_capture = true;
	st->s = op->s;
	srv_queue_join(srv_reader_queues(st), &st->acct);
	return st->sink->answer ? st->sink->answer(st, b, 0) : proto_reply_stream(b, &op->rq, &info);
}

/* Answer the open into @b; Return: true when the reader was taken. */
static bool srv_open_answer(struct srv_open *op, struct proto_buf *b, int status)
{
	struct srv *srv = op->s->srv;
	int ret = status < 0 ? status : op->ret;

	if (!ret) {
		ret = srv_open_accept(op, b);
		if (!ret)
			return true;
		srv_reader_unlink(op->st);
		if (op->st->in_capture) {
			srv_list_del(&op->st->cnode);
			op->cap->nreaders--;
			op->st->in_capture = false;
		}
	}
	srv->stats.errors++;
	if (status == -ETIMEDOUT)
		snprintf(op->err, sizeof(op->err), "%s: no answer from the bus in time",
			 op->dev->name);
	if (op->st->sink->answer)
		srv_session_check(op->s, op->st->sink->answer(op->st, b, ret));
	else
		srv_session_check(op->s, proto_reply_error(b, &op->rq, ret,
							   op->err[0] ? op->err : NULL));
	return false;
}

/* The reader was not taken: detach it if the enable worked, then free everything. */
static void srv_open_fini(struct srv_open *op, bool taken)
{
	struct srv_capture *c = op->cap;

	if (!taken) {
		op->st->attached = op->ret == 0;
		op->st->ended = true;
		op->st->cap = c;
		srv_reader_release(op->st);
	}
	c->refs--;
	iio_device_put(op->dev);
	free(op);
	srv_capture_put_if_idle(c);
}

static void srv_open_job_run(struct srv_job *job)
{
	struct srv_open *op = srv_container_of(job, struct srv_open, job);

	op->ret = srv_stream_open_run(op->st, op->dev, op->trig, op->err, sizeof(op->err));
	op->st->attached = op->ret == 0;
}

static void srv_open_job_done(struct srv_job *job, int status)
{
	struct srv_open *op = srv_container_of(job, struct srv_open, job);

	if (!op->slot)
		return;		/* the session went first */
	op->job.data = (void *)(uintptr_t)srv_open_answer(op, &op->slot->text, status);
	srv_session_slot_done(op->s, op->slot);
}

static void srv_open_job_fini(struct srv_job *job)
{
	struct srv_open *op = srv_container_of(job, struct srv_open, job);

	srv_open_fini(op, op->job.data != NULL);
}

/* STREAM's channel ids into the reader's mask. Return: 0 or -errno, answered. */
static int srv_open_pick_device(struct srv_session *s, const struct proto_request *req,
				struct srv_open *op)
{
	struct iio_buffer *buf = &op->st->buf;
	const struct iio_chan_spec *c = NULL;
	char id[64];
	int i, k;

	if (!req->nchannels) {
		/* none named: all that can be captured together, and the timestamp */
		buf->mask = iio_buffer_widest_mask(op->dev);
		for (k = 0; k < op->dev->num_channels; k++)
			buf->timestamp |= op->dev->channels[k].type == IIO_TIMESTAMP &&
					  op->dev->channels[k].scan_index >= 0;
	}
	for (i = 0; i < req->nchannels; i++) {
		for (k = 0; k < op->dev->num_channels; k++) {
			c = &op->dev->channels[k];
			if (c->scan_index < 0 || c->output)
				continue;
			if (c->type == IIO_TIMESTAMP ?
			    strcmp(req->channels[i], SRV_STREAM_TS_NAME) == 0 :
			    iio_chan_id(id, sizeof(id), c) >= 0 && strcmp(id, req->channels[i]) == 0)
				break;
		}
		if (k == op->dev->num_channels || !c) {
			srv_dispatch_error(s, req, -ENOENT, "%s has no scan element %s",
					   req->device, req->channels[i]);
			return -ENOENT;
		}
		if (c->type == IIO_TIMESTAMP ? buf->timestamp :
		    !!(buf->mask & (1ULL << c->scan_index))) {
			srv_dispatch_error(s, req, -EINVAL, "channels: %s named twice",
					   req->channels[i]);
			return -EINVAL;
		}
		if (c->type == IIO_TIMESTAMP)
			buf->timestamp = true;
		else
			buf->mask |= 1ULL << c->scan_index;
	}
	return 0;
}

/* Is @name wanted by a CSTREAM that lists @req->channels (or none)? */
static bool srv_open_wanted(const struct proto_request *req, const char *name)
{
	int i;

	for (i = 0; i < req->nchannels; i++)
		if (name && strcmp(req->channels[i], name) == 0)
			return true;
	return !req->nchannels;
}

/* CSTREAM: the consumer's channels, all on one device (iio_channel_get_all_cb). */
static int srv_open_pick_consumer(struct srv_session *s, const struct proto_request *req,
				  struct srv_open *op)
{
	struct iio_channel *chans = NULL, *c;
	int ret, found = 0;

	ret = iio_channel_get_all(s->srv->board->reg, req->consumer, &chans);
	if (ret < 0) {
		srv_dispatch_error(s, req, ret == -ENODEV ? -ENODEV : ret,
				   "no consumer %s: no channel map names it", req->consumer);
		return ret;
	}
	for (c = chans; c->indio_dev; c++) {
		if (!srv_open_wanted(req, c->consumer_channel))
			continue;
		if (op->dev && op->dev != c->indio_dev) {
			srv_dispatch_error(s, req, -EINVAL, "%s: channels of several devices",
					   req->consumer);
			ret = -EINVAL;
			break;
		}
		if (c->channel->scan_index < 0 || op->nnames > IIO_SCAN_INDEX_MAX) {
			srv_dispatch_error(s, req, -EINVAL, "%s %s is not a scan element",
					   req->consumer, c->consumer_channel);
			ret = -EINVAL;
			break;
		}
		op->dev = op->dev ? op->dev : iio_device_get(c->indio_dev);
		op->specs[op->nnames] = c->channel;
		snprintf(op->names[op->nnames++], sizeof(op->names[0]), "%s",
			 c->consumer_channel ? c->consumer_channel : c->provider_label);
		if (c->channel->type == IIO_TIMESTAMP)
			op->st->buf.timestamp = true;
		else
			op->st->buf.mask |= 1ULL << c->channel->scan_index;
		found++;
	}
	iio_channel_release_all(chans);
	if (!ret && found < (req->nchannels ? req->nchannels : 1)) {
		srv_dispatch_error(s, req, -ENODEV, "no such channel of consumer %s",
				   req->consumer);
		ret = -ENODEV;
	}
	return ret;
}

/* Trigger, limits, capture: everything checked on the loop before the enable. */
static int srv_open_prepare(struct srv_session *s, const struct proto_request *req,
			    struct srv_open *op)
{
	struct iio_registry *reg = s->srv->board->reg;

	if (!iio_device_has_buffer(op->dev)) {
		srv_dispatch_error(s, req, -EINVAL, "%s has no buffer", op->dev->name);
		return -EINVAL;
	}
	if (req->trigger) {
		op->trig = iio_trigger_find(reg, req->trigger);
		if (!op->trig) {
			srv_dispatch_error(s, req, -ENODEV, "no trigger %s", req->trigger);
			return -ENODEV;
		}
		if (op->trig != iio_device_current_trigger(op->dev) &&
		    !srv_acl_may(&s->srv->cfg, op->dev, SRV_STREAM_TRIGGER_ATTR)) {
			srv_dispatch_error(s, req, -EACCES, "%s: setting %s is a write (%s)",
					   op->dev->name, SRV_STREAM_TRIGGER_ATTR,
					   s->srv->cfg.read_only ? "--read-only" : "--allow-write");
			return -EACCES;
		}
	}
	/* the capture writes scan_elements/ and buffer/ (a kernel device's raw reads go EBUSY) */
	if (!srv_acl_may(&s->srv->cfg, op->dev, SRV_STREAM_ENABLE_ATTR)) {
		srv_dispatch_error(s, req, -EACCES, "%s: enabling its buffer (%s) is a write (%s)",
				   op->dev->name, SRV_STREAM_ENABLE_ATTR,
				   s->srv->cfg.read_only ? "--read-only" : "--allow-write");
		return -EACCES;
	}
	op->cap = srv_capture_get(s->srv->streams, op->dev);
	if (!op->cap) {
		srv_dispatch_error(s, req, -ENOMEM, NULL);
		return -ENOMEM;
	}
	if (op->cap->nreaders >= SRV_STREAM_READERS_MAX) {
		srv_dispatch_error(s, req, -EBUSY, "%s has %d readers already", op->dev->name,
				   SRV_STREAM_READERS_MAX);
		srv_capture_put_if_idle(op->cap);
		return -EBUSY;
	}
	if (srv_dispatch_route(s->srv, op->dev, &op->cap->q) < 0)
		op->cap->q = NULL;
	op->cap->refs++;
	return 0;
}

static struct srv_open *srv_open_new(struct srv_session *s, const struct proto_request *req)
{
	struct srv_open *op = calloc(1, sizeof(*op));

	if (!op)
		return NULL;
	op->st = calloc(1, sizeof(*op->st));
	if (!op->st) {
		free(op);
		return NULL;
	}
	op->st->sink = &srv_sink_native;
	srv_queue_init(&op->st->acct, srv_sink_native.queue_ops);
	op->s = s;
	op->rq.op = req->op;
	op->rq.flags = req->flags;
	memcpy(op->rq.id, req->id, sizeof(op->rq.id));
	op->ret = -ECANCELED;
	op->st->buf.ops = srv_sink_native.buf_ops;
	op->st->json = req->flags & PROTO_REQ_JSON;
	op->st->format = req->format;
	op->st->scans = req->scans;
	return op;
}

static void srv_open_start(struct srv_session *s, struct srv_open *op)
{
	struct srv_capture *c = op->cap;

	op->st->cap = c;
	snprintf(op->st->device, sizeof(op->st->device), "iio:device%d", iio_device_id(op->dev));
	if (c->q) {
		op->job.run = srv_open_job_run;
		op->job.done = srv_open_job_done;
		op->job.fini = srv_open_job_fini;
		op->slot = srv_session_slot_new(s, &op->slot);
		if (op->slot && srv_busq_submit(c->q, &op->job) == 0)
			return;
		if (op->slot) {
			snprintf(op->err, sizeof(op->err), "the bus queue is full");
			srv_open_answer(op, &op->slot->text, -EBUSY);
			srv_session_slot_done(s, op->slot);
		} else {
			srv_session_broken(s);
		}
		srv_open_fini(op, false);
		return;
	}
	op->ret = srv_stream_open_run(op->st, op->dev, op->trig, op->err, sizeof(op->err));
	op->st->attached = op->ret == 0;
	srv_open_fini(op, srv_open_answer(op, srv_session_out(s), 0));
}

void srv_stream_request(struct srv_session *s, const struct proto_request *req)
{
	struct srv_open *op;
	struct iio_dev *dev;

	if (s->native.nstreams >= SRV_STREAM_MAX_PER_SESSION) {
		srv_dispatch_error(s, req, -EBUSY, "at most %d streams per connection",
				   SRV_STREAM_MAX_PER_SESSION);
		return;
	}
	op = srv_open_new(s, req);
	if (!op) {
		srv_dispatch_error(s, req, -ENOMEM, NULL);
		return;
	}
	if (req->op == PROTO_OP_CSTREAM) {
		op->consumer = true;
		if (srv_open_pick_consumer(s, req, op) < 0)
			goto err_free;
	} else {
		dev = srv_dispatch_find_device(s, req);
		if (!dev)
			goto err_free;
		op->dev = iio_device_get(dev);
		if (srv_open_pick_device(s, req, op) < 0)
			goto err_free;
	}
	if (srv_open_prepare(s, req, op) < 0)
		goto err_free;
	srv_open_start(s, op);
	return;

err_free:
	iio_device_put(op->dev);
	free(op->st);
	free(op);
}

int srv_stream_open_iiod(struct srv_session *s, struct iio_dev *dev, const struct srv_sink *sink,
			 uint64_t mask, bool ts, size_t fifo_cap, const char *mask_text,
			 void *sink_data)
{
	struct srv_open *op;
	int ret;

	op = calloc(1, sizeof(*op));
	if (op)
		op->st = calloc(1, sizeof(*op->st));
	if (op && op->st)
		op->st->fifo = malloc(fifo_cap);
	if (!op || !op->st || !op->st->fifo) {
		if (op)
			free(op->st);
		free(op);
		free(sink_data);
		return -ENOMEM;
	}
	op->s = s;
	op->ret = -ECANCELED;
	op->dev = iio_device_get(dev);
	op->st->sink = sink;
	op->st->sink_data = sink_data;	/* freed with the reader */
	srv_queue_init(&op->st->acct, sink->queue_ops);
	op->st->fifo_cap = fifo_cap;
	op->st->buf.ops = sink->buf_ops;
	op->st->buf.mask = mask;
	op->st->buf.timestamp = ts;
	op->st->scans = 1;
	snprintf(op->st->mask, sizeof(op->st->mask), "%s", mask_text);
	op->cap = srv_capture_get(s->srv->streams, dev);
	ret = !op->cap ? -ENOMEM : op->cap->nreaders >= SRV_STREAM_READERS_MAX ? -EBUSY : 0;
	if (ret) {
		if (op->cap)
			srv_capture_put_if_idle(op->cap);
		iio_device_put(op->dev);
		srv_reader_free(op->st);
		free(op);
		return ret;
	}
	if (srv_dispatch_route(s->srv, dev, &op->cap->q) < 0)
		op->cap->q = NULL;
	op->cap->refs++;
	srv_open_start(s, op);
	return 0;
}
