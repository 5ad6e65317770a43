/*
 * iio_consumer.h - the consumer API of the kernel's inkern.c, on a registry.
 *
 * A consumer (the hwmon bridge, a remote client through the server) names
 * itself and its channel; the maps say which provider channel that is. A
 * struct iio_channel pins its provider with a reference, so a provider that
 * goes away leaves the consumer with -ENODEV, never a dangling pointer.
 * Success values follow current mainline (see each function).
 */
#ifndef IIOWIRE_IIO_CONSUMER_H
#define IIOWIRE_IIO_CONSUMER_H

#include "iio.h"
#include "iio_registry.h"

/**
 * struct iio_channel - a consumer's handle on one provider channel.
 * @indio_dev: referenced provider; @channel: its spec; @map: the map used.
 */
struct iio_channel {
	struct iio_dev *indio_dev;
	const struct iio_chan_spec *channel;
	const char *consumer_channel;	/* owned copy of the map's name */
	const char *provider_label;	/* owned copy: the datasheet name */
};

/**
 * iio_channel_get() - the first map (registration order) with this consumer
 * and channel name; NULL is a wildcard for either, both NULL is -ENODEV.
 * @out: owned: release with iio_channel_release().
 * Return: 0, -ENODEV (no map, or provider gone), -EINVAL (label matches no
 * datasheet_name of the provider), -ENOMEM.
 */
int iio_channel_get(struct iio_registry *reg, const char *consumer, const char *channel,
		    struct iio_channel **out);
/**
 * iio_channel_get_provider() - a channel by provider and label, without a
 * map, as a firmware io-channels reference gives one in the kernel.
 * @provider: iio:deviceN, hardware id, label or name (iio_registry_find()).
 * @label: datasheet name, or ABI id (iio_device_find_channel()).
 * @out: owned: release with iio_channel_release().
 * Return: 0, -ENODEV (no such provider, or gone), -ENOTUNIQ, -EINVAL (no
 * such channel), -ENOMEM.
 */
int iio_channel_get_provider(struct iio_registry *reg, const char *provider, const char *label,
			     struct iio_channel **out);
/**
 * iio_channel_get_all() - every map of @consumer, in map order.
 * @out: owned array ended by an element with indio_dev NULL: release with
 * iio_channel_release_all().
 * Return: 0, -EINVAL (consumer NULL, or a label resolves to nothing),
 * -ENODEV (no map), -ENOMEM.
 */
int iio_channel_get_all(struct iio_registry *reg, const char *consumer,
			struct iio_channel **out);
/** iio_channel_release() / iio_channel_release_all() - drop references and memory; NULL-safe. */
void iio_channel_release(struct iio_channel *chan);
void iio_channel_release_all(struct iio_channel *chans);

/**
 * iio_channel_has_info() - whether @info is in any of @spec's masks, as the
 * kernel's helper of that name. Any thread.
 * Return: true if the channel has the attribute.
 */
bool iio_channel_has_info(const struct iio_chan_spec *spec, enum iio_chan_info_enum info);

/* All accessors: -ENODEV once the provider is gone. */
/** Return: the driver's IIO_VAL_* code (> 0), -EINVAL if RAW is in no mask. */
int iio_read_channel_raw(struct iio_channel *chan, int *val);
/** Return: 0 (the value in the standard unit: mV, m°C, ...), -EINVAL. */
int iio_read_channel_processed(struct iio_channel *chan, int *val);
/** As processed, with a caller's multiplier (1000: µV from a voltage). Return: 0, -EINVAL. */
int iio_read_channel_processed_scale(struct iio_channel *chan, int *val, unsigned int scale);
/** Return: IIO_VAL_* code of the scale / offset, -EINVAL if the channel has none. */
int iio_read_channel_scale(struct iio_channel *chan, int *val, int *val2);
int iio_read_channel_offset(struct iio_channel *chan, int *val, int *val2);
/** Return: IIO_VAL_* code, -EINVAL if @info is in no mask. */
int iio_read_channel_attribute(struct iio_channel *chan, int *val, int *val2,
			       enum iio_chan_info_enum info);
/** Return: 0 with @processed in standard units times @scale, -EINVAL. */
int iio_convert_raw_to_processed(struct iio_channel *chan, int raw, int *processed,
				 unsigned int scale);
/** Return: 0. */
int iio_get_channel_type(struct iio_channel *chan, enum iio_chan_type *type);
/** Write RAW (outputs). The info bit is not checked, as in the kernel. Return: driver's result. */
int iio_write_channel_raw(struct iio_channel *chan, int val);
int iio_write_channel_attribute(struct iio_channel *chan, int val, int val2,
				enum iio_chan_info_enum info);
/** iio_read_channel_label() - the provider's label text (with '\n'); -EINVAL without one. */
int iio_read_channel_label(struct iio_channel *chan, char *buf, size_t len);

#endif /* IIOWIRE_IIO_CONSUMER_H */
