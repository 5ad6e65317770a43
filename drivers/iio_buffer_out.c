/*
 * iio_buffer_out.c - the output direction of the core's buffers: a writer
 * queues scans, the device's trigger handler pops one per poll and plays
 * it (the kernel's iio_pop_from_buffer() on a kfifo buffer whose direction
 * is out, as ad5766's handler does).
 *
 * The ring is iio_buffer.c's, run the other way: the writer (the server's
 * loop) moves head, the handler (the loop or the device's bus worker,
 * device lock held) moves tail. A pop that finds the ring empty is the
 * kfifo's -EBUSY, counted as an underrun once the writer has queued its
 * first scan (a writer that has not started is not late); what the chip
 * does then is the driver's. The writer is woken through the push notify when the queue is
 * down to half its length, so a fast writer is paced by the trigger.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_buffer_priv.h"

/* The writer's buffer as it must be for a write: 0 or -errno. */
static int iio_buffer_out_check(const struct iio_dev_buffer *bs, const struct iio_buffer *buf)
{
	if (!bs)
		return -EINVAL;
	if (buf->direction != IIO_BUFFER_DIRECTION_OUT || !iio_buffer_state_out(bs))
		return -EPERM;
	if (!buf->attached || !bs->ring)
		return -EINVAL;
	return 0;
}

int iio_pop_from_buffer(struct iio_dev *indio_dev, void *data)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	unsigned int head, tail;
	size_t bytes;

	if (!bs || !iio_buffer_state_out(bs) || !bs->nbuffers || !bs->ring)
		return -EINVAL;
	bytes = (size_t)bs->active.bytes;
	if (bs->cyc) {
		memcpy(data, bs->cyc + (size_t)bs->cycpos * bytes, bytes);
		bs->cycpos = (bs->cycpos + 1) % bs->ncyc;
		return 0;
	}
	tail = atomic_load_explicit(&bs->tail, memory_order_relaxed);
	head = atomic_load_explicit(&bs->head, memory_order_acquire);
	if (head == tail) {
		if (atomic_load_explicit(&bs->primed, memory_order_relaxed))
			atomic_fetch_add(&bs->underruns, 1);
		return -EBUSY;
	}
	memcpy(data, bs->ring + (tail % IIO_SCAN_RING_SCANS) * bytes, bytes);
	atomic_store_explicit(&bs->tail, tail + 1, memory_order_release);
	/* once per crossing: pops take one scan each, so the queue passes half exactly once */
	if (head - tail - 1 == bs->out_len / 2)
		iio_device_buffers_wake(indio_dev);
	return 0;
}

int iio_buffer_write_scans(struct iio_dev *indio_dev, struct iio_buffer *buf, const void *data,
			   unsigned int n)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	unsigned int head, tail, room, take;
	int ret;

	ret = iio_buffer_out_check(bs, buf);
	if (ret)
		return ret;
	if (bs->cyc)
		return -EBUSY;
	head = atomic_load_explicit(&bs->head, memory_order_relaxed);
	tail = atomic_load_explicit(&bs->tail, memory_order_acquire);
	room = head - tail >= bs->out_len ? 0 : bs->out_len - (head - tail);
	take = n < room ? n : room;
	iio_buffer_ring_put(bs, head, data, take);
	if (take)
		atomic_store_explicit(&bs->primed, true, memory_order_relaxed);
	return (int)take;
}

int iio_buffer_set_cyclic(struct iio_dev *indio_dev, struct iio_buffer *buf, const void *data,
			  unsigned int n)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	uint8_t *blk;
	size_t bytes;
	int ret;

	iio_device_lock(indio_dev);
	ret = iio_buffer_out_check(bs, buf);
	if (!ret && (!n || n > IIO_SCAN_RING_SCANS))
		ret = -EINVAL;
	if (!ret && (bs->cyc || atomic_load(&bs->head) != atomic_load(&bs->tail)))
		ret = -EBUSY;
	if (ret) {
		iio_device_unlock(indio_dev);
		return ret;
	}
	bytes = (size_t)bs->active.bytes;
	blk = malloc(n * bytes);
	if (!blk) {
		iio_device_unlock(indio_dev);
		return -ENOMEM;
	}
	memcpy(blk, data, n * bytes);
	bs->cyc = blk;
	bs->ncyc = n;
	bs->cycpos = 0;
	iio_device_unlock(indio_dev);
	return 0;
}

unsigned int iio_buffer_queued(const struct iio_dev *indio_dev)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	if (!bs || !iio_buffer_state_out(bs))
		return 0;
	return atomic_load(&bs->head) - atomic_load(&bs->tail);
}

uint64_t iio_buffer_underruns(const struct iio_dev *indio_dev)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	return bs ? atomic_load(&bs->underruns) : 0;
}
