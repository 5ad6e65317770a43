/*
 * test_proto_errno.c - the errno name table of the wire (protocol/proto_errno.c).
 *
 * Every errno the brief lists must have a name that maps back to it, both
 * signs must work, ENOTSUP must be accepted for EOPNOTSUPP, unknown names
 * and numbers must say so (0 / NULL), and every name and default message
 * must be safe on a text line (PROTOCOL.md P-14, P-21).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "proto_errno.h"
#include "testutil.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct errno_row {
	const char *name;	/* the row's name and the wire name */
	int err;		/* negative */
};

/* What the server must be able to send (the brief's list, PROTOCOL.md ERRORS). */
static const struct errno_row errno_rows[] = {
	{ "EINVAL", -EINVAL },
	{ "ENOENT", -ENOENT },
	{ "ENODEV", -ENODEV },
	{ "ENXIO", -ENXIO },
	{ "EIO", -EIO },
	{ "ETIMEDOUT", -ETIMEDOUT },
	{ "EACCES", -EACCES },
	{ "EBUSY", -EBUSY },
	{ "EMFILE", -EMFILE },
	{ "E2BIG", -E2BIG },
	{ "ENOTUNIQ", -ENOTUNIQ },
	{ "ENOSYS", -ENOSYS },
	{ "ENOMEM", -ENOMEM },
	{ "EAGAIN", -EAGAIN },
	{ "EFBIG", -EFBIG },
	{ "ERANGE", -ERANGE },
	{ "EOPNOTSUPP", -EOPNOTSUPP },
	{ "ECANCELED", -ECANCELED },
	{ "ENOBUFS", -ENOBUFS },
	{ "EPROTO", -EPROTO },
	{ "EREMOTEIO", -EREMOTEIO },
	{ "ESHUTDOWN", -ESHUTDOWN },
	{ "EPERM", -EPERM },
	{ "ENODATA", -ENODATA },
	{ "EOVERFLOW", -EOVERFLOW },
	{ "ENAMETOOLONG", -ENAMETOOLONG },
};

static void test_names_both_ways(void)
{
	const struct errno_row *r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errno_rows); i++) {
		r = &errno_rows[i];
		TEST_ROW_ASSERT(proto_errno_name(r->err) != NULL, r->name);
		if (!proto_errno_name(r->err))
			continue;
		TEST_ROW_ASSERT(strcmp(proto_errno_name(r->err), r->name) == 0, r->name);
		/* a positive errno is accepted too */
		TEST_ROW_ASSERT(proto_errno_name(-r->err) == proto_errno_name(r->err), r->name);
		TEST_ROW_ASSERT(proto_errno_from_name(r->name) == r->err, r->name);
		TEST_ROW_ASSERT(proto_errno_message(r->err) != NULL, r->name);
	}
}
TEST_CASE(test_names_both_ways, "every listed errno has a name both ways");

static void test_table_is_wire_safe(void)
{
	const char *name, *msg, *p;
	int i, j, err;

	CU_ASSERT(proto_errno_count() >= (int)ARRAY_SIZE(errno_rows));
	for (i = 0; i < proto_errno_count(); i++) {
		err = proto_errno_at(i);
		name = proto_errno_name(err);
		msg = proto_errno_message(err);
		CU_ASSERT_FATAL(err < 0 && name && msg);
		/* names: E + upper case and digits, one word (a text reply field) */
		TEST_ROW_ASSERT(name[0] == 'E', name);
		for (p = name; *p; p++)
			TEST_ROW_ASSERT(isupper((unsigned char)*p) || isdigit((unsigned char)*p),
					name);
		/* messages: printable ASCII, never a line break */
		TEST_ROW_ASSERT(msg[0] != '\0', name);
		for (p = msg; *p; p++)
			TEST_ROW_ASSERT(*p >= 0x20 && *p < 0x7f, name);
		TEST_ROW_ASSERT(proto_errno_from_name(name) == err, name);
		for (j = 0; j < i; j++) {
			TEST_ROW_ASSERT(proto_errno_at(j) != err, name);
			TEST_ROW_ASSERT(strcmp(proto_errno_name(proto_errno_at(j)), name) != 0,
					name);
		}
	}
}
TEST_CASE(test_table_is_wire_safe, "names and messages are safe on a text line (P-14, P-21)");

struct unknown_row {
	const char *name;
	const char *wire;	/* a name to look up, or NULL */
	int err;		/* an errno to look up, or 0 */
	int want_from_name;
};

static const struct unknown_row unknown_rows[] = {
	{ "ENOTSUP alias", "ENOTSUP", 0, -EOPNOTSUPP },
	{ "unknown name", "EWHATEVER", 0, 0 },
	{ "lower case is not a wire name", "enoent", 0, 0 },
	{ "empty name", "", 0, 0 },
	{ "NULL name", NULL, 0, 0 },
	{ "errno outside the table", NULL, -EXDEV, 0 },
	{ "zero", NULL, 0, 0 },
	{ "huge errno", NULL, -100000, 0 },
};

static void test_unknown(void)
{
	const struct unknown_row *r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unknown_rows); i++) {
		r = &unknown_rows[i];
		if (r->wire || !r->err)
			TEST_ROW_ASSERT(proto_errno_from_name(r->wire) == r->want_from_name,
					r->name);
		if (!r->wire) {
			TEST_ROW_ASSERT(proto_errno_name(r->err) == NULL, r->name);
			TEST_ROW_ASSERT(proto_errno_message(r->err) == NULL, r->name);
		}
	}
	CU_ASSERT(proto_errno_at(-1) == 0);
	CU_ASSERT(proto_errno_at(proto_errno_count()) == 0);
	/* EOPNOTSUPP goes out under the kernel's name even when asked as ENOTSUP */
	CU_ASSERT_STRING_EQUAL(proto_errno_name(-ENOTSUP), "EOPNOTSUPP");
}
TEST_CASE(test_unknown, "aliases and unknown names/numbers");

TEST_MAIN("proto_errno", NULL, NULL)
