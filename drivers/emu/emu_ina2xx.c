/*
 * emu_ina2xx.c - register-level model of the TI INA219/INA220 and
 * INA226/INA230/INA231 current and power monitors.
 *
 * Answers I2C as the chips do: a first byte is the register pointer, two
 * more write the register MSB first, a read returns the pointed register MSB
 * first (no auto-increment: it repeats). From the datasheets: the shunt
 * voltage register (INA219: 10 uV LSB, clipped at +/-40 mV x the PGA divider;
 * INA226: 2.5 uV, +/-81.92 mV), the bus voltage (INA219: 4 mV in bits 15:3,
 * CNVR bit 1, OVF bit 0; INA226: 1.25 mV), current = shunt x CAL / 4096
 * (INA226: / 2048), power = current x bus / 5000 (INA226: / 20000), both 0
 * while CAL is 0. Conversions run on the bus's virtual clock from the last
 * config write: one cycle takes the bus plus shunt conversion times (the
 * INA219's ADC fields, the INA226's VBUSCT/VSHCT times its AVG), the
 * registers latch the inputs at each cycle's end and the conversion-ready
 * flag rises (INA219 CNVR: cleared by a read of POWER; INA226 CVRF in
 * Mask/Enable: cleared by a read of it); triggered modes make one cycle,
 * power-down none. RST (config bit 15) restores the power-on values.
 * Place in the flow: *chip* -> bus -> driver. Inputs: "current" (mA through
 * the shunt), "vbus" (mV), "rshunt" (the board's real shunt in uOhm, default
 * 10000: the driver's shunt-resistor property is what it believes).
 * Lower ADC resolutions are not quantised. Must not: call drivers or the
 * core, sleep, or keep global state.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_INA_CONFIG		0x00
#define EMU_INA_SHUNT		0x01
#define EMU_INA_BUS		0x02
#define EMU_INA_POWER		0x03
#define EMU_INA_CURRENT		0x04
#define EMU_INA_CAL		0x05
#define EMU_INA_MASK_EN		0x06	/* INA226 family */
#define EMU_INA_ALERT		0x07
#define EMU_INA_MANUF_ID	0xfe	/* INA226: "TI" */
#define EMU_INA_DIE_ID		0xff	/* INA226: 0x226, revision 0 */

#define EMU_INA_RST		0x8000
#define EMU_INA_MODE_SHUNT	BIT(0)
#define EMU_INA_MODE_BUS	BIT(1)
#define EMU_INA_MODE_CONT	BIT(2)
#define EMU_INA219_CONFIG_POR	0x399f
#define EMU_INA226_CONFIG_POR	0x4127
#define EMU_INA226_CONFIG_FIXED	0x4000	/* bits 14:12 read 100 */
#define EMU_INA226_CVRF		BIT(3)
#define EMU_INA226_OVF		BIT(2)
#define EMU_INA226_MASK_RW	0xfc03	/* alert sources, APOL, LEN */
#define EMU_INA219_CNVR		BIT(1)
#define EMU_INA219_OVF		BIT(0)

enum { EMU_INA_IN_CURRENT, EMU_INA_IN_VBUS, EMU_INA_IN_RSHUNT, EMU_INA_IN_COUNT };

struct emu_ina2xx {
	struct emu_chip chip;
	bool is226;
	uint8_t ptr;
	uint16_t config, shunt, bus, power, current, cal, mask_en, alert;
	bool started;
	double t_start;		/* the running conversions' start (virtual s) */
	long long done;		/* cycles latched since */
	bool ready, ovf;
	struct emu_signal in[EMU_INA_IN_COUNT];
};

static struct emu_ina2xx *emu_ina2xx_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_ina2xx, chip);
}

/* INA219 datasheet, table 5 (BADC/SADC): 9-12 bits, then 12 bits averaged x1..x128, us */
static double emu_ina219_adc_us(unsigned int code)
{
	static const double bits_us[] = { 84, 148, 276, 532 };
	static const double avg_us[] = { 532, 1060, 2130, 4260, 8510, 17020, 34050, 68100 };

	return code & 0x8 ? avg_us[code & 0x7] : bits_us[code & 0x3];
}

/* One conversion cycle of the enabled converters, in seconds. */
static double emu_ina2xx_cycle_s(const struct emu_ina2xx *m)
{
	static const double ct_us[] = { 140, 204, 332, 588, 1100, 2116, 4156, 8244 };
	static const int avg[] = { 1, 4, 16, 64, 128, 256, 512, 1024 };
	unsigned int c = m->config;
	double us = 0;

	if (m->is226) {
		if (c & EMU_INA_MODE_BUS)
			us += ct_us[(c >> 6) & 7];
		if (c & EMU_INA_MODE_SHUNT)
			us += ct_us[(c >> 3) & 7];
		us *= avg[(c >> 9) & 7];
	} else {
		if (c & EMU_INA_MODE_BUS)
			us += emu_ina219_adc_us((c >> 7) & 0xf);
		if (c & EMU_INA_MODE_SHUNT)
			us += emu_ina219_adc_us((c >> 3) & 0xf);
	}
	return us / 1e6;
}

static long emu_ina2xx_clamp(double v, long lo, long hi)
{
	long r = lround(v);

	return r < lo ? lo : r > hi ? hi : r;
}

/* The current and power registers from the latched shunt and bus values. */
static void emu_ina2xx_compute(struct emu_ina2xx *m)
{
	long bus_raw = m->is226 ? m->bus : m->bus >> 3;
	long long cur = (long long)(int16_t)m->shunt * m->cal / (m->is226 ? 2048 : 4096);
	long long pw;

	m->ovf = cur > INT16_MAX || cur < INT16_MIN;
	cur = cur > INT16_MAX ? INT16_MAX : cur < INT16_MIN ? INT16_MIN : cur;
	pw = llabs(cur) * bus_raw / (m->is226 ? 20000 : 5000);
	m->ovf |= pw > 0xffff;
	m->current = (uint16_t)(int16_t)cur;
	m->power = (uint16_t)(pw > 0xffff ? 0xffff : pw);
}

/* Latch the inputs at @t for the converters @mode enables. */
static void emu_ina2xx_latch(struct emu_ina2xx *m, unsigned int mode, double t)
{
	double ma = emu_signal_sample(&m->in[EMU_INA_IN_CURRENT], t);
	double mv = emu_signal_sample(&m->in[EMU_INA_IN_VBUS], t);
	double uohm = emu_signal_sample(&m->in[EMU_INA_IN_RSHUNT], t);
	long lim;

	if (mode & EMU_INA_MODE_SHUNT) {	/* mA x uOhm = nV */
		lim = m->is226 ? INT16_MAX : 4000L << ((m->config >> 11) & 3);
		m->shunt = (uint16_t)(int16_t)emu_ina2xx_clamp(ma * uohm /
							       (m->is226 ? 2500.0 : 10000.0),
							       -lim, lim);
	}
	if (mode & EMU_INA_MODE_BUS) {
		if (m->is226)
			m->bus = (uint16_t)emu_ina2xx_clamp(mv / 1.25, 0, INT16_MAX);
		else	/* BRNG 0: the 16 V range */
			m->bus = (uint16_t)(emu_ina2xx_clamp(mv / 4.0, 0, m->config & BIT(13) ?
							     8191 : 4000) << 3);
	}
	if (m->cal)
		emu_ina2xx_compute(m);
}

/* Bring the registers up to @now: the cycles that ended since the last look. */
static void emu_ina2xx_update(struct emu_ina2xx *m, double now)
{
	unsigned int mode = m->config & 7;
	double cycle = emu_ina2xx_cycle_s(m);
	long long k;

	if (!(mode & (EMU_INA_MODE_SHUNT | EMU_INA_MODE_BUS)) || cycle <= 0)
		return;
	if (!m->started) {
		/* converting since power-on: the first look finds a cycle done */
		m->started = true;
		m->t_start = now;
		emu_ina2xx_latch(m, mode, now);
		m->ready = true;
		return;
	}
	k = (long long)floor((now - m->t_start) / cycle);
	if (!(mode & EMU_INA_MODE_CONT) && k > 1)
		k = 1;
	if (k <= m->done)
		return;
	emu_ina2xx_latch(m, mode, m->t_start + (double)k * cycle);
	m->done = k;
	m->ready = true;
}

static void emu_ina2xx_reset(struct emu_ina2xx *m, double now)
{
	m->config = m->is226 ? EMU_INA226_CONFIG_POR : EMU_INA219_CONFIG_POR;
	m->shunt = m->bus = m->power = m->current = m->cal = m->mask_en = m->alert = 0;
	m->ready = m->ovf = false;
	m->t_start = now;
	m->done = 0;
}

static uint16_t emu_ina2xx_reg_read(struct emu_ina2xx *m, uint8_t reg)
{
	uint16_t v;

	switch (reg) {
	case EMU_INA_CONFIG:	return m->config;
	case EMU_INA_SHUNT:	return m->shunt;
	case EMU_INA_CURRENT:	return m->current;
	case EMU_INA_CAL:	return m->cal;
	case EMU_INA_BUS:
		if (m->is226)
			return m->bus;
		return (uint16_t)(m->bus | (m->ready ? EMU_INA219_CNVR : 0) |
				  (m->ovf ? EMU_INA219_OVF : 0));
	case EMU_INA_POWER:
		if (!m->is226)
			m->ready = false;	/* a read of POWER clears CNVR */
		return m->power;
	}
	if (!m->is226)
		return 0;
	switch (reg) {
	case EMU_INA_MASK_EN:
		v = (uint16_t)(m->mask_en | (m->ready ? EMU_INA226_CVRF : 0) |
			       (m->ovf ? EMU_INA226_OVF : 0));
		m->ready = false;	/* a read of Mask/Enable clears CVRF */
		return v;
	case EMU_INA_ALERT:	return m->alert;
	case EMU_INA_MANUF_ID:	return 0x5449;
	case EMU_INA_DIE_ID:	return 0x2260;
	}
	return 0;
}

static void emu_ina2xx_reg_write(struct emu_ina2xx *m, uint8_t reg, uint16_t v, double now)
{
	switch (reg) {
	case EMU_INA_CONFIG:	/* a write aborts the conversion and starts again */
		if (v & EMU_INA_RST) {
			emu_ina2xx_reset(m, now);
			return;
		}
		m->config = m->is226 ? (uint16_t)((v & 0x0fff) | EMU_INA226_CONFIG_FIXED) :
				       (uint16_t)(v & 0x3fff);
		m->t_start = now;
		m->done = 0;
		m->ready = false;
		return;
	case EMU_INA_CAL:	/* INA219: bit 0 reads 0; INA226: bit 15 reserved */
		m->cal = m->is226 ? (uint16_t)(v & 0x7fff) : (uint16_t)(v & 0xfffe);
		return;
	case EMU_INA_MASK_EN:
		if (m->is226)
			m->mask_en = v & EMU_INA226_MASK_RW;
		return;
	case EMU_INA_ALERT:
		if (m->is226)
			m->alert = v;
		return;
	}
}

static void emu_ina2xx_read(struct emu_chip *chip, uint8_t *buf, int len)
{
	struct emu_ina2xx *m = emu_ina2xx_from_chip(chip);
	uint16_t v;
	int i;

	emu_ina2xx_update(m, emu_chip_now(chip));
	v = emu_ina2xx_reg_read(m, m->ptr);
	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(i % 2 ? v : v >> 8);
}

static void emu_ina2xx_write(struct emu_chip *chip, const uint8_t *buf, int len)
{
	struct emu_ina2xx *m = emu_ina2xx_from_chip(chip);
	double now = emu_chip_now(chip);

	if (len < 1)
		return;		/* SMBus quick command: address ACK only */
	emu_ina2xx_update(m, now);
	m->ptr = buf[0];
	if (len >= 3)
		emu_ina2xx_reg_write(m, m->ptr, (uint16_t)(buf[1] << 8 | buf[2]), now);
}

static const struct emu_chip_ops emu_ina2xx_ops = {
	.i2c_transfer = emu_chip_i2c_rw,
	.i2c_read = emu_ina2xx_read,
	.i2c_write = emu_ina2xx_write,
	.destroy = emu_chip_free,
};

static const struct iio_device_id emu_ina2xx_ids[] = {
	{ "ina219", 0 }, { "ina220", 0 }, { "ina226", 1 }, { "ina230", 1 }, { "ina231", 1 },
	{ NULL, 0 }
};

/* The inputs a board gives, by name or ABI stem; "PART: unknown input" for others. */
static int emu_ina2xx_take_inputs(struct emu_ina2xx *m, const struct emu_params *p, char *err,
				  size_t errlen)
{
	const struct emu_input_slot slots[] = {
		{ "current", &m->in[EMU_INA_IN_CURRENT], NULL },
		{ "current3", &m->in[EMU_INA_IN_CURRENT], NULL },
		{ "vbus", &m->in[EMU_INA_IN_VBUS], NULL },
		{ "voltage1", &m->in[EMU_INA_IN_VBUS], NULL },
		{ "rshunt", &m->in[EMU_INA_IN_RSHUNT], NULL },
	};
	const char *bad = "";
	int ret = emu_inputs_take(p, slots, (int)ARRAY_SIZE(slots), &bad);

	if (ret == -EINVAL)
		snprintf(err, errlen, "%s: unknown input \"%s\" (valid: current, vbus, rshunt; "
			 "mA, mV, uOhm)", m->chip.name, bad);
	else if (ret)
		snprintf(err, errlen, "%s: out of memory copying inputs", m->chip.name);
	return ret;
}

/* A chip at power-on: continuous conversions at the default config, CAL 0. */
static int emu_ina2xx_create(const struct emu_params *p, struct emu_chip **out, char *err,
			     size_t errlen)
{
	struct emu_ina2xx *m;
	int part;

	part = emu_params_part(p, 2, "an INA2xx part", err, errlen);
	if (part < 0)
		return part;
	m = emu_chip_alloc(sizeof(*m), &emu_ina2xx_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = m->in;
	m->chip.ninputs = EMU_INA_IN_COUNT;
	m->is226 = part == 1;
	m->in[EMU_INA_IN_RSHUNT].value = 10000;
	emu_ina2xx_reset(m, 0);
	return emu_chip_done(&m->chip, emu_ina2xx_take_inputs(m, p, err, errlen), out);
}

static const struct emu_model emu_ina2xx_model = {
	.name = "ina2xx",
	.id_table = emu_ina2xx_ids,
	.create = emu_ina2xx_create,
};
EMU_MODEL_REGISTER(emu_ina2xx_model);
