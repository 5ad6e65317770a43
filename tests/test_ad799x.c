/*
 * test_ad799x.c - the ad799x driver (drivers/adc/ad799x.c) against its chip
 * model on the emulated bus: every part's name, inputs and scale (default
 * supply and vref_mv), attribute sets without datasheet names, raw values,
 * saturation, the ad7991's external reference, one transfer a read, each
 * bus fault, and probe failures (no chip, bus errors, a different chip).
 * Tests are tables of named rows; the row name is what CUnit reports.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

#define AD799X_TEST_ADDR	0x21

#define AD799X_CASES_BACKEND	(&chiptest_emulated)
#define AD799X_CASES_ADDR	AD799X_TEST_ADDR
#include "ad799x_cases.h"
#define NROWS(a)		CHIPSUITE_NROWS(a)

/* ---- every part ---- */

struct part_row {
	const char *name;
	int ninputs;
	const char *scale_vdd;		/* no vref_mv: 3300 mV over 2^bits */
	const char *scale_4096;		/* vref_mv 4096 */
	int raw_vdd;			/* voltage0 at 1000 mV, 3300 mV reference */
	int raw_4096;			/* the last input at 1500 mV, 4096 mV reference */
	unsigned long probe_transfers;	/* configuration write (+ read back) */
};

static const struct part_row part_rows[] = {
	{ "ad7991", 4, "0.805664062", "1.000000000", 1241, 1500, 1 },
	{ "ad7995", 4, "3.222656250", "4.000000000", 310, 375, 1 },
	{ "ad7999", 4, "12.890625000", "16.000000000", 77, 93, 1 },
	{ "ad7992", 2, "0.805664062", "1.000000000", 1241, 1500, 2 },
	{ "ad7993", 4, "3.222656250", "4.000000000", 310, 375, 2 },
	{ "ad7994", 4, "0.805664062", "1.000000000", 1241, 1500, 2 },
	{ "ad7997", 8, "3.222656250", "4.000000000", 310, 375, 2 },
	{ "ad7998", 8, "0.805664062", "1.000000000", 1241, 1500, 2 },
};

static void test_every_part(void)
{
	size_t r;
	int pass;

	for (r = 0; r < NROWS(part_rows); r++) {
		const struct part_row *row = &part_rows[r];

		/* pass 0: no vref_mv (the default supply); pass 1: vref_mv 4096 */
		for (pass = 0; pass < 2; pass++) {
			struct chiptest_props props = { pass == 1, 4096 };
			char last[24], want[32], buf[64];
			struct emu_input in[2];
			struct chiptest ct;
			int val = -1, ret;

			snprintf(last, sizeof(last), "voltage%d", row->ninputs - 1);
			in[0] = (struct emu_input)CHIPTEST_CONST("voltage0", 1000);
			in[1] = (struct emu_input)CHIPTEST_CONST(last, 1500);
			ret = chiptest_setup(&ct, row->name, AD799X_TEST_ADDR, in, 2, &props);
			TEST_ROW_ASSERT(ret == 0, row->name);
			if (ret) {
				fprintf(stderr, "%s: %s\n", row->name, ct.err);
				continue;
			}
			TEST_ROW_ASSERT(emu_bus_transfers(ct.bus, AD799X_TEST_ADDR) ==
					row->probe_transfers, row->name);
			snprintf(want, sizeof(want), "%s\n", row->name);
			TEST_ROW_ASSERT(chiptest_read(ct.dev, "name", buf, sizeof(buf)) > 0 &&
					strcmp(buf, want) == 0, row->name);
			TEST_ROW_ASSERT(chipsuite_count_attrs(ct.dev, "in_voltage%d_raw") ==
					row->ninputs, row->name);
			snprintf(want, sizeof(want), "%s\n",
				 pass ? row->scale_4096 : row->scale_vdd);
			TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage_scale", buf,
						      sizeof(buf)) > 0 && strcmp(buf, want) == 0,
					row->name);
			if (pass == 0) {
				TEST_ROW_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw",
								  &val) == 0 &&
						val == row->raw_vdd, row->name);
			} else {
				snprintf(want, sizeof(want), "in_voltage%d_raw", row->ninputs - 1);
				TEST_ROW_ASSERT(chiptest_read_int(ct.dev, want, &val) == 0 &&
						val == row->raw_4096, row->name);
			}
			chiptest_teardown(&ct);
		}
	}
}
TEST_CASE(test_every_part, "every part: name, inputs, scale, raw");

/* ---- bus traffic ---- */

static void test_transfers(void)
{
	static const char *const parts[] = { "ad7991", "ad7994", "ad7998" };
	size_t p;

	for (p = 0; p < NROWS(parts); p++)
		chipsuite_transfers_vectors(&chiptest_emulated, parts[p], AD799X_TEST_ADDR,
					    NULL, 0, -1, "ad799x");
}
TEST_CASE(test_transfers, "one transfer a conversion");

/* ---- probe failures ---- */

static const struct chipsuite_probe_row probe_rows[] = {
	{ "ad7998, no chip", "ad7998", NULL, 0, EMU_FAULT_NONE, -ENXIO, "no answer (ENXIO)" },
	{ "ad7991, no chip", "ad7991", NULL, 0, EMU_FAULT_NONE, -ENXIO, "no answer (ENXIO)" },
	{ "ad7994, bus error", "ad7994", "ad7994", 0, EMU_FAULT_EIO, -EIO, "no answer (EIO)" },
	{ "ad7997, hung chip", "ad7997", "ad7997", 0, EMU_FAULT_HANG, -ETIMEDOUT,
	  "no answer (ETIMEDOUT)" },
	{ "ad7998 driver, max1363 chip", "ad7998", "max1363", 0, EMU_FAULT_NONE, -EIO,
	  "configuration reads back 0xf000, wrote 0x0000 (EIO)" },
	{ "ad7994 driver, max1363 chip", "ad7994", "max1363", 0, EMU_FAULT_NONE, -EIO,
	  "configuration reads back 0x00f0, wrote 0x0000 (EIO)" },
};

static void test_probe_failure(void)
{
	chipsuite_probe(&chiptest_emulated, AD799X_TEST_ADDR, probe_rows, NROWS(probe_rows));
}
TEST_CASE(test_probe_failure, "probe failures name bus and address");

AD799X_CASES_TESTS("");

TEST_MAIN("ad799x", NULL, NULL)
