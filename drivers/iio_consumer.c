/*
 * iio_consumer.c - the kernel's in-kernel consumer API (inkern.c) on a registry.
 *
 * A consumer names itself and a channel; the registry's maps say which
 * provider and which datasheet channel that is. Every handle pins its
 * provider with a reference, and every accessor takes the provider's lock,
 * checks that it is not gone (-ENODEV) and only then calls the driver's
 * read_raw/write_raw, so a provider unregistered while a consumer holds a
 * channel never leaves a dangling pointer (reference §4.3). Arithmetic is
 * iio_value.c's (mainline's rules, §3.2). Place in the flow: core -> *consumer*
 * -> server / hwmon bridge. No text formatting, no logging, no bus access of
 * its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iio_consumer.h"
#include "iio_core.h"
#include "iio_value.h"

/* read_raw_multi answers into this many ints, as the kernel's INDIO_MAX_RAW_ELEMENTS */
#define IIO_CONSUMER_MAX_RAW_ELEMENTS	4

/*
 * Fill @chan from one map: reference the provider and resolve the label.
 * Return: 0, -ENODEV (provider gone), -EINVAL (no such datasheet name), -ENOMEM.
 */
static int iio_consumer_fill(struct iio_channel *chan, const struct iio_map *map,
			     struct iio_dev *provider)
{
	const struct iio_chan_spec *spec;
	bool gone;

	iio_device_lock(provider);
	gone = iio_device_is_gone(provider);
	iio_device_unlock(provider);
	if (gone)
		return -ENODEV;
	/* a NULL label would give the kernel a NULL channel and a later crash; refuse it */
	spec = iio_device_find_channel(provider, map->adc_channel_label);
	if (!spec)
		return -EINVAL;
	chan->consumer_channel = map->consumer_channel ? strdup(map->consumer_channel) : NULL;
	chan->provider_label = strdup(map->adc_channel_label);
	if ((map->consumer_channel && !chan->consumer_channel) || !chan->provider_label)
		goto err_free_names;
	chan->indio_dev = iio_device_get(provider);
	chan->channel = spec;
	return 0;

err_free_names:
	free((char *)chan->consumer_channel);
	free((char *)chan->provider_label);
	chan->consumer_channel = NULL;
	chan->provider_label = NULL;
	return -ENOMEM;
}

/* Drop what iio_consumer_fill() took; leaves the element zeroed. */
static void iio_consumer_clear(struct iio_channel *chan)
{
	free((char *)chan->consumer_channel);
	free((char *)chan->provider_label);
	iio_device_put(chan->indio_dev);
	memset(chan, 0, sizeof(*chan));
}

int iio_channel_get(struct iio_registry *reg, const char *consumer, const char *channel,
		    struct iio_channel **out)
{
	const struct iio_map *map = NULL;
	struct iio_dev *provider = NULL;
	struct iio_channel *chan;
	int i, n, ret;

	if (!consumer && !channel)
		return -ENODEV;
	n = iio_registry_map_count(reg);
	for (i = 0; i < n; i++) {
		map = iio_registry_map_at(reg, i, &provider);
		/* NULL on either side of the query is a wildcard; first match wins */
		if (consumer && (!map->consumer_dev_name ||
				 strcmp(map->consumer_dev_name, consumer) != 0))
			continue;
		if (channel && (!map->consumer_channel ||
				strcmp(map->consumer_channel, channel) != 0))
			continue;
		break;
	}
	if (i == n)
		return -ENODEV;
	chan = calloc(1, sizeof(*chan));
	if (!chan)
		return -ENOMEM;
	ret = iio_consumer_fill(chan, map, provider);
	if (ret) {
		free(chan);
		return ret;
	}
	*out = chan;
	return 0;
}

int iio_channel_get_provider(struct iio_registry *reg, const char *provider, const char *label,
			     struct iio_channel **out)
{
	struct iio_map map = { .adc_dev_name = provider, .adc_channel_label = label };
	struct iio_channel *chan;
	struct iio_dev *dev;
	int ret;

	if (!provider || !label)
		return -EINVAL;
	ret = iio_registry_find(reg, provider, &dev, NULL, 0);
	if (ret)
		return ret;
	chan = calloc(1, sizeof(*chan));
	if (!chan)
		return -ENOMEM;
	ret = iio_consumer_fill(chan, &map, dev);
	if (ret) {
		free(chan);
		return ret;
	}
	*out = chan;
	return 0;
}

int iio_channel_get_all(struct iio_registry *reg, const char *consumer,
			struct iio_channel **out)
{
	const struct iio_map *map;
	struct iio_dev *provider;
	struct iio_channel *chans;
	int i, n, count = 0, k = 0, ret;

	if (!consumer)
		return -EINVAL;
	n = iio_registry_map_count(reg);
	for (i = 0; i < n; i++) {
		map = iio_registry_map_at(reg, i, NULL);
		if (map->consumer_dev_name && strcmp(map->consumer_dev_name, consumer) == 0)
			count++;
	}
	if (!count)
		return -ENODEV;
	/* one more, zeroed: the terminator whose indio_dev is NULL */
	chans = calloc((size_t)count + 1, sizeof(*chans));
	if (!chans)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		map = iio_registry_map_at(reg, i, &provider);
		if (!map->consumer_dev_name || strcmp(map->consumer_dev_name, consumer) != 0)
			continue;
		ret = iio_consumer_fill(&chans[k], map, provider);
		if (ret)
			goto err_release_filled;
		k++;
	}
	*out = chans;
	return 0;

err_release_filled:
	iio_channel_release_all(chans);
	return ret;
}

void iio_channel_release(struct iio_channel *chan)
{
	if (!chan)
		return;
	iio_consumer_clear(chan);
	free(chan);
}

void iio_channel_release_all(struct iio_channel *chans)
{
	struct iio_channel *c;

	if (!chans)
		return;
	for (c = chans; c->indio_dev; c++)
		iio_consumer_clear(c);
	free(chans);
}

bool iio_channel_has_info(const struct iio_chan_spec *spec, enum iio_chan_info_enum info)
{
	unsigned long bit = BIT(info);

	return (spec->info_mask_separate | spec->info_mask_shared_by_type |
		spec->info_mask_shared_by_dir | spec->info_mask_shared_by_all) & bit;
}

/*
 * Take the provider's lock and fail with -ENODEV once it is gone. Every
 * accessor pairs this with iio_device_unlock(); the driver is called only
 * in between, so remove() never runs under a caller.
 */
static int iio_consumer_lock(struct iio_channel *chan)
{
	if (!chan || !chan->indio_dev)
		return -ENODEV;
	iio_device_lock(chan->indio_dev);
	if (iio_device_is_gone(chan->indio_dev) || !chan->indio_dev->info) {
		iio_device_unlock(chan->indio_dev);
		return -ENODEV;
	}
	return 0;
}

/* One driver read with the lock held, as inkern.c's iio_channel_read(). */
static int iio_consumer_read_locked(struct iio_channel *chan, int *val, int *val2,
				    enum iio_chan_info_enum info)
{
	const struct iio_info *ops = chan->indio_dev->info;
	int vals[IIO_CONSUMER_MAX_RAW_ELEMENTS];
	int unused, val_len = 2, ret;

	if (!val2)
		val2 = &unused;
	if (!iio_channel_has_info(chan->channel, info))
		return -EINVAL;
	if (ops->read_raw_multi) {
		ret = ops->read_raw_multi(chan->indio_dev, chan->channel,
					  IIO_CONSUMER_MAX_RAW_ELEMENTS, vals, &val_len, info);
		*val = vals[0];
		*val2 = vals[1];
		return ret;
	}
	if (!ops->read_raw)
		return -EINVAL;
	return ops->read_raw(chan->indio_dev, chan->channel, val, val2, info);
}

static int iio_consumer_read(struct iio_channel *chan, int *val, int *val2,
			     enum iio_chan_info_enum info)
{
	int ret = iio_consumer_lock(chan);

	if (ret)
		return ret;
	ret = iio_consumer_read_locked(chan, val, val2, info);
	iio_device_unlock(chan->indio_dev);
	return ret;
}

int iio_read_channel_raw(struct iio_channel *chan, int *val)
{
	return iio_consumer_read(chan, val, NULL, IIO_CHAN_INFO_RAW);
}

int iio_read_channel_scale(struct iio_channel *chan, int *val, int *val2)
{
	return iio_consumer_read(chan, val, val2, IIO_CHAN_INFO_SCALE);
}

int iio_read_channel_offset(struct iio_channel *chan, int *val, int *val2)
{
	return iio_consumer_read(chan, val, val2, IIO_CHAN_INFO_OFFSET);
}

int iio_read_channel_attribute(struct iio_channel *chan, int *val, int *val2,
			       enum iio_chan_info_enum info)
{
	if ((unsigned int)info >= IIO_CHAN_INFO_COUNT)
		return -EINVAL;
	return iio_consumer_read(chan, val, val2, info);
}

/*
 * Mainline's iio_convert_raw_to_processed_unlocked(): offset (only if the
 * channel has one; a failed read counts as none), then scale (a channel
 * without one, or a failed read, gives (raw + offset) * @scale).
 */
static int iio_consumer_convert_locked(struct iio_channel *chan, int raw, int *processed,
				       unsigned int scale)
{
	int otype = 0, oval = 0, oval2 = 0, stype = 0, sval = 0, sval2 = 0;
	int has_offset = 0, has_scale = 0, ret;

	if (iio_channel_has_info(chan->channel, IIO_CHAN_INFO_OFFSET)) {
		ret = iio_consumer_read_locked(chan, &oval, &oval2, IIO_CHAN_INFO_OFFSET);
		if (ret >= 0) {
			otype = ret;
			has_offset = 1;
		}
	}
	ret = iio_consumer_read_locked(chan, &sval, &sval2, IIO_CHAN_INFO_SCALE);
	if (ret >= 0) {
		stype = ret;
		has_scale = 1;
	}
	return iio_raw_to_processed(raw, has_offset, otype, oval, oval2, has_scale, stype,
				    sval, sval2, scale, processed);
}

int iio_convert_raw_to_processed(struct iio_channel *chan, int raw, int *processed,
				 unsigned int scale)
{
	int ret = iio_consumer_lock(chan);

	if (ret)
		return ret;
	ret = iio_consumer_convert_locked(chan, raw, processed, scale);
	iio_device_unlock(chan->indio_dev);
	return ret;
}

int iio_read_channel_processed_scale(struct iio_channel *chan, int *val, unsigned int scale)
{
	int pval = 0, pval2 = 0, raw = 0, ret;

	ret = iio_consumer_lock(chan);
	if (ret)
		return ret;
	if (iio_channel_has_info(chan->channel, IIO_CHAN_INFO_PROCESSED)) {
		/*
		 * the driver's own value, its fraction counted (6.18); ERANGE where
		 * the kernel wraps (PROTOCOL.md, CREAD)
		 */
		ret = iio_consumer_read_locked(chan, &pval, &pval2, IIO_CHAN_INFO_PROCESSED);
		if (ret >= 0)
			ret = iio_multiply_value_checked(val, scale, ret, pval, pval2);
	} else {
		ret = iio_consumer_read_locked(chan, &raw, NULL, IIO_CHAN_INFO_RAW);
		if (ret >= 0)
			ret = iio_consumer_convert_locked(chan, raw, val, scale);
	}
	iio_device_unlock(chan->indio_dev);
	/* mainline since bb21ee31 returns 0 on both paths */
	return ret < 0 ? ret : 0;
}

int iio_read_channel_processed(struct iio_channel *chan, int *val)
{
	return iio_read_channel_processed_scale(chan, val, 1);
}

int iio_get_channel_type(struct iio_channel *chan, enum iio_chan_type *type)
{
	int ret = iio_consumer_lock(chan);

	if (ret)
		return ret;
	*type = chan->channel->type;
	iio_device_unlock(chan->indio_dev);
	return 0;
}

int iio_write_channel_attribute(struct iio_channel *chan, int val, int val2,
				enum iio_chan_info_enum info)
{
	int ret = iio_consumer_lock(chan);

	if (ret)
		return ret;
	/* the info bit is not checked, as in the kernel: the driver decides */
	if (chan->indio_dev->info->write_raw)
		ret = chan->indio_dev->info->write_raw(chan->indio_dev, chan->channel,
						       val, val2, info);
	else
		ret = -EINVAL;
	iio_device_unlock(chan->indio_dev);
	return ret;
}

int iio_write_channel_raw(struct iio_channel *chan, int val)
{
	return iio_write_channel_attribute(chan, val, 0, IIO_CHAN_INFO_RAW);
}

int iio_read_channel_label(struct iio_channel *chan, char *buf, size_t len)
{
	char label[IIO_LABEL_MAX];
	const struct iio_info *ops;
	int ret;
	size_t n;

	ret = iio_consumer_lock(chan);
	if (ret)
		return ret;
	/* unlike the kernel, under the lock: the label callback is a driver call too */
	ops = chan->indio_dev->info;
	if (ops->read_label) {
		ret = ops->read_label(chan->indio_dev, chan->channel, label);
	} else if (chan->channel->extend_name) {
		n = strlen(chan->channel->extend_name);
		if (n + 2 > sizeof(label)) {
			ret = -EFBIG;
		} else {
			memcpy(label, chan->channel->extend_name, n);
			label[n] = '\n';
			label[n + 1] = '\0';
			ret = (int)n + 1;
		}
	} else {
		ret = -EINVAL;
	}
	iio_device_unlock(chan->indio_dev);
	if (ret < 0)
		return ret;
	if (ret >= IIO_LABEL_MAX)
		return -EFBIG;
	if ((size_t)ret >= len)
		return -EFBIG;
	memcpy(buf, label, (size_t)ret);
	buf[ret] = '\0';
	return ret;
}
