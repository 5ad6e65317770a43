/*
 * test_server_acl.c - who may do what on a live iiowired: the default
 * listen addresses, --read-only, --auth-token-file and --allow-write
 * (server/acl.c, with dispatch.c's AUTH and WRITE handling, server.c's
 * token loading and the iiod listener's WRITE).
 *
 * Loopback only by default: the daemon runs with no --listen in a network
 * namespace of its own, where 192.0.2.77 sits on lo too; it answers on
 * 127.0.0.1 and [::1] and refuses 192.0.2.77, and /proc says it listens on
 * nothing else. The token file: refused when group or others may read it;
 * every request but HELP, VERSION, AUTH and QUIT needs AUTH and changes
 * nothing before it; a wrong token is answered late (on a timer: another
 * client is served meanwhile), three close the connection. --allow-write:
 * rows of patterns (name, id, label, hardware id, globs, several) and the
 * writes they allow or refuse, over both spellings and the iiod protocol.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srvtest.h"
#include "srvvectors.h"
#include "testutil.h"
#include "../server/authpen.h"

#define VERSION_LINE	"OK iiowire " IIOWIRE_VERSION " proto 1.0"
#define NOT_ALLOWED(dev, attr)	"ERR EACCES " dev " " attr ": not writable here (--allow-write)"

/* iio:device0 dummy0, iio:device1 spare (label bench-spare), iio:device2 max1238 adc 0-0035 */
#define ACL_BOARD							\
	"{\"board\": \"acl\","						\
	" \"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"	\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"	\
	"  {\"driver\": \"iio_dummy\", \"name\": \"spare\", \"label\": \"bench-spare\"},"	\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x35\","	\
	"   \"label\": \"adc\", \"emulate\": {\"AIN0\": 3300}}],"		\
	" \"maps\": [{\"adc_dev_name\": \"0-0035\", \"adc_channel_label\": \"AIN0\","	\
	"   \"consumer_dev_name\": \"hwmon0\", \"consumer_channel\": \"vin\"}]}"

/* What a reload brings: the dummy under another name. */
#define ACL_BOARD_RENAMED						\
	"{\"board\": \"renamed\", \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"fresh\"}]}"

static bool acl_start(struct srvtest *t, const char *board, const char *const *args)
{
	return srvtest_up(t, board ? board : ACL_BOARD, args);
}

static void acl_stop(struct srvtest *t)
{
	CU_ASSERT_EQUAL(srvtest_down(t), 0);
}

/* A request and the exact reply it must get. */
struct acl_row {
	const char *name;
	const char *req;
	const char *want;
};

static void acl_rows(struct srvc *c, const struct acl_row *rows, size_t n)
{
	char got[1024];
	size_t i;
	bool ok;

	for (i = 0; i < n; i++) {
		ok = srvc_req(c, rows[i].req, got, sizeof(got)) >= 0 &&
		     strcmp(got, rows[i].want) == 0;
		TEST_ROW_ASSERT(ok, rows[i].name);
		if (!ok)
			fprintf(stderr, "\n%s: got '%s'\n", rows[i].name, got);
	}
}

/* ---- loopback only by default ---- */

/* Connect from inside @pid's network namespace. Return: 0 answered, 1 refused, 2 other. */
static int acl_try_in_netns(pid_t pid, int family, const char *addr)
{
	char path[64], got[256];
	int status, ret;
	pid_t child;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	child = fork();
	if (child == 0) {
		struct sockaddr_storage ss = { .ss_family = (sa_family_t)family };
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
		struct timeval tv = { 5, 0 };
		int ns = open(path, O_RDONLY | O_CLOEXEC), fd;
		ssize_t n;

		if (ns < 0 || setns(ns, CLONE_NEWNET) < 0)
			_exit(2);
		if (family == AF_INET) {
			sin->sin_port = htons(30432);
			inet_pton(AF_INET, addr, &sin->sin_addr);
		} else {
			sin6->sin6_port = htons(30432);
			inet_pton(AF_INET6, addr, &sin6->sin6_addr);
		}
		fd = socket(family, SOCK_STREAM, 0);
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (connect(fd, (struct sockaddr *)&ss, family == AF_INET ? sizeof(*sin) :
			    sizeof(*sin6)) < 0)
			_exit(errno == ECONNREFUSED ? 1 : 2);
		if (send(fd, "VERSION\n", 8, MSG_NOSIGNAL) != 8)
			_exit(2);
		n = recv(fd, got, sizeof(got) - 1, 0);
		got[n > 0 ? n : 0] = '\0';
		_exit(strcmp(got, VERSION_LINE "\n") == 0 ? 0 : 2);
	}
	if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return 2;
	ret = WEXITSTATUS(status);
	return ret;
}

/* Listening sockets in /proc/PID/net/@file, as "ADDR:PORT" hex words joined by blanks. */
static void acl_listeners(pid_t pid, const char *file, char *out, size_t len)
{
	char path[64], line[512], local[80], st[8];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/net/%s", (int)pid, file);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %*s %79s %*s %7s", local, st) == 2 && strcmp(st, "0A") == 0)
			snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? " " : "",
				 local);
	fclose(f);
}

static void test_loopback_default(void)
{
	static const struct {
		const char *name;
		int family;
		const char *addr;
		int want;	/* 0 answered, 1 refused */
	} rows[] = {
		{ "127.0.0.1 answers", AF_INET, "127.0.0.1", 0 },
		{ "[::1] answers", AF_INET6, "::1", 0 },
		{ "another address of the host is refused", AF_INET, "192.0.2.77", 1 },
	};
	char tcp[256], tcp6[256];
	struct srvtest t;
	int p[2], got;
	size_t i;

	memset(&t, 0, sizeof(t));
	t.log = calloc(1, SRVTEST_LOG_BYTES + 1);
	CU_ASSERT_FATAL(t.log != NULL);
	CU_ASSERT_FATAL(srvtest_write_file(t.board, sizeof(t.board), ACL_BOARD) == 0);
	CU_ASSERT_FATAL(pipe2(p, O_CLOEXEC) == 0);
	t.pid = fork();
	CU_ASSERT_FATAL(t.pid >= 0);
	if (t.pid == 0) {
		/* a namespace of our own: port 30432 is free there whatever else runs */
		if (unshare(CLONE_NEWNET) < 0)
			_exit(77);
		if (system("ip link set lo up && ip addr add 192.0.2.77/32 dev lo") != 0)
			_exit(78);
		dup2(p[1], STDERR_FILENO);
		execl(SRVTEST_BINARY, SRVTEST_BINARY, "--board", t.board, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	t.errfd = p[0];
	if (!srvtest_log_wait(&t, "device(s)", SRVTEST_START_MS)) {
		got = srvtest_wait(&t, SRVTEST_STOP_MS);
		if (got == 77 || got == 78) {
			fprintf(stderr, "\nskipped: no network namespace with ip(8) here (%d)\n",
				got);
			srvtest_fini(&t, false);
			return;
		}
		srvtest_fini(&t, true);
		CU_FAIL_FATAL("iiowired did not start");
	}
	CU_ASSERT(strstr(t.log, "listening on 127.0.0.1:30432") != NULL);
	CU_ASSERT(strstr(t.log, "listening on [::1]:30432") != NULL);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		got = acl_try_in_netns(t.pid, rows[i].family, rows[i].addr);
		TEST_ROW_ASSERT(got == rows[i].want, rows[i].name);
	}
	/* and nothing else listens: no wildcard address in either table (port 30432 = 0x76E0) */
	acl_listeners(t.pid, "tcp", tcp, sizeof(tcp));
	acl_listeners(t.pid, "tcp6", tcp6, sizeof(tcp6));
	CU_ASSERT_STRING_EQUAL(tcp, "0100007F:76E0");
	CU_ASSERT_STRING_EQUAL(tcp6, "00000000000000000000000001000000:76E0");
	acl_stop(&t);
}
TEST_CASE(test_loopback_default, "loopback only by default");

/* ---- --read-only ---- */

static void test_read_only(void)
{
	const char *const args[] = { "--read-only", NULL };
	struct srvtest t;
	struct srvc *c;

	CU_ASSERT_FATAL(acl_start(&t, NULL, args));
	CU_ASSERT(strstr(t.log, ", read-only") != NULL);
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvvec_run(c, "server_acl_read_only.txt", NULL);
	srvc_close(c);
	acl_stop(&t);
}
TEST_CASE(test_read_only, "--read-only");

/* ---- --auth-token-file ---- */

#define TOKEN	"s3cret token here"

/* Write a token file with @mode. Return: 0 or -errno; @path gets its name. */
static int acl_token_file(char *path, size_t len, const char *text, mode_t mode)
{
	int ret = srvtest_write_file(path, len, text);

	if (!ret && chmod(path, mode) < 0)
		ret = -errno;
	return ret;
}

static void test_token_file(void)
{
	static const struct {
		const char *name;
		mode_t mode;
		const char *text;
		const char *err;	/* NULL: starts */
	} rows[] = {
		{ "0600", 0600, TOKEN "\n", NULL },
		{ "0400", 0400, TOKEN, NULL },
		{ "0640: group may read", 0640, TOKEN, "readable by group or others (mode 640" },
		{ "0604: others may read", 0604, TOKEN, "readable by group or others (mode 604" },
		{ "0620: group may write", 0620, TOKEN, "readable by group or others (mode 620" },
		{ "0644", 0644, TOKEN, "readable by group or others (mode 644" },
		{ "empty", 0600, "\n", "empty, or more than one line" },
		{ "two lines", 0600, "a\nb\n", "empty, or more than one line" },
		{ "15 bytes: too short to resist guessing", 0600, "fifteen bytes..\n",
		  "shorter than 16 bytes" },
	};
	const char *args[] = { "--auth-token-file", NULL, NULL };
	char path[128];
	struct srvtest t;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ret = acl_token_file(path, sizeof(path), rows[i].text, rows[i].mode);
		CU_ASSERT_FATAL(ret == 0);
		args[1] = path;
		ret = srvtest_start(&t, ACL_BOARD, args);
		if (!rows[i].err) {
			TEST_ROW_ASSERT(ret == 0, rows[i].name);
			if (!ret)
				TEST_ROW_ASSERT(srvtest_stop(&t) == 0, rows[i].name);
		} else {
			/* one line, exit 2, nothing bound */
			TEST_ROW_ASSERT(ret == -ECHILD, rows[i].name);
			TEST_ROW_ASSERT(WIFEXITED(t.status) && WEXITSTATUS(t.status) == 2,
					rows[i].name);
			TEST_ROW_ASSERT(strstr(t.log, rows[i].err) != NULL, rows[i].name);
			TEST_ROW_ASSERT(strstr(t.log, "listening") == NULL, rows[i].name);
		}
		srvtest_fini(&t, false);
		unlink(path);
	}
	/* a directory and a missing file */
	args[1] = "/tmp";
	CU_ASSERT(srvtest_start(&t, ACL_BOARD, args) == -ECHILD);
	CU_ASSERT(strstr(t.log, "not a regular file") != NULL);
	srvtest_fini(&t, false);
	args[1] = "/nonexistent/iiowire-token";
	CU_ASSERT(srvtest_start(&t, ACL_BOARD, args) == -ECHILD);
	CU_ASSERT(strstr(t.log, "No such file") != NULL);
	srvtest_fini(&t, false);
}
TEST_CASE(test_token_file, "--auth-token-file: modes and contents");

/* One daemon with a token for the AUTH tests; @path gets the token file. */
static bool acl_start_auth(struct srvtest *t, char *path, size_t len)
{
	const char *args[] = { "--auth-token-file", path, NULL };

	if (acl_token_file(path, len, TOKEN "\n", 0600))
		return false;
	return acl_start(t, NULL, args);
}

#define AUTH_REQUIRED	"ERR EACCES authentication required"

/* Before AUTH: every request but HELP, VERSION, AUTH and QUIT is EACCES and changes nothing. */
static void test_auth_required(void)
{
	static const char *const vars[] = { "TOKEN", TOKEN, NULL };
	char path[128], got[1024];
	struct srvtest t;
	struct srvc *c, *other;
	int k;

	CU_ASSERT_FATAL(acl_start_auth(&t, path, sizeof(path)));
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(srvc_req(c, "HELP", got, sizeof(got)) > 0 && strncmp(got, "OK ", 3) == 0);
	for (k = atoi(got + 3); k > 0; k--)
		CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	srvvec_run(c, "server_acl_auth_required.txt", vars);
	/* no EVENT line from the refused WATCH came in between */
	srvc_timeout(c, 100);
	CU_ASSERT(srvc_line(c, got, sizeof(got)) == -EAGAIN);
	/* authentication is per connection */
	other = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	CU_ASSERT(srvc_req(other, "READ adc in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, AUTH_REQUIRED);
	/* QUIT is open too */
	CU_ASSERT(srvc_req(other, "QUIT", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK");
	CU_ASSERT(srvc_closed(other, SRVTEST_REPLY_MS));
	srvc_close(other);
	srvc_close(c);
	acl_stop(&t);
	unlink(path);
}
TEST_CASE(test_auth_required, "--auth-token-file: all but 4 requests need AUTH (P-20)");

/*
 * Wrong tokens: EACCES after SRV_AUTH_FAIL_DELAY_MS, answered in order; the
 * delay is a timer (another client's READ is answered meanwhile); near
 * misses are wrong too; three on one connection close it.
 */
static void test_auth_wrong(void)
{
	static const struct {
		const char *name;
		const char *token;
	} misses[] = {
		{ "a prefix", "s3cret" },
		{ "one byte more", TOKEN "X" },
		{ "another case", "S3CRET TOKEN HERE" },
	};
	char path[128], got[512], req[128];
	struct srvtest t;
	struct srvc *c, *other;
	long t0, lat, took;
	size_t i;

	CU_ASSERT_FATAL(acl_start_auth(&t, path, sizeof(path)));
	other = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	CU_ASSERT(srvc_req(other, "AUTH " TOKEN, got, sizeof(got)) > 0);
	for (i = 0; i < sizeof(misses) / sizeof(misses[0]); i++) {
		c = srvc_open(t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		t0 = srvtest_now_ms();
		snprintf(req, sizeof(req), "AUTH %s\nVERSION\n", misses[i].token);
		srvc_sends(c, req);
		/* meanwhile the loop serves everyone else */
		srvtest_sleep_ms(100);
		lat = srvtest_now_ms();
		TEST_ROW_ASSERT(srvc_req(other, "READ adc in_voltage0_raw", got, sizeof(got)) > 0 &&
				strcmp(got, "OK 3300") == 0, misses[i].name);
		lat = srvtest_now_ms() - lat;
		TEST_ROW_ASSERT(lat < (srvtest_slow() ? 2000 : 200), misses[i].name);
		/* then the refusal, late, and the VERSION behind it in order */
		TEST_ROW_ASSERT(srvc_line(c, got, sizeof(got)) > 0 &&
				strcmp(got, "ERR EACCES wrong token") == 0, misses[i].name);
		took = srvtest_now_ms() - t0;
		TEST_ROW_ASSERT(took >= 950, misses[i].name);
		TEST_ROW_ASSERT(srvc_line(c, got, sizeof(got)) > 0 &&
				strcmp(got, VERSION_LINE) == 0, misses[i].name);
		/* still not in */
		TEST_ROW_ASSERT(srvc_req(c, "STATS", got, sizeof(got)) > 0 &&
				strcmp(got, AUTH_REQUIRED) == 0, misses[i].name);
		srvc_close(c);
	}
	/* two misses, then the token: in (the limit counts only misses) */
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "AUTH a\n{\"id\":1,\"op\":\"auth\",\"token\":\"b\"}\nAUTH " TOKEN "\n"
		   "READ adc in_voltage0_raw\n");
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR EACCES wrong token");
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "{\"id\":1,\"ok\":false,\"error\":\"EACCES\","
			       "\"message\":\"wrong token\"}");
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK");
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 3300");
	srvc_close(c);
	/* three misses: the third says so, the connection ends, what follows is not read */
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "AUTH a\nAUTH b\nAUTH c\nAUTH " TOKEN "\nREAD adc in_voltage0_raw\n");
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR EACCES wrong token");
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR EACCES wrong token");
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR EACCES wrong token; closing");
	CU_ASSERT(srvc_closed(c, SRVTEST_REPLY_MS));
	srvc_close(c);
	/* a connection that leaves while its refusal is pending leaves nothing behind */
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "AUTH x\n");
	srvtest_sleep_ms(50);
	srvc_close(c);
	srvtest_sleep_ms(1200);
	CU_ASSERT(srvc_req(other, "VERSION", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, VERSION_LINE);
	srvc_close(other);
	acl_stop(&t);
	unlink(path);
}
TEST_CASE(test_auth_wrong, "--auth-token-file: wrong tokens, delay, attempt limit");

/*
 * Per-source penalties (server/authpen.h), live: twelve wrong tokens from
 * one address on four connections at once, and a right one on a fifth. The
 * first SRV_AUTH_PENALTY_FREE are decided 1 s apart, the 11th holds the
 * address 2 s and the 12th 4 s, so the right token's OK comes 16 s after
 * the start, not at once (a guesser learns nothing sooner by opening more
 * connections), while a client already in is served at once throughout.
 */
static void test_auth_penalty(void)
{
	const long ok_at = (SRV_AUTH_PENALTY_FREE + 6) * 1000L;
	char path[128], got[512];
	struct srvc *c[4], *right, *other;
	struct srvtest t;
	long t0, took;
	size_t i;
	int k;

	CU_ASSERT_FATAL(acl_start_auth(&t, path, sizeof(path)));
	other = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	CU_ASSERT(srvc_req(other, "AUTH " TOKEN, got, sizeof(got)) > 0);
	t0 = srvtest_now_ms();
	for (i = 0; i < 4; i++) {
		c[i] = srvc_open(t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c[i]);
		srvc_sends(c[i], "AUTH a\nAUTH b\nAUTH c\n");
	}
	srvtest_sleep_ms(200);
	right = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(right);
	srvc_sends(right, "AUTH " TOKEN "\nREAD adc in_voltage0_raw\n");
	/* the held OK: read in pieces, as a 10 s receive timeout is shorter */
	srvc_timeout(right, 1000);
	while (srvc_line(right, got, sizeof(got)) == -EAGAIN &&
	       srvtest_now_ms() - t0 < ok_at + srvtest_ms(3000)) {
		/* meanwhile the authorized client is answered at once */
		CU_ASSERT(srvc_req(other, "VERSION", got, sizeof(got)) > 0);
	}
	took = srvtest_now_ms() - t0;
	CU_ASSERT_STRING_EQUAL(got, "OK");
	CU_ASSERT(took >= ok_at - 300);
	CU_ASSERT(took < ok_at + srvtest_ms(3000));
	if (took < ok_at - 300)
		fprintf(stderr, "penalty: right token answered after %ld ms, want %ld\n", took,
			ok_at);
	srvc_timeout(right, SRVTEST_REPLY_MS);
	CU_ASSERT(srvc_line(right, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 3300");
	/* every guesser got its three refusals, the third closing */
	for (i = 0; i < 4; i++) {
		for (k = 0; k < 3; k++)
			CU_ASSERT(srvc_line(c[i], got, sizeof(got)) > 0 &&
				  strncmp(got, "ERR EACCES wrong token", 22) == 0);
		srvc_close(c[i]);
	}
	srvc_close(right);
	srvc_close(other);
	acl_stop(&t);
	unlink(path);
}
TEST_CASE(test_auth_penalty, "--auth-token-file: per-source penalties grow; a right token waits");

/* ---- --allow-write ---- */

/* One policy (up to 4 patterns) and the requests it is tried with, in order. */
struct acl_policy {
	const char *name;
	const char *patterns[4];
	bool warns;		/* a pattern matches no writable attribute */
	struct acl_row rows[8];
};

static const struct acl_policy acl_policies[] = {
	{ "by name, glob on the attribute", { "dummy0:out_voltage*_raw" }, false, {
		{ "allowed", "WRITE dummy0 out_voltage0_raw 5", "OK" },
		{ "and done", "READ dummy0 out_voltage0_raw", "OK 5" },
		{ "the device named by id in the request", "WRITE iio:device0 out_voltage0_raw 6",
		  "OK" },
		{ "another attribute", "WRITE dummy0 current_timestamp_clock realtime",
		  NOT_ALLOWED("dummy0", "current_timestamp_clock") },
		{ "another device", "WRITE spare out_voltage0_raw 9",
		  NOT_ALLOWED("spare", "out_voltage0_raw") },
		{ "json", "{\"id\":\"w\",\"op\":\"write\",\"device\":\"spare\","
		  "\"attr\":\"out_voltage0_raw\",\"value\":\"9\"}",
		  "{\"id\":\"w\",\"ok\":false,\"error\":\"EACCES\",\"message\":\"spare "
		  "out_voltage0_raw: not writable here (--allow-write)\"}" },
		{ "refused writes change nothing", "READ spare out_voltage0_raw", "OK 0" },
		{ "reads are unaffected", "READ adc in_voltage0_raw", "OK 3300" },
	} },
	{ "by id (a ':' in the device part)", { "iio:device1:*" }, false, {
		{ "allowed", "WRITE spare out_voltage0_raw 4", "OK" },
		{ "the same device by label", "WRITE bench-spare current_timestamp_clock realtime",
		  "OK" },
		{ "another device", "WRITE dummy0 out_voltage0_raw 4",
		  NOT_ALLOWED("dummy0", "out_voltage0_raw") },
		{ "a missing device is still ENODEV", "WRITE nosuch out_voltage0_raw 1",
		  "ERR ENODEV no device nosuch" },
		{ "a missing attribute is still ENOENT", "WRITE spare out_voltage9_raw 1",
		  "ERR ENOENT spare has no attribute out_voltage9_raw" },
	} },
	{ "by label glob", { "bench-*:current_timestamp_clock" }, false, {
		{ "allowed", "WRITE spare current_timestamp_clock realtime", "OK" },
		{ "and done", "READ spare current_timestamp_clock", "OK realtime" },
		{ "another attribute", "WRITE spare out_voltage0_raw 1",
		  NOT_ALLOWED("spare", "out_voltage0_raw") },
		{ "a device without that label", "WRITE dummy0 current_timestamp_clock realtime",
		  NOT_ALLOWED("dummy0", "current_timestamp_clock") },
	} },
	{ "by hardware id, and a second pattern",
	  { "0-00[0-9][0-9]:current_timestamp_clock", "dummy0:out_voltage0_raw" }, false, {
		{ "first pattern", "WRITE adc current_timestamp_clock realtime", "OK" },
		{ "second pattern", "WRITE dummy0 out_voltage0_raw 3", "OK" },
		{ "neither", "WRITE spare out_voltage0_raw 3",
		  NOT_ALLOWED("spare", "out_voltage0_raw") },
		{ "a read-only attribute matched by nothing", "WRITE adc name x",
		  NOT_ALLOWED("adc", "name") },
	} },
	{ "a device's buffer/ files (no warning: they are its files too)",
	  { "dummy0:buffer/*" }, false, {
		{ "allowed", "WRITE dummy0 buffer/length 64", "OK" },
		{ "and done", "READ dummy0 buffer/length", "OK 64" },
		{ "another device", "WRITE spare buffer/length 64",
		  NOT_ALLOWED("spare", "buffer/length") },
		{ "another file", "WRITE dummy0 out_voltage0_raw 1",
		  NOT_ALLOWED("dummy0", "out_voltage0_raw") },
	} },
	{ "a read-only attribute allowed stays read-only", { "*:name" }, true, {
		{ "kernel mode wins", "WRITE dummy0 name x",
		  "ERR EACCES dummy0 name is read-only" },
		{ "nothing else", "WRITE dummy0 out_voltage0_raw 1",
		  NOT_ALLOWED("dummy0", "out_voltage0_raw") },
	} },
};

static void test_allow_write(void)
{
	const char *args[2 * 4 + 1];
	const struct acl_policy *p;
	struct srvtest t;
	struct srvc *c;
	size_t i, n, k;

	for (i = 0; i < sizeof(acl_policies) / sizeof(acl_policies[0]); i++) {
		p = &acl_policies[i];
		for (n = 0, k = 0; k < 4 && p->patterns[k]; k++) {
			args[n++] = "--allow-write";
			args[n++] = p->patterns[k];
		}
		args[n] = NULL;
		CU_ASSERT_FATAL(acl_start(&t, NULL, args));
		/* the policy's summary is logged after any warning about its patterns */
		TEST_ROW_ASSERT(srvtest_log_wait(&t, "--allow-write pattern(s)", 5000), p->name);
		TEST_ROW_ASSERT(!strstr(t.log, "matches no writable attribute") == !p->warns,
				p->name);
		c = srvc_open(t.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		for (n = 0; n < 8 && p->rows[n].name; n++)
			;
		acl_rows(c, p->rows, n);
		srvc_close(c);
		acl_stop(&t);
	}
}
TEST_CASE(test_allow_write, "--allow-write: policies (P-22)");

/* Patterns that cannot work are refused before anything listens. */
static void test_allow_write_options(void)
{
	static const struct {
		const char *name;
		const char *args[4];
		const char *err;
	} rows[] = {
		{ "no colon", { "--allow-write", "dummy0", NULL }, "expected DEVICE:ATTR" },
		{ "no device", { "--allow-write", ":out_voltage0_raw", NULL },
		  "expected DEVICE:ATTR" },
		{ "no attribute", { "--allow-write", "dummy0:", NULL }, "expected DEVICE:ATTR" },
		{ "with --read-only", { "--read-only", "--allow-write", "a:b", NULL },
		  "--read-only and --allow-write contradict each other" },
	};
	struct srvtest t;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		TEST_ROW_ASSERT(srvtest_start(&t, ACL_BOARD, rows[i].args) == -ECHILD,
				rows[i].name);
		TEST_ROW_ASSERT(WIFEXITED(t.status) && WEXITSTATUS(t.status) == 2, rows[i].name);
		TEST_ROW_ASSERT(strstr(t.log, rows[i].err) != NULL, rows[i].name);
		srvtest_fini(&t, false);
	}
}
TEST_CASE(test_allow_write_options, "--allow-write: bad patterns");

/*
 * A pattern that matches nothing is logged, at start and after a reload;
 * the policy is applied to whatever board is loaded.
 */
static void test_allow_write_reload(void)
{
	const char *const args[] = { "--allow-write", "dummy0:out_voltage0_raw",
				     "--allow-write", "nope:*", NULL };
	struct srvtest t;
	struct srvc *c;
	char got[512];

	CU_ASSERT_FATAL(acl_start(&t, NULL, args));
	CU_ASSERT(srvtest_log_wait(&t, "--allow-write nope:* matches no writable attribute of "
				   "board acl", 2000));
	CU_ASSERT(srvtest_log_wait(&t, "writes limited by 2 --allow-write pattern(s): "
				   "1 attribute(s) writable", 2000));
	CU_ASSERT_FATAL(srvtest_rewrite_file(t.board, ACL_BOARD_RENAMED) == 0);
	kill(t.pid, SIGHUP);
	CU_ASSERT(srvtest_log_wait(&t, "board reloaded", 5000));
	CU_ASSERT(srvtest_log_wait(&t, "--allow-write dummy0:out_voltage0_raw matches no "
				   "writable attribute of board renamed", 2000));
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(srvc_req(c, "WRITE fresh out_voltage0_raw 1", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, NOT_ALLOWED("fresh", "out_voltage0_raw"));
	srvc_close(c);
	acl_stop(&t);
}
TEST_CASE(test_allow_write_reload, "--allow-write: reported, and applied after a reload");

/* The iiod listener applies the same policy. */
static void test_allow_write_iiod(void)
{
	static const struct {
		const char *name;
		const char *req;	/* with its payload */
		const char *want;
	} rows[] = {
		{ "allowed", "WRITE iio:device0 OUTPUT voltage0 raw 2\n42", "2\n" },
		{ "and done", "READ iio:device0 OUTPUT voltage0 raw\n", "3\n42\0\n" },
		{ "not allowed", "WRITE iio:device0 INPUT voltage0 scale 5\n0.001", "-13\n" },
		{ "not allowed, device attribute",
		  "WRITE iio:device1 current_timestamp_clock 8\nrealtime", "-13\n" },
		{ "still in step", "VERSION\n", "0.24" },
	};
	const char *const args[] = { "--allow-write", "dummy0:out_voltage0_raw", "--iiod-listen",
				     "127.0.0.1:0", NULL };
	const char *at;
	struct srvtest t;
	struct srvc *c;
	char got[256];
	size_t i, want;
	ssize_t n;
	int port;

	CU_ASSERT_FATAL(acl_start(&t, NULL, args));
	CU_ASSERT_FATAL(srvtest_log_wait(&t, "(iiod) clients on 127.0.0.1:", 5000));
	at = strstr(t.log, "(iiod) clients on 127.0.0.1:");
	port = atoi(at + strlen("(iiod) clients on 127.0.0.1:"));
	c = srvc_open(port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_timeout(c, 2000);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		want = strcmp(rows[i].name, "and done") == 0 ? 6 : strlen(rows[i].want);
		srvc_sends(c, rows[i].req);
		n = 0;
		while ((size_t)n < want) {
			ssize_t r = recv(c->fd, got + n, want - (size_t)n, 0);

			if (r <= 0)
				break;
			n += r;
		}
		TEST_ROW_ASSERT((size_t)n == want && memcmp(got, rows[i].want, want) == 0,
				rows[i].name);
	}
	srvc_close(c);
	acl_stop(&t);
}
TEST_CASE(test_allow_write_iiod, "--allow-write: the iiod listener (P-22)");

TEST_MAIN("server access control", NULL, NULL)
