/*
 * test_shim_adis16400.c - the adis16400 driver through the real spidev
 * backend (SPI_IOC_MESSAGE ioctls) on the test shim's fake
 * /dev/spidev0.1, against the same chip model the emulated suite uses.
 *
 * What must hold: every attribute reads the same text through spidev as
 * through the emulated backend, for parts of each channel set; the node is
 * driven in SPI mode 3, 8-bit words, at the clock the driver picks (300 kHz
 * in the chip's low-power rates, 2 MHz otherwise); faults come back as the
 * same -errno and the next read is right; removal puts the chip to sleep; a
 * wrong PRODUCT_ID is refused naming bus and chip select; a buffered capture
 * (one burst a scan) gives the emulated run's record bytes; no fd stays open.
 * The shim's clock is real time (bus_msleep() sleeps on a real bus), so each
 * probe waits out the part's reset and self-test times.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "chipsuite.h"
#include "shim/shimsensor.h"

#define SHIM_NODE	SHIM_DIR "/spidev0.1"
#define ADIS_CS		1
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))
#define ONE_G		9.80665

/* The IMU on a fake /dev/spidev0.1, through the spidev backend. */
static const struct shimsensor spidev = { BUS_SPI, SHIM_NODE, 0, 0 };

static int shim_adis_setup(struct sensortest *st, const char *part, const struct emu_input *in,
			   int nin)
{
	return shimsensor_setup(st, &spidev, part, in, nin, ADIS_CS);
}

/* Inputs every part accepts some of; each row picks those its part has. */
static const struct emu_input inputs_16400[] = {
	SENSORTEST_CONST("anglvel_x", 1.0), SENSORTEST_CONST("anglvel_y", -0.5),
	SENSORTEST_CONST("accel_z", ONE_G), SENSORTEST_CONST("accel_x", -0.3),
	SENSORTEST_CONST("magn_y", -0.2), SENSORTEST_CONST("temp0", 31000),
	SENSORTEST_CONST("voltage0_supply", 5000), SENSORTEST_CONST("voltage1", 1200),
};
static const struct emu_input inputs_16300[] = {
	SENSORTEST_CONST("anglvel_x", -2.0), SENSORTEST_CONST("accel_y", ONE_G),
	SENSORTEST_CONST("incli_x", 12.5), SENSORTEST_CONST("incli_y", -3),
	SENSORTEST_CONST("temp0", 18000),
};
static const struct emu_input inputs_16360[] = {
	SENSORTEST_CONST("anglvel_z", 0.7), SENSORTEST_CONST("accel_z", -ONE_G),
	SENSORTEST_CONST("temp0_x", 30000), SENSORTEST_CONST("temp0_y", 20000),
};
static const struct emu_input inputs_16448[] = {
	SENSORTEST_CONST("anglvel_y", 1.0), SENSORTEST_CONST("accel_z", ONE_G),
	SENSORTEST_CONST("magn_x", 0.3), SENSORTEST_CONST("pressure", 100),
	SENSORTEST_CONST("temp0", 20000),
};

/*
 * Every attribute through both backends. sampling_frequency is also written
 * first, so both run in the low-power range (300 kHz) for half the rows.
 */
static void test_same_as_emulated(void)
{
	static const struct {
		const char *part;
		const struct emu_input *in;
		int nin;
		const char *rate;
		uint32_t speed_hz;
	} rows[] = {
		{ "adis16400", inputs_16400, (int)NROWS(inputs_16400), NULL, 2000000 },
		{ "adis16405", inputs_16400, (int)NROWS(inputs_16400), "1", 300000 },
		{ "adis16300", inputs_16300, (int)NROWS(inputs_16300), "50", 300000 },
		{ "adis16360", inputs_16360, (int)NROWS(inputs_16360), NULL, 2000000 },
		{ "adis16448", inputs_16448, (int)NROWS(inputs_16448), "100", 2000000 },
	};
	struct sensortest emu, dev;
	uint32_t mode, speed;
	uint8_t bits;
	size_t r;
	int n, compared;

	for (r = 0; r < NROWS(rows); r++) {
		if (sensortest_setup(&emu, BUS_SPI, rows[r].part, ADIS_CS, rows[r].in, rows[r].nin,
				     NULL, 0.0)) {
			TEST_ROW_ASSERT(0, emu.err);
			continue;
		}
		if (shim_adis_setup(&dev, rows[r].part, rows[r].in, rows[r].nin)) {
			TEST_ROW_ASSERT(0, dev.err);
			sensortest_teardown(&emu);
			continue;
		}
		if (rows[r].rate) {
			TEST_ROW_ASSERT(sensortest_write(emu.dev, "sampling_frequency",
							 rows[r].rate) == 0, rows[r].part);
			TEST_ROW_ASSERT(sensortest_write(dev.dev, "sampling_frequency",
							 rows[r].rate) == 0, rows[r].part);
		}
		n = iio_device_attr_count(emu.dev);
		TEST_ROW_ASSERT(iio_device_attr_count(dev.dev) == n, rows[r].part);
		compared = shimsensor_compare(emu.dev, dev.dev);
		TEST_ROW_ASSERT(compared > 10, rows[r].part);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_SPI_MESSAGE) > 0, rows[r].part);
		TEST_ROW_ASSERT(shim_spi_settings(SHIM_NODE, &mode, &speed, &bits) == 0 &&
				mode == 3 && bits == 8 && speed == rows[r].speed_hz, rows[r].part);
		shimsensor_teardown(&dev);
		sensortest_teardown(&emu);
		TEST_ROW_ASSERT(shim_open_fds() == 0, rows[r].part);
	}
}
TEST_CASE(test_same_as_emulated, "same text through spidev as emulated");

/* Faults on a bound device through spidev: the -errno, then a right value. */
static void test_faults(void)
{
	static const struct {
		const char *name;
		const char *attr;
		struct emu_fault fault;
		int err;
	} rows[] = {
		{ "NACK (no such chip select)", "in_accel_z_raw", { EMU_FAULT_NACK, 0, 0, 0 },
		  -ENXIO },
		{ "EIO", "in_accel_z_raw", { EMU_FAULT_EIO, 0, 0, 0 }, -EIO },
		{ "hang", "sampling_frequency", { EMU_FAULT_HANG, 0, 0, 20 }, -ETIMEDOUT },
		{ "EIO on the second register", "in_accel_filter_low_pass_3db_frequency",
		  { EMU_FAULT_EIO, 1, 0, 0 }, -EIO },
	};
	static const struct emu_fault none = { EMU_FAULT_NONE, 0, 0, 0 };
	struct emu_input in[] = { SENSORTEST_CONST("accel_z", ONE_G) };
	char buf[64];
	struct sensortest st;
	long v = -1;
	size_t r;

	if (shim_adis_setup(&st, "adis16400", in, 1)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	for (r = 0; r < NROWS(rows); r++) {
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, 0, &rows[r].fault) == 0, rows[r].name);
		TEST_ROW_ASSERT(sensortest_read(st.dev, rows[r].attr, buf, sizeof(buf)) ==
				rows[r].err, rows[r].name);
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, 0, &none) == 0, rows[r].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_accel_z_raw", &v) == 0 && v == 300,
				rows[r].name);
	}
	shimsensor_teardown(&st);
}
TEST_CASE(test_faults, "faults through spidev: error, then recovery");

/* Removal: SLP_CNT power-off, seen on the chip through a second device. */
static void test_remove_sleeps(void)
{
	uint8_t tx[2] = { 0x3a, 0 }, rx[2] = { 0, 0 };
	const struct bus_spi_transfer x[] = {
		{ .tx_buf = tx, .len = 2, .cs_change = 1 },
		{ .rx_buf = rx, .len = 2 },
	};
	struct bus_spi_device *spi;
	struct sensortest st;

	if (shim_adis_setup(&st, "adis16362", NULL, 0)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	iio_device_unregister(st.reg, st.dev);
	st.dev = NULL;
	CU_ASSERT_EQUAL_FATAL(bus_spi_device_create(st.bus, ADIS_CS, &spi), 0);
	spi->mode = 3;
	spi->max_speed_hz = 300000;
	CU_ASSERT_EQUAL(bus_spi_sync(spi, x, 2), 0);
	CU_ASSERT_EQUAL((rx[0] << 8) | rx[1], 0x0100);
	bus_spi_device_destroy(spi);
	shimsensor_teardown(&st);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_remove_sleeps, "removal puts the chip to sleep");

/* A chip that is another part: refused, naming bus and chip select. */
static void test_wrong_part(void)
{
	struct emu_input in[] = { SENSORTEST_CONST("product_id", 16448) };
	struct sensortest st;

	shimsensor_refused(&st, shim_adis_setup(&st, "adis16445", in, 1), -ENODEV,
			   "adis16445 at spi0 chip select 1: PRODUCT_ID reads 16448 (0x4040), "
			   "expected 16445");
}
TEST_CASE(test_wrong_part, "wrong part refused");

/*
 * A capture through spidev: the burst (a GLOB_CMD read frame, then the
 * reply with chip select held) crosses SPI_IOC_MESSAGE as one message, and
 * every record is byte for byte the emulated run's. The 16448's outputs
 * carry no new-data flag, so records do not depend on the shim's real clock.
 */
static void test_capture(void)
{
	struct chipsuite_reader *got = calloc(2, sizeof(*got)), *emu = got + 1;
	/* gyro y, accel z, magn x, pressure, temp: what inputs_16448 drives */
	const uint64_t mask = 0xcc4;
	struct sensortest st, ref;
	int k, n = (int)NROWS(inputs_16448);

	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	if (shim_adis_setup(&st, "adis16448", inputs_16448, n) == 0) {
		CU_ASSERT_EQUAL(chipsuite_capture_dev(st.reg, st.dev, mask, got, NULL, 0, NULL),
				CHIPSUITE_CAPTURE_SCANS);
	} else {
		CU_FAIL(st.err);
	}
	shimsensor_teardown(&st);
	if (sensortest_setup(&ref, BUS_SPI, "adis16448", ADIS_CS, inputs_16448, n, NULL,
			     0.0) == 0) {
		CU_ASSERT_EQUAL(chipsuite_capture_dev(ref.reg, ref.dev, mask, emu, NULL, 0, NULL),
				CHIPSUITE_CAPTURE_SCANS);
	} else {
		CU_FAIL(ref.err);
	}
	sensortest_teardown(&ref);
	/* five words, the timestamp 8-aligned after them */
	CU_ASSERT(got->buf.layout.bytes == 24 && emu->buf.layout.bytes == 24 && !got->lost);
	for (k = 0; k < got->n && k < CHIPSUITE_CAPTURE_SCANS; k++) {
		CU_ASSERT(memcmp(got->rec[k], emu->rec[k], 24) == 0);
		CU_ASSERT(memcmp(got->rec[k], "\0\0\0\0\0\0\0\0\0\0", 10) != 0);
	}
	free(got);
}
TEST_CASE(test_capture, "capture through spidev: one burst a scan, the emulated bytes");

TEST_MAIN("shim_adis16400", NULL, NULL)
