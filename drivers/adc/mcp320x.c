/*
 * mcp320x.c - driver for the Microchip MCP3001-MCP3008 (10 bits),
 * MCP3201-MCP3208 (12 bits), MCP3301 (13 bits, signed) successive
 * approximation ADCs and the MCP3550-50/-60, MCP3551, MCP3553 (22 bits,
 * delta-sigma), all on SPI with no registers: each reading is one frame.
 *
 * The multi-input parts take a command byte (start bit, single-ended or
 * differential, the input) in a first transfer and give the result in a
 * second, chip select held; the one-input parts have no MOSI and are read
 * only. The MCP355x convert after a chip select pulse and are read after
 * the conversion time, with a Data Ready bit first in SPI mode 0,0.
 * Kernel-exact with Linux 6.1's drivers/iio/adc/mcp320x.c (read in
 * torvalds/linux and checked against Debian's 6.1.0 module, 6.1.192): its
 * id table, channel tables (single-ended in_voltageN_raw, differential
 * in_voltageN-voltageM_raw, in_voltage_scale shared), each part's framing
 * and result parsing, the MCP355x's two throw-away conversions at probe,
 * and the scale vref_mv / 2^resolution (resolution 13 on the MCP3301, 21 on
 * the MCP355x, as the kernel's table says). The kernel's reference is a
 * "vref" regulator; here it is the board's vref_mv, and without one the
 * scale answers EINVAL, as the kernel's dummy regulator does. The SPI mode
 * is 0,0 (a board has no spi-cpol), so the MCP355x are always read in 25
 * clocks (deviation K-80, maps/README.md).
 * Place in the flow: bus -> *driver* -> core. Must not format values or log.
 */
#include <errno.h>
#include <stdbool.h>

#include "iio_kit.h"
#include "bus/bus.h"

#define MCP320X_RX_MAX		4

#define MCP320X_CHAN(n) {							\
	.type = IIO_VOLTAGE, .indexed = 1, .channel = (n), .address = (n),	\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
}
#define MCP320X_DIFF(p, n) {							\
	.type = IIO_VOLTAGE, .indexed = 1, .channel = (p), .channel2 = (n),	\
	.address = (p), .differential = 1,					\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
}

static const struct iio_chan_spec mcp3201_channels[] = {
	MCP320X_DIFF(0, 1),
};
static const struct iio_chan_spec mcp3202_channels[] = {
	MCP320X_CHAN(0), MCP320X_CHAN(1), MCP320X_DIFF(0, 1), MCP320X_DIFF(1, 0),
};
static const struct iio_chan_spec mcp3204_channels[] = {
	MCP320X_CHAN(0), MCP320X_CHAN(1), MCP320X_CHAN(2), MCP320X_CHAN(3),
	MCP320X_DIFF(0, 1), MCP320X_DIFF(1, 0), MCP320X_DIFF(2, 3), MCP320X_DIFF(3, 2),
};
static const struct iio_chan_spec mcp3208_channels[] = {
	MCP320X_CHAN(0), MCP320X_CHAN(1), MCP320X_CHAN(2), MCP320X_CHAN(3),
	MCP320X_CHAN(4), MCP320X_CHAN(5), MCP320X_CHAN(6), MCP320X_CHAN(7),
	MCP320X_DIFF(0, 1), MCP320X_DIFF(1, 0), MCP320X_DIFF(2, 3), MCP320X_DIFF(3, 2),
	MCP320X_DIFF(4, 5), MCP320X_DIFF(5, 4), MCP320X_DIFF(6, 7), MCP320X_DIFF(7, 6),
};

enum mcp320x_part {
	mcp3001, mcp3002, mcp3004, mcp3008, mcp3201, mcp3202, mcp3204, mcp3208,
	mcp3301, mcp3550_50, mcp3550_60, mcp3551, mcp3553, MCP320X_NPARTS
};

/* How a part's result sits in what it clocks out. */
enum mcp320x_frame {
	MCP320X_UNSIGNED,	/* the first two bytes, shifted down by @shift */
	MCP320X_SIGNED13,	/* sign and 12 bits at the bottom of two bytes */
	MCP320X_DELTA_SIGMA,	/* Data Ready, OVL, OVH, 22 bits */
};

/**
 * struct mcp320x_part_info - one row of the kernel's chip table.
 * @start_bit: where the command byte's start bit sits (0: no command byte).
 * @conv_us: MCP355x: the kernel's wait after the start pulse: the
 *	datasheet's conversion time plus 2 %, plus 144 periods of the internal
 *	oscillator to leave shutdown (80 ms at 102.4 kHz, 66.67 ms at 122.88,
 *	73.1 ms at 112.64, 16.67 ms at 122.88).
 */
struct mcp320x_part_info {
	const struct iio_chan_spec *channels;
	int num_channels;
	int resolution;
	enum mcp320x_frame frame;
	int shift;
	int start_bit;
	unsigned int conv_us;
};

#define MCP320X_ROW(ch, res, fr, sh, sb, us) \
	{ ch, (int)ARRAY_SIZE(ch), res, fr, sh, sb, us }

static const struct mcp320x_part_info mcp320x_parts[MCP320X_NPARTS] = {
	[mcp3001] = MCP320X_ROW(mcp3201_channels, 10, MCP320X_UNSIGNED, 3, 0, 0),
	[mcp3002] = MCP320X_ROW(mcp3202_channels, 10, MCP320X_UNSIGNED, 6, 4, 0),
	[mcp3004] = MCP320X_ROW(mcp3204_channels, 10, MCP320X_UNSIGNED, 6, 6, 0),
	[mcp3008] = MCP320X_ROW(mcp3208_channels, 10, MCP320X_UNSIGNED, 6, 6, 0),
	[mcp3201] = MCP320X_ROW(mcp3201_channels, 12, MCP320X_UNSIGNED, 1, 0, 0),
	[mcp3202] = MCP320X_ROW(mcp3202_channels, 12, MCP320X_UNSIGNED, 4, 4, 0),
	[mcp3204] = MCP320X_ROW(mcp3204_channels, 12, MCP320X_UNSIGNED, 4, 6, 0),
	[mcp3208] = MCP320X_ROW(mcp3208_channels, 12, MCP320X_UNSIGNED, 4, 6, 0),
	[mcp3301] = MCP320X_ROW(mcp3201_channels, 13, MCP320X_SIGNED13, 0, 0, 0),
	[mcp3550_50] = MCP320X_ROW(mcp3201_channels, 21, MCP320X_DELTA_SIGMA, 0, 0, 83006),
	[mcp3550_60] = MCP320X_ROW(mcp3201_channels, 21, MCP320X_DELTA_SIGMA, 0, 0, 69175),
	[mcp3551] = MCP320X_ROW(mcp3201_channels, 21, MCP320X_DELTA_SIGMA, 0, 0, 75840),
	[mcp3553] = MCP320X_ROW(mcp3201_channels, 21, MCP320X_DELTA_SIGMA, 0, 0, 18175),
};

struct mcp320x_state {
	struct bus_spi_device *spi;
	const struct mcp320x_part_info *info;
	int vref_mv;			/* 0: the board gave none */
};

/* Bytes of the result transfer: the bits rounded up, and the Data Ready bit in mode 0,0. */
static uint32_t mcp320x_rx_len(const struct mcp320x_part_info *info)
{
	uint32_t len = (uint32_t)(info->resolution + 7) / 8;

	return info->frame == MCP320X_DELTA_SIGMA ? len + 1 : len;
}

/*
 * The MCP355x's 24 bits after Data Ready: OVL (23), OVH (22) and 22 bits
 * whose bit 21 is the sign within +/-vref. Past it (up to 12 %) OVL or OVH
 * is set and bit 23 is the sign of a 23-bit value; both set cannot be.
 */
static int mcp320x_delta_sigma(const uint8_t *rx, int *val)
{
	uint32_t raw = (uint32_t)rx[0] << 24 | (uint32_t)rx[1] << 16 |
		       (uint32_t)rx[2] << 8 | rx[3];

	raw = (raw << 1) >> 8;		/* Data Ready out, then the 24 bits */
	if ((raw & BIT(22)) && (raw & BIT(23)))
		return -EIO;
	if (raw & BIT(22))
		raw &= ~(uint32_t)BIT(22);
	else if (raw & (BIT(23) | BIT(21)))
		raw |= (uint32_t)GENMASK(31, 22);
	*val = (int32_t)raw;
	return 0;
}

static int mcp320x_parse(const struct mcp320x_part_info *info, const uint8_t *rx, int *val)
{
	uint32_t word = (uint32_t)rx[0] << 8 | rx[1];

	switch (info->frame) {
	case MCP320X_UNSIGNED:
		/* unmasked, as the kernel's: what precedes the null bit reads 0 */
		*val = (int)(word >> info->shift);
		return 0;
	case MCP320X_SIGNED13:
		*val = sign_extend32(word & 0x1fff, 12);
		return 0;
	default:
		return mcp320x_delta_sigma(rx, val);
	}
}

static int mcp320x_conversion(struct mcp320x_state *st, int address, bool differential,
			      int *val)
{
	const struct mcp320x_part_info *info = st->info;
	uint8_t rx[MCP320X_RX_MAX] = { 0, 0, 0, 0 }, tx = 0;
	struct bus_spi_transfer xfers[2] = {
		{ .tx_buf = &tx, .len = 1 },
		{ .rx_buf = rx, .len = mcp320x_rx_len(info) },
	};
	/* a conversion starts on chip select held low for 8 us */
	const struct bus_spi_transfer start = { .len = 0, .delay_usecs = 8 };
	int ret;

	if (info->conv_us) {
		ret = bus_spi_sync(st->spi, &start, 1);
		if (ret < 0)
			return ret;
		bus_msleep(st->spi->bus, (info->conv_us + 999) / 1000);
	}
	if (info->start_bit) {
		/* start, then SGL/DIFF (1: single-ended), then the input from bit 2 up */
		tx = (uint8_t)(BIT(info->start_bit) | (!differential << (info->start_bit - 1)) |
			       (unsigned int)address << 2);
		ret = bus_spi_sync(st->spi, xfers, 2);
	} else {
		ret = bus_spi_sync(st->spi, &xfers[1], 1);
	}
	if (ret < 0)
		return ret;
	return mcp320x_parse(info, rx, val);
}

static int mcp320x_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int *val, int *val2, long mask)
{
	struct mcp320x_state *st = iio_priv(indio_dev);
	int ret;

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		ret = mcp320x_conversion(st, (int)chan->address, chan->differential, val);
		return ret < 0 ? ret : IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		if (!st->vref_mv)
			return -EINVAL;
		return iio_scale_log2(st->vref_mv, st->info->resolution, val, val2);
	default:
		return -EINVAL;
	}
}

static const struct iio_info mcp320x_info = {
	.read_raw = mcp320x_read_raw,
};

static int mcp320x_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			 size_t errlen)
{
	struct iio_dev *indio_dev;
	struct mcp320x_state *st;
	int part, vref_mv, dummy;

	part = iio_probe_adc(p, MCP320X_NPARTS, "MCP320x", &vref_mv, err, errlen);
	if (part < 0)
		return part;
	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	st->spi = p->spi;
	st->info = &mcp320x_parts[part];
	st->vref_mv = vref_mv;
	/* mode 0,0, 8-bit words: the kernel's without spi-cpol/spi-cpha */
	st->spi->mode = 0;
	st->spi->bits_per_word = 8;
	iio_device_setup(indio_dev, p->id->name, st->info->channels, st->info->num_channels,
			 &mcp320x_info);
	/*
	 * A MCP355x left in shutdown after continuous mode may answer all ones
	 * once; two conversions back to back wake it. Their results and errors
	 * are dropped, as the kernel's.
	 */
	if (st->info->frame == MCP320X_DELTA_SIGMA) {
		mcp320x_conversion(st, 0, true, &dummy);
		mcp320x_conversion(st, 0, true, &dummy);
	}
	*out = indio_dev;
	return 0;
}

static const struct iio_device_id mcp320x_id[] = {
	{ "mcp3001", mcp3001 }, { "mcp3002", mcp3002 }, { "mcp3004", mcp3004 },
	{ "mcp3008", mcp3008 }, { "mcp3201", mcp3201 }, { "mcp3202", mcp3202 },
	{ "mcp3204", mcp3204 }, { "mcp3208", mcp3208 }, { "mcp3301", mcp3301 },
	{ "mcp3550-50", mcp3550_50 }, { "mcp3550-60", mcp3550_60 }, { "mcp3551", mcp3551 },
	{ "mcp3553", mcp3553 }, { NULL, 0 }
};

static const struct iio_driver mcp320x_driver = {
	.name = "mcp320x",
	.bus = IIO_DRIVER_BUS_SPI,
	.id_table = mcp320x_id,
	.probe = mcp320x_probe,
};
IIO_DRIVER_REGISTER(mcp320x_driver);
