/*
 * iiod_proto.c - the iiod (libiio 0.24) protocol row of a session.
 *
 * A session cuts lines with the splitter, parses them with protocol/iiod.h
 * and answers one request at a time, in order, as iiod does (the row's
 * inflight_max is 1: no further input is taken while a request is on a
 * bus). A WRITE's payload is always consumed: applied up to
 * PROTO_IIOD_WRITE_MAX_BYTES, dropped up to PROTO_IIOD_SKIP_MAX_BYTES,
 * past that the connection closes after the error. Attribute I/O runs on
 * the loop, or on the bus worker (busq.c) for devices that can block, its
 * reply slot filled when the result comes back. iiod 0.24's faults are
 * fixed (PROTOCOL-iiod.md): no busy loop on half-close, EXIT kept even
 * with FIN right behind, names checked, --max-clients, loopback by
 * default. Listening, reading, writing, limits and timeouts are the
 * session's (session.c); nothing here touches a socket.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "acl.h"
#include "board.h"
#include "busq.h"
#include "dispatch.h"
#include "dispatch_trig.h"
#include "iio_buffer.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "iiod.h"
#include "iiod_io.h"
#include "iiod_proto.h"
#include "iiod_xml.h"
#include "iiodb_proto.h"
#include "session.h"
#include "srv.h"
#include "stream_iiod.h"

/* ---- configuration ---- */

int srv_iiod_config_check(const struct srv_config *cfg, char *err, size_t errlen)
{
	if (cfg->niiod_listen && cfg->auth_token_file && !cfg->iiod_unauthenticated) {
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
"libiio clients (iio_info, iio_attr, Python bindings: iiod 0.24's text protocol and,\n"
"after BINARY, libiio 1.0's binary one with events; PROTOCOL-iiod.md):\n"
"      --iiod-listen ADDR    also listen for them on ADDR: PORT or :PORT (loopback:\n"
"                            127.0.0.1 and [::1]), HOST:PORT or [IPV6]:PORT; repeatable;\n"
"                            off by default (iiod's own port is %d)\n"
"      --iiod-unauthenticated  allow --iiod-listen with --auth-token-file (iiod has no\n"
"                            authentication: its clients bypass the token)\n"
"iiod limits: request line %d bytes; WRITE payload %d bytes (more: -EFBIG, the bytes\n"
"are skipped up to %d, past that the connection is closed); --max-clients, --read-only\n"
"(WRITE gets -EACCES), --io-timeout-ms, --line-timeout-ms and --idle-timeout-ms apply.\n"
"libiio 1.0: %d blocks per buffer of at most %d bytes, %d event streams per connection.\n",
		PROTO_IIOD_PORT, PROTO_IIOD_LINE_MAX_BYTES, PROTO_IIOD_WRITE_MAX_BYTES,
		PROTO_IIOD_SKIP_MAX_BYTES, SRV_IIODB_BLOCKS_MAX, SRV_IIODB_BLOCK_MAX_BYTES,
		SRV_IIODB_EVSTREAMS_MAX);
}


/* ---- the model ---- */

/* The model of the current board, rebuilt after a reload. Borrowed until the next turn. */
const struct srv_iiod_ctx *srv_iiod_model(struct srv *srv)
{
	struct srv_iiod_ctx_attr attrs[2];
	struct srv_iiod_ctx *ctx;
	char desc[1024];
	struct utsname uts;
	int ret;

	if (srv->iiod_ctx && srv->iiod_ctx_gen == srv->reg_gen &&
	    srv->iiod_ctx_trig_gen == srv->trig_gen)
		return srv->iiod_ctx;
	if (uname(&uts) < 0)
		snprintf(uts.sysname, sizeof(uts.sysname), "?");
	snprintf(desc, sizeof(desc), "iiowired %s on %s %s %s: board %s%s%s", IIOWIRE_VERSION,
		 uts.sysname, uts.nodename, uts.release, srv->board->name,
		 srv->board->description[0] ? ", " : "", srv->board->description);
	attrs[0].name = "iiowire,version";
	attrs[0].value = IIOWIRE_VERSION;
	attrs[1].name = "iiowire,board";
	attrs[1].value = srv->board->name;
	ret = srv_iiod_ctx_create(srv->board->reg, iio_trigger_ctl_present(srv->board->reg) ?
				  iio_trigger_ctl_attr_names(srv->board->reg) : NULL,
				  desc, attrs, 2, &ctx);
	if (ret < 0) {
		srv_err(&srv->log, "iiod: cannot describe the board: %s", strerror(-ret));
		return NULL;
	}
	srv_iiod_ctx_destroy(srv->iiod_ctx);
	srv->iiod_ctx = ctx;
	srv->iiod_ctx_gen = srv->reg_gen;
	srv->iiod_ctx_trig_gen = srv->trig_gen;
	srv->iiod_model_gen++;
	return ctx;
}

int srv_iiod_start(struct srv *srv)
{
	if (!srv->cfg.niiod_listen)
		return 0;
	/* the XML is built now, so a board iiod cannot describe fails at start */
	return srv_iiod_model(srv) ? 0 : -ENOMEM;
}

void srv_iiod_fini(struct srv *srv)
{
	srv_iiod_ctx_destroy(srv->iiod_ctx);
	srv->iiod_ctx = NULL;
}

/* ---- output ---- */

/* An iiod status line to @b; counted as an error when negative. */
static void srv_iiod_code_to(struct srv_session *s, struct proto_buf *b, long long code)
{
	srv_session_check(s, proto_iiod_reply_code(b, code));
	if (code < 0)
		s->srv->stats.errors++;
}

static void srv_iiod_code(struct srv_session *s, long long code)
{
	srv_iiod_code_to(s, srv_session_out(s), code);
}

/* The row's error: iiod has a code and no text. */
static void srv_iiod_error(struct srv_session *s, int err, const char *msg)
{
	(void)msg;
	srv_iiod_code(s, err);
}

/* ---- attribute I/O ---- */
/*
 * The device I/O itself, one function per kind: the only code a bus worker
 * runs, touching only @io. Each appends its framed answer to @out and
 * returns 0, or -ENOMEM (then nothing it appended stays).
 */
static int srv_iiod_run_settrig(struct srv_iiod_io *io, struct proto_buf *out)
{
	return proto_iiod_reply_code(out, iio_device_set_trigger(io->dev, io->trig));
}

/* GETTRIG from a trigger/current_trigger file of the device's own */
static int srv_iiod_run_gettrig(struct srv_iiod_io *io, struct proto_buf *out)
{
	ssize_t n = iio_attr_read(io->dev, io->one, io->val, sizeof(io->val));

	/* the name without its newline, no NUL; an empty file is no trigger */
	while (n > 0 && (io->val[n - 1] == '\n' || io->val[n - 1] == '\0'))
		n--;
	return n <= 0 ? proto_iiod_reply_code(out, n) :
		proto_iiod_reply_data(out, io->val, (size_t)n);
}

static int srv_iiod_run_read(struct srv_iiod_io *io, struct proto_buf *out)
{
	ssize_t n = iio_attr_read(io->dev, io->one, io->val, sizeof(io->val));

	return n < 0 ? proto_iiod_reply_code(out, n) :
		proto_iiod_reply_value(out, io->val, (size_t)n);
}

/* every value as a read of one would give it: text, its newline a NUL */
static int srv_iiod_run_read_all(struct srv_iiod_io *io, struct proto_buf *out)
{
	struct proto_buf all;
	ssize_t n;
	int i, ret = 0;

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
	return ret;
}

static int srv_iiod_run_write(struct srv_iiod_io *io, struct proto_buf *out)
{
	size_t vlen = proto_iiod_value_len(io->wbuf, io->wlen);
	int ret = iio_attr_write(io->dev, io->one, io->wbuf, vlen);

	return proto_iiod_reply_code(out, ret < 0 ? ret : (long long)io->wlen);
}

/* the whole layout is checked before anything is written */
static int srv_iiod_run_write_all(struct srv_iiod_io *io, struct proto_buf *out)
{
	size_t off = 0, vlen;
	const char *v;
	int i, ret = 0, first_err = 0;

	for (i = 0; i < io->nattrs && !ret; i++)
		ret = proto_iiod_all_next(io->wbuf, io->wlen, &off, &v, &vlen);
	if (ret || off != io->wlen)
		return proto_iiod_reply_code(out, -EINVAL);
	off = 0;
	for (i = 0; i < io->nattrs; i++) {
		proto_iiod_all_next(io->wbuf, io->wlen, &off, &v, &vlen);
		if (!vlen)
			continue;
		ret = iio_attr_write(io->dev, io->attrs[i], v, proto_iiod_value_len(v, vlen));
		if (ret < 0 && !first_err)
			first_err = ret;
	}
	return proto_iiod_reply_code(out, first_err ? first_err : (long long)io->wlen);
}

/*
 * Find what a READ or WRITE names and build its I/O.
 * Return: the I/O (owned), or NULL with *@err set: -ENODEV (device),
 * -ENXIO (channel), -ENOENT (attribute), -ENOMEM.
 */
static struct srv_iiod_io *srv_iiod_io_make(struct srv_session *s,
					    const struct proto_iiod_cmd *cmd, int *err)
{
	const struct srv_iiod_ctx *ctx = srv_iiod_model(s->srv);
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
	case PROTO_IIOD_TARGET_BUFFER:
		/* a mirrored kernel device's buffer/ files; a userspace driver's are the core's */
		*err = -ENOENT;
		if (!cmd->all && !(one = srv_iiod_dev_find_battr(d, cmd->attr)))
			return NULL;
		n = d->nbattrs;
		break;
	default:
		/* iiowire has no debugfs: no such attribute, an empty "all" */
		*err = -ENOENT;
		if (!cmd->all)
			return NULL;
		n = 0;
		break;
	}
	*err = -ENOMEM;
	io = srv_iiod_io_new(d->dev, one);
	if (!io)
		return NULL;
	if (cmd->op == PROTO_IIOD_OP_WRITE)
		io->run = cmd->all ? srv_iiod_run_write_all : srv_iiod_run_write;
	else
		io->run = cmd->all ? srv_iiod_run_read_all : srv_iiod_run_read;
	if (cmd->all) {
		io->attrs = calloc((size_t)(n ? n : 1), sizeof(*io->attrs));
		if (!io->attrs) {
			io->attrs = &io->one;
			srv_iiod_io_free(io);
			return NULL;
		}
		for (i = 0; i < n; i++)
			io->attrs[i] = c ? c->attrs[i].attr :
				cmd->target == PROTO_IIOD_TARGET_BUFFER ? d->battrs[i] : d->attrs[i];
		io->nattrs = n;
	}
	return io;
}

/* ---- requests ---- */

/* Requests that name a device iiowire cannot serve yet: -ENODEV, or @err. */
static void srv_iiod_device_or(struct srv_session *s, const struct proto_iiod_cmd *cmd,
			       int err)
{
	const struct srv_iiod_ctx *ctx = srv_iiod_model(s->srv);

	if (!ctx)
		srv_iiod_code(s, -ENOMEM);
	else if (!srv_iiod_ctx_find_dev(ctx, cmd->device))
		srv_iiod_code(s, -ENODEV);
	else
		srv_iiod_code(s, err);
}

/* A job on one attribute (@a may be NULL); NULL, answered -ENOMEM, if out of memory. */
static struct srv_iiod_io *srv_iiod_io_one(struct srv_session *s, struct iio_dev *dev,
					   const struct iio_attr *a)
{
	struct srv_iiod_io *io = srv_iiod_io_new(dev, a);

	if (!io)
		srv_iiod_code(s, -ENOMEM);
	return io;
}

/*
 * GETTRIG of a device whose trigger is a file of its own (a mirrored kernel
 * device's trigger/current_trigger), read on its worker as iiod reads it.
 * Return: false when @d has no such file.
 */
static bool srv_iiod_gettrig_file(struct srv_session *s, const struct srv_iiod_dev *d)
{
	const struct iio_attr *a = iio_device_attr_find(d->dev, SRV_IIOD_TRIGGER_ATTR);
	struct srv_iiod_io *io;

	if (!a || a->kind == IIO_ATTR_BUFFER)
		return false;	/* none, or the core's (a userspace driver's) */
	io = srv_iiod_io_one(s, d->dev, a);
	if (io) {
		io->run = srv_iiod_run_gettrig;
		srv_iiod_io_start(s, io);
	}
	return true;
}

/*
 * SETTRIG: the core's current_trigger store, routed as the device's files'
 * writes are (srv_dispatch_route(): a kernel device's store waits for the
 * kernel's mlock, held while a buffer enable runs its driver). The request
 * holds a reference: a remove_trigger on the loop meanwhile makes the store
 * answer -ENODEV instead of using a freed trigger.
 */
static void srv_iiod_settrig(struct srv_session *s, const struct srv_iiod_dev *d,
			     const struct proto_iiod_cmd *cmd)
{
	struct iio_trigger *trig;
	struct srv_iiod_io *io;
	int ret;

	ret = srv_iiod_buf_settrig_check(s, d, cmd, &trig);
	if (ret < 0) {
		srv_iiod_code(s, ret);
		return;
	}
	io = srv_iiod_io_one(s, d->dev, NULL);
	if (io) {
		io->run = srv_iiod_run_settrig;
		io->trig = iio_trigger_get(trig);
		srv_iiod_io_start(s, io);
	}
}

/* GETTRIG, SETTRIG, OPEN, CLOSE, READBUF on a known device (stream_iiod.c). */
static void srv_iiod_buffer_cmd(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	const struct srv_iiod_ctx *ctx = srv_iiod_model(s->srv);
	const struct srv_iiod_dev *d = ctx ? srv_iiod_ctx_find_dev(ctx, cmd->device) : NULL;

	struct srv_trigdev td;

	if (!d && cmd->op == PROTO_IIOD_OP_GETTRIG && ctx &&
	    srv_trigdev_find(s->srv, cmd->device, &td)) {
		srv_iiod_code(s, -ENOENT);	/* a trigger device has no trigger of its own */
		return;
	}
	if (!d) {
		srv_iiod_code(s, ctx ? -ENODEV : -ENOMEM);
		return;
	}
	switch (cmd->op) {
	case PROTO_IIOD_OP_GETTRIG:
		if (!srv_iiod_gettrig_file(s, d))
			srv_iiod_buf_gettrig(s, d);
		break;
	case PROTO_IIOD_OP_SETTRIG:
		srv_iiod_settrig(s, d, cmd);
		break;
	case PROTO_IIOD_OP_OPEN:
		srv_iiod_buf_open(s, d, cmd);
		break;
	case PROTO_IIOD_OP_CLOSE:
		srv_iiod_buf_close(s, d);
		break;
	default:
		srv_iiod_buf_readbuf(s, d, cmd);
		break;
	}
}

static void srv_iiod_print(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	const struct srv_iiod_ctx *ctx = srv_iiod_model(s->srv);

	(void)cmd;
	if (!ctx) {
		srv_iiod_code(s, -ENOMEM);
		return;
	}
	srv_session_check(s, proto_iiod_reply_data(srv_session_out(s), ctx->xml, ctx->xml_len));
}

/*
 * A trigger device's file (sampling_frequency), or one of the kernel's
 * iio_sysfs_trigger (add_trigger): on the loop (no bus behind it; a kernel
 * trigger's file is opened O_NONBLOCK, kernel_trig.c). @wbuf NULL for a
 * READ. Return: true when @cmd named one.
 */
static bool srv_iiod_trigger_attr(struct srv_session *s, const struct proto_iiod_cmd *cmd,
				  const char *wbuf, size_t wlen)
{
	char val[IIO_VALUE_MAX_BYTES];
	struct srv_trigdev td;
	int n;

	if ((strncmp(cmd->device, "trigger", 7) && strcmp(cmd->device, SRV_TRIGDEV_SYSFS_CTL)) ||
	    cmd->target != PROTO_IIOD_TARGET_DEVICE || cmd->all ||
	    !srv_trigdev_find(s->srv, cmd->device, &td))
		return false;
	if (!wbuf) {
		n = srv_trigdev_read_file(s->srv, &td, cmd->attr, val, sizeof(val));
		if (n < 0)
			srv_iiod_code(s, n);
		else
			srv_session_check(s, proto_iiod_reply_value(srv_session_out(s), val,
								    (size_t)n));
		return true;
	}
	/* --allow-write names a trigger by triggerN or its name (dispatch_trig.h) */
	if (s->srv->cfg.read_only ||
	    !srv_acl_may_write_named(&s->srv->cfg, td.names, td.nnames, cmd->attr)) {
		srv_iiod_code(s, -EACCES);
		return true;
	}
	snprintf(val, sizeof(val), "%.*s", (int)proto_iiod_value_len(wbuf, wlen), wbuf);
	n = srv_trigdev_write_file(s->srv, &td, cmd->attr, val);
	srv_iiod_code(s, n < 0 ? n : (long long)wlen);
	return true;
}

static void srv_iiod_read(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	struct srv_iiod_io *io;
	int err;

	if (srv_iiod_trigger_attr(s, cmd, NULL, 0))
		return;
	io = srv_iiod_io_make(s, cmd, &err);
	if (!io) {
		srv_iiod_code(s, err);
		return;
	}
	srv_iiod_io_start(s, io);
}

/* Does --allow-write let every writable attribute of @io be written? */
static bool srv_iiod_write_allowed(const struct srv_session *s, const struct srv_iiod_io *io)
{
	int i;

	for (i = 0; i < io->nattrs; i++)
		if ((io->attrs[i]->mode & 0222) &&
		    !srv_acl_may_write(&s->srv->cfg, io->dev, io->attrs[i]->name))
			return false;
	return true;
}

/* The WRITE is answered (or the session closing): drop what it kept. */
static void srv_iiod_write_end(struct srv_session *s)
{
	free(s->iiod.wcmd);
	s->iiod.wcmd = NULL;
	free(s->iiod.wbuf);
	s->iiod.wbuf = NULL;
	s->iiod.wlen = 0;
}

/* The WRITE's payload is all in (or skipped): answer it. */
static void srv_iiod_write(struct srv_session *s)
{
	struct srv_iiod_io *io;
	int err = s->iiod.werr;

	s->iiod.in_payload = false;
	if (!err && s->iiod.wcmd &&
	    srv_iiod_trigger_attr(s, s->iiod.wcmd, s->iiod.wbuf ? s->iiod.wbuf : "", s->iiod.wlen)) {
		srv_iiod_write_end(s);
		return;
	}
	if (!err) {
		io = srv_iiod_io_make(s, s->iiod.wcmd, &err);
		if (io && !srv_iiod_write_allowed(s, io)) {
			srv_iiod_io_free(io);
			io = NULL;
			err = -EACCES;
		}
		if (io) {
			io->wbuf = s->iiod.wbuf;
			io->wlen = s->iiod.wlen;
			s->iiod.wbuf = NULL;
			s->iiod.wlen = 0;
			srv_iiod_write_end(s);
			srv_iiod_io_start(s, io);
			return;
		}
	}
	srv_iiod_write_end(s);
	srv_iiod_code(s, err);
}


/*
 * A WRITE line (or one that starts like it): its payload follows whatever
 * the outcome. @ret: the parse result.
 */
static void srv_iiod_write_begin(struct srv_session *s, const struct proto_iiod_cmd *cmd,
				 int ret)
{
	struct srv *srv = s->srv;

	s->iiod.wleft = cmd->payload;
	s->iiod.wlen = 0;
	s->iiod.werr = ret ? -EINVAL : 0;
	/* kept on the heap for the payload's length only: an idle session stays small */
	s->iiod.wcmd = malloc(sizeof(*cmd));
	if (s->iiod.wcmd)
		*s->iiod.wcmd = *cmd;
	else if (!s->iiod.werr)
		s->iiod.werr = -ENOMEM;
	if (!s->iiod.werr && srv->cfg.read_only)
		s->iiod.werr = -EACCES;
	if (cmd->payload > PROTO_IIOD_SKIP_MAX_BYTES) {
		srv_session_log(SRV_LOG_INFO, s, "WRITE of %llu bytes (limit %d), closing",
				(unsigned long long)cmd->payload, PROTO_IIOD_SKIP_MAX_BYTES);
		srv_iiod_code(s, -EFBIG);
		srv_session_finish(s);
		return;
	}
	if (cmd->payload > PROTO_IIOD_WRITE_MAX_BYTES && !s->iiod.werr)
		s->iiod.werr = -EFBIG;
	if (!s->iiod.werr && cmd->payload) {
		s->iiod.wbuf = malloc((size_t)cmd->payload);
		if (!s->iiod.wbuf)
			s->iiod.werr = -ENOMEM;
	}
	s->iiod.in_payload = true;
	if (!s->iiod.wleft)
		srv_iiod_write(s);
}

static void srv_iiod_help(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	(void)cmd;
	srv_session_check(s, proto_iiod_reply_help(srv_session_out(s)));
}

static void srv_iiod_exit(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	(void)cmd;
	srv_session_finish(s);
}

static void srv_iiod_version(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	(void)cmd;
	srv_session_check(s, proto_iiod_reply_version(srv_session_out(s)));
}

/* bus waits are bounded by --io-timeout-ms; READBUF waits this long */
static void srv_iiod_timeout(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	s->iiod.timeout_ms = cmd->num > UINT32_MAX ? UINT32_MAX : (unsigned int)cmd->num;
	srv_iiod_code(s, 0);
}

/* the reader's queue is the server's: the count changes nothing */
static void srv_iiod_set(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	srv_iiod_device_or(s, cmd, cmd->num < 1 ? -EINVAL : 0);
}

/* BINARY: libiio 1.0's binary protocol from the next byte on (iiodb_proto.c) */
static void srv_iiod_binary(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	(void)cmd;
	/* a connection is one protocol: its 0.24 buffers would have no numbers */
	srv_iiod_code(s, !srv_list_empty(&s->iiod.readers) || s->iiod.in_payload ? -EBUSY :
		      srv_iiodb_begin(s));
}

/* no output buffers */
static void srv_iiod_writebuf(struct srv_session *s, const struct proto_iiod_cmd *cmd)
{
	srv_iiod_device_or(s, cmd, -ENOSYS);
}

/*
 * The iiod row's requests, by op (libiio's responder has such a table). A
 * WRITE with its payload is taken before (srv_iiod_write_begin()); ZPRINT
 * has none and answers -EINVAL (the client falls back to PRINT; a 1.0
 * client asks BINARY first and reads its XML there, zstd-compressed when long).
 */
static void (*const srv_iiod_handlers[PROTO_IIOD_OP_COUNT])(struct srv_session *s,
							    const struct proto_iiod_cmd *cmd) = {
	[PROTO_IIOD_OP_HELP] = srv_iiod_help,
	[PROTO_IIOD_OP_EXIT] = srv_iiod_exit,
	[PROTO_IIOD_OP_VERSION] = srv_iiod_version,
	[PROTO_IIOD_OP_PRINT] = srv_iiod_print,
	[PROTO_IIOD_OP_BINARY] = srv_iiod_binary,
	[PROTO_IIOD_OP_TIMEOUT] = srv_iiod_timeout,
	[PROTO_IIOD_OP_READ] = srv_iiod_read,
	[PROTO_IIOD_OP_GETTRIG] = srv_iiod_buffer_cmd,
	[PROTO_IIOD_OP_SETTRIG] = srv_iiod_buffer_cmd,
	[PROTO_IIOD_OP_OPEN] = srv_iiod_buffer_cmd,
	[PROTO_IIOD_OP_CLOSE] = srv_iiod_buffer_cmd,
	[PROTO_IIOD_OP_READBUF] = srv_iiod_buffer_cmd,
	[PROTO_IIOD_OP_SET] = srv_iiod_set,
	[PROTO_IIOD_OP_WRITEBUF] = srv_iiod_writebuf,
};

/*
 * Answer one request line. Return: true for a WRITEBUF (always refused):
 * its caller closes the connection, as samples may follow it.
 */
static bool srv_iiod_line(struct srv_session *s, const char *line, size_t len)
{
	struct srv *srv = s->srv;
	struct proto_iiod_cmd cmd;
	int ret;

	ret = proto_iiod_parse(line, len, &cmd);
	if (cmd.op == PROTO_IIOD_OP_NONE && !ret)
		return false;	/* a blank line asks nothing and gets nothing */
	srv->stats.requests++;
	if (cmd.op == PROTO_IIOD_OP_WRITE && (cmd.payload || !ret)) {
		srv_iiod_write_begin(s, &cmd, ret);
		return false;
	}
	if (ret < 0) {
		srv_iiod_code(s, -EINVAL);
		return cmd.op == PROTO_IIOD_OP_WRITEBUF;
	}
	if ((unsigned int)cmd.op < PROTO_IIOD_OP_COUNT && srv_iiod_handlers[cmd.op])
		srv_iiod_handlers[cmd.op](s, &cmd);
	else
		srv_iiod_code(s, -EINVAL);
	return cmd.op == PROTO_IIOD_OP_WRITEBUF;
}


/* ---- the row ---- */

/* Answer what @data holds, one request at a time, as far as the session may go on. */
static size_t srv_iiod_feed(struct srv_session *s, const char *data, size_t len)
{
	struct srv_iiod_conn *c = &s->iiod;
	const char *line;
	size_t left = len, line_len, n;

	while (left && srv_session_take(s)) {
		if (c->in_payload) {
			n = c->wleft < left ? (size_t)c->wleft : left;
			if (c->wbuf)
				memcpy(c->wbuf + c->wlen, data, n);
			c->wlen += n;
			c->wleft -= n;
			data += n;
			left -= n;
			if (!c->wleft)
				srv_iiod_write(s);
			continue;
		}
		if (srv_session_line(s, &data, &left, &line, &line_len) <= 0)
			break;
		/*
		 * libiio sends a WRITEBUF's samples only once it has read a
		 * 0 answer, which never comes: whatever follows, behind the
		 * line or in a later packet, is samples sent blind, not
		 * requests. Close after the answer, where iiod 0.24 runs them
		 * as commands; libiio's buffer has a connection of its own.
		 */
		if (srv_iiod_line(s, line, line_len)) {
			srv_session_log(SRV_LOG_INFO, s, "refused WRITEBUF, closing");
			srv_session_finish(s);
			break;
		}
		if (s->proto != &srv_proto_iiod)
			break;	/* BINARY: the rest is the binary row's, from the next turn */
	}
	return len - left;
}

/* After EOF, once all input is answered: a last line without its newline counts. */
static void srv_iiod_on_eof(struct srv_session *s)
{
	const char *line;
	size_t len;

	if (!s->iiod.in_payload && proto_splitter_flush(&s->sp, &line, &len) == 1)
		srv_iiod_line(s, line, len);
}

static bool srv_iiod_partial(const struct srv_session *s)
{
	return s->iiod.in_payload;
}

static void srv_iiod_open(struct srv_session *s)
{
	srv_list_init(&s->iiod.readers);
}

static void srv_iiod_close(struct srv_session *s)
{
	srv_iiod_buf_stop_all(s);
	srv_iiod_write_end(s);
}

const struct srv_proto_ops srv_proto_iiod = {
	.name = "iiod ",
	.listening = "for libiio (iiod) clients ",
	.line_max = PROTO_IIOD_LINE_MAX_BYTES,
	.inflight_max = 1,
	.open = srv_iiod_open,
	.feed = srv_iiod_feed,
	.on_eof = srv_iiod_on_eof,
	.error = srv_iiod_error,
	.partial = srv_iiod_partial,
	.close = srv_iiod_close,
};
