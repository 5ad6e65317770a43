/*
 * tsl2563.c - driver for the TAOS TSL2560/1/2/3 ambient light sensors (I2C).
 *
 * A chan_spec table (illuminance in lux, the broadband and infrared counts
 * with their calibration scales) and read_raw/write_raw, as the kernel's
 * drivers/iio/light/tsl2563.c exposes them. A read steps the chip through
 * four gain/integration levels until channel 0 sits inside the level's
 * window, normalises both counts to 402 ms at 16x and turns them into lux
 * with the datasheet's piecewise-linear table in integer arithmetic.
 * The broadband channel carries the kernel's threshold events
 * (events/in_intensity_both_thresh_{rising,falling}_{value,en}): with an
 * interrupt line in the board the chip's INT output pushes one "either"
 * event and is cleared; without one the files answer EINVAL (K-44), where
 * the kernel would call a NULL function.
 * Place in the flow: bus -> *driver* -> core. Waits go through bus_msleep(),
 * so on an emulated bus they cost virtual time only.
 * Must not: format text, log, or spell attribute names (the core does).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_buffer.h"
#include "iio_event.h"
#include "iio_irq.h"
#include "bus/bus.h"

#define TSL2563_CMD			0x80
#define TSL2563_CLEARINT		0x40

#define TSL2563_REG_CTRL		0x00
#define TSL2563_REG_TIMING		0x01
#define TSL2563_REG_LOWLOW		0x02	/* channel-0 low threshold, 2 bytes */
#define TSL2563_REG_LOWHIGH		0x03
#define TSL2563_REG_HIGHLOW		0x04	/* channel-0 high threshold, 2 bytes */
#define TSL2563_REG_HIGHHIGH		0x05
#define TSL2563_REG_INT			0x06
#define TSL2563_REG_ID			0x0a
#define TSL2563_REG_DATA0LOW		0x0c	/* broadband, word */
#define TSL2563_REG_DATA1LOW		0x0e	/* infrared, word */

#define TSL2563_CMD_POWER_ON		0x03
#define TSL2563_CMD_POWER_OFF		0x00
#define TSL2563_CTRL_POWER_MASK		0x03

#define TSL2563_TIMING_13MS		0x00
#define TSL2563_TIMING_100MS		0x01
#define TSL2563_TIMING_400MS		0x02
#define TSL2563_TIMING_MASK		0x03
#define TSL2563_TIMING_GAIN16		0x10
#define TSL2563_TIMING_GAIN1		0x00

/* INT register: level interrupts (bits 5:4 = 01) after PERSIST out-of-window cycles */
#define TSL2563_INT_LEVEL		0x10
#define TSL2563_INT_MASK		0x30
#define TSL2563_INT_PERSIST(n)		((n) & 0x0f)

/* Fixed-point precisions: the lux table in 1/16384, calibration in 1/1024. */
#define TSL2563_ADC_FRAC_BITS		14
#define TSL2563_CALIB_FRAC_BITS		10
#define TSL2563_CALIB_BASE_SYSFS	1000	/* calibscale 1000 means 1.0 */
/* Constants given in 1/10000 units, as the datasheet prints them. */
#define TSL2563_FRAC10K(f)		(((f) * (1UL << TSL2563_ADC_FRAC_BITS)) / 10000)

/*
 * Largest calibscale whose fixed-point form survives the kernel's 32-bit
 * arithmetic both ways: (v << 10) must fit in 32 bits, and so must the
 * read-back's stored * 1000 + 512. Beyond it the kernel silently wraps; we
 * refuse, as we refuse negative scales. Deviation K-2 (maps/README.md).
 */
#define TSL2563_CALIBSCALE_MAX		4194303

/* The kernel's "+2 jiffies" after each integration wait, at HZ = 1000. */
#define TSL2563_WAIT_MARGIN_MS		2

/*
 * Auto-gain stops after this many level changes in one read; with a steady
 * input three suffice (level 1 -> 4), a changing one could otherwise keep the
 * kernel's loop going.
 */
#define TSL2563_GAIN_STEPS_MAX		8

/**
 * struct tsl2563_gainlevel - one auto-gain step and its channel-0 window.
 * @wait_ms: one integration period, rounded up as the kernel waits it.
 */
struct tsl2563_gainlevel {
	uint8_t gaintime;
	uint16_t min;
	uint16_t max;
	unsigned int wait_ms;
};

/*
 * The kernel's levels. The chip clips a 101 ms integration at 37177 counts,
 * so level 3's "above 37177" never fires: very bright light stays at 101 ms
 * and reads saturated, as on the kernel; stepping never reaches 13.7 ms.
 */
static const struct tsl2563_gainlevel tsl2563_gainlevels[] = {
	{ TSL2563_TIMING_400MS | TSL2563_TIMING_GAIN16, 0, 65534, 402 },
	{ TSL2563_TIMING_400MS | TSL2563_TIMING_GAIN1, 2048, 65534, 402 },
	{ TSL2563_TIMING_100MS | TSL2563_TIMING_GAIN1, 4095, 37177, 101 },
	{ TSL2563_TIMING_13MS | TSL2563_TIMING_GAIN1, 3000, 65535, 14 },
};

#define TSL2563_NLEVELS	ARRAY_SIZE(tsl2563_gainlevels)

/*
 * Lux from the two channels: lux = c0 * k0 - c1 * k1, where the row is the
 * first whose threshold is at or above the ratio c1/c0 (more infrared in the
 * light means other constants). Ratios and constants in 1/16384, from the
 * datasheet's T/FN/CL table as the kernel uses it.
 */
struct tsl2563_lux_coeff {
	uint64_t ch_ratio;
	uint64_t ch0_coeff;
	uint64_t ch1_coeff;
};

static const struct tsl2563_lux_coeff tsl2563_lux_table[] = {
	{ TSL2563_FRAC10K(1300), TSL2563_FRAC10K(315), TSL2563_FRAC10K(262) },
	{ TSL2563_FRAC10K(2600), TSL2563_FRAC10K(337), TSL2563_FRAC10K(430) },
	{ TSL2563_FRAC10K(3900), TSL2563_FRAC10K(363), TSL2563_FRAC10K(529) },
	{ TSL2563_FRAC10K(5200), TSL2563_FRAC10K(392), TSL2563_FRAC10K(605) },
	{ TSL2563_FRAC10K(6500), TSL2563_FRAC10K(229), TSL2563_FRAC10K(291) },
	{ TSL2563_FRAC10K(8000), TSL2563_FRAC10K(157), TSL2563_FRAC10K(180) },
	{ TSL2563_FRAC10K(13000), TSL2563_FRAC10K(34), TSL2563_FRAC10K(26) },
	{ UINT64_MAX, 0, 0 },
};

/**
 * struct tsl2563_chip - per-device state, reached with iio_priv(). Every
 * callback runs under the device lock, so the fields need no lock of their own.
 * @client: borrowed; the device owns it after probe (iio_device_set_i2c()).
 * @configured: TIMING and thresholds on the chip match this state. Cleared
 *	when a write of them fails, so the next read reprograms the chip
 *	instead of trusting a half-done setup.
 * @settled: an integration has finished since the chip was powered and
 *	programmed. Probe leaves it false, so the first read waits for valid
 *	data instead of returning the zeros a fresh chip holds.
 * @id: the ID register as read at probe (part number and revision).
 * @calib0/@calib1: calibration scales in 1/1024.
 * @data0/@data1: the last normalised counts (402 ms, 16x).
 * @intr: what the driver last meant the INT register to hold (the kernel's
 *	chip->intr; persist 4 from probe).
 */
struct tsl2563_chip {
	struct bus_i2c_client *client;
	const struct tsl2563_gainlevel *gainlevel;
	bool configured;
	bool settled;
	uint16_t low_thres;
	uint16_t high_thres;
	uint8_t id;
	uint32_t calib0;
	uint32_t calib1;
	uint32_t cover_comp_gain;
	uint32_t data0;
	uint32_t data1;
	uint8_t intr;
};

static int tsl2563_write_reg(struct tsl2563_chip *chip, uint8_t reg, uint8_t val)
{
	return bus_smbus_write_byte_data(chip->client, TSL2563_CMD | reg, val);
}

static int tsl2563_set_power(struct tsl2563_chip *chip, bool on)
{
	return tsl2563_write_reg(chip, TSL2563_REG_CTRL,
				 on ? TSL2563_CMD_POWER_ON : TSL2563_CMD_POWER_OFF);
}

/* Return: 1 when powered, 0 when off, or -errno. */
static int tsl2563_get_power(struct tsl2563_chip *chip)
{
	int ret;

	ret = bus_smbus_read_byte_data(chip->client, TSL2563_CMD | TSL2563_REG_CTRL);
	if (ret < 0)
		return ret;
	return (ret & TSL2563_CTRL_POWER_MASK) == TSL2563_CMD_POWER_ON;
}

/* Program the current gain level and both thresholds (byte by byte, as the kernel). */
static int tsl2563_configure(struct tsl2563_chip *chip)
{
	const uint8_t writes[][2] = {
		{ TSL2563_REG_TIMING, chip->gainlevel->gaintime },
		{ TSL2563_REG_HIGHLOW, chip->high_thres & 0xff },
		{ TSL2563_REG_HIGHHIGH, chip->high_thres >> 8 },
		{ TSL2563_REG_LOWLOW, chip->low_thres & 0xff },
		{ TSL2563_REG_LOWHIGH, chip->low_thres >> 8 },
	};
	size_t i;
	int ret;

	chip->configured = false;
	for (i = 0; i < ARRAY_SIZE(writes); i++) {
		ret = tsl2563_write_reg(chip, writes[i][0], writes[i][1]);
		if (ret < 0)
			return ret;
	}
	chip->configured = true;
	return 0;
}

/* Power up and program again: the chip comes out of power-down unconfigured. */
static int tsl2563_power_on(struct tsl2563_chip *chip)
{
	int ret = tsl2563_set_power(chip, true);

	return ret < 0 ? ret : tsl2563_configure(chip);
}

/* One integration period of the current level, plus the kernel's margin. */
static void tsl2563_wait_adc(struct tsl2563_chip *chip)
{
	bus_msleep(chip->client->bus, chip->gainlevel->wait_ms + TSL2563_WAIT_MARGIN_MS);
}

/*
 * Step one level if channel 0 left the window: up (shorter, less gain) when
 * above it, down when below. After a change the chip gets two full periods
 * so the data registers hold a conversion made entirely at the new setting.
 * Return: 1 if the level changed, 0 if not, -errno if TIMING could not be
 * written (then the level is unchanged; the kernel ignores that error and
 * would read the next values at the wrong scale).
 */
static int tsl2563_adjust_gainlevel(struct tsl2563_chip *chip, uint16_t adc)
{
	const struct tsl2563_gainlevel *old = chip->gainlevel;
	int ret;

	if (adc <= old->max && adc >= old->min)
		return 0;
	if (adc > old->max && old + 1 < tsl2563_gainlevels + TSL2563_NLEVELS)
		chip->gainlevel = old + 1;
	else if (adc < old->min && old > tsl2563_gainlevels)
		chip->gainlevel = old - 1;
	else
		return 0;
	ret = tsl2563_write_reg(chip, TSL2563_REG_TIMING, chip->gainlevel->gaintime);
	if (ret < 0) {
		chip->gainlevel = old;
		chip->configured = false;
		return ret;
	}
	tsl2563_wait_adc(chip);
	tsl2563_wait_adc(chip);
	return 1;
}

/* Normalise a count to 402 ms and 16x: +5 bits for 13.7 ms, +2 for 101 ms, +4 for 1x. */
static uint32_t tsl2563_normalize_adc(uint16_t adc, uint8_t timing)
{
	unsigned int shift = 0;

	switch (timing & TSL2563_TIMING_MASK) {
	case TSL2563_TIMING_13MS:
		shift += 5;
		break;
	case TSL2563_TIMING_100MS:
		shift += 2;
		break;
	default:
		break;
	}
	if (!(timing & TSL2563_TIMING_GAIN16))
		shift += 4;
	return (uint32_t)adc << shift;
}

/*
 * Read both channels at a gain level that suits the light, and keep the
 * normalised counts in @chip. A chip found powered down (or left
 * half-configured by an earlier bus error) is powered and programmed first;
 * then, as after probe, it gets one integration period before the first
 * read. The kernel powers the chip off again 5 s after the last read;
 * without a timer of our own the chip stays on
 * between reads (remove() powers it down).
 */
static int tsl2563_get_adc(struct tsl2563_chip *chip)
{
	uint8_t timing;
	int adc0, adc1, steps, ret;

	ret = tsl2563_get_power(chip);
	if (ret < 0)
		return ret;
	if (!ret || !chip->configured) {
		chip->settled = false;
		ret = tsl2563_power_on(chip);
		if (ret < 0)
			return ret;
	}
	if (!chip->settled) {
		tsl2563_wait_adc(chip);
		chip->settled = true;
	}
	for (steps = 0;; steps++) {
		adc0 = bus_smbus_read_word_data(chip->client, TSL2563_CMD | TSL2563_REG_DATA0LOW);
		if (adc0 < 0)
			return adc0;
		adc1 = bus_smbus_read_word_data(chip->client, TSL2563_CMD | TSL2563_REG_DATA1LOW);
		if (adc1 < 0)
			return adc1;
		/* the counts were made at this setting, whatever adjusting does next */
		timing = chip->gainlevel->gaintime;
		if (steps >= TSL2563_GAIN_STEPS_MAX)
			break;
		ret = tsl2563_adjust_gainlevel(chip, (uint16_t)adc0);
		if (ret < 0)
			return ret;
		if (ret == 0)
			break;
	}
	chip->data0 = tsl2563_normalize_adc((uint16_t)adc0, timing);
	chip->data1 = tsl2563_normalize_adc((uint16_t)adc1, timing);
	return 0;
}

static int tsl2563_calib_to_sysfs(uint32_t calib)
{
	return (int)((calib * TSL2563_CALIB_BASE_SYSFS + (1U << (TSL2563_CALIB_FRAC_BITS - 1)))
		     >> TSL2563_CALIB_FRAC_BITS);
}

static uint32_t tsl2563_calib_from_sysfs(int value)
{
	return ((uint32_t)value << TSL2563_CALIB_FRAC_BITS) / TSL2563_CALIB_BASE_SYSFS;
}

/* Apply a calibration scale; truncated to 32 bits as the kernel's u32 result is. */
static uint32_t tsl2563_calib_adc(uint32_t adc, uint32_t calib)
{
	return (uint32_t)(((uint64_t)adc * calib) >> TSL2563_CALIB_FRAC_BITS);
}

/*
 * Lux from calibrated, normalised counts. The table's constants keep
 * c0*k0 >= c1*k1 within each row's ratio; should rounding ever invert that,
 * the answer is 0 lux (the kernel's unsigned subtraction would wrap).
 */
static unsigned int tsl2563_adc_to_lux(uint32_t adc0, uint32_t adc1)
{
	const struct tsl2563_lux_coeff *lp = tsl2563_lux_table;
	uint64_t ch0 = adc0, ch1 = adc1, ratio, pos, neg;

	ratio = ch0 ? (ch1 << TSL2563_ADC_FRAC_BITS) / ch0 : UINT64_MAX;
	while (lp->ch_ratio < ratio)
		lp++;
	pos = ch0 * lp->ch0_coeff;
	neg = ch1 * lp->ch1_coeff;
	if (neg > pos)
		return 0;
	return (unsigned int)((pos - neg) >> TSL2563_ADC_FRAC_BITS);
}

static int tsl2563_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int *val, int *val2, long mask)
{
	struct tsl2563_chip *chip = iio_priv(indio_dev);
	uint32_t calib0, calib1;
	int ret;

	(void)val2;
	switch (mask) {
	case IIO_CHAN_INFO_RAW:
	case IIO_CHAN_INFO_PROCESSED:
		if (chan->type != IIO_LIGHT && chan->type != IIO_INTENSITY)
			return -EINVAL;
		ret = tsl2563_get_adc(chip);
		if (ret < 0)
			return ret;
		if (chan->type == IIO_LIGHT) {
			/* u32 products, as the kernel computes them */
			calib0 = tsl2563_calib_adc(chip->data0, chip->calib0) *
				 chip->cover_comp_gain;
			calib1 = tsl2563_calib_adc(chip->data1, chip->calib1) *
				 chip->cover_comp_gain;
			*val = (int)tsl2563_adc_to_lux(calib0, calib1);
		} else {
			*val = (int)(chan->channel2 == IIO_MOD_LIGHT_BOTH ? chip->data0
									 : chip->data1);
		}
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_CALIBSCALE:
		*val = tsl2563_calib_to_sysfs(chan->channel2 == IIO_MOD_LIGHT_BOTH ?
					      chip->calib0 : chip->calib1);
		return IIO_VAL_INT;
	default:
		return -EINVAL;
	}
}

/*
 * Only the calibration scales are writable. The text is parsed as
 * INT_PLUS_MICRO and, as in the kernel, only the integer part counts
 * ("1500.9" is 1500).
 */
static int tsl2563_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			     int val, int val2, long mask)
{
	struct tsl2563_chip *chip = iio_priv(indio_dev);

	(void)val2;
	if (mask != IIO_CHAN_INFO_CALIBSCALE)
		return -EINVAL;
	if (val < 0 || val > TSL2563_CALIBSCALE_MAX)
		return -EINVAL;
	if (chan->channel2 == IIO_MOD_LIGHT_BOTH)
		chip->calib0 = tsl2563_calib_from_sysfs(val);
	else if (chan->channel2 == IIO_MOD_LIGHT_IR)
		chip->calib1 = tsl2563_calib_from_sysfs(val);
	else
		return -EINVAL;
	return 0;
}

/* ---- threshold events on the broadband count (channel 0 of the chip) ---- */

static const struct iio_event_spec tsl2563_events[] = {
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_RISING),
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_FALLING),
};

/* The thresholds as stored: raw DATA0 counts, u16 (70000 reads back 4464). */
static int tsl2563_read_thresh(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			       enum iio_event_type type, enum iio_event_direction dir,
			       enum iio_event_info info, int *val, int *val2)
{
	const struct tsl2563_chip *chip = iio_priv(indio_dev);

	(void)chan;
	(void)type;
	(void)info;
	(void)val2;
	switch (dir) {
	case IIO_EV_DIR_RISING:
		*val = chip->high_thres;
		return IIO_VAL_INT;
	case IIO_EV_DIR_FALLING:
		*val = chip->low_thres;
		return IIO_VAL_INT;
	default:
		return -EINVAL;
	}
}

/* No range check, as the kernel's: one SMBus word write (low byte first) of the u16. */
static int tsl2563_write_thresh(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				enum iio_event_type type, enum iio_event_direction dir,
				enum iio_event_info info, int val, int val2)
{
	struct tsl2563_chip *chip = iio_priv(indio_dev);
	uint8_t reg = dir == IIO_EV_DIR_RISING ? TSL2563_REG_HIGHLOW : TSL2563_REG_LOWLOW;
	int ret;

	(void)chan;
	(void)type;
	(void)info;
	(void)val2;
	ret = bus_smbus_write_word_data(chip->client, TSL2563_CMD | reg, (uint16_t)val);
	if (ret < 0)
		return ret;
	if (dir == IIO_EV_DIR_RISING)
		chip->high_thres = (uint16_t)val;
	else
		chip->low_thres = (uint16_t)val;
	return 0;
}

/* Both _en files read the chip's INT register: 1 while an interrupt mode is set. */
static int tsl2563_read_interrupt_config(struct iio_dev *indio_dev,
					 const struct iio_chan_spec *chan,
					 enum iio_event_type type, enum iio_event_direction dir)
{
	struct tsl2563_chip *chip = iio_priv(indio_dev);
	int ret;

	(void)chan;
	(void)type;
	(void)dir;
	ret = bus_smbus_read_byte_data(chip->client, TSL2563_CMD | TSL2563_REG_INT);
	if (ret < 0)
		return ret;
	return !!(ret & TSL2563_INT_MASK);
}

/*
 * On: level interrupts, the chip powered and programmed first if it is off
 * (a failed power read is taken as on, as the kernel's test of it does).
 * Off: the interrupt mode cleared. Writing the state it is in does nothing.
 */
static int tsl2563_write_interrupt_config(struct iio_dev *indio_dev,
					  const struct iio_chan_spec *chan,
					  enum iio_event_type type, enum iio_event_direction dir,
					  int state)
{
	struct tsl2563_chip *chip = iio_priv(indio_dev);
	int ret = 0;

	(void)chan;
	(void)type;
	(void)dir;
	if (state && !(chip->intr & TSL2563_INT_MASK)) {
		chip->intr = (uint8_t)((chip->intr & ~TSL2563_INT_MASK) | TSL2563_INT_LEVEL);
		if (!tsl2563_get_power(chip)) {
			ret = tsl2563_power_on(chip);
			if (ret < 0)
				return ret;
		}
		ret = tsl2563_write_reg(chip, TSL2563_REG_INT, chip->intr);
	}
	if (!state && (chip->intr & TSL2563_INT_MASK)) {
		chip->intr &= (uint8_t)~TSL2563_INT_MASK;
		ret = tsl2563_write_reg(chip, TSL2563_REG_INT, chip->intr);
	}
	return ret < 0 ? ret : 0;
}

/* INT: one "either" event on intensity channel 0, whichever threshold tripped; then clear. */
static void tsl2563_event_handler(struct iio_dev *indio_dev, int64_t timestamp)
{
	struct tsl2563_chip *chip = iio_priv(indio_dev);

	(void)timestamp;
	iio_push_event(indio_dev, IIO_UNMOD_EVENT_CODE(IIO_INTENSITY, 0, IIO_EV_TYPE_THRESH,
							IIO_EV_DIR_EITHER),
		       iio_get_time_ns(indio_dev));
	bus_smbus_write_byte(chip->client, TSL2563_CMD | TSL2563_CLEARINT);
}

/*
 * The kernel's channels; the broadband one carries the events with or
 * without an interrupt line, as the kernel's table does.
 */
static const struct iio_chan_spec tsl2563_channels[] = {
	{
		.type = IIO_LIGHT,
		.indexed = 1,
		.channel = 0,
		.info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED),
	}, {
		.type = IIO_INTENSITY,
		.modified = 1,
		.channel2 = IIO_MOD_LIGHT_BOTH,
		.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_CALIBSCALE),
		.event_spec = tsl2563_events,
		.num_event_specs = ARRAY_SIZE(tsl2563_events),
	}, {
		.type = IIO_INTENSITY,
		.modified = 1,
		.channel2 = IIO_MOD_LIGHT_IR,
		.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_CALIBSCALE),
	},
};

/* with an interrupt line */
static const struct iio_info tsl2563_info = {
	.read_raw = tsl2563_read_raw,
	.write_raw = tsl2563_write_raw,
	.read_event_value = tsl2563_read_thresh, .write_event_value = tsl2563_write_thresh,
	.read_event_config = tsl2563_read_interrupt_config,
	.write_event_config = tsl2563_write_interrupt_config,
};

/* without one: the event files exist and answer EINVAL (K-44) */
static const struct iio_info tsl2563_info_no_irq = {
	.read_raw = tsl2563_read_raw,
	.write_raw = tsl2563_write_raw,
};

/*
 * tsl2563_probe() - power the chip on and check it answers, read its ID,
 * program the first gain level and open thresholds. The ID is read (a bus
 * error there fails the probe) but, as in the kernel, not compared: the
 * TSL2562/3 part numbers are not documented well enough to refuse on.
 * Board property "amstaos,cover-comp-gain" (integer, default 1) multiplies
 * both channels before the lux formula, for a cover glass.
 */
static int tsl2563_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			 size_t errlen)
{
	struct iio_dev *indio_dev;
	struct tsl2563_chip *chip;
	int gain = 1;
	int ret;

	ret = iio_probe_prop_int(p, "amstaos,cover-comp-gain", &gain);
	if ((ret < 0 && ret != -ENOENT) || gain < 1)
		return iio_probe_err_bus(p, err, errlen, -EINVAL,
					 "amstaos,cover-comp-gain must be an integer >= 1");
	indio_dev = iio_device_alloc(sizeof(*chip));
	if (!indio_dev)
		return -ENOMEM;
	chip = iio_priv(indio_dev);
	chip->client = p->i2c;
	chip->gainlevel = &tsl2563_gainlevels[0];
	chip->low_thres = 0x0000;
	chip->high_thres = 0xffff;
	chip->calib0 = tsl2563_calib_from_sysfs(TSL2563_CALIB_BASE_SYSFS);
	chip->calib1 = tsl2563_calib_from_sysfs(TSL2563_CALIB_BASE_SYSFS);
	chip->cover_comp_gain = (uint32_t)gain;
	chip->intr = TSL2563_INT_PERSIST(4);

	ret = tsl2563_set_power(chip, true);
	if (ret < 0) {
		iio_probe_err_bus(p, err, errlen, ret, "no answer to power-on");
		goto err_put_dev;
	}
	ret = bus_smbus_read_byte_data(chip->client, TSL2563_CMD | TSL2563_REG_CTRL);
	if (ret < 0) {
		iio_probe_err_bus(p, err, errlen, ret, "reading CONTROL back failed");
		goto err_put_dev;
	}
	if ((ret & TSL2563_CTRL_POWER_MASK) != TSL2563_CMD_POWER_ON) {
		ret = iio_probe_err_bus(p, err, errlen, -ENODEV, "not a TSL256x: CONTROL reads "
					"0x%02x after power-on, expected 0x03", ret);
		goto err_put_dev;
	}
	ret = bus_smbus_read_byte_data(chip->client, TSL2563_CMD | TSL2563_REG_ID);
	if (ret < 0) {
		iio_probe_err_bus(p, err, errlen, ret, "reading the ID register failed");
		goto err_put_dev;
	}
	chip->id = (uint8_t)ret;
	ret = tsl2563_configure(chip);
	if (ret < 0) {
		iio_probe_err_bus(p, err, errlen, ret, "programming timing and thresholds failed");
		goto err_put_dev;
	}

	iio_device_setup(indio_dev, p->id->name, tsl2563_channels,
			 (int)ARRAY_SIZE(tsl2563_channels),
			 p->irq && p->irq->kind != IIO_IRQ_NONE ? &tsl2563_info :
								  &tsl2563_info_no_irq);
	indio_dev->label = p->label;
	/* the kernel's default when the line names no trigger type: rising */
	ret = iio_request_threaded_irq(indio_dev, p, IIO_IRQ_RISING, tsl2563_event_handler,
				       err, errlen);
	if (ret < 0 && ret != -ENOENT)
		goto err_put_dev;
	*out = indio_dev;
	return 0;

err_put_dev:
	iio_device_put(indio_dev);
	return ret;
}

/*
 * tsl2563_remove() - interrupts off, then power the chip down, as the
 * kernel's; a bus error here has nobody to tell.
 */
static void tsl2563_remove(struct iio_dev *indio_dev)
{
	struct tsl2563_chip *chip = iio_priv(indio_dev);

	chip->intr &= (uint8_t)~TSL2563_INT_MASK;
	tsl2563_write_reg(chip, TSL2563_REG_INT, chip->intr);
	tsl2563_set_power(chip, false);
}

static const struct iio_device_id tsl2563_id[] = {
	{ "tsl2560", 0 },
	{ "tsl2561", 1 },
	{ "tsl2562", 2 },
	{ "tsl2563", 3 },
	{ NULL, 0 }
};

/* the ADDR SEL pin: ground, float, VDD (reference/kernel-iio-facts.md, tsl2563) */
static const unsigned short tsl2563_addresses[] = { 0x29, 0x39, 0x49, IIO_I2C_ADDR_END };

static const struct iio_driver tsl2563_driver = {
	.name = "tsl2563",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = tsl2563_id,
	.probe = tsl2563_probe, .remove = tsl2563_remove,
	.address_list = tsl2563_addresses,
};
IIO_DRIVER_REGISTER(tsl2563_driver);
