/*
 * kernel_trig.c - the host kernel's trigger devices mirrored into a
 * registry: each /sys/bus/iio/devices/triggerN becomes a trigger of type
 * "kernel" (IIO_TRIGGER_EXTERNAL) with the kernel's N and name, whose files (name, an hrtimer's
 * sampling_frequency, a sysfs trigger's trigger_now, a driver's own) are
 * read and written as the kernel's sysfs files, texts and errors passed
 * through; iio_sysfs_trigger's add_trigger and remove_trigger are written
 * to the kernel's, which makes or drops sysfstrigK and sends the uevent
 * whose rescan (server/kwatch.c, or SIGHUP) mirrors the change.
 *
 * The kernel does the triggering: a kernel device's current trigger is its
 * trigger/current_trigger file (kernel_buffer.c), our capture only reads
 * /dev/iio:deviceN. A userspace trigger cannot drive a kernel device, nor
 * a kernel trigger a userspace one (the core's iio_device_set_trigger()).
 *
 * The files are opened O_NONBLOCK on the caller's thread (the event loop):
 * the stores of these files take no bus and do not sleep (an hrtimer's
 * period, an irq_work, a registration), and a FIFO standing in for one
 * cannot make the loop wait (maps/README.md K-40).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iio_buffer.h"
#include "iio_kit.h"
#include "iio_registry.h"
#include "kernel/iio_kernel.h"

#define KERNEL_TRIG_PREFIX	"trigger"
#define KERNEL_TRIG_NAME	"name"
#define KERNEL_TRIG_PATH_MAX	IIO_KERNEL_PATH_MAX	/* resolved: iio_kernel_resolve() */

/* What a mirrored trigger keeps (the trigger's priv). */
struct kernel_trig {
	int id;					/* its N (a trigger's) */
	char name[IIO_TRIGGER_NAME_MAX + 2];	/* its name file, at the scan */
	char path[KERNEL_TRIG_PATH_MAX];
	int nfiles;
	const char *names[IIO_KERNEL_TRIGGER_FILES_MAX + 1];	/* "name" first, NULL-ended */
	unsigned int modes[IIO_KERNEL_TRIGGER_FILES_MAX];
	char store[IIO_KERNEL_TRIGGER_FILES_MAX][IIO_ATTR_NAME_MAX];
};

static int kernel_trig_index(const struct kernel_trig *kt, const char *attr)
{
	int i;

	for (i = 0; i < kt->nfiles; i++)
		if (strcmp(kt->names[i], attr) == 0)
			return i;
	return -1;
}

static unsigned int kernel_files_mode(const struct kernel_trig *kt, const char *attr)
{
	int i = kernel_trig_index(kt, attr);

	return i < 0 ? 0 : kt->modes[i];
}

/* The file of @attr, or -ENOENT; -EACCES when its mode has no @bits (sysfs refuses root too). */
static int kernel_files_path(const struct kernel_trig *kt, const char *attr, unsigned int bits,
			     char *path, size_t len)
{
	int i = kernel_trig_index(kt, attr);

	if (i < 0)
		return -ENOENT;
	if (!(kt->modes[i] & bits))
		return -EACCES;
	snprintf(path, len, "%s/%s", kt->path, attr);
	return 0;
}

static int kernel_files_read(const struct kernel_trig *kt, const char *attr, char *buf,
			     size_t len)
{
	char path[KERNEL_TRIG_PATH_MAX + IIO_ATTR_NAME_MAX + 1];
	int ret;

	ret = kernel_files_path(kt, attr, 0444, path, sizeof(path));
	return ret ? ret : (int)iio_kernel_path_read(path, buf, len);
}

static int kernel_files_write(const struct kernel_trig *kt, const char *attr, const char *text)
{
	char path[KERNEL_TRIG_PATH_MAX + IIO_ATTR_NAME_MAX + 1];
	int ret;

	ret = kernel_files_path(kt, attr, 0222, path, sizeof(path));
	return ret ? ret : iio_kernel_path_write(path, text, strlen(text), true);
}

static const char *const *kernel_trig_names(const struct iio_trigger *trig)
{
	return ((const struct kernel_trig *)trig->priv)->names;
}

static unsigned int kernel_trig_mode(const struct iio_trigger *trig, const char *attr)
{
	return kernel_files_mode(trig->priv, attr);
}

static int kernel_trig_read(struct iio_trigger *trig, const char *attr, char *buf, size_t len)
{
	return kernel_files_read(trig->priv, attr, buf, len);
}

static int kernel_trig_write(struct iio_trigger *trig, const char *attr, const char *text,
			     int64_t now_ns)
{
	(void)now_ns;	/* the kernel polls, at its own time */
	return kernel_files_write(trig->priv, attr, text);
}

static void kernel_trig_release(struct iio_trigger *trig)
{
	free(trig->priv);
	trig->priv = NULL;
}

static const struct iio_trigger_ops kernel_trig_ops = {
	.type = "kernel",
	.caps = IIO_TRIGGER_EXTERNAL,	/* the kernel fires it, for its own devices */
	.attr_names = kernel_trig_names,
	.attr_mode = kernel_trig_mode,
	.attr_read = kernel_trig_read,
	.attr_write = kernel_trig_write,
	.release = kernel_trig_release,
};

/* "name" first, then the others in name order (readdir's order is the filesystem's). */
static int kernel_trig_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	if (strcmp(x, KERNEL_TRIG_NAME) == 0 || strcmp(y, KERNEL_TRIG_NAME) == 0)
		return (strcmp(y, KERNEL_TRIG_NAME) == 0) - (strcmp(x, KERNEL_TRIG_NAME) == 0);
	return strcmp(x, y);
}

/* One file of the directory, if a regular one of the trigger's. Return: 0, -E2BIG. */
static int kernel_trig_file(struct kernel_trig *kt, const char *file)
{
	char path[KERNEL_TRIG_PATH_MAX + IIO_ATTR_NAME_MAX + 1];
	struct stat st;
	int i;

	if (strcmp(file, "uevent") == 0 || strlen(file) >= IIO_ATTR_NAME_MAX)
		return 0;	/* the device model's, not the trigger's */
	snprintf(path, sizeof(path), "%s/%s", kt->path, file);
	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return 0;	/* power/, subsystem: not files of the trigger */
	if (kt->nfiles == IIO_KERNEL_TRIGGER_FILES_MAX)
		return -E2BIG;
	i = kt->nfiles++;
	snprintf(kt->store[i], sizeof(kt->store[i]), "%s", file);
	kt->names[i] = kt->store[i];
	return 0;
}

/* The files of triggerN and their modes. Return: 0, -ENODEV (gone), -E2BIG. */
static int kernel_trig_scan(struct kernel_trig *kt)
{
	char path[KERNEL_TRIG_PATH_MAX + IIO_ATTR_NAME_MAX + 1];
	struct dirent *de;
	struct stat st;
	int i, ret = 0;
	DIR *d;

	if (iio_kernel_opendir(kt->path, &d))
		return -ENODEV;
	while (!ret && (de = readdir(d)))
		ret = kernel_trig_file(kt, de->d_name);
	closedir(d);
	if (ret)
		return ret;
	qsort(kt->names, (size_t)kt->nfiles, sizeof(kt->names[0]), kernel_trig_cmp);
	for (i = 0; i < kt->nfiles; i++) {
		snprintf(path, sizeof(path), "%s/%s", kt->path, kt->names[i]);
		kt->modes[i] = lstat(path, &st) ? 0 : st.st_mode & 0666;
	}
	kt->names[kt->nfiles] = NULL;
	return 0;
}

int iio_kernel_trigger_prepare(int id, struct kernel_trig **out, char *err, size_t errlen)
{
	char name[IIO_TRIGGER_NAME_MAX + 2], path[KERNEL_TRIG_PATH_MAX + 8];
	struct kernel_trig *kt;
	ssize_t n;
	int ret;

	*out = NULL;
	kt = calloc(1, sizeof(*kt));
	if (!kt)
		return -ENOMEM;
	kt->id = id;
	snprintf(name, sizeof(name), KERNEL_TRIG_PREFIX "%d", id);
	ret = iio_kernel_resolve(name, kt->path, sizeof(kt->path), err, errlen);
	if (ret == -EXDEV)
		iio_kernel_warn(err);	/* a link out of the tree: skipped, the others served */
	if (ret) {
		free(kt);
		return ret == -EXDEV || ret == -ENODEV ? 1 : ret;
	}
	snprintf(path, sizeof(path), "%s/" KERNEL_TRIG_NAME, kt->path);
	n = iio_kernel_path_read(path, name, sizeof(name));
	if (n > 0)
		name[strcspn(name, "\n")] = '\0';
	snprintf(kt->name, sizeof(kt->name), "%s", n > 0 ? name : "");
	ret = n <= 0 || !name[0] ? -ENODEV : kernel_trig_scan(kt);
	if (ret == -ENODEV) {
		free(kt);
		return 1;	/* gone while we looked, or no trigger (every one has a name) */
	}
	if (ret == -E2BIG)
		snprintf(err, errlen, KERNEL_TRIG_PREFIX "%d: more than %d files", id,
			 IIO_KERNEL_TRIGGER_FILES_MAX);
	if (ret) {
		free(kt);
		return ret;
	}
	*out = kt;
	return 0;
}

int iio_kernel_trigger_add(struct iio_registry *reg, struct kernel_trig *kt, char *err,
			   size_t errlen)
{
	int id = kt->id, ret;
	char name[IIO_TRIGGER_NAME_MAX + 2];

	snprintf(name, sizeof(name), "%s", kt->name);	/* @kt may be freed by a failure */
	ret = iio_trigger_register(reg, name, id, &kernel_trig_ops, kt, NULL);
	if (ret)
		snprintf(err, errlen, KERNEL_TRIG_PREFIX "%d (%s): %s", id, name,
			 ret == -EEXIST ? "a trigger of that name or number exists" :
			 strerror(-ret));
	return ret;
}

/* Mirror triggerN (@id). Return: 0, 1 when skipped (gone, or no name), -errno with @err. */
static int kernel_trig_add(struct iio_registry *reg, int id, char *err, size_t errlen)
{
	struct kernel_trig *kt;
	int ret;

	ret = iio_kernel_trigger_prepare(id, &kt, err, errlen);
	return ret ? ret : iio_kernel_trigger_add(reg, kt, err, errlen);
}

static int kernel_trig_id_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int iio_kernel_trigger_ids(int *ids, int max)
{
	char path[KERNEL_TRIG_PATH_MAX], tail;
	struct dirent *de;
	int n = 0, id;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", iio_kernel_sysfs_root(), IIO_KERNEL_BUS_DIR);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max)
		if (sscanf(de->d_name, KERNEL_TRIG_PREFIX "%d%c", &id, &tail) == 1 && id >= 0)
			ids[n++] = id;
	closedir(d);
	qsort(ids, (size_t)n, sizeof(ids[0]), kernel_trig_id_cmp);	/* as DEVICES lists them */
	return n;
}

int iio_kernel_triggers_register(struct iio_registry *reg, char *err, size_t errlen)
{
	int ids[IIO_TRIGGERS_MAX + 1], n, i, ret, done = 0;

	if (err && errlen)
		err[0] = '\0';
	n = iio_kernel_trigger_ids(ids, IIO_TRIGGERS_MAX + 1);
	if (n + iio_trigger_count(reg) > IIO_TRIGGERS_MAX) {
		snprintf(err, errlen, "more than %d triggers", IIO_TRIGGERS_MAX);
		return -ENOSPC;
	}
	for (i = 0; i < n; i++) {
		ret = kernel_trig_add(reg, ids[i], err, errlen);
		if (ret < 0)
			return ret;
		done += !ret;
	}
	return done;
}

/* ---- iio_sysfs_trigger ---- */

static const char *const *kernel_ctl_names(const void *ctx)
{
	return ((const struct kernel_trig *)ctx)->names;
}

static unsigned int kernel_ctl_mode(const void *ctx, const char *attr)
{
	return kernel_files_mode(ctx, attr);
}

static int kernel_ctl_read(const void *ctx, const char *attr, char *buf, size_t len)
{
	return kernel_files_read(ctx, attr, buf, len);
}

/* the kernel's uevent brings the rescan that mirrors what add_trigger made */
static int kernel_ctl_write(void *ctx, struct iio_registry *reg, const char *attr,
			    const char *text)
{
	(void)reg;
	return kernel_files_write(ctx, attr, text);
}

static const struct iio_trigger_ctl_ops kernel_ctl_ops = {
	.attr_names = kernel_ctl_names,
	.attr_mode = kernel_ctl_mode,
	.attr_read = kernel_ctl_read,
	.attr_write = kernel_ctl_write,
	.release = free,
};

int iio_kernel_ctl_prepare(struct kernel_trig **out, char *err, size_t errlen)
{
	struct kernel_trig *kt;
	int ret;

	*out = NULL;
	kt = calloc(1, sizeof(*kt));
	if (!kt)
		return -ENOMEM;
	ret = iio_kernel_resolve(IIO_KERNEL_SYSFS_TRIGGER, kt->path, sizeof(kt->path), err,
				 errlen);
	if (ret == -EXDEV)
		iio_kernel_warn(err);
	if (!ret)
		ret = kernel_trig_scan(kt);
	if (ret == -E2BIG)
		snprintf(err, errlen, IIO_KERNEL_SYSFS_TRIGGER ": more than %d files",
			 IIO_KERNEL_TRIGGER_FILES_MAX);
	if (ret) {
		free(kt);
		/* none: iio-trig-sysfs is not loaded; or a link out of the tree, warned above */
		return ret == -ENODEV || ret == -EXDEV ? 0 : ret;
	}
	*out = kt;
	return 0;
}

void iio_kernel_ctl_set(struct iio_registry *reg, struct kernel_trig *kt)
{
	iio_registry_set_trigger_ctl(reg, kt ? &kernel_ctl_ops : NULL, kt);
}

int iio_kernel_ctl_install(struct iio_registry *reg, char *err, size_t errlen)
{
	struct kernel_trig *kt;
	int ret = iio_kernel_ctl_prepare(&kt, err, errlen);

	if (!ret && kt)
		iio_kernel_ctl_set(reg, kt);
	return ret;
}

void iio_kernel_trig_free(struct kernel_trig *kt)
{
	free(kt);
}

bool iio_kernel_trigger_is(const struct iio_trigger *trig)
{
	return trig && trig->ops == &kernel_trig_ops;
}

bool iio_kernel_ctl_is(const struct iio_registry *reg)
{
	return iio_trigger_ctl_ops(reg) == &kernel_ctl_ops;
}
