/*
 * listener.h - the sockets iiowired accepts clients on, for every protocol.
 *
 * A listen option (--listen, --iiod-listen) is a row of struct
 * srv_listen_opt: the address forms it takes, what an empty host means and
 * the protocol its connections speak. Addresses are split by the shared
 * parser (protocol/proto_addr.h); HOST may be a name (every address it
 * resolves to is bound). Each bound address is one struct srv_listener on
 * srv->listeners, accepting into sessions that speak its protocol, with a
 * backlog of SRV_LISTEN_BACKLOG. Place in the flow: wire -> *listener* ->
 * session. A listener is freed only in its close callback; a unix socket's
 * file is removed when it closes.
 */
#ifndef IIOWIRE_SRV_LISTENER_H
#define IIOWIRE_SRV_LISTENER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <uv.h>

#include "list.h"
#include "srv.h"

struct srv;
struct srv_proto_ops;

/**
 * struct srv_listen_opt - one kind of listen option.
 * @option: its name on the command line, for messages ("--listen").
 * @forms: the forms it takes, for messages.
 * @addr_flags: enum proto_addr_flag: the forms it takes.
 * @empty_is_loopback: ":PORT" / "PORT" is 127.0.0.1 and [::1]; else any address.
 * @proto: what connections accepted there speak.
 */
struct srv_listen_opt {
	const char *option;
	const char *forms;
	unsigned int addr_flags;
	bool empty_is_loopback;
	const struct srv_proto_ops *proto;
};

/* --listen: the native protocol; --iiod-listen: libiio's iiod 0.24. */
extern const struct srv_listen_opt srv_listen_native;
extern const struct srv_listen_opt srv_listen_iiod;
/* --http-listen: the page and the WebSocket (web.c takes each connection). */
extern const struct srv_listen_opt srv_listen_http;

struct srv_listener {
	union srv_stream h;
	struct srv *srv;
	const struct srv_proto_ops *proto;
	struct srv_list node;		/* srv->listeners */
	bool is_unix;
	bool from_systemd;		/* passed by systemd (socket activation) */
	char name[128];			/* "127.0.0.1:30432", "unix:/run/iiowired.sock" */
	char path[108];			/* unix socket file, to remove at close */
};

/**
 * srv_listener_check() - is @spec well formed for @opt (the command line's
 * check, before anything is loaded or bound)? Names are not resolved here.
 * Return: 0, or -EINVAL with @err saying why ("--listen X: not ...").
 */
int srv_listener_check(const struct srv_listen_opt *opt, const char *spec, char *err,
		       size_t errlen);

/**
 * srv_listener_open() - bind and listen on every address of @spec.
 * @err: a one-line reason on failure.
 * Return: the number of listeners opened (>= 0), or -errno (-EINVAL for a
 * malformed spec or a name that does not resolve, -EADDRINUSE, -EACCES,
 * ...). Listeners opened before a failure stay on srv->listeners
 * (srv_listener_close_all() ends them).
 */
int srv_listener_open(struct srv *srv, const struct srv_listen_opt *opt, const char *spec,
		      char *err, size_t errlen);

/**
 * srv_listener_open_loopback() - 127.0.0.1:@port and, when the host has
 * IPv6, [::1]:@port, speaking @proto. Return: as srv_listener_open().
 */
int srv_listener_open_loopback(struct srv *srv, const struct srv_proto_ops *proto,
			       const char *port, char *err, size_t errlen);

/**
 * srv_listener_adopt() - serve @proto on @fd, a listening socket systemd
 * passed (socket activation); a unix socket's file stays systemd's.
 * Return: 1, or -errno with @err set (the descriptor is closed then).
 */
int srv_listener_adopt(struct srv *srv, const struct srv_proto_ops *proto, int fd, bool is_unix,
		       char *err, size_t errlen);

/**
 * srv_listener_port() - the TCP port of the first listener of @proto, or
 * with @public_only of the first that other hosts can reach (bound to an
 * address that is not loopback: DNS-SD's). Return: the port, or 0 when
 * there is none.
 */
int srv_listener_port(struct srv *srv, const struct srv_proto_ops *proto, bool public_only);

/**
 * srv_listener_announce_all() - log "listening on ..." for every listener:
 * once all are open, so a daemon that fails on its last address never said
 * it listened on the first.
 */
void srv_listener_announce_all(struct srv *srv);

/** srv_listener_close_all() - stop accepting; memory goes in close callbacks. */
void srv_listener_close_all(struct srv *srv);

/**
 * srv_sockaddr_name() - "127.0.0.1:30432" or "[::1]:30432" for an AF_INET
 * or AF_INET6 @sa; @buf is left as it was for any other family.
 */
void srv_sockaddr_name(const struct sockaddr *sa, char *buf, size_t len);

#endif /* IIOWIRE_SRV_LISTENER_H */
