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

static bool srv_acl_dev_match(const char *pat, const struct iio_dev *dev)
{
	char id[SRV_ACL_DEVID_MAX];

	snprintf(id, sizeof(id), "iio:device%d", iio_device_id(dev));
	if (fnmatch(pat, id, 0) == 0)
		return true;
	if (dev->name && fnmatch(pat, dev->name, 0) == 0)
		return true;
	if (dev->label && fnmatch(pat, dev->label, 0) == 0)
		return true;
	return dev->hwid[0] && fnmatch(pat, dev->hwid, 0) == 0;
}

/* Does the one pattern @spec (checked by srv_acl_check()) allow @attr of @dev? */
static bool srv_acl_rule_match(const char *spec, const struct iio_dev *dev, const char *attr)
{
	const char *colon = strrchr(spec, ':');
	char pat[SRV_ALLOW_WRITE_DEVICE_MAX_BYTES];
	size_t n;

	if (!colon)
		return false;
	n = (size_t)(colon - spec);
	if (n >= sizeof(pat))
		return false;
	memcpy(pat, spec, n);
	pat[n] = '\0';
	return fnmatch(colon + 1, attr, 0) == 0 && srv_acl_dev_match(pat, dev);
}

bool srv_acl_may_write(const struct srv_config *cfg, const struct iio_dev *dev,
		       const char *attr)
{
	int i;

	if (!cfg->nallow_write)
		return true;
	for (i = 0; i < cfg->nallow_write; i++)
		if (srv_acl_rule_match(cfg->allow_write[i], dev, attr))
			return true;
	return false;
}

/*
 * How many writable attributes of the board @spec allows; @spec NULL: how
 * many the whole policy allows (each attribute once).
 */
static int srv_acl_count(const struct srv_config *cfg, const char *spec,
			 const struct iio_registry *reg)
{
	const struct iio_attr *attr;
	struct iio_dev *dev;
	int d, a, n = 0;
	bool ok;

	for (d = 0; d < iio_registry_count(reg); d++) {
		dev = iio_registry_at(reg, d);
		for (a = 0; a < iio_device_attr_count(dev); a++) {
			attr = iio_device_attr_at(dev, a);
			if (!(attr->mode & 0222))
				continue;
			ok = spec ? srv_acl_rule_match(spec, dev, attr->name) :
				    srv_acl_may_write(cfg, dev, attr->name);
			n += ok;
		}
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
		if (!srv_acl_count(cfg, cfg->allow_write[i], srv->board->reg))
			srv_warn(&srv->log, "--allow-write %s matches no writable attribute of "
				 "board %s", cfg->allow_write[i], srv->board->name);
	srv_info(&srv->log, "writes limited by %d --allow-write pattern(s): %d attribute(s) "
		 "writable", cfg->nallow_write, srv_acl_count(cfg, NULL, srv->board->reg));
}
