/*
 * test_shim_opt3001.c - the opt3001 driver through the real i2c-dev backend
 * on the test shim's fake /dev/i2c-0, against the same chip model the
 * emulated suite uses.
 *
 * What must hold: every attribute reads the same text through i2c-dev as
 * through the emulated backend; the traffic is SMBus words only (I2C_SMBUS,
 * no I2C_RDWR), as the kernel's _swapped calls, so an SMBus-only adapter
 * binds it (i2c-stub on the QEMU rig); faults come back as the same -errno;
 * removal shuts the chip down; no fd stays open. The shim's clock is real
 * time: the integration time is set to 0.1 s first, so a read waits about
 * 100 ms (the conversion, then the ready flag: K-76).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/i2c.h>

#include "testutil.h"
#include "shim/shimsensor.h"

#define SHIM_NODE	SHIM_DIR "/i2c-0"
#define OPT_ADDR	0x44

static int shim_opt_setup(struct sensortest *st, double lux, uint16_t chip_addr)
{
	struct emu_input in[] = { SENSORTEST_CONST("illuminance", lux) };
	const struct shimsensor i2cdev = { BUS_I2C, SHIM_NODE, 0, chip_addr };

	return shimsensor_setup(st, &i2cdev, "opt3001", in, 1, OPT_ADDR);
}

static void test_same_as_emulated(void)
{
	struct emu_input in[] = { SENSORTEST_CONST("illuminance", 1234.5) };
	struct sensortest emu, dev;
	char buf[32];
	int pass;

	/* pass 1: an SMBus-only adapter, as i2c-stub */
	for (pass = 0; pass < 2; pass++) {
		shim_set_i2c_funcs(pass ? I2C_FUNC_SMBUS_BYTE_DATA | I2C_FUNC_SMBUS_WORD_DATA : 0);
		if (sensortest_setup(&emu, BUS_I2C, "opt3001", OPT_ADDR, in, 1, NULL, 0.0)) {
			TEST_ROW_ASSERT(0, emu.err);
			continue;
		}
		if (shim_opt_setup(&dev, 1234.5, OPT_ADDR)) {
			TEST_ROW_ASSERT(0, dev.err);
			sensortest_teardown(&emu);
			continue;
		}
		CU_ASSERT_EQUAL(sensortest_write(emu.dev, "in_illuminance_integration_time", "0.1"),
				0);
		CU_ASSERT_EQUAL(sensortest_write(dev.dev, "in_illuminance_integration_time", "0.1"),
				0);
		/* five attributes, four events/ files and the clock */
		CU_ASSERT_EQUAL(iio_device_attr_count(dev.dev), 9);
		CU_ASSERT_EQUAL(shimsensor_compare(emu.dev, dev.dev), 9);
		CU_ASSERT(sensortest_read(dev.dev, "in_illuminance_input", buf, sizeof(buf)) > 0 &&
			  strcmp(buf, "1234.240000\n") == 0);
		CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) > 0);
		CU_ASSERT_EQUAL(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR), 0);
		/* EIO on the ready-flag read, then the value again */
		CU_ASSERT_EQUAL(shim_set_fault(SHIM_NODE, OPT_ADDR,
					       &(struct emu_fault){ EMU_FAULT_EIO, 2, 1, 0 }), 0);
		CU_ASSERT(sensortest_read(dev.dev, "in_illuminance_input", buf, sizeof(buf)) ==
			  -EIO);
		CU_ASSERT(sensortest_read(dev.dev, "in_illuminance_input", buf, sizeof(buf)) > 0 &&
			  strcmp(buf, "1234.240000\n") == 0);
		shimsensor_teardown(&dev);
		sensortest_teardown(&emu);
		CU_ASSERT_EQUAL(shim_open_fds(), 0);
	}
	shim_set_i2c_funcs(0);
}
TEST_CASE(test_same_as_emulated, "same text through i2c-dev as emulated; SMBus words only");

/* Removal writes shutdown (M = 00) after continuous conversions. */
static void test_remove_shuts_down(void)
{
	struct bus_i2c_client *c;
	struct sensortest st;

	if (shim_opt_setup(&st, 100, OPT_ADDR)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "events/in_illuminance_thresh_rising_en", "1"), 0);
	CU_ASSERT_EQUAL(bus_i2c_client_create(st.bus, OPT_ADDR, &c), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01) & 0x0600, 0x0400);
	iio_device_unregister(st.reg, st.dev);
	st.dev = NULL;
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x01) & 0x0600, 0);
	bus_i2c_client_destroy(c);
	shimsensor_teardown(&st);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_remove_shuts_down, "removal shuts the chip down");

static void test_probe_no_chip(void)
{
	struct sensortest st;

	shimsensor_refused(&st, shim_opt_setup(&st, 0, OPT_ADDR + 1), -ENXIO,
			   "opt3001 at 0-0044: reading the manufacturer ID failed (ENXIO)");
}
TEST_CASE(test_probe_no_chip, "probe with no chip names the device");

TEST_MAIN("shim_opt3001", NULL, NULL)
