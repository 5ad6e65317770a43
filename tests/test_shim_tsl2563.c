/*
 * test_shim_tsl2563.c - the tsl2563 driver through the real i2c-dev backend
 * (libi2c SMBus ioctls) on the test shim's fake /dev/i2c-0, against the same
 * chip model the emulated suite uses.
 *
 * What must hold: every attribute reads the same text through i2c-dev as
 * through the emulated backend, at each gain level; the traffic is SMBus
 * (I2C_SMBUS ioctls) as the kernel driver's is; faults come back as the same
 * -errno and the next read is right; removal powers the chip down; a probe
 * with no chip names bus and address; no fd stays open. The shim's clock is
 * real time here, as bus_msleep() really sleeps on a real bus, so each
 * device costs up to a second and a half of integration waits.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "shim/shimsensor.h"

#define SHIM_NODE	SHIM_DIR "/i2c-0"
#define TSL_ADDR	0x39
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The device through i2c-dev. @chip_addr: where the model sits (another
 * address than TSL_ADDR leaves the driver's address empty).
 */
static int shim_tsl_setup(struct sensortest *st, double broadband, double ir,
			  uint16_t chip_addr)
{
	struct emu_input in[] = {
		SENSORTEST_CONST("broadband", broadband), SENSORTEST_CONST("ir", ir),
	};
	const struct shimsensor i2cdev = { BUS_I2C, SHIM_NODE, 0, chip_addr };

	return shimsensor_setup(st, &i2cdev, "tsl2563", in, 2, TSL_ADDR);
}

/* Every attribute, read through both backends, at each gain level. */
static void test_same_as_emulated(void)
{
	static const struct {
		const char *name;
		double broadband, ir;
	} rows[] = {
		{ "level 1, 25 lux", 1000, 200 },
		{ "level 2", 100000, 30000 },
		{ "level 3", 1500000, 500000 },
		{ "level 3 clipped", 3000000, 1000000 },
	};
	const struct shimsensor at = { BUS_I2C, SHIM_NODE, 0, TSL_ADDR };
	struct sensortest emu, dev;
	size_t r;
	int n;

	for (r = 0; r < NROWS(rows); r++) {
		struct emu_input in[] = {
			SENSORTEST_CONST("broadband", rows[r].broadband),
			SENSORTEST_CONST("ir", rows[r].ir),
		};

		if (!shimsensor_pair_setup(&emu, &dev, &at, "tsl2563", in, 2, TSL_ADDR))
			continue;
		n = iio_device_attr_count(emu.dev);
		/* six attributes and the broadband channel's four events/ files; no clock */
		TEST_ROW_ASSERT(n == 10 && iio_device_attr_count(dev.dev) == n, rows[r].name);
		shimsensor_compare(emu.dev, dev.dev);
		/* SMBus byte and word transactions, as the kernel driver uses */
		shimsensor_smbus_only(rows[r].name);
		shimsensor_pair_teardown(&emu, &dev, rows[r].name);
	}
}
TEST_CASE(test_same_as_emulated, "same text through i2c-dev as emulated");

/* Faults on a bound device through i2c-dev: the -errno, then a right value. */
static void test_faults(void)
{
	static const struct sensorsuite_fault_row rows[] = {
		{ "NACK", { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO },
		{ "EIO", { EMU_FAULT_EIO, 0, 0, 0 }, -EIO },
		{ "hang", { EMU_FAULT_HANG, 0, 0, 20 }, -ETIMEDOUT },
		{ "EIO on the second word", { EMU_FAULT_EIO, 2, 0, 0 }, -EIO },
	};
	struct sensortest st;
	long v = -1;
	size_t r;

	if (shim_tsl_setup(&st, 1000, 200, TSL_ADDR)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	/* the first read waits for an integration; after it, reads are immediate */
	CU_ASSERT(sensortest_read_int(st.dev, "in_illuminance0_input", &v) == 0 && v == 25);
	for (r = 0; r < NROWS(rows); r++) {
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, TSL_ADDR, &rows[r].fault) == 0,
				rows[r].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &v) ==
				rows[r].err, rows[r].name);
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, TSL_ADDR, &sensorsuite_no_fault) == 0,
				rows[r].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &v) == 0 &&
				v == 1000, rows[r].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_illuminance0_input", &v) == 0 &&
				v == 25, rows[r].name);
	}
	shimsensor_teardown(&st);
}
TEST_CASE(test_faults, "faults through i2c-dev: error, then recovery");

/* Removal writes power-off; the chip's CONTROL then reads 0. */
static void test_remove_powers_down(void)
{
	struct sensortest st;

	if (shim_tsl_setup(&st, 1000, 200, TSL_ADDR)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	shimsensor_remove_check(&st, bus_smbus_read_byte_data, 0x80, 0x03, 0x00);
}
TEST_CASE(test_remove_powers_down, "removal powers the chip down");

/* No chip at the address: the probe fails with the NACK, naming bus and address. */
static void test_probe_no_chip(void)
{
	struct sensortest st;

	shimsensor_refused(&st, shim_tsl_setup(&st, 0, 0, TSL_ADDR + 1), -ENXIO,
			   "tsl2563 at i2c-0 0x39: no answer to power-on");
}
TEST_CASE(test_probe_no_chip, "probe with no chip names bus and address");

TEST_MAIN("shim_tsl2563", NULL, NULL)
