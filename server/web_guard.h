/*
 * web_guard.h - who may use the HTTP face (--http-listen): the Host header
 * check (--http-host), the guard against DNS rebinding, and the count of
 * connections per address still in HTTP (not yet a WebSocket), the guard
 * against one address holding every header buffer with slow headers.
 *
 * The Host check:
 *
 * A page from rebind.attacker.example, whose name the attacker then points at
 * this host, is same-origin with the daemon as far as the browser knows: its
 * Origin and Host both say rebind.attacker.example, so the Origin check alone
 * lets it in. What such a page cannot choose is to send a Host that is not its
 * own name: so a request is served only if its Host (port ignored) is
 *  - an address the connection may be aimed at: the address it arrived on, or,
 *    on a wildcard listener (0.0.0.0, [::]), any address of the host's interfaces;
 *  - localhost, the host's own name (gethostname()) or NAME.local (avahi's);
 *  - one of --http-host (names or addresses; "*" turns the check off);
 *  - or missing (no browser omits it: the AUTH token guards such a client).
 * As Transmission's rpc-host-whitelist (CVE-2018-5702) and Node's inspector do.
 * Place in the flow: web.c asks, per accepted connection (the count), per HTTP
 * request and WebSocket handshake (Host). Loop thread only.
 */
#ifndef IIOWIRE_SRV_WEB_GUARD_H
#define IIOWIRE_SRV_WEB_GUARD_H

#include <stdbool.h>
#include <stddef.h>

struct srv_config;
struct sockaddr;

/**
 * struct srv_web_addr - an IPv4 or IPv6 address, as bytes.
 * @family: AF_INET, AF_INET6, or 0: not an address.
 */
struct srv_web_addr {
	int family;
	unsigned char a[16];
};

/** srv_web_addr_of() - the address of @sa (family 0 if it is neither IPv4 nor IPv6). */
struct srv_web_addr srv_web_addr_of(const struct sockaddr *sa);

/**
 * struct srv_web_peers - how many connections each address has in HTTP (an
 * array: there are as many entries as addresses with such connections, few).
 */
struct srv_web_peers {
	struct srv_web_peer_count *v;
	size_t n, cap;
};

/**
 * srv_web_peers_take() - count one more connection of @a, unless it has @max.
 * Return: 0, -EBUSY (at @max), or -ENOMEM.
 */
int srv_web_peers_take(struct srv_web_peers *t, const struct srv_web_addr *a, unsigned int max);

/** srv_web_peers_put() - one connection of @a is no longer in HTTP. */
void srv_web_peers_put(struct srv_web_peers *t, const struct srv_web_addr *a);

/** srv_web_peers_free() - forget every count. */
void srv_web_peers_free(struct srv_web_peers *t);

/* longest host name (RFC 1035's 253, with room for an IPv6 literal in brackets) */
#define SRV_WEB_HOST_NAME_MAX	256

/**
 * srv_web_host_check() - is @arg a valid --http-host (a host name, an IPv4
 * address, an IPv6 address with or without brackets, or "*")?
 * Return: 0, or -EINVAL with @err saying why.
 */
int srv_web_host_check(const char *arg, char *err, size_t errlen);

/**
 * srv_web_host_allowed() - may a request whose Host header is @host be served
 * on the connection @fd?
 * @self: this host's name (gethostname()), "" if unknown.
 * @wildcard: the connection came through a listener bound to any address.
 * @name: out: @host without its port, for the refusal's log line.
 */
bool srv_web_host_allowed(const struct srv_config *cfg, const char *self, const char *host,
			  int fd, bool wildcard, char *name, size_t namelen);

/** srv_web_host_wildcard() - is the TCP socket @fd bound to any address? */
bool srv_web_host_wildcard(int fd);

#endif /* IIOWIRE_SRV_WEB_GUARD_H */
