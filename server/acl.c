/*
 * acl.c - --allow-write: DEVICE:ATTR globs that say which attributes a
 * client may write (see acl.h).
 *
 * A device matches a pattern's DEVICE part if any of its names does: the
 * iio:deviceN id, the name, the label or the hardware id, the ways a
 * request may name it. The split is at the last ':' because attribute
 * names never hold one while "iio:deviceN" does. Matching is fnmatch(3)
 * without flags: '*' matches any run of characters, a leading '.' too.
 * Place in the flow: dispatch (and the iiod listener) -> *acl* -> allow or
 * refuse; the caller words the EACCES reply. Nothing here allocates or
 * keeps state.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "acl.h"
#include "board.h"
#include "dispatch_trig.h"
#include "iio_buffer.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "srv.h"

/* Longest "iio:deviceN" we build. */
#define SRV_ACL_DEVID_MAX	24

int srv_acl_check(const char *spec, char *err, size_t errlen)
{
	const char *colon = strrchr(spec, ':');

	if (!colon || colon == spec || !colon[1]) {
		snprintf(err, errlen, "--allow-write '%s': expected DEVICE:ATTR (globs allowed, "
			 "e.g. dummy0:out_voltage*_raw)", spec);
		return -EINVAL;
	}
	if ((size_t)(colon - spec) >= SRV_ALLOW_WRITE_DEVICE_MAX_BYTES) {
		snprintf(err, errlen, "--allow-write: device pattern longer than %d bytes",
			 SRV_ALLOW_WRITE_DEVICE_MAX_BYTES - 1);
		return -EINVAL;
	}
	return 0;
}

/* The names a request may give @dev: its iio:deviceN id, name, label, hardware id. */
static int srv_acl_dev_names(const struct iio_dev *dev, char *id, size_t idlen,
			     const char *names[4])
{
	int n = 0;

	snprintf(id, idlen, "iio:device%d", iio_device_id(dev));
	names[n++] = id;
	if (dev->name)
		names[n++] = dev->name;
	if (dev->label)
		names[n++] = dev->label;
	if (dev->hwid[0])
		names[n++] = dev->hwid;
	return n;
}

/* Does the one pattern @spec (checked by srv_acl_check()) allow @attr of the device @names name? */
static bool srv_acl_rule_match(const char *spec, const char *const *names, int nnames,
			       const char *attr)
{
	const char *colon = strrchr(spec, ':');
	char pat[SRV_ALLOW_WRITE_DEVICE_MAX_BYTES];
	size_t n;
	int i;

	if (!colon)
		return false;
	n = (size_t)(colon - spec);
	if (n >= sizeof(pat))
		return false;
	memcpy(pat, spec, n);
	pat[n] = '\0';
	if (fnmatch(colon + 1, attr, 0) != 0)
		return false;
	for (i = 0; i < nnames; i++)
		if (fnmatch(pat, names[i], 0) == 0)
			return true;
	return false;
}

bool srv_acl_may_write_named(const struct srv_config *cfg, const char *const *names,
			     int nnames, const char *attr)
{
	int i;

	if (!cfg->nallow_write)
		return true;
	for (i = 0; i < cfg->nallow_write; i++)
		if (srv_acl_rule_match(cfg->allow_write[i], names, nnames, attr))
			return true;
	return false;
}

bool srv_acl_may_write(const struct srv_config *cfg, const struct iio_dev *dev,
		       const char *attr)
{
	char id[SRV_ACL_DEVID_MAX];
	const char *names[4];
	int n = srv_acl_dev_names(dev, id, sizeof(id), names);

	return srv_acl_may_write_named(cfg, names, n, attr);
}

bool srv_acl_may(const struct srv_config *cfg, const struct iio_dev *dev, const char *attr)
{
	return cfg->nallow_write ? srv_acl_may_write(cfg, dev, attr) : !cfg->read_only;
}

static bool srv_acl_spec_allows(const char *spec, const struct iio_dev *dev, const char *attr)
{
	char id[SRV_ACL_DEVID_MAX];
	const char *names[4];
	int n = srv_acl_dev_names(dev, id, sizeof(id), names);

	return srv_acl_rule_match(spec, names, n, attr);
}

/* How many writable trigger files (dispatch_trig.h) @spec allows; @spec NULL: the policy. */
static int srv_acl_count_triggers(const struct srv *srv, const char *spec)
{
	const struct srv_config *cfg = &srv->cfg;
	const char *const *f;
	struct srv_trigdev td;
	int t, a, n = 0;

	for (t = 0; t < srv_trigdev_count(srv); t++) {
		srv_trigdev_at(srv, t, &td);
		f = srv_trigdev_files(srv, &td);
		for (a = 0; f[a]; a++) {
			if (!(srv_trigdev_attr_mode(srv, &td, f[a]) & 0222))
				continue;
			n += spec ? srv_acl_rule_match(spec, td.names, td.nnames, f[a]) :
				    srv_acl_may_write_named(cfg, td.names, td.nnames, f[a]);
		}
	}
	return n;
}

/* Is @attr a writable file of @dev that @spec allows (@spec NULL: the policy)? */
static bool srv_acl_counts(const struct srv_config *cfg, const char *spec,
			   const struct iio_dev *dev, const struct iio_attr *attr)
{
	if (!(attr->mode & 0222))
		return false;
	return spec ? srv_acl_spec_allows(spec, dev, attr->name) :
		      srv_acl_may_write(cfg, dev, attr->name);
}

/*
 * How many writable attributes of the board (its devices' buffer/ and
 * trigger/ files and the trigger devices' files too) @spec allows; @spec
 * NULL: how many the whole policy allows (each attribute once).
 */
static int srv_acl_count(const struct srv *srv, const char *spec)
{
	const struct srv_config *cfg = &srv->cfg;
	const struct iio_registry *reg = srv->board->reg;
	struct iio_dev *dev;
	int d, a, n = srv_acl_count_triggers(srv, spec);

	for (d = 0; d < iio_registry_count(reg); d++) {
		dev = iio_registry_at(reg, d);
		for (a = 0; a < iio_device_attr_count(dev); a++)
			n += srv_acl_counts(cfg, spec, dev, iio_device_attr_at(dev, a));
		for (a = 0; a < iio_device_buffer_attr_count(dev); a++)
			n += srv_acl_counts(cfg, spec, dev, iio_device_buffer_attr_at(dev, a));
	}
	return n;
}

void srv_acl_report(struct srv *srv)
{
	const struct srv_config *cfg = &srv->cfg;
	int i;

	if (!cfg->nallow_write)
		return;
	for (i = 0; i < cfg->nallow_write; i++)
		if (!srv_acl_count(srv, cfg->allow_write[i]))
			srv_warn(&srv->log, "--allow-write %s matches no writable attribute of "
				 "board %s", cfg->allow_write[i], srv->board->name);
	srv_info(&srv->log, "writes limited by %d --allow-write pattern(s): %d attribute(s) "
		 "writable", cfg->nallow_write, srv_acl_count(srv, NULL));
}
