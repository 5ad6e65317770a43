/*
 * client.c - libiiowire's connection handle: connect, close, settings,
 * authentication and versions.
 *
 * Place in the flow: the program -> *client.c* -> request.c -> conn.c. This
 * file owns the life of struct iiowire: it allocates it, parses the address
 * (conn.c), opens the first socket, sends the token from $IIOWIRE_TOKEN_FILE
 * when set, and frees everything on close. Requests themselves go through
 * request.c; this file never reads or writes the socket directly.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iiowire_priv.h"
#include "iiowire_req.h"

/**
 * iiowire_connect() - see iiowire.h.
 * Return: owned connection (iiowire_close()), or NULL with errno set.
 */
IIOWIRE_EXPORT struct iiowire *iiowire_connect(const char *address, int timeout_ms)
{
	const char *token_file;
	struct iiowire *w;
	int ret;

	w = calloc(1, sizeof(*w));
	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	iiowire_err_keep_connect("");
	w->fd = -1;
	w->timeout_ms = timeout_ms > 0 ? timeout_ms : IIOWIRE_DEFAULT_TIMEOUT_MS;
	ret = iiowire_conn_parse_address(address, &w->addr);
	if (ret < 0) {
		iiowire_err_set(w, "bad address '%s'", address ? address : "");
		goto err_free_conn;
	}
	ret = iiowire_conn_open(w);
	if (ret < 0)
		goto err_free_conn;
	token_file = getenv(IIOWIRE_TOKEN_FILE_ENV);
	if (token_file && *token_file) {
		ret = iiowire_auth_file(w, token_file);
		if (ret < 0)
			goto err_shut;
	}
	iiowire_err_clear(w);
	return w;

err_shut:
	iiowire_conn_shut(w);
err_free_conn:
	iiowire_err_keep_connect(w->errmsg);
	iiowire_close(w);
	errno = -ret;
	return NULL;
}

/**
 * iiowire_close() - close the socket and free @w with its queued events,
 * watches and token; NULL-safe. The daemon sees the connection end.
 */
IIOWIRE_EXPORT void iiowire_close(struct iiowire *w)
{
	if (!w)
		return;
	iiowire_conn_shut(w);
	iiowire_evq_clear(w);
	iiowire_watch_list_free(w);
	iiowire_evstream_free_all(w);
	if (w->token) {
		/* a secret: do not leave it in freed memory */
		memset(w->token, 0, strlen(w->token));
		free(w->token);
	}
	free(w->in);
	free(w);
}

/** iiowire_set_timeout() - see iiowire.h. Return: 0, or -EINVAL. */
IIOWIRE_EXPORT int iiowire_set_timeout(struct iiowire *w, int timeout_ms)
{
	if (timeout_ms <= 0)
		return -EINVAL;
	w->timeout_ms = timeout_ms;
	return 0;
}

/** iiowire_get_timeout() - Return: the connection's timeout in ms. */
IIOWIRE_EXPORT int iiowire_get_timeout(const struct iiowire *w)
{
	return w->timeout_ms;
}

/** iiowire_address() - Return: borrowed normalised address, valid until iiowire_close(). */
IIOWIRE_EXPORT const char *iiowire_address(const struct iiowire *w)
{
	return w->addr.normal;
}

/** iiowire_fd() - Return: the socket, or -ENOTCONN. */
IIOWIRE_EXPORT int iiowire_fd(const struct iiowire *w)
{
	return w->fd >= 0 ? w->fd : -ENOTCONN;
}

/** iiowire_reconnect_count() - Return: reconnections so far. */
IIOWIRE_EXPORT unsigned int iiowire_reconnect_count(const struct iiowire *w)
{
	return w->reconnects;
}

/** iiowire_reconnect() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_reconnect(struct iiowire *w)
{
	int ret;

	iiowire_err_clear(w);
	ret = iiowire_req_reconnect(w);
	w->reconnects++;
	return ret;
}

/*
 * A token is what the daemon accepts from its token file: one line of
 * printable characters, blanks inside allowed but not at either end (the
 * text spelling drops them), at most IIOWIRE_TOKEN_MAX_BYTES.
 */
static int iiowire_client_check_token(const char *token)
{
	size_t n;

	if (!token || !*token || isspace((unsigned char)token[0]))
		return -EINVAL;
	for (n = 0; token[n]; n++) {
		if (!isprint((unsigned char)token[n]))
			return -EINVAL;
		if (n >= IIOWIRE_TOKEN_MAX_BYTES)
			return -EINVAL;
	}
	if (isspace((unsigned char)token[n - 1]))
		return -EINVAL;
	return 0;
}

/**
 * iiowire_auth() - see iiowire.h. The token is kept only once the daemon
 * accepted it, so a refused one does not replace a good one.
 * Return: 0, -EACCES, -EINVAL, -ENOMEM, or a connection error.
 */
IIOWIRE_EXPORT int iiowire_auth(struct iiowire *w, const char *token)
{
	struct proto_request req = { .op = PROTO_OP_AUTH, .token = token };
	struct proto_reply r;
	char *copy;
	int ret;

	iiowire_err_clear(w);
	ret = iiowire_client_check_token(token);
	if (ret < 0)
		return iiowire_err_local(w, ret, "token");
	copy = strdup(token);
	if (!copy)
		return -ENOMEM;
	ret = iiowire_req_run(w, &req, true, &r);
	proto_reply_fini(&r);
	if (ret < 0) {
		memset(copy, 0, strlen(copy));
		free(copy);
		return ret;
	}
	if (w->token) {
		memset(w->token, 0, strlen(w->token));
		free(w->token);
	}
	w->token = copy;
	return 0;
}

/**
 * iiowire_auth_file() - see iiowire.h: the first line of @path, without
 * its line end and trailing blanks (as the daemon reads its own file), is
 * the token.
 * Return: 0, -errno of the file, -EINVAL, or as iiowire_auth().
 */
IIOWIRE_EXPORT int iiowire_auth_file(struct iiowire *w, const char *path)
{
	char buf[IIOWIRE_TOKEN_MAX_BYTES + 2], *start, *end;
	FILE *f;
	int ret;

	iiowire_err_clear(w);
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		iiowire_err_set(w, "token file %s: %s", path, iiowire_strerror(ret));
		return ret;
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	start = buf;
	end = start + strlen(start);
	while (end > start && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*start) {
		iiowire_err_set(w, "token file %s: no token on its first line", path);
		ret = -EINVAL;
	} else {
		ret = iiowire_auth(w, start);
	}
	memset(buf, 0, sizeof(buf));
	return ret;
}

/** iiowire_server_version() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_server_version(struct iiowire *w, struct iiowire_version *v)
{
	struct proto_request req = { .op = PROTO_OP_VERSION };
	struct proto_reply r;
	int ret;

	ret = iiowire_req_run(w, &req, true, &r);
	if (ret == 0) {
		v->proto_major = r.proto_major;
		v->proto_minor = r.proto_minor;
		snprintf(v->server, sizeof(v->server), "%s", r.release ? r.release : "");
	}
	proto_reply_fini(&r);
	return ret;
}

/** iiowire_lib_version() - Return: static "MAJOR.MINOR.PATCH" of this library. */
IIOWIRE_EXPORT const char *iiowire_lib_version(void)
{
#define IIOWIRE_CLIENT_STR2(x)	#x
#define IIOWIRE_CLIENT_STR(x)	IIOWIRE_CLIENT_STR2(x)
	return IIOWIRE_CLIENT_STR(IIOWIRE_LIB_VERSION_MAJOR) "."
	       IIOWIRE_CLIENT_STR(IIOWIRE_LIB_VERSION_MINOR) "."
	       IIOWIRE_CLIENT_STR(IIOWIRE_LIB_VERSION_PATCH);
}
