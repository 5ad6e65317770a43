/*
 * kernel_event.c - a mirrored kernel device's IIO events (kernel_event.h).
 *
 * The event specs come back from the events/ file names, as libiio's
 * local backend reads them: in_voltage0_thresh_rising_en is event (thresh,
 * rising) of channel voltage0; a bare in_accel_thresh_rising_value is
 * shared by the accel channels; in_thresh_rising_value and
 * thresh_rising_value by a direction's or by all channels; any other name
 * (events/sampling_frequency) is the device's. They let SUBSCRIBE filter by
 * channel and type; the files themselves stay plain attributes.
 *
 * Delivery is the kernel's event fd: when the core's queue gets a reader,
 * IIO_GET_EVENT_FD_IOCTL on the backend's one open of /dev/iio:deviceN
 * (kernel_node.c: the kernel allows one open of it, which a capture may
 * hold; the reference is dropped once the fd is had), and
 * struct iio_event_data records read on a thread of the device's own into
 * iio_push_event(), never on the loop. A read error (ENODEV when the
 * kernel removes the device) ends the queue with it (iio_event_end()).
 *
 * Seen on Debian 6.1 under QEMU (tsl2563 and ti-ads1015, which have
 * events/ without an IRQ; none fired, the lab has no IRQs): the event fd
 * is O_RDONLY, FD_CLOEXEC and blocking, outlives the node's close, and
 * while it (or a dup) is open a second ioctl is EBUSY, from the same node
 * fd or a new open; the node itself opens again meanwhile. Empty, it
 * reads EAGAIN with O_NONBLOCK (EINVAL for under 16 bytes). After the
 * driver's unbind its read is ENODEV (a blocked read wakes with it) but
 * poll() reports nothing and wakes no one, hence the reader's timeout
 * (IIO_KERNEL_GONE_POLL_MS). A device without events/ answers the ioctl
 * ENODEV.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/iio/events.h>

#include "iio_event.h"
#include "iio_kit.h"
#include "kernel/iio_kernel.h"
#include "kernel/kernel_event.h"

/* Records taken per read(): the kernel returns as many whole ones as fit. */
#define KERNEL_EVENT_READ_RECORDS	64

static const char *const kernel_event_dirs[] = { "in_", "out_" };

/* The spec (@k, @type, @dir), found or added. Return: its index, or -E2BIG. */
static int kernel_event_spec(struct kernel_evscan *es, int k, enum iio_event_type type,
			     enum iio_event_direction dir)
{
	struct iio_event_spec *sp;
	int i;

	for (i = 0; i < es->nspecs; i++)
		if (es->chan_of[i] == k && es->specs[i].type == type && es->specs[i].dir == dir)
			return i;
	if (es->nspecs == IIO_KERNEL_EVENTS_MAX)
		return -E2BIG;
	sp = &es->specs[es->nspecs];
	memset(sp, 0, sizeof(*sp));
	sp->type = type;
	sp->dir = dir;
	es->chan_of[es->nspecs] = k;
	return es->nspecs++;
}

/* Give channel @k the event @ev, its info bit in the mask of @shared. */
static int kernel_event_add(struct kernel_evscan *es, int k, const struct iio_kernel_event_name *ev,
			    enum iio_shared_by shared)
{
	unsigned long *mask;
	int i = kernel_event_spec(es, k, ev->type, ev->dir);

	if (i < 0 || ev->info < 0)
		return i < 0 ? i : 0;
	mask = shared == IIO_SHARED_BY_TYPE ? &es->specs[i].mask_shared_by_type :
	       shared == IIO_SHARED_BY_DIR ? &es->specs[i].mask_shared_by_dir :
	       shared == IIO_SHARED_BY_ALL ? &es->specs[i].mask_shared_by_all :
	       &es->specs[i].mask_separate;
	*mask |= BIT(ev->info);
	return 0;
}

/*
 * Which channels one events/ name is for: the channel it names, else (a
 * bare name) every channel of its type; a name without a channel part is
 * shared by a direction ("in_thresh_...") or by all ("thresh_..."). A name
 * of a channel the device has no other file for is left out (libiio 0.24
 * and iiod, which ignore events/, show no such channel either).
 */
static int kernel_event_name(struct kernel_evscan *es, const char *name,
			     const struct iio_chan_spec *chans, int nchans)
{
	struct iio_kernel_event_name ev;
	struct iio_kernel_name kn;
	int k, dir = -1, ret = 0;
	size_t i;

	if (iio_kernel_name_parse(name, &kn) && iio_kernel_event_postfix_parse(kn.postfix, &ev)) {
		for (k = 0; k < nchans; k++)
			if (iio_kernel_chan_same(&chans[k], &kn.chan))
				return kernel_event_add(es, k, &ev, IIO_SEPARATE);
		for (k = 0; k < nchans && kn.bare && !ret; k++)
			if (chans[k].output == kn.chan.output && chans[k].type == kn.chan.type)
				ret = kernel_event_add(es, k, &ev, IIO_SHARED_BY_TYPE);
		return ret;
	}
	for (i = 0; i < ARRAY_SIZE(kernel_event_dirs); i++)
		if (strncmp(name, kernel_event_dirs[i], strlen(kernel_event_dirs[i])) == 0)
			dir = (int)i;
	if (!iio_kernel_event_postfix_parse(name + (dir < 0 ? 0 : strlen(kernel_event_dirs[dir])),
					    &ev))
		return 0;	/* the device's own, as events/sampling_frequency */
	for (k = 0; k < nchans && !ret; k++)
		if (chans[k].type != IIO_TIMESTAMP && (dir < 0 || chans[k].output == dir))
			ret = kernel_event_add(es, k, &ev, dir < 0 ? IIO_SHARED_BY_ALL :
					       IIO_SHARED_BY_DIR);
	return ret;
}

int kernel_event_scan(const char *devpath, const struct iio_chan_spec *chans, int nchans,
		      struct kernel_evscan *es, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	es->nspecs = 0;
	snprintf(path, sizeof(path), "%s/%s", devpath, KERNEL_EVENT_DIR);
	(void)iio_kernel_opendir(path, &d);
	es->present = d != NULL;
	if (!d)
		return 0;	/* no event interface (or gone: the next rescan sees it) */
	while ((de = readdir(d)) && !ret)
		if (de->d_name[0] != '.')
			ret = kernel_event_name(es, de->d_name, chans, nchans);
	closedir(d);
	if (ret && err && errlen)
		snprintf(err, errlen, "%s: more than %d events", path, IIO_KERNEL_EVENTS_MAX);
	return ret;
}

size_t kernel_event_specs_size(const struct kernel_evscan *es)
{
	return (size_t)es->nspecs * sizeof(struct iio_event_spec);
}

void kernel_event_place(const struct kernel_evscan *es, struct iio_event_spec *dst,
			struct iio_chan_spec *chans, int nchans)
{
	int k, i, n = 0;

	for (k = 0; k < nchans; k++) {
		chans[k].event_spec = dst + n;
		chans[k].num_event_specs = 0;
		for (i = 0; i < es->nspecs; i++) {
			if (es->chan_of[i] != k)
				continue;
			dst[n++] = es->specs[i];
			chans[k].num_event_specs++;
		}
		if (!chans[k].num_event_specs)
			chans[k].event_spec = NULL;
	}
}

/* Push the whole records of @buf; Return: the bytes of a partial one left at its start. */
static size_t kernel_event_push(struct iio_dev *dev, unsigned char *buf, size_t have)
{
	struct iio_event_data rec;
	size_t off;

	for (off = 0; have - off >= sizeof(rec); off += sizeof(rec)) {
		memcpy(&rec, buf + off, sizeof(rec));
		iio_push_event(dev, rec.id, rec.timestamp);
	}
	memmove(buf, buf + off, have - off);
	return have - off;
}

/*
 * The reader: waits on the event fd and the stop pipe, never holds a core
 * lock but iio_push_event()'s own. A kernel hands out whole records; a
 * stand-in (a FIFO in tests) may not, so a partial one waits for its rest.
 */
static void *kernel_event_thread(void *arg)
{
	unsigned char buf[KERNEL_EVENT_READ_RECORDS * sizeof(struct iio_event_data)];
	struct kernel_evfd *ef = arg;
	struct pollfd pf[2];
	size_t have = 0;
	ssize_t n;
	int err = 0;

	for (;;) {
		pf[0] = (struct pollfd){ .fd = ef->fd, .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = ef->wake[0], .events = POLLIN };
		/* a timeout reads too: a removed device's poll stays silent, its read is ENODEV */
		if (poll(pf, 2, IIO_KERNEL_GONE_POLL_MS) < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (pf[1].revents)
			break;	/* kernel_event_close() */
		n = read(ef->fd, buf + have, sizeof(buf) - have);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0) {
			/* the kernel says ENODEV once the device is gone; an end of file is that too */
			err = n < 0 ? -errno : -ENODEV;
			break;
		}
		have = kernel_event_push(ef->dev, buf, have + (size_t)n);
	}
	if (err)
		iio_event_end(ef->dev, err);
	return NULL;
}

/*
 * The event fd through @node, as iio_event_monitor gets it, but on the
 * backend's shared open of it (kernel_node.c): a capture may hold the node,
 * and a second open would be EBUSY. The reference is dropped once the fd is
 * had: the kernel's event fd lives on its own (iio_event_monitor closes the
 * node at once), and holding the node would refuse it to every other
 * process for as long as someone subscribes. The server calls this on the
 * device's worker, not its loop: the open never waits (kernel_node.c), but
 * the kernel's ioctl takes the device's mlock (iio_event_getfd()), which the
 * kernel holds while a buffer/enable write of the device runs its driver's
 * (bus-bound) enable.
 * Return: the fd, or -errno.
 */
static int kernel_event_getfd(const char *node)
{
	struct iio_kernel_node *kn;
	int evfd = -1, ret;

	ret = iio_kernel_node_get(node, &kn);
	if (ret)
		return ret;
	ret = ioctl(iio_kernel_node_fd(kn), IIO_GET_EVENT_FD_IOCTL, &evfd);
	ret = ret < 0 ? -errno : evfd;
	iio_kernel_node_put(kn);
	return ret;
}

int kernel_event_open(struct iio_dev *dev, struct kernel_evfd *ef, const char *node)
{
	int fd, ret;

	if (ef->running)
		return -EBUSY;
	fd = kernel_event_getfd(node);
	if (fd < 0)
		return fd;
	if (pipe2(ef->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	/* non-blocking: a poll that saw data another reader took must not park the thread */
	if (fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		ret = -errno;
		goto err_close;
	}
	ef->dev = dev;
	ef->fd = fd;
	ret = -pthread_create(&ef->thread, NULL, kernel_event_thread, ef);
	if (ret)
		goto err_close;
	ef->running = true;
	return 0;

err_close:
	close(ef->wake[0]);
	close(ef->wake[1]);
	close(fd);
	return ret;
}

void kernel_event_close(struct kernel_evfd *ef)
{
	ssize_t n;

	if (!ef->running)
		return;
	do {
		n = write(ef->wake[1], "", 1);
	} while (n < 0 && errno == EINTR);
	pthread_join(ef->thread, NULL);
	close(ef->fd);
	close(ef->wake[0]);
	close(ef->wake[1]);
	ef->running = false;
}
