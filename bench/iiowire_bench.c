/*
 * iiowire_bench.c - iiowire-bench, a load generator for iiowired in the
 * manner of redis-benchmark: C connections, D requests in flight on each,
 * requests per second and latency percentiles.
 *
 * Closed loop: every reply line sent back is answered with the next request
 * on the same connection, so each connection always has D requests in
 * flight (D = 1: strict round trips). One thread and epoll; replies are
 * counted by line, so the request must have a one-line reply (READ, CREAD,
 * VERSION...). Latency is measured from the write that carried a request to
 * the read that carried its reply, into a log-linear histogram (1/64 of an
 * octave). With -d 0 the connections are only opened, each answers one
 * request, and they are held idle (for memory measurements). Given the
 * server's pid (-P), the server's CPU time and resident memory are read
 * from /proc too. Place in the flow: a client of the wire, outside the
 * daemon; it measures, it never judges. No dependencies beyond libc.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../tests/procstat.h"
#include "bench_hist.h"

#define BENCH_CONN_MAX		100000
#define BENCH_DEPTH_MAX		4096
#define BENCH_RBUF_BYTES	(64 * 1024)
#define BENCH_REQ_MAX_BYTES	4096
struct bench_conn {
	int fd;
	bool connected;
	bool probed;		/* the first reply came: the connection is ready */
	bool dead;
	uint64_t *sent;		/* ring of send times (ns) of requests in flight */
	unsigned int head, inflight;
	char *rbuf;
	size_t rlen;
};

struct bench {
	/* options */
	const char *host;
	int port;
	int conns;
	int depth;
	double warmup_s;
	double time_s;
	char req[BENCH_REQ_MAX_BYTES];
	size_t reqlen;
	char expect[64];
	pid_t server_pid;
	const char *label;
	/* state */
	int ep;
	struct bench_conn *c;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	char *sendbuf;		/* the request repeated depth times, for batched sends */
	struct bench_hist hist;
	uint64_t window_start, window_end;
	uint64_t ok, errors, closed, connect_failed;
	int ready;
	bool loading;		/* past set-up: keep D in flight */
};

static uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU ticks (user + system) and resident KiB of a process; -1 when unknown. */
static void bench_proc(pid_t pid, long *ticks, long *rss_kb)
{
	*ticks = pid > 0 ? procstat_cpu_ticks(pid) : -1;
	*rss_kb = pid > 0 ? procstat_rss_kb(pid) : -1;
}

/* Decode \n \r \t \\ in a request given on the command line; add the LF if missing. */
static int bench_set_request(struct bench *b, const char *text)
{
	size_t n = 0;

	for (; *text && n < sizeof(b->req) - 2; text++) {
		if (*text == '\\' && text[1]) {
			text++;
			b->req[n++] = *text == 'n' ? '\n' : *text == 'r' ? '\r' :
				      *text == 't' ? '\t' : *text;
		} else {
			b->req[n++] = *text;
		}
	}
	if (!n || b->req[n - 1] != '\n')
		b->req[n++] = '\n';
	if (memchr(b->req, '\n', n) != b->req + n - 1)
		return -EINVAL;	/* one request line per reply line */
	b->reqlen = n;
	return 0;
}

static int bench_resolve(struct bench *b)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res;
	char port[16];

	snprintf(port, sizeof(port), "%d", b->port);
	if (getaddrinfo(b->host, port, &hints, &res))
		return -EINVAL;
	memcpy(&b->addr, res->ai_addr, res->ai_addrlen);
	b->addrlen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static void bench_kill(struct bench *b, struct bench_conn *c)
{
	if (c->dead)
		return;
	c->dead = true;
	if (c->probed)
		b->ready--;
	epoll_ctl(b->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	b->closed++;
}

/* Send @n requests on @c in one write. */
static void bench_send(struct bench *b, struct bench_conn *c, unsigned int n)
{
	uint64_t now = bench_now_ns();
	size_t len = b->reqlen * n, off = 0;
	ssize_t w;
	unsigned int i;

	while (off < len) {
		w = send(c->fd, b->sendbuf + off, len - off, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			/* rare at these sizes: the server is not reading; wait a little */
			struct timespec ts = { 0, 100000 };

			nanosleep(&ts, NULL);
			continue;
		}
		if (w < 0) {
			bench_kill(b, c);
			return;
		}
		off += (size_t)w;
	}
	for (i = 0; i < n; i++) {
		c->sent[(c->head + c->inflight) % (unsigned int)(b->depth ? b->depth : 1)] = now;
		c->inflight++;
	}
}

static int bench_open(struct bench *b, struct bench_conn *c)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.ptr = c };
	int one = 1;

	c->fd = socket(b->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(c->fd, (struct sockaddr *)&b->addr, b->addrlen) < 0 && errno != EINPROGRESS) {
		close(c->fd);
		return -errno;
	}
	return epoll_ctl(b->ep, EPOLL_CTL_ADD, c->fd, &ev) < 0 ? -errno : 0;
}

/* Replies arrived: account each line, then keep D in flight. */
static void bench_readable(struct bench *b, struct bench_conn *c, uint64_t now)
{
	unsigned int lines = 0, ring = (unsigned int)(b->depth ? b->depth : 1);
	char *p, *nl, *end;
	ssize_t r;

	for (;;) {
		r = recv(c->fd, c->rbuf + c->rlen, BENCH_RBUF_BYTES - c->rlen, 0);
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
			bench_kill(b, c);
			return;
		}
		if (r < 0)
			break;
		c->rlen += (size_t)r;
		p = c->rbuf;
		end = c->rbuf + c->rlen;
		while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
			if (c->inflight) {
				uint64_t sent = c->sent[c->head];

				c->head = (c->head + 1) % ring;
				c->inflight--;
				if (!c->probed) {
					c->probed = true;
					b->ready++;
				} else if (sent >= b->window_start && now < b->window_end) {
					bench_hist_add(&b->hist, now - sent);
					if (b->expect[0] &&
					    strncmp(p, b->expect, strlen(b->expect)))
						b->errors++;
					else
						b->ok++;
				}
				lines++;
			}
			p = nl + 1;
		}
		c->rlen = (size_t)(end - p);
		memmove(c->rbuf, p, c->rlen);
		if (c->rlen == BENCH_RBUF_BYTES) {
			/* a line longer than the buffer: not our kind of reply */
			bench_kill(b, c);
			return;
		}
		if ((size_t)r < BENCH_RBUF_BYTES / 2)
			break;
	}
	if (lines && b->loading && now < b->window_end) {
		unsigned int want = (unsigned int)b->depth - c->inflight;

		if (want)
			bench_send(b, c, want);
	}
}

static void bench_usage(FILE *out)
{
	fprintf(out,
"usage: iiowire-bench [-h HOST] [-p PORT] [-c CONNS] [-d DEPTH] [-t SECONDS] [-w SECONDS]\n"
"                     [-r REQUEST] [-e PREFIX] [-P PID] [-L LABEL]\n"
"Load iiowired (or any one-line-reply server) and report req/s and latency.\n"
"  -h HOST     server host (default 127.0.0.1)\n"
"  -p PORT     server port (default 30432)\n"
"  -c CONNS    connections (default 1)\n"
"  -d DEPTH    requests in flight per connection (default 1; 0: idle connections)\n"
"  -t SECONDS  measured time (default 5)\n"
"  -w SECONDS  warm-up before measuring (default 1)\n"
"  -r REQUEST  the request line; \\n \\r \\t escapes (default 'READ max1363 in_voltage0_raw')\n"
"  -e PREFIX   a reply not starting with PREFIX counts as an error (default 'OK')\n"
"  -P PID      the server's pid: report its CPU and resident memory\n"
"  -L LABEL    a label for the RESULT line\n");
}

static int bench_parse(struct bench *b, int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "h:p:c:d:t:w:r:e:P:L:H")) != -1) {
		switch (c) {
		case 'h': b->host = optarg; break;
		case 'p': b->port = atoi(optarg); break;
		case 'c': b->conns = atoi(optarg); break;
		case 'd': b->depth = atoi(optarg); break;
		case 't': b->time_s = atof(optarg); break;
		case 'w': b->warmup_s = atof(optarg); break;
		case 'r':
			if (bench_set_request(b, optarg)) {
				fprintf(stderr, "iiowire-bench: -r: one request line only\n");
				return -EINVAL;
			}
			break;
		case 'e': snprintf(b->expect, sizeof(b->expect), "%s", optarg); break;
		case 'P': b->server_pid = (pid_t)atoi(optarg); break;
		case 'L': b->label = optarg; break;
		case 'H': bench_usage(stdout); exit(0);
		default: bench_usage(stderr); return -EINVAL;
		}
	}
	if (b->port <= 0 || b->port > 65535 || b->conns < 1 || b->conns > BENCH_CONN_MAX ||
	    b->depth < 0 || b->depth > BENCH_DEPTH_MAX || b->time_s <= 0 || b->warmup_s < 0) {
		fprintf(stderr, "iiowire-bench: option out of range (-H for help)\n");
		return -EINVAL;
	}
	return 0;
}

/* The defaults, then the command line. Return: 0, or 2 (the exit status). */
static int bench_config(struct bench *b, int argc, char **argv)
{
	b->host = "127.0.0.1";
	b->port = 30432;
	b->conns = 1;
	b->depth = 1;
	b->time_s = 5;
	b->warmup_s = 1;
	b->label = "-";
	strcpy(b->expect, "OK");
	bench_set_request(b, "READ max1363 in_voltage0_raw");
	if (bench_parse(b, argc, argv))
		return 2;
	if (bench_resolve(b)) {
		fprintf(stderr, "iiowire-bench: cannot resolve %s\n", b->host);
		return 2;
	}
	return 0;
}

/* Descriptors, epoll, the request ring and every connection's buffers. Return: 0, -ENOMEM. */
static int bench_alloc(struct bench *b, int ring)
{
	struct rlimit rl;
	int i;

	signal(SIGPIPE, SIG_IGN);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	b->c = calloc((size_t)b->conns, sizeof(*b->c));
	b->sendbuf = malloc(b->reqlen * (size_t)ring);
	b->ep = epoll_create1(EPOLL_CLOEXEC);
	if (!b->c || !b->sendbuf || b->ep < 0)
		return -ENOMEM;
	for (i = 0; i < ring; i++)
		memcpy(b->sendbuf + (size_t)i * b->reqlen, b->req, b->reqlen);
	for (i = 0; i < b->conns; i++) {
		b->c[i].sent = calloc((size_t)ring, sizeof(uint64_t));
		b->c[i].rbuf = malloc(BENCH_RBUF_BYTES);
		if (!b->c[i].sent || !b->c[i].rbuf)
			return -ENOMEM;
	}
	return 0;
}

/* A connect finished on @c: on success, send its probe request. */
static void bench_connected(struct bench *b, struct bench_conn *c)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
	socklen_t len = sizeof(int);
	int err = 0;

	getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
	if (err) {
		b->connect_failed++;
		bench_kill(b, c);
		b->closed--;
		return;
	}
	c->connected = true;
	epoll_ctl(b->ep, EPOLL_CTL_MOD, c->fd, &ev);
	bench_send(b, c, 1);
}

/* Set-up: connect everything, one probe request each (at most 30 s). */
static void bench_connect_all(struct bench *b)
{
	struct epoll_event evs[256];
	uint64_t t0, now, deadline;
	int i, n;

	b->window_start = UINT64_MAX;
	b->window_end = UINT64_MAX;
	t0 = bench_now_ns();
	for (i = 0; i < b->conns; i++) {
		if (bench_open(b, &b->c[i]) < 0) {
			b->connect_failed++;
			b->c[i].dead = true;
		}
	}
	deadline = t0 + 30ull * 1000000000ull;
	while (b->ready + (int)b->connect_failed + (int)b->closed < b->conns &&
	       bench_now_ns() < deadline) {
		n = epoll_wait(b->ep, evs, 256, 100);
		now = bench_now_ns();
		for (i = 0; i < n; i++) {
			struct bench_conn *c = evs[i].data.ptr;

			if (!c->connected && (evs[i].events & EPOLLOUT)) {
				bench_connected(b, c);
				if (c->dead)
					continue;
			}
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				bench_readable(b, c, now);
		}
	}
	printf("%d of %d connections ready in %.1f ms (%llu failed, %llu closed)\n", b->ready,
	       b->conns, (double)(bench_now_ns() - t0) / 1e6,
	       (unsigned long long)b->connect_failed, (unsigned long long)b->closed);
}

/*
 * Load: D in flight on every ready connection, for the warm-up and the
 * window; the server's CPU ticks at the window's start in *ticks0.
 */
static void bench_load(struct bench *b, long *ticks0)
{
	struct epoll_event evs[256];
	bool measuring = false;
	uint64_t now;
	long rss0;
	int i, n;

	now = bench_now_ns();
	b->window_start = now + (uint64_t)(b->warmup_s * 1e9);
	b->window_end = b->window_start + (uint64_t)(b->time_s * 1e9);
	b->loading = b->depth > 0;
	if (b->loading)
		for (i = 0; i < b->conns; i++)
			if (!b->c[i].dead && b->c[i].probed)
				bench_send(b, &b->c[i], (unsigned int)b->depth);
	*ticks0 = -1;
	while ((now = bench_now_ns()) < b->window_end) {
		if (!measuring && now >= b->window_start) {
			measuring = true;
			bench_proc(b->server_pid, ticks0, &rss0);
		}
		n = epoll_wait(b->ep, evs, 256, 50);
		now = bench_now_ns();
		for (i = 0; i < n; i++)
			bench_readable(b, evs[i].data.ptr, now);
	}
}

/* The human lines, then the RESULT line compare.sh reads. */
static void bench_report(const struct bench *b, long ticks0)
{
	long ticks1, rss1, hz = sysconf(_SC_CLK_TCK);
	double secs = b->time_s, cpu;

	bench_proc(b->server_pid, &ticks1, &rss1);
	cpu = ticks0 >= 0 && ticks1 >= 0 ? (double)(ticks1 - ticks0) / (double)hz / secs * 100 : -1;
	if (b->depth) {
		printf("%d connections x %d in flight, %.1f s: %.0f requests/s, %llu errors\n",
		       b->ready, b->depth, secs, (double)b->ok / secs,
		       (unsigned long long)b->errors);
		printf("latency (us): p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f\n",
		       bench_hist_q(&b->hist, 0.5) / 1e3, bench_hist_q(&b->hist, 0.99) / 1e3,
		       bench_hist_q(&b->hist, 0.999) / 1e3, (double)b->hist.max / 1e3);
	} else {
		printf("%d idle connections held %.1f s\n", b->ready, secs);
	}
	if (b->server_pid > 0)
		printf("server pid %d: cpu %.0f%%, rss %ld KiB\n", (int)b->server_pid, cpu, rss1);
	printf("RESULT label=%s c=%d d=%d rps=%.0f p50_us=%.1f p99_us=%.1f p999_us=%.1f "
	       "max_us=%.1f ok=%llu err=%llu ready=%d closed=%llu conn_fail=%llu "
	       "srv_cpu_pct=%.0f srv_rss_kb=%ld\n",
	       b->label, b->conns, b->depth, (double)b->ok / secs,
	       bench_hist_q(&b->hist, 0.5) / 1e3, bench_hist_q(&b->hist, 0.99) / 1e3,
	       bench_hist_q(&b->hist, 0.999) / 1e3, (double)b->hist.max / 1e3,
	       (unsigned long long)b->ok, (unsigned long long)b->errors, b->ready,
	       (unsigned long long)b->closed, (unsigned long long)b->connect_failed, cpu, rss1);
}

int main(int argc, char **argv)
{
	struct bench *b = calloc(1, sizeof(*b));
	long ticks0;
	int ret;

	if (!b)
		return 1;
	ret = bench_config(b, argc, argv);
	if (ret)
		return ret;
	if (bench_alloc(b, b->depth ? b->depth : 1) < 0)
		return 1;
	bench_connect_all(b);
	bench_load(b, &ticks0);
	bench_report(b, ticks0);
	return b->ready == b->conns && !b->errors ? 0 : 1;
}
