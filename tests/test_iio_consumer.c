/*
 * test_iio_consumer.c - drivers/iio_consumer.c: lookups through maps, the
 * accessors and their arithmetic, and a provider that goes away.
 *
 * A small in-test provider has datasheet-named channels of each scale
 * type; the kernel's worked examples (reference §3.2) run through it and
 * through the iio_dummy (voltage0: processed 0 at scale 1, 106 at scale
 * 1000). The wildcard and error rules of iio_channel_get()/_get_all() are
 * rows of one table. Holding a channel across iio_device_unregister() must
 * give -ENODEV from every accessor and no dangling pointer: run this suite
 * under ASan to see the second half.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iio.h"
#include "iio_consumer.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "testutil.h"

struct tcons_state {
	int raw[8];
	int out;
	int removed;
	/* for the in-flight test: read_raw waits here until released */
	pthread_mutex_t *gate_lock;
	pthread_cond_t *gate_cond;
	bool *gate_open;
	bool *in_read;
};

enum tcons_chan {
	TCONS_AIN0, TCONS_AIN1, TCONS_AIN2, TCONS_NEG, TCONS_PROC, TCONS_OUT0, TCONS_OFFS,
	TCONS_NSCALE,
};

static const struct iio_chan_spec tcons_chans[] = {
	[TCONS_AIN0] = { .type = IIO_VOLTAGE, .indexed = 1, .channel = 0, .datasheet_name = "AIN0",
			 .info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
			 .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE) },
	[TCONS_AIN1] = { .type = IIO_VOLTAGE, .indexed = 1, .channel = 1, .datasheet_name = "AIN1",
			 .info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
			 .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE) },
	[TCONS_AIN2] = { .type = IIO_VOLTAGE, .indexed = 1, .channel = 2, .datasheet_name = "AIN2",
			 .extend_name = "supply",
			 .info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
			 .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE) },
	/* -1.5 stored as (-1, 500000): the 6.18 negative-scale fix */
	[TCONS_NEG] = { .type = IIO_TEMP, .indexed = 1, .channel = 0, .datasheet_name = "NEG",
			.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) },
	[TCONS_PROC] = { .type = IIO_HUMIDITYRELATIVE, .indexed = 1, .channel = 0,
			 .datasheet_name = "PROC",
			 .info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED) },
	[TCONS_OUT0] = { .type = IIO_VOLTAGE, .output = 1, .indexed = 1, .channel = 0,
			 .datasheet_name = "OUT0", .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	/* offset FRACTIONAL 7/2 (3 after truncation), no scale */
	[TCONS_OFFS] = { .type = IIO_CURRENT, .indexed = 1, .channel = 0, .datasheet_name = "OFFS",
			 .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_OFFSET) },
	/* scale INT_PLUS_NANO (0, 500000000) */
	[TCONS_NSCALE] = { .type = IIO_PRESSURE, .indexed = 1, .channel = 0,
			   .datasheet_name = "NSCALE",
			   .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) },
};

static int tcons_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			  int *val, int *val2, long mask)
{
	struct tcons_state *st = iio_priv(indio_dev);
	int idx = (int)(chan - tcons_chans);

	if (st->gate_lock && mask == IIO_CHAN_INFO_RAW) {
		pthread_mutex_lock(st->gate_lock);
		*st->in_read = true;
		pthread_cond_broadcast(st->gate_cond);
		while (!*st->gate_open)
			pthread_cond_wait(st->gate_cond, st->gate_lock);
		pthread_mutex_unlock(st->gate_lock);
	}
	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		*val = idx == TCONS_OUT0 ? st->out : st->raw[idx];
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_PROCESSED:
		*val = 12;
		*val2 = 500000;
		return IIO_VAL_INT_PLUS_MICRO;
	case IIO_CHAN_INFO_OFFSET:
		*val = 7;
		*val2 = 2;
		return IIO_VAL_FRACTIONAL;
	case IIO_CHAN_INFO_SCALE:
		if (idx == TCONS_NEG) {
			*val = -1;
			*val2 = 500000;
			return IIO_VAL_INT_PLUS_MICRO;
		}
		if (idx == TCONS_NSCALE) {
			*val = 0;
			*val2 = 500000000;
			return IIO_VAL_INT_PLUS_NANO;
		}
		/* the max1363's: 2048 mV over 12 bits */
		*val = 2048;
		*val2 = 12;
		return IIO_VAL_FRACTIONAL_LOG2;
	default:
		return -EINVAL;
	}
}

static int tcons_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   int val, int val2, long mask)
{
	struct tcons_state *st = iio_priv(indio_dev);

	(void)val2;
	if (mask != IIO_CHAN_INFO_RAW || !chan->output)
		return -EINVAL;
	st->out = val;
	return 0;
}

static const struct iio_info tcons_info = {
	.read_raw = tcons_read_raw,
	.write_raw = tcons_write_raw,
};

static struct iio_dev *tcons_provider(struct iio_registry *reg, const char *hwid)
{
	struct iio_dev *d = iio_device_alloc(sizeof(struct tcons_state));
	struct tcons_state *st;
	char err[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	st = iio_priv(d);
	st->raw[TCONS_AIN0] = 2000;
	st->raw[TCONS_AIN1] = 1000;
	st->raw[TCONS_AIN2] = 4095;
	st->raw[TCONS_NEG] = 2;
	st->raw[TCONS_OFFS] = 10;
	st->raw[TCONS_NSCALE] = 7;
	d->name = "tcons";
	snprintf(d->hwid, sizeof(d->hwid), "%s", hwid);
	d->channels = tcons_chans;
	d->num_channels = sizeof(tcons_chans) / sizeof(tcons_chans[0]);
	d->info = &tcons_info;
	CU_ASSERT_EQUAL_FATAL(iio_device_register(reg, d, err, sizeof(err)), 0);
	return d;
}

/* The fixture's maps, in registration order. */
static const struct iio_map tcons_maps[] = {
	{ "0-0035", "AIN1", "iio_hwmon.0", "testchan1" },
	{ "0-0035", "AIN2", "iio_hwmon.0", "testchan2" },
	{ "0-0035", "AIN0", "other", "testchan1" },
	{ "0-0035", "NOPE", "bad", "x" },
	{ "0-0035", NULL, "nolabel", "y" },
	{ "0-0035", "OUT0", "dac", "out" },
	{ "0-0035", "NEG", "calc", "neg" },
	{ "0-0035", "PROC", "calc", "proc" },
	{ "0-0035", "AIN0", "calc", "ain0" },
	{ "0-0035", "OFFS", "calc", "offs" },
	{ "0-0035", "NSCALE", "calc", "nscale" },
};

static struct iio_registry *tcons_fixture(struct iio_dev **prov)
{
	struct iio_registry *reg = iio_registry_create();

	CU_ASSERT_PTR_NOT_NULL_FATAL(reg);
	*prov = tcons_provider(reg, "0-0035");
	CU_ASSERT_EQUAL_FATAL(iio_map_array_register(reg, *prov, tcons_maps,
						     sizeof(tcons_maps) / sizeof(tcons_maps[0])), 0);
	return reg;
}

struct tcons_get_row {
	const char *name;
	const char *consumer;
	const char *channel;
	int ret;
	const char *label;		/* the provider channel it resolves to */
	const char *cons_channel;	/* the map's consumer channel kept in the handle */
};

static void test_get_rules(void)
{
	static const struct tcons_get_row rows[] = {
		{ "exact", "iio_hwmon.0", "testchan2", 0, "AIN2", "testchan2" },
		{ "channel wildcard: first map", "iio_hwmon.0", NULL, 0, "AIN1", "testchan1" },
		{ "consumer wildcard: first map", NULL, "testchan1", 0, "AIN1", "testchan1" },
		{ "consumer wildcard, later map", NULL, "testchan2", 0, "AIN2", "testchan2" },
		{ "other consumer, same channel name", "other", "testchan1", 0, "AIN0",
		  "testchan1" },
		{ "both NULL", NULL, NULL, -ENODEV, NULL, NULL },
		{ "no such channel", "iio_hwmon.0", "testchan9", -ENODEV, NULL, NULL },
		{ "no such consumer", "nobody", NULL, -ENODEV, NULL, NULL },
		{ "label names no channel", "bad", "x", -EINVAL, NULL, NULL },
		{ "map without a label", "nolabel", "y", -EINVAL, NULL, NULL },
	};
	struct iio_dev *prov;
	struct iio_registry *reg = tcons_fixture(&prov);
	struct iio_channel *ch;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ch = NULL;
		ret = iio_channel_get(reg, rows[i].consumer, rows[i].channel, &ch);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		if (ret) {
			TEST_ROW_ASSERT(ch == NULL, rows[i].name);
			continue;
		}
		TEST_ROW_ASSERT(ch && ch->indio_dev == prov, rows[i].name);
		TEST_ROW_ASSERT(ch && strcmp(ch->channel->datasheet_name, rows[i].label) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(ch && strcmp(ch->provider_label, rows[i].label) == 0, rows[i].name);
		TEST_ROW_ASSERT(ch && strcmp(ch->consumer_channel, rows[i].cons_channel) == 0,
				rows[i].name);
		iio_channel_release(ch);
	}
	iio_channel_release(NULL);
	iio_registry_destroy(reg);
}
TEST_CASE(test_get_rules, "iio_channel_get: wildcards, order, errors");

static void test_get_all_rules(void)
{
	struct iio_dev *prov;
	struct iio_registry *reg = tcons_fixture(&prov);
	struct iio_channel *all = NULL;

	CU_ASSERT_EQUAL_FATAL(iio_channel_get_all(reg, "iio_hwmon.0", &all), 0);
	/* map order, then a terminator whose indio_dev is NULL */
	CU_ASSERT_PTR_EQUAL(all[0].indio_dev, prov);
	CU_ASSERT_STRING_EQUAL(all[0].provider_label, "AIN1");
	CU_ASSERT_STRING_EQUAL(all[0].consumer_channel, "testchan1");
	CU_ASSERT_PTR_EQUAL(all[0].channel, &prov->channels[TCONS_AIN1]);
	CU_ASSERT_STRING_EQUAL(all[1].provider_label, "AIN2");
	CU_ASSERT_PTR_NULL(all[2].indio_dev);
	iio_channel_release_all(all);

	CU_ASSERT_EQUAL(iio_channel_get_all(reg, "calc", &all), 0);
	CU_ASSERT_STRING_EQUAL(all[4].consumer_channel, "nscale");
	CU_ASSERT_PTR_NULL(all[5].indio_dev);
	iio_channel_release_all(all);

	CU_ASSERT_EQUAL(iio_channel_get_all(reg, NULL, &all), -EINVAL);
	CU_ASSERT_EQUAL(iio_channel_get_all(reg, "nobody", &all), -ENODEV);
	CU_ASSERT_EQUAL(iio_channel_get_all(reg, "bad", &all), -EINVAL);
	CU_ASSERT_EQUAL(iio_channel_get_all(reg, "nolabel", &all), -EINVAL);
	iio_channel_release_all(NULL);
	iio_registry_destroy(reg);
}
TEST_CASE(test_get_all_rules, "iio_channel_get_all: order, terminator, errors");

struct tcons_read_row {
	const char *name;
	const char *channel;	/* of consumer "calc" or "iio_hwmon.0" */
	unsigned int scale;
	int ret;
	int processed;
};

static void test_processed(void)
{
	static const struct tcons_read_row rows[] = {
		/* max1363: raw 2000, 2048 >> 12 -> 1000 mV */
		{ "FRACTIONAL_LOG2 max1363", "ain0", 1, 0, 1000 },
		{ "FRACTIONAL_LOG2 in uV", "ain0", 1000, 0, 1000000 },
		/* raw 2 at -1.5, times 10: -30 (the pre-6.18 code gave -10) */
		{ "negative scale", "neg", 10, 0, -30 },
		{ "negative scale, scale 1", "neg", 1, 0, -3 },
		/* processed (12, 500000): the fraction counts since 6.18 */
		{ "processed MICRO, scale 1", "proc", 1, 0, 12 },
		{ "processed MICRO, scale 1000", "proc", 1000, 0, 12500 },
		/* no scale: (raw 10 + offset trunc(7/2) = 3) * 4 */
		{ "offset without scale", "offs", 4, 0, 52 },
		/* raw 7 * 0.5 */
		{ "NANO scale", "nscale", 1, 0, 3 },
		{ "NANO scale in milli", "nscale", 1000, 0, 3500 },
	};
	struct iio_dev *prov;
	struct iio_registry *reg = tcons_fixture(&prov);
	struct iio_channel *ch;
	size_t i;
	int val, ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(iio_channel_get(reg, "calc", rows[i].channel, &ch), 0);
		val = 0x7eadbeef;
		ret = iio_read_channel_processed_scale(ch, &val, rows[i].scale);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		TEST_ROW_ASSERT(val == rows[i].processed, rows[i].name);
		if (rows[i].scale == 1) {
			val = 0x7eadbeef;
			TEST_ROW_ASSERT(iio_read_channel_processed(ch, &val) == 0, rows[i].name);
			TEST_ROW_ASSERT(val == rows[i].processed, rows[i].name);
		}
		iio_channel_release(ch);
	}
	iio_registry_destroy(reg);
}
TEST_CASE(test_processed, "processed values: scale types, offset, negative scale");

static void test_accessors(void)
{
	struct iio_dev *prov;
	struct iio_registry *reg = tcons_fixture(&prov);
	struct iio_channel *ch, *dac, *proc;
	enum iio_chan_type type;
	int val, val2;
	char buf[64];

	CU_ASSERT_EQUAL_FATAL(iio_channel_get(reg, "calc", "ain0", &ch), 0);
	/* raw returns the driver's type code, not 0 */
	CU_ASSERT_EQUAL(iio_read_channel_raw(ch, &val), IIO_VAL_INT);
	CU_ASSERT_EQUAL(val, 2000);
	CU_ASSERT_EQUAL(iio_read_channel_scale(ch, &val, &val2), IIO_VAL_FRACTIONAL_LOG2);
	CU_ASSERT_EQUAL(val, 2048);
	CU_ASSERT_EQUAL(val2, 12);
	CU_ASSERT_EQUAL(iio_read_channel_offset(ch, &val, &val2), -EINVAL);
	CU_ASSERT_EQUAL(iio_read_channel_attribute(ch, &val, &val2, IIO_CHAN_INFO_SAMP_FREQ),
			-EINVAL);
	CU_ASSERT_EQUAL(iio_read_channel_attribute(ch, &val, &val2, IIO_CHAN_INFO_COUNT),
			-EINVAL);
	CU_ASSERT_EQUAL(iio_convert_raw_to_processed(ch, 4095, &val, 1), 0);
	CU_ASSERT_EQUAL(val, 2047);
	CU_ASSERT_EQUAL(iio_get_channel_type(ch, &type), 0);
	CU_ASSERT_EQUAL(type, IIO_VOLTAGE);
	CU_ASSERT_EQUAL(iio_read_channel_label(ch, buf, sizeof(buf)), -EINVAL);
	iio_channel_release(ch);

	/* a processed-only channel has no raw */
	CU_ASSERT_EQUAL_FATAL(iio_channel_get(reg, "calc", "proc", &proc), 0);
	CU_ASSERT_EQUAL(iio_read_channel_raw(proc, &val), -EINVAL);
	iio_channel_release(proc);

	/* the label of a channel with an extend_name is that name */
	CU_ASSERT_EQUAL_FATAL(iio_channel_get(reg, "iio_hwmon.0", "testchan2", &ch), 0);
	CU_ASSERT_EQUAL(iio_read_channel_label(ch, buf, sizeof(buf)), 7);
	CU_ASSERT_STRING_EQUAL(buf, "supply\n");
	CU_ASSERT_EQUAL(iio_read_channel_label(ch, buf, 7), -EFBIG);
	iio_channel_release(ch);

	/* outputs: write raw, read it back; the info bit is not checked */
	CU_ASSERT_EQUAL_FATAL(iio_channel_get(reg, "dac", "out", &dac), 0);
	CU_ASSERT_EQUAL(iio_write_channel_raw(dac, 321), 0);
	CU_ASSERT_EQUAL(iio_read_channel_raw(dac, &val), IIO_VAL_INT);
	CU_ASSERT_EQUAL(val, 321);
	CU_ASSERT_EQUAL(iio_write_channel_attribute(dac, 1, 0, IIO_CHAN_INFO_SCALE), -EINVAL);
	iio_channel_release(dac);
	iio_registry_destroy(reg);
}
TEST_CASE(test_accessors, "raw, scale, offset, type, label, write");

/* §3.2 with the dummy: voltage0 is raw 73, offset 7, scale (0, 1333) MICRO. */
static void test_dummy_worked_examples(void)
{
	static const struct {
		const char *name;
		int chan;		/* index into the dummy's channels */
		unsigned int scale;
		int processed;
	} rows[] = {
		{ "voltage0 at scale 1", 0, 1, 0 },
		{ "voltage0 at scale 1000", 0, 1000, 106 },
		{ "voltage0 at scale 1000000", 0, 1000000, 106640 },
		/* 33 * 1344 nV, in nV: no offset on the pair */
		{ "voltage1-voltage2 in nV", 1, 1000000000, 44352 },
		{ "steps: processed as is", 6, 1, 47 },
		{ "steps times 3", 6, 3, 141 },
		{ "activity running", 7, 1, 98 },
	};
	const struct iio_device_id *id = NULL;
	const struct iio_driver *drv = iio_driver_find("iio_dummy", &id);
	struct iio_registry *reg = iio_registry_create();
	struct iio_probe p;
	struct iio_channel ch;
	struct iio_dev *d = NULL;
	char err[64];
	size_t i;
	int val, val2;

	CU_ASSERT_PTR_NOT_NULL_FATAL(drv);
	p = (struct iio_probe){ .id = id, .name = "dummy0" };
	CU_ASSERT_EQUAL_FATAL(drv->probe(&p, &d, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(iio_device_register(reg, d, err, sizeof(err)), 0);
	/* the dummy has no datasheet names, so no map reaches it: build the handle by hand */
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ch = (struct iio_channel){ .indio_dev = d, .channel = &d->channels[rows[i].chan] };
		val = 0x7eadbeef;
		TEST_ROW_ASSERT(iio_read_channel_processed_scale(&ch, &val, rows[i].scale) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(val == rows[i].processed, rows[i].name);
	}
	ch = (struct iio_channel){ .indio_dev = d, .channel = &d->channels[0] };
	CU_ASSERT_EQUAL(iio_read_channel_raw(&ch, &val), IIO_VAL_INT);
	CU_ASSERT_EQUAL(val, 73);
	CU_ASSERT_EQUAL(iio_read_channel_offset(&ch, &val, &val2), IIO_VAL_INT);
	CU_ASSERT_EQUAL(val, 7);
	CU_ASSERT_EQUAL(iio_read_channel_scale(&ch, &val, &val2), IIO_VAL_INT_PLUS_MICRO);
	CU_ASSERT_EQUAL(val2, 1333);
	CU_ASSERT_EQUAL(iio_convert_raw_to_processed(&ch, 73, &val, 1000), 0);
	CU_ASSERT_EQUAL(val, 106);
	iio_registry_destroy(reg);
}
TEST_CASE(test_dummy_worked_examples, "reference 3.2 worked examples on iio_dummy");

/* Every accessor on a handle whose provider is gone: -ENODEV, no memory touched that was freed. */
static void tcons_assert_all_enodev(struct iio_channel *ch, const char *row)
{
	enum iio_chan_type type;
	int val, val2;
	char buf[32];

	TEST_ROW_ASSERT(iio_read_channel_raw(ch, &val) == -ENODEV, row);
	TEST_ROW_ASSERT(iio_read_channel_processed(ch, &val) == -ENODEV, row);
	TEST_ROW_ASSERT(iio_read_channel_processed_scale(ch, &val, 1000) == -ENODEV, row);
	TEST_ROW_ASSERT(iio_read_channel_scale(ch, &val, &val2) == -ENODEV, row);
	TEST_ROW_ASSERT(iio_read_channel_offset(ch, &val, &val2) == -ENODEV, row);
	TEST_ROW_ASSERT(iio_read_channel_attribute(ch, &val, &val2, IIO_CHAN_INFO_RAW) == -ENODEV,
			row);
	TEST_ROW_ASSERT(iio_convert_raw_to_processed(ch, 1, &val, 1) == -ENODEV, row);
	TEST_ROW_ASSERT(iio_get_channel_type(ch, &type) == -ENODEV, row);
	TEST_ROW_ASSERT(iio_write_channel_raw(ch, 1) == -ENODEV, row);
	TEST_ROW_ASSERT(iio_write_channel_attribute(ch, 1, 0, IIO_CHAN_INFO_RAW) == -ENODEV, row);
	TEST_ROW_ASSERT(iio_read_channel_label(ch, buf, sizeof(buf)) == -ENODEV, row);
}

static void test_provider_goes_away(void)
{
	struct iio_dev *prov;
	struct iio_registry *reg = tcons_fixture(&prov);
	struct iio_channel *ch, *all, *again;
	int val;

	CU_ASSERT_EQUAL_FATAL(iio_channel_get(reg, "iio_hwmon.0", "testchan1", &ch), 0);
	CU_ASSERT_EQUAL_FATAL(iio_channel_get_all(reg, "calc", &all), 0);
	CU_ASSERT_EQUAL(iio_read_channel_raw(ch, &val), IIO_VAL_INT);
	iio_device_unregister(reg, prov);
	tcons_assert_all_enodev(ch, "held by get");
	tcons_assert_all_enodev(&all[0], "held by get_all");
	/* the maps stay, as in the kernel, but a new lookup finds the provider gone */
	CU_ASSERT_EQUAL(iio_registry_map_count(reg), (int)(sizeof(tcons_maps) /
							    sizeof(tcons_maps[0])));
	CU_ASSERT_EQUAL(iio_channel_get(reg, "iio_hwmon.0", "testchan1", &again), -ENODEV);
	CU_ASSERT_EQUAL(iio_channel_get_all(reg, "iio_hwmon.0", &again), -ENODEV);
	/* the registry can go too: the handles still pin the device's memory */
	iio_registry_destroy(reg);
	tcons_assert_all_enodev(ch, "after the registry");
	CU_ASSERT_STRING_EQUAL(ch->indio_dev->hwid, "0-0035");
	CU_ASSERT_EQUAL(ch->channel->channel, 1);
	iio_channel_release(ch);
	tcons_assert_all_enodev(&all[1], "last holder");
	iio_channel_release_all(all);
}
TEST_CASE(test_provider_goes_away, "provider unregistered under a held channel: -ENODEV");

struct tcons_inflight {
	struct iio_channel *ch;
	int ret;
	int val;
};

static void *tcons_reader(void *arg)
{
	struct tcons_inflight *r = arg;

	r->ret = iio_read_channel_raw(r->ch, &r->val);
	return NULL;
}

static void *tcons_unregisterer(void *arg)
{
	void **a = arg;

	iio_device_unregister(a[0], a[1]);
	return NULL;
}

/* A read in flight when the provider is unregistered finishes first; the next one is -ENODEV. */
static void test_unregister_waits_for_read(void)
{
	pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
	bool gate_open = false, in_read = false;
	struct iio_dev *prov;
	struct iio_registry *reg = tcons_fixture(&prov);
	struct tcons_state *st = iio_priv(prov);
	struct tcons_inflight r = { 0 };
	pthread_t reader, unreg;
	void *args[2] = { reg, prov };
	int val;

	CU_ASSERT_EQUAL_FATAL(iio_channel_get(reg, "calc", "ain0", &r.ch), 0);
	st->gate_lock = &gate_lock;
	st->gate_cond = &gate_cond;
	st->gate_open = &gate_open;
	st->in_read = &in_read;
	CU_ASSERT_EQUAL_FATAL(pthread_create(&reader, NULL, tcons_reader, &r), 0);
	pthread_mutex_lock(&gate_lock);
	while (!in_read)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
	/* the reader is inside the driver, holding the device lock */
	CU_ASSERT_EQUAL_FATAL(pthread_create(&unreg, NULL, tcons_unregisterer, args), 0);
	usleep(20000);
	CU_ASSERT_FALSE(iio_device_is_gone(prov));
	pthread_mutex_lock(&gate_lock);
	gate_open = true;
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_lock);
	pthread_join(reader, NULL);
	pthread_join(unreg, NULL);
	CU_ASSERT_EQUAL(r.ret, IIO_VAL_INT);
	CU_ASSERT_EQUAL(r.val, 2000);
	CU_ASSERT_TRUE(iio_device_is_gone(r.ch->indio_dev));
	CU_ASSERT_EQUAL(iio_read_channel_raw(r.ch, &val), -ENODEV);
	iio_channel_release(r.ch);
	iio_registry_destroy(reg);
}
TEST_CASE(test_unregister_waits_for_read, "unregister waits for a read in flight");

TEST_MAIN("iio_consumer", NULL, NULL)
