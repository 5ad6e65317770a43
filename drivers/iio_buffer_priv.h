/*
 * iio_buffer_priv.h - the core's buffered-capture state, shared by
 * iio_buffer.c (capture), iio_buffer_attr.c (the sysfs files) and
 * iio_trigger.c. Drivers and the server must not include it.
 */
#ifndef IIOWIRE_IIO_BUFFER_PRIV_H
#define IIOWIRE_IIO_BUFFER_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include "iio_buffer.h"
#include "iio_priv.h"

/* Sub-kinds of IIO_ATTR_BUFFER attributes (iio_attr.info). */
enum iio_battr {
	IIO_BATTR_SCAN_EN,
	IIO_BATTR_SCAN_INDEX,
	IIO_BATTR_SCAN_TYPE,
	IIO_BATTR_LENGTH,
	IIO_BATTR_ENABLE,
	IIO_BATTR_WATERMARK,
	IIO_BATTR_DATA_AVAILABLE,
	IIO_BATTR_DIRECTION,
	IIO_BATTR_CURRENT_TRIGGER,
};

/**
 * struct iio_dev_buffer - a buffered device's capture state.
 * Configuration fields: device lock. @list, @active* and the ring's tail:
 * also @list_lock (the consumer reads them under it alone).
 */
struct iio_dev_buffer {
	const struct iio_buffer_setup *setup;
	const uint64_t *masks;
	struct iio_registry *reg;
	struct iio_trigger *trig;
	/* buffer 0: the sysfs files and a kfifo that only counts */
	struct iio_buffer buf0;
	uint64_t mask0;
	bool ts0;
	bool enabled0;
	unsigned int length;
	unsigned int watermark;
	unsigned int kfifo_count;
	/* the capture */
	pthread_mutex_t list_lock;
	struct iio_buffer *list;
	int nbuffers;
	uint64_t active_mask;
	bool active_ts;
	bool next_ts;		/* the scan update_scan_mode applies: iio_buffer_next_ts() */
	atomic_int failed;	/* a self-timed producer's error: iio_device_buffer_fail() */
	struct iio_scan_layout active;
	uint8_t *ring;
	atomic_uint head;
	atomic_uint tail;
	atomic_ullong lost;
	/* output: the ring runs the other way (writer -> head, handler's pops -> tail) */
	unsigned int out_len;	/* the writer's queue limit, in scans */
	uint8_t *cyc;		/* a cyclic block, repeated by the pops; device lock */
	unsigned int ncyc, cycpos;
	atomic_ullong underruns;
	atomic_bool primed;	/* a scan was queued: empty pops count from then on */
	/* its own lock, not @list_lock: a producer's wake must not wait out a drain */
	pthread_mutex_t notify_lock;
	void (*notify)(void *ctx);
	void *notify_ctx;
	struct iio_attr *attrs;
	int nattrs;
	/* a data-ready trigger of its own, made at registration */
	int (*dr_period)(struct iio_dev *indio_dev, uint64_t *period_ns);
	struct iio_trigger *own_trig;
};

static inline struct iio_dev_buffer *iio_buffer_state(const struct iio_dev *indio_dev)
{
	return to_iio_dev_opaque(indio_dev)->buffer;
}

static inline bool iio_buffer_state_out(const struct iio_dev_buffer *bs)
{
	return bs->setup->direction == IIO_BUFFER_DIRECTION_OUT;
}

/* iio_buffer.c */
int iio_buffer_attach_locked(struct iio_dev *indio_dev, struct iio_buffer *buf, char *err,
			     size_t errlen);
void iio_buffer_detach_locked(struct iio_dev *indio_dev, struct iio_buffer *buf);
/* current_trigger = @trig (validated; references moved), device lock held */
int iio_buffer_set_trigger_locked(struct iio_dev *indio_dev, struct iio_dev_buffer *bs,
				  struct iio_trigger *trig);
/* iio_trigger.c: the consumer list; -EBUSY when full */
int iio_trigger_attach_device(struct iio_trigger *trig, struct iio_dev *indio_dev);
void iio_trigger_detach_device(struct iio_trigger *trig, struct iio_dev *indio_dev);
/* @take records from @data into the ring at @head (both stretches), then publish them */
void iio_buffer_ring_put(struct iio_dev_buffer *bs, unsigned int head, const void *data,
			 unsigned int take);
/* iio_buffer_attr.c */
int iio_buffer_attrs_build(struct iio_dev *indio_dev);

#endif /* IIOWIRE_IIO_BUFFER_PRIV_H */
