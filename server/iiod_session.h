/*
 * iiod_session.h - iiowired's second front door: libiio's iiod protocol.
 *
 * With --iiod-listen, the daemon also accepts libiio clients (iio_info,
 * iio_attr, the Python bindings, ...) and answers them in iiod 0.24's text
 * protocol from the same registry, the same limits, the same read-only
 * switch and the same bus workers as the native protocol. Listener and
 * sessions live in iiod_session.c, the XML model in iiod_xml.c, the wire
 * codec in protocol/iiod.h. Place in the flow: wire -> *iiod listener ->
 * iiod session* -> core / busq. Off unless asked for; nothing here runs
 * for a daemon started without --iiod-listen.
 */
#ifndef IIOWIRE_SRV_IIOD_SESSION_H
#define IIOWIRE_SRV_IIOD_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct srv;
struct srv_config;
struct srv_iiod;

/* --iiod-listen options accepted. */
#define SRV_IIOD_LISTEN_MAX	8

/**
 * struct srv_iiod_config - the iiod options of the command line (main.c).
 * @listen: "PORT", ":PORT" (both: loopback, 127.0.0.1 and [::1]),
 *	"HOST:PORT" or "[V6ADDR]:PORT"; borrowed from argv.
 * @unauthenticated: --iiod-unauthenticated: the operator accepts that iiod
 *	clients, which cannot authenticate, bypass --auth-token-file.
 */
struct srv_iiod_config {
	const char *listen[SRV_IIOD_LISTEN_MAX];
	int nlisten;
	bool unauthenticated;
};

/**
 * srv_iiod_config_add() - take one --iiod-listen argument.
 * @err: a one-line reason on failure.
 * Return: 0, or -EINVAL (malformed spec, too many).
 */
int srv_iiod_config_add(struct srv_iiod_config *icfg, const char *spec, char *err,
			size_t errlen);

/**
 * srv_iiod_config_check() - the iiod options against the rest: with an
 * authentication token configured, iiod (which has no authentication)
 * must be acknowledged with --iiod-unauthenticated.
 * Return: 0, or -EACCES with @err saying what to do.
 */
int srv_iiod_config_check(const struct srv_iiod_config *icfg, const struct srv_config *cfg,
			  char *err, size_t errlen);

/** srv_iiod_usage() - the iiod part of --help. */
void srv_iiod_usage(FILE *out);

/**
 * srv_iiod_start() - bind the iiod listeners of @icfg on @srv's loop;
 * call after srv_start(). Nothing happens with no --iiod-listen.
 * @out: the iiod side, or NULL when off. Also set on failure: whatever was
 *	opened is closing then, so run the loop before srv_iiod_destroy().
 * It stops by itself on SIGTERM/SIGINT, as the native side does.
 * Return: 0, or -errno (an address in use, ...; logged).
 */
int srv_iiod_start(struct srv *srv, const struct srv_iiod_config *icfg, struct srv_iiod **out);

/**
 * srv_iiod_destroy() - free the iiod side once the loop has stopped (every
 * handle of it is closed by then); NULL-safe.
 */
void srv_iiod_destroy(struct srv_iiod *iiod);

#endif /* IIOWIRE_SRV_IIOD_SESSION_H */
