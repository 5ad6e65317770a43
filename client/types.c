/*
 * types.c - libiiowire's IIO vocabulary: channel type names and value
 * formats, for programs that get (type, val, val2) or a type name back.
 *
 * Place in the flow: request.c hands decoded replies to consumer.c and
 * device.c, which ask this file what "voltage" or "FRACTIONAL_LOG2" is. The
 * type names come from the generated table (iiowire_types.h, made from the
 * IIO core's table at build time); value text and format names come from the
 * core's formatter (drivers/iio_value.c, compiled into the library), so the
 * client formats exactly as the daemon and the kernel do. No I/O here.
 */
#include <errno.h>
#include <string.h>

#include "iio.h"
#include "iio_value.h"
#include "iiowire_priv.h"
#include "iiowire_types.h"

_Static_assert(IIOWIRE_TYPES_COUNT == IIOWIRE_IIO_CHAN_TYPE_COUNT,
	       "iiowire_types.h must have one slot per core channel type");

/**
 * iiowire_chan_type_name() - the sysfs spelling of a channel type.
 * Return: static string, or NULL for a type without a name.
 */
IIOWIRE_EXPORT const char *iiowire_chan_type_name(int type)
{
	if (type < 0 || type >= IIOWIRE_TYPES_COUNT)
		return NULL;
	return iiowire_types_names[type];
}

/**
 * iiowire_chan_type_from_name() - "voltage" -> IIO_VOLTAGE.
 * Return: the type (>= 0), or -EINVAL for NULL or an unknown name.
 */
IIOWIRE_EXPORT int iiowire_chan_type_from_name(const char *name)
{
	int i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < IIOWIRE_TYPES_COUNT; i++)
		if (iiowire_types_names[i] && strcmp(iiowire_types_names[i], name) == 0)
			return i;
	return -EINVAL;
}

/**
 * iiowire_val_type_name() - the wire name of an IIO_VAL_* code.
 * Return: static string ("FRACTIONAL_LOG2"), or NULL for an unknown code.
 */
IIOWIRE_EXPORT const char *iiowire_val_type_name(int type)
{
	return iio_val_type_name(type);
}

/**
 * iiowire_format_value() - (type, val, val2) as sysfs shows it, without the
 * newline, through the core's formatter.
 * Return: the length, -EINVAL (unknown type, INT_MULTIPLE, zero divisor), -EFBIG.
 */
IIOWIRE_EXPORT int iiowire_format_value(char *buf, size_t len, int type, int val, int val2)
{
	int vals[2] = { val, val2 };
	int ret;

	if (!iio_val_type_name(type) || type == IIO_VAL_INT_MULTIPLE)
		return -EINVAL;
	ret = iio_format_value(buf, len, type, 2, vals);
	if (ret <= 0)
		return ret < 0 ? ret : -EINVAL;
	/* drop the sysfs newline: callers print their own line ends */
	buf[--ret] = '\0';
	return ret;
}
