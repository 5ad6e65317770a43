/*
 * proto_errno.h - the errno values that travel on the wire, by name.
 *
 * One X-macro list gives each errno the server may send its wire name
 * ("ENOENT") and a default message; the encoder, the client's decoder,
 * the protocol document and the tests all read this one list, so a name
 * cannot be sent that a client cannot map back. Place in the flow: used
 * on both sides of the wire (server -> *wire* -> client). Pure tables: no
 * strerror() (its text is the C library's and varies), no globals.
 */
#ifndef IIOWIRE_PROTO_ERRNO_H
#define IIOWIRE_PROTO_ERRNO_H

#include <errno.h>

/*
 * XX(name, default message). Linux numbering; EOPNOTSUPP and ENOTSUP are
 * one value there, sent as EOPNOTSUPP (the kernel's name) and accepted
 * under both names. Append only: a client maps an unknown name to EPROTO.
 */
#define PROTO_ERRNO_MAP(XX)							\
	XX(EPERM, "operation not permitted")					\
	XX(ENOENT, "no such attribute or entry")				\
	XX(EIO, "input/output error")						\
	XX(ENXIO, "no such device or address")					\
	XX(E2BIG, "request line too long")					\
	XX(EAGAIN, "try again")							\
	XX(ENOMEM, "out of memory")						\
	XX(EACCES, "permission denied")						\
	XX(EBUSY, "device or resource busy")					\
	XX(ENODEV, "no such device")						\
	XX(EINVAL, "invalid argument")						\
	XX(EMFILE, "too many clients")						\
	XX(EFBIG, "value too large")						\
	XX(ERANGE, "value out of range")					\
	XX(ENAMETOOLONG, "name too long")					\
	XX(ENOSYS, "unknown request")						\
	XX(ENODATA, "no data available")					\
	XX(ENOTUNIQ, "name matches several devices")				\
	XX(EPROTO, "protocol error")						\
	XX(EOVERFLOW, "value does not fit")					\
	XX(ENOBUFS, "output queue full")					\
	XX(EOPNOTSUPP, "operation not supported")				\
	XX(ETIMEDOUT, "device timed out")					\
	XX(ECANCELED, "operation canceled")					\
	XX(EREMOTEIO, "remote I/O error")					\
	XX(ESHUTDOWN, "server shutting down")					\
	XX(EROFS, "read-only file system")					\
	XX(ENOSPC, "no space left on device")

/**
 * proto_errno_name() - the wire name of an errno ("ENOENT").
 * @err: -errno (a positive errno is accepted too).
 * Return: a static string, or NULL if the list does not have it.
 */
const char *proto_errno_name(int err);

/**
 * proto_errno_message() - the default message of an errno.
 * Return: a static string, or NULL if the list does not have it.
 */
const char *proto_errno_message(int err);

/**
 * proto_errno_from_name() - the inverse of proto_errno_name(); exact
 * (upper-case) match, "ENOTSUP" accepted for EOPNOTSUPP.
 * Return: the negative errno, or 0 if @name is not in the list.
 */
int proto_errno_from_name(const char *name);

/** proto_errno_count()/proto_errno_at() - walk the list (-errno), for tests and docs. */
int proto_errno_count(void);
int proto_errno_at(int i);

#endif /* IIOWIRE_PROTO_ERRNO_H */
