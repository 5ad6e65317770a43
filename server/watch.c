/*
 * watch.c - WATCH/UNWATCH: periodic reads pushed as EVENT lines (watch.h).
 *
 * Each watch owns a repeating uv_timer. A tick finds the device again if
 * the board was reloaded since the last one (a watch follows the names it
 * was given), reads the attribute on the loop or, for a device that can
 * block, through its bus worker, and appends the event behind any reply
 * still in order. A tick that finds the previous read still on the bus is
 * skipped rather than queued: a slow bus lowers the event rate instead of
 * growing a backlog. Place in the flow: dispatch -> *watch* -> core/busq
 * -> session. A watch is freed only in its timer's close callback.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "busq.h"
#include "dispatch.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "session.h"
#include "srv.h"
#include "watch.h"

struct srv_watch_job;

struct srv_watch {
	struct srv_list node;		/* s->native.watches */
	uv_timer_t timer;
	struct srv_session *s;
	char *device;			/* owned copies of the names the WATCH gave */
	char *attr;
	bool json;
	unsigned int interval_ms;
	struct iio_dev *dev;		/* resolved, referenced; NULL until found */
	const struct iio_attr *iattr;
	uint64_t gen;			/* board generation @dev was found in */
	struct srv_watch_job *job;	/* a read on the bus, or NULL */
};

/* One tick's read on a bus worker. */
struct srv_watch_job {
	struct srv_job job;
	struct srv_watch *w;		/* cleared if the watch stops first */
	struct iio_dev *dev;		/* referenced */
	const struct iio_attr *attr;
	ssize_t ret;
	uint64_t ts_ns;
	char buf[IIO_VALUE_MAX_BYTES];
};

static uint64_t srv_watch_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Append one event; @ret is the read's length or -errno. */
static void srv_watch_emit(struct srv_watch *w, char *buf, ssize_t ret, uint64_t ts_ns,
			   const char *why)
{
	struct srv_session *s = w->s;
	struct proto_event ev = {
		.device = w->device,
		.attr = w->attr,
		.timestamp_ns = ts_ns,
	};
	size_t len;

	if (ret >= 0) {
		len = (size_t)ret;
		if (len && buf[len - 1] == '\n')
			len--;
		buf[len] = '\0';
		ev.value = buf;
	} else {
		ev.err = (int)ret;
		ev.message = why ? why : proto_errno_message((int)ret);
	}
	if (proto_event_encode(srv_session_out(s), w->json, &ev) < 0)
		srv_session_broken(s);
	s->srv->stats.events++;
	srv_session_flush(s);
}

/* Find the device again after a reload. Return: 0, or -ENODEV/-ENOENT. */
static int srv_watch_resolve(struct srv_watch *w)
{
	struct srv *srv = w->s->srv;
	struct iio_dev *dev;

	if (w->dev && w->gen == srv->reg_gen)
		return 0;
	iio_device_put(w->dev);
	w->dev = NULL;
	w->iattr = NULL;
	w->gen = srv->reg_gen;
	if (iio_registry_find(srv->board->reg, w->device, &dev, NULL, 0) < 0)
		return -ENODEV;
	w->iattr = iio_device_attr_find(dev, w->attr);
	if (!w->iattr)
		return -ENOENT;
	w->dev = iio_device_get(dev);
	return 0;
}

static void srv_watch_job_run(struct srv_job *job)
{
	struct srv_watch_job *jb = srv_container_of(job, struct srv_watch_job, job);

	/* -1 keeps room for the NUL the event encoder needs */
	jb->ret = iio_attr_read(jb->dev, jb->attr, jb->buf, sizeof(jb->buf) - 1);
	jb->ts_ns = srv_watch_now_ns();
}

static void srv_watch_job_done(struct srv_job *job, int status)
{
	struct srv_watch_job *jb = srv_container_of(job, struct srv_watch_job, job);
	struct srv_watch *w = jb->w;

	if (!w)
		return;
	w->job = NULL;
	jb->w = NULL;
	if (status < 0)
		srv_watch_emit(w, jb->buf, status, srv_watch_now_ns(),
			       status == -ETIMEDOUT ? "no answer from the bus in time" : NULL);
	else
		srv_watch_emit(w, jb->buf, jb->ret, jb->ts_ns, NULL);
}

static void srv_watch_job_fini(struct srv_job *job)
{
	struct srv_watch_job *jb = srv_container_of(job, struct srv_watch_job, job);

	if (jb->w)
		jb->w->job = NULL;
	iio_device_put(jb->dev);
	free(jb);
}

static void srv_watch_tick(uv_timer_t *timer)
{
	struct srv_watch *w = srv_container_of(timer, struct srv_watch, timer);
	struct srv *srv = w->s->srv;
	struct srv_watch_job *jb;
	struct srv_busq *q;
	char buf[IIO_VALUE_MAX_BYTES];
	ssize_t n;
	int ret;

	if (w->job)
		return;		/* the last read is still on the bus: skip this tick */
	ret = srv_watch_resolve(w);
	if (ret < 0) {
		srv_watch_emit(w, buf, ret, srv_watch_now_ns(), ret == -ENODEV ?
			       "device not on the board" : "no such attribute");
		return;
	}
	ret = srv_dispatch_route(srv, w->dev, &q);
	if (ret < 0) {
		srv_watch_emit(w, buf, ret, srv_watch_now_ns(), NULL);
		return;
	}
	if (!q) {
		n = iio_attr_read(w->dev, w->iattr, buf, sizeof(buf) - 1);
		srv_watch_emit(w, buf, n, srv_watch_now_ns(), NULL);
		return;
	}
	jb = calloc(1, sizeof(*jb));
	if (!jb) {
		srv_watch_emit(w, buf, -ENOMEM, srv_watch_now_ns(), NULL);
		return;
	}
	jb->w = w;
	jb->dev = iio_device_get(w->dev);
	jb->attr = w->iattr;
	jb->job.run = srv_watch_job_run;
	jb->job.done = srv_watch_job_done;
	jb->job.fini = srv_watch_job_fini;
	ret = srv_busq_submit(q, &jb->job);
	if (ret < 0) {
		jb->w = NULL;
		srv_watch_job_fini(&jb->job);
		srv_watch_emit(w, buf, ret, srv_watch_now_ns(), NULL);
		return;
	}
	w->job = jb;
}

static void srv_watch_close_cb(uv_handle_t *handle)
{
	struct srv_watch *w = srv_container_of(handle, struct srv_watch, timer);

	iio_device_put(w->dev);
	free(w->device);
	free(w->attr);
	free(w);
}

/* End one watch; memory goes in the timer's close callback. */
static void srv_watch_stop(struct srv_watch *w)
{
	srv_list_del(&w->node);
	w->s->native.nwatches--;
	if (w->job)
		w->job->w = NULL;	/* its result, when it comes, goes nowhere */
	w->job = NULL;
	uv_close((uv_handle_t *)&w->timer, srv_watch_close_cb);
}

void srv_watch_stop_all(struct srv_session *s)
{
	struct srv_list *pos, *tmp;

	srv_list_for_each_safe(pos, tmp, &s->native.watches)
		srv_watch_stop(srv_container_of(pos, struct srv_watch, node));
}

/* The watch of @s on (@dev, @attr), or NULL. */
static struct srv_watch *srv_watch_find(struct srv_session *s, const struct iio_dev *dev,
					const struct iio_attr *attr)
{
	struct srv_list *pos, *tmp;
	struct srv_watch *w;

	srv_list_for_each_safe(pos, tmp, &s->native.watches) {
		w = srv_container_of(pos, struct srv_watch, node);
		if (srv_watch_resolve(w) == 0 && w->dev == dev && w->iattr == attr)
			return w;
	}
	return NULL;
}

/* Look up the device and attribute a (UN)WATCH names, answering errors. */
static int srv_watch_lookup(struct srv_session *s, const struct proto_request *req,
			    struct iio_dev **dev, const struct iio_attr **attr)
{
	char cand[PROTO_MSG_MAX_BYTES];
	int ret;

	ret = iio_registry_find(s->srv->board->reg, req->device, dev, cand, sizeof(cand));
	if (ret == -ENOTUNIQ) {
		srv_dispatch_error(s, req, ret, "%s matches several devices: %s", req->device,
				   cand);
		return ret;
	}
	if (ret < 0) {
		srv_dispatch_error(s, req, -ENODEV, "no device %s", req->device);
		return -ENODEV;
	}
	*attr = iio_device_attr_find(*dev, req->attr);
	if (!*attr) {
		srv_dispatch_error(s, req, -ENOENT, "%s has no attribute %s", req->device,
				   req->attr);
		return -ENOENT;
	}
	return 0;
}

void srv_watch_request(struct srv_session *s, const struct proto_request *req)
{
	struct srv *srv = s->srv;
	const struct iio_attr *attr;
	struct iio_dev *dev;
	struct srv_watch *w;

	if (srv_watch_lookup(s, req, &dev, &attr) < 0)
		return;
	if (!(attr->mode & 0444)) {
		srv_dispatch_error(s, req, -EACCES, "%s %s is write-only", req->device, req->attr);
		return;
	}
	w = srv_watch_find(s, dev, attr);
	if (w) {
		/* the same attribute again: a new interval, not a second watch */
		w->interval_ms = (unsigned int)req->interval_ms;
		w->json = req->flags & PROTO_REQ_JSON;
		uv_timer_start(&w->timer, srv_watch_tick, w->interval_ms, w->interval_ms);
		if (proto_reply_ok(srv_session_out(s), req) < 0)
			srv_session_broken(s);
		return;
	}
	if (s->native.nwatches >= SRV_WATCH_MAX_PER_SESSION) {
		srv_dispatch_error(s, req, -EBUSY, "at most %d watches per connection",
				   SRV_WATCH_MAX_PER_SESSION);
		return;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		goto err_nomem;
	w->device = strdup(req->device);
	w->attr = strdup(req->attr);
	if (!w->device || !w->attr)
		goto err_free;
	w->s = s;
	w->json = req->flags & PROTO_REQ_JSON;
	w->interval_ms = (unsigned int)req->interval_ms;
	w->dev = iio_device_get(dev);
	w->iattr = attr;
	w->gen = srv->reg_gen;
	uv_timer_init(&srv->loop, &w->timer);
	srv_list_add_tail(&s->native.watches, &w->node);
	s->native.nwatches++;
	if (proto_reply_ok(srv_session_out(s), req) < 0)
		srv_session_broken(s);
	/* the first event right after the OK, then one per interval */
	uv_timer_start(&w->timer, srv_watch_tick, 0, w->interval_ms);
	return;

err_free:
	free(w->device);
	free(w->attr);
	free(w);
err_nomem:
	srv_dispatch_error(s, req, -ENOMEM, NULL);
}

void srv_watch_unwatch(struct srv_session *s, const struct proto_request *req)
{
	const struct iio_attr *attr;
	struct iio_dev *dev;
	struct srv_watch *w;

	if (!req->device) {
		srv_watch_stop_all(s);
	} else {
		if (srv_watch_lookup(s, req, &dev, &attr) < 0)
			return;
		w = srv_watch_find(s, dev, attr);
		if (!w) {
			srv_dispatch_error(s, req, -ENOENT, "no watch on %s %s", req->device,
					   req->attr);
			return;
		}
		srv_watch_stop(w);
	}
	if (proto_reply_ok(srv_session_out(s), req) < 0)
		srv_session_broken(s);
}
