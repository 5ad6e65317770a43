/*
 * ina2xx.c - driver for the TI INA219/INA220 and INA226/INA230/INA231 current
 * and power monitors (I2C), as Linux 6.1's drivers/iio/adc/ina2xx-adc.c
 * shows them: shunt voltage (in_voltage0), bus voltage (in_voltage1), power
 * (in_power2) and current (in_current3) as the chip's registers hold them,
 * their scales from the shunt resistor (micro-ohms, the DT property
 * "shunt-resistor", default 10 mOhm), the integration times, the INA226's
 * averaging and the INA219's PGA and bus range as hardwaregain.
 * Read for 6.1: the driver as of v6.0 (ina2xx_read_avail, kstrtobool,
 * devm_iio_kfifo_buffer_setup without a mode) with 6.1's void remove; its
 * strings match Debian's 6.1.0-57 module, and the QEMU rig's sysfs agrees
 * (tests/kernel-rig/ina2xx.conf).
 *
 * The calibration register is the datasheets' best value (4096 on the INA219,
 * 2048 on the INA226: the current register's LSB is the shunt register's
 * voltage LSB over the shunt), so a new shunt only changes the scales.
 * Capture is the kernel's INDIO_BUFFER_SOFTWARE kfifo filled by a thread of
 * the driver's own, no trigger: it polls the conversion-ready flag (INA219:
 * CNVR in the bus voltage register; INA226: CVRF in Mask/Enable) unless
 * in_allow_async_readout is set, reads each enabled register and pushes the
 * scan, once per conversion cycle of the chip.
 * Place in the flow: bus -> *driver* -> core. Must not format text or log.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "iio_kit.h"
#include "iio_buffer.h"
#include "iio_core.h"
#include "iio_value.h"
#include "bus/bus.h"

#define INA2XX_CONFIG			0x00
#define INA2XX_SHUNT_VOLTAGE		0x01
#define INA2XX_BUS_VOLTAGE		0x02
#define INA2XX_POWER			0x03
#define INA2XX_CURRENT			0x04
#define INA2XX_CALIBRATION		0x05
#define INA226_MASK_ENABLE		0x06
#define INA226_CVRF			BIT(3)
#define INA219_CNVR			BIT(1)

#define INA219_CONFIG_DEFAULT		0x399F	/* PGA /8, 32 V, 12-bit, continuous */
#define INA219_DEFAULT_IT		532
#define INA219_DEFAULT_BRNG		1	/* hardwaregain 1: the 32 V range */
#define INA219_DEFAULT_PGA		125	/* gain 1/8 in thousandths */
#define INA226_CONFIG_DEFAULT		0x4327
#define INA226_DEFAULT_AVG		4
#define INA226_DEFAULT_IT		1110
#define INA2XX_RSHUNT_DEFAULT		10000	/* uOhm */

#define INA2XX_MODE_MASK		GENMASK(3, 0)
#define INA219_PGA_MASK			GENMASK(12, 11)
#define INA219_BRNG_MASK		BIT(13)
#define INA226_AVG_MASK			GENMASK(11, 9)
#define INA219_ITB_MASK			GENMASK(10, 7)
#define INA226_ITB_MASK			GENMASK(8, 6)
#define INA219_ITS_MASK			GENMASK(6, 3)
#define INA226_ITS_MASK			GENMASK(5, 3)
#define INA219_BUS_VOLTAGE_SHIFT	3
#define INA219_IT_AVERAGING		0x8	/* the ADC field's averaging half */

/* The kthread polls this much ahead of the chip's cycle when it syncs on the flag. */
#define INA2XX_POLL_AHEAD_US		200
/* Between polls of a conversion not ready (the kernel spins on the bus). */
#define INA2XX_NOT_READY_NS		100000L
#define INA2XX_LOCK_WAIT_NS		100000L
#define INA2XX_SCAN_BYTES		16	/* four u16 and the timestamp's s64 */

enum ina2xx_part { ina219, ina226, INA2XX_NPARTS };

struct ina2xx_config {
	uint16_t config_default;
	int calibration_value;
	int shunt_voltage_lsb;		/* nV */
	int bus_voltage_shift;
	int bus_voltage_lsb;		/* uV */
	int power_lsb_factor;		/* power LSB over current LSB */
	enum ina2xx_part part;
};

static const struct ina2xx_config ina2xx_configs[INA2XX_NPARTS] = {
	[ina219] = { INA219_CONFIG_DEFAULT, 4096, 10000, INA219_BUS_VOLTAGE_SHIFT, 4000, 20,
		     ina219 },
	[ina226] = { INA226_CONFIG_DEFAULT, 2048, 2500, 0, 1250, 25, ina226 },
};

/**
 * struct ina2xx_chip - the device's state.
 * @config_reg: the config register as last written (the kernel's regmap
 *	caches it: reading it back costs no transfer).
 * @scan: the kernel's scan struct, kept between scans (its padding too).
 */
struct ina2xx_chip {
	struct bus_i2c_client *client;
	const struct ina2xx_config *config;
	unsigned int config_reg;
	unsigned int shunt_uohm;
	int avg;
	int int_time_vbus;		/* us */
	int int_time_vshunt;		/* us */
	int range_vbus;			/* V */
	int pga_gain_vshunt;		/* thousandths */
	bool allow_async_readout;
	struct iio_dev *dev;
	uint64_t scan_mask;		/* the kernel's active_scan_mask: timestamp bit 4 */
	pthread_t thread;
	bool running;
	atomic_bool stop;
	pthread_mutex_t wake_lock;	/* the thread's sleep, cut short by a stop */
	pthread_cond_t wake;
	_Alignas(8) uint8_t scan[INA2XX_SCAN_BYTES];
};

#define INA2XX_CHAN(_type, _index, _shared) {					\
	.type = (_type), .address = INA2XX_SHUNT_VOLTAGE + (_index),		\
	.indexed = 1, .channel = (_index), .scan_index = (_index),		\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE),	\
	.info_mask_shared_by_dir = (_shared),					\
	.scan_type = { .sign = 'u', .realbits = 16, .storagebits = 16,		\
		       .endianness = IIO_CPU },					\
}

#define INA2XX_CHAN_VOLTAGE(_index, _extra, _shared, _shift) {			\
	.type = IIO_VOLTAGE, .address = INA2XX_SHUNT_VOLTAGE + (_index),	\
	.indexed = 1, .channel = (_index), .scan_index = (_index),		\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) |	\
			      BIT(IIO_CHAN_INFO_INT_TIME) | (_extra),		\
	.info_mask_separate_available = (_extra),				\
	.info_mask_shared_by_dir = (_shared),					\
	.scan_type = { .sign = 'u', .realbits = 16 - (_shift), .storagebits = 16,	\
		       .shift = (_shift), .endianness = IIO_LE },		\
}

#define INA2XX_CHAN_TIMESTAMP(si) {						\
	.type = IIO_TIMESTAMP, .channel = -1, .scan_index = (si),		\
	.scan_type = { .sign = 's', .realbits = 64, .storagebits = 64 },	\
}

#define INA219_SHARED	BIT(IIO_CHAN_INFO_SAMP_FREQ)
#define INA226_SHARED	(BIT(IIO_CHAN_INFO_SAMP_FREQ) | BIT(IIO_CHAN_INFO_OVERSAMPLING_RATIO))
#define INA219_GAIN	BIT(IIO_CHAN_INFO_HARDWAREGAIN)

static const struct iio_chan_spec ina219_channels[] = {
	INA2XX_CHAN_VOLTAGE(0, INA219_GAIN, INA219_SHARED, 0),
	INA2XX_CHAN_VOLTAGE(1, INA219_GAIN, INA219_SHARED, INA219_BUS_VOLTAGE_SHIFT),
	INA2XX_CHAN(IIO_POWER, 2, INA219_SHARED),
	INA2XX_CHAN(IIO_CURRENT, 3, INA219_SHARED),
	INA2XX_CHAN_TIMESTAMP(4),
};

static const struct iio_chan_spec ina226_channels[] = {
	INA2XX_CHAN_VOLTAGE(0, 0, INA226_SHARED, 0),
	INA2XX_CHAN_VOLTAGE(1, 0, INA226_SHARED, 0),
	INA2XX_CHAN(IIO_POWER, 2, INA226_SHARED),
	INA2XX_CHAN(IIO_CURRENT, 3, INA226_SHARED),
	INA2XX_CHAN_TIMESTAMP(4),
};

/* ---- the settings, each a table lookup as the kernel's find_closest() ---- */

/*
 * find_closest() of <linux/util_macros.h> on an ascending table: the first
 * entry whose midpoint with the next (rounded up) is at or above @x.
 */
static int ina2xx_closest(unsigned int x, const int *tab, int n)
{
	int i;

	for (i = 0; i < n - 1; i++)
		if (x <= (unsigned int)(tab[i] + tab[i + 1] + 1) / 2)
			break;
	return i;
}

static void ina2xx_field(unsigned int *config, unsigned long mask, unsigned int bits)
{
	*config = (*config & ~(unsigned int)mask) | (unsigned int)FIELD_PREP(mask, bits);
}

/* INA226 datasheet, table 3: AVG bit settings */
static const int ina226_avg_tab[] = { 1, 4, 16, 64, 128, 256, 512, 1024 };
/* INA226 conversion times (VBUSCT, VSHCT), us */
static const int ina226_conv_time_tab[] = { 140, 204, 332, 588, 1100, 2116, 4156, 8244 };
/* INA219 BADC/SADC: 9..12 bits, then 12 bits averaged over 1..128 samples, us */
static const int ina219_conv_time_tab_subsample[] = { 84, 148, 276, 532 };
static const int ina219_conv_time_tab_average[] = { 532, 1060, 2130, 4260, 8510, 17020,
						     34050, 68100 };

static int ina226_set_average(struct ina2xx_chip *chip, unsigned int val, unsigned int *config)
{
	int bits;

	if (val > 1024 || val < 1)
		return -EINVAL;
	bits = ina2xx_closest(val, ina226_avg_tab, (int)ARRAY_SIZE(ina226_avg_tab));
	chip->avg = ina226_avg_tab[bits];
	ina2xx_field(config, INA226_AVG_MASK, (unsigned int)bits);
	return 0;
}

static int ina226_set_int_time(struct ina2xx_chip *chip, bool shunt, unsigned int val_us,
			       unsigned int *config)
{
	int bits;

	if (val_us > 8244 || val_us < 140)
		return -EINVAL;
	bits = ina2xx_closest(val_us, ina226_conv_time_tab,
			      (int)ARRAY_SIZE(ina226_conv_time_tab));
	*(shunt ? &chip->int_time_vshunt : &chip->int_time_vbus) = ina226_conv_time_tab[bits];
	ina2xx_field(config, shunt ? INA226_ITS_MASK : INA226_ITB_MASK, (unsigned int)bits);
	return 0;
}

static int ina219_set_int_time(struct ina2xx_chip *chip, bool shunt, unsigned int val_us,
			       unsigned int *config)
{
	const int *tab = ina219_conv_time_tab_average;
	int n = (int)ARRAY_SIZE(ina219_conv_time_tab_average);
	unsigned int avg_bit = INA219_IT_AVERAGING;
	int bits;

	if (val_us > 68100 || val_us < 84)
		return -EINVAL;
	if (val_us <= 532) {
		tab = ina219_conv_time_tab_subsample;
		n = (int)ARRAY_SIZE(ina219_conv_time_tab_subsample);
		avg_bit = 0;
	}
	bits = ina2xx_closest(val_us, tab, n);
	*(shunt ? &chip->int_time_vshunt : &chip->int_time_vbus) = tab[bits];
	ina2xx_field(config, shunt ? INA219_ITS_MASK : INA219_ITB_MASK,
		     (unsigned int)bits | avg_bit);
	return 0;
}

/* hardwaregain of the bus voltage: 1 is the 32 V range (BRNG 1), 2 the 16 V one */
static const int ina219_vbus_range_tab[] = { 1, 2 };

static int ina219_set_vbus_range_denom(struct ina2xx_chip *chip, int range,
				       unsigned int *config)
{
	if (range != 1 && range != 2)
		return -EINVAL;
	chip->range_vbus = range == 1 ? 32 : 16;
	ina2xx_field(config, INA219_BRNG_MASK, range == 1);
	return 0;
}

/* hardwaregain of the shunt voltage: the PGA's 1/8..1, field 3..0 */
static const int ina219_vshunt_gain_tab[] = { 125, 250, 500, 1000 };
static const int ina219_vshunt_gain_frac[] = { 125, 1000, 250, 1000, 500, 1000, 1000, 1000 };

static int ina219_set_vshunt_pga_gain(struct ina2xx_chip *chip, int gain, unsigned int *config)
{
	int bits;

	if (gain < 125 || gain > 1000)
		return -EINVAL;
	bits = ina2xx_closest((unsigned int)gain, ina219_vshunt_gain_tab,
			      (int)ARRAY_SIZE(ina219_vshunt_gain_tab));
	chip->pga_gain_vshunt = ina219_vshunt_gain_tab[bits];
	ina2xx_field(config, INA219_PGA_MASK, 3u - (unsigned int)bits);
	return 0;
}

/* The sampling period of a full P = U x I cycle, us. */
static int ina2xx_sampling_us(const struct ina2xx_chip *chip)
{
	return (chip->int_time_vbus + chip->int_time_vshunt) * chip->avg;
}

/* ---- read_raw, write_raw ---- */

static int ina2xx_read_reg(struct ina2xx_chip *chip, unsigned int reg, unsigned int *val)
{
	int ret = bus_smbus_read_word_swapped(chip->client, (uint8_t)reg);

	if (ret < 0)
		return ret;
	*val = (unsigned int)ret;
	return 0;
}

static int ina2xx_write_reg(struct ina2xx_chip *chip, unsigned int reg, unsigned int val)
{
	int ret = bus_smbus_write_word_swapped(chip->client, (uint8_t)reg, (uint16_t)val);

	if (!ret && reg == INA2XX_CONFIG)
		chip->config_reg = val & 0xffff;
	return ret;
}

static int ina2xx_read_scale(const struct ina2xx_chip *chip, unsigned long reg, int *val,
			     int *val2)
{
	const struct ina2xx_config *c = chip->config;

	switch (reg) {
	case INA2XX_SHUNT_VOLTAGE:	/* mV = raw * lsb (nV) / 1000000 */
		*val = c->shunt_voltage_lsb;
		*val2 = 1000000;
		return IIO_VAL_FRACTIONAL;
	case INA2XX_BUS_VOLTAGE:	/* mV = raw * lsb (uV) / 1000 */
		*val = c->bus_voltage_lsb;
		*val2 = 1000;
		return IIO_VAL_FRACTIONAL;
	case INA2XX_CURRENT:		/* current LSB (mA) = shunt LSB (nV) / shunt (uOhm) */
		*val = c->shunt_voltage_lsb;
		*val2 = (int)chip->shunt_uohm;
		return IIO_VAL_FRACTIONAL;
	case INA2XX_POWER:		/* power LSB (mW) = factor x current LSB */
		*val = c->power_lsb_factor * c->shunt_voltage_lsb;
		*val2 = (int)chip->shunt_uohm;
		return IIO_VAL_FRACTIONAL;
	}
	return -EINVAL;
}

static int ina2xx_read_raw_reg(struct ina2xx_chip *chip, unsigned long reg, int *val)
{
	unsigned int regval;
	int ret = ina2xx_read_reg(chip, (unsigned int)reg, &regval);

	if (ret)
		return ret;
	if (reg == INA2XX_SHUNT_VOLTAGE || reg == INA2XX_CURRENT)
		*val = (int16_t)regval;
	else
		*val = (int)regval;
	if (reg == INA2XX_BUS_VOLTAGE)
		*val >>= chip->config->bus_voltage_shift;
	return IIO_VAL_INT;
}

static int ina2xx_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   int *val, int *val2, long mask)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		return ina2xx_read_raw_reg(chip, chan->address, val);
	case IIO_CHAN_INFO_OVERSAMPLING_RATIO:
		*val = chip->avg;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_INT_TIME:
		*val = 0;
		*val2 = chan->address == INA2XX_SHUNT_VOLTAGE ? chip->int_time_vshunt :
								chip->int_time_vbus;
		return IIO_VAL_INT_PLUS_MICRO;
	case IIO_CHAN_INFO_SAMP_FREQ:	/* read-only: 1 / (AVG x (CT_bus + CT_shunt)) */
		*val = (1000000 + ina2xx_sampling_us(chip) / 2) / ina2xx_sampling_us(chip);
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		return ina2xx_read_scale(chip, chan->address, val, val2);
	case IIO_CHAN_INFO_HARDWAREGAIN:
		if (chan->address == INA2XX_SHUNT_VOLTAGE) {
			*val = chip->pga_gain_vshunt;
			*val2 = 1000;
			return IIO_VAL_FRACTIONAL;
		}
		*val = chip->range_vbus == 32 ? 1 : 2;
		return IIO_VAL_INT;
	}
	return -EINVAL;
}

static int ina2xx_read_avail(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			     const int **vals, int *type, int *length, long mask)
{
	(void)indio_dev;
	if (mask != IIO_CHAN_INFO_HARDWAREGAIN)
		return -EINVAL;
	if (chan->address == INA2XX_SHUNT_VOLTAGE) {
		*type = IIO_VAL_FRACTIONAL;
		*length = (int)ARRAY_SIZE(ina219_vshunt_gain_frac);
		*vals = ina219_vshunt_gain_frac;
		return IIO_AVAIL_LIST;
	}
	*type = IIO_VAL_INT;
	*length = (int)ARRAY_SIZE(ina219_vbus_range_tab);
	*vals = ina219_vbus_range_tab;
	return IIO_AVAIL_LIST;
}

static int ina2xx_set(struct ina2xx_chip *chip, const struct iio_chan_spec *chan, int val,
		      int val2, long mask, unsigned int *config)
{
	bool shunt = chan->address == INA2XX_SHUNT_VOLTAGE;

	switch (mask) {
	case IIO_CHAN_INFO_OVERSAMPLING_RATIO:
		return ina226_set_average(chip, (unsigned int)val, config);
	case IIO_CHAN_INFO_INT_TIME:	/* the microseconds alone: "1" is 0 us */
		if (chip->config->part == ina226)
			return ina226_set_int_time(chip, shunt, (unsigned int)val2, config);
		return ina219_set_int_time(chip, shunt, (unsigned int)val2, config);
	case IIO_CHAN_INFO_HARDWAREGAIN:
		if (shunt)
			return ina219_set_vshunt_pga_gain(chip, val * 1000 + val2 / 1000, config);
		return ina219_set_vbus_range_denom(chip, val, config);
	}
	return -EINVAL;
}

static int ina2xx_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int val, int val2, long mask)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);
	unsigned int config = chip->config_reg;
	int ret;

	if (iio_buffer_enabled(indio_dev))
		return -EBUSY;
	ret = ina2xx_set(chip, chan, val, val2, mask, &config);
	if (!ret && config != chip->config_reg)
		ret = ina2xx_write_reg(chip, INA2XX_CONFIG, config);
	return ret;
}

/* ---- device attributes ---- */

static int ina2xx_allow_async_readout_show(struct iio_dev *indio_dev, uintptr_t priv,
					   char *buf, size_t len)
{
	const struct ina2xx_chip *chip = iio_priv(indio_dev);

	(void)priv;
	return snprintf(buf, len, "%d\n", chip->allow_async_readout);
}

static int ina2xx_allow_async_readout_store(struct iio_dev *indio_dev, uintptr_t priv,
					    const char *buf, size_t len)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);
	bool val;
	int ret;

	(void)priv;
	(void)len;
	ret = iio_kstrtobool(buf, &val);
	if (ret)
		return ret;
	chip->allow_async_readout = val;
	return 0;
}

static int ina2xx_shunt_resistor_show(struct iio_dev *indio_dev, uintptr_t priv, char *buf,
				      size_t len)
{
	const struct ina2xx_chip *chip = iio_priv(indio_dev);
	const int vals[2] = { (int)chip->shunt_uohm, 1000000 };

	(void)priv;
	return iio_format_value(buf, len, IIO_VAL_FRACTIONAL, 2, vals);
}

/* 1 uOhm .. INT_MAX uOhm, as set_shunt_resistor() takes it. */
static int ina2xx_set_shunt(struct ina2xx_chip *chip, long long uohm)
{
	if (uohm <= 0 || uohm > INT_MAX)
		return -EINVAL;
	chip->shunt_uohm = (unsigned int)uohm;
	return 0;
}

/*
 * Ohms with up to six decimals. The kernel computes val * 1000000 in an int,
 * which wraps from 2147.483648 ohms on (4295 becomes 32704 uOhm): refused
 * here, as the values just past the limit are there (K-70).
 */
static int ina2xx_shunt_resistor_store(struct iio_dev *indio_dev, uintptr_t priv,
				       const char *buf, size_t len)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);
	int val, val_fract, ret;

	(void)priv;
	(void)len;
	ret = iio_str_to_fixpoint(buf, 100000, &val, &val_fract);
	if (ret)
		return ret;
	if (!iio_value_int_part_fits(buf))
		return -EINVAL;
	return ina2xx_set_shunt(chip, (long long)val * 1000000 + val_fract);
}

static int ina2xx_const_show(struct iio_dev *indio_dev, uintptr_t priv, char *buf, size_t len)
{
	(void)indio_dev;
	return snprintf(buf, len, "%s\n", (const char *)priv);
}

#define INA2XX_ATTRS(avail) {							\
	{ "in_allow_async_readout", ina2xx_allow_async_readout_show,		\
	  ina2xx_allow_async_readout_store, 0 },				\
	{ "integration_time_available", ina2xx_const_show, NULL, (uintptr_t)(avail) },	\
	{ "in_shunt_resistor", ina2xx_shunt_resistor_show,				\
	  ina2xx_shunt_resistor_store, 0 },					\
	{ NULL, NULL, NULL, 0 },						\
}

static const struct iio_dev_attr ina219_attrs[] = INA2XX_ATTRS(
	"0.000084 0.000148 0.000276 0.000532 0.001060 0.002130 0.004260 0.008510 0.017020 "
	"0.034050 0.068100");
static const struct iio_dev_attr ina226_attrs[] = INA2XX_ATTRS(
	"0.000140 0.000204 0.000332 0.000588 0.001100 0.002116 0.004156 0.008244");

/* ---- capture: the kernel's kthread, as a thread of the device's own ---- */

static void ina2xx_ns_add(struct timespec *t, long long ns)
{
	long long v = (long long)t->tv_sec * 1000000000LL + t->tv_nsec + ns;

	t->tv_sec = (time_t)(v / 1000000000LL);
	t->tv_nsec = (long)(v % 1000000000LL);
}

static long long ina2xx_ns_diff(const struct timespec *a, const struct timespec *b)
{
	return ((long long)a->tv_sec - b->tv_sec) * 1000000000LL + (a->tv_nsec - b->tv_nsec);
}

/* The conversion-ready flag: 1, 0, or -errno. */
static int ina2xx_conversion_ready(struct ina2xx_chip *chip)
{
	bool is226 = chip->config->part == ina226;
	unsigned int alert;
	int ret;

	ret = ina2xx_read_reg(chip, is226 ? INA226_MASK_ENABLE : INA2XX_BUS_VOLTAGE, &alert);
	if (ret)
		return ret;
	return !!(alert & (is226 ? INA226_CVRF : INA219_CNVR));
}

/*
 * One scan: each set bit of the active mask read from SHUNT_VOLTAGE + bit
 * into the next u16, the timestamp's bit included (the kernel reads the
 * calibration register for it, into what the timestamp then covers or the
 * padding before it), pushed with the time the scan began.
 */
static int ina2xx_work_buffer(struct iio_dev *indio_dev)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);
	int64_t time = iio_get_time_ns(indio_dev);
	unsigned int bit, val;
	uint16_t v;
	int ret, i = 0;

	for (bit = 0; bit < 5; bit++) {
		if (!(chip->scan_mask & BIT_ULL(bit)))
			continue;
		ret = ina2xx_read_reg(chip, INA2XX_SHUNT_VOLTAGE + bit, &val);
		if (ret)
			return ret;
		v = (uint16_t)val;
		memcpy(&chip->scan[2 * i++], &v, sizeof(v));
	}
	(void)iio_push_to_buffers_with_timestamp(indio_dev, chip->scan, time);
	return 0;
}

/* Under the device lock: wait for a conversion (unless async), then one scan. */
static int ina2xx_capture_step(struct iio_dev *indio_dev, struct timespec *next)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);
	const struct timespec wait = { 0, INA2XX_NOT_READY_NS };
	int ret;

	while (!chip->allow_async_readout && !atomic_load(&chip->stop)) {
		ret = ina2xx_conversion_ready(chip);
		if (ret < 0)
			return ret;
		if (ret)
			break;
		clock_gettime(CLOCK_MONOTONIC, next);	/* not yet: the reference moves */
		iio_device_unlock(indio_dev);
		nanosleep(&wait, NULL);
		while (!iio_device_trylock(indio_dev))
			if (atomic_load(&chip->stop))
				return -EINTR;
	}
	return atomic_load(&chip->stop) ? 0 : ina2xx_work_buffer(indio_dev);
}

/*
 * Sleep to the next poll, a whole number of periods after the last (late
 * ones dropped); a stop wakes it (an INA226 cycle may last 17 s).
 */
static void ina2xx_capture_sleep(struct ina2xx_chip *chip, struct timespec *next,
				 long long period_ns)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	do
		ina2xx_ns_add(next, period_ns);
	while (ina2xx_ns_diff(next, &now) <= 0);
	pthread_mutex_lock(&chip->wake_lock);
	while (!atomic_load(&chip->stop) &&
	       pthread_cond_timedwait(&chip->wake, &chip->wake_lock, next) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&chip->wake_lock);
}

static void *ina2xx_capture_main(void *arg)
{
	struct iio_dev *indio_dev = arg;
	struct ina2xx_chip *chip = iio_priv(indio_dev);
	const struct timespec wait = { 0, INA2XX_LOCK_WAIT_NS };
	long long period_ns = 1000LL * ina2xx_sampling_us(chip);
	struct timespec next;
	int ret = 0;

	if (!chip->allow_async_readout)
		period_ns -= 1000LL * INA2XX_POLL_AHEAD_US;
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&chip->stop)) {
		/* trylock: predisable holds the lock while it joins this thread */
		if (!iio_device_trylock(indio_dev)) {
			nanosleep(&wait, NULL);
			continue;
		}
		ret = ina2xx_capture_step(indio_dev, &next);
		if (ret != -EINTR)
			iio_device_unlock(indio_dev);
		if (ret)
			break;
		ina2xx_capture_sleep(chip, &next, period_ns);
	}
	/* the kernel's thread just ends; here the readers learn why (K-71) */
	if (ret && ret != -EINTR && !atomic_load(&chip->stop))
		iio_device_buffer_fail(indio_dev, ret);
	return NULL;
}

static int ina2xx_buffer_enable(struct iio_dev *indio_dev)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);
	int ret;

	atomic_store(&chip->stop, false);
	ret = pthread_create(&chip->thread, NULL, ina2xx_capture_main, indio_dev);
	if (ret)
		return -ret;
	chip->running = true;
	return 0;
}

static int ina2xx_buffer_disable(struct iio_dev *indio_dev)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);

	if (!chip->running)
		return 0;
	pthread_mutex_lock(&chip->wake_lock);
	atomic_store(&chip->stop, true);
	pthread_cond_signal(&chip->wake);
	pthread_mutex_unlock(&chip->wake_lock);
	pthread_join(chip->thread, NULL);
	chip->running = false;
	return 0;
}

/* Never called: no trigger drives a software buffer. */
static int ina2xx_handler(struct iio_dev *indio_dev, int64_t ts)
{
	(void)indio_dev;
	(void)ts;
	return -EINVAL;
}

/* The scan the thread reads: the elements' bits and the timestamp's (bit 4), the kernel's mask. */
static int ina2xx_update_scan_mode(struct iio_dev *indio_dev, uint64_t active_mask)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);

	chip->scan_mask = active_mask | (iio_buffer_next_ts(indio_dev) ? BIT_ULL(4) : 0);
	return 0;
}

static const struct iio_buffer_setup ina2xx_setup_ops = {
	.handler = ina2xx_handler,
	.update_scan_mode = ina2xx_update_scan_mode,
	.postenable = ina2xx_buffer_enable,
	.predisable = ina2xx_buffer_disable,
	.software = true,
};

/*
 * Power down: the mode bits cleared, the rest of the config kept; written
 * only if that changes it (regmap_update_bits() on the cached config).
 */
static void ina2xx_remove(struct iio_dev *indio_dev)
{
	struct ina2xx_chip *chip = iio_priv(indio_dev);

	ina2xx_buffer_disable(indio_dev);	/* the buffers end first; this is for safety */
	if (chip->config_reg & INA2XX_MODE_MASK)
		ina2xx_write_reg(chip, INA2XX_CONFIG,
				 chip->config_reg & ~(unsigned int)INA2XX_MODE_MASK);
	pthread_cond_destroy(&chip->wake);
	pthread_mutex_destroy(&chip->wake_lock);
}

/* The thread's sleep is on CLOCK_MONOTONIC, as its deadlines are. */
static int ina2xx_wake_init(struct ina2xx_chip *chip)
{
	pthread_condattr_t attr;
	int ret;

	ret = pthread_condattr_init(&attr);
	if (ret)
		return -ret;
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	ret = pthread_cond_init(&chip->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		return -ret;
	pthread_mutex_init(&chip->wake_lock, NULL);
	return 0;
}

/* ---- probe ---- */

static const struct iio_info ina219_info = {
	.read_raw = ina2xx_read_raw,
	.read_avail = ina2xx_read_avail,
	.write_raw = ina2xx_write_raw,
	.attrs = ina219_attrs,
};

static const struct iio_info ina226_info = {
	.read_raw = ina2xx_read_raw,
	.write_raw = ina2xx_write_raw,
	.attrs = ina226_attrs,
};

/* The probe's config: the part's default with the kernel's settings patched in. */
static unsigned int ina2xx_default_config(struct ina2xx_chip *chip)
{
	unsigned int val = chip->config->config_default;

	if (chip->config->part == ina226) {
		ina226_set_average(chip, INA226_DEFAULT_AVG, &val);
		ina226_set_int_time(chip, false, INA226_DEFAULT_IT, &val);
		ina226_set_int_time(chip, true, INA226_DEFAULT_IT, &val);
	} else {
		chip->avg = 1;
		ina219_set_int_time(chip, false, INA219_DEFAULT_IT, &val);
		ina219_set_int_time(chip, true, INA219_DEFAULT_IT, &val);
		ina219_set_vbus_range_denom(chip, INA219_DEFAULT_BRNG, &val);
		ina219_set_vshunt_pga_gain(chip, INA219_DEFAULT_PGA, &val);
	}
	return val;
}

static int ina2xx_init(struct ina2xx_chip *chip)
{
	int ret = ina2xx_write_reg(chip, INA2XX_CONFIG, ina2xx_default_config(chip));

	if (ret)
		return ret;
	return ina2xx_write_reg(chip, INA2XX_CALIBRATION,
				(unsigned int)chip->config->calibration_value);
}

static int ina2xx_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			size_t errlen)
{
	struct iio_dev *indio_dev;
	struct ina2xx_chip *chip;
	int part, uohm = INA2XX_RSHUNT_DEFAULT, ret;

	part = iio_probe_part(p, INA2XX_NPARTS, "INA2xx", err, errlen);
	if (part < 0)
		return part;
	ret = iio_probe_prop_int(p, "shunt-resistor", &uohm);
	if ((ret < 0 && ret != -ENOENT) || uohm <= 0)
		return iio_probe_err(p, err, errlen, -EINVAL,
				     "shunt-resistor must be 1..2147483647 micro-ohms");
	indio_dev = iio_device_alloc(sizeof(*chip));
	if (!indio_dev)
		return -ENOMEM;
	chip = iio_priv(indio_dev);
	chip->client = p->i2c;
	chip->dev = indio_dev;
	chip->config = &ina2xx_configs[part];
	ina2xx_set_shunt(chip, uohm);
	ret = ina2xx_init(chip);
	if (ret) {
		iio_probe_err(p, err, errlen, ret, "error configuring the device");
		goto err_put;
	}
	iio_device_setup(indio_dev, p->id->name, part == ina226 ? ina226_channels : ina219_channels,
			 (int)ARRAY_SIZE(ina219_channels), part == ina226 ? &ina226_info :
									    &ina219_info);
	indio_dev->label = p->label;
	ret = iio_triggered_buffer_setup(indio_dev, &ina2xx_setup_ops, NULL);
	if (!ret)
		ret = ina2xx_wake_init(chip);
	if (ret)
		goto err_put;
	*out = indio_dev;
	return 0;

err_put:
	iio_device_put(indio_dev);
	return ret;
}

static const struct iio_device_id ina2xx_id[] = {
	{ "ina219", ina219 }, { "ina220", ina219 }, { "ina226", ina226 },
	{ "ina230", ina226 }, { "ina231", ina226 }, { NULL, 0 }
};

/* A0/A1 strapped to GND, VS, SDA or SCL: 16 addresses (the kernel's head comment) */
static const unsigned short ina2xx_addresses[] = {
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
	0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, IIO_I2C_ADDR_END
};

static const struct iio_driver ina2xx_driver = {
	.name = "ina2xx_adc",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = ina2xx_id,
	.probe = ina2xx_probe, .remove = ina2xx_remove,
	.address_list = ina2xx_addresses,
};
IIO_DRIVER_REGISTER(ina2xx_driver);
