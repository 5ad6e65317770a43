/*
 * session.c - one client connection: reading, line splitting, ordered
 * replies, bounded output, half-close, timeouts (see session.h).
 *
 * Reading uses the server's one shared buffer (a read callback always
 * follows its alloc callback on the same stream), so an idle connection
 * costs its handle and a few fields, no buffer; the splitter keeps only an
 * unfinished line. Writing tries uv_try_write first and hands any rest to
 * one uv_write, so there is at most one write request per session and the
 * queued byte count is out.len plus libuv's write_queue_size. The shape of
 * the limits follows Redis's networking.c (a pause, a soft limit held for a
 * while, a hard one, a burst per wakeup); the code is our own.
 * It must not decode requests (dispatch.c does) and never frees a session
 * outside srv_session_close_cb().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "session.h"
#include "srv.h"
#include "watch.h"

static void srv_session_read_cb(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf);

static struct srv_session *srv_session_of(uv_handle_t *handle)
{
	return srv_container_of(handle, struct srv_session, h.handle);
}

size_t srv_session_queued(const struct srv_session *s)
{
	return s->out.len + (s->writing ? s->h.stream.write_queue_size : 0);
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
	if (s->inflight >= SRV_SESSION_INFLIGHT_MAX)
		return true;
	if (srv_session_queued(s) >= SRV_OUT_PAUSE_BYTES)
		return true;
	return s->slots_head && srv_session_slot_bytes(s) >= SRV_OUT_PAUSE_BYTES;
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

	if (s->reading || s->closing || s->eof || s->close_after_flush)
		return;
	ret = uv_read_start(&s->h.stream, srv_session_alloc_cb, srv_session_read_cb);
	if (ret < 0) {
		srv_debug(&s->srv->log, "session %llu: read: %s", (unsigned long long)s->id,
			  uv_strerror(ret));
		srv_session_close(s);
		return;
	}
	s->reading = true;
}

static void srv_session_read_stop(struct srv_session *s)
{
	if (!s->reading)
		return;
	uv_read_stop(&s->h.stream);
	s->reading = false;
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
 * Split and answer what @data holds, as far as limits allow: the session's
 * queued output (pause), its requests on a bus, and the output this one
 * call may produce (the write burst; the rest waits for the loop's next
 * turn, so one pipelining client cannot hold the loop). Reading stops when
 * something is left over.
 * Return: the number of bytes of @data consumed.
 */
static size_t srv_session_feed(struct srv_session *s, const char *data, size_t len)
{
	struct srv *srv = s->srv;
	size_t line_len, used, left = len, out0 = s->out.len;
	const char *line;
	bool burst = false;
	int ret;

	s->in_feed = true;
	while (left && !s->closing && !s->close_after_flush) {
		if (srv_session_must_wait(s))
			break;
		if (s->out.len - out0 >= SRV_WRITE_BURST_BYTES) {
			burst = true;
			break;
		}
		ret = proto_splitter_next(&s->sp, data, left, &used, &line, &line_len);
		data += used;
		left -= used;
		if (ret == 0)
			break;
		if (ret < 0) {
			if (ret == -E2BIG)
				srv_dispatch_error(s, NULL, -E2BIG,
						   "request line longer than %d bytes",
						   PROTO_LINE_MAX_BYTES);
			else
				srv_dispatch_error(s, NULL, ret, NULL);
			srv_session_finish(s);
			break;
		}
		s->last_request_ms = uv_now(&srv->loop);
		srv_dispatch_line(s, line, line_len);
	}
	if (proto_splitter_pending(&s->sp)) {
		if (!s->partial_since_ms)
			s->partial_since_ms = uv_now(&srv->loop);
	} else {
		s->partial_since_ms = 0;
	}
	s->in_feed = false;
	if (s->closing || s->close_after_flush)
		return len;	/* what follows a last request is dropped */
	if (left) {
		srv_session_read_stop(s);
		if (burst)
			srv_session_yield(s);
		else
			s->paused = true;
	}
	return len - left;
}

static void srv_session_on_eof(struct srv_session *s)
{
	const char *line;
	size_t line_len;

	s->eof = true;
	s->reading = false;	/* libuv stopped reading at EOF: no busy loop on a half-close */
	/* a last line without its LF (printf 'devices' | nc -N) is still a request */
	if (!s->close_after_flush && proto_splitter_flush(&s->sp, &line, &line_len) == 1) {
		s->last_request_ms = uv_now(&s->srv->loop);
		srv_dispatch_line(s, line, line_len);
	}
	s->partial_since_ms = 0;
	srv_session_flush(s);
}

static void srv_session_read_cb(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
	struct srv_session *s = srv_session_of((uv_handle_t *)stream);
	size_t used;

	if (nread > 0) {
		s->srv->stats.bytes_in += (uint64_t)nread;
		used = srv_session_feed(s, buf->base, (size_t)nread);
		if (used < (size_t)nread) {
			/* the shared buffer is reused by the next read: keep the rest */
			s->deferred = malloc((size_t)nread - used);
			if (!s->deferred) {
				s->broken = true;
			} else {
				memcpy(s->deferred, buf->base + used, (size_t)nread - used);
				s->deferred_len = (size_t)nread - used;
			}
		}
		srv_session_flush(s);
	} else if (nread == UV_EOF) {
		srv_session_on_eof(s);
	} else if (nread < 0) {
		srv_debug(&s->srv->log, "session %llu (%s): %s", (unsigned long long)s->id,
			  s->peer, uv_strerror((int)nread));
		srv_session_close(s);
	}
}

/* Close once a finishing or half-closed session has nothing left to send. */
static void srv_session_check_done(struct srv_session *s)
{
	if (s->closing)
		return;
	if (!s->eof && !s->close_after_flush)
		return;
	if (s->slots_head || s->writing || s->out.len)
		return;
	if (s->deferred && !s->close_after_flush)
		return;
	srv_session_close(s);
}

static void srv_session_write_cb(uv_write_t *req, int status)
{
	struct srv_session *s = srv_container_of(req, struct srv_session, wreq);

	free(s->wdata);
	s->wdata = NULL;
	s->writing = false;
	if (s->closing)
		return;		/* -ECANCELED from uv_close: the close callback follows */
	if (status < 0) {
		srv_debug(&s->srv->log, "session %llu (%s): write: %s",
			  (unsigned long long)s->id, s->peer, uv_strerror(status));
		srv_session_close(s);
		return;
	}
	srv_session_flush(s);
	if (!s->closing && s->paused && srv_session_queued(s) < SRV_OUT_RESUME_BYTES)
		srv_session_resume(s);
}

int srv_out_send(uv_stream_t *stream, struct proto_buf *out, uv_write_t *wreq, uv_write_cb cb,
		 char **wdata, uint64_t *bytes_out)
{
	uv_buf_t b;
	size_t len;
	char *data;
	int n, ret;

	if (!out->len)
		return 0;
	b = uv_buf_init(out->data, (unsigned int)out->len);
	n = uv_try_write(stream, &b, 1);
	if (n == UV_EAGAIN)
		n = 0;
	if (n < 0)
		return n;
	*bytes_out += (uint64_t)n;
	if ((size_t)n == out->len) {
		out->len = 0;
		if (out->cap > SRV_OUT_KEEP_BYTES)
			proto_buf_fini(out);
		return 0;
	}
	/* the kernel is full: the rest goes in one write request the caller owns */
	data = proto_buf_steal(out, &len);
	b = uv_buf_init(data + n, (unsigned int)(len - (size_t)n));
	ret = uv_write(wreq, stream, &b, 1, cb);
	if (ret < 0) {
		free(data);
		return ret;
	}
	*bytes_out += len - (size_t)n;
	*wdata = data;
	return 1;
}

void srv_session_flush(struct srv_session *s)
{
	struct srv *srv = s->srv;
	int ret;

	if (s->closing)
		return;
	if (s->broken) {
		srv_warn(&srv->log, "session %llu (%s): out of memory, closing",
			 (unsigned long long)s->id, s->peer);
		srv_session_close(s);
		return;
	}
	if (!s->writing && s->out.len) {
		ret = srv_out_send(&s->h.stream, &s->out, &s->wreq, srv_session_write_cb,
				   &s->wdata, &srv->stats.bytes_out);
		if (ret < 0) {
			srv_debug(&srv->log, "session %llu (%s): write: %s",
				  (unsigned long long)s->id, s->peer, uv_strerror(ret));
			srv_session_close(s);
			return;
		}
		s->writing = ret > 0;
	}
	if (srv_session_queued(s) > SRV_OUT_HARD_BYTES) {
		srv_warn(&srv->log,
			 "session %llu (%s): %zu bytes of output queued (limit %d), closing",
			 (unsigned long long)s->id, s->peer, srv_session_queued(s),
			 SRV_OUT_HARD_BYTES);
		srv_session_close(s);
		return;
	}
	srv_session_check_done(s);
}

void srv_session_resume(struct srv_session *s)
{
	size_t used, len;
	char *data;

	if (s->closing || s->in_feed)
		return;
	srv_list_del(&s->yield_node);
	if (srv_session_must_wait(s)) {
		s->paused = true;
		return;
	}
	s->paused = false;
	if (s->deferred) {
		/* detached while fed: a request in it may finish or close the session */
		data = s->deferred;
		len = s->deferred_len;
		s->deferred = NULL;
		s->deferred_len = 0;
		used = srv_session_feed(s, data, len);
		if (used < len) {
			/* keep the rest in place: no copy per turn */
			memmove(data, data + used, len - used);
			s->deferred = data;
			s->deferred_len = len - used;
		} else {
			free(data);
		}
		srv_session_flush(s);
		if (s->closing)
			return;
	}
	if (!s->deferred && !s->paused && !s->srv->stopping)
		srv_session_read_start(s);
}

struct proto_buf *srv_session_out(struct srv_session *s)
{
	struct srv_slot *slot;

	if (s->broken || s->closing) {
		s->sink.len = 0;
		return &s->sink;
	}
	if (!s->slots_head)
		return &s->out;
	if (s->slots_tail->ready)
		return &s->slots_tail->text;
	/* behind a reply still on a bus: this one waits in a ready slot of its own */
	slot = calloc(1, sizeof(*slot));
	if (!slot) {
		s->broken = true;
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
	bool was_waiting = s->inflight >= SRV_SESSION_INFLIGHT_MAX;

	slot->ready = true;
	if (slot->backref)
		*slot->backref = NULL;
	slot->backref = NULL;
	s->inflight--;
	while ((head = s->slots_head) && head->ready) {
		if (head->text.len && proto_buf_append(&s->out, head->text.data, head->text.len))
			s->broken = true;
		s->slots_head = head->next;
		if (!s->slots_head)
			s->slots_tail = NULL;
		proto_buf_fini(&head->text);
		free(head);
	}
	srv_session_flush(s);
	if (!s->closing && (s->paused || was_waiting))
		srv_session_resume(s);
}

void srv_session_finish(struct srv_session *s)
{
	s->close_after_flush = true;
	srv_session_read_stop(s);
	free(s->deferred);
	s->deferred = NULL;
	s->deferred_len = 0;
	srv_list_del(&s->yield_node);
}

static void srv_session_close_cb(uv_handle_t *handle)
{
	struct srv_session *s = srv_session_of(handle);
	struct srv *srv = s->srv;

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

	if (s->closing)
		return;
	s->closing = true;
	if (!s->rejected)
		s->srv->nsessions--;
	srv_debug(&s->srv->log, "session %llu (%s): closed", (unsigned long long)s->id, s->peer);
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
	srv_watch_stop_all(s);
	srv_dispatch_session_fini(s);
	free(s->deferred);
	s->deferred = NULL;
	s->deferred_len = 0;
	uv_close(&s->h.handle, srv_session_close_cb);
}

static void srv_session_peer(struct srv_session *s, bool is_unix)
{
	struct sockaddr_storage ss;
	int len = sizeof(ss);
	char host[48];

	snprintf(s->peer, sizeof(s->peer), "%s", is_unix ? "unix" : "?");
	if (is_unix || uv_tcp_getpeername(&s->h.tcp, (struct sockaddr *)&ss, &len) < 0)
		return;
	if (ss.ss_family == AF_INET6) {
		uv_ip6_name((struct sockaddr_in6 *)&ss, host, sizeof(host));
		snprintf(s->peer, sizeof(s->peer), "[%s]:%u", host,
			 ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	} else if (ss.ss_family == AF_INET) {
		uv_ip4_name((struct sockaddr_in *)&ss, host, sizeof(host));
		snprintf(s->peer, sizeof(s->peer), "%s:%u", host,
			 ntohs(((struct sockaddr_in *)&ss)->sin_port));
	}
}

void srv_session_accept(struct srv *srv, uv_stream_t *server, bool is_unix)
{
	struct srv_session *s;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s) {
		srv_err(&srv->log, "accept: out of memory");
		return;
	}
	s->srv = srv;
	srv_list_init(&s->node);
	srv_list_init(&s->yield_node);
	srv_list_init(&s->watches);
	proto_splitter_init(&s->sp, PROTO_LINE_MAX_BYTES);
	proto_buf_init(&s->out);
	proto_buf_init(&s->sink);
	if (is_unix)
		ret = uv_pipe_init(&srv->loop, &s->h.pipe, 0);
	else
		ret = uv_tcp_init(&srv->loop, &s->h.tcp);
	if (ret < 0) {
		srv_err(&srv->log, "accept: %s", uv_strerror(ret));
		free(s);
		return;
	}
	s->id = ++srv->next_session_id;
	srv_list_add_tail(&srv->sessions, &s->node);
	s->rejected = true;	/* not counted until it is in */
	ret = uv_accept(server, &s->h.stream);
	if (ret < 0) {
		srv_debug(&srv->log, "accept: %s", uv_strerror(ret));
		srv_session_close(s);
		return;
	}
	srv_session_peer(s, is_unix);
	if (!is_unix) {
		uv_tcp_nodelay(&s->h.tcp, 1);
		uv_tcp_keepalive(&s->h.tcp, 1, 60);
	}
	if (srv->nsessions >= srv->cfg.max_clients) {
		srv->stats.rejected++;
		srv_info(&srv->log,
			 "session %llu (%s): refused, %u clients already (--max-clients)",
			 (unsigned long long)s->id, s->peer, srv->nsessions);
		srv_dispatch_error(s, NULL, -EBUSY, "too many clients");
		srv_session_finish(s);
		srv_session_flush(s);
		return;
	}
	s->rejected = false;
	srv->nsessions++;
	srv->stats.connections++;
	s->last_request_ms = uv_now(&srv->loop);
	srv_debug(&srv->log, "session %llu (%s): open", (unsigned long long)s->id, s->peer);
	srv_session_read_start(s);
}

void srv_session_sweep(struct srv_session *s, uint64_t now)
{
	const struct srv_config *cfg = &s->srv->cfg;
	size_t queued;

	if (s->closing)
		return;
	queued = srv_session_queued(s);
	if (queued > SRV_OUT_SOFT_BYTES) {
		if (!s->over_soft_since_ms) {
			s->over_soft_since_ms = now;
		} else if (now - s->over_soft_since_ms >= SRV_OUT_SOFT_MS) {
			srv_warn(&s->srv->log,
				 "session %llu (%s): %zu bytes of output queued for %d ms, closing",
				 (unsigned long long)s->id, s->peer, queued, SRV_OUT_SOFT_MS);
			srv_session_close(s);
			return;
		}
	} else {
		s->over_soft_since_ms = 0;
	}
	if (cfg->line_timeout_ms && s->partial_since_ms && !s->close_after_flush &&
	    now - s->partial_since_ms >= cfg->line_timeout_ms) {
		srv_info(&s->srv->log,
			 "session %llu (%s): request line unfinished for %u ms, closing",
			 (unsigned long long)s->id, s->peer, cfg->line_timeout_ms);
		srv_dispatch_error(s, NULL, -ETIMEDOUT, "request line not finished within %u ms",
				   cfg->line_timeout_ms);
		srv_session_finish(s);
		srv_session_flush(s);
		return;
	}
	if (cfg->idle_timeout_ms && !s->nwatches && !s->slots_head && !s->close_after_flush &&
	    now - s->last_request_ms >= cfg->idle_timeout_ms) {
		srv_info(&s->srv->log, "session %llu (%s): idle for %u ms, closing",
			 (unsigned long long)s->id, s->peer, cfg->idle_timeout_ms);
		srv_session_finish(s);
		srv_session_flush(s);
	}
}
