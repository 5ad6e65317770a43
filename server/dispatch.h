/*
 * dispatch.h - from one request line to the core calls that answer it.
 *
 * dispatch.c decodes a line with the protocol's decoder and runs the
 * request's handler from a table indexed by op: listings and metadata are
 * answered at once from the registry; attribute and consumer-channel I/O
 * runs on the loop for devices that cannot block and on the bus worker
 * (busq.c) for those that can, its reply slot filled when the result comes
 * back. Place in the flow: session -> *dispatch* -> core / busq. It never
 * touches sockets: replies go to srv_session_out() or a reply slot.
 */
#ifndef IIOWIRE_SRV_DISPATCH_H
#define IIOWIRE_SRV_DISPATCH_H

#include <stddef.h>

#include "proto.h"

struct srv;
struct srv_session;
struct srv_busq;
struct iio_dev;

/* Wrong AUTH tokens a connection may send before it is closed. */
#define SRV_AUTH_ATTEMPTS_MAX		3
/* How long a wrong AUTH waits before its answer (guessing costs time). */
#define SRV_AUTH_FAIL_DELAY_MS		1000

/* Longest text READ line a session remembers decoded (struct srv_memo). */
#define SRV_MEMO_LINE_MAX_BYTES		96

/**
 * srv_dispatch_line() - decode and answer one request line of @s.
 * @line/@len: borrowed for the call (the splitter's).
 */
void srv_dispatch_line(struct srv_session *s, const char *line, size_t len);

/** srv_dispatch_session_fini() - free what dispatch keeps per session (its memo). */
void srv_dispatch_session_fini(struct srv_session *s);

/**
 * srv_dispatch_error() - append an error reply in @req's spelling (a plain
 * text line when @req is NULL) and count it.
 * @fmt: the message; NULL for the errno's default message.
 */
void srv_dispatch_error(struct srv_session *s, const struct proto_request *req, int err,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));

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
