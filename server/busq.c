/*
 * busq.c - one worker thread per bus, a FIFO of jobs, deadlines on the loop.
 *
 * Why a thread per bus and not uv_queue_work: the pool is shared by the
 * whole process (4 threads by default), so four hung chips would stall every
 * other bus; and a bus carries one transaction at a time anyway, so one
 * thread per bus is the natural serialisation (DESIGN.md, STYLE.md rule 10).
 * The worker runs job->run() and hands the job back through the finished
 * list and a uv_async. The loop keeps one timer per bus at the earliest
 * unanswered deadline; when it fires, waiting jobs are taken off the queue
 * and answered -ETIMEDOUT, and a running one is answered but stays the
 * worker's until run() returns. This file must not look inside a job, and the
 * worker must not touch anything but the job and the queue under its lock.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "busq.h"
#include "srv.h"

static void srv_busq_arm(struct srv_busq *q);

static void *srv_busq_thread(void *arg)
{
	struct srv_busq *q = arg;
	struct srv_job *job;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		while (!q->stop && !q->head)
			pthread_cond_wait(&q->cond, &q->lock);
		if (!q->head)
			break;
		job = q->head;
		q->head = job->next;
		if (!q->head)
			q->tail = NULL;
		job->next = NULL;
		q->running = job;
		pthread_mutex_unlock(&q->lock);

		job->run(job);

		pthread_mutex_lock(&q->lock);
		q->running = NULL;
		job->next = q->finished;
		q->finished = job;
		/* under the lock: the loop sets closed before it closes the async */
		if (!q->closed)
			uv_async_send(&q->async);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

/* Hand a job back to its submitter for the last time; the loop thread only. */
static void srv_busq_release(struct srv_busq *q, struct srv_job *job, int status)
{
	if (!job->answered) {
		job->answered = true;
		if (status == -ETIMEDOUT)
			q->timeouts++;
		job->done(job, status);
	}
	q->depth--;
	job->fini(job);
}

static void srv_busq_async_cb(uv_async_t *async)
{
	struct srv_busq *q = srv_container_of(async, struct srv_busq, async);
	struct srv_job *list, *job, *rev;

	pthread_mutex_lock(&q->lock);
	list = q->finished;
	q->finished = NULL;
	pthread_mutex_unlock(&q->lock);
	/* the list is newest first: answer in the order the bus ran them */
	rev = srv_slist_reverse(list, next);
	while (rev) {
		job = rev;
		rev = job->next;
		srv_busq_release(q, job, 0);
	}
	srv_busq_arm(q);
}

static void srv_busq_timer_cb(uv_timer_t *timer)
{
	struct srv_busq *q = srv_container_of(timer, struct srv_busq, timer);
	uint64_t now = uv_now(timer->loop);
	struct srv_job *expired = NULL, **link, *job, *late = NULL;

	pthread_mutex_lock(&q->lock);
	if (q->running && !q->running->answered && q->running->deadline_ms <= now)
		late = q->running;
	/* FIFO with one timeout per bus: deadlines rise along the queue */
	link = &q->head;
	while (*link && (*link)->deadline_ms <= now) {
		job = *link;
		*link = job->next;
		job->next = expired;
		expired = job;
	}
	if (!q->head)
		q->tail = NULL;
	pthread_mutex_unlock(&q->lock);

	if (late) {
		/* answered now; the worker still owns it until run() returns */
		late->answered = true;
		q->timeouts++;
		late->done(late, -ETIMEDOUT);
	}
	/* expired is newest first; answer oldest first so replies keep their order */
	expired = srv_slist_reverse(expired, next);
	while (expired) {
		job = expired;
		expired = job->next;
		srv_busq_release(q, job, -ETIMEDOUT);
	}
	srv_busq_arm(q);
}

/* Point the timer at the earliest deadline not yet answered, or stop it. */
static void srv_busq_arm(struct srv_busq *q)
{
	uint64_t now, when = 0;
	bool any = false;

	if (q->closed)
		return;
	pthread_mutex_lock(&q->lock);
	if (q->running && !q->running->answered) {
		when = q->running->deadline_ms;
		any = true;
	} else if (q->head) {
		when = q->head->deadline_ms;
		any = true;
	}
	pthread_mutex_unlock(&q->lock);
	if (!any) {
		uv_timer_stop(&q->timer);
		return;
	}
	now = uv_now(&q->srv->loop);
	uv_timer_start(&q->timer, srv_busq_timer_cb, when > now ? when - now : 0, 0);
}

static void srv_busq_close_cb(uv_handle_t *handle)
{
	struct srv_busq *q = handle->data;

	if (--q->open_handles > 0 || q->abandoned)
		return;
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

static int srv_busq_create(struct srv *srv, const void *key, const char *name,
			   struct srv_busq **out)
{
	struct srv_busq *q;
	sigset_t all, old;
	int ret;

	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->srv = srv;
	q->key = key;
	q->board_gen = srv->board_gen;
	snprintf(q->name, sizeof(q->name), "%s", name);
	q->timeout_ms = srv->cfg.io_timeout_ms;
	srv_list_init(&q->node);
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	ret = uv_async_init(&srv->loop, &q->async, srv_busq_async_cb);
	if (ret < 0)
		goto err_free;
	q->open_handles++;
	uv_timer_init(&srv->loop, &q->timer);
	q->open_handles++;
	/* signals belong to the loop thread (uv_signal); workers never see them */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&q->thread, NULL, srv_busq_thread, q);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret < 0)
		goto err_close_handles;
	q->thread_ok = true;
	srv_list_add_tail(&srv->busqs, &q->node);
	*out = q;
	return 0;

err_close_handles:
	/* handles are live: the memory goes in their close callbacks */
	q->closed = true;
	q->async.data = q;
	q->timer.data = q;
	uv_close((uv_handle_t *)&q->async, srv_busq_close_cb);
	uv_close((uv_handle_t *)&q->timer, srv_busq_close_cb);
	return ret;
err_free:
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	free(q);
	return ret;
}

struct srv_busq *srv_busq_find(struct srv *srv, const void *key)
{
	struct srv_list *pos, *tmp;
	struct srv_busq *q;

	srv_list_for_each_safe(pos, tmp, &srv->busqs) {
		q = srv_container_of(pos, struct srv_busq, node);
		if (q->key == key && q->board_gen == srv->board_gen)
			return q;
	}
	return NULL;
}

int srv_busq_get(struct srv *srv, const void *key, const char *name, struct srv_busq **out)
{
	struct srv_busq *q;

	if (srv->stopping)
		return -ESHUTDOWN;
	q = srv_busq_find(srv, key);
	if (q) {
		*out = q;
		return 0;
	}
	return srv_busq_create(srv, key, name, out);
}

int srv_busq_submit(struct srv_busq *q, struct srv_job *job)
{
	if (q->closed)
		return -ESHUTDOWN;
	if (q->depth >= SRV_BUSQ_DEPTH_MAX) {
		q->busy++;
		return -EBUSY;
	}
	job->next = NULL;
	job->answered = false;
	job->deadline_ms = uv_now(&q->srv->loop) + q->timeout_ms;
	q->depth++;
	q->jobs++;
	pthread_mutex_lock(&q->lock);
	if (q->tail)
		q->tail->next = job;
	else
		q->head = job;
	q->tail = job;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
	if (!uv_is_active((uv_handle_t *)&q->timer))
		srv_busq_arm(q);
	return 0;
}

/* Wait for the worker, at most SRV_BUSQ_JOIN_TIMEOUT_MS. Return: 0 or -ETIMEDOUT. */
static int srv_busq_join(struct srv_busq *q)
{
	struct timespec ts;
	int ret;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += SRV_BUSQ_JOIN_TIMEOUT_MS / 1000;
	ts.tv_nsec += (long)(SRV_BUSQ_JOIN_TIMEOUT_MS % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	ret = pthread_timedjoin_np(q->thread, NULL, &ts);
	return ret ? -ETIMEDOUT : 0;
}

/* Stop one worker and close its handles. Return: 1 if it was left in a transfer, else 0. */
static int srv_busq_stop(struct srv_busq *q)
{
	struct srv *srv = q->srv;
	struct srv_job *queued, *job;
	int left = 0;

	pthread_mutex_lock(&q->lock);
	q->stop = true;
	queued = q->head;
	q->head = q->tail = NULL;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
	while (queued) {
		job = queued;
		queued = job->next;
		srv_busq_release(q, job, -ECANCELED);
	}
	if (q->thread_ok && srv_busq_join(q) < 0) {
		srv_warn(&srv->log, "bus %s: worker still in a transfer at exit; left behind",
			 q->name);
		pthread_detach(q->thread);
		q->abandoned = true;
		left = 1;
	}
	pthread_mutex_lock(&q->lock);
	q->closed = true;
	pthread_mutex_unlock(&q->lock);
	if (!q->abandoned)
		srv_busq_async_cb(&q->async);	/* the last results: answer and free */
	srv_list_del(&q->node);
	q->async.data = q;
	q->timer.data = q;
	uv_close((uv_handle_t *)&q->async, srv_busq_close_cb);
	uv_close((uv_handle_t *)&q->timer, srv_busq_close_cb);
	return left;
}

void srv_busq_reap(struct srv *srv)
{
	struct srv_list *pos, *tmp;
	struct srv_busq *q;

	srv_list_for_each_safe(pos, tmp, &srv->busqs) {
		q = srv_container_of(pos, struct srv_busq, node);
		if (q->board_gen != srv->board_gen && q->depth == 0) {
			srv_debug(&srv->log, "bus %s: worker of a replaced board stopped", q->name);
			srv_busq_stop(q);
		}
	}
}

void srv_busq_retire(struct srv *srv, const void *key)
{
	struct srv_busq *q = key ? srv_busq_find(srv, key) : NULL;

	if (q)
		q->board_gen = UINT64_MAX;	/* as a replaced board's: found no more, reaped idle */
}

bool srv_busq_stale(const struct srv *srv)
{
	const struct srv_list *pos;

	for (pos = srv->busqs.next; pos != &srv->busqs; pos = pos->next)
		if (srv_container_of(pos, struct srv_busq, node)->board_gen != srv->board_gen)
			return true;
	return false;
}

int srv_busq_close_all(struct srv *srv)
{
	struct srv_list *pos, *tmp;
	int left = 0;

	srv_list_for_each_safe(pos, tmp, &srv->busqs)
		left += srv_busq_stop(srv_container_of(pos, struct srv_busq, node));
	return left;
}
