/*
 * shimchip.h - the chiptest backend of the real i2c-dev backend on a shim
 * node: a chip model put on a fake /dev/i2c-N, the bus opened through
 * bus_i2cdev.c, faults armed in the shim, transfers counted in ioctls.
 *
 * With it the chip suites of tests/chipsuite.h run unchanged on the real
 * backend (SHIMCHIP_I2C(...) is the struct chiptest_backend to pass).
 * Header-only, as chiptest.h; for the tests/test_shim_*.c programs, which
 * link tests/shim/shim.c.
 */
#ifndef IIOWIRE_TEST_SHIMCHIP_H
#define IIOWIRE_TEST_SHIMCHIP_H

#include "chiptest.h"
#include "shim/shim.h"

static inline int shimchip_open(const struct chiptest_backend *be, const char *part,
				uint16_t addr, const struct emu_input *inputs, int ninputs,
				int vref_mv, struct bus **bus, char *err, size_t errlen)
{
	struct emu_chip *chip;
	int ret;

	shim_reset();
	if (!part) {
		/* a node must exist to be opened: the shim has no empty adapters */
		snprintf(err, errlen, "%s: no chip for node %s", be->name, be->node);
		return -EINVAL;
	}
	ret = chiptest_model_create(part, inputs, ninputs, vref_mv, &chip, err, errlen);
	if (ret < 0)
		return ret;
	ret = shim_i2c_add(be->node, addr, chip);
	if (ret == 0)
		ret = bus_create(bus_backend_find("i2c-dev"), BUS_I2C, be->bus_number, be->node,
				 bus);
	if (ret < 0) {
		snprintf(err, errlen, "%s: %s at 0x%02x: %d", be->name, part, addr, ret);
		shim_reset();
	}
	return ret;
}

static inline int shimchip_set_fault(const struct chiptest_backend *be, struct bus *bus,
				     uint16_t addr, const struct emu_fault *fault)
{
	(void)bus;
	return shim_set_fault(be->node, addr, fault);
}

static inline unsigned long shimchip_transfers(const struct chiptest_backend *be,
					       struct bus *bus, uint16_t addr)
{
	(void)bus;
	(void)addr;
	return shim_ioctl_count((enum shim_ioctl)be->counted);
}

static inline void shimchip_close(const struct chiptest_backend *be)
{
	(void)be;
	shim_reset();
}

/*
 * The i2c-dev backend on shim node @path as I2C bus @number; @counted: the
 * ioctl that is one transfer of the driver (I2C_RDWR or I2C_SMBUS).
 */
#define SHIMCHIP_I2C(path, number, counted_ioctl) {				\
	.name = "i2c-dev", .bus_number = (number), .may_block = true,		\
	.open = shimchip_open, .set_fault = shimchip_set_fault,			\
	.transfers = shimchip_transfers, .close = shimchip_close,		\
	.open_fds = shim_open_fds, .node = (path), .counted = (counted_ioctl),	\
}

#endif /* IIOWIRE_TEST_SHIMCHIP_H */
