/*
 * iio_device.c - device objects: allocation, references, the device lock,
 * the "gone" state, bus clients, and the built-in driver table.
 *
 * A device outlives its registration for as long as anyone (a consumer
 * channel, an in-flight server request) holds a reference: unregistering
 * marks it gone under its lock, which is what turns every later access into
 * -ENODEV instead of a use-after-free (the kernel's info_exist_lock scheme).
 * Drivers are found by walking the link-time section IIO_DRIVER_REGISTER()
 * fills; this file never names one.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "iio_priv.h"
#include "bus/bus.h"

extern const struct iio_driver *const __start_iiowire_drivers[] __attribute__((weak));
extern const struct iio_driver *const __stop_iiowire_drivers[] __attribute__((weak));

size_t iio_driver_count(void)
{
	if (!__start_iiowire_drivers)
		return 0;
	return (size_t)(__stop_iiowire_drivers - __start_iiowire_drivers);
}

const struct iio_driver *iio_driver_at(size_t i)
{
	return i < iio_driver_count() ? __start_iiowire_drivers[i] : NULL;
}

const struct iio_driver *iio_driver_find(const char *name, const struct iio_device_id **id)
{
	size_t i, n = iio_driver_count();
	const struct iio_device_id *row;

	for (i = 0; i < n; i++) {
		for (row = __start_iiowire_drivers[i]->id_table; row && row->name; row++) {
			if (strcmp(row->name, name) == 0) {
				if (id)
					*id = row;
				return __start_iiowire_drivers[i];
			}
		}
	}
	return NULL;
}

int iio_probe_prop_int(const struct iio_probe *p, const char *key, int *val)
{
	if (!p->prop_int)
		return -ENOENT;
	return p->prop_int(p->props, key, val);
}

int iio_probe_prop_str(const struct iio_probe *p, const char *key, const char **val)
{
	if (!p->prop_str)
		return -ENOENT;
	return p->prop_str(p->props, key, val);
}

int iio_probe_vref_mv(const struct iio_probe *p, int *vref_mv, char *err, size_t errlen)
{
	int ret = iio_probe_prop_int(p, "vref_mv", vref_mv);

	if (ret == -ENOENT) {
		*vref_mv = 0;
		return 0;
	}
	if (ret == 0 && *vref_mv > 0)
		return 0;
	if (err && errlen && p->i2c)
		snprintf(err, errlen, "%s at %d-%04x: vref_mv must be a positive integer",
			 p->name, p->i2c->bus->number, p->i2c->addr);
	else if (err && errlen)
		snprintf(err, errlen, "%s: vref_mv must be a positive integer", p->name);
	return -EINVAL;
}

struct iio_dev *iio_device_alloc(size_t sizeof_priv)
{
	struct iio_dev_opaque *op;

	op = calloc(1, sizeof(*op) + sizeof_priv);
	if (!op)
		return NULL;
	atomic_init(&op->refs, 1);
	pthread_mutex_init(&op->lock, NULL);
	op->id = -1;
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
	pthread_mutex_destroy(&op->lock);
	free(op);
}

void iio_device_lock(struct iio_dev *indio_dev)
{
	pthread_mutex_lock(&to_iio_dev_opaque(indio_dev)->lock);
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
		snprintf(indio_dev->hwid, sizeof(indio_dev->hwid), "%d-%04x",
			 client->bus->number, client->addr);
}

void iio_device_set_spi(struct iio_dev *indio_dev, struct bus_spi_device *spi)
{
	to_iio_dev_opaque(indio_dev)->spi = spi;
	if (spi)
		snprintf(indio_dev->hwid, sizeof(indio_dev->hwid), "spi%d.%d",
			 spi->bus->number, spi->cs);
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

static struct bus *iio_device_bus(const struct iio_dev *indio_dev)
{
	const struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);

	/* front ends stack on ADCs: the bus is the one at the bottom (depth < 8) */
	while (op->io_source && !op->i2c && !op->spi)
		op = to_iio_dev_opaque(op->io_source);

	if (op->i2c)
		return op->i2c->bus;
	if (op->spi)
		return op->spi->bus;
	return NULL;
}

bool iio_device_may_block(const struct iio_dev *indio_dev)
{
	struct bus *bus = iio_device_bus(indio_dev);

	return bus && __atomic_load_n(&bus->may_block, __ATOMIC_RELAXED);
}

const void *iio_device_bus_key(const struct iio_dev *indio_dev)
{
	return iio_device_bus(indio_dev);
}
