/*
 * ad5766.c - driver for the Analog Devices AD5766 (16-bit) and AD5767
 * (12-bit) 16-channel SPI DACs, with the kernel's buffered output: a
 * triggered buffer whose direction is out, the trigger handler popping one
 * scan per poll (iio_pop_from_buffer()) into the input registers and
 * loading them all at once with a software LDAC.
 *
 * As Linux's drivers/iio/dac/ad5766.c, read at torvalds/linux commit
 * 03ab8e6297acd1bc (an <asm/unaligned.h>-era file, so before 6.12, with
 * the output buffer that came after 5.11: the stored 5.11-era file,
 * d0034a7a, has none); the driver is not built in Debian's 6.1 config, so
 * the kernel source is the reference, not the QEMU rig. Its channels,
 * scan types, ext_info files, span table and the IIO_VAL_FRACTIONAL_LOG2
 * scale (the span in volts over 2^bits) and integer offset (the span's
 * low end in volts) are the kernel's, as is the probe's sequence: software
 * full reset (0x70, code 0x1234), dither powered down, dither sources,
 * scales and inversion cleared, then the span. The board's
 * "output-range-microvolts" is the device tree's property, "MIN MAX" in
 * uV, required, and must name a row of the span table (EINVAL otherwise).
 * Where iiowire differs (maps/README.md): K-90 (raw read-back), K-91
 * (the dither files' commands), K-92 (channel 15 in buffered output).
 * Place in the flow: bus -> *driver* -> core. Must not format values or log.
 *
 * Every frame is 24 bits, MSB first: the command byte (command in 7:4,
 * DAC address in 3:0), then 16 data bits. A read-back command makes the
 * chip shift the register out on SDO during the next frame's last 16 bits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_buffer.h"
#include "abi/iio_value.h"
#include "bus/bus.h"

#define AD5766_CMD_NOP_MUX_OUT		0x00
#define AD5766_CMD_WR_IN_REG(x)		(0x10 | ((x) & 0xf))
#define AD5766_CMD_WR_DAC_REG(x)	(0x20 | ((x) & 0xf))
#define AD5766_CMD_SW_LDAC		0x30
#define AD5766_CMD_SPAN_REG		0x40
#define AD5766_CMD_WR_PWR_DITHER	0x51
#define AD5766_CMD_SW_FULL_RESET	0x70
#define AD5766_CMD_READBACK_REG(x)	(0x80 | ((x) & 0xf))
#define AD5766_CMD_DITHER_SIG_1		0x90
#define AD5766_CMD_DITHER_SIG_2		0xa0
#define AD5766_CMD_INV_DITHER		0xb0
#define AD5766_CMD_DITHER_SCALE_1	0xc0
#define AD5766_CMD_DITHER_SCALE_2	0xd0
#define AD5766_FULL_RESET_CODE		0x1234
#define AD5766_NCHANNELS		16

enum { AD5766_DITHER_ENABLE, AD5766_DITHER_INVERT, AD5766_DITHER_SOURCE };

/* The kernel's ad5766_span_tbl, in volts, indexed by the span register's code. */
static const struct { int min, max; } ad5766_span_tbl[] = {
	{ -20, 0 }, { -16, 0 }, { -10, 0 }, { -12, 14 },
	{ -16, 10 }, { -10, 6 }, { -5, 5 }, { -10, 10 },
};

static const char *const ad5766_dither_scales[] = { "1", "0.75", "0.5", "0.25" };

struct ad5766_state {
	struct bus_spi_device *spi;
	int bits;
	unsigned int crt_range;
	uint16_t dither_enable;		/* 1 = that channel's dither block powered down */
	uint16_t dither_invert;
	uint32_t dither_source;		/* two bits a channel: 01 = N0, 10 = N1 */
	uint32_t dither_scale;		/* two bits a channel: an ad5766_dither_scales index */
};

static int ad5766_spi_write(struct ad5766_state *st, uint8_t command, uint16_t data)
{
	const uint8_t buf[3] = { command, (uint8_t)(data >> 8), (uint8_t)data };

	return bus_spi_write(st->spi, buf, sizeof(buf));
}

/* Two frames under two chip selects: the read-back command, then a NOP that clocks it out. */
static int ad5766_spi_read(struct ad5766_state *st, unsigned int dac, int *val)
{
	const uint8_t cmd[3] = { AD5766_CMD_READBACK_REG(dac), 0, 0 };
	const uint8_t nop[3] = { AD5766_CMD_NOP_MUX_OUT, 0, 0 };
	uint8_t rx[3] = { 0 };
	const struct bus_spi_transfer xfer = { .tx_buf = nop, .rx_buf = rx, .len = 3 };
	int ret;

	ret = bus_spi_write(st->spi, cmd, sizeof(cmd));
	if (!ret)
		ret = bus_spi_sync(st->spi, &xfer, 1);
	if (!ret)
		*val = rx[1] << 8 | rx[2];
	return ret;
}

static int ad5766_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   int *val, int *val2, long m)
{
	struct ad5766_state *st = iio_priv(indio_dev);
	int ret;

	switch (m) {
	case IIO_CHAN_INFO_RAW:	/* K-90: the register read back, shifted down */
		ret = ad5766_spi_read(st, (unsigned int)chan->address, val);
		if (ret)
			return ret;
		*val >>= chan->scan_type.shift;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_OFFSET:
		*val = ad5766_span_tbl[st->crt_range].min;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		*val = ad5766_span_tbl[st->crt_range].max - ad5766_span_tbl[st->crt_range].min;
		*val2 = st->bits;
		return IIO_VAL_FRACTIONAL_LOG2;
	}
	return -EINVAL;
}

static int ad5766_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int val, int val2, long info)
{
	struct ad5766_state *st = iio_priv(indio_dev);

	(void)val2;
	if (info != IIO_CHAN_INFO_RAW)
		return -EINVAL;
	if (val < 0 || val > (1 << chan->scan_type.realbits) - 1)
		return -EINVAL;
	return ad5766_spi_write(st, AD5766_CMD_WR_DAC_REG(chan->address),
				(uint16_t)(val << chan->scan_type.shift));
}

static const struct iio_info ad5766_info = {
	.read_raw = ad5766_read_raw,
	.write_raw = ad5766_write_raw,
};

/* A 32-bit two-bits-a-channel word goes out as its low and high halves (K-91). */
static int ad5766_write_pair(struct ad5766_state *st, uint8_t lo_cmd, uint8_t hi_cmd,
			     uint32_t word)
{
	int ret = ad5766_spi_write(st, lo_cmd, (uint16_t)word);

	return ret ? ret : ad5766_spi_write(st, hi_cmd, (uint16_t)(word >> 16));
}

static int ad5766_read_ext(struct iio_dev *indio_dev, uintptr_t priv,
			   const struct iio_chan_spec *chan, char *buf, size_t len)
{
	struct ad5766_state *st = iio_priv(indio_dev);
	int ch = chan->channel, v;

	switch (priv) {
	case AD5766_DITHER_ENABLE:
		v = !(st->dither_enable & (1u << ch));
		break;
	case AD5766_DITHER_INVERT:
		v = !!(st->dither_invert & (1u << ch));
		break;
	case AD5766_DITHER_SOURCE:	/* the kernel's field minus one: 0 for N0, 1 for N1 */
		v = (int)((st->dither_source >> (2 * ch)) & 3) - 1;
		break;
	default:
		return -EINVAL;
	}
	return snprintf(buf, len, "%d\n", v);
}

static int ad5766_get_dither_scale(struct iio_dev *indio_dev, const struct iio_chan_spec *chan)
{
	struct ad5766_state *st = iio_priv(indio_dev);

	return (int)((st->dither_scale >> (2 * chan->channel)) & 3);
}

static int ad5766_set_dither_scale(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				   unsigned int scale)
{
	struct ad5766_state *st = iio_priv(indio_dev);

	st->dither_scale &= ~(3u << (2 * chan->channel));
	st->dither_scale |= scale << (2 * chan->channel);
	return ad5766_write_pair(st, AD5766_CMD_DITHER_SCALE_1, AD5766_CMD_DITHER_SCALE_2,
				 st->dither_scale);
}

static const struct iio_enum ad5766_dither_scale_enum = {
	.items = ad5766_dither_scales,
	.num_items = ARRAY_SIZE(ad5766_dither_scales),
	.get = ad5766_get_dither_scale,
	.set = ad5766_set_dither_scale,
};

/* As the kernel's: a kstrtobool value; the source bit is N0 + that value. */
static int ad5766_write_ext(struct iio_dev *indio_dev, uintptr_t priv,
			    const struct iio_chan_spec *chan, const char *buf, size_t len)
{
	struct ad5766_state *st = iio_priv(indio_dev);
	int ch = chan->channel, ret;
	bool on;

	(void)len;
	ret = iio_kstrtobool(buf, &on);
	if (ret)
		return ret;
	switch (priv) {
	case AD5766_DITHER_ENABLE:
		st->dither_enable = (uint16_t)((st->dither_enable & ~(1u << ch)) | (!on) << ch);
		return ad5766_spi_write(st, AD5766_CMD_WR_PWR_DITHER, st->dither_enable);
	case AD5766_DITHER_INVERT:
		st->dither_invert = (uint16_t)((st->dither_invert & ~(1u << ch)) | on << ch);
		return ad5766_spi_write(st, AD5766_CMD_INV_DITHER, st->dither_invert);
	case AD5766_DITHER_SOURCE:
		st->dither_source &= ~(3u << (2 * ch));
		st->dither_source |= 1u << (2 * ch + on);
		return ad5766_write_pair(st, AD5766_CMD_DITHER_SIG_1, AD5766_CMD_DITHER_SIG_2,
					 st->dither_source);
	}
	return -EINVAL;
}

#define AD5766_EXT(_name, _what, _write) { .name = (_name), .shared = IIO_SEPARATE,	\
	.read = ad5766_read_ext, .write = (_write), .private = (_what) }

static const struct iio_chan_spec_ext_info ad5766_ext_info[] = {
	AD5766_EXT("dither_enable", AD5766_DITHER_ENABLE, ad5766_write_ext),
	AD5766_EXT("dither_invert", AD5766_DITHER_INVERT, ad5766_write_ext),
	AD5766_EXT("dither_source", AD5766_DITHER_SOURCE, ad5766_write_ext),
	IIO_ENUM("dither_scale", IIO_SEPARATE, &ad5766_dither_scale_enum),
	IIO_ENUM_AVAILABLE("dither_scale", IIO_SEPARATE, &ad5766_dither_scale_enum),
	{ .name = NULL },
};

#define AD576X_CHANNEL(_chan, _bits) {						\
	.type = IIO_VOLTAGE, .indexed = 1, .output = 1, .channel = (_chan),		\
	.address = (_chan), .scan_index = (_chan),				\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_OFFSET) | BIT(IIO_CHAN_INFO_SCALE),	\
	.scan_type = { .sign = 'u', .realbits = (_bits), .storagebits = 16,	\
		       .shift = 16 - (_bits) },					\
	.ext_info = ad5766_ext_info,						\
}

#define AD576X_CHANNELS(_bits) {						\
	AD576X_CHANNEL(0, _bits), AD576X_CHANNEL(1, _bits), AD576X_CHANNEL(2, _bits),	\
	AD576X_CHANNEL(3, _bits), AD576X_CHANNEL(4, _bits), AD576X_CHANNEL(5, _bits),	\
	AD576X_CHANNEL(6, _bits), AD576X_CHANNEL(7, _bits), AD576X_CHANNEL(8, _bits),	\
	AD576X_CHANNEL(9, _bits), AD576X_CHANNEL(10, _bits), AD576X_CHANNEL(11, _bits),	\
	AD576X_CHANNEL(12, _bits), AD576X_CHANNEL(13, _bits), AD576X_CHANNEL(14, _bits),	\
	AD576X_CHANNEL(15, _bits),						\
}

static const struct iio_chan_spec ad5766_channels[] = AD576X_CHANNELS(16);
static const struct iio_chan_spec ad5767_channels[] = AD576X_CHANNELS(12);

enum { ID_AD5766, ID_AD5767 };

static const struct { const struct iio_chan_spec *channels; int bits; } ad5766_chips[] = {
	[ID_AD5766] = { ad5766_channels, 16 },
	[ID_AD5767] = { ad5767_channels, 12 },
};

/*
 * One scan per poll: each enabled channel's word into its input register,
 * then a software LDAC of the active mask loads them together. An empty
 * buffer (the pop's EBUSY) writes nothing: the outputs hold their codes,
 * as the kernel's handler does. K-92: all 16 channels, where the kernel's
 * loop stops at 15 (num_channels - 1).
 */
static int ad5766_trigger_handler(struct iio_dev *indio_dev, int64_t ts)
{
	struct ad5766_state *st = iio_priv(indio_dev);
	uint64_t mask = iio_buffer_active_mask(indio_dev);
	uint16_t data[AD5766_NCHANNELS];
	int ch, i = 0, ret;

	(void)ts;
	if (iio_pop_from_buffer(indio_dev, data))
		return 0;
	for (ch = 0; ch < AD5766_NCHANNELS; ch++) {
		if (!(mask & (1ULL << ch)))
			continue;
		ret = ad5766_spi_write(st, AD5766_CMD_WR_IN_REG(ch), data[i++]);
		if (ret)
			return ret;
	}
	return ad5766_spi_write(st, AD5766_CMD_SW_LDAC, (uint16_t)mask);
}

static const struct iio_buffer_setup ad5766_buffer_setup = {
	.handler = ad5766_trigger_handler,
	.direction = IIO_BUFFER_DIRECTION_OUT,
};

/* The device tree's output-range-microvolts, "MIN MAX": the span table's row. */
static int ad5766_get_output_range(struct ad5766_state *st, const struct iio_probe *p,
				   char *err, size_t errlen)
{
	const char *text;
	long min_uv, max_uv;
	char *end;
	size_t i;

	if (iio_probe_prop_str(p, "output-range-microvolts", &text))
		return iio_probe_err(p, err, errlen, -EINVAL,
				     "output-range-microvolts (\"MIN MAX\" in uV) is required");
	min_uv = strtol(text, &end, 10);
	max_uv = strtol(end, &end, 10);
	for (i = 0; *end == '\0' && i < ARRAY_SIZE(ad5766_span_tbl); i++) {
		if (ad5766_span_tbl[i].min == min_uv / 1000000 &&
		    ad5766_span_tbl[i].max == max_uv / 1000000) {
			st->crt_range = (unsigned int)i;
			return 0;
		}
	}
	return iio_probe_err(p, err, errlen, -EINVAL,
			     "output-range-microvolts \"%s\" is no span of the chip", text);
}

/* ad5766_default_setup(): reset, range, dither off and cleared, then the span. */
static int ad5766_default_setup(struct ad5766_state *st, const struct iio_probe *p, char *err,
				size_t errlen)
{
	int ret, i;

	ret = ad5766_spi_write(st, AD5766_CMD_SW_FULL_RESET, AD5766_FULL_RESET_CODE);
	if (ret)
		return iio_probe_err_bus(p, err, errlen, ret, "reset failed");
	ret = ad5766_get_output_range(st, p, err, errlen);
	if (ret)
		return ret;
	st->dither_enable = 0xffff;
	st->dither_source = 0;
	for (i = 0; i < AD5766_NCHANNELS; i++)
		st->dither_source |= 1u << (2 * i);
	st->dither_scale = 0;
	st->dither_invert = 0;
	ret = ad5766_spi_write(st, AD5766_CMD_WR_PWR_DITHER, st->dither_enable);
	if (!ret)
		ret = ad5766_write_pair(st, AD5766_CMD_DITHER_SIG_1, AD5766_CMD_DITHER_SIG_2,
					st->dither_source);
	if (!ret)
		ret = ad5766_write_pair(st, AD5766_CMD_DITHER_SCALE_1, AD5766_CMD_DITHER_SCALE_2,
					st->dither_scale);
	if (!ret)
		ret = ad5766_spi_write(st, AD5766_CMD_INV_DITHER, st->dither_invert);
	if (!ret)
		ret = ad5766_spi_write(st, AD5766_CMD_SPAN_REG, (uint16_t)st->crt_range);
	return ret ? iio_probe_err_bus(p, err, errlen, ret, "setup failed") : 0;
}

static int ad5766_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			size_t errlen)
{
	struct ad5766_state *st;
	struct iio_dev *indio_dev;
	int part, ret;

	part = iio_probe_part(p, ARRAY_SIZE(ad5766_chips), "AD5766-family", err, errlen);
	if (part < 0)
		return part;
	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	st->spi = p->spi;
	st->spi->bits_per_word = 8;
	st->bits = ad5766_chips[part].bits;
	ret = ad5766_default_setup(st, p, err, errlen);
	if (ret)
		goto err_put_dev;
	iio_device_setup(indio_dev, p->id->name, ad5766_chips[part].channels,
			 AD5766_NCHANNELS, &ad5766_info);
	indio_dev->label = p->label;
	if (iio_triggered_buffer_setup(indio_dev, &ad5766_buffer_setup, NULL)) {
		ret = -ENOMEM;
		goto err_put_dev;
	}
	*out = indio_dev;
	return 0;

err_put_dev:
	iio_device_put(indio_dev);
	return ret;
}

static const struct iio_device_id ad5766_id[] = {
	{ "ad5766", ID_AD5766 },
	{ "ad5767", ID_AD5767 },
	{ NULL, 0 }
};

static const struct iio_driver ad5766_driver = {
	.name = "ad5766",
	.bus = IIO_DRIVER_BUS_SPI,
	.id_table = ad5766_id,
	.probe = ad5766_probe,
};
IIO_DRIVER_REGISTER(ad5766_driver);
