/*
 * test_server_session.c - a connection's limits and endings against a live
 * iiowired (server/session.c, server/listener.c).
 *
 * --max-clients (the extra client gets ERR EBUSY and is closed), half-close
 * (replies first, then the close, and no busy loop while waiting), the
 * partial-line and idle timeouts (slowloris), a client that sends without
 * ever reading (the daemon stops reading it: memory stays bounded, others
 * are served), an idle connection's memory given back (its buffers, its
 * READ memo, not a half line), and 1000 simultaneous connects (the listen
 * backlog). Each test starts the daemon with the options it is about.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srvtest.h"
#include "testutil.h"

#define LINE_TIMEOUT_LINE	"ERR ETIMEDOUT request line not finished within 400 ms"
#define VERSION_LINE	"OK iiowire " IIOWIRE_VERSION " proto 1.0"

/* A board with one chip that hangs once for 600 ms, on a bus of its own. */
#define SLOW_BOARD							\
	"{\"board\": \"slow\", \"buses\": {"				\
	"  \"i2c-2\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"	\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"	\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-2\", \"address\": \"0x35\","	\
	"   \"label\": \"slow\","							\
	"   \"fault\": {\"mode\": \"hang\", \"hang_ms\": 600, \"count\": 1}}]}"

static bool start(struct srvtest *t, const char *board, const char *const *args)
{
	return srvtest_up(t, board ? board : SRVTEST_BOARD, args);
}

/* start(), then two clients: false if any of it failed. */
static bool start_pair(struct srvtest *t, const char *const *args, struct srvc **a,
		       struct srvc **b)
{
	*a = *b = NULL;
	if (!start(t, NULL, args))
		return false;
	*a = srvc_open(t->port);
	*b = srvc_open(t->port);
	return *a && *b;
}

/* Stop and check the exit: 0, and a loop that closed cleanly. */
static void stop(struct srvtest *t)
{
	CU_ASSERT_EQUAL(srvtest_down(t), 0);
}

static void test_max_clients(void)
{
	const char *const args[] = { "--max-clients", "2", NULL };
	struct srvc *c[3], *again = NULL;
	struct srvtest t;
	char got[256];
	long end;
	int i;

	CU_ASSERT_FATAL(start(&t, NULL, args));
	for (i = 0; i < 2; i++) {
		c[i] = srvc_open(t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c[i]);
		CU_ASSERT(srvc_req(c[i], "VERSION", got, sizeof(got)) > 0);
		CU_ASSERT_STRING_EQUAL(got, VERSION_LINE);
	}
	/* N+1: one line, then the close, without a request */
	c[2] = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c[2]);
	CU_ASSERT(srvc_line(c[2], got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR EBUSY too many clients");
	CU_ASSERT(srvc_closed(c[2], SRVTEST_REPLY_MS));
	srvc_close(c[2]);
	/* the first two are unharmed */
	CU_ASSERT(srvc_req(c[1], "READ adc in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 3300");
	/* one leaves: a newcomer is let in (once the daemon saw the close) */
	srvc_close(c[0]);
	for (end = srvtest_now_ms() + SRVTEST_REPLY_MS; srvtest_now_ms() < end;) {
		again = srvc_open(t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(again);
		if (srvc_req(again, "VERSION", got, sizeof(got)) > 0 &&
		    strcmp(got, VERSION_LINE) == 0)
			break;
		srvc_close(again);
		again = NULL;
		srvtest_sleep_ms(20);
	}
	CU_ASSERT_PTR_NOT_NULL(again);
	if (again) {
		CU_ASSERT(srvc_req(again, "STATS", got, sizeof(got)) > 0);
		CU_ASSERT_STRING_EQUAL(got, "OK 17");
		for (i = 0; i < 14 && srvc_line(again, got, sizeof(got)) > 0; i++)
			if (strncmp(got, "rejected ", 9) == 0)
				CU_ASSERT(atoi(got + 9) >= 1);
		CU_ASSERT(srvc_req(again, "QUIT", got, sizeof(got)) > 0);
	}
	srvc_close(again);
	srvc_close(c[1]);
	stop(&t);
}
TEST_CASE(test_max_clients, "--max-clients: N+1 gets EBUSY");

/*
 * Half-close: the replies to what was sent come, then the connection
 * closes; while a reply waits on a slow bus the daemon uses no CPU.
 */
static void test_half_close(void)
{
	static const struct {
		const char *name;
		const char *send;
		const char *want[3];
		bool slow;
	} rows[] = {
		{ "replies then close", "VERSION\nREAD dummy0 in_voltage0_raw\n",
		  { VERSION_LINE, "OK 73", NULL }, false },
		{ "last line without LF", "VERSION\nREAD dummy0 in_voltage0_raw",
		  { VERSION_LINE, "OK 73", NULL }, false },
		{ "reply waiting on a slow bus", "READ slow in_voltage0_raw\nVERSION\n",
		  { "ERR ETIMEDOUT slow in_voltage0_raw: device timed out", VERSION_LINE, NULL },
		  true },
	};
	const char *const args[] = { "--io-timeout-ms", "5000", NULL };
	struct srvtest t;
	struct srvc *c;
	char got[256];
	long ticks;
	size_t i, j;

	CU_ASSERT_FATAL(start(&t, SLOW_BOARD, args));
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		c = srvc_open(t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		srvc_sends(c, rows[i].send);
		shutdown(c->fd, SHUT_WR);
		if (rows[i].slow) {
			/* the chip hangs 600 ms: the daemon must sleep, not spin on the EOF */
			ticks = procstat_cpu_ticks(t.pid);
			srvtest_sleep_ms(400);
			ticks = procstat_cpu_ticks(t.pid) - ticks;
			TEST_ROW_ASSERT(ticks >= 0 && ticks <= srvtest_ms(10), rows[i].name);
			if (ticks > srvtest_ms(10))
				fprintf(stderr, "\n%s: %ld ticks of CPU while waiting\n",
					rows[i].name, ticks);
		}
		for (j = 0; rows[i].want[j]; j++) {
			TEST_ROW_ASSERT(srvc_line(c, got, sizeof(got)) > 0, rows[i].name);
			TEST_ROW_ASSERT(strcmp(got, rows[i].want[j]) == 0, rows[i].name);
		}
		TEST_ROW_ASSERT(srvc_closed(c, SRVTEST_REPLY_MS), rows[i].name);
		srvc_close(c);
	}
	stop(&t);
}
TEST_CASE(test_half_close, "half-close: replies, close, no spin");

/* Slowloris: a line that does not end in --line-timeout-ms is refused and closed. */
static void test_line_timeout(void)
{
	static const struct {
		const char *name;
		int drip_ms;	/* one byte every drip_ms; 0: one chunk, then silence */
	} rows[] = {
		{ "partial line then silence", 0 },
		{ "a byte every 100 ms", 100 },
	};
	const char *const args[] = { "--line-timeout-ms", "400", NULL };
	const char *part = "READ dummy0 in_voltage0_ra";
	struct srvtest t;
	struct srvc *c, *other;
	char got[256];
	long start_ms, took;
	size_t i, k;
	bool closed;

	CU_ASSERT_FATAL(start(&t, NULL, args));
	other = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		c = srvc_open(t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		start_ms = srvtest_now_ms();
		if (!rows[i].drip_ms) {
			srvc_sends(c, part);
		} else {
			/* keep dripping past the timeout; the daemon cuts us off meanwhile */
			for (k = 0; k < strlen(part) && srvtest_now_ms() - start_ms < 1500; k++) {
				if (srvc_send(c, part + k, 1) < 0)
					break;
				srvtest_sleep_ms(rows[i].drip_ms);
			}
		}
		TEST_ROW_ASSERT(srvc_line(c, got, sizeof(got)) > 0, rows[i].name);
		TEST_ROW_ASSERT(!strcmp(got, LINE_TIMEOUT_LINE), rows[i].name);
		closed = srvc_closed(c, SRVTEST_REPLY_MS);
		took = srvtest_now_ms() - start_ms;
		TEST_ROW_ASSERT(closed, rows[i].name);
		/* cut off at the timeout (sweep granularity aside), not at the end of the drip */
		TEST_ROW_ASSERT(took >= 400 && took < srvtest_ms(1500), rows[i].name);
		srvc_close(c);
	}
	/* a connection that idles between whole lines is not a slowloris */
	CU_ASSERT(srvc_req(other, "VERSION", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, VERSION_LINE);
	srvc_close(other);
	stop(&t);
}
TEST_CASE(test_line_timeout, "partial-line timeout (slowloris)");

static void test_idle_timeout(void)
{
	const char *const args[] = { "--idle-timeout-ms", "300", NULL };
	struct srvtest t;
	struct srvc *idle, *watcher;
	char got[256];
	long t0;

	CU_ASSERT_FATAL(start_pair(&t, args, &idle, &watcher));
	/* a connection with a watch is not idle: it is waiting for its events */
	CU_ASSERT(srvc_req(watcher, "WATCH dummy0 in_voltage0_raw 100", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK");
	t0 = srvtest_now_ms();
	CU_ASSERT(srvc_closed(idle, SRVTEST_REPLY_MS));
	CU_ASSERT(srvtest_now_ms() - t0 >= 250);
	/* the watcher is still served after the idle one was closed */
	CU_ASSERT(srvc_req(watcher, "UNWATCH", got, sizeof(got)) > 0);
	while (strncmp(got, "EVENT ", 6) == 0)
		CU_ASSERT_FATAL(srvc_line(watcher, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK");
	srvc_close(idle);
	srvc_close(watcher);
	stop(&t);
}
TEST_CASE(test_idle_timeout, "idle timeout");

/*
 * An idle connection gives back its buffers and its READ memo (the sweep,
 * after SRV_IDLE_TRIM_MS = 1 s) but never a line it holds half of, and
 * answers as before; two clients whose replies share the server's spare
 * output buffer each get their own.
 */
static void test_idle_trim(void)
{
	struct srvtest t;
	struct srvc *a, *b;
	char got[256];
	int i;

	CU_ASSERT_FATAL(start_pair(&t, NULL, &a, &b));
	/* the same line twice: the second is answered from the memo */
	for (i = 0; i < 2; i++) {
		CU_ASSERT(srvc_req(a, "READ dummy0 in_voltage0_raw", got, sizeof(got)) > 0);
		CU_ASSERT_STRING_EQUAL(got, "OK 73");
	}
	srvc_sends(a, "READ dummy0 in_volt");
	srvtest_sleep_ms(1600);		/* a sweep after 1 s idle has trimmed @a */
	CU_ASSERT(srvc_req(a, "age0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 73");
	for (i = 0; i < 3; i++) {
		CU_ASSERT(srvc_req(a, "READ dummy0 in_voltage0_raw", got, sizeof(got)) > 0);
		CU_ASSERT_STRING_EQUAL(got, "OK 73");
		CU_ASSERT(srvc_req(b, "VERSION", got, sizeof(got)) > 0);
		CU_ASSERT_STRING_EQUAL(got, VERSION_LINE);
	}
	srvc_close(a);
	srvc_close(b);
	stop(&t);
}
TEST_CASE(test_idle_trim, "an idle connection frees its buffers and memo, keeps a partial line");

/*
 * A client that pipelines requests and never reads: the daemon stops
 * reading it once its output queue is full, so its memory stays bounded,
 * and it keeps serving everyone else meanwhile.
 */
static void test_never_reads(void)
{
	enum { CHUNK = 64 * 1024, SEND_MS = 2000, RSS_GROWTH_MAX_KB = 16 * 1024 };
	struct srvtest t;
	struct srvc *hog, *other;
	char *chunk, got[256];
	size_t sent = 0, i;
	long rss0, rss1, t0, lat, answered;
	ssize_t n;

	CU_ASSERT_FATAL(start_pair(&t, NULL, &other, &hog));
	CU_ASSERT(srvc_req(other, "VERSION", got, sizeof(got)) > 0);
	rss0 = procstat_rss_kb(t.pid);
	chunk = malloc(CHUNK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(chunk);
	/* HELP: ~1 KiB of reply per 5 bytes of request */
	for (i = 0; i + 5 <= CHUNK; i += 5)
		memcpy(chunk + i, "HELP\n", 5);
	fcntl(hog->fd, F_SETFL, O_NONBLOCK);
	for (t0 = srvtest_now_ms(); srvtest_now_ms() - t0 < SEND_MS;) {
		n = send(hog->fd, chunk, CHUNK - CHUNK % 5, MSG_NOSIGNAL);
		if (n > 0)
			sent += (size_t)n;
		else
			srvtest_sleep_ms(10);
	}
	rss1 = procstat_rss_kb(t.pid);
	/* far more was asked than the daemon may queue: it must have stopped reading */
	CU_ASSERT(sent > 2 * 1024 * 1024);
	answered = srvc_stat(other, "requests");
	CU_ASSERT(answered > 0 && (size_t)answered < sent / 5 / 8);
#ifndef __SANITIZE_ADDRESS__
	/* (ASan's quarantine and valgrind keep freed memory resident: RSS says nothing there) */
	if (!srvtest_slow())
		CU_ASSERT(rss1 - rss0 < RSS_GROWTH_MAX_KB);
#endif
	if ((size_t)answered >= sent / 5 / 8 || rss1 - rss0 >= RSS_GROWTH_MAX_KB)
		fprintf(stderr, "\n%ld of %zu requests answered; RSS %ld -> %ld KiB\n", answered,
			sent / 5, rss0, rss1);
	/* everyone else is served at once */
	t0 = srvtest_now_ms();
	CU_ASSERT(srvc_req(other, "READ adc in_voltage0_raw", got, sizeof(got)) > 0);
	lat = srvtest_now_ms() - t0;
	CU_ASSERT_STRING_EQUAL(got, "OK 3300");
	CU_ASSERT(lat < srvtest_ms(500));
	srvc_close(hog);
	CU_ASSERT(srvc_req(other, "VERSION", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, VERSION_LINE);
	srvc_close(other);
	free(chunk);
	stop(&t);
}
TEST_CASE(test_never_reads, "a client that never reads");

/* 1000 connects at once: the backlog holds them, every one is answered. */
static void test_thousand_connects(void)
{
	enum { N = 1000 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct srvtest t;
	struct rlimit rl;
	int *fds, i, ok = 0, ret;
	struct timeval tv = { SRVTEST_REPLY_MS / 1000, 0 };
	char got[128];
	ssize_t n;

	srvtest_raise_nofile();
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < N + 64) {
		fprintf(stderr, "\nskipped: open-file limit %lu is below %d\n",
			(unsigned long)rl.rlim_cur, N + 64);
		return;
	}
	CU_ASSERT_FATAL(start(&t, NULL, NULL));
	fds = calloc(N, sizeof(*fds));
	CU_ASSERT_PTR_NOT_NULL_FATAL(fds);
	sin.sin_port = htons((uint16_t)t.port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* all SYNs out before the daemon accepts any: non-blocking connects */
	for (i = 0; i < N; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		CU_ASSERT_FATAL(fds[i] >= 0);
		ret = connect(fds[i], (struct sockaddr *)&sin, sizeof(sin));
		CU_ASSERT(ret == 0 || errno == EINPROGRESS);
	}
	for (i = 0; i < N; i++) {
		struct pollfd pfd = { .fd = fds[i], .events = POLLOUT };

		if (poll(&pfd, 1, SRVTEST_REPLY_MS) != 1)
			continue;
		fcntl(fds[i], F_SETFL, 0);
		setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (send(fds[i], "VERSION\n", 8, MSG_NOSIGNAL) != 8)
			continue;
	}
	for (i = 0; i < N; i++) {
		n = recv(fds[i], got, sizeof(got) - 1, 0);
		if (n > 0) {
			got[n] = '\0';
			if (strcmp(got, VERSION_LINE "\n") == 0)
				ok++;
		}
		close(fds[i]);
	}
	CU_ASSERT_EQUAL(ok, N);
	if (ok != N)
		fprintf(stderr, "\n%d of %d connections answered\n", ok, N);
	free(fds);
	stop(&t);
}
TEST_CASE(test_thousand_connects, "1000 simultaneous connects");

TEST_MAIN("server session", NULL, NULL)
