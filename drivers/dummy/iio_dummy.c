/*
 * iio_dummy.c - the kernel's iio_simple_dummy: a bus-less device with one
 * channel of almost every shape (reference §7).
 *
 * It needs no chip and no bus, so every board and every test can have one:
 * a plain indexed voltage with offset and scale, two differential pairs, a
 * modified accel axis with calibration, a soft timestamp, a DAC output, a
 * step counter and two activity channels, with the kernel driver's initial
 * values and write rules. Its name comes from the board ("name"), as the
 * kernel's comes from the configfs directory. Place in the flow: *driver*
 * -> core. Like every driver it never formats text and names no attribute.
 * Its events are the kernel's iio_simple_dummy_events.c: four event specs
 * backed by one shared enable and one shared value, pushed when the
 * iio_evgen slot it took at probe is poked (iio_dummy_evgen.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iio_dummy_evgen.h"
#include "iio_event.h"
#include "iio_kit.h"
#include "iio_buffer.h"

/* The board's name is copied into the device: the probe's strings are borrowed. */
#define IIO_DUMMY_NAME_MAX	64

/* Scan indices of the kernel driver's buffered layout (kept for buffered capture). */
enum iio_dummy_scan {
	IIO_DUMMY_SCAN_VOLTAGE_0,
	IIO_DUMMY_SCAN_DIFFVOLTAGE_1M2,
	IIO_DUMMY_SCAN_DIFFVOLTAGE_3M4,
	IIO_DUMMY_SCAN_ACCELX,
	IIO_DUMMY_SCAN_TIMESTAMP,
};

/* The only accepted calibscale values, as (val, val2) pairs of INT_PLUS_MICRO. */
struct iio_dummy_calibscale {
	int val;
	int val2;
};

static const struct iio_dummy_calibscale iio_dummy_calibscales[] = {
	{ 0, 100 },	/* 0.000100 */
	{ 0, 133 },	/* 0.000133 */
	{ 733, 13 },	/* 733.000013 */
};

/* Per-device state; every callback runs under the device lock, so no lock of our own. */
struct iio_dummy_state {
	char name[IIO_DUMMY_NAME_MAX];
	int dac_val;
	int single_ended_adc_val;
	int differential_adc_val[2];	/* pair 1-2, pair 3-4 */
	int accel_val;
	int accel_calibbias;
	const struct iio_dummy_calibscale *accel_calibscale;
	int steps_enabled;
	int steps;
	int height;
	int activity_running;
	int activity_walking;
	int event_en;		/* one enable and one value behind every events/ file */
	int event_val;
	int evgen_slot;		/* our iio_evgen slot, -1 without one */
};

/* The values a poke of the slot takes (iio_simple_dummy_event_handler). */
enum iio_dummy_evgen_value {
	IIO_DUMMY_EV_VOLTAGE0_RISING,
	IIO_DUMMY_EV_RUNNING_RISING,
	IIO_DUMMY_EV_WALKING_FALLING,
	IIO_DUMMY_EV_STEPS_CHANGE,
};

/* voltage0 and activity running: the kernel's two specs are the same */
static const struct iio_event_spec iio_dummy_rising_event =
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_RISING);

static const struct iio_event_spec iio_dummy_steps_event = {
	.type = IIO_EV_TYPE_CHANGE,
	.dir = IIO_EV_DIR_NONE,
	.mask_separate = BIT(IIO_EV_INFO_ENABLE),
};

static const struct iio_event_spec iio_dummy_walking_event =
	IIO_EVENT_SPEC_THRESH(IIO_EV_DIR_FALLING);

/* Constant answers of the kernel driver; units as the ABI's (mV, Hz). */
#define IIO_DUMMY_VOLTAGE0_OFFSET	7
#define IIO_DUMMY_VOLTAGE0_SCALE_MICRO	1333	/* 0.001333, INT_PLUS_MICRO */
#define IIO_DUMMY_DIFF_SCALE_NANO	1344	/* 0.000001344, INT_PLUS_NANO */
#define IIO_DUMMY_SAMP_FREQ_INT		3
#define IIO_DUMMY_SAMP_FREQ_NANO	33	/* 3.000000033 Hz */
#define IIO_DUMMY_ACTIVITY_MAX		100	/* percent */

/* A differential input pair @ch - @ch2 with @bits of signed data. */
#define IIO_DUMMY_DIFF_CHAN(ch, ch2, si, bits, by_dir) {			\
	.type = IIO_VOLTAGE,							\
	.differential = 1,							\
	.indexed = 1,								\
	.channel = (ch),							\
	.channel2 = (ch2),							\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
	.info_mask_shared_by_dir = (by_dir),					\
	.scan_index = (si),							\
	.scan_type = { .sign = 's', .realbits = (bits), .storagebits = 16 },	\
}

static const struct iio_chan_spec iio_dummy_channels[] = {
	{	/* plain ADC input: in_voltage0_{raw,offset,scale} */
		.type = IIO_VOLTAGE,
		.indexed = 1,
		.channel = 0,
		.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_OFFSET) |
				      BIT(IIO_CHAN_INFO_SCALE),
		.info_mask_shared_by_dir = BIT(IIO_CHAN_INFO_SAMP_FREQ),
		.scan_index = IIO_DUMMY_SCAN_VOLTAGE_0,
		.scan_type = { .sign = 'u', .realbits = 13, .storagebits = 16 },
		.event_spec = &iio_dummy_rising_event,
		.num_event_specs = 1,
	},
	/* differential pairs 1-2 and 3-4; only the second shares sampling_frequency */
	IIO_DUMMY_DIFF_CHAN(1, 2, IIO_DUMMY_SCAN_DIFFVOLTAGE_1M2, 12, 0),
	IIO_DUMMY_DIFF_CHAN(3, 4, IIO_DUMMY_SCAN_DIFFVOLTAGE_3M4, 11, BIT(IIO_CHAN_INFO_SAMP_FREQ)),
	{	/* one accelerometer axis; the kernel's comment says z, the modifier is X */
		.type = IIO_ACCEL,
		.modified = 1,
		.channel2 = IIO_MOD_X,
		.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_CALIBSCALE) |
				      BIT(IIO_CHAN_INFO_CALIBBIAS),
		.info_mask_shared_by_dir = BIT(IIO_CHAN_INFO_SAMP_FREQ),
		.scan_index = IIO_DUMMY_SCAN_ACCELX,
		.scan_type = { .sign = 's', .realbits = 16, .storagebits = 16 },
	},
	{	/* soft timestamp: channel -1, so no attributes but the clock */
		.type = IIO_TIMESTAMP,
		.channel = -1,
		.scan_index = IIO_DUMMY_SCAN_TIMESTAMP,
		.scan_type = { .sign = 's', .realbits = 64, .storagebits = 64 },
	},
	{	/* DAC output */
		.type = IIO_VOLTAGE,
		.output = 1,
		.indexed = 1,
		.channel = 0,
		.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
		.scan_index = -1,
	},
	{	/* pedometer */
		.type = IIO_STEPS,
		.info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED),
		.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_ENABLE) |
					    BIT(IIO_CHAN_INFO_CALIBHEIGHT),
		.scan_index = -1,
		.event_spec = &iio_dummy_steps_event,
		.num_event_specs = 1,
	},
	{
		.type = IIO_ACTIVITY,
		.modified = 1,
		.channel2 = IIO_MOD_RUNNING,
		.info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED),
		.scan_index = -1,
		.event_spec = &iio_dummy_rising_event,
		.num_event_specs = 1,
	},
	{
		.type = IIO_ACTIVITY,
		.modified = 1,
		.channel2 = IIO_MOD_WALKING,
		.info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED),
		.scan_index = -1,
		.event_spec = &iio_dummy_walking_event,
		.num_event_specs = 1,
	},
};

static int iio_dummy_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			      int *val, int *val2, long mask)
{
	struct iio_dummy_state *st = iio_priv(indio_dev);

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		if (iio_device_claim_direct(indio_dev))
			return -EBUSY;
		if (chan->type == IIO_VOLTAGE) {
			if (chan->output)
				*val = st->dac_val;
			else if (chan->differential)
				*val = st->differential_adc_val[chan->channel == 1 ? 0 : 1];
			else
				*val = st->single_ended_adc_val;
			return IIO_VAL_INT;
		}
		if (chan->type == IIO_ACCEL) {
			*val = st->accel_val;
			return IIO_VAL_INT;
		}
		return -EINVAL;
	case IIO_CHAN_INFO_PROCESSED:
		if (chan->type == IIO_STEPS) {
			*val = st->steps;
			return IIO_VAL_INT;
		}
		if (chan->type == IIO_ACTIVITY && chan->channel2 == IIO_MOD_RUNNING) {
			*val = st->activity_running;
			return IIO_VAL_INT;
		}
		if (chan->type == IIO_ACTIVITY && chan->channel2 == IIO_MOD_WALKING) {
			*val = st->activity_walking;
			return IIO_VAL_INT;
		}
		return -EINVAL;
	case IIO_CHAN_INFO_OFFSET:
		*val = IIO_DUMMY_VOLTAGE0_OFFSET;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		if (chan->type != IIO_VOLTAGE)
			return -EINVAL;
		*val = 0;
		if (chan->differential) {
			*val2 = IIO_DUMMY_DIFF_SCALE_NANO;
			return IIO_VAL_INT_PLUS_NANO;
		}
		*val2 = IIO_DUMMY_VOLTAGE0_SCALE_MICRO;
		return IIO_VAL_INT_PLUS_MICRO;
	case IIO_CHAN_INFO_CALIBBIAS:
		*val = st->accel_calibbias;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_CALIBSCALE:
		*val = st->accel_calibscale->val;
		*val2 = st->accel_calibscale->val2;
		return IIO_VAL_INT_PLUS_MICRO;
	case IIO_CHAN_INFO_SAMP_FREQ:
		*val = IIO_DUMMY_SAMP_FREQ_INT;
		*val2 = IIO_DUMMY_SAMP_FREQ_NANO;
		return IIO_VAL_INT_PLUS_NANO;
	case IIO_CHAN_INFO_ENABLE:
		*val = st->steps_enabled;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_CALIBHEIGHT:
		*val = st->height;
		return IIO_VAL_INT;
	default:
		return -EINVAL;
	}
}

static int iio_dummy_write_processed(struct iio_dummy_state *st,
				     const struct iio_chan_spec *chan, int val)
{
	if (chan->type == IIO_STEPS) {
		st->steps = val;
		return 0;
	}
	if (chan->type != IIO_ACTIVITY)
		return -EINVAL;
	/* a percentage: out-of-range writes are clamped, not refused */
	if (val < 0)
		val = 0;
	if (val > IIO_DUMMY_ACTIVITY_MAX)
		val = IIO_DUMMY_ACTIVITY_MAX;
	if (chan->channel2 == IIO_MOD_RUNNING)
		st->activity_running = val;
	else if (chan->channel2 == IIO_MOD_WALKING)
		st->activity_walking = val;
	else
		return -EINVAL;
	return 0;
}

static int iio_dummy_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			       int val, int val2, long mask)
{
	struct iio_dummy_state *st = iio_priv(indio_dev);
	size_t i;

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		/* only the DAC takes a raw value; inputs are measured, not set */
		if (chan->type != IIO_VOLTAGE || !chan->output)
			return -EINVAL;
		st->dac_val = val;
		return 0;
	case IIO_CHAN_INFO_PROCESSED:
		return iio_dummy_write_processed(st, chan, val);
	case IIO_CHAN_INFO_CALIBSCALE:
		for (i = 0; i < (int)ARRAY_SIZE(iio_dummy_calibscales); i++) {
			if (val == iio_dummy_calibscales[i].val &&
			    val2 == iio_dummy_calibscales[i].val2) {
				st->accel_calibscale = &iio_dummy_calibscales[i];
				return 0;
			}
		}
		return -EINVAL;
	case IIO_CHAN_INFO_CALIBBIAS:
		st->accel_calibbias = val;
		return 0;
	case IIO_CHAN_INFO_ENABLE:
		if (chan->type != IIO_STEPS)
			return -EINVAL;
		st->steps_enabled = val;
		return 0;
	case IIO_CHAN_INFO_CALIBHEIGHT:
		if (chan->type != IIO_STEPS)
			return -EINVAL;
		st->height = val;
		return 0;
	default:
		return -EINVAL;
	}
}

static int iio_dummy_read_event_config(struct iio_dev *indio_dev,
				       const struct iio_chan_spec *chan,
				       enum iio_event_type type, enum iio_event_direction dir)
{
	(void)chan;
	(void)type;
	(void)dir;
	return ((struct iio_dummy_state *)iio_priv(indio_dev))->event_en;
}

/* Each channel takes only its own event type (and voltage only rising), as the kernel's. */
static int iio_dummy_write_event_config(struct iio_dev *indio_dev,
					const struct iio_chan_spec *chan,
					enum iio_event_type type, enum iio_event_direction dir,
					int state)
{
	struct iio_dummy_state *st = iio_priv(indio_dev);

	switch (chan->type) {
	case IIO_VOLTAGE:
		if (type != IIO_EV_TYPE_THRESH || dir != IIO_EV_DIR_RISING)
			return -EINVAL;
		break;
	case IIO_ACTIVITY:
		if (type != IIO_EV_TYPE_THRESH)
			return -EINVAL;
		break;
	case IIO_STEPS:
		if (type != IIO_EV_TYPE_CHANGE)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	st->event_en = state;
	return 0;
}

static int iio_dummy_read_event_value(struct iio_dev *indio_dev,
				      const struct iio_chan_spec *chan,
				      enum iio_event_type type, enum iio_event_direction dir,
				      enum iio_event_info info, int *val, int *val2)
{
	(void)chan;
	(void)type;
	(void)dir;
	(void)info;
	(void)val2;
	*val = ((struct iio_dummy_state *)iio_priv(indio_dev))->event_val;
	return IIO_VAL_INT;
}

static int iio_dummy_write_event_value(struct iio_dev *indio_dev,
				       const struct iio_chan_spec *chan,
				       enum iio_event_type type, enum iio_event_direction dir,
				       enum iio_event_info info, int val, int val2)
{
	(void)chan;
	(void)type;
	(void)dir;
	(void)info;
	(void)val2;
	((struct iio_dummy_state *)iio_priv(indio_dev))->event_val = val;
	return 0;
}

/* Which activity a poke compares with the shared value before it pushes. */
enum iio_dummy_ev_cond {
	IIO_DUMMY_EV_ALWAYS,
	IIO_DUMMY_EV_RUNNING_ABOVE,	/* activity_running > event_val */
	IIO_DUMMY_EV_WALKING_BELOW,	/* activity_walking < event_val */
};

/* What poking the slot with each value pushes (iio_simple_dummy_event_handler). */
static const struct {
	uint64_t code;
	enum iio_dummy_ev_cond cond;
} iio_dummy_pokes[] = {
	[IIO_DUMMY_EV_VOLTAGE0_RISING] = {
		IIO_UNMOD_EVENT_CODE(IIO_VOLTAGE, 0, IIO_EV_TYPE_THRESH, IIO_EV_DIR_RISING),
		IIO_DUMMY_EV_ALWAYS },
	[IIO_DUMMY_EV_RUNNING_RISING] = {
		IIO_MOD_EVENT_CODE(IIO_ACTIVITY, 0, IIO_MOD_RUNNING, IIO_EV_TYPE_THRESH,
				   IIO_EV_DIR_RISING),
		IIO_DUMMY_EV_RUNNING_ABOVE },
	[IIO_DUMMY_EV_WALKING_FALLING] = {
		IIO_MOD_EVENT_CODE(IIO_ACTIVITY, 0, IIO_MOD_WALKING, IIO_EV_TYPE_THRESH,
				   IIO_EV_DIR_FALLING),
		IIO_DUMMY_EV_WALKING_BELOW },
	[IIO_DUMMY_EV_STEPS_CHANGE] = {
		IIO_UNMOD_EVENT_CODE(IIO_STEPS, 0, IIO_EV_TYPE_CHANGE, IIO_EV_DIR_NONE),
		IIO_DUMMY_EV_ALWAYS },
};

/* The slot's handler: the enable is never consulted, as in the kernel's. */
static void iio_dummy_event_handler(struct iio_dev *indio_dev, unsigned long value,
				    int64_t timestamp)
{
	struct iio_dummy_state *st = iio_priv(indio_dev);

	if (value >= ARRAY_SIZE(iio_dummy_pokes))
		return;		/* other values push nothing */
	switch (iio_dummy_pokes[value].cond) {
	case IIO_DUMMY_EV_RUNNING_ABOVE:
		if (st->activity_running <= st->event_val)
			return;
		break;
	case IIO_DUMMY_EV_WALKING_BELOW:
		if (st->activity_walking >= st->event_val)
			return;
		break;
	case IIO_DUMMY_EV_ALWAYS:
		break;
	}
	iio_push_event(indio_dev, iio_dummy_pokes[value].code, timestamp);
}

static const struct iio_info iio_dummy_info = {
	.read_raw = iio_dummy_read_raw,
	.write_raw = iio_dummy_write_raw,
	.read_event_config = iio_dummy_read_event_config,
	.write_event_config = iio_dummy_write_event_config,
	.read_event_value = iio_dummy_read_event_value,
	.write_event_value = iio_dummy_write_event_value,
};

/*
 * iio_simple_dummy_buffer.c: the buffer carries this fixed table, indexed
 * by scan index, not the sysfs raw values.
 */
static const int16_t iio_dummy_fakedata[] = {
	[IIO_DUMMY_SCAN_VOLTAGE_0] = 7,
	[IIO_DUMMY_SCAN_DIFFVOLTAGE_1M2] = -33,
	[IIO_DUMMY_SCAN_DIFFVOLTAGE_3M4] = -2,
	[IIO_DUMMY_SCAN_ACCELX] = 344,
};

/* The enabled channels' values back to back, then the timestamp (iio_simple_dummy_trigger_h). */
static int iio_dummy_trigger_handler(struct iio_dev *indio_dev, int64_t ts)
{
	uint64_t active = iio_buffer_active_mask(indio_dev);
	uint8_t data[IIO_SCAN_BYTES_MAX] = { 0 };
	size_t i, j = 0;

	for (i = 0; i < ARRAY_SIZE(iio_dummy_fakedata); i++) {
		if (!(active & BIT_ULL(i)))
			continue;
		data[j++] = (uint8_t)(iio_dummy_fakedata[i] & 0xff);
		data[j++] = (uint8_t)((uint16_t)iio_dummy_fakedata[i] >> 8);
	}
	iio_push_to_buffers_with_timestamp(indio_dev, data, ts);
	return 0;
}

static const struct iio_buffer_setup iio_dummy_buffer_setup = {
	.handler = iio_dummy_trigger_handler,
};

static void iio_dummy_init_state(struct iio_dummy_state *st)
{
	/* the kernel driver's power-on values (iio_dummy_init_device) */
	st->single_ended_adc_val = 73;
	st->differential_adc_val[0] = 33;
	st->differential_adc_val[1] = -34;
	st->accel_val = 34;
	st->accel_calibbias = -7;
	st->accel_calibscale = &iio_dummy_calibscales[0];
	st->steps = 47;
	st->activity_running = 98;
	st->activity_walking = 4;
}

static int iio_dummy_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			   size_t errlen)
{
	struct iio_dummy_state *st;
	struct iio_dev *indio_dev;
	const char *name = NULL;

	if (iio_probe_prop_str(p, "name", &name) != 0)
		name = p->name ? p->name : p->id->name;
	/* the bare text, without the device's name: that name is what is wrong */
	if (!name[0] || strlen(name) >= IIO_DUMMY_NAME_MAX) {
		if (err && errlen)
			snprintf(err, errlen, "name must have 1 to %d characters",
				 IIO_DUMMY_NAME_MAX - 1);
		return -EINVAL;
	}
	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	snprintf(st->name, sizeof(st->name), "%s", name);
	iio_dummy_init_state(st);
	/*
	 * With all ten slots taken the kernel's probe fails; ours binds a
	 * dummy that no poke reaches (K-45): boards with many dummies worked
	 * before events came.
	 */
	st->evgen_slot = iio_evgen_get_slot(indio_dev, iio_dummy_event_handler);
	iio_device_setup(indio_dev, st->name, iio_dummy_channels,
			 (int)ARRAY_SIZE(iio_dummy_channels), &iio_dummy_info);
	if (iio_triggered_buffer_setup(indio_dev, &iio_dummy_buffer_setup, NULL)) {
		iio_device_put(indio_dev);
		return -ENOMEM;
	}
	*out = indio_dev;
	return 0;
}

static void iio_dummy_remove(struct iio_dev *indio_dev)
{
	struct iio_dummy_state *st = iio_priv(indio_dev);

	iio_evgen_release_slot(st->evgen_slot);
	st->evgen_slot = -1;
}

static const struct iio_device_id iio_dummy_id[] = {
	{ "iio_dummy", 0 },
	{ NULL, 0 },
};

static const struct iio_driver iio_dummy_driver = {
	.name = "iio_dummy",
	.bus = IIO_DRIVER_BUS_NONE,
	.id_table = iio_dummy_id,
	.probe = iio_dummy_probe, .remove = iio_dummy_remove,
	.takes_name = true,
};
IIO_DRIVER_REGISTER(iio_dummy_driver);
