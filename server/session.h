/*
 * session.h - one client connection, whatever protocol it speaks.
 *
 * Every accepted socket (TCP, unix, the iiod port, a WebSocket through
 * struct srv_transport) is one struct srv_session on srv->sessions, with
 * one lifecycle (enum srv_conn_state), one flags word, one set of limits
 * and timeouts. What the bytes mean is
 * the protocol's: the listener that accepted the connection gives it a row
 * of struct srv_proto_ops (srv_proto_native in dispatch.c, srv_proto_iiod in
 * iiod_proto.c), and the row's private state lives in the session's union.
 * Replies leave in request order even when device I/O ends out of order: a
 * request that goes to a bus worker reserves a reply slot, later replies
 * queue behind it. Output is bounded: above SRV_OUT_PAUSE_BYTES queued the
 * session stops reading, and only pushed events can grow it further, up to
 * the soft and hard limits that close it. Place in the flow: listener ->
 * *session* -> protocol row -> dispatch. server/README.md draws the
 * lifecycle. A session is freed only from its handle's close callback.
 */
#ifndef IIOWIRE_SRV_SESSION_H
#define IIOWIRE_SRV_SESSION_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "dispatch.h"
#include "iiod_proto.h"
#include "list.h"
#include "proto.h"
#include "srv.h"

struct srv;
struct srv_session;
struct srv_listener;

/* ---- per-connection limits (each in --help and PROTOCOL.md) ---- */

/* queued output above which the session stops reading requests */
#define SRV_OUT_PAUSE_BYTES		(256 * 1024)
/* ...and reads again once it is below this */
#define SRV_OUT_RESUME_BYTES		(64 * 1024)
/* queued output (events can push past the pause) above this for long closes */
#define SRV_OUT_SOFT_BYTES		(1024 * 1024)
#define SRV_OUT_SOFT_MS			10000
/* queued output above this closes the session at once */
#define SRV_OUT_HARD_BYTES		(8 * 1024 * 1024)
/* output one session may produce per loop wakeup; the rest of its input waits a turn */
#define SRV_WRITE_BURST_BYTES		(64 * 1024)
/* requests waiting on a bus per session before the session stops reading */
#define SRV_SESSION_INFLIGHT_MAX	64
/* an output buffer bigger than this is freed when it empties (idle memory) */
#define SRV_OUT_KEEP_BYTES		(16 * 1024)
/* a session without a request for this long gives back its buffers and memo (sweep) */
#define SRV_IDLE_TRIM_MS		1000

/**
 * struct srv_proto_ops - one protocol a listener speaks: a row per wire
 * format. The session calls @feed once per chunk read (never per byte).
 * @name: for logs; "" for the native protocol ("session 3"), "iiod " for iiod.
 * @listening: what the listener's log line calls its clients ("" or "for ... ").
 * @line_max: longest request line, for the session's splitter.
 * @inflight_max: requests on a bus before no further input is taken (1:
 *	one request at a time, as iiod answers).
 * @open: optional; set up the row's private state of a new session.
 * @feed: take what it can of @data with srv_session_take()/srv_session_line();
 *	return the bytes consumed (the rest is kept and offered again).
 * @on_eof: the peer half-closed and all input before is answered: handle an
 *	unterminated last line.
 * @error: append an error reply that answers no request (refused, line too
 *	long, line timeout); @msg may be NULL for the errno's default text.
 * @partial: optional; true while the row holds an unfinished request of its
 *	own (a payload), which the line timeout applies to.
 * @waiting: optional; true while the row takes no further input for a
 *	reason of its own (a SEND waiting for room, play.c); when it clears,
 *	the row completes a reply slot, which resumes the reading.

 * @keeps_alive: optional; true while the idle timeout must not apply.
 * @trim: optional; the session has been idle for SRV_IDLE_TRIM_MS: free
 *	what the row keeps only to answer faster (it is made again on use).
 * @close: release the row's private state (readers, subscriptions, watches).
 *	Called only from the handle's close callback, the loop's safe point
 *	(server/README.md, "Who owns what"); until then that state stays
 *	allocated and inert: the session is CLOSING and its output is a sink.
 */
struct srv_proto_ops {
	const char *name;
	const char *listening;
	size_t line_max;
	unsigned int inflight_max;
	void (*open)(struct srv_session *s);
	size_t (*feed)(struct srv_session *s, const char *data, size_t len);
	void (*on_eof)(struct srv_session *s);
	void (*error)(struct srv_session *s, int err, const char *msg);
	bool (*partial)(const struct srv_session *s);
	bool (*waiting)(const struct srv_session *s);
	bool (*keeps_alive)(const struct srv_session *s);
	void (*trim)(struct srv_session *s);
	void (*close)(struct srv_session *s);
};

/**
 * struct srv_transport - how a session's bytes move when no libuv stream of
 * ours carries them (web.c: libwebsockets owns the socket and frames the
 * messages). NULL in a session means its own stream handle. Loop thread.
 * @send: hand what s->out holds to the peer, or arrange to (it may stay in
 *	s->out until the peer can take it). Return: 0, or -errno (closes).
 * @queued: bytes the transport took from s->out and has not sent yet.
 * @rx: start (@on) or stop taking input (the session's limits).
 * @close: the session is closing: end the connection. The session's memory
 *	goes in its handle's close callback, never in this call.
 */
struct srv_transport {
	int (*send)(struct srv_session *s);
	size_t (*queued)(const struct srv_session *s);
	void (*rx)(struct srv_session *s, bool on);
	void (*close)(struct srv_session *s);
};

/**
 * enum srv_conn_state - where a session is in its life; it only moves down.
 * @SRV_CONN_OPEN: taking requests.
 * @SRV_CONN_FINISHING: no further request; what is queued is answered, then closed.
 * @SRV_CONN_CLOSING: uv_close called; freed in the close callback.
 */
enum srv_conn_state {
	SRV_CONN_OPEN,
	SRV_CONN_FINISHING,
	SRV_CONN_CLOSING,
};

/**
 * enum srv_conn_flag - what a session is doing, orthogonal to its state.
 * @SRV_CONN_READING: uv_read_start is on.
 * @SRV_CONN_WRITING: the write request is in flight.
 * @SRV_CONN_PAUSED: stopped reading for a limit (output, requests on a bus).
 * @SRV_CONN_EOF: the peer half-closed.
 * @SRV_CONN_EOF_DONE: ...and the row's @on_eof ran.
 * @SRV_CONN_REJECTED: over --max-clients: never counted in srv->nsessions.
 * @SRV_CONN_BROKEN: out of memory: output is dropped, the session closes.
 * @SRV_CONN_IN_FEED: inside the row's @feed: no re-entry.
 */
enum srv_conn_flag {
	SRV_CONN_READING = 1u << 0,
	SRV_CONN_WRITING = 1u << 1,
	SRV_CONN_PAUSED = 1u << 2,
	SRV_CONN_EOF = 1u << 3,
	SRV_CONN_EOF_DONE = 1u << 4,
	SRV_CONN_REJECTED = 1u << 5,
	SRV_CONN_BROKEN = 1u << 6,
	SRV_CONN_IN_FEED = 1u << 7,
};

/**
 * struct srv_slot - the place of one reply in the session's order.
 * @text: the reply once ready (owned).
 * @ready: the reply is complete; slots leave the queue head-first when ready.
 * @backref: the asynchronous request's pointer to this slot; the session
 *	clears it when it closes first, so a late result finds no slot.
 */
struct srv_slot {
	struct srv_slot *next;
	struct proto_buf text;
	bool ready;
	struct srv_slot **backref;
};

/*
 * struct srv_write - the one write request of a session, made only when the
 * kernel did not take all of its output at once (rare: an idle session holds
 * none). Freed by its callback, which runs before the session's close
 * callback (uv_close cancels it).
 * @data: the bytes (owned); @len: those in the write, counted as sent once
 *	it completes.
 */
struct srv_write {
	uv_write_t req;
	struct srv_session *s;
	char *data;
	size_t len;
};

/*
 * struct srv_session - one connection. Made by srv_session_accept(),
 * ended by srv_session_close(); freed in the close callback.
 */
struct srv_session {
	union srv_stream h;		/* h.idle when @tx is set */
	struct srv *srv;
	const struct srv_proto_ops *proto;
	const struct srv_transport *tx;	/* NULL: h is the socket's stream */
	void *tx_conn;			/* the transport's own state of this connection */
	struct srv_list node;		/* srv->sessions */
	struct srv_list yield_node;	/* srv->yielded: resume on the next turn */
	uint64_t id;
	char peer[64];			/* "127.0.0.1:51234", for logs */
	enum srv_conn_state state;
	unsigned int flags;		/* enum srv_conn_flag */

	/* input */
	struct proto_splitter sp;
	char *deferred;			/* received, not yet taken: waiting (owned) */
	size_t deferred_len;
	uint64_t last_request_ms;	/* uv_now of the last complete line */
	uint64_t partial_since_ms;	/* an unfinished request began; 0: none */
	size_t feed_out0;		/* out.len when this feed began (the write burst) */

	/* output, oldest first: what the kernel has of wr's bytes, then out */
	struct proto_buf out;		/* ready, not yet handed to a write; freed when idle */
	struct srv_write *wr;		/* the write in flight (owned by libuv until its callback) */
	uint64_t over_soft_since_ms;	/* queued output above the soft limit since */
	struct proto_buf sink;		/* swallows output once the session is broken */

	/* replies waiting for device I/O, in request order */
	struct srv_slot *slots_head, *slots_tail;
	unsigned int inflight;

	/* the protocol row's own state (@proto says which) */
	union {
		struct srv_native_conn native;
		struct srv_iiod_conn iiod;
	};
};

/** srv_session_accept() - accept one connection on listener @l, speaking its protocol. */
void srv_session_accept(struct srv_listener *l);

/**
 * srv_session_adopt() - a session for a connection whose transport @tx owns
 * the socket (a WebSocket once its handshake is done), counted and limited
 * as an accepted one: over --max-clients it answers the row's error(-EBUSY)
 * and finishes.
 * @peer: "127.0.0.1:51234", for logs and the AUTH throttle.
 * Return: the session (owned by the server; ends through srv_session_close()),
 * or NULL when out of memory.
 */
struct srv_session *srv_session_adopt(struct srv *srv, const struct srv_proto_ops *proto,
				      const struct srv_transport *tx, void *tx_conn,
				      const char *peer);

/**
 * srv_session_input() - @len bytes came from the peer (a read, or a
 * transport's framing of what it received): feed them to the row; what
 * the limits leave is kept and fed later. STATS' bytes_in is the caller's.
 */
void srv_session_input(struct srv_session *s, const char *data, size_t len);

/**
 * srv_session_close() - close now, whatever is queued (errors, shutdown
 * grace over). Pending slots are detached; nothing is freed here: the row's
 * state and the session's memory go in the close callback, so a caller
 * walking readers or subscriptions may go on after any call that can close
 * a session (server/README.md, "Who owns what").
 */
void srv_session_close(struct srv_session *s);

/**
 * srv_session_finish() - stop taking requests; answer what is in flight,
 * flush, then close (QUIT, EXIT, E2BIG, timeouts, shutdown).
 */
void srv_session_finish(struct srv_session *s);

/** srv_session_closing() - uv_close has been called on @s. */
static inline bool srv_session_closing(const struct srv_session *s)
{
	return s->state == SRV_CONN_CLOSING;
}

/** srv_session_broken() - out of memory: what @s queued can no longer be right. */
static inline void srv_session_broken(struct srv_session *s)
{
	s->flags |= SRV_CONN_BROKEN;
}

/**
 * srv_session_check() - mark @s broken when an encoder failed (@ret < 0).
 * Return: @ret.
 */
static inline int srv_session_check(struct srv_session *s, int ret)
{
	if (ret < 0)
		srv_session_broken(s);
	return ret;
}

/**
 * srv_session_out() - where the next reply goes so it keeps its order:
 * the output buffer, or the last ready slot when replies are still waiting.
 * Return: borrowed until control returns to the loop; never NULL (a sink
 * that drops everything once the session ran out of memory).
 */
struct proto_buf *srv_session_out(struct srv_session *s);

/**
 * srv_session_take() - may the row's @feed go on with the next request?
 * Not when the session is finishing, broken, at a limit (requests on a
 * bus, queued output) or past its write burst for this turn.
 */
bool srv_session_take(struct srv_session *s);

/**
 * srv_session_line() - cut the next request line out of @data and @left
 * (advanced past what was used). A line too long or no memory answers
 * with the row's @error and finishes the session.
 * Return: 1 with the line in @line and @len (borrowed until the next call), 0 when the
 * line is not complete yet, or -errno (the session is finishing).
 */
int srv_session_line(struct srv_session *s, const char **data, size_t *left, const char **line,
		     size_t *len);

/**
 * srv_session_slot_new() - reserve the next reply's place for a result that
 * comes later; fill ->text and call srv_session_slot_done() exactly once.
 * @backref: where the caller keeps the slot pointer; cleared on close.
 * Return: the slot (owned by the session), or NULL on -ENOMEM.
 */
struct srv_slot *srv_session_slot_new(struct srv_session *s, struct srv_slot **backref);

/** srv_session_slot_done() - @slot is filled: send what is now in order. */
void srv_session_slot_done(struct srv_session *s, struct srv_slot *slot);

/**
 * srv_session_flush() - hand queued output to the kernel (uv_try_write
 * first, one uv_write for the rest), then act on limits and half-close.
 * Call after producing output outside the session's own read callback.
 */
void srv_session_flush(struct srv_session *s);

/**
 * srv_session_sent() - the peer took output: send more, close a finished
 * session, read again below SRV_OUT_RESUME_BYTES. @s may be closing after.
 */
void srv_session_sent(struct srv_session *s);

/** srv_session_queued() - bytes of output not yet accepted by the kernel. */
size_t srv_session_queued(const struct srv_session *s);

/** srv_session_resume() - go on with deferred input and reading once limits allow. */
void srv_session_resume(struct srv_session *s);

/**
 * srv_session_sweep() - timeouts and the soft output limit; an idle session
 * gives back its empty buffers and the row's caches. @now is uv_now.
 */
void srv_session_sweep(struct srv_session *s, uint64_t now);

/* One log line at @lvl: "session 3 (127.0.0.1:5000): ..." or "iiod session 3 (...): ..." */
#define srv_session_log(lvl, s, fmt, ...)						\
	srv_log(&(s)->srv->log, lvl, "%ssession %llu (%s): " fmt, (s)->proto->name,	\
		(unsigned long long)(s)->id, (s)->peer, ##__VA_ARGS__)

#endif /* IIOWIRE_SRV_SESSION_H */
