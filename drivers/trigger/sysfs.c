/*
 * sysfs.c - iio-trig-sysfs: the board's iio_sysfs_trigger, whose
 * add_trigger/remove_trigger make and drop "sysfstrig<K>", each a trigger
 * that fires once per write of its trigger_now (ON_DEMAND), the poll
 * stamped with the time of the write.
 *
 * A board has it when its file has "triggers" (maps/README.md K-46); with
 * --kernel the host kernel's replaces it (drivers/kernel/kernel_trig.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_trigger.h"

#define IIO_SYSFS_TRIGGER_PREFIX	"sysfstrig"

/* ---- sysfstrig<K> ---- */

struct iio_sysfstrig {
	int num;	/* its K */
};

static const char *const iio_sysfstrig_files[] = { "name", "trigger_now", NULL };

static const char *const *iio_sysfstrig_names(const struct iio_trigger *trig)
{
	(void)trig;
	return iio_sysfstrig_files;
}

static unsigned int iio_sysfstrig_mode(const struct iio_trigger *trig, const char *attr)
{
	(void)trig;
	return strcmp(attr, "trigger_now") == 0 ? 0200 : 0;
}

static int iio_sysfstrig_read(struct iio_trigger *trig, const char *attr, char *buf, size_t len)
{
	(void)trig;
	(void)buf;
	(void)len;
	return strcmp(attr, "trigger_now") == 0 ? -EACCES : -ENOENT;
}

static int iio_sysfstrig_write(struct iio_trigger *trig, const char *attr, const char *text,
			       int64_t now_ns)
{
	(void)text;	/* any write polls, as iio_sysfs_trigger_poll() */
	if (strcmp(attr, "trigger_now") != 0)
		return -ENOENT;
	iio_trigger_poll(trig, now_ns);
	return 0;
}

static const struct iio_trigger_ops iio_sysfstrig_ops = {
	.type = "sysfs",
	.caps = IIO_TRIGGER_ON_DEMAND,
	.attr_names = iio_sysfstrig_names, .attr_mode = iio_sysfstrig_mode,
	.attr_read = iio_sysfstrig_read, .attr_write = iio_sysfstrig_write,
	.release = iio_trigger_release_priv,
};

/* ---- iio_sysfs_trigger: add_trigger, remove_trigger ---- */

/* kstrtoul(buf, 10): the K of add_trigger/remove_trigger. */
static int iio_sysfs_trigger_parse(const char *text, int *num)
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
		if (t->ops == &iio_sysfstrig_ops && ((struct iio_sysfstrig *)t->priv)->num == num)
			return t;
	}
	return NULL;
}

int iio_sysfs_trigger_create(struct iio_registry *reg, int num)
{
	char name[IIO_TRIGGER_NAME_MAX];
	struct iio_sysfstrig *st;

	if (iio_sysfs_trigger_by_num(reg, num))
		return -EINVAL;
	if (iio_trigger_count(reg) >= IIO_TRIGGERS_MAX)
		return -ENOSPC;	/* the kernel has no cap (maps/README.md K-48) */
	st = malloc(sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->num = num;
	snprintf(name, sizeof(name), IIO_SYSFS_TRIGGER_PREFIX "%d", num);
	return iio_trigger_register(reg, name, -1, &iio_sysfstrig_ops, st, NULL);
}

static const char *const iio_sysfs_trigger_files[] = { "add_trigger", "remove_trigger", NULL };

static const char *const *iio_sysfs_trigger_names(const void *ctx)
{
	(void)ctx;
	return iio_sysfs_trigger_files;
}

static unsigned int iio_sysfs_trigger_mode(const void *ctx, const char *attr)
{
	(void)ctx;
	return strcmp(attr, "add_trigger") == 0 || strcmp(attr, "remove_trigger") == 0 ? 0200 : 0;
}

static int iio_sysfs_trigger_read(const void *ctx, const char *attr, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return iio_sysfs_trigger_mode(ctx, attr) ? -EACCES : -ENOENT;
}

static int iio_sysfs_trigger_write(void *ctx, struct iio_registry *reg, const char *attr,
				   const char *text)
{
	struct iio_trigger *t;
	int num, ret;

	(void)ctx;
	if (!iio_sysfs_trigger_mode(ctx, attr))
		return -ENOENT;
	ret = iio_sysfs_trigger_parse(text, &num);
	if (ret)
		return ret;
	if (strcmp(attr, "add_trigger") == 0)
		return iio_sysfs_trigger_create(reg, num);
	t = iio_sysfs_trigger_by_num(reg, num);
	if (!t)
		return -EINVAL;
	iio_trigger_destroy(reg, t);
	return 0;
}

static const struct iio_trigger_ctl_ops iio_sysfs_trigger_ops = {
	.attr_names = iio_sysfs_trigger_names, .attr_mode = iio_sysfs_trigger_mode,
	.attr_read = iio_sysfs_trigger_read, .attr_write = iio_sysfs_trigger_write,
};

int iio_sysfs_trigger_install(struct iio_registry *reg)
{
	iio_registry_set_trigger_ctl(reg, &iio_sysfs_trigger_ops, NULL);
	return 0;
}
