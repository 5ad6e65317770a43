/*
 * test_shim_ad5766.c - the ad5766/ad5767 driver through the real spidev
 * backend (SPI_IOC_MESSAGE ioctls) on the test shim's fake
 * /dev/spidev0.0, against the same register model the emulated suite uses.
 *
 * What must hold: every attribute reads the same text through spidev as
 * through the emulated backend after the same writes (values read back
 * over SDO); the node is driven with 8-bit words; buffered output plays a
 * scan per trigger poll through spidev (input registers, then the LDAC);
 * an EIO or a NACKed frame comes back as that -errno and the next write
 * works; no fd stays open.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "iio_buffer.h"
#include "iio_trigger.h"
#include "shim/shimsensor.h"

#define SHIM_NODE	SHIM_DIR "/spidev0.0"
#define AD_CS		0
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

static const struct shimsensor spidev = { BUS_SPI, SHIM_NODE, 0, 0 };

static const struct sensortest_prop range_m20[] = {
	{ "output-range-microvolts", 0, "-20000000 0" }, { NULL, 0, NULL } };
static const struct sensortest_prop range_m5[] = {
	{ "output-range-microvolts", 0, "-5000000 5000000" }, { NULL, 0, NULL } };

static long raw(struct iio_dev *d, int ch)
{
	char name[32];
	long v = -1;

	snprintf(name, sizeof(name), "out_voltage%d_raw", ch);
	sensortest_read_int(d, name, &v);
	return v;
}

static void test_same_as_emulated(void)
{
	static const struct {
		const char *part;
		const struct sensortest_prop *props;
		const char *code;
	} rows[] = {
		{ "ad5766", range_m20, "65535" },
		{ "ad5767", range_m5, "4095" },
	};
	static const char *const writes[] = { "out_voltage0_raw", "out_voltage7_raw",
					      "out_voltage15_raw" };
	struct sensortest emu, dev;
	uint32_t mode, speed;
	uint8_t bits;
	size_t r, k;

	for (r = 0; r < NROWS(rows); r++) {
		if (sensortest_setup(&emu, BUS_SPI, rows[r].part, AD_CS, NULL, 0, rows[r].props,
				     0.0)) {
			TEST_ROW_ASSERT(0, emu.err);
			continue;
		}
		if (shimsensor_setup_props(&dev, &spidev, rows[r].part, NULL, 0, AD_CS,
					   rows[r].props)) {
			TEST_ROW_ASSERT(0, dev.err);
			sensortest_teardown(&emu);
			continue;
		}
		for (k = 0; k < NROWS(writes); k++) {
			TEST_ROW_ASSERT(sensortest_write(emu.dev, writes[k], rows[r].code) == 0,
					writes[k]);
			TEST_ROW_ASSERT(sensortest_write(dev.dev, writes[k], rows[r].code) == 0,
					writes[k]);
		}
		TEST_ROW_ASSERT(sensortest_write(dev.dev, "out_voltage3_dither_scale", "0.5") == 0 &&
				sensortest_write(emu.dev, "out_voltage3_dither_scale", "0.5") == 0,
				rows[r].part);
		TEST_ROW_ASSERT(iio_device_attr_count(dev.dev) == iio_device_attr_count(emu.dev),
				rows[r].part);
		TEST_ROW_ASSERT(shimsensor_compare(emu.dev, dev.dev) > 90, rows[r].part);
		TEST_ROW_ASSERT(raw(dev.dev, 15) == strtol(rows[r].code, NULL, 10), rows[r].part);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_SPI_MESSAGE) > 0, rows[r].part);
		TEST_ROW_ASSERT(shim_spi_settings(SHIM_NODE, &mode, &speed, &bits) == 0 && bits == 8,
				rows[r].part);
		shimsensor_teardown(&dev);
		sensortest_teardown(&emu);
		TEST_ROW_ASSERT(shim_open_fds() == 0, rows[r].part);
	}
}
TEST_CASE(test_same_as_emulated, "same text through spidev as emulated, after the same writes");

static const struct iio_buffer_ops writer_ops = { .end = NULL };

static void test_play_through_spidev(void)
{
	const uint16_t scans[3][2] = { { 100, 200 }, { 300, 400 }, { 500, 600 } };
	struct iio_buffer w = { .ops = &writer_ops, .mask = 1u << 2 | 1u << 9,
				.direction = IIO_BUFFER_DIRECTION_OUT };
	struct iio_trigger *t = NULL;
	struct sensortest dev;
	int i;

	if (shimsensor_setup_props(&dev, &spidev, "ad5766", NULL, 0, AD_CS, range_m20)) {
		CU_FAIL(dev.err);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(dev.reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(sensortest_write(dev.dev, "trigger/current_trigger", "hrt0"), 0);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(dev.dev, &w, NULL, 0), 0);
	CU_ASSERT_EQUAL(iio_buffer_write_scans(dev.dev, &w, scans, 3), 2);	/* length 2 */
	for (i = 0; i < 2; i++) {
		iio_trigger_poll(t, 0);
		TEST_ROW_ASSERT(raw(dev.dev, 2) == scans[i][0] && raw(dev.dev, 9) == scans[i][1],
				"a scan per poll");
	}
	iio_trigger_poll(t, 0);
	CU_ASSERT_EQUAL(iio_buffer_underruns(dev.dev), 1);
	CU_ASSERT_EQUAL(raw(dev.dev, 2), 300);
	iio_buffer_detach(dev.dev, &w);
	shimsensor_teardown(&dev);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_play_through_spidev, "buffered output through spidev: a scan per poll, then held");

static void test_faults(void)
{
	static const struct {
		const char *name;
		struct emu_fault fault;
		int err;
	} rows[] = {
		{ "EIO", { EMU_FAULT_EIO, 0, 0, 0 }, -EIO },
		{ "NACK", { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO },
	};
	static const struct emu_fault none = { EMU_FAULT_NONE, 0, 0, 0 };
	struct sensortest dev;
	size_t r;

	if (shimsensor_setup_props(&dev, &spidev, "ad5766", NULL, 0, AD_CS, range_m20)) {
		CU_FAIL(dev.err);
		return;
	}
	for (r = 0; r < NROWS(rows); r++) {
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, 0, &rows[r].fault) == 0, rows[r].name);
		TEST_ROW_ASSERT(sensortest_write(dev.dev, "out_voltage1_raw", "1234") == rows[r].err,
				rows[r].name);
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, 0, &none) == 0, rows[r].name);
		TEST_ROW_ASSERT(sensortest_write(dev.dev, "out_voltage1_raw", "4321") == 0 &&
				raw(dev.dev, 1) == 4321, rows[r].name);
	}
	shimsensor_teardown(&dev);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_faults, "faults through spidev: the -errno, then the next write works");

TEST_MAIN("shim_ad5766", NULL, NULL)
