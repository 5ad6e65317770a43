/*
 * kernel_node.c - one open of a kernel device's /dev/iio:deviceN, shared by
 * whoever in this process needs it (iio_kernel.h).
 *
 * The kernel lets the node be open once at a time (iio_chrdev_open(): a
 * second open is -EBUSY), yet two parts of the backend need it: a capture
 * reads scans from it (kernel_buffer.c) and a subscription asks it for the
 * event fd (IIO_GET_EVENT_FD_IOCTL, kernel_event.c). Both take a reference
 * here instead of opening it: the first opens it, the last closes it, so a
 * capture and events work together as they do under iiod/libiio, whichever
 * comes first.
 *
 * Entries are process-wide and keyed by the node's path, not by a mirror:
 * a rescan makes a new mirror of the same kernel device while the old one
 * may still hold the node. An entry whose file is no longer the one at the
 * path (the device left; a new one may have its number once the last fd
 * of the old one is closed) is retired: its holders keep it, new users
 * open the new node.
 *
 * Seen on Debian 6.1 under QEMU (ina2xx-adc ina219 with a kfifo buffer,
 * tsl2563, ad799x ad7998, max1363 max1036, ti-ads1015): a second open of
 * the node, from this process or another, O_RDONLY or O_RDWR, is EBUSY;
 * the node opens again while an event fd got through it is held. At the
 * driver's unbind the node leaves /dev at once (stat ENOENT) while fds on
 * it live on: read is ENODEV, the event fd ioctl ENODEV, poll() reports
 * nothing and wakes no one (IIO_KERNEL_GONE_POLL_MS); the device number
 * stays taken until the last fd closes (a rebind meanwhile got a new one).
 *
 * The lock covers only the list, open() and fstat(): an open of the node
 * never waits (O_NONBLOCK: a stand-in FIFO has no writer to wait for, and
 * iio_chrdev_open() sleeps on nothing), so the loop may take it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kernel/iio_kernel.h"

struct iio_kernel_node {
	struct iio_kernel_node *next;	/* in kernel_nodes while not retired */
	char path[IIO_KERNEL_ROOT_MAX + IIO_KERNEL_NAME_MAX];
	struct stat st;			/* what was opened: compared with the path's file */
	int fd;
	int refs;
	bool listed;
};

static pthread_mutex_t kernel_nodes_lock = PTHREAD_MUTEX_INITIALIZER;
static struct iio_kernel_node *kernel_nodes;

static bool kernel_node_same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_rdev == b->st_rdev;
}

static void kernel_node_unlist(struct iio_kernel_node *node)
{
	struct iio_kernel_node **p;

	for (p = &kernel_nodes; *p; p = &(*p)->next)
		if (*p == node) {
			*p = node->next;
			break;
		}
	node->listed = false;
}

/* The listed entry of @path that is still the file there (lock held); a stale one is retired. */
static struct iio_kernel_node *kernel_node_find(const char *path)
{
	struct iio_kernel_node *node;
	struct stat st;

	for (node = kernel_nodes; node; node = node->next)
		if (strcmp(node->path, path) == 0)
			break;
	if (!node)
		return NULL;
	if (stat(path, &st) == 0 && kernel_node_same_file(&st, &node->st))
		return node;
	kernel_node_unlist(node);
	return NULL;
}

/* Open @path as a new listed entry (lock held). Return: 0 or -errno. */
static int kernel_node_open(const char *path, struct iio_kernel_node **out)
{
	struct iio_kernel_node *node = calloc(1, sizeof(*node));
	int ret;

	if (!node)
		return -ENOMEM;
	snprintf(node->path, sizeof(node->path), "%s", path);
	node->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (node->fd < 0 || fstat(node->fd, &node->st) < 0) {
		ret = -errno;
		if (node->fd >= 0)
			close(node->fd);
		free(node);
		return ret;
	}
	node->refs = 1;
	node->listed = true;
	node->next = kernel_nodes;
	kernel_nodes = node;
	*out = node;
	return 0;
}

int iio_kernel_node_get(const char *path, struct iio_kernel_node **out)
{
	struct iio_kernel_node *node;
	int ret = 0;

	if (strlen(path) >= sizeof(node->path))
		return -ENAMETOOLONG;
	pthread_mutex_lock(&kernel_nodes_lock);
	node = kernel_node_find(path);
	if (node)
		node->refs++;
	else
		ret = kernel_node_open(path, &node);
	pthread_mutex_unlock(&kernel_nodes_lock);
	if (!ret)
		*out = node;
	return ret;
}

int iio_kernel_node_fd(const struct iio_kernel_node *node)
{
	return node->fd;
}

void iio_kernel_node_put(struct iio_kernel_node *node)
{
	bool last;

	if (!node)
		return;
	pthread_mutex_lock(&kernel_nodes_lock);
	last = --node->refs == 0;
	if (last && node->listed)
		kernel_node_unlist(node);
	pthread_mutex_unlock(&kernel_nodes_lock);
	if (!last)
		return;
	close(node->fd);
	free(node);
}
