/*
 * events.c - libiiowire's IIO event streams: SUBSCRIBE, the pushed
 * IIOEVENT lines sorted into each stream's queue, blocking reads with a
 * timeout, UNSUBSCRIBE; and the decoders of an event code.
 *
 * Place in the flow: wire (iio_event lines) -> request.c / this file ->
 * the stream's queue -> the program. Lines that arrive while another call
 * waits for its reply reach iiowire_evstream_push() through request.c. A
 * stream's queue is bounded (IIOWIRE_EVENT_QUEUE_MAX): a program that does
 * not read loses the oldest, counted in the next event's @lost, as the
 * daemon counts its own drops. No threads, no signals here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iio_events.h"
#include "iiowire_priv.h"
#include "iiowire_req.h"

struct iiowire_evrec {
	uint64_t id;
	int64_t timestamp;
	uint64_t lost;		/* dropped just before this one */
};

struct iiowire_event_stream {
	struct iiowire_event_stream *next;	/* w->streams */
	struct iiowire *w;
	char *device;			/* owned, as are channel and evtype */
	char *channel;
	char *evtype;
	unsigned int head, count;
	uint64_t lost;			/* dropped, not yet attached to an event */
	int end;			/* -errno once the daemon ended the stream */
	struct iiowire_evrec q[IIOWIRE_EVENT_QUEUE_MAX];
};

static struct iiowire_event_stream *iiowire_evstream_find(struct iiowire *w, const char *device)
{
	struct iiowire_event_stream *st;

	for (st = w->streams; st; st = st->next)
		if (strcmp(st->device, device) == 0)
			return st;
	return NULL;
}

/** iiowire_evstream_push() - sort one pushed line into its stream; others are dropped. */
void iiowire_evstream_push(struct iiowire *w, const struct proto_ievent *ev)
{
	struct iiowire_event_stream *st = iiowire_evstream_find(w, ev->device);
	struct iiowire_evrec *r;

	if (!st || st->end)
		return;
	switch (ev->kind) {
	case PROTO_IEVENT_LOST:
		st->lost += ev->lost;
		return;
	case PROTO_IEVENT_END:
		st->end = ev->err ? ev->err : -ENODEV;
		return;
	case PROTO_IEVENT_EVENT:
		break;
	}
	if (st->count == IIOWIRE_EVENT_QUEUE_MAX) {
		st->lost += 1 + st->q[st->head].lost;
		st->head = (st->head + 1) % IIOWIRE_EVENT_QUEUE_MAX;
		st->count--;
	}
	r = &st->q[(st->head + st->count) % IIOWIRE_EVENT_QUEUE_MAX];
	r->id = ev->id;
	r->timestamp = ev->timestamp;
	r->lost = st->lost;
	st->lost = 0;
	st->count++;
}

static int iiowire_evstream_send(struct iiowire *w, enum proto_op op,
				 const struct iiowire_event_stream *st)
{
	struct proto_request req = {
		.op = op, .device = st->device, .channel = st->channel, .evtype = st->evtype,
	};
	struct proto_reply r;
	int ret;

	/* channel "*" stands for any when only the type is given */
	if (op == PROTO_OP_SUBSCRIBE && !req.channel && req.evtype)
		req.channel = "*";
	if (op == PROTO_OP_UNSUBSCRIBE)
		req.channel = req.evtype = NULL;
	ret = iiowire_req_run(w, &req, true, &r);
	proto_reply_fini(&r);
	return ret;
}

/**
 * iiowire_evstream_replay() - after a reconnect, subscribe every open
 * stream again; one the new daemon refuses ends with its error.
 * Return: 0, or the -errno of the connection.
 */
int iiowire_evstream_replay(struct iiowire *w)
{
	struct iiowire_event_stream *st;
	int ret;

	for (st = w->streams; st; st = st->next) {
		if (st->end)
			continue;
		ret = iiowire_evstream_send(w, PROTO_OP_SUBSCRIBE, st);
		if (ret == 0)
			continue;
		if (iiowire_conn_is_broken_err(ret) || ret == -ETIMEDOUT || w->fd < 0)
			return ret;
		st->end = ret;
	}
	return 0;
}

static void iiowire_evstream_free(struct iiowire_event_stream *st)
{
	free(st->device);
	free(st->channel);
	free(st->evtype);
	free(st);
}

/** iiowire_evstream_free_all() - the connection is closing: free what is left open. */
void iiowire_evstream_free_all(struct iiowire *w)
{
	struct iiowire_event_stream *st, *next;

	for (st = w->streams; st; st = next) {
		next = st->next;
		iiowire_evstream_free(st);
	}
	w->streams = NULL;
}

/** iiowire_event_stream_open() - see iiowire.h. Return: 0 or -errno. */
IIOWIRE_EXPORT int iiowire_event_stream_open(struct iiowire *w, const char *device,
					     const char *channel, const char *evtype,
					     struct iiowire_event_stream **out)
{
	struct iiowire_event_stream *st;
	int ret;

	iiowire_err_clear(w);
	*out = NULL;
	if (!device)
		return iiowire_err_local(w, -EINVAL, "an event stream needs a device");
	if (iiowire_evstream_find(w, device))
		return iiowire_err_local(w, -EBUSY, "a stream of that device is open");
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->w = w;
	st->device = strdup(device);
	st->channel = channel ? strdup(channel) : NULL;
	st->evtype = evtype ? strdup(evtype) : NULL;
	if (!st->device || (channel && !st->channel) || (evtype && !st->evtype))
		ret = -ENOMEM;
	else
		ret = iiowire_evstream_send(w, PROTO_OP_SUBSCRIBE, st);
	if (ret < 0) {
		iiowire_evstream_free(st);
		return ret;
	}
	st->next = w->streams;
	w->streams = st;
	*out = st;
	return 0;
}

/* The wait of iiowire_event_stream_read(): until @ctx (the stream) has an event or ended. */
static bool iiowire_evstream_ready(struct iiowire *w, void *ctx)
{
	const struct iiowire_event_stream *st = ctx;

	(void)w;
	return st->count || st->end;
}

/** iiowire_event_stream_read() - see iiowire.h. Return: 1, 0 or -errno. */
IIOWIRE_EXPORT int iiowire_event_stream_read(struct iiowire_event_stream *st,
					     struct iiowire_iio_event *ev, int timeout_ms)
{
	struct iiowire_evrec *r;
	int ret;

	iiowire_err_clear(st->w);
	if (!st->count && !st->end) {
		ret = iiowire_req_wait(st->w, iiowire_conn_deadline(timeout_ms),
				       iiowire_evstream_ready, st);
		if (ret <= 0)
			return ret;
	}
	if (!st->count)
		return iiowire_err_local(st->w, st->end, "the event stream ended");
	r = &st->q[st->head];
	st->head = (st->head + 1) % IIOWIRE_EVENT_QUEUE_MAX;
	st->count--;
	ev->data.id = r->id;
	ev->data.timestamp = r->timestamp;
	ev->device = st->device;
	ev->lost = r->lost;
	return 1;
}

/** iiowire_event_stream_close() - see iiowire.h. */
IIOWIRE_EXPORT void iiowire_event_stream_close(struct iiowire_event_stream *st)
{
	struct iiowire_event_stream **pp;
	struct iiowire *w;

	if (!st)
		return;
	w = st->w;
	for (pp = &w->streams; *pp; pp = &(*pp)->next) {
		if (*pp == st) {
			*pp = st->next;
			break;
		}
	}
	/* a stream the daemon ended has nothing to stop there */
	if (!st->end && w->fd >= 0)
		iiowire_evstream_send(w, PROTO_OP_UNSUBSCRIBE, st);
	iiowire_evstream_free(st);
}

IIOWIRE_EXPORT int iiowire_event_get_type(const struct iiowire_iio_event *ev)
{
	return (int)IIO_EVENT_CODE_EXTRACT_TYPE(ev->data.id);
}

IIOWIRE_EXPORT int iiowire_event_get_direction(const struct iiowire_iio_event *ev)
{
	return (int)IIO_EVENT_CODE_EXTRACT_DIR(ev->data.id);
}

IIOWIRE_EXPORT int iiowire_event_get_chan_type(const struct iiowire_iio_event *ev)
{
	return (int)IIO_EVENT_CODE_EXTRACT_CHAN_TYPE(ev->data.id);
}

IIOWIRE_EXPORT int iiowire_event_get_modifier(const struct iiowire_iio_event *ev)
{
	return (int)IIO_EVENT_CODE_EXTRACT_MODIFIER(ev->data.id);
}

IIOWIRE_EXPORT int iiowire_event_get_channel(const struct iiowire_iio_event *ev, bool diff)
{
	int chan;

	if (diff && !IIO_EVENT_CODE_EXTRACT_DIFF(ev->data.id))
		return -1;
	chan = diff ? IIO_EVENT_CODE_EXTRACT_CHAN2(ev->data.id) :
		      IIO_EVENT_CODE_EXTRACT_CHAN(ev->data.id);
	return chan < 0 ? -1 : chan;
}

IIOWIRE_EXPORT int iiowire_event_format(char *buf, size_t len, const struct iiowire_iio_event *ev)
{
	return iio_event_monitor_line(buf, len, ev->data.id, ev->data.timestamp) ? 1 : 0;
}
