/*
 * ad799x_cases.h - the ad799x cases that test_ad799x.c (emulated bus) and
 * test_shim_ad799x.c (i2c-dev through the shim) both run, each on its own
 * struct chiptest_backend: attribute sets without datasheet names, raw
 * values at every width and reference, refused vref_mv, and bus faults,
 * each followed by a right read. Header-only, as chipsuite.h.
 *
 * Instantiated once per suite: the including file defines
 * AD799X_CASES_BACKEND (a const struct chiptest_backend *) and
 * AD799X_CASES_ADDR (where the chip sits) first, and puts
 * AD799X_CASES_TESTS(where); at file scope after its own tests; @where
 * ("" or, e.g., " (i2c-dev)") ends each test's name.
 */
#ifndef IIOWIRE_AD799X_CASES_H
#define IIOWIRE_AD799X_CASES_H

#include "chipsuite.h"

/* ---- attribute sets: no datasheet names, no differential channels ---- */

static const char *const ad799x_attrs_2[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage_scale", "name",
	"current_timestamp_clock", NULL
};

static const char *const ad799x_attrs_4[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage2_raw", "in_voltage3_raw",
	"in_voltage_scale", "name", "current_timestamp_clock", NULL
};

static const char *const ad799x_attrs_8[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage2_raw", "in_voltage3_raw",
	"in_voltage4_raw", "in_voltage5_raw", "in_voltage6_raw", "in_voltage7_raw",
	"in_voltage_scale", "name", "current_timestamp_clock", NULL
};

/* as in the kernel: consumer maps cannot reach these channels */
static const struct chipsuite_attrset_row ad799x_attrset_rows[] = {
	{ "ad7992", ad799x_attrs_2, true },
	{ "ad7991", ad799x_attrs_4, true },
	{ "ad7994", ad799x_attrs_4, true },
	{ "ad7998", ad799x_attrs_8, true },
};

/** ad799x_attribute_sets() - each part has exactly its set on @be, the chip at @addr. */
static inline void ad799x_attribute_sets(const struct chiptest_backend *be, uint16_t addr)
{
	chipsuite_attribute_sets(be, addr, ad799x_attrset_rows,
				 CHIPSUITE_NROWS(ad799x_attrset_rows));
}

/* ---- raw values ---- */

static const struct chipsuite_value_row ad799x_raw_rows[] = {
	{ "ad7998 channel 7", "ad7998", 4096, "voltage7", 3210, "in_voltage7_raw", 3210 },
	{ "ad7998 channel 4", "ad7998", 4096, "voltage4", 1, "in_voltage4_raw", 1 },
	{ "ad7997 channel 6, 10 bits", "ad7997", 4096, "voltage6", 1003, "in_voltage6_raw", 250 },
	{ "ad7992 channel 1", "ad7992", 2500, "voltage1", 1250, "in_voltage1_raw", 2048 },
	{ "ad7993 channel 2, 10 bits", "ad7993", 2048, "voltage2", 1024, "in_voltage2_raw", 512 },
	{ "ad7994 channel 3", "ad7994", 4096, "voltage3", 4000, "in_voltage3_raw", 4000 },
	{ "ad7991 external reference", "ad7991", 2048, "voltage0", 1024, "in_voltage0_raw", 2048 },
	{ "ad7991 channel 3", "ad7991", 2048, "voltage3", 512, "in_voltage3_raw", 1024 },
	{ "ad7995 channel 1", "ad7995", 4096, "voltage1", 2049, "in_voltage1_raw", 512 },
	{ "ad7999 channel 2, 8 bits", "ad7999", 4096, "voltage2", 4000, "in_voltage2_raw", 250 },
	{ "an input left out reads 0", "ad7998", 4096, "voltage0", 1000, "in_voltage1_raw", 0 },
	{ "12 bits at the reference", "ad7994", 4096, "voltage0", 4096, "in_voltage0_raw", 4095 },
	{ "12 bits above the reference", "ad7998", 4096, "voltage5", 9000, "in_voltage5_raw",
	  4095 },
	{ "12 bits negative", "ad7998", 4096, "voltage5", -100, "in_voltage5_raw", 0 },
	{ "10 bits above the reference", "ad7997", 4096, "voltage0", 5000, "in_voltage0_raw",
	  1023 },
	{ "8 bits above the reference", "ad7999", 3000, "voltage3", 3001, "in_voltage3_raw", 255 },
	{ "8 bits negative", "ad7999", 3000, "voltage3", -3001, "in_voltage3_raw", 0 },
};

/** ad799x_raw_values() - each raw row on @be, the chip at @addr. */
static inline void ad799x_raw_values(const struct chiptest_backend *be, uint16_t addr)
{
	chipsuite_values(be, addr, ad799x_raw_rows, CHIPSUITE_NROWS(ad799x_raw_rows));
}

/** ad799x_vref_invalid() - vref_mv 0 and -3300 are refused on @be. */
static inline void ad799x_vref_invalid(const struct chiptest_backend *be, uint16_t addr)
{
	chipsuite_vref_invalid(be, "ad7998", addr, -3300);
}

/* ---- faults ---- */

/* One input @key at @mv on a 4096 mV reference; after the fault @attr reads @value. */
#define AD799X_FAULT(name, part, mode, expect, key, mv, attr, value)		\
	{ name, { name, part, 4096, key, mv, attr, value }, mode, false, expect, -1 }

/* voltage1 at 1234 mV: 1234 at 12 bits, 1234 / 4 at 10 */
#define AD799X_FAULT1(name, part, mode, expect, value)				\
	AD799X_FAULT(name, part, mode, expect, "voltage1", 1234, "in_voltage1_raw", value)

/* voltage2 at 2048 mV: half scale at 12, 10 or 8 bits */
#define AD799X_FAULT2(name, part, mode, expect, value)				\
	AD799X_FAULT(name, part, mode, expect, "voltage2", 2048, "in_voltage2_raw", value)

static const struct chipsuite_fault_row ad799x_fault_rows[] = {
	AD799X_FAULT1("ad7998 NACK", "ad7998", EMU_FAULT_NACK, -ENXIO, 1234),
	AD799X_FAULT1("ad7998 EIO", "ad7998", EMU_FAULT_EIO, -EIO, 1234),
	AD799X_FAULT1("ad7998 HANG", "ad7998", EMU_FAULT_HANG, -ETIMEDOUT, 1234),
	AD799X_FAULT1("ad7991 NACK", "ad7991", EMU_FAULT_NACK, -ENXIO, 1234),
	AD799X_FAULT1("ad7992 EIO", "ad7992", EMU_FAULT_EIO, -EIO, 1234),
	AD799X_FAULT1("ad7995 HANG", "ad7995", EMU_FAULT_HANG, -ETIMEDOUT, 308),
	AD799X_FAULT2("ad7998 NACK, voltage2", "ad7998", EMU_FAULT_NACK, -ENXIO, 2048),
	AD799X_FAULT2("ad7998 EIO, voltage2", "ad7998", EMU_FAULT_EIO, -EIO, 2048),
	AD799X_FAULT2("ad7998 HANG, voltage2", "ad7998", EMU_FAULT_HANG, -ETIMEDOUT, 2048),
	AD799X_FAULT2("ad7991 NACK, voltage2", "ad7991", EMU_FAULT_NACK, -ENXIO, 2048),
	AD799X_FAULT2("ad7993 EIO", "ad7993", EMU_FAULT_EIO, -EIO, 512),
	AD799X_FAULT2("ad7999 HANG", "ad7999", EMU_FAULT_HANG, -ETIMEDOUT, 128),
};

/** ad799x_faults() - every fault row on @be, the chip at @addr. */
static inline void ad799x_faults(const struct chiptest_backend *be, uint16_t addr)
{
	chipsuite_faults(be, addr, ad799x_fault_rows, CHIPSUITE_NROWS(ad799x_fault_rows));
}

#ifdef AD799X_CASES_BACKEND
static void ad799x_case_attribute_sets(void)
{
	ad799x_attribute_sets(AD799X_CASES_BACKEND, AD799X_CASES_ADDR);
}

static void ad799x_case_raw_values(void)
{
	ad799x_raw_values(AD799X_CASES_BACKEND, AD799X_CASES_ADDR);
}

static void ad799x_case_vref_invalid(void)
{
	ad799x_vref_invalid(AD799X_CASES_BACKEND, AD799X_CASES_ADDR);
}

static void ad799x_case_faults(void)
{
	ad799x_faults(AD799X_CASES_BACKEND, AD799X_CASES_ADDR);
}

#define AD799X_CASES_TESTS(where)							\
	TEST_CASE(ad799x_case_attribute_sets, "attribute sets, no datasheet names" where);	\
	TEST_CASE(ad799x_case_raw_values, "raw values, references, saturation" where);	\
	TEST_CASE(ad799x_case_vref_invalid, "invalid vref_mv refused" where);	\
	TEST_CASE(ad799x_case_faults, "bus faults: error, then recovery" where)
#endif /* AD799X_CASES_BACKEND */

#endif /* IIOWIRE_AD799X_CASES_H */
