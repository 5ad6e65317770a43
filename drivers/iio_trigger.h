/*
 * iio_trigger.h - triggers as the kernel's industrialio-trigger.c has them:
 * the core keeps each triggerN (its name, number, consumers and
 * references) and knows no trigger types; a type is an ops table in a file
 * of its own (drivers/trigger/: iio-trig-hrtimer, iio-trig-sysfs, a chip's
 * data-ready trigger; drivers/kernel/kernel_trig.c: the host kernel's).
 * drivers/README.md shows how to add one.
 *
 * What the server needs to know of a trigger is its capabilities: a TIMED
 * one fires every period_ns() (the server runs the timer), an ON_DEMAND one
 * when a file of its is written (trigger_now), an EXTERNAL one outside
 * iiowire altogether (the host kernel fires it for its own devices).
 *
 * Lifetimes: the registry holds one reference to each trigger it lists; a
 * device's current trigger holds another, as does a request in flight
 * (iio_trigger_find_get()). iio_trigger_destroy() takes the trigger off
 * the list and marks it gone, so a current_trigger store racing it on a
 * worker answers -ENODEV; the last iio_trigger_put() frees it.
 */
#ifndef IIOWIRE_IIO_TRIGGER_H
#define IIOWIRE_IIO_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Devices one trigger drives at once. The kernel's
 * CONFIG_IIO_CONSUMERS_PER_TRIGGER defaults to 2 and a third attach fails
 * silently; here it is a larger limit with -EBUSY (maps/README.md K-19).
 */
#define IIO_TRIGGER_CONSUMERS_MAX	16
/* Longest trigger name ("adis16400-dev6", "sysfstrig12", an hrtimer's). */
#define IIO_TRIGGER_NAME_MAX		64
/* triggers a registry holds; an add_trigger past it is -ENOSPC (the kernel's ida has no cap) */
#define IIO_TRIGGERS_MAX		128

struct iio_dev;
struct iio_registry;
struct iio_trigger;

/* What fires a trigger (struct iio_trigger_ops.caps). */
#define IIO_TRIGGER_TIMED	(1u << 0)	/* every period_ns(): the server's timer */
#define IIO_TRIGGER_ON_DEMAND	(1u << 1)	/* a write of one of its files */
#define IIO_TRIGGER_EXTERNAL	(1u << 2)	/* the host kernel, for self-timed devices only */

/**
 * struct iio_trigger_ops - one trigger type, as a kernel trigger driver's
 * iio_trigger_ops plus the sysfs files the driver adds.
 * @type: its name in logs and docs ("hrtimer", "sysfs").
 * @caps: IIO_TRIGGER_TIMED, _ON_DEMAND, _EXTERNAL.
 * @attr_names: its files, NULL-ended, "name" first (the core answers "name"
 *	where the type does not: -ENOENT from @attr_read, 0 from @attr_mode).
 * @attr_mode: the sysfs mode of a file other than "name"; 0 for none.
 * @attr_read/@attr_write: such a file's text / a write of @text at @now_ns
 *	(CLOCK_REALTIME: an on-demand poll's timestamp); -errno.
 * @period_ns: TIMED: ns between polls now, 0 while it has no rate.
 * @validate_device: may @indio_dev use it? 0 or -errno (NULL: any may).
 * @release: free @trig->priv; the trigger is being freed (also when its
 *	registration fails).
 */
struct iio_trigger_ops {
	const char *type;
	unsigned int caps;
	const char *const *(*attr_names)(const struct iio_trigger *trig);
	unsigned int (*attr_mode)(const struct iio_trigger *trig, const char *attr);
	int (*attr_read)(struct iio_trigger *trig, const char *attr, char *buf, size_t len);
	int (*attr_write)(struct iio_trigger *trig, const char *attr, const char *text,
			  int64_t now_ns);
	uint64_t (*period_ns)(const struct iio_trigger *trig);
	int (*validate_device)(struct iio_trigger *trig, struct iio_dev *indio_dev);
	void (*release)(struct iio_trigger *trig);
};

/**
 * struct iio_trigger - a trigger device, triggerN.
 * @consumers: devices attached (capturing on it), under the core's lock.
 * @timer: the server's; the core never touches it.
 * @ops/@priv: its type and that type's state.
 * @refs/@gone: see the lifetimes above; core only.
 */
struct iio_trigger {
	char name[IIO_TRIGGER_NAME_MAX];
	int id;
	struct iio_dev *consumers[IIO_TRIGGER_CONSUMERS_MAX];
	int nconsumers;
	struct iio_registry *reg;
	void *timer;
	const struct iio_trigger_ops *ops;
	void *priv;
	int refs;
	bool gone;
};

/**
 * struct iio_trigger_hooks - how a registry's triggers reach the server.
 * @start/@stop: the first consumer attached / the last left (a timed
 *	trigger's timer starts or stops).
 * @poll: run @indio_dev's handler for a poll at @ts (the server runs it on
 *	the loop or queues it to the device's bus worker); NULL: inline.
 * @change: the trigger's rate was written (its timer re-arms).
 */
struct iio_trigger_hooks {
	void (*start)(struct iio_trigger *trig, void *ctx);
	void (*stop)(struct iio_trigger *trig, void *ctx);
	void (*poll)(struct iio_dev *indio_dev, int64_t ts, void *ctx);
	void (*change)(struct iio_trigger *trig, void *ctx);
	void *ctx;
};

/** iio_registry_set_trigger_hooks() - @hooks copied; NULL clears. */
void iio_registry_set_trigger_hooks(struct iio_registry *reg, const struct iio_trigger_hooks *hooks);

/**
 * iio_trigger_register() - a trigger of type @ops named @name in @reg, as
 * triggerN with @id (the kernel's own number) or, @id -1, the lowest free.
 * @priv: the type's state, owned by the trigger from here on (released
 *	through @ops->release, here too on failure).
 * Return: 0 with *out borrowed (the registry's reference; may be NULL);
 * -EEXIST (the name, as "Duplicate trigger name", or triggerN taken),
 * -EINVAL, -ENOMEM.
 */
int iio_trigger_register(struct iio_registry *reg, const char *name, int id,
			 const struct iio_trigger_ops *ops, void *priv, struct iio_trigger **out);
/**
 * iio_trigger_release_priv() - the @release of a type whose @priv is one
 * malloc'd block: frees it.
 */
void iio_trigger_release_priv(struct iio_trigger *trig);
/** iio_trigger_destroy() - unregister; capturing devices end with -ENODEV. Loop only. */
void iio_trigger_destroy(struct iio_registry *reg, struct iio_trigger *trig);
/** iio_trigger_get()/_put() - a reference more / one less; the last frees. Any thread. */
struct iio_trigger *iio_trigger_get(struct iio_trigger *trig);
void iio_trigger_put(struct iio_trigger *trig);

/** iio_trigger_find() - by name or "triggerN"; NULL if none. Loop only (borrowed). */
struct iio_trigger *iio_trigger_find(const struct iio_registry *reg, const char *key);
/**
 * iio_trigger_find_get() - the trigger named @name (not "triggerN": as
 * current_trigger_store matches), from any thread, with a reference; NULL if none.
 */
struct iio_trigger *iio_trigger_find_get(struct iio_registry *reg, const char *name);
int iio_trigger_count(const struct iio_registry *reg);
struct iio_trigger *iio_trigger_at(const struct iio_registry *reg, int i);

/** iio_trigger_caps() - its type's IIO_TRIGGER_* bits. */
unsigned int iio_trigger_caps(const struct iio_trigger *trig);
/** iio_trigger_period_ns() - a TIMED trigger's ns between polls; 0 for the others. */
uint64_t iio_trigger_period_ns(const struct iio_trigger *trig);
/**
 * iio_trigger_validate_device() - may @indio_dev (self-timed or not) take
 * @trig as its current trigger? An EXTERNAL trigger drives self-timed
 * devices only and only it does; then the type's validate_device.
 * Return: 0, -EINVAL, or the type's -errno.
 */
int iio_trigger_validate_device(struct iio_trigger *trig, struct iio_dev *indio_dev,
				bool self_timed);

/**
 * iio_trigger_poll() - the trigger fired at @ts: each attached device's
 * handler runs (through the hooks' poll). Loop thread.
 */
void iio_trigger_poll(struct iio_trigger *trig, int64_t ts);
/**
 * iio_trigger_lost() - @n polls of @trig were due and never made (the loop
 * stalled past the catch-up bound): each attached device counts @n scans
 * lost, which its readers are told with their next scan. Any thread.
 */
void iio_trigger_lost(struct iio_trigger *trig, uint64_t n);
/** iio_trigger_changed() - a type's rate changed: the server's timer re-arms. */
void iio_trigger_changed(struct iio_trigger *trig);

/** iio_trigger_attr_names() - the trigger's files, NULL-ended, "name" first. */
const char *const *iio_trigger_attr_names(const struct iio_trigger *trig);
/** iio_trigger_attr_mode() - the sysfs mode of @attr (0444 for name); 0 when there is none. */
unsigned int iio_trigger_attr_mode(const struct iio_trigger *trig, const char *attr);
/**
 * iio_trigger_attr_read()/_write() - a trigger's file as sysfs: "name"
 * reads "<name>\n" and refuses writes (-EACCES); the others are its type's.
 * Return: read: length or -errno (-EACCES write-only, -ENOENT no such file);
 * write: 0 or -errno.
 */
int iio_trigger_attr_read(struct iio_trigger *trig, const char *attr, char *buf, size_t len);
int iio_trigger_attr_write(struct iio_trigger *trig, const char *attr, const char *text,
			   int64_t now_ns);

/* ---- the types in drivers/trigger/ ---- */

/** iio_hrtimer_trigger_create() - iio-trig-hrtimer's @name, at 100 Hz. Return: as iio_trigger_register(). */
int iio_hrtimer_trigger_create(struct iio_registry *reg, const char *name,
			       struct iio_trigger **out);
/**
 * iio_dready_trigger_create() - @owner's own data-ready trigger, firing at
 * the rate @period gives (the chip's conversion rate); @owner is not
 * referenced: it unregisters its trigger first.
 */
int iio_dready_trigger_create(struct iio_registry *reg, const char *name, struct iio_dev *owner,
			      int (*period)(struct iio_dev *owner, uint64_t *period_ns),
			      struct iio_trigger **out);

/* ---- iio_sysfs_trigger: one per registry, its implementation installed ---- */

/**
 * struct iio_trigger_ctl_ops - an iio_sysfs_trigger: the board's own
 * (drivers/trigger/sysfs.c: add_trigger makes sysfstrigK here) or the
 * host kernel's (its files written through, its uevent brings sysfstrigK).
 * @attr_names: its files, NULL-ended.
 * @attr_mode: a file's sysfs mode, 0 for none.
 * @attr_read/@attr_write: a file's text / a write; -errno.
 * @release: free @ctx (the registry is going, or another is installed).
 */
struct iio_trigger_ctl_ops {
	const char *const *(*attr_names)(const void *ctx);
	unsigned int (*attr_mode)(const void *ctx, const char *attr);
	int (*attr_read)(const void *ctx, const char *attr, char *buf, size_t len);
	int (*attr_write)(void *ctx, struct iio_registry *reg, const char *attr, const char *text);
	void (*release)(void *ctx);
};

/** iio_registry_set_trigger_ctl() - install @reg's iio_sysfs_trigger (NULL: none); the old one is released. */
void iio_registry_set_trigger_ctl(struct iio_registry *reg, const struct iio_trigger_ctl_ops *ops,
				  void *ctx);
/** iio_trigger_ctl_ops() - whose iio_sysfs_trigger @reg has (its ops), or NULL. */
const struct iio_trigger_ctl_ops *iio_trigger_ctl_ops(const struct iio_registry *reg);
/** iio_trigger_ctl_present() - does @reg have an iio_sysfs_trigger? */
bool iio_trigger_ctl_present(const struct iio_registry *reg);
/** iio_trigger_ctl_attr_names()/_mode()/_read()/_write() - its files; -ENOENT without one. */
const char *const *iio_trigger_ctl_attr_names(const struct iio_registry *reg);
unsigned int iio_trigger_ctl_attr_mode(const struct iio_registry *reg, const char *attr);
int iio_trigger_ctl_attr_read(const struct iio_registry *reg, const char *attr, char *buf,
			      size_t len);
int iio_trigger_ctl_attr_write(struct iio_registry *reg, const char *attr, const char *text);

/**
 * iio_sysfs_trigger_install() - the board's own iio_sysfs_trigger in @reg:
 * add_trigger and remove_trigger (0200) make and drop "sysfstrig<K>"
 * (iio-trig-sysfs's trigger_now). Removing a trigger devices capture on ends
 * their captures with -ENODEV. Writes answer -EINVAL (K used / unknown, or
 * not a decimal), -ENOSPC (IIO_TRIGGERS_MAX triggers already), -ENOMEM.
 * Return: 0 or -ENOMEM.
 */
int iio_sysfs_trigger_install(struct iio_registry *reg);
/**
 * iio_sysfs_trigger_create() - "sysfstrig<@num>", as an add_trigger of
 * @num makes it (a board's declared ones). Return: 0, -EINVAL (@num in
 * use), -ENOSPC, -ENOMEM.
 */
int iio_sysfs_trigger_create(struct iio_registry *reg, int num);

#endif /* IIOWIRE_IIO_TRIGGER_H */
