/*
 * test_shim_max1363.c - the max1363 driver through the real i2c-dev backend
 * (bus_i2cdev.c) on the test shim's fake /dev/i2c-0, against the same chip
 * model the emulated tests use.
 *
 * What must hold: every attribute reads the same text through i2c-dev as
 * through the emulated backend; the driver's traffic is plain I2C
 * (I2C_RDWR ioctls, no SMBus) with a mode switch only when needed; faults
 * come back as the same -errno and the next read works; probe without a
 * chip names bus and address; consumers on the stargate2 map get mV; the
 * bus leaves no fd open. The cases of max1363_cases.h (attribute sets,
 * saturation, vref_mv, faults, consumers) are the emulated suite's own, run
 * here on the i2c-dev backend. Tests are tables of named rows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/i2c.h>

#include "testutil.h"
#include "shim/shimchip.h"

#define SHIM_ADDR	0x35

/* The max1363 family speaks plain I2C: one I2C_RDWR ioctl is one transfer. */
static const struct chiptest_backend i2cdev =
	SHIMCHIP_I2C(SHIM_DIR "/i2c-0", 0, SHIM_IOCTL_I2C_RDWR);

/* the cases the emulated suite runs too, on i2c-dev */
#define MAX1363_CASES_BACKEND	(&i2cdev)
#include "max1363_cases.h"

#define NROWS(a)	CHIPSUITE_NROWS(a)

/* ---- same text through both backends ---- */

struct same_row {
	const char *part;
	int ninputs;
	bool has_vref;
	int vref_mv;
};

static const struct chipsuite_same_row same_rows[] = {
	{ "max1236", 4, false, 0 },	/* max1363 has monitor files too: its own rows */
	{ "max1238", 12, false, 0 },
	{ "max1238", 12, true, 2500 },
	{ "max1036", 4, false, 0 },
	{ "max11614", 8, false, 0 },
	{ "max11647", 2, true, 3000 },
};

/* spread over the range, some pairs negative, one input past full scale */
static double same_input_mv(int i, int n)
{
	return i == n - 1 ? 9999 : 333.3 * ((i * 7) % 12);
}

/* all of it was plain I2C: the driver never asked for SMBus */
static void same_traffic(const struct chipsuite_same_row *row, struct chiptest *ct,
			 unsigned long before)
{
	(void)ct;
	(void)before;
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) > 0, row->part);
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) == 0, row->part);
}

static void test_same_as_emulated(void)
{
	/* singles, both pair directions, two scales, name, timestamp clock */
	static const struct chipsuite_same spec = {
		.key_fmt = "AIN%d", .input_mv = same_input_mv,
		.attrs_per_input = 2, .attrs_fixed = 4, .traffic = same_traffic,
	};

	chipsuite_same_as_emulated(&i2cdev, SHIM_ADDR, &spec, same_rows, NROWS(same_rows));
}
TEST_CASE(test_same_as_emulated, "same text through i2c-dev as emulated");

/* ---- an SMBus-only adapter (i801, piix4) ---- */

#define SMBUS_ONLY_FUNCS	(I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE |		\
				 I2C_FUNC_SMBUS_BYTE_DATA | I2C_FUNC_SMBUS_WORD_DATA |	\
				 I2C_FUNC_SMBUS_BLOCK_DATA)

/*
 * As the kernel's max1363_probe: without I2C_FUNC_I2C the 8-bit parts talk
 * in SMBus byte sends and receives; the 10- and 12-bit parts cannot and
 * refuse with -EOPNOTSUPP. Read values match the plain-I2C adapter's.
 */
static void test_smbus_only_adapter(void)
{
	static const struct {
		const char *part;
		int ret;
	} rows[] = {
		{ "max1036", 0 }, { "max1039", 0 }, { "max11603", 0 },
		{ "max1363", -EOPNOTSUPP }, { "max11614", -EOPNOTSUPP },
	};
	static const struct emu_input in[] = { CHIPTEST_CONST("AIN0", 1000) };
	struct chiptest ct;
	char want[32], buf[32];
	size_t i;
	int pass, ret;

	for (i = 0; i < NROWS(rows); i++) {
		/* pass 0 on the default adapter gives the value; pass 1 is SMBus-only */
		for (pass = 0; pass < 2; pass++) {
			shim_set_i2c_funcs(pass ? SMBUS_ONLY_FUNCS : 0);
			ret = chiptest_open(&ct, &i2cdev, rows[i].part, SHIM_ADDR, in, 1, NULL);
			TEST_ROW_ASSERT(ret == (pass ? rows[i].ret : 0), rows[i].part);
			if (ret < 0)
				break;
			TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage0_raw", pass ? buf : want,
						      sizeof(buf)) > 0, rows[i].part);
			TEST_ROW_ASSERT(!pass || (strcmp(buf, want) == 0 &&
						  shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) > 0 &&
						  shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) == 0),
					rows[i].part);
			chiptest_teardown(&ct);
		}
	}
	shim_set_i2c_funcs(0);
}
TEST_CASE(test_smbus_only_adapter, "SMBus-only adapter: byte transfers for the 8-bit parts");

/* ---- mode switches, counted in ioctls ---- */

static void test_mode_switch(void)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 400),
	};

	/* probe: one I2C_RDWR with [setup, config] */
	chipsuite_transfers_vectors(&i2cdev, "max1238", SHIM_ADDR, in, 2, 1, "max1363 i2c-dev");
}
TEST_CASE(test_mode_switch, "mode switch only when needed (I2C_RDWR count)");

/* The model sits at 0x36 when there is no chip at the address: the node needs one. */
static const struct chipsuite_probe_row probe_rows[] = {
	{ "no chip at the address", "max1238", "max1238", 0x36, EMU_FAULT_NONE, -ENXIO,
	  "no answer (ENXIO)" },
	{ "chip that NACKs", "max1238", "max1238", 0, EMU_FAULT_NACK, -ENXIO, "no answer (ENXIO)" },
	{ "bus error", "max1238", "max1238", 0, EMU_FAULT_EIO, -EIO, "no answer (EIO)" },
	{ "chip present", "max1238", "max1238", 0, EMU_FAULT_NONE, 0, "" },
};

static void test_probe(void)
{
	chipsuite_probe(&i2cdev, SHIM_ADDR, probe_rows, NROWS(probe_rows));
}
TEST_CASE(test_probe, "probe through i2c-dev");

MAX1363_CASES_TESTS(" (i2c-dev)");

TEST_MAIN("shim_max1363", NULL, NULL)
