/*
 * events.c - SUBSCRIBE/UNSUBSCRIBE: IIO events fanned out to connections
 * (events.h).
 *
 * One struct srv_evdev per device that has subscribers holds the device's
 * event queue open (the server is its one reader). The core's notify
 * callback, from whichever thread pushed, only wakes the loop through one
 * uv_async; the loop then drains every device's queue into the queues of
 * its subscriptions, filtered by channel and event type, and each
 * subscription moves what it holds into its connection's output while that
 * output is below SRV_EVENT_OUT_MAX_BYTES and no reply is waiting on a
 * bus. The rest waits in the subscription's ring of SRV_EVENT_QUEUE_MAX,
 * whose oldest entries are dropped and counted (IIOEVENTLOST) when it is
 * full. Output goes through srv_session_out(), so an event never lands
 * inside a listing. Place in the flow: core queue -> *events* -> session.
 *
 * A device whose I/O runs on a bus worker opens its queue there too
 * (struct srv_evopen): a kernel device's IIO_GET_EVENT_FD_IOCTL takes the
 * device's mlock, which the kernel holds across a buffer enable's driver
 * calls, so the loop must not make it. SUBSCRIBEs that come while it runs
 * join the device and wait for the open in their reply slots; the device
 * is not drained, freed or moved by a reload until the open has answered.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "busq.h"
#include "dispatch.h"
#include "events.h"
#include "iio_core.h"
#include "iio_event.h"
#include "iio_registry.h"
#include "iiod_binary.h"
#include "iiodb_proto.h"
#include "session.h"
#include "srv.h"

/* Events taken from a device's queue per read. */
#define SRV_EVENT_READ_BATCH	64

struct srv_evdev;

/* What a subscription passes: an event type and a channel, or any. */
struct srv_evfilter {
	bool any_chan;
	int chan_type;
	int chan;
	int chan2;
	int modifier;
	bool indexed;
	bool diff;
	int evtype;		/* -1: any */
};

struct srv_evsub {
	struct srv_list dev_node;	/* ed->subs */
	struct srv_list sess_node;	/* s->native.evsubs */
	struct srv_session *s;
	struct srv_evdev *ed;
	char *device;			/* as the SUBSCRIBE named it (owned) */
	struct srv_evfilter f;
	bool json;
	bool bin;			/* a libiio 1.0 event stream: one event per READ_EVENT */
	bool want;			/* ...and a READ_EVENT waits for one */
	uint16_t client_id;		/* ...its stream's client id, which its answers carry */
	bool cancelled;			/* UNSUBSCRIBE while @slot waited: off the session */
	struct srv_slot *slot;		/* SUBSCRIBE's reply, waiting for the device's open */
	struct proto_request rq;	/* op, flags and id of that SUBSCRIBE */
	unsigned int head, count;
	uint64_t lost;			/* dropped since the last IIOEVENTLOST */
	struct srv_queue acct;		/* its share of --max-queued-bytes (queues.h) */
	struct iio_event_data q[SRV_EVENT_QUEUE_MAX];
};

struct srv_evdev {
	struct srv_list node;		/* ev->devs */
	struct iio_dev *dev;		/* referenced; its queue is open */
	struct srv_list subs;
	bool pinned;			/* a walk of @subs is under way: not freed yet */
	bool closed;			/* its queue closed already (srv_events_reload()) */
	struct srv_evopen *opening;	/* its queue being opened on the bus worker */
	bool reloaded;			/* a reload came while @opening: follow it after */
};

/*
 * struct srv_evopen - a device's queue being opened on its bus worker.
 * @ret: iio_event_open()'s, -ECANCELED until it ran. @taken: @done gave
 * the open queue to @ed; if not (its deadline passed first), @fini closes
 * what a late open made.
 */
struct srv_evopen {
	struct srv_job job;
	struct srv_events *ev;
	struct srv_evdev *ed;		/* kept by ed->opening until @done */
	struct iio_dev *dev;		/* referenced */
	int ret;
	bool taken;
};

/*
 * @flush: sessions that got output during a walk of the lists; flushed
 * once each, after it. A flush may close a session; its subscriptions stay
 * until its close callback (server/README.md, "Who owns what").
 */
struct srv_events {
	uv_async_t async;
	struct srv *srv;
	struct srv_list devs;
	struct srv_session **flush;
	size_t nflush, capflush;
	bool flushing;			/* srv_events_flush() runs: it takes what is added */
};

/*
 * The session's subscriptions: a native session's SUBSCRIBEs, or a binary
 * iiod session's event streams (iiodb_proto.h). @count and @flag: their
 * number and its "on the flush list" mark.
 */
static struct srv_list *srv_events_of(struct srv_session *s, unsigned int **count, bool **flag)
{
	if (s->proto == &srv_proto_iiodb) {
		*count = &s->iiod.bin->nevstreams;
		*flag = &s->iiod.bin->ev_flush;
		return &s->iiod.bin->evstreams;
	}
	*count = &s->native.nevsubs;
	*flag = &s->native.ev_flush;
	return &s->native.evsubs;
}

/* Any thread, under a core lock: only wake the loop. */
static void srv_events_notify(void *ctx)
{
	uv_async_send(&((struct srv_events *)ctx)->async);
}

static bool srv_evfilter_match(const struct srv_evfilter *f, uint64_t id)
{
	struct iio_event_fields e;

	iio_event_decode(id, &e);
	if (f->evtype >= 0 && e.type != f->evtype)
		return false;
	if (f->any_chan)
		return true;
	if (e.chan_type != f->chan_type || e.modifier != f->modifier)
		return false;
	if (f->indexed && e.chan != f->chan)
		return false;
	return !f->diff || (e.diff && e.chan2 == f->chan2);
}

/* Remember @s for srv_events_flush(); without memory, mark it broken (it closes then). */
static void srv_events_want_flush(struct srv_events *ev, struct srv_session *s)
{
	struct srv_session **grown;
	unsigned int *count;
	bool *flag;
	size_t cap;

	srv_events_of(s, &count, &flag);
	if (*flag)
		return;
	if (ev->nflush == ev->capflush) {
		cap = ev->capflush ? ev->capflush * 2 : 16;
		grown = realloc(ev->flush, cap * sizeof(*grown));
		if (!grown) {
			srv_session_broken(s);
			return;
		}
		ev->flush = grown;
		ev->capflush = cap;
	}
	*flag = true;
	ev->flush[ev->nflush++] = s;
}

static bool srv_evsub_flush(struct srv_evsub *sub);

/*
 * The socket took @s's output: move what its subscriptions hold into it
 * (their emits put @s on the flush list again). Without this, events held
 * while the output was full would wait for the next event.
 */
static void srv_events_refill(struct srv_session *s)
{
	struct srv_list *pos, *tmp, *subs;
	unsigned int *count;
	bool *flag;

	if (srv_session_closing(s) || s->slots_head ||
	    srv_session_queued(s) >= SRV_EVENT_OUT_MAX_BYTES)
		return;
	subs = srv_events_of(s, &count, &flag);
	srv_list_for_each_safe(pos, tmp, subs)
		srv_evsub_flush(srv_container_of(pos, struct srv_evsub, sess_node));
}

/*
 * After a walk: hand what the walk queued to the sessions' sockets, then
 * refill those the socket emptied, until each is full or has nothing held.
 * Sessions the refill adds are flushed by the same loop.
 */
static void srv_events_flush(struct srv_events *ev)
{
	struct srv_session *s;
	unsigned int *count;
	bool *flag;
	size_t i;

	if (ev->flushing)
		return;		/* the outer call reaches what was added */
	ev->flushing = true;
	for (i = 0; i < ev->nflush; i++) {
		s = ev->flush[i];
		srv_events_of(s, &count, &flag);
		*flag = false;
		srv_session_flush(s);
		srv_events_refill(s);
	}
	ev->nflush = 0;
	ev->flushing = false;
}

/* The subscription's share of the daemon-wide bound: the events it holds. */
static void srv_evsub_account(struct srv_evsub *sub)
{
	srv_queue_set(&sub->s->srv->queues, &sub->acct, sub->count * sizeof(sub->q[0]));
}

/* Drop the @k oldest held events, counted for the next IIOEVENTLOST. */
static void srv_evsub_drop(struct srv_evsub *sub, unsigned int k)
{
	sub->head = (sub->head + k) % SRV_EVENT_QUEUE_MAX;
	sub->count -= k;
	sub->lost += k;
}

/* queues.h: over --max-queued-bytes, a subscription sheds its oldest events. */
static size_t srv_evsub_shed(struct srv_queue *q, size_t want)
{
	struct srv_evsub *sub = srv_container_of(q, struct srv_evsub, acct);
	size_t k = (want + sizeof(sub->q[0]) - 1) / sizeof(sub->q[0]);

	if (k > sub->count)
		k = sub->count;
	srv_evsub_drop(sub, (unsigned int)k);
	return k * sizeof(sub->q[0]);
}

static const struct srv_queue_ops srv_evsub_queue_ops = { .shed = srv_evsub_shed };

/*
 * One event (or a loss, or the end) to @sub's client: an IIOEVENT line, or
 * for an event stream the answer to its waiting READ_EVENT (a loss has no
 * word there: the event stream just goes on).
 */
static void srv_evsub_emit(struct srv_evsub *sub, const struct proto_ievent *ev)
{
	struct proto_buf *out = srv_session_out(sub->s);
	int ret = 0;

	if (!sub->bin) {
		ret = proto_ievent_encode(out, sub->json, ev);
	} else if (ev->kind == PROTO_IEVENT_EVENT) {
		ret = proto_iiodb_reply_event(out, sub->client_id, ev->id, ev->timestamp);
		sub->want = false;
	} else if (ev->kind == PROTO_IEVENT_END && sub->want) {
		ret = proto_iiodb_reply(out, sub->client_id, ev->err, NULL, 0);
		sub->want = false;
	}
	if (ret < 0)
		srv_session_broken(sub->s);
	sub->s->srv->stats.events++;
	srv_events_want_flush(sub->s->srv->events, sub->s);
}

/*
 * Move what fits into the connection's output (events.h: the slow-reader
 * rule). Return: true if anything moved.
 */
static bool srv_evsub_flush(struct srv_evsub *sub)
{
	struct srv_session *s = sub->s;
	struct proto_ievent ev = { .device = sub->device };
	bool moved = false;

	while ((sub->count || sub->lost) && !srv_session_closing(s) && !s->slots_head &&
	       srv_session_queued(s) < SRV_EVENT_OUT_MAX_BYTES && (!sub->bin || sub->want)) {
		if (sub->lost && sub->bin) {
			sub->lost = 0;	/* libiio 1.0 has no loss report */
			continue;
		}
		if (sub->lost) {
			ev.kind = PROTO_IEVENT_LOST;
			ev.lost = sub->lost;
			sub->lost = 0;
		} else {
			ev.kind = PROTO_IEVENT_EVENT;
			ev.id = sub->q[sub->head].id;
			ev.timestamp = sub->q[sub->head].timestamp;
			sub->head = (sub->head + 1) % SRV_EVENT_QUEUE_MAX;
			sub->count--;
		}
		srv_evsub_emit(sub, &ev);
		moved = true;
	}
	srv_evsub_account(sub);
	return moved;
}

static void srv_evsub_push(struct srv_evsub *sub, const struct iio_event_data *e)
{
	if (!srv_evfilter_match(&sub->f, e->id))
		return;
	if (sub->count == SRV_EVENT_QUEUE_MAX)
		srv_evsub_drop(sub, 1);
	sub->q[(sub->head + sub->count) % SRV_EVENT_QUEUE_MAX] = *e;
	sub->count++;
	srv_evsub_account(sub);
}

static struct srv_evdev *srv_evdev_find(struct srv_events *ev, const struct iio_dev *dev)
{
	struct srv_list *pos, *tmp;
	struct srv_evdev *ed;

	srv_list_for_each_safe(pos, tmp, &ev->devs) {
		ed = srv_container_of(pos, struct srv_evdev, node);
		if (ed->dev == dev)
			return ed;
	}
	return NULL;
}

static int srv_evdev_open(struct srv_events *ev, struct srv_evdev *ed);

/*
 * The device's fan-out, opening its queue on first use (ed->opening while
 * that runs on the device's bus). Return: it, or NULL with *err.
 */
static struct srv_evdev *srv_evdev_get(struct srv_events *ev, struct iio_dev *dev, int *err)
{
	struct srv_evdev *ed = srv_evdev_find(ev, dev);

	if (ed)
		return ed;
	ed = calloc(1, sizeof(*ed));
	if (!ed) {
		*err = -ENOMEM;
		return NULL;
	}
	ed->dev = iio_device_get(dev);
	*err = srv_evdev_open(ev, ed);
	if (*err < 0) {
		iio_device_put(ed->dev);
		free(ed);
		return NULL;
	}
	srv_list_init(&ed->subs);
	srv_list_add_tail(&ev->devs, &ed->node);
	return ed;
}

static void srv_evdev_put_if_unused(struct srv_evdev *ed)
{
	if (!srv_list_empty(&ed->subs) || ed->pinned || ed->opening)
		return;
	if (!ed->closed)
		iio_event_close(ed->dev);
	iio_device_put(ed->dev);
	srv_list_del(&ed->node);
	free(ed);
}

static void srv_evsub_free(struct srv_evsub *sub)
{
	struct srv_evdev *ed = sub->ed;
	unsigned int *count;
	bool *flag;

	srv_queue_leave(&sub->s->srv->queues, &sub->acct);
	srv_list_del(&sub->dev_node);
	if (!sub->cancelled) {
		srv_list_del(&sub->sess_node);
		srv_events_of(sub->s, &count, &flag);
		(*count)--;
	}
	free(sub->device);
	free(sub);
	srv_evdev_put_if_unused(ed);
}

/* End @sub with an error line: what it still held is reported lost first. */
static void srv_evsub_end(struct srv_evsub *sub, int err, const char *msg)
{
	struct proto_ievent ev = { .device = sub->device };

	if (sub->count + sub->lost) {
		ev.kind = PROTO_IEVENT_LOST;
		ev.lost = sub->count + sub->lost;
		srv_evsub_emit(sub, &ev);
	}
	ev.kind = PROTO_IEVENT_END;
	ev.err = err;
	ev.message = msg;
	srv_evsub_emit(sub, &ev);
	srv_evsub_free(sub);
}

static void srv_evsub_follow(struct srv_events *ev, struct srv_evsub *sub);

/* @ed's device was replaced by a reload: its subscriptions follow their names. */
static void srv_evdev_reload(struct srv_events *ev, struct srv_evdev *ed)
{
	struct srv_list *pos, *tmp;

	/* pinned: the walk's end test reads @ed after its last sub left */
	ed->pinned = true;
	/*
	 * closed before its subscriptions open the new board's device: a
	 * kernel device's event fd is one per device (EBUSY to a second
	 * IIO_GET_EVENT_FD_IOCTL), and the new mirror is the same device
	 */
	iio_event_close(ed->dev);
	ed->closed = true;
	srv_list_for_each_safe(pos, tmp, &ed->subs)
		srv_evsub_follow(ev, srv_container_of(pos, struct srv_evsub, dev_node));
	ed->pinned = false;
	srv_evdev_put_if_unused(ed);
}

/* ---- the open of a device's queue on its bus worker ---- */

/* What a SUBSCRIBE of @device answers when the device's open failed with @err, or NULL. */
static const char *srv_evsub_open_msg(const char *device, int err, char *buf, size_t len)
{
	if (err == -EBUSY)
		/* only a device with an event source of its own (a kernel device's fd) says so */
		snprintf(buf, len, "%s: another process holds its event fd or its /dev node "
			 "(one of each per device)", device);
	else if (err == -ETIMEDOUT)
		snprintf(buf, len, "%s: no answer from the device in time", device);
	else
		return NULL;
	return buf;
}

/*
 * Answer @sub's waiting SUBSCRIBE with the open's outcome @ret; a failed or
 * cancelled one goes. The slot is completed last: that may let its session
 * run requests that change @sub's device's list.
 */
static void srv_evsub_answer(struct srv_evsub *sub, int ret)
{
	char msg[PROTO_MSG_MAX_BYTES / 2];
	struct srv_session *s = sub->s;
	struct srv_slot *slot = sub->slot;
	int err = 0;

	if (slot && sub->bin) {
		s->srv->stats.errors += ret < 0;
		err = proto_iiodb_reply(&slot->text, sub->client_id, ret < 0 ? ret : 0, NULL, 0);
	} else if (slot && ret < 0) {
		s->srv->stats.errors++;
		err = proto_reply_error(&slot->text, &sub->rq, ret,
					srv_evsub_open_msg(sub->device, ret, msg, sizeof(msg)));
	} else if (slot) {
		err = proto_reply_ok(&slot->text, &sub->rq);
	}
	if (err < 0)
		srv_session_broken(s);
	if (ret < 0 || sub->cancelled) {
		if (slot)
			slot->backref = NULL;
		srv_evsub_free(sub);
	}
	if (slot)
		srv_session_slot_done(s, slot);
}

/* The first subscription of @ed still waiting for the open, or NULL. */
static struct srv_evsub *srv_evdev_waiting(struct srv_evdev *ed)
{
	struct srv_list *pos, *tmp;
	struct srv_evsub *sub;

	srv_list_for_each_safe(pos, tmp, &ed->subs) {
		sub = srv_container_of(pos, struct srv_evsub, dev_node);
		if (sub->slot || sub->cancelled)
			return sub;
	}
	return NULL;
}

/*
 * @ed's open finished with @ret: answer the SUBSCRIBEs that waited, one at
 * a time from the list's head (an answer may change the list), end the
 * subscriptions a reload moved here if it failed, then follow a reload that
 * came meanwhile.
 */
static void srv_evdev_opened(struct srv_events *ev, struct srv_evdev *ed, int ret)
{
	struct srv_evsub *sub;

	ed->opening = NULL;
	ed->pinned = true;
	ed->closed = ret < 0;	/* a queue never opened is not closed */
	while ((sub = srv_evdev_waiting(ed)))
		srv_evsub_answer(sub, ret);
	while (ret < 0 && !srv_list_empty(&ed->subs))
		srv_evsub_end(srv_container_of(ed->subs.next, struct srv_evsub, dev_node), ret,
			      ret == -ENODEV ? "device has no events now" : NULL);
	ed->pinned = false;
	if (!ret && ed->reloaded)
		srv_evdev_reload(ev, ed);
	else
		srv_evdev_put_if_unused(ed);
	if (!ret)
		uv_async_send(&ev->async);	/* what the device queued while it opened */
	srv_events_flush(ev);
}

static void srv_evopen_run(struct srv_job *job)
{
	struct srv_evopen *op = srv_container_of(job, struct srv_evopen, job);

	op->ret = iio_event_open(op->dev, srv_events_notify, op->ev);
}

static void srv_evopen_done(struct srv_job *job, int status)
{
	struct srv_evopen *op = srv_container_of(job, struct srv_evopen, job);
	int ret = status < 0 ? status : op->ret;

	op->taken = ret == 0;
	srv_evdev_opened(op->ev, op->ed, ret);
}

static void srv_evopen_fini(struct srv_job *job)
{
	struct srv_evopen *op = srv_container_of(job, struct srv_evopen, job);

	if (!op->taken && op->ret == 0)
		iio_event_close(op->dev);	/* opened after its subscribers had their answer */
	iio_device_put(op->dev);
	free(op);
}

/* Open @ed's queue: at once when its device's I/O runs on the loop, else as a job. */
static int srv_evdev_open(struct srv_events *ev, struct srv_evdev *ed)
{
	struct srv_evopen *op;
	struct srv_busq *q;
	int ret = srv_dispatch_route(ev->srv, ed->dev, &q);

	if (ret < 0 || !q)
		return ret < 0 ? ret : iio_event_open(ed->dev, srv_events_notify, ev);
	op = calloc(1, sizeof(*op));
	if (!op)
		return -ENOMEM;
	op->job.run = srv_evopen_run;
	op->job.done = srv_evopen_done;
	op->job.fini = srv_evopen_fini;
	op->ev = ev;
	op->ed = ed;
	op->dev = iio_device_get(ed->dev);
	op->ret = -ECANCELED;
	ret = srv_busq_submit(q, &op->job);
	if (ret < 0) {
		iio_device_put(op->dev);
		free(op);
		/* EBUSY is the device's own answer (a held fd); a full bus queue is a try-again */
		return ret == -EBUSY ? -EAGAIN : ret;
	}
	ed->opening = op;
	return 0;
}

static void srv_evdev_fan_out(struct srv_evdev *ed, const struct iio_event_data *e, int n,
			      uint64_t lost)
{
	struct srv_list *pos, *tmp;
	struct srv_evsub *sub;
	int i;

	srv_list_for_each_safe(pos, tmp, &ed->subs) {
		sub = srv_container_of(pos, struct srv_evsub, dev_node);
		sub->lost += lost;
		for (i = 0; i < n; i++)
			srv_evsub_push(sub, &e[i]);
		/* a batch at a time: a burst longer than the ring still reaches a reader keeping up */
		srv_evsub_flush(sub);
	}
}

/* Take everything the device queued; Return: false when it ended (device gone). */
static bool srv_evdev_drain(struct srv_evdev *ed)
{
	struct iio_event_data e[SRV_EVENT_READ_BATCH];
	struct srv_list *pos, *tmp;
	uint64_t lost;
	int n;

	do {
		n = iio_event_read(ed->dev, e, SRV_EVENT_READ_BATCH, &lost);
		if (n < 0) {
			srv_list_for_each_safe(pos, tmp, &ed->subs)
				srv_evsub_end(srv_container_of(pos, struct srv_evsub, dev_node),
					      n, n == -ENODEV ? "device removed" : NULL);
			return false;	/* @ed is pinned: the caller frees it */
		}
		srv_evdev_fan_out(ed, e, n, lost);
	} while (n == SRV_EVENT_READ_BATCH);
	return true;
}

/*
 * Drain every device. All are pinned for the walk: a device's last
 * subscription may end in it (device gone), and the walk reads each
 * device's list after its last entry.
 */
static void srv_events_async_cb(uv_async_t *async)
{
	struct srv_events *ev = srv_container_of(async, struct srv_events, async);
	struct srv_list *pos, *tmp;
	struct srv_evdev *ed;

	srv_list_for_each_safe(pos, tmp, &ev->devs)
		srv_container_of(pos, struct srv_evdev, node)->pinned = true;
	srv_list_for_each_safe(pos, tmp, &ev->devs) {
		ed = srv_container_of(pos, struct srv_evdev, node);
		if (!ed->opening)	/* srv_evdev_opened() wakes this again */
			srv_evdev_drain(ed);
	}
	srv_list_for_each_safe(pos, tmp, &ev->devs) {
		ed = srv_container_of(pos, struct srv_evdev, node);
		ed->pinned = false;
		srv_evdev_put_if_unused(ed);
	}
	srv_events_flush(ev);
}

int srv_events_init(struct srv *srv)
{
	struct srv_events *ev = calloc(1, sizeof(*ev));
	int ret;

	if (!ev)
		return UV_ENOMEM;
	ret = uv_async_init(&srv->loop, &ev->async, srv_events_async_cb);
	if (ret < 0) {
		free(ev);
		return ret;
	}
	/* a wake-up handle alone must not keep the loop running */
	uv_unref((uv_handle_t *)&ev->async);
	ev->srv = srv;
	srv_list_init(&ev->devs);
	srv->events = ev;
	return 0;
}

static void srv_events_close_cb(uv_handle_t *h)
{
	struct srv_events *ev = srv_container_of((uv_async_t *)h, struct srv_events, async);

	free(ev->flush);
	free(ev);
}

void srv_events_fini(struct srv *srv)
{
	if (!srv->events)
		return;
	uv_close((uv_handle_t *)&srv->events->async, srv_events_close_cb);
	srv->events = NULL;
}

/* Move @sub to the device its name finds on the current board, or end it. */
static void srv_evsub_follow(struct srv_events *ev, struct srv_evsub *sub)
{
	struct srv_evdev *old = sub->ed, *ed;
	struct iio_dev *dev;
	int err = -ENODEV;

	if (iio_registry_find(ev->srv->board->reg, sub->device, &dev, NULL, 0) < 0) {
		srv_evsub_end(sub, -ENODEV, "device left the board");
		return;
	}
	if (dev == old->dev && old->closed) {
		/* kept by the reload: open its queue again (srv_events_reload() closed it) */
		err = iio_event_open(dev, srv_events_notify, ev);
		old->closed = err < 0;
		if (err < 0)
			srv_evsub_end(sub, err, NULL);
		return;
	}
	if (dev == old->dev)
		return;
	ed = srv_evdev_get(ev, dev, &err);
	if (!ed) {
		srv_evsub_end(sub, err, err == -ENODEV ? "device has no events now" : NULL);
		return;
	}
	srv_list_del(&sub->dev_node);
	sub->ed = ed;
	srv_list_add_tail(&ed->subs, &sub->dev_node);
	srv_evdev_put_if_unused(old);
}

/* Is @ed's device one of @only (NULL: every device is)? */
static bool srv_evdev_among(const struct srv_evdev *ed, struct iio_dev *const *only, int n)
{
	int i;

	for (i = 0; only && i < n; i++)
		if (ed->dev == only[i])
			return true;
	return !only;
}

/*
 * Subscriptions of the devices @only names (NULL: all) follow their device
 * names to the board as it is now; one whose device is gone gets
 * IIOEVENTEND ENODEV and ends.
 */
static void srv_events_follow(struct srv_events *ev, struct iio_dev *const *only, int n)
{
	struct srv_list *pos, *tmp, moved;
	struct srv_evdev *ed;

	/* detach them first so that devices the walk adds are not walked */
	srv_list_init(&moved);
	srv_list_for_each_safe(pos, tmp, &ev->devs) {
		if (!srv_evdev_among(srv_container_of(pos, struct srv_evdev, node), only, n))
			continue;
		srv_list_del(pos);
		srv_list_add_tail(&moved, pos);
	}
	srv_list_for_each_safe(pos, tmp, &moved) {
		ed = srv_container_of(pos, struct srv_evdev, node);
		if (ed->opening)
			ed->reloaded = true;	/* srv_evdev_opened() follows it */
		else
			srv_evdev_reload(ev, ed);
	}
	/* a device kept (not one board_load() makes today) stays served */
	srv_list_for_each_safe(pos, tmp, &moved) {
		srv_list_del(pos);
		srv_list_add_tail(&ev->devs, pos);
	}
	srv_events_flush(ev);
}

void srv_events_reload(struct srv *srv)
{
	if (srv->events)
		srv_events_follow(srv->events, NULL, 0);
}

void srv_events_devices_gone(struct srv *srv, struct iio_dev *const *gone, int n)
{
	if (srv->events && n)
		srv_events_follow(srv->events, gone, n);
}

/* The channel @name of @dev that has events, as a filter. Return: 0, -ENOENT. */
static int srv_evfilter_channel(struct srv_evfilter *f, const struct iio_dev *dev,
				const char *name)
{
	char id[IIO_ATTR_NAME_MAX];
	const struct iio_chan_spec *c;
	int i;

	f->any_chan = !name || strcmp(name, "*") == 0;
	if (f->any_chan)
		return 0;
	for (i = 0; i < dev->num_channels; i++) {
		c = &dev->channels[i];
		if (!c->num_event_specs || iio_chan_id(id, sizeof(id), c) < 0 || strcmp(id, name))
			continue;
		f->chan_type = c->type;
		f->indexed = c->indexed;
		f->chan = c->channel;
		f->diff = c->differential;
		f->chan2 = c->differential ? c->channel2 : 0;
		f->modifier = c->modified ? c->channel2 : 0;
		return 0;
	}
	return -ENOENT;
}

/* Does any event spec the filter's channel (or any channel) has carry @evtype? */
static bool srv_evfilter_possible(const struct srv_evfilter *f, const struct iio_dev *dev,
				  const char *channel)
{
	char id[IIO_ATTR_NAME_MAX];
	const struct iio_chan_spec *c;
	unsigned int j;
	int i;

	if (f->evtype < 0)
		return true;
	for (i = 0; i < dev->num_channels; i++) {
		c = &dev->channels[i];
		if (!f->any_chan && (iio_chan_id(id, sizeof(id), c) < 0 || strcmp(id, channel)))
			continue;
		for (j = 0; j < c->num_event_specs; j++)
			if ((int)c->event_spec[j].type == f->evtype)
				return true;
	}
	return false;
}

/* Build the filter of @req on @dev, answering its errors. Return: 0 or -errno. */
static int srv_evfilter_parse(struct srv_session *s, const struct proto_request *req,
			      const struct iio_dev *dev, struct srv_evfilter *f)
{
	memset(f, 0, sizeof(*f));
	f->evtype = -1;
	if (srv_evfilter_channel(f, dev, req->channel) < 0) {
		srv_dispatch_error(s, req, -ENOENT, "%s has no channel %s with events",
				   req->device, req->channel);
		return -ENOENT;
	}
	if (req->evtype && strcmp(req->evtype, "*") != 0) {
		f->evtype = iio_event_type_from_name(req->evtype);
		if (f->evtype < 0) {
			srv_dispatch_error(s, req, -EINVAL, "evtype: unknown '%.32s' (thresh, mag, "
					   "roc, change, ...)", req->evtype);
			return -EINVAL;
		}
	}
	if (!srv_evfilter_possible(f, dev, req->channel)) {
		srv_dispatch_error(s, req, -ENOENT, "%s has no %s events%s%s", req->device,
				   req->evtype, f->any_chan ? "" : " on ",
				   f->any_chan ? "" : req->channel);
		return -ENOENT;
	}
	return 0;
}

static struct srv_evsub *srv_evsub_find(struct srv_session *s, const struct iio_dev *dev)
{
	struct srv_list *pos, *tmp;
	struct srv_evsub *sub;

	srv_list_for_each_safe(pos, tmp, &s->native.evsubs) {
		sub = srv_container_of(pos, struct srv_evsub, sess_node);
		if (sub->ed->dev == dev)
			return sub;
	}
	return NULL;
}

static void srv_events_ok(struct srv_session *s, const struct proto_request *req)
{
	if (proto_reply_ok(srv_session_out(s), req) < 0)
		srv_session_broken(s);
}

/*
 * A new subscription of @s to @dev. Return: 0 (answer it now), 1 (it waits
 * for the device's open in a slot: srv_evdev_opened() answers) or -errno.
 */
/*
 * A new subscription of @s to @dev (called @name), on the device's queue and the
 * session's list. Return: 0 with *@out (its @slot set when it waits for
 * the device's open: srv_evdev_opened() answers), or -errno.
 */
static int srv_evsub_join(struct srv_session *s, struct iio_dev *dev, const char *name,
			  struct srv_evsub **out)
{
	struct srv_evsub *sub = calloc(1, sizeof(*sub));
	struct srv_evdev *ed;
	unsigned int *count;
	bool *flag;
	int err = -ENOMEM;

	/* the device as the request named it: a reload follows the name */
	if (!sub || !(sub->device = strdup(name)))
		goto err_free;
	ed = srv_evdev_get(s->srv->events, dev, &err);
	if (!ed)
		goto err_free;
	if (ed->opening && !srv_session_slot_new(s, &sub->slot)) {
		err = -ENOMEM;
		srv_evdev_put_if_unused(ed);
		goto err_free;
	}
	sub->ed = ed;
	sub->s = s;
	srv_queue_init(&sub->acct, &srv_evsub_queue_ops);
	srv_queue_join(&s->srv->queues, &sub->acct);
	srv_list_add_tail(&ed->subs, &sub->dev_node);
	srv_list_add_tail(srv_events_of(s, &count, &flag), &sub->sess_node);
	(*count)++;
	*out = sub;
	return 0;

err_free:
	if (sub)
		free(sub->device);
	free(sub);
	return err;
}

/*
 * A SUBSCRIBE's new subscription. Return: 0 (answer it now), 1 (it waits
 * for the device's open in a slot) or -errno.
 */
static int srv_evsub_new(struct srv_session *s, const struct proto_request *req,
			 struct iio_dev *dev, const struct srv_evfilter *f)
{
	struct srv_evsub *sub;
	int err = srv_evsub_join(s, dev, req->device, &sub);

	if (err < 0)
		return err;
	sub->f = *f;
	sub->json = req->flags & PROTO_REQ_JSON;
	sub->rq.op = req->op;
	sub->rq.flags = req->flags;
	memcpy(sub->rq.id, req->id, sizeof(sub->rq.id));
	return sub->slot ? 1 : 0;
}

/* End @sub at its session's request: one still waiting for the open is answered then. */
static void srv_evsub_cancel(struct srv_evsub *sub)
{
	unsigned int *count;
	bool *flag;

	if (!sub->slot) {
		srv_evsub_free(sub);
		return;
	}
	srv_list_del(&sub->sess_node);
	srv_events_of(sub->s, &count, &flag);
	(*count)--;
	sub->cancelled = true;
}

void srv_events_subscribe(struct srv_session *s, struct proto_request *req)
{
	char msg[PROTO_MSG_MAX_BYTES / 2];
	struct srv_evfilter f;
	struct srv_evsub *sub;
	struct iio_dev *dev;
	int ret;

	dev = srv_dispatch_device(s, req);
	if (!dev)
		return;
	if (!iio_device_has_events(dev)) {
		srv_dispatch_error(s, req, -ENODEV, "%s does not support events", req->device);
		return;
	}
	if (srv_evfilter_parse(s, req, dev, &f) < 0)
		return;
	sub = srv_evsub_find(s, dev);
	if (sub && sub->slot) {
		srv_dispatch_error(s, req, -EAGAIN, "%s: the SUBSCRIBE before this one still "
				   "waits for the device's event fd", req->device);
		return;
	}
	if (sub) {
		/* the same device again: a new filter and spelling, not a second stream */
		sub->f = f;
		sub->json = req->flags & PROTO_REQ_JSON;
		srv_events_ok(s, req);
		return;
	}
	if (s->native.nevsubs >= SRV_EVENT_SUBS_MAX_PER_SESSION) {
		srv_dispatch_error(s, req, -EBUSY, "at most %d subscriptions per connection",
				   SRV_EVENT_SUBS_MAX_PER_SESSION);
		return;
	}
	ret = srv_evsub_new(s, req, dev, &f);
	if (ret < 0 && srv_evsub_open_msg(req->device, ret, msg, sizeof(msg)))
		srv_dispatch_error(s, req, ret, "%s", msg);
	else if (ret < 0)
		srv_dispatch_error(s, req, ret, NULL);
	else if (ret == 0)
		srv_events_ok(s, req);
}

void srv_events_unsubscribe(struct srv_session *s, struct proto_request *req)
{
	struct srv_evsub *sub;
	struct iio_dev *dev;

	if (!req->device) {
		srv_events_session_close(s);
		srv_events_ok(s, req);
		return;
	}
	dev = srv_dispatch_device(s, req);
	if (!dev)
		return;
	sub = srv_evsub_find(s, dev);
	if (!sub) {
		srv_dispatch_error(s, req, -ENOENT, "no subscription to %s", req->device);
		return;
	}
	srv_evsub_cancel(sub);
	srv_events_ok(s, req);
}

void srv_events_session_close(struct srv_session *s)
{
	struct srv_list *pos, *tmp, *subs;
	unsigned int *count;
	bool *flag;

	subs = srv_events_of(s, &count, &flag);
	srv_list_for_each_safe(pos, tmp, subs)
		srv_evsub_cancel(srv_container_of(pos, struct srv_evsub, sess_node));
}

void srv_events_writable(struct srv_session *s)
{
	struct srv_list *pos, *tmp, *subs;
	unsigned int *count;
	bool *flag;

	if ((!srv_proto_is_native(s->proto) && s->proto != &srv_proto_iiodb) || !s->srv->events)
		return;
	subs = srv_events_of(s, &count, &flag);
	if (!*count)
		return;
	srv_list_for_each_safe(pos, tmp, subs)
		srv_evsub_flush(srv_container_of(pos, struct srv_evsub, sess_node));
	srv_events_flush(s->srv->events);
}

/* ---- libiio 1.0's event streams (the iiod listener's binary row) ---- */

/* @s's event stream on @dev of client id @id, or NULL. */
static struct srv_evsub *srv_evstream_find(struct srv_session *s, const struct iio_dev *dev,
					   uint16_t id)
{
	struct srv_list *pos, *tmp;
	struct srv_evsub *sub;

	srv_list_for_each_safe(pos, tmp, &s->iiod.bin->evstreams) {
		sub = srv_container_of(pos, struct srv_evsub, sess_node);
		if (sub->ed->dev == dev && sub->client_id == id)
			return sub;
	}
	return NULL;
}

/* CREATE_EVSTREAM: every event of @dev, answered (now or once the device's queue is open). */
static void srv_evstream_create(struct srv_session *s, struct iio_dev *dev,
				const struct proto_iiodb_cmd *c)
{
	char id[32];
	struct srv_evsub *sub;
	int ret;

	if (!dev || !iio_device_has_events(dev) || !s->srv->events) {
		srv_iiodb_answer(s, c->client_id, -ENODEV);
		return;
	}
	if (srv_evstream_find(s, dev, c->client_id)) {
		srv_iiodb_answer(s, c->client_id, -EEXIST);
		return;
	}
	if (s->iiod.bin->nevstreams >= SRV_IIODB_EVSTREAMS_MAX) {
		srv_iiodb_answer(s, c->client_id, -EBUSY);
		return;
	}
	snprintf(id, sizeof(id), "iio:device%d", iio_device_id(dev));
	ret = srv_evsub_join(s, dev, id, &sub);
	if (ret < 0) {
		srv_iiodb_answer(s, c->client_id, ret);
		return;
	}
	sub->bin = true;
	sub->client_id = c->client_id;
	sub->f.any_chan = true;
	sub->f.evtype = -1;
	if (!sub->slot)
		srv_iiodb_answer(s, c->client_id, 0);
}

/* READ_EVENT: the next event, now (@code non-zero: -EAGAIN if none) or when one comes. */
static void srv_evstream_read(struct srv_session *s, struct iio_dev *dev,
			      const struct proto_iiodb_cmd *c)
{
	struct srv_evsub *sub = dev ? srv_evstream_find(s, dev, c->client_id) : NULL;

	if (!sub || sub->slot) {
		srv_iiodb_answer(s, c->client_id, sub ? -EAGAIN : -EBADF);
		return;
	}
	sub->want = true;
	srv_evsub_flush(sub);
	if (sub->want && c->code) {
		sub->want = false;
		srv_iiodb_answer(s, c->client_id, -EAGAIN);
	}
	srv_events_want_flush(s->srv->events, s);
	srv_events_flush(s->srv->events);
}

void srv_events_iiodb(struct srv_session *s, struct iio_dev *dev, const struct proto_iiodb_cmd *c)
{
	struct srv_evsub *sub;

	switch (c->op) {
	case PROTO_IIODB_CREATE_EVSTREAM:
		srv_evstream_create(s, dev, c);
		break;
	case PROTO_IIODB_READ_EVENT:
		srv_evstream_read(s, dev, c);
		break;
	default:	/* FREE_EVSTREAM of stream @code */
		sub = dev ? srv_evstream_find(s, dev, (uint16_t)c->code) : NULL;
		if (sub)
			srv_evsub_cancel(sub);
		srv_iiodb_answer(s, c->client_id, sub ? 0 : -EBADF);
		break;
	}
}
