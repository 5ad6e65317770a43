/*
 * iio_buffer_attr.c - the files of a buffered device's buffer 0:
 * scan_elements/ (<stem>_en, _index, _type), buffer/ and buffer0/ (length,
 * enable, watermark, data_available, direction; buffer0/ also holds the scan
 * elements, as since 5.11), and trigger/current_trigger. An output
 * device's show direction "out" and, in data_available, the scans queued
 * and not played yet (kfifo_len of the kernel's output kfifo).
 *
 * Texts, modes and errors are industrialio-buffer.c's and
 * industrialio-trigger.c's: kstrtobool and base-10 kstrtouint parsing,
 * -EBUSY while buffer 0 runs, the subset test against available_scan_masks
 * when a bit is set, a kfifo length of at least 2, watermark 0 or above the
 * length -EINVAL, a current_trigger name matching nothing clearing the
 * trigger, an empty read when none is set. Buffer 0 is a kfifo that only
 * counts its scans (data_available): nobody reads it over the network.
 * The attribute list is kept apart from the device's flat list so that
 * ATTRS and the iiod XML show the device directory itself, as sysfs does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_buffer_priv.h"
#include "iio_registry.h"
#include "iio_value.h"

/* scan element postfixes, in the order they are listed per channel */
static const char *const iio_buffer_scan_postfix[] = {
	[IIO_BATTR_SCAN_EN] = "en",
	[IIO_BATTR_SCAN_INDEX] = "index",
	[IIO_BATTR_SCAN_TYPE] = "type",
};

static const unsigned int iio_buffer_scan_mode[] = {
	[IIO_BATTR_SCAN_EN] = 0644,
	[IIO_BATTR_SCAN_INDEX] = 0444,
	[IIO_BATTR_SCAN_TYPE] = 0444,
};

/* iio_buffer_attrs[] of industrialio-buffer.c, in its order, with their modes */
static const struct {
	const char *name;
	enum iio_battr kind;
	unsigned int mode;
} iio_buffer_files[] = {
	{ "length", IIO_BATTR_LENGTH, 0644 },
	{ "enable", IIO_BATTR_ENABLE, 0644 },
	{ "watermark", IIO_BATTR_WATERMARK, 0644 },
	{ "data_available", IIO_BATTR_DATA_AVAILABLE, 0444 },
	{ "direction", IIO_BATTR_DIRECTION, 0444 },
};

/* the legacy pair for buffer 0, then the 5.11+ directory holding both */
#define IIO_BUFFER_DIR_SCAN	"scan_elements"
#define IIO_BUFFER_DIR_LEGACY	"buffer"
#define IIO_BUFFER_DIR_0	"buffer0"
#define IIO_BUFFER_TRIGGER_ATTR	"trigger/current_trigger"

/* ---- building the list ---- */

struct iio_battr_set {
	struct iio_attr *a;
	int n, cap;
};

static int iio_battr_add(struct iio_battr_set *set, const char *name, enum iio_battr kind,
			 const struct iio_chan_spec *chan, unsigned int mode)
{
	struct iio_attr *a;

	if (set->n == set->cap) {
		int cap = set->cap ? set->cap * 2 : 32;

		a = realloc(set->a, (size_t)cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		set->a = a;
		set->cap = cap;
	}
	a = &set->a[set->n++];
	memset(a, 0, sizeof(*a));
	if (snprintf(a->name, sizeof(a->name), "%s", name) >= (int)sizeof(a->name)) {
		set->n--;
		return -ENAMETOOLONG;
	}
	a->kind = IIO_ATTR_BUFFER;
	a->info = (int)kind;
	a->chan = chan;
	a->shared = IIO_SEPARATE;
	a->mode = mode;
	return 0;
}

static int iio_battr_add_scan(struct iio_battr_set *set, const struct iio_dev *indio_dev,
			      const char *dir)
{
	char stem[IIO_ATTR_NAME_MAX], name[IIO_ATTR_NAME_MAX];
	size_t k;
	int i, ret;

	for (i = 0; i < indio_dev->num_channels; i++) {
		const struct iio_chan_spec *chan = &indio_dev->channels[i];

		if (chan->scan_index < 0)
			continue;
		for (k = 0; k < ARRAY_SIZE(iio_buffer_scan_postfix); k++) {
			ret = iio_attr_name_build(stem, sizeof(stem), chan,
						  iio_buffer_scan_postfix[k], IIO_SEPARATE);
			if (ret < 0)
				return ret;
			if (snprintf(name, sizeof(name), "%s/%s", dir, stem) >= (int)sizeof(name))
				return -ENAMETOOLONG;
			ret = iio_battr_add(set, name, (enum iio_battr)k, chan,
					    iio_buffer_scan_mode[k]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int iio_battr_add_files(struct iio_battr_set *set, const char *dir)
{
	char name[IIO_ATTR_NAME_MAX];
	size_t k;
	int ret;

	for (k = 0; k < ARRAY_SIZE(iio_buffer_files); k++) {
		if (snprintf(name, sizeof(name), "%s/%s", dir, iio_buffer_files[k].name) >=
		    (int)sizeof(name))
			return -ENAMETOOLONG;
		ret = iio_battr_add(set, name, iio_buffer_files[k].kind, NULL,
				    iio_buffer_files[k].mode);
		if (ret)
			return ret;
	}
	return 0;
}

int iio_buffer_attrs_build(struct iio_dev *indio_dev)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	struct iio_battr_set set = { NULL, 0, 0 };
	int i, ret;

	if (!bs)
		return 0;
	for (i = 0; i < indio_dev->num_channels; i++)
		if (indio_dev->channels[i].scan_index >= IIO_SCAN_INDEX_MAX)
			return -EINVAL;
	ret = iio_battr_add_scan(&set, indio_dev, IIO_BUFFER_DIR_SCAN);
	if (!ret)
		ret = iio_battr_add_files(&set, IIO_BUFFER_DIR_LEGACY);
	if (!ret)
		ret = iio_battr_add_files(&set, IIO_BUFFER_DIR_0);
	if (!ret)
		ret = iio_battr_add_scan(&set, indio_dev, IIO_BUFFER_DIR_0);
	/* INDIO_BUFFER_SOFTWARE alone: the kernel registers no trigger consumer, so no trigger/ */
	if (!ret && !bs->setup->software)
		ret = iio_battr_add(&set, IIO_BUFFER_TRIGGER_ATTR, IIO_BATTR_CURRENT_TRIGGER,
				    NULL, 0644);
	if (ret) {
		free(set.a);
		return ret;
	}
	free(bs->attrs);
	bs->attrs = set.a;
	bs->nattrs = set.n;
	return 0;
}

int iio_device_buffer_attr_count(const struct iio_dev *indio_dev)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	return bs ? bs->nattrs : 0;
}

const struct iio_attr *iio_device_buffer_attr_at(const struct iio_dev *indio_dev, int i)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);

	if (!bs || i < 0 || i >= bs->nattrs)
		return NULL;
	return &bs->attrs[i];
}

const struct iio_attr *iio_device_buffer_attr_find(const struct iio_dev *indio_dev,
						   const char *name)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	int i;

	for (i = 0; bs && i < bs->nattrs; i++)
		if (strcmp(bs->attrs[i].name, name) == 0)
			return &bs->attrs[i];
	return NULL;
}

/* ---- parsing as the kernel ---- */

/* kstrtouint(s, 10): optional '+', decimal digits, one optional '\n'. */
static int iio_battr_kstrtouint(const char *s, unsigned int *res)
{
	unsigned long long v = 0;

	if (*s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned int)(*s - '0');
		if (v > 0xffffffffULL)
			return -ERANGE;
	}
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = (unsigned int)v;
	return 0;
}

/* ---- buffer 0, a kfifo that counts ---- */

static unsigned int iio_battr_kfifo_cap(unsigned int length)
{
	unsigned int cap = 1;

	while (cap < length && cap < 0x80000000U)
		cap <<= 1;
	return cap;
}

static void iio_battr_buf0_store(struct iio_buffer *buf, const uint8_t *rec, uint64_t lost)
{
	struct iio_dev_buffer *bs = buf->priv;

	(void)rec;
	(void)lost;
	/* a full kfifo drops the new scan */
	if (bs->kfifo_count < iio_battr_kfifo_cap(bs->length))
		bs->kfifo_count++;
}

static const struct iio_buffer_ops iio_battr_buf0_ops = {
	.store = iio_battr_buf0_store,
};

static int iio_battr_write_enable(struct iio_dev *indio_dev, struct iio_dev_buffer *bs, bool on)
{
	int ret;

	if (on == bs->enabled0)
		return 0;
	if (!on) {
		iio_buffer_detach_locked(indio_dev, &bs->buf0);
		bs->enabled0 = false;
		return 0;
	}
	bs->buf0.ops = &iio_battr_buf0_ops;
	bs->buf0.priv = bs;
	bs->buf0.mask = bs->mask0;
	bs->buf0.timestamp = bs->ts0;
	bs->buf0.direction = bs->setup->direction;	/* nobody writes it: each pop underruns */
	bs->kfifo_count = 0;
	ret = iio_buffer_attach_locked(indio_dev, &bs->buf0, NULL, 0);
	if (!ret)
		bs->enabled0 = true;
	return ret;
}

/* _en: -EBUSY while buffer 0 runs; setting a bit needs an available mask holding the result. */
static int iio_battr_write_scan_en(struct iio_dev_buffer *bs, const struct iio_chan_spec *chan,
				   bool on)
{
	uint64_t want;
	const uint64_t *m;

	if (bs->enabled0)
		return -EBUSY;
	if (chan->type == IIO_TIMESTAMP) {
		bs->ts0 = on;
		return 0;
	}
	want = 1ULL << chan->scan_index;
	if (!on) {
		bs->mask0 &= ~want;
		return 0;
	}
	want |= bs->mask0;
	if (bs->masks) {
		for (m = bs->masks; *m; m++)
			if ((*m & want) == want)
				break;
		if (!*m)
			return -EINVAL;
	}
	bs->mask0 = want;
	return 0;
}

/* current_trigger_store: a name matching nothing clears the trigger */
static int iio_battr_write_trigger(struct iio_dev *indio_dev, struct iio_dev_buffer *bs,
				   const char *text)
{
	struct iio_trigger *trig;
	char name[IIO_TRIGGER_NAME_MAX + 2];
	size_t n;
	int ret;

	if (bs->nbuffers)
		return -EBUSY;
	snprintf(name, sizeof(name), "%s", text);
	n = strlen(name);
	if (n && name[n - 1] == '\n')
		name[n - 1] = '\0';
	trig = iio_trigger_find_get(bs->reg, name);
	ret = iio_buffer_set_trigger_locked(indio_dev, bs, trig);
	iio_trigger_put(trig);
	return ret;
}

static int iio_battr_write_length(struct iio_dev_buffer *bs, unsigned int val)
{
	if (val == bs->length)
		return 0;
	if (bs->enabled0)
		return -EBUSY;
	bs->length = val < IIO_KFIFO_LENGTH_MIN ? IIO_KFIFO_LENGTH_MIN : val;
	if (bs->watermark > bs->length)
		bs->watermark = bs->length;
	return 0;
}

static int iio_battr_write_watermark(struct iio_dev_buffer *bs, unsigned int val)
{
	if (!val)
		return -EINVAL;
	if (bs->enabled0)
		return -EBUSY;
	if (val > bs->length)
		return -EINVAL;
	bs->watermark = val;
	return 0;
}

int iio_buffer_attr_write_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				 const char *text)
{
	struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	unsigned int val;
	bool on;
	int ret;

	if (!bs)
		return -ENOENT;
	switch ((enum iio_battr)attr->info) {
	case IIO_BATTR_SCAN_EN:
		ret = iio_kstrtobool(text, &on);
		return ret ? ret : iio_battr_write_scan_en(bs, attr->chan, on);
	case IIO_BATTR_ENABLE:
		ret = iio_kstrtobool(text, &on);
		return ret ? ret : iio_battr_write_enable(indio_dev, bs, on);
	case IIO_BATTR_LENGTH:
		ret = iio_battr_kstrtouint(text, &val);
		return ret ? ret : iio_battr_write_length(bs, val);
	case IIO_BATTR_WATERMARK:
		ret = iio_battr_kstrtouint(text, &val);
		return ret ? ret : iio_battr_write_watermark(bs, val);
	case IIO_BATTR_CURRENT_TRIGGER:
		return iio_battr_write_trigger(indio_dev, bs, text);
	default:
		return -EACCES;
	}
}

static ssize_t iio_battr_printf(char *buf, size_t len, const char *fmt, unsigned int v)
	__attribute__((format(printf, 3, 0)));

static ssize_t iio_battr_printf(char *buf, size_t len, const char *fmt, unsigned int v)
{
	int n = snprintf(buf, len, fmt, v);

	return n < 0 || (size_t)n >= len ? -EFBIG : n;
}

ssize_t iio_buffer_attr_read_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				    char *buf, size_t len)
{
	const struct iio_dev_buffer *bs = iio_buffer_state(indio_dev);
	const struct iio_chan_spec *chan = attr->chan;
	bool en;

	if (!bs || !len)
		return -EINVAL;
	switch ((enum iio_battr)attr->info) {
	case IIO_BATTR_SCAN_EN:
		en = chan->type == IIO_TIMESTAMP ? bs->ts0 :
		     !!(bs->mask0 & (1ULL << chan->scan_index));
		return iio_battr_printf(buf, len, "%u\n", en);
	case IIO_BATTR_SCAN_INDEX:
		return iio_battr_printf(buf, len, "%u\n", (unsigned int)chan->scan_index);
	case IIO_BATTR_SCAN_TYPE:
		return iio_scan_type_format(chan, buf, len) < 0 ? -EFBIG : (ssize_t)strlen(buf);
	case IIO_BATTR_LENGTH:
		return iio_battr_printf(buf, len, "%u\n", bs->length);
	case IIO_BATTR_ENABLE:
		return iio_battr_printf(buf, len, "%u\n", bs->enabled0);
	case IIO_BATTR_WATERMARK:
		return iio_battr_printf(buf, len, "%u\n", bs->watermark);
	case IIO_BATTR_DATA_AVAILABLE:	/* an output kfifo's length: scans not played yet */
		return iio_battr_printf(buf, len, "%u\n", iio_buffer_state_out(bs) ?
					iio_buffer_queued(indio_dev) : bs->kfifo_count);
	case IIO_BATTR_DIRECTION:
		return iio_battr_printf(buf, len, iio_buffer_state_out(bs) ? "out\n%.0u" :
					"in\n%.0u", 0);
	case IIO_BATTR_CURRENT_TRIGGER:
		if (!bs->trig) {
			buf[0] = '\0';
			return 0;	/* not even a newline */
		}
		return snprintf(buf, len, "%s\n", bs->trig->name) >= (int)len ? -EFBIG :
		       (ssize_t)strlen(buf);
	}
	return -EINVAL;
}
