/*
 * iio_kernel.h - the host's kernel IIO devices mirrored into a registry.
 *
 * A kernel device (/sys/bus/iio/devices/iio:deviceN) becomes an iio_dev
 * whose attributes are its sysfs files, with their modes, and whose
 * channels are recovered from the file names as libiio's local backend
 * does (in_voltage0_raw is "raw" of input channel voltage0; in_voltage_scale
 * is shared by the voltage inputs), plus scan_elements/ for the scan layout.
 * Reads and writes are file I/O passed through as text (iio_info.read_text),
 * on a worker of the device's own (iio_device_set_own_queue()), so a hung
 * attribute delays only that device. Place in the flow: sysfs -> *kernel
 * backend* -> core -> server. No sockets, no logging.
 *
 * The roots (--sysfs-root, --dev-root) and --kernel are process-wide
 * settings, made once by main() before any board is loaded.
 */
#ifndef IIOWIRE_IIO_KERNEL_H
#define IIOWIRE_IIO_KERNEL_H

#include <stdbool.h>
#include <dirent.h>
#include <stddef.h>
#include <sys/types.h>

#include "iio.h"
#include "iio_core.h"

struct iio_registry;
struct iio_trigger;

/* Files of one kernel device mirrored (top level and its IIO subdirectories together). */
#define IIO_KERNEL_FILES_MAX		1024
/* Channels recovered from one device's file names. */
#define IIO_KERNEL_CHANNELS_MAX		256
/* Events (channel, type, direction) recovered from one device's events/ names. */
#define IIO_KERNEL_EVENTS_MAX		512
/* Kernel devices served at once. */
#define IIO_KERNEL_DEVICES_MAX		256
/* Longest root directory (--sysfs-root, --dev-root). */
#define IIO_KERNEL_ROOT_MAX		512
/*
 * Longest device or trigger directory kept, resolved (iio_kernel_resolve():
 * the root, then devices/... below it; real boards' are under 200 bytes).
 */
#define IIO_KERNEL_PATH_MAX		(IIO_KERNEL_ROOT_MAX + 512)
/* Longest device name or label kept (the kernel's are far shorter). */
#define IIO_KERNEL_NAME_MAX		128
/* Where kernel IIO devices are, below the sysfs root. */
#define IIO_KERNEL_BUS_DIR		"bus/iio/devices"
/* The board "driver" that names a kernel device. */
#define IIO_KERNEL_DRIVER_NAME		"kernel"
/*
 * How often a capture's and an event fd's reader read()s without being
 * woken: once the kernel removes the device (a driver's unbind),
 * poll() on /dev/iio:deviceN and on the event fd reports nothing and wakes
 * no one, only read() says ENODEV (seen on Debian 6.1 under QEMU, see
 * kernel_node.c), so the readers ask; a live device answers EAGAIN.
 */
#define IIO_KERNEL_GONE_POLL_MS		1000

/**
 * iio_kernel_set_roots() - where sysfs and the device nodes are (defaults
 * "/sys" and "/dev"). Copied. Call before loading a board.
 * Return: 0, or -ENAMETOOLONG (IIO_KERNEL_ROOT_MAX).
 */
int iio_kernel_set_roots(const char *sysfs_root, const char *dev_root);
/** iio_kernel_sysfs_root()/iio_kernel_dev_root() - the roots in use; static strings. */
const char *iio_kernel_sysfs_root(void);
const char *iio_kernel_dev_root(void);

/**
 * iio_kernel_set_all() - --kernel: every board load mirrors every kernel
 * device (iio_kernel_register_all()), besides what the board names.
 */
void iio_kernel_set_all(bool all);
bool iio_kernel_all(void);

/**
 * iio_kernel_find() - the kernel device @key names: its directory
 * ("iio:device3"), else its name, else its label.
 * @dir: gets the directory name.
 * @err: why not ("no kernel IIO device ads1015 under /sys/bus/iio/devices").
 * Return: 0, -ENODEV, -ENOTUNIQ (a name or label of several; @err lists them).
 */
int iio_kernel_find(const char *key, char *dir, size_t dirlen, char *err, size_t errlen);

/**
 * iio_kernel_mirror() - a device for the kernel device in directory @dir
 * ("iio:device3"), not registered: attributes as found, iio:device3 asked
 * for (iio_device_request_id()), its own I/O queue.
 * @out: the new device with one reference.
 * Its directory is resolved once (iio_kernel_resolve()) and every file is
 * opened below it through no link (iio_kernel_open()).
 * Return: 0, or -ENODEV (no such directory, or it vanished while read),
 * -EXDEV (@dir is a link out of ROOT/devices), -E2BIG (more than
 * IIO_KERNEL_FILES_MAX files or IIO_KERNEL_CHANNELS_MAX channels), -ENOMEM;
 * @err says which.
 */
int iio_kernel_mirror(const char *dir, struct iio_dev **out, char *err, size_t errlen);

/**
 * iio_kernel_dir() - the sysfs directory name a mirrored device came from,
 * or NULL for a device that is not a kernel one. Borrowed from the device.
 */
const char *iio_kernel_dir(const struct iio_dev *indio_dev);

/**
 * iio_kernel_register_all() - mirror and register every kernel device not
 * in @reg yet, in the order of their numbers. A device that vanishes while
 * read is skipped (the next rescan sees the tree as it is), and so is one
 * whose entry links out of ROOT/devices, with an iio_kernel_warn().
 * Return: the number registered, or -errno with @err set (-E2BIG past
 * IIO_KERNEL_DEVICES_MAX, -ENOMEM).
 */
int iio_kernel_register_all(struct iio_registry *reg, char *err, size_t errlen);

/* The kernel backend's board driver ("driver": "kernel", "device": KEY). */
extern const struct iio_driver iio_kernel_driver;

/*
 * iio_kernel_path_write()/_read() - one sysfs file written in one write()
 * (O_NONBLOCK where asked: a FIFO standing in never waits) / read whole,
 * never waiting (NUL-terminated). A file that is gone is -ENODEV, as sysfs
 * says of a device going away. Return: 0 / the length, or -errno.
 */
int iio_kernel_path_write(const char *path, const char *buf, size_t len, bool nonblock);
ssize_t iio_kernel_path_read(const char *path, char *buf, size_t len);
/**
 * iio_kernel_entry_read() - iio_kernel_path_read() of @file in the directory
 * the bus entry @entry (iio:deviceN, triggerN) leads to, resolved as
 * iio_kernel_resolve() does. Return: the length, or -errno (-EXDEV: the
 * entry leads out of the tree; -ENODEV: gone).
 */
ssize_t iio_kernel_entry_read(const char *entry, const char *file, char *buf, size_t len);

/* ---- kernel_path.c: opening below the sysfs root, through no link ---- */

/**
 * iio_kernel_open() - open @path (ROOT/REL, as the backend builds every
 * path) with @flags, no symbolic link in any component of REL; the root
 * itself may be a link (the operator's --sysfs-root).
 * Return: the descriptor (the caller closes it), or -errno: -EPERM for a
 * link met on the way (or a path not below the root), -EROFS for a write
 * on a read-only mount.
 */
int iio_kernel_open(const char *path, int flags);

/**
 * iio_kernel_opendir() - iio_kernel_open() of a directory, as a DIR in
 * @out (owned: closedir()). Return: 0, or -errno (@out NULL).
 */
int iio_kernel_opendir(const char *path, DIR **out);

/**
 * iio_kernel_resolve() - the directory the bus entry @entry (iio:deviceN,
 * triggerN, iio_sysfs_trigger) leads to, resolved once into @out as
 * ROOT/devices/... (or ROOT/bus/iio/devices/ENTRY for a plain directory).
 * Return: 0; -EXDEV with @err set when it leads anywhere else (not to be
 * mirrored: iio_kernel_warn() it); -ENODEV when gone; -ENAMETOOLONG; -errno.
 */
int iio_kernel_resolve(const char *entry, char *out, size_t len, char *err, size_t errlen);

/**
 * iio_kernel_set_warn() - where the backend's warnings go (@warn(@data,
 * MSG), from any thread; NULL: nowhere). Set once by the server before a
 * board is loaded; the backend itself never logs.
 */
void iio_kernel_set_warn(void (*warn)(void *data, const char *msg), void *data);
/** iio_kernel_warn() - pass @msg to the hook of iio_kernel_set_warn(), if any. */
void iio_kernel_warn(const char *msg);

/* ---- kernel_trig.c: the kernel's triggerN and iio_sysfs_trigger ---- */

/* Files of one kernel trigger directory mirrored ("name", "sampling_frequency", ...). */
#define IIO_KERNEL_TRIGGER_FILES_MAX	16
/* The kernel's sysfs trigger control device, below the bus directory. */
#define IIO_KERNEL_SYSFS_TRIGGER	"iio_sysfs_trigger"

/**
 * iio_kernel_triggers_register() - every /sys/bus/iio/devices/triggerN as
 * a "kernel" trigger (IIO_TRIGGER_EXTERNAL) of @reg with the kernel's N and name, its
 * regular files (but uevent) as its attributes with their modes. A
 * directory that vanishes while read is skipped.
 * Return: the number registered, or -errno with @err set (-E2BIG past
 * IIO_KERNEL_TRIGGER_FILES_MAX files, -ENOSPC past IIO_TRIGGERS_MAX
 * triggers, -EEXIST a name taken, -ENOMEM).
 */
int iio_kernel_triggers_register(struct iio_registry *reg, char *err, size_t errlen);

/**
 * iio_kernel_ctl_install() - the kernel's iio_sysfs_trigger (iio-trig-sysfs
 * loaded) as @reg's, when it has one: its regular files (add_trigger,
 * remove_trigger and the platform bus's driver_override, modalias) with
 * their modes, as iiod 0.24 lists it, written through. A write of
 * add_trigger makes the kernel create sysfstrigK and send the uevent whose
 * rescan mirrors it.
 * Return: 0, -E2BIG (more than IIO_KERNEL_TRIGGER_FILES_MAX files; @err
 * says so), -ENOMEM.
 */
int iio_kernel_ctl_install(struct iio_registry *reg, char *err, size_t errlen);

/*
 * The same in two steps, for hotplug: the files read off the loop
 * (_prepare: 0 with *out NULL when there is none, 1 for a trigger gone
 * while read), the result registered on it (_add, _set; these take @kt, on
 * failure too). iio_kernel_trigger_ids()/iio_kernel_device_ids(): the N of
 * each triggerN / iio:deviceN now, ascending; how many (at most @max), or
 * -E2BIG (devices).
 */
struct kernel_trig;
int iio_kernel_trigger_ids(int *ids, int max);
int iio_kernel_device_ids(int *ids, int max);
int iio_kernel_trigger_prepare(int id, struct kernel_trig **out, char *err, size_t errlen);
int iio_kernel_trigger_add(struct iio_registry *reg, struct kernel_trig *kt, char *err,
			   size_t errlen);
int iio_kernel_ctl_prepare(struct kernel_trig **out, char *err, size_t errlen);
void iio_kernel_ctl_set(struct iio_registry *reg, struct kernel_trig *kt);
/* kernel_hot.c: the source's hotplug steps (iio_source.h's hot_*) */
struct iio_source_hot;
struct iio_source_hot *iio_kernel_hot_begin(const struct iio_registry *reg);
int iio_kernel_hot_scan(struct iio_source_hot *hot);
int iio_kernel_hot_apply(struct iio_source_hot *hot, struct iio_registry *reg,
			 struct iio_dev **gone, int max, char *summary, size_t len);
void iio_kernel_hot_free(struct iio_source_hot *hot);
/** iio_kernel_ctl_is() - is @reg's iio_sysfs_trigger the kernel's? */
bool iio_kernel_ctl_is(const struct iio_registry *reg);
/** iio_kernel_trigger_is() - is @trig a mirrored kernel trigger? */
bool iio_kernel_trigger_is(const struct iio_trigger *trig);
/** iio_kernel_trig_free() - a prepared trigger not added. */
void iio_kernel_trig_free(struct kernel_trig *kt);

/* ---- kernel_buffer.c: capture from /dev/iio:deviceN ---- */

struct kernel_cap;

/**
 * iio_kernel_buffer_setup() - a device with scan elements gets a self-timed
 * core buffer whose capture reads /dev/iio:deviceN (before registration).
 * Return: 0 or -ENOMEM.
 */
int iio_kernel_buffer_setup(struct iio_dev *indio_dev);
/** iio_kernel_buffer_stop() - the driver's remove(): end a capture still running. */
void iio_kernel_buffer_stop(struct iio_dev *indio_dev);

/*
 * For kernel_buffer.c (device lock held): a file below the device's
 * directory ("buffer/enable") written or read directly, and where the
 * device keeps its capture.
 */
int iio_kernel_file_write(struct iio_dev *indio_dev, const char *name, const char *text);
ssize_t iio_kernel_file_read(struct iio_dev *indio_dev, const char *name, char *buf, size_t len);
struct kernel_cap **iio_kernel_cap_slot(struct iio_dev *indio_dev);

/* ---- kernel_node.c: /dev/iio:deviceN, open once and shared ---- */

struct iio_kernel_node;

/**
 * iio_kernel_node_get() - a reference to the one open (O_RDONLY,
 * O_NONBLOCK) of the node at @path ("/dev/iio:device3"): opened by the
 * first user, shared by the capture and the event fd's ioctl, as the
 * kernel allows the node one open at a time. Never waits.
 * Return: 0, or -errno of the open (-EBUSY: another process has it open;
 * -ENOENT: no such node), -ENAMETOOLONG, -ENOMEM.
 */
int iio_kernel_node_get(const char *path, struct iio_kernel_node **out);
/** iio_kernel_node_fd() - its descriptor; borrowed, valid while the reference is held. */
int iio_kernel_node_fd(const struct iio_kernel_node *node);
/** iio_kernel_node_put() - drop a reference; the last closes the node. NULL is ignored. */
void iio_kernel_node_put(struct iio_kernel_node *node);

/* ---- kernel_names.c: channels from file names (libiio's rules) ---- */

/**
 * struct iio_kernel_name - what a file name says.
 * @chan: the channel fields it names (type, index, modifier, direction).
 * @postfix: what follows the channel part ("raw", "scale_available").
 * @has_chan: false for a device attribute (no in_/out_ with a known type).
 * @bare: no index and no modifier: a non-indexed channel's, or shared by type.
 */
struct iio_kernel_name {
	struct iio_chan_spec chan;
	const char *postfix;
	bool has_chan;
	bool bare;
};

/**
 * iio_kernel_name_parse() - split @name (borrowed by @out->postfix).
 * Return: true when it names a channel.
 */
bool iio_kernel_name_parse(const char *name, struct iio_kernel_name *out);

/**
 * struct iio_kernel_event_name - what the postfix of an events/ file says.
 * @type: the event type (thresh, mag, change, ...).
 * @dir: its direction, IIO_EV_DIR_NONE when the name has none.
 * @info: the IIO_EV_INFO_* bit ("en", "value", ...), or -1 for a "label" file.
 */
struct iio_kernel_event_name {
	enum iio_event_type type;
	enum iio_event_direction dir;
	int info;
};

/**
 * iio_kernel_event_postfix_parse() - "thresh_rising_en", "change_en",
 * "thresh_either_period" back to its event as iio_device_add_event() built
 * it (the type, direction and info names of the ABI leaf's tables).
 * Return: true when @postfix is one; false for any other name
 * (events/sampling_frequency is a device attribute).
 */
bool iio_kernel_event_postfix_parse(const char *postfix, struct iio_kernel_event_name *out);

/**
 * iio_kernel_chan_same() - do @a and @b key the same channel (direction,
 * type, index, partner, modifier), as two file names of it would?
 */
bool iio_kernel_chan_same(const struct iio_chan_spec *a, const struct iio_chan_spec *b);

/**
 * iio_kernel_scan_type_parse() - "le:s12/16>>4" (and "be:", "X2" repeats)
 * into @st, as a scan element's _type file prints it.
 * Return: 0, or -EINVAL.
 */
int iio_kernel_scan_type_parse(const char *text, struct iio_scan_type *st);

/**
 * iio_kernel_text_value() - a value as the kernel printed it ("123",
 * "0.500000", "-1.250000000") as IIO_VAL_INT, INT_PLUS_MICRO (up to six
 * decimals) or INT_PLUS_NANO, for consumers that compute with it.
 * Return: the IIO_VAL_* code, or -EINVAL for other text.
 */
int iio_kernel_text_value(const char *text, int *val, int *val2);

#endif /* IIOWIRE_IIO_KERNEL_H */
