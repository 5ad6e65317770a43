/*
 * web_guard.c - who may use the HTTP face: the Host header check, the guard
 * against DNS rebinding, and the per-address count of connections in HTTP,
 * the guard against slow headers from one address (see web_guard.h).
 *
 * Only names are compared as text (case-insensitively, a trailing dot
 * ignored, as DNS does); addresses are compared as addresses, so "127.1" or
 * "[::0001]" spellings cannot slip past a text comparison, and a name that
 * looks like neither is never resolved here (resolving the attacker's name
 * is exactly what rebinding abuses). Loop thread only; the only state is
 * the caller's struct srv_web_peers.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "srv.h"
#include "web_guard.h"

/* One address's count (struct srv_web_peers). */
struct srv_web_peer_count {
	struct srv_web_addr addr;
	unsigned int n;
};

/* @s as an address (IPv4 dotted quad, or IPv6 without brackets). */
static struct srv_web_addr srv_web_addr_parse(const char *s)
{
	struct srv_web_addr r = { 0 };

	if (inet_pton(AF_INET, s, r.a) == 1)
		r.family = AF_INET;
	else if (inet_pton(AF_INET6, s, r.a) == 1)
		r.family = AF_INET6;
	return r;
}

struct srv_web_addr srv_web_addr_of(const struct sockaddr *sa)
{
	struct srv_web_addr r = { 0 };

	if (sa && sa->sa_family == AF_INET) {
		r.family = AF_INET;
		memcpy(r.a, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6) {
		r.family = AF_INET6;
		memcpy(r.a, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
	}
	return r;
}

static bool srv_web_addr_eq(const struct srv_web_addr *x, const struct srv_web_addr *y)
{
	return x->family && x->family == y->family &&
	       !memcmp(x->a, y->a, x->family == AF_INET ? 4 : 16);
}

/*
 * The host part of a Host header value: "[v6]:port" -> "v6", "name:port" ->
 * "name", a trailing dot dropped. Return: 0, or -EINVAL (too long, an
 * unclosed bracket, a port that is not digits, an IPv6 address without brackets).
 */
static int srv_web_host_part(const char *host, char *out, size_t len)
{
	const char *end, *port;
	size_t n;

	if (host[0] == '[') {
		end = strchr(host, ']');
		if (!end)
			return -EINVAL;
		port = end + 1;
		host++;
	} else {
		port = strchr(host, ':');
		if (!port)
			port = host + strlen(host);
		else if (strchr(port + 1, ':'))
			return -EINVAL;
		end = port;
	}
	if (*port && (*port != ':' || strspn(port + 1, "0123456789") != strlen(port + 1)))
		return -EINVAL;
	n = (size_t)(end - host);
	if (n && host[n - 1] == '.')
		n--;
	if (!n || n >= len)
		return -EINVAL;
	memcpy(out, host, n);
	out[n] = '\0';
	return 0;
}

/* "*" among --http-host: the operator turned the check off (a proxy checks Host). */
static bool srv_web_host_any(const struct srv_config *cfg)
{
	int i;

	for (i = 0; i < cfg->nhttp_host; i++)
		if (!strcmp(cfg->http_host[i], "*"))
			return true;
	return false;
}

/* @s ("1.2.3.4", "::1" or "[::1]") as an address; family 0 when it is none. */
static struct srv_web_addr srv_web_addr_any_form(const char *s)
{
	char inner[SRV_WEB_HOST_NAME_MAX];
	struct srv_web_addr r = srv_web_addr_parse(s);

	if (!r.family && s[0] == '[' && !srv_web_host_part(s, inner, sizeof(inner)))
		r = srv_web_addr_parse(inner);
	return r;
}

int srv_web_host_check(const char *arg, char *err, size_t errlen)
{
	static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
					 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_";
	size_t n = strlen(arg);

	if (!strcmp(arg, "*") || srv_web_addr_any_form(arg).family)
		return 0;
	if (!n || n >= SRV_WEB_HOST_NAME_MAX || strspn(arg, name_chars) != n ||
	    arg[0] == '.' || arg[n - 1] == '.') {
		snprintf(err, errlen, "--http-host %s: not a host name, an address or '*' "
			 "(no port, no scheme, no trailing dot)", arg);
		return -EINVAL;
	}
	return 0;
}

/* Is @name, a host name, localhost, one of this host's names or an --http-host? */
static bool srv_web_host_name_ok(const struct srv_config *cfg, const char *self,
				 const char *name)
{
	size_t n = strlen(self);
	int i;

	if (!strcasecmp(name, "localhost"))
		return true;
	if (*self && (!strcasecmp(name, self) ||
		      (!strncasecmp(name, self, n) && !strcasecmp(name + n, ".local"))))
		return true;
	for (i = 0; i < cfg->nhttp_host; i++)
		if (!strcasecmp(cfg->http_host[i], name))
			return true;
	return false;
}

/* Is @want one of the --http-host addresses, or (@ifaces) an interface's? */
static bool srv_web_host_addr_ok(const struct srv_config *cfg, const struct srv_web_addr *want,
				 bool ifaces)
{
	struct ifaddrs *ifa, *i;
	struct srv_web_addr got;
	bool ok = false;
	int k;

	for (k = 0; k < cfg->nhttp_host; k++) {
		got = srv_web_addr_any_form(cfg->http_host[k]);
		if (srv_web_addr_eq(want, &got))
			return true;
	}
	if (!ifaces || getifaddrs(&ifa) < 0)
		return false;
	for (i = ifa; i && !ok; i = i->ifa_next) {
		got = srv_web_addr_of(i->ifa_addr);
		ok = srv_web_addr_eq(want, &got);
	}
	freeifaddrs(ifa);
	return ok;
}

bool srv_web_host_allowed(const struct srv_config *cfg, const char *self, const char *host,
			  int fd, bool wildcard, char *name, size_t namelen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct srv_web_addr want, local;

	if (srv_web_host_part(host, name, namelen)) {
		snprintf(name, namelen, "%s", host);
		return srv_web_host_any(cfg);
	}
	if (srv_web_host_any(cfg))
		return true;
	want = srv_web_addr_parse(name);
	if (!want.family)
		return srv_web_host_name_ok(cfg, self, name);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
		local = srv_web_addr_of((struct sockaddr *)&ss);
		if (srv_web_addr_eq(&want, &local))
			return true;
	}
	return srv_web_host_addr_ok(cfg, &want, wildcard);
}

bool srv_web_host_wildcard(int fd)
{
	static const struct in6_addr any6 = IN6ADDR_ANY_INIT;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return false;
	if (ss.ss_family == AF_INET)
		return ((struct sockaddr_in *)&ss)->sin_addr.s_addr == htonl(INADDR_ANY);
	return ss.ss_family == AF_INET6 &&
	       !memcmp(&((struct sockaddr_in6 *)&ss)->sin6_addr, &any6, sizeof(any6));
}

/* ---- connections in HTTP, per address ---- */

static struct srv_web_peer_count *srv_web_peers_find(const struct srv_web_peers *t,
						     const struct srv_web_addr *a)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (srv_web_addr_eq(&t->v[i].addr, a))
			return &t->v[i];
	return NULL;
}

int srv_web_peers_take(struct srv_web_peers *t, const struct srv_web_addr *a, unsigned int max)
{
	struct srv_web_peer_count *c = srv_web_peers_find(t, a), *v;

	if (c) {
		if (c->n >= max)
			return -EBUSY;
		c->n++;
		return 0;
	}
	if (t->n == t->cap) {
		v = realloc(t->v, (t->cap ? 2 * t->cap : 16) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = t->cap ? 2 * t->cap : 16;
	}
	t->v[t->n++] = (struct srv_web_peer_count){ .addr = *a, .n = 1 };
	return 0;
}

void srv_web_peers_put(struct srv_web_peers *t, const struct srv_web_addr *a)
{
	struct srv_web_peer_count *c = srv_web_peers_find(t, a);

	if (!c || --c->n)
		return;
	/* an address without connections is forgotten: the table is as long as it is busy */
	*c = t->v[--t->n];
	if (!t->n)
		srv_web_peers_free(t);
}

void srv_web_peers_free(struct srv_web_peers *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}
