/*
 * srvtest.h - a live iiowired for a test: start it on a free port with a
 * board of the test's own, talk to it over TCP, stop it and read its exit.
 *
 * The daemon under test is the built binary (IIOWIRE_BINARY_DIR
 * "/server/iiowired"), started with --listen 127.0.0.1:0 so the kernel picks
 * a free port; the port is read from the daemon's own "listening on" log
 * line on its stderr, which the helper keeps reading so the test can look
 * for log lines too. Clients are plain blocking sockets with a receive
 * timeout, and a line reader that keeps what it read past the line.
 * Header-only (static inline): every tests/test_*.c is its own program. It
 * asserts nothing: helpers return 0, a length, or -errno.
 * $IIOWIRE_TEST_WRAPPER, if set, is put before the daemon's command line,
 * split at blanks (tests/valgrind.sh sets it to a valgrind command); tests
 * that time the daemon ask srvtest_slow() and allow it more time.
 */
#ifndef IIOWIRE_SRVTEST_H
#define IIOWIRE_SRVTEST_H

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

#include "procstat.h"

#define SRVTEST_BINARY		IIOWIRE_BINARY_DIR "/server/iiowired"
/* Sanitizer builds start and answer slowly: generous, but bounded, waits. */
#define SRVTEST_START_MS	15000
#define SRVTEST_REPLY_MS	10000
#define SRVTEST_STOP_MS		15000
#define SRVTEST_LOG_BYTES	(256 * 1024)
#define SRVTEST_ARGS_MAX	32
#define SRVTEST_CLIENT_BUF	(2 * 1024 * 1024)
#define SRVTEST_LINE_MAX	(1024 * 1024)
#define SRVTEST_WRAPPER_ENV	"IIOWIRE_TEST_WRAPPER"
#define SRVTEST_WRAPPER_WORDS	16

/*
 * A board most suites use: the kernel's dummy, a MAX1238 with constant
 * inputs on i2c-0, two devices sharing a name (ENOTUNIQ), a NACKing and an
 * EIO chip on i2c-1, and a consumer with two channels.
 */
#define SRVTEST_BOARD							\
	"{\"board\": \"srvtest\", \"buses\": {"				\
	"  \"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"},"	\
	"  \"i2c-1\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"	\
	" \"devices\": ["							\
	"  {\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"		\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x35\","	\
	"   \"label\": \"adc\","						\
	"   \"emulate\": {\"AIN0\": 3300, \"AIN1\": 1800, \"AIN2\": 200}},"	\
	"  {\"driver\": \"iio_dummy\", \"name\": \"twin\"},"		\
	"  {\"driver\": \"iio_dummy\", \"name\": \"twin\"},"		\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-1\", \"address\": \"0x35\","	\
	"   \"label\": \"nacker\", \"fault\": {\"mode\": \"nack\"}},"	\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-1\", \"address\": \"0x36\","	\
	"   \"label\": \"eio\", \"fault\": {\"mode\": \"eio\"}}],"		\
	" \"maps\": ["							\
	"  {\"adc_dev_name\": \"0-0035\", \"adc_channel_label\": \"AIN1\","	\
	"   \"consumer_dev_name\": \"hwmon0\", \"consumer_channel\": \"vin\"},"	\
	"  {\"adc_dev_name\": \"0-0035\", \"adc_channel_label\": \"AIN2\","	\
	"   \"consumer_dev_name\": \"hwmon0\", \"consumer_channel\": \"vref\"}]}"

/* One running daemon. */
struct srvtest {
	pid_t pid;
	int port;
	int errfd;			/* read end of the daemon's stderr */
	char board[128];		/* the board file this test wrote */
	char *log;			/* everything the daemon logged so far */
	size_t loglen;
	int status;			/* exit status once reaped */
	bool reaped;
};

static inline long srvtest_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static inline void srvtest_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Write @json to a fresh file under /tmp; @path gets its name. */
static inline int srvtest_write_file(char *path, size_t len, const char *json)
{
	static int serial;
	FILE *f;

	snprintf(path, len, "/tmp/iiowire-srvtest-%d-%d.json", (int)getpid(), ++serial);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(json, f);
	return fclose(f) ? -EIO : 0;
}

/* Replace a file's content atomically (a reload must never see half a file). */
static inline int srvtest_rewrite_file(const char *path, const char *json)
{
	char tmp[160];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fputs(json, f);
	if (fclose(f))
		return -EIO;
	return rename(tmp, path) ? -errno : 0;
}

/* Read what the daemon logged, waiting at most @ms for something. Return: bytes read. */
static inline ssize_t srvtest_read_log(struct srvtest *t, int ms)
{
	struct pollfd pfd = { .fd = t->errfd, .events = POLLIN };
	ssize_t n, total = 0;

	if (t->errfd < 0)
		return 0;
	while (poll(&pfd, 1, total ? 0 : ms) > 0) {
		if (t->loglen + 4096 >= SRVTEST_LOG_BYTES) {
			/* keep the newest half */
			memmove(t->log, t->log + t->loglen / 2, t->loglen - t->loglen / 2);
			t->loglen -= t->loglen / 2;
		}
		n = read(t->errfd, t->log + t->loglen, 4096);
		if (n <= 0) {
			close(t->errfd);
			t->errfd = -1;
			break;
		}
		t->loglen += (size_t)n;
		t->log[t->loglen] = '\0';
		total += n;
	}
	return total;
}

/* Wait until the log holds @needle. Return: true if it showed up within @ms. */
static inline bool srvtest_log_wait(struct srvtest *t, const char *needle, int ms)
{
	long end = srvtest_now_ms() + ms;

	while (!strstr(t->log, needle)) {
		if (srvtest_now_ms() >= end || t->errfd < 0)
			return strstr(t->log, needle) != NULL;
		srvtest_read_log(t, 50);
	}
	return true;
}

/* True when the daemon runs under $IIOWIRE_TEST_WRAPPER (valgrind: 20-50x slower). */
static inline bool srvtest_slow(void)
{
	const char *w = getenv(SRVTEST_WRAPPER_ENV);

	return w && *w;
}

/* An upper time bound for a check: @ms, or many times it under a wrapper. */
static inline long srvtest_ms(long ms)
{
	return srvtest_slow() ? ms * 25 : ms;
}

/*
 * Start the daemon. @board_json: the board's text (written to a file), or
 * NULL to pass no --board. @args: more options, NULL-terminated (may be NULL).
 * Return: 0 with t->port set; -ETIMEDOUT or -ECHILD (it exited: t->status).
 */
static inline int srvtest_start(struct srvtest *t, const char *board_json,
				const char *const *args)
{
	const char *argv[SRVTEST_WRAPPER_WORDS + SRVTEST_ARGS_MAX];
	char *wrap = NULL, *word, *save = NULL;
	int p[2], n = 0, ret;
	const char *at;
	long end;

	memset(t, 0, sizeof(*t));
	t->errfd = -1;
	t->log = calloc(1, SRVTEST_LOG_BYTES + 1);
	if (!t->log)
		return -ENOMEM;
	if (srvtest_slow()) {
		wrap = strdup(getenv(SRVTEST_WRAPPER_ENV));
		if (!wrap)
			return -ENOMEM;
		for (word = strtok_r(wrap, " \t", &save); word && n < SRVTEST_WRAPPER_WORDS;
		     word = strtok_r(NULL, " \t", &save))
			argv[n++] = word;
	}
	argv[n++] = SRVTEST_BINARY;
	argv[n++] = "--listen";
	argv[n++] = "127.0.0.1:0";
	if (board_json) {
		ret = srvtest_write_file(t->board, sizeof(t->board), board_json);
		if (ret)
			return ret;
		argv[n++] = "--board";
		argv[n++] = t->board;
	}
	while (args && *args && n < SRVTEST_WRAPPER_WORDS + SRVTEST_ARGS_MAX - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (pipe2(p, O_CLOEXEC) < 0) {
		free(wrap);
		return -errno;
	}
	t->pid = fork();
	if (t->pid < 0) {
		free(wrap);
		return -errno;
	}
	if (t->pid == 0) {
		dup2(p[1], STDERR_FILENO);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	free(wrap);
	close(p[1]);
	t->errfd = p[0];
	end = srvtest_now_ms() + SRVTEST_START_MS;
	while (srvtest_now_ms() < end) {
		srvtest_read_log(t, 100);
		at = strstr(t->log, "listening on 127.0.0.1:");
		if (at && strchr(at, '\n')) {
			t->port = atoi(at + strlen("listening on 127.0.0.1:"));
			/* the line after says the board is up and signals are set */
			if (srvtest_log_wait(t, "device(s)", SRVTEST_START_MS))
				return 0;
		}
		if (waitpid(t->pid, &t->status, WNOHANG) == t->pid) {
			t->reaped = true;
			srvtest_read_log(t, 100);
			return -ECHILD;
		}
	}
	return -ETIMEDOUT;
}

/* Wait for the daemon to exit. Return: its exit code, 128+N if killed by N, -ETIMEDOUT. */
static inline int srvtest_wait(struct srvtest *t, int ms)
{
	long end = srvtest_now_ms() + ms;

	while (!t->reaped) {
		if (waitpid(t->pid, &t->status, WNOHANG) == t->pid) {
			t->reaped = true;
			break;
		}
		if (srvtest_now_ms() >= end)
			return -ETIMEDOUT;
		srvtest_read_log(t, 20);
	}
	srvtest_read_log(t, 0);
	if (WIFEXITED(t->status))
		return WEXITSTATUS(t->status);
	return 128 + WTERMSIG(t->status);
}

/* SIGTERM and wait; SIGKILL if it does not go. Return: as srvtest_wait(). */
static inline int srvtest_stop(struct srvtest *t)
{
	int ret;

	if (!t->reaped)
		kill(t->pid, SIGTERM);
	ret = srvtest_wait(t, SRVTEST_STOP_MS);
	if (ret == -ETIMEDOUT) {
		kill(t->pid, SIGKILL);
		srvtest_wait(t, SRVTEST_STOP_MS);
	}
	return ret;
}

/* Free what srvtest_start() made (stop first); prints the log if @dump. */
static inline void srvtest_fini(struct srvtest *t, bool dump)
{
	if (t->pid > 0 && !t->reaped)
		srvtest_stop(t);
	if (dump && t->log)
		fprintf(stderr, "---- iiowired log ----\n%s----\n", t->log);
	if (t->errfd >= 0)
		close(t->errfd);
	if (t->board[0])
		unlink(t->board);
	free(t->log);
	t->log = NULL;
}

/* srvtest_start(), saying on stderr why not, with the log. Return: true when it runs. */
static inline bool srvtest_up(struct srvtest *t, const char *board_json, const char *const *args)
{
	int ret = srvtest_start(t, board_json, args);

	if (ret)
		fprintf(stderr, "\niiowired did not start (%d):\n%s\n", ret, t->log ? t->log : "");
	return ret == 0;
}

/* Stop, then srvtest_fini() (the log printed unless it exited 0). Return: as srvtest_stop(). */
static inline int srvtest_down(struct srvtest *t)
{
	int ret = srvtest_stop(t);

	srvtest_fini(t, ret != 0);
	return ret;
}

/* A CUnit suite init on srvtest_up(). Return: 0, or -1 (the suite is not run). */
static inline int srvtest_suite_up(struct srvtest *t, const char *board_json,
				   const char *const *args)
{
	if (srvtest_up(t, board_json, args))
		return 0;
	srvtest_fini(t, false);
	return -1;
}

/* A CUnit suite cleanup on srvtest_down(). Return: 0 when the daemon exited 0, else -1. */
static inline int srvtest_suite_down(struct srvtest *t)
{
	return srvtest_down(t) == 0 ? 0 : -1;
}

/* Raise this process's open-file limit to its hard limit. */
static inline void srvtest_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* ---- clients ---- */

struct srvc {
	int fd;
	char *buf;			/* received, not yet taken as lines */
	size_t len;
};

static inline int srvc_connect_fd(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct timeval tv = { SRVTEST_REPLY_MS / 1000, 0 };
	int fd, one = 1;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Connect a client. Return: owned (srvc_close()), or NULL. */
static inline struct srvc *srvc_open(int port)
{
	struct srvc *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->buf = malloc(SRVTEST_CLIENT_BUF);
	c->fd = srvc_connect_fd(port);
	if (!c->buf || c->fd < 0) {
		free(c->buf);
		free(c);
		return NULL;
	}
	return c;
}

/* Connect a client to the unix socket @path. Return: owned (srvc_close()), or NULL. */
static inline struct srvc *srvc_open_unix(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct timeval tv = { SRVTEST_REPLY_MS / 1000, 0 };
	struct srvc *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->buf = malloc(SRVTEST_CLIENT_BUF);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	if (!c->buf || c->fd < 0 || connect(c->fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		if (c->fd >= 0)
			close(c->fd);
		free(c->buf);
		free(c);
		return NULL;
	}
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return c;
}

static inline void srvc_close(struct srvc *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	free(c);
}

/* Send all of @data. Return: 0 or -errno. */
static inline int srvc_send(struct srvc *c, const void *data, size_t len)
{
	const char *p = data;
	ssize_t n;

	while (len) {
		n = send(c->fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static inline int srvc_sends(struct srvc *c, const char *s)
{
	return srvc_send(c, s, strlen(s));
}

/* Set the receive timeout for the next reads. */
static inline void srvc_timeout(struct srvc *c, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/*
 * Take one line (without its LF) into @out. Return: its length; -EPIPE at
 * end of stream with no line; -EAGAIN on timeout; -E2BIG if it is longer
 * than @outlen - 1 (then it is dropped).
 */
static inline ssize_t srvc_line(struct srvc *c, char *out, size_t outlen)
{
	char *nl;
	size_t n;
	ssize_t r;

	for (;;) {
		nl = memchr(c->buf, '\n', c->len);
		if (nl) {
			n = (size_t)(nl - c->buf);
			if (n >= outlen) {
				memmove(c->buf, nl + 1, c->len - n - 1);
				c->len -= n + 1;
				return -E2BIG;
			}
			memcpy(out, c->buf, n);
			out[n] = '\0';
			memmove(c->buf, nl + 1, c->len - n - 1);
			c->len -= n + 1;
			return (ssize_t)n;
		}
		if (c->len == SRVTEST_CLIENT_BUF)
			return -E2BIG;
		r = recv(c->fd, c->buf + c->len, SRVTEST_CLIENT_BUF - c->len, 0);
		if (r == 0)
			return -EPIPE;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == EWOULDBLOCK ? -EAGAIN : -errno;
		c->len += (size_t)r;
	}
}

/*
 * @n, a srvc_line() or srvc_req() result, for a check that prints what it
 * got: when @n is an error, @out says which ("(no line: ...)") instead of
 * holding what it held before. Return: @n.
 */
static inline ssize_t srvc_got(ssize_t n, char *out, size_t outlen)
{
	if (n < 0)
		snprintf(out, outlen, "(no line: %s)",
			 n == -EPIPE ? "the daemon closed" : strerror((int)-n));
	return n;
}

/* Send @req plus LF and take one line. Return: as srvc_line(). */
static inline ssize_t srvc_req(struct srvc *c, const char *req, char *out, size_t outlen)
{
	int ret = srvc_sends(c, req);

	if (!ret)
		ret = srvc_sends(c, "\n");
	if (ret)
		return ret;
	return srvc_line(c, out, outlen);
}

/*
 * Read a whole reply: one line, plus, for a text "OK <n>" listing (@listing
 * true), its n lines; all joined with '\n' into @out. Return: bytes, or as
 * srvc_line().
 */
static inline ssize_t srvc_reply(struct srvc *c, bool listing, char *out, size_t outlen)
{
	ssize_t n = srvc_line(c, out, outlen), m;
	size_t used;
	int count, i;

	if (n < 0 || !listing || strncmp(out, "OK ", 3) != 0)
		return n;
	count = atoi(out + 3);
	used = (size_t)n;
	for (i = 0; i < count; i++) {
		if (used + 2 >= outlen)
			return -E2BIG;
		out[used++] = '\n';
		m = srvc_line(c, out + used, outlen - used);
		if (m < 0)
			return m;
		used += (size_t)m;
	}
	return (ssize_t)used;
}

/* True if the server closes the connection (after any data) within @ms. */
static inline bool srvc_closed(struct srvc *c, int ms)
{
	char tmp[4096];
	long end = srvtest_now_ms() + ms;
	ssize_t r;

	srvc_timeout(c, 100);
	while (srvtest_now_ms() < end) {
		r = recv(c->fd, tmp, sizeof(tmp), 0);
		if (r == 0)
			return true;
		if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return errno == ECONNRESET;
	}
	return false;
}

/* The counter @name of a STATS listing on @c, or -1 (no such counter, or no listing). */
static inline long srvc_stat(struct srvc *c, const char *name)
{
	char line[256];
	size_t len = strlen(name);
	long v = -1;
	int i, n;

	if (srvc_req(c, "STATS", line, sizeof(line)) < 0 || strncmp(line, "OK ", 3) != 0)
		return -1;
	n = atoi(line + 3);
	for (i = 0; i < n && srvc_line(c, line, sizeof(line)) > 0; i++)
		if (strncmp(line, name, len) == 0 && line[len] == ' ')
			v = atol(line + len + 1);
	return v;
}

#endif /* IIOWIRE_SRVTEST_H */
