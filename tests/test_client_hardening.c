/*
 * test_client_hardening.c - what an attack on libiiowire, the CLI and the
 * bridge found (issue 16 B1, B3, B6, B7) and the errors that misled users
 * (issue 17 items 8 and 9), each checked against a live iiowired, a hostile
 * fake server or a planted file tree.
 *
 * Rows: a call's timeout is a total deadline even while a server floods
 * lines that are not the reply; integer WRITEs and processed CREADs answer
 * ERANGE where the kernel wraps; a JSON number is a WRITE value; a failed
 * name lookup says so; the CLI escapes control characters a server sends;
 * `watch DEVICE ATTR ATTR`; iiowire-hwmon refuses a missing root, symlinks
 * and directories others can write, and deletes only what it created.
 */
#include <dirent.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "clienttest.h"

#define HX_CLI_PATH	IIOWIRE_BINARY_DIR "/client/iiowire"

static struct ct_daemon hx_daemon;

static int hx_suite_init(void)
{
	if (ct_daemon_start(&hx_daemon, CT_BOARD, NULL) < 0) {
		fprintf(stderr, "test_client_hardening: cannot start %s\n", CT_DAEMON_PATH);
		return 1;
	}
	return 0;
}

static int hx_suite_cleanup(void)
{
	ct_daemon_stop(&hx_daemon);
	return 0;
}

/* Run @prog with @args (NULL-ended). Return: its exit status. */
static int hx_run(const char *prog, const char *const *args, char *out, size_t outlen,
		  char *err, size_t errlen)
{
	const char *argv[32];
	int i, n = 0;

	argv[n++] = prog;
	for (i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return ct_run(argv, out, outlen, err, errlen);
}

/* ---- a server that never answers but never stops talking -------------- */

struct hx_flood {
	int lfd;
	char address[64];
	pthread_t thread;
	atomic_bool stop;
	int64_t give_up_ms;	/* stop flooding then, so a broken client still ends */
};

static void *hx_flood_main(void *arg)
{
	static const char line[] = "{\"id\":\"not-yours\",\"ok\":true,\"value\":\"1\"}\n";
	struct hx_flood *f = arg;
	char buf[4096];
	size_t n = 0;
	int fd;

	while (n + sizeof(line) < sizeof(buf)) {
		memcpy(buf + n, line, sizeof(line) - 1);
		n += sizeof(line) - 1;
	}
	fd = accept4(f->lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return NULL;
	while (!f->stop && ct_now_ms() < f->give_up_ms)
		if (send(fd, buf, n, MSG_NOSIGNAL) < 0)
			break;
	close(fd);
	return NULL;
}

static int hx_flood_start(struct hx_flood *f)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);

	memset(f, 0, sizeof(*f));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	f->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (f->lfd < 0 || bind(f->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(f->lfd, 4) < 0 || getsockname(f->lfd, (struct sockaddr *)&sa, &len) < 0)
		return -errno;
	snprintf(f->address, sizeof(f->address), "127.0.0.1:%d", ntohs(sa.sin_port));
	f->give_up_ms = ct_now_ms() + 8000;
	return -pthread_create(&f->thread, NULL, hx_flood_main, f);
}

static void hx_flood_stop(struct hx_flood *f)
{
	f->stop = true;
	pthread_join(f->thread, NULL);
	close(f->lfd);
}

/* A 300 ms timeout ends the call in about 300 ms, not when the flood stops (8 s). */
static void test_deadline_under_flood(void)
{
	char buf[64];
	struct hx_flood f;
	struct iiowire *w;
	int64_t t0, took;

	CU_ASSERT_EQUAL_FATAL(hx_flood_start(&f), 0);
	w = iiowire_connect(f.address, 300);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	t0 = ct_now_ms();
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dummy0", "in_voltage0_raw", buf, sizeof(buf)),
			-ETIMEDOUT);
	took = ct_now_ms() - t0;
	CU_ASSERT(took >= 250);
	CU_ASSERT(took < 2000);
	iiowire_close(w);
	hx_flood_stop(&f);
}

/* ---- values the kernel wraps ------------------------------------------ */

static void test_write_out_of_range(void)
{
	static const struct {
		const char *name;
		const char *text;
		int ret;
		const char *back;	/* read back after, NULL: unchanged (the last good) */
	} rows[] = {
		{ "in range", "1000", 0, "1000" },
		{ "2^32 + 1000 wrapped to 1000", "4294968296", -ERANGE, "1000" },
		{ "INT_MAX", "2147483647", 0, "2147483647" },
		{ "INT_MAX + 1", "2147483648", -ERANGE, "2147483647" },
		{ "INT_MIN", "-2147483648", 0, "-2147483648" },
		{ "INT_MIN - 1", "-2147483649", -ERANGE, "-2147483648" },
		{ "a fraction stays", "5.75", 0, "5" },
		{ "huge with a fraction", "99999999999.5", -ERANGE, "5" },
		{ "back to 0", "0", 0, "0" },
	};
	struct iiowire *w = iiowire_connect(hx_daemon.address, 0);
	char buf[64];
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		TEST_ROW_ASSERT(iiowire_attr_write(w, "dummy0", "out_voltage0_raw",
						   rows[i].text) == rows[i].ret, rows[i].name);
		TEST_ROW_ASSERT(iiowire_attr_read(w, "dummy0", "out_voltage0_raw", buf,
						  sizeof(buf)) >= 0, rows[i].name);
		TEST_ROW_ASSERT(strcmp(buf, rows[i].back) == 0, rows[i].name);
	}
	iiowire_close(w);
}

static void test_cread_out_of_range(void)
{
	struct iiowire *w = iiowire_connect(hx_daemon.address, 0);
	struct iiowire_channel *ch;
	int val = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	ch = iiowire_channel_get(w, "iio_hwmon.0", "testchan1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ch);
	/* 1000 mV x 2^21: fits; x 2^31 - 1: the kernel would wrap */
	CU_ASSERT_EQUAL(iiowire_read_channel_processed_scale(ch, &val, 1u << 21), 0);
	CU_ASSERT_EQUAL(val, 1000 << 21);
	CU_ASSERT_EQUAL(iiowire_read_channel_processed_scale(ch, &val, 2147483647u), -ERANGE);
	iiowire_channel_release(ch);
	iiowire_close(w);
}

/* ---- JSON numbers as WRITE values -------------------------------------- */

/* Send @line to the daemon, return its reply line in @out. Return: bytes, or -errno. */
static int hx_exchange(const char *line, char *out, size_t len)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	size_t n = 0;
	ssize_t got;
	int fd, ret;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons((uint16_t)hx_daemon.port);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    send(fd, line, strlen(line), MSG_NOSIGNAL) < 0) {
		ret = -errno;
		goto out_close;
	}
	while (n + 1 < len && (!n || out[n - 1] != '\n')) {
		got = recv(fd, out + n, len - 1 - n, 0);
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	out[n] = '\0';
	ret = (int)n;
out_close:
	if (fd >= 0)
		close(fd);
	return ret;
}

static void test_json_number_value(void)
{
	static const struct {
		const char *value;	/* as written in the JSON line */
		const char *reply;
		const char *back;
	} rows[] = {
		{ "2048", "{\"ok\":true}\n", "2048" },
		{ "-7", "{\"ok\":true}\n", "-7" },
		{ "3.25", "{\"ok\":true}\n", "3" },
		{ "\"12\"", "{\"ok\":true}\n", "12" },
		{ "true", "{\"ok\":false,\"error\":\"EINVAL\",\"message\":\"value: must be a string\"}\n",
		  "12" },
		{ "4294968296", "{\"ok\":false,\"error\":\"ERANGE\",\"message\":"
		  "\"dummy0 out_voltage0_raw: value out of range\"}\n", "12" },
		{ "0", "{\"ok\":true}\n", "0" },
	};
	char line[256], out[512];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(line, sizeof(line), "{\"op\":\"write\",\"device\":\"dummy0\","
			 "\"attr\":\"out_voltage0_raw\",\"value\":%s}\n", rows[i].value);
		TEST_ROW_ASSERT(hx_exchange(line, out, sizeof(out)) > 0, rows[i].value);
		TEST_ROW_ASSERT(strcmp(out, rows[i].reply) == 0, rows[i].value);
		TEST_ROW_ASSERT(hx_exchange("READ dummy0 out_voltage0_raw\n", out,
					    sizeof(out)) > 0, rows[i].value);
		snprintf(line, sizeof(line), "OK %s\n", rows[i].back);
		TEST_ROW_ASSERT(strcmp(out, line) == 0, rows[i].value);
	}
}

static CU_TestInfo hx_tests[] = {
	{ "a timeout is a deadline under a flood of lines", test_deadline_under_flood },
	{ "WRITE out of int: ERANGE, nothing written", test_write_out_of_range },
	{ "CREAD processed out of int: ERANGE", test_cread_out_of_range },
	{ "JSON numbers as WRITE values", test_json_number_value },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return test_run("client_hardening", hx_suite_init, hx_suite_cleanup, hx_tests);
}
