/*
 * listener.c - parse listen specs, bind, listen, accept into sessions.
 *
 * Names are resolved once, at start, before the loop runs (getaddrinfo may
 * block; nothing is being served yet). IPv6 sockets are IPv6-only so that
 * "127.0.0.1:P" and "[::1]:P" can both be bound. A unix socket path left
 * behind by a dead daemon is removed only after a connect() to it is
 * refused, so a live daemon's socket is never stolen. Place in the flow:
 * wire -> *listener* -> session. It must not read from or write to clients.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "listener.h"
#include "session.h"
#include "srv.h"

static void srv_listener_connection_cb(uv_stream_t *server, int status)
{
	struct srv_listener *l = srv_container_of(server, struct srv_listener, h.stream);

	if (status < 0) {
		/* EMFILE and friends: libuv's reserve-fd trick already shed the peer */
		srv_warn(&l->srv->log, "accept on %s: %s", l->name, uv_strerror(status));
		return;
	}
	srv_session_accept(l->srv, server, l->is_unix);
}

static void srv_listener_close_cb(uv_handle_t *handle)
{
	struct srv_listener *l = srv_container_of(handle, struct srv_listener, h.handle);

	free(l);
}

/* Close one listener; its memory goes in the close callback. */
static void srv_listener_close(struct srv_listener *l)
{
	srv_list_del(&l->node);
	if (l->is_unix && l->path[0])
		unlink(l->path);
	uv_close(&l->h.handle, srv_listener_close_cb);
}

void srv_listener_close_all(struct srv *srv)
{
	struct srv_list *pos, *tmp;

	srv_list_for_each_safe(pos, tmp, &srv->listeners)
		srv_listener_close(srv_container_of(pos, struct srv_listener, node));
}

/* The name of a bound TCP socket, with the port the kernel picked for port 0. */
static void srv_listener_name(struct srv_listener *l)
{
	struct sockaddr_storage ss;
	int len = sizeof(ss);
	char host[48] = "?";

	if (uv_tcp_getsockname(&l->h.tcp, (struct sockaddr *)&ss, &len) < 0)
		return;
	if (ss.ss_family == AF_INET6) {
		uv_ip6_name((struct sockaddr_in6 *)&ss, host, sizeof(host));
		snprintf(l->name, sizeof(l->name), "[%s]:%u", host,
			 ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	} else {
		uv_ip4_name((struct sockaddr_in *)&ss, host, sizeof(host));
		snprintf(l->name, sizeof(l->name), "%s:%u", host,
			 ntohs(((struct sockaddr_in *)&ss)->sin_port));
	}
}

/* Remove a stale socket file: only when nobody answers on it. */
static int srv_listener_unix_stale(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, ret;

	if (lstat(path, &st) < 0)
		return 0;
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "unix:%s: exists and is not a socket", path);
		return -EEXIST;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	ret = connect(fd, (struct sockaddr *)&sun, sizeof(sun));
	close(fd);
	if (ret == 0) {
		snprintf(err, errlen, "unix:%s: another server is listening there", path);
		return -EADDRINUSE;
	}
	unlink(path);
	return 0;
}

static int srv_listener_open_unix(struct srv *srv, const char *path, char *err, size_t errlen)
{
	struct srv_listener *l;
	int ret;

	if (!*path || strlen(path) >= sizeof(l->path)) {
		snprintf(err, errlen, "unix:%s: path empty or longer than %zu bytes", path,
			 sizeof(l->path) - 1);
		return -EINVAL;
	}
	ret = srv_listener_unix_stale(path, err, errlen);
	if (ret < 0)
		return ret;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->srv = srv;
	l->is_unix = true;
	srv_list_init(&l->node);
	snprintf(l->name, sizeof(l->name), "unix:%s", path);
	ret = uv_pipe_init(&srv->loop, &l->h.pipe, 0);
	if (ret < 0) {
		free(l);
		goto err_msg;
	}
	srv_list_add_tail(&srv->listeners, &l->node);
	ret = uv_pipe_bind(&l->h.pipe, path);
	if (ret < 0)
		goto err_close;
	snprintf(l->path, sizeof(l->path), "%s", path);
	ret = uv_listen(&l->h.stream, SRV_LISTEN_BACKLOG, srv_listener_connection_cb);
	if (ret < 0)
		goto err_close;
	srv_info(&srv->log, "listening on %s", l->name);
	return 1;

err_close:
	srv_listener_close(l);
err_msg:
	snprintf(err, errlen, "unix:%s: %s", path, uv_strerror(ret));
	return ret;
}

/* Split "host:port" / "[v6]:port"; @host gets the host ("" when none). */
static int srv_listener_split(const char *spec, char *host, size_t hostlen, char *port,
			      size_t portlen)
{
	const char *colon, *h = spec, *hend;

	if (spec[0] == '[') {
		hend = strchr(spec, ']');
		if (!hend || hend[1] != ':')
			return -EINVAL;
		h = spec + 1;
		colon = hend + 1;
	} else {
		colon = strrchr(spec, ':');
		if (!colon || memchr(spec, ':', (size_t)(colon - spec)))
			return -EINVAL;	/* a bare IPv6 address needs brackets */
		hend = colon;
	}
	if ((size_t)(hend - h) >= hostlen || strlen(colon + 1) >= portlen || !colon[1])
		return -EINVAL;
	memcpy(host, h, (size_t)(hend - h));
	host[hend - h] = '\0';
	strcpy(port, colon + 1);
	if (strspn(port, "0123456789") != strlen(port) || atol(port) > 65535)
		return -EINVAL;
	return 0;
}

int srv_listener_check(const char *spec, char *err, size_t errlen)
{
	char host[256], port[8];
	size_t max = sizeof(((struct srv_listener *)NULL)->path);

	if (strncmp(spec, "unix:", 5) == 0) {
		if (!spec[5] || strlen(spec + 5) >= max) {
			snprintf(err, errlen, "%s: path empty or longer than %zu bytes", spec,
				 max - 1);
			return -EINVAL;
		}
		return 0;
	}
	if (srv_listener_split(spec, host, sizeof(host), port, sizeof(port)) < 0) {
		snprintf(err, errlen, "%s: not HOST:PORT (port 0 to 65535), [IPV6]:PORT or "
			 "unix:PATH", spec);
		return -EINVAL;
	}
	return 0;
}

static bool srv_listener_unavailable(int ret)
{
	return ret == UV_EADDRNOTAVAIL || ret == UV_EAFNOSUPPORT;
}

int srv_listener_open(struct srv *srv, const char *spec, bool quiet_unavailable,
		      char *err, size_t errlen)
{
	struct addrinfo hints = {
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *res, *ai;
	struct srv_listener *l;
	char host[256], port[8];
	int ret, opened = 0;

	if (strncmp(spec, "unix:", 5) == 0)
		return srv_listener_open_unix(srv, spec + 5, err, errlen);
	if (srv_listener_split(spec, host, sizeof(host), port, sizeof(port)) < 0) {
		snprintf(err, errlen, "%s: not HOST:PORT (port 0 to 65535), [IPV6]:PORT or "
			 "unix:PATH", spec);
		return -EINVAL;
	}
	ret = getaddrinfo(host[0] && strcmp(host, "*") ? host : NULL, port, &hints, &res);
	if (ret) {
		snprintf(err, errlen, "%s: %s", spec, gai_strerror(ret));
		return -EINVAL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		l = calloc(1, sizeof(*l));
		if (!l) {
			ret = -ENOMEM;
			goto err_free_res;
		}
		l->srv = srv;
		srv_list_init(&l->node);
		ret = uv_tcp_init_ex(&srv->loop, &l->h.tcp, (unsigned int)ai->ai_family);
		if (ret < 0) {
			free(l);
			if (quiet_unavailable && srv_listener_unavailable(ret))
				continue;
			goto err_msg;
		}
		srv_list_add_tail(&srv->listeners, &l->node);
		ret = uv_tcp_bind(&l->h.tcp, ai->ai_addr,
				  ai->ai_family == AF_INET6 ? UV_TCP_IPV6ONLY : 0);
		if (ret == 0)
			ret = uv_listen(&l->h.stream, SRV_LISTEN_BACKLOG,
					srv_listener_connection_cb);
		if (ret < 0) {
			srv_listener_close(l);
			if (quiet_unavailable && srv_listener_unavailable(ret)) {
				srv_debug(&srv->log, "not listening on %s: %s", spec,
					  uv_strerror(ret));
				continue;
			}
			goto err_msg;
		}
		srv_listener_name(l);
		srv_info(&srv->log, "listening on %s", l->name);
		opened++;
	}
	freeaddrinfo(res);
	return opened;

err_msg:
	snprintf(err, errlen, "%s: %s", spec, uv_strerror(ret));
err_free_res:
	freeaddrinfo(res);
	return ret;
}
