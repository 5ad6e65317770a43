/*
 * iio_types.c - the IIO ABI's name tables: channel types, modifiers,
 * info-mask postfixes (industrialio-core.c's iio_chan_type_name_spec,
 * iio_modifier_names, iio_chan_info_postfix) and IIO_VAL_* wire names.
 *
 * Each table is built with designated initializers indexed by its enum, so
 * the order cannot drift, and read through one pair of lookups. The core
 * assembles attribute names from these, the protocol names value formats
 * with them, and the client library and the public header's generator read
 * the same tables. No other file of the tree spells an ABI name. Pure data
 * and lookups: no allocation, no I/O.
 */
#include <errno.h>
#include <string.h>

#include "iio_types.h"

#define IIO_TYPES_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

_Static_assert(IIO_VAL_DECIMAL64_MILLI == IIO_VAL_DECIMAL64_BASE + 3 &&
	       IIO_VAL_DECIMAL64_MICRO == IIO_VAL_DECIMAL64_BASE + 6 &&
	       IIO_VAL_DECIMAL64_NANO == IIO_VAL_DECIMAL64_BASE + 9 &&
	       IIO_VAL_DECIMAL64_PICO == IIO_VAL_DECIMAL64_BASE + 12,
	       "a DECIMAL64 code is the base plus its decimals");

static const char *const iio_types_chan_type_names[IIOWIRE_IIO_CHAN_TYPE_COUNT] = {
	[IIO_VOLTAGE] = "voltage",
	[IIO_CURRENT] = "current",
	[IIO_POWER] = "power",
	[IIO_ACCEL] = "accel",
	[IIO_ANGL_VEL] = "anglvel",
	[IIO_MAGN] = "magn",
	[IIO_LIGHT] = "illuminance",
	[IIO_INTENSITY] = "intensity",
	[IIO_PROXIMITY] = "proximity",
	[IIO_TEMP] = "temp",
	[IIO_INCLI] = "incli",
	[IIO_ROT] = "rot",
	[IIO_ANGL] = "angl",
	[IIO_TIMESTAMP] = "timestamp",
	[IIO_CAPACITANCE] = "capacitance",
	[IIO_ALTVOLTAGE] = "altvoltage",
	[IIO_CCT] = "cct",
	[IIO_PRESSURE] = "pressure",
	[IIO_HUMIDITYRELATIVE] = "humidityrelative",
	[IIO_ACTIVITY] = "activity",
	[IIO_STEPS] = "steps",
	[IIO_ENERGY] = "energy",
	[IIO_DISTANCE] = "distance",
	[IIO_VELOCITY] = "velocity",
	[IIO_CONCENTRATION] = "concentration",
	[IIO_RESISTANCE] = "resistance",
	[IIO_PH] = "ph",
	[IIO_UVINDEX] = "uvindex",
	[IIO_ELECTRICALCONDUCTIVITY] = "electricalconductivity",
	[IIO_COUNT] = "count",
	[IIO_INDEX] = "index",
	[IIO_GRAVITY] = "gravity",
	[IIO_POSITIONRELATIVE] = "positionrelative",
	[IIO_PHASE] = "phase",
	[IIO_MASSCONCENTRATION] = "massconcentration",
	[IIO_DELTA_ANGL] = "deltaangl",
	[IIO_DELTA_VELOCITY] = "deltavelocity",
	[IIO_COLORTEMP] = "colortemp",
	[IIO_CHROMATICITY] = "chromaticity",
	[IIO_ATTENTION] = "attention",
	[IIO_ALTCURRENT] = "altcurrent",
	[IIOWIRE_IIO_COVERAGE] = "coverage",
};

/* IIO_NO_MOD (0) has no name: an unmodified channel adds nothing. */
static const char *const iio_types_modifier_names[IIOWIRE_IIO_MODIFIER_COUNT] = {
	[IIO_MOD_X] = "x",
	[IIO_MOD_Y] = "y",
	[IIO_MOD_Z] = "z",
	[IIO_MOD_X_AND_Y] = "x&y",
	[IIO_MOD_X_AND_Z] = "x&z",
	[IIO_MOD_Y_AND_Z] = "y&z",
	[IIO_MOD_X_AND_Y_AND_Z] = "x&y&z",
	[IIO_MOD_X_OR_Y] = "x|y",
	[IIO_MOD_X_OR_Z] = "x|z",
	[IIO_MOD_Y_OR_Z] = "y|z",
	[IIO_MOD_X_OR_Y_OR_Z] = "x|y|z",
	[IIO_MOD_LIGHT_BOTH] = "both",
	[IIO_MOD_LIGHT_IR] = "ir",
	[IIO_MOD_ROOT_SUM_SQUARED_X_Y] = "sqrt(x^2+y^2)",
	[IIO_MOD_SUM_SQUARED_X_Y_Z] = "x^2+y^2+z^2",
	[IIO_MOD_LIGHT_CLEAR] = "clear",
	[IIO_MOD_LIGHT_RED] = "red",
	[IIO_MOD_LIGHT_GREEN] = "green",
	[IIO_MOD_LIGHT_BLUE] = "blue",
	[IIO_MOD_QUATERNION] = "quaternion",
	[IIO_MOD_TEMP_AMBIENT] = "ambient",
	[IIO_MOD_TEMP_OBJECT] = "object",
	[IIO_MOD_NORTH_MAGN] = "from_north_magnetic",
	[IIO_MOD_NORTH_TRUE] = "from_north_true",
	[IIO_MOD_NORTH_MAGN_TILT_COMP] = "from_north_magnetic_tilt_comp",
	[IIO_MOD_NORTH_TRUE_TILT_COMP] = "from_north_true_tilt_comp",
	[IIO_MOD_RUNNING] = "running",
	[IIO_MOD_JOGGING] = "jogging",
	[IIO_MOD_WALKING] = "walking",
	[IIO_MOD_STILL] = "still",
	[IIO_MOD_ROOT_SUM_SQUARED_X_Y_Z] = "sqrt(x^2+y^2+z^2)",
	[IIO_MOD_I] = "i",
	[IIO_MOD_Q] = "q",
	[IIO_MOD_CO2] = "co2",
	[IIO_MOD_VOC] = "voc",
	[IIO_MOD_LIGHT_UV] = "uv",
	[IIO_MOD_LIGHT_DUV] = "duv",
	[IIO_MOD_PM1] = "pm1",
	[IIO_MOD_PM2P5] = "pm2p5",
	[IIO_MOD_PM4] = "pm4",
	[IIO_MOD_PM10] = "pm10",
	[IIO_MOD_ETHANOL] = "ethanol",
	[IIO_MOD_H2] = "h2",
	[IIO_MOD_O2] = "o2",
	[IIO_MOD_LINEAR_X] = "linear_x",
	[IIO_MOD_LINEAR_Y] = "linear_y",
	[IIO_MOD_LINEAR_Z] = "linear_z",
	[IIO_MOD_PITCH] = "pitch",
	[IIO_MOD_YAW] = "yaw",
	[IIO_MOD_ROLL] = "roll",
	[IIO_MOD_LIGHT_UVA] = "uva",
	[IIO_MOD_LIGHT_UVB] = "uvb",
	[IIO_MOD_RMS] = "rms",
	[IIO_MOD_ACTIVE] = "active",
	[IIO_MOD_REACTIVE] = "reactive",
	[IIO_MOD_APPARENT] = "apparent",
};

static const char *const iio_types_info_postfix[IIO_CHAN_INFO_COUNT] = {
	[IIO_CHAN_INFO_RAW] = "raw",
	[IIO_CHAN_INFO_PROCESSED] = "input",
	[IIO_CHAN_INFO_SCALE] = "scale",
	[IIO_CHAN_INFO_OFFSET] = "offset",
	[IIO_CHAN_INFO_CALIBSCALE] = "calibscale",
	[IIO_CHAN_INFO_CALIBBIAS] = "calibbias",
	[IIO_CHAN_INFO_PEAK] = "peak_raw",
	[IIO_CHAN_INFO_PEAK_SCALE] = "peak_scale",
	[IIO_CHAN_INFO_QUADRATURE_CORRECTION_RAW] = "quadrature_correction_raw",
	[IIO_CHAN_INFO_AVERAGE_RAW] = "mean_raw",
	[IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY] = "filter_low_pass_3db_frequency",
	[IIO_CHAN_INFO_HIGH_PASS_FILTER_3DB_FREQUENCY] = "filter_high_pass_3db_frequency",
	[IIO_CHAN_INFO_SAMP_FREQ] = "sampling_frequency",
	[IIO_CHAN_INFO_FREQUENCY] = "frequency",
	[IIO_CHAN_INFO_PHASE] = "phase",
	[IIO_CHAN_INFO_HARDWAREGAIN] = "hardwaregain",
	[IIO_CHAN_INFO_HYSTERESIS] = "hysteresis",
	[IIO_CHAN_INFO_HYSTERESIS_RELATIVE] = "hysteresis_relative",
	[IIO_CHAN_INFO_INT_TIME] = "integration_time",
	[IIO_CHAN_INFO_ENABLE] = "en",
	[IIO_CHAN_INFO_CALIBHEIGHT] = "calibheight",
	[IIO_CHAN_INFO_CALIBWEIGHT] = "calibweight",
	[IIO_CHAN_INFO_DEBOUNCE_COUNT] = "debounce_count",
	[IIO_CHAN_INFO_DEBOUNCE_TIME] = "debounce_time",
	[IIO_CHAN_INFO_CALIBEMISSIVITY] = "calibemissivity",
	[IIO_CHAN_INFO_OVERSAMPLING_RATIO] = "oversampling_ratio",
	[IIO_CHAN_INFO_THERMOCOUPLE_TYPE] = "thermocouple_type",
	[IIO_CHAN_INFO_CALIBAMBIENT] = "calibambient",
	[IIO_CHAN_INFO_ZEROPOINT] = "zeropoint",
	[IIO_CHAN_INFO_TROUGH] = "trough_raw",
	[IIO_CHAN_INFO_CONVDELAY] = "convdelay",
	[IIO_CHAN_INFO_POWERFACTOR] = "powerfactor",
};

static const char *const iio_types_val_names[IIOWIRE_IIO_VAL_CODES] = {
	[IIO_VAL_INT] = "INT",
	[IIO_VAL_INT_PLUS_MICRO] = "INT_PLUS_MICRO",
	[IIO_VAL_INT_PLUS_NANO] = "INT_PLUS_NANO",
	[IIO_VAL_INT_PLUS_MICRO_DB] = "INT_PLUS_MICRO_DB",
	[IIO_VAL_INT_MULTIPLE] = "INT_MULTIPLE",
	[IIO_VAL_INT_64] = "INT_64",
	[IIO_VAL_FRACTIONAL] = "FRACTIONAL",
	[IIO_VAL_FRACTIONAL_LOG2] = "FRACTIONAL_LOG2",
	[IIO_VAL_CHAR] = "CHAR",
	[IIO_VAL_DECIMAL64_MILLI] = "DECIMAL64_MILLI",
	[IIO_VAL_DECIMAL64_MICRO] = "DECIMAL64_MICRO",
	[IIO_VAL_DECIMAL64_NANO] = "DECIMAL64_NANO",
	[IIO_VAL_DECIMAL64_PICO] = "DECIMAL64_PICO",
};

const char *iio_abi_name(const char *const *names, size_t n, long i)
{
	if (i < 0 || (unsigned long)i >= n)
		return NULL;
	return names[i];
}

int iio_abi_index(const char *const *names, size_t n, const char *name)
{
	size_t i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (names[i] && strcmp(names[i], name) == 0)
			return (int)i;
	return -EINVAL;
}

/* Lookups of one table: name by index and, where asked for, index by name. */
#define IIO_TYPES_NAME(table, i)	\
	iio_abi_name((table), IIO_TYPES_ARRAY_SIZE(table), (long)(i))
#define IIO_TYPES_INDEX(table, name)	\
	iio_abi_index((table), IIO_TYPES_ARRAY_SIZE(table), (name))

const char *iio_chan_type_name(enum iio_chan_type type)
{
	return IIO_TYPES_NAME(iio_types_chan_type_names, type);
}

const char *iio_modifier_name(enum iio_modifier mod)
{
	return IIO_TYPES_NAME(iio_types_modifier_names, mod);
}

const char *iio_chan_info_postfix(enum iio_chan_info_enum info)
{
	return IIO_TYPES_NAME(iio_types_info_postfix, info);
}

const char *iio_val_type_name(int type)
{
	return IIO_TYPES_NAME(iio_types_val_names, type);
}

int iio_chan_type_from_name(const char *name)
{
	return IIO_TYPES_INDEX(iio_types_chan_type_names, name);
}

int iio_val_type_from_name(const char *name)
{
	return IIO_TYPES_INDEX(iio_types_val_names, name);
}
