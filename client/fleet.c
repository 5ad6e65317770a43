/*
 * fleet.c - the channel set the fleet bridges (iiowire-mqtt,
 * iiowire-exporter) publish: a daemon's consumer channels, each with its
 * provider device's name, label and hardware id, the attribute WATCH follows
 * for it, and its value turned into the unit MQTT and Prometheus name.
 *
 * Place in the flow: iiowired -> wire -> libiiowire's consumer and listing
 * API -> *fleet.c* -> mqtt.c / exporter.c -> broker / Prometheus. Values
 * are the daemon's processed values (the kernel's inkern.c arithmetic),
 * never recomputed here; conversion to base units is an exact decimal shift.
 * A board without maps has no consumer to CREAD through, so its device
 * channels are read as sysfs text (input, or raw, scale and offset) and
 * combined with the core's own iio_raw_to_processed(): a new board publishes
 * what it has before anyone writes a map.
 * Attribute names come from the ABI leaf's tables, not from literals.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "iio_types.h"
#include "iio_value.h"

/*
 * Processed units are the kernel's (sysfs-bus-iio): voltage mV, current mA,
 * power mW, temp m°C, humidityrelative m%RH, illuminance lux, pressure kPa,
 * accel m/s², anglvel rad/s, distance m. fleet_read() gives thousandths of
 * those. Home Assistant's classes and units are those its sensor docs pair
 * (voltage V, current A, power W, temperature °C, humidity %, illuminance
 * lx, pressure kPa, distance m).
 */
static const struct fleet_unit fleet_units[] = {
	{ IIO_VOLTAGE, "voltage", "V", 1000000, "iiowire_voltage", "volts", 1000000 },
	{ IIO_CURRENT, "current", "A", 1000000, "iiowire_current", "amperes", 1000000 },
	{ IIO_POWER, "power", "W", 1000000, "iiowire_power", "watts", 1000000 },
	{ IIO_TEMP, "temperature", "\u00b0C", 1000000, "iiowire_temperature", "celsius",
	  1000000 },
	{ IIO_HUMIDITYRELATIVE, "humidity", "%", 1000000, "iiowire_humidity", "ratio",
	  100000000 },
	{ IIO_LIGHT, "illuminance", "lx", 1000, "iiowire_illuminance", "lux", 1000 },
	{ IIO_PRESSURE, "pressure", "kPa", 1000, "iiowire_pressure", "pascals", 1 },
	{ IIO_ACCEL, NULL, "m/s\u00b2", 1000, "iiowire_acceleration",
	  "meters_per_second_squared", 1000 },
	{ IIO_ANGL_VEL, NULL, "rad/s", 1000, "iiowire_angular_velocity", "radians_per_second",
	  1000 },
	{ IIO_DISTANCE, "distance", "m", 1000, "iiowire_distance", "meters", 1000 },
};
#define FLEET_NUNITS	(sizeof(fleet_units) / sizeof(fleet_units[0]))

/* A type without a row: the processed value as the kernel gives it, no class, no unit. */
static const struct fleet_unit fleet_unit_plain = { -1, NULL, NULL, 1000, NULL, NULL, 1000 };

static const struct fleet_unit *fleet_unit_find(int type)
{
	size_t i;

	for (i = 0; i < FLEET_NUNITS; i++)
		if (fleet_units[i].type == type)
			return &fleet_units[i];
	return &fleet_unit_plain;
}

bool fleet_is_link_err(int err)
{
	return err == -ECONNREFUSED || err == -ECONNRESET || err == -ETIMEDOUT ||
	       err == -ENOTCONN || err == -EPIPE || err == -EHOSTUNREACH;
}

void fleet_ident(char *out, size_t len, const char *in)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++) {
		char c = in[i];

		out[i] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '-') ? c : '_';
	}
	if (len)
		out[i] = '\0';
}

int fleet_format(char *buf, size_t len, int64_t milli, int64_t div)
{
	uint64_t mag = milli < 0 ? -(uint64_t)milli : (uint64_t)milli;
	int decimals = 0, n;
	int64_t d;

	for (d = div; d > 1; d /= 10)
		decimals++;
	if (decimals == 0)
		n = snprintf(buf, len, "%s%" PRIu64, milli < 0 ? "-" : "", mag);
	else
		n = snprintf(buf, len, "%s%" PRIu64 ".%0*" PRIu64, milli < 0 ? "-" : "",
			     mag / (uint64_t)div, decimals, mag % (uint64_t)div);
	return n < 0 || (size_t)n >= len ? -EFBIG : n;
}

/* Attribute @attr of @c's device, parsed as @fmt (IIO_VAL_INT, _PLUS_NANO). Return: 0, -errno. */
static int fleet_attr_value(struct fleet_chan *c, const char *attr, int fmt, int *val, int *val2)
{
	char text[FLEET_VALUE_MAX_BYTES];
	int ret = iiowire_attr_read(c->w, c->device_id, attr, text, sizeof(text));

	return ret < 0 ? ret : iio_parse_value(text, fmt, val, val2);
}

/* (@raw + offset @o) x scale @s x @mult, as the core computes it. Return: 0, or -errno. */
static int fleet_convert(const struct fleet_chan *c, int raw, const int *o, const int *s,
			 unsigned int mult, int *out)
{
	return iio_raw_to_processed(raw, c->offset_attr[0] != '\0', IIO_VAL_INT_PLUS_NANO, o[0],
				    o[1], c->scale_attr[0] != '\0', IIO_VAL_INT_PLUS_NANO, s[0],
				    s[1], mult, out);
}

/* A device channel's value, as fleet_read() says. Return: 0, or -errno. */
static int fleet_read_device(struct fleet_chan *c, int64_t *milli)
{
	int raw, unused, s[2] = { 0, 0 }, o[2] = { 0, 0 }, out, ret;

	if (c->processed) {
		/* fract_mult 100: the first decimal is worth 100 thousandths */
		char text[FLEET_VALUE_MAX_BYTES];
		int frac;

		ret = iiowire_attr_read(c->w, c->device_id, c->watch_attr, text, sizeof(text));
		if (ret >= 0)
			ret = iio_str_to_fixpoint(text, 100, &raw, &frac);
		if (ret == 0)
			*milli = (int64_t)raw * 1000 + (raw < 0 ? -frac : frac);
		return ret;
	}
	ret = fleet_attr_value(c, c->watch_attr, IIO_VAL_INT, &raw, &unused);
	if (ret == 0 && c->scale_attr[0])
		ret = fleet_attr_value(c, c->scale_attr, IIO_VAL_INT_PLUS_NANO, &s[0], &s[1]);
	if (ret == 0 && c->offset_attr[0])
		ret = fleet_attr_value(c, c->offset_attr, IIO_VAL_INT_PLUS_NANO, &o[0], &o[1]);
	if (ret < 0)
		return ret;
	ret = fleet_convert(c, raw, o, s, 1000, &out);
	if (ret == 0) {
		*milli = out;
	} else if (ret == -ERANGE) {
		/* as the CREAD fallback: the plain processed value, its thousandths lost */
		ret = fleet_convert(c, raw, o, s, 1, &out);
		if (ret == 0)
			*milli = (int64_t)out * 1000;
	}
	return ret;
}

int fleet_read(struct fleet_chan *c, int64_t *milli)
{
	int val, ret;

	if (!c->ch)
		return fleet_read_device(c, milli);

	ret = iiowire_read_channel_processed_scale(c->ch, &val, 1000);
	if (ret == -ERANGE) {
		ret = iiowire_read_channel_processed(c->ch, &val);
		if (ret == 0)
			*milli = (int64_t)val * 1000;
		return ret;
	}
	if (ret == 0)
		*milli = val;
	return ret;
}

void fleet_release(struct fleet_set *set)
{
	int i;

	for (i = 0; i < set->n; i++)
		iiowire_channel_release(set->chans[i].ch);
	free(set->chans);
	set->chans = NULL;
	set->n = 0;
}

/* Whether attribute @attr ends in "_<postfix>" of @info. */
static bool fleet_attr_is(const char *attr, enum iio_chan_info_enum info)
{
	const char *post = iio_chan_info_postfix(info);
	size_t la = strlen(attr), lp = strlen(post);

	return la > lp + 1 && attr[la - lp - 1] == '_' && strcmp(attr + la - lp, post) == 0;
}

/* The provider channel's value attribute (raw, else input) into c->watch_attr. */
static void fleet_find_watch(struct iiowire *w, struct fleet_chan *c)
{
	static const enum iio_chan_info_enum infos[] = { IIO_CHAN_INFO_RAW,
							 IIO_CHAN_INFO_PROCESSED };
	struct iiowire_chan *chans = NULL;
	int n, i, j, k;

	n = iiowire_chan_list(w, c->device_id, &chans);
	for (k = 0; k < 2; k++)
		for (i = 0; i < n; i++) {
			if (!chans[i].datasheet_name || strcmp(chans[i].datasheet_name,
							       c->datasheet) != 0)
				continue;
			for (j = 0; j < chans[i].num_attrs; j++)
				if (fleet_attr_is(chans[i].attrs[j], infos[k])) {
					snprintf(c->watch_attr, sizeof(c->watch_attr), "%s",
						 chans[i].attrs[j]);
					iiowire_free(chans);
					return;
				}
		}
	iiowire_free(chans);
}

/* Fill @c from its channel handle: names, type, provider. Return: 0, or -errno. */
static int fleet_chan_fill(struct iiowire *w, struct fleet_chan *c, const char *consumer)
{
	struct iiowire_device *dev = NULL;
	enum iio_chan_type type;
	int ret;

	snprintf(c->consumer, sizeof(c->consumer), "%s", consumer);
	snprintf(c->channel, sizeof(c->channel), "%s", iiowire_channel_name(c->ch));
	ret = iiowire_get_channel_type(c->ch, &type);
	if (ret < 0)
		return ret;
	c->unit = fleet_unit_find(type);
	snprintf(c->type_name, sizeof(c->type_name), "%s",
		 iiowire_chan_type_name(type) ? iiowire_chan_type_name(type) : "unknown");
	snprintf(c->datasheet, sizeof(c->datasheet), "%s", iiowire_channel_datasheet_name(c->ch));
	ret = iiowire_device_get_info(w, iiowire_channel_provider(c->ch), &dev);
	if (ret < 0)
		return ret;
	snprintf(c->device_id, sizeof(c->device_id), "%s", dev->id);
	snprintf(c->device, sizeof(c->device), "%s", dev->name);
	snprintf(c->label, sizeof(c->label), "%s", dev->label);
	snprintf(c->hwid, sizeof(c->hwid), "%s", dev->hwid);
	iiowire_free(dev);
	fleet_find_watch(w, c);
	return 0;
}

/* Add every channel of @consumer. Return: 0, or -errno (@msg filled). */
static int fleet_probe_consumer(struct iiowire *w, const char *consumer, struct fleet_set *set,
				char *msg, size_t len)
{
	struct iiowire_channel **chs = iiowire_channel_get_all(w, consumer);
	int i, ret = 0;

	if (!chs) {
		ret = -errno;
		snprintf(msg, len, "consumer %s: %s", consumer, iiowire_errmsg(w));
		return ret;
	}
	for (i = 0; chs[i]; i++) {
		if (set->n == FLEET_CHANNELS_MAX) {
			snprintf(msg, len, "more than %d channels", FLEET_CHANNELS_MAX);
			ret = -E2BIG;
			break;
		}
		set->chans[set->n].ch = chs[i];
		chs[i] = NULL;
		ret = fleet_chan_fill(w, &set->chans[set->n++], consumer);
		if (ret < 0) {
			snprintf(msg, len, "consumer %s: %s", consumer, iiowire_errmsg(w));
			/* no half-described channel stays in the set */
			iiowire_channel_release(set->chans[--set->n].ch);
			memset(&set->chans[set->n], 0, sizeof(set->chans[set->n]));
			break;
		}
	}
	/* the handles moved into the set; the rest (after an error) go with the array */
	iiowire_channel_release_all(chs);
	return ret;
}

/* Whether @name is among the first @n maps' consumers. */
static bool fleet_seen(const struct iiowire_map *maps, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(maps[i].consumer, name) == 0)
			return true;
	return false;
}

/*
 * The shortest of @ch's attributes ending in _<@info's postfix> into @out
 * ("" if none): in_voltage0_raw, not in_voltage0_mean_raw.
 * Return: whether there was one.
 */
static bool fleet_attr_pick(const struct iiowire_chan *ch, enum iio_chan_info_enum info,
			    char *out, size_t len)
{
	const char *best = NULL;
	int j;

	for (j = 0; j < ch->num_attrs; j++)
		if (fleet_attr_is(ch->attrs[j], info) &&
		    (!best || strlen(ch->attrs[j]) < strlen(best)))
			best = ch->attrs[j];
	snprintf(out, len, "%s", best ? best : "");
	return best != NULL;
}

/*
 * Describe channel @ch of device @d (named @who) in @c.
 * Return: whether it is an input channel with a processed or raw value.
 */
static bool fleet_dev_chan(struct iiowire *w, const struct iiowire_device *d, const char *who,
			   const struct iiowire_chan *ch, struct fleet_chan *c)
{
	const char *name, *post;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (ch->output)
		return false;
	c->processed = fleet_attr_pick(ch, IIO_CHAN_INFO_PROCESSED, c->watch_attr,
				       sizeof(c->watch_attr));
	if (!c->processed) {
		if (!fleet_attr_pick(ch, IIO_CHAN_INFO_RAW, c->watch_attr, sizeof(c->watch_attr)))
			return false;
		fleet_attr_pick(ch, IIO_CHAN_INFO_SCALE, c->scale_attr, sizeof(c->scale_attr));
		fleet_attr_pick(ch, IIO_CHAN_INFO_OFFSET, c->offset_attr, sizeof(c->offset_attr));
	}
	c->w = w;
	c->unit = fleet_unit_find(ch->type);
	snprintf(c->consumer, sizeof(c->consumer), "%s", who);
	/* sysfs's channel name: the value attribute without direction and postfix */
	post = iio_chan_info_postfix(c->processed ? IIO_CHAN_INFO_PROCESSED : IIO_CHAN_INFO_RAW);
	name = strchr(c->watch_attr, '_') + 1;
	n = strlen(name) > strlen(post) + 1 ? strlen(name) - strlen(post) - 1 : strlen(name);
	snprintf(c->channel, sizeof(c->channel), "%.*s", (int)n, name);
	snprintf(c->type_name, sizeof(c->type_name), "%s",
		 ch->type_name ? ch->type_name : "unknown");
	snprintf(c->datasheet, sizeof(c->datasheet), "%s",
		 ch->datasheet_name ? ch->datasheet_name : "");
	snprintf(c->device_id, sizeof(c->device_id), "%s", d->id);
	snprintf(c->device, sizeof(c->device), "%s", d->name);
	snprintf(c->label, sizeof(c->label), "%s", d->label);
	snprintf(c->hwid, sizeof(c->hwid), "%s", d->hwid);
	return true;
}

/* How device channels name device @i of @devs: see struct fleet_chan's @consumer. */
static const char *fleet_dev_who(const struct iiowire_device *devs, int n, int i)
{
	int j;

	if (devs[i].label[0])
		return devs[i].label;
	for (j = 0; j < n; j++)
		if (j != i && strcmp(devs[j].name, devs[i].name) == 0)
			return devs[i].hwid[0] ? devs[i].hwid : devs[i].id;
	return devs[i].name;
}

/* Add device @i's channels with a value. Return: 0, or -errno (@msg filled). */
static int fleet_probe_device(struct iiowire *w, const struct iiowire_device *devs, int n, int i,
			      struct fleet_set *set, char *msg, size_t len)
{
	struct iiowire_chan *chans = NULL;
	struct fleet_chan c;
	int nc, j, ret = 0;

	nc = iiowire_chan_list(w, devs[i].id, &chans);
	/* a trigger has no channels, and a device gone since DEVICES is left out */
	if (nc < 0 && fleet_is_link_err(nc)) {
		snprintf(msg, len, "device %s: %s", devs[i].id, iiowire_errmsg(w));
		ret = nc;
	}
	for (j = 0; j < nc && ret == 0; j++) {
		if (!fleet_dev_chan(w, &devs[i], fleet_dev_who(devs, n, i), &chans[j], &c))
			continue;
		if (set->n == FLEET_CHANNELS_MAX) {
			snprintf(msg, len, "more than %d channels", FLEET_CHANNELS_MAX);
			ret = -E2BIG;
			break;
		}
		set->chans[set->n++] = c;
	}
	iiowire_free(chans);
	return ret;
}

/* Every device channel with a value. Return: 0, or -errno (@msg filled). */
static int fleet_probe_devices(struct iiowire *w, struct fleet_set *set, char *msg, size_t len)
{
	struct iiowire_device *devs = NULL;
	int i, n, ret = 0;

	n = iiowire_device_list(w, &devs);
	if (n < 0) {
		snprintf(msg, len, "devices: %s", iiowire_errmsg(w));
		return n;
	}
	for (i = 0; i < n && ret == 0; i++)
		ret = fleet_probe_device(w, devs, n, i, set, msg, len);
	iiowire_free(devs);
	return ret;
}

int fleet_probe(struct iiowire *w, const char *const *consumers, int nconsumers,
		bool all_channels, struct fleet_set *set, char *msg, size_t len)
{
	struct iiowire_map *maps = NULL;
	int i, n = 0, ret = 0;

	set->n = 0;
	set->chans = calloc(FLEET_CHANNELS_MAX, sizeof(*set->chans));
	if (!set->chans)
		return -ENOMEM;
	if (!all_channels && nconsumers > 0) {
		for (i = 0; i < nconsumers && ret == 0; i++)
			ret = fleet_probe_consumer(w, consumers[i], set, msg, len);
		return ret < 0 ? ret : set->n;
	}
	n = all_channels ? 0 : iiowire_map_list(w, &maps);
	if (n < 0) {
		snprintf(msg, len, "maps: %s", iiowire_errmsg(w));
		return n;
	}
	/* no maps to name and select: everything the board has, as node_exporter does */
	if (n == 0)
		ret = fleet_probe_devices(w, set, msg, len);
	for (i = 0; i < n && ret == 0; i++) {
		if (fleet_seen(maps, i, maps[i].consumer))
			continue;
		ret = fleet_probe_consumer(w, maps[i].consumer, set, msg, len);
		/* found, not named: a consumer whose provider is gone is left out (@msg says so) */
		if (ret < 0 && ret != -E2BIG && !fleet_is_link_err(ret))
			ret = 0;
	}
	iiowire_free(maps);
	return ret < 0 ? ret : set->n;
}
