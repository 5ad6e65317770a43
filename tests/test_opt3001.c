/*
 * test_opt3001.c - the opt3001 driver against its chip model on an emulated
 * I2C bus: the kernel's attribute set (timestamp clock included: the
 * channel table has the soft timestamp), processed lux at range limits,
 * integration time and its waits (K-76), the threshold values' exponent/mantissa
 * arithmetic and what reaches the limit registers, the events (one switch,
 * EBUSY meanwhile, the INT line to the kernel's codes), the interrupt read
 * path (K-75), the model's fault count and latch, faults and probe errors.
 * Expected numbers come from the datasheet: lux = 0.01 x 2^E x R, a range E
 * holding 40.95 x 2^E lux, reset values 0xc810 / 0xc000 / 0xbfff; and the
 * 6.1 rig's kernel device read 0.000000 / 83865.600000 / 0 for the events.
 * Clocks are frozen, so only the driver's waits (and the test's) move time.
 */
#include <errno.h>
#include <string.h>

#include "board.h"
#include "iio_event.h"

#include "testutil.h"
#include "sensorsuite.h"

#define OPT_ADDR	0x44
#define OPT_CONFIG	0x01
#define OPT_LOW		0x02
#define OPT_HIGH	0x03
#define OPT_EVF(what)	"events/in_illuminance_thresh_" what
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

/* IIO_UNMOD_EVENT_CODE(IIO_LIGHT = 6, 0, THRESH = 0, dir): dir << 48 | type 6 << 32 */
#define OPT_EV_RISING	0x0001000600000000ull
#define OPT_EV_FALLING	0x0002000600000000ull

static const struct sensortest_prop opt_irq[] = { { SENSORTEST_PROP_IRQ, 1 }, { NULL, 0 } };

static bool opt_setup(struct sensortest *st, double lux, const struct sensortest_prop *props)
{
	struct emu_input in[] = { SENSORTEST_CONST("illuminance", lux) };
	int ret = sensortest_setup(st, BUS_I2C, "opt3001", OPT_ADDR, in, 1, props, 0.0);

	TEST_ROW_ASSERT(ret == 0, st->err);
	return ret == 0;
}

static bool opt_reads(struct sensortest *st, const char *attr, const char *want)
{
	char buf[SENSORTEST_VALUE_MAX];
	ssize_t n = sensortest_read(st->dev, attr, buf, sizeof(buf));

	if (n <= 0 || strcmp(buf, want) != 0)
		fprintf(stderr, "%s: got '%s' (%zd), want '%s'\n", attr, buf, n, want);
	return n > 0 && strcmp(buf, want) == 0;
}

/* A register through a second client, as the driver reads it (big-endian word). */
static int opt_peek(struct sensortest *st, uint8_t reg)
{
	struct bus_i2c_client *c;
	int ret;

	ret = bus_i2c_client_create(st->bus, OPT_ADDR, &c);
	if (ret < 0)
		return ret;
	ret = bus_smbus_read_word_swapped(c, reg);
	bus_i2c_client_destroy(c);
	return ret;
}

static int opt_poke(struct sensortest *st, uint8_t reg, uint16_t val)
{
	struct bus_i2c_client *c;
	int ret;

	ret = bus_i2c_client_create(st->bus, OPT_ADDR, &c);
	if (ret < 0)
		return ret;
	ret = bus_smbus_write_word_swapped(c, reg, val);
	bus_i2c_client_destroy(c);
	return ret;
}

static void test_attr_set(void)
{
	static const char *const attrs[] = {
		"name", "in_illuminance_input", "in_illuminance_integration_time",
		"integration_time_available", "current_timestamp_clock",
		OPT_EVF("rising_value"), OPT_EVF("rising_en"),
		OPT_EVF("falling_value"), OPT_EVF("falling_en"), NULL
	};
	static const struct {
		const char *attr, *text;
		unsigned int mode;
	} rows[] = {
		/* as the kernel's device read on the 6.1 rig, from the same reset registers */
		{ "name", "opt3001\n", 0444 },
		{ "integration_time_available", "0.1 0.8\n", 0444 },
		{ "in_illuminance_integration_time", "0.800000\n", 0644 },
		{ OPT_EVF("rising_value"), "83865.600000\n", 0644 },
		{ OPT_EVF("falling_value"), "0.000000\n", 0644 },
		{ OPT_EVF("rising_en"), "0\n", 0644 },
		{ OPT_EVF("falling_en"), "0\n", 0644 },
		{ "current_timestamp_clock", "realtime\n", 0644 },
	};
	struct sensortest st;
	const struct iio_attr *a;
	char why[128];
	size_t i;

	if (!opt_setup(&st, 100, NULL))
		return;
	CU_ASSERT(sensortest_same_attrs(st.dev, attrs, why, sizeof(why)));
	for (i = 0; i < NROWS(rows); i++) {
		a = iio_device_attr_find(st.dev, rows[i].attr);
		TEST_ROW_ASSERT(a && a->mode == rows[i].mode, rows[i].attr);
		TEST_ROW_ASSERT(opt_reads(&st, rows[i].attr, rows[i].text), rows[i].attr);
	}
	/* probe's setup: automatic range, 800 ms, shut down, latched, one fault */
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG), 0xc810);
	sensortest_teardown(&st);
}
TEST_CASE(test_attr_set, "attribute set, modes and reset values; the configuration");

/* lux = 0.01 x 2^E x R with the smallest range that holds the light */
static void test_lux(void)
{
	static const struct {
		double lux;
		const char *text;
	} rows[] = {
		{ 0, "0.000000\n" },
		{ 0.015, "0.010000\n" },		/* E 0, R 1 */
		{ 40.95, "40.950000\n" },		/* E 0, R 4095: range 0's top */
		{ 40.96, "40.960000\n" },		/* E 1, R 2048 */
		{ 1234.5, "1234.240000\n" },		/* E 5 (1310.4), R 3857 */
		{ 83865.6, "83865.600000\n" },		/* E 11, R 4095 */
		{ 100000, "83865.600000\n" },		/* past full scale: clipped */
	};
	struct sensortest st;
	size_t i;

	for (i = 0; i < NROWS(rows); i++) {
		if (!opt_setup(&st, rows[i].lux, NULL))
			continue;
		TEST_ROW_ASSERT(opt_reads(&st, "in_illuminance_input", rows[i].text),
				rows[i].text);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_lux, "processed lux at the range limits");

/* 0.1 or 0.8 only; the wait without a line is 150 or 1000 ms */
static void test_integration_time(void)
{
	struct sensortest st;
	double t0;

	if (!opt_setup(&st, 1234.5, NULL))
		return;
	t0 = emu_chip_now(st.chip);
	CU_ASSERT(opt_reads(&st, "in_illuminance_input", "1234.240000\n"));
	/* the 800 ms conversion, then the flag at once (K-76: the kernel sleeps 1000 ms) */
	CU_ASSERT_DOUBLE_EQUAL(emu_chip_now(st.chip) - t0, 0.8, 1e-6);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_illuminance_integration_time", "0.1"), 0);
	CU_ASSERT(opt_reads(&st, "in_illuminance_integration_time", "0.100000\n"));
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG) & 0x0800, 0);
	t0 = emu_chip_now(st.chip);
	CU_ASSERT(opt_reads(&st, "in_illuminance_input", "1234.240000\n"));
	CU_ASSERT_DOUBLE_EQUAL(emu_chip_now(st.chip) - t0, 0.1, 1e-6);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_illuminance_integration_time", "0.2"),
			-EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_illuminance_integration_time", "1"),
			-EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_illuminance_integration_time", "0.800000"),
			0);
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG) & 0x0800, 0x0800);
	/* the chip set to 800 ms behind the driver's back: no ready flag at 150 ms */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_illuminance_integration_time", "0.1"), 0);
	CU_ASSERT_EQUAL(opt_poke(&st, OPT_CONFIG, 0xc810), 0);
	t0 = emu_chip_now(st.chip);
	CU_ASSERT(sensortest_read(st.dev, "in_illuminance_input", (char[32]){ 0 }, 32) ==
		  -ETIMEDOUT);
	/* given up at the kernel's 150 ms */
	CU_ASSERT_DOUBLE_EQUAL(emu_chip_now(st.chip) - t0, 0.15, 1e-6);
	sensortest_teardown(&st);
}
TEST_CASE(test_integration_time, "integration time 0.1/0.8, the waits (K-76), ETIMEDOUT");

/* The limits: the smallest range holding the value, mantissa = 10-milli-lux steps >> E. */
static void test_thresholds(void)
{
	static const struct {
		const char *text;
		int ret;
		const char *back;
		int reg;	/* HIGH LIMIT after, -1: unchanged */
	} rows[] = {
		{ "100", 0, "100.000000\n", 0x29c4 },		/* E 2, R 2500 */
		{ "40.95", 0, "40.950000\n", 0x0fff },		/* E 0, R 4095 */
		{ "40.951", 0, "40.940000\n", 0x17ff },		/* E 1, R 2047 */
		{ "0.019", 0, "0.010000\n", 0x0001 },		/* 19 milli: 1 step */
		{ "83865.6", 0, "83865.600000\n", 0xbfff },	/* E 11, R 4095 */
		{ "83865.601", -EINVAL, "83865.600000\n", -1 },	/* no range holds it */
		{ "-1", -EINVAL, "83865.600000\n", -1 },
		/* the kernel's arithmetic: 0 and -500000 give -500 milli, R -50 as u16 */
		{ "-0.5", 0, "654.860000\n", 0xffce },
	};
	struct sensortest st;
	size_t i;

	if (!opt_setup(&st, 100, NULL))
		return;
	for (i = 0; i < NROWS(rows); i++) {
		if (rows[i].reg < 0)
			TEST_ROW_ASSERT(sensortest_write(st.dev, OPT_EVF("rising_value"), "83865.6")
					== 0, rows[i].text);
		TEST_ROW_ASSERT(sensortest_write(st.dev, OPT_EVF("rising_value"), rows[i].text) ==
				rows[i].ret, rows[i].text);
		TEST_ROW_ASSERT(opt_reads(&st, OPT_EVF("rising_value"), rows[i].back),
				rows[i].text);
		TEST_ROW_ASSERT_GOT(opt_peek(&st, OPT_HIGH) ==
				    (rows[i].reg < 0 ? 0xbfff : rows[i].reg), rows[i].text,
				    "HIGH LIMIT 0x%04x", opt_peek(&st, OPT_HIGH));
	}
	/* the falling one goes to LOW LIMIT */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, OPT_EVF("falling_value"), "10"), 0);
	CU_ASSERT(opt_reads(&st, OPT_EVF("falling_value"), "10.000000\n"));
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_LOW), 0x03e8);	/* E 0, R 1000 */
	sensortest_teardown(&st);
}
TEST_CASE(test_thresholds, "threshold values: exponent, mantissa, registers");

static void opt_wake(void *ctx)
{
	(void)ctx;
}

/* One switch for both enables: continuous conversions, EBUSY for the rest; INT -> events. */
static void test_events(void)
{
	struct sensortest st;

	if (!opt_setup(&st, 1234.5, opt_irq))
		return;
	CU_ASSERT_EQUAL_FATAL(iio_event_open(st.dev, opt_wake, NULL), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, OPT_EVF("rising_value"), "1000"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, OPT_EVF("falling_value"), "10"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, OPT_EVF("falling_en"), "1"), 0);
	CU_ASSERT(opt_reads(&st, OPT_EVF("rising_en"), "1\n"));
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG) & 0x0600, 0x0400);	/* M = 10 */
	CU_ASSERT(sensortest_read(st.dev, "in_illuminance_input", (char[32]){ 0 }, 32) == -EBUSY);
	CU_ASSERT(sensortest_read(st.dev, "in_illuminance_integration_time", (char[32]){ 0 }, 32)
		  == -EBUSY);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_illuminance_integration_time", "0.1"),
			-EBUSY);
	/* 1234.24 lux is above 1000: FH after the 800 ms conversion, a rising event */
	emu_bus_set_time(st.bus, 1.0);
	CU_ASSERT_EQUAL(sensortest_next_event(st.dev, 2000), OPT_EV_RISING);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, OPT_EVF("rising_en"), "0"), 0);
	CU_ASSERT(opt_reads(&st, OPT_EVF("falling_en"), "0\n"));
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG) & 0x0600, 0);
	sensortest_teardown(&st);

	/* below the falling value: a falling event */
	if (!opt_setup(&st, 5, opt_irq))
		return;
	CU_ASSERT_EQUAL_FATAL(iio_event_open(st.dev, opt_wake, NULL), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, OPT_EVF("falling_value"), "10"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, OPT_EVF("rising_en"), "1"), 0);
	emu_bus_set_time(st.bus, 1.0);
	CU_ASSERT_EQUAL(sensortest_next_event(st.dev, 2000), OPT_EV_FALLING);
	sensortest_teardown(&st);
}
TEST_CASE(test_events, "events: one switch, EBUSY, INT -> rising/falling codes");

/*
 * With a line: LOW LIMIT holds the EOC enable during the read and the
 * falling value after; the result is there 100 ms (a 10 ms poll) after the
 * start, not after the 150 ms sleep (K-75).
 */
static void test_irq_read(void)
{
	struct sensortest st;
	double t0;

	if (!opt_setup(&st, 1234.5, opt_irq))
		return;
	CU_ASSERT_EQUAL(sensortest_write(st.dev, OPT_EVF("falling_value"), "10"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_illuminance_integration_time", "0.1"), 0);
	t0 = emu_chip_now(st.chip);
	CU_ASSERT(opt_reads(&st, "in_illuminance_input", "1234.240000\n"));
	CU_ASSERT_DOUBLE_EQUAL(emu_chip_now(st.chip) - t0, 0.1, 1e-6);
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_LOW), 0x03e8);
	sensortest_teardown(&st);
}
TEST_CASE(test_irq_read, "the read with an interrupt line (K-75)");

/* The model: FC's consecutive faults, the latch until CONFIGURATION is read. */
static void test_model_fault_count(void)
{
	struct sensortest st;

	if (!opt_setup(&st, 1234.5, NULL))
		return;
	CU_ASSERT_EQUAL(opt_poke(&st, OPT_HIGH, 0x03e8), 0);	/* 10 lux */
	/* continuous, 100 ms, latched, FC = 10: four faults */
	CU_ASSERT_EQUAL(opt_poke(&st, OPT_CONFIG, 0xc412), 0);
	bus_msleep(st.bus, 300);
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG) & 0x0040, 0);	/* three: no FH */
	bus_msleep(st.bus, 100);
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG) & 0x0040, 0x0040);	/* four: FH */
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG) & 0x0040, 0);	/* the read cleared it */
	bus_msleep(st.bus, 100);
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG) & 0x0040, 0x0040);	/* still out: again */
	CU_ASSERT_EQUAL(opt_peek(&st, 0x7e), 0x5449);
	CU_ASSERT_EQUAL(opt_peek(&st, 0x7f), 0x3001);
	sensortest_teardown(&st);
}
TEST_CASE(test_model_fault_count, "model: fault count, latch, IDs");

static void test_probe_faults(void)
{
	static const struct sensorsuite_probe at = {
		BUS_I2C, 2, "opt3001", OPT_ADDR, "opt3001 at 2-0044"
	};
	static const struct sensorsuite_probe_row rows[] = {
		{ "no chip", false, { EMU_FAULT_NONE, 0, 0, 0 }, -ENXIO,
		  "reading the manufacturer ID failed (ENXIO)" },
		{ "EIO on the device ID", true, { EMU_FAULT_EIO, 1, 1, 0 }, -EIO,
		  "reading the device ID failed (EIO)" },
		{ "EIO on CONFIGURATION", true, { EMU_FAULT_EIO, 2, 1, 0 }, -EIO,
		  "reading CONFIGURATION failed (EIO)" },
		{ "EIO writing it", true, { EMU_FAULT_EIO, 3, 1, 0 }, -EIO,
		  "writing CONFIGURATION failed (EIO)" },
		{ "EIO on HIGH LIMIT", true, { EMU_FAULT_EIO, 5, 1, 0 }, -EIO,
		  "reading HIGH LIMIT failed (EIO)" },
	};

	sensorsuite_probe_faults(&at, rows, NROWS(rows));
}
TEST_CASE(test_probe_faults, "probe failures name the device and errno");

/* Removal shuts the chip down, from continuous conversions too. */
static void test_remove(void)
{
	struct sensortest st;
	struct bus *bus;

	if (!opt_setup(&st, 100, NULL))
		return;
	CU_ASSERT_EQUAL(sensortest_write(st.dev, OPT_EVF("rising_en"), "1"), 0);
	bus = bus_get(st.bus);
	iio_device_unregister(st.reg, st.dev);
	st.dev = NULL;
	CU_ASSERT_EQUAL(opt_peek(&st, OPT_CONFIG) & 0x0600, 0);
	sensortest_teardown(&st);
	bus_put(bus);
}
TEST_CASE(test_remove, "removal shuts the chip down");

/*
 * maps/light.json: both sensors load with their labels. From t = 0 the
 * BH1750's measurement ends at 120.06 ms, where its sine (400 + 150 lux,
 * 60 s) is at 400 + 150 sin(2 pi 0.12006 / 60) = 401.886 lux: x 1.2, 482
 * counts; the OPT3001 reads 1234.5 lux (E 5: 1234.24); its INT line is wired.
 */
static void test_board_light(void)
{
	char err[BOARD_ERR_MAX], buf[SENSORTEST_VALUE_MAX];
	struct board *b = board_load(test_path("maps/light.json"), err, sizeof(err));
	struct iio_dev *bh, *opt;

	if (!b)
		fprintf(stderr, "light.json: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(iio_registry_count(b->reg), 2);
	bh = iio_registry_at(b->reg, 0);
	opt = iio_registry_at(b->reg, 1);
	CU_ASSERT(strcmp(bh->name, "bh1750") == 0 && strcmp(bh->label, "desk") == 0);
	CU_ASSERT(strcmp(opt->name, "opt3001") == 0 && strcmp(opt->label, "window") == 0);
	CU_ASSERT(iio_device_has_irq(opt));
	emu_bus_set_time(board_find_bus(b, "i2c-1"), 0.0);
	CU_ASSERT(sensortest_read(bh, "in_illuminance_raw", buf, sizeof(buf)) > 0 &&
		  strcmp(buf, "482\n") == 0);
	CU_ASSERT(sensortest_read(opt, "in_illuminance_input", buf, sizeof(buf)) > 0 &&
		  strcmp(buf, "1234.240000\n") == 0);
	board_destroy(b);
}
TEST_CASE(test_board_light, "maps/light.json: both sensors, the OPT3001's line");

TEST_MAIN("opt3001", NULL, NULL)
