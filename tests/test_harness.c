/*
 * test_harness.c - the harness of testutil.h tested on itself: TEST_CASE()
 * registers from a constructor, and test_main() must still run the tests
 * in the order the file registers them (which CUnit's output, and every
 * suite that builds on an earlier test, relies on), the cases macros of a
 * header included.
 */
#include <string.h>
#include "testutil.h"

static char ran[16];

static void ran_add(char c)
{
	size_t n = strlen(ran);

	if (n + 1 < sizeof(ran))
		ran[n] = c;
}

static void test_first(void)
{
	ran_add('a');
	CU_ASSERT_STRING_EQUAL(ran, "a");
}
TEST_CASE(test_first, "first registered, first run");

/* defined before test_first's neighbour, registered after it */
static void test_defined_early(void)
{
	ran_add('c');
	CU_ASSERT_STRING_EQUAL(ran, "abc");
}

static void test_second(void)
{
	ran_add('b');
	CU_ASSERT_STRING_EQUAL(ran, "ab");
}
TEST_CASE(test_second, "second registered, second run");
TEST_CASE(test_defined_early, "registration order, not definition order of the function");

#define HARNESS_CASES(where)							\
	TEST_CASE(test_macro_one, "a cases macro, first" where);			\
	TEST_CASE(test_macro_two, "a cases macro, second" where)

static void test_macro_one(void)
{
	ran_add('d');
	CU_ASSERT_STRING_EQUAL(ran, "abcd");
}

static void test_macro_two(void)
{
	ran_add('e');
	CU_ASSERT_STRING_EQUAL(ran, "abcde");
}

HARNESS_CASES(" (one line)");

static void test_last(void)
{
	CU_ASSERT_STRING_EQUAL(ran, "abcde");
}
TEST_CASE(test_last, "every test ran once, in order");

TEST_MAIN("harness", NULL, NULL)
