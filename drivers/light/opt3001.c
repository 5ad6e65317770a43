/*
 * opt3001.c - driver for the TI OPT3001 ambient light sensor (I2C), as the
 * kernel's drivers/iio/light/opt3001.c of the 6.1 series (two-argument probe,
 * void remove), with all twelve full-scale ranges, 40.95 x 2^E lux: the
 * version read has the 2024 fix that added the missing 20966.4, marked for
 * the stable series [hedge: not checked on the rig's 6.1.192].
 *
 * Registers are big-endian SMBus words: RESULT (exponent 15:12, mantissa
 * 11:0; lux = 0.01 x 2^E x R), CONFIGURATION, LOW and HIGH LIMIT (same
 * format), manufacturer and device ID. Channels: in_illuminance_input
 * (processed: a single-shot conversion, then E and R as the kernel turns
 * them into lux with micro-lux text), _integration_time (0.1 or 0.8 s, the
 * CT bit) with the device file integration_time_available, the threshold
 * events (events/in_illuminance_thresh_{rising,falling}_{value,en}: both
 * enables are one switch, continuous conversions, during which every other
 * read answers EBUSY), and the soft timestamp channel, which brings
 * current_timestamp_clock. The chip is set for latched window comparison
 * with one fault; with an interrupt line its INT output (active low) pushes
 * a rising or falling event per latched flag.
 * A read waits for the conversion-ready flag. The kernel, without an
 * interrupt line, sleeps 150 or 1000 ms (the 100/800 ms conversion with
 * slack) and looks once; here the read sleeps the conversion time and then
 * looks every OPT3001_POLL_MS up to the same 150 or 1000 ms (K-76): a
 * 1000 ms read would meet iiowired's default --io-timeout-ms. With a line
 * the kernel turns on end-of-conversion interrupts (0xc000 in LOW LIMIT)
 * and sleeps up to 1000 ms until its handler has the result; here the
 * handler runs under the device lock the read holds, so the read polls the
 * same flag, up to the same 1000 ms (K-75). Either way ETIMEDOUT when the
 * flag does not come, and the registers end as the kernel leaves them.
 * As the kernel's, the probe reads the two ID registers and accepts
 * whatever they hold.
 * Place in the flow: bus -> *driver* -> core. Waits go through bus_msleep().
 * Must not: format values, log, or spell attribute names (the core does).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_event.h"
#include "iio_irq.h"
#include "bus/bus.h"

#define OPT3001_RESULT			0x00
#define OPT3001_CONFIGURATION		0x01
#define OPT3001_LOW_LIMIT		0x02
#define OPT3001_HIGH_LIMIT		0x03
#define OPT3001_MANUFACTURER_ID		0x7e
#define OPT3001_DEVICE_ID		0x7f

#define OPT3001_CFG_RN_MASK		GENMASK(15, 12)
#define OPT3001_CFG_RN_AUTO		(0xcU << 12)
#define OPT3001_CFG_CT			BIT(11)
#define OPT3001_CFG_M_MASK		GENMASK(10, 9)
#define OPT3001_CFG_M_SHUTDOWN		(0U << 9)
#define OPT3001_CFG_M_SINGLE		(1U << 9)
#define OPT3001_CFG_M_CONTINUOUS	(2U << 9)	/* 3 << 9 too, on the chip */
#define OPT3001_CFG_CRF			BIT(7)
#define OPT3001_CFG_FH			BIT(6)
#define OPT3001_CFG_FL			BIT(5)
#define OPT3001_CFG_L			BIT(4)
#define OPT3001_CFG_POL			BIT(3)
#define OPT3001_CFG_ME			BIT(2)
#define OPT3001_CFG_FC_MASK		GENMASK(1, 0)

/* LOW LIMIT's top exponent bits both set: INT reports every conversion's end */
#define OPT3001_LOW_LIMIT_EOC_ENABLE	0xc000

#define OPT3001_EXPONENT(n)		((n) >> 12)
#define OPT3001_MANTISSA(n)		((n) & 0xfff)

#define OPT3001_INT_TIME_LONG		800000	/* us */
#define OPT3001_INT_TIME_SHORT		100000

/* The kernel's waits: the datasheet's 100/800 ms plus 3 ms, with slack. */
#define OPT3001_RESULT_READY_SHORT	150	/* ms */
#define OPT3001_RESULT_READY_LONG	1000
/* After the conversion time, how often a read looks at the ready flag (K-75, K-76). */
#define OPT3001_POLL_MS			10

/* The highest range: exponents 0..11 (the chip's full scale 83865.6 lux). */
#define OPT3001_EXPONENT_MAX		11
/* A range's full scale in milli-lux: 4095 steps of 10 milli-lux x 2^E (datasheet). */
#define OPT3001_FULL_SCALE_MILLI(e)	((4095 * 10) << (e))

/**
 * struct opt3001 - per-device state (iio_priv()); callbacks and the
 * interrupt handler run under the device lock.
 * @mode: the M field the driver last wrote (the kernel's opt->mode).
 * @result/@result_ready: the last RESULT taken after a conversion-ready flag.
 * @*_thresh_*: the limits as written, E and R apart (read back from them).
 */
struct opt3001 {
	struct bus_i2c_client *client;
	bool use_irq;
	bool result_ready;
	uint16_t result;
	uint32_t int_time;
	uint16_t mode;
	uint16_t high_thresh_mantissa;
	uint16_t low_thresh_mantissa;
	uint8_t high_thresh_exp;
	uint8_t low_thresh_exp;
};

/*
 * The first range whose full scale holds @milli milli-lux (int, as the
 * kernel compares them: a sum past INT_MAX wraps there as here).
 */
static int opt3001_find_scale(int milli, uint8_t *exponent)
{
	int e;

	for (e = 0; e <= OPT3001_EXPONENT_MAX; e++) {
		if (milli <= OPT3001_FULL_SCALE_MILLI(e)) {
			*exponent = (uint8_t)e;
			return 0;
		}
	}
	return -EINVAL;
}

/* E and R to lux: 10 milli-lux x (R << E), as an integer and micro part. */
static void opt3001_to_iio_ret(uint8_t exponent, uint16_t mantissa, int *val, int *val2)
{
	int lux = 10 * (mantissa << exponent);

	*val = lux / 1000;
	*val2 = (lux - *val * 1000) * 1000;
}

static int opt3001_read(struct opt3001 *opt, uint8_t reg)
{
	return bus_smbus_read_word_swapped(opt->client, reg);
}

static int opt3001_write(struct opt3001 *opt, uint8_t reg, uint16_t val)
{
	return bus_smbus_write_word_swapped(opt->client, reg, val);
}

/* Read CONFIGURATION, put @mode in its M field, write it back. */
static int opt3001_write_mode(struct opt3001 *opt, uint16_t mode)
{
	int ret = opt3001_read(opt, OPT3001_CONFIGURATION);

	if (ret < 0)
		return ret;
	opt->mode = mode;
	return opt3001_write(opt, OPT3001_CONFIGURATION,
			     (uint16_t)((ret & ~OPT3001_CFG_M_MASK) | mode));
}

/* With @cfg as just read: take RESULT if a conversion is ready. Return: 1, 0 or -errno. */
static int opt3001_take_result(struct opt3001 *opt, int cfg)
{
	int ret;

	if (!(cfg & OPT3001_CFG_CRF))
		return 0;
	ret = opt3001_read(opt, OPT3001_RESULT);
	if (ret < 0)
		return ret;
	opt->result = (uint16_t)ret;
	opt->result_ready = true;
	return 1;
}

/*
 * The conversion time (100 or 800 ms), then the flag every OPT3001_POLL_MS
 * until @limit_ms in all: the kernel's 150/1000 ms sleep without a line
 * (K-76), its 1000 ms wait for the interrupt with one (K-75).
 */
static int opt3001_wait(struct opt3001 *opt, unsigned int limit_ms)
{
	unsigned int waited = opt->int_time / 1000;
	int ret;

	bus_msleep(opt->client->bus, waited);
	for (;;) {
		ret = opt3001_read(opt, OPT3001_CONFIGURATION);
		if (ret >= 0)
			ret = opt3001_take_result(opt, ret);
		if (ret != 0)
			return ret;
		if (waited >= limit_ms)
			return -ETIMEDOUT;
		bus_msleep(opt->client->bus, OPT3001_POLL_MS);
		waited += OPT3001_POLL_MS;
	}
}

/*
 * One single-shot conversion. With a line, LOW LIMIT holds the
 * end-of-conversion enable meanwhile and gets the falling threshold back
 * after a good read only: an error or a timeout leaves 0xc000 there, as
 * the kernel's early returns do.
 */
static int opt3001_get_lux(struct opt3001 *opt, int *val, int *val2)
{
	int ret;

	if (opt->use_irq) {
		ret = opt3001_write(opt, OPT3001_LOW_LIMIT, OPT3001_LOW_LIMIT_EOC_ENABLE);
		if (ret < 0)
			return ret;
	}
	opt->result_ready = false;
	ret = opt3001_write_mode(opt, OPT3001_CFG_M_SINGLE);
	if (ret < 0)
		return ret;
	if (opt->use_irq)
		ret = opt3001_wait(opt, OPT3001_RESULT_READY_LONG);
	else
		ret = opt3001_wait(opt, opt->int_time == OPT3001_INT_TIME_SHORT ?
					OPT3001_RESULT_READY_SHORT : OPT3001_RESULT_READY_LONG);
	if (ret < 0)
		return ret;
	if (opt->use_irq) {
		ret = opt3001_write(opt, OPT3001_LOW_LIMIT,
				    (uint16_t)(opt->low_thresh_exp << 12 | opt->low_thresh_mantissa));
		if (ret < 0)
			return ret;
	}
	opt3001_to_iio_ret(OPT3001_EXPONENT(opt->result), OPT3001_MANTISSA(opt->result),
			   val, val2);
	return IIO_VAL_INT_PLUS_MICRO;
}

static int opt3001_set_int_time(struct opt3001 *opt, int time)
{
	int ret = opt3001_read(opt, OPT3001_CONFIGURATION);
	uint16_t reg;

	if (ret < 0)
		return ret;
	reg = (uint16_t)ret;
	switch (time) {
	case OPT3001_INT_TIME_SHORT:
		reg &= (uint16_t)~OPT3001_CFG_CT;
		break;
	case OPT3001_INT_TIME_LONG:
		reg |= OPT3001_CFG_CT;
		break;
	default:
		return -EINVAL;
	}
	/* the kernel's order: believed before the write is known to have worked */
	opt->int_time = (uint32_t)time;
	return opt3001_write(opt, OPT3001_CONFIGURATION, reg);
}

/* Continuous conversions (the events on) keep every direct read out: EBUSY. */
static int opt3001_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int *val, int *val2, long mask)
{
	struct opt3001 *opt = iio_priv(indio_dev);

	if (opt->mode == OPT3001_CFG_M_CONTINUOUS)
		return -EBUSY;
	if (chan->type != IIO_LIGHT)
		return -EINVAL;
	switch (mask) {
	case IIO_CHAN_INFO_PROCESSED:
		return opt3001_get_lux(opt, val, val2);
	case IIO_CHAN_INFO_INT_TIME:
		*val = 0;
		*val2 = (int)opt->int_time;
		return IIO_VAL_INT_PLUS_MICRO;
	default:
		return -EINVAL;
	}
}

static int opt3001_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			     int val, int val2, long mask)
{
	struct opt3001 *opt = iio_priv(indio_dev);

	if (opt->mode == OPT3001_CFG_M_CONTINUOUS)
		return -EBUSY;
	if (chan->type != IIO_LIGHT || mask != IIO_CHAN_INFO_INT_TIME || val != 0)
		return -EINVAL;
	return opt3001_set_int_time(opt, val2);
}

static int opt3001_read_event_value(struct iio_dev *indio_dev,
				    const struct iio_chan_spec *chan,
				    enum iio_event_type type, enum iio_event_direction dir,
				    enum iio_event_info info, int *val, int *val2)
{
	const struct opt3001 *opt = iio_priv(indio_dev);

	(void)chan;
	(void)type;
	(void)info;
	switch (dir) {
	case IIO_EV_DIR_RISING:
		opt3001_to_iio_ret(opt->high_thresh_exp, opt->high_thresh_mantissa, val, val2);
		return IIO_VAL_INT_PLUS_MICRO;
	case IIO_EV_DIR_FALLING:
		opt3001_to_iio_ret(opt->low_thresh_exp, opt->low_thresh_mantissa, val, val2);
		return IIO_VAL_INT_PLUS_MICRO;
	default:
		return -EINVAL;
	}
}

/*
 * A limit: the smallest range that holds the value, its 10-milli-lux steps
 * shifted down by the exponent. The arithmetic is the kernel's, u16
 * truncation and int wrap included, so "-0.5" (0 and -500000) stores the
 * mantissa 65486 as it does there; only a negative integer part is refused.
 */
static int opt3001_write_event_value(struct iio_dev *indio_dev,
				     const struct iio_chan_spec *chan,
				     enum iio_event_type type, enum iio_event_direction dir,
				     enum iio_event_info info, int val, int val2)
{
	struct opt3001 *opt = iio_priv(indio_dev);
	uint16_t mantissa, value;
	uint8_t exponent;
	int milli, ret;

	(void)chan;
	(void)type;
	(void)info;
	if (val < 0)
		return -EINVAL;
	milli = (int)((unsigned int)val * 1000U + (unsigned int)(val2 / 1000));
	ret = opt3001_find_scale(milli, &exponent);
	if (ret < 0)
		return ret;
	mantissa = (uint16_t)((milli / 10) >> exponent);
	value = (uint16_t)(exponent << 12 | mantissa);
	if (dir == IIO_EV_DIR_RISING) {
		opt->high_thresh_mantissa = mantissa;
		opt->high_thresh_exp = exponent;
		return opt3001_write(opt, OPT3001_HIGH_LIMIT, value);
	}
	if (dir == IIO_EV_DIR_FALLING) {
		opt->low_thresh_mantissa = mantissa;
		opt->low_thresh_exp = exponent;
		return opt3001_write(opt, OPT3001_LOW_LIMIT, value);
	}
	return -EINVAL;
}

/* Both enables read the one switch: continuous conversions. */
static int opt3001_read_event_config(struct iio_dev *indio_dev,
				     const struct iio_chan_spec *chan,
				     enum iio_event_type type, enum iio_event_direction dir)
{
	const struct opt3001 *opt = iio_priv(indio_dev);

	(void)chan;
	(void)type;
	(void)dir;
	return opt->mode == OPT3001_CFG_M_CONTINUOUS;
}

/* On: continuous conversions; off: shutdown. Asking for the mode it is in does nothing. */
static int opt3001_write_event_config(struct iio_dev *indio_dev,
				      const struct iio_chan_spec *chan,
				      enum iio_event_type type, enum iio_event_direction dir,
				      int state)
{
	struct opt3001 *opt = iio_priv(indio_dev);

	(void)chan;
	(void)type;
	(void)dir;
	if (state && opt->mode == OPT3001_CFG_M_CONTINUOUS)
		return 0;
	if (!state && opt->mode == OPT3001_CFG_M_SHUTDOWN)
		return 0;
	return opt3001_write_mode(opt, state ? OPT3001_CFG_M_CONTINUOUS : OPT3001_CFG_M_SHUTDOWN);
}

/*
 * INT: reading CONFIGURATION clears the latched flags and the line. In
 * continuous mode each flag set is one event on illuminance (rising for
 * FH, falling for FL); otherwise it was a conversion's end.
 */
static void opt3001_irq(struct iio_dev *indio_dev, int64_t timestamp)
{
	struct opt3001 *opt = iio_priv(indio_dev);
	int cfg;

	(void)timestamp;
	cfg = opt3001_read(opt, OPT3001_CONFIGURATION);
	if (cfg < 0)
		return;
	if ((cfg & OPT3001_CFG_M_MASK) != OPT3001_CFG_M_CONTINUOUS) {
		opt3001_take_result(opt, cfg);
		return;
	}
	if (cfg & OPT3001_CFG_FH)
		iio_push_event(indio_dev, IIO_UNMOD_EVENT_CODE(IIO_LIGHT, 0, IIO_EV_TYPE_THRESH,
								IIO_EV_DIR_RISING),
			       iio_get_time_ns(indio_dev));
	if (cfg & OPT3001_CFG_FL)
		iio_push_event(indio_dev, IIO_UNMOD_EVENT_CODE(IIO_LIGHT, 0, IIO_EV_TYPE_THRESH,
								IIO_EV_DIR_FALLING),
			       iio_get_time_ns(indio_dev));
}

/* The kernel's constant attribute: the two CT settings. */
static int opt3001_int_time_available(struct iio_dev *indio_dev, uintptr_t priv, char *buf,
				      size_t len)
{
	static const char avail[] = "0.1 0.8\n";

	(void)indio_dev;
	(void)priv;
	if (len < sizeof(avail))
		return -EOVERFLOW;
	memcpy(buf, avail, sizeof(avail));
	return (int)sizeof(avail) - 1;
}

static const struct iio_dev_attr opt3001_attributes[] = {
	{ .name = "integration_time_available", .read = opt3001_int_time_available },
	{ NULL, NULL, NULL, 0 },
};

static const struct iio_event_spec opt3001_event_spec[] = {
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_RISING),
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_FALLING),
};

static const struct iio_chan_spec opt3001_channels[] = {
	{
		.type = IIO_LIGHT,
		.info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED) | BIT(IIO_CHAN_INFO_INT_TIME),
		.event_spec = opt3001_event_spec,
		.num_event_specs = ARRAY_SIZE(opt3001_event_spec),
	},
	/* the kernel's IIO_CHAN_SOFT_TIMESTAMP(1): no files, but the clock's */
	{
		.type = IIO_TIMESTAMP,
		.channel = -1,
		.scan_index = 1,
		.scan_type = { .sign = 's', .realbits = 64, .storagebits = 64 },
	},
};

static const struct iio_info opt3001_info = {
	.attrs = opt3001_attributes,
	.read_raw = opt3001_read_raw,
	.write_raw = opt3001_write_raw,
	.read_event_value = opt3001_read_event_value,
	.write_event_value = opt3001_write_event_value,
	.read_event_config = opt3001_read_event_config,
	.write_event_config = opt3001_write_event_config,
};

/*
 * Automatic range, shut down, latched window comparison with active-low
 * INT, exponent shown, one fault; the CT bit kept and believed; the limits
 * read back as the thresholds (reset: 0xc000 and 0xbfff, 0 and 83865.6 lux).
 */
static int opt3001_configure(struct opt3001 *opt, const char **what)
{
	uint16_t reg;
	int ret;

	*what = "reading CONFIGURATION failed";
	ret = opt3001_read(opt, OPT3001_CONFIGURATION);
	if (ret < 0)
		return ret;
	reg = (uint16_t)((ret & ~OPT3001_CFG_RN_MASK) | OPT3001_CFG_RN_AUTO);
	opt->int_time = reg & OPT3001_CFG_CT ? OPT3001_INT_TIME_LONG : OPT3001_INT_TIME_SHORT;
	opt->mode = OPT3001_CFG_M_SHUTDOWN;
	reg = (uint16_t)((reg & ~OPT3001_CFG_M_MASK) | OPT3001_CFG_M_SHUTDOWN | OPT3001_CFG_L);
	reg &= (uint16_t)~(OPT3001_CFG_POL | OPT3001_CFG_ME | OPT3001_CFG_FC_MASK);
	*what = "writing CONFIGURATION failed";
	ret = opt3001_write(opt, OPT3001_CONFIGURATION, reg);
	if (ret < 0)
		return ret;
	*what = "reading LOW LIMIT failed";
	ret = opt3001_read(opt, OPT3001_LOW_LIMIT);
	if (ret < 0)
		return ret;
	opt->low_thresh_mantissa = OPT3001_MANTISSA(ret);
	opt->low_thresh_exp = (uint8_t)OPT3001_EXPONENT(ret);
	*what = "reading HIGH LIMIT failed";
	ret = opt3001_read(opt, OPT3001_HIGH_LIMIT);
	if (ret < 0)
		return ret;
	opt->high_thresh_mantissa = OPT3001_MANTISSA(ret);
	opt->high_thresh_exp = (uint8_t)OPT3001_EXPONENT(ret);
	return 0;
}

/*
 * opt3001_probe() - read both ID registers (a bus error fails the probe;
 * the values are not compared, as in the kernel, which only logs "Found TI
 * OPT3001"), configure, and take the board's interrupt line (falling edge)
 * if it wires one.
 */
static int opt3001_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			 size_t errlen)
{
	static const uint8_t ids[] = { OPT3001_MANUFACTURER_ID, OPT3001_DEVICE_ID };
	struct iio_dev *indio_dev;
	struct opt3001 *opt;
	const char *what;
	size_t i;
	int ret;

	indio_dev = iio_device_alloc(sizeof(*opt));
	if (!indio_dev)
		return -ENOMEM;
	opt = iio_priv(indio_dev);
	opt->client = p->i2c;
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		ret = opt3001_read(opt, ids[i]);
		if (ret < 0) {
			iio_probe_err(p, err, errlen, ret, "reading the %s ID failed",
				      i ? "device" : "manufacturer");
			goto err_put_dev;
		}
	}
	ret = opt3001_configure(opt, &what);
	if (ret < 0) {
		iio_probe_err(p, err, errlen, ret, "%s", what);
		goto err_put_dev;
	}
	iio_device_setup(indio_dev, p->id->name, opt3001_channels,
			 (int)ARRAY_SIZE(opt3001_channels), &opt3001_info);
	indio_dev->label = p->label;
	ret = iio_request_threaded_irq(indio_dev, p, IIO_IRQ_FALLING, opt3001_irq, err, errlen);
	if (ret < 0 && ret != -ENOENT)
		goto err_put_dev;
	opt->use_irq = ret == 0;
	*out = indio_dev;
	return 0;

err_put_dev:
	iio_device_put(indio_dev);
	return ret;
}

/* opt3001_remove() - shut the chip down; a bus error here has nobody to tell. */
static void opt3001_remove(struct iio_dev *indio_dev)
{
	opt3001_write_mode(iio_priv(indio_dev), OPT3001_CFG_M_SHUTDOWN);
}

static const struct iio_device_id opt3001_id[] = {
	{ "opt3001", 0 },
	{ NULL, 0 }
};

/* the ADDR pin to GND, VDD, SDA or SCL (datasheet) */
static const unsigned short opt3001_addresses[] = { 0x44, 0x45, 0x46, 0x47, IIO_I2C_ADDR_END };

static const struct iio_driver opt3001_driver = {
	.name = "opt3001",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = opt3001_id,
	.probe = opt3001_probe, .remove = opt3001_remove,
	.address_list = opt3001_addresses,
};
IIO_DRIVER_REGISTER(opt3001_driver);
