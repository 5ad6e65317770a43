/*
 * test_shim_ad799x.c - the ad799x driver through the real i2c-dev backend
 * (bus_i2cdev.c) on the test shim's fake /dev/i2c-1, against the same chip
 * model the emulated tests use.
 *
 * What must hold: every attribute of every part reads the same text through
 * i2c-dev as through the emulated backend; the driver's traffic is SMBus
 * (one I2C_SMBUS ioctl a conversion, the I2C_SLAVE address set once); faults
 * come back as the same -errno and the next read works; probe names bus and
 * address when the chip is missing or is not what it should be; no fd is
 * left open. The cases of ad799x_cases.h (attribute sets, raw values,
 * vref_mv, faults) are the emulated suite's own, run here on the i2c-dev
 * backend. Tests are tables of named rows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "shim/shimchip.h"

#define SHIM_ADDR	0x22

/* The ad799x family speaks SMBus: one I2C_SMBUS ioctl is one transfer. */
static const struct chiptest_backend i2cdev =
	SHIMCHIP_I2C(SHIM_DIR "/i2c-1", 1, SHIM_IOCTL_I2C_SMBUS);

/* the cases the emulated suite runs too, on i2c-dev */
#define AD799X_CASES_BACKEND	(&i2cdev)
#define AD799X_CASES_ADDR	SHIM_ADDR
#include "ad799x_cases.h"

#define NROWS(a)	CHIPSUITE_NROWS(a)

/* ---- same text through both backends, every part ---- */

static const struct chipsuite_same_row same_rows[] = {
	{ "ad7991", 4, false, 0 }, { "ad7991", 4, true, 2048 },
	{ "ad7995", 4, false, 0 }, { "ad7999", 4, true, 3000 },
	{ "ad7992", 2, false, 0 }, { "ad7993", 4, true, 5000 },
	{ "ad7994", 4, false, 0 }, { "ad7997", 8, true, 4096 },
	{ "ad7998", 8, false, 0 }, { "ad7998", 8, true, 2500 },
};

static double same_input_mv(int i, int n)
{
	return i == n - 1 ? -5 : 617.7 * (i + 1);
}

/* one I2C_SMBUS ioctl a conversion, the address selected once, no raw I2C */
static void same_traffic(const struct chipsuite_same_row *row, struct chiptest *ct,
			 unsigned long before)
{
	(void)ct;
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) - before ==
			(unsigned long)row->ninputs, row->part);
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SLAVE) +
			shim_ioctl_count(SHIM_IOCTL_I2C_SLAVE_FORCE) == 1, row->part);
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) == 0, row->part);
}

static void test_same_as_emulated(void)
{
	/* inputs, scale, name, timestamp clock */
	static const struct chipsuite_same spec = {
		.key_fmt = "voltage%d", .input_mv = same_input_mv,
		.attrs_per_input = 1, .attrs_fixed = 3, .traffic = same_traffic,
	};

	chipsuite_same_as_emulated(&i2cdev, SHIM_ADDR, &spec, same_rows, NROWS(same_rows));
}
TEST_CASE(test_same_as_emulated, "same text through i2c-dev as emulated, every part");

/* ---- probe ---- */

/* With no chip at the address, the model sits at 0x23: the node needs one. */
static const struct chipsuite_probe_row probe_rows[] = {
	{ "ad7998, no chip at the address", "ad7998", "ad7998", 0x23, EMU_FAULT_NONE, -ENXIO,
	  "no answer (ENXIO)" },
	{ "ad7991, no chip at the address", "ad7991", "ad7998", 0x23, EMU_FAULT_NONE, -ENXIO,
	  "no answer (ENXIO)" },
	{ "ad7992, bus error", "ad7992", "ad7992", 0, EMU_FAULT_EIO, -EIO, "no answer (EIO)" },
	{ "ad7997 driver, max1363 chip", "ad7997", "max1363", 0, EMU_FAULT_NONE, -EIO,
	  "configuration reads back 0xf000, wrote 0x0000 (EIO)" },
	{ "ad7994, present", "ad7994", "ad7994", 0, EMU_FAULT_NONE, 0, "" },
};

static void test_probe(void)
{
	chipsuite_probe(&i2cdev, SHIM_ADDR, probe_rows, NROWS(probe_rows));
}
TEST_CASE(test_probe, "probe through i2c-dev");

AD799X_CASES_TESTS(" (i2c-dev)");

TEST_MAIN("shim_ad799x", NULL, NULL)
