/*
 * board.c - board files: JSON in, a registry of probed devices out.
 *
 * A board file says which buses exist (emulated, /dev/i2c-N, spidev), which
 * chip sits where, what an emulated chip's inputs do, and which consumer
 * channels map to which provider channels (schema: maps/README.md). Loading
 * opens the buses, creates chip models on emulated buses (board_emu.c),
 * binds every device through the driver whose id table names it
 * (iio_driver_probe()), registers it, then checks and registers the maps.
 * Place in the flow: it assembles bus -> driver -> core before the server
 * starts. Loading is all or nothing: any error unwinds every device and bus
 * and returns one message "FILE: PATH: what" (or "FILE:LINE:COL: ..." for
 * JSON syntax, board_json.c). cJSON never leaves the board loader, and
 * nothing here logs or touches a chip directly.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board_priv.h"
#include "iio_buffer.h"
#include "bus/bus.h"
#include "emu/emu.h"
#include "iio_irq.h"
#include "iio.h"
#include "iio_core.h"
#include "iio_source.h"

/* ---- buses ---- */

/* "i2c-N" or "spiN", N decimal without leading zeros. Return: 0 or -EINVAL. */
static int board_parse_bus_key(const char *key, enum bus_type *type, int *number)
{
	const char *p;
	long n = 0;

	if (strncmp(key, "i2c-", 4) == 0) {
		*type = BUS_I2C;
		p = key + 4;
	} else if (strncmp(key, "spi", 3) == 0) {
		*type = BUS_SPI;
		p = key + 3;
	} else {
		return -EINVAL;
	}
	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1]))
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		n = n * 10 + (*p - '0');
		if (n > BOARD_BUS_NUMBER_MAX)
			return -EINVAL;
	}
	*number = (int)n;
	return 0;
}

static int board_open_bus(struct board_ctx *ctx, const cJSON *obj)
{
	static const char *const known[] = { "type", "backend", "device", NULL };
	struct board *b = &ctx->bp->b;
	const char *type_s = NULL, *backend = NULL, *device = NULL;
	char path[BOARD_PATH_MAX], p[BOARD_PATH_MAX];
	const struct bus_ops *ops;
	enum bus_type type;
	struct bus *bus;
	int number, ret;

	board_path_key(path, sizeof(path), "buses", obj->string);
	if (board_parse_bus_key(obj->string, &type, &number))
		return board_err(ctx, path, "a bus is named i2c-N or spiN (N from 0 to %d)",
				 BOARD_BUS_NUMBER_MAX);
	if (!cJSON_IsObject(obj))
		return board_err(ctx, path, "expected an object, not %s", board_json_type(obj));
	ret = board_check_keys(ctx, obj, path, known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, obj, path, "type", false, 0, &type_s);
	if (ret == -EINVAL)
		return ret;
	board_path_key(p, sizeof(p), path, "type");
	if (type_s && strcmp(type_s, type == BUS_I2C ? "i2c" : "spi") != 0)
		return board_err(ctx, p, "\"%s\" does not match the bus name %s (\"%s\")", type_s,
				 obj->string, type == BUS_I2C ? "i2c" : "spi");
	ret = board_get_string(ctx, obj, path, "backend", true, 0, &backend);
	if (ret)
		return ret;
	board_path_key(p, sizeof(p), path, "backend");
	ops = bus_backend_find(backend);
	if (!ops)
		return board_err(ctx, p, "unknown backend %s (emulated, i2c-dev, spidev)", backend);
	if ((type == BUS_I2C && strcmp(backend, "spidev") == 0) ||
	    (type == BUS_SPI && strcmp(backend, "i2c-dev") == 0))
		return board_err(ctx, p, "%s cannot drive %s", backend, obj->string);
	ret = board_get_string(ctx, obj, path, "device", ops != ctx->emu_ops, PATH_MAX, &device);
	if (ret == -EINVAL)
		return ret;
	ret = bus_create(ops, type, number, device, &bus);
	if (ret) {
		board_path_key(p, sizeof(p), path, device ? "device" : "backend");
		return board_err(ctx, p, "cannot open %s: %s", device ? device : backend,
				 strerror(-ret));
	}
	b->bus_names[b->nbuses] = strdup(obj->string);
	b->buses[b->nbuses++] = bus;
	if (!b->bus_names[b->nbuses - 1])
		return board_err(ctx, path, "%s", strerror(ENOMEM));
	return 0;
}

static int board_open_buses(struct board_ctx *ctx, const cJSON *root)
{
	struct board *b = &ctx->bp->b;
	const cJSON *buses, *it;
	int n, ret;

	ret = board_get_object(ctx, root, "", "buses", &buses);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	/* every key is a bus name, checked by board_open_bus(); only duplicates here */
	ret = board_check_keys(ctx, buses, "buses", NULL, NULL);
	if (ret)
		return ret;
	n = cJSON_GetArraySize(buses);
	if (n > BOARD_BUSES_MAX)
		return board_err(ctx, "buses", "more than %d buses", BOARD_BUSES_MAX);
	b->buses = calloc((size_t)n + 1, sizeof(*b->buses));
	b->bus_names = calloc((size_t)n + 1, sizeof(*b->bus_names));
	if (!b->buses || !b->bus_names)
		return board_err(ctx, "buses", "%s", strerror(ENOMEM));
	cJSON_ArrayForEach(it, buses) {
		ret = board_open_bus(ctx, it);
		if (ret)
			return ret;
	}
	return 0;
}

static int board_bus_index(const struct board *b, const char *key)
{
	int i;

	for (i = 0; i < b->nbuses; i++)
		if (strcmp(b->bus_names[i], key) == 0)
			return i;
	return -1;
}

struct bus *board_find_bus(const struct board *b, const char *key)
{
	int i;

	if (!b || !key)
		return NULL;
	i = board_bus_index(b, key);
	return i < 0 ? NULL : b->buses[i];
}


/* ---- devices ---- */

/* Where a device sits, read from "bus" and "address"/"cs". */
struct board_place {
	int bus;		/* index, -1 when bus-less */
	int addr;
	bool emulated;
};

static int board_device_place(struct board_ctx *ctx, const cJSON *obj, const char *path,
			      struct board_place *pl)
{
	const struct board *b = &ctx->bp->b;
	const cJSON *addr = cJSON_GetObjectItemCaseSensitive(obj, "address");
	const cJSON *cs = cJSON_GetObjectItemCaseSensitive(obj, "cs");
	const char *busname;
	char p[BOARD_PATH_MAX];
	struct bus *bus;
	long v;
	int i, ret;

	pl->bus = -1;
	pl->addr = 0;
	pl->emulated = false;
	ret = board_get_string(ctx, obj, path, "bus", false, 0, &busname);
	if (ret == -EINVAL)
		return ret;
	if (ret == -ENOENT) {
		if (addr || cs) {
			board_path_key(p, sizeof(p), path, addr ? "address" : "cs");
			return board_err(ctx, p, "given without a \"bus\"");
		}
		return 0;
	}
	board_path_key(p, sizeof(p), path, "bus");
	pl->bus = board_bus_index(b, busname);
	if (pl->bus < 0)
		return board_err(ctx, p, "no bus %s in \"buses\"", busname);
	bus = b->buses[pl->bus];
	pl->emulated = bus->ops == ctx->emu_ops;
	if (bus->type == BUS_I2C) {
		board_path_key(p, sizeof(p), path, cs ? "cs" : "address");
		if (cs)
			return board_err(ctx, p, "a chip select is for SPI; %s is I2C", busname);
		if (!addr)
			return board_near_key(ctx, obj, path, "address") ?:
			       board_err(ctx, p, "missing (the chip's 7-bit I2C address)");
		if (!board_is_integer_or_string(addr, 0, 0x7f, &v))
			return board_err(ctx, p, "expected a 7-bit I2C address (\"0x35\" or 53)");
	} else {
		board_path_key(p, sizeof(p), path, addr ? "address" : "cs");
		if (addr)
			return board_err(ctx, p, "an SPI device has a \"cs\", not an address");
		if (!cs)
			return board_near_key(ctx, obj, path, "cs") ?:
			       board_err(ctx, p, "missing (the chip select on %s)", busname);
		if (!board_is_integer(cs, 0, BOARD_SPI_CS_MAX, &v))
			return board_err(ctx, p, "expected a chip select from 0 to %d",
					 BOARD_SPI_CS_MAX);
	}
	pl->addr = (int)v;
	for (i = 0; i < ctx->bp->ndevs; i++) {
		if (ctx->bp->devs[i].bus == pl->bus && ctx->bp->devs[i].addr == pl->addr)
			return board_err(ctx, p, "%s %d-%04x is taken by devices[%d]",
					 bus->type == BUS_I2C ? "address" : "chip select",
					 bus->number, pl->addr, i);
	}
	return 0;
}

static char *board_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* What a device object says, read and checked before anything is created for it. */
struct board_device_spec {
	const struct iio_driver *drv;
	const struct iio_device_id *id;
	const char *driver, *label, *name;	/* borrowed from the JSON */
	long vref;				/* 0: not given */
	struct board_place pl;
	const cJSON *fobj;			/* "fault", or NULL */
	struct emu_fault fault;
	bool fault_from_probe;
	struct iio_irq_spec irq;		/* "irq"; kind NONE when absent */
};

/* The word of an "irq" that names the chip model's own output. */
#define BOARD_IRQ_EMULATED	"emulated"

/*
 * "irq": "emulated" (the model's output, on an emulated bus) or
 * {"chip": "gpiochip0", "line": 17} (a GPIO line, requested at probe).
 */
static int board_device_irq(struct board_ctx *ctx, const cJSON *obj, const char *path,
			    struct board_device_spec *ds)
{
	static const char *const known[] = { "chip", "line", NULL };
	const cJSON *irq = cJSON_GetObjectItemCaseSensitive(obj, "irq");
	const char *chip = NULL;
	char p[BOARD_PATH_MAX];
	long line = 0;

	if (!irq)
		return 0;
	board_path_key(p, sizeof(p), path, "irq");
	if (cJSON_IsString(irq) && !strcmp(irq->valuestring, BOARD_IRQ_EMULATED)) {
		if (!ds->pl.emulated)
			return board_err(ctx, p, "\"%s\" only for a device on an emulated bus",
					 BOARD_IRQ_EMULATED);
		ds->irq.kind = IIO_IRQ_EMULATED;
		ds->irq.bus = ctx->bp->b.buses[ds->pl.bus];
		ds->irq.addr = (uint16_t)ds->pl.addr;
		return 0;
	}
	if (!cJSON_IsObject(irq))
		return board_err(ctx, p, "expected \"%s\" or {\"chip\": ..., \"line\": N}",
				 BOARD_IRQ_EMULATED);
	if (board_check_keys(ctx, irq, p, known, NULL) ||
	    board_get_string(ctx, irq, p, "chip", true, IIO_IRQ_CHIP_MAX - 1, &chip) ||
	    board_get_int(ctx, irq, p, "line", true, 0, 65535, &line))
		return -EINVAL;
	ds->irq.kind = IIO_IRQ_GPIO;
	snprintf(ds->irq.chip, sizeof(ds->irq.chip), "%s", chip);
	ds->irq.line = (unsigned int)line;
	return 0;
}

/* "unknown driver max1364x (nearest: max1364, ...)"; just the first part when none is near. */
static int board_unknown_driver(struct board_ctx *ctx, const char *path, const char *driver)
{
	char p[BOARD_PATH_MAX], near[BOARD_ERR_MAX / 4];

	board_path_key(p, sizeof(p), path, "driver");
	if (iio_driver_suggest(driver, near, sizeof(near)) > 0)
		return board_err(ctx, p, "unknown driver %s (nearest: %s)", driver, near);
	return board_err(ctx, p, "unknown driver %s", driver);
}

/* The keys every driver shares: driver, place, label, name, vref_mv, emulate and fault. */
static int board_device_read(struct board_ctx *ctx, const cJSON *obj, const char *path,
			     struct board_device_spec *ds)
{
	char p[BOARD_PATH_MAX];
	int ret, i;

	if (!cJSON_IsObject(obj))
		return board_err(ctx, path, "expected an object, not %s", board_json_type(obj));
	if (cJSON_GetArraySize(obj) > BOARD_DEVICE_KEYS_MAX)
		return board_err(ctx, path, "more than %d keys", BOARD_DEVICE_KEYS_MAX);
	/* duplicates now; unknown keys once the driver has read what it wants */
	ret = board_check_keys(ctx, obj, path, NULL, NULL);
	if (!ret)
		ret = board_get_string(ctx, obj, path, "driver", true, 0, &ds->driver);
	if (ret)
		return ret;
	ds->drv = iio_driver_find(ds->driver, &ds->id);
	if (!ds->drv)
		return board_unknown_driver(ctx, path, ds->driver);
	ret = board_device_place(ctx, obj, path, &ds->pl);
	if (ret)
		return ret;
	if (board_get_string(ctx, obj, path, "label", false, BOARD_LABEL_MAX_BYTES,
			     &ds->label) == -EINVAL ||
	    board_get_string(ctx, obj, path, "name", false, BOARD_LABEL_MAX_BYTES,
			     &ds->name) == -EINVAL ||
	    board_get_int(ctx, obj, path, "vref_mv", false, 1, INT_MAX, &ds->vref) == -EINVAL)
		return -EINVAL;
	if (ds->name && !ds->drv->takes_name) {
		board_path_key(p, sizeof(p), path, "name");
		return board_err(ctx, p, "%s is named by its id, as in the kernel; use \"label\"",
				 ds->driver);
	}
	if (board_device_irq(ctx, obj, path, ds))
		return -EINVAL;
	for (i = 0; i < 2 && !ds->pl.emulated; i++) {
		const char *key = i ? "fault" : "emulate";

		board_path_key(p, sizeof(p), path, key);
		if (cJSON_GetObjectItemCaseSensitive(obj, key))
			return board_err(ctx, p, "only for a device on an emulated bus");
	}
	ret = board_get_object(ctx, obj, path, "fault", &ds->fobj);
	if (ret == -EINVAL)
		return ret;
	if (!ds->fobj)
		return 0;
	board_path_key(p, sizeof(p), path, "fault");
	return board_parse_fault(ctx, ds->fobj, p, &ds->fault, &ds->fault_from_probe);
}

/* The chip model behind an emulated device, and its fault when armed from the probe on. */
static int board_device_emulate(struct board_ctx *ctx, const cJSON *obj, const char *path,
				const struct board_device_spec *ds, struct bus *bus)
{
	char p[BOARD_PATH_MAX];
	int ret;

	ret = board_emulate(ctx, obj, path, ds->driver, bus, ds->pl.addr, (int)ds->vref);
	if (ret)
		return ret;
	if (ds->fobj && ds->fault_from_probe &&
	    emu_bus_set_fault(bus, (uint16_t)ds->pl.addr, &ds->fault)) {
		board_path_key(p, sizeof(p), path, "fault");
		return board_err(ctx, p, "cannot arm the fault");
	}
	return 0;
}

/*
 * Keep what the device borrows from the JSON, which goes away after loading.
 * A driver that takes the board's "name" copies it.
 */
static int board_device_keep_strings(struct board_ctx *ctx, const char *path,
				     struct board_dev *bd, const struct board_device_spec *ds)
{
	bd->label = board_strdup(ds->label);
	if (ds->label && !bd->label)
		return board_err(ctx, path, "%s", strerror(ENOMEM));
	if (ds->label)
		bd->dev->label = bd->label;
	return 0;
}

/* Create the bus client @ds asks for on @bus (none without a bus). Return: 0 or -EINVAL. */
static int board_device_client(struct board_ctx *ctx, const char *path, struct bus *bus,
			       int addr, struct iio_probe *probe)
{
	char p[BOARD_PATH_MAX];
	int ret = 0;

	if (bus && bus->type == BUS_I2C)
		ret = bus_i2c_client_create(bus, (uint16_t)addr, &probe->i2c);
	else if (bus)
		ret = bus_spi_device_create(bus, addr, &probe->spi);
	if (!ret)
		return 0;
	board_path_key(p, sizeof(p), path, bus->type == BUS_I2C ? "address" : "cs");
	return board_err(ctx, p, "%s", strerror(-ret));
}

/*
 * Bind the device @ds describes and register it. The bus client passes to
 * the device when the probe succeeds; everything else unwinds here.
 */
static int board_device_bind(struct board_ctx *ctx, const cJSON *obj, const char *path,
			     const struct board_device_spec *ds)
{
	static const char *const known[] = {
		"driver", "bus", "address", "cs", "label", "name", "vref_mv", "emulate", "fault",
		"irq", NULL,
	};
	struct board_priv *bp = ctx->bp;
	struct board_dev *bd = &bp->devs[bp->ndevs];
	struct bus *bus = ds->pl.bus >= 0 ? bp->b.buses[ds->pl.bus] : NULL;
	struct board_props props = { .obj = obj };
	struct iio_probe probe = {
		.id = ds->id, .name = ds->name ? ds->name : ds->id->name, .label = ds->label,
		.props = &props, .prop_int = board_prop_int, .prop_str = board_prop_str,
		.reg = bp->b.reg, .irq = &ds->irq,
	};
	char p[BOARD_PATH_MAX], perr[BOARD_ERR_MAX];
	int ret;

	bd->bus = ds->pl.bus;
	bd->addr = ds->pl.addr;
	if (ds->pl.emulated && board_device_emulate(ctx, obj, path, ds, bus))
		return -EINVAL;
	if (board_device_client(ctx, path, bus, ds->pl.addr, &probe))
		return -EINVAL;
	ret = iio_driver_probe(ds->drv, &probe, &bd->dev, perr, sizeof(perr));
	if (ret) {
		bus_i2c_client_destroy(probe.i2c);
		bus_spi_device_destroy(probe.spi);
		return board_err(ctx, path, "%s", perr[0] ? perr : strerror(-ret));
	}
	/* the device owns its bus client now: the final put runs remove() and frees it */
	ret = board_check_keys(ctx, obj, path, known, props.used);
	if (!ret)
		ret = board_device_keep_strings(ctx, path, bd, ds);
	if (!ret) {
		ret = iio_device_register(bp->b.reg, bd->dev, perr, sizeof(perr));
		if (ret)
			ret = board_err(ctx, path, "cannot register %s: %s", ds->driver,
					perr[0] ? perr : strerror(-ret));
	}
	if (ret) {
		iio_device_put(bd->dev);
		free(bd->label);
		memset(bd, 0, sizeof(*bd));
		return ret;
	}
	bp->ndevs++;
	if (ds->fobj && !ds->fault_from_probe &&
	    emu_bus_set_fault(bus, (uint16_t)ds->pl.addr, &ds->fault)) {
		board_path_key(p, sizeof(p), path, "fault");
		return board_err(ctx, p, "cannot arm the fault");
	}
	return 0;
}

/*
 * A device of a source the board names while the source serves every one
 * (--kernel): it is there already (the source's scan ran first); check that
 * it exists and that the entry holds nothing else. Return: 0 or -EINVAL.
 */
static int board_source_named(struct board_ctx *ctx, const struct iio_source *src,
			      const cJSON *obj, const char *path)
{
	static const char *const known[] = { "driver", "device", NULL };
	char p[BOARD_PATH_MAX], why[BOARD_ERR_MAX / 2];
	const char *key;
	int ret;

	ret = board_check_keys(ctx, obj, path, known, NULL);
	if (!ret)
		ret = board_get_string(ctx, obj, path, "device", true, 0, &key);
	if (ret)
		return ret;
	board_path_key(p, sizeof(p), path, "device");
	if (src->find(key, why, sizeof(why)))
		return board_err(ctx, p, "%s", why);
	return 0;
}

/*
 * @source_pass: a source's devices (a kernel device named by the board) are
 * bound in a first pass, so that they get their own numbers (iio:deviceN)
 * before the board's take the lowest free ones.
 */
static int board_add_device(struct board_ctx *ctx, const cJSON *obj, const char *path,
			    bool source_pass)
{
	struct board_device_spec ds = { 0 };
	const struct iio_source *src;
	int ret;

	ret = board_device_read(ctx, obj, path, &ds);
	if (ret)
		return ret;
	src = iio_source_of_driver(ds.drv);
	if ((src != NULL) != source_pass)
		return 0;
	ctx->bp->b.names_source |= src != NULL;
	if (src && src->serves_all())
		return board_source_named(ctx, src, obj, path);
	return board_device_bind(ctx, obj, path, &ds);
}

/*
 * Every source serving all its devices (--kernel) registers them, with its
 * triggers (their own numbers, before the board's take the lowest free
 * ones) and its iio_sysfs_trigger, before the board's own devices.
 */
static int board_add_sources(struct board_ctx *ctx)
{
	char why[BOARD_ERR_MAX / 2] = "";
	const struct iio_source *src;
	size_t i;
	int ret;

	for (i = 0; i < iio_source_count(); i++) {
		src = iio_source_at(i);
		if (!src->serves_all())
			continue;
		ret = src->scan(ctx->bp->b.reg, why, sizeof(why));
		if (ret < 0)
			return board_err(ctx, src->origin, "%s", why[0] ? why : strerror(-ret));
	}
	return 0;
}

static int board_add_devices(struct board_ctx *ctx, const cJSON *root)
{
	const cJSON *devices, *it;
	char path[BOARD_PATH_MAX];
	int i = 0, ret;

	int pass;

	ret = board_get_array(ctx, root, "devices", BOARD_DEVICES_MAX, &devices);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	ctx->bp->devs = calloc((size_t)cJSON_GetArraySize(devices) + 1, sizeof(*ctx->bp->devs));
	if (!ctx->bp->devs)
		return board_err(ctx, "devices", "%s", strerror(ENOMEM));
	for (pass = 0; pass < 2; pass++) {
		i = 0;
		cJSON_ArrayForEach(it, devices) {
			board_path_index(path, sizeof(path), "devices", i);
			ret = board_add_device(ctx, it, path, pass == 0);
			if (ret)
				return ret;
			i++;
		}
	}
	return 0;
}

/* ---- maps ---- */

/* "AIN0, AIN1, ..." of what maps can name on the provider, for the error message. */
static void board_list_channel_labels(const struct iio_dev *dev, char *out, size_t len)
{
	char id[IIO_ATTR_NAME_MAX];
	size_t used = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < dev->num_channels && used < len; i++) {
		const struct iio_chan_spec *chan = &dev->channels[i];
		const char *label = chan->datasheet_name;

		if (!label) {
			if (chan->channel < 0 || chan->type == IIO_TIMESTAMP ||
			    iio_chan_id(id, sizeof(id), chan) < 0)
				continue;
			label = id;
		}
		used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "", label);
	}
}

static int board_add_map(struct board_ctx *ctx, const cJSON *obj, const char *path, int idx)
{
	static const char *const known[] = {
		"adc_dev_name", "adc_channel_label", "consumer_dev_name", "consumer_channel", NULL,
	};
	struct iio_registry *reg = ctx->bp->b.reg;
	const struct iio_map *other;
	struct iio_map map;
	struct iio_dev *dev;
	char p[BOARD_PATH_MAX], msg[BOARD_ERR_MAX / 2];
	int ret, i;

	if (!cJSON_IsObject(obj))
		return board_err(ctx, path, "expected an object, not %s", board_json_type(obj));
	ret = board_check_keys(ctx, obj, path, known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, obj, path, "adc_dev_name", true, 0, &map.adc_dev_name);
	if (!ret)
		ret = board_get_string(ctx, obj, path, "adc_channel_label", true, 0,
				       &map.adc_channel_label);
	if (!ret)
		ret = board_get_string(ctx, obj, path, "consumer_dev_name", true, 0,
				       &map.consumer_dev_name);
	if (!ret)
		ret = board_get_string(ctx, obj, path, "consumer_channel", true, 0,
				       &map.consumer_channel);
	if (ret)
		return ret;
	board_path_key(p, sizeof(p), path, "adc_dev_name");
	ret = iio_registry_find(reg, map.adc_dev_name, &dev, msg, sizeof(msg));
	if (ret == -ENOTUNIQ)
		return board_err(ctx, p, "%s is ambiguous: %s", map.adc_dev_name, msg);
	if (ret)
		return board_err(ctx, p, "no device %s", map.adc_dev_name);
	board_path_key(p, sizeof(p), path, "adc_channel_label");
	if (!iio_device_find_channel(dev, map.adc_channel_label)) {
		board_list_channel_labels(dev, msg, sizeof(msg));
		if (!msg[0])
			return board_err(ctx, p,
					 "%s (%s) names no channels, so no map can reach it",
					 map.adc_dev_name, dev->name);
		return board_err(ctx, p, "%s (%s) has no channel %s (it has %s)",
				 map.adc_dev_name, dev->name, map.adc_channel_label, msg);
	}
	/* a second map of one consumer channel would never be found: say so */
	for (i = 0; i < idx; i++) {
		other = iio_registry_map_at(reg, i, NULL);
		if (other && strcmp(other->consumer_dev_name, map.consumer_dev_name) == 0 &&
		    strcmp(other->consumer_channel, map.consumer_channel) == 0)
			return board_err(ctx, path, "%s %s is already mapped by maps[%d]",
					 map.consumer_dev_name, map.consumer_channel, i);
	}
	ret = iio_map_array_register(reg, dev, &map, 1);
	if (ret)
		return board_err(ctx, path, "%s", strerror(-ret));
	return 0;
}

static int board_add_maps(struct board_ctx *ctx, const cJSON *root)
{
	const cJSON *maps, *it;
	char path[BOARD_PATH_MAX];
	int i = 0, ret;

	ret = board_get_array(ctx, root, "maps", BOARD_MAPS_MAX, &maps);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	cJSON_ArrayForEach(it, maps) {
		board_path_index(path, sizeof(path), "maps", i);
		ret = board_add_map(ctx, it, path, i);
		if (ret)
			return ret;
		i++;
	}
	return 0;
}

/* ---- triggers ---- */

/* Triggers the board declares, before its devices: they get trigger0 and up. */
#define BOARD_TRIGGERS_MAX	64

static int board_add_trigger(struct board_ctx *ctx, const cJSON *obj, const char *path)
{
	static const char *const known[] = { "type", "name", "sampling_frequency", "number",
					     NULL };
	struct iio_trigger *trig;
	const char *type = NULL, *name = NULL;
	char num[24];
	long k = 0;
	int ret;

	ret = board_check_keys(ctx, obj, path, known, NULL);
	if (!ret)
		ret = board_get_string(ctx, obj, path, "type", true, 16, &type);
	if (ret)
		return ret;
	if (strcmp(type, "sysfs") == 0) {
		ret = board_get_int(ctx, obj, path, "number", true, 0, 1000000, &k);
		if (ret)
			return ret;
		ret = iio_sysfs_trigger_create(ctx->bp->b.reg, (int)k);
		return ret ? board_err(ctx, path, "sysfstrig%ld: already declared", k) : 0;
	}
	if (strcmp(type, "hrtimer") != 0)
		return board_err(ctx, path, "type: \"%s\" is not \"hrtimer\" or \"sysfs\"", type);
	ret = board_get_string(ctx, obj, path, "name", true, IIO_TRIGGER_NAME_MAX - 1, &name);
	if (ret)
		return ret;
	ret = iio_hrtimer_trigger_create(ctx->bp->b.reg, name, &trig);
	if (ret == -EEXIST)
		return board_err(ctx, path, "trigger %s: duplicate trigger name", name);
	if (ret)
		return board_err(ctx, path, "trigger %s: %s", name, strerror(-ret));
	ret = board_get_int(ctx, obj, path, "sampling_frequency", false, 1, 1000000, &k);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	snprintf(num, sizeof(num), "%ld", k);
	return iio_trigger_attr_write(trig, "sampling_frequency", num, 0) ?
	       board_err(ctx, path, "sampling_frequency: refused") : 0;
}

static int board_add_triggers(struct board_ctx *ctx, const cJSON *root)
{
	const cJSON *trigs, *it;
	char path[BOARD_PATH_MAX];
	int i = 0, ret;

	ret = board_get_array(ctx, root, "triggers", BOARD_TRIGGERS_MAX, &trigs);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	/* as if iio-trig-sysfs were loaded; a host kernel's, mirrored already, stays */
	if (!iio_trigger_ctl_present(ctx->bp->b.reg))
		iio_sysfs_trigger_install(ctx->bp->b.reg);
	cJSON_ArrayForEach(it, trigs) {
		board_path_index(path, sizeof(path), "triggers", i++);
		ret = board_add_trigger(ctx, it, path);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- loading ---- */

static int board_header(struct board_ctx *ctx, const cJSON *root)
{
	static const char *const known[] = { "board", "description", "buses", "triggers",
					     "devices", "maps", NULL };
	struct board *b = &ctx->bp->b;
	const char *name = NULL, *desc = NULL, *base;
	int ret;

	if (!cJSON_IsObject(root))
		return board_err(ctx, "top level", "expected an object, not %s",
				 board_json_type(root));
	ret = board_check_keys(ctx, root, "", known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, root, "", "board", false, sizeof(b->name) - 1, &name);
	if (ret == -EINVAL)
		return ret;
	ret = board_get_string(ctx, root, "", "description", false, sizeof(b->description) - 1,
			       &desc);
	if (ret == -EINVAL)
		return ret;
	if (name) {
		snprintf(b->name, sizeof(b->name), "%s", name);
	} else {
		/* unnamed: the file's base name without ".json" */
		base = strrchr(ctx->origin, '/');
		base = base ? base + 1 : ctx->origin;
		snprintf(b->name, sizeof(b->name), "%.*s", (int)strcspn(base, "."), base);
	}
	snprintf(b->description, sizeof(b->description), "%s", desc ? desc : "");
	return 0;
}

static struct board *board_load_text(const char *text, size_t len, const char *origin,
				     const char *basedir, char *err, size_t errlen)
{
	struct board_ctx ctx = {
		.origin = origin, .basedir = basedir, .err = err, .errlen = errlen,
		.emu_ops = bus_backend_find("emulated"),
	};
	cJSON *root;

	if (err && errlen)
		err[0] = '\0';
	if (len > BOARD_FILE_MAX_BYTES) {
		board_err(&ctx, "top level", "larger than %d bytes", BOARD_FILE_MAX_BYTES);
		return NULL;
	}
	root = board_parse(&ctx, text, len);
	if (!root)
		return NULL;
	ctx.bp = calloc(1, sizeof(*ctx.bp));
	if (!ctx.bp) {
		board_err(&ctx, "top level", "%s", strerror(ENOMEM));
		goto err_free_json;
	}
	ctx.bp->b.reg = iio_registry_create();
	if (!ctx.bp->b.reg) {
		board_err(&ctx, "top level", "%s", strerror(ENOMEM));
		goto err_destroy_board;
	}
	if (board_header(&ctx, root) || board_open_buses(&ctx, root) ||
	    board_add_sources(&ctx) || board_add_triggers(&ctx, root) ||
	    board_add_devices(&ctx, root) ||
	    board_add_maps(&ctx, root))
		goto err_destroy_board;
	cJSON_Delete(root);
	return &ctx.bp->b;

err_destroy_board:
	/* devices, maps and buses all hang off the board: one teardown undoes any prefix */
	board_destroy(ctx.bp ? &ctx.bp->b : NULL);
err_free_json:
	cJSON_Delete(root);
	return NULL;
}

struct board *board_load_string(const char *json, const char *origin, char *err, size_t errlen)
{
	if (!origin)
		origin = "(string)";
	if (!json) {
		if (err && errlen)
			snprintf(err, errlen, "%s: top level: no text", origin);
		return NULL;
	}
	return board_load_text(json, strlen(json), origin, ".", err, errlen);
}

struct board *board_load(const char *path, char *err, size_t errlen)
{
	char *text = NULL, *dir = NULL, *slash;
	const struct iio_source *src;
	struct board *b = NULL;
	struct stat st;
	size_t len = 0;
	ssize_t n;
	FILE *f;

	if (err && errlen)
		err[0] = '\0';
	src = iio_source_serving_all();
	if (!path && src && src->board)
		return board_load_string(src->board, src->origin, err, errlen);
	if (!path)
		return NULL;
	/* "board file": a name alone ("mylight.json: No such file") does not say which file */
	f = fopen(path, "re");
	if (!f) {
		if (err && errlen)
			snprintf(err, errlen, "board file %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		if (err && errlen)
			snprintf(err, errlen, "board file %s: %s", path, strerror(EISDIR));
		goto err_close;
	}
	/* one byte more than the limit tells "too large" from "exactly the limit" */
	text = malloc(BOARD_FILE_MAX_BYTES + 2);
	if (!text) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		goto err_close;
	}
	while (len <= BOARD_FILE_MAX_BYTES &&
	       (n = (ssize_t)fread(text + len, 1, BOARD_FILE_MAX_BYTES + 1 - len, f)) > 0)
		len += (size_t)n;
	if (ferror(f)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(EIO));
		goto err_free_text;
	}
	text[len] = '\0';
	dir = strdup(path);
	if (!dir) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		goto err_free_text;
	}
	slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	b = board_load_text(text, len, path, dir, err, errlen);
	free(dir);
err_free_text:
	free(text);
err_close:
	fclose(f);
	return b;
}

void board_destroy(struct board *b)
{
	struct board_priv *bp = (struct board_priv *)b;
	struct iio_dev **held;
	int i, n;

	if (!b)
		return;
	/*
	 * A consumer may still hold a device past this point: pin each one,
	 * unregister them all (now gone, remove() done), and only then take
	 * back the label strings the devices borrowed from us.
	 */
	n = bp->ndevs;
	held = calloc((size_t)n + 1, sizeof(*held));
	for (i = 0; held && i < n; i++)
		held[i] = iio_device_get(bp->devs[i].dev);
	iio_registry_destroy(b->reg);
	for (i = 0; i < n; i++) {
		struct iio_dev *dev = bp->devs[i].dev;

		iio_device_lock(dev);
		if (bp->devs[i].label && dev->label == bp->devs[i].label)
			dev->label = NULL;
		iio_device_unlock(dev);
		free(bp->devs[i].label);
	}
	for (i = 0; held && i < n; i++)
		iio_device_put(held[i]);
	free(held);
	free(bp->devs);
	for (i = 0; i < b->nbuses; i++) {
		bus_put(b->buses[i]);
		free(b->bus_names[i]);
	}
	free(b->buses);
	free(b->bus_names);
	free(bp);
}

int board_default_path(char *buf, size_t len)
{
	const char *env = getenv("IIOWIRE_MAPS_DIR");
	const char *src = __FILE__;
	const char *tail = "drivers/board.c";
	size_t srclen = strlen(src), taillen = strlen(tail);
	int n;

	if (env && env[0])
		n = snprintf(buf, len, "%s/%s", env, BOARD_DEFAULT_FILE);
	else
		n = snprintf(buf, len, "%s/%s", IIOWIRE_MAPS_DIR, BOARD_DEFAULT_FILE);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if ((env && env[0]) || access(buf, R_OK) == 0)
		return n;
	/* not installed: a build run from its tree uses the tree's maps/ */
	if (src[0] == '/' && srclen > taillen && strcmp(src + srclen - taillen, tail) == 0) {
		n = snprintf(buf, len, "%.*smaps/%s", (int)(srclen - taillen), src,
			     BOARD_DEFAULT_FILE);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		if (access(buf, R_OK) == 0)
			return n;
	}
	n = snprintf(buf, len, "%s/%s", IIOWIRE_MAPS_DIR, BOARD_DEFAULT_FILE);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
}
