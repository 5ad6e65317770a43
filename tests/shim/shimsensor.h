/*
 * shimsensor.h - a sensor chip (sensortest.h) on a shim node, reached
 * through the real backend: i2c-dev for the light sensors and power
 * monitors, spidev for the IMUs. For test_shim_tsl2563.c, test_shim_ina2xx.c,
 * test_shim_adis16400.c and the others, which compare it with the emulated
 * bus, and SHIMSENSOR_I2C(), the struct sensorsuite_backend on which a
 * family's shared cases (tests/bmp280_cases.h) run through i2c-dev.
 * Header-only, as sensortest.h.
 */
#ifndef IIOWIRE_TEST_SHIMSENSOR_H
#define IIOWIRE_TEST_SHIMSENSOR_H

#include "testutil.h"
#include "sensortest.h"
#include "sensorsuite.h"
#include "shim/shim.h"

/**
 * struct shimsensor - where the chip sits: shim node @node, opened as bus
 * @type number @number; @chip_addr: the model's I2C address (SPI: unused).
 */
struct shimsensor {
	enum bus_type type;
	const char *node;
	int number;
	uint16_t chip_addr;
};

/**
 * shimsensor_setup_props() - a fresh shim with a model of @part (@in) at
 * @at, the real backend's bus on it, and the driver of @part probed at
 * @addr with the board properties @props (NULL: none).
 * Return: 0, or -errno with st->err filled; end with shimsensor_teardown().
 */
static inline int shimsensor_setup_props(struct sensortest *st, const struct shimsensor *at,
					 const char *part, const struct emu_input *in, int nin,
					 uint16_t addr, const struct sensortest_prop *props)
{
	const char *backend = at->type == BUS_SPI ? "spidev" : "i2c-dev";
	struct emu_chip *chip;
	struct bus *bus;
	int ret;

	memset(st, 0, sizeof(*st));
	shim_reset();
	ret = sensortest_model_create(part, in, nin, &chip, st->err, sizeof(st->err));
	if (ret < 0)
		return ret;
	ret = at->type == BUS_SPI ? shim_spi_add(at->node, chip) :
				    shim_i2c_add(at->node, at->chip_addr, chip);
	if (ret < 0)
		return ret;
	ret = bus_create(bus_backend_find(backend), at->type, at->number, at->node, &bus);
	if (ret < 0) {
		snprintf(st->err, sizeof(st->err), "%s bus on the shim: %d", backend, ret);
		return ret;
	}
	return sensortest_setup_on(st, bus, part, addr, props);
}

/** shimsensor_setup() - shimsensor_setup_props() without properties. */
static inline int shimsensor_setup(struct sensortest *st, const struct shimsensor *at,
				   const char *part, const struct emu_input *in, int nin,
				   uint16_t addr)
{
	return shimsensor_setup_props(st, at, part, in, nin, addr, NULL);
}

/** shimsensor_teardown() - the device and bus, then the shim's nodes and chips. */
static inline void shimsensor_teardown(struct sensortest *st)
{
	sensortest_teardown(st);
	shim_reset();
}

/**
 * shimsensor_pair_setup() - @part with @in at @addr twice: in @emu on the
 * emulated bus (of @at's type, bus 0, its clock frozen at 0) and in @dev at @at;
 * a failure is one row assert naming the reason, and leaves neither open.
 * Return: whether both are up; end with shimsensor_pair_teardown().
 */
static inline bool shimsensor_pair_setup(struct sensortest *emu, struct sensortest *dev,
					 const struct shimsensor *at, const char *part,
					 const struct emu_input *in, int nin, uint16_t addr)
{
	if (sensortest_setup(emu, at->type, part, addr, in, nin, NULL, 0.0)) {
		TEST_ROW_ASSERT(0, emu->err);
		return false;
	}
	if (shimsensor_setup(dev, at, part, in, nin, addr)) {
		TEST_ROW_ASSERT(0, dev->err);
		sensortest_teardown(emu);
		return false;
	}
	return true;
}

/** shimsensor_pair_teardown() - both of shimsensor_pair_setup(); no fd left open (row @row). */
static inline void shimsensor_pair_teardown(struct sensortest *emu, struct sensortest *dev,
					    const char *row)
{
	shimsensor_teardown(dev);
	sensortest_teardown(emu);
	TEST_ROW_ASSERT(shim_open_fds() == 0, row);
}

/*
 * The traffic so far was SMBus transactions only (I2C_SMBUS ioctls, none of
 * I2C_RDWR), as the kernel's drivers or regmap use on an SMBus adapter.
 */
static inline void shimsensor_smbus_only(const char *row)
{
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) > 0, row);
	TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) == 0, row);
}

/**
 * shimsensor_refused() - a setup that had to fail: it gave @expect and its
 * message has @text; after a shim reset no fd is left open.
 */
static inline void shimsensor_refused(const struct sensortest *st, int ret, int expect,
				      const char *text)
{
	CU_ASSERT_EQUAL(ret, expect);
	CU_ASSERT_PTR_NOT_NULL(strstr(st->err, text));
	shim_reset();
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}

/**
 * shimsensor_compare() - every attribute of @emu read through @dev too: the
 * same text (or the same -errno), one row assert each. Return: how many were compared.
 */
static inline int shimsensor_compare(struct iio_dev *emu, struct iio_dev *dev)
{
	int i, n = iio_device_attr_count(emu);

	for (i = 0; i < n; i++) {
		const struct iio_attr *a = iio_device_attr_at(emu, i);
		char via_emu[64], via_dev[64];
		ssize_t n1 = sensortest_read(emu, a->name, via_emu, sizeof(via_emu));
		ssize_t n2 = sensortest_read(dev, a->name, via_dev, sizeof(via_dev));

		/* the same text, or the same error (an events/ file without an irq) */
		TEST_ROW_ASSERT(n1 != 0 && n1 == n2 && (n1 < 0 || strcmp(via_emu, via_dev) == 0),
				a->name);
	}
	return n;
}

/**
 * shimsensor_unregister_reads() - register @reg of the chip, read with @read
 * through a client of its own, before and after the device is unregistered
 * (its driver's remove runs), for the tests that removal powers a chip down.
 * Return: 0 with *@before and *@after set (each a value or -errno), or the
 * client's -errno.
 */
static inline int shimsensor_unregister_reads(struct sensortest *st,
					      int (*read)(struct bus_i2c_client *c, uint8_t reg),
					      uint8_t reg, int *before, int *after)
{
	struct bus_i2c_client *c;
	int ret = bus_i2c_client_create(st->bus, st->addr, &c);

	if (ret)
		return ret;
	*before = read(c, reg);
	iio_device_unregister(st->reg, st->dev);
	st->dev = NULL;
	*after = read(c, reg);
	bus_i2c_client_destroy(c);
	return 0;
}

/**
 * shimsensor_remove_check() - removal of @st's device (its driver's remove
 * runs) takes register @reg, read with @read, from @bound to @removed; then
 * the teardown leaves no fd open.
 */
static inline void shimsensor_remove_check(struct sensortest *st,
					   int (*read)(struct bus_i2c_client *c, uint8_t reg),
					   uint8_t reg, int bound, int removed)
{
	int before, after;

	CU_ASSERT_EQUAL(shimsensor_unregister_reads(st, read, reg, &before, &after), 0);
	CU_ASSERT_EQUAL(before, bound);
	CU_ASSERT_EQUAL(after, removed);
	shimsensor_teardown(st);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}

/* struct sensorsuite_backend's @setup on an i2c-dev shim node */
static inline int shimsensor_backend_setup(const struct sensorsuite_backend *be,
					   struct sensortest *st, const char *part,
					   const struct emu_input *in, int nin)
{
	const struct shimsensor at = { BUS_I2C, be->node, be->number, be->addr };

	return shimsensor_setup(st, &at, part, in, nin, be->addr);
}

/* ...and its @set_fault: in the shim, on the node the device's bus opened */
static inline int shimsensor_set_fault(const struct sensortest *st,
				       const struct emu_fault *fault)
{
	return shim_set_fault(st->bus->device, st->addr, fault);
}

/* The i2c-dev backend on shim node @path as I2C bus @num, the chip at @address. */
#define SHIMSENSOR_I2C(path, num, address) {					\
	.addr = (address), .node = (path), .number = (num),			\
	.setup = shimsensor_backend_setup, .set_fault = shimsensor_set_fault,	\
	.teardown = shimsensor_teardown, .open_fds = shim_open_fds,		\
}

#endif /* IIOWIRE_TEST_SHIMSENSOR_H */
