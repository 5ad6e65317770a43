/*
 * iio_event.h - IIO events in the core: the events/ attributes a device's
 * event specs produce, and its event queue (the kernel's
 * industrialio-event.c, without the character device).
 *
 * Drivers push event codes with iio_push_event() from their interrupt
 * handlers (any thread). The queue holds them until its one reader (the
 * server, which fans them out to its subscribers) takes them; with no
 * reader events are discarded, as the kernel discards them while no one
 * holds the event fd. Place in the flow: driver -> *core* -> server.
 * Nothing here formats event lines or knows about sockets.
 */
#ifndef IIOWIRE_IIO_EVENT_H
#define IIOWIRE_IIO_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include "iio.h"
#include "iio_buffer.h"	/* iio_get_time_ns() */

/*
 * Events a device queues for its reader. The kernel's kfifo holds 16 and
 * drops the newest when full; ours holds more and drops the oldest, with a
 * count (K-43 in maps/README.md): a network reader is woken later than a
 * local one, and the latest state is what it needs.
 */
#define IIO_EVENT_QUEUE_LEN	1024

/* The attribute directory of event attributes, as sysfs shows it. */
#define IIO_EVENT_DIR		"events/"

/**
 * iio_push_event() - queue @ev_code with @timestamp (ns, the device's
 * current_timestamp_clock: iio_get_time_ns() of iio_buffer.h). Any thread; never blocks on
 * the reader. Return: 0 (also when no reader holds the queue: dropped).
 */
int iio_push_event(struct iio_dev *indio_dev, uint64_t ev_code, int64_t timestamp);

/** iio_device_has_events() - does the device have an event interface (event specs or attrs)? */
bool iio_device_has_events(const struct iio_dev *indio_dev);

/**
 * iio_event_open() - become the queue's one reader; what was queued before
 * is flushed (as getting the kernel's event fd flushes). @notify is called
 * (any thread, with a core lock held: it must only wake the reader, e.g.
 * uv_async_send) after each push and when the device goes away.
 * Return: 0; -ENODEV (no event interface, or the device is gone); -EBUSY
 * (a reader holds it); the driver's @event_open error.
 */
int iio_event_open(struct iio_dev *indio_dev, void (*notify)(void *ctx), void *ctx);
/**
 * iio_event_end() - the device's event source failed (a kernel event fd
 * read ENODEV): once the queue is drained, iio_event_read() returns @err
 * (negative) until the reader closes and opens again. Wakes the reader.
 * Any thread.
 */
void iio_event_end(struct iio_dev *indio_dev, int err);
/** iio_event_close() - stop reading; queued events are dropped. Idempotent. */
void iio_event_close(struct iio_dev *indio_dev);

/**
 * iio_event_read() - take up to @max queued events, oldest first.
 * @lost: out: events dropped (queue full) since the last read.
 * Return: the number taken (0 when empty), or -ENODEV once the device is
 * gone and the queue is empty (or iio_event_end()'s error).
 */
int iio_event_read(struct iio_dev *indio_dev, struct iio_event_data *out, int max,
		   uint64_t *lost);

#endif /* IIOWIRE_IIO_EVENT_H */
