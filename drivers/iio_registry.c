/*
 * iio_registry.c - the registered devices and the consumer maps of a board.
 *
 * One registry is what /sys/bus/iio/devices and the kernel's global
 * iio_map_list are together. Registration builds a device's attributes
 * (iio_core.c), gives it the lowest free iio:deviceN and keeps the caller's
 * reference; unregistration marks the device gone (every held consumer
 * channel then reads -ENODEV) and drops that reference. Maps hold copies of
 * their strings and a reference on their provider, so a map naming a device
 * that went away still points at live memory, as the kernel's map list does
 * until iio_map_array_unregister(). Place in the flow: driver -> *core* ->
 * server. This file never calls a driver callback, never formats values and
 * never logs; it is used from one thread (the event loop, or a loader).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_priv.h"
#include "iio_registry.h"
#include "iio_buffer_priv.h"

/* A registered map: owned copies of the strings and a reference on its provider. */
struct iio_registry_map {
	struct iio_map map;
	struct iio_dev *provider;
};

struct iio_registry {
	struct iio_dev **devs;		/* registration order; one reference each */
	int ndevs;
	int devs_cap;
	struct iio_registry_map *maps;	/* registration order */
	int nmaps;
	int maps_cap;
	struct iio_trigger **trigs;	/* registration order; owned */
	int ntrigs;
	int trigs_cap;
	struct iio_trigger_hooks hooks;
	bool has_hooks;
	const struct iio_trigger_ctl_ops *ctl_ops;	/* iio_sysfs_trigger, or NULL */
	void *ctl_ctx;
};

/* "iio:device" + N, as the directory name under /sys/bus/iio/devices */
#define IIO_REGISTRY_DEV_PREFIX		"iio:device"

struct iio_registry *iio_registry_create(void)
{
	return calloc(1, sizeof(struct iio_registry));
}

static void iio_registry_map_clear(struct iio_registry_map *m)
{
	free((char *)m->map.adc_dev_name);
	free((char *)m->map.adc_channel_label);
	free((char *)m->map.consumer_dev_name);
	free((char *)m->map.consumer_channel);
	iio_device_put(m->provider);
	memset(m, 0, sizeof(*m));
}

void iio_registry_destroy(struct iio_registry *reg)
{
	int i;

	if (!reg)
		return;
	/* newest first, as modules unload in the reverse order of loading */
	while (reg->ndevs > 0)
		iio_device_unregister(reg, reg->devs[reg->ndevs - 1]);
	while (reg->ntrigs > 0)
		iio_trigger_destroy(reg, reg->trigs[reg->ntrigs - 1]);
	free(reg->trigs);
	iio_registry_set_trigger_ctl(reg, NULL, NULL);
	for (i = 0; i < reg->nmaps; i++)
		iio_registry_map_clear(&reg->maps[i]);
	free(reg->maps);
	free(reg->devs);
	free(reg);
}

/* Grow an array of @size-byte elements so that one more fits. Return: 0 or -ENOMEM. */
static int iio_registry_grow(void **arr, int *cap, int used, size_t size)
{
	void *p;
	int ncap;

	if (used < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	p = realloc(*arr, (size_t)ncap * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static bool iio_registry_id_used(const struct iio_registry *reg, int id)
{
	int i;

	for (i = 0; i < reg->ndevs; i++)
		if (iio_device_id(reg->devs[i]) == id)
			return true;
	return false;
}

/* The kernel hands out ids from an IDA: the lowest number no live device holds. O(n^2), n small. */
static int iio_registry_lowest_free_id(const struct iio_registry *reg)
{
	int id = 0;

	while (iio_registry_id_used(reg, id))
		id++;
	return id;
}

static int iio_registry_index(const struct iio_registry *reg, const struct iio_dev *indio_dev)
{
	int i;

	for (i = 0; i < reg->ndevs; i++)
		if (reg->devs[i] == indio_dev)
			return i;
	return -1;
}

int iio_device_register(struct iio_registry *reg, struct iio_dev *indio_dev,
			char *err, size_t errlen)
{
	int ret, id;

	if (err && errlen)
		err[0] = '\0';
	if (!reg || !indio_dev)
		return -EINVAL;
	/* as __iio_device_register: a device without ops cannot be served */
	if (!indio_dev->info || (indio_dev->num_channels > 0 && !indio_dev->channels) ||
	    indio_dev->num_channels < 0) {
		if (err && errlen)
			snprintf(err, errlen, "device has no callbacks or no channel table");
		return -EINVAL;
	}
	if (iio_device_is_gone(indio_dev) || iio_registry_index(reg, indio_dev) >= 0 ||
	    iio_device_id(indio_dev) >= 0) {
		if (err && errlen)
			snprintf(err, errlen, "device is already registered or was unregistered");
		return -EINVAL;
	}
	/* make room first, so nothing can fail once the attributes exist */
	ret = iio_registry_grow((void **)&reg->devs, &reg->devs_cap, reg->ndevs,
			       sizeof(*reg->devs));
	if (ret)
		return ret;
	ret = iio_device_attrs_build(indio_dev, err, errlen);
	if (ret)
		return ret;
	id = to_iio_dev_opaque(indio_dev)->want_id;
	if (id < 0 || iio_registry_id_used(reg, id))
		id = iio_registry_lowest_free_id(reg);
	iio_device_set_id(indio_dev, id);
	ret = iio_device_buffer_register(reg, indio_dev, err, errlen);
	if (ret) {
		iio_device_set_id(indio_dev, -1);
		return ret;
	}
	reg->devs[reg->ndevs++] = indio_dev;	/* the caller's reference is ours now */
	return 0;
}

bool iio_device_unlist(struct iio_registry *reg, struct iio_dev *indio_dev)
{
	int i;

	if (!reg || !indio_dev)
		return false;
	i = iio_registry_index(reg, indio_dev);
	if (i < 0)
		return false;
	memmove(&reg->devs[i], &reg->devs[i + 1],
		(size_t)(reg->ndevs - i - 1) * sizeof(*reg->devs));
	reg->ndevs--;
	/* its own trigger goes with it: devices capturing on it end, as the kernel's */
	iio_device_buffer_unlist(reg, indio_dev);
	return true;
}

void iio_device_remove(struct iio_dev *indio_dev)
{
	/* its readers end with -ENODEV, as the kernel's remove */
	iio_device_buffer_unregister(indio_dev);
	/* gone first: a consumer holding a channel sees -ENODEV, not freed memory */
	iio_device_mark_gone(indio_dev);
	iio_device_put(indio_dev);
}

void iio_device_unregister(struct iio_registry *reg, struct iio_dev *indio_dev)
{
	if (iio_device_unlist(reg, indio_dev))
		iio_device_remove(indio_dev);
}

bool iio_registry_find_dev(const struct iio_registry *reg, const struct iio_dev *indio_dev)
{
	return reg && indio_dev && iio_registry_index(reg, indio_dev) >= 0;
}

int iio_registry_count(const struct iio_registry *reg)
{
	return reg ? reg->ndevs : 0;
}

struct iio_dev *iio_registry_at(const struct iio_registry *reg, int i)
{
	if (!reg || i < 0 || i >= reg->ndevs)
		return NULL;
	return reg->devs[i];
}

/* Parse "iio:deviceN" strictly (decimal, no sign, no leading zeros but "0"). Return: N or -1. */
static int iio_registry_parse_devname(const char *key)
{
	const char *p;
	long n = 0;

	if (strncmp(key, IIO_REGISTRY_DEV_PREFIX, strlen(IIO_REGISTRY_DEV_PREFIX)) != 0)
		return -1;
	p = key + strlen(IIO_REGISTRY_DEV_PREFIX);
	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] != '\0'))
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		n = n * 10 + (*p - '0');
		if (n > 1000000)
			return -1;
	}
	return (int)n;
}

enum iio_registry_field {
	IIO_REGISTRY_BY_HWID,
	IIO_REGISTRY_BY_LABEL,
	IIO_REGISTRY_BY_NAME,
};

static bool iio_registry_matches(const struct iio_dev *d, enum iio_registry_field field,
				 const char *key)
{
	switch (field) {
	case IIO_REGISTRY_BY_HWID:
		return d->hwid[0] && strcmp(d->hwid, key) == 0;
	case IIO_REGISTRY_BY_LABEL:
		return d->label && strcmp(d->label, key) == 0;
	case IIO_REGISTRY_BY_NAME:
		return d->name && strcmp(d->name, key) == 0;
	}
	return false;
}

/* Append "iio:deviceN (what tells it apart)" to the candidate list in @err. */
static void iio_registry_add_candidate(char *err, size_t errlen, const struct iio_dev *d)
{
	size_t used = strlen(err);
	const char *why = d->hwid[0] ? d->hwid : d->label ? d->label : d->name ? d->name : "";

	if (used >= errlen)
		return;
	snprintf(err + used, errlen - used, "%s%s%d (%s)", used ? ", " : "",
		 IIO_REGISTRY_DEV_PREFIX, iio_device_id(d), why);
}

int iio_registry_find(const struct iio_registry *reg, const char *key,
		      struct iio_dev **out, char *err, size_t errlen)
{
	static const enum iio_registry_field order[] = {
		IIO_REGISTRY_BY_HWID, IIO_REGISTRY_BY_LABEL, IIO_REGISTRY_BY_NAME,
	};
	struct iio_dev *found;
	size_t f;
	int i, id, hits;

	if (err && errlen)
		err[0] = '\0';
	if (!reg || !key || !key[0])
		return -ENODEV;
	id = iio_registry_parse_devname(key);
	if (id >= 0) {
		for (i = 0; i < reg->ndevs; i++) {
			if (iio_device_id(reg->devs[i]) == id) {
				*out = reg->devs[i];
				return 0;
			}
		}
		return -ENODEV;
	}
	/* a unique match at a stronger level wins over any number at a weaker one */
	for (f = 0; f < ARRAY_SIZE(order); f++) {
		found = NULL;
		hits = 0;
		for (i = 0; i < reg->ndevs; i++) {
			if (!iio_registry_matches(reg->devs[i], order[f], key))
				continue;
			hits++;
			found = reg->devs[i];
		}
		if (hits == 1) {
			*out = found;
			return 0;
		}
		if (hits > 1) {
			if (err && errlen) {
				for (i = 0; i < reg->ndevs; i++) {
					found = reg->devs[i];
					if (iio_registry_matches(found, order[f], key))
						iio_registry_add_candidate(err, errlen, found);
				}
			}
			return -ENOTUNIQ;
		}
	}
	return -ENODEV;
}

static char *iio_registry_strdup(const char *s, bool *failed)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*failed = true;
	return d;
}

int iio_map_array_register(struct iio_registry *reg, struct iio_dev *indio_dev,
			   const struct iio_map *maps, int n)
{
	struct iio_registry_map *m;
	char dflt[IIO_ATTR_NAME_MAX];
	int i, first, ret;
	bool failed = false;

	if (!reg || !indio_dev || n < 0)
		return -EINVAL;
	if (!maps || n == 0)
		return 0;
	first = reg->nmaps;
	for (i = 0; i < n; i++) {
		ret = iio_registry_grow((void **)&reg->maps, &reg->maps_cap, reg->nmaps,
				       sizeof(*reg->maps));
		if (ret)
			goto err_remove_this_call;
		m = &reg->maps[reg->nmaps];
		memset(m, 0, sizeof(*m));
		/* without a provider name, name it as lookups print it */
		if (maps[i].adc_dev_name) {
			m->map.adc_dev_name = iio_registry_strdup(maps[i].adc_dev_name, &failed);
		} else {
			snprintf(dflt, sizeof(dflt), "%s", indio_dev->hwid[0] ? indio_dev->hwid :
				 indio_dev->name ? indio_dev->name : "");
			m->map.adc_dev_name = iio_registry_strdup(dflt, &failed);
		}
		m->map.adc_channel_label = iio_registry_strdup(maps[i].adc_channel_label, &failed);
		m->map.consumer_dev_name = iio_registry_strdup(maps[i].consumer_dev_name, &failed);
		m->map.consumer_channel = iio_registry_strdup(maps[i].consumer_channel, &failed);
		m->provider = iio_device_get(indio_dev);
		reg->nmaps++;
		if (failed) {
			ret = -ENOMEM;
			goto err_remove_this_call;
		}
	}
	return 0;

err_remove_this_call:
	/* as the kernel on -ENOMEM, but only this call's maps: earlier ones were complete */
	while (reg->nmaps > first)
		iio_registry_map_clear(&reg->maps[--reg->nmaps]);
	return ret;
}

int iio_map_array_unregister(struct iio_registry *reg, struct iio_dev *indio_dev)
{
	int i, kept = 0, dropped = 0;

	if (!reg || !indio_dev)
		return -ENODEV;
	for (i = 0; i < reg->nmaps; i++) {
		if (reg->maps[i].provider == indio_dev) {
			iio_registry_map_clear(&reg->maps[i]);
			dropped++;
			continue;
		}
		reg->maps[kept++] = reg->maps[i];
	}
	reg->nmaps = kept;
	return dropped ? 0 : -ENODEV;
}

int iio_registry_map_count(const struct iio_registry *reg)
{
	return reg ? reg->nmaps : 0;
}

const struct iio_map *iio_registry_map_at(const struct iio_registry *reg, int i,
					  struct iio_dev **provider)
{
	if (!reg || i < 0 || i >= reg->nmaps)
		return NULL;
	if (provider)
		*provider = reg->maps[i].provider;
	return &reg->maps[i].map;
}

/* ---- triggers ---- */

void iio_registry_set_trigger_hooks(struct iio_registry *reg, const struct iio_trigger_hooks *hooks)
{
	reg->has_hooks = hooks != NULL;
	if (hooks)
		reg->hooks = *hooks;
}

const struct iio_trigger_hooks *iio_registry_trigger_hooks(const struct iio_registry *reg)
{
	return reg && reg->has_hooks ? &reg->hooks : NULL;
}

static int iio_registry_trigger_free_id(const struct iio_registry *reg)
{
	int id, i;

	for (id = 0;; id++) {
		for (i = 0; i < reg->ntrigs; i++)
			if (reg->trigs[i]->id == id)
				break;
		if (i == reg->ntrigs)
			return id;
	}
}

/* Is @name or triggerN @id (-1: none asked) taken? */
static bool iio_registry_trigger_taken(const struct iio_registry *reg, const char *name, int id)
{
	int i;

	if (iio_trigger_find(reg, name))
		return true;	/* "Duplicate trigger name" */
	for (i = 0; id >= 0 && i < reg->ntrigs; i++)
		if (reg->trigs[i]->id == id)
			return true;
	return false;
}

/* One trigger listed: @id -1 takes the lowest free triggerN. */
static int iio_registry_trigger_add(struct iio_registry *reg, const char *name,
				    const struct iio_trigger_ops *ops, int id,
				    struct iio_trigger **out)
{
	struct iio_trigger *t;
	int ret;

	if (!reg || !name || !*name || strlen(name) >= IIO_TRIGGER_NAME_MAX || !ops ||
	    !ops->attr_names)
		return -EINVAL;
	if (iio_registry_trigger_taken(reg, name, id))
		return -EEXIST;
	ret = iio_registry_grow((void **)&reg->trigs, &reg->trigs_cap, reg->ntrigs,
			       sizeof(*reg->trigs));
	if (ret)
		return ret;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->ops = ops;
	t->reg = reg;
	t->refs = 1;	/* the registry's */
	t->id = id >= 0 ? id : iio_registry_trigger_free_id(reg);
	iio_trigger_lock();
	reg->trigs[reg->ntrigs++] = t;
	iio_trigger_unlock();
	*out = t;
	return 0;
}

int iio_trigger_register(struct iio_registry *reg, const char *name, int id,
			 const struct iio_trigger_ops *ops, void *priv, struct iio_trigger **out)
{
	struct iio_trigger tmp = { .ops = ops, .priv = priv };
	struct iio_trigger *t;
	int ret;

	ret = id < -1 ? -EINVAL : iio_registry_trigger_add(reg, name, ops, id, &t);
	if (ret) {
		if (ops && ops->release)
			ops->release(&tmp);
		return ret;
	}
	t->priv = priv;
	if (out)
		*out = t;
	return 0;
}

void iio_trigger_destroy(struct iio_registry *reg, struct iio_trigger *trig)
{
	int i;

	iio_trigger_lock();
	for (i = 0; i < reg->ntrigs; i++) {
		if (reg->trigs[i] != trig)
			continue;
		memmove(&reg->trigs[i], &reg->trigs[i + 1],
			(size_t)(reg->ntrigs - i - 1) * sizeof(*reg->trigs));
		reg->ntrigs--;
		break;
	}
	trig->gone = true;	/* before the sweep: a store racing it sees it gone */
	iio_trigger_unlock();
	/* captures on it end with -ENODEV, not silently as the kernel's (maps/README.md K-47) */
	for (i = 0; i < reg->ndevs; i++)
		iio_device_buffer_trigger_gone(reg->devs[i], trig);
	iio_trigger_unlisted(trig);
}

struct iio_trigger *iio_trigger_find(const struct iio_registry *reg, const char *key)
{
	int i, id;
	char end;

	if (!reg || !key)
		return NULL;
	for (i = 0; i < reg->ntrigs; i++)
		if (strcmp(reg->trigs[i]->name, key) == 0)
			return reg->trigs[i];
	if (sscanf(key, "trigger%d%c", &id, &end) == 1 && strncmp(key, "trigger", 7) == 0)
		for (i = 0; i < reg->ntrigs; i++)
			if (reg->trigs[i]->id == id)
				return reg->trigs[i];
	return NULL;
}

struct iio_trigger *iio_trigger_find_get(struct iio_registry *reg, const char *name)
{
	struct iio_trigger *t = NULL;
	int i;

	iio_trigger_lock();
	for (i = 0; reg && i < reg->ntrigs && !t; i++)
		if (strcmp(reg->trigs[i]->name, name) == 0)
			t = reg->trigs[i];
	if (t)
		t->refs++;
	iio_trigger_unlock();
	return t;
}

int iio_trigger_count(const struct iio_registry *reg)
{
	return reg ? reg->ntrigs : 0;
}

struct iio_trigger *iio_trigger_at(const struct iio_registry *reg, int i)
{
	if (!reg || i < 0 || i >= reg->ntrigs)
		return NULL;
	return reg->trigs[i];
}

/* ---- iio_sysfs_trigger ---- */

void iio_registry_set_trigger_ctl(struct iio_registry *reg, const struct iio_trigger_ctl_ops *ops,
				  void *ctx)
{
	if (reg->ctl_ops && reg->ctl_ops->release)
		reg->ctl_ops->release(reg->ctl_ctx);
	reg->ctl_ops = ops;
	reg->ctl_ctx = ctx;
}

const struct iio_trigger_ctl_ops *iio_trigger_ctl_ops(const struct iio_registry *reg)
{
	return reg ? reg->ctl_ops : NULL;
}

bool iio_trigger_ctl_present(const struct iio_registry *reg)
{
	return reg && reg->ctl_ops;
}

const char *const *iio_trigger_ctl_attr_names(const struct iio_registry *reg)
{
	static const char *const none[] = { NULL };

	return iio_trigger_ctl_present(reg) ? reg->ctl_ops->attr_names(reg->ctl_ctx) : none;
}

unsigned int iio_trigger_ctl_attr_mode(const struct iio_registry *reg, const char *attr)
{
	return iio_trigger_ctl_present(reg) ? reg->ctl_ops->attr_mode(reg->ctl_ctx, attr) : 0;
}

int iio_trigger_ctl_attr_read(const struct iio_registry *reg, const char *attr, char *buf,
			      size_t len)
{
	if (!iio_trigger_ctl_present(reg))
		return -ENOENT;
	return reg->ctl_ops->attr_read(reg->ctl_ctx, attr, buf, len);
}

int iio_trigger_ctl_attr_write(struct iio_registry *reg, const char *attr, const char *text)
{
	if (!iio_trigger_ctl_present(reg))
		return -ENOENT;
	return reg->ctl_ops->attr_write(reg->ctl_ctx, reg, attr, text);
}
