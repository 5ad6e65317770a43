/*
 * iio_source.h - where devices come from besides a board's own probes.
 *
 * A source brings a whole set of devices and triggers that exist outside
 * iiowire: the host kernel's IIO devices (drivers/kernel/kernel_source.c).
 * Sources register themselves as drivers do (IIO_SOURCE_REGISTER()); the
 * program's options configure them (main.c sets the kernel's roots and
 * --kernel) before any board loads. The board loader asks each one for its
 * devices and knows none of them; the server's uevent watcher asks whether
 * any device it serves comes from a source, and rescans through the board.
 */
#ifndef IIOWIRE_IIO_SOURCE_H
#define IIOWIRE_IIO_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

struct iio_dev;
struct iio_driver;
struct iio_registry;

/**
 * struct iio_source - one source of devices.
 * @name: its name in errors ("kernel").
 * @origin: what turned "every device" on, for errors ("--kernel").
 * @board: the board a load without a board file serves (its JSON), when
 *	@serves_all; NULL for none.
 * @driver: the board driver that names one of its devices
 *	({"driver": "kernel", "device": KEY}): such entries are bound before
 *	the board's others, so that they keep the numbers they have.
 * @serves_all: is every device of the source served (--kernel)?
 * @scan: with @serves_all, at each board load before the board's own
 *	devices: register every device and trigger the source has now (and
 *	its iio_sysfs_trigger), those already in @reg left as they are.
 *	Return: 0 or -errno with @err set.
 * @find: with @serves_all, a board entry naming @key is checked by this
 *	(the device is in already). Return: 0, or -errno with @err set.
 * @owns: is @dev one of the source's (registered by @scan or @driver)?
 * @uevent_subsystem: the uevents' SUBSYSTEM whose arrival means the
 *	source changed ("iio"); NULL: it has none.
 * @hot_begin, @hot_scan, @hot_apply, @hot_free: a change of the source
 *	taken device by device, the others left alone (see below); NULL: a
 *	change reloads the board.
 */
struct iio_source {
	const char *name;
	const char *origin;
	const char *board;
	const struct iio_driver *driver;
	bool (*serves_all)(void);
	int (*scan)(struct iio_registry *reg, char *err, size_t errlen);
	int (*find)(const char *key, char *err, size_t errlen);
	bool (*owns)(const struct iio_dev *dev);
	const char *uevent_subsystem;
	struct iio_source_hot *(*hot_begin)(const struct iio_registry *reg);
	int (*hot_scan)(struct iio_source_hot *hot);
	int (*hot_apply)(struct iio_source_hot *hot, struct iio_registry *reg,
			 struct iio_dev **gone, int max, char *summary, size_t len);
	void (*hot_free)(struct iio_source_hot *hot);
};

/*
 * Hotplug, device by device (the source's own struct iio_source_hot):
 * @hot_begin (loop thread) notes which devices and triggers of @reg are the
 *	source's; NULL for -ENOMEM.
 * @hot_scan (a thread of its own: it reads the source) finds what came and
 *	what went, and builds the devices that came, not registered yet.
 *	Return: 0 or -errno.
 * @hot_apply (loop thread) unlists what went (each into @gone, for the
 *	caller to end its streams and iio_device_remove() off the loop) and
 *	registers what came, in @reg, leaving every other device alone; @summary
 *	gets "+1 -0 devices, +0 -0 triggers" for the log.
 *	Return: how many in @gone; -EBUSY when the change is not one to take
 *	device by device (a trigger in use went, the iio_sysfs_trigger came or
 *	went): @reg is untouched and the caller reloads the board.
 * @hot_free: any thread; what was built and not registered goes.
 */

#define IIO_SOURCE_REGISTER(src)						\
	static const struct iio_source *const iio_source_ptr_##src		\
	__attribute__((used, section("iiowire_sources"), aligned(sizeof(void *)))) = &(src)

/** iio_source_count()/iio_source_at() - the sources linked in. */
size_t iio_source_count(void);
const struct iio_source *iio_source_at(size_t i);
/** iio_source_of_driver() - the source whose board driver @drv is, or NULL. */
const struct iio_source *iio_source_of_driver(const struct iio_driver *drv);
/** iio_source_serving_all() - the first source serving every device of its own, or NULL. */
const struct iio_source *iio_source_serving_all(void);
/** iio_source_of_device() - the source @dev comes from, or NULL for a board's own. */
const struct iio_source *iio_source_of_device(const struct iio_dev *dev);

#endif /* IIOWIRE_IIO_SOURCE_H */
