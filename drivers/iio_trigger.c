/*
 * iio_trigger.c - the trigger core (see iio_trigger.h): the consumer list
 * each trigger drives, polls, references, and the "name" file every
 * trigger has. It knows no trigger types: their files, rates and rules are
 * their ops tables' (drivers/trigger/, drivers/kernel/kernel_trig.c).
 *
 * As industrialio-trigger.c: a trigger starts (set_trigger_state(true))
 * when its first consumer attaches and stops when the last leaves; the
 * registry's hooks (the server) run the timer and decide where a device's
 * handler runs. One mutex guards the consumer lists, the references and
 * the registries' trigger lists, since an attach or a current_trigger
 * store may run on a bus worker while the loop polls or removes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_buffer_priv.h"
#include "iio_registry.h"
#include "iio_value.h"

static pthread_mutex_t iio_trigger_mutex = PTHREAD_MUTEX_INITIALIZER;

void iio_trigger_lock(void)
{
	pthread_mutex_lock(&iio_trigger_mutex);
}

void iio_trigger_unlock(void)
{
	pthread_mutex_unlock(&iio_trigger_mutex);
}

struct iio_trigger *iio_trigger_get(struct iio_trigger *trig)
{
	if (trig) {
		iio_trigger_lock();
		trig->refs++;
		iio_trigger_unlock();
	}
	return trig;
}

void iio_trigger_put(struct iio_trigger *trig)
{
	bool last;

	if (!trig)
		return;
	iio_trigger_lock();
	last = --trig->refs == 0;
	iio_trigger_unlock();
	if (!last)
		return;
	if (trig->ops->release)
		trig->ops->release(trig);
	free(trig);
}

void iio_trigger_release_priv(struct iio_trigger *trig)
{
	free(trig->priv);
}

void iio_trigger_unlisted(struct iio_trigger *trig)
{
	iio_trigger_lock();
	trig->gone = true;
	iio_trigger_unlock();
	iio_trigger_put(trig);
}

unsigned int iio_trigger_caps(const struct iio_trigger *trig)
{
	return trig ? trig->ops->caps : 0;
}

uint64_t iio_trigger_period_ns(const struct iio_trigger *trig)
{
	if (!(iio_trigger_caps(trig) & IIO_TRIGGER_TIMED) || !trig->ops->period_ns)
		return 0;
	return trig->ops->period_ns(trig);
}

int iio_trigger_validate_device(struct iio_trigger *trig, struct iio_dev *indio_dev,
				bool self_timed)
{
	bool gone;

	iio_trigger_lock();
	gone = trig->gone;
	iio_trigger_unlock();
	if (gone)
		return -ENODEV;	/* removed while the store was on its way */
	/* the host fires its triggers for its own devices, and only it fires theirs */
	if (!!(trig->ops->caps & IIO_TRIGGER_EXTERNAL) != self_timed)
		return -EINVAL;
	return trig->ops->validate_device ? trig->ops->validate_device(trig, indio_dev) : 0;
}

int iio_trigger_attach_device(struct iio_trigger *trig, struct iio_dev *indio_dev)
{
	const struct iio_trigger_hooks *h = iio_registry_trigger_hooks(trig->reg);
	bool start;

	iio_trigger_lock();
	if (trig->nconsumers >= IIO_TRIGGER_CONSUMERS_MAX) {
		iio_trigger_unlock();
		return -EBUSY;
	}
	trig->consumers[trig->nconsumers++] = iio_device_get(indio_dev);
	start = trig->nconsumers == 1;
	iio_trigger_unlock();
	if (start && h && h->start)
		h->start(trig, h->ctx);
	return 0;
}

void iio_trigger_detach_device(struct iio_trigger *trig, struct iio_dev *indio_dev)
{
	const struct iio_trigger_hooks *h;
	bool stop = false, found = false;
	int i;

	if (!trig)
		return;
	h = iio_registry_trigger_hooks(trig->reg);
	iio_trigger_lock();
	for (i = 0; i < trig->nconsumers; i++) {
		if (trig->consumers[i] != indio_dev)
			continue;
		memmove(&trig->consumers[i], &trig->consumers[i + 1],
			(size_t)(trig->nconsumers - i - 1) * sizeof(trig->consumers[0]));
		trig->nconsumers--;
		stop = trig->nconsumers == 0;
		found = true;
		break;
	}
	iio_trigger_unlock();
	if (stop && h && h->stop)
		h->stop(trig, h->ctx);
	if (found)
		iio_device_put(indio_dev);
}

void iio_trigger_poll(struct iio_trigger *trig, int64_t ts)
{
	const struct iio_trigger_hooks *h = iio_registry_trigger_hooks(trig->reg);
	struct iio_dev *devs[IIO_TRIGGER_CONSUMERS_MAX];
	int i, n;

	iio_trigger_lock();
	n = trig->nconsumers;
	for (i = 0; i < n; i++)
		devs[i] = iio_device_get(trig->consumers[i]);
	iio_trigger_unlock();
	for (i = 0; i < n; i++) {
		if (h && h->poll)
			h->poll(devs[i], ts, h->ctx);
		else
			(void)iio_device_trigger_handle(devs[i], ts);
		iio_device_put(devs[i]);
	}
}

void iio_trigger_lost(struct iio_trigger *trig, uint64_t n)
{
	int i;

	if (!n)
		return;
	iio_trigger_lock();
	for (i = 0; i < trig->nconsumers; i++)
		iio_device_scans_lost(trig->consumers[i], n);
	iio_trigger_unlock();
}

void iio_trigger_changed(struct iio_trigger *trig)
{
	const struct iio_trigger_hooks *h = iio_registry_trigger_hooks(trig->reg);

	if (h && h->change)
		h->change(trig, h->ctx);
}

/* ---- files: "name" is the core's (industrialio-trigger.c's name_show) unless the type has one ---- */

const char *const *iio_trigger_attr_names(const struct iio_trigger *trig)
{
	return trig->ops->attr_names(trig);
}

/* A mirrored trigger's type has a "name" file of its own (read live: gone is -ENODEV). */
unsigned int iio_trigger_attr_mode(const struct iio_trigger *trig, const char *attr)
{
	unsigned int mode = trig->ops->attr_mode ? trig->ops->attr_mode(trig, attr) : 0;

	return !mode && strcmp(attr, "name") == 0 ? 0444 : mode;
}

int iio_trigger_attr_read(struct iio_trigger *trig, const char *attr, char *buf, size_t len)
{
	int n = trig->ops->attr_read ? trig->ops->attr_read(trig, attr, buf, len) : -ENOENT;

	if (n == -ENOENT && strcmp(attr, "name") == 0) {
		n = snprintf(buf, len, "%s\n", trig->name);
		return n < 0 || (size_t)n >= len ? -EFBIG : n;
	}
	return n;
}

int iio_trigger_attr_write(struct iio_trigger *trig, const char *attr, const char *text,
			   int64_t now_ns)
{
	if (strcmp(attr, "name") == 0)
		return -EACCES;
	/* K-53: a rate the kernel's parser would wrap (2^32 + 100 Hz is 100 Hz) is refused */
	if (strcmp(attr, "sampling_frequency") == 0 && !iio_value_int_part_fits(text))
		return -ERANGE;
	if (!trig->ops->attr_write)
		return -ENOENT;
	return trig->ops->attr_write(trig, attr, text, now_ns);
}
