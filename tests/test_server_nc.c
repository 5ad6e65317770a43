/*
 * test_server_nc.c - a session by hand: netcat (netcat-openbsd) talking to
 * a live iiowired the way PROTOCOL.md's "A SESSION BY HAND" shows.
 *
 * nc runs as a child with its stdin and stdout on pipes; the test types a
 * line, waits for nc to print the answer, and goes on, as a person at a
 * terminal would, ending with QUIT (after which the server closes the
 * connection, and Ctrl-D ends nc). A second row pipes a script into `nc -N` and reads all
 * answers after the half-close. Skipped, with a message, when nc is missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srvtest.h"
#include "testutil.h"

static const char *nc_path(void)
{
	static const char *const paths[] = { "/usr/bin/nc", "/bin/nc", "/usr/local/bin/nc" };
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	return NULL;
}

struct nc {
	pid_t pid;
	int in;		/* nc's stdin */
	int out;	/* nc's stdout */
	char buf[65536];
	size_t len;
};

static int nc_start(struct nc *n, const char *nc, int port, bool half_close)
{
	int pin[2], pout[2];
	char portstr[16];

	snprintf(portstr, sizeof(portstr), "%d", port);
	if (pipe2(pin, O_CLOEXEC) < 0 || pipe2(pout, O_CLOEXEC) < 0)
		return -errno;
	n->len = 0;
	n->pid = fork();
	if (n->pid < 0)
		return -errno;
	if (n->pid == 0) {
		dup2(pin[0], STDIN_FILENO);
		dup2(pout[1], STDOUT_FILENO);
		if (half_close)
			execl(nc, "nc", "-N", "127.0.0.1", portstr, (char *)NULL);
		else
			execl(nc, "nc", "127.0.0.1", portstr, (char *)NULL);
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	n->in = pin[1];
	n->out = pout[0];
	return 0;
}

/* One line nc printed, waiting at most @ms. Return: length, or -1. */
static ssize_t nc_line(struct nc *n, char *out, size_t outlen, int ms)
{
	struct pollfd pfd = { .fd = n->out, .events = POLLIN };
	long end = srvtest_now_ms() + ms;
	char *nl;
	size_t k;
	ssize_t r;

	for (;;) {
		nl = memchr(n->buf, '\n', n->len);
		if (nl) {
			k = (size_t)(nl - n->buf);
			if (k >= outlen)
				k = outlen - 1;
			memcpy(out, n->buf, k);
			out[k] = '\0';
			n->len -= (size_t)(nl - n->buf) + 1;
			memmove(n->buf, nl + 1, n->len);
			return (ssize_t)k;
		}
		if (srvtest_now_ms() >= end || poll(&pfd, 1, (int)(end - srvtest_now_ms())) <= 0)
			return -1;
		r = read(n->out, n->buf + n->len, sizeof(n->buf) - n->len);
		if (r <= 0)
			return -1;
		n->len += (size_t)r;
	}
}

/* Wait for nc to exit. Return: its exit code, or -1 if it did not in @ms. */
static int nc_wait(struct nc *n, int ms)
{
	long end = srvtest_now_ms() + ms;
	int status;

	while (waitpid(n->pid, &status, WNOHANG) != n->pid) {
		if (srvtest_now_ms() >= end) {
			kill(n->pid, SIGKILL);
			waitpid(n->pid, &status, 0);
			return -1;
		}
		srvtest_sleep_ms(20);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* What a person types, and the first line each answer starts with. */
static const struct {
	const char *type;
	const char *answer;
	int more;	/* lines after the first */
} hand_session[] = {
	{ "version", "OK iiowire " IIOWIRE_VERSION " proto 1.0", 0 },
	{ "devices", "OK 6", 6 },
	{ "read adc in_voltage0_raw", "OK 3300", 0 },
	{ "read adc in_voltage_scale", "OK 1.000000000", 0 },
	{ "write dummy0 out_voltage0_raw 1000", "OK", 0 },
	{ "read dummy0 out_voltage0_raw", "OK 1000", 0 },
	{ "consumer hwmon0", "OK 2", 2 },
	{ "cread hwmon0 vref processed", "OK 200", 0 },
	{ "read adc in_voltage99_raw", "ERR ENOENT adc has no attribute in_voltage99_raw", 0 },
	{ "{\"id\":1,\"op\":\"read\",\"device\":\"dummy0\",\"attr\":\"in_voltage0_scale\"}",
	  "{\"id\":1,\"ok\":true,\"value\":\"0.001333\"}", 0 },
	{ "quit", "OK", 0 },
};

static void test_by_hand(void)
{
	const char *nc = nc_path();
	struct srvtest t;
	struct nc n;
	char line[1024], got[1024];
	struct srvc *check;
	int k, clients = -1;
	size_t i;
	long end;

	if (!nc) {
		fprintf(stderr, "\nskipped: nc (netcat-openbsd) is not installed\n");
		return;
	}
	CU_ASSERT_FATAL(srvtest_start(&t, SRVTEST_BOARD, NULL) == 0);
	CU_ASSERT_FATAL(nc_start(&n, nc, t.port, false) == 0);
	for (i = 0; i < sizeof(hand_session) / sizeof(hand_session[0]); i++) {
		snprintf(line, sizeof(line), "%s\n", hand_session[i].type);
		CU_ASSERT_FATAL(write(n.in, line, strlen(line)) == (ssize_t)strlen(line));
		TEST_ROW_ASSERT(nc_line(&n, got, sizeof(got), SRVTEST_REPLY_MS) >= 0 &&
				strcmp(got, hand_session[i].answer) == 0, hand_session[i].type);
		for (k = 0; k < hand_session[i].more; k++)
			TEST_ROW_ASSERT(nc_line(&n, got, sizeof(got), SRVTEST_REPLY_MS) > 0,
					hand_session[i].type);
		/* a person reads before typing on */
		srvtest_sleep_ms(20);
	}
	/* after QUIT the server has closed nc's connection: only the checker is left */
	check = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(check);
	for (end = srvtest_now_ms() + SRVTEST_REPLY_MS; srvtest_now_ms() < end;
	     srvtest_sleep_ms(20)) {
		CU_ASSERT_FATAL(srvc_req(check, "STATS", got, sizeof(got)) > 0);
		clients = -1;
		for (k = atoi(got + 3); k > 0 && srvc_line(check, got, sizeof(got)) > 0; k--)
			if (strncmp(got, "clients ", 8) == 0)
				clients = atoi(got + 8);
		if (clients == 1)
			break;
	}
	CU_ASSERT_EQUAL(clients, 1);
	srvc_close(check);
	/* the person's Ctrl-D ends nc */
	close(n.in);
	CU_ASSERT_EQUAL(nc_wait(&n, SRVTEST_REPLY_MS), 0);
	close(n.out);
	CU_ASSERT_EQUAL(srvtest_stop(&t), 0);
	srvtest_fini(&t, false);
}
TEST_CASE(test_by_hand, "a session typed into nc");

/* printf '...' | nc -N: all the answers come after the half-close, then nc exits. */
static void test_piped(void)
{
	const char *script = "version\nread adc in_voltage0_raw\ncread hwmon0 vin raw";
	static const char *const want[] = {
		"OK iiowire " IIOWIRE_VERSION " proto 1.0", "OK 3300", "OK 1800",
	};
	const char *nc = nc_path();
	struct srvtest t;
	struct nc n;
	char got[1024];
	size_t i;

	if (!nc) {
		fprintf(stderr, "\nskipped: nc (netcat-openbsd) is not installed\n");
		return;
	}
	CU_ASSERT_FATAL(srvtest_start(&t, SRVTEST_BOARD, NULL) == 0);
	CU_ASSERT_FATAL(nc_start(&n, nc, t.port, true) == 0);
	/* the last line has no LF: the server still answers it at the half-close */
	CU_ASSERT(write(n.in, script, strlen(script)) == (ssize_t)strlen(script));
	close(n.in);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		TEST_ROW_ASSERT(nc_line(&n, got, sizeof(got), SRVTEST_REPLY_MS) >= 0 &&
				strcmp(got, want[i]) == 0, want[i]);
	CU_ASSERT_EQUAL(nc_wait(&n, SRVTEST_REPLY_MS), 0);
	close(n.out);
	CU_ASSERT_EQUAL(srvtest_stop(&t), 0);
	srvtest_fini(&t, false);
}
TEST_CASE(test_piped, "a script piped into nc -N");

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	return test_main("server by hand (nc)", NULL, NULL);
}
