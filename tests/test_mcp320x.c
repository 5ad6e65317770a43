/*
 * test_mcp320x.c - the mcp320x driver (MCP3001-MCP3008, MCP3201-MCP3208,
 * MCP3301, MCP3550-50/-60, MCP3551, MCP3553) against its bit-level chip
 * model on the emulated SPI bus.
 *
 * What must hold: each part has the kernel's channel table (single-ended
 * and differential pairs) and id name; a raw value is the input over the
 * datasheet's LSB (vref / 2^bits; the MCP3301 vref / 4096 on a sign; the
 * MCP355x vref / 2^21 with 12 % overrange) rounded down, at and past full
 * scale; the scale is the kernel's vref_mv / 2^resolution, EINVAL without
 * a vref_mv; the model answers the datasheets' own framings (the 3-byte
 * microcontroller idiom), and the MCP355x its conversion time; the MCP355x
 * probe converts twice; bus failures come back as their -errno
 * (mcp320x_cases.h). The bus
 * clock is frozen before each probe: conversions end by the driver's waits.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "mcp320x_cases.h"

#define CS		MCP320X_CASES_CS
#define MCP320X_CASES_BACKEND	(&mcp320x_emulated)
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_ATTRS	24

static int setup_on(struct sensortest *st, const char *chip_part, const char *part,
		    const struct emu_input *in, int nin, int vref_mv)
{
	return mcp320x_setup(st, &mcp320x_emulated, chip_part, part, in, nin, vref_mv);
}

static int setup(struct sensortest *st, const char *part, const struct emu_input *in, int nin,
		 int vref_mv)
{
	return setup_on(st, part, part, in, nin, vref_mv);
}

/* The kernel's files of a part with @single inputs and @pairs differential channels. */
static int want_attrs(int single, int pairs, char names[][48], const char **list)
{
	int n = 0, i;

	for (i = 0; i < single; i++)
		snprintf(names[n++], 48, "in_voltage%d_raw", i);
	for (i = 0; i < pairs; i++)
		snprintf(names[n++], 48, "in_voltage%d-voltage%d_raw", i, i ^ 1);
	if (single)
		snprintf(names[n++], 48, "in_voltage_scale");
	snprintf(names[n++], 48, "in_voltage-voltage_scale");
	snprintf(names[n++], 48, "name");
	for (i = 0; i < n; i++)
		list[i] = names[i];
	list[n] = NULL;
	return n;
}

static void test_parts(void)
{
	static const struct {
		const char *part;
		int single, pairs;
	} rows[] = {
		{ "mcp3001", 0, 1 }, { "mcp3002", 2, 2 }, { "mcp3004", 4, 4 }, { "mcp3008", 8, 8 },
		{ "mcp3201", 0, 1 }, { "mcp3202", 2, 2 }, { "mcp3204", 4, 4 }, { "mcp3208", 8, 8 },
		{ "mcp3301", 0, 1 }, { "mcp3550-50", 0, 1 }, { "mcp3550-60", 0, 1 },
		{ "mcp3551", 0, 1 }, { "mcp3553", 0, 1 },
	};
	char names[MAX_ATTRS][48], why[96], buf[32], want[32];
	const char *list[MAX_ATTRS + 1];
	struct sensortest st;
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (setup(&st, rows[r].part, NULL, 0, 3300)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		want_attrs(rows[r].single, rows[r].pairs, names, list);
		TEST_ROW_ASSERT_GOT(sensortest_same_attrs(st.dev, list, why, sizeof(why)),
				    rows[r].part, "%s", why);
		snprintf(want, sizeof(want), "%s\n", rows[r].part);
		TEST_ROW_ASSERT(sensortest_read(st.dev, "name", buf, sizeof(buf)) > 0 &&
				strcmp(buf, want) == 0, rows[r].part);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_parts, "the kernel's channels and names of each part");

struct raw_row {
	const char *part;
	int vref_mv;
	double a, b;		/* mV at CHa and CHb (IN+ and IN- on one-input parts) */
	int cha, chb;
	const char *attr;
	long want;
};

/* Datasheet LSBs: vref / 2^bits (MCP3301: vref / 4096; MCP355x: vref / 2^21). */
static const struct raw_row raw_rows[] = {
	/* 3300 / 1024 = 3.2227 mV: 1650 mV is 512 LSB, 825 mV 256 */
	{ "mcp3001", 3300, 1650, 0, 0, 0, "in_voltage0-voltage1_raw", 512 },
	{ "mcp3001", 3300, 1650, 825, 0, 0, "in_voltage0-voltage1_raw", 256 },
	{ "mcp3002", 3300, 2000, 500, 0, 1, "in_voltage0_raw", 620 },
	{ "mcp3002", 3300, 2000, 500, 0, 1, "in_voltage1_raw", 155 },
	{ "mcp3002", 3300, 2000, 500, 0, 1, "in_voltage0-voltage1_raw", 465 },
	{ "mcp3002", 3300, 2000, 500, 0, 1, "in_voltage1-voltage0_raw", 0 },
	{ "mcp3004", 3300, 3299, 1, 3, 2, "in_voltage3_raw", 1023 },
	{ "mcp3004", 3300, 3299, 1, 3, 2, "in_voltage2_raw", 0 },
	{ "mcp3004", 3300, 3299, 1, 3, 2, "in_voltage3-voltage2_raw", 1023 },
	{ "mcp3004", 3300, 3299, 1, 3, 2, "in_voltage2-voltage3_raw", 0 },
	{ "mcp3008", 3300, 1000, 3300, 5, 4, "in_voltage5_raw", 310 },
	{ "mcp3008", 3300, 1000, 3300, 5, 4, "in_voltage4_raw", 1023 },
	{ "mcp3008", 3300, 1000, 3300, 5, 4, "in_voltage4-voltage5_raw", 713 },
	{ "mcp3008", 3300, 1000, 3296.77734375, 5, 7, "in_voltage7_raw", 1023 },
	{ "mcp3008", 3300, 1000, 3293.5546875, 5, 7, "in_voltage7_raw", 1022 },
	/* 4096 / 4096 = 1 mV */
	{ "mcp3201", 4096, 2500.5, 0.25, 0, 0, "in_voltage0-voltage1_raw", 2500 },
	{ "mcp3202", 4096, 4095, 4096, 1, 0, "in_voltage1_raw", 4095 },
	{ "mcp3202", 4096, 4095, 4096, 1, 0, "in_voltage0_raw", 4095 },
	{ "mcp3202", 4096, 4094, 4096, 1, 0, "in_voltage1_raw", 4094 },
	/* 2048 / 4096 = 0.5 mV */
	{ "mcp3204", 2048, 1024, 1500, 2, 3, "in_voltage2_raw", 2048 },
	{ "mcp3204", 2048, 1024, 1500, 2, 3, "in_voltage3-voltage2_raw", 952 },
	/* 5000 / 4096 = 1.2207 mV */
	{ "mcp3208", 5000, 1234.5, 100, 6, 7, "in_voltage6_raw", 1011 },
	{ "mcp3208", 5000, 1234.5, 100, 6, 7, "in_voltage7_raw", 81 },
	{ "mcp3208", 5000, 1234.5, 100, 6, 7, "in_voltage6-voltage7_raw", 929 },
	{ "mcp3208", 5000, 1234.5, 100, 6, 7, "in_voltage7-voltage6_raw", 0 },
	/* MCP3301: sign and 12 bits, 4096 / 4096 = 1 mV */
	{ "mcp3301", 4096, 1000.5, 0, 0, 0, "in_voltage0-voltage1_raw", 1000 },
	{ "mcp3301", 4096, 0, 1000.5, 0, 0, "in_voltage0-voltage1_raw", -1001 },
	{ "mcp3301", 4096, 4095, 0, 0, 0, "in_voltage0-voltage1_raw", 4095 },
	{ "mcp3301", 4096, 4096, 0, 0, 0, "in_voltage0-voltage1_raw", 4095 },
	{ "mcp3301", 4096, 0, 4096, 0, 0, "in_voltage0-voltage1_raw", -4096 },
	{ "mcp3301", 4096, 0, 4097, 0, 0, "in_voltage0-voltage1_raw", -4096 },
	/* MCP355x: 2500 / 2^21 = 1.192 µV; 12 % past is 251658 LSB */
	{ "mcp3550-50", 2500, 1000, 0, 0, 0, "in_voltage0-voltage1_raw", 838860 },
	{ "mcp3550-60", 2500, 0, 1000, 0, 0, "in_voltage0-voltage1_raw", -838861 },
	{ "mcp3551", 2500, 2625, 0, 0, 0, "in_voltage0-voltage1_raw", 2202009 },
	{ "mcp3553", 2500, 0, 2625, 0, 0, "in_voltage0-voltage1_raw", -2202010 },
	{ "mcp3553", 2500, 2500, 0, 0, 0, "in_voltage0-voltage1_raw", 2097152 },
	{ "mcp3553", 2500, 2500 - 0.001, 0, 0, 0, "in_voltage0-voltage1_raw",
	  2097151 },
	{ "mcp3553", 2500, 0, 2500, 0, 0, "in_voltage0-voltage1_raw", -2097152 },
	{ "mcp3553", 2500, 3000, 0, 0, 0, "in_voltage0-voltage1_raw", 2348809 },
	{ "mcp3553", 2500, 0, 3000, 0, 0, "in_voltage0-voltage1_raw", -2348810 },
};

static void test_raw(void)
{
	struct sensortest st;
	char keys[2][16], name[96];
	size_t r;
	long v = 0;
	bool one;

	for (r = 0; r < NROWS(raw_rows); r++) {
		const struct raw_row *row = &raw_rows[r];
		struct emu_input in[2];

		one = strstr(row->attr, "0-voltage1") && (row->cha == row->chb);
		snprintf(keys[0], sizeof(keys[0]), one ? "IN+" : "CH%d", row->cha);
		snprintf(keys[1], sizeof(keys[1]), one ? "IN-" : "CH%d", row->chb);
		in[0] = (struct emu_input)SENSORTEST_CONST(keys[0], row->a);
		in[1] = (struct emu_input)SENSORTEST_CONST(keys[1], row->b);
		snprintf(name, sizeof(name), "%s %s (%g, %g mV)", row->part, row->attr,
			 row->a, row->b);
		if (setup(&st, row->part, in, 2, row->vref_mv)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		TEST_ROW_ASSERT_GOT(sensortest_read_int(st.dev, row->attr, &v) == 0 &&
				    v == row->want, name, "%ld", v);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_raw, "raw values from the datasheet LSB, at and past full scale");

static void test_scale(void)
{
	static const struct {
		const char *part;
		int vref_mv;
		const char *want;
	} rows[] = {
		{ "mcp3008", 3300, "3.222656250\n" },	/* 3300 / 2^10 */
		{ "mcp3001", 1024, "1.000000000\n" },
		{ "mcp3208", 3300, "0.805664062\n" },	/* 3300 / 2^12, truncated */
		{ "mcp3201", 4096, "1.000000000\n" },
		{ "mcp3301", 4096, "0.500000000\n" },	/* the kernel's 2^13 */
		{ "mcp3551", 2500, "0.001192092\n" },	/* 2500 / 2^21 */
	};
	struct sensortest st;
	char buf[32];
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (setup(&st, rows[r].part, NULL, 0, rows[r].vref_mv)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		TEST_ROW_ASSERT_GOT(sensortest_read(st.dev, "in_voltage-voltage_scale", buf,
						    sizeof(buf)) > 0 && strcmp(buf, rows[r].want) == 0,
				    rows[r].part, "%s", buf);
		TEST_ROW_ASSERT(sensortest_read(st.dev, "in_voltage_scale", buf, sizeof(buf)) ==
				-ENOENT || strcmp(buf, rows[r].want) == 0, rows[r].part);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_scale, "scale: vref_mv over 2^resolution");

/* No vref_mv: the kernel's dummy regulator has no voltage; a bad one is refused. */
static void test_no_vref(void)
{
	static const struct emu_input in[] = { SENSORTEST_CONST("CH0", 1000) };
	const struct sensortest_prop zero[] = { { "vref_mv", 0 }, { NULL, 0 } };
	struct sensortest st;
	struct bus *bus;
	char buf[32];
	long v = 0;

	CU_ASSERT_EQUAL_FATAL(setup(&st, "mcp3008", in, 1, 0), 0);
	CU_ASSERT_EQUAL(sensortest_read(st.dev, "in_voltage_scale", buf, sizeof(buf)), -EINVAL);
	/* the model's own reference is then 3.3 V: 1000 mV is 310 */
	CU_ASSERT(sensortest_read_int(st.dev, "in_voltage0_raw", &v) == 0 && v == 310);
	sensortest_teardown(&st);
	CU_ASSERT_EQUAL_FATAL(bus_create(bus_backend_find("emulated"), BUS_SPI, 0, NULL, &bus), 0);
	CU_ASSERT_EQUAL(sensortest_setup_on(&st, bus, "mcp3008", CS, zero), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(st.err, "vref_mv must be a positive integer"));
}
TEST_CASE(test_no_vref, "no vref_mv: scale EINVAL; vref_mv 0 refused");

/* The MCP3004/3008 datasheet's 3-byte framing (start bit at the end of byte 0). */
static void test_model_framing(void)
{
	static const struct emu_input in[] = {
		SENSORTEST_CONST("CH5", 2000), SENSORTEST_CONST("CH2", 1000),
	};
	uint8_t tx[3], rx[3];
	const struct bus_spi_transfer x = { .tx_buf = tx, .rx_buf = rx, .len = 3 };
	struct sensortest st;
	int ch;

	CU_ASSERT_EQUAL_FATAL(setup(&st, "mcp3008", in, 2, 3300), 0);
	for (ch = 0; ch < 8; ch++) {
		tx[0] = 0x01;
		tx[1] = (uint8_t)(0x80 | ch << 4);
		tx[2] = 0;
		CU_ASSERT_EQUAL(bus_spi_sync(iio_device_spi(st.dev), &x, 1), 0);
		/* 2000 mV: floor(2000 / 3.2227) = 620; 1000 mV: 310 */
		CU_ASSERT_EQUAL((rx[1] & 3) << 8 | rx[2], ch == 5 ? 620 : ch == 2 ? 310 : 0);
	}
	sensortest_teardown(&st);
	/* the MCP3204/3208 form: 0x06 | D2, D1 D0 in byte 1's top bits, 12 bits back */
	CU_ASSERT_EQUAL_FATAL(setup(&st, "mcp3208", in, 2, 4096), 0);
	tx[0] = 0x06 | 5 >> 2;
	tx[1] = (uint8_t)((5 & 3) << 6);
	tx[2] = 0;
	CU_ASSERT_EQUAL(bus_spi_sync(iio_device_spi(st.dev), &x, 1), 0);
	CU_ASSERT_EQUAL((rx[1] & 0x0f) << 8 | rx[2], 2000);
	sensortest_teardown(&st);
}
TEST_CASE(test_model_framing, "model: the datasheets' microcontroller framing");

/*
 * Frames longer than the result: the MCP3201 (2652 = 0xa5c at 1 mV) goes on
 * LSB first from B1 (figure: 0 0 null, B11..B0, B1..B9); the MCP3002 in the
 * datasheet's 16-clock framing (0 1 SGL ODD MSBF: channel 1 single-ended,
 * 693 = 0x2b5) does too with MSBF 0, and sends zeros with MSBF 1.
 */
static void test_model_tails(void)
{
	static const struct emu_input in3201[] = { SENSORTEST_CONST("IN+", 2652.5) };
	static const struct emu_input in3002[] = { SENSORTEST_CONST("CH1", 2234) };
	uint8_t tx[3] = { 0, 0, 0 }, rx[3];
	const struct bus_spi_transfer x = { .tx_buf = tx, .rx_buf = rx, .len = 3 };
	struct sensortest st;

	CU_ASSERT_EQUAL_FATAL(setup(&st, "mcp3201", in3201, 1, 4096), 0);
	CU_ASSERT(bus_spi_sync(iio_device_spi(st.dev), &x, 1) == 0 && rx[0] == 0x14 &&
		  rx[1] == 0xb8 && rx[2] == 0xe9);
	sensortest_teardown(&st);
	CU_ASSERT_EQUAL_FATAL(setup(&st, "mcp3002", in3002, 1, 3300), 0);
	tx[0] = 0x70;
	CU_ASSERT(bus_spi_sync(iio_device_spi(st.dev), &x, 1) == 0 && rx[0] == 0x02 &&
		  rx[1] == 0xb5 && rx[2] == 0x5a);
	tx[0] = 0x78;
	CU_ASSERT(bus_spi_sync(iio_device_spi(st.dev), &x, 1) == 0 && rx[0] == 0x02 &&
		  rx[1] == 0xb5 && rx[2] == 0x00);
	sensortest_teardown(&st);
}
TEST_CASE(test_model_tails, "model: the result repeated LSB first, or not (MSBF)");

/* MCP355x: two conversions at probe; busy reads all ones; the driver waits. */
static void test_delta_sigma_timing(void)
{
	static const struct emu_input in[] = { SENSORTEST_CONST("IN+", 1250) };
	const struct bus_spi_transfer start = { .len = 0, .delay_usecs = 8 };
	uint8_t rx[4];
	const struct bus_spi_transfer rd = { .rx_buf = rx, .len = 4 };
	struct sensortest st;
	long v = 0;

	CU_ASSERT_EQUAL_FATAL(setup(&st, "mcp3550-50", in, 1, 2500), 0);
	/* start pulse and read, twice */
	CU_ASSERT_EQUAL(emu_bus_transfers(st.bus, CS), 4);
	CU_ASSERT(sensortest_read_int(st.dev, "in_voltage0-voltage1_raw", &v) == 0 && v == 1048576);
	CU_ASSERT_EQUAL(emu_bus_transfers(st.bus, CS), 6);
	/* by hand: 80 ms + 144 / 102.4 kHz = 81.41 ms */
	emu_bus_set_time(st.bus, 10.0);
	CU_ASSERT_EQUAL(bus_spi_sync(iio_device_spi(st.dev), &start, 1), 0);
	emu_bus_set_time(st.bus, 10.0 + 0.0814);
	CU_ASSERT(bus_spi_sync(iio_device_spi(st.dev), &rd, 1) == 0 && rx[0] == 0xff &&
		  rx[1] == 0xff && rx[2] == 0xff && rx[3] == 0xff);
	emu_bus_set_time(st.bus, 10.0 + 0.0815);
	/* Data Ready 0, OVL 0, OVH 0, then 1048576 = 0x100000 in 22 bits, then ones */
	CU_ASSERT(bus_spi_sync(iio_device_spi(st.dev), &rd, 1) == 0 && rx[0] == 0x08 &&
		  rx[1] == 0x00 && rx[2] == 0x00 && rx[3] == 0x7f);
	sensortest_teardown(&st);
	/*
	 * A chip slower than the part named (81.41 ms, the driver waits 19):
	 * all ones parse as OVL and OVH, EIO, until a read finds it done. The
	 * probe's reads at 19 and 38 ms were busy; these are at 57, 76 and 95.
	 */
	CU_ASSERT_EQUAL_FATAL(setup_on(&st, "mcp3550-50", "mcp3553", in, 1, 2500), 0);
	CU_ASSERT_EQUAL(sensortest_read_int(st.dev, "in_voltage0-voltage1_raw", &v), -EIO);
	CU_ASSERT_EQUAL(sensortest_read_int(st.dev, "in_voltage0-voltage1_raw", &v), -EIO);
	CU_ASSERT(sensortest_read_int(st.dev, "in_voltage0-voltage1_raw", &v) == 0 && v == 1048576);
	sensortest_teardown(&st);
}
TEST_CASE(test_delta_sigma_timing, "MCP355x: probe conversions, busy chip, waits");

MCP320X_CASES_TESTS("");

TEST_MAIN("mcp320x", NULL, NULL)
