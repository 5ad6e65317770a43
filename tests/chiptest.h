/*
 * chiptest.h - bring up one chip and its driver in a test, without a board file.
 *
 * The steps the board loader takes for one device, spelled out: a bus
 * (emulated, or any other the caller opened), a chip model attached to it,
 * an I2C client, the driver's probe with a vref_mv property, and
 * registration in a registry; plus reading attributes by name. Header-only
 * (static inline), because every tests/test_*.c is its own program built
 * from itself and testutil.c. Used by the chip driver suites (emulated and
 * through the i2c-dev shim); it asserts nothing itself: every helper returns
 * 0 or -errno and leaves the verdict to the test.
 *
 * Where the chip lives is a struct chiptest_backend: chiptest_emulated here,
 * the i2c-dev shim nodes in tests/shim/shimchip.h. chiptest_open() brings a
 * device up on either, so one suite body (tests/chipsuite.h) runs on both.
 */
#ifndef IIOWIRE_CHIPTEST_H
#define IIOWIRE_CHIPTEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio.h"
#include "iio_core.h"
#include "iio_irq.h"
#include "iio_registry.h"
#include "bus/bus.h"
#include "emu/emu.h"

/* A constant input for a chip model: CHIPTEST_CONST("AIN1", 1200). */
#define CHIPTEST_CONST(k, v)	\
	{ .key = (k), .sig = { .kind = EMU_SIGNAL_CONST, .value = (v) } }

/* Room for one probe or model error message. */
#define CHIPTEST_ERR_MAX	256

/**
 * struct chiptest_props - the board properties a probe sees.
 * @has_vref/@vref_mv: "vref_mv", present or absent.
 * @irq: the board wires the chip's interrupt output ("irq": "emulated"):
 *	the model's line on an emulated bus; on another backend a line that
 *	never fires (the driver still takes its irq configuration).
 */
struct chiptest_props {
	bool has_vref;
	int vref_mv;
	bool irq;
};

static inline int chiptest_prop_int(const void *props, const char *key, int *val)
{
	const struct chiptest_props *pr = props;

	if (!pr || strcmp(key, "vref_mv") != 0 || !pr->has_vref)
		return -ENOENT;
	*val = pr->vref_mv;
	return 0;
}

static inline int chiptest_prop_str(const void *props, const char *key, const char **val)
{
	(void)props;
	(void)key;
	(void)val;
	return -ENOENT;
}

/**
 * chiptest_emu_bus_create() - an emulated I2C bus numbered @number.
 * Return: 0 with *out owned (bus_put()), or -errno.
 */
static inline int chiptest_emu_bus_create(int number, struct bus **out)
{
	const struct bus_ops *ops = bus_backend_find("emulated");

	if (!ops)
		return -ENOENT;
	return bus_create(ops, BUS_I2C, number, NULL, out);
}

/**
 * chiptest_model_create() - a chip model of @part with @inputs and @vref_mv
 * (0: none), not attached. Return: 0 with *out (owned until attached), -errno.
 */
static inline int chiptest_model_create(const char *part, const struct emu_input *inputs,
					int ninputs, int vref_mv, struct emu_chip **out,
					char *err, size_t errlen)
{
	const struct iio_device_id *id = NULL;
	const struct emu_model *model = emu_model_find(part, &id);
	struct emu_params params = {
		.name = part, .id = id, .inputs = inputs, .ninputs = ninputs, .vref_mv = vref_mv,
	};

	if (!model) {
		snprintf(err, errlen, "no chip model for %s", part);
		return -ENOENT;
	}
	return model->create(&params, out, err, errlen);
}

/**
 * chiptest_chip_attach() - create a model of @part and place it at @addr on
 * an emulated @bus (the bus owns it then). Return: 0 or -errno.
 */
static inline int chiptest_chip_attach(struct bus *bus, const char *part, uint16_t addr,
				       const struct emu_input *inputs, int ninputs, int vref_mv,
				       char *err, size_t errlen)
{
	struct emu_chip *chip;
	int ret;

	ret = chiptest_model_create(part, inputs, ninputs, vref_mv, &chip, err, errlen);
	if (ret < 0)
		return ret;
	return emu_bus_attach(bus, addr, chip);
}

/**
 * chiptest_emu_client_open() - an emulated I2C bus 0 with a model of @part
 * at @addr (@inputs, @vref_mv) and a client on it, for the chip model tests.
 * Return: 0 with *bus and *client owned (bus_i2c_client_destroy(), then
 * bus_put()), or -errno (nothing left open, the reason on stderr).
 */
static inline int chiptest_emu_client_open(const char *part, uint16_t addr,
					   const struct emu_input *inputs, int ninputs,
					   int vref_mv, struct bus **bus,
					   struct bus_i2c_client **client)
{
	char err[CHIPTEST_ERR_MAX];
	int ret;

	ret = chiptest_emu_bus_create(0, bus);
	if (ret < 0)
		return ret;
	ret = chiptest_chip_attach(*bus, part, addr, inputs, ninputs, vref_mv, err, sizeof(err));
	if (ret == 0)
		ret = bus_i2c_client_create(*bus, addr, client);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", part, err);
		bus_put(*bus);
	}
	return ret;
}

/**
 * chiptest_probe() - probe the driver of @part at @addr on @bus and, if @reg
 * is non-NULL, register the device there.
 * @props: the board properties (NULL: none).
 * @out: borrowed from @reg when registered; otherwise owned (iio_device_put()).
 * Return: 0, or the probe's / registration's -errno with @err filled.
 */
static inline int chiptest_probe(struct bus *bus, struct iio_registry *reg, const char *part,
				 uint16_t addr, const struct chiptest_props *props,
				 struct iio_dev **out, char *err, size_t errlen)
{
	const struct iio_device_id *id = NULL;
	const struct iio_driver *drv = iio_driver_find(part, &id);
	struct iio_irq_spec irq = { .kind = IIO_IRQ_EMULATED, .bus = bus, .addr = addr };
	struct bus_i2c_client *client;
	struct iio_probe p;
	struct iio_dev *dev = NULL;
	int ret;

	err[0] = '\0';
	if (!drv) {
		snprintf(err, errlen, "no driver for %s", part);
		return -ENOENT;
	}
	ret = bus_i2c_client_create(bus, addr, &client);
	if (ret < 0) {
		snprintf(err, errlen, "client %d-%04x: %d", bus->number, addr, ret);
		return ret;
	}
	p = (struct iio_probe){
		.id = id, .name = id->name, .i2c = client, .props = props,
		.prop_int = chiptest_prop_int, .prop_str = chiptest_prop_str,
		.irq = props && props->irq ? &irq : NULL,
	};
	ret = drv->probe(&p, &dev, err, errlen);
	if (ret < 0) {
		bus_i2c_client_destroy(client);
		return ret;
	}
	iio_device_set_i2c(dev, client);
	iio_device_set_driver(dev, drv);
	if (reg) {
		ret = iio_device_register(reg, dev, err, errlen);
		if (ret < 0) {
			iio_device_put(dev);
			return ret;
		}
	}
	*out = dev;
	return 0;
}

/**
 * chiptest_read() - read attribute @name of @dev into @buf ('\n' included).
 * Return: the length, -ENOENT when the device has no such attribute, or the read's -errno.
 */
static inline ssize_t chiptest_read(struct iio_dev *dev, const char *name, char *buf,
				    size_t len)
{
	const struct iio_attr *attr = iio_device_attr_find(dev, name);

	buf[0] = '\0';
	if (!attr)
		return -ENOENT;
	return iio_attr_read(dev, attr, buf, len);
}

/**
 * chiptest_write() - write the text @val to attribute @name of @dev.
 * Return: 0, -ENOENT when the device has no such attribute, or the write's -errno.
 */
static inline int chiptest_write(struct iio_dev *dev, const char *name, const char *val)
{
	const struct iio_attr *attr = iio_device_attr_find(dev, name);
	ssize_t ret;

	if (!attr)
		return -ENOENT;
	ret = iio_attr_write(dev, attr, val, strlen(val));
	return ret < 0 ? (int)ret : 0;
}

/**
 * chiptest_read_int() - read an integer attribute.
 * Return: 0, -EINVAL if not an integer, or the read's -errno.
 */
static inline int chiptest_read_int(struct iio_dev *dev, const char *name, int *val)
{
	char buf[64], *end;
	ssize_t n = chiptest_read(dev, name, buf, sizeof(buf));
	long v;

	if (n < 0)
		return (int)n;
	v = strtol(buf, &end, 10);
	if (end == buf || *end != '\n')
		return -EINVAL;
	*val = (int)v;
	return 0;
}

/**
 * struct chiptest_backend - where a test's chip and bus live: the emulated
 * bus, or a real backend on a shim node. The suite bodies take one of these.
 * @name: for messages.
 * @bus_number: the bus number the driver sees (it is in hardware ids).
 * @may_block: what iio_device_may_block() says of a device on this bus.
 * @open: put a model of @part (NULL: none) with @inputs and @vref_mv (0:
 *	none) at @addr and open the bus. Return: 0 with *bus owned
 *	(bus_put(), then @close), or -errno with @err filled.
 * @set_fault: arm @fault at @addr. Return: 0 or -errno.
 * @transfers: transfers to @addr so far, as this backend counts them.
 * @close: after bus_put(): drop what @open set up. May be NULL.
 * @open_fds: fds still open on the backend's nodes. May be NULL (none kept).
 * @node/@counted: the shim node, and the ioctl @transfers counts (shim only).
 */
struct chiptest_backend {
	const char *name;
	int bus_number;
	bool may_block;
	int (*open)(const struct chiptest_backend *be, const char *part, uint16_t addr,
		    const struct emu_input *inputs, int ninputs, int vref_mv, struct bus **bus,
		    char *err, size_t errlen);
	int (*set_fault)(const struct chiptest_backend *be, struct bus *bus, uint16_t addr,
			 const struct emu_fault *fault);
	unsigned long (*transfers)(const struct chiptest_backend *be, struct bus *bus,
				   uint16_t addr);
	void (*close)(const struct chiptest_backend *be);
	int (*open_fds)(void);
	const char *node;
	int counted;
};

static inline int chiptest_emu_open(const struct chiptest_backend *be, const char *part,
				    uint16_t addr, const struct emu_input *inputs, int ninputs,
				    int vref_mv, struct bus **bus, char *err, size_t errlen)
{
	int ret = chiptest_emu_bus_create(be->bus_number, bus);

	if (ret < 0) {
		snprintf(err, errlen, "emulated bus: %d", ret);
		return ret;
	}
	if (!part)
		return 0;
	ret = chiptest_chip_attach(*bus, part, addr, inputs, ninputs, vref_mv, err, errlen);
	if (ret < 0) {
		bus_put(*bus);
		*bus = NULL;
	}
	return ret;
}

static inline int chiptest_emu_set_fault(const struct chiptest_backend *be, struct bus *bus,
					 uint16_t addr, const struct emu_fault *fault)
{
	(void)be;
	return emu_bus_set_fault(bus, addr, fault);
}

static inline unsigned long chiptest_emu_transfers(const struct chiptest_backend *be,
						   struct bus *bus, uint16_t addr)
{
	(void)be;
	return emu_bus_transfers(bus, addr);
}

/* The emulated I2C bus 0: what chiptest_setup() uses. */
static const struct chiptest_backend chiptest_emulated = {
	.name = "emulated", .bus_number = 0, .may_block = false,
	.open = chiptest_emu_open, .set_fault = chiptest_emu_set_fault,
	.transfers = chiptest_emu_transfers,
};

/**
 * struct chiptest - one chip with its registered driver: the usual fixture.
 * Set up with chiptest_open() or chiptest_setup(), end with chiptest_teardown().
 */
struct chiptest {
	const struct chiptest_backend *be;
	struct bus *bus;
	struct iio_registry *reg;
	struct iio_dev *dev;	/* borrowed from reg */
	uint16_t addr;
	char err[CHIPTEST_ERR_MAX];
};

/**
 * chiptest_teardown() - unregister everything, close the bus (and its
 * chips), then the backend. NULL-safe.
 */
static inline void chiptest_teardown(struct chiptest *ct)
{
	if (!ct)
		return;
	iio_registry_destroy(ct->reg);
	bus_put(ct->bus);
	if (ct->be && ct->be->close)
		ct->be->close(ct->be);
	ct->reg = NULL;
	ct->bus = NULL;
	ct->dev = NULL;
}

/**
 * chiptest_open() - on backend @be: a model of @part at @addr with @inputs,
 * and its driver probed and registered.
 * @props: the probe's properties (NULL: none); its vref_mv, if present and
 *	positive, also goes to the model as the board would pass it.
 * Return: 0, or -errno with ct->err saying what failed (and nothing left open).
 */
static inline int chiptest_open(struct chiptest *ct, const struct chiptest_backend *be,
				const char *part, uint16_t addr, const struct emu_input *inputs,
				int ninputs, const struct chiptest_props *props)
{
	int vref = props && props->has_vref && props->vref_mv > 0 ? props->vref_mv : 0;
	int ret;

	memset(ct, 0, sizeof(*ct));
	ct->be = be;
	ct->addr = addr;
	ret = be->open(be, part, addr, inputs, ninputs, vref, &ct->bus, ct->err,
		       sizeof(ct->err));
	if (ret < 0)
		goto err_teardown;
	ct->reg = iio_registry_create();
	if (!ct->reg) {
		ret = -ENOMEM;
		goto err_teardown;
	}
	ret = chiptest_probe(ct->bus, ct->reg, part, addr, props, &ct->dev, ct->err,
			     sizeof(ct->err));
	if (ret < 0)
		goto err_teardown;
	return 0;

err_teardown:
	chiptest_teardown(ct);
	return ret;
}

/** chiptest_setup() - chiptest_open() on the emulated bus 0. */
static inline int chiptest_setup(struct chiptest *ct, const char *part, uint16_t addr,
				 const struct emu_input *inputs, int ninputs,
				 const struct chiptest_props *props)
{
	return chiptest_open(ct, &chiptest_emulated, part, addr, inputs, ninputs, props);
}

#endif /* IIOWIRE_CHIPTEST_H */
