/*
 * test_client_scan.c - libiiowire's raw records (client/scan.c): _type texts taken
 * apart, elements extracted from the kernel's worked byte examples
 * (buffers-triggers-events-facts.md §1.5: max1363 with the datasheet's 1s in
 * the top nibble, adis16400 with ND set, iio_dummy's fixed table), and the
 * processed values of iio_convert_raw_to_processed() for the scale formats
 * the drivers use.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "iiowire_priv.h"
#include "testutil.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct type_row {
	const char *name;
	const char *text;
	int ret;
	int be, sign, real, storage, shift, repeat;
};

static const struct type_row type_rows[] = {
	{ "max1363", "be:u12/16>>0", 0, 1, 0, 12, 16, 0, 1 },
	{ "max1363 differential", "be:s12/16>>0", 0, 1, 1, 12, 16, 0, 1 },
	{ "with the newline", "be:u12/16>>0\n", 0, 1, 0, 12, 16, 0, 1 },
	{ "8-bit part", "be:u8/8>>0", 0, 1, 0, 8, 8, 0, 1 },
	{ "ad7995 shift", "be:u10/16>>2", 0, 1, 0, 10, 16, 2, 1 },
	{ "ad7999 shift", "be:u8/16>>4", 0, 1, 0, 8, 16, 4, 1 },
	{ "dummy", "le:s12/16>>0", 0, 0, 1, 12, 16, 0, 1 },
	{ "timestamp", "le:s64/64>>0", 0, 0, 1, 64, 64, 0, 1 },
	{ "repeat", "le:s16/16X2>>0", 0, 0, 1, 16, 16, 0, 2 },
	{ "no shift part", "be:u12/16", -EPROTO },
	{ "bad order", "me:u12/16>>0", -EPROTO },
	{ "bad sign", "be:x12/16>>0", -EPROTO },
	{ "storage 24", "be:u12/24>>0", -EPROTO },
	{ "real + shift over storage", "be:u12/16>>5", -EPROTO },
	{ "zero realbits", "be:u0/16>>0", -EPROTO },
	{ "trailing junk", "be:u12/16>>0x", -EPROTO },
	{ "repeat 0", "le:s16/16X0>>0", -EPROTO },
	{ "empty", "", -EPROTO },
};

static void test_type_parse(void)
{
	struct iiowire_scan_channel ch;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(type_rows); i++) {
		const struct type_row *r = &type_rows[i];

		memset(&ch, 0, sizeof(ch));
		TEST_ROW_ASSERT(iiowire_scan_type_parse(r->text, &ch) == r->ret, r->name);
		if (r->ret)
			continue;
		TEST_ROW_ASSERT(ch.big_endian == r->be && ch.is_signed == r->sign &&
				ch.realbits == r->real && ch.storagebits == r->storage &&
				ch.shift == r->shift && ch.repeat == r->repeat, r->name);
	}
}
TEST_CASE(test_type_parse, "_type texts taken apart, malformed ones refused");

struct extract_row {
	const char *name;
	const char *type;
	int offset;
	int64_t want;
};

/* max1363 AIN0..3 = 2000, 0x123, 4095, 0 with 1s in the unused nibble, then TS (facts §1.5) */
static const unsigned char max1363_rec[16] = {
	0xF7, 0xD0, 0xF1, 0x23, 0xFF, 0xFF, 0xF0, 0x00,
	0x00, 0x00, 0x2A, 0x36, 0xFE, 0x9C, 0x97, 0x17,
};

static const struct extract_row max1363_rows[] = {
	{ "AIN0 masked to 12 bits", "be:u12/16>>0", 0, 2000 },
	{ "AIN1", "be:u12/16>>0", 2, 0x123 },
	{ "AIN2", "be:u12/16>>0", 4, 4095 },
	{ "AIN3", "be:u12/16>>0", 6, 0 },
	{ "timestamp", "le:s64/64>>0", 8, 1700000000000000000LL },
	{ "as signed differential", "be:s12/16>>0", 4, -1 },
};

/* adis16400 gyro x = -5 with ND set (BF FB), iio_dummy's table (07 00 DF FF FE FF 58 01) */
static const unsigned char adis_rec[2] = { 0xBF, 0xFB };
static const unsigned char dummy_rec[8] = { 0x07, 0x00, 0xDF, 0xFF, 0xFE, 0xFF, 0x58, 0x01 };

static const struct extract_row dummy_rows[] = {
	{ "dummy voltage0", "le:u13/16>>0", 0, 7 },
	{ "dummy voltage1-voltage2", "le:s12/16>>0", 2, -33 },
	{ "dummy voltage3-voltage4", "le:s11/16>>0", 4, -2 },
	{ "dummy accel_x", "le:s16/16>>0", 6, 344 },
};

static void extract_rows(const struct extract_row *rows, size_t n, const void *rec)
{
	struct iiowire_scan_channel ch;
	size_t i;

	for (i = 0; i < n; i++) {
		memset(&ch, 0, sizeof(ch));
		TEST_ROW_ASSERT(iiowire_scan_type_parse(rows[i].type, &ch) == 0, rows[i].name);
		ch.offset = rows[i].offset;
		TEST_ROW_ASSERT(iiowire_scan_extract(&ch, rec) == rows[i].want, rows[i].name);
	}
}

static void test_extract(void)
{
	struct iiowire_scan_channel ch = { 0 };
	const unsigned char shifted[2] = { 0x0F, 0xF0 };	/* ad7999: 0xFF << 4 */

	extract_rows(max1363_rows, ARRAY_SIZE(max1363_rows), max1363_rec);
	extract_rows(dummy_rows, ARRAY_SIZE(dummy_rows), dummy_rec);
	CU_ASSERT(iiowire_scan_type_parse("be:s14/16>>0", &ch) == 0);
	CU_ASSERT(iiowire_scan_extract(&ch, adis_rec) == -5);
	CU_ASSERT(iiowire_scan_type_parse("be:u8/16>>4", &ch) == 0);
	CU_ASSERT(iiowire_scan_extract(&ch, shifted) == 255);
}
TEST_CASE(test_extract, "elements of the kernel's worked records, top bits masked");

struct convert_row {
	const char *name;
	int has_offset, otype, oval, oval2;
	int has_scale, stype, sval, sval2;
	int64_t raw;
	unsigned int mult;
	int ret, want;
};

static const struct convert_row convert_rows[] = {
	/* max1363: 2048 mV / 2^12 */
	{ "FRACTIONAL_LOG2", 0, 0, 0, 0, 1, IIO_VAL_FRACTIONAL_LOG2, 2048, 12, 3240, 1, 0, 1620 },
	{ "FRACTIONAL_LOG2 in uV", 0, 0, 0, 0, 1, IIO_VAL_FRACTIONAL_LOG2, 2048, 12, 3241, 1000,
	  0, 1620500 },
	/* dummy voltage0: offset 7, scale 0.001333 */
	{ "dummy, INT_PLUS_MICRO", 1, IIO_VAL_INT, 7, 0, 1, IIO_VAL_INT_PLUS_MICRO, 0, 1333, 7,
	  1, 0, 0 },
	{ "dummy in uV", 1, IIO_VAL_INT, 7, 0, 1, IIO_VAL_INT_PLUS_MICRO, 0, 1333, 7, 1000, 0,
	  18 },
	{ "no scale: raw", 0, 0, 0, 0, 0, 0, 0, 0, 344, 1, 0, 344 },
	{ "FRACTIONAL", 0, 0, 0, 0, 1, IIO_VAL_FRACTIONAL, 1, 3, 3, 1, 0, 1 },
	{ "negative", 0, 0, 0, 0, 1, IIO_VAL_INT, 2, 0, -5, 1, 0, -10 },
	{ "raw past int", 0, 0, 0, 0, 1, IIO_VAL_INT, 1, 0, 1LL << 40, 1, -ERANGE, 0 },
	{ "result past int", 0, 0, 0, 0, 1, IIO_VAL_INT, 1000000, 0, 1000000, 1, -ERANGE, 0 },
};

static void test_convert(void)
{
	struct iiowire_scan_channel ch;
	size_t i;
	int val;

	for (i = 0; i < ARRAY_SIZE(convert_rows); i++) {
		const struct convert_row *r = &convert_rows[i];

		memset(&ch, 0, sizeof(ch));
		ch.has_offset = r->has_offset;
		ch.offset_type = r->otype;
		ch.offset_val = r->oval;
		ch.offset_val2 = r->oval2;
		ch.has_scale = r->has_scale;
		ch.scale_type = r->stype;
		ch.scale_val = r->sval;
		ch.scale_val2 = r->sval2;
		val = 12345;
		TEST_ROW_ASSERT(iiowire_scan_convert(&ch, r->raw, &val, r->mult) == r->ret, r->name);
		if (!r->ret)
			TEST_ROW_ASSERT(val == r->want, r->name);
	}
}
TEST_CASE(test_convert, "processed values as iio_convert_raw_to_processed()");

TEST_MAIN("scan", NULL, NULL)
