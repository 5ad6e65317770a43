/*
 * iio_driver.c - the built-in drivers and how the core binds one.
 *
 * Drivers are found by walking the link-time section IIO_DRIVER_REGISTER()
 * fills, so this file never names one. Binding goes through
 * iio_driver_probe(): the core checks the bus the driver declares, runs its
 * probe, then gives the device its bus client, which is where every
 * hardware id is built ("0-0035", "spi0.1"). The probe-side kit lives here
 * too: board properties, vref_mv, and the probe messages of iio_kit.h.
 * Place in the flow: board loader -> *core* -> driver. Nothing here talks
 * to a chip or logs; iio_driver_list_print() writes only to the FILE given.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_near.h"
#include "iio_priv.h"
#include "bus/bus.h"

extern const struct iio_driver *const __start_iiowire_drivers[] __attribute__((weak));
extern const struct iio_driver *const __stop_iiowire_drivers[] __attribute__((weak));

/* Names of enum iio_driver_bus, as --list-drivers prints them. */
static const char *const iio_driver_bus_names[] = {
	[IIO_DRIVER_BUS_NONE] = "none",
	[IIO_DRIVER_BUS_I2C] = "i2c",
	[IIO_DRIVER_BUS_SPI] = "spi",
};

/* How many near names an "unknown driver" message offers (iio_near.h says how near). */
#define IIO_DRIVER_SUGGEST_MAX		4
/* chip names are short; a longer typed name is never near one */
#define IIO_DRIVER_NAME_MAX		32

size_t iio_driver_count(void)
{
	if (!__start_iiowire_drivers)
		return 0;
	return (size_t)(__stop_iiowire_drivers - __start_iiowire_drivers);
}

const struct iio_driver *iio_driver_at(size_t i)
{
	return i < iio_driver_count() ? __start_iiowire_drivers[i] : NULL;
}

const struct iio_driver *iio_driver_find(const char *name, const struct iio_device_id **id)
{
	const struct iio_device_id *row;
	const struct iio_driver *drv;
	size_t i;

	for (i = 0; (drv = iio_driver_at(i)); i++) {
		for (row = drv->id_table; row && row->name; row++) {
			if (strcmp(row->name, name) == 0) {
				if (id)
					*id = row;
				return drv;
			}
		}
	}
	return NULL;
}

const char *iio_driver_bus_name(enum iio_driver_bus bus)
{
	if ((size_t)bus >= ARRAY_SIZE(iio_driver_bus_names))
		return "?";
	return iio_driver_bus_names[bus];
}

/* One chip name and the driver that handles it. */
struct iio_driver_name {
	const char *name;
	const struct iio_driver *drv;
};

static int iio_driver_name_cmp(const void *a, const void *b)
{
	const struct iio_driver_name *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* Every chip name of every driver, unsorted. Return: the count (*out owned), or -ENOMEM. */
static int iio_driver_names(struct iio_driver_name **out)
{
	const struct iio_device_id *row;
	const struct iio_driver *drv;
	struct iio_driver_name *names;
	size_t i, n = 0;

	for (i = 0; (drv = iio_driver_at(i)); i++)
		for (row = drv->id_table; row && row->name; row++)
			n++;
	names = calloc(n + 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	n = 0;
	for (i = 0; (drv = iio_driver_at(i)); i++)
		for (row = drv->id_table; row && row->name; row++)
			names[n++] = (struct iio_driver_name){ row->name, drv };
	*out = names;
	return (int)n;
}

int iio_driver_list_print(FILE *f)
{
	struct iio_driver_name *names;
	int i, n;

	n = iio_driver_names(&names);
	if (n < 0)
		return n;
	qsort(names, (size_t)n, sizeof(*names), iio_driver_name_cmp);
	for (i = 0; i < n; i++)
		fprintf(f, "%-12s %-12s %s\n", names[i].name, names[i].drv->name,
			iio_driver_bus_name(names[i].drv->bus));
	free(names);
	return ferror(f) ? -EIO : n;
}

int iio_driver_suggest(const char *name, char *buf, size_t len)
{
	struct iio_driver_name *names;
	int i, n, d, best, count = 0;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	if (!name || strlen(name) >= IIO_DRIVER_NAME_MAX)
		return 0;
	n = iio_driver_names(&names);
	if (n < 0)
		return 0;
	qsort(names, (size_t)n, sizeof(*names), iio_driver_name_cmp);
	/* nearest first: one pass per nearness level, alphabetical within it */
	for (best = 0; best <= IIO_NEAR_FARTHEST; best++) {
		for (i = 0; i < n && count < IIO_DRIVER_SUGGEST_MAX; i++) {
			d = strlen(names[i].name) < IIO_DRIVER_NAME_MAX ?
			    iio_name_nearness(name, names[i].name) : -1;
			if (d != best || used >= len)
				continue;
			used += (size_t)snprintf(buf + used, len - used, "%s%s", count ? ", " : "",
						 names[i].name);
			count++;
		}
	}
	free(names);
	return count;
}

/* Whether @addr is in @list (ended by IIO_I2C_ADDR_END). */
static bool iio_driver_addr_listed(const unsigned short *list, unsigned int addr)
{
	for (; *list != IIO_I2C_ADDR_END; list++)
		if (*list == addr)
			return true;
	return false;
}

int iio_driver_addr_note(const struct iio_driver *drv, unsigned int addr, char *buf, size_t len)
{
	const unsigned short *a;
	size_t used;

	if (drv->address_list ? iio_driver_addr_listed(drv->address_list, addr) :
	    addr <= IIO_I2C_ADDR_DEVICE_MAX)
		return 0;
	if (!drv->address_list) {
		snprintf(buf, len, "0x%02x is in I2C's reserved range 0x%02x-0x7f: an 8-bit "
			 "datasheet address? The 7-bit one would be 0x%02x", addr,
			 IIO_I2C_ADDR_DEVICE_MAX + 1, addr >> 1);
		return 1;
	}
	used = (size_t)snprintf(buf, len, "0x%02x is not an address the %s family's datasheets "
				"give (", addr, drv->name);
	for (a = drv->address_list; *a != IIO_I2C_ADDR_END && used < len; a++)
		used += (size_t)snprintf(buf + used, len - used, "%s0x%02x",
					 a == drv->address_list ? "" : ", ", *a);
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, ")");
	/* datasheets often give the 8-bit address: the 7-bit one shifted left */
	if (used < len && !(addr & 1) && iio_driver_addr_listed(drv->address_list, addr >> 1))
		snprintf(buf + used, len - used, "; 0x%02x is 0x%02x shifted left one bit, a "
			 "datasheet's 8-bit address: a board file wants the 7-bit 0x%02x", addr,
			 addr >> 1, addr >> 1);
	return 1;
}

int iio_driver_probe(const struct iio_driver *drv, const struct iio_probe *p,
		     struct iio_dev **out, char *err, size_t errlen)
{
	struct iio_dev *dev = NULL;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (drv->bus == IIO_DRIVER_BUS_I2C && !p->i2c)
		return iio_probe_err(p, err, errlen, -EINVAL, "needs an I2C bus and address");
	if (drv->bus == IIO_DRIVER_BUS_SPI && !p->spi)
		return iio_probe_err(p, err, errlen, -EINVAL,
				     "needs an SPI bus and chip select");
	ret = drv->probe(p, &dev, err, errlen);
	if (ret < 0)
		return ret;
	if (!dev) {
		if (err && errlen)
			snprintf(err, errlen, "the driver made no device");
		return -ENODEV;
	}
	/* the device's from here: the final put runs remove() and destroys the client */
	iio_device_set_driver(dev, drv);
	if (p->i2c)
		iio_device_set_i2c(dev, p->i2c);
	if (p->spi)
		iio_device_set_spi(dev, p->spi);
	*out = dev;
	return 0;
}

/* ---- the probe side of the kit ---- */

int iio_probe_prop_int(const struct iio_probe *p, const char *key, int *val)
{
	if (!p->prop_int)
		return -ENOENT;
	return p->prop_int(p->props, key, val);
}

int iio_probe_prop_str(const struct iio_probe *p, const char *key, const char **val)
{
	if (!p->prop_str)
		return -ENOENT;
	return p->prop_str(p->props, key, val);
}

int iio_probe_part(const struct iio_probe *p, size_t nparts, const char *family, char *err,
		   size_t errlen)
{
	if (!p->id || p->id->driver_data >= nparts)
		return iio_probe_err(p, err, errlen, -EINVAL, "no such %s part", family);
	return (int)p->id->driver_data;
}

int iio_probe_adc(const struct iio_probe *p, size_t nparts, const char *family, int *vref_mv,
		  char *err, size_t errlen)
{
	int row = iio_probe_part(p, nparts, family, err, errlen);
	int ret;

	if (row < 0)
		return row;
	ret = iio_probe_vref_mv(p, vref_mv, err, errlen);
	return ret ? ret : row;
}

int iio_probe_prop_mv(const struct iio_probe *p, const char *key, int *mv, char *err,
		      size_t errlen)
{
	int ret = iio_probe_prop_int(p, key, mv);

	if (ret == -ENOENT) {
		*mv = 0;
		return 0;
	}
	if (ret == 0 && *mv > 0)
		return 0;
	return iio_probe_err(p, err, errlen, -EINVAL, "%s must be a positive integer", key);
}

int iio_probe_vref_mv(const struct iio_probe *p, int *vref_mv, char *err, size_t errlen)
{
	return iio_probe_prop_mv(p, "vref_mv", vref_mv, err, errlen);
}

const char *iio_errno_name(int err, char *buf, size_t len)
{
	const char *name = strerrorname_np(err < 0 ? -err : err);

	if (name)
		return name;
	snprintf(buf, len, "errno %d", err < 0 ? -err : err);
	return buf;
}

int iio_hwid_format(char *buf, size_t len, const struct bus_i2c_client *i2c,
		    const struct bus_spi_device *spi)
{
	int n = 0;

	if (i2c)
		n = snprintf(buf, len, "%d-%04x", i2c->bus->number, i2c->addr);
	else if (spi)
		n = snprintf(buf, len, "spi%d.%d", spi->bus->number, spi->cs);
	else if (len)
		buf[0] = '\0';
	return n < 0 ? 0 : (size_t)n >= len ? (int)len - 1 : n;
}

int iio_probe_hwid(const struct iio_probe *p, char *buf, size_t len)
{
	return iio_hwid_format(buf, len, p->i2c, p->spi);
}

/* How a probe message spells where the device sits. */
enum iio_probe_place {
	IIO_PROBE_PLACE_HWID,	/* "0-0035", "spi0.1" */
	IIO_PROBE_PLACE_BOARD,	/* "i2c-0 0x35", "spi0 chip select 1" */
};

static void iio_probe_place(const struct iio_probe *p, enum iio_probe_place style, char *buf,
			    size_t len)
{
	if (style == IIO_PROBE_PLACE_HWID)
		iio_probe_hwid(p, buf, len);
	else if (p->i2c)
		snprintf(buf, len, "i2c-%d 0x%02x", p->i2c->bus->number, p->i2c->addr);
	else if (p->spi)
		snprintf(buf, len, "spi%d chip select %d", p->spi->bus->number, p->spi->cs);
	else
		buf[0] = '\0';
}

static int iio_probe_verr(const struct iio_probe *p, enum iio_probe_place style, char *err,
			  size_t errlen, int ret, const char *fmt, va_list ap)
{
	const char *name = p->name ? p->name : p->id ? p->id->name : "?";
	char msg[256], place[48], ebuf[24];

	if (!err || !errlen)
		return ret;
	iio_probe_place(p, style, place, sizeof(place));
	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(err, errlen, "%s%s%s: %s%s%s%s", name, place[0] ? " at " : "", place, msg,
		 ret < 0 ? " (" : "", ret < 0 ? iio_errno_name(ret, ebuf, sizeof(ebuf)) : "",
		 ret < 0 ? ")" : "");
	return ret;
}

int iio_probe_err(const struct iio_probe *p, char *err, size_t errlen, int ret,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	iio_probe_verr(p, IIO_PROBE_PLACE_HWID, err, errlen, ret, fmt, ap);
	va_end(ap);
	return ret;
}

int iio_probe_err_bus(const struct iio_probe *p, char *err, size_t errlen, int ret,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	iio_probe_verr(p, IIO_PROBE_PLACE_BOARD, err, errlen, ret, fmt, ap);
	va_end(ap);
	return ret;
}
