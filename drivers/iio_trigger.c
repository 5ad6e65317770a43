/*
 * iio_trigger.c - triggers: the consumer list each trigger drives, polls,
 * and the files of the three kinds iiowire has (iio-trig-hrtimer's
 * sampling_frequency, iio-trig-sysfs's trigger_now with iio_sysfs_trigger's
 * add_trigger/remove_trigger, a chip's data-ready trigger "<name>-dev<N>").
 *
 * As industrialio-trigger.c: a trigger starts (set_trigger_state(true))
 * when its first consumer attaches and stops when the last leaves; the
 * registry's hooks (the server) run the timer and decide where a device's
 * handler runs. Values and errors of sampling_frequency are the current
 * iio-trig-hrtimer's: mHz fixed point written with 3 decimals, read as
 * INT_PLUS_MICRO, negative -ERANGE, 0 or over UINT_MAX mHz -EINVAL.
 * The consumer lists are guarded by one mutex, since an attach may run on
 * a bus worker while the loop polls.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_buffer_priv.h"
#include "iio_registry.h"
#include "iio_value.h"

static pthread_mutex_t iio_trigger_lock = PTHREAD_MUTEX_INITIALIZER;

/* iio-trig-hrtimer's default rate, in mHz */
#define IIO_HRTIMER_DEFAULT_MHZ		100000ULL
#define IIO_SYSFS_TRIGGER_PREFIX	"sysfstrig"

static const char *const iio_trigger_files[][3] = {
	[IIO_TRIGGER_HRTIMER] = { "name", "sampling_frequency", NULL },
	[IIO_TRIGGER_SYSFS] = { "name", "trigger_now", NULL },
	[IIO_TRIGGER_DATA_READY] = { "name", NULL, NULL },
	[IIO_TRIGGER_KERNEL] = { "name", NULL, NULL },	/* its own: trig->ops */
};

const char *const *iio_trigger_attr_names(const struct iio_trigger *trig)
{
	if (trig->ops)
		return trig->ops->attr_names(trig);
	return iio_trigger_files[trig->kind];
}

uint64_t iio_trigger_period_ns(const struct iio_trigger *trig)
{
	uint64_t ns = 0;

	if (trig->kind == IIO_TRIGGER_HRTIMER)
		return trig->freq_mhz ? 1000000000000ULL / trig->freq_mhz : 0;
	if (trig->kind == IIO_TRIGGER_DATA_READY && trig->owner_period &&
	    trig->owner_period(trig->owner, &ns) == 0)
		return ns;
	return 0;
}

int iio_trigger_attach_device(struct iio_trigger *trig, struct iio_dev *indio_dev)
{
	const struct iio_trigger_hooks *h = iio_registry_trigger_hooks(trig->reg);
	bool start;

	pthread_mutex_lock(&iio_trigger_lock);
	if (trig->nconsumers >= IIO_TRIGGER_CONSUMERS_MAX) {
		pthread_mutex_unlock(&iio_trigger_lock);
		return -EBUSY;
	}
	trig->consumers[trig->nconsumers++] = iio_device_get(indio_dev);
	start = trig->nconsumers == 1;
	pthread_mutex_unlock(&iio_trigger_lock);
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
	pthread_mutex_lock(&iio_trigger_lock);
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
	pthread_mutex_unlock(&iio_trigger_lock);
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

	pthread_mutex_lock(&iio_trigger_lock);
	n = trig->nconsumers;
	for (i = 0; i < n; i++)
		devs[i] = iio_device_get(trig->consumers[i]);
	pthread_mutex_unlock(&iio_trigger_lock);
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
	pthread_mutex_lock(&iio_trigger_lock);
	for (i = 0; i < trig->nconsumers; i++)
		iio_device_scans_lost(trig->consumers[i], n);
	pthread_mutex_unlock(&iio_trigger_lock);
}

/* ---- files ---- */

static int iio_trigger_read_freq(const struct iio_trigger *trig, char *buf, size_t len)
{
	int vals[2] = { (int)(trig->freq_mhz / 1000), (int)(trig->freq_mhz % 1000) * 1000 };

	return iio_format_value(buf, len, IIO_VAL_INT_PLUS_MICRO, 2, vals);
}

unsigned int iio_trigger_attr_mode(const struct iio_trigger *trig, const char *attr)
{
	if (!trig)	/* iio_sysfs_trigger's add_trigger, remove_trigger */
		return strcmp(attr, "add_trigger") == 0 || strcmp(attr, "remove_trigger") == 0 ?
		       0200 : 0;
	if (trig->ops)
		return trig->ops->attr_mode(trig, attr);
	if (strcmp(attr, "name") == 0)
		return 0444;
	if (trig->kind == IIO_TRIGGER_HRTIMER && strcmp(attr, "sampling_frequency") == 0)
		return 0644;
	if (trig->kind == IIO_TRIGGER_SYSFS && strcmp(attr, "trigger_now") == 0)
		return 0200;
	return 0;
}

int iio_trigger_attr_read(struct iio_trigger *trig, const char *attr, char *buf, size_t len)
{
	int n;

	if (trig->ops)
		return trig->ops->attr_read(trig, attr, buf, len);
	if (strcmp(attr, "name") == 0) {
		n = snprintf(buf, len, "%s\n", trig->name);
		return n < 0 || (size_t)n >= len ? -EFBIG : n;
	}
	if (trig->kind == IIO_TRIGGER_HRTIMER && strcmp(attr, "sampling_frequency") == 0)
		return iio_trigger_read_freq(trig, buf, len);
	if (trig->kind == IIO_TRIGGER_SYSFS && strcmp(attr, "trigger_now") == 0)
		return -EACCES;
	return -ENOENT;
}

/* iio_str_to_fixpoint(buf, 100, ...) as the hrtimer's store: Hz with 3 decimals. */
static int iio_trigger_write_freq(struct iio_trigger *trig, const char *text)
{
	const struct iio_trigger_hooks *h = iio_registry_trigger_hooks(trig->reg);
	int integer, fract;
	uint64_t mhz;
	int ret;

	ret = iio_str_to_fixpoint(text, 100, &integer, &fract);
	if (ret)
		return ret;
	if (integer < 0 || fract < 0)
		return -ERANGE;
	mhz = (uint64_t)integer * 1000 + (uint64_t)fract;
	if (!mhz || mhz > UINT32_MAX)
		return -EINVAL;
	pthread_mutex_lock(&iio_trigger_lock);
	trig->freq_mhz = mhz;
	pthread_mutex_unlock(&iio_trigger_lock);
	if (h && h->change)
		h->change(trig, h->ctx);
	return 0;
}

int iio_trigger_attr_write(struct iio_trigger *trig, const char *attr, const char *text,
			   int64_t now_ns)
{
	/* K-53: a rate the kernel's parser would wrap (2^32 + 100 Hz is 100 Hz) is refused */
	if (strcmp(attr, "sampling_frequency") == 0 && !iio_value_int_part_fits(text))
		return -ERANGE;
	if (trig->ops)	/* the kernel polls, at its own time */
		return trig->ops->attr_write(trig, attr, text);
	if (strcmp(attr, "name") == 0)
		return -EACCES;
	if (trig->kind == IIO_TRIGGER_HRTIMER && strcmp(attr, "sampling_frequency") == 0)
		return iio_trigger_write_freq(trig, text);
	if (trig->kind == IIO_TRIGGER_SYSFS && strcmp(attr, "trigger_now") == 0) {
		iio_trigger_poll(trig, now_ns);
		return 0;
	}
	return -ENOENT;
}

void iio_trigger_init_kind(struct iio_trigger *trig)
{
	if (trig->kind == IIO_TRIGGER_HRTIMER)
		trig->freq_mhz = IIO_HRTIMER_DEFAULT_MHZ;
}

/* kstrtoul(buf, 10): the K of add_trigger/remove_trigger. */
static int iio_trigger_parse_num(const char *text, int *num)
{
	char *end;
	unsigned long v;

	if (*text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(text, &end, 10);
	if (*end == '\n')
		end++;
	if (errno || *end || v > INT32_MAX)
		return -EINVAL;
	*num = (int)v;
	return 0;
}

static struct iio_trigger *iio_sysfs_trigger_by_num(struct iio_registry *reg, int num)
{
	struct iio_trigger *t;
	int i;

	for (i = 0; i < iio_trigger_count(reg); i++) {
		t = iio_trigger_at(reg, i);
		if (t->kind == IIO_TRIGGER_SYSFS && t->sysfs_num == num)
			return t;
	}
	return NULL;
}

int iio_sysfs_trigger_add(struct iio_registry *reg, const char *text)
{
	char name[IIO_TRIGGER_NAME_MAX];
	struct iio_trigger *t;
	int num, ret;

	ret = iio_trigger_parse_num(text, &num);
	if (ret)
		return ret;
	if (iio_sysfs_trigger_by_num(reg, num))
		return -EINVAL;
	if (iio_trigger_count(reg) >= IIO_TRIGGERS_MAX)
		return -ENOSPC;	/* the kernel has no cap (maps/README.md K-48) */
	snprintf(name, sizeof(name), IIO_SYSFS_TRIGGER_PREFIX "%d", num);
	ret = iio_trigger_create(reg, name, IIO_TRIGGER_SYSFS, &t);
	if (ret)
		return ret;
	t->sysfs_num = num;
	return 0;
}

int iio_sysfs_trigger_remove(struct iio_registry *reg, const char *text)
{
	struct iio_trigger *t;
	int num, ret;

	ret = iio_trigger_parse_num(text, &num);
	if (ret)
		return ret;
	t = iio_sysfs_trigger_by_num(reg, num);
	if (!t)
		return -EINVAL;
	iio_trigger_destroy(reg, t);
	return 0;
}

static const char *const iio_sysfs_trigger_files[] = { "add_trigger", "remove_trigger", NULL };

const char *const *iio_sysfs_trigger_attr_names(void)
{
	return iio_sysfs_trigger_files;
}

int iio_sysfs_trigger_attr_write(struct iio_registry *reg, const char *attr, const char *text)
{
	if (strcmp(attr, "add_trigger") == 0)
		return iio_sysfs_trigger_add(reg, text);
	if (strcmp(attr, "remove_trigger") == 0)
		return iio_sysfs_trigger_remove(reg, text);
	return -ENOENT;
}
