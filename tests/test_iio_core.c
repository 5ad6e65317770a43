/*
 * test_iio_core.c - ABI name tables, attribute generation and attribute
 * access of the IIO core (drivers/iio_core.c).
 *
 * Names are checked against the exact strings of reference/kernel-iio-facts.md
 * 1.4-1.7 (every table entry, every worked example); attribute sets are built
 * from small static chan_spec tables and compared in order, mode and owner;
 * reads and writes go through a fake driver whose callbacks record what the
 * core passed them, so a malformed write can be shown to call nothing. Each
 * device is made with iio_device_alloc() and released with iio_device_put().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio.h"
#include "iio_core.h"
#include "testutil.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- name tables ---- */

struct name_row {
	int value;
	const char *name;
};

static const struct name_row type_rows[] = {
	{ IIO_VOLTAGE, "voltage" }, { IIO_CURRENT, "current" }, { IIO_POWER, "power" },
	{ IIO_ACCEL, "accel" }, { IIO_ANGL_VEL, "anglvel" }, { IIO_MAGN, "magn" },
	{ IIO_LIGHT, "illuminance" }, { IIO_INTENSITY, "intensity" },
	{ IIO_PROXIMITY, "proximity" }, { IIO_TEMP, "temp" }, { IIO_INCLI, "incli" },
	{ IIO_ROT, "rot" }, { IIO_ANGL, "angl" }, { IIO_TIMESTAMP, "timestamp" },
	{ IIO_CAPACITANCE, "capacitance" }, { IIO_ALTVOLTAGE, "altvoltage" },
	{ IIO_CCT, "cct" }, { IIO_PRESSURE, "pressure" },
	{ IIO_HUMIDITYRELATIVE, "humidityrelative" }, { IIO_ACTIVITY, "activity" },
	{ IIO_STEPS, "steps" }, { IIO_ENERGY, "energy" }, { IIO_DISTANCE, "distance" },
	{ IIO_VELOCITY, "velocity" }, { IIO_CONCENTRATION, "concentration" },
	{ IIO_RESISTANCE, "resistance" }, { IIO_PH, "ph" }, { IIO_UVINDEX, "uvindex" },
	{ IIO_ELECTRICALCONDUCTIVITY, "electricalconductivity" }, { IIO_COUNT, "count" },
	{ IIO_INDEX, "index" }, { IIO_GRAVITY, "gravity" },
	{ IIO_POSITIONRELATIVE, "positionrelative" }, { IIO_PHASE, "phase" },
	{ IIO_MASSCONCENTRATION, "massconcentration" }, { IIO_DELTA_ANGL, "deltaangl" },
	{ IIO_DELTA_VELOCITY, "deltavelocity" }, { IIO_COLORTEMP, "colortemp" },
	{ IIO_CHROMATICITY, "chromaticity" }, { IIO_ATTENTION, "attention" },
	{ IIO_ALTCURRENT, "altcurrent" }, { IIOWIRE_IIO_COVERAGE, "coverage" },
};

static const struct name_row modifier_rows[] = {
	{ IIO_MOD_X, "x" }, { IIO_MOD_Y, "y" }, { IIO_MOD_Z, "z" },
	{ IIO_MOD_X_AND_Y, "x&y" }, { IIO_MOD_X_AND_Z, "x&z" }, { IIO_MOD_Y_AND_Z, "y&z" },
	{ IIO_MOD_X_AND_Y_AND_Z, "x&y&z" }, { IIO_MOD_X_OR_Y, "x|y" },
	{ IIO_MOD_X_OR_Z, "x|z" }, { IIO_MOD_Y_OR_Z, "y|z" }, { IIO_MOD_X_OR_Y_OR_Z, "x|y|z" },
	{ IIO_MOD_LIGHT_BOTH, "both" }, { IIO_MOD_LIGHT_IR, "ir" },
	{ IIO_MOD_ROOT_SUM_SQUARED_X_Y, "sqrt(x^2+y^2)" },
	{ IIO_MOD_SUM_SQUARED_X_Y_Z, "x^2+y^2+z^2" }, { IIO_MOD_LIGHT_CLEAR, "clear" },
	{ IIO_MOD_LIGHT_RED, "red" }, { IIO_MOD_LIGHT_GREEN, "green" },
	{ IIO_MOD_LIGHT_BLUE, "blue" }, { IIO_MOD_QUATERNION, "quaternion" },
	{ IIO_MOD_TEMP_AMBIENT, "ambient" }, { IIO_MOD_TEMP_OBJECT, "object" },
	{ IIO_MOD_NORTH_MAGN, "from_north_magnetic" }, { IIO_MOD_NORTH_TRUE, "from_north_true" },
	{ IIO_MOD_NORTH_MAGN_TILT_COMP, "from_north_magnetic_tilt_comp" },
	{ IIO_MOD_NORTH_TRUE_TILT_COMP, "from_north_true_tilt_comp" },
	{ IIO_MOD_RUNNING, "running" }, { IIO_MOD_JOGGING, "jogging" },
	{ IIO_MOD_WALKING, "walking" }, { IIO_MOD_STILL, "still" },
	{ IIO_MOD_ROOT_SUM_SQUARED_X_Y_Z, "sqrt(x^2+y^2+z^2)" }, { IIO_MOD_I, "i" },
	{ IIO_MOD_Q, "q" }, { IIO_MOD_CO2, "co2" }, { IIO_MOD_VOC, "voc" },
	{ IIO_MOD_LIGHT_UV, "uv" }, { IIO_MOD_LIGHT_DUV, "duv" }, { IIO_MOD_PM1, "pm1" },
	{ IIO_MOD_PM2P5, "pm2p5" }, { IIO_MOD_PM4, "pm4" }, { IIO_MOD_PM10, "pm10" },
	{ IIO_MOD_ETHANOL, "ethanol" }, { IIO_MOD_H2, "h2" }, { IIO_MOD_O2, "o2" },
	{ IIO_MOD_LINEAR_X, "linear_x" }, { IIO_MOD_LINEAR_Y, "linear_y" },
	{ IIO_MOD_LINEAR_Z, "linear_z" }, { IIO_MOD_PITCH, "pitch" }, { IIO_MOD_YAW, "yaw" },
	{ IIO_MOD_ROLL, "roll" }, { IIO_MOD_LIGHT_UVA, "uva" }, { IIO_MOD_LIGHT_UVB, "uvb" },
	{ IIO_MOD_RMS, "rms" }, { IIO_MOD_ACTIVE, "active" }, { IIO_MOD_REACTIVE, "reactive" },
	{ IIO_MOD_APPARENT, "apparent" },
};

static const struct name_row postfix_rows[] = {
	{ IIO_CHAN_INFO_RAW, "raw" }, { IIO_CHAN_INFO_PROCESSED, "input" },
	{ IIO_CHAN_INFO_SCALE, "scale" }, { IIO_CHAN_INFO_OFFSET, "offset" },
	{ IIO_CHAN_INFO_CALIBSCALE, "calibscale" }, { IIO_CHAN_INFO_CALIBBIAS, "calibbias" },
	{ IIO_CHAN_INFO_PEAK, "peak_raw" }, { IIO_CHAN_INFO_PEAK_SCALE, "peak_scale" },
	{ IIO_CHAN_INFO_QUADRATURE_CORRECTION_RAW, "quadrature_correction_raw" },
	{ IIO_CHAN_INFO_AVERAGE_RAW, "mean_raw" },
	{ IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY, "filter_low_pass_3db_frequency" },
	{ IIO_CHAN_INFO_HIGH_PASS_FILTER_3DB_FREQUENCY, "filter_high_pass_3db_frequency" },
	{ IIO_CHAN_INFO_SAMP_FREQ, "sampling_frequency" },
	{ IIO_CHAN_INFO_FREQUENCY, "frequency" }, { IIO_CHAN_INFO_PHASE, "phase" },
	{ IIO_CHAN_INFO_HARDWAREGAIN, "hardwaregain" },
	{ IIO_CHAN_INFO_HYSTERESIS, "hysteresis" },
	{ IIO_CHAN_INFO_HYSTERESIS_RELATIVE, "hysteresis_relative" },
	{ IIO_CHAN_INFO_INT_TIME, "integration_time" }, { IIO_CHAN_INFO_ENABLE, "en" },
	{ IIO_CHAN_INFO_CALIBHEIGHT, "calibheight" },
	{ IIO_CHAN_INFO_CALIBWEIGHT, "calibweight" },
	{ IIO_CHAN_INFO_DEBOUNCE_COUNT, "debounce_count" },
	{ IIO_CHAN_INFO_DEBOUNCE_TIME, "debounce_time" },
	{ IIO_CHAN_INFO_CALIBEMISSIVITY, "calibemissivity" },
	{ IIO_CHAN_INFO_OVERSAMPLING_RATIO, "oversampling_ratio" },
	{ IIO_CHAN_INFO_THERMOCOUPLE_TYPE, "thermocouple_type" },
	{ IIO_CHAN_INFO_CALIBAMBIENT, "calibambient" },
	{ IIO_CHAN_INFO_ZEROPOINT, "zeropoint" }, { IIO_CHAN_INFO_TROUGH, "trough_raw" },
	{ IIO_CHAN_INFO_CONVDELAY, "convdelay" }, { IIO_CHAN_INFO_POWERFACTOR, "powerfactor" },
};

static bool row_name_is(const char *got, const char *want)
{
	return got && strcmp(got, want) == 0;
}

/* Every enum value has an entry, and each entry is the exact kernel string. */
static void test_chan_type_table(void)
{
	size_t i;
	int t;

	CU_ASSERT_EQUAL(ARRAY_SIZE(type_rows), IIOWIRE_IIO_CHAN_TYPE_COUNT);
	for (t = 0; t < IIOWIRE_IIO_CHAN_TYPE_COUNT; t++)
		TEST_ROW_ASSERT(iio_chan_type_name((enum iio_chan_type)t) != NULL,
				"every type has a name");
	for (i = 0; i < ARRAY_SIZE(type_rows); i++) {
		enum iio_chan_type type = (enum iio_chan_type)type_rows[i].value;

		TEST_ROW_ASSERT(row_name_is(iio_chan_type_name(type), type_rows[i].name),
				type_rows[i].name);
		TEST_ROW_ASSERT(iio_chan_type_from_name(type_rows[i].name) == type_rows[i].value,
				type_rows[i].name);
	}
	CU_ASSERT_PTR_NULL(iio_chan_type_name((enum iio_chan_type)IIOWIRE_IIO_CHAN_TYPE_COUNT));
	CU_ASSERT_PTR_NULL(iio_chan_type_name((enum iio_chan_type)-1));
	CU_ASSERT_EQUAL(iio_chan_type_from_name("light"), -EINVAL);
	CU_ASSERT_EQUAL(iio_chan_type_from_name("delta_angl"), -EINVAL);
	CU_ASSERT_EQUAL(iio_chan_type_from_name(""), -EINVAL);
	CU_ASSERT_EQUAL(iio_chan_type_from_name(NULL), -EINVAL);
}
TEST_CASE(test_chan_type_table, "channel type table");

static void test_modifier_table(void)
{
	size_t i;
	int m;

	/* all but IIO_NO_MOD, which adds nothing to a name */
	CU_ASSERT_EQUAL(ARRAY_SIZE(modifier_rows), IIOWIRE_IIO_MODIFIER_COUNT - 1);
	CU_ASSERT_PTR_NULL(iio_modifier_name(IIO_NO_MOD));
	for (m = 1; m < IIOWIRE_IIO_MODIFIER_COUNT; m++)
		TEST_ROW_ASSERT(iio_modifier_name((enum iio_modifier)m) != NULL,
				"every modifier has a name");
	for (i = 0; i < ARRAY_SIZE(modifier_rows); i++) {
		enum iio_modifier mod = (enum iio_modifier)modifier_rows[i].value;

		TEST_ROW_ASSERT(row_name_is(iio_modifier_name(mod), modifier_rows[i].name),
				modifier_rows[i].name);
	}
	/* UVA/UVB follow ROLL in the uapi enum (6.8 final), then the 6.18 power ones */
	CU_ASSERT_EQUAL(IIO_MOD_LIGHT_UVA, IIO_MOD_ROLL + 1);
	CU_ASSERT_EQUAL(IIO_MOD_APPARENT, IIO_MOD_ROLL + 6);
	CU_ASSERT_PTR_NULL(iio_modifier_name((enum iio_modifier)IIOWIRE_IIO_MODIFIER_COUNT));
}
TEST_CASE(test_modifier_table, "modifier table");

static void test_postfix_table(void)
{
	size_t i;
	int b;

	CU_ASSERT_EQUAL(ARRAY_SIZE(postfix_rows), IIO_CHAN_INFO_COUNT);
	for (b = 0; b < IIO_CHAN_INFO_COUNT; b++)
		TEST_ROW_ASSERT(iio_chan_info_postfix((enum iio_chan_info_enum)b) != NULL,
				"every info bit has a postfix");
	for (i = 0; i < ARRAY_SIZE(postfix_rows); i++) {
		TEST_ROW_ASSERT(postfix_rows[i].value == (int)i, postfix_rows[i].name);
		TEST_ROW_ASSERT(row_name_is(iio_chan_info_postfix(
					(enum iio_chan_info_enum)postfix_rows[i].value),
					    postfix_rows[i].name), postfix_rows[i].name);
	}
	CU_ASSERT_PTR_NULL(iio_chan_info_postfix(IIO_CHAN_INFO_COUNT));
}
TEST_CASE(test_postfix_table, "info postfix table");

static void test_shared_by_names(void)
{
	static const struct name_row rows[] = {
		{ IIO_SEPARATE, "separate" },
		{ IIO_SHARED_BY_TYPE, "shared_by_type" },
		{ IIO_SHARED_BY_DIR, "shared_by_dir" },
		{ IIO_SHARED_BY_ALL, "shared_by_all" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		TEST_ROW_ASSERT(row_name_is(iio_shared_by_name((enum iio_shared_by)rows[i].value),
					    rows[i].name), rows[i].name);
	CU_ASSERT_PTR_NULL(iio_shared_by_name((enum iio_shared_by)4));
}
TEST_CASE(test_shared_by_names, "sharing level names");

/* ---- name building (facts 1.2 and 1.7) ---- */

static const struct iio_chan_spec ch_v3 = {
	.type = IIO_VOLTAGE, .indexed = 1, .channel = 3,
};
static const struct iio_chan_spec ch_diff01 = {
	.type = IIO_VOLTAGE, .indexed = 1, .differential = 1, .channel = 0, .channel2 = 1,
};
static const struct iio_chan_spec ch_diff_noindex = {
	.type = IIO_VOLTAGE, .differential = 1, .channel = 0, .channel2 = 1,
};
static const struct iio_chan_spec ch_accel_x = {
	.type = IIO_ACCEL, .modified = 1, .channel2 = IIO_MOD_X,
};
static const struct iio_chan_spec ch_accel2_x = {
	.type = IIO_ACCEL, .modified = 1, .indexed = 1, .channel = 2, .channel2 = IIO_MOD_X,
};
static const struct iio_chan_spec ch_v0_supply = {
	.type = IIO_VOLTAGE, .indexed = 1, .channel = 0, .extend_name = "supply",
};
static const struct iio_chan_spec ch_accel_x_foo = {
	.type = IIO_ACCEL, .modified = 1, .channel2 = IIO_MOD_X, .extend_name = "foo",
};
static const struct iio_chan_spec ch_out_v0 = {
	.type = IIO_VOLTAGE, .indexed = 1, .channel = 0, .output = 1,
};
static const struct iio_chan_spec ch_light0 = {
	.type = IIO_LIGHT, .indexed = 1, .channel = 0,
};
static const struct iio_chan_spec ch_int_both = {
	.type = IIO_INTENSITY, .modified = 1, .channel2 = IIO_MOD_LIGHT_BOTH,
};
static const struct iio_chan_spec ch_int_ir = {
	.type = IIO_INTENSITY, .modified = 1, .channel2 = IIO_MOD_LIGHT_IR,
};
static const struct iio_chan_spec ch_temp = {
	.type = IIO_TEMP,
};
static const struct iio_chan_spec ch_rot = {
	.type = IIO_ROT, .modified = 1, .channel2 = IIO_MOD_NORTH_MAGN_TILT_COMP,
};
static const struct iio_chan_spec ch_deltaangl0 = {
	.type = IIO_DELTA_ANGL, .indexed = 1, .channel = 0,
};
static const struct iio_chan_spec ch_altcurrent1 = {
	.type = IIO_ALTCURRENT, .indexed = 1, .channel = 1, .output = 1,
};
static const struct iio_chan_spec ch_coverage = {
	.type = IIOWIRE_IIO_COVERAGE,
};
static const struct iio_chan_spec ch_bad_mod = {
	.type = IIO_ACCEL, .modified = 1, .channel2 = IIOWIRE_IIO_MODIFIER_COUNT,
};
static const struct iio_chan_spec ch_bad_type = {
	.type = (enum iio_chan_type)IIOWIRE_IIO_CHAN_TYPE_COUNT, .indexed = 1,
};

struct build_row {
	const char *expected;	/* row name too */
	const struct iio_chan_spec *chan;
	const char *postfix;
	enum iio_shared_by shared;
	int ret;		/* 0: expect the name */
};

static const struct build_row build_rows[] = {
	{ "in_voltage3_raw", &ch_v3, "raw", IIO_SEPARATE, 0 },
	{ "in_voltage_scale", &ch_v3, "scale", IIO_SHARED_BY_TYPE, 0 },
	{ "in_sampling_frequency", &ch_v3, "sampling_frequency", IIO_SHARED_BY_DIR, 0 },
	{ "sampling_frequency", &ch_v3, "sampling_frequency", IIO_SHARED_BY_ALL, 0 },
	{ "in_voltage3_raw_available", &ch_v3, "raw_available", IIO_SEPARATE, 0 },
	{ "in_voltage_scale_available", &ch_v3, "scale_available", IIO_SHARED_BY_TYPE, 0 },
	{ "in_voltage0-voltage1_raw", &ch_diff01, "raw", IIO_SEPARATE, 0 },
	{ "in_voltage-voltage_scale", &ch_diff01, "scale", IIO_SHARED_BY_TYPE, 0 },
	{ "in_sampling_frequency", &ch_diff01, "sampling_frequency",
	  IIO_SHARED_BY_DIR, 0 },
	{ "oversampling_ratio", &ch_diff01, "oversampling_ratio",
	  IIO_SHARED_BY_ALL, 0 },
	{ "differential separate needs an index", &ch_diff_noindex, "raw", IIO_SEPARATE,
	  -EINVAL },
	{ "in_voltage-voltage_scale", &ch_diff_noindex, "scale", IIO_SHARED_BY_TYPE, 0 },
	{ "in_accel_x_raw", &ch_accel_x, "raw", IIO_SEPARATE, 0 },
	{ "in_accel2_x_raw", &ch_accel2_x, "raw", IIO_SEPARATE, 0 },
	{ "in_accel_scale", &ch_accel2_x, "scale", IIO_SHARED_BY_TYPE, 0 },
	{ "in_voltage0_supply_raw", &ch_v0_supply, "raw", IIO_SEPARATE, 0 },
	{ "in_voltage0_supply_label", &ch_v0_supply, "label", IIO_SEPARATE, 0 },
	{ "in_voltage_scale", &ch_v0_supply, "scale", IIO_SHARED_BY_TYPE, 0 },
	{ "in_accel_x_foo_raw", &ch_accel_x_foo, "raw", IIO_SEPARATE, 0 },
	{ "out_voltage0_raw", &ch_out_v0, "raw", IIO_SEPARATE, 0 },
	{ "out_sampling_frequency", &ch_out_v0, "sampling_frequency", IIO_SHARED_BY_DIR, 0 },
	{ "in_illuminance0_input", &ch_light0, "input", IIO_SEPARATE, 0 },
	{ "in_intensity_both_raw", &ch_int_both, "raw", IIO_SEPARATE, 0 },
	{ "in_intensity_ir_raw", &ch_int_ir, "raw", IIO_SEPARATE, 0 },
	{ "in_intensity_both_calibscale", &ch_int_both, "calibscale", IIO_SEPARATE, 0 },
	{ "in_temp_raw", &ch_temp, "raw", IIO_SEPARATE, 0 },
	{ "in_temp_raw", &ch_temp, "raw", IIO_SHARED_BY_TYPE, 0 },
	{ "in_rot_from_north_magnetic_tilt_comp_raw", &ch_rot, "raw", IIO_SEPARATE, 0 },
	{ "in_deltaangl0_raw", &ch_deltaangl0, "raw", IIO_SEPARATE, 0 },
	{ "out_altcurrent1_raw", &ch_altcurrent1, "raw", IIO_SEPARATE, 0 },
	{ "in_coverage_input", &ch_coverage, "input", IIO_SEPARATE, 0 },
	{ "modifier past the table", &ch_bad_mod, "raw", IIO_SEPARATE, -EINVAL },
	{ "in_accel_scale", &ch_bad_mod, "scale", IIO_SHARED_BY_TYPE, 0 },
	{ "type past the table", &ch_bad_type, "raw", IIO_SEPARATE, -EINVAL },
	{ "sharing level past the enum", &ch_v3, "raw", (enum iio_shared_by)4, -EINVAL },
};

static void test_name_build(void)
{
	char buf[IIO_ATTR_NAME_MAX];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(build_rows); i++) {
		const struct build_row *r = &build_rows[i];

		ret = iio_attr_name_build(buf, sizeof(buf), r->chan, r->postfix, r->shared);
		if (r->ret) {
			TEST_ROW_ASSERT(ret == r->ret, r->expected);
			continue;
		}
		TEST_ROW_ASSERT(ret == (int)strlen(r->expected), r->expected);
		TEST_ROW_ASSERT(ret > 0 && strcmp(buf, r->expected) == 0, r->expected);
	}
	/* "in_voltage3_raw" is 15 characters: 16 bytes fit, 15 do not */
	TEST_ROW_ASSERT(iio_attr_name_build(buf, 16, &ch_v3, "raw", IIO_SEPARATE) == 15,
			"name fits exactly");
	TEST_ROW_ASSERT(iio_attr_name_build(buf, 15, &ch_v3, "raw", IIO_SEPARATE) ==
			-ENAMETOOLONG, "name one byte short");
}
TEST_CASE(test_name_build, "name building rows");

/* ---- attribute sets ---- */

/* One attribute of an expected set (tests/vectors/iio_core_attrs.txt). */
struct attr_want {
	char name[64];
	enum iio_attr_kind kind;
	unsigned int mode;
	int owner;		/* channel index, -1 for device attributes */
	enum iio_shared_by shared;
};

/* An expected set, as read from its section. */
struct attr_wants {
	struct attr_want rows[32];
	int n;
};

static const struct iio_info empty_info;

/* What the fake driver below records; every test device carries one. */
struct fake_state {
	int raw;
	int write_calls;
	int last_val;
	int last_val2;
	long last_mask;
	const struct iio_chan_spec *last_chan;
	char ext[32];
};

static struct iio_dev *dev_make(const char *name, const struct iio_chan_spec *chans, int n,
				const struct iio_info *info)
{
	struct iio_dev *dev = iio_device_alloc(sizeof(struct fake_state));

	CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
	dev->name = name;
	dev->channels = chans;
	dev->num_channels = n;
	dev->info = info ? info : &empty_info;
	return dev;
}

/* The vector file's spelling of enum iio_attr_kind (shared-by: iio_shared_by_name()). */
static const char *const attr_kind_names[] = {
	[IIO_ATTR_INFO] = "info",
	[IIO_ATTR_AVAIL] = "available",
	[IIO_ATTR_LABEL] = "label",
	[IIO_ATTR_EXT] = "ext_info",
	[IIO_ATTR_DEV_NAME] = "dev_name",
	[IIO_ATTR_DEV_LABEL] = "dev_label",
	[IIO_ATTR_TS_CLOCK] = "ts_clock",
};

/* The enum iio_attr_kind that @name spells. Return: it, or -EINVAL. */
static int attr_kind_from_name(const char *name)
{
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(attr_kind_names); i++)
		if (strcmp(attr_kind_names[i], name) == 0)
			return i;
	return -EINVAL;
}

/* The enum iio_shared_by that @name spells, as the core names it. Return: it, or -EINVAL. */
static int shared_by_from_name(const char *name)
{
	int i;

	for (i = IIO_SEPARATE; i <= IIO_SHARED_BY_ALL; i++)
		if (strcmp(iio_shared_by_name(i), name) == 0)
			return i;
	return -EINVAL;
}

/* test_vectors() callback: one row of an expected set into @ctx (struct attr_wants). */
static int attr_want_row(char **f, const char *where, void *ctx)
{
	struct attr_wants *w = ctx;
	struct attr_want *a = &w->rows[w->n];
	int kind = attr_kind_from_name(f[1]);
	int shared = shared_by_from_name(f[4]);

	if (w->n == ARRAY_SIZE(w->rows) || kind < 0 || shared < 0 ||
	    snprintf(a->name, sizeof(a->name), "%s", f[0]) >= (int)sizeof(a->name)) {
		fprintf(stderr, "\n%s: bad row\n", where);
		return -EINVAL;
	}
	a->kind = kind;
	a->shared = shared;
	a->mode = (unsigned int)strtoul(f[2], NULL, 8);
	a->owner = atoi(f[3]);
	w->n++;
	return 0;
}

/*
 * Compare the whole attribute set, in order, with section @section of
 * tests/vectors/iio_core_attrs.txt. Return: the count of attributes expected.
 */
static int attrs_expect(const struct iio_dev *dev, const char *section, const char *what)
{
	static struct attr_wants wants;
	const struct attr_want *want = wants.rows;
	const struct iio_attr *a;
	char row[160];
	int i, n;

	wants.n = 0;
	n = test_vectors("iio_core_attrs.txt", section, 5, attr_want_row, &wants);
	snprintf(row, sizeof(row), "%s: expected set %s", what, section);
	TEST_ROW_ASSERT(n > 0, row);
	snprintf(row, sizeof(row), "%s: attribute count", what);
	TEST_ROW_ASSERT(iio_device_attr_count(dev) == n, row);
	for (i = 0; i < n && i < iio_device_attr_count(dev); i++) {
		a = iio_device_attr_at(dev, i);
		snprintf(row, sizeof(row), "%s: #%d %s", what, i, want[i].name);
		TEST_ROW_ASSERT(a && strcmp(a->name, want[i].name) == 0, row);
		TEST_ROW_ASSERT(a && a->kind == want[i].kind, row);
		TEST_ROW_ASSERT(a && a->mode == want[i].mode, row);
		if (want[i].owner < 0)
			TEST_ROW_ASSERT(a && a->chan == NULL, row);
		else
			TEST_ROW_ASSERT(a && a->chan == &dev->channels[want[i].owner] &&
					a->shared == want[i].shared, row);
		TEST_ROW_ASSERT(iio_device_attr_find(dev, want[i].name) == a, row);
	}
	return n;
}

/* The iio_simple_dummy layout (facts 7): shared names, differential, timestamp. */
static const struct iio_chan_spec dummy_chans[] = {
	{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 0,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_OFFSET) |
				BIT(IIO_CHAN_INFO_SCALE),
	  .info_mask_shared_by_dir = BIT(IIO_CHAN_INFO_SAMP_FREQ) },
	{ .type = IIO_VOLTAGE, .differential = 1, .indexed = 1, .channel = 1, .channel2 = 2,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
	  .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE) },
	{ .type = IIO_VOLTAGE, .differential = 1, .indexed = 1, .channel = 3, .channel2 = 4,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
	  .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),
	  .info_mask_shared_by_dir = BIT(IIO_CHAN_INFO_SAMP_FREQ) },
	{ .type = IIO_ACCEL, .modified = 1, .channel2 = IIO_MOD_X,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_CALIBSCALE) |
				BIT(IIO_CHAN_INFO_CALIBBIAS),
	  .info_mask_shared_by_dir = BIT(IIO_CHAN_INFO_SAMP_FREQ) },
	{ .type = IIO_TIMESTAMP, .channel = -1, .scan_index = 4,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	{ .type = IIO_VOLTAGE, .output = 1, .indexed = 1, .channel = 0,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	{ .type = IIO_STEPS,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED),
	  .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_ENABLE) | BIT(IIO_CHAN_INFO_CALIBHEIGHT) },
	{ .type = IIO_ACTIVITY, .modified = 1, .channel2 = IIO_MOD_RUNNING,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED) },
	{ .type = IIO_ACTIVITY, .modified = 1, .channel2 = IIO_MOD_WALKING,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED) },
};

static void test_build_dummy(void)
{
	struct iio_dev *dev = dev_make("dummy", dummy_chans, ARRAY_SIZE(dummy_chans), NULL);
	char err[128] = "";
	int n;

	CU_ASSERT_EQUAL(iio_device_attrs_build(dev, err, sizeof(err)), 0);
	n = attrs_expect(dev, "dummy", "dummy");
	CU_ASSERT_PTR_NULL(iio_device_attr_find(dev, "label"));
	CU_ASSERT_PTR_NULL(iio_device_attr_find(dev, "in_timestamp_raw"));
	CU_ASSERT_PTR_NULL(iio_device_attr_find(dev, "in_voltage_scale"));
	CU_ASSERT_PTR_NULL(iio_device_attr_find(dev, NULL));
	CU_ASSERT_PTR_NULL(iio_device_attr_at(dev, -1));
	CU_ASSERT_PTR_NULL(iio_device_attr_at(dev, n));

	/* a rebuild replaces the set rather than appending to it */
	CU_ASSERT_EQUAL(iio_device_attrs_build(dev, err, sizeof(err)), 0);
	attrs_expect(dev, "dummy", "dummy rebuilt");
	iio_device_put(dev);
}
TEST_CASE(test_build_dummy, "attributes of the dummy layout");

static int fake_read_label(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   char *label);
static int fake_ext_read(struct iio_dev *indio_dev, uintptr_t priv,
			 const struct iio_chan_spec *chan, char *buf, size_t len);
static int fake_ext_write(struct iio_dev *indio_dev, uintptr_t priv,
			  const struct iio_chan_spec *chan, const char *buf, size_t len);

static const struct iio_info label_info = {
	.read_label = fake_read_label,
};

static const struct iio_chan_spec_ext_info order_ext[] = {
	{ .name = "powerdown", .shared = IIO_SEPARATE, .read = fake_ext_read,
	  .write = fake_ext_write },
	{ .name = "sync", .shared = IIO_SHARED_BY_ALL, .write = fake_ext_write },
	{ .name = "mode", .shared = IIO_SHARED_BY_TYPE, .read = fake_ext_read },
	{ .name = NULL },
};

#define ORDER_CHAN(n) {								\
	.type = IIO_VOLTAGE, .indexed = 1, .channel = (n),			\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_separate_available = BIT(IIO_CHAN_INFO_RAW),			\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
	.info_mask_shared_by_type_available = BIT(IIO_CHAN_INFO_SCALE),		\
	.info_mask_shared_by_dir = BIT(IIO_CHAN_INFO_SAMP_FREQ),		\
	.info_mask_shared_by_dir_available = BIT(IIO_CHAN_INFO_SAMP_FREQ),	\
	.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_OVERSAMPLING_RATIO),	\
	.info_mask_shared_by_all_available = BIT(IIO_CHAN_INFO_OVERSAMPLING_RATIO), \
	.ext_info = order_ext,							\
}

static const struct iio_chan_spec order_chans[] = { ORDER_CHAN(0), ORDER_CHAN(1) };

/* Step 4 of the algorithm: the four levels with their twins, then label, then ext_info. */
static void test_build_order(void)
{
	struct iio_dev *dev = dev_make("order", order_chans, 2, &label_info);

	dev->label = "board-label";
	CU_ASSERT_EQUAL(iio_device_attrs_build(dev, NULL, 0), 0);
	attrs_expect(dev, "order", "order");
	CU_ASSERT_EQUAL(iio_device_attr_at(dev, 9)->ext, &order_ext[0]);
	CU_ASSERT_EQUAL(iio_device_attr_at(dev, 11)->ext, &order_ext[2]);
	CU_ASSERT_EQUAL(iio_device_attr_at(dev, 2)->info, IIO_CHAN_INFO_SCALE);
	CU_ASSERT_EQUAL(iio_device_attr_at(dev, 7)->info, IIO_CHAN_INFO_OVERSAMPLING_RATIO);
	iio_device_put(dev);
}
TEST_CASE(test_build_order, "attribute order, twins, label, ext_info");

/* A label exists for read_label or extend_name; device attributes only when set. */
static void test_build_labels(void)
{
	static const struct iio_chan_spec chans[] = {
		{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 0, .extend_name = "supply",
		  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
		  .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE) },
		{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 1,
		  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	};
	struct iio_dev *dev = dev_make(NULL, chans, 2, NULL);

	CU_ASSERT_EQUAL(iio_device_attrs_build(dev, NULL, 0), 0);
	attrs_expect(dev, "labels", "extend_name label, no device name");
	iio_device_put(dev);
}
TEST_CASE(test_build_labels, "extend_name label, optional device attrs");

struct dup_row {
	const char *name;
	int nchans;
	struct iio_chan_spec chans[2];
	int ret;
	const char *err_has;	/* must appear in the error text */
	const char *owner_of;	/* attribute owned by channel 0 on success */
};

static const struct dup_row dup_rows[] = {
	{ "two separate in_temp_raw", 2,
	  { { .type = IIO_TEMP, .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	    { .type = IIO_TEMP, .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) } },
	  -EBUSY, "in_temp_raw", NULL },
	{ "shared first, then separate", 2,
	  { { .type = IIO_TEMP, .indexed = 1, .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_RAW) },
	    { .type = IIO_TEMP, .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) } },
	  -EBUSY, "in_temp_raw", NULL },
	{ "separate first, then shared: skipped", 2,
	  { { .type = IIO_TEMP, .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	    { .type = IIO_TEMP, .indexed = 1, .channel = 1,
	      .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_RAW) } },
	  0, NULL, "in_temp_raw" },
	{ "two shared: the first owns it", 2,
	  { { .type = IIO_VOLTAGE, .indexed = 1, .channel = 0,
	      .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE) },
	    { .type = IIO_VOLTAGE, .indexed = 1, .channel = 1,
	      .info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE) } },
	  0, NULL, "in_voltage_scale" },
	{ "duplicate separate available", 2,
	  { { .type = IIO_TEMP, .info_mask_separate_available = BIT(IIO_CHAN_INFO_RAW) },
	    { .type = IIO_TEMP, .info_mask_separate_available = BIT(IIO_CHAN_INFO_RAW) } },
	  -EBUSY, "in_temp_raw_available", NULL },
	{ "duplicate label", 2,
	  { { .type = IIO_TEMP, .extend_name = "die" },
	    { .type = IIO_TEMP, .extend_name = "die" } },
	  -EBUSY, "in_temp_die_label", NULL },
	{ "same index, different extend_name: no clash", 2,
	  { { .type = IIO_VOLTAGE, .indexed = 1, .extend_name = "a",
	      .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	    { .type = IIO_VOLTAGE, .indexed = 1, .extend_name = "b",
	      .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) } },
	  0, NULL, "in_voltage0_a_raw" },
	{ "differential without index", 1,
	  { { .type = IIO_VOLTAGE, .differential = 1, .channel2 = 1,
	      .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) } },
	  -EINVAL, "raw", NULL },
};

static void test_build_duplicates(void)
{
	const struct iio_attr *a;
	struct iio_dev *dev;
	char err[128];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(dup_rows); i++) {
		const struct dup_row *r = &dup_rows[i];

		dev = dev_make("dup", r->chans, r->nchans, NULL);
		err[0] = '\0';
		ret = iio_device_attrs_build(dev, err, sizeof(err));
		TEST_ROW_ASSERT(ret == r->ret, r->name);
		if (r->err_has)
			TEST_ROW_ASSERT(strstr(err, r->err_has) != NULL, r->name);
		if (r->ret < 0)
			TEST_ROW_ASSERT(iio_device_attr_count(dev) == 0, r->name);
		if (r->owner_of) {
			a = iio_device_attr_find(dev, r->owner_of);
			TEST_ROW_ASSERT(a && a->chan == &dev->channels[0], r->name);
		}
		iio_device_put(dev);
	}
}
TEST_CASE(test_build_duplicates, "duplicate rules");

/* Bits past the postfix table fail the build, in any mask (needs a 64-bit long). */
static void test_build_bit_past_table(void)
{
	struct iio_chan_spec chans[1] = {
		{ .type = IIO_VOLTAGE, .indexed = 1 },
	};
	unsigned long past;
	struct iio_dev *dev;
	char err[128] = "";

	if (sizeof(unsigned long) * 8 <= IIO_CHAN_INFO_COUNT)
		return;
	past = 1UL << (IIO_CHAN_INFO_COUNT % (sizeof(unsigned long) * 8));
	chans[0].info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | past;
	dev = dev_make("past", chans, 1, NULL);
	CU_ASSERT_EQUAL(iio_device_attrs_build(dev, err, sizeof(err)), -EINVAL);
	CU_ASSERT(strstr(err, "32") != NULL);
	CU_ASSERT_EQUAL(iio_device_attr_count(dev), 0);
	iio_device_put(dev);

	chans[0].info_mask_separate = 0;
	chans[0].info_mask_shared_by_all_available = past;
	dev = dev_make("past", chans, 1, NULL);
	CU_ASSERT_EQUAL(iio_device_attrs_build(dev, NULL, 0), -EINVAL);
	iio_device_put(dev);

	/* the last bit in the table is fine */
	chans[0].info_mask_shared_by_all_available = 0;
	chans[0].info_mask_separate = BIT(IIO_CHAN_INFO_POWERFACTOR);
	dev = dev_make("last", chans, 1, NULL);
	CU_ASSERT_EQUAL(iio_device_attrs_build(dev, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(iio_device_attr_find(dev, "in_voltage0_powerfactor"));
	iio_device_put(dev);
}
TEST_CASE(test_build_bit_past_table, "info bit past the table");

/* ---- reading and writing through a fake driver ---- */

static int fake_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			 int *val, int *val2, long mask)
{
	struct fake_state *st = iio_priv(indio_dev);

	st->last_chan = chan;
	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		*val = st->raw + chan->channel;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		*val = 0;
		*val2 = 1333;
		return IIO_VAL_INT_PLUS_MICRO;
	case IIO_CHAN_INFO_OFFSET:
		*val = 7;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SAMP_FREQ:
		*val = 3;
		*val2 = 33;
		return IIO_VAL_INT_PLUS_NANO;
	case IIO_CHAN_INFO_PROCESSED:
		*val = 25000;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_CALIBBIAS:
		return -EIO;
	case IIO_CHAN_INFO_HARDWAREGAIN:
		*val = 1;
		*val2 = 0;
		return IIO_VAL_FRACTIONAL;
	case IIO_CHAN_INFO_PHASE:
		*val = 2048;
		*val2 = 12;
		return IIO_VAL_FRACTIONAL_LOG2;
	default:
		return -EINVAL;
	}
}

static int fake_read_avail(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   const int **vals, int *type, int *length, long mask)
{
	static const int raw_range[] = { 0, 1, 4095 };
	static const int scales[] = { 0, 500000, 1, 0 };

	(void)indio_dev;
	(void)chan;
	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		*vals = raw_range;
		*type = IIO_VAL_INT;
		*length = 3;
		return IIO_AVAIL_RANGE;
	case IIO_CHAN_INFO_SCALE:
		*vals = scales;
		*type = IIO_VAL_INT_PLUS_MICRO;
		*length = 4;
		return IIO_AVAIL_LIST;
	default:
		return -EINVAL;
	}
}

static int fake_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			  int val, int val2, long mask)
{
	struct fake_state *st = iio_priv(indio_dev);

	st->write_calls++;
	st->last_chan = chan;
	st->last_val = val;
	st->last_val2 = val2;
	st->last_mask = mask;
	/* like the dummy: the scale is 0644 but fixed */
	return mask == IIO_CHAN_INFO_SCALE ? -EINVAL : 0;
}

static int fake_write_raw_get_fmt(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				  long mask)
{
	(void)indio_dev;
	(void)chan;
	switch (mask) {
	case IIO_CHAN_INFO_OFFSET:
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_CALIBBIAS:
		return IIO_VAL_INT_64;
	case IIO_CHAN_INFO_SAMP_FREQ:
		return IIO_VAL_INT_PLUS_NANO;
	case IIO_CHAN_INFO_PHASE:
		return IIO_VAL_FRACTIONAL_LOG2;	/* nothing parses into that */
	case IIO_CHAN_INFO_HARDWAREGAIN:
		return IIO_VAL_INT_PLUS_MICRO_DB;
	default:
		return IIO_VAL_INT_PLUS_MICRO;
	}
}

static int fake_read_label(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   char *label)
{
	(void)indio_dev;
	return snprintf(label, IIO_LABEL_MAX, "lbl%d\n", chan->channel);
}

static int fake_ext_read(struct iio_dev *indio_dev, uintptr_t priv,
			 const struct iio_chan_spec *chan, char *buf, size_t len)
{
	struct fake_state *st = iio_priv(indio_dev);

	(void)chan;
	return snprintf(buf, len, "ext%u:%s\n", (unsigned int)priv, st->ext);
}

static int fake_ext_write(struct iio_dev *indio_dev, uintptr_t priv,
			  const struct iio_chan_spec *chan, const char *buf, size_t len)
{
	struct fake_state *st = iio_priv(indio_dev);

	(void)priv;
	(void)chan;
	if (len >= sizeof(st->ext))
		return -EINVAL;
	snprintf(st->ext, sizeof(st->ext), "%.*s", (int)len, buf);
	return 0;
}

static const struct iio_info fake_info = {
	.read_raw = fake_read_raw,
	.read_avail = fake_read_avail,
	.write_raw = fake_write_raw,
	.write_raw_get_fmt = fake_write_raw_get_fmt,
};

static const struct iio_chan_spec_ext_info fake_ext[] = {
	{ .name = "mode", .shared = IIO_SEPARATE, .read = fake_ext_read,
	  .write = fake_ext_write, .private = 5 },
	{ .name = "reset", .shared = IIO_SEPARATE, .write = fake_ext_write },
	{ .name = "status", .shared = IIO_SEPARATE, .read = fake_ext_read, .private = 7 },
	{ .name = NULL },
};

static const struct iio_chan_spec fake_chans[] = {
	{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 0,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) |
				BIT(IIO_CHAN_INFO_OFFSET) | BIT(IIO_CHAN_INFO_CALIBBIAS) |
				BIT(IIO_CHAN_INFO_HARDWAREGAIN) | BIT(IIO_CHAN_INFO_PHASE),
	  .info_mask_separate_available = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) |
					  BIT(IIO_CHAN_INFO_OFFSET),
	  .info_mask_shared_by_dir = BIT(IIO_CHAN_INFO_SAMP_FREQ) },
	{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 1, .extend_name = "supply",
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
	  .info_mask_shared_by_dir = BIT(IIO_CHAN_INFO_SAMP_FREQ) },
	{ .type = IIO_TEMP, .indexed = 1, .channel = 0,
	  .info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED),
	  .ext_info = fake_ext },
	{ .type = IIO_TIMESTAMP, .channel = -1, .scan_index = 3 },
};

static struct iio_dev *fake_make(void)
{
	struct iio_dev *dev = dev_make("fake", fake_chans, ARRAY_SIZE(fake_chans), &fake_info);
	struct fake_state *st = iio_priv(dev);

	dev->label = "board-label";
	st->raw = 73;
	snprintf(st->ext, sizeof(st->ext), "normal");
	CU_ASSERT_EQUAL_FATAL(iio_device_attrs_build(dev, NULL, 0), 0);
	return dev;
}

static ssize_t read_named(struct iio_dev *dev, const char *name, char *buf, size_t len)
{
	const struct iio_attr *a = iio_device_attr_find(dev, name);

	if (!a)
		return -ENOENT;
	return iio_attr_read(dev, a, buf, len);
}

static int write_named(struct iio_dev *dev, const char *name, const char *text)
{
	const struct iio_attr *a = iio_device_attr_find(dev, name);

	if (!a)
		return -ENOENT;
	return iio_attr_write(dev, a, text, strlen(text));
}

struct read_row {
	const char *attr;
	ssize_t ret;		/* > 0: expect the text */
	const char *expected;
};

static const struct read_row read_rows[] = {
	{ "in_voltage0_raw", 1, "73\n" },
	{ "in_voltage0_scale", 1, "0.001333\n" },
	{ "in_voltage0_offset", 1, "7\n" },
	{ "in_voltage0_phase", 1, "0.500000000\n" },
	{ "in_voltage0_calibbias", -EIO, NULL },
	{ "in_voltage0_hardwaregain", -EINVAL, NULL },
	{ "in_voltage0_raw_available", 1, "[0 1 4095]\n" },
	{ "in_voltage0_scale_available", 1, "0.500000 1.000000\n" },
	{ "in_voltage0_offset_available", -EINVAL, NULL },
	{ "in_sampling_frequency", 1, "3.000000033\n" },
	{ "in_voltage1_supply_raw", 1, "74\n" },
	{ "in_voltage1_supply_label", 1, "supply\n" },
	{ "in_temp0_input", 1, "25000\n" },
	{ "in_temp0_mode", 1, "ext5:normal\n" },
	{ "in_temp0_reset", -EACCES, NULL },
	{ "in_temp0_status", 1, "ext7:normal\n" },
	{ "name", 1, "fake\n" },
	{ "label", 1, "board-label\n" },
	{ "current_timestamp_clock", 1, "realtime\n" },
};

static void test_read(void)
{
	struct iio_dev *dev = fake_make();
	char buf[IIO_VALUE_MAX_BYTES];
	size_t i;
	ssize_t ret;

	for (i = 0; i < ARRAY_SIZE(read_rows); i++) {
		const struct read_row *r = &read_rows[i];

		ret = read_named(dev, r->attr, buf, sizeof(buf));
		if (r->ret > 0) {
			TEST_ROW_ASSERT(ret == (ssize_t)strlen(r->expected), r->attr);
			TEST_ROW_ASSERT(ret > 0 && strcmp(buf, r->expected) == 0, r->attr);
		} else {
			TEST_ROW_ASSERT(ret == r->ret, r->attr);
		}
	}
	/* a small buffer gets -EFBIG, never a cut value */
	CU_ASSERT_EQUAL(read_named(dev, "in_voltage0_raw", buf, 3), -EFBIG);
	CU_ASSERT_EQUAL(read_named(dev, "in_voltage0_raw", buf, 4), 3);
	CU_ASSERT_EQUAL(read_named(dev, "name", buf, 5), -EFBIG);
	iio_device_put(dev);
}
TEST_CASE(test_read, "read rows");

/* A shared attribute reaches read_raw with the spec of the channel that declared it first. */
static void test_read_shared_owner(void)
{
	struct iio_dev *dev = fake_make();
	struct fake_state *st = iio_priv(dev);
	char buf[64];

	st->last_chan = NULL;
	CU_ASSERT(read_named(dev, "in_sampling_frequency", buf, sizeof(buf)) > 0);
	CU_ASSERT_PTR_EQUAL(st->last_chan, &dev->channels[0]);
	iio_device_put(dev);
}
TEST_CASE(test_read_shared_owner, "shared attribute owner on read");

static void test_read_value(void)
{
	struct iio_dev *dev = fake_make();
	int vals[4] = { 0 }, n = 0;

	CU_ASSERT_EQUAL(iio_attr_read_value(dev, iio_device_attr_find(dev, "in_voltage0_scale"),
					    vals, 4, &n), IIO_VAL_INT_PLUS_MICRO);
	CU_ASSERT(n == 2 && vals[0] == 0 && vals[1] == 1333);
	CU_ASSERT_EQUAL(iio_attr_read_value(dev, iio_device_attr_find(dev, "in_voltage0_phase"),
					    vals, 4, &n), IIO_VAL_FRACTIONAL_LOG2);
	CU_ASSERT(n == 2 && vals[0] == 2048 && vals[1] == 12);
	CU_ASSERT_EQUAL(iio_attr_read_value(dev,
					    iio_device_attr_find(dev, "in_voltage0_calibbias"),
					    vals, 4, &n), -EIO);
	/* only info attributes carry a value */
	CU_ASSERT_EQUAL(iio_attr_read_value(dev, iio_device_attr_find(dev, "name"), vals, 4, &n),
			-EINVAL);
	CU_ASSERT_EQUAL(iio_attr_read_value(dev,
					    iio_device_attr_find(dev, "in_voltage0_raw_available"),
					    vals, 4, &n), -EINVAL);
	iio_device_put(dev);
}
TEST_CASE(test_read_value, "read_value");

struct write_row {
	const char *name;
	const char *attr;
	const char *text;
	int ret;
	bool called;		/* write_raw must (not) have been called */
	long mask;
	int val;
	int val2;
};

static const struct write_row write_rows[] = {
	{ "default format is micro", "in_voltage0_raw", "1.5", 0, true,
	  IIO_CHAN_INFO_RAW, 1, 500000 },
	{ "micro -0.5 with newline", "in_voltage0_raw", "-0.5\n", 0, true,
	  IIO_CHAN_INFO_RAW, 0, -500000 },
	{ "malformed text calls nothing", "in_voltage0_raw", "abc", -EINVAL, false, 0, 0, 0 },
	{ "second dot calls nothing", "in_voltage0_raw", "1.2.3", -EINVAL, false, 0, 0, 0 },
	{ "driver refuses", "in_voltage0_scale", "2", -EINVAL, true, IIO_CHAN_INFO_SCALE, 2, 0 },
	{ "int format takes hex", "in_voltage0_offset", "0x10", 0, true,
	  IIO_CHAN_INFO_OFFSET, 16, 0 },
	{ "int format refuses a fraction", "in_voltage0_offset", "1.5", -EINVAL, false, 0, 0, 0 },
	{ "int64 format", "in_voltage0_calibbias", "-1", 0, true,
	  IIO_CHAN_INFO_CALIBBIAS, -1, -1 },
	{ "dB format", "in_voltage0_hardwaregain", "-3.5 dB\n", 0, true,
	  IIO_CHAN_INFO_HARDWAREGAIN, -3, 500000 },
	{ "unparseable format", "in_voltage0_phase", "1", -EINVAL, false, 0, 0, 0 },
	{ "shared attribute goes to its owner", "in_sampling_frequency", "3.000000033", 0, true,
	  IIO_CHAN_INFO_SAMP_FREQ, 3, 33 },
	{ "extend_name channel", "in_voltage1_supply_raw", "9", 0, true,
	  IIO_CHAN_INFO_RAW, 9, 0 },
	{ "available is read-only", "in_voltage0_raw_available", "1", -EACCES, false, 0, 0, 0 },
	{ "label is read-only", "in_voltage1_supply_label", "x", -EACCES, false, 0, 0, 0 },
	{ "name is read-only", "name", "x", -EACCES, false, 0, 0, 0 },
	{ "device label is read-only", "label", "x", -EACCES, false, 0, 0, 0 },
	{ "read-write ext_info", "in_temp0_mode", "fast", 0, false, 0, 0, 0 },
	{ "read-only ext_info", "in_temp0_status", "x", -EACCES, false, 0, 0, 0 },
	{ "write-only ext_info", "in_temp0_reset", "1", 0, false, 0, 0, 0 },
};

static void test_write(void)
{
	struct iio_dev *dev = fake_make();
	struct fake_state *st = iio_priv(dev);
	size_t i;
	int ret, calls;

	for (i = 0; i < ARRAY_SIZE(write_rows); i++) {
		const struct write_row *r = &write_rows[i];

		calls = st->write_calls;
		st->last_mask = -1;
		ret = write_named(dev, r->attr, r->text);
		TEST_ROW_ASSERT(ret == r->ret, r->name);
		TEST_ROW_ASSERT(st->write_calls == calls + (r->called ? 1 : 0), r->name);
		if (r->called)
			TEST_ROW_ASSERT(st->last_mask == r->mask && st->last_val == r->val &&
					st->last_val2 == r->val2, r->name);
	}
	/* the shared attribute's owner is channel 0 */
	write_named(dev, "in_sampling_frequency", "1");
	CU_ASSERT_PTR_EQUAL(st->last_chan, &dev->channels[0]);
	iio_device_put(dev);
}
TEST_CASE(test_write, "write rows");

/* Only @len bytes count: the text need not be NUL-terminated. */
static void test_write_length(void)
{
	struct iio_dev *dev = fake_make();
	struct fake_state *st = iio_priv(dev);
	const struct iio_attr *a = iio_device_attr_find(dev, "in_voltage0_raw");
	static char big[IIO_VALUE_MAX_BYTES + 1];
	char buf[64];

	CU_ASSERT_EQUAL(iio_attr_write(dev, a, "12345", 2), 0);
	CU_ASSERT(st->last_val == 12 && st->last_val2 == 0);
	/* an empty write is the degenerate fixed point 0 */
	CU_ASSERT_EQUAL(iio_attr_write(dev, a, "", 0), 0);
	CU_ASSERT(st->last_val == 0 && st->last_val2 == 0);
	/* more than a page is refused without a call */
	memset(big, '1', sizeof(big));
	st->write_calls = 0;
	CU_ASSERT_EQUAL(iio_attr_write(dev, a, big, sizeof(big)), -EINVAL);
	CU_ASSERT_EQUAL(st->write_calls, 0);

	/* ext_info gets exactly the written bytes */
	a = iio_device_attr_find(dev, "in_temp0_mode");
	CU_ASSERT_EQUAL(iio_attr_write(dev, a, "fastXXX", 4), 0);
	CU_ASSERT_EQUAL(read_named(dev, "in_temp0_mode", buf, sizeof(buf)), 10);
	CU_ASSERT_STRING_EQUAL(buf, "ext5:fast\n");
	iio_device_put(dev);
}
TEST_CASE(test_write_length, "write length");

struct clock_row {
	const char *name;
	const char *text;
	int ret;
	const char *after;	/* what a read shows next */
};

static void test_timestamp_clock(void)
{
	static const struct clock_row rows[] = {
		{ "monotonic", "monotonic", 0, "monotonic\n" },
		{ "monotonic_raw", "monotonic_raw", 0, "monotonic_raw\n" },
		{ "realtime_coarse", "realtime_coarse", 0, "realtime_coarse\n" },
		{ "monotonic_coarse", "monotonic_coarse", 0, "monotonic_coarse\n" },
		{ "boottime", "boottime", 0, "boottime\n" },
		{ "tai", "tai", 0, "tai\n" },
		{ "realtime", "realtime", 0, "realtime\n" },
		{ "trailing newline", "boottime\n", 0, "boottime\n" },
		{ "unknown clock", "bogus", -EINVAL, "boottime\n" },
		{ "case matters", "Realtime", -EINVAL, "boottime\n" },
		{ "prefix only", "real", -EINVAL, "boottime\n" },
		{ "two newlines", "tai\n\n", -EINVAL, "boottime\n" },
		{ "empty", "", -EINVAL, "boottime\n" },
	};
	struct iio_dev *dev = fake_make();
	struct iio_dev *other = fake_make();
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		TEST_ROW_ASSERT(write_named(dev, "current_timestamp_clock", rows[i].text) ==
				rows[i].ret, rows[i].name);
		TEST_ROW_ASSERT(read_named(dev, "current_timestamp_clock", buf, sizeof(buf)) > 0 &&
				strcmp(buf, rows[i].after) == 0, rows[i].name);
	}
	/* the clock is per device */
	CU_ASSERT(read_named(other, "current_timestamp_clock", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "realtime\n");
	iio_device_put(other);
	iio_device_put(dev);
}
TEST_CASE(test_timestamp_clock, "current_timestamp_clock");

/* read_raw_multi wins over read_raw; no read_avail and no write_raw give -EINVAL. */
static int multi_read_raw_multi(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				int max_len, int *vals, int *val_len, long mask)
{
	(void)indio_dev;
	(void)chan;
	(void)mask;
	if (max_len < 3)
		return -EINVAL;
	vals[0] = 1;
	vals[1] = 2;
	vals[2] = 3;
	*val_len = 3;
	return IIO_VAL_INT_MULTIPLE;
}

static const struct iio_info multi_info = {
	.read_raw = fake_read_raw,
	.read_raw_multi = multi_read_raw_multi,
	.read_label = fake_read_label,
};

static void test_read_multi_and_missing_callbacks(void)
{
	static const struct iio_chan_spec chans[] = {
		{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 4,
		  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
		  .info_mask_separate_available = BIT(IIO_CHAN_INFO_RAW) },
	};
	struct iio_dev *dev = dev_make("multi", chans, 1, &multi_info);
	int vals[4] = { 0 }, n = 0;
	char buf[64];

	CU_ASSERT_EQUAL_FATAL(iio_device_attrs_build(dev, NULL, 0), 0);
	CU_ASSERT_EQUAL(read_named(dev, "in_voltage4_raw", buf, sizeof(buf)), 7);
	CU_ASSERT_STRING_EQUAL(buf, "1 2 3 \n");
	CU_ASSERT_EQUAL(iio_attr_read_value(dev, iio_device_attr_find(dev, "in_voltage4_raw"),
					    vals, 4, &n), IIO_VAL_INT_MULTIPLE);
	CU_ASSERT(n == 3 && vals[0] == 1 && vals[1] == 2 && vals[2] == 3);
	CU_ASSERT_EQUAL(read_named(dev, "in_voltage4_raw_available", buf, sizeof(buf)), -EINVAL);
	CU_ASSERT_EQUAL(read_named(dev, "in_voltage4_label", buf, sizeof(buf)), 5);
	CU_ASSERT_STRING_EQUAL(buf, "lbl4\n");
	CU_ASSERT_EQUAL(write_named(dev, "in_voltage4_raw", "1"), -EINVAL);
	iio_device_put(dev);
}
TEST_CASE(test_read_multi_and_missing_callbacks, "read_raw_multi and missing callbacks");

/* After unregistration every access is -ENODEV, and nothing reaches the driver. */
static void test_gone(void)
{
	static const char *const attrs[] = {
		"in_voltage0_raw", "in_voltage0_raw_available", "in_voltage1_supply_label",
		"in_temp0_mode", "name", "label", "current_timestamp_clock",
	};
	struct iio_dev *dev = fake_make();
	struct fake_state *st = iio_priv(dev);
	int vals[4], n;
	char buf[64];
	size_t i;

	iio_device_mark_gone(dev);
	CU_ASSERT(iio_device_is_gone(dev));
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		TEST_ROW_ASSERT(read_named(dev, attrs[i], buf, sizeof(buf)) == -ENODEV, attrs[i]);
		TEST_ROW_ASSERT(write_named(dev, attrs[i], "1") == -ENODEV, attrs[i]);
	}
	CU_ASSERT_EQUAL(iio_attr_read_value(dev, iio_device_attr_find(dev, "in_voltage0_raw"),
					    vals, 4, &n), -ENODEV);
	CU_ASSERT_EQUAL(st->write_calls, 0);
	/* the attribute set itself stays walkable until the last reference goes */
	CU_ASSERT_PTR_NOT_NULL(iio_device_attr_find(dev, "in_voltage0_raw"));
	iio_device_put(dev);
}
TEST_CASE(test_gone, "gone device");

/* Channel ids and the map-label lookup: datasheet names first, then ids, inputs first. */
static void test_chan_id_and_find(void)
{
	static const struct iio_chan_spec named[] = {
		{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 0, .datasheet_name = "AIN0" },
		{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 1 },
	};
	static const struct { const char *name; int chan; const char *id; } ids[] = {
		{ "indexed", 0, "voltage0" },
		{ "differential", 1, "voltage1-voltage2" },
		{ "differential other pair", 2, "voltage3-voltage4" },
		{ "modified", 3, "accel_x" },
		{ "output", 5, "voltage0" },
		{ "plain", 6, "steps" },
		{ "modified activity", 7, "activity_running" },
	};
	static const struct { const char *name; const char *label; int want; } finds[] = {
		{ "input before output", "voltage0", 0 },
		{ "differential id", "voltage3-voltage4", 2 },
		{ "modified id", "accel_x", 3 },
		{ "timestamp has no id", "timestamp", -1 },
		{ "unknown", "voltage9", -1 },
		{ "NULL label", NULL, -1 },
	};
	struct iio_dev *dev = dev_make("dummy", dummy_chans, ARRAY_SIZE(dummy_chans), NULL);
	struct iio_dev *dev2 = dev_make("adc", named, ARRAY_SIZE(named), NULL);
	char buf[IIO_ATTR_NAME_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		int n = iio_chan_id(buf, sizeof(buf), &dummy_chans[ids[i].chan]);

		TEST_ROW_ASSERT(n == (int)strlen(ids[i].id) && strcmp(buf, ids[i].id) == 0,
				ids[i].name);
	}
	CU_ASSERT_EQUAL(iio_chan_id(buf, 4, &dummy_chans[1]), -ENAMETOOLONG);
	for (i = 0; i < ARRAY_SIZE(finds); i++) {
		const struct iio_chan_spec *c = iio_device_find_channel(dev, finds[i].label);

		TEST_ROW_ASSERT(finds[i].want < 0 ? c == NULL : c == &dummy_chans[finds[i].want],
				finds[i].name);
	}
	/* a channel with a datasheet name answers to it only, not to its id */
	CU_ASSERT_PTR_EQUAL(iio_device_find_channel(dev2, "AIN0"), &named[0]);
	CU_ASSERT_PTR_NULL(iio_device_find_channel(dev2, "voltage0"));
	CU_ASSERT_PTR_EQUAL(iio_device_find_channel(dev2, "voltage1"), &named[1]);
	iio_device_put(dev);
	iio_device_put(dev2);
}
TEST_CASE(test_chan_id_and_find, "channel ids and map-label lookup");

TEST_MAIN("iio_core", NULL, NULL)
