/*
 * iio_registry.h - the set of registered devices and consumer maps.
 *
 * A registry is what /sys/bus/iio/devices plus the kernel's iio_map_list are
 * together: devices numbered iio:deviceN (lowest free N) in registration
 * order, looked up by id, name, label or hardware id, and the channel maps
 * that tie a consumer's channel to a provider's datasheet channel. A board
 * file fills one registry (board.h); a reload builds a new one and swaps.
 * All functions are for one thread (the event loop); device accesses
 * themselves are thread-safe (iio_core.h).
 */
#ifndef IIOWIRE_IIO_REGISTRY_H
#define IIOWIRE_IIO_REGISTRY_H

#include "iio.h"

/**
 * struct iio_map - one consumer mapping, as the kernel's plus the provider.
 * @adc_dev_name: the provider as the board names it (hardware id, name,
 *	label or iio:deviceN), resolved at registration.
 * @adc_channel_label: the provider channel's datasheet_name.
 */
struct iio_map {
	const char *adc_dev_name;
	const char *adc_channel_label;
	const char *consumer_dev_name;
	const char *consumer_channel;
};

struct iio_registry;

/** iio_registry_create()/iio_registry_destroy() - destroy unregisters every device (NULL-safe). */
struct iio_registry *iio_registry_create(void);
void iio_registry_destroy(struct iio_registry *reg);

/**
 * iio_device_register() - build the attributes, assign iio:deviceN, add.
 * Takes over the caller's reference on success; on failure the caller
 * keeps it (and frees with iio_device_put()).
 * Return: 0, -EBUSY (duplicate attribute, @err says which), -EINVAL, -ENOMEM.
 */
int iio_device_register(struct iio_registry *reg, struct iio_dev *indio_dev,
			char *err, size_t errlen);
/**
 * iio_device_unregister() - remove from the registry, mark gone (held
 * consumer channels now get -ENODEV) and drop the registry's reference.
 * Maps naming it stay until iio_map_array_unregister(), as in the kernel.
 */
void iio_device_unregister(struct iio_registry *reg, struct iio_dev *indio_dev);
/**
 * iio_device_unlist()/iio_device_remove() - iio_device_unregister() in two
 * steps, for a device that leaves while the others stay: unlist takes it off
 * @reg (loop thread: lookups stop finding it; its own trigger goes), remove
 * ends its readers, runs the driver's remove() and drops the registry's
 * reference (any thread: a kernel device's remove may wait on its files).
 * Return (unlist): true when it was listed; remove only what was.
 */
bool iio_device_unlist(struct iio_registry *reg, struct iio_dev *indio_dev);
void iio_device_remove(struct iio_dev *indio_dev);

/** iio_registry_find_dev() - is @indio_dev registered in @reg? */
bool iio_registry_find_dev(const struct iio_registry *reg, const struct iio_dev *indio_dev);

/** iio_registry_count()/iio_registry_at() - walk devices in registration order; borrowed. */
int iio_registry_count(const struct iio_registry *reg);
struct iio_dev *iio_registry_at(const struct iio_registry *reg, int i);

/**
 * iio_registry_find() - look a device up by "iio:deviceN", hardware id,
 * label or name, in that order of precedence.
 * @out: borrowed, valid while registered (take iio_device_get() to keep it).
 * @err: on -ENOTUNIQ, the candidates ("iio:device1 (0-0035), iio:device4 (0-0036)").
 * Return: 0, -ENODEV if nothing matches, -ENOTUNIQ if a name/label matches several.
 */
int iio_registry_find(const struct iio_registry *reg, const char *key,
		      struct iio_dev **out, char *err, size_t errlen);

/**
 * iio_map_array_register() - add @n maps for the provider @indio_dev; the
 * strings are copied. Labels are not checked here (as in the kernel);
 * board.c checks them first.
 * Return: 0 or -ENOMEM (then none of this call's maps stay).
 */
int iio_map_array_register(struct iio_registry *reg, struct iio_dev *indio_dev,
			   const struct iio_map *maps, int n);
/**
 * iio_map_array_unregister() - drop every map of @indio_dev.
 * Return: 0, or -ENODEV if it had none.
 */
int iio_map_array_unregister(struct iio_registry *reg, struct iio_dev *indio_dev);

/**
 * iio_registry_map_count()/iio_registry_map_at() - maps in registration
 * order; @provider may be NULL.
 */
int iio_registry_map_count(const struct iio_registry *reg);
const struct iio_map *iio_registry_map_at(const struct iio_registry *reg, int i,
					  struct iio_dev **provider);

#endif /* IIOWIRE_IIO_REGISTRY_H */
