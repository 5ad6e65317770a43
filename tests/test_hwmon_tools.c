/*
 * test_hwmon_tools.c - the tree of iiowire-hwmon read by the real programs
 * that read hwmon: the Prometheus node exporter (--path.sysfs=DIR, scraped
 * over loopback HTTP) and lm-sensors (`sensors -u` in a private mount
 * namespace with DIR/class bind-mounted on /sys/class).
 *
 * Each tool is optional: where it is not installed, or the namespace cannot
 * be made (not root, no unshare, a container without CAP_SYS_ADMIN), the
 * test says so on stderr and checks nothing else. The node exporter listens
 * on 127.0.0.1 only.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "clienttest.h"

#define TOOLS_NODE_EXPORTER	"/usr/bin/prometheus-node-exporter"
#define TOOLS_SENSORS		"/usr/bin/sensors"
#define TOOLS_UNSHARE		"/usr/bin/unshare"
#define TOOLS_WAIT_MS		10000

static struct ct_daemon tools_daemon;
static char tools_root[160];

/* Run the bridge once into tools_root. Return: its exit status. */
static int tools_bridge_once(const char *address, const char *consumer)
{
	const char *argv[] = { CT_HWMON_PATH, "-a", address, "--consumer", consumer,
			       "--sysfs-root", tools_root, "--once", NULL };
	char out[4096], err[4096];

	return ct_run(argv, out, sizeof(out), err, sizeof(err));
}

static int tools_init(void)
{
	if (ct_daemon_start(&tools_daemon, CT_BOARD, NULL) < 0)
		return 1;
	snprintf(tools_root, sizeof(tools_root), "%s/sysfs", tools_daemon.dir);
	return tools_bridge_once(tools_daemon.address, "iio_hwmon.0") != 0;
}

static int tools_cleanup(void)
{
	test_rmtree(tools_root);
	ct_daemon_stop(&tools_daemon);
	return 0;
}

/* GET /metrics from 127.0.0.1:@port into @buf. Return: bytes, or -errno. */
static int tools_scrape(int port, char *buf, size_t len)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	const char *req = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
	size_t got = 0;
	ssize_t n;
	int fd;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    send(fd, req, strlen(req), MSG_NOSIGNAL) < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	while (got < len - 1 && (n = recv(fd, buf + got, len - 1 - got, 0)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(fd);
	return (int)got;
}

/* Start the node exporter on @root; wait until it answers. Return: its pid, or -errno. */
static pid_t tools_exporter_start(const char *root, int port)
{
	char sysfs[200], listen[64];
	const char *argv[] = { TOOLS_NODE_EXPORTER, sysfs, "--collector.disable-defaults",
			       "--collector.hwmon", listen, NULL };
	int64_t end = ct_now_ms() + TOOLS_WAIT_MS;
	char buf[64];
	pid_t pid;

	snprintf(sysfs, sizeof(sysfs), "--path.sysfs=%s", root);
	snprintf(listen, sizeof(listen), "--web.listen-address=127.0.0.1:%d", port);
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (pid < 0)
		return -errno;
	while (ct_now_ms() < end) {
		if (tools_scrape(port, buf, sizeof(buf)) > 0)
			return pid;
		ct_sleep_ms(50);
	}
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	return -ETIMEDOUT;
}

static void tools_exporter_stop(pid_t pid)
{
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

/* A metric line as the exporter prints it, at the start of a line. */
static bool tools_has_line(const char *text, const char *line)
{
	const char *p = text;
	size_t n = strlen(line);

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/* Start the bridge in the background (its stderr to /dev/null). Return: its pid. */
static pid_t tools_bridge_start(const char *const *argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static void test_tools_node_exporter(void)
{
	const char *rows[] = {
		"node_hwmon_chip_names{chip=\"iio_hwmon\",chip_name=\"iio_hwmon\"} 1",
		"node_hwmon_in_volts{chip=\"iio_hwmon\",sensor=\"in1\"} 1",
		"node_hwmon_in_volts{chip=\"iio_hwmon\",sensor=\"in2\"} 2",
		"node_hwmon_sensor_label{chip=\"iio_hwmon\",label=\"testchan1\",sensor=\"in1\"} 1",
		"node_hwmon_sensor_label{chip=\"iio_hwmon\",label=\"testchan2\",sensor=\"in2\"} 1",
	};
	static char metrics[1 << 20];
	const char *bridge[] = { CT_HWMON_PATH, "-a", tools_daemon.address, "--consumer",
				 "iio_hwmon.0", "--sysfs-root", tools_root, "--interval", "50",
				 NULL };
	const char *in1_15 = "node_hwmon_in_volts{chip=\"iio_hwmon\",sensor=\"in1\"} 1.5";
	int64_t end;
	pid_t pid, bpid;
	size_t i;
	int port;

	if (access(TOOLS_NODE_EXPORTER, X_OK) != 0) {
		fprintf(stderr, "SKIPPED: %s is not installed (Debian package "
			"prometheus-node-exporter)\n", TOOLS_NODE_EXPORTER);
		return;
	}
	port = ct_free_port();
	pid = tools_exporter_start(tools_root, port);
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT(tools_scrape(port, metrics, sizeof(metrics)) > 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		TEST_ROW_ASSERT(tools_has_line(metrics, rows[i]), rows[i]);

	/* the bridge keeps the tree current: a reload's new value reaches the scrape */
	bpid = tools_bridge_start(bridge);
	CU_ASSERT_EQUAL(ct_daemon_reload(&tools_daemon, CT_BOARD_WITH("1500")), 0);
	end = ct_now_ms() + TOOLS_WAIT_MS;
	while (ct_now_ms() < end) {
		tools_scrape(port, metrics, sizeof(metrics));
		if (tools_has_line(metrics, in1_15))
			break;
		ct_sleep_ms(50);
	}
	CU_ASSERT(tools_has_line(metrics, in1_15));
	kill(bpid, SIGTERM);
	waitpid(bpid, NULL, 0);
	tools_exporter_stop(pid);
	CU_ASSERT_EQUAL(ct_daemon_reload(&tools_daemon, CT_BOARD), 0);
	/* the loop's clean exit removed the device; put the --once tree back */
	CU_ASSERT_EQUAL(tools_bridge_once(tools_daemon.address, "iio_hwmon.0"), 0);
}
TEST_CASE(test_tools_node_exporter, "prometheus node exporter scrapes the tree");

static void test_tools_sensors(void)
{
	const char *rows[] = {
		"iio_hwmon-virtual-0\n",
		"testchan1:\n  in1_input: 1.000\n",
		"testchan2:\n  in2_input: 2.000\n",
	};
	char script[512], out[8192], err[4096];
	const char *argv[] = { TOOLS_UNSHARE, "-m", "/bin/sh", "-c", script, NULL };
	size_t i;
	int ret;

	if (access(TOOLS_SENSORS, X_OK) != 0 || access(TOOLS_UNSHARE, X_OK) != 0) {
		fprintf(stderr, "SKIPPED: sensors (Debian package lm-sensors) or unshare "
			"missing\n");
		return;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "SKIPPED: sensors needs a bind mount on /sys/class: run as root\n");
		return;
	}
	/* a private mount namespace: the machine's /sys/class is never touched */
	snprintf(script, sizeof(script),
		 "mount --make-rprivate / || exit 77;"
		 " mount --bind '%s/class' /sys/class || exit 77; exec %s -u",
		 tools_root, TOOLS_SENSORS);
	ret = ct_run(argv, out, sizeof(out), err, sizeof(err));
	if (ret == 77 || (ret != 0 && strstr(err, "unshare"))) {
		fprintf(stderr, "SKIPPED: no private mount namespace here: %s", err);
		return;
	}
	CU_ASSERT_EQUAL(ret, 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		TEST_ROW_ASSERT(strstr(out, rows[i]) != NULL, rows[i]);
}
TEST_CASE(test_tools_sensors, "sensors reads the tree");

/* A max1363 whose AIN0 (1500 mV) a consumer channel maps; its alert line is the model's. */
#define TOOLS_ALARM_BOARD							\
	"{\"board\": \"alarm\", \"buses\": {\"i2c-0\": {\"type\": \"i2c\","		\
	" \"backend\": \"emulated\"}}, \"devices\": [{\"driver\": \"max1363\","		\
	" \"bus\": \"i2c-0\", \"address\": \"0x34\", \"irq\": \"emulated\","		\
	" \"emulate\": {\"AIN0\": 1500}}], \"maps\": [{\"adc_dev_name\": \"0-0034\","	\
	" \"adc_channel_label\": \"AIN0\", \"consumer_dev_name\": \"iio_hwmon.1\","	\
	" \"consumer_channel\": \"vin\"}]}"

/* Wait until @file of the tree under @root reads @want. Return: true if it did. */
static bool tools_wait_file(const char *root, const char *file, const char *want)
{
	int64_t end = ct_now_ms() + TOOLS_WAIT_MS;
	char path[300], buf[64];

	snprintf(path, sizeof(path), "%s/class/hwmon/hwmon0/%s", root, file);
	while (ct_now_ms() < end) {
		if (ct_read_file(path, buf, sizeof(buf)) >= 0 && !strcmp(buf, want))
			return true;
		ct_sleep_ms(50);
	}
	return false;
}

/* sensors' view of @root: 0 with @out filled, 77 when no namespace can be had. */
static int tools_sensors(const char *root, char *out, size_t len)
{
	char script[512], err[4096];
	const char *argv[] = { TOOLS_UNSHARE, "-m", "/bin/sh", "-c", script, NULL };

	if (access(TOOLS_SENSORS, X_OK) != 0 || access(TOOLS_UNSHARE, X_OK) != 0 ||
	    geteuid() != 0)
		return 77;
	snprintf(script, sizeof(script),
		 "mount --make-rprivate / || exit 77;"
		 " mount --bind '%s/class' /sys/class || exit 77; exec %s", root, TOOLS_SENSORS);
	return ct_run(argv, out, len, err, sizeof(err));
}

/*
 * A threshold the input is above: the bridge shows it as in1_max, the event
 * sets in1_max_alarm and in1_alarm; sensors prints the limit and ALARM, the
 * node exporter node_hwmon_in_alarm 1. A threshold moved above the input
 * clears the alarm.
 */
static void test_tools_alarms(void)
{
	struct ct_daemon d = { 0 };
	char root[200], out[8192];
	static char metrics[1 << 20];
	const char *bridge[] = { CT_HWMON_PATH, "-a", d.address, "--consumer", "iio_hwmon.1",
				 "--sysfs-root", root, "--interval", "50", NULL };
	struct iiowire *w;
	pid_t bpid, pid;
	int port, ret;

	CU_ASSERT_FATAL(ct_daemon_start(&d, TOOLS_ALARM_BOARD, NULL) == 0);
	snprintf(root, sizeof(root), "%s/sysfs", d.dir);
	w = iiowire_connect(d.address, 2000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	/* code 2000 of 4096 at 2048 mV: 1000 mV, below the input's 1500 */
	CU_ASSERT_EQUAL(iiowire_attr_write(w, "0-0034", "events/in_voltage0_thresh_rising_value",
					   "2000"), 0);
	bpid = tools_bridge_start(bridge);
	CU_ASSERT(tools_wait_file(root, "in1_label", "vin\n"));
	CU_ASSERT_EQUAL(iiowire_attr_write(w, "0-0034", "events/in_voltage0_thresh_rising_en", "1"),
			0);
	CU_ASSERT(tools_wait_file(root, "in1_max", "1000\n"));
	CU_ASSERT(tools_wait_file(root, "in1_max_alarm", "1\n"));
	CU_ASSERT(tools_wait_file(root, "in1_alarm", "1\n"));
	/* no falling threshold is armed: no min, no min_alarm */
	snprintf(out, sizeof(out), "%s/class/hwmon/hwmon0/in1_min_alarm", root);
	CU_ASSERT(access(out, F_OK) != 0);
	ret = tools_sensors(root, out, sizeof(out));
	if (ret == 77) {
		fprintf(stderr, "SKIPPED: sensors: not root, or no sensors/unshare/namespace\n");
	} else {
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT(strstr(out, "vin:") && strstr(out, "(max =  +1.00 V)") &&
			  strstr(out, "ALARM (MAX)"));
		if (!strstr(out, "ALARM (MAX)"))
			fprintf(stderr, "\nsensors said:\n%s", out);
	}
	if (access(TOOLS_NODE_EXPORTER, X_OK) == 0) {
		port = ct_free_port();
		pid = tools_exporter_start(root, port);
		CU_ASSERT_FATAL(pid > 0);
		CU_ASSERT(tools_scrape(port, metrics, sizeof(metrics)) > 0);
		CU_ASSERT(tools_has_line(metrics,
					 "node_hwmon_in_alarm{chip=\"iio_hwmon\",sensor=\"in1\"} 1"));
		CU_ASSERT(tools_has_line(metrics,
					 "node_hwmon_in_max_volts{chip=\"iio_hwmon\",sensor=\"in1\"} 1"));
		tools_exporter_stop(pid);
	} else {
		fprintf(stderr, "SKIPPED: %s is not installed\n", TOOLS_NODE_EXPORTER);
	}
	/* above the input now: no more events, the alarm clears */
	CU_ASSERT_EQUAL(iiowire_attr_write(w, "0-0034", "events/in_voltage0_thresh_rising_value",
					   "4000"), 0);
	CU_ASSERT_EQUAL(iiowire_attr_write(w, "0-0034", "events/in_voltage0_thresh_rising_en", "1"),
			0);
	CU_ASSERT(tools_wait_file(root, "in1_max", "2000\n"));
	CU_ASSERT(tools_wait_file(root, "in1_alarm", "0\n"));
	CU_ASSERT(tools_wait_file(root, "in1_max_alarm", "0\n"));
	kill(bpid, SIGTERM);
	waitpid(bpid, NULL, 0);
	iiowire_close(w);
	test_rmtree(root);
	ct_daemon_stop(&d);
}
TEST_CASE(test_tools_alarms, "thresholds as in1_max, events as ALARM in sensors and the exporter");

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	return test_main("hwmon_tools", tools_init, tools_cleanup);
}
