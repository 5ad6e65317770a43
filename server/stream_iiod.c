/*
 * stream_iiod.c - buffered capture for the iiod listener: OPEN, READBUF,
 * CLOSE, GETTRIG, SETTRIG and SET BUFFERS_COUNT as iiod 0.24 answers them
 * (buffers-triggers-events-facts §4, PROTOCOL-iiod.md).
 *
 * An OPEN is a reader of the device's one capture, like a STREAM: its own
 * mask (bit i is the i-th channel in libiio's order, scan elements by index
 * first), its records in a queue of its own. READBUF answers one chunk of
 * the largest whole number of samples that fits, with the client's own mask
 * on the mask line, so libiio takes its raw path and gets the kernel's bytes
 * (for every iiowire driver libiio's layout of a mask is the kernel's record:
 * the timestamp has the highest index, so no tail padding differs). A
 * READBUF waits for the trigger up to the client's TIMEOUT (or
 * SRV_IIOD_READBUF_TIMEOUT_MS), then answers -110, as iiod's refill.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl.h"
#include "board.h"
#include "iio_buffer.h"
#include "iio_registry.h"
#include "iiod.h"
#include "iiod_proto.h"
#include "iiod_xml.h"
#include "play.h"
#include "session.h"
#include "srv.h"
#include "stream.h"
#include "stream_iiod.h"
#include "stream_priv.h"

/* The attribute SETTRIG writes, for --read-only and --allow-write. */

/* This connection's reader of @dev, or NULL. */
static struct srv_reader *srv_iiod_reader_find(struct srv_session *s, const struct iio_dev *dev)
{
	struct srv_list *pos, *tmp;
	struct srv_reader *st;

	srv_list_for_each_safe(pos, tmp, &s->iiod.readers) {
		st = srv_container_of(pos, struct srv_reader, node);
		if (st->cap && st->cap->dev == dev)
			return st;
	}
	return NULL;
}

static void srv_iiod_buf_code(struct srv_session *s, long long code)
{
	srv_session_check(s, proto_iiod_reply_code(srv_session_out(s), code));
	if (code < 0)
		s->srv->stats.errors++;
}

static int srv_iiod_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * The OPEN mask into scan bits of the device's direction (an output
 * device's outputs, else its inputs). Return: 0 or -EINVAL (wrong length,
 * no scan element).
 */
static int srv_iiod_mask(const struct srv_iiod_dev *d, const char *text, uint64_t *mask,
			 bool *ts)
{
	bool out = iio_device_buffer_direction(d->dev) == IIO_BUFFER_DIRECTION_OUT;

	size_t len = strlen(text), want = 8 * (((size_t)d->nchans + 31) / 32);
	const struct srv_iiod_chan *c;
	int i, nib;

	*mask = 0;
	*ts = false;
	if (len != want)
		return -EINVAL;
	for (i = 0; i < d->nchans; i++) {
		nib = srv_iiod_hex(text[len - 1 - (size_t)i / 4]);
		if (nib < 0)
			return -EINVAL;
		if (!(nib & (1 << (i % 4))))
			continue;
		c = &d->chans[i];
		if (c->scan_index < 0 || c->output != out)
			continue;	/* bits for channels without a scan element are ignored */
		if (!strcmp(c->id, "timestamp"))
			*ts = true;
		else if (c->scan_index < IIO_SCAN_INDEX_MAX)
			*mask |= 1ULL << c->scan_index;
	}
	return *mask ? 0 : -EINVAL;
}

void srv_iiod_buf_open(struct srv_session *s, const struct srv_iiod_dev *d,
		       const struct proto_iiod_cmd *cmd)
{
	uint64_t mask, samples = cmd->num;
	struct iio_scan_layout l;
	size_t cap;
	bool ts;
	int ret;

	if (srv_iiod_reader_find(s, d->dev)) {
		srv_iiod_buf_code(s, -EBUSY);
		return;
	}
	if (!srv_acl_may(&s->srv->cfg, d->dev, SRV_STREAM_ENABLE_ATTR)) {
		srv_iiod_buf_code(s, -EACCES);
		return;
	}
	if (!iio_device_has_buffer(d->dev) || !samples ||
	    (cmd->cyclic && iio_device_buffer_direction(d->dev) != IIO_BUFFER_DIRECTION_OUT) ||
	    srv_iiod_mask(d, cmd->mask, &mask, &ts) ||
	    iio_scan_layout_compute(d->dev, mask, ts, &l)) {
		srv_iiod_buf_code(s, -EINVAL);
		return;
	}
	/* an output device: a writer, whose WRITEBUFs its trigger plays (play.c) */
	if (iio_device_buffer_direction(d->dev) == IIO_BUFFER_DIRECTION_OUT) {
		/* a WRITEBUF carries a buffer: at most PROTO_SEND_BYTES_MAX of samples */
		if (samples > PROTO_SEND_BYTES_MAX / (uint64_t)l.bytes)
			samples = PROTO_SEND_BYTES_MAX / (uint64_t)l.bytes;
		srv_iiod_buf_code(s, srv_play_open_iiod(s, d->dev, mask, (unsigned int)samples,
							cmd->cyclic));
		return;
	}
	/* iiod's kernel buffer: samples x 4 blocks */
	if (samples > SRV_IIOD_QUEUE_BYTES / 4 / (uint64_t)l.bytes)
		samples = SRV_IIOD_QUEUE_BYTES / 4 / (uint64_t)l.bytes;
	cap = (size_t)(samples ? samples : 1) * 4 * (size_t)l.bytes;
	ret = srv_stream_open_iiod(s, d->dev, &srv_sink_iiod, mask, ts, cap, cmd->mask, NULL);
	if (ret < 0)
		srv_iiod_buf_code(s, ret);
}

void srv_iiod_buf_readbuf(struct srv_session *s, const struct srv_iiod_dev *d,
			  const struct proto_iiod_cmd *cmd)
{
	struct srv_reader *st = srv_iiod_reader_find(s, d->dev);
	size_t bytes;

	if (!st || st->ended) {
		srv_iiod_buf_code(s, -EBADF);
		return;
	}
	bytes = (size_t)st->buf.layout.bytes;
	if (cmd->num < bytes) {
		srv_iiod_buf_code(s, 0);	/* less than one sample: nothing, as iiod */
		return;
	}
	st->asked = cmd->num > SIZE_MAX ? SIZE_MAX : (size_t)cmd->num;
	st->want = st->asked / bytes * bytes;
	if (st->want > st->fifo_cap)
		st->want = st->fifo_cap / bytes * bytes;
	st->deadline_ms = uv_now(&s->srv->loop) +
			  (s->iiod.timeout_ms ? s->iiod.timeout_ms : SRV_IIOD_READBUF_TIMEOUT_MS);
	st->slot = srv_session_slot_new(s, &st->slot);
	if (!st->slot) {
		st->want = 0;
		srv_session_broken(s);
		return;
	}
	srv_streams_flush(s->srv->streams);
}

/* The pending READBUF of @st can be answered: fill its slot (the caller completes it). */
bool srv_iiod_reader_ready(struct srv_reader *st, uint64_t now_ms)
{
	struct proto_buf *b;
	int ret;

	if (!st->want || !st->slot)
		return false;
	b = &st->slot->text;
	if (st->fifo_len < st->want) {
		if (now_ms < st->deadline_ms)
			return false;
		st->want = 0;
		return proto_iiod_reply_code(b, -ETIMEDOUT) == 0 || true;
	}
	ret = proto_buf_printf(b, "%zu\n%s\n", st->want, st->mask);
	if (!ret)
		ret = proto_buf_append(b, st->fifo, st->want);
	if (!ret && st->want < st->asked)
		ret = proto_iiod_reply_code(b, 0);	/* the leftover is not sent */
	if (ret)
		srv_session_broken(st->s);
	memmove(st->fifo, st->fifo + st->want, st->fifo_len - st->want);
	st->fifo_len -= st->want;
	st->want = 0;
	srv_reader_account(st);
	return true;
}

/* The capture ended under a waiting READBUF: it gets the error now, later ones -EBADF. */
void srv_iiod_reader_answer(struct srv_reader *st, int err)
{
	struct srv_slot *slot = st->slot;

	st->want = 0;
	if (!slot || !st->s)
		return;
	st->slot = NULL;
	srv_session_check(st->s, proto_iiod_reply_code(&slot->text, err));
	srv_session_slot_done(st->s, slot);
}

void srv_iiod_buf_close(struct srv_session *s, const struct srv_iiod_dev *d)
{
	struct srv_reader *st = srv_iiod_reader_find(s, d->dev);

	if (!st) {
		srv_iiod_buf_code(s, srv_play_close_dev(s, d->dev) ? -ENXIO : 0);
		return;
	}
	st->ended = true;
	srv_reader_unlink(st);
	srv_reader_release(st);
	srv_iiod_buf_code(s, 0);
}

void srv_iiod_buf_stop_all(struct srv_session *s)
{
	struct srv_list *pos, *tmp;
	struct srv_reader *st;

	srv_list_for_each_safe(pos, tmp, &s->iiod.readers) {
		st = srv_container_of(pos, struct srv_reader, node);
		st->ended = true;
		st->slot = NULL;
		srv_reader_unlink(st);
		srv_reader_release(st);
	}
}

void srv_iiod_buf_gettrig(struct srv_session *s, const struct srv_iiod_dev *d)
{
	struct iio_trigger *trig;

	/* no trigger/ directory (a software buffer): iiod's read of the file fails so */
	if (!iio_device_takes_trigger(d->dev)) {
		srv_iiod_buf_code(s, -ENOENT);
		return;
	}
	trig = iio_device_current_trigger(d->dev);
	if (!trig)
		srv_iiod_buf_code(s, 0);
	else
		srv_session_check(s, proto_iiod_reply_data(srv_session_out(s), trig->name,
							   strlen(trig->name)));
}

int srv_iiod_buf_settrig_check(struct srv_session *s, const struct srv_iiod_dev *d,
			       const struct proto_iiod_cmd *cmd, struct iio_trigger **trig)
{
	*trig = NULL;
	if (!iio_device_takes_trigger(d->dev))
		return -ENOENT;
	if (cmd->trigger[0]) {
		*trig = iio_trigger_find(s->srv->board->reg, cmd->trigger);
		if (!*trig)
			return -ENOENT;
	}
	if (!srv_acl_may(&s->srv->cfg, d->dev, SRV_IIOD_TRIGGER_ATTR) &&
	    *trig != iio_device_current_trigger(d->dev))
		return -EACCES;
	return 0;
}
