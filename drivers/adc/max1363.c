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

#include "iio_event.h"
#include "iio_irq.h"
#include "iio_kit.h"
#include "iio_buffer.h"
#include "iio_value.h"
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

/* monitor mode (max1361-1364) */
#define MAX1363_MON_CHANNELS		4
#define MAX1363_SETUP_MONITOR_SETUP	0x01	/* the next byte is the monitor setup byte */
#define MAX1363_CONF_SCAN_MASK		0x60
#define MAX1363_CONF_SCAN_MONITOR	0x40
#define MAX1363_CONF_CS_MASK		0x1e
/* monitor setup byte: interrupt on, delay in bits 3:1, reset all four alarms */
#define MAX1363_MON_INT_ENABLE		0x01
#define MAX1363_MON_RESET_ALARMS	0xf0
/* the kernel's mode s0to3: monitor AIN0..AIN3 single-ended */
#define MAX1363_CONF_MONITOR_S0TO3	\
	(MAX1363_CONF_SCAN_MONITOR | MAX1363_CONF_CS(3) | MAX1363_CONF_SE)
/* config, setup, monitor setup, then 3 threshold bytes per channel */
#define MAX1363_MON_TX_BYTES		(3 + 3 * MAX1363_MON_CHANNELS)

/* no configuration byte has bit 7 set, so this never matches a channel */
#define MAX1363_CONF_UNKNOWN		(-1)

/* max1361-1364 monitor mode: a rising and a falling threshold per channel */
static const struct iio_event_spec max1363_events[] = {
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_RISING),
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_FALLING),
};

/* A channel's events (@ev 1: the table above, for the parts that monitor; 0: none). */
#define MAX1363_EV(ev)								\
	.event_spec = (ev) ? max1363_events : NULL,				\
	.num_event_specs = (ev) ? ARRAY_SIZE(max1363_events) : 0

#define MAX1363_CHAN_SE(num, bits, si, ev) {					\
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
	MAX1363_EV(ev),								\
}

/* Differential: the chip is run unipolar, but the scan type says 's' as the kernel's does. */
#define MAX1363_CHAN_DIFF(num, num2, bits, si, ev) {				\
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
	MAX1363_EV(ev),								\
}

/* The kernel's soft timestamp: no attributes of its own, it brings current_timestamp_clock. */
#define MAX1363_CHAN_TIMESTAMP(si) {						\
	.type = IIO_TIMESTAMP,							\
	.channel = -1,								\
	.scan_index = (si),							\
	.scan_type = { .sign = 's', .realbits = 64, .storagebits = 64 },	\
}

/* Four single-ended inputs (literal numbers: they make the datasheet names). */
#define MAX1363_SE4(a, b, c, d, bits, ev)					\
	MAX1363_CHAN_SE(a, bits, a, ev), MAX1363_CHAN_SE(b, bits, b, ev),	\
	MAX1363_CHAN_SE(c, bits, c, ev), MAX1363_CHAN_SE(d, bits, d, ev)

/* Two differential pairs at scan indices @si and @si + 1. */
#define MAX1363_DIFF2(p0, n0, p1, n1, bits, si, ev)				\
	MAX1363_CHAN_DIFF(p0, n0, bits, si, ev), MAX1363_CHAN_DIFF(p1, n1, bits, (si) + 1, ev)

/* Scan indices as the kernel's: inputs, then pairs (even, odd), then (odd, even). */
#define MAX1363_2X_CHANS(bits) {						\
	MAX1363_CHAN_SE(0, bits, 0, 0), MAX1363_CHAN_SE(1, bits, 1, 0),	\
	MAX1363_CHAN_DIFF(0, 1, bits, 2, 0), MAX1363_CHAN_DIFF(1, 0, bits, 3, 0), \
	MAX1363_CHAN_TIMESTAMP(4),						\
}

#define MAX1363_4X_CHANS(bits, ev) {						\
	MAX1363_SE4(0, 1, 2, 3, bits, ev),					\
	MAX1363_DIFF2(0, 1, 2, 3, bits, 4, ev), MAX1363_DIFF2(1, 0, 3, 2, bits, 6, ev), \
	MAX1363_CHAN_TIMESTAMP(8),						\
}

#define MAX1363_8X_CHANS(bits) {						\
	MAX1363_SE4(0, 1, 2, 3, bits, 0), MAX1363_SE4(4, 5, 6, 7, bits, 0), \
	MAX1363_DIFF2(0, 1, 2, 3, bits, 8, 0), MAX1363_DIFF2(4, 5, 6, 7, bits, 10, 0), \
	MAX1363_DIFF2(1, 0, 3, 2, bits, 12, 0), MAX1363_DIFF2(5, 4, 7, 6, bits, 14, 0), \
	MAX1363_CHAN_TIMESTAMP(16),						\
}

#define MAX1363_12X_CHANS(bits) {						\
	MAX1363_SE4(0, 1, 2, 3, bits, 0), MAX1363_SE4(4, 5, 6, 7, bits, 0), \
	MAX1363_SE4(8, 9, 10, 11, bits, 0),					\
	MAX1363_DIFF2(0, 1, 2, 3, bits, 12, 0), MAX1363_DIFF2(4, 5, 6, 7, bits, 14, 0), \
	MAX1363_DIFF2(8, 9, 10, 11, bits, 16, 0),				\
	MAX1363_DIFF2(1, 0, 3, 2, bits, 18, 0), MAX1363_DIFF2(5, 4, 7, 6, bits, 20, 0), \
	MAX1363_DIFF2(9, 8, 11, 10, bits, 22, 0),				\
	MAX1363_CHAN_TIMESTAMP(24),						\
}

static const struct iio_chan_spec max1363_chans_2x10[] = MAX1363_2X_CHANS(10);
static const struct iio_chan_spec max1363_chans_2x12[] = MAX1363_2X_CHANS(12);
static const struct iio_chan_spec max1363_chans_4x8[] = MAX1363_4X_CHANS(8, 0);
static const struct iio_chan_spec max1363_chans_4x10[] = MAX1363_4X_CHANS(10, 0);
static const struct iio_chan_spec max1363_chans_4x12[] = MAX1363_4X_CHANS(12, 0);
/* the kernel's max1361_channels and max1363_channels: with thresholds */
static const struct iio_chan_spec max1363_chans_4x10_ev[] = MAX1363_4X_CHANS(10, 1);
static const struct iio_chan_spec max1363_chans_4x12_ev[] = MAX1363_4X_CHANS(12, 1);
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
 * @monitor: max1361-1364: monitor mode, the event callbacks (max1363_info);
 *	the others get max1238_info, without them, as in the kernel.
 */
struct max1363_chip_info {
	const struct iio_chan_spec *channels;
	int num_channels;
	uint8_t ninputs;
	uint8_t bits;
	uint16_t int_vref_mv;
	bool monitor;
};

#define MAX1363_CHIP(_chans, _n, _bits, _vref) {				\
	.channels = _chans, .num_channels = (int)ARRAY_SIZE(_chans),		\
	.ninputs = _n, .bits = _bits, .int_vref_mv = _vref }
#define MAX1363_CHIP_MON(_chans, _n, _bits, _vref) {				\
	.channels = _chans, .num_channels = (int)ARRAY_SIZE(_chans),		\
	.ninputs = _n, .bits = _bits, .int_vref_mv = _vref, .monitor = true }

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
	[max1361] = MAX1363_CHIP_MON(max1363_chans_4x10_ev, 4, 10, 2048),
	[max1362] = MAX1363_CHIP_MON(max1363_chans_4x10_ev, 4, 10, 4096),
	[max1363] = MAX1363_CHIP_MON(max1363_chans_4x12_ev, 4, 12, 2048),
	[max1364] = MAX1363_CHIP_MON(max1363_chans_4x12_ev, 4, 12, 4096),
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
	/* the kernel gives these max1363_channels, event specs and all, but no callbacks: K-44 */
	[max11612] = MAX1363_CHIP(max1363_chans_4x12_ev, 4, 12, 4096),
	[max11613] = MAX1363_CHIP(max1363_chans_4x12_ev, 4, 12, 2048),
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
 * @mask_low/@mask_high: falling/rising events enabled, bit n for channel n
 *	(the positive input: voltage1 and voltage1-voltage0 share them).
 * @thresh_low/@thresh_high: the values, cached until the next enable change.
 * @monitor_on: the chip is in monitor mode: raw reads are EBUSY.
 * @monitor_speed: index into max1363_monitor_speeds.
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
	uint8_t mask_low;
	uint8_t mask_high;
	int16_t thresh_low[MAX1363_MON_CHANNELS];
	int16_t thresh_high[MAX1363_MON_CHANNELS];
	bool monitor_on;
	uint8_t monitor_speed;
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
	/* the conversions belong to the monitor while it runs, as the kernel's monitor_on */
	if (st->monitor_on || iio_device_claim_direct(indio_dev))
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

/* ---- monitor mode: thresholds, enables and the alert (max1361-1364) ---- */

/* events/sampling_frequency: conversions per second of the monitor, by speed index */
static const int max1363_monitor_speeds[] = { 133000, 665000, 33300, 16600, 8300, 4200, 2000,
					      1000 };

/* The status byte's bits: FALLING channels 0-3, then RISING channels 0-3. */
static const uint64_t max1363_event_codes[] = {
	IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 0, IIO_EV_TYPE_THRESH, IIO_EV_DIR_FALLING),
	IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 1, IIO_EV_TYPE_THRESH, IIO_EV_DIR_FALLING),
	IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 2, IIO_EV_TYPE_THRESH, IIO_EV_DIR_FALLING),
	IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 3, IIO_EV_TYPE_THRESH, IIO_EV_DIR_FALLING),
	IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 0, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING),
	IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 1, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING),
	IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 2, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING),
	IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 3, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING),
};

static int max1363_read_event_config(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				     enum iio_event_type type, enum iio_event_direction dir)
{
	struct max1363_state *st = iio_priv(indio_dev);

	(void)type;
	/* the bit itself, not 0/1: enabled channel 2 reads 4, as the kernel's */
	return (1 << chan->channel) & (dir == IIO_EV_DIR_FALLING ? st->mask_low : st->mask_high);
}

/*
 * Thresholds are 12-bit fields whatever the part's resolution; a disabled
 * direction gets the bound that never trips (low 0x000, high 0xFFF).
 */
static void max1363_monitor_thresholds(const struct max1363_state *st, uint8_t *tx)
{
	int i, lo, hi;

	for (i = 0; i < MAX1363_MON_CHANNELS; i++, tx += 3) {
		lo = st->mask_low & (1 << i) ? st->thresh_low[i] & 0xfff : 0x000;
		hi = st->mask_high & (1 << i) ? st->thresh_high[i] & 0xfff : 0xfff;
		tx[0] = (uint8_t)(lo >> 4);
		tx[1] = (uint8_t)(((lo & 0x0f) << 4) | (hi >> 8));
		tx[2] = (uint8_t)(hi & 0xff);
	}
}

/* max1363_monitor_mode_update(): into monitor mode with the cached values, or out of it. */
static int max1363_monitor_mode_update(struct iio_dev *indio_dev, bool enabled)
{
	struct max1363_state *st = iio_priv(indio_dev);
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	uint8_t tx[MAX1363_MON_TX_BYTES], config;
	int ret;

	if (!client)
		return -ENODEV;
	if (!enabled) {
		st->setup &= (uint8_t)~MAX1363_SETUP_MONITOR_SETUP;
		st->monitor_on = false;
		config = st->config >= 0 ? (uint8_t)st->config : MAX1363_CONF_MONITOR_S0TO3;
		return max1363_write_basic_config(st, client, config & ~MAX1363_CONF_SCAN_MASK);
	}
	st->setup |= MAX1363_SETUP_MONITOR_SETUP;
	st->config = MAX1363_CONF_UNKNOWN;
	tx[0] = MAX1363_CONF_MONITOR_S0TO3;
	tx[1] = st->setup;
	tx[2] = (uint8_t)(st->monitor_speed << 1);
	max1363_monitor_thresholds(st, &tx[3]);
	ret = max1363_send(st, client, tx, MAX1363_MON_TX_BYTES);
	if (ret >= 0 && ret != MAX1363_MON_TX_BYTES)
		ret = -EIO;
	if (ret < 0)
		return ret;
	/* then the interrupt, once the thresholds are in (as the kernel does) */
	tx[0] = st->setup;
	tx[1] = MAX1363_MON_INT_ENABLE | (uint8_t)(st->monitor_speed << 1) | MAX1363_MON_RESET_ALARMS;
	ret = max1363_send(st, client, tx, 2);
	if (ret >= 0 && ret != 2)
		ret = -EIO;
	st->monitor_on = ret >= 0;
	return ret < 0 ? ret : 0;
}

/*
 * __max1363_check_event_mask() as the kernel calls it, with 1 << channel
 * where it expects the channel: channels 0 and 1 always pass, 2 and 3 fail
 * with EBUSY while any event (any channel or direction) is on.
 */
static int max1363_check_event_mask(int thismask, int checkmask)
{
	if (thismask < 4)
		return checkmask & ~0x0f ? -EBUSY : 0;
	if (thismask < 6)
		return checkmask & ~0x30 ? -EBUSY : 0;
	return checkmask & ~0xc0 ? -EBUSY : 0;
}

static int max1363_write_event_config(struct iio_dev *indio_dev,
				      const struct iio_chan_spec *chan, enum iio_event_type type,
				      enum iio_event_direction dir, int state)
{
	struct max1363_state *st = iio_priv(indio_dev);
	uint8_t *mask = dir == IIO_EV_DIR_FALLING ? &st->mask_low : &st->mask_high;
	int bit = 1 << chan->channel, ret = 0, upd;

	(void)type;
	/* iio_device_claim_direct_mode(): not while the buffer runs */
	if (iio_device_claim_direct(indio_dev))
		return -EBUSY;
	if (!state)
		*mask &= (uint8_t)~bit;
	else if (!(ret = max1363_check_event_mask(bit, st->mask_low | st->mask_high)))
		*mask |= (uint8_t)bit;
	/* the mode follows the masks after every write, a refused one too */
	upd = max1363_monitor_mode_update(indio_dev, (st->mask_low | st->mask_high) != 0);
	return ret ? ret : upd;
}

static int max1363_read_event_value(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				    enum iio_event_type type, enum iio_event_direction dir,
				    enum iio_event_info info, int *val, int *val2)
{
	struct max1363_state *st = iio_priv(indio_dev);

	(void)type;
	(void)info;
	(void)val2;
	*val = dir == IIO_EV_DIR_FALLING ? st->thresh_low[chan->channel] :
					   st->thresh_high[chan->channel];
	return IIO_VAL_INT;
}

/* Negative values are taken and kept, as the kernel's; they reach the chip at the next enable. */
static int max1363_write_event_value(struct iio_dev *indio_dev,
				     const struct iio_chan_spec *chan, enum iio_event_type type,
				     enum iio_event_direction dir, enum iio_event_info info,
				     int val, int val2)
{
	struct max1363_state *st = iio_priv(indio_dev);

	(void)type;
	(void)info;
	(void)val2;
	if (val > (int)GENMASK(st->ci->bits - 1, 0) || val < INT16_MIN)
		return -EINVAL;
	if (dir == IIO_EV_DIR_FALLING)
		st->thresh_low[chan->channel] = (int16_t)val;
	else
		st->thresh_high[chan->channel] = (int16_t)val;
	return 0;
}

/* The alert: read the status byte, push one event per set bit, reset the alarms. */
static void max1363_event_handler(struct iio_dev *indio_dev, int64_t timestamp)
{
	struct max1363_state *st = iio_priv(indio_dev);
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	uint8_t rx, tx[2] = { st->setup, MAX1363_MON_INT_ENABLE |
			      (uint8_t)(st->monitor_speed << 1) | MAX1363_MON_RESET_ALARMS };
	unsigned int i;

	if (!client || max1363_recv(st, client, &rx, 1) != 1)
		return;
	for (i = 0; i < ARRAY_SIZE(max1363_event_codes); i++)
		if (rx & (1u << i))
			iio_push_event(indio_dev, max1363_event_codes[i], timestamp);
	max1363_send(st, client, tx, 2);
}

static int max1363_monitor_speed_read(struct iio_dev *indio_dev, uintptr_t priv, char *buf,
				      size_t len)
{
	const struct max1363_state *st = iio_priv(indio_dev);
	int vals[2] = { max1363_monitor_speeds[st->monitor_speed], 0 };

	(void)priv;
	return iio_format_value(buf, len, IIO_VAL_INT, 2, vals);
}

/* kstrtoul, then a value of the table; it reaches the chip at the next enable change */
static int max1363_monitor_speed_write(struct iio_dev *indio_dev, uintptr_t priv,
				       const char *buf, size_t len)
{
	struct max1363_state *st = iio_priv(indio_dev);
	unsigned long v;
	size_t i;
	int ret;

	(void)priv;
	(void)len;
	ret = iio_kstrtoul10(buf, &v);
	if (ret < 0)
		return ret;
	for (i = 0; i < ARRAY_SIZE(max1363_monitor_speeds); i++) {
		if ((unsigned long)max1363_monitor_speeds[i] == v) {
			st->monitor_speed = (uint8_t)i;
			return 0;
		}
	}
	return -EINVAL;
}

static int max1363_monitor_speed_avail(struct iio_dev *indio_dev, uintptr_t priv, char *buf,
				       size_t len)
{
	(void)indio_dev;
	(void)priv;
	return iio_format_avail(buf, len, IIO_AVAIL_LIST, IIO_VAL_INT, max1363_monitor_speeds,
				(int)ARRAY_SIZE(max1363_monitor_speeds));
}

static const struct iio_dev_attr max1363_event_attrs[] = {
	{ .name = "sampling_frequency", .read = max1363_monitor_speed_read,
	  .write = max1363_monitor_speed_write },
	{ .name = "sampling_frequency_available", .read = max1363_monitor_speed_avail },
	{ NULL, NULL, NULL, 0 },
};

static const struct iio_info max1363_info = {
	.read_raw = max1363_read_raw,
	.read_event_config = max1363_read_event_config,
	.write_event_config = max1363_write_event_config,
	.read_event_value = max1363_read_event_value,
	.write_event_value = max1363_write_event_value,
	.event_attrs = max1363_event_attrs,
};

/* the parts without monitor mode */
static const struct iio_info max1238_info = {
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
	iio_device_setup(indio_dev, p->id->name, ci->channels, ci->num_channels,
			 ci->monitor ? &max1363_info : &max1238_info);
	/* max1361-4 use the mid scan code for monitor mode; 2-input parts have none */
	max1363_build_modes(st, part >= max1036 && ci->ninputs > 2 ? (ci->ninputs == 4 ? 2 : 6) : 0);
	if (iio_triggered_buffer_setup(indio_dev, &max1363_buffer_setup, st->masks)) {
		iio_device_put(indio_dev);
		return -ENOMEM;
	}
	/* without an interrupt the monitor's files still work; no event is delivered */
	ret = ci->monitor ? iio_request_threaded_irq(indio_dev, p, IIO_IRQ_RISING,
						     max1363_event_handler, err, errlen) : -ENOENT;
	if (ret < 0 && ret != -ENOENT) {
		iio_device_put(indio_dev);
		return ret;
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
