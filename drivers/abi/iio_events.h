/*
 * iio_events.h - the IIO event ABI: event types, directions and info
 * postfixes with their sysfs spellings, the 64-bit event code packed bit for
 * bit as the kernel packs it, and the line tools/iio/iio_event_monitor prints.
 *
 * The userspace twin of the kernel's <linux/iio/events.h> (packing macros,
 * which uapi lacks) over <linux/iio/events.h> of uapi (struct iio_event_data,
 * the extract macros). Part of the ABI leaf: the core builds events/
 * attribute names from these tables, the server and the client decode codes
 * with them, and `iiowire monitor` prints with iio_event_monitor_line().
 * Depends on libc and uapi headers only; no allocation, no state.
 */
#ifndef IIOWIRE_IIO_EVENTS_H
#define IIOWIRE_IIO_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/iio/events.h>

#include "iio_types.h"

/* Newer than Debian 12's 6.1 uapi header: the mainline numbers (~6.17). */
#define IIOWIRE_IIO_EV_TYPE_FAULT		((enum iio_event_type)8)
#define IIOWIRE_IIO_EV_TYPE_COUNT		9
#define IIOWIRE_IIO_EV_DIR_FAULT_OPENWIRE	((enum iio_event_direction)6)
#define IIOWIRE_IIO_EV_DIR_COUNT		7

/* enum iio_event_info of <linux/iio/iio.h>: bits of struct iio_event_spec's masks. */
enum iio_event_info {
	IIO_EV_INFO_ENABLE,
	IIO_EV_INFO_VALUE,
	IIO_EV_INFO_HYSTERESIS,
	IIO_EV_INFO_PERIOD,
	IIO_EV_INFO_HIGH_PASS_FILTER_3DB,
	IIO_EV_INFO_LOW_PASS_FILTER_3DB,
	IIO_EV_INFO_TIMEOUT,
	IIO_EV_INFO_RESET_TIMEOUT,
	IIO_EV_INFO_TAP2_MIN_DELAY,
	IIO_EV_INFO_RUNNING_PERIOD,
	IIO_EV_INFO_RUNNING_COUNT,
	IIO_EV_INFO_COUNT	/* not a bit: the size of the postfix table */
};

/*
 * The kernel's _IIO_EVENT_CODE and its helpers: type 63-56, diff 55,
 * direction 54-48, modifier 47-40, channel type 39-32, chan2 31-16, chan 15-0.
 */
#define IIOWIRE_EVENT_CODE(chan_type, diff, modifier, direction, type, chan, chan1, chan2) \
	(((uint64_t)(type) << 56) | ((uint64_t)(diff) << 55) |			\
	 ((uint64_t)(direction) << 48) | ((uint64_t)(modifier) << 40) |	\
	 ((uint64_t)(chan_type) << 32) | (((uint64_t)(uint16_t)(chan2)) << 16) | \
	 ((uint64_t)(uint16_t)(chan1)) | ((uint64_t)(uint16_t)(chan)))
#define IIO_UNMOD_EVENT_CODE(chan_type, number, type, direction)		\
	IIOWIRE_EVENT_CODE(chan_type, 0, 0, direction, type, number, 0, 0)
#define IIO_MOD_EVENT_CODE(chan_type, number, modifier, type, direction)	\
	IIOWIRE_EVENT_CODE(chan_type, 0, modifier, direction, type, number, 0, 0)
#define IIO_DIFF_EVENT_CODE(chan_type, chan1, chan2, type, direction)		\
	IIOWIRE_EVENT_CODE(chan_type, 1, 0, direction, type, 0, chan1, chan2)

/** iio_event_type_name() - "thresh", "change", ...; NULL when unknown. */
const char *iio_event_type_name(enum iio_event_type type);
/** iio_event_dir_name() - "rising", ...; NULL for IIO_EV_DIR_NONE (no text) or unknown. */
const char *iio_event_dir_name(enum iio_event_direction dir);
/** iio_event_info_postfix() - "en", "value", "hysteresis", ...; NULL past the table. */
const char *iio_event_info_postfix(enum iio_event_info info);
/** iio_event_type_from_name() - inverse of iio_event_type_name(); -EINVAL if unknown. */
int iio_event_type_from_name(const char *name);

/**
 * struct iio_event_fields - an event code taken apart with the uapi
 * extract macros (chan and chan2 are signed 16-bit, so -1 stays -1).
 */
struct iio_event_fields {
	int type;
	bool diff;
	int dir;
	int modifier;
	int chan_type;
	int chan;
	int chan2;
};

/** iio_event_decode() - split @id into its fields. */
void iio_event_decode(uint64_t id, struct iio_event_fields *f);

/*
 * Longest iio_event_monitor line: "Event: time: " + 20 digits + the longest
 * type, modifier, event type and direction names and the separators.
 */
#define IIO_EVENT_LINE_MAX	192

/**
 * iio_event_monitor_line() - the line tools/iio/iio_event_monitor's
 * print_event writes for (@id, @timestamp), without its '\n':
 * "Event: time: T, type: voltage, channel: 2, evtype: thresh, direction: rising",
 * or, for a code the tool does not know, its stderr line
 * "Unknown event: time: T, id: 1000000000002".
 * Return: true for a known event (stdout line), false for an unknown one.
 */
bool iio_event_monitor_line(char *buf, size_t len, uint64_t id, int64_t timestamp);

#endif /* IIOWIRE_IIO_EVENTS_H */
