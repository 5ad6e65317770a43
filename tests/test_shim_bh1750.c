/*
 * test_shim_bh1750.c - the bh1750 driver through the real i2c-dev backend on
 * the test shim's fake /dev/i2c-0, against the same chip model the emulated
 * suite uses.
 *
 * What must hold: every attribute reads the same text through i2c-dev as
 * through the emulated backend; the opcodes go out as SMBus send-byte and
 * the result comes back through a plain I2C read (I2C_RDWR), as the
 * kernel's i2c_smbus_write_byte() and i2c_master_recv(); an SMBus-only
 * adapter (i2c-stub, i801) is refused with EOPNOTSUPP, as the kernel's
 * probe does on the QEMU rig; faults come back as the same -errno and the
 * next read is right (bh1750_cases.h, the emulated suite's own case, run
 * here on i2c-dev); no fd stays open. The shim's clock is real time: each
 * read waits 136 ms.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/i2c.h>

#include "testutil.h"
#include "shim/shimsensor.h"

#define SHIM_NODE	SHIM_DIR "/i2c-0"
#define BH_ADDR		0x23

/* the cases the emulated suite runs too, on i2c-dev */
static const struct sensorsuite_backend i2cdev = SHIMSENSOR_I2C(SHIM_NODE, 0, BH_ADDR);
#define BH1750_CASES_BACKEND	(&i2cdev)
#include "bh1750_cases.h"

static int shim_bh_setup(struct sensortest *st, double lux, uint16_t chip_addr)
{
	struct emu_input in[] = { SENSORTEST_CONST("illuminance", lux) };
	const struct shimsensor at = { BUS_I2C, SHIM_NODE, 0, chip_addr };

	return shimsensor_setup(st, &at, "bh1750", in, 1, BH_ADDR);
}

static void test_same_as_emulated(void)
{
	const struct shimsensor at = { BUS_I2C, SHIM_NODE, 0, BH_ADDR };
	struct emu_input in[] = { SENSORTEST_CONST("illuminance", 1000) };
	struct sensortest emu, dev;
	long v = -1;

	if (!shimsensor_pair_setup(&emu, &dev, &at, "bh1750", in, 1, BH_ADDR))
		return;
	CU_ASSERT_EQUAL(iio_device_attr_count(dev.dev), 5);
	CU_ASSERT_EQUAL(shimsensor_compare(emu.dev, dev.dev), 5);
	CU_ASSERT(sensortest_read_int(dev.dev, "in_illuminance_raw", &v) == 0 && v == 1200);
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) > 0);
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) > 0);
	shimsensor_pair_teardown(&emu, &dev, "bh1750");
}
TEST_CASE(test_same_as_emulated, "same text through i2c-dev as emulated; SMBus out, I2C in");

/* a fault on the bare read (and on the opcode): the -errno, then the right count */
BH1750_CASES_TESTS(" (i2c-dev)");

/* An SMBus-only adapter: refused before any opcode, as the kernel's probe on i2c-stub. */
static void test_smbus_only_refused(void)
{
	struct sensortest st;

	shim_set_i2c_funcs(I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE | I2C_FUNC_SMBUS_BYTE_DATA |
			   I2C_FUNC_SMBUS_WORD_DATA);
	shimsensor_refused(&st, shim_bh_setup(&st, 100, BH_ADDR), -EOPNOTSUPP,
			   "bh1750 at 0-0023: the adapter cannot do plain I2C reads (EOPNOTSUPP)");
	shim_set_i2c_funcs(0);
}
TEST_CASE(test_smbus_only_refused, "an SMBus-only adapter is refused (EOPNOTSUPP)");

static void test_probe_no_chip(void)
{
	struct sensortest st;

	shimsensor_refused(&st, shim_bh_setup(&st, 0, BH_ADDR + 1), -ENXIO,
			   "bh1750 at 0-0023: no answer to the MTreg opcodes (ENXIO)");
}
TEST_CASE(test_probe_no_chip, "probe with no chip names the device");

TEST_MAIN("shim_bh1750", NULL, NULL)
