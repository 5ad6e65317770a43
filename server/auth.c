/*
 * auth.c - the native protocol's AUTH: the token compared in constant time,
 * wrong guesses answered after a penalty that grows per source address
 * (authpen.h) and is shared by every face, the held answers on timers of
 * their own, a connection closed after SRV_AUTH_ATTEMPTS_MAX, and the log
 * kept to one line per SRV_AUTH_LOG_INTERVAL_MS.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "session.h"
#include "srv.h"

/* Compare in time that depends only on the stored token's length. */
static bool srv_dispatch_token_eq(const char *want, size_t wlen, const char *got)
{
	size_t glen = strlen(got), i;
	volatile unsigned char diff = (unsigned char)(glen != wlen);

	for (i = 0; i < wlen; i++)
		diff |= (unsigned char)want[i] ^ (unsigned char)(i < glen ? got[i] : 0);
	return diff == 0;
}

/* An AUTH answer held back: a wrong token's, or a right one's while its source is on hold. */
struct srv_authfail {
	uv_timer_t timer;
	struct srv_list node;		/* srv->authholds, until its timer is closed */
	struct srv_session *s;		/* valid while @slot is set */
	struct srv_slot *slot;
	struct proto_request req;	/* owned copy */
	bool ok;			/* the token was right */
	bool last;			/* attempts used up: close after the answer */
};

static void srv_authfail_close_cb(uv_handle_t *handle)
{
	struct srv_authfail *af = srv_container_of(handle, struct srv_authfail, timer);

	proto_request_fini(&af->req);
	free(af);
}

static void srv_authfail_timer_cb(uv_timer_t *timer)
{
	struct srv_authfail *af = srv_container_of(timer, struct srv_authfail, timer);
	struct srv_session *s = af->s;
	struct srv_slot *slot = af->slot;

	if (slot && af->ok) {
		srv_session_check(s, proto_reply_ok(&slot->text, &af->req));
		srv_session_slot_done(s, slot);
	} else if (slot) {
		srv_session_check(s, srv_dispatch_error_to(s->srv, &slot->text, &af->req, -EACCES,
							   af->last ? "wrong token; closing" :
							   "wrong token"));
		srv_session_slot_done(s, slot);
		if (af->last && !srv_session_closing(s)) {
			srv_session_finish(s);
			srv_session_flush(s);
		}
	}
	srv_list_del(&af->node);
	uv_close((uv_handle_t *)timer, srv_authfail_close_cb);
}

void srv_dispatch_auth_drop_all(struct srv *srv)
{
	struct srv_list *pos, *tmp;
	struct srv_authfail *af;

	srv_list_for_each_safe(pos, tmp, &srv->authholds) {
		af = srv_container_of(pos, struct srv_authfail, node);
		srv_list_del(&af->node);
		uv_timer_stop(&af->timer);
		if (af->slot) {
			srv_session_check(af->s, srv_dispatch_error_to(af->s->srv, &af->slot->text,
								      &af->req, -ESHUTDOWN,
								      "server stopping"));
			srv_session_slot_done(af->s, af->slot);
		}
		uv_close((uv_handle_t *)&af->timer, srv_authfail_close_cb);
	}
}

/*
 * The penalty entry of @peer's source (its address without the port). A
 * source not in the table gets one only for a wrong token (@create): the
 * one whose hold ended longest ago makes room. Return: the entry, or NULL.
 */
static struct srv_authsrc *srv_dispatch_auth_source(struct srv *srv, const char *peer,
						    bool create)
{
	struct srv_authsrc *src, *old = &srv->authsrc[0];
	const char *colon = strrchr(peer, ':');
	size_t alen = colon ? (size_t)(colon - peer) : strlen(peer), i;

	if (alen >= sizeof(old->addr))
		alen = sizeof(old->addr) - 1;
	for (i = 0; i < SRV_AUTH_SOURCES_MAX; i++) {
		src = &srv->authsrc[i];
		if (src->addr[0] && !strncmp(src->addr, peer, alen) && !src->addr[alen])
			return src;
		if (src->next_ms < old->next_ms)
			old = src;
	}
	if (!create)
		return NULL;
	memset(old, 0, sizeof(*old));
	memcpy(old->addr, peer, alen);
	return old;
}

/*
 * When to answer an AUTH from @peer, right or wrong (authpen.h): a wrong one
 * SRV_AUTH_FAIL_DELAY_MS after it is decided and SRV_AUTH_FAIL_GLOBAL_MS
 * after anyone's. Reconnecting buys a guesser nothing. Return: ms from now.
 */
static uint64_t srv_dispatch_auth_delay(struct srv *srv, const char *peer, bool wrong)
{
	struct srv_authsrc *src = srv_dispatch_auth_source(srv, peer, wrong);
	uint64_t now = uv_now(&srv->loop), at;

	if (!src)
		return 0;
	at = srv_authpen_decide(src, now, wrong);
	if (!wrong)
		return at - now;
	at += SRV_AUTH_FAIL_DELAY_MS;
	if (at < srv->auth_next_ms + SRV_AUTH_FAIL_GLOBAL_MS)
		at = srv->auth_next_ms + SRV_AUTH_FAIL_GLOBAL_MS;
	srv->auth_next_ms = at;
	return at - now;
}

/* One line per SRV_AUTH_LOG_INTERVAL_MS at most: a guesser must not fill the log. */
static void srv_dispatch_auth_log(struct srv_session *s)
{
	struct srv *srv = s->srv;
	uint64_t now = uv_now(&srv->loop);

	if (srv->auth_log_ms && now - srv->auth_log_ms < SRV_AUTH_LOG_INTERVAL_MS) {
		srv->auth_log_quiet++;
		return;
	}
	srv_warn(&srv->log,
		 "session %llu (%s): wrong AUTH token (%u of %d; %u more since the last such line)",
		 (unsigned long long)s->id, s->peer, s->native.auth_failures,
		 SRV_AUTH_ATTEMPTS_MAX, srv->auth_log_quiet);
	srv->auth_log_ms = now ? now : 1;
	srv->auth_log_quiet = 0;
}

/*
 * A right token is in at once (what follows it is answered as authorized)
 * but its OK waits for its source's hold, as a wrong token's answer does.
 */
void srv_dispatch_auth(struct srv_session *s, struct proto_request *req)
{
	struct srv *srv = s->srv;
	struct srv_authfail *af;
	bool ok = !srv->auth_token_len ||
		  srv_dispatch_token_eq(srv->auth_token, srv->auth_token_len, req->token);
	uint64_t delay = srv->auth_token_len ? srv_dispatch_auth_delay(srv, s->peer, !ok) : 0;

	if (ok) {
		s->native.authed = true;
		if (!delay) {
			srv_session_check(s, proto_reply_ok(srv_session_out(s), req));
			return;
		}
	} else {
		s->native.auth_failures++;
		srv_dispatch_auth_log(s);
	}
	af = calloc(1, sizeof(*af));
	if (!af) {
		srv_dispatch_error(s, req, -ENOMEM, NULL);
		return;
	}
	uv_timer_init(&srv->loop, &af->timer);
	srv_list_init(&af->node);
	af->s = s;
	af->ok = ok;
	af->last = !ok && s->native.auth_failures >= SRV_AUTH_ATTEMPTS_MAX;
	memcpy(&af->req, req, sizeof(*req));
	req->store = NULL;
	if (!srv_session_slot_new(s, &af->slot)) {
		srv_dispatch_error(s, &af->req, -ENOMEM, NULL);
		uv_close((uv_handle_t *)&af->timer, srv_authfail_close_cb);
		return;
	}
	uv_timer_start(&af->timer, srv_authfail_timer_cb, delay, 0);
	srv_list_add_tail(&srv->authholds, &af->node);
	if (af->last) {
		/* no further requests: the answer comes, then the connection ends */
		srv_session_finish(s);
	}
}

