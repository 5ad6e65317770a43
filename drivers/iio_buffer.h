/*
 * iio_buffer.h - buffered capture in the IIO core: scan masks, scan layout,
 * buffers with their demux, triggers, and the push path from a driver (or a
 * kernel backend) to the readers.
 *
 * The userspace twin of the kernel's industrialio-buffer.c and
 * industrialio-trigger.c. A device that can capture declares
 * INDIO_BUFFER_TRIGGERED, its trigger handler (the pollfunc's bottom half)
 * and, optionally, available_scan_masks. Each reader is a struct iio_buffer
 * with its own mask; the core runs the union (first superset in
 * available_scan_masks, as iio_verify_update) and a demux hands each buffer
 * its own record, laid out as iio_compute_scan_bytes. Scans travel from the
 * producer (the thread running the handler: the loop for a chip that cannot
 * block, the bus worker for real buses, a kernel backend's reader thread)
 * through one single-producer ring per device to the consumer thread, which
 * calls iio_device_buffers_drain(); no lock is taken per scan.
 * Place in the flow: driver -> *core* -> server (server/stream.c).
 */
#ifndef IIOWIRE_IIO_BUFFER_H
#define IIOWIRE_IIO_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iio.h"

/* iio_dev modes, as the kernel's INDIO_* bits */
#define INDIO_DIRECT_MODE		0x01
#define INDIO_BUFFER_TRIGGERED		0x02

/* Scan indices must be below this: masks are one 64-bit word. */
#define IIO_SCAN_INDEX_MAX		64
/* Largest record (active mask) a device may have; adis16400's is 32. */
#define IIO_SCAN_BYTES_MAX		256
/* Scans the per-device ring holds between producer and consumer. */
#define IIO_SCAN_RING_SCANS		8192
/* kfifo defaults (kfifo_buf.c): buffer/length starts at 2 and never goes below. */
#define IIO_KFIFO_LENGTH_MIN		2

struct iio_buffer;
struct iio_trigger;

/**
 * struct iio_scan_layout - where each enabled element sits in a record.
 * @bytes: the record size (iio_compute_scan_bytes).
 * @n: elements, in record order (ascending scan_index, timestamp last).
 * @chan/@offset: the element's channel and byte offset.
 */
struct iio_scan_layout {
	int bytes;
	int n;
	const struct iio_chan_spec *chan[IIO_SCAN_INDEX_MAX];
	int offset[IIO_SCAN_INDEX_MAX];
};

/**
 * iio_scan_layout_compute() - lay out @mask (+ the timestamp when @ts) of
 * @indio_dev's channels by the kernel's rules.
 * Return: 0, or -EINVAL (empty mask, an index the device lacks), -E2BIG
 * (over IIO_SCAN_BYTES_MAX).
 */
int iio_scan_layout_compute(const struct iio_dev *indio_dev, uint64_t mask, bool ts,
			    struct iio_scan_layout *out);

/**
 * iio_scan_type_format() - a channel's scan_elements _type text,
 * "be:u12/16>>0\n" (repeat > 1: "...X<r>>>..."), IIO_CPU printed as the
 * host's order. Return: length, or -ENOSPC.
 */
int iio_scan_type_format(const struct iio_chan_spec *chan, char *buf, size_t len);

/**
 * struct iio_buffer_ops - what a reader does with its records.
 * @store: consumer thread; @rec is one record of buf->layout.bytes bytes,
 *	borrowed for the call; @lost counts scans lost since the last call
 *	(ring overrun). Return: 0 or -errno (counted, never stops the capture).
 * @end: consumer thread, once, when the capture ends on its own (device
 *	gone, bus error, trigger removed) with the -errno; the buffer is then
 *	detached and the owner frees it.
 */
struct iio_buffer_ops {
	int (*store)(struct iio_buffer *buf, const void *rec, uint64_t lost);
	void (*end)(struct iio_buffer *buf, int err);
};

/**
 * struct iio_buffer - one reader of a device's capture (a kernel buffer).
 * @mask/@timestamp: the channels it wants (bits are scan_index).
 * @layout: its record, filled by iio_buffer_attach().
 * @priv: the owner's.
 */
struct iio_buffer {
	const struct iio_buffer_ops *ops;
	uint64_t mask;
	bool timestamp;
	struct iio_scan_layout layout;
	void *priv;
	/* core-private */
	struct iio_buffer *next;
	int ndemux;
	struct { uint16_t from, to, len; } demux[IIO_SCAN_INDEX_MAX];
};

/**
 * iio_buffer_attach() - iio_update_buffers(dev, buf, NULL): add @buf to the
 * capture of @indio_dev, recomputing the active mask (union, first
 * superset in available_scan_masks), calling update_scan_mode when it
 * changed and attaching the device to its current trigger when it is the
 * first buffer. May do bus I/O: run it where the device may block.
 * Return: 0; -EINVAL (empty mask, no trigger, no mask fits: @err says
 * which), -EBUSY, -ENODEV, or the driver's -errno; on failure nothing
 * changed.
 */
int iio_buffer_attach(struct iio_dev *indio_dev, struct iio_buffer *buf, char *err,
		      size_t errlen);

/** iio_buffer_detach() - the reverse; the last one stops the capture. Return: 0 or -errno. */
int iio_buffer_detach(struct iio_dev *indio_dev, struct iio_buffer *buf);

/**
 * iio_push_to_buffers_with_timestamp() - a scan of the active mask, as the
 * driver's handler (or a kernel backend holding /dev/iio:deviceN bytes)
 * has it: the s64 @ts is written at the record's timestamp slot when the
 * active scan has one. Producer side of the ring: any one thread at a
 * time, never the consumer's lock. A full ring drops the scan and counts
 * it (the kernel's kfifo drops the new scan too).
 * Return: 0, -ENOSPC (ring full), -EINVAL (no capture running).
 */
int iio_push_to_buffers_with_timestamp(struct iio_dev *indio_dev, void *data, int64_t ts);

/**
 * iio_device_set_push_notify() - called by the producer after a push that
 * made the ring non-empty (the server: uv_async_send()). NULL: the
 * consumer polls.
 */
void iio_device_set_push_notify(struct iio_dev *indio_dev, void (*notify)(void *ctx), void *ctx);

/**
 * iio_device_buffers_drain() - consumer thread: demux every queued scan to
 * each attached buffer's store(). Return: scans drained.
 */
int iio_device_buffers_drain(struct iio_dev *indio_dev);

/* ---- triggers ---- */

/**
 * struct iio_trigger_ops - @set_trigger_state: the first consumer attached
 * (true) or the last left (false): start/stop the hrtimer, a chip's
 * data-ready. @validate_device: may @indio_dev use this trigger (-EINVAL
 * if not)?
 */
struct iio_trigger_ops {
	int (*set_trigger_state)(struct iio_trigger *trig, bool state);
	int (*validate_device)(struct iio_trigger *trig, struct iio_dev *indio_dev);
};

/**
 * iio_trigger_poll() - the trigger fired at @ts: run the trigger handler of
 * every attached device (through the registry's poll hook, which the
 * server points at the device's bus worker when it may block). A poll
 * while the previous one of the same device still runs is dropped, as in
 * the kernel.
 */
void iio_trigger_poll(struct iio_trigger *trig, int64_t ts);

#endif /* IIOWIRE_IIO_BUFFER_H */
