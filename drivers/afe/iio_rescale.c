/*
 * iio_rescale.c - analog front ends: a channel of another device seen
 * through a shunt, a current-sense amplifier or a voltage divider, as the
 * kernel's drivers/iio/afe/iio-rescale.c presents them.
 *
 * The device consumes one provider channel (board keys "io_device" and
 * "io_channel": the ADC and its datasheet name or ABI id) and offers one
 * channel of its own type, in_current0_* or in_voltage0_*, whose raw value
 * is the source's and whose scale is the source's multiplied by the front
 * end's ratio. A board maps it to consumers like any ADC channel, which is
 * how the hwmon bridge gets a current input. Place in the flow: core ->
 * *driver* (a consumer of the core) -> core. Never touches a bus itself.
 *
 * Ratios, from the kernel's device-tree bindings (integers, µΩ and Ω):
 *   current-sense-shunt:     1e6 / shunt_resistor_micro_ohms
 *   current-sense-amplifier: 1e6 * sense_gain_div / (sense_resistor_micro_ohms * sense_gain_mult)
 *   voltage-divider:         full_ohms / output_ohms
 * The kernel prints a rescaled FRACTIONAL_LOG2 scale as INT_PLUS_NANO after
 * 64-bit precision juggling; here it stays exact as FRACTIONAL (val, val2),
 * whose last digits can differ: deviations K-9 and K-10 (maps/README.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_consumer.h"
#include "iio_core.h"

enum rescale_kind {
	RESCALE_SHUNT,
	RESCALE_AMPLIFIER,
	RESCALE_DIVIDER,
};

static const struct iio_device_id rescale_ids[] = {
	{ "current-sense-shunt", RESCALE_SHUNT },
	{ "current-sense-amplifier", RESCALE_AMPLIFIER },
	{ "voltage-divider", RESCALE_DIVIDER },
	{ NULL, 0 },
};

struct rescale_state {
	struct iio_channel *source;
	struct iio_chan_spec chan;
	char name[64];
	int64_t numerator;
	int64_t denominator;
};

static int64_t rescale_gcd(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Reduce num/den until both fit in an int; exact when the gcd allows it. */
static int rescale_fraction(int64_t num, int64_t den, int *val, int *val2)
{
	int64_t g = rescale_gcd(num < 0 ? -num : num, den);

	if (g > 1) {
		num /= g;
		den /= g;
	}
	while (num > INT_MAX || num < INT_MIN || den > INT_MAX) {
		num /= 2;
		den /= 2;
	}
	if (den == 0)
		return -ERANGE;
	*val = (int)num;
	*val2 = (int)den;
	return IIO_VAL_FRACTIONAL;
}

/*
 * The source's scale times numerator/denominator, kept exact where the types
 * allow. Return: the IIO_VAL_* of the result, or -EINVAL for a source scale
 * type a ratio cannot apply to (as the kernel refuses).
 */
static int rescale_process_scale(const struct rescale_state *st, int type, int *val, int *val2)
{
	int64_t num = st->numerator, den = st->denominator;

	switch (type) {
	case IIO_VAL_INT:
		return rescale_fraction((int64_t)*val * num, den, val, val2);
	case IIO_VAL_FRACTIONAL:
		return rescale_fraction((int64_t)*val * num, (int64_t)*val2 * den, val, val2);
	case IIO_VAL_FRACTIONAL_LOG2:
		if (*val2 < 0 || *val2 > 30)
			return -EINVAL;
		return rescale_fraction((int64_t)*val * num, den << *val2, val, val2);
	case IIO_VAL_INT_PLUS_MICRO:
	case IIO_VAL_INT_PLUS_NANO: {
		int64_t unit = type == IIO_VAL_INT_PLUS_MICRO ? 1000000 : 1000000000;
		int64_t whole = (int64_t)*val * unit + (*val < 0 ? -1 : 1) * (int64_t)*val2;

		if (*val == 0 && *val2 < 0)
			whole = *val2;
		return rescale_fraction(whole * num, unit * den, val, val2);
	}
	default:
		return -EINVAL;
	}
}

static int rescale_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int *val, int *val2, long mask)
{
	struct rescale_state *st = iio_priv(indio_dev);
	int ret;

	(void)chan;
	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		return iio_read_channel_raw(st->source, val);
	case IIO_CHAN_INFO_OFFSET:
		return iio_read_channel_offset(st->source, val, val2);
	case IIO_CHAN_INFO_SCALE:
		ret = iio_read_channel_scale(st->source, val, val2);
		if (ret < 0)
			return ret;
		return rescale_process_scale(st, ret, val, val2);
	default:
		return -EINVAL;
	}
}

static const struct iio_info rescale_info = {
	.read_raw = rescale_read_raw,
};

/* The ratio from the board properties of each kind. Return: 0 or -EINVAL (@err says which). */
static int rescale_ratio(const struct iio_probe *p, struct rescale_state *st,
			 char *err, size_t errlen)
{
	int a = 0, b = 1, c = 1;

	switch (p->id->driver_data) {
	case RESCALE_SHUNT:
		if (iio_probe_prop_int(p, "shunt_resistor_micro_ohms", &a) || a <= 0)
			goto err_missing;
		st->numerator = 1000000;
		st->denominator = a;
		break;
	case RESCALE_AMPLIFIER:
		if (iio_probe_prop_int(p, "sense_resistor_micro_ohms", &a) || a <= 0)
			goto err_missing;
		if ((iio_probe_prop_int(p, "sense_gain_mult", &b) != -ENOENT && b <= 0) ||
		    (iio_probe_prop_int(p, "sense_gain_div", &c) != -ENOENT && c <= 0))
			goto err_missing;
		st->numerator = 1000000LL * c;
		st->denominator = (int64_t)a * b;
		break;
	case RESCALE_DIVIDER:
		if (iio_probe_prop_int(p, "full_ohms", &a) || a <= 0 ||
		    iio_probe_prop_int(p, "output_ohms", &b) || b <= 0 || b > a)
			goto err_missing;
		st->numerator = a;
		st->denominator = b;
		break;
	default:
		return -EINVAL;
	}
	return 0;

err_missing:
	return iio_probe_err(p, err, errlen, -EINVAL, "needs positive %s",
			     p->id->driver_data == RESCALE_SHUNT ? "shunt_resistor_micro_ohms" :
			     p->id->driver_data == RESCALE_AMPLIFIER ?
			     "sense_resistor_micro_ohms (and sense_gain_mult/div if given)" :
			     "full_ohms and output_ohms (output <= full)");
}

static int rescale_probe(const struct iio_probe *p, struct iio_dev **out, char *err, size_t errlen)
{
	const char *src_dev = NULL, *src_chan = NULL;
	const struct iio_chan_spec *schan;
	struct rescale_state *st;
	struct iio_dev *indio_dev;
	unsigned long have;
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
	schan = st->source->channel;
	have = schan->info_mask_separate | schan->info_mask_shared_by_type |
	       schan->info_mask_shared_by_dir | schan->info_mask_shared_by_all;
	if (!(have & BIT(IIO_CHAN_INFO_RAW)) || !(have & BIT(IIO_CHAN_INFO_SCALE))) {
		ret = iio_probe_err(p, err, errlen, -EINVAL, "%s %s has no raw value and scale "
				    "to rescale", src_dev, src_chan);
		goto err_release_source;
	}
	st->chan = (struct iio_chan_spec){
		.type = p->id->driver_data == RESCALE_DIVIDER ? IIO_VOLTAGE : IIO_CURRENT,
		.indexed = 1,
		.channel = 0,
		.output = schan->output,
		.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) |
				      (have & BIT(IIO_CHAN_INFO_OFFSET)),
		.scan_index = -1,
	};
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
	.probe = rescale_probe,
	.remove = rescale_remove,
	.takes_name = true,
};
IIO_DRIVER_REGISTER(rescale_driver);
