/*
 * iio_buffer.c - buffered capture: scan layout, buffer 0's sysfs files, the
 * attach/detach sequence with the union mask and the demux, and the ring
 * between the thread that runs a driver's trigger handler and the thread
 * that hands records to the readers.
 *
 * Follows the kernel's industrialio-buffer.c: iio_compute_scan_bytes for the
 * layout, __iio_update_buffers/iio_verify_update for enable (empty mask,
 * no trigger, first superset of available_scan_masks, all -EINVAL), the
 * demux copy list for each buffer whose mask is not the active one, and the
 * files of buffer/, buffer0/, scan_elements/ and trigger/ with the kernel's
 * texts and errors. Locks: the device lock for configuration and the
 * handler; list_lock (never held across bus I/O) for the buffer list and
 * the ring's consumer side. Triggers are iio_trigger.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iio_kit.h"
#include "iio_priv.h"
#include "iio_buffer.h"
#include "iio_buffer_priv.h"

/* ---- layout ---- */

int iio_chan_scan_bytes(const struct iio_chan_spec *chan)
{
	int repeat = chan->scan_type.repeat > 1 ? chan->scan_type.repeat : 1;

	return chan->scan_type.storagebits / 8 * repeat;
}

static const struct iio_chan_spec *iio_buffer_chan_by_index(const struct iio_dev *indio_dev,
							    int index)
{
	int i;

	for (i = 0; i < indio_dev->num_channels; i++)
		if (indio_dev->channels[i].scan_index == index &&
		    indio_dev->channels[i].type != IIO_TIMESTAMP)
			return &indio_dev->channels[i];
	return NULL;
}

static const struct iio_chan_spec *iio_buffer_ts_chan(const struct iio_dev *indio_dev)
{
	int i;

	for (i = 0; i < indio_dev->num_channels; i++)
		if (indio_dev->channels[i].type == IIO_TIMESTAMP &&
		    indio_dev->channels[i].scan_index >= 0)
			return &indio_dev->channels[i];
	return NULL;
}

static int iio_buffer_place(struct iio_scan_layout *out, const struct iio_chan_spec *chan,
			    int *largest)
{
	int len = iio_chan_scan_bytes(chan);

	if (len <= 0 || out->n > IIO_SCAN_INDEX_MAX)
		return -EINVAL;
	out->bytes = (out->bytes + len - 1) / len * len;
	out->chan[out->n] = chan;
	out->offset[out->n++] = out->bytes;
	out->bytes += len;
	if (len > *largest)
		*largest = len;
	return 0;
}

int iio_scan_layout_compute(const struct iio_dev *indio_dev, uint64_t mask, bool ts,
			    struct iio_scan_layout *out)
{
	const struct iio_chan_spec *chan;
	int bit, largest = 0, ret;

	memset(out, 0, sizeof(*out));
	if (!mask)
		return -EINVAL;
	for (bit = 0; bit < IIO_SCAN_INDEX_MAX; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		chan = iio_buffer_chan_by_index(indio_dev, bit);
		if (!chan)
			return -EINVAL;
		ret = iio_buffer_place(out, chan, &largest);
		if (ret)
			return ret;
	}
	if (ts) {
		chan = iio_buffer_ts_chan(indio_dev);
		if (!chan)
			return -EINVAL;
		ret = iio_buffer_place(out, chan, &largest);
		if (ret)
			return ret;
	}
	out->bytes = (out->bytes + largest - 1) / largest * largest;
	return out->bytes > IIO_SCAN_BYTES_MAX ? -E2BIG : 0;
}

static bool iio_buffer_host_le(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 1;
}

static bool iio_buffer_chan_be(const struct iio_chan_spec *chan)
{
	if (chan->scan_type.endianness == IIO_BE)
		return true;
	if (chan->scan_type.endianness == IIO_LE)
		return false;
	return !iio_buffer_host_le();
}

int iio_scan_type_format(const struct iio_chan_spec *chan, char *buf, size_t len)
{
	const struct iio_scan_type *t = &chan->scan_type;
	const char *end = iio_buffer_chan_be(chan) ? "be" : "le";
	int n;

	if (t->repeat > 1)
		n = snprintf(buf, len, "%s:%c%u/%uX%u>>%u\n", end, t->sign, t->realbits,
			     t->storagebits, t->repeat, t->shift);
	else
		n = snprintf(buf, len, "%s:%c%u/%u>>%u\n", end, t->sign, t->realbits,
			     t->storagebits, t->shift);
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

int64_t iio_scan_element_value(const struct iio_chan_spec *chan, const uint8_t *p)
{
	const struct iio_scan_type *t = &chan->scan_type;
	int bytes = t->storagebits / 8, i;
	bool be = iio_buffer_chan_be(chan);
	uint64_t v = 0;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[be ? i : bytes - 1 - i] << (8 * (bytes - 1 - i));
	v >>= t->shift;
	if (t->realbits < 64)
		v &= (1ULL << t->realbits) - 1;
	if (t->sign == 's' && t->realbits < 64 && (v & (1ULL << (t->realbits - 1))))
		v |= ~((1ULL << t->realbits) - 1);
	return (int64_t)v;
}

/* ---- setup and state ---- */

/* No trigger of the core's drives the capture: the kernel's or the driver's own thread does. */
static bool iio_buffer_untriggered(const struct iio_dev_buffer *bs)
{
	return bs->setup->self_timed || bs->setup->software;
}

int iio_triggered_buffer_setup(struct iio_dev *indio_dev, const struct iio_buffer_setup *setup,
			       const uint64_t *masks)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	struct iio_dev_buffer *bs;

	bs = calloc(1, sizeof(*bs));
	if (!bs)
		return -ENOMEM;
	bs->setup = setup;
	bs->masks = masks;
	bs->length = IIO_KFIFO_LENGTH_MIN;
	bs->watermark = 1;
	pthread_mutex_init(&bs->list_lock, NULL);
	pthread_mutex_init(&bs->notify_lock, NULL);
	free(op->buffer);
	op->buffer = bs;
	return 0;
}

void iio_device_buffer_free(struct iio_dev *indio_dev)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	struct iio_dev_buffer *bs = op->buffer;

	if (!bs)
		return;
	iio_trigger_put(bs->trig);
	pthread_mutex_destroy(&bs->list_lock);
	pthread_mutex_destroy(&bs->notify_lock);
	free(bs->ring);
	free(bs->cyc);
	free(bs->attrs);
	free(bs);
	op->buffer = NULL;
}

int iio_device_trigger_setup(struct iio_dev *indio_dev,
			     int (*period)(struct iio_dev *indio_dev, uint64_t *period_ns))
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	if (!bs)
		return -EINVAL;
	bs->dr_period = period;
	return 0;
}

int iio_device_buffer_register(struct iio_registry *reg, struct iio_dev *indio_dev, char *err,
			       size_t errlen)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	char name[IIO_TRIGGER_NAME_MAX];
	int ret;

	if (!bs)
		return 0;
	bs->reg = reg;
	if (bs->setup->self_timed)
		return 0;	/* its files are its own */
	ret = iio_buffer_attrs_build(indio_dev);
	if (ret) {
		iio_core_seterr(err, errlen, "cannot build the buffer files: %s",
				  strerror(-ret));
		return ret;
	}
	if (!bs->dr_period)
		return 0;
	snprintf(name, sizeof(name), "%s-dev%d", indio_dev->name, iio_device_id(indio_dev));
	ret = iio_dready_trigger_create(reg, name, indio_dev, bs->dr_period, &bs->own_trig);
	if (ret)
		iio_core_seterr(err, errlen, "cannot add trigger %s: %s", name, strerror(-ret));
	return ret;
}

void iio_device_buffer_unlist(struct iio_registry *reg, struct iio_dev *indio_dev)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	if (!bs || !bs->own_trig)
		return;
	iio_trigger_destroy(reg, bs->own_trig);
	bs->own_trig = NULL;
}

void iio_device_buffer_unregister(struct iio_dev *indio_dev)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	if (!bs)
		return;
	iio_buffers_end(indio_dev, -ENODEV);
	iio_device_lock(indio_dev);
	iio_trigger_put(bs->trig);	/* current_trigger's reference */
	bs->trig = NULL;
	iio_device_unlock(indio_dev);
	bs->reg = NULL;
}

uint64_t iio_buffer_widest_mask(const struct iio_dev *indio_dev)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	bool out = bs && iio_buffer_state_out(bs);
	uint64_t all = 0, best = 0;
	const uint64_t *m;
	int i;

	for (i = 0; i < indio_dev->num_channels; i++)
		if (indio_dev->channels[i].scan_index >= 0 &&
		    !!indio_dev->channels[i].output == out &&
		    indio_dev->channels[i].type != IIO_TIMESTAMP)
			all |= 1ULL << indio_dev->channels[i].scan_index;
	if (!bs || !bs->masks)
		return all;
	for (m = bs->masks; *m; m++)
		if (__builtin_popcountll(*m) > __builtin_popcountll(best))
			best = *m;
	return best;
}

uint64_t iio_buffer_active_mask(const struct iio_dev *indio_dev)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	return bs ? bs->active_mask : 0;
}

bool iio_buffer_next_ts(const struct iio_dev *indio_dev)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	return bs && bs->next_ts;
}

void iio_device_buffers_wake(struct iio_dev *indio_dev)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	if (!bs)
		return;
	/*
	 * not the list lock: the consumer holds that through a whole drain, and
	 * a producer waking it once per batch then slept on it (24 K futex
	 * calls a second in a kernel device's stream, bench/RESULTS.md)
	 */
	pthread_mutex_lock(&bs->notify_lock);
	if (bs->notify)
		bs->notify(bs->notify_ctx);
	pthread_mutex_unlock(&bs->notify_lock);
}

void iio_device_buffer_fail(struct iio_dev *indio_dev, int err)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	if (!bs || !err)
		return;
	atomic_store(&bs->failed, err);
	iio_device_buffers_wake(indio_dev);
}

int iio_device_buffer_failed(struct iio_dev *indio_dev)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	return bs ? atomic_exchange(&bs->failed, 0) : 0;
}

bool iio_device_has_buffer(const struct iio_dev *indio_dev)
{
	return iio_buffer_state(indio_dev) != NULL;
}

enum iio_buffer_direction iio_device_buffer_direction(const struct iio_dev *indio_dev)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	return bs ? bs->setup->direction : IIO_BUFFER_DIRECTION_IN;
}

bool iio_device_takes_trigger(const struct iio_dev *indio_dev)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	return bs && !bs->setup->software;
}

bool iio_buffer_enabled(const struct iio_dev *indio_dev)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	return bs && bs->nbuffers > 0;
}

int iio_device_claim_direct(const struct iio_dev *indio_dev)
{
	return iio_buffer_enabled(indio_dev) ? -EBUSY : 0;
}

struct iio_trigger *iio_device_current_trigger(const struct iio_dev *indio_dev)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	return bs ? bs->trig : NULL;
}

int64_t iio_get_time_ns(const struct iio_dev *indio_dev)
{
	struct timespec ts;

	clock_gettime(to_iio_dev_opaque(indio_dev)->clock_id, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void iio_device_set_push_notify(struct iio_dev *indio_dev, void (*notify)(void *ctx), void *ctx)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	if (!bs)
		return;
	pthread_mutex_lock(&bs->notify_lock);
	bs->notify = notify;
	bs->notify_ctx = ctx;
	pthread_mutex_unlock(&bs->notify_lock);
}

/* ---- attach / detach ---- */

/* iio_scan_mask_match(): the first available mask that holds @want. */
static int iio_buffer_match_mask(const struct iio_dev_buffer *bs, uint64_t want, uint64_t *out)
{
	const uint64_t *m;

	if (!bs->masks) {
		*out = want;
		return 0;
	}
	for (m = bs->masks; *m; m++) {
		if ((*m & want) == want) {
			*out = *m;
			return 0;
		}
	}
	return -EINVAL;
}

/* The copy list from the active record to @buf's own (zero padding, timestamp last). */
static void iio_buffer_build_demux(struct iio_buffer *buf, const struct iio_scan_layout *act)
{
	int i, j;

	buf->ndemux = 0;
	for (i = 0; i < buf->layout.n; i++) {
		for (j = 0; j < act->n; j++) {
			if (act->chan[j] != buf->layout.chan[i])
				continue;
			buf->demux[buf->ndemux].from = (uint16_t)act->offset[j];
			buf->demux[buf->ndemux].to = (uint16_t)buf->layout.offset[i];
			buf->demux[buf->ndemux].len =
				(uint16_t)iio_chan_scan_bytes(buf->layout.chan[i]);
			buf->ndemux++;
			break;
		}
	}
}

/* Union of the attached buffers' wishes, with @extra added and @skip left out. */
static void iio_buffer_union(const struct iio_dev_buffer *bs, const struct iio_buffer *extra,
			     const struct iio_buffer *skip, uint64_t *mask, bool *ts)
{
	const struct iio_buffer *b;

	*mask = extra ? extra->mask : 0;
	*ts = extra ? extra->timestamp : false;
	for (b = bs->list; b; b = b->next) {
		if (b == skip)
			continue;
		*mask |= b->mask;
		*ts |= b->timestamp;
	}
}

/*
 * Make @mask/@ts the active scan: tell the driver (device lock held), then,
 * under the list lock, swap the layout, rebuild every demux and empty the
 * ring (scans of the old layout are counted lost).
 */
static int iio_buffer_activate(struct iio_dev *indio_dev, struct iio_dev_buffer *bs,
			       uint64_t mask, bool ts, struct iio_buffer *add)
{
	struct iio_scan_layout lay;
	struct iio_buffer *b;
	uint8_t *ring = NULL;
	unsigned int pending;
	int ret;

	ret = iio_scan_layout_compute(indio_dev, mask, ts, &lay);
	if (ret)
		return ret;
	if (lay.bytes != bs->active.bytes || !bs->ring) {
		ring = calloc(IIO_SCAN_RING_SCANS, (size_t)lay.bytes);
		if (!ring)
			return -ENOMEM;
	}
	if ((mask != bs->active_mask || ts != bs->active_ts || !bs->nbuffers) &&
	    bs->setup->update_scan_mode) {
		bs->next_ts = ts;
		ret = bs->setup->update_scan_mode(indio_dev, mask);
		if (ret) {
			free(ring);
			return ret;
		}
	}
	pthread_mutex_lock(&bs->list_lock);
	pending = atomic_load(&bs->head) - atomic_load(&bs->tail);
	if (pending && (lay.bytes != bs->active.bytes || mask != bs->active_mask))
		atomic_fetch_add(&bs->lost, pending);
	if (ring) {
		free(bs->ring);
		bs->ring = ring;
	}
	atomic_store(&bs->tail, atomic_load(&bs->head));
	bs->active = lay;
	bs->active_mask = mask;
	bs->active_ts = ts;
	if (add) {
		add->next = bs->list;
		bs->list = add;
		add->attached = true;
		bs->nbuffers++;
		bs->out_len = add->length ? add->length : bs->length;
		if (bs->out_len > IIO_SCAN_RING_SCANS)
			bs->out_len = IIO_SCAN_RING_SCANS;
		atomic_store(&bs->underruns, 0);
		atomic_store(&bs->primed, false);
	}
	for (b = bs->list; b; b = b->next)
		iio_buffer_build_demux(b, &bs->active);
	pthread_mutex_unlock(&bs->list_lock);
	return 0;
}

/*
 * A buffer of the device's direction only (the kernel's read() of an output
 * buffer and write() of an input one are -EPERM), and one writer of an
 * output device: the kernel's device has one fifo, so a second is -EBUSY.
 */
static int iio_buffer_check_direction(struct iio_dev *indio_dev, struct iio_dev_buffer *bs,
				      struct iio_buffer *buf, char *err, size_t errlen)
{
	bool out = iio_buffer_state_out(bs);

	if (out != (buf->direction == IIO_BUFFER_DIRECTION_OUT)) {
		iio_core_seterr(err, errlen, "%s's buffer is an %s buffer", indio_dev->name,
				  out ? "output" : "input");
		return -EPERM;
	}
	if (out && bs->nbuffers) {
		iio_core_seterr(err, errlen, "%s plays one writer's scans at a time",
				  indio_dev->name);
		return -EBUSY;
	}
	return 0;
}

static int iio_buffer_check_new(struct iio_dev *indio_dev, struct iio_dev_buffer *bs,
				struct iio_buffer *buf, uint64_t *mask, bool *ts, char *err,
				size_t errlen)
{
	uint64_t want;
	int ret;

	if (iio_device_is_gone(indio_dev))
		return -ENODEV;
	if (!bs) {
		iio_core_seterr(err, errlen, "%s has no buffer", indio_dev->name);
		return -EINVAL;
	}
	if (buf->attached)
		return -EBUSY;
	ret = iio_buffer_check_direction(indio_dev, bs, buf, err, errlen);
	if (ret)
		return ret;
	if (!buf->mask) {
		iio_core_seterr(err, errlen, "at least one scan element must be enabled first");
		return -EINVAL;
	}
	if (!bs->trig && !iio_buffer_untriggered(bs)) {
		iio_core_seterr(err, errlen, "%s: buffer not started: no trigger",
				  indio_dev->name);
		return -EINVAL;
	}
	ret = iio_scan_layout_compute(indio_dev, buf->mask, buf->timestamp, &buf->layout);
	if (ret) {
		iio_core_seterr(err, errlen, "%s: no such scan element", indio_dev->name);
		return ret;
	}
	iio_buffer_union(bs, buf, NULL, &want, ts);
	if (iio_buffer_match_mask(bs, want, mask)) {
		iio_core_seterr(err, errlen, "%s: no scan mode has these channels "
				  "together (available_scan_masks)", indio_dev->name);
		return -EINVAL;
	}
	return 0;
}

int iio_buffer_attach_locked(struct iio_dev *indio_dev, struct iio_buffer *buf,
				    char *err, size_t errlen)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	bool first;
	uint64_t mask;
	bool ts;
	int ret;

	ret = iio_buffer_check_new(indio_dev, bs, buf, &mask, &ts, err, errlen);
	if (ret)
		return ret;
	first = bs->nbuffers == 0;
	if (first)	/* a failure of the last capture, seen after it ended, is not this one's */
		atomic_store(&bs->failed, 0);
	if (first && !iio_buffer_untriggered(bs)) {
		ret = iio_trigger_attach_device(bs->trig, indio_dev);
		if (ret) {
			iio_core_seterr(err, errlen, "trigger %s drives %d devices already",
					  bs->trig->name, IIO_TRIGGER_CONSUMERS_MAX);
			return ret;
		}
	}
	ret = iio_buffer_activate(indio_dev, bs, mask, ts, buf);
	if (!ret && first && bs->setup->postenable)
		ret = bs->setup->postenable(indio_dev);
	if (ret) {
		if (buf->attached)
			iio_buffer_detach_locked(indio_dev, buf);
		else if (first && !iio_buffer_untriggered(bs))
			iio_trigger_detach_device(bs->trig, indio_dev);
		iio_core_seterr(err, errlen, "%s: enabling the capture failed: %s",
				  indio_dev->name, strerror(-ret));
	}
	return ret;
}

int iio_buffer_attach(struct iio_dev *indio_dev, struct iio_buffer *buf, char *err,
		      size_t errlen)
{
	int ret;

	if (err && errlen)
		err[0] = '\0';
	iio_device_lock(indio_dev);
	ret = iio_buffer_attach_locked(indio_dev, buf, err, errlen);
	iio_device_unlock(indio_dev);
	return ret;
}

static void iio_buffer_unlink(struct iio_dev_buffer *bs, struct iio_buffer *buf)
{
	struct iio_buffer **pp;

	pthread_mutex_lock(&bs->list_lock);
	for (pp = &bs->list; *pp; pp = &(*pp)->next) {
		if (*pp == buf) {
			*pp = buf->next;
			bs->nbuffers--;
			break;
		}
	}
	buf->next = NULL;
	buf->attached = false;
	if (!bs->nbuffers) {
		atomic_store(&bs->tail, atomic_load(&bs->head));
		free(bs->cyc);
		bs->cyc = NULL;
		bs->ncyc = bs->cycpos = 0;
		bs->active_mask = 0;
		bs->active_ts = false;
		memset(&bs->active, 0, sizeof(bs->active));
	}
	pthread_mutex_unlock(&bs->list_lock);
}

void iio_buffer_detach_locked(struct iio_dev *indio_dev, struct iio_buffer *buf)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	uint64_t mask, chosen;
	bool ts;

	if (!bs || !buf->attached)
		return;
	if (bs->nbuffers == 1) {
		if (bs->setup->predisable && !iio_device_is_gone(indio_dev))
			bs->setup->predisable(indio_dev);
		if (!iio_buffer_untriggered(bs))
			iio_trigger_detach_device(bs->trig, indio_dev);
		iio_buffer_unlink(bs, buf);
		return;
	}
	iio_buffer_union(bs, NULL, buf, &mask, &ts);
	iio_buffer_unlink(bs, buf);
	/* a smaller union that a scan mode still covers: keep the chip's mode if it fails */
	if (!iio_buffer_match_mask(bs, mask, &chosen) && !iio_device_is_gone(indio_dev))
		(void)iio_buffer_activate(indio_dev, bs, chosen, ts, NULL);
}

void iio_buffer_detach(struct iio_dev *indio_dev, struct iio_buffer *buf)
{
	iio_device_lock(indio_dev);
	iio_buffer_detach_locked(indio_dev, buf);
	iio_device_unlock(indio_dev);
}

void iio_buffers_end(struct iio_dev *indio_dev, int err)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	struct iio_buffer *b;

	if (!bs)
		return;
	iio_device_lock(indio_dev);
	bs->enabled0 = false;
	while ((b = bs->list) != NULL) {
		iio_buffer_detach_locked(indio_dev, b);
		if (b != &bs->buf0 && b->ops && b->ops->end) {
			iio_device_unlock(indio_dev);
			b->ops->end(b, err);
			iio_device_lock(indio_dev);
		}
	}
	iio_device_unlock(indio_dev);
}

/* ---- the ring ---- */

int iio_push_to_buffers_with_timestamp(struct iio_dev *indio_dev, void *data, int64_t ts)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	unsigned int head, tail;
	size_t bytes;

	if (!bs || !bs->nbuffers || !bs->ring || iio_buffer_state_out(bs))
		return -EINVAL;
	bytes = (size_t)bs->active.bytes;
	if (bs->active_ts)
		memcpy((uint8_t *)data + bytes - sizeof(ts), &ts, sizeof(ts));
	head = atomic_load_explicit(&bs->head, memory_order_relaxed);
	tail = atomic_load_explicit(&bs->tail, memory_order_acquire);
	if (head - tail >= IIO_SCAN_RING_SCANS) {
		atomic_fetch_add(&bs->lost, 1);
		return -ENOSPC;
	}
	memcpy(bs->ring + (head % IIO_SCAN_RING_SCANS) * bytes, data, bytes);
	atomic_store_explicit(&bs->head, head + 1, memory_order_release);
	if (head == tail && bs->notify)
		bs->notify(bs->notify_ctx);
	return 0;
}

void iio_buffer_ring_put(struct iio_dev_buffer *bs, unsigned int head, const void *data,
			 unsigned int take)
{
	size_t bytes = (size_t)bs->active.bytes;
	unsigned int at = head % IIO_SCAN_RING_SCANS;
	unsigned int first = take < IIO_SCAN_RING_SCANS - at ? take : IIO_SCAN_RING_SCANS - at;

	memcpy(bs->ring + at * bytes, data, first * bytes);
	memcpy(bs->ring, (const uint8_t *)data + first * bytes, (take - first) * bytes);
	atomic_store_explicit(&bs->head, head + take, memory_order_release);
}

/*
 * A batch of whole records into the ring at once: one copy per stretch of
 * the ring (two when it wraps) and one wake, where a push per scan paid an
 * atomic store, a size check and a call for each 8-byte record.
 */
int iio_push_scans(struct iio_dev *indio_dev, const void *data, unsigned int n)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	unsigned int head, tail, take;

	if (!bs || !bs->nbuffers || !bs->ring || iio_buffer_state_out(bs))
		return -EINVAL;
	head = atomic_load_explicit(&bs->head, memory_order_relaxed);
	tail = atomic_load_explicit(&bs->tail, memory_order_acquire);
	take = IIO_SCAN_RING_SCANS - (head - tail);
	if (take > n)
		take = n;
	if (n > take)	/* the newest go, as the kfifo drops new scans when full */
		atomic_fetch_add(&bs->lost, n - take);
	iio_buffer_ring_put(bs, head, data, take);
	if (take)
		iio_device_buffers_wake(indio_dev);
	return (int)take;
}

void *iio_push_room(struct iio_dev *indio_dev, unsigned int max, unsigned int *n)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	unsigned int head, tail, at;

	*n = 0;
	if (!bs || !bs->nbuffers || !bs->ring || iio_buffer_state_out(bs))
		return NULL;
	head = atomic_load_explicit(&bs->head, memory_order_relaxed);
	tail = atomic_load_explicit(&bs->tail, memory_order_acquire);
	if (IIO_SCAN_RING_SCANS - (head - tail) < max)
		return NULL;
	at = head % IIO_SCAN_RING_SCANS;
	*n = max < IIO_SCAN_RING_SCANS - at ? max : IIO_SCAN_RING_SCANS - at;
	return bs->ring + (size_t)at * (size_t)bs->active.bytes;
}

void iio_push_commit(struct iio_dev *indio_dev, unsigned int n)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	unsigned int head;

	if (!bs || !n)
		return;
	head = atomic_load_explicit(&bs->head, memory_order_relaxed);
	atomic_store_explicit(&bs->head, head + n, memory_order_release);
	iio_device_buffers_wake(indio_dev);
}

/* Whether @b takes the capture's records as they are (no demux copy). */
static bool iio_buffer_as_is(const struct iio_buffer *b, const struct iio_dev_buffer *bs)
{
	return b->layout.bytes == bs->active.bytes && b->mask == bs->active_mask &&
	       b->timestamp == bs->active_ts;
}

/*
 * Hand @b the @n scans from @scan on: one store_n() call for the stretch when
 * it takes them as they are, a demux copy and a store() per scan otherwise.
 * A stretch, not a scan, per call: at 8-byte scans the calls, checks and
 * loads per record were most of the loop's drain (bench/RESULTS.md).
 */
static void iio_buffer_hand(struct iio_buffer *b, const struct iio_dev_buffer *bs,
			    const uint8_t *scan, unsigned int n, uint64_t lost)
{
	size_t bytes = (size_t)bs->active.bytes;
	int i;

	if (!n)
		return;
	if (iio_buffer_as_is(b, bs)) {
		if (b->ops->store_n) {
			b->ops->store_n(b, scan, n, lost);
			return;
		}
		for (; n; n--, scan += bytes, lost = 0)
			b->ops->store(b, scan, lost);
		return;
	}
	for (; n; n--, scan += bytes, lost = 0) {
		memset(b->rec, 0, (size_t)b->layout.bytes);
		for (i = 0; i < b->ndemux; i++)
			memcpy(b->rec + b->demux[i].to, scan + b->demux[i].from, b->demux[i].len);
		b->ops->store(b, b->rec, lost);
	}
}

/*
 * Everything in the ring to every reader, in the ring's two stretches (the
 * second when it wraps). The scans lost since the last drain (a full ring
 * drops the newest, as the kfifo does) are handed before the first.
 */
int iio_device_buffers_drain(struct iio_dev *indio_dev)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	unsigned int head, tail, n, at, first;
	size_t bytes;
	struct iio_buffer *b;
	uint64_t lost;

	if (!bs || iio_buffer_state_out(bs))	/* the handler takes an output ring's scans */
		return 0;
	pthread_mutex_lock(&bs->list_lock);
	head = atomic_load_explicit(&bs->head, memory_order_acquire);
	tail = atomic_load_explicit(&bs->tail, memory_order_relaxed);
	n = head - tail;
	if (n) {
		bytes = (size_t)bs->active.bytes;
		lost = atomic_exchange(&bs->lost, 0);
		at = tail % IIO_SCAN_RING_SCANS;
		first = n < IIO_SCAN_RING_SCANS - at ? n : IIO_SCAN_RING_SCANS - at;
		for (b = bs->list; b; b = b->next) {
			iio_buffer_hand(b, bs, bs->ring + at * bytes, first, lost);
			iio_buffer_hand(b, bs, bs->ring, n - first, 0);
		}
		atomic_store_explicit(&bs->tail, head, memory_order_release);
	}
	pthread_mutex_unlock(&bs->list_lock);
	return (int)n;
}

void iio_device_scans_lost(struct iio_dev *indio_dev, uint64_t n)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	if (bs)
		atomic_fetch_add(&bs->lost, n);
}

int iio_device_trigger_handle(struct iio_dev *indio_dev, int64_t ts)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	int ret = -EAGAIN;

	iio_device_lock(indio_dev);
	if (bs && bs->nbuffers && !iio_device_is_gone(indio_dev))
		ret = bs->setup->handler(indio_dev, ts);
	iio_device_unlock(indio_dev);
	return ret;
}

int iio_buffer_set_trigger_locked(struct iio_dev *indio_dev, struct iio_dev_buffer *bs,
				  struct iio_trigger *trig)
{
	int ret = 0;

	if (bs->nbuffers)
		return trig == bs->trig ? 0 : -EBUSY;
	if (trig && bs->setup->software)
		return -EINVAL;
	if (trig)
		ret = iio_trigger_validate_device(trig, indio_dev, bs->setup->self_timed);
	if (!ret && trig && bs->setup->validate_trigger)
		ret = bs->setup->validate_trigger(indio_dev, trig);
	if (!ret && bs->setup->set_trigger)
		ret = bs->setup->set_trigger(indio_dev, trig);
	if (ret)
		return ret;
	iio_trigger_put(bs->trig);
	bs->trig = iio_trigger_get(trig);
	return 0;
}

int iio_device_set_trigger(struct iio_dev *indio_dev, struct iio_trigger *trig)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	int ret;

	if (!bs)
		return -ENOENT;
	iio_device_lock(indio_dev);
	ret = iio_buffer_set_trigger_locked(indio_dev, bs, trig);
	iio_device_unlock(indio_dev);
	return ret;
}

void iio_device_buffer_trigger_gone(struct iio_dev *indio_dev, struct iio_trigger *trig)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	bool match, capturing;

	if (!bs)
		return;
	/* under the lock: a store that passed validation before @trig went is done by now */
	iio_device_lock(indio_dev);
	match = bs->trig == trig;
	capturing = match && bs->nbuffers;
	iio_device_unlock(indio_dev);
	if (capturing)
		iio_buffers_end(indio_dev, -ENODEV);
	if (!match)
		return;
	iio_device_lock(indio_dev);
	match = bs->trig == trig;
	if (match)
		bs->trig = NULL;
	iio_device_unlock(indio_dev);
	if (match)
		iio_trigger_put(trig);
}
