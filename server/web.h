/*
 * web.h - iiowired's HTTP face (--http-listen): the built-in page, /healthz
 * and a WebSocket whose messages are the native protocol's JSON requests
 * and replies.
 *
 * libwebsockets does the HTTP and WebSocket framing on the daemon's own
 * libuv loop (a foreign loop to it, through Debian's libwebsockets-evlib-uv
 * plugin). The listening sockets are ordinary listeners of listener.c
 * (srv_listen_http): each accepted socket is handed to libwebsockets, and
 * a WebSocket, once its handshake is done, becomes a session speaking
 * srv_proto_web (a row of struct srv_proto_ops whose transport is
 * libwebsockets), under the same limits, AUTH, --read-only and
 * --allow-write as TCP. Place in the flow: listener -> *web* (framing) ->
 * session -> dispatch. Loop thread only.
 */
#ifndef IIOWIRE_SRV_WEB_H
#define IIOWIRE_SRV_WEB_H

#include <stdbool.h>
#include <stddef.h>

#include "proto.h"

struct srv;
struct srv_listener;

/* ---- limits (each in --help and PROTOCOL.md "WEBSOCKET") ---- */

/* longest WebSocket message (one request): a request line's limit */
#define SRV_WEB_MESSAGE_MAX_BYTES	PROTO_LINE_MAX_BYTES
/* bytes of a frame libwebsockets hands over in one go */
#define SRV_WEB_RX_CHUNK_BYTES		4096
/* all of a request's HTTP headers together; more is refused (431 or close) */
#define SRV_WEB_HEADER_MAX_BYTES	4096
/* connections whose HTTP headers are being read at once; more wait their turn */
#define SRV_WEB_HEADER_POOL		32
/* an HTTP request (headers, handshake) must be complete within this time */
#define SRV_WEB_HTTP_TIMEOUT_S		10
/*
 * connections one address may have in HTTP (reading headers, or served the
 * page; a WebSocket is a session and counts under --max-clients instead):
 * more are closed at once. Below SRV_WEB_HEADER_POOL, so that one address
 * sending slow headers never holds every header buffer; above a browser's
 * 6 connections per host. (libwebsockets' own ip_limit_ah needs
 * LWS_WITH_PEER_LIMITS, which Debian's build leaves out.)
 */
#define SRV_WEB_HTTP_PER_ADDR_MAX	8
/* a page file goes out in pieces of this size */
#define SRV_WEB_HTTP_CHUNK_BYTES	16384

/**
 * struct srv_web_file - one file of the page, built in (cmake/embed.cmake).
 * @url: its path ("/", "/app.js"); @type: its Content-Type.
 */
struct srv_web_file {
	const char *url;
	const char *type;
	const unsigned char *data;
	size_t len;
};

/* The page's files, ending with an entry whose @url is NULL (generated). */
extern const struct srv_web_file srv_web_files[];

/**
 * srv_web_start() - the libwebsockets context on srv->loop, before the
 * --http-listen listeners open (srv_start()).
 * Return: 0, or -errno with @err (the event-loop plugin missing, ...).
 */
int srv_web_start(struct srv *srv, char *err, size_t errlen);

/**
 * srv_web_accept() - hand the connection waiting on @l (an --http-listen
 * listener) to libwebsockets; it becomes a session if it asks for the
 * WebSocket.
 */
void srv_web_accept(struct srv_listener *l);

/**
 * srv_web_stop() - refuse new WebSockets and answer /healthz 503 (shutdown
 * began); idempotent, NULL-safe context.
 */
void srv_web_stop(struct srv *srv);

/**
 * srv_web_close() - destroy the context once no session is left; its
 * handles close on the loop, which must then run to its end. Idempotent.
 */
void srv_web_close(struct srv *srv);

/** srv_web_free() - free what is left after the loop ended; NULL-safe. */
void srv_web_free(struct srv *srv);

#endif /* IIOWIRE_SRV_WEB_H */
