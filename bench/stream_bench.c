/*
 * stream_bench.c - stream-bench, the scan-stream benchmark client: R readers
 * of one stream (iiowired's native STREAM blocks, or the iiod listener's
 * READBUF replies), delivered bytes and scans per second, lost scans,
 * trigger-to-client latency, and the server's CPU per delivered MB.
 *
 * Place in the flow: a client of the wire, outside the daemon, measuring
 * iiowired and stream-floor (the bare libuv floor) alike in the same run;
 * it measures, it never judges. One thread and epoll. Each reader sends its
 * request lines once, then only reads: a native block is a header line
 * ("BLOCK <stream> <scans> <bytes> <lost>") and that many bytes; other lines
 * (replies, status) are counted and skipped. In iiod mode each reader
 * answers the replies to its set-up lines, then keeps one READBUF in
 * flight. -S adds stalled readers that open the stream and never read
 * again. With -s and -l, the last 8 bytes of every scan are taken as its
 * CLOCK_REALTIME timestamp (the kernel's in_timestamp, little-endian) and
 * the time from it to the read that carried the scan is the latency.
 * No dependencies beyond libc.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
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

#define SB_READERS_MAX		4096
#define SB_RBUF_BYTES		(256 * 1024)
#define SB_LINE_MAX_BYTES	1024
#define SB_REQ_MAX_BYTES	4096
#define SB_TS_BYTES		8

enum sb_mode { SB_NATIVE, SB_IIOD };

/* Where a reader is in its input. */
enum sb_state {
	SB_LINE,	/* reading a line: a header, a reply, a chunk length */
	SB_MASK,	/* iiod: the mask line after a chunk's length */
	SB_DATA,	/* reading @left payload bytes */
};

struct sb_reader {
	int fd;
	bool stalled;		/* sends its request, then never reads */
	bool dead;
	enum sb_state state;
	char line[SB_LINE_MAX_BYTES];
	size_t line_len;
	uint64_t left;		/* payload bytes still to come in this block or chunk */
	uint64_t owed;		/* iiod: bytes of the READBUF in flight not yet received */
	int setup_left;		/* iiod: replies to set-up lines still to come */
	bool first_chunk;	/* iiod: the next chunk length is followed by the mask line */
	unsigned char scan_tail[SB_TS_BYTES];
	uint64_t scan_pos;	/* bytes into the current scan (latency) */
	uint64_t bytes, blocks, lost;	/* in the window */
	uint64_t other_lines;
};

struct sb {
	/* options */
	const char *host;
	int port;
	enum sb_mode mode;
	int readers;
	int stalled;
	double warmup_s, time_s;
	char req[SB_REQ_MAX_BYTES];
	size_t reqlen;
	int req_lines;
	char readbuf[256];	/* iiod: the READBUF line */
	size_t readbuf_len;
	unsigned long scan_bytes;
	bool latency;
	const char *dump_path;
	pid_t server_pid;
	const char *label;
	/* state */
	int ep;
	struct sb_reader *r;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	bool measuring;
	struct bench_hist hist;
	char *rbuf;
	FILE *dump;
	uint64_t dump_left;
};

static uint64_t sb_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sb_kill(struct sb *b, struct sb_reader *r, const char *why)
{
	if (r->dead)
		return;
	r->dead = true;
	epoll_ctl(b->ep, EPOLL_CTL_DEL, r->fd, NULL);
	close(r->fd);
	fprintf(stderr, "stream-bench: reader %d: %s\n", (int)(r - b->r), why);
}

/* Write all of @p (blocking in small sleeps; the requests are short). Return: 0 or -1. */
static int sb_send(struct sb_reader *r, const char *p, size_t len)
{
	while (len) {
		ssize_t w = send(r->fd, p, len, MSG_NOSIGNAL);

		if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
			struct timespec ts = { 0, 100000 };

			nanosleep(&ts, NULL);
			continue;
		}
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* iiod: the next READBUF. */
static void sb_iiod_next(struct sb *b, struct sb_reader *r)
{
	unsigned long long n = 0;

	sscanf(b->readbuf, "READBUF %*s %llu", &n);
	r->owed = n;
	r->first_chunk = true;
	if (sb_send(r, b->readbuf, b->readbuf_len))
		sb_kill(b, r, "send failed");
}

/* Latency: the timestamps of the scans in @p (payload bytes, in order). */
static void sb_scan_times(struct sb *b, struct sb_reader *r, const unsigned char *p, size_t n,
			  uint64_t now_real)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t in_scan = r->scan_pos % b->scan_bytes;

		if (in_scan >= b->scan_bytes - SB_TS_BYTES)
			r->scan_tail[in_scan - (b->scan_bytes - SB_TS_BYTES)] = p[i];
		r->scan_pos++;
		if (r->scan_pos % b->scan_bytes == 0 && b->measuring) {
			uint64_t ts = 0;
			int k;

			for (k = SB_TS_BYTES - 1; k >= 0; k--)
				ts = ts << 8 | r->scan_tail[k];
			if (now_real >= ts)
				bench_hist_add(&b->hist, now_real - ts);
		}
	}
}

/* -D: copy the first whole block (header line and payload) to the dump file. */
static void sb_dump(struct sb *b, const char *p, size_t n, bool header)
{
	if (!b->dump)
		return;
	fwrite(p, 1, n, b->dump);
	if (header)
		fputc('\n', b->dump);
	else if (!(b->dump_left -= n)) {
		fclose(b->dump);
		b->dump = NULL;
	}
}

/*
 * Native: a block header, "BLOCK <stream> <scans> <bytes> <lost>" (PROTOCOL.md
 * S-4, text spelling). Return: true for one, with *nbytes and *lost.
 */
static bool sb_native_header(const char *line, uint64_t *nbytes, uint64_t *lost)
{
	unsigned long long id, scans, bytes, l;

	if (strncmp(line, "BLOCK ", 6) ||
	    sscanf(line + 6, "%llu %llu %llu %llu", &id, &scans, &bytes, &l) != 4)
		return false;
	*nbytes = bytes;
	*lost = l;
	return true;
}

/* A whole line arrived on @r (without its '\n'). */
static void sb_line(struct sb *b, struct sb_reader *r, const char *line)
{
	uint64_t nbytes, lost;
	long long n;

	if (b->mode == SB_NATIVE) {
		if (!sb_native_header(line, &nbytes, &lost)) {
			r->other_lines++;
			return;
		}
		r->left = nbytes;
		r->state = nbytes ? SB_DATA : SB_LINE;
		if (b->measuring) {
			r->blocks++;
			r->lost += lost;
		}
		if (b->dump && nbytes) {
			b->dump_left = nbytes;
			sb_dump(b, line, strlen(line), true);
		}
		return;
	}
	n = strtoll(line, NULL, 10);
	if (n < 0) {
		sb_kill(b, r, line);
		return;
	}
	if (r->setup_left > 0) {
		if (--r->setup_left == 0)
			sb_iiod_next(b, r);
		return;
	}
	if (n == 0 || r->owed == 0) {
		sb_iiod_next(b, r);
		return;
	}
	/* the mask line follows the first chunk's length of every READBUF */
	r->state = r->first_chunk ? SB_MASK : SB_DATA;
	r->first_chunk = false;
	r->left = (uint64_t)n;
	if (b->measuring)
		r->blocks++;
}

/* Payload bytes: count them, time their scans, finish a chunk or a block. */
static void sb_data(struct sb *b, struct sb_reader *r, const char *p, size_t n, uint64_t now)
{
	if (b->measuring)
		r->bytes += n;
	if (b->latency)
		sb_scan_times(b, r, (const unsigned char *)p, n, now);
	if (b->dump && b->dump_left)
		sb_dump(b, p, n, false);
	r->left -= n;
	if (r->left)
		return;
	r->state = SB_LINE;
	if (b->mode == SB_IIOD) {
		r->owed -= r->owed < n ? r->owed : n;
		if (!r->owed)
			sb_iiod_next(b, r);
	}
}

/* Feed the bytes read on @r through the line/payload state machine. */
static void sb_feed(struct sb *b, struct sb_reader *r, const char *p, size_t n, uint64_t now)
{
	while (n && !r->dead) {
		if (r->state == SB_DATA) {
			size_t k = n < r->left ? n : (size_t)r->left;

			sb_data(b, r, p, k, now);
			p += k;
			n -= k;
			continue;
		}
		if (*p == '\n') {
			r->line[r->line_len] = '\0';
			r->line_len = 0;
			if (r->state == SB_MASK)
				r->state = SB_DATA;
			else
				sb_line(b, r, r->line);
		} else if (r->line_len < sizeof(r->line) - 1) {
			r->line[r->line_len++] = *p;
		}
		p++;
		n--;
	}
}

static void sb_readable(struct sb *b, struct sb_reader *r)
{
	uint64_t now = b->latency ? sb_clock_ns(CLOCK_REALTIME) : 0;
	ssize_t got;

	for (;;) {
		got = recv(r->fd, b->rbuf, SB_RBUF_BYTES, 0);
		if (got == 0) {
			sb_kill(b, r, "the server closed the connection");
			return;
		}
		if (got < 0) {
			if (errno != EAGAIN && errno != EINTR)
				sb_kill(b, r, strerror(errno));
			return;
		}
		sb_feed(b, r, b->rbuf, (size_t)got, now);
		if (r->dead || (size_t)got < SB_RBUF_BYTES)
			return;
	}
}

/* Append one request line (\n \r \t escapes decoded, '\n' added). Return: 0 or -EINVAL. */
static int sb_add_line(char *buf, size_t cap, size_t *len, const char *text)
{
	size_t n = *len;

	for (; *text && n < cap - 2; text++) {
		if (*text == '\\' && text[1]) {
			text++;
			buf[n++] = *text == 'n' ? '\n' : *text == 'r' ? '\r' :
				   *text == 't' ? '\t' : *text;
		} else {
			buf[n++] = *text;
		}
	}
	if (*text)
		return -EINVAL;
	if (n == *len || buf[n - 1] != '\n')
		buf[n++] = '\n';
	buf[n] = '\0';
	*len = n;
	return 0;
}

static int sb_open(struct sb *b, struct sb_reader *r)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = r };
	int one = 1, bufsz = 4 * 1024 * 1024;

	r->fd = socket(b->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (r->fd < 0)
		return -errno;
	setsockopt(r->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (!r->stalled)
		setsockopt(r->fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
	if (connect(r->fd, (struct sockaddr *)&b->addr, b->addrlen) < 0) {
		close(r->fd);
		return -errno;
	}
	r->setup_left = b->mode == SB_IIOD ? b->req_lines : 0;
	if (sb_send(r, b->req, b->reqlen) < 0) {
		close(r->fd);
		return -EPIPE;
	}
	if (b->mode == SB_IIOD && !r->setup_left && !r->stalled)
		sb_iiod_next(b, r);
	if (r->stalled)
		return 0;	/* never read: the server's queue for it fills */
	ev.data.ptr = r;
	return epoll_ctl(b->ep, EPOLL_CTL_ADD, r->fd, &ev) < 0 ? -errno : 0;
}

static void sb_usage(FILE *out)
{
	fprintf(out,
"usage: stream-bench [-h HOST] [-p PORT] [-i] -r LINE [-r LINE]... [-R READBUF_LINE]\n"
"                    [-c READERS] [-S STALLED] [-t SECONDS] [-w SECONDS] [-s SCAN_BYTES]\n"
"                    [-l] [-P PID] [-L LABEL] [-D FILE]\n"
"Read one scan stream with R readers; report MB/s, scans/s, lost scans, latency.\n"
"  -h HOST     server host (default 127.0.0.1)\n"
"  -p PORT     server port (default 30432)\n"
"  -r LINE     a line each reader sends first (\\n \\r \\t escapes); repeatable\n"
"  -i          iiod mode: every -r line gets one integer reply, then READBUF in a loop\n"
"  -R LINE     iiod mode: the READBUF line (default 'READBUF iio:device0 4096')\n"
"  -c READERS  readers that keep reading (default 1, at most %d)\n"
"  -S STALLED  readers more that open the stream and never read (default 0)\n"
"  -t SECONDS  measured time (default 5)\n"
"  -w SECONDS  warm-up before measuring (default 1)\n"
"  -s BYTES    bytes per scan: scans/s, and the timestamp's place for -l\n"
"  -l          latency: each scan's last 8 bytes are its CLOCK_REALTIME time (ns, LE)\n"
"  -P PID      the server's pid: its CPU per delivered MB\n"
"  -L LABEL    a label for the RESULT line\n"
"  -D FILE     write the first whole block (header and payload) to FILE and stop\n",
		SB_READERS_MAX);
}

static int sb_parse(struct sb *b, int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "h:p:ir:R:c:S:t:w:s:lP:L:D:H")) != -1) {
		switch (c) {
		case 'h': b->host = optarg; break;
		case 'p': b->port = atoi(optarg); break;
		case 'i': b->mode = SB_IIOD; break;
		case 'r':
			if (sb_add_line(b->req, sizeof(b->req), &b->reqlen, optarg))
				return -EINVAL;
			b->req_lines++;
			break;
		case 'R':
			b->readbuf_len = 0;
			if (sb_add_line(b->readbuf, sizeof(b->readbuf), &b->readbuf_len, optarg))
				return -EINVAL;
			break;
		case 'c': b->readers = atoi(optarg); break;
		case 'S': b->stalled = atoi(optarg); break;
		case 't': b->time_s = atof(optarg); break;
		case 'w': b->warmup_s = atof(optarg); break;
		case 's': b->scan_bytes = strtoul(optarg, NULL, 10); break;
		case 'l': b->latency = true; break;
		case 'P': b->server_pid = (pid_t)atoi(optarg); break;
		case 'L': b->label = optarg; break;
		case 'D': b->dump_path = optarg; break;
		case 'H': sb_usage(stdout); exit(0);
		default: return -EINVAL;
		}
	}
	if (b->port <= 0 || b->port > 65535 || b->readers < 1 || b->stalled < 0 ||
	    b->readers + b->stalled > SB_READERS_MAX || b->time_s <= 0 || b->warmup_s < 0 ||
	    (b->latency && b->scan_bytes < SB_TS_BYTES) || (b->mode == SB_NATIVE && !b->reqlen))
		return -EINVAL;
	return 0;
}

static int sb_config(struct sb *b, int argc, char **argv)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res;
	char port[16];

	b->host = "127.0.0.1";
	b->port = 30432;
	b->readers = 1;
	b->time_s = 5;
	b->warmup_s = 1;
	b->label = "-";
	sb_add_line(b->readbuf, sizeof(b->readbuf), &b->readbuf_len, "READBUF iio:device0 4096");
	if (sb_parse(b, argc, argv)) {
		sb_usage(stderr);
		return 2;
	}
	snprintf(port, sizeof(port), "%d", b->port);
	if (getaddrinfo(b->host, port, &hints, &res)) {
		fprintf(stderr, "stream-bench: cannot resolve %s\n", b->host);
		return 2;
	}
	memcpy(&b->addr, res->ai_addr, res->ai_addrlen);
	b->addrlen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* Open every reader (the stalled ones last). Return: 0, or -1 with a message printed. */
static int sb_start(struct sb *b)
{
	int i, n = b->readers + b->stalled, ret;

	signal(SIGPIPE, SIG_IGN);
	b->ep = epoll_create1(EPOLL_CLOEXEC);
	b->r = calloc((size_t)n, sizeof(*b->r));
	b->rbuf = malloc(SB_RBUF_BYTES);
	if (b->ep < 0 || !b->r || !b->rbuf)
		return -1;
	if (b->dump_path && !(b->dump = fopen(b->dump_path, "wb"))) {
		perror(b->dump_path);
		return -1;
	}
	for (i = 0; i < n; i++) {
		b->r[i].stalled = i >= b->readers;
		ret = sb_open(b, &b->r[i]);
		if (ret < 0) {
			fprintf(stderr, "stream-bench: reader %d: %s\n", i, strerror(-ret));
			return -1;
		}
	}
	return 0;
}

/* Read until the window ends (or, with -D, until the block is written). */
static void sb_run(struct sb *b, long *ticks0)
{
	uint64_t t0 = sb_clock_ns(CLOCK_MONOTONIC), start, end, now;
	struct epoll_event evs[256];
	int i, n;

	start = t0 + (uint64_t)(b->warmup_s * 1e9);
	end = start + (uint64_t)(b->time_s * 1e9);
	*ticks0 = -1;
	while ((now = sb_clock_ns(CLOCK_MONOTONIC)) < end) {
		if (b->dump_path && !b->dump)
			return;
		if (!b->measuring && now >= start) {
			b->measuring = true;
			*ticks0 = b->server_pid > 0 ? procstat_cpu_ticks(b->server_pid) : -1;
		}
		n = epoll_wait(b->ep, evs, 256, 50);
		for (i = 0; i < n; i++)
			sb_readable(b, evs[i].data.ptr);
	}
	b->measuring = false;
}

static int sb_cmp_u64(const void *a, const void *c)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)c;

	return x < y ? -1 : x > y;
}

/* The human lines, then one RESULT line for the scripts. */
static void sb_report(struct sb *b, long ticks0)
{
	long ticks1 = b->server_pid > 0 ? procstat_cpu_ticks(b->server_pid) : -1;
	double secs = b->time_s, cpu_s = -1, mb, per_mb = -1, unit;
	uint64_t *rate = calloc((size_t)b->readers, sizeof(uint64_t)), bytes = 0, lost = 0;
	int i, alive = 0;

	if (!rate)
		return;
	for (i = 0; i < b->readers; i++) {
		if (b->r[i].dead)
			continue;
		rate[alive++] = b->r[i].bytes;
		bytes += b->r[i].bytes;
		lost += b->r[i].lost;
	}
	qsort(rate, (size_t)alive, sizeof(*rate), sb_cmp_u64);
	mb = (double)bytes / 1e6;
	if (ticks0 >= 0 && ticks1 >= 0)
		cpu_s = (double)(ticks1 - ticks0) / (double)sysconf(_SC_CLK_TCK);
	if (cpu_s >= 0 && mb > 0)
		per_mb = cpu_s * 1e3 / mb;
	/* per-reader figures in scans/s when the scan size is known, else bytes/s */
	unit = b->scan_bytes ? (double)b->scan_bytes : 1;
	printf("%d readers (%d stalled), %.1f s: %.2f MB/s delivered, %llu scans lost\n",
	       alive, b->stalled, secs, mb / secs, (unsigned long long)lost);
	if (alive)
		printf("per reader %s/s: min %.0f  median %.0f  max %.0f\n",
		       b->scan_bytes ? "scans" : "bytes", (double)rate[0] / unit / secs,
		       (double)rate[alive / 2] / unit / secs, (double)rate[alive - 1] / unit / secs);
	if (b->latency)
		printf("latency (us): p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f (%llu scans)\n",
		       bench_hist_q(&b->hist, 0.5) / 1e3, bench_hist_q(&b->hist, 0.99) / 1e3,
		       bench_hist_q(&b->hist, 0.999) / 1e3, (double)b->hist.max / 1e3,
		       (unsigned long long)b->hist.n);
	if (cpu_s >= 0)
		printf("server pid %d: %.0f%% cpu, %.2f cpu-ms per delivered MB\n",
		       (int)b->server_pid, cpu_s / secs * 100, per_mb);
	printf("RESULT label=%s readers=%d stalled=%d mbps=%.3f min_rate=%.0f median_rate=%.0f "
	       "max_rate=%.0f lost=%llu p50_us=%.1f p99_us=%.1f p999_us=%.1f srv_cpu_pct=%.1f "
	       "srv_cpu_ms_per_mb=%.3f\n", b->label, alive, b->stalled, mb / secs,
	       alive ? (double)rate[0] / unit / secs : 0,
	       alive ? (double)rate[alive / 2] / unit / secs : 0,
	       alive ? (double)rate[alive - 1] / unit / secs : 0, (unsigned long long)lost,
	       bench_hist_q(&b->hist, 0.5) / 1e3, bench_hist_q(&b->hist, 0.99) / 1e3,
	       bench_hist_q(&b->hist, 0.999) / 1e3, cpu_s >= 0 ? cpu_s / secs * 100 : -1, per_mb);
	free(rate);
}

int main(int argc, char **argv)
{
	struct sb *b = calloc(1, sizeof(*b));
	long ticks0;
	int ret, i, dead = 0;

	if (!b)
		return 1;
	ret = sb_config(b, argc, argv);
	if (ret)
		return ret;
	if (sb_start(b))
		return 1;
	sb_run(b, &ticks0);
	if (b->dump_path)
		return b->dump ? 1 : 0;
	sb_report(b, ticks0);
	for (i = 0; i < b->readers; i++)
		dead += b->r[i].dead;
	return dead ? 1 : 0;
}
