/*
 * test_shim_ina2xx.c - the ina2xx-adc driver through the real i2c-dev backend
 * (libi2c SMBus ioctls) on the test shim's fake /dev/i2c-0, against the same
 * chip model the emulated suite uses.
 *
 * What must hold: every attribute reads the same text through i2c-dev as
 * through the emulated backend (INA219 and INA226 families); the traffic is
 * SMBus word transactions, as the kernel's regmap uses on an SMBus adapter;
 * faults come back as the same -errno and the next read is right; the
 * capture thread reads through i2c-dev too; removal clears the mode bits (power
 * down); a probe with no chip names where; no fd stays open.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "iio_buffer.h"
#include "testutil.h"
#include "shim/shimsensor.h"

#define SHIM_NODE	SHIM_DIR "/i2c-0"
#define INA_ADDR	0x40
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

/* 1 A through the default 10 mOhm at 12 V; the model at @chip_addr. */
static int shim_ina_setup(struct sensortest *st, const char *part, uint16_t chip_addr)
{
	struct emu_input in[] = {
		SENSORTEST_CONST("current", 1000), SENSORTEST_CONST("vbus", 12000),
	};
	const struct shimsensor i2cdev = { BUS_I2C, SHIM_NODE, 0, chip_addr };

	return shimsensor_setup(st, &i2cdev, part, in, 2, INA_ADDR);
}

static void test_same_as_emulated(void)
{
	static const char *const parts[] = { "ina219", "ina226" };
	struct emu_input in[] = {
		SENSORTEST_CONST("current", 1000), SENSORTEST_CONST("vbus", 12000),
	};
	const struct timespec ms20 = { 0, 20000000L };
	const struct shimsensor at = { BUS_I2C, SHIM_NODE, 0, INA_ADDR };
	struct sensortest emu, dev;
	long v = 0;
	size_t r;

	for (r = 0; r < NROWS(parts); r++) {
		if (!shimsensor_pair_setup(&emu, &dev, &at, parts[r], in, 2, INA_ADDR))
			continue;
		TEST_ROW_ASSERT(iio_device_attr_count(emu.dev) == iio_device_attr_count(dev.dev),
				parts[r]);
		/* a conversion at the probe's settings on both (INA226: 8.8 ms) */
		emu_bus_set_time(emu.bus, 0.1);
		nanosleep(&ms20, NULL);
		TEST_ROW_ASSERT(shimsensor_compare(emu.dev, dev.dev) == (r ? 17 : 20), parts[r]);
		/* 10 mV across 10 mOhm: 1000 of the INA219's 10 uV, 4000 of the INA226's 2.5 uV */
		TEST_ROW_ASSERT(sensortest_read_int(dev.dev, "in_voltage0_raw", &v) == 0 &&
				v == (r ? 4000 : 1000), parts[r]);
		shimsensor_smbus_only(parts[r]);
		shimsensor_pair_teardown(&emu, &dev, parts[r]);
	}
}
TEST_CASE(test_same_as_emulated, "same text through i2c-dev as emulated; SMBus words only");

static void test_faults(void)
{
	static const struct sensorsuite_fault_row rows[] = {
		{ "NACK", { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO },
		{ "EIO", { EMU_FAULT_EIO, 0, 0, 0 }, -EIO },
		{ "hang", { EMU_FAULT_HANG, 0, 0, 20 }, -ETIMEDOUT },
	};
	const struct timespec ms5 = { 0, 5000000L };
	struct sensortest st;
	long v = -1;
	size_t r;

	if (shim_ina_setup(&st, "ina219", INA_ADDR)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	/* the current register needs a conversion after the probe's CALIBRATION */
	nanosleep(&ms5, NULL);
	for (r = 0; r < NROWS(rows); r++) {
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, INA_ADDR, &rows[r].fault) == 0,
				rows[r].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_current3_raw", &v) == rows[r].err,
				rows[r].name);
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, INA_ADDR, &sensorsuite_no_fault) == 0,
				rows[r].name);
		/* 10 mV x 4096 / 4096: 1000 LSB of 1 mA */
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_current3_raw", &v) == 0 &&
				v == 1000, rows[r].name);
	}
	shimsensor_teardown(&st);
}
TEST_CASE(test_faults, "faults through i2c-dev: error, then recovery");

/* Counts the scans in the int at buf->priv; a wrong shunt value counts 1000. */
static void shim_store(struct iio_buffer *buf, const uint8_t *rec, uint64_t lost)
{
	int *scans = buf->priv;
	uint16_t v;

	(void)lost;
	memcpy(&v, rec, sizeof(v));
	*scans += v == 1000 ? 1 : 1000;
}

static const struct iio_buffer_ops shim_ops = { .store = shim_store };

/* The capture thread's reads go through i2c-dev: 100 ms make dozens of scans. */
static void test_capture(void)
{
	int shim_scans = 0;
	struct iio_buffer buf = { .ops = &shim_ops, .mask = 0x1, .priv = &shim_scans };
	const struct timespec ms10 = { 0, 10000000L };
	struct sensortest st;
	unsigned long before;
	char err[160];
	int i;

	if (shim_ina_setup(&st, "ina219", INA_ADDR)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	before = shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(st.dev, &buf, err, sizeof(err)), 0);
	for (i = 0; i < 10; i++) {
		nanosleep(&ms10, NULL);
		iio_device_buffers_drain(st.dev);
	}
	iio_buffer_detach(st.dev, &buf);
	iio_device_buffers_drain(st.dev);
	/* without POWER in the scan CNVR stays set: one scan per thread period, ~94 */
	CU_ASSERT(shim_scans >= 5 && shim_scans < 1000);
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) - before >= 2 * (unsigned long)shim_scans);
	shimsensor_teardown(&st);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_capture, "the capture thread through i2c-dev");

/*
 * Removal clears the kernel's INA2XX_MODE_MASK, bits 3:0: MODE (power-down)
 * and SADC's low bit with it, 0x399f becoming 0x3990, as the kernel's remove does.
 */
static void test_remove_powers_down(void)
{
	struct sensortest st;

	if (shim_ina_setup(&st, "ina219", INA_ADDR)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	shimsensor_remove_check(&st, bus_smbus_read_word_swapped, 0x00, 0x399f, 0x3990);
}
TEST_CASE(test_remove_powers_down, "removal powers the chip down");

static void test_probe_no_chip(void)
{
	struct sensortest st;

	shimsensor_refused(&st, shim_ina_setup(&st, "ina226", INA_ADDR + 1), -ENXIO,
			   "ina226 at 0-0040: error configuring the device");
}
TEST_CASE(test_probe_no_chip, "probe with no chip: error configuring the device");

TEST_MAIN("shim_ina2xx", NULL, NULL)
