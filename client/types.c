/*
 * types.c - libiiowire's IIO vocabulary: channel type names and value
 * formats, for programs that get (type, val, val2) or a type name back.
 *
 * Place in the flow: request.c hands decoded replies to consumer.c and
 * device.c, which ask this file what "voltage" or "FRACTIONAL_LOG2" is. The
 * names, the value text and the format names all come from the ABI leaf
 * (drivers/abi/, compiled into the library with hidden visibility), the
 * same tables and formatter the daemon uses, so the client spells and
 * formats exactly as the daemon and the kernel do. No I/O here.
 */
#include <errno.h>

/*
 * Both the leaf's iio_types.h and the public header's generated
 * iiowire_abi.h define IIO_VAL_*: including both here makes the compiler
 * compare them, so a code that drifted fails the build (a redefinition).
 */
#include "iio_value.h"
#include "iiowire_priv.h"

/**
 * iiowire_chan_type_name() - the sysfs spelling of a channel type.
 * Return: static string, or NULL for a type without a name.
 */
IIOWIRE_EXPORT const char *iiowire_chan_type_name(int type)
{
	return iio_chan_type_name((enum iio_chan_type)type);
}

/**
 * iiowire_chan_type_from_name() - "voltage" -> IIO_VOLTAGE.
 * Return: the type (>= 0), or -EINVAL for NULL or an unknown name.
 */
IIOWIRE_EXPORT int iiowire_chan_type_from_name(const char *name)
{
	return iio_chan_type_from_name(name);
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
