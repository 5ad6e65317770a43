/*
 * mdns.h - DNS-SD announcements of iiowired's listeners through
 * avahi-daemon: _iiowire._tcp for the native protocol and, with the iiod
 * listener, _iio._tcp, which libiio's `iio_info -S` and `-a` browse for.
 *
 * The Avahi client runs on the daemon's own libuv loop (mdns.c adapts
 * Avahi's poll API to uv_poll/uv_timer handles), so it never blocks and
 * needs no thread. Without avahi-daemon the module stays silent and waits
 * for it: when the daemon appears (or restarts) the services are published
 * again. Place in the flow: server.c starts it once the listeners are open
 * and stops it at shutdown; nothing else talks to it.
 */
#ifndef IIOWIRE_SRV_MDNS_H
#define IIOWIRE_SRV_MDNS_H

#include <stdint.h>
#include <uv.h>

struct srv_log;
struct srv_mdns;

/* services one daemon announces at most (one per protocol) */
#define SRV_MDNS_SERVICES_MAX	4

/**
 * struct srv_mdns_service - one announcement.
 * @type: DNS-SD service type, "_iiowire._tcp" or "_iio._tcp" (borrowed static text).
 * @port: the TCP port clients connect to.
 */
struct srv_mdns_service {
	const char *type;
	uint16_t port;
};

/**
 * srv_mdns_start() - announce @n services (@n <= SRV_MDNS_SERVICES_MAX)
 * under the name "iiowired on HOSTNAME" (Avahi picks "#2" and so on
 * on a name collision) with a TXT record naming @board.
 * @log: borrowed for the module's life.
 * Return: 0 with *@out owned (also when avahi-daemon is not running: it is
 * waited for), or -errno (-ENOMEM, -EINVAL for @n out of range). Pair:
 * srv_mdns_stop().
 */
int srv_mdns_start(uv_loop_t *loop, const struct srv_log *log, const char *board,
		   const struct srv_mdns_service *services, int n, struct srv_mdns **out);

/**
 * srv_mdns_stop() - withdraw the announcements and close every handle; the
 * memory goes in the handles' close callbacks, so the loop must run once
 * more. NULL-safe.
 */
void srv_mdns_stop(struct srv_mdns *m);

#endif /* IIOWIRE_SRV_MDNS_H */
