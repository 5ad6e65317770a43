/*
 * stream_iiodb.c - libiio 1.0's buffers and blocks on the iiod listener's
 * binary row (iiodb_proto.h): OPEN_BUFFER, CLOSE_BUFFER, ENABLE_BUFFER,
 * DISABLE_BUFFER, CREATE_BLOCK, FREE_BLOCK, TRANSFER_BLOCK,
 * ENQUEUE_BLOCK_CYCLIC and RETRY_DEQUEUE_BLOCK.
 *
 * An OPEN_BUFFER is a reader of the device's one capture, like a STREAM or
 * a 0.24 OPEN (several clients read one device at once, each with its own
 * channels): the capture's enable runs at open, so a refused one is
 * answered there. Records queue in the reader's FIFO (the 0.24 sink's,
 * newest shed when full) once the buffer is enabled; like the kernel buffer
 * iiod 1.0 reads from, it holds what the client's blocks hold together, so
 * what a block leaves behind stays small. Blocks are the
 * client's: a TRANSFER_BLOCK queues one, and the queue's head is answered
 * with its bytes once the FIFO holds them, tagged with the block's client
 * id, whatever other answers are on their way. The head block waits at
 * most the client's TIMEOUT from when it became the head (iiod 1.0
 * dequeues one block after another); past it the dequeue fails
 * (-ETIMEDOUT) and the client may retry it. An input buffer refuses a
 * cyclic enqueue; an output buffer is a player (play.c), whose blocks its
 * trigger plays.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl.h"
#include "iio_buffer.h"
#include "iio_registry.h"
#include "iiod_binary.h"
#include "iiod_proto.h"
#include "iiod_xml.h"
#include "iiodb_proto.h"
#include "play.h"
#include "session.h"
#include "srv.h"
#include "stream.h"
#include "stream_iiod.h"
#include "stream_priv.h"

/* the FIFO a buffer fills its blocks from (iiod's kernel buffer) */
#define SRV_IIODB_FIFO_BYTES		SRV_IIOD_QUEUE_BYTES

/* One block of the client's. @queued: a TRANSFER_BLOCK waits for its data. */
struct srv_iiodb_block {
	uint16_t idx;
	uint16_t client_id;		/* the block's I/O: its answers carry it */
	bool queued;
	uint64_t size;
	uint64_t used;
	int timeout_ms;			/* the connection's TIMEOUT when it was queued; <= 0: none */
	uint64_t deadline_ms;		/* uv_now past which the wait fails; 0: not waited for yet */
};

/* A reader's blocks (its sink_data): the open's answer, then the client's blocks. */
struct srv_iiodb_buf {
	uint16_t open_id;		/* OPEN_BUFFER's client id */
	bool enabled;
	uint32_t mask[PROTO_IIODB_MASK_MAX_BYTES / 4];
	size_t mask_bytes;
	int nblocks;
	struct srv_iiodb_block blocks[SRV_IIODB_BLOCKS_MAX];
	uint8_t q[SRV_IIODB_BLOCKS_MAX];	/* queued blocks' places in @blocks, oldest first */
	int qhead, qlen;
};

static struct srv_iiodb_buf *srv_iiodb_of(const struct srv_reader *st)
{
	return st->sink_data;
}

/* This connection's buffer of @dev, or NULL. */
static struct srv_reader *srv_iiodb_reader(struct srv_session *s, const struct iio_dev *dev)
{
	struct srv_list *pos, *tmp;
	struct srv_reader *st;

	srv_list_for_each_safe(pos, tmp, &s->iiod.readers) {
		st = srv_container_of(pos, struct srv_reader, node);
		if (st->sink == &srv_sink_iiodb && st->cap && st->cap->dev == dev && !st->ended)
			return st;
	}
	return NULL;
}

/* ---- the sink ---- */

/* The open's answer: the mask as taken (iiod 1.0 sends the mask back), or the error. */
static int srv_iiodb_sink_answer(struct srv_reader *st, struct proto_buf *b, int err)
{
	struct srv_iiodb_buf *bb = srv_iiodb_of(st);

	if (err)
		return proto_iiodb_reply(b, bb->open_id, err, NULL, 0);
	return proto_iiodb_reply(b, bb->open_id, (int32_t)bb->mask_bytes, bb->mask,
				 bb->mask_bytes);
}

/* Take the queue's head block off it. */
static void srv_iiodb_dequeue(struct srv_iiodb_buf *bb)
{
	bb->blocks[bb->q[bb->qhead]].queued = false;
	bb->qhead = (bb->qhead + 1) % SRV_IIODB_BLOCKS_MAX;
	bb->qlen--;
}

/*
 * A flush: answer the queued blocks whose bytes are in; fail a head block
 * whose wait is over. No reply slot is used (block answers leave out of
 * order), so this always returns false.
 */
static bool srv_iiodb_sink_ready(struct srv_reader *st, uint64_t now_ms)
{
	struct srv_iiodb_buf *bb = srv_iiodb_of(st);
	struct srv_iiodb_block *blk;
	struct proto_buf *out;

	if (!st->s || !bb->enabled) {
		st->fifo_len = 0;	/* the kernel's buffer is off: nothing is kept */
		return false;
	}
	while (bb->qlen) {
		blk = &bb->blocks[bb->q[bb->qhead]];
		out = srv_session_out(st->s);
		if (!blk->deadline_ms && blk->timeout_ms > 0)
			blk->deadline_ms = now_ms + (uint64_t)blk->timeout_ms;
		if (st->fifo_len >= blk->used) {
			srv_session_check(st->s, proto_iiodb_reply(out, blk->client_id,
								   (int32_t)blk->used, st->fifo,
								   (size_t)blk->used));
			memmove(st->fifo, st->fifo + blk->used, st->fifo_len - blk->used);
			st->fifo_len -= blk->used;
		} else if (blk->deadline_ms && now_ms >= blk->deadline_ms) {
			/* enqueued, not dequeued: the client may retry the dequeue */
			srv_session_check(st->s, proto_iiodb_reply(out, blk->client_id, -ETIMEDOUT,
								   NULL, 0));
		} else {
			break;
		}
		srv_iiodb_dequeue(bb);
		st->dirty = true;
	}
	srv_reader_account(st);
	return false;
}

/* The capture ended: every queued block gets the error (a failed dequeue). */
static void srv_iiodb_sink_end(struct srv_reader *st, int err, const char *why)
{
	struct srv_iiodb_buf *bb = srv_iiodb_of(st);

	(void)why;
	while (st->s && bb->qlen) {
		srv_session_check(st->s, proto_iiodb_reply(srv_session_out(st->s),
							   bb->blocks[bb->q[bb->qhead]].client_id,
							   err, NULL, 0));
		srv_iiodb_dequeue(bb);
	}
	if (st->s)
		srv_session_flush(st->s);
}

const struct srv_sink srv_sink_iiodb = {
	.buf_ops = &srv_iiod_buffer_ops,
	.queue_ops = &srv_iiod_queue_ops,
	.held = srv_iiod_held,
	.join = srv_iiod_join,
	.answer = srv_iiodb_sink_answer,
	.ready = srv_iiodb_sink_ready,
	.end = srv_iiodb_sink_end,
};

/* ---- buffers ---- */

/*
 * The mask words into scan bits (bit i: the i-th channel of the XML), and
 * back as taken: channels without a scan element are cleared.
 * Return: 0, or -EINVAL when no channel with a scan element is left.
 */
static int srv_iiodb_mask(const struct srv_iiod_dev *d, struct srv_iiodb_buf *bb,
			  const struct proto_iiodb_cmd *c, uint64_t *mask, bool *ts)
{
	bool out = iio_device_buffer_direction(d->dev) == IIO_BUFFER_DIRECTION_OUT;
	const struct srv_iiod_chan *ch;
	uint32_t w;
	int i;

	*mask = 0;
	*ts = false;
	bb->mask_bytes = c->len;
	memset(bb->mask, 0, sizeof(bb->mask));
	for (i = 0; i < d->nchans; i++) {
		memcpy(&w, c->data + 4 * (i / 32), 4);
		ch = &d->chans[i];
		if (!(le32toh(w) & (1u << (i % 32))) || ch->scan_index < 0 || ch->output != out)
			continue;
		if (!strcmp(ch->id, "timestamp"))
			*ts = true;
		else if (ch->scan_index < IIO_SCAN_INDEX_MAX)
			*mask |= 1ULL << ch->scan_index;
		else
			continue;
		bb->mask[i / 32] |= htole32(1u << (i % 32));
	}
	return *mask || *ts ? 0 : -EINVAL;
}

static void srv_iiodb_open(struct srv_session *s, const struct srv_iiod_dev *d,
			   const struct proto_iiodb_cmd *c)
{
	struct iio_scan_layout l;
	struct srv_iiodb_buf *bb;
	uint64_t mask;
	bool ts;
	int ret;

	if ((c->code & 0xffff) != 0 || !iio_device_has_buffer(d->dev))
		ret = -ENODEV;		/* buffer 0 only, as the kernel gives a userspace driver */
	else if (srv_iiodb_reader(s, d->dev))
		ret = -EEXIST;
	else if (!srv_acl_may(&s->srv->cfg, d->dev, SRV_STREAM_ENABLE_ATTR))
		ret = -EACCES;
	else
		ret = 0;
	bb = ret ? NULL : calloc(1, sizeof(*bb));
	if (!ret && !bb)
		ret = -ENOMEM;
	if (!ret) {
		bb->open_id = c->client_id;
		ret = srv_iiodb_mask(d, bb, c, &mask, &ts);
	}
	if (!ret)
		ret = iio_scan_layout_compute(d->dev, mask, ts, &l);
	if (!ret && iio_device_buffer_direction(d->dev) == IIO_BUFFER_DIRECTION_OUT) {
		/* an output buffer: a player (play.c), its blocks at most what one SEND carries */
		ret = srv_play_open_bin(s, d->dev, mask,
					(unsigned int)(SRV_IIODB_OUT_BLOCK_MAX_BYTES / l.bytes));
		if (!ret)
			srv_session_check(s, proto_iiodb_reply(srv_session_out(s), c->client_id,
							       (int32_t)bb->mask_bytes, bb->mask,
							       bb->mask_bytes));
		free(bb);
		bb = NULL;
	} else if (!ret) {
		ret = srv_stream_open_iiod(s, d->dev, &srv_sink_iiodb, mask, ts,
					   SRV_IIODB_FIFO_BYTES, "", bb);
		bb = NULL;	/* taken */
	}
	free(bb);
	if (ret)
		srv_iiodb_answer(s, c->client_id, ret);
}

static void srv_iiodb_close_one(struct srv_reader *st)
{
	st->ended = true;
	st->slot = NULL;
	srv_reader_unlink(st);
	srv_reader_release(st);
}

void srv_iiodb_buffers_close(struct srv_session *s)
{
	struct srv_list *pos, *tmp;

	srv_list_for_each_safe(pos, tmp, &s->iiod.readers)
		srv_iiodb_close_one(srv_container_of(pos, struct srv_reader, node));
}

/* ---- blocks ---- */

/* Block @idx of @bb, or NULL. */
static struct srv_iiodb_block *srv_iiodb_block(struct srv_iiodb_buf *bb, unsigned int idx)
{
	int i;

	for (i = 0; i < bb->nblocks; i++)
		if (bb->blocks[i].idx == idx)
			return &bb->blocks[i];
	return NULL;
}

static int srv_iiodb_block_create(struct srv_iiodb_buf *bb, const struct proto_iiodb_cmd *c)
{
	struct srv_iiodb_block *blk;

	if (srv_iiodb_block(bb, (uint32_t)c->code >> 16))
		return -EEXIST;
	if (!c->arg || c->arg > SRV_IIODB_BLOCK_MAX_BYTES)
		return -EINVAL;
	if (bb->nblocks == SRV_IIODB_BLOCKS_MAX)
		return -ENOSPC;
	blk = &bb->blocks[bb->nblocks++];
	memset(blk, 0, sizeof(*blk));
	blk->idx = (uint16_t)((uint32_t)c->code >> 16);
	blk->client_id = c->client_id;
	blk->size = c->arg;
	return 0;
}

/* FREE_BLOCK: a queued block is taken off the queue unanswered (the client cancelled it). */
static int srv_iiodb_block_free(struct srv_iiodb_buf *bb, const struct proto_iiodb_cmd *c)
{
	struct srv_iiodb_block *blk = srv_iiodb_block(bb, (uint32_t)c->code >> 16);
	uint8_t keep[SRV_IIODB_BLOCKS_MAX];
	int k, n = 0, at;

	if (!blk)
		return -EBADF;
	at = (int)(blk - bb->blocks);
	for (k = 0; k < bb->qlen; k++) {
		uint8_t j = bb->q[(bb->qhead + k) % SRV_IIODB_BLOCKS_MAX];

		if (j != at)
			keep[n++] = (uint8_t)(j > at ? j - 1 : j);	/* the array closes up below */
	}
	memmove(blk, blk + 1, (size_t)(bb->nblocks - at - 1) * sizeof(*blk));
	bb->nblocks--;
	memcpy(bb->q, keep, (size_t)n);
	bb->qhead = 0;
	bb->qlen = n;
	return 0;
}

/*
 * TRANSFER_BLOCK (and RETRY_DEQUEUE_BLOCK, @retry): queue the block for the
 * next @arg bytes. Return: 0 (its answer comes with the data), or an error
 * to answer: shifted up 16 bits when the block was not enqueued, as
 * libiio 1.0 reads it.
 */
static int srv_iiodb_block_queue(struct srv_session *s, struct srv_iiodb_buf *bb,
				 const struct proto_iiodb_cmd *c, bool retry)
{
	struct srv_iiodb_block *blk = srv_iiodb_block(bb, (uint32_t)c->code >> 16);

	if (!blk)
		return -EBADF * (retry ? 1 : 65536);
	if (!retry && (c->op == PROTO_IIODB_ENQUEUE_BLOCK_CYCLIC || !c->arg || c->arg > blk->size))
		return -EINVAL * 65536;		/* no output buffers: nothing is cyclic */
	if (blk->queued)
		return -EBUSY * (retry ? 1 : 65536);
	if (!retry)
		blk->used = c->arg;
	if (!blk->used)
		return -EINVAL;
	blk->queued = true;
	blk->timeout_ms = s->iiod.bin->timeout_ms;
	blk->deadline_ms = 0;
	bb->q[(bb->qhead + bb->qlen++) % SRV_IIODB_BLOCKS_MAX] = (uint8_t)(blk - bb->blocks);
	return 0;
}

/* The FIFO holds what the blocks hold together (its allocation at most). */
static void srv_iiodb_fifo_fit(struct srv_reader *st)
{
	struct srv_iiodb_buf *bb = srv_iiodb_of(st);
	uint64_t sum = 0;
	int i;

	for (i = 0; i < bb->nblocks; i++)
		sum += bb->blocks[i].size;
	st->fifo_cap = sum < SRV_IIODB_FIFO_BYTES ? (size_t)sum : SRV_IIODB_FIFO_BYTES;
	if (st->fifo_len > st->fifo_cap)
		st->fifo_len = st->fifo_cap / st->buf.layout.bytes * st->buf.layout.bytes;
	srv_reader_account(st);
}

/* A block command on @st's buffer; its answer goes to the block's own client id. */
static void srv_iiodb_block_cmd(struct srv_session *s, struct srv_reader *st,
				const struct proto_iiodb_cmd *c)
{
	struct srv_iiodb_buf *bb = srv_iiodb_of(st);
	int ret;

	switch (c->op) {
	case PROTO_IIODB_CREATE_BLOCK:
	case PROTO_IIODB_FREE_BLOCK:
		ret = c->op == PROTO_IIODB_CREATE_BLOCK ? srv_iiodb_block_create(bb, c) :
			srv_iiodb_block_free(bb, c);
		if (!ret)
			srv_iiodb_fifo_fit(st);
		srv_iiodb_answer(s, c->client_id, ret);
		return;
	default:
		ret = srv_iiodb_block_queue(s, bb, c, c->op == PROTO_IIODB_RETRY_DEQUEUE_BLOCK);
		if (ret) {
			srv_iiodb_answer(s, c->client_id, ret);
			return;
		}
		st->dirty = true;
		srv_streams_flush(s->srv->streams);
	}
}

/*
 * An output buffer's commands (a player, play.c): blocks up to
 * SRV_IIODB_OUT_BLOCK_MAX_BYTES are the client's; each TRANSFER_BLOCK's
 * bytes are queued for the trigger (answered once all are in), an
 * ENQUEUE_BLOCK_CYCLIC's repeat until CLOSE_BUFFER.
 */
static void srv_iiodb_out_cmd(struct srv_session *s, const struct iio_dev *dev,
			      const struct proto_iiodb_cmd *c)
{
	switch (c->op) {
	case PROTO_IIODB_CLOSE_BUFFER:
		srv_iiodb_answer(s, c->client_id, srv_play_close_dev(s, dev) ? -EBADF : 0);
		break;
	case PROTO_IIODB_CREATE_BLOCK:
		srv_iiodb_answer(s, c->client_id, !c->arg || c->arg > SRV_IIODB_OUT_BLOCK_MAX_BYTES ?
				 -EINVAL : 0);
		break;
	case PROTO_IIODB_TRANSFER_BLOCK:
	case PROTO_IIODB_ENQUEUE_BLOCK_CYCLIC:
		srv_play_block_bin(s, dev, c->data, c->len,
				   c->op == PROTO_IIODB_ENQUEUE_BLOCK_CYCLIC, c->client_id);
		break;
	default:	/* ENABLE, DISABLE, FREE_BLOCK, RETRY_DEQUEUE_BLOCK: nothing waits */
		srv_iiodb_answer(s, c->client_id, 0);
		break;
	}
}

void srv_iiodb_buffer_cmd(struct srv_session *s, const struct srv_iiod_bdev *bd,
			  const struct proto_iiodb_cmd *c)
{
	struct srv_reader *st = bd->d ? srv_iiodb_reader(s, bd->d->dev) : NULL;

	if (c->op == PROTO_IIODB_OPEN_BUFFER) {
		if (bd->d)
			srv_iiodb_open(s, bd->d, c);
		else
			srv_iiodb_answer(s, c->client_id, -ENODEV);
		return;
	}
	if (bd->d && iio_device_buffer_direction(bd->d->dev) == IIO_BUFFER_DIRECTION_OUT &&
	    (c->code & 0xffff) == 0) {
		srv_iiodb_out_cmd(s, bd->d->dev, c);
		return;
	}
	if (!st || (c->code & 0xffff) != 0) {
		/* a block command's "not enqueued" code, as libiio 1.0 reads it */
		srv_iiodb_answer(s, c->client_id, c->op == PROTO_IIODB_TRANSFER_BLOCK ||
				 c->op == PROTO_IIODB_ENQUEUE_BLOCK_CYCLIC ? -EBADF * 65536 : -EBADF);
		return;
	}
	switch (c->op) {
	case PROTO_IIODB_CLOSE_BUFFER:
		srv_iiodb_close_one(st);
		srv_iiodb_answer(s, c->client_id, 0);
		break;
	case PROTO_IIODB_ENABLE_BUFFER:
	case PROTO_IIODB_DISABLE_BUFFER:
		srv_iiodb_of(st)->enabled = c->op == PROTO_IIODB_ENABLE_BUFFER;
		st->fifo_len = 0;
		srv_reader_account(st);
		srv_iiodb_answer(s, c->client_id, 0);
		break;
	default:
		srv_iiodb_block_cmd(s, st, c);
		break;
	}
}
