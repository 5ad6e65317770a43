/*
 * stream_capture.c - the capture side of streams: the triggers' timers on
 * the loop, one capture per device (its ring's uv_async, its bus jobs),
 * and the end of a capture (bus error, hung chip, reload).
 *
 * A timed trigger (hrtimer, a chip's data-ready) has its own timerfd on
 * CLOCK_MONOTONIC with absolute expirations, polled by the loop: a poll is
 * made when its time comes (to the kernel's timer slack, not the loop's
 * millisecond), each with its own timestamp. The expiration count says
 * how many came due, so a late wakeup makes them all (up to
 * SRV_STREAM_TICK_POLLS_MAX; older ones count as lost scans to every
 * reader). Rates above 1/SRV_TRIG_WAKE_MIN_NS wake the loop once per batch
 * of polls. Timing comes from the trigger, not from the readers. Polls
 * of a device that can block go to its bus worker as one job per batch;
 * while a job runs, new polls join the next batch (beyond
 * SRV_STREAM_BATCH_MAX they are dropped, as the kernel drops a poll that
 * finds the handler busy, and counted as lost to the readers). Scans come back through the core's ring: the
 * producer's push wakes the capture's uv_async, the loop drains. A job past
 * the bus timeout ends only this capture's readers, with ETIMEDOUT.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/timerfd.h>

#include "board.h"
#include "busq.h"
#include "dispatch.h"
#include "iio_buffer.h"
#include "iio_registry.h"
#include "play.h"
#include "session.h"
#include "srv.h"
#include "stream.h"
#include "stream_priv.h"

/* how often iiod READBUF deadlines are checked */
#define SRV_STREAM_DEADLINE_TICK_MS	50

static uint64_t srv_capture_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int64_t srv_capture_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ---- trigger timers ---- */

static bool srv_trig_alive(struct srv *srv, const struct iio_trigger *trig)
{
	struct iio_registry *reg = srv->board->reg;
	int i;

	for (i = 0; i < iio_trigger_count(reg); i++)
		if (iio_trigger_at(reg, i) == trig)
			return true;
	return false;
}

static void srv_trig_timer_close_cb(uv_handle_t *h)
{
	struct srv_trig_timer *t = srv_container_of(h, struct srv_trig_timer, poll);

	close(t->fd);
	free(t);
}

static void srv_trig_timer_close(struct srv_trig_timer *t)
{
	srv_list_del(&t->node);
	uv_close((uv_handle_t *)&t->poll, srv_trig_timer_close_cb);
}

/*
 * Arm @t for @period from @first (CLOCK_MONOTONIC, the next poll's time):
 * one expiration every k periods, at the time of the last poll of each k,
 * so no scan is made before its time. Return: 0 or -errno.
 */
static int srv_trig_timer_arm(struct srv_trig_timer *t, uint64_t period, uint64_t first)
{
	struct itimerspec its;
	uint64_t at, every;

	t->period = period;
	t->k = period < SRV_TRIG_WAKE_MIN_NS ? (SRV_TRIG_WAKE_MIN_NS + period - 1) / period : 1;
	t->next_ns = first;
	at = first + (t->k - 1) * period;
	every = t->k * period;
	its.it_value.tv_sec = (time_t)(at / 1000000000ULL);
	its.it_value.tv_nsec = (long)(at % 1000000000ULL);
	its.it_interval.tv_sec = (time_t)(every / 1000000000ULL);
	its.it_interval.tv_nsec = (long)(every % 1000000000ULL);
	return timerfd_settime(t->fd, TFD_TIMER_ABSTIME, &its, NULL) < 0 ? -errno : 0;
}

/*
 * Make @n polls due now, each with its own time (K-20). Past
 * SRV_STREAM_TICK_POLLS_MAX the oldest are not made: every consumer's
 * readers are told they lost them, before the scans that follow.
 */
static void srv_trig_fire(struct srv_trig_timer *t, uint64_t n)
{
	uint64_t skip = n > SRV_STREAM_TICK_POLLS_MAX ? n - SRV_STREAM_TICK_POLLS_MAX : 0;

	if (skip) {
		iio_trigger_lost(t->trig, skip);
		t->next_ns += skip * t->period;
		n -= skip;
	}
	while (n--) {
		iio_trigger_poll(t->trig, (int64_t)t->next_ns + t->real_off);
		t->next_ns += t->period;
	}
}

/* The timerfd expired (maybe several times, if the loop was late): fire what is due. */
static void srv_trig_expired(uv_poll_t *poll, int status, int events)
{
	struct srv_trig_timer *t = srv_container_of(poll, struct srv_trig_timer, poll);
	uint64_t exp = 0, period;

	(void)events;
	if (!srv_trig_alive(t->ss->srv, t->trig)) {
		srv_trig_timer_close(t);
		return;
	}
	if (status < 0 || read(t->fd, &exp, sizeof(exp)) != (ssize_t)sizeof(exp) || !exp)
		return;	/* EAGAIN: nothing due after all */
	srv_trig_fire(t, exp * t->k);
	period = iio_trigger_period_ns(t->trig);
	/* a data-ready trigger's rate follows its chip's: re-armed from the next poll */
	if (period && period != t->period && srv_trig_timer_arm(t, period, t->next_ns) < 0)
		srv_err(&t->ss->srv->log, "trigger %s: cannot re-arm its timer", t->trig->name);
	srv_streams_flush(t->ss);
}

static int srv_trig_timer_start(struct srv_streams *ss, struct iio_trigger *trig)
{
	struct srv_trig_timer *t = calloc(1, sizeof(*t));
	uint64_t period = iio_trigger_period_ns(trig);
	int ret;

	if (!t)
		return -ENOMEM;
	t->ss = ss;
	t->trig = trig;
	t->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (t->fd < 0) {
		ret = -errno;
		free(t);
		return ret;
	}
	t->real_off = srv_capture_real_ns() - (int64_t)srv_capture_mono_ns();
	ret = period ? srv_trig_timer_arm(t, period, srv_capture_mono_ns() + period) : 0;
	if (!ret)
		ret = uv_poll_init(&ss->srv->loop, &t->poll, t->fd);
	if (ret < 0) {
		close(t->fd);
		free(t);
		return ret;
	}
	srv_list_add_tail(&ss->timers, &t->node);
	uv_poll_start(&t->poll, UV_READABLE, srv_trig_expired);
	return 0;
}

/* A rate written to @t's trigger: re-armed at once from now, the new period on. */
static void srv_trig_timer_retune(struct srv_trig_timer *t)
{
	uint64_t period = iio_trigger_period_ns(t->trig);

	if (period && period != t->period &&
	    srv_trig_timer_arm(t, period, srv_capture_mono_ns() + period) < 0)
		srv_err(&t->ss->srv->log, "trigger %s: cannot re-arm its timer", t->trig->name);
}

/* Timers for the triggers that have consumers now, none for the others. */
static void srv_trig_reconcile(uv_async_t *async)
{
	struct srv_streams *ss = srv_container_of(async, struct srv_streams, trig_async);
	struct iio_registry *reg = ss->srv->board->reg;
	struct srv_list *pos, *tmp;
	struct srv_trig_timer *t;
	struct iio_trigger *trig;
	bool have;
	int i;

	srv_list_for_each_safe(pos, tmp, &ss->timers) {
		t = srv_container_of(pos, struct srv_trig_timer, node);
		if (!srv_trig_alive(ss->srv, t->trig) || !t->trig->nconsumers ||
		    !(iio_trigger_caps(t->trig) & IIO_TRIGGER_TIMED))
			srv_trig_timer_close(t);
		else
			srv_trig_timer_retune(t);
	}
	for (i = 0; i < iio_trigger_count(reg); i++) {
		trig = iio_trigger_at(reg, i);
		if (!trig->nconsumers || !(iio_trigger_caps(trig) & IIO_TRIGGER_TIMED))
			continue;
		have = false;
		srv_list_for_each_safe(pos, tmp, &ss->timers)
			have |= srv_container_of(pos, struct srv_trig_timer, node)->trig == trig;
		if (!have && srv_trig_timer_start(ss, trig) < 0)
			srv_err(&ss->srv->log, "trigger %s: no memory for its timer", trig->name);
	}
}

/* Hooks: any thread (an attach may run on a bus worker, a rate write on the loop); the loop reconciles. */
static void srv_trig_hook_change(struct iio_trigger *trig, void *ctx)
{
	struct srv_streams *ss = ctx;

	(void)trig;
	uv_async_send(&ss->trig_async);
}

/* ---- captures ---- */

struct srv_capture *srv_capture_find(struct srv_streams *ss, struct iio_dev *dev)
{
	struct srv_list *pos, *tmp;
	struct srv_capture *c;

	srv_list_for_each_safe(pos, tmp, &ss->captures) {
		c = srv_container_of(pos, struct srv_capture, node);
		if (c->dev == dev && !c->retired)
			return c;
	}
	return NULL;
}

static void srv_capture_drain_cb(uv_async_t *async)
{
	struct srv_capture *c = srv_container_of(async, struct srv_capture, async);

	int err;

	iio_device_buffers_drain(c->dev);
	err = iio_device_buffer_failed(c->dev);
	if (err) {	/* a kernel device's reader: the device went away */
		srv_capture_end(c, err, NULL);
		srv_stream_reap(c);
	}
	srv_streams_flush(c->ss);
}

/* Producer thread: the ring was empty and has a scan now. */
static void srv_capture_notify(void *ctx)
{
	struct srv_capture *c = ctx;

	uv_async_send(&c->async);
}

struct srv_capture *srv_capture_get(struct srv_streams *ss, struct iio_dev *dev)
{
	struct srv_capture *c = srv_capture_find(ss, dev);

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->ss = ss;
	c->dev = iio_device_get(dev);
	srv_list_init(&c->readers);
	if (uv_async_init(&ss->srv->loop, &c->async, srv_capture_drain_cb) < 0) {
		iio_device_put(dev);
		free(c);
		return NULL;
	}
	uv_unref((uv_handle_t *)&c->async);
	iio_device_set_push_notify(dev, srv_capture_notify, c);
	srv_list_add_tail(&ss->captures, &c->node);
	return c;
}

static void srv_capture_close_cb(uv_handle_t *h)
{
	struct srv_capture *c = srv_container_of(h, struct srv_capture, async);

	iio_device_put(c->dev);
	free(c);
}

/* Free @c once nothing uses it: no reader, no job, no reference. */
void srv_capture_put_if_idle(struct srv_capture *c)
{
	if (c->nreaders || c->job || c->refs || c->closing)
		return;
	c->closing = true;
	srv_list_del(&c->node);
	iio_device_set_push_notify(c->dev, NULL, NULL);
	uv_close((uv_handle_t *)&c->async, srv_capture_close_cb);
}

/* End every reader of @c with @err (device gone, bus failed, chip hung). */
void srv_capture_end(struct srv_capture *c, int err, const char *why)
{
	struct srv_list *pos, *tmp;

	srv_list_for_each_safe(pos, tmp, &c->readers)
		srv_reader_ended(srv_container_of(pos, struct srv_reader, cnode), err, why);
}

/* ---- polls on a bus worker ---- */

struct srv_poll_job {
	struct srv_job job;
	struct srv_capture *cap;
	struct iio_dev *dev;		/* referenced */
	int n;
	int ret;
	int64_t ts[SRV_STREAM_BATCH_MAX];
};

static void srv_poll_job_run(struct srv_job *job)
{
	struct srv_poll_job *pj = srv_container_of(job, struct srv_poll_job, job);
	int i, ret;

	pj->ret = 0;
	for (i = 0; i < pj->n; i++) {
		ret = iio_device_trigger_handle(pj->dev, pj->ts[i]);
		if (ret < 0 && ret != -EAGAIN) {
			pj->ret = ret;
			return;
		}
	}
}

static void srv_capture_submit(struct srv_capture *c);

static void srv_poll_job_done(struct srv_job *job, int status)
{
	struct srv_poll_job *pj = srv_container_of(job, struct srv_poll_job, job);
	struct srv_capture *c = pj->cap;

	iio_device_buffers_drain(c->dev);
	if (status == -ETIMEDOUT) {
		c->hung = true;
		srv_capture_end(c, -ETIMEDOUT, "no answer from the bus in time");
	} else if (status < 0 || pj->ret < 0) {
		srv_capture_end(c, status < 0 ? status : pj->ret, NULL);
	}
	srv_streams_flush(c->ss);
}

static void srv_poll_job_fini(struct srv_job *job)
{
	struct srv_poll_job *pj = srv_container_of(job, struct srv_poll_job, job);
	struct srv_capture *c = pj->cap;

	c->job = NULL;
	c->hung = false;
	iio_device_put(pj->dev);
	free(pj);
	if (c->npend && c->nreaders)
		srv_capture_submit(c);
	srv_stream_reap(c);
	srv_capture_put_if_idle(c);
}

static void srv_capture_submit(struct srv_capture *c)
{
	struct srv_poll_job *pj;
	int ret;

	pj = calloc(1, sizeof(*pj));
	if (!pj)
		return;
	pj->cap = c;
	pj->dev = iio_device_get(c->dev);
	pj->n = c->npend;
	memcpy(pj->ts, c->pend, (size_t)c->npend * sizeof(c->pend[0]));
	c->npend = 0;
	pj->job.run = srv_poll_job_run;
	pj->job.done = srv_poll_job_done;
	pj->job.fini = srv_poll_job_fini;
	ret = srv_busq_submit(c->q, &pj->job);
	if (ret < 0) {
		iio_device_scans_lost(c->dev, (uint64_t)pj->n);	/* a full queue: told */
		iio_device_put(pj->dev);
		free(pj);
		return;
	}
	c->job = pj;
}

/* The registry's poll hook (loop thread): run the handler here or on the bus. */
static void srv_trig_hook_poll(struct iio_dev *dev, int64_t ts, void *ctx)
{
	struct srv_streams *ss = ctx;
	struct srv_capture *c = srv_capture_find(ss, dev);

	if (!c || !c->q) {
		/* a chip that cannot block, or buffer/enable with no stream */
		(void)iio_device_trigger_handle(dev, ts);
		iio_device_buffers_drain(dev);
		return;
	}
	if (c->npend < SRV_STREAM_BATCH_MAX)
		c->pend[c->npend++] = ts;
	else	/* the kernel drops a poll that finds the handler busy; here it is counted */
		iio_device_scans_lost(dev, 1);
	if (!c->job)
		srv_capture_submit(c);
}

/* ---- the module ---- */

static void srv_streams_hooks(struct srv_streams *ss, struct iio_registry *reg)
{
	const struct iio_trigger_hooks hooks = {
		.start = srv_trig_hook_change,
		.stop = srv_trig_hook_change,
		.change = srv_trig_hook_change,
		.poll = srv_trig_hook_poll,
		.ctx = ss,
	};

	iio_registry_set_trigger_hooks(reg, &hooks);
}

static void srv_streams_deadline_cb(uv_timer_t *timer)
{
	struct srv_streams *ss = srv_container_of(timer, struct srv_streams, deadline);

	srv_streams_flush(ss);
	srv_play_tick(ss->srv);		/* libiio 1.0 TX blocks that have played */
}

int srv_streams_init(struct srv *srv)
{
	struct srv_streams *ss = calloc(1, sizeof(*ss));
	int ret;

	if (!ss)
		return -ENOMEM;
	ss->srv = srv;
	srv_list_init(&ss->timers);
	srv_list_init(&ss->captures);
	ret = uv_async_init(&srv->loop, &ss->trig_async, srv_trig_reconcile);
	if (ret < 0) {
		free(ss);
		return ret;
	}
	/* it never keeps the loop alive: sessions and timers do */
	uv_unref((uv_handle_t *)&ss->trig_async);
	uv_timer_init(&srv->loop, &ss->deadline);
	uv_timer_start(&ss->deadline, srv_streams_deadline_cb, SRV_STREAM_DEADLINE_TICK_MS,
		       SRV_STREAM_DEADLINE_TICK_MS);
	uv_unref((uv_handle_t *)&ss->deadline);
	srv->streams = ss;
	srv_streams_hooks(ss, srv->board->reg);
	return 0;
}

void srv_streams_board_swap(struct srv *srv, struct board *old)
{
	struct srv_streams *ss = srv->streams;
	struct srv_list *pos, *tmp;
	struct srv_capture *c;

	if (!ss)
		return;
	srv_list_for_each_safe(pos, tmp, &ss->captures) {
		c = srv_container_of(pos, struct srv_capture, node);
		if (!c->retired && iio_registry_find_dev(old->reg, c->dev))
			srv_capture_retire(c, "removed by a board reload");
	}
	srv_streams_hooks(ss, srv->board->reg);
	srv_trig_reconcile(&ss->trig_async);
	srv_streams_flush(ss);
}

void srv_streams_devices_gone(struct srv *srv, struct iio_dev *const *gone, int n)
{
	struct srv_streams *ss = srv->streams;
	struct srv_list *pos, *tmp;
	struct srv_capture *c;
	int i;

	if (!ss)
		return;
	srv_list_for_each_safe(pos, tmp, &ss->captures) {
		c = srv_container_of(pos, struct srv_capture, node);
		for (i = 0; i < n; i++) {
			if (c->dev == gone[i] && !c->retired) {
				srv_capture_retire(c, "device removed");	/* may free @c */
				break;
			}
		}
	}
	/* a trigger may have gone with them (a device's own) or come: timers follow */
	srv_trig_reconcile(&ss->trig_async);
	srv_streams_flush(ss);
}

static void srv_streams_close_cb(uv_handle_t *h)
{
	struct srv_streams *ss = h->data;

	if (++ss->closed == 2)
		free(ss);
}

void srv_streams_close(struct srv *srv)
{
	struct srv_streams *ss = srv->streams;
	struct srv_list *pos, *tmp;

	if (!ss)
		return;
	iio_registry_set_trigger_hooks(srv->board->reg, NULL);
	srv_list_for_each_safe(pos, tmp, &ss->timers)
		srv_trig_timer_close(srv_container_of(pos, struct srv_trig_timer, node));
	srv_list_for_each_safe(pos, tmp, &ss->captures)
		srv_capture_put_if_idle(srv_container_of(pos, struct srv_capture, node));
	srv->streams = NULL;
	ss->trig_async.data = ss;
	ss->deadline.data = ss;
	uv_close((uv_handle_t *)&ss->trig_async, srv_streams_close_cb);
	uv_close((uv_handle_t *)&ss->deadline, srv_streams_close_cb);
}
