/*
 * server.c - the life of one iiowired: start, signals, board reload, sweep,
 * shutdown (see srv.h).
 *
 * Start: load the board (before anything listens, so a bad board is exit 2
 * with nothing bound), bind the listeners, install the signal handles.
 * SIGHUP loads the board file again on a thread of its own (probing chips
 * may wait on a bus: never on the loop) and swaps it in on the loop only if
 * it loaded whole; the old board is destroyed on such a thread too, because
 * unregistering a device takes its lock, which a hung bus worker may hold.
 * Not libuv's pool: a probe stuck in a transfer would hold a pool thread
 * that libuv joins at exit, and SIGTERM must end the daemon regardless.
 * These are the daemon's only signal handles, for every protocol: the iiod
 * listeners and sessions are ordinary ones of srv->listeners/sessions.
 * SIGTERM/SIGINT: stop accepting, let every session answer what it has in
 * flight, and when the last one is gone stop the bus workers and close
 * every handle, so uv_run returns and uv_loop_close succeeds. A second
 * signal, or SRV_SHUTDOWN_GRACE_MS, closes what is left at once.
 * This file never reads a socket or decodes a request.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl.h"
#include "board.h"
#include "busq.h"
#include "events.h"
#include "iiod_proto.h"
#include "iio_registry.h"
#include "listener.h"
#include "hotplug.h"
#include "kwatch.h"
#include "mdns.h"
#include "sd.h"
#include "session.h"
#include "srv.h"
#include "stream.h"
#include "web.h"

/* ---- authentication token ---- */

/*
 * A token a client can send: printable ASCII, no blank at the start (the
 * line end and trailing blanks are already cut), as libiiowire's
 * iiowire_auth() takes it (anything else would lock every client out), and
 * at least SRV_AUTH_TOKEN_MIN_BYTES long.
 * Return: 0, or -EINVAL with @err.
 */
static int srv_token_check(const char *tok, size_t n, const char *path, char *err,
			   size_t errlen)
{
	size_t i;

	if (tok[0] == ' ' || tok[0] == '\t') {
		snprintf(err, errlen, "--auth-token-file %s: token starts with a blank", path);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if ((unsigned char)tok[i] < 0x20 || (unsigned char)tok[i] > 0x7e) {
			snprintf(err, errlen, "--auth-token-file %s: token byte %zu (0x%02x) is "
				 "not printable ASCII, which no client can send", path, i + 1,
				 (unsigned int)(unsigned char)tok[i]);
			return -EINVAL;
		}
	}
	/* a short token falls to guessing whatever the throttle (dispatch.c) */
	if (n < SRV_AUTH_TOKEN_MIN_BYTES) {
		snprintf(err, errlen, "--auth-token-file %s: token of %zu bytes is shorter than %d bytes",
			 path, n, SRV_AUTH_TOKEN_MIN_BYTES);
		return -EINVAL;
	}
	return 0;
}

static int srv_load_token(struct srv *srv, const char *path, char *err, size_t errlen)
{
	struct stat st;
	ssize_t n;
	int fd, ret;

	/* O_NONBLOCK: a FIFO must be refused below, not waited on for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "--auth-token-file %s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--auth-token-file %s: not a regular file", path);
		ret = -EINVAL;
		goto out_close;
	}
	if (st.st_mode & 077) {
		snprintf(err, errlen, "--auth-token-file %s: readable by group or others "
			 "(mode %03o; chmod 600 it)", path, (unsigned int)(st.st_mode & 0777));
		ret = -EACCES;
		goto out_close;
	}
	n = read(fd, srv->auth_token, sizeof(srv->auth_token));
	if (n < 0) {
		ret = -errno;
		snprintf(err, errlen, "--auth-token-file %s: %s", path, strerror(-ret));
		goto out_close;
	}
	if ((size_t)n == sizeof(srv->auth_token)) {
		snprintf(err, errlen, "--auth-token-file %s: token longer than %zu bytes", path,
			 sizeof(srv->auth_token) - 1);
		ret = -EINVAL;
		goto out_close;
	}
	/* a trailing newline (echo > file) is not part of the token */
	while (n > 0 && (srv->auth_token[n - 1] == '\n' || srv->auth_token[n - 1] == '\r' ||
			 srv->auth_token[n - 1] == ' ' || srv->auth_token[n - 1] == '\t'))
		n--;
	srv->auth_token[n] = '\0';
	/* a token is one line; blanks inside it are part of it (AUTH takes the rest of the line) */
	if (n == 0 || memchr(srv->auth_token, '\0', (size_t)n) ||
	    strpbrk(srv->auth_token, "\r\n")) {
		snprintf(err, errlen, "--auth-token-file %s: empty, or more than one line", path);
		ret = -EINVAL;
		goto out_close;
	}
	ret = srv_token_check(srv->auth_token, (size_t)n, path, err, errlen);
	if (ret < 0)
		goto out_close;
	srv->auth_token_len = (size_t)n;
	ret = 0;
out_close:
	close(fd);
	return ret;
}

/* ---- shutdown ---- */

static void srv_handle_close_noop(uv_handle_t *handle)
{
	(void)handle;
}

/* The last step: nothing is served any more; close every handle we own. */
static void srv_stop_final(struct srv *srv)
{
	int left;

	left = srv_busq_close_all(srv);
	srv->workers_left += left;
	if (left)
		srv_warn(&srv->log, "%d bus worker(s) never returned from a transfer", left);
	uv_close((uv_handle_t *)&srv->reload_done, srv_handle_close_noop);
	uv_close((uv_handle_t *)&srv->reload_wait, srv_handle_close_noop);
	uv_close((uv_handle_t *)&srv->sig_term, srv_handle_close_noop);
	uv_close((uv_handle_t *)&srv->sig_int, srv_handle_close_noop);
	uv_close((uv_handle_t *)&srv->sig_hup, srv_handle_close_noop);
	uv_close((uv_handle_t *)&srv->sweep, srv_handle_close_noop);
	uv_close((uv_handle_t *)&srv->grace, srv_handle_close_noop);
	uv_close((uv_handle_t *)&srv->yield, srv_handle_close_noop);
	srv_streams_close(srv);
	srv_web_close(srv);
	srv_events_fini(srv);
}

/* Go on with shutdown once no session and no reload is left. */
static void srv_stop_check(struct srv *srv)
{
	if (!srv->stopping || srv->reload_busy || !srv_list_empty(&srv->sessions))
		return;
	if (uv_is_closing((uv_handle_t *)&srv->sweep))
		return;
	srv_stop_final(srv);
}

void srv_session_gone(struct srv *srv)
{
	srv_stop_check(srv);
}

static void srv_close_sessions(struct srv *srv)
{
	struct srv_list *pos, *tmp;

	srv_list_for_each_safe(pos, tmp, &srv->sessions)
		srv_session_close(srv_container_of(pos, struct srv_session, node));
}

static void srv_grace_cb(uv_timer_t *timer)
{
	struct srv *srv = srv_container_of(timer, struct srv, grace);

	srv_warn(&srv->log, "shutdown: replies still pending after %d ms; closing %u session(s)",
		 SRV_SHUTDOWN_GRACE_MS, srv->nsessions);
	srv_close_sessions(srv);
}

static void srv_reload_wait_start(struct srv *srv);

void srv_stop(struct srv *srv)
{
	struct srv_list *pos, *tmp;
	struct srv_session *s;

	if (srv->stopping) {
		/* asked twice: do not wait for anyone */
		srv_close_sessions(srv);
		return;
	}
	srv->stopping = true;
	srv_info(&srv->log, "stopping: %u client(s) to finish", srv->nsessions);
	srv_sd_stopping();
	srv_mdns_stop(srv->mdns);
	srv->mdns = NULL;
	srv_kwatch_close(srv);
	srv_listener_close_all(srv);
	srv_web_stop(srv);
	uv_timer_start(&srv->grace, srv_grace_cb, SRV_SHUTDOWN_GRACE_MS, 0);
	if (srv->reload_busy)
		srv_reload_wait_start(srv);
	srv_dispatch_auth_drop_all(srv);
	srv_list_for_each_safe(pos, tmp, &srv->sessions) {
		s = srv_container_of(pos, struct srv_session, node);
		if (srv_session_closing(s))
			continue;
		srv_session_finish(s);
		srv_session_flush(s);
	}
	srv_stop_check(srv);
}

/* ---- board reload ---- */

const char *srv_board_origin(const struct srv *srv)
{
	return srv->cfg.board_path ? srv->cfg.board_path : "--kernel";
}

/*
 * What the loaded board may have wrong, at start and after a reload: its
 * notes (board_note()), and whether it has no devices at all, with the file
 * to fill (the package ships an empty one, and a silent daemon left a new
 * user with an empty `iiowire devices` and no next step). --kernel's devices
 * come and go by hotplug, so an empty start is normal there.
 */
static void srv_board_notes(struct srv *srv)
{
	char note[BOARD_ERR_MAX];
	int pos = 0;

	/* and what loaded but is probably a mistake (an 8-bit I2C address) */
	while (board_note(srv->board, &pos, note, sizeof(note)) > 0)
		srv_warn(&srv->log, "%s: %s", srv_board_origin(srv), note);
	if (iio_registry_count(srv->board->reg) > 0 || !srv->cfg.board_path || srv->cfg.kernel)
		return;
	srv_warn(&srv->log, "board %s has no devices: add them to %s (maps/README.md shows how), "
		 "then reload (SIGHUP; systemctl reload iiowired)", srv->board->name,
		 srv->cfg.board_path);
}

enum srv_reload_phase {
	SRV_RELOAD_LOAD,
	SRV_RELOAD_DESTROY,
};

static void srv_reload_start(struct srv *srv, enum srv_reload_phase phase);

/*
 * Destroy the replaced board once none of its bus workers is left: one stuck
 * in a transfer holds the bus, and board_destroy() would wait for it with the
 * reload (and so SIGHUP and SIGTERM) waiting behind. Return: true if started.
 */
static bool srv_reload_retire(struct srv *srv)
{
	srv_busq_reap(srv);
	if (!srv->reload_old || srv->reload_busy || srv_busq_stale(srv))
		return false;
	srv_reload_start(srv, SRV_RELOAD_DESTROY);
	return true;
}

/* The reload thread: only the members the loop left to this work. */
static void *srv_reload_thread(void *arg)
{
	struct srv *srv = arg;

	if (srv_hotplug_thread(srv)) {
		/* a hotplug step: done */
	} else if (srv->reload_old) {
		board_destroy(srv->reload_old);
		srv->reload_old = NULL;
	} else {
		srv->reload_err[0] = '\0';
		srv->reload_new = board_load(srv->cfg.board_path, srv->reload_err,
					     sizeof(srv->reload_err));
	}
	/* a daemon that stopped waiting has closed @reload_done, or is about to */
	pthread_mutex_lock(&srv->reload_lock);
	if (!srv->reload_abandoned)
		uv_async_send(&srv->reload_done);
	pthread_mutex_unlock(&srv->reload_lock);
	return NULL;
}

/*
 * SIGTERM came with a reload in flight and it has not returned within
 * SRV_BUSQ_JOIN_TIMEOUT_MS, the bound a bus worker gets: a probe stuck in a
 * transfer. Leave the thread and what it holds (as srv_destroy() leaves a
 * stuck worker's board) and go on stopping.
 */
static void srv_reload_wait_cb(uv_timer_t *timer)
{
	struct srv *srv = srv_container_of(timer, struct srv, reload_wait);

	if (!srv->reload_busy)
		return;
	pthread_mutex_lock(&srv->reload_lock);
	srv->reload_abandoned = true;
	pthread_mutex_unlock(&srv->reload_lock);
	pthread_detach(srv->reload_thread);
	srv->reload_busy = false;
	srv->workers_left++;
	srv_warn(&srv->log, "shutdown: the reload has not returned after %d ms (a probe stuck "
		 "on its bus); leaving it", SRV_BUSQ_JOIN_TIMEOUT_MS);
	srv_stop_check(srv);
}

static void srv_reload_wait_start(struct srv *srv)
{
	uv_timer_start(&srv->reload_wait, srv_reload_wait_cb, SRV_BUSQ_JOIN_TIMEOUT_MS, 0);
}

static void srv_reload_done_cb(uv_async_t *async)
{
	struct srv *srv = srv_container_of(async, struct srv, reload_done);
	struct board *old;

	if (!srv->reload_busy)
		return;
	/* it has signalled, so it is returning: the join is short */
	pthread_join(srv->reload_thread, NULL);
	srv->reload_busy = false;
	uv_timer_stop(&srv->reload_wait);
	if (srv_hotplug_done(srv)) {
		srv_stop_check(srv);
		return;
	}
	if (srv->reload_new) {
		if (srv->stopping) {
			/* too late to serve it; the loop is closing anyway */
			board_destroy(srv->reload_new);
			srv->reload_new = NULL;
			srv_stop_check(srv);
			return;
		}
		old = srv->board;
		srv->board = srv->reload_new;
		srv->reload_new = NULL;
		srv->board_gen++;
		srv->reg_gen++;
		srv_streams_board_swap(srv, old);
		srv->stats.reloads++;
		srv_events_reload(srv);
		srv_info(&srv->log, "board reloaded from %s: %s, %d device(s)",
			 srv_board_origin(srv), srv->board->name,
			 iio_registry_count(srv->board->reg));
		srv_board_notes(srv);
		srv_acl_report(srv);
		srv_sd_reloading(true, "serving the reloaded board");
		srv->reload_old = old;
		if (!srv_reload_retire(srv))
			srv_warn(&srv->log, "previous board kept until its bus workers return");
		return;
	}
	if (srv->reload_err[0]) {
		srv->stats.reload_failures++;
		srv_err(&srv->log, "reload failed, keeping the current board: %s", srv->reload_err);
		srv->reload_err[0] = '\0';
		srv_sd_reloading(true, "reload failed; serving the previous board");
	}
	if (srv_reload_retire(srv))
		return;
	if (srv->stopping) {
		srv_stop_check(srv);
		return;
	}
	if (srv->reload_again && !srv->reload_old) {
		srv->reload_again = false;
		srv_reload_start(srv, SRV_RELOAD_LOAD);
	}
}

static void srv_reload_start(struct srv *srv, enum srv_reload_phase phase)
{
	sigset_t all, old;
	int ret;

	(void)phase;	/* the thread tells the phases apart by reload_old */
	/* signals are the loop's: the thread starts with all of them blocked */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&srv->reload_thread, NULL, srv_reload_thread, srv);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret < 0) {
		srv_err(&srv->log, "reload: %s", strerror(-ret));
		if (srv->reload_old) {
			/* cannot hand it off: better a short wait now than a leak */
			board_destroy(srv->reload_old);
			srv->reload_old = NULL;
		}
		return;
	}
	srv->reload_busy = true;
	if (srv->stopping)
		srv_reload_wait_start(srv);
}

void srv_reload_thread_start(struct srv *srv)
{
	srv_reload_start(srv, SRV_RELOAD_LOAD);	/* the thread tells the work apart */
}

void srv_reload(struct srv *srv)
{
	if (srv->stopping)
		return;
	if (srv->reload_busy || srv->reload_old) {
		/* one replaced board at a time: the next load waits for it to go */
		srv->reload_again = true;
		if (srv->reload_old)
			srv_warn(&srv->log, "SIGHUP: waiting for the previous board's bus workers");
		return;
	}
	srv_info(&srv->log, "SIGHUP: reloading %s", srv_board_origin(srv));
	srv_sd_reloading(false, NULL);
	srv_reload_start(srv, SRV_RELOAD_LOAD);
}

/* ---- signals and the sweep ---- */

static void srv_signal_cb(uv_signal_t *handle, int signum)
{
	struct srv *srv = handle->data;

	if (signum == SIGHUP) {
		srv_reload(srv);
		return;
	}
	srv_info(&srv->log, "%s received", signum == SIGTERM ? "SIGTERM" : "SIGINT");
	srv_stop(srv);
}

static void srv_sweep_cb(uv_timer_t *timer)
{
	struct srv *srv = srv_container_of(timer, struct srv, sweep);
	uint64_t now = uv_now(&srv->loop);
	struct srv_list *pos, *tmp;

	srv_list_for_each_safe(pos, tmp, &srv->sessions)
		srv_session_sweep(srv_container_of(pos, struct srv_session, node), now);
	srv_queues_trim(&srv->queues);
	if (srv->reload_busy || srv_reload_retire(srv))
		return;
	if (srv->reload_again && !srv->reload_old && !srv->stopping) {
		srv->reload_again = false;
		srv_info(&srv->log, "SIGHUP: reloading %s", srv_board_origin(srv));
		srv_reload_start(srv, SRV_RELOAD_LOAD);
	}
}

/* ---- life cycle ---- */

int srv_create(const struct srv_config *cfg, struct srv **out, char *err, size_t errlen)
{
	struct srv *srv;
	int ret;

	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	srv->cfg = *cfg;
	srv_log_init(&srv->log, cfg->log_level);
	srv_list_init(&srv->listeners);
	srv_list_init(&srv->sessions);
	srv_list_init(&srv->busqs);
	srv_list_init(&srv->yielded);
	srv_list_init(&srv->authholds);
	srv_queues_init(&srv->queues, cfg->max_queued_bytes ? cfg->max_queued_bytes :
				      SRV_QUEUED_BYTES_DEFAULT);
	pthread_mutex_init(&srv->reload_lock, NULL);
	srv->rdbuf = malloc(SRV_READ_CHUNK_BYTES);
	if (!srv->rdbuf) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto err_free_srv;
	}
	if (cfg->auth_token_file) {
		ret = srv_load_token(srv, cfg->auth_token_file, err, errlen);
		if (ret < 0)
			goto err_free_rdbuf;
	}
	srv->board = board_load(cfg->board_path, err, errlen);
	if (!srv->board) {
		ret = -EINVAL;
		goto err_free_rdbuf;
	}
	ret = uv_loop_init(&srv->loop);
	if (ret < 0) {
		snprintf(err, errlen, "event loop: %s", uv_strerror(ret));
		goto err_destroy_board;
	}
	ret = srv_streams_init(srv);
	if (ret < 0) {
		snprintf(err, errlen, "streams: %s", uv_strerror(ret));
		uv_loop_close(&srv->loop);
		goto err_destroy_board;
	}
	*out = srv;
	return 0;

err_destroy_board:
	board_destroy(srv->board);
err_free_rdbuf:
	free(srv->rdbuf);
err_free_srv:
	pthread_mutex_destroy(&srv->reload_lock);
	free(srv);
	return ret;
}

/*
 * The sockets systemd passed (socket activation): named "iiod" for
 * libiio's protocol, any other name for iiowire's. Return: how many, or
 * -errno with @err.
 */
static int srv_start_systemd_listeners(struct srv *srv, char *err, size_t errlen)
{
	struct srv_sd_fd fds[SRV_SD_FDS_MAX];
	int i, n, ret = 0;

	n = srv_sd_listen_fds(fds, SRV_SD_FDS_MAX, err, errlen);
	for (i = 0; i < n && ret >= 0; i++)
		ret = srv_listener_adopt(srv, fds[i].iiod ? &srv_proto_iiod : &srv_proto_native,
					 fds[i].fd, fds[i].is_unix, err, errlen);
	for (; i < n; i++)
		close(fds[i].fd);
	return ret < 0 ? ret : n;
}

/* Every address of one option's list (--listen, --http-listen, ...). Return: listeners, or -errno. */
static int srv_listen_each(struct srv *srv, const struct srv_listen_opt *opt, const char **specs,
			   int n, char *err, size_t errlen)
{
	int i, ret, opened = 0;

	for (i = 0; i < n; i++) {
		ret = srv_listener_open(srv, opt, specs[i], err, errlen);
		if (ret < 0)
			return ret;
		opened += ret;
	}
	return opened;
}

/*
 * Bind every listen option: the sockets systemd passed, --listen (or the
 * loopback defaults, when neither gave one), then --http-listen (after its
 * libwebsockets context) and --iiod-listen, one listener path for all.
 * Return: 0, or -errno with @err.
 */
static int srv_start_listeners(struct srv *srv, char *err, size_t errlen)
{
	struct srv_config *cfg = &srv->cfg;
	char port[8];
	int ret, opened = 0;

	ret = srv_iiod_start(srv);
	if (ret < 0) {
		snprintf(err, errlen, "--iiod-listen: %s", strerror(-ret));
		return ret;
	}
	opened = srv_start_systemd_listeners(srv, err, errlen);
	if (opened < 0)
		return opened;
	if (cfg->nlisten == 0 && opened == 0) {
		snprintf(port, sizeof(port), "%d", SRV_DEFAULT_PORT);
		ret = srv_listener_open_loopback(srv, &srv_proto_native, port, err, errlen);
		if (ret < 0)
			return ret;
		opened += ret;
	}
	ret = srv_listen_each(srv, &srv_listen_native, cfg->listen, cfg->nlisten, err, errlen);
	if (ret < 0)
		return ret;
	opened += ret;
	if (cfg->nhttp_listen) {
		ret = srv_web_start(srv, err, errlen);
		if (ret < 0)
			return ret;
	}
	ret = srv_listen_each(srv, &srv_listen_http, cfg->http_listen, cfg->nhttp_listen, err,
			      errlen);
	if (ret < 0)
		return ret;
	opened += ret;
	ret = srv_listen_each(srv, &srv_listen_iiod, cfg->iiod_listen, cfg->niiod_listen, err,
			      errlen);
	if (ret < 0)
		return ret;
	opened += ret;
	if (!opened) {
		snprintf(err, errlen, "no address to listen on");
		return -EADDRNOTAVAIL;
	}
	return 0;
}

/*
 * DNS-SD: _iiowire._tcp and _iio._tcp for the listeners other hosts can
 * reach (a loopback-only daemon announces nothing), unless --no-announce.
 */
static void srv_announce(struct srv *srv)
{
	struct srv_mdns_service svc[2];
	int n = 0, port, ret;

	if (srv->cfg.no_announce)
		return;
	port = srv_listener_port(srv, &srv_proto_native, true);
	if (port)
		svc[n++] = (struct srv_mdns_service){ "_iiowire._tcp", (uint16_t)port };
	port = srv_listener_port(srv, &srv_proto_iiod, true);
	if (port)
		svc[n++] = (struct srv_mdns_service){ "_iio._tcp", (uint16_t)port };
	if (!n) {
		srv_debug(&srv->log, "mdns: listening on loopback only: nothing to announce");
		return;
	}
	ret = srv_mdns_start(&srv->loop, &srv->log, srv->board->name, svc, n, &srv->mdns);
	if (ret < 0)
		srv_warn(&srv->log, "mdns: %s; not announcing", strerror(-ret));
}

int srv_start(struct srv *srv)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	uv_signal_t *handles[] = { &srv->sig_term, &srv->sig_int, &srv->sig_hup };
	char err[256];
	size_t i;
	int ret;

	/* before the sockets: a SIGHUP sent once a client can connect must reload */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		uv_signal_init(&srv->loop, handles[i]);
		handles[i]->data = srv;
		uv_signal_start(handles[i], srv_signal_cb, sigs[i]);
	}
	ret = srv_start_listeners(srv, err, sizeof(err));
	if (ret < 0) {
		srv_err(&srv->log, "listen: %s", err);
		srv_listener_close_all(srv);
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			uv_close((uv_handle_t *)handles[i], srv_handle_close_noop);
		return ret;
	}
	srv_listener_announce_all(srv);
	uv_timer_init(&srv->loop, &srv->sweep);
	uv_timer_init(&srv->loop, &srv->grace);
	uv_timer_init(&srv->loop, &srv->reload_wait);
	uv_async_init(&srv->loop, &srv->reload_done, srv_reload_done_cb);
	uv_unref((uv_handle_t *)&srv->reload_done);
	uv_idle_init(&srv->loop, &srv->yield);
	ret = srv_events_init(srv);
	if (ret < 0) {
		srv_err(&srv->log, "events: %s", uv_strerror(ret));
		return ret;
	}
	uv_timer_start(&srv->sweep, srv_sweep_cb, SRV_SWEEP_INTERVAL_MS, SRV_SWEEP_INTERVAL_MS);
	/* the sweep must not keep the loop alive on its own, nor the grace timer */
	uv_unref((uv_handle_t *)&srv->sweep);
	uv_unref((uv_handle_t *)&srv->grace);
	srv->start_ms = uv_now(&srv->loop);
	srv_info(&srv->log, "iiowired %s (protocol %d.%d): board %s from %s, %d device(s)%s",
		 IIOWIRE_VERSION, PROTO_VERSION_MAJOR, PROTO_VERSION_MINOR, srv->board->name,
		 srv_board_origin(srv), iio_registry_count(srv->board->reg),
		 srv->cfg.read_only ? ", read-only" : "");
	srv_board_notes(srv);
	srv_acl_report(srv);
	srv_announce(srv);
	if (srv_kwatch_start(srv) < 0)
		srv_warn(&srv->log, "kernel uevents: %s", strerror(ENOMEM));
	srv_sd_ready("serving");
	return 0;
}

int srv_run(struct srv *srv)
{
	int ret;

	uv_run(&srv->loop, UV_RUN_DEFAULT);
	ret = uv_loop_close(&srv->loop);
	srv->loop_closed = ret == 0;
	if (ret < 0)
		srv_err(&srv->log, "event loop did not close cleanly: %s", uv_strerror(ret));
	else
		srv_info(&srv->log, "stopped");
	return ret;
}

void srv_destroy(struct srv *srv)
{
	if (!srv)
		return;
	if (!srv->loop_closed) {
		srv_streams_close(srv);
		/* a failed start: let the close callbacks of what was opened run */
		srv_web_close(srv);
		uv_run(&srv->loop, UV_RUN_DEFAULT);
		uv_loop_close(&srv->loop);
	}
	if (srv->workers_left) {
		/* a worker may still hold a device lock: unregistering would wait on it */
		return;
	}
	srv_iiod_fini(srv);
	srv_web_free(srv);
	board_destroy(srv->board);
	board_destroy(srv->reload_new);
	board_destroy(srv->reload_old);
	pthread_mutex_destroy(&srv->reload_lock);
	free(srv->rdbuf);
	proto_buf_fini(&srv->out_spare);
	free(srv);
}
