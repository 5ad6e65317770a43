/*
 * iio_core.h - the IIO core as its users see it: ABI names, attributes,
 * reading and writing them.
 *
 * iio_core.c builds every attribute name of a device from its channel specs
 * with the kernel's three tables (channel type names, modifier names, info
 * postfixes) and the kernel's sharing and duplicate rules, then serves reads
 * and writes of those attributes through the driver's callbacks under the
 * device lock. The server and tools reach devices only through this header
 * and iio_registry.h. No sockets, no logging here.
 */
#ifndef IIOWIRE_IIO_CORE_H
#define IIOWIRE_IIO_CORE_H

#include <sys/types.h>
#include "iio.h"

/* Longest attribute name we build; the kernel's are far shorter. */
#define IIO_ATTR_NAME_MAX	128

/*
 * The ABI name tables (iio_chan_type_name(), iio_modifier_name(),
 * iio_chan_info_postfix(), ...) are the leaf's: abi/iio_types.h, via iio.h.
 */
/* "separate", "shared_by_type", ...; NULL for a value without a name */
const char *iio_shared_by_name(enum iio_shared_by shared);

/**
 * iio_chan_id() - a channel's ABI id, as sysfs names group it and libiio
 * shows it: "voltage0", "voltage0-voltage1", "accel_x", "intensity_both".
 * Return: length, -EINVAL (no name for the type or modifier), -ENAMETOOLONG.
 */
int iio_chan_id(char *buf, size_t len, const struct iio_chan_spec *chan);

/**
 * iio_device_find_channel() - the channel a map's adc_channel_label names:
 * the one with that datasheet_name, else (an iiowire extension, for drivers
 * that name no channels) the input, then output, channel without a
 * datasheet_name whose iio_chan_id() it is.
 * Return: borrowed spec, or NULL.
 */
const struct iio_chan_spec *iio_device_find_channel(const struct iio_dev *indio_dev,
						    const char *label);

enum iio_attr_kind {
	IIO_ATTR_INFO,		/* an info-mask bit: _raw, _scale, ... */
	IIO_ATTR_AVAIL,		/* its _available twin */
	IIO_ATTR_LABEL,		/* channel _label */
	IIO_ATTR_EXT,		/* ext_info entry */
	IIO_ATTR_DEV_NAME,	/* device "name" */
	IIO_ATTR_DEV_LABEL,	/* device "label" */
	IIO_ATTR_TS_CLOCK,	/* current_timestamp_clock */
	IIO_ATTR_TEXT,		/* known only by its file: a mirrored kernel device's */
	IIO_ATTR_BUFFER,	/* buffer/, buffer0/, scan_elements/, trigger/ (iio_buffer.h) */
	IIO_ATTR_EVENT,		/* events/..._en, _value, ... of an event spec */
	IIO_ATTR_DEVICE,	/* struct iio_dev_attr: poke_ev0, events/sampling_frequency */
};

/**
 * struct iio_attr - one attribute of a registered device (read-only view).
 * @chan: the channel that owns it (for shared ones, the first that declared
 *	it, in array order); NULL for device attributes.
 * @info: the IIO_CHAN_INFO_* bit for INFO and AVAIL kinds, the
 *	IIO_EV_INFO_* bit for EVENT.
 * @ev: EVENT: the channel's event spec; @dattr: DEVICE: the driver's entry.
 * @mode: 0644, 0444 or 0200, as sysfs would show.
 */
struct iio_attr {
	char name[IIO_ATTR_NAME_MAX];
	enum iio_attr_kind kind;
	const struct iio_chan_spec *chan;
	int info;
	enum iio_shared_by shared;
	unsigned int mode;
	const struct iio_chan_spec_ext_info *ext;
	const struct iio_event_spec *ev;
	const struct iio_dev_attr *dattr;
};

/**
 * iio_attr_name_build() - the name the kernel gives (@chan, @postfix, @shared).
 * @postfix: "raw", "scale_available", "label", an ext_info name...
 * Return: length, -EINVAL (differential SEPARATE without index; a modifier
 * or type without a name), -ENAMETOOLONG.
 */
int iio_attr_name_build(char *buf, size_t len, const struct iio_chan_spec *chan,
			const char *postfix, enum iio_shared_by shared);

/**
 * iio_device_attrs_build() - generate the attribute set of @indio_dev in the
 * kernel's order (per channel: separate, separate_available, by_type, ...,
 * label, ext_info; then device attributes). Called by registration.
 * Return: 0, -EBUSY on a duplicate separate name (@err names it), -EINVAL
 * for an info bit past the table, -ENOMEM.
 */
int iio_device_attrs_build(struct iio_dev *indio_dev, char *err, size_t errlen);

/**
 * iio_device_set_attrs() - give @indio_dev its attribute set instead of
 * having registration build it from the channel specs: a mirrored kernel
 * device's files (drivers/kernel/), whose names and modes are what sysfs
 * holds. @attrs is borrowed until registration copies it; every @chan in it
 * points into indio_dev->channels.
 */
void iio_device_set_attrs(struct iio_dev *indio_dev, const struct iio_attr *attrs, int n);

/**
 * iio_device_request_id() - ask registration for iio:device@id (a kernel
 * device keeps its number); a number already taken gets the lowest free one.
 */
void iio_device_request_id(struct iio_dev *indio_dev, int id);

/**
 * iio_device_set_own_queue() - the device does its own I/O that may block
 * (file reads of a kernel device): iio_device_may_block() is true and the
 * device itself is its iio_device_bus_key(), so it has a worker of its own.
 */
void iio_device_set_own_queue(struct iio_dev *indio_dev);

/**
 * iio_device_attr_count()/iio_device_attr_at() - walk the attributes;
 * borrowed, valid while the device lives.
 */
int iio_device_attr_count(const struct iio_dev *indio_dev);
const struct iio_attr *iio_device_attr_at(const struct iio_dev *indio_dev, int i);
/**
 * iio_device_attr_find() - by exact name; NULL if none. Also finds the
 * buffer files ("scan_elements/in_voltage0_en", "buffer/enable"), which
 * iio_device_attr_at() does not list (iio_device_buffer_attr_at() does).
 */
const struct iio_attr *iio_device_attr_find(const struct iio_dev *indio_dev, const char *name);

/**
 * iio_attr_read() - the attribute's text as sysfs shows it, '\n' included.
 * Return: length (< @len), -ENODEV once the device is gone, -EINVAL when
 * the driver refuses, -EFBIG, -EACCES for a write-only attribute, or the
 * driver's / bus's -errno.
 */
ssize_t iio_attr_read(struct iio_dev *indio_dev, const struct iio_attr *attr,
		      char *buf, size_t len);

/**
 * iio_attr_read_value() - the raw (type, vals) behind an INFO attribute,
 * for clients that compute exactly (the wire's scale-as-JSON).
 * @vals: room for @max ints; *n gets the count.
 * Return: the IIO_VAL_* type, or -errno as iio_attr_read().
 */
int iio_attr_read_value(struct iio_dev *indio_dev, const struct iio_attr *attr,
			int *vals, int max, int *n);

/**
 * iio_attr_write() - store text into the attribute, parsed in the driver's
 * format. Malformed text changes nothing.
 * Return: 0, -EACCES for a read-only attribute, -EINVAL for malformed text or
 * a value the driver refuses, -ENODEV once gone, or the driver's -errno.
 */
int iio_attr_write(struct iio_dev *indio_dev, const struct iio_attr *attr,
		   const char *buf, size_t len);

/**
 * iio_device_lock()/iio_device_unlock() - the per-device lock every access
 * takes (the kernel's info_exist_lock and mlock in one).
 * iio_device_is_gone() - true once unregistered; checked under the lock.
 */
void iio_device_lock(struct iio_dev *indio_dev);
void iio_device_unlock(struct iio_dev *indio_dev);
/*
 * iio_device_trylock() - the lock if free (true), for a producer thread that
 * must not wait on it: the lock's holder may be joining that thread.
 */
bool iio_device_trylock(struct iio_dev *indio_dev);
bool iio_device_is_gone(const struct iio_dev *indio_dev);

/**
 * iio_device_mark_gone() - the first half of unregistration: under the lock,
 * detach the driver so every later access returns -ENODEV, then run the
 * driver's remove() and release the bus client. Idempotent.
 */
void iio_device_mark_gone(struct iio_dev *indio_dev);

/** iio_device_id() - the N of iio:deviceN, or -1 before registration. */
int iio_device_id(const struct iio_dev *indio_dev);
void iio_device_set_id(struct iio_dev *indio_dev, int id);

/**
 * iio_device_may_block() - true if a read or write can wait on real hardware
 * (or an emulated hang), so the caller must run it off the event loop.
 * iio_device_bus_key() - an opaque key equal for devices sharing a bus, so a
 * caller can serialise per bus; NULL for bus-less devices.
 */
bool iio_device_may_block(const struct iio_dev *indio_dev);
const void *iio_device_bus_key(const struct iio_dev *indio_dev);

/**
 * iio_chan_has_attr() - would @chan's spec have produced @attr: does it
 * own it, or share it? A shared attribute is added once for every channel
 * that declares the same info bit or ext_info at the same sharing level
 * and so builds the same name (iio_device_attrs_build()); this asks that
 * same rule, for listings that show a channel's attributes.
 * Return: true or false (false for a device attribute).
 */
bool iio_chan_has_attr(const struct iio_chan_spec *chan, const struct iio_attr *attr);

#endif /* IIOWIRE_IIO_CORE_H */
