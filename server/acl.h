/*
 * acl.h - which attributes a client may write: iiowired's --allow-write.
 *
 * With no --allow-write option every writable attribute may be written (as
 * a root shell may write sysfs); with one or more, a WRITE succeeds only if
 * some DEVICE:ATTR pattern matches both the device (its iio:deviceN id,
 * name, label or hardware id) and the attribute name; others are EACCES.
 * Patterns are shell globs (fnmatch(3)) borrowed from argv. Place in the
 * flow: main.c checks the patterns; dispatch.c and the iiod listener ask
 * before a write; server.c reports patterns that match nothing. It decides,
 * it never answers a client, and keeps no state of its own.
 */
#ifndef IIOWIRE_SRV_ACL_H
#define IIOWIRE_SRV_ACL_H

#include <stdbool.h>
#include <stddef.h>

struct srv;
struct srv_config;
struct iio_dev;

/* (SRV_ALLOW_WRITE_MAX, the number of patterns, is in srv.h) */
/* longest DEVICE part of a pattern (names, labels and ids are shorter) */
#define SRV_ALLOW_WRITE_DEVICE_MAX_BYTES	128

/**
 * srv_acl_check() - is @spec a usable DEVICE:ATTR pattern? The device part
 * is what comes before the last ':' (so "iio:device0:out_*" works).
 * @err: gets a one-line reason on failure.
 * Return: 0, or -EINVAL.
 */
int srv_acl_check(const char *spec, char *err, size_t errlen);

/**
 * srv_acl_may_write() - may a client write @attr of @dev under @cfg?
 * Return: true when no --allow-write was given or a pattern matches.
 */
bool srv_acl_may_write(const struct srv_config *cfg, const struct iio_dev *dev,
		       const char *attr);

/**
 * srv_acl_may() - the whole write policy for @attr of @dev: --allow-write's
 * patterns when any were given, else anything but --read-only.
 */
bool srv_acl_may(const struct srv_config *cfg, const struct iio_dev *dev, const char *attr);

/**
 * srv_acl_may_write_named() - the same for a device that is no iio_dev (a
 * trigger: "trigger0" and "hrt0"; "iio_sysfs_trigger"), named by @names.
 */
bool srv_acl_may_write_named(const struct srv_config *cfg, const char *const *names,
			     int nnames, const char *attr);

/**
 * srv_acl_report() - log the write policy against the current board: one
 * info line, and a warning per pattern that matches no writable attribute
 * (a typo would otherwise silently forbid every write). At start and after
 * each reload. O(patterns x devices x attributes), a few thousand steps.
 */
void srv_acl_report(struct srv *srv);

#endif /* IIOWIRE_SRV_ACL_H */
