/*
 * test_mcp3422.c - the mcp3422 driver (MCP3421-MCP3428) against its chip
 * model on the emulated I2C bus.
 *
 * What must hold: each part has the kernel's channels and files, is named by
 * its I2C client, and offers 3 SPS only on the MCP3421-3424; a raw value is
 * the input over the datasheet's LSB (2 x 2.048 V / 2^bits / PGA) rounded
 * down, clipped at the two full-scale codes, at each rate and gain; the
 * scale files list those LSBs for the current rate; writes the kernel
 * refuses are EINVAL; the kernel's quirks hold (a scale shows the PGA last
 * sent, a read of the selected channel does not wait); the model's RDY bit
 * and one-shot mode follow the datasheet; bus failures come back as the
 * kernel's errors (mcp3422_cases.h). The bus clock is frozen after each probe, so a read sees
 * new conversions only after the driver's (or the test's) waits.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "chiptest.h"

/* the cases the shim suite runs too, here on the emulated bus */
#define MCP3422_CASES_BACKEND	(&chiptest_emulated)
#include "mcp3422_cases.h"

#define ADDR		0x68
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))
#define T0		1.0	/* the frozen clock after a probe, s */

static const char *const rates[] = { "240", "60", "15", "3" };

/* The datasheet's LSB at @bits, x1 PGA: 2 x 2.048 V / 2^bits, in µV. */
static double lsb_uv(int bits)
{
	return 4096000.0 / (double)(1L << bits);
}

/* What the chip gives for @mv at @bits and @gain: rounded down, clipped. */
static long want_code(double mv, int bits, int gain)
{
	double code = floor(mv * 1000.0 * gain / lsb_uv(bits));
	double full = (double)(1L << (bits - 1));

	return (long)(code > full - 1 ? full - 1 : code < -full ? -full : code);
}

static int setup(struct chiptest *ct, const char *part, const struct emu_input *in, int n)
{
	int ret = chiptest_setup(ct, part, ADDR, in, n, NULL);

	if (ret == 0)
		emu_bus_set_time(ct->bus, T0);
	return ret;
}

static int read_long(struct chiptest *ct, const char *name, long *v)
{
	int iv = 0, ret = chiptest_read_int(ct->dev, name, &iv);

	*v = iv;
	return ret;
}

static void test_parts(void)
{
	static const struct {
		const char *part;
		int nch;
		const char *avail;
	} rows[] = {
		{ "mcp3421", 1, "240 60 15 3\n" }, { "mcp3422", 2, "240 60 15 3\n" },
		{ "mcp3423", 2, "240 60 15 3\n" }, { "mcp3424", 4, "240 60 15 3\n" },
		{ "mcp3425", 1, "240 60 15\n" }, { "mcp3426", 2, "240 60 15\n" },
		{ "mcp3427", 2, "240 60 15\n" }, { "mcp3428", 4, "240 60 15\n" },
	};
	struct chiptest ct;
	char buf[64], name[32];
	size_t r;
	int ch;

	for (r = 0; r < NROWS(rows); r++) {
		if (setup(&ct, rows[r].part, NULL, 0)) {
			TEST_ROW_ASSERT(0, ct.err);
			continue;
		}
		for (ch = 0; ch <= rows[r].nch && ch < 4; ch++) {
			snprintf(name, sizeof(name), "in_voltage%d_scale", ch);
			TEST_ROW_ASSERT((chiptest_read(ct.dev, name, buf, sizeof(buf)) > 0) ==
					(ch < rows[r].nch), name);
		}
		/* raw and scale per channel, the rate, both _available files, the name */
		TEST_ROW_ASSERT(iio_device_attr_count(ct.dev) == 2 * rows[r].nch + 4, rows[r].part);
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "name", buf, sizeof(buf)) > 0 &&
				strcmp(buf, "0-0068\n") == 0, rows[r].part);
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "sampling_frequency_available", buf,
					      sizeof(buf)) > 0 && strcmp(buf, rows[r].avail) == 0,
				rows[r].part);
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage_sampling_frequency", buf,
					      sizeof(buf)) > 0 && strcmp(buf, "240\n") == 0,
				rows[r].part);
		chiptest_teardown(&ct);
	}
}
TEST_CASE(test_parts, "channels, name and rates of each part");

/* Each rate: CH1 and CH2 (kernel channels 0 and 1) at that rate's LSB. */
static void test_raw_by_rate(void)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("CH1", 1000.3), CHIPTEST_CONST("voltage1", -1000.3),
	};
	struct chiptest ct;
	long v0 = 0, v1 = 0;
	int r;

	CU_ASSERT_EQUAL_FATAL(setup(&ct, "mcp3424", in, 2), 0);
	for (r = 0; r < 4; r++) {
		TEST_ROW_ASSERT(chiptest_write(ct.dev, "in_voltage_sampling_frequency",
					       rates[r]) == 0, rates[r]);
		/* a switch to channel 1 and back: each waits one conversion */
		TEST_ROW_ASSERT(read_long(&ct, "in_voltage1_raw", &v1) == 0 &&
				read_long(&ct, "in_voltage0_raw", &v0) == 0, rates[r]);
		TEST_ROW_ASSERT_GOT(v0 == want_code(1000.3, 12 + 2 * r, 1), rates[r], "%ld", v0);
		TEST_ROW_ASSERT_GOT(v1 == want_code(-1000.3, 12 + 2 * r, 1), rates[r], "%ld", v1);
	}
	/* the datasheet's figures: 4001 at 14 bits, -64020 at 18 */
	CU_ASSERT_EQUAL(want_code(1000.3, 14, 1), 4001);
	CU_ASSERT_EQUAL(want_code(-1000.3, 18, 1), -64020);
	chiptest_teardown(&ct);
}
TEST_CASE(test_raw_by_rate, "raw values at 12, 14, 16 and 18 bits");

/* Each PGA through a scale write; x8 of 300.3 mV clips at 2047. */
static void test_pga(void)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("CH1", 300.3), CHIPTEST_CONST("CH2", 5),
	};
	static const struct {
		const char *scale;
		int gain;
	} rows[] = {
		{ "0.001", 1 }, { "0.000500000", 2 }, { "0.00025", 4 }, { "0.000125", 8 },
	};
	struct chiptest ct;
	char want[32], buf[32];
	size_t r;
	long v = 0;

	CU_ASSERT_EQUAL_FATAL(setup(&ct, "mcp3422", in, 2), 0);
	for (r = 0; r < NROWS(rows); r++) {
		TEST_ROW_ASSERT(chiptest_write(ct.dev, "in_voltage0_scale", rows[r].scale) == 0,
				rows[r].scale);
		TEST_ROW_ASSERT(read_long(&ct, "in_voltage1_raw", &v) == 0 && v == 5, rows[r].scale);
		TEST_ROW_ASSERT(read_long(&ct, "in_voltage0_raw", &v) == 0 &&
				v == want_code(300.3, 12, rows[r].gain), rows[r].scale);
		snprintf(want, sizeof(want), "0.%09ld\n", 1000000L / rows[r].gain);
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage0_scale", buf, sizeof(buf)) > 0 &&
				strcmp(buf, want) == 0, rows[r].scale);
	}
	CU_ASSERT_EQUAL(v, 2047);
	chiptest_teardown(&ct);
}
TEST_CASE(test_pga, "PGA x1..x8 through scale writes");

/* Full scale at N and N+1 LSB, both signs, 12 and 18 bits. */
static void test_limits(void)
{
	static const struct {
		double mv;
		const char *rate;
		long want;
	} rows[] = {
		{ 2047.0, "240", 2047 }, { 2048.0, "240", 2047 },
		{ -2048.0, "240", -2048 }, { -2049.0, "240", -2048 },
		{ 2048.0 - 0.015625, "3", 131071 }, { 2048.0, "3", 131071 },
		{ -2048.0, "3", -131072 }, { -2048.015625, "3", -131072 },
		{ -0.5, "240", -1 }, { 0.999, "240", 0 },
	};
	struct chiptest ct;
	size_t r;
	long v;
	char name[32];

	for (r = 0; r < NROWS(rows); r++) {
		struct emu_input in[] = { CHIPTEST_CONST("CH1", rows[r].mv) };

		snprintf(name, sizeof(name), "%g mV at %s SPS", rows[r].mv, rows[r].rate);
		if (setup(&ct, "mcp3421", in, 1)) {
			TEST_ROW_ASSERT(0, ct.err);
			continue;
		}
		TEST_ROW_ASSERT(chiptest_write(ct.dev, "in_voltage_sampling_frequency",
					       rows[r].rate) == 0, name);
		emu_bus_set_time(ct.bus, T0 + 1.0);	/* past a conversion at any rate */
		TEST_ROW_ASSERT_GOT(read_long(&ct, "in_voltage0_raw", &v) == 0 &&
				    v == rows[r].want, name, "%ld", v);
		chiptest_teardown(&ct);
	}
}
TEST_CASE(test_limits, "full scale at N and N+1");

/* The scales of each rate: the datasheet LSB over 1, 2, 4, 8, in nV. */
static void test_scale_available(void)
{
	struct chiptest ct;
	char want[96], buf[96];
	long nv;
	int r;

	CU_ASSERT_EQUAL_FATAL(setup(&ct, "mcp3424", NULL, 0), 0);
	for (r = 0; r < 4; r++) {
		nv = (long)(lsb_uv(12 + 2 * r) * 1000.0);
		snprintf(want, sizeof(want), "0.%09ld 0.%09ld 0.%09ld 0.%09ld\n", nv, nv / 2,
			 nv / 4, nv / 8);
		TEST_ROW_ASSERT(chiptest_write(ct.dev, "in_voltage_sampling_frequency",
					       rates[r]) == 0, rates[r]);
		TEST_ROW_ASSERT_GOT(chiptest_read(ct.dev, "in_voltage_scale_available", buf,
						  sizeof(buf)) > 0 && strcmp(buf, want) == 0,
				    rates[r], "%s", buf);
		snprintf(want, sizeof(want), "0.%09ld\n", nv);
		TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage0_scale", buf, sizeof(buf)) > 0 &&
				strcmp(buf, want) == 0, rates[r]);
	}
	CU_ASSERT_STRING_EQUAL(buf, "0.000015625\n");
	chiptest_teardown(&ct);
}
TEST_CASE(test_scale_available, "in_voltage_scale_available follows the rate");

/* What the kernel refuses, and what it takes that looks odd. */
static void test_writes(void)
{
	static const struct {
		const char *part, *attr, *val;
		int ret;
		const char *reads;
	} rows[] = {
		{ "mcp3424", "in_voltage0_scale", "0.0003", -EINVAL, NULL },
		{ "mcp3424", "in_voltage0_scale", "1", -EINVAL, NULL },
		{ "mcp3424", "in_voltage0_scale", "0.000015625", -EINVAL, NULL },
		{ "mcp3424", "in_voltage_sampling_frequency", "61", -EINVAL, NULL },
		{ "mcp3424", "in_voltage_sampling_frequency", "0", -EINVAL, NULL },
		{ "mcp3424", "in_voltage_sampling_frequency", "3.75", 0, "3\n" },
		{ "mcp3424", "in_voltage_sampling_frequency", "240.5", 0, "240\n" },
		{ "mcp3428", "in_voltage_sampling_frequency", "3", -EINVAL, NULL },
		{ "mcp3428", "in_voltage_sampling_frequency", "15", 0, "15\n" },
	};
	struct chiptest ct;
	char buf[32];
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (setup(&ct, rows[r].part, NULL, 0)) {
			TEST_ROW_ASSERT(0, ct.err);
			continue;
		}
		TEST_ROW_ASSERT(chiptest_write(ct.dev, rows[r].attr, rows[r].val) == rows[r].ret,
				rows[r].val);
		TEST_ROW_ASSERT(!rows[r].reads ||
				(chiptest_read(ct.dev, rows[r].attr, buf, sizeof(buf)) > 0 &&
				 strcmp(buf, rows[r].reads) == 0), rows[r].val);
		chiptest_teardown(&ct);
	}
}
TEST_CASE(test_writes, "scale and rate writes: refused and taken");

/*
 * The kernel's quirks: the scale files show the PGA last sent, whichever
 * channel; a read of the selected channel right after a write sends
 * nothing and waits for nothing, so it gets the conversion before.
 */
static void test_kernel_quirks(void)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("CH1", 500.3), CHIPTEST_CONST("CH2", 100),
	};
	struct chiptest ct;
	char buf[32];
	unsigned long before;
	long v;

	CU_ASSERT_EQUAL_FATAL(setup(&ct, "mcp3422", in, 2), 0);
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, "in_voltage1_scale", "0.000125"), 0);
	CU_ASSERT(chiptest_read(ct.dev, "in_voltage0_scale", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "0.000125000\n");
	CU_ASSERT(read_long(&ct, "in_voltage0_raw", &v) == 0 && v == 500);
	CU_ASSERT(chiptest_read(ct.dev, "in_voltage1_scale", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "0.001000000\n");
	/* x2 on the selected channel: the read is the x1 conversion before it */
	CU_ASSERT_EQUAL(chiptest_write(ct.dev, "in_voltage0_scale", "0.0005"), 0);
	before = emu_bus_transfers(ct.bus, ADDR);
	CU_ASSERT(read_long(&ct, "in_voltage0_raw", &v) == 0 && v == 500);
	CU_ASSERT_EQUAL(emu_bus_transfers(ct.bus, ADDR) - before, 1);
	emu_bus_set_time(ct.bus, T0 + 0.1);	/* past the driver's 5 ms waits */
	CU_ASSERT(read_long(&ct, "in_voltage0_raw", &v) == 0 && v == 1000);
	/* channel 1 kept its x8: 800 */
	CU_ASSERT(read_long(&ct, "in_voltage1_raw", &v) == 0 && v == 800);
	chiptest_teardown(&ct);
}
TEST_CASE(test_kernel_quirks, "the kernel's scale and wait quirks");

static int rd(struct bus_i2c_client *c, uint8_t *buf, int n)
{
	return bus_i2c_master_recv(c, buf, n) == n ? 0 : -EIO;
}

/* The model alone: RDY in continuous and one-shot mode, 18-bit framing. */
static void test_model_rdy(void)
{
	static const struct emu_input in[] = { CHIPTEST_CONST("CH1", -0.02) };
	struct bus_i2c_client *c;
	uint8_t cfg, b[6];
	struct bus *bus;
	char err[CHIPTEST_ERR_MAX];

	CU_ASSERT_EQUAL_FATAL(chiptest_emu_open(&chiptest_emulated, "mcp3424", ADDR, in, 1, 0,
						&bus, err, sizeof(err)), 0);
	emu_bus_set_time(bus, 0);
	CU_ASSERT_EQUAL_FATAL(bus_i2c_client_create(bus, ADDR, &c), 0);
	/* power-on: 0x90 with a result not read yet; the config byte repeats */
	CU_ASSERT(rd(c, b, 5) == 0 && b[0] == 0xff && b[1] == 0xff && b[2] == 0x10 &&
		  b[3] == 0x10 && b[4] == 0x10);
	CU_ASSERT(rd(c, b, 3) == 0 && b[2] == 0x90);
	/* continuous, 18 bits: -0.02 mV is -2 LSB, sign-extended in 3 bytes */
	cfg = 0x1c;
	CU_ASSERT_EQUAL(bus_i2c_master_send(c, &cfg, 1), 1);
	emu_bus_set_time(bus, 1 / 3.75 - 0.001);
	CU_ASSERT(rd(c, b, 4) == 0 && b[3] == 0x9c);
	emu_bus_set_time(bus, 1 / 3.75);
	CU_ASSERT(rd(c, b, 4) == 0 && b[0] == 0xff && b[1] == 0xff && b[2] == 0xfe &&
		  b[3] == 0x1c);
	CU_ASSERT(rd(c, b, 4) == 0 && b[3] == 0x9c);
	/* one-shot at 12 bits: RDY written 1 starts one conversion */
	cfg = 0x80;
	CU_ASSERT_EQUAL(bus_i2c_master_send(c, &cfg, 1), 1);
	CU_ASSERT(rd(c, b, 3) == 0 && b[2] == 0x80);
	emu_bus_set_time(bus, 1 / 3.75 + 1 / 240.0);
	CU_ASSERT(rd(c, b, 3) == 0 && b[0] == 0xff && b[1] == 0xff && b[2] == 0x00);
	emu_bus_set_time(bus, 2.0);
	CU_ASSERT(rd(c, b, 3) == 0 && b[2] == 0x80);
	bus_i2c_client_destroy(c);
	bus_put(bus);
}
TEST_CASE(test_model_rdy, "model: RDY, one-shot and 18-bit framing");

/* An adapter without plain I2C: refused before any transfer, as the kernel's probe. */
static void test_no_plain_i2c(void)
{
	struct iio_registry *reg = iio_registry_create();
	struct iio_dev *dev = NULL;
	char err[CHIPTEST_ERR_MAX];
	struct bus *bus;

	CU_ASSERT_PTR_NOT_NULL_FATAL(reg);
	CU_ASSERT_EQUAL_FATAL(chiptest_emu_open(&chiptest_emulated, "mcp3422", ADDR, NULL, 0, 0,
						&bus, err, sizeof(err)), 0);
	bus->i2c_funcs = BUS_I2C_FUNC_SMBUS_BYTE;
	CU_ASSERT_EQUAL(chiptest_probe(bus, reg, "mcp3422", ADDR, NULL, &dev, err, sizeof(err)),
			-EOPNOTSUPP);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "mcp3422 at 0-0068: no plain I2C"));
	CU_ASSERT_EQUAL(emu_bus_transfers(bus, ADDR), 0);
	iio_registry_destroy(reg);
	bus_put(bus);
}
TEST_CASE(test_no_plain_i2c, "probe: an adapter without plain I2C");

MCP3422_CASES_TESTS("");

TEST_MAIN("mcp3422", NULL, NULL)
