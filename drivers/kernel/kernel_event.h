/*
 * kernel_event.h - a mirrored kernel device's IIO events (kernel_event.c),
 * for kernel_dev.c only: event specs recovered from the events/ file
 * names, and the event fd (IIO_GET_EVENT_FD_IOCTL on /dev/iio:deviceN)
 * read on a thread of its own into the core's event queue.
 */
#ifndef IIOWIRE_KERNEL_EVENT_H
#define IIOWIRE_KERNEL_EVENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "iio.h"
#include "kernel/iio_kernel.h"

/* The subdirectory of event attributes, as sysfs names it. */
#define KERNEL_EVENT_DIR	"events"

/*
 * What the scan found: each spec with the index of its channel in the
 * scan's channel table. @present: the device has an events/ directory
 * (an event interface), even if no name in it names a known channel.
 */
struct kernel_evscan {
	struct iio_event_spec specs[IIO_KERNEL_EVENTS_MAX];
	int chan_of[IIO_KERNEL_EVENTS_MAX];
	int nspecs;
	bool present;
};

/* The event fd and its reader thread; all zero when closed. */
struct kernel_evfd {
	struct iio_dev *dev;	/* borrowed: the device the events are pushed to */
	int fd;
	int wake[2];		/* a byte on wake[1] stops the thread */
	pthread_t thread;
	bool running;
};

/**
 * kernel_event_scan() - read @devpath/events/ into @es, giving the
 * channels of @chans their event specs by index (kernel_event_place()
 * makes them pointers). No events/ directory: @es->present stays false.
 * Return: 0, or -E2BIG past IIO_KERNEL_EVENTS_MAX (@err says so).
 */
int kernel_event_scan(const char *devpath, const struct iio_chan_spec *chans, int nchans,
		      struct kernel_evscan *es, char *err, size_t errlen);

/** kernel_event_specs_size() - bytes kernel_event_place() needs. */
size_t kernel_event_specs_size(const struct kernel_evscan *es);

/**
 * kernel_event_place() - copy the specs to @dst, grouped by channel, and
 * point each channel of @chans (the device's own table) at its group.
 */
void kernel_event_place(const struct kernel_evscan *es, struct iio_event_spec *dst,
			struct iio_chan_spec *chans, int nchans);

/**
 * kernel_event_open() - get the device's event fd through @node
 * (/dev/iio:deviceN: IIO_GET_EVENT_FD_IOCTL on the backend's shared open
 * of it, iio_kernel_node_get(), held only for the ioctl) and start the thread that pushes what it reads
 * into @dev's event queue. Return: 0, or -errno of the open or the ioctl
 * (-EBUSY: another process holds the event fd; -ENODEV: no event
 * interface), or of the thread's creation.
 */
int kernel_event_open(struct iio_dev *dev, struct kernel_evfd *ef, const char *node);

/** kernel_event_close() - stop the thread, close the event fd. Idempotent. */
void kernel_event_close(struct kernel_evfd *ef);

#endif /* IIOWIRE_KERNEL_EVENT_H */
