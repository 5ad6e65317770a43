/*
 * iiowire_soak.c - iiowire-soak, a long mixed load for iiowired that watches
 * the daemon's memory and descriptors while it runs.
 *
 * C clients each walk a script of mixed requests, one in flight at a time:
 * READ and CREAD (processed too), DEVICES and STATS listings, a WRITE of the
 * dummy's out_voltage0_raw, a JSON READ, a request that must fail, and a
 * WATCH held for a few requests (its EVENT lines arrive in between) and then
 * UNWATCHed. Every client reconnects after R requests, so sessions come and
 * go all the time. Each reply is checked for its shape (OK/ERR, listing
 * length, the expected error); anything else is counted as bad. Every I
 * seconds the daemon's VmRSS (/proc/PID/status) and open descriptors
 * (/proc/PID/fd) are sampled and printed; at the end, a summary with the
 * first sample after the warm-up (every client connected and busy), the
 * last and the largest. Place in the flow: a client of the wire,
 * outside the daemon; it measures, the caller judges. One thread, epoll.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
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

#define SOAK_CONN_MAX		20000
#define SOAK_RBUF_BYTES		(64 * 1024)
#define SOAK_LINE_MAX_BYTES	4096

/* What a step's reply must look like. */
enum soak_expect {
	SOAK_OK,		/* "OK" or "OK <value>" (or a JSON ok) */
	SOAK_LIST,		/* "OK <n>" and n lines */
	SOAK_ERR,		/* an ERR line: the step asks for one */
};

/* One step of the script; "%d" in @req gets a counter. */
struct soak_step {
	const char *req;
	enum soak_expect expect;
};

/*
 * The script every client walks, from a random start; the demo board's
 * names (maps/demo.json, what iiowired serves without --board). WATCH and
 * UNWATCH bracket a few steps so events interleave with replies.
 */
static const struct soak_step soak_script[] = {
	{ "READ max1363 in_voltage0_raw", SOAK_OK },
	{ "CREAD iio_hwmon.0 testchan1 raw", SOAK_OK },
	{ "WATCH max1238 in_voltage1_raw 20", SOAK_OK },
	{ "READ dummy0 in_voltage0_raw", SOAK_OK },
	{ "DEVICES", SOAK_LIST },
	{ "WRITE dummy0 out_voltage0_raw %d", SOAK_OK },
	{ "CREAD iio_hwmon.0 board_temp processed", SOAK_OK },
	{ "UNWATCH", SOAK_OK },
	{ "{\"id\":%d,\"op\":\"read\",\"device\":\"power-adc\",\"attr\":\"in_voltage_scale\"}",
	  SOAK_OK },
	{ "READ dummy0 no_such_attribute", SOAK_ERR },
	{ "READ ambient-light in_illuminance0_input", SOAK_OK },
	{ "STATS", SOAK_LIST },
	{ "READ imu in_accel_x_raw", SOAK_OK },
	{ "CONSUMER iio_hwmon.0", SOAK_LIST },
};

#define SOAK_STEPS	(sizeof(soak_script) / sizeof(soak_script[0]))

struct soak_conn {
	int fd;
	unsigned int step;		/* index into soak_script of the request in flight */
	unsigned int done;		/* requests answered on this connection */
	int list_left;			/* lines of a listing still to come; -1: reply line next */
	bool watching;
	char rbuf[SOAK_LINE_MAX_BYTES * 2];
	size_t rlen;
};

struct soak_totals {
	uint64_t requests;
	uint64_t events;
	uint64_t errors_expected;
	uint64_t bad;			/* replies of the wrong shape, unexpected ERR, closes */
	uint64_t reconnects;
	char first_bad[256];
};

struct soak_sample {
	long rss_kb;
	long fds;
};

struct soak {
	struct sockaddr_in addr;
	int epfd;
	int nconns;
	unsigned int per_conn;		/* -r: requests before a reconnect */
	pid_t pid;			/* -P: 0 when not sampling */
	struct soak_conn *conns;
	struct soak_totals tot;
	unsigned int counter;
};

static long soak_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void soak_bad(struct soak *sk, const struct soak_conn *c, const char *what,
		     const char *line)
{
	if (!sk->tot.bad++)
		snprintf(sk->tot.first_bad, sizeof(sk->tot.first_bad), "%s after '%s': %.160s",
			 what, soak_script[c->step].req, line);
}

/* ---- connections ---- */

static int soak_send_step(struct soak *sk, struct soak_conn *c)
{
	char req[SOAK_LINE_MAX_BYTES];
	int len;

	len = snprintf(req, sizeof(req) - 1, soak_script[c->step].req, (int)(sk->counter++ % 4096));
	req[len++] = '\n';
	/* one short request per turn: the socket buffer always takes it whole */
	if (send(c->fd, req, (size_t)len, MSG_NOSIGNAL) != len)
		return -EIO;
	c->list_left = -1;
	return 0;
}

static int soak_open(struct soak *sk, struct soak_conn *c)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int one = 1;

	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	if (connect(c->fd, (struct sockaddr *)&sk->addr, sizeof(sk->addr)) < 0) {
		close(c->fd);
		c->fd = -1;
		return -errno;
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	ev.data.ptr = c;
	epoll_ctl(sk->epfd, EPOLL_CTL_ADD, c->fd, &ev);
	c->rlen = 0;
	c->done = 0;
	c->watching = false;
	c->step = (unsigned int)rand() % SOAK_STEPS;
	/* never start inside a watch bracket without its WATCH */
	if (strncmp(soak_script[c->step].req, "UNWATCH", 7) == 0)
		c->step = (c->step + 1) % SOAK_STEPS;
	return soak_send_step(sk, c);
}

static void soak_close(struct soak *sk, struct soak_conn *c)
{
	if (c->fd < 0)
		return;
	epoll_ctl(sk->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
}

/* A whole reply is in: count it, then reconnect or send the next step. */
static int soak_next(struct soak *sk, struct soak_conn *c)
{
	const char *req = soak_script[c->step].req;

	sk->tot.requests++;
	c->done++;
	if (strncmp(req, "WATCH", 5) == 0)
		c->watching = true;
	else if (strncmp(req, "UNWATCH", 7) == 0)
		c->watching = false;
	c->step = (c->step + 1) % SOAK_STEPS;
	if (c->done >= sk->per_conn && !c->watching) {
		/* leave without QUIT, as most clients do; the daemon drops the watch */
		soak_close(sk, c);
		sk->tot.reconnects++;
		return soak_open(sk, c);
	}
	return soak_send_step(sk, c);
}

/* One line from the daemon on @c. Return: 0, or < 0 to drop the connection. */
static int soak_line(struct soak *sk, struct soak_conn *c, const char *line)
{
	const struct soak_step *st = &soak_script[c->step];

	if (strncmp(line, "EVENT ", 6) == 0 && c->list_left < 0) {
		sk->tot.events++;
		return 0;
	}
	if (c->list_left > 0) {
		if (--c->list_left == 0)
			return soak_next(sk, c);
		return 0;
	}
	if (line[0] == '{') {
		/* the JSON step: a one-line object */
		if (!strstr(line, "\"ok\":true"))
			soak_bad(sk, c, "JSON error", line);
		return soak_next(sk, c);
	}
	if (strncmp(line, "ERR ", 4) == 0) {
		if (st->expect == SOAK_ERR)
			sk->tot.errors_expected++;
		else
			soak_bad(sk, c, "unexpected error", line);
		return soak_next(sk, c);
	}
	if (strncmp(line, "OK", 2) != 0 || st->expect == SOAK_ERR) {
		soak_bad(sk, c, "unexpected reply", line);
		return soak_next(sk, c);
	}
	if (st->expect == SOAK_LIST) {
		c->list_left = atoi(line + 3);
		if (c->list_left > 0)
			return 0;
	}
	return soak_next(sk, c);
}

static int soak_readable(struct soak *sk, struct soak_conn *c)
{
	char *nl, *p;
	ssize_t n;
	int ret;

	n = recv(c->fd, c->rbuf + c->rlen, sizeof(c->rbuf) - c->rlen - 1, 0);
	if (n <= 0)
		return n == 0 ? -EPIPE : -errno;
	c->rlen += (size_t)n;
	c->rbuf[c->rlen] = '\0';
	p = c->rbuf;
	while ((nl = memchr(p, '\n', c->rlen - (size_t)(p - c->rbuf)))) {
		*nl = '\0';
		ret = soak_line(sk, c, p);
		if (ret < 0)
			return ret;
		if (c->fd < 0 || c->rlen == 0)
			return 0;	/* reconnected: the old buffer is gone */
		p = nl + 1;
	}
	c->rlen -= (size_t)(p - c->rbuf);
	memmove(c->rbuf, p, c->rlen);
	if (c->rlen >= sizeof(c->rbuf) - 1)
		return -E2BIG;
	return 0;
}

/* ---- main ---- */

static void soak_usage(FILE *out)
{
	fprintf(out,
"usage: iiowire-soak [-a HOST] [-p PORT] [-c CLIENTS] [-r REQUESTS] [-t SECONDS]\n"
"                    [-i SECONDS] [-w SECONDS] [-P PID]\n"
"Mixed requests (READ, CREAD, DEVICES, STATS, WRITE, JSON, WATCH/UNWATCH, an error)\n"
"against iiowired's demo board from CLIENTS connections (default 64), each reconnecting\n"
"after REQUESTS answers (default 500), for SECONDS (default 60). With -P, the daemon's\n"
"VmRSS and open descriptors are sampled every -i SECONDS (default 5); the summary's\n"
"first sample is the one after -w SECONDS of warm-up (default 5).\n"
"Exit status: 0, or 1 if any reply had the wrong shape or a connection failed.\n");
}

/* The run's options beside struct soak: where to connect and how long. */
struct soak_run {
	const char *host;
	int port;
	long secs, every, warm;		/* -t, -i, -w: seconds */
	long t0, next_sample;		/* ms */
	uint64_t req_prev;
	struct soak_sample first, last, max;
};

/* Return: 0 to run, or the exit status (0 after -h, 2 on a bad option). */
static int soak_options(struct soak *sk, struct soak_run *run, int argc, char **argv, int *exit)
{
	int opt;

	while ((opt = getopt(argc, argv, "a:p:c:r:t:i:w:P:h")) != -1) {
		switch (opt) {
		case 'a': run->host = optarg; break;
		case 'p': run->port = atoi(optarg); break;
		case 'c': sk->nconns = atoi(optarg); break;
		case 'r': sk->per_conn = (unsigned int)atoi(optarg); break;
		case 't': run->secs = atol(optarg); break;
		case 'i': run->every = atol(optarg); break;
		case 'w': run->warm = atol(optarg); break;
		case 'P': sk->pid = (pid_t)atoi(optarg); break;
		case 'h': soak_usage(stdout); *exit = 0; return -1;
		default: soak_usage(stderr); *exit = 2; return -1;
		}
	}
	if (sk->nconns < 1 || sk->nconns > SOAK_CONN_MAX || !sk->per_conn || run->secs < 1 ||
	    run->every < 1 || run->warm < 0 || run->port <= 0 || run->port > 65535) {
		soak_usage(stderr);
		*exit = 2;
		return -1;
	}
	sk->addr.sin_family = AF_INET;
	sk->addr.sin_port = htons((uint16_t)run->port);
	if (inet_pton(AF_INET, run->host, &sk->addr.sin_addr) != 1) {
		fprintf(stderr, "iiowire-soak: -a wants an IPv4 address\n");
		*exit = 2;
		return -1;
	}
	return 0;
}

/* Descriptors, epoll and every client connected. Return: 0, or -1 (said on stderr). */
static int soak_setup(struct soak *sk)
{
	struct rlimit rl;
	int i, ret;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	signal(SIGPIPE, SIG_IGN);
	srand(1);
	sk->epfd = epoll_create1(EPOLL_CLOEXEC);
	sk->conns = calloc((size_t)sk->nconns, sizeof(*sk->conns));
	if (sk->epfd < 0 || !sk->conns) {
		perror("iiowire-soak");
		return -1;
	}
	for (i = 0; i < sk->nconns; i++)
		sk->conns[i].fd = -1;
	for (i = 0; i < sk->nconns; i++) {
		ret = soak_open(sk, &sk->conns[i]);
		if (ret < 0) {
			fprintf(stderr, "iiowire-soak: connect: %s\n", strerror(-ret));
			return -1;
		}
	}
	return 0;
}

/* One sample line of the daemon's memory and descriptors. Return: true when time is up. */
static bool soak_sample(struct soak *sk, struct soak_run *run, long now)
{
	struct soak_sample s;
	double rate;

	s.rss_kb = sk->pid ? procstat_rss_kb(sk->pid) : -1;
	s.fds = sk->pid ? procstat_fds(sk->pid) : -1;
	if (run->first.rss_kb < 0 && run->first.fds < 0 && now - run->t0 >= run->warm * 1000)
		run->first = s;
	run->last = s;
	if (s.rss_kb > run->max.rss_kb)
		run->max.rss_kb = s.rss_kb;
	if (s.fds > run->max.fds)
		run->max.fds = s.fds;
	rate = now > run->t0 ? (double)(sk->tot.requests - run->req_prev) / (double)run->every : 0;
	printf("%8.1f %10ld %6ld %10llu %9.0f %8llu %6llu\n", (now - run->t0) / 1000.0,
	       s.rss_kb, s.fds, (unsigned long long)sk->tot.requests, rate,
	       (unsigned long long)sk->tot.events, (unsigned long long)sk->tot.bad);
	fflush(stdout);
	run->req_prev = sk->tot.requests;
	if (now - run->t0 >= run->secs * 1000)
		return true;
	run->next_sample += run->every * 1000;
	return false;
}

/* Serve every readable client; reconnect a lost one. Return: 0, or -1: the daemon is gone. */
static int soak_events(struct soak *sk, const struct epoll_event *evs, int n)
{
	int i, ret;

	for (i = 0; i < n; i++) {
		struct soak_conn *c = evs[i].data.ptr;

		if (c->fd < 0)
			continue;
		ret = soak_readable(sk, c);
		if (ret < 0) {
			soak_bad(sk, c, "connection lost", strerror(-ret));
			soak_close(sk, c);
			sk->tot.reconnects++;
			if (soak_open(sk, c) < 0) {
				fprintf(stderr, "iiowire-soak: the daemon went away\n");
				return -1;
			}
		}
	}
	return 0;
}

/* Samples and load until the time is up or the daemon goes away. */
static void soak_loop(struct soak *sk, struct soak_run *run)
{
	struct epoll_event evs[256];
	long now;
	int n;

	run->t0 = soak_now_ms();
	run->next_sample = run->t0;
	printf("%8s %10s %6s %10s %9s %8s %6s\n", "t_s", "rss_kb", "fds", "requests", "req/s",
	       "events", "bad");
	for (;;) {
		now = soak_now_ms();
		if (now >= run->next_sample && soak_sample(sk, run, now))
			return;
		n = epoll_wait(sk->epfd, evs, 256, (int)(run->next_sample - now));
		if (soak_events(sk, evs, n) < 0)
			return;
	}
}

/* The RESULT line soak.sh reads, and the first bad reply if any. */
static void soak_report(const struct soak *sk, const struct soak_run *run)
{
	printf("RESULT clients=%d seconds=%ld requests=%llu req_per_s=%.0f events=%llu "
	       "expected_errors=%llu reconnects=%llu bad=%llu rss_kb_first=%ld rss_kb_last=%ld "
	       "rss_kb_max=%ld fds_first=%ld fds_last=%ld fds_max=%ld\n", sk->nconns, run->secs,
	       (unsigned long long)sk->tot.requests, sk->tot.requests * 1000.0 /
	       (double)(soak_now_ms() - run->t0), (unsigned long long)sk->tot.events,
	       (unsigned long long)sk->tot.errors_expected, (unsigned long long)sk->tot.reconnects,
	       (unsigned long long)sk->tot.bad, run->first.rss_kb, run->last.rss_kb,
	       run->max.rss_kb, run->first.fds, run->last.fds, run->max.fds);
	if (sk->tot.bad)
		printf("first bad reply: %s\n", sk->tot.first_bad);
}

int main(int argc, char **argv)
{
	struct soak sk = { .nconns = 64, .per_conn = 500, .epfd = -1 };
	struct soak_run run = {
		.host = "127.0.0.1", .port = 30432, .secs = 60, .every = 5, .warm = 5,
		.first = { -1, -1 }, .last = { -1, -1 }, .max = { -1, -1 },
	};
	int i, status = 0;

	if (soak_options(&sk, &run, argc, argv, &status) < 0)
		return status;
	if (soak_setup(&sk) < 0)
		return 1;
	soak_loop(&sk, &run);
	soak_report(&sk, &run);
	for (i = 0; i < sk.nconns; i++)
		soak_close(&sk, &sk.conns[i]);
	free(sk.conns);
	close(sk.epfd);
	return sk.tot.bad ? 1 : 0;
}
