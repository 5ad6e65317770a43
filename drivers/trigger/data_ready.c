/*
 * data_ready.c - a chip's own data-ready trigger ("<name>-dev<N>", as
 * iio_trigger_alloc(dev, "%s-dev%d") names it): it fires when the chip has
 * a conversion, which for a modelled chip is its conversion rate, so it is
 * TIMED with the period the owning driver gives.
 */
#include <errno.h>
#include <stdlib.h>

#include "iio_trigger.h"

struct iio_dready {
	struct iio_dev *owner;	/* not referenced: it unregisters its trigger first */
	int (*period)(struct iio_dev *owner, uint64_t *period_ns);
};

static const char *const iio_dready_files[] = { "name", NULL };

static const char *const *iio_dready_names(const struct iio_trigger *trig)
{
	(void)trig;
	return iio_dready_files;
}

static uint64_t iio_dready_period(const struct iio_trigger *trig)
{
	const struct iio_dready *d = trig->priv;
	uint64_t ns = 0;

	return d->period(d->owner, &ns) == 0 ? ns : 0;
}

static const struct iio_trigger_ops iio_dready_ops = {
	.type = "data-ready",
	.caps = IIO_TRIGGER_TIMED, .period_ns = iio_dready_period,
	.attr_names = iio_dready_names,
	.release = iio_trigger_release_priv,
};

int iio_dready_trigger_create(struct iio_registry *reg, const char *name, struct iio_dev *owner,
			      int (*period)(struct iio_dev *owner, uint64_t *period_ns),
			      struct iio_trigger **out)
{
	struct iio_dready *d = malloc(sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->owner = owner;
	d->period = period;
	return iio_trigger_register(reg, name, -1, &iio_dready_ops, d, out);
}
