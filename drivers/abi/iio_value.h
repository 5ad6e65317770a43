/*
 * iio_value.h - IIO values as text, and the arithmetic on them.
 *
 * The one formatter and the one parser of the project: read_raw's
 * (type, vals) become exactly the text the kernel's sysfs shows, written
 * text becomes (val, val2) with the driver's precision, and raw values turn
 * into processed ones as current mainline's inkern.c computes them. Used by
 * the core, the server and the client library alike. Pure functions, no
 * allocation, no I/O.
 */
#ifndef IIOWIRE_IIO_VALUE_H
#define IIOWIRE_IIO_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iio_types.h"	/* IIO_VAL_*, IIO_AVAIL_*, the value type names */

/**
 * iio_format_value() - format a value as sysfs shows it, with the trailing '\n'.
 * @buf: output, NUL-terminated when @len > 0.
 * @type: IIO_VAL_* code; an unknown code (0 included) prints just "\n".
 * @size: number of ints in @vals (2 for every type but INT_MULTIPLE).
 * Return: the text length without the NUL, -EFBIG if it does not fit in
 * min(@len, IIO_VALUE_MAX_BYTES) - 1, -EINVAL for FRACTIONAL with val2 = 0.
 */
int iio_format_value(char *buf, size_t len, int type, int size, const int *vals);

/**
 * iio_format_avail() - format an _available answer: a list ("a b c\n") or
 * a range ("[min step max]\n"); stride 1 int for IIO_VAL_INT, else 2.
 * @avail: IIO_AVAIL_LIST or IIO_AVAIL_RANGE.
 * Return: length, -EFBIG, or -EINVAL for a bad @avail or a range without 3 items.
 */
int iio_format_avail(char *buf, size_t len, int avail, int type, const int *vals, int length);

/**
 * iio_str_to_fixpoint() - parse "[-+]int[.frac][\n]" into integer and fraction.
 * @fract_mult: weight of the first decimal (100000 micro, 100000000 nano; 0 = integer only).
 * Return: 0, or -EINVAL for malformed text (outputs untouched).
 */
int iio_str_to_fixpoint(const char *str, int fract_mult, int *integer, int *fract);

/**
 * iio_parse_value() - parse written text in the driver's format @fmt
 * (IIO_VAL_INT, INT_PLUS_MICRO[_DB], INT_PLUS_NANO, CHAR, INT_64, DECIMAL64_*).
 * Return: 0, or -EINVAL (outputs untouched).
 */
int iio_parse_value(const char *str, int fmt, int *val, int *val2);

/**
 * iio_kstrtobool() - the kernel's kstrtobool(): y/Y/t/T/1 and n/N/f/F/0 by
 * their first character, "on"/"off" by the first two; the rest of the text
 * is ignored (events/..._en, buffer/enable).
 * Return: 0 with *res set, -EINVAL for anything else.
 */
int iio_kstrtobool(const char *s, bool *res);

/**
 * iio_kstrtoul10() - the kernel's kstrtoul(s, 10, res): decimal digits, an
 * optional leading '+' and one trailing '\n' (event attributes such as
 * poke_evN and events/sampling_frequency parse with it).
 * Return: 0, -ERANGE on overflow, -EINVAL for anything else.
 */
int iio_kstrtoul10(const char *s, unsigned long *res);

/**
 * iio_value_int_part_fits() - does the integer part of fixed-point text
 * ("[-+]digits[...]") fit in an int? The kernel's iio_str_to_fixpoint()
 * wraps it unchecked; a write over the network must not (K-13, K-53).
 */
bool iio_value_int_part_fits(const char *str);

/**
 * iio_parse_value_checked() - iio_parse_value() for a value written from
 * the network: a fixed-point integer part outside int, which the kernel
 * wraps (4294968296 becomes 1000), is refused instead. One of the
 * deviations from the kernel (K-13 in maps/README.md; PROTOCOL.md, WRITE).
 * Return: 0, -ERANGE for such a value, or -EINVAL (outputs untouched).
 */
int iio_parse_value_checked(const char *str, int fmt, int *val, int *val2);

/**
 * iio_multiply_value() - *result = multiplier x (val, val2 as @type), truncated
 * to int, with the sign rules of mainline (negative if val or val2 < 0;
 * FRACTIONAL_LOG2 is an arithmetic shift).
 * Return: IIO_VAL_INT, or -EINVAL for a type that cannot scale.
 */
int iio_multiply_value(int *result, int64_t multiplier, int type, int val, int val2);

/**
 * iio_multiply_value_checked() - iio_multiply_value() for a value that
 * leaves over the network (CREAD of a channel with its own processed
 * value): a result the kernel would wrap, because the exact product does
 * not fit in an int, is refused instead (PROTOCOL.md, CREAD: a deviation).
 * Return: IIO_VAL_INT, -ERANGE (*@result untouched), or -EINVAL.
 */
int iio_multiply_value_checked(int *result, int64_t multiplier, int type, int val, int val2);

/**
 * iio_offset_to_int() - an OFFSET value as inkern.c applies it: INT as is,
 * MICRO/NANO truncated to val, FRACTIONAL val/val2, FRACTIONAL_LOG2 val>>val2.
 * Return: 0, or -EINVAL for other types.
 */
int iio_offset_to_int(int type, int val, int val2, int *offset);

/**
 * iio_convert_raw_to_processed_values() - the arithmetic of
 * iio_convert_raw_to_processed() once offset and scale were read:
 * out = ((raw + offset) * scale_mult) scaled by (scale_type, sval, sval2).
 * @has_offset/@has_scale: whether the channel had them (and reads succeeded).
 * A result that does not fit in an int, which the kernel wraps, is -ERANGE
 * (deviation K-14 in maps/README.md; PROTOCOL.md, CREAD).
 * Return: 0, -ERANGE, or -EINVAL.
 */
int iio_raw_to_processed(int raw, int has_offset, int offset_type, int oval, int oval2,
			 int has_scale, int scale_type, int sval, int sval2,
			 unsigned int scale_mult, int *processed);

#endif /* IIOWIRE_IIO_VALUE_H */
