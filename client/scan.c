/*
 * scan.c - libiiowire's reading of raw records: a scan element's _type text
 * taken apart, one element's value extracted from a record, and the
 * processed value the kernel's iio_convert_raw_to_processed() would give.
 *
 * Place in the flow: wire -> stream.c -> *scan.c* -> your program. Pure
 * code on bytes the stream handed over: no I/O, no allocation. The rules are
 * the ABI's (Documentation/ABI/testing/sysfs-bus-iio, "_type"; the kernel's
 * tools/iio/iio_generic_buffer.c decodes the same way); the arithmetic is
 * the ABI leaf's iio_raw_to_processed(), the one the daemon's consumer code
 * uses, so both ends agree to the digit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iio_value.h"
#include "iiowire_priv.h"

/**
 * iiowire_scan_type_parse() - "be:u12/16>>0" or "le:s16/16X2>>0" into @ch's
 * big_endian, is_signed, realbits, storagebits, shift and repeat.
 * Return: 0, or -EPROTO for a text that is not a _type, or one whose
 * element the record cannot hold (storagebits not 8, 16, 32 or 64,
 * realbits + shift over storagebits: the kernel refuses to register those).
 */
int iiowire_scan_type_parse(const char *text, struct iiowire_scan_channel *ch)
{
	long real, storage, repeat = 1, shift;
	const char *p = text;
	char *end;

	if ((p[0] != 'b' && p[0] != 'l') || p[1] != 'e' || p[2] != ':' ||
	    (p[3] != 's' && p[3] != 'u') || p[4] < '0' || p[4] > '9')
		return -EPROTO;
	real = strtol(p + 4, &end, 10);
	if (*end != '/' || end[1] < '0' || end[1] > '9')
		return -EPROTO;
	storage = strtol(end + 1, &end, 10);
	if (*end == 'X') {
		repeat = strtol(end + 1, &end, 10);
		if (repeat < 1 || repeat > IIOWIRE_SCAN_REPEAT_MAX)
			return -EPROTO;
	}
	if (end[0] != '>' || end[1] != '>' || end[2] < '0' || end[2] > '9')
		return -EPROTO;
	shift = strtol(end + 2, &end, 10);
	if ((*end && strcmp(end, "\n")) ||
	    (storage != 8 && storage != 16 && storage != 32 && storage != 64) || real < 1 ||
	    real + shift > storage)
		return -EPROTO;
	ch->big_endian = p[0] == 'b';
	ch->is_signed = p[3] == 's';
	ch->realbits = (int)real;
	ch->storagebits = (int)storage;
	ch->shift = (int)shift;
	ch->repeat = (int)repeat;
	return 0;
}

/**
 * iiowire_scan_extract() - the value of element @ch of @record (its first,
 * when repeat > 1): storage bytes in their order, >> shift, realbits kept,
 * sign-extended when signed. The caller checked that the element lies in
 * the record.
 * Return: the value.
 */
int64_t iiowire_scan_extract(const struct iiowire_scan_channel *ch, const void *record)
{
	const unsigned char *p = (const unsigned char *)record + ch->offset;
	int bytes = ch->storagebits / 8, i;
	uint64_t v = 0;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[ch->big_endian ? i : bytes - 1 - i] << (8 * (bytes - 1 - i));
	v >>= ch->shift;
	if (ch->realbits < 64) {
		v &= (UINT64_C(1) << ch->realbits) - 1;
		/* top bits the chip sent (max1363's 1s, adis16400's ND/EA) are not the value */
		if (ch->is_signed && (v >> (ch->realbits - 1)) & 1)
			v |= ~((UINT64_C(1) << ch->realbits) - 1);
	}
	return (int64_t)v;
}

/**
 * iiowire_scan_convert() - @raw of element @ch as iio_convert_raw_to_processed()
 * gives it with @scale, from the offset and scale kept in @ch.
 * Return: 0, -ERANGE (raw or result out of int), -EINVAL (a type that cannot scale).
 */
int iiowire_scan_convert(const struct iiowire_scan_channel *ch, int64_t raw, int *val,
			 unsigned int scale)
{
	if (raw < INT32_MIN || raw > INT32_MAX)
		return -ERANGE;
	return iio_raw_to_processed((int)raw, ch->has_offset, ch->offset_type, ch->offset_val,
				    ch->offset_val2, ch->has_scale, ch->scale_type, ch->scale_val,
				    ch->scale_val2, scale, val);
}
