/*
 * hrtimer.c - iio-trig-hrtimer: a trigger that fires at its
 * sampling_frequency, the server's timer doing the firing (TIMED).
 *
 * Values and errors of sampling_frequency are the current driver's: mHz
 * fixed point written with 3 decimals (iio_str_to_fixpoint(buf, 100)),
 * read as INT_PLUS_MICRO, negative -ERANGE, 0 or over UINT_MAX mHz
 * -EINVAL; a new trigger runs at 100 Hz.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "iio_trigger.h"
#include "iio_value.h"

/* iio-trig-hrtimer's default rate, in mHz */
#define IIO_HRTIMER_DEFAULT_MHZ		100000ULL

/* The rate: written on the loop, read by the server's timer and any reader. */
struct iio_hrtimer {
	_Atomic uint64_t mhz;
};

static const char *const iio_hrtimer_files[] = { "name", "sampling_frequency", NULL };

static const char *const *iio_hrtimer_names(const struct iio_trigger *trig)
{
	(void)trig;
	return iio_hrtimer_files;
}

static unsigned int iio_hrtimer_mode(const struct iio_trigger *trig, const char *attr)
{
	(void)trig;
	return strcmp(attr, "sampling_frequency") == 0 ? 0644 : 0;
}

static int iio_hrtimer_read(struct iio_trigger *trig, const char *attr, char *buf, size_t len)
{
	const struct iio_hrtimer *h = trig->priv;
	uint64_t mhz = atomic_load(&h->mhz);
	int vals[2] = { (int)(mhz / 1000), (int)(mhz % 1000) * 1000 };

	if (strcmp(attr, "sampling_frequency") != 0)
		return -ENOENT;
	return iio_format_value(buf, len, IIO_VAL_INT_PLUS_MICRO, 2, vals);
}

static int iio_hrtimer_write(struct iio_trigger *trig, const char *attr, const char *text,
			     int64_t now_ns)
{
	struct iio_hrtimer *h = trig->priv;
	int integer, fract, ret;
	uint64_t mhz;

	(void)now_ns;
	if (strcmp(attr, "sampling_frequency") != 0)
		return -ENOENT;
	ret = iio_str_to_fixpoint(text, 100, &integer, &fract);
	if (ret)
		return ret;
	if (integer < 0 || fract < 0)
		return -ERANGE;
	mhz = (uint64_t)integer * 1000 + (uint64_t)fract;
	if (!mhz || mhz > UINT32_MAX)
		return -EINVAL;
	atomic_store(&h->mhz, mhz);
	iio_trigger_changed(trig);
	return 0;
}

static uint64_t iio_hrtimer_period(const struct iio_trigger *trig)
{
	const struct iio_hrtimer *h = trig->priv;
	uint64_t mhz = atomic_load(&h->mhz);

	return mhz ? 1000000000000ULL / mhz : 0;
}

static const struct iio_trigger_ops iio_hrtimer_ops = {
	.type = "hrtimer",
	.caps = IIO_TRIGGER_TIMED, .period_ns = iio_hrtimer_period,
	.attr_names = iio_hrtimer_names, .attr_mode = iio_hrtimer_mode,
	.attr_read = iio_hrtimer_read, .attr_write = iio_hrtimer_write,
	.release = iio_trigger_release_priv,
};

int iio_hrtimer_trigger_create(struct iio_registry *reg, const char *name,
			       struct iio_trigger **out)
{
	struct iio_hrtimer *h = malloc(sizeof(*h));

	if (!h)
		return -ENOMEM;
	atomic_init(&h->mhz, IIO_HRTIMER_DEFAULT_MHZ);
	return iio_trigger_register(reg, name, -1, &iio_hrtimer_ops, h, out);
}
