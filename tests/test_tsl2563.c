/*
 * test_tsl2563.c - the tsl2563 driver against its chip model on an emulated
 * I2C bus: the kernel's attribute set, normalised counts at every auto-gain
 * level (and back), the lux table row by row, calibscale rules and their
 * effect, power control, bus faults with recovery, and probe failures; the
 * broadband channel's threshold events (values, enables, the INT register,
 * the model's INT line reaching the event queue as the kernel's code, and
 * EINVAL from the files without an interrupt line, K-44).
 * Expected numbers are the kernel's integer arithmetic worked by hand from
 * the model's datasheet scaling (counts x 11/322, 81/322 or 1 of the 402 ms
 * value, /16 at 1x, clipped at 5047/37177/65535).
 * Clocks are frozen, so only the driver's own waits move time.
 */
#include <errno.h>
#include <string.h>

#include "iio_event.h"

#include "testutil.h"
#include "sensorsuite.h"

#define TSL_ADDR	0x39
#define TSL_CMD		0x80
#define TSL_REG_CTRL	0x00
#define TSL_REG_TIMING	0x01
#define TSL_REG_DATA0	0x0c
#define TSL_REG_THRESH	0x02	/* LOWLOW, LOWHIGH, HIGHLOW, HIGHHIGH */
#define TSL_REG_INT	0x06
#define TSL_EVF(what)	"events/in_intensity_both_thresh_" what

static const char *const tsl_attrs[] = {
	"name", "in_illuminance0_input", "in_intensity_both_raw", "in_intensity_both_calibscale",
	"in_intensity_ir_raw", "in_intensity_ir_calibscale",
	"events/in_intensity_both_thresh_rising_value", "events/in_intensity_both_thresh_rising_en",
	"events/in_intensity_both_thresh_falling_value",
	"events/in_intensity_both_thresh_falling_en",
	/*
	 * no current_timestamp_clock: 6.1 adds it for a timestamp channel only
	 * (its event interface comes after the sysfs files; QEMU rig, tsl2563)
	 */
	NULL
};

/* Set up one tsl25xx with constant inputs; asserts the setup worked. */
static bool tsl_setup(struct sensortest *st, const char *part, double broadband, double ir,
		      const struct sensortest_prop *props)
{
	struct emu_input in[] = {
		SENSORTEST_CONST("broadband", broadband), SENSORTEST_CONST("ir", ir),
	};
	int ret = sensortest_setup(st, BUS_I2C, part, TSL_ADDR, in, 2, props, 0.0);

	TEST_ROW_ASSERT(ret == 0, st->err);
	return ret == 0;
}

/* A second client on the device's bus, to look at the chip's registers directly. */
static int tsl_peek(struct sensortest *st, uint8_t reg)
{
	struct bus_i2c_client *c;
	int ret;

	ret = bus_i2c_client_create(st->bus, TSL_ADDR, &c);
	if (ret < 0)
		return ret;
	ret = bus_smbus_read_byte_data(c, TSL_CMD | reg);
	bus_i2c_client_destroy(c);
	return ret;
}

static int tsl_poke(struct sensortest *st, uint8_t reg, uint8_t val)
{
	struct bus_i2c_client *c;
	int ret;

	ret = bus_i2c_client_create(st->bus, TSL_ADDR, &c);
	if (ret < 0)
		return ret;
	ret = bus_smbus_write_byte_data(c, TSL_CMD | reg, val);
	bus_i2c_client_destroy(c);
	return ret;
}

static void test_attr_set(void)
{
	static const char *const parts[] = { "tsl2560", "tsl2561", "tsl2562", "tsl2563" };
	static const struct {
		const char *attr;
		unsigned int mode;
	} modes[] = {
		{ "name", 0444 },
		{ "in_illuminance0_input", 0644 },
		{ "in_intensity_both_raw", 0644 },
		{ "in_intensity_both_calibscale", 0644 },
		{ "in_intensity_ir_raw", 0644 },
		{ "in_intensity_ir_calibscale", 0644 },
		{ "events/in_intensity_both_thresh_rising_value", 0644 },
		{ "events/in_intensity_both_thresh_falling_en", 0644 },
	};
	struct sensortest st;
	char why[128], buf[64], want[64];
	size_t i, j;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!tsl_setup(&st, parts[i], 1000, 200, NULL))
			continue;
		if (!sensortest_same_attrs(st.dev, tsl_attrs, why, sizeof(why)))
			fprintf(stderr, "%s: %s\n", parts[i], why);
		TEST_ROW_ASSERT(sensortest_same_attrs(st.dev, tsl_attrs, why, sizeof(why)),
				parts[i]);
		snprintf(want, sizeof(want), "%s\n", parts[i]);
		TEST_ROW_ASSERT(sensortest_read(st.dev, "name", buf, sizeof(buf)) > 0 &&
				strcmp(buf, want) == 0, parts[i]);
		for (j = 0; j < sizeof(modes) / sizeof(modes[0]); j++) {
			const struct iio_attr *a = iio_device_attr_find(st.dev, modes[j].attr);

			TEST_ROW_ASSERT(a && a->mode == modes[j].mode, modes[j].attr);
		}
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_attr_set, "attribute set, names and modes per part");

/*
 * Normalised counts and the gain level the driver settles on. Level 1 is
 * 402 ms 16x (TIMING 0x12), 2 is 402 ms 1x (0x02), 3 is 101 ms 1x (0x01),
 * 4 is 13.7 ms 1x (0x00), which the kernel's bounds never reach.
 */
static void test_gain_levels(void)
{
	static const struct {
		const char *name;
		double broadband, ir;
		long both, irraw;
		int timing;
	} rows[] = {
		{ "dark", 0, 0, 0, 0, 0x12 },
		{ "level 1", 1000, 200, 1000, 200, 0x12 },
		{ "level 1 top (65534 stays)", 65534, 100, 65534, 100, 0x12 },
		{ "level 2 (saturated 16x)", 100000, 30000, 100000, 30000, 0x02 },
		{ "level 2 truncates to 1/16", 100007, 30015, 100000, 30000, 0x02 },
		/* 1500000/16 * 81/322 = 23583.07 -> 23583 << 6 */
		{ "level 3", 1500000, 500000, 1509312, 503104, 0x01 },
		/* 101 ms clips at 37177 -> << 6; "above 37177" never fires */
		{ "level 3 saturated", 3000000, 1000000, 2379328, 1006208, 0x01 },
	};
	struct sensortest st;
	long both = -1, irraw = -1;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!tsl_setup(&st, "tsl2563", rows[i].broadband, rows[i].ir, NULL))
			continue;
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &both) == 0 &&
				both == rows[i].both, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_ir_raw", &irraw) == 0 &&
				irraw == rows[i].irraw, rows[i].name);
		TEST_ROW_ASSERT(tsl_peek(&st, TSL_REG_TIMING) == rows[i].timing, rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_gain_levels, "normalised counts at every gain level");

/*
 * Very bright light on a tsl2560/2561: the kernel's level 3 bound (above
 * 37177) is never exceeded, so the driver stays at 101 ms (TIMING 0x01) and
 * reports the clipped broadband count, 37177 << 6. The first row is the
 * kernel's own figures (2379328/301824/67031); ir 9e5 is 3 times the ir count.
 */
static void test_bright_stays_at_101ms(void)
{
	static const struct {
		const char *part;
		double ir;
		long irraw, lux;
	} rows[] = {
		{ "tsl2561", 3e5, 301824, 67031 },
		{ "tsl2560", 3e5, 301824, 67031 },
		{ "tsl2561", 9e5, 905536, 38398 },
	};
	struct sensortest st;
	long both = -1, irraw = -1, lux = -1;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!tsl_setup(&st, rows[i].part, 3e6, rows[i].ir, NULL))
			continue;
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &both) == 0 &&
				both == 2379328, rows[i].part);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_ir_raw", &irraw) == 0 &&
				irraw == rows[i].irraw, rows[i].part);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_illuminance0_input", &lux) == 0 &&
				lux == rows[i].lux, rows[i].part);
		TEST_ROW_ASSERT(tsl_peek(&st, TSL_REG_TIMING) == 0x01, rows[i].part);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_bright_stays_at_101ms, "very bright light stays at 101 ms, as on the kernel");

/*
 * The light changes between reads (a stepped trace on the frozen clock):
 * very bright (clipped at 101 ms, where the driver stays), then 2e6
 * (31444 counts at 101 ms, unsaturated), then dim (steps back down).
 */
static void test_gain_hysteresis(void)
{
	static double t[] = { 0, 100, 100.001, 200, 200.001, 1e6 };
	static double v[] = { 3e6, 3e6, 2e6, 2e6, 1000, 1000 };
	static const struct {
		const char *name;
		double at_s;
		long both;
		int timing;
	} rows[] = {
		{ "bright: level 3, clipped", 0, 2379328, 0x01 },
		{ "2e6: stays at level 3", 150, 31444 << 6, 0x01 },
		{ "dim: back to level 1", 300, 1000, 0x12 },
		{ "dim again: no change", 400, 1000, 0x12 },
	};
	struct emu_input in[] = {
		{ .key = "broadband",
		  .sig = { .kind = EMU_SIGNAL_CSV, .csv_t = t, .csv_v = v, .csv_n = 6 } },
	};
	struct sensortest st;
	long both = -1;
	size_t i;

	if (sensortest_setup(&st, BUS_I2C, "tsl2563", TSL_ADDR, in, 1, NULL, 0.0) != 0) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i].at_s > 0)
			emu_bus_set_time(st.bus, rows[i].at_s);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &both) == 0 &&
				both == rows[i].both, rows[i].name);
		TEST_ROW_ASSERT(tsl_peek(&st, TSL_REG_TIMING) == rows[i].timing, rows[i].name);
	}
	sensortest_teardown(&st);
}
TEST_CASE(test_gain_hysteresis, "gain level follows changing light");

/* One row per lux-table row (by the ratio ir/broadband), plus the kernel's example. */
static void test_lux_table(void)
{
	static const struct {
		const char *name;
		double broadband, ir;
		long lux;
	} rows[] = {
		{ "no light (ratio infinite)", 0, 0, 0 },
		{ "row 1, ratio 0.10", 10000, 1000, 288 },
		{ "row 2, the kernel's 1000/200 example", 1000, 200, 25 },
		{ "row 3, ratio 0.30", 10000, 3000, 203 },
		{ "row 4, ratio 0.45", 10000, 4500, 119 },
		{ "row 5, ratio 0.60", 10000, 6000, 54 },
		{ "row 6, ratio 0.70", 10000, 7000, 31 },
		{ "row 7, ratio 1.00", 10000, 10000, 7 },
		{ "beyond 1.30: 0 lux", 10000, 20000, 0 },
		{ "no infrared", 500, 0, 15 },
		{ "level 2 counts", 100000, 30000, 2039 },
		{ "level 3 counts", 1500000, 500000, 28127 },
		{ "level 3 clipped counts", 3000000, 1000000, 32371 },
	};
	struct sensortest st;
	long lux = -1;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!tsl_setup(&st, "tsl2561", rows[i].broadband, rows[i].ir, NULL))
			continue;
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_illuminance0_input", &lux) == 0 &&
				lux == rows[i].lux, rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_lux_table, "lux table rows");

/*
 * calibscale: 1000 is 1.0; the integer part is stored as (v << 10) / 1000
 * and read back rounded, so some values come back one lower (999 -> 998).
 */
static void test_calibscale(void)
{
	static const struct {
		const char *name;
		const char *attr;
		const char *text;
		int ret;
		long readback;	/* when ret == 0 */
		long lux;	/* with 1000/200 after the write; -1: not checked */
	} rows[] = {
		{ "default both", "in_intensity_both_calibscale", NULL, 0, 1000, 25 },
		{ "default ir", "in_intensity_ir_calibscale", NULL, 0, 1000, 25 },
		{ "double broadband", "in_intensity_both_calibscale", "2000", 0, 2000, 57 },
		{ "double infrared", "in_intensity_ir_calibscale", "2000", 0, 2000, 14 },
		{ "half broadband", "in_intensity_both_calibscale", "500", 0, 500, 7 },
		{ "999 rounds to 998", "in_intensity_both_calibscale", "999", 0, 998, -1 },
		{ "fraction dropped", "in_intensity_both_calibscale", "1500.9", 0, 1500, -1 },
		{ "one", "in_intensity_both_calibscale", "1", 0, 1, -1 },
		{ "zero", "in_intensity_both_calibscale", "0", 0, 0, 0 },
		{ "largest", "in_intensity_both_calibscale", "4194303", 0, 4194303, -1 },
		{ "too large", "in_intensity_both_calibscale", "4194304", -EINVAL, 0, -1 },
		{ "negative", "in_intensity_ir_calibscale", "-1", -EINVAL, 0, -1 },
		{ "not a number", "in_intensity_both_calibscale", "bright", -EINVAL, 0, -1 },
		{ "raw is read-only", "in_intensity_both_raw", "5", -EINVAL, 0, -1 },
		{ "lux is read-only", "in_illuminance0_input", "5", -EINVAL, 0, -1 },
	};
	struct sensortest st;
	long v = -1;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!tsl_setup(&st, "tsl2563", 1000, 200, NULL))
			continue;
		if (rows[i].text)
			TEST_ROW_ASSERT(sensortest_write(st.dev, rows[i].attr, rows[i].text) ==
					rows[i].ret, rows[i].name);
		if (rows[i].ret == 0) {
			TEST_ROW_ASSERT(sensortest_read_int(st.dev, rows[i].attr, &v) == 0 &&
					v == rows[i].readback, rows[i].name);
		} else {
			/* a refused write changes nothing */
			TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_calibscale",
							    &v) == 0 && v == 1000, rows[i].name);
		}
		if (rows[i].lux >= 0) {
			v = -1;
			sensortest_read_int(st.dev, "in_illuminance0_input", &v);
			TEST_ROW_ASSERT(v == rows[i].lux, rows[i].name);
		}
		/* calibration never touches the counts */
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &v) == 0 &&
				v == 1000, rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_calibscale, "calibscale write, read-back and effect");

/* The board's amstaos,cover-comp-gain multiplies both channels before the lux formula. */
static void test_cover_gain(void)
{
	static const struct {
		const char *name;
		struct sensortest_prop props[2];
		int ret;
		long lux;
	} rows[] = {
		{ "absent: 1", { { NULL, 0 } }, 0, 25 },
		{ "2", { { "amstaos,cover-comp-gain", 2 }, { NULL, 0 } }, 0, 50 },
		{ "0 refused", { { "amstaos,cover-comp-gain", 0 }, { NULL, 0 } }, -EINVAL, 0 },
	};
	struct emu_input in[] = {
		SENSORTEST_CONST("broadband", 1000), SENSORTEST_CONST("ir", 200),
	};
	struct sensortest st;
	long lux = -1;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ret = sensortest_setup(&st, BUS_I2C, "tsl2563", TSL_ADDR, in, 2, rows[i].props,
				       0.0);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		if (ret < 0) {
			TEST_ROW_ASSERT(strstr(st.err, "cover-comp-gain") != NULL, rows[i].name);
			continue;
		}
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_illuminance0_input", &lux) == 0 &&
				lux == rows[i].lux, rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_cover_gain, "cover compensation gain property");

/*
 * Power: probe leaves the chip on; a chip that lost power is powered and
 * reprogrammed by the next read (which then reads true values, not the
 * zeros a powered-down chip returns); removal powers it down.
 */
static void test_power(void)
{
	struct sensortest st;
	struct bus_i2c_client *c;
	long v = -1;

	if (!tsl_setup(&st, "tsl2563", 100000, 30000, NULL))
		return;
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_CTRL), 0x03);
	CU_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &v) == 0 && v == 100000);
	/* someone powers the chip down behind the driver's back */
	CU_ASSERT_EQUAL(tsl_poke(&st, TSL_REG_CTRL, 0x00), 0);
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_CTRL), 0x00);
	CU_ASSERT_EQUAL(bus_i2c_client_create(st.bus, TSL_ADDR, &c), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_word_data(c, TSL_CMD | TSL_REG_DATA0), 0);
	bus_i2c_client_destroy(c);
	CU_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &v) == 0 && v == 100000);
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_CTRL), 0x03);
	/* the gain level the driver keeps is back on the chip as well */
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_TIMING), 0x02);
	/* removal: the driver's remove powers the chip down */
	iio_device_unregister(st.reg, st.dev);
	st.dev = NULL;
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_CTRL), 0x00);
	sensortest_teardown(&st);
}
TEST_CASE(test_power, "power control");

/*
 * Bus faults during reads: the read fails with the bus's error, nothing
 * crashes, and once the fault is gone reads are right again. @after lets
 * the fault hit the middle of an auto-gain sequence (the TIMING write).
 */
static void test_faults(void)
{
	static const struct {
		const char *name;
		double broadband;
		struct emu_fault fault;
		int err;
		long both;
	} rows[] = {
		{ "NACK", 1000, { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO, 1000 },
		{ "EIO", 1000, { EMU_FAULT_EIO, 0, 0, 0 }, -EIO, 1000 },
		{ "hang", 1000, { EMU_FAULT_HANG, 0, 0, 20 }, -ETIMEDOUT, 1000 },
		/* power check, data0, data1 pass; the TIMING write to level 2 fails */
		{ "EIO on the gain change", 100000, { EMU_FAULT_EIO, 3, 0, 0 }, -EIO, 100000 },
		{ "NACK on the second channel", 1500000, { EMU_FAULT_NACK, 2, 0, 0 }, -ENXIO,
		  1509312 },
		{ "one failed transfer", 1000, { EMU_FAULT_EIO, 0, 1, 0 }, -EIO, 1000 },
	};
	static const struct emu_fault none = { EMU_FAULT_NONE, 0, 0, 0 };
	struct sensortest st;
	long v = -1;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!tsl_setup(&st, "tsl2563", rows[i].broadband, rows[i].broadband / 5, NULL))
			continue;
		TEST_ROW_ASSERT(emu_bus_set_fault(st.bus, TSL_ADDR, &rows[i].fault) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &v) ==
				rows[i].err, rows[i].name);
		TEST_ROW_ASSERT(emu_bus_set_fault(st.bus, TSL_ADDR, &none) == 0, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_intensity_both_raw", &v) == 0 &&
				v == rows[i].both, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_illuminance0_input", &v) == 0,
				rows[i].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_faults, "bus faults and recovery");

/* Probe refuses a chip that does not answer, naming the bus and address. */
static void test_probe_failures(void)
{
	static const struct sensorsuite_probe at = { BUS_I2C, 3, "tsl2563", TSL_ADDR,
							       "tsl2563 at i2c-3 0x39" };
	static const struct sensorsuite_probe_row rows[] = {
		{ "no chip at the address", false, { EMU_FAULT_NONE, 0, 0, 0 }, -ENXIO,
		  "no answer to power-on" },
		{ "power-on NACKed", true, { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO,
		  "no answer to power-on" },
		{ "CONTROL read-back fails", true, { EMU_FAULT_EIO, 1, 0, 0 }, -EIO,
		  "reading CONTROL back" },
		{ "ID read fails", true, { EMU_FAULT_NACK, 2, 0, 0 }, -ENXIO, "ID register" },
		{ "timing write hangs", true, { EMU_FAULT_HANG, 3, 0, 20 }, -ETIMEDOUT,
		  "programming timing" },
		{ "threshold write fails", true, { EMU_FAULT_EIO, 5, 0, 0 }, -EIO,
		  "programming timing" },
	};

	sensorsuite_probe_faults(&at, rows, sizeof(rows) / sizeof(rows[0]));
}
TEST_CASE(test_probe_failures, "probe failures name bus and address");

/* The model refuses inputs it does not have, naming the valid ones. */
static void test_model_inputs(void)
{
	struct emu_input in[] = { SENSORTEST_CONST("lux", 5) };
	struct emu_chip *chip = NULL;
	char err[SENSORTEST_ERR_MAX];

	CU_ASSERT_EQUAL(sensortest_model_create("tsl2561", in, 1, &chip, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"lux\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "broadband"));
}
TEST_CASE(test_model_inputs, "model input keys");

/* ---- threshold events ---- */

static void tsl_wake(void *ctx)
{
	(void)ctx;
}

static int tsl_write(struct sensortest *st, const char *attr, const char *val)
{
	const struct iio_attr *a = iio_device_attr_find(st->dev, attr);

	return a ? (int)iio_attr_write(st->dev, a, val, strlen(val)) : -ENOENT;
}

/* @attr reads @want ("\n" included). */
static bool tsl_reads(struct sensortest *st, const char *attr, const char *want)
{
	char buf[64];

	return sensortest_read(st->dev, attr, buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0;
}

static void test_events(void)
{
	static const struct sensortest_prop irq[] = { { SENSORTEST_PROP_IRQ, 1 }, { NULL, 0 } };
	struct sensortest st;

	if (!tsl_setup(&st, "tsl2563", 1000, 200, irq))
		return;
	CU_ASSERT_EQUAL_FATAL(iio_event_open(st.dev, tsl_wake, NULL), 0);
	/* probe's window: 0 .. 65535; no interrupt mode yet */
	CU_ASSERT(tsl_reads(&st, TSL_EVF("rising_value"), "65535\n"));
	CU_ASSERT(tsl_reads(&st, TSL_EVF("falling_value"), "0\n"));
	CU_ASSERT(tsl_reads(&st, TSL_EVF("rising_en"), "0\n"));
	/* no range check: stored as u16, on the chip low byte first */
	CU_ASSERT_EQUAL(tsl_write(&st, TSL_EVF("rising_value"), "70000"), 0);
	CU_ASSERT(tsl_reads(&st, TSL_EVF("rising_value"), "4464\n"));
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_THRESH + 2), 0x70);
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_THRESH + 3), 0x11);
	CU_ASSERT_EQUAL(tsl_write(&st, TSL_EVF("falling_value"), "-1"), 0);
	CU_ASSERT(tsl_reads(&st, TSL_EVF("falling_value"), "65535\n"));
	CU_ASSERT_EQUAL(tsl_write(&st, TSL_EVF("falling_value"), "12abc"), -EINVAL);
	CU_ASSERT_EQUAL(tsl_write(&st, TSL_EVF("falling_value"), "10.5"), 0);
	CU_ASSERT(tsl_reads(&st, TSL_EVF("falling_value"), "10\n"));
	/* 1000 counts is above a rising 500: out of the window */
	CU_ASSERT_EQUAL(tsl_write(&st, TSL_EVF("rising_value"), "500"), 0);
	CU_ASSERT_EQUAL(tsl_write(&st, TSL_EVF("falling_en"), "1"), 0);
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_INT), 0x14);	/* level, persist 4 */
	CU_ASSERT(tsl_reads(&st, TSL_EVF("rising_en"), "1\n"));
	CU_ASSERT_EQUAL(tsl_write(&st, TSL_EVF("rising_en"), "2"), -EINVAL);
	/* four integrations out of the window, then INT: one "either" event */
	emu_bus_set_time(st.bus, 100.0);
	CU_ASSERT_EQUAL(sensortest_next_event(st.dev, 2000), 0x0000000700000000ull);
	CU_ASSERT_EQUAL(tsl_write(&st, TSL_EVF("rising_en"), "0"), 0);
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_INT), 0x04);
	CU_ASSERT(tsl_reads(&st, TSL_EVF("falling_en"), "0\n"));
	sensortest_teardown(&st);

	/* without an interrupt line the files are there and answer EINVAL (K-44) */
	if (!tsl_setup(&st, "tsl2563", 1000, 200, NULL))
		return;
	CU_ASSERT(sensortest_read(st.dev, TSL_EVF("rising_en"), (char[8]){ 0 }, 8) == -EINVAL);
	CU_ASSERT_EQUAL(tsl_write(&st, TSL_EVF("rising_value"), "500"), -EINVAL);
	CU_ASSERT_EQUAL(tsl_peek(&st, TSL_REG_INT), 0x00);
	sensortest_teardown(&st);
}
TEST_CASE(test_events, "threshold events: values, enables, INT -> the kernel's code; K-44");

TEST_MAIN("tsl2563", NULL, NULL)
