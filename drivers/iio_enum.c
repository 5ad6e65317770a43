/*
 * iio_enum.c - ext_info attributes that take one of a fixed list of words
 * (the DACs' powerdown_mode and its _available list), as the kernel's
 * iio_enum_read(), iio_enum_write() and iio_enum_available_read() in
 * industrialio-core.c: the word printed with a newline, a written word
 * matched whole (one trailing newline allowed, as sysfs_streq()), the list
 * space-separated. Place in the flow: core -> *kit* -> driver's get/set.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iio_kit.h"

int iio_enum_read(struct iio_dev *indio_dev, uintptr_t priv, const struct iio_chan_spec *chan,
		  char *buf, size_t len)
{
	const struct iio_enum *e = (const struct iio_enum *)priv;
	int i, n;

	if (!e->get)
		return -EINVAL;
	i = e->get(indio_dev, chan);
	if (i < 0)
		return i;
	if ((unsigned int)i >= e->num_items || !e->items[i])
		return -EINVAL;
	n = snprintf(buf, len, "%s\n", e->items[i]);
	return n < 0 || (size_t)n >= len ? -EFBIG : n;
}

/* __sysfs_match_string(): the index of the word @buf is, or -EINVAL. */
static int iio_enum_match(const struct iio_enum *e, const char *buf, size_t len)
{
	unsigned int i;

	if (len && buf[len - 1] == '\n')
		len--;
	for (i = 0; i < e->num_items; i++)
		if (e->items[i] && strlen(e->items[i]) == len && !memcmp(e->items[i], buf, len))
			return (int)i;
	return -EINVAL;
}

int iio_enum_write(struct iio_dev *indio_dev, uintptr_t priv, const struct iio_chan_spec *chan,
		   const char *buf, size_t len)
{
	const struct iio_enum *e = (const struct iio_enum *)priv;
	int i;

	if (!e->set)
		return -EINVAL;
	i = iio_enum_match(e, buf, strnlen(buf, len));
	if (i < 0)
		return i;
	return e->set(indio_dev, chan, (unsigned int)i);
}

int iio_enum_available_read(struct iio_dev *indio_dev, uintptr_t priv,
			    const struct iio_chan_spec *chan, char *buf, size_t len)
{
	const struct iio_enum *e = (const struct iio_enum *)priv;
	size_t used = 0;
	unsigned int i;
	int n;

	(void)indio_dev;
	(void)chan;
	for (i = 0; i < e->num_items; i++) {
		if (!e->items[i])
			continue;
		n = snprintf(buf + used, len - used, "%s ", e->items[i]);
		if (n < 0 || (size_t)n >= len - used)
			return -EFBIG;
		used += (size_t)n;
	}
	/* the last blank becomes the newline, as the kernel's does */
	if (!used)
		return -EINVAL;
	buf[used - 1] = '\n';
	return (int)used;
}
