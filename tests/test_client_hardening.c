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
#include "iio_value.h"

#define HX_CLI_PATH	IIOWIRE_BINARY_DIR "/client/iiowire"

CT_SUITE_DAEMON(hx, "test_client_hardening")

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

/*
 * Lines of 64 KiB that are not the reply: cheap to send again and again,
 * dear to parse, so the client's socket always has more to read.
 */
#define HX_FLOOD_LINE_BYTES	65536

static void *hx_flood_main(void *arg)
{
	static const char head[] = "{\"id\":\"not-yours\",\"ok\":true,\"value\":\"";
	struct hx_flood *f = arg;
	char *buf = malloc(HX_FLOOD_LINE_BYTES);
	size_t n = HX_FLOOD_LINE_BYTES;
	int fd;

	if (!buf)
		return NULL;
	memset(buf, 'x', n);
	memcpy(buf, head, sizeof(head) - 1);
	memcpy(buf + n - 3, "\"}\n", 3);
	fd = accept4(f->lfd, NULL, NULL, SOCK_CLOEXEC);
	while (fd >= 0 && !f->stop && ct_now_ms() < f->give_up_ms)
		if (send(fd, buf, n, MSG_NOSIGNAL) < 0)
			break;
	if (fd >= 0)
		close(fd);
	free(buf);
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
TEST_CASE(test_deadline_under_flood, "a timeout is a deadline under a flood of lines");

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
TEST_CASE(test_write_out_of_range, "WRITE out of int: ERANGE, nothing written");

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
TEST_CASE(test_cread_out_of_range, "CREAD processed out of int: ERANGE");

/* The leaf's arithmetic: exact in range, ERANGE (not the kernel's wrap) outside. */
static void test_processed_arithmetic(void)
{
	int out = 7;

	/* a processed-only channel (tsl2563 lux): 100000 x 30000 wraps in the kernel */
	CU_ASSERT_EQUAL(iio_multiply_value_checked(&out, 30000, IIO_VAL_INT, 100000, 0), -ERANGE);
	CU_ASSERT_EQUAL(out, 7);
	CU_ASSERT_EQUAL(iio_multiply_value_checked(&out, 1000, IIO_VAL_INT, 100000, 0),
			IIO_VAL_INT);
	CU_ASSERT_EQUAL(out, 100000000);
	CU_ASSERT_EQUAL(iio_multiply_value_checked(&out, 3, IIO_VAL_INT_PLUS_MICRO, -1, 500000),
			IIO_VAL_INT);
	CU_ASSERT_EQUAL(out, -4);
	/* raw 4095 at 1 mV/LSB (FRACTIONAL_LOG2 4096/12) times 2^20 fits, times 2^20 x 1024 not */
	CU_ASSERT_EQUAL(iio_raw_to_processed(4095, 0, 0, 0, 0, 1, IIO_VAL_FRACTIONAL_LOG2, 4096,
					     12, 1u << 19, &out), 0);
	CU_ASSERT_EQUAL(out, 4095 << 19);
	CU_ASSERT_EQUAL(iio_raw_to_processed(4095, 0, 0, 0, 0, 1, IIO_VAL_FRACTIONAL_LOG2, 4096,
					     12, 1u << 30, &out), -ERANGE);
	/* no scale: (raw + offset) x multiplier */
	CU_ASSERT_EQUAL(iio_raw_to_processed(3, 1, IIO_VAL_INT, 1, 0, 0, 0, 0, 0, 1u << 30, &out),
			-ERANGE);
}
TEST_CASE(test_processed_arithmetic, "processed arithmetic: ERANGE, not a wrap");

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
TEST_CASE(test_json_number_value, "JSON numbers as WRITE values");

/* ---- the CLI --------------------------------------------------------- */

static void test_cli_name_lookup(void)
{
	const char *args[] = { "-a", "nosuchhost.invalid", "devices", NULL };
	char out[1024], err[1024];

	CU_ASSERT_EQUAL(hx_run(HX_CLI_PATH, args, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "name lookup of nosuchhost.invalid failed: "));
	/* getaddrinfo's own words follow, not "No route to host" */
	CU_ASSERT_PTR_NULL(strstr(err, "No route to host"));
}
TEST_CASE(test_cli_name_lookup, "CLI: a failed name lookup says so");

/* A hostile server: names and values with LF, ESC, BEL, a backslash and a C1 CSI. */
static void hx_hostile(struct ct_fake *f, const struct proto_request *req, struct proto_buf *out,
		       int conn)
{
	struct proto_device_info d = { "iio:device0", "evil\x1b[2J", "fake\nline", "\\x1b",
				       -1, -1 };
	static const char value[] = "12\x07\xc2\x9b" "31m";

	(void)f;
	(void)conn;
	if (req->op == PROTO_OP_DEVICES) {
		proto_list_begin(out, req, 1);
		proto_list_device(out, req, 0, &d);
		proto_list_end(out, req);
	} else if (req->op == PROTO_OP_READ) {
		proto_reply_value(out, req, value, strlen(value));
	} else {
		proto_reply_error(out, req, -ENODEV, "no\x1b]0;title\x07 device");
	}
}

static void test_cli_escapes(void)
{
	const char *devices[] = { "-a", NULL, "devices", NULL };
	const char *read[] = { "-a", NULL, "read", "x", "y", NULL };
	const char *device[] = { "-a", NULL, "device", "x", NULL };
	char out[1024], err[1024];
	struct ct_fake f;

	CU_ASSERT_EQUAL_FATAL(ct_fake_start(&f, hx_hostile, NULL), 0);
	devices[1] = read[1] = device[1] = f.address;
	CU_ASSERT_EQUAL(hx_run(HX_CLI_PATH, devices, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(out, "iio:device0 evil\\x1b[2J \\\\x1b fake\\x0aline\n");
	CU_ASSERT_EQUAL(hx_run(HX_CLI_PATH, read, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(out, "12\\x07\\u009b31m\n");
	CU_ASSERT_EQUAL(hx_run(HX_CLI_PATH, device, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no\\x1b]0;title\\x07 device"));
	CU_ASSERT_PTR_NULL(strchr(err, '\x1b'));
	ct_fake_stop(&f);
}
TEST_CASE(test_cli_escapes, "CLI: control characters from a server escaped");

static void test_cli_watch_attrs(void)
{
	const char *args[] = { "-a", hx_daemon.address, "watch", "-n", "4", "-i", "20",
			       "max1238", "in_voltage1_raw", "in_voltage2_raw", NULL };
	char out[4096], err[1024], *line, *save = NULL;
	int n = 0;

	CU_ASSERT_EQUAL(hx_run(HX_CLI_PATH, args, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		TEST_ROW_ASSERT(!strncmp(line, "max1238 in_voltage1_raw 1000 ", 29) ||
				!strncmp(line, "max1238 in_voltage2_raw 2000 ", 29), line);
		n++;
	}
	CU_ASSERT_EQUAL(n, 4);
}
TEST_CASE(test_cli_watch_attrs, "CLI: watch DEVICE ATTR ATTR");

/* ---- iiowire-hwmon under a hostile --sysfs-root ----------------------- */

static void hx_path(char *buf, size_t len, const char *root, const char *rel)
{
	if (snprintf(buf, len, "%s/%s", root, rel) >= (int)len)
		buf[0] = '\0';
}

/* A root with class/hwmon made by the test; @mode for class/hwmon. */
static void hx_tree(char *root, size_t len, const char *tag, mode_t mode)
{
	char path[300];

	snprintf(root, len, "%s/hx-%s", hx_daemon.dir, tag);
	CU_ASSERT_EQUAL(mkdir(root, 0755), 0);
	hx_path(path, sizeof(path), root, "class");
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	hx_path(path, sizeof(path), root, "class/hwmon");
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	CU_ASSERT_EQUAL(chmod(path, mode), 0);
}

static int hx_hwmon_once(const char *root, char *err, size_t errlen)
{
	const char *args[] = { "-a", hx_daemon.address, "--consumer", "iio_hwmon.0",
			       "--sysfs-root", root, "--once", NULL };
	char out[4096];

	return hx_run(CT_HWMON_PATH, args, out, sizeof(out), err, errlen);
}

static void test_hwmon_missing_root(void)
{
	char err[1024], path[300];

	snprintf(path, sizeof(path), "%s/no/such/dir", hx_daemon.dir);
	CU_ASSERT_EQUAL(hx_hwmon_once(path, err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "No such file or directory"));
	snprintf(path, sizeof(path), "%s/no", hx_daemon.dir);
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
}
TEST_CASE(test_hwmon_missing_root, "hwmon: a missing root is refused");

static void test_hwmon_planted_links(void)
{
	char root[200], path[300], victim[300], other[200], buf[300], owner[512], err[1024];

	/* a planted temp file name pointing at a victim: never written through */
	hx_tree(root, sizeof(root), "links", 0755);
	snprintf(victim, sizeof(victim), "%s/victim", hx_daemon.dir);
	CU_ASSERT_EQUAL(ct_write_file(victim, "precious\n", 0644), 0);
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon0");
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon1");
	CU_ASSERT_EQUAL(symlink(hx_daemon.dir, path), 0);
	/* hwmon0 is someone else's, hwmon1 a link to another directory: ours is hwmon2 */
	CU_ASSERT_EQUAL(hx_hwmon_once(root, err, sizeof(err)), 0);
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon2/in1_input");
	CU_ASSERT_EQUAL(ct_read_file(path, buf, sizeof(buf)), 5);
	snprintf(path, sizeof(path), "%s/name", hx_daemon.dir);
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	CU_ASSERT_EQUAL(ct_read_file(victim, buf, sizeof(buf)), 9);
	CU_ASSERT_STRING_EQUAL(buf, "precious\n");

	/* our hwmon2 swapped for a link to a directory holding a copy of its owner file */
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon2/.iiowire-hwmon");
	CU_ASSERT(ct_read_file(path, owner, sizeof(owner)) > 0);
	snprintf(other, sizeof(other), "%s/hx-elsewhere", hx_daemon.dir);
	CU_ASSERT_EQUAL(mkdir(other, 0755), 0);
	hx_path(path, sizeof(path), other, ".iiowire-hwmon");
	CU_ASSERT_EQUAL(ct_write_file(path, owner, 0644), 0);
	hx_path(path, sizeof(path), other, "precious");
	CU_ASSERT_EQUAL(ct_write_file(path, "precious\n", 0644), 0);
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon2");
	hx_path(buf, sizeof(buf), root, "class/hwmon/old2");
	CU_ASSERT_EQUAL(rename(path, buf), 0);
	CU_ASSERT_EQUAL(symlink(other, path), 0);
	CU_ASSERT_EQUAL(hx_hwmon_once(root, err, sizeof(err)), 0);
	hx_path(path, sizeof(path), other, "precious");
	CU_ASSERT_EQUAL(ct_read_file(path, buf, sizeof(buf)), 9);
	hx_path(path, sizeof(path), other, "name");
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon3/name");
	CU_ASSERT_EQUAL(access(path, F_OK), 0);

	/* class/hwmon itself a symlink: refused */
	hx_path(path, sizeof(path), root, "class/hwmon");
	CU_ASSERT_EQUAL(rename(path, victim), -1);
	hx_path(victim, sizeof(victim), root, "class/moved");
	CU_ASSERT_EQUAL(rename(path, victim), 0);
	CU_ASSERT_EQUAL(symlink(victim, path), 0);
	CU_ASSERT_EQUAL(hx_hwmon_once(root, err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "symlink"));
}
TEST_CASE(test_hwmon_planted_links, "hwmon: planted symlinks are not followed");

static void test_hwmon_unsafe_dirs(void)
{
	char root[200], path[300], err[1024];

	/* writable by others, as /tmp is: refused */
	hx_tree(root, sizeof(root), "o+w", 0777);
	CU_ASSERT_EQUAL(hx_hwmon_once(root, err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "writable by group or others"));
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon0");
	CU_ASSERT_EQUAL(access(path, F_OK), -1);

	/* owned by another user: refused */
	hx_tree(root, sizeof(root), "other", 0755);
	hx_path(path, sizeof(path), root, "class/hwmon");
	CU_ASSERT_EQUAL(chown(path, 12345, 12345), 0);
	CU_ASSERT_EQUAL(hx_hwmon_once(root, err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "owned by uid 12345"));
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon0");
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
}
TEST_CASE(test_hwmon_unsafe_dirs, "hwmon: directories others own or can write");

/* A file the bridge did not create survives a re-run and the clean exit. */
static void test_hwmon_deletes_only_its_own(void)
{
	char root[200], path[300], buf[64], err[1024];
	const char *argv[] = { CT_HWMON_PATH, "-a", hx_daemon.address, "--consumer",
			       "iio_hwmon.0", "--sysfs-root", root, "--interval", "50", NULL };
	int status = -1;
	pid_t pid;

	hx_tree(root, sizeof(root), "own", 0755);
	CU_ASSERT_EQUAL(hx_hwmon_once(root, err, sizeof(err)), 0);
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon0/keep_me");
	CU_ASSERT_EQUAL(ct_write_file(path, "mine\n", 0644), 0);
	/* a second run reuses hwmon0 and clears it: keep_me stays */
	CU_ASSERT_EQUAL(hx_hwmon_once(root, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(ct_read_file(path, buf, sizeof(buf)), 5);
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	CU_ASSERT_FATAL(pid > 0);
	ct_sleep_ms(300);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* ours went, the directory stays because of the file that is not ours */
	CU_ASSERT_EQUAL(ct_read_file(path, buf, sizeof(buf)), 5);
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon0/name");
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	hx_path(path, sizeof(path), root, "class/hwmon/hwmon0/in1_input");
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
}
TEST_CASE(test_hwmon_deletes_only_its_own, "hwmon: deletes only what it created");

static void test_hwmon_version(void)
{
	const char *args[] = { "--version", NULL };
	char out[256], err[256], want[64];

	snprintf(want, sizeof(want), "iiowire-hwmon %s\n", iiowire_lib_version());
	CU_ASSERT_EQUAL(hx_run(CT_HWMON_PATH, args, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(out, want);
}
TEST_CASE(test_hwmon_version, "hwmon: --version");

TEST_MAIN("client_hardening", hx_suite_init, hx_suite_cleanup)
