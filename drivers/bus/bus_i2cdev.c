/*
 * bus_i2cdev.c - the "i2c-dev" backend: a real I2C adapter through
 * /dev/i2c-N and libi2c.
 *
 * Place in the flow: chip -> kernel adapter -> /dev/i2c-N (*this file*) ->
 * bus.c -> driver. Raw transactions go down as one I2C_RDWR ioctl (repeated starts
 * between messages); SMBus requests select the address with I2C_SLAVE
 * (cached, so a run of requests to one chip costs one ioctl) and go down
 * through libi2c's i2c_smbus_access(), which lets the kernel use the
 * adapter's native SMBus or emulate it. Every call may block, so
 * bus->may_block is set; bus.c holds bus->lock, which also guards the fd
 * and the cached address. No retries, no logging, no address probing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>

#include "bus/bus.h"
#include "bus/bus_priv.h"

struct bus_i2cdev {
	int fd;
	unsigned long funcs;	/* I2C_FUNCS of the adapter */
	int addr;		/* address last set with I2C_SLAVE, -1 for none */
};

/* The kernel refuses more messages than this in one I2C_RDWR. */
#define BUS_I2CDEV_MSGS_MAX	I2C_RDWR_IOCTL_MAX_MSGS

/*
 * The two unions have the same layout (byte, word, block[34]); the check
 * keeps that true so SMBus data can pass straight through.
 */
_Static_assert(sizeof(union bus_smbus_data) == sizeof(union i2c_smbus_data),
	       "bus_smbus_data must match i2c_smbus_data");

/* Is the node an I2C adapter we can drive? Return: 0, -errno (-ENOTTY: not i2c-dev). */
static int bus_i2cdev_check(void *priv)
{
	struct bus_i2cdev *dev = priv;

	if (ioctl(dev->fd, I2C_FUNCS, &dev->funcs) < 0)
		return -errno;
	if (!(dev->funcs & (I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL)))
		return -EOPNOTSUPP;
	return 0;
}

static int bus_i2cdev_open(struct bus *bus, const char *device)
{
	struct bus_i2cdev *dev;
	int ret;

	if (bus->type != BUS_I2C || !device || !*device)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->addr = -1;
	ret = bus_node_open(bus, device, dev, &dev->fd, bus_i2cdev_check);
	if (!ret)
		bus->i2c_funcs = ((struct bus_i2cdev *)bus->priv)->funcs;
	return ret;
}

static void bus_i2cdev_close(struct bus *bus)
{
	struct bus_i2cdev *dev = bus->priv;

	bus_node_close(bus, dev ? dev->fd : -1);
}

static int bus_i2cdev_transfer(struct bus *bus, struct bus_i2c_msg *msgs, int n)
{
	struct bus_i2cdev *dev = bus->priv;
	struct i2c_msg kmsgs[BUS_I2CDEV_MSGS_MAX];
	struct i2c_rdwr_ioctl_data rdwr = { .msgs = kmsgs, .nmsgs = (unsigned int)n };
	int i, ret;

	if (!msgs || n <= 0 || n > BUS_I2CDEV_MSGS_MAX)
		return -EINVAL;
	if (!(dev->funcs & I2C_FUNC_I2C))
		return -EOPNOTSUPP;
	for (i = 0; i < n; i++) {
		kmsgs[i].addr = msgs[i].addr;
		kmsgs[i].flags = msgs[i].flags & BUS_I2C_M_RD ? I2C_M_RD : 0;
		kmsgs[i].len = msgs[i].len;
		kmsgs[i].buf = msgs[i].buf;
	}
	ret = ioctl(dev->fd, I2C_RDWR, &rdwr);
	if (ret < 0)
		return -errno;
	return ret;
}

static int bus_i2cdev_smbus_xfer(struct bus *bus, uint16_t addr, uint8_t read_write,
				 uint8_t command, int size, union bus_smbus_data *data)
{
	struct bus_i2cdev *dev = bus->priv;
	int ret;

	if (dev->addr != addr) {
		/* a chip claimed by a kernel driver gives -EBUSY: we do not force it */
		if (ioctl(dev->fd, I2C_SLAVE, (unsigned long)addr) < 0) {
			dev->addr = -1;
			return -errno;
		}
		dev->addr = addr;
	}
	/* libi2c 4.x returns -errno itself */
	ret = i2c_smbus_access(dev->fd, (char)read_write, command, size,
			       (union i2c_smbus_data *)data);
	return ret < 0 ? ret : 0;
}

const struct bus_ops bus_i2cdev_ops = {
	.name = "i2c-dev",
	.open = bus_i2cdev_open, .close = bus_i2cdev_close,
	.i2c_transfer = bus_i2cdev_transfer,
	.smbus_xfer = bus_i2cdev_smbus_xfer,
};
