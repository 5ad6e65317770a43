/*
 * queues.h - one daemon-wide bound on what stream and event queues hold.
 *
 * Each reader (native STREAM, iiod OPEN) and each subscription keeps its
 * own bounded queue (SRV_STREAM_QUEUE_BYTES, the iiod FIFO, SRV_EVENT_QUEUE_MAX),
 * but many peers times many queues is still a lot of memory from one
 * port. Every such queue is a struct srv_queue on one list with the bytes
 * it holds; when a queue grows the total past --max-queued-bytes, the
 * biggest queue sheds by its own rule (a native reader its oldest blocks,
 * an iiod reader its newest samples as the kernel's kfifo does, a
 * subscription its oldest events), counted in STATS. Loop thread only.
 */
#ifndef IIOWIRE_SRV_QUEUES_H
#define IIOWIRE_SRV_QUEUES_H

#include <stddef.h>
#include <stdint.h>

#include "list.h"

/* --max-queued-bytes' default: all stream and event queues together */
#define SRV_QUEUED_BYTES_DEFAULT	(128u * 1024 * 1024)

struct srv_queue;

/**
 * struct srv_queue_ops - how one kind of queue sheds.
 * @shed: drop at least @want bytes by the queue's own rule (or all it can
 *	drop); count what was lost in the queue's own reporting. Must not
 *	call back into this module. Return: the bytes dropped (0: nothing
 *	left to drop).
 */
struct srv_queue_ops {
	size_t (*shed)(struct srv_queue *q, size_t want);
};

/** struct srv_queue - one queue's share; embedded in its owner. */
struct srv_queue {
	struct srv_list node;		/* srv_queues.all; self-linked when not joined */
	const struct srv_queue_ops *ops;
	size_t held;
};

/**
 * struct srv_queues - the daemon's queues (srv->queues).
 * @held: the sum of every queue's @held. @cap: --max-queued-bytes.
 * @shed_bytes/@sheds: what the bound made queues drop, and how often.
 */
struct srv_queues {
	struct srv_list all;
	size_t held;
	size_t cap;
	uint64_t shed_bytes;
	uint64_t sheds;
};

/** srv_queues_init() - no queue yet, at most @cap bytes in all. */
void srv_queues_init(struct srv_queues *qs, size_t cap);

/** srv_queue_init() - @q of a queue that sheds through @ops, not joined yet. */
void srv_queue_init(struct srv_queue *q, const struct srv_queue_ops *ops);

/** srv_queue_join() - count @q (holding nothing yet) in @qs. */
void srv_queue_join(struct srv_queues *qs, struct srv_queue *q);

/** srv_queue_leave() - @q is going: its bytes no longer count. Harmless if not joined. */
void srv_queue_leave(struct srv_queues *qs, struct srv_queue *q);

/**
 * srv_queue_set() - @q now holds @held bytes. Growing past the cap makes
 * the biggest queues shed (@q itself perhaps) until the total fits; a
 * queue that is not joined is not counted.
 */
void srv_queue_set(struct srv_queues *qs, struct srv_queue *q, size_t held);

#endif /* IIOWIRE_SRV_QUEUES_H */
