/*
 * exporter_deadline.h - a whole-request deadline for iiowire-exporter's HTTP
 * connections (libmicrohttpd): a request's headers must be complete within
 * EXP_DEADLINE_S of the connection's opening, or of the previous answer on a
 * kept-alive connection, else the connection is shut down.
 *
 * Why: libmicrohttpd's MHD_OPTION_CONNECTION_TIMEOUT is an idle timeout,
 * restarted by every byte, so a client sending one header line every few
 * seconds keeps its connection (and, one thread per connection, a slot of
 * the 64) for ever; 64 such clients deny /metrics. This is Apache's
 * mod_reqtimeout "header=" for libmicrohttpd, which has no such option.
 *
 * How: libmicrohttpd tells (MHD_OPTION_NOTIFY_CONNECTION) when a connection
 * opens and closes and (MHD_OPTION_NOTIFY_COMPLETED) when an answer is done;
 * the access handler says when headers are complete. One watchdog thread
 * shuts down (shutdown(2), never close) the socket of a connection past its
 * deadline; libmicrohttpd then sees the end and closes it. libmicrohttpd
 * 0.9.75 reports the close before it closes the descriptor, and both sides
 * hold one mutex, so a descriptor is never shut down after its reuse.
 * Place in the flow: HTTP client -> libmicrohttpd -> *deadline* (beside the
 * access handler) -> exporter.c.
 */
#ifndef IIOWIRE_EXPORTER_DEADLINE_H
#define IIOWIRE_EXPORTER_DEADLINE_H

#include <microhttpd.h>

/* Seconds a request's headers may take, from the connection's start or the last answer. */
#define EXP_DEADLINE_S		10
/* How often the watchdog looks (ms): a connection lives at most this much past its deadline. */
#define EXP_DEADLINE_TICK_MS	250

struct exp_deadline;

/**
 * exp_deadline_start() - start the watchdog.
 * Return: it, or NULL with errno set.
 */
struct exp_deadline *exp_deadline_start(void);

/** exp_deadline_stop() - stop the watchdog and free it; after MHD_stop_daemon(). NULL-safe. */
void exp_deadline_stop(struct exp_deadline *dl);

/** exp_deadline_notify() - MHD_OPTION_NOTIFY_CONNECTION's callback; @cls is the watchdog. */
void exp_deadline_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
			 enum MHD_ConnectionNotificationCode toe);

/** exp_deadline_completed() - MHD_OPTION_NOTIFY_COMPLETED's: the next request's time starts. */
void exp_deadline_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			    enum MHD_RequestTerminationCode toe);

/** exp_deadline_headers_done() - from the access handler: this request's headers are in. */
void exp_deadline_headers_done(struct exp_deadline *dl, struct MHD_Connection *conn);

#endif /* IIOWIRE_EXPORTER_DEADLINE_H */
