/*
 * test_authpen.c - the per-source AUTH penalties of server/authpen.h: the
 * hold each wrong token puts its source on (1 s for the first
 * SRV_AUTH_PENALTY_FREE, then doubling, capped at SRV_AUTH_PENALTY_MAX_MS:
 * each bound at N and N+1), when AUTHs arriving together are decided, that
 * a right token waits for the hold too, and when a source is forgotten.
 * The daemon's side (timers, the source table) is test_server_acl.c's.
 */
#include <stdint.h>
#include <string.h>

#include "testutil.h"
#include "../server/authpen.h"

static void test_hold(void)
{
	static const struct { const char *name; unsigned int fails; uint64_t ms; } rows[] = {
		{ "first wrong token", 1, SRV_AUTH_FAIL_DELAY_MS },
		{ "the last free one (N)", SRV_AUTH_PENALTY_FREE, SRV_AUTH_FAIL_DELAY_MS },
		{ "the first doubled (N+1)", SRV_AUTH_PENALTY_FREE + 1, 2 * SRV_AUTH_FAIL_DELAY_MS },
		{ "doubled again", SRV_AUTH_PENALTY_FREE + 2, 4 * SRV_AUTH_FAIL_DELAY_MS },
		{ "32 s, under the cap", SRV_AUTH_PENALTY_FREE + 5, 32000 },
		{ "64 s is capped (N+1)", SRV_AUTH_PENALTY_FREE + 6, SRV_AUTH_PENALTY_MAX_MS },
		{ "far past: no shift overflow", 100000, SRV_AUTH_PENALTY_MAX_MS },
	};
	size_t i;

	CU_ASSERT_EQUAL(SRV_AUTH_PENALTY_MAX_MS, 60000);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		TEST_ROW_ASSERT(srv_authpen_hold_ms(rows[i].fails) == rows[i].ms, rows[i].name);
}
TEST_CASE(test_hold, "hold per wrong token: free ones, doubling, cap at N and N+1");

/* Twelve wrong tokens and a right one arrive together: decided one hold apart. */
static void test_decide(void)
{
	struct srv_authsrc src;
	uint64_t at = 0, now = 5000;
	unsigned int i;

	memset(&src, 0, sizeof(src));
	for (i = 1; i <= SRV_AUTH_PENALTY_FREE + 2; i++) {
		at = srv_authpen_decide(&src, now, true);
		if (i <= SRV_AUTH_PENALTY_FREE + 1)
			TEST_ROW_ASSERT(at == now + (i - 1) * SRV_AUTH_FAIL_DELAY_MS, "1 s apart");
	}
	/* the 11th held the source 2 s: the 12th is decided at 10 + 2 s */
	CU_ASSERT_EQUAL(at, now + 12000);
	CU_ASSERT_EQUAL(src.fails, SRV_AUTH_PENALTY_FREE + 2);
	/* the right token behind them waits out the 12th's 4 s hold */
	CU_ASSERT_EQUAL(srv_authpen_decide(&src, now, false), now + 16000);
	/* and holds nobody: the next is decided at the same time */
	CU_ASSERT_EQUAL(srv_authpen_decide(&src, now, false), now + 16000);
	/* past the hold, a right token is decided at once */
	CU_ASSERT_EQUAL(srv_authpen_decide(&src, now + 20000, false), now + 20000);
}
TEST_CASE(test_decide, "AUTHs arriving together are decided one hold apart, right ones too");

static void test_forget(void)
{
	struct srv_authsrc src;
	uint64_t last;
	unsigned int i;

	memset(&src, 0, sizeof(src));
	for (i = 0; i < SRV_AUTH_PENALTY_FREE + 3; i++)
		srv_authpen_decide(&src, 1000, true);
	last = src.last_ms;
	/* one ms before the forget time: still counted, the hold keeps doubling */
	srv_authpen_decide(&src, last + SRV_AUTH_PENALTY_FORGET_MS - 1, true);
	CU_ASSERT_EQUAL(src.fails, SRV_AUTH_PENALTY_FREE + 4);
	last = src.last_ms;
	/* at it: a new source again, 1 s hold */
	srv_authpen_decide(&src, last + SRV_AUTH_PENALTY_FORGET_MS, true);
	CU_ASSERT_EQUAL(src.fails, 1);
	CU_ASSERT_EQUAL(src.next_ms - src.last_ms, SRV_AUTH_FAIL_DELAY_MS);
}
TEST_CASE(test_forget, "a source is forgotten SRV_AUTH_PENALTY_FORGET_MS after its last wrong token");

TEST_MAIN("authpen", NULL, NULL)
