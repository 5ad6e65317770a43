/*
 * iio_device.c - device objects: allocation, references, the device lock,
 * the "gone" state and bus clients.
 *
 * A device outlives its registration for as long as anyone (a consumer
 * channel, an in-flight server request) holds a reference: unregistering
 * marks it gone under its lock, which is what turns every later access into
 * -ENODEV instead of a use-after-free (the kernel's info_exist_lock scheme).
 * The driver table and binding are iio_driver.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "iio_irq.h"
#include "iio_priv.h"
#include "bus/bus.h"

struct iio_dev *iio_device_alloc(size_t sizeof_priv)
{
	struct iio_dev_opaque *op;

	op = calloc(1, sizeof(*op) + sizeof_priv);
	if (!op)
		return NULL;
	atomic_init(&op->refs, 1);
	pthread_mutex_init(&op->lock, NULL);
	pthread_mutex_init(&op->events_lock, NULL);
	op->id = -1;
	op->want_id = -1;
	op->priv_size = sizeof_priv;
	return &op->dev;
}

void *iio_priv(const struct iio_dev *indio_dev)
{
	return to_iio_dev_opaque(indio_dev)->priv;
}

struct iio_dev *iio_device_get(struct iio_dev *indio_dev)
{
	if (indio_dev)
		atomic_fetch_add(&to_iio_dev_opaque(indio_dev)->refs, 1);
	return indio_dev;
}

void iio_device_put(struct iio_dev *indio_dev)
{
	struct iio_dev_opaque *op;

	if (!indio_dev)
		return;
	op = to_iio_dev_opaque(indio_dev);
	if (atomic_fetch_sub(&op->refs, 1) != 1)
		return;
	/* last reference: a device never registered still needs its remove() */
	iio_device_mark_gone(indio_dev);
	iio_device_attrs_free(indio_dev);
	iio_device_buffer_free(indio_dev);
	iio_event_release(indio_dev);
	pthread_mutex_destroy(&op->events_lock);
	pthread_mutex_destroy(&op->lock);
	free(op);
}

void iio_device_lock(struct iio_dev *indio_dev)
{
	pthread_mutex_lock(&to_iio_dev_opaque(indio_dev)->lock);
}

bool iio_device_trylock(struct iio_dev *indio_dev)
{
	return pthread_mutex_trylock(&to_iio_dev_opaque(indio_dev)->lock) == 0;
}

void iio_device_unlock(struct iio_dev *indio_dev)
{
	pthread_mutex_unlock(&to_iio_dev_opaque(indio_dev)->lock);
}

bool iio_device_is_gone(const struct iio_dev *indio_dev)
{
	return to_iio_dev_opaque(indio_dev)->gone;
}

void iio_device_mark_gone(struct iio_dev *indio_dev)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	const struct iio_driver *drv;
	struct bus_i2c_client *i2c;
	struct bus_spi_device *spi;

	/* first the interrupt thread, whose handler takes the lock we are about to hold */
	iio_irq_stop(indio_dev);
	iio_device_lock(indio_dev);
	if (op->gone) {
		iio_device_unlock(indio_dev);
		return;
	}
	op->gone = true;
	drv = op->driver;
	/* remove() runs under the lock so no access interleaves with the power-down */
	if (drv && drv->remove)
		drv->remove(indio_dev);
	i2c = op->i2c;
	spi = op->spi;
	op->i2c = NULL;
	op->spi = NULL;
	iio_device_unlock(indio_dev);
	iio_event_wake(indio_dev);
	bus_i2c_client_destroy(i2c);
	bus_spi_device_destroy(spi);
}

int iio_device_id(const struct iio_dev *indio_dev)
{
	return to_iio_dev_opaque(indio_dev)->id;
}

void iio_device_set_id(struct iio_dev *indio_dev, int id)
{
	to_iio_dev_opaque(indio_dev)->id = id;
}

void iio_device_set_i2c(struct iio_dev *indio_dev, struct bus_i2c_client *client)
{
	to_iio_dev_opaque(indio_dev)->i2c = client;
	if (client)
		iio_hwid_format(indio_dev->hwid, sizeof(indio_dev->hwid), client, NULL);
}

void iio_device_set_spi(struct iio_dev *indio_dev, struct bus_spi_device *spi)
{
	to_iio_dev_opaque(indio_dev)->spi = spi;
	if (spi)
		iio_hwid_format(indio_dev->hwid, sizeof(indio_dev->hwid), NULL, spi);
}

struct bus_i2c_client *iio_device_i2c(const struct iio_dev *indio_dev)
{
	return to_iio_dev_opaque(indio_dev)->i2c;
}

struct bus_spi_device *iio_device_spi(const struct iio_dev *indio_dev)
{
	return to_iio_dev_opaque(indio_dev)->spi;
}

const struct iio_driver *iio_device_driver(const struct iio_dev *indio_dev)
{
	return to_iio_dev_opaque(indio_dev)->driver;
}

void iio_device_set_driver(struct iio_dev *indio_dev, const struct iio_driver *drv)
{
	to_iio_dev_opaque(indio_dev)->driver = drv;
}

void iio_device_set_io_source(struct iio_dev *indio_dev, struct iio_dev *source)
{
	to_iio_dev_opaque(indio_dev)->io_source = source;
}

/* The device at the bottom of a stack of front ends: the one doing the I/O (depth < 8). */
static const struct iio_dev_opaque *iio_device_bottom(const struct iio_dev *indio_dev)
{
	const struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);

	while (op->io_source && !op->i2c && !op->spi && !op->own_queue)
		op = to_iio_dev_opaque(op->io_source);
	return op;
}

static struct bus *iio_device_bus(const struct iio_dev *indio_dev)
{
	const struct iio_dev_opaque *op = iio_device_bottom(indio_dev);

	if (op->i2c)
		return op->i2c->bus;
	if (op->spi)
		return op->spi->bus;
	return NULL;
}

void iio_device_set_own_queue(struct iio_dev *indio_dev)
{
	to_iio_dev_opaque(indio_dev)->own_queue = true;
}

bool iio_device_may_block(const struct iio_dev *indio_dev)
{
	struct bus *bus = iio_device_bus(indio_dev);

	if (iio_device_bottom(indio_dev)->own_queue)
		return true;
	return bus && __atomic_load_n(&bus->may_block, __ATOMIC_RELAXED);
}

const void *iio_device_bus_key(const struct iio_dev *indio_dev)
{
	const struct iio_dev_opaque *op = iio_device_bottom(indio_dev);

	/* a device that queues its own I/O is its own key */
	if (op->own_queue)
		return &op->dev;
	return iio_device_bus(indio_dev);
}
