/*
 * web.c - the HTTP face of iiowired: the page built into the daemon,
 * /healthz, and the WebSocket row srv_proto_web (see web.h).
 *
 * libwebsockets runs on srv->loop as a foreign loop and never listens:
 * listener.c accepts on --http-listen and hands each socket over
 * (lws_adopt_socket_vhost()). A WebSocket whose handshake passed the
 * Origin check becomes a session (srv_session_adopt()) with this file's
 * transport: a complete message is framed as one record for the row's
 * feed (a length word, then the bytes), so a message is one request
 * whatever bytes it holds, and each reply line the session produces
 * leaves as one text message, except a stream block's payload (S-4): the
 * header line is a text message and the bytes it announces the next
 * message, binary for raw records and text for csv (PROTOCOL.md W-7), cut
 * out of the same output the stream engine writes for TCP. Output waits in
 * the session's buffer until the loop's next turn, before it polls again
 * (a uv_idle: a check handle would leave what a timer wrote waiting for the
 * next event), when each connection that has some writes it in one batch,
 * as TCP gets one write per burst; only what the socket does not take waits for
 * libwebsockets' writable callback, so the session's limits (pause, soft,
 * hard) hold as on TCP. A session's memory goes in its idle
 * handle's close callback; libwebsockets' per-connection memory is its own,
 * and the two forget each other in srv_web_tx_close() or LWS_CALLBACK_CLOSED,
 * whichever comes first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "dispatch.h"
#include "iio_registry.h"
#include "board.h"
#include "listener.h"
#include "session.h"
#include "srv.h"
#include "web.h"
#include "web_guard.h"

/* The record header's flag: the message passed SRV_WEB_MESSAGE_MAX_BYTES (no payload). */
#define SRV_WEB_REC_TOO_LONG	0x80000000u
/*
 * Output framed into one write (at least one whole message): 256 replies
 * of a READ, and with a message the send buffer stays under the
 * SRV_OUT_KEEP_BYTES it keeps (no allocation per batch); what the socket
 * does not take of it libwebsockets holds, per connection.
 */
#define SRV_WEB_BATCH_BYTES	(8 * 1024)
/* Passes of the next-turn write over the connections that queued more in the last. */
#define SRV_WEB_FLUSH_PASSES	4
/* the longest frame header: 2 bytes, then a 64-bit length */
#define SRV_WEB_FRAME_HEAD_MAX	10

/* struct srv_web - the daemon's libwebsockets context (srv->web). */
struct srv_web {
	struct srv *srv;
	struct lws_context *ctx;
	struct lws_vhost *vh;
	bool stopping;
	bool closed;
	unsigned char *tx;		/* one outgoing message, LWS_PRE bytes in front */
	size_t txcap;
	uv_idle_t flush;		/* the loop's next turn: @dirty connections write */
	bool flush_init;
	struct srv_list dirty;		/* srv_web_conn.dirty_link: output waits, no write asked */
	char self[SRV_WEB_HOST_NAME_MAX];	/* gethostname(), for the Host check */
	struct srv_web_peers peers;	/* connections in HTTP, per address */
};

/*
 * struct srv_web_tag - what the daemon keeps of a connection from accept to
 * libwebsockets' LWS_CALLBACK_WSI_DESTROY (its opaque user data): the per-session
 * data is libwebsockets' and is cleared at each request, this is not.
 */
struct srv_web_tag {
	struct srv_web_addr peer;
	bool counted;			/* in web->peers: still HTTP, not a WebSocket */
	bool wildcard;			/* came through a listener bound to any address */
};

/*
 * struct srv_web_conn - libwebsockets' memory for one connection (its
 * per-session data, freed by it): an HTTP request being answered, then,
 * after the upgrade, the WebSocket's side of its session.
 */
struct srv_web_conn {
	struct lws *wsi;
	struct srv_session *s;		/* NULL before the upgrade and once the session closed */
	struct proto_buf msg;		/* record header + the message being received */
	bool too_long;			/* the message being received is over the limit */
	bool want_write;		/* a writable callback is asked for */
	bool dirty;			/* on web->dirty */
	struct srv_list dirty_link;
	bool pay_pending;		/* the next message is a block's payload, @pay_len bytes */
	bool pay_text;			/* ...csv lines (a text message), not raw records */
	size_t pay_len;
	const unsigned char *body;	/* HTTP: what is left of the answer */
	size_t body_left;
	char small[64];			/* HTTP: /healthz's body */
};

/*
 * Room for @n bytes after libwebsockets' LWS_PRE headroom in the one send
 * buffer (the loop sends one message at a time). Return: the payload's place, or NULL.
 */
static unsigned char *srv_web_txbuf(struct srv_web *web, size_t n)
{
	unsigned char *p;

	if (LWS_PRE + n > web->txcap) {
		p = realloc(web->tx, LWS_PRE + n);
		if (!p)
			return NULL;
		web->tx = p;
		web->txcap = LWS_PRE + n;
	}
	return web->tx + LWS_PRE;
}

/* A big message's room is not kept for an idle daemon. */
static void srv_web_txbuf_trim(struct srv_web *web)
{
	if (web->txcap <= SRV_OUT_KEEP_BYTES)
		return;
	free(web->tx);
	web->tx = NULL;
	web->txcap = 0;
}

/* ---- the WebSocket row ---- */

static const struct proto_request srv_web_noid = {
	.op = PROTO_OP_NONE,
	.flags = PROTO_REQ_JSON,
};

/* One message: a JSON request, on one line (each reply must be one message). */
static void srv_web_message(struct srv_session *s, const char *msg, size_t len)
{
	const char *lf;

	if (!len)
		return;		/* an empty message asks nothing (P-4) */
	s->srv->stats.requests++;
	lf = memchr(msg, '\n', len);
	if (!lf)
		lf = memchr(msg, '\r', len);
	if (lf) {
		srv_dispatch_error(s, &srv_web_noid, -EINVAL,
				   "line break at offset %zu: a message is one JSON request",
				   (size_t)(lf - msg));
		return;
	}
	if (msg[0] != '{') {
		srv_dispatch_error(s, &srv_web_noid, -EINVAL,
				   "not a JSON request: a message is one JSON object (P-8)");
		return;
	}
	s->srv->stats.requests--;	/* srv_dispatch_line() counts it */
	srv_dispatch_line(s, msg, len);
}

/* Take the records srv_web_receive() framed, as far as the session may go on. */
static size_t srv_web_feed(struct srv_session *s, const char *data, size_t len)
{
	size_t left = len;
	uint32_t hdr, n;
	char msg[80];

	while (left >= sizeof(hdr) && srv_session_take(s)) {
		memcpy(&hdr, data, sizeof(hdr));
		n = hdr & ~SRV_WEB_REC_TOO_LONG;
		if (left - sizeof(hdr) < n)
			break;
		data += sizeof(hdr) + n;
		left -= sizeof(hdr) + n;
		s->last_request_ms = uv_now(&s->srv->loop);
		if (hdr & SRV_WEB_REC_TOO_LONG) {
			srv_session_log(SRV_LOG_INFO, s, "message too long, closing");
			snprintf(msg, sizeof(msg), "message longer than %d bytes",
				 SRV_WEB_MESSAGE_MAX_BYTES);
			s->proto->error(s, -E2BIG, msg);
			srv_session_finish(s);
			return len;
		}
		srv_web_message(s, data - n, n);
	}
	return len - left;
}

/* A WebSocket has no half-close: its close frame ends the session. */
static void srv_web_on_eof(struct srv_session *s)
{
	(void)s;
}

/* Errors that answer no request (too many clients, too long, timeout): JSON too. */
static void srv_web_error(struct srv_session *s, int err, const char *msg)
{
	srv_dispatch_error(s, &srv_web_noid, err, msg ? "%s" : NULL, msg);
}

/* A message begun and not finished: the line timeout applies to it. */
static bool srv_web_partial(const struct srv_session *s)
{
	const struct srv_web_conn *c = s->tx_conn;

	return c && (c->msg.len || c->too_long);
}

const struct srv_proto_ops srv_proto_web = {
	.name = "web ",
	.listening = "for HTTP and WebSocket ",
	.line_max = SRV_WEB_MESSAGE_MAX_BYTES,
	.inflight_max = SRV_SESSION_INFLIGHT_MAX,
	.open = srv_native_open,
	.feed = srv_web_feed,
	.on_eof = srv_web_on_eof,
	.error = srv_web_error,
	.partial = srv_web_partial,
	.keeps_alive = srv_native_keeps_alive,
	.trim = srv_native_trim,
	.close = srv_native_close,
};

/* ---- the transport: libwebsockets under a session ---- */

static void srv_web_flush_cb(uv_idle_t *h);

/*
 * Output is written on the loop's next turn, not at once: the replies of
 * every message libwebsockets delivered in this one leave in one batch, and no
 * writable callback is asked for (each costs an epoll_ctl and a pass of the
 * loop). Once one is asked for (a write did not go out whole), it sends.
 */
static int srv_web_tx_send(struct srv_session *s)
{
	struct srv_web_conn *c = s->tx_conn;
	struct srv_web *web = s->srv->web;

	if (!c || c->want_write || c->dirty)
		return 0;
	if (web->closed) {
		/* shutting down: the idle handle is closing, libwebsockets sends what is left */
		c->want_write = true;
		lws_callback_on_writable(c->wsi);
		return 0;
	}
	c->dirty = true;
	srv_list_add_tail(&web->dirty, &c->dirty_link);
	uv_idle_start(&web->flush, srv_web_flush_cb);
	return 0;
}

/* libwebsockets finishes a partly sent message before it asks for more: not counted. */
static size_t srv_web_tx_queued(const struct srv_session *s)
{
	(void)s;
	return 0;
}

static void srv_web_tx_rx(struct srv_session *s, bool on)
{
	struct srv_web_conn *c = s->tx_conn;

	if (c)
		lws_rx_flow_control(c->wsi, on);
}

/*
 * The session closes: the connection ends once libwebsockets has sent what
 * it holds (the next writable callback). libwebsockets 4.1 drops the
 * connection without a close frame when that callback asks to close, so a
 * browser sees code 1006; what ended the session is in its last message.
 */
static void srv_web_tx_close(struct srv_session *s)
{
	struct srv_web_conn *c = s->tx_conn;

	if (!c)
		return;
	c->s = NULL;
	s->tx_conn = NULL;
	lws_callback_on_writable(c->wsi);
}

static const struct srv_transport srv_web_transport = {
	.send = srv_web_tx_send,
	.queued = srv_web_tx_queued,
	.rx = srv_web_tx_rx,
	.close = srv_web_tx_close,
};

/* ---- WebSocket callbacks ---- */

static struct srv_web *srv_web_of(struct lws *wsi)
{
	return lws_context_user(lws_get_context(wsi));
}

/* "127.0.0.1:51234", as a TCP session names its peer (the AUTH throttle cuts the port). */
static void srv_web_peer(struct lws *wsi, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	snprintf(buf, len, "?");
	if (getpeername(lws_get_socket_fd(wsi), (struct sockaddr *)&ss, &sl) == 0)
		srv_sockaddr_name((struct sockaddr *)&ss, buf, len);
}

/* The connection leaves HTTP (a WebSocket now, or gone): it no longer counts for its address. */
static void srv_web_uncount(struct srv_web *web, struct lws *wsi)
{
	struct srv_web_tag *tag = lws_get_opaque_user_data(wsi);

	if (tag && tag->counted) {
		tag->counted = false;
		srv_web_peers_put(&web->peers, &tag->peer);
	}
}

static void srv_web_destroyed(struct srv_web *web, struct lws *wsi)
{
	srv_web_uncount(web, wsi);
	free(lws_get_opaque_user_data(wsi));
	lws_set_opaque_user_data(wsi, NULL);
}

static void srv_web_established(struct srv_web *web, struct srv_web_conn *c, struct lws *wsi)
{
	char peer[64];

	srv_web_uncount(web, wsi);
	memset(c, 0, sizeof(*c));
	c->wsi = wsi;
	proto_buf_init(&c->msg);
	srv_web_peer(wsi, peer, sizeof(peer));
	c->s = srv_session_adopt(web->srv, &srv_proto_web, &srv_web_transport, c, peer);
	if (!c->s)
		lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

/*
 * A piece of a message: kept until the message is complete (at most the
 * limit; beyond it only the fact is kept), then fed as one record.
 */
static void srv_web_receive(struct srv_web_conn *c, const char *in, size_t len)
{
	struct srv_session *s = c->s;
	struct proto_buf rec;
	uint32_t hdr;

	if (!s)
		return;
	s->srv->stats.bytes_in += len;
	if (!c->msg.len && proto_buf_append(&c->msg, "\0\0\0\0", sizeof(hdr)))
		srv_session_broken(s);
	/* refused at its first byte past the limit, as a line is: never held whole */
	if (c->msg.len - sizeof(hdr) + len > SRV_WEB_MESSAGE_MAX_BYTES) {
		c->too_long = true;
		c->msg.len = sizeof(hdr);
	} else if (proto_buf_append(&c->msg, in, len)) {
		srv_session_broken(s);
	}
	if (!c->too_long && (!lws_is_final_fragment(c->wsi) ||
			     lws_remaining_packet_payload(c->wsi))) {
		if (!s->partial_since_ms)
			s->partial_since_ms = uv_now(&s->srv->loop);
		return;
	}
	hdr = c->too_long ? SRV_WEB_REC_TOO_LONG : (uint32_t)(c->msg.len - sizeof(hdr));
	memcpy(c->msg.data, &hdr, sizeof(hdr));
	/* the message is complete before it is fed (srv_web_partial() says so) */
	rec = c->msg;
	proto_buf_init(&c->msg);
	srv_session_input(s, rec.data, rec.len);
	/* an idle WebSocket keeps no buffer */
	proto_buf_fini(&rec);
}

/* One outgoing message cut from the session's output. */
struct srv_web_msg {
	const char *p;
	size_t n;			/* the message's bytes */
	size_t used;			/* ...and what it takes of the output (a line's LF) */
	enum lws_write_protocol type;
};

/*
 * The next message of @out at @off: a line without its LF (a reply, an
 * event, a block's header), or the payload the block header before it
 * announced. Return: false while that payload is not all in @out (blocks
 * are appended whole, so only a broken session can leave one short).
 */
static bool srv_web_next(const struct srv_web_conn *c, const struct proto_buf *out, size_t off,
			 struct srv_web_msg *m)
{
	const char *lf;

	m->p = out->data + off;
	if (c->pay_pending) {
		if (out->len - off < c->pay_len)
			return false;
		m->n = m->used = c->pay_len;
		m->type = c->pay_text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY;
		return true;
	}
	lf = memchr(m->p, '\n', out->len - off);
	m->n = lf ? (size_t)(lf - m->p) : out->len - off;
	m->used = m->n + (lf ? 1 : 0);
	m->type = LWS_WRITE_TEXT;
	return true;
}

/*
 * After the text message @line: is it a block header with a payload
 * (S-4's {"block":{..,"bytes":N,..,"format":F}})? Then the next N bytes are
 * one message of their own. Only block headers begin with {"block": (replies
 * with "id" or "ok", events with their own member), and the daemon wrote it.
 */
static void srv_web_block_head(struct srv_web_conn *c, const char *line, size_t n)
{
	static const char head[] = "{\"block\":{", bytes[] = "\"bytes\":",
			  raw[] = "\"format\":\"raw\"";
	const char *b;

	if (n < sizeof(head) - 1 || memcmp(line, head, sizeof(head) - 1))
		return;
	b = memmem(line, n, bytes, sizeof(bytes) - 1);
	if (!b)
		return;		/* a json-format block: the values are in the header */
	c->pay_len = strtoull(b + sizeof(bytes) - 1, NULL, 10);
	c->pay_text = !memmem(line, n, raw, sizeof(raw) - 1);
	c->pay_pending = true;
}

/* A server's frame header (RFC 6455 5.2: FIN, the opcode, the length; never masked). */
static size_t srv_web_frame_head(unsigned char *h, const struct srv_web_msg *m)
{
	uint64_t n = m->n;
	int i;

	h[0] = 0x80 | (m->type == LWS_WRITE_BINARY ? 0x2 : 0x1);
	if (n < 126) {
		h[1] = (unsigned char)n;
		return 2;
	}
	if (n < 65536) {
		h[1] = 126;
		h[2] = (unsigned char)(n >> 8);
		h[3] = (unsigned char)n;
		return 4;
	}
	h[1] = 127;
	for (i = 0; i < 8; i++)
		h[2 + i] = (unsigned char)(n >> (56 - 8 * i));
	return 10;
}

/*
 * Frame the messages of @out from @off into the send buffer, one after the
 * other, up to SRV_WEB_BATCH_BYTES (at least one message), so that they
 * leave in one write: libwebsockets' lws_write() frames and sends one
 * message per call (a sendto each), but passes LWS_WRITE_RAW bytes of a
 * WebSocket connection through unframed, and no extension (compression)
 * is offered that would have to see each message.
 * Return: the frames' bytes (0: no whole message), or -ENOMEM; @off moves
 * past the output they carry.
 */
static ssize_t srv_web_batch(struct srv_web *web, struct srv_web_conn *c,
			     const struct proto_buf *out, size_t *off)
{
	struct srv_web_msg m;
	unsigned char *p;
	size_t len = 0, h;

	while (len < SRV_WEB_BATCH_BYTES && *off < out->len && srv_web_next(c, out, *off, &m)) {
		p = srv_web_txbuf(web, len + SRV_WEB_FRAME_HEAD_MAX + m.n);
		if (!p)
			return -ENOMEM;
		h = srv_web_frame_head(p + len, &m);
		memcpy(p + len + h, m.p, m.n);
		len += h + m.n;
		if (c->pay_pending)
			c->pay_pending = false;
		else
			srv_web_block_head(c, m.p, m.n);
		*off += m.used;
	}
	return (ssize_t)len;
}

/*
 * Send the session's output, a batch of messages a write, until the socket
 * takes less than a whole write: libwebsockets then holds the rest
 * (lws_partial_buffered()) and asks for the writable callback itself.
 * Return: 0, or -1 to close the connection.
 */
static int srv_web_send(struct srv_web *web, struct srv_web_conn *c, struct srv_session *s)
{
	struct proto_buf *out = &s->out;
	size_t off = 0, start;
	ssize_t n;

	while (off < out->len && !lws_partial_buffered(c->wsi)) {
		start = off;
		n = srv_web_batch(web, c, out, &off);
		if (n < 0)
			return -1;
		if (!n)
			break;
		/* what the socket does not take, libwebsockets keeps and sends (choked till then) */
		if (lws_write(c->wsi, web->tx + LWS_PRE, (size_t)n, LWS_WRITE_RAW) < 0)
			return -1;
		s->srv->stats.bytes_out += off - start;
	}
	if (off) {	/* an idle session's output may have no buffer at all */
		memmove(out->data, out->data + off, out->len - off);
		out->len -= off;
	}
	srv_web_txbuf_trim(web);
	if (lws_partial_buffered(c->wsi))
		c->want_write = true;	/* the writable callback goes on */
	srv_session_sent(s);
	return 0;
}

static int srv_web_writable(struct srv_web *web, struct srv_web_conn *c)
{
	if (!c->s)
		return -1;	/* the session closed and all it sent is out */
	c->want_write = false;
	return srv_web_send(web, c, c->s);
}

static void srv_web_undirty(struct srv_web_conn *c)
{
	if (c->dirty) {
		srv_list_del(&c->dirty_link);
		c->dirty = false;
	}
}

/*
 * The loop's next turn: each connection with output waiting writes it. A
 * write's srv_session_sent() may queue more (blocks a stream held): that is
 * written in a next pass, up to SRV_WEB_FLUSH_PASSES; what is still waiting
 * then goes by the writable callback, so no session can keep the loop here.
 */
static void srv_web_flush_cb(uv_idle_t *h)
{
	struct srv_web *web = srv_container_of(h, struct srv_web, flush);
	struct srv_list pass, *pos, *tmp;
	struct srv_web_conn *c;
	int i;

	for (i = 0; i < SRV_WEB_FLUSH_PASSES && !srv_list_empty(&web->dirty); i++) {
		srv_list_init(&pass);
		srv_list_splice(&pass, &web->dirty);
		while (!srv_list_empty(&pass)) {
			c = srv_container_of(pass.next, struct srv_web_conn, dirty_link);
			srv_web_undirty(c);
			if (c->s && !c->want_write && srv_web_send(web, c, c->s) < 0)
				lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
		}
	}
	srv_list_for_each_safe(pos, tmp, &web->dirty) {
		c = srv_container_of(pos, struct srv_web_conn, dirty_link);
		srv_web_undirty(c);
		c->want_write = true;
		lws_callback_on_writable(c->wsi);
	}
	uv_idle_stop(h);
}

static void srv_web_closed(struct srv_web_conn *c)
{
	struct srv_session *s = c->s;

	srv_web_undirty(c);
	proto_buf_fini(&c->msg);
	if (!s)
		return;
	c->s = NULL;
	s->tx_conn = NULL;
	srv_session_close(s);
}

/* ---- Origin ---- */

/*
 * May a page from @origin open the WebSocket? The page's own origin (the
 * Host it asked: the built-in page), or one of --http-origin ("*": any). A
 * client that sends no Origin is no browser page: AUTH guards it as on TCP.
 */
static bool srv_web_origin_ok(struct srv_web *web, struct lws *wsi)
{
	const struct srv_config *cfg = &web->srv->cfg;
	char origin[256], host[256], same[272];
	int i;

	if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
		return true;
	if (lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN) <= 0)
		return false;
	for (i = 0; i < cfg->nhttp_origin; i++)
		if (!strcmp(cfg->http_origin[i], "*") || !strcmp(cfg->http_origin[i], origin))
			return true;
	if (lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST) <= 0)
		return false;
	snprintf(same, sizeof(same), "http://%s", host);
	return !strcmp(origin, same);
}

/*
 * Is the request's Host one this daemon answers (web_guard.h)? If not: 403,
 * and a log line that says how to allow it. A request without Host is no
 * browser's (they all send it): AUTH guards it as on TCP.
 * Return: true when refused (the 403 is queued).
 */
static bool srv_web_host_refused(struct srv_web *web, struct lws *wsi)
{
	char host[SRV_WEB_HOST_NAME_MAX], name[SRV_WEB_HOST_NAME_MAX], peer[64];
	const struct srv_web_tag *tag = lws_get_opaque_user_data(wsi);
	bool wildcard = tag && tag->wildcard;

	if (lws_hdr_total_length(wsi, WSI_TOKEN_HOST) <= 0)
		return false;
	if (lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST) <= 0)
		snprintf(name, sizeof(name), "(over %zu bytes)", sizeof(host) - 1);
	else if (srv_web_host_allowed(&web->srv->cfg, web->self, host, lws_get_socket_fd(wsi),
				      wildcard, name, sizeof(name)))
		return false;
	srv_web_peer(wsi, peer, sizeof(peer));
	srv_info(&web->srv->log, "web %s: Host '%.80s' refused (DNS rebinding guard); if the "
		 "daemon is reached by that name, allow it with --http-host %.80s", peer, name,
		 name);
	lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN,
			       "Host not allowed (see --http-host in iiowired(8))");
	return true;
}

/* Only GET /ws, from an allowed origin, while the daemon is not stopping. */
static int srv_web_filter(struct srv_web *web, struct lws *wsi)
{
	char uri[16], peer[64];

	if (web->stopping)
		return 1;
	if (lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, "/ws"))
		return 1;
	if (srv_web_origin_ok(web, wsi))
		return 0;
	srv_web_peer(wsi, peer, sizeof(peer));
	srv_info(&web->srv->log, "web %s: WebSocket refused: Origin not allowed (--http-origin)",
		 peer);
	return 1;
}

/* ---- HTTP: the page and /healthz ---- */

static const struct srv_web_file *srv_web_file_find(const char *url)
{
	const struct srv_web_file *f;

	for (f = srv_web_files; f->url; f++)
		if (!strcmp(f->url, url))
			return f;
	return NULL;
}

/* The answer's status line and headers; the body follows when writable. */
static int srv_web_headers(struct lws *wsi, unsigned int status, const char *type, size_t len)
{
	static const char csp[] = "default-src 'self'; connect-src 'self'; "
				  "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";
	unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start;
	unsigned char *end = buf + sizeof(buf) - 1;

	if (lws_add_http_common_headers(wsi, status, type, len, &p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
					(const unsigned char *)"no-cache", 8, &p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"x-content-type-options:",
					(const unsigned char *)"nosniff", 7, &p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"content-security-policy:",
					(const unsigned char *)csp, (int)strlen(csp), &p, end))
		return 1;
	return lws_finalize_write_http_header(wsi, start, &p, end) ? 1 : 0;
}

static int srv_web_http(struct srv_web *web, struct srv_web_conn *c, struct lws *wsi,
			const char *url)
{
	const struct srv_web_file *f;
	unsigned int status = HTTP_STATUS_OK;
	bool head = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0;
	const char *type = "text/plain; charset=utf-8";
	int n;

	memset(c, 0, sizeof(*c));
	if (srv_web_host_refused(web, wsi))
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	if (!head && lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0) {
		lws_return_http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, NULL);
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	}
	if (!strcmp(url, "/healthz")) {
		n = snprintf(c->small, sizeof(c->small), "%s %d devices\n",
			     web->stopping ? "stopping" : "ok",
			     iio_registry_count(web->srv->board->reg));
		status = web->stopping ? HTTP_STATUS_SERVICE_UNAVAILABLE : HTTP_STATUS_OK;
		c->body = (const unsigned char *)c->small;
		c->body_left = (size_t)n;
	} else if ((f = srv_web_file_find(url))) {
		type = f->type;
		c->body = f->data;
		c->body_left = f->len;
	} else {
		lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	}
	if (srv_web_headers(wsi, status, type, c->body_left))
		return 1;
	if (head)
		c->body_left = 0;
	lws_callback_on_writable(wsi);
	return 0;
}

static int srv_web_http_writable(struct srv_web *web, struct srv_web_conn *c, struct lws *wsi)
{
	size_t n = c->body_left < SRV_WEB_HTTP_CHUNK_BYTES ? c->body_left :
			SRV_WEB_HTTP_CHUNK_BYTES;
	bool last = n == c->body_left;
	unsigned char *p;

	p = srv_web_txbuf(web, n);
	if (!p)
		return -1;
	memcpy(p, c->body, n);
	if (lws_write(wsi, p, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n)
		return -1;
	c->body += n;
	c->body_left -= n;
	if (!last) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int srv_web_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
			    void *in, size_t len)
{
	struct srv_web_conn *c = user;
	struct srv_web *web;

	switch (reason) {
	case LWS_CALLBACK_HTTP:
		return srv_web_http(srv_web_of(wsi), c, wsi, in);
	case LWS_CALLBACK_HTTP_WRITEABLE:
		return srv_web_http_writable(srv_web_of(wsi), c, wsi);
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		/* >0: refused with our own 403, before the handshake is answered */
		return srv_web_host_refused(srv_web_of(wsi), wsi) ? 1 : 0;
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return srv_web_filter(srv_web_of(wsi), wsi);
	case LWS_CALLBACK_ESTABLISHED:
		srv_web_established(srv_web_of(wsi), c, wsi);
		return 0;
	case LWS_CALLBACK_RECEIVE:
		srv_web_receive(c, in, len);
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		web = srv_web_of(wsi);
		return srv_web_writable(web, c);
	case LWS_CALLBACK_CLOSED:
		srv_web_closed(c);
		return 0;
	case LWS_CALLBACK_WSI_DESTROY:
		srv_web_destroyed(srv_web_of(wsi), wsi);
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static const struct lws_protocols srv_web_protocols[] = {
	{
		.name = "iiowire",
		.callback = srv_web_callback,
		.per_session_data_size = sizeof(struct srv_web_conn),
		.rx_buffer_size = SRV_WEB_RX_CHUNK_BYTES,
	},
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

/* ---- life cycle ---- */

int srv_web_start(struct srv *srv, char *err, size_t errlen)
{
	struct lws_context_creation_info info;
	struct srv_web *web;
	void *loops[1];

	web = calloc(1, sizeof(*web));
	if (!web)
		return -ENOMEM;
	web->srv = srv;
	srv->web = web;
	srv_list_init(&web->dirty);
	/*
	 * libwebsockets logs each peer's bad input unthrottled ("Ran out of header
	 * data space"), to stderr: only at --log-level debug; refusals that matter
	 * are the daemon's own log lines.
	 */
	lws_set_log_level(srv->cfg.log_level >= SRV_LOG_DEBUG ? LLL_ERR | LLL_WARN : 0, NULL);
	memset(&info, 0, sizeof(info));
	loops[0] = &srv->loop;
	info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_VALIDATE_UTF8;
	info.foreign_loops = loops;
	info.port = CONTEXT_PORT_NO_LISTEN_SERVER;
	info.protocols = srv_web_protocols;
	info.max_http_header_data = SRV_WEB_HEADER_MAX_BYTES;
	info.max_http_header_pool = SRV_WEB_HEADER_POOL;
	info.timeout_secs = SRV_WEB_HTTP_TIMEOUT_S;
	info.user = web;
	/* on a foreign loop the context goes in steps: lws clears web->ctx when gone */
	info.pcontext = &web->ctx;
	web->ctx = lws_create_context(&info);
	if (!web->ctx) {
		snprintf(err, errlen, "--http-listen: libwebsockets could not start on the "
			 "daemon's libuv loop (is libwebsockets-evlib-uv installed?)");
		return -ENOPKG;
	}
	web->vh = lws_get_vhost_by_name(web->ctx, "default");
	uv_idle_init(&srv->loop, &web->flush);
	web->flush_init = true;
	if (gethostname(web->self, sizeof(web->self)) < 0)
		web->self[0] = '\0';
	web->self[sizeof(web->self) - 1] = '\0';
	return 0;
}

static void srv_web_handle_free(uv_handle_t *handle)
{
	free(handle);
}

/*
 * A tag for the connection @fd from @l, counted for its address.
 * Return: the tag, or NULL (the address has SRV_WEB_HTTP_PER_ADDR_MAX, no memory).
 */
static struct srv_web_tag *srv_web_tag_new(struct srv_web *web, struct srv_listener *l, int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct srv_web_tag *tag;
	uv_os_fd_t lfd;

	tag = calloc(1, sizeof(*tag));
	if (!tag || getpeername(fd, (struct sockaddr *)&ss, &sl) < 0) {
		free(tag);
		return NULL;
	}
	tag->peer = srv_web_addr_of((struct sockaddr *)&ss);
	if (srv_web_peers_take(&web->peers, &tag->peer, SRV_WEB_HTTP_PER_ADDR_MAX)) {
		srv_debug(&web->srv->log, "web: connection on %s closed: its address has %d "
			  "in HTTP", l->name, SRV_WEB_HTTP_PER_ADDR_MAX);
		free(tag);
		return NULL;
	}
	tag->counted = true;
	tag->wildcard = uv_fileno(&l->h.handle, &lfd) == 0 && srv_web_host_wildcard(lfd);
	return tag;
}

/* libuv accepted it; libwebsockets gets its own descriptor of the socket. */
static int srv_web_accept_fd(struct srv_listener *l)
{
	uv_tcp_t *t;
	uv_os_fd_t fd;
	int nfd = -1;

	t = malloc(sizeof(*t));
	if (!t || uv_tcp_init(&l->srv->loop, t) < 0) {
		free(t);
		return -1;
	}
	if (uv_accept(&l->h.stream, (uv_stream_t *)t) == 0 &&
	    uv_fileno((uv_handle_t *)t, &fd) == 0) {
		uv_tcp_nodelay(t, 1);
		nfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	}
	uv_close((uv_handle_t *)t, srv_web_handle_free);
	return nfd;
}

void srv_web_accept(struct srv_listener *l)
{
	struct srv_web *web = l->srv->web;
	struct srv_web_tag *tag;
	struct lws *wsi;
	int nfd = srv_web_accept_fd(l);

	if (nfd < 0)
		return;
	if (!web || web->stopping || !(tag = srv_web_tag_new(web, l, nfd))) {
		srv_debug(&l->srv->log, "web: connection on %s not taken", l->name);
		close(nfd);
		return;
	}
	/* on failure libwebsockets has closed the descriptor itself */
	wsi = lws_adopt_socket_vhost(web->vh, nfd);
	if (!wsi) {
		srv_debug(&l->srv->log, "web: connection on %s not taken", l->name);
		srv_web_peers_put(&web->peers, &tag->peer);
		free(tag);
		return;
	}
	/* set once adopted: a wsi that fails within the adoption has no tag to free */
	lws_set_opaque_user_data(wsi, tag);
}

void srv_web_stop(struct srv *srv)
{
	if (srv->web)
		srv->web->stopping = true;
}

void srv_web_close(struct srv *srv)
{
	struct srv_web *web = srv->web;

	if (!web || web->closed)
		return;
	web->closed = true;
	web->stopping = true;
	if (web->flush_init)
		uv_close((uv_handle_t *)&web->flush, NULL);
	lws_context_destroy(web->ctx);
}

void srv_web_free(struct srv *srv)
{
	struct srv_web *web = srv->web;

	if (!web)
		return;
	/* the loop has ended: the context's last step (its memory) is taken now */
	if (web->ctx)
		lws_context_destroy(web->ctx);
	free(web->tx);
	srv_web_peers_free(&web->peers);
	free(web);
	srv->web = NULL;
}
