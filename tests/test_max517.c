/*
 * test_max517.c - the max517 driver (MAX517/518/519/520/521) on the
 * emulated bus against its chip model.
 *
 * What must hold: the kernel's channels per part (1, 2, 2, 4, 8 outputs,
 * each with raw and scale of its own); a raw write is the datasheets' two
 * bytes (command with the DAC address, code), landing on that output only
 * and giving code * ref / 256 on its pin; 255 is taken, 256 and -1 are
 * EINVAL; a raw read is EINVAL, as the kernel's read_raw has no raw case;
 * scales are 5000/2^8 without references, the board's vref_mv / vrefN_mv
 * otherwise, and always 5000/2^8 on the MAX518 (its VDD); the probe sends
 * nothing (the kernel's does not).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dactest.h"

#define MAX_ADDR	0x28

static void test_channels_and_writes(void)
{
	static const struct { const char *part; int n; } rows[] = {
		{ "max517", 1 }, { "max518", 2 }, { "max519", 2 }, { "max520", 4 }, { "max521", 8 },
	};
	char name[32], row[64], scale[32];
	struct sensortest st;
	size_t r;
	int ch, other;

	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		if (!dac_setup(&st, BUS_I2C, rows[r].part, MAX_ADDR, NULL, 0, NULL))
			continue;
		/* name, and raw and scale per output */
		TEST_ROW_ASSERT(iio_device_attr_count(st.dev) == 1 + 2 * rows[r].n, rows[r].part);
		TEST_ROW_ASSERT(emu_bus_transfers(st.bus, MAX_ADDR) == 0, rows[r].part);
		for (ch = 0; ch < rows[r].n; ch++) {
			snprintf(row, sizeof(row), "%s out%d", rows[r].part, ch);
			snprintf(name, sizeof(name), "out_voltage%d_scale", ch);
			/* 5000 mV / 256 = 19.53125 */
			TEST_ROW_ASSERT(dac_reads(st.dev, name, dac_scale_text(scale, sizeof(scale),
									       5000, 8)), row);
			snprintf(name, sizeof(name), "out_voltage%d_raw", ch);
			TEST_ROW_ASSERT(sensortest_read(st.dev, name, scale, sizeof(scale)) == -EINVAL,
					row);
			TEST_ROW_ASSERT(sensortest_write(st.dev, name, "255") == 0, row);
			TEST_ROW_ASSERT(dac_pin_is(&st, ch, 255, 5000, 8), row);
			TEST_ROW_ASSERT(sensortest_write(st.dev, name, "256") == -EINVAL, row);
			TEST_ROW_ASSERT(sensortest_write(st.dev, name, "-1") == -EINVAL, row);
			TEST_ROW_ASSERT(sensortest_write(st.dev, name, "100") == 0, row);
			TEST_ROW_ASSERT(dac_pin_is(&st, ch, 100, 5000, 8), row);
			/* the other outputs keep their codes: 100 below, 0 above */
			for (other = 0; other < rows[r].n; other++)
				if (other != ch)
					TEST_ROW_ASSERT(dac_pin(&st, other).code ==
							(other < ch ? 100u : 0u), row);
		}
		snprintf(name, sizeof(name), "out_voltage%d_raw", rows[r].n);
		TEST_ROW_ASSERT(sensortest_write(st.dev, name, "1") == -ENOENT, rows[r].part);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_channels_and_writes, "outputs per part, writes to one DAC, 255/256, raw reads EINVAL");

static void test_references(void)
{
	static const struct sensortest_prop vrefs[] = {
		{ "vref_mv", 4096 }, { "vref3_mv", 2500 }, { "vref7_mv", 1000 }, { NULL, 0 },
	};
	static const struct emu_input refs[] = {
		SENSORTEST_CONST("REF0", 4096), SENSORTEST_CONST("REF3", 2500),
		SENSORTEST_CONST("REF4", 1000),
	};
	struct sensortest st;
	char want[32];

	if (dac_setup(&st, BUS_I2C, "max521", MAX_ADDR, refs, 3, vrefs)) {
		CU_ASSERT(dac_reads(st.dev, "out_voltage0_scale", "16.000000000\n"));
		CU_ASSERT(dac_reads(st.dev, "out_voltage3_scale",
				    dac_scale_text(want, sizeof(want), 2500, 8)));
		CU_ASSERT(dac_reads(st.dev, "out_voltage7_scale", "3.906250000\n"));
		CU_ASSERT(dac_reads(st.dev, "out_voltage6_scale", "16.000000000\n"));
		CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage3_raw", "128"), 0);
		CU_ASSERT(dac_pin_is(&st, 3, 128, 2500, 8));
		/* the MAX521's REF4 serves OUT4..OUT7 */
		CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage6_raw", "64"), 0);
		CU_ASSERT(dac_pin_is(&st, 6, 64, 1000, 8));
		sensortest_teardown(&st);
	}
	/* the MAX518's reference is VDD: 5000 mV whatever the board says */
	if (dac_setup(&st, BUS_I2C, "max518", MAX_ADDR, NULL, 0, vrefs)) {
		CU_ASSERT(dac_reads(st.dev, "out_voltage1_scale", "19.531250000\n"));
		sensortest_teardown(&st);
	}
	CU_ASSERT_EQUAL(sensortest_setup(&st, BUS_I2C, "max519", MAX_ADDR, NULL, 0,
					 (const struct sensortest_prop[]){ { "vref1_mv", -5 },
									   { NULL, 0 } }, 0.0),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(st.err, "vref1_mv must be a positive integer"));
}
TEST_CASE(test_references, "scales from vref_mv and vrefN_mv; the MAX518 on VDD");

/* The model: RST zeroes, PD grounds the pins, the DAC latches follow at the STOP. */
static void test_model_commands(void)
{
	struct bus_i2c_client *c;
	struct sensortest st;

	if (!dac_setup(&st, BUS_I2C, "max520", MAX_ADDR, NULL, 0, NULL))
		return;
	CU_ASSERT_FATAL(bus_i2c_client_create(st.bus, MAX_ADDR, &c) == 0);
	/* two pairs in one transaction: both outputs change at its end */
	CU_ASSERT_EQUAL(bus_i2c_master_send(c, (const uint8_t[]){ 0x01, 10, 0x02, 20 }, 4), 4);
	CU_ASSERT(dac_pin_is(&st, 1, 10, 5000, 8) && dac_pin_is(&st, 2, 20, 5000, 8));
	CU_ASSERT_EQUAL(bus_i2c_master_send(c, (const uint8_t[]){ 0x08 }, 1), 1);	/* PD */
	CU_ASSERT(dac_pin(&st, 1).powerdown == 1 && dac_pin(&st, 1).mv == 0.0);
	CU_ASSERT_EQUAL(bus_i2c_master_send(c, (const uint8_t[]){ 0x00 }, 1), 1);
	CU_ASSERT(dac_pin_is(&st, 1, 10, 5000, 8));
	CU_ASSERT_EQUAL(bus_i2c_master_send(c, (const uint8_t[]){ 0x10, 0 }, 2), 2);	/* RST */
	CU_ASSERT(dac_pin_is(&st, 2, 0, 5000, 8));
	bus_i2c_client_destroy(c);
	sensortest_teardown(&st);
}
TEST_CASE(test_model_commands, "model: pairs latched at the STOP, PD, RST");

TEST_MAIN("max517", NULL, NULL)
