/*
 * test_iio_near.c - "did you mean" (drivers/abi/iio_near.c): edit
 * distances, the nearness rule the board loader and the command line share,
 * and the name limit at N and N+1. Pure functions, no I/O.
 */
#include <string.h>

#include "iio_near.h"
#include "testutil.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static void test_edits(void)
{
	static const struct {
		const char *a, *b;
		int edits;
	} rows[] = {
		{ "max1363", "max1363", 0 },
		{ "max136", "max1363", 1 },		/* one dropped */
		{ "max1636", "max1363", 2 },		/* a swap is two */
		{ "", "abc", 3 },
		{ "in_votage0_raw", "in_voltage0_raw", 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		TEST_ROW_ASSERT(iio_name_edits(rows[i].a, rows[i].b) == rows[i].edits, rows[i].a);
}
TEST_CASE(test_edits, "edit distances");

static void test_limit(void)
{
	char n[IIO_NEAR_NAME_MAX_BYTES + 1], m[IIO_NEAR_NAME_MAX_BYTES + 1];

	/* N - 1 bytes is the longest name measured, N is not */
	memset(n, 'a', IIO_NEAR_NAME_MAX_BYTES - 1);
	n[IIO_NEAR_NAME_MAX_BYTES - 1] = '\0';
	memcpy(m, n, sizeof(n));
	m[0] = 'b';
	CU_ASSERT_EQUAL(iio_name_edits(n, m), 1);
	CU_ASSERT_EQUAL(iio_name_nearness(n, m), 2);
	memset(n, 'a', IIO_NEAR_NAME_MAX_BYTES);
	n[IIO_NEAR_NAME_MAX_BYTES] = '\0';
	CU_ASSERT_EQUAL(iio_name_edits(n, m), -1);
	CU_ASSERT_EQUAL(iio_name_nearness(n, m), -1);
	CU_ASSERT_EQUAL(iio_name_nearness(m, n), -1);
}
TEST_CASE(test_limit, "names of IIO_NEAR_NAME_MAX_BYTES - 1 are measured, of N not");

static void test_nearest(void)
{
	static const char *const devices[] = { "iio:device0", "dummy0", NULL, "max1363",
					       "0-0035", "stargate2-adc" };
	static const struct {
		const char *typed;
		const char *want;	/* NULL: no hint */
	} rows[] = {
		{ "max136", "max1363" },
		{ "dumy0", "dummy0" },
		{ "stargate", "stargate2-adc" },	/* a prefix of 3 or more */
		{ "0-0036", "0-0035" },
		{ "max1363", NULL },			/* it exists: nothing to suggest */
		{ "zzzzzz", NULL },			/* nothing near */
		{ "ma", NULL },				/* too short a prefix, too far */
	};
	const char *got;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		got = iio_name_nearest(rows[i].typed, devices, ARRAY_SIZE(devices));
		TEST_ROW_ASSERT(rows[i].want ? got && !strcmp(got, rows[i].want) : !got,
				rows[i].typed);
	}
	/* equally near: the first candidate */
	CU_ASSERT_STRING_EQUAL(iio_name_nearest("ab", (const char *const[]){ "ax", "ay" }, 2),
			       "ax");
}
TEST_CASE(test_nearest, "the nearest candidate, or none");

TEST_MAIN("iio_near", NULL, NULL);
