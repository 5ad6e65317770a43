/*
 * iio_rescale.c - analog front ends: a channel of another device seen
 * through a shunt, a current-sense amplifier, a voltage divider, an RTD or a
 * temperature transducer, as the kernel's drivers/iio/afe/iio-rescale.c
 * presents them.
 *
 * The device consumes one provider channel (board keys "io_device" and
 * "io_channel": the ADC and its datasheet name or ABI id) and offers one
 * channel of its own type, in_current0_*, in_voltage0_* or in_temp0_*,
 * whose raw value is the source's and whose scale is the source's times the
 * front end's ratio numerator/denominator. Only the RTD and the transducer
 * have an offset of their own, and only they show in_*0_offset: a source's
 * offset is not carried over otherwise, as in the kernel. A source with no
 * raw value but a processed one is read as raw with scale 1/1. Place in the
 * flow: core -> *driver* (a consumer of the core) -> core. Never touches a
 * bus itself.
 *
 * Every figure is the kernel's: its 32-bit ratio, reduced as its props
 * functions reduce it, and its scale arithmetic ("divide, then multiply"
 * for FRACTIONAL_LOG2), so the digits printed are the kernel's. Where that
 * arithmetic overflows into nonsense, the right value is printed instead:
 * deviation K-9 (maps/README.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_consumer.h"
#include "iio_core.h"

#define RESCALE_NANO	1000000000LL
#define RESCALE_MICRO	1000000LL

enum rescale_variant {
	CURRENT_SENSE_AMPLIFIER,
	CURRENT_SENSE_SHUNT,
	VOLTAGE_DIVIDER,
	TEMP_SENSE_RTD,
	TEMP_TRANSDUCER,
};

static const struct iio_device_id rescale_ids[] = {
	{ "current-sense-amplifier", CURRENT_SENSE_AMPLIFIER },
	{ "current-sense-shunt", CURRENT_SENSE_SHUNT },
	{ "voltage-divider", VOLTAGE_DIVIDER },
	{ "temperature-sense-rtd", TEMP_SENSE_RTD },
	{ "temperature-transducer", TEMP_TRANSDUCER },
	{ NULL, 0 },
};

/* The kernel's struct rescale: s32 ratio and offset, as its arithmetic needs. */
struct rescale_state {
	struct iio_channel *source;
	struct iio_chan_spec chan;
	char name[64];
	bool chan_processed;
	int32_t numerator;
	int32_t denominator;
	int32_t offset;
};

struct rescale_cfg {
	enum iio_chan_type type;
	int (*props)(const struct iio_probe *p, struct rescale_state *st);
	const char *needs;	/* the board error for missing or bad properties */
};

static uint32_t rescale_gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* A positive int property, or @def when absent and @def is not 0. Return: 0, -EINVAL. */
static int rescale_prop(const struct iio_probe *p, const char *key, int def, uint32_t *val)
{
	int v = def;
	int ret = iio_probe_prop_int(p, key, &v);

	if ((ret && (ret != -ENOENT || !def)) || v <= 0)
		return -EINVAL;
	*val = (uint32_t)v;
	return 0;
}

/* The ratio 10^6 / @micro_ohms reduced by their gcd, as the kernel's shunt props do. */
static void rescale_micro_ratio(struct rescale_state *st, uint32_t micro_ohms)
{
	uint32_t factor = rescale_gcd(micro_ohms, RESCALE_MICRO);

	st->numerator = (int32_t)(RESCALE_MICRO / factor);
	st->denominator = (int32_t)(micro_ohms / factor);
}

static int rescale_amplifier_props(const struct iio_probe *p, struct rescale_state *st)
{
	uint32_t sense, mult, div, factor;
	int64_t den, num;

	if (rescale_prop(p, "sense_resistor_micro_ohms", 0, &sense) ||
	    rescale_prop(p, "sense_gain_mult", 1, &mult) ||
	    rescale_prop(p, "sense_gain_div", 1, &div))
		return -EINVAL;
	rescale_micro_ratio(st, sense);
	factor = rescale_gcd((uint32_t)st->numerator, mult);
	num = st->numerator / factor;
	den = (int64_t)st->denominator * (mult / factor);
	factor = rescale_gcd((uint32_t)(den > UINT32_MAX ? 0 : den), div);
	if (den > INT32_MAX || num * (div / factor) > INT32_MAX)
		return -ERANGE;	/* the kernel's s32 ratio would wrap: K-9 */
	st->numerator = (int32_t)(num * (div / factor));
	st->denominator = (int32_t)(den / factor);
	return 0;
}

static int rescale_shunt_props(const struct iio_probe *p, struct rescale_state *st)
{
	uint32_t shunt;

	if (rescale_prop(p, "shunt_resistor_micro_ohms", 0, &shunt))
		return -EINVAL;
	rescale_micro_ratio(st, shunt);
	return 0;
}

/* output <= full is iiowire's own check, a divider never gains: deviation K-30. */
static int rescale_divider_props(const struct iio_probe *p, struct rescale_state *st)
{
	uint32_t full, output, factor;

	if (rescale_prop(p, "full_ohms", 0, &full) || rescale_prop(p, "output_ohms", 0, &output) ||
	    output > full)
		return -EINVAL;
	factor = rescale_gcd(full, output);
	st->numerator = (int32_t)(full / factor);
	st->denominator = (int32_t)(output / factor);
	return 0;
}

/*
 * An RTD at excitation current iexc: the voltage rises r0 * iexc * alpha
 * per degree from r0 * iexc at 0 °C. The kernel computes it in u32: values
 * whose product does not fit are refused rather than wrapped (K-9).
 */
static int rescale_rtd_props(const struct iio_probe *p, struct rescale_state *st)
{
	uint32_t iexc, alpha, r0, factor;
	uint64_t tmp;

	if (rescale_prop(p, "excitation_current_microamp", 0, &iexc) ||
	    rescale_prop(p, "alpha_ppm_per_celsius", 0, &alpha) ||
	    rescale_prop(p, "r_naught_ohms", 0, &r0))
		return -EINVAL;
	tmp = (uint64_t)r0 * iexc * alpha;
	if (tmp > UINT32_MAX)
		return -ERANGE;
	tmp /= RESCALE_MICRO;
	if (!tmp) {
		st->denominator = 0;	/* below 10^6: the probe's "invalid scaling factor" */
		return 0;
	}
	factor = rescale_gcd((uint32_t)tmp, RESCALE_MICRO);
	st->numerator = (int32_t)(RESCALE_MICRO / factor);
	st->denominator = (int32_t)(tmp / factor);
	st->offset = -(int32_t)(((uint64_t)r0 * iexc) / 1000);
	return 0;
}

/* A current (or voltage) output transducer: alpha per degree, through a sense resistor. */
static int rescale_transducer_props(const struct iio_probe *p, struct rescale_state *st)
{
	uint32_t sense, alpha;
	int offset = 0, ret;
	int64_t den, off;

	ret = iio_probe_prop_int(p, "sense_offset_millicelsius", &offset);
	if ((ret && ret != -ENOENT) || rescale_prop(p, "sense_resistor_ohms", 1, &sense) ||
	    rescale_prop(p, "alpha_ppm_per_celsius", 0, &alpha))
		return -EINVAL;
	den = (int64_t)alpha * sense;
	off = (int64_t)offset * den / RESCALE_MICRO;
	if (den > INT32_MAX || off > INT32_MAX || off < INT32_MIN)
		return -ERANGE;
	st->numerator = (int32_t)RESCALE_MICRO;
	st->denominator = (int32_t)den;
	st->offset = (int32_t)off;
	return 0;
}

static const struct rescale_cfg rescale_cfg[] = {
	[CURRENT_SENSE_AMPLIFIER] = { IIO_CURRENT, rescale_amplifier_props,
		"positive sense_resistor_micro_ohms (and sense_gain_mult/div if given)" },
	[CURRENT_SENSE_SHUNT] = { IIO_CURRENT, rescale_shunt_props,
		"positive shunt_resistor_micro_ohms" },
	[VOLTAGE_DIVIDER] = { IIO_VOLTAGE, rescale_divider_props,
		"positive full_ohms and output_ohms (output <= full)" },
	[TEMP_SENSE_RTD] = { IIO_TEMP, rescale_rtd_props,
		"positive excitation_current_microamp, alpha_ppm_per_celsius and r_naught_ohms" },
	[TEMP_TRANSDUCER] = { IIO_TEMP, rescale_transducer_props,
		"positive alpha_ppm_per_celsius (and sense_resistor_ohms if given; "
		"sense_offset_millicelsius an integer)" },
};

/*
 * The right value of n / d as INT_PLUS_NANO, truncated toward zero, where
 * the kernel's arithmetic overflows (K-9). Return: IIO_VAL_INT_PLUS_NANO,
 * -ERANGE when even the integer part does not fit.
 */
static int rescale_scale_exact(__int128 n, __int128 d, int *val, int *val2)
{
	__int128 nano, whole;
	int frac;

	if (d < 0) {
		n = -n;
		d = -d;
	}
	nano = n * RESCALE_NANO / d;
	whole = nano / RESCALE_NANO;
	frac = (int)(nano % RESCALE_NANO);
	if (whole > INT_MAX || whole < INT_MIN)
		return -ERANGE;
	*val = (int)whole;
	*val2 = whole ? abs(frac) : frac;
	return IIO_VAL_INT_PLUS_NANO;
}

/*
 * The kernel's FRACTIONAL_LOG2 (and overflowing FRACTIONAL) case: scale the
 * value to nano, divide by the denominator, then multiply by the numerator,
 * then split by the source's divisor. Its last digits are the kernel's.
 */
static int rescale_scale_div_mult(const struct rescale_state *st, int type, int *val, int *val2)
{
	int64_t d = type == IIO_VAL_FRACTIONAL ? *val2 : (int64_t)1 << *val2;
	__int128 exact_n = (__int128)*val * st->numerator, exact_d = (__int128)d * st->denominator;
	int64_t tmp = (int64_t)*val * RESCALE_NANO / st->denominator, q;
	int rem, rem2, v;

	if (d == 0)
		return -EINVAL;
	if (__builtin_mul_overflow(tmp, (int64_t)st->numerator, &tmp))
		return rescale_scale_exact(exact_n, exact_d, val, val2);
	q = tmp / RESCALE_NANO;
	rem = (int)(tmp % RESCALE_NANO);
	if (q > INT_MAX || q < INT_MIN)
		return rescale_scale_exact(exact_n, exact_d, val, val2);
	v = (int)q;
	if (!rem) {
		*val = v;
		return type;
	}
	/* the kernel's (int) of the divisor: 1 << 31 and beyond are nonsense there */
	if (d > INT_MAX || d < INT_MIN || (d == -1 && v == INT_MIN))
		return rescale_scale_exact(exact_n, exact_d, val, val2);
	rem2 = v % (int)d;
	*val = v / (int)d;
	*val2 = rem / (int)d;
	if (rem2)
		*val2 += (int)((int64_t)rem2 * RESCALE_NANO / d);
	return IIO_VAL_INT_PLUS_NANO;
}

/* The kernel's INT_PLUS_{MICRO,NANO} case: either part negative makes the scale negative. */
static int rescale_scale_plus(const struct rescale_state *st, int type, int *val, int *val2)
{
	int64_t mult = type == IIO_VAL_INT_PLUS_NANO ? RESCALE_NANO : RESCALE_MICRO;
	int64_t aval = llabs((int64_t)*val), aval2 = llabs((int64_t)*val2);
	int64_t anum = llabs((int64_t)st->numerator), aden = llabs((int64_t)st->denominator);
	bool neg = *val < 0 || *val2 < 0;
	int64_t whole, tmp;

	neg ^= (st->numerator < 0) ^ (st->denominator < 0);
	whole = aval * anum / aden;
	tmp = ((aval * anum) % aden * mult + aval2 * anum) / aden;
	whole += tmp / mult;
	if (whole > INT_MAX) {
		__int128 n = ((__int128)aval * mult + aval2) * anum;

		return rescale_scale_exact(neg ? -n : n, (__int128)mult * aden, val, val2);
	}
	*val = (int)whole;
	*val2 = (int)(tmp % mult);
	if (neg) {
		if (*val)
			*val = -*val;
		else
			*val2 = -*val2;
	}
	return type;
}

/*
 * The source's scale times numerator/denominator, as the kernel's
 * rescale_process_scale(). Return: the IIO_VAL_* of the result,
 * -EOPNOTSUPP for a type (or an error) it has no case for, as the kernel.
 */
static int rescale_process_scale(const struct rescale_state *st, int type, int *val, int *val2)
{
	int v, v2;

	switch (type) {
	case IIO_VAL_INT:
		if (__builtin_mul_overflow(*val, st->numerator, &v))
			return rescale_scale_exact((__int128)*val * st->numerator,
						   st->denominator, val, val2);
		*val = v;
		if (st->denominator == 1)
			return type;
		*val2 = st->denominator;
		return IIO_VAL_FRACTIONAL;
	case IIO_VAL_FRACTIONAL:
		if (!__builtin_mul_overflow(*val, st->numerator, &v) &&
		    !__builtin_mul_overflow(*val2, st->denominator, &v2)) {
			*val = v;
			*val2 = v2;
			return IIO_VAL_FRACTIONAL;
		}
		return rescale_scale_div_mult(st, type, val, val2);
	case IIO_VAL_FRACTIONAL_LOG2:
		if (*val2 < 0 || *val2 > 62)
			return -EINVAL;
		return rescale_scale_div_mult(st, type, val, val2);
	case IIO_VAL_INT_PLUS_NANO:
	case IIO_VAL_INT_PLUS_MICRO:
		return rescale_scale_plus(st, type, val, val2);
	default:
		return -EOPNOTSUPP;
	}
}

/*
 * The kernel's rescale_process_offset(): the front end's offset in the
 * source's raw units, plus the source's own. Return: IIO_VAL_INT,
 * -EOPNOTSUPP, -EINVAL for a zero scale, -ERANGE where the result leaves int.
 */
static int rescale_process_offset(const struct rescale_state *st, int type, int scale,
				  int scale2, int schan_off, int *val)
{
	int64_t num = st->offset, den, r;

	switch (type) {
	case IIO_VAL_FRACTIONAL:
		num *= scale2;
		den = scale;
		break;
	case IIO_VAL_INT:
		den = scale;
		break;
	case IIO_VAL_FRACTIONAL_LOG2:
		if (scale2 < 0 || scale2 > 30)
			return -EINVAL;
		num *= 1 << scale2;
		den = scale;
		break;
	case IIO_VAL_INT_PLUS_NANO:
	case IIO_VAL_INT_PLUS_MICRO: {
		int64_t mult = type == IIO_VAL_INT_PLUS_NANO ? RESCALE_NANO : RESCALE_MICRO;

		num *= mult;
		den = (int64_t)scale * mult + scale2;
		break;
	}
	default:
		return -EOPNOTSUPP;
	}
	if (!den)
		return -EINVAL;
	r = num / den + schan_off;
	if (r > INT_MAX || r < INT_MIN)
		return -ERANGE;
	*val = (int)r;
	return IIO_VAL_INT;
}

static int rescale_read_offset(struct rescale_state *st, int *val)
{
	int schan_off = 0, scale = 1, scale2 = 1, type = IIO_VAL_FRACTIONAL, ret;
	const struct iio_chan_spec *schan = st->source->channel;

	if (st->chan_processed) {
		*val = st->offset;
		return IIO_VAL_INT;
	}
	if (iio_channel_has_info(schan, IIO_CHAN_INFO_OFFSET)) {
		ret = iio_read_channel_offset(st->source, &schan_off, NULL);
		if (ret != IIO_VAL_INT)
			return ret < 0 ? ret : -EOPNOTSUPP;
	}
	if (iio_channel_has_info(schan, IIO_CHAN_INFO_SCALE)) {
		type = iio_read_channel_scale(st->source, &scale, &scale2);
		if (type < 0)
			return type;
	}
	return rescale_process_offset(st, type, scale, scale2, schan_off, val);
}

static int rescale_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int *val, int *val2, long mask)
{
	struct rescale_state *st = iio_priv(indio_dev);
	int ret;

	(void)chan;
	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		if (!st->chan_processed)
			return iio_read_channel_raw(st->source, val);
		/* mainline's consumer call returns 0, which sysfs prints as an empty line: K-10 */
		ret = iio_read_channel_processed(st->source, val);
		return ret < 0 ? ret : IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		if (st->chan_processed) {
			*val = 1;
			*val2 = 1;
			ret = IIO_VAL_FRACTIONAL;
		} else {
			ret = iio_read_channel_scale(st->source, val, val2);
		}
		return rescale_process_scale(st, ret, val, val2);
	case IIO_CHAN_INFO_OFFSET:
		return rescale_read_offset(st, val);
	default:
		return -EINVAL;
	}
}

static const struct iio_info rescale_info = {
	.read_raw = rescale_read_raw,
};

/* The kernel's rescale_configure_channel(). Return: 0, -EINVAL for an unusable source. */
static int rescale_configure_channel(struct rescale_state *st, enum iio_chan_type type)
{
	const struct iio_chan_spec *schan = st->source->channel;

	if (iio_channel_has_info(schan, IIO_CHAN_INFO_RAW) &&
	    (iio_channel_has_info(schan, IIO_CHAN_INFO_SCALE) ||
	     iio_channel_has_info(schan, IIO_CHAN_INFO_OFFSET)))
		st->chan_processed = false;
	else if (iio_channel_has_info(schan, IIO_CHAN_INFO_PROCESSED))
		st->chan_processed = true;
	else
		return -EINVAL;
	st->chan = (struct iio_chan_spec){
		.type = type,
		.indexed = 1,
		.channel = 0,
		.output = schan->output,
		.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) |
				      (st->offset ? BIT(IIO_CHAN_INFO_OFFSET) : 0),
		.scan_index = -1,
	};
	return 0;
}

/* The ratio and offset from the board. Return: 0 or a -errno, @err saying why. */
static int rescale_ratio(const struct iio_probe *p, struct rescale_state *st,
			 char *err, size_t errlen)
{
	const struct rescale_cfg *cfg = &rescale_cfg[p->id->driver_data];
	int ret;

	st->numerator = 1;
	st->denominator = 1;
	st->offset = 0;
	ret = cfg->props(p, st);
	if (ret == -ERANGE)
		return iio_probe_err(p, err, errlen, ret, "ratio does not fit the kernel's "
				     "32-bit numerator and denominator");
	if (ret)
		return iio_probe_err(p, err, errlen, -EINVAL, "needs %s", cfg->needs);
	if (!st->numerator || !st->denominator)
		return iio_probe_err(p, err, errlen, -EINVAL, "invalid scaling factor %d/%d",
				     st->numerator, st->denominator);
	return 0;
}

static int rescale_probe(const struct iio_probe *p, struct iio_dev **out, char *err, size_t errlen)
{
	const char *src_dev = NULL, *src_chan = NULL;
	struct rescale_state *st;
	struct iio_dev *indio_dev;
	int ret;

	if (!p->reg || iio_probe_prop_str(p, "io_device", &src_dev) ||
	    iio_probe_prop_str(p, "io_channel", &src_chan))
		return iio_probe_err(p, err, errlen, -EINVAL, "needs io_device and io_channel "
				     "(the ADC input it measures through)");
	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	ret = rescale_ratio(p, st, err, errlen);
	if (ret)
		goto err_put_dev;
	ret = iio_channel_get_provider(p->reg, src_dev, src_chan, &st->source);
	if (ret) {
		iio_probe_err(p, err, errlen, ret, "io_device %s io_channel %s: %s", src_dev,
			      src_chan, ret == -EINVAL ? "no such channel" :
			      ret == -ENOTUNIQ ? "ambiguous device" : "no such device");
		goto err_put_dev;
	}
	ret = rescale_configure_channel(st, rescale_cfg[p->id->driver_data].type);
	if (ret) {
		iio_probe_err(p, err, errlen, ret, "%s %s has neither a raw value with a scale "
			      "or offset nor a processed value to rescale", src_dev, src_chan);
		goto err_release_source;
	}
	snprintf(st->name, sizeof(st->name), "%s", p->name);
	iio_device_setup(indio_dev, st->name, &st->chan, 1, &rescale_info);
	indio_dev->label = p->label;
	iio_device_set_io_source(indio_dev, st->source->indio_dev);
	*out = indio_dev;
	return 0;

err_release_source:
	iio_channel_release(st->source);
	st->source = NULL;
err_put_dev:
	iio_device_put(indio_dev);
	return ret;
}

/*
 * The source stays referenced until the device is freed: remove() runs
 * under the device lock when it is unregistered, and the source reference
 * is what keeps io_source valid until then.
 */
static void rescale_remove(struct iio_dev *indio_dev)
{
	struct rescale_state *st = iio_priv(indio_dev);

	iio_device_set_io_source(indio_dev, NULL);
	iio_channel_release(st->source);
	st->source = NULL;
}

static const struct iio_driver rescale_driver = {
	.name = "iio-rescale",
	.bus = IIO_DRIVER_BUS_NONE,
	.id_table = rescale_ids,
	.probe = rescale_probe, .remove = rescale_remove,
	.takes_name = true,
};
IIO_DRIVER_REGISTER(rescale_driver);
