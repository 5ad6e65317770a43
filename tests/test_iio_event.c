/*
 * test_iio_event.c - IIO events in the core and the dummy's event source:
 * event codes packed bit for bit as the kernel's (the reference's worked
 * codes), iio_event_monitor's lines, the events/ attributes of iio_dummy
 * and their read and write rules, iio_evgen's pokes, and the event queue
 * (one reader, flushed at open, oldest dropped and counted when full,
 * ENODEV once the device is gone).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iio.h"
#include "iio_core.h"
#include "iio_event.h"
#include "iio_registry.h"
#include "testutil.h"

struct tev_code_row {
	const char *what;
	uint64_t code;
	uint64_t want;
	const char *line;	/* iio_event_monitor's, for time 7 */
};

static const struct tev_code_row tev_codes[] = {
	{ "max1363 voltage2 rising",
	  IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 2, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING),
	  0x0001000000000002ull,
	  "Event: time: 7, type: voltage, channel: 2, evtype: thresh, direction: rising" },
	{ "max1363 voltage0 falling",
	  IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 0, IIO_EV_TYPE_THRESH, IIO_EV_DIR_FALLING),
	  0x0002000000000000ull,
	  "Event: time: 7, type: voltage, channel: 0, evtype: thresh, direction: falling" },
	{ "tsl2563 either",
	  IIO_UNMOD_EVENT_CODE(IIO_INTENSITY, 0, IIO_EV_TYPE_THRESH, IIO_EV_DIR_EITHER),
	  0x0000000700000000ull,
	  "Event: time: 7, type: intensity, channel: 0, evtype: thresh, direction: either" },
	{ "dummy running rising",
	  IIO_MOD_EVENT_CODE(IIO_ACTIVITY, 0, IIO_MOD_RUNNING, IIO_EV_TYPE_THRESH,
			     IIO_EV_DIR_RISING),
	  0x00011B1300000000ull,
	  "Event: time: 7, type: activity(running), channel: 0, evtype: thresh, "
	  "direction: rising" },
	{ "dummy walking falling",
	  IIO_MOD_EVENT_CODE(IIO_ACTIVITY, 0, IIO_MOD_WALKING, IIO_EV_TYPE_THRESH,
			     IIO_EV_DIR_FALLING),
	  0x00021D1300000000ull,
	  "Event: time: 7, type: activity(walking), channel: 0, evtype: thresh, "
	  "direction: falling" },
	{ "dummy steps change",
	  IIO_UNMOD_EVENT_CODE(IIO_STEPS, 0, IIO_EV_TYPE_CHANGE, IIO_EV_DIR_NONE),
	  0x0503001400000000ull,
	  "Event: time: 7, type: steps, channel: 0, evtype: change" },
	{ "differential 0-1 rising",
	  IIO_DIFF_EVENT_CODE(IIO_VOLTAGE, 0, 1, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING),
	  0x0081000000010000ull,
	  "Event: time: 7, type: voltage, channel: 0-1, evtype: thresh, direction: rising" },
	{ "channel -1 has no channel field",
	  IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, -1, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING),
	  0x000100000000FFFFull,
	  "Event: time: 7, type: voltage, evtype: thresh, direction: rising" },
	{ "mag_referenced is unknown to the tool",
	  IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 3, IIO_EV_TYPE_MAG_REFERENCED, IIO_EV_DIR_RISING),
	  0x0601000000000003ull, "Unknown event: time: 7, id: 601000000000003" },
	{ "altcurrent is unknown to the tool",
	  IIO_UNMOD_EVENT_CODE(IIO_ALTCURRENT, 0, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING),
	  0x0001002800000000ull, "Unknown event: time: 7, id: 1002800000000" },
};

static void test_codes_and_lines(void)
{
	char line[IIO_EVENT_LINE_MAX];
	struct iio_event_fields f;
	size_t i;

	for (i = 0; i < sizeof(tev_codes) / sizeof(tev_codes[0]); i++) {
		const struct tev_code_row *r = &tev_codes[i];

		TEST_ROW_ASSERT(r->code == r->want, r->what);
		iio_event_monitor_line(line, sizeof(line), r->code, 7);
		TEST_ROW_ASSERT(strcmp(line, r->line) == 0, r->what);
		if (strcmp(line, r->line))
			printf("\n  got  %s\n  want %s\n", line, r->line);
	}
	iio_event_decode(IIO_DIFF_EVENT_CODE(IIO_VOLTAGE, 3, 2, IIO_EV_TYPE_THRESH,
					     IIO_EV_DIR_FALLING), &f);
	CU_ASSERT(f.diff);
	CU_ASSERT_EQUAL(f.chan, 3);
	CU_ASSERT_EQUAL(f.chan2, 2);
	CU_ASSERT_EQUAL(f.dir, IIO_EV_DIR_FALLING);
	CU_ASSERT_EQUAL(f.chan_type, IIO_VOLTAGE);
	CU_ASSERT_STRING_EQUAL(iio_event_type_name(IIO_EV_TYPE_CHANGE), "change");
	CU_ASSERT_PTR_NULL(iio_event_dir_name(IIO_EV_DIR_NONE));
	CU_ASSERT_STRING_EQUAL(iio_event_info_postfix(IIO_EV_INFO_RUNNING_PERIOD), "runningperiod");
	CU_ASSERT_PTR_NULL(iio_event_info_postfix(IIO_EV_INFO_COUNT));
}
TEST_CASE(test_codes_and_lines, "codes packed as the kernel's, iio_event_monitor lines");

/* A board-less registry with a dummy ("dummy0") and the generator. */
struct tev_bench {
	struct iio_registry *reg;
	struct iio_dev *dummy;
	struct iio_dev *evgen;
	int wakes;
};

static int tev_prop_str(const void *props, const char *key, const char **val)
{
	if (strcmp(key, "name") != 0 || !props)
		return -ENOENT;
	*val = props;
	return 0;
}

static struct iio_dev *tev_add(struct iio_registry *reg, const char *driver, const char *name)
{
	const struct iio_device_id *id = NULL;
	const struct iio_driver *drv = iio_driver_find(driver, &id);
	struct iio_probe p = { .id = id, .props = name, .prop_str = tev_prop_str };
	struct iio_dev *d = NULL;
	char err[128] = "";

	CU_ASSERT_PTR_NOT_NULL_FATAL(drv);
	CU_ASSERT_EQUAL_FATAL(drv->probe(&p, &d, err, sizeof(err)), 0);
	iio_device_set_driver(d, drv);
	CU_ASSERT_EQUAL_FATAL(iio_device_register(reg, d, err, sizeof(err)), 0);
	return d;
}

static void tev_setup(struct tev_bench *b)
{
	memset(b, 0, sizeof(*b));
	b->reg = iio_registry_create();
	CU_ASSERT_PTR_NOT_NULL_FATAL(b->reg);
	b->dummy = tev_add(b->reg, "iio_dummy", "dummy0");
	b->evgen = tev_add(b->reg, "iio_evgen", NULL);
}

static int tev_rw(struct iio_dev *d, const char *name, const char *text, char *out, size_t len)
{
	const struct iio_attr *a = iio_device_attr_find(d, name);

	if (!a)
		return -ENOENT;
	if (text)
		return iio_attr_write(d, a, text, strlen(text));
	return (int)iio_attr_read(d, a, out, len);
}

static void tev_wake(void *ctx)
{
	((struct tev_bench *)ctx)->wakes++;
}

static void test_dummy_attrs(void)
{
	struct tev_bench b;
	char buf[64];

	tev_setup(&b);
	/* every _en reads the one shared enable, every _value the one shared value */
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_voltage0_thresh_rising_en", "1\n", NULL, 0), 0);
	CU_ASSERT(tev_rw(b.dummy, "events/in_steps_change_en", NULL, buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "1\n");
	/* kstrtobool's words */
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_steps_change_en", "off", NULL, 0), 0);
	tev_rw(b.dummy, "events/in_voltage0_thresh_rising_en", NULL, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "0\n");
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_steps_change_en", "Yes", NULL, 0), 0);
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_steps_change_en", "ox", NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_steps_change_en", "", NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_steps_change_en", "2", NULL, 0), -EINVAL);
	/* values: INT_PLUS_MICRO text, integer part kept; junk and int overflow refused */
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_activity_running_thresh_rising_value",
			       "1000.9", NULL, 0), 0);
	tev_rw(b.dummy, "events/in_voltage0_thresh_rising_value", NULL, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "1000\n");
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_voltage0_thresh_rising_value", "12abc",
			       NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_voltage0_thresh_rising_value", "4294968296",
			       NULL, 0), -ERANGE);
	tev_rw(b.dummy, "events/in_voltage0_thresh_rising_value", NULL, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "1000\n");
	/* no falling voltage event, no _raw in any name */
	CU_ASSERT_PTR_NULL(iio_device_attr_find(b.dummy, "events/in_voltage0_thresh_falling_en"));
	CU_ASSERT_PTR_NULL(iio_device_attr_find(b.dummy,
						"events/in_voltage0_raw_thresh_rising_en"));
	/* the generator: ten write-only pokes and its name */
	CU_ASSERT_EQUAL(iio_device_attr_count(b.evgen), 11);
	CU_ASSERT_EQUAL(iio_device_attr_find(b.evgen, "poke_ev9")->mode, 0200);
	CU_ASSERT_PTR_NULL(iio_device_attr_find(b.evgen, "poke_ev10"));
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", NULL, buf, sizeof(buf)), -EACCES);
	CU_ASSERT(!iio_device_has_events(b.evgen));
	CU_ASSERT_EQUAL(iio_event_open(b.evgen, tev_wake, &b), -ENODEV);
	iio_registry_destroy(b.reg);
}
TEST_CASE(test_dummy_attrs, "iio_dummy events/ files: shared enable and value, kernel errors");

static void test_evgen_pushes(void)
{
	struct iio_event_data ev[8];
	struct tev_bench b;
	uint64_t lost;
	int64_t before;

	tev_setup(&b);
	/* without a reader events are discarded, as with no event fd held */
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", "0", NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(iio_event_open(b.dummy, tev_wake, &b), 0);
	CU_ASSERT_EQUAL(iio_event_open(b.dummy, tev_wake, &b), -EBUSY);
	CU_ASSERT_EQUAL(iio_event_read(b.dummy, ev, 8, &lost), 0);
	before = iio_get_time_ns(b.dummy);
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", "0\n", NULL, 0), 0);
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", "1", NULL, 0), 0);	/* 98 > 0 */
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", "2", NULL, 0), 0);	/* 4 < 0: no */
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", "3", NULL, 0), 0);
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", "4", NULL, 0), 0);	/* nothing */
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev1", "0", NULL, 0), 0);	/* no dummy there */
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", "-1", NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", "99999999999999999999", NULL, 0), -ERANGE);
	CU_ASSERT_EQUAL(b.wakes, 3);
	CU_ASSERT_EQUAL_FATAL(iio_event_read(b.dummy, ev, 8, &lost), 3);
	CU_ASSERT_EQUAL(lost, 0);
	CU_ASSERT_EQUAL(ev[0].id, 0x0001000000000000ull);
	CU_ASSERT_EQUAL(ev[1].id, 0x00011B1300000000ull);
	CU_ASSERT_EQUAL(ev[2].id, 0x0503001400000000ull);
	CU_ASSERT(ev[0].timestamp >= before && ev[2].timestamp >= ev[0].timestamp);
	/* the thresholds the handler compares with: the shared value */
	CU_ASSERT_EQUAL(tev_rw(b.dummy, "events/in_activity_walking_thresh_falling_value", "5",
			       NULL, 0), 0);
	tev_rw(b.evgen, "poke_ev0", "2", NULL, 0);
	tev_rw(b.evgen, "poke_ev0", "1", NULL, 0);
	CU_ASSERT_EQUAL_FATAL(iio_event_read(b.dummy, ev, 8, &lost), 2);
	CU_ASSERT_EQUAL(ev[0].id, 0x00021D1300000000ull);
	iio_event_close(b.dummy);
	iio_registry_destroy(b.reg);
}
TEST_CASE(test_evgen_pushes, "poke_evN pushes the dummy's four codes, as the kernel's handler");

static void test_queue_bounds(void)
{
	struct iio_event_data ev[IIO_EVENT_QUEUE_LEN];
	struct tev_bench b;
	uint64_t lost;
	int i;

	tev_setup(&b);
	CU_ASSERT_EQUAL_FATAL(iio_event_open(b.dummy, tev_wake, &b), 0);
	/* exactly the limit: nothing lost */
	for (i = 0; i < IIO_EVENT_QUEUE_LEN; i++)
		iio_push_event(b.dummy, (uint64_t)i, i);
	CU_ASSERT_EQUAL(iio_event_read(b.dummy, ev, IIO_EVENT_QUEUE_LEN, &lost),
			IIO_EVENT_QUEUE_LEN);
	CU_ASSERT_EQUAL(lost, 0);
	/* one over: the oldest goes, and is counted once */
	for (i = 0; i < IIO_EVENT_QUEUE_LEN + 1; i++)
		iio_push_event(b.dummy, (uint64_t)i, i);
	CU_ASSERT_EQUAL(iio_event_read(b.dummy, ev, IIO_EVENT_QUEUE_LEN, &lost),
			IIO_EVENT_QUEUE_LEN);
	CU_ASSERT_EQUAL(lost, 1);
	CU_ASSERT_EQUAL(ev[0].id, 1);
	CU_ASSERT_EQUAL(ev[IIO_EVENT_QUEUE_LEN - 1].id, IIO_EVENT_QUEUE_LEN);
	CU_ASSERT_EQUAL(iio_event_read(b.dummy, ev, 4, &lost), 0);
	CU_ASSERT_EQUAL(lost, 0);
	/* reopening flushes what was queued */
	iio_push_event(b.dummy, 5, 5);
	iio_event_close(b.dummy);
	CU_ASSERT_EQUAL(iio_event_open(b.dummy, tev_wake, &b), 0);
	CU_ASSERT_EQUAL(iio_event_read(b.dummy, ev, 4, &lost), 0);
	/* the device going away wakes the reader, whose read then ends */
	i = b.wakes;
	iio_device_mark_gone(b.dummy);
	CU_ASSERT_EQUAL(b.wakes, i + 1);
	CU_ASSERT_EQUAL(iio_event_read(b.dummy, ev, 4, &lost), -ENODEV);
	/* ... and its slot is free again for the next dummy */
	CU_ASSERT_EQUAL(tev_rw(b.evgen, "poke_ev0", "0", NULL, 0), 0);
	iio_registry_destroy(b.reg);
}
TEST_CASE(test_queue_bounds, "queue: limit N kept, N+1 drops the oldest counted, flush, ENODEV");

TEST_MAIN("iio_event", NULL, NULL)
