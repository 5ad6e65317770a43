/*
 * sensortest.h - one sensor chip and its driver, brought up in a test
 * without a board file: the I2C light sensors and the SPI IMUs.
 *
 * The steps the board loader takes for one device, spelled out for either
 * bus type: a bus (emulated, or an i2c-dev/spidev one the caller opened
 * on a shim node), a chip model on it, an I2C client or SPI device, the
 * driver's probe with integer board properties, registration in a
 * registry; plus reading and writing attributes by name and listing a
 * device's attribute names. Header-only (static inline), because every
 * tests/test_*.c is its own program. It asserts nothing: helpers return 0
 * or -errno and leave the verdict to the test.
 */
#ifndef IIOWIRE_SENSORTEST_H
#define IIOWIRE_SENSORTEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iio.h"
#include "iio_core.h"
#include "iio_event.h"
#include "iio_irq.h"
#include "iio_registry.h"
#include "bus/bus.h"
#include "emu/emu.h"

/* A constant input for a chip model: SENSORTEST_CONST("broadband", 1000). */
#define SENSORTEST_CONST(k, v) \
	{ .key = (k), .sig = { .kind = EMU_SIGNAL_CONST, .value = (v) } }

/* Room for one probe or model error message. */
#define SENSORTEST_ERR_MAX	512
/* Longest attribute value a test reads. */
#define SENSORTEST_VALUE_MAX	128

/* One board property, an integer or (@str set) a string; an array of them ends with a NULL key. */
struct sensortest_prop {
	const char *key;
	int value;
	const char *str;
};

/*
 * Not a board property: { SENSORTEST_PROP_IRQ, 1 } in a test's list wires the
 * chip's interrupt output to the driver ("irq": "emulated" in a board file).
 */
#define SENSORTEST_PROP_IRQ	"test:irq"

static inline int sensortest_prop_int(const void *props, const char *key, int *val)
{
	const struct sensortest_prop *p;

	for (p = props; p && p->key; p++) {
		if (strcmp(p->key, key) == 0) {
			*val = p->value;
			return 0;
		}
	}
	return -ENOENT;
}

static inline int sensortest_prop_str(const void *props, const char *key, const char **val)
{
	const struct sensortest_prop *p;

	for (p = props; p && p->key; p++) {
		if (strcmp(p->key, key) == 0 && p->str) {
			*val = p->str;
			return 0;
		}
	}
	return -ENOENT;
}

/**
 * sensortest_model_create() - a chip model of @part with @inputs, not
 * attached. Return: 0 with *out (owned until attached), or -errno.
 */
static inline int sensortest_model_create(const char *part, const struct emu_input *inputs,
					  int ninputs, struct emu_chip **out, char *err,
					  size_t errlen)
{
	const struct iio_device_id *id = NULL;
	const struct emu_model *model = emu_model_find(part, &id);
	struct emu_params params = {
		.name = part, .id = id, .inputs = inputs, .ninputs = ninputs,
	};

	if (!model) {
		snprintf(err, errlen, "no chip model for %s", part);
		return -ENOENT;
	}
	return model->create(&params, out, err, errlen);
}

/**
 * sensortest_probe() - probe the driver of @part at @addr (I2C address or
 * SPI chip select, by the bus's type) on @bus and register the device in
 * @reg. The device owns its bus client from then on.
 * @props: board properties ending with a NULL key, or NULL.
 * @out: borrowed from @reg.
 * Return: 0, or the probe's / registration's -errno with @err filled.
 */
static inline int sensortest_probe(struct bus *bus, struct iio_registry *reg, const char *part,
				   uint16_t addr, const struct sensortest_prop *props,
				   struct iio_dev **out, char *err, size_t errlen)
{
	const struct iio_device_id *id = NULL;
	const struct iio_driver *drv = iio_driver_find(part, &id);
	struct bus_i2c_client *i2c = NULL;
	struct bus_spi_device *spi = NULL;
	struct iio_irq_spec irq = { .kind = IIO_IRQ_EMULATED, .bus = bus, .addr = addr };
	struct iio_dev *dev = NULL;
	struct iio_probe p;
	int ret, want_irq = 0;

	err[0] = '\0';
	sensortest_prop_int(props, SENSORTEST_PROP_IRQ, &want_irq);
	if (!drv) {
		snprintf(err, errlen, "no driver for %s", part);
		return -ENOENT;
	}
	if (bus->type == BUS_I2C)
		ret = bus_i2c_client_create(bus, addr, &i2c);
	else
		ret = bus_spi_device_create(bus, addr, &spi);
	if (ret < 0) {
		snprintf(err, errlen, "bus client %d/%u: %d", bus->number, addr, ret);
		return ret;
	}
	p = (struct iio_probe){
		.id = id, .name = id->name, .i2c = i2c, .spi = spi, .props = props,
		.irq = want_irq ? &irq : NULL,
		.prop_int = sensortest_prop_int, .prop_str = sensortest_prop_str,
	};
	ret = drv->probe(&p, &dev, err, errlen);
	if (ret < 0)
		goto err_destroy_client;
	if (i2c)
		iio_device_set_i2c(dev, i2c);
	else
		iio_device_set_spi(dev, spi);
	iio_device_set_driver(dev, drv);
	ret = iio_device_register(reg, dev, err, errlen);
	if (ret < 0) {
		iio_device_put(dev);	/* the device's put also ends its client */
		return ret;
	}
	*out = dev;
	return 0;

err_destroy_client:
	bus_i2c_client_destroy(i2c);
	bus_spi_device_destroy(spi);
	return ret;
}

/**
 * struct sensortest - the usual fixture: one bus, one chip, one registered
 * device. Set up with sensortest_setup() or sensortest_setup_on(), end with
 * sensortest_teardown().
 * @chip: the model, borrowed from the bus (or shim) that owns it.
 */
struct sensortest {
	struct bus *bus;
	struct iio_registry *reg;
	struct iio_dev *dev;
	struct emu_chip *chip;
	uint16_t addr;
	char err[SENSORTEST_ERR_MAX];
};

/**
 * sensortest_teardown() - unregister the device (its driver's remove runs),
 * then drop the bus, which ends the chips of an emulated bus. NULL-safe.
 */
static inline void sensortest_teardown(struct sensortest *st)
{
	if (!st)
		return;
	iio_registry_destroy(st->reg);
	bus_put(st->bus);
	st->reg = NULL;
	st->bus = NULL;
	st->dev = NULL;
	st->chip = NULL;
}

/**
 * sensortest_setup_on() - probe and register @part at @addr on @bus, whose
 * chip the caller already placed. Takes over the caller's reference on
 * @bus, also on failure.
 * Return: 0, or -errno with st->err saying what failed (nothing left open).
 */
static inline int sensortest_setup_on(struct sensortest *st, struct bus *bus, const char *part,
				      uint16_t addr, const struct sensortest_prop *props)
{
	int ret;

	memset(st, 0, sizeof(*st));
	st->bus = bus;
	st->addr = addr;
	st->reg = iio_registry_create();
	if (!st->reg) {
		snprintf(st->err, sizeof(st->err), "registry: out of memory");
		ret = -ENOMEM;
		goto err_teardown;
	}
	ret = sensortest_probe(bus, st->reg, part, addr, props, &st->dev, st->err,
			       sizeof(st->err));
	if (ret < 0)
		goto err_teardown;
	return 0;

err_teardown:
	sensortest_teardown(st);
	return ret;
}

/**
 * sensortest_setup() - an emulated bus 0 of @type, a model of @part at
 * @addr with @inputs, its driver probed and registered. With @frozen_s >= 0
 * the bus clock is frozen there first (it then moves only by the driver's
 * waits), so results do not depend on how fast the test runs.
 * Return: 0, or -errno with st->err filled (nothing left open).
 */
static inline int sensortest_setup(struct sensortest *st, enum bus_type type, const char *part,
				   uint16_t addr, const struct emu_input *inputs, int ninputs,
				   const struct sensortest_prop *props, double frozen_s)
{
	struct emu_chip *chip;
	struct bus *bus;
	char err[SENSORTEST_ERR_MAX];
	int ret;

	memset(st, 0, sizeof(*st));
	ret = bus_create(bus_backend_find("emulated"), type, 0, NULL, &bus);
	if (ret < 0) {
		snprintf(st->err, sizeof(st->err), "emulated bus: %d", ret);
		return ret;
	}
	if (frozen_s >= 0)
		emu_bus_set_time(bus, frozen_s);
	ret = sensortest_model_create(part, inputs, ninputs, &chip, err, sizeof(err));
	if (ret < 0) {
		bus_put(bus);
		snprintf(st->err, sizeof(st->err), "%s", err);
		return ret;
	}
	ret = emu_bus_attach(bus, addr, chip);
	if (ret < 0) {
		bus_put(bus);
		snprintf(st->err, sizeof(st->err), "attach %s at %u: %d", part, addr, ret);
		return ret;
	}
	ret = sensortest_setup_on(st, bus, part, addr, props);
	if (ret < 0)
		return ret;
	st->chip = emu_bus_chip(st->bus, addr);
	return 0;
}

/**
 * sensortest_read() - read attribute @name of @dev into @buf ('\n' included).
 * Return: the length, -ENOENT when the device has no such attribute, or the read's -errno.
 */
static inline ssize_t sensortest_read(struct iio_dev *dev, const char *name, char *buf,
				      size_t len)
{
	const struct iio_attr *attr = iio_device_attr_find(dev, name);

	buf[0] = '\0';
	if (!attr)
		return -ENOENT;
	return iio_attr_read(dev, attr, buf, len);
}

/**
 * sensortest_read_int() - read an integer attribute.
 * Return: 0, -EINVAL if it is not an integer, or -errno as sensortest_read().
 */
static inline int sensortest_read_int(struct iio_dev *dev, const char *name, long *val)
{
	char buf[SENSORTEST_VALUE_MAX], *end;
	ssize_t n = sensortest_read(dev, name, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	*val = strtol(buf, &end, 10);
	if (end == buf || *end != '\n')
		return -EINVAL;
	return 0;
}

/**
 * sensortest_write() - write @text to attribute @name.
 * Return: 0, -ENOENT when there is no such attribute, or the write's -errno.
 */
static inline int sensortest_write(struct iio_dev *dev, const char *name, const char *text)
{
	const struct iio_attr *attr = iio_device_attr_find(dev, name);

	if (!attr)
		return -ENOENT;
	return iio_attr_write(dev, attr, text, strlen(text));
}

/**
 * sensortest_peer() - @op(client, @arg) through a second client at the
 * device's address: a look at the chip (or an opcode to it) behind the
 * driver's back, as bus_smbus_read_byte_data() or bus_smbus_write_byte().
 * Return: what @op returns, or the client's -errno.
 */
static inline int sensortest_peer(const struct sensortest *st,
				  int (*op)(struct bus_i2c_client *c, uint8_t arg), uint8_t arg)
{
	struct bus_i2c_client *c;
	int ret;

	ret = bus_i2c_client_create(st->bus, st->addr, &c);
	if (ret < 0)
		return ret;
	ret = op(c, arg);
	bus_i2c_client_destroy(c);
	return ret;
}

static inline int sensortest_strcmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/**
 * sensortest_same_attrs() - whether @dev has exactly the attributes named in
 * @want (NULL-terminated, any order). On a difference @why names the first
 * missing or extra attribute.
 * Return: true if the sets are equal.
 */
static inline bool sensortest_same_attrs(struct iio_dev *dev, const char *const *want,
					 char *why, size_t whylen)
{
	int n = iio_device_attr_count(dev), nw = 0, i;
	const char **have = calloc((size_t)n + 1, sizeof(*have));
	const char **sorted;
	bool same = true;

	why[0] = '\0';
	while (want[nw])
		nw++;
	sorted = calloc((size_t)nw + 1, sizeof(*sorted));
	if (!have || !sorted) {
		free(have);
		free(sorted);
		snprintf(why, whylen, "out of memory");
		return false;
	}
	for (i = 0; i < n; i++)
		have[i] = iio_device_attr_at(dev, i)->name;
	memcpy(sorted, want, (size_t)nw * sizeof(*sorted));
	qsort(have, (size_t)n, sizeof(*have), sensortest_strcmp);
	qsort(sorted, (size_t)nw, sizeof(*sorted), sensortest_strcmp);
	for (i = 0; i < n || i < nw; i++) {
		if (i >= n || (i < nw && strcmp(have[i], sorted[i]) > 0)) {
			snprintf(why, whylen, "missing %s", sorted[i]);
			same = false;
			break;
		}
		if (i >= nw || strcmp(have[i], sorted[i]) < 0) {
			snprintf(why, whylen, "unexpected %s", have[i]);
			same = false;
			break;
		}
	}
	free(have);
	free(sorted);
	return same;
}

/**
 * sensortest_next_event() - the next event code of @dev's queue (opened by
 * the caller with iio_event_open()) within about @wait_ms, looked at every
 * millisecond (an emulated INT line is sampled as often). Return: the code, 0 if none.
 */
static inline uint64_t sensortest_next_event(struct iio_dev *dev, int wait_ms)
{
	struct iio_event_data ev;
	uint64_t lost;
	int i;

	for (i = 0; i < wait_ms; i++) {
		if (iio_event_read(dev, &ev, 1, &lost) == 1)
			return ev.id;
		nanosleep(&(struct timespec){ 0, 1000000L }, NULL);
	}
	return 0;
}

#endif /* IIOWIRE_SENSORTEST_H */
