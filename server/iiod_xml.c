/*
 * iiod_xml.c - group a registry's attributes into libiio channels and
 * write the XML context of iiod 0.24 (see iiod_xml.h).
 *
 * The grouping is libiio's local backend applied to the core's names
 * (PROTOCOL-iiod.md, "Channels"): a strict pass for names that carry a
 * channel id (in_voltage0_raw, in_accel_x_raw, in_voltage0-voltage1_raw),
 * scan elements from the channel specs, channel names from a prefix all of
 * a channel's attributes share, shared names (in_voltage_scale) copied to
 * the channels they cover, a loose pass for unindexed channels
 * (in_steps_input), device attributes for the rest; two documented
 * departures from libiio. Built once per board, on the loop, from names
 * alone: no device I/O, nothing blocks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_core.h"
#include "iio_event.h"
#include "iio_registry.h"
#include "iiod.h"
#include "iiod_binary.h"
#include "iiod_xml.h"
#include "iio_buffer.h"
#include "proto.h"

/* libiio's grouping is defined on these file-name prefixes (direction). */
#define SRV_IIOD_XML_IN		"in_"
#define SRV_IIOD_XML_OUT	"out_"
/* Postfixes of a scan element's three files (scan_elements/<prefix>_en, ...). */
#define SRV_IIOD_XML_SCAN_INDEX	"index"
#define SRV_IIOD_XML_SCAN_EN	"en"
#define SRV_IIOD_XML_SCAN_TYPE	"type"
#define SRV_IIOD_XML_BUFFER_DIR	"buffer/"	/* a device's buffer attributes (libiio's) */

/*
 * The inline DTD of iiod 0.24's context, written from its description:
 * clients validate against it and only warn when it is missing.
 */
static const char srv_iiod_xml_head[] =
	"<?xml version=\"1.0\" encoding=\"utf-8\"?>"
	"<!DOCTYPE context ["
	"<!ELEMENT context (device | context-attribute)*>"
	"<!ELEMENT context-attribute EMPTY>"
	"<!ELEMENT device (channel | attribute | debug-attribute | buffer-attribute)*>"
	"<!ELEMENT channel (scan-element?, attribute*)>"
	"<!ELEMENT attribute EMPTY>"
	"<!ELEMENT scan-element EMPTY>"
	"<!ELEMENT debug-attribute EMPTY>"
	"<!ELEMENT buffer-attribute EMPTY>"
	"<!ATTLIST context name CDATA #REQUIRED version-major CDATA #REQUIRED "
	"version-minor CDATA #REQUIRED version-git CDATA #REQUIRED "
	"description CDATA #IMPLIED>"
	"<!ATTLIST context-attribute name CDATA #REQUIRED value CDATA #REQUIRED>"
	"<!ATTLIST device id CDATA #REQUIRED name CDATA #IMPLIED label CDATA #IMPLIED>"
	"<!ATTLIST channel id CDATA #REQUIRED type (input|output) #REQUIRED "
	"name CDATA #IMPLIED>"
	"<!ATTLIST scan-element index CDATA #REQUIRED format CDATA #REQUIRED "
	"scale CDATA #IMPLIED>"
	"<!ATTLIST attribute name CDATA #REQUIRED filename CDATA #IMPLIED>"
	"<!ATTLIST debug-attribute name CDATA #REQUIRED>"
	"<!ATTLIST buffer-attribute name CDATA #REQUIRED>"
	"]>";

/*
 * libiio 1.0's grammar, written from its description: <buffer> elements
 * (attributes and the scan elements of one buffer) and event attributes.
 */
static const char srv_iiod_xml1_head[] =
	"<?xml version=\"1.0\" encoding=\"utf-8\"?>"
	"<!DOCTYPE context ["
	"<!ELEMENT context (device | context-attribute)*>"
	"<!ELEMENT context-attribute EMPTY>"
	"<!ELEMENT device (channel | buffer | attribute | debug-attribute | event-attribute | "
	"buffer-attribute)*>"
	"<!ELEMENT channel (scan-element?, attribute*, event-attribute*)>"
	"<!ELEMENT buffer (attribute*, channel+)>"
	"<!ELEMENT attribute EMPTY>"
	"<!ELEMENT scan-element EMPTY>"
	"<!ELEMENT debug-attribute EMPTY>"
	"<!ELEMENT event-attribute EMPTY>"
	"<!ELEMENT buffer-attribute EMPTY>"
	"<!ATTLIST context name CDATA #REQUIRED version-major CDATA #REQUIRED "
	"version-minor CDATA #REQUIRED version-git CDATA #REQUIRED description CDATA #IMPLIED>"
	"<!ATTLIST context-attribute name CDATA #REQUIRED value CDATA #REQUIRED>"
	"<!ATTLIST device id CDATA #REQUIRED name CDATA #IMPLIED label CDATA #IMPLIED>"
	"<!ATTLIST channel id CDATA #REQUIRED type (input|output) #REQUIRED name CDATA #IMPLIED "
	"label CDATA #IMPLIED>"
	"<!ATTLIST buffer index CDATA #REQUIRED direction (in|out) #IMPLIED>"
	"<!ATTLIST scan-element index CDATA #REQUIRED format CDATA #REQUIRED scale CDATA #IMPLIED>"
	"<!ATTLIST attribute name CDATA #REQUIRED filename CDATA #IMPLIED value CDATA #IMPLIED>"
	"<!ATTLIST debug-attribute name CDATA #REQUIRED value CDATA #IMPLIED>"
	"<!ATTLIST event-attribute name CDATA #REQUIRED filename CDATA #IMPLIED "
	"value CDATA #IMPLIED>"
	"<!ATTLIST buffer-attribute name CDATA #REQUIRED value CDATA #IMPLIED>"
	"]>";

/* What the context element calls itself; the client renames it anyway. */
#define SRV_IIOD_XML_CTX_NAME	"iiowire"

/* One attribute of the device while it is being grouped. */
struct srv_iiod_xml_cand {
	const struct iio_attr *attr;
	bool used;
};

/* ---- names ---- */

static bool srv_iiod_xml_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* After "in_" or "out_": the rest, and the direction; NULL for neither. */
static const char *srv_iiod_xml_dir(const char *name, bool *output)
{
	if (strncmp(name, SRV_IIOD_XML_IN, strlen(SRV_IIOD_XML_IN)) == 0) {
		*output = false;
		return name + strlen(SRV_IIOD_XML_IN);
	}
	if (strncmp(name, SRV_IIOD_XML_OUT, strlen(SRV_IIOD_XML_OUT)) == 0) {
		*output = true;
		return name + strlen(SRV_IIOD_XML_OUT);
	}
	return NULL;
}

/*
 * The length of the modifier @s starts with, when one is followed by '_'
 * ("x_raw" -> 1); the longest wins (from_north_magnetic_tilt_comp over
 * from_north_magnetic). O(number of modifiers). Return: 0 for none.
 */
static size_t srv_iiod_xml_modifier(const char *s)
{
	size_t best = 0, n;
	const char *m;
	int i;

	for (i = 1; i < IIOWIRE_IIO_MODIFIER_COUNT; i++) {
		m = iio_modifier_name((enum iio_modifier)i);
		if (!m || !*m)
			continue;
		n = strlen(m);
		if (n > best && strncmp(s, m, n) == 0 && s[n] == '_')
			best = n;
	}
	return best;
}

/* @s is exactly one modifier name. */
static bool srv_iiod_xml_is_modifier(const char *s)
{
	const char *m;
	int i;

	for (i = 1; i < IIOWIRE_IIO_MODIFIER_COUNT; i++) {
		m = iio_modifier_name((enum iio_modifier)i);
		if (m && *m && strcmp(s, m) == 0)
			return true;
	}
	return false;
}

/*
 * Split a channel attribute's file name into channel id and short name.
 * @strict: only names that say which channel (the id ends in a digit, a
 *	modifier follows it, or it is the timestamp); otherwise any
 *	"<dir>_<type>_<rest>" whose type the core knows.
 * @id: SRV_IIOD... room for the id; @rest: out, the short name (borrowed
 *	from @name).
 * Return: true when @name is a channel attribute of that kind.
 */
static bool srv_iiod_xml_split(const char *name, bool strict, char *id, size_t idlen,
			       const char **rest, bool *output)
{
	const char *p, *us, *ts = iio_chan_type_name(IIO_TIMESTAMP);
	size_t tlen, mlen = 0;
	char type[IIO_ATTR_NAME_MAX];

	p = srv_iiod_xml_dir(name, output);
	if (!p)
		return false;
	us = strchr(p, '_');
	if (!us || us == p || !us[1])
		return false;
	tlen = (size_t)(us - p);
	if (!*output && ts && tlen == strlen(ts) && strncmp(p, ts, tlen) == 0) {
		/* in_timestamp_* always names the timestamp channel */
	} else if (strict) {
		mlen = srv_iiod_xml_modifier(us + 1);
		if (!srv_iiod_xml_is_digit(us[-1]) && !mlen)
			return false;
	} else {
		if (tlen >= sizeof(type))
			return false;
		memcpy(type, p, tlen);
		type[tlen] = '\0';
		if (iio_chan_type_from_name(type) < 0)
			return false;
	}
	if (mlen)
		tlen += 1 + mlen;
	if (tlen >= idlen || !p[tlen] || !p[tlen + 1])
		return false;
	memcpy(id, p, tlen);
	id[tlen] = '\0';
	*rest = p + tlen + 1;
	return true;
}

/* @id is "<a><digits>-<b><digits>" for the shared token "<a>-<b>". */
static bool srv_iiod_xml_diff_match(const char *id, const char *a, size_t alen, const char *b,
				    size_t blen)
{
	const char *dash;

	if (strncmp(id, a, alen) || !srv_iiod_xml_is_digit(id[alen]))
		return false;
	dash = strchr(id + alen, '-');
	if (!dash || strncmp(dash + 1, b, blen) || !srv_iiod_xml_is_digit(dash[1 + blen]))
		return false;
	return true;
}

/*
 * Does the shared name @name cover channel @c? Return: 2 when it names the
 * channel's own name too (in_voltage_vccint_scale for voltage0 "vccint"),
 * 1 when it is shared with the channel's type, 0 when not.
 */
static int srv_iiod_xml_match(const struct srv_iiod_chan *c, const char *name)
{
	const char *p, *us, *dash;
	size_t tlen, nlen;
	bool output;
	char next;

	p = srv_iiod_xml_dir(name, &output);
	if (!p || output != c->output)
		return 0;
	us = strchr(p, '_');
	if (!us)
		return 0;
	tlen = (size_t)(us - p);
	dash = memchr(p, '-', tlen);
	if (dash && dash > p)
		return srv_iiod_xml_diff_match(c->id, p, (size_t)(dash - p), dash + 1,
					       (size_t)(us - dash - 1)) ? 1 : 0;
	if (strncmp(c->id, p, tlen))
		return 0;
	next = c->id[tlen];
	if (srv_iiod_xml_is_digit(next)) {
		/* a differential channel's shared names have the "-type" form */
		if (strchr(c->id, '-'))
			return 0;
		if (c->name) {
			nlen = strlen(c->name);
			if (strncmp(us + 1, c->name, nlen) == 0 && us[1 + nlen] == '_')
				return 2;
		}
		return 1;
	}
	if (next == '_' && srv_iiod_xml_is_modifier(c->id + tlen + 1))
		return 1;
	return 0;
}

/* The short name a shared @name gets in channel @c: "scale" for in_voltage_scale. */
static const char *srv_iiod_xml_shared_short(const struct srv_iiod_chan *c, const char *name)
{
	bool output;
	const char *p = srv_iiod_xml_dir(name, &output);
	size_t n;

	p = strchr(p, '_') + 1;
	n = srv_iiod_xml_modifier(p);
	if (n)
		p += n + 1;
	if (c->name) {
		n = strlen(c->name);
		if (strncmp(p, c->name, n) == 0 && p[n] == '_')
			p += n + 1;
	}
	return p;
}

/* ---- the model ---- */

static void srv_iiod_xml_chan_fini(struct srv_iiod_chan *c)
{
	int i;

	for (i = 0; i < c->nattrs; i++)
		free(c->attrs[i].name);
	free(c->attrs);
	for (i = 0; i < c->nevattrs; i++)
		free(c->evattrs[i].name);
	free(c->evattrs);
	free(c->id);
	free(c->name);
}

static void srv_iiod_xml_dev_fini(struct srv_iiod_dev *d)
{
	int i;

	for (i = 0; i < d->nchans; i++)
		srv_iiod_xml_chan_fini(&d->chans[i]);
	free(d->chans);
	free(d->attrs);
	free(d->battrs);
	free(d->evattrs);
}

static void srv_iiod_bdevs_free(struct srv_iiod_ctx *ctx);

void srv_iiod_ctx_destroy(struct srv_iiod_ctx *ctx)
{
	int i;

	if (!ctx)
		return;
	for (i = 0; i < ctx->ndevs; i++)
		srv_iiod_xml_dev_fini(&ctx->devs[i]);
	free(ctx->devs);
	free(ctx->xml);
	free(ctx->xml1);
	srv_iiod_bdevs_free(ctx);
	free(ctx);
}

/* The channel (@id, @output) of @d, made when missing. Return: its index, or -ENOMEM. */
static int srv_iiod_xml_chan_get(struct srv_iiod_dev *d, const char *id, bool output)
{
	struct srv_iiod_chan *c;
	int i, cap;

	for (i = 0; i < d->nchans; i++)
		if (d->chans[i].output == output && strcmp(d->chans[i].id, id) == 0)
			return i;
	if (d->nchans == d->cap) {
		cap = d->cap ? d->cap * 2 : 8;
		c = realloc(d->chans, sizeof(*c) * (size_t)cap);
		if (!c)
			return -ENOMEM;
		d->chans = c;
		d->cap = cap;
	}
	c = &d->chans[d->nchans];
	memset(c, 0, sizeof(*c));
	c->id = strdup(id);
	if (!c->id)
		return -ENOMEM;
	c->output = output;
	c->scan_index = -1;
	c->order = d->nchans;
	return d->nchans++;
}

/* Add @attr as @short_name to a list, unless it has that name already (first one wins). */
static int srv_iiod_xml_list_add(struct srv_iiod_attr **v, int *n, int *cap,
				 const char *short_name, const struct iio_attr *attr)
{
	struct srv_iiod_attr *a;
	int i, grown;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i].name, short_name) == 0)
			return 0;
	if (*n == *cap) {
		grown = *cap ? *cap * 2 : 4;
		a = realloc(*v, sizeof(*a) * (size_t)grown);
		if (!a)
			return -ENOMEM;
		*v = a;
		*cap = grown;
	}
	a = &(*v)[*n];
	a->name = strdup(short_name);
	if (!a->name)
		return -ENOMEM;
	a->attr = attr;
	(*n)++;
	return 0;
}

static int srv_iiod_xml_chan_add(struct srv_iiod_chan *c, const char *short_name,
				 const struct iio_attr *attr)
{
	return srv_iiod_xml_list_add(&c->attrs, &c->nattrs, &c->cap, short_name, attr);
}

/* The scan element's format, as libiio writes it: "le:S64/64>>0", "be:u12/16>>0". */
static void srv_iiod_xml_format(char *buf, size_t len, const struct iio_scan_type *st)
{
	bool be = st->endianness == IIO_BE;
	bool full = st->realbits == st->storagebits;
	char sign = st->sign == 's' || st->sign == 'S' ? 's' : 'u';

	if (st->endianness == IIO_CPU)
		be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	/* upper case: every stored bit is a value bit */
	if (full)
		sign = (char)(sign - 'a' + 'A');
	if (st->repeat > 1)
		snprintf(buf, len, "%ce:%c%u/%uX%u>>%u", be ? 'b' : 'l', sign, st->realbits,
			 st->storagebits, st->repeat, st->shift);
	else
		snprintf(buf, len, "%ce:%c%u/%u>>%u", be ? 'b' : 'l', sign, st->realbits,
			 st->storagebits, st->shift);
}

/*
 * Scan elements: what scan_elements/ would hold for each channel spec with a
 * scan type. Only a device with a buffer has that directory: the kernel
 * registers it with the buffer, so a soft timestamp channel without one
 * (opt3001) is no scan element and libiio's iiod shows the device as not
 * buffer capable, with the timestamp channel absent.
 */
static int srv_iiod_xml_scan(struct srv_iiod_dev *d)
{
	const struct iio_chan_spec *spec;
	char name[IIO_ATTR_NAME_MAX], id[IIO_ATTR_NAME_MAX];
	const char *rest;
	struct srv_iiod_chan *c;
	size_t plen;
	bool output;
	int i, k, ret;

	if (!iio_device_has_buffer(d->dev))
		return 0;
	for (i = 0; i < d->dev->num_channels; i++) {
		spec = &d->dev->channels[i];
		if (spec->scan_index < 0 || !spec->scan_type.storagebits)
			continue;
		ret = iio_attr_name_build(name, sizeof(name), spec, SRV_IIOD_XML_SCAN_INDEX,
					  IIO_SEPARATE);
		if (ret < 0)
			return ret;
		if (!srv_iiod_xml_split(name, true, id, sizeof(id), &rest, &output))
			continue;
		k = srv_iiod_xml_chan_get(d, id, output);
		if (k < 0)
			return k;
		c = &d->chans[k];
		c->scan_index = spec->scan_index;
		srv_iiod_xml_format(c->format, sizeof(c->format), &spec->scan_type);
		plen = strlen(rest) - strlen(SRV_IIOD_XML_SCAN_INDEX);
		if (plen >= sizeof(c->scan_prefix))
			return -ENAMETOOLONG;
		memcpy(c->scan_prefix, rest, plen);
		c->scan_prefix[plen] = '\0';
	}
	return 0;
}

/* Do all @n names start with the first @len bytes of @first? */
static bool srv_iiod_xml_share(const char *first, size_t len, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strncmp(first, names[i], len))
			return false;
	return true;
}

/*
 * The channel's name: the longest "word_" prefix that every one of its
 * attribute names has (the scan element's three files included), when it
 * has at least two. It is then taken off every short name.
 */
static int srv_iiod_xml_chan_name(struct srv_iiod_chan *c)
{
	char scan[3][sizeof(c->scan_prefix) + 8];
	const char **names;
	const char *first, *us;
	size_t len, best = 0;
	int i, n = 0;

	names = malloc(sizeof(*names) * (size_t)(c->nattrs + 3));
	if (!names)
		return -ENOMEM;
	for (i = 0; i < c->nattrs; i++)
		names[n++] = c->attrs[i].name;
	if (c->scan_index >= 0) {
		snprintf(scan[0], sizeof(scan[0]), "%s%s", c->scan_prefix, SRV_IIOD_XML_SCAN_EN);
		snprintf(scan[1], sizeof(scan[1]), "%s%s", c->scan_prefix,
			 SRV_IIOD_XML_SCAN_INDEX);
		snprintf(scan[2], sizeof(scan[2]), "%s%s", c->scan_prefix, SRV_IIOD_XML_SCAN_TYPE);
		for (i = 0; i < 3; i++)
			names[n++] = scan[i];
	}
	if (n >= 2) {
		first = names[0];
		for (us = strchr(first, '_'); us; us = strchr(us + 1, '_')) {
			len = (size_t)(us - first) + 1;
			if (!srv_iiod_xml_share(first, len, names, n))
				break;
			best = len;
		}
	}
	if (best) {
		c->name = strndup(first, best - 1);
		if (!c->name) {
			free(names);
			return -ENOMEM;
		}
		for (i = 0; i < c->nattrs; i++)
			memmove(c->attrs[i].name, c->attrs[i].name + best,
				strlen(c->attrs[i].name + best) + 1);
	}
	free(names);
	return 0;
}

/* Copy a shared name to every channel it covers; *matched says whether any took it. */
static int srv_iiod_xml_shared(struct srv_iiod_dev *d, const struct iio_attr *attr, bool *matched)
{
	int level, i, ret;

	*matched = false;
	for (level = 2; level >= 1 && !*matched; level--) {
		for (i = 0; i < d->nchans; i++) {
			if (srv_iiod_xml_match(&d->chans[i], attr->name) != level)
				continue;
			ret = srv_iiod_xml_chan_add(&d->chans[i],
						    srv_iiod_xml_shared_short(&d->chans[i],
									      attr->name),
						    attr);
			if (ret)
				return ret;
			*matched = true;
		}
	}
	return 0;
}

static int srv_iiod_xml_attr_cmp(const void *a, const void *b)
{
	const struct srv_iiod_attr *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	return r ? r : strcmp(x->attr->name, y->attr->name);
}

static int srv_iiod_xml_dev_attr_cmp(const void *a, const void *b)
{
	const struct iio_attr *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* libiio's channel order: scan elements by index, then the rest as they came. */
static int srv_iiod_xml_chan_cmp(const void *a, const void *b)
{
	const struct srv_iiod_chan *x = a, *y = b;

	if ((x->scan_index >= 0) != (y->scan_index >= 0))
		return x->scan_index >= 0 ? -1 : 1;
	if (x->scan_index != y->scan_index)
		return x->scan_index < y->scan_index ? -1 : 1;
	return x->order - y->order;
}

/*
 * libiio 0.24 reads the files of a device's directory, not its events/
 * subdirectory: iiod 0.24 shows no event attribute, so neither do we.
 */
static bool srv_iiod_xml_is_event(const struct iio_attr *a)
{
	return a->kind == IIO_ATTR_EVENT ||
	       strncmp(a->name, IIO_EVENT_DIR, strlen(IIO_EVENT_DIR)) == 0;
}

/*
 * A file of a subdirectory (a mirrored kernel device's buffer/enable,
 * scan_elements/..., trigger/current_trigger): libiio 0.24 shows only the
 * buffer/ files as buffer attributes, but length, enable and watermark,
 * which it handles itself. Return: true when @a is such a file; it is then
 * added to @d->battrs when libiio would show it.
 */
static bool srv_iiod_xml_subdir(struct srv_iiod_dev *d, const struct iio_attr *a)
{
	static const char *const own[] = { "length", "enable", "watermark" };
	const char *rest;
	size_t i;

	if (!strchr(a->name, '/'))
		return false;
	if (strncmp(a->name, SRV_IIOD_XML_BUFFER_DIR, strlen(SRV_IIOD_XML_BUFFER_DIR)) != 0)
		return true;
	rest = a->name + strlen(SRV_IIOD_XML_BUFFER_DIR);
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strcmp(rest, own[i]) == 0)
			return true;
	d->battrs[d->nbattrs++] = a;
	return true;
}

/*
 * The events/ files as libiio 1.0 shows them (the binary protocol's XML): a
 * file that names one of the device's channels is that channel's event
 * attribute under its short name ("thresh_rising_value"), any other the
 * device's. libiio 0.24 shows none (srv_iiod_xml_is_event()).
 */
static int srv_iiod_xml_events(struct srv_iiod_dev *d, const struct srv_iiod_xml_cand *cand,
			       int n)
{
	char id[IIO_ATTR_NAME_MAX];
	const char *file, *rest;
	struct srv_iiod_chan *c;
	bool output;
	int i, k, ret;

	for (i = 0; i < n; i++) {
		if (!srv_iiod_xml_is_event(cand[i].attr))
			continue;
		file = cand[i].attr->name;
		if (strncmp(file, IIO_EVENT_DIR, strlen(IIO_EVENT_DIR)) == 0)
			file += strlen(IIO_EVENT_DIR);
		c = NULL;
		if (srv_iiod_xml_split(file, true, id, sizeof(id), &rest, &output))
			for (k = 0; k < d->nchans && !c; k++)
				if (d->chans[k].output == output && !strcmp(d->chans[k].id, id))
					c = &d->chans[k];
		if (!c) {
			d->evattrs[d->nevattrs++] = cand[i].attr;
			continue;
		}
		ret = srv_iiod_xml_list_add(&c->evattrs, &c->nevattrs, &c->evcap, rest,
					    cand[i].attr);
		if (ret)
			return ret;
	}
	return 0;
}

/* Sort every list of @d as libiio does (attributes by name, channels in its order). */
static void srv_iiod_xml_dev_sort(struct srv_iiod_dev *d)
{
	struct srv_iiod_chan *c;
	int i;

	/* empty arrays may be NULL, which qsort must not be given */
	if (d->nattrs > 1)
		qsort(d->attrs, (size_t)d->nattrs, sizeof(*d->attrs), srv_iiod_xml_dev_attr_cmp);
	if (d->nbattrs > 1)
		qsort(d->battrs, (size_t)d->nbattrs, sizeof(*d->battrs),
		      srv_iiod_xml_dev_attr_cmp);
	if (d->nevattrs > 1)
		qsort(d->evattrs, (size_t)d->nevattrs, sizeof(*d->evattrs),
		      srv_iiod_xml_dev_attr_cmp);
	for (i = 0; i < d->nchans; i++) {
		c = &d->chans[i];
		if (c->nattrs > 1)
			qsort(c->attrs, (size_t)c->nattrs, sizeof(*c->attrs),
			      srv_iiod_xml_attr_cmp);
		if (c->nevattrs > 1)
			qsort(c->evattrs, (size_t)c->nevattrs, sizeof(*c->evattrs),
			      srv_iiod_xml_attr_cmp);
	}
	if (d->nchans > 1)
		qsort(d->chans, (size_t)d->nchans, sizeof(*d->chans), srv_iiod_xml_chan_cmp);
}

/* Group the attributes of @d->dev into channels and device attributes. */
static int srv_iiod_xml_dev_build(struct srv_iiod_dev *d)
{
	struct srv_iiod_xml_cand *cand;
	const struct iio_attr *a;
	char id[IIO_ATTR_NAME_MAX];
	const char *rest;
	bool output, matched;
	int i, k, n, ret = 0;

	snprintf(d->id, sizeof(d->id), "iio:device%d", iio_device_id(d->dev));
	n = iio_device_attr_count(d->dev);
	cand = calloc((size_t)(n ? n : 1), sizeof(*cand));
	d->attrs = calloc((size_t)(n ? n : 1), sizeof(*d->attrs));
	d->battrs = calloc((size_t)(n ? n : 1), sizeof(*d->battrs));
	d->evattrs = calloc((size_t)(n ? n : 1), sizeof(*d->evattrs));
	if (!cand || !d->attrs || !d->battrs || !d->evattrs) {
		ret = -ENOMEM;
		goto out_free_cand;
	}
	for (i = 0; i < n; i++) {
		cand[i].attr = a = iio_device_attr_at(d->dev, i);
		/* name and label are attributes of the device element, as in iiod */
		cand[i].used = a->kind == IIO_ATTR_DEV_NAME || a->kind == IIO_ATTR_DEV_LABEL ||
			       srv_iiod_xml_is_event(a) || srv_iiod_xml_subdir(d, a);
	}
	for (i = 0; i < n && !ret; i++) {
		if (cand[i].used ||
		    !srv_iiod_xml_split(cand[i].attr->name, true, id, sizeof(id), &rest, &output))
			continue;
		k = srv_iiod_xml_chan_get(d, id, output);
		ret = k < 0 ? k : srv_iiod_xml_chan_add(&d->chans[k], rest, cand[i].attr);
		cand[i].used = true;
	}
	if (!ret)
		ret = srv_iiod_xml_scan(d);
	for (i = 0; i < d->nchans && !ret; i++)
		ret = srv_iiod_xml_chan_name(&d->chans[i]);
	for (i = 0; i < n && !ret; i++) {
		if (cand[i].used)
			continue;
		ret = srv_iiod_xml_shared(d, cand[i].attr, &matched);
		cand[i].used = matched;
	}
	for (i = 0; i < n && !ret; i++) {
		if (cand[i].used ||
		    !srv_iiod_xml_split(cand[i].attr->name, false, id, sizeof(id), &rest, &output))
			continue;
		k = srv_iiod_xml_chan_get(d, id, output);
		ret = k < 0 ? k : srv_iiod_xml_chan_add(&d->chans[k], rest, cand[i].attr);
		cand[i].used = true;
	}
	if (!ret)
		ret = srv_iiod_xml_events(d, cand, n);
	if (ret)
		goto out_free_cand;
	for (i = 0; i < n; i++)
		if (!cand[i].used)
			d->attrs[d->nattrs++] = cand[i].attr;
	srv_iiod_xml_dev_sort(d);
out_free_cand:
	free(cand);
	return ret;
}

/* ---- XML text ---- */

/* The bytes srv_iiod_xml_esc() replaces: the five specials and every control character. */
static const char srv_iiod_xml_special[] = "&<>'\""
	"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
	"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f";

/*
 * A control character as XML 1.0 can carry it: TAB, LF, CR and DEL as
 * character references (raw, an attribute value would fold them to
 * spaces); the others are not XML characters at all, so U+FFFD.
 */
static const char *srv_iiod_xml_ctl(char c)
{
	switch (c) {
	case '\t':
		return "&#x9;";
	case '\n':
		return "&#xA;";
	case '\r':
		return "&#xD;";
	case 0x7f:
		return "&#x7F;";
	default:
		return "&#xFFFD;";
	}
}

/* Append @s with the five XML special characters and control characters escaped. */
static int srv_iiod_xml_esc(struct proto_buf *b, const char *s)
{
	const char *rep;
	size_t run;
	int ret;

	while (*s) {
		run = strcspn(s, srv_iiod_xml_special);
		ret = proto_buf_append(b, s, run);
		if (ret)
			return ret;
		s += run;
		switch (*s) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '\'':
			rep = "&apos;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\0':
			return 0;
		default:
			rep = srv_iiod_xml_ctl(*s);
			break;
		}
		ret = proto_buf_append(b, rep, strlen(rep));
		if (ret)
			return ret;
		s++;
	}
	return 0;
}

/* Append ` key="escaped value"`. */
static int srv_iiod_xml_attr(struct proto_buf *b, const char *key, const char *value)
{
	if (proto_buf_printf(b, " %s=\"", key) || srv_iiod_xml_esc(b, value) ||
	    proto_buf_append(b, "\"", 1))
		return -ENOMEM;
	return 0;
}

/* `<TAG name="NAME"[ filename="FILE"]/>` */
static int srv_iiod_xml_leaf(struct proto_buf *b, const char *tag, const char *name,
			     const char *file)
{
	if (proto_buf_printf(b, "<%s", tag) || srv_iiod_xml_attr(b, "name", name) ||
	    (file && srv_iiod_xml_attr(b, "filename", file)) || proto_buf_printf(b, "/>"))
		return -ENOMEM;
	return 0;
}

/* The name a libiio client shows for a file of @dir ("buffer/length" as "length"). */
static const char *srv_iiod_xml_in(const char *file, const char *dir)
{
	return strncmp(file, dir, strlen(dir)) == 0 ? file + strlen(dir) : file;
}

/* @v1: libiio 1.0's XML (event attributes too) */
static int srv_iiod_xml_chan_write(struct proto_buf *b, const struct srv_iiod_chan *c, bool v1)
{
	char idx[16];
	int i;

	if (proto_buf_printf(b, "<channel") || srv_iiod_xml_attr(b, "id", c->id) ||
	    srv_iiod_xml_attr(b, "type", c->output ? "output" : "input") ||
	    (c->name && srv_iiod_xml_attr(b, "name", c->name)) || proto_buf_printf(b, ">"))
		return -ENOMEM;
	if (c->scan_index >= 0) {
		snprintf(idx, sizeof(idx), "%d", c->scan_index);
		if (proto_buf_printf(b, "<scan-element") || srv_iiod_xml_attr(b, "index", idx) ||
		    srv_iiod_xml_attr(b, "format", c->format) || proto_buf_printf(b, "/>"))
			return -ENOMEM;
	}
	for (i = 0; i < c->nattrs; i++)
		if (srv_iiod_xml_leaf(b, "attribute", c->attrs[i].name, c->attrs[i].attr->name))
			return -ENOMEM;
	for (i = 0; v1 && i < c->nevattrs; i++)
		if (srv_iiod_xml_leaf(b, "event-attribute", c->evattrs[i].name,
				      srv_iiod_xml_in(c->evattrs[i].attr->name, IIO_EVENT_DIR)))
			return -ENOMEM;
	return proto_buf_printf(b, "</channel>");
}

/* libiio 1.0 reserves "direction" for the <buffer> element's own attribute. */
static bool srv_iiod_xml1_battr(const struct iio_attr *a)
{
	return strcmp(srv_iiod_xml_in(a->name, SRV_IIOD_XML_BUFFER_DIR), "direction") != 0;
}

/* libiio 1.0's <buffer index="0" direction="in">: its attributes, then its scan elements. */
static int srv_iiod_xml1_buffer(struct proto_buf *b, const struct srv_iiod_dev *d)
{
	int i, n = 0;

	for (i = 0; i < d->nchans; i++)
		n += d->chans[i].scan_index >= 0;
	if (!n)
		return 0;
	if (proto_buf_printf(b, "<buffer index=\"0\" direction=\"%s\">",
			     iio_device_buffer_direction(d->dev) == IIO_BUFFER_DIRECTION_OUT ?
			     "out" : "in"))
		return -ENOMEM;
	for (i = 0; i < d->nbattrs; i++)
		if (srv_iiod_xml1_battr(d->battrs[i]) &&
		    srv_iiod_xml_leaf(b, "attribute",
				      srv_iiod_xml_in(d->battrs[i]->name, SRV_IIOD_XML_BUFFER_DIR),
				      NULL))
			return -ENOMEM;
	for (i = 0; i < d->nchans; i++)
		if (d->chans[i].scan_index >= 0 &&
		    (proto_buf_printf(b, "<channel") || srv_iiod_xml_attr(b, "id", d->chans[i].id) ||
		     srv_iiod_xml_attr(b, "type", d->chans[i].output ? "output" : "input") ||
		     proto_buf_printf(b, "/>")))
			return -ENOMEM;
	return proto_buf_printf(b, "</buffer>");
}

static int srv_iiod_xml_dev_write(struct proto_buf *b, const struct srv_iiod_dev *d, bool v1)
{
	int i, ret;

	if (proto_buf_printf(b, "<device") || srv_iiod_xml_attr(b, "id", d->id) ||
	    (d->dev->name && srv_iiod_xml_attr(b, "name", d->dev->name)) ||
	    (d->dev->label && srv_iiod_xml_attr(b, "label", d->dev->label)) ||
	    proto_buf_printf(b, ">"))
		return -ENOMEM;
	for (i = 0; i < d->nchans; i++) {
		ret = srv_iiod_xml_chan_write(b, &d->chans[i], v1);
		if (ret)
			return ret;
	}
	if (v1 && srv_iiod_xml1_buffer(b, d))
		return -ENOMEM;
	for (i = 0; i < d->nattrs; i++)
		if (srv_iiod_xml_leaf(b, "attribute", d->attrs[i]->name, NULL))
			return -ENOMEM;
	for (i = 0; v1 && i < d->nevattrs; i++)
		if (srv_iiod_xml_leaf(b, "event-attribute",
				      srv_iiod_xml_in(d->evattrs[i]->name, IIO_EVENT_DIR), NULL))
			return -ENOMEM;
	for (i = 0; i < d->nbattrs; i++)
		if ((!v1 || srv_iiod_xml1_battr(d->battrs[i])) &&
		    srv_iiod_xml_leaf(b, "buffer-attribute",
				      srv_iiod_xml_in(d->battrs[i]->name, SRV_IIOD_XML_BUFFER_DIR),
				      NULL))
			return -ENOMEM;
	/* no debug-attribute: iiowire has no debugfs */
	return proto_buf_printf(b, "</device>");
}

/* A device of no channels: @id, @name (NULL: none), attributes @files from @first on. */
static int srv_iiod_xml_plain_dev(struct proto_buf *b, const char *id, const char *name,
				  const char *const *files, int first)
{
	int k;

	if (proto_buf_printf(b, "<device") || srv_iiod_xml_attr(b, "id", id) ||
	    (name && srv_iiod_xml_attr(b, "name", name)) || proto_buf_printf(b, ">"))
		return -ENOMEM;
	for (k = first; files[k]; k++)
		if (proto_buf_printf(b, "<attribute") ||
		    srv_iiod_xml_attr(b, "name", files[k]) || proto_buf_printf(b, "/>"))
			return -ENOMEM;
	return proto_buf_printf(b, "</device>");
}

/*
 * The triggers as libiio sees them: devices named triggerN (iio_device_is_trigger()
 * goes by the id), with their files, after the iio:deviceN ones; before them the
 * iio_sysfs_trigger when there is one (@ctl_files: the board's or the kernel's).
 */
static int srv_iiod_xml_triggers(struct proto_buf *b, const struct iio_registry *reg,
				 const char *const *ctl_files)
{
	const struct iio_trigger *t;
	char id[SRV_IIOD_DEVID_MAX];
	int i;

	if (ctl_files && srv_iiod_xml_plain_dev(b, "iio_sysfs_trigger", NULL, ctl_files, 0))
		return -ENOMEM;
	for (i = 0; i < iio_trigger_count(reg); i++) {
		t = iio_trigger_at(reg, i);
		snprintf(id, sizeof(id), "trigger%d", t->id);
		/* "name" (the first file) is the element's attribute */
		if (srv_iiod_xml_plain_dev(b, id, t->name, iio_trigger_attr_names(t), 1))
			return -ENOMEM;
	}
	return 0;
}

/* The context element's head: the grammar, the version (0.24, or 1.0 for @v1) and attributes. */
static int srv_iiod_xml_head_write(struct proto_buf *b, bool v1, const char *description,
				   const struct srv_iiod_ctx_attr *attrs, int nattrs)
{
	const char *head = v1 ? srv_iiod_xml1_head : srv_iiod_xml_head;
	char major[16], minor[16];
	int i;

	snprintf(major, sizeof(major), "%d",
		 v1 ? PROTO_IIODB_VERSION_MAJOR : PROTO_IIOD_VERSION_MAJOR);
	snprintf(minor, sizeof(minor), "%d",
		 v1 ? PROTO_IIODB_VERSION_MINOR : PROTO_IIOD_VERSION_MINOR);
	if (proto_buf_append(b, head, strlen(head)) || proto_buf_printf(b, "<context") ||
	    srv_iiod_xml_attr(b, "name", SRV_IIOD_XML_CTX_NAME) ||
	    srv_iiod_xml_attr(b, "version-major", major) ||
	    srv_iiod_xml_attr(b, "version-minor", minor) ||
	    srv_iiod_xml_attr(b, "version-git", PROTO_IIOD_VERSION_TAG) ||
	    (description && srv_iiod_xml_attr(b, "description", description)) ||
	    proto_buf_printf(b, ">"))
		return -ENOMEM;
	for (i = 0; i < nattrs; i++)
		if (proto_buf_printf(b, "<context-attribute") ||
		    srv_iiod_xml_attr(b, "name", attrs[i].name) ||
		    srv_iiod_xml_attr(b, "value", attrs[i].value) || proto_buf_printf(b, "/>"))
			return -ENOMEM;
	return 0;
}

/* The whole XML (libiio 1.0's with @v1) into *@xml, *@len. */
static int srv_iiod_xml_write(const struct srv_iiod_ctx *ctx, const struct iio_registry *reg,
			      const char *const *ctl_files, const char *description,
			      const struct srv_iiod_ctx_attr *attrs, int nattrs, bool v1,
			      char **xml, size_t *len)
{
	struct proto_buf b;
	int i, ret;

	proto_buf_init(&b);
	ret = srv_iiod_xml_head_write(&b, v1, description, attrs, nattrs);
	for (i = 0; i < ctx->ndevs && !ret; i++)
		ret = srv_iiod_xml_dev_write(&b, &ctx->devs[i], v1);
	if (!ret)
		ret = srv_iiod_xml_triggers(&b, reg, ctl_files);
	if (!ret && proto_buf_printf(&b, "</context>"))
		ret = -ENOMEM;
	if (ret) {
		proto_buf_fini(&b);
		return ret;
	}
	*xml = proto_buf_steal(&b, len);
	return 0;
}

/* ---- libiio 1.0's device numbers ---- */

static void srv_iiod_bdevs_free(struct srv_iiod_ctx *ctx)
{
	int i, k;

	for (i = 0; i < ctx->nbdevs; i++) {
		for (k = 0; k < ctx->bdevs[i].nfiles; k++)
			free(ctx->bdevs[i].files[k]);
		free(ctx->bdevs[i].files);
	}
	free(ctx->bdevs);
}

static int srv_iiod_str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int srv_iiod_bdev_cmp(const void *a, const void *b)
{
	return strcmp(((const struct srv_iiod_bdev *)a)->id, ((const struct srv_iiod_bdev *)b)->id);
}

/* A trigger (or the iio_sysfs_trigger) as a device: id @id, its @files from @first on. */
static int srv_iiod_bdev_files(struct srv_iiod_bdev *bd, const char *id,
			       const char *const *files, int first)
{
	int k, n = 0;

	snprintf(bd->id, sizeof(bd->id), "%s", id);
	while (files[first + n])
		n++;
	bd->files = calloc((size_t)(n ? n : 1), sizeof(*bd->files));
	if (!bd->files)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		bd->files[k] = strdup(files[first + k]);
		if (!bd->files[k])
			return -ENOMEM;
		bd->nfiles++;
	}
	if (n > 1)
		qsort(bd->files, (size_t)n, sizeof(*bd->files), srv_iiod_str_cmp);
	return 0;
}

/* Every device of the XML in libiio 1.0's order (its context sorts them by id). */
static int srv_iiod_bdevs_build(struct srv_iiod_ctx *ctx, const struct iio_registry *reg,
				const char *const *ctl_files)
{
	const struct iio_trigger *t;
	char id[SRV_IIOD_DEVID_MAX];
	int i, ret = 0, n = ctx->ndevs + iio_trigger_count(reg) + (ctl_files ? 1 : 0);

	ctx->bdevs = calloc((size_t)(n ? n : 1), sizeof(*ctx->bdevs));
	if (!ctx->bdevs)
		return -ENOMEM;
	for (i = 0; i < ctx->ndevs; i++) {
		ctx->bdevs[ctx->nbdevs].d = &ctx->devs[i];
		snprintf(ctx->bdevs[ctx->nbdevs++].id, sizeof(id), "%s", ctx->devs[i].id);
	}
	if (ctl_files)
		ret = srv_iiod_bdev_files(&ctx->bdevs[ctx->nbdevs++], "iio_sysfs_trigger",
					  ctl_files, 0);
	for (i = 0; i < iio_trigger_count(reg) && !ret; i++) {
		t = iio_trigger_at(reg, i);
		snprintf(id, sizeof(id), "trigger%d", t->id);
		ret = srv_iiod_bdev_files(&ctx->bdevs[ctx->nbdevs++], id, iio_trigger_attr_names(t),
					  1);
	}
	if (!ret && ctx->nbdevs > 1)
		qsort(ctx->bdevs, (size_t)ctx->nbdevs, sizeof(*ctx->bdevs), srv_iiod_bdev_cmp);
	return ret;
}

int srv_iiod_ctx_create(const struct iio_registry *reg, const char *const *ctl_files,
			const char *description,
			const struct srv_iiod_ctx_attr *attrs, int nattrs,
			struct srv_iiod_ctx **out)
{
	struct srv_iiod_ctx *ctx;
	int i, n = iio_registry_count(reg), ret;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->devs = calloc((size_t)(n ? n : 1), sizeof(*ctx->devs));
	if (!ctx->devs) {
		ret = -ENOMEM;
		goto err_destroy;
	}
	for (i = 0; i < n; i++) {
		ctx->devs[i].dev = iio_registry_at(reg, i);
		ctx->ndevs++;
		ret = srv_iiod_xml_dev_build(&ctx->devs[i]);
		if (ret)
			goto err_destroy;
	}
	ret = srv_iiod_xml_write(ctx, reg, ctl_files, description, attrs, nattrs, false,
				 &ctx->xml, &ctx->xml_len);
	if (!ret)
		ret = srv_iiod_xml_write(ctx, reg, ctl_files, description, attrs, nattrs, true,
					 &ctx->xml1, &ctx->xml1_len);
	if (!ret)
		ret = srv_iiod_bdevs_build(ctx, reg, ctl_files);
	if (ret)
		goto err_destroy;
	*out = ctx;
	return 0;

err_destroy:
	srv_iiod_ctx_destroy(ctx);
	return ret;
}

/* ---- lookups ---- */

const struct srv_iiod_dev *srv_iiod_ctx_find_dev(const struct srv_iiod_ctx *ctx, const char *key)
{
	int i;

	for (i = 0; i < ctx->ndevs; i++)
		if (strcmp(ctx->devs[i].id, key) == 0)
			return &ctx->devs[i];
	for (i = 0; i < ctx->ndevs; i++)
		if (ctx->devs[i].dev->label && strcmp(ctx->devs[i].dev->label, key) == 0)
			return &ctx->devs[i];
	for (i = 0; i < ctx->ndevs; i++)
		if (ctx->devs[i].dev->name && strcmp(ctx->devs[i].dev->name, key) == 0)
			return &ctx->devs[i];
	return NULL;
}

const struct srv_iiod_chan *srv_iiod_dev_find_chan(const struct srv_iiod_dev *d,
						   const char *key, bool output)
{
	int i;

	for (i = 0; i < d->nchans; i++)
		if (d->chans[i].output == output && strcmp(d->chans[i].id, key) == 0)
			return &d->chans[i];
	for (i = 0; i < d->nchans; i++)
		if (d->chans[i].output == output && d->chans[i].name &&
		    strcmp(d->chans[i].name, key) == 0)
			return &d->chans[i];
	return NULL;
}

const struct iio_attr *srv_iiod_chan_find_attr(const struct srv_iiod_chan *c, const char *name)
{
	int i;

	for (i = 0; i < c->nattrs; i++)
		if (strcmp(c->attrs[i].name, name) == 0)
			return c->attrs[i].attr;
	return NULL;
}

const struct iio_attr *srv_iiod_dev_find_attr(const struct srv_iiod_dev *d, const char *name)
{
	return iio_device_attr_find(d->dev, name);
}

const struct iio_attr *srv_iiod_dev_find_battr(const struct srv_iiod_dev *d, const char *name)
{
	char full[IIO_ATTR_NAME_MAX];
	const struct iio_attr *a;

	if (snprintf(full, sizeof(full), SRV_IIOD_XML_BUFFER_DIR "%s", name) >= (int)sizeof(full))
		return NULL;
	a = iio_device_attr_find(d->dev, full);
	/* a userspace driver's buffer files are the core's, which the XML does not offer */
	return a && a->kind != IIO_ATTR_BUFFER ? a : NULL;
}
