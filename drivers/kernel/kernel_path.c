/*
 * kernel_path.c - every sysfs file and directory the kernel backend opens
 * is opened here, below the sysfs root and through no symbolic link.
 *
 * A bus/iio/devices entry is a link into ROOT/devices (on a real system) or
 * a plain directory (a fake tree): it is resolved once, when a device or
 * trigger is mirrored, and kept only if it lies in one of those two places;
 * a link anywhere else is refused (-EXDEV, and a warning through the hook
 * the server sets), so a planted link cannot have its target mirrored.
 * After that every open is relative to the root with openat2()'s
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS (an O_NOFOLLOW walk of each
 * component where the kernel has no openat2()): a file swapped for a link
 * after the scan is refused, never followed (-EPERM; maps/README.md K-54,
 * where libiio follows them). Place in the flow:
 * sysfs -> *here* -> kernel_dev.c, kernel_trig.c, kernel_event.c -> core.
 * It does no I/O on the files it opens and never logs itself.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "kernel/iio_kernel.h"

/* Where bus/iio/devices entries may lead, below the sysfs root (as on Linux). */
#define KERNEL_PATH_DEVICES_DIR	"devices"

/*
 * Set once openat2() said ENOSYS: a fact of the running kernel (or of
 * valgrind 3.19, which warns at every call it does not know), so the walk
 * is taken from then on without asking again.
 */
static atomic_bool kernel_path_no_openat2;

static void (*kernel_path_warn_fn)(void *data, const char *msg);
static void *kernel_path_warn_data;

void iio_kernel_set_warn(void (*warn)(void *data, const char *msg), void *data)
{
	kernel_path_warn_fn = warn;
	kernel_path_warn_data = data;
}

void iio_kernel_warn(const char *msg)
{
	if (kernel_path_warn_fn)
		kernel_path_warn_fn(kernel_path_warn_data, msg);
}

/*
 * The O_NOFOLLOW walk for kernels before 5.6: each directory component
 * opened O_PATH | O_DIRECTORY | O_NOFOLLOW from the last (a link is not a
 * directory then), the file itself O_NOFOLLOW; "." and ".." are refused.
 * Return: the descriptor, or -errno.
 */
static int kernel_path_walk(int rootfd, const char *rel, int flags)
{
	char comp[NAME_MAX + 1];
	const char *p = rel, *slash;
	int dir = rootfd, fd;
	size_t n;

	for (;;) {
		slash = strchr(p, '/');
		n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 0 || n > NAME_MAX || (p[0] == '.' && (n == 1 || (n == 2 && p[1] == '.')))) {
			fd = -EPERM;
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		fd = openat(dir, comp, slash ? O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC :
			    flags | O_NOFOLLOW | O_CLOEXEC);
		/* a directory on the way that is no longer one (a link now): refused as openat2() does */
		if (fd < 0)
			fd = slash && (errno == ENOTDIR || errno == ELOOP) ? -EPERM : -errno;
		if (dir != rootfd)
			close(dir);
		if (fd < 0 || !slash)
			break;
		dir = fd;
		p = slash + 1;
	}
	return fd;
}

/* @rel opened below @rootfd, no link in any component. Return: the descriptor, or -errno. */
static int kernel_path_beneath(int rootfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (atomic_load(&kernel_path_no_openat2))
		return kernel_path_walk(rootfd, rel, flags);
	fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	if (errno == ENOSYS)
		atomic_store(&kernel_path_no_openat2, true);	/* before 5.6 */
	/* some seccomp filters answer EPERM for a syscall they do not know: the walk decides */
	if (errno == ENOSYS || errno == EPERM)
		return kernel_path_walk(rootfd, rel, flags);
	return -errno;
}

int iio_kernel_open(const char *path, int flags)
{
	const char *root = iio_kernel_sysfs_root(), *rel;
	size_t n = strlen(root);
	struct statvfs vfs;
	int rootfd, fd;

	while (n > 1 && root[n - 1] == '/')
		n--;
	/* every path is built as ROOT/REL; anything else is no file of ours */
	if (strncmp(path, root, n) != 0 || path[n] != '/')
		return -EPERM;
	for (rel = path + n; *rel == '/'; rel++)
		;
	if (!*rel)
		return -EPERM;
	/* the root itself is the operator's: it may be given through a link */
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	fd = kernel_path_beneath(rootfd, rel, flags);
	/* a read-only mount (a container's /sys) says EROFS before a mode's EACCES, as O_TRUNC did */
	if (fd == -EACCES && (flags & O_ACCMODE) != O_RDONLY && fstatvfs(rootfd, &vfs) == 0 &&
	    (vfs.f_flag & ST_RDONLY))
		fd = -EROFS;
	close(rootfd);
	/* a link met on the way is the tree changed under us: refused, never followed */
	return fd == -ELOOP || fd == -EXDEV ? -EPERM : fd;
}

int iio_kernel_opendir(const char *path, DIR **out)
{
	int fd = iio_kernel_open(path, O_RDONLY | O_DIRECTORY);

	*out = NULL;
	if (fd < 0)
		return fd;
	*out = fdopendir(fd);
	if (!*out) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return 0;
}

/* Is @real (resolved) a place a bus entry named @entry may lead to, below the resolved @root? */
static const char *kernel_path_inside(const char *real, const char *root, const char *entry)
{
	size_t n = strcmp(root, "/") == 0 ? 0 : strlen(root);
	const char *rel = real + n + 1;
	size_t dn = strlen(KERNEL_PATH_DEVICES_DIR), bn = strlen(IIO_KERNEL_BUS_DIR);

	if (strncmp(real, root, n) != 0 || real[n] != '/')
		return NULL;
	if (strncmp(rel, KERNEL_PATH_DEVICES_DIR "/", dn + 1) == 0 && rel[dn + 1])
		return rel;
	/* a plain directory in the bus directory (a fake tree; no link was followed) */
	if (strncmp(rel, IIO_KERNEL_BUS_DIR "/", bn + 1) == 0 && strcmp(rel + bn + 1, entry) == 0)
		return rel;
	return NULL;
}

int iio_kernel_resolve(const char *entry, char *out, size_t len, char *err, size_t errlen)
{
	const char *root = iio_kernel_sysfs_root(), *rel;
	char link[IIO_KERNEL_ROOT_MAX + sizeof(IIO_KERNEL_BUS_DIR) + NAME_MAX + 2];
	char real[PATH_MAX], rroot[PATH_MAX];

	if (strchr(entry, '/') || strlen(entry) > NAME_MAX)
		return -ENODEV;
	snprintf(link, sizeof(link), "%s/%s/%s", root, IIO_KERNEL_BUS_DIR, entry);
	if (!realpath(root, rroot))
		return -errno;
	if (!realpath(link, real))
		return errno == ENOENT ? -ENODEV : -errno;
	rel = kernel_path_inside(real, rroot, entry);
	if (!rel) {
		if (err && errlen)
			snprintf(err, errlen, "%s leads to %s, outside %s/%s: not mirrored", link,
				 real, root, KERNEL_PATH_DEVICES_DIR);
		return -EXDEV;
	}
	if ((size_t)snprintf(out, len, "%s/%s", root, rel) >= len)
		return -ENAMETOOLONG;
	return 0;
}
