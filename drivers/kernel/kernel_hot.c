/*
 * kernel_hot.c - the kernel source's hotplug, device by device (the hot_*
 * steps of iio_source.h): a uevent's rescan adds the kernel devices and
 * triggers that came and removes those that went, and leaves every other
 * device, with its streams, events and readers, alone.
 *
 * A directory iio:deviceN still there but holding another device (an
 * unbind and a bind within the settle time: the kernel hands out the
 * lowest free N again) is told apart by its name file, and is one that
 * went and one that came. What cannot be taken one by one is left to a
 * board reload (-EBUSY): a trigger that went while a device used it as its
 * current trigger, the kernel's iio_sysfs_trigger coming or going (a
 * board's own may stand in for it), and a device coming whose iio:deviceN
 * a board's device holds (a reload binds kernel devices first, with their
 * numbers).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iio_buffer.h"
#include "iio_kit.h"
#include "iio_registry.h"
#include "iio_source.h"
#include "kernel/iio_kernel.h"

/* One device the registry had when the change began. */
struct kernel_hot_had {
	struct iio_dev *dev;			/* referenced */
	char dir[IIO_KERNEL_NAME_MAX];		/* iio:deviceN */
	char name[IIO_KERNEL_NAME_MAX];
	bool stays;				/* the scan found it again */
};

struct iio_source_hot {
	struct kernel_hot_had had[IIO_KERNEL_DEVICES_MAX];
	int nhad;
	int had_trigs[IIO_TRIGGERS_MAX];	/* the kernel triggers' N */
	bool trig_stays[IIO_TRIGGERS_MAX];
	int nhad_trigs;
	bool had_ctl;
	/* what the scan found */
	struct iio_dev *came[IIO_KERNEL_DEVICES_MAX];	/* built, not registered */
	int ncame;
	struct kernel_trig *came_trigs[IIO_TRIGGERS_MAX];
	int ncame_trigs;
	bool has_ctl;
};

static bool kernel_hot_ctl_now(void)
{
	char path[IIO_KERNEL_ROOT_MAX + sizeof(IIO_KERNEL_BUS_DIR) + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s/" IIO_KERNEL_SYSFS_TRIGGER, iio_kernel_sysfs_root(),
		 IIO_KERNEL_BUS_DIR);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

struct iio_source_hot *iio_kernel_hot_begin(const struct iio_registry *reg)
{
	struct iio_source_hot *h = calloc(1, sizeof(*h));
	struct iio_trigger *t;
	struct iio_dev *dev;
	int i;

	if (!h)
		return NULL;
	for (i = 0; i < iio_registry_count(reg) && h->nhad < IIO_KERNEL_DEVICES_MAX; i++) {
		dev = iio_registry_at(reg, i);
		if (!iio_kernel_dir(dev))
			continue;
		h->had[h->nhad].dev = iio_device_get(dev);
		snprintf(h->had[h->nhad].dir, IIO_KERNEL_NAME_MAX, "%s", iio_kernel_dir(dev));
		snprintf(h->had[h->nhad].name, IIO_KERNEL_NAME_MAX, "%s", dev->name);
		h->nhad++;
	}
	for (i = 0; i < iio_trigger_count(reg) && h->nhad_trigs < IIO_TRIGGERS_MAX; i++) {
		t = iio_trigger_at(reg, i);
		if (iio_kernel_trigger_is(t))
			h->had_trigs[h->nhad_trigs++] = t->id;
	}
	h->had_ctl = iio_kernel_ctl_is(reg);	/* a board's own may stand in: not the kernel's */
	return h;
}

/* Is iio:device@id one the registry had, the same device (its name file says)? */
static bool kernel_hot_known(struct iio_source_hot *h, const char *dir)
{
	char name[IIO_KERNEL_NAME_MAX + 2];
	ssize_t n;
	int i;

	for (i = 0; i < h->nhad; i++) {
		if (strcmp(h->had[i].dir, dir))
			continue;
		n = iio_kernel_entry_read(dir, "name", name, sizeof(name));
		if (n > 0)
			name[strcspn(name, "\n")] = '\0';
		h->had[i].stays = n > 0 && strcmp(name, h->had[i].name) == 0;
		return h->had[i].stays;
	}
	return false;
}

static int kernel_hot_scan_devices(struct iio_source_hot *h)
{
	char dir[IIO_KERNEL_NAME_MAX], why[256];
	int ids[IIO_KERNEL_DEVICES_MAX], n, i, ret;
	struct iio_dev *dev;

	n = iio_kernel_device_ids(ids, IIO_KERNEL_DEVICES_MAX);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "iio:device%d", ids[i]);
		if (kernel_hot_known(h, dir))
			continue;
		ret = iio_kernel_mirror(dir, &dev, why, sizeof(why));
		if (ret == -ENODEV)
			continue;	/* gone while we looked: its own uevent follows */
		if (ret)
			return ret;
		iio_device_set_driver(dev, &iio_kernel_driver);
		h->came[h->ncame++] = dev;
	}
	return 0;
}

static int kernel_hot_scan_triggers(struct iio_source_hot *h)
{
	int ids[IIO_TRIGGERS_MAX], n, i, k, ret;
	struct kernel_trig *kt;
	char why[128];
	bool had;

	n = iio_kernel_trigger_ids(ids, IIO_TRIGGERS_MAX);
	for (i = 0; i < n; i++) {
		had = false;
		for (k = 0; k < h->nhad_trigs && !had; k++)
			if (h->had_trigs[k] == ids[i])
				had = h->trig_stays[k] = true;
		if (had)
			continue;
		ret = iio_kernel_trigger_prepare(ids[i], &kt, why, sizeof(why));
		if (ret < 0)
			return ret;
		if (!ret)
			h->came_trigs[h->ncame_trigs++] = kt;
	}
	return 0;
}

int iio_kernel_hot_scan(struct iio_source_hot *h)
{
	int ret = kernel_hot_scan_devices(h);

	if (!ret)
		ret = kernel_hot_scan_triggers(h);
	h->has_ctl = kernel_hot_ctl_now();
	return ret;
}

/* Does a device that stays hold iio:deviceN of a device that came (a board's took it)? */
static bool kernel_hot_number_taken(const struct iio_source_hot *h,
				    const struct iio_registry *reg)
{
	struct iio_dev *holder;
	int i, k;

	for (i = 0; i < h->ncame; i++) {
		if (iio_registry_find(reg, iio_kernel_dir(h->came[i]), &holder, NULL, 0) < 0)
			continue;
		for (k = 0; k < h->nhad && h->had[k].dev != holder; k++)
			;
		if (k == h->nhad || h->had[k].stays)
			return true;	/* a reload gives kernel devices their numbers first */
	}
	return false;
}

/*
 * May the change be taken one by one? No trigger in use went, the control
 * device stayed, and each device that came can have its kernel number.
 */
static bool kernel_hot_one_by_one(const struct iio_source_hot *h, const struct iio_registry *reg)
{
	char key[32];
	struct iio_trigger *t;
	int i, k;

	if (h->had_ctl != h->has_ctl || kernel_hot_number_taken(h, reg))
		return false;
	for (i = 0; i < h->nhad_trigs; i++) {
		if (h->trig_stays[i])
			continue;
		snprintf(key, sizeof(key), "trigger%d", h->had_trigs[i]);
		t = iio_trigger_find(reg, key);
		for (k = 0; t && k < iio_registry_count(reg); k++)
			if (iio_device_current_trigger(iio_registry_at(reg, k)) == t)
				return false;
	}
	return true;
}

static int kernel_hot_triggers_apply(struct iio_source_hot *h, struct iio_registry *reg)
{
	struct iio_trigger *t;
	char key[32], why[128];
	int i, added = 0;

	for (i = 0; i < h->nhad_trigs; i++) {
		if (h->trig_stays[i])
			continue;
		snprintf(key, sizeof(key), "trigger%d", h->had_trigs[i]);
		t = iio_trigger_find(reg, key);
		if (t && iio_kernel_trigger_is(t))
			iio_trigger_destroy(reg, t);
	}
	for (i = 0; i < h->ncame_trigs; i++) {
		added += iio_kernel_trigger_add(reg, h->came_trigs[i], why, sizeof(why)) == 0;
		h->came_trigs[i] = NULL;	/* taken, on failure too */
	}
	return added;
}

int iio_kernel_hot_apply(struct iio_source_hot *h, struct iio_registry *reg,
			    struct iio_dev **gone, int max, char *summary, size_t len)
{
	char why[256];
	int i, ngone = 0, added = 0, tgone = 0, tadded;

	if (!kernel_hot_one_by_one(h, reg))
		return -EBUSY;
	for (i = 0; i < h->nhad; i++)
		if (!h->had[i].stays && ngone < max && iio_device_unlist(reg, h->had[i].dev))
			gone[ngone++] = h->had[i].dev;	/* the registry's reference, handed on */
	for (i = 0; i < h->nhad_trigs; i++)
		tgone += !h->trig_stays[i];
	tadded = kernel_hot_triggers_apply(h, reg);
	for (i = 0; i < h->ncame; i++) {
		if (iio_device_register(reg, h->came[i], why, sizeof(why)) == 0) {
			h->came[i] = NULL;	/* the registry's now */
			added++;
		}
	}
	snprintf(summary, len, "+%d -%d devices, +%d -%d triggers", added, ngone, tadded, tgone);
	return ngone;
}

void iio_kernel_hot_free(struct iio_source_hot *h)
{
	int i;

	if (!h)
		return;
	for (i = 0; i < h->nhad; i++)
		iio_device_put(h->had[i].dev);
	for (i = 0; i < h->ncame; i++)
		iio_device_put(h->came[i]);
	for (i = 0; i < h->ncame_trigs; i++)
		iio_kernel_trig_free(h->came_trigs[i]);
	free(h);
}
