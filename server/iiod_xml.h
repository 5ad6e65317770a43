/*
 * iiod_xml.h - the registry as libiio sees it: devices, channels grouped
 * from attribute names, and the XML context that PRINT returns.
 *
 * libiio builds its channels from sysfs file names (in_voltage0_raw is
 * attribute "raw" of input channel "voltage0"); iiowire's core generates
 * exactly the kernel's names, so this file applies the same grouping to
 * them once per board and keeps the result: a struct srv_iiod_ctx that
 * maps every (device, channel, short attribute name) a libiio client can
 * send back to the core's struct iio_attr, plus the XML text. Place in the
 * flow: core -> *iiod model* -> iiod row (iiod_proto.c) -> wire. It never does
 * device I/O (the XML is built from names alone) and never touches sockets.
 */
#ifndef IIOWIRE_SRV_IIOD_XML_H
#define IIOWIRE_SRV_IIOD_XML_H

#include <stdbool.h>
#include <stddef.h>

struct iio_registry;
struct iio_dev;
struct iio_attr;

/* Longest "iio:deviceN" the model keeps. */
#define SRV_IIOD_DEVID_MAX	24

/** struct srv_iiod_attr - a channel attribute: short name and the core's attribute. */
struct srv_iiod_attr {
	char *name;			/* "raw", as the XML names it (owned) */
	const struct iio_attr *attr;	/* borrowed: valid while the device lives */
};

/**
 * struct srv_iiod_chan - a channel as libiio groups it.
 * @id: "voltage0", "accel_x", "voltage0-voltage1", "steps" (owned).
 * @name: the common prefix of its attribute names ("vccint"), or NULL.
 * @scan_index: the scan element's index, -1 when the channel has none.
 * @format: the scan element's format ("le:S64/64>>0"); "" without one.
 * @attrs: sorted by name, as libiio lists them.
 */
struct srv_iiod_chan {
	char *id;
	char *name;
	bool output;
	int scan_index;
	char format[32];
	struct srv_iiod_attr *attrs;
	int nattrs;
	struct srv_iiod_attr *evattrs;	/* events/ files (libiio 1.0), sorted by name */
	int nevattrs;
	/* private */
	int cap;
	int evcap;
	int order;		/* creation order: the sort key after the scan index */
	char scan_prefix[64];	/* the short name of the scan element's files, less "index" */
};

/**
 * struct srv_iiod_dev - one device.
 * @dev: borrowed from the registry the model was built from.
 * @chans: scan elements first, by index, then the others (libiio's order).
 * @attrs: device attributes (what no channel took), sorted by name.
 * @battrs: buffer attributes: a device's own buffer/ files (a mirrored
 *	kernel device's), but length, enable and watermark, which libiio
 *	handles itself; sorted by name. Their XML name follows "buffer/".
 * @evattrs: the events/ files no channel takes (libiio 1.0's device event
 *	attributes), sorted by name; their XML name follows "events/".
 */
struct srv_iiod_dev {
	struct iio_dev *dev;
	char id[SRV_IIOD_DEVID_MAX];
	struct srv_iiod_chan *chans;
	int nchans;
	const struct iio_attr **attrs;
	int nattrs;
	const struct iio_attr **battrs;
	int nbattrs;
	const struct iio_attr **evattrs;
	int nevattrs;
	/* private */
	int cap;
};

/** struct srv_iiod_ctx_attr - one context attribute (name, value) of the XML. */
struct srv_iiod_ctx_attr {
	const char *name;
	const char *value;
};

/**
 * struct srv_iiod_bdev - a device as libiio 1.0 numbers them: its context
 * sorts devices by id (strcmp), and the binary protocol names a device by
 * its place in that order.
 * @d: an iio:deviceN; NULL for a trigger or the iio_sysfs_trigger.
 * @files: a trigger's (or the iio_sysfs_trigger's) attributes, sorted by
 *	name as the client numbers them (owned array and strings).
 */
struct srv_iiod_bdev {
	char id[SRV_IIOD_DEVID_MAX];
	const struct srv_iiod_dev *d;
	char **files;
	int nfiles;
};

/**
 * struct srv_iiod_ctx - the model and XML of one registry. Made by
 * srv_iiod_ctx_create(), ended by srv_iiod_ctx_destroy(). Valid as long as
 * the registry it was built from (a board reload needs a new one).
 * @xml/@xml_len: the XML context for libiio 0.2x, one line, no trailing
 *	newline (owned).
 * @xml1/@xml1_len: the same for libiio 1.0 clients (the binary protocol):
 *	version 1.0, event attributes, <buffer> elements.
 * @bdevs: every device in libiio 1.0's order.
 */
struct srv_iiod_ctx {
	struct srv_iiod_dev *devs;
	int ndevs;
	char *xml;
	size_t xml_len;
	char *xml1;
	size_t xml1_len;
	struct srv_iiod_bdev *bdevs;
	int nbdevs;
};

/**
 * srv_iiod_ctx_create() - group every device of @reg and write the XML.
 * @ctl_files: the kernel's iio_sysfs_trigger's files (NULL-ended), listed
 *	as a device of that id without a name, as iiod 0.24's local backend
 *	lists every directory of the bus; NULL: no such device.
 * @description: the context's description attribute; NULL for none.
 * @attrs/@nattrs: context attributes; copied into the XML.
 * Return: 0 with *@out owned (free with srv_iiod_ctx_destroy()), or
 * -ENOMEM, or -ENAMETOOLONG for a name the core could not build.
 */
int srv_iiod_ctx_create(const struct iio_registry *reg, const char *const *ctl_files,
			const char *description,
			const struct srv_iiod_ctx_attr *attrs, int nattrs,
			struct srv_iiod_ctx **out);

/** srv_iiod_ctx_destroy() - free the model and its XML; NULL-safe. */
void srv_iiod_ctx_destroy(struct srv_iiod_ctx *ctx);

/**
 * srv_iiod_ctx_find_dev() - a device by id ("iio:device0"), then by label,
 * then by name, as iiod looks them up. Return: borrowed, or NULL.
 */
const struct srv_iiod_dev *srv_iiod_ctx_find_dev(const struct srv_iiod_ctx *ctx,
						 const char *key);

/**
 * srv_iiod_dev_find_chan() - an input or output channel by id, then by name.
 * Return: borrowed, or NULL.
 */
const struct srv_iiod_chan *srv_iiod_dev_find_chan(const struct srv_iiod_dev *d,
						   const char *key, bool output);

/** srv_iiod_chan_find_attr() - a channel attribute by short name; borrowed, or NULL. */
const struct iio_attr *srv_iiod_chan_find_attr(const struct srv_iiod_chan *c,
					       const char *name);

/**
 * srv_iiod_dev_find_attr() - a device attribute by name. Like iiod, which
 * opens any file of the device's sysfs directory, a name that the XML
 * gives to a channel ("in_voltage0_raw") or leaves out ("name") is found
 * too, by its full name. Return: borrowed, or NULL.
 */
const struct iio_attr *srv_iiod_dev_find_attr(const struct srv_iiod_dev *d, const char *name);

/**
 * srv_iiod_dev_find_battr() - READ/WRITE BUFFER @name: the device's file
 * buffer/@name (like iiod, one the XML leaves out too: "length"); a
 * mirrored kernel device's only (a userspace driver's are the core's).
 * Return: borrowed, or NULL.
 */
const struct iio_attr *srv_iiod_dev_find_battr(const struct srv_iiod_dev *d, const char *name);

#endif /* IIOWIRE_SRV_IIOD_XML_H */
