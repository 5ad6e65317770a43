/*
 * bh1750_cases.h - the bh1750 cases that test_bh1750.c (emulated bus) and
 * test_shim_bh1750.c (i2c-dev through the shim) both run, each on its own
 * struct sensorsuite_backend: bus faults on a bound BH1750, each followed by
 * the right count, and a failed MTreg write that keeps the driver's MTreg.
 * Header-only, as sensorsuite.h.
 *
 * Instantiated once per suite: the including file defines
 * BH1750_CASES_BACKEND (a const struct sensorsuite_backend *) first, and puts
 * BH1750_CASES_TESTS(where); at file scope after its own tests; @where
 * ("" or, e.g., " (i2c-dev)") ends each test's name.
 */
#ifndef IIOWIRE_BH1750_CASES_H
#define IIOWIRE_BH1750_CASES_H

#include <errno.h>
#include <string.h>

#include "sensorsuite.h"

/* @attr of @st's device reads @want ("\n" included). */
static inline bool bh1750_reads(struct sensortest *st, const char *attr, const char *want)
{
	char buf[SENSORTEST_VALUE_MAX];

	return sensortest_read(st->dev, attr, buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0;
}

#ifdef BH1750_CASES_BACKEND

/*
 * A fault of one transfer on a fresh BH1750 at 100 lx: the read it hits
 * returns the -errno and the next counts 120 (100 x 1.2 at the default
 * MTreg 69); the same fault on an integration_time write returns the
 * -errno and the driver keeps its MTreg (69 x 1.74 ms = 0.120060 s).
 */
static inline void bh1750_case_faults(void)
{
	static const struct sensorsuite_fault_row rows[] = {
		{ "NACK on the opcode", { EMU_FAULT_NACK, 0, 1, 0 }, -ENXIO },
		{ "EIO on the read", { EMU_FAULT_EIO, 1, 1, 0 }, -EIO },
	};
	const struct emu_input in[] = { SENSORTEST_CONST("illuminance", 100) };
	const struct sensorsuite_backend *be = BH1750_CASES_BACKEND;
	struct sensortest st;
	long v = -1;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!sensorsuite_backend_up(be, &st, "bh1750", in, 1))
			continue;
		TEST_ROW_ASSERT(be->set_fault(&st, &rows[i].fault) == 0, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_illuminance_raw", &v) ==
				rows[i].err, rows[i].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_illuminance_raw", &v) == 0 &&
				v == 120, rows[i].name);
		/* a failed MTreg write keeps the driver's MTreg */
		TEST_ROW_ASSERT(be->set_fault(&st, &rows[i].fault) == 0, rows[i].name);
		TEST_ROW_ASSERT(sensortest_write(st.dev, "in_illuminance_integration_time",
						 "0.240120") == rows[i].err, rows[i].name);
		TEST_ROW_ASSERT(bh1750_reads(&st, "in_illuminance_integration_time", "0.120060\n"),
				rows[i].name);
		sensorsuite_backend_down(be, &st);
	}
}

#define BH1750_CASES_TESTS(where)							\
	TEST_CASE(bh1750_case_faults,							\
		  "bus faults: error, then recovery; MTreg unchanged" where)

#endif /* BH1750_CASES_BACKEND */

#endif /* IIOWIRE_BH1750_CASES_H */
