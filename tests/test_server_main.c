/*
 * test_server_main.c - iiowired as a process: options, exit statuses,
 * signals, board reload, access control (server/main.c, server/server.c).
 *
 * Bad options and bad boards: one line on stderr and exit 2, nothing bound.
 * An address in use: exit 1. SIGTERM/SIGINT: in-flight replies are still
 * delivered, then exit 0 (which the daemon only returns when its loop
 * closed cleanly). SIGHUP: a good board file replaces the running one (a
 * consumer channel whose provider went away is ENODEV), a bad one is logged
 * and changes nothing. --read-only, --auth-token-file and a unix socket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "proto.h"
#include "srvtest.h"
#include "testutil.h"

#define VERSION_LINE	"OK iiowire " IIOWIRE_VERSION " proto 1.0"

#define SLOW_BOARD							\
	"{\"board\": \"slow\", \"buses\": {"				\
	"  \"i2c-2\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"	\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"	\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-2\", \"address\": \"0x35\","	\
	"   \"label\": \"slow\","							\
	"   \"fault\": {\"mode\": \"hang\", \"hang_ms\": 500, \"count\": 1}}]}"

/* The reloaded board: the dummy under a new name, no ADC and no maps. */
#define SMALL_BOARD							\
	"{\"board\": \"small\", \"devices\": ["				\
	"  {\"driver\": \"iio_dummy\", \"name\": \"fresh\"}]}"

/* Run the daemon to its end. Return: exit code (or -1); @err gets its stderr. */
static int run_to_exit(const char *const *args, char *out, size_t outlen, char *err,
		       size_t errlen)
{
	const char *argv[SRVTEST_ARGS_MAX];
	int pe[2], po[2], n = 0, status;
	size_t got_e = 0, got_o = 0;
	long end = srvtest_now_ms() + SRVTEST_START_MS;
	ssize_t r;
	pid_t pid;

	argv[n++] = SRVTEST_BINARY;
	while (args && *args && n < SRVTEST_ARGS_MAX - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (pipe2(pe, O_CLOEXEC) < 0 || pipe2(po, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(pe[1], STDERR_FILENO);
		dup2(po[1], STDOUT_FILENO);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(pe[1]);
	close(po[1]);
	fcntl(pe[0], F_SETFL, O_NONBLOCK);
	fcntl(po[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		r = read(pe[0], err + got_e, errlen - 1 - got_e);
		if (r > 0)
			got_e += (size_t)r;
		r = read(po[0], out + got_o, outlen - 1 - got_o);
		if (r > 0)
			got_o += (size_t)r;
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (srvtest_now_ms() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			status = -1;
			break;
		}
		srvtest_sleep_ms(10);
	}
	r = read(pe[0], err + got_e, errlen - 1 - got_e);
	if (r > 0)
		got_e += (size_t)r;
	r = read(po[0], out + got_o, outlen - 1 - got_o);
	if (r > 0)
		got_o += (size_t)r;
	err[got_e] = '\0';
	out[got_o] = '\0';
	close(pe[0]);
	close(po[0]);
	if (status == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_options(void)
{
	static char bad_board[128], loose_token[128], good_board[128];
	static const char *const bogus[] = { "--bogus", NULL };
	static const char *const max0[] = { "--max-clients", "0", NULL };
	static const char *const maxabc[] = { "--max-clients", "12abc", NULL };
	static const char *const level[] = { "--log-level", "loud", NULL };
	static const char *const noboard[] = { "--board", "/nonexistent/board.json", NULL };
	static const char *const badboard[] = { "--board", bad_board, NULL };
	static const char *const badlisten[] = { "--board", good_board, "--listen", "nonsense",
						 NULL };
	static const char *const badport[] = { "--board", good_board, "--listen",
					       "127.0.0.1:70000", NULL };
	static const char *const token[] = { "--board", good_board, "--auth-token-file",
					     loose_token, NULL };
	static const char *const extra[] = { "stray", NULL };
	static const char *const timeout[] = { "--io-timeout-ms", "0", NULL };
	static const char *const help[] = { "--help", NULL };
	static const char *const version[] = { "--version", NULL };
	static const struct {
		const char *name;
		const char *const *args;
		int status;
		const char *err;	/* in stderr (exit 2) */
		const char *out;	/* in stdout (exit 0) */
	} rows[] = {
		{ "unknown option", bogus, 2, "try --help", NULL },
		{ "max-clients 0", max0, 2, "--max-clients: '0' is not a number from 1 to", NULL },
		{ "max-clients not a number", maxabc, 2, "'12abc' is not a number", NULL },
		{ "log level", level, 2, "--log-level: 'loud'", NULL },
		{ "missing board", noboard, 2, "/nonexistent/board.json", NULL },
		{ "bad board", badboard, 2, "devices[0].driver", NULL },
		{ "malformed listen", badlisten, 2, "nonsense: not HOST:PORT", NULL },
		{ "port out of range", badport, 2, "127.0.0.1:70000", NULL },
		{ "token file readable by others", token, 2, "readable by group or others", NULL },
		{ "stray argument", extra, 2, "unexpected argument 'stray'", NULL },
		{ "io timeout 0", timeout, 2, "--io-timeout-ms: '0'", NULL },
		{ "help", help, 0, NULL, "usage: iiowired" },
		{ "version", version, 0, NULL, "iiowired " IIOWIRE_VERSION " (protocol 1.0)" },
	};
	char out[8192], err[8192];
	size_t i;
	int st;

	CU_ASSERT_FATAL(srvtest_write_file(bad_board, sizeof(bad_board),
		"{\"devices\": [{\"driver\": \"no-such-chip\"}]}") == 0);
	CU_ASSERT_FATAL(srvtest_write_file(good_board, sizeof(good_board), SRVTEST_BOARD) == 0);
	CU_ASSERT_FATAL(srvtest_write_file(loose_token, sizeof(loose_token), "tok\n") == 0);
	chmod(loose_token, 0644);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		st = run_to_exit(rows[i].args, out, sizeof(out), err, sizeof(err));
		TEST_ROW_ASSERT(st == rows[i].status, rows[i].name);
		if (rows[i].err) {
			TEST_ROW_ASSERT(strstr(err, rows[i].err) != NULL, rows[i].name);
			/* one line, and nothing was bound */
			TEST_ROW_ASSERT(strchr(err, '\n') == err + strlen(err) - 1, rows[i].name);
			TEST_ROW_ASSERT(!strstr(err, "listening"), rows[i].name);
		}
		if (rows[i].out)
			TEST_ROW_ASSERT(strstr(out, rows[i].out) != NULL, rows[i].name);
		if (st != rows[i].status || (rows[i].err && !strstr(err, rows[i].err)))
			fprintf(stderr, "\n%s: exit %d, stderr: %s\n", rows[i].name, st, err);
	}
	unlink(bad_board);
	unlink(good_board);
	unlink(loose_token);
}
TEST_CASE(test_options, "bad options and boards: exit 2");

/*
 * B5: token files the daemon must refuse at start-up (exit 2, one line on
 * stderr, nothing bound) rather than block on or accept a token no client
 * can send (libiiowire takes printable ASCII, no blank at either end).
 */
static void test_token_files(void)
{
	static const struct {
		const char *name;
		const char *content;	/* NULL: a FIFO */
		const char *err;
	} rows[] = {
		{ "B5 a FIFO (would block before listening)", NULL, "not a regular file" },
		{ "B5 an ESC inside", "tok\x1b" "en\n", "byte 4 (0x1b)" },
		{ "B5 a 0xff byte", "\xfftoken\n", "byte 1 (0xff)" },
		{ "B5 a tab inside", "tok\ten\n", "byte 4 (0x09)" },
		{ "B5 a leading blank", " token\n", "starts with a blank" },
	};
	static char board[128], path[128];
	const char *args[] = { "--board", board, "--auth-token-file", path, NULL };
	char out[1024], err[4096];
	size_t i;
	int st;

	CU_ASSERT_FATAL(srvtest_write_file(board, sizeof(board), SRVTEST_BOARD) == 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i].content) {
			CU_ASSERT_FATAL(srvtest_write_file(path, sizeof(path),
							   rows[i].content) == 0);
			chmod(path, 0600);
		} else {
			snprintf(path, sizeof(path), "/tmp/iiowire-srvtest-%d-fifo", (int)getpid());
			unlink(path);
			CU_ASSERT_FATAL(mkfifo(path, 0600) == 0);
		}
		st = run_to_exit(args, out, sizeof(out), err, sizeof(err));
		TEST_ROW_ASSERT(st == 2, rows[i].name);
		TEST_ROW_ASSERT(strstr(err, rows[i].err) != NULL, rows[i].name);
		TEST_ROW_ASSERT(!strstr(err, "listening"), rows[i].name);
		if (st != 2 || !strstr(err, rows[i].err))
			fprintf(stderr, "\n%s: exit %d, stderr: %s\n", rows[i].name, st, err);
		unlink(path);
	}
	unlink(board);
}
TEST_CASE(test_token_files, "B5 token files no client could match, or that block: exit 2");

/* Another daemon on the same port: exit 1, after the board loaded. */
static void test_address_in_use(void)
{
	struct srvtest t;
	char port[64], out[1024], err[4096];
	static char board[128];
	const char *args[] = { "--board", board, "--listen", port, NULL };

	CU_ASSERT_FATAL(srvtest_start(&t, SRVTEST_BOARD, NULL) == 0);
	snprintf(port, sizeof(port), "127.0.0.1:%d", t.port);
	snprintf(board, sizeof(board), "%s", t.board);
	CU_ASSERT_EQUAL(run_to_exit(args, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "address already in use"));
	CU_ASSERT_EQUAL(srvtest_stop(&t), 0);
	srvtest_fini(&t, false);
}
TEST_CASE(test_address_in_use, "address in use: exit 1");

/* SIGTERM and SIGINT: what is in flight is answered, then exit 0. */
static void test_stop_signals(void)
{
	static const struct {
		const char *name;
		int sig;
	} rows[] = {
		{ "SIGTERM", SIGTERM },
		{ "SIGINT", SIGINT },
	};
	const char *const args[] = { "--io-timeout-ms", "3000", NULL };
	struct srvtest t;
	struct srvc *busy, *idle;
	char got[256];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		CU_ASSERT_FATAL(srvtest_start(&t, SLOW_BOARD, args) == 0);
		busy = srvc_open(t.port);
		idle = srvc_open(t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(busy);
		CU_ASSERT_PTR_NOT_NULL_FATAL(idle);
		CU_ASSERT(srvc_req(idle, "VERSION", got, sizeof(got)) > 0);
		/* a read that takes 500 ms, then the signal while it is on the bus */
		srvc_sends(busy, "READ slow in_voltage0_raw\n");
		srvtest_sleep_ms(100);
		kill(t.pid, rows[i].sig);
		TEST_ROW_ASSERT(srvc_line(busy, got, sizeof(got)) > 0, rows[i].name);
		TEST_ROW_ASSERT(strcmp(got, "ERR ETIMEDOUT slow in_voltage0_raw: device timed out")
				== 0, rows[i].name);
		TEST_ROW_ASSERT(srvc_closed(busy, SRVTEST_REPLY_MS), rows[i].name);
		TEST_ROW_ASSERT(srvc_closed(idle, SRVTEST_REPLY_MS), rows[i].name);
		TEST_ROW_ASSERT(srvtest_wait(&t, SRVTEST_STOP_MS) == 0, rows[i].name);
		TEST_ROW_ASSERT(strstr(t.log, "iiowired: info: stopped") != NULL, rows[i].name);
		srvc_close(busy);
		srvc_close(idle);
		srvtest_fini(&t, false);
	}
}
TEST_CASE(test_stop_signals, "SIGTERM/SIGINT: in-flight replies, exit 0");

/* Count the devices DEVICES lists, or -1. */
static int device_count(struct srvc *c)
{
	char line[256];
	int i, n;

	if (srvc_req(c, "DEVICES", line, sizeof(line)) < 0 || strncmp(line, "OK ", 3) != 0)
		return -1;
	n = atoi(line + 3);
	for (i = 0; i < n; i++)
		if (srvc_line(c, line, sizeof(line)) < 0)
			return -1;
	return n;
}

static void test_reload(void)
{
	struct srvtest t;
	struct srvc *c;
	char got[512];

	CU_ASSERT_FATAL(srvtest_start(&t, SRVTEST_BOARD, NULL) == 0);
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(device_count(c), 6);
	CU_ASSERT(srvc_req(c, "CREAD hwmon0 vin raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 1800");

	/* a bad file: logged, the running board stays */
	CU_ASSERT_FATAL(srvtest_rewrite_file(t.board, "{\"devices\": [") == 0);
	kill(t.pid, SIGHUP);
	CU_ASSERT(srvtest_log_wait(&t, "reload failed, keeping the current board", 5000));
	CU_ASSERT_EQUAL(device_count(c), 6);
	CU_ASSERT(srvc_req(c, "READ adc in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 3300");

	/* a good file: swapped in whole */
	CU_ASSERT_FATAL(srvtest_rewrite_file(t.board, SMALL_BOARD) == 0);
	kill(t.pid, SIGHUP);
	CU_ASSERT(srvtest_log_wait(&t, "board reloaded from", 5000));
	CU_ASSERT_EQUAL(device_count(c), 1);
	CU_ASSERT(srvc_req(c, "READ fresh in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 73");
	/* the provider of the consumer's channel is gone */
	CU_ASSERT(srvc_req(c, "CREAD hwmon0 vin raw", got, sizeof(got)) > 0);
	/* the new board has no maps: the consumer itself is gone */
	CU_ASSERT_STRING_EQUAL(got, "ERR ENODEV no consumer hwmon0: no channel map names it");
	CU_ASSERT(srvc_req(c, "READ adc in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR ENODEV no device adc");
	CU_ASSERT(srvc_req(c, "STATS", got, sizeof(got)) > 0);
	while (srvc_line(c, got, sizeof(got)) > 0 && strncmp(got, "reload_failures", 15))
		if (strncmp(got, "reloads ", 8) == 0)
			CU_ASSERT_STRING_EQUAL(got, "reloads 1");
	CU_ASSERT_STRING_EQUAL(got, "reload_failures 1");
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_stop(&t), 0);
	srvtest_fini(&t, false);
}
TEST_CASE(test_reload, "SIGHUP: reload, good and bad board");

static void test_read_only(void)
{
	static const struct {
		const char *name;
		const char *req;
		const char *want;
	} rows[] = {
		{ "WRITE text", "WRITE dummy0 out_voltage0_raw 5",
		  "ERR EACCES server is read-only (--read-only)" },
		{ "WRITE json", "{\"id\":1,\"op\":\"write\",\"device\":\"dummy0\",\"attr\":"
		  "\"out_voltage0_raw\",\"value\":\"5\"}",
		  "{\"id\":1,\"ok\":false,\"error\":\"EACCES\",\"message\":\"server is read-only "
		  "(--read-only)\"}" },
		{ "the value did not change", "READ dummy0 out_voltage0_raw", "OK 0" },
		{ "READ is unaffected", "READ adc in_voltage0_raw", "OK 3300" },
	};
	const char *const args[] = { "--read-only", NULL };
	struct srvtest t;
	struct srvc *c;
	char got[512];
	size_t i;

	CU_ASSERT_FATAL(srvtest_start(&t, SRVTEST_BOARD, args) == 0);
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		TEST_ROW_ASSERT(srvc_req(c, rows[i].req, got, sizeof(got)) > 0 &&
				strcmp(got, rows[i].want) == 0, rows[i].name);
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_stop(&t), 0);
	srvtest_fini(&t, false);
}
TEST_CASE(test_read_only, "--read-only");

static void test_auth(void)
{
	char help_ok[16];
	/* HELP lists every request of the op table: "OK <n>", then n lines */
	const int help_lines = PROTO_OP_COUNT - 1;
	const struct {
		const char *name;
		const char *req;
		const char *want;
		bool delayed;
	} rows[] = {
		{ "READ before AUTH", "READ adc in_voltage0_raw",
		  "ERR EACCES authentication required" },
		{ "json before AUTH", "{\"id\":1,\"op\":\"devices\"}",
		  "{\"id\":1,\"ok\":false,\"error\":\"EACCES\","
		  "\"message\":\"authentication required\"}" },
		{ "VERSION is open", "VERSION", VERSION_LINE },
		{ "HELP is open", "HELP", help_ok },
		{ "wrong token", "AUTH s3cret", "ERR EACCES wrong token", true },
		{ "right token", "AUTH s3cret token here", "OK" },
		{ "READ after AUTH", "READ adc in_voltage0_raw", "OK 3300" },
	};
	const char *args[] = { "--auth-token-file", NULL, NULL };
	char token[128], got[512];
	struct srvtest t;
	struct srvc *c;
	size_t i;
	long t0;
	int k;

	snprintf(help_ok, sizeof(help_ok), "OK %d", help_lines);
	CU_ASSERT_FATAL(srvtest_write_file(token, sizeof(token), "s3cret token here\n") == 0);
	chmod(token, 0600);
	args[1] = token;
	CU_ASSERT_FATAL(srvtest_start(&t, SRVTEST_BOARD, args) == 0);
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		t0 = srvtest_now_ms();
		TEST_ROW_ASSERT(srvc_req(c, rows[i].req, got, sizeof(got)) > 0 &&
				strcmp(got, rows[i].want) == 0, rows[i].name);
		if (rows[i].delayed)
			TEST_ROW_ASSERT(srvtest_now_ms() - t0 >= 900, rows[i].name);
		if (rows[i].want == help_ok)
			for (k = 0; k < help_lines; k++)
				srvc_line(c, got, sizeof(got));
	}
	srvc_close(c);
	/* three wrong tokens: the third answer says so, then the connection ends */
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "AUTH a\nAUTH b\nAUTH c\nVERSION\n");
	for (k = 0; k < 2; k++) {
		CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
		CU_ASSERT_STRING_EQUAL(got, "ERR EACCES wrong token");
	}
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR EACCES wrong token; closing");
	CU_ASSERT(srvc_closed(c, SRVTEST_REPLY_MS));
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_stop(&t), 0);
	srvtest_fini(&t, false);
	unlink(token);
}
TEST_CASE(test_auth, "--auth-token-file");

static void test_unix_socket(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	const char *args[] = { "--listen", NULL, NULL };
	char path[108], spec[128], got[256];
	struct srvtest t;
	struct srvc c = { .fd = -1 };
	struct stat st;

	snprintf(path, sizeof(path), "/tmp/iiowire-srvtest-%d.sock", (int)getpid());
	snprintf(spec, sizeof(spec), "unix:%s", path);
	args[1] = spec;
	CU_ASSERT_FATAL(srvtest_start(&t, SRVTEST_BOARD, args) == 0);
	CU_ASSERT(srvtest_log_wait(&t, spec, 1000));
	c.buf = malloc(SRVTEST_CLIENT_BUF);
	c.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	CU_ASSERT_FATAL(connect(c.fd, (struct sockaddr *)&sun, sizeof(sun)) == 0);
	CU_ASSERT(srvc_req(&c, "READ adc in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 3300");
	close(c.fd);
	free(c.buf);
	CU_ASSERT_EQUAL(srvtest_stop(&t), 0);
	/* the socket file goes with the daemon */
	CU_ASSERT(stat(path, &st) < 0);
	srvtest_fini(&t, false);
}
TEST_CASE(test_unix_socket, "unix socket");

TEST_MAIN("server process", NULL, NULL)
