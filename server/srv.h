/*
 * srv.h - the server context: configuration, the loaded board, listeners,
 * sessions, bus workers, signals and counters of one iiowired.
 *
 * Every piece of mutable server state hangs off one struct srv made by
 * srv_create() (server.c); nothing in server/ keeps a global. The loop
 * thread owns all of it; the only things shared with bus workers live in
 * struct srv_busq under its lock. Every connection, whatever protocol it
 * speaks, is a session on srv->sessions under the same limits, timers,
 * signals and STATS (server/README.md). Place in the flow: wire -> listener
 * -> session -> protocol row (dispatch.c, iiod_proto.c) -> core (directly,
 * or through busq for buses that can block). This header and the ones
 * beside it are internal to the daemon; nothing outside server/ includes
 * them.
 */
#ifndef IIOWIRE_SRV_H
#define IIOWIRE_SRV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "authpen.h"
#include "list.h"
#include "log.h"
#include "proto.h"
#include "queues.h"

struct board;
struct iio_dev;
struct iio_source;
struct iio_source_hot;
struct srv_iiod_ctx;
struct srv_web;
struct srv_events;

/* ---- limits and defaults (each one in --help and protocol/PROTOCOL.md) ---- */

#define SRV_DEFAULT_PORT		30432
/* somaxconn caps it (4096 on current kernels): enough for 1000 simultaneous connects */
#define SRV_LISTEN_BACKLOG		4096
#define SRV_LISTEN_MAX			16
/* --iiod-listen options accepted */
#define SRV_IIOD_LISTEN_MAX		8
/* --http-listen and --http-origin options one daemon takes (web.h) */
#define SRV_HTTP_LISTEN_MAX		8
#define SRV_HTTP_ORIGIN_MAX		16
/* --http-host options one daemon takes (web_guard.h) */
#define SRV_HTTP_HOST_MAX		16
/* --allow-write options one daemon takes */
#define SRV_ALLOW_WRITE_MAX		64
#define SRV_DEFAULT_MAX_CLIENTS		4096
/* Sources (addresses; every Unix-socket client is one) whose wrong AUTHs are remembered. */
#define SRV_AUTH_SOURCES_MAX		64
/* Shortest --auth-token-file token: a shorter one is refused at start (exit 2). */
#define SRV_AUTH_TOKEN_MIN_BYTES	16

#define SRV_MAX_CLIENTS_LIMIT		1000000
/* a request may wait this long for its bus, queueing included */
#define SRV_DEFAULT_IO_TIMEOUT_MS	1000
/* a started line must end within this time (slowloris); 0 turns it off */
#define SRV_DEFAULT_LINE_TIMEOUT_MS	10000
/* no complete request for this long closes the session; 0 (default) = never */
#define SRV_DEFAULT_IDLE_TIMEOUT_MS	0
#define SRV_TIMEOUT_MS_LIMIT		86400000u
/* how long SIGTERM waits for in-flight replies before closing what is left */
#define SRV_SHUTDOWN_GRACE_MS		5000
/* how often idle, partial-line and output-limit deadlines are checked */
#define SRV_SWEEP_INTERVAL_MS		250

/* Bytes read from a socket in one go; one buffer shared by every session. */
#define SRV_READ_CHUNK_BYTES		(64 * 1024)

/*
 * A TCP or unix stream handle (listener or session), as whichever libuv type a call takes;
 * @idle for a session whose transport owns its socket (web.c): only its close callback is used.
 */
union srv_stream {
	uv_handle_t handle;
	uv_stream_t stream;
	uv_tcp_t tcp;
	uv_pipe_t pipe;
	uv_idle_t idle;
};

/**
 * struct srv_config - what the command line says; filled by main.c.
 * Strings are borrowed from argv (or static defaults) for the life of the
 * process.
 */
struct srv_config {
	const char *listen[SRV_LISTEN_MAX];
	int nlisten;			/* 0: the defaults (127.0.0.1 and [::1]) */
	const char *board_path;
	bool read_only;
	unsigned int max_clients;
	enum srv_log_level log_level;
	const char *auth_token_file;	/* NULL: no authentication */
	const char *allow_write[SRV_ALLOW_WRITE_MAX];	/* DEVICE:ATTR globs (acl.h) */
	int nallow_write;		/* 0: every writable attribute may be written */
	unsigned int io_timeout_ms;
	unsigned int line_timeout_ms;
	unsigned int idle_timeout_ms;
	const char *iiod_listen[SRV_IIOD_LISTEN_MAX];	/* --iiod-listen (listener.h) */
	int niiod_listen;		/* 0: no iiod listener */
	bool iiod_unauthenticated;	/* iiod clients may bypass --auth-token-file */
	bool no_announce;		/* --no-announce: no DNS-SD through avahi-daemon */
	bool kernel;			/* --kernel: every kernel IIO device (drivers/kernel/) */
	const char *http_listen[SRV_HTTP_LISTEN_MAX];	/* --http-listen (web.h) */
	int nhttp_listen;		/* 0: no HTTP/WebSocket face */
	const char *http_origin[SRV_HTTP_ORIGIN_MAX];	/* --http-origin; none: same-origin */
	int nhttp_origin;
	unsigned int max_queued_bytes;	/* all stream and event queues together (queues.h) */
	const char *http_host[SRV_HTTP_HOST_MAX];	/* --http-host: more Host names (web_guard.h) */
	int nhttp_host;
};

/** struct srv_stats - counters for STATS; loop thread only. */
struct srv_stats {
	uint64_t connections;		/* accepted, ever */
	uint64_t rejected;		/* turned away: too many clients */
	uint64_t requests;
	uint64_t errors;		/* ERR replies */
	uint64_t bytes_in;
	uint64_t bytes_out;
	uint64_t events;		/* WATCH lines pushed */
	uint64_t reloads;
	uint64_t reload_failures;
};

/*
 * struct srv - one daemon. Made by srv_create(), ended by srv_destroy().
 * Loop-thread only, except where a member says otherwise.
 */
struct srv {
	uv_loop_t loop;
	struct srv_config cfg;
	struct srv_log log;
	struct board *board;		/* owned; replaced whole on reload */
	uint64_t board_gen;		/* bumped by every successful reload */
	uint64_t reg_gen;		/* bumped when the served devices change: a reload, a hotplug */
	char auth_token[256];		/* from --auth-token-file */
	size_t auth_token_len;
	struct srv_authsrc authsrc[SRV_AUTH_SOURCES_MAX];	/* per-source throttle (dispatch.c) */
	uint64_t auth_next_ms;		/* last refusal scheduled, any source */
	uint64_t auth_log_ms;		/* when the last wrong-AUTH line was logged */
	unsigned int auth_log_quiet;	/* wrong AUTHs not logged since */
	struct srv_list authholds;	/* AUTH answers held back (dispatch.c) */

	struct srv_list listeners;
	struct srv_list sessions;	/* every connection, whatever its protocol */
	unsigned int nsessions;		/* open, not yet closing, not refused */
	uint64_t next_session_id;
	struct srv_list busqs;
	struct srv_list yielded;	/* sessions that used their turn: go on next turn */
	uv_idle_t yield;		/* runs while @yielded is not empty */

	uv_signal_t sig_term, sig_int, sig_hup;
	uv_timer_t sweep;
	uv_timer_t grace;		/* shutdown deadline */
	/* board load / destroy on a thread of its own, done through @reload_done */
	pthread_t reload_thread;
	uv_async_t reload_done;
	uv_timer_t reload_wait;		/* SIGTERM: how long a stuck reload is waited for */
	pthread_mutex_t reload_lock;	/* @reload_abandoned against @reload_done's close */
	bool reload_abandoned;		/* the thread never returned: it must not signal */
	bool reload_busy;
	bool reload_again;		/* SIGHUP came during a reload */
	struct board *reload_new;	/* result of the load in flight */
	struct board *reload_old;	/* the board being destroyed */
	char reload_err[512];
	/* a source's change taken device by device (hotplug.c), on the reload thread */
	const struct iio_source *hot_src;
	struct iio_source_hot *hot;	/* being scanned */
	int hot_ret;
	struct iio_dev **hot_gone;	/* being removed */
	int nhot_gone;

	bool stopping;
	bool loop_closed;
	int workers_left;		/* bus workers stuck at exit: leave the board be */
	uint64_t start_ms;		/* uv_now at start, for uptime */

	struct srv_iiod_ctx *iiod_ctx;	/* the iiod row's model of @board (owned) */
	uint64_t iiod_ctx_gen;		/* the @reg_gen it was built for */
	uint64_t trig_gen;		/* bumped by every add_trigger/remove_trigger */
	uint64_t iiod_ctx_trig_gen;	/* the @trig_gen it was built for */
	uint64_t iiod_model_gen;	/* counts the models built: a 1.0 client's numbers are one's */

	char *rdbuf;			/* SRV_READ_CHUNK_BYTES, shared by all reads */
	struct proto_buf out_spare;	/* an emptied session output buffer, lent to the next */
	struct srv_stats stats;
	struct srv_queues queues;	/* every stream and event queue, bounded together */
	struct srv_mdns *mdns;		/* DNS-SD announcements (mdns.c); NULL: none */
	struct srv_kwatch *kwatch;	/* kernel IIO uevents (kwatch.c); NULL: none */
	struct srv_streams *streams;	/* captures and trigger timers (stream.c) */
	struct srv_web *web;		/* --http-listen's libwebsockets (web.c); NULL: none */
	struct srv_events *events;	/* SUBSCRIBE fan-out (events.c); NULL after stop */
};

/* ---- server.c ---- */

/**
 * srv_create() - a server for @cfg: the token file read, the board loaded,
 * the loop initialised; nothing bound yet. Pair: srv_destroy().
 * @cfg: copied; its strings stay borrowed (argv) for the server's life.
 * @err: a one-line reason on failure (the board file's error, ...).
 * Return: 0 with *out owned, or -errno (-EINVAL for a bad board, -EACCES
 * for a token file others can read, -ENOMEM).
 */
int srv_create(const struct srv_config *cfg, struct srv **out, char *err, size_t errlen);

/**
 * srv_start() - bind the listeners of every protocol and install the
 * signal handles (SIGTERM, SIGINT, SIGHUP: the only ones iiowired has).
 * Return: 0, or -errno (logged; what was bound is closing then).
 */
int srv_start(struct srv *srv);

/**
 * srv_run() - serve until SIGTERM/SIGINT (srv_stop()) and every handle
 * has closed, then close the loop.
 * Return: 0 when uv_loop_close() succeeded, else its -errno (a handle was
 * left open: a bug).
 */
int srv_run(struct srv *srv);

/** srv_destroy() - free the server after srv_run() (or a failed srv_start()); NULL-safe. */
void srv_destroy(struct srv *srv);

/**
 * srv_stop() - begin shutdown: stop accepting, let sessions answer what is
 * in flight, then close everything (at most SRV_SHUTDOWN_GRACE_MS); a
 * second call closes the remaining sessions at once. Idempotent otherwise.
 */
void srv_stop(struct srv *srv);

/**
 * srv_reload() - reload the board (and rescan the kernel's devices), as
 * SIGHUP does; one at a time, a request during one runs after it. Loop thread.
 */
void srv_reload(struct srv *srv);
/** srv_reload_thread_start() - run the reload thread's pending work (hotplug.c); reload_busy says if it started. */
void srv_reload_thread_start(struct srv *srv);

/** srv_board_origin() - where the board came from, for logs: its file, or "--kernel". */
const char *srv_board_origin(const struct srv *srv);

/** srv_session_gone() - a session's memory was freed (session.c tells shutdown). */
void srv_session_gone(struct srv *srv);

#endif /* IIOWIRE_SRV_H */
