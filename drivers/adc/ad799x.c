/*
 * ad799x.c - driver for the AD799x I2C ADCs: ad7991, ad7995, ad7999 (4 inputs,
 * 12/10/8 bits, no register pointer), ad7992 (2 inputs), ad7993, ad7994
 * (4 inputs) and ad7997, ad7998 (8 inputs), 10 or 12 bits.
 *
 * Each read of in_voltageN_raw is one SMBus read-word (byte-swapped) whose
 * command byte starts the conversion of input N in the part's own format;
 * the result comes back left-aligned to bit 11 and is shifted down. The
 * channel table and attribute set follow the kernel driver
 * (drivers/iio/adc/ad799x.c): in_voltageN_raw, in_voltage_scale, a soft
 * timestamp channel, no datasheet names. The reference is the board's
 * vref_mv (an external reference on the ad7991/5/9, the supply on the others),
 * else AD799X_DEFAULT_VDD_MV.
 *
 * With an interrupt line in the board ("irq"), the ad7992/3/4/7/8 take the
 * kernel's irq configuration: channels 0-3 carry threshold events (the
 * chip's DATA_LOW / DATA_HIGH / HYSTERESIS registers, read and written on
 * the chip), the ALERT pin's handler reads and clears the alert status and
 * pushes one event per bit, and events/sampling_frequency is the cycle
 * timer. Without one, no events/ files, as the kernel's noirq table.
 * Place in the flow: bus -> *driver* -> core. Must not format text, log,
 * or include protocol or server headers.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_buffer.h"
#include "iio_event.h"
#include "iio_irq.h"
#include "abi/iio_value.h"
#include "bus/bus.h"

/*
 * The kernel takes the reference from a "vcc" regulator, which every board
 * has. A board file may not say: we then assume the 3.3 V supply these parts
 * most often run on (all of them accept 2.7 V to 5.5 V); give vref_mv when the
 * board differs, or the scale is wrong by that ratio. Deviation K-8
 * (maps/README.md).
 */
#define AD799X_DEFAULT_VDD_MV		3300

#define AD799X_CHANNEL_SHIFT		4	/* channel bits sit above the flag nibble */

/* ad7991/5/9 configuration: what the chip keeps besides the channel bits */
#define AD7991_REF_SEL			0x08	/* Vin3 is the external reference input */

/* ad7992/3/4/7/8 register pointers */
#define AD7998_CONV_RES_REG		0x0
#define AD7998_ALERT_STAT_REG		0x1
#define AD7998_CONF_REG			0x2
#define AD7998_CYCLE_TMR_REG		0x3
#define AD7998_DATALOW_REG(x)		((x) * 3 + 0x4)
#define AD7998_DATAHIGH_REG(x)		((x) * 3 + 0x5)
#define AD7998_HYST_REG(x)		((x) * 3 + 0x6)

/* ad7992/3/4/7/8 configuration flags below the channel bits */
#define AD7998_ALERT_EN			0x04
#define AD7998_BUSY_ALERT		0x02
#define AD7998_CYC_MASK			0x07
#define AD7998_ALERT_STAT_CLEAR		0xff

/* ad7997/8 command: bit 7 with the channel number in bits 6:4 converts that channel */
#define AD7997_8_READ_SINGLE		0x80
#define AD7997_8_READ_SEQUENCE		0x70

#define AD799X_TIMESTAMP(si) {							\
	.type = IIO_TIMESTAMP,							\
	.channel = -1,								\
	.scan_index = (si),							\
	.scan_type = { .sign = 's', .realbits = 64, .storagebits = 64 },	\
}

/*
 * The events of a channel with limit registers (irq configuration only):
 * rising and falling thresholds with their enables, and one hysteresis.
 */
static const struct iio_event_spec ad799x_events[] = {
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_RISING),
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_FALLING),
	{
		.type = IIO_EV_TYPE_THRESH,
		.dir = IIO_EV_DIR_EITHER,
		.mask_separate = BIT(IIO_EV_INFO_HYSTERESIS),
	},
};

/* The result is left-aligned to bit 11: shift = 12 - bits, as the scan type records. */
#define AD799X_CHANNEL_EV(idx, bits, evs, nevs) {				\
	.type = IIO_VOLTAGE,							\
	.indexed = 1,								\
	.channel = (idx),							\
	.scan_index = (idx),							\
	.scan_type = { .sign = 'u', .realbits = (bits), .storagebits = 16,	\
		       .shift = 12 - (bits), .endianness = IIO_BE },		\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
	.event_spec = (evs),							\
	.num_event_specs = (nevs),						\
}
#define AD799X_CHANNEL(idx, bits)	AD799X_CHANNEL_EV(idx, bits, NULL, 0)
#define AD799X_CHANNEL_WITH_EVENTS(idx, bits)					\
	AD799X_CHANNEL_EV(idx, bits, ad799x_events, ARRAY_SIZE(ad799x_events))

#define AD799X_2X_CHANS(bits) {							\
	AD799X_CHANNEL(0, bits), AD799X_CHANNEL(1, bits), AD799X_TIMESTAMP(3),	\
}
#define AD799X_4X_CHANS(bits) {							\
	AD799X_CHANNEL(0, bits), AD799X_CHANNEL(1, bits),			\
	AD799X_CHANNEL(2, bits), AD799X_CHANNEL(3, bits), AD799X_TIMESTAMP(4),	\
}
#define AD799X_8X_CHANS(bits) {							\
	AD799X_CHANNEL(0, bits), AD799X_CHANNEL(1, bits),			\
	AD799X_CHANNEL(2, bits), AD799X_CHANNEL(3, bits),			\
	AD799X_CHANNEL(4, bits), AD799X_CHANNEL(5, bits),			\
	AD799X_CHANNEL(6, bits), AD799X_CHANNEL(7, bits), AD799X_TIMESTAMP(8),	\
}

/* the irq configuration: events on the channels with limit registers (0-3) */
#define AD799X_2X_EV_CHANS(bits) {						\
	AD799X_CHANNEL_WITH_EVENTS(0, bits), AD799X_CHANNEL_WITH_EVENTS(1, bits),	\
	AD799X_TIMESTAMP(3),							\
}
#define AD799X_4X_EV_CHANS(bits) {						\
	AD799X_CHANNEL_WITH_EVENTS(0, bits), AD799X_CHANNEL_WITH_EVENTS(1, bits),	\
	AD799X_CHANNEL_WITH_EVENTS(2, bits), AD799X_CHANNEL_WITH_EVENTS(3, bits),	\
	AD799X_TIMESTAMP(4),							\
}
#define AD799X_8X_EV_CHANS(bits) {						\
	AD799X_CHANNEL_WITH_EVENTS(0, bits), AD799X_CHANNEL_WITH_EVENTS(1, bits),	\
	AD799X_CHANNEL_WITH_EVENTS(2, bits), AD799X_CHANNEL_WITH_EVENTS(3, bits),	\
	AD799X_CHANNEL(4, bits), AD799X_CHANNEL(5, bits),			\
	AD799X_CHANNEL(6, bits), AD799X_CHANNEL(7, bits), AD799X_TIMESTAMP(8),	\
}

static const struct iio_chan_spec ad799x_chans_2x12[] = AD799X_2X_CHANS(12);
static const struct iio_chan_spec ad799x_chans_4x8[] = AD799X_4X_CHANS(8);
static const struct iio_chan_spec ad799x_chans_4x10[] = AD799X_4X_CHANS(10);
static const struct iio_chan_spec ad799x_chans_4x12[] = AD799X_4X_CHANS(12);
static const struct iio_chan_spec ad799x_chans_8x10[] = AD799X_8X_CHANS(10);
static const struct iio_chan_spec ad799x_chans_8x12[] = AD799X_8X_CHANS(12);
static const struct iio_chan_spec ad799x_ev_chans_2x12[] = AD799X_2X_EV_CHANS(12);
static const struct iio_chan_spec ad799x_ev_chans_4x10[] = AD799X_4X_EV_CHANS(10);
static const struct iio_chan_spec ad799x_ev_chans_4x12[] = AD799X_4X_EV_CHANS(12);
static const struct iio_chan_spec ad799x_ev_chans_8x10[] = AD799X_8X_EV_CHANS(10);
static const struct iio_chan_spec ad799x_ev_chans_8x12[] = AD799X_8X_EV_CHANS(12);

/* How the part is talked to: the conversion command and the configuration register. */
enum ad799x_iface {
	AD799X_IFACE_AD7991,	/* no pointer: the command byte is the configuration */
	AD799X_IFACE_AD7992,	/* pointer; channel bits 7:4 convert; 8-bit configuration */
	AD799X_IFACE_AD7997,	/* pointer; 1xxx converts channel xxx; 16-bit configuration */
};

/**
 * struct ad799x_chip_info - one part.
 * @default_config: what probe writes without an interrupt (the kernel's
 *	noirq default: all off).
 * @irq_channels: the table with events, used when the board gives an
 *	interrupt line (NULL: the part has no alert, as the ad7991/5/9); the
 *	same number of channels. Probe then writes AD799X_IRQ_CONFIG.
 */
struct ad799x_chip_info {
	const struct iio_chan_spec *channels;
	const struct iio_chan_spec *irq_channels;
	int num_channels;
	uint8_t bits;
	enum ad799x_iface iface;
	uint16_t default_config;
};

/* the kernel's irq_config default: the pin as the ALERT output, reset */
#define AD799X_IRQ_CONFIG		(AD7998_ALERT_EN | AD7998_BUSY_ALERT)

#define AD799X_CHIP(_chans, _bits, _iface)	AD799X_ALERT_CHIP(_chans, NULL, _bits, _iface)
#define AD799X_ALERT_CHIP(_chans, _evchans, _bits, _iface) {			\
	.channels = _chans, .irq_channels = _evchans,				\
	.num_channels = (int)ARRAY_SIZE(_chans), .bits = _bits, .iface = _iface,	\
	.default_config = 0 }

enum ad799x_part {
	ad7991, ad7995, ad7999, ad7992, ad7993, ad7994, ad7997, ad7998,
	AD799X_NPARTS
};

static const struct ad799x_chip_info ad799x_chip_info_tbl[AD799X_NPARTS] = {
	[ad7991] = AD799X_CHIP(ad799x_chans_4x12, 12, AD799X_IFACE_AD7991),
	[ad7995] = AD799X_CHIP(ad799x_chans_4x10, 10, AD799X_IFACE_AD7991),
	[ad7999] = AD799X_CHIP(ad799x_chans_4x8, 8, AD799X_IFACE_AD7991),
	[ad7992] = AD799X_ALERT_CHIP(ad799x_chans_2x12, ad799x_ev_chans_2x12, 12,
				     AD799X_IFACE_AD7992),
	[ad7993] = AD799X_ALERT_CHIP(ad799x_chans_4x10, ad799x_ev_chans_4x10, 10,
				     AD799X_IFACE_AD7992),
	[ad7994] = AD799X_ALERT_CHIP(ad799x_chans_4x12, ad799x_ev_chans_4x12, 12,
				     AD799X_IFACE_AD7992),
	[ad7997] = AD799X_ALERT_CHIP(ad799x_chans_8x10, ad799x_ev_chans_8x10, 10,
				     AD799X_IFACE_AD7997),
	[ad7998] = AD799X_ALERT_CHIP(ad799x_chans_8x12, ad799x_ev_chans_8x12, 12,
				     AD799X_IFACE_AD7997),
};

/**
 * struct ad799x_state - per device, in iio_priv(); guarded by the device lock.
 * @config: the configuration as the chip holds it (read back where it can be).
 * @vref_mv: the reference the scale reports.
 */
struct ad799x_state {
	const struct ad799x_chip_info *ci;
	uint16_t config;
	int vref_mv;
	uint64_t scan_mask;	/* the kernel's active_scan_mask: channels and timestamp */
	uint8_t transfer_size;	/* bytes of a trigger's block read, 2 per bit of scan_mask */
};

/* The command byte that converts input @ch and points at its result. */
static uint8_t ad799x_conv_cmd(const struct ad799x_state *st, unsigned int ch)
{
	switch (st->ci->iface) {
	case AD799X_IFACE_AD7991:
		return (uint8_t)(st->config | BIT(ch + AD799X_CHANNEL_SHIFT));
	case AD799X_IFACE_AD7992:
		return (uint8_t)(BIT(ch + AD799X_CHANNEL_SHIFT) | AD7998_CONV_RES_REG);
	default:
		return (uint8_t)(AD7997_8_READ_SINGLE | (ch << AD799X_CHANNEL_SHIFT) |
				 AD7998_CONV_RES_REG);
	}
}

static int ad799x_scan_direct(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			      int *val)
{
	struct ad799x_state *st = iio_priv(indio_dev);
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	int ret;

	if (!client)
		return -ENODEV;
	ret = bus_smbus_read_word_swapped(client, ad799x_conv_cmd(st, (unsigned int)chan->channel));
	if (ret < 0)
		return ret;
	/* bits 15:12 carry the alert flag and channel ID, not data */
	*val = (int)((ret >> chan->scan_type.shift) & GENMASK(chan->scan_type.realbits - 1, 0));
	return 0;
}

static int ad799x_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   int *val, int *val2, long mask)
{
	struct ad799x_state *st = iio_priv(indio_dev);
	int ret;

	if (mask == IIO_CHAN_INFO_SCALE)
		return iio_scale_log2(st->vref_mv, chan->scan_type.realbits, val, val2);
	if (mask != IIO_CHAN_INFO_RAW)
		return -EINVAL;
	if (iio_device_claim_direct(indio_dev))
		return -EBUSY;
	ret = ad799x_scan_direct(indio_dev, chan, val);
	return ret < 0 ? ret : IIO_VAL_INT;
}

static int ad799x_send_config(struct ad799x_state *st, struct bus_i2c_client *client,
			      uint16_t config);

/* The command byte of a capture's block read: the scan mask's conversions, as the kernel's. */
static uint8_t ad799x_scan_cmd(const struct ad799x_state *st)
{
	switch (st->ci->iface) {
	case AD799X_IFACE_AD7991:
		return (uint8_t)(st->config | (st->scan_mask << AD799X_CHANNEL_SHIFT));
	case AD799X_IFACE_AD7992:
		return (uint8_t)((st->scan_mask << AD799X_CHANNEL_SHIFT) | AD7998_CONV_RES_REG);
	default:
		return AD7997_8_READ_SEQUENCE | AD7998_CONV_RES_REG;
	}
}

/*
 * ad799x_trigger_handler: one SMBus block read of transfer_size bytes with
 * the scan's command, as the kernel's: the enabled channels' result words,
 * lowest first, MSB first and unmasked (flag and channel-ID nibble
 * included). The kernel's mask counts the timestamp too, so it reads one
 * word more than the channels; that word lands in the record's padding in
 * the kernel (which the timestamp then covers or leaves as it was) and is
 * not copied here: our padding stays zero (S-3, K-49).
 */
static int ad799x_trigger_handler(struct iio_dev *indio_dev, int64_t ts)
{
	struct ad799x_state *st = iio_priv(indio_dev);
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	int words = __builtin_popcountll(iio_buffer_active_mask(indio_dev));
	uint8_t data[IIO_SCAN_BYTES_MAX] = { 0 };
	uint8_t rx[BUS_SMBUS_BLOCK_MAX];
	int ret;

	if (!client)
		return -ENODEV;
	ret = bus_smbus_read_i2c_block_data(client, ad799x_scan_cmd(st), st->transfer_size, rx);
	if (ret < 0)
		return ret;
	if (ret < 2 * words)
		return -EIO;
	memcpy(data, rx, (size_t)(2 * words));
	iio_push_to_buffers_with_timestamp(indio_dev, data, ts);
	return 0;
}

/* The timestamp's scan index (the kernel's masklength - 1). */
static int ad799x_ts_index(const struct ad799x_state *st)
{
	int i;

	for (i = 0; i < st->ci->num_channels; i++)
		if (st->ci->channels[i].type == IIO_TIMESTAMP)
			return st->ci->channels[i].scan_index;
	return -1;
}

/*
 * ad799x_update_scan_mode: as the kernel's, the block read's size from the
 * mask (timestamp included) and, on the parts with a configuration
 * register, the mask as its channel bits (the alert enables share them).
 */
static int ad799x_update_scan_mode(struct iio_dev *indio_dev, uint64_t active)
{
	struct ad799x_state *st = iio_priv(indio_dev);
	int ts = ad799x_ts_index(st);

	st->scan_mask = active;
	if (ts >= 0 && iio_buffer_next_ts(indio_dev))
		st->scan_mask |= BIT_ULL(ts);
	st->transfer_size = (uint8_t)(__builtin_popcountll(st->scan_mask) * 2);
	if (st->ci->iface == AD799X_IFACE_AD7991)
		return 0;
	st->config &= (uint16_t)~(GENMASK(7, 0) << AD799X_CHANNEL_SHIFT);
	st->config |= (uint16_t)(st->scan_mask << AD799X_CHANNEL_SHIFT);
	return ad799x_send_config(st, iio_device_i2c(indio_dev), st->config);
}

static const struct iio_buffer_setup ad799x_buffer_setup = {
	.handler = ad799x_trigger_handler,
	.update_scan_mode = ad799x_update_scan_mode,
};

/* Send the configuration as the part takes it (the ad7991/5/9 keep it for the next command). */
static int ad799x_send_config(struct ad799x_state *st, struct bus_i2c_client *client,
			      uint16_t config)
{
	switch (st->ci->iface) {
	case AD799X_IFACE_AD7991:
		st->config = config;
		return 0;
	case AD799X_IFACE_AD7992:
		return bus_smbus_write_byte_data(client, AD7998_CONF_REG, (uint8_t)config);
	default:
		return bus_smbus_write_word_swapped(client, AD7998_CONF_REG, config);
	}
}

/* ---- alert events (ad7992/3/4/7/8 with an interrupt line) ---- */

/* events/sampling_frequency by cycle timer code; the kernel's table lacks code 4 (1953) */
static const int ad7998_frequencies[] = { 0, 15625, 7812, 3906, 0, 976, 488, 244 };
static const char ad799x_frequencies_avail[] = "15625 7812 3906 1953 976 488 244 0\n";

/* 1 when the alert is on and the channel's bit is set; rising and falling share it */
static int ad799x_read_event_config(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				    enum iio_event_type type, enum iio_event_direction dir)
{
	const struct ad799x_state *st = iio_priv(indio_dev);

	(void)type;
	(void)dir;
	if (!(st->config & AD7998_ALERT_EN))
		return 0;
	return (st->config >> AD799X_CHANNEL_SHIFT) & BIT(chan->scan_index) ? 1 : 0;
}

/* The channel's bit in the configuration; ALERT_EN while any is set. Not while capturing. */
static int ad799x_write_event_config(struct iio_dev *indio_dev,
				     const struct iio_chan_spec *chan, enum iio_event_type type,
				     enum iio_event_direction dir, int state)
{
	struct ad799x_state *st = iio_priv(indio_dev);
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);

	(void)type;
	(void)dir;
	if (!client)
		return -ENODEV;
	if (iio_device_claim_direct(indio_dev))
		return -EBUSY;
	if (state)
		st->config |= (uint16_t)(BIT(chan->scan_index) << AD799X_CHANNEL_SHIFT);
	else
		st->config &= (uint16_t)~(BIT(chan->scan_index) << AD799X_CHANNEL_SHIFT);
	if (st->config >> AD799X_CHANNEL_SHIFT)
		st->config |= AD7998_ALERT_EN;
	else
		st->config &= (uint16_t)~AD7998_ALERT_EN;
	return ad799x_send_config(st, client, st->config);
}

/* DATA_LOW for falling, DATA_HIGH for rising, HYSTERESIS for either */
static uint8_t ad799x_threshold_reg(const struct iio_chan_spec *chan,
				    enum iio_event_direction dir, enum iio_event_info info)
{
	if (info == IIO_EV_INFO_HYSTERESIS)
		return (uint8_t)AD7998_HYST_REG(chan->channel);
	return (uint8_t)(dir == IIO_EV_DIR_FALLING ? AD7998_DATALOW_REG(chan->channel) :
						     AD7998_DATAHIGH_REG(chan->channel));
}

static int ad799x_read_event_value(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				   enum iio_event_type type, enum iio_event_direction dir,
				   enum iio_event_info info, int *val, int *val2)
{
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	int ret;

	(void)type;
	(void)val2;
	if (!client)
		return -ENODEV;
	ret = bus_smbus_read_word_swapped(client, ad799x_threshold_reg(chan, dir, info));
	if (ret < 0)
		return ret;
	*val = (int)((ret >> chan->scan_type.shift) & GENMASK(chan->scan_type.realbits - 1, 0));
	return IIO_VAL_INT;
}

/* 0 .. 2^bits - 1, written left-aligned to bit 11 as the chip compares it */
static int ad799x_write_event_value(struct iio_dev *indio_dev,
				    const struct iio_chan_spec *chan, enum iio_event_type type,
				    enum iio_event_direction dir, enum iio_event_info info,
				    int val, int val2)
{
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);

	(void)type;
	(void)val2;
	if (val < 0 || val > (int)GENMASK(chan->scan_type.realbits - 1, 0))
		return -EINVAL;
	if (!client)
		return -ENODEV;
	return bus_smbus_write_word_swapped(client, ad799x_threshold_reg(chan, dir, info),
					    (uint16_t)(val << chan->scan_type.shift));
}

/*
 * The ALERT pin: read the status (nothing, or an error: stop there, as the
 * kernel's), clear it, then push bit 2n+1 as channel n rising and bit 2n
 * as channel n falling, each with its own time as the kernel takes it.
 */
static void ad799x_event_handler(struct iio_dev *indio_dev, int64_t timestamp)
{
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	int i, ret;

	(void)timestamp;
	if (!client)
		return;
	ret = bus_smbus_read_byte_data(client, AD7998_ALERT_STAT_REG);
	if (ret <= 0)
		return;
	if (bus_smbus_write_byte_data(client, AD7998_ALERT_STAT_REG, AD7998_ALERT_STAT_CLEAR) < 0)
		return;
	for (i = 0; i < 8; i++) {
		if (!(ret & BIT(i)))
			continue;
		iio_push_event(indio_dev,
			       IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, i >> 1, IIO_EV_TYPE_THRESH,
						    i & 1 ? IIO_EV_DIR_RISING :
							    IIO_EV_DIR_FALLING),
			       iio_get_time_ns(indio_dev));
	}
}

static int ad799x_read_frequency(struct iio_dev *indio_dev, uintptr_t priv, char *buf,
				 size_t len)
{
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	int ret, vals[2] = { 0, 0 };

	(void)priv;
	if (!client)
		return -ENODEV;
	ret = bus_smbus_read_byte_data(client, AD7998_CYCLE_TMR_REG);
	if (ret < 0)
		return ret;
	vals[0] = ad7998_frequencies[ret & AD7998_CYC_MASK];
	return iio_format_value(buf, len, IIO_VAL_INT, 2, vals);
}

/* The kernel's kstrtol(buf, 10): kstrtoul's rules after an optional '-' (not "-+"). */
static int ad799x_kstrtol10(const char *buf, long *val)
{
	unsigned long v;
	int ret;

	if (buf[0] == '-' && buf[1] == '+')
		return -EINVAL;
	ret = iio_kstrtoul10(buf[0] == '-' ? buf + 1 : buf, &v);
	if (ret < 0)
		return ret;
	if (buf[0] == '-' ? v > (unsigned long)LONG_MAX + 1 : v > (unsigned long)LONG_MAX)
		return -ERANGE;
	*val = buf[0] == '-' ? (long)(0ul - v) : (long)v;
	return 0;
}

/* a value of the table, first match (0 switches the timer off); other bits kept */
static int ad799x_write_frequency(struct iio_dev *indio_dev, uintptr_t priv, const char *buf,
				  size_t len)
{
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	size_t i;
	long val;
	int ret;

	(void)priv;
	(void)len;
	ret = ad799x_kstrtol10(buf, &val);
	if (ret < 0)
		return ret;
	if (!client)
		return -ENODEV;
	ret = bus_smbus_read_byte_data(client, AD7998_CYCLE_TMR_REG);
	if (ret < 0)
		return ret;
	for (i = 0; i < ARRAY_SIZE(ad7998_frequencies); i++)
		if (val == ad7998_frequencies[i])
			break;
	if (i == ARRAY_SIZE(ad7998_frequencies))
		return -EINVAL;
	return bus_smbus_write_byte_data(client, AD7998_CYCLE_TMR_REG,
					 (uint8_t)((ret & ~AD7998_CYC_MASK) | (int)i));
}

static int ad799x_frequency_avail(struct iio_dev *indio_dev, uintptr_t priv, char *buf,
				  size_t len)
{
	(void)indio_dev;
	(void)priv;
	return snprintf(buf, len, "%s", ad799x_frequencies_avail);
}

static const struct iio_dev_attr ad799x_event_attrs[] = {
	{ .name = "sampling_frequency", .read = ad799x_read_frequency,
	  .write = ad799x_write_frequency },
	{ .name = "sampling_frequency_available", .read = ad799x_frequency_avail },
	{ NULL, NULL, NULL, 0 },
};

static const struct iio_info ad799x_info = {
	.read_raw = ad799x_read_raw,
};

/* the kernel's ad7993_4_7_8_irq_info */
static const struct iio_info ad799x_irq_info = {
	.read_raw = ad799x_read_raw,
	.read_event_config = ad799x_read_event_config,
	.write_event_config = ad799x_write_event_config,
	.read_event_value = ad799x_read_event_value,
	.write_event_value = ad799x_write_event_value,
	.event_attrs = ad799x_event_attrs,
};

/*
 * Write the configuration and make sure the chip holds it. Parts with a
 * readable configuration register must give back what was written. The
 * ad7991/5/9 cannot be read back: the configuration is sent as a conversion
 * command of input 0, which is what proves the chip is there.
 */
static int ad799x_write_config(struct ad799x_state *st, struct bus_i2c_client *client,
			       uint16_t config, char *why, size_t whylen)
{
	int ret;

	ret = ad799x_send_config(st, client, config);
	if (ret < 0)
		return ret;
	switch (st->ci->iface) {
	case AD799X_IFACE_AD7991:
		ret = bus_smbus_read_word_swapped(client, ad799x_conv_cmd(st, 0));
		return ret < 0 ? ret : 0;
	case AD799X_IFACE_AD7992:
		ret = bus_smbus_read_byte_data(client, AD7998_CONF_REG);
		break;
	default:
		ret = bus_smbus_read_word_swapped(client, AD7998_CONF_REG);
		break;
	}
	if (ret < 0)
		return ret;
	if (ret != config) {
		snprintf(why, whylen, "configuration reads back 0x%04x, wrote 0x%04x",
			 (unsigned int)ret, config);
		return -EIO;
	}
	st->config = (uint16_t)ret;
	return 0;
}

static const struct iio_device_id ad799x_id[] = {
	{ "ad7991", ad7991 }, { "ad7995", ad7995 }, { "ad7999", ad7999 },
	{ "ad7992", ad7992 }, { "ad7993", ad7993 }, { "ad7994", ad7994 },
	{ "ad7997", ad7997 }, { "ad7998", ad7998 },
	{ NULL, 0 }
};

static int ad799x_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			size_t errlen)
{
	const struct ad799x_chip_info *ci;
	struct ad799x_state *st;
	struct iio_dev *indio_dev;
	uint16_t config;
	char why[80] = "";
	int vref_mv = 0, ret;
	bool irq;

	ret = iio_probe_adc(p, AD799X_NPARTS, "AD799x", &vref_mv, err, errlen);
	if (ret < 0)
		return ret;
	ci = &ad799x_chip_info_tbl[ret];
	/* as the kernel: the irq configuration when the board wires the ALERT pin */
	irq = p->irq && p->irq->kind != IIO_IRQ_NONE && ci->irq_channels;
	config = irq ? AD799X_IRQ_CONFIG : ci->default_config;
	/* only the ad7991/5/9 take an external reference; the others run off VDD */
	if (vref_mv > 0 && ci->iface == AD799X_IFACE_AD7991)
		config |= AD7991_REF_SEL;

	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	st->ci = ci;
	st->vref_mv = vref_mv > 0 ? vref_mv : AD799X_DEFAULT_VDD_MV;

	ret = ad799x_write_config(st, p->i2c, config, why, sizeof(why));
	if (ret < 0) {
		iio_device_put(indio_dev);
		return iio_probe_err(p, err, errlen, ret, "%s", why[0] ? why : "no answer");
	}
	/* the id name is static, as the device's name must be */
	iio_device_setup(indio_dev, p->id->name, irq ? ci->irq_channels : ci->channels,
			 ci->num_channels, irq ? &ad799x_irq_info : &ad799x_info);
	if (iio_triggered_buffer_setup(indio_dev, &ad799x_buffer_setup, NULL)) {
		iio_device_put(indio_dev);
		return -ENOMEM;
	}
	/* the kernel requests a given line for every part (ALERT is active low) */
	ret = iio_request_threaded_irq(indio_dev, p, IIO_IRQ_FALLING, ad799x_event_handler,
				       err, errlen);
	if (ret < 0 && ret != -ENOENT) {
		iio_device_put(indio_dev);
		return ret;
	}
	*out = indio_dev;
	return 0;
}

static const struct iio_driver ad799x_driver = {
	.name = "ad799x",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = ad799x_id,
	.probe = ad799x_probe,
};

IIO_DRIVER_REGISTER(ad799x_driver);
