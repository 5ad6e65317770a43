/*
 * test_iiowire_board.c - the iiowire-board tool, run as a user runs it.
 *
 * The tool must print a board's devices exactly as grep over the kernel's
 * /sys/bus/iio/devices would: checked against the full text the kernel's
 * iio_simple_dummy gives, plus the stargate2 board's shape, --maps, the
 * default board, and exit status 2 with the loader's message on stderr for
 * a bad board. The tool is the built binary (drivers/iiowire-board).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#define TTOOL_BIN	IIOWIRE_BINARY_DIR "/drivers/iiowire-board"
#define TTOOL_OUT_MAX	(64 * 1024)

/* Run the tool with @args (shell words); stdout to @out, stderr to @err. Return: exit status. */
static int ttool_run(const char *args, char *out, char *err)
{
	char cmd[1024], errfile[] = "/tmp/iiowire-ttool-XXXXXX";
	size_t n;
	FILE *p, *e;
	int fd, st;

	fd = mkstemp(errfile);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s %s 2>%s", TTOOL_BIN, args, errfile);
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	n = fread(out, 1, TTOOL_OUT_MAX - 1, p);
	out[n] = '\0';
	st = pclose(p);
	e = fopen(errfile, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	n = fread(err, 1, TTOOL_OUT_MAX - 1, e);
	err[n] = '\0';
	fclose(e);
	unlink(errfile);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char ttool_out[TTOOL_OUT_MAX], ttool_err[TTOOL_OUT_MAX];

static const char *ttool_board(const char *json)
{
	static char path[] = "/tmp/iiowire-ttool-board-XXXXXX";
	FILE *f;
	int fd;

	strcpy(path, "/tmp/iiowire-ttool-board-XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	fputs(json, f);
	fclose(f);
	return path;
}

static void test_dummy_as_sysfs(void)
{
	/* what grep . /sys/bus/iio/devices/iio:device0/ * prints for the kernel's dummy */
	static const char want[] =
		"# iio:device0: name dummy0, label bench, hwid (none)\n"
		"/sys/bus/iio/devices/iio:device0/current_timestamp_clock:realtime\n"
		"/sys/bus/iio/devices/iio:device0/in_accel_x_calibbias:-7\n"
		"/sys/bus/iio/devices/iio:device0/in_accel_x_calibscale:0.000100\n"
		"/sys/bus/iio/devices/iio:device0/in_accel_x_raw:34\n"
		"/sys/bus/iio/devices/iio:device0/in_activity_running_input:98\n"
		"/sys/bus/iio/devices/iio:device0/in_activity_walking_input:4\n"
		"/sys/bus/iio/devices/iio:device0/in_sampling_frequency:3.000000033\n"
		"/sys/bus/iio/devices/iio:device0/in_steps_calibheight:0\n"
		"/sys/bus/iio/devices/iio:device0/in_steps_en:0\n"
		"/sys/bus/iio/devices/iio:device0/in_steps_input:47\n"
		"/sys/bus/iio/devices/iio:device0/in_voltage-voltage_scale:0.000001344\n"
		"/sys/bus/iio/devices/iio:device0/in_voltage0_offset:7\n"
		"/sys/bus/iio/devices/iio:device0/in_voltage0_raw:73\n"
		"/sys/bus/iio/devices/iio:device0/in_voltage0_scale:0.001333\n"
		"/sys/bus/iio/devices/iio:device0/in_voltage1-voltage2_raw:33\n"
		"/sys/bus/iio/devices/iio:device0/in_voltage3-voltage4_raw:-34\n"
		"/sys/bus/iio/devices/iio:device0/label:bench\n"
		"/sys/bus/iio/devices/iio:device0/name:dummy0\n"
		"/sys/bus/iio/devices/iio:device0/out_voltage0_raw:0\n";
	const char *path = ttool_board("{\"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\","
				       " \"label\": \"bench\"}]}");
	char args[128];

	snprintf(args, sizeof(args), "'%s'", path);
	CU_ASSERT_EQUAL(ttool_run(args, ttool_out, ttool_err), 0);
	CU_ASSERT_STRING_EQUAL(ttool_out, want);
	CU_ASSERT_STRING_EQUAL(ttool_err, "");
	unlink(path);
}
TEST_CASE(test_dummy_as_sysfs, "the dummy, line for line as grep over sysfs");

static void test_many_devices_sort_as_a_glob(void)
{
	char json[2048], args[128];
	const char *path, *p10, *p2;
	size_t used = 0;
	int i;

	used += (size_t)snprintf(json + used, sizeof(json) - used, "{\"devices\": [");
	for (i = 0; i < 11; i++)
		used += (size_t)snprintf(json + used, sizeof(json) - used,
					 "%s{\"driver\": \"iio_dummy\", \"name\": \"d%d\"}",
					 i ? ", " : "", i);
	snprintf(json + used, sizeof(json) - used, "]}");
	path = ttool_board(json);
	snprintf(args, sizeof(args), "'%s'", path);
	CU_ASSERT_EQUAL(ttool_run(args, ttool_out, ttool_err), 0);
	/* the shell's glob puts iio:device10 before iio:device2 */
	p10 = strstr(ttool_out, "# iio:device10:");
	p2 = strstr(ttool_out, "# iio:device2:");
	CU_ASSERT_PTR_NOT_NULL(p10);
	CU_ASSERT_PTR_NOT_NULL(p2);
	CU_ASSERT(p10 && p2 && p10 < p2);
	unlink(path);
}
TEST_CASE(test_many_devices_sort_as_a_glob, "devices sort as the shell's glob does");

static void test_stargate2_and_maps(void)
{
	char args[512];

	snprintf(args, sizeof(args), "'%s'", test_path("maps/stargate2.json"));
	CU_ASSERT_EQUAL(ttool_run(args, ttool_out, ttool_err), 0);
	CU_ASSERT_EQUAL(strncmp(ttool_out, "# iio:device0: name max1238, label stargate2-adc, "
				"hwid 0-0035\n", 61), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(ttool_out,
		"\n/sys/bus/iio/devices/iio:device0/in_voltage0_raw:3300\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ttool_out,
		"\n/sys/bus/iio/devices/iio:device0/in_voltage_scale:1.000000000\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ttool_out,
		"\n/sys/bus/iio/devices/iio:device0/name:max1238\n"));

	snprintf(args, sizeof(args), "--maps '%s'", test_path("maps/stargate2.json"));
	CU_ASSERT_EQUAL(ttool_run(args, ttool_out, ttool_err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(ttool_out, "maps[0]: iio_hwmon.0 testchan1 -> 0-0035 AIN1 "
				      "(iio:device0, max1238)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ttool_out, "maps[1]: iio_hwmon.0 testchan2 -> 0-0035 AIN2 "
				      "(iio:device0, max1238)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ttool_out, "  testchan2: AIN2 of iio:device0 (0-0035), "
				      "voltage, raw "));
}
TEST_CASE(test_stargate2_and_maps, "stargate2 and --maps");

static void test_default_board(void)
{
	CU_ASSERT_EQUAL(ttool_run("", ttool_out, ttool_err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(ttool_out, "/name:dummy0\n"));
	CU_ASSERT_EQUAL(ttool_run("--help", ttool_out, ttool_err), 0);
	CU_ASSERT_EQUAL(strncmp(ttool_out, "usage: iiowire-board", 20), 0);
}
TEST_CASE(test_default_board, "default board and --help");

static void test_bad_board(void)
{
	const char *path = ttool_board("{\"devices\": [{\"driver\": \"max9999\"}]}");
	char args[128], want[256];

	snprintf(args, sizeof(args), "'%s'", path);
	CU_ASSERT_EQUAL(ttool_run(args, ttool_out, ttool_err), 2);
	CU_ASSERT_STRING_EQUAL(ttool_out, "");
	snprintf(want, sizeof(want), "%s: devices[0].driver: unknown driver max9999\n", path);
	CU_ASSERT_STRING_EQUAL(ttool_err, want);
	unlink(path);
	CU_ASSERT_EQUAL(ttool_run("--frobnicate", ttool_out, ttool_err), 2);
	CU_ASSERT_EQUAL(ttool_run("a.json b.json", ttool_out, ttool_err), 2);
}
TEST_CASE(test_bad_board, "bad board: message on stderr, exit 2");

TEST_MAIN("iiowire_board", NULL, NULL)
