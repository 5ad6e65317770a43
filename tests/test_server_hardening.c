/*
 * test_server_hardening.c - hostile clients against a live iiowired, each
 * while another client measures its READ latency (issue "Hardening").
 *
 * One row per attack: a 1 MiB line without newline, NUL bytes and invalid
 * UTF-8, JSON nested 100,000 deep, JSON with wrong types, hundreds of
 * thousands of pipelined requests from a client that never reads (RSS from
 * /proc/PID/status stays bounded), slowloris and idle timeouts, half-close
 * (replies, then close, no busy loop: CPU from /proc/PID/stat), 1000
 * simultaneous connects, more clients than --max-clients, and clients that
 * leave with requests in flight on a hung bus. Every row starts its own
 * daemon with the options it is about; a probe thread READs an ADC on
 * another bus every PROBE_GAP_MS on its own connection (the attack starts
 * after its first answer and ends after one more), and the row fails if
 * any probe READ is wrong or slower than LAT_MAX_MS. A failing check
 * prints what it got (TEST_ROW_ASSERT_GOT). The daemon must
 * still answer and exit 0 on SIGTERM after every attack.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srvtest.h"
#include "testutil.h"

#define VERSION_LINE	"OK iiowire " IIOWIRE_VERSION " proto 1.0"
#define E2BIG_LINE	"ERR E2BIG request line longer than 4096 bytes"
#define JSON_EINVAL(msg)	"{\"ok\":false,\"error\":\"EINVAL\",\"message\":\"" msg "\"}"

/* Another client's READ must come back within this while an attack runs. */
#define LAT_MAX_MS	200
#define PROBE_GAP_MS	5

/*
 * dummy0 answers on the loop; "adc" (the probe's) sits alone on i2c-0;
 * "hung" on i2c-2 blocks every transfer HUNG_MS, then times out.
 */
#define HUNG_MS		600
#define HARD_BOARD							\
	"{\"board\": \"hardening\", \"buses\": {"				\
	"  \"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"},"	\
	"  \"i2c-2\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"	\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"	\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x35\","	\
	"   \"label\": \"adc\", \"emulate\": {\"AIN0\": 3300}},"		\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-2\", \"address\": \"0x35\","	\
	"   \"label\": \"hung\", \"fault\": {\"mode\": \"hang\", \"hang_ms\": 600}}]}"

/* The latency probe: its own thread and connection; the main thread asserts. */
struct hard_probe {
	pthread_t thread;
	int port;
	int stop;		/* __atomic */
	int done;		/* __atomic: the thread has left its loop */
	long reads;		/* __atomic: READs answered (right or wrong) */
	long max_ms;
	long bad;		/* wrong or missing answers */
	char first_bad[256];
};

static long hard_lat_max(void)
{
	/* valgrind runs the daemon 20-50x slower */
	return srvtest_slow() ? 10 * LAT_MAX_MS : LAT_MAX_MS;
}

static void *hard_probe_main(void *arg)
{
	struct hard_probe *p = arg;
	struct srvc *c = srvc_open(p->port);
	char got[256];
	long t0, ms;
	ssize_t n;

	if (!c) {
		p->bad++;
		snprintf(p->first_bad, sizeof(p->first_bad), "probe could not connect");
		__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		t0 = srvtest_now_ms();
		n = srvc_req(c, "READ adc in_voltage0_raw", got, sizeof(got));
		ms = srvtest_now_ms() - t0;
		if (ms > p->max_ms)
			p->max_ms = ms;
		if (srvc_got(n, got, sizeof(got)) < 0 || strcmp(got, "OK 3300") != 0) {
			if (!p->bad++)
				snprintf(p->first_bad, sizeof(p->first_bad), "%s", got);
		}
		__atomic_add_fetch(&p->reads, 1, __ATOMIC_RELEASE);
		if (n < 0)
			break;
		srvtest_sleep_ms(PROBE_GAP_MS);
	}
	srvc_close(c);
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Until the probe has answered more than @n READs, or left its loop
 * (SRVTEST_REPLY_MS at most). A sleep is no such wait: under ASan on a busy
 * machine the probe's connect and first READ took longer than a short
 * attack (JSON with wrong types) and the row failed with no READ done.
 */
static void hard_probe_wait(struct hard_probe *p, long n)
{
	long end = srvtest_now_ms() + SRVTEST_REPLY_MS;

	while (__atomic_load_n(&p->reads, __ATOMIC_ACQUIRE) <= n &&
	       !__atomic_load_n(&p->done, __ATOMIC_ACQUIRE) && srvtest_now_ms() < end)
		srvtest_sleep_ms(1);
}

/* The context a row's attack gets. */
struct hard_ctx {
	struct srvtest t;
	const char *row;
};

typedef void (*hard_attack_fn)(struct hard_ctx *h);

/* ---- helpers ---- */

/*
 * The next line on @c (the reply to @req, unless NULL) is @want, or starts
 * with it when @prefix. @got: what came, or why nothing did.
 */
static bool hard_line_is(struct srvc *c, const char *req, const char *want, bool prefix,
			 char *got, size_t len)
{
	ssize_t n = req ? srvc_req(c, req, got, len) : srvc_line(c, got, len);

	if (srvc_got(n, got, len) < 0)
		return false;
	return prefix ? strncmp(got, want, strlen(want)) == 0 : strcmp(got, want) == 0;
}

/* Row @row: as hard_line_is(), printing what came when it fails. */
#define HARD_EXPECT(c, req, want, prefix, row)					\
	do {									\
		char hard_got_[512];						\
		const char *hard_req_ = (req);					\
										\
		TEST_ROW_ASSERT_GOT(hard_line_is((c), hard_req_, (want), (prefix),	\
						 hard_got_, sizeof(hard_got_)),	\
				    (row), "%.100s: want '%s', got '%.200s'",	\
				    hard_req_ ? hard_req_ : "the next line", (want),	\
				    hard_got_);					\
	} while (0)

/* Row @row: the daemon closes @c within SRVTEST_REPLY_MS. */
#define HARD_CLOSED(c, row)							\
	TEST_ROW_ASSERT_GOT(srvc_closed((c), SRVTEST_REPLY_MS), (row),		\
			    "the connection still open after %d ms", SRVTEST_REPLY_MS)

/* Row @row: the daemon holds no more descriptors than @fds0. */
#define HARD_FDS_AT_MOST(h, fds0, row)						\
	do {									\
		long hard_fds_ = procstat_fds((h)->t.pid);			\
										\
		TEST_ROW_ASSERT_GOT(hard_fds_ <= (fds0), (row),			\
				    "%ld descriptors open, %ld before", hard_fds_, (long)(fds0));	\
	} while (0)

/* Row @row: the daemon counts @want clients (the probe is one). */
#define HARD_CLIENTS(stats, want, row)						\
	do {									\
		long hard_n_ = srvc_stat((stats), "clients");			\
										\
		TEST_ROW_ASSERT_GOT(hard_n_ == (want), (row), "%ld clients, want %d",	\
				    hard_n_, (want));				\
	} while (0)

/* Send what can be sent of @data until the peer closes; the rest is dropped. */
static void hard_send_some(struct srvc *c, const char *data, size_t len)
{
	srvc_send(c, data, len);	/* EPIPE/ECONNRESET once the daemon closed: fine */
}

/* ---- attacks ---- */

static void attack_long_line(struct hard_ctx *h)
{
	enum { LEN = 1 << 20 };
	struct srvc *c = srvc_open(h->t.port);
	char *buf = malloc(LEN);
	long rss0 = procstat_rss_kb(h->t.pid), rss;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	memset(buf, 'x', LEN);
	hard_send_some(c, buf, LEN);	/* no newline, ever */
	HARD_EXPECT(c, NULL, E2BIG_LINE, false, h->row);
	HARD_CLOSED(c, h->row);
	rss = procstat_rss_kb(h->t.pid) - rss0;
#ifndef __SANITIZE_ADDRESS__
	/* the splitter kept at most one line's worth, not the megabyte (not under valgrind) */
	if (!srvtest_slow())
		TEST_ROW_ASSERT_GOT(rss < 1024, h->row, "RSS grew %ld KiB", rss);
#endif
	(void)rss;
	srvc_close(c);
	free(buf);
}

static void attack_bad_bytes(struct hard_ctx *h)
{
	static const struct {
		const char *name;
		const char *bytes;
		size_t len;
		const char *want;	/* the reply's start */
	} rows[] = {
		{ "NUL in a text line", "READ adc\0 in_voltage0_raw\n", 26,
		  "ERR EINVAL NUL byte at offset 8" },
		{ "0xff", "READ \xff\n", 7, "ERR EINVAL invalid UTF-8 at offset 5" },
		{ "lone continuation byte", "READ \x80x y\n", 10,
		  "ERR EINVAL invalid UTF-8 at offset 5" },
		{ "overlong '/'", "READ \xc0\xaf y\n", 10, "ERR EINVAL invalid UTF-8 at offset 5" },
		{ "truncated sequence", "READ \xe2\x82 y\n", 10,
		  "ERR EINVAL invalid UTF-8 at offset 5" },
		{ "UTF-16 surrogate", "READ \xed\xa0\x80 y\n", 11,
		  "ERR EINVAL invalid UTF-8 at offset 5" },
		{ "beyond U+10FFFF", "READ \xf4\x90\x80\x80 y\n", 12,
		  "ERR EINVAL invalid UTF-8 at offset 5" },
		{ "NUL in JSON", "{\"op\":\"read\0\"}\n", 15,
		  "{\"ok\":false,\"error\":\"EINVAL\",\"message\":\"NUL byte at offset 11\"}" },
		{ "invalid UTF-8 in a JSON string", "{\"op\":\"\xff\"}\n", 11,
		  "{\"ok\":false,\"error\":\"EINVAL\",\"message\":\"invalid UTF-8 at offset 7\"}" },
		{ "only NULs", "\0\0\0\0\n", 5, "ERR EINVAL NUL byte at offset 0" },
	};
	struct srvc *c = srvc_open(h->t.port);
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		srvc_send(c, rows[i].bytes, rows[i].len);
		HARD_EXPECT(c, NULL, rows[i].want, true, rows[i].name);
	}
	/* answered, not dropped: the connection is still in step */
	HARD_EXPECT(c, "VERSION", VERSION_LINE, false, h->row);
	srvc_close(c);
}

/* "{"a":" + n x '[' + n x ']' + "}" into @buf (2n + 6 bytes), plus LF. */
static size_t hard_nested(char *buf, size_t n, char open, char close)
{
	size_t len = 0, i;

	memcpy(buf, "{\"a\":", 5);
	len = 5;
	for (i = 0; i < n; i++)
		buf[len++] = open;
	for (i = 0; i < n; i++)
		buf[len++] = close;
	buf[len++] = '}';
	buf[len++] = '\n';
	return len;
}

static void attack_deep_json(struct hard_ctx *h)
{
	static const struct {
		const char *name;
		size_t depth;
		char open, close;
		const char *want;
		bool closes;
	} rows[] = {
		{ "arrays 100,000 deep", 100000, '[', ']', E2BIG_LINE, true },
		{ "arrays 2000 deep (under the line limit)", 2000, '[', ']',
		  JSON_EINVAL("JSON nested deeper than 8 levels"),
		  false },
		{ "9 levels", 8, '[', ']',
		  JSON_EINVAL("JSON nested deeper than 8 levels"),
		  false },
	};
	char *buf = malloc(2 * 100000 + 16);
	struct srvc *c;
	size_t i, len;

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		c = srvc_open(h->t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		len = hard_nested(buf, rows[i].depth, rows[i].open, rows[i].close);
		hard_send_some(c, buf, len);
		HARD_EXPECT(c, NULL, rows[i].want, false, rows[i].name);
		if (rows[i].closes)
			HARD_CLOSED(c, rows[i].name);
		else
			HARD_EXPECT(c, "VERSION", VERSION_LINE, false, rows[i].name);
		srvc_close(c);
	}
	free(buf);
}

static void attack_wrong_types(struct hard_ctx *h)
{
	static const struct {
		const char *name;
		const char *req;
		const char *want;
	} rows[] = {
		{ "op a number", "{\"op\":7}", JSON_EINVAL("op: must be a string") },
		{ "device a number", "{\"op\":\"read\",\"device\":5,\"attr\":\"x\"}",
		  JSON_EINVAL("device: must be a string") },
		{ "attr null", "{\"op\":\"read\",\"device\":\"adc\",\"attr\":null}",
		  JSON_EINVAL("attr: must be a string") },
		{ "interval a string", "{\"op\":\"watch\",\"device\":\"adc\","
		  "\"attr\":\"in_voltage0_raw\",\"interval_ms\":\"10\"}",
		  JSON_EINVAL("interval_ms: must be a number") },
		/* a number is a value since issue 17 (PROTOCOL.md, WRITE); a boolean is not */
		{ "value a boolean", "{\"op\":\"write\",\"device\":\"dummy0\",\"attr\":"
		  "\"out_voltage0_raw\",\"value\":true}", JSON_EINVAL("value: must be a string") },
		{ "what a number",
		  "{\"op\":\"cread\",\"consumer\":\"c\",\"channel\":\"v\",\"what\":1}",
		  JSON_EINVAL("what: must be a string") },
		{ "token false", "{\"op\":\"auth\",\"token\":false}",
		  JSON_EINVAL("token: must be a string") },
		{ "id an array", "{\"id\":[1],\"op\":\"version\"}",
		  JSON_EINVAL("id: must be a number, string, true, false or null") },
		{ "a top-level array", "[1,2]", "ERR ENOSYS unknown request '[1,2]' (try HELP)" },
		{ "a top-level string", "\"str\"",
		  "ERR ENOSYS unknown request '\"str\"' (try HELP)" },
	};
	struct srvc *c = srvc_open(h->t.port);
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		HARD_EXPECT(c, rows[i].req, rows[i].want, false, rows[i].name);
	/* nothing was written by the refused WRITE */
	HARD_EXPECT(c, "READ dummy0 out_voltage0_raw", "OK 0", false, h->row);
	srvc_close(c);
}

/*
 * Hundreds of thousands of pipelined HELPs (about 1 KiB of reply each) from
 * a client with a tiny receive buffer that never reads: the daemon must stop
 * reading it, so its RSS stays flat and few of the requests are answered,
 * and go on when the client reads again.
 */
static void attack_flood(struct hard_ctx *h)
{
	enum { N = 300000, CHUNK = 5 * 4096, STALL_MS = 1500, RSS_GROWTH_MAX_KB = 16 * 1024,
	       DRAIN_BYTES = 24 << 20 };
	struct timeval tv = { 2, 0 };
	size_t drained = 0;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd, small = 4096;
	struct srvc *stats = srvc_open(h->t.port);
	char *chunk = malloc(CHUNK);
	size_t sent = 0, i;
	long rss0, rss, rss_max, req0, answered, last_progress;
	ssize_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(stats);
	CU_ASSERT_PTR_NOT_NULL_FATAL(chunk);
	for (i = 0; i < CHUNK; i += 5)
		memcpy(chunk + i, "HELP\n", 5);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CU_ASSERT_FATAL(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	sin.sin_port = htons((uint16_t)h->t.port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CU_ASSERT_FATAL(connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	req0 = srvc_stat(stats, "requests");
	rss0 = rss_max = procstat_rss_kb(h->t.pid);
	last_progress = srvtest_now_ms();
	while (sent < (size_t)N * 5 && srvtest_now_ms() - last_progress < STALL_MS) {
		n = send(fd, chunk, CHUNK < N * 5 - sent ? CHUNK : N * 5 - sent, MSG_NOSIGNAL);
		if (n > 0) {
			sent += (size_t)n;
			last_progress = srvtest_now_ms();
		} else {
			srvtest_sleep_ms(5);
		}
		rss = procstat_rss_kb(h->t.pid);
		if (rss > rss_max)
			rss_max = rss;
	}
	answered = srvc_stat(stats, "requests") - req0;
	/* most of the flood is sitting in socket buffers, unread */
	TEST_ROW_ASSERT_GOT(sent / 5 >= 100000, h->row, "%zu requests sent before the stall",
			    sent / 5);
	TEST_ROW_ASSERT_GOT(answered > 0 && (size_t)answered < sent / 5 / 4, h->row,
			    "%ld of %zu requests answered", answered, sent / 5);
#ifndef __SANITIZE_ADDRESS__
	/* (ASan's quarantine and valgrind's keep freed memory resident: RSS says nothing there) */
	if (!srvtest_slow())
		TEST_ROW_ASSERT_GOT(rss_max - rss0 < RSS_GROWTH_MAX_KB, h->row,
				    "RSS %ld -> max %ld KiB", rss0, rss_max);
#endif
	(void)rss0;
	/*
	 * Paused, not dropped: once the client reads, the daemon takes its
	 * requests up again, and far more than the output limits (8 MiB queued
	 * closes a session) comes back on the same connection.
	 */
	fcntl(fd, F_SETFL, 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	n = -1;
	for (last_progress = srvtest_now_ms(); drained < DRAIN_BYTES &&
	     srvtest_now_ms() - last_progress < (srvtest_slow() ? 20000 : 5000);) {
		n = recv(fd, chunk, CHUNK, 0);
		if (n <= 0)
			break;
		drained += (size_t)n;
	}
	TEST_ROW_ASSERT_GOT(drained >= DRAIN_BYTES, h->row, "%zu bytes of replies, then %s",
			    drained, n == 0 ? "the daemon closed" : "nothing");
	close(fd);
	/* its session goes, and with it its memory */
	for (i = 0; i < 100 && srvc_stat(stats, "clients") > 2; i++)
		srvtest_sleep_ms(20);
	HARD_CLIENTS(stats, 2, h->row);
	srvc_close(stats);
	free(chunk);
}

/* A byte a second never finishes a line: cut off at --line-timeout-ms; idle: --idle-timeout-ms. */
static void attack_slowloris(struct hard_ctx *h)
{
	const char *part = "READ dummy0 in_voltage0_raw";
	struct srvc *drip = srvc_open(h->t.port), *idle = srvc_open(h->t.port);
	long t0 = srvtest_now_ms(), took;
	char got[256] = "";
	size_t k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(drip);
	CU_ASSERT_PTR_NOT_NULL_FATAL(idle);
	srvc_timeout(drip, 50);
	for (k = 0; k < strlen(part) && srvtest_now_ms() - t0 < 6000; k++) {
		if (srvc_send(drip, part + k, 1) < 0)
			break;
		/* a second between bytes, watching for the daemon's answer */
		if (srvc_line(drip, got, sizeof(got)) > 0)
			break;
		srvtest_sleep_ms(950);
		if (srvc_line(drip, got, sizeof(got)) > 0)
			break;
	}
	took = srvtest_now_ms() - t0;
	TEST_ROW_ASSERT_GOT(strcmp(got, "ERR ETIMEDOUT request line not finished within 1500 ms")
			    == 0, h->row, "after %zu bytes in %ld ms: '%s'", k, took, got);
	HARD_CLOSED(drip, h->row);
	/* at the timeout (250 ms sweeps, a second per byte), not at the end of the line */
	TEST_ROW_ASSERT_GOT(took >= 1500 && took < 3500, h->row, "cut off after %ld ms", took);
	/* the silent one goes at --idle-timeout-ms 2500 */
	HARD_CLOSED(idle, h->row);
	took = srvtest_now_ms() - t0;
	TEST_ROW_ASSERT_GOT(took >= 2500 && took < 4500, h->row, "the idle one closed after %ld ms",
			    took);
	srvc_close(drip);
	srvc_close(idle);
}

/* Half-close: the replies come, then the close; no CPU burnt while a reply waits. */
static void attack_half_close(struct hard_ctx *h)
{
	static const struct {
		const char *name;
		const char *send;
		const char *want[3];	/* reply starts */
		bool slow;
	} rows[] = {
		{ "two requests", "VERSION\nREAD dummy0 in_voltage0_raw\n",
		  { VERSION_LINE, "OK 73", NULL }, false },
		{ "last line without LF", "VERSION\nREAD dummy0 in_voltage0_raw",
		  { VERSION_LINE, "OK 73", NULL }, false },
		{ "a reply waiting on a hung chip", "READ hung in_voltage0_raw\nVERSION",
		  { "ERR ETIMEDOUT hung in_voltage0_raw", VERSION_LINE, NULL }, true },
	};
	struct srvc *c;
	long ticks, cpu_ms, wait_ms = HUNG_MS - 150;
	/*
	 * a spin on the EOF would burn all of the wait; the idle daemon costs
	 * ~1 %, under valgrind (its own timer and scheduler) up to ~20 %
	 */
	long cpu_max = srvtest_slow() ? wait_ms / 2 : wait_ms / 10;
	size_t i, j;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		c = srvc_open(h->t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		srvc_sends(c, rows[i].send);
		shutdown(c->fd, SHUT_WR);
		if (rows[i].slow) {
			srvtest_sleep_ms(50);
			ticks = procstat_cpu_ticks(h->t.pid);
			srvtest_sleep_ms(wait_ms);
			ticks = procstat_cpu_ticks(h->t.pid) - ticks;
			cpu_ms = ticks * 1000 / sysconf(_SC_CLK_TCK);
			TEST_ROW_ASSERT_GOT(ticks >= 0 && cpu_ms <= cpu_max, rows[i].name,
					    "%ld ticks (%ld ms) of CPU in %ld ms, limit %ld ms", ticks,
					    cpu_ms, wait_ms, cpu_max);
		}
		for (j = 0; rows[i].want[j]; j++)
			HARD_EXPECT(c, NULL, rows[i].want[j], true, rows[i].name);
		HARD_CLOSED(c, rows[i].name);
		srvc_close(c);
	}
}

/* 1000 connects at once: the listen backlog holds them; each one is answered. */
static void attack_thousand(struct hard_ctx *h)
{
	enum { N = 1000 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct timeval tv = { SRVTEST_REPLY_MS / 1000, 0 };
	struct rlimit rl;
	int *fds, i, ok = 0, err;
	long t0, took;
	char got[128];
	ssize_t n;

	srvtest_raise_nofile();
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < N + 64) {
		fprintf(stderr, "\nskipped: open-file limit %lu is below %d\n",
			(unsigned long)rl.rlim_cur, N + 64);
		return;
	}
	fds = calloc(N, sizeof(*fds));
	CU_ASSERT_PTR_NOT_NULL_FATAL(fds);
	sin.sin_port = htons((uint16_t)h->t.port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* every SYN out before the daemon can accept many: non-blocking connects */
	t0 = srvtest_now_ms();
	for (i = 0; i < N; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		CU_ASSERT_FATAL(fds[i] >= 0);
		err = connect(fds[i], (struct sockaddr *)&sin, sizeof(sin)) < 0 ? errno : 0;
		TEST_ROW_ASSERT_GOT(err == 0 || err == EINPROGRESS, h->row, "connect %d of %d: %s",
				    i + 1, N, strerror(err));
	}
	for (i = 0; i < N; i++) {
		struct pollfd pfd = { .fd = fds[i], .events = POLLOUT };

		if (poll(&pfd, 1, SRVTEST_REPLY_MS) != 1)
			continue;
		fcntl(fds[i], F_SETFL, 0);
		setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		send(fds[i], "VERSION\n", 8, MSG_NOSIGNAL);
	}
	for (i = 0; i < N; i++) {
		n = recv(fds[i], got, sizeof(got) - 1, 0);
		if (n > 0) {
			got[n] = '\0';
			ok += strcmp(got, VERSION_LINE "\n") == 0;
		}
		close(fds[i]);
	}
	took = srvtest_now_ms() - t0;
	TEST_ROW_ASSERT_GOT(ok == N, h->row, "%d of %d connections answered in %ld ms", ok, N,
			    took);
	/*
	 * At once: a SYN the accept queue had no room for is dropped and sent
	 * again only after a second (so a short backlog shows here, not as a
	 * failure).
	 */
	TEST_ROW_ASSERT_GOT(took < (srvtest_slow() ? 10000 : 900), h->row,
			    "%d of %d connections answered in %ld ms", ok, N, took);
	free(fds);
}

/* --max-clients 3: the probe and two more are served; the rest get EBUSY and go. */
static void attack_max_clients(struct hard_ctx *h)
{
	struct srvc *in[2], *out[4], *again = NULL;
	char got[256] = "(no connection)";
	long end, fds0;
	int i;

	for (i = 0; i < 2; i++) {
		in[i] = srvc_open(h->t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(in[i]);
		HARD_EXPECT(in[i], "VERSION", VERSION_LINE, false, h->row);
	}
	fds0 = procstat_fds(h->t.pid);
	for (i = 0; i < 4; i++) {
		out[i] = srvc_open(h->t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(out[i]);
		/* the refusal comes unasked */
		HARD_EXPECT(out[i], NULL, "ERR EBUSY too many clients", false, h->row);
		HARD_CLOSED(out[i], h->row);
		srvc_close(out[i]);
	}
	/* refused connections hold no descriptor */
	HARD_FDS_AT_MOST(h, fds0, h->row);
	HARD_EXPECT(in[1], "READ dummy0 in_voltage0_raw", "OK 73", false, h->row);
	/* one leaves: a newcomer gets in once the daemon saw it go */
	srvc_close(in[0]);
	for (end = srvtest_now_ms() + SRVTEST_REPLY_MS; srvtest_now_ms() < end;) {
		again = srvc_open(h->t.port);
		if (again && hard_line_is(again, "VERSION", VERSION_LINE, false, got, sizeof(got)))
			break;
		srvc_close(again);
		again = NULL;
		srvtest_sleep_ms(20);
	}
	TEST_ROW_ASSERT_GOT(again != NULL, h->row,
			    "no VERSION on a new connection within %d ms of one leaving: '%s'",
			    SRVTEST_REPLY_MS, got);
	srvc_close(again);
	srvc_close(in[1]);
}

/*
 * Five clients queue 50 READs each on the hung chip and vanish (RST) at
 * once; the daemon drops their answers, the bus drains, nothing leaks, and
 * a later READ on that bus is answered on time.
 */
static void attack_leave_in_flight(struct hard_ctx *h)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	struct srvc *c, *check = srvc_open(h->t.port);
	char reqs[50 * 28 + 1];
	long t0, took, fds0, q = -1;
	size_t len = 0;
	int i, k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(check);
	/* a round trip first: the daemon has accepted @check when its descriptors are counted */
	HARD_EXPECT(check, "VERSION", VERSION_LINE, false, h->row);
	fds0 = procstat_fds(h->t.pid);
	for (i = 0; i < 50; i++)
		len += (size_t)snprintf(reqs + len, sizeof(reqs) - len,
					"READ hung in_voltage0_raw\n");
	for (k = 0; k < 5; k++) {
		c = srvc_open(h->t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		srvc_send(c, reqs, len);
		srvtest_sleep_ms(20);
		setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		srvc_close(c);
	}
	/* the queue empties by timeouts (1 s each, queueing included), not by 250 hangs */
	for (t0 = srvtest_now_ms(); srvtest_now_ms() - t0 < 5000; srvtest_sleep_ms(100)) {
		q = srvc_stat(check, "bus.i2c-2.queue");
		if (q == 0)
			break;
	}
	TEST_ROW_ASSERT_GOT(q == 0, h->row, "bus.i2c-2.queue %ld after 5 s", q);
	HARD_CLIENTS(check, 2, h->row);
	HARD_FDS_AT_MOST(h, fds0, h->row);
	t0 = srvtest_now_ms();
	HARD_EXPECT(check, "READ hung in_voltage0_raw", "ERR ETIMEDOUT hung in_voltage0_raw", true,
		    h->row);
	took = srvtest_now_ms() - t0;
	TEST_ROW_ASSERT_GOT(took < 2500, h->row, "the READ on the drained bus took %ld ms", took);
	srvc_close(check);
}

/* ---- the table ---- */

static const char *const args_plain[] = { NULL };
static const char *const args_slowloris[] = { "--line-timeout-ms", "1500", "--idle-timeout-ms",
					      "2500", NULL };
static const char *const args_max3[] = { "--max-clients", "3", NULL };

static const struct hard_row {
	const char *name;
	const char *const *args;
	hard_attack_fn attack;
} hard_rows[] = {
	{ "1 MiB line without newline", args_plain, attack_long_line },
	{ "NUL bytes and invalid UTF-8", args_plain, attack_bad_bytes },
	{ "JSON nested 100,000 deep", args_plain, attack_deep_json },
	{ "JSON with wrong types", args_plain, attack_wrong_types },
	{ "300,000 pipelined requests, never read", args_plain, attack_flood },
	{ "slowloris and idle", args_slowloris, attack_slowloris },
	{ "half-close", args_plain, attack_half_close },
	{ "1000 simultaneous connects", args_plain, attack_thousand },
	{ "more clients than --max-clients", args_max3, attack_max_clients },
	{ "clients leaving with requests in flight", args_plain, attack_leave_in_flight },
};

static void hard_run(size_t i)
{
	const struct hard_row *r = &hard_rows[i];
	struct hard_probe probe = { .port = 0 };
	struct hard_ctx h = { .row = r->name };
	struct srvc *c;
	char got[256];
	int ret;

	ret = srvtest_start(&h.t, HARD_BOARD, r->args);
	if (ret)
		fprintf(stderr, "\n%s: iiowired did not start (%d)\n%s\n", r->name, ret,
			h.t.log ? h.t.log : "");
	CU_ASSERT_FATAL(ret == 0);
	probe.port = h.t.port;
	CU_ASSERT_FATAL(pthread_create(&probe.thread, NULL, hard_probe_main, &probe) == 0);
	/* the probe is connected and has read once before the attack starts */
	hard_probe_wait(&probe, 0);

	r->attack(&h);

	/* and reads once more, while or after the attack ended */
	hard_probe_wait(&probe, __atomic_load_n(&probe.reads, __ATOMIC_ACQUIRE));
	__atomic_store_n(&probe.stop, 1, __ATOMIC_RELEASE);
	pthread_join(probe.thread, NULL);
	TEST_ROW_ASSERT_GOT(probe.reads > 1 && probe.bad == 0, r->name,
			    "probe: %ld READs, %ld bad (first: '%s')", probe.reads, probe.bad,
			    probe.first_bad);
	TEST_ROW_ASSERT_GOT(probe.max_ms < hard_lat_max(), r->name,
			    "probe: slowest of %ld READs %ld ms, limit %ld ms", probe.reads,
			    probe.max_ms, hard_lat_max());
	/* still serving, and a clean exit */
	c = srvc_open(h.t.port);
	snprintf(got, sizeof(got), "(no connection)");
	TEST_ROW_ASSERT_GOT(c && srvc_got(srvc_req(c, "VERSION", got, sizeof(got)), got,
					  sizeof(got)) > 0 && strcmp(got, VERSION_LINE) == 0,
			    r->name, "after the attack, VERSION: '%s'", got);
	srvc_close(c);
	ret = srvtest_stop(&h.t);
	TEST_ROW_ASSERT_GOT(ret == 0, r->name, "iiowired's exit after SIGTERM: %d (log below)", ret);
	srvtest_fini(&h.t, ret != 0);
}

/* One test a row of hard_rows, under the name CUnit prints. */
#define HARD_TEST(fn, row, name)							\
	static void fn(void) { hard_run(row); }					\
	TEST_CASE(fn, name)

HARD_TEST(test_long_line, 0, "1 MiB line without newline");
HARD_TEST(test_bad_bytes, 1, "NUL bytes and invalid UTF-8");
HARD_TEST(test_deep_json, 2, "JSON nested 100,000 deep");
HARD_TEST(test_wrong_types, 3, "JSON with wrong types");
HARD_TEST(test_flood, 4, "300,000 pipelined requests from a client that never reads");
HARD_TEST(test_slowloris, 5, "slowloris (a byte a second) and idle timeouts");
HARD_TEST(test_half_close, 6, "half-close: replies, close, no busy loop");
HARD_TEST(test_thousand, 7, "1000 simultaneous connects");
HARD_TEST(test_max_clients, 8, "more clients than --max-clients");
HARD_TEST(test_leave_in_flight, 9, "clients leaving with requests in flight on a hung bus");

TEST_MAIN("server hardening", NULL, NULL)
