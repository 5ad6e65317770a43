/*
 * listener.h - the sockets iiowired accepts clients on.
 *
 * A listen spec is "HOST:PORT", "[V6ADDR]:PORT" or "unix:PATH"; HOST may
 * be a name (every address it resolves to is bound). Each bound address is
 * one struct srv_listener on srv->listeners, accepting into sessions with a
 * backlog of SRV_LISTEN_BACKLOG. Place in the flow: wire -> *listener* ->
 * session. A listener is freed only in its close callback; a unix socket's
 * file is removed when it closes.
 */
#ifndef IIOWIRE_SRV_LISTENER_H
#define IIOWIRE_SRV_LISTENER_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

#include "list.h"

struct srv;

struct srv_listener {
	union {
		uv_handle_t handle;
		uv_stream_t stream;
		uv_tcp_t tcp;
		uv_pipe_t pipe;
	} h;
	struct srv *srv;
	struct srv_list node;		/* srv->listeners */
	bool is_unix;
	char name[128];			/* "127.0.0.1:30432", "unix:/run/iiowired.sock" */
	char path[108];			/* unix socket file, to remove at close */
};

/**
 * srv_listener_open() - bind and listen on every address of @spec.
 * @quiet_unavailable: an address family the host lacks (no IPv6) is not an
 *	error: return 0 with nothing bound (the default [::1] listener).
 * @err: a one-line reason on failure.
 * Return: the number of listeners opened (>= 0), or -errno (-EINVAL for a
 * malformed spec, -EADDRINUSE, -EACCES, ...). Listeners opened before a
 * failure stay on srv->listeners (srv_listener_close_all() ends them).
 */
int srv_listener_open(struct srv *srv, const char *spec, bool quiet_unavailable,
		      char *err, size_t errlen);

/**
 * srv_listener_check() - is @spec well formed (the command line's check,
 * before anything is loaded or bound)? Names are not resolved here.
 * Return: 0, or -EINVAL with @err saying why.
 */
int srv_listener_check(const char *spec, char *err, size_t errlen);

/** srv_listener_close_all() - stop accepting; memory goes in close callbacks. */
void srv_listener_close_all(struct srv *srv);

#endif /* IIOWIRE_SRV_LISTENER_H */
