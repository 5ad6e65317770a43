/*
 * testutil.h - the shared harness of every CUnit suite.
 *
 * Each tests/test_<file>.c registers its tests where it defines them, as the
 * kernel's kselftest harness does: TEST_CASE(fn, "name") after each test
 * function, and TEST_MAIN("suite", init, cleanup) in place of main() (or a
 * main() of its own that calls test_main()). The tests run in the order
 * they are registered in the file, in CUnit's basic mode, which prints the
 * per-test verdicts and CUnit's run summary; the process exits non-zero when
 * any assertion failed (that is what ctest sees).
 */
#ifndef IIOWIRE_TESTUTIL_H
#define IIOWIRE_TESTUTIL_H

#include <CUnit/CUnit.h>
#include <CUnit/Basic.h>

/**
 * struct test_case - one registered test: what TEST_CASE() leaves for test_main().
 * @name: the name CUnit prints.
 * @fn: the test.
 * @seq: __COUNTER__ where it was registered: test_main() runs the tests in
 *	 this order, whatever order the constructors ran in.
 * @next: the registry's list, kept sorted by @seq.
 */
struct test_case {
	const char *name;
	CU_TestFunc fn;
	unsigned int seq;
	struct test_case *next;
};

/**
 * test_case_register() - add @tc to the suite test_main() runs.
 * @tc: static storage; the registry keeps the pointer, not a copy.
 */
void test_case_register(struct test_case *tc);

/*
 * TEST_CASE() - register @fn (a static void fn(void) defined above) as the
 * test @name; at file scope, after the function. A constructor does the
 * registering, so no table has to list the tests again.
 */
#define TEST_CASE(fn, name)							\
	static struct test_case test_case_##fn;					\
	__attribute__((constructor)) static void test_case_ctor_##fn(void)		\
	{									\
		test_case_register(&test_case_##fn);				\
	}									\
	static struct test_case test_case_##fn = { (name), (fn), __COUNTER__, NULL }

/**
 * test_main() - run the registered tests as suite @suite.
 * @init/@cleanup: suite fixtures, may be NULL.
 * Return: the process exit status: 0 when every assertion passed, 1 when
 * one failed, 2 when CUnit could not set the suite up.
 */
int test_main(const char *suite, CU_InitializeFunc init, CU_CleanupFunc cleanup);

/* TEST_MAIN() - the main() of a suite that needs nothing before test_main(). */
#define TEST_MAIN(suite, init, cleanup)						\
	int main(void)								\
	{									\
		return test_main((suite), (init), (cleanup));			\
	}

/* A row-table check that names the failing row in CUnit's report. */
#define TEST_ROW_ASSERT(cond, rowname)						\
	CU_assertImplementation((cond), __LINE__, (rowname), __FILE__, "", CU_FALSE)

/**
 * TEST_ROW_ASSERT_GOT() - TEST_ROW_ASSERT(), and when @cond is false, what
 * the row got: "FAIL: FILE:LINE: ROW: " and the printf-formatted rest on stderr
 * (CUnit's own report names only the row and the line).
 */
#define TEST_ROW_ASSERT_GOT(cond, rowname, ...)					\
	do {									\
		int test_row_ok_ = !!(cond);					\
										\
		TEST_ROW_ASSERT(test_row_ok_, rowname);				\
		if (!test_row_ok_)						\
			test_row_got(__FILE__, __LINE__, (rowname), __VA_ARGS__);	\
	} while (0)

/* What TEST_ROW_ASSERT_GOT() prints for a failing row. */
void test_row_got(const char *file, int line, const char *row, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Path of a file in the source tree, e.g. test_path("maps/demo.json"). */
const char *test_path(const char *rel);

/**
 * test_vectors() - the rows of tests/vectors/@file, or of its [@section], one
 * call of @row a row, in order.
 * @section: NULL for a file without sections; else the rows from the line
 *	"[@section]" to the next section line.
 * @nfields: how many TAB-separated fields every row has.
 * @row: gets the fields (in a buffer the next row reuses), "file:line" for
 *	messages, and @ctx; returns 0, or a negative errno to stop.
 *
 * Lines that are empty or start with '#' are comments.
 *
 * Return: the number of rows read, -ENOENT when the file or section is
 * missing, -EINVAL for a row with another number of fields, or @row's error.
 */
int test_vectors(const char *file, const char *section, int nfields,
		 int (*row)(char **fields, const char *where, void *ctx), void *ctx);

/**
 * test_vector_field() - a vector file's field @src into @dst (@len bytes):
 * \n, \r, \t and \\ undone, ${NAME} expanded, VERSION to IIOWIRE_VERSION
 * and others from @vars.
 * @vars: NULL, or "NAME", "value" pairs ending in NULL.
 * Return: 0, -EINVAL for an unknown escape or variable, -E2BIG when it does
 * not fit.
 */
int test_vector_field(char *dst, size_t len, const char *src, const char *const *vars);

/* rm -r of a test's own tree; a file or a symbolic link is unlinked (a link is never followed). */
void test_rmtree(const char *path);

#endif
