/*
 * testutil.h - the shared main() of every CUnit suite.
 *
 * Each tests/test_<file>.c declares its tests as a CU_TestInfo table and
 * calls test_run() from main(); the suite runs in CUnit's basic mode, which
 * prints the per-test verdicts and CUnit's run summary, and the process
 * exits non-zero when any assertion failed (that is what ctest sees).
 */
#ifndef IIOWIRE_TESTUTIL_H
#define IIOWIRE_TESTUTIL_H

#include <CUnit/CUnit.h>
#include <CUnit/Basic.h>

/**
 * test_run() - register @tests as suite @suite and run them.
 * @init/@cleanup: suite fixtures, may be NULL.
 * Return: the process exit status: 0 when every assertion passed.
 */
int test_run(const char *suite, CU_InitializeFunc init, CU_CleanupFunc cleanup,
	     CU_TestInfo *tests);

/* A row-table check that names the failing row in CUnit's report. */
#define TEST_ROW_ASSERT(cond, rowname)						\
	CU_assertImplementation((cond), __LINE__, (rowname), __FILE__, "", CU_FALSE)

/* Path of a file in the source tree, e.g. test_path("maps/demo.json"). */
const char *test_path(const char *rel);

/* rm -r of a test's own tree (regular files and directories only); a file is unlinked. */
void test_rmtree(const char *path);

#endif
