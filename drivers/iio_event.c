/*
 * iio_event.c - IIO events in the core (iio_event.h): the events/
 * attributes built from channels' event specs, their reads and writes
 * through the driver's event callbacks, and the per-device event queue.
 *
 * Names follow the kernel's iio_device_add_event(): per event spec and per
 * set bit of its four masks, the postfix "<type>_<dir>_<info>" (no dir for
 * IIO_EV_DIR_NONE) named by the channel-attribute rules of its sharing
 * level, under "events/"; a duplicate shared name is skipped, a duplicate
 * separate one refused. `_en` reads the driver's number as "%d" and takes
 * kstrtobool's words; values are written as INT_PLUS_MICRO. The queue is a
 * ring that drops its oldest entry when full and counts it (K-43).
 * Place in the flow: driver -> *core* -> server. No text formatting of its
 * own beyond the value formatter's, no logging.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iio_event.h"
#include "iio_kit.h"
#include "iio_priv.h"
#include "iio_value.h"

#define IIO_EVENT_MODE_RW	0644
#define IIO_EVENT_MODE_READ	0444
#define IIO_EVENT_MODE_WRITE	0200

/* The device's queue and its reader; allocated at the first open. */
struct iio_event_queue {
	struct iio_event_data ring[IIO_EVENT_QUEUE_LEN];
	unsigned int head;		/* oldest entry */
	unsigned int count;
	uint64_t lost;			/* dropped since the last read */
	int err;			/* iio_event_end(): the source failed */
	bool open;
	void (*notify)(void *ctx);
	void *ctx;
};

static void iio_event_seterr(char *err, size_t errlen, const char *what, const char *name,
			     int ret)
{
	if (err && errlen)
		snprintf(err, errlen, "%s %s: %s", what, name, strerror(-ret));
}

/* "thresh_rising_en", or "change_en" for a direction without text. */
static int iio_event_postfix(char *buf, size_t len, const struct iio_event_spec *ev,
			     unsigned int bit)
{
	const char *type = iio_event_type_name(ev->type);
	const char *dir = iio_event_dir_name(ev->dir);
	const char *info = iio_event_info_postfix((enum iio_event_info)bit);
	int n;

	if (!type || !info || (!dir && ev->dir != IIO_EV_DIR_NONE))
		return -EINVAL;
	if (ev->dir == IIO_EV_DIR_NONE)
		n = snprintf(buf, len, "%s_%s", type, info);
	else
		n = snprintf(buf, len, "%s_%s_%s", type, dir, info);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
}

static int iio_event_add_one(struct iio_core_attr_set *set, const struct iio_chan_spec *chan,
			     const struct iio_event_spec *ev, unsigned int bit,
			     enum iio_shared_by shared, char *err, size_t errlen)
{
	char postfix[IIO_ATTR_NAME_MAX], name[IIO_ATTR_NAME_MAX];
	struct iio_attr attr;
	int ret;

	ret = iio_event_postfix(postfix, sizeof(postfix), ev, bit);
	if (ret < 0) {
		if (err && errlen)
			snprintf(err, errlen, "channel %d: event info bit %u has no name",
				 chan->channel, bit);
		return ret;
	}
	ret = iio_attr_name_build(name, sizeof(name), chan, postfix, shared);
	if (ret < 0) {
		iio_event_seterr(err, errlen, "cannot name event attribute", postfix, ret);
		return ret;
	}
	memset(&attr, 0, sizeof(attr));
	if (snprintf(attr.name, sizeof(attr.name), "%s%s", IIO_EVENT_DIR, name) >=
	    (int)sizeof(attr.name))
		return -ENAMETOOLONG;
	attr.kind = IIO_ATTR_EVENT;
	attr.chan = chan;
	attr.info = (int)bit;
	attr.shared = shared;
	attr.mode = IIO_EVENT_MODE_RW;
	attr.ev = ev;
	ret = iio_core_set_add(set, &attr);
	if (ret == -EBUSY && shared != IIO_SEPARATE)
		return 0;
	if (ret < 0)
		iio_event_seterr(err, errlen, "cannot add", attr.name, ret);
	return ret;
}

static int iio_event_add_spec(struct iio_core_attr_set *set, const struct iio_chan_spec *chan,
			      const struct iio_event_spec *ev, char *err, size_t errlen)
{
	const struct {
		unsigned long mask;
		enum iio_shared_by shared;
	} levels[] = {
		{ ev->mask_separate, IIO_SEPARATE },
		{ ev->mask_shared_by_type, IIO_SHARED_BY_TYPE },
		{ ev->mask_shared_by_dir, IIO_SHARED_BY_DIR },
		{ ev->mask_shared_by_all, IIO_SHARED_BY_ALL },
	};
	unsigned int bit;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		for (bit = 0; bit < sizeof(unsigned long) * 8; bit++) {
			if (!(levels[i].mask & (1UL << bit)))
				continue;
			ret = iio_event_add_one(set, chan, ev, bit, levels[i].shared, err, errlen);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

static int iio_event_add_dev_attrs(struct iio_core_attr_set *set,
				   const struct iio_dev_attr *attrs, const char *dir,
				   char *err, size_t errlen)
{
	struct iio_attr attr;
	int ret;

	for (; attrs && attrs->name; attrs++) {
		memset(&attr, 0, sizeof(attr));
		if (snprintf(attr.name, sizeof(attr.name), "%s%s", dir, attrs->name) >=
		    (int)sizeof(attr.name))
			return -ENAMETOOLONG;
		attr.kind = IIO_ATTR_DEVICE;
		attr.shared = IIO_SHARED_BY_ALL;
		attr.mode = (attrs->read ? IIO_EVENT_MODE_READ : 0) |
			    (attrs->write ? IIO_EVENT_MODE_WRITE : 0);
		attr.dattr = attrs;
		ret = iio_core_set_add(set, &attr);
		if (ret < 0) {
			iio_event_seterr(err, errlen, "cannot add", attr.name, ret);
			return ret;
		}
	}
	return 0;
}

int iio_event_attrs_add(struct iio_core_attr_set *set, const struct iio_dev *indio_dev,
			char *err, size_t errlen)
{
	const struct iio_info *info = indio_dev->info;
	unsigned int j;
	int i, ret;

	for (i = 0; i < indio_dev->num_channels; i++) {
		const struct iio_chan_spec *chan = &indio_dev->channels[i];

		for (j = 0; j < chan->num_event_specs; j++) {
			ret = iio_event_add_spec(set, chan, &chan->event_spec[j], err, errlen);
			if (ret < 0)
				return ret;
		}
	}
	if (!info)
		return 0;
	ret = iio_event_add_dev_attrs(set, info->event_attrs, IIO_EVENT_DIR, err, errlen);
	if (ret < 0)
		return ret;
	return iio_event_add_dev_attrs(set, info->attrs, "", err, errlen);
}

bool iio_device_has_events(const struct iio_dev *indio_dev)
{
	int i;

	if (indio_dev->info && (indio_dev->info->event_attrs || indio_dev->info->event_open))
		return true;
	for (i = 0; i < indio_dev->num_channels; i++)
		if (indio_dev->channels[i].num_event_specs)
			return true;
	return false;
}

/*
 * A channel with event specs on a driver without the callbacks would call
 * a NULL function in the kernel (open point 1 of the events reference):
 * here such a file answers EINVAL (K-44).
 */
ssize_t iio_event_attr_read_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				   char *buf, size_t len)
{
	const struct iio_info *info = indio_dev->info;
	int vals[2] = { 0, 0 };
	int ret;

	if (attr->kind == IIO_ATTR_DEVICE) {
		if (!attr->dattr->read || !len)
			return -EINVAL;
		ret = attr->dattr->read(indio_dev, attr->dattr->private, buf, len);
		if (ret >= 0 && (size_t)ret >= len)
			return -EFBIG;
		if (ret >= 0)
			buf[ret] = '\0';
		return ret;
	}
	if (attr->info == IIO_EV_INFO_ENABLE) {
		if (!info || !info->read_event_config)
			return -EINVAL;
		vals[0] = info->read_event_config(indio_dev, attr->chan, attr->ev->type,
						  attr->ev->dir);
		if (vals[0] < 0)
			return vals[0];
		return iio_format_value(buf, len, IIO_VAL_INT, 2, vals);
	}
	if (!info || !info->read_event_value)
		return -EINVAL;
	ret = info->read_event_value(indio_dev, attr->chan, attr->ev->type, attr->ev->dir,
				     (enum iio_event_info)attr->info, &vals[0], &vals[1]);
	if (ret < 0)
		return ret;
	return iio_format_value(buf, len, ret, 2, vals);
}

int iio_event_attr_write_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				const char *text, size_t len)
{
	const struct iio_info *info = indio_dev->info;
	int val, val2, ret;
	bool on;

	if (attr->kind == IIO_ATTR_DEVICE) {
		ret = attr->dattr->write(indio_dev, attr->dattr->private, text, len);
		return ret > 0 ? 0 : ret;
	}
	if (attr->info == IIO_EV_INFO_ENABLE) {
		ret = iio_kstrtobool(text, &on);
		if (ret < 0)
			return ret;
		val = on;
		if (!info || !info->write_event_config)
			return -EINVAL;
		return info->write_event_config(indio_dev, attr->chan, attr->ev->type,
						attr->ev->dir, val);
	}
	if (!info || !info->write_event_value)
		return -EINVAL;
	/* always fixed point with 6 decimals: the kernel has no write_raw_get_fmt for events */
	ret = iio_parse_value_checked(text, IIO_VAL_INT_PLUS_MICRO, &val, &val2);
	if (ret < 0)
		return ret;
	return info->write_event_value(indio_dev, attr->chan, attr->ev->type, attr->ev->dir,
				       (enum iio_event_info)attr->info, val, val2);
}

int iio_push_event(struct iio_dev *indio_dev, uint64_t ev_code, int64_t timestamp)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	struct iio_event_queue *q;
	unsigned int tail;

	pthread_mutex_lock(&op->events_lock);
	q = op->events;
	if (q && q->open) {
		if (q->count == IIO_EVENT_QUEUE_LEN) {
			q->head = (q->head + 1) % IIO_EVENT_QUEUE_LEN;
			q->count--;
			q->lost++;
		}
		tail = (q->head + q->count) % IIO_EVENT_QUEUE_LEN;
		q->ring[tail].id = ev_code;
		q->ring[tail].timestamp = timestamp;
		q->count++;
		q->notify(q->ctx);
	}
	pthread_mutex_unlock(&op->events_lock);
	return 0;
}

int iio_event_open(struct iio_dev *indio_dev, void (*notify)(void *ctx), void *ctx)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	const struct iio_info *info = indio_dev->info;
	int ret = 0;

	if (!iio_device_has_events(indio_dev))
		return -ENODEV;
	pthread_mutex_lock(&op->events_lock);
	if (!op->events)
		op->events = calloc(1, sizeof(*op->events));
	if (!op->events)
		ret = -ENOMEM;
	else if (op->events->open)
		ret = -EBUSY;
	else if (iio_device_is_gone(indio_dev))
		ret = -ENODEV;
	if (!ret) {
		op->events->head = 0;
		op->events->count = 0;
		op->events->lost = 0;
		op->events->err = 0;
		op->events->notify = notify;
		op->events->ctx = ctx;
		op->events->open = true;
	}
	pthread_mutex_unlock(&op->events_lock);
	/* outside the lock: the source's thread pushes under it */
	if (!ret && info && info->event_open) {
		ret = info->event_open(indio_dev);
		if (ret < 0) {
			pthread_mutex_lock(&op->events_lock);
			op->events->open = false;
			pthread_mutex_unlock(&op->events_lock);
		}
	}
	return ret;
}

/* Mark the queue closed; Return: whether it was open (the caller closes the source). */
static bool iio_event_mark_closed(struct iio_dev_opaque *op)
{
	bool was = false;

	pthread_mutex_lock(&op->events_lock);
	if (op->events) {
		was = op->events->open;
		op->events->open = false;
		op->events->count = 0;
	}
	pthread_mutex_unlock(&op->events_lock);
	return was;
}

void iio_event_close(struct iio_dev *indio_dev)
{
	const struct iio_info *info = indio_dev->info;

	/* the source is stopped after the mark, and outside the lock its pushes take */
	if (iio_event_mark_closed(to_iio_dev_opaque(indio_dev)) && info && info->event_close)
		info->event_close(indio_dev);
}

void iio_event_end(struct iio_dev *indio_dev, int err)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);

	pthread_mutex_lock(&op->events_lock);
	if (op->events && op->events->open) {
		op->events->err = err;
		op->events->notify(op->events->ctx);
	}
	pthread_mutex_unlock(&op->events_lock);
}

int iio_event_read(struct iio_dev *indio_dev, struct iio_event_data *out, int max,
		   uint64_t *lost)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	struct iio_event_queue *q;
	int n = 0, err = 0;

	*lost = 0;
	pthread_mutex_lock(&op->events_lock);
	q = op->events;
	if (q && q->open) {
		while (n < max && q->count) {
			out[n++] = q->ring[q->head];
			q->head = (q->head + 1) % IIO_EVENT_QUEUE_LEN;
			q->count--;
		}
		*lost = q->lost;
		q->lost = 0;
		err = q->err;
	}
	pthread_mutex_unlock(&op->events_lock);
	if (!n && !*lost && err)
		return err;
	if (!n && !*lost && iio_device_is_gone(indio_dev))
		return -ENODEV;
	return n;
}

void iio_event_wake(struct iio_dev *indio_dev)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);

	pthread_mutex_lock(&op->events_lock);
	if (op->events && op->events->open)
		op->events->notify(op->events->ctx);
	pthread_mutex_unlock(&op->events_lock);
}

void iio_event_release(struct iio_dev *indio_dev)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);

	/* a reader that never closed: its source must not outlive the device */
	iio_event_close(indio_dev);
	free(op->events);
	op->events = NULL;
}
