/*
 * authpen.h - per-source penalties for wrong AUTH tokens, as sshd's
 * PerSourcePenalties: when an AUTH from one source (an address; every
 * Unix-socket client is one) is decided and answered.
 *
 * A wrong token puts its source on hold: the source's next AUTH, right or
 * wrong, on any connection, is decided only once the hold is over, and a
 * right one is answered then, not at once, so a guesser cannot learn of a
 * right token before the schedule, however many connections it opens.
 * The first SRV_AUTH_PENALTY_FREE wrong tokens hold for
 * SRV_AUTH_FAIL_DELAY_MS each; every further one doubles the hold, up to
 * SRV_AUTH_PENALTY_MAX_MS. A source with no wrong token for
 * SRV_AUTH_PENALTY_FORGET_MS starts again. Pure arithmetic on the loop's
 * clock (dispatch.c keeps the table and the timers), so that
 * tests/test_authpen.c checks it without a daemon.
 */
#ifndef IIOWIRE_SERVER_AUTHPEN_H
#define IIOWIRE_SERVER_AUTHPEN_H

#include <stdbool.h>
#include <stdint.h>

/*
 * How long a wrong AUTH waits before its answer, and the hold each of a
 * source's first SRV_AUTH_PENALTY_FREE wrong tokens puts it on.
 */
#define SRV_AUTH_FAIL_DELAY_MS		1000
/* Wrong tokens from one source that hold it SRV_AUTH_FAIL_DELAY_MS only; then the hold doubles. */
#define SRV_AUTH_PENALTY_FREE		10
/* The longest hold. */
#define SRV_AUTH_PENALTY_MAX_MS		60000
/* A source with no wrong token for this long is held as a new one. */
#define SRV_AUTH_PENALTY_FORGET_MS	600000

/**
 * struct srv_authsrc - one source's penalty.
 * @addr: the peer without its port ("unix" for Unix sockets); "" when unused.
 * @next_ms: when its next AUTH may be decided (loop clock, ms).
 * @last_ms: when its last wrong token was decided.
 * @fails: its wrong tokens since it was last forgotten.
 */
struct srv_authsrc {
	char addr[56];
	uint64_t next_ms;
	uint64_t last_ms;
	unsigned int fails;
};

/**
 * srv_authpen_hold_ms() - the hold a source's @fails-th wrong token puts it on.
 * Return: ms, SRV_AUTH_FAIL_DELAY_MS to SRV_AUTH_PENALTY_MAX_MS.
 */
static inline uint64_t srv_authpen_hold_ms(unsigned int fails)
{
	uint64_t ms;

	if (fails <= SRV_AUTH_PENALTY_FREE)
		return SRV_AUTH_FAIL_DELAY_MS;
	if (fails - SRV_AUTH_PENALTY_FREE >= 32)
		return SRV_AUTH_PENALTY_MAX_MS;
	ms = (uint64_t)SRV_AUTH_FAIL_DELAY_MS << (fails - SRV_AUTH_PENALTY_FREE);
	return ms < SRV_AUTH_PENALTY_MAX_MS ? ms : SRV_AUTH_PENALTY_MAX_MS;
}

/**
 * srv_authpen_decide() - an AUTH from @src arrives at @now: when it is
 * decided, and for a @wrong one the hold that follows. Loop thread.
 * Return: the time (>= @now) at which it is answered if right; a wrong one
 * is answered SRV_AUTH_FAIL_DELAY_MS after it.
 */
static inline uint64_t srv_authpen_decide(struct srv_authsrc *src, uint64_t now, bool wrong)
{
	uint64_t at;

	/* last_ms may be ahead of @now: a wrong token decided later than it came */
	if (src->fails && now >= src->last_ms + SRV_AUTH_PENALTY_FORGET_MS)
		src->fails = 0;
	at = src->next_ms > now ? src->next_ms : now;
	if (wrong) {
		src->fails++;
		src->last_ms = at;
		src->next_ms = at + srv_authpen_hold_ms(src->fails);
	}
	return at;
}

#endif /* IIOWIRE_SERVER_AUTHPEN_H */
