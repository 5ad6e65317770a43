/*
 * session.h - one client connection: bytes in, lines out, in request order.
 *
 * A session reads into the server's shared read buffer, cuts lines with the
 * protocol's splitter and hands each to dispatch. Replies leave in the order
 * the requests came even when device I/O ends out of order: a request that
 * goes to a bus worker reserves a reply slot, later replies queue behind it,
 * and slots are flushed in order as they fill. Output is bounded: above
 * SRV_OUT_PAUSE_BYTES queued the session stops reading (its peer must drain
 * first), and only pushed events can grow it further, up to the soft and hard
 * limits that close it. Place in the flow: listener -> *session* -> dispatch.
 * A session is freed only from its handle's close callback.
 */
#ifndef IIOWIRE_SRV_SESSION_H
#define IIOWIRE_SRV_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "list.h"
#include "proto.h"

struct srv;
struct srv_session;
struct srv_memo;

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

/**
 * srv_out_send() - put the output buffered in @out on @stream: a
 * uv_try_write first, and what the kernel does not take in one write
 * request of the caller's (@wreq), whose buffer moves to *@wdata; the
 * caller frees it in @cb. Shared by the native and the iiod sessions.
 * @bytes_out: counter the bytes handed to the stream are added to.
 * Return: 1 with a write request in flight, 0 when all went out (or
 * @out was empty), or a negative libuv error (the caller closes).
 */
int srv_out_send(uv_stream_t *stream, struct proto_buf *out, uv_write_t *wreq, uv_write_cb cb,
		 char **wdata, uint64_t *bytes_out);

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
 * struct srv_session - one connection. Made by srv_session_accept(),
 * ended by srv_session_close(); freed in the close callback.
 */
struct srv_session {
	union {
		uv_handle_t handle;
		uv_stream_t stream;
		uv_tcp_t tcp;
		uv_pipe_t pipe;
	} h;
	struct srv *srv;
	struct srv_list node;		/* srv->sessions */
	struct srv_list yield_node;	/* srv->yielded: resume on the next turn */
	uint64_t id;
	char peer[64];			/* "127.0.0.1:51234", for logs */

	/* input */
	struct proto_splitter sp;
	char *deferred;			/* received, not yet split: paused (owned) */
	size_t deferred_len;
	uint64_t last_request_ms;	/* uv_now of the last complete line */
	uint64_t partial_since_ms;	/* an unfinished line began; 0: none */

	/* output, oldest first: wbuf (the kernel has part of it), then out */
	struct proto_buf out;		/* ready, not yet handed to a write */
	char *wdata;			/* owned by wreq until its callback */
	uv_write_t wreq;
	uint64_t over_soft_since_ms;	/* queued output above the soft limit since */
	struct proto_buf sink;		/* swallows output once the session is broken */

	/* replies waiting for device I/O, in request order */
	struct srv_slot *slots_head, *slots_tail;
	unsigned int inflight;

	/* watches (watch.c) */
	struct srv_list watches;
	unsigned int nwatches;

	/* dispatch.c's */
	struct srv_memo *memo;		/* the last READ line, decoded (owned) */
	const char *cur_line;		/* the line being answered (borrowed, for the call) */
	size_t cur_len;

	/* authentication (dispatch.c) */
	unsigned int auth_failures;
	bool authed;
	bool auth_pending;		/* a failed AUTH's delayed answer is queued */

	bool writing;			/* wreq in flight */
	bool reading;			/* uv_read_start is on */
	bool paused;			/* stopped reading: output or in-flight limit */
	bool eof;			/* the peer half-closed */
	bool close_after_flush;		/* answer what is queued, then close */
	bool closing;			/* uv_close called */
	bool rejected;			/* over --max-clients: never counted */
	bool broken;			/* out of memory: drop output, close */
	bool in_feed;			/* inside srv_session_feed(): no re-entry */
};

/** srv_session_accept() - accept one connection on @server (a listener). */
void srv_session_accept(struct srv *srv, uv_stream_t *server, bool is_unix);

/**
 * srv_session_close() - close now, whatever is queued (errors, shutdown
 * grace over). Pending slots are detached; memory goes in the close callback.
 */
void srv_session_close(struct srv_session *s);

/**
 * srv_session_finish() - stop taking requests; answer what is in flight,
 * flush, then close (QUIT, E2BIG, shutdown).
 */
void srv_session_finish(struct srv_session *s);

/**
 * srv_session_out() - where the next reply goes so it keeps its order:
 * the output buffer, or the last ready slot when replies are still waiting.
 * Return: borrowed until control returns to the loop; never NULL (a sink
 * that drops everything once the session ran out of memory).
 */
struct proto_buf *srv_session_out(struct srv_session *s);

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

/** srv_session_queued() - bytes of output not yet accepted by the kernel. */
size_t srv_session_queued(const struct srv_session *s);

/** srv_session_resume() - go on with deferred input and reading once limits allow. */
void srv_session_resume(struct srv_session *s);

/** srv_session_sweep() - timeouts and the soft output limit; @now is uv_now. */
void srv_session_sweep(struct srv_session *s, uint64_t now);

#endif /* IIOWIRE_SRV_SESSION_H */
