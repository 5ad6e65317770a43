/*
 * fleet.h - what the two fleet bridges, iiowire-mqtt and iiowire-exporter,
 * share: a daemon's consumer channels with the provider device each reads
 * (name, label, hardware id), the attribute WATCH follows for it, and its
 * value in the unit that MQTT (Home Assistant) and Prometheus name. A board
 * without maps (or --all-channels) gives every device channel with a value
 * instead, as node_exporter exports what it finds: maps then name and select.
 *
 * Not part of libiiowire; linked into the two bridges only. Nothing here
 * prints or keeps global state: a struct fleet_set belongs to one thread,
 * with the connection it was probed on.
 */
#ifndef IIOWIRE_FLEET_H
#define IIOWIRE_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iiowire.h"

/* Longest name (board, consumer, channel, device, label) a bridge handles. */
#define FLEET_NAME_MAX_BYTES	64
/* Longest attribute name (the kernel's sysfs names stay far below this). */
#define FLEET_ATTR_MAX_BYTES	96
/* Longest value text published (a number: digits, sign, point). */
#define FLEET_VALUE_MAX_BYTES	48
/* Most consumer channels one bridge serves. */
#define FLEET_CHANNELS_MAX	256
/* Most consumers named with --consumer. */
#define FLEET_CONSUMERS_MAX	32

/**
 * struct fleet_unit - how one IIO channel type is published. The daemon's
 * processed value (the kernel's unit: mV, m°C, mA, mW, m%RH, lux, kPa, ...)
 * is read multiplied by 1000 (fleet_read()), then divided by @ha_div for
 * MQTT and by @prom_div for Prometheus, exactly, in decimal.
 * @ha_class/@ha_unit: Home Assistant's sensor device_class and
 *	unit_of_measurement, NULL when it has no class for the type.
 * @prom_name/@prom_unit: the metric's base name and unit suffix
 *	(Prometheus's base units: volts, celsius, amperes, watts, lux, ...).
 */
struct fleet_unit {
	int type;
	const char *ha_class;
	const char *ha_unit;
	int64_t ha_div;
	const char *prom_name;
	const char *prom_unit;
	int64_t prom_div;
};

/**
 * struct fleet_chan - one consumer channel of the daemon, or one device
 * channel (@ch NULL: no maps, or --all-channels).
 * @ch: owned by the set. @unit: borrowed static row (a fallback row for a
 * type without units). Strings are the set's copies.
 * @w: a device channel's connection (borrowed: the set's), else NULL.
 * For a device channel @consumer is the device (its label, else its name,
 * else its hardware id or iio:deviceN when two share a name) and @channel
 * the channel as sysfs names it ("voltage0", "accel_x").
 */
struct fleet_chan {
	struct iiowire_channel *ch;
	struct iiowire *w;
	const struct fleet_unit *unit;
	char consumer[FLEET_NAME_MAX_BYTES];
	char channel[FLEET_NAME_MAX_BYTES];
	char type_name[FLEET_NAME_MAX_BYTES];
	char device_id[FLEET_NAME_MAX_BYTES];	/* "iio:device1" */
	char device[FLEET_NAME_MAX_BYTES];	/* the driver's name, "max1238" */
	char label[FLEET_NAME_MAX_BYTES];	/* the board's label, or "" */
	char hwid[FLEET_NAME_MAX_BYTES];	/* "0-0035", or "" */
	char datasheet[FLEET_NAME_MAX_BYTES];
	char watch_attr[FLEET_ATTR_MAX_BYTES];	/* the raw or input attribute, or "" */
	/* a device channel's value: input (processed), else raw with these two */
	bool processed;
	char scale_attr[FLEET_ATTR_MAX_BYTES];	/* "" when it has none */
	char offset_attr[FLEET_ATTR_MAX_BYTES];	/* "" when it has none */
};

/** struct fleet_set - a daemon's consumer channels, as fleet_probe() found them. */
struct fleet_set {
	struct fleet_chan *chans;	/* owned, n of them */
	int n;
};

/**
 * fleet_probe() - find the channels of @consumers (all consumers the maps
 * name when @nconsumers is 0), in map order, with their providers; with
 * @all_channels, or no maps and no @consumers, every input channel of every
 * device that has a processed or raw value, in device and channel order.
 * @set: caller's memory, filled; end with fleet_release() (also on failure).
 * @msg: caller's buffer for what went wrong; with all consumers, one that
 *	cannot be read (its provider gone) is left out and @msg says why
 *	(set it to "" before, to tell).
 * Return: the channel count (>= 0), or -errno (-ENODEV: a named consumer has
 * no map; -E2BIG: over FLEET_CHANNELS_MAX; a connection error).
 */
int fleet_probe(struct iiowire *w, const char *const *consumers, int nconsumers,
		bool all_channels, struct fleet_set *set, char *msg, size_t len);

/** fleet_release() - free what fleet_probe() put in @set; the set is empty after. */
void fleet_release(struct fleet_set *set);

/**
 * fleet_read() - read @c's processed value times 1000 (µV from a voltage),
 * falling back to the plain processed value (times 1000 here, losing the
 * digits the daemon could not give) when that is out of int. A device
 * channel's value is its input attribute, else (raw + offset) * scale with
 * the core's arithmetic (iio_raw_to_processed()), read as text: a scale
 * finer than nano is cut at the ninth decimal.
 * Return: 0 with *@milli set, or -errno of the read.
 */
int fleet_read(struct fleet_chan *c, int64_t *milli);

/**
 * fleet_format() - @milli / @div as exact decimal text ("1.800000" for
 * 1800000 / 1000000), with as many decimals as @div has zeros.
 * Return: the length, or -EFBIG if @buf is too small.
 */
int fleet_format(char *buf, size_t len, int64_t milli, int64_t div);

/**
 * fleet_ident() - @in with every byte outside [A-Za-z0-9_-] made '_' (the
 * characters Home Assistant allows in discovery ids, Prometheus in names).
 */
void fleet_ident(char *out, size_t len, const char *in);

/**
 * fleet_is_link_err() - whether @err means the daemon is out of reach
 * (a connection error), not that one channel failed.
 */
bool fleet_is_link_err(int err);

#endif /* IIOWIRE_FLEET_H */
