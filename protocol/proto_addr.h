/*
 * proto_addr.h - one parser for the addresses iiowire listens on and
 * connects to: "PORT", ":PORT", "HOST:PORT", "[V6]:PORT", "unix:PATH".
 *
 * The daemon (--listen, --iiod-listen) and the client library
 * (iiowire_connect(), $IIOWIRE_ADDRESS) split an address here and then
 * apply their own policy to the parts: which forms they take (flags), what
 * an empty host means (any address, loopback) and which port a missing one
 * is. Place in the flow: command line / API -> *proto_addr* -> listener or
 * connect(). Pure code: no resolving, no sockets, no allocation.
 */
#ifndef IIOWIRE_PROTO_ADDR_H
#define IIOWIRE_PROTO_ADDR_H

#include <stdbool.h>

/* A host name, an address literal or a unix socket path, with its NUL. */
#define PROTO_ADDR_HOST_MAX	256
/* The decimal digits of a port, with the NUL (leading zeros allowed). */
#define PROTO_ADDR_PORT_MAX	8

/**
 * enum proto_addr_flag - the forms a caller accepts beyond "HOST:PORT",
 * ":PORT" and "[V6]:PORT", which are always taken.
 * @PROTO_ADDR_UNIX: "unix:PATH" is a unix socket.
 * @PROTO_ADDR_BARE_PORT: a lone "PORT" is a port (else it is a host name).
 * @PROTO_ADDR_PORT_OPTIONAL: "HOST", "[V6]" and a bare IPv6 literal with
 *	more than one ':' ("::1") are accepted with no port.
 */
enum proto_addr_flag {
	PROTO_ADDR_UNIX = 1u << 0,
	PROTO_ADDR_BARE_PORT = 1u << 1,
	PROTO_ADDR_PORT_OPTIONAL = 1u << 2,
};

/**
 * struct proto_addr - an address cut into its parts.
 * @is_unix: "unix:PATH"; @host is the path then.
 * @v6: the host is an IPv6 literal ("[V6]", or bare with
 *	PROTO_ADDR_PORT_OPTIONAL).
 * @host: the host, "" when none was given (":PORT", "PORT").
 * @port: the port's digits as given, "" when none was given.
 * @port_num: @port's value (0 to 65535), 0 when none was given.
 */
struct proto_addr {
	bool is_unix;
	bool v6;
	char host[PROTO_ADDR_HOST_MAX];
	char port[PROTO_ADDR_PORT_MAX];
	unsigned int port_num;
};

/**
 * proto_addr_parse() - split @text into @out.
 * @flags: enum proto_addr_flag values, or-ed.
 * Return: 0, -EINVAL for a form @flags does not accept or a port that is
 * not 0 to 65535 in decimal, -ENAMETOOLONG for a host or path of
 * PROTO_ADDR_HOST_MAX bytes or more. @out is zeroed first either way.
 */
int proto_addr_parse(const char *text, unsigned int flags, struct proto_addr *out);

#endif /* IIOWIRE_PROTO_ADDR_H */
