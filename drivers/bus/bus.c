/*
 * bus.c - the bus seam's common half: adapters, clients and the helpers that
 * give drivers the kernel's transfer vocabulary on top of a backend.
 *
 * Place in the flow: chip -> backend -> *bus.c* -> driver. Every helper
 * turns its request into one backend call made under bus->lock, so one
 * transaction at a time crosses a bus. SMBus requests go to the backend's
 * own smbus_xfer when it has one (i2c-dev); otherwise they become plain I2C
 * messages the way the kernel's SMBus emulation frames them for adapters that
 * only speak I2C (command byte write, repeated start, read; words little
 * endian). Nothing here logs, sleeps on the event loop's behalf or knows a
 * chip: a backend never sees a driver and a driver never sees a backend.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bus/bus.h"
#include "bus/bus_priv.h"
#include "iio_kit.h"

/* Up to this many SPI transfers are resolved on the stack; more are allocated. */
#define BUS_SPI_XFERS_ON_STACK	8
/* Default settings of a new SPI device: mode 0, 1 MHz, 8-bit words. */
#define BUS_SPI_SPEED_HZ_DEFAULT	1000000
#define BUS_SPI_BITS_DEFAULT		8
/* 7-bit I2C addresses only; ten-bit addressing is not supported. */
#define BUS_I2C_ADDR_MAX	0x7f

static const struct {
	const char *name;
	const struct bus_ops *ops;
} bus_backends[] = {
	{ "emulated", &bus_emu_ops },
	{ "i2c-dev", &bus_i2cdev_ops },
	{ "spidev", &bus_spidev_ops },
};

const struct bus_ops *bus_backend_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(bus_backends); i++)
		if (strcmp(bus_backends[i].name, name) == 0)
			return bus_backends[i].ops;
	return NULL;
}

int bus_create(const struct bus_ops *ops, enum bus_type type, int number, const char *device,
	       struct bus **out)
{
	struct bus *bus;
	int ret;

	*out = NULL;
	if (!ops || !ops->open || (type != BUS_I2C && type != BUS_SPI) || number < 0)
		return -EINVAL;
	bus = calloc(1, sizeof(*bus));
	if (!bus)
		return -ENOMEM;
	bus->type = type;
	bus->number = number;
	bus->ops = ops;
	bus->timeout_ms = BUS_TIMEOUT_MS_DEFAULT;
	bus->i2c_funcs = BUS_I2C_FUNC_I2C | BUS_I2C_FUNC_SMBUS_EMUL;
	bus->refs = 1;
	if (device && snprintf(bus->device, sizeof(bus->device), "%s", device) >=
	    (int)sizeof(bus->device)) {
		ret = -ENAMETOOLONG;
		goto err_free_bus;
	}
	ret = pthread_mutex_init(&bus->lock, NULL);
	if (ret) {
		ret = -ret;
		goto err_free_bus;
	}
	ret = ops->open(bus, bus->device);
	if (ret < 0)
		goto err_destroy_lock;
	*out = bus;
	return 0;

err_destroy_lock:
	pthread_mutex_destroy(&bus->lock);
err_free_bus:
	free(bus);
	return ret;
}

/* bus_get() - take a reference; its partner is bus_put(). */
struct bus *bus_get(struct bus *bus)
{
	if (bus)
		__atomic_add_fetch(&bus->refs, 1, __ATOMIC_RELAXED);
	return bus;
}

/* bus_put() - drop a reference; the last one closes the backend and frees the bus. */
void bus_put(struct bus *bus)
{
	if (!bus)
		return;
	if (__atomic_sub_fetch(&bus->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (bus->ops->close)
		bus->ops->close(bus);
	pthread_mutex_destroy(&bus->lock);
	free(bus);
}

void bus_msleep(struct bus *bus, unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	if (bus && bus->ops == &bus_emu_ops) {
		bus_emu_msleep(bus, ms);
		return;
	}
	/* a signal must not shorten a conversion time */
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* ---- I2C ---- */

int bus_i2c_client_create(struct bus *bus, uint16_t addr, struct bus_i2c_client **out)
{
	struct bus_i2c_client *c;

	*out = NULL;
	if (!bus || bus->type != BUS_I2C || addr > BUS_I2C_ADDR_MAX)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->bus = bus_get(bus);
	c->addr = addr;
	*out = c;
	return 0;
}

/* bus_i2c_client_destroy() - partner of bus_i2c_client_create(); NULL-safe. */
void bus_i2c_client_destroy(struct bus_i2c_client *client)
{
	if (!client)
		return;
	bus_put(client->bus);
	free(client);
}

/* One combined transaction; the caller holds bus->lock. */
static int bus_i2c_transfer_locked(struct bus *bus, struct bus_i2c_msg *msgs, int n)
{
	if (!bus->ops->i2c_transfer)
		return -EOPNOTSUPP;
	return bus->ops->i2c_transfer(bus, msgs, n);
}

bool bus_i2c_check_functionality(const struct bus_i2c_client *c, unsigned long funcs)
{
	return c && (c->bus->i2c_funcs & funcs) == funcs;
}

int bus_i2c_transfer(struct bus_i2c_client *c, struct bus_i2c_msg *msgs, int n)
{
	int ret;

	if (!c || !msgs || n <= 0)
		return -EINVAL;
	pthread_mutex_lock(&c->bus->lock);
	ret = bus_i2c_transfer_locked(c->bus, msgs, n);
	pthread_mutex_unlock(&c->bus->lock);
	return ret;
}

/* A one-message transfer for master send/recv: the byte count, or -errno. */
static int bus_i2c_master_xfer(struct bus_i2c_client *c, uint16_t flags, uint8_t *buf, int len)
{
	struct bus_i2c_msg msg = { .addr = c->addr, .flags = flags, .len = (uint16_t)len,
				   .buf = buf };
	int ret;

	if (len < 0 || len > UINT16_MAX || (len && !buf))
		return -EINVAL;
	ret = bus_i2c_transfer(c, &msg, 1);
	if (ret < 0)
		return ret;
	return ret == 1 ? len : -EIO;
}

int bus_i2c_master_send(struct bus_i2c_client *c, const uint8_t *buf, int len)
{
	/* a write message's buffer is only read; the cast matches struct i2c_msg */
	return bus_i2c_master_xfer(c, 0, (uint8_t *)buf, len);
}

int bus_i2c_master_recv(struct bus_i2c_client *c, uint8_t *buf, int len)
{
	return bus_i2c_master_xfer(c, BUS_I2C_M_RD, buf, len);
}

/* An SMBus transaction as I2C messages: the command (and data) written, the answer read. */
struct bus_smbus_frame {
	uint8_t wbuf[BUS_SMBUS_BLOCK_MAX + 3];
	uint8_t rbuf[BUS_SMBUS_BLOCK_MAX + 2];
	struct bus_i2c_msg msgs[2];
	int nmsgs;
};

/* Data to send of a write of @size; lengths of the messages. Return: 0 or -errno. */
static int bus_smbus_frame_write(struct bus_smbus_frame *f, int size,
				 const union bus_smbus_data *data)
{
	switch (size) {
	case BUS_SMBUS_BYTE:
		return 0;
	case BUS_SMBUS_BYTE_DATA:
		f->msgs[0].len = 2;
		f->wbuf[1] = data->byte;
		return 0;
	case BUS_SMBUS_WORD_DATA:
		f->msgs[0].len = 3;
		f->wbuf[1] = data->word & 0xff;
		f->wbuf[2] = data->word >> 8;
		return 0;
	case BUS_SMBUS_BLOCK_DATA:
		if (data->block[0] == 0 || data->block[0] > BUS_SMBUS_BLOCK_MAX)
			return -EINVAL;
		f->msgs[0].len = data->block[0] + 2;
		memcpy(&f->wbuf[1], data->block, data->block[0] + 1);
		return 0;
	case BUS_SMBUS_I2C_BLOCK_DATA:
		if (data->block[0] == 0 || data->block[0] > BUS_SMBUS_BLOCK_MAX)
			return -EINVAL;
		f->msgs[0].len = data->block[0] + 1;
		memcpy(&f->wbuf[1], &data->block[1], data->block[0]);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/* How much a read of @size reads back after its command. Return: 0 or -errno. */
static int bus_smbus_frame_read(struct bus_smbus_frame *f, int size,
				const union bus_smbus_data *data)
{
	switch (size) {
	case BUS_SMBUS_BYTE:
		/* a receive byte has no command: just the read */
		f->msgs[0].flags = BUS_I2C_M_RD;
		f->msgs[0].buf = f->rbuf;
		f->nmsgs = 1;
		return 0;
	case BUS_SMBUS_BYTE_DATA:
		f->msgs[1].len = 1;
		return 0;
	case BUS_SMBUS_WORD_DATA:
		f->msgs[1].len = 2;
		return 0;
	case BUS_SMBUS_BLOCK_DATA:
		f->msgs[1].len = BUS_SMBUS_BLOCK_MAX + 1;
		return 0;
	case BUS_SMBUS_I2C_BLOCK_DATA:
		if (data->block[0] == 0 || data->block[0] > BUS_SMBUS_BLOCK_MAX)
			return -EINVAL;
		f->msgs[1].len = data->block[0];
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/* Hand what a read of @size got back to the caller. Return: 0, -EPROTO for a bad block count. */
static int bus_smbus_unframe(const struct bus_smbus_frame *f, int size,
			     union bus_smbus_data *data)
{
	switch (size) {
	case BUS_SMBUS_BYTE:
	case BUS_SMBUS_BYTE_DATA:
		data->byte = f->rbuf[0];
		break;
	case BUS_SMBUS_WORD_DATA:
		data->word = (uint16_t)(f->rbuf[0] | f->rbuf[1] << 8);
		break;
	case BUS_SMBUS_BLOCK_DATA:
		if (f->rbuf[0] == 0 || f->rbuf[0] > BUS_SMBUS_BLOCK_MAX)
			return -EPROTO;
		memcpy(data->block, f->rbuf, (size_t)f->rbuf[0] + 1);
		break;
	case BUS_SMBUS_I2C_BLOCK_DATA:
		memcpy(&data->block[1], f->rbuf, data->block[0]);
		break;
	}
	return 0;
}

/*
 * SMBus as plain I2C messages, framed as the SMBus spec and the kernel's
 * emulation do: a command byte written first, then (for reads) a repeated
 * start and the read; words little endian; a block read returns its count
 * first. We read a block as count + BUS_SMBUS_BLOCK_MAX bytes and trust the
 * count byte, since our message has no receive-length flag. The caller holds
 * bus->lock.
 */
static int bus_smbus_emulate(struct bus *bus, uint16_t addr, uint8_t read_write, uint8_t command,
			     int size, union bus_smbus_data *data)
{
	bool rd = read_write == BUS_SMBUS_READ;
	struct bus_smbus_frame f = { .nmsgs = rd ? 2 : 1 };
	int ret;

	f.msgs[0] = (struct bus_i2c_msg){ .addr = addr, .flags = 0, .len = 1, .buf = f.wbuf };
	f.msgs[1] = (struct bus_i2c_msg){ .addr = addr, .flags = BUS_I2C_M_RD, .buf = f.rbuf };
	f.wbuf[0] = command;
	if (size == BUS_SMBUS_QUICK) {
		f.msgs[0].len = 0;
		f.msgs[0].flags = rd ? BUS_I2C_M_RD : 0;
		f.nmsgs = 1;
		ret = 0;
	} else {
		ret = rd ? bus_smbus_frame_read(&f, size, data) :
			   bus_smbus_frame_write(&f, size, data);
	}
	if (ret)
		return ret;
	ret = bus_i2c_transfer_locked(bus, f.msgs, f.nmsgs);
	if (ret < 0)
		return ret;
	if (ret != f.nmsgs)
		return -EIO;
	return rd ? bus_smbus_unframe(&f, size, data) : 0;
}

/* One SMBus transaction on the client's address, under bus->lock. */
static int bus_smbus_xfer(struct bus_i2c_client *c, uint8_t read_write, uint8_t command,
			  int size, union bus_smbus_data *data)
{
	struct bus *bus;
	int ret;

	if (!c)
		return -EINVAL;
	bus = c->bus;
	pthread_mutex_lock(&bus->lock);
	if (bus->ops->smbus_xfer)
		ret = bus->ops->smbus_xfer(bus, c->addr, read_write, command, size, data);
	else
		ret = bus_smbus_emulate(bus, c->addr, read_write, command, size, data);
	pthread_mutex_unlock(&bus->lock);
	return ret;
}

/* The reads of one byte or word: what the chip sent (0..0xffff), or -errno. */
static int bus_smbus_read(struct bus_i2c_client *c, uint8_t command, int size)
{
	union bus_smbus_data data;
	int ret;

	ret = bus_smbus_xfer(c, BUS_SMBUS_READ, command, size, &data);
	if (ret < 0)
		return ret;
	return size == BUS_SMBUS_WORD_DATA ? data.word : data.byte;
}

int bus_smbus_write_byte(struct bus_i2c_client *c, uint8_t value)
{
	return bus_smbus_xfer(c, BUS_SMBUS_WRITE, value, BUS_SMBUS_BYTE, NULL);
}

int bus_smbus_read_byte(struct bus_i2c_client *c)
{
	return bus_smbus_read(c, 0, BUS_SMBUS_BYTE);
}

int bus_smbus_write_byte_data(struct bus_i2c_client *c, uint8_t command, uint8_t value)
{
	union bus_smbus_data data = { .byte = value };

	return bus_smbus_xfer(c, BUS_SMBUS_WRITE, command, BUS_SMBUS_BYTE_DATA, &data);
}

int bus_smbus_read_byte_data(struct bus_i2c_client *c, uint8_t command)
{
	return bus_smbus_read(c, command, BUS_SMBUS_BYTE_DATA);
}

int bus_smbus_write_word_data(struct bus_i2c_client *c, uint8_t command, uint16_t value)
{
	union bus_smbus_data data = { .word = value };

	return bus_smbus_xfer(c, BUS_SMBUS_WRITE, command, BUS_SMBUS_WORD_DATA, &data);
}

int bus_smbus_read_word_data(struct bus_i2c_client *c, uint8_t command)
{
	return bus_smbus_read(c, command, BUS_SMBUS_WORD_DATA);
}

/* Chips that send the high byte first (AD799x results): an SMBus word, swapped. */
static uint16_t bus_swab16(uint16_t v)
{
	return (uint16_t)(v << 8 | v >> 8);
}

int bus_smbus_write_word_swapped(struct bus_i2c_client *c, uint8_t command, uint16_t value)
{
	return bus_smbus_write_word_data(c, command, bus_swab16(value));
}

int bus_smbus_read_word_swapped(struct bus_i2c_client *c, uint8_t command)
{
	int ret = bus_smbus_read_word_data(c, command);

	return ret < 0 ? ret : bus_swab16((uint16_t)ret);
}

int bus_smbus_read_block_data(struct bus_i2c_client *c, uint8_t command, uint8_t *values)
{
	union bus_smbus_data data;
	int ret;

	ret = bus_smbus_xfer(c, BUS_SMBUS_READ, command, BUS_SMBUS_BLOCK_DATA, &data);
	if (ret < 0)
		return ret;
	memcpy(values, &data.block[1], data.block[0]);
	return data.block[0];
}

int bus_smbus_write_block_data(struct bus_i2c_client *c, uint8_t command, uint8_t len,
			       const uint8_t *values)
{
	union bus_smbus_data data;

	if (len == 0 || len > BUS_SMBUS_BLOCK_MAX)
		return -EINVAL;
	data.block[0] = len;
	memcpy(&data.block[1], values, len);
	return bus_smbus_xfer(c, BUS_SMBUS_WRITE, command, BUS_SMBUS_BLOCK_DATA, &data);
}

int bus_smbus_read_i2c_block_data(struct bus_i2c_client *c, uint8_t command, uint8_t len,
				  uint8_t *values)
{
	union bus_smbus_data data;
	int ret;

	if (len == 0)
		return -EINVAL;
	/* as the kernel: longer requests are cut to one SMBus block */
	if (len > BUS_SMBUS_BLOCK_MAX)
		len = BUS_SMBUS_BLOCK_MAX;
	data.block[0] = len;
	ret = bus_smbus_xfer(c, BUS_SMBUS_READ, command, BUS_SMBUS_I2C_BLOCK_DATA, &data);
	if (ret < 0)
		return ret;
	memcpy(values, &data.block[1], data.block[0]);
	return data.block[0];
}

/* ---- SPI ---- */

int bus_spi_device_create(struct bus *bus, int cs, struct bus_spi_device **out)
{
	struct bus_spi_device *spi;
	int ret;

	*out = NULL;
	if (!bus || bus->type != BUS_SPI || cs < 0)
		return -EINVAL;
	if (bus->ops == &bus_spidev_ops) {
		ret = bus_spidev_check_cs(bus, cs);
		if (ret < 0)
			return ret;
	}
	spi = calloc(1, sizeof(*spi));
	if (!spi)
		return -ENOMEM;
	spi->bus = bus_get(bus);
	spi->cs = cs;
	spi->mode = 0;
	spi->max_speed_hz = BUS_SPI_SPEED_HZ_DEFAULT;
	spi->bits_per_word = BUS_SPI_BITS_DEFAULT;
	*out = spi;
	return 0;
}

/* bus_spi_device_destroy() - partner of bus_spi_device_create(); NULL-safe. */
void bus_spi_device_destroy(struct bus_spi_device *spi)
{
	if (!spi)
		return;
	bus_put(spi->bus);
	free(spi);
}

int bus_spi_sync(struct bus_spi_device *spi, const struct bus_spi_transfer *xfers, int n)
{
	struct bus_spi_transfer stack[BUS_SPI_XFERS_ON_STACK];
	struct bus_spi_transfer *x = stack;
	struct bus *bus;
	int ret, i;

	if (!spi || !xfers || n <= 0)
		return -EINVAL;
	bus = spi->bus;
	if (!bus->ops->spi_transfer)
		return -EOPNOTSUPP;
	if (n > BUS_SPI_XFERS_ON_STACK) {
		x = calloc((size_t)n, sizeof(*x));
		if (!x)
			return -ENOMEM;
	}
	/* backends get concrete settings: 0 means "the device's" */
	for (i = 0; i < n; i++) {
		x[i] = xfers[i];
		if (!x[i].speed_hz)
			x[i].speed_hz = spi->max_speed_hz;
		if (!x[i].bits_per_word)
			x[i].bits_per_word = spi->bits_per_word;
	}
	pthread_mutex_lock(&bus->lock);
	ret = bus->ops->spi_transfer(bus, spi->cs, spi->mode, x, n);
	pthread_mutex_unlock(&bus->lock);
	if (x != stack)
		free(x);
	return ret < 0 ? ret : 0;
}

int bus_spi_write(struct bus_spi_device *spi, const void *buf, size_t len)
{
	struct bus_spi_transfer x = { .tx_buf = buf, .len = (uint32_t)len };

	if (len == 0 || len > UINT32_MAX)
		return -EINVAL;
	return bus_spi_sync(spi, &x, 1);
}

int bus_spi_read(struct bus_spi_device *spi, void *buf, size_t len)
{
	struct bus_spi_transfer x = { .rx_buf = buf, .len = (uint32_t)len };

	if (len == 0 || len > UINT32_MAX)
		return -EINVAL;
	return bus_spi_sync(spi, &x, 1);
}

int bus_node_open(struct bus *bus, const char *device, void *priv, int *fd,
		  int (*check)(void *priv))
{
	int ret;

	*fd = open(device, O_RDWR | O_CLOEXEC);
	if (*fd < 0) {
		ret = -errno;
		goto err_free_priv;
	}
	ret = check(priv);
	if (ret < 0) {
		/* not a node of this kind at all */
		if (ret == -ENOTTY)
			ret = -ENODEV;
		goto err_close_fd;
	}
	bus->priv = priv;
	bus->may_block = true;
	return 0;

err_close_fd:
	close(*fd);
err_free_priv:
	free(priv);
	return ret;
}

void bus_node_close(struct bus *bus, int fd)
{
	if (!bus->priv)
		return;
	close(fd);
	free(bus->priv);
	bus->priv = NULL;
}
