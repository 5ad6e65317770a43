/*
 * test_ads1015.c - the ads1015 driver (drivers/adc/ti_ads1015.c) against its
 * chip model on the emulated bus: the kernel's channel table and files for
 * the ads1015, ads1115 and tla2024; raw values of single-ended and
 * differential inputs from the datasheets' LSB sizes at each PGA setting;
 * scale and sampling_frequency writes (per channel, limits at N and N+1)
 * and the conversion waits they cause; the comparator as events (thresholds
 * at N and N+1, window mode, the queue as the period, the kernel's EBUSY
 * rules and its event codes); capture through the core's path; probe
 * failures and removal. Tests are tables of named rows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iio_event.h"

#define ADS_ADDR	0x48

/* the cases the shim suite runs too, on the emulated bus */
#define ADS1015_CASES_BACKEND	(&chiptest_emulated)
#define ADS1015_CASES_ADDR	ADS_ADDR
#include "ads1015_cases.h"
#define NROWS(a)		CHIPSUITE_NROWS(a)

/* the kernel's event codes: IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, ch, IIO_EV_TYPE_THRESH, dir) */
#define ADS_EV_RISING(ch)	(0x0001000000000000ull | (ch))
#define ADS_EV_EITHER(ch)	(0x0000000000000000ull | (ch))

/* ---- every part: the kernel's files ---- */

/*
 * The _available lists: +/-0.256 .. 6.144 V over 2^(bits-1), smallest first;
 * the eight data-rate codes (the ADS1015's last two both 3300 SPS).
 */
#define ADS1015_SCALES	"0.125000000 0.250000000 0.500000000 1.000000000 2.000000000 3.000000000\n"
#define ADS1015_RATES	"128 250 490 920 1600 2400 3300 3300\n"

struct part_row {
	const char *part;
	const char *scale;		/* +/-2.048 V over 2^(bits-1) */
	const char *freq;		/* data-rate code 4 */
	const char *scale_avail;
	const char *freq_avail;
	bool events;
};

static const struct part_row part_rows[] = {
	{ "ads1015", "1.000000000\n", "1600\n", ADS1015_SCALES, ADS1015_RATES, true },
	{ "ads1115", "0.062500000\n", "128\n",
	  "0.007812500 0.015625000 0.031250000 0.062500000 0.125000000 0.187500000\n",
	  "8 16 32 64 128 250 475 860\n", true },
	{ "tla2024", "1.000000000\n", "1600\n", ADS1015_SCALES, ADS1015_RATES, false },
};

/* the channels in the kernel's table order, by ABI id */
static const char *const chan_ids[] = {
	"voltage0-voltage1", "voltage0-voltage3", "voltage1-voltage3", "voltage2-voltage3",
	"voltage0", "voltage1", "voltage2", "voltage3",
};

static void part_files(struct iio_dev *dev, const struct part_row *row)
{
	static const char *const suffixes[] = { "raw", "scale", "sampling_frequency" };
	char name[96];
	size_t c, s;

	ads1015_expect(dev, "name", "ads1015\n", row->part);	/* the kernel's one name */
	ads1015_expect(dev, "scale_available", row->scale_avail, row->part);
	ads1015_expect(dev, "sampling_frequency_available", row->freq_avail, row->part);
	for (c = 0; c < NROWS(chan_ids); c++) {
		for (s = 0; s < NROWS(suffixes); s++) {
			snprintf(name, sizeof(name), "in_%s_%s", chan_ids[c], suffixes[s]);
			TEST_ROW_ASSERT_GOT(iio_device_attr_find(dev, name) != NULL, row->part,
					    "no %s", name);
		}
		snprintf(name, sizeof(name), "in_%s_scale", chan_ids[c]);
		ads1015_expect(dev, name, row->scale, row->part);
		snprintf(name, sizeof(name), "in_%s_sampling_frequency", chan_ids[c]);
		ads1015_expect(dev, name, row->freq, row->part);
		snprintf(name, sizeof(name), "scan_elements/in_%s_index", chan_ids[c]);
		snprintf(name + 64, 32, "%zu\n", c);
		ads1015_expect(dev, name, name + 64, row->part);
	}
	/* rising value and enable, falling value, either enable and period */
	TEST_ROW_ASSERT((iio_device_attr_find(dev,
					      "events/in_voltage0-voltage3_thresh_either_period") !=
			 NULL) == row->events, row->part);
	TEST_ROW_ASSERT((iio_device_attr_find(dev, "events/in_voltage2_thresh_falling_value") !=
			 NULL) == row->events, row->part);
	TEST_ROW_ASSERT(iio_device_attr_find(dev, "events/in_voltage2_thresh_falling_en") == NULL,
			row->part);
	ads1015_expect(dev, "scan_elements/in_timestamp_index", "8\n", row->part);
}

static void test_every_part(void)
{
	struct chiptest ct;
	size_t r;

	for (r = 0; r < NROWS(part_rows); r++) {
		if (chiptest_setup(&ct, part_rows[r].part, ADS_ADDR, NULL, 0, NULL)) {
			TEST_ROW_ASSERT_GOT(0, part_rows[r].part, "%s", ct.err);
			continue;
		}
		part_files(ct.dev, &part_rows[r]);
		chiptest_teardown(&ct);
	}
	chipsuite_part_list("ads1015", 3);
}
TEST_CASE(test_every_part, "every part: the kernel's channels, names and files");

/* ---- conversion waits ---- */

static double ads_now(struct chiptest *ct)
{
	return emu_chip_now(emu_bus_chip(ct->bus, ADS_ADDR));
}

/*
 * A read that changes the configuration waits the conversion in progress
 * and one at the new rate, +10 %, in whole ms: ads1115 at 128 SPS
 * 2 x 7813 us + 1562 us = 17.188 ms -> 18 ms; then 860 SPS from 128:
 * (7813 + 1163) x 1.1 = 9873 us -> 10 ms; a read of the same settings
 * does not wait. The values come from the new settings.
 */
static void test_conversion_waits(void)
{
	static const struct emu_input in[] = { CHIPTEST_CONST("AIN0", 1000) };
	struct chiptest ct;
	double t;
	int val = 0;

	CU_ASSERT_EQUAL_FATAL(chiptest_setup(&ct, "ads1115", ADS_ADDR, in, 1, NULL), 0);
	emu_bus_set_time(ct.bus, 10.0);
	t = ads_now(&ct);
	CU_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &val) == 0 && val == 16000);
	CU_ASSERT_DOUBLE_EQUAL(ads_now(&ct) - t, 0.018, 1e-9);
	t = ads_now(&ct);
	CU_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &val) == 0 && val == 16000);
	CU_ASSERT_DOUBLE_EQUAL(ads_now(&ct) - t, 0.0, 1e-9);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, "in_voltage0_sampling_frequency", "860"), 0);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, "in_voltage0_scale", "0.125"), 0);
	t = ads_now(&ct);
	CU_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &val) == 0 && val == 8000);
	CU_ASSERT_DOUBLE_EQUAL(ads_now(&ct) - t, 0.010, 1e-9);
	chiptest_teardown(&ct);
}
TEST_CASE(test_conversion_waits,
	  "conversion waits from the data rates; values of the new settings");

/*
 * The model itself: continuous conversions at 1/DR, a configuration written
 * mid-conversion showing in the result after next; single-shot with OS.
 */
static void test_model_timing(void)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 500),
	};
	struct bus_i2c_client *c;
	struct bus *bus;
	struct emu_chip *chip;

	CU_ASSERT_EQUAL_FATAL(chiptest_emu_client_open("ads1015", ADS_ADDR, in, 2, 0, &bus, &c), 0);
	chip = emu_bus_chip(bus, ADS_ADDR);
	emu_bus_set_time(bus, 5.0);
	/* power-on: config 0x8583 (idle: OS reads 1), thresholds 0x8000 and 0x7fff */
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01), 0x8583);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x02), 0x8000);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x03), 0x7fff);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x00), 0);
	/* continuous, AIN0 vs GND, 1600 SPS: the first result 625 us on, not before */
	CU_ASSERT_EQUAL(bus_smbus_write_word_swapped(c, 0x01, 0x4483), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01), 0x4483);	/* converting */
	emu_bus_set_time(bus, 5.0 + 0.000624);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x00), 0);
	emu_bus_set_time(bus, 5.0 + 0.000626);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x00), 1000 << 4);
	/* AIN1 at 128 SPS, written mid-conversion: the 1600 SPS one ends at 1250 us */
	CU_ASSERT_EQUAL(bus_smbus_write_word_swapped(c, 0x01, 0x5403), 0);
	emu_bus_set_time(bus, 5.0 + 0.001251);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x00), 1000 << 4);
	emu_bus_set_time(bus, 5.0 + 0.00125 + 1.0 / 128 - 1e-6);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x00), 1000 << 4);
	emu_bus_set_time(bus, 5.0 + 0.00125 + 1.0 / 128 + 1e-6);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x00), 500 << 4);
	/* single-shot: the one in progress ends, then power-down; OS starts one */
	CU_ASSERT_EQUAL(bus_smbus_write_word_swapped(c, 0x01, 0x4503), 0);
	emu_bus_set_time(bus, 6.0);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01), 0xc503);
	CU_ASSERT_EQUAL(bus_smbus_write_word_swapped(c, 0x01, 0xd503), 0);	/* AIN1, OS */
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01), 0x5503);
	emu_bus_set_time(bus, 6.0 + 1.0 / 128 + 1e-6);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01), 0xd503);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x00), 500 << 4);
	(void)chip;
	bus_i2c_client_destroy(c);
	bus_put(bus);
}
TEST_CASE(test_model_timing, "model: conversion times, continuous and single-shot");

/* ---- the comparator as events ---- */

#define ADS_EVENT_WAIT_MS	1000
#define ADS_NO_EVENT_MS		150

struct event_row {
	const char *name;
	const char *part;
	const char *const *writes;	/* attribute, value pairs, NULL-ended */
	uint64_t code;			/* 0: none may come */
};

#define EV(f)	"events/in_" f
static const char *const ev_rising_past[] = {
	EV("voltage0_thresh_rising_value"), "999", EV("voltage0_thresh_rising_en"), "1", NULL };
static const char *const ev_rising_at[] = {
	EV("voltage0_thresh_rising_value"), "1000", EV("voltage0_thresh_rising_en"), "1", NULL };
static const char *const ev_window_below[] = {
	EV("voltage1-voltage3_thresh_falling_value"), "-749",
	EV("voltage1-voltage3_thresh_either_en"), "1", NULL };
static const char *const ev_window_at[] = {
	EV("voltage1-voltage3_thresh_falling_value"), "-750",
	EV("voltage1-voltage3_thresh_either_en"), "1", NULL };
static const char *const ev_ads1115[] = {
	EV("voltage3_thresh_rising_value"), "15999", EV("voltage3_thresh_either_period"), "0.1",
	EV("voltage3_thresh_rising_en"), "1", NULL };

/* AIN0 1000 mV, AIN1 250.5 mV, AIN3 1000 mV: AIN1-AIN3 is -749.5 mV, code -750 */
static const struct event_row event_rows[] = {
	{ "ads1015 AIN0 rising, 999 < 1000", "ads1015", ev_rising_past, ADS_EV_RISING(4) },
	{ "ads1015 AIN0 rising, 1000 = 1000", "ads1015", ev_rising_at, 0 },
	{ "ads1015 AIN1-AIN3 window, -750 < -749", "ads1015", ev_window_below, ADS_EV_EITHER(2) },
	{ "ads1015 AIN1-AIN3 window, -750 = -750", "ads1015", ev_window_at, 0 },
	{ "ads1115 AIN3 rising, queue of 4", "ads1115", ev_ads1115, ADS_EV_RISING(7) },
};

static void event_one(const struct event_row *row)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 250.5),
		CHIPTEST_CONST("AIN3", 1000),
	};
	struct chiptest_props props = { .irq = true };
	struct chiptest ct;
	uint64_t code;
	int i;

	if (chiptest_setup(&ct, row->part, ADS_ADDR, in, 3, &props)) {
		TEST_ROW_ASSERT_GOT(0, row->name, "%s", ct.err);
		return;
	}
	TEST_ROW_ASSERT(iio_event_open(ct.dev, chipsuite_event_wake, NULL) == 0, row->name);
	for (i = 0; row->writes[i]; i += 2)
		TEST_ROW_ASSERT_GOT(chiptest_write(ct.dev, row->writes[i], row->writes[i + 1]) == 0,
				    row->name, "%s", row->writes[i]);
	code = sensortest_next_event(ct.dev, row->code ? ADS_EVENT_WAIT_MS : ADS_NO_EVENT_MS);
	TEST_ROW_ASSERT_GOT(code == row->code, row->name, "code 0x%016llx",
			    (unsigned long long)code);
	chiptest_teardown(&ct);
}

static void test_events(void)
{
	size_t r;

	for (r = 0; r < NROWS(event_rows); r++)
		event_one(&event_rows[r]);
}
TEST_CASE(test_events, "ALERT/RDY -> the kernel's event codes, thresholds at N and N+1");

struct event_value_row {
	const char *name;
	const char *part;
	const char *attr;
	const char *val;
	int expect;
	const char *reads;
};

/* periods at 1600 SPS: 1 conversion 625 us, 2 1250 us, 4 2500 us; 128 SPS (ads1115): 7812 us */
static const struct event_value_row event_value_rows[] = {
	{ "ads1015 high default", "ads1015", EV("voltage1_thresh_rising_value"), NULL, 0,
	  "2047\n" },
	{ "ads1015 low default", "ads1015", EV("voltage1_thresh_falling_value"), NULL, 0,
	  "-2048\n" },
	{ "ads1115 high default", "ads1115", EV("voltage1_thresh_rising_value"), NULL, 0,
	  "32767\n" },
	{ "ads1115 low default", "ads1115", EV("voltage1_thresh_falling_value"), NULL, 0,
	  "-32768\n" },
	{ "ads1015 high 2047", "ads1015", EV("voltage1_thresh_rising_value"), "2047", 0, "2047\n" },
	{ "ads1015 high 2048", "ads1015", EV("voltage1_thresh_rising_value"), "2048", -EINVAL,
	  "2047\n" },
	{ "ads1015 low -2048", "ads1015", EV("voltage1_thresh_falling_value"), "-2048", 0,
	  "-2048\n" },
	{ "ads1015 low -2049", "ads1015", EV("voltage1_thresh_falling_value"), "-2049", -EINVAL,
	  "-2048\n" },
	{ "ads1115 high 32767", "ads1115", EV("voltage1_thresh_rising_value"), "32767", 0,
	  "32767\n" },
	{ "ads1115 high 32768", "ads1115", EV("voltage1_thresh_rising_value"), "32768", -EINVAL,
	  "32767\n" },
	{ "ads1015 period default", "ads1015", EV("voltage1_thresh_either_period"), NULL, 0,
	  "0.000625\n" },
	{ "ads1015 period 0.000625", "ads1015", EV("voltage1_thresh_either_period"), "0.000625", 0,
	  "0.000625\n" },
	{ "ads1015 period 0.000626", "ads1015", EV("voltage1_thresh_either_period"), "0.000626", 0,
	  "0.001250\n" },
	{ "ads1015 period 0.00125", "ads1015", EV("voltage1_thresh_either_period"), "0.00125", 0,
	  "0.001250\n" },
	{ "ads1015 period 0.001251", "ads1015", EV("voltage1_thresh_either_period"), "0.001251", 0,
	  "0.002500\n" },
	{ "ads1015 period 10", "ads1015", EV("voltage1_thresh_either_period"), "10", 0,
	  "0.002500\n" },
	{ "ads1115 period default", "ads1115", EV("voltage1_thresh_either_period"), NULL, 0,
	  "0.007812\n" },
	{ "rising_en off", "ads1015", EV("voltage1_thresh_rising_en"), NULL, 0, "0\n" },
	{ "either_en off", "ads1015", EV("voltage1_thresh_either_en"), NULL, 0, "0\n" },
};

static void test_event_values(void)
{
	struct chiptest ct;
	size_t r;

	for (r = 0; r < NROWS(event_value_rows); r++) {
		const struct event_value_row *row = &event_value_rows[r];

		if (chiptest_setup(&ct, row->part, ADS_ADDR, NULL, 0, NULL)) {
			TEST_ROW_ASSERT_GOT(0, row->name, "%s", ct.err);
			continue;
		}
		if (row->val)
			TEST_ROW_ASSERT(chiptest_write(ct.dev, row->attr, row->val) == row->expect,
					row->name);
		ads1015_expect(ct.dev, row->attr, row->reads, row->name);
		chiptest_teardown(&ct);
	}
}
TEST_CASE(test_event_values, "event values and periods: defaults, N and N+1");

static void ads_expect_int(struct iio_dev *dev, const char *attr, int want)
{
	chipsuite_expect_int(dev, attr, want, attr);
}

/*
 * One event channel at a time: others' raw reads and events are EBUSY,
 * window mode cannot replace traditional, capture is refused; disabling
 * switches the comparator off (COMP_QUE 11) and frees the rest.
 */
static void test_event_rules(void)
{
	struct chipsuite_reader r = { .buf = { .ops = &chipsuite_reader_ops, .mask = BIT(4) } };
	struct bus_i2c_client *c;
	struct iio_trigger *t;
	struct chiptest ct;
	char err[160];
	int val;

	r.buf.priv = &r;
	CU_ASSERT_EQUAL_FATAL(chiptest_setup(&ct, "ads1015", ADS_ADDR, NULL, 0, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(bus_i2c_client_create(ct.bus, ADS_ADDR, &c), 0);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage0_thresh_rising_value"), "100"), 0);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage0_thresh_rising_en"), "1"), 0);
	/* traditional: Lo_thresh one below Hi_thresh, left-aligned; COMP_QUE 00 */
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x02), 99 << 4);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x03), 100 << 4);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01) & 0x13, 0x00);
	ads_expect_int(ct.dev, EV("voltage0_thresh_rising_en"), 1);
	ads_expect_int(ct.dev, EV("voltage0_thresh_either_en"), 0);
	CU_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &val) == 0 && val == 0);
	CU_ASSERT_EQUAL(chiptest_read_int(ct.dev, "in_voltage1_raw", &val), -EBUSY);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage1_thresh_rising_en"), "1"), -EBUSY);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage0_thresh_either_en"), "1"), -EBUSY);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage0_thresh_rising_en"), "1"), 0);
	/* disabling another channel's or window mode is a no-op */
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage1_thresh_rising_en"), "0"), 0);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage0_thresh_either_en"), "0"), 0);
	ads_expect_int(ct.dev, EV("voltage0_thresh_rising_en"), 1);
	CU_ASSERT(iio_hrtimer_trigger_create(ct.reg, "hrt0", &t) == 0 &&
		  iio_device_set_trigger(ct.dev, t) == 0);
	CU_ASSERT_EQUAL(iio_buffer_attach(ct.dev, &r.buf, err, sizeof(err)), -EBUSY);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage0_thresh_rising_en"), "0"), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01) & 0x03, 0x03);
	CU_ASSERT(chiptest_read_int(ct.dev, "in_voltage1_raw", &val) == 0 && val == 0);
	/* window mode replaces nothing and is replaced by nothing */
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage2_thresh_either_en"), "1"), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x02), 0x8000);	/* -2048 << 4 */
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01) & 0x13, 0x10);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage2_thresh_rising_en"), "1"), 0);
	ads_expect_int(ct.dev, EV("voltage2_thresh_either_en"), 1);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage2_thresh_rising_en"), "0"), 0);
	ads_expect_int(ct.dev, EV("voltage2_thresh_either_en"), 0);
	/* capturing: no raw reads and no events */
	CU_ASSERT_EQUAL(iio_buffer_attach(ct.dev, &r.buf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(chiptest_read_int(ct.dev, "in_voltage0_raw", &val), -EBUSY);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV("voltage0_thresh_rising_en"), "1"), -EBUSY);
	iio_buffer_detach(ct.dev, &r.buf);
	bus_i2c_client_destroy(c);
	chiptest_teardown(&ct);
}
TEST_CASE(test_event_rules, "one event channel; EBUSY as the kernel's; comparator off on disable");

/* ---- capture ---- */

static void test_capture(void)
{
	struct chipsuite_reader r = { .buf = { .ops = &chipsuite_reader_ops,
					       .mask = BIT(0) | BIT(4) } };
	struct iio_trigger *t;
	struct chiptest ct;
	char err[160];

	/* one channel at a time, as the kernel's one-hot scan masks */
	r.buf.priv = &r;
	CU_ASSERT_EQUAL_FATAL(chiptest_setup(&ct, "ads1015", ADS_ADDR, NULL, 0, NULL), 0);
	CU_ASSERT(iio_hrtimer_trigger_create(ct.reg, "hrt0", &t) == 0 &&
		  iio_device_set_trigger(ct.dev, t) == 0);
	CU_ASSERT_EQUAL(iio_buffer_attach(ct.dev, &r.buf, err, sizeof(err)), -EINVAL);
	ads1015_expect(ct.dev, "scan_elements/in_voltage0-voltage1_type", "le:s12/16>>4\n",
		       "ads1015");
	chiptest_teardown(&ct);
}
TEST_CASE(test_capture, "capture: one channel at a time, the kernel's scan type");

/* ---- probe and removal ---- */

static const struct chipsuite_probe_row probe_rows[] = {
	{ "ads1015, no chip", "ads1015", NULL, 0, EMU_FAULT_NONE, -ENXIO, "no answer (ENXIO)" },
	{ "ads1115, bus error", "ads1115", "ads1115", 0, EMU_FAULT_EIO, -EIO, "no answer (EIO)" },
	{ "tla2024, hung chip", "tla2024", "tla2024", 0, EMU_FAULT_HANG, -ETIMEDOUT,
	  "no answer (ETIMEDOUT)" },
	{ "ads1115, present", "ads1115", "ads1115", 0, EMU_FAULT_NONE, 0, "" },
};

static void test_probe(void)
{
	static const struct chipsuite_key_row keys[] = {
		{ "AIN3", "ads1015", "AIN3", 0, "" },
		{ "AIN4", "ads1115", "AIN4", -EINVAL, "AIN0..AIN3" },
		{ "voltage0", "tla2024", "voltage0", -EINVAL, "AIN0..AIN3" },
	};

	chipsuite_probe(&chiptest_emulated, ADS_ADDR, probe_rows, NROWS(probe_rows));
	chipsuite_input_keys(keys, NROWS(keys));
}
TEST_CASE(test_probe, "probe failures; the model's input keys");

ADS1015_CASES_TESTS("");

TEST_MAIN("ads1015", NULL, NULL)
