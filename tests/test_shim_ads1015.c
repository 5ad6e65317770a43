/*
 * test_shim_ads1015.c - the ads1015 driver through the real i2c-dev backend
 * (bus_i2cdev.c) on the test shim's fake /dev/i2c-1, against the same chip
 * model the emulated suite uses.
 *
 * What must hold: every attribute of every part (raw values of single-ended
 * and differential channels, scales, rates, _available lists, events/,
 * scan_elements/) reads the same text through i2c-dev as through the
 * emulated backend; the traffic is SMBus word transfers (I2C_SMBUS ioctls,
 * the address set once), as the kernel's regmap uses on an SMBus adapter;
 * a capture gives the emulated run's records; faults come back as the same
 * -errno and the next read is right; probe names bus and address when the
 * chip is missing; removal powers the chip down; no fd stays open. The shim's
 * clock is real time, so the first read of each device really waits its
 * conversions (18 ms at the ADS1115's 128 SPS).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chipsuite.h"
#include "shim/shimchip.h"

#define SHIM_ADDR	0x4a
#define NROWS(a)	CHIPSUITE_NROWS(a)

/* one I2C_SMBUS ioctl is one transfer */
static const struct chiptest_backend i2cdev =
	SHIMCHIP_I2C(SHIM_DIR "/i2c-1", 1, SHIM_IOCTL_I2C_SMBUS);

/* AIN0 1000.7 mV, AIN1 -20.2 mV, AIN2 2500 mV (past 2.048 V), AIN3 333.3 mV */
static const struct emu_input same_inputs[] = {
	CHIPTEST_CONST("AIN0", 1000.7), CHIPTEST_CONST("AIN1", -20.2),
	CHIPTEST_CONST("AIN2", 2500), CHIPTEST_CONST("AIN3", 333.3),
};

/*
 * Each part, and each with its +/-0.256 V range on the differential pair
 * AIN0-AIN3 (written through both backends before the comparison).
 */
static void same_one(const char *part, const char *scale)
{
	struct chiptest emu, dev;

	if (chiptest_setup(&emu, part, SHIM_ADDR, same_inputs, 4, NULL)) {
		TEST_ROW_ASSERT_GOT(0, part, "%s", emu.err);
		return;
	}
	if (chiptest_open(&dev, &i2cdev, part, SHIM_ADDR, same_inputs, 4, NULL)) {
		TEST_ROW_ASSERT_GOT(0, part, "%s", dev.err);
		chiptest_teardown(&emu);
		return;
	}
	if (scale) {
		TEST_ROW_ASSERT(chiptest_write(emu.dev, "in_voltage0-voltage3_scale", scale) == 0,
				part);
		TEST_ROW_ASSERT(chiptest_write(dev.dev, "in_voltage0-voltage3_scale", scale) == 0,
				part);
	}
	/* 8 channels x 3, 3 device files, 24 scan_elements, buffer and trigger files, events */
	TEST_ROW_ASSERT(chipsuite_compare_attrs(emu.dev, dev.dev) > 8 * 3 + 3, part);
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) > 0, part);
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) == 0, part);
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SLAVE) +
			shim_ioctl_count(SHIM_IOCTL_I2C_SLAVE_FORCE) == 1, part);
	chiptest_teardown(&dev);
	chiptest_teardown(&emu);
	TEST_ROW_ASSERT(shim_open_fds() == 0, part);
}

static void test_same_as_emulated(void)
{
	static const struct { const char *part, *scale; } rows[] = {
		{ "ads1015", NULL }, { "ads1015", "0.125" }, { "ads1115", NULL },
		{ "ads1115", "0.007813" }, { "tla2024", NULL }, { "tla2024", "3" },
	};
	size_t r;

	for (r = 0; r < NROWS(rows); r++)
		same_one(rows[r].part, rows[r].scale);
}
TEST_CASE(test_same_as_emulated, "same text through i2c-dev as emulated, every part");

/* the capture rows of the emulated suite, run on i2c-dev (records as the emulated run's) */
static const struct chipsuite_capture_row capture_rows[] = {
	{ "ads1015 AIN0", "ads1015", 0, { CHIPTEST_CONST("AIN0", 1000) }, 1, BIT(4), 16,
	  { 0x80, 0x3e } },	/* 1000 << 4, little-endian */
	{ "ads1115 AIN0-AIN1", "ads1115", 0,
	  { CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 250.5) }, 2, BIT(0), 16,
	  { 0xd8, 0x2e } },	/* 11992 */
};

static void test_capture(void)
{
	chipsuite_capture(&i2cdev, SHIM_ADDR, capture_rows, NROWS(capture_rows));
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_capture, "capture through i2c-dev: the emulated run's records");

/* Faults on a bound device: the -errno, then a right value. */
static void test_faults(void)
{
	static const struct {
		const char *name;
		struct emu_fault fault;
		int err;
	} rows[] = {
		{ "NACK", { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO },
		{ "EIO", { EMU_FAULT_EIO, 0, 0, 0 }, -EIO },
		{ "hang", { EMU_FAULT_HANG, 0, 0, 20 }, -ETIMEDOUT },
		{ "EIO on the result", { EMU_FAULT_EIO, 1, 0, 0 }, -EIO },
	};
	static const struct emu_fault none = { EMU_FAULT_NONE, 0, 0, 0 };
	struct chiptest ct;
	size_t r;
	int v = -1;

	CU_ASSERT_EQUAL_FATAL(chiptest_open(&ct, &i2cdev, "ads1115", SHIM_ADDR, same_inputs, 4,
					    NULL), 0);
	/* AIN0 1000.7 mV over 62.5 uV: 16011.2 -> 16011 */
	CU_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &v) == 0 && v == 16011);
	for (r = 0; r < NROWS(rows); r++) {
		TEST_ROW_ASSERT(i2cdev.set_fault(&i2cdev, ct.bus, SHIM_ADDR, &rows[r].fault) == 0,
				rows[r].name);
		TEST_ROW_ASSERT_GOT(chiptest_read_int(ct.dev, "in_voltage0_raw", &v) == rows[r].err,
				    rows[r].name, "v %d", v);
		TEST_ROW_ASSERT(i2cdev.set_fault(&i2cdev, ct.bus, SHIM_ADDR, &none) == 0,
				rows[r].name);
		TEST_ROW_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &v) == 0 && v == 16011,
				rows[r].name);
	}
	chiptest_teardown(&ct);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_faults, "faults through i2c-dev: error, then recovery");

/* With no chip at the address, the model sits at 0x4b: the node needs one. */
static const struct chipsuite_probe_row probe_rows[] = {
	{ "ads1015, no chip at the address", "ads1015", "ads1015", 0x4b, EMU_FAULT_NONE, -ENXIO,
	  "no answer (ENXIO)" },
	{ "ads1115, bus error", "ads1115", "ads1115", 0, EMU_FAULT_EIO, -EIO, "no answer (EIO)" },
	{ "tla2024, present", "tla2024", "tla2024", 0, EMU_FAULT_NONE, 0, "" },
};

/* Probe failures, and the modes probe and removal leave (continuous, then single-shot). */
static void test_probe_and_remove(void)
{
	struct bus_i2c_client *c;
	struct chiptest ct;

	chipsuite_probe(&i2cdev, SHIM_ADDR, probe_rows, NROWS(probe_rows));
	CU_ASSERT_EQUAL_FATAL(chiptest_open(&ct, &i2cdev, "ads1015", SHIM_ADDR, NULL, 0,
					    &(struct chiptest_props){ .irq = true }), 0);
	CU_ASSERT_EQUAL_FATAL(bus_i2c_client_create(ct.bus, SHIM_ADDR, &c), 0);
	/* with the line: the comparator latching, active low, off; MODE continuous */
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01) & 0x7fff, 0x0487);
	iio_device_unregister(ct.reg, ct.dev);
	ct.dev = NULL;
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01) & 0x7fff, 0x0587);
	bus_i2c_client_destroy(c);
	chiptest_teardown(&ct);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_probe_and_remove, "probe through i2c-dev; removal powers down");

TEST_MAIN("shim_ads1015", NULL, NULL)
