/*
 * ad5446.c - driver for the Analog Devices AD5446 family of one-output
 * DACs: the SPI parts (AD5300 ... AD5662, with the TI DACx81S101/DAC7512
 * the kernel lists as compatible) and the I2C AD5301/11/21 and AD5602/12/22,
 * as Linux 6.1's drivers/iio/dac/ad5446.c (read in torvalds/linux's stored
 * copy, of the 6.0/6.1 era: its I2C remove still returns int): its two id
 * tables as they are, each part's bits, shift
 * and storage, internal reference, and the powerdown files on the parts
 * that have them. Place in the flow: bus -> *driver* -> core. Must not
 * format values or log.
 *
 * A write is the code shifted into a 16-bit word sent MSB first (24 bits
 * on the AD5660/AD5662), on I2C the same two bytes; a power-down word puts
 * the mode (1 = 1 kohm, 2 = 100 kohm, 3 = three-state) just above the
 * data bits. Nothing is sent at probe. The board's "vref_mv" is the
 * kernel's vcc supply, which every part needs to bind: without one the
 * kernel gets a dummy regulator whose voltage is EINVAL, and its probe
 * fails so (Debian 6.1.0-57 under QEMU: "supply vcc not found, using dummy
 * regulator", "probe ... failed with error -22"). The reference is the
 * part's own (AD5620/40/60 -2500/-1250), else that supply. The kernel
 * leaves the SPI mode to the device tree; here it is the board's optional
 * "spi-cpha"/"spi-cpol" (0/1).
 */
#include <errno.h>
#include <stdbool.h>

#include "iio_kit.h"
#include "iio_value.h"
#include "bus/bus.h"

#define AD5446_PD_1K		1
#define AD5446_SPI_CPHA		0x01	/* <linux/spi/spidev.h>'s SPI_CPHA and SPI_CPOL */
#define AD5446_SPI_CPOL		0x02

/*
 * struct ad5446_chip_info - one row of the kernel's chip tables.
 * @channel: the output, with its bits, storage and shift.
 * @int_vref_mv: the internal reference (AD5620/40/60), or 0.
 * @write_bytes: 2, or 3 for the 24-bit AD5660/AD5662 words.
 */
struct ad5446_chip_info {
	struct iio_chan_spec channel;
	uint16_t int_vref_mv;
	uint8_t write_bytes;
};

struct ad5446_state {
	const struct ad5446_chip_info *chip_info;
	struct bus_spi_device *spi;
	struct bus_i2c_client *i2c;
	int vref_mv;
	unsigned int cached_val;
	unsigned int pwr_down_mode;
	bool pwr_down;
};

static const char *const ad5446_powerdown_modes[] = {
	"1kohm_to_gnd", "100kohm_to_gnd", "three_state",
};

/* The word, MSB first, over SPI or I2C. */
static int ad5446_write(struct ad5446_state *st, unsigned int val)
{
	uint8_t buf[3];
	int n = st->chip_info->write_bytes, i, ret;

	for (i = 0; i < n; i++)
		buf[i] = (uint8_t)(val >> (8 * (n - 1 - i)));
	if (st->spi)
		return bus_spi_write(st->spi, buf, (size_t)n);
	ret = bus_i2c_master_send(st->i2c, buf, n);
	if (ret < 0)
		return ret;
	return ret == n ? 0 : -EIO;
}

static int ad5446_get_powerdown_mode(struct iio_dev *indio_dev,
				     const struct iio_chan_spec *chan)
{
	struct ad5446_state *st = iio_priv(indio_dev);

	(void)chan;
	return (int)st->pwr_down_mode - 1;
}

static int ad5446_set_powerdown_mode(struct iio_dev *indio_dev,
				     const struct iio_chan_spec *chan, unsigned int mode)
{
	struct ad5446_state *st = iio_priv(indio_dev);

	(void)chan;
	st->pwr_down_mode = mode + 1;
	return 0;
}

static const struct iio_enum ad5446_powerdown_mode_enum = {
	.items = ad5446_powerdown_modes,
	.num_items = ARRAY_SIZE(ad5446_powerdown_modes),
	.get = ad5446_get_powerdown_mode,
	.set = ad5446_set_powerdown_mode,
};

static int ad5446_read_dac_powerdown(struct iio_dev *indio_dev, uintptr_t priv,
				     const struct iio_chan_spec *chan, char *buf, size_t len)
{
	struct ad5446_state *st = iio_priv(indio_dev);

	(void)priv;
	(void)chan;
	return iio_format_value(buf, len, IIO_VAL_INT, 1, (int[]){ st->pwr_down });
}

/* As the kernel's: the flag is set before the write is tried. */
static int ad5446_write_dac_powerdown(struct iio_dev *indio_dev, uintptr_t priv,
				      const struct iio_chan_spec *chan, const char *buf,
				      size_t len)
{
	struct ad5446_state *st = iio_priv(indio_dev);
	unsigned int val;
	bool powerdown;
	int ret;

	(void)priv;
	(void)len;
	ret = iio_kstrtobool(buf, &powerdown);
	if (ret)
		return ret;
	st->pwr_down = powerdown;
	if (powerdown)
		val = st->pwr_down_mode << (chan->scan_type.realbits + chan->scan_type.shift);
	else
		val = st->cached_val;
	return ad5446_write(st, val);
}

static const struct iio_chan_spec_ext_info ad5446_ext_info_powerdown[] = {
	{ .name = "powerdown", .shared = IIO_SEPARATE,
	  .read = ad5446_read_dac_powerdown, .write = ad5446_write_dac_powerdown },
	IIO_ENUM("powerdown_mode", IIO_SEPARATE, &ad5446_powerdown_mode_enum),
	IIO_ENUM_AVAILABLE("powerdown_mode", IIO_SHARED_BY_TYPE, &ad5446_powerdown_mode_enum),
	{ .name = NULL },
};

#define _AD5446_CHANNEL(bits, storage, _shift, ext) {				\
	.type = IIO_VOLTAGE, .indexed = 1, .output = 1, .channel = 0,		\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
	.scan_type = { .sign = 'u', .realbits = (bits), .storagebits = (storage),	\
		       .shift = (_shift) },					\
	.ext_info = (ext),							\
}
#define AD5446_CHANNEL(bits, storage, shift)					\
	_AD5446_CHANNEL(bits, storage, shift, NULL)
#define AD5446_CHANNEL_POWERDOWN(bits, storage, shift)				\
	_AD5446_CHANNEL(bits, storage, shift, ad5446_ext_info_powerdown)

static int ad5446_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   int *val, int *val2, long mask)
{
	struct ad5446_state *st = iio_priv(indio_dev);

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		*val = (int)(st->cached_val >> chan->scan_type.shift);
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		return iio_scale_log2(st->vref_mv, chan->scan_type.realbits, val, val2);
	}
	return -EINVAL;
}

/* While powered down the code is only cached; power-up writes it. */
static int ad5446_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int val, int val2, long mask)
{
	struct ad5446_state *st = iio_priv(indio_dev);

	(void)val2;
	if (mask != IIO_CHAN_INFO_RAW)
		return -EINVAL;
	if (val < 0 || val >= (1 << chan->scan_type.realbits))
		return -EINVAL;
	st->cached_val = (unsigned int)val << chan->scan_type.shift;
	return st->pwr_down ? 0 : ad5446_write(st, st->cached_val);
}

static const struct iio_info ad5446_info = {
	.read_raw = ad5446_read_raw,
	.write_raw = ad5446_write_raw,
};

/* The kernel's ad5446_supported_spi_device_ids, in its order. */
enum {
	ID_AD5300, ID_AD5310, ID_AD5320, ID_AD5444, ID_AD5446, ID_AD5450, ID_AD5451,
	ID_AD5541A, ID_AD5512A, ID_AD5553, ID_AD5600, ID_AD5601, ID_AD5611, ID_AD5621,
	ID_AD5641, ID_AD5620_2500, ID_AD5620_1250, ID_AD5640_2500, ID_AD5640_1250,
	ID_AD5660_2500, ID_AD5660_1250, ID_AD5662, AD5446_SPI_NPARTS
};

#define AD5446_PART(chan, vref, bytes)	{ chan, vref, bytes }

static const struct ad5446_chip_info ad5446_spi_chip_info[AD5446_SPI_NPARTS] = {
	[ID_AD5300] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(8, 16, 4), 0, 2),
	[ID_AD5310] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(10, 16, 2), 0, 2),
	[ID_AD5320] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(12, 16, 0), 0, 2),
	[ID_AD5444] = AD5446_PART(AD5446_CHANNEL(12, 16, 2), 0, 2),
	[ID_AD5446] = AD5446_PART(AD5446_CHANNEL(14, 16, 0), 0, 2),
	[ID_AD5450] = AD5446_PART(AD5446_CHANNEL(8, 16, 6), 0, 2),
	[ID_AD5451] = AD5446_PART(AD5446_CHANNEL(10, 16, 4), 0, 2),
	[ID_AD5541A] = AD5446_PART(AD5446_CHANNEL(16, 16, 0), 0, 2),
	[ID_AD5512A] = AD5446_PART(AD5446_CHANNEL(12, 16, 4), 0, 2),
	[ID_AD5553] = AD5446_PART(AD5446_CHANNEL(14, 16, 0), 0, 2),
	[ID_AD5600] = AD5446_PART(AD5446_CHANNEL(16, 16, 0), 0, 2),
	[ID_AD5601] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(8, 16, 6), 0, 2),
	[ID_AD5611] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(10, 16, 4), 0, 2),
	[ID_AD5621] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(12, 16, 2), 0, 2),
	[ID_AD5641] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(14, 16, 0), 0, 2),
	[ID_AD5620_2500] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(12, 16, 2), 2500, 2),
	[ID_AD5620_1250] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(12, 16, 2), 1250, 2),
	[ID_AD5640_2500] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(14, 16, 0), 2500, 2),
	[ID_AD5640_1250] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(14, 16, 0), 1250, 2),
	[ID_AD5660_2500] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(16, 16, 0), 2500, 3),
	[ID_AD5660_1250] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(16, 16, 0), 1250, 3),
	[ID_AD5662] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(16, 16, 0), 0, 3),
};

enum { ID_AD5602, ID_AD5612, ID_AD5622, AD5446_I2C_NPARTS };

static const struct ad5446_chip_info ad5446_i2c_chip_info[AD5446_I2C_NPARTS] = {
	[ID_AD5602] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(8, 16, 4), 0, 2),
	[ID_AD5612] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(10, 16, 2), 0, 2),
	[ID_AD5622] = AD5446_PART(AD5446_CHANNEL_POWERDOWN(12, 16, 0), 0, 2),
};

/* The SPI mode bits the board asks for; 0 or -EINVAL. */
static int ad5446_spi_mode(const struct iio_probe *p, uint32_t *mode, char *err, size_t errlen)
{
	static const struct { const char *key; uint32_t bit; } keys[] = {
		{ "spi-cpha", AD5446_SPI_CPHA }, { "spi-cpol", AD5446_SPI_CPOL },
	};
	size_t i;
	int v, ret;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		v = 0;
		ret = iio_probe_prop_int(p, keys[i].key, &v);
		if ((ret < 0 && ret != -ENOENT) || v < 0 || v > 1)
			return iio_probe_err(p, err, errlen, -EINVAL, "%s must be 0 or 1",
					     keys[i].key);
		if (v)
			*mode |= keys[i].bit;
	}
	return 0;
}

/* What the kernel's ad5446_probe() does for both buses. */
static int ad5446_probe_common(const struct iio_probe *p, const struct ad5446_chip_info *ci,
			       struct iio_dev **out, char *err, size_t errlen)
{
	struct ad5446_state *st;
	struct iio_dev *indio_dev;
	uint32_t mode = 0;
	int vref_mv, ret;

	ret = iio_probe_vref_mv(p, &vref_mv, err, errlen);
	if (!ret && !vref_mv)
		ret = iio_probe_err(p, err, errlen, -EINVAL,
				    "no vcc supply: vref_mv is required, as the kernel's probe "
				    "fails on a supply without a voltage");
	if (!ret && p->spi)
		ret = ad5446_spi_mode(p, &mode, err, errlen);
	if (ret < 0)
		return ret;
	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	st->chip_info = ci;
	st->spi = p->spi;
	st->i2c = p->i2c;
	if (p->spi)
		p->spi->mode = mode;
	st->pwr_down_mode = AD5446_PD_1K;
	st->vref_mv = ci->int_vref_mv ? ci->int_vref_mv : vref_mv;
	iio_device_setup(indio_dev, p->id->name, &ci->channel, 1, &ad5446_info);
	indio_dev->label = p->label;
	*out = indio_dev;
	return 0;
}

static int ad5446_spi_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			    size_t errlen)
{
	int part = iio_probe_part(p, AD5446_SPI_NPARTS, "AD5446-family SPI", err, errlen);

	if (part < 0)
		return part;
	return ad5446_probe_common(p, &ad5446_spi_chip_info[part], out, err, errlen);
}

static int ad5446_i2c_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			    size_t errlen)
{
	int part = iio_probe_part(p, AD5446_I2C_NPARTS, "AD5446-family I2C", err, errlen);

	if (part < 0)
		return part;
	return ad5446_probe_common(p, &ad5446_i2c_chip_info[part], out, err, errlen);
}

static const struct iio_device_id ad5446_spi_ids[] = {
	{ "ad5300", ID_AD5300 }, { "ad5310", ID_AD5310 }, { "ad5320", ID_AD5320 },
	{ "ad5444", ID_AD5444 }, { "ad5446", ID_AD5446 }, { "ad5450", ID_AD5450 },
	{ "ad5451", ID_AD5451 },
	{ "ad5452", ID_AD5444 },	/* compatible with the ad5444 */
	{ "ad5453", ID_AD5446 },	/* compatible with the ad5446 */
	{ "ad5512a", ID_AD5512A }, { "ad5541a", ID_AD5541A },
	{ "ad5542a", ID_AD5541A }, { "ad5543", ID_AD5541A },
	{ "ad5553", ID_AD5553 }, { "ad5600", ID_AD5600 }, { "ad5601", ID_AD5601 },
	{ "ad5611", ID_AD5611 }, { "ad5621", ID_AD5621 }, { "ad5641", ID_AD5641 },
	{ "ad5620-2500", ID_AD5620_2500 }, { "ad5620-1250", ID_AD5620_1250 },
	{ "ad5640-2500", ID_AD5640_2500 }, { "ad5640-1250", ID_AD5640_1250 },
	{ "ad5660-2500", ID_AD5660_2500 }, { "ad5660-1250", ID_AD5660_1250 },
	{ "ad5662", ID_AD5662 },
	/* Texas Instruments parts the kernel drives as compatible */
	{ "dac081s101", ID_AD5300 }, { "dac101s101", ID_AD5310 },
	{ "dac121s101", ID_AD5320 }, { "dac7512", ID_AD5320 },
	{ NULL, 0 }
};

static const struct iio_device_id ad5446_i2c_ids[] = {
	{ "ad5301", ID_AD5602 }, { "ad5311", ID_AD5612 }, { "ad5321", ID_AD5622 },
	{ "ad5602", ID_AD5602 }, { "ad5612", ID_AD5612 }, { "ad5622", ID_AD5622 },
	{ NULL, 0 }
};

static const struct iio_driver ad5446_spi_driver = {
	.name = "ad5446",
	.bus = IIO_DRIVER_BUS_SPI,
	.id_table = ad5446_spi_ids,
	.probe = ad5446_spi_probe,
};
IIO_DRIVER_REGISTER(ad5446_spi_driver);

static const struct iio_driver ad5446_i2c_driver = {
	.name = "ad5446",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = ad5446_i2c_ids,
	.probe = ad5446_i2c_probe,
};
IIO_DRIVER_REGISTER(ad5446_i2c_driver);
