/*
 * watch.c - libiiowire's subscriptions and event queue: WATCH/UNWATCH,
 * waiting for pushed values, handing them out one by one or to a callback.
 *
 * Place in the flow: wire (EVENT lines) -> request.c / this file ->
 * the event queue -> the program. Events that arrive while another call
 * waits for its reply are queued by request.c through iiowire_evq_push();
 * this file waits for more when the queue is empty. The subscriptions are
 * remembered so request.c can send them again after a reconnect. The queue
 * is bounded (IIOWIRE_EVENT_QUEUE_MAX): a program that never takes its events
 * loses the oldest, not its memory. No threads, no signals here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iiowire_priv.h"
#include "iiowire_req.h"

/** iiowire_evq_push() - queue one event (copied); drops the oldest when full. */
void iiowire_evq_push(struct iiowire *w, const char *device, const char *attr,
		      const char *value, int error, uint64_t timestamp_ns)
{
	size_t nd = strlen(device ? device : "") + 1, na = strlen(attr ? attr : "") + 1;
	size_t nv = strlen(value ? value : "") + 1;
	struct iiowire_qevent *q, *old;

	q = malloc(sizeof(*q) + nd + na + nv);
	if (!q) {
		w->evq_dropped++;
		return;
	}
	q->next = NULL;
	memcpy(q->buf, device ? device : "", nd);
	memcpy(q->buf + nd, attr ? attr : "", na);
	memcpy(q->buf + nd + na, value ? value : "", nv);
	q->ev.device = q->buf;
	q->ev.attr = q->buf + nd;
	q->ev.value = q->buf + nd + na;
	q->ev.error = error;
	q->ev.timestamp_ns = timestamp_ns;
	if (w->evq_len >= IIOWIRE_EVENT_QUEUE_MAX) {
		old = w->evq_head;
		w->evq_head = old->next;
		if (!w->evq_head)
			w->evq_tail = NULL;
		free(old);
		w->evq_len--;
		w->evq_dropped++;
	}
	if (w->evq_tail)
		w->evq_tail->next = q;
	else
		w->evq_head = q;
	w->evq_tail = q;
	w->evq_len++;
}

/** iiowire_evq_clear() - free every queued event and the one handed out last. */
void iiowire_evq_clear(struct iiowire *w)
{
	struct iiowire_qevent *q, *next;

	for (q = w->evq_head; q; q = next) {
		next = q->next;
		free(q);
	}
	w->evq_head = NULL;
	w->evq_tail = NULL;
	w->evq_len = 0;
	free(w->ev_current);
	w->ev_current = NULL;
}

/** iiowire_watch_list_free() - forget every subscription (the daemon is not told). */
void iiowire_watch_list_free(struct iiowire *w)
{
	struct iiowire_watch *wt, *next;

	for (wt = w->watches; wt; wt = next) {
		next = wt->next;
		free(wt->device);
		free(wt->attr);
		free(wt);
	}
	w->watches = NULL;
}

/* Send one WATCH. Return: 0, or -errno. */
static int iiowire_watch_send(struct iiowire *w, const char *device, const char *attr,
			      int interval_ms)
{
	struct proto_request req = {
		.op = PROTO_OP_WATCH, .device = device, .attr = attr, .interval_ms = interval_ms,
	};
	struct proto_reply r;
	int ret;

	/* sending a WATCH twice on one connection only renews it */
	ret = iiowire_req_run(w, &req, true, &r);
	proto_reply_fini(&r);
	return ret;
}

/* CLOCK_REALTIME in ns, the clock of the daemon's event timestamps. */
static uint64_t iiowire_watch_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/**
 * iiowire_watch_replay() - after a reconnect, subscribe again to everything
 * @w watched. A subscription the new daemon refuses (its device went away
 * with a board change) becomes an error event and stays remembered for the
 * next reconnect; only a connection that fails again fails the replay.
 * Return: 0, or the -errno of the connection.
 */
int iiowire_watch_replay(struct iiowire *w)
{
	struct iiowire_watch *wt;
	int ret;

	for (wt = w->watches; wt; wt = wt->next) {
		ret = iiowire_watch_send(w, wt->device, wt->attr, wt->interval_ms);
		if (ret == 0)
			continue;
		if (iiowire_conn_is_broken_err(ret) || ret == -ETIMEDOUT || ret == -EPROTO ||
		    ret == -EMSGSIZE || w->fd < 0)
			return ret;
		iiowire_evq_push(w, wt->device, wt->attr, NULL, ret, iiowire_watch_now_ns());
	}
	return iiowire_evstream_replay(w);
}

/* The remembered subscription for (device, attr), or NULL. */
static struct iiowire_watch **iiowire_watch_find(struct iiowire *w, const char *device,
						 const char *attr)
{
	struct iiowire_watch **pp;

	for (pp = &w->watches; *pp; pp = &(*pp)->next)
		if (strcmp((*pp)->device, device) == 0 && strcmp((*pp)->attr, attr) == 0)
			return pp;
	return NULL;
}

/** iiowire_watch_start() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_watch_start(struct iiowire *w, const char *device, const char *attr,
				       int interval_ms)
{
	struct iiowire_watch **pp, *wt;
	int ret;

	iiowire_err_clear(w);
	if (!device || !attr)
		return iiowire_err_local(w, -EINVAL, "WATCH needs a device and an attribute");
	ret = iiowire_watch_send(w, device, attr, interval_ms);
	if (ret < 0)
		return ret;
	pp = iiowire_watch_find(w, device, attr);
	if (pp) {
		(*pp)->interval_ms = interval_ms;
		return 0;
	}
	wt = calloc(1, sizeof(*wt));
	if (!wt)
		return -ENOMEM;
	wt->device = strdup(device);
	wt->attr = strdup(attr);
	if (!wt->device || !wt->attr) {
		free(wt->device);
		free(wt->attr);
		free(wt);
		return -ENOMEM;
	}
	wt->interval_ms = interval_ms;
	wt->next = w->watches;
	w->watches = wt;
	return 0;
}

/** iiowire_watch_stop() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_watch_stop(struct iiowire *w, const char *device, const char *attr)
{
	struct proto_request req = { .op = PROTO_OP_UNWATCH, .device = device, .attr = attr };
	struct iiowire_watch **pp, *wt;
	struct proto_reply r;
	unsigned int gen = w->reconnects;
	bool known = false;
	int ret;

	iiowire_err_clear(w);
	if (!device != !attr)
		return iiowire_err_local(w, -EINVAL,
					 "UNWATCH needs both device and attribute, or neither");
	/* forget it first, so a reconnect during the request does not bring it back */
	if (!device) {
		known = w->watches != NULL;
		iiowire_watch_list_free(w);
	} else if ((pp = iiowire_watch_find(w, device, attr))) {
		wt = *pp;
		*pp = wt->next;
		free(wt->device);
		free(wt->attr);
		free(wt);
		known = true;
	}
	ret = iiowire_req_run(w, &req, true, &r);
	proto_reply_fini(&r);
	/* after a reconnect the new connection never had it: that is stopped too */
	if (ret == -ENOENT && known && gen != w->reconnects) {
		iiowire_err_clear(w);
		ret = 0;
	}
	return ret;
}

/** iiowire_event_pending() - Return: events queued in @w. */
IIOWIRE_EXPORT int iiowire_event_pending(const struct iiowire *w)
{
	return w->evq_len;
}

/* The wait of iiowire_event_next(): until the connection's queue has an event. */
static bool iiowire_watch_ready(struct iiowire *w, void *ctx)
{
	(void)ctx;
	return w->evq_len > 0;
}

/** iiowire_event_next() - see iiowire.h. Return: 1, 0, or -errno. */
IIOWIRE_EXPORT int iiowire_event_next(struct iiowire *w, struct iiowire_event *ev,
				      int timeout_ms)
{
	struct iiowire_qevent *q;
	int ret;

	iiowire_err_clear(w);
	free(w->ev_current);
	w->ev_current = NULL;
	if (w->evq_len == 0) {
		ret = iiowire_req_wait(w, iiowire_conn_deadline(timeout_ms), iiowire_watch_ready, NULL);
		if (ret <= 0)
			return ret;
	}
	q = w->evq_head;
	w->evq_head = q->next;
	if (!w->evq_head)
		w->evq_tail = NULL;
	w->evq_len--;
	w->ev_current = q;
	*ev = q->ev;
	return 1;
}

/** iiowire_event_dispatch() - see iiowire.h. Return: events delivered, or -errno. */
IIOWIRE_EXPORT int iiowire_event_dispatch(struct iiowire *w, iiowire_event_cb cb, void *data,
					  int max_events, int timeout_ms)
{
	int64_t deadline = iiowire_conn_deadline(timeout_ms), left;
	struct iiowire_event ev;
	int count = 0, ret;

	for (;;) {
		if (timeout_ms < 0) {
			left = -1;
		} else {
			left = deadline - iiowire_conn_deadline(0);
			if (left < 0)
				left = 0;
		}
		ret = iiowire_event_next(w, &ev, (int)(left > INT32_MAX ? INT32_MAX : left));
		if (ret < 0)
			return count > 0 ? count : ret;
		if (ret == 0)
			return count;
		count++;
		if (cb(&ev, data) != 0 || (max_events > 0 && count >= max_events))
			return count;
	}
}
