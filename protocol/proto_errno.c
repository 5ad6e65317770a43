/*
 * proto_errno.c - errno <-> wire name, from the one list in proto_errno.h.
 *
 * Both directions are linear scans of a const table built from
 * PROTO_ERRNO_MAP: about thirty rows, looked up once per error reply, so
 * a hash would buy nothing. Used by the reply encoder (server) and the
 * reply decoder (client). Must not call strerror() or keep any state.
 */
#include <stddef.h>
#include <string.h>

#include "proto_errno.h"

struct proto_errno_row {
	int err;		/* positive errno */
	const char *name;
	const char *message;
};

#define PROTO_ERRNO_ROW(e, msg)	{ e, #e, msg },
static const struct proto_errno_row proto_errno_rows[] = {
	PROTO_ERRNO_MAP(PROTO_ERRNO_ROW)
};
#undef PROTO_ERRNO_ROW

#define PROTO_ERRNO_ROWS	((int)(sizeof(proto_errno_rows) / sizeof(proto_errno_rows[0])))

static const struct proto_errno_row *proto_errno_row_find(int err)
{
	int i;

	if (err < 0)
		err = -err;
	for (i = 0; i < PROTO_ERRNO_ROWS; i++)
		if (proto_errno_rows[i].err == err)
			return &proto_errno_rows[i];
	return NULL;
}

const char *proto_errno_name(int err)
{
	const struct proto_errno_row *row = proto_errno_row_find(err);

	return row ? row->name : NULL;
}

const char *proto_errno_message(int err)
{
	const struct proto_errno_row *row = proto_errno_row_find(err);

	return row ? row->message : NULL;
}

int proto_errno_from_name(const char *name)
{
	int i;

	if (!name)
		return 0;
	/* the POSIX spelling of the same value (Linux: ENOTSUP == EOPNOTSUPP) */
	if (strcmp(name, "ENOTSUP") == 0)
		return -ENOTSUP;
	for (i = 0; i < PROTO_ERRNO_ROWS; i++)
		if (strcmp(proto_errno_rows[i].name, name) == 0)
			return -proto_errno_rows[i].err;
	return 0;
}

int proto_errno_count(void)
{
	return PROTO_ERRNO_ROWS;
}

int proto_errno_at(int i)
{
	if (i < 0 || i >= PROTO_ERRNO_ROWS)
		return 0;
	return -proto_errno_rows[i].err;
}
