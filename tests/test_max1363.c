/*
 * test_max1363.c - the max1363 driver (drivers/adc/max1363.c) against its
 * chip model on the emulated bus: every part's name, inputs and scale, the
 * attribute sets of a 2-, 4-, 8- and 12-input part with their datasheet
 * names, raw values single-ended and in both differential directions,
 * saturation, the external reference, mode switches only when needed, the
 * stargate2 consumer map, each bus fault, and probe failures.
 * Tests are tables of named rows; the row name is what CUnit reports.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#define MAX1363_CASES_BACKEND	(&chiptest_emulated)
#include "max1363_cases.h"

#define MAX1363_TEST_ADDR	0x35

/* ---- every part ---- */

struct part_row {
	const char *name;
	int ninputs;
	const char *scale;	/* internal reference over 2^bits */
	int raw_ain0;		/* AIN0 at 1000 mV */
	int raw_last;		/* the last input at 1500 mV */
};

static const struct part_row part_rows[] = {
	{ "max1361", 4, "2.000000000", 500, 750 },
	{ "max1362", 4, "4.000000000", 250, 375 },
	{ "max1363", 4, "0.500000000", 2000, 3000 },
	{ "max1364", 4, "1.000000000", 1000, 1500 },
	{ "max1036", 4, "16.000000000", 62, 93 },
	{ "max1037", 4, "8.000000000", 125, 187 },
	{ "max1038", 12, "16.000000000", 62, 93 },
	{ "max1039", 12, "8.000000000", 125, 187 },
	{ "max1136", 4, "4.000000000", 250, 375 },
	{ "max1137", 4, "2.000000000", 500, 750 },
	{ "max1138", 12, "4.000000000", 250, 375 },
	{ "max1139", 12, "2.000000000", 500, 750 },
	{ "max1236", 4, "1.000000000", 1000, 1500 },
	{ "max1237", 4, "0.500000000", 2000, 3000 },
	{ "max1238", 12, "1.000000000", 1000, 1500 },
	{ "max1239", 12, "0.500000000", 2000, 3000 },
	{ "max11600", 4, "16.000000000", 62, 93 },
	{ "max11601", 4, "8.000000000", 125, 187 },
	{ "max11602", 8, "16.000000000", 62, 93 },
	{ "max11603", 8, "8.000000000", 125, 187 },
	{ "max11604", 12, "16.000000000", 62, 93 },
	{ "max11605", 12, "8.000000000", 125, 187 },
	{ "max11606", 4, "4.000000000", 250, 375 },
	{ "max11607", 4, "2.000000000", 500, 750 },
	{ "max11608", 8, "4.000000000", 250, 375 },
	{ "max11609", 8, "2.000000000", 500, 750 },
	{ "max11610", 12, "4.000000000", 250, 375 },
	{ "max11611", 12, "2.000000000", 500, 750 },
	{ "max11612", 4, "1.000000000", 1000, 1500 },
	{ "max11613", 4, "0.500000000", 2000, 3000 },
	{ "max11614", 8, "1.000000000", 1000, 1500 },
	{ "max11615", 8, "0.500000000", 2000, 3000 },
	{ "max11616", 12, "1.000000000", 1000, 1500 },
	{ "max11617", 12, "0.500000000", 2000, 3000 },
	{ "max11644", 2, "1.000000000", 1000, 1500 },
	{ "max11645", 2, "0.500000000", 2000, 3000 },
	{ "max11646", 2, "4.000000000", 250, 375 },
	{ "max11647", 2, "2.000000000", 500, 750 },
};

#define NROWS(a)	CHIPSUITE_NROWS(a)

static void test_every_part(void)
{
	size_t r;

	CU_ASSERT_EQUAL(NROWS(part_rows), 38);
	for (r = 0; r < NROWS(part_rows); r++) {
		const struct part_row *row = &part_rows[r];
		char last[16], name[32], buf[64];
		struct emu_input in[2];
		struct chiptest ct;
		int val = -1, ret;

		snprintf(last, sizeof(last), "AIN%d", row->ninputs - 1);
		in[0] = (struct emu_input)CHIPTEST_CONST("AIN0", 1000);
		in[1] = (struct emu_input)CHIPTEST_CONST(last, 1500);
		ret = chiptest_setup(&ct, row->name, MAX1363_TEST_ADDR, in, 2, NULL);
		TEST_ROW_ASSERT(ret == 0, row->name);
		if (ret)
			continue;
		snprintf(name, sizeof(name), "%s\n", row->name);
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "name", buf, sizeof(buf)) > 0 &&
				strcmp(buf, name) == 0, row->name);
		TEST_ROW_ASSERT(chipsuite_count_attrs(ct.dev, "in_voltage%d_raw") == row->ninputs,
				row->name);
		TEST_ROW_ASSERT(chipsuite_count_attrs(ct.dev, "in_voltage%d-voltage%d_raw") ==
				row->ninputs, row->name);
		snprintf(name, sizeof(name), "%s\n", row->scale);
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage_scale", buf, sizeof(buf)) > 0 &&
				strcmp(buf, name) == 0, row->name);
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage-voltage_scale", buf,
					      sizeof(buf)) > 0, row->name);
		TEST_ROW_ASSERT(strcmp(buf, name) == 0, row->name);
		TEST_ROW_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &val) == 0 &&
				val == row->raw_ain0, row->name);
		snprintf(name, sizeof(name), "in_voltage%d_raw", row->ninputs - 1);
		TEST_ROW_ASSERT(chiptest_read_int(ct.dev, name, &val) == 0 &&
				val == row->raw_last, row->name);
		snprintf(name, sizeof(name), "in_voltage%d_raw", row->ninputs);
		TEST_ROW_ASSERT(iio_device_attr_find(ct.dev, name) == NULL, row->name);
		chiptest_teardown(&ct);
	}
}
TEST_CASE(test_every_part, "every part: name, inputs, scale, raw");

/* ---- attribute sets and datasheet names ---- */

struct dsname_row {
	const char *attr;
	const char *datasheet_name;
};

static const struct dsname_row dsname_rows[] = {
	{ "in_voltage0_raw", "AIN0" },
	{ "in_voltage7_raw", "AIN7" },
	{ "in_voltage11_raw", "AIN11" },
	{ "in_voltage0-voltage1_raw", "AIN0-AIN1" },
	{ "in_voltage1-voltage0_raw", "AIN1-AIN0" },
	{ "in_voltage10-voltage11_raw", "AIN10-AIN11" },
	{ "in_voltage11-voltage10_raw", "AIN11-AIN10" },
};

/* The kernel's scan indices: inputs, then (even, odd) pairs, then (odd, even), then time. */
struct scanidx_row {
	const char *attr;
	int scan_index;
};

static const struct scanidx_row scanidx_rows[] = {
	{ "in_voltage11_raw", 11 },
	{ "in_voltage0-voltage1_raw", 12 },
	{ "in_voltage10-voltage11_raw", 17 },
	{ "in_voltage1-voltage0_raw", 18 },
	{ "in_voltage11-voltage10_raw", 23 },
};

static void test_datasheet_names(void)
{
	const struct iio_attr *a;
	struct chiptest ct;
	size_t r;
	int i;

	CU_ASSERT_FATAL(chiptest_setup(&ct, "max1238", MAX1363_TEST_ADDR, NULL, 0, NULL) == 0);
	for (r = 0; r < NROWS(dsname_rows); r++) {
		a = iio_device_attr_find(ct.dev, dsname_rows[r].attr);
		TEST_ROW_ASSERT(a && a->chan && a->chan->datasheet_name &&
				strcmp(a->chan->datasheet_name, dsname_rows[r].datasheet_name) == 0,
				dsname_rows[r].attr);
	}
	for (r = 0; r < NROWS(scanidx_rows); r++) {
		a = iio_device_attr_find(ct.dev, scanidx_rows[r].attr);
		TEST_ROW_ASSERT(a && a->chan && a->chan->scan_index == scanidx_rows[r].scan_index,
				scanidx_rows[r].attr);
	}
	/* the soft timestamp comes last, at scan index 24, as in the kernel */
	i = ct.dev->num_channels - 1;
	CU_ASSERT_EQUAL(ct.dev->num_channels, 25);
	CU_ASSERT_EQUAL(ct.dev->channels[i].type, IIO_TIMESTAMP);
	CU_ASSERT_EQUAL(ct.dev->channels[i].scan_index, 24);
	chiptest_teardown(&ct);
}
TEST_CASE(test_datasheet_names, "datasheet names and scan indices");

/* ---- raw values ---- */

struct raw_row {
	const char *name;
	const char *part;
	const char *attr;
	int expect;
};

/*
 * Inputs: AIN0 1000, AIN1 250.5, AIN2 2047.5, AIN3 0 (and AIN10 3000, AIN11
 * 1000 on the 12-input part). max1363: 0.5 mV a code; max1238: 1 mV;
 * max1036: 16 mV, 8 bits; max11647: 2 mV, 10 bits, 2 inputs.
 */
static const struct raw_row raw_rows[] = {
	{ "max1363 AIN0", "max1363", "in_voltage0_raw", 2000 },
	{ "max1363 AIN1 half code", "max1363", "in_voltage1_raw", 501 },
	{ "max1363 AIN2 last code", "max1363", "in_voltage2_raw", 4095 },
	{ "max1363 AIN3 zero", "max1363", "in_voltage3_raw", 0 },
	{ "max1363 AIN0-AIN1", "max1363", "in_voltage0-voltage1_raw", 1499 },
	{ "max1363 AIN1-AIN0 negative", "max1363", "in_voltage1-voltage0_raw", 0 },
	{ "max1363 AIN2-AIN3", "max1363", "in_voltage2-voltage3_raw", 4095 },
	{ "max1363 AIN3-AIN2 negative", "max1363", "in_voltage3-voltage2_raw", 0 },
	{ "max1238 AIN11", "max1238", "in_voltage11_raw", 1000 },
	{ "max1238 AIN10-AIN11", "max1238", "in_voltage10-voltage11_raw", 2000 },
	{ "max1238 AIN11-AIN10", "max1238", "in_voltage11-voltage10_raw", 0 },
	{ "max1238 AIN1-AIN0", "max1238", "in_voltage1-voltage0_raw", 0 },
	{ "max1238 AIN0-AIN1", "max1238", "in_voltage0-voltage1_raw", 749 },
	{ "max1036 AIN0 8-bit", "max1036", "in_voltage0_raw", 62 },
	{ "max1036 AIN0-AIN1 8-bit", "max1036", "in_voltage0-voltage1_raw", 46 },
	{ "max1036 AIN2-AIN3 8-bit", "max1036", "in_voltage2-voltage3_raw", 127 },
	{ "max11647 AIN0 10-bit", "max11647", "in_voltage0_raw", 500 },
	{ "max11647 AIN1 10-bit", "max11647", "in_voltage1_raw", 125 },
	{ "max11647 AIN0-AIN1", "max11647", "in_voltage0-voltage1_raw", 374 },
	{ "max11647 AIN1-AIN0", "max11647", "in_voltage1-voltage0_raw", 0 },
};

static void test_raw_values(void)
{
	static const struct emu_input in12[] = {
		CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 250.5),
		CHIPTEST_CONST("AIN2", 2047.5), CHIPTEST_CONST("AIN3", 0),
		CHIPTEST_CONST("AIN10", 3000), CHIPTEST_CONST("AIN11", 1000),
	};
	size_t r;

	for (r = 0; r < NROWS(raw_rows); r++) {
		const struct raw_row *row = &raw_rows[r];
		struct chiptest ct;
		int nin;

		/* the part's own inputs only: AIN0-3, plus AIN10-11 on 12-input parts */
		nin = strcmp(row->part, "max1238") == 0 ? 6 :
		      strcmp(row->part, "max11647") == 0 ? 2 : 4;
		if (chiptest_setup(&ct, row->part, MAX1363_TEST_ADDR, in12, nin, NULL)) {
			TEST_ROW_ASSERT(0, row->name);
			continue;
		}
		chipsuite_expect_int(ct.dev, row->attr, row->expect, row->name);
		chiptest_teardown(&ct);
	}
}
TEST_CASE(test_raw_values, "raw values, single-ended and differential");

/* AIN0 at @mv, no vref_mv */
/* ---- external reference ---- */

struct vref_row {
	const char *name;
	const char *part;
	bool has_vref;
	int vref_mv;
	double ain0_mv;
	const char *scale;
	int raw;
};

static const struct vref_row vref_rows[] = {
	{ "max1238 internal", "max1238", false, 0, 1250, "1.000000000\n", 1250 },
	{ "max1238 vref 2500", "max1238", true, 2500, 1250, "0.610351562\n", 2048 },
	{ "max1363 vref 3000", "max1363", true, 3000, 1500, "0.732421875\n", 2048 },
	{ "max1036 vref 1024", "max1036", true, 1024, 512, "4.000000000\n", 128 },
	{ "max11646 vref 5000", "max11646", true, 5000, 2500, "4.882812500\n", 512 },
};

static void test_vref(void)
{
	size_t r;

	for (r = 0; r < NROWS(vref_rows); r++) {
		const struct vref_row *row = &vref_rows[r];
		struct chiptest_props props = { row->has_vref, row->vref_mv };
		struct emu_input in = CHIPTEST_CONST("AIN0", row->ain0_mv);
		struct chiptest ct;
		char buf[64];
		int val = -1;

		if (chiptest_setup(&ct, row->part, MAX1363_TEST_ADDR, &in, 1, &props)) {
			TEST_ROW_ASSERT(0, row->name);
			continue;
		}
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage_scale", buf, sizeof(buf)) > 0 &&
				strcmp(buf, row->scale) == 0, row->name);
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage-voltage_scale", buf,
					      sizeof(buf)) > 0 && strcmp(buf, row->scale) == 0,
				row->name);
		TEST_ROW_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &val) == 0 &&
				val == row->raw, row->name);
		chiptest_teardown(&ct);
	}
}
TEST_CASE(test_vref, "external reference (vref_mv)");

/* ---- mode switches only when needed ---- */

static void test_mode_switch(void)
{
	/* probe wrote the setup byte and the power-on scan: exactly one transfer */
	chipsuite_transfers_vectors(&chiptest_emulated, "max1238", MAX1363_TEST_ADDR, NULL, 0, 1,
				    "max1363");
}
TEST_CASE(test_mode_switch, "mode switch only when needed");

/* ---- probe failures ---- */

static const struct chipsuite_probe_row probe_rows[] = {
	{ "no chip on the bus", "max1238", NULL, 0, EMU_FAULT_NONE, -ENXIO, "no answer (ENXIO)" },
	{ "chip at another address", "max1238", "max1238", 0x34, EMU_FAULT_NONE, -ENXIO,
	  "no answer (ENXIO)" },
	{ "chip that NACKs", "max1238", "max1238", 0, EMU_FAULT_NACK, -ENXIO, "no answer (ENXIO)" },
	{ "bus error", "max1238", "max1238", 0, EMU_FAULT_EIO, -EIO, "no answer (EIO)" },
	{ "hung chip", "max1238", "max1238", 0, EMU_FAULT_HANG, -ETIMEDOUT,
	  "no answer (ETIMEDOUT)" },
};

static void test_probe_failure(void)
{
	chipsuite_probe(&chiptest_emulated, MAX1363_TEST_ADDR, probe_rows, NROWS(probe_rows));
}
TEST_CASE(test_probe_failure, "probe failures name bus and address");

/* A device that was registered and is then unregistered answers -ENODEV, not stale data. */
static void test_unregistered_device(void)
{
	struct chiptest ct;
	struct iio_dev *dev;
	const struct iio_attr *a;
	char buf[64];

	CU_ASSERT_FATAL(chiptest_setup(&ct, "max1363", MAX1363_TEST_ADDR, NULL, 0, NULL) == 0);
	dev = iio_device_get(ct.dev);
	a = iio_device_attr_find(dev, "in_voltage0_raw");
	CU_ASSERT_FATAL(a != NULL);
	iio_device_unregister(ct.reg, dev);
	CU_ASSERT_EQUAL(iio_attr_read(dev, a, buf, sizeof(buf)), -ENODEV);
	iio_device_put(dev);
	chiptest_teardown(&ct);
}
TEST_CASE(test_unregistered_device, "unregistered device reads ENODEV");

static void test_timestamp_clock(void)
{
	struct chiptest ct;
	char buf[64];

	CU_ASSERT_FATAL(chiptest_setup(&ct, "max11644", MAX1363_TEST_ADDR, NULL, 0, NULL) == 0);
	CU_ASSERT(chiptest_read(ct.dev, "current_timestamp_clock", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "realtime\n");
	chiptest_teardown(&ct);
}
TEST_CASE(test_timestamp_clock, "soft timestamp brings current_timestamp_clock");

MAX1363_CASES_TESTS("");

TEST_MAIN("max1363", NULL, NULL)
