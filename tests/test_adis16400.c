/*
 * test_adis16400.c - the adis16400 driver against its chip model on an
 * emulated SPI bus, part by part: the kernel's attribute sets, value formats
 * of scales, offsets, labels and rates, raw values for known inputs
 * (negative and clipped ones too) with the new-data/error flags masked,
 * calibbias, sampling_frequency and low-pass writes with their read-back and
 * register effect, the SPI clock the driver picks, PRODUCT_ID and
 * power-up checks, bus faults with recovery, and power-down at removal.
 * Expected raw values are the inputs divided by the datasheet sensitivity,
 * rounded. The bus clock is frozen: only the driver's waits move it.
 */
#include <errno.h>
#include <string.h>

#include "testutil.h"
#include "sensorsuite.h"
#include "chipsuite.h"

#define ADIS_CS			1
#define ADIS_SENS_AVG		0x38
#define ADIS_SMPL_PRD		0x36
#define ADIS_SLP_CNT		0x3a
#define ADIS_XGYRO_OUT		0x04
#define ADIS_XGYRO_OFF		0x1a

#define ONE_G			9.80665
/* the low-pass attributes by type */
#define LPF_ACCEL		"in_accel_filter_low_pass_3db_frequency"
#define LPF_GYRO		"in_anglvel_filter_low_pass_3db_frequency"
#define LPF_MAGN		"in_magn_filter_low_pass_3db_frequency"
#define LPF_TEMP		"in_temp_filter_low_pass_3db_frequency"

/* ---- expected attribute sets (in the kernel's names) ---- */

#define DEV_ATTRS	"name", "current_timestamp_clock", "sampling_frequency"
#define SUPPLY_ATTRS	"in_voltage0_supply_raw", "in_voltage0_supply_scale", \
			"in_voltage0_supply_label"
#define AUX_ATTRS	"in_voltage1_raw", "in_voltage1_scale"
#define GYRO_X_ATTRS	"in_anglvel_x_raw", "in_anglvel_x_calibbias", "in_anglvel_scale", \
			"in_anglvel_filter_low_pass_3db_frequency"
#define GYRO_ATTRS	GYRO_X_ATTRS, "in_anglvel_y_raw", "in_anglvel_z_raw", \
			"in_anglvel_y_calibbias", "in_anglvel_z_calibbias"
#define ACCEL_ATTRS	"in_accel_x_raw", "in_accel_y_raw", "in_accel_z_raw", \
			"in_accel_x_calibbias", "in_accel_y_calibbias", "in_accel_z_calibbias", \
			"in_accel_scale", "in_accel_filter_low_pass_3db_frequency"
#define MAGN_ATTRS	"in_magn_x_raw", "in_magn_y_raw", "in_magn_z_raw", "in_magn_scale", \
			"in_magn_filter_low_pass_3db_frequency"
#define TEMP_ATTRS	"in_temp0_raw", "in_temp0_offset", "in_temp0_scale"
#define TEMP3_ATTRS	"in_temp0_x_raw", "in_temp0_x_offset", "in_temp0_x_scale", \
			"in_temp0_x_label", "in_temp0_y_raw", "in_temp0_y_offset", \
			"in_temp0_y_scale", "in_temp0_y_label", "in_temp0_z_raw", \
			"in_temp0_z_offset", "in_temp0_z_scale", "in_temp0_z_label", \
			"in_temp_filter_low_pass_3db_frequency"
#define INCLI_ATTRS	"in_incli_x_raw", "in_incli_y_raw", "in_incli_scale"
#define BARO_ATTRS	"in_pressure_raw", "in_pressure_scale"

static const char *const attrs_16400[] = {
	DEV_ATTRS, SUPPLY_ATTRS, GYRO_ATTRS, ACCEL_ATTRS, MAGN_ATTRS, TEMP_ATTRS, AUX_ATTRS, NULL
};
static const char *const attrs_16350[] = {
	DEV_ATTRS, SUPPLY_ATTRS, GYRO_ATTRS, ACCEL_ATTRS, MAGN_ATTRS, AUX_ATTRS, TEMP3_ATTRS, NULL
};
static const char *const attrs_16300[] = {
	DEV_ATTRS, SUPPLY_ATTRS, GYRO_X_ATTRS, ACCEL_ATTRS, TEMP_ATTRS, AUX_ATTRS, INCLI_ATTRS, NULL
};
static const char *const attrs_16334[] = { DEV_ATTRS, GYRO_ATTRS, ACCEL_ATTRS, TEMP_ATTRS, NULL };
static const char *const attrs_16448[] = {
	DEV_ATTRS, GYRO_ATTRS, ACCEL_ATTRS, MAGN_ATTRS, BARO_ATTRS, TEMP_ATTRS, NULL
};

/* Set up one part with up to four constant inputs; asserts the setup worked. */
struct adis_in {
	const char *key;
	double value;
};

static bool adis_setup(struct sensortest *st, const char *part, const struct adis_in *ins,
		       const char *row)
{
	struct emu_input in[4];
	int n = 0, ret;

	while (ins && n < 4 && ins[n].key) {
		in[n] = (struct emu_input)SENSORTEST_CONST(ins[n].key, ins[n].value);
		n++;
	}
	ret = sensortest_setup(st, BUS_SPI, part, ADIS_CS, in, n, NULL, 0.0);
	TEST_ROW_ASSERT(ret == 0, row);
	if (ret)
		TEST_ROW_ASSERT(0, st->err);
	return ret == 0;
}

/* A 16-bit register read through a second SPI device on the same chip select. */
static int adis_peek(struct sensortest *st, uint8_t reg)
{
	uint8_t tx[2] = { reg, 0 }, rx[2] = { 0, 0 };
	const struct bus_spi_transfer x[] = {
		{ .tx_buf = tx, .len = 2, .cs_change = 1 },
		{ .rx_buf = rx, .len = 2 },
	};
	struct bus_spi_device *spi;
	int ret;

	ret = bus_spi_device_create(st->bus, ADIS_CS, &spi);
	if (ret < 0)
		return ret;
	spi->max_speed_hz = 300000;	/* slow enough in every mode */
	ret = bus_spi_sync(spi, x, 2);
	bus_spi_device_destroy(spi);
	return ret < 0 ? ret : (rx[0] << 8) | rx[1];
}

/* One byte written to a register through a second SPI device (a write frame). */
static int adis_poke(struct sensortest *st, uint8_t reg, uint8_t val)
{
	uint8_t tx[2] = { (uint8_t)(0x80 | reg), val };
	struct bus_spi_device *spi;
	int ret;

	ret = bus_spi_device_create(st->bus, ADIS_CS, &spi);
	if (ret < 0)
		return ret;
	spi->max_speed_hz = 300000;
	ret = bus_spi_write(spi, tx, 2);
	bus_spi_device_destroy(spi);
	return ret;
}

static const char *const all_parts[] = {
	"adis16300", "adis16305", "adis16334", "adis16350", "adis16354", "adis16355",
	"adis16360", "adis16362", "adis16364", "adis16365", "adis16367", "adis16400",
	"adis16405", "adis16445", "adis16448",
};

static void test_attr_sets(void)
{
	static const struct {
		const char *part;
		const char *const *attrs;
	} rows[] = {
		{ "adis16300", attrs_16300 }, { "adis16305", attrs_16300 },
		{ "adis16334", attrs_16334 }, { "adis16350", attrs_16350 },
		{ "adis16354", attrs_16350 }, { "adis16355", attrs_16350 },
		{ "adis16360", attrs_16350 }, { "adis16362", attrs_16350 },
		{ "adis16364", attrs_16350 }, { "adis16365", attrs_16350 },
		{ "adis16367", attrs_16350 }, { "adis16400", attrs_16400 },
		{ "adis16405", attrs_16400 }, { "adis16445", attrs_16334 },
		{ "adis16448", attrs_16448 },
	};
	struct sensortest st;
	char why[128], buf[64], want[64];
	const struct iio_attr *a;
	size_t i;
	int j, n;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!adis_setup(&st, rows[i].part, NULL, rows[i].part))
			continue;
		TEST_ROW_ASSERT(sensortest_same_attrs(st.dev, rows[i].attrs, why, sizeof(why)),
				rows[i].part);
		if (why[0])
			TEST_ROW_ASSERT(0, why);
		snprintf(want, sizeof(want), "%s\n", rows[i].part);
		TEST_ROW_ASSERT(sensortest_read(st.dev, "name", buf, sizeof(buf)) > 0 &&
				strcmp(buf, want) == 0, rows[i].part);
		/* every info attribute is 0644 as in the kernel; labels and name 0444 */
		n = iio_device_attr_count(st.dev);
		for (j = 0; j < n; j++) {
			a = iio_device_attr_at(st.dev, j);
			if (a->kind == IIO_ATTR_INFO)
				TEST_ROW_ASSERT(a->mode == 0644, a->name);
			else if (a->kind == IIO_ATTR_LABEL || a->kind == IIO_ATTR_DEV_NAME)
				TEST_ROW_ASSERT(a->mode == 0444, a->name);
		}
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_attr_sets, "attribute set per part");

/* Scales, offsets, labels and default rates as the files read. */
static void test_formats(void)
{
	static const struct {
		const char *part;
		const char *attr;
		const char *text;
	} rows[] = {
		{ "adis16400", "in_anglvel_scale", "0.000873\n" },
		{ "adis16400", "in_accel_scale", "0.032685\n" },
		{ "adis16400", "in_magn_scale", "0.000500\n" },
		{ "adis16400", "in_temp0_scale", "140.000000\n" },
		{ "adis16400", "in_temp0_offset", "178\n" },
		{ "adis16400", "in_voltage0_supply_scale", "2.418000\n" },
		{ "adis16400", "in_voltage0_supply_label", "supply\n" },
		{ "adis16400", "in_voltage1_scale", "0.805800\n" },
		{ "adis16400", "sampling_frequency", "819.202000\n" },
		{ "adis16400", "in_anglvel_filter_low_pass_3db_frequency", "68.266000\n" },
		{ "adis16400", "in_magn_filter_low_pass_3db_frequency", "68.266000\n" },
		{ "adis16405", "in_accel_scale", "0.032685\n" },
		{ "adis16300", "in_anglvel_scale", "0.000873\n" },
		{ "adis16300", "in_accel_scale", "0.005884\n" },
		{ "adis16300", "in_temp0_offset", "178\n" },
		{ "adis16300", "in_incli_scale", "0.044000\n" },
		{ "adis16334", "in_accel_scale", "0.009806\n" },
		{ "adis16334", "in_temp0_scale", "67.850000\n" },
		{ "adis16334", "in_temp0_offset", "368\n" },
		{ "adis16334", "sampling_frequency", "819.200000\n" },
		{ "adis16350", "in_anglvel_scale", "0.001279\n" },
		{ "adis16350", "in_accel_scale", "0.024732\n" },
		{ "adis16350", "in_temp0_x_scale", "145.300000\n" },
		{ "adis16350", "in_temp0_z_offset", "172\n" },
		{ "adis16350", "in_temp0_y_label", "y\n" },
		{ "adis16360", "in_accel_scale", "0.032685\n" },
		{ "adis16360", "in_temp0_x_scale", "136.000000\n" },
		{ "adis16360", "in_temp0_x_offset", "183\n" },
		{ "adis16360", "in_temp_filter_low_pass_3db_frequency", "68.266000\n" },
		{ "adis16362", "in_accel_scale", "0.003265\n" },
		{ "adis16364", "in_accel_scale", "0.009806\n" },
		/* 0.2 deg/s; the kernel's constant gives 0.000035 */
		{ "adis16367", "in_anglvel_scale", "0.003491\n" },
		{ "adis16445", "in_anglvel_scale", "0.000175\n" },
		{ "adis16445", "in_accel_scale", "0.002451\n" },
		{ "adis16445", "in_temp0_scale", "73.860000\n" },
		{ "adis16445", "in_temp0_offset", "419\n" },
		{ "adis16448", "in_anglvel_scale", "0.000698\n" },
		{ "adis16448", "in_accel_scale", "0.008168\n" },
		{ "adis16448", "in_pressure_scale", "0.002000\n" },
		{ "adis16448", "in_temp0_offset", "419\n" },
		{ "adis16448", "sampling_frequency", "819.200000\n" },
	};
	struct sensortest st;
	char buf[SENSORTEST_VALUE_MAX];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!adis_setup(&st, rows[i].part, NULL, rows[i].attr))
			continue;
		TEST_ROW_ASSERT(sensortest_read(st.dev, rows[i].attr, buf, sizeof(buf)) > 0 &&
				strcmp(buf, rows[i].text) == 0, rows[i].attr);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_formats, "scale, offset, label and rate formats");

/* Raw values for known inputs (ABI units: rad/s, m/s^2, gauss, m degC, mV, deg, kPa). */
static void test_raw_values(void)
{
	static const struct {
		const char *name;
		const char *part;
		const char *key;
		double value;
		const char *attr;
		long raw;
	} rows[] = {
		{ "gyro +1 rad/s", "adis16400", "anglvel_x", 1.0, "in_anglvel_x_raw", 1146 },
		{ "gyro -1 rad/s", "adis16400", "anglvel_y", -1.0, "in_anglvel_y_raw", -1146 },
		{ "gyro clips high", "adis16400", "anglvel_z", 100.0, "in_anglvel_z_raw", 8191 },
		{ "gyro clips low", "adis16400", "anglvel_z", -100.0, "in_anglvel_z_raw", -8192 },
		{ "accel 1 g", "adis16400", "accel_z", ONE_G, "in_accel_z_raw", 300 },
		{ "accel -2 g", "adis16400", "accel_x", -2 * ONE_G, "in_accel_x_raw", -600 },
		{ "magn 0.25 G", "adis16400", "magn_x", 0.25, "in_magn_x_raw", 500 },
		{ "magn -0.5 G", "adis16400", "magn_y", -0.5, "in_magn_y_raw", -1000 },
		{ "temp 30 C", "adis16400", "temp0", 30000, "in_temp0_raw", 36 },
		{ "temp 20 C", "adis16400", "temp0", 20000, "in_temp0_raw", -36 },
		{ "temp 25 C is code 0", "adis16405", "temp0", 25000, "in_temp0_raw", 0 },
		{ "supply 5 V", "adis16400", "voltage0_supply", 5000, "in_voltage0_supply_raw",
		  2068 },
		{ "aux 1 V", "adis16400", "voltage1", 1000, "in_voltage1_raw", 1241 },
		{ "aux negative reads 0", "adis16400", "voltage1", -5, "in_voltage1_raw", 0 },
		{ "aux clips at 4095", "adis16400", "voltage1", 5000, "in_voltage1_raw", 4095 },
		{ "16300 gyro", "adis16300", "anglvel_x", 1.0, "in_anglvel_x_raw", 1146 },
		{ "16300 accel 1 g", "adis16300", "accel_y", ONE_G, "in_accel_y_raw", 1667 },
		{ "16300 pitch 10 deg", "adis16300", "incli_x", 10, "in_incli_x_raw", 227 },
		{ "16300 roll -45 deg", "adis16300", "incli_y", -45, "in_incli_y_raw", -1023 },
		{ "16300 supply 12-bit", "adis16300", "voltage0_supply", 5000,
		  "in_voltage0_supply_raw", 2068 },
		{ "16334 accel 1 g", "adis16334", "accel_z", ONE_G, "in_accel_z_raw", 1000 },
		{ "16334 temp 30 C", "adis16334", "temp0", 30000, "in_temp0_raw", 74 },
		{ "16350 gyro", "adis16350", "anglvel_x", 1.0, "in_anglvel_x_raw", 782 },
		{ "16350 accel", "adis16354", "accel_x", ONE_G, "in_accel_x_raw", 397 },
		{ "16350 temp x", "adis16355", "temp0_x", 30000, "in_temp0_x_raw", 34 },
		{ "16360 temp y", "adis16360", "temp0_y", 30000, "in_temp0_y_raw", 37 },
		{ "16360 temp z negative", "adis16365", "temp0_z", 20000, "in_temp0_z_raw", -37 },
		/* magn shares the temperature registers: a 12-bit code read as 14 bits */
		{ "16360 magn shows temp x", "adis16360", "temp0_x", 30000, "in_magn_x_raw", 37 },
		{ "16360 magn shows -37 as 4059", "adis16360", "temp0_x", 20000, "in_magn_x_raw",
		  4059 },
		{ "16362 accel 2 g", "adis16362", "accel_y", 2 * ONE_G, "in_accel_y_raw", 6006 },
		{ "16364 accel 1 g", "adis16364", "accel_z", ONE_G, "in_accel_z_raw", 1000 },
		{ "16367 gyro -10 rad/s", "adis16367", "anglvel_z", -10, "in_anglvel_z_raw",
		  -2865 },
		{ "16445 gyro 16-bit", "adis16445", "anglvel_x", 1.0, "in_anglvel_x_raw", 5730 },
		{ "16445 accel -1 g", "adis16445", "accel_x", -ONE_G, "in_accel_x_raw", -4000 },
		{ "16445 temp 40 C", "adis16445", "temp0", 40000, "in_temp0_raw", 122 },
		{ "16448 gyro", "adis16448", "anglvel_y", 1.0, "in_anglvel_y_raw", 1432 },
		{ "16448 accel", "adis16448", "accel_z", ONE_G, "in_accel_z_raw", 1200 },
		{ "16448 magn", "adis16448", "magn_z", 0.25, "in_magn_z_raw", 500 },
		/* unsigned, so sea-level pressure does not read negative */
		{ "16448 pressure 100 kPa", "adis16448", "pressure", 100, "in_pressure_raw",
		  50000 },
		{ "16448 temp 20 C", "adis16448", "temp0", 20000, "in_temp0_raw", -149 },
	};
	struct sensortest st;
	long raw = 0;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct adis_in in[] = { { rows[i].key, rows[i].value }, { NULL, 0 } };

		if (!adis_setup(&st, rows[i].part, in, rows[i].name))
			continue;
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, rows[i].attr, &raw) == 0 &&
				raw == rows[i].raw, rows[i].name);
		/* a second read (no new data since) gives the same value */
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, rows[i].attr, &raw) == 0 &&
				raw == rows[i].raw, rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_raw_values, "raw values for known inputs");

/*
 * The data words carry ND (bit 15, a sample newer than the last read) and,
 * while DIAG_STAT shows an error, EA (bit 14); the driver drops both. The
 * diagnostic flag comes on after probe (a stepped trace), as probe itself
 * refuses a chip with flags up.
 */
static void test_flags(void)
{
	static double t[] = { 0, 100, 100.001, 1e6 };
	static double diag[] = { 0, 0, 0x0010, 0x0010 };
	struct emu_input in[] = {
		SENSORTEST_CONST("anglvel_x", 1.0),
		SENSORTEST_CONST("anglvel_y", -1.0),
		{ .key = "diag_stat",
		  .sig = { .kind = EMU_SIGNAL_CSV, .csv_t = t, .csv_v = diag, .csv_n = 4 } },
	};
	struct sensortest st;
	long raw = 0;

	if (sensortest_setup(&st, BUS_SPI, "adis16400", ADIS_CS, in, 3, NULL, 0.0) != 0) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	/* first look: new data, no error */
	CU_ASSERT_EQUAL(adis_peek(&st, ADIS_XGYRO_OUT), 0x8000 | 1146);
	CU_ASSERT_EQUAL(adis_peek(&st, ADIS_XGYRO_OUT), 1146);
	/* a negative sample with ND set must still read negative */
	CU_ASSERT(sensortest_read_int(st.dev, "in_anglvel_y_raw", &raw) == 0 && raw == -1146);
	/* a sample period later (819 SPS) there is new data again */
	emu_bus_set_time(st.bus, 0.5);
	CU_ASSERT(sensortest_read_int(st.dev, "in_anglvel_x_raw", &raw) == 0 && raw == 1146);
	/* overrange flagged: EA in every word, values unchanged */
	emu_bus_set_time(st.bus, 150);
	CU_ASSERT_EQUAL(adis_peek(&st, 0x3c), 0x0010);
	CU_ASSERT_EQUAL(adis_peek(&st, ADIS_XGYRO_OUT), 0xc000 | 1146);
	CU_ASSERT_EQUAL(adis_peek(&st, ADIS_XGYRO_OUT), 0x4000 | 1146);
	CU_ASSERT(sensortest_read_int(st.dev, "in_anglvel_x_raw", &raw) == 0 && raw == 1146);
	CU_ASSERT(sensortest_read_int(st.dev, "in_anglvel_y_raw", &raw) == 0 && raw == -1146);
	sensortest_teardown(&st);
}
TEST_CASE(test_flags, "new-data and error flags are masked");

/*
 * calibbias: the integer part, stored as 16 bits without a range check and
 * read back as 12-bit two's complement (3000 comes back as -1096), as the
 * kernel does. The chip adds it to the output.
 */
static void test_calibbias(void)
{
	static const struct {
		const char *name;
		const char *part;
		const char *attr;
		const char *text;
		int ret;
		long readback;
		const char *raw_attr;	/* input 0 there: raw == the bias */
		long raw;
	} rows[] = {
		{ "default 0", "adis16400", "in_accel_x_calibbias", NULL, 0, 0, "in_accel_x_raw",
		  0 },
		{ "accel +100", "adis16400", "in_accel_x_calibbias", "100", 0, 100,
		  "in_accel_x_raw", 100 },
		{ "gyro -5", "adis16400", "in_anglvel_z_calibbias", "-5", 0, -5,
		  "in_anglvel_z_raw", -5 },
		{ "fraction dropped", "adis16400", "in_accel_y_calibbias", "1.9", 0, 1,
		  "in_accel_y_raw", 1 },
		{ "-0.5 is 0", "adis16400", "in_accel_y_calibbias", "-0.5", 0, 0,
		  "in_accel_y_raw", 0 },
		{ "3000 wraps to -1096", "adis16400", "in_anglvel_x_calibbias", "3000", 0, -1096,
		  "in_anglvel_x_raw", -1096 },
		{ "2047 largest", "adis16334", "in_accel_z_calibbias", "2047", 0, 2047,
		  "in_accel_z_raw", 2047 },
		{ "-2048 smallest", "adis16448", "in_anglvel_y_calibbias", "-2048", 0, -2048,
		  "in_anglvel_y_raw", -2048 },
		{ "16300 gyro x", "adis16300", "in_anglvel_x_calibbias", "7", 0, 7,
		  "in_anglvel_x_raw", 7 },
		{ "not a number", "adis16400", "in_accel_x_calibbias", "x", -EINVAL, 0,
		  "in_accel_x_raw", 0 },
	};
	struct sensortest st;
	long v = 0;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!adis_setup(&st, rows[i].part, NULL, rows[i].name))
			continue;
		if (rows[i].text)
			TEST_ROW_ASSERT(sensortest_write(st.dev, rows[i].attr, rows[i].text) ==
					rows[i].ret, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, rows[i].attr, &v) == 0 &&
				v == rows[i].readback, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, rows[i].raw_attr, &v) == 0 &&
				v == rows[i].raw, rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_calibbias, "calibbias write and read-back");

/*
 * sampling_frequency: the divider the kernel computes, the rate it reads
 * back, the SMPL_PRD the chip holds, and the SPI clock the driver runs at
 * (300 kHz in the low-power range). Data still reads right afterwards, which
 * the model only allows at a clock the chip follows.
 */
static void test_sampling_frequency(void)
{
	static const struct {
		const char *name;
		const char *part;
		const char *text;
		int ret;
		const char *readback;
		int smpl_prd;
		uint32_t sclk_hz;
	} rows[] = {
		{ "default", "adis16400", NULL, 0, "819.202000\n", 0x0001, 2000000 },
		{ "100 Hz", "adis16400", "100", 0, "102.400000\n", 0x000f, 300000 },
		{ "1 Hz (slow time base)", "adis16400", "1", 0, "0.997000\n", 0x00b4, 300000 },
		{ "0.01 Hz clips the divider", "adis16400", "0.01", 0, "0.412000\n", 0x00ff,
		  300000 },
		{ "819.2 Hz", "adis16400", "819.2", 0, "819.202000\n", 0x0001, 2000000 },
		{ "2 kHz: fastest", "adis16400", "2000", 0, "1638.404000\n", 0x0000, 2000000 },
		{ "200 Hz: divider 7", "adis16360", "200", 0, "204.800000\n", 0x0007, 2000000 },
		{ "zero refused", "adis16400", "0", -EINVAL, "819.202000\n", 0x0001, 2000000 },
		{ "negative refused", "adis16400", "-5", -EINVAL, "819.202000\n", 0x0001, 2000000 },
		{ "16334: 100 Hz", "adis16334", "100", 0, "102.400000\n", 0x0301, 2000000 },
		{ "16334: 1 Hz", "adis16334", "1", 0, "1.600000\n", 0x0901, 2000000 },
		{ "16334: 1 mHz", "adis16334", "0.001", 0, "0.001000\n", 0x1301, 2000000 },
		{ "16448: 1 kHz", "adis16448", "1000", 0, "819.200000\n", 0x0001, 2000000 },
	};
	struct emu_input in[] = { SENSORTEST_CONST("accel_z", ONE_G) };
	struct sensortest st;
	char buf[SENSORTEST_VALUE_MAX];
	long raw = 0, want;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (sensortest_setup(&st, BUS_SPI, rows[i].part, ADIS_CS, in, 1, NULL, 0.0) != 0) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		if (rows[i].text)
			TEST_ROW_ASSERT(sensortest_write(st.dev, "sampling_frequency", rows[i].text)
					== rows[i].ret, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read(st.dev, "sampling_frequency", buf,
						sizeof(buf)) > 0 &&
				strcmp(buf, rows[i].readback) == 0, rows[i].name);
		TEST_ROW_ASSERT(adis_peek(&st, ADIS_SMPL_PRD) == rows[i].smpl_prd, rows[i].name);
		TEST_ROW_ASSERT(iio_device_spi(st.dev)->max_speed_hz == rows[i].sclk_hz,
				rows[i].name);
		want = strcmp(rows[i].part, "adis16400") == 0 ? 300 :
		       strcmp(rows[i].part, "adis16334") == 0 ? 1000 :
		       strcmp(rows[i].part, "adis16448") == 0 ? 1200 : 300;
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_accel_z_raw", &raw) == 0 &&
				raw == want, rows[i].name);
		/* and back to full speed: the write itself must reach a low-power chip */
		TEST_ROW_ASSERT(sensortest_write(st.dev, "sampling_frequency", "819.2") == 0,
				rows[i].name);
		TEST_ROW_ASSERT(iio_device_spi(st.dev)->max_speed_hz == 2000000, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_accel_z_raw", &raw) == 0 &&
				raw == want, rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_sampling_frequency, "sampling_frequency and SPI clock");

/*
 * Low-pass: one SENS_AVG setting serves every *_filter_low_pass_3db_frequency;
 * 3 dB = rate / {2, 6, 12, 25, 50, 100, 200, 200}[SENS_AVG & 7]. A write
 * picks the largest averaging that still reaches the request (setting 7
 * whenever rate/200 does) and keeps SENS_AVG's upper bits.
 */
static void test_low_pass(void)
{
	static const struct {
		const char *name;
		const char *part;
		const char *rate;	/* sampling_frequency written first, or NULL */
		const char *attr;
		const char *text;
		const char *readback;
		int sens_avg;
	} rows[] = {
		{ "default", "adis16400", NULL, LPF_ACCEL, NULL, "68.266000\n", 0x0402 },
		{ "10 Hz", "adis16400", NULL, LPF_GYRO, "10", "16.384000\n", 0x0404 },
		{ "1 Hz: setting 7", "adis16400", NULL, LPF_MAGN, "1", "4.096000\n", 0x0407 },
		{ "100 Hz", "adis16400", NULL, LPF_ACCEL, "100", "136.533000\n", 0x0401 },
		{ "500 Hz: setting 0", "adis16400", NULL, LPF_ACCEL, "500", "409.601000\n", 0x400 },
		{ "after a rate change", "adis16400", "100", LPF_ACCEL, "4", "4.096000\n", 0x403 },
		{ "temperature shares it", "adis16360", NULL, LPF_TEMP, "30", "32.768000\n",
		  0x403 },
		{ "16334 style rate", "adis16334", "100", LPF_GYRO, "2", "2.048000\n", 0x0404 },
	};
	struct sensortest st;
	char buf[SENSORTEST_VALUE_MAX];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!adis_setup(&st, rows[i].part, NULL, rows[i].name))
			continue;
		if (rows[i].rate)
			TEST_ROW_ASSERT(sensortest_write(st.dev, "sampling_frequency",
							 rows[i].rate) == 0, rows[i].name);
		if (rows[i].text)
			TEST_ROW_ASSERT(sensortest_write(st.dev, rows[i].attr, rows[i].text) == 0,
					rows[i].name);
		TEST_ROW_ASSERT(sensortest_read(st.dev, rows[i].attr, buf, sizeof(buf)) > 0 &&
				strcmp(buf, rows[i].readback) == 0, rows[i].name);
		TEST_ROW_ASSERT(adis_peek(&st, ADIS_SENS_AVG) == rows[i].sens_avg, rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_low_pass, "low-pass filter");

/* Attributes the kernel makes 0644 but refuses to write, and read-only ones. */
static void test_refused_writes(void)
{
	static const struct {
		const char *part;
		const char *attr;
		int ret;
	} rows[] = {
		{ "adis16400", "in_anglvel_scale", -EINVAL },
		{ "adis16400", "in_accel_x_raw", -EINVAL },
		{ "adis16400", "in_temp0_offset", -EINVAL },
		{ "adis16400", "in_voltage0_supply_scale", -EINVAL },
		{ "adis16400", "in_voltage0_supply_label", -EACCES },
		{ "adis16400", "name", -EACCES },
		{ "adis16300", "in_incli_scale", -EINVAL },
		{ "adis16448", "in_pressure_raw", -EINVAL },
	};
	struct sensortest st;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!adis_setup(&st, rows[i].part, NULL, rows[i].attr))
			continue;
		TEST_ROW_ASSERT(sensortest_write(st.dev, rows[i].attr, "1") == rows[i].ret,
				rows[i].attr);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_refused_writes, "refused writes");

/*
 * PRODUCT_ID: a chip that reads another part number is refused (the kernel
 * only warns), naming bus and chip select; parts without the register
 * (1635x) do not look at it.
 */
static void test_product_id(void)
{
	static const struct {
		const char *name;
		const char *part;
		double product_id;	/* < 0: the part's own */
		int ret;
		const char *msg;
	} rows[] = {
		{ "own id", "adis16400", -1, 0, NULL },
		{ "16405 said to be 16400", "adis16400", 16405, -ENODEV,
		  "PRODUCT_ID reads 16405 (0x4015), expected 16400" },
		{ "16400 said to be 16405", "adis16405", 16400, -ENODEV, "expected 16405" },
		{ "reads zero", "adis16448", 0, -ENODEV, "PRODUCT_ID reads 0 (0x0000)" },
		{ "16334 own id", "adis16334", -1, 0, NULL },
		{ "16350 has no PRODUCT_ID", "adis16350", 1234, 0, NULL },
	};
	struct sensortest st;
	int n, ret;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct emu_input in[] = { SENSORTEST_CONST("product_id", rows[i].product_id) };

		n = rows[i].product_id >= 0 ? 1 : 0;
		ret = sensortest_setup(&st, BUS_SPI, rows[i].part, ADIS_CS, in, n, NULL, 0.0);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		if (ret == 0) {
			sensortest_teardown(&st);
			continue;
		}
		TEST_ROW_ASSERT(strstr(st.err, "at spi0 chip select 1") != NULL, rows[i].name);
		TEST_ROW_ASSERT(rows[i].msg && strstr(st.err, rows[i].msg) != NULL, rows[i].name);
	}
}
TEST_CASE(test_product_id, "product id check");

/* Power-up self test: any DIAG_STAT error bit refuses the chip, listing what failed. */
static void test_power_up(void)
{
	static const struct {
		const char *name;
		double diag;
		int ret;
		const char *msg;
	} rows[] = {
		{ "clean", 0, 0, NULL },
		{ "bit 7 is not an error", 0x0080, 0, NULL },
		{ "self test", 0x0020, -EIO, "DIAG_STAT 0x0020 (self test)" },
		{ "flash and supply", 0x0041, -EIO, "flash checksum, supply below 4.75 V" },
		{ "gyro", 0x1000, -EIO, "X gyro self-test" },
	};
	struct sensortest st;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct emu_input in[] = { SENSORTEST_CONST("diag_stat", rows[i].diag) };

		ret = sensortest_setup(&st, BUS_SPI, "adis16362", ADIS_CS, in, 1, NULL, 0.0);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		if (ret == 0) {
			sensortest_teardown(&st);
			continue;
		}
		TEST_ROW_ASSERT(strstr(st.err, "adis16362 at spi0 chip select 1") != NULL,
				rows[i].name);
		TEST_ROW_ASSERT(rows[i].msg && strstr(st.err, rows[i].msg) != NULL, rows[i].name);
	}
}
TEST_CASE(test_power_up, "power-up self test");

/* Faults at each probe step: the probe fails with the bus's error, naming the device. */
static void test_probe_faults(void)
{
	static const struct sensorsuite_probe at = { BUS_SPI, 2, "adis16400", ADIS_CS,
							       "adis16400 at spi2 chip select 1" };
	static const struct sensorsuite_probe_row rows[] = {
		{ "no chip", false, { EMU_FAULT_NONE, 0, 0, 0 }, -ENXIO, "no answer during reset" },
		{ "reset NACKed", true, { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO, "no answer" },
		{ "self test EIO", true, { EMU_FAULT_EIO, 1, 0, 0 }, -EIO, "no answer" },
		{ "DIAG_STAT hangs", true, { EMU_FAULT_HANG, 2, 0, 20 }, -ETIMEDOUT, "no answer" },
		{ "MSC_CTRL write fails", true, { EMU_FAULT_EIO, 4, 0, 0 }, -EIO, "no answer" },
		{ "PRODUCT_ID read fails", true, { EMU_FAULT_EIO, 5, 0, 0 }, -EIO,
		  "reading PRODUCT_ID failed" },
		{ "SMPL_PRD read fails", true, { EMU_FAULT_NACK, 6, 0, 0 }, -ENXIO,
		  "reading SMPL_PRD failed" },
	};

	sensorsuite_probe_faults(&at, rows, sizeof(rows) / sizeof(rows[0]));
}
TEST_CASE(test_probe_faults, "probe faults");

/* Faults on a bound device: each access fails with the bus's error, then recovers. */
static void test_faults(void)
{
	static const struct {
		const char *name;
		const char *attr;
		const char *write;	/* NULL: a read */
		struct emu_fault fault;
		int ret;
	} rows[] = {
		{ "raw NACK", "in_accel_z_raw", NULL, { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO },
		{ "raw EIO", "in_accel_z_raw", NULL, { EMU_FAULT_EIO, 0, 0, 0 }, -EIO },
		{ "raw hang", "in_accel_z_raw", NULL, { EMU_FAULT_HANG, 0, 0, 20 }, -ETIMEDOUT },
		{ "rate read", "sampling_frequency", NULL, { EMU_FAULT_EIO, 0, 0, 0 }, -EIO },
		{ "low-pass read, 2nd transfer", "in_accel_filter_low_pass_3db_frequency", NULL,
		  { EMU_FAULT_NACK, 1, 0, 0 }, -ENXIO },
		{ "calibbias write", "in_accel_z_calibbias", "5", { EMU_FAULT_EIO, 0, 0, 0 },
		  -EIO },
		{ "rate write", "sampling_frequency", "100", { EMU_FAULT_HANG, 0, 0, 20 },
		  -ETIMEDOUT },
		{ "low-pass write, 3rd transfer", "in_accel_filter_low_pass_3db_frequency", "10",
		  { EMU_FAULT_EIO, 2, 0, 0 }, -EIO },
	};
	static const struct emu_fault none = { EMU_FAULT_NONE, 0, 0, 0 };
	struct emu_input in[] = { SENSORTEST_CONST("accel_z", ONE_G) };
	struct sensortest st;
	long raw = 0;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (sensortest_setup(&st, BUS_SPI, "adis16400", ADIS_CS, in, 1, NULL, 0.0) != 0) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		TEST_ROW_ASSERT(emu_bus_set_fault(st.bus, ADIS_CS, &rows[i].fault) == 0,
				rows[i].name);
		if (rows[i].write) {
			ret = sensortest_write(st.dev, rows[i].attr, rows[i].write);
		} else {
			char buf[SENSORTEST_VALUE_MAX];

			ret = (int)sensortest_read(st.dev, rows[i].attr, buf, sizeof(buf));
		}
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		TEST_ROW_ASSERT(emu_bus_set_fault(st.bus, ADIS_CS, &none) == 0, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_accel_z_raw", &raw) == 0 &&
				raw == 300, rows[i].name);
		if (rows[i].write)
			TEST_ROW_ASSERT(sensortest_write(st.dev, rows[i].attr, rows[i].write) == 0,
					rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_faults, "bus faults and recovery");

/*
 * A chip whose flash holds a low-power rate (slow time base, small divider)
 * comes out of reset in it: probe must keep the 300 kHz clock (the kernel
 * looks only at the divider and would go to 2 MHz).
 */
static void test_probe_low_power_rate(void)
{
	struct emu_input in[] = { SENSORTEST_CONST("accel_z", ONE_G) };
	struct sensortest st;
	struct iio_dev *dev = NULL;
	char buf[SENSORTEST_VALUE_MAX];
	long raw = 0;

	if (sensortest_setup(&st, BUS_SPI, "adis16400", ADIS_CS, in, 1, NULL, 0.0) != 0) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "sampling_frequency", "10"), 0);
	CU_ASSERT_EQUAL(adis_peek(&st, ADIS_SMPL_PRD), 0x0085);
	CU_ASSERT_EQUAL(adis_poke(&st, 0x3e, 0x08), 0);	/* GLOB_CMD: flash update */
	iio_device_unregister(st.reg, st.dev);
	st.dev = NULL;
	CU_ASSERT_EQUAL(sensortest_probe(st.bus, st.reg, "adis16400", ADIS_CS, NULL, &dev,
					 st.err, sizeof(st.err)), 0);
	if (dev) {
		CU_ASSERT_EQUAL(iio_device_spi(dev)->max_speed_hz, 300000);
		CU_ASSERT(sensortest_read(dev, "sampling_frequency", buf, sizeof(buf)) > 0 &&
			  strcmp(buf, "8.808000\n") == 0);
		CU_ASSERT(sensortest_read_int(dev, "in_accel_z_raw", &raw) == 0 && raw == 300);
	}
	sensortest_teardown(&st);
}
TEST_CASE(test_probe_low_power_rate, "probe keeps the slow clock for a low-power rate");

/* Removal puts the chip to sleep: SLP_CNT power-off bit. */
static void test_remove(void)
{
	struct sensortest st;
	size_t i;

	for (i = 0; i < sizeof(all_parts) / sizeof(all_parts[0]); i++) {
		if (!adis_setup(&st, all_parts[i], NULL, all_parts[i]))
			continue;
		TEST_ROW_ASSERT(adis_peek(&st, ADIS_SLP_CNT) == 0, all_parts[i]);
		iio_device_unregister(st.reg, st.dev);
		st.dev = NULL;
		TEST_ROW_ASSERT(adis_peek(&st, ADIS_SLP_CNT) == 0x0100, all_parts[i]);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_remove, "removal powers down");

/* The model refuses inputs the part does not have, listing the valid ones. */
static void test_model_inputs(void)
{
	static const struct {
		const char *part;
		const char *key;
		int ret;
	} rows[] = {
		{ "adis16400", "magn_x", 0 },
		{ "adis16360", "magn_x", -EINVAL },	/* no magnetometer on 1636x */
		{ "adis16360", "temp0_x", 0 },
		{ "adis16400", "temp0_x", -EINVAL },
		{ "adis16300", "anglvel_y", -EINVAL },
		{ "adis16300", "incli_y", 0 },
		{ "adis16448", "pressure", 0 },
		{ "adis16445", "diag_stat", 0 },
	};
	struct emu_chip *chip = NULL;
	char err[SENSORTEST_ERR_MAX];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct emu_input in[] = { SENSORTEST_CONST(rows[i].key, 1) };

		err[0] = '\0';
		ret = sensortest_model_create(rows[i].part, in, 1, &chip, err, sizeof(err));
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].key);
		if (ret == 0)
			chip->ops->destroy(chip);
		else
			TEST_ROW_ASSERT(strstr(err, "valid: ") != NULL, rows[i].key);
	}
}
TEST_CASE(test_model_inputs, "model input keys");

/*
 * Buffered capture: a part without NO_BURST reads every output in one burst
 * (one transfer a scan, the kernel's) and the core hands each reader its
 * channels; the others (and set C, K-50) read each enabled register. Either
 * way a record's words are the chip's: masked to the channel's bits they are
 * the raw values read afterwards (the bus clock is frozen: same sample).
 */
struct capture_chan {
	int scan_index;
	const char *raw;
	int bits;
	bool is_signed;
};

struct capture_row {
	const char *part;
	struct adis_in in[4];
	struct capture_chan ch[3];
	unsigned long transfers;	/* per scan */
	const char *rate;		/* sampling_frequency written first, or NULL */
};

static const struct capture_row capture_rows[] = {
	{ "adis16400", { { "anglvel_y", -0.5 }, { "accel_z", ONE_G }, { "voltage1", 1200 } },
	  { { 2, "in_anglvel_y_raw", 14, true }, { 6, "in_accel_z_raw", 14, true },
	    { 16, "in_voltage1_raw", 12, false } }, 1 },
	/* a low-power rate: the device clock is 300 kHz, the burst must not be faster (K-51) */
	{ "adis16405", { { "magn_y", -0.2 }, { "temp0", 30000 } },
	  { { 8, "in_magn_y_raw", 14, true }, { 11, "in_temp0_raw", 12, true } }, 1, "10" },
	{ "adis16300", { { "anglvel_x", -2.0 }, { "incli_y", -3 }, { "temp0", 18000 } },
	  { { 1, "in_anglvel_x_raw", 14, true }, { 11, "in_temp0_raw", 12, true },
	    { 15, "in_incli_y_raw", 13, true } }, 1 },
	{ "adis16448", { { "accel_x", -0.3 }, { "magn_z", 0.3 }, { "pressure", 50 } },
	  { { 4, "in_accel_x_raw", 16, true }, { 9, "in_magn_z_raw", 16, true },
	    { 10, "in_pressure_raw", 16, true } }, 1 },
	{ "adis16445", { { "anglvel_z", 0.7 }, { "temp0", 20000 } },
	  { { 3, "in_anglvel_z_raw", 16, true }, { 11, "in_temp0_raw", 12, true } }, 1 },
	/* per register: one 2-frame message a channel */
	{ "adis16360", { { "accel_y", ONE_G }, { "temp0_y", 20000 } },
	  { { 5, "in_accel_y_raw", 14, true }, { 12, "in_temp0_y_raw", 12, true } }, 2 },
	{ "adis16334", { { "anglvel_x", 1.0 }, { "temp0", 30000 } },
	  { { 1, "in_anglvel_x_raw", 14, true }, { 11, "in_temp0_raw", 12, true } }, 2 },
};

/* The record's word @k, as the raw attribute shows it. */
static long capture_word(const uint8_t *rec, int k, const struct capture_chan *c)
{
	unsigned int w = ((unsigned int)rec[2 * k] << 8 | rec[2 * k + 1]) & ((1u << c->bits) - 1);

	if (c->is_signed && (w & (1u << (c->bits - 1))))
		return (long)w - (1L << c->bits);
	return (long)w;
}

static void capture_one(const struct capture_row *row)
{
	struct chipsuite_reader *r = calloc(1, sizeof(*r));
	unsigned long transfers[CHIPSUITE_CAPTURE_SCANS];
	struct sensortest st;
	uint64_t mask = 0;
	int i, k, n = 0;
	long raw = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (n < 3 && row->ch[n].raw)
		mask |= 1ULL << row->ch[n++].scan_index;
	if (!adis_setup(&st, row->part, row->in, row->part)) {
		free(r);
		return;
	}
	if (row->rate)
		TEST_ROW_ASSERT(sensortest_write(st.dev, "sampling_frequency", row->rate) == 0 &&
				iio_device_spi(st.dev)->max_speed_hz == 300000, row->part);
	TEST_ROW_ASSERT(chipsuite_capture_dev(st.reg, st.dev, mask, r, st.bus, ADIS_CS,
					      transfers) == CHIPSUITE_CAPTURE_SCANS, row->part);
	TEST_ROW_ASSERT(!r->lost && r->buf.layout.bytes == 16, row->part);
	for (i = 0; i < r->n && i < CHIPSUITE_CAPTURE_SCANS; i++) {
		TEST_ROW_ASSERT(transfers[i] == row->transfers, row->part);
		for (k = 0; k < n; k++) {
			TEST_ROW_ASSERT(sensortest_read_int(st.dev, row->ch[k].raw, &raw) == 0 &&
					capture_word(r->rec[i], k, &row->ch[k]) == raw &&
					raw != 0, row->ch[k].raw);
		}
	}
	sensortest_teardown(&st);
	free(r);
}

static void test_capture(void)
{
	size_t i;

	for (i = 0; i < sizeof(capture_rows) / sizeof(capture_rows[0]); i++)
		capture_one(&capture_rows[i]);
}
TEST_CASE(test_capture, "capture: one burst a scan where the kernel bursts, records as raw");

TEST_MAIN("adis16400", NULL, NULL)
