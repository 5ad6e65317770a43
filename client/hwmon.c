/*
 * hwmon.c - `iiowire-hwmon`, the bridge from a remote consumer's channels to
 * an hwmon device, as the kernel's iio_hwmon does for local ones.
 *
 * Place in the flow: iiowired -> wire -> libiiowire's consumer API ->
 * *iiowire-hwmon* -> DIR/class/hwmon/hwmonN/{name,in1_input,...} (read by the
 * Prometheus node exporter with --path.sysfs=DIR, or by lm-sensors through a
 * bind mount) and/or a sensors-like listing on stdout. Channels come from
 * iiowire_channel_get_all() in map order; types map to hwmon prefixes with
 * one counter per prefix starting at 1; values are processed values in hwmon
 * units (power mW -> µW). Every file is replaced atomically (write a temp
 * file, rename). When the daemon goes away the _input files are removed (the
 * values are stale) and the bridge reconnects; it never writes outside its
 * hwmonN directory, never follows a symlink under the root, never deletes a
 * file it did not create, and never talks the wire protocol itself.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iiowire.h"
#include "iiowire_tool.h"

#define HWMON_EXIT_OK		0
#define HWMON_EXIT_ERROR	1
#define HWMON_EXIT_USAGE	2

/* The kernel's iio_hwmon name when the device has no firmware node. */
#define HWMON_DEFAULT_NAME	"iio_hwmon"
#define HWMON_DEFAULT_INTERVAL_MS	1000
/* A file in our hwmonN directory that says whose it is, so a restart reuses it. */
#define HWMON_OWNER_FILE	".iiowire-hwmon"
/* Longest hwmon name; the kernel has no limit but sysfs pages hold 4096 bytes. */
#define HWMON_NAME_MAX_BYTES	64
/* Attribute file names: "humidity12_label" and the like. */
#define HWMON_FILE_MAX_BYTES	48
/* Largest owner file read back (it lists every file of our device). */
#define HWMON_OWNER_MAX_BYTES	(1024 * 1024)
/* A provider's events/ file name ("events/in_voltage1_thresh_falling_value"). */
#define HWMON_LIMIT_ATTR_MAX	128
/* Files per sensor the bridge may create: label, input, min, max and three alarms. */
#define HWMON_FILES_PER_SENSOR	7

/* hwmon's limits and the event direction that trips each (iio_hwmon has none). */
enum hwmon_limit_kind { HWMON_LIMIT_MIN, HWMON_LIMIT_MAX, HWMON_LIMITS };

static const struct {
	const char *file;	/* "min" -> in1_min */
	const char *alarm;	/* "min_alarm" */
	const char *suffix;	/* the provider's events/ file ends so */
	int dir;		/* enum iio_event_direction */
} hwmon_limits[HWMON_LIMITS] = {
	[HWMON_LIMIT_MIN] = { "min", "min_alarm", "_thresh_falling_value", IIO_EV_DIR_FALLING },
	[HWMON_LIMIT_MAX] = { "max", "max_alarm", "_thresh_rising_value", IIO_EV_DIR_RISING },
};

/* hwmonN directories tried before giving up (ENOSPC). */
#define HWMON_DIR_MAX		4096

/*
 * The kernel's iio_hwmon type table (reference §5): IIO type -> hwmon prefix,
 * and the multiplier that turns the IIO unit into the hwmon one.
 */
static const struct hwmon_type {
	enum iio_chan_type type;
	const char *prefix;
	unsigned int mult;	/* power: IIO mW, hwmon µW */
	const char *unit;	/* for --print */
	int divisor;		/* hwmon unit -> printed unit */
} hwmon_types[] = {
	{ IIO_VOLTAGE, "in", 1, "V", 1000 },
	{ IIO_TEMP, "temp", 1, "C", 1000 },
	{ IIO_CURRENT, "curr", 1, "A", 1000 },
	{ IIO_POWER, "power", 1000, "W", 1000000 },
	{ IIO_HUMIDITYRELATIVE, "humidity", 1, "%RH", 1000 },
};
#define HWMON_NTYPES	(sizeof(hwmon_types) / sizeof(hwmon_types[0]))

/* One hwmon channel: a consumer channel with its prefix and number. */
/*
 * A sensor's limits: the provider channel's threshold events. @attr are the
 * events/ files (falling, rising: hwmon's min, max), "" where it has none;
 * @seen: an event of that direction came since the last pass; @alarm: what
 * the _alarm files say (set by an event, cleared once the value is back
 * inside its limits, as hwmon drivers clear a latched alarm bit).
 */
struct hwmon_limit {
	char attr[HWMON_LIMIT_ATTR_MAX];
	bool have;
	int value;				/* hwmon units */
	bool seen;
	bool alarm;
};

struct hwmon_sensor {
	struct iiowire_channel *ch;		/* borrowed from hwmon.chs */
	const struct hwmon_type *type;
	char base[HWMON_FILE_MAX_BYTES];	/* "in1" */
	char label[HWMON_NAME_MAX_BYTES * 2];	/* the consumer channel name, or "" */
	bool have_value;
	int value;				/* hwmon units */
	int chan;				/* the provider channel's number, for its events */
	struct iiowire_event_stream *st;	/* its provider's events (one per provider) */
	struct hwmon_limit lim[HWMON_LIMITS];	/* min (falling), max (rising) */
};

struct hwmon {
	/* options */
	const char *address;
	const char *consumer;
	const char *token_file;
	char name[HWMON_NAME_MAX_BYTES];
	const char *root;		/* NULL: no tree */
	int interval_ms;
	int timeout_ms;
	bool once;
	bool print;

	/* state */
	struct iiowire *w;		/* owned */
	struct iiowire_channel **chs;	/* owned */
	struct hwmon_sensor *sensors;	/* owned, nsensors of them */
	int nsensors;
	unsigned int probed_gen;	/* iiowire_reconnect_count() at probe */
	int root_fd;			/* --sysfs-root, -1 without a tree */
	int class_fd;			/* ROOT/class/hwmon, -1 until opened */
	int dir_fd;			/* ROOT/class/hwmon/hwmonN, -1 until picked */
	char dir_name[16];		/* "hwmonN" */
	char dir[PATH_MAX + 32];	/* its path, for messages; "" until picked */
	bool link_down;			/* the last pass could not reach the daemon */
	bool warned;			/* the current trouble was reported */
};

#define hwmon_warn(...)	tool_log("iiowire-hwmon", __VA_ARGS__)


/* What went wrong with @ret: the connection's message, a failed connect's, or strerror. */
static const char *hwmon_errmsg(const struct hwmon *h, int ret)
{
	if (h->w && *iiowire_errmsg(h->w))
		return iiowire_errmsg(h->w);
	if (!h->w && *iiowire_connect_errmsg())
		return iiowire_connect_errmsg();
	return iiowire_strerror(ret);
}

/* ---- the tree --------------------------------------------------------- */

/*
 * Everything under --sysfs-root is reached through directory fds opened with
 * O_NOFOLLOW, created with mkdirat() (no stat-then-mkdir race) and checked
 * as sshd's StrictModes and systemd-tmpfiles check theirs: owned by us (or
 * root), writable by nobody else. Files are created exclusively under a
 * temporary name and renamed into place, so a planted symlink is never
 * followed, and only the files our owner file lists (ours, from this run
 * or an earlier one) are ever deleted.
 */

/* A directory we may write in: ours or root's, not writable by group or others. */
static int hwmon_dir_check(int fd, const char *what)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		hwmon_warn("%s: owned by uid %u, not by us: refused", what, (unsigned int)st.st_uid);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		hwmon_warn("%s: writable by group or others (mode %03o): refused", what,
			   (unsigned int)(st.st_mode & 0777));
		return -EPERM;
	}
	return 0;
}

/*
 * Make directory @name in @parent unless it exists, and open it, never
 * through a symlink. @made: whether this call created it. Return: the fd,
 * or -errno (-ELOOP/-ENOTDIR for a symlink or a file in its place).
 */
static int hwmon_dir_make(int parent, const char *name, bool *made)
{
	int fd;

	*made = mkdirat(parent, name, 0755) == 0;
	if (!*made && errno != EEXIST)
		return -errno;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* ours: the mode is ours to set, whatever the umask made of it */
	if (*made && fchmod(fd, 0755) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* hwmon_dir_make(), then hwmon_dir_check(). Return: the fd, or -errno (reported). */
static int hwmon_dir_open(int parent, const char *name, const char *what)
{
	bool made;
	int fd = hwmon_dir_make(parent, name, &made);

	if (fd == -ELOOP || fd == -ENOTDIR)
		hwmon_warn("%s: not a directory (a symlink?): refused", what);
	if (fd < 0)
		return fd;
	if (hwmon_dir_check(fd, what) < 0) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/*
 * Open --sysfs-root: it must exist, or at least its parent (the root itself
 * is then made, one level, never a whole path). Return: 0 with h->root_fd
 * set, or -errno (reported).
 */
static int hwmon_root_open(struct hwmon *h)
{
	int fd = open(h->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && mkdir(h->root, 0755) == 0) {
		fd = open(h->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 && fchmod(fd, 0755) < 0) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		hwmon_warn("--sysfs-root %s: %s", h->root, strerror(errno));
		return -errno;
	}
	if (hwmon_dir_check(fd, h->root) < 0) {
		close(fd);
		return -EPERM;
	}
	h->root_fd = fd;
	return 0;
}

/*
 * Replace @file in our directory with @text atomically: readers see the old
 * content or the new one. The temporary name is created exclusively and
 * without following a link. Return: 0, or -errno.
 */
static int hwmon_write_file(const struct hwmon *h, const char *file, const char *text)
{
	char tmp[HWMON_FILE_MAX_BYTES + 40];
	size_t len = strlen(text);
	int fd, ret = 0;

	if (snprintf(tmp, sizeof(tmp), ".%s.%ld.tmp", file, (long)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = openat(h->dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && renameat(h->dir_fd, tmp, h->dir_fd, file) < 0)
		ret = -errno;
	if (ret < 0)
		unlinkat(h->dir_fd, tmp, 0);
	return ret;
}

/* The owner file: "CONSUMER ADDRESS\n", then each file name the layout may create. */
static void hwmon_owner_line(const struct hwmon *h, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s\n", h->consumer, h->w ? iiowire_address(h->w) :
		 (h->address ? h->address : ""));
}

/* Read our directory's owner file (a regular file, not a link). Return: owned text, or NULL. */
static char *hwmon_owner_read(int dir_fd)
{
	struct stat st;
	char *text = NULL;
	ssize_t n;
	int fd;

	fd = openat(dir_fd, HWMON_OWNER_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < HWMON_OWNER_MAX_BYTES)
		text = calloc(1, (size_t)st.st_size + 1);
	if (text) {
		n = read(fd, text, (size_t)st.st_size);
		if (n < 0) {
			free(text);
			text = NULL;
		} else {
			text[n] = '\0';
		}
	}
	close(fd);
	return text;
}

/* Whether the owner file text @have says the directory mirrors what @h does. */
static bool hwmon_owner_is_ours(const struct hwmon *h, const char *have)
{
	char want[PATH_MAX + 64];
	size_t n;

	hwmon_owner_line(h, want, sizeof(want));
	n = strlen(want);
	return have && strncmp(have, want, n) == 0;
}

/* Delete the files the owner file lists (what a run of ours created), then the owner file. */
static void hwmon_clear_dir(const struct hwmon *h)
{
	char *text = hwmon_owner_read(h->dir_fd), *line, *save = NULL;
	bool first = true;

	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* a name in our directory, never a path or a hidden file */
		if (!first && line[0] != '.' && !strchr(line, '/'))
			unlinkat(h->dir_fd, line, 0);
		first = false;
	}
	free(text);
	unlinkat(h->dir_fd, HWMON_OWNER_FILE, 0);
}

/*
 * Try DIR/class/hwmon/hwmon@n: a new directory is ours; an existing one only
 * when its owner file names the same consumer and daemon and it passes the
 * checks. Return: the fd (h->dir_name set), -EEXIST to try the next N, or
 * -errno.
 */
static int hwmon_try_dir(struct hwmon *h, int n)
{
	char name[16], what[PATH_MAX + 32], *have;
	bool made;
	int fd;

	snprintf(name, sizeof(name), "hwmon%d", n);
	snprintf(what, sizeof(what), "%s/class/hwmon/%s", h->root, name);
	fd = hwmon_dir_make(h->class_fd, name, &made);
	/* a symlink or a file named hwmonN is somebody else's: skip it */
	if (fd == -ELOOP || fd == -ENOTDIR)
		return -EEXIST;
	if (fd < 0)
		return fd;
	if (!made) {
		have = hwmon_owner_read(fd);
		if (!hwmon_owner_is_ours(h, have) || hwmon_dir_check(fd, what) < 0) {
			free(have);
			close(fd);
			return -EEXIST;
		}
		free(have);
	}
	snprintf(h->dir_name, sizeof(h->dir_name), "%s", name);
	snprintf(h->dir, sizeof(h->dir), "%s", what);
	return fd;
}

/*
 * Pick DIR/class/hwmon/hwmonN: ours from an earlier run, else the lowest N
 * that mkdirat() can create, as the hwmon core numbers devices. Return: 0
 * with h->dir_fd set, or -errno.
 */
static int hwmon_pick_dir(struct hwmon *h)
{
	char what[PATH_MAX + 16];
	int fd, classfd, n;

	snprintf(what, sizeof(what), "%s/class", h->root);
	classfd = hwmon_dir_open(h->root_fd, "class", what);
	if (classfd < 0)
		return classfd;
	snprintf(what, sizeof(what), "%s/class/hwmon", h->root);
	h->class_fd = hwmon_dir_open(classfd, "hwmon", what);
	close(classfd);
	if (h->class_fd < 0)
		return h->class_fd;
	for (n = 0; n < HWMON_DIR_MAX; n++) {
		fd = hwmon_try_dir(h, n);
		if (fd >= 0) {
			h->dir_fd = fd;
			return 0;
		}
		if (fd != -EEXIST)
			return fd;
	}
	return -ENOSPC;
}

/* The owner file for the current layout: every file it may create. Return: 0, -errno. */
static int hwmon_owner_write(struct hwmon *h)
{
	size_t len = PATH_MAX + 64 +
		     (size_t)h->nsensors * HWMON_FILES_PER_SENSOR * (HWMON_FILE_MAX_BYTES + 12) + 8;
	char *text = malloc(len), *p;
	int i, ret;

	if (!text)
		return -ENOMEM;
	hwmon_owner_line(h, text, len);
	p = text + strlen(text);
	p += sprintf(p, "name\n");
	for (i = 0; i < h->nsensors; i++) {
		const char *b = h->sensors[i].base;

		p += sprintf(p, "%s_label\n%s_input\n%s_min\n%s_max\n%s_min_alarm\n"
			     "%s_max_alarm\n%s_alarm\n", b, b, b, b, b, b, b);
	}
	ret = hwmon_write_file(h, HWMON_OWNER_FILE, text);
	free(text);
	return ret;
}

/* Lay out the device: name, labels; values come with the first update. Return: 0, -errno. */
static int hwmon_tree_build(struct hwmon *h)
{
	char file[HWMON_FILE_MAX_BYTES + 8], text[HWMON_NAME_MAX_BYTES * 2 + 2];
	int i, ret;

	if (h->root_fd < 0)
		return 0;
	if (h->dir_fd < 0) {
		ret = hwmon_pick_dir(h);
		if (ret < 0)
			return ret;
	}
	/* a re-probe may bring another channel set: start from an empty device */
	hwmon_clear_dir(h);
	ret = hwmon_owner_write(h);
	if (ret < 0)
		return ret;
	snprintf(text, sizeof(text), "%s\n", h->name);
	ret = hwmon_write_file(h, "name", text);
	for (i = 0; i < h->nsensors && ret == 0; i++) {
		if (!h->sensors[i].label[0])
			continue;
		snprintf(file, sizeof(file), "%s_label", h->sensors[i].base);
		snprintf(text, sizeof(text), "%s\n", h->sensors[i].label);
		ret = hwmon_write_file(h, file, text);
	}
	return ret;
}

/* Publish or withdraw one value. Return: 0, or -errno of the file system. */
static int hwmon_tree_value(const struct hwmon *h, const struct hwmon_sensor *s)
{
	char file[HWMON_FILE_MAX_BYTES + 8], text[16];

	if (h->dir_fd < 0)
		return 0;
	snprintf(file, sizeof(file), "%s_input", s->base);
	if (!s->have_value) {
		/* a regular file cannot fail a read as hwmon would: no file says "no value" */
		unlinkat(h->dir_fd, file, 0);
		return 0;
	}
	snprintf(text, sizeof(text), "%d\n", s->value);
	return hwmon_write_file(h, file, text);
}

/* Remove our device directory (clean exit: the device goes away, as on unbind). */
static void hwmon_tree_remove(struct hwmon *h)
{
	if (h->dir_fd < 0)
		return;
	hwmon_clear_dir(h);
	/* fails (and stays) if anything not ours is left in it */
	unlinkat(h->class_fd, h->dir_name, AT_REMOVEDIR);
	close(h->dir_fd);
	h->dir_fd = -1;
	h->dir[0] = '\0';
}

/* Close the tree's directory fds (the tree stays). */
static void hwmon_tree_close(struct hwmon *h)
{
	if (h->dir_fd >= 0)
		close(h->dir_fd);
	if (h->class_fd >= 0)
		close(h->class_fd);
	if (h->root_fd >= 0)
		close(h->root_fd);
	h->dir_fd = h->class_fd = h->root_fd = -1;
}

/* ---- channels --------------------------------------------------------- */

static const struct hwmon_type *hwmon_type_find(enum iio_chan_type type)
{
	size_t i;

	for (i = 0; i < HWMON_NTYPES; i++)
		if (hwmon_types[i].type == type)
			return &hwmon_types[i];
	return NULL;
}

/* Mark every value stale (the daemon is away). */
static void hwmon_all_stale(struct hwmon *h)
{
	int i;

	for (i = 0; i < h->nsensors; i++) {
		h->sensors[i].have_value = false;
		hwmon_tree_value(h, &h->sensors[i]);
	}
}

static void hwmon_limits_close(struct hwmon *h);
static int hwmon_limits_probe(struct hwmon *h);
static bool hwmon_is_link_err(int err);

static void hwmon_unprobe(struct hwmon *h)
{
	hwmon_limits_close(h);
	free(h->sensors);
	h->sensors = NULL;
	h->nsensors = 0;
	iiowire_channel_release_all(h->chs);
	h->chs = NULL;
}

/*
 * Get the consumer's channels and number them as iio_hwmon does. Unlike the
 * kernel, which refuses the whole device, a channel of a type hwmon has no
 * class for is skipped with a warning (deviation K-16 in maps/README.md).
 * Return: 0, or -errno.
 */
static int hwmon_probe(struct hwmon *h)
{
	int counters[HWMON_NTYPES] = { 0 };
	const struct hwmon_type *t;
	enum iio_chan_type type;
	struct hwmon_sensor *s;
	int i, n, ret;

	hwmon_all_stale(h);
	hwmon_unprobe(h);
	h->probed_gen = iiowire_reconnect_count(h->w);
	h->chs = iiowire_channel_get_all(h->w, h->consumer);
	if (!h->chs)
		return -errno;
	for (n = 0; h->chs[n]; n++)
		;
	h->sensors = calloc((size_t)n, sizeof(*h->sensors));
	if (!h->sensors)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ret = iiowire_get_channel_type(h->chs[i], &type);
		if (ret < 0)
			return ret;
		t = hwmon_type_find(type);
		if (!t) {
			hwmon_warn("%s: channel %s (%s %s, type %s) has no hwmon class: skipped",
				   h->consumer, *iiowire_channel_name(h->chs[i]) ?
				   iiowire_channel_name(h->chs[i]) : "-",
				   iiowire_channel_provider(h->chs[i]),
				   iiowire_channel_datasheet_name(h->chs[i]),
				   iiowire_chan_type_name(type) ?
				   iiowire_chan_type_name(type) : "?");
			continue;
		}
		s = &h->sensors[h->nsensors++];
		s->ch = h->chs[i];
		s->type = t;
		snprintf(s->base, sizeof(s->base), "%s%d", t->prefix, ++counters[t - hwmon_types]);
		snprintf(s->label, sizeof(s->label), "%s", iiowire_channel_name(h->chs[i]));
	}
	if (h->nsensors == 0) {
		hwmon_warn("%s: no channel of a type hwmon knows (in, temp, curr, power, humidity)",
			   h->consumer);
		return -ENODEV;
	}
	ret = hwmon_limits_probe(h);
	return ret < 0 ? ret : hwmon_tree_build(h);
}

/* ---- limits and alarms: the provider's threshold events ---------------- */

/* Each provider's stream once: sensors of one provider share the first one's. */
static void hwmon_limits_close(struct hwmon *h)
{
	int i, j;

	for (i = 0; i < h->nsensors; i++) {
		if (!h->sensors[i].st)
			continue;
		for (j = i + 1; j < h->nsensors; j++)
			if (h->sensors[j].st == h->sensors[i].st)
				h->sensors[j].st = NULL;
		iiowire_event_stream_close(h->sensors[i].st);
		h->sensors[i].st = NULL;
	}
}

/* The provider channel's events/ files for hwmon's limits, from its CHANNELS entry. */
static void hwmon_limits_find(struct hwmon_sensor *s, const struct iiowire_chan *c)
{
	size_t n;
	int k, a;

	s->chan = c->index;
	for (k = 0; k < HWMON_LIMITS; k++) {
		for (a = 0; a < c->num_attrs; a++) {
			n = strlen(c->attrs[a]);
			if (!strncmp(c->attrs[a], "events/", 7) &&
			    n > strlen(hwmon_limits[k].suffix) &&
			    !strcmp(c->attrs[a] + n - strlen(hwmon_limits[k].suffix),
				    hwmon_limits[k].suffix) &&
			    n < sizeof(s->lim[k].attr)) {
				memcpy(s->lim[k].attr, c->attrs[a], n + 1);
				break;
			}
		}
	}
}

/* One stream of threshold events per provider that has limits. */
static int hwmon_limits_stream(struct hwmon *h, int i)
{
	struct hwmon_sensor *s = &h->sensors[i];
	const char *prov = iiowire_channel_provider(s->ch);
	int j;

	for (j = 0; j < i; j++) {
		if (h->sensors[j].st && !strcmp(iiowire_channel_provider(h->sensors[j].ch), prov)) {
			s->st = h->sensors[j].st;
			return 0;
		}
	}
	return iiowire_event_stream_open(h->w, prov, NULL, "thresh", &s->st);
}

/* Find every sensor's limits; a provider without events gives none. Return: 0 or -errno. */
static int hwmon_limits_probe(struct hwmon *h)
{
	struct iiowire_chan *chans;
	struct hwmon_sensor *s;
	int i, j, n, ret;

	for (i = 0; i < h->nsensors; i++) {
		s = &h->sensors[i];
		n = iiowire_chan_list(h->w, iiowire_channel_provider(s->ch), &chans);
		if (n < 0)
			return hwmon_is_link_err(n) ? n : 0;
		for (j = 0; j < n; j++)
			if (chans[j].datasheet_name &&
			    !strcmp(chans[j].datasheet_name, iiowire_channel_datasheet_name(s->ch)))
				hwmon_limits_find(s, &chans[j]);
		iiowire_free(chans);
		if (!s->lim[HWMON_LIMIT_MIN].attr[0] && !s->lim[HWMON_LIMIT_MAX].attr[0])
			continue;
		ret = hwmon_limits_stream(h, i);
		if (ret < 0 && hwmon_is_link_err(ret))
			return ret;
	}
	return 0;
}

/* Take the events that came: each sets the alarm of its channel and direction. */
static void hwmon_limits_events(struct hwmon *h)
{
	struct iiowire_iio_event ev;
	struct hwmon_sensor *s;
	int i, k;

	for (i = 0; i < h->nsensors; i++) {
		if (!h->sensors[i].st || (i && h->sensors[i].st == h->sensors[i - 1].st))
			continue;
		while (iiowire_event_stream_read(h->sensors[i].st, &ev, 0) == 1) {
			for (s = h->sensors; s < h->sensors + h->nsensors; s++) {
				if (s->st != h->sensors[i].st ||
				    s->chan != iiowire_event_get_channel(&ev, false))
					continue;
				for (k = 0; k < HWMON_LIMITS; k++)
					if (iiowire_event_get_direction(&ev) == hwmon_limits[k].dir)
						s->lim[k].seen = true;
			}
		}
	}
}

/*
 * The thresholds whose events are enabled (a limit nobody armed is not
 * shown), in hwmon units, converted as the value is (scale, offset,
 * multiplier). The enable is the value file's "_en" twin.
 */
static void hwmon_limits_read(struct hwmon *h, struct hwmon_sensor *s)
{
	const char *prov = iiowire_channel_provider(s->ch);
	char en[HWMON_LIMIT_ATTR_MAX];
	long long raw, on;
	size_t n;
	int k;

	for (k = 0; k < HWMON_LIMITS; k++) {
		n = strlen(s->lim[k].attr);
		s->lim[k].have = false;
		if (n < strlen("value"))
			continue;
		snprintf(en, sizeof(en), "%.*sen", (int)(n - strlen("value")), s->lim[k].attr);
		s->lim[k].have = iiowire_attr_read_longlong(h->w, prov, en, &on) == 0 && on &&
				 iiowire_attr_read_longlong(h->w, prov, s->lim[k].attr, &raw) == 0 &&
				 iiowire_convert_raw_to_processed(s->ch, (int)raw, &s->lim[k].value,
								  s->type->mult) >= 0;
	}
}

/* Write one file of the sensor, or remove it when @have is false. */
static int hwmon_tree_int(const struct hwmon *h, const struct hwmon_sensor *s, const char *what,
			  bool have, int value)
{
	char file[HWMON_FILE_MAX_BYTES + 12], text[16];

	snprintf(file, sizeof(file), "%s_%s", s->base, what);
	if (!have) {
		unlinkat(h->dir_fd, file, 0);
		return 0;
	}
	snprintf(text, sizeof(text), "%d\n", value);
	return hwmon_write_file(h, file, text);
}

/*
 * Limits and alarms of one sensor. An alarm is set by an event and stays
 * until the value is back inside that limit.
 */
static int hwmon_tree_limits(struct hwmon *h, struct hwmon_sensor *s)
{
	bool out, any = false, have_any = false;
	int k, ret = 0;

	hwmon_limits_read(h, s);
	for (k = 0; k < HWMON_LIMITS && h->dir_fd >= 0 && !ret; k++) {
		out = s->have_value && s->lim[k].have &&
		      (k == HWMON_LIMIT_MIN ? s->value < s->lim[k].value :
					      s->value > s->lim[k].value);
		s->lim[k].alarm = s->lim[k].seen || (s->lim[k].alarm && out);
		s->lim[k].seen = false;
		any |= s->lim[k].alarm;
		have_any |= s->lim[k].have;
		ret = hwmon_tree_int(h, s, hwmon_limits[k].file, s->lim[k].have, s->lim[k].value);
		if (!ret)
			ret = hwmon_tree_int(h, s, hwmon_limits[k].alarm, s->lim[k].have,
					     s->lim[k].alarm);
	}
	if (!ret && h->dir_fd >= 0)
		ret = hwmon_tree_int(h, s, "alarm", have_any, any);
	return ret;
}

/* ---- one pass --------------------------------------------------------- */

/* Errors of a request that mean the daemon is out of reach, not that one channel failed. */
static bool hwmon_is_link_err(int err)
{
	return err == -ECONNREFUSED || err == -ECONNRESET || err == -ETIMEDOUT ||
	       err == -ENOTCONN || err == -EPIPE || err == -EHOSTUNREACH;
}

/* Print a sensors-like listing of the last values. */
static void hwmon_print(const struct hwmon *h)
{
	const struct hwmon_sensor *s;
	double v;
	int i;

	printf("%s-iiowire-0\nAdapter: iiowire %s, consumer %s\n", h->name,
	       h->w ? iiowire_address(h->w) : (h->address ? h->address : IIOWIRE_DEFAULT_ADDRESS),
	       h->consumer);
	for (i = 0; i < h->nsensors; i++) {
		s = &h->sensors[i];
		printf("%-14s", s->base);
		if (!s->have_value) {
			printf(" %12s", "N/A");
		} else {
			v = (double)s->value / s->type->divisor;
			if (s->type->type == IIO_TEMP)
				printf(" %+11.1f %s", v, s->type->unit);
			else if (s->type->type == IIO_HUMIDITYRELATIVE)
				printf(" %11.1f %s", v, s->type->unit);
			else
				printf(" %11.3f %s", v, s->type->unit);
		}
		if (s->label[0])
			printf("  (%s)", s->label);
		putchar('\n');
	}
	putchar('\n');
	fflush(stdout);
}

/*
 * Connect (if needed), probe (if needed), read every channel and publish.
 * Return: 0 when every value was read, or the first -errno.
 */
static int hwmon_pass(struct hwmon *h)
{
	struct hwmon_sensor *s;
	int i, ret, first = 0;

	h->link_down = false;
	if (!h->w) {
		h->w = iiowire_connect(h->address, h->timeout_ms);
		if (!h->w) {
			/* whatever connect says (ENOENT for a unix path too), the daemon is away */
			h->link_down = true;
			return -errno;
		}
		if (h->token_file) {
			ret = iiowire_auth_file(h->w, h->token_file);
			if (ret < 0)
				return ret;
		}
	}
	/* a reconnect may mean a new board: look the channels up again */
	if (!h->chs || h->probed_gen != iiowire_reconnect_count(h->w)) {
		ret = hwmon_probe(h);
		if (ret < 0) {
			h->link_down = hwmon_is_link_err(ret);
			hwmon_all_stale(h);
			/* the next pass probes again */
			hwmon_unprobe(h);
			return ret;
		}
	}
	for (i = 0; i < h->nsensors; i++) {
		s = &h->sensors[i];
		ret = iiowire_read_channel_processed_scale(s->ch, &s->value, s->type->mult);
		s->have_value = ret >= 0;
		if (ret < 0 && !first)
			first = ret;
		if (ret < 0 && hwmon_is_link_err(ret)) {
			h->link_down = true;
			hwmon_all_stale(h);
			return ret;
		}
		if (ret < 0 && !h->warned)
			hwmon_warn("%s: %s: %s", h->consumer, s->base, iiowire_errmsg(h->w));
		if (i == 0)
			hwmon_limits_events(h);
		ret = hwmon_tree_value(h, s);
		if (!ret)
			ret = hwmon_tree_limits(h, s);
		if (ret < 0) {
			hwmon_warn("%s: %s", h->dir, iiowire_strerror(ret));
			return ret;
		}
	}
	return first;
}

/* Say once per outage what went wrong, and once that it is over. */
static void hwmon_report(struct hwmon *h, int ret)
{
	const char *msg = hwmon_errmsg(h, ret);

	if (ret < 0 && !h->warned) {
		hwmon_warn("%s: %s: %s%s", h->consumer, tool_errname(ret), msg,
			   h->link_down ? "; values marked stale, reconnecting" : "");
		h->warned = true;
	} else if (ret == 0 && h->warned) {
		hwmon_warn("%s: all values back", h->consumer);
		h->warned = false;
	}
}

/* Run passes every interval until SIGINT/SIGTERM. Return: the exit status. */
static int hwmon_loop(struct hwmon *h)
{
	struct pollfd pfd = { .events = POLLIN };
	sigset_t old;
	bool ready = false;
	int ret;

	/* the signals wake the interval sleep; no handler, no global flag */
	pfd.fd = tool_signalfd_open(&old);
	if (pfd.fd < 0)
		return HWMON_EXIT_ERROR;
	for (;;) {
		ret = hwmon_pass(h);
		hwmon_report(h, ret);
		/* the ready line, as node_exporter's: once, when the tree first has values */
		if (ret == 0 && !ready && h->dir[0]) {
			hwmon_warn("%s: %d channels in %s, updated every %d ms", h->consumer,
				   h->nsensors, h->dir, h->interval_ms);
			ready = true;
		}
		if (h->print)
			hwmon_print(h);
		ret = poll(&pfd, 1, h->interval_ms);
		if (ret > 0)
			break;
	}
	tool_signalfd_close(pfd.fd, &old);
	hwmon_tree_remove(h);
	return HWMON_EXIT_OK;
}

/* ---- options ---------------------------------------------------------- */

static void hwmon_usage(FILE *out)
{
	fprintf(out,
		"usage: iiowire-hwmon [-a ADDRESS] --consumer NAME [--name HWMON_NAME]\n"
		"                     [--sysfs-root DIR] [--interval MS] [--once] [--print]\n"
		"                     [--timeout MS] [--token-file FILE]\n"
		"\n"
		"Present the channels of a remote IIO consumer as an hwmon device, as the\n"
		"kernel's iio_hwmon does: voltage -> in, temp -> temp, current -> curr,\n"
		"power -> power (uW), humidityrelative -> humidity, each numbered from 1,\n"
		"<prefix><n>_input in hwmon units and <prefix><n>_label from the map's\n"
		"channel name. Other types are skipped with a warning.\n"
		"\n"
		"  -a, --address ADDRESS  iiowired's address (default $%s, else %s)\n"
		"  -c, --consumer NAME    the consumer (map consumer_dev_name), required\n"
		"  -n, --name NAME        the hwmon name (default %s; '-' becomes '_')\n"
		"  -r, --sysfs-root DIR   write DIR/class/hwmon/hwmonN/ (DIR stands for /sys;\n"
		"                         it, or its parent, must exist; no symlinks below it,\n"
		"                         nothing there writable by others)\n"
		"  -i, --interval MS      update period (default %d)\n"
		"  -1, --once             one update, then exit (the tree stays)\n"
		"  -p, --print            print a sensors-like listing each update; without\n"
		"                         --sysfs-root this is all it does, once, as sensors\n"
		"                         (every second: watch iiowire-hwmon -c NAME)\n"
		"  -t, --timeout MS       per-request timeout (default %d)\n"
		"  -k, --token-file FILE  token for AUTH (default $%s)\n"
		"  -h, --help             this text\n"
		"  -V, --version          the version\n"
		"\n"
		"Values that cannot be read (daemon away, provider gone) lose their _input\n"
		"file until they can be read again. On SIGINT/SIGTERM the device directory\n"
		"is removed. Exit status: 0, 1 on an error (--once), 2 on a usage error.\n",
		IIOWIRE_ADDRESS_ENV, IIOWIRE_DEFAULT_ADDRESS, HWMON_DEFAULT_NAME,
		HWMON_DEFAULT_INTERVAL_MS, IIOWIRE_DEFAULT_TIMEOUT_MS, IIOWIRE_TOKEN_FILE_ENV);
}

#define hwmon_usage_error(...)	tool_usage_error("iiowire-hwmon", __VA_ARGS__)

/*
 * The hwmon core warns about names that are empty or hold '-', '*' or
 * blanks (libsensors splits chip names at '-'). The kernel's iio_hwmon turns
 * '-' into '_'; we do the same, and refuse the rest.
 * Return: 0 with @out set, or -EINVAL.
 */
static int hwmon_set_name(char *out, size_t len, const char *name)
{
	size_t i;

	if (!*name || strlen(name) >= len)
		return -EINVAL;
	for (i = 0; name[i]; i++) {
		if (name[i] == '*' || isspace((unsigned char)name[i]) ||
		    !isprint((unsigned char)name[i]))
			return -EINVAL;
		out[i] = name[i] == '-' ? '_' : name[i];
	}
	out[i] = '\0';
	if (strcmp(out, name) != 0)
		hwmon_warn("hwmon name '%s' used as '%s' ('-' is not allowed)", name, out);
	return 0;
}

/* Parsing went through: run. Any other parse result is the exit status. */
#define HWMON_PARSED	(-1)

/* The command line into @h. Return: HWMON_PARSED, or the status to exit with. */
static int hwmon_parse_args(struct hwmon *h, int argc, char **argv)
{
	static const struct option opts[] = {
		IIOWIRE_TOOL_COMMON_OPTIONS,
		{ "consumer", required_argument, NULL, 'c' },
		{ "name", required_argument, NULL, 'n' },
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "interval", required_argument, NULL, 'i' },
		{ "once", no_argument, NULL, '1' },
		{ "print", no_argument, NULL, 'p' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "a:c:n:r:i:1pt:k:hV", opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			h->address = optarg;
			break;
		case 'c':
			h->consumer = optarg;
			break;
		case 'n':
			if (hwmon_set_name(h->name, sizeof(h->name), optarg) < 0)
				return hwmon_usage_error("'%s' is not a valid hwmon name", optarg);
			break;
		case 'r':
			h->root = optarg;
			break;
		case 'i':
			if (tool_parse_ms(optarg, &h->interval_ms) < 0)
				return hwmon_usage_error("--interval needs a positive number "
							 "of ms");
			break;
		case '1':
			h->once = true;
			break;
		case 'p':
			h->print = true;
			break;
		case 't':
			if (tool_parse_ms(optarg, &h->timeout_ms) < 0)
				return hwmon_usage_error("--timeout needs a positive number of ms");
			break;
		case 'k':
			h->token_file = optarg;
			break;
		case 'h':
			hwmon_usage(stdout);
			return HWMON_EXIT_OK;
		case 'V':
			printf("iiowire-hwmon %s\n", iiowire_lib_version());
			return HWMON_EXIT_OK;
		default:
			return hwmon_usage_error("bad option");
		}
	}
	if (optind < argc)
		return hwmon_usage_error("unexpected argument '%s'", argv[optind]);
	if (!h->consumer)
		return hwmon_usage_error("--consumer is required");
	/* no tree to keep up to date: a listing, once, as sensors prints it */
	if (!h->root) {
		h->print = true;
		h->once = true;
	}
	return HWMON_PARSED;
}

/* --once: one pass, reported. Return: the exit status. */
static int hwmon_once(struct hwmon *h)
{
	int ret = hwmon_pass(h);

	if (ret < 0)
		hwmon_warn("%s: %s: %s", h->consumer, tool_errname(ret), hwmon_errmsg(h, ret));
	if (h->print && h->nsensors > 0)
		hwmon_print(h);
	return ret < 0 ? HWMON_EXIT_ERROR : HWMON_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct hwmon h = {
		.name = HWMON_DEFAULT_NAME,
		.interval_ms = HWMON_DEFAULT_INTERVAL_MS,
		.timeout_ms = IIOWIRE_DEFAULT_TIMEOUT_MS,
		.root_fd = -1,
		.class_fd = -1,
		.dir_fd = -1,
	};
	int ret;

	ret = hwmon_parse_args(&h, argc, argv);
	if (ret != HWMON_PARSED)
		return ret;
	/* a root that is not there is a mistake to report, not a path to create */
	if (h.root && hwmon_root_open(&h) < 0)
		return HWMON_EXIT_USAGE;
	ret = h.once ? hwmon_once(&h) : hwmon_loop(&h);
	hwmon_unprobe(&h);
	hwmon_tree_close(&h);
	iiowire_close(h.w);
	return ret;
}
