/*
 * stats.c - the native protocol's STATS: the daemon's counters and gauges,
 * then each bus queue's, every field from a table (the order is the wire
 * order, PROTOCOL.md).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "board.h"
#include "busq.h"
#include "dispatch.h"
#include "iio_registry.h"
#include "session.h"
#include "srv.h"

static int64_t srv_stat_uptime(const struct srv *srv)
{
	return (int64_t)(uv_now(&srv->loop) - srv->start_ms);
}

static int64_t srv_stat_clients(const struct srv *srv)
{
	return srv->nsessions;
}

static int64_t srv_stat_max_clients(const struct srv *srv)
{
	return srv->cfg.max_clients;
}

/* WATCHes of every native session (other protocols have none). */
static int64_t srv_stat_watches(const struct srv *srv)
{
	const struct srv_session *o;
	const struct srv_list *pos;
	int64_t n = 0;

	for (pos = srv->sessions.next; pos != &srv->sessions; pos = pos->next) {
		o = srv_container_of(pos, struct srv_session, node);
		if (srv_proto_is_native(o->proto))
			n += o->native.nwatches;
	}
	return n;
}

static int64_t srv_stat_devices(const struct srv *srv)
{
	return iio_registry_count(srv->board->reg);
}

/* What every stream and event queue holds together, and the bound's doing (queues.h). */
static int64_t srv_stat_queued_bytes(const struct srv *srv)
{
	return (int64_t)srv->queues.held;
}

static int64_t srv_stat_max_queued_bytes(const struct srv *srv)
{
	return (int64_t)srv->queues.cap;
}

static int64_t srv_stat_queue_shed_bytes(const struct srv *srv)
{
	return (int64_t)srv->queues.shed_bytes;
}

/*
 * struct srv_stat_row - one fixed STATS field, in the order they are sent:
 * a counter of struct srv_stats at @off, or what @get says.
 */
struct srv_stat_row {
	const char *name;
	int64_t (*get)(const struct srv *srv);
	size_t off;
};

#define SRV_STAT_COUNTER(nm, field)	{ (nm), NULL, offsetof(struct srv_stats, field) }

static const struct srv_stat_row srv_stat_rows[] = {
	{ "uptime_ms", srv_stat_uptime, 0 },
	{ "clients", srv_stat_clients, 0 },
	{ "max_clients", srv_stat_max_clients, 0 },
	SRV_STAT_COUNTER("connections", connections),
	SRV_STAT_COUNTER("rejected", rejected),
	SRV_STAT_COUNTER("requests", requests),
	SRV_STAT_COUNTER("errors", errors),
	SRV_STAT_COUNTER("bytes_in", bytes_in),
	SRV_STAT_COUNTER("bytes_out", bytes_out),
	{ "watches", srv_stat_watches, 0 },
	SRV_STAT_COUNTER("events", events),
	{ "devices", srv_stat_devices, 0 },
	SRV_STAT_COUNTER("reloads", reloads),
	SRV_STAT_COUNTER("reload_failures", reload_failures),
	{ "queued_bytes", srv_stat_queued_bytes, 0 },
	{ "max_queued_bytes", srv_stat_max_queued_bytes, 0 },
	{ "queue_shed_bytes", srv_stat_queue_shed_bytes, 0 },
};

#define SRV_STATS_FIXED		(sizeof(srv_stat_rows) / sizeof(srv_stat_rows[0]))

/*
 * Per-bus STATS fields: "bus.<name>.queue" and friends, a row each.
 * @get: the value of bus @q.
 */
struct srv_stat_bus_row {
	const char *suffix;
	uint64_t (*get)(const struct srv_busq *q);
};

static uint64_t srv_stat_bus_queue(const struct srv_busq *q)
{
	return q->depth;
}

static uint64_t srv_stat_bus_jobs(const struct srv_busq *q)
{
	return q->jobs;
}

static uint64_t srv_stat_bus_timeouts(const struct srv_busq *q)
{
	return q->timeouts;
}

static uint64_t srv_stat_bus_busy(const struct srv_busq *q)
{
	return q->busy;
}

static const struct srv_stat_bus_row srv_stat_bus_rows[] = {
	{ "queue", srv_stat_bus_queue },
	{ "jobs", srv_stat_bus_jobs },
	{ "timeouts", srv_stat_bus_timeouts },
	{ "busy", srv_stat_bus_busy },
};

#define SRV_STATS_PER_BUS	(sizeof(srv_stat_bus_rows) / sizeof(srv_stat_bus_rows[0]))
#define SRV_STATS_NAME_MAX	64

/* Fill @st (and the names it points to, in @names) from the tables. Return: fields filled. */
static size_t srv_stats_fill(const struct srv *srv, struct proto_stat *st,
			     char (*names)[SRV_STATS_NAME_MAX])
{
	const struct srv_stat_row *r;
	const struct srv_list *pos;
	const struct srv_busq *q;
	size_t i, n = 0;

	for (i = 0; i < SRV_STATS_FIXED; i++, n++) {
		r = &srv_stat_rows[i];
		st[n].name = r->name;
		st[n].value = r->get ? r->get(srv) :
			(int64_t)*(const uint64_t *)((const char *)&srv->stats + r->off);
	}
	for (pos = srv->busqs.next; pos != &srv->busqs; pos = pos->next) {
		q = srv_container_of(pos, struct srv_busq, node);
		for (i = 0; i < SRV_STATS_PER_BUS; i++, n++, names++) {
			snprintf(*names, SRV_STATS_NAME_MAX, "bus.%s.%s", q->name,
				 srv_stat_bus_rows[i].suffix);
			st[n].name = *names;
			st[n].value = (int64_t)srv_stat_bus_rows[i].get(q);
		}
	}
	return n;
}

void srv_dispatch_stats(struct srv_session *s, struct proto_request *req)
{
	struct srv *srv = s->srv;
	struct srv_list *pos, *tmp;
	struct proto_stat *st;
	char (*names)[SRV_STATS_NAME_MAX];
	size_t nbus = 0, n;

	srv_list_for_each_safe(pos, tmp, &srv->busqs)
		nbus++;
	st = calloc(SRV_STATS_FIXED + nbus * SRV_STATS_PER_BUS, sizeof(*st));
	names = calloc(nbus * SRV_STATS_PER_BUS + 1, sizeof(*names));
	if (!st || !names) {
		free(st);
		free(names);
		srv_dispatch_error(s, req, -ENOMEM, NULL);
		return;
	}
	n = srv_stats_fill(srv, st, names);
	srv_session_check(s, proto_reply_stats(srv_session_out(s), req, st, (int)n));
	free(names);
	free(st);
}

