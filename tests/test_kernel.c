/*
 * test_kernel.c - the kernel backend (drivers/kernel/) on a tree in a
 * temporary directory: channels recovered from file names as libiio does,
 * the scan layout, modes, values passed through, and the errors a driver's
 * show() returns (EIO, EAGAIN, EBUSY), which no plain file can give: this
 * program's own read() wraps libc's and fails reads of files whose name
 * ends in ".fail-EIO" and so on, as sysfs would pass a driver's error on.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "iio.h"

#include "iio_core.h"
#include "iio_consumer.h"
#include "iio_event.h"
#include "iio_registry.h"
#include "kernel/iio_kernel.h"
#include "testutil.h"

/* ---- read() of a "failing" attribute: fd -> errno, set by open() or openat2() ---- */

#define FAIL_FDS	1024
static int fail_errno[FAIL_FDS];

static const struct { const char *suffix; int err; } fail_rows[] = {
	{ "_fail_eio", EIO }, { "_fail_eagain", EAGAIN }, { "_fail_ebusy", EBUSY },
	{ "_fail_einval", EINVAL },
};

/* @fd was opened by @path: its reads fail if the name says so. */
static void fail_opened(const char *path, long fd)
{
	size_t n = strlen(path), i, sl;

	if (fd < 0 || fd >= FAIL_FDS)
		return;
	fail_errno[fd] = 0;
	for (i = 0; i < sizeof(fail_rows) / sizeof(fail_rows[0]); i++) {
		sl = strlen(fail_rows[i].suffix);
		if (n > sl && strcmp(path + n - sl, fail_rows[i].suffix) == 0)
			fail_errno[fd] = fail_rows[i].err;
	}
}

int open(const char *path, int flags, ...)
{
	static int (*real_open)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;
	int fd;

	if (!real_open)
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	fd = real_open(path, flags, mode);
	fail_opened(path, fd);
	return fd;
}

/* openat(): the backend's O_NOFOLLOW walk where the kernel has no openat2(). */
int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*real_openat)(int, const char *, int, ...);
	mode_t mode = 0;
	va_list ap;
	int fd;

	if (!real_openat)
		real_openat = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	fd = real_openat(dirfd, path, flags, mode);
	fail_opened(path, fd);
	return fd;
}

/* openat2(), which the backend opens sysfs files with (glibc has no wrapper for it). */
long syscall(long nr, ...)
{
	static long (*real_syscall)(long, ...);
	long a[6], ret;
	va_list ap;
	int i;

	if (!real_syscall)
		real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	ret = real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (nr == SYS_openat2)
		fail_opened((const char *)a[1], ret);
	return ret;
}

ssize_t read(int fd, void *buf, size_t len)
{
	static ssize_t (*real_read)(int, void *, size_t);

	if (!real_read)
		real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (fd >= 0 && fd < FAIL_FDS && fail_errno[fd]) {
		errno = fail_errno[fd];
		return -1;
	}
	return real_read(fd, buf, len);
}

/* ---- the tree ---- */

static char root[64];
static char dir[256];

static void put(const char *name, const char *text, mode_t mode)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return;		/* the checks that read it fail */
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static int tree_init(void)
{
	char path[1024];

	if (snprintf(root, sizeof(root), "%s/iiowire-kernel-XXXXXX",
		     getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") >= (int)sizeof(root) ||
	    !mkdtemp(root))
		return -1;
	snprintf(dir, sizeof(dir), "%s/" IIO_KERNEL_BUS_DIR "/iio:device2", root);
	snprintf(path, sizeof(path), "mkdir -p '%s/scan_elements' '%s/buffer' '%s/events'", dir,
		 dir, dir);
	if (system(path) != 0)
		return -1;
	put("name", "max1036\n", 0444);
	put("in_voltage0_raw", "97\n", 0644);
	put("in_voltage1_raw", "-3\n", 0644);
	put("in_voltage_scale", "16.000000000\n", 0644);
	put("in_voltage0-voltage1_raw", "96\n", 0644);
	put("in_voltage-voltage_scale", "0.500000\n", 0644);
	put("in_accel_scale", "0.001000\n", 0444);
	put("in_accel_x_raw", "12\n", 0444);
	put("sampling_frequency_available", "1 2 3\n", 0444);
	put("calibrate", "0\n", 0200);
	put("current_timestamp_clock", "realtime\n", 0644);
	put("scan_elements/in_voltage0_index", "0\n", 0444);
	put("scan_elements/in_voltage0_type", "be:u8/8>>0\n", 0444);
	put("scan_elements/in_timestamp_index", "8\n", 0444);
	put("scan_elements/in_timestamp_type", "le:s64/64>>0\n", 0444);
	put("in_voltage2_raw_fail_eio", "1\n", 0444);
	put("in_voltage2_raw_fail_eagain", "1\n", 0444);
	put("in_voltage2_raw_fail_ebusy", "1\n", 0444);
	put("in_voltage3_raw_fail_einval", "1\n", 0444);
	put("events/in_voltage0_thresh_rising_en", "0\n", 0644);
	put("events/in_voltage0_thresh_rising_value", "100\n", 0644);
	put("events/in_voltage0-voltage1_thresh_falling_value", "-5\n", 0644);
	put("events/in_accel_thresh_rising_value", "3\n", 0644);
	put("events/in_voltage9_thresh_rising_en", "0\n", 0644);
	put("events/sampling_frequency", "133000\n", 0644);
	put("dev", "246:2\n", 0444);
	put("uevent", "MAJOR=246\n", 0644);
	return iio_kernel_set_roots(root, NULL);
}

static int tree_fini(void)
{
	test_rmtree(root);
	return 0;
}

static struct iio_dev *mirror(void)
{
	struct iio_dev *dev = NULL;
	char err[256];

	CU_ASSERT_EQUAL(iio_kernel_mirror("iio:device2", &dev, err, sizeof(err)), 0);
	return dev;
}

static ssize_t read_named(struct iio_dev *dev, const char *name, char *buf, size_t len)
{
	const struct iio_attr *a = iio_device_attr_find(dev, name);

	return a ? iio_attr_read(dev, a, buf, len) : -ENOENT;
}

/* ---- cases ---- */

static void test_names(void)
{
	static const struct {
		const char *name;
		bool chan, bare, diff, mod;
		int index;
		const char *postfix;
	} rows[] = {
		{ "in_voltage0_raw", true, false, false, false, 0, "raw" },
		{ "in_voltage_scale", true, true, false, false, 0, "scale" },
		{ "in_voltage0-voltage1_raw", true, false, true, false, 0, "raw" },
		{ "in_voltage-voltage_scale", true, true, true, false, 0, "scale" },
		{ "in_accel_x_raw", true, false, false, true, 0, "raw" },
		{ "in_intensity_both_calibscale", true, false, false, true, 0, "calibscale" },
		{ "in_illuminance0_input", true, false, false, false, 0, "input" },
		{ "out_altvoltage12_frequency", true, false, false, false, 12, "frequency" },
		{ "in_timestamp_index", true, true, false, false, 0, "index" },
		{ "sampling_frequency", false, false, false, false, 0, NULL },
		{ "in_sampling_frequency", false, false, false, false, 0, NULL },
		{ "in_voltage0", false, false, false, false, 0, NULL },
		{ "in_voltage0-temp1_raw", false, false, false, false, 0, NULL },
	};
	struct iio_kernel_name kn;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bool got = iio_kernel_name_parse(rows[i].name, &kn);

		TEST_ROW_ASSERT(got == rows[i].chan, rows[i].name);
		if (!got || !rows[i].chan)
			continue;
		TEST_ROW_ASSERT(kn.bare == rows[i].bare && kn.chan.differential == rows[i].diff &&
				kn.chan.modified == rows[i].mod && kn.chan.channel == rows[i].index &&
				strcmp(kn.postfix, rows[i].postfix) == 0, rows[i].name);
	}
}
TEST_CASE(test_names, "file names: channel, index, partner, modifier, postfix");

static void test_scan_type(void)
{
	struct iio_scan_type st;

	CU_ASSERT_EQUAL(iio_kernel_scan_type_parse("le:s12/16>>4\n", &st), 0);
	CU_ASSERT(st.endianness == IIO_LE && st.sign == 's' && st.realbits == 12 &&
		  st.storagebits == 16 && st.shift == 4 && st.repeat == 0);
	CU_ASSERT_EQUAL(iio_kernel_scan_type_parse("be:u8/8X2>>0", &st), 0);
	CU_ASSERT(st.endianness == IIO_BE && st.sign == 'u' && st.repeat == 2);
	CU_ASSERT_EQUAL(iio_kernel_scan_type_parse("xe:u8/8>>0", &st), -EINVAL);
	CU_ASSERT_EQUAL(iio_kernel_scan_type_parse("le:u8/8>>0 junk", &st), -EINVAL);
	CU_ASSERT_EQUAL(iio_kernel_scan_type_parse("", &st), -EINVAL);
}
TEST_CASE(test_scan_type, "scan element types: le/be, sign, repeat, junk refused");

static void test_mirror(void)
{
	struct iio_dev *dev = mirror();
	const struct iio_attr *a;
	char buf[64];
	int i, scan0 = -1, ts = -1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
	CU_ASSERT_STRING_EQUAL(dev->name, "max1036");
	CU_ASSERT_PTR_NULL(dev->label);
	CU_ASSERT_STRING_EQUAL(iio_kernel_dir(dev) ? "" : "not yet", "not yet");
	CU_ASSERT_EQUAL(iio_device_attrs_build(dev, NULL, 0), 0);
	CU_ASSERT_PTR_NULL(iio_device_attr_find(dev, "dev"));
	CU_ASSERT_PTR_NULL(iio_device_attr_find(dev, "uevent"));
	a = iio_device_attr_find(dev, "in_voltage_scale");
	CU_ASSERT(a && a->kind == IIO_ATTR_INFO && a->shared == IIO_SHARED_BY_TYPE &&
		  a->info == IIO_CHAN_INFO_SCALE);
	a = iio_device_attr_find(dev, "in_accel_scale");
	CU_ASSERT(a && a->shared == IIO_SHARED_BY_TYPE && a->mode == 0444);
	a = iio_device_attr_find(dev, "in_voltage-voltage_scale");
	CU_ASSERT(a && a->shared == IIO_SHARED_BY_TYPE && a->chan && a->chan->differential);
	a = iio_device_attr_find(dev, "calibrate");
	CU_ASSERT(a && a->kind == IIO_ATTR_TEXT && a->mode == 0200 && !a->chan);
	CU_ASSERT_EQUAL(read_named(dev, "calibrate", buf, sizeof(buf)), -EACCES);
	a = iio_device_attr_find(dev, "current_timestamp_clock");
	CU_ASSERT(a && a->kind == IIO_ATTR_TS_CLOCK);
	for (i = 0; i < dev->num_channels; i++) {
		if (dev->channels[i].type == IIO_VOLTAGE && dev->channels[i].indexed &&
		    !dev->channels[i].differential && dev->channels[i].channel == 0)
			scan0 = i;
		if (dev->channels[i].type == IIO_TIMESTAMP)
			ts = i;
	}
	CU_ASSERT_FATAL(scan0 >= 0 && ts >= 0);
	CU_ASSERT_EQUAL(dev->channels[scan0].scan_index, 0);
	CU_ASSERT(dev->channels[scan0].scan_type.endianness == IIO_BE &&
		  dev->channels[scan0].scan_type.storagebits == 8);
	CU_ASSERT_EQUAL(dev->channels[ts].scan_index, 8);
	CU_ASSERT(iio_device_may_block(dev));
	CU_ASSERT_PTR_EQUAL(iio_device_bus_key(dev), dev);
	iio_device_put(dev);
}
TEST_CASE(test_mirror, "mirror: attributes with their modes, shared names, scan layout");

static void test_values_and_errors(void)
{
	static const struct { const char *name; ssize_t ret; const char *text; } rows[] = {
		{ "in_voltage0_raw", 3, "97\n" },
		{ "sampling_frequency_available", 6, "1 2 3\n" },
		{ "in_voltage2_raw_fail_eio", -EIO, NULL },
		{ "in_voltage2_raw_fail_eagain", -EAGAIN, NULL },
		{ "in_voltage2_raw_fail_ebusy", -EBUSY, NULL },
		{ "in_voltage3_raw_fail_einval", -EINVAL, NULL },
	};
	struct iio_dev *dev = mirror();
	char buf[64];
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
	CU_ASSERT_EQUAL(iio_device_attrs_build(dev, NULL, 0), 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ssize_t n = read_named(dev, rows[i].name, buf, sizeof(buf));

		TEST_ROW_ASSERT(n == rows[i].ret, rows[i].name);
		if (rows[i].text)
			TEST_ROW_ASSERT(n > 0 && strcmp(buf, rows[i].text) == 0, rows[i].name);
	}
	/* a buffer too small for the value: EFBIG, as a value over a page */
	CU_ASSERT_EQUAL(read_named(dev, "in_voltage_scale", buf, 4), -EFBIG);
	CU_ASSERT_EQUAL(iio_attr_write(dev, iio_device_attr_find(dev, "in_voltage1_raw"), "42", 2),
			0);
	CU_ASSERT_EQUAL(read_named(dev, "in_voltage1_raw", buf, sizeof(buf)), 2);
	CU_ASSERT_STRING_EQUAL(buf, "42");
	put("in_voltage1_raw", "-3\n", 0644);
	iio_device_put(dev);
}
TEST_CASE(test_values_and_errors, "values pass through; a driver's EIO, EAGAIN, EBUSY, EINVAL too");

static void test_register_and_consume(void)
{
	struct iio_registry *reg = iio_registry_create();
	struct iio_channel *ch = NULL;
	char path[512], moved[128], err[256];
	int val = 0, val2 = 0;

	CU_ASSERT_EQUAL(iio_kernel_register_all(reg, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL_FATAL(iio_registry_count(reg), 1);
	CU_ASSERT_EQUAL(iio_device_id(iio_registry_at(reg, 0)), 2);
	CU_ASSERT_STRING_EQUAL(iio_kernel_dir(iio_registry_at(reg, 0)), "iio:device2");
	/* again: nothing new */
	CU_ASSERT_EQUAL(iio_kernel_register_all(reg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(iio_channel_get_provider(reg, "max1036", "voltage0", &ch), 0);
	CU_ASSERT_EQUAL(iio_read_channel_raw(ch, &val), IIO_VAL_INT);
	CU_ASSERT_EQUAL(val, 97);
	CU_ASSERT_EQUAL(iio_read_channel_scale(ch, &val, &val2), IIO_VAL_INT_PLUS_NANO);
	CU_ASSERT(val == 16 && val2 == 0);
	CU_ASSERT_EQUAL(iio_read_channel_processed(ch, &val), 0);
	CU_ASSERT_EQUAL(val, 97 * 16);
	/* the file goes: the device reads ENODEV; unregistered: the held channel too */
	snprintf(path, sizeof(path), "%s/in_voltage0_raw", dir);
	snprintf(moved, sizeof(moved), "%s/moved", root);	/* in the tree: it goes with it */
	CU_ASSERT_EQUAL(rename(path, moved), 0);
	CU_ASSERT_EQUAL(iio_read_channel_raw(ch, &val), -ENODEV);
	CU_ASSERT_EQUAL(rename(moved, path), 0);
	iio_device_unregister(reg, iio_registry_at(reg, 0));
	CU_ASSERT_EQUAL(iio_read_channel_raw(ch, &val), -ENODEV);
	iio_channel_release(ch);
	CU_ASSERT_EQUAL(iio_kernel_find("nosuch", path, sizeof(path), err, sizeof(err)), -ENODEV);
	CU_ASSERT(strstr(err, "no kernel IIO device nosuch") != NULL);
	CU_ASSERT_EQUAL(iio_kernel_find("max1036", path, sizeof(path), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(path, "iio:device2");
	iio_registry_destroy(reg);
}
TEST_CASE(test_register_and_consume, "registered as iio:device2; consumers read raw, scale, processed");

/* The tree changes during the scan: a device listed whose directory is gone, one without a name. */
static void test_changing_tree(void)
{
	struct iio_registry *reg = iio_registry_create();
	char gone[512], noname[512], err[256];
	struct iio_dev *dev;

	snprintf(gone, sizeof(gone), "%s/" IIO_KERNEL_BUS_DIR "/iio:device9", root);
	CU_ASSERT_EQUAL(symlink("../../../devices/vanished/iio:device9", gone), 0);
	snprintf(noname, sizeof(noname), "%s/" IIO_KERNEL_BUS_DIR "/iio:device4", root);
	CU_ASSERT_EQUAL(mkdir(noname, 0755), 0);
	CU_ASSERT_EQUAL(iio_kernel_register_all(reg, err, sizeof(err)), 2);
	CU_ASSERT_EQUAL_FATAL(iio_registry_count(reg), 2);
	dev = iio_registry_at(reg, 1);
	CU_ASSERT_EQUAL(iio_device_id(dev), 4);
	CU_ASSERT_PTR_NULL(dev->name);
	CU_ASSERT_EQUAL(iio_device_attr_count(dev), 0);
	CU_ASSERT_EQUAL(iio_kernel_mirror("iio:device9", &dev, err, sizeof(err)), -ENODEV);
	CU_ASSERT_EQUAL(iio_kernel_mirror("../x", &dev, err, sizeof(err)), -ENODEV);
	iio_registry_destroy(reg);
	unlink(gone);
	rmdir(noname);
}
TEST_CASE(test_changing_tree, "a device gone between listing and scan is skipped; one without a name stays");

static void test_event_names(void)
{
	static const struct {
		const char *postfix;
		bool ok;
		int type, dir, info;
	} rows[] = {
		{ "thresh_rising_en", true, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING, IIO_EV_INFO_ENABLE },
		{ "thresh_either_period", true, IIO_EV_TYPE_THRESH, IIO_EV_DIR_EITHER,
		  IIO_EV_INFO_PERIOD },
		{ "change_en", true, IIO_EV_TYPE_CHANGE, IIO_EV_DIR_NONE, IIO_EV_INFO_ENABLE },
		{ "thresh_adaptive_falling_value", true, IIO_EV_TYPE_THRESH_ADAPTIVE,
		  IIO_EV_DIR_FALLING, IIO_EV_INFO_VALUE },
		{ "mag_rising_high_pass_filter_3db", true, IIO_EV_TYPE_MAG, IIO_EV_DIR_RISING,
		  IIO_EV_INFO_HIGH_PASS_FILTER_3DB },
		{ "gesture_singletap_tap2_min_delay", true, IIO_EV_TYPE_GESTURE, IIO_EV_DIR_SINGLETAP,
		  IIO_EV_INFO_TAP2_MIN_DELAY },
		{ "thresh_rising_label", true, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING, -1 },
		{ "sampling_frequency", false, 0, 0, 0 },
		{ "thresh_rising", false, 0, 0, 0 },
		{ "thresh_rising_en_x", false, 0, 0, 0 },
		{ "bogus_rising_en", false, 0, 0, 0 },
	};
	struct iio_kernel_event_name ev;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bool got = iio_kernel_event_postfix_parse(rows[i].postfix, &ev);

		TEST_ROW_ASSERT(got == rows[i].ok, rows[i].postfix);
		if (got && rows[i].ok)
			TEST_ROW_ASSERT((int)ev.type == rows[i].type && (int)ev.dir == rows[i].dir &&
					ev.info == rows[i].info, rows[i].postfix);
	}
}
TEST_CASE(test_event_names, "events/ names back to type, direction and info");

/* The channel of @dev whose id is @id, or NULL. */
static const struct iio_chan_spec *chan_by_id(const struct iio_dev *dev, const char *id)
{
	char buf[64];
	int i;

	for (i = 0; i < dev->num_channels; i++)
		if (iio_chan_id(buf, sizeof(buf), &dev->channels[i]) >= 0 && strcmp(buf, id) == 0)
			return &dev->channels[i];
	return NULL;
}

static void test_event_specs(void)
{
	struct iio_dev *dev = mirror();
	const struct iio_chan_spec *c;
	char devroot[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
	CU_ASSERT_TRUE(iio_device_has_events(dev));
	c = chan_by_id(dev, "voltage0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL_FATAL(c->num_event_specs, 1);
	CU_ASSERT_EQUAL(c->event_spec[0].type, IIO_EV_TYPE_THRESH);
	CU_ASSERT_EQUAL(c->event_spec[0].dir, IIO_EV_DIR_RISING);
	CU_ASSERT_EQUAL(c->event_spec[0].mask_separate,
			BIT(IIO_EV_INFO_ENABLE) | BIT(IIO_EV_INFO_VALUE));
	c = chan_by_id(dev, "voltage0-voltage1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL_FATAL(c->num_event_specs, 1);
	CU_ASSERT_EQUAL(c->event_spec[0].dir, IIO_EV_DIR_FALLING);
	/* in_accel_thresh_rising_value: shared by the accel channels */
	c = chan_by_id(dev, "accel_x");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL_FATAL(c->num_event_specs, 1);
	CU_ASSERT_EQUAL(c->event_spec[0].mask_shared_by_type, BIT(IIO_EV_INFO_VALUE));
	CU_ASSERT_EQUAL(chan_by_id(dev, "voltage1")->num_event_specs, 0);
	/* in_voltage9_...: a channel with no other file is not made up */
	CU_ASSERT_PTR_NULL(chan_by_id(dev, "voltage9"));
	/* no /dev/iio:device2 under the dev root: the open says so, the queue stays free */
	snprintf(devroot, sizeof(devroot), "%s/nodev", root);
	CU_ASSERT_EQUAL(iio_kernel_set_roots(NULL, devroot), 0);
	CU_ASSERT_EQUAL(iio_event_open(dev, NULL, NULL), -ENOENT);
	CU_ASSERT_EQUAL(iio_event_open(dev, NULL, NULL), -ENOENT);
	CU_ASSERT_EQUAL(iio_kernel_set_roots(NULL, "/dev"), 0);
	iio_device_put(dev);
}
TEST_CASE(test_event_specs, "events/ gives channels their event specs; the event fd is opened on demand");

/*
 * A device with @n events: channels voltage0..8, each with up to 63 (type,
 * direction) pairs named in events/ (the 9 types by the 7 directions, "none"
 * as "<type>_en"). Return: iio_kernel_mirror()'s result.
 */
static int mirror_events(int n)
{
	char cmd[1024], err[256];
	struct iio_dev *dev = NULL;
	int ret;

	snprintf(cmd, sizeof(cmd), "d='%s/" IIO_KERNEL_BUS_DIR "/iio:device4'; rm -rf \"$d\"; "
		 "mkdir -p \"$d/events\" && cd \"$d\" && n=0; for c in 0 1 2 3 4 5 6 7 8; do "
		 ": >in_voltage${c}_raw; for t in thresh mag roc thresh_adaptive mag_adaptive "
		 "change mag_referenced gesture fault; do for r in either_ rising_ falling_ "
		 "singletap_ doubletap_ openwire_ ''; do [ $n -lt %d ] || exit 0; "
		 ": >events/in_voltage${c}_${t}_${r}en; n=$((n + 1)); done; done; done", root, n);
	if (system(cmd) != 0)
		return -EIO;
	ret = iio_kernel_mirror("iio:device4", &dev, err, sizeof(err));
	if (!ret)
		iio_device_put(dev);
	else
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "more than 512 events"));
	return ret;
}

static void test_events_limit(void)
{
	CU_ASSERT_EQUAL(mirror_events(IIO_KERNEL_EVENTS_MAX), 0);
	CU_ASSERT_EQUAL(mirror_events(IIO_KERNEL_EVENTS_MAX + 1), -E2BIG);
}
TEST_CASE(test_events_limit, "IIO_KERNEL_EVENTS_MAX events mirror, one more is E2BIG");

TEST_MAIN("kernel", tree_init, tree_fini)
