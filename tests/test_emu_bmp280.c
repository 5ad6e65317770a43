/*
 * test_emu_bmp280.c - the bmp280 family's chip model (drivers/emu/emu_bmp280.c)
 * register by register on an emulated bus, with no driver in between, against
 * the datasheets: power-on values, the NVM bytes, each part's measurement
 * (BMP280 forced and normal mode with their maximum measurement times and the
 * 16-bit resolution at 1x; BMP180 conversions and the SCO bit by oss; BMP380
 * power modes, data ready, CMD and ERR), soft reset. The clock is frozen, so
 * only bus_msleep() moves it: each time limit is checked at N and N+1 ms.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "chiptest.h"

#define EMU_ADDR	0x77
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

struct emu_fix {
	struct bus *bus;
	struct bus_i2c_client *c;
};

static bool emu_open(struct emu_fix *f, const char *part, const struct emu_input *in, int nin)
{
	int ret = chiptest_emu_client_open(part, EMU_ADDR, in, nin, 0, &f->bus, &f->c);

	CU_ASSERT_EQUAL(ret, 0);
	if (ret == 0)
		emu_bus_set_time(f->bus, 0.0);
	return ret == 0;
}

static void emu_close(struct emu_fix *f)
{
	bus_i2c_client_destroy(f->c);
	bus_put(f->bus);
}

/* @n registers from @reg, as the chip sends them */
static bool emu_regs(struct emu_fix *f, uint8_t reg, const uint8_t *want, int n,
		     const char *what)
{
	uint8_t got[32];
	int ret = bus_smbus_read_i2c_block_data(f->c, reg, (uint8_t)n, got);
	bool same = ret == n && memcmp(got, want, (size_t)n) == 0;

	TEST_ROW_ASSERT_GOT(same, what, "ret %d, first byte 0x%02x, want 0x%02x", ret, got[0],
			    want[0]);
	return same;
}

static const struct emu_input bmp280_in[] = {
	CHIPTEST_CONST("adc_T", 519888), CHIPTEST_CONST("adc_P", 415148),
};

/* power-on: id, the datasheet's NVM little-endian, sleep, data "skipped" */
static void test_bmp280_power_on(void)
{
	static const uint8_t nvm[] = { 0x70, 0x6b, 0x43, 0x67, 0x18, 0xfc };	/* 27504 26435 -1000 */
	static const uint8_t skipped[] = { 0x80, 0x00, 0x00, 0x80, 0x00, 0x00 };
	struct emu_fix f;

	if (!emu_open(&f, "bmp280", bmp280_in, 2))
		return;
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xd0), 0x58);
	emu_regs(&f, 0x88, nvm, sizeof(nvm), "T1..T3");
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf4), 0x00);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf3), 0x00);
	emu_regs(&f, 0xf7, skipped, sizeof(skipped), "data before any measurement");
	emu_close(&f);
}
TEST_CASE(test_bmp280_power_on, "bmp280: power-on values and NVM");

/*
 * Forced mode at 1x/1x: 1.25 + 2.3 + 2.3 + 0.575 = 6.425 ms of measuring,
 * then sleep; 16 bits at 1x, so adc_P 415148 (0x655ac) reads 0x655a0.
 */
static void test_bmp280_forced(void)
{
	static const uint8_t data[] = { 0x65, 0x5a, 0x00, 0x7e, 0xed, 0x00 };
	struct emu_fix f;

	if (!emu_open(&f, "bmp280", bmp280_in, 2))
		return;
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0xf4, 1 << 5 | 1 << 2 | 1), 0);
	bus_msleep(f.bus, 6);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf3), 0x08);	/* measuring */
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf7), 0x80);
	bus_msleep(f.bus, 1);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf3), 0x00);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf4), 1 << 5 | 1 << 2);	/* sleep */
	emu_regs(&f, 0xf7, data, sizeof(data), "forced 1x/1x");
	emu_close(&f);
}
TEST_CASE(test_bmp280_forced, "bmp280: forced mode, its time and resolution");

/* Normal mode at 2x/16x (the kernel's): the first result after 43.225 ms; soft reset. */
static void test_bmp280_normal_reset(void)
{
	static const uint8_t data[] = { 0x65, 0x5a, 0xc0, 0x7e, 0xed, 0x00 };
	struct emu_fix f;

	if (!emu_open(&f, "bmp280", bmp280_in, 2))
		return;
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0xf4, 2 << 5 | 5 << 2 | 3), 0);
	bus_msleep(f.bus, 43);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xfa), 0x80);
	bus_msleep(f.bus, 1);
	emu_regs(&f, 0xf7, data, sizeof(data), "normal 2x/16x");
	/* only 0xb6 resets */
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0xe0, 0xb5), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf4), 2 << 5 | 5 << 2 | 3);
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0xe0, 0xb6), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf4), 0x00);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf7), 0x80);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xd0), 0x58);
	emu_close(&f);
}
TEST_CASE(test_bmp280_normal_reset, "bmp280: normal mode's first result, soft reset");

/* BME280: id 0x60, humidity NVM (H4/H5 sharing 0xe5), ctrl_hum, 0x8000 when skipped */
static void test_bme280(void)
{
	static const uint8_t hum_nvm[] = { 0x72, 0x01, 0x00, 0x13, 0x25, 0x03, 0x1e };
	struct emu_input in[] = { CHIPTEST_CONST("adc_H", 27000) };	/* 0x6978 */
	struct emu_fix f;

	if (!emu_open(&f, "bme280", in, 1))
		return;
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xd0), 0x60);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xa1), 75);
	/* H2 370, H3 0, H4 309 (0x135), H5 50 (0x032), H6 30 */
	emu_regs(&f, 0xe1, hum_nvm, sizeof(hum_nvm), "H2..H6");
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0xf2, 1), 0);
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0xf4, 1 << 5 | 1 << 2 | 1), 0);
	/* + 2.3 + 0.575 for the humidity: 9.3 ms */
	bus_msleep(f.bus, 9);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xf3), 0x08);
	bus_msleep(f.bus, 1);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(f.c, 0xfd), 27000);
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0xf2, 0), 0);
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0xf4, 1 << 5 | 1 << 2 | 1), 0);
	bus_msleep(f.bus, 10);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(f.c, 0xfd), 0x8000);
	emu_close(&f);
}
TEST_CASE(test_bme280, "bme280: humidity NVM, ctrl_hum, skipped humidity");

/*
 * BMP180: a conversion per ctrl_meas write with SCO, SCO set until its
 * maximum time ends (4.5 ms; 25.5 at oss 3); UT in 0xf6/0xf7, UP << (8 - oss)
 * in 0xf6..0xf8, so UP 23843 given at oss 0 reads 0x5d2300 at every oss.
 */
static void test_bmp180(void)
{
	static const uint8_t nvm[] = { 0x01, 0x98, 0xff, 0xb8 };	/* AC1 408, AC2 -72 */
	static const uint8_t ut[] = { 0x6c, 0xfa };
	static const uint8_t up[] = { 0x5d, 0x23, 0x00 };
	static const struct {
		const char *name;
		uint8_t ctrl;
		unsigned int ms;
		const uint8_t *out;
		int n;
	} rows[] = {
		{ "temperature", 0x2e, 4, ut, 2 },
		{ "pressure oss 0", 0x34, 4, up, 3 },
		{ "pressure oss 1", 0x74, 7, up, 3 },
		{ "pressure oss 3", 0xf4, 25, up, 3 },
	};
	struct emu_input in[] = { CHIPTEST_CONST("UT", 27898), CHIPTEST_CONST("UP", 23843) };
	struct emu_fix f;
	size_t r;

	if (!emu_open(&f, "bmp180", in, 2))
		return;
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0xd0), 0x55);
	emu_regs(&f, 0xaa, nvm, sizeof(nvm), "AC1, AC2");
	for (r = 0; r < NROWS(rows); r++) {
		TEST_ROW_ASSERT(bus_smbus_write_byte_data(f.c, 0xf4, rows[r].ctrl) == 0, rows[r].name);
		bus_msleep(f.bus, rows[r].ms);
		TEST_ROW_ASSERT(bus_smbus_read_byte_data(f.c, 0xf4) == rows[r].ctrl, rows[r].name);
		bus_msleep(f.bus, 1);
		TEST_ROW_ASSERT(bus_smbus_read_byte_data(f.c, 0xf4) == (rows[r].ctrl & ~0x20),
				rows[r].name);
		emu_regs(&f, 0xf6, rows[r].out, rows[r].n, rows[r].name);
	}
	emu_close(&f);
}
TEST_CASE(test_bmp180, "bmp180: conversions, SCO and their times");

/*
 * BMP380: CMD_RDY, an unknown command's cmd_err (ERR clears on read), a
 * setting that does not fit the ODR period (conf_err, stays asleep), then
 * normal mode at 1x/1x, 200 Hz: data after 4.829 ms, LSB first, drdy bits.
 */
static void test_bmp380(void)
{
	static const uint8_t data[] = { 0x80, 0x8d, 0x5b, 0xe0, 0xa5, 0x7e };
	struct emu_input in[] = {
		CHIPTEST_CONST("adc_T", 8300000), CHIPTEST_CONST("adc_P", 6000000),
	};
	struct emu_fix f;

	if (!emu_open(&f, "bmp380", in, 2))
		return;
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x00), 0x50);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x03), 0x10);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x1c), 0x02);	/* OSR reset value */
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0x7e, 0x55), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x02), 0x02);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x02), 0x00);
	/* 32x both: 130 ms, far past 200 Hz's 5 ms */
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0x1c, 5 << 3 | 5), 0);
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0x1b, 0x33), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x02), 0x04);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x1b), 0x03);
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0x1c, 0x00), 0);
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0x1b, 0x33), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x02), 0x00);
	bus_msleep(f.bus, 4);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x09), 0x80);
	bus_msleep(f.bus, 1);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x03), 0x70);
	emu_regs(&f, 0x04, data, sizeof(data), "press, temp");
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x03), 0x10);
	/* soft reset: power-on values again */
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(f.c, 0x7e, 0xb6), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x1b), 0x00);
	CU_ASSERT_EQUAL(bus_smbus_read_byte_data(f.c, 0x09), 0x80);
	emu_close(&f);
}
TEST_CASE(test_bmp380, "bmp380: CMD, ERR, conf_err, normal mode's data");

TEST_MAIN("emu_bmp280", NULL, NULL)
