/*
 * test_iio_value.c - the value formatter, parser and consumer arithmetic
 * (drivers/iio_value.c) against the kernel's sysfs text, row by row.
 *
 * Formatting rows follow the boundary classes of the kernel's
 * drivers/iio/test/iio-test-format.c (>= 1, < 1, > -1, <= -1, zero, INT and
 * LLONG limits) plus every quirk of reference/kernel-iio-facts.md 2.1;
 * parsing rows cover 2.3 including malformed text, which must fail with
 * -EINVAL and leave the outputs alone; arithmetic rows are the worked
 * examples of 3.2. No device, no I/O: pure functions in, text out.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iio.h"
#include "iio_value.h"
#include "testutil.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* An s64 split the way read_raw returns INT_64 and DECIMAL64: low word, high word. */
#define LO(x)		((int)(uint32_t)(uint64_t)(x))
#define HI(x)		((int)(uint32_t)((uint64_t)(x) >> 32))
#define S64(x)		LO(x), HI(x)
/* what an untouched output still holds */
#define SENTINEL	0x5a5a5a5a

struct format_row {
	const char *name;
	int type;
	int size;
	int vals[8];
	int ret;		/* expected return; > 0 means strlen(expected) */
	const char *expected;
};

static const struct format_row format_rows[] = {
	/* INT */
	{ "int >= 1", IIO_VAL_INT, 1, { 42 }, 1, "42\n" },
	{ "int <= -1", IIO_VAL_INT, 1, { -23 }, 1, "-23\n" },
	{ "int zero", IIO_VAL_INT, 1, { 0 }, 1, "0\n" },
	{ "int INT_MAX", IIO_VAL_INT, 1, { INT_MAX }, 1, "2147483647\n" },
	{ "int INT_MIN", IIO_VAL_INT, 1, { INT_MIN }, 1, "-2147483648\n" },
	{ "int ignores val2", IIO_VAL_INT, 2, { 7, 99 }, 1, "7\n" },

	/* INT_PLUS_MICRO */
	{ "micro >= 1", IIO_VAL_INT_PLUS_MICRO, 2, { 1, 10 }, 1, "1.000010\n" },
	{ "micro < 1", IIO_VAL_INT_PLUS_MICRO, 2, { 0, 12 }, 1, "0.000012\n" },
	{ "micro <= -1", IIO_VAL_INT_PLUS_MICRO, 2, { -1, 10 }, 1, "-1.000010\n" },
	{ "micro > -1", IIO_VAL_INT_PLUS_MICRO, 2, { 0, -123 }, 1, "-0.000123\n" },
	{ "micro -0.5", IIO_VAL_INT_PLUS_MICRO, 2, { 0, -500000 }, 1, "-0.500000\n" },
	{ "micro -1.5 both negative", IIO_VAL_INT_PLUS_MICRO, 2, { -1, -500000 }, 1,
	  "-1.500000\n" },
	{ "micro quirk: positive val, negative val2", IIO_VAL_INT_PLUS_MICRO, 2, { 1, -500000 },
	  1, "-1.500000\n" },
	{ "micro quirk: val2 not normalised", IIO_VAL_INT_PLUS_MICRO, 2, { 0, 1500000 }, 1,
	  "0.1500000\n" },
	{ "micro zero", IIO_VAL_INT_PLUS_MICRO, 2, { 0, 0 }, 1, "0.000000\n" },
	{ "micro INT_MAX", IIO_VAL_INT_PLUS_MICRO, 2, { INT_MAX, 999999 }, 1,
	  "2147483647.999999\n" },
	{ "micro INT_MIN", IIO_VAL_INT_PLUS_MICRO, 2, { INT_MIN, 0 }, 1,
	  "-2147483648.000000\n" },
	{ "micro quirk: INT_MIN with negative val2 (abs wraps)", IIO_VAL_INT_PLUS_MICRO, 2,
	  { INT_MIN, -1 }, 1, "--2147483648.000001\n" },
	{ "micro dummy scale", IIO_VAL_INT_PLUS_MICRO, 2, { 0, 1333 }, 1, "0.001333\n" },

	/* INT_PLUS_MICRO_DB */
	{ "micro dB >= 1", IIO_VAL_INT_PLUS_MICRO_DB, 2, { 1, 10 }, 1, "1.000010 dB\n" },
	{ "micro dB < 1", IIO_VAL_INT_PLUS_MICRO_DB, 2, { 0, 12 }, 1, "0.000012 dB\n" },
	{ "micro dB <= -1", IIO_VAL_INT_PLUS_MICRO_DB, 2, { -1, 10 }, 1, "-1.000010 dB\n" },
	{ "micro dB > -1", IIO_VAL_INT_PLUS_MICRO_DB, 2, { 0, -123 }, 1, "-0.000123 dB\n" },
	{ "micro dB zero", IIO_VAL_INT_PLUS_MICRO_DB, 2, { 0, 0 }, 1, "0.000000 dB\n" },

	/* INT_PLUS_NANO */
	{ "nano >= 1", IIO_VAL_INT_PLUS_NANO, 2, { 1, 10 }, 1, "1.000000010\n" },
	{ "nano < 1", IIO_VAL_INT_PLUS_NANO, 2, { 0, 12 }, 1, "0.000000012\n" },
	{ "nano <= -1", IIO_VAL_INT_PLUS_NANO, 2, { -1, 10 }, 1, "-1.000000010\n" },
	{ "nano > -1", IIO_VAL_INT_PLUS_NANO, 2, { 0, -123 }, 1, "-0.000000123\n" },
	{ "nano zero", IIO_VAL_INT_PLUS_NANO, 2, { 0, 0 }, 1, "0.000000000\n" },
	{ "nano dummy sampling frequency", IIO_VAL_INT_PLUS_NANO, 2, { 3, 33 }, 1,
	  "3.000000033\n" },
	{ "nano quirk: positive val, negative val2", IIO_VAL_INT_PLUS_NANO, 2, { 2, -5 }, 1,
	  "-2.000000005\n" },

	/* FRACTIONAL */
	{ "fractional < 1", IIO_VAL_FRACTIONAL, 2, { 1, 10 }, 1, "0.100000000\n" },
	{ "fractional >= 1", IIO_VAL_FRACTIONAL, 2, { 100, 3 }, 1, "33.333333333\n" },
	{ "fractional > -1", IIO_VAL_FRACTIONAL, 2, { -1, 1000000000 }, 1, "-0.000000001\n" },
	{ "fractional <= -1", IIO_VAL_FRACTIONAL, 2, { -200, 3 }, 1, "-66.666666666\n" },
	{ "fractional zero", IIO_VAL_FRACTIONAL, 2, { 0, -10 }, 1, "0.000000000\n" },
	{ "fractional negative divisor", IIO_VAL_FRACTIONAL, 2, { 1, -3 }, 1, "-0.333333333\n" },
	{ "fractional both negative", IIO_VAL_FRACTIONAL, 2, { -1, -3 }, 1, "0.333333333\n" },
	{ "fractional INT_MAX", IIO_VAL_FRACTIONAL, 2, { INT_MAX, 1 }, 1,
	  "2147483647.000000000\n" },
	{ "fractional INT_MIN", IIO_VAL_FRACTIONAL, 2, { INT_MIN, 1 }, 1,
	  "-2147483648.000000000\n" },
	{ "fractional divide by zero refused", IIO_VAL_FRACTIONAL, 2, { 1, 0 }, -EINVAL, NULL },

	/* FRACTIONAL_LOG2: the shift rounds toward zero for negatives */
	{ "log2 < 1", IIO_VAL_FRACTIONAL_LOG2, 2, { 123, 10 }, 1, "0.120117187\n" },
	{ "log2 >= 1", IIO_VAL_FRACTIONAL_LOG2, 2, { 1234567, 10 }, 1, "1205.631835937\n" },
	{ "log2 > -1", IIO_VAL_FRACTIONAL_LOG2, 2, { -123, 10 }, 1, "-0.120117187\n" },
	{ "log2 <= -1", IIO_VAL_FRACTIONAL_LOG2, 2, { -1234567, 10 }, 1, "-1205.631835937\n" },
	{ "log2 zero", IIO_VAL_FRACTIONAL_LOG2, 2, { 0, 10 }, 1, "0.000000000\n" },
	{ "log2 max1363 scale", IIO_VAL_FRACTIONAL_LOG2, 2, { 2048, 12 }, 1, "0.500000000\n" },
	{ "log2 max1238 scale", IIO_VAL_FRACTIONAL_LOG2, 2, { 4096, 12 }, 1, "1.000000000\n" },
	{ "log2 max1036 scale", IIO_VAL_FRACTIONAL_LOG2, 2, { 4096, 8 }, 1, "16.000000000\n" },
	{ "log2 shift 0", IIO_VAL_FRACTIONAL_LOG2, 2, { INT_MIN, 0 }, 1,
	  "-2147483648.000000000\n" },

	/* INT_MULTIPLE: every int followed by a space */
	{ "multiple", IIO_VAL_INT_MULTIPLE, 5, { 1, -2, 3, -4, 5 }, 1, "1 -2 3 -4 5 \n" },
	{ "multiple one", IIO_VAL_INT_MULTIPLE, 1, { INT_MIN }, 1, "-2147483648 \n" },
	{ "multiple empty", IIO_VAL_INT_MULTIPLE, 0, { 0 }, 1, "\n" },

	/* CHAR */
	{ "char", IIO_VAL_CHAR, 1, { 65 }, 1, "A\n" },
	{ "char low byte only", IIO_VAL_CHAR, 1, { 0x100 + 'z' }, 1, "z\n" },

	/* INT_64: (low, high) */
	{ "int64 >= 1", IIO_VAL_INT_64, 2, { S64(24) }, 1, "24\n" },
	{ "int64 <= -1", IIO_VAL_INT_64, 2, { S64(-24) }, 1, "-24\n" },
	{ "int64 zero", IIO_VAL_INT_64, 2, { S64(0) }, 1, "0\n" },
	{ "int64 UINT_MAX", IIO_VAL_INT_64, 2, { S64(4294967295LL) }, 1, "4294967295\n" },
	{ "int64 -UINT_MAX", IIO_VAL_INT_64, 2, { S64(-4294967295LL) }, 1, "-4294967295\n" },
	{ "int64 LLONG_MAX", IIO_VAL_INT_64, 2, { S64(LLONG_MAX) }, 1,
	  "9223372036854775807\n" },
	{ "int64 LLONG_MIN", IIO_VAL_INT_64, 2, { S64(LLONG_MIN) }, 1,
	  "-9223372036854775808\n" },

	/* DECIMAL64 */
	{ "dec64 milli >= 1", IIO_VAL_DECIMAL64_MILLI, 2, { S64(1234) }, 1, "1.234\n" },
	{ "dec64 milli > -1", IIO_VAL_DECIMAL64_MILLI, 2, { S64(-123) }, 1, "-0.123\n" },
	{ "dec64 milli <= -1", IIO_VAL_DECIMAL64_MILLI, 2, { S64(-1234) }, 1, "-1.234\n" },
	{ "dec64 milli < 1", IIO_VAL_DECIMAL64_MILLI, 2, { S64(5) }, 1, "0.005\n" },
	{ "dec64 milli zero", IIO_VAL_DECIMAL64_MILLI, 2, { S64(0) }, 1, "0.000\n" },
	{ "dec64 micro big", IIO_VAL_DECIMAL64_MICRO, 2, { S64(5000000000000042LL) }, 1,
	  "5000000000.000042\n" },
	{ "dec64 micro > -1", IIO_VAL_DECIMAL64_MICRO, 2, { S64(-1) }, 1, "-0.000001\n" },
	{ "dec64 nano >= 1", IIO_VAL_DECIMAL64_NANO, 2, { S64(1000000001LL) }, 1,
	  "1.000000001\n" },
	{ "dec64 pico > -1", IIO_VAL_DECIMAL64_PICO, 2, { S64(-1) }, 1, "-0.000000000001\n" },
	{ "dec64 pico LLONG_MAX", IIO_VAL_DECIMAL64_PICO, 2, { S64(LLONG_MAX) }, 1,
	  "9223372.036854775807\n" },
	{ "dec64 pico LLONG_MIN", IIO_VAL_DECIMAL64_PICO, 2, { S64(LLONG_MIN) }, 1,
	  "-9223372.036854775808\n" },

	/* unknown codes print an empty value */
	{ "unknown type 0", 0, 2, { 1, 2 }, 1, "\n" },
	{ "unknown type 7", 7, 2, { 1, 2 }, 1, "\n" },
	{ "unknown type 99", 99, 2, { 1, 2 }, 1, "\n" },
	{ "too few ints for a pair type", IIO_VAL_INT_PLUS_MICRO, 1, { 1 }, -EINVAL, NULL },
};

static void test_format_value(void)
{
	char buf[IIO_VALUE_MAX_BYTES];
	size_t i;
	int ret, want;

	for (i = 0; i < ARRAY_SIZE(format_rows); i++) {
		const struct format_row *r = &format_rows[i];

		memset(buf, 'X', sizeof(buf));
		ret = iio_format_value(buf, sizeof(buf), r->type, r->size, r->vals);
		want = r->ret > 0 ? (int)strlen(r->expected) : r->ret;
		TEST_ROW_ASSERT(ret == want, r->name);
		if (r->ret > 0 && ret == want)
			TEST_ROW_ASSERT(memcmp(buf, r->expected, (size_t)want + 1) == 0, r->name);
	}
}
TEST_CASE(test_format_value, "format_value rows");

/* CHAR 0 is one character long, as the kernel's "%c" counts it. */
static void test_format_char_nul(void)
{
	char buf[8];
	int v = 0;

	CU_ASSERT_EQUAL(iio_format_value(buf, sizeof(buf), IIO_VAL_CHAR, 1, &v), 2);
	CU_ASSERT(buf[0] == '\0' && buf[1] == '\n' && buf[2] == '\0');
}
TEST_CASE(test_format_char_nul, "format_value CHAR 0");

struct size_row {
	const char *name;
	size_t len;
	int ret;
};

/* "42\n" needs 4 bytes with its NUL; the page limit caps larger buffers. */
static void test_format_sizes(void)
{
	static const struct size_row rows[] = {
		{ "exact fit", 4, 3 },
		{ "one short", 3, -EFBIG },
		{ "empty buffer", 0, -EFBIG },
	};
	static int vals[IIO_VALUE_MAX_BYTES];
	char big[IIO_VALUE_MAX_BYTES * 2];
	char buf[8];
	int v = 42, n, ret;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		TEST_ROW_ASSERT(iio_format_value(buf, rows[i].len, IIO_VAL_INT, 1, &v) ==
				rows[i].ret, rows[i].name);

	/* 2047 "0 " pairs are 4094 characters: the longest value a page holds */
	n = 2047;
	ret = iio_format_value(big, sizeof(big), IIO_VAL_INT_MULTIPLE, n, vals);
	TEST_ROW_ASSERT(ret == 4095, "page: 4094 characters plus newline fit");
	ret = iio_format_value(big, sizeof(big), IIO_VAL_INT_MULTIPLE, n + 1, vals);
	TEST_ROW_ASSERT(ret == -EFBIG, "page: 4096 characters do not");
}
TEST_CASE(test_format_sizes, "format_value buffer and page limits");

struct avail_row {
	const char *name;
	int avail;
	int type;
	int vals[8];
	int length;
	int ret;
	const char *expected;
};

static const struct avail_row avail_rows[] = {
	{ "int list", IIO_AVAIL_LIST, IIO_VAL_INT, { 1, 2, 3 }, 3, 1, "1 2 3\n" },
	{ "micro list", IIO_AVAIL_LIST, IIO_VAL_INT_PLUS_MICRO, { 0, 500000, 1, 0 }, 4, 1,
	  "0.500000 1.000000\n" },
	{ "micro list of dummy calibscales", IIO_AVAIL_LIST, IIO_VAL_INT_PLUS_MICRO,
	  { 0, 100, 0, 133, 733, 13 }, 6, 1, "0.000100 0.000133 733.000013\n" },
	{ "nano list", IIO_AVAIL_LIST, IIO_VAL_INT_PLUS_NANO, { 0, 1, -1, 0 }, 4, 1,
	  "0.000000001 -1.000000000\n" },
	{ "log2 list", IIO_AVAIL_LIST, IIO_VAL_FRACTIONAL_LOG2, { 2048, 12, 4096, 12 }, 4, 1,
	  "0.500000000 1.000000000\n" },
	{ "empty list", IIO_AVAIL_LIST, IIO_VAL_INT, { 0 }, 0, 1, "\n" },
	{ "odd int left over in pair list", IIO_AVAIL_LIST, IIO_VAL_INT_PLUS_MICRO,
	  { 0, 1, 2 }, 3, 1, "0.000001\n" },
	{ "int range", IIO_AVAIL_RANGE, IIO_VAL_INT, { 0, 1, 10 }, 3, 1, "[0 1 10]\n" },
	{ "micro range", IIO_AVAIL_RANGE, IIO_VAL_INT_PLUS_MICRO,
	  { 0, 0, 0, 100000, 1, 0 }, 6, 1, "[0.000000 0.100000 1.000000]\n" },
	{ "range reads only three items", IIO_AVAIL_RANGE, IIO_VAL_INT, { -5, 5, 20, 99 }, 4, 1,
	  "[-5 5 20]\n" },
	{ "int range too short", IIO_AVAIL_RANGE, IIO_VAL_INT, { 0, 1 }, 2, -EINVAL, NULL },
	{ "micro range too short", IIO_AVAIL_RANGE, IIO_VAL_INT_PLUS_MICRO, { 0, 0, 1, 0, 2 }, 5,
	  -EINVAL, NULL },
	{ "unknown avail code", 2, IIO_VAL_INT, { 1 }, 1, -EINVAL, NULL },
	{ "fractional by zero in a list", IIO_AVAIL_LIST, IIO_VAL_FRACTIONAL, { 1, 0 }, 2,
	  -EINVAL, NULL },
};

static void test_format_avail(void)
{
	char buf[256];
	size_t i;
	int ret, want;

	for (i = 0; i < ARRAY_SIZE(avail_rows); i++) {
		const struct avail_row *r = &avail_rows[i];

		ret = iio_format_avail(buf, sizeof(buf), r->avail, r->type, r->vals, r->length);
		want = r->ret > 0 ? (int)strlen(r->expected) : r->ret;
		TEST_ROW_ASSERT(ret == want, r->name);
		if (r->ret > 0 && ret == want)
			TEST_ROW_ASSERT(strcmp(buf, r->expected) == 0, r->name);
	}
	ret = iio_format_avail(buf, 4, IIO_AVAIL_LIST, IIO_VAL_INT, (const int[]){ 1, 2 }, 2);
	TEST_ROW_ASSERT(ret == -EFBIG, "list does not fit");
}
TEST_CASE(test_format_avail, "format_avail rows");

struct parse_row {
	const char *name;
	int fmt;
	const char *text;
	int ret;
	int val;
	int val2;
};

static const struct parse_row parse_rows[] = {
	/* INT_PLUS_MICRO (the default format) */
	{ "micro 1.5", IIO_VAL_INT_PLUS_MICRO, "1.5", 0, 1, 500000 },
	{ "micro -1.5 negates the integer", IIO_VAL_INT_PLUS_MICRO, "-1.5", 0, -1, 500000 },
	{ "micro -0.5 negates the fraction", IIO_VAL_INT_PLUS_MICRO, "-0.5", 0, 0, -500000 },
	{ "micro plus sign", IIO_VAL_INT_PLUS_MICRO, "+2.25", 0, 2, 250000 },
	{ "micro integer only", IIO_VAL_INT_PLUS_MICRO, "3", 0, 3, 0 },
	{ "micro trailing newline", IIO_VAL_INT_PLUS_MICRO, "3.000001\n", 0, 3, 1 },
	{ "micro extra digits truncate", IIO_VAL_INT_PLUS_MICRO, "1.1234567", 0, 1, 123456 },
	{ "micro no rounding", IIO_VAL_INT_PLUS_MICRO, "0.0000019", 0, 0, 1 },
	{ "micro leading dot", IIO_VAL_INT_PLUS_MICRO, ".25", 0, 0, 250000 },
	{ "micro trailing dot", IIO_VAL_INT_PLUS_MICRO, "7.", 0, 7, 0 },
	{ "micro empty string is zero", IIO_VAL_INT_PLUS_MICRO, "", 0, 0, 0 },
	{ "micro lone dot is zero", IIO_VAL_INT_PLUS_MICRO, ".", 0, 0, 0 },
	{ "micro lone plus is zero", IIO_VAL_INT_PLUS_MICRO, "+", 0, 0, 0 },
	{ "micro lone minus is zero", IIO_VAL_INT_PLUS_MICRO, "-", 0, 0, 0 },
	{ "micro overflow unchecked", IIO_VAL_INT_PLUS_MICRO, "4294967297", 0, 1, 0 },
	{ "micro hex is malformed", IIO_VAL_INT_PLUS_MICRO, "0x10", -EINVAL, 0, 0 },
	{ "micro second dot", IIO_VAL_INT_PLUS_MICRO, "1.2.3", -EINVAL, 0, 0 },
	{ "micro leading space", IIO_VAL_INT_PLUS_MICRO, " 1", -EINVAL, 0, 0 },
	{ "micro trailing space", IIO_VAL_INT_PLUS_MICRO, "1 ", -EINVAL, 0, 0 },
	{ "micro exponent", IIO_VAL_INT_PLUS_MICRO, "1e3", -EINVAL, 0, 0 },
	{ "micro two newlines", IIO_VAL_INT_PLUS_MICRO, "1\n\n", -EINVAL, 0, 0 },
	{ "micro text after newline", IIO_VAL_INT_PLUS_MICRO, "1\nx", -EINVAL, 0, 0 },
	{ "micro double sign", IIO_VAL_INT_PLUS_MICRO, "--1", -EINVAL, 0, 0 },
	{ "micro dB suffix refused", IIO_VAL_INT_PLUS_MICRO, "1.5 dB", -EINVAL, 0, 0 },

	/* INT_PLUS_MICRO_DB */
	{ "dB with space", IIO_VAL_INT_PLUS_MICRO_DB, "1.5 dB", 0, 1, 500000 },
	{ "dB without space", IIO_VAL_INT_PLUS_MICRO_DB, "1.5dB", 0, 1, 500000 },
	{ "dB negative with newline", IIO_VAL_INT_PLUS_MICRO_DB, "-3 dB\n", 0, -3, 0 },
	{ "dB without suffix", IIO_VAL_INT_PLUS_MICRO_DB, "-0.25", 0, 0, -250000 },
	{ "dB lower case refused", IIO_VAL_INT_PLUS_MICRO_DB, "1.5 db", -EINVAL, 0, 0 },
	{ "dB two spaces refused", IIO_VAL_INT_PLUS_MICRO_DB, "1.5  dB", -EINVAL, 0, 0 },

	/* INT_PLUS_NANO */
	{ "nano 1.000000001", IIO_VAL_INT_PLUS_NANO, "1.000000001", 0, 1, 1 },
	{ "nano -0.000000001", IIO_VAL_INT_PLUS_NANO, "-0.000000001", 0, 0, -1 },
	{ "nano 0.5", IIO_VAL_INT_PLUS_NANO, "0.5", 0, 0, 500000000 },
	{ "nano extra digits", IIO_VAL_INT_PLUS_NANO, "2.0000000019", 0, 2, 1 },
	{ "nano malformed", IIO_VAL_INT_PLUS_NANO, "2,5", -EINVAL, 0, 0 },

	/* INT: kstrtoint base 0 */
	{ "int decimal", IIO_VAL_INT, "42", 0, 42, 0 },
	{ "int negative", IIO_VAL_INT, "-42", 0, -42, 0 },
	{ "int plus", IIO_VAL_INT, "+7", 0, 7, 0 },
	{ "int hex", IIO_VAL_INT, "0x10", 0, 16, 0 },
	{ "int hex upper", IIO_VAL_INT, "0X1f", 0, 31, 0 },
	{ "int negative hex", IIO_VAL_INT, "-0x10", 0, -16, 0 },
	{ "int octal", IIO_VAL_INT, "010", 0, 8, 0 },
	{ "int zero", IIO_VAL_INT, "0", 0, 0, 0 },
	{ "int newline", IIO_VAL_INT, "7\n", 0, 7, 0 },
	{ "int INT_MAX", IIO_VAL_INT, "2147483647", 0, INT_MAX, 0 },
	{ "int INT_MIN", IIO_VAL_INT, "-2147483648", 0, INT_MIN, 0 },
	{ "int INT_MAX + 1", IIO_VAL_INT, "2147483648", -EINVAL, 0, 0 },
	{ "int INT_MIN - 1", IIO_VAL_INT, "-2147483649", -EINVAL, 0, 0 },
	{ "int u64 overflow", IIO_VAL_INT, "99999999999999999999", -EINVAL, 0, 0 },
	{ "int bad octal digit", IIO_VAL_INT, "08", -EINVAL, 0, 0 },
	{ "int bare 0x", IIO_VAL_INT, "0x", -EINVAL, 0, 0 },
	{ "int bad hex digit", IIO_VAL_INT, "0x1g", -EINVAL, 0, 0 },
	{ "int fraction", IIO_VAL_INT, "1.5", -EINVAL, 0, 0 },
	{ "int empty", IIO_VAL_INT, "", -EINVAL, 0, 0 },
	{ "int lone minus", IIO_VAL_INT, "-", -EINVAL, 0, 0 },
	{ "int plus minus", IIO_VAL_INT, "+-1", -EINVAL, 0, 0 },
	{ "int minus plus", IIO_VAL_INT, "-+1", -EINVAL, 0, 0 },
	{ "int leading space", IIO_VAL_INT, " 1", -EINVAL, 0, 0 },
	{ "int two newlines", IIO_VAL_INT, "1\n\n", -EINVAL, 0, 0 },

	/* INT_64: kstrtoll base 0, split low/high */
	{ "int64 LLONG_MAX", IIO_VAL_INT_64, "9223372036854775807", 0, S64(LLONG_MAX) },
	{ "int64 LLONG_MIN", IIO_VAL_INT_64, "-9223372036854775808", 0, S64(LLONG_MIN) },
	{ "int64 -1", IIO_VAL_INT_64, "-1", 0, -1, -1 },
	{ "int64 hex 2^32", IIO_VAL_INT_64, "0x100000000", 0, 0, 1 },
	{ "int64 newline", IIO_VAL_INT_64, "5\n", 0, 5, 0 },
	{ "int64 LLONG_MAX + 1", IIO_VAL_INT_64, "9223372036854775808", -EINVAL, 0, 0 },
	{ "int64 LLONG_MIN - 1", IIO_VAL_INT_64, "-9223372036854775809", -EINVAL, 0, 0 },
	{ "int64 letters", IIO_VAL_INT_64, "abc", -EINVAL, 0, 0 },

	/* CHAR: the first character as is */
	{ "char", IIO_VAL_CHAR, "A", 0, 65, 0 },
	{ "char takes only the first", IIO_VAL_CHAR, "AB", 0, 65, 0 },
	{ "char newline", IIO_VAL_CHAR, "\n", 0, 10, 0 },
	{ "char high byte unsigned", IIO_VAL_CHAR, "\xe9", 0, 0xe9, 0 },
	{ "char empty", IIO_VAL_CHAR, "", -EINVAL, 0, 0 },

	/* DECIMAL64 */
	{ "dec64 milli", IIO_VAL_DECIMAL64_MILLI, "1.234", 0, S64(1234) },
	{ "dec64 milli negative", IIO_VAL_DECIMAL64_MILLI, "-0.123", 0, S64(-123) },
	{ "dec64 milli truncates", IIO_VAL_DECIMAL64_MILLI, "1.2345", 0, S64(1234) },
	{ "dec64 milli short fraction", IIO_VAL_DECIMAL64_MILLI, "1.2", 0, S64(1200) },
	{ "dec64 milli integer", IIO_VAL_DECIMAL64_MILLI, "5", 0, S64(5000) },
	{ "dec64 milli leading dot", IIO_VAL_DECIMAL64_MILLI, ".5", 0, S64(500) },
	{ "dec64 milli trailing dot", IIO_VAL_DECIMAL64_MILLI, "5.", 0, S64(5000) },
	{ "dec64 milli plus and newline", IIO_VAL_DECIMAL64_MILLI, "+1.5\n", 0, S64(1500) },
	{ "dec64 milli LLONG_MAX", IIO_VAL_DECIMAL64_MILLI, "9223372036854775.807", 0,
	  S64(LLONG_MAX) },
	{ "dec64 milli LLONG_MIN", IIO_VAL_DECIMAL64_MILLI, "-9223372036854775.808", 0,
	  S64(LLONG_MIN) },
	{ "dec64 milli overflow", IIO_VAL_DECIMAL64_MILLI, "9223372036854775.808", -EINVAL, 0,
	  0 },
	{ "dec64 milli scale overflow", IIO_VAL_DECIMAL64_MILLI, "18446744073709552", -EINVAL,
	  0, 0 },
	{ "dec64 micro big", IIO_VAL_DECIMAL64_MICRO, "5000000000.000042", 0,
	  S64(5000000000000042LL) },
	{ "dec64 nano", IIO_VAL_DECIMAL64_NANO, "-2.5", 0, S64(-2500000000LL) },
	{ "dec64 pico", IIO_VAL_DECIMAL64_PICO, "0.000000000001", 0, S64(1) },
	{ "dec64 lone dot", IIO_VAL_DECIMAL64_MILLI, ".", -EINVAL, 0, 0 },
	{ "dec64 empty", IIO_VAL_DECIMAL64_MILLI, "", -EINVAL, 0, 0 },
	{ "dec64 lone minus", IIO_VAL_DECIMAL64_MILLI, "-", -EINVAL, 0, 0 },
	{ "dec64 second dot", IIO_VAL_DECIMAL64_MILLI, "1.2.3", -EINVAL, 0, 0 },
	{ "dec64 minus plus", IIO_VAL_DECIMAL64_MILLI, "-+1", -EINVAL, 0, 0 },
	{ "dec64 space", IIO_VAL_DECIMAL64_MILLI, "1 ", -EINVAL, 0, 0 },

	/* formats nobody can write */
	{ "fractional not writable", IIO_VAL_FRACTIONAL, "1", -EINVAL, 0, 0 },
	{ "log2 not writable", IIO_VAL_FRACTIONAL_LOG2, "1", -EINVAL, 0, 0 },
	{ "multiple not writable", IIO_VAL_INT_MULTIPLE, "1", -EINVAL, 0, 0 },
	{ "format 0 not writable", 0, "1", -EINVAL, 0, 0 },
	{ "negative format not writable", -EINVAL, "1", -EINVAL, 0, 0 },
};

static void test_parse_value(void)
{
	size_t i;
	int ret, val, val2;

	for (i = 0; i < ARRAY_SIZE(parse_rows); i++) {
		const struct parse_row *r = &parse_rows[i];

		val = SENTINEL;
		val2 = SENTINEL;
		ret = iio_parse_value(r->text, r->fmt, &val, &val2);
		TEST_ROW_ASSERT(ret == r->ret, r->name);
		if (r->ret == 0) {
			TEST_ROW_ASSERT(val == r->val && val2 == r->val2, r->name);
		} else {
			/* malformed input leaves the outputs untouched */
			TEST_ROW_ASSERT(val == SENTINEL && val2 == SENTINEL, r->name);
		}
	}
}
TEST_CASE(test_parse_value, "parse_value rows");

struct fixpoint_row {
	const char *name;
	const char *text;
	int fract_mult;
	int ret;
	int integer;
	int fract;
};

/* The exported parser: fract_mult sets the precision; 0 means an integer. */
static void test_str_to_fixpoint(void)
{
	static const struct fixpoint_row rows[] = {
		{ "micro", "1.5", 100000, 0, 1, 500000 },
		{ "nano", "-0.25", 100000000, 0, 0, -250000000 },
		{ "milli", "2.125", 100, 0, 2, 125 },
		{ "mult 0 acts as kstrtoint", "0x10", 0, 0, 16, 0 },
		{ "mult 0 refuses a fraction", "1.5", 0, -EINVAL, 0, 0 },
		{ "no dB in the exported parser", "1 dB", 100000, -EINVAL, 0, 0 },
		{ "malformed", "abc", 100000, -EINVAL, 0, 0 },
	};
	int integer, fract, ret;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		integer = SENTINEL;
		fract = SENTINEL;
		ret = iio_str_to_fixpoint(rows[i].text, rows[i].fract_mult, &integer, &fract);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		if (rows[i].ret == 0)
			TEST_ROW_ASSERT(integer == rows[i].integer && fract == rows[i].fract,
					rows[i].name);
		else
			TEST_ROW_ASSERT(integer == SENTINEL && fract == SENTINEL, rows[i].name);
	}
}
TEST_CASE(test_str_to_fixpoint, "str_to_fixpoint rows");

/* What is formatted parses back to the same pair (for the writable formats). */
static void test_roundtrip(void)
{
	static const struct {
		const char *name;
		int type;
		int vals[2];
	} rows[] = {
		{ "micro positive", IIO_VAL_INT_PLUS_MICRO, { 12, 345678 } },
		{ "micro > -1", IIO_VAL_INT_PLUS_MICRO, { 0, -1 } },
		{ "micro <= -1", IIO_VAL_INT_PLUS_MICRO, { -7, 250000 } },
		{ "micro dB", IIO_VAL_INT_PLUS_MICRO_DB, { -3, 500000 } },
		{ "nano", IIO_VAL_INT_PLUS_NANO, { 1, 999999999 } },
		{ "int", IIO_VAL_INT, { INT_MIN, 0 } },
		{ "int64", IIO_VAL_INT_64, { S64(LLONG_MIN + 1) } },
		{ "dec64 micro", IIO_VAL_DECIMAL64_MICRO, { S64(-5000000000000042LL) } },
		{ "dec64 pico", IIO_VAL_DECIMAL64_PICO, { S64(LLONG_MAX) } },
	};
	char buf[64];
	int val, val2;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		TEST_ROW_ASSERT(iio_format_value(buf, sizeof(buf), rows[i].type, 2,
						 rows[i].vals) > 0, rows[i].name);
		TEST_ROW_ASSERT(iio_parse_value(buf, rows[i].type, &val, &val2) == 0, rows[i].name);
		TEST_ROW_ASSERT(val == rows[i].vals[0], rows[i].name);
		if (rows[i].type != IIO_VAL_INT)
			TEST_ROW_ASSERT(val2 == rows[i].vals[1], rows[i].name);
	}
}
TEST_CASE(test_roundtrip, "format then parse");

struct multiply_row {
	const char *name;
	int64_t mult;
	int type;
	int val;
	int val2;
	int ret;
	int result;
};

static const struct multiply_row multiply_rows[] = {
	{ "int", 10, IIO_VAL_INT, 3, 0, IIO_VAL_INT, 30 },
	{ "int negative", -2, IIO_VAL_INT, 5, 0, IIO_VAL_INT, -10 },
	{ "int truncated to 32 bits", 2, IIO_VAL_INT, INT_MAX, 0, IIO_VAL_INT, -2 },
	{ "micro 1.5", 1000, IIO_VAL_INT_PLUS_MICRO, 1, 500000, IIO_VAL_INT, 1500 },
	{ "micro -1.5 (negative-scale fix)", 10, IIO_VAL_INT_PLUS_MICRO, -1, 500000,
	  IIO_VAL_INT, -15 },
	{ "micro -0.5", 10, IIO_VAL_INT_PLUS_MICRO, 0, -500000, IIO_VAL_INT, -5 },
	{ "micro both negative", 10, IIO_VAL_INT_PLUS_MICRO, -1, -500000, IIO_VAL_INT, -15 },
	{ "micro fraction truncates", 80, IIO_VAL_INT_PLUS_MICRO, 0, 1333, IIO_VAL_INT, 0 },
	{ "micro dummy x1000", 80000, IIO_VAL_INT_PLUS_MICRO, 0, 1333, IIO_VAL_INT, 106 },
	{ "micro negative multiplier", -80000, IIO_VAL_INT_PLUS_MICRO, 0, 1333, IIO_VAL_INT,
	  -106 },
	{ "nano", 1000000000, IIO_VAL_INT_PLUS_NANO, 0, 1344, IIO_VAL_INT, 1344 },
	{ "nano -2.5", 3, IIO_VAL_INT_PLUS_NANO, -2, 500000000, IIO_VAL_INT, -7 },
	{ "nano fraction truncates", 1000, IIO_VAL_INT_PLUS_NANO, 0, 1344, IIO_VAL_INT, 0 },
	{ "fractional", 10, IIO_VAL_FRACTIONAL, 1, 3, IIO_VAL_INT, 3 },
	{ "fractional truncates toward zero", -10, IIO_VAL_FRACTIONAL, 1, 3, IIO_VAL_INT, -3 },
	{ "fractional by zero", 1, IIO_VAL_FRACTIONAL, 1, 0, -EINVAL, 0 },
	{ "log2 max1363 2000", 2000, IIO_VAL_FRACTIONAL_LOG2, 2048, 12, IIO_VAL_INT, 1000 },
	{ "log2 positive floors", 3, IIO_VAL_FRACTIONAL_LOG2, 1, 1, IIO_VAL_INT, 1 },
	{ "log2 negative floors (arithmetic shift)", -3, IIO_VAL_FRACTIONAL_LOG2, 1, 1,
	  IIO_VAL_INT, -2 },
	{ "log2 -1 stays -1", -1, IIO_VAL_FRACTIONAL_LOG2, 1, 1, IIO_VAL_INT, -1 },
	{ "char cannot scale", 1, IIO_VAL_CHAR, 1, 0, -EINVAL, 0 },
	{ "int64 cannot scale", 1, IIO_VAL_INT_64, 1, 0, -EINVAL, 0 },
	{ "dB cannot scale", 1, IIO_VAL_INT_PLUS_MICRO_DB, 1, 0, -EINVAL, 0 },
	{ "type 0 cannot scale", 1, 0, 1, 0, -EINVAL, 0 },
};

static void test_multiply_value(void)
{
	size_t i;
	int ret, result;

	for (i = 0; i < ARRAY_SIZE(multiply_rows); i++) {
		const struct multiply_row *r = &multiply_rows[i];

		result = SENTINEL;
		ret = iio_multiply_value(&result, r->mult, r->type, r->val, r->val2);
		TEST_ROW_ASSERT(ret == r->ret, r->name);
		TEST_ROW_ASSERT(result == (r->ret < 0 ? SENTINEL : r->result), r->name);
	}
}
TEST_CASE(test_multiply_value, "multiply_value rows");

struct offset_row {
	const char *name;
	int type;
	int val;
	int val2;
	int ret;
	int offset;
};

static void test_offset_to_int(void)
{
	static const struct offset_row rows[] = {
		{ "int", IIO_VAL_INT, 7, 0, 0, 7 },
		{ "micro drops the fraction", IIO_VAL_INT_PLUS_MICRO, 3, 999999, 0, 3 },
		{ "micro negative", IIO_VAL_INT_PLUS_MICRO, -3, 500000, 0, -3 },
		{ "micro -0.5 is 0", IIO_VAL_INT_PLUS_MICRO, 0, -500000, 0, 0 },
		{ "nano drops the fraction", IIO_VAL_INT_PLUS_NANO, 2, 1, 0, 2 },
		{ "fractional truncates", IIO_VAL_FRACTIONAL, 7, 2, 0, 3 },
		{ "fractional negative truncates", IIO_VAL_FRACTIONAL, -7, 2, 0, -3 },
		{ "fractional by zero", IIO_VAL_FRACTIONAL, 7, 0, -EINVAL, 0 },
		{ "log2 shifts", IIO_VAL_FRACTIONAL_LOG2, 7, 1, 0, 3 },
		{ "log2 negative floors", IIO_VAL_FRACTIONAL_LOG2, -7, 1, 0, -4 },
		{ "char refused", IIO_VAL_CHAR, 1, 0, -EINVAL, 0 },
		{ "int64 refused", IIO_VAL_INT_64, 1, 0, -EINVAL, 0 },
	};
	int offset, ret;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		offset = SENTINEL;
		ret = iio_offset_to_int(rows[i].type, rows[i].val, rows[i].val2, &offset);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		TEST_ROW_ASSERT(offset == (rows[i].ret < 0 ? SENTINEL : rows[i].offset),
				rows[i].name);
	}
}
TEST_CASE(test_offset_to_int, "offset_to_int rows");

struct processed_row {
	const char *name;
	int raw;
	int has_offset, otype, oval, oval2;
	int has_scale, stype, sval, sval2;
	unsigned int mult;
	int ret;
	int processed;
};

static const struct processed_row processed_rows[] = {
	{ "max1363 2000 -> 1000 mV", 2000, 0, 0, 0, 0,
	  1, IIO_VAL_FRACTIONAL_LOG2, 2048, 12, 1, 0, 1000 },
	{ "dummy voltage0 at scale 1 -> 0", 73, 1, IIO_VAL_INT, 7, 0,
	  1, IIO_VAL_INT_PLUS_MICRO, 0, 1333, 1, 0, 0 },
	{ "dummy voltage0 at scale 1000 -> 106", 73, 1, IIO_VAL_INT, 7, 0,
	  1, IIO_VAL_INT_PLUS_MICRO, 0, 1333, 1000, 0, 106 },
	{ "negative scale -1.5, raw 2, x10 -> -30", 2, 0, 0, 0, 0,
	  1, IIO_VAL_INT_PLUS_MICRO, -1, 500000, 10, 0, -30 },
	{ "no scale: (raw + offset) x mult", 5, 1, IIO_VAL_INT, 2, 0,
	  0, 0, 0, 0, 1000, 0, 7000 },
	{ "no scale, no offset", -5, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, -15 },
	{ "fractional offset", 10, 1, IIO_VAL_FRACTIONAL, 7, 2,
	  1, IIO_VAL_INT, 2, 0, 1, 0, 26 },
	{ "log2 offset floors", 10, 1, IIO_VAL_FRACTIONAL_LOG2, -7, 1,
	  1, IIO_VAL_INT, 1, 0, 1, 0, 6 },
	{ "micro offset truncated", 10, 1, IIO_VAL_INT_PLUS_MICRO, 3, 999999,
	  1, IIO_VAL_INT, 1, 0, 1, 0, 13 },
	{ "fractional scale", 9, 0, 0, 0, 0, 1, IIO_VAL_FRACTIONAL, 1, 2, 1, 0, 4 },
	{ "nano scale", 1000, 0, 0, 0, 0, 1, IIO_VAL_INT_PLUS_NANO, 0, 500000000, 1, 0, 500 },
	{ "unsupported offset type", 1, 1, IIO_VAL_CHAR, 1, 0,
	  1, IIO_VAL_INT, 1, 0, 1, -EINVAL, 0 },
	{ "unsupported scale type", 1, 0, 0, 0, 0, 1, IIO_VAL_INT_64, 1, 0, 1, -EINVAL, 0 },
	{ "offset ignored when absent", 1, 0, IIO_VAL_CHAR, 1, 0,
	  1, IIO_VAL_INT, 3, 0, 1, 0, 3 },
};

static void test_raw_to_processed(void)
{
	size_t i;
	int ret, out;

	for (i = 0; i < ARRAY_SIZE(processed_rows); i++) {
		const struct processed_row *r = &processed_rows[i];

		out = SENTINEL;
		ret = iio_raw_to_processed(r->raw, r->has_offset, r->otype, r->oval, r->oval2,
					   r->has_scale, r->stype, r->sval, r->sval2, r->mult,
					   &out);
		TEST_ROW_ASSERT(ret == r->ret, r->name);
		TEST_ROW_ASSERT(out == (r->ret < 0 ? SENTINEL : r->processed), r->name);
	}
}
TEST_CASE(test_raw_to_processed, "raw_to_processed rows");

struct type_name_row {
	int type;
	const char *name;
};

static void test_type_names(void)
{
	static const struct type_name_row rows[] = {
		{ IIO_VAL_INT, "INT" },
		{ IIO_VAL_INT_PLUS_MICRO, "INT_PLUS_MICRO" },
		{ IIO_VAL_INT_PLUS_NANO, "INT_PLUS_NANO" },
		{ IIO_VAL_INT_PLUS_MICRO_DB, "INT_PLUS_MICRO_DB" },
		{ IIO_VAL_INT_MULTIPLE, "INT_MULTIPLE" },
		{ IIO_VAL_INT_64, "INT_64" },
		{ IIO_VAL_FRACTIONAL, "FRACTIONAL" },
		{ IIO_VAL_FRACTIONAL_LOG2, "FRACTIONAL_LOG2" },
		{ IIO_VAL_CHAR, "CHAR" },
		{ IIO_VAL_DECIMAL64_MILLI, "DECIMAL64_MILLI" },
		{ IIO_VAL_DECIMAL64_MICRO, "DECIMAL64_MICRO" },
		{ IIO_VAL_DECIMAL64_NANO, "DECIMAL64_NANO" },
		{ IIO_VAL_DECIMAL64_PICO, "DECIMAL64_PICO" },
	};
	static const int unknown[] = { -1, 0, 7, 8, 9, 13, IIO_VAL_DECIMAL64_BASE, 99 };
	const char *name;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		name = iio_val_type_name(rows[i].type);
		TEST_ROW_ASSERT(name && strcmp(name, rows[i].name) == 0, rows[i].name);
		TEST_ROW_ASSERT(iio_val_type_from_name(rows[i].name) == rows[i].type,
				rows[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(unknown); i++)
		TEST_ROW_ASSERT(iio_val_type_name(unknown[i]) == NULL, "unknown code has no name");
	CU_ASSERT_EQUAL(iio_val_type_from_name("FLOAT"), -EINVAL);
	CU_ASSERT_EQUAL(iio_val_type_from_name("int"), -EINVAL);
	CU_ASSERT_EQUAL(iio_val_type_from_name(""), -EINVAL);
	CU_ASSERT_EQUAL(iio_val_type_from_name(NULL), -EINVAL);
}
TEST_CASE(test_type_names, "value type names");

TEST_MAIN("iio_value", NULL, NULL)
