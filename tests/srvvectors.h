/*
 * srvvectors.h - request/reply test vectors for the live-daemon suites: the
 * rows live in tests/vectors/<name>.txt (plain text, one row a line, as the
 * PROTOCOL.md transcripts test_proto.c reads), and one runner sends them on
 * a connection and checks each reply, so a suite's C holds only what its
 * daemon is started with and what the rows cannot say.
 *
 * A row is four fields separated by one TAB:
 *	name	match	request	reply
 * match is "exact" (the whole reply line), "prefix" (the reply starts so),
 * or "list" / "list-prefix" (a text "OK <n>" reply and its n lines, joined
 * with '\n', matched whole or by their start). Request and reply are read
 * with test_vector_field(): escapes, and ${NAME} for VERSION or a variable
 * of the caller's. Header-only, as srvtest.h.
 */
#ifndef IIOWIRE_SRVVECTORS_H
#define IIOWIRE_SRVVECTORS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "srvtest.h"
#include "testutil.h"

#define SRVVEC_REQ_MAX	8192

/* One parsed row; the runner keeps a single static one. */
struct srvvec_row {
	char name[256];
	bool listing;
	bool prefix;
	char req[SRVVEC_REQ_MAX];
	char want[SRVVEC_REQ_MAX];
};

/* Names of the match field, as the rows spell them. */
static const struct {
	const char *name;
	bool listing;
	bool prefix;
} srvvec_matches[] = {
	{ "exact", false, false },
	{ "prefix", false, true },
	{ "list", true, false },
	{ "list-prefix", true, true },
};

/* @f, a row's four fields, into @row. Return: 0 or -EINVAL. */
static inline int srvvec_parse(char **f, struct srvvec_row *row, const char *const *vars)
{
	size_t i;

	if (snprintf(row->name, sizeof(row->name), "%s", f[0]) < 0)
		return -EINVAL;
	for (i = 0; i < sizeof(srvvec_matches) / sizeof(srvvec_matches[0]); i++)
		if (strcmp(f[1], srvvec_matches[i].name) == 0)
			break;
	if (i == sizeof(srvvec_matches) / sizeof(srvvec_matches[0]))
		return -EINVAL;
	row->listing = srvvec_matches[i].listing;
	row->prefix = srvvec_matches[i].prefix;
	if (test_vector_field(row->req, sizeof(row->req), f[2], vars) ||
	    test_vector_field(row->want, sizeof(row->want), f[3], vars) || !row->want[0])
		return -EINVAL;
	return 0;
}

/* Send @row's request on @c and check the reply. Return: false when no reply came. */
static inline bool srvvec_check(struct srvc *c, const struct srvvec_row *row)
{
	static char got[SRVTEST_LINE_MAX];
	ssize_t len;
	bool ok;

	len = srvc_sends(c, row->req);
	if (!len)
		len = srvc_sends(c, "\n");
	if (!len)
		len = srvc_reply(c, row->listing, got, sizeof(got));
	if (len < 0) {
		TEST_ROW_ASSERT(false, row->name);
		fprintf(stderr, "\n%s: no reply (%zd)\n", row->name, len);
		return false;
	}
	if (row->prefix)
		ok = strncmp(got, row->want, strlen(row->want)) == 0;
	else
		ok = strcmp(got, row->want) == 0;
	TEST_ROW_ASSERT(ok, row->name);
	if (!ok)
		fprintf(stderr, "\n%s:\n got: %.400s\nwant: %s\n", row->name, got, row->want);
	return true;
}

struct srvvec_ctx {
	struct srvc *c;
	const char *const *vars;
};

/* test_vectors() callback: one row. Return: 0, or -EPIPE when no reply came. */
static inline int srvvec_row(char **fields, const char *where, void *ctx)
{
	static struct srvvec_row row;
	struct srvvec_ctx *x = ctx;
	char what[400];

	if (srvvec_parse(fields, &row, x->vars)) {
		snprintf(what, sizeof(what), "%s: malformed row", where);
		TEST_ROW_ASSERT(false, what);
		return 0;
	}
	return srvvec_check(x->c, &row) ? 0 : -EPIPE;
}

/**
 * srvvec_run() - send the rows of tests/vectors/@file on @c, in order, and
 * check each reply.
 * @vars: NULL, or "NAME", "value" pairs ending in NULL, for ${NAME} in rows.
 *
 * A missing file, a malformed row or a missing reply fails an assert; the
 * rows stop at a missing reply (the connection is gone). The file must hold
 * at least one row.
 *
 * Return: the number of rows run, or a negative errno.
 */
static inline int srvvec_run(struct srvc *c, const char *file, const char *const *vars)
{
	struct srvvec_ctx x = { c, vars };
	int rows = test_vectors(file, NULL, 4, srvvec_row, &x);

	TEST_ROW_ASSERT(rows > 0, file);
	return rows;
}

#endif
