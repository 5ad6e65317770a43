/*
 * max1363.c - driver for the MAX1363 family of I2C ADCs: 38 parts with 2, 4,
 * 8 or 12 inputs, 8, 10 or 12 bits, an internal reference of 2048 or 4096 mV
 * or an external one (the board's vref_mv).
 *
 * The chip has no registers to address: the driver writes a setup byte and a
 * configuration byte (which input, single-ended or which differential pair,
 * one conversion) and then reads results straight off the bus. The channel
 * table follows the kernel driver (drivers/iio/adc/max1363.c): every input
 * single-ended, every neighbouring pair differential in both directions,
 * datasheet names AINn and AINp-AINm so consumer maps can find them, and a
 * soft timestamp channel. Place in the flow: bus -> *driver* -> core.
 * Must not format text, log, or include protocol or server headers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_buffer.h"
#include "bus/bus.h"

/* setup byte (bit 7 set tells it from a configuration byte) */
#define MAX1363_SETUP_BYTE		0x80
#define MAX1363_SETUP_REF_EXT		0x20	/* AIN/REF pin is the reference input */
#define MAX1363_SETUP_REF_INT		0x40	/* internal reference; AIN3 is an input */
#define MAX1363_SETUP_INT_REF_ON	0x10	/* keep the internal reference powered */
#define MAX1363_SETUP_NORESET		0x02	/* RST = 1: keep the configuration */

/* configuration byte (bit 7 clear) */
#define MAX1363_CONF_SCAN_TO_CS		0x00
#define MAX1363_CONF_SCAN_MID_TO_CS	0x40	/* from the middle input up to CS */
#define MAX1363_CONF_SCAN_ONCE		0x60	/* convert the selected input once */
#define MAX1363_CONF_CS(n)		((n) << 1)
#define MAX1363_CONF_SE			0x01	/* single-ended; clear: differential */

/* Single conversion of AINn, and of the pair with AINp positive: the channel's address. */
#define MAX1363_CONF_SINGLE(n)	\
	(MAX1363_CONF_SCAN_ONCE | MAX1363_CONF_CS(n) | MAX1363_CONF_SE)
#define MAX1363_CONF_DIFF(p)		(MAX1363_CONF_SCAN_ONCE | MAX1363_CONF_CS(p))
/* The power-on scan the kernel driver also starts in: AIN0 up to the last input. */
#define MAX1363_CONF_SCAN_ALL(n)	\
	(MAX1363_CONF_SCAN_TO_CS | MAX1363_CONF_CS((n) - 1) | MAX1363_CONF_SE)

/* no configuration byte has bit 7 set, so this never matches a channel */
#define MAX1363_CONF_UNKNOWN		(-1)

#define MAX1363_CHAN_SE(num, bits, si) {					\
	.type = IIO_VOLTAGE,							\
	.indexed = 1,								\
	.channel = (num),							\
	.address = MAX1363_CONF_SINGLE(num),					\
	.scan_index = (si),							\
	.scan_type = { .sign = 'u', .realbits = (bits),				\
		       .storagebits = (bits) > 8 ? 16 : 8, .endianness = IIO_BE },	\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
	.datasheet_name = "AIN" #num,						\
}

/* Differential: the chip is run unipolar, but the scan type says 's' as the kernel's does. */
#define MAX1363_CHAN_DIFF(num, num2, bits, si) {				\
	.type = IIO_VOLTAGE,							\
	.indexed = 1,								\
	.differential = 1,							\
	.channel = (num),							\
	.channel2 = (num2),							\
	.address = MAX1363_CONF_DIFF(num),					\
	.scan_index = (si),							\
	.scan_type = { .sign = 's', .realbits = (bits),				\
		       .storagebits = (bits) > 8 ? 16 : 8, .endianness = IIO_BE },	\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
	.datasheet_name = "AIN" #num "-AIN" #num2,				\
}

/* The kernel's soft timestamp: no attributes of its own, it brings current_timestamp_clock. */
#define MAX1363_CHAN_TIMESTAMP(si) {						\
	.type = IIO_TIMESTAMP,							\
	.channel = -1,								\
	.scan_index = (si),							\
	.scan_type = { .sign = 's', .realbits = 64, .storagebits = 64 },	\
}

/* Four single-ended inputs (literal numbers: they make the datasheet names). */
#define MAX1363_SE4(a, b, c, d, bits)						\
	MAX1363_CHAN_SE(a, bits, a), MAX1363_CHAN_SE(b, bits, b),		\
	MAX1363_CHAN_SE(c, bits, c), MAX1363_CHAN_SE(d, bits, d)

/* Two differential pairs at scan indices @si and @si + 1. */
#define MAX1363_DIFF2(p0, n0, p1, n1, bits, si)					\
	MAX1363_CHAN_DIFF(p0, n0, bits, si), MAX1363_CHAN_DIFF(p1, n1, bits, (si) + 1)

/* Scan indices as the kernel's: inputs, then pairs (even, odd), then (odd, even). */
#define MAX1363_2X_CHANS(bits) {						\
	MAX1363_CHAN_SE(0, bits, 0), MAX1363_CHAN_SE(1, bits, 1),		\
	MAX1363_CHAN_DIFF(0, 1, bits, 2), MAX1363_CHAN_DIFF(1, 0, bits, 3),	\
	MAX1363_CHAN_TIMESTAMP(4),						\
}

#define MAX1363_4X_CHANS(bits) {						\
	MAX1363_SE4(0, 1, 2, 3, bits),						\
	MAX1363_DIFF2(0, 1, 2, 3, bits, 4), MAX1363_DIFF2(1, 0, 3, 2, bits, 6),	\
	MAX1363_CHAN_TIMESTAMP(8),						\
}

#define MAX1363_8X_CHANS(bits) {						\
	MAX1363_SE4(0, 1, 2, 3, bits), MAX1363_SE4(4, 5, 6, 7, bits),		\
	MAX1363_DIFF2(0, 1, 2, 3, bits, 8), MAX1363_DIFF2(4, 5, 6, 7, bits, 10),	\
	MAX1363_DIFF2(1, 0, 3, 2, bits, 12), MAX1363_DIFF2(5, 4, 7, 6, bits, 14),	\
	MAX1363_CHAN_TIMESTAMP(16),						\
}

#define MAX1363_12X_CHANS(bits) {						\
	MAX1363_SE4(0, 1, 2, 3, bits), MAX1363_SE4(4, 5, 6, 7, bits),		\
	MAX1363_SE4(8, 9, 10, 11, bits),					\
	MAX1363_DIFF2(0, 1, 2, 3, bits, 12), MAX1363_DIFF2(4, 5, 6, 7, bits, 14),	\
	MAX1363_DIFF2(8, 9, 10, 11, bits, 16),					\
	MAX1363_DIFF2(1, 0, 3, 2, bits, 18), MAX1363_DIFF2(5, 4, 7, 6, bits, 20),	\
	MAX1363_DIFF2(9, 8, 11, 10, bits, 22),					\
	MAX1363_CHAN_TIMESTAMP(24),						\
}

static const struct iio_chan_spec max1363_chans_2x10[] = MAX1363_2X_CHANS(10);
static const struct iio_chan_spec max1363_chans_2x12[] = MAX1363_2X_CHANS(12);
static const struct iio_chan_spec max1363_chans_4x8[] = MAX1363_4X_CHANS(8);
static const struct iio_chan_spec max1363_chans_4x10[] = MAX1363_4X_CHANS(10);
static const struct iio_chan_spec max1363_chans_4x12[] = MAX1363_4X_CHANS(12);
static const struct iio_chan_spec max1363_chans_8x8[] = MAX1363_8X_CHANS(8);
static const struct iio_chan_spec max1363_chans_8x10[] = MAX1363_8X_CHANS(10);
static const struct iio_chan_spec max1363_chans_8x12[] = MAX1363_8X_CHANS(12);
static const struct iio_chan_spec max1363_chans_12x8[] = MAX1363_12X_CHANS(8);
static const struct iio_chan_spec max1363_chans_12x10[] = MAX1363_12X_CHANS(10);
static const struct iio_chan_spec max1363_chans_12x12[] = MAX1363_12X_CHANS(12);

/**
 * struct max1363_chip_info - one part.
 * @ninputs: analog inputs (the channel table has 2 x ninputs + 1 entries).
 * @int_vref_mv: the internal reference, used unless the board gives vref_mv.
 */
struct max1363_chip_info {
	const struct iio_chan_spec *channels;
	int num_channels;
	uint8_t ninputs;
	uint8_t bits;
	uint16_t int_vref_mv;
};

#define MAX1363_CHIP(_chans, _n, _bits, _vref) {				\
	.channels = _chans, .num_channels = (int)ARRAY_SIZE(_chans),		\
	.ninputs = _n, .bits = _bits, .int_vref_mv = _vref }

enum max1363_part {
	max1361, max1362, max1363, max1364,
	max1036, max1037, max1038, max1039,
	max1136, max1137, max1138, max1139,
	max1236, max1237, max1238, max1239,
	max11600, max11601, max11602, max11603, max11604, max11605,
	max11606, max11607, max11608, max11609, max11610, max11611,
	max11612, max11613, max11614, max11615, max11616, max11617,
	max11644, max11645, max11646, max11647,
	MAX1363_NPARTS
};

/* The reference table: adding a part is adding a row. */
static const struct max1363_chip_info max1363_chip_info_tbl[MAX1363_NPARTS] = {
	[max1361] = MAX1363_CHIP(max1363_chans_4x10, 4, 10, 2048),
	[max1362] = MAX1363_CHIP(max1363_chans_4x10, 4, 10, 4096),
	[max1363] = MAX1363_CHIP(max1363_chans_4x12, 4, 12, 2048),
	[max1364] = MAX1363_CHIP(max1363_chans_4x12, 4, 12, 4096),
	[max1036] = MAX1363_CHIP(max1363_chans_4x8, 4, 8, 4096),
	[max1037] = MAX1363_CHIP(max1363_chans_4x8, 4, 8, 2048),
	[max1038] = MAX1363_CHIP(max1363_chans_12x8, 12, 8, 4096),
	[max1039] = MAX1363_CHIP(max1363_chans_12x8, 12, 8, 2048),
	[max1136] = MAX1363_CHIP(max1363_chans_4x10, 4, 10, 4096),
	[max1137] = MAX1363_CHIP(max1363_chans_4x10, 4, 10, 2048),
	[max1138] = MAX1363_CHIP(max1363_chans_12x10, 12, 10, 4096),
	[max1139] = MAX1363_CHIP(max1363_chans_12x10, 12, 10, 2048),
	[max1236] = MAX1363_CHIP(max1363_chans_4x12, 4, 12, 4096),
	[max1237] = MAX1363_CHIP(max1363_chans_4x12, 4, 12, 2048),
	[max1238] = MAX1363_CHIP(max1363_chans_12x12, 12, 12, 4096),
	[max1239] = MAX1363_CHIP(max1363_chans_12x12, 12, 12, 2048),
	[max11600] = MAX1363_CHIP(max1363_chans_4x8, 4, 8, 4096),
	[max11601] = MAX1363_CHIP(max1363_chans_4x8, 4, 8, 2048),
	[max11602] = MAX1363_CHIP(max1363_chans_8x8, 8, 8, 4096),
	[max11603] = MAX1363_CHIP(max1363_chans_8x8, 8, 8, 2048),
	[max11604] = MAX1363_CHIP(max1363_chans_12x8, 12, 8, 4096),
	[max11605] = MAX1363_CHIP(max1363_chans_12x8, 12, 8, 2048),
	[max11606] = MAX1363_CHIP(max1363_chans_4x10, 4, 10, 4096),
	[max11607] = MAX1363_CHIP(max1363_chans_4x10, 4, 10, 2048),
	[max11608] = MAX1363_CHIP(max1363_chans_8x10, 8, 10, 4096),
	[max11609] = MAX1363_CHIP(max1363_chans_8x10, 8, 10, 2048),
	[max11610] = MAX1363_CHIP(max1363_chans_12x10, 12, 10, 4096),
	[max11611] = MAX1363_CHIP(max1363_chans_12x10, 12, 10, 2048),
	[max11612] = MAX1363_CHIP(max1363_chans_4x12, 4, 12, 4096),
	[max11613] = MAX1363_CHIP(max1363_chans_4x12, 4, 12, 2048),
	[max11614] = MAX1363_CHIP(max1363_chans_8x12, 8, 12, 4096),
	[max11615] = MAX1363_CHIP(max1363_chans_8x12, 8, 12, 2048),
	[max11616] = MAX1363_CHIP(max1363_chans_12x12, 12, 12, 4096),
	[max11617] = MAX1363_CHIP(max1363_chans_12x12, 12, 12, 2048),
	[max11644] = MAX1363_CHIP(max1363_chans_2x12, 2, 12, 4096),
	[max11645] = MAX1363_CHIP(max1363_chans_2x12, 2, 12, 2048),
	[max11646] = MAX1363_CHIP(max1363_chans_2x10, 2, 10, 4096),
	[max11647] = MAX1363_CHIP(max1363_chans_2x10, 2, 10, 2048),
};

/**
 * struct max1363_state - per device, in iio_priv(); guarded by the device lock.
 * @config: the configuration byte the chip holds, or MAX1363_CONF_UNKNOWN
 *	after a failed write (the chip may or may not have taken it).
 */
/* Scan modes of the largest part (12 inputs): 12 + 11 + 5 single-ended, 12 + 10 differential. */
#define MAX1363_MODES_MAX		56

/* One scan mode: the channels it converts (scan-index bits) and its configuration byte. */
struct max1363_mode {
	uint64_t mask;
	uint8_t conf;
};

struct max1363_state {
	const struct max1363_chip_info *ci;
	struct max1363_mode modes[MAX1363_MODES_MAX];
	uint64_t masks[MAX1363_MODES_MAX + 1];	/* available_scan_masks, 0-ended */
	int nmodes;
	int vref_mv;
	uint8_t setup;
	int config;
	bool smbus;	/* the adapter lacks plain I2C: SMBus byte transfers */
};

/*
 * The kernel's st->send/st->recv: plain I2C, or on an SMBus-only adapter one
 * SMBus byte transaction per byte (the 8-bit parts only need one to read,
 * and the chip tells setup from config by bit 7). Return: bytes or -errno.
 */
static int max1363_send(const struct max1363_state *st, struct bus_i2c_client *client,
			const uint8_t *buf, int len)
{
	int i, ret;

	if (!st->smbus)
		return bus_i2c_master_send(client, buf, len);
	for (i = 0; i < len; i++) {
		ret = bus_smbus_write_byte(client, buf[i]);
		if (ret < 0)
			return ret;
	}
	return len;
}

static int max1363_recv(const struct max1363_state *st, struct bus_i2c_client *client,
			uint8_t *buf, int len)
{
	int i, ret;

	if (!st->smbus)
		return bus_i2c_master_recv(client, buf, len);
	for (i = 0; i < len; i++) {
		ret = bus_smbus_read_byte(client);
		if (ret < 0)
			return ret;
		buf[i] = (uint8_t)ret;
	}
	return len;
}

/* Send [setup, config]; the cache is only trusted after the chip took both bytes. */
static int max1363_write_basic_config(struct max1363_state *st, struct bus_i2c_client *client,
				      uint8_t config)
{
	uint8_t tx[2] = { st->setup, config };
	int ret;

	st->config = MAX1363_CONF_UNKNOWN;
	ret = max1363_send(st, client, tx, 2);
	if (ret < 0)
		return ret;
	if (ret != 2)
		return -EIO;
	st->config = config;
	return 0;
}

/* One conversion: switch the mode only if the chip is not already in it, then read. */
static int max1363_read_single_chan(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				    int *val)
{
	struct max1363_state *st = iio_priv(indio_dev);
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	uint8_t rx[2];
	int len = st->ci->bits > 8 ? 2 : 1;
	int ret;

	if (!client)
		return -ENODEV;
	if (st->config != (int)chan->address) {
		ret = max1363_write_basic_config(st, client, (uint8_t)chan->address);
		if (ret < 0)
			return ret;
	}
	ret = max1363_recv(st, client, rx, len);
	if (ret < 0)
		return ret;
	if (ret != len)
		return -EIO;
	if (len == 2)	/* MSB first; the unused high bits come as 1s */
		*val = (int)(((rx[0] << 8) | rx[1]) & GENMASK(st->ci->bits - 1, 0));
	else
		*val = rx[0];
	return 0;
}

static int max1363_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int *val, int *val2, long mask)
{
	struct max1363_state *st = iio_priv(indio_dev);
	int ret;

	/* every channel, differential too, spans vref over 2^bits codes */
	if (mask == IIO_CHAN_INFO_SCALE)
		return iio_scale_log2(st->vref_mv, st->ci->bits, val, val2);
	if (mask != IIO_CHAN_INFO_RAW)
		return -EINVAL;
	if (iio_device_claim_direct(indio_dev))
		return -EBUSY;
	ret = max1363_read_single_chan(indio_dev, chan, val);
	return ret < 0 ? ret : IIO_VAL_INT;
}

/* ---- buffered capture ---- */

static void max1363_add_mode(struct max1363_state *st, uint64_t mask, uint8_t conf)
{
	if (st->nmodes < MAX1363_MODES_MAX)
		st->modes[st->nmodes++] = (struct max1363_mode){ mask, conf };
}

/* Scan index of the pair with positive input @p: even-positive pairs, then odd-positive. */
static int max1363_diff_index(int n, int p)
{
	return p % 2 ? n + n / 2 + p / 2 : n + p / 2;
}

/*
 * The part's mode list, as the kernel's max1363_mode_table rows for it:
 * every input once, the scans from AIN0 (and from the middle input where
 * the part has that scan), every pair once and the scans of pairs; then
 * ordered by size, so the first superset of a wish is the smallest mode
 * (the kernel's lists put subsets before supersets).
 */
static void max1363_build_modes(struct max1363_state *st, int mid)
{
	int n = st->ci->ninputs, i, j, k;
	uint64_t m;
	struct max1363_mode t;

	for (i = 0; i < n; i++)
		max1363_add_mode(st, BIT_ULL(i), MAX1363_CONF_SINGLE(i));
	for (i = 1; i < n; i++)
		max1363_add_mode(st, GENMASK_ULL(i, 0), MAX1363_CONF_SCAN_TO_CS |
				 MAX1363_CONF_CS(i) | MAX1363_CONF_SE);
	for (i = mid + 1; mid && i < n; i++)
		max1363_add_mode(st, GENMASK_ULL(i, mid), MAX1363_CONF_SCAN_MID_TO_CS |
				 MAX1363_CONF_CS(i) | MAX1363_CONF_SE);
	for (i = 0; i < n; i++)
		max1363_add_mode(st, BIT_ULL(max1363_diff_index(n, i)), MAX1363_CONF_DIFF(i));
	for (i = 2; i < n; i++) {
		for (m = 0, j = i % 2; j <= i; j += 2)
			m |= BIT_ULL(max1363_diff_index(n, j));
		max1363_add_mode(st, m, MAX1363_CONF_SCAN_TO_CS | MAX1363_CONF_CS(i));
	}
	for (i = 1; i < st->nmodes; i++) {	/* stable insertion sort by size */
		t = st->modes[i];
		for (k = i; k > 0 && __builtin_popcountll(st->modes[k - 1].mask) >
				      __builtin_popcountll(t.mask); k--)
			st->modes[k] = st->modes[k - 1];
		st->modes[k] = t;
	}
	for (i = 0; i < st->nmodes; i++)
		st->masks[i] = st->modes[i].mask;
	st->masks[st->nmodes] = 0;
}

static int max1363_update_scan_mode(struct iio_dev *indio_dev, uint64_t active)
{
	struct max1363_state *st = iio_priv(indio_dev);
	int i;

	for (i = 0; i < st->nmodes; i++)
		if (st->modes[i].mask == active)
			return max1363_write_basic_config(st, iio_device_i2c(indio_dev),
							  st->modes[i].conf);
	return -EINVAL;
}

/* max1363_trigger_handler: one read of the whole scan, MSB first, as the chip sends it. */
static int max1363_trigger_handler(struct iio_dev *indio_dev, int64_t ts)
{
	struct max1363_state *st = iio_priv(indio_dev);
	uint8_t data[IIO_SCAN_BYTES_MAX] = { 0 };
	int len = __builtin_popcountll(iio_buffer_active_mask(indio_dev)) *
		  (st->ci->bits > 8 ? 2 : 1);
	int ret;

	ret = max1363_recv(st, iio_device_i2c(indio_dev), data, len);
	if (ret < 0)
		return ret;
	if (ret != len)
		return -EIO;
	iio_push_to_buffers_with_timestamp(indio_dev, data, ts);
	return 0;
}

static const struct iio_buffer_setup max1363_buffer_setup = {
	.handler = max1363_trigger_handler,
	.update_scan_mode = max1363_update_scan_mode,
};

static const struct iio_info max1363_info = {
	.read_raw = max1363_read_raw,
};

static const struct iio_device_id max1363_id[] = {
	{ "max1361", max1361 }, { "max1362", max1362 },
	{ "max1363", max1363 }, { "max1364", max1364 },
	{ "max1036", max1036 }, { "max1037", max1037 },
	{ "max1038", max1038 }, { "max1039", max1039 },
	{ "max1136", max1136 }, { "max1137", max1137 },
	{ "max1138", max1138 }, { "max1139", max1139 },
	{ "max1236", max1236 }, { "max1237", max1237 },
	{ "max1238", max1238 }, { "max1239", max1239 },
	{ "max11600", max11600 }, { "max11601", max11601 },
	{ "max11602", max11602 }, { "max11603", max11603 },
	{ "max11604", max11604 }, { "max11605", max11605 },
	{ "max11606", max11606 }, { "max11607", max11607 },
	{ "max11608", max11608 }, { "max11609", max11609 },
	{ "max11610", max11610 }, { "max11611", max11611 },
	{ "max11612", max11612 }, { "max11613", max11613 },
	{ "max11614", max11614 }, { "max11615", max11615 },
	{ "max11616", max11616 }, { "max11617", max11617 },
	{ "max11644", max11644 }, { "max11645", max11645 },
	{ "max11646", max11646 }, { "max11647", max11647 },
	{ NULL, 0 }
};

/*
 * Probe: pick the reference (the board's vref_mv means an external one on the
 * REF pin), then write the setup byte with the power-on scan as the kernel
 * does. That first transfer is also the presence check: the chip has no ID
 * register, so an answer at the address is all there is to check.
 */
static int max1363_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			 size_t errlen)
{
	const struct max1363_chip_info *ci;
	struct max1363_state *st;
	struct iio_dev *indio_dev;
	int vref_mv = 0, part, ret;

	part = iio_probe_adc(p, MAX1363_NPARTS, "MAX1363-family", &vref_mv, err, errlen);
	if (part < 0)
		return part;
	ci = &max1363_chip_info_tbl[part];

	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	st->ci = ci;
	st->config = MAX1363_CONF_UNKNOWN;
	if (vref_mv > 0) {
		st->vref_mv = vref_mv;
		st->setup = MAX1363_SETUP_BYTE | MAX1363_SETUP_REF_EXT | MAX1363_SETUP_NORESET;
	} else {
		st->vref_mv = ci->int_vref_mv;
		st->setup = MAX1363_SETUP_BYTE | MAX1363_SETUP_REF_INT |
			    MAX1363_SETUP_INT_REF_ON | MAX1363_SETUP_NORESET;
	}

	/* as the kernel: plain I2C if the adapter has it, else SMBus bytes for 8 bits */
	st->smbus = !bus_i2c_check_functionality(p->i2c, BUS_I2C_FUNC_I2C);
	if (st->smbus && (ci->bits != 8 ||
			  !bus_i2c_check_functionality(p->i2c, BUS_I2C_FUNC_SMBUS_BYTE))) {
		iio_device_put(indio_dev);
		return iio_probe_err(p, err, errlen, -EOPNOTSUPP,
				     "no plain I2C on the adapter (SMBus bytes: 8-bit parts only)");
	}
	ret = max1363_write_basic_config(st, p->i2c, MAX1363_CONF_SCAN_ALL(ci->ninputs));
	if (ret < 0) {
		iio_device_put(indio_dev);
		return iio_probe_err(p, err, errlen, ret, "no answer");
	}
	/* the id name is static, as the device's name must be */
	iio_device_setup(indio_dev, p->id->name, ci->channels, ci->num_channels, &max1363_info);
	/* max1361-4 use the mid scan code for monitor mode; 2-input parts have none */
	max1363_build_modes(st, part >= max1036 && ci->ninputs > 2 ? (ci->ninputs == 4 ? 2 : 6) : 0);
	if (iio_triggered_buffer_setup(indio_dev, &max1363_buffer_setup, st->masks)) {
		iio_device_put(indio_dev);
		return -ENOMEM;
	}
	*out = indio_dev;
	return 0;
}

static const struct iio_driver max1363_driver = {
	.name = "max1363",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = max1363_id,
	.probe = max1363_probe,
};

IIO_DRIVER_REGISTER(max1363_driver);
