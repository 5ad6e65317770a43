/*
 * iio_events.c - the IIO event ABI's name tables (industrialio-event.c's
 * iio_ev_type_text, iio_ev_dir_text, iio_ev_info_text), event code
 * decoding, and iio_event_monitor's output line (iio_events.h).
 *
 * Tables use designated initializers indexed by their enums, as
 * iio_types.c does. The monitor line follows print_event() and
 * event_is_known() of tools/iio/iio_event_monitor.c field for field,
 * including which codes that tool calls unknown. Pure data and lookups.
 */
#include <errno.h>
#include <stdio.h>

#include "iio_events.h"

#define IIO_EVENTS_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const iio_events_type_text[IIOWIRE_IIO_EV_TYPE_COUNT] = {
	[IIO_EV_TYPE_THRESH] = "thresh",
	[IIO_EV_TYPE_MAG] = "mag",
	[IIO_EV_TYPE_ROC] = "roc",
	[IIO_EV_TYPE_THRESH_ADAPTIVE] = "thresh_adaptive",
	[IIO_EV_TYPE_MAG_ADAPTIVE] = "mag_adaptive",
	[IIO_EV_TYPE_CHANGE] = "change",
	[IIO_EV_TYPE_MAG_REFERENCED] = "mag_referenced",
	[IIO_EV_TYPE_GESTURE] = "gesture",
	[IIOWIRE_IIO_EV_TYPE_FAULT] = "fault",
};

/* IIO_EV_DIR_NONE has no text: names built for it leave the direction out */
static const char *const iio_events_dir_text[IIOWIRE_IIO_EV_DIR_COUNT] = {
	[IIO_EV_DIR_EITHER] = "either",
	[IIO_EV_DIR_RISING] = "rising",
	[IIO_EV_DIR_FALLING] = "falling",
	[IIO_EV_DIR_SINGLETAP] = "singletap",
	[IIO_EV_DIR_DOUBLETAP] = "doubletap",
	[IIOWIRE_IIO_EV_DIR_FAULT_OPENWIRE] = "openwire",
};

static const char *const iio_events_info_text[IIO_EV_INFO_COUNT] = {
	[IIO_EV_INFO_ENABLE] = "en",
	[IIO_EV_INFO_VALUE] = "value",
	[IIO_EV_INFO_HYSTERESIS] = "hysteresis",
	[IIO_EV_INFO_PERIOD] = "period",
	[IIO_EV_INFO_HIGH_PASS_FILTER_3DB] = "high_pass_filter_3db",
	[IIO_EV_INFO_LOW_PASS_FILTER_3DB] = "low_pass_filter_3db",
	[IIO_EV_INFO_TIMEOUT] = "timeout",
	[IIO_EV_INFO_RESET_TIMEOUT] = "reset_timeout",
	[IIO_EV_INFO_TAP2_MIN_DELAY] = "tap2_min_delay",
	[IIO_EV_INFO_RUNNING_PERIOD] = "runningperiod",
	[IIO_EV_INFO_RUNNING_COUNT] = "runningcount",
};

const char *iio_event_type_name(enum iio_event_type type)
{
	return iio_abi_name(iio_events_type_text, IIO_EVENTS_ARRAY_SIZE(iio_events_type_text),
			    (long)type);
}

const char *iio_event_dir_name(enum iio_event_direction dir)
{
	return iio_abi_name(iio_events_dir_text, IIO_EVENTS_ARRAY_SIZE(iio_events_dir_text),
			    (long)dir);
}

const char *iio_event_info_postfix(enum iio_event_info info)
{
	return iio_abi_name(iio_events_info_text, IIO_EVENTS_ARRAY_SIZE(iio_events_info_text),
			    (long)info);
}

int iio_event_type_from_name(const char *name)
{
	return iio_abi_index(iio_events_type_text, IIO_EVENTS_ARRAY_SIZE(iio_events_type_text),
			     name);
}

void iio_event_decode(uint64_t id, struct iio_event_fields *f)
{
	f->type = (int)IIO_EVENT_CODE_EXTRACT_TYPE(id);
	f->diff = IIO_EVENT_CODE_EXTRACT_DIFF(id) != 0;
	f->dir = (int)IIO_EVENT_CODE_EXTRACT_DIR(id);
	f->modifier = (int)IIO_EVENT_CODE_EXTRACT_MODIFIER(id);
	f->chan_type = (int)IIO_EVENT_CODE_EXTRACT_CHAN_TYPE(id);
	f->chan = IIO_EVENT_CODE_EXTRACT_CHAN(id);
	f->chan2 = IIO_EVENT_CODE_EXTRACT_CHAN2(id);
}

/*
 * event_is_known() of iio_event_monitor: its lists stop before the
 * channel type altcurrent and the modifier linear_x, and leave out the
 * event type mag_referenced and everything after gesture.
 */
static bool iio_events_monitor_knows(const struct iio_event_fields *f)
{
	if (f->chan_type >= (int)IIO_ALTCURRENT || !iio_chan_type_name(f->chan_type))
		return false;
	if (f->modifier >= (int)IIO_MOD_LINEAR_X ||
	    (f->modifier != IIO_NO_MOD && !iio_modifier_name(f->modifier)))
		return false;
	if (f->type == IIO_EV_TYPE_MAG_REFERENCED || f->type > IIO_EV_TYPE_GESTURE)
		return false;
	return f->dir == IIO_EV_DIR_NONE ||
	       (f->dir <= IIO_EV_DIR_DOUBLETAP && iio_event_dir_name(f->dir));
}

bool iio_event_monitor_line(char *buf, size_t len, uint64_t id, int64_t timestamp)
{
	struct iio_event_fields f;
	char mod[48] = "", chan[48] = "", dir[48] = "";

	iio_event_decode(id, &f);
	if (!iio_events_monitor_knows(&f)) {
		snprintf(buf, len, "Unknown event: time: %lld, id: %llx", (long long)timestamp,
			 (unsigned long long)id);
		return false;
	}
	if (f.modifier != IIO_NO_MOD)
		snprintf(mod, sizeof(mod), "(%s)", iio_modifier_name(f.modifier));
	if (f.chan >= 0 && f.diff && f.chan2 >= 0)
		snprintf(chan, sizeof(chan), ", channel: %d-%d", f.chan, f.chan2);
	else if (f.chan >= 0)
		snprintf(chan, sizeof(chan), ", channel: %d", f.chan);
	if (f.dir != IIO_EV_DIR_NONE)
		snprintf(dir, sizeof(dir), ", direction: %s", iio_event_dir_name(f.dir));
	snprintf(buf, len, "Event: time: %lld, type: %s%s%s, evtype: %s%s", (long long)timestamp,
		 iio_chan_type_name(f.chan_type), mod, chan, iio_event_type_name(f.type), dir);
	return true;
}
