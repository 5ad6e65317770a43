/*
 * clienttest.h - fixtures of the client-side suites (test_client.c,
 * test_client_request.c, test_hwmon.c, test_hwmon_tools.c): a real iiowired on a
 * free loopback port with a board file in $TMPDIR (default /tmp), and a scripted fake daemon
 * for the cases a real one cannot produce (no answer, late answers, channel
 * types no emulated driver maps). Header-only: tests/CMakeLists.txt builds
 * each test_*.c with testutil.c alone. Everything listens on 127.0.0.1 only.
 */
#ifndef IIOWIRE_CLIENTTEST_H
#define IIOWIRE_CLIENTTEST_H

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "iiowire.h"
#include "proto.h"
#include "testutil.h"

#define CT_DAEMON_PATH		IIOWIRE_BINARY_DIR "/server/iiowired"
#define CT_HWMON_PATH		IIOWIRE_BINARY_DIR "/client/iiowire-hwmon"
/* How long a daemon may take to accept connections after its start. */
#define CT_START_WAIT_MS	10000
#define CT_MAX_ARGS		16

/*
 * The test board: iio_dummy plus an emulated MAX1238 (12 bits, 4096 mV
 * reference: 1 mV per LSB) with constant inputs, so raw = mV exactly.
 * AIN0 3300, AIN1 1000, AIN2 2000, AIN3 1250.
 */
#define CT_BOARD_MAPS(extra)							\
	"\"maps\": ["								\
	"{\"adc_dev_name\": \"0-0035\", \"adc_channel_label\": \"AIN1\","	\
	" \"consumer_dev_name\": \"iio_hwmon.0\", \"consumer_channel\": \"testchan1\"}," \
	"{\"adc_dev_name\": \"0-0035\", \"adc_channel_label\": \"AIN2\","	\
	" \"consumer_dev_name\": \"iio_hwmon.0\", \"consumer_channel\": \"testchan2\"}," \
	"{\"adc_dev_name\": \"0-0035\", \"adc_channel_label\": \"AIN0-AIN1\","	\
	" \"consumer_dev_name\": \"meter\", \"consumer_channel\": \"diff\"}"	\
	extra "]"

#define CT_BOARD_WITH(ain1)							\
	"{\"board\": \"clienttest\", \"buses\": {\"i2c-0\": {\"type\": \"i2c\","	\
	" \"backend\": \"emulated\"}}, \"devices\": ["				\
	"{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"			\
	"{\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x35\","	\
	" \"label\": \"stargate2-adc\", \"emulate\": {\"AIN0\": 3300, \"AIN1\": " ain1 "," \
	" \"AIN2\": 2000, \"AIN3\": 1250}}], " CT_BOARD_MAPS("") "}"

#define CT_BOARD		CT_BOARD_WITH("1000")
/* The same board without the ADC and its maps: a reload to it removes the provider. */
#define CT_BOARD_NO_ADC							\
	"{\"board\": \"clienttest-noadc\", \"devices\": ["			\
	"{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"}], \"maps\": []}"

struct ct_daemon {
	pid_t pid;
	int port;
	char dir[64];			/* mkdtemp'd; holds board.json and the unix socket */
	char board[128];
	char unix_path[128];
	char address[64];		/* "127.0.0.1:PORT" */
	const char *extra[CT_MAX_ARGS];	/* more iiowired options, NULL-ended */
};

static inline int64_t ct_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void ct_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* A loopback port nobody listens on right now. Return: the port, or -errno. */
static inline int ct_free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd, port;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
		port = -errno;
		close(fd);
		return port;
	}
	port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

/* Write @text to @path. Return: 0, or -errno. */
static inline int ct_write_file(const char *path, const char *text, mode_t mode)
{
	size_t len = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		ret = -EIO;
	close(fd);
	return ret;
}

/* Read a whole small file into @buf. Return: its length, or -errno. */
static inline int ct_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

/* Wait until something accepts on the daemon's port. Return: 0, or -ETIMEDOUT. */
static inline int ct_daemon_wait_ready(struct ct_daemon *d)
{
	int64_t end = ct_now_ms() + CT_START_WAIT_MS;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)d->port) };
	int fd, status;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	while (ct_now_ms() < end) {
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			d->pid = 0;
			return -ECHILD;
		}
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			close(fd);
			return 0;
		}
		if (fd >= 0)
			close(fd);
		ct_sleep_ms(20);
	}
	return -ETIMEDOUT;
}

/* (Re)start the daemon on d->port with d->board. Return: 0, or -errno. */
static inline int ct_daemon_spawn(struct ct_daemon *d)
{
	char listen_tcp[64], listen_unix[160];
	const char *argv[CT_MAX_ARGS + 16];
	int argc = 0, i;

	snprintf(listen_tcp, sizeof(listen_tcp), "127.0.0.1:%d", d->port);
	snprintf(listen_unix, sizeof(listen_unix), "unix:%s", d->unix_path);
	argv[argc++] = CT_DAEMON_PATH;
	argv[argc++] = "--listen";
	argv[argc++] = listen_tcp;
	argv[argc++] = "--listen";
	argv[argc++] = listen_unix;
	argv[argc++] = "--board";
	argv[argc++] = d->board;
	argv[argc++] = "--log-level";
	argv[argc++] = "error";
	for (i = 0; i < CT_MAX_ARGS && d->extra[i]; i++)
		argv[argc++] = d->extra[i];
	argv[argc] = NULL;
	d->pid = fork();
	if (d->pid < 0)
		return -errno;
	if (d->pid == 0) {
		/* it goes with the suite, however the suite ends */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return ct_daemon_wait_ready(d);
}

/*
 * The directories of the daemons ct_daemon_stop() has not stopped yet: at
 * exit they go (a CU_ASSERT_*_FATAL leaves a test before its stop; the
 * daemon itself gets SIGTERM when the suite ends, PR_SET_PDEATHSIG).
 */
#define CT_LEFT_MAX	8
static char ct_left[CT_LEFT_MAX][64];

static inline void ct_left_remove_all(void)
{
	int i;

	for (i = 0; i < CT_LEFT_MAX; i++)
		if (ct_left[i][0])
			test_rmtree(ct_left[i]);
}

/* @dir goes at exit (@add), or no longer needs to (!@add). */
static inline void ct_left_note(const char *dir, bool add)
{
	static bool hooked;
	int i;

	if (add && !hooked)
		hooked = atexit(ct_left_remove_all) == 0;
	for (i = 0; i < CT_LEFT_MAX; i++) {
		if (add && !ct_left[i][0]) {
			snprintf(ct_left[i], sizeof(ct_left[i]), "%s", dir);
			return;
		}
		if (!add && !strcmp(ct_left[i], dir)) {
			ct_left[i][0] = '\0';
			return;
		}
	}
}

/**
 * ct_daemon_start() - a fresh daemon with @board_json on a free port.
 * @extra: more options, NULL-ended (may be NULL). Pair: ct_daemon_stop().
 * Return: 0, or -errno.
 */
static inline int ct_daemon_start(struct ct_daemon *d, const char *board_json,
				  const char *const *extra)
{
	int i, ret;

	memset(d, 0, sizeof(*d));
	for (i = 0; extra && extra[i] && i < CT_MAX_ARGS - 1; i++)
		d->extra[i] = extra[i];
	if (snprintf(d->dir, sizeof(d->dir), "%s/iiowire-ct-XXXXXX",
		     getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") >= (int)sizeof(d->dir))
		return -ENAMETOOLONG;
	if (!mkdtemp(d->dir))
		return -errno;
	ct_left_note(d->dir, true);
	snprintf(d->board, sizeof(d->board), "%s/board.json", d->dir);
	snprintf(d->unix_path, sizeof(d->unix_path), "%s/sock", d->dir);
	ret = ct_write_file(d->board, board_json, 0644);
	if (ret < 0)
		return ret;
	d->port = ct_free_port();
	if (d->port < 0)
		return d->port;
	snprintf(d->address, sizeof(d->address), "127.0.0.1:%d", d->port);
	return ct_daemon_spawn(d);
}

/* SIGTERM and reap; the port and files stay for a restart. Return: the exit status. */
static inline int ct_daemon_kill(struct ct_daemon *d)
{
	int status = -1;

	if (d->pid <= 0)
		return -1;
	kill(d->pid, SIGTERM);
	while (waitpid(d->pid, &status, 0) < 0 && errno == EINTR)
		;
	d->pid = 0;
	return status;
}

/* Stop and start again on the same port and board. Return: 0, or -errno. */
static inline int ct_daemon_restart(struct ct_daemon *d)
{
	ct_daemon_kill(d);
	return ct_daemon_spawn(d);
}

/* The daemon's STATS counter @name, or -1. */
static inline long long ct_daemon_stat(struct ct_daemon *d, const char *name)
{
	struct iiowire *w = iiowire_connect(d->address, 2000);
	struct iiowire_stat *st;
	long long v = -1;
	int i, n;

	if (!w)
		return -1;
	n = iiowire_stats(w, &st);
	for (i = 0; i < n; i++)
		if (strcmp(st[i].name, name) == 0)
			v = st[i].value;
	iiowire_free(st);
	iiowire_close(w);
	return v;
}

/* Replace the board file and SIGHUP; wait until the daemon counted the reload. */
static inline int ct_daemon_reload(struct ct_daemon *d, const char *board_json)
{
	long long before = ct_daemon_stat(d, "reloads");
	int64_t end = ct_now_ms() + CT_START_WAIT_MS;
	int ret;

	ret = ct_write_file(d->board, board_json, 0644);
	if (ret < 0)
		return ret;
	kill(d->pid, SIGHUP);
	while (ct_now_ms() < end) {
		if (ct_daemon_stat(d, "reloads") > before)
			return 0;
		ct_sleep_ms(20);
	}
	return -ETIMEDOUT;
}

/* Stop the daemon and remove its directory, with what the test put there. */
static inline void ct_daemon_stop(struct ct_daemon *d)
{
	ct_daemon_kill(d);
	if (d->dir[0]) {
		test_rmtree(d->dir);
		ct_left_note(d->dir, false);
	}
	d->dir[0] = '\0';
}

/*
 * CT_SUITE_DAEMON(prefix, suite) - a suite's one daemon on CT_BOARD:
 * defines prefix_daemon and the CUnit pair prefix_suite_init() (starts it;
 * says so on stderr when it cannot) and prefix_suite_cleanup() (stops it).
 */
#define CT_SUITE_DAEMON(prefix, suite)							\
	static struct ct_daemon prefix##_daemon;					\
	static int prefix##_suite_init(void)						\
	{										\
		if (ct_daemon_start(&prefix##_daemon, CT_BOARD, NULL) == 0)		\
			return 0;							\
		fprintf(stderr, suite ": cannot start %s\n", CT_DAEMON_PATH);		\
		return 1;								\
	}										\
	static int prefix##_suite_cleanup(void)						\
	{										\
		ct_daemon_stop(&prefix##_daemon);					\
		return 0;								\
	}

/* ---- a scripted fake daemon ------------------------------------------- */

/*
 * ct_fake_fn - answers one decoded request into @out (encoders of proto.h);
 * leaving @out empty sends nothing. @conn counts accepted connections from 1.
 */
struct ct_fake;
typedef void (*ct_fake_fn)(struct ct_fake *f, const struct proto_request *req,
			   struct proto_buf *out, int conn);

struct ct_fake {
	int lfd;
	int port;
	char address[64];
	pthread_t thread;
	ct_fake_fn fn;
	void *data;			/* the test's */
	int stop_pipe[2];
	_Atomic int conns;		/* accepted so far */
	_Atomic int requests;		/* decoded so far */
	bool close_after_reply;		/* hang up after each reply (a dying daemon) */
	bool hangup;			/* set by fn: close this connection now */
};

/* Serve one connection until it closes or the fake stops. */
static inline void ct_fake_serve(struct ct_fake *f, int fd)
{
	struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN },
				 { .fd = f->stop_pipe[0], .events = POLLIN } };
	char buf[8192];
	struct proto_splitter sp;
	struct proto_request req;
	struct proto_buf out;
	const char *line, *data;
	size_t used, llen, left;
	ssize_t n;

	proto_splitter_init(&sp, 0);
	for (;;) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			break;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		data = buf;
		left = (size_t)n;
		while (proto_splitter_next(&sp, data, left, &used, &line, &llen) == 1) {
			data += used;
			left -= used;
			proto_buf_init(&out);
			if (proto_request_decode(&req, line, llen, NULL, 0) == 0) {
				f->requests++;
				f->fn(f, &req, &out, f->conns);
			}
			proto_request_fini(&req);
			if (out.len && send(fd, out.data, out.len, MSG_NOSIGNAL) < 0)
				left = 0;
			proto_buf_fini(&out);
			if (f->close_after_reply || f->hangup) {
				f->hangup = false;
				goto out_fini;
			}
		}
	}
out_fini:
	proto_splitter_fini(&sp);
}

static inline void *ct_fake_main(void *arg)
{
	struct ct_fake *f = arg;
	struct pollfd pfd[2] = { { .fd = f->lfd, .events = POLLIN },
				 { .fd = f->stop_pipe[0], .events = POLLIN } };
	int fd;

	for (;;) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			break;
		fd = accept4(f->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		f->conns++;
		ct_fake_serve(f, fd);
		close(fd);
	}
	return NULL;
}

/* Start a fake daemon answering with @fn on a free loopback port. Return: 0, or -errno. */
static inline int ct_fake_start(struct ct_fake *f, ct_fake_fn fn, void *data)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);

	memset(f, 0, sizeof(*f));
	f->fn = fn;
	f->data = data;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	f->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (f->lfd < 0 || bind(f->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(f->lfd, 16) < 0 || getsockname(f->lfd, (struct sockaddr *)&sa, &len) < 0 ||
	    pipe2(f->stop_pipe, O_CLOEXEC) < 0)
		return -errno;
	f->port = ntohs(sa.sin_port);
	snprintf(f->address, sizeof(f->address), "127.0.0.1:%d", f->port);
	return -pthread_create(&f->thread, NULL, ct_fake_main, f);
}

/* Stop the fake daemon; pair of ct_fake_start(). */
static inline void ct_fake_stop(struct ct_fake *f)
{
	if (write(f->stop_pipe[1], "x", 1) == 1)
		pthread_join(f->thread, NULL);
	close(f->stop_pipe[0]);
	close(f->stop_pipe[1]);
	close(f->lfd);
}

/* Run @argv, stdout to @out (bytes), stderr to @err; wait. Return: the exit status, or -1. */
static inline int ct_run(const char *const *argv, char *out, size_t outlen, char *err,
			 size_t errlen)
{
	int po[2], pe[2], status = -1;
	size_t no = 0, ne = 0;
	struct pollfd pfd[2];
	ssize_t n;
	pid_t pid;

	if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	pfd[0] = (struct pollfd){ .fd = po[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = pe[0], .events = POLLIN };
	while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
		if (poll(pfd, 2, -1) < 0)
			break;
		if (pfd[0].revents) {
			n = read(po[0], out + no, outlen - 1 - no);
			if (n <= 0)
				pfd[0].fd = -1;
			else
				no += (size_t)n;
		}
		if (pfd[1].revents) {
			n = read(pe[0], err + ne, errlen - 1 - ne);
			if (n <= 0)
				pfd[1].fd = -1;
			else
				ne += (size_t)n;
		}
	}
	out[no] = '\0';
	err[ne] = '\0';
	close(po[0]);
	close(pe[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif /* IIOWIRE_CLIENTTEST_H */
