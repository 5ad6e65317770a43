/*
 * request.c - libiiowire's request/reply exchange: one JSON request out,
 * its reply back, events set aside, reconnect and retry.
 *
 * Place in the flow: API files (device.c, consumer.c, watch.c) -> *request.c*
 * -> conn.c -> wire. Requests are encoded and replies decoded by protocol/
 * (proto_request_encode(), proto_reply_decode()): this file writes no wire
 * text itself. Each request carries a fresh numeric id, so a late reply to
 * a request that timed out is recognised and dropped, and a pushed event in
 * between goes to the event queue. A broken connection is reconnected once
 * per call (with AUTH and the watches sent again) and an idempotent request
 * is sent again. This file must not interpret reply contents beyond ok/error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iiowire_priv.h"
#include "iiowire_req.h"

/* Hand a line that is not the awaited reply to its owner: events are queued, the rest dropped. */
void iiowire_req_unsolicited(struct iiowire *w, struct proto_reply *r)
{
	if (r->kind == PROTO_REPLY_EVENT)
		iiowire_evq_push(w, r->event.device, r->event.attr, r->event.value, r->event.err,
				 r->event.timestamp_ns);
	else if (r->kind == PROTO_REPLY_IEVENT)
		iiowire_evstream_push(w, &r->ievent);
}

/**
 * iiowire_req_wait() - read pushed lines into their queues until @ready
 * says so or @deadline passes, reconnecting once if the socket breaks.
 * Return: 1 when ready, 0 on timeout, or -errno.
 */
int iiowire_req_wait(struct iiowire *w, int64_t deadline,
		     bool (*ready)(struct iiowire *w, void *ctx), void *ctx)
{
	struct proto_reply r;
	bool reconnected = false;
	char *line;
	size_t len;
	int ret;

	while (!ready(w, ctx)) {
		if (w->fd < 0) {
			if (reconnected)
				return -ENOTCONN;
			reconnected = true;
			ret = iiowire_req_reconnect(w);
			w->reconnects++;
			if (ret < 0)
				return iiowire_err_local(w, ret, "reconnect");
			continue;
		}
		ret = iiowire_conn_read_line(w, deadline, &line, &len);
		if (ret == -ETIMEDOUT)
			return 0;
		if (ret < 0) {
			iiowire_conn_shut(w);
			if (!iiowire_conn_is_broken_err(ret) || reconnected)
				return iiowire_err_local(w, ret, "waiting for events");
			continue;
		}
		/* events to their queues; anything else is a late reply to a request that timed out */
		if (proto_reply_decode(&r, PROTO_OP_NONE, line, len, NULL, 0) >= 0)
			iiowire_req_unsolicited(w, &r);
		proto_reply_fini(&r);
	}
	return 1;
}

/**
 * iiowire_req_drain() - read what the socket already holds and sort every
 * whole line in it (events to the queue, stale replies away), without
 * waiting.
 * Return: 0, or the -errno of a dead socket (-ECONNRESET after EOF).
 */
int iiowire_req_drain(struct iiowire *w)
{
	struct proto_reply r;
	char *line;
	size_t len;
	int pumped, ret;

	if (w->fd < 0)
		return -ENOTCONN;
	pumped = iiowire_conn_pump(w);
	while (iiowire_conn_has_line(w)) {
		ret = iiowire_conn_read_line(w, 0, &line, &len);
		if (ret < 0)
			return ret;
		if (proto_reply_decode(&r, PROTO_OP_NONE, line, len, NULL, 0) >= 0)
			iiowire_req_unsolicited(w, &r);
		proto_reply_fini(&r);
	}
	return pumped;
}

/* Encode @req with id @id and send it. Return: 0, -E2BIG, -ENOMEM, or the socket's -errno. */
static int iiowire_req_send(struct iiowire *w, struct proto_request *req, uint64_t id,
			    int64_t deadline)
{
	struct proto_buf b;
	int ret;

	req->flags = PROTO_REQ_JSON;
	snprintf(req->id, sizeof(req->id), "%" PRIu64, id);
	proto_buf_init(&b);
	ret = proto_request_encode(&b, req);
	if (ret < 0) {
		iiowire_err_set(w, "cannot encode %s request", proto_op_name(req->op));
		goto out_fini_buf;
	}
	/* the daemon answers E2BIG and hangs up on longer lines: refuse here instead */
	if (b.len > PROTO_LINE_MAX_BYTES + 1) {
		iiowire_err_set(w, "request longer than %d bytes", PROTO_LINE_MAX_BYTES);
		ret = -E2BIG;
		goto out_fini_buf;
	}
	ret = iiowire_conn_send(w, b.data, b.len, deadline);
out_fini_buf:
	proto_buf_fini(&b);
	return ret;
}

/*
 * Wait for the reply whose id is @id. Text listings never arrive (we speak
 * JSON), so one line is one reply. Return: 0 with @r holding the reply (ok or
 * error), or -errno of the socket / -EPROTO for a line that is no reply.
 */
static int iiowire_req_await(struct iiowire *w, enum proto_op op, uint64_t id, int64_t deadline,
			     struct proto_reply *r)
{
	char want[32], msg[PROTO_MSG_MAX_BYTES];
	char *line;
	size_t len;
	int ret;

	snprintf(want, sizeof(want), "%" PRIu64, id);
	for (;;) {
		ret = iiowire_conn_read_line(w, deadline, &line, &len);
		if (ret < 0)
			return ret;
		msg[0] = '\0';
		ret = proto_reply_decode(r, op, line, len, msg, sizeof(msg));
		if (ret < 0) {
			proto_reply_fini(r);
			/* we speak JSON: a JSON line that does not parse is a broken peer */
			if (line[0] == '{')
				return iiowire_err_local(w, ret == -ENOMEM ? ret : -EPROTO, msg);
			if (iiowire_conn_expired(deadline))
				return -ETIMEDOUT;
			continue;
		}
		/*
		 * A text ERR is the daemon refusing the connection itself (too many
		 * clients, a limit) before any request could be tied to it.
		 */
		if (!r->json && r->kind == PROTO_REPLY_ERR)
			return 0;
		if (r->kind == PROTO_REPLY_EVENT || !r->id || strcmp(r->id, want) != 0) {
			iiowire_req_unsolicited(w, r);
			proto_reply_fini(r);
			/* lines that are not ours do not extend the wait */
			if (iiowire_conn_expired(deadline))
				return -ETIMEDOUT;
			continue;
		}
		if (ret > 0) {
			proto_reply_fini(r);
			return iiowire_err_local(w, -EPROTO, "text listing in reply to JSON");
		}
		return 0;
	}
}

/*
 * One exchange on the current socket, no reconnect. @sent tells the caller
 * whether the request may have reached the daemon. Return: 0 with @r
 * filled (ok or error reply), or -errno.
 */
static int iiowire_req_once(struct iiowire *w, struct proto_request *req, struct proto_reply *r,
			    bool *sent)
{
	int64_t deadline = w->call_deadline;
	uint64_t id = ++w->next_id;
	int ret;

	*sent = false;
	ret = iiowire_req_drain(w);
	if (ret < 0)
		return ret;
	ret = iiowire_req_send(w, req, id, deadline);
	if (ret < 0)
		return ret;
	*sent = true;
	return iiowire_req_await(w, req->op, id, deadline, r);
}

/**
 * iiowire_req_reconnect() - connect again, then send the token and the
 * watches again. Nested exchanges run with w->in_reconnect set, so they
 * never reconnect themselves.
 * Return: 0, or -errno (the socket is then closed).
 */
int iiowire_req_reconnect(struct iiowire *w)
{
	struct proto_request req = { .op = PROTO_OP_AUTH };
	struct proto_reply r;
	int ret;

	ret = iiowire_conn_open(w);
	if (ret < 0)
		return ret;
	w->in_reconnect = true;
	if (w->token) {
		req.token = w->token;
		ret = iiowire_req_run(w, &req, false, &r);
		proto_reply_fini(&r);
		if (ret < 0)
			goto err_shut;
	}
	ret = iiowire_watch_replay(w);
	if (ret < 0)
		goto err_shut;
	w->in_reconnect = false;
	return 0;

err_shut:
	w->in_reconnect = false;
	iiowire_conn_shut(w);
	return ret;
}

/* Reconnect on behalf of a call; counts it. */
static int iiowire_req_reconnect_counted(struct iiowire *w)
{
	int ret = iiowire_req_reconnect(w);

	w->reconnects++;
	return ret;
}

/* iiowire_req_run() without the deadline bookkeeping. */
static int iiowire_req_run_call(struct iiowire *w, struct proto_request *req, bool idempotent,
				struct proto_reply *r)
{
	bool may_reconnect = !w->in_reconnect, sent;
	int ret;

	memset(r, 0, sizeof(*r));
	iiowire_err_clear(w);
	if (w->fd < 0) {
		if (!may_reconnect)
			return iiowire_err_local(w, -ENOTCONN, "not connected");
		ret = iiowire_req_reconnect_counted(w);
		if (ret < 0)
			return iiowire_err_local(w, ret, "reconnect");
		may_reconnect = false;
	}
	for (;;) {
		ret = iiowire_req_once(w, req, r, &sent);
		if (ret == 0)
			break;
		if (!iiowire_conn_is_broken_err(ret) && ret != -EMSGSIZE && ret != -EPROTO)
			return iiowire_err_local(w, ret, proto_op_name(req->op));
		/* the stream is unusable: lost, or out of step with us */
		iiowire_conn_shut(w);
		if (!may_reconnect || (sent && !idempotent))
			return iiowire_err_local(w, ret == -EMSGSIZE || ret == -EPROTO ?
						 ret : -ECONNRESET, proto_op_name(req->op));
		may_reconnect = false;
		ret = iiowire_req_reconnect_counted(w);
		if (ret < 0)
			return iiowire_err_local(w, ret, "reconnect");
		iiowire_err_clear(w);
	}
	if (r->kind == PROTO_REPLY_ERR) {
		iiowire_err_set(w, "%s", r->message && *r->message ? r->message :
				iiowire_strerror(r->err));
		return r->err < 0 ? r->err : -EPROTO;
	}
	return 0;
}

/**
 * iiowire_req_run() - send @req and wait for its reply.
 * @req: op and arguments; flags and id are set here.
 * @idempotent: the request may be sent twice (reads, listings); a
 *	non-idempotent one is sent again only if it never left.
 * @r: the reply, to be released with proto_reply_fini() by the caller
 *	whatever this returns (it is always initialised).
 *
 * On an error reply, @w's message is the server's and the return value is
 * its -errno; on success the message is cleared.
 * The whole call, a reconnect and the retry included, ends by one deadline,
 * the connection's timeout from now (an outer call's, for the nested AUTH
 * and WATCH replays of a reconnect).
 * Return: 0, the reply's -errno, or a local -errno (-ETIMEDOUT, -ECONNRESET,
 * -ECONNREFUSED, -EPROTO, -E2BIG, -ENOMEM).
 */
int iiowire_req_run(struct iiowire *w, struct proto_request *req, bool idempotent,
		    struct proto_reply *r)
{
	bool outer = w->call_deadline == 0;
	int ret;

	if (outer)
		w->call_deadline = iiowire_conn_deadline(w->timeout_ms);
	ret = iiowire_req_run_call(w, req, idempotent, r);
	if (outer)
		w->call_deadline = 0;
	return ret;
}
