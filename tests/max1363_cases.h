/*
 * max1363_cases.h - the max1363 cases that test_max1363.c (emulated bus)
 * and test_shim_max1363.c (i2c-dev through the shim) both run, each on its
 * own struct chiptest_backend: the attribute sets, saturation, refused
 * vref_mv, bus faults and their recovery, and the consumer API on the
 * stargate2 map. Header-only, as chipsuite.h.
 *
 * Instantiated once per suite: the including file defines
 * MAX1363_CASES_BACKEND (a const struct chiptest_backend *) first, and puts
 * MAX1363_CASES_TESTS(where); at file scope after its own tests; @where
 * ("" or, e.g., " (i2c-dev)") ends each test's name.
 */
#ifndef IIOWIRE_MAX1363_CASES_H
#define IIOWIRE_MAX1363_CASES_H

#include "chipsuite.h"
#include "iio_consumer.h"

#define MAX1363_CASES_ADDR	0x35

static const char *const max1363_attrs_2[] = {
	"in_voltage0_raw", "in_voltage1_raw",
	"in_voltage0-voltage1_raw", "in_voltage1-voltage0_raw",
	"in_voltage_scale", "in_voltage-voltage_scale", "name", "current_timestamp_clock", NULL
};

static const char *const max1363_attrs_4[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage2_raw", "in_voltage3_raw",
	"in_voltage0-voltage1_raw", "in_voltage2-voltage3_raw",
	"in_voltage1-voltage0_raw", "in_voltage3-voltage2_raw",
	"in_voltage_scale", "in_voltage-voltage_scale", "name", "current_timestamp_clock", NULL
};

static const char *const max1363_attrs_8[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage2_raw", "in_voltage3_raw",
	"in_voltage4_raw", "in_voltage5_raw", "in_voltage6_raw", "in_voltage7_raw",
	"in_voltage0-voltage1_raw", "in_voltage2-voltage3_raw",
	"in_voltage4-voltage5_raw", "in_voltage6-voltage7_raw",
	"in_voltage1-voltage0_raw", "in_voltage3-voltage2_raw",
	"in_voltage5-voltage4_raw", "in_voltage7-voltage6_raw",
	"in_voltage_scale", "in_voltage-voltage_scale", "name", "current_timestamp_clock", NULL
};

static const char *const max1363_attrs_12[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage2_raw", "in_voltage3_raw",
	"in_voltage4_raw", "in_voltage5_raw", "in_voltage6_raw", "in_voltage7_raw",
	"in_voltage8_raw", "in_voltage9_raw", "in_voltage10_raw", "in_voltage11_raw",
	"in_voltage0-voltage1_raw", "in_voltage2-voltage3_raw",
	"in_voltage4-voltage5_raw", "in_voltage6-voltage7_raw",
	"in_voltage8-voltage9_raw", "in_voltage10-voltage11_raw",
	"in_voltage1-voltage0_raw", "in_voltage3-voltage2_raw",
	"in_voltage5-voltage4_raw", "in_voltage7-voltage6_raw",
	"in_voltage9-voltage8_raw", "in_voltage11-voltage10_raw",
	"in_voltage_scale", "in_voltage-voltage_scale", "name", "current_timestamp_clock", NULL
};

/* max1361-1364: monitor mode's events/ files */
static const char *const max1363_attrs_4_events[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage2_raw", "in_voltage3_raw",
	"in_voltage0-voltage1_raw", "in_voltage2-voltage3_raw",
	"in_voltage1-voltage0_raw", "in_voltage3-voltage2_raw",
	"in_voltage_scale", "in_voltage-voltage_scale", "name", "current_timestamp_clock",
	"events/in_voltage0_thresh_rising_value", "events/in_voltage0_thresh_rising_en",
	"events/in_voltage0_thresh_falling_value", "events/in_voltage0_thresh_falling_en",
	"events/in_voltage1_thresh_rising_value", "events/in_voltage1_thresh_rising_en",
	"events/in_voltage1_thresh_falling_value", "events/in_voltage1_thresh_falling_en",
	"events/in_voltage2_thresh_rising_value", "events/in_voltage2_thresh_rising_en",
	"events/in_voltage2_thresh_falling_value", "events/in_voltage2_thresh_falling_en",
	"events/in_voltage3_thresh_rising_value", "events/in_voltage3_thresh_rising_en",
	"events/in_voltage3_thresh_falling_value", "events/in_voltage3_thresh_falling_en",
	"events/in_voltage0-voltage1_thresh_rising_value", "events/in_voltage0-voltage1_thresh_rising_en",
	"events/in_voltage0-voltage1_thresh_falling_value", "events/in_voltage0-voltage1_thresh_falling_en",
	"events/in_voltage2-voltage3_thresh_rising_value", "events/in_voltage2-voltage3_thresh_rising_en",
	"events/in_voltage2-voltage3_thresh_falling_value", "events/in_voltage2-voltage3_thresh_falling_en",
	"events/in_voltage1-voltage0_thresh_rising_value", "events/in_voltage1-voltage0_thresh_rising_en",
	"events/in_voltage1-voltage0_thresh_falling_value", "events/in_voltage1-voltage0_thresh_falling_en",
	"events/in_voltage3-voltage2_thresh_rising_value", "events/in_voltage3-voltage2_thresh_rising_en",
	"events/in_voltage3-voltage2_thresh_falling_value", "events/in_voltage3-voltage2_thresh_falling_en",
	"events/sampling_frequency", "events/sampling_frequency_available", NULL
};

static const struct chipsuite_attrset_row max1363_attrset_rows[] = {
	{ "max11644", max1363_attrs_2, false },
	{ "max1236", max1363_attrs_4, false },
	{ "max1363", max1363_attrs_4_events, false },
	{ "max11614", max1363_attrs_8, false },
	{ "max1238", max1363_attrs_12, false },
};

/** max1363_attribute_sets() - the 2-, 4-, 8- and 12-input parts have exactly their sets on @be. */
static inline void max1363_attribute_sets(const struct chiptest_backend *be)
{
	chipsuite_attribute_sets(be, MAX1363_CASES_ADDR, max1363_attrset_rows,
				 CHIPSUITE_NROWS(max1363_attrset_rows));
}

#define MAX1363_SAT(name, part, mv, expect)	\
	{ name, part, 0, "AIN0", mv, "in_voltage0_raw", expect }

static const struct chipsuite_value_row max1363_sat_rows[] = {
	MAX1363_SAT("12-bit at the reference", "max1363", 2048, 4095),
	MAX1363_SAT("12-bit one code below", "max1363", 2047.5, 4095),
	MAX1363_SAT("12-bit two codes below", "max1363", 2047, 4094),
	MAX1363_SAT("12-bit far above", "max1363", 5000, 4095),
	MAX1363_SAT("12-bit negative", "max1363", -100, 0),
	MAX1363_SAT("12-bit just below zero", "max1363", -0.001, 0),
	MAX1363_SAT("10-bit above", "max11646", 4200, 1023),
	MAX1363_SAT("10-bit negative", "max11646", -4200, 0),
	MAX1363_SAT("8-bit above", "max1036", 9999, 255),
	MAX1363_SAT("8-bit negative", "max1036", -1, 0),
};

/** max1363_saturation() - codes clip at full scale and at zero, at 12, 10 and 8 bits, on @be. */
static inline void max1363_saturation(const struct chiptest_backend *be)
{
	chipsuite_values(be, MAX1363_CASES_ADDR, max1363_sat_rows,
			 CHIPSUITE_NROWS(max1363_sat_rows));
}

/** max1363_vref_invalid() - vref_mv 0 and -2500 are refused on @be. */
static inline void max1363_vref_invalid(const struct chiptest_backend *be)
{
	chipsuite_vref_invalid(be, "max1238", MAX1363_CASES_ADDR, -2500);
}

/* A max1238 with AIN0 at 1500 mV: the fault hits the mode switch, or (primed) the result read. */
#define MAX1363_FAULT(name, mode, primed, expect, recover)			\
	{ name, { name, "max1238", 0, "AIN0", 1500, "in_voltage0_raw", 1500 },		\
	  mode, primed, expect, recover }

static const struct chipsuite_fault_row max1363_fault_rows[] = {
	MAX1363_FAULT("NACK on the mode switch", EMU_FAULT_NACK, false, -ENXIO, 2),
	MAX1363_FAULT("NACK on the result read", EMU_FAULT_NACK, true, -ENXIO, 1),
	MAX1363_FAULT("EIO on the mode switch", EMU_FAULT_EIO, false, -EIO, 2),
	MAX1363_FAULT("EIO on the result read", EMU_FAULT_EIO, true, -EIO, 1),
	MAX1363_FAULT("HANG on the mode switch", EMU_FAULT_HANG, false, -ETIMEDOUT, 2),
	MAX1363_FAULT("HANG on the result read", EMU_FAULT_HANG, true, -ETIMEDOUT, 1),
};

/** max1363_faults() - every fault row on @be: the -errno, then a right read. */
static inline void max1363_faults(const struct chiptest_backend *be)
{
	chipsuite_faults(be, MAX1363_CASES_ADDR, max1363_fault_rows,
			 CHIPSUITE_NROWS(max1363_fault_rows));
}

/** max1363_consumer_stargate2() - the stargate2 map's two channels read in mV on @be. */
static inline void max1363_consumer_stargate2(const struct chiptest_backend *be)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("AIN1", 1200), CHIPTEST_CONST("AIN2", 800),
	};
	static const struct iio_map maps[] = {
		{ "0-0035", "AIN1", "iio_hwmon.0", "testchan1" },
		{ "0-0035", "AIN2", "iio_hwmon.0", "testchan2" },
	};
	struct iio_channel *c1 = NULL, *c2 = NULL, *all = NULL;
	struct chiptest ct;
	int val = -1, val2 = -1, n;

	CU_ASSERT_FATAL(chiptest_open(&ct, be, "max1238", MAX1363_CASES_ADDR, in, 2, NULL) == 0);
	CU_ASSERT_STRING_EQUAL(ct.dev->hwid, "0-0035");
	CU_ASSERT_EQUAL(iio_device_may_block(ct.dev), be->may_block);
	CU_ASSERT_EQUAL_FATAL(iio_map_array_register(ct.reg, ct.dev, maps, 2), 0);

	CU_ASSERT_EQUAL_FATAL(iio_channel_get(ct.reg, "iio_hwmon.0", "testchan1", &c1), 0);
	CU_ASSERT_EQUAL_FATAL(iio_channel_get(ct.reg, "iio_hwmon.0", "testchan2", &c2), 0);
	CU_ASSERT_STRING_EQUAL(c1->channel->datasheet_name, "AIN1");
	CU_ASSERT_EQUAL(iio_read_channel_raw(c1, &val), IIO_VAL_INT);
	CU_ASSERT_EQUAL(val, 1200);
	CU_ASSERT_EQUAL(iio_read_channel_scale(c1, &val, &val2), IIO_VAL_FRACTIONAL_LOG2);
	CU_ASSERT_EQUAL(val, 4096);
	CU_ASSERT_EQUAL(val2, 12);
	CU_ASSERT(iio_read_channel_processed(c1, &val) >= 0);
	CU_ASSERT_EQUAL(val, 1200);
	CU_ASSERT(iio_read_channel_processed(c2, &val) >= 0);
	CU_ASSERT_EQUAL(val, 800);
	CU_ASSERT(iio_read_channel_processed_scale(c2, &val, 1000) >= 0);
	CU_ASSERT_EQUAL(val, 800000);

	CU_ASSERT_EQUAL_FATAL(iio_channel_get_all(ct.reg, "iio_hwmon.0", &all), 0);
	for (n = 0; all[n].indio_dev; n++)
		;
	CU_ASSERT_EQUAL(n, 2);
	iio_channel_release_all(all);
	iio_channel_release(c1);
	iio_channel_release(c2);
	chiptest_teardown(&ct);
	if (be->open_fds)
		CU_ASSERT_EQUAL(be->open_fds(), 0);
}

#ifdef MAX1363_CASES_BACKEND
static void max1363_case_attribute_sets(void)
{
	max1363_attribute_sets(MAX1363_CASES_BACKEND);
}

static void max1363_case_saturation(void)
{
	max1363_saturation(MAX1363_CASES_BACKEND);
}

static void max1363_case_vref_invalid(void)
{
	max1363_vref_invalid(MAX1363_CASES_BACKEND);
}

static void max1363_case_consumer(void)
{
	max1363_consumer_stargate2(MAX1363_CASES_BACKEND);
}

static void max1363_case_faults(void)
{
	max1363_faults(MAX1363_CASES_BACKEND);
}

/* AIN0..3 = 2000, 0x123, 4095, 0 counts of 0.5 mV, each with the chip's 1s in the top nibble */
static const struct chipsuite_capture_row max1363_capture_rows[] = {
	{ "max1363, all four inputs (s0to3)", "max1363", 0,
	  { CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 291 / 2.0),
	    CHIPTEST_CONST("AIN2", 2047.5), CHIPTEST_CONST("AIN3", 0) }, 4, 0xf, 16,
	  { 0xF7, 0xD0, 0xF1, 0x23, 0xFF, 0xFF, 0xF0, 0x00 } },
	{ "max1363, voltage1 and voltage3 (demuxed from s0to3)", "max1363", 0,
	  { CHIPTEST_CONST("AIN1", 291 / 2.0), CHIPTEST_CONST("AIN3", 1000) }, 2, 0xa, 16,
	  { 0xF1, 0x23, 0xF7, 0xD0 } },
	{ "max1238, voltage11 alone (s11)", "max1238", 0,
	  { CHIPTEST_CONST("AIN11", 1024) }, 1, 1ULL << 11, 16, { 0xF4, 0x00 } },
};

static void max1363_case_capture(void)
{
	chipsuite_capture(MAX1363_CASES_BACKEND, MAX1363_CASES_ADDR, max1363_capture_rows,
			  CHIPSUITE_NROWS(max1363_capture_rows));
}

#define MAX1363_CASES_TESTS(where)							\
	TEST_CASE(max1363_case_attribute_sets,						\
		  "attribute sets of 2/4/8/12-input parts" where);			\
	TEST_CASE(max1363_case_saturation, "saturation and negative inputs" where);	\
	TEST_CASE(max1363_case_vref_invalid, "invalid vref_mv refused" where);	\
	TEST_CASE(max1363_case_consumer, "consumer API on the stargate2 map" where);	\
	TEST_CASE(max1363_case_faults, "bus faults: error, then recovery" where);	\
	TEST_CASE(max1363_case_capture,							\
		  "capture: scans read, the kernel's bytes, the emulated run's" where)
#endif /* MAX1363_CASES_BACKEND */

#endif /* IIOWIRE_MAX1363_CASES_H */
