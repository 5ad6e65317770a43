/*
 * testutil.c - the shared main() helper of every CUnit suite, and the few
 * file helpers several suites need (see testutil.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"

int test_run(const char *suite, CU_InitializeFunc init, CU_CleanupFunc cleanup,
	     CU_TestInfo *tests)
{
	CU_SuiteInfo suites[] = {
		{ (char *)suite, init, cleanup, NULL, NULL, tests },
		CU_SUITE_INFO_NULL,
	};
	unsigned int failures;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		fprintf(stderr, "%s: %s\n", suite, CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	if (CU_get_number_of_suites_failed() > 0)
		failures++;
	CU_cleanup_registry();
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
