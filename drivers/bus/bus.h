/*
 * bus.h - the bus seam: I2C and SPI as drivers use them, whatever is behind.
 *
 * A struct bus is one adapter (/dev/i2c-N, /dev/spidevB.*, or an emulated
 * bus whose "chips" are register-level models). Behind it sits one const
 * struct bus_ops of a backend: i2c-dev (libi2c), spidev, or emulated. The
 * helpers below give drivers the kernel's transfer vocabulary (master
 * send/recv, SMBus byte/word/block, SPI sync) on top of that seam.
 * Place in the flow: chip -> *bus* -> driver. Every transfer on one bus is
 * serialised by the bus lock; errors are -errno (a NACK is -ENXIO, a
 * timeout -ETIMEDOUT). No logging, no event loop here.
 */
#ifndef IIOWIRE_BUS_H
#define IIOWIRE_BUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>

enum bus_type {
	BUS_I2C,
	BUS_SPI,
};

/* One I2C message; flags as the kernel's struct i2c_msg (BUS_I2C_M_RD = I2C_M_RD). */
#define BUS_I2C_M_RD	0x0001
struct bus_i2c_msg {
	uint16_t addr;
	uint16_t flags;
	uint16_t len;
	uint8_t *buf;
};

/* SMBus transaction sizes and directions, numbered as <linux/i2c.h>. */
#define BUS_SMBUS_WRITE			0
#define BUS_SMBUS_READ			1
#define BUS_SMBUS_QUICK			0
#define BUS_SMBUS_BYTE			1
#define BUS_SMBUS_BYTE_DATA		2
#define BUS_SMBUS_WORD_DATA		3
#define BUS_SMBUS_BLOCK_DATA		5
#define BUS_SMBUS_I2C_BLOCK_DATA	8
#define BUS_SMBUS_BLOCK_MAX		32

/* Adapter functionality bits (struct bus's i2c_funcs), numbered as <linux/i2c.h>. */
#define BUS_I2C_FUNC_I2C		0x00000001UL
#define BUS_I2C_FUNC_SMBUS_BYTE		0x00060000UL	/* send and receive byte */
#define BUS_I2C_FUNC_SMBUS_EMUL		0x0eff0008UL	/* what I2C can emulate */

union bus_smbus_data {
	uint8_t byte;
	uint16_t word;
	uint8_t block[BUS_SMBUS_BLOCK_MAX + 2];	/* block[0] is the length */
};

/* One SPI transfer, as struct spi_ioc_transfer; either buffer may be NULL. */
struct bus_spi_transfer {
	const uint8_t *tx_buf;
	uint8_t *rx_buf;
	uint32_t len;
	uint32_t speed_hz;	/* 0: the device's max_speed_hz */
	uint16_t delay_usecs;
	uint8_t bits_per_word;	/* 0: the device's */
	uint8_t cs_change;
};

struct bus;

/**
 * struct bus_ops - a backend; at most six entry points.
 * @open: bind to @device (a /dev path, ignored by the emulated backend).
 * @i2c_transfer: one combined transaction (repeated starts between msgs);
 *	return the number of messages done or -errno.
 * @smbus_xfer: one SMBus transaction (I2C_SMBUS semantics); 0 or -errno.
 *	NULL: bus.c emulates SMBus with i2c_transfer, as the kernel does.
 * @spi_transfer: full duplex, chip select @cs held across @n transfers.
 */
struct bus_ops {
	const char *name;
	int (*open)(struct bus *bus, const char *device);
	void (*close)(struct bus *bus);
	int (*i2c_transfer)(struct bus *bus, struct bus_i2c_msg *msgs, int n);
	int (*smbus_xfer)(struct bus *bus, uint16_t addr, uint8_t read_write, uint8_t command,
			  int size, union bus_smbus_data *data);
	int (*spi_transfer)(struct bus *bus, int cs, uint32_t mode,
			    const struct bus_spi_transfer *xfers, int n);
};

/**
 * struct bus - one adapter.
 * Public, read-only after bus_create(): @type, @number (the N of i2c-N /
 * spiN, used in hardware ids), @ops, @device, @i2c_funcs (BUS_I2C_FUNC_*:
 * what the adapter answers to I2C_FUNCS; plain I2C with SMBus emulated
 * unless the backend says otherwise). Private: the rest.
 */
struct bus {
	enum bus_type type;
	int number;
	const struct bus_ops *ops;
	char device[128];
	unsigned long i2c_funcs;
	int timeout_ms;		/* per transaction, for backends that can wait */
	bool may_block;		/* true for real hardware: run transfers off the loop */
	/* private */
	pthread_mutex_t lock;
	int refs;
	void *priv;		/* the backend's state */
};

/**
 * bus_backend_find() - "emulated", "i2c-dev" or "spidev".
 * Return: borrowed static ops, or NULL.
 */
const struct bus_ops *bus_backend_find(const char *name);

/**
 * bus_create() - open an adapter with a backend.
 * Return: 0 with *out owned (bus_put()), or -errno from the backend's open
 * (-ENOENT for a missing /dev node, -EINVAL for a backend of the wrong type).
 */
int bus_create(const struct bus_ops *ops, enum bus_type type, int number, const char *device,
	       struct bus **out);
/** bus_get()/bus_put() - references; the last put closes the backend. NULL-safe put. */
struct bus *bus_get(struct bus *bus);
void bus_put(struct bus *bus);

/**
 * bus_msleep() - wait @ms as a driver would (conversion and integration
 * times). On an emulated bus this advances the bus's virtual clock instead of
 * sleeping, so emulated chips never block; on a real bus it sleeps.
 */
void bus_msleep(struct bus *bus, unsigned int ms);

/* ---- I2C clients: a bus plus a 7-bit address ---- */

struct bus_i2c_client {
	struct bus *bus;	/* referenced */
	uint16_t addr;
};

/** bus_i2c_client_create()/_destroy() - a client at @addr (takes a bus reference). */
int bus_i2c_client_create(struct bus *bus, uint16_t addr, struct bus_i2c_client **out);
void bus_i2c_client_destroy(struct bus_i2c_client *client);

/* All return -errno on failure; reads return the value (>= 0) on success. */
int bus_i2c_transfer(struct bus_i2c_client *c, struct bus_i2c_msg *msgs, int n);
/**
 * bus_i2c_check_functionality() - as the kernel's i2c_check_functionality():
 * does the client's adapter do all of @funcs (BUS_I2C_FUNC_*)?
 * Return: true if so.
 */
bool bus_i2c_check_functionality(const struct bus_i2c_client *c, unsigned long funcs);
int bus_i2c_master_send(struct bus_i2c_client *c, const uint8_t *buf, int len); /* bytes sent */
int bus_i2c_master_recv(struct bus_i2c_client *c, uint8_t *buf, int len);	 /* bytes read */
int bus_smbus_write_byte(struct bus_i2c_client *c, uint8_t value);
int bus_smbus_read_byte(struct bus_i2c_client *c);
int bus_smbus_write_byte_data(struct bus_i2c_client *c, uint8_t command, uint8_t value);
int bus_smbus_read_byte_data(struct bus_i2c_client *c, uint8_t command);
int bus_smbus_write_word_data(struct bus_i2c_client *c, uint8_t command, uint16_t value);
int bus_smbus_read_word_data(struct bus_i2c_client *c, uint8_t command);
int bus_smbus_write_word_swapped(struct bus_i2c_client *c, uint8_t command, uint16_t value);
int bus_smbus_read_word_swapped(struct bus_i2c_client *c, uint8_t command);
int bus_smbus_read_block_data(struct bus_i2c_client *c, uint8_t command, uint8_t *values);
int bus_smbus_write_block_data(struct bus_i2c_client *c, uint8_t command, uint8_t len,
			       const uint8_t *values);
int bus_smbus_read_i2c_block_data(struct bus_i2c_client *c, uint8_t command, uint8_t len,
				  uint8_t *values);

/* ---- SPI devices: a bus plus a chip select and its settings ---- */

struct bus_spi_device {
	struct bus *bus;	/* referenced */
	int cs;
	uint32_t mode;		/* SPI_MODE_0..3 bits as <linux/spi/spidev.h> */
	uint32_t max_speed_hz;
	uint8_t bits_per_word;
};

int bus_spi_device_create(struct bus *bus, int cs, struct bus_spi_device **out);
void bus_spi_device_destroy(struct bus_spi_device *spi);
/** bus_spi_sync() - @n transfers under one chip select assertion. Return: 0 or -errno. */
int bus_spi_sync(struct bus_spi_device *spi, const struct bus_spi_transfer *xfers, int n);
int bus_spi_write(struct bus_spi_device *spi, const void *buf, size_t len);
int bus_spi_read(struct bus_spi_device *spi, void *buf, size_t len);

#endif /* IIOWIRE_BUS_H */
