/*
 * stream_priv.h - what stream.c (readers, requests, blocks) and
 * stream_capture.c (captures, trigger timers, bus jobs) share. Loop thread
 * for everything, unless a comment says otherwise.
 */
#ifndef IIOWIRE_SRV_STREAM_PRIV_H
#define IIOWIRE_SRV_STREAM_PRIV_H

#include <stdint.h>
#include <uv.h>

#include "iio_buffer.h"
#include "list.h"
#include "proto.h"
#include "queues.h"
#include "stream.h"
#include "iiod.h"

struct srv;
struct srv_busq;
struct srv_session;
struct srv_poll_job;

/* The module: srv->streams. */
struct srv_streams {
	struct srv *srv;
	uv_async_t trig_async;		/* a trigger gained its first / lost its last consumer */
	uv_timer_t deadline;		/* iiod READBUFs that waited long enough */
	struct srv_list timers;		/* struct srv_trig_timer */
	struct srv_list captures;	/* struct srv_capture */
	int closed;			/* handles whose close callback ran */
};

/*
 * One timed trigger with consumers: its own timerfd (CLOCK_MONOTONIC,
 * absolute expirations every @k periods), polled on the loop.
 */
struct srv_trig_timer {
	struct srv_list node;
	uv_poll_t poll;
	int fd;				/* the timerfd, closed with the handle */
	struct srv_streams *ss;
	struct iio_trigger *trig;	/* compared against the board before any use */
	uint64_t period;		/* ns between polls, as armed */
	uint64_t k;			/* polls per expiration (period below SRV_TRIG_WAKE_MIN_NS) */
	uint64_t next_ns;		/* CLOCK_MONOTONIC of the next poll */
	int64_t real_off;		/* CLOCK_REALTIME - CLOCK_MONOTONIC at start */
};

/**
 * struct srv_capture - one device's capture: its readers and its bus jobs.
 * @q: the device's bus worker, or NULL when its handler runs on the loop.
 * @pend/@npend: polls waiting for the next bus job.
 * @refs: requests (opens, detaches) still using it.
 * @retired: its board was replaced; nothing drains it any more.
 * @hung: the running job passed the bus timeout.
 */
struct srv_capture {
	struct srv_list node;
	struct srv_streams *ss;
	struct iio_dev *dev;		/* referenced */
	struct srv_busq *q;
	uv_async_t async;		/* the ring has scans */
	struct srv_list readers;	/* struct srv_stream.cnode */
	int nreaders;
	struct srv_poll_job *job;
	int64_t pend[SRV_STREAM_BATCH_MAX];
	int npend;
	int refs;
	bool retired;
	bool hung;
	bool closing;
};

/* A decoded value's conversion, read once when the stream opens. */
struct srv_reader_conv {
	bool is_ts;
	bool has_offset;
	bool has_scale;
	int otype, oval, oval2;
	int stype, sval, sval2;
};

/* A finished (or the filling) block of a reader: its records, and the scans lost before it. */
struct srv_block {
	uint8_t *rec;			/* scans * record bytes; allocated when first filled */
	uint64_t lost;
};

struct srv_reader;
struct srv_session;
struct srv_queue_ops;

/**
 * struct srv_sink - what kind of reader (the native STREAM's blocks, or an
 * iiod OPEN's FIFO that READBUF empties), as a table: the rest of the
 * stream code asks it and tests no kind.
 * @buf_ops: how the core's records reach it.
 * @queue_ops: what it sheds over --max-queued-bytes (queues.h).
 * @held: the bytes it holds now.
 * @prepare: what it needs before it joins (NULL: nothing); 0 or -ENOMEM.
 * @join/@leave: its session's list and counts (@leave NULL: nothing).
 * @ready: a flush may answer its waiting request: true when @st->slot is
 *	complete (NULL: it has none).
 * @answer: its open's reply into @b, 0 or -errno (NULL: the native STREAM's reply).
 * @end: tell its client the capture ended with @err (@why: the text, or NULL).
 */
struct srv_sink {
	const struct iio_buffer_ops *buf_ops;
	const struct srv_queue_ops *queue_ops;
	size_t (*held)(const struct srv_reader *st);
	int (*prepare)(struct srv_reader *st);
	void (*join)(struct srv_reader *st, struct srv_session *s);
	void (*leave)(struct srv_reader *st);
	int (*answer)(struct srv_reader *st, struct proto_buf *b, int err);
	bool (*ready)(struct srv_reader *st, uint64_t now_ms);
	void (*end)(struct srv_reader *st, int err, const char *why);
};

extern const struct srv_sink srv_sink_native, srv_sink_iiod, srv_sink_iiodb;
/* what the iiod sinks share (stream.c): records into the FIFO, the newest shed */
extern const struct iio_buffer_ops srv_iiod_buffer_ops;
extern const struct srv_queue_ops srv_iiod_queue_ops;
size_t srv_iiod_held(const struct srv_reader *st);
void srv_iiod_join(struct srv_reader *st, struct srv_session *s);

/**
 * struct srv_reader - one reader: a core buffer plus its block.
 * @s: its session; NULL once the session let it go (then only the core
 *	may still point at it, until it is detached).
 * @attached: the core has @buf; @ended: STREAMEND sent (or UNSTREAM).
 * @q/@nq: a ring of @nq blocks: @qlen finished ones from @qhead, oldest
 *	first, waiting for room in the session's output, then the one being
 *	filled (@n scans so far). When the last free block fills, the oldest
 *	is dropped and its scans and lost count move to the next one's @lost.
 */
struct srv_reader {
	struct iio_buffer buf;
	struct srv_list node;		/* s->native.streams */
	struct srv_list cnode;		/* cap->readers */
	struct srv_session *s;
	struct srv_capture *cap;
	int id;
	bool json;
	enum proto_format format;
	int scans;
	bool attached;
	bool ended;
	bool in_session;
	bool in_capture;
	bool dirty;			/* output added since the last flush */
	bool retired;			/* freed by the core's end() on any thread */
	const struct srv_sink *sink;	/* a STREAM's blocks, or an iiod OPEN's FIFO */
	/* the iiod sink (stream_iiod.c): records queue in @fifo for READBUF */
	uint8_t *fifo;
	size_t fifo_len, fifo_cap;
	size_t want;			/* a READBUF waits for this many bytes; 0: none */
	size_t asked;			/* what that READBUF asked */
	uint64_t deadline_ms;		/* uv_now when it answers -ETIMEDOUT */
	struct srv_slot *slot;		/* its reply, cleared if the session closes first */
	void *sink_data;		/* a sink's own state (stream_iiodb.c's blocks); owned */
	char mask[PROTO_IIOD_MASK_MAX_BYTES + 1];
	int nchans;
	struct proto_stream_chan chans[IIO_SCAN_INDEX_MAX + 1];
	char names[IIO_SCAN_INDEX_MAX + 1][48];
	char types[IIO_SCAN_INDEX_MAX + 1][24];
	struct srv_reader_conv conv[IIO_SCAN_INDEX_MAX + 1];
	char trigger[IIO_TRIGGER_NAME_MAX];
	char device[24];
	/* the blocks */
	struct srv_block *q;
	int nq, qhead, qlen;
	int n;
	uint64_t carry;			/* scans dropped with no finished block after them */
	struct srv_queue acct;		/* its share of --max-queued-bytes (queues.h) */
	int64_t *vals;			/* one block decoded, while it is encoded */
	uint64_t delivered;
	uint64_t lost;
};

/* stream_capture.c */
struct srv_capture *srv_capture_find(struct srv_streams *ss, struct iio_dev *dev);
struct srv_capture *srv_capture_get(struct srv_streams *ss, struct iio_dev *dev);
void srv_capture_put_if_idle(struct srv_capture *c);
void srv_capture_end(struct srv_capture *c, int err, const char *why);
/* stream.c */
struct srv_open;
void srv_reader_unlink(struct srv_reader *st);
void srv_reader_release(struct srv_reader *st);
void srv_reader_ended(struct srv_reader *st, int err, const char *why);
void srv_stream_reap(struct srv_capture *c);
void srv_capture_retire(struct srv_capture *c, const char *why);
void srv_streams_flush(struct srv_streams *ss);
void srv_reader_account(struct srv_reader *st);
/* stream_iiod.c: the iiod readers' part of a flush and of a reader's end */
bool srv_iiod_reader_ready(struct srv_reader *st, uint64_t now_ms);
void srv_iiod_reader_answer(struct srv_reader *st, int err);

#endif /* IIOWIRE_SRV_STREAM_PRIV_H */
