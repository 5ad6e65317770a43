/*
 * max1363_cases.h - the max1363 cases that test_max1363.c (emulated bus)
 * and test_shim_max1363.c (i2c-dev through the shim) both run, each on its
 * own struct chiptest_backend: bus faults and their recovery, and the
 * consumer API on the stargate2 map. Header-only, as chipsuite.h.
 */
#ifndef IIOWIRE_MAX1363_CASES_H
#define IIOWIRE_MAX1363_CASES_H

#include "chipsuite.h"
#include "iio_consumer.h"

#define MAX1363_CASES_ADDR	0x35

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

#endif /* IIOWIRE_MAX1363_CASES_H */
