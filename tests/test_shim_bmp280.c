/*
 * test_shim_bmp280.c - the bmp280 driver through the real i2c-dev backend
 * (libi2c SMBus ioctls) on the test shim's fake /dev/i2c-0, against the same
 * chip model the emulated suite uses.
 *
 * What must hold: every attribute of every part reads the same text through
 * i2c-dev as through the emulated backend; the traffic is SMBus byte and I2C
 * block transfers (I2C_SMBUS ioctls), which is what the kernel's regmap uses
 * on an SMBus adapter; faults come back as the same -errno and the next read
 * is right (bmp280_cases.h, the emulated suite's own case, run here on
 * i2c-dev); a probe with no chip names bus and address; no fd stays open.
 * The shim's clock is real time, as bus_msleep() really sleeps on a real
 * bus: a bmp280 probe waits its first measurement (K-62), a bmp180 reading
 * its two conversions, a bmp380 probe its 80 ms configuration check.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "shim/shimsensor.h"

#define SHIM_NODE	SHIM_DIR "/i2c-0"
#define BMP_ADDR	0x76
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

/* the cases the emulated suite runs too, on i2c-dev */
static const struct sensorsuite_backend i2cdev = SHIMSENSOR_I2C(SHIM_NODE, 0, BMP_ADDR);
#define BMP280_CASES_BACKEND	(&i2cdev)
#include "bmp280_cases.h"

/* the datasheets' and the rig's raw codes (test_bmp280.c) for every part */
static const struct emu_input bmp_in[] = {
	SENSORTEST_CONST("adc_T", 519888), SENSORTEST_CONST("adc_P", 415148),
	SENSORTEST_CONST("adc_H", 27000),
};
static const struct emu_input bmp180_in[] = {
	SENSORTEST_CONST("UT", 27898), SENSORTEST_CONST("UP", 23843),
};
static const struct emu_input bmp380_in[] = {
	SENSORTEST_CONST("adc_T", 8300000), SENSORTEST_CONST("adc_P", 6000000),
};

static const struct {
	const char *part;
	const struct emu_input *in;
	int nin;
} bmp_parts[] = {
	{ "bmp085", bmp180_in, 2 }, { "bmp180", bmp180_in, 2 }, { "bmp280", bmp_in, 2 },
	{ "bme280", bmp_in, 3 }, { "bmp380", bmp380_in, 2 },
};

/* The device through i2c-dev, its model at @chip_addr. */
static int shim_bmp_setup(struct sensortest *st, size_t part, uint16_t chip_addr)
{
	const struct shimsensor at = { BUS_I2C, SHIM_NODE, 0, chip_addr };

	return shimsensor_setup(st, &at, bmp_parts[part].part, bmp_parts[part].in,
				bmp_parts[part].nin, BMP_ADDR);
}

/* Every attribute of every part, read through both backends. */
static void test_same_as_emulated(void)
{
	const struct shimsensor at = { BUS_I2C, SHIM_NODE, 0, BMP_ADDR };
	struct sensortest emu, dev;
	size_t r;
	int n;

	for (r = 0; r < NROWS(bmp_parts); r++) {
		if (!shimsensor_pair_setup(&emu, &dev, &at, bmp_parts[r].part, bmp_parts[r].in,
					   bmp_parts[r].nin, BMP_ADDR))
			continue;
		n = iio_device_attr_count(emu.dev);
		TEST_ROW_ASSERT(n >= 5 && iio_device_attr_count(dev.dev) == n, bmp_parts[r].part);
		TEST_ROW_ASSERT(shimsensor_compare(emu.dev, dev.dev) == n, bmp_parts[r].part);
		/* SMBus byte data and I2C block reads, as the kernel's regmap on SMBus */
		shimsensor_smbus_only(bmp_parts[r].part);
		shimsensor_pair_teardown(&emu, &dev, bmp_parts[r].part);
	}
}
TEST_CASE(test_same_as_emulated, "same text through i2c-dev as emulated");

BMP280_CASES_TESTS(" (i2c-dev)");

/* No chip at the address: the probe fails with the NACK, naming bus and address. */
static void test_probe_no_chip(void)
{
	struct sensortest st;

	shimsensor_refused(&st, shim_bmp_setup(&st, 2, BMP_ADDR + 1), -ENXIO,
			   "bmp280 at 0-0076: no answer (ENXIO)");
}
TEST_CASE(test_probe_no_chip, "probe with no chip names bus and address");

TEST_MAIN("shim_bmp280", NULL, NULL)
