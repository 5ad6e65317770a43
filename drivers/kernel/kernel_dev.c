/*
 * kernel_dev.c - one kernel IIO device as an iio_dev: its sysfs files become
 * attributes (modes as sysfs gives them), its channels come from the names
 * (kernel_names.c) and scan_elements/, and every read or write is a file
 * read or write passed through as text.
 *
 * The device is one allocation: its state, channel table and attribute
 * set live in the driver-private area, so a consumer or request that still
 * holds the device after it left the registry reads -ENODEV (the core's
 * gone state), never freed memory. File I/O happens in whatever thread the
 * core is called in; the server calls it on the device's own worker
 * (iio_device_set_own_queue()), never on the event loop.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iio_kit.h"
#include "iio_registry.h"
#include "kernel/iio_kernel.h"
#include "kernel/kernel_event.h"

#define KERNEL_DEV_DIR_MAX	64	/* "iio:device123" */
#define KERNEL_SCAN_DIR		"scan_elements"
#define KERNEL_SCAN_INDEX	"index"
#define KERNEL_SCAN_TYPE	"type"
#define KERNEL_AVAIL_SUFFIX	"_available"
#define KERNEL_DEV_PREFIX	"iio:device"

/*
 * Top-level files libiio skips too: not attributes of the device. Of the
 * subdirectories, those of the IIO ABI are mirrored, their files named
 * "buffer/enable" as the path below the device says (kernel_dev_subdir());
 * power/, of_node and the driver's links are not IIO's.
 */
static const char *const kernel_dev_skip[] = { "dev", "uevent" };

/*
 * The IIO subdirectories mirrored: buffer/ and scan_elements/ (buffer 0's,
 * kept by the kernel since 5.11 beside bufferN/, which holds both), trigger/
 * (current_trigger) and events/. bufferN/ is matched by kernel_dev_subdir().
 */
static const char *const kernel_dev_subdirs[] = {
	KERNEL_SCAN_DIR, "buffer", "trigger", "events",
};

/* Device attributes the core knows by kind (iiod shows name and label on the element). */
static const struct {
	const char *name;
	enum iio_attr_kind kind;
} kernel_dev_kinds[] = {
	{ "name", IIO_ATTR_DEV_NAME },
	{ "label", IIO_ATTR_DEV_LABEL },
	{ "current_timestamp_clock", IIO_ATTR_TS_CLOCK },
};

/* What a mirrored device keeps; the arrays follow it in the private area. */
struct kernel_dev {
	char dir[KERNEL_DEV_DIR_MAX];
	char path[IIO_KERNEL_PATH_MAX];	/* resolved: iio_kernel_resolve() */
	char name[IIO_KERNEL_NAME_MAX];
	char label[IIO_KERNEL_NAME_MAX];
	struct iio_chan_spec *chans;
	int nchans;
	struct iio_attr *attrs;
	int nattrs;
	struct kernel_cap *cap;		/* kernel_buffer.c's, while capturing */
	struct kernel_evfd evfd;	/* kernel_event.c: open while the event queue has a reader */
};

/* The scan being built: channels and attributes in growable arrays. */
struct kernel_scan {
	struct kernel_dev kd;
	struct iio_chan_spec chans[IIO_KERNEL_CHANNELS_MAX];
	int chan_of[IIO_KERNEL_FILES_MAX];	/* attrs[i].chan as an index, -1 none */
	struct iio_attr attrs[IIO_KERNEL_FILES_MAX];
	bool typed[2][IIOWIRE_IIO_CHAN_TYPE_COUNT];	/* by output, type: kernel_scan_typed() */
	struct kernel_evscan ev;			/* events/: kernel_event.c */
	char *err;
	size_t errlen;
};

static char kernel_sysfs_root[IIO_KERNEL_ROOT_MAX] = "/sys";
static char kernel_dev_root[IIO_KERNEL_ROOT_MAX] = "/dev";
static bool kernel_all;

int iio_kernel_set_roots(const char *sysfs_root, const char *dev_root)
{
	if ((sysfs_root && strlen(sysfs_root) >= sizeof(kernel_sysfs_root)) ||
	    (dev_root && strlen(dev_root) >= sizeof(kernel_dev_root)))
		return -ENAMETOOLONG;
	if (sysfs_root)
		snprintf(kernel_sysfs_root, sizeof(kernel_sysfs_root), "%s", sysfs_root);
	if (dev_root)
		snprintf(kernel_dev_root, sizeof(kernel_dev_root), "%s", dev_root);
	return 0;
}

const char *iio_kernel_sysfs_root(void)
{
	return kernel_sysfs_root;
}

const char *iio_kernel_dev_root(void)
{
	return kernel_dev_root;
}

void iio_kernel_set_all(bool all)
{
	kernel_all = all;
}

bool iio_kernel_all(void)
{
	return kernel_all;
}

static struct kernel_dev *kernel_dev_of(const struct iio_dev *indio_dev)
{
	return iio_priv(indio_dev);
}

/* ---- file I/O ---- */

/*
 * Read a whole file into @buf (NUL-terminated). O_NONBLOCK only where
 * asked: the scan must not wait on a FIFO, an attribute read may (the
 * worker's deadline answers for it). A file gone since the scan is the
 * device going away, as sysfs says with -ENODEV.
 * Return: the length, or -errno (-EFBIG when it does not fit).
 */
static ssize_t kernel_dev_read_file(const char *path, char *buf, size_t len, bool nonblock)
{
	size_t got = 0;
	ssize_t n;
	int fd, err = 0;

	fd = iio_kernel_open(path, O_RDONLY | (nonblock ? O_NONBLOCK : 0));
	if (fd < 0)
		return fd == -ENOENT ? -ENODEV : fd;
	while (got < len) {
		n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = errno == EAGAIN && nonblock ? 0 : -errno;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (err)
		return err;
	if (got >= len)
		return -EFBIG;	/* sysfs gives a page at most; this is no sysfs value */
	buf[got] = '\0';
	return (ssize_t)got;
}

static ssize_t kernel_dev_read_text(struct iio_dev *indio_dev, const struct iio_attr *attr,
				    char *buf, size_t len)
{
	char path[sizeof(kernel_dev_of(indio_dev)->path) + IIO_ATTR_NAME_MAX + 2];

	snprintf(path, sizeof(path), "%s/%s", kernel_dev_of(indio_dev)->path, attr->name);
	return kernel_dev_read_file(path, buf, len, false);
}

int iio_kernel_path_write(const char *path, const char *buf, size_t len, bool nonblock)
{
	struct stat st;
	ssize_t n;
	int fd, ret = 0;

	fd = iio_kernel_open(path, O_WRONLY | (nonblock ? O_NONBLOCK : 0));
	if (fd < 0)
		return fd == -ENOENT ? -ENODEV : fd;
	/* sysfs ignores a truncate; a plain file (a fake tree) must not keep a longer tail */
	if (fstat(fd, &st) < 0 || (S_ISREG(st.st_mode) && ftruncate(fd, 0) < 0)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	/* one write(), as a sysfs store sees the whole buffer at once */
	do {
		n = write(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

ssize_t iio_kernel_path_read(const char *path, char *buf, size_t len)
{
	return kernel_dev_read_file(path, buf, len, true);
}

ssize_t iio_kernel_entry_read(const char *entry, const char *file, char *buf, size_t len)
{
	char path[IIO_KERNEL_PATH_MAX + IIO_ATTR_NAME_MAX + 1];
	size_t n;
	int ret;

	ret = iio_kernel_resolve(entry, path, IIO_KERNEL_PATH_MAX, NULL, 0);
	if (ret)
		return ret;
	n = strlen(path);
	snprintf(path + n, sizeof(path) - n, "/%s", file);
	return kernel_dev_read_file(path, buf, len, true);
}

static int kernel_dev_write_file(struct iio_dev *indio_dev, const char *name, const char *buf,
				 size_t len)
{
	char path[sizeof(kernel_dev_of(indio_dev)->path) + IIO_ATTR_NAME_MAX + 2];

	snprintf(path, sizeof(path), "%s/%s", kernel_dev_of(indio_dev)->path, name);
	return iio_kernel_path_write(path, buf, len, false);
}

static int kernel_dev_write_text(struct iio_dev *indio_dev, const struct iio_attr *attr,
				 const char *buf, size_t len)
{
	return kernel_dev_write_file(indio_dev, attr->name, buf, len);
}

int iio_kernel_file_write(struct iio_dev *indio_dev, const char *name, const char *text)
{
	return kernel_dev_write_file(indio_dev, name, text, strlen(text));
}

ssize_t iio_kernel_file_read(struct iio_dev *indio_dev, const char *name, char *buf, size_t len)
{
	char path[sizeof(kernel_dev_of(indio_dev)->path) + IIO_ATTR_NAME_MAX + 2];

	snprintf(path, sizeof(path), "%s/%s", kernel_dev_of(indio_dev)->path, name);
	return kernel_dev_read_file(path, buf, len, true);
}

struct kernel_cap **iio_kernel_cap_slot(struct iio_dev *indio_dev)
{
	return &kernel_dev_of(indio_dev)->cap;
}

/*
 * A consumer's read of (@chan, @mask): the file that holds it, separate
 * before shared, parsed from the kernel's text.
 */
static int kernel_dev_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			       int *val, int *val2, long mask)
{
	const struct iio_attr *a, *best = NULL;
	char text[IIO_VALUE_MAX_BYTES];
	ssize_t n;
	int i;

	for (i = 0; i < iio_device_attr_count(indio_dev); i++) {
		a = iio_device_attr_at(indio_dev, i);
		if (a->kind != IIO_ATTR_INFO || a->info != mask || !iio_chan_has_attr(chan, a))
			continue;
		if (!best || a->shared < best->shared)
			best = a;
	}
	if (!best)
		return -EINVAL;
	n = kernel_dev_read_text(indio_dev, best, text, sizeof(text));
	if (n < 0)
		return (int)n;
	if (n > 0 && text[n - 1] == '\n')
		text[n - 1] = '\0';
	return iio_kernel_text_value(text, val, val2);
}

/* The event fd through /dev/iio:deviceN (--dev-root), while the core's queue has a reader. */
static int kernel_dev_event_open(struct iio_dev *indio_dev)
{
	struct kernel_dev *kd = kernel_dev_of(indio_dev);
	char node[IIO_KERNEL_ROOT_MAX + KERNEL_DEV_DIR_MAX + 1];

	snprintf(node, sizeof(node), "%s/%s", kernel_dev_root, kd->dir);
	return kernel_event_open(indio_dev, &kd->evfd, node);
}

static void kernel_dev_event_close(struct iio_dev *indio_dev)
{
	kernel_event_close(&kernel_dev_of(indio_dev)->evfd);
}

static const struct iio_info kernel_dev_info = {
	.read_raw = kernel_dev_read_raw,
	.read_text = kernel_dev_read_text,
	.write_text = kernel_dev_write_text,
};

/* A device with events/ (an event interface): the same, and its event fd. */
static const struct iio_info kernel_dev_info_events = {
	.read_raw = kernel_dev_read_raw,
	.read_text = kernel_dev_read_text,
	.write_text = kernel_dev_write_text,
	.event_open = kernel_dev_event_open,
	.event_close = kernel_dev_event_close,
};

/* ---- the scan of one directory ---- */

static int kernel_scan_err(struct kernel_scan *sc, int ret, const char *what)
{
	if (sc->err && sc->errlen)
		snprintf(sc->err, sc->errlen, "%s: %s", sc->kd.path, what);
	return ret;
}

/* The channel @want keys (direction, type, index, partner, modifier): found or added. */
static int kernel_scan_chan(struct kernel_scan *sc, const struct iio_chan_spec *want)
{
	struct iio_chan_spec *c;
	int i;

	for (i = 0; i < sc->kd.nchans; i++)
		if (iio_kernel_chan_same(&sc->chans[i], want))
			return i;
	if (sc->kd.nchans == IIO_KERNEL_CHANNELS_MAX)
		return kernel_scan_err(sc, -E2BIG, "more channels than iiowire mirrors");
	c = &sc->chans[sc->kd.nchans];
	memset(c, 0, sizeof(*c));
	c->output = want->output;
	c->type = want->type;
	c->indexed = want->indexed;
	c->channel = want->channel;
	c->differential = want->differential;
	c->channel2 = want->channel2;
	c->modified = want->modified;
	c->scan_index = -1;
	return sc->kd.nchans++;
}

/* The info bit @postfix names ("raw"; "scale_available" with @avail). Return: bit or -1. */
static int kernel_scan_info(const char *postfix, bool *avail)
{
	size_t n = strlen(postfix), sl = strlen(KERNEL_AVAIL_SUFFIX);
	const char *pf;
	int i;

	*avail = n > sl && strcmp(postfix + n - sl, KERNEL_AVAIL_SUFFIX) == 0;
	if (*avail)
		n -= sl;
	for (i = 0; i < IIO_CHAN_INFO_COUNT; i++) {
		pf = iio_chan_info_postfix((enum iio_chan_info_enum)i);
		if (pf && strlen(pf) == n && strncmp(pf, postfix, n) == 0)
			return i;
	}
	return -1;
}

static unsigned long *kernel_scan_mask(struct iio_chan_spec *c, enum iio_shared_by sh, bool avail)
{
	switch (sh) {
	case IIO_SHARED_BY_TYPE:
		return avail ? &c->info_mask_shared_by_type_available :
			&c->info_mask_shared_by_type;
	case IIO_SHARED_BY_DIR:
		return avail ? &c->info_mask_shared_by_dir_available : &c->info_mask_shared_by_dir;
	case IIO_SHARED_BY_ALL:
		return avail ? &c->info_mask_shared_by_all_available : &c->info_mask_shared_by_all;
	case IIO_SEPARATE:
	default:
		return avail ? &c->info_mask_separate_available : &c->info_mask_separate;
	}
}

/* Is a bare name of this direction and type shared (some file of theirs is indexed or modified)? */
static bool kernel_scan_typed(const struct kernel_scan *sc, const struct iio_kernel_name *kn)
{
	return sc->typed[kn->chan.output][kn->chan.type];
}

/* Note the directions and types that have indexed or modified names. */
static void kernel_scan_note_typed(struct kernel_scan *sc, const char *name)
{
	struct iio_kernel_name kn;

	if (iio_kernel_name_parse(name, &kn) && !kn.bare &&
	    (unsigned int)kn.chan.type < IIOWIRE_IIO_CHAN_TYPE_COUNT)
		sc->typed[kn.chan.output][kn.chan.type] = true;
}

/* The name's kind as a device attribute: name, label, the clock, or plain text. */
static enum iio_attr_kind kernel_scan_dev_kind(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kernel_dev_kinds); i++)
		if (strcmp(kernel_dev_kinds[i].name, name) == 0)
			return kernel_dev_kinds[i].kind;
	return IIO_ATTR_TEXT;
}

/*
 * Give attribute @i its channel, sharing and kind. @shared_pass: the
 * first pass takes the names of one channel, the second those shared by
 * the channels of a type (which need the first pass's channels).
 */
static int kernel_scan_classify(struct kernel_scan *sc, int i, bool shared_pass)
{
	struct iio_attr *a = &sc->attrs[i];
	struct iio_kernel_name kn;
	bool avail, shared;
	int k, bit;

	if (!iio_kernel_name_parse(a->name, &kn)) {
		if (!shared_pass) {
			a->kind = kernel_scan_dev_kind(a->name);
			a->shared = IIO_SHARED_BY_ALL;
		}
		return 0;
	}
	shared = (kn.bare || (kn.chan.differential && !kn.chan.indexed)) &&
		 kernel_scan_typed(sc, &kn);
	if (shared != shared_pass)
		return 0;
	bit = kernel_scan_info(kn.postfix, &avail);
	a->kind = bit < 0 ? IIO_ATTR_TEXT : avail ? IIO_ATTR_AVAIL : IIO_ATTR_INFO;
	if (bit < 0 && !shared && strcmp(kn.postfix, "label") == 0)
		a->kind = IIO_ATTR_LABEL;
	a->info = bit < 0 ? 0 : bit;
	a->shared = shared ? IIO_SHARED_BY_TYPE : IIO_SEPARATE;
	if (!shared) {
		k = kernel_scan_chan(sc, &kn.chan);
		if (k < 0)
			return k;
		sc->chan_of[i] = k;
		if (bit >= 0)
			*kernel_scan_mask(&sc->chans[k], IIO_SEPARATE, avail) |= BIT(bit);
		return 0;
	}
	/* shared by type: owned by the first such channel, declared by all of them */
	for (k = 0; k < sc->kd.nchans; k++) {
		struct iio_chan_spec *c = &sc->chans[k];

		if (c->output != kn.chan.output || c->type != kn.chan.type ||
		    c->differential != kn.chan.differential)
			continue;
		if (sc->chan_of[i] < 0)
			sc->chan_of[i] = k;
		if (bit >= 0)
			*kernel_scan_mask(c, IIO_SHARED_BY_TYPE, avail) |= BIT(bit);
	}
	if (sc->chan_of[i] < 0)
		a->shared = IIO_SHARED_BY_ALL;	/* in_voltage-voltage_x with no pair: the device's */
	return 0;
}

static bool kernel_scan_skip(const char *name)
{
	size_t i;

	if (name[0] == '.')
		return true;
	for (i = 0; i < ARRAY_SIZE(kernel_dev_skip); i++)
		if (strcmp(kernel_dev_skip[i], name) == 0)
			return true;
	return false;
}

/* Is @name one of the IIO subdirectories mirrored (kernel_dev_subdirs[], bufferN)? */
static bool kernel_dev_subdir(const char *name)
{
	size_t i, n = strlen("buffer");

	for (i = 0; i < ARRAY_SIZE(kernel_dev_subdirs); i++)
		if (strcmp(kernel_dev_subdirs[i], name) == 0)
			return true;
	return strncmp(name, "buffer", n) == 0 && name[n] &&
	       strspn(name + n, "0123456789") == strlen(name + n);
}

/*
 * The files of the directory @sub ("" the device's own, else one of
 * kernel_dev_subdirs): everything but directories and links (FIFOs too,
 * which tests use for attributes that hang), in the directory's order, as
 * libiio lists them (it orders channels without a scan element so); a
 * subdirectory's as "sub/file". A file that vanishes between the listing
 * and its stat is left out, and so is a subdirectory that does.
 */
static int kernel_scan_files(struct kernel_scan *sc, const char *sub)
{
	char path[sizeof(sc->kd.path) + IIO_ATTR_NAME_MAX + 1];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s%s%s", sc->kd.path, sub[0] ? "/" : "", sub);
	ret = iio_kernel_opendir(path, &d);
	if (ret && sub[0])
		return 0;
	if (ret)
		return kernel_scan_err(sc, ret == -ENOENT ? -ENODEV : ret, strerror(-ret));
	while ((de = readdir(d)) && !ret) {
		struct iio_attr *a = &sc->attrs[sc->kd.nattrs];

		if (kernel_scan_skip(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))
			continue;
		if (strlen(sub) + strlen(de->d_name) + 1 >= sizeof(a->name))
			continue;	/* no IIO attribute is named that long */
		if (sc->kd.nattrs == IIO_KERNEL_FILES_MAX) {
			ret = kernel_scan_err(sc, -E2BIG, "more files than iiowire mirrors");
			break;
		}
		memset(a, 0, sizeof(*a));
		snprintf(a->name, sizeof(a->name), "%s%s%s", sub, sub[0] ? "/" : "", de->d_name);
		a->mode = st.st_mode & 0777;
		sc->chan_of[sc->kd.nattrs++] = -1;
	}
	closedir(d);
	return ret;
}

/* The IIO subdirectories' files after the device's own, in the directory's order. */
static int kernel_scan_subdirs(struct kernel_scan *sc)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret;

	ret = iio_kernel_opendir(sc->kd.path, &d);
	if (ret)
		return kernel_scan_err(sc, ret == -ENOENT ? -ENODEV : ret, strerror(-ret));
	while ((de = readdir(d)) && !ret) {
		if (!kernel_dev_subdir(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		ret = kernel_scan_files(sc, de->d_name);
	}
	closedir(d);
	return ret;
}

/* A small file of the device (name, label, a scan element's), newline dropped; "" if unreadable. */
static void kernel_scan_small(const char *dir, const char *sub, const char *file, char *buf,
			      size_t len)
{
	char path[sizeof(((struct kernel_dev *)0)->path) + 2 * IIO_ATTR_NAME_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s%s%s", dir, sub, sub[0] ? "/" : "", file);
	n = kernel_dev_read_file(path, buf, len, true);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* scan_elements/: each *_index names a channel (the timestamp's often only here). */
static int kernel_scan_elements(struct kernel_scan *sc)
{
	char sub[sizeof(sc->kd.path) + sizeof(KERNEL_SCAN_DIR) + 1], text[64];
	char file[IIO_ATTR_NAME_MAX];
	struct iio_kernel_name kn;
	struct iio_scan_type st;
	struct dirent *de;
	size_t n, sl = strlen("_" KERNEL_SCAN_INDEX);
	DIR *d;
	int k;

	snprintf(sub, sizeof(sub), "%s/%s", sc->kd.path, KERNEL_SCAN_DIR);
	if (iio_kernel_opendir(sub, &d))
		return 0;	/* no buffer */
	while ((de = readdir(d))) {
		n = strlen(de->d_name);
		if (n <= sl || n >= sizeof(file) || strcmp(de->d_name + n - sl, "_" KERNEL_SCAN_INDEX) ||
		    !iio_kernel_name_parse(de->d_name, &kn))
			continue;
		snprintf(file, sizeof(file), "%.*s_" KERNEL_SCAN_TYPE, (int)(n - sl), de->d_name);
		kernel_scan_small(sub, "", file, text, sizeof(text));
		if (iio_kernel_scan_type_parse(text, &st) < 0)
			continue;
		kernel_scan_note_typed(sc, de->d_name);
		k = kernel_scan_chan(sc, &kn.chan);
		if (k < 0) {
			closedir(d);
			return k;
		}
		kernel_scan_small(sub, "", de->d_name, text, sizeof(text));
		sc->chans[k].scan_index = atoi(text);
		sc->chans[k].scan_type = st;
	}
	closedir(d);
	return 0;
}

/*
 * The hardware id: the parent device in /sys/devices ("1-0048" for an I2C
 * chip), as the device's sysfs path shows it; "" when the directory is no
 * link into /sys/devices (an iio_dummy, or a fake tree without links).
 */
static void kernel_scan_hwid(const char *path, char *hwid, size_t len)
{
	char real[PATH_MAX], root[PATH_MAX], *slash;

	hwid[0] = '\0';
	/* both resolved: a --sysfs-root given through a link or relative still matches */
	if (!realpath(path, real) || !realpath(kernel_sysfs_root, root))
		return;
	slash = strrchr(real, '/');
	if (!slash || slash == real)
		return;
	*slash = '\0';
	slash = strrchr(real, '/');
	if (!slash || strncmp(real, root, strlen(root)) != 0 ||
	    strstr(real, "/devices/") == NULL)
		return;
	snprintf(hwid, len, "%s", slash + 1);
}

static int kernel_scan_dir(struct kernel_scan *sc, const char *dir)
{
	int i, ret;

	snprintf(sc->kd.dir, sizeof(sc->kd.dir), "%s", dir);
	ret = iio_kernel_resolve(dir, sc->kd.path, sizeof(sc->kd.path), sc->err, sc->errlen);
	if (!ret)
		ret = kernel_scan_files(sc, "");
	if (!ret)
		ret = kernel_scan_subdirs(sc);
	if (!ret)
		ret = kernel_scan_elements(sc);
	for (i = 0; i < sc->kd.nattrs; i++)
		kernel_scan_note_typed(sc, sc->attrs[i].name);
	for (i = 0; i < sc->kd.nattrs && !ret; i++)
		ret = kernel_scan_classify(sc, i, false);
	for (i = 0; i < sc->kd.nattrs && !ret; i++)
		ret = kernel_scan_classify(sc, i, true);
	if (!ret)
		ret = kernel_event_scan(sc->kd.path, sc->chans, sc->kd.nchans, &sc->ev, sc->err,
					sc->errlen);
	if (ret)
		return ret;
	kernel_scan_small(sc->kd.path, "", "name", sc->kd.name, sizeof(sc->kd.name));
	kernel_scan_small(sc->kd.path, "", "label", sc->kd.label, sizeof(sc->kd.label));
	return 0;
}

/* One allocation: the device, its state, channels, attributes and event specs (see the top). */
static struct iio_dev *kernel_dev_build(const struct kernel_scan *sc)
{
	size_t csz = (size_t)sc->kd.nchans * sizeof(struct iio_chan_spec);
	size_t asz = (size_t)sc->kd.nattrs * sizeof(struct iio_attr);
	size_t esz = kernel_event_specs_size(&sc->ev);
	struct kernel_dev *kd;
	struct iio_dev *dev;
	int i;

	dev = iio_device_alloc(sizeof(*kd) + csz + asz + esz);
	if (!dev)
		return NULL;
	kd = iio_priv(dev);
	*kd = sc->kd;
	/* sizes are multiples of 8 (structs of pointers): the arrays after it stay aligned */
	kd->chans = (struct iio_chan_spec *)(kd + 1);
	kd->attrs = (struct iio_attr *)((char *)kd->chans + csz);
	if (csz)
		memcpy(kd->chans, sc->chans, csz);
	if (asz)
		memcpy(kd->attrs, sc->attrs, asz);
	for (i = 0; i < kd->nattrs; i++)
		kd->attrs[i].chan = sc->chan_of[i] >= 0 ? &kd->chans[sc->chan_of[i]] : NULL;
	kernel_event_place(&sc->ev, (struct iio_event_spec *)((char *)kd->attrs + asz), kd->chans,
			   kd->nchans);
	dev->name = kd->name[0] ? kd->name : NULL;
	dev->label = kd->label[0] ? kd->label : NULL;
	dev->channels = kd->chans;
	dev->num_channels = kd->nchans;
	dev->info = sc->ev.present ? &kernel_dev_info_events : &kernel_dev_info;
	iio_device_set_attrs(dev, kd->attrs, kd->nattrs);
	iio_device_set_own_queue(dev);
	if (iio_kernel_buffer_setup(dev)) {
		iio_device_put(dev);
		return NULL;
	}
	return dev;
}

int iio_kernel_mirror(const char *dir, struct iio_dev **out, char *err, size_t errlen)
{
	struct kernel_scan *sc;
	struct iio_dev *dev;
	int ret, n = -1;

	if (err && errlen)
		err[0] = '\0';
	if (strlen(dir) >= KERNEL_DEV_DIR_MAX || strchr(dir, '/'))
		return -ENODEV;
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return -ENOMEM;
	sc->err = err;
	sc->errlen = errlen;
	ret = kernel_scan_dir(sc, dir);
	if (ret) {
		free(sc);
		return ret;
	}
	dev = kernel_dev_build(sc);
	if (dev) {
		kernel_scan_hwid(sc->kd.path, dev->hwid, sizeof(dev->hwid));
		if (sscanf(dir, KERNEL_DEV_PREFIX "%d", &n) == 1)
			iio_device_request_id(dev, n);
	}
	free(sc);
	if (!dev)
		return -ENOMEM;
	*out = dev;
	return 0;
}

/* ---- the devices of the tree ---- */

static const struct iio_device_id kernel_driver_id[] = {
	{ IIO_KERNEL_DRIVER_NAME, 0 }, { NULL, 0 }
};

static int kernel_driver_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			       size_t errlen);

const struct iio_driver iio_kernel_driver = {
	.name = IIO_KERNEL_DRIVER_NAME,
	.bus = IIO_DRIVER_BUS_NONE,
	.id_table = kernel_driver_id,
	.probe = kernel_driver_probe,
	.remove = iio_kernel_buffer_stop,
};
IIO_DRIVER_REGISTER(iio_kernel_driver);

const char *iio_kernel_dir(const struct iio_dev *indio_dev)
{
	if (!indio_dev || iio_device_driver(indio_dev) != &iio_kernel_driver)
		return NULL;
	return kernel_dev_of(indio_dev)->dir;
}

static int kernel_list_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The N of every iio:deviceN directory, ascending. Return: how many, or -errno. */
int iio_kernel_device_ids(int *ids, int max)
{
	char path[IIO_KERNEL_ROOT_MAX + sizeof(IIO_KERNEL_BUS_DIR) + 1], tail;
	struct dirent *de;
	int n = 0, id;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", kernel_sysfs_root, IIO_KERNEL_BUS_DIR);
	d = opendir(path);
	if (!d)
		return 0;	/* no IIO at all: nothing to serve */
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, KERNEL_DEV_PREFIX "%d%c", &id, &tail) != 1 || id < 0)
			continue;
		if (n == max) {
			closedir(d);
			return -E2BIG;
		}
		ids[n++] = id;
	}
	closedir(d);
	qsort(ids, (size_t)n, sizeof(*ids), kernel_list_cmp);
	return n;
}

/* Does directory iio:device@id answer to @key by @field (0 name, 1 label)? */
static bool kernel_find_match(int id, const char *key, int field)
{
	char dir[KERNEL_DEV_DIR_MAX], text[IIO_KERNEL_NAME_MAX];
	ssize_t n;

	snprintf(dir, sizeof(dir), KERNEL_DEV_PREFIX "%d", id);
	/* gone, or leading out of the tree (refused when mirrored): no match */
	n = iio_kernel_entry_read(dir, field ? "label" : "name", text, sizeof(text));
	if (n <= 0)
		return false;
	text[strcspn(text, "\n")] = '\0';
	return text[0] && strcmp(text, key) == 0;
}

int iio_kernel_find(const char *key, char *dir, size_t dirlen, char *err, size_t errlen)
{
	int ids[IIO_KERNEL_DEVICES_MAX], n, i, field, hits, hit = -1, want = -1;
	char tail;
	size_t used;

	n = iio_kernel_device_ids(ids, IIO_KERNEL_DEVICES_MAX);
	if (n < 0)
		return n;
	if (sscanf(key, KERNEL_DEV_PREFIX "%d%c", &want, &tail) != 1)
		want = -1;
	for (i = 0; i < n && want >= 0; i++)
		if (ids[i] == want)
			hit = want;
	/* then by label, then by name, as iio_registry_find() orders them */
	for (field = 1; field >= 0 && hit < 0; field--) {
		hits = 0;
		used = err && errlen ? (size_t)snprintf(err, errlen, "%s names several: ", key) : 0;
		for (i = 0; i < n; i++) {
			if (!kernel_find_match(ids[i], key, field))
				continue;
			if (used && used < errlen)
				used += (size_t)snprintf(err + used, errlen - used, "%s" KERNEL_DEV_PREFIX
							 "%d", hits ? ", " : "", ids[i]);
			hits++;
			hit = ids[i];
		}
		if (hits > 1)
			return -ENOTUNIQ;
	}
	if (hit < 0) {
		if (err && errlen)
			snprintf(err, errlen, "no kernel IIO device %s under %s/%s", key,
				 kernel_sysfs_root, IIO_KERNEL_BUS_DIR);
		return -ENODEV;
	}
	if (err && errlen)
		err[0] = '\0';
	snprintf(dir, dirlen, KERNEL_DEV_PREFIX "%d", hit);
	return 0;
}

/* Is the kernel device in @dir already mirrored in @reg? */
static bool kernel_registered(const struct iio_registry *reg, const char *dir)
{
	const char *d;
	int i;

	for (i = 0; i < iio_registry_count(reg); i++) {
		d = iio_kernel_dir(iio_registry_at(reg, i));
		if (d && strcmp(d, dir) == 0)
			return true;
	}
	return false;
}

int iio_kernel_register_all(struct iio_registry *reg, char *err, size_t errlen)
{
	char dir[KERNEL_DEV_DIR_MAX], why[256];
	int ids[IIO_KERNEL_DEVICES_MAX], n, i, ret, done = 0;
	struct iio_dev *dev;

	n = iio_kernel_device_ids(ids, IIO_KERNEL_DEVICES_MAX);
	if (n == -E2BIG && err && errlen)
		snprintf(err, errlen, "more than %d kernel IIO devices", IIO_KERNEL_DEVICES_MAX);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), KERNEL_DEV_PREFIX "%d", ids[i]);
		if (kernel_registered(reg, dir))
			continue;
		ret = iio_kernel_mirror(dir, &dev, why, sizeof(why));
		if (ret == -ENODEV)
			continue;	/* gone while we looked: the next rescan sees the tree as it is */
		if (ret == -EXDEV) {
			iio_kernel_warn(why);	/* a link out of the tree: the others are served */
			continue;
		}
		if (!ret) {
			iio_device_set_driver(dev, &iio_kernel_driver);
			ret = iio_device_register(reg, dev, why, sizeof(why));
			if (ret)
				iio_device_put(dev);
		}
		if (ret) {
			if (err && errlen)
				snprintf(err, errlen, "%s: %s", dir, why[0] ? why : strerror(-ret));
			return ret;
		}
		done++;
	}
	return done;
}

/* A board's {"driver": "kernel", "device": KEY}: the kernel device KEY names, mirrored. */
static int kernel_driver_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			       size_t errlen)
{
	char dir[KERNEL_DEV_DIR_MAX];
	const char *key;
	int ret;

	if (iio_probe_prop_str(p, "device", &key) < 0) {
		if (err && errlen)
			snprintf(err, errlen, "kernel: needs \"device\" (a kernel device's name, "
				 "label or iio:deviceN)");
		return -EINVAL;
	}
	if (p->label) {
		if (err && errlen)
			snprintf(err, errlen, "kernel %s: the label is the kernel's (its label "
				 "file); a board cannot give one", key);
		return -EINVAL;
	}
	ret = iio_kernel_find(key, dir, sizeof(dir), err, errlen);
	if (ret)
		return ret;
	return iio_kernel_mirror(dir, out, err, errlen);
}
