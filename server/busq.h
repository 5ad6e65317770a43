/*
 * busq.h - device I/O off the event loop: one worker thread per bus.
 *
 * A request that needs a device whose bus can block (real I2C/SPI, or an
 * emulated chip armed to hang) becomes a job on that bus's queue. The bus's
 * worker runs one job at a time (a bus carries one transaction at a time
 * anyway), and the result comes back to the loop through a uv_async. Every
 * job has a deadline counted from submission: past it the request is
 * answered -ETIMEDOUT on the loop while a hung worker keeps the job until it
 * returns, and its late result is dropped. A hung chip so delays only the
 * requests queued on its own bus. Place in the flow: session -> protocol row ->
 * *busq* -> core -> driver -> bus. Workers touch nothing but their job.
 */
#ifndef IIOWIRE_SRV_BUSQ_H
#define IIOWIRE_SRV_BUSQ_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <uv.h>

#include "list.h"

struct srv;
struct srv_busq;
struct srv_job;

/* Jobs queued or running on one bus before submissions fail with -EBUSY. */
#define SRV_BUSQ_DEPTH_MAX		256
/* How long shutdown waits for a worker stuck in a transfer before leaving it. */
#define SRV_BUSQ_JOIN_TIMEOUT_MS	2000

/**
 * struct srv_job - one unit of device work; embed it in the submitter's
 * request struct and reach that with container_of.
 * @run: worker thread; may block; touches only the job's own memory and the
 *	device (under the core's device lock).
 * @done: loop thread, exactly once: status 0 (run finished, results valid),
 *	-ETIMEDOUT (deadline passed; run may still be going) or -ECANCELED
 *	(shutdown before it ran).
 * @fini: loop thread, exactly once, after @done and after @run returned (or
 *	will never run): release what the job holds and free its memory.
 * @data: the submitter's; busq never touches it.
 */
struct srv_job {
	void (*run)(struct srv_job *job);
	void (*done)(struct srv_job *job, int status);
	void (*fini)(struct srv_job *job);
	void *data;
	/* busq-private */
	struct srv_job *next;		/* queue or done list, under the bus lock */
	uint64_t deadline_ms;		/* loop time (uv_now) */
	bool answered;			/* @done has run; loop thread only */
};

/**
 * struct srv_busq - one bus's worker and queue. Made by srv_busq_get(),
 * ended by srv_busq_close_all(); freed in its handles' close callbacks.
 * Fields after @lock are shared with the worker and guarded by it.
 */
struct srv_busq {
	struct srv *srv;
	struct srv_list node;		/* srv->busqs */
	const void *key;		/* iio_device_bus_key(); compared, never dereferenced */
	uint64_t board_gen;		/* the board the key belongs to (keys may be reused) */
	char name[32];			/* "i2c-0", for STATS and logs */
	unsigned int timeout_ms;
	uv_async_t async;		/* worker -> loop: jobs finished */
	uv_timer_t timer;		/* the earliest unanswered deadline */
	int open_handles;		/* closing: free when it reaches 0 */
	bool thread_ok;
	bool abandoned;			/* a worker never returned: leave the memory */
	pthread_t thread;
	/* loop-only statistics */
	unsigned int depth;		/* submitted and not yet through fini */
	uint64_t jobs;
	uint64_t timeouts;
	uint64_t busy;			/* refused: queue full */

	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct srv_job *head, *tail;	/* waiting */
	struct srv_job *running;	/* in the worker's hands */
	struct srv_job *finished;	/* run returned, not yet seen by the loop */
	bool stop;
	bool closed;			/* async is closing: no more uv_async_send */
};

/**
 * srv_busq_get() - the worker of the bus @key of the current board, started
 * on first use.
 * @name: what to call the bus in STATS and logs ("i2c-0"); copied.
 * Return: 0 with *out borrowed (valid until the worker is reaped after a
 * reload, or srv_busq_close_all()), or -ENOMEM / -EAGAIN (no thread) /
 * -ESHUTDOWN (the server is stopping).
 */
int srv_busq_get(struct srv *srv, const void *key, const char *name, struct srv_busq **out);

/** srv_busq_find() - the worker of @key on the current board if it exists; borrowed or NULL. */
struct srv_busq *srv_busq_find(struct srv *srv, const void *key);

/**
 * srv_busq_reap() - stop the idle workers of boards replaced by a reload
 * (their threads wait on nothing, so the join is immediate).
 */
void srv_busq_reap(struct srv *srv);

/**
 * srv_busq_submit() - queue @job; its deadline is now + the bus timeout.
 * Return: 0, and @job->done then runs exactly once; or -EBUSY (queue full)
 * / -ESHUTDOWN, and neither @done nor @fini ever runs (the job is still the
 * caller's).
 */
int srv_busq_submit(struct srv_busq *q, struct srv_job *job);

/**
 * srv_busq_stale() - is a worker of a replaced board still there (one that
 * srv_busq_reap() could not stop because a job of it is queued or in a transfer)?
 * Return: true while the old board must not be destroyed.
 */
bool srv_busq_stale(const struct srv *srv);
/**
 * srv_busq_retire() - the device of queue @key left the board alone
 * (hotplug): its queue is found no more and stops once idle, as a replaced
 * board's do.
 */
void srv_busq_retire(struct srv *srv, const void *key);

/**
 * srv_busq_close_all() - stop every worker: queued jobs are cancelled
 * (-ECANCELED), running ones are waited for up to SRV_BUSQ_JOIN_TIMEOUT_MS
 * each, then the handles are closed. Blocks the loop for that wait, which is
 * why only shutdown calls it, once nothing else is left to serve.
 * Return: the number of workers left behind in a transfer (their memory is
 * leaked on purpose so the stuck thread stays safe).
 */
int srv_busq_close_all(struct srv *srv);

#endif /* IIOWIRE_SRV_BUSQ_H */
