/*
 * iio_buffer.h - buffered capture in the IIO core: scan masks, scan layout,
 * buffers with their demux, triggers, and the push path from a driver (or a
 * kernel backend) to the readers.
 *
 * The userspace twin of the kernel's industrialio-buffer.c,
 * industrialio-trigger.c and industrialio-triggered-buffer.c. A device that
 * can capture calls iio_triggered_buffer_setup() in probe with its trigger
 * handler (the pollfunc's bottom half) and, optionally, its
 * available_scan_masks. Each reader is a struct iio_buffer with its own mask;
 * the core runs the union (the first superset in available_scan_masks, as
 * iio_verify_update) and a demux hands each buffer its own record, laid out
 * as iio_compute_scan_bytes. Buffer 0 is the sysfs one (scan_elements/,
 * buffer/, buffer0/), a kfifo nobody reads over the network.
 *
 * Threads: configuration (attach, detach, attributes) and the handler run
 * under the device lock. Scans go from the producer (whoever runs the
 * handler: the loop for a chip that cannot block, the bus worker for real
 * buses, a kernel backend's reader thread) through one single-producer ring
 * per device to the consumer thread, which calls iio_device_buffers_drain()
 * and takes only a short list lock, once per drain, never per scan.
 * Place in the flow: driver -> *core* -> server (server/stream.c).
 */
#ifndef IIOWIRE_IIO_BUFFER_H
#define IIOWIRE_IIO_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iio.h"
#include "iio_trigger.h"

/* Scan indices must be below this: masks are one 64-bit word. */
#define IIO_SCAN_INDEX_MAX		64
/* Largest record a device may have (adis16400's is 32 bytes). */
#define IIO_SCAN_BYTES_MAX		256
/*
 * Scans the per-device ring holds between producer and consumer (a power of
 * two), allocated while capturing: 128 KiB of 8-byte scans, 4 MiB at
 * IIO_SCAN_BYTES_MAX. Four of a kernel device's reads, so the reads that
 * come while the loop drains fit: with reads of 4096 scans a ring of 4096
 * gave a flat-out stand-in 457-829 MB/s, one of 16384 894-1198
 * (bench/RESULTS.md).
 */
#define IIO_SCAN_RING_SCANS		16384
/* kfifo_buf.c: buffer/length starts at 2 and a smaller write becomes 2. */
#define IIO_KFIFO_LENGTH_MIN		2

struct iio_buffer;
struct iio_trigger;
struct iio_registry;

/*
 * The kernel's enum iio_buffer_direction: an IN buffer takes the scans a
 * handler pushes, an OUT buffer holds the scans a writer queued for the
 * handler to pop (iio_pop_from_buffer(), as ad5766's trigger handler).
 */
enum iio_buffer_direction {
	IIO_BUFFER_DIRECTION_IN,
	IIO_BUFFER_DIRECTION_OUT,
};

/**
 * struct iio_scan_layout - where each enabled element sits in a record.
 * @bytes: the record size (iio_compute_scan_bytes).
 * @n: elements, in record order (ascending scan_index, timestamp last).
 * @chan/@offset: each element's channel and byte offset.
 */
struct iio_scan_layout {
	int bytes;
	int n;
	const struct iio_chan_spec *chan[IIO_SCAN_INDEX_MAX + 1];
	int offset[IIO_SCAN_INDEX_MAX + 1];
};

/**
 * iio_scan_layout_compute() - lay out @mask (bits are scan_index) plus the
 * timestamp when @ts, by the kernel's rules: each element at the next
 * multiple of its size, timestamp last, the total a multiple of the largest.
 * Return: 0, -EINVAL (empty mask, a bit no channel has), -E2BIG (over
 * IIO_SCAN_BYTES_MAX).
 */
int iio_scan_layout_compute(const struct iio_dev *indio_dev, uint64_t mask, bool ts,
			    struct iio_scan_layout *out);

/** iio_chan_scan_bytes() - storagebits / 8 x repeat of one element. */
int iio_chan_scan_bytes(const struct iio_chan_spec *chan);

/**
 * iio_scan_type_format() - a channel's scan_elements _type text with its
 * '\n': "be:u12/16>>0" (repeat > 1: "be:u12/16X2>>0"); IIO_CPU is printed
 * as the host's order. Return: the length, or -ENOSPC.
 */
int iio_scan_type_format(const struct iio_chan_spec *chan, char *buf, size_t len);

/**
 * iio_scan_element_value() - one element of a record as a number: byte
 * order of @chan's _type undone, shifted, realbits kept, sign-extended.
 */
int64_t iio_scan_element_value(const struct iio_chan_spec *chan, const uint8_t *p);

/**
 * struct iio_buffer_setup - a driver's capture, as iio_triggered_buffer_setup.
 * @handler: the trigger's bottom half, device lock held: read one scan of
 *	the active mask and hand it to iio_push_to_buffers_with_timestamp()
 *	with @ts. Return: 0 or -errno (a bus error ends the capture).
 * @update_scan_mode: the active mask changed (device lock held; may do
 *	bus I/O). NULL: nothing to tell the chip.
 * @postenable/@predisable: first buffer attached / last one leaving.
 * @validate_trigger: may the device use @trig (-EINVAL if not)? NULL: any.
 * @self_timed: the device produces its scans itself, no trigger of the
 *	core's driving @handler (a kernel device read from /dev/iio:deviceN,
 *	whose trigger is the kernel's): none is needed or attached, and the
 *	core builds no buffer files (the device has its own). Only an
 *	IIO_TRIGGER_EXTERNAL trigger (one the host fires) may be its
 *	current trigger, and only such a device may have one (-EINVAL
 *	otherwise, as the kernel's validate_trigger answers a foreign one).
 * @set_trigger: a self-timed device's current trigger changes to @trig
 *	(NULL clears), device lock held: tell whoever does the triggering
 *	(the kernel: trigger/current_trigger). NULL: nothing to tell.
 * @direction: OUT for a device that plays scans (the kernel's
 *	devm_iio_triggered_buffer_setup_ext(..., IIO_BUFFER_DIRECTION_OUT)):
 *	its scan elements are its output channels, buffer/direction reads
 *	"out", and @handler pops a scan per poll instead of pushing one. Such
 *	a device has one buffer at a time, as the kernel's has one fifo.
 * @software: the kernel's INDIO_BUFFER_SOFTWARE mode (a kfifo the driver
 *	fills from a thread of its own, ina2xx-adc's polling kthread): no
 *	trigger drives @handler (never called) and none may be set (-EINVAL:
 *	the kernel has no trigger/ directory for it), but unlike @self_timed
 *	the core builds buffer/, buffer0/ and scan_elements/. @postenable
 *	starts the driver's producer, @predisable stops it.
 */
struct iio_buffer_setup {
	int (*handler)(struct iio_dev *indio_dev, int64_t ts);
	int (*update_scan_mode)(struct iio_dev *indio_dev, uint64_t active_mask);
	int (*postenable)(struct iio_dev *indio_dev);
	int (*predisable)(struct iio_dev *indio_dev);
	int (*validate_trigger)(struct iio_dev *indio_dev, struct iio_trigger *trig);
	int (*set_trigger)(struct iio_dev *indio_dev, struct iio_trigger *trig);
	bool self_timed;
	enum iio_buffer_direction direction;
	bool software;
};

/**
 * iio_triggered_buffer_setup() - make @indio_dev buffer capable (before
 * registration): buffer 0's attributes, trigger/current_trigger.
 * @masks: available_scan_masks, ended by 0, in the driver's order (the first
 *	superset wins); borrowed for the device's life; NULL: any mask.
 * Return: 0 or -ENOMEM.
 */
int iio_triggered_buffer_setup(struct iio_dev *indio_dev, const struct iio_buffer_setup *setup,
			       const uint64_t *masks);

/**
 * iio_device_trigger_setup() - the device has a data-ready trigger of its
 * own: at registration the core adds "<name>-dev<N>" (adis_trigger.c's
 * name), polled every @period() ns while a device uses it, and removes it at
 * unregistration. Call after iio_triggered_buffer_setup().
 * Return: 0, -EINVAL without a buffer.
 */
int iio_device_trigger_setup(struct iio_dev *indio_dev,
			     int (*period)(struct iio_dev *indio_dev, uint64_t *period_ns));

/**
 * iio_buffer_widest_mask() - every scan element the device can capture (or,
 * for an output device, play) at once: the available mask with the most
 * channels (the first of equals), or all of its direction's channels
 * without scan masks. The timestamp is not in it.
 */
uint64_t iio_buffer_widest_mask(const struct iio_dev *indio_dev);

/** iio_buffer_active_mask() - the scan the handler must produce (device lock held). */
uint64_t iio_buffer_active_mask(const struct iio_dev *indio_dev);

/**
 * iio_buffer_next_ts() - in update_scan_mode: will the scan being applied
 * carry the timestamp? (The mask has only the other elements.)
 */
bool iio_buffer_next_ts(const struct iio_dev *indio_dev);

/**
 * iio_device_buffer_fail() - a self-timed producer's capture failed (the
 * device went away: -ENODEV): @err is kept and the consumer is woken
 * (the push notify). Any thread. iio_device_buffer_failed() - consumer
 * thread: the error kept, then cleared (0: none); the owner ends the
 * capture's buffers with it (iio_buffers_end()).
 */
void iio_device_buffer_fail(struct iio_dev *indio_dev, int err);
int iio_device_buffer_failed(struct iio_dev *indio_dev);

/**
 * iio_device_buffers_wake() - run the push notify now: a producer that
 * pushes batches calls it after each, since a push notifies only when the
 * ring was empty, and a consumer draining meanwhile may stop short of the
 * batch's last scans. Any thread.
 */
void iio_device_buffers_wake(struct iio_dev *indio_dev);

/** iio_device_has_buffer() - did the driver set up a buffer? */
bool iio_device_has_buffer(const struct iio_dev *indio_dev);
/** iio_device_buffer_direction() - its buffer's direction (IN without a buffer). */
enum iio_buffer_direction iio_device_buffer_direction(const struct iio_dev *indio_dev);
/**
 * iio_device_takes_trigger() - has the device a trigger/ directory: a
 * buffer that is not a software one (iio_buffer_setup.software)?
 */
bool iio_device_takes_trigger(const struct iio_dev *indio_dev);
/** iio_buffer_enabled() - is the device capturing (buffered mode)? Device lock held. */
bool iio_buffer_enabled(const struct iio_dev *indio_dev);

/**
 * iio_device_claim_direct() - for read_raw paths the kernel guards: -EBUSY
 * while the device captures. Device lock held (every driver callback is).
 */
int iio_device_claim_direct(const struct iio_dev *indio_dev);

/**
 * struct iio_buffer_ops - what a reader does with its records.
 * @store: consumer thread; @rec is one record of buf->layout.bytes bytes,
 *	borrowed for the call; @lost counts scans lost just before it.
 * @store_n: optional, as store() for each of @n records back to back
 *	(@lost before the first); the core calls it with a stretch of its
 *	ring when the reader's record is the capture's (no demux copy).
 * @end: consumer thread, once, when the capture ends without the reader
 *	asking (device gone, bus error, trigger removed): the buffer is
 *	already detached, the owner frees it.
 */
struct iio_buffer_ops {
	void (*store)(struct iio_buffer *buf, const uint8_t *rec, uint64_t lost);
	void (*store_n)(struct iio_buffer *buf, const uint8_t *recs, unsigned int n,
			uint64_t lost);
	void (*end)(struct iio_buffer *buf, int err);
};

/**
 * struct iio_buffer - one reader of a device's capture (a kernel buffer),
 * or the one writer of an output device's scans.
 * @mask/@timestamp: the channels it wants (bits are scan_index).
 * @direction: IN (zero) to read; OUT to write, on an output device only
 *	(-EPERM across, as the kernel's read/write of the wrong direction).
 * @length: OUT: scans it may queue ahead of the handler; 0 takes
 *	buffer/length (at most IIO_SCAN_RING_SCANS).
 * @layout: its record, filled by iio_buffer_attach().
 * @priv: the owner's. The rest is the core's.
 */
struct iio_buffer {
	const struct iio_buffer_ops *ops;
	uint64_t mask;
	bool timestamp;
	enum iio_buffer_direction direction;
	unsigned int length;
	struct iio_scan_layout layout;
	void *priv;
	/* core-private */
	struct iio_buffer *next;
	bool attached;
	int ndemux;
	struct { uint16_t from, to, len; } demux[IIO_SCAN_INDEX_MAX + 1];
	uint8_t rec[IIO_SCAN_BYTES_MAX];
};

/**
 * iio_buffer_attach() - iio_update_buffers(dev, buf, NULL): add @buf,
 * recompute the active mask, tell the driver when it changed, attach the
 * device to its current trigger when @buf is the first buffer. May do bus
 * I/O: run it where the device may block. Takes the device lock.
 * Return: 0; -EINVAL (empty mask, no trigger, no scan mask fits: @err says
 * which), -EBUSY (the trigger's consumers are full), -ENODEV, the driver's
 * -errno; on failure nothing changed.
 */
int iio_buffer_attach(struct iio_dev *indio_dev, struct iio_buffer *buf, char *err,
		      size_t errlen);

/** iio_buffer_detach() - the reverse; the last buffer stops the capture. Takes the lock. */
void iio_buffer_detach(struct iio_dev *indio_dev, struct iio_buffer *buf);

/**
 * iio_buffers_end() - end every buffer of @indio_dev with @err (device
 * removed, bus failed): each is detached and its end() runs. Consumer thread.
 */
void iio_buffers_end(struct iio_dev *indio_dev, int err);

/**
 * iio_push_to_buffers_with_timestamp() - one scan of the active mask, as the
 * driver's handler (or a kernel backend with /dev/iio:deviceN bytes) has
 * it; @ts goes into the record's last 8 bytes when the active scan has the
 * timestamp. Producer side of the ring: call with the device lock held.
 * A full ring drops the scan and counts it (the kfifo drops the new scan).
 * Return: 0, -ENOSPC (ring full), -EINVAL (not capturing).
 */
int iio_push_to_buffers_with_timestamp(struct iio_dev *indio_dev, void *data, int64_t ts);

/**
 * iio_push_scans() - @n whole records of the active scan, back to back and
 * complete (timestamp included), as a read of /dev/iio:deviceN gives them:
 * copied into the ring at once, then the consumer is woken
 * (iio_device_buffers_wake()). Device lock held, as for a push. Records
 * the ring has no room for are dropped (the newest) and counted lost.
 * Return: records queued (0..@n), -EINVAL (not capturing).
 */
int iio_push_scans(struct iio_dev *indio_dev, const void *data, unsigned int n);

/**
 * iio_push_room() - where a self-timed producer may read @max records
 * straight into the ring, with no copy: NULL (*@n 0) unless the ring has
 * @max free records (a fuller ring is pushed with iio_push_scans(), which
 * counts the ones that do not fit); else the free stretch at the ring's
 * head, *@n records, fewer than @max where the ring ends (the rest of the
 * room starts at the ring's beginning: the next call's). No lock: the
 * caller is the device's one reader thread, which the driver halts
 * (joins) in update_scan_mode and predisable, before the core may replace
 * or free the ring (iio_buffer_activate(), the device's removal).
 */
void *iio_push_room(struct iio_dev *indio_dev, unsigned int max, unsigned int *n);

/**
 * iio_push_commit() - the first @n records of iio_push_room()'s stretch are
 * written: queue them and wake the consumer, as iio_push_scans() does.
 */
void iio_push_commit(struct iio_dev *indio_dev, unsigned int n);

/**
 * iio_device_set_push_notify() - @notify runs on the producer's thread after
 * a push into an empty ring (the server: uv_async_send()); NULL: the
 * consumer drains when it likes.
 */
void iio_device_set_push_notify(struct iio_dev *indio_dev, void (*notify)(void *ctx), void *ctx);

/**
 * iio_device_buffers_drain() - consumer thread: demux every queued scan to
 * each attached buffer's store(). Return: scans drained.
 */
int iio_device_buffers_drain(struct iio_dev *indio_dev);
/** iio_device_scans_lost() - @n scans never made: told to each reader with its next scan. */
void iio_device_scans_lost(struct iio_dev *indio_dev, uint64_t n);

/* ---- output: the writer's side and the handler's ---- */

/**
 * iio_pop_from_buffer() - the kernel's iio_pop_from_buffer(): the handler of
 * an output device takes the next scan of the active layout into @data
 * (layout bytes; a cyclic block's next scan when one is set). Device lock
 * held. The writer is woken (the push notify) when the queue falls to half
 * its length. Return: 0; -EBUSY when nothing is queued (kfifo's
 * remove_from: the driver decides, ad5766 leaves its outputs as they are),
 * counted in iio_buffer_underruns() once a first scan was queued; -EINVAL
 * when not playing.
 */
int iio_pop_from_buffer(struct iio_dev *indio_dev, void *data);

/**
 * iio_buffer_write_scans() - the writer @buf (attached, OUT) queues up to
 * @n records of its layout, as many as its length leaves room for (the
 * kernel's write() of whole datums). One writer thread at a time.
 * Return: scans taken (0 when full: wait for the notify), -EINVAL (not
 * attached), -EPERM (an IN buffer), -EBUSY (a cyclic block plays).
 */
int iio_buffer_write_scans(struct iio_dev *indio_dev, struct iio_buffer *buf, const void *data,
			   unsigned int n);

/**
 * iio_buffer_set_cyclic() - @n records become a block the handler's pops
 * repeat until @buf detaches (libiio's cyclic buffer; the kernel's kfifo
 * has none). Only before anything was written. Takes the device lock.
 * Return: 0; -EINVAL (@n is 0 or above the ring, not attached), -EPERM
 * (IN), -EBUSY (scans were written or a block is set), -ENOMEM.
 */
int iio_buffer_set_cyclic(struct iio_dev *indio_dev, struct iio_buffer *buf, const void *data,
			  unsigned int n);

/** iio_buffer_queued() - scans written and not popped yet (data_available). */
unsigned int iio_buffer_queued(const struct iio_dev *indio_dev);
/** iio_buffer_underruns() - pops that found nothing since the writer queued its first scan. */
uint64_t iio_buffer_underruns(const struct iio_dev *indio_dev);

/**
 * iio_device_trigger_handle() - run the device's handler for a poll at @ts
 * (the pollfunc): under the device lock, only while capturing.
 * Return: 0, -EAGAIN (not capturing), or the handler's -errno.
 */
int iio_device_trigger_handle(struct iio_dev *indio_dev, int64_t ts);

/**
 * iio_device_current_trigger() - the device's current trigger or NULL
 * (borrowed; valid while the registry has it). Device lock held or the
 * consumer thread.
 */
struct iio_trigger *iio_device_current_trigger(const struct iio_dev *indio_dev);
/**
 * iio_device_set_trigger() - current_trigger = @trig (NULL clears); takes
 * the lock. Return: 0, -EBUSY while capturing, the validate -errno.
 */
int iio_device_set_trigger(struct iio_dev *indio_dev, struct iio_trigger *trig);

/** iio_device_buffer_attr_count()/_at() - buffer/, scan_elements/, trigger/ files. */
int iio_device_buffer_attr_count(const struct iio_dev *indio_dev);
const struct iio_attr *iio_device_buffer_attr_at(const struct iio_dev *indio_dev, int i);

/* ---- triggers: drivers/iio_trigger.h ---- */

/** iio_get_time_ns() - the device's current_timestamp_clock now, in ns. */
int64_t iio_get_time_ns(const struct iio_dev *indio_dev);

#endif /* IIOWIRE_IIO_BUFFER_H */
