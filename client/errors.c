/*
 * errors.c - libiiowire's errors: wire errno names to -errno and back,
 * descriptions, and the per-connection message behind iiowire_errmsg().
 *
 * Place in the flow: wire ("ERR ENODEV ...") -> request.c -> *errors.c* ->
 * the program. Names the server sends come from protocol/'s one errno table
 * (proto_errno.h); names of errors that only ever arise on this side
 * (ECONNREFUSED, ECONNRESET, EHOSTUNREACH, ...) come from the C library.
 * There is no library-wide "last error": messages live in the connection,
 * but for the one failure that leaves no connection: iiowire_connect()'s,
 * kept per thread.
 * This file must not log or print.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iiowire_priv.h"
#include "proto_errno.h"

/* Largest errno value searched when mapping a local name back (Linux has < 140). */
#define IIOWIRE_ERRNO_SEARCH_MAX	4096

/** iiowire_err_set() - replace @w's message with formatted text. */
void iiowire_err_set(struct iiowire *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
}

/** iiowire_err_clear() - forget the message (after a success). */
void iiowire_err_clear(struct iiowire *w)
{
	w->errmsg[0] = '\0';
}

/**
 * iiowire_err_local() - describe a local failure of @what with @err unless a
 * message was already set during this call.
 * Return: @err, so callers can "return iiowire_err_local(...)".
 */
int iiowire_err_local(struct iiowire *w, int err, const char *what)
{
	if (err < 0 && !w->errmsg[0])
		iiowire_err_set(w, "%s: %s", what, iiowire_strerror(err));
	return err;
}

/**
 * iiowire_errmsg() - the message of the last failed call on @w.
 * Return: borrowed: valid until the next call on @w; "" for NULL @w.
 */
IIOWIRE_EXPORT const char *iiowire_errmsg(const struct iiowire *w)
{
	return w ? w->errmsg : "";
}

/* The message of this thread's last failed iiowire_connect(). */
static __thread char iiowire_connect_msg[IIOWIRE_ERRMSG_MAX_BYTES];

/** iiowire_err_keep_connect() - note @msg as this thread's connect failure ("" clears). */
void iiowire_err_keep_connect(const char *msg)
{
	snprintf(iiowire_connect_msg, sizeof(iiowire_connect_msg), "%s", msg);
}

/** iiowire_connect_errmsg() - see iiowire.h. Return: borrowed, thread-local. */
IIOWIRE_EXPORT const char *iiowire_connect_errmsg(void)
{
	return iiowire_connect_msg;
}

/**
 * iiowire_errno_name() - "ENODEV" for -ENODEV (or ENODEV): the protocol's
 * name if it has one, else the C library's.
 * Return: static string, or NULL for a value with no name.
 */
IIOWIRE_EXPORT const char *iiowire_errno_name(int err)
{
	const char *name;

	if (err < 0)
		err = -err;
	if (err == 0)
		return NULL;
	name = proto_errno_name(-err);
	if (name)
		return name;
	return strerrorname_np(err);
}

/**
 * iiowire_strerror() - the C library's description of an errno value.
 * Return: static string, never NULL.
 */
IIOWIRE_EXPORT const char *iiowire_strerror(int err)
{
	const char *s;

	if (err < 0)
		err = -err;
	if (err == 0)
		return "Success";
	/* strerrordesc_np is the thread-safe, static form of strerror */
	s = strerrordesc_np(err);
	if (s)
		return s;
	s = proto_errno_message(-err);
	return s ? s : "Unknown error";
}

/**
 * iiowire_errno_from_name() - "ENOENT" -> -ENOENT; the protocol's names
 * first (so "ENOTSUP" works), then every name the C library knows.
 * Return: negative errno, -EPROTO for NULL or an unknown name.
 */
IIOWIRE_EXPORT int iiowire_errno_from_name(const char *name)
{
	const char *s;
	int err, i;

	if (!name || !*name)
		return -EPROTO;
	err = proto_errno_from_name(name);
	if (err < 0)
		return err;
	for (i = 1; i < IIOWIRE_ERRNO_SEARCH_MAX; i++) {
		s = strerrorname_np(i);
		if (s && strcmp(s, name) == 0)
			return -i;
	}
	return -EPROTO;
}
