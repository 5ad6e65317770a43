/*
 * ti_ads1015.c - driver for the TI ADS1015 (12 bits), ADS1115 (16 bits) and
 * TLA2024 (12 bits, no comparator) I2C ADCs, as Linux 6.1's
 * drivers/iio/adc/ti-ads1015.c (read at mainline after 6.3, whose channel
 * tables, read_avail and comparator match the 6.1 image's sysfs in the QEMU
 * rig, tests/kernel-rig/ads1015.conf; the id table is 6.1's).
 *
 * Eight voltage channels in the kernel's order and scan indices: the four
 * differential pairs the MUX offers (in_voltage0-voltage1 .. 2-3, scan 0-3)
 * then AIN0..AIN3 against GND (scan 4-7), then the soft timestamp (8). Each
 * has its own raw, scale and sampling_frequency (the PGA and data-rate codes
 * are per channel in the driver and written to the chip when that channel
 * converts); scale_available and sampling_frequency_available are shared by
 * all channels (read_avail: the PGA table as FRACTIONAL_LOG2 pairs, the
 * eight data-rate codes, the ADS1015's 3300 twice). The chip converts
 * continuously from probe to removal (the kernel's runtime PM powers it down
 * when idle: K-65); a read that changes the configuration waits out the
 * conversion in progress and one at the new rate before it takes the result. Capture is
 * one channel at a time (the kernel's one-hot scan mask).
 *
 * The ADS1015/ADS1115 comparator is the kernel's threshold event set: per
 * channel thresh_rising value and enable, thresh_falling value,
 * thresh_either enable (window mode) and period (the comparator queue).
 * One channel at a time may have its event on; its thresholds go to
 * Lo/Hi_thresh and the queue and mode into the configuration at its next
 * conversion. With the ALERT/RDY line in the board ("irq") the comparator
 * latches and the handler reads the conversion register to clear it and
 * pushes the event, with the channel's table position as its number (the
 * kernel's code, quirk and all). Place in the flow: bus -> *driver* ->
 * core. Must not format values, log, or include protocol or server headers.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_buffer.h"
#include "iio_event.h"
#include "iio_irq.h"
#include "bus/bus.h"

#define ADS1015_CHANNELS	8	/* the voltage channels; the timestamp is the 9th */

#define ADS1015_CONV_REG	0x00
#define ADS1015_CFG_REG		0x01
#define ADS1015_LO_THRESH_REG	0x02
#define ADS1015_HI_THRESH_REG	0x03

#define ADS1015_CFG_COMP_QUE	GENMASK(1, 0)
#define ADS1015_CFG_COMP_LAT	BIT(2)
#define ADS1015_CFG_COMP_POL	BIT(3)
#define ADS1015_CFG_COMP_MODE	BIT(4)
#define ADS1015_CFG_DR		GENMASK(7, 5)
#define ADS1015_CFG_MODE	BIT(8)
#define ADS1015_CFG_PGA		GENMASK(11, 9)
#define ADS1015_CFG_MUX		GENMASK(14, 12)

#define ADS1015_COMP_DISABLE	3	/* COMP_QUE 11: comparator off, ALERT/RDY high-Z */
#define ADS1015_COMP_MODE_TRAD	0
#define ADS1015_COMP_MODE_WINDOW 1
#define ADS1015_CONTINUOUS	0
#define ADS1015_SINGLESHOT	1

#define ADS1015_DEFAULT_PGA	2	/* +/-2.048 V */
#define ADS1015_DEFAULT_DATA_RATE 4	/* 1600 SPS (ADS1015, TLA2024), 128 SPS (ADS1115) */

#define ADS1015_USEC_PER_SEC	1000000

/* table positions, which are also the MUX codes, the scan indices and .address */
enum ads1015_chan {
	ADS1015_AIN0_AIN1, ADS1015_AIN0_AIN3, ADS1015_AIN1_AIN3, ADS1015_AIN2_AIN3,
	ADS1015_AIN0, ADS1015_AIN1, ADS1015_AIN2, ADS1015_AIN3, ADS1015_TIMESTAMP,
};

static const int ads1015_data_rate[] = { 128, 250, 490, 920, 1600, 2400, 3300, 3300 };
static const int ads1115_data_rate[] = { 8, 16, 32, 64, 128, 250, 475, 860 };

/* full scale by PGA code, mV: codes 5-7 are all +/-0.256 V */
static const int ads1015_fullscale_range[] = { 6144, 4096, 2048, 1024, 512, 256, 256, 256 };

/* scale_available: full scale over 2^(bits-1), smallest first */
static const int ads1015_scale[] = {
	256, 11, 512, 11, 1024, 11, 2048, 11, 4096, 11, 6144, 11,
};
static const int ads1115_scale[] = {
	256, 15, 512, 15, 1024, 15, 2048, 15, 4096, 15, 6144, 15,
};

/* conversions past a threshold before ALERT asserts, by COMP_QUE code */
static const int ads1015_comp_queue[] = { 1, 2, 4 };

static const struct iio_event_spec ads1015_events[] = {
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_RISING),
	{
		.type = IIO_EV_TYPE_THRESH,
		.dir = IIO_EV_DIR_FALLING,
		.mask_separate = BIT(IIO_EV_INFO_VALUE),
	}, {
		.type = IIO_EV_TYPE_THRESH,
		.dir = IIO_EV_DIR_EITHER,
		.mask_separate = BIT(IIO_EV_INFO_ENABLE) | BIT(IIO_EV_INFO_PERIOD),
	},
};

/* The result is left-aligned: 12-bit parts shift it by 4, stored as a CPU-order s16. */
#define ADS1015_CHAN_COMMON(_addr, _bits, _ev, _nev)				\
	.type = IIO_VOLTAGE, .indexed = 1, .address = (_addr), .scan_index = (_addr),	\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) |	\
			      BIT(IIO_CHAN_INFO_SAMP_FREQ),			\
	.info_mask_shared_by_all_available = BIT(IIO_CHAN_INFO_SCALE) |		\
					     BIT(IIO_CHAN_INFO_SAMP_FREQ),	\
	.scan_type = { .sign = 's', .realbits = (_bits), .storagebits = 16,	\
		       .shift = 16 - (_bits), .endianness = IIO_CPU },		\
	.event_spec = (_ev), .num_event_specs = (_nev)

#define ADS1015_V_CHAN(_chan, _addr, _bits, _ev, _nev) {			\
	ADS1015_CHAN_COMMON(_addr, _bits, _ev, _nev),				\
	.channel = (_chan), .datasheet_name = "AIN" #_chan,			\
}
#define ADS1015_V_DIFF_CHAN(_chan, _chan2, _addr, _bits, _ev, _nev) {		\
	ADS1015_CHAN_COMMON(_addr, _bits, _ev, _nev),				\
	.differential = 1, .channel = (_chan), .channel2 = (_chan2),		\
	.datasheet_name = "AIN" #_chan "-AIN" #_chan2,				\
}

#define ADS1015_CHANNEL_TABLE(_bits, _ev, _nev) {				\
	ADS1015_V_DIFF_CHAN(0, 1, ADS1015_AIN0_AIN1, _bits, _ev, _nev),		\
	ADS1015_V_DIFF_CHAN(0, 3, ADS1015_AIN0_AIN3, _bits, _ev, _nev),		\
	ADS1015_V_DIFF_CHAN(1, 3, ADS1015_AIN1_AIN3, _bits, _ev, _nev),		\
	ADS1015_V_DIFF_CHAN(2, 3, ADS1015_AIN2_AIN3, _bits, _ev, _nev),		\
	ADS1015_V_CHAN(0, ADS1015_AIN0, _bits, _ev, _nev),			\
	ADS1015_V_CHAN(1, ADS1015_AIN1, _bits, _ev, _nev),			\
	ADS1015_V_CHAN(2, ADS1015_AIN2, _bits, _ev, _nev),			\
	ADS1015_V_CHAN(3, ADS1015_AIN3, _bits, _ev, _nev),			\
	IIO_CHAN_SOFT_TIMESTAMP(ADS1015_TIMESTAMP),				\
}

static const struct iio_chan_spec ads1015_channels[] =
	ADS1015_CHANNEL_TABLE(12, ads1015_events, ARRAY_SIZE(ads1015_events));
static const struct iio_chan_spec ads1115_channels[] =
	ADS1015_CHANNEL_TABLE(16, ads1015_events, ARRAY_SIZE(ads1015_events));
static const struct iio_chan_spec tla2024_channels[] = ADS1015_CHANNEL_TABLE(12, NULL, 0);

/*
 * The kernel's validate_scan_mask, iio_validate_scan_mask_onehot: one
 * channel a scan, so a second enable (or a reader asking two) is EINVAL.
 */
static const uint64_t ads1015_onehot_masks[] = {
	BIT(0), BIT(1), BIT(2), BIT(3), BIT(4), BIT(5), BIT(6), BIT(7), 0
};

/* One part: the tla2024 is an ads1015 without the comparator. */
struct ads1015_chip {
	const struct iio_chan_spec *channels;
	const struct iio_info *info;
	const int *data_rate;
	const int *scale;
	bool has_comparator;
};

/**
 * struct ads1015_state - per device, in iio_priv(); guarded by the device lock.
 * @pga/@data_rate: the codes each channel converts with.
 * @event_channel: the channel whose event is on, ADS1015_CHANNELS for none.
 * @comp_queue/@high_thresh/@low_thresh: each channel's comparator settings.
 * @conv_invalid: the conversion register may hold a result of other
 *	settings (after probe or a configuration change): wait before reading.
 */
struct ads1015_state {
	const struct ads1015_chip *chip;
	unsigned int pga[ADS1015_CHANNELS];
	unsigned int data_rate[ADS1015_CHANNELS];
	unsigned int event_channel;
	unsigned int comp_mode;
	unsigned int comp_queue[ADS1015_CHANNELS];
	int high_thresh[ADS1015_CHANNELS];
	int low_thresh[ADS1015_CHANNELS];
	bool conv_invalid;
};

static bool ads1015_event_channel_enabled(const struct ads1015_state *st)
{
	return st->event_channel != ADS1015_CHANNELS;
}

/* regmap_update_bits() on an uncached map: read, and write only when it changes. */
static int ads1015_update_bits(struct bus_i2c_client *client, uint16_t mask, uint16_t val)
{
	int old = bus_smbus_read_word_swapped(client, ADS1015_CFG_REG);
	uint16_t cfg;

	if (old < 0)
		return old;
	cfg = (uint16_t)((old & ~mask) | (val & mask));
	if (cfg == old)
		return 0;
	return bus_smbus_write_word_swapped(client, ADS1015_CFG_REG, cfg);
}

/* One conversion period at data-rate code @dr, in microseconds, rounded up. */
static int ads1015_period_us(const struct ads1015_state *st, unsigned int dr)
{
	return (ADS1015_USEC_PER_SEC + st->chip->data_rate[dr] - 1) / st->chip->data_rate[dr];
}

/*
 * The result of channel @chan: the configuration set for it (its MUX, PGA
 * and data rate, and the comparator's queue and mode while an event is on),
 * written only when it differs; after a change, the conversion in progress
 * (old rate) and one at the new rate, plus 10 % for the internal clock, as
 * the kernel waits (in whole milliseconds here: bus_msleep()).
 */
static int ads1015_get_adc_result(struct iio_dev *indio_dev, unsigned int chan, int *val)
{
	struct ads1015_state *st = iio_priv(indio_dev);
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	unsigned int dr = st->data_rate[chan];
	uint16_t mask = ADS1015_CFG_MUX | ADS1015_CFG_PGA | ADS1015_CFG_DR, cfg;
	int old, ret, conv_us;

	if (chan >= ADS1015_CHANNELS || !client)
		return -EINVAL;
	old = bus_smbus_read_word_swapped(client, ADS1015_CFG_REG);
	if (old < 0)
		return old;
	cfg = (uint16_t)(FIELD_PREP(ADS1015_CFG_MUX, chan) |
			 FIELD_PREP(ADS1015_CFG_PGA, st->pga[chan]) |
			 FIELD_PREP(ADS1015_CFG_DR, dr));
	if (ads1015_event_channel_enabled(st)) {
		mask |= ADS1015_CFG_COMP_QUE | ADS1015_CFG_COMP_MODE;
		cfg |= (uint16_t)(FIELD_PREP(ADS1015_CFG_COMP_QUE, st->comp_queue[chan]) |
				  FIELD_PREP(ADS1015_CFG_COMP_MODE, st->comp_mode));
	}
	cfg = (uint16_t)((old & ~mask) | (cfg & mask));
	if (old != cfg) {
		ret = bus_smbus_write_word_swapped(client, ADS1015_CFG_REG, cfg);
		if (ret < 0)
			return ret;
		st->conv_invalid = true;
	}
	if (st->conv_invalid) {
		conv_us = ads1015_period_us(st, FIELD_GET(ADS1015_CFG_DR, (unsigned int)old)) +
			  ads1015_period_us(st, dr);
		conv_us += conv_us / 10;
		bus_msleep(client->bus, (unsigned int)(conv_us + 999) / 1000);
		st->conv_invalid = false;
	}
	ret = bus_smbus_read_word_swapped(client, ADS1015_CONV_REG);
	if (ret < 0)
		return ret;
	*val = ret;
	return 0;
}

/* The kernel's set_scale: the full scale the value means at this resolution, in the table. */
static int ads1015_set_scale(struct ads1015_state *st, const struct iio_chan_spec *chan,
			     int scale, int uscale)
{
	int64_t micro = (int64_t)scale * ADS1015_USEC_PER_SEC + uscale;
	int64_t fullscale = (int64_t)((uint64_t)micro << (chan->scan_type.realbits - 1)) /
			    ADS1015_USEC_PER_SEC;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ads1015_fullscale_range); i++) {
		if (ads1015_fullscale_range[i] == fullscale) {
			st->pga[chan->address] = (unsigned int)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* The first data-rate code of @rate; the fraction of the value is not looked at. */
static int ads1015_set_data_rate(struct ads1015_state *st, unsigned int chan, int rate)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ads1015_data_rate); i++) {
		if (st->chip->data_rate[i] == rate) {
			st->data_rate[chan] = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int ads1015_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int *val, int *val2, long mask)
{
	struct ads1015_state *st = iio_priv(indio_dev);
	int ret;

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		if (iio_device_claim_direct(indio_dev))
			return -EBUSY;
		/* the comparator watches the event's channel: no other may convert */
		if (ads1015_event_channel_enabled(st) && st->event_channel != chan->address)
			return -EBUSY;
		ret = ads1015_get_adc_result(indio_dev, (unsigned int)chan->address, val);
		if (ret < 0)
			return ret;
		*val = sign_extend32((uint32_t)*val >> chan->scan_type.shift,
				     chan->scan_type.realbits - 1);
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		return iio_scale_log2(ads1015_fullscale_range[st->pga[chan->address]],
				      chan->scan_type.realbits - 1, val, val2);
	case IIO_CHAN_INFO_SAMP_FREQ:
		*val = st->chip->data_rate[st->data_rate[chan->address]];
		return IIO_VAL_INT;
	default:
		return -EINVAL;
	}
}

static int ads1015_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			     int val, int val2, long mask)
{
	struct ads1015_state *st = iio_priv(indio_dev);

	switch (mask) {
	case IIO_CHAN_INFO_SCALE:
		return ads1015_set_scale(st, chan, val, val2);
	case IIO_CHAN_INFO_SAMP_FREQ:
		return ads1015_set_data_rate(st, (unsigned int)chan->address, val);
	default:
		return -EINVAL;
	}
}

/* ---- the comparator as events (ADS1015, ADS1115) ---- */

/* The time @queue_code conversions take at the channel's rate, in microseconds. */
static int ads1015_queue_period_us(const struct ads1015_state *st, unsigned int chan,
				   unsigned int queue_code)
{
	return ads1015_comp_queue[queue_code] * ADS1015_USEC_PER_SEC /
	       st->chip->data_rate[st->data_rate[chan]];
}

static int ads1015_read_event(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			      enum iio_event_type type, enum iio_event_direction dir,
			      enum iio_event_info info, int *val, int *val2)
{
	const struct ads1015_state *st = iio_priv(indio_dev);
	unsigned int ch = (unsigned int)chan->address;
	int period;

	(void)type;
	switch (info) {
	case IIO_EV_INFO_VALUE:
		*val = dir == IIO_EV_DIR_RISING ? st->high_thresh[ch] : st->low_thresh[ch];
		return IIO_VAL_INT;
	case IIO_EV_INFO_PERIOD:
		period = ads1015_queue_period_us(st, ch, st->comp_queue[ch]);
		*val = period / ADS1015_USEC_PER_SEC;
		*val2 = period % ADS1015_USEC_PER_SEC;
		return IIO_VAL_INT_PLUS_MICRO;
	default:
		return -EINVAL;
	}
}

/* A threshold in codes of the channel's resolution; a period: the shortest queue that covers it. */
static int ads1015_write_event(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			       enum iio_event_type type, enum iio_event_direction dir,
			       enum iio_event_info info, int val, int val2)
{
	struct ads1015_state *st = iio_priv(indio_dev);
	unsigned int ch = (unsigned int)chan->address, i;
	int half = 1 << (chan->scan_type.realbits - 1);
	long long period;

	(void)type;
	switch (info) {
	case IIO_EV_INFO_VALUE:
		if (val >= half || val < -half)
			return -EINVAL;
		if (dir == IIO_EV_DIR_RISING)
			st->high_thresh[ch] = val;
		else
			st->low_thresh[ch] = val;
		return 0;
	case IIO_EV_INFO_PERIOD:
		period = (long long)val * ADS1015_USEC_PER_SEC + val2;
		for (i = 0; i < ARRAY_SIZE(ads1015_comp_queue) - 1; i++)
			if (period <= ads1015_queue_period_us(st, ch, i))
				break;
		st->comp_queue[ch] = i;
		return 0;
	default:
		return -EINVAL;
	}
}

/* rising_en: the channel's event is on; either_en: ...in window mode */
static int ads1015_read_event_config(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				     enum iio_event_type type, enum iio_event_direction dir)
{
	const struct ads1015_state *st = iio_priv(indio_dev);

	(void)type;
	if (st->event_channel != chan->address)
		return 0;
	switch (dir) {
	case IIO_EV_DIR_RISING:
		return 1;
	case IIO_EV_DIR_EITHER:
		return st->comp_mode == ADS1015_COMP_MODE_WINDOW;
	default:
		return -EINVAL;
	}
}

/*
 * A threshold, left-aligned, as regmap writes it: through plain I2C its low
 * 16 bits; on an SMBus-only adapter regmap's word path refuses a value
 * past 0xffff, so there a negative threshold is -EINVAL (the 6.1 kernel on
 * i2c-stub, tests/kernel-rig/ads1015.conf).
 */
static int ads1015_write_thresh(struct bus_i2c_client *client, uint8_t reg, int val, int shift)
{
	unsigned int word = (unsigned int)val << shift;

	if (word > 0xffff && !bus_i2c_check_functionality(client, BUS_I2C_FUNC_I2C))
		return -EINVAL;
	return bus_smbus_write_word_swapped(client, reg, (uint16_t)word);
}

/*
 * Arm the comparator on @chan: its thresholds (a rising-only event gets a
 * low threshold one below the high one, so that the alert ends as soon as
 * the input is back), then a conversion with the comparator bits set. On
 * one channel only, and window mode does not replace traditional.
 */
static int ads1015_enable_event_config(struct iio_dev *indio_dev,
				       const struct iio_chan_spec *chan, unsigned int comp_mode)
{
	struct ads1015_state *st = iio_priv(indio_dev);
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	unsigned int ch = (unsigned int)chan->address;
	int low = st->low_thresh[ch], high = st->high_thresh[ch];
	int shift = chan->scan_type.shift, min = -(1 << (chan->scan_type.realbits - 1));
	int ret, val;

	if (ads1015_event_channel_enabled(st)) {
		if (st->event_channel != ch || (st->comp_mode == ADS1015_COMP_MODE_TRAD &&
						comp_mode == ADS1015_COMP_MODE_WINDOW))
			return -EBUSY;
		return 0;
	}
	if (comp_mode == ADS1015_COMP_MODE_TRAD)
		low = high - 1 > min ? high - 1 : min;
	ret = ads1015_write_thresh(client, ADS1015_LO_THRESH_REG, low, shift);
	if (ret < 0)
		return ret;
	ret = ads1015_write_thresh(client, ADS1015_HI_THRESH_REG, high, shift);
	if (ret < 0)
		return ret;
	st->event_channel = ch;
	st->comp_mode = comp_mode;
	ret = ads1015_get_adc_result(indio_dev, ch, &val);
	if (ret < 0)
		st->event_channel = ADS1015_CHANNELS;
	return ret;
}

/* Disarm: the comparator off, unless it is another channel's or the mode does not match. */
static int ads1015_disable_event_config(struct iio_dev *indio_dev,
					const struct iio_chan_spec *chan, unsigned int comp_mode)
{
	struct ads1015_state *st = iio_priv(indio_dev);
	int ret;

	if (!ads1015_event_channel_enabled(st) || st->event_channel != chan->address)
		return 0;
	if (st->comp_mode == ADS1015_COMP_MODE_TRAD && comp_mode == ADS1015_COMP_MODE_WINDOW)
		return 0;
	ret = ads1015_update_bits(iio_device_i2c(indio_dev), ADS1015_CFG_COMP_QUE,
				  FIELD_PREP(ADS1015_CFG_COMP_QUE, ADS1015_COMP_DISABLE));
	if (ret < 0)
		return ret;
	st->event_channel = ADS1015_CHANNELS;
	return 0;
}

static int ads1015_write_event_config(struct iio_dev *indio_dev,
				      const struct iio_chan_spec *chan, enum iio_event_type type,
				      enum iio_event_direction dir, int state)
{
	unsigned int comp_mode = dir == IIO_EV_DIR_EITHER ? ADS1015_COMP_MODE_WINDOW :
							    ADS1015_COMP_MODE_TRAD;

	(void)type;
	/* events and capture exclude each other */
	if (iio_device_claim_direct(indio_dev))
		return -EBUSY;
	if (!iio_device_i2c(indio_dev))
		return -ENODEV;
	if (state)
		return ads1015_enable_event_config(indio_dev, chan, comp_mode);
	return ads1015_disable_event_config(indio_dev, chan, comp_mode);
}

/*
 * ALERT/RDY: reading the conversion register releases the latched pin;
 * then the event, rising in traditional mode, either in window mode. Its
 * channel number is the table position (4 for AIN0), as the kernel codes it.
 */
static void ads1015_event_handler(struct iio_dev *indio_dev, int64_t timestamp)
{
	struct ads1015_state *st = iio_priv(indio_dev);
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);
	enum iio_event_direction dir;

	(void)timestamp;
	if (!client || bus_smbus_read_word_swapped(client, ADS1015_CONV_REG) < 0)
		return;
	if (!ads1015_event_channel_enabled(st))
		return;
	dir = st->comp_mode == ADS1015_COMP_MODE_TRAD ? IIO_EV_DIR_RISING : IIO_EV_DIR_EITHER;
	iio_push_event(indio_dev, IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, st->event_channel,
						       IIO_EV_TYPE_THRESH, dir),
		       iio_get_time_ns(indio_dev));
}

/* ---- capture ---- */

/*
 * One channel's conversion register as a CPU-order s16, then the
 * timestamp: the poll's (K-20) where the kernel takes the time here.
 */
static int ads1015_trigger_handler(struct iio_dev *indio_dev, int64_t ts)
{
	uint64_t active = iio_buffer_active_mask(indio_dev);
	uint8_t scan[16] = { 0 };
	int16_t sample;
	int ret, res;

	if (!active)
		return -EINVAL;
	ret = ads1015_get_adc_result(indio_dev, (unsigned int)__builtin_ctzll(active), &res);
	if (ret < 0)
		return ret;
	sample = (int16_t)(uint16_t)res;
	memcpy(scan, &sample, sizeof(sample));
	iio_push_to_buffers_with_timestamp(indio_dev, scan, ts);
	return 0;
}

/* the kernel's preenable: an armed comparator keeps the capture off */
static int ads1015_buffer_postenable(struct iio_dev *indio_dev)
{
	return ads1015_event_channel_enabled(iio_priv(indio_dev)) ? -EBUSY : 0;
}

static const struct iio_buffer_setup ads1015_buffer_setup = {
	.handler = ads1015_trigger_handler,
	.postenable = ads1015_buffer_postenable,
};

/* ---- the _available files, and the parts ---- */

/* the PGA table and the eight data rates, for every voltage channel */
static int ads1015_read_avail(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			      const int **vals, int *type, int *length, long mask)
{
	const struct ads1015_state *st = iio_priv(indio_dev);

	if (chan->type != IIO_VOLTAGE)
		return -EINVAL;
	switch (mask) {
	case IIO_CHAN_INFO_SCALE:
		*type = IIO_VAL_FRACTIONAL_LOG2;
		*vals = st->chip->scale;
		*length = (int)ARRAY_SIZE(ads1015_scale);
		return IIO_AVAIL_LIST;
	case IIO_CHAN_INFO_SAMP_FREQ:
		*type = IIO_VAL_INT;
		*vals = st->chip->data_rate;
		*length = (int)ARRAY_SIZE(ads1015_data_rate);
		return IIO_AVAIL_LIST;
	default:
		return -EINVAL;
	}
}

static const struct iio_info ads1015_info = {
	.read_raw = ads1015_read_raw,
	.write_raw = ads1015_write_raw,
	.read_event_value = ads1015_read_event,
	.write_event_value = ads1015_write_event,
	.read_event_config = ads1015_read_event_config,
	.write_event_config = ads1015_write_event_config,
	.read_avail = ads1015_read_avail,
};

static const struct iio_info tla2024_info = {
	.read_raw = ads1015_read_raw,
	.write_raw = ads1015_write_raw,
	.read_avail = ads1015_read_avail,
};

enum ads1015_part { ads1015, ads1115, tla2024, ADS1015_NPARTS };

static const struct ads1015_chip ads1015_chips[ADS1015_NPARTS] = {
	[ads1015] = { ads1015_channels, &ads1015_info, ads1015_data_rate, ads1015_scale, true },
	[ads1115] = { ads1115_channels, &ads1015_info, ads1115_data_rate, ads1115_scale, true },
	[tla2024] = { tla2024_channels, &tla2024_info, ads1015_data_rate, ads1015_scale, false },
};

/*
 * With the ALERT/RDY line: the comparator latching, active low (its reset
 * polarity; we take the line's falling edge, which the kernel pairs with
 * COMP_POL low as it does a low level), off until an event is armed.
 */
static int ads1015_setup_comparator(const struct iio_probe *p)
{
	return ads1015_update_bits(p->i2c, ADS1015_CFG_COMP_QUE | ADS1015_CFG_COMP_LAT |
				   ADS1015_CFG_COMP_POL,
				   FIELD_PREP(ADS1015_CFG_COMP_QUE, ADS1015_COMP_DISABLE) |
				   ADS1015_CFG_COMP_LAT);
}

static void ads1015_state_init(struct ads1015_state *st, const struct ads1015_chip *chip)
{
	int i, half = 1 << (chip->channels[0].scan_type.realbits - 1);

	st->chip = chip;
	st->event_channel = ADS1015_CHANNELS;
	for (i = 0; i < ADS1015_CHANNELS; i++) {
		st->pga[i] = ADS1015_DEFAULT_PGA;
		st->data_rate[i] = ADS1015_DEFAULT_DATA_RATE;
		st->low_thresh[i] = -half;
		st->high_thresh[i] = half - 1;
	}
}

static int ads1015_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			 size_t errlen)
{
	const struct ads1015_chip *chip;
	struct iio_dev *indio_dev;
	int part, ret;
	bool irq;

	part = iio_probe_part(p, ADS1015_NPARTS, "ADS1015", err, errlen);
	if (part < 0)
		return part;
	chip = &ads1015_chips[part];
	indio_dev = iio_device_alloc(sizeof(struct ads1015_state));
	if (!indio_dev)
		return -ENOMEM;
	ads1015_state_init(iio_priv(indio_dev), chip);
	/* every part is named "ads1015", the kernel driver's one name */
	iio_device_setup(indio_dev, "ads1015", chip->channels, ADS1015_CHANNELS + 1, chip->info);
	ret = iio_triggered_buffer_setup(indio_dev, &ads1015_buffer_setup, ads1015_onehot_masks);
	if (ret < 0)
		goto err_put;
	irq = chip->has_comparator && p->irq && p->irq->kind != IIO_IRQ_NONE;
	ret = irq ? ads1015_setup_comparator(p) : 0;
	/* the chip has no ID register: its answers here are the check */
	if (ret == 0)
		ret = ads1015_update_bits(p->i2c, ADS1015_CFG_MODE,
					  FIELD_PREP(ADS1015_CFG_MODE, ADS1015_CONTINUOUS));
	if (ret < 0) {
		iio_probe_err(p, err, errlen, ret, "no answer");
		goto err_put;
	}
	if (irq) {
		ret = iio_request_threaded_irq(indio_dev, p, IIO_IRQ_FALLING,
					       ads1015_event_handler, err, errlen);
		if (ret < 0)
			goto err_put;
	}
	((struct ads1015_state *)iio_priv(indio_dev))->conv_invalid = true;
	*out = indio_dev;
	return 0;

err_put:
	iio_device_put(indio_dev);
	return ret;
}

/*
 * Single-shot mode, which powers the chip down, as the kernel's remove and
 * runtime suspend. The kernel suspends 2 s after the last use; we keep the
 * chip converting while it is bound (K-65).
 */
static void ads1015_remove(struct iio_dev *indio_dev)
{
	struct bus_i2c_client *client = iio_device_i2c(indio_dev);

	if (client)
		ads1015_update_bits(client, ADS1015_CFG_MODE,
				    FIELD_PREP(ADS1015_CFG_MODE, ADS1015_SINGLESHOT));
}

static const struct iio_device_id ads1015_id[] = {
	{ "ads1015", ads1015 }, { "ads1115", ads1115 }, { "tla2024", tla2024 }, { NULL, 0 }
};

/* ADDR to GND, VDD, SDA, SCL */
static const unsigned short ads1015_addresses[] = { 0x48, 0x49, 0x4a, 0x4b, IIO_I2C_ADDR_END };

static const struct iio_driver ads1015_driver = {
	.name = "ads1015",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = ads1015_id,
	.probe = ads1015_probe,
	.remove = ads1015_remove,
	.address_list = ads1015_addresses,
};

IIO_DRIVER_REGISTER(ads1015_driver);
