/*
 * test_ad5446.c - the ad5446 driver (its SPI and I2C id tables) on the
 * emulated buses against its chip model.
 *
 * What must hold, part by part (rows from the datasheets: bits, where the
 * code sits in the word, power-down, internal reference): the kernel's
 * files (powerdown ones only on parts that have power-down); full scale
 * 2^bits - 1 is taken and lands on the pin as code * ref / 2^bits, 2^bits
 * and -1 are EINVAL; the scale is the internal reference, else the board's
 * vref_mv (the vcc supply, without which the probe fails as the kernel's); power-down writes the mode bits (1 kohm, 100 kohm,
 * three-state) and grounds the pin, a raw write meanwhile is only cached
 * (raw reads it, the pin keeps its code), power-up writes it; the I2C
 * parts read back the word the driver sent, MSB first.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dactest.h"

#define AD_CS		0
#define AD_I2C_ADDR	0x0c
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

struct ad_row {
	const char *part;
	int bits;
	bool pd;
	int int_mv;	/* the part's own reference, or 0 */
};

/* The datasheets' figures for every name in the kernel's SPI table. */
static const struct ad_row spi_rows[] = {
	{ "ad5300", 8, true, 0 }, { "ad5310", 10, true, 0 }, { "ad5320", 12, true, 0 },
	{ "ad5444", 12, false, 0 }, { "ad5446", 14, false, 0 }, { "ad5450", 8, false, 0 },
	{ "ad5451", 10, false, 0 }, { "ad5452", 12, false, 0 }, { "ad5453", 14, false, 0 },
	{ "ad5512a", 12, false, 0 }, { "ad5541a", 16, false, 0 }, { "ad5542a", 16, false, 0 },
	{ "ad5543", 16, false, 0 }, { "ad5553", 14, false, 0 }, { "ad5600", 16, false, 0 },
	{ "ad5601", 8, true, 0 }, { "ad5611", 10, true, 0 }, { "ad5621", 12, true, 0 },
	{ "ad5641", 14, true, 0 }, { "ad5620-2500", 12, true, 2500 },
	{ "ad5620-1250", 12, true, 1250 }, { "ad5640-2500", 14, true, 2500 },
	{ "ad5640-1250", 14, true, 1250 }, { "ad5660-2500", 16, true, 2500 },
	{ "ad5660-1250", 16, true, 1250 }, { "ad5662", 16, true, 0 },
	{ "dac081s101", 8, true, 0 }, { "dac101s101", 10, true, 0 },
	{ "dac121s101", 12, true, 0 }, { "dac7512", 12, true, 0 },
};
static const struct ad_row i2c_rows[] = {
	{ "ad5301", 8, true, 0 }, { "ad5311", 10, true, 0 }, { "ad5321", 12, true, 0 },
	{ "ad5602", 8, true, 0 }, { "ad5612", 10, true, 0 }, { "ad5622", 12, true, 0 },
};

static const struct sensortest_prop vref_3000[] = { { "vref_mv", 3000 }, { NULL, 0 } };
/* the model's VREF pin at what the board tells the driver */
static const struct emu_input pin_3000[] = { SENSORTEST_CONST("VREF", 3000) };

/* One part: files, scale, full scale and one past it, mid code on the pin. */
static void ad_check_part(const struct ad_row *row, enum bus_type type, uint16_t addr)
{
	int full = (1 << row->bits) - 1, ref = row->int_mv ? row->int_mv : 3000;
	char text[32], scale[32];
	struct sensortest st;

	if (!dac_setup(&st, type, row->part, addr, pin_3000, 1, vref_3000))
		return;
	/* name, raw, scale, and powerdown, its mode and the shared _available */
	TEST_ROW_ASSERT(iio_device_attr_count(st.dev) == (row->pd ? 6 : 3), row->part);
	TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage_scale",
				  dac_scale_text(scale, sizeof(scale), ref, row->bits)), row->part);
	snprintf(text, sizeof(text), "%d", full);
	TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_raw", text) == 0, row->part);
	TEST_ROW_ASSERT(dac_pin_is(&st, 0, (unsigned int)full, ref, row->bits), row->part);
	snprintf(text, sizeof(text), "%d", full + 1);
	TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_raw", text) == -EINVAL, row->part);
	TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_raw", "-1") == -EINVAL, row->part);
	snprintf(text, sizeof(text), "%d\n", full);
	TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage0_raw", text), row->part);
	snprintf(text, sizeof(text), "%d", full / 3);
	TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_raw", text) == 0, row->part);
	TEST_ROW_ASSERT(dac_pin_is(&st, 0, (unsigned int)full / 3, ref, row->bits), row->part);
	sensortest_teardown(&st);
}

static void test_every_part(void)
{
	size_t r;

	for (r = 0; r < NROWS(spi_rows); r++)
		ad_check_part(&spi_rows[r], BUS_SPI, AD_CS);
	for (r = 0; r < NROWS(i2c_rows); r++)
		ad_check_part(&i2c_rows[r], BUS_I2C, AD_I2C_ADDR);
}
TEST_CASE(test_every_part, "every id: files, scale, full scale and one past, the pin");

static void test_powerdown(void)
{
	static const struct { const char *mode; unsigned int pd; } modes[] = {
		{ "1kohm_to_gnd", 1 }, { "100kohm_to_gnd", 2 }, { "three_state", 3 },
	};
	static const char *const parts[] = { "ad5300", "ad5641", "ad5662" };
	static const int bits[] = { 8, 14, 16 };
	struct sensortest st;
	struct emu_dac_state s;
	size_t p, m;

	for (p = 0; p < NROWS(parts); p++) {
		if (!dac_setup(&st, BUS_SPI, parts[p], AD_CS, pin_3000, 1, vref_3000))
			continue;
		TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown_mode", "1kohm_to_gnd\n"),
				parts[p]);
		TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage_powerdown_mode_available",
					  "1kohm_to_gnd 100kohm_to_gnd three_state\n"), parts[p]);
		TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_raw", "100") == 0, parts[p]);
		for (m = 0; m < NROWS(modes); m++) {
			TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_powerdown_mode",
							 modes[m].mode) == 0, modes[m].mode);
			TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_powerdown", "1") == 0,
					modes[m].mode);
			s = dac_pin(&st, 0);
			TEST_ROW_ASSERT(s.powerdown == modes[m].pd && s.mv == 0.0, modes[m].mode);
			/* powered down, a write is cached: raw reads it, the chip does not get it */
			TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_raw",
							 m == 1 ? "7" : "100") == 0, modes[m].mode);
			TEST_ROW_ASSERT(dac_pin(&st, 0).powerdown == modes[m].pd, modes[m].mode);
			TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown", "1\n"),
					modes[m].mode);
			TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_powerdown", "0") == 0,
					modes[m].mode);
			TEST_ROW_ASSERT(dac_pin_is(&st, 0, m == 1 ? 7 : 100, 3000, bits[p]),
					modes[m].mode);
		}
		TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_powerdown_mode",
						 "three_state\n") == 0, parts[p]);
		TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_powerdown_mode",
						 "tristate") == -EINVAL, parts[p]);
		TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown_mode", "three_state\n"),
				parts[p]);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_powerdown, "power-down modes on the pin; writes cached while down");

/* The I2C parts read back the word: PD1:PD0, then the code above its shift. */
static void test_i2c_word(void)
{
	struct bus_i2c_client *c;
	struct sensortest st;
	uint8_t b[2];

	if (!dac_setup(&st, BUS_I2C, "ad5612", AD_I2C_ADDR, pin_3000, 1, vref_3000))
		return;
	CU_ASSERT_FATAL(bus_i2c_client_create(st.bus, AD_I2C_ADDR, &c) == 0);
	/* 10 bits at bit 2: 0x2aa << 2 = 0x0aa8 */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "682"), 0);
	CU_ASSERT(bus_i2c_master_recv(c, b, 2) == 2 && b[0] == 0x0a && b[1] == 0xa8);
	/* 100 kohm: PD 10 at bits 13:12, code 0 */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown_mode", "100kohm_to_gnd"),
			0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown", "1"), 0);
	CU_ASSERT(bus_i2c_master_recv(c, b, 2) == 2 && b[0] == 0x20 && b[1] == 0x00);
	bus_i2c_client_destroy(c);
	sensortest_teardown(&st);
}
TEST_CASE(test_i2c_word, "I2C: the word the driver sent, read back");

static void test_no_reference(void)
{
	struct sensortest st;

	/* no vcc supply: the kernel's probe fails on the dummy regulator's EINVAL */
	CU_ASSERT_EQUAL(sensortest_setup(&st, BUS_SPI, "ad5541a", AD_CS, NULL, 0, NULL, 0.0),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(st.err, "ad5541a at spi0.0: no vcc supply"));
	CU_ASSERT_EQUAL(sensortest_setup(&st, BUS_I2C, "ad5622", AD_I2C_ADDR, NULL, 0, NULL, 0.0),
			-EINVAL);
	/* ... the parts with their own reference too; with one, the own reference wins */
	CU_ASSERT_EQUAL(sensortest_setup(&st, BUS_SPI, "ad5660-1250", AD_CS, NULL, 0, NULL, 0.0),
			-EINVAL);
	if (!dac_setup(&st, BUS_SPI, "ad5660-1250", AD_CS, NULL, 0, vref_3000))
		return;
	CU_ASSERT(dac_reads(st.dev, "out_voltage_scale", "0.019073486\n"));
	sensortest_teardown(&st);
	CU_ASSERT_EQUAL(sensortest_setup(&st, BUS_SPI, "ad5300", AD_CS, NULL, 0,
					 (const struct sensortest_prop[]){ { "vref_mv", 3300 },
									   { "spi-cpha", 2 },
									   { NULL, 0 } }, 0.0),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(st.err, "spi-cpha must be 0 or 1"));
}
TEST_CASE(test_no_reference, "no vcc supply: EINVAL as the kernel's probe; internal reference wins");

/* A frame of the wrong length is dropped, as SYNC raised early aborts a write. */
static void test_model_frames(void)
{
	struct bus_spi_device *spi;
	struct sensortest st;

	if (!dac_setup(&st, BUS_SPI, "ad5662", AD_CS, pin_3000, 1, vref_3000))
		return;
	CU_ASSERT_FATAL(bus_spi_device_create(st.bus, AD_CS, &spi) == 0);
	CU_ASSERT_EQUAL(bus_spi_write(spi, (const uint8_t[]){ 0x00, 0x12, 0x34 }, 3), 0);
	CU_ASSERT(dac_pin_is(&st, 0, 0x1234, 3000, 16));
	CU_ASSERT_EQUAL(bus_spi_write(spi, (const uint8_t[]){ 0x00, 0x56 }, 2), 0);
	CU_ASSERT(dac_pin_is(&st, 0, 0x1234, 3000, 16));
	bus_spi_device_destroy(spi);
	sensortest_teardown(&st);
}
TEST_CASE(test_model_frames, "model: 24-bit frames; a short frame is dropped");

TEST_MAIN("ad5446", NULL, NULL)
