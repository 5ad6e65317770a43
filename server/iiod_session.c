/*
 * iiod_session.c - the iiod (libiio 0.24) listener and its sessions.
 *
 * A session cuts lines with the protocol's splitter, parses them with
 * protocol/iiod.h and answers one request at a time, in order, as iiod
 * does. A WRITE's payload is always consumed: applied up to
 * PROTO_IIOD_WRITE_MAX_BYTES, dropped up to PROTO_IIOD_SKIP_MAX_BYTES,
 * past that the connection closes after the error. Attribute I/O runs on
 * the loop, or on the bus worker (busq.c) for devices that can block; input
 * waits meanwhile. iiod 0.24's faults are fixed (PROTOCOL-iiod.md): no busy
 * loop on half-close, EXIT kept even with FIN right behind, names checked,
 * --max-clients, loopback by default. Place in the flow: wire -> *iiod
 * listener/session* -> core / busq. Sessions are freed only in their close
 * callback.
 */
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>

#include "acl.h"
#include "board.h"
#include "busq.h"
#include "dispatch.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "iiod.h"
#include "iiod_session.h"
#include "iiod_xml.h"
#include "session.h"
#include "srv.h"

/* ---- types ---- */

/*
 * struct srv_iiod - the iiod side of one daemon. Made by srv_iiod_start(),
 * freed by srv_iiod_destroy() after the loop ran; loop thread only.
 */
struct srv_iiod {
	struct srv *srv;
	struct srv_iiod_config cfg;
	struct srv_list listeners;
	struct srv_list sessions;
	uint64_t next_id;
	struct srv_iiod_ctx *ctx;	/* model of the current board; owned */
	uint64_t ctx_gen;		/* srv->board_gen it was built for */
	uv_signal_t sig_term, sig_int;
	uv_timer_t sweep;
	uv_timer_t grace;
	int open_handles;		/* signals and timers not yet closed */
	bool stopping;
	bool handles_closing;
};

struct srv_iiod_listener {
	uv_tcp_t tcp;
	struct srv_iiod *iiod;
	struct srv_list node;		/* iiod->listeners */
	char name[128];
};

struct srv_iiod_io;

/* One connection. Made by srv_iiod_accept(), freed in srv_iiod_session_close_cb(). */
struct srv_iiod_session {
	uv_tcp_t tcp;
	struct srv_iiod *iiod;
	struct srv_list node;		/* iiod->sessions */
	uint64_t id;
	char peer[64];

	/* input */
	struct proto_splitter sp;
	char *deferred;			/* received, not yet used: waiting (owned) */
	size_t deferred_len;
	uint64_t last_request_ms;
	uint64_t partial_since_ms;	/* a line or payload is unfinished since; 0: none */

	/* a WRITE waiting for its payload */
	bool in_payload;
	struct proto_iiod_cmd wcmd;
	int werr;			/* answer this once the payload is skipped; 0: apply */
	uint64_t wleft;			/* payload bytes still to come */
	char *wbuf;			/* the payload so far, when applied (owned) */
	size_t wlen;

	/* output */
	struct proto_buf out;
	char *wdata;			/* owned by wreq until its callback */
	uv_write_t wreq;

	struct srv_iiod_io *io;		/* the request on a bus worker, or NULL */

	bool writing;
	bool reading;
	bool eof;
	bool eof_done;			/* the last unterminated line was handled */
	bool close_after_flush;
	bool closing;
	bool rejected;			/* over --max-clients: never counted */
	bool broken;			/* out of memory: close */
	bool in_feed;
};

/*
 * struct srv_iiod_io - one READ or WRITE (one attribute or all of them).
 * Made on the loop; srv_iiod_io_run() is the one piece of code a bus
 * worker executes, and it touches only this struct and the device.
 */
struct srv_iiod_io {
	struct srv_job job;
	struct srv_iiod_session *s;	/* the waiting session; NULL once it closed */
	struct iio_dev *dev;		/* referenced */
	bool write;
	bool all;
	const struct iio_attr *one;
	const struct iio_attr **attrs;	/* @all: owned array; else &@one */
	int nattrs;
	char *wbuf;			/* WRITE payload (owned) */
	size_t wlen;
	struct proto_buf reply;		/* on a bus: the framed answer */
	char val[IIO_VALUE_MAX_BYTES + 1];
};

static void srv_iiod_read_cb(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf);
static void srv_iiod_flush(struct srv_iiod_session *s);
static void srv_iiod_resume(struct srv_iiod_session *s);
static void srv_iiod_session_close(struct srv_iiod_session *s);
static void srv_iiod_stop_check(struct srv_iiod *iiod);
static void srv_iiod_stop(struct srv_iiod *iiod);

/* ---- configuration ---- */

/* Split "PORT", ":PORT", "HOST:PORT", "[V6]:PORT"; @host "" means loopback. */
static int srv_iiod_split(const char *spec, char *host, size_t hostlen, char *port,
			  size_t portlen)
{
	const char *colon, *h = spec, *hend, *p;

	if (spec[0] == '[') {
		hend = strchr(spec, ']');
		if (!hend || hend[1] != ':')
			return -EINVAL;
		h = spec + 1;
		p = hend + 2;
	} else {
		colon = strrchr(spec, ':');
		if (!colon) {
			hend = spec;	/* a bare port */
			p = spec;
		} else if (memchr(spec, ':', (size_t)(colon - spec))) {
			return -EINVAL;	/* a bare IPv6 address needs brackets */
		} else {
			hend = colon;
			p = colon + 1;
		}
	}
	if ((size_t)(hend - h) >= hostlen || strlen(p) >= portlen || !*p)
		return -EINVAL;
	memcpy(host, h, (size_t)(hend - h));
	host[hend - h] = '\0';
	strcpy(port, p);
	if (strspn(port, "0123456789") != strlen(port) || atol(port) > 65535)
		return -EINVAL;
	return 0;
}

int srv_iiod_config_add(struct srv_iiod_config *icfg, const char *spec, char *err,
			size_t errlen)
{
	char host[256], port[8];

	if (icfg->nlisten == SRV_IIOD_LISTEN_MAX) {
		snprintf(err, errlen, "at most %d --iiod-listen options", SRV_IIOD_LISTEN_MAX);
		return -EINVAL;
	}
	if (srv_iiod_split(spec, host, sizeof(host), port, sizeof(port)) < 0) {
		snprintf(err, errlen, "--iiod-listen %s: not PORT, :PORT, HOST:PORT or "
			 "[IPV6]:PORT", spec);
		return -EINVAL;
	}
	icfg->listen[icfg->nlisten++] = spec;
	return 0;
}

int srv_iiod_config_check(const struct srv_iiod_config *icfg, const struct srv_config *cfg,
			  char *err, size_t errlen)
{
	if (icfg->nlisten && cfg->auth_token_file && !icfg->unauthenticated) {
		snprintf(err, errlen, "--iiod-listen: iiod clients cannot authenticate, so they "
			 "would bypass --auth-token-file; add --iiod-unauthenticated to accept "
			 "that (and bind the listener to a trusted address)");
		return -EACCES;
	}
	return 0;
}

void srv_iiod_usage(FILE *out)
{
	fprintf(out,
"\n"
"libiio clients (iio_info, iio_attr, Python bindings: iiod 0.24 protocol, PROTOCOL-iiod.md):\n"
"      --iiod-listen ADDR    also listen for them on ADDR: PORT or :PORT (loopback:\n"
"                            127.0.0.1 and [::1]), HOST:PORT or [IPV6]:PORT; repeatable;\n"
"                            off by default (iiod's own port is %d)\n"
"      --iiod-unauthenticated  allow --iiod-listen with --auth-token-file (iiod has no\n"
"                            authentication: its clients bypass the token)\n"
"iiod limits: request line %d bytes; WRITE payload %d bytes (more: -EFBIG, the bytes\n"
"are skipped up to %d, past that the connection is closed); --max-clients, --read-only\n"
"(WRITE gets -EACCES), --io-timeout-ms, --line-timeout-ms and --idle-timeout-ms apply.\n",
		PROTO_IIOD_PORT, PROTO_IIOD_LINE_MAX_BYTES, PROTO_IIOD_WRITE_MAX_BYTES,
		PROTO_IIOD_SKIP_MAX_BYTES);
}

/* ---- the model ---- */

/* The model of the current board, rebuilt after a reload. Borrowed until the next turn. */
static const struct srv_iiod_ctx *srv_iiod_model(struct srv_iiod *iiod)
{
	struct srv *srv = iiod->srv;
	struct srv_iiod_ctx_attr attrs[2];
	struct srv_iiod_ctx *ctx;
	char desc[1024];
	struct utsname uts;
	int ret;

	if (iiod->ctx && iiod->ctx_gen == srv->board_gen)
		return iiod->ctx;
	if (uname(&uts) < 0)
		snprintf(uts.sysname, sizeof(uts.sysname), "?");
	snprintf(desc, sizeof(desc), "iiowired %s on %s %s %s: board %s%s%s", IIOWIRE_VERSION,
		 uts.sysname, uts.nodename, uts.release, srv->board->name,
		 srv->board->description[0] ? ", " : "", srv->board->description);
	attrs[0].name = "iiowire,version";
	attrs[0].value = IIOWIRE_VERSION;
	attrs[1].name = "iiowire,board";
	attrs[1].value = srv->board->name;
	ret = srv_iiod_ctx_create(srv->board->reg, desc, attrs, 2, &ctx);
	if (ret < 0) {
		srv_err(&srv->log, "iiod: cannot describe the board: %s", strerror(-ret));
		return NULL;
	}
	srv_iiod_ctx_destroy(iiod->ctx);
	iiod->ctx = ctx;
	iiod->ctx_gen = srv->board_gen;
	return ctx;
}

/* ---- output ---- */

static size_t srv_iiod_queued(const struct srv_iiod_session *s)
{
	return s->out.len + (s->writing ? s->tcp.write_queue_size : 0);
}

static void srv_iiod_code(struct srv_iiod_session *s, long long code)
{
	if (proto_iiod_reply_code(&s->out, code))
		s->broken = true;
	if (code < 0)
		s->iiod->srv->stats.errors++;
}

/* Close once a finishing or half-closed session has nothing left to do. */
static void srv_iiod_check_done(struct srv_iiod_session *s)
{
	if (s->closing || (!s->eof && !s->close_after_flush))
		return;
	if (s->io || s->writing || s->out.len)
		return;
	if (!s->close_after_flush && (s->deferred || !s->eof_done))
		return;
	srv_iiod_session_close(s);
}

static void srv_iiod_write_cb(uv_write_t *req, int status)
{
	struct srv_iiod_session *s = srv_container_of(req, struct srv_iiod_session, wreq);

	free(s->wdata);
	s->wdata = NULL;
	s->writing = false;
	if (s->closing)
		return;
	if (status < 0) {
		srv_debug(&s->iiod->srv->log, "iiod session %llu (%s): write: %s",
			  (unsigned long long)s->id, s->peer, uv_strerror(status));
		srv_iiod_session_close(s);
		return;
	}
	srv_iiod_flush(s);
	if (!s->closing && srv_iiod_queued(s) < SRV_OUT_RESUME_BYTES)
		srv_iiod_resume(s);
}

static void srv_iiod_flush(struct srv_iiod_session *s)
{
	struct srv *srv = s->iiod->srv;
	int ret;

	if (s->closing)
		return;
	if (s->broken) {
		srv_warn(&srv->log, "iiod session %llu (%s): out of memory, closing",
			 (unsigned long long)s->id, s->peer);
		srv_iiod_session_close(s);
		return;
	}
	if (!s->writing && s->out.len) {
		ret = srv_out_send((uv_stream_t *)&s->tcp, &s->out, &s->wreq, srv_iiod_write_cb,
				   &s->wdata, &srv->stats.bytes_out);
		if (ret < 0) {
			srv_debug(&srv->log, "iiod session %llu (%s): write: %s",
				  (unsigned long long)s->id, s->peer, uv_strerror(ret));
			srv_iiod_session_close(s);
			return;
		}
		s->writing = ret > 0;
	}
	if (srv_iiod_queued(s) > SRV_OUT_HARD_BYTES) {
		srv_warn(&srv->log, "iiod session %llu (%s): %zu bytes of output queued, closing",
			 (unsigned long long)s->id, s->peer, srv_iiod_queued(s));
		srv_iiod_session_close(s);
		return;
	}
	srv_iiod_check_done(s);
}

/* Stop taking requests; answer what is in flight, flush, then close. */
static void srv_iiod_finish(struct srv_iiod_session *s)
{
	s->close_after_flush = true;
	if (s->reading) {
		uv_read_stop((uv_stream_t *)&s->tcp);
		s->reading = false;
	}
	free(s->deferred);
	s->deferred = NULL;
	s->deferred_len = 0;
}

/* ---- attribute I/O ---- */

/* The device I/O itself; the only code a bus worker runs. Touches only @io. */
static void srv_iiod_io_run(struct srv_iiod_io *io, struct proto_buf *out)
{
	struct proto_buf all;
	const char *v;
	size_t off, vlen, start = out->len;
	ssize_t n;
	int i, ret = 0, first_err = 0;

	if (!io->write && !io->all) {
		n = iio_attr_read(io->dev, io->one, io->val, sizeof(io->val));
		ret = n < 0 ? proto_iiod_reply_code(out, n) :
			proto_iiod_reply_value(out, io->val, (size_t)n);
	} else if (!io->write) {
		/* every value as a read of one would give it: text, its newline a NUL */
		proto_buf_init(&all);
		for (i = 0; i < io->nattrs && !ret; i++) {
			n = iio_attr_read(io->dev, io->attrs[i], io->val, sizeof(io->val) - 1);
			if (n > 0 && io->val[n - 1] == '\n')
				n--;
			if (n >= 0)
				io->val[n++] = '\0';
			ret = proto_iiod_all_append(&all, (long)n, io->val);
		}
		if (!ret)
			ret = proto_iiod_reply_data(out, all.data, all.len);
		proto_buf_fini(&all);
	} else if (!io->all) {
		vlen = proto_iiod_value_len(io->wbuf, io->wlen);
		ret = iio_attr_write(io->dev, io->one, io->wbuf, vlen);
		ret = proto_iiod_reply_code(out, ret < 0 ? ret : (long long)io->wlen);
	} else {
		/* the whole layout is checked before anything is written */
		off = 0;
		for (i = 0; i < io->nattrs && !ret; i++)
			ret = proto_iiod_all_next(io->wbuf, io->wlen, &off, &v, &vlen);
		if (ret || off != io->wlen) {
			ret = proto_iiod_reply_code(out, -EINVAL);
		} else {
			off = 0;
			for (i = 0; i < io->nattrs; i++) {
				proto_iiod_all_next(io->wbuf, io->wlen, &off, &v, &vlen);
				if (!vlen)
					continue;
				ret = iio_attr_write(io->dev, io->attrs[i], v,
						     proto_iiod_value_len(v, vlen));
				if (ret < 0 && !first_err)
					first_err = ret;
			}
			ret = proto_iiod_reply_code(out, first_err ? first_err :
						    (long long)io->wlen);
		}
	}
	if (ret)
		proto_buf_truncate(out, start);	/* -ENOMEM: no reply at all marks it */
}

static void srv_iiod_io_free(struct srv_iiod_io *io)
{
	if (io->attrs != &io->one)
		free(io->attrs);
	free(io->wbuf);
	proto_buf_fini(&io->reply);
	iio_device_put(io->dev);
	free(io);
}

static void srv_iiod_io_job_run(struct srv_job *job)
{
	struct srv_iiod_io *io = srv_container_of(job, struct srv_iiod_io, job);

	srv_iiod_io_run(io, &io->reply);
}

static void srv_iiod_io_job_done(struct srv_job *job, int status)
{
	struct srv_iiod_io *io = srv_container_of(job, struct srv_iiod_io, job);
	struct srv_iiod_session *s = io->s;

	if (!s)
		return;		/* the session closed; the result has nowhere to go */
	io->s = NULL;
	s->io = NULL;
	if (status < 0)
		srv_iiod_code(s, status);	/* -ETIMEDOUT, or -ECANCELED at shutdown */
	else if (!io->reply.len || proto_buf_append(&s->out, io->reply.data, io->reply.len))
		s->broken = true;
	srv_iiod_flush(s);
	srv_iiod_resume(s);
}

static void srv_iiod_io_job_fini(struct srv_job *job)
{
	srv_iiod_io_free(srv_container_of(job, struct srv_iiod_io, job));
}

/* Run @io now or on its bus; @io is consumed either way. */
static void srv_iiod_io_start(struct srv_iiod_session *s, struct srv_iiod_io *io)
{
	struct srv *srv = s->iiod->srv;
	struct srv_busq *q;
	size_t start = s->out.len;
	int ret;

	ret = srv_dispatch_route(srv, io->dev, &q);
	if (ret < 0) {
		srv_iiod_code(s, ret);
		srv_iiod_io_free(io);
		return;
	}
	if (!q) {
		srv_iiod_io_run(io, &s->out);
		if (s->out.len == start)
			s->broken = true;
		srv_iiod_io_free(io);
		return;
	}
	io->job.run = srv_iiod_io_job_run;
	io->job.done = srv_iiod_io_job_done;
	io->job.fini = srv_iiod_io_job_fini;
	io->job.data = NULL;
	io->s = s;
	ret = srv_busq_submit(q, &io->job);
	if (ret < 0) {
		srv_iiod_code(s, ret);
		srv_iiod_io_free(io);
		return;
	}
	s->io = io;	/* no further request is read until it is answered */
}

/*
 * Find what a READ or WRITE names and build its I/O.
 * Return: the I/O (owned), or NULL with *@err set: -ENODEV (device),
 * -ENXIO (channel), -ENOENT (attribute), -ENOMEM.
 */
static struct srv_iiod_io *srv_iiod_io_make(struct srv_iiod_session *s,
					    const struct proto_iiod_cmd *cmd, int *err)
{
	const struct srv_iiod_ctx *ctx = srv_iiod_model(s->iiod);
	const struct srv_iiod_dev *d;
	const struct srv_iiod_chan *c = NULL;
	const struct iio_attr *one = NULL;
	struct srv_iiod_io *io;
	int i, n = 0;

	*err = -ENOMEM;
	if (!ctx)
		return NULL;
	*err = -ENODEV;
	d = srv_iiod_ctx_find_dev(ctx, cmd->device);
	if (!d)
		return NULL;
	switch (cmd->target) {
	case PROTO_IIOD_TARGET_CHANNEL:
		*err = -ENXIO;
		c = srv_iiod_dev_find_chan(d, cmd->channel, cmd->output);
		if (!c)
			return NULL;
		*err = -ENOENT;
		if (!cmd->all && !(one = srv_iiod_chan_find_attr(c, cmd->attr)))
			return NULL;
		n = c->nattrs;
		break;
	case PROTO_IIOD_TARGET_DEVICE:
		*err = -ENOENT;
		if (!cmd->all && !(one = srv_iiod_dev_find_attr(d, cmd->attr)))
			return NULL;
		n = d->nattrs;
		break;
	default:
		/* iiowire has no debugfs and no buffers: no such attribute, an empty "all" */
		*err = -ENOENT;
		if (!cmd->all)
			return NULL;
		n = 0;
		break;
	}
	*err = -ENOMEM;
	io = calloc(1, sizeof(*io));
	if (!io)
		return NULL;
	io->dev = iio_device_get(d->dev);
	io->write = cmd->op == PROTO_IIOD_OP_WRITE;
	io->all = cmd->all;
	io->one = one;
	io->attrs = &io->one;
	io->nattrs = 1;
	proto_buf_init(&io->reply);
	if (cmd->all) {
		io->attrs = calloc((size_t)(n ? n : 1), sizeof(*io->attrs));
		if (!io->attrs) {
			io->attrs = &io->one;
			srv_iiod_io_free(io);
			return NULL;
		}
		for (i = 0; i < n; i++)
			io->attrs[i] = c ? c->attrs[i].attr : d->attrs[i];
		io->nattrs = n;
	}
	return io;
}

/* ---- requests ---- */

/* Requests that name a device iiowire cannot serve yet: -ENODEV, or @err. */
static void srv_iiod_device_or(struct srv_iiod_session *s, const struct proto_iiod_cmd *cmd,
			       int err)
{
	const struct srv_iiod_ctx *ctx = srv_iiod_model(s->iiod);

	if (!ctx)
		srv_iiod_code(s, -ENOMEM);
	else if (!srv_iiod_ctx_find_dev(ctx, cmd->device))
		srv_iiod_code(s, -ENODEV);
	else
		srv_iiod_code(s, err);
}

static void srv_iiod_print(struct srv_iiod_session *s)
{
	const struct srv_iiod_ctx *ctx = srv_iiod_model(s->iiod);

	if (!ctx) {
		srv_iiod_code(s, -ENOMEM);
		return;
	}
	if (proto_iiod_reply_data(&s->out, ctx->xml, ctx->xml_len))
		s->broken = true;
}

static void srv_iiod_read(struct srv_iiod_session *s, const struct proto_iiod_cmd *cmd)
{
	struct srv_iiod_io *io;
	int err;

	io = srv_iiod_io_make(s, cmd, &err);
	if (!io) {
		srv_iiod_code(s, err);
		return;
	}
	srv_iiod_io_start(s, io);
}

/* Does --allow-write let every writable attribute of @io be written? */
static bool srv_iiod_write_allowed(const struct srv_iiod_session *s, const struct srv_iiod_io *io)
{
	int i;

	for (i = 0; i < io->nattrs; i++)
		if ((io->attrs[i]->mode & 0222) &&
		    !srv_acl_may_write(&s->iiod->srv->cfg, io->dev, io->attrs[i]->name))
			return false;
	return true;
}

/* The WRITE's payload is all in (or skipped): answer it. */
static void srv_iiod_write(struct srv_iiod_session *s)
{
	struct srv_iiod_io *io;
	int err = s->werr;

	s->in_payload = false;
	if (!err) {
		io = srv_iiod_io_make(s, &s->wcmd, &err);
		if (io && !srv_iiod_write_allowed(s, io)) {
			srv_iiod_io_free(io);
			io = NULL;
			err = -EACCES;
		}
		if (io) {
			io->wbuf = s->wbuf;
			io->wlen = s->wlen;
			s->wbuf = NULL;
			s->wlen = 0;
			srv_iiod_io_start(s, io);
			return;
		}
	}
	free(s->wbuf);
	s->wbuf = NULL;
	s->wlen = 0;
	srv_iiod_code(s, err);
}

/*
 * A WRITE line (or one that starts like it): its payload follows whatever
 * the outcome. @ret: the parse result.
 */
static void srv_iiod_write_begin(struct srv_iiod_session *s, const struct proto_iiod_cmd *cmd,
				 int ret)
{
	struct srv *srv = s->iiod->srv;

	s->wcmd = *cmd;
	s->wleft = cmd->payload;
	s->wlen = 0;
	s->werr = ret ? -EINVAL : 0;
	if (!s->werr && srv->cfg.read_only)
		s->werr = -EACCES;
	if (cmd->payload > PROTO_IIOD_SKIP_MAX_BYTES) {
		srv_info(&srv->log, "iiod session %llu (%s): WRITE of %llu bytes (limit %d), "
			 "closing", (unsigned long long)s->id, s->peer,
			 (unsigned long long)cmd->payload, PROTO_IIOD_SKIP_MAX_BYTES);
		srv_iiod_code(s, -EFBIG);
		srv_iiod_finish(s);
		return;
	}
	if (cmd->payload > PROTO_IIOD_WRITE_MAX_BYTES && !s->werr)
		s->werr = -EFBIG;
	if (!s->werr && cmd->payload) {
		s->wbuf = malloc((size_t)cmd->payload);
		if (!s->wbuf)
			s->werr = -ENOMEM;
	}
	s->in_payload = true;
	if (!s->wleft)
		srv_iiod_write(s);
}

static void srv_iiod_line(struct srv_iiod_session *s, const char *line, size_t len)
{
	struct srv *srv = s->iiod->srv;
	struct proto_iiod_cmd cmd;
	int ret;

	ret = proto_iiod_parse(line, len, &cmd);
	if (cmd.op == PROTO_IIOD_OP_NONE && !ret)
		return;		/* a blank line asks nothing and gets nothing */
	srv->stats.requests++;
	s->last_request_ms = uv_now(&srv->loop);
	if (cmd.op == PROTO_IIOD_OP_WRITE && (cmd.payload || !ret)) {
		srv_iiod_write_begin(s, &cmd, ret);
		return;
	}
	if (ret < 0) {
		srv_iiod_code(s, -EINVAL);
		return;
	}
	switch (cmd.op) {
	case PROTO_IIOD_OP_HELP:
		if (proto_iiod_reply_help(&s->out))
			s->broken = true;
		break;
	case PROTO_IIOD_OP_EXIT:
		srv_iiod_finish(s);
		break;
	case PROTO_IIOD_OP_VERSION:
		if (proto_iiod_reply_version(&s->out))
			s->broken = true;
		break;
	case PROTO_IIOD_OP_PRINT:
		srv_iiod_print(s);
		break;
	case PROTO_IIOD_OP_TIMEOUT:
		/* bus waits are bounded by --io-timeout-ms, for every client alike */
		srv_iiod_code(s, 0);
		break;
	case PROTO_IIOD_OP_READ:
		srv_iiod_read(s, &cmd);
		break;
	case PROTO_IIOD_OP_GETTRIG:
	case PROTO_IIOD_OP_SETTRIG:
		/* no device has trigger/current_trigger */
		srv_iiod_device_or(s, &cmd, -ENOENT);
		break;
	case PROTO_IIOD_OP_SET:
		srv_iiod_device_or(s, &cmd, cmd.num < 1 ? -EINVAL : -ENOSYS);
		break;
	case PROTO_IIOD_OP_OPEN:
	case PROTO_IIOD_OP_CLOSE:
	case PROTO_IIOD_OP_READBUF:
	case PROTO_IIOD_OP_WRITEBUF:
		/* buffered capture does not exist yet */
		srv_iiod_device_or(s, &cmd, -ENOSYS);
		break;
	case PROTO_IIOD_OP_ZPRINT:	/* no zstd: the client falls back to PRINT */
	case PROTO_IIOD_OP_BINARY:	/* text only: a 1.0 client stays on it */
	default:
		srv_iiod_code(s, -EINVAL);
		break;
	}
}

/* ---- input ---- */

static void srv_iiod_alloc_cb(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
	struct srv_iiod_session *s = handle->data;

	(void)suggested;
	/* shared: libuv calls read_cb for this buffer before any other alloc_cb */
	*buf = uv_buf_init(s->iiod->srv->rdbuf, SRV_READ_CHUNK_BYTES);
}

static void srv_iiod_read_start(struct srv_iiod_session *s)
{
	int ret;

	if (s->reading || s->closing || s->eof || s->close_after_flush)
		return;
	ret = uv_read_start((uv_stream_t *)&s->tcp, srv_iiod_alloc_cb, srv_iiod_read_cb);
	if (ret < 0) {
		srv_iiod_session_close(s);
		return;
	}
	s->reading = true;
}

static void srv_iiod_read_stop(struct srv_iiod_session *s)
{
	if (!s->reading)
		return;
	uv_read_stop((uv_stream_t *)&s->tcp);
	s->reading = false;
}

/* Answer what @data holds, one request at a time, as far as the session may go on. */
static void srv_iiod_feed(struct srv_iiod_session *s, const char *data, size_t len)
{
	struct srv *srv = s->iiod->srv;
	const char *line;
	size_t line_len, used, n;
	char *copy;
	int ret;

	s->in_feed = true;
	while (len && !s->closing && !s->close_after_flush && !s->broken) {
		if (s->io || srv_iiod_queued(s) >= SRV_OUT_PAUSE_BYTES)
			break;
		if (s->in_payload) {
			n = s->wleft < len ? (size_t)s->wleft : len;
			if (s->wbuf)
				memcpy(s->wbuf + s->wlen, data, n);
			s->wlen += n;
			s->wleft -= n;
			data += n;
			len -= n;
			if (!s->wleft)
				srv_iiod_write(s);
			continue;
		}
		ret = proto_splitter_next(&s->sp, data, len, &used, &line, &line_len);
		data += used;
		len -= used;
		if (ret == 0)
			break;
		if (ret < 0) {
			srv_info(&srv->log, "iiod session %llu (%s): %s, closing",
				 (unsigned long long)s->id, s->peer, ret == -E2BIG ?
				 "request line too long" : "out of memory");
			srv_iiod_code(s, ret);
			srv_iiod_finish(s);
			break;
		}
		srv_iiod_line(s, line, line_len);
		if (s->out.len >= SRV_WRITE_BURST_BYTES)
			srv_iiod_flush(s);
	}
	if (proto_splitter_pending(&s->sp) || s->in_payload) {
		if (!s->partial_since_ms)
			s->partial_since_ms = uv_now(&srv->loop);
	} else {
		s->partial_since_ms = 0;
	}
	if (len && !s->closing && !s->close_after_flush && !s->broken) {
		/* busy or over the output limit: the rest waits, and so does the socket */
		copy = malloc(len);
		if (!copy) {
			s->broken = true;
		} else {
			memcpy(copy, data, len);
			free(s->deferred);
			s->deferred = copy;
			s->deferred_len = len;
			srv_iiod_read_stop(s);
		}
	}
	s->in_feed = false;
}

/* After EOF, once all input is answered: a last line without its newline counts. */
static void srv_iiod_eof_tail(struct srv_iiod_session *s)
{
	const char *line;
	size_t len;

	if (!s->eof || s->eof_done || s->io || s->deferred || s->close_after_flush || s->closing)
		return;
	s->eof_done = true;
	if (!s->in_payload && proto_splitter_flush(&s->sp, &line, &len) == 1)
		srv_iiod_line(s, line, len);
	s->partial_since_ms = 0;
}

static void srv_iiod_resume(struct srv_iiod_session *s)
{
	char *data;
	size_t len;

	if (s->closing || s->in_feed)
		return;
	if (s->io || srv_iiod_queued(s) >= SRV_OUT_PAUSE_BYTES)
		return;
	if (s->deferred) {
		data = s->deferred;
		len = s->deferred_len;
		s->deferred = NULL;
		s->deferred_len = 0;
		srv_iiod_feed(s, data, len);
		free(data);
		srv_iiod_flush(s);
		if (s->closing)
			return;
	}
	if (!s->deferred && !s->io) {
		if (s->eof) {
			srv_iiod_eof_tail(s);
			srv_iiod_flush(s);
		} else if (!s->iiod->stopping) {
			srv_iiod_read_start(s);
		}
	}
}

static void srv_iiod_read_cb(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
	struct srv_iiod_session *s = stream->data;

	if (nread > 0) {
		s->iiod->srv->stats.bytes_in += (uint64_t)nread;
		srv_iiod_feed(s, buf->base, (size_t)nread);
		srv_iiod_flush(s);
	} else if (nread == UV_EOF) {
		/* libuv stops reading at EOF: a half-closed peer costs nothing more */
		s->eof = true;
		s->reading = false;
		srv_iiod_eof_tail(s);
		srv_iiod_flush(s);
	} else if (nread < 0) {
		srv_debug(&s->iiod->srv->log, "iiod session %llu (%s): %s",
			  (unsigned long long)s->id, s->peer, uv_strerror((int)nread));
		srv_iiod_session_close(s);
	}
}

/* ---- sessions ---- */

static void srv_iiod_session_close_cb(uv_handle_t *handle)
{
	struct srv_iiod_session *s = handle->data;
	struct srv_iiod *iiod = s->iiod;

	srv_list_del(&s->node);
	proto_splitter_fini(&s->sp);
	proto_buf_fini(&s->out);
	free(s);
	srv_iiod_stop_check(iiod);
}

static void srv_iiod_session_close(struct srv_iiod_session *s)
{
	if (s->closing)
		return;
	s->closing = true;
	if (!s->rejected)
		s->iiod->srv->nsessions--;
	srv_debug(&s->iiod->srv->log, "iiod session %llu (%s): closed",
		  (unsigned long long)s->id, s->peer);
	if (s->io) {
		/* it finishes on its bus; its result finds no session */
		s->io->s = NULL;
		s->io = NULL;
	}
	free(s->deferred);
	s->deferred = NULL;
	free(s->wbuf);
	s->wbuf = NULL;
	/* the splitter goes in the close callback: a feed loop may still be on this line */
	uv_close((uv_handle_t *)&s->tcp, srv_iiod_session_close_cb);
}

static void srv_iiod_peer(struct srv_iiod_session *s)
{
	struct sockaddr_storage ss;
	int len = sizeof(ss);
	char host[48];

	snprintf(s->peer, sizeof(s->peer), "?");
	if (uv_tcp_getpeername(&s->tcp, (struct sockaddr *)&ss, &len) < 0)
		return;
	if (ss.ss_family == AF_INET6) {
		uv_ip6_name((struct sockaddr_in6 *)&ss, host, sizeof(host));
		snprintf(s->peer, sizeof(s->peer), "[%s]:%u", host,
			 ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	} else if (ss.ss_family == AF_INET) {
		uv_ip4_name((struct sockaddr_in *)&ss, host, sizeof(host));
		snprintf(s->peer, sizeof(s->peer), "%s:%u", host,
			 ntohs(((struct sockaddr_in *)&ss)->sin_port));
	}
}

static void srv_iiod_accept(struct srv_iiod_listener *l)
{
	struct srv_iiod *iiod = l->iiod;
	struct srv *srv = iiod->srv;
	struct srv_iiod_session *s;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s) {
		srv_err(&srv->log, "iiod accept: out of memory");
		return;
	}
	s->iiod = iiod;
	srv_list_init(&s->node);
	proto_splitter_init(&s->sp, PROTO_IIOD_LINE_MAX_BYTES);
	proto_buf_init(&s->out);
	ret = uv_tcp_init(&srv->loop, &s->tcp);
	if (ret < 0) {
		srv_err(&srv->log, "iiod accept: %s", uv_strerror(ret));
		free(s);
		return;
	}
	s->tcp.data = s;
	s->id = ++iiod->next_id;
	srv_list_add_tail(&iiod->sessions, &s->node);
	s->rejected = true;	/* not counted until it is in */
	ret = uv_accept((uv_stream_t *)&l->tcp, (uv_stream_t *)&s->tcp);
	if (ret < 0) {
		srv_iiod_session_close(s);
		return;
	}
	srv_iiod_peer(s);
	uv_tcp_nodelay(&s->tcp, 1);
	uv_tcp_keepalive(&s->tcp, 1, 60);
	if (srv->nsessions >= srv->cfg.max_clients) {
		/* the client takes this as the answer to its first request (PRINT) */
		srv->stats.rejected++;
		srv_info(&srv->log, "iiod session %llu (%s): refused, %u clients already "
			 "(--max-clients)", (unsigned long long)s->id, s->peer, srv->nsessions);
		srv_iiod_code(s, -EBUSY);
		srv_iiod_finish(s);
		srv_iiod_flush(s);
		return;
	}
	s->rejected = false;
	srv->nsessions++;
	srv->stats.connections++;
	s->last_request_ms = uv_now(&srv->loop);
	srv_debug(&srv->log, "iiod session %llu (%s): open on %s", (unsigned long long)s->id,
		  s->peer, l->name);
	srv_iiod_read_start(s);
}

/* Timeouts, from the daemon's options: an unfinished line or payload, an idle client. */
static void srv_iiod_sweep_cb(uv_timer_t *timer)
{
	struct srv_iiod *iiod = timer->data;
	const struct srv_config *cfg = &iiod->srv->cfg;
	uint64_t now = uv_now(timer->loop);
	struct srv_list *pos, *tmp;
	struct srv_iiod_session *s;

	if (iiod->srv->stopping && !iiod->stopping) {
		/* a signal that came before our own handlers were set */
		srv_iiod_stop(iiod);
		return;
	}
	srv_list_for_each_safe(pos, tmp, &iiod->sessions) {
		s = srv_container_of(pos, struct srv_iiod_session, node);
		if (s->closing || s->close_after_flush)
			continue;
		if (cfg->line_timeout_ms && s->partial_since_ms && !s->io &&
		    now - s->partial_since_ms >= cfg->line_timeout_ms) {
			srv_info(&iiod->srv->log, "iiod session %llu (%s): request unfinished for "
				 "%u ms, closing", (unsigned long long)s->id, s->peer,
				 cfg->line_timeout_ms);
			srv_iiod_code(s, -ETIMEDOUT);
			srv_iiod_finish(s);
			srv_iiod_flush(s);
		} else if (cfg->idle_timeout_ms && !s->io &&
			   now - s->last_request_ms >= cfg->idle_timeout_ms) {
			srv_info(&iiod->srv->log, "iiod session %llu (%s): idle for %u ms, closing",
				 (unsigned long long)s->id, s->peer, cfg->idle_timeout_ms);
			srv_iiod_finish(s);
			srv_iiod_flush(s);
		}
	}
}

/* ---- listeners ---- */

static void srv_iiod_connection_cb(uv_stream_t *server, int status)
{
	struct srv_iiod_listener *l = server->data;

	if (status < 0) {
		srv_warn(&l->iiod->srv->log, "iiod accept on %s: %s", l->name,
			 uv_strerror(status));
		return;
	}
	srv_iiod_accept(l);
}

static void srv_iiod_listener_close_cb(uv_handle_t *handle)
{
	struct srv_iiod_listener *l = handle->data;
	struct srv_iiod *iiod = l->iiod;

	free(l);
	srv_iiod_stop_check(iiod);
}

static void srv_iiod_listener_close(struct srv_iiod_listener *l)
{
	srv_list_del(&l->node);
	uv_close((uv_handle_t *)&l->tcp, srv_iiod_listener_close_cb);
}

static void srv_iiod_listener_name(struct srv_iiod_listener *l)
{
	struct sockaddr_storage ss;
	int len = sizeof(ss);
	char host[48] = "?";

	if (uv_tcp_getsockname(&l->tcp, (struct sockaddr *)&ss, &len) < 0)
		return;
	if (ss.ss_family == AF_INET6) {
		uv_ip6_name((struct sockaddr_in6 *)&ss, host, sizeof(host));
		snprintf(l->name, sizeof(l->name), "[%s]:%u", host,
			 ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	} else {
		uv_ip4_name((struct sockaddr_in *)&ss, host, sizeof(host));
		snprintf(l->name, sizeof(l->name), "%s:%u", host,
			 ntohs(((struct sockaddr_in *)&ss)->sin_port));
	}
}

static bool srv_iiod_unavailable(int ret)
{
	return ret == UV_EADDRNOTAVAIL || ret == UV_EAFNOSUPPORT;
}

/*
 * Bind every address @host resolves to (at start, before the loop runs:
 * getaddrinfo may block). @quiet: an address family the host lacks is no
 * error. Return: listeners opened (>= 0), or -errno.
 */
static int srv_iiod_listen_host(struct srv_iiod *iiod, const char *host, const char *port,
				bool quiet)
{
	struct addrinfo hints = {
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	};
	struct srv *srv = iiod->srv;
	struct addrinfo *res, *ai;
	struct srv_iiod_listener *l;
	int ret, opened = 0;

	ret = getaddrinfo(strcmp(host, "*") ? host : NULL, port, &hints, &res);
	if (ret) {
		srv_err(&srv->log, "--iiod-listen %s:%s: %s", host, port, gai_strerror(ret));
		return -EINVAL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		l = calloc(1, sizeof(*l));
		if (!l) {
			ret = -ENOMEM;
			break;
		}
		l->iiod = iiod;
		srv_list_init(&l->node);
		snprintf(l->name, sizeof(l->name), "%s:%s", host, port);
		ret = uv_tcp_init_ex(&srv->loop, &l->tcp, (unsigned int)ai->ai_family);
		if (ret < 0) {
			free(l);
			if (quiet && srv_iiod_unavailable(ret)) {
				ret = 0;
				continue;
			}
			break;
		}
		l->tcp.data = l;
		srv_list_add_tail(&iiod->listeners, &l->node);
		ret = uv_tcp_bind(&l->tcp, ai->ai_addr,
				  ai->ai_family == AF_INET6 ? UV_TCP_IPV6ONLY : 0);
		if (ret == 0)
			ret = uv_listen((uv_stream_t *)&l->tcp, SRV_LISTEN_BACKLOG,
					srv_iiod_connection_cb);
		if (ret < 0) {
			srv_iiod_listener_close(l);
			if (quiet && srv_iiod_unavailable(ret)) {
				ret = 0;
				continue;
			}
			break;
		}
		srv_iiod_listener_name(l);
		srv_info(&srv->log, "listening for libiio (iiod) clients on %s", l->name);
		opened++;
		ret = 0;
	}
	freeaddrinfo(res);
	if (ret < 0) {
		srv_err(&srv->log, "--iiod-listen %s:%s: %s", host, port, uv_strerror(ret));
		return ret;
	}
	return opened;
}

static int srv_iiod_listen(struct srv_iiod *iiod, const char *spec)
{
	char host[256], port[8];
	int ret, opened;

	if (srv_iiod_split(spec, host, sizeof(host), port, sizeof(port)) < 0)
		return -EINVAL;
	if (host[0])
		return srv_iiod_listen_host(iiod, host, port, false);
	/* no host: loopback only, both families when the host has them */
	opened = srv_iiod_listen_host(iiod, "127.0.0.1", port, false);
	if (opened < 0)
		return opened;
	ret = srv_iiod_listen_host(iiod, "::1", port, true);
	return ret < 0 ? ret : opened + ret;
}

/* ---- life cycle ---- */

static void srv_iiod_handle_close_cb(uv_handle_t *handle)
{
	struct srv_iiod *iiod = handle->data;

	iiod->open_handles--;
}

/* Once stopping and nothing is left to serve: close our own handles, so the loop can end. */
static void srv_iiod_stop_check(struct srv_iiod *iiod)
{
	if (!iiod->stopping || iiod->handles_closing)
		return;
	if (!srv_list_empty(&iiod->sessions) || !srv_list_empty(&iiod->listeners))
		return;
	iiod->handles_closing = true;
	uv_close((uv_handle_t *)&iiod->sig_term, srv_iiod_handle_close_cb);
	uv_close((uv_handle_t *)&iiod->sig_int, srv_iiod_handle_close_cb);
	uv_close((uv_handle_t *)&iiod->sweep, srv_iiod_handle_close_cb);
	uv_close((uv_handle_t *)&iiod->grace, srv_iiod_handle_close_cb);
}

static void srv_iiod_close_sessions(struct srv_iiod *iiod)
{
	struct srv_list *pos, *tmp;

	srv_list_for_each_safe(pos, tmp, &iiod->sessions)
		srv_iiod_session_close(srv_container_of(pos, struct srv_iiod_session, node));
}

static void srv_iiod_grace_cb(uv_timer_t *timer)
{
	srv_iiod_close_sessions(timer->data);
}

/* Stop accepting, let every session answer its request in flight, then close. */
static void srv_iiod_stop(struct srv_iiod *iiod)
{
	struct srv_list *pos, *tmp;
	struct srv_iiod_session *s;

	if (iiod->stopping) {
		/* asked twice: do not wait for anyone */
		srv_iiod_close_sessions(iiod);
		return;
	}
	iiod->stopping = true;
	srv_list_for_each_safe(pos, tmp, &iiod->listeners)
		srv_iiod_listener_close(srv_container_of(pos, struct srv_iiod_listener, node));
	uv_timer_start(&iiod->grace, srv_iiod_grace_cb, SRV_SHUTDOWN_GRACE_MS, 0);
	srv_list_for_each_safe(pos, tmp, &iiod->sessions) {
		s = srv_container_of(pos, struct srv_iiod_session, node);
		if (s->closing)
			continue;
		srv_iiod_finish(s);
		srv_iiod_flush(s);
	}
	srv_iiod_stop_check(iiod);
}

static void srv_iiod_signal_cb(uv_signal_t *handle, int signum)
{
	(void)signum;
	/* the native side got the same signal through its own handle */
	srv_iiod_stop(handle->data);
}

int srv_iiod_start(struct srv *srv, const struct srv_iiod_config *icfg, struct srv_iiod **out)
{
	struct srv_iiod *iiod;
	int i, ret = 0, opened = 0;

	*out = NULL;
	if (!icfg->nlisten)
		return 0;
	iiod = calloc(1, sizeof(*iiod));
	if (!iiod)
		return -ENOMEM;
	iiod->srv = srv;
	iiod->cfg = *icfg;
	srv_list_init(&iiod->listeners);
	srv_list_init(&iiod->sessions);
	uv_signal_init(&srv->loop, &iiod->sig_term);
	uv_signal_init(&srv->loop, &iiod->sig_int);
	uv_timer_init(&srv->loop, &iiod->sweep);
	uv_timer_init(&srv->loop, &iiod->grace);
	iiod->sig_term.data = iiod->sig_int.data = iiod;
	iiod->sweep.data = iiod->grace.data = iiod;
	iiod->open_handles = 4;
	*out = iiod;
	/* the XML is built now, so a board iiod cannot describe fails at start */
	if (!srv_iiod_model(iiod)) {
		ret = -ENOMEM;
		goto err_stop;
	}
	/* signals first: one that comes once a listener is announced must stop it */
	uv_signal_start(&iiod->sig_term, srv_iiod_signal_cb, SIGTERM);
	uv_signal_start(&iiod->sig_int, srv_iiod_signal_cb, SIGINT);
	uv_timer_start(&iiod->sweep, srv_iiod_sweep_cb, SRV_SWEEP_INTERVAL_MS,
		       SRV_SWEEP_INTERVAL_MS);
	/* neither the sweep nor the grace timer keeps the loop alive on its own */
	uv_unref((uv_handle_t *)&iiod->sweep);
	uv_unref((uv_handle_t *)&iiod->grace);
	for (i = 0; i < icfg->nlisten; i++) {
		ret = srv_iiod_listen(iiod, icfg->listen[i]);
		if (ret < 0)
			goto err_stop;
		opened += ret;
	}
	if (!opened) {
		srv_err(&srv->log, "--iiod-listen: no address to listen on");
		ret = -EADDRNOTAVAIL;
		goto err_stop;
	}
	return 0;

err_stop:
	/* what was opened closes; srv_iiod_destroy() frees after the loop ran */
	srv_iiod_stop(iiod);
	return ret;
}

void srv_iiod_destroy(struct srv_iiod *iiod)
{
	if (!iiod)
		return;
	if (iiod->open_handles) {
		/* a handle is still open (the loop did not run): leave the memory to it */
		return;
	}
	srv_iiod_ctx_destroy(iiod->ctx);
	free(iiod);
}
