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

/* ---- alert events: the irq configuration's files, values and enables ---- */

#define AD799X_EV_FILES(n)							\
	"events/in_voltage" #n "_thresh_rising_value",				\
	"events/in_voltage" #n "_thresh_rising_en",				\
	"events/in_voltage" #n "_thresh_falling_value",				\
	"events/in_voltage" #n "_thresh_falling_en",				\
	"events/in_voltage" #n "_thresh_either_hysteresis"
#define AD799X_EV_DEV_FILES							\
	"events/sampling_frequency", "events/sampling_frequency_available"

static const char *const ad799x_attrs_2_events[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage_scale", "name",
	"current_timestamp_clock", AD799X_EV_FILES(0), AD799X_EV_FILES(1),
	AD799X_EV_DEV_FILES, NULL
};

static const char *const ad799x_attrs_4_events[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage2_raw", "in_voltage3_raw",
	"in_voltage_scale", "name", "current_timestamp_clock",
	AD799X_EV_FILES(0), AD799X_EV_FILES(1), AD799X_EV_FILES(2), AD799X_EV_FILES(3),
	AD799X_EV_DEV_FILES, NULL
};

/* the ad7997/8: limit registers, hence events, on channels 0-3 only */
static const char *const ad799x_attrs_8_events[] = {
	"in_voltage0_raw", "in_voltage1_raw", "in_voltage2_raw", "in_voltage3_raw",
	"in_voltage4_raw", "in_voltage5_raw", "in_voltage6_raw", "in_voltage7_raw",
	"in_voltage_scale", "name", "current_timestamp_clock",
	AD799X_EV_FILES(0), AD799X_EV_FILES(1), AD799X_EV_FILES(2), AD799X_EV_FILES(3),
	AD799X_EV_DEV_FILES, NULL
};

/* with an interrupt line: the kernel's irq_config; the ad7991 has none and keeps its set */
static const struct chipsuite_attrset_row ad799x_event_attrset_rows[] = {
	{ "ad7992", ad799x_attrs_2_events, true, true },
	{ "ad7993", ad799x_attrs_4_events, true, true },
	{ "ad7997", ad799x_attrs_8_events, true, true },
	{ "ad7998", ad799x_attrs_8_events, true, true },
	{ "ad7991", ad799x_attrs_4, true, true },
};

/**
 * struct ad799x_ev_step - one step on a chip probed with an interrupt line:
 * write @write to @attr (expect @ret), or read @attr (expect @read); then,
 * if @reg >= 0, the chip's register @reg (a @word or a byte) holds @regval.
 */
struct ad799x_ev_step {
	const char *attr;
	const char *write;
	int ret;
	const char *read;
	int reg;
	bool word;
	int regval;
};

#define AD799X_EV_W(attr, val, ret)		{ attr, val, ret, NULL, -1, false, 0 }
#define AD799X_EV_R(attr, text)			{ attr, NULL, 0, text, -1, false, 0 }
#define AD799X_EV_WREG(attr, val, reg, word, regval)	{ attr, val, 0, NULL, reg, word, regval }
#define AD799X_EV_REG(reg, word, regval)	{ NULL, NULL, 0, NULL, reg, word, regval }

#define AD799X_EVF(n, what)	"events/in_voltage" #n "_thresh_" what

/* ad7998: 12 bits, a 16-bit configuration; registers DATA_LOW 4+3n, DATA_HIGH 5+3n, HYST 6+3n */
static const struct ad799x_ev_step ad799x_ev_steps_7998[] = {
	/* power-on limits: full scale, zero scale, hysteresis 8 LSB; the irq default 0x0006 */
	AD799X_EV_R(AD799X_EVF(0, "rising_value"), "4095\n"),
	AD799X_EV_R(AD799X_EVF(0, "falling_value"), "0\n"),
	AD799X_EV_R(AD799X_EVF(2, "either_hysteresis"), "8\n"),
	AD799X_EV_R(AD799X_EVF(1, "rising_en"), "0\n"),
	AD799X_EV_REG(0x2, true, 0x0006),
	/* values: 0 .. 4095, written to the chip; the integer part of INT_PLUS_MICRO */
	AD799X_EV_WREG(AD799X_EVF(3, "rising_value"), "4095", 0x0e, true, 0x0fff),
	AD799X_EV_W(AD799X_EVF(3, "rising_value"), "4096", -EINVAL),
	AD799X_EV_W(AD799X_EVF(3, "rising_value"), "-1", -EINVAL),
	AD799X_EV_W(AD799X_EVF(3, "rising_value"), "12abc", -EINVAL),
	AD799X_EV_WREG(AD799X_EVF(1, "falling_value"), "1000.9", 0x07, true, 1000),
	AD799X_EV_R(AD799X_EVF(1, "falling_value"), "1000\n"),
	AD799X_EV_WREG(AD799X_EVF(1, "either_hysteresis"), "16", 0x09, true, 16),
	AD799X_EV_R(AD799X_EVF(1, "either_hysteresis"), "16\n"),
	/* enables: one configuration bit a channel, both directions; ALERT_EN while any */
	AD799X_EV_WREG(AD799X_EVF(1, "rising_en"), "1", 0x2, true, 0x0026),
	AD799X_EV_R(AD799X_EVF(1, "falling_en"), "1\n"),
	AD799X_EV_WREG(AD799X_EVF(3, "falling_en"), "y", 0x2, true, 0x00a6),
	AD799X_EV_W(AD799X_EVF(3, "falling_en"), "2", -EINVAL),
	AD799X_EV_WREG(AD799X_EVF(1, "falling_en"), "0", 0x2, true, 0x0086),
	AD799X_EV_R(AD799X_EVF(1, "rising_en"), "0\n"),
	AD799X_EV_WREG(AD799X_EVF(3, "rising_en"), "0", 0x2, true, 0x0002),
	AD799X_EV_R(AD799X_EVF(3, "rising_en"), "0\n"),
	/* the cycle timer: the table's values; 1953 is listed but not in the table */
	AD799X_EV_R("events/sampling_frequency", "0\n"),
	AD799X_EV_R("events/sampling_frequency_available", "15625 7812 3906 1953 976 488 244 0\n"),
	AD799X_EV_W("events/sampling_frequency", "1953", -EINVAL),
	AD799X_EV_WREG("events/sampling_frequency", "244\n", 0x3, false, 7),
	AD799X_EV_R("events/sampling_frequency", "244\n"),
	AD799X_EV_WREG("events/sampling_frequency", "+15625", 0x3, false, 1),
	AD799X_EV_W("events/sampling_frequency", "abc", -EINVAL),
	AD799X_EV_W("events/sampling_frequency", "-+1", -EINVAL),
	AD799X_EV_W("events/sampling_frequency", "-976", -EINVAL),
	AD799X_EV_W("events/sampling_frequency", "99999999999999999999", -ERANGE),
	AD799X_EV_WREG("events/sampling_frequency", "-0", 0x3, false, 0),
	/* no limit registers above channel 3 */
	AD799X_EV_W(AD799X_EVF(4, "rising_en"), "1", -ENOENT),
};

/* ad7997: 10 bits, left-aligned to bit 11 in the registers */
static const struct ad799x_ev_step ad799x_ev_steps_7997[] = {
	AD799X_EV_R(AD799X_EVF(0, "rising_value"), "1023\n"),
	AD799X_EV_R(AD799X_EVF(3, "either_hysteresis"), "2\n"),
	AD799X_EV_WREG(AD799X_EVF(2, "rising_value"), "1023", 0x0b, true, 0x0ffc),
	AD799X_EV_W(AD799X_EVF(2, "rising_value"), "1024", -EINVAL),
	AD799X_EV_WREG(AD799X_EVF(0, "falling_value"), "250", 0x04, true, 1000),
	AD799X_EV_R(AD799X_EVF(0, "falling_value"), "250\n"),
};

/* ad7992: two channels, an 8-bit configuration */
static const struct ad799x_ev_step ad799x_ev_steps_7992[] = {
	AD799X_EV_REG(0x2, false, 0x06),
	AD799X_EV_WREG(AD799X_EVF(1, "rising_en"), "1", 0x2, false, 0x26),
	AD799X_EV_R(AD799X_EVF(1, "falling_en"), "1\n"),
	AD799X_EV_R(AD799X_EVF(0, "falling_en"), "0\n"),
	AD799X_EV_WREG(AD799X_EVF(1, "rising_en"), "0", 0x2, false, 0x02),
	AD799X_EV_W(AD799X_EVF(2, "rising_en"), "1", -ENOENT),
};

struct ad799x_ev_script {
	const char *part;
	const struct ad799x_ev_step *steps;
	size_t n;
};

static const struct ad799x_ev_script ad799x_ev_scripts[] = {
	{ "ad7998", ad799x_ev_steps_7998, CHIPSUITE_NROWS(ad799x_ev_steps_7998) },
	{ "ad7997", ad799x_ev_steps_7997, CHIPSUITE_NROWS(ad799x_ev_steps_7997) },
	{ "ad7992", ad799x_ev_steps_7992, CHIPSUITE_NROWS(ad799x_ev_steps_7992) },
};

/* One step on @ct; @chip is a second client to the chip for its registers. Return: 0 if it held. */
static inline int ad799x_ev_step_run(struct chiptest *ct, struct bus_i2c_client *chip,
				     const struct ad799x_ev_step *st)
{
	char buf[128];
	int ret;

	if (st->write && chiptest_write(ct->dev, st->attr, st->write) != st->ret)
		return -1;
	if (st->read && (chiptest_read(ct->dev, st->attr, buf, sizeof(buf)) < 0 ||
			 strcmp(buf, st->read) != 0))
		return -1;
	if (st->reg < 0)
		return 0;
	ret = st->word ? bus_smbus_read_word_swapped(chip, (uint8_t)st->reg) :
			 bus_smbus_read_byte_data(chip, (uint8_t)st->reg);
	return ret == st->regval ? 0 : -1;
}

/** ad799x_event_values() - each script on a chip probed with an interrupt line on @be. */
static inline void ad799x_event_values(const struct chiptest_backend *be, uint16_t addr)
{
	struct chiptest_props props = { .irq = true };
	struct bus_i2c_client *chip;
	struct chiptest ct;
	size_t s, i;

	for (s = 0; s < CHIPSUITE_NROWS(ad799x_ev_scripts); s++) {
		const struct ad799x_ev_script *sc = &ad799x_ev_scripts[s];

		if (chiptest_open(&ct, be, sc->part, addr, NULL, 0, &props) ||
		    bus_i2c_client_create(ct.bus, addr, &chip)) {
			TEST_ROW_ASSERT(0, sc->part);
			chiptest_teardown(&ct);
			continue;
		}
		for (i = 0; i < sc->n; i++) {
			const struct ad799x_ev_step *st = &sc->steps[i];

			if (ad799x_ev_step_run(&ct, chip, st))
				fprintf(stderr, "%s step %zu: %s %s\n", sc->part, i,
					st->attr ? st->attr : "register", st->write ? st->write : "");
			TEST_ROW_ASSERT(ad799x_ev_step_run(&ct, chip, st) == 0, sc->part);
		}
		bus_i2c_client_destroy(chip);
		chiptest_teardown(&ct);
	}
}

/** ad799x_event_attribute_sets() - with an interrupt line, each part's set on @be. */
static inline void ad799x_event_attribute_sets(const struct chiptest_backend *be, uint16_t addr)
{
	chipsuite_attribute_sets(be, addr, ad799x_event_attrset_rows,
				 CHIPSUITE_NROWS(ad799x_event_attrset_rows));
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

static void ad799x_case_event_attribute_sets(void)
{
	ad799x_event_attribute_sets(AD799X_CASES_BACKEND, AD799X_CASES_ADDR);
}

static void ad799x_case_event_values(void)
{
	ad799x_event_values(AD799X_CASES_BACKEND, AD799X_CASES_ADDR);
}

/* each word MSB first with its channel-ID nibble; 12, 10 and 8 bits left-aligned as the chips send */
static const struct chipsuite_capture_row ad799x_capture_rows[] = {
	{ "ad7998, voltage0 and voltage3", "ad7998", 4096,
	  { CHIPTEST_CONST("voltage0", 1000), CHIPTEST_CONST("voltage3", 3000) }, 2, 0x9, 16,
	  { 0x03, 0xE8, 0x3B, 0xB8 } },
	{ "ad7992, both inputs", "ad7992", 2500,
	  { CHIPTEST_CONST("voltage0", 1250), CHIPTEST_CONST("voltage1", 2500) }, 2, 0x3, 16,
	  { 0x08, 0x00, 0x1F, 0xFF } },
	{ "ad7997 (10 bits), voltage6", "ad7997", 4096,
	  { CHIPTEST_CONST("voltage6", 1003) }, 1, 1u << 6, 16, { 0x63, 0xE8 } },
};

static void ad799x_case_capture(void)
{
	chipsuite_capture(AD799X_CASES_BACKEND, AD799X_CASES_ADDR, ad799x_capture_rows,
			  CHIPSUITE_NROWS(ad799x_capture_rows));
}

#define AD799X_CASES_TESTS(where)							\
	TEST_CASE(ad799x_case_attribute_sets, "attribute sets, no datasheet names" where);	\
	TEST_CASE(ad799x_case_raw_values, "raw values, references, saturation" where);	\
	TEST_CASE(ad799x_case_vref_invalid, "invalid vref_mv refused" where);	\
	TEST_CASE(ad799x_case_faults, "bus faults: error, then recovery" where);	\
	TEST_CASE(ad799x_case_event_attribute_sets,					\
		  "with an irq: events/ files of the parts with limits" where);	\
	TEST_CASE(ad799x_case_event_values,						\
		  "thresholds, hysteresis, enables, cycle timer on the chip" where);	\
	TEST_CASE(ad799x_case_capture,							\
		  "capture: scans read, the kernel's bytes, the emulated run's" where)
#endif /* AD799X_CASES_BACKEND */

#endif /* IIOWIRE_AD799X_CASES_H */
