/*
 * kernel_buffer.c - capture from a mirrored kernel device: its scans read
 * from /dev/iio:deviceN into the core's buffers (iio_buffer.h), so STREAM
 * and the iiod listener's OPEN/READBUF serve kernel devices as they serve
 * userspace drivers (one capture per device, readers with their own masks).
 *
 * The core runs the union of the readers' masks; this file applies it as
 * libiio's local backend does: scan_elements/<elem>_en for each element,
 * buffer/length, the character device opened (the backend's one shared
 * open of it, kernel_node.c, which the event fd's ioctl uses too: the
 * kernel refuses a second open), buffer/enable = 1; a union
 * that changes while capturing disables, rewrites the enables and enables
 * again (the kernel refuses _en writes while enabled: EBUSY). The last
 * reader's leave disables and restores the enables and length found. The
 * kernel triggers the device: the core's buffer is self-timed, and setting
 * its trigger (a mirrored kernel trigger, kernel_trig.c) writes the
 * trigger's name to trigger/current_trigger.
 *
 * Reads run on a thread of the capture's own, never on the loop or the
 * device's worker: poll() on the non-blocking descriptor and a wake pipe,
 * then a read straight into the core's ring (iio_push_room(): no copy)
 * while the ring has a whole read's room; otherwise (a full ring, a scan a
 * stand-in FIFO split) into a buffer of ours, whose whole scans are pushed
 * under the device lock taken with trylock, since the lock's holder may be
 * joining this thread. End of file or an error is the device going away: the core
 * is told (iio_device_buffer_fail()) and the readers end with ENODEV. The
 * kernel's unbind wakes no poller (its poll of a removed device reports
 * nothing; seen on 6.1, kernel_node.c), so the poll times out every
 * IIO_KERNEL_GONE_POLL_MS and reads: ENODEV then, EAGAIN while it lives.
 * Callbacks run under the device lock, so files are written directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iio_buffer.h"
#include "iio_kit.h"
#include "kernel/iio_kernel.h"

/*
 * Scans one read() takes at most, as many as buffer/length holds: the
 * kernel's whole kfifo in one read. A quarter of the core's ring
 * (IIO_SCAN_RING_SCANS), so a batch fits while the loop drains the last. A
 * batch costs a poll, a read and a wake of the loop whatever its size (and
 * a stand-in FIFO's read a wake of its writer): with a ring of 16384, reads
 * of 1024 scans gave a flat-out stand-in 531-710 MB/s, of 4096 894-1198
 * (bench/RESULTS.md).
 */
#define KERNEL_CAP_READ_SCANS	4096
#define KERNEL_CAP_LENGTH	"4096"
/* How long the reader waits between tries of a busy device lock. */
#define KERNEL_CAP_LOCK_WAIT_NS	200000L

/**
 * struct kernel_cap - one capture of a kernel device, from the first
 * reader's update_scan_mode to the last reader's predisable.
 * @saved_en: each scan element's _en as found (bit = scan_index; the
 *	timestamp's in @saved_ts); @saved_length: buffer/length as found.
 */
struct kernel_cap {
	struct iio_dev *dev;
	pthread_t thread;
	bool running;
	atomic_bool stop;
	struct iio_kernel_node *node;	/* the shared open of /dev/iio:deviceN (kernel_node.c) */
	int fd;				/* its descriptor */
	int wake[2];
	int scan_bytes;
	bool ts;
	uint64_t saved_en;
	bool saved_ts;
	char saved_length[32];
	size_t have;
	uint8_t *buf;		/* KERNEL_CAP_READ_SCANS of the scan, from kernel_cap_start() */
	size_t room;
};

/* The scan elements' _en file of @chan: "scan_elements/in_voltage0_en". */
static int kernel_cap_en_name(const struct iio_chan_spec *chan, char *buf, size_t len)
{
	char stem[IIO_ATTR_NAME_MAX];
	int ret;

	ret = iio_attr_name_build(stem, sizeof(stem), chan, "en", IIO_SEPARATE);
	if (ret < 0)
		return ret;
	return snprintf(buf, len, "scan_elements/%s", stem) >= (int)len ? -ENAMETOOLONG : 0;
}

/* Write each scan element's _en: bit scan_index of @mask, the timestamp's from @ts. */
static int kernel_cap_write_en(struct iio_dev *dev, uint64_t mask, bool ts)
{
	const struct iio_chan_spec *chan;
	char name[IIO_ATTR_NAME_MAX];
	bool on;
	int i, ret;

	for (i = 0; i < dev->num_channels; i++) {
		chan = &dev->channels[i];
		if (chan->scan_index < 0 || chan->scan_index >= IIO_SCAN_INDEX_MAX)
			continue;
		on = chan->type == IIO_TIMESTAMP ? ts : !!(mask & BIT_ULL(chan->scan_index));
		ret = kernel_cap_en_name(chan, name, sizeof(name));
		if (!ret)
			ret = iio_kernel_file_write(dev, name, on ? "1" : "0");
		if (ret)
			return ret;
	}
	return 0;
}

/* Keep what the enables and buffer/length were before the first reader. */
static void kernel_cap_save(struct kernel_cap *cap)
{
	const struct iio_chan_spec *chan;
	char name[IIO_ATTR_NAME_MAX], text[16];
	bool on;
	int i;

	for (i = 0; i < cap->dev->num_channels; i++) {
		chan = &cap->dev->channels[i];
		if (chan->scan_index < 0 || chan->scan_index >= IIO_SCAN_INDEX_MAX ||
		    kernel_cap_en_name(chan, name, sizeof(name)) ||
		    iio_kernel_file_read(cap->dev, name, text, sizeof(text)) <= 0)
			continue;
		on = text[0] == '1';
		if (chan->type == IIO_TIMESTAMP)
			cap->saved_ts = on;
		else if (on)
			cap->saved_en |= BIT_ULL(chan->scan_index);
	}
	if (iio_kernel_file_read(cap->dev, "buffer/length", cap->saved_length,
				 sizeof(cap->saved_length)) <= 0)
		cap->saved_length[0] = '\0';
	cap->saved_length[strcspn(cap->saved_length, "\n")] = '\0';
}

/* Push the whole scans read into cap->buf so far; keep a partial one. Return: false when stopping. */
static bool kernel_cap_push(struct kernel_cap *cap)
{
	size_t whole = cap->have / (size_t)cap->scan_bytes * (size_t)cap->scan_bytes;
	const struct timespec wait = { 0, KERNEL_CAP_LOCK_WAIT_NS };

	if (!whole)
		return true;
	while (!iio_device_trylock(cap->dev)) {
		if (atomic_load(&cap->stop))
			return false;
		nanosleep(&wait, NULL);
	}
	/* the kernel's records hold their timestamps already: pushed as read, all at once */
	(void)iio_push_scans(cap->dev, cap->buf, (unsigned int)(whole / (size_t)cap->scan_bytes));
	iio_device_unlock(cap->dev);
	cap->have -= whole;
	memmove(cap->buf, cap->buf + whole, cap->have);
	return true;
}

/*
 * One read of the device, which poll() said is readable (the descriptor is
 * non-blocking). Straight into the ring when no split scan waits and the
 * ring has a read's room: the records are queued where they landed (at the
 * ring's end the read is shorter, and the next starts at its beginning).
 * Otherwise into cap->buf, then copied by kernel_cap_push().
 * Return: the bytes read, 0 at end of file, -1 with errno; -2 when stopping.
 */
static ssize_t kernel_cap_read(struct kernel_cap *cap)
{
	size_t bytes = (size_t)cap->scan_bytes, whole;
	unsigned int scans = 0;
	uint8_t *room = cap->have ? NULL : iio_push_room(cap->dev, KERNEL_CAP_READ_SCANS, &scans);
	ssize_t n;

	if (!room) {
		n = read(cap->fd, cap->buf + cap->have, cap->room - cap->have);
		if (n <= 0)
			return n;
		cap->have += (size_t)n;
		return kernel_cap_push(cap) ? n : -2;
	}
	n = read(cap->fd, room, scans * bytes);
	if (n <= 0)
		return n;
	whole = (size_t)n / bytes;
	iio_push_commit(cap->dev, (unsigned int)whole);
	/* the start of a split scan waits in cap->buf for its end */
	cap->have = (size_t)n - whole * bytes;
	memcpy(cap->buf, room + whole * bytes, cap->have);
	return n;
}

static void *kernel_cap_main(void *arg)
{
	struct kernel_cap *cap = arg;
	struct pollfd pfd[2];
	ssize_t n;
	int err = 0;

	while (!atomic_load(&cap->stop) && !err) {
		pfd[0] = (struct pollfd){ .fd = cap->fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = cap->wake[0], .events = POLLIN };
		/* a timeout reads too: a removed device's poll stays silent, its read is ENODEV */
		if (poll(pfd, 2, IIO_KERNEL_GONE_POLL_MS) < 0) {
			err = errno == EINTR ? 0 : -errno;
			continue;
		}
		if (pfd[1].revents)
			break;
		n = kernel_cap_read(cap);
		if (n == -2)
			break;
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		/*
		 * the kernel's read ends only when the device goes (-ENODEV); a stand-in's EOF
		 * too (the kernel's 0 is for a buffer never enabled, which this never reads)
		 */
		err = n < 0 ? -errno : n == 0 ? -ENODEV : 0;
	}
	if (err && !atomic_load(&cap->stop))
		iio_device_buffer_fail(cap->dev, err == -ENODEV || err == -EIO ? -ENODEV : err);
	return NULL;
}

/* The read buffer, KERNEL_CAP_READ_SCANS of the scan update_scan_mode set: 0 or -ENOMEM. */
static int kernel_cap_room(struct kernel_cap *cap)
{
	size_t room = (size_t)cap->scan_bytes * KERNEL_CAP_READ_SCANS;
	uint8_t *buf;

	if (room == cap->room)
		return 0;
	buf = realloc(cap->buf, room);
	if (!buf)
		return -ENOMEM;
	cap->buf = buf;
	cap->room = room;
	return 0;
}

/* Open the character device, enable, start reading. Device lock held. */
static int kernel_cap_start(struct kernel_cap *cap)
{
	char path[IIO_KERNEL_ROOT_MAX + IIO_KERNEL_NAME_MAX];
	int ret;

	ret = kernel_cap_room(cap);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/%s", iio_kernel_dev_root(), iio_kernel_dir(cap->dev));
	/* shared: a subscription may be getting the event fd through it right now */
	ret = iio_kernel_node_get(path, &cap->node);
	if (ret)
		return ret;
	cap->fd = iio_kernel_node_fd(cap->node);
	ret = iio_kernel_file_write(cap->dev, "buffer/enable", "1");
	if (!ret) {
		cap->have = 0;
		atomic_store(&cap->stop, false);
		ret = -pthread_create(&cap->thread, NULL, kernel_cap_main, cap);
		if (ret)
			(void)iio_kernel_file_write(cap->dev, "buffer/enable", "0");
	}
	if (ret) {
		iio_kernel_node_put(cap->node);
		cap->node = NULL;
		cap->fd = -1;
		return ret;
	}
	cap->running = true;
	return 0;
}

/* Stop reading, close, disable. Device lock held (the reader never waits on it). */
static void kernel_cap_halt(struct kernel_cap *cap)
{
	char c;

	if (!cap->running)
		return;
	atomic_store(&cap->stop, true);
	(void)!write(cap->wake[1], "", 1);
	pthread_join(cap->thread, NULL);
	while (read(cap->wake[0], &c, 1) == 1)
		;
	iio_kernel_node_put(cap->node);
	cap->node = NULL;
	cap->fd = -1;
	cap->running = false;
	(void)iio_kernel_file_write(cap->dev, "buffer/enable", "0");
}

static void kernel_cap_free(struct iio_dev *dev)
{
	struct kernel_cap **slot = iio_kernel_cap_slot(dev), *cap = *slot;

	if (!cap)
		return;
	kernel_cap_halt(cap);
	(void)kernel_cap_write_en(dev, cap->saved_en, cap->saved_ts);
	if (cap->saved_length[0])
		(void)iio_kernel_file_write(dev, "buffer/length", cap->saved_length);
	close(cap->wake[0]);
	close(cap->wake[1]);
	free(cap->buf);
	free(cap);
	*slot = NULL;
}

static struct kernel_cap *kernel_cap_new(struct iio_dev *dev)
{
	struct kernel_cap *cap = calloc(1, sizeof(*cap));

	if (!cap)
		return NULL;
	if (pipe2(cap->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		free(cap);
		return NULL;
	}
	cap->dev = dev;
	cap->fd = -1;
	kernel_cap_save(cap);
	return cap;
}

/*
 * The kernel lays a scan out in scan_index order, timestamp included; the
 * core puts the timestamp last. They agree unless an element is indexed
 * after the timestamp (max1363's differential pairs): refused (K-40).
 */
static int kernel_cap_check_order(const struct iio_dev *dev, uint64_t mask, bool ts)
{
	int i;

	for (i = 0; i < dev->num_channels && ts; i++)
		if (dev->channels[i].type == IIO_TIMESTAMP && dev->channels[i].scan_index >= 0 &&
		    dev->channels[i].scan_index < IIO_SCAN_INDEX_MAX &&
		    (mask >> dev->channels[i].scan_index))
			return -EINVAL;
	return 0;
}

static int kernel_cap_update_scan_mode(struct iio_dev *dev, uint64_t mask)
{
	struct kernel_cap **slot = iio_kernel_cap_slot(dev), *cap = *slot;
	bool ts = iio_buffer_next_ts(dev), first = !cap, was;
	struct iio_scan_layout lay;
	int ret;

	ret = kernel_cap_check_order(dev, mask, ts);
	if (!ret)
		ret = iio_scan_layout_compute(dev, mask, ts, &lay);
	if (ret)
		return ret;
	if (!cap) {
		cap = *slot = kernel_cap_new(dev);
		if (!cap)
			return -ENOMEM;
	}
	was = cap->running;
	kernel_cap_halt(cap);
	cap->scan_bytes = lay.bytes;
	cap->ts = ts;
	ret = kernel_cap_write_en(dev, mask, ts);
	if (!ret && was)
		ret = kernel_cap_start(cap);
	if (ret && first)
		kernel_cap_free(dev);
	return ret;
}

static int kernel_cap_postenable(struct iio_dev *dev)
{
	struct kernel_cap *cap = *iio_kernel_cap_slot(dev);
	int ret;

	if (!cap)
		return -EINVAL;
	ret = iio_kernel_file_write(dev, "buffer/length", KERNEL_CAP_LENGTH);
	return ret ? ret : kernel_cap_start(cap);
}

static int kernel_cap_predisable(struct iio_dev *dev)
{
	kernel_cap_free(dev);
	return 0;
}

/* Never called: a self-timed buffer has no trigger polling it. */
static int kernel_cap_handler(struct iio_dev *dev, int64_t ts)
{
	(void)dev;
	(void)ts;
	return -EINVAL;
}

/*
 * The kernel's trigger of the device (the core lets only a kernel trigger
 * be set on it): its name into trigger/current_trigger; "\n" clears it,
 * as a name no trigger has does.
 */
static int kernel_cap_set_trigger(struct iio_dev *dev, struct iio_trigger *trig)
{
	/* on the device's worker (STREAM, iiod's SETTRIG): the kernel's store waits for mlock */
	return iio_kernel_file_write(dev, "trigger/current_trigger", trig ? trig->name : "\n");
}

static const struct iio_buffer_setup kernel_cap_setup = {
	.handler = kernel_cap_handler,
	.update_scan_mode = kernel_cap_update_scan_mode,
	.postenable = kernel_cap_postenable,
	.predisable = kernel_cap_predisable,
	.set_trigger = kernel_cap_set_trigger,
	.self_timed = true,
};

int iio_kernel_buffer_setup(struct iio_dev *dev)
{
	int i;

	for (i = 0; i < dev->num_channels; i++)
		if (dev->channels[i].scan_index >= 0)
			return iio_triggered_buffer_setup(dev, &kernel_cap_setup, NULL);
	return 0;	/* no scan elements: libiio's "buffer capable" is false too */
}

void iio_kernel_buffer_stop(struct iio_dev *dev)
{
	kernel_cap_free(dev);
}
