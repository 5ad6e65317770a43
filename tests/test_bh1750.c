/*
 * test_bh1750.c - the bh1750 driver against its chip model on an emulated
 * I2C bus: the kernel's attribute set for every part, integration_time and
 * its _available list, scale and raw counts at several MTreg values, the
 * measurement wait, bus faults (bh1750_cases.h, which test_shim_bh1750.c
 * runs on i2c-dev too) and probe failures; and the model's own opcodes
 * (power on, reset, H2 mode, an early read).
 * Expected numbers come from the datasheets: BH1750 counts = lux x 1.2 x
 * MTreg / 69 (lux = counts / 1.2 at the default 69, 120 ms), BH1710 counts
 * = lux x MTreg / 250 (120 ms at 300); the kernel's steps are 1740 us and
 * 400 us per MTreg. Clocks are frozen, so only the driver's waits move time.
 */
#include <errno.h>
#include <string.h>

#include "testutil.h"
#include "sensorsuite.h"

#define BH_ADDR		0x23
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

/* the emulated bus, clock frozen; the cases the shim suite runs too */
static const struct sensorsuite_backend emulated = SENSORSUITE_EMULATED(BH_ADDR);
#define BH1750_CASES_BACKEND	(&emulated)
#include "bh1750_cases.h"

/* One BH17xx with light following @sig; asserts the setup worked. */
static bool bh_setup_sig(struct sensortest *st, const char *part, struct emu_signal sig)
{
	struct emu_input in[] = { { "illuminance", sig } };

	return sensorsuite_backend_up(&emulated, st, part, in, 1);
}

static bool bh_setup(struct sensortest *st, const char *part, double lux)
{
	return bh_setup_sig(st, part, (struct emu_signal){ .kind = EMU_SIGNAL_CONST, .value = lux });
}

static void test_attr_set(void)
{
	static const char *const parts[] = { "bh1710", "bh1715", "bh1721", "bh1750", "bh1751" };
	static const char *const attrs[] = {
		"name", "in_illuminance_raw", "in_illuminance_scale",
		"in_illuminance_integration_time", "integration_time_available", NULL
	};
	struct sensortest st;
	char why[128], want[32];
	const struct iio_attr *a;
	size_t i;

	for (i = 0; i < NROWS(parts); i++) {
		if (!bh_setup(&st, parts[i], 100))
			continue;
		TEST_ROW_ASSERT(sensortest_same_attrs(st.dev, attrs, why, sizeof(why)), parts[i]);
		snprintf(want, sizeof(want), "%s\n", parts[i]);
		TEST_ROW_ASSERT(bh1750_reads(&st, "name", want), parts[i]);
		a = iio_device_attr_find(st.dev, "integration_time_available");
		TEST_ROW_ASSERT(a && a->mode == 0444, parts[i]);
		a = iio_device_attr_find(st.dev, "in_illuminance_integration_time");
		TEST_ROW_ASSERT(a && a->mode == 0644, parts[i]);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_attr_set, "attribute set per part; no timestamp clock");

/* Defaults and raw counts per part, from the datasheets' formulas. */
static void test_defaults_and_counts(void)
{
	static const struct {
		const char *part;
		double lux;
		const char *scale, *itime, *raw;
	} rows[] = {
		/* BH1750 class: MTreg 69, 1/1.2 lux per count, 69 x 1.74 ms */
		{ "bh1750", 100, "0.833333\n", "0.120060\n", "120\n" },
		{ "bh1751", 1000, "0.833333\n", "0.120060\n", "1200\n" },
		{ "bh1715", 0.5, "0.833333\n", "0.120060\n", "0\n" },
		/* 65535 / 1.2 = 54612.5 lux fills the register; just below it does not */
		{ "bh1750", 54612.5, "0.833333\n", "0.120060\n", "65535\n" },
		{ "bh1750", 54611.6, "0.833333\n", "0.120060\n", "65533\n" },
		{ "bh1750", 100000, "0.833333\n", "0.120060\n", "65535\n" },
		/* BH1710 class: MTreg 300, 250/300 lux per count, 300 x 0.4 ms */
		{ "bh1710", 100, "0.833333\n", "0.120000\n", "120\n" },
		{ "bh1721", 250, "0.833333\n", "0.120000\n", "300\n" },
	};
	struct sensortest st;
	size_t i;

	for (i = 0; i < NROWS(rows); i++) {
		if (!bh_setup(&st, rows[i].part, rows[i].lux))
			continue;
		TEST_ROW_ASSERT(bh1750_reads(&st, "in_illuminance_scale", rows[i].scale),
				rows[i].part);
		TEST_ROW_ASSERT(bh1750_reads(&st, "in_illuminance_integration_time", rows[i].itime),
				rows[i].part);
		TEST_ROW_ASSERT(bh1750_reads(&st, "in_illuminance_raw", rows[i].raw), rows[i].part);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_defaults_and_counts, "default scale, integration time and counts per part");

/* integration_time writes: whole MTreg steps inside the part's range, limits at N and N+1. */
static void test_integration_time(void)
{
	static const struct {
		const char *part, *text;
		int ret;
		const char *itime, *scale, *raw;	/* after, at 100 lux */
	} rows[] = {
		/* MTreg 138: twice the default, half the lux per count (57.5 / 138) */
		{ "bh1750", "0.240120", 0, "0.240120\n", "0.416666\n", "240\n" },
		{ "bh1750", "0.053940", 0, "0.053940\n", "1.854838\n", "53\n" },	/* MT 31 */
		{ "bh1750", "0.052200", -EINVAL, "0.120060\n", "0.833333\n", "120\n" },	/* 30 */
		{ "bh1750", "0.441960", 0, "0.441960\n", "0.226377\n", "441\n" },	/* 254 */
		{ "bh1750", "0.443700", -EINVAL, "0.120060\n", "0.833333\n", "120\n" },	/* 255 */
		{ "bh1750", "0.120061", -EINVAL, "0.120060\n", "0.833333\n", "120\n" },
		{ "bh1750", "1.120060", -EINVAL, "0.120060\n", "0.833333\n", "120\n" },
		/* BH1710: 140..1022 steps of 400 us; an odd MTreg is taken though not listed */
		{ "bh1710", "0.056400", 0, "0.056400\n", "1.773049\n", "56\n" },	/* 141 */
		{ "bh1710", "0.408800", 0, "0.408800\n", "0.244618\n", "408\n" },	/* 1022 */
		{ "bh1710", "0.409200", -EINVAL, "0.120000\n", "0.833333\n", "120\n" },	/* 1023 */
		{ "bh1710", "0.055600", -EINVAL, "0.120000\n", "0.833333\n", "120\n" },	/* 139 */
	};
	struct sensortest st;
	size_t i;

	for (i = 0; i < NROWS(rows); i++) {
		if (!bh_setup(&st, rows[i].part, 100))
			continue;
		TEST_ROW_ASSERT_GOT(sensortest_write(st.dev, "in_illuminance_integration_time",
						     rows[i].text) == rows[i].ret, rows[i].text,
				    "write of %s", rows[i].text);
		TEST_ROW_ASSERT(bh1750_reads(&st, "in_illuminance_integration_time", rows[i].itime),
				rows[i].text);
		TEST_ROW_ASSERT(bh1750_reads(&st, "in_illuminance_scale", rows[i].scale),
				rows[i].text);
		TEST_ROW_ASSERT(bh1750_reads(&st, "in_illuminance_raw", rows[i].raw), rows[i].text);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_integration_time, "integration_time: MTreg steps, range limits, effect");

/* The list: "0.%06d" per step, blank separated, one newline at the end. */
static void test_available(void)
{
	static const struct {
		const char *part, *first, *last;
		int count;
	} rows[] = {
		{ "bh1750", "0.053940 0.055680 ", " 0.440220 0.441960\n", 224 },
		{ "bh1710", "0.056000 0.056800 ", " 0.408000 0.408800\n", 442 },
		{ "bh1721", "0.056000 0.056800 ", " 0.407200 0.408000\n", 441 },
	};
	char buf[IIO_VALUE_MAX_BYTES];
	struct sensortest st;
	size_t i, len;
	int n;

	for (i = 0; i < NROWS(rows); i++) {
		if (!bh_setup(&st, rows[i].part, 100))
			continue;
		TEST_ROW_ASSERT(sensortest_read(st.dev, "integration_time_available", buf,
						sizeof(buf)) > 0, rows[i].part);
		len = strlen(buf);
		TEST_ROW_ASSERT(strncmp(buf, rows[i].first, strlen(rows[i].first)) == 0,
				rows[i].part);
		TEST_ROW_ASSERT(len > strlen(rows[i].last) &&
				strcmp(buf + len - strlen(rows[i].last), rows[i].last) == 0,
				rows[i].part);
		/* every value "0.dddddd" followed by one separator */
		n = 0;
		for (const char *c = buf; *c; c++)
			n += *c == ' ' || *c == '\n';
		TEST_ROW_ASSERT_GOT(n == rows[i].count && len == (size_t)rows[i].count * 9,
				    rows[i].part, "%d values, %zu bytes", n, len);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_available, "integration_time_available per part");

/*
 * The read waits out the measurement: light rising 10000 lux/s from t = 0,
 * the first one-time measurement ends at 120.06 ms (1200.6 lux: 1440
 * counts), not when the driver reads (135 ms: 1620); the next starts after
 * the driver's 136 ms wait and ends at 256.06 ms (2560.6 lux: 3072).
 */
static void test_measurement_time(void)
{
	struct emu_signal ramp = {
		.kind = EMU_SIGNAL_RAMP, .offset = 0, .amplitude = 100000, .period_s = 10,
	};
	struct sensortest st;

	if (!bh_setup_sig(&st, "bh1750", ramp))
		return;
	CU_ASSERT(bh1750_reads(&st, "in_illuminance_raw", "1440\n"));
	CU_ASSERT(bh1750_reads(&st, "in_illuminance_raw", "3072\n"));
	sensortest_teardown(&st);
}
TEST_CASE(test_measurement_time, "the read waits MTreg x step + 15 ms; the count is the measurement's");

/* A second client on the device's bus, sending opcodes and reading the two bytes. */
static int bh_op(struct sensortest *st, uint8_t op)
{
	return sensortest_peer(st, bus_smbus_write_byte, op);
}

static int bh_result(struct sensortest *st)
{
	struct bus_i2c_client *c;
	uint8_t b[2];
	int ret;

	ret = bus_i2c_client_create(st->bus, BH_ADDR, &c);
	if (ret < 0)
		return ret;
	ret = bus_i2c_master_recv(c, b, 2);
	bus_i2c_client_destroy(c);
	return ret < 0 ? ret : b[0] << 8 | b[1];
}

/* The model's opcodes as the BH1750 datasheet gives them. */
static void test_model_opcodes(void)
{
	struct sensortest st;

	if (!bh_setup(&st, "bh1750", 1000))
		return;
	/* a result is there only when the measurement has ended: before, the old one */
	CU_ASSERT_EQUAL(bh_op(&st, 0x20), 0);
	CU_ASSERT_EQUAL(bh_result(&st), 0);
	bus_msleep(st.bus, 121);
	CU_ASSERT_EQUAL(bh_result(&st), 1200);
	/* one-time mode powered down after it: reset (0x07) needs power, so it is ignored */
	CU_ASSERT_EQUAL(bh_op(&st, 0x07), 0);
	CU_ASSERT_EQUAL(bh_result(&st), 1200);
	CU_ASSERT_EQUAL(bh_op(&st, 0x01), 0);
	CU_ASSERT_EQUAL(bh_op(&st, 0x07), 0);
	CU_ASSERT_EQUAL(bh_result(&st), 0);
	/* H2: half a lux per count, twice the counts */
	CU_ASSERT_EQUAL(bh_op(&st, 0x21), 0);
	bus_msleep(st.bus, 121);
	CU_ASSERT_EQUAL(bh_result(&st), 2400);
	/* MTreg 74 = 010_01010: high half 0x42, low half 0x6a; 1000 x 1.2 x 74 / 69 = 1286.9 */
	CU_ASSERT_EQUAL(bh_op(&st, 0x42), 0);
	CU_ASSERT_EQUAL(bh_op(&st, 0x6a), 0);
	CU_ASSERT_EQUAL(bh_op(&st, 0x10), 0);
	bus_msleep(st.bus, 129);	/* 74 x 1.74 = 128.76 ms */
	CU_ASSERT_EQUAL(bh_result(&st), 1286);
	/* continuous: still measuring after the first; power down stops it */
	CU_ASSERT_EQUAL(bh_op(&st, 0x00), 0);
	sensortest_teardown(&st);
}
TEST_CASE(test_model_opcodes, "model: early read, reset, power, H2, MTreg halves");

BH1750_CASES_TESTS("");

static void test_probe_faults(void)
{
	static const struct sensorsuite_probe at = {
		BUS_I2C, 3, "bh1750", BH_ADDR, "bh1750 at 3-0023"
	};
	static const struct sensorsuite_probe_row rows[] = {
		{ "no chip", false, { EMU_FAULT_NONE, 0, 0, 0 }, -ENXIO,
		  "no answer to the MTreg opcodes (ENXIO)" },
		{ "EIO on the power-down", true, { EMU_FAULT_EIO, 0, 1, 0 }, -EIO,
		  "no answer to the MTreg opcodes (EIO)" },
		{ "EIO on the low half", true, { EMU_FAULT_EIO, 2, 1, 0 }, -EIO,
		  "no answer to the MTreg opcodes (EIO)" },
	};

	sensorsuite_probe_faults(&at, rows, NROWS(rows));
}
TEST_CASE(test_probe_faults, "probe failures name the device and errno");

/* Removal powers down: the BH1721's continuous measurement stops (one more opcode). */
static void test_remove(void)
{
	struct sensortest st;
	unsigned long before;
	struct bus *bus;

	if (!bh_setup(&st, "bh1721", 100))
		return;
	CU_ASSERT(bh1750_reads(&st, "in_illuminance_raw", "120\n"));
	bus = bus_get(st.bus);
	before = emu_bus_transfers(bus, BH_ADDR);
	iio_device_unregister(st.reg, st.dev);
	st.dev = NULL;
	CU_ASSERT_EQUAL(emu_bus_transfers(bus, BH_ADDR), before + 1);
	sensortest_teardown(&st);
	bus_put(bus);
}
TEST_CASE(test_remove, "removal sends power down");

/* The one input, and the message for another key. */
static void test_model_input(void)
{
	struct emu_input in[] = { SENSORTEST_CONST("lux", 1) };
	struct emu_chip *chip = NULL;
	char err[128];

	CU_ASSERT_EQUAL(sensortest_model_create("bh1721", in, 1, &chip, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "bh1721: no input 'lux' (input: illuminance, in lux)");
	CU_ASSERT_EQUAL(sensortest_model_create("opt3001", in, 1, &chip, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "opt3001: no input 'lux' (input: illuminance, in lux)");
}
TEST_CASE(test_model_input, "models: the one input key, refused others");

TEST_MAIN("bh1750", NULL, NULL)
