/*
 * bh1750.c - driver for the ROHM BH1710/BH1715/BH1721/BH1750/BH1751 ambient
 * light sensors (I2C), as the kernel's drivers/iio/light/bh1750.c (the
 * version read is mainline's after 6.3, whose probe takes the id from the
 * client; 6.1 gets it as an argument; no other change that sysfs shows is
 * known [hedge: 6.1's own text not read]).
 *
 * The chips have no registers: the host sends one-byte opcodes (power down,
 * one-time H-resolution measurement, the two halves of the measurement time
 * register MTreg) and reads the 16-bit result as two bare bytes, MSB first.
 * That bare read needs a plain I2C adapter, so the probe refuses an
 * SMBus-only one with EOPNOTSUPP as the kernel's does (i2c-stub among them).
 * One channel: in_illuminance_raw (counts), _scale (lux per count, which
 * falls as MTreg grows) and _integration_time (MTreg times the part's
 * microseconds per step), with the device file integration_time_available
 * listing every step (every second one on the 10-bit BH1710/BH1721 parts,
 * as the kernel: a page would not hold them all; the others are accepted).
 * Place in the flow: bus -> *driver* -> core. Waits go through bus_msleep().
 * Must not: format values, log, or spell attribute names (the core does).
 */
#include <errno.h>
#include <stdio.h>

#include "iio_kit.h"
#include "bus/bus.h"

#define BH1750_POWER_DOWN		0x00
#define BH1750_ONE_TIME_H_RES_MODE	0x20	/* the BH1721's auto-resolution, continuous */
#define BH1750_CHANGE_INT_TIME_H_BIT	0x40
#define BH1750_CHANGE_INT_TIME_L_BIT	0x60

/* the kernel's I2C_FUNC_SMBUS_WRITE_BYTE: the opcodes go out as SMBus send-byte */
#define BH1750_FUNC_SMBUS_WRITE_BYTE	0x00040000UL

/*
 * The kernel waits usleep_range(t + 15 ms, t + 40 ms) after starting a
 * measurement of t = MTreg steps; we wait the lower bound, rounded up to ms.
 */
#define BH1750_READ_MARGIN_US		15000

#define BH1750_AVAIL_MAX		4096	/* the kernel's PAGE_SIZE */

enum bh1750_part { BH1710, BH1721, BH1750, BH1750_NPARTS };

/**
 * struct bh1750_chip_info - one row of the kernel's table.
 * @mtreg_to_usec: integration time per MTreg step.
 * @mtreg_to_scale: lux per count times MTreg, in micro-lux.
 * @inc: the step of integration_time_available.
 * @int_time_low_mask/@int_time_high_mask: which MTreg bits the two opcodes carry.
 */
struct bh1750_chip_info {
	uint16_t mtreg_min;
	uint16_t mtreg_max;
	uint16_t mtreg_default;
	int mtreg_to_usec;
	int mtreg_to_scale;
	int inc;
	uint16_t int_time_low_mask;
	uint16_t int_time_high_mask;
};

static const struct bh1750_chip_info bh1750_chip_info_tbl[] = {
	[BH1710] = { 140, 1022, 300, 400, 250000000, 2, 0x001f, 0x03e0 },
	[BH1721] = { 140, 1020, 300, 400, 250000000, 2, 0x0010, 0x03e0 },
	[BH1750] = { 31, 254, 69, 1740, 57500000, 1, 0x001f, 0x00e0 },
};

/**
 * struct bh1750_data - per-device state (iio_priv()); callbacks run under
 * the device lock.
 * @mtreg: what the driver last programmed (the chip cannot be read back).
 */
struct bh1750_data {
	struct bus_i2c_client *client;
	const struct bh1750_chip_info *chip_info;
	uint16_t mtreg;
};

/*
 * A new integration time: @usec must be a whole number of MTreg steps within
 * the part's range. Power down first, then the high and low halves; a
 * failed opcode leaves the driver's MTreg as it was, as the kernel's.
 */
static int bh1750_change_int_time(struct bh1750_data *data, int usec)
{
	const struct bh1750_chip_info *ci = data->chip_info;
	uint8_t halves[2];
	unsigned int val;
	size_t i;
	int ret;

	if (usec < 0 || usec % ci->mtreg_to_usec != 0)
		return -EINVAL;
	val = (unsigned int)(usec / ci->mtreg_to_usec);
	if (val < ci->mtreg_min || val > ci->mtreg_max)
		return -EINVAL;
	ret = bus_smbus_write_byte(data->client, BH1750_POWER_DOWN);
	if (ret < 0)
		return ret;
	halves[0] = (uint8_t)(BH1750_CHANGE_INT_TIME_H_BIT | ((val & ci->int_time_high_mask) >> 5));
	halves[1] = (uint8_t)(BH1750_CHANGE_INT_TIME_L_BIT | (val & ci->int_time_low_mask));
	for (i = 0; i < ARRAY_SIZE(halves); i++) {
		ret = bus_smbus_write_byte(data->client, halves[i]);
		if (ret < 0)
			return ret;
	}
	data->mtreg = (uint16_t)val;
	return 0;
}

/* One measurement: the opcode, the integration time plus margin, two bare bytes. */
static int bh1750_read(struct bh1750_data *data, int *val)
{
	unsigned int delay_us = (unsigned int)data->chip_info->mtreg_to_usec * data->mtreg +
				BH1750_READ_MARGIN_US;
	uint8_t result[2];
	int ret;

	ret = bus_smbus_write_byte(data->client, BH1750_ONE_TIME_H_RES_MODE);
	if (ret < 0)
		return ret;
	bus_msleep(data->client->bus, (delay_us + 999) / 1000);
	ret = bus_i2c_master_recv(data->client, result, 2);
	if (ret < 0)
		return ret;
	*val = result[0] << 8 | result[1];
	return 0;
}

static int bh1750_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   int *val, int *val2, long mask)
{
	struct bh1750_data *data = iio_priv(indio_dev);
	const struct bh1750_chip_info *ci = data->chip_info;
	int ret, tmp;

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		if (chan->type != IIO_LIGHT)
			return -EINVAL;
		ret = bh1750_read(data, val);
		return ret < 0 ? ret : IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		/* integer micro-lux, truncated, as the kernel's */
		tmp = ci->mtreg_to_scale / data->mtreg;
		*val = tmp / 1000000;
		*val2 = tmp % 1000000;
		return IIO_VAL_INT_PLUS_MICRO;
	case IIO_CHAN_INFO_INT_TIME:
		*val = 0;
		*val2 = ci->mtreg_to_usec * data->mtreg;
		return IIO_VAL_INT_PLUS_MICRO;
	default:
		return -EINVAL;
	}
}

static int bh1750_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int val, int val2, long mask)
{
	struct bh1750_data *data = iio_priv(indio_dev);

	(void)chan;
	if (mask != IIO_CHAN_INFO_INT_TIME || val != 0)
		return -EINVAL;
	return bh1750_change_int_time(data, val2);
}

/* "0.%06d " per listed step, the last blank turned into the newline. */
static int bh1750_int_time_available(struct iio_dev *indio_dev, uintptr_t priv, char *buf,
				     size_t len)
{
	const struct bh1750_chip_info *ci = ((struct bh1750_data *)iio_priv(indio_dev))->chip_info;
	size_t cap = len < BH1750_AVAIL_MAX ? len : BH1750_AVAIL_MAX;
	size_t n = 0;
	int i, w;

	(void)priv;
	for (i = ci->mtreg_min; i <= ci->mtreg_max; i += ci->inc) {
		w = snprintf(buf + n, cap - n, "0.%06d ", ci->mtreg_to_usec * i);
		if (w < 0 || (size_t)w >= cap - n)
			return -EOVERFLOW;
		n += (size_t)w;
	}
	buf[n - 1] = '\n';
	return (int)n;
}

static const struct iio_dev_attr bh1750_attributes[] = {
	{ .name = "integration_time_available", .read = bh1750_int_time_available },
	{ NULL, NULL, NULL, 0 },
};

static const struct iio_info bh1750_info = {
	.attrs = bh1750_attributes,
	.read_raw = bh1750_read_raw,
	.write_raw = bh1750_write_raw,
};

static const struct iio_chan_spec bh1750_channels[] = {
	{
		.type = IIO_LIGHT,
		.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) |
				      BIT(IIO_CHAN_INFO_INT_TIME),
	},
};

/*
 * bh1750_probe() - refuse an adapter without plain I2C, then program the
 * part's default MTreg (power down and both halves): the three opcodes are
 * the only check that a chip answers, as in the kernel.
 */
static int bh1750_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			size_t errlen)
{
	struct iio_dev *indio_dev;
	struct bh1750_data *data;
	int part, ret;

	part = iio_probe_part(p, BH1750_NPARTS, "BH17xx", err, errlen);
	if (part < 0)
		return part;
	if (!bus_i2c_check_functionality(p->i2c, BUS_I2C_FUNC_I2C | BH1750_FUNC_SMBUS_WRITE_BYTE))
		return iio_probe_err(p, err, errlen, -EOPNOTSUPP,
				     "the adapter cannot do plain I2C reads");
	indio_dev = iio_device_alloc(sizeof(*data));
	if (!indio_dev)
		return -ENOMEM;
	data = iio_priv(indio_dev);
	data->client = p->i2c;
	data->chip_info = &bh1750_chip_info_tbl[part];
	ret = bh1750_change_int_time(data, data->chip_info->mtreg_to_usec *
					   data->chip_info->mtreg_default);
	if (ret < 0) {
		iio_device_put(indio_dev);
		return iio_probe_err(p, err, errlen, ret, "no answer to the MTreg opcodes");
	}
	iio_device_setup(indio_dev, p->id->name, bh1750_channels,
			 (int)ARRAY_SIZE(bh1750_channels), &bh1750_info);
	indio_dev->label = p->label;
	*out = indio_dev;
	return 0;
}

/* bh1750_remove() - power down (the BH1721 would otherwise keep measuring). */
static void bh1750_remove(struct iio_dev *indio_dev)
{
	struct bh1750_data *data = iio_priv(indio_dev);

	bus_smbus_write_byte(data->client, BH1750_POWER_DOWN);
}

static const struct iio_device_id bh1750_id[] = {
	{ "bh1710", BH1710 },
	{ "bh1715", BH1750 },
	{ "bh1721", BH1721 },
	{ "bh1750", BH1750 },
	{ "bh1751", BH1750 },
	{ NULL, 0 }
};

/* the ADDR pin low or high (the kernel driver's head comment) */
static const unsigned short bh1750_addresses[] = { 0x23, 0x5c, IIO_I2C_ADDR_END };

static const struct iio_driver bh1750_driver = {
	.name = "bh1750",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = bh1750_id,
	.probe = bh1750_probe, .remove = bh1750_remove,
	.address_list = bh1750_addresses,
};
IIO_DRIVER_REGISTER(bh1750_driver);
