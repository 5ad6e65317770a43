/*
 * test_ina2xx.c - the ina2xx-adc driver against its chip model on an emulated
 * I2C bus: the kernel 6.1 attribute sets of the INA219 and INA226 families,
 * register values and scales from the datasheets' arithmetic (a 0.1 ohm shunt
 * carrying 1 A on an INA219, 10 A through 2 mOhm on an INA226), clipping at
 * the PGA range, integration time, averaging and gain writes with the config
 * register they program, in_shunt_resistor writes at and past their limits,
 * the shunt-resistor property, a sequence of writes as the 6.1 kernel
 * answered it in the QEMU rig, maps/ina2xx.json, and the software buffer:
 * its files as 6.1 shows them, one scan per chip conversion, paced by the
 * conversion-ready flag, no trigger.
 * Expected numbers: shunt register = I x R / LSB (10 uV, 2.5 uV), bus = V /
 * LSB (4 mV in bits 15:3, 1.25 mV), current = shunt x CAL / 4096 (2048),
 * power = current x bus / 5000 (20000), with CAL 4096 (2048) as the driver
 * writes it. Register checks read the chip through a second client.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "iio_buffer.h"
#include "iio_trigger.h"
#include "testutil.h"
#include "sensortest.h"

#define INA_ADDR	0x40
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

/* The chip's CONFIG and CALIBRATION registers, MSB first. */
#define INA_REG_CONFIG	0x00
#define INA_REG_BUS	0x02
#define INA_REG_CAL	0x05

/*
 * @part on a frozen emulated clock with a shunt of @uohm (0: no property)
 * carrying @ma at @mv on the bus; the clock then moves 0.1 s, so that a
 * whole conversion at the driver's settings is latched.
 */
static int ina_setup(struct sensortest *st, const char *part, int uohm, double ma, double mv)
{
	struct emu_input in[] = {
		SENSORTEST_CONST("current", ma), SENSORTEST_CONST("vbus", mv),
		SENSORTEST_CONST("rshunt", uohm ? uohm : 10000),
	};
	struct sensortest_prop props[] = { { "shunt-resistor", uohm }, { NULL, 0 } };
	int ret;

	ret = sensortest_setup(st, BUS_I2C, part, INA_ADDR, in, 3, uohm ? props : NULL, 0.0);
	if (!ret)
		emu_bus_set_time(st->bus, 0.1);
	return ret;
}

static bool ina_text(struct iio_dev *dev, const char *name, const char *want)
{
	char buf[SENSORTEST_VALUE_MAX];

	return sensortest_read(dev, name, buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0;
}

static int ina_reg(struct sensortest *st, uint8_t reg)
{
	struct bus_i2c_client *c;
	int v;

	if (bus_i2c_client_create(st->bus, INA_ADDR, &c))
		return -1;
	v = bus_smbus_read_word_swapped(c, reg);
	bus_i2c_client_destroy(c);
	return v;
}

/* The kernel's files: ina219_channels/ina219_attributes, ina226_channels/ina226_attributes. */
static void test_attribute_sets(void)
{
	static const char *const common[] = {
		"name", "current_timestamp_clock", "in_allow_async_readout",
		"in_shunt_resistor", "integration_time_available", "in_sampling_frequency",
		"in_voltage0_raw", "in_voltage0_scale", "in_voltage0_integration_time",
		"in_voltage1_raw", "in_voltage1_scale", "in_voltage1_integration_time",
		"in_power2_raw", "in_power2_scale", "in_current3_raw", "in_current3_scale",
	};
	static const char *const ina219_only[] = {
		"in_voltage0_hardwaregain", "in_voltage0_hardwaregain_available",
		"in_voltage1_hardwaregain", "in_voltage1_hardwaregain_available",
	};
	static const char *const ina226_only[] = { "in_oversampling_ratio" };
	const char *want[NROWS(common) + NROWS(ina219_only) + 1];
	static const char *const parts[] = { "ina219", "ina220", "ina226", "ina230", "ina231" };
	struct iio_trigger *t;
	struct sensortest st;
	size_t r, n;
	int i, top;

	for (r = 0; r < NROWS(parts); r++) {
		bool is219 = r < 2;

		memcpy(want, common, sizeof(common));
		n = NROWS(common);
		memcpy(&want[n], is219 ? ina219_only : ina226_only,
		       is219 ? sizeof(ina219_only) : sizeof(ina226_only));
		n += is219 ? NROWS(ina219_only) : NROWS(ina226_only);
		want[n] = NULL;
		if (ina_setup(&st, parts[r], 0, 0, 0)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		/* sensortest_same_attrs() compares the top level: buffer files have a '/' */
		for (i = top = 0; i < iio_device_attr_count(st.dev); i++)
			top += !strchr(iio_device_attr_at(st.dev, i)->name, '/');
		TEST_ROW_ASSERT(top == (int)n, parts[r]);
		for (i = 0; want[i]; i++)
			TEST_ROW_ASSERT_GOT(iio_device_attr_find(st.dev, want[i]) != NULL, parts[r],
					    "%s missing", want[i]);
		/* a software buffer: scan elements and buffer/, but no trigger/ */
		TEST_ROW_ASSERT(ina_text(st.dev, "scan_elements/in_voltage1_type",
					 is219 ? "le:u13/16>>3\n" : "le:u16/16>>0\n"), parts[r]);
		TEST_ROW_ASSERT(ina_text(st.dev, "scan_elements/in_current3_type",
					 "le:u16/16>>0\n"), parts[r]);
		TEST_ROW_ASSERT(ina_text(st.dev, "scan_elements/in_timestamp_index", "4\n"),
				parts[r]);
		TEST_ROW_ASSERT(iio_device_attr_find(st.dev, "buffer/enable") != NULL, parts[r]);
		TEST_ROW_ASSERT(iio_device_attr_find(st.dev, "trigger/current_trigger") == NULL,
				parts[r]);
		/* none may be set either (iiod's GETTRIG/SETTRIG answer ENOENT: no file) */
		TEST_ROW_ASSERT(!iio_device_takes_trigger(st.dev) &&
				iio_hrtimer_trigger_create(st.reg, "hrt0", &t) == 0 &&
				iio_device_set_trigger(st.dev, t) == -EINVAL &&
				iio_device_current_trigger(st.dev) == NULL, parts[r]);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_attribute_sets, "the kernel's files per family; a buffer without trigger/");

/*
 * Every buffer file with the value Linux 6.1 shows (QEMU rig, ina219 and
 * ina226 on i2c-stub): scan_elements/ and buffer0/ each with the five
 * elements' _en, _index and _type, buffer/ and buffer0/ with the kfifo's
 * files; 40 in all.
 */
static void test_buffer_files(void)
{
	static const char *const elems[] = { "voltage0", "voltage1", "power2", "current3",
					     "timestamp" };
	static const char *const dirs[] = { "scan_elements", "buffer0" };
	static const char *const kfifo[][2] = {
		{ "data_available", "0\n" }, { "direction", "in\n" }, { "enable", "0\n" },
		{ "length", "2\n" }, { "watermark", "1\n" },
	};
	char name[64], text[32];
	struct sensortest st;
	size_t r, d, e, k;

	for (r = 0; r < 2; r++) {
		if (ina_setup(&st, r ? "ina226" : "ina219", 0, 0, 0)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		TEST_ROW_ASSERT(iio_device_buffer_attr_count(st.dev) == 40,
				r ? "ina226" : "ina219");
		for (d = 0; d < NROWS(dirs); d++) {
			for (e = 0; e < NROWS(elems); e++) {
				snprintf(name, sizeof(name), "%s/in_%s_en", dirs[d], elems[e]);
				TEST_ROW_ASSERT(ina_text(st.dev, name, "0\n"), name);
				snprintf(name, sizeof(name), "%s/in_%s_index", dirs[d], elems[e]);
				snprintf(text, sizeof(text), "%zu\n", e);
				TEST_ROW_ASSERT(ina_text(st.dev, name, text), name);
				snprintf(name, sizeof(name), "%s/in_%s_type", dirs[d], elems[e]);
				TEST_ROW_ASSERT(ina_text(st.dev, name,
							 e == 4 ? "le:s64/64>>0\n" :
							 e == 1 && !r ? "le:u13/16>>3\n" :
							 "le:u16/16>>0\n"), name);
			}
		}
		for (d = 0; d < 2; d++) {
			for (k = 0; k < NROWS(kfifo); k++) {
				snprintf(name, sizeof(name), "%s/%s", d ? "buffer0" : "buffer",
					 kfifo[k][0]);
				TEST_ROW_ASSERT(ina_text(st.dev, name, kfifo[k][1]), name);
			}
		}
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_buffer_files, "scan_elements/, buffer/, buffer0/ as 6.1 shows them");

/* Defaults: the config and calibration written at probe, and what the files read. */
static void test_defaults(void)
{
	static const struct {
		const char *part, *file, *text;
	} rows[] = {
		{ "ina219", "in_voltage0_scale", "0.010000000\n" },	/* 10 uV */
		{ "ina219", "in_voltage1_scale", "4.000000000\n" },	/* 4 mV */
		{ "ina219", "in_current3_scale", "1.000000000\n" },	/* 10 uV / 10 mOhm */
		{ "ina219", "in_power2_scale", "20.000000000\n" },	/* 20 x current LSB */
		{ "ina219", "in_shunt_resistor", "0.010000000\n" },
		{ "ina219", "in_voltage0_integration_time", "0.000532\n" },
		{ "ina219", "in_sampling_frequency", "940\n" },		/* 1e6 / 1064 us */
		{ "ina219", "in_voltage0_hardwaregain", "0.125000000\n" },
		{ "ina219", "in_voltage0_hardwaregain_available",
		  "0.125000000 0.250000000 0.500000000 1.000000000\n" },
		{ "ina219", "in_voltage1_hardwaregain", "1\n" },
		{ "ina219", "in_voltage1_hardwaregain_available", "1 2\n" },
		{ "ina219", "in_allow_async_readout", "0\n" },
		{ "ina226", "in_voltage0_scale", "0.002500000\n" },	/* 2.5 uV */
		{ "ina226", "in_voltage1_scale", "1.250000000\n" },
		{ "ina226", "in_current3_scale", "0.250000000\n" },
		{ "ina226", "in_power2_scale", "6.250000000\n" },	/* 25 x current LSB */
		{ "ina226", "in_voltage1_integration_time", "0.001100\n" },
		{ "ina226", "in_oversampling_ratio", "4\n" },
		{ "ina226", "in_sampling_frequency", "114\n" },	/* 1e6 / (2200 x 4) */
		{ "ina226", "integration_time_available", "0.000140 0.000204 0.000332 "
		  "0.000588 0.001100 0.002116 0.004156 0.008244\n" },
	};
	struct sensortest st;
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (ina_setup(&st, rows[r].part, 0, 0, 0)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		TEST_ROW_ASSERT_GOT(ina_text(st.dev, rows[r].file, rows[r].text), rows[r].file,
				    "%s", rows[r].part);
		/* INA219: 32 V, PGA /8, 12-bit both, continuous; INA226: AVG 4, 1.1 ms both */
		TEST_ROW_ASSERT(ina_reg(&st, INA_REG_CONFIG) ==
				(rows[r].part[5] == '9' ? 0x399f : 0x4327), rows[r].file);
		TEST_ROW_ASSERT(ina_reg(&st, INA_REG_CAL) ==
				(rows[r].part[5] == '9' ? 4096 : 2048), rows[r].file);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_defaults, "probe's config and calibration; the default scales and times");

/* Register values from the datasheets' arithmetic, then raw x scale. */
static void test_measurements(void)
{
	static const struct {
		const char *name, *part;
		int uohm;
		double ma, mv;
		long shunt, bus, power, current;
		const char *cur_scale, *pow_scale;
	} rows[] = {
		/* 100 mV / 10 uV; 12 V / 4 mV; 10000 x 4096 / 4096; 10000 x 3000 / 5000 */
		{ "ina219 1 A, 0.1 ohm, 12 V", "ina219", 100000, 1000, 12000,
		  10000, 3000, 6000, 10000, "0.100000000\n", "2.000000000\n" },
		{ "ina219 -0.5 A", "ina219", 100000, -500, 12000,
		  -5000, 3000, 3000, -5000, "0.100000000\n", "2.000000000\n" },
		/* 400 mV is past the PGA /8 range of 320 mV: 32000 */
		{ "ina219 clipped at 320 mV", "ina219", 100000, 4000, 5000,
		  32000, 1250, 8000, 32000, "0.100000000\n", "2.000000000\n" },
		/* 20 mV / 2.5 uV; 12 V / 1.25 mV; 8000 x 2048 / 2048; 8000 x 9600 / 20000 */
		{ "ina226 10 A, 2 mOhm, 12 V", "ina226", 2000, 10000, 12000,
		  8000, 9600, 3840, 8000, "1.250000000\n", "31.250000000\n" },
		{ "ina231 0.5 A, 0.1 ohm, 3.3 V", "ina231", 100000, 500, 3300,
		  20000, 2640, 2640, 20000, "0.025000000\n", "0.625000000\n" },
	};
	struct sensortest st;
	long v = 0;
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (ina_setup(&st, rows[r].part, rows[r].uohm, rows[r].ma, rows[r].mv)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_voltage0_raw", &v) == 0 &&
				v == rows[r].shunt, rows[r].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_voltage1_raw", &v) == 0 &&
				v == rows[r].bus, rows[r].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_power2_raw", &v) == 0 &&
				v == rows[r].power, rows[r].name);
		TEST_ROW_ASSERT(sensortest_read_int(st.dev, "in_current3_raw", &v) == 0 &&
				v == rows[r].current, rows[r].name);
		TEST_ROW_ASSERT(ina_text(st.dev, "in_current3_scale", rows[r].cur_scale),
				rows[r].name);
		TEST_ROW_ASSERT(ina_text(st.dev, "in_power2_scale", rows[r].pow_scale),
				rows[r].name);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_measurements, "shunt, bus, current, power registers and scales (datasheet)");

/* The PGA as hardwaregain: gain 1 is the +/-40 mV range (4000 counts). */
static void test_pga_and_range(void)
{
	struct sensortest st;
	long v = 0;

	if (ina_setup(&st, "ina219", 100000, 1000, 12000)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage0_hardwaregain", "1"), 0);
	/* PGA field 00, BRNG 1: 0x399f with bits 12:11 cleared */
	CU_ASSERT_EQUAL(ina_reg(&st, INA_REG_CONFIG), 0x219f);
	emu_bus_set_time(st.bus, 0.2);
	CU_ASSERT(sensortest_read_int(st.dev, "in_voltage0_raw", &v) == 0 && v == 4000);
	CU_ASSERT(ina_text(st.dev, "in_voltage0_hardwaregain", "1.000000000\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage0_hardwaregain", "0.25"), 0);
	CU_ASSERT_EQUAL(ina_reg(&st, INA_REG_CONFIG), 0x319f);	/* PGA 10: /4 */
	/* 0.125 at N, 0.124 past it; the closest of the table otherwise */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage0_hardwaregain", "0.125"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage0_hardwaregain", "0.124"), -EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage0_hardwaregain", "1.001"), -EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage0_hardwaregain", "0.7"), 0);
	CU_ASSERT(ina_text(st.dev, "in_voltage0_hardwaregain", "0.500000000\n"));
	/* the bus range: 2 is the 16 V range (BRNG 0) */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage1_hardwaregain", "2"), 0);
	CU_ASSERT_EQUAL(ina_reg(&st, INA_REG_CONFIG) & 0x2000, 0);
	CU_ASSERT(ina_text(st.dev, "in_voltage1_hardwaregain", "2\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage1_hardwaregain", "3"), -EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage1_hardwaregain", "1"), 0);
	CU_ASSERT(ina_text(st.dev, "in_voltage1_scale", "4.000000000\n"));
	sensortest_teardown(&st);
}
TEST_CASE(test_pga_and_range, "INA219 PGA and bus range as hardwaregain; clipping");

static void test_integration_time(void)
{
	static const struct {
		const char *part, *file, *text;
		int ret;
		const char *reads;
		int config;	/* the chip's CONFIG after the write, -1: unchanged */
	} rows[] = {
		/* INA219: 9..12-bit codes 0..3, averaging codes 8..15 (BADC bits 10:7) */
		{ "ina219", "in_voltage1_integration_time", "0.000084", 0, "0.000084\n", 0x381f },
		{ "ina219", "in_voltage1_integration_time", "0.000116", 0, "0.000084\n", 0x381f },
		{ "ina219", "in_voltage1_integration_time", "0.000117", 0, "0.000148\n", 0x389f },
		{ "ina219", "in_voltage1_integration_time", "0.000533", 0, "0.000532\n", 0x3c1f },
		{ "ina219", "in_voltage1_integration_time", "0.068100", 0, "0.068100\n", 0x3f9f },
		{ "ina219", "in_voltage0_integration_time", "0.068100", 0, "0.068100\n", 0x39ff },
		{ "ina219", "in_voltage1_integration_time", "0.068101", -EINVAL, "0.000532\n", -1 },
		{ "ina219", "in_voltage1_integration_time", "0.000083", -EINVAL, "0.000532\n", -1 },
		/* the microseconds alone count: 1 s is 0 us */
		{ "ina219", "in_voltage1_integration_time", "1", -EINVAL, "0.000532\n", -1 },
		/* INA226: VBUSCT bits 8:6, VSHCT 5:3 */
		{ "ina226", "in_voltage1_integration_time", "0.000140", 0, "0.000140\n", 0x4227 },
		{ "ina226", "in_voltage0_integration_time", "0.008244", 0, "0.008244\n", 0x433f },
		{ "ina226", "in_voltage0_integration_time", "0.008245", -EINVAL, "0.001100\n", -1 },
		{ "ina226", "in_voltage0_integration_time", "0.000139", -EINVAL, "0.001100\n", -1 },
		/* AVG bits 11:9: 10 is closer to 4, 11 to 16 */
		{ "ina226", "in_oversampling_ratio", "10", 0, "4\n", -1 },
		{ "ina226", "in_oversampling_ratio", "11", 0, "16\n", 0x4527 },
		{ "ina226", "in_oversampling_ratio", "1024", 0, "1024\n", 0x4f27 },
		{ "ina226", "in_oversampling_ratio", "1025", -EINVAL, "4\n", -1 },
		{ "ina226", "in_oversampling_ratio", "0", -EINVAL, "4\n", -1 },
	};
	struct sensortest st;
	int before;
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (ina_setup(&st, rows[r].part, 0, 0, 0)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		before = ina_reg(&st, INA_REG_CONFIG);
		TEST_ROW_ASSERT_GOT(sensortest_write(st.dev, rows[r].file, rows[r].text) ==
				    rows[r].ret, rows[r].text, "%s", rows[r].file);
		TEST_ROW_ASSERT_GOT(ina_text(st.dev, rows[r].file, rows[r].reads), rows[r].text,
				    "%s", rows[r].file);
		TEST_ROW_ASSERT_GOT(ina_reg(&st, INA_REG_CONFIG) ==
				    (rows[r].config < 0 ? before : rows[r].config), rows[r].text,
				    "config 0x%x", ina_reg(&st, INA_REG_CONFIG));
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_integration_time, "integration time and averaging: limits and the config");

/*
 * One sequence of writes as Linux 6.1 answered it (QEMU rig, ina219 and
 * ina226 on i2c-stub, each line's value read back after the write), except
 * 4295 ohms, which the kernel wraps to 0.032704 (K-70).
 */
static void test_kernel_transcript(void)
{
	static const struct {
		const char *part, *file, *text;
		int ret;
		const char *reads;
	} rows[] = {
		{ "ina219", "in_voltage1_integration_time", "0.000116", 0, "0.000084\n" },
		{ "ina219", "in_voltage1_integration_time", "0.000117", 0, "0.000148\n" },
		{ "ina219", "in_voltage1_integration_time", "0.000533", 0, "0.000532\n" },
		{ "ina219", "in_voltage1_integration_time", "0.068101", -EINVAL, "0.000532\n" },
		{ "ina219", "in_voltage1_integration_time", "1", -EINVAL, "0.000532\n" },
		{ "ina219", "in_voltage0_integration_time", "0.068100", 0, "0.068100\n" },
		{ "ina219", "in_voltage0_hardwaregain", "0.7", 0, "0.500000000\n" },
		{ "ina219", "in_voltage0_hardwaregain", "0.124", -EINVAL, "0.500000000\n" },
		{ "ina219", "in_voltage0_hardwaregain", "1.001", -EINVAL, "0.500000000\n" },
		{ "ina219", "in_voltage1_hardwaregain", "2", 0, "2\n" },
		{ "ina219", "in_voltage1_hardwaregain", "3", -EINVAL, "2\n" },
		{ "ina219", "in_shunt_resistor", "0.05", 0, "0.050000000\n" },
		{ "ina219", "in_shunt_resistor", "0.0000009", -EINVAL, "0.050000000\n" },
		{ "ina219", "in_shunt_resistor", "2147.483648", -EINVAL, "0.050000000\n" },
		{ "ina219", "in_shunt_resistor", "4295", -EINVAL, "0.050000000\n" }, /* K-70 */
		{ "ina219", "in_shunt_resistor", "-1", -EINVAL, "0.050000000\n" },
		{ "ina219", "in_shunt_resistor", "ten", -EINVAL, "0.050000000\n" },
		{ "ina219", "in_shunt_resistor", "2147.483647", 0, "2147.483647000\n" },
		{ "ina219", "in_allow_async_readout", "y", 0, "1\n" },
		{ "ina219", "in_allow_async_readout", "2", -EINVAL, "1\n" },
		{ "ina219", "in_sampling_frequency", "10", -EINVAL, "15\n" },
		{ "ina219", "in_current3_scale", NULL, 0, "0.000004656\n" },
		{ "ina219", "in_power2_scale", NULL, 0, "0.000093132\n" },
		{ "ina226", "in_oversampling_ratio", "10", 0, "4\n" },
		{ "ina226", "in_oversampling_ratio", "11", 0, "16\n" },
		{ "ina226", "in_oversampling_ratio", "1025", -EINVAL, "16\n" },
		{ "ina226", "in_oversampling_ratio", "0", -EINVAL, "16\n" },
		{ "ina226", "in_voltage0_integration_time", "0.008245", -EINVAL, "0.001100\n" },
		{ "ina226", "in_voltage1_integration_time", "0.000140", 0, "0.000140\n" },
		{ "ina226", "in_voltage0_integration_time", "0.008244", 0, "0.008244\n" },
		{ "ina226", "in_oversampling_ratio", "16", 0, "16\n" },
		{ "ina226", "in_sampling_frequency", NULL, 0, "7\n" },
	};
	struct sensortest st219, st226, *st;
	size_t r;

	if (ina_setup(&st219, "ina219", 0, 0, 0) || ina_setup(&st226, "ina226", 0, 0, 0)) {
		TEST_ROW_ASSERT(0, st219.err);
		return;
	}
	for (r = 0; r < NROWS(rows); r++) {
		st = rows[r].part[5] == '9' ? &st219 : &st226;
		if (rows[r].text)
			TEST_ROW_ASSERT_GOT(sensortest_write(st->dev, rows[r].file, rows[r].text) ==
					    rows[r].ret, rows[r].text, "%s", rows[r].file);
		TEST_ROW_ASSERT_GOT(ina_text(st->dev, rows[r].file, rows[r].reads), rows[r].file,
				    "after %s", rows[r].text ? rows[r].text : "-");
	}
	/* the kernel's chip then held CONFIG 0x0c7f: 16 V, PGA /2, BADC 1000, SADC 1111 */
	CU_ASSERT_EQUAL(ina_reg(&st219, INA_REG_CONFIG), 0x0c7f);
	sensortest_teardown(&st219);
	sensortest_teardown(&st226);
}
TEST_CASE(test_kernel_transcript, "a sequence of writes as the 6.1 kernel answered it");

static void test_sampling_frequency(void)
{
	struct sensortest st;

	if (ina_setup(&st, "ina226", 0, 0, 0)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	/* (140 + 8244) us x 16 = 134144 us: 7.45 Hz, rounded */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage1_integration_time", "0.000140"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage0_integration_time", "0.008244"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_oversampling_ratio", "16"), 0);
	CU_ASSERT(ina_text(st.dev, "in_sampling_frequency", "7\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_sampling_frequency", "10"), -EINVAL);
	sensortest_teardown(&st);
}
TEST_CASE(test_sampling_frequency, "sampling frequency follows the times; read-only");

static void test_shunt_resistor(void)
{
	static const struct {
		const char *text;
		int ret;
		const char *reads, *cur_scale;
	} rows[] = {
		{ "0.05", 0, "0.050000000\n", "0.200000000\n" },
		{ "0.000001", 0, "0.000001000\n", "10000.000000000\n" },
		{ "2147.483647", 0, "2147.483647000\n", "0.000004656\n" },
		{ "1\n", 0, "1.000000000\n", "0.010000000\n" },
		/* 0 uOhm, under one uOhm, negative, past INT_MAX uOhm (K-70 from 4295) */
		{ "0", -EINVAL, "0.010000000\n", "1.000000000\n" },
		{ "0.0000009", -EINVAL, "0.010000000\n", "1.000000000\n" },
		{ "-1", -EINVAL, "0.010000000\n", "1.000000000\n" },
		{ "2147.483648", -EINVAL, "0.010000000\n", "1.000000000\n" },
		{ "4295", -EINVAL, "0.010000000\n", "1.000000000\n" },
		{ "4294967296", -EINVAL, "0.010000000\n", "1.000000000\n" },
		{ "ten", -EINVAL, "0.010000000\n", "1.000000000\n" },
	};
	struct sensortest st;
	size_t r;

	for (r = 0; r < NROWS(rows); r++) {
		if (ina_setup(&st, "ina219", 0, 0, 0)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		TEST_ROW_ASSERT(sensortest_write(st.dev, "in_shunt_resistor", rows[r].text) ==
				rows[r].ret, rows[r].text);
		TEST_ROW_ASSERT(ina_text(st.dev, "in_shunt_resistor", rows[r].reads),
				rows[r].text);
		TEST_ROW_ASSERT(ina_text(st.dev, "in_current3_scale", rows[r].cur_scale),
				rows[r].text);
		/* 6.1 keeps the calibration at the datasheet's best value */
		TEST_ROW_ASSERT(ina_reg(&st, INA_REG_CAL) == 4096, rows[r].text);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_shunt_resistor, "in_shunt_resistor: ohms to the micro-ohm, limits, scales");

static void test_shunt_property_and_async(void)
{
	struct sensortest st;
	int ret;

	ret = ina_setup(&st, "ina226", -5, 0, 0);
	CU_ASSERT_EQUAL(ret, -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(st.err, "shunt-resistor must be"));
	if (ina_setup(&st, "ina226", 1, 0, 0)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	CU_ASSERT(ina_text(st.dev, "in_shunt_resistor", "0.000001000\n"));
	CU_ASSERT(ina_text(st.dev, "in_power2_scale", "62500.000000000\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_allow_async_readout", "y"), 0);
	CU_ASSERT(ina_text(st.dev, "in_allow_async_readout", "1\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_allow_async_readout", "0"), 0);
	CU_ASSERT(ina_text(st.dev, "in_allow_async_readout", "0\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_allow_async_readout", "2"), -EINVAL);
	sensortest_teardown(&st);
}
TEST_CASE(test_shunt_property_and_async, "shunt-resistor property; in_allow_async_readout");

/* The model's registers, read as the datasheets describe them, through a second client. */
static void test_model_registers(void)
{
	struct emu_input in[] = {
		{ .key = "current", .sig = { .kind = EMU_SIGNAL_RAMP, .offset = 0,
					     .amplitude = 1000, .period_s = 10 } },
		SENSORTEST_CONST("rshunt", 100000),
	};
	struct bus_i2c_client *c;
	struct sensortest st;

	/* INA219, probed at t = 0: a 1064 us cycle; 100 mA per s through 0.1 ohm */
	CU_ASSERT_EQUAL_FATAL(sensortest_setup(&st, BUS_I2C, "ina219", INA_ADDR, in, 2, NULL,
					       0.0), 0);
	CU_ASSERT_EQUAL_FATAL(bus_i2c_client_create(st.bus, INA_ADDR, &c), 0);
	emu_bus_set_time(st.bus, 0.001);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, INA_REG_BUS) & 0x2, 0);	/* no CNVR */
	emu_bus_set_time(st.bus, 0.0011);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, INA_REG_BUS) & 0x2, 0x2);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, INA_REG_BUS) & 0x2, 0x2);
	(void)bus_smbus_read_word_swapped(c, 0x03);	/* POWER clears CNVR */
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, INA_REG_BUS) & 0x2, 0);
	/* a conversion latched at 5.0 s (within a cycle): 500 mA x 0.1 ohm = 50 mV = 5000 */
	emu_bus_set_time(st.bus, 5.0);
	CU_ASSERT(abs(bus_smbus_read_word_swapped(c, 0x01) - 5000) <= 1);
	/* power-down (MODE 000): the registers keep the last conversion */
	CU_ASSERT_EQUAL(bus_smbus_write_word_swapped(c, INA_REG_CONFIG, 0x3998), 0);
	emu_bus_set_time(st.bus, 7.0);
	CU_ASSERT(abs(bus_smbus_read_word_swapped(c, 0x01) - 5000) <= 1);
	/* shunt triggered (MODE 001): one conversion a cycle later, at 7 s: 7000 */
	CU_ASSERT_EQUAL(bus_smbus_write_word_swapped(c, INA_REG_CONFIG, 0x3999), 0);
	emu_bus_set_time(st.bus, 7.1);
	CU_ASSERT(abs(bus_smbus_read_word_swapped(c, 0x01) - 7001) <= 1);
	emu_bus_set_time(st.bus, 9.0);
	CU_ASSERT(abs(bus_smbus_read_word_swapped(c, 0x01) - 7001) <= 1);
	/* RST: the power-on values, CALIBRATION 0 */
	CU_ASSERT_EQUAL(bus_smbus_write_word_swapped(c, INA_REG_CONFIG, 0x8000), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, INA_REG_CONFIG), 0x399f);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, INA_REG_CAL), 0);
	bus_i2c_client_destroy(c);
	sensortest_teardown(&st);

	/* INA226: the IDs, CVRF in Mask/Enable after (1100 + 1100) x 4 us, cleared by its read */
	CU_ASSERT_EQUAL_FATAL(sensortest_setup(&st, BUS_I2C, "ina226", INA_ADDR, in, 2, NULL,
					       0.0), 0);
	CU_ASSERT_EQUAL_FATAL(bus_i2c_client_create(st.bus, INA_ADDR, &c), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0xfe), 0x5449);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0xff), 0x2260);
	emu_bus_set_time(st.bus, 0.0087);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x06) & 0x8, 0);
	emu_bus_set_time(st.bus, 0.0089);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x06) & 0x8, 0x8);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, 0x06) & 0x8, 0);
	/* CONFIG bits 14:12 read 100 whatever is written */
	CU_ASSERT_EQUAL(bus_smbus_write_word_swapped(c, INA_REG_CONFIG, 0x0127), 0);
	CU_ASSERT_EQUAL(bus_smbus_read_word_swapped(c, INA_REG_CONFIG), 0x4127);
	bus_i2c_client_destroy(c);
	sensortest_teardown(&st);
}
TEST_CASE(test_model_registers, "model: CNVR, CVRF, power-down, triggered, RST, IDs (datasheets)");

/* No chip: the config write fails, as the kernel's "error configuring the device". */
static void test_probe_no_chip(void)
{
	struct sensortest st;
	struct bus *bus;

	CU_ASSERT_EQUAL_FATAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 0, NULL, &bus), 0);
	CU_ASSERT_EQUAL(sensortest_setup_on(&st, bus, "ina219", INA_ADDR, NULL), -ENXIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(st.err, "ina219 at 0-0040: error configuring the device"));
}
TEST_CASE(test_probe_no_chip, "no chip: error configuring the device (ENXIO)");

/* maps/ina2xx.json: both monitors with their shunts; the sine's mean through the INA219 */
static void test_board_file(void)
{
	char err[256];
	struct board *b = board_load(test_path("maps/ina2xx.json"), err, sizeof(err));
	struct iio_dev *d219, *d226;
	long v = 0;

	if (!b)
		fprintf(stderr, "ina2xx.json: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(iio_registry_count(b->reg), 2);
	d219 = iio_registry_at(b->reg, 0);
	d226 = iio_registry_at(b->reg, 1);
	CU_ASSERT(ina_text(d219, "in_shunt_resistor", "0.100000000\n"));
	CU_ASSERT(ina_text(d219, "in_current3_scale", "0.100000000\n"));
	CU_ASSERT(ina_text(d226, "in_shunt_resistor", "0.002000000\n"));
	CU_ASSERT(ina_text(d226, "in_power2_scale", "31.250000000\n"));
	/* a quarter period in, the sine at its peak: 1100 mA x 0.1 ohm = 110 mV, 11000 x 10 uV */
	emu_bus_set_time(board_find_bus(b, "i2c-1"), 2.5);
	CU_ASSERT(sensortest_read_int(d219, "in_voltage0_raw", &v) == 0 && v == 11000);
	CU_ASSERT(sensortest_read_int(d219, "in_current3_raw", &v) == 0 && v == 11000);
	board_destroy(b);
}
TEST_CASE(test_board_file, "maps/ina2xx.json loads: shunts, scales, an input");

/* ---- the software buffer ---- */

#define INA_CAP_MAX	1024

struct ina_reader {
	struct iio_buffer buf;
	int n;
	uint8_t rec[INA_CAP_MAX][32];
};

static void ina_reader_store(struct iio_buffer *buf, const uint8_t *rec, uint64_t lost)
{
	struct ina_reader *r = buf->priv;

	(void)lost;
	if (r->n < INA_CAP_MAX)
		memcpy(r->rec[r->n], rec, (size_t)buf->layout.bytes);
	r->n++;
}

static const struct iio_buffer_ops ina_reader_ops = { .store = ina_reader_store };

static void ina_sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* Capture @ms of real time (the clock runs); Return: scans stored. */
static int ina_capture(struct sensortest *st, struct ina_reader *r, uint64_t mask, bool ts,
		       long ms)
{
	char err[160];
	int i;

	memset(r, 0, sizeof(*r));
	r->buf.ops = &ina_reader_ops;
	r->buf.priv = r;
	r->buf.mask = mask;
	r->buf.timestamp = ts;
	emu_bus_set_time(st->bus, -1);
	if (iio_buffer_attach(st->dev, &r->buf, err, sizeof(err)))
		return -1;
	for (i = 0; i < ms / 10; i++) {
		ina_sleep_ms(10);
		iio_device_buffers_drain(st->dev);
	}
	iio_buffer_detach(st->dev, &r->buf);
	iio_device_buffers_drain(st->dev);
	return r->n;
}

static uint16_t ina_u16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Scans @n of @r (the timestamp at byte 8) never came two to a chip cycle of
 * @cycle_ns: the first and last are at least n - 2 cycles apart (1% slack
 * for the clocks). Timestamps, not counts: a loaded machine stretches the
 * capture's sleeps, not the chip's cycle.
 */
static bool ina_spans_cycles(const struct ina_reader *r, int n, int64_t cycle_ns)
{
	int64_t t0, t1;

	if (n < 3 || n > INA_CAP_MAX)
		return n >= 0 && n < 3;
	memcpy(&t0, r->rec[0] + 8, 8);
	memcpy(&t1, r->rec[n - 1] + 8, 8);
	return t1 - t0 >= (int64_t)(n - 2) * cycle_ns * 99 / 100;
}

/* INA219: the four registers per scan, the bus with its flags; one scan per 1064 us cycle. */
static void test_capture_ina219(void)
{
	static struct ina_reader r;
	struct sensortest st;
	int n, i, gaps = 0;

	if (ina_setup(&st, "ina219", 100000, 1000, 12000)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	n = ina_capture(&st, &r, 0xf, true, 200);
	/* 200 ms at 1.064 ms a cycle: 188 conversions; most of them made a scan */
	CU_ASSERT(n >= 5);
	for (i = 0; i < n && i < INA_CAP_MAX; i++) {
		gaps += ina_u16(r.rec[i]) != 10000;
		gaps += (ina_u16(r.rec[i] + 2) >> 3) != 3000;	/* CNVR/OVF in bits 1:0 */
		gaps += ina_u16(r.rec[i] + 4) != 6000 || ina_u16(r.rec[i] + 6) != 10000;
	}
	CU_ASSERT_EQUAL(gaps, 0);
	/* synced on CNVR, which the read of POWER clears: never two scans of one conversion */
	CU_ASSERT(ina_spans_cycles(&r, n, 1064000));
	sensortest_teardown(&st);
}
TEST_CASE(test_capture_ina219, "INA219 capture: registers as read, one scan a conversion");

/*
 * INA226: CVRF pacing at (1100 + 1100) x 4 us; one channel and the timestamp:
 * the kernel reads CALIBRATION for the timestamp's bit into the padding.
 */
static void test_capture_ina226(void)
{
	static struct ina_reader r;
	struct sensortest st;
	int n;

	if (ina_setup(&st, "ina226", 2000, 10000, 12000)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	n = ina_capture(&st, &r, 0x1, true, 200);
	/* 200 ms / 8.8 ms: 22 conversions, each at most one scan */
	CU_ASSERT(n >= 3 && ina_spans_cycles(&r, n, 8800000));
	CU_ASSERT(n > 0 && ina_u16(r.rec[0]) == 8000 && ina_u16(r.rec[0] + 2) == 2048);
	/* async: the thread's own period, the cycle's, from which late scans are dropped */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_allow_async_readout", "1"), 0);
	n = ina_capture(&st, &r, 0x8, true, 200);
	CU_ASSERT(n >= 3 && ina_spans_cycles(&r, n, 8800000));
	CU_ASSERT(n > 0 && ina_u16(r.rec[0]) == 8000);
	sensortest_teardown(&st);
}
TEST_CASE(test_capture_ina226, "INA226 capture: CVRF pacing, the timestamp's padding, async");

/* Settings are refused while capturing (EBUSY); a trigger cannot be set. */
static void test_capture_busy(void)
{
	static struct ina_reader r;
	struct sensortest st;
	char err[160];

	if (ina_setup(&st, "ina219", 0, 0, 0)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.buf.ops = &ina_reader_ops;
	r.buf.priv = &r;
	r.buf.mask = 0x3;
	emu_bus_set_time(st.bus, -1);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(st.dev, &r.buf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage0_integration_time", "0.000084"),
			-EBUSY);
	CU_ASSERT(ina_text(st.dev, "buffer/enable", "0\n"));	/* buffer0 is not the reader */
	iio_buffer_detach(st.dev, &r.buf);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "in_voltage0_integration_time", "0.000084"), 0);
	/* removal while capturing: the thread is stopped before the chip goes */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "scan_elements/in_voltage0_en", "1"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "buffer/enable", "1"), 0);
	ina_sleep_ms(5);
	sensortest_teardown(&st);
}
TEST_CASE(test_capture_busy, "EBUSY while capturing; removal while capturing");

/* K-71: a bus error in the polling thread ends the capture with that error. */
static void test_capture_bus_error(void)
{
	static const struct emu_fault eio = { EMU_FAULT_EIO, 0, 0, 0 };
	static struct ina_reader r;
	struct sensortest st;
	char err[160];
	int i, failed = 0;

	if (ina_setup(&st, "ina226", 0, 0, 0)) {
		TEST_ROW_ASSERT(0, st.err);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.buf.ops = &ina_reader_ops;
	r.buf.priv = &r;
	r.buf.mask = 0x1;
	emu_bus_set_time(st.bus, -1);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(st.dev, &r.buf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(emu_bus_set_fault(st.bus, INA_ADDR, &eio), 0);
	for (i = 0; i < 200 && !failed; i++) {	/* a cycle is 8.8 ms: well within 2 s */
		ina_sleep_ms(10);
		iio_device_buffers_drain(st.dev);
		failed = iio_device_buffer_failed(st.dev);
	}
	CU_ASSERT_EQUAL(failed, -EIO);
	iio_buffer_detach(st.dev, &r.buf);
	sensortest_teardown(&st);
}
TEST_CASE(test_capture_bus_error, "K-71: a bus error ends the capture with EIO");

TEST_MAIN("ina2xx", NULL, NULL)
