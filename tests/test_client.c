/*
 * test_client.c - libiiowire against a live iiowired: every call of
 * iiowire.h, its errors, reconnecting across a daemon restart, and -ENODEV
 * once a SIGHUP reload removed a held channel's provider.
 *
 * The daemon is the built server/iiowired on a free loopback port with the
 * board of clienttest.h (iio_dummy, an emulated MAX1238 at 1 mV per LSB
 * with AIN0..3 = 3300, 1000, 2000, 1250 mV, and maps for the consumers
 * iio_hwmon.0 and meter). Expected values are the kernel's (reference §2, §3,
 * §7). Tests that restart or reload the daemon put the board back.
 */
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"
#include "clienttest.h"

CT_SUITE_DAEMON(client, "test_client")

static struct iiowire *client_connect(void)
{
	struct iiowire *w = iiowire_connect(client_daemon.address, 3000);

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	return w;
}

/* ---- connections ------------------------------------------------------ */

static void test_connect_forms(void)
{
	char tcp6[64], unixaddr[160], host[64];
	struct {
		const char *name;
		const char *address;
		const char *normal;	/* iiowire_address() */
	} rows[] = {
		{ "ipv4", client_daemon.address, client_daemon.address },
		{ "name:port", host, host },
		{ "unix socket", unixaddr, unixaddr },
	};
	struct iiowire_device *d;
	struct iiowire *w;
	size_t i;

	snprintf(host, sizeof(host), "localhost:%d", client_daemon.port);
	snprintf(unixaddr, sizeof(unixaddr), "unix:%s", client_daemon.unix_path);
	snprintf(tcp6, sizeof(tcp6), "[::1]:%d", client_daemon.port);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		w = iiowire_connect(rows[i].address, 2000);
		TEST_ROW_ASSERT(w != NULL, rows[i].name);
		if (!w)
			continue;
		TEST_ROW_ASSERT(strcmp(iiowire_address(w), rows[i].normal) == 0, rows[i].name);
		TEST_ROW_ASSERT(iiowire_fd(w) >= 0, rows[i].name);
		TEST_ROW_ASSERT(iiowire_device_list(w, &d) == 2, rows[i].name);
		iiowire_free(d);
		iiowire_close(w);
	}
	/* the daemon listens on IPv4 only here: [::1] is refused, not mis-parsed */
	w = iiowire_connect(tcp6, 2000);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT(errno == ECONNREFUSED || errno == EADDRNOTAVAIL || errno == ENETUNREACH);
	iiowire_close(w);
}
TEST_CASE(test_connect_forms, "connect: address forms");

static void test_connect_env_and_default(void)
{
	struct iiowire_device *d = NULL;
	struct iiowire *w;
	int n;

	setenv(IIOWIRE_ADDRESS_ENV, client_daemon.address, 1);
	w = iiowire_connect(NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_STRING_EQUAL(iiowire_address(w), client_daemon.address);
	CU_ASSERT_EQUAL(iiowire_get_timeout(w), IIOWIRE_DEFAULT_TIMEOUT_MS);
	n = iiowire_device_list(w, &d);
	CU_ASSERT_EQUAL(n, 2);
	iiowire_free(d);
	iiowire_close(w);
	w = iiowire_connect("", 100);
	CU_ASSERT_PTR_NOT_NULL(w);
	iiowire_close(w);
	unsetenv(IIOWIRE_ADDRESS_ENV);
	/* no env: localhost:30432, whatever listens there (or not) */
	w = iiowire_connect(NULL, 500);
	if (w)
		CU_ASSERT_STRING_EQUAL(iiowire_address(w), IIOWIRE_DEFAULT_ADDRESS);
	iiowire_close(w);
}
TEST_CASE(test_connect_env_and_default, "connect: $IIOWIRE_ADDRESS and default");

static void test_connect_errors(void)
{
	char refused[64], nosock[160];
	struct {
		const char *name;
		const char *address;
		int err;
	} rows[] = {
		{ "nothing listens", refused, ECONNREFUSED },
		{ "no such socket", nosock, ENOENT },
		{ "port 0", "127.0.0.1:0", EINVAL },
		{ "port too big", "127.0.0.1:65536", EINVAL },
		{ "port not a number", "127.0.0.1:http", EINVAL },
		{ "unclosed bracket", "[::1:30432", EINVAL },
		{ "empty unix path", "unix:", EINVAL },
		{ "blank in host", "local host:1", EINVAL },
	};
	struct iiowire *w;
	size_t i;

	snprintf(refused, sizeof(refused), "127.0.0.1:%d", ct_free_port());
	snprintf(nosock, sizeof(nosock), "unix:%s/none", client_daemon.dir);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		errno = 0;
		w = iiowire_connect(rows[i].address, 1000);
		TEST_ROW_ASSERT(w == NULL, rows[i].name);
		TEST_ROW_ASSERT(errno == rows[i].err, rows[i].name);
		iiowire_close(w);
	}
	/* close and release accept NULL */
	iiowire_close(NULL);
	iiowire_channel_release(NULL);
	iiowire_channel_release_all(NULL);
	iiowire_free(NULL);
}
TEST_CASE(test_connect_errors, "connect: errors");

static void test_timeout_setting(void)
{
	struct iiowire *w = client_connect();

	CU_ASSERT_EQUAL(iiowire_get_timeout(w), 3000);
	CU_ASSERT_EQUAL(iiowire_set_timeout(w, 250), 0);
	CU_ASSERT_EQUAL(iiowire_get_timeout(w), 250);
	CU_ASSERT_EQUAL(iiowire_set_timeout(w, 0), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_set_timeout(w, -5), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_get_timeout(w), 250);
	iiowire_close(w);
}
TEST_CASE(test_timeout_setting, "timeout setting");

static void test_versions(void)
{
	struct iiowire_version v = { -1, -1, "" };
	struct iiowire *w = client_connect();
	char want[32];

	snprintf(want, sizeof(want), "%d.%d.%d", IIOWIRE_LIB_VERSION_MAJOR,
		 IIOWIRE_LIB_VERSION_MINOR, IIOWIRE_LIB_VERSION_PATCH);
	CU_ASSERT_STRING_EQUAL(iiowire_lib_version(), want);
	CU_ASSERT_EQUAL(iiowire_server_version(w, &v), 0);
	CU_ASSERT_EQUAL(v.proto_major, 1);
	CU_ASSERT(v.proto_minor >= 0);
	CU_ASSERT_STRING_EQUAL(v.server, IIOWIRE_VERSION);
	iiowire_close(w);
}
TEST_CASE(test_versions, "versions");

/* ---- errors ----------------------------------------------------------- */

static void test_errno_names(void)
{
	struct {
		const char *name;
		int err;
	} rows[] = {
		{ "ENOENT", -ENOENT }, { "ENODEV", -ENODEV }, { "EINVAL", -EINVAL },
		{ "EACCES", -EACCES }, { "ETIMEDOUT", -ETIMEDOUT }, { "ENOTUNIQ", -ENOTUNIQ },
		{ "ECONNREFUSED", -ECONNREFUSED }, { "ECONNRESET", -ECONNRESET },
		{ "EHOSTUNREACH", -EHOSTUNREACH }, { "EOPNOTSUPP", -EOPNOTSUPP },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		TEST_ROW_ASSERT(strcmp(iiowire_errno_name(rows[i].err), rows[i].name) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(strcmp(iiowire_errno_name(-rows[i].err), rows[i].name) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(iiowire_errno_from_name(rows[i].name) == rows[i].err,
				rows[i].name);
		TEST_ROW_ASSERT(strcmp(iiowire_strerror(rows[i].err), strerror(-rows[i].err)) == 0,
				rows[i].name);
	}
	CU_ASSERT_EQUAL(iiowire_errno_from_name("ENOTSUP"), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(iiowire_errno_from_name("EWHATEVER"), -EPROTO);
	CU_ASSERT_EQUAL(iiowire_errno_from_name(""), -EPROTO);
	CU_ASSERT_EQUAL(iiowire_errno_from_name(NULL), -EPROTO);
	CU_ASSERT_PTR_NULL(iiowire_errno_name(0));
	CU_ASSERT_PTR_NOT_NULL(iiowire_strerror(4242));
	CU_ASSERT_STRING_EQUAL(iiowire_errmsg(NULL), "");
}
TEST_CASE(test_errno_names, "errno names");

static void test_errmsg(void)
{
	struct iiowire *w = client_connect();
	char buf[64];

	CU_ASSERT_EQUAL(iiowire_attr_read(w, "max1238", "in_voltage99_raw", buf, sizeof(buf)),
			-ENOENT);
	/* the daemon's message, naming what is missing */
	CU_ASSERT_PTR_NOT_NULL(strstr(iiowire_errmsg(w), "in_voltage99_raw"));
	CU_ASSERT(iiowire_attr_read(w, "max1238", "in_voltage0_raw", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(iiowire_errmsg(w), "");
	iiowire_close(w);
}
TEST_CASE(test_errmsg, "errmsg");

/* ---- devices and attributes ------------------------------------------ */

static void test_device_list(void)
{
	struct iiowire *w = client_connect();
	struct iiowire_device *d = NULL;
	int n;

	n = iiowire_device_list(w, &d);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(d[0].id, "iio:device0");
	CU_ASSERT_STRING_EQUAL(d[0].name, "dummy0");
	CU_ASSERT_STRING_EQUAL(d[0].label, "");
	CU_ASSERT_STRING_EQUAL(d[0].hwid, "");
	CU_ASSERT_STRING_EQUAL(d[1].id, "iio:device1");
	CU_ASSERT_STRING_EQUAL(d[1].name, "max1238");
	CU_ASSERT_STRING_EQUAL(d[1].label, "stargate2-adc");
	CU_ASSERT_STRING_EQUAL(d[1].hwid, "0-0035");
	iiowire_free(d);
	iiowire_close(w);
}
TEST_CASE(test_device_list, "device list");

static void test_device_info(void)
{
	struct {
		const char *name;
		const char *device;
		int err;
		const char *id;
	} rows[] = {
		{ "by name", "max1238", 0, "iio:device1" },
		{ "by id", "iio:device1", 0, "iio:device1" },
		{ "by hwid", "0-0035", 0, "iio:device1" },
		{ "by label", "stargate2-adc", 0, "iio:device1" },
		{ "dummy", "dummy0", 0, "iio:device0" },
		{ "no such device", "max9999", -ENODEV, NULL },
		{ "NULL device", NULL, -EINVAL, NULL },
	};
	struct iiowire *w = client_connect();
	struct iiowire_device *d;
	struct iiowire_attr *a;
	struct iiowire_chan *c;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		d = (struct iiowire_device *)&w;	/* must be reset on failure */
		ret = iiowire_device_get_info(w, rows[i].device, &d);
		TEST_ROW_ASSERT(ret == rows[i].err, rows[i].name);
		if (ret < 0) {
			TEST_ROW_ASSERT(d == NULL, rows[i].name);
			continue;
		}
		TEST_ROW_ASSERT(strcmp(d->id, rows[i].id) == 0, rows[i].name);
		/* the counts agree with the listings */
		TEST_ROW_ASSERT(iiowire_attr_list(w, rows[i].device, &a) == d->num_attrs,
				rows[i].name);
		TEST_ROW_ASSERT(iiowire_chan_list(w, rows[i].device, &c) == d->num_channels,
				rows[i].name);
		iiowire_free(a);
		iiowire_free(c);
		iiowire_free(d);
	}
	iiowire_close(w);
}
TEST_CASE(test_device_info, "device info");

static void test_attr_list(void)
{
	struct {
		const char *name;
		const char *device;
		const char *attr;
		unsigned int access;
	} rows[] = {
		{ "raw rw", "max1238", "in_voltage0_raw", IIOWIRE_ATTR_READ | IIOWIRE_ATTR_WRITE },
		{ "shared scale", "max1238", "in_voltage_scale",
		  IIOWIRE_ATTR_READ | IIOWIRE_ATTR_WRITE },
		{ "differential", "max1238", "in_voltage0-voltage1_raw",
		  IIOWIRE_ATTR_READ | IIOWIRE_ATTR_WRITE },
		{ "name ro", "max1238", "name", IIOWIRE_ATTR_READ },
		{ "dummy output", "dummy0", "out_voltage0_raw",
		  IIOWIRE_ATTR_READ | IIOWIRE_ATTR_WRITE },
	};
	struct iiowire *w = client_connect();
	struct iiowire_attr *a;
	size_t i;
	int n, j, found;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		n = iiowire_attr_list(w, rows[i].device, &a);
		TEST_ROW_ASSERT(n > 0, rows[i].name);
		found = 0;
		for (j = 0; j < n; j++)
			if (strcmp(a[j].name, rows[i].attr) == 0)
				found = a[j].access == rows[i].access;
		TEST_ROW_ASSERT(found, rows[i].name);
		iiowire_free(a);
	}
	a = (struct iiowire_attr *)&w;
	CU_ASSERT_EQUAL(iiowire_attr_list(w, "nodev", &a), -ENODEV);
	CU_ASSERT_PTR_NULL(a);
	iiowire_close(w);
}
TEST_CASE(test_attr_list, "attribute list");

static void test_attr_read(void)
{
	struct {
		const char *name;
		const char *device;
		const char *attr;
		int ret;		/* length or -errno */
		const char *text;
	} rows[] = {
		{ "raw 3300 mV", "max1238", "in_voltage0_raw", 4, "3300" },
		{ "by id", "iio:device1", "in_voltage1_raw", 4, "1000" },
		{ "by label", "stargate2-adc", "in_voltage2_raw", 4, "2000" },
		{ "FRACTIONAL_LOG2 scale", "max1238", "in_voltage_scale", 11, "1.000000000" },
		{ "differential raw", "max1238", "in_voltage0-voltage1_raw", 4, "2300" },
		{ "unipolar: negative reads 0", "max1238", "in_voltage1-voltage0_raw", 1, "0" },
		{ "name", "max1238", "name", 7, "max1238" },
		{ "dummy raw", "dummy0", "in_voltage0_raw", 2, "73" },
		{ "dummy offset", "dummy0", "in_voltage0_offset", 1, "7" },
		{ "INT_PLUS_MICRO", "dummy0", "in_voltage0_scale", 8, "0.001333" },
		{ "INT_PLUS_NANO", "dummy0", "in_sampling_frequency", 11, "3.000000033" },
		{ "shared differential scale", "dummy0", "in_voltage-voltage_scale", 11,
		  "0.000001344" },
		{ "processed", "dummy0", "in_steps_input", 2, "47" },
		{ "no such attribute", "max1238", "in_voltage99_raw", -ENOENT, "" },
		{ "no such device", "max9999", "in_voltage0_raw", -ENODEV, "" },
		{ "NULL attribute", "max1238", NULL, -EINVAL, "" },
	};
	struct iiowire *w = client_connect();
	char buf[128];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(buf, 'x', sizeof(buf));
		ret = iiowire_attr_read(w, rows[i].device, rows[i].attr, buf, sizeof(buf));
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		TEST_ROW_ASSERT(strcmp(buf, rows[i].text) == 0, rows[i].name);
	}
	/* the buffer must hold text and NUL: 4 bytes do not fit "3300" */
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "max1238", "in_voltage0_raw", buf, 4), -EFBIG);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "max1238", "in_voltage0_raw", buf, 5), 4);
	CU_ASSERT_STRING_EQUAL(buf, "3300");
	iiowire_close(w);
}
TEST_CASE(test_attr_read, "attribute read");

static void test_attr_write(void)
{
	struct {
		const char *name;
		const char *device;
		const char *attr;
		const char *value;
		int ret;
		const char *readback;	/* NULL: not read back */
	} rows[] = {
		{ "output raw", "dummy0", "out_voltage0_raw", "42", 0, "42" },
		{ "trailing newline", "dummy0", "out_voltage0_raw", "43\n", 0, "43" },
		{ "calibscale from the set", "dummy0", "in_accel_x_calibscale", "0.000133", 0,
		  "0.000133" },
		{ "calibscale outside the set", "dummy0", "in_accel_x_calibscale", "0.5", -EINVAL,
		  "0.000133" },
		{ "input raw refused", "dummy0", "in_voltage0_raw", "1", -EINVAL, "73" },
		{ "malformed", "dummy0", "out_voltage0_raw", "4x2", -EINVAL, "43" },
		{ "read-only name", "dummy0", "name", "x", -EACCES, "dummy0" },
		{ "no such attribute", "dummy0", "out_voltage9_raw", "1", -ENOENT, NULL },
		{ "no such device", "nodev", "out_voltage0_raw", "1", -ENODEV, NULL },
		{ "NULL value", "dummy0", "out_voltage0_raw", NULL, -EINVAL, "43" },
		{ "back to 0", "dummy0", "out_voltage0_raw", "0", 0, "0" },
		{ "calibscale back", "dummy0", "in_accel_x_calibscale", "0.000100", 0, "0.000100" },
	};
	struct iiowire *w = client_connect();
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		TEST_ROW_ASSERT(iiowire_attr_write(w, rows[i].device, rows[i].attr,
						   rows[i].value) == rows[i].ret, rows[i].name);
		if (!rows[i].readback)
			continue;
		TEST_ROW_ASSERT(iiowire_attr_read(w, rows[i].device, rows[i].attr, buf,
						  sizeof(buf)) >= 0, rows[i].name);
		TEST_ROW_ASSERT(strcmp(buf, rows[i].readback) == 0, rows[i].name);
	}
	iiowire_close(w);
}
TEST_CASE(test_attr_write, "attribute write");

static void test_attr_numbers(void)
{
	struct iiowire *w = client_connect();
	long long ll = 0;
	double d = 0;

	CU_ASSERT_EQUAL(iiowire_attr_read_longlong(w, "max1238", "in_voltage0_raw", &ll), 0);
	CU_ASSERT_EQUAL(ll, 3300);
	CU_ASSERT_EQUAL(iiowire_attr_read_longlong(w, "dummy0", "in_voltage0_scale", &ll), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_attr_read_longlong(w, "dummy0", "nope", &ll), -ENOENT);
	CU_ASSERT_EQUAL(iiowire_attr_read_double(w, "dummy0", "in_voltage0_scale", &d), 0);
	CU_ASSERT(fabs(d - 0.001333) < 1e-12);
	CU_ASSERT_EQUAL(iiowire_attr_read_double(w, "max1238", "name", &d), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_attr_write_longlong(w, "dummy0", "out_voltage0_raw", -5), 0);
	CU_ASSERT_EQUAL(iiowire_attr_read_longlong(w, "dummy0", "out_voltage0_raw", &ll), 0);
	CU_ASSERT_EQUAL(ll, -5);
	CU_ASSERT_EQUAL(iiowire_attr_write_longlong(w, "dummy0", "out_voltage0_raw", 0), 0);
	iiowire_close(w);
}
TEST_CASE(test_attr_numbers, "attribute numbers");

static void test_chan_list(void)
{
	struct iiowire *w = client_connect();
	struct iiowire_chan *c;
	int n, i, seen_ain0 = 0, seen_diff = 0, seen_accel = 0, seen_out = 0;

	n = iiowire_chan_list(w, "max1238", &c);
	CU_ASSERT_FATAL(n > 12);
	for (i = 0; i < n; i++) {
		if (c[i].datasheet_name && strcmp(c[i].datasheet_name, "AIN0") == 0) {
			seen_ain0 = c[i].type == IIO_VOLTAGE && c[i].index == 0 &&
				    !c[i].differential && c[i].index2 == -1 && !c[i].output &&
				    strcmp(c[i].type_name, "voltage") == 0 && c[i].num_attrs >= 2;
		}
		if (c[i].datasheet_name && strcmp(c[i].datasheet_name, "AIN0-AIN1") == 0)
			seen_diff = c[i].differential && c[i].index == 0 && c[i].index2 == 1;
	}
	CU_ASSERT(seen_ain0);
	CU_ASSERT(seen_diff);
	iiowire_free(c);

	n = iiowire_chan_list(w, "dummy0", &c);
	CU_ASSERT_FATAL(n > 0);
	for (i = 0; i < n; i++) {
		if (c[i].type == IIO_ACCEL)
			seen_accel = c[i].modifier && strcmp(c[i].modifier, "x") == 0 &&
				     c[i].index == -1 && c[i].datasheet_name == NULL;
		if (c[i].output)
			seen_out = c[i].type == IIO_VOLTAGE && c[i].num_attrs == 1 &&
				   strcmp(c[i].attrs[0], "out_voltage0_raw") == 0;
	}
	CU_ASSERT(seen_accel);
	CU_ASSERT(seen_out);
	iiowire_free(c);
	CU_ASSERT_EQUAL(iiowire_chan_list(w, "nodev", &c), -ENODEV);
	iiowire_close(w);
}
TEST_CASE(test_chan_list, "channel list");

static void test_map_list(void)
{
	struct {
		const char *consumer;
		const char *channel;
		const char *label;
	} rows[] = {
		{ "iio_hwmon.0", "testchan1", "AIN1" },
		{ "iio_hwmon.0", "testchan2", "AIN2" },
		{ "meter", "diff", "AIN0-AIN1" },
	};
	struct iiowire *w = client_connect();
	struct iiowire_map *m;
	int n, i;

	n = iiowire_map_list(w, &m);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	for (i = 0; i < n; i++) {
		TEST_ROW_ASSERT(strcmp(m[i].consumer, rows[i].consumer) == 0, rows[i].channel);
		TEST_ROW_ASSERT(strcmp(m[i].consumer_channel, rows[i].channel) == 0,
				rows[i].channel);
		TEST_ROW_ASSERT(strcmp(m[i].datasheet_name, rows[i].label) == 0, rows[i].channel);
		TEST_ROW_ASSERT(strcmp(m[i].provider, "0-0035") == 0, rows[i].channel);
		TEST_ROW_ASSERT(m[i].device && strcmp(m[i].device, "iio:device1") == 0,
				rows[i].channel);
	}
	iiowire_free(m);
	iiowire_close(w);
}
TEST_CASE(test_map_list, "map list");

static void test_stats(void)
{
	struct iiowire *w = client_connect();
	struct iiowire_stat *s;
	long long requests = -1, devices = -1;
	char buf[16];
	int n, i;

	CU_ASSERT(iiowire_attr_read(w, "max1238", "name", buf, sizeof(buf)) > 0);
	n = iiowire_stats(w, &s);
	CU_ASSERT_FATAL(n > 0);
	for (i = 0; i < n; i++) {
		if (strcmp(s[i].name, "requests") == 0)
			requests = s[i].value;
		if (strcmp(s[i].name, "devices") == 0)
			devices = s[i].value;
	}
	CU_ASSERT(requests >= 1);
	CU_ASSERT_EQUAL(devices, 2);
	iiowire_free(s);
	iiowire_close(w);
}
TEST_CASE(test_stats, "stats");

/* ---- consumer API ----------------------------------------------------- */

static void test_channel_get(void)
{
	struct {
		const char *name;
		const char *consumer;
		const char *channel;
		int err;
		const char *want_name;
		const char *want_label;
	} rows[] = {
		{ "named", "iio_hwmon.0", "testchan2", 0, "testchan2", "AIN2" },
		{ "first of consumer", "iio_hwmon.0", NULL, 0, "testchan1", "AIN1" },
		{ "differential", "meter", "diff", 0, "diff", "AIN0-AIN1" },
		{ "no such channel", "iio_hwmon.0", "nope", ENODEV, NULL, NULL },
		{ "no such consumer", "nobody", "testchan1", ENODEV, NULL, NULL },
		{ "first of nobody", "nobody", NULL, ENODEV, NULL, NULL },
		{ "NULL consumer", NULL, "testchan1", EINVAL, NULL, NULL },
	};
	struct iiowire *w = client_connect();
	struct iiowire_channel *ch;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		errno = 0;
		ch = iiowire_channel_get(w, rows[i].consumer, rows[i].channel);
		if (rows[i].err) {
			TEST_ROW_ASSERT(ch == NULL && errno == rows[i].err, rows[i].name);
			continue;
		}
		TEST_ROW_ASSERT(ch != NULL, rows[i].name);
		if (!ch)
			continue;
		TEST_ROW_ASSERT(strcmp(iiowire_channel_consumer(ch), rows[i].consumer) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(strcmp(iiowire_channel_name(ch), rows[i].want_name) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(strcmp(iiowire_channel_datasheet_name(ch), rows[i].want_label) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(strcmp(iiowire_channel_provider(ch), "iio:device1") == 0,
				rows[i].name);
		iiowire_channel_release(ch);
	}
	iiowire_close(w);
}
TEST_CASE(test_channel_get, "channel get");

static void test_channel_get_all(void)
{
	struct iiowire *w = client_connect();
	struct iiowire_channel **chs;
	int val;

	chs = iiowire_channel_get_all(w, "iio_hwmon.0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(chs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(chs[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(chs[1]);
	CU_ASSERT_PTR_NULL(chs[2]);
	/* map order */
	CU_ASSERT_STRING_EQUAL(iiowire_channel_name(chs[0]), "testchan1");
	CU_ASSERT_STRING_EQUAL(iiowire_channel_name(chs[1]), "testchan2");
	CU_ASSERT_STRING_EQUAL(iiowire_channel_datasheet_name(chs[1]), "AIN2");
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(chs[1], &val), 0);
	CU_ASSERT_EQUAL(val, 2000);
	iiowire_channel_release_all(chs);

	errno = 0;
	CU_ASSERT_PTR_NULL(iiowire_channel_get_all(w, "nobody"));
	CU_ASSERT_EQUAL(errno, ENODEV);
	errno = 0;
	CU_ASSERT_PTR_NULL(iiowire_channel_get_all(w, NULL));
	CU_ASSERT_EQUAL(errno, EINVAL);
	iiowire_close(w);
}
TEST_CASE(test_channel_get_all, "channel get all");

static void test_channel_reads(void)
{
	struct {
		const char *name;
		const char *channel;
		int raw;
		int processed;
		int micro;		/* processed_scale(1000) */
	} rows[] = {
		{ "AIN1", "testchan1", 1000, 1000, 1000000 },
		{ "AIN2", "testchan2", 2000, 2000, 2000000 },
	};
	struct iiowire *w = client_connect();
	struct iiowire_channel *ch;
	enum iio_chan_type type = IIO_TEMP;
	int val, val2, ret;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ch = iiowire_channel_get(w, "iio_hwmon.0", rows[i].channel);
		TEST_ROW_ASSERT(ch != NULL, rows[i].name);
		if (!ch)
			continue;
		TEST_ROW_ASSERT(iiowire_read_channel_raw(ch, &val) == IIO_VAL_INT, rows[i].name);
		TEST_ROW_ASSERT(val == rows[i].raw, rows[i].name);
		TEST_ROW_ASSERT(iiowire_read_channel_processed(ch, &val) == 0, rows[i].name);
		TEST_ROW_ASSERT(val == rows[i].processed, rows[i].name);
		TEST_ROW_ASSERT(iiowire_read_channel_processed_scale(ch, &val, 1000) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(val == rows[i].micro, rows[i].name);
		val = 7;
		TEST_ROW_ASSERT(iiowire_read_channel_processed_scale(ch, &val, 0) == 0 && val == 0,
				rows[i].name);
		/* the exact scale, kernel numbering: 4096 mV / 2^12 */
		ret = iiowire_read_channel_scale(ch, &val, &val2);
		TEST_ROW_ASSERT(ret == IIO_VAL_FRACTIONAL_LOG2 && val == 4096 && val2 == 12,
				rows[i].name);
		TEST_ROW_ASSERT(iiowire_read_channel_offset(ch, &val, &val2) == -EINVAL,
				rows[i].name);
		TEST_ROW_ASSERT(iiowire_get_channel_type(ch, &type) == 0 && type == IIO_VOLTAGE,
				rows[i].name);
		/* the MAX1238 gives no channel labels */
		TEST_ROW_ASSERT(iiowire_read_channel_label(ch, (char[8]){ 0 }, 8) == -EINVAL,
				rows[i].name);
		iiowire_channel_release(ch);
	}
	iiowire_close(w);
}
TEST_CASE(test_channel_reads, "channel reads");

static void test_convert_raw(void)
{
	struct {
		const char *name;
		int raw;
		unsigned int scale;
		int processed;
	} rows[] = {
		{ "zero", 0, 1, 0 },
		{ "mV", 2000, 1, 2000 },
		{ "uV", 123, 1000, 123000 },
		{ "full scale", 4095, 1, 4095 },
		/* FRACTIONAL_LOG2 is an arithmetic shift: it floors negatives */
		{ "negative floors", -1, 1, -1 },
	};
	struct iiowire *w = client_connect();
	struct iiowire_channel *ch = iiowire_channel_get(w, "meter", "diff");
	int out;
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ch);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		out = 0x5a5a;
		TEST_ROW_ASSERT(iiowire_convert_raw_to_processed(ch, rows[i].raw, &out,
								 rows[i].scale) == 0, rows[i].name);
		TEST_ROW_ASSERT(out == rows[i].processed, rows[i].name);
	}
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(ch, &out), 0);
	CU_ASSERT_EQUAL(out, 2300);
	iiowire_channel_release(ch);
	iiowire_close(w);
}
TEST_CASE(test_convert_raw, "convert raw to processed");

static void test_type_names(void)
{
	struct {
		const char *name;
		int type;
	} rows[] = {
		{ "voltage", IIO_VOLTAGE }, { "temp", IIO_TEMP }, { "current", IIO_CURRENT },
		{ "power", IIO_POWER }, { "illuminance", IIO_LIGHT },
		{ "humidityrelative", IIO_HUMIDITYRELATIVE }, { "anglvel", IIO_ANGL_VEL },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		TEST_ROW_ASSERT(strcmp(iiowire_chan_type_name(rows[i].type), rows[i].name) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(iiowire_chan_type_from_name(rows[i].name) == rows[i].type,
				rows[i].name);
	}
	CU_ASSERT_PTR_NULL(iiowire_chan_type_name(-1));
	CU_ASSERT_PTR_NULL(iiowire_chan_type_name(1000));
	CU_ASSERT_EQUAL(iiowire_chan_type_from_name("light"), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_chan_type_from_name(NULL), -EINVAL);
	CU_ASSERT_STRING_EQUAL(iiowire_val_type_name(IIO_VAL_FRACTIONAL_LOG2), "FRACTIONAL_LOG2");
	CU_ASSERT_PTR_NULL(iiowire_val_type_name(99));
	CU_ASSERT_EQUAL(iiowire_format_value(buf, sizeof(buf), IIO_VAL_FRACTIONAL_LOG2, 2048, 12),
			11);
	CU_ASSERT_STRING_EQUAL(buf, "0.500000000");
	CU_ASSERT_EQUAL(iiowire_format_value(buf, sizeof(buf), IIO_VAL_INT_PLUS_MICRO, -1, 500000),
			9);
	CU_ASSERT_STRING_EQUAL(buf, "-1.500000");
	CU_ASSERT_EQUAL(iiowire_format_value(buf, sizeof(buf), IIO_VAL_FRACTIONAL, 1, 0), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_format_value(buf, sizeof(buf), 99, 1, 0), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_format_value(buf, 4, IIO_VAL_INT, 123456, 0), -EFBIG);
}
TEST_CASE(test_type_names, "type and value names");

/* ---- watches ---------------------------------------------------------- */

static int client_count_cb(const struct iiowire_event *ev, void *data)
{
	int *seen = data;

	if (strcmp(ev->value, "3300") == 0 && strcmp(ev->attr, "in_voltage0_raw") == 0)
		seen[0]++;
	return seen[0] >= seen[1];	/* stop when told */
}

static void test_watch_next_and_fd(void)
{
	struct iiowire *w = client_connect();
	struct iiowire_event ev;
	struct pollfd pfd;
	struct timespec now;
	uint64_t now_ns;

	CU_ASSERT_EQUAL_FATAL(iiowire_watch_start(w, "max1238", "in_voltage0_raw", 20), 0);
	CU_ASSERT_EQUAL_FATAL(iiowire_event_next(w, &ev, 3000), 1);
	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	CU_ASSERT_STRING_EQUAL(ev.device, "max1238");
	CU_ASSERT_STRING_EQUAL(ev.attr, "in_voltage0_raw");
	CU_ASSERT_STRING_EQUAL(ev.value, "3300");
	CU_ASSERT_EQUAL(ev.error, 0);
	CU_ASSERT(ev.timestamp_ns <= now_ns && now_ns - ev.timestamp_ns < 10000000000ULL);
	/* the readable fd wakes a poll loop */
	while (iiowire_event_next(w, &ev, 0) == 1)
		;
	pfd = (struct pollfd){ .fd = iiowire_fd(w), .events = POLLIN };
	CU_ASSERT_EQUAL(poll(&pfd, 1, 3000), 1);
	CU_ASSERT_EQUAL(iiowire_event_next(w, &ev, 0), 1);
	/* events wait in the queue while requests are answered */
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dummy0", "in_voltage0_raw", (char[8]){ 0 }, 8), 2);
	ct_sleep_ms(100);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dummy0", "in_voltage0_raw", (char[8]){ 0 }, 8), 2);
	CU_ASSERT(iiowire_event_pending(w) > 0);
	CU_ASSERT_EQUAL(iiowire_watch_stop(w, "max1238", "in_voltage0_raw"), 0);
	iiowire_close(w);
}
TEST_CASE(test_watch_next_and_fd, "watch: next and fd");

static void test_watch_dispatch(void)
{
	struct iiowire *w = client_connect();
	int seen[2] = { 0, 1000 };

	CU_ASSERT_EQUAL_FATAL(iiowire_watch_start(w, "max1238", "in_voltage0_raw", 10), 0);
	CU_ASSERT_EQUAL(iiowire_event_dispatch(w, client_count_cb, seen, 3, 5000), 3);
	CU_ASSERT_EQUAL(seen[0], 3);
	/* a callback returning non-zero stops at once */
	seen[0] = 0;
	seen[1] = 1;
	CU_ASSERT_EQUAL(iiowire_event_dispatch(w, client_count_cb, seen, 0, 5000), 1);
	/* stopped: after the pushes in flight, nothing more comes */
	CU_ASSERT_EQUAL(iiowire_watch_stop(w, NULL, NULL), 0);
	ct_sleep_ms(100);
	while (iiowire_event_dispatch(w, client_count_cb, (int[2]){ 0, 1000 }, 0, 0) > 0)
		;
	CU_ASSERT_EQUAL(iiowire_event_next(w, &(struct iiowire_event){ 0 }, 300), 0);
	CU_ASSERT_EQUAL(iiowire_event_pending(w), 0);
	iiowire_close(w);
}
TEST_CASE(test_watch_dispatch, "watch: dispatch");

static void test_watch_errors(void)
{
	struct {
		const char *name;
		const char *device;
		const char *attr;
		int interval;
		int err;
	} rows[] = {
		{ "no such attribute", "max1238", "nope", 100, -ENOENT },
		{ "no such device", "nodev", "in_voltage0_raw", 100, -ENODEV },
		{ "interval below 10", "max1238", "in_voltage0_raw", 1, -ERANGE },
		{ "interval above 1 h", "max1238", "in_voltage0_raw", 3600001, -ERANGE },
		{ "NULL attribute", "max1238", NULL, 100, -EINVAL },
	};
	struct iiowire *w = client_connect();
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		TEST_ROW_ASSERT(iiowire_watch_start(w, rows[i].device, rows[i].attr,
						    rows[i].interval) == rows[i].err, rows[i].name);
	CU_ASSERT_EQUAL(iiowire_watch_stop(w, "max1238", "in_voltage0_raw"), -ENOENT);
	CU_ASSERT_EQUAL(iiowire_watch_stop(w, "max1238", NULL), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_event_next(w, &(struct iiowire_event){ 0 }, 0), 0);
	iiowire_close(w);
}
TEST_CASE(test_watch_errors, "watch: errors");

/* ---- restarts and reloads --------------------------------------------- */

static void test_reconnect_restart(void)
{
	struct iiowire *w = client_connect();
	struct iiowire_channel *ch;
	struct iiowire_event ev;
	char buf[16];
	int val = 0;

	ch = iiowire_channel_get(w, "iio_hwmon.0", "testchan2");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ch);
	CU_ASSERT_EQUAL(iiowire_watch_start(w, "max1238", "in_voltage2_raw", 20), 0);
	CU_ASSERT_EQUAL(iiowire_reconnect_count(w), 0);

	CU_ASSERT_EQUAL_FATAL(ct_daemon_restart(&client_daemon), 0);
	/* a read reconnects once and is sent again */
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "max1238", "in_voltage0_raw", buf, sizeof(buf)), 4);
	CU_ASSERT_EQUAL(iiowire_reconnect_count(w), 1);
	/* the held channel is looked up again and reads */
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(ch, &val), 0);
	CU_ASSERT_EQUAL(val, 2000);
	/* the watch was sent again on the new connection */
	while (iiowire_event_next(w, &ev, 0) == 1)
		;
	CU_ASSERT_EQUAL(iiowire_event_next(w, &ev, 3000), 1);
	CU_ASSERT_STRING_EQUAL(ev.attr, "in_voltage2_raw");

	/* a write that had not left when the break was seen is sent on the new connection */
	CU_ASSERT_EQUAL_FATAL(ct_daemon_restart(&client_daemon), 0);
	CU_ASSERT_EQUAL(iiowire_attr_write(w, "dummy0", "out_voltage0_raw", "7"), 0);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dummy0", "out_voltage0_raw", buf, sizeof(buf)), 1);
	CU_ASSERT_STRING_EQUAL(buf, "7");
	CU_ASSERT_EQUAL(iiowire_reconnect_count(w), 2);

	/* daemon away: refused; back: the next call reconnects by itself */
	ct_daemon_kill(&client_daemon);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "max1238", "in_voltage0_raw", buf, sizeof(buf)),
			-ECONNREFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(iiowire_errmsg(w), client_daemon.address));
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(ch, &val), -ECONNREFUSED);
	CU_ASSERT_EQUAL(iiowire_fd(w), -ENOTCONN);
	CU_ASSERT_EQUAL_FATAL(ct_daemon_spawn(&client_daemon), 0);
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(ch, &val), 0);
	CU_ASSERT_EQUAL(val, 2000);
	CU_ASSERT(iiowire_fd(w) >= 0);
	/* explicit reconnect */
	CU_ASSERT_EQUAL(iiowire_reconnect(w), 0);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "max1238", "in_voltage1_raw", buf, sizeof(buf)), 4);
	CU_ASSERT_EQUAL(iiowire_watch_stop(w, NULL, NULL), 0);
	iiowire_channel_release(ch);
	iiowire_close(w);
}
TEST_CASE(test_reconnect_restart, "reconnect across restarts");

/* A watched device that is gone after a restart: an error event, the connection lives on. */
static void test_watch_replay_refused(void)
{
	struct iiowire *w = client_connect();
	struct iiowire_event ev;
	char buf[16];
	int got = 0;

	CU_ASSERT_EQUAL_FATAL(iiowire_watch_start(w, "max1238", "in_voltage0_raw", 20), 0);
	CU_ASSERT_EQUAL_FATAL(ct_write_file(client_daemon.board, CT_BOARD_NO_ADC, 0644), 0);
	CU_ASSERT_EQUAL_FATAL(ct_daemon_restart(&client_daemon), 0);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dummy0", "in_voltage0_raw", buf, sizeof(buf)), 2);
	CU_ASSERT_EQUAL(iiowire_reconnect_count(w), 1);
	while (iiowire_event_next(w, &ev, 0) == 1)
		if (ev.error == -ENODEV && strcmp(ev.attr, "in_voltage0_raw") == 0)
			got = strcmp(ev.value, "") == 0 && ev.timestamp_ns > 0;
	CU_ASSERT(got);
	/* the board comes back: the remembered watch delivers again after a reconnect */
	CU_ASSERT_EQUAL_FATAL(ct_write_file(client_daemon.board, CT_BOARD, 0644), 0);
	CU_ASSERT_EQUAL_FATAL(ct_daemon_restart(&client_daemon), 0);
	CU_ASSERT_EQUAL(iiowire_event_next(w, &ev, 3000), 1);
	CU_ASSERT_EQUAL(ev.error, 0);
	CU_ASSERT_STRING_EQUAL(ev.value, "3300");
	CU_ASSERT_EQUAL(iiowire_watch_stop(w, NULL, NULL), 0);
	iiowire_close(w);
}
TEST_CASE(test_watch_replay_refused, "watch refused after a restart");

static void test_reload_removes_provider(void)
{
	struct iiowire *w = client_connect();
	struct iiowire_channel *ch, **all;
	enum iio_chan_type type;
	char buf[16];
	int val = 0, val2;

	ch = iiowire_channel_get(w, "iio_hwmon.0", "testchan1");
	all = iiowire_channel_get_all(w, "iio_hwmon.0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ch);
	CU_ASSERT_PTR_NOT_NULL_FATAL(all);
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(ch, &val), 0);

	CU_ASSERT_EQUAL_FATAL(ct_daemon_reload(&client_daemon, CT_BOARD_NO_ADC), 0);
	/* every accessor of a held channel: -ENODEV, as in the kernel */
	CU_ASSERT_EQUAL(iiowire_read_channel_raw(ch, &val), -ENODEV);
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(ch, &val), -ENODEV);
	CU_ASSERT_EQUAL(iiowire_read_channel_scale(ch, &val, &val2), -ENODEV);
	CU_ASSERT_EQUAL(iiowire_get_channel_type(ch, &type), -ENODEV);
	CU_ASSERT_EQUAL(iiowire_convert_raw_to_processed(ch, 1, &val, 1), -ENODEV);
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(all[1], &val), -ENODEV);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "max1238", "in_voltage0_raw", buf, sizeof(buf)),
			-ENODEV);
	errno = 0;
	CU_ASSERT_PTR_NULL(iiowire_channel_get(w, "iio_hwmon.0", "testchan1"));
	CU_ASSERT_EQUAL(errno, ENODEV);
	/* the connection itself is fine */
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dummy0", "in_voltage0_raw", buf, sizeof(buf)), 2);

	/* a new value after a reload; lookups work again */
	CU_ASSERT_EQUAL_FATAL(ct_daemon_reload(&client_daemon, CT_BOARD_WITH("1500")), 0);
	iiowire_channel_release(ch);
	ch = iiowire_channel_get(w, "iio_hwmon.0", "testchan1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ch);
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(ch, &val), 0);
	CU_ASSERT_EQUAL(val, 1500);
	CU_ASSERT_EQUAL(ct_daemon_reload(&client_daemon, CT_BOARD), 0);
	CU_ASSERT_EQUAL(iiowire_read_channel_processed(ch, &val), 0);
	CU_ASSERT_EQUAL(val, 1000);
	iiowire_channel_release(ch);
	iiowire_channel_release_all(all);
	iiowire_close(w);
}
TEST_CASE(test_reload_removes_provider, "reload removes the provider: ENODEV");

/* ---- access control --------------------------------------------------- */

static void test_auth(void)
{
	const char *extra[] = { "--auth-token-file", NULL, NULL };
	struct iiowire_device *d = NULL;
	char tokfile[160], badfile[160], emptyfile[160];
	struct ct_daemon ad;
	struct iiowire *w;
	int ret;

	snprintf(tokfile, sizeof(tokfile), "%s/token", client_daemon.dir);
	snprintf(badfile, sizeof(badfile), "%s/badtoken", client_daemon.dir);
	snprintf(emptyfile, sizeof(emptyfile), "%s/emptytoken", client_daemon.dir);
	CU_ASSERT_EQUAL_FATAL(ct_write_file(tokfile, "s3cret token here\n", 0600), 0);
	CU_ASSERT_EQUAL_FATAL(ct_write_file(badfile, "wrong\n", 0600), 0);
	CU_ASSERT_EQUAL_FATAL(ct_write_file(emptyfile, "\n\n", 0600), 0);
	extra[1] = tokfile;
	CU_ASSERT_EQUAL_FATAL(ct_daemon_start(&ad, CT_BOARD, extra), 0);

	w = iiowire_connect(ad.address, 2000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(iiowire_device_list(w, &d), -EACCES);
	CU_ASSERT_EQUAL(iiowire_server_version(w, &(struct iiowire_version){ 0 }), 0);
	CU_ASSERT_EQUAL(iiowire_auth(w, "wrong"), -EACCES);
	CU_ASSERT_EQUAL(iiowire_auth(w, ""), -EINVAL);
	/* blanks inside a token are part of it, as the daemon reads its file */
	CU_ASSERT_EQUAL(iiowire_auth(w, "two words"), -EACCES);
	CU_ASSERT_EQUAL(iiowire_auth(w, " s3cret token here"), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_auth(w, "s3cret token here "), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_auth(w, "s3cret\ttoken here"), -EINVAL);
	{
		char longtok[IIOWIRE_TOKEN_MAX_BYTES + 2];

		memset(longtok, 'x', sizeof(longtok) - 1);
		longtok[sizeof(longtok) - 1] = '\0';
		CU_ASSERT_EQUAL(iiowire_auth(w, longtok), -EINVAL);
	}
	CU_ASSERT_EQUAL(iiowire_auth_file(w, emptyfile), -EINVAL);
	CU_ASSERT_EQUAL(iiowire_auth_file(w, "/nonexistent/token"), -ENOENT);
	CU_ASSERT_EQUAL(iiowire_auth(w, "s3cret token here"), 0);
	CU_ASSERT_EQUAL(iiowire_device_list(w, &d), 2);
	iiowire_free(d);
	/* the token is sent again after a restart */
	CU_ASSERT_EQUAL_FATAL(ct_daemon_restart(&ad), 0);
	CU_ASSERT_EQUAL(iiowire_device_list(w, &d), 2);
	iiowire_free(d);
	iiowire_close(w);

	/* $IIOWIRE_TOKEN_FILE makes connect authenticate */
	setenv(IIOWIRE_TOKEN_FILE_ENV, tokfile, 1);
	w = iiowire_connect(ad.address, 2000);
	CU_ASSERT_PTR_NOT_NULL(w);
	if (w)
		CU_ASSERT_EQUAL(iiowire_device_list(w, &d), 2);
	iiowire_free(d);
	iiowire_close(w);
	setenv(IIOWIRE_TOKEN_FILE_ENV, badfile, 1);
	errno = 0;
	CU_ASSERT_PTR_NULL(iiowire_connect(ad.address, 2000));
	CU_ASSERT_EQUAL(errno, EACCES);
	setenv(IIOWIRE_TOKEN_FILE_ENV, "/nonexistent/token", 1);
	errno = 0;
	CU_ASSERT_PTR_NULL(iiowire_connect(ad.address, 2000));
	CU_ASSERT_EQUAL(errno, ENOENT);
	unsetenv(IIOWIRE_TOKEN_FILE_ENV);
	ret = ct_daemon_kill(&ad);
	CU_ASSERT(WIFEXITED(ret) && WEXITSTATUS(ret) == 0);
	ct_daemon_stop(&ad);
	unlink(tokfile);
	unlink(badfile);
	unlink(emptyfile);
}
TEST_CASE(test_auth, "auth");

static void test_read_only(void)
{
	const char *extra[] = { "--read-only", NULL };
	struct ct_daemon rd;
	struct iiowire *w;
	char buf[16];

	CU_ASSERT_EQUAL_FATAL(ct_daemon_start(&rd, CT_BOARD, extra), 0);
	w = iiowire_connect(rd.address, 2000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(iiowire_attr_write(w, "dummy0", "out_voltage0_raw", "1"), -EACCES);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dummy0", "out_voltage0_raw", buf, sizeof(buf)), 1);
	iiowire_close(w);
	ct_daemon_stop(&rd);
}
TEST_CASE(test_read_only, "read-only daemon");

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	return test_main("client", client_suite_init, client_suite_cleanup);
}
