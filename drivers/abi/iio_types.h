/*
 * iio_types.h - the IIO ABI's numbers and names: channel types, modifiers,
 * info-mask postfixes and IIO_VAL_* value codes, with their sysfs and wire
 * spellings.
 *
 * The userspace twin of the kernel's <linux/iio/types.h> plus the name tables
 * of industrialio-core.c. It is the leaf of the tree (libiiowire_abi): the
 * core, the protocol and the client library all take their codes and names
 * from here, and it depends on nothing but libc. The public iiowire.h gets
 * its IIO_VAL_* codes from a header generated from these tables at build
 * time, so the two cannot drift. Nothing here allocates, logs or keeps state.
 *
 * Channel types and modifiers come from <linux/iio/types.h>; the few that are
 * newer than the installed header are appended here with the mainline values.
 */
#ifndef IIOWIRE_IIO_TYPES_H
#define IIOWIRE_IIO_TYPES_H

#include <stddef.h>
#include <linux/iio/types.h>

#include "iio_compat.h"	/* generated: which newer enum values the header lacks */

/*
 * Types and modifiers newer than linux-libc-dev of Debian 12 (6.1). Their
 * numbers continue the uapi enums exactly as mainline appends them.
 */
#if !IIOWIRE_HAVE_IIO_DELTA_ANGL
#define IIO_DELTA_ANGL		((enum iio_chan_type)35)
#define IIO_DELTA_VELOCITY	((enum iio_chan_type)36)
#endif
#if !IIOWIRE_HAVE_IIO_COLORTEMP
#define IIO_COLORTEMP		((enum iio_chan_type)37)
#define IIO_CHROMATICITY	((enum iio_chan_type)38)
#endif
#if !IIOWIRE_HAVE_IIO_ATTENTION
#define IIO_ATTENTION		((enum iio_chan_type)39)
#endif
#if !IIOWIRE_HAVE_IIO_ALTCURRENT
#define IIO_ALTCURRENT		((enum iio_chan_type)40)
#endif
/* coverage: documented for 7.2; not yet in any released header */
#define IIOWIRE_IIO_COVERAGE	((enum iio_chan_type)41)
/* one past the last type the core has a name for */
#define IIOWIRE_IIO_CHAN_TYPE_COUNT	42

#if !IIOWIRE_HAVE_IIO_MOD_LIGHT_UVA
#define IIO_MOD_LIGHT_UVA	((enum iio_modifier)(IIO_MOD_ROLL + 1))
#define IIO_MOD_LIGHT_UVB	((enum iio_modifier)(IIO_MOD_ROLL + 2))
#endif
#if !IIOWIRE_HAVE_IIO_MOD_RMS
#define IIO_MOD_RMS		((enum iio_modifier)(IIO_MOD_ROLL + 3))
#define IIO_MOD_ACTIVE		((enum iio_modifier)(IIO_MOD_ROLL + 4))
#define IIO_MOD_REACTIVE	((enum iio_modifier)(IIO_MOD_ROLL + 5))
#define IIO_MOD_APPARENT	((enum iio_modifier)(IIO_MOD_ROLL + 6))
#endif
#define IIOWIRE_IIO_MODIFIER_COUNT	(IIO_MOD_ROLL + 7)

/* Value type codes returned by read_raw, kernel numbering (they go on the wire). */
#define IIO_VAL_INT			1
#define IIO_VAL_INT_PLUS_MICRO		2
#define IIO_VAL_INT_PLUS_NANO		3
#define IIO_VAL_INT_PLUS_MICRO_DB	4
#define IIO_VAL_INT_MULTIPLE		5
#define IIO_VAL_INT_64			6
#define IIO_VAL_FRACTIONAL		10
#define IIO_VAL_FRACTIONAL_LOG2		11
#define IIO_VAL_CHAR			12
/*
 * 2026: s64 split over (val, val2), printed with a fixed number of decimals:
 * the code is IIO_VAL_DECIMAL64_BASE plus the decimals (iio_types.c checks).
 * Plain numbers, so that the generated public header (iiowire_abi.h) defines
 * every code with the same tokens and both may be included, in any order: a
 * code that drifted would be a redefinition the compiler refuses.
 */
#define IIO_VAL_DECIMAL64_BASE		32
#define IIO_VAL_DECIMAL64_MILLI		35
#define IIO_VAL_DECIMAL64_MICRO		38
#define IIO_VAL_DECIMAL64_NANO		41
#define IIO_VAL_DECIMAL64_PICO		44
/* one past the highest IIO_VAL_* code (the size of the name table) */
#define IIOWIRE_IIO_VAL_CODES		(IIO_VAL_DECIMAL64_PICO + 1)

/* read_avail return codes */
#define IIO_AVAIL_LIST	0
#define IIO_AVAIL_RANGE	1

/* a sysfs page: longer values fail with -EFBIG, as in the kernel */
#define IIO_VALUE_MAX_BYTES	4096

/* Info-mask bits (enum iio_chan_info_enum, kernel order: the bit numbers are ABI). */
enum iio_chan_info_enum {
	IIO_CHAN_INFO_RAW = 0,
	IIO_CHAN_INFO_PROCESSED,
	IIO_CHAN_INFO_SCALE,
	IIO_CHAN_INFO_OFFSET,
	IIO_CHAN_INFO_CALIBSCALE,
	IIO_CHAN_INFO_CALIBBIAS,
	IIO_CHAN_INFO_PEAK,
	IIO_CHAN_INFO_PEAK_SCALE,
	IIO_CHAN_INFO_QUADRATURE_CORRECTION_RAW,
	IIO_CHAN_INFO_AVERAGE_RAW,
	IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY,
	IIO_CHAN_INFO_HIGH_PASS_FILTER_3DB_FREQUENCY,
	IIO_CHAN_INFO_SAMP_FREQ,
	IIO_CHAN_INFO_FREQUENCY,
	IIO_CHAN_INFO_PHASE,
	IIO_CHAN_INFO_HARDWAREGAIN,
	IIO_CHAN_INFO_HYSTERESIS,
	IIO_CHAN_INFO_HYSTERESIS_RELATIVE,
	IIO_CHAN_INFO_INT_TIME,
	IIO_CHAN_INFO_ENABLE,
	IIO_CHAN_INFO_CALIBHEIGHT,
	IIO_CHAN_INFO_CALIBWEIGHT,
	IIO_CHAN_INFO_DEBOUNCE_COUNT,
	IIO_CHAN_INFO_DEBOUNCE_TIME,
	IIO_CHAN_INFO_CALIBEMISSIVITY,
	IIO_CHAN_INFO_OVERSAMPLING_RATIO,
	IIO_CHAN_INFO_THERMOCOUPLE_TYPE,
	IIO_CHAN_INFO_CALIBAMBIENT,
	IIO_CHAN_INFO_ZEROPOINT,
	IIO_CHAN_INFO_TROUGH,
	IIO_CHAN_INFO_CONVDELAY,
	IIO_CHAN_INFO_POWERFACTOR,
	IIO_CHAN_INFO_COUNT	/* not a bit: the size of the postfix table */
};

/**
 * iio_abi_name() - entry @i of a name table indexed by enum.
 * @names: the table, NULL for holes; @n: its size.
 * Return: borrowed static string, or NULL when @i is out of range or a hole.
 */
const char *iio_abi_name(const char *const *names, size_t n, long i);

/**
 * iio_abi_index() - the index of @name in a name table (the inverse of
 * iio_abi_name()); holes never match.
 * Return: the index (>= 0), or -EINVAL for NULL or an unknown name.
 */
int iio_abi_index(const char *const *names, size_t n, const char *name);

/*
 * The ABI spellings, each a borrowed static string, NULL for a code without
 * a name (IIO_NO_MOD has none: an unmodified channel adds nothing).
 */
/** iio_chan_type_name() - "voltage", "temp", ... as sysfs spells the type. */
const char *iio_chan_type_name(enum iio_chan_type type);
/** iio_modifier_name() - "x", "sqrt(x^2+y^2)", "both", ... */
const char *iio_modifier_name(enum iio_modifier mod);
/** iio_chan_info_postfix() - "raw", "input", "scale", ... of an info-mask bit. */
const char *iio_chan_info_postfix(enum iio_chan_info_enum info);
/** iio_val_type_name() - "INT", "FRACTIONAL_LOG2", ... for the wire. */
const char *iio_val_type_name(int type);

/** iio_chan_type_from_name() - inverse of iio_chan_type_name(); -EINVAL if unknown. */
int iio_chan_type_from_name(const char *name);
/** iio_val_type_from_name() - inverse of iio_val_type_name(); -EINVAL if unknown. */
int iio_val_type_from_name(const char *name);

#endif /* IIOWIRE_IIO_TYPES_H */
