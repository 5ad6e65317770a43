/*
 * stream.h - buffered capture over the native protocol: STREAM, CSTREAM,
 * UNSTREAM, STREAMS and the blocks they push (PROTOCOL.md's STREAM section).
 *
 * One capture per device fans out to any number of readers, each a core
 * buffer (iio_buffer.h) with its own channels and block size. The
 * triggers' timers run on the loop; a device that can block runs its
 * trigger handler on its bus worker, in batches, and the scans come back
 * through the core's ring and a uv_async. A reader that does not keep up
 * loses its oldest blocks, counted, and never slows the capture or the others.
 * Place in the flow: dispatch -> *stream* -> core / busq -> session.
 */
#ifndef IIOWIRE_SRV_STREAM_H
#define IIOWIRE_SRV_STREAM_H

#include <stdbool.h>

#include "proto.h"

struct srv;
struct srv_session;
struct board;

/*
 * The file a capture's enable writes, for --read-only and --allow-write: a
 * STREAM, CSTREAM or iiod OPEN is a write of it (a kernel device's buffer
 * enable also makes its raw reads EBUSY for everyone).
 */
#define SRV_STREAM_ENABLE_ATTR		"buffer/enable"
/* Streams one connection may hold. */
#define SRV_STREAM_MAX_PER_SESSION	16
/* Readers of one device at once. */
#define SRV_STREAM_READERS_MAX		256
/*
 * A reader's finished blocks waiting for room in its connection's output
 * (at least 2 blocks, whatever their size); when it is full the oldest is
 * dropped and counted as lost. Apart from the session's output limits
 * (SRV_OUT_SOFT_BYTES), so a stalled reader loses data but stays connected.
 */
#define SRV_STREAM_QUEUE_BYTES		(512 * 1024)
/* The connection's output below which a reader hands it its next block. */
#define SRV_STREAM_OUT_BYTES		(64 * 1024)
/* Polls of one device batched into one bus job; more while it runs are dropped. */
#define SRV_STREAM_BATCH_MAX		512
/*
 * Polls a timed trigger catches up after a late wakeup (a loop stall); the
 * older ones past it are not made and count as lost scans to every reader.
 */
#define SRV_STREAM_TICK_POLLS_MAX	16384
/* A timed trigger's timerfd wakes the loop at most this often; faster rates batch polls. */
#define SRV_TRIG_WAKE_MIN_NS		1000000ULL

/**
 * srv_streams_init() - the stream module of @srv, hooked to its board's
 * triggers. Loop thread, once after the loop exists. Return: 0 or -errno.
 */
int srv_streams_init(struct srv *srv);

/**
 * srv_streams_board_swap() - a reload replaced @old by srv->board: every
 * stream on @old's devices ends with ENODEV (STREAMEND), the new board's
 * triggers get the hooks. Loop thread, before @old is destroyed.
 */
void srv_streams_board_swap(struct srv *srv, struct board *old);
/**
 * srv_streams_devices_gone() - hotplug took the @n devices of @gone off the
 * board (the others stay): their streams end with ENODEV "device removed",
 * the trigger timers follow the triggers now there. Loop thread, before
 * the devices are removed.
 */
void srv_streams_devices_gone(struct srv *srv, struct iio_dev *const *gone, int n);

/** srv_streams_close() - shutdown: close the module's handles. */
void srv_streams_close(struct srv *srv);

/** srv_stream_request() - STREAM or CSTREAM: answers, and starts the blocks. */
void srv_stream_request(struct srv_session *s, const struct proto_request *req);
/** srv_stream_unstream() - UNSTREAM [<stream>]. */
void srv_stream_unstream(struct srv_session *s, const struct proto_request *req);
/** srv_stream_list() - STREAMS. */
void srv_stream_list(struct srv_session *s, const struct proto_request *req);
/** srv_stream_stop_all() - the connection ends: stop its streams (no STREAMEND). */
void srv_stream_stop_all(struct srv_session *s);
/** srv_streams_writable() - @s's output drained: hand it its readers' queued blocks. */
void srv_streams_writable(struct srv_session *s);

struct iio_dev;

struct srv_sink;

/**
 * srv_stream_open_iiod() - an iiod OPEN (or a libiio 1.0 OPEN_BUFFER): a
 * reader of @dev with @mask/@ts whose records queue (up to @fifo_cap bytes)
 * for READBUF (or blocks) in @sink's way; @sink's answer op answers the
 * open with 0 or the enable's -errno once the capture runs.
 * @sink_data: the sink's own state of this reader (flat, freed with it);
 *	taken whatever the outcome.
 * Return: 0 (an answer comes), or -ENOMEM or -EBUSY (SRV_STREAM_READERS_MAX
 * readers of @dev already; nothing was answered).
 */
int srv_stream_open_iiod(struct srv_session *s, struct iio_dev *dev, const struct srv_sink *sink,
			 uint64_t mask, bool ts, size_t fifo_cap, const char *mask_text,
			 void *sink_data);

#endif /* IIOWIRE_SRV_STREAM_H */
