/*
 * device.c - libiiowire's sysfs view: devices, attributes, channels, maps
 * and the daemon's counters, plus reading and writing attribute text.
 *
 * Place in the flow: the program -> *device.c* -> request.c -> wire. Each
 * function sends one request (DEVICES, DEVICE, ATTRS, CHANNELS, MAPS, STATS,
 * READ, WRITE), then copies the decoded reply into memory the program owns
 * (one block per listing, alloc.c). Values are handed over as the daemon
 * sent them, which is the kernel's text: this file never reformats a value.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iiowire_priv.h"
#include "iiowire_req.h"

/* Run a request whose reply is a listing; the caller copies it out and finalises @r. */
static int iiowire_device_request(struct iiowire *w, enum proto_op op, const char *device,
				  struct proto_reply *r)
{
	struct proto_request req = { .op = op, .device = device };

	if ((op == PROTO_OP_DEVICE || op == PROTO_OP_ATTRS || op == PROTO_OP_CHANNELS) && !device) {
		memset(r, 0, sizeof(*r));
		iiowire_err_clear(w);
		return iiowire_err_local(w, -EINVAL, "device");
	}
	return iiowire_req_run(w, &req, true, r);
}

/* a string packed as is, absent ones becoming "" so programs print them without checks */
static const char *iiowire_device_str(struct iiowire_pack *p, const char *s)
{
	return s ? iiowire_pack_str(p, s) : "";
}

/* Copy @n devices into one owned block. Return: the block or NULL (-ENOMEM). */
static struct iiowire_device *iiowire_device_pack(const struct proto_device_info *src, int n)
{
	struct iiowire_device *out;
	struct iiowire_pack p;
	size_t strs = 0;
	int i;

	for (i = 0; i < n; i++)
		strs += iiowire_pack_len(src[i].id) + iiowire_pack_len(src[i].name) +
			iiowire_pack_len(src[i].label) + iiowire_pack_len(src[i].hwid);
	if (iiowire_pack_init(&p, sizeof(*out) * (size_t)n, strs) < 0)
		return NULL;
	out = (struct iiowire_device *)p.base;
	for (i = 0; i < n; i++) {
		out[i].id = iiowire_device_str(&p, src[i].id);
		out[i].name = iiowire_device_str(&p, src[i].name);
		out[i].label = iiowire_device_str(&p, src[i].label);
		out[i].hwid = iiowire_device_str(&p, src[i].hwid);
		out[i].num_channels = src[i].num_channels;
		out[i].num_attrs = src[i].num_attrs;
	}
	return iiowire_pack_finish(&p);
}

/** iiowire_device_list() - see iiowire.h. Return: count, or -errno. */
IIOWIRE_EXPORT int iiowire_device_list(struct iiowire *w, struct iiowire_device **devices)
{
	struct proto_reply r;
	int ret;

	*devices = NULL;
	ret = iiowire_device_request(w, PROTO_OP_DEVICES, NULL, &r);
	if (ret == 0 && r.nitems > 0) {
		*devices = iiowire_device_pack(r.devices, r.nitems);
		ret = *devices ? r.nitems : -ENOMEM;
	}
	proto_reply_fini(&r);
	return ret;
}

/** iiowire_device_get_info() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_device_get_info(struct iiowire *w, const char *device,
					   struct iiowire_device **info)
{
	struct proto_reply r;
	int ret;

	*info = NULL;
	ret = iiowire_device_request(w, PROTO_OP_DEVICE, device, &r);
	if (ret == 0) {
		if (r.nitems < 1)
			ret = iiowire_err_local(w, -EPROTO, "DEVICE reply without a device");
		else if (!(*info = iiowire_device_pack(r.devices, 1)))
			ret = -ENOMEM;
	}
	proto_reply_fini(&r);
	return ret;
}

/**
 * struct iiowire_listing - how one listing's items are copied out.
 * @op: the request (its reply is the listing).
 * @size: the size of one item of the program's array.
 * @strs: the bytes item @i's strings take in the block.
 * @copy: fill @out, the program's item @i, packing its strings into @p.
 */
struct iiowire_listing {
	enum proto_op op;
	size_t size;
	size_t (*strs)(const struct proto_reply *r, int i);
	void (*copy)(struct iiowire_pack *p, void *out, const struct proto_reply *r, int i);
};

/*
 * Run @l's request and copy its items into one owned block.
 * Return: the count with *@list set (NULL when 0), or -errno.
 */
static int iiowire_device_listing(struct iiowire *w, const struct iiowire_listing *l,
				  const char *device, void **list)
{
	struct proto_reply r;
	struct iiowire_pack p;
	size_t strs = 0;
	int i, ret;

	*list = NULL;
	ret = iiowire_device_request(w, l->op, device, &r);
	if (ret < 0 || r.nitems == 0)
		goto out_fini_reply;
	for (i = 0; i < r.nitems; i++)
		strs += l->strs(&r, i);
	ret = iiowire_pack_init(&p, l->size * (size_t)r.nitems, strs);
	if (ret < 0)
		goto out_fini_reply;
	for (i = 0; i < r.nitems; i++)
		l->copy(&p, p.base + l->size * (size_t)i, &r, i);
	*list = iiowire_pack_finish(&p);
	ret = r.nitems;
out_fini_reply:
	proto_reply_fini(&r);
	return ret;
}

static size_t iiowire_attr_strs(const struct proto_reply *r, int i)
{
	return iiowire_pack_len(r->attrs[i].name);
}

static void iiowire_attr_copy(struct iiowire_pack *p, void *out, const struct proto_reply *r,
			      int i)
{
	struct iiowire_attr *a = out;

	a->name = iiowire_device_str(p, r->attrs[i].name);
	a->access = (r->attrs[i].mode & PROTO_ATTR_R ? IIOWIRE_ATTR_READ : 0) |
		    (r->attrs[i].mode & PROTO_ATTR_W ? IIOWIRE_ATTR_WRITE : 0);
}

/** iiowire_attr_list() - see iiowire.h. Return: count, or -errno. */
IIOWIRE_EXPORT int iiowire_attr_list(struct iiowire *w, const char *device,
				     struct iiowire_attr **attrs)
{
	static const struct iiowire_listing l = {
		PROTO_OP_ATTRS, sizeof(**attrs), iiowire_attr_strs, iiowire_attr_copy };

	return iiowire_device_listing(w, &l, device, (void **)attrs);
}

/** iiowire_chan_list() - see iiowire.h. Return: count, or -errno. */
IIOWIRE_EXPORT int iiowire_chan_list(struct iiowire *w, const char *device,
				     struct iiowire_chan **chans)
{
	const struct proto_channel_info *c;
	size_t strs = 0, nptrs = 0;
	struct iiowire_chan *out;
	const char **ptrs;
	struct proto_reply r;
	struct iiowire_pack p;
	int i, j, ret;

	*chans = NULL;
	ret = iiowire_device_request(w, PROTO_OP_CHANNELS, device, &r);
	if (ret < 0 || r.nitems == 0)
		goto out_fini_reply;
	for (i = 0; i < r.nitems; i++) {
		c = &r.channels[i];
		strs += iiowire_pack_len(c->type) + iiowire_pack_len(c->modifier) +
			iiowire_pack_len(c->datasheet_name);
		for (j = 0; j < c->nattrs; j++)
			strs += iiowire_pack_len(c->attrs[j]);
		nptrs += (size_t)c->nattrs;
	}
	/* the block: channel structs, then every channel's name pointers, then strings */
	ret = iiowire_pack_init(&p, sizeof(*out) * (size_t)r.nitems + sizeof(char *) * nptrs, strs);
	if (ret < 0)
		goto out_fini_reply;
	out = (struct iiowire_chan *)p.base;
	ptrs = (const char **)(out + r.nitems);
	for (i = 0; i < r.nitems; i++) {
		c = &r.channels[i];
		out[i].type_name = iiowire_device_str(&p, c->type);
		out[i].type = iiowire_chan_type_from_name(c->type);
		if (out[i].type < 0)
			out[i].type = -1;
		out[i].index = c->index;
		out[i].differential = c->differential;
		out[i].index2 = c->differential ? c->index2 : -1;
		out[i].modifier = iiowire_pack_str(&p, c->modifier);
		out[i].datasheet_name = iiowire_pack_str(&p, c->datasheet_name);
		out[i].output = c->output;
		out[i].attrs = ptrs;
		out[i].num_attrs = c->nattrs;
		for (j = 0; j < c->nattrs; j++)
			*ptrs++ = iiowire_device_str(&p, c->attrs[j]);
	}
	*chans = iiowire_pack_finish(&p);
	ret = r.nitems;
out_fini_reply:
	proto_reply_fini(&r);
	return ret;
}

static size_t iiowire_map_strs(const struct proto_reply *r, int i)
{
	const struct proto_map_info *m = &r->maps[i];

	return iiowire_pack_len(m->consumer) + iiowire_pack_len(m->channel) +
	       iiowire_pack_len(m->provider) + iiowire_pack_len(m->device) +
	       iiowire_pack_len(m->datasheet_name);
}

static void iiowire_map_copy(struct iiowire_pack *p, void *out, const struct proto_reply *r,
			     int i)
{
	const struct proto_map_info *m = &r->maps[i];
	struct iiowire_map *o = out;

	o->consumer = iiowire_device_str(p, m->consumer);
	o->consumer_channel = iiowire_pack_str(p, m->channel);
	o->provider = iiowire_device_str(p, m->provider);
	o->device = iiowire_pack_str(p, m->device);
	o->datasheet_name = iiowire_device_str(p, m->datasheet_name);
}

/** iiowire_map_list() - see iiowire.h. Return: count, or -errno. */
IIOWIRE_EXPORT int iiowire_map_list(struct iiowire *w, struct iiowire_map **maps)
{
	static const struct iiowire_listing l = {
		PROTO_OP_MAPS, sizeof(**maps), iiowire_map_strs, iiowire_map_copy };

	return iiowire_device_listing(w, &l, NULL, (void **)maps);
}

static size_t iiowire_stat_strs(const struct proto_reply *r, int i)
{
	return iiowire_pack_len(r->stats[i].name);
}

static void iiowire_stat_copy(struct iiowire_pack *p, void *out, const struct proto_reply *r,
			      int i)
{
	struct iiowire_stat *st = out;

	st->name = iiowire_device_str(p, r->stats[i].name);
	st->value = r->stats[i].value;
}

/** iiowire_stats() - see iiowire.h. Return: count, or -errno. */
IIOWIRE_EXPORT int iiowire_stats(struct iiowire *w, struct iiowire_stat **stats)
{
	static const struct iiowire_listing l = {
		PROTO_OP_STATS, sizeof(**stats), iiowire_stat_strs, iiowire_stat_copy };

	return iiowire_device_listing(w, &l, NULL, (void **)stats);
}

/** iiowire_attr_read() - see iiowire.h. Return: the text length, or -errno. */
IIOWIRE_EXPORT int iiowire_attr_read(struct iiowire *w, const char *device, const char *attr,
				     char *buf, size_t len)
{
	struct proto_request req = { .op = PROTO_OP_READ, .device = device, .attr = attr };
	struct proto_reply r;
	size_t n;
	int ret;

	if (len > 0)
		buf[0] = '\0';
	if (!device || !attr) {
		iiowire_err_clear(w);
		return iiowire_err_local(w, -EINVAL, "READ needs a device and an attribute");
	}
	ret = iiowire_req_run(w, &req, true, &r);
	if (ret < 0)
		goto out_fini_reply;
	n = r.value ? strlen(r.value) : 0;
	if (n >= len || n > INT_MAX) {
		iiowire_err_set(w, "%s %s: value of %zu bytes does not fit", device, attr, n);
		ret = -EFBIG;
		goto out_fini_reply;
	}
	memcpy(buf, r.value ? r.value : "", n + 1);
	ret = (int)n;
out_fini_reply:
	proto_reply_fini(&r);
	return ret;
}

/** iiowire_attr_write() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_attr_write(struct iiowire *w, const char *device, const char *attr,
				      const char *value)
{
	struct proto_request req = {
		.op = PROTO_OP_WRITE, .device = device, .attr = attr, .value = value,
	};
	struct proto_reply r;
	size_t n;
	char *copy = NULL;
	int ret;

	if (!device || !attr || !value) {
		iiowire_err_clear(w);
		return iiowire_err_local(w, -EINVAL, "WRITE needs a device, an attribute, a value");
	}
	/*
	 * sysfs takes one trailing newline (echo adds it) and parses the same
	 * value; the wire refuses control characters, so it goes here.
	 */
	n = strlen(value);
	if (n > 0 && value[n - 1] == '\n') {
		copy = strndup(value, n - 1);
		if (!copy)
			return -ENOMEM;
		req.value = copy;
	}
	/* not idempotent: a write is sent twice only if it never left (request.c) */
	ret = iiowire_req_run(w, &req, false, &r);
	proto_reply_fini(&r);
	free(copy);
	return ret;
}

/** iiowire_attr_read_longlong() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_attr_read_longlong(struct iiowire *w, const char *device,
					      const char *attr, long long *val)
{
	char buf[64], *end;
	long long v;
	int ret;

	ret = iiowire_attr_read(w, device, attr, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (end == buf || *end || errno == ERANGE) {
		iiowire_err_set(w, "%s %s: \"%s\" is not an integer", device, attr, buf);
		return -EINVAL;
	}
	*val = v;
	return 0;
}

/** iiowire_attr_read_double() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_attr_read_double(struct iiowire *w, const char *device,
					    const char *attr, double *val)
{
	char buf[128], *end;
	double v;
	int ret;

	ret = iiowire_attr_read(w, device, attr, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	errno = 0;
	v = strtod(buf, &end);
	/* INT_PLUS_MICRO_DB values read "1.000010 dB" */
	if (strcmp(end, " dB") == 0)
		end += 3;
	if (end == buf || *end || errno == ERANGE) {
		iiowire_err_set(w, "%s %s: \"%s\" is not a number", device, attr, buf);
		return -EINVAL;
	}
	*val = v;
	return 0;
}

/** iiowire_attr_write_longlong() - see iiowire.h. Return: 0, or -errno. */
IIOWIRE_EXPORT int iiowire_attr_write_longlong(struct iiowire *w, const char *device,
					       const char *attr, long long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", val);
	return iiowire_attr_write(w, device, attr, buf);
}
