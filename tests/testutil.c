/*
 * testutil.c - the test registry and shared main() of every CUnit suite, and
 * the few file helpers several suites need (see testutil.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"

static struct test_case *test_cases;
static unsigned int test_ncases;

void test_case_register(struct test_case *tc)
{
	struct test_case **pos = &test_cases;

	while (*pos && (*pos)->seq < tc->seq)
		pos = &(*pos)->next;
	tc->next = *pos;
	*pos = tc;
	test_ncases++;
}

/* The registry as CUnit's table, in registration order; NULL when out of memory. */
static CU_TestInfo *test_table(void)
{
	CU_TestInfo *tests = calloc(test_ncases + 1, sizeof(*tests));
	struct test_case *tc;
	unsigned int i = 0;

	if (!tests)
		return NULL;
	for (tc = test_cases; tc; tc = tc->next, i++) {
		tests[i].pName = tc->name;
		tests[i].pTestFunc = tc->fn;
	}
	return tests;
}

int test_main(const char *suite, CU_InitializeFunc init, CU_CleanupFunc cleanup)
{
	CU_TestInfo *tests = test_table();
	CU_SuiteInfo suites[] = {
		{ suite, init, cleanup, NULL, NULL, tests },
		CU_SUITE_INFO_NULL,
	};
	unsigned int failures;

	if (!tests)
		return 2;
	if (CU_initialize_registry() != CUE_SUCCESS) {
		free(tests);
		return 2;
	}
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		fprintf(stderr, "%s: %s\n", suite, CU_get_error_msg());
		CU_cleanup_registry();
		free(tests);
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	if (CU_get_number_of_suites_failed() > 0)
		failures++;
	CU_cleanup_registry();
	free(tests);
	return failures ? 1 : 0;
}

const char *test_path(const char *rel)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", IIOWIRE_SOURCE_DIR, rel);
	return buf;
}

void test_rmtree(const char *path)
{
	char sub[512];
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d) {
		unlink(path);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		test_rmtree(sub);
	}
	closedir(d);
	rmdir(path);
}
