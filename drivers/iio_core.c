/*
 * iio_core.c - ABI names and attributes of IIO devices, and access to them.
 *
 * Takes the kernel's three name tables (channel types, modifiers, info-mask
 * postfixes) from the ABI leaf (abi/iio_types.c), builds every attribute of a
 * device from its channel specs with the sharing, duplicate and ordering rules
 * of the kernel's sysfs code (reference/kernel-iio-facts.md section 1), and
 * serves reads and writes of those attributes through the driver's callbacks
 * under the device lock.
 * Place in the flow: driver (chan_spec table, callbacks) -> *core* -> server.
 *
 * Text conversion is delegated to iio_value.c; this file never formats a
 * number itself. It does not log, allocate per access, or know about the
 * wire. Its own strings (directions, sharing levels, clocks, device
 * attributes) live only in the tables below.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iio_event.h"
#include "iio_kit.h"
#include "iio_priv.h"
#include "iio_value.h"

/* The kernel's INDIO_MAX_RAW_ELEMENTS: room read_raw_multi gets for a sysfs read. */
#define IIO_CORE_RAW_ELEMENTS_MAX	4
#define IIO_CORE_MODE_RW	0644
#define IIO_CORE_MODE_RO	0444
#define IIO_CORE_MODE_READ	0444
#define IIO_CORE_MODE_WRITE	0200

static const char *const iio_core_direction[] = {
	[0] = "in",
	[1] = "out",
};

static const char *const iio_core_shared_by_names[] = {
	[IIO_SEPARATE] = "separate",
	[IIO_SHARED_BY_TYPE] = "shared_by_type",
	[IIO_SHARED_BY_DIR] = "shared_by_dir",
	[IIO_SHARED_BY_ALL] = "shared_by_all",
};

/* current_timestamp_clock values, indexed by clockid_t; holes are clocks IIO refuses. */
static const char *const iio_core_clock_names[] = {
	[CLOCK_REALTIME] = "realtime",
	[CLOCK_MONOTONIC] = "monotonic",
	[CLOCK_MONOTONIC_RAW] = "monotonic_raw",
	[CLOCK_REALTIME_COARSE] = "realtime_coarse",
	[CLOCK_MONOTONIC_COARSE] = "monotonic_coarse",
	[CLOCK_BOOTTIME] = "boottime",
	[CLOCK_TAI] = "tai",
};

/* Device-level attribute names, by kind. */
static const char *const iio_core_dev_attr_names[] = {
	[IIO_ATTR_DEV_NAME] = "name",
	[IIO_ATTR_DEV_LABEL] = "label",
	[IIO_ATTR_TS_CLOCK] = "current_timestamp_clock",
};

#define IIO_CORE_LABEL_POSTFIX		"label"
#define IIO_CORE_AVAIL_SUFFIX		"_available"

const char *iio_shared_by_name(enum iio_shared_by shared)
{
	return iio_abi_name(iio_core_shared_by_names, ARRAY_SIZE(iio_core_shared_by_names),
			    shared);
}

/*
 * Name assembly. The suffix puts the modifier before extend_name (the
 * kernel's comment says the opposite; its code, which we follow, does this).
 * Both only appear in SEPARATE names.
 */
int iio_attr_name_build(char *buf, size_t len, const struct iio_chan_spec *chan,
			const char *postfix, enum iio_shared_by shared)
{
	const char *dir = iio_core_direction[chan->output ? 1 : 0];
	const char *type = NULL, *mod = NULL;
	char suffix[IIO_ATTR_NAME_MAX];
	int n;

	if (!postfix || (unsigned int)shared > IIO_SHARED_BY_ALL)
		return -EINVAL;

	if (shared == IIO_SEPARATE && chan->modified) {
		mod = iio_modifier_name((enum iio_modifier)chan->channel2);
		if (!mod)
			return -EINVAL;
	}
	if (shared == IIO_SEPARATE || shared == IIO_SHARED_BY_TYPE) {
		type = iio_chan_type_name(chan->type);
		if (!type)
			return -EINVAL;
	}

	if (shared != IIO_SEPARATE)
		n = snprintf(suffix, sizeof(suffix), "%s", postfix);
	else if (mod && chan->extend_name)
		n = snprintf(suffix, sizeof(suffix), "%s_%s_%s", mod, chan->extend_name, postfix);
	else if (mod)
		n = snprintf(suffix, sizeof(suffix), "%s_%s", mod, postfix);
	else if (chan->extend_name)
		n = snprintf(suffix, sizeof(suffix), "%s_%s", chan->extend_name, postfix);
	else
		n = snprintf(suffix, sizeof(suffix), "%s", postfix);
	if (n < 0 || (size_t)n >= sizeof(suffix))
		return -ENAMETOOLONG;

	switch (shared) {
	case IIO_SHARED_BY_ALL:
		n = snprintf(buf, len, "%s", suffix);
		break;
	case IIO_SHARED_BY_DIR:
		n = snprintf(buf, len, "%s_%s", dir, suffix);
		break;
	case IIO_SHARED_BY_TYPE:
		if (chan->differential)
			n = snprintf(buf, len, "%s_%s-%s_%s", dir, type, type, suffix);
		else
			n = snprintf(buf, len, "%s_%s_%s", dir, type, suffix);
		break;
	case IIO_SEPARATE:
	default:
		if (chan->differential) {
			/* a differential pair is named by both indices, so it must have them */
			if (!chan->indexed)
				return -EINVAL;
			n = snprintf(buf, len, "%s_%s%d-%s%d_%s", dir, type, chan->channel,
				     type, chan->channel2, suffix);
		} else if (chan->indexed) {
			n = snprintf(buf, len, "%s_%s%d_%s", dir, type, chan->channel, suffix);
		} else {
			n = snprintf(buf, len, "%s_%s_%s", dir, type, suffix);
		}
		break;
	}
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return n;
}

int iio_chan_id(char *buf, size_t len, const struct iio_chan_spec *chan)
{
	const char *type = iio_chan_type_name(chan->type), *mod = NULL;
	char index[32] = "";
	int n;

	if (!type)
		return -EINVAL;
	if (chan->modified) {
		mod = iio_modifier_name((enum iio_modifier)chan->channel2);
		if (!mod)
			return -EINVAL;
	}
	if (chan->differential && chan->indexed)
		snprintf(index, sizeof(index), "%d-%s%d", chan->channel, type, chan->channel2);
	else if (chan->indexed)
		snprintf(index, sizeof(index), "%d", chan->channel);
	n = snprintf(buf, len, "%s%s%s%s", type, index, mod ? "_" : "", mod ? mod : "");
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return n;
}

/*
 * Datasheet names win; a channel without one answers to its ABI id, inputs
 * before outputs, so that maps can reach the channels of drivers (ad799x,
 * tsl2563, adis16400) whose kernel counterparts name none (an extension:
 * K-17 in maps/README.md).
 */
const struct iio_chan_spec *iio_device_find_channel(const struct iio_dev *indio_dev,
						    const char *label)
{
	char id[IIO_ATTR_NAME_MAX];
	int i, pass;

	if (!label)
		return NULL;
	for (i = 0; i < indio_dev->num_channels; i++) {
		const char *ds = indio_dev->channels[i].datasheet_name;

		if (ds && strcmp(ds, label) == 0)
			return &indio_dev->channels[i];
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < indio_dev->num_channels; i++) {
			const struct iio_chan_spec *chan = &indio_dev->channels[i];

			if (chan->datasheet_name || chan->channel < 0 ||
			    chan->type == IIO_TIMESTAMP || chan->output != (unsigned int)pass)
				continue;
			if (iio_chan_id(id, sizeof(id), chan) > 0 && strcmp(id, label) == 0)
				return chan;
		}
	}
	return NULL;
}

void iio_core_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* O(n) over the set; devices have at most a few hundred attributes. */
static bool iio_core_set_has(const struct iio_core_attr_set *set, const char *name)
{
	int i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->attrs[i].name, name) == 0)
			return true;
	return false;
}

/* Append one attribute unless its name exists (iio_priv.h). */
int iio_core_set_add(struct iio_core_attr_set *set, const struct iio_attr *attr)
{
	struct iio_attr *grown;
	int cap;

	if (iio_core_set_has(set, attr->name))
		return -EBUSY;
	if (set->n == set->cap) {
		cap = set->cap ? set->cap * 2 : 16;
		grown = realloc(set->attrs, (size_t)cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		set->attrs = grown;
		set->cap = cap;
	}
	set->attrs[set->n++] = *attr;
	return 0;
}

/*
 * Add a channel attribute named from @postfix at @shared. A duplicate
 * SEPARATE name is an error; a duplicate shared one is skipped so the first
 * channel in array order keeps it (and is the one read_raw is called with).
 */
static int iio_core_add_chan_attr(struct iio_core_attr_set *set, const struct iio_chan_spec *chan,
				  const char *postfix, enum iio_shared_by shared,
				  enum iio_attr_kind kind, int info, unsigned int mode,
				  const struct iio_chan_spec_ext_info *ext,
				  char *err, size_t errlen)
{
	struct iio_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	ret = iio_attr_name_build(attr.name, sizeof(attr.name), chan, postfix, shared);
	if (ret < 0) {
		iio_core_seterr(err, errlen, "cannot name attribute %s of channel %d: %s",
				postfix, chan->channel, strerror(-ret));
		return ret;
	}
	attr.kind = kind;
	attr.chan = chan;
	attr.info = info;
	attr.shared = shared;
	attr.mode = mode;
	attr.ext = ext;

	ret = iio_core_set_add(set, &attr);
	if (ret == -EBUSY) {
		if (shared != IIO_SEPARATE)
			return 0;
		iio_core_seterr(err, errlen, "duplicate attribute %s", attr.name);
	} else if (ret == -ENOMEM) {
		iio_core_seterr(err, errlen, "out of memory adding %s", attr.name);
	}
	return ret;
}

/* Every set bit of @mask at @shared, plus "_available" twins when @avail. */
static int iio_core_add_mask(struct iio_core_attr_set *set, const struct iio_chan_spec *chan,
			     unsigned long mask, enum iio_shared_by shared, bool avail,
			     char *err, size_t errlen)
{
	char postfix[IIO_ATTR_NAME_MAX];
	const char *base;
	unsigned int bit;
	int ret;

	for (bit = 0; bit < sizeof(mask) * 8; bit++) {
		if (!(mask & (1UL << bit)))
			continue;
		base = iio_chan_info_postfix((enum iio_chan_info_enum)bit);
		if (!base) {
			iio_core_seterr(err, errlen,
					"channel %d: info bit %u has no attribute name",
					chan->channel, bit);
			return -EINVAL;
		}
		if (avail) {
			snprintf(postfix, sizeof(postfix), "%s%s", base, IIO_CORE_AVAIL_SUFFIX);
			ret = iio_core_add_chan_attr(set, chan, postfix, shared, IIO_ATTR_AVAIL,
						     (int)bit, IIO_CORE_MODE_RO, NULL, err, errlen);
		} else {
			ret = iio_core_add_chan_attr(set, chan, base, shared, IIO_ATTR_INFO,
						     (int)bit, IIO_CORE_MODE_RW, NULL, err, errlen);
		}
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int iio_core_add_channel(struct iio_core_attr_set *set, const struct iio_dev *indio_dev,
				const struct iio_chan_spec *chan, char *err, size_t errlen)
{
	const struct {
		unsigned long mask;
		enum iio_shared_by shared;
		bool avail;
	} levels[] = {
		{ chan->info_mask_separate, IIO_SEPARATE, false },
		{ chan->info_mask_separate_available, IIO_SEPARATE, true },
		{ chan->info_mask_shared_by_type, IIO_SHARED_BY_TYPE, false },
		{ chan->info_mask_shared_by_type_available, IIO_SHARED_BY_TYPE, true },
		{ chan->info_mask_shared_by_dir, IIO_SHARED_BY_DIR, false },
		{ chan->info_mask_shared_by_dir_available, IIO_SHARED_BY_DIR, true },
		{ chan->info_mask_shared_by_all, IIO_SHARED_BY_ALL, false },
		{ chan->info_mask_shared_by_all_available, IIO_SHARED_BY_ALL, true },
	};
	const struct iio_chan_spec_ext_info *ext;
	unsigned int mode;
	size_t i;
	int ret;

	/* negative indices (the soft timestamp's -1) mark channels with no attributes */
	if (chan->channel < 0)
		return 0;

	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		ret = iio_core_add_mask(set, chan, levels[i].mask, levels[i].shared,
					levels[i].avail, err, errlen);
		if (ret < 0)
			return ret;
	}

	if ((indio_dev->info && indio_dev->info->read_label) || chan->extend_name) {
		ret = iio_core_add_chan_attr(set, chan, IIO_CORE_LABEL_POSTFIX, IIO_SEPARATE,
					     IIO_ATTR_LABEL, 0, IIO_CORE_MODE_RO, NULL,
					     err, errlen);
		if (ret < 0)
			return ret;
	}

	for (ext = chan->ext_info, i = 0; ext && ext->name; ext++, i++) {
		mode = (ext->read ? IIO_CORE_MODE_READ : 0) |
		       (ext->write ? IIO_CORE_MODE_WRITE : 0);
		ret = iio_core_add_chan_attr(set, chan, ext->name, ext->shared, IIO_ATTR_EXT,
					     (int)i, mode, ext, err, errlen);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int iio_core_add_dev_attr(struct iio_core_attr_set *set, enum iio_attr_kind kind,
				 unsigned int mode, char *err, size_t errlen)
{
	struct iio_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	snprintf(attr.name, sizeof(attr.name), "%s", iio_core_dev_attr_names[kind]);
	attr.kind = kind;
	attr.shared = IIO_SHARED_BY_ALL;
	attr.mode = mode;
	ret = iio_core_set_add(set, &attr);
	/* a channel ext_info shared by all could already be called "name" */
	if (ret == -EBUSY)
		iio_core_seterr(err, errlen, "duplicate attribute %s", attr.name);
	else if (ret == -ENOMEM)
		iio_core_seterr(err, errlen, "out of memory adding %s", attr.name);
	return ret;
}

void iio_device_set_attrs(struct iio_dev *indio_dev, const struct iio_attr *attrs, int n)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);

	op->preset = attrs;
	op->npreset = n;
}

void iio_device_request_id(struct iio_dev *indio_dev, int id)
{
	to_iio_dev_opaque(indio_dev)->want_id = id;
}

/* A given attribute set (iio_device_set_attrs()): copied, with the duplicate check. */
static int iio_core_attrs_copy(struct iio_dev *indio_dev, char *err, size_t errlen)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	struct iio_core_attr_set set = { NULL, 0, 0 };
	int i, ret;

	for (i = 0; i < op->npreset; i++) {
		ret = iio_core_set_add(&set, &op->preset[i]);
		if (ret < 0) {
			iio_core_seterr(err, errlen, "%s attribute %s",
					ret == -EBUSY ? "duplicate" : "out of memory adding",
					op->preset[i].name);
			free(set.attrs);
			return ret;
		}
	}
	iio_device_attrs_free(indio_dev);
	op->attrs = set.attrs;
	op->nattrs = set.n;
	return 0;
}

int iio_device_attrs_build(struct iio_dev *indio_dev, char *err, size_t errlen)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	struct iio_core_attr_set set = { NULL, 0, 0 };
	bool has_timestamp = false;
	int i, ret;

	if (op->preset)
		return iio_core_attrs_copy(indio_dev, err, errlen);
	for (i = 0; i < indio_dev->num_channels; i++) {
		const struct iio_chan_spec *chan = &indio_dev->channels[i];

		/* checked before the index test: the soft timestamp has channel -1 */
		if (chan->type == IIO_TIMESTAMP)
			has_timestamp = true;
		ret = iio_core_add_channel(&set, indio_dev, chan, err, errlen);
		if (ret < 0)
			goto err_free_set;
	}

	if (indio_dev->name) {
		ret = iio_core_add_dev_attr(&set, IIO_ATTR_DEV_NAME, IIO_CORE_MODE_RO, err, errlen);
		if (ret < 0)
			goto err_free_set;
	}
	if (indio_dev->label) {
		ret = iio_core_add_dev_attr(&set, IIO_ATTR_DEV_LABEL, IIO_CORE_MODE_RO,
					    err, errlen);
		if (ret < 0)
			goto err_free_set;
	}
	/*
	 * Only a timestamp channel brings the clock file. The kernel's
	 * iio_device_register_sysfs() would add it for an event interface too,
	 * but runs before iio_device_register_eventset() creates one, so on 6.1
	 * a device with events and no timestamp channel (tsl2563) has none;
	 * its events are still stamped on the device's clock.
	 */
	if (has_timestamp) {
		ret = iio_core_add_dev_attr(&set, IIO_ATTR_TS_CLOCK, IIO_CORE_MODE_RW,
					    err, errlen);
		if (ret < 0)
			goto err_free_set;
	}
	ret = iio_event_attrs_add(&set, indio_dev, err, errlen);
	if (ret < 0)
		goto err_free_set;

	iio_device_attrs_free(indio_dev);
	op->attrs = set.attrs;
	op->nattrs = set.n;
	return 0;

err_free_set:
	free(set.attrs);
	return ret;
}

void iio_device_attrs_free(struct iio_dev *indio_dev)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);

	free(op->attrs);
	op->attrs = NULL;
	op->nattrs = 0;
}

int iio_device_attr_count(const struct iio_dev *indio_dev)
{
	return to_iio_dev_opaque(indio_dev)->nattrs;
}

const struct iio_attr *iio_device_attr_at(const struct iio_dev *indio_dev, int i)
{
	const struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);

	if (i < 0 || i >= op->nattrs)
		return NULL;
	return &op->attrs[i];
}

const struct iio_attr *iio_device_attr_find(const struct iio_dev *indio_dev, const char *name)
{
	const struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	int i;

	if (!name)
		return NULL;
	for (i = 0; i < op->nattrs; i++)
		if (strcmp(op->attrs[i].name, name) == 0)
			return &op->attrs[i];
	return iio_device_buffer_attr_find(indio_dev, name);
}

/* "text\n" into buf; Return: length or -EFBIG. */
static ssize_t iio_core_emit_line(char *buf, size_t len, const char *text)
{
	size_t cap = len < IIO_VALUE_MAX_BYTES ? len : IIO_VALUE_MAX_BYTES;
	int n;

	if (!cap)
		return -EFBIG;
	n = snprintf(buf, cap, "%s\n", text);
	if (n < 0 || (size_t)n >= cap)
		return -EFBIG;
	return n;
}

/* Called with the device lock held: read_raw_multi if present, else read_raw. */
static int iio_core_read_raw_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				    int *vals, int max, int *n)
{
	const struct iio_info *info = indio_dev->info;

	*n = 2;
	if (info && info->read_raw_multi)
		return info->read_raw_multi(indio_dev, attr->chan, max, vals, n, attr->info);
	if (!info || !info->read_raw)
		return -EINVAL;
	if (max < 2)
		return -EINVAL;
	/* drivers returning IIO_VAL_INT usually leave val2 alone: keep it defined */
	vals[0] = 0;
	vals[1] = 0;
	return info->read_raw(indio_dev, attr->chan, &vals[0], &vals[1], attr->info);
}

static ssize_t iio_core_read_label_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
					  char *buf, size_t len)
{
	char label[IIO_LABEL_MAX];
	int ret;

	if (indio_dev->info && indio_dev->info->read_label) {
		memset(label, 0, sizeof(label));
		ret = indio_dev->info->read_label(indio_dev, attr->chan, label);
		if (ret < 0)
			return ret;
		if (ret >= IIO_LABEL_MAX)
			return -EFBIG;
		label[ret] = '\0';
		if ((size_t)ret >= len)
			return -EFBIG;
		memcpy(buf, label, (size_t)ret + 1);
		return ret;
	}
	if (attr->chan->extend_name)
		return iio_core_emit_line(buf, len, attr->chan->extend_name);
	return -EINVAL;
}

static ssize_t iio_core_read_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				    char *buf, size_t len)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	int vals[IIO_CORE_RAW_ELEMENTS_MAX];
	const int *avail_vals;
	int ret, n, type, length;

	if (indio_dev->info && indio_dev->info->read_text) {
		if (!len)
			return -EFBIG;
		return indio_dev->info->read_text(indio_dev, attr, buf, len);
	}
	switch (attr->kind) {
	case IIO_ATTR_INFO:
		ret = iio_core_read_raw_locked(indio_dev, attr, vals,
					       IIO_CORE_RAW_ELEMENTS_MAX, &n);
		if (ret < 0)
			return ret;
		if (n < 0 || n > IIO_CORE_RAW_ELEMENTS_MAX)
			return -EINVAL;
		return iio_format_value(buf, len, ret, n, vals);
	case IIO_ATTR_AVAIL:
		if (!indio_dev->info || !indio_dev->info->read_avail)
			return -EINVAL;
		ret = indio_dev->info->read_avail(indio_dev, attr->chan, &avail_vals, &type,
						  &length, attr->info);
		if (ret < 0)
			return ret;
		return iio_format_avail(buf, len, ret, type, avail_vals, length);
	case IIO_ATTR_LABEL:
		return iio_core_read_label_locked(indio_dev, attr, buf, len);
	case IIO_ATTR_EXT:
		if (!len)
			return -EFBIG;
		ret = attr->ext->read(indio_dev, attr->ext->private, attr->chan, buf, len);
		if (ret < 0)
			return ret;
		if ((size_t)ret >= len)
			return -EFBIG;
		buf[ret] = '\0';
		return ret;
	case IIO_ATTR_DEV_NAME:
		return iio_core_emit_line(buf, len, indio_dev->name);
	case IIO_ATTR_DEV_LABEL:
		return iio_core_emit_line(buf, len, indio_dev->label);
	case IIO_ATTR_TS_CLOCK:
		if ((size_t)op->clock_id >= ARRAY_SIZE(iio_core_clock_names) ||
		    !iio_core_clock_names[op->clock_id])
			return -EINVAL;
		return iio_core_emit_line(buf, len, iio_core_clock_names[op->clock_id]);
	case IIO_ATTR_TEXT:
		break;	/* only a device with read_text has these */
	case IIO_ATTR_BUFFER:
		return iio_buffer_attr_read_locked(indio_dev, attr, buf, len);
	case IIO_ATTR_EVENT:
	case IIO_ATTR_DEVICE:
		return iio_event_attr_read_locked(indio_dev, attr, buf, len);
	}
	return -EINVAL;
}

ssize_t iio_attr_read(struct iio_dev *indio_dev, const struct iio_attr *attr,
		      char *buf, size_t len)
{
	ssize_t ret;

	if (!indio_dev || !attr || !buf)
		return -EINVAL;
	iio_device_lock(indio_dev);
	if (iio_device_is_gone(indio_dev))
		ret = -ENODEV;
	else if (!(attr->mode & IIO_CORE_MODE_READ))
		ret = -EACCES;
	else
		ret = iio_core_read_locked(indio_dev, attr, buf, len);
	iio_device_unlock(indio_dev);
	return ret;
}

int iio_attr_read_value(struct iio_dev *indio_dev, const struct iio_attr *attr,
			int *vals, int max, int *n)
{
	int ret, count;

	if (!indio_dev || !attr || !vals || !n)
		return -EINVAL;
	iio_device_lock(indio_dev);
	if (iio_device_is_gone(indio_dev))
		ret = -ENODEV;
	else if (attr->kind != IIO_ATTR_INFO)
		ret = -EINVAL;
	else
		ret = iio_core_read_raw_locked(indio_dev, attr, vals, max, &count);
	iio_device_unlock(indio_dev);
	if (ret < 0)
		return ret;
	if (count < 0 || count > max)
		return -EINVAL;
	*n = count;
	return ret;
}

/* sysfs_streq(): equal, allowing one trailing newline on the written text. */
static bool iio_core_streq_nl(const char *written, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(written, name, n) != 0)
		return false;
	return written[n] == '\0' || (written[n] == '\n' && written[n + 1] == '\0');
}

static int iio_core_write_clock_locked(struct iio_dev *indio_dev, const char *text)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(iio_core_clock_names); i++) {
		if (iio_core_clock_names[i] && iio_core_streq_nl(text, iio_core_clock_names[i])) {
			to_iio_dev_opaque(indio_dev)->clock_id = (clockid_t)i;
			return 0;
		}
	}
	return -EINVAL;
}

static int iio_core_write_info_locked(struct iio_dev *indio_dev, const struct iio_attr *attr,
				      const char *text)
{
	const struct iio_info *info = indio_dev->info;
	int fmt = IIO_VAL_INT_PLUS_MICRO;
	int val, val2, ret;

	if (!info || !info->write_raw)
		return -EINVAL;
	if (info->write_raw_get_fmt)
		fmt = info->write_raw_get_fmt(indio_dev, attr->chan, attr->info);
	/* ERANGE where the kernel wraps (PROTOCOL.md, WRITE) */
	ret = iio_parse_value_checked(text, fmt, &val, &val2);
	if (ret < 0)
		return ret;
	return info->write_raw(indio_dev, attr->chan, val, val2, attr->info);
}

int iio_attr_write(struct iio_dev *indio_dev, const struct iio_attr *attr,
		   const char *buf, size_t len)
{
	char text[IIO_VALUE_MAX_BYTES];
	int ret;

	if (!indio_dev || !attr || (!buf && len))
		return -EINVAL;
	/* sysfs hands drivers at most a page, NUL-terminated after what was written */
	if (len >= sizeof(text))
		return -EINVAL;
	if (len)
		memcpy(text, buf, len);
	text[len] = '\0';

	iio_device_lock(indio_dev);
	if (iio_device_is_gone(indio_dev)) {
		ret = -ENODEV;
		goto out_unlock;
	}
	if (!(attr->mode & IIO_CORE_MODE_WRITE)) {
		ret = -EACCES;
		goto out_unlock;
	}
	if (indio_dev->info && indio_dev->info->write_text) {
		ret = indio_dev->info->write_text(indio_dev, attr, text, len);
		goto out_unlock;
	}
	switch (attr->kind) {
	case IIO_ATTR_INFO:
		ret = iio_core_write_info_locked(indio_dev, attr, text);
		break;
	case IIO_ATTR_EXT:
		ret = attr->ext->write(indio_dev, attr->ext->private, attr->chan, text, len);
		if (ret > 0)
			ret = 0;
		break;
	case IIO_ATTR_TS_CLOCK:
		ret = iio_core_write_clock_locked(indio_dev, text);
		break;
	case IIO_ATTR_BUFFER:
		ret = iio_buffer_attr_write_locked(indio_dev, attr, text);
		break;
	case IIO_ATTR_EVENT:
	case IIO_ATTR_DEVICE:
		ret = iio_event_attr_write_locked(indio_dev, attr, text, len);
		break;
	default:
		ret = -EACCES;
		break;
	}
out_unlock:
	iio_device_unlock(indio_dev);
	return ret;
}

/* The info mask an INFO (or AVAIL, @avail) attribute of sharing @shared comes from. */
static unsigned long iio_core_chan_mask(const struct iio_chan_spec *chan,
					enum iio_shared_by shared, bool avail)
{
	switch (shared) {
	case IIO_SEPARATE:
		return avail ? chan->info_mask_separate_available : chan->info_mask_separate;
	case IIO_SHARED_BY_TYPE:
		return avail ? chan->info_mask_shared_by_type_available :
			chan->info_mask_shared_by_type;
	case IIO_SHARED_BY_DIR:
		return avail ? chan->info_mask_shared_by_dir_available :
			chan->info_mask_shared_by_dir;
	case IIO_SHARED_BY_ALL:
		return avail ? chan->info_mask_shared_by_all_available :
			chan->info_mask_shared_by_all;
	}
	return 0;
}

/*
 * The postfix @chan would build @attr from ("scale", "scale_available", an
 * ext_info name), when @chan declares it at @attr's sharing level.
 * Return: true with @buf filled, false when @chan declares no such thing.
 */
static bool iio_core_chan_postfix(const struct iio_chan_spec *chan, const struct iio_attr *attr,
				  char *buf, size_t len)
{
	const struct iio_chan_spec_ext_info *ext;
	bool avail = attr->kind == IIO_ATTR_AVAIL;
	const char *base;

	switch (attr->kind) {
	case IIO_ATTR_INFO:
	case IIO_ATTR_AVAIL:
		if (!(iio_core_chan_mask(chan, attr->shared, avail) & (1UL << attr->info)))
			return false;
		base = iio_chan_info_postfix((enum iio_chan_info_enum)attr->info);
		if (!base)
			return false;
		snprintf(buf, len, "%s%s", base, avail ? IIO_CORE_AVAIL_SUFFIX : "");
		return true;
	case IIO_ATTR_EXT:
		for (ext = chan->ext_info; ext && ext->name; ext++)
			if (ext->shared == attr->shared && strcmp(ext->name, attr->ext->name) == 0)
				break;
		if (!ext || !ext->name)
			return false;
		snprintf(buf, len, "%s", ext->name);
		return true;
	default:
		return false;
	}
}

bool iio_chan_has_attr(const struct iio_chan_spec *chan, const struct iio_attr *attr)
{
	char postfix[IIO_ATTR_NAME_MAX], name[IIO_ATTR_NAME_MAX];

	if (!attr->chan)
		return false;	/* device attributes belong to no channel */
	if (attr->chan == chan)
		return true;
	if (attr->shared == IIO_SEPARATE || !iio_core_chan_postfix(chan, attr, postfix,
								   sizeof(postfix)))
		return false;
	/* a shared attribute is added once: channels that would name it alike share it */
	return iio_attr_name_build(name, sizeof(name), chan, postfix, attr->shared) >= 0 &&
	       strcmp(name, attr->name) == 0;
}
