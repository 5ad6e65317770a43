/*
 * ads1015_cases.h - the ads1015 cases that test_ads1015.c (emulated bus) and
 * test_shim_ads1015.c (i2c-dev through the shim) both run, each on its own
 * struct chiptest_backend: raw values of single-ended and differential
 * inputs from the datasheets' LSB sizes at each range, scale and
 * sampling_frequency writes (per channel, N and N+1), capture, bus faults
 * each followed by a right read, and the modes probe and removal leave.
 * Header-only, as chipsuite.h.
 *
 * Instantiated once per suite: the including file defines
 * ADS1015_CASES_BACKEND (a const struct chiptest_backend *) and
 * ADS1015_CASES_ADDR (where the chip sits) first, and puts
 * ADS1015_CASES_TESTS(where); at file scope after its own tests; @where
 * ("" or, e.g., " (i2c-dev)") ends each test's name.
 */
#ifndef IIOWIRE_ADS1015_CASES_H
#define IIOWIRE_ADS1015_CASES_H

#include <errno.h>
#include <string.h>

#include "chipsuite.h"

static inline void ads1015_expect(struct iio_dev *dev, const char *attr, const char *want,
				  const char *row)
{
	char buf[96];

	TEST_ROW_ASSERT_GOT(chiptest_read(dev, attr, buf, sizeof(buf)) > 0 &&
			    strcmp(buf, want) == 0, row, "%s reads \"%s\"", attr, buf);
}

#ifdef ADS1015_CASES_BACKEND

/* ---- raw values from the datasheets' LSB sizes ---- */

/* AIN0 1000 mV, AIN1 250.5 mV, AIN2 -300 mV, AIN3 3000 mV */
static const struct emu_input ads1015_value_inputs[] = {
	CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 250.5),
	CHIPTEST_CONST("AIN2", -300), CHIPTEST_CONST("AIN3", 3000),
};

struct ads1015_value_row {
	const char *name;
	const char *part;
	const char *scale;	/* written to the channel first, or NULL */
	const char *chan;
	int raw;
};

/*
 * LSB = FSR / 2^(bits-1): at +/-2.048 V 1 mV (12 bits) and 62.5 uV (16
 * bits); at +/-6.144 V 3 mV and 187.5 uV; at +/-0.256 V 0.125 mV and
 * 7.8125 uV. Codes round down and clip at -2^(bits-1) and 2^(bits-1) - 1.
 */
static const struct ads1015_value_row ads1015_value_rows[] = {
	{ "ads1015 AIN0", "ads1015", NULL, "voltage0", 1000 },
	{ "ads1015 AIN0-AIN1", "ads1015", NULL, "voltage0-voltage1", 749 },
	{ "ads1015 AIN0-AIN3", "ads1015", NULL, "voltage0-voltage3", -2000 },
	{ "ads1015 AIN1-AIN3 clips low", "ads1015", NULL, "voltage1-voltage3", -2048 },
	{ "ads1015 AIN3 clips high", "ads1015", NULL, "voltage3", 2047 },
	{ "ads1015 AIN2 below ground", "ads1015", NULL, "voltage2", -300 },
	{ "ads1015 AIN3 at 6.144 V", "ads1015", "3", "voltage3", 1000 },
	{ "ads1015 AIN1 at 0.256 V", "ads1015", "0.125", "voltage1", 2004 },
	{ "ads1015 AIN2-AIN3 at 6.144 V", "ads1015", "3", "voltage2-voltage3", -1100 },
	{ "ads1115 AIN0", "ads1115", NULL, "voltage0", 16000 },
	{ "ads1115 AIN0-AIN1", "ads1115", NULL, "voltage0-voltage1", 11992 },
	{ "ads1115 AIN2-AIN3 clips low", "ads1115", NULL, "voltage2-voltage3", -32768 },
	{ "ads1115 AIN3 at 6.144 V", "ads1115", "0.1875", "voltage3", 16000 },
	{ "ads1115 AIN1 at 0.256 V", "ads1115", "0.007813", "voltage1", 32064 },
	{ "tla2024 AIN0-AIN1", "tla2024", NULL, "voltage0-voltage1", 749 },
	{ "tla2024 AIN3 at 4.096 V", "tla2024", "2", "voltage3", 1500 },
};

static inline void ads1015_case_raw_values(void)
{
	char attr[64];
	struct chiptest ct;
	size_t r;
	int val;

	for (r = 0; r < CHIPSUITE_NROWS(ads1015_value_rows); r++) {
		const struct ads1015_value_row *row = &ads1015_value_rows[r];

		if (chiptest_open(&ct, ADS1015_CASES_BACKEND, row->part, ADS1015_CASES_ADDR,
				  ads1015_value_inputs, 4, NULL)) {
			TEST_ROW_ASSERT_GOT(0, row->name, "%s", ct.err);
			continue;
		}
		snprintf(attr, sizeof(attr), "in_%s_scale", row->chan);
		if (row->scale)
			TEST_ROW_ASSERT(chiptest_write(ct.dev, attr, row->scale) == 0, row->name);
		snprintf(attr, sizeof(attr), "in_%s_raw", row->chan);
		val = -99999;
		TEST_ROW_ASSERT_GOT(chiptest_read_int(ct.dev, attr, &val) == 0 && val == row->raw,
				    row->name, "%s = %d", attr, val);
		chiptest_teardown(&ct);
	}
}

/* ---- scale and sampling_frequency writes ---- */

struct ads1015_write_row {
	const char *name;
	const char *part;
	const char *attr;
	const char *val;
	int expect;
	const char *reads;	/* the attribute afterwards */
};

static const struct ads1015_write_row ads1015_write_rows[] = {
	{ "ads1015 scale 3", "ads1015", "in_voltage0_scale", "3", 0, "3.000000000\n" },
	{ "ads1015 scale 0.5", "ads1015", "in_voltage0_scale", "0.5", 0, "0.500000000\n" },
	{ "ads1015 scale 0.125", "ads1015", "in_voltage0_scale", "0.125", 0, "0.125000000\n" },
	{ "ads1015 scale as read back", "ads1015", "in_voltage0_scale", "0.250000000", 0,
	  "0.250000000\n" },
	{ "ads1015 scale 0.3", "ads1015", "in_voltage0_scale", "0.3", -EINVAL, "1.000000000\n" },
	{ "ads1015 scale 4", "ads1015", "in_voltage0_scale", "4", -EINVAL, "1.000000000\n" },
	{ "ads1015 scale -1", "ads1015", "in_voltage0_scale", "-1", -EINVAL, "1.000000000\n" },
	{ "ads1115 scale 0.007813", "ads1115", "in_voltage1-voltage3_scale", "0.007813", 0,
	  "0.007812500\n" },
	{ "ads1115 scale 0.1875", "ads1115", "in_voltage1-voltage3_scale", "0.1875", 0,
	  "0.187500000\n" },
	{ "ads1115 scale 1 (a 12-bit value)", "ads1115", "in_voltage1_scale", "1", -EINVAL,
	  "0.062500000\n" },
	{ "ads1015 3300 SPS", "ads1015", "in_voltage2_sampling_frequency", "3300", 0, "3300\n" },
	{ "ads1015 3301 SPS", "ads1015", "in_voltage2_sampling_frequency", "3301", -EINVAL,
	  "1600\n" },
	{ "ads1015 128 SPS", "ads1015", "in_voltage2_sampling_frequency", "128", 0, "128\n" },
	{ "ads1015 127 SPS", "ads1015", "in_voltage2_sampling_frequency", "127", -EINVAL,
	  "1600\n" },
	{ "ads1015 an ads1115 rate", "ads1015", "in_voltage2_sampling_frequency", "860", -EINVAL,
	  "1600\n" },
	{ "ads1015 the fraction is ignored", "ads1015", "in_voltage2_sampling_frequency",
	  "490.9", 0, "490\n" },
	{ "ads1115 860 SPS", "ads1115", "in_voltage0-voltage1_sampling_frequency", "860", 0,
	  "860\n" },
	{ "ads1115 8 SPS", "ads1115", "in_voltage0-voltage1_sampling_frequency", "8", 0, "8\n" },
	{ "ads1115 861 SPS", "ads1115", "in_voltage0-voltage1_sampling_frequency", "861",
	  -EINVAL, "128\n" },
	{ "tla2024 2400 SPS", "tla2024", "in_voltage3_sampling_frequency", "2400", 0, "2400\n" },
	{ "tla2024 scale 2", "tla2024", "in_voltage3_scale", "2", 0, "2.000000000\n" },
};

static inline void ads1015_case_writes(void)
{
	struct chiptest ct;
	size_t r;

	for (r = 0; r < CHIPSUITE_NROWS(ads1015_write_rows); r++) {
		const struct ads1015_write_row *row = &ads1015_write_rows[r];

		if (chiptest_open(&ct, ADS1015_CASES_BACKEND, row->part, ADS1015_CASES_ADDR,
				  NULL, 0, NULL)) {
			TEST_ROW_ASSERT_GOT(0, row->name, "%s", ct.err);
			continue;
		}
		TEST_ROW_ASSERT(chiptest_write(ct.dev, row->attr, row->val) == row->expect,
				row->name);
		ads1015_expect(ct.dev, row->attr, row->reads, row->name);
		/* per channel, as the kernel's: the others keep their settings */
		if (strcmp(row->part, "ads1115"))
			ads1015_expect(ct.dev, "in_voltage0-voltage3_scale", "1.000000000\n",
				       row->name);
		ads1015_expect(ct.dev, "in_voltage0-voltage3_sampling_frequency",
			       strcmp(row->part, "ads1115") ? "1600\n" : "128\n", row->name);
		chiptest_teardown(&ct);
	}
}

/* ---- capture ---- */

/* A record: the conversion register as a CPU-order s16 (little-endian here), the timestamp. */
static const struct chipsuite_capture_row ads1015_capture_rows[] = {
	{ "ads1015 AIN0", "ads1015", 0, { CHIPTEST_CONST("AIN0", 1000) }, 1, BIT(4), 16,
	  { 0x80, 0x3e } },	/* 1000 << 4 */
	{ "ads1115 AIN0-AIN1", "ads1115", 0,
	  { CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 250.5) }, 2, BIT(0), 16,
	  { 0xd8, 0x2e } },	/* 11992 */
	{ "tla2024 AIN2-AIN3", "tla2024", 0,
	  { CHIPTEST_CONST("AIN2", 100), CHIPTEST_CONST("AIN3", 300) }, 2, BIT(3), 16,
	  { 0x80, 0xf3 } },	/* -200 << 4 */
};

static inline void ads1015_case_capture(void)
{
	chipsuite_capture(ADS1015_CASES_BACKEND, ADS1015_CASES_ADDR, ads1015_capture_rows,
			  CHIPSUITE_NROWS(ads1015_capture_rows));
}

/* ---- bus faults ---- */

/* A fault on a bound ADS1115: the read it hits returns the -errno, the next is right. */
static inline void ads1015_case_faults(void)
{
	static const struct {
		const char *name;
		struct emu_fault fault;
		int err;
	} rows[] = {
		{ "NACK", { EMU_FAULT_NACK, 0, 0, 0 }, -ENXIO },
		{ "EIO", { EMU_FAULT_EIO, 0, 0, 0 }, -EIO },
		{ "hang", { EMU_FAULT_HANG, 0, 0, 20 }, -ETIMEDOUT },
		{ "EIO on the result, after the configuration read", { EMU_FAULT_EIO, 1, 0, 0 },
		  -EIO },
	};
	static const struct emu_fault none = { EMU_FAULT_NONE, 0, 0, 0 };
	const struct chiptest_backend *be = ADS1015_CASES_BACKEND;
	struct chiptest ct;
	size_t r;
	int v = -1;

	CU_ASSERT_EQUAL_FATAL(chiptest_open(&ct, be, "ads1115", ADS1015_CASES_ADDR,
					    ads1015_value_inputs, 4, NULL), 0);
	/* AIN0 1000 mV over 62.5 uV */
	CU_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &v) == 0 && v == 16000);
	for (r = 0; r < CHIPSUITE_NROWS(rows); r++) {
		TEST_ROW_ASSERT(be->set_fault(be, ct.bus, ADS1015_CASES_ADDR, &rows[r].fault) == 0,
				rows[r].name);
		TEST_ROW_ASSERT_GOT(chiptest_read_int(ct.dev, "in_voltage0_raw", &v) == rows[r].err,
				    rows[r].name, "v %d", v);
		TEST_ROW_ASSERT(be->set_fault(be, ct.bus, ADS1015_CASES_ADDR, &none) == 0,
				rows[r].name);
		TEST_ROW_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw", &v) == 0 && v == 16000,
				rows[r].name);
	}
	chiptest_teardown(&ct);
	if (be->open_fds)
		CU_ASSERT_EQUAL(be->open_fds(), 0);
}

/* ---- the modes probe and removal leave ---- */

/*
 * The configuration's low 15 bits (OS reads 0 while converting) after
 * probe and after removal: continuous (MODE 0) while bound, single-shot
 * (power-down) after; with the line, the comparator latching, active low, off.
 */
static inline void ads1015_modes_one(const char *part, bool irq, int bound, int removed)
{
	struct chiptest_props props = { .irq = irq };
	struct bus_i2c_client *c;
	struct chiptest ct;

	if (chiptest_open(&ct, ADS1015_CASES_BACKEND, part, ADS1015_CASES_ADDR, NULL, 0, &props) ||
	    bus_i2c_client_create(ct.bus, ADS1015_CASES_ADDR, &c)) {
		TEST_ROW_ASSERT_GOT(0, part, "%s", ct.err);
		chiptest_teardown(&ct);
		return;
	}
	TEST_ROW_ASSERT((bus_smbus_read_word_swapped(c, 0x01) & 0x7fff) == bound, part);
	iio_device_unregister(ct.reg, ct.dev);
	ct.dev = NULL;
	TEST_ROW_ASSERT((bus_smbus_read_word_swapped(c, 0x01) & 0x7fff) == removed, part);
	bus_i2c_client_destroy(c);
	chiptest_teardown(&ct);
}

static inline void ads1015_case_modes(void)
{
	ads1015_modes_one("ads1015", false, 0x0483, 0x0583);
	ads1015_modes_one("ads1115", true, 0x0487, 0x0587);
	/* the TLA2024 has no comparator: the line changes nothing */
	ads1015_modes_one("tla2024", true, 0x0483, 0x0583);
}

#define ADS1015_CASES_TESTS(where)							\
	TEST_CASE(ads1015_case_raw_values,						\
		  "raw: single-ended and differential, every PGA range, clipping" where);	\
	TEST_CASE(ads1015_case_writes,							\
		  "scale and sampling_frequency writes: per channel, N and N+1" where);	\
	TEST_CASE(ads1015_case_capture,							\
		  "capture: one channel, the conversion register, the timestamp" where);	\
	TEST_CASE(ads1015_case_faults, "bus faults: error, then recovery" where);		\
	TEST_CASE(ads1015_case_modes,							\
		  "continuous after probe, single-shot after removal" where)
#endif /* ADS1015_CASES_BACKEND */

#endif /* IIOWIRE_ADS1015_CASES_H */
