/*
 * test_iio_registry.c - device numbering, lookup precedence, ambiguity
 * errors and consumer-map bookkeeping of drivers/iio_registry.c.
 *
 * The devices here are tiny in-test providers (a table and a read_raw), so
 * the suite checks the registry alone: iio:deviceN reuse, the hwid > label >
 * name order, -ENOTUNIQ with its candidate list, copied map strings, map
 * removal and the reference a map keeps on a provider that went away (run
 * it under ASan to see that nothing dangles or leaks).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iio.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "testutil.h"

static int treg_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			 int *val, int *val2, long mask)
{
	(void)indio_dev;
	(void)val2;
	if (mask != IIO_CHAN_INFO_RAW)
		return -EINVAL;
	*val = chan->channel;
	return IIO_VAL_INT;
}

static const struct iio_info treg_info = {
	.read_raw = treg_read_raw,
};

static const struct iio_chan_spec treg_chans[] = {
	{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 0, .datasheet_name = "AIN0",
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 1, .datasheet_name = "AIN1",
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
};

/* the kernel's trap: two unindexed temp channels both asking for in_temp_raw */
static const struct iio_chan_spec treg_dup_chans[] = {
	{ .type = IIO_TEMP, .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	{ .type = IIO_TEMP, .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
};

static struct iio_dev *treg_dev(const char *name, const char *label, const char *hwid)
{
	struct iio_dev *d = iio_device_alloc(0);

	CU_ASSERT_FATAL(d != NULL);
	d->name = name;
	d->label = label;
	snprintf(d->hwid, sizeof(d->hwid), "%s", hwid ? hwid : "");
	d->channels = treg_chans;
	d->num_channels = 2;
	d->info = &treg_info;
	return d;
}

static void treg_register(struct iio_registry *reg, struct iio_dev *d)
{
	char err[128];

	CU_ASSERT_EQUAL_FATAL(iio_device_register(reg, d, err, sizeof(err)), 0);
}

static void test_ids_lowest_free(void)
{
	struct iio_registry *reg = iio_registry_create();
	struct iio_dev *d[4];
	int i;

	CU_ASSERT_FATAL(reg != NULL);
	for (i = 0; i < 3; i++) {
		d[i] = treg_dev("max1363", NULL, NULL);
		CU_ASSERT_EQUAL(iio_device_id(d[i]), -1);
		treg_register(reg, d[i]);
		CU_ASSERT_EQUAL(iio_device_id(d[i]), i);
	}
	/* the freed number is reused first, as the kernel's IDA does */
	iio_device_unregister(reg, d[1]);
	CU_ASSERT_EQUAL(iio_registry_count(reg), 2);
	d[3] = treg_dev("max1363", NULL, NULL);
	treg_register(reg, d[3]);
	CU_ASSERT_EQUAL(iio_device_id(d[3]), 1);
	/* walking order is registration order, not id order */
	CU_ASSERT_PTR_EQUAL(iio_registry_at(reg, 0), d[0]);
	CU_ASSERT_PTR_EQUAL(iio_registry_at(reg, 1), d[2]);
	CU_ASSERT_PTR_EQUAL(iio_registry_at(reg, 2), d[3]);
	CU_ASSERT_PTR_NULL(iio_registry_at(reg, 3));
	CU_ASSERT_PTR_NULL(iio_registry_at(reg, -1));
	iio_registry_destroy(reg);
}
TEST_CASE(test_ids_lowest_free, "iio:deviceN is the lowest free number");

static void test_register_errors(void)
{
	struct iio_registry *reg = iio_registry_create();
	struct iio_dev *d;
	char err[128];

	/* no callbacks */
	d = treg_dev("x", NULL, NULL);
	d->info = NULL;
	CU_ASSERT_EQUAL(iio_device_register(reg, d, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(iio_device_id(d), -1);
	iio_device_put(d);

	/* duplicate separate name: -EBUSY, the name in the message, nothing registered */
	d = treg_dev("dup", NULL, NULL);
	d->channels = treg_dup_chans;
	CU_ASSERT_EQUAL(iio_device_register(reg, d, err, sizeof(err)), -EBUSY);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "in_temp_raw"));
	CU_ASSERT_EQUAL(iio_registry_count(reg), 0);
	CU_ASSERT_EQUAL(iio_device_id(d), -1);
	iio_device_put(d);

	/* twice */
	d = treg_dev("x", NULL, NULL);
	treg_register(reg, d);
	CU_ASSERT_EQUAL(iio_device_register(reg, d, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(iio_registry_count(reg), 1);
	CU_ASSERT_EQUAL(iio_device_register(NULL, d, err, sizeof(err)), -EINVAL);
	iio_registry_destroy(reg);
	iio_registry_destroy(NULL);
}
TEST_CASE(test_register_errors, "registration errors change nothing");

struct treg_find_row {
	const char *name;
	const char *key;
	int ret;
	int want;		/* index into the fixture's devices, when ret == 0 */
	const char *err;	/* exact message on -ENOTUNIQ */
};

static void test_find_precedence(void)
{
	/*
	 * 0: max1363 at 0-0035 labelled "adc"
	 * 1: max1363 at 0-0036 labelled "0-0035" (a label that looks like a hwid)
	 * 2: named "adc" (a name equal to device 0's label), bus-less
	 * 3: named "dummy", labelled "twin"; 4: named "dummy", labelled "twin"
	 */
	static const struct treg_find_row rows[] = {
		{ "id 0", "iio:device0", 0, 0, NULL },
		{ "id 4", "iio:device4", 0, 4, NULL },
		{ "id absent", "iio:device5", -ENODEV, 0, NULL },
		{ "id leading zero is no id", "iio:device01", -ENODEV, 0, NULL },
		{ "id without number", "iio:device", -ENODEV, 0, NULL },
		{ "hwid beats a label", "0-0035", 0, 0, NULL },
		{ "hwid", "0-0036", 0, 1, NULL },
		{ "label beats a name", "adc", 0, 0, NULL },
		{ "ambiguous name", "max1363", -ENOTUNIQ, 0,
		  "iio:device0 (0-0035), iio:device1 (0-0036)" },
		{ "ambiguous label", "twin", -ENOTUNIQ, 0, "iio:device3 (twin), iio:device4 (twin)" },
		{ "unknown", "max9999", -ENODEV, 0, NULL },
		{ "empty", "", -ENODEV, 0, NULL },
		{ "case matters", "MAX1363", -ENODEV, 0, NULL },
	};
	struct iio_registry *reg = iio_registry_create();
	struct iio_dev *d[5], *out;
	char err[256];
	size_t i;
	int ret;

	d[0] = treg_dev("max1363", "adc", "0-0035");
	d[1] = treg_dev("max1363", "0-0035", "0-0036");
	d[2] = treg_dev("adc", NULL, NULL);
	d[3] = treg_dev("dummy", "twin", NULL);
	d[4] = treg_dev("dummy", "twin", NULL);
	for (i = 0; i < 5; i++)
		treg_register(reg, d[i]);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		out = NULL;
		strcpy(err, "untouched");
		ret = iio_registry_find(reg, rows[i].key, &out, err, sizeof(err));
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		if (rows[i].ret == 0)
			TEST_ROW_ASSERT(out == d[rows[i].want], rows[i].name);
		if (rows[i].err)
			TEST_ROW_ASSERT(strcmp(err, rows[i].err) == 0, rows[i].name);
	}
	/* a truncated candidate list stays a terminated string */
	ret = iio_registry_find(reg, "max1363", &out, err, 10);
	CU_ASSERT_EQUAL(ret, -ENOTUNIQ);
	CU_ASSERT_EQUAL(strlen(err), 9);
	/* unregistered devices are not found any more */
	iio_device_unregister(reg, d[0]);
	CU_ASSERT_EQUAL(iio_registry_find(reg, "iio:device0", &out, NULL, 0), -ENODEV);
	CU_ASSERT_EQUAL(iio_registry_find(reg, "max1363", &out, NULL, 0), 0);
	CU_ASSERT_PTR_EQUAL(out, d[1]);
	iio_registry_destroy(reg);
}
TEST_CASE(test_find_precedence, "lookup: iio:deviceN, hwid, label, name; ambiguity");

static void test_unregister_marks_gone(void)
{
	struct iio_registry *reg = iio_registry_create();
	struct iio_dev *d = treg_dev("x", NULL, NULL);
	struct iio_dev *held;
	const struct iio_attr *a;
	char buf[64];

	treg_register(reg, d);
	a = iio_device_attr_find(d, "in_voltage1_raw");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(iio_attr_read(d, a, buf, sizeof(buf)), 2);
	held = iio_device_get(d);
	iio_device_unregister(reg, d);
	CU_ASSERT_TRUE(iio_device_is_gone(held));
	CU_ASSERT_EQUAL(iio_attr_read(held, a, buf, sizeof(buf)), -ENODEV);
	CU_ASSERT_EQUAL(iio_registry_count(reg), 0);
	/* a second unregister of the same device is a no-op */
	iio_device_unregister(reg, held);
	iio_device_put(held);
	iio_registry_destroy(reg);
}
TEST_CASE(test_unregister_marks_gone, "unregister marks the device gone");

static void test_maps_copied_and_ordered(void)
{
	struct iio_registry *reg = iio_registry_create();
	struct iio_dev *a = treg_dev("max1238", NULL, "0-0035");
	struct iio_dev *b = treg_dev("max1238", NULL, "0-0036");
	char cons[] = "iio_hwmon.0", ch1[] = "testchan1", lbl[] = "AIN1";
	struct iio_map maps[] = {
		{ "0-0035", lbl, cons, ch1 },
		{ NULL, "AIN0", "other", "x" },
	};
	const struct iio_map *m;
	struct iio_dev *prov;

	treg_register(reg, a);
	treg_register(reg, b);
	CU_ASSERT_EQUAL(iio_map_array_register(reg, a, maps, 1), 0);
	CU_ASSERT_EQUAL(iio_map_array_register(reg, b, &maps[1], 1), 0);
	CU_ASSERT_EQUAL(iio_map_array_register(reg, a, NULL, 0), 0);
	/* the caller's strings may change or go: the registry has copies */
	strcpy(cons, "changed!!!!");
	strcpy(ch1, "gone!!!!!");
	strcpy(lbl, "XXXX");
	CU_ASSERT_EQUAL(iio_registry_map_count(reg), 2);
	m = iio_registry_map_at(reg, 0, &prov);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_EQUAL(prov, a);
	CU_ASSERT_STRING_EQUAL(m->adc_dev_name, "0-0035");
	CU_ASSERT_STRING_EQUAL(m->adc_channel_label, "AIN1");
	CU_ASSERT_STRING_EQUAL(m->consumer_dev_name, "iio_hwmon.0");
	CU_ASSERT_STRING_EQUAL(m->consumer_channel, "testchan1");
	/* no provider name given: the provider's hwid stands in */
	m = iio_registry_map_at(reg, 1, &prov);
	CU_ASSERT_PTR_EQUAL(prov, b);
	CU_ASSERT_STRING_EQUAL(m->adc_dev_name, "0-0036");
	CU_ASSERT_PTR_NULL(iio_registry_map_at(reg, 2, NULL));

	CU_ASSERT_EQUAL(iio_map_array_unregister(reg, a), 0);
	CU_ASSERT_EQUAL(iio_map_array_unregister(reg, a), -ENODEV);
	CU_ASSERT_EQUAL(iio_registry_map_count(reg), 1);
	m = iio_registry_map_at(reg, 0, &prov);
	CU_ASSERT_PTR_EQUAL(prov, b);
	iio_registry_destroy(reg);
}
TEST_CASE(test_maps_copied_and_ordered, "maps are copied, ordered and removable");

static void test_map_outlives_provider(void)
{
	struct iio_registry *reg = iio_registry_create();
	struct iio_dev *a = treg_dev("max1238", NULL, "0-0035");
	struct iio_map map = { "0-0035", "AIN1", "iio_hwmon.0", "testchan1" };
	struct iio_dev *prov = NULL;

	treg_register(reg, a);
	CU_ASSERT_EQUAL(iio_map_array_register(reg, a, &map, 1), 0);
	/* as in the kernel the map stays; here it pins the memory, so this is no use-after-free */
	iio_device_unregister(reg, a);
	CU_ASSERT_EQUAL(iio_registry_map_count(reg), 1);
	CU_ASSERT_PTR_NOT_NULL(iio_registry_map_at(reg, 0, &prov));
	CU_ASSERT_PTR_EQUAL(prov, a);
	CU_ASSERT_TRUE(iio_device_is_gone(prov));
	CU_ASSERT_STRING_EQUAL(prov->hwid, "0-0035");
	/* destroy drops the last reference (LeakSanitizer checks it is dropped) */
	iio_registry_destroy(reg);
}
TEST_CASE(test_map_outlives_provider, "a map keeps its provider's memory alive");

TEST_MAIN("iio_registry", NULL, NULL)
