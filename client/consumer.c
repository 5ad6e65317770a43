/*
 * consumer.c - libiiowire's consumer API: the kernel's inkern.c calls
 * (iio_channel_get(), iio_read_channel_raw(), ...) over the wire.
 *
 * Place in the flow: a consumer program or the hwmon bridge -> *consumer.c*
 * -> request.c -> wire -> the daemon's consumer code. A channel handle keeps
 * the consumer and channel names; every read is a CREAD that the daemon
 * resolves through its maps, so values, formats and errors (-ENODEV once
 * the provider is gone, -EINVAL for a missing scale) are the kernel's.
 * Processed values are computed on the daemon (CREAD processed, with the
 * caller's multiplier); iiowire_convert_raw_to_processed() alone computes
 * here, with the core's own arithmetic (drivers/abi/iio_value.c). After a
 * reconnect a channel is looked up again before its next read.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "iio_value.h"
#include "iiowire_priv.h"
#include "iiowire_req.h"

/* Keep in step with struct iiowire_channel's doc in iiowire.h. */
struct iiowire_channel {
	struct iiowire *w;		/* borrowed: must outlive the channel */
	char *consumer;			/* owned, as are all strings below */
	char *channel;			/* the name CREAD uses; NULL: not known (yet) */
	bool first;			/* asked for the consumer's first map, not a name */
	char *name;			/* the map's channel name, "" if none */
	char *device;			/* provider "iio:deviceN", as last looked up */
	char *datasheet_name;
	unsigned int gen;		/* w->reconnects when last looked up */
};

/* Replace *@dst with a copy of @src (NULL -> ""). Return: 0, -ENOMEM (then unchanged). */
static int iiowire_consumer_set(char **dst, const char *src)
{
	char *copy = strdup(src ? src : "");

	if (!copy)
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

/* One CREAD; the caller finalises @r. Return: 0, or -errno. */
static int iiowire_consumer_cread(struct iiowire_channel *ch, enum proto_what what,
				  unsigned int multiplier, struct proto_reply *r)
{
	struct proto_request req = {
		.op = PROTO_OP_CREAD, .consumer = ch->consumer, .channel = ch->channel,
		.what = what, .multiplier = multiplier,
	};

	if (!ch->channel) {
		/* CREAD names the consumer channel; a map without a name cannot be read */
		memset(r, 0, sizeof(*r));
		iiowire_err_set(ch->w, "%s: the map has no consumer channel name to read it by",
				ch->consumer);
		return -EOPNOTSUPP;
	}
	return iiowire_req_run(ch->w, &req, true, r);
}

/*
 * Fill the provider names of @ch from a CONSUMER listing: the map named
 * ch->channel, or the first one when @ch asked for the consumer's first.
 * Return: 0, -ENODEV (no such map), or -errno of the listing.
 */
static int iiowire_consumer_describe(struct iiowire_channel *ch)
{
	struct proto_request req = { .op = PROTO_OP_CONSUMER, .consumer = ch->consumer };
	const struct proto_consumer_info *c;
	struct proto_reply r;
	int i, ret;

	ret = iiowire_req_run(ch->w, &req, true, &r);
	for (i = 0; ret == 0 && i < r.nitems; i++) {
		c = &r.consumer[i];
		if (!ch->first && (!c->channel || strcmp(c->channel, ch->channel) != 0))
			continue;
		if (iiowire_consumer_set(&ch->name, c->channel) < 0 ||
		    iiowire_consumer_set(&ch->device, c->device) < 0 ||
		    iiowire_consumer_set(&ch->datasheet_name, c->datasheet_name) < 0) {
			ret = -ENOMEM;
		} else if (ch->first) {
			free(ch->channel);
			ch->channel = c->channel ? strdup(c->channel) : NULL;
			if (c->channel && !ch->channel)
				ret = -ENOMEM;
		}
		proto_reply_fini(&r);
		return ret;
	}
	proto_reply_fini(&r);
	return ret < 0 ? ret : -ENODEV;
}

/*
 * Look @ch up. For a named channel, CREAD type resolves the map exactly as
 * iio_channel_get() does (so its errors are the kernel's) and CONSUMER then
 * names the provider, for display only. For the consumer's first channel,
 * CONSUMER comes first to learn that channel's name.
 * Return: 0, or -errno.
 */
static int iiowire_consumer_lookup(struct iiowire_channel *ch)
{
	unsigned int gen = ch->w->reconnects;
	struct proto_reply r;
	int ret;

	if (ch->first) {
		ret = iiowire_consumer_describe(ch);
		if (ret < 0)
			return iiowire_err_local(ch->w, ret, ch->consumer);
	}
	ret = iiowire_consumer_cread(ch, PROTO_WHAT_TYPE, 0, &r);
	proto_reply_fini(&r);
	if (ret < 0)
		return ret;
	if (!ch->first)
		iiowire_consumer_describe(ch);
	iiowire_err_clear(ch->w);
	ch->gen = gen;
	return 0;
}

/* Before a read: look the channel up again if the connection was remade since. */
static int iiowire_consumer_refresh(struct iiowire_channel *ch)
{
	iiowire_err_clear(ch->w);
	if (ch->gen == ch->w->reconnects)
		return 0;
	return iiowire_consumer_lookup(ch);
}

/*
 * One CREAD of @what on a channel brought up to date first. @r is always
 * left for proto_reply_fini(). Return: 0 with @r the reply, or -errno.
 */
static int iiowire_consumer_query(struct iiowire_channel *ch, enum proto_what what,
				  unsigned int multiplier, struct proto_reply *r)
{
	int ret = iiowire_consumer_refresh(ch);

	if (ret < 0) {
		memset(r, 0, sizeof(*r));
		return ret;
	}
	return iiowire_consumer_cread(ch, what, multiplier, r);
}

/* The exact pair of a JSON CREAD reply (@val2 may be NULL). Return: its IIO_VAL_* format. */
static int iiowire_consumer_take_val(const struct proto_reply *r, int *val, int *val2)
{
	*val = r->val;
	if (val2)
		*val2 = r->val2;
	return r->format;
}

/* A channel with its names set and nothing looked up. Return: owned, or NULL (ENOMEM). */
static struct iiowire_channel *iiowire_consumer_alloc(struct iiowire *w, const char *consumer,
						      const char *channel)
{
	struct iiowire_channel *ch = calloc(1, sizeof(*ch));

	if (!ch)
		return NULL;
	ch->w = w;
	ch->gen = w->reconnects;
	ch->first = !channel;
	ch->consumer = strdup(consumer);
	ch->channel = channel ? strdup(channel) : NULL;
	ch->name = strdup(channel ? channel : "");
	ch->device = strdup("");
	ch->datasheet_name = strdup("");
	if (!ch->consumer || (channel && !ch->channel) || !ch->name || !ch->device ||
	    !ch->datasheet_name) {
		iiowire_channel_release(ch);
		return NULL;
	}
	return ch;
}

/** iiowire_channel_get() - see iiowire.h. Return: owned channel, or NULL with errno set. */
IIOWIRE_EXPORT struct iiowire_channel *iiowire_channel_get(struct iiowire *w,
							   const char *consumer,
							   const char *channel)
{
	struct iiowire_channel *ch;
	int ret;

	iiowire_err_clear(w);
	if (!consumer) {
		iiowire_err_local(w, -EINVAL, "consumer name");
		errno = EINVAL;
		return NULL;
	}
	ch = iiowire_consumer_alloc(w, consumer, channel);
	if (!ch) {
		errno = ENOMEM;
		return NULL;
	}
	ret = iiowire_consumer_lookup(ch);
	if (ret < 0) {
		iiowire_channel_release(ch);
		errno = -ret;
		return NULL;
	}
	return ch;
}

/** iiowire_channel_get_all() - see iiowire.h. Return: owned array, or NULL with errno set. */
IIOWIRE_EXPORT struct iiowire_channel **iiowire_channel_get_all(struct iiowire *w,
								const char *consumer)
{
	struct proto_request req = { .op = PROTO_OP_CONSUMER, .consumer = consumer };
	struct iiowire_channel **chs = NULL, *ch;
	const struct proto_consumer_info *c;
	struct proto_reply r;
	int i, ret;

	if (!consumer) {
		iiowire_err_clear(w);
		iiowire_err_local(w, -EINVAL, "consumer name");
		errno = EINVAL;
		return NULL;
	}
	ret = iiowire_req_run(w, &req, true, &r);
	if (ret < 0)
		goto err_fini_reply;
	if (r.nitems == 0) {
		/* the kernel's get_all never succeeds empty */
		ret = iiowire_err_local(w, -ENODEV, consumer);
		goto err_fini_reply;
	}
	ret = -ENOMEM;
	chs = calloc((size_t)r.nitems + 1, sizeof(*chs));
	if (!chs)
		goto err_fini_reply;
	for (i = 0; i < r.nitems; i++) {
		c = &r.consumer[i];
		ch = iiowire_consumer_alloc(w, consumer, c->channel);
		if (!ch)
			goto err_release_all;
		chs[i] = ch;
		/* an unnamed map stays unnamed: it is not "the first" of anything */
		ch->first = false;
		if (iiowire_consumer_set(&ch->device, c->device) < 0 ||
		    iiowire_consumer_set(&ch->datasheet_name, c->datasheet_name) < 0)
			goto err_release_all;
	}
	proto_reply_fini(&r);
	return chs;

err_release_all:
	iiowire_channel_release_all(chs);
err_fini_reply:
	proto_reply_fini(&r);
	errno = -ret;
	return NULL;
}

/** iiowire_channel_release() - see iiowire.h; NULL-safe. */
IIOWIRE_EXPORT void iiowire_channel_release(struct iiowire_channel *ch)
{
	if (!ch)
		return;
	free(ch->consumer);
	free(ch->channel);
	free(ch->name);
	free(ch->device);
	free(ch->datasheet_name);
	free(ch);
}

/** iiowire_channel_release_all() - see iiowire.h; NULL-safe. */
IIOWIRE_EXPORT void iiowire_channel_release_all(struct iiowire_channel **chs)
{
	int i;

	if (!chs)
		return;
	for (i = 0; chs[i]; i++)
		iiowire_channel_release(chs[i]);
	free(chs);
}

/** iiowire_channel_consumer() - Return: borrowed consumer name. */
IIOWIRE_EXPORT const char *iiowire_channel_consumer(const struct iiowire_channel *ch)
{
	return ch->consumer;
}

/** iiowire_channel_name() - Return: borrowed map channel name, "" if none. */
IIOWIRE_EXPORT const char *iiowire_channel_name(const struct iiowire_channel *ch)
{
	return ch->name;
}

/** iiowire_channel_provider() - Return: borrowed provider "iio:deviceN". */
IIOWIRE_EXPORT const char *iiowire_channel_provider(const struct iiowire_channel *ch)
{
	return ch->device;
}

/** iiowire_channel_datasheet_name() - Return: borrowed provider channel name. */
IIOWIRE_EXPORT const char *iiowire_channel_datasheet_name(const struct iiowire_channel *ch)
{
	return ch->datasheet_name;
}

/* A reply value that must be one decimal int. Return: 0, or -EPROTO. */
static int iiowire_consumer_parse_int(struct iiowire *w, const char *text, int *val)
{
	char *end;
	long v;

	if (!text)
		return iiowire_err_local(w, -EPROTO, "reply without a value");
	errno = 0;
	v = strtol(text, &end, 10);
	if (end == text || *end || errno == ERANGE || v < INT_MIN || v > INT_MAX) {
		iiowire_err_set(w, "\"%s\" is not an int", text);
		return -EPROTO;
	}
	*val = (int)v;
	return 0;
}

/** iiowire_read_channel_raw() - see iiowire.h. Return: IIO_VAL_* code, or -errno. */
IIOWIRE_EXPORT int iiowire_read_channel_raw(struct iiowire_channel *ch, int *val)
{
	struct proto_reply r;
	int ret;

	ret = iiowire_consumer_query(ch, PROTO_WHAT_RAW, 0, &r);
	if (ret == 0 && r.has_val) {
		ret = iiowire_consumer_take_val(&r, val, NULL);
	} else if (ret == 0) {
		/* text only: the kernel's raw values are IIO_VAL_INT */
		ret = iiowire_consumer_parse_int(ch->w, r.value, val);
		if (ret == 0)
			ret = IIO_VAL_INT;
	}
	proto_reply_fini(&r);
	return ret;
}

/** iiowire_read_channel_processed_scale() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_read_channel_processed_scale(struct iiowire_channel *ch, int *val,
							unsigned int scale)
{
	struct proto_reply r;
	int ret, v = 0;

	/* multiplier 0 means "none" on the wire; the kernel's result for 0 is 0 */
	ret = iiowire_consumer_query(ch, PROTO_WHAT_PROCESSED, scale ? scale : 1, &r);
	if (ret == 0)
		ret = iiowire_consumer_parse_int(ch->w, r.value, &v);
	if (ret == 0)
		*val = scale ? v : 0;
	proto_reply_fini(&r);
	return ret;
}

/** iiowire_read_channel_processed() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_read_channel_processed(struct iiowire_channel *ch, int *val)
{
	return iiowire_read_channel_processed_scale(ch, val, 1);
}

/* CREAD scale or offset: the exact (val, val2, format). Return: the format, or -errno. */
static int iiowire_consumer_read_pair(struct iiowire_channel *ch, enum proto_what what,
				      int *val, int *val2)
{
	struct proto_reply r;
	int ret;

	ret = iiowire_consumer_query(ch, what, 0, &r);
	if (ret == 0 && r.has_val)
		ret = iiowire_consumer_take_val(&r, val, val2);
	else if (ret == 0)
		ret = iiowire_err_local(ch->w, -EPROTO, "reply without val/val2/format");
	proto_reply_fini(&r);
	return ret;
}

/** iiowire_read_channel_scale() - see iiowire.h. Return: IIO_VAL_* code, or -errno. */
IIOWIRE_EXPORT int iiowire_read_channel_scale(struct iiowire_channel *ch, int *val, int *val2)
{
	return iiowire_consumer_read_pair(ch, PROTO_WHAT_SCALE, val, val2);
}

/** iiowire_read_channel_offset() - see iiowire.h. Return: IIO_VAL_* code, or -errno. */
IIOWIRE_EXPORT int iiowire_read_channel_offset(struct iiowire_channel *ch, int *val, int *val2)
{
	return iiowire_consumer_read_pair(ch, PROTO_WHAT_OFFSET, val, val2);
}

/* A scale or offset the channel does not have reads as these; anything else is a real failure. */
static bool iiowire_consumer_is_absent(int err)
{
	return err == -EINVAL || err == -ENOENT || err == -ENODATA;
}

/**
 * iiowire_convert_raw_to_processed() - see iiowire.h: the offset and scale
 * come from the daemon, the arithmetic is the core's iio_raw_to_processed(),
 * so the result is the kernel's to the digit.
 * Return: 0, or -errno.
 */
IIOWIRE_EXPORT int iiowire_convert_raw_to_processed(struct iiowire_channel *ch, int raw,
						    int *processed, unsigned int scale)
{
	int otype, oval = 0, oval2 = 0, stype, sval = 0, sval2 = 0;

	otype = iiowire_read_channel_offset(ch, &oval, &oval2);
	if (otype < 0 && !iiowire_consumer_is_absent(otype))
		return otype;
	stype = iiowire_read_channel_scale(ch, &sval, &sval2);
	if (stype < 0 && !iiowire_consumer_is_absent(stype))
		return stype;
	iiowire_err_clear(ch->w);
	return iio_raw_to_processed(raw, otype >= 0, otype, oval, oval2, stype >= 0, stype, sval,
				    sval2, scale, processed);
}

/** iiowire_get_channel_type() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_get_channel_type(struct iiowire_channel *ch,
					    enum iio_chan_type *type)
{
	struct proto_reply r;
	int ret;

	/* asked each time: a provider that went away must give -ENODEV, as in the kernel */
	ret = iiowire_consumer_query(ch, PROTO_WHAT_TYPE, 0, &r);
	if (ret == 0) {
		ret = iiowire_chan_type_from_name(r.value);
		if (ret < 0) {
			iiowire_err_set(ch->w, "unknown channel type \"%s\"",
					r.value ? r.value : "");
			ret = -EPROTO;
		} else {
			*type = (enum iio_chan_type)ret;
			ret = 0;
		}
	}
	proto_reply_fini(&r);
	return ret;
}

/** iiowire_read_channel_label() - see iiowire.h. Return: the label length, or -errno. */
IIOWIRE_EXPORT int iiowire_read_channel_label(struct iiowire_channel *ch, char *buf, size_t len)
{
	struct proto_reply r;
	size_t n;
	int ret;

	if (len > 0)
		buf[0] = '\0';
	ret = iiowire_consumer_query(ch, PROTO_WHAT_LABEL, 0, &r);
	if (ret == 0) {
		n = r.value ? strlen(r.value) : 0;
		if (n >= len) {
			ret = -EFBIG;
		} else {
			memcpy(buf, r.value ? r.value : "", n + 1);
			ret = (int)n;
		}
	}
	proto_reply_fini(&r);
	return ret;
}
