/*
 * dispatch.h - from one request line to the core calls that answer it.
 *
 * dispatch.c decodes a line with the protocol's decoder and runs the
 * request's handler from a table indexed by op: listings and metadata are
 * answered at once from the registry; attribute and consumer-channel I/O
 * runs on the loop for devices that cannot block and on the bus worker
 * (busq.c) for those that can, its reply slot filled when the result comes
 * back. It is the native protocol's row of the session (srv_proto_native):
 * the session hands it chunks, it cuts and answers lines. Place in the
 * flow: session -> *dispatch* -> core / busq. It never touches sockets:
 * replies go to srv_session_out() or a reply slot.
 */
#ifndef IIOWIRE_SRV_DISPATCH_H
#define IIOWIRE_SRV_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "authpen.h"
#include "list.h"
#include "proto.h"

struct srv;
struct srv_session;
struct srv_busq;
struct iio_dev;
struct srv_memo;
struct srv_play_in;

/* Wrong AUTH tokens a connection may send before it is closed. */
#define SRV_AUTH_ATTEMPTS_MAX		3
/* SRV_AUTH_FAIL_DELAY_MS and the per-source penalties: authpen.h */
/* The least time between two refusals to anyone (at most 20 wrong AUTHs answered a second). */
#define SRV_AUTH_FAIL_GLOBAL_MS		50
/* Wrong AUTHs are logged at most once in this interval, with a count of the rest. */
#define SRV_AUTH_LOG_INTERVAL_MS	10000

/* Longest text READ line a session remembers decoded (struct srv_memo). */
#define SRV_MEMO_LINE_MAX_BYTES		96

/**
 * struct srv_native_conn - a native-protocol session's own state.
 * @watches: its WATCHes (watch.c); @nwatches how many.
 * @memo: a READ line that came twice in a row, decoded (owned; freed when
 *	idle); @memo_print: a fingerprint of the last READ line.
 * @cur_line: the line being answered (borrowed, for the call); @cur_len its bytes.
 * @auth_failures: wrong AUTH tokens so far; @authed: a right one came.
 * @streams: its STREAMs (stream.c); @nstreams how many; @next_stream the
 *	last id given (ids are never reused on a connection).
 * @evsubs: its SUBSCRIBEs (events.c); @nevsubs how many; @ev_flush: it
 *	is on the events' list of sessions to flush after a walk.
 * @plays: its PLAYs and LOOPs (play.c), numbered with the streams;
 *	@play_in: the SEND whose bytes are being read (owned), or NULL.
 */
struct srv_native_conn {
	struct srv_list watches;
	unsigned int nwatches;
	struct srv_list streams;
	unsigned int nstreams;
	int next_stream;
	struct srv_list evsubs;
	unsigned int nevsubs;
	bool ev_flush;
	struct srv_list plays;
	struct srv_play_in *play_in;
	struct srv_memo *memo;
	uint64_t memo_print;
	const char *cur_line;
	size_t cur_len;
	unsigned int auth_failures;
	bool authed;
};

/* The native text/JSON protocol's row (session.h's struct srv_proto_ops). */
extern const struct srv_proto_ops srv_proto_native;
/* The same requests over a WebSocket (web.c): JSON only, one request per message. */
extern const struct srv_proto_ops srv_proto_web;

/**
 * srv_dispatch_auth_drop_all() - shutdown: every AUTH answer held back (up
 * to SRV_AUTH_PENALTY_MAX_MS) is answered ESHUTDOWN now and its timer goes,
 * so a stop never waits for a guesser's penalty.
 */
void srv_dispatch_auth_drop_all(struct srv *srv);

/* The handlers of their own files: STATS (stats.c), AUTH (auth.c). */
void srv_dispatch_stats(struct srv_session *s, struct proto_request *req);
void srv_dispatch_auth(struct srv_session *s, struct proto_request *req);

/** srv_proto_is_native() - does a session of @proto keep struct srv_native_conn? */
bool srv_proto_is_native(const struct srv_proto_ops *proto);

/**
 * srv_dispatch_attr_error() - answer @err (< 0) of @req's attribute as every
 * device's attribute errors are worded ("dev attr is write-only", "dev
 * attr: invalid argument").
 */
void srv_dispatch_attr_error(struct srv_session *s, const struct proto_request *req, int err);

/**
 * srv_dispatch_line() - answer one request line (text or JSON) of @s, in
 * its order among the session's replies. Loop thread; @line is borrowed.
 */
void srv_dispatch_line(struct srv_session *s, const char *line, size_t len);

/*
 * The native row's state of a session, for a row that speaks the same
 * requests (srv_proto_web): set it up, does it receive events, drop its
 * caches when idle, release it.
 */
void srv_native_open(struct srv_session *s);
bool srv_native_keeps_alive(const struct srv_session *s);
void srv_native_trim(struct srv_session *s);
void srv_native_close(struct srv_session *s);

/**
 * srv_dispatch_find_device() - the device @req->device names, or NULL after
 * answering ENODEV/ENOTUNIQ. Borrowed from the current board.
 */
struct iio_dev *srv_dispatch_find_device(struct srv_session *s, const struct proto_request *req);

/**
 * srv_dispatch_error() - append an error reply in @req's spelling (a plain
 * text line when @req is NULL) and count it.
 * @fmt: the message; NULL for the errno's default message.
 */
void srv_dispatch_error(struct srv_session *s, const struct proto_request *req, int err,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/** srv_dispatch_error_to() - as srv_dispatch_error() into @b; Return: 0 or -ENOMEM. */
int srv_dispatch_error_to(struct srv *srv, struct proto_buf *b, const struct proto_request *req,
			  int err, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/**
 * srv_dispatch_device() - the device @req->device names, or NULL after
 * answering ENODEV or ENOTUNIQ. Return: borrowed, valid while registered.
 */
struct iio_dev *srv_dispatch_device(struct srv_session *s, const struct proto_request *req);

/**
 * srv_dispatch_route() - where I/O on @dev runs: on the loop (0, *q NULL)
 * or on its bus worker (0, *q set). A bus whose worker still has jobs keeps
 * getting them even when the bus no longer says it may block, so one
 * device's I/O never overtakes another's on the same bus, and the loop never
 * waits for a device lock a hung worker holds.
 * Return: 0, or -errno from srv_busq_get().
 */
int srv_dispatch_route(struct srv *srv, struct iio_dev *dev, struct srv_busq **q);

#endif /* IIOWIRE_SRV_DISPATCH_H */
