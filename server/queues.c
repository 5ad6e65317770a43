/*
 * queues.c - the daemon-wide bound on stream and event queues (queues.h).
 *
 * The total is kept as queues change, so the common case (under the cap)
 * costs an addition. Over it, the biggest queue is found by a walk of the
 * list: that happens only while peers hold more than the cap, and then
 * one walk frees a block or more, not a byte.
 */
#include <malloc.h>

#include "queues.h"

void srv_queues_init(struct srv_queues *qs, size_t cap)
{
	srv_list_init(&qs->all);
	qs->held = 0;
	qs->cap = cap;
	qs->shed_bytes = 0;
	qs->sheds = 0;
	qs->peak = 0;
}

void srv_queue_init(struct srv_queue *q, const struct srv_queue_ops *ops)
{
	srv_list_init(&q->node);
	q->ops = ops;
	q->held = 0;
}

void srv_queue_join(struct srv_queues *qs, struct srv_queue *q)
{
	if (srv_list_empty(&q->node))
		srv_list_add_tail(&qs->all, &q->node);
}

void srv_queue_leave(struct srv_queues *qs, struct srv_queue *q)
{
	if (srv_list_empty(&q->node))
		return;
	qs->held -= q->held;
	q->held = 0;
	srv_list_del(&q->node);
}

static struct srv_queue *srv_queues_biggest(struct srv_queues *qs)
{
	struct srv_list *pos, *tmp;
	struct srv_queue *q, *big = NULL;

	srv_list_for_each_safe(pos, tmp, &qs->all) {
		q = srv_container_of(pos, struct srv_queue, node);
		if (q->held && (!big || q->held > big->held))
			big = q;
	}
	return big;
}

/* Over the cap: the biggest queue drops by its own rule until the total fits. */
static void srv_queues_enforce(struct srv_queues *qs)
{
	struct srv_queue *big;
	size_t dropped;

	while (qs->held > qs->cap) {
		big = srv_queues_biggest(qs);
		if (!big)
			return;
		dropped = big->ops->shed(big, qs->held - qs->cap);
		if (!dropped)
			return;
		if (dropped > big->held)
			dropped = big->held;
		big->held -= dropped;
		qs->held -= dropped;
		qs->shed_bytes += dropped;
		qs->sheds++;
	}
}

void srv_queue_set(struct srv_queues *qs, struct srv_queue *q, size_t held)
{
	if (srv_list_empty(&q->node)) {
		q->held = held;
		return;
	}
	qs->held = qs->held - q->held + held;
	q->held = held;
	if (qs->held > qs->cap)
		srv_queues_enforce(qs);
	if (qs->held > qs->peak)
		qs->peak = qs->held;
}

bool srv_queues_trim(struct srv_queues *qs)
{
	if (qs->peak - qs->held < SRV_QUEUES_TRIM_BYTES)
		return false;
	malloc_trim(0);
	qs->peak = qs->held;
	return true;
}
