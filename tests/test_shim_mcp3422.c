/*
 * test_shim_mcp3422.c - the mcp3422 driver through the real i2c-dev backend
 * (bus_i2cdev.c) on the test shim's fake /dev/i2c-0, against the same chip
 * model the emulated suite uses.
 *
 * What must hold: every attribute reads the same text through i2c-dev as
 * through the emulated backend, for parts of one, two and four inputs; the
 * traffic is plain I2C (I2C_RDWR, never SMBus), as the kernel driver's
 * i2c_master_send/recv; the 18-bit rate reads 4 bytes right through the
 * ioctl; an SMBus-only adapter is refused with EOPNOTSUPP; faults come back
 * as the kernel's errors and the next read is right; a probe with no chip
 * names bus and address; no fd stays open. The shim's clock is real time
 * (bus_msleep() really sleeps), so each channel switch waits a conversion.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <linux/i2c.h>

#include "testutil.h"
#include "shim/shimchip.h"

#define SHIM_NODE	SHIM_DIR "/i2c-0"
#define ADDR		0x68
#define NROWS(a)	CHIPSUITE_NROWS(a)

/* i2c_master_send/recv: one I2C_RDWR ioctl is one transfer */
static const struct chiptest_backend i2cdev = SHIMCHIP_I2C(SHIM_NODE, 0, SHIM_IOCTL_I2C_RDWR);

/* the emulated suite's fault and no-chip cases, on i2c-dev */
#define MCP3422_CASES_BACKEND	(&i2cdev)
#include "mcp3422_cases.h"

static const struct chipsuite_same_row same_rows[] = {
	{ "mcp3421", 1, false, 0 }, { "mcp3422", 2, false, 0 },
	{ "mcp3424", 4, false, 0 }, { "mcp3428", 4, false, 0 },
};

/* both signs, one past full scale */
static double same_input_mv(int i, int n)
{
	return i == n - 1 && n > 1 ? 2100 : 512.3 * (i % 2 ? -1 : 1) * (i + 1);
}

static void same_traffic(const struct chipsuite_same_row *row, struct chiptest *ct,
			 unsigned long before)
{
	(void)ct;
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) > before, row->part);
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) == 0, row->part);
}

static void test_same_as_emulated(void)
{
	/* raw and scale per input; the rate, two _available files and the name */
	static const struct chipsuite_same spec = {
		.key_fmt = "voltage%d", .input_mv = same_input_mv,
		.attrs_per_input = 2, .attrs_fixed = 4, .traffic = same_traffic,
	};

	chipsuite_same_as_emulated(&i2cdev, ADDR, &spec, same_rows, NROWS(same_rows));
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_same_as_emulated, "same text through i2c-dev as emulated");

/* 18 bits: the 4-byte read through I2C_RDWR; the datasheet LSB 15.625 µV. */
static void test_18bit(void)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("CH1", -1000.3), CHIPTEST_CONST("CH2", 2047.99),
	};
	struct chiptest ct;
	int v0 = 0, v1 = 0;

	CU_ASSERT_EQUAL_FATAL(chiptest_open(&ct, &i2cdev, "mcp3422", ADDR, in, 2, NULL), 0);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, "in_voltage_sampling_frequency", "3"), 0);
	CU_ASSERT_EQUAL(chiptest_read_int(ct.dev, "in_voltage1_raw", &v1), 0);
	CU_ASSERT_EQUAL(chiptest_read_int(ct.dev, "in_voltage0_raw", &v0), 0);
	/* floor(-1000.3 / 0.015625) and the positive full-scale code */
	CU_ASSERT_EQUAL(v0, -64020);
	CU_ASSERT_EQUAL(v1, 131071);
	chiptest_teardown(&ct);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_18bit, "18 bits through i2c-dev");

#define SMBUS_ONLY_FUNCS	(I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE |		\
				 I2C_FUNC_SMBUS_BYTE_DATA | I2C_FUNC_SMBUS_WORD_DATA |	\
				 I2C_FUNC_SMBUS_BLOCK_DATA)

/* An SMBus-only adapter (i801, piix4): the kernel's probe says EOPNOTSUPP. */
static void test_smbus_only_adapter(void)
{
	struct chiptest ct;

	shim_set_i2c_funcs(SMBUS_ONLY_FUNCS);
	CU_ASSERT_EQUAL(chiptest_open(&ct, &i2cdev, "mcp3424", ADDR, NULL, 0, NULL),
			-EOPNOTSUPP);
	CU_ASSERT_PTR_NOT_NULL(strstr(ct.err, "mcp3424 at 0-0068: no plain I2C"));
	CU_ASSERT_EQUAL(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR), 0);
	shim_set_i2c_funcs(0);
	shim_reset();
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_smbus_only_adapter, "SMBus-only adapter refused");

MCP3422_CASES_TESTS(" (i2c-dev)");

TEST_MAIN("shim_mcp3422", NULL, NULL)
