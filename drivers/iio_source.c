/*
 * iio_source.c - the sources linked in (see iio_source.h), walked as the
 * driver table is: a link-time section, so that this file names none.
 */
#include "iio_source.h"

extern const struct iio_source *const __start_iiowire_sources[] __attribute__((weak));
extern const struct iio_source *const __stop_iiowire_sources[] __attribute__((weak));

size_t iio_source_count(void)
{
	if (!__start_iiowire_sources)
		return 0;
	return (size_t)(__stop_iiowire_sources - __start_iiowire_sources);
}

const struct iio_source *iio_source_at(size_t i)
{
	return i < iio_source_count() ? __start_iiowire_sources[i] : NULL;
}

const struct iio_source *iio_source_of_driver(const struct iio_driver *drv)
{
	size_t i;

	for (i = 0; drv && i < iio_source_count(); i++)
		if (iio_source_at(i)->driver == drv)
			return iio_source_at(i);
	return NULL;
}

const struct iio_source *iio_source_serving_all(void)
{
	size_t i;

	for (i = 0; i < iio_source_count(); i++)
		if (iio_source_at(i)->serves_all())
			return iio_source_at(i);
	return NULL;
}

const struct iio_source *iio_source_of_device(const struct iio_dev *dev)
{
	size_t i;

	for (i = 0; dev && i < iio_source_count(); i++)
		if (iio_source_at(i)->owns(dev))
			return iio_source_at(i);
	return NULL;
}
