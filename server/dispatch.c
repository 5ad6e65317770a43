/*
 * dispatch.c - the native protocol's row: request lines to core calls,
 * and their replies.
 *
 * srv_proto_native (at the end) is what a session of a --listen socket
 * speaks: it cuts lines and hands each to srv_dispatch_line(). One
 * handler per op, found in a table indexed by enum proto_op. Handlers for
 * listings read the registry and encode at once. Attribute and consumer
 * I/O (READ, WRITE, CREAD) is described by a struct srv_io that runs either
 * right here on the loop (a device that cannot block) or as a bus job whose
 * reply slot is filled when the worker is done; srv_io_run() is the one
 * piece of code a worker thread executes, and it touches only its srv_io.
 * Devices and consumer channels used by a job are referenced for its whole
 * life, so a board reload in the middle turns into -ENODEV, never into
 * freed memory. STATS is stats.c, AUTH auth.c. Place in the flow: session
 * -> *dispatch* -> core / busq. No socket I/O here; attribute names and
 * the channels an attribute belongs to come from the core, never literals.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl.h"
#include "board.h"
#include "busq.h"
#include "dispatch.h"
#include "dispatch_trig.h"
#include "events.h"
#include "iio_consumer.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "iio_value.h"
#include "session.h"
#include "srv.h"
#include "play.h"
#include "stream.h"
#include "watch.h"

/* Longest "iio:deviceN" we print. */
#define SRV_DEVID_MAX	24

/*
 * struct srv_io - one READ, WRITE or CREAD, on the loop (stack) or on a bus
 * worker (heap, inside a job). Inputs are set on the loop; srv_io_run()
 * fills the outputs; srv_io_reply() encodes them on the loop.
 */
struct srv_io {
	struct srv_job job;
	struct srv_session *s;		/* valid while @slot is set */
	struct srv_slot *slot;		/* cleared by the session if it closes first */
	struct proto_request req;	/* owned copy (async only) */
	const struct proto_request *rq;	/* the request: &req, or the caller's */
	struct iio_dev *dev;		/* READ/WRITE: referenced when async */
	const struct iio_attr *attr;
	struct iio_channel *chan;	/* CREAD: owned */
	unsigned int timeout_ms;
	/* results */
	int ret;
	int type;
	int vals[2];
	size_t len;
	char buf[IIO_VALUE_MAX_BYTES];
};

typedef void (*srv_dispatch_fn)(struct srv_session *s, struct proto_request *req);

/* ---- errors ---- */

static int srv_dispatch_verror(struct srv *srv, struct proto_buf *b,
			       const struct proto_request *req, int err, const char *fmt,
			       va_list ap)
{
	static const struct proto_request text = { .op = PROTO_OP_NONE };
	char msg[PROTO_MSG_MAX_BYTES];

	srv->stats.errors++;
	if (fmt)
		vsnprintf(msg, sizeof(msg), fmt, ap);
	return proto_reply_error(b, req ? req : &text, err, fmt ? msg : NULL);
}

int srv_dispatch_error_to(struct srv *srv, struct proto_buf *b,
				 const struct proto_request *req, int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = srv_dispatch_verror(srv, b, req, err, fmt, ap);
	va_end(ap);
	return ret;
}

void srv_dispatch_error(struct srv_session *s, const struct proto_request *req, int err,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	srv_session_check(s, srv_dispatch_verror(s->srv, srv_session_out(s), req, err, fmt, ap));
	va_end(ap);
}

/* An encoder ran out of memory: the session cannot be answered correctly any more. */
static void srv_dispatch_check(struct srv_session *s, int ret)
{
	srv_session_check(s, ret);
}

/* ---- lookups ---- */

static struct iio_registry *srv_dispatch_reg(struct srv *srv)
{
	return srv->board->reg;
}

static void srv_dispatch_devid(char *buf, size_t len, const struct iio_dev *dev)
{
	snprintf(buf, len, "iio:device%d", iio_device_id(dev));
}

/*
 * The device @req names, or NULL after answering: ENODEV/ENOTUNIQ, or,
 * when @trig and the name is a trigger's (dispatch_trig.c), its answer.
 */
static struct iio_dev *srv_dispatch_lookup(struct srv_session *s, const struct proto_request *req,
					   bool trig)
{
	char cand[PROTO_MSG_MAX_BYTES];
	struct srv_trigdev td;
	struct iio_dev *dev;
	int ret;

	ret = iio_registry_find(srv_dispatch_reg(s->srv), req->device, &dev, cand, sizeof(cand));
	if (ret == -ENOTUNIQ) {
		srv_dispatch_error(s, req, ret, "%s matches several devices: %s", req->device,
				   cand);
		return NULL;
	}
	if (ret < 0 && trig && srv_trigdev_find(s->srv, req->device, &td) &&
	    srv_trigdev_answer(s, req, &td))
		return NULL;
	if (ret < 0) {
		srv_dispatch_error(s, req, -ENODEV, "no device %s", req->device);
		return NULL;
	}
	return dev;
}

/* The device @req names, or NULL after answering ENODEV/ENOTUNIQ (dispatch.h). */
struct iio_dev *srv_dispatch_device(struct srv_session *s, const struct proto_request *req)
{
	return srv_dispatch_lookup(s, req, false);
}

struct iio_dev *srv_dispatch_find_device(struct srv_session *s, const struct proto_request *req)
{
	return srv_dispatch_device(s, req);
}

static const struct iio_attr *srv_dispatch_attr(struct srv_session *s,
						const struct proto_request *req,
						struct iio_dev *dev)
{
	const struct iio_attr *attr = iio_device_attr_find(dev, req->attr);

	if (!attr)
		srv_dispatch_error(s, req, -ENOENT, "%s has no attribute %s", req->device,
				   req->attr);
	return attr;
}

/* The board file's name of the bus @key is ("i2c-0", "spi0"), for STATS and logs. */
static const char *srv_dispatch_bus_name(const struct srv *srv, const void *key,
					 const struct iio_dev *dev)
{
	const struct board *b = srv->board;
	int i;

	for (i = 0; i < b->nbuses; i++)
		if (b->buses[i] == key)
			return b->bus_names[i];
	return dev->hwid[0] ? dev->hwid : dev->name;
}

int srv_dispatch_route(struct srv *srv, struct iio_dev *dev, struct srv_busq **q)
{
	const void *key = iio_device_bus_key(dev);
	struct srv_busq *found;

	*q = NULL;
	if (!key)
		return 0;
	found = srv_busq_find(srv, key);
	if (found && found->depth) {
		*q = found;
		return 0;
	}
	if (!iio_device_may_block(dev))
		return 0;
	return srv_busq_get(srv, key, srv_dispatch_bus_name(srv, key, dev), q);
}

/* ---- attribute and consumer I/O ---- */

/* The device I/O itself; the only code a bus worker runs. Touches only @io. */
static void srv_io_run(struct srv_io *io)
{
	const struct proto_request *rq = io->rq;
	enum iio_chan_type type;
	const char *name;
	ssize_t n;
	int val = 0, val2 = 0, ret;

	io->len = 0;
	switch (rq->op) {
	case PROTO_OP_READ:
		n = iio_attr_read(io->dev, io->attr, io->buf, sizeof(io->buf));
		io->ret = n < 0 ? (int)n : 0;
		io->len = n < 0 ? 0 : (size_t)n;
		return;
	case PROTO_OP_WRITE:
		io->ret = iio_attr_write(io->dev, io->attr, rq->value, strlen(rq->value));
		return;
	case PROTO_OP_CREAD:
		break;
	default:
		io->ret = -EINVAL;
		return;
	}
	switch (rq->what) {
	case PROTO_WHAT_RAW:
		ret = iio_read_channel_raw(io->chan, &val);
		if (ret >= 0)
			ret = 0;
		break;
	case PROTO_WHAT_PROCESSED:
		if (rq->multiplier)
			ret = iio_read_channel_processed_scale(io->chan, &val, rq->multiplier);
		else
			ret = iio_read_channel_processed(io->chan, &val);
		break;
	case PROTO_WHAT_SCALE:
	case PROTO_WHAT_OFFSET:
		if (rq->what == PROTO_WHAT_SCALE)
			ret = iio_read_channel_scale(io->chan, &val, &val2);
		else
			ret = iio_read_channel_offset(io->chan, &val, &val2);
		if (ret < 0)
			break;
		io->type = ret;
		io->vals[0] = val;
		io->vals[1] = val2;
		ret = iio_format_value(io->buf, sizeof(io->buf), io->type, 2, io->vals);
		if (ret >= 0) {
			io->len = (size_t)ret;
			ret = 0;
		}
		io->ret = ret;
		return;
	case PROTO_WHAT_TYPE:
		ret = iio_get_channel_type(io->chan, &type);
		if (ret < 0)
			break;
		name = iio_chan_type_name(type);
		io->len = (size_t)snprintf(io->buf, sizeof(io->buf), "%s", name ? name : "?");
		io->ret = 0;
		return;
	case PROTO_WHAT_LABEL:
		ret = iio_read_channel_label(io->chan, io->buf, sizeof(io->buf));
		if (ret >= 0) {
			io->len = (size_t)ret;
			ret = 0;
		}
		io->ret = ret;
		return;
	default:
		ret = -EINVAL;
		break;
	}
	io->ret = ret;
	if (ret == 0)
		io->len = (size_t)snprintf(io->buf, sizeof(io->buf), "%d", val);
}

/* What the request was about, for error messages: "max1363 in_voltage0_raw". */
static void srv_io_subject(const struct srv_io *io, char *buf, size_t len)
{
	const struct proto_request *rq = io->rq;

	if (rq->op == PROTO_OP_CREAD)
		snprintf(buf, len, "%s %s %s", rq->consumer, rq->channel ? rq->channel : "*",
			 proto_what_name(rq->what));
	else
		snprintf(buf, len, "%s %s", rq->device, rq->attr);
}

/* An attribute's own error (@err < 0) about @subj ("dev attr"), worded as for every device. */
static int srv_dispatch_attr_error_to(struct srv *srv, struct proto_buf *b,
				      const struct proto_request *rq, const char *subj, int err)
{
	const char *msg;

	if (err == -EACCES && rq->op == PROTO_OP_WRITE)
		return srv_dispatch_error_to(srv, b, rq, err, "%s is read-only", subj);
	if (err == -EACCES)
		return srv_dispatch_error_to(srv, b, rq, err, "%s is write-only", subj);
	msg = proto_errno_message(err);
	return srv_dispatch_error_to(srv, b, rq, err, "%s: %s", subj, msg ? msg : "error");
}

void srv_dispatch_attr_error(struct srv_session *s, const struct proto_request *req, int err)
{
	char subj[PROTO_MSG_MAX_BYTES / 2];

	snprintf(subj, sizeof(subj), "%s %s", req->device, req->attr);
	srv_session_check(s, srv_dispatch_attr_error_to(s->srv, srv_session_out(s), req, subj,
							 err));
}

/* Encode @io's outcome (status: 0, or -ETIMEDOUT/-ECANCELED from the bus queue). */
static int srv_io_reply(struct srv *srv, struct proto_buf *b, const struct srv_io *io,
			int status)
{
	const struct proto_request *rq = io->rq;
	char subj[PROTO_MSG_MAX_BYTES / 2];

	if (status == -ETIMEDOUT || status == -ECANCELED || io->ret < 0) {
		srv_io_subject(io, subj, sizeof(subj));
		if (status == -ETIMEDOUT)
			return srv_dispatch_error_to(srv, b, rq, status,
						     "%s: no answer from the bus within %u ms",
						     subj, io->timeout_ms);
		if (status < 0)
			return srv_dispatch_error_to(srv, b, rq, status, "%s: server stopping",
						     subj);
		return srv_dispatch_attr_error_to(srv, b, rq, subj, io->ret);
	}
	if (rq->op == PROTO_OP_WRITE)
		return proto_reply_ok(b, rq);
	if (rq->op == PROTO_OP_CREAD &&
	    (rq->what == PROTO_WHAT_SCALE || rq->what == PROTO_WHAT_OFFSET))
		return proto_reply_iio_value(b, rq, io->buf, io->len, io->type, io->vals[0],
					     io->vals[1]);
	return proto_reply_value(b, rq, io->buf, io->len);
}

static void srv_io_job_run(struct srv_job *job)
{
	srv_io_run(srv_container_of(job, struct srv_io, job));
}

static void srv_io_job_done(struct srv_job *job, int status)
{
	struct srv_io *io = srv_container_of(job, struct srv_io, job);
	struct srv_session *s = io->s;
	struct srv_slot *slot = io->slot;

	if (!slot)
		return;		/* the session closed; the result has nowhere to go */
	srv_session_check(s, srv_io_reply(s->srv, &slot->text, io, status));
	srv_session_slot_done(s, slot);
}

static void srv_io_job_fini(struct srv_job *job)
{
	struct srv_io *io = srv_container_of(job, struct srv_io, job);

	proto_request_fini(&io->req);
	iio_channel_release(io->chan);
	iio_device_put(io->dev);
	free(io);
}

/*
 * Run @io now or on its bus. Takes over io->chan (released either way).
 * @req: moved into the job when it goes to a bus (the caller's copy is then
 * left empty, which proto_request_fini() accepts).
 */
static void srv_io_start(struct srv_session *s, struct proto_request *req, struct srv_io *io)
{
	struct srv *srv = s->srv;
	struct iio_dev *dev = io->chan ? io->chan->indio_dev : io->dev;
	struct srv_busq *q;
	struct srv_io *aio;
	struct srv_slot *slot;
	int ret;

	io->rq = req;
	ret = srv_dispatch_route(srv, dev, &q);
	if (ret < 0) {
		srv_dispatch_error(s, req, ret, "%s: no bus worker", req->device ? req->device :
				   req->consumer);
		goto out_release;
	}
	if (!q) {
		srv_io_run(io);
		srv_dispatch_check(s, srv_io_reply(srv, srv_session_out(s), io, 0));
		goto out_release;
	}
	aio = malloc(sizeof(*aio));
	if (!aio) {
		srv_dispatch_error(s, req, -ENOMEM, NULL);
		goto out_release;
	}
	/* the inputs; srv_io_run() fills the results */
	memcpy(&aio->req, req, sizeof(*req));
	req->store = NULL;	/* moved: the job owns the strings now */
	aio->rq = &aio->req;
	aio->s = s;
	aio->dev = io->dev ? iio_device_get(io->dev) : NULL;
	aio->attr = io->attr;
	aio->chan = io->chan;	/* taken over: released in srv_io_job_fini() */
	aio->timeout_ms = q->timeout_ms;
	aio->job.run = srv_io_job_run;
	aio->job.done = srv_io_job_done;
	aio->job.fini = srv_io_job_fini;
	aio->job.data = NULL;
	slot = srv_session_slot_new(s, &aio->slot);
	if (!slot) {
		srv_dispatch_error(s, aio->rq, -ENOMEM, NULL);
		srv_io_job_fini(&aio->job);
		return;
	}
	ret = srv_busq_submit(q, &aio->job);
	if (ret < 0) {
		char subj[PROTO_MSG_MAX_BYTES / 2];

		srv_io_subject(aio, subj, sizeof(subj));
		srv_dispatch_check(s, srv_dispatch_error_to(srv, &slot->text, aio->rq, ret,
				   ret == -EBUSY ? "%s: bus %s has %d requests queued" :
				   "%s: bus %s stopping", subj, q->name, SRV_BUSQ_DEPTH_MAX));
		srv_session_slot_done(s, slot);
		srv_io_job_fini(&aio->job);
	}
	return;

out_release:
	iio_channel_release(io->chan);
	io->chan = NULL;
}

/* ---- handlers ---- */

/*
 * struct srv_memo - the last text READ line of a session, decoded and looked
 * up. A client polling an attribute sends the same bytes again and again,
 * and neither the decoder's answer nor the registry's can change while the
 * line and the board stay the same; skipping both saves about half of what
 * a READ of an emulated chip costs. Only for devices read on the loop.
 */
struct srv_memo {
	uint64_t gen;			/* srv->reg_gen of @dev */
	struct iio_dev *dev;		/* borrowed: registered while @gen is current */
	const struct iio_attr *attr;
	struct proto_request req;	/* owned */
	size_t len;
	char line[SRV_MEMO_LINE_MAX_BYTES];
};

static void srv_dispatch_session_fini(struct srv_session *s)
{
	if (!s->native.memo)
		return;
	proto_request_fini(&s->native.memo->req);
	free(s->native.memo);
	s->native.memo = NULL;
}

/*
 * A fingerprint of a READ line (its length, first and last 8 bytes): equal
 * for the same line twice in a row, the case the memo is for. A one-shot
 * client then makes no memo, and one that reads attributes in turn does not
 * copy each request into it; memo_hit() compares whole lines.
 */
static uint64_t srv_dispatch_line_print(const char *line, size_t len)
{
	uint64_t head = 0, tail = 0;
	size_t n = len < 8 ? len : 8;

	memcpy(&head, line, n);
	memcpy(&tail, line + len - n, n);
	return (head ^ (tail << 1 | tail >> 63)) + len;
}

/* Keep @req (moved: the caller's copy is left empty) as the session's memo. */
static struct proto_request *srv_dispatch_memo_set(struct srv_session *s, struct proto_request *req,
						   struct iio_dev *dev, const struct iio_attr *attr)
{
	struct srv_memo *m = s->native.memo;
	uint64_t print;

	if (req->flags & PROTO_REQ_JSON || s->native.cur_len > SRV_MEMO_LINE_MAX_BYTES)
		return req;
	print = srv_dispatch_line_print(s->native.cur_line, s->native.cur_len);
	if (print != s->native.memo_print) {
		s->native.memo_print = print;
		return req;
	}
	if (!m) {
		m = malloc(sizeof(*m));
		if (!m)
			return req;	/* only an optimisation: go without */
		s->native.memo = m;
	} else {
		proto_request_fini(&m->req);
	}
	memcpy(&m->req, req, sizeof(*req));
	req->store = NULL;
	memcpy(m->line, s->native.cur_line, s->native.cur_len);
	m->len = s->native.cur_len;
	m->gen = s->srv->reg_gen;
	m->dev = dev;
	m->attr = attr;
	return &m->req;
}

/* Answer @line from the memo if it is the same READ. Return: true if answered. */
static bool srv_dispatch_memo_hit(struct srv_session *s, const char *line, size_t len)
{
	struct srv_memo *m = s->native.memo;
	struct srv_busq *q;
	struct srv_io io;

	if (!m || m->len != len || m->gen != s->srv->reg_gen || memcmp(m->line, line, len))
		return false;
	if (srv_dispatch_route(s->srv, m->dev, &q) < 0 || q)
		return false;	/* its bus is busy now: the full path queues it */
	io.dev = m->dev;
	io.attr = m->attr;
	io.chan = NULL;
	io.rq = &m->req;
	srv_io_run(&io);
	srv_dispatch_check(s, srv_io_reply(s->srv, srv_session_out(s), &io, 0));
	return true;
}

/* READ and WRITE: @io names the request's device attribute; false: answered with the error. */
static bool srv_dispatch_io_target(struct srv_session *s, struct proto_request *req,
				   struct srv_io *io)
{
	io->dev = srv_dispatch_lookup(s, req, true);
	if (!io->dev)
		return false;
	io->attr = srv_dispatch_attr(s, req, io->dev);
	if (!io->attr)
		return false;
	io->chan = NULL;
	return true;
}

static void srv_dispatch_read(struct srv_session *s, struct proto_request *req)
{
	struct srv_busq *q;
	struct srv_io io;

	if (!srv_dispatch_io_target(s, req, &io))
		return;
	if (srv_dispatch_route(s->srv, io.dev, &q) == 0 && !q)
		req = srv_dispatch_memo_set(s, req, io.dev, io.attr);
	srv_io_start(s, req, &io);
}

static void srv_dispatch_write(struct srv_session *s, struct proto_request *req)
{
	struct srv_io io;

	if (s->srv->cfg.read_only) {
		srv_dispatch_error(s, req, -EACCES, "server is read-only (--read-only)");
		return;
	}
	if (!srv_dispatch_io_target(s, req, &io))
		return;
	if (!srv_acl_may_write(&s->srv->cfg, io.dev, io.attr->name)) {
		srv_dispatch_error(s, req, -EACCES, "%s %s: not writable here (--allow-write)",
				   req->device, req->attr);
		return;
	}
	srv_io_start(s, req, &io);
}

/* Does any map name @consumer? (An unknown consumer is not "no channel x of" it.) */
static bool srv_dispatch_consumer_known(const struct iio_registry *reg, const char *consumer)
{
	int i, n = iio_registry_map_count(reg);

	for (i = 0; i < n; i++)
		if (strcmp(iio_registry_map_at(reg, i, NULL)->consumer_dev_name, consumer) == 0)
			return true;
	return false;
}

static void srv_dispatch_cread(struct srv_session *s, struct proto_request *req)
{
	struct srv_io io;
	int ret;

	ret = iio_channel_get(srv_dispatch_reg(s->srv), req->consumer, req->channel, &io.chan);
	if (ret == -ENODEV && !srv_dispatch_consumer_known(srv_dispatch_reg(s->srv), req->consumer)) {
		srv_dispatch_error(s, req, ret, "no consumer %s: no channel map names it",
				   req->consumer);
		return;
	}
	if (ret == -ENODEV) {
		srv_dispatch_error(s, req, ret, "no channel %s of consumer %s",
				   req->channel ? req->channel : "*", req->consumer);
		return;
	}
	if (ret < 0) {
		srv_dispatch_error(s, req, ret,
				   "consumer %s channel %s: map names no provider channel",
				   req->consumer, req->channel ? req->channel : "*");
		return;
	}
	io.dev = NULL;
	io.attr = NULL;
	srv_io_start(s, req, &io);
}

static void srv_dispatch_help(struct srv_session *s, struct proto_request *req)
{
	srv_dispatch_check(s, proto_reply_help(srv_session_out(s), req));
}

static void srv_dispatch_version(struct srv_session *s, struct proto_request *req)
{
	srv_dispatch_check(s, proto_reply_version(srv_session_out(s), req, IIOWIRE_VERSION));
}

static void srv_dispatch_quit(struct srv_session *s, struct proto_request *req)
{
	srv_dispatch_check(s, proto_reply_ok(srv_session_out(s), req));
	srv_session_finish(s);
}

static void srv_dispatch_device_info(struct proto_device_info *info, char *idbuf,
				     const struct iio_dev *dev)
{
	srv_dispatch_devid(idbuf, SRV_DEVID_MAX, dev);
	info->id = idbuf;
	info->name = dev->name;
	info->label = dev->label;
	info->hwid = dev->hwid[0] ? dev->hwid : NULL;
	info->num_channels = -1;
	info->num_attrs = -1;
}

/* A listing failed half way (no memory): cut it off and say so instead. */
static void srv_dispatch_list_failed(struct srv_session *s, struct proto_request *req,
				     struct proto_buf *b, size_t start)
{
	proto_buf_truncate(b, start);
	srv_dispatch_error(s, req, -ENOMEM, NULL);
}

/*
 * A listing of @n items: @item adds item @i to @b (0 or -errno), in order;
 * any failure cuts the whole listing off. The reply's place is taken only
 * now, after the caller's lookups have answered their errors.
 */
static void srv_dispatch_list(struct srv_session *s, struct proto_request *req, int n,
			      int (*item)(struct proto_buf *b, struct proto_request *req,
					  int i, void *ctx),
			      void *ctx)
{
	struct proto_buf *b = srv_session_out(s);
	size_t start = b->len;
	int i, ret;

	ret = proto_list_begin(b, req, n);
	for (i = 0; i < n && !ret; i++)
		ret = item(b, req, i, ctx);
	if (!ret)
		ret = proto_list_end(b, req);
	if (ret)
		srv_dispatch_list_failed(s, req, b, start);
}

static void srv_dispatch_devices(struct srv_session *s, struct proto_request *req)
{
	struct iio_registry *reg = srv_dispatch_reg(s->srv);
	struct proto_buf *b = srv_session_out(s);
	struct proto_device_info info;
	char idbuf[SRV_DEVID_MAX];
	size_t start = b->len;
	int i, n = iio_registry_count(reg), ret;

	ret = proto_list_begin(b, req, n + srv_trigdev_count(s->srv));
	for (i = 0; i < n && !ret; i++) {
		srv_dispatch_device_info(&info, idbuf, iio_registry_at(reg, i));
		ret = proto_list_device(b, req, i, &info);
	}
	if (!ret)	/* then the triggers, as /sys/bus/iio/devices lists them */
		ret = srv_trigdev_list(s->srv, b, req, n);
	if (!ret)
		ret = proto_list_end(b, req);
	if (ret)
		srv_dispatch_list_failed(s, req, b, start);
}

static void srv_dispatch_device_req(struct srv_session *s, struct proto_request *req)
{
	struct proto_device_info info;
	char idbuf[SRV_DEVID_MAX];
	struct iio_dev *dev;

	dev = srv_dispatch_lookup(s, req, true);
	if (!dev)
		return;
	srv_dispatch_device_info(&info, idbuf, dev);
	info.num_channels = dev->num_channels;
	info.num_attrs = iio_device_attr_count(dev);
	srv_dispatch_check(s, proto_reply_device(srv_session_out(s), req, &info));
}

static unsigned int srv_dispatch_attr_mode(const struct iio_attr *attr)
{
	unsigned int mode = 0;

	if (attr->mode & 0444)
		mode |= PROTO_ATTR_R;
	if (attr->mode & 0222)
		mode |= PROTO_ATTR_W;
	return mode;
}

static int srv_dispatch_attr_item(struct proto_buf *b, struct proto_request *req, int i,
				  void *ctx)
{
	const struct iio_attr *attr = iio_device_attr_at(ctx, i);
	struct proto_attr_info info;

	info.name = attr->name;
	info.mode = srv_dispatch_attr_mode(attr);
	return proto_list_attr(b, req, i, &info);
}

static void srv_dispatch_attrs(struct srv_session *s, struct proto_request *req)
{
	struct iio_dev *dev;

	dev = srv_dispatch_lookup(s, req, true);
	if (!dev)
		return;
	srv_dispatch_list(s, req, iio_device_attr_count(dev), srv_dispatch_attr_item, dev);
}

/* CHANNELS: @names holds a channel's attribute names while it is listed. */
struct srv_dispatch_chans {
	struct iio_dev *dev;
	const char **names;
	int nattrs;
};

static int srv_dispatch_channel_item(struct proto_buf *b, struct proto_request *req, int i,
				     void *ctx)
{
	struct srv_dispatch_chans *c = ctx;
	const struct iio_chan_spec *chan = &c->dev->channels[i];
	struct proto_channel_info info;
	const struct iio_attr *attr;
	int j;

	memset(&info, 0, sizeof(info));
	info.type = iio_chan_type_name(chan->type);
	info.index = chan->indexed ? chan->channel : -1;
	info.modifier = chan->modified ?
		iio_modifier_name((enum iio_modifier)chan->channel2) : NULL;
	info.datasheet_name = chan->datasheet_name;
	info.output = chan->output;
	info.differential = chan->differential;
	info.index2 = chan->differential ? chan->channel2 : -1;
	info.nattrs = 0;
	for (j = 0; j < c->nattrs; j++) {
		attr = iio_device_attr_at(c->dev, j);
		if (iio_chan_has_attr(chan, attr))
			c->names[info.nattrs++] = attr->name;
	}
	info.attrs = c->names;
	return proto_list_channel(b, req, i, &info);
}

static void srv_dispatch_channels(struct srv_session *s, struct proto_request *req)
{
	struct srv_dispatch_chans c;

	c.dev = srv_dispatch_lookup(s, req, true);
	if (!c.dev)
		return;
	c.nattrs = iio_device_attr_count(c.dev);
	c.names = malloc(sizeof(*c.names) * (size_t)(c.nattrs ? c.nattrs : 1));
	if (!c.names) {
		srv_dispatch_error(s, req, -ENOMEM, NULL);
		return;
	}
	srv_dispatch_list(s, req, c.dev->num_channels, srv_dispatch_channel_item, &c);
	free(c.names);
}

static int srv_dispatch_map_item(struct proto_buf *b, struct proto_request *req, int i,
				 void *ctx)
{
	struct iio_dev *prov = NULL;
	const struct iio_map *map = iio_registry_map_at(ctx, i, &prov);
	struct proto_map_info info;
	char idbuf[SRV_DEVID_MAX];

	info.consumer = map->consumer_dev_name;
	info.channel = map->consumer_channel;
	info.datasheet_name = map->adc_channel_label;
	info.provider = map->adc_dev_name;
	info.device = NULL;
	if (prov) {
		srv_dispatch_devid(idbuf, sizeof(idbuf), prov);
		info.device = idbuf;
	}
	return proto_list_map(b, req, i, &info);
}

static void srv_dispatch_maps(struct srv_session *s, struct proto_request *req)
{
	struct iio_registry *reg = srv_dispatch_reg(s->srv);

	srv_dispatch_list(s, req, iio_registry_map_count(reg), srv_dispatch_map_item, reg);
}

static int srv_dispatch_consumer_item(struct proto_buf *b, struct proto_request *req, int i,
				      void *ctx)
{
	const struct iio_channel *chans = ctx;
	struct proto_consumer_info info;
	char idbuf[SRV_DEVID_MAX];

	srv_dispatch_devid(idbuf, sizeof(idbuf), chans[i].indio_dev);
	info.channel = chans[i].consumer_channel;
	info.device = idbuf;
	info.datasheet_name = chans[i].provider_label;
	info.type = iio_chan_type_name(chans[i].channel->type);
	return proto_list_consumer(b, req, i, &info);
}

static void srv_dispatch_consumer(struct srv_session *s, struct proto_request *req)
{
	struct iio_channel *chans;
	int n, ret;

	ret = iio_channel_get_all(srv_dispatch_reg(s->srv), req->consumer, &chans);
	if (ret == -ENODEV) {
		srv_dispatch_error(s, req, ret, "no channel map for consumer %s", req->consumer);
		return;
	}
	if (ret < 0) {
		srv_dispatch_error(s, req, ret, "consumer %s: a map names no provider channel",
				   req->consumer);
		return;
	}
	for (n = 0; chans[n].indio_dev; n++)
		;
	srv_dispatch_list(s, req, n, srv_dispatch_consumer_item, chans);
	iio_channel_release_all(chans);
}

static void srv_dispatch_watch(struct srv_session *s, struct proto_request *req)
{
	srv_watch_request(s, req);
}

static void srv_dispatch_unwatch(struct srv_session *s, struct proto_request *req)
{
	srv_watch_unwatch(s, req);
}

static void srv_dispatch_stream(struct srv_session *s, struct proto_request *req)
{
	srv_stream_request(s, req);
}

static void srv_dispatch_unstream(struct srv_session *s, struct proto_request *req)
{
	srv_stream_unstream(s, req);
}

static void srv_dispatch_streams(struct srv_session *s, struct proto_request *req)
{
	srv_stream_list(s, req);
}

static void srv_dispatch_play(struct srv_session *s, struct proto_request *req)
{
	srv_play_request(s, req);
}

static void srv_dispatch_send(struct srv_session *s, struct proto_request *req)
{
	srv_play_send(s, req);
}

/*
 * The op table. @open: allowed before AUTH when a token is configured.
 */
struct srv_dispatch_row {
	srv_dispatch_fn fn;
	bool open;
};

static const struct srv_dispatch_row srv_dispatch_table[PROTO_OP_COUNT] = {
	[PROTO_OP_HELP] = { srv_dispatch_help, true },
	[PROTO_OP_VERSION] = { srv_dispatch_version, true },
	[PROTO_OP_DEVICES] = { srv_dispatch_devices, false },
	[PROTO_OP_DEVICE] = { srv_dispatch_device_req, false },
	[PROTO_OP_ATTRS] = { srv_dispatch_attrs, false },
	[PROTO_OP_CHANNELS] = { srv_dispatch_channels, false },
	[PROTO_OP_READ] = { srv_dispatch_read, false },
	[PROTO_OP_WRITE] = { srv_dispatch_write, false },
	[PROTO_OP_MAPS] = { srv_dispatch_maps, false },
	[PROTO_OP_CONSUMER] = { srv_dispatch_consumer, false },
	[PROTO_OP_CREAD] = { srv_dispatch_cread, false },
	[PROTO_OP_WATCH] = { srv_dispatch_watch, false },
	[PROTO_OP_UNWATCH] = { srv_dispatch_unwatch, false },
	[PROTO_OP_STATS] = { srv_dispatch_stats, false },
	[PROTO_OP_AUTH] = { srv_dispatch_auth, true },
	[PROTO_OP_QUIT] = { srv_dispatch_quit, true },
	[PROTO_OP_STREAM] = { srv_dispatch_stream, false },
	[PROTO_OP_CSTREAM] = { srv_dispatch_stream, false },
	[PROTO_OP_UNSTREAM] = { srv_dispatch_unstream, false },
	[PROTO_OP_STREAMS] = { srv_dispatch_streams, false },
	[PROTO_OP_SUBSCRIBE] = { srv_events_subscribe, false },
	[PROTO_OP_UNSUBSCRIBE] = { srv_events_unsubscribe, false },
	[PROTO_OP_PLAY] = { srv_dispatch_play, false },
	[PROTO_OP_LOOP] = { srv_dispatch_play, false },
	[PROTO_OP_SEND] = { srv_dispatch_send, false },
};

void srv_dispatch_line(struct srv_session *s, const char *line, size_t len)
{
	struct srv *srv = s->srv;
	const struct srv_dispatch_row *row;
	struct proto_request req;
	char msg[PROTO_MSG_MAX_BYTES];
	int ret;

	if (srv_dispatch_memo_hit(s, line, len)) {
		srv->stats.requests++;
		return;
	}
	msg[0] = '\0';
	ret = proto_request_decode(&req, line, len, msg, sizeof(msg));
	if (ret < 0) {
		srv->stats.requests++;
		srv_dispatch_error(s, &req, ret, msg[0] ? "%s" : NULL, msg);
		/* a SEND not understood: its bytes cannot be told from requests */
		if (req.op == PROTO_OP_SEND && s->proto == &srv_proto_native)
			srv_session_finish(s);
		goto out;
	}
	if (req.op == PROTO_OP_NONE)
		goto out;	/* a blank line asks nothing */
	srv->stats.requests++;
	row = (unsigned int)req.op < PROTO_OP_COUNT ? &srv_dispatch_table[req.op] : NULL;
	if (!row || !row->fn) {
		srv_dispatch_error(s, &req, -ENOSYS, NULL);
		goto out;
	}
	if (srv->auth_token_len && !s->native.authed && !row->open) {
		srv_dispatch_error(s, &req, -EACCES, "authentication required");
		goto out;
	}
	s->native.cur_line = line;
	s->native.cur_len = len;
	row->fn(s, &req);
out:
	proto_request_fini(&req);
}

/* ---- the row ---- */

/* Cut and answer the lines of @data as far as the session may go on. */
static size_t srv_native_feed(struct srv_session *s, const char *data, size_t len)
{
	const char *line;
	size_t left = len, line_len, n;

	while (left && srv_session_take(s)) {
		if (srv_play_in_payload(s)) {	/* a SEND's bytes, not requests */
			n = srv_play_feed(s, data, left);
			data += n;
			left -= n;
			continue;
		}
		if (srv_session_line(s, &data, &left, &line, &line_len) <= 0)
			break;
		srv_dispatch_line(s, line, line_len);
	}
	return len - left;
}

/* A last line without its LF (printf 'devices' | nc -N) is still a request. */
static void srv_native_on_eof(struct srv_session *s)
{
	const char *line;
	size_t len;

	if (proto_splitter_flush(&s->sp, &line, &len) == 1) {
		s->last_request_ms = uv_now(&s->srv->loop);
		srv_dispatch_line(s, line, len);
	}
}

static void srv_native_error(struct srv_session *s, int err, const char *msg)
{
	srv_dispatch_error(s, NULL, err, msg ? "%s" : NULL, msg);
}

void srv_native_open(struct srv_session *s)
{
	srv_list_init(&s->native.watches);
	srv_list_init(&s->native.streams);
	srv_list_init(&s->native.evsubs);
	srv_list_init(&s->native.plays);
}

/* A session with watches or subscriptions is not idle: it receives events. */
bool srv_native_keeps_alive(const struct srv_session *s)
{
	return s->native.nwatches != 0 || s->native.nevsubs != 0;
}

/* Idle: the memo of the last READ is made again by the next one. */
void srv_native_trim(struct srv_session *s)
{
	srv_dispatch_session_fini(s);
}

void srv_native_close(struct srv_session *s)
{
	srv_watch_stop_all(s);
	srv_stream_stop_all(s);
	srv_play_stop_all(s);
	srv_events_session_close(s);
	srv_dispatch_session_fini(s);
}

bool srv_proto_is_native(const struct srv_proto_ops *proto)
{
	return proto == &srv_proto_native || proto == &srv_proto_web;
}

const struct srv_proto_ops srv_proto_native = {
	.name = "",
	.listening = "",
	.line_max = PROTO_LINE_MAX_BYTES, .inflight_max = SRV_SESSION_INFLIGHT_MAX,
	.open = srv_native_open,
	.feed = srv_native_feed,
	.on_eof = srv_native_on_eof,
	.error = srv_native_error,
	.partial = srv_play_in_payload,
	.waiting = srv_play_waiting,
	.keeps_alive = srv_native_keeps_alive,
	.trim = srv_native_trim,
	.close = srv_native_close,
};
