/*
 * test_bmp280.c - the bmp280 driver (bmp085/bmp180, bmp280, bme280, bmp380)
 * against its chip model on an emulated I2C bus: the kernel's attribute sets,
 * readings from the datasheets' worked examples, the oversampling files (each
 * listed ratio, the ones between and past them) and what they program, the
 * bmp380's rate and filter files and its refused settings, inputs in ABI
 * units through the model's inverted compensation, faults (bmp280_cases.h,
 * which test_shim_bmp280.c runs on i2c-dev too) and probes.
 * Expected numbers come from outside the driver: the BMP280 and BMP180
 * datasheets' examples (25.08 degC / 100653.27 Pa; 15.0 degC / 69964 Pa) and
 * what Linux 6.1 printed on the QEMU rig for the same registers
 * (tests/kernel-rig/bmp280.py: bme280 humidity, bmp380), which the integer
 * formulas give exactly where the datasheets print floating-point results.
 * Clocks are frozen, so only the driver's own waits move time.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "sensorsuite.h"

#define BMP_ADDR	0x76
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

/* the rig's presets: the datasheet's raw codes, and bme280/bmp380 codes of our choosing */
#define BMP280_ADC_T	519888
#define BMP280_ADC_P	415148
#define BME280_ADC_H	27000
#define BMP180_UT	27898
#define BMP180_UP	23843
#define BMP380_ADC_T	8300000
#define BMP380_ADC_P	6000000

/* the emulated bus, clock frozen; the cases the shim suite runs too */
static const struct sensorsuite_backend emulated = SENSORSUITE_EMULATED(BMP_ADDR);
#define BMP280_CASES_BACKEND	(&emulated)
#include "bmp280_cases.h"

static bool bmp_setup(struct sensortest *st, const char *part, const struct emu_input *in,
		      int nin)
{
	return sensorsuite_backend_up(&emulated, st, part, in, nin);
}

/* @name reads an integer within @tol of @want, one row assert */
static void bmp_expect_near(struct sensortest *st, const char *name, long want, long tol)
{
	long v = 0;
	int ret = sensortest_read_int(st->dev, name, &v);

	TEST_ROW_ASSERT_GOT(ret == 0 && labs(v - want) <= tol, name, "%d %ld, want %ld", ret, v,
			    want);
}

/* @name reads exactly @want ("25080\n"), one row assert */
static void bmp_expect(struct sensortest *st, const char *name, const char *want)
{
	char buf[SENSORTEST_VALUE_MAX];
	ssize_t n = sensortest_read(st->dev, name, buf, sizeof(buf));

	TEST_ROW_ASSERT_GOT(n > 0 && strcmp(buf, want) == 0, name, "%zd '%s', want '%s'", n, buf,
			    want);
}

/* a register of the chip, through a second client */
static int bmp_peek(struct sensortest *st, uint8_t reg)
{
	return sensortest_peer(st, bus_smbus_read_byte_data, reg);
}

/* Each part's files, as the 6.1 kernel shows them (QEMU rig): no _available files. */
static void test_attrs(void)
{
	static const char *const bmp280_attrs[] = {
		"name", "in_pressure_input", "in_pressure_oversampling_ratio", "in_temp_input",
		"in_temp_oversampling_ratio", NULL
	};
	static const char *const bme280_attrs[] = {
		"name", "in_pressure_input", "in_pressure_oversampling_ratio", "in_temp_input",
		"in_temp_oversampling_ratio", "in_humidityrelative_input",
		"in_humidityrelative_oversampling_ratio", NULL
	};
	static const char *const bmp380_attrs[] = {
		"name", "in_pressure_input", "in_pressure_oversampling_ratio", "in_temp_input",
		"in_temp_oversampling_ratio", "sampling_frequency", "filter_low_pass_3db_frequency",
		NULL
	};
	static const struct {
		const char *part;
		const char *const *attrs;
	} rows[] = {
		{ "bmp085", bmp280_attrs }, { "bmp180", bmp280_attrs }, { "bmp280", bmp280_attrs },
		{ "bme280", bme280_attrs }, { "bmp380", bmp380_attrs },
	};
	struct sensortest st;
	char why[128], want[16];
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (!bmp_setup(&st, rows[r].part, NULL, 0))
			continue;
		TEST_ROW_ASSERT_GOT(sensortest_same_attrs(st.dev, rows[r].attrs, why, sizeof(why)),
				    rows[r].part, "%s", why);
		snprintf(want, sizeof(want), "%s\n", rows[r].part);
		bmp_expect(&st, "name", want);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_attrs, "each part's attribute set, as 6.1's");

/*
 * The BMP280 datasheet's example (3.12): 25.08 degC and 100653.27 Pa by its
 * floating-point formulas; the integer ones give 2508 and 25767233/256 Pa,
 * which the kernel prints as 25080 and 100.653253906 (QEMU rig).
 */
static void test_bmp280_datasheet(void)
{
	struct emu_input in[] = {
		SENSORTEST_CONST("adc_T", BMP280_ADC_T), SENSORTEST_CONST("adc_P", BMP280_ADC_P),
	};
	struct sensortest st;

	if (!bmp_setup(&st, "bmp280", in, 2))
		return;
	bmp_expect(&st, "in_temp_input", "25080\n");
	bmp_expect(&st, "in_pressure_input", "100.653253906\n");
	/* the kernel's defaults: temperature 2x, pressure 16x, normal mode; filter off */
	bmp_expect(&st, "in_temp_oversampling_ratio", "2\n");
	bmp_expect(&st, "in_pressure_oversampling_ratio", "16\n");
	CU_ASSERT_EQUAL(bmp_peek(&st, 0xf4), 2 << 5 | 5 << 2 | 3);
	CU_ASSERT_EQUAL(bmp_peek(&st, 0xf5), 0);
	sensortest_teardown(&st);
}
TEST_CASE(test_bmp280_datasheet, "bmp280: the datasheet's worked example");

/* The bme280: the same example, and the kernel's humidity for adc_H 27000 (rig: 40575). */
static void test_bme280_humidity(void)
{
	struct emu_input in[] = {
		SENSORTEST_CONST("adc_T", BMP280_ADC_T), SENSORTEST_CONST("adc_P", BMP280_ADC_P),
		SENSORTEST_CONST("adc_H", BME280_ADC_H),
	};
	struct sensortest st;

	if (!bmp_setup(&st, "bme280", in, 3))
		return;
	bmp_expect(&st, "in_temp_input", "25080\n");
	bmp_expect(&st, "in_pressure_input", "100.653253906\n");
	bmp_expect(&st, "in_humidityrelative_input", "40575\n");
	bmp_expect(&st, "in_humidityrelative_oversampling_ratio", "16\n");
	/* ctrl_hum 16x (osrs 5) */
	CU_ASSERT_EQUAL(bmp_peek(&st, 0xf2), 5);
	sensortest_teardown(&st);
}
TEST_CASE(test_bme280_humidity, "bme280: humidity as the kernel computes it");

/*
 * The BMP180 datasheet's example (3.5): UT 27898, UP 23843 at oss 0 give
 * 150 (0.1 degC) and 69964 Pa. The kernel's default oss is 3 (8x); at it
 * the model gives UP << 3, which the same algorithm turns into 69963 Pa.
 */
static void test_bmp180_datasheet(void)
{
	static const char *const parts[] = { "bmp180", "bmp085" };
	struct emu_input in[] = {
		SENSORTEST_CONST("UT", BMP180_UT), SENSORTEST_CONST("UP", BMP180_UP),
	};
	struct sensortest st;
	size_t r;

	for (r = 0; r < NROWS(parts); r++) {
		if (!bmp_setup(&st, parts[r], in, 2))
			continue;
		bmp_expect(&st, "in_temp_input", "15000\n");
		bmp_expect(&st, "in_pressure_oversampling_ratio", "8\n");
		bmp_expect(&st, "in_pressure_input", "69.963000000\n");
		TEST_ROW_ASSERT(sensortest_write(st.dev, "in_pressure_oversampling_ratio", "1") == 0,
				parts[r]);
		bmp_expect(&st, "in_pressure_input", "69.964000000\n");
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_bmp180_datasheet, "bmp180/bmp085: the datasheet's worked example");

/* The bmp380 against what 6.1 printed for the same NVM and codes (rig). */
static void test_bmp380_values(void)
{
	struct emu_input in[] = {
		SENSORTEST_CONST("adc_T", BMP380_ADC_T), SENSORTEST_CONST("adc_P", BMP380_ADC_P),
	};
	struct sensortest st;

	if (!bmp_setup(&st, "bmp380", in, 2))
		return;
	bmp_expect(&st, "in_temp_input", "21330\n");
	bmp_expect(&st, "in_pressure_input", "98.349440000\n");
	bmp_expect(&st, "in_temp_oversampling_ratio", "1\n");
	bmp_expect(&st, "in_pressure_oversampling_ratio", "4\n");
	bmp_expect(&st, "sampling_frequency", "50.000000\n");
	bmp_expect(&st, "filter_low_pass_3db_frequency", "3\n");
	/* OSR: temperature x1, pressure x4; ODR 50 Hz; filter coefficient 3; normal mode */
	CU_ASSERT_EQUAL(bmp_peek(&st, 0x1c), 0x02);
	CU_ASSERT_EQUAL(bmp_peek(&st, 0x1d), 0x02);
	CU_ASSERT_EQUAL(bmp_peek(&st, 0x1f), 2 << 1);
	CU_ASSERT_EQUAL(bmp_peek(&st, 0x1b), 0x33);
	sensortest_teardown(&st);
}
TEST_CASE(test_bmp380_values, "bmp380: readings and defaults as the kernel's");

/*
 * Extreme codes, where the compensation's 32- and 64-bit arithmetic wraps
 * and clamps: what 6.1 printed on the rig for them (bmp280-extreme.conf).
 * The bme280 is set to 16x temperature first, so that its 20 bits carry
 * adc_T 0xfffff whole (at the default 2x the model drops the low 3 bits).
 */
static void test_extreme_codes(void)
{
	struct emu_input bme[] = {
		SENSORTEST_CONST("adc_T", 0xfffff), SENSORTEST_CONST("adc_P", 1),
		SENSORTEST_CONST("adc_H", 0xffff),
	};
	struct emu_input bmp380[] = {
		SENSORTEST_CONST("adc_T", 0xfffff0), SENSORTEST_CONST("adc_P", 0x10),
	};
	struct sensortest st;

	if (bmp_setup(&st, "bme280", bme, 3)) {
		CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_temp_oversampling_ratio", "16"), 0);
		bus_msleep(st.bus, 100);
		bmp_expect(&st, "in_temp_input", "187550\n");
		bmp_expect(&st, "in_pressure_input", "216.939863281\n");
		bmp_expect(&st, "in_humidityrelative_input", "100000\n");
		sensortest_teardown(&st);
	}
	if (bmp_setup(&st, "bmp380", bmp380, 2)) {
		bmp_expect(&st, "in_temp_input", "85000\n");
		bmp_expect(&st, "in_pressure_input", "88.896840000\n");
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_extreme_codes, "extreme codes: the kernel's wrap-arounds and clamps");

/*
 * Oversampling writes: each listed ratio is taken and programmed, values
 * between and past the list are EINVAL and change nothing.
 */
static void test_oversampling(void)
{
	static const struct {
		const char *part, *file, *val;
		int ret;
		uint8_t reg, mask, field;	/* what the chip must hold after it */
	} rows[] = {
		{ "bmp280", "in_temp_oversampling_ratio", "1", 0, 0xf4, 0xe0, 1 << 5 },
		{ "bmp280", "in_temp_oversampling_ratio", "16", 0, 0xf4, 0xe0, 5 << 5 },
		{ "bmp280", "in_temp_oversampling_ratio", "3", -EINVAL, 0xf4, 0xe0, 2 << 5 },
		{ "bmp280", "in_temp_oversampling_ratio", "32", -EINVAL, 0xf4, 0xe0, 2 << 5 },
		{ "bmp280", "in_temp_oversampling_ratio", "0", -EINVAL, 0xf4, 0xe0, 2 << 5 },
		{ "bmp280", "in_pressure_oversampling_ratio", "1", 0, 0xf4, 0x1c, 1 << 2 },
		{ "bmp280", "in_pressure_oversampling_ratio", "8", 0, 0xf4, 0x1c, 4 << 2 },
		{ "bmp280", "in_pressure_oversampling_ratio", "17", -EINVAL, 0xf4, 0x1c, 5 << 2 },
		/* the integer part counts, as the kernel's val (val2 is not looked at) */
		{ "bmp280", "in_pressure_oversampling_ratio", "4.5", 0, 0xf4, 0x1c, 3 << 2 },
		{ "bme280", "in_humidityrelative_oversampling_ratio", "1", 0, 0xf2, 0x07, 1 },
		{ "bme280", "in_humidityrelative_oversampling_ratio", "32", -EINVAL, 0xf2, 0x07, 5 },
		{ "bmp180", "in_temp_oversampling_ratio", "1", 0, 0, 0, 0 },
		{ "bmp180", "in_temp_oversampling_ratio", "2", -EINVAL, 0, 0, 0 },
		{ "bmp180", "in_pressure_oversampling_ratio", "8", 0, 0, 0, 0 },
		{ "bmp180", "in_pressure_oversampling_ratio", "16", -EINVAL, 0, 0, 0 },
		{ "bmp380", "in_pressure_oversampling_ratio", "8", 0, 0x1c, 0x07, 3 },
		/* listed, but 16x does not fit in 50 Hz: the chip's conf_err (see below) */
		{ "bmp380", "in_pressure_oversampling_ratio", "16", -EINVAL, 0x1c, 0x07, 2 },
		{ "bmp380", "in_temp_oversampling_ratio", "64", -EINVAL, 0x1c, 0x38, 0 },
	};
	struct sensortest st;
	char want[16], name[64];
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		snprintf(name, sizeof(name), "%s %s %s", rows[r].part, rows[r].file, rows[r].val);
		if (!bmp_setup(&st, rows[r].part, NULL, 0))
			continue;
		TEST_ROW_ASSERT_GOT(sensortest_write(st.dev, rows[r].file, rows[r].val) ==
				    rows[r].ret, name, "ret %d",
				    sensortest_write(st.dev, rows[r].file, rows[r].val));
		if (rows[r].ret == 0) {
			snprintf(want, sizeof(want), "%d\n", atoi(rows[r].val));
			bmp_expect(&st, rows[r].file, want);
		}
		if (rows[r].mask)
			TEST_ROW_ASSERT((bmp_peek(&st, rows[r].reg) & rows[r].mask) == rows[r].field,
					name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_oversampling, "oversampling: listed ratios taken, others EINVAL");

/*
 * The bmp380's rate and filter: listed values taken, others EINVAL; a
 * setting whose measurement outlasts the period (32x both at 50 Hz: 130 ms)
 * is refused by the chip (conf_err): EINVAL, and the old one is restored.
 */
static void test_bmp380_settings(void)
{
	static const struct {
		const char *name, *file, *val;
		int ret;
		const char *file2, *reads;
	} rows[] = {
		{ "25 Hz", "sampling_frequency", "25", 0, "sampling_frequency", "25.000000\n" },
		/* listed, but 4x + 1x take 10.9 ms: the chip's conf_err at 100 Hz */
		{ "100 Hz", "sampling_frequency", "100", -EINVAL, "sampling_frequency",
		  "50.000000\n" },
		{ "0.78125 Hz", "sampling_frequency", "0.78125", 0, "sampling_frequency",
		  "0.781250\n" },
		{ "lowest", "sampling_frequency", "0.001526", 0, "sampling_frequency", "0.001526\n" },
		{ "7 Hz", "sampling_frequency", "7", -EINVAL, "sampling_frequency", "50.000000\n" },
		{ "filter 127", "filter_low_pass_3db_frequency", "127", 0,
		  "filter_low_pass_3db_frequency", "127\n" },
		{ "filter 0", "filter_low_pass_3db_frequency", "0", 0,
		  "filter_low_pass_3db_frequency", "0\n" },
		{ "filter 2", "filter_low_pass_3db_frequency", "2", -EINVAL,
		  "filter_low_pass_3db_frequency", "3\n" },
		{ "filter 255", "filter_low_pass_3db_frequency", "255", -EINVAL,
		  "filter_low_pass_3db_frequency", "3\n" },
		{ "press 8x", "in_pressure_oversampling_ratio", "8", 0,
		  "in_pressure_oversampling_ratio", "8\n" },
	};
	struct sensortest st;
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (!bmp_setup(&st, "bmp380", NULL, 0))
			continue;
		TEST_ROW_ASSERT(sensortest_write(st.dev, rows[r].file, rows[r].val) == rows[r].ret,
				rows[r].name);
		bmp_expect(&st, rows[r].file2, rows[r].reads);
		sensortest_teardown(&st);
	}
	if (!bmp_setup(&st, "bmp380", NULL, 0))
		return;
	/* 8x + 32x: 82 ms of measurement, more than 50 Hz's 20 ms period */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_pressure_oversampling_ratio", "8"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_temp_oversampling_ratio", "32"), -EINVAL);
	bmp_expect(&st, "in_temp_oversampling_ratio", "1\n");
	CU_ASSERT_EQUAL(bmp_peek(&st, 0x1c), 0x03);
	/* and the chip is measuring again under the old setting */
	bmp_expect_near(&st, "in_temp_input", 25000, 10);
	/* at 1.5625 Hz it fits */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "sampling_frequency", "1.5625"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_temp_oversampling_ratio", "32"), 0);
	CU_ASSERT_EQUAL(bmp_peek(&st, 0x1c), 5 << 3 | 3);
	bmp_expect_near(&st, "in_temp_input", 25000, 10);
	sensortest_teardown(&st);
}
TEST_CASE(test_bmp380_settings, "bmp380: rate, filter, refused settings restored");

/*
 * Inputs in ABI units: the model inverts the datasheets' floating-point
 * formulas, the driver applies the integer ones; they agree to the
 * resolution (0.01 degC, the bmp180's 0.1; a few Pa; 1/1024 %RH).
 */
static void test_physical_inputs(void)
{
	static const struct {
		const char *part;
		double temp, press, humid;
		long tol_t;	/* m°C: 0.01 degC steps, the bmp180's 0.1 */
	} rows[] = {
		{ "bmp280", -20000, 80.0, 0, 20 }, { "bmp280", 40000, 105.0, 0, 20 },
		{ "bme280", 21000, 101.3, 35000, 20 }, { "bme280", 30000, 95.0, 80000, 20 },
		{ "bmp180", 5000, 90.0, 0, 100 }, { "bmp380", 22500, 98.7, 0, 20 },
	};
	struct sensortest st;
	long t = 0, h = 0;
	char buf[64];
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		struct emu_input in[] = {
			SENSORTEST_CONST("temp", rows[r].temp),
			SENSORTEST_CONST("pressure", rows[r].press),
			SENSORTEST_CONST("humidityrelative", rows[r].humid),
		};

		if (!bmp_setup(&st, rows[r].part, in, strcmp(rows[r].part, "bme280") ? 2 : 3))
			continue;
		TEST_ROW_ASSERT_GOT(sensortest_read_int(st.dev, "in_temp_input", &t) == 0 &&
				    labs(t - (long)rows[r].temp) <= rows[r].tol_t, rows[r].part,
				    "%ld", t);
		TEST_ROW_ASSERT(sensortest_read(st.dev, "in_pressure_input", buf, sizeof(buf)) > 0,
				rows[r].part);
		TEST_ROW_ASSERT_GOT(fabs(atof(buf) - rows[r].press) < 0.005, rows[r].part, "%s",
				    buf);
		if (rows[r].humid > 0)
			TEST_ROW_ASSERT_GOT(sensortest_read_int(st.dev, "in_humidityrelative_input",
								&h) == 0 &&
					    labs(h - (long)rows[r].humid) <= 50, rows[r].part, "%ld",
					    h);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_physical_inputs, "inputs in ABI units read back within resolution");

BMP280_CASES_TESTS("");

/* A skipped channel (the chip's 0x80000 marker) reads EIO, as the kernel's. */
static void test_skipped(void)
{
	struct sensortest st;
	struct bus_i2c_client *c;

	if (!bmp_setup(&st, "bmp280", NULL, 0))
		return;
	/* pressure skipped (osrs_p 0), temperature 1x, normal mode */
	CU_ASSERT_EQUAL(bus_i2c_client_create(st.bus, BMP_ADDR, &c), 0);
	CU_ASSERT_EQUAL(bus_smbus_write_byte_data(c, 0xf4, 1 << 5 | 3), 0);
	bus_i2c_client_destroy(c);
	bus_msleep(st.bus, 10);
	CU_ASSERT_EQUAL(sensortest_read(st.dev, "in_pressure_input", (char[64]){ 0 }, 64), -EIO);
	/* 16 bits at 1x: the model's 25 degC to within 0.1 degC */
	bmp_expect_near(&st, "in_temp_input", 25000, 100);
	sensortest_teardown(&st);
}
TEST_CASE(test_skipped, "a skipped measurement reads EIO");

/* Probes: no chip, a wrong chip id, a bus error at each step; the kernel's messages. */
static void test_probe(void)
{
	static const struct sensorsuite_probe at = { BUS_I2C, 0, "bmp280", BMP_ADDR,
						     "bmp280 at 0-0076" };
	static const struct sensorsuite_probe_row rows[] = {
		{ "no chip", false, { EMU_FAULT_NONE, 0, 0, 0 }, -ENXIO, "no answer (ENXIO)" },
		{ "id read fails", true, { EMU_FAULT_EIO, 0, 1, 0 }, -EIO, "no answer (EIO)" },
		{ "ctrl_meas fails", true, { EMU_FAULT_EIO, 1, 1, 0 }, -EIO,
		  "failed to configure the chip (EIO)" },
		{ "calibration fails", true, { EMU_FAULT_EIO, 4, 1, 0 }, -EIO,
		  "failed to read calibration coefficients (EIO)" },
	};
	struct emu_chip *chip;
	struct sensortest st;
	char err[SENSORTEST_ERR_MAX];
	struct bus *bus;

	sensorsuite_probe_faults(&at, rows, NROWS(rows));
	/* a bme280 where the board says bmp280: the kernel's "bad chip id" */
	CU_ASSERT_EQUAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 0, NULL, &bus), 0);
	CU_ASSERT_EQUAL(sensortest_model_create("bme280", NULL, 0, &chip, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(emu_bus_attach(bus, BMP_ADDR, chip), 0);
	CU_ASSERT_EQUAL(sensortest_setup_on(&st, bus, "bmp280", BMP_ADDR, NULL), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(st.err, "bmp280 at 0-0076: bad chip id: expected 58 got 60"));
}
TEST_CASE(test_probe, "probe failures and their messages");

/* The model refuses inputs a part lacks, naming the valid ones. */
static void test_model_inputs(void)
{
	static const struct {
		const char *part, *key;
		int ret;
	} rows[] = {
		{ "bmp280", "humidityrelative", -EINVAL }, { "bmp280", "UT", -EINVAL },
		{ "bme280", "adc_H", 0 }, { "bmp180", "UP", 0 }, { "bmp380", "adc_H", -EINVAL },
	};
	char err[SENSORTEST_ERR_MAX], name[64];
	struct emu_chip *chip;
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		struct emu_input in[] = { SENSORTEST_CONST(rows[r].key, 1) };
		int ret = sensortest_model_create(rows[r].part, in, 1, &chip, err, sizeof(err));

		snprintf(name, sizeof(name), "%s %s", rows[r].part, rows[r].key);
		TEST_ROW_ASSERT(ret == rows[r].ret, name);
		if (ret == 0)
			chip->ops->destroy(chip);
		else
			TEST_ROW_ASSERT(strstr(err, "valid: temp") != NULL, name);
	}
}
TEST_CASE(test_model_inputs, "model: unknown inputs refused");

TEST_MAIN("bmp280", NULL, NULL)
