/*
 * proto_addr.c - split listen and connect addresses (see proto_addr.h).
 *
 * The forms follow what getaddrinfo() and the kernel's sockaddr_un take:
 * an IPv6 literal is bracketed when a port follows it (its own colons
 * would be ambiguous), a port is decimal. Nothing here resolves a name or
 * decides what an empty host means; the callers do.
 */
#include <errno.h>
#include <string.h>

#include "proto_addr.h"

/* Copy @n bytes of @s as a string into @dst of @size. Return: 0 or -ENAMETOOLONG. */
static int proto_addr_copy(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/* Decimal, 1 to 7 digits, at most 65535. Return: 0 or -EINVAL. */
static int proto_addr_port(struct proto_addr *out, const char *s)
{
	size_t n = strlen(s), i;
	unsigned long v = 0;

	if (n == 0 || n >= sizeof(out->port))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v > 65535)
		return -EINVAL;
	memcpy(out->port, s, n + 1);
	out->port_num = (unsigned int)v;
	return 0;
}

/* "[V6]" with an optional ":PORT". */
static int proto_addr_bracketed(const char *text, unsigned int flags, struct proto_addr *out)
{
	const char *close = strchr(text, ']');
	int ret;

	if (!close)
		return -EINVAL;
	ret = proto_addr_copy(out->host, sizeof(out->host), text + 1, (size_t)(close - text - 1));
	if (ret < 0)
		return ret;
	out->v6 = true;
	if (close[1] == ':')
		return proto_addr_port(out, close + 2);
	if (close[1] == '\0' && (flags & PROTO_ADDR_PORT_OPTIONAL))
		return 0;
	return -EINVAL;
}

int proto_addr_parse(const char *text, unsigned int flags, struct proto_addr *out)
{
	const char *colon;

	memset(out, 0, sizeof(*out));
	if ((flags & PROTO_ADDR_UNIX) && strncmp(text, "unix:", 5) == 0) {
		out->is_unix = true;
		if (!text[5])
			return -EINVAL;
		return proto_addr_copy(out->host, sizeof(out->host), text + 5, strlen(text + 5));
	}
	if (text[0] == '[')
		return proto_addr_bracketed(text, flags, out);
	colon = strrchr(text, ':');
	if (colon && memchr(text, ':', (size_t)(colon - text))) {
		/* more than one ':': a bare IPv6 literal, which cannot carry a port */
		if (!(flags & PROTO_ADDR_PORT_OPTIONAL))
			return -EINVAL;
		out->v6 = true;
		return proto_addr_copy(out->host, sizeof(out->host), text, strlen(text));
	}
	if (colon) {
		if (proto_addr_copy(out->host, sizeof(out->host), text, (size_t)(colon - text)))
			return -ENAMETOOLONG;
		return proto_addr_port(out, colon + 1);
	}
	if (flags & PROTO_ADDR_BARE_PORT)
		return proto_addr_port(out, text);
	if (flags & PROTO_ADDR_PORT_OPTIONAL)
		return proto_addr_copy(out->host, sizeof(out->host), text, strlen(text));
	return -EINVAL;
}
