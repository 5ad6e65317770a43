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

#include <stdbool.h>
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
	size_t peak;			/* the most @held since the last srv_queues_trim() */
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

/*
 * Queues that went away leave the allocator's free chunks spread over the
 * heap, which glibc does not give back by itself (RSS stayed 2-3x what it
 * was after streams ended): once the total fell this far from its peak,
 * srv_queues_trim() hands the free pages back.
 */
#define SRV_QUEUES_TRIM_BYTES		(8u * 1024 * 1024)

/**
 * srv_queues_trim() - at a quiet point (the sweep): malloc_trim() if the
 * queues shrank by SRV_QUEUES_TRIM_BYTES since their peak. Return: true if
 * it trimmed.
 */
bool srv_queues_trim(struct srv_queues *qs);

#endif /* IIOWIRE_SRV_QUEUES_H */
