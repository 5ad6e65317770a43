/*
 * kshim.c - a test-only LD_PRELOAD library that plays the parts of the
 * kernel a fake sysfs tree cannot: tests/test_kernel.sh loads it into
 * iiowired (valgrind honours LD_PRELOAD too). Never installed.
 *
 * - IIO_GET_EVENT_FD_IOCTL on a stand-in /dev/iio:deviceN (anything but a
 *   character device: a FIFO in the tests; the real ioctl on it is ENOTTY)
 *   answers as industrialio-event.c's iio_event_getfd(): a descriptor for
 *   the FIFO "NODE.events" beside it, to which the test writes 16-byte
 *   struct iio_event_data records (opened O_RDWR, so that it never reads
 *   end-of-file while the test has no writer, as a kernel event fd never
 *   does); -ENODEV when there is none (no event interface); -EBUSY while
 *   an fd it gave, in this process or another, is open (one reader at a
 *   time).
 * - A second open() of a stand-in /dev/iio:deviceN (a file named
 *   iio:deviceN that is no character device) while this process holds one
 *   fails with EBUSY, as industrialio-core.c's iio_chrdev_open() answers
 *   (its busy bit); the close of the holder frees it. The node is told by
 *   its file (device and inode), so another path to it counts too.
 * - The device's removal, once the stand-in node is no longer the file at
 *   its path (the kernel's devtmpfs node goes at the unbind, while fds on
 *   it live on): read() of the node's fds and of the event fds it gave
 *   fails with ENODEV, and poll() reports nothing for them and is woken by
 *   nothing (iio_buffer_poll() and iio_event_poll() return 0 once the
 *   device's info is gone), as the real kernel did.
 * - IIOWIRE_KSHIM_IOCTL_GATE=PATH: while PATH exists, IIO_GET_EVENT_FD_IOCTL
 *   waits, as iio_event_getfd() waits for the device's mlock while a
 *   buffer enable (or another process's) holds it across its driver calls.
 * - IIOWIRE_KSHIM_READ_ERR="PATH=EIO;PATH=EAGAIN;...": read() of that file
 *   fails with that errno, as sysfs passes on a driver's show() error (EIO,
 *   EAGAIN, EBUSY, ETIMEDOUT, ENXIO, EINVAL). The file is told by device
 *   and inode at the read, so however it was opened counts (the daemon
 *   opens sysfs files with openat2(), or an openat() walk, relative to the
 *   root, never by this path).
 * - IIOWIRE_KSHIM_SCAN_RACE="DIR;ENTRY;PATH[;PATH...]": the first time a
 *   listing of DIR (opendir/readdir, as the scan reads it) yields ENTRY,
 *   the PATHs are removed (recursively; links not followed) before the
 *   caller sees the entry: a tree that changes during the scan.
 *
 * Seen on Debian's 6.1.0-57 kernel under QEMU (tools of the lab, ina2xx-adc
 * ina219 with a kfifo buffer, tsl2563 and ti-ads1015 with events/, no IRQs
 * so no event fired), the rules above hold: a second open of the node,
 * from this process or another, O_RDONLY or O_RDWR, is EBUSY; the event
 * fd (O_RDONLY, FD_CLOEXEC, blocking) outlives the node's close; while it
 * or a dup of it is open a second IIO_GET_EVENT_FD_IOCTL (same node fd or
 * a new open) is EBUSY, after its last close one works; the node opens
 * again while the event fd is held; the ioctl on a device without events/
 * is ENODEV. An empty event fd reads EAGAIN with O_NONBLOCK (EINVAL for a
 * buffer under 16 bytes). The node of a buffer never enabled reads 0 (no
 * bytes per datum yet), blocking or not; enabled or disabled with nothing
 * queued, EAGAIN with O_NONBLOCK and a blocking read waits. After the
 * driver's unbind: the node and sysfs directory are gone at once, read of
 * the node fd and of the event fd is ENODEV (a blocked read wakes with
 * it), poll() gives 0 and a poller is not woken (its 3 s timeout ran out),
 * the ioctl is ENODEV; the device's number stays taken until the last fd
 * closes (a rebind meanwhile got a new one).
 *
 * Its state is process-wide by nature (it plays the kernel), under one
 * mutex; nothing it calls while holding it comes back into it.
 */
#undef _FORTIFY_SOURCE	/* fortified fcntl.h would inline its own open() */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/iio/events.h>

#define KSHIM_FDS		4096	/* descriptors tracked; higher ones pass through */
#define KSHIM_RULES		32
#define KSHIM_EVENTS_SUFFIX	".events"

struct kshim_rule {
	char path[PATH_MAX];
	int err;
};

static pthread_mutex_t kshim_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stat kshim_node_of[KSHIM_FDS];	/* fd -> the stand-in node it holds */
static bool kshim_node_held[KSHIM_FDS];
static char *kshim_dev_path[KSHIM_FDS];		/* fd -> the stand-in node whose removal it sees */
static struct stat kshim_dev_st[KSHIM_FDS];
static struct kshim_rule kshim_rules[KSHIM_RULES];
static int kshim_nrules = -1;			/* -1: IIOWIRE_KSHIM_READ_ERR not read yet */
static DIR *kshim_race_dir;			/* the listing being watched */
static bool kshim_race_done;

static const struct { const char *name; int err; } kshim_errnos[] = {
	{ "EIO", EIO }, { "EAGAIN", EAGAIN }, { "EBUSY", EBUSY }, { "ETIMEDOUT", ETIMEDOUT },
	{ "ENXIO", ENXIO }, { "EINVAL", EINVAL },
};

/* The next definition of @name (libc's, or a sanitizer's interceptor), looked up once. */
#define KSHIM_NEXT(name) __extension__({					\
	static __typeof__(&name) kshim_fn;					\
	if (!kshim_fn)								\
		kshim_fn = (__typeof__(&name))dlsym(RTLD_NEXT, #name);		\
	kshim_fn;								\
})

/* IIOWIRE_KSHIM_READ_ERR into kshim_rules, once (under the lock). */
static void kshim_rules_load(void)
{
	const char *env = getenv("IIOWIRE_KSHIM_READ_ERR");
	char *copy, *item, *save = NULL, *eq;
	size_t i;

	kshim_nrules = 0;
	if (!env || !(copy = strdup(env)))
		return;
	for (item = strtok_r(copy, ";", &save); item && kshim_nrules < KSHIM_RULES;
	     item = strtok_r(NULL, ";", &save)) {
		eq = strrchr(item, '=');
		if (!eq)
			continue;
		*eq = '\0';
		for (i = 0; i < sizeof(kshim_errnos) / sizeof(kshim_errnos[0]); i++) {
			if (strcmp(kshim_errnos[i].name, eq + 1) != 0)
				continue;
			snprintf(kshim_rules[kshim_nrules].path, PATH_MAX, "%s", item);
			kshim_rules[kshim_nrules++].err = kshim_errnos[i].err;
		}
	}
	free(copy);
}

/* The errno reads of @fd fail with: a rule's file is @fd's (0: none). Under the lock. */
static int kshim_read_err(int fd)
{
	struct stat st, rst;
	int i;

	if (kshim_nrules < 0)
		kshim_rules_load();
	if (kshim_nrules == 0 || fstat(fd, &st) < 0)
		return 0;
	for (i = 0; i < kshim_nrules; i++)
		if (stat(kshim_rules[i].path, &rst) == 0 && rst.st_dev == st.st_dev &&
		    rst.st_ino == st.st_ino)
			return kshim_rules[i].err;
	return 0;
}

/* Is @path a stand-in /dev/iio:deviceN (named so, no character device)? @st gets its file. */
static bool kshim_is_node(const char *path, struct stat *st)
{
	const char *base = strrchr(path, '/');
	int id, end = 0;

	base = base ? base + 1 : path;
	if (sscanf(base, "iio:device%d%n", &id, &end) != 1 || base[end] != '\0')
		return false;
	return stat(path, st) == 0 && !S_ISCHR(st->st_mode) && !S_ISDIR(st->st_mode);
}

/* The descriptor holding the node @st, or -1 (lock held). */
static int kshim_node_holder(const struct stat *st)
{
	int i;

	for (i = 0; i < KSHIM_FDS; i++)
		if (kshim_node_held[i] && kshim_node_of[i].st_dev == st->st_dev &&
		    kshim_node_of[i].st_ino == st->st_ino)
			return i;
	return -1;
}

/* @fd (a node's or an event fd) belongs to the device of the stand-in node @path, @st (lock held). */
static void kshim_watch(int fd, const char *path, const struct stat *st)
{
	free(kshim_dev_path[fd]);
	kshim_dev_path[fd] = strdup(path);
	kshim_dev_st[fd] = *st;
}

/* Has the device of @fd been removed: its stand-in node no longer the file at its path? */
static bool kshim_gone(int fd)
{
	struct stat st;
	bool gone = false;

	if (fd < 0 || fd >= KSHIM_FDS)
		return false;
	pthread_mutex_lock(&kshim_lock);
	if (kshim_dev_path[fd])
		gone = stat(kshim_dev_path[fd], &st) < 0 || st.st_dev != kshim_dev_st[fd].st_dev ||
		       st.st_ino != kshim_dev_st[fd].st_ino;
	pthread_mutex_unlock(&kshim_lock);
	return gone;
}

/*
 * iio_chrdev_open()'s busy bit for the stand-in node @path, just opened
 * as @fd: the first holder keeps it. Return: false (and @fd closed) when
 * another descriptor holds it already.
 */
static bool kshim_node_claim(const char *path, int fd)
{
	struct stat st;
	bool busy = false;

	if (fd < 0 || fd >= KSHIM_FDS || !kshim_is_node(path, &st))
		return true;
	pthread_mutex_lock(&kshim_lock);
	busy = kshim_node_holder(&st) >= 0;
	if (!busy) {
		kshim_node_of[fd] = st;
		kshim_node_held[fd] = true;
		kshim_watch(fd, path, &st);
	}
	pthread_mutex_unlock(&kshim_lock);
	if (busy)
		KSHIM_NEXT(close)(fd);
	return !busy;
}

int open(const char *path, int flags, ...)
{
	struct stat st;
	mode_t mode = 0;
	va_list ap;
	bool busy;
	int fd;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	/* refused before opening: a FIFO's open would wake a writer waiting for its reader */
	if (kshim_is_node(path, &st)) {
		pthread_mutex_lock(&kshim_lock);
		busy = kshim_node_holder(&st) >= 0;
		pthread_mutex_unlock(&kshim_lock);
		if (busy) {
			errno = EBUSY;
			return -1;
		}
	}
	fd = KSHIM_NEXT(open)(path, flags, mode);
	if (!kshim_node_claim(path, fd)) {
		errno = EBUSY;	/* another thread's open came first */
		return -1;
	}
	return fd;
}

ssize_t read(int fd, void *buf, size_t len)
{
	int err = 0;

	if (fd >= 0) {
		pthread_mutex_lock(&kshim_lock);
		err = kshim_read_err(fd);
		pthread_mutex_unlock(&kshim_lock);
	}
	if (kshim_gone(fd))
		err = ENODEV;	/* iio_buffer_read(), iio_event_chrdev_read() once the device is gone */
	if (err) {
		errno = err;
		return -1;
	}
	return KSHIM_NEXT(read)(fd, buf, len);
}

int close(int fd)
{
	if (fd >= 0 && fd < KSHIM_FDS) {
		pthread_mutex_lock(&kshim_lock);
		kshim_node_held[fd] = false;
		free(kshim_dev_path[fd]);
		kshim_dev_path[fd] = NULL;
		pthread_mutex_unlock(&kshim_lock);
	}
	return KSHIM_NEXT(close)(fd);
}

/*
 * iio_event_getfd() for the stand-in node open as @fd. One reader at a
 * time across processes, as the kernel's busy bit: an exclusive flock on
 * the FIFO, which goes with the last descriptor of it.
 * Return: 0 or -errno.
 */
static int kshim_getfd(int fd, int *out)
{
	char link[64], node[PATH_MAX], src[PATH_MAX + sizeof(KSHIM_EVENTS_SUFFIX)];
	struct stat st;
	ssize_t n;
	int evfd;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, node, sizeof(node) - 1);
	if (n < 0)
		return -errno;
	node[n] = '\0';
	snprintf(src, sizeof(src), "%s" KSHIM_EVENTS_SUFFIX, node);
	/* O_RDWR: a FIFO with a writer of our own never reads end-of-file */
	evfd = KSHIM_NEXT(open)(src, O_RDWR | O_CLOEXEC, 0);
	if (evfd < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	if (flock(evfd, LOCK_EX | LOCK_NB) < 0) {
		KSHIM_NEXT(close)(evfd);
		return -EBUSY;
	}
	if (evfd < KSHIM_FDS && fstat(fd, &st) == 0) {
		pthread_mutex_lock(&kshim_lock);
		kshim_watch(evfd, node, &st);
		pthread_mutex_unlock(&kshim_lock);
	}
	*out = evfd;
	return 0;
}

int ioctl(int fd, unsigned long req, ...)
{
	const char *gate;
	struct stat st;
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req != IIO_GET_EVENT_FD_IOCTL || fstat(fd, &st) < 0 || S_ISCHR(st.st_mode))
		return KSHIM_NEXT(ioctl)(fd, req, arg);
	gate = getenv("IIOWIRE_KSHIM_IOCTL_GATE");
	while (gate && access(gate, F_OK) == 0)
		usleep(10000);
	ret = kshim_gone(fd) ? -ENODEV : kshim_getfd(fd, arg);	/* iio_ioctl(): no info */
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return 0;
}

/*
 * One poll() with the fds of removed devices left out (made negative, which
 * poll() skips) and, if they were removed while it waited, what woke them
 * (a stand-in writer's close) hushed; *@hushed says whether that happened.
 */
static int kshim_poll_once(struct pollfd *fds, nfds_t n, int timeout, bool *hushed)
{
	bool *hid = NULL;
	nfds_t i;
	int ret;

	*hushed = false;
	for (i = 0; i < n; i++) {
		if (fds[i].fd < 0 || !kshim_gone(fds[i].fd))
			continue;
		if (!hid && !(hid = calloc(n, sizeof(*hid)))) {
			errno = ENOMEM;
			ret = -1;
			goto out;
		}
		hid[i] = true;
		fds[i].fd = ~fds[i].fd;
	}
	ret = KSHIM_NEXT(poll)(fds, n, timeout);
out:
	for (i = 0; hid && i < n; i++)
		if (hid[i])
			fds[i].fd = ~fds[i].fd;
	free(hid);
	for (i = 0; ret > 0 && i < n; i++)
		if (fds[i].revents && kshim_gone(fds[i].fd)) {
			fds[i].revents = 0;
			ret--;
			*hushed = true;
		}
	return ret;
}

/* The kernel's poll of a removed device's fd: nothing reported, nothing wakes it. */
int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	struct timespec t0, t;
	long left = timeout;
	bool hushed;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ret = kshim_poll_once(fds, n, (int)left, &hushed);
		if (ret != 0 || !hushed || timeout == 0)
			return ret;
		if (timeout > 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			left = timeout - ((t.tv_sec - t0.tv_sec) * 1000L +
					  (t.tv_nsec - t0.tv_nsec) / 1000000L);
			if (left <= 0)
				return 0;
		}
	}
}

/* ---- a tree that changes while it is listed ---- */

static int kshim_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* IIOWIRE_KSHIM_SCAN_RACE's field @i (0 DIR, 1 ENTRY, 2.. PATHs) into @buf; false past the end. */
static bool kshim_race_field(int i, char *buf, size_t len)
{
	const char *s = getenv("IIOWIRE_KSHIM_SCAN_RACE"), *end;

	for (; s && i > 0; i--) {
		s = strchr(s, ';');
		s = s ? s + 1 : NULL;
	}
	if (!s)
		return false;
	end = strchr(s, ';');
	snprintf(buf, len, "%.*s", (int)(end ? (size_t)(end - s) : strlen(s)), s);
	return buf[0] != '\0';
}

DIR *opendir(const char *path)
{
	DIR *d = KSHIM_NEXT(opendir)(path);
	char dir[PATH_MAX];

	if (d && kshim_race_field(0, dir, sizeof(dir)) && strcmp(dir, path) == 0) {
		pthread_mutex_lock(&kshim_lock);
		if (!kshim_race_done)
			kshim_race_dir = d;
		pthread_mutex_unlock(&kshim_lock);
	}
	return d;
}

struct dirent *readdir(DIR *d)
{
	struct dirent *de = KSHIM_NEXT(readdir)(d);
	char entry[NAME_MAX + 1], path[PATH_MAX];
	bool fire = false;
	int i;

	if (!de)
		return de;
	pthread_mutex_lock(&kshim_lock);
	if (d == kshim_race_dir && kshim_race_field(1, entry, sizeof(entry)) &&
	    strcmp(entry, de->d_name) == 0) {
		fire = true;
		kshim_race_done = true;
		kshim_race_dir = NULL;
	}
	pthread_mutex_unlock(&kshim_lock);
	for (i = 2; fire && kshim_race_field(i, path, sizeof(path)); i++)
		nftw(path, kshim_rm_one, 8, FTW_DEPTH | FTW_PHYS);
	return de;
}

int closedir(DIR *d)
{
	pthread_mutex_lock(&kshim_lock);
	if (d == kshim_race_dir)
		kshim_race_dir = NULL;
	pthread_mutex_unlock(&kshim_lock);
	return KSHIM_NEXT(closedir)(d);
}
