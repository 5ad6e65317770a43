/*
 * test_dac_board.c - the DACs as board files give them: maps/dac.json
 * loads, each device's writes reach its model's pin at the reference the
 * board's emulate keys set, and the DAC keys a driver does not take are
 * refused as the board loader refuses any unread key.
 *
 * What must hold: the MCP4726 on its buffered VREF (2048 mV), the MAX520's
 * REF3 (2500 mV) under output 3, the AD5622 on VREF 3300 mV and the
 * AD5620-2500 on its own 2.5 V give code * ref / 2^bits; a max518 refuses
 * vref3_mv (the kernel's max518 takes no platform data); a mcp4725 with
 * vref_buffered and no vref_mv is the kernel's EINVAL message, with its path.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dactest.h"
#include "board.h"

/* Write @value to @attr of the device labelled @label. */
static int dboard_write(struct board *b, const char *label, const char *attr, const char *value)
{
	struct iio_dev *d;

	if (iio_registry_find(b->reg, label, &d, NULL, 0))
		return -ENODEV;
	return sensortest_write(d, attr, value);
}

/* The pin of the model at @addr on bus @key is @code over @ref_mv and @bits. */
static bool dboard_pin(struct board *b, const char *key, uint16_t addr, int ch,
		       unsigned int code, double ref_mv, int bits)
{
	struct sensortest st = { .bus = board_find_bus(b, key), .addr = addr };

	return st.bus && dac_pin_is(&st, ch, code, ref_mv, bits);
}

static void test_dac_json(void)
{
	char err[BOARD_ERR_MAX];
	struct board *b = board_load(test_path("maps/dac.json"), err, sizeof(err));

	if (!b)
		fprintf(stderr, "dac.json: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(dboard_write(b, "dac-mcp", "out_voltage0_raw", "3000"), 0);
	CU_ASSERT(dboard_pin(b, "i2c-0", 0x60, 0, 3000, 2048, 12));
	CU_ASSERT_EQUAL(dboard_write(b, "dac-max", "out_voltage3_raw", "255"), 0);
	CU_ASSERT(dboard_pin(b, "i2c-0", 0x28, 3, 255, 2500, 8));
	CU_ASSERT_EQUAL(dboard_write(b, "dac-ad5622", "out_voltage0_raw", "4095"), 0);
	CU_ASSERT(dboard_pin(b, "i2c-0", 0x0c, 0, 4095, 3300, 12));
	CU_ASSERT_EQUAL(dboard_write(b, "dac-ad5620", "out_voltage0_raw", "1000"), 0);
	CU_ASSERT(dboard_pin(b, "spi0", 0, 0, 1000, 2500, 12));
	board_destroy(b);
}
TEST_CASE(test_dac_json, "maps/dac.json: each device's write on its model's pin");

static void test_refused_keys(void)
{
	static const struct { const char *dev, *want; } rows[] = {
		{ "{\"driver\": \"max518\", \"bus\": \"i2c-0\", \"address\": \"0x2c\","
		  " \"vref3_mv\": 2500}", "unknown key" },
		{ "{\"driver\": \"mcp4725\", \"bus\": \"i2c-0\", \"address\": \"0x60\","
		  " \"vref_buffered\": 1}",
		  "devices[0]: mcp4725 at 0-0060: buffering is unavailable on the internal reference" },
		{ "{\"driver\": \"ad5300\", \"bus\": \"spi0\", \"cs\": 1}",
		  "devices[0]: ad5300 at spi0.1: no vcc supply" },
	};
	char json[1024], err[BOARD_ERR_MAX];
	struct board *b;
	size_t r;

	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		snprintf(json, sizeof(json),
			 "{\"board\": \"t\", \"buses\": {"
			 "\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"},"
			 "\"spi0\": {\"type\": \"spi\", \"backend\": \"emulated\"}},"
			 " \"devices\": [%s]}", rows[r].dev);
		b = board_load_string(json, "t", err, sizeof(err));
		TEST_ROW_ASSERT_GOT(!b && strstr(err, rows[r].want), rows[r].want, "%s", err);
		board_destroy(b);
	}
}
TEST_CASE(test_refused_keys, "DAC keys a driver does not take, and the kernel's checks");

TEST_MAIN("dac_board", NULL, NULL)
