/*
 * kernel_source.c - the host kernel's IIO devices as a source of devices
 * (iio_source.h): with --kernel every board load mirrors every kernel
 * device and trigger and the kernel's iio_sysfs_trigger, before the board's
 * own; a board names one with {"driver": "kernel", "device": KEY}; the
 * kernel's "iio" uevents tell the server to rescan, device by device
 * (kernel_hot.c).
 */
#include "iio_source.h"
#include "kernel/iio_kernel.h"

/* The board a daemon with --kernel and no board file serves. */
#define KERNEL_SOURCE_BOARD \
	"{\"board\": \"kernel\", \"description\": \"the host's kernel IIO devices\"}"

static int kernel_source_scan(struct iio_registry *reg, char *err, size_t errlen)
{
	int ret;

	/* triggers first: the kernel's triggerN keep their numbers, the board's take the free ones */
	ret = iio_kernel_triggers_register(reg, err, errlen);
	if (ret >= 0)
		ret = iio_kernel_ctl_install(reg, err, errlen);
	if (ret >= 0)
		ret = iio_kernel_register_all(reg, err, errlen);
	return ret < 0 ? ret : 0;
}

static int kernel_source_find(const char *key, char *err, size_t errlen)
{
	char dir[64];

	return iio_kernel_find(key, dir, sizeof(dir), err, errlen);
}

static bool kernel_source_owns(const struct iio_dev *dev)
{
	return iio_kernel_dir(dev) != NULL;
}

static const struct iio_source kernel_source = {
	.name = "kernel",
	.origin = "--kernel",
	.board = KERNEL_SOURCE_BOARD,
	.driver = &iio_kernel_driver,
	.serves_all = iio_kernel_all,
	.scan = kernel_source_scan,
	.find = kernel_source_find,
	.owns = kernel_source_owns,
	.uevent_subsystem = "iio",
	.hot_begin = iio_kernel_hot_begin,
	.hot_scan = iio_kernel_hot_scan,
	.hot_apply = iio_kernel_hot_apply,
	.hot_free = iio_kernel_hot_free,
};
IIO_SOURCE_REGISTER(kernel_source);
