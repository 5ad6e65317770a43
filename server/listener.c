/*
 * listener.c - listen options, bind, listen, accept into sessions, for
 * every protocol (see listener.h).
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
#include <sys/stat.h>
#include <netinet/in.h>
#include <sys/un.h>
#include <unistd.h>

#include "iiod_proto.h"
#include "listener.h"
#include "proto_addr.h"
#include "session.h"
#include "srv.h"
#include "web.h"

const struct srv_listen_opt srv_listen_native = {
	.option = "--listen",
	.forms = "HOST:PORT (port 0 to 65535), [IPV6]:PORT or unix:PATH",
	.addr_flags = PROTO_ADDR_UNIX,
	.empty_is_loopback = false,
	.proto = &srv_proto_native,
};

const struct srv_listen_opt srv_listen_iiod = {
	.option = "--iiod-listen",
	.forms = "PORT, :PORT, HOST:PORT or [IPV6]:PORT",
	.addr_flags = PROTO_ADDR_BARE_PORT,
	.empty_is_loopback = true,
	.proto = &srv_proto_iiod,
};

const struct srv_listen_opt srv_listen_http = {
	.option = "--http-listen",
	.forms = "PORT, :PORT, HOST:PORT or [IPV6]:PORT",
	.addr_flags = PROTO_ADDR_BARE_PORT,
	.empty_is_loopback = true,
	.proto = &srv_proto_web,
};

static void srv_listener_connection_cb(uv_stream_t *server, int status)
{
	struct srv_listener *l = srv_container_of(server, struct srv_listener, h.stream);

	if (status < 0) {
		/* EMFILE and friends: libuv's reserve-fd trick already shed the peer */
		srv_warn(&l->srv->log, "accept on %s: %s", l->name, uv_strerror(status));
		return;
	}
	if (l->proto == &srv_proto_web)
		srv_web_accept(l);	/* HTTP first; a session once it is a WebSocket */
	else
		srv_session_accept(l);
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

void srv_sockaddr_name(const struct sockaddr *sa, char *buf, size_t len)
{
	char host[48] = "?";

	if (sa->sa_family == AF_INET6) {
		uv_ip6_name((const struct sockaddr_in6 *)sa, host, sizeof(host));
		snprintf(buf, len, "[%s]:%u", host,
			 ntohs(((const struct sockaddr_in6 *)sa)->sin6_port));
	} else if (sa->sa_family == AF_INET) {
		uv_ip4_name((const struct sockaddr_in *)sa, host, sizeof(host));
		snprintf(buf, len, "%s:%u", host,
			 ntohs(((const struct sockaddr_in *)sa)->sin_port));
	}
}

/* A listener for @proto, not yet on srv->listeners nor initialised as a handle. */
static struct srv_listener *srv_listener_new(struct srv *srv, const struct srv_proto_ops *proto)
{
	struct srv_listener *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->srv = srv;
	l->proto = proto;
	srv_list_init(&l->node);
	return l;
}

/* The name of a bound TCP socket, with the port the kernel picked for port 0. */
static void srv_listener_name(struct srv_listener *l, const struct sockaddr *bound)
{
	struct sockaddr_storage ss;
	int len = sizeof(ss);

	srv_sockaddr_name(bound, l->name, sizeof(l->name));
	if (uv_tcp_getsockname(&l->h.tcp, (struct sockaddr *)&ss, &len) == 0)
		srv_sockaddr_name((struct sockaddr *)&ss, l->name, sizeof(l->name));
}

void srv_listener_announce_all(struct srv *srv)
{
	struct srv_list *pos, *tmp;
	struct srv_listener *l;

	srv_list_for_each_safe(pos, tmp, &srv->listeners) {
		l = srv_container_of(pos, struct srv_listener, node);
		srv_info(&srv->log, "listening %son %s%s", l->proto->listening, l->name,
			 l->from_systemd ? " (from systemd)" : "");
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
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%.*s", (int)sizeof(sun.sun_path) - 1, path);
	ret = connect(fd, (struct sockaddr *)&sun, sizeof(sun));
	close(fd);
	if (ret == 0) {
		snprintf(err, errlen, "unix:%s: another server is listening there", path);
		return -EADDRINUSE;
	}
	unlink(path);
	return 0;
}

/*
 * libuv turns bind's ENOENT into EACCES (as Windows has it): a socket in a
 * directory that does not exist would read "permission denied". Ask.
 */
static int srv_listener_bind_errno(const char *path, int ret)
{
	char dir[108];
	char *slash;
	struct stat st;

	if (ret != UV_EACCES)
		return ret;
	snprintf(dir, sizeof(dir), "%.*s", (int)sizeof(dir) - 1, path);
	slash = strrchr(dir, '/');
	if (!slash)
		return ret;
	*(slash == dir ? slash + 1 : slash) = '\0';
	return stat(dir, &st) < 0 && errno == ENOENT ? UV_ENOENT : ret;
}

static int srv_listener_open_unix(struct srv *srv, const struct srv_proto_ops *proto,
				  const char *path, char *err, size_t errlen)
{
	struct srv_listener *l;
	char tmp[512];	/* a path (srv_listener_parse() keeps it below sizeof(l->path)) and a suffix */
	int ret;

	ret = srv_listener_unix_stale(path, err, errlen);
	if (ret < 0)
		return ret;
	l = srv_listener_new(srv, proto);
	if (!l)
		return -ENOMEM;
	l->is_unix = true;
	snprintf(l->name, sizeof(l->name), "unix:%.*s", (int)sizeof(l->path) - 1, path);
	ret = uv_pipe_init(&srv->loop, &l->h.pipe, 0);
	if (ret < 0) {
		free(l);
		goto err_msg;
	}
	srv_list_add_tail(&srv->listeners, &l->node);
	/*
	 * Bound under a temporary name and renamed once listening: a client
	 * that sees the path can connect (between bind and listen it would get
	 * ECONNREFUSED, as a test under valgrind did).
	 */
	/* a path too long for the suffix is bound as it is (sun_path holds 107 bytes) */
	if (snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid()) >= (int)sizeof(l->path))
		snprintf(tmp, sizeof(tmp), "%s", path);
	else
		unlink(tmp);
	ret = uv_pipe_bind(&l->h.pipe, tmp);
	if (ret < 0) {
		ret = srv_listener_bind_errno(tmp, ret);
		goto err_close;
	}
	ret = uv_listen(&l->h.stream, SRV_LISTEN_BACKLOG, srv_listener_connection_cb);
	if (ret == 0 && strcmp(tmp, path) != 0 && rename(tmp, path) < 0)
		ret = uv_translate_sys_error(errno);
	if (ret < 0) {
		unlink(tmp);
		goto err_close;
	}
	/* srv_listener_parse() refused longer paths: this never cuts */
	snprintf(l->path, sizeof(l->path), "%.*s", (int)sizeof(l->path) - 1, path);
	return 1;

err_close:
	srv_listener_close(l);
err_msg:
	snprintf(err, errlen, "unix:%s: %s", path, uv_strerror(ret));
	return ret;
}

static bool srv_listener_unavailable(int ret)
{
	return ret == UV_EADDRNOTAVAIL || ret == UV_EAFNOSUPPORT;
}

/* Bind one resolved address. Return: 1, 0 (unavailable and @quiet), or a libuv error. */
static int srv_listener_bind(struct srv *srv, const struct srv_proto_ops *proto,
			     const struct addrinfo *ai, bool quiet)
{
	struct srv_listener *l = srv_listener_new(srv, proto);
	int ret;

	if (!l)
		return -ENOMEM;
	ret = uv_tcp_init_ex(&srv->loop, &l->h.tcp, (unsigned int)ai->ai_family);
	if (ret < 0) {
		free(l);
		return quiet && srv_listener_unavailable(ret) ? 0 : ret;
	}
	srv_list_add_tail(&srv->listeners, &l->node);
	ret = uv_tcp_bind(&l->h.tcp, ai->ai_addr, ai->ai_family == AF_INET6 ? UV_TCP_IPV6ONLY : 0);
	if (ret == 0)
		ret = uv_listen(&l->h.stream, SRV_LISTEN_BACKLOG, srv_listener_connection_cb);
	if (ret < 0) {
		srv_listener_close(l);
		if (quiet && srv_listener_unavailable(ret)) {
			srv_debug(&srv->log, "not listening on an address: %s", uv_strerror(ret));
			return 0;
		}
		return ret;
	}
	srv_listener_name(l, ai->ai_addr);
	return 1;
}

static void srv_listener_adopted_name(struct srv_listener *l)
{
	struct sockaddr_storage ss;
	int len = sizeof(ss);
	char path[108];
	size_t plen = sizeof(path);

	if (l->is_unix) {
		if (uv_pipe_getsockname(&l->h.pipe, path, &plen) == 0)
			snprintf(l->name, sizeof(l->name), "unix:%.*s", (int)plen, path);
		else
			snprintf(l->name, sizeof(l->name), "unix:?");
	} else if (uv_tcp_getsockname(&l->h.tcp, (struct sockaddr *)&ss, &len) == 0) {
		srv_sockaddr_name((struct sockaddr *)&ss, l->name, sizeof(l->name));
	}
}

int srv_listener_adopt(struct srv *srv, const struct srv_proto_ops *proto, int fd, bool is_unix,
		       char *err, size_t errlen)
{
	struct srv_listener *l = srv_listener_new(srv, proto);
	int ret;

	if (!l) {
		close(fd);
		return -ENOMEM;
	}
	l->is_unix = is_unix;
	ret = is_unix ? uv_pipe_init(&srv->loop, &l->h.pipe, 0) : uv_tcp_init(&srv->loop, &l->h.tcp);
	if (ret < 0) {
		free(l);
		close(fd);
		snprintf(err, errlen, "systemd's socket %d: %s", fd, uv_strerror(ret));
		return ret;
	}
	srv_list_add_tail(&srv->listeners, &l->node);
	ret = is_unix ? uv_pipe_open(&l->h.pipe, fd) : uv_tcp_open(&l->h.tcp, fd);
	if (ret == 0)
		ret = uv_listen(&l->h.stream, SRV_LISTEN_BACKLOG, srv_listener_connection_cb);
	if (ret < 0) {
		srv_listener_close(l);
		snprintf(err, errlen, "systemd's socket %d: %s", fd, uv_strerror(ret));
		return ret;
	}
	srv_listener_adopted_name(l);
	l->from_systemd = true;
	return 1;
}

static bool srv_sockaddr_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
	return sa->sa_family == AF_INET6 &&
	       IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

int srv_listener_port(struct srv *srv, const struct srv_proto_ops *proto, bool public_only)
{
	struct sockaddr_storage ss;
	struct srv_listener *l;
	struct srv_list *pos, *tmp;
	int len;

	srv_list_for_each_safe(pos, tmp, &srv->listeners) {
		l = srv_container_of(pos, struct srv_listener, node);
		len = sizeof(ss);
		if (l->proto != proto || l->is_unix ||
		    uv_tcp_getsockname(&l->h.tcp, (struct sockaddr *)&ss, &len) < 0 ||
		    (public_only && srv_sockaddr_loopback((struct sockaddr *)&ss)))
			continue;
		if (ss.ss_family == AF_INET)
			return ntohs(((struct sockaddr_in *)&ss)->sin_port);
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	}
	return 0;
}

/*
 * Bind every address @host (NULL: any) resolves to. @quiet: an address
 * family the host lacks is not an error. @what names it in @err.
 */
static int srv_listener_open_tcp(struct srv *srv, const struct srv_proto_ops *proto,
				 const char *host, const char *port, bool quiet, const char *what,
				 char *err, size_t errlen)
{
	struct addrinfo hints = {
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *res, *ai;
	int ret, opened = 0;

	ret = getaddrinfo(host, port, &hints, &res);
	if (ret) {
		snprintf(err, errlen, "%s: %s", what, gai_strerror(ret));
		return -EINVAL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		ret = srv_listener_bind(srv, proto, ai, quiet);
		if (ret < 0) {
			snprintf(err, errlen, "%s: %s", what, uv_strerror(ret));
			freeaddrinfo(res);
			return ret;
		}
		opened += ret;
	}
	freeaddrinfo(res);
	return opened;
}

int srv_listener_open_loopback(struct srv *srv, const struct srv_proto_ops *proto,
			       const char *port, char *err, size_t errlen)
{
	char what[64];
	int ret, opened;

	snprintf(what, sizeof(what), "127.0.0.1:%s", port);
	opened = srv_listener_open_tcp(srv, proto, "127.0.0.1", port, false, what, err, errlen);
	if (opened < 0)
		return opened;
	snprintf(what, sizeof(what), "[::1]:%s", port);
	ret = srv_listener_open_tcp(srv, proto, "::1", port, true, what, err, errlen);
	return ret < 0 ? ret : opened + ret;
}

/* Split @spec as @opt takes it. Return: 0, or -EINVAL with @err set. */
static int srv_listener_parse(const struct srv_listen_opt *opt, const char *spec,
			      struct proto_addr *addr, char *err, size_t errlen)
{
	size_t max = sizeof(((struct srv_listener *)NULL)->path);

	if (proto_addr_parse(spec, opt->addr_flags, addr) < 0 && !addr->is_unix) {
		snprintf(err, errlen, "%s %s: not %s", opt->option, spec, opt->forms);
		return -EINVAL;
	}
	if (addr->is_unix && (!addr->host[0] || strlen(addr->host) >= max)) {
		snprintf(err, errlen, "%s %s: path empty or longer than %zu bytes", opt->option,
			 spec, max - 1);
		return -EINVAL;
	}
	return 0;
}

int srv_listener_check(const struct srv_listen_opt *opt, const char *spec, char *err,
		       size_t errlen)
{
	struct proto_addr addr;

	return srv_listener_parse(opt, spec, &addr, err, errlen);
}

int srv_listener_open(struct srv *srv, const struct srv_listen_opt *opt, const char *spec,
		      char *err, size_t errlen)
{
	struct proto_addr addr;
	int ret;

	ret = srv_listener_parse(opt, spec, &addr, err, errlen);
	if (ret < 0)
		return ret;
	if (addr.is_unix)
		return srv_listener_open_unix(srv, opt->proto, addr.host, err, errlen);
	if (!addr.host[0] && opt->empty_is_loopback)
		return srv_listener_open_loopback(srv, opt->proto, addr.port, err, errlen);
	return srv_listener_open_tcp(srv, opt->proto,
				     addr.host[0] && strcmp(addr.host, "*") ? addr.host : NULL,
				     addr.port, false, spec, err, errlen);
}
