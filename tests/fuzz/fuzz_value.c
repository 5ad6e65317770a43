/*
 * fuzz_value.c - libFuzzer target for the value parser and formatter.
 *
 * Feeds arbitrary text to iio_str_to_fixpoint() and iio_parse_value() in
 * every write format, and arbitrary ints to iio_format_value() in every
 * type, checking the invariants the core relies on: a failed parse leaves
 * its outputs untouched, and formatted text is NUL-terminated, within the
 * buffer and ends with exactly one newline.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iio.h"
#include "iio_value.h"

static const int fuzz_value_types[] = {
	0, IIO_VAL_INT, IIO_VAL_INT_PLUS_MICRO, IIO_VAL_INT_PLUS_NANO, IIO_VAL_INT_PLUS_MICRO_DB,
	IIO_VAL_INT_MULTIPLE, IIO_VAL_INT_64, IIO_VAL_FRACTIONAL, IIO_VAL_FRACTIONAL_LOG2,
	IIO_VAL_CHAR, IIO_VAL_DECIMAL64_MILLI, IIO_VAL_DECIMAL64_MICRO, IIO_VAL_DECIMAL64_NANO,
	IIO_VAL_DECIMAL64_PICO,
};
#define FUZZ_NTYPES (sizeof(fuzz_value_types) / sizeof(fuzz_value_types[0]))

static void fuzz_value_parse(const uint8_t *data, size_t size)
{
	char *str = malloc(size + 1);
	size_t i;

	if (!str)
		return;
	memcpy(str, data, size);
	str[size] = '\0';
	for (i = 0; i < FUZZ_NTYPES; i++) {
		int val = 0x5a5a, val2 = 0x5a5a;

		if (iio_parse_value(str, fuzz_value_types[i], &val, &val2) < 0 &&
		    (val != 0x5a5a || val2 != 0x5a5a))
			abort();	/* malformed input must change nothing */
	}
	{
		int a = 0x5a5a, b = 0x5a5a;

		if (iio_str_to_fixpoint(str, 100000, &a, &b) < 0 && (a != 0x5a5a || b != 0x5a5a))
			abort();
	}
	free(str);
}

static void fuzz_value_format(const uint8_t *data, size_t size)
{
	int vals[8] = { 0 };
	char buf[256];
	int type, n, len;

	if (size < 1)
		return;
	type = fuzz_value_types[data[0] % FUZZ_NTYPES];
	n = size - 1 > sizeof(vals) ? (int)(sizeof(vals) / sizeof(int)) : (int)((size - 1) / sizeof(int));
	memcpy(vals, data + 1, (size_t)n * sizeof(int));
	len = iio_format_value(buf, sizeof(buf), type, type == IIO_VAL_INT_MULTIPLE ? n : 2, vals);
	if (len >= 0) {
		if ((size_t)len >= sizeof(buf) || buf[len] != '\0' || len < 1 || buf[len - 1] != '\n')
			abort();
	}
	{
		int out = 0;

		iio_multiply_value(&out, (int64_t)vals[2] * 1000, type, vals[0], vals[1]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_value_parse(data, size);
	fuzz_value_format(data, size);
	return 0;
}
