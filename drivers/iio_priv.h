/*
 * iio_priv.h - core-private device state, for the core's own files only.
 *
 * Drivers see struct iio_dev (iio.h); everything the core keeps per device
 * lives in struct iio_dev_opaque around it, reached with to_iio_dev_opaque(),
 * as the kernel splits iio_dev from iio_dev_opaque. Drivers and the server
 * must not include this header.
 */
#ifndef IIOWIRE_IIO_PRIV_H
#define IIOWIRE_IIO_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <time.h>
#include "iio.h"
#include "iio_core.h"

struct iio_dev_opaque {
	struct iio_dev dev;		/* first: to_iio_dev_opaque() is a cast */
	atomic_int refs;
	pthread_mutex_t lock;		/* held by every attribute and consumer access */
	bool gone;			/* unregistered: every access is -ENODEV */
	int id;				/* N of iio:deviceN, -1 before registration */
	const struct iio_driver *driver;
	struct bus_i2c_client *i2c;	/* owned */
	struct bus_spi_device *spi;	/* owned */
	struct iio_dev *io_source;	/* borrowed: the device our I/O goes through */
	struct iio_attr *attrs;		/* built by iio_device_attrs_build() */
	int nattrs;
	const struct iio_attr *preset;	/* borrowed: iio_device_set_attrs() */
	int npreset;
	int want_id;			/* iio_device_request_id(), -1 for none */
	bool own_queue;			/* iio_device_set_own_queue() */
	struct iio_event_queue *events;	/* iio_event.c; NULL until the first open */
	struct iio_irq *irq;		/* iio_irq.c: the line's thread, or NULL */
	pthread_mutex_t events_lock;	/* guards @events: pushes come from any thread */
	/* current_timestamp_clock; 0 is CLOCK_REALTIME, the default, so calloc() sets it */
	clockid_t clock_id;
	struct iio_dev_buffer *buffer;	/* iio_triggered_buffer_setup(), or NULL */
	size_t priv_size;
	/* driver state follows, aligned for any type */
	_Alignas(16) unsigned char priv[];
};

static inline struct iio_dev_opaque *to_iio_dev_opaque(const struct iio_dev *indio_dev)
{
	return (struct iio_dev_opaque *)indio_dev;
}

struct bus_i2c_client;
struct bus_spi_device;

/*
 * iio_hwid_format() - the hardware id of a device on @i2c or @spi (or ""),
 * for iio_dev.hwid and probe messages alike (iio_driver.c).
 * Return: the length written, truncated to fit @len.
 */
int iio_hwid_format(char *buf, size_t len, const struct bus_i2c_client *i2c,
		    const struct bus_spi_device *spi);

/* iio_core_seterr() - a printf-style message into @err (NULL or 0 bytes: none); iio_core.c. */
void iio_core_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The attribute set under construction (iio_core.c); installed only when complete. */
struct iio_core_attr_set {
	struct iio_attr *attrs;
	int n;
	int cap;
};

/*
 * iio_core_set_add() - append @attr unless its name exists (iio_core.c).
 * Return: 0, -EBUSY for a duplicate (the caller decides), -ENOMEM.
 */
int iio_core_set_add(struct iio_core_attr_set *set, const struct iio_attr *attr);

/*
 * iio_event_attrs_add() - the events/ attributes of every channel's event
 * specs and the driver's device attributes (iio_event.c), with @err naming
 * what failed. Return: 0, -EBUSY (duplicate separate name), -EINVAL (a mask
 * bit past the postfix table), -ENAMETOOLONG, -ENOMEM.
 */
int iio_event_attrs_add(struct iio_core_attr_set *set, const struct iio_dev *indio_dev,
			char *err, size_t errlen);
/* iio_event_attr_read_locked()/_write_locked() - EVENT and DEVICE kinds, device lock held. */
ssize_t iio_event_attr_read_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				   char *buf, size_t len);
int iio_event_attr_write_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				const char *text, size_t len);
/* iio_event_release() - free the queue (the device's final put). */
void iio_event_release(struct iio_dev *indio_dev);
/* iio_event_wake() - tell the reader the device is gone (mark_gone). */
void iio_event_wake(struct iio_dev *indio_dev);

/* iio_device_attrs_free() - drop the attribute set (iio_core.c); used by the final put. */
void iio_device_attrs_free(struct iio_dev *indio_dev);

struct iio_registry;
struct iio_trigger;
struct iio_trigger_hooks;
struct iio_dev_buffer;

/* iio_buffer.c: the buffer state's life, and what registration does with it */
void iio_device_buffer_free(struct iio_dev *indio_dev);
int iio_device_buffer_register(struct iio_registry *reg, struct iio_dev *indio_dev, char *err,
			       size_t errlen);
void iio_device_buffer_unlist(struct iio_registry *reg, struct iio_dev *indio_dev);
void iio_device_buffer_unregister(struct iio_dev *indio_dev);
void iio_device_buffer_trigger_gone(struct iio_dev *indio_dev, struct iio_trigger *trig);
/* iio_buffer_attr.c: buffer/, scan_elements/, trigger/ files (IIO_ATTR_BUFFER) */
const struct iio_attr *iio_device_buffer_attr_find(const struct iio_dev *indio_dev,
						   const char *name);
ssize_t iio_buffer_attr_read_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				    char *buf, size_t len);
int iio_buffer_attr_write_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				 const char *text);
/* iio_registry.c / iio_trigger.c */
const struct iio_trigger_hooks *iio_registry_trigger_hooks(const struct iio_registry *reg);
/* the lock of every trigger's consumers and references, and of a registry's trigger list */
void iio_trigger_lock(void);
void iio_trigger_unlock(void);
/* a trigger off its registry's list: mark it gone, drop the registry's reference */
void iio_trigger_unlisted(struct iio_trigger *trig);

#endif /* IIOWIRE_IIO_PRIV_H */
