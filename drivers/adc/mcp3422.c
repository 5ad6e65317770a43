/*
 * mcp3422.c - driver for the Microchip MCP3421-MCP3428 delta-sigma I2C ADCs:
 * one (3421, 3425), two (3422, 3423, 3426, 3427) or four (3424, 3428)
 * differential inputs, 12/14/16 bits at 240/60/15 SPS and, on the
 * MCP3421-3424 only, 18 bits at 3.75 SPS; a PGA of x1 to x8.
 *
 * The chip has one register, the configuration byte: written alone with no
 * register address, and read back after the result (2 data bytes, 3 at
 * 18 bits), so every transfer is plain I2C. The driver keeps the chip in
 * continuous mode and follows Linux 6.1's drivers/iio/adc/mcp3422.c (read
 * in torvalds/linux and checked against Debian's 6.1.0 module, 6.1.192):
 * in_voltageN_raw and in_voltageN_scale per channel, sampling_frequency
 * shared, sampling_frequency_available and in_voltage_scale_available as
 * device attributes (the scales of the current rate), the device named by
 * its I2C client ("1-0068"), as the kernel's dev_name(). Its quirks are the
 * kernel's too: a scale reads the PGA of the channel last converted, a read
 * of the channel already selected does not wait for a conversion after a
 * scale or rate write, and a failed read is EINVAL.
 * Place in the flow: bus -> *driver* -> core. Must not format values or log.
 */
#include <errno.h>
#include <stdio.h>

#include "iio_kit.h"
#include "bus/bus.h"

#define MCP3422_CHANNEL_MASK	0x60	/* C1-C0 */
#define MCP3422_CONT_SAMPLING	0x10	/* O/C: continuous conversions */
#define MCP3422_SRATE_MASK	0x0c	/* S1-S0 */
#define MCP3422_PGA_MASK	0x03	/* G1-G0 */
#define MCP3422_SRATE_3		3	/* 3.75 SPS, 18 bits */
#define MCP3422_NRATES		4
#define MCP3422_NPGA		4
#define MCP3422_NPARTS		9	/* the kernel's id rows carry 1..8 */
#define MCP3422_NO_18BIT_ABOVE	4	/* ids 5..8 (MCP3425-3428) stop at 16 bits */

#define MCP3422_CHAN(n) {							\
	.type = IIO_VOLTAGE, .indexed = 1, .channel = (n),			\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE),\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SAMP_FREQ),		\
}

static const struct iio_chan_spec mcp3422_channels[] = {
	MCP3422_CHAN(0), MCP3422_CHAN(1), MCP3422_CHAN(2), MCP3422_CHAN(3),
};

/* LSB in nV by rate (row) and PGA (column): 2 x 2.048 V / 2^bits / gain */
static const int mcp3422_scales[MCP3422_NRATES][MCP3422_NPGA] = {
	{ 1000000, 500000, 250000, 125000 },
	{ 250000, 125000, 62500, 31250 },
	{ 62500, 31250, 15625, 7812 },
	{ 15625, 7812, 3906, 1953 },
};
static const int mcp3422_rates[MCP3422_NRATES] = { 240, 60, 15, 3 };
/* the sign bit of a result: 12, 14, 16 and 18 bits */
static const int mcp3422_sign_bit[MCP3422_NRATES] = { 11, 13, 15, 17 };

/*
 * The wait after a channel switch: the kernel's msleep(1000 / rate), whose
 * integer quotient is shorter than one conversion at 240, 60 and 15 SPS;
 * msleep() itself sleeps at least one jiffy (>= 1 ms) past what it is asked,
 * which is what makes the kernel's read fresh. bus_msleep() sleeps what it
 * is told, so that millisecond is added here.
 */
static unsigned int mcp3422_wait_ms(int rate)
{
	return 1000 / (unsigned int)mcp3422_rates[rate] + 1;
}

struct mcp3422_state {
	struct bus_i2c_client *i2c;
	int id;				/* the id row's 1..8 */
	uint8_t config;			/* what the chip was last sent */
	uint8_t pga[4];			/* each channel's gain, for a switch back */
	char name[32];			/* the client's name, the device's name */
};

static int mcp3422_rate(uint8_t config)
{
	return (int)FIELD_GET(MCP3422_SRATE_MASK, config);
}

static int mcp3422_update_config(struct mcp3422_state *st, uint8_t config)
{
	int ret = bus_i2c_master_send(st->i2c, &config, 1);

	if (ret < 0)
		return ret;
	st->config = config;
	return 0;
}

/* The latest result, in the byte count and sign of the configured rate. */
static int mcp3422_read(struct mcp3422_state *st, int *val)
{
	int rate = mcp3422_rate(st->config);
	uint8_t buf[4] = { 0, 0, 0, 0 };
	uint32_t data;
	int ret;

	/* the configuration byte follows the data; the kernel reads and drops it */
	if (rate == MCP3422_SRATE_3) {
		ret = bus_i2c_master_recv(st->i2c, buf, 4);
		data = (uint32_t)buf[0] << 16 | (uint32_t)buf[1] << 8 | buf[2];
	} else {
		ret = bus_i2c_master_recv(st->i2c, buf, 3);
		data = (uint32_t)buf[0] << 8 | buf[1];
	}
	*val = sign_extend32(data, mcp3422_sign_bit[rate]);
	return ret;
}

static int mcp3422_read_channel(struct mcp3422_state *st, int ch, int *val)
{
	uint8_t config = st->config;
	int ret;

	if (ch != (int)FIELD_GET(MCP3422_CHANNEL_MASK, config)) {
		config &= (uint8_t)~(MCP3422_CHANNEL_MASK | MCP3422_PGA_MASK);
		config |= (uint8_t)(FIELD_PREP(MCP3422_CHANNEL_MASK, ch) | st->pga[ch]);
		ret = mcp3422_update_config(st, config);
		if (ret < 0)
			return ret;
		bus_msleep(st->i2c->bus, mcp3422_wait_ms(mcp3422_rate(st->config)));
	}
	return mcp3422_read(st, val);
}

static int mcp3422_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int *val, int *val2, long mask)
{
	struct mcp3422_state *st = iio_priv(indio_dev);
	int rate = mcp3422_rate(st->config);

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		/* the kernel turns every failure of the read into EINVAL */
		if (mcp3422_read_channel(st, chan->channel, val) < 0)
			return -EINVAL;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		/* the configuration's PGA, whichever channel asks (as the kernel) */
		*val = 0;
		*val2 = mcp3422_scales[rate][st->config & MCP3422_PGA_MASK];
		return IIO_VAL_INT_PLUS_NANO;
	case IIO_CHAN_INFO_SAMP_FREQ:
		*val = mcp3422_rates[rate];
		return IIO_VAL_INT;
	default:
		return -EINVAL;
	}
}

static int mcp3422_write_scale(struct mcp3422_state *st, int ch, int val, int val2)
{
	uint8_t config = st->config;
	int rate = mcp3422_rate(config), g;

	if (val != 0)
		return -EINVAL;
	for (g = 0; g < MCP3422_NPGA; g++) {
		if (val2 != mcp3422_scales[rate][g])
			continue;
		st->pga[ch] = (uint8_t)g;
		config &= (uint8_t)~(MCP3422_CHANNEL_MASK | MCP3422_PGA_MASK);
		config |= (uint8_t)(FIELD_PREP(MCP3422_CHANNEL_MASK, ch) | g);
		return mcp3422_update_config(st, config);
	}
	return -EINVAL;
}

static int mcp3422_write_rate(struct mcp3422_state *st, int ch, int hz)
{
	uint8_t config = st->config;
	int rate;

	/* the fraction is dropped first, so "3.75" is 3 */
	for (rate = 0; rate < MCP3422_NRATES; rate++)
		if (hz == mcp3422_rates[rate])
			break;
	if (rate == MCP3422_NRATES ||
	    (rate == MCP3422_SRATE_3 && st->id > MCP3422_NO_18BIT_ABOVE))
		return -EINVAL;
	/* the shared attribute's channel is the first one: it becomes selected */
	config &= (uint8_t)~(MCP3422_CHANNEL_MASK | MCP3422_SRATE_MASK);
	config |= (uint8_t)(FIELD_PREP(MCP3422_CHANNEL_MASK, ch) |
			    FIELD_PREP(MCP3422_SRATE_MASK, rate));
	return mcp3422_update_config(st, config);
}

static int mcp3422_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			     int val, int val2, long mask)
{
	struct mcp3422_state *st = iio_priv(indio_dev);

	switch (mask) {
	case IIO_CHAN_INFO_SCALE:
		return mcp3422_write_scale(st, chan->channel, val, val2);
	case IIO_CHAN_INFO_SAMP_FREQ:
		return mcp3422_write_rate(st, chan->channel, val);
	default:
		return -EINVAL;
	}
}

static int mcp3422_write_raw_get_fmt(struct iio_dev *indio_dev,
				     const struct iio_chan_spec *chan, long mask)
{
	(void)indio_dev;
	(void)chan;
	switch (mask) {
	case IIO_CHAN_INFO_SCALE:
		return IIO_VAL_INT_PLUS_NANO;
	case IIO_CHAN_INFO_SAMP_FREQ:
		return IIO_VAL_INT_PLUS_MICRO;
	default:
		return -EINVAL;
	}
}

static int mcp3422_show_rates(struct iio_dev *indio_dev, uintptr_t priv, char *buf, size_t len)
{
	const struct mcp3422_state *st = iio_priv(indio_dev);

	(void)priv;
	return snprintf(buf, len, "%s\n",
			st->id > MCP3422_NO_18BIT_ABOVE ? "240 60 15" : "240 60 15 3");
}

static int mcp3422_show_scales(struct iio_dev *indio_dev, uintptr_t priv, char *buf,
			       size_t len)
{
	const struct mcp3422_state *st = iio_priv(indio_dev);
	const int *s = mcp3422_scales[mcp3422_rate(st->config)];

	(void)priv;
	return snprintf(buf, len, "0.%09d 0.%09d 0.%09d 0.%09d\n", s[0], s[1], s[2], s[3]);
}

static const struct iio_dev_attr mcp3422_attrs[] = {
	{ .name = "sampling_frequency_available", .read = mcp3422_show_rates },
	{ .name = "in_voltage_scale_available", .read = mcp3422_show_scales },
	{ .name = NULL },
};

static const struct iio_info mcp3422_info = {
	.read_raw = mcp3422_read_raw,
	.write_raw = mcp3422_write_raw,
	.write_raw_get_fmt = mcp3422_write_raw_get_fmt,
	.attrs = mcp3422_attrs,
};

/* inputs by id row: MCP3421/3425 one, MCP3424/3428 four, the others two */
static int mcp3422_nchannels(int id)
{
	if (id == 1 || id == 5)
		return 1;
	return id == 4 || id == 8 ? 4 : 2;
}

static int mcp3422_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			 size_t errlen)
{
	struct iio_dev *indio_dev;
	struct mcp3422_state *st;
	int id, ret;

	id = iio_probe_part(p, MCP3422_NPARTS, "MCP342x", err, errlen);
	if (id < 0)
		return id;
	/* the configuration byte is a bare one-byte write: no SMBus form */
	if (!bus_i2c_check_functionality(p->i2c, BUS_I2C_FUNC_I2C))
		return iio_probe_err(p, err, errlen, -EOPNOTSUPP, "no plain I2C on the adapter");
	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	st->i2c = p->i2c;
	st->id = id;
	iio_probe_hwid(p, st->name, sizeof(st->name));
	iio_device_setup(indio_dev, st->name, mcp3422_channels, mcp3422_nchannels(id),
			 &mcp3422_info);
	/* channel 0, x1, 240 SPS, continuous: the kernel's "meaningful default" */
	ret = mcp3422_update_config(st, MCP3422_CONT_SAMPLING);
	if (ret < 0) {
		iio_device_put(indio_dev);
		return iio_probe_err(p, err, errlen, ret, "no answer");
	}
	*out = indio_dev;
	return 0;
}

static const struct iio_device_id mcp3422_id[] = {
	{ "mcp3421", 1 }, { "mcp3422", 2 }, { "mcp3423", 3 }, { "mcp3424", 4 },
	{ "mcp3425", 5 }, { "mcp3426", 6 }, { "mcp3427", 7 }, { "mcp3428", 8 },
	{ NULL, 0 }
};

/* A2..A0 address pins: 0x68-0x6f (the MCP3421/3425 are ordered per address) */
static const unsigned short mcp3422_addresses[] = {
	0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f, IIO_I2C_ADDR_END
};

static const struct iio_driver mcp3422_driver = {
	.name = "mcp3422",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = mcp3422_id,
	.probe = mcp3422_probe,
	.address_list = mcp3422_addresses,
};
IIO_DRIVER_REGISTER(mcp3422_driver);
