/*
 * test_client_conn.c - libiiowire's address parser (client/conn.c): every form
 * iiowire_connect() takes, the normal form it reports, and every malformed
 * address with the error it gets. No sockets: the parser alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "iiowire_priv.h"

static void test_conn_parse(void)
{
	char longhost[IIOWIRE_ADDRESS_MAX_BYTES + 8], longpath[160];
	struct {
		const char *name;
		const char *text;
		int ret;
		bool is_unix;
		const char *host;
		const char *port;
		const char *normal;
	} rows[] = {
		{ "host:port", "sensors.lan:1234", 0, false, "sensors.lan", "1234",
		  "sensors.lan:1234" },
		{ "host alone", "sensors.lan", 0, false, "sensors.lan", "30432",
		  "sensors.lan:30432" },
		{ "ipv4", "127.0.0.1:30433", 0, false, "127.0.0.1", "30433", "127.0.0.1:30433" },
		{ "[v6]:port", "[::1]:40000", 0, false, "::1", "40000", "[::1]:40000" },
		{ "[v6] alone", "[fe80::1%lo]", 0, false, "fe80::1%lo", "30432",
		  "[fe80::1%lo]:30432" },
		{ "bare v6 literal", "::1", 0, false, "::1", "30432", "[::1]:30432" },
		{ "unix path", "unix:/run/iiowire.sock", 0, true, "/run/iiowire.sock", "",
		  "unix:/run/iiowire.sock" },
		{ "port 1", "h:1", 0, false, "h", "1", "h:1" },
		{ "port 65535", "h:65535", 0, false, "h", "65535", "h:65535" },
		{ "leading zeros", "h:00080", 0, false, "h", "80", "h:80" },
		{ "port 0", "h:0", -EINVAL },
		{ "port 65536", "h:65536", -EINVAL },
		{ "port empty", "h:", -EINVAL },
		{ "port with sign", "h:+80", -EINVAL },
		{ "port name", "h:http", -EINVAL },
		{ "no host", ":80", -EINVAL },
		{ "blank in host", "a b:80", -EINVAL },
		{ "slash in host", "a/b:80", -EINVAL },
		{ "unclosed bracket", "[::1:80", -EINVAL },
		{ "empty brackets", "[]:80", -EINVAL },
		{ "junk after bracket", "[::1]x", -EINVAL },
		{ "bad port after bracket", "[::1]:x", -EINVAL },
		{ "empty unix path", "unix:", -EINVAL },
		{ "unix path too long", longpath, -ENAMETOOLONG },
		{ "address too long", longhost, -ENAMETOOLONG },
	};
	struct iiowire_addr a;
	size_t i;
	int ret;

	memset(longhost, 'h', sizeof(longhost) - 1);
	longhost[sizeof(longhost) - 1] = '\0';
	snprintf(longpath, sizeof(longpath), "unix:/%0120d", 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ret = iiowire_conn_parse_address(rows[i].text, &a);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		if (ret < 0 || rows[i].ret < 0)
			continue;
		TEST_ROW_ASSERT(a.is_unix == rows[i].is_unix, rows[i].name);
		TEST_ROW_ASSERT(strcmp(a.host, rows[i].host) == 0, rows[i].name);
		if (!a.is_unix)
			TEST_ROW_ASSERT(strcmp(a.port, rows[i].port) == 0, rows[i].name);
		TEST_ROW_ASSERT(strcmp(a.normal, rows[i].normal) == 0, rows[i].name);
	}
}
TEST_CASE(test_conn_parse, "address forms and errors");

static void test_conn_default(void)
{
	struct {
		const char *name;
		const char *env;	/* NULL: unset */
		const char *text;	/* NULL or "" */
		const char *normal;
	} rows[] = {
		{ "NULL, no env", NULL, NULL, "localhost:30432" },
		{ "empty, no env", NULL, "", "localhost:30432" },
		{ "NULL, env", "10.0.0.7:1", NULL, "10.0.0.7:1" },
		{ "empty env is unset", "", NULL, "localhost:30432" },
		{ "explicit beats env", "10.0.0.7:1", "h:2", "h:2" },
	};
	struct iiowire_addr a;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i].env)
			setenv(IIOWIRE_ADDRESS_ENV, rows[i].env, 1);
		else
			unsetenv(IIOWIRE_ADDRESS_ENV);
		TEST_ROW_ASSERT(iiowire_conn_parse_address(rows[i].text, &a) == 0, rows[i].name);
		TEST_ROW_ASSERT(strcmp(a.normal, rows[i].normal) == 0, rows[i].name);
	}
	unsetenv(IIOWIRE_ADDRESS_ENV);
}
TEST_CASE(test_conn_default, "default address and $IIOWIRE_ADDRESS");

TEST_MAIN("conn", NULL, NULL)
