/*
 * test_shim_mcp320x.c - the mcp320x driver through the real spidev backend
 * (SPI_IOC_MESSAGE ioctls) on the test shim's fake /dev/spidev0.0, against
 * the same bit-level chip model the emulated suite uses.
 *
 * What must hold: every attribute reads the same text through spidev as
 * through the emulated backend, for a part of each framing (command byte
 * of the MCP3x02 and of the MCP3x04/08, receive-only, signed, the MCP355x
 * with its chip select pulse and conversion wait); the node is driven in
 * SPI mode 0 with 8-bit words; faults come back as the same -errno and the
 * next read is right; no fd stays open. The shim's clock is real time, so
 * an MCP355x reading really waits its conversion.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "mcp320x_cases.h"
#include "shim/shimsensor.h"

#define SHIM_NODE	SHIM_DIR "/spidev0.0"
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

static int shim_open(struct emu_chip *chip, struct bus **bus)
{
	int ret;

	shim_reset();
	ret = shim_spi_add(SHIM_NODE, chip);
	if (ret < 0)
		return ret;
	return bus_create(bus_backend_find("spidev"), BUS_SPI, 0, SHIM_NODE, bus);
}

static int shim_fault(struct bus *bus, const struct emu_fault *fault)
{
	(void)bus;
	return shim_set_fault(SHIM_NODE, 0, fault);
}

/* The chip on a fake /dev/spidev0.0, through the spidev backend. */
static const struct mcp320x_backend spidev = {
	.name = "spidev", .open = shim_open, .set_fault = shim_fault, .close = shim_reset,
	.open_fds = shim_open_fds,
};
#define MCP320X_CASES_BACKEND	(&spidev)

/* @part with @in and @vref_mv through spidev, or (@be emulated) on the emulated bus. */
static int setup(struct sensortest *st, const struct mcp320x_backend *be, const char *part,
		 const struct emu_input *in, int nin, int vref_mv)
{
	return mcp320x_setup(st, be, part, part, in, nin, vref_mv);
}

static const struct emu_input inputs[] = {
	SENSORTEST_CONST("voltage0", 1234.5), SENSORTEST_CONST("voltage1", 321),
	SENSORTEST_CONST("CH2", 3000), SENSORTEST_CONST("CH5", 2999),
	SENSORTEST_CONST("CH6", 5000), SENSORTEST_CONST("CH7", 17),
};

static void test_same_as_emulated(void)
{
	static const struct {
		const char *part;
		int nin, vref_mv, attrs;
	} rows[] = {
		{ "mcp3002", 2, 3300, 7 }, { "mcp3008", 6, 3300, 19 }, { "mcp3204", 3, 4096, 11 },
		{ "mcp3201", 2, 2500, 3 }, { "mcp3301", 2, 2048, 3 }, { "mcp3553", 2, 2500, 3 },
	};
	struct sensortest emu, dev;
	uint32_t mode, speed;
	uint8_t bits;
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (setup(&emu, &mcp320x_emulated, rows[r].part, inputs, rows[r].nin, rows[r].vref_mv)) {
			TEST_ROW_ASSERT(0, emu.err);
			continue;
		}
		if (setup(&dev, &spidev, rows[r].part, inputs, rows[r].nin, rows[r].vref_mv)) {
			TEST_ROW_ASSERT(0, dev.err);
			sensortest_teardown(&emu);
			continue;
		}
		TEST_ROW_ASSERT(shimsensor_compare(emu.dev, dev.dev) == rows[r].attrs, rows[r].part);
		TEST_ROW_ASSERT(iio_device_attr_count(dev.dev) == rows[r].attrs, rows[r].part);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_SPI_MESSAGE) > 0, rows[r].part);
		TEST_ROW_ASSERT(shim_spi_settings(SHIM_NODE, &mode, &speed, &bits) == 0 &&
				mode == 0 && bits == 8, rows[r].part);
		shimsensor_teardown(&dev);
		sensortest_teardown(&emu);
		TEST_ROW_ASSERT(shim_open_fds() == 0, rows[r].part);
	}
}
TEST_CASE(test_same_as_emulated, "same text through spidev as emulated");

/* A right value by the datasheet LSB through spidev: 1234.5 mV of 3300 at 10 bits. */
static void test_value(void)
{
	struct sensortest st;
	long v = 0;

	CU_ASSERT_EQUAL_FATAL(setup(&st, &spidev, "mcp3008", inputs, 2, 3300), 0);
	CU_ASSERT(sensortest_read_int(st.dev, "in_voltage0_raw", &v) == 0 && v == 383);
	CU_ASSERT(sensortest_read_int(st.dev, "in_voltage0-voltage1_raw", &v) == 0 && v == 283);
	shimsensor_teardown(&st);
	CU_ASSERT_EQUAL_FATAL(setup(&st, &spidev, "mcp3553", inputs, 2, 2500), 0);
	/* (1234.5 - 321) x 2^21 / 2500 = 766299.3 */
	CU_ASSERT(sensortest_read_int(st.dev, "in_voltage0-voltage1_raw", &v) == 0 &&
		  v == 766299);
	shimsensor_teardown(&st);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_value, "values through spidev");

MCP320X_CASES_TESTS(" (spidev)");

TEST_MAIN("shim_mcp320x", NULL, NULL)
