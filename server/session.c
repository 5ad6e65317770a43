/*
 * session.c - one client connection of any protocol: reading, ordered
 * replies, bounded output, half-close, timeouts, accept and close (see
 * session.h and server/README.md).
 *
 * Reading uses the server's one shared buffer (a read callback always
 * follows its alloc callback on the same stream), so an idle connection
 * costs its handle and a few fields, no buffer; the splitter keeps only an
 * unfinished line. Writing tries uv_try_write first and hands any rest to
 * one uv_write, so there is at most one write request per session and the
 * queued byte count is out.len plus libuv's write_queue_size. The shape of
 * the limits follows Redis's networking.c (one client struct whose
 * protocol is a field; a pause, a soft limit held for a while, a hard one,
 * a burst per wakeup); the code is our own. It must not decode requests
 * (the protocol rows do) and never frees a session outside
 * srv_session_close_cb().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "listener.h"
#include "session.h"
#include "srv.h"
#include "stream.h"

static void srv_session_read_cb(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf);

static struct srv_session *srv_session_of(uv_handle_t *handle)
{
	return srv_container_of(handle, struct srv_session, h.handle);
}

/* The one place the state moves; it only ever moves forward. */
static void srv_session_set_state(struct srv_session *s, enum srv_conn_state state)
{
	assert(state > s->state);
	s->state = state;
}

size_t srv_session_queued(const struct srv_session *s)
{
	if (s->tx)
		return s->out.len + s->tx->queued(s);
	return s->out.len + ((s->flags & SRV_CONN_WRITING) ? s->h.stream.write_queue_size : 0);
}

/*
 * Output buffers move between sessions: one that has sent all it had gives
 * its (small) buffer to the server, the next that writes takes it. So a
 * connection that is only held costs no buffer, and answering a request
 * costs no allocation. Whoever holds a buffer owns it.
 */
static void srv_session_out_borrow(struct srv_session *s)
{
	struct proto_buf *spare = &s->srv->out_spare;

	if (s->out.data || !spare->data)
		return;
	s->out = *spare;
	proto_buf_init(spare);
}

static void srv_session_out_lend(struct srv_session *s)
{
	struct proto_buf *spare = &s->srv->out_spare;

	if (s->out.len || !s->out.data || spare->data || s->out.cap > SRV_OUT_KEEP_BYTES)
		return;
	*spare = s->out;
	proto_buf_init(&s->out);
}

/* Output held in reply slots (ready text behind a slot still waiting). */
static size_t srv_session_slot_bytes(const struct srv_session *s)
{
	const struct srv_slot *slot;
	size_t n = 0;

	for (slot = s->slots_head; slot; slot = slot->next)
		n += slot->text.len;
	return n;
}

/* True while a limit says: take no further request for now. */
static bool srv_session_must_wait(const struct srv_session *s)
{
	if (s->inflight >= s->proto->inflight_max)
		return true;
	if (s->proto->waiting && s->proto->waiting(s))
		return true;
	if (srv_session_queued(s) >= SRV_OUT_PAUSE_BYTES)
		return true;
	return s->slots_head && srv_session_slot_bytes(s) >= SRV_OUT_PAUSE_BYTES;
}

bool srv_session_take(struct srv_session *s)
{
	if (s->state != SRV_CONN_OPEN || (s->flags & SRV_CONN_BROKEN))
		return false;
	if (srv_session_must_wait(s))
		return false;
	return s->out.len - s->feed_out0 < SRV_WRITE_BURST_BYTES;
}

int srv_session_line(struct srv_session *s, const char **data, size_t *left, const char **line,
		     size_t *len)
{
	char msg[64];
	size_t used;
	int ret;

	ret = proto_splitter_next(&s->sp, *data, *left, &used, line, len);
	*data += used;
	*left -= used;
	if (ret > 0) {
		s->last_request_ms = uv_now(&s->srv->loop);
		return ret;
	}
	if (ret == 0)
		return 0;
	if (ret == -E2BIG) {
		srv_session_log(SRV_LOG_INFO, s, "request line too long, closing");
		snprintf(msg, sizeof(msg), "request line longer than %zu bytes",
			 s->proto->line_max);
		s->proto->error(s, ret, msg);
	} else {
		s->proto->error(s, ret, NULL);
	}
	srv_session_finish(s);
	return ret;
}

static void srv_session_alloc_cb(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
	struct srv_session *s = srv_session_of(handle);

	(void)suggested;
	/* shared: libuv calls read_cb for this buffer before any other alloc_cb */
	*buf = uv_buf_init(s->srv->rdbuf, SRV_READ_CHUNK_BYTES);
}

static void srv_session_read_start(struct srv_session *s)
{
	int ret;

	if (s->state != SRV_CONN_OPEN || (s->flags & (SRV_CONN_READING | SRV_CONN_EOF)))
		return;
	if (s->tx) {
		s->tx->rx(s, true);
		s->flags |= SRV_CONN_READING;
		return;
	}
	ret = uv_read_start(&s->h.stream, srv_session_alloc_cb, srv_session_read_cb);
	if (ret < 0) {
		srv_session_log(SRV_LOG_DEBUG, s, "read: %s", uv_strerror(ret));
		srv_session_close(s);
		return;
	}
	s->flags |= SRV_CONN_READING;
}

static void srv_session_read_stop(struct srv_session *s)
{
	if (!(s->flags & SRV_CONN_READING))
		return;
	if (s->tx)
		s->tx->rx(s, false);
	else
		uv_read_stop(&s->h.stream);
	s->flags &= ~SRV_CONN_READING;
}

/* The loop's next turn: sessions that used up their burst go on, oldest first. */
static void srv_session_yield_cb(uv_idle_t *idle)
{
	struct srv *srv = srv_container_of(idle, struct srv, yield);
	struct srv_list *pos, *tmp;
	struct srv_session *s;
	size_t n = 0;

	srv_list_for_each_safe(pos, tmp, &srv->yielded)
		n++;
	/* only those queued before this turn: a session that yields again waits a turn */
	while (n-- && !srv_list_empty(&srv->yielded)) {
		s = srv_container_of(srv->yielded.next, struct srv_session, yield_node);
		srv_list_del(&s->yield_node);
		srv_session_resume(s);
	}
	if (srv_list_empty(&srv->yielded))
		uv_idle_stop(idle);
}

static void srv_session_yield(struct srv_session *s)
{
	struct srv *srv = s->srv;

	if (srv_list_empty(&s->yield_node))
		srv_list_add_tail(&srv->yielded, &s->yield_node);
	if (!uv_is_active((uv_handle_t *)&srv->yield))
		uv_idle_start(&srv->yield, srv_session_yield_cb);
}

/*
 * Hand @data to the protocol row, which takes requests as far as limits
 * allow: the session's queued output (pause), its requests on a bus, and
 * the output this one call may produce (the write burst; the rest waits for
 * the loop's next turn, so one pipelining client cannot hold the loop).
 * Reading stops when something is left over.
 * Return: the number of bytes of @data consumed.
 */
static size_t srv_session_feed(struct srv_session *s, const char *data, size_t len)
{
	size_t used;
	bool partial;

	s->flags |= SRV_CONN_IN_FEED;
	s->feed_out0 = s->out.len;
	used = s->proto->feed(s, data, len);
	partial = proto_splitter_pending(&s->sp) || (s->proto->partial && s->proto->partial(s));
	if (!partial)
		s->partial_since_ms = 0;
	else if (!s->partial_since_ms)
		s->partial_since_ms = uv_now(&s->srv->loop);
	s->flags &= ~SRV_CONN_IN_FEED;
	if (s->state != SRV_CONN_OPEN)
		return len;	/* what follows a last request is dropped */
	if (used < len) {
		srv_session_read_stop(s);
		if (srv_session_must_wait(s))
			s->flags |= SRV_CONN_PAUSED;
		else
			srv_session_yield(s);
	}
	return used;
}

/* After EOF, once all input before it is answered: the row's last word. */
static void srv_session_eof_tail(struct srv_session *s)
{
	if (!(s->flags & SRV_CONN_EOF) || (s->flags & SRV_CONN_EOF_DONE) || s->deferred)
		return;
	if (s->state != SRV_CONN_OPEN)
		return;
	if (srv_session_must_wait(s)) {
		s->flags |= SRV_CONN_PAUSED;	/* resumed when the limit clears */
		return;
	}
	s->flags |= SRV_CONN_EOF_DONE;
	s->proto->on_eof(s);
	s->partial_since_ms = 0;
}

/* Keep what is not taken yet behind what already waits (a transport may deliver more). */
static void srv_session_defer(struct srv_session *s, const char *data, size_t len)
{
	char *d;

	d = realloc(s->deferred, s->deferred_len + len);
	if (!d) {
		srv_session_broken(s);
		return;
	}
	memcpy(d + s->deferred_len, data, len);
	s->deferred = d;
	s->deferred_len += len;
}

void srv_session_input(struct srv_session *s, const char *data, size_t len)
{
	size_t used = 0;

	if (s->state != SRV_CONN_OPEN)
		return;	/* what follows a last request is dropped */
	if (!s->deferred)
		used = srv_session_feed(s, data, len);
	/* the caller's buffer (the shared one, or the transport's) is reused: keep the rest */
	if (used < len && s->state == SRV_CONN_OPEN)
		srv_session_defer(s, data + used, len - used);
	srv_session_flush(s);
}

static void srv_session_read_cb(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
	struct srv_session *s = srv_session_of((uv_handle_t *)stream);

	if (nread > 0) {
		s->srv->stats.bytes_in += (uint64_t)nread;
		srv_session_input(s, buf->base, (size_t)nread);
	} else if (nread == UV_EOF) {
		/* libuv stopped reading at EOF: no busy loop on a half-close */
		s->flags |= SRV_CONN_EOF;
		s->flags &= ~SRV_CONN_READING;
		srv_session_eof_tail(s);
		srv_session_flush(s);
	} else if (nread < 0) {
		srv_session_log(SRV_LOG_DEBUG, s, "%s", uv_strerror((int)nread));
		srv_session_close(s);
	}
}

/* Close once a finishing or half-closed session has nothing left to send. */
static void srv_session_check_done(struct srv_session *s)
{
	if (s->state == SRV_CONN_CLOSING)
		return;
	if (!(s->flags & SRV_CONN_EOF) && s->state != SRV_CONN_FINISHING)
		return;
	if (s->slots_head || (s->flags & SRV_CONN_WRITING) || s->out.len)
		return;
	if (s->state == SRV_CONN_OPEN && (s->deferred || !(s->flags & SRV_CONN_EOF_DONE)))
		return;
	srv_session_close(s);
}

static void srv_session_write_cb(uv_write_t *req, int status)
{
	struct srv_write *wr = srv_container_of(req, struct srv_write, req);
	struct srv_session *s = wr->s;

	/* STATS' bytes_out: what the kernel took, not what waits for it */
	if (status == 0)
		s->srv->stats.bytes_out += wr->len;
	free(wr->data);
	free(wr);
	s->wr = NULL;
	s->flags &= ~SRV_CONN_WRITING;
	if (s->state == SRV_CONN_CLOSING)
		return;		/* -ECANCELED from uv_close: the close callback follows */
	if (status < 0) {
		srv_session_log(SRV_LOG_DEBUG, s, "write: %s", uv_strerror(status));
		srv_session_close(s);
		return;
	}
	srv_session_sent(s);
}

void srv_session_sent(struct srv_session *s)
{
	srv_session_flush(s);
	if (s->state != SRV_CONN_CLOSING && (s->flags & SRV_CONN_PAUSED) &&
	    srv_session_queued(s) < SRV_OUT_RESUME_BYTES)
		srv_session_resume(s);
	/* room again: streams and subscriptions move the blocks and events they held */
	if (s->state != SRV_CONN_CLOSING)
		srv_streams_writable(s);
	if (s->state != SRV_CONN_CLOSING)
		srv_events_writable(s);
}

/*
 * Put what @s->out holds on the wire: a uv_try_write first, and what the
 * kernel does not take in the session's one write request, made for it,
 * whose callback frees it and the buffer that moved into it.
 * Return: 0, or a negative libuv error (the caller closes).
 */
static int srv_session_send(struct srv_session *s)
{
	struct proto_buf *out = &s->out;
	struct srv_write *wr;
	uv_buf_t b;
	size_t len;
	int n, ret;

	b = uv_buf_init(out->data, (unsigned int)out->len);
	n = uv_try_write(&s->h.stream, &b, 1);
	if (n == UV_EAGAIN)
		n = 0;
	if (n < 0)
		return n;
	s->srv->stats.bytes_out += (uint64_t)n;
	if ((size_t)n == out->len) {
		out->len = 0;
		if (out->cap > SRV_OUT_KEEP_BYTES)
			proto_buf_fini(out);
		return 0;
	}
	/* the kernel is full: the rest goes in the one write request */
	wr = malloc(sizeof(*wr));
	if (!wr)
		return UV_ENOMEM;
	wr->s = s;
	wr->data = proto_buf_steal(out, &len);
	wr->len = len - (size_t)n;
	b = uv_buf_init(wr->data + n, (unsigned int)wr->len);
	ret = uv_write(&wr->req, &s->h.stream, &b, 1, srv_session_write_cb);
	if (ret < 0) {
		free(wr->data);
		free(wr);
		return ret;
	}
	s->wr = wr;
	s->flags |= SRV_CONN_WRITING;
	return 0;
}

void srv_session_flush(struct srv_session *s)
{
	int ret;

	if (s->state == SRV_CONN_CLOSING)
		return;
	if (s->flags & SRV_CONN_BROKEN) {
		srv_session_log(SRV_LOG_WARN, s, "out of memory, closing");
		srv_session_close(s);
		return;
	}
	if (!(s->flags & SRV_CONN_WRITING) && s->out.len) {
		ret = s->tx ? s->tx->send(s) : srv_session_send(s);
		if (ret < 0) {
			srv_session_log(SRV_LOG_DEBUG, s, "write: %s", uv_strerror(ret));
			srv_session_close(s);
			return;
		}
	}
	srv_session_out_lend(s);
	if (srv_session_queued(s) > SRV_OUT_HARD_BYTES) {
		srv_session_log(SRV_LOG_WARN, s, "%zu bytes of output queued (limit %d), closing",
				srv_session_queued(s), SRV_OUT_HARD_BYTES);
		srv_session_close(s);
		return;
	}
	srv_session_check_done(s);
}

/* Feed what was deferred; what is left stays in place (no copy per turn). */
static void srv_session_feed_deferred(struct srv_session *s)
{
	char *data = s->deferred;
	size_t used, len = s->deferred_len;

	/* detached while fed: a request in it may finish or close the session */
	s->deferred = NULL;
	s->deferred_len = 0;
	used = srv_session_feed(s, data, len);
	if (used < len && s->state == SRV_CONN_OPEN) {
		memmove(data, data + used, len - used);
		s->deferred = data;
		s->deferred_len = len - used;
	} else {
		free(data);
	}
	srv_session_flush(s);
}

void srv_session_resume(struct srv_session *s)
{
	if (s->state == SRV_CONN_CLOSING || (s->flags & SRV_CONN_IN_FEED))
		return;
	srv_list_del(&s->yield_node);
	if (srv_session_must_wait(s)) {
		s->flags |= SRV_CONN_PAUSED;
		return;
	}
	s->flags &= ~SRV_CONN_PAUSED;
	if (s->deferred) {
		srv_session_feed_deferred(s);
		if (s->state == SRV_CONN_CLOSING)
			return;
	}
	if (s->deferred || (s->flags & SRV_CONN_PAUSED))
		return;
	if (s->flags & SRV_CONN_EOF) {
		srv_session_eof_tail(s);
		srv_session_flush(s);
	} else if (!s->srv->stopping) {
		srv_session_read_start(s);
	}
}

struct proto_buf *srv_session_out(struct srv_session *s)
{
	struct srv_slot *slot;

	if ((s->flags & SRV_CONN_BROKEN) || s->state == SRV_CONN_CLOSING) {
		s->sink.len = 0;
		return &s->sink;
	}
	if (!s->slots_head) {
		srv_session_out_borrow(s);
		return &s->out;
	}
	if (s->slots_tail->ready)
		return &s->slots_tail->text;
	/* behind a reply still on a bus: this one waits in a ready slot of its own */
	slot = calloc(1, sizeof(*slot));
	if (!slot) {
		srv_session_broken(s);
		s->sink.len = 0;
		return &s->sink;
	}
	slot->ready = true;
	s->slots_tail->next = slot;
	s->slots_tail = slot;
	return &slot->text;
}

struct srv_slot *srv_session_slot_new(struct srv_session *s, struct srv_slot **backref)
{
	struct srv_slot *slot;

	slot = calloc(1, sizeof(*slot));
	if (!slot)
		return NULL;
	slot->backref = backref;
	if (s->slots_tail)
		s->slots_tail->next = slot;
	else
		s->slots_head = slot;
	s->slots_tail = slot;
	s->inflight++;
	*backref = slot;
	return slot;
}

void srv_session_slot_done(struct srv_session *s, struct srv_slot *slot)
{
	struct srv_slot *head;
	bool was_waiting = s->inflight >= s->proto->inflight_max;

	slot->ready = true;
	if (slot->backref)
		*slot->backref = NULL;
	slot->backref = NULL;
	s->inflight--;
	while ((head = s->slots_head) && head->ready) {
		if (head->text.len && proto_buf_append(&s->out, head->text.data, head->text.len))
			srv_session_broken(s);
		s->slots_head = head->next;
		if (!s->slots_head)
			s->slots_tail = NULL;
		proto_buf_fini(&head->text);
		free(head);
	}
	srv_session_flush(s);
	/*
	 * Input waiting for this reply is taken on the loop's next turn, not
	 * here: a slot is completed from walks of readers and subscriptions, and
	 * a request in that input (CLOSE, UNSTREAM) may free what they walk
	 * (server/README.md, "Who owns what").
	 */
	if (s->state != SRV_CONN_CLOSING && ((s->flags & SRV_CONN_PAUSED) || was_waiting))
		srv_session_yield(s);
	/* blocks and events held while a reply was in order before them may follow it now */
	if (s->state != SRV_CONN_CLOSING && !s->slots_head)
		srv_streams_writable(s);
	if (s->state != SRV_CONN_CLOSING && !s->slots_head)
		srv_events_writable(s);
}

void srv_session_finish(struct srv_session *s)
{
	if (s->state != SRV_CONN_OPEN)
		return;
	srv_session_set_state(s, SRV_CONN_FINISHING);
	srv_session_read_stop(s);
	free(s->deferred);
	s->deferred = NULL;
	s->deferred_len = 0;
	srv_list_del(&s->yield_node);
}

/*
 * The safe point of server/README.md's ownership model: libuv runs close
 * callbacks in a phase of their own, with no other callback of ours on the
 * stack, so no walk of a capture's readers, a device's subscriptions or a
 * flush list holds a pointer the row's close may free.
 */
static void srv_session_close_cb(uv_handle_t *handle)
{
	struct srv_session *s = srv_session_of(handle);
	struct srv *srv = s->srv;

	s->proto->close(s);
	srv_list_del(&s->node);
	/* here, not in srv_session_close(): a feed loop may still be running then */
	proto_splitter_fini(&s->sp);
	proto_buf_fini(&s->out);
	proto_buf_fini(&s->sink);
	free(s);
	srv_session_gone(srv);
}

void srv_session_close(struct srv_session *s)
{
	struct srv_slot *slot;

	if (s->state == SRV_CONN_CLOSING)
		return;
	srv_session_set_state(s, SRV_CONN_CLOSING);
	if (!(s->flags & SRV_CONN_REJECTED))
		s->srv->nsessions--;
	srv_session_log(SRV_LOG_DEBUG, s, "closed");
	srv_list_del(&s->yield_node);
	/* requests still on a bus finish there; their results find no slot */
	while ((slot = s->slots_head)) {
		s->slots_head = slot->next;
		if (slot->backref)
			*slot->backref = NULL;
		proto_buf_fini(&slot->text);
		free(slot);
	}
	s->slots_tail = NULL;
	s->inflight = 0;
	/* the row's state (readers, subscriptions, watches) lives on: see srv_session_close_cb() */
	free(s->deferred);
	s->deferred = NULL;
	s->deferred_len = 0;
	if (s->tx)
		s->tx->close(s);
	uv_close(&s->h.handle, srv_session_close_cb);
}

static void srv_session_peer(struct srv_session *s, bool is_unix)
{
	struct sockaddr_storage ss;
	int len = sizeof(ss);

	snprintf(s->peer, sizeof(s->peer), "%s", is_unix ? "unix" : "?");
	if (is_unix || uv_tcp_getpeername(&s->h.tcp, (struct sockaddr *)&ss, &len) < 0)
		return;
	srv_sockaddr_name((const struct sockaddr *)&ss, s->peer, sizeof(s->peer));
}

/*
 * A session speaking @proto, on srv->sessions, not yet counted; its handle
 * is @l's kind of stream, or an idle handle when @tx carries the bytes.
 */
static struct srv_session *srv_session_new(struct srv *srv, const struct srv_proto_ops *proto,
					   struct srv_listener *l, const struct srv_transport *tx)
{
	struct srv_session *s;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s) {
		srv_err(&srv->log, "accept: out of memory");
		return NULL;
	}
	s->srv = srv;
	s->proto = proto;
	s->tx = tx;
	srv_list_init(&s->node);
	srv_list_init(&s->yield_node);
	proto_splitter_init(&s->sp, s->proto->line_max);
	proto_buf_init(&s->out);
	proto_buf_init(&s->sink);
	if (tx)
		ret = uv_idle_init(&srv->loop, &s->h.idle);
	else if (l->is_unix)
		ret = uv_pipe_init(&srv->loop, &s->h.pipe, 0);
	else
		ret = uv_tcp_init(&srv->loop, &s->h.tcp);
	if (ret < 0) {
		srv_err(&srv->log, "accept: %s", uv_strerror(ret));
		free(s);
		return NULL;
	}
	if (s->proto->open)
		s->proto->open(s);
	s->id = ++srv->next_session_id;
	srv_list_add_tail(&srv->sessions, &s->node);
	s->flags = SRV_CONN_REJECTED;	/* not counted until it is in */
	return s;
}

/* Count @s in, or refuse it over --max-clients; then it reads. @where: for the log. */
static void srv_session_admit(struct srv_session *s, const char *where)
{
	struct srv *srv = s->srv;

	if (srv->nsessions >= srv->cfg.max_clients) {
		/* an iiod client takes this as the answer to its first request (PRINT) */
		srv->stats.rejected++;
		srv_session_log(SRV_LOG_INFO, s, "refused, %u clients already (--max-clients)",
				srv->nsessions);
		s->proto->error(s, -EBUSY, "too many clients");
		srv_session_finish(s);
		srv_session_flush(s);
		return;
	}
	s->flags &= ~SRV_CONN_REJECTED;
	srv->nsessions++;
	srv->stats.connections++;
	s->last_request_ms = uv_now(&srv->loop);
	srv_session_log(SRV_LOG_DEBUG, s, "open on %s", where);
	srv_session_read_start(s);
}

void srv_session_accept(struct srv_listener *l)
{
	struct srv *srv = l->srv;
	struct srv_session *s;
	int ret;

	s = srv_session_new(srv, l->proto, l, NULL);
	if (!s)
		return;
	ret = uv_accept(&l->h.stream, &s->h.stream);
	if (ret < 0) {
		srv_debug(&srv->log, "accept: %s", uv_strerror(ret));
		srv_session_close(s);
		return;
	}
	srv_session_peer(s, l->is_unix);
	if (!l->is_unix) {
		uv_tcp_nodelay(&s->h.tcp, 1);
		uv_tcp_keepalive(&s->h.tcp, 1, 60);
	}
	srv_session_admit(s, l->name);
}

struct srv_session *srv_session_adopt(struct srv *srv, const struct srv_proto_ops *proto,
				      const struct srv_transport *tx, void *tx_conn,
				      const char *peer)
{
	struct srv_session *s;

	s = srv_session_new(srv, proto, NULL, tx);
	if (!s)
		return NULL;
	s->tx_conn = tx_conn;
	snprintf(s->peer, sizeof(s->peer), "%s", peer);
	srv_session_admit(s, "WebSocket");
	return s;
}

/* The soft output limit: above it for SRV_OUT_SOFT_MS closes. Return: true if closed. */
static bool srv_session_sweep_output(struct srv_session *s, uint64_t now)
{
	size_t queued = srv_session_queued(s);

	if (queued <= SRV_OUT_SOFT_BYTES) {
		s->over_soft_since_ms = 0;
		return false;
	}
	if (!s->over_soft_since_ms) {
		s->over_soft_since_ms = now;
		return false;
	}
	if (now - s->over_soft_since_ms < SRV_OUT_SOFT_MS)
		return false;
	srv_session_log(SRV_LOG_WARN, s, "%zu bytes of output queued for %d ms, closing", queued,
			SRV_OUT_SOFT_MS);
	srv_session_close(s);
	return true;
}

/*
 * Idle memory: a session that has had no request for SRV_IDLE_TRIM_MS and
 * holds no output frees its empty buffers and the row's caches; the next
 * request makes them again (once, not per request).
 */
static void srv_session_trim(struct srv_session *s, uint64_t now)
{
	if (s->slots_head || (s->flags & SRV_CONN_WRITING) || s->out.len || s->deferred)
		return;
	if (now - s->last_request_ms < SRV_IDLE_TRIM_MS)
		return;
	proto_buf_fini(&s->out);
	proto_buf_fini(&s->sink);
	proto_splitter_trim(&s->sp);
	if (s->proto->trim)
		s->proto->trim(s);
}

void srv_session_sweep(struct srv_session *s, uint64_t now)
{
	const struct srv_config *cfg = &s->srv->cfg;
	char msg[64];

	if (s->state == SRV_CONN_CLOSING || srv_session_sweep_output(s, now))
		return;
	if (s->state != SRV_CONN_OPEN)
		return;
	if (cfg->line_timeout_ms && s->partial_since_ms &&
	    now - s->partial_since_ms >= cfg->line_timeout_ms) {
		srv_session_log(SRV_LOG_INFO, s, "request line unfinished for %u ms, closing",
				cfg->line_timeout_ms);
		snprintf(msg, sizeof(msg), "request line not finished within %u ms",
			 cfg->line_timeout_ms);
		s->proto->error(s, -ETIMEDOUT, msg);
		srv_session_finish(s);
		srv_session_flush(s);
		return;
	}
	if (cfg->idle_timeout_ms && !s->slots_head &&
	    !(s->proto->keeps_alive && s->proto->keeps_alive(s)) &&
	    now - s->last_request_ms >= cfg->idle_timeout_ms) {
		srv_session_log(SRV_LOG_INFO, s, "idle for %u ms, closing", cfg->idle_timeout_ms);
		srv_session_finish(s);
		srv_session_flush(s);
		return;
	}
	srv_session_trim(s, now);
}
