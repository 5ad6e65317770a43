/*
 * bmp280_cases.h - the bmp280 cases that test_bmp280.c (emulated bus) and
 * test_shim_bmp280.c (i2c-dev through the shim) both run, each on its own
 * struct sensorsuite_backend: bus faults on a bound bmp280, each followed by
 * a right reading, for faults that end by themselves and faults cleared.
 * Header-only, as sensorsuite.h.
 *
 * Instantiated once per suite: the including file defines
 * BMP280_CASES_BACKEND (a const struct sensorsuite_backend *) first, and puts
 * BMP280_CASES_TESTS(where); at file scope after its own tests; @where
 * ("" or, e.g., " (i2c-dev)") ends each test's name.
 */
#ifndef IIOWIRE_BMP280_CASES_H
#define IIOWIRE_BMP280_CASES_H

#include <errno.h>
#include <string.h>

#include "sensorsuite.h"

#ifdef BMP280_CASES_BACKEND

/*
 * A fault on a bound bmp280: the pressure reading it hits returns the
 * -errno, and the next one is the BMP280 datasheet's example (3.12) again
 * (25767233/256 Pa, which the kernel prints as 100.653253906 kPa): by itself
 * after a one-transfer fault, once cleared after the others. The pressure
 * reading is two transfers, the temperature (t_fine) and then the pressure.
 */
static inline void bmp280_case_faults(void)
{
	static const struct sensorsuite_fault_row rows[] = {
		{ "NACK", { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO },
		{ "NACK on one transfer", { EMU_FAULT_NACK, 0, 1, 0 }, -ENXIO },
		{ "EIO", { EMU_FAULT_EIO, 0, 0, 0 }, -EIO },
		{ "EIO on one transfer", { EMU_FAULT_EIO, 0, 1, 0 }, -EIO },
		{ "hang", { EMU_FAULT_HANG, 0, 0, 20 }, -ETIMEDOUT },
		{ "EIO on the pressure read", { EMU_FAULT_EIO, 1, 0, 0 }, -EIO },
		{ "EIO on the pressure read only", { EMU_FAULT_EIO, 1, 1, 0 }, -EIO },
	};
	const struct emu_input in[] = {
		SENSORTEST_CONST("adc_T", 519888), SENSORTEST_CONST("adc_P", 415148),
	};
	const struct sensorsuite_backend *be = BMP280_CASES_BACKEND;
	struct sensortest st;
	char buf[64];
	size_t r;

	if (!sensorsuite_backend_up(be, &st, "bmp280", in, 2))
		return;
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		TEST_ROW_ASSERT(be->set_fault(&st, &rows[r].fault) == 0, rows[r].name);
		TEST_ROW_ASSERT(sensortest_read(st.dev, "in_pressure_input", buf, sizeof(buf)) ==
				rows[r].err, rows[r].name);
		if (!rows[r].fault.count)
			TEST_ROW_ASSERT(be->set_fault(&st, &sensorsuite_no_fault) == 0,
					rows[r].name);
		TEST_ROW_ASSERT_GOT(sensortest_read(st.dev, "in_pressure_input", buf,
						    sizeof(buf)) > 0 &&
				    strcmp(buf, "100.653253906\n") == 0, rows[r].name, "'%s'", buf);
	}
	sensorsuite_backend_down(be, &st);
}

#define BMP280_CASES_TESTS(where)							\
	TEST_CASE(bmp280_case_faults, "faults: the error, then recovery" where)

#endif /* BMP280_CASES_BACKEND */

#endif /* IIOWIRE_BMP280_CASES_H */
