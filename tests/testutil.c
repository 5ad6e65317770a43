/*
 * testutil.c - the test registry and shared main() of every CUnit suite, and
 * the few file helpers several suites need: source paths, test vector
 * files, rm -r (see testutil.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
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

void test_row_got(const char *file, int line, const char *row, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\nFAIL: %s:%d: %s: ", file, line, row);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

/* Split @line at TABs into @fields. Return: 0, or -EINVAL unless there are exactly @n. */
static int test_vector_split(char *line, char **fields, int n)
{
	int i;

	fields[0] = line;
	for (i = 1; i < n; i++) {
		fields[i] = strchr(fields[i - 1], '\t');
		if (!fields[i])
			return -EINVAL;
		*fields[i]++ = '\0';
	}
	return strchr(fields[n - 1], '\t') ? -EINVAL : 0;
}

int test_vectors(const char *file, const char *section, int nfields,
		 int (*row)(char **fields, const char *where, void *ctx), void *ctx)
{
	char rel[256], where[320], *line = NULL, *fields[16];
	int lineno = 0, rows = 0, ret = 0;
	bool in = section == NULL, found = in;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	if (nfields < 1 || nfields > 16)
		return -EINVAL;
	snprintf(rel, sizeof(rel), "tests/vectors/%s", file);
	f = fopen(test_path(rel), "r");
	if (!f)
		return -ENOENT;
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		if (section && line[0] == '[') {
			in = strlen(line) == strlen(section) + 2 && line[len - 1] == ']' &&
			     strncmp(line + 1, section, strlen(section)) == 0;
			found |= in;
			continue;
		}
		if (!in)
			continue;
		snprintf(where, sizeof(where), "%s:%d", rel, lineno);
		ret = test_vector_split(line, fields, nfields);
		if (!ret)
			ret = row(fields, where, ctx);
		rows++;
	}
	free(line);
	fclose(f);
	if (ret)
		return ret;
	return found ? rows : -ENOENT;
}

/* The value of ${NAME} (@name, @len bytes long): VERSION, else from @vars. NULL if unknown. */
static const char *test_vector_var(const char *name, size_t len, const char *const *vars)
{
	static const char *const builtin[] = { "VERSION", IIOWIRE_VERSION, NULL };
	const char *const *v;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (v = pass ? vars : builtin; v && *v; v += 2)
			if (strlen(*v) == len && strncmp(*v, name, len) == 0)
				return v[1];
	return NULL;
}

int test_vector_field(char *dst, size_t len, const char *src, const char *const *vars)
{
	static const char from[] = "nrt\\", to[] = "\n\r\t\\";
	const char *add, *end, *esc;
	size_t n = 0, alen;

	while (*src) {
		add = src;
		alen = 1;
		if (*src == '\\') {
			esc = src[1] ? strchr(from, src[1]) : NULL;
			if (!esc)
				return -EINVAL;
			add = &to[esc - from];
			src += 2;
		} else if (src[0] == '$' && src[1] == '{') {
			end = strchr(src, '}');
			add = end ? test_vector_var(src + 2, (size_t)(end - src - 2), vars) : NULL;
			if (!add)
				return -EINVAL;
			alen = strlen(add);
			src = end + 1;
		} else {
			src++;
		}
		if (n + alen >= len)
			return -E2BIG;
		memcpy(dst + n, add, alen);
		n += alen;
	}
	dst[n] = '\0';
	return 0;
}

void test_rmtree(const char *path)
{
	char sub[512];
	struct dirent *de;
	struct stat st;
	DIR *d;

	/* a link goes, not what it points at (tests plant links to directories) */
	if (lstat(path, &st) < 0)
		return;
	d = S_ISDIR(st.st_mode) ? opendir(path) : NULL;
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
