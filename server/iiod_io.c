/*
 * iiod_io.c - the attribute requests of the iiod listener's rows
 * (iiod_io.h): run on the loop for a device whose I/O cannot block, else
 * on its bus worker behind a reply slot, so answers keep the session's
 * order whatever the bus does.
 */
#include <errno.h>
#include <stdlib.h>

#include "dispatch.h"
#include "iio_trigger.h"
#include "iiod.h"
#include "iiod_binary.h"
#include "iiod_io.h"
#include "session.h"
#include "srv.h"

struct srv_iiod_io *srv_iiod_io_new(struct iio_dev *dev, const struct iio_attr *a)
{
	struct srv_iiod_io *io = calloc(1, sizeof(*io));

	if (!io)
		return NULL;
	io->dev = iio_device_get(dev);
	io->one = a;
	io->attrs = &io->one;
	io->nattrs = 1;
	proto_buf_init(&io->reply);
	return io;
}

void srv_iiod_io_free(struct srv_iiod_io *io)
{
	if (io->attrs != &io->one)
		free(io->attrs);
	free(io->wbuf);
	proto_buf_fini(&io->reply);
	iio_device_put(io->dev);
	iio_trigger_put(io->trig);
	free(io);
}

int srv_iiod_io_code(const struct srv_iiod_io *io, struct proto_buf *b, long long code)
{
	if (io->bin)
		return proto_iiodb_reply(b, io->client_id, (int32_t)code, NULL, 0);
	return proto_iiod_reply_code(b, code);
}

/* An error answer that the session counts; out of memory breaks the session. */
static void srv_iiod_io_error(struct srv_session *s, const struct srv_iiod_io *io,
			      struct proto_buf *b, int err)
{
	srv_session_check(s, srv_iiod_io_code(io, b, err));
	s->srv->stats.errors++;
}

static void srv_iiod_io_run(struct srv_iiod_io *io, struct proto_buf *out)
{
	size_t start = out->len;

	if (io->run(io, out))
		proto_buf_truncate(out, start);	/* -ENOMEM: no reply at all marks it */
}

static void srv_iiod_io_job_run(struct srv_job *job)
{
	struct srv_iiod_io *io = srv_container_of(job, struct srv_iiod_io, job);

	srv_iiod_io_run(io, &io->reply);
}

static void srv_iiod_io_job_done(struct srv_job *job, int status)
{
	struct srv_iiod_io *io = srv_container_of(job, struct srv_iiod_io, job);
	struct srv_session *s = io->s;
	struct srv_slot *slot = io->slot;

	if (!slot)
		return;		/* the session closed; the result has nowhere to go */
	if (status < 0)
		srv_iiod_io_error(s, io, &slot->text, status);	/* -ETIMEDOUT, -ECANCELED */
	else if (!io->reply.len || proto_buf_append(&slot->text, io->reply.data, io->reply.len))
		srv_session_broken(s);
	srv_session_slot_done(s, slot);
}

static void srv_iiod_io_job_fini(struct srv_job *job)
{
	srv_iiod_io_free(srv_container_of(job, struct srv_iiod_io, job));
}

void srv_iiod_io_start(struct srv_session *s, struct srv_iiod_io *io)
{
	struct proto_buf *b = srv_session_out(s);
	struct srv_busq *q;
	struct srv_slot *slot;
	size_t start = b->len;
	int ret;

	ret = srv_dispatch_route(s->srv, io->dev, &q);
	if (ret < 0 || !q) {
		if (ret < 0)
			srv_iiod_io_error(s, io, b, ret);
		else
			srv_iiod_io_run(io, b);
		if (!ret && b->len == start)
			srv_session_broken(s);
		srv_iiod_io_free(io);
		return;
	}
	io->job.run = srv_iiod_io_job_run;
	io->job.done = srv_iiod_io_job_done;
	io->job.fini = srv_iiod_io_job_fini;
	io->job.data = NULL;
	io->s = s;
	slot = srv_session_slot_new(s, &io->slot);
	if (!slot) {
		srv_iiod_io_error(s, io, b, -ENOMEM);
		srv_iiod_io_free(io);
		return;
	}
	/* the text row takes no further request until it is answered (inflight_max 1) */
	ret = srv_busq_submit(q, &io->job);
	if (ret < 0) {
		srv_iiod_io_error(s, io, &slot->text, ret);
		srv_session_slot_done(s, slot);
		srv_iiod_io_free(io);
	}
}
