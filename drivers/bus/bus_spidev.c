/*
 * bus_spidev.c - the "spidev" backend: one SPI chip select through
 * /dev/spidevB.C.
 *
 * Place in the flow: chip -> kernel controller -> /dev/spidevB.C (*this
 * file*) -> bus.c -> driver. A spidev node is one chip select, so the C of
 * the path must be the device's cs (checked when the device is created).
 * The device's mode, speed and word size are set with SPI_IOC_WR_* only
 * when they differ from what the node last had (cached here); a sync is one
 * SPI_IOC_MESSAGE(n), so chip select stays asserted across its transfers.
 * Every call may block, so bus->may_block is set; bus.c holds bus->lock,
 * which also guards the fd and the cache. No logging, no retries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/spi/spidev.h>

#include "bus/bus.h"
#include "bus/bus_priv.h"

/* Most transfers in one SPI_IOC_MESSAGE; the ioctl's size field holds < 512. */
#define BUS_SPIDEV_XFERS_MAX	64

struct bus_spidev {
	int fd;
	int cs;			/* from the path, -1 if the path does not say */
	uint32_t mode;		/* what the node is set to */
	uint32_t speed_hz;
	uint8_t bits;
};

/* The C of ".../spidevB.C": digits after the last '.', or -1. */
static int bus_spidev_path_cs(const char *device)
{
	const char *dot = strrchr(device, '.');
	char *end;
	long cs;

	if (!dot || !dot[1] || strchr(dot, '/'))
		return -1;
	cs = strtol(dot + 1, &end, 10);
	if (*end || cs < 0 || cs > 0xffff)
		return -1;
	return (int)cs;
}

/* Read the node's current settings, so the first sync sets only what differs. */
static int bus_spidev_read_settings(void *priv)
{
	struct bus_spidev *dev = priv;
	uint8_t mode8;

	if (ioctl(dev->fd, SPI_IOC_RD_MODE32, &dev->mode) < 0) {
		/* kernels before 3.15 know only the 8-bit mode */
		if (ioctl(dev->fd, SPI_IOC_RD_MODE, &mode8) < 0)
			return -errno;
		dev->mode = mode8;
	}
	if (ioctl(dev->fd, SPI_IOC_RD_MAX_SPEED_HZ, &dev->speed_hz) < 0)
		return -errno;
	if (ioctl(dev->fd, SPI_IOC_RD_BITS_PER_WORD, &dev->bits) < 0)
		return -errno;
	return 0;
}

static int bus_spidev_open(struct bus *bus, const char *device)
{
	struct bus_spidev *dev;

	if (bus->type != BUS_SPI || !device || !*device)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->cs = bus_spidev_path_cs(device);
	return bus_node_open(bus, device, dev, &dev->fd, bus_spidev_read_settings);
}

static void bus_spidev_close(struct bus *bus)
{
	struct bus_spidev *dev = bus->priv;

	bus_node_close(bus, dev ? dev->fd : -1);
}

int bus_spidev_check_cs(struct bus *bus, int cs)
{
	struct bus_spidev *dev = bus->priv;

	if (!dev || bus->ops != &bus_spidev_ops)
		return -EINVAL;
	return dev->cs < 0 || dev->cs == cs ? 0 : -EINVAL;
}

/* Bring the node's mode, speed and word size to the sync's; only changes cost an ioctl. */
static int bus_spidev_setup(struct bus_spidev *dev, uint32_t mode, uint32_t speed_hz,
			    uint8_t bits)
{
	uint8_t mode8;

	if (mode != dev->mode) {
		if (ioctl(dev->fd, SPI_IOC_WR_MODE32, &mode) < 0) {
			if (errno != ENOTTY && errno != EINVAL)
				return -errno;
			if (mode > 0xff)
				return -EINVAL;
			mode8 = (uint8_t)mode;
			if (ioctl(dev->fd, SPI_IOC_WR_MODE, &mode8) < 0)
				return -errno;
		}
		dev->mode = mode;
	}
	if (speed_hz && speed_hz != dev->speed_hz) {
		if (ioctl(dev->fd, SPI_IOC_WR_MAX_SPEED_HZ, &speed_hz) < 0)
			return -errno;
		dev->speed_hz = speed_hz;
	}
	if (bits && bits != dev->bits) {
		if (ioctl(dev->fd, SPI_IOC_WR_BITS_PER_WORD, &bits) < 0)
			return -errno;
		dev->bits = bits;
	}
	return 0;
}

static int bus_spidev_transfer(struct bus *bus, int cs, uint32_t mode,
			       const struct bus_spi_transfer *xfers, int n)
{
	struct bus_spidev *dev = bus->priv;
	struct spi_ioc_transfer k[BUS_SPIDEV_XFERS_MAX];
	int i, ret;

	if (!xfers || n <= 0 || n > BUS_SPIDEV_XFERS_MAX)
		return -EINVAL;
	if (dev->cs >= 0 && cs != dev->cs)
		return -EINVAL;
	ret = bus_spidev_setup(dev, mode, xfers[0].speed_hz, xfers[0].bits_per_word);
	if (ret < 0)
		return ret;
	memset(k, 0, sizeof(k[0]) * (size_t)n);
	for (i = 0; i < n; i++) {
		k[i].tx_buf = (uintptr_t)xfers[i].tx_buf;
		k[i].rx_buf = (uintptr_t)xfers[i].rx_buf;
		k[i].len = xfers[i].len;
		k[i].speed_hz = xfers[i].speed_hz;
		k[i].delay_usecs = xfers[i].delay_usecs;
		k[i].bits_per_word = xfers[i].bits_per_word;
		k[i].cs_change = xfers[i].cs_change;
	}
	ret = ioctl(dev->fd, SPI_IOC_MESSAGE(n), k);
	if (ret < 0)
		return -errno;
	return 0;
}

const struct bus_ops bus_spidev_ops = {
	.name = "spidev",
	.open = bus_spidev_open, .close = bus_spidev_close,
	.spi_transfer = bus_spidev_transfer,
};
