/*
 * conn.c - libiiowire's socket: addresses, connecting, sending and reading
 * lines, every wait bounded by a deadline.
 *
 * Place in the flow: wire -> *conn.c* -> request.c -> the API files. This
 * file knows bytes and lines only: it parses "host:port", "[v6]:port" and
 * "unix:/path" (split by protocol/proto_addr.c, as the daemon does),
 * connects with a non-blocking socket and poll(), writes whole buffers and
 * cuts input into '\n'-terminated lines. It must not know what a
 * line means (request.c decodes them), must not retry or reconnect by itself
 * (request.c decides), and never raises SIGPIPE (MSG_NOSIGNAL).
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "iiowire_priv.h"
#include "proto_addr.h"

/* Milliseconds on CLOCK_MONOTONIC. */
static int64_t iiowire_conn_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/**
 * iiowire_conn_deadline() - the monotonic time @timeout_ms from now; a
 * negative timeout means no deadline (INT64_MAX).
 * Return: the deadline in ms.
 */
int64_t iiowire_conn_deadline(int timeout_ms)
{
	if (timeout_ms < 0)
		return INT64_MAX;
	return iiowire_conn_now_ms() + timeout_ms;
}

/** iiowire_conn_expired() - Return: true once @deadline (not INT64_MAX) is past. */
bool iiowire_conn_expired(int64_t deadline)
{
	return deadline != INT64_MAX && iiowire_conn_now_ms() >= deadline;
}

/* What is left of @deadline as a poll() timeout: -1 for none, 0 when past. */
static int iiowire_conn_remaining(int64_t deadline)
{
	int64_t left;

	if (deadline == INT64_MAX)
		return -1;
	left = deadline - iiowire_conn_now_ms();
	if (left <= 0)
		return 0;
	return left > INT32_MAX ? INT32_MAX : (int)left;
}

/**
 * iiowire_conn_parse_address() - parse an address as iiowire_connect() takes
 * it; NULL or "" means $IIOWIRE_ADDRESS, else IIOWIRE_DEFAULT_ADDRESS.
 * Forms: "unix:/path", "[v6]:port", "[v6]", "host:port", "host", and a bare
 * IPv6 literal with more than one ':' ("::1"), which takes the default port.
 * The split is protocol/proto_addr.c's, shared with the daemon; the client's
 * policy is here: a host is required, a port is 1 to 65535 in at most 5 digits.
 * Return: 0 with @addr filled, -EINVAL for a malformed address,
 * -ENAMETOOLONG for one longer than the limits.
 */
int iiowire_conn_parse_address(const char *text, struct iiowire_addr *addr)
{
	struct proto_addr pa;
	int ret;

	memset(addr, 0, sizeof(*addr));
	if (!text || !*text) {
		text = getenv(IIOWIRE_ADDRESS_ENV);
		if (!text || !*text)
			text = IIOWIRE_DEFAULT_ADDRESS;
	}
	if (strlen(text) >= IIOWIRE_ADDRESS_MAX_BYTES)
		return -ENAMETOOLONG;
	ret = proto_addr_parse(text, PROTO_ADDR_UNIX | PROTO_ADDR_PORT_OPTIONAL, &pa);
	if (ret < 0)
		return ret;
	if (pa.is_unix) {
		/* sun_path holds 108 bytes with the NUL; abstract sockets are not offered */
		if (strlen(pa.host) >= sizeof(((struct sockaddr_un *)0)->sun_path))
			return -ENAMETOOLONG;
		addr->is_unix = true;
		snprintf(addr->host, sizeof(addr->host), "%s", pa.host);
		snprintf(addr->normal, sizeof(addr->normal), "unix:%s", pa.host);
		return 0;
	}
	if (!pa.host[0] || (pa.port[0] && (strlen(pa.port) > 5 || pa.port_num == 0)))
		return -EINVAL;
	if (!pa.v6 && strpbrk(text, " \t\r\n/"))
		return -EINVAL;
	snprintf(addr->host, sizeof(addr->host), "%s", pa.host);
	snprintf(addr->port, sizeof(addr->port), "%u",
		 pa.port[0] ? pa.port_num : (unsigned int)IIOWIRE_DEFAULT_PORT);
	snprintf(addr->normal, sizeof(addr->normal), pa.v6 ? "[%s]:%s" : "%s:%s", addr->host,
		 addr->port);
	return 0;
}

/* Finish a non-blocking connect() within @deadline. Return: 0 or -errno. */
static int iiowire_conn_wait_connected(int fd, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	socklen_t sl = sizeof(int);
	int soerr = 0, ret;

	for (;;) {
		ret = poll(&pfd, 1, iiowire_conn_remaining(deadline));
		if (ret > 0)
			break;
		if (ret == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
		return -errno;
	return soerr ? -soerr : 0;
}

/* Connect one socket to one address. Return: the fd, or -errno. */
static int iiowire_conn_try(int family, const struct sockaddr *sa, socklen_t salen,
			    int64_t deadline)
{
	int fd, ret, one = 1;

	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, sa, salen) < 0) {
		if (errno != EINPROGRESS && errno != EAGAIN) {
			ret = -errno;
			goto err_close_fd;
		}
		ret = iiowire_conn_wait_connected(fd, deadline);
		if (ret < 0)
			goto err_close_fd;
	}
	/* one request line per write: Nagle would only add latency */
	if (family != AF_UNIX)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;

err_close_fd:
	close(fd);
	return ret;
}

/* getaddrinfo's EAI_* codes as errno values, for our one error convention. */
static int iiowire_conn_gai_errno(int gai)
{
	switch (gai) {
	case EAI_SYSTEM:
		return errno ? -errno : -EIO;
	case EAI_MEMORY:
		return -ENOMEM;
	case EAI_AGAIN:
		return -EAGAIN;
	case EAI_NONAME:
#ifdef EAI_NODATA
	case EAI_NODATA:
#endif
		return -EHOSTUNREACH;
	default:
		return -EINVAL;
	}
}

/**
 * iiowire_conn_open() - connect @w's socket to @w's address within the
 * connection timeout (or what is left of the current call's), each
 * resolved address in turn. On failure the
 * connection's errmsg says what was tried.
 * Return: 0 with w->fd set, or -errno (the last address's error).
 */
int iiowire_conn_open(struct iiowire *w)
{
	int64_t deadline = w->call_deadline ? w->call_deadline :
			   iiowire_conn_deadline(w->timeout_ms);
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	int fd = -EHOSTUNREACH, gai;

	iiowire_conn_shut(w);
	if (w->addr.is_unix) {
		struct sockaddr_un sun = { .sun_family = AF_UNIX };

		/* parse_address checked that the path fits sun_path */
		memcpy(sun.sun_path, w->addr.host, strnlen(w->addr.host, sizeof(sun.sun_path) - 1));
		fd = iiowire_conn_try(AF_UNIX, (struct sockaddr *)&sun, sizeof(sun), deadline);
	} else {
		gai = getaddrinfo(w->addr.host, w->addr.port, &hints, &res);
		if (gai) {
			fd = iiowire_conn_gai_errno(gai);
			iiowire_err_set(w, "name lookup of %s failed: %s", w->addr.host,
					gai_strerror(gai));
			return fd;
		}
		for (ai = res; ai; ai = ai->ai_next) {
			fd = iiowire_conn_try(ai->ai_family, ai->ai_addr, ai->ai_addrlen, deadline);
			if (fd >= 0 || fd == -ETIMEDOUT)
				break;
		}
		freeaddrinfo(res);
	}
	if (fd < 0) {
		iiowire_err_set(w, "connect to %s: %s", w->addr.normal, strerror(-fd));
		return fd;
	}
	w->fd = fd;
	w->in_off = 0;
	w->in_len = 0;
	w->line = NULL;
	return 0;
}

/** iiowire_conn_shut() - close the socket and forget unread input; idempotent. */
void iiowire_conn_shut(struct iiowire *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	w->in_off = 0;
	w->in_len = 0;
	w->line = NULL;
}

/**
 * iiowire_conn_is_broken_err() - true for the errors that mean the socket is
 * dead (peer closed, reset, not connected) as opposed to a slow peer.
 */
bool iiowire_conn_is_broken_err(int err)
{
	return err == -ECONNRESET || err == -EPIPE || err == -ENOTCONN ||
	       err == -ECONNABORTED || err == -ESHUTDOWN;
}

/* Wait for @events on the socket until @deadline. Return: 0, -ETIMEDOUT, or -errno. */
static int iiowire_conn_wait(struct iiowire *w, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = w->fd, .events = events };
	int ret = poll(&pfd, 1, iiowire_conn_remaining(deadline));

	if (ret == 0)
		return -ETIMEDOUT;
	return ret < 0 && errno != EINTR ? -errno : 0;
}

/**
 * iiowire_conn_send() - write all of @buf before @deadline.
 * Return: 0, -ETIMEDOUT, -ENOTCONN when disconnected, or the socket's -errno
 * (-EPIPE, -ECONNRESET when the peer is gone).
 */
int iiowire_conn_send(struct iiowire *w, const char *buf, size_t len, int64_t deadline)
{
	ssize_t n;
	int ret;

	while (len > 0) {
		if (w->fd < 0)
			return -ENOTCONN;
		n = send(w->fd, buf, len, MSG_NOSIGNAL);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		ret = iiowire_conn_wait(w, POLLOUT, deadline);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Drop the bytes already taken, moving the unread ones to the front. */
static void iiowire_conn_compact(struct iiowire *w)
{
	if (w->in_off == 0)
		return;
	memmove(w->in, w->in + w->in_off, w->in_len - w->in_off);
	w->in_len -= w->in_off;
	w->in_off = 0;
	w->line = NULL;
}

/* Grow the input buffer to @want bytes (never shrinks it). Return: 0, or -ENOMEM. */
static int iiowire_conn_grow(struct iiowire *w, size_t want)
{
	char *p;

	if (want <= w->in_cap)
		return 0;
	p = realloc(w->in, want);
	if (!p)
		return -ENOMEM;
	w->in = p;
	w->in_cap = want;
	return 0;
}

/* Make room for at least one more chunk, dropping consumed bytes first. */
static int iiowire_conn_make_room(struct iiowire *w)
{
	size_t want;

	iiowire_conn_compact(w);
	if (w->in_cap - w->in_len >= IIOWIRE_RECV_CHUNK_BYTES)
		return 0;
	want = w->in_cap ? w->in_cap * 2 : 2 * IIOWIRE_RECV_CHUNK_BYTES;
	/* a line longer than the limit can never end: refuse instead of growing */
	if (want > IIOWIRE_REPLY_MAX_BYTES + 2 * IIOWIRE_RECV_CHUNK_BYTES)
		return -EMSGSIZE;
	return iiowire_conn_grow(w, want);
}

/* Room for @n unread bytes and one chunk more, up to a stream block. Return: 0, -EMSGSIZE, -ENOMEM. */
static int iiowire_conn_room_for(struct iiowire *w, size_t n)
{
	size_t want = w->in_cap ? w->in_cap : 2 * IIOWIRE_RECV_CHUNK_BYTES;

	if (n > IIOWIRE_STREAM_BLOCK_MAX_BYTES)
		return -EMSGSIZE;
	if (w->in_off + n + IIOWIRE_RECV_CHUNK_BYTES > w->in_cap)
		iiowire_conn_compact(w);
	while (want < n + IIOWIRE_RECV_CHUNK_BYTES)
		want *= 2;
	return iiowire_conn_grow(w, want);
}

/* One recv() into the buffer. Return: bytes read (> 0), -EAGAIN, or -errno (EOF: -ECONNRESET). */
static int iiowire_conn_recv(struct iiowire *w)
{
	ssize_t n;
	int ret;

	if (w->fd < 0)
		return -ENOTCONN;
	ret = iiowire_conn_make_room(w);
	if (ret < 0)
		return ret;
	do {
		n = recv(w->fd, w->in + w->in_len, w->in_cap - w->in_len, 0);
	} while (n < 0 && errno == EINTR);
	if (n == 0)
		return -ECONNRESET;
	if (n < 0)
		return (errno == EWOULDBLOCK) ? -EAGAIN : -errno;
	w->in_len += (size_t)n;
	return (int)n;
}

/** iiowire_conn_has_line() - true if a whole line is already buffered. */
bool iiowire_conn_has_line(const struct iiowire *w)
{
	return w->in_len > w->in_off && memchr(w->in + w->in_off, '\n', w->in_len - w->in_off);
}

/**
 * iiowire_conn_pump() - read whatever the socket has without waiting.
 * Return: 0 (nothing more for now), or -errno: -ECONNRESET when the peer
 * closed, -EMSGSIZE for a line over IIOWIRE_REPLY_MAX_BYTES.
 */
int iiowire_conn_pump(struct iiowire *w)
{
	int ret;

	for (;;) {
		ret = iiowire_conn_recv(w);
		if (ret == -EAGAIN)
			return 0;
		if (ret < 0)
			return ret;
	}
}

/**
 * iiowire_conn_read_line() - the next input line, waiting until @deadline.
 * @line: set to the line without its '\n' (and '\r'), NUL-terminated;
 *	borrowed: valid until the next read on @w.
 * Return: 0, -ETIMEDOUT, -ECONNRESET (peer closed), -EMSGSIZE, or -errno.
 */
int iiowire_conn_read_line(struct iiowire *w, int64_t deadline, char **line, size_t *len)
{
	char *start, *nl;
	size_t n;
	int ret;

	for (;;) {
		start = w->in + w->in_off;
		nl = (w->in_len > w->in_off) ? memchr(start, '\n', w->in_len - w->in_off) : NULL;
		if (nl) {
			n = (size_t)(nl - start);
			if (n > IIOWIRE_REPLY_MAX_BYTES)
				return -EMSGSIZE;
			w->in_off += n + 1;
			if (n > 0 && start[n - 1] == '\r')
				n--;
			start[n] = '\0';
			w->line = start;
			*line = start;
			if (len)
				*len = n;
			return 0;
		}
		if (w->in_len - w->in_off > IIOWIRE_REPLY_MAX_BYTES)
			return -EMSGSIZE;
		ret = iiowire_conn_recv(w);
		/* a peer that never stops sending must not keep us past the deadline */
		if (ret > 0 && iiowire_conn_expired(deadline) && !iiowire_conn_has_line(w))
			return -ETIMEDOUT;
		if (ret > 0)
			continue;
		if (ret != -EAGAIN)
			return ret;
		ret = iiowire_conn_wait(w, POLLIN, deadline);
		if (ret < 0)
			return ret;
	}
}

/** iiowire_conn_buffered() - Return: bytes received and not yet taken. */
size_t iiowire_conn_buffered(const struct iiowire *w)
{
	return w->in_len - w->in_off;
}

/**
 * iiowire_conn_read_bytes() - the next @n input bytes (a stream block's
 * payload), waiting until @deadline; on -ETIMEDOUT what came stays buffered.
 * @p: set to them; borrowed: valid until the next read on @w.
 * Return: 0, -ETIMEDOUT, -ECONNRESET (peer closed), -EMSGSIZE (@n over
 * IIOWIRE_STREAM_BLOCK_MAX_BYTES), or -errno.
 */
int iiowire_conn_read_bytes(struct iiowire *w, int64_t deadline, size_t n, const char **p)
{
	ssize_t got;
	int ret;

	ret = iiowire_conn_room_for(w, n);
	if (ret < 0)
		return ret;
	while (w->in_len - w->in_off < n) {
		if (w->fd < 0)
			return -ENOTCONN;
		got = recv(w->fd, w->in + w->in_len, w->in_cap - w->in_len, 0);
		if (got > 0) {
			w->in_len += (size_t)got;
			continue;
		}
		if (got == 0)
			return -ECONNRESET;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		ret = iiowire_conn_wait(w, POLLIN, deadline);
		if (ret < 0)
			return ret;
	}
	*p = w->in + w->in_off;
	w->in_off += n;
	return 0;
}
