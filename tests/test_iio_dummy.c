/*
 * test_iio_dummy.c - drivers/dummy/iio_dummy.c against the kernel's
 * iio_simple_dummy (reference §7).
 *
 * Every attribute the kernel's dummy has, with its exact name, mode and
 * initial text, and nothing more; then every write rule as a row that
 * starts from a fresh device: what is stored, what is clamped, what is
 * refused with -EINVAL and left unchanged. The name comes from the board's
 * "name" property, else the probe's name.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iio.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "proto_errno.h"
#include "testutil.h"

/* Props for the probe: at most one "name" string. */
struct tdummy_props {
	const char *name;
	bool name_not_string;
};

static int tdummy_prop_str(const void *props, const char *key, const char **val)
{
	const struct tdummy_props *p = props;

	if (strcmp(key, "name") != 0 || (!p->name && !p->name_not_string))
		return -ENOENT;
	if (p->name_not_string)
		return -EINVAL;
	*val = p->name;
	return 0;
}

static int tdummy_probe(const struct tdummy_props *props, const char *probe_name,
			struct iio_dev **out, char *err, size_t errlen)
{
	const struct iio_device_id *id = NULL;
	const struct iio_driver *drv = iio_driver_find("iio_dummy", &id);
	struct iio_probe p = {
		.id = id, .name = probe_name, .props = props, .prop_str = tdummy_prop_str,
	};
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(drv);
	CU_ASSERT_STRING_EQUAL(id->name, "iio_dummy");
	ret = drv->probe(&p, out, err, errlen);
	/* as iio_driver_probe(): remove() then gives back the iio_evgen slot */
	if (ret == 0)
		iio_device_set_driver(*out, drv);
	return ret;
}

/* A registered dummy in a fresh registry. */
static struct iio_dev *tdummy_create(struct iio_registry **reg, const char *name)
{
	struct tdummy_props props = { .name = name };
	struct iio_dev *d = NULL;
	char err[128];

	*reg = iio_registry_create();
	CU_ASSERT_PTR_NOT_NULL_FATAL(*reg);
	CU_ASSERT_EQUAL_FATAL(tdummy_probe(&props, "iio_dummy", &d, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(iio_device_register(*reg, d, err, sizeof(err)), 0);
	return d;
}

static int tdummy_read(struct iio_dev *d, const char *attr, char *buf, size_t len)
{
	const struct iio_attr *a = iio_device_attr_find(d, attr);

	if (!a)
		return -ENOENT;
	return (int)iio_attr_read(d, a, buf, len);
}

struct tdummy_attr_row {
	const char *name;
	unsigned int mode;
	const char *value;
};

/* The kernel dummy's sysfs, in its attribute order (per channel, then device). */
static const struct tdummy_attr_row tdummy_attrs[] = {
	{ "in_voltage0_raw", 0644, "73\n" },
	{ "in_voltage0_scale", 0644, "0.001333\n" },
	{ "in_voltage0_offset", 0644, "7\n" },
	{ "in_sampling_frequency", 0644, "3.000000033\n" },
	{ "in_voltage1-voltage2_raw", 0644, "33\n" },
	{ "in_voltage-voltage_scale", 0644, "0.000001344\n" },
	{ "in_voltage3-voltage4_raw", 0644, "-34\n" },
	{ "in_accel_x_raw", 0644, "34\n" },
	{ "in_accel_x_calibscale", 0644, "0.000100\n" },
	{ "in_accel_x_calibbias", 0644, "-7\n" },
	{ "out_voltage0_raw", 0644, "0\n" },
	{ "in_steps_input", 0644, "47\n" },
	{ "in_steps_en", 0644, "0\n" },
	{ "in_steps_calibheight", 0644, "0\n" },
	{ "in_activity_running_input", 0644, "98\n" },
	{ "in_activity_walking_input", 0644, "4\n" },
	{ "name", 0444, "dummy0\n" },
	{ "current_timestamp_clock", 0644, "realtime\n" },
	/* iio_simple_dummy_events.c: one shared enable and value behind them all */
	{ "events/in_voltage0_thresh_rising_en", 0644, "0\n" },
	{ "events/in_voltage0_thresh_rising_value", 0644, "0\n" },
	{ "events/in_steps_change_en", 0644, "0\n" },
	{ "events/in_activity_running_thresh_rising_en", 0644, "0\n" },
	{ "events/in_activity_running_thresh_rising_value", 0644, "0\n" },
	{ "events/in_activity_walking_thresh_falling_en", 0644, "0\n" },
	{ "events/in_activity_walking_thresh_falling_value", 0644, "0\n" },
};

static void test_every_attribute(void)
{
	const size_t n = sizeof(tdummy_attrs) / sizeof(tdummy_attrs[0]);
	struct iio_registry *reg;
	struct iio_dev *d = tdummy_create(&reg, "dummy0");
	const struct iio_attr *a;
	char buf[64];
	size_t i;
	int j;

	/* the exact set: nothing missing, nothing extra (no timestamp attributes, no label) */
	CU_ASSERT_EQUAL(iio_device_attr_count(d), (int)n);
	for (i = 0; i < n; i++) {
		a = iio_device_attr_find(d, tdummy_attrs[i].name);
		TEST_ROW_ASSERT(a != NULL, tdummy_attrs[i].name);
		if (!a)
			continue;
		TEST_ROW_ASSERT(a->mode == tdummy_attrs[i].mode, tdummy_attrs[i].name);
		TEST_ROW_ASSERT(tdummy_read(d, tdummy_attrs[i].name, buf, sizeof(buf)) ==
				(int)strlen(tdummy_attrs[i].value), tdummy_attrs[i].name);
		TEST_ROW_ASSERT(strcmp(buf, tdummy_attrs[i].value) == 0, tdummy_attrs[i].name);
	}
	/* channel attributes come in the kernel's order: channel by channel, bit by bit */
	for (j = 0; j < 16; j++)
		TEST_ROW_ASSERT(strcmp(iio_device_attr_at(d, j)->name, tdummy_attrs[j].name) == 0,
				tdummy_attrs[j].name);
	CU_ASSERT_STRING_EQUAL(d->name, "dummy0");
	CU_ASSERT_STRING_EQUAL(d->hwid, "");
	CU_ASSERT_PTR_NULL(d->label);
	iio_registry_destroy(reg);
}
TEST_CASE(test_every_attribute, "every attribute, mode and initial value");

static void test_channels(void)
{
	struct iio_registry *reg;
	struct iio_dev *d = tdummy_create(&reg, "dummy0");
	const struct iio_chan_spec *c = d->channels;
	int i;

	CU_ASSERT_EQUAL_FATAL(d->num_channels, 9);
	/* the soft timestamp: channel -1 at scan index 4, 64 bits */
	CU_ASSERT_EQUAL(c[4].type, IIO_TIMESTAMP);
	CU_ASSERT_EQUAL(c[4].channel, -1);
	CU_ASSERT_EQUAL(c[4].scan_index, 4);
	CU_ASSERT_EQUAL(c[4].scan_type.realbits, 64);
	CU_ASSERT_EQUAL(c[0].scan_type.sign, 'u');
	CU_ASSERT_EQUAL(c[0].scan_type.realbits, 13);
	CU_ASSERT_EQUAL(c[1].scan_type.realbits, 12);
	CU_ASSERT_EQUAL(c[2].scan_type.realbits, 11);
	CU_ASSERT_EQUAL(c[3].scan_type.realbits, 16);
	CU_ASSERT_EQUAL(c[3].channel2, IIO_MOD_X);
	CU_ASSERT_EQUAL(c[5].scan_index, -1);
	CU_ASSERT_TRUE(c[5].output);
	CU_ASSERT_EQUAL(c[7].channel2, IIO_MOD_RUNNING);
	CU_ASSERT_EQUAL(c[8].channel2, IIO_MOD_WALKING);
	/* no datasheet names: maps cannot reach the dummy, as in the kernel */
	for (i = 0; i < d->num_channels; i++)
		CU_ASSERT_PTR_NULL(c[i].datasheet_name);
	CU_ASSERT_PTR_NULL(d->info->write_raw_get_fmt);
	iio_registry_destroy(reg);
}
TEST_CASE(test_channels, "channel specs: timestamp, scan types, no datasheet names");

/* One row of tests/vectors/iio_dummy_writes.txt, on a fresh dummy0. */
static int tdummy_write_row(char **f, const char *where, void *ctx)
{
	int ret = strcmp(f[3], "0") ? proto_errno_from_name(f[3]) : 0;
	char text[64], after[64], buf[64];
	struct iio_registry *reg;
	const struct iio_attr *a;
	struct iio_dev *d;

	(void)ctx;
	if ((strcmp(f[3], "0") && !ret) || test_vector_field(text, sizeof(text), f[2], NULL) ||
	    test_vector_field(after, sizeof(after), f[4], NULL)) {
		TEST_ROW_ASSERT(false, where);
		return 0;
	}
	d = tdummy_create(&reg, "dummy0");
	a = iio_device_attr_find(d, f[1]);
	TEST_ROW_ASSERT(a != NULL, f[0]);
	if (a) {
		TEST_ROW_ASSERT(iio_attr_write(d, a, text, strlen(text)) == ret, f[0]);
		TEST_ROW_ASSERT(tdummy_read(d, f[1], buf, sizeof(buf)) > 0, f[0]);
		TEST_ROW_ASSERT(strcmp(buf, after) == 0, f[0]);
	}
	iio_registry_destroy(reg);
	return 0;
}

static void test_write_rules(void)
{
	CU_ASSERT(test_vectors("iio_dummy_writes.txt", NULL, 5, tdummy_write_row, NULL) > 0);
}
TEST_CASE(test_write_rules, "write rules through sysfs text");

static void test_write_raw_direct(void)
{
	struct iio_registry *reg;
	struct iio_dev *d = tdummy_create(&reg, "dummy0");
	const struct iio_chan_spec *c = d->channels;
	int val, val2;

	/* the callbacks themselves, with (val, val2) the parser would never produce */
	iio_device_lock(d);
	CU_ASSERT_EQUAL(d->info->write_raw(d, &c[3], 0, 133, IIO_CHAN_INFO_CALIBSCALE), 0);
	CU_ASSERT_EQUAL(d->info->write_raw(d, &c[3], 0, 101, IIO_CHAN_INFO_CALIBSCALE), -EINVAL);
	CU_ASSERT_EQUAL(d->info->read_raw(d, &c[3], &val, &val2, IIO_CHAN_INFO_CALIBSCALE),
			IIO_VAL_INT_PLUS_MICRO);
	CU_ASSERT_EQUAL(val, 0);
	CU_ASSERT_EQUAL(val2, 133);
	/* ENABLE and CALIBHEIGHT belong to steps only */
	CU_ASSERT_EQUAL(d->info->write_raw(d, &c[0], 1, 0, IIO_CHAN_INFO_ENABLE), -EINVAL);
	CU_ASSERT_EQUAL(d->info->write_raw(d, &c[0], 1, 0, IIO_CHAN_INFO_CALIBHEIGHT), -EINVAL);
	CU_ASSERT_EQUAL(d->info->write_raw(d, &c[0], 1, 0, IIO_CHAN_INFO_PROCESSED), -EINVAL);
	CU_ASSERT_EQUAL(d->info->write_raw(d, &c[0], 1, 0, IIO_CHAN_INFO_HARDWAREGAIN), -EINVAL);
	/* reads of bits a channel does not have */
	CU_ASSERT_EQUAL(d->info->read_raw(d, &c[6], &val, &val2, IIO_CHAN_INFO_RAW), -EINVAL);
	CU_ASSERT_EQUAL(d->info->read_raw(d, &c[3], &val, &val2, IIO_CHAN_INFO_SCALE), -EINVAL);
	CU_ASSERT_EQUAL(d->info->read_raw(d, &c[0], &val, &val2, IIO_CHAN_INFO_PROCESSED), -EINVAL);
	CU_ASSERT_EQUAL(d->info->read_raw(d, &c[0], &val, &val2, IIO_CHAN_INFO_PEAK), -EINVAL);
	iio_device_unlock(d);
	iio_registry_destroy(reg);
}
TEST_CASE(test_write_raw_direct, "write and read rules of the callbacks");

struct tdummy_name_row {
	const char *name;
	const char *prop;	/* the board's "name", or NULL */
	const char *probe;	/* the probe's name */
	int ret;
	const char *want;
};

static void test_name(void)
{
	static const char long_name[] =
		"0123456789012345678901234567890123456789012345678901234567890123";
	static const struct tdummy_name_row rows[] = {
		{ "board name", "dummy7", "iio_dummy", 0, "dummy7" },
		{ "probe name", NULL, "mydummy", 0, "mydummy" },
		{ "63 characters", long_name + 1, "iio_dummy", 0, long_name + 1 },
		{ "64 characters", long_name, "iio_dummy", -EINVAL, NULL },
		{ "empty", "", "iio_dummy", -EINVAL, NULL },
	};
	struct tdummy_props props;
	struct iio_dev *d;
	char err[128], copy[80];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		/* the name is copied: the probe's strings are gone after it */
		snprintf(copy, sizeof(copy), "%s", rows[i].prop ? rows[i].prop : "");
		props = (struct tdummy_props){ .name = rows[i].prop ? copy : NULL };
		d = NULL;
		err[0] = '\0';
		ret = tdummy_probe(&props, rows[i].probe, &d, err, sizeof(err));
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		if (ret) {
			TEST_ROW_ASSERT(strcmp(err, "name must have 1 to 63 characters") == 0,
					rows[i].name);
			continue;
		}
		memset(copy, 'X', sizeof(copy) - 1);
		TEST_ROW_ASSERT(d && strcmp(d->name, rows[i].want) == 0, rows[i].name);
		iio_device_put(d);
	}
	/* a "name" that is not a string falls back to the probe's name */
	props = (struct tdummy_props){ .name_not_string = true };
	CU_ASSERT_EQUAL(tdummy_probe(&props, "fallback", &d, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(d->name, "fallback");
	iio_device_put(d);
}
TEST_CASE(test_name, "name from the board, copied");

static void test_two_dummies_independent(void)
{
	struct iio_registry *reg;
	struct iio_dev *a = tdummy_create(&reg, "a"), *b = NULL;
	struct tdummy_props props = { .name = "b" };
	char err[64], buf[32];

	CU_ASSERT_EQUAL_FATAL(tdummy_probe(&props, "iio_dummy", &b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(iio_device_register(reg, b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(iio_attr_write(a, iio_device_attr_find(a, "out_voltage0_raw"), "9", 1), 0);
	CU_ASSERT(tdummy_read(b, "out_voltage0_raw", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "0\n");
	CU_ASSERT(tdummy_read(a, "out_voltage0_raw", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "9\n");
	CU_ASSERT_EQUAL(iio_device_id(b), 1);
	iio_registry_destroy(reg);
}
TEST_CASE(test_two_dummies_independent, "two dummies keep their own state");

TEST_MAIN("iio_dummy", NULL, NULL)
