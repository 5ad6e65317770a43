/*
 * iiodtest.h - what the live tests of the iiod listener share: a daemon
 * started with --iiod-listen on a port the kernel picks, and exact reads
 * of reply bytes (test_server_iiod.c: the 0.24 text protocol;
 * test_server_iiodb.c: libiio 1.0's binary one).
 */
#ifndef IIOWIRE_TEST_IIODTEST_H
#define IIOWIRE_TEST_IIODTEST_H

#include <CUnit/CUnit.h>

#include "srvtest.h"

#define IIODT_LISTEN_LOG "listening for libiio (iiod) clients on 127.0.0.1:"

/* A daemon with its iiod port. */
struct iiodt {
	struct srvtest t;
	int port;
};

/* Start with --iiod-listen 127.0.0.1:0 plus @args. Return: 0 or -errno. */
static inline int iiodt_start(struct iiodt *d, const char *board, const char *const *args)
{
	const char *argv[SRVTEST_ARGS_MAX];
	const char *at;
	int n = 0, ret;

	argv[n++] = "--iiod-listen";
	argv[n++] = "127.0.0.1:0";
	while (args && *args && n < SRVTEST_ARGS_MAX - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	ret = srvtest_start(&d->t, board, argv);
	if (ret)
		return ret;
	if (!srvtest_log_wait(&d->t, IIODT_LISTEN_LOG, SRVTEST_START_MS))
		return -ETIMEDOUT;
	srvtest_log_wait(&d->t, "\n", 100);
	at = strstr(d->t.log, IIODT_LISTEN_LOG);
	d->port = atoi(at + strlen(IIODT_LISTEN_LOG));
	return d->port > 0 ? 0 : -EINVAL;
}

/* Exactly @n bytes of reply into @out (the client's buffer first). Return: bytes got. */
static inline size_t iiodt_bytes(struct srvc *c, char *out, size_t n, int ms)
{
	size_t got = 0, take;
	ssize_t r;

	srvc_timeout(c, ms);
	take = c->len < n ? c->len : n;
	memcpy(out, c->buf, take);
	memmove(c->buf, c->buf + take, c->len - take);
	c->len -= take;
	got = take;
	while (got < n) {
		r = recv(c->fd, out + got, n - got, 0);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		got += (size_t)r;
	}
	return got;
}

/* Stop @d's daemon, which must exit 0; its log stays when a test failed. */
static inline void iiodt_stop(struct iiodt *d)
{
	CU_ASSERT_EQUAL(srvtest_stop(&d->t), 0);
	srvtest_fini(&d->t, CU_get_number_of_failures() != 0);
}

#endif /* IIOWIRE_TEST_IIODTEST_H */
