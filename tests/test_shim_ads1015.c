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
 * probe names bus and address when the chip is missing; no fd stays open.
 * The cases of ads1015_cases.h (raw values, writes, capture, faults, the
 * modes probe and removal leave) are the emulated suite's own, run here on
 * the i2c-dev backend. The shim's clock is real time, so the first read of
 * each device really waits its conversions (18 ms at the ADS1115's 128 SPS).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/i2c.h>

#include "shim/shimchip.h"

#define SHIM_ADDR	0x4a

/* one I2C_SMBUS ioctl is one transfer */
static const struct chiptest_backend i2cdev =
	SHIMCHIP_I2C(SHIM_DIR "/i2c-1", 1, SHIM_IOCTL_I2C_SMBUS);

/* the cases the emulated suite runs too, on i2c-dev */
#define ADS1015_CASES_BACKEND	(&i2cdev)
#define ADS1015_CASES_ADDR	SHIM_ADDR
#include "ads1015_cases.h"

#define NROWS(a)	CHIPSUITE_NROWS(a)

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

/*
 * On an SMBus-only adapter (i2c-stub, many PC SMBus controllers) the
 * kernel's regmap writes words through SMBus and refuses a value past
 * 0xffff: a negative threshold cannot be armed there (EINVAL, nothing
 * enabled, the registers untouched), as the 6.1 kernel on i2c-stub shows;
 * a positive one can. Through plain I2C the negative one is written.
 */
#define EV23(f)	"events/in_voltage2-voltage3_thresh_" f
#define EV0(f)	"events/in_voltage0_thresh_" f

static void test_smbus_only_thresholds(void)
{
	struct bus_i2c_client *c;
	struct chiptest ct;
	int pass, v = -1;

	for (pass = 0; pass < 2; pass++) {
		shim_set_i2c_funcs(pass ? I2C_FUNC_SMBUS_WORD_DATA | I2C_FUNC_SMBUS_BYTE : 0);
		if (chiptest_open(&ct, &i2cdev, "ads1015", SHIM_ADDR, NULL, 0, NULL) ||
		    bus_i2c_client_create(ct.bus, SHIM_ADDR, &c)) {
			TEST_ROW_ASSERT_GOT(0, "open", "%s", ct.err);
			chiptest_teardown(&ct);
			break;
		}
		CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV23("falling_value"), "-5"), 0);
		CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV23("either_en"), "1"), pass ? -EINVAL : 0);
		CU_ASSERT(chiptest_read_int(ct.dev, EV23("either_en"), &v) == 0 && v == !pass);
		/* Lo_thresh -5 << 4 through I2C; its power-on value where refused */
		CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x02), pass ? 0x8000 : 0xffb0);
		CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV23("either_en"), "0"), 0);
		/* traditional mode on a positive threshold works on both */
		CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV0("rising_value"), "100"), 0);
		CU_ASSERT_EQUAL(chiptest_write(ct.dev, EV0("rising_en"), "1"), 0);
		CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x02), 99 << 4);
		bus_i2c_client_destroy(c);
		chiptest_teardown(&ct);
	}
	shim_set_i2c_funcs(0);
}
TEST_CASE(test_smbus_only_thresholds,
	  "SMBus-only adapter: negative thresholds refused, as regmap's");

/* With no chip at the address, the model sits at 0x4b: the node needs one. */
static const struct chipsuite_probe_row probe_rows[] = {
	{ "ads1015, no chip at the address", "ads1015", "ads1015", 0x4b, EMU_FAULT_NONE, -ENXIO,
	  "no answer (ENXIO)" },
	{ "ads1115, bus error", "ads1115", "ads1115", 0, EMU_FAULT_EIO, -EIO, "no answer (EIO)" },
	{ "tla2024, present", "tla2024", "tla2024", 0, EMU_FAULT_NONE, 0, "" },
};

static void test_probe(void)
{
	chipsuite_probe(&i2cdev, SHIM_ADDR, probe_rows, NROWS(probe_rows));
}
TEST_CASE(test_probe, "probe through i2c-dev");

ADS1015_CASES_TESTS(" (i2c-dev)");

TEST_MAIN("shim_ads1015", NULL, NULL)
