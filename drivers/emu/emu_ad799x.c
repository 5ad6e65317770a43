/*
 * emu_ad799x.c - register-level model of the AD799x I2C ADCs: ad7991, ad7995,
 * ad7999 (no register pointer: the byte written is the configuration) and
 * ad7992, ad7993, ad7994, ad7997, ad7998 (an address pointer selects the
 * conversion result, alert status, configuration, cycle timer and the
 * per-channel DATA_LOW / DATA_HIGH / HYSTERESIS limit registers).
 *
 * A conversion is started by the command bits of the byte the master writes
 * (channel bits 7:4 on the ad7991/2/3/4/5/9; 1xxx = "convert channel xxx" and
 * 0111 = "convert the configured sequence" on the ad7997/8) and read back as
 * one 16-bit word, MSB first: alert flag in bit 15, channel ID in 14:12, the
 * result left-aligned to bit 11. Inputs are signals keyed by ABI stem
 * ("voltage0".."voltage7") in mV.
 *
 * Every conversion of channels 0-3 is checked against their limits (with
 * hysteresis) and sets the alert status. The cycle timer (register 3)
 * converts the configuration's channels on the virtual clock, every
 * 64 us x 2^(code-1) (the kernel's 15625 Hz .. 244 Hz), caught up at each
 * transfer and each look at the ALERT pin. The pin is asserted while
 * ALERT_EN is set and any status bit is; writing ALERT_EN and BUSY/ALERT
 * together resets it and the status (the datasheets' "1 1" row), which the
 * kernel's irq default does. Place in the flow: *chip* -> bus. It must not
 * call drivers, the core or the server; the CONVST mode is not modelled.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_AD799X_MAX_INPUTS	8
/* only the first four channels have limit registers (pointers 0x4..0xF) */
#define EMU_AD799X_LIMIT_CHANS	4

/* the supply (and reference) when the board gives no vref_mv */
#define EMU_AD799X_DEFAULT_VDD_MV	3300

/* ad7991/5/9 configuration: Vin3 is the external reference input */
#define EMU_AD7991_REF_SEL		0x08

/* register pointers (low nibble of the address pointer byte) */
#define EMU_AD799X_REG_RESULT	0x0
#define EMU_AD799X_REG_ALERT	0x1
#define EMU_AD799X_REG_CONFIG	0x2
#define EMU_AD799X_REG_CYCLE	0x3
#define EMU_AD799X_REG_LIMIT0	0x4	/* DATA_LOW(n) at 4 + 3n, DATA_HIGH, HYSTERESIS */

enum emu_ad799x_limit {
	EMU_AD799X_DATA_LOW,
	EMU_AD799X_DATA_HIGH,
	EMU_AD799X_HYSTERESIS,
};

/* ad7997/8 command nibble */
#define EMU_AD7998_CMD_SINGLE	0x8	/* 1xxx: convert channel xxx */
#define EMU_AD7998_CMD_SEQUENCE	0x7	/* convert the configuration's channels */

#define EMU_AD799X_CHAN_SHIFT	4
#define EMU_AD799X_CYCLE_MASK	0x07
/* cycle timer code 1: 32 conversion times of 2 us; each next code doubles it */
#define EMU_AD799X_CYCLE1_S	64e-6
/* automatic conversions caught up at once at most; older instants are skipped */
#define EMU_AD799X_CYCLE_CATCHUP	256
/* configuration flags of the pointer parts */
#define EMU_AD799X_ALERT_EN	0x04
#define EMU_AD799X_BUSY_ALERT	0x02
/* power-on hysteresis: 8 LSB at 12 bits, 2 LSB at 10 (the same field value) */
#define EMU_AD799X_HYST_POWER_ON	0x008
#define EMU_AD799X_RESULT_ALERT	0x8000
#define EMU_AD799X_RESULT_CHID_SHIFT	12

enum emu_ad799x_kind {
	EMU_AD799X_NO_POINTER,	/* ad7991/5/9: write-only configuration, reads convert */
	EMU_AD799X_POINTER8,	/* ad7992/3/4: 8-bit configuration register */
	EMU_AD799X_POINTER16,	/* ad7997/8: 16-bit configuration register */
};

struct emu_ad799x_part {
	const char *name;
	uint8_t ninputs;
	uint8_t bits;
	enum emu_ad799x_kind kind;
};

static const struct emu_ad799x_part emu_ad799x_parts[] = {
	{ "ad7991", 4, 12, EMU_AD799X_NO_POINTER },
	{ "ad7995", 4, 10, EMU_AD799X_NO_POINTER },
	{ "ad7999", 4, 8, EMU_AD799X_NO_POINTER },
	{ "ad7992", 2, 12, EMU_AD799X_POINTER8 },
	{ "ad7993", 4, 10, EMU_AD799X_POINTER8 },
	{ "ad7994", 4, 12, EMU_AD799X_POINTER8 },
	{ "ad7997", 8, 10, EMU_AD799X_POINTER16 },
	{ "ad7998", 8, 12, EMU_AD799X_POINTER16 },
};

#define EMU_AD799X_NPARTS	ARRAY_SIZE(emu_ad799x_parts)

/* driver_data is the row of emu_ad799x_parts[] */
static const struct iio_device_id emu_ad799x_ids[] = {
	{ "ad7991", 0 }, { "ad7995", 1 }, { "ad7999", 2 }, { "ad7992", 3 },
	{ "ad7993", 4 }, { "ad7994", 5 }, { "ad7997", 6 }, { "ad7998", 7 },
	{ NULL, 0 }
};

/**
 * struct emu_ad799x - one chip.
 * @pointer: the address pointer (pointer parts only).
 * @conv_mask: channels the last command asked to convert, bit n = channel n;
 *	0 when the last address byte carried no command (reads then return
 *	the last result again).
 * @conv_next: where in @conv_mask the next result word starts.
 * @limit: DATA_LOW, DATA_HIGH, HYSTERESIS per channel, as stored: 12-bit,
 *	left-aligned to bit 11 whatever the resolution.
 * @armed_low/@armed_high: an alert may be raised (re-armed by hysteresis).
 * @cycle_on/@cycle_t: the cycle timer runs, and the virtual time of its
 *	last automatic conversion.
 * @vref_mv: the board's vref_mv, 0 if absent. On the ad7991/5/9 it is the
 *	external reference on Vin3, used while REF_SEL is set (VDD is then
 *	taken as 3300 mV); on the others, which convert against VDD, it is VDD.
 */
struct emu_ad799x {
	struct emu_chip chip;		/* first: the bus hands us this */
	const struct emu_ad799x_part *part;
	uint8_t pointer;
	uint16_t config;
	uint16_t result;
	uint8_t alert;
	uint8_t cycle;
	uint16_t limit[EMU_AD799X_LIMIT_CHANS][3];
	bool armed_low[EMU_AD799X_LIMIT_CHANS];
	bool armed_high[EMU_AD799X_LIMIT_CHANS];
	unsigned int conv_mask;
	int conv_next;
	bool cycle_on;
	double cycle_t;
	int vref_mv;
	struct emu_signal in[EMU_AD799X_MAX_INPUTS];
};

static struct emu_ad799x *emu_ad799x_from_chip(struct emu_chip *chip)
{
	return (struct emu_ad799x *)chip;
}

/* Bits that hold data in a 12-bit-aligned field at this resolution. */
static uint16_t emu_ad799x_data_mask(const struct emu_ad799x_part *part)
{
	return (uint16_t)(0x0fff & ~((1u << (12 - part->bits)) - 1));
}

/* Configuration bits the part implements: channel enables for its inputs plus flags 3:0. */
static uint16_t emu_ad799x_config_mask(const struct emu_ad799x_part *part)
{
	return (uint16_t)((((1u << part->ninputs) - 1) << EMU_AD799X_CHAN_SHIFT) | 0x0f);
}

/* Limit registers that exist: four channels at most, and only the part's inputs. */
static int emu_ad799x_limit_chans(const struct emu_ad799x_part *part)
{
	return part->ninputs < EMU_AD799X_LIMIT_CHANS ? part->ninputs : EMU_AD799X_LIMIT_CHANS;
}

/*
 * Alert checks of a result against channel @ch's limits. A crossing sets
 * its status bit once; hysteresis re-arms it when the result comes back by
 * that much. The status bits stay set until the master clears them.
 */
static void emu_ad799x_check_limits(struct emu_ad799x *m, int ch, uint16_t data12)
{
	uint16_t low, high, hyst;

	if (m->part->kind == EMU_AD799X_NO_POINTER || ch >= emu_ad799x_limit_chans(m->part))
		return;
	low = m->limit[ch][EMU_AD799X_DATA_LOW];
	high = m->limit[ch][EMU_AD799X_DATA_HIGH];
	hyst = m->limit[ch][EMU_AD799X_HYSTERESIS];
	if (data12 > high) {
		if (m->armed_high[ch])
			m->alert |= (uint8_t)(1u << (2 * ch + 1));
		m->armed_high[ch] = false;
	} else if ((int)data12 <= (int)high - (int)hyst) {
		m->armed_high[ch] = true;
	}
	if (data12 < low) {
		if (m->armed_low[ch])
			m->alert |= (uint8_t)(1u << (2 * ch));
		m->armed_low[ch] = false;
	} else if ((int)data12 >= (int)low + (int)hyst) {
		m->armed_low[ch] = true;
	}
}

/* The reference of a conversion now, in mV. */
static double emu_ad799x_ref_mv(const struct emu_ad799x *m)
{
	if (m->part->kind == EMU_AD799X_NO_POINTER && !(m->config & EMU_AD7991_REF_SEL))
		return EMU_AD799X_DEFAULT_VDD_MV;
	return m->vref_mv > 0 ? m->vref_mv : EMU_AD799X_DEFAULT_VDD_MV;
}

/* Convert channel @ch at virtual time @t: the code left-aligned to bit 11, limits checked. */
static uint16_t emu_ad799x_data12(struct emu_ad799x *m, int ch, double t)
{
	int bits = m->part->bits;
	double v = emu_signal_sample(&m->in[ch], t);
	double code = floor(v * (double)(1L << bits) / emu_ad799x_ref_mv(m) + 1e-9);
	uint16_t data12;

	if (isnan(code) || code < 0)
		code = 0;
	if (code > (double)((1L << bits) - 1))
		code = (double)((1L << bits) - 1);
	data12 = (uint16_t)((unsigned int)code << (12 - bits));
	emu_ad799x_check_limits(m, ch, data12);
	return data12;
}

/* Convert channel @ch now and return the result word as the chip sends it. */
static uint16_t emu_ad799x_convert(struct emu_ad799x *m, int ch)
{
	uint16_t data12 = emu_ad799x_data12(m, ch, emu_chip_now(&m->chip)), word;

	word = (uint16_t)(data12 | (ch << EMU_AD799X_RESULT_CHID_SHIFT));
	if (m->part->kind != EMU_AD799X_NO_POINTER && m->alert)
		word |= EMU_AD799X_RESULT_ALERT;
	m->result = word;
	return word;
}

/*
 * The cycle timer's automatic conversions up to now: the configuration's
 * channels at each instant since the last, for their limit checks (the
 * result register is the commands'). The timer starts when first seen on.
 */
static void emu_ad799x_cycle(struct emu_ad799x *m)
{
	unsigned int chans = (m->config >> EMU_AD799X_CHAN_SHIFT) & ((1u << m->part->ninputs) - 1);
	double now = emu_chip_now(&m->chip), period;
	long n, i;
	int ch;

	if (m->part->kind == EMU_AD799X_NO_POINTER || !m->cycle) {
		m->cycle_on = false;
		return;
	}
	period = EMU_AD799X_CYCLE1_S * (double)(1u << (m->cycle - 1));
	if (!m->cycle_on || now < m->cycle_t) {
		m->cycle_on = true;
		m->cycle_t = now;
		return;
	}
	n = (long)floor((now - m->cycle_t) / period);
	if (n > EMU_AD799X_CYCLE_CATCHUP) {
		m->cycle_t += (double)(n - EMU_AD799X_CYCLE_CATCHUP) * period;
		n = EMU_AD799X_CYCLE_CATCHUP;
	}
	for (i = 1; i <= n; i++)
		for (ch = 0; ch < m->part->ninputs; ch++)
			if (chans & (1u << ch))
				emu_ad799x_data12(m, ch, m->cycle_t + (double)i * period);
	m->cycle_t += (double)n * period;
}

/* The next result word of the current command; channels cycle in ascending order. */
static uint16_t emu_ad799x_next_result(struct emu_ad799x *m)
{
	int i, ch;

	if (!m->conv_mask)
		return m->result;
	for (i = 0; i < EMU_AD799X_MAX_INPUTS; i++) {
		ch = (m->conv_next + i) % EMU_AD799X_MAX_INPUTS;
		if (m->conv_mask & (1u << ch)) {
			m->conv_next = (ch + 1) % EMU_AD799X_MAX_INPUTS;
			return emu_ad799x_convert(m, ch);
		}
	}
	return m->result;
}

/* Is register @reg 16 bits wide on this part? */
static bool emu_ad799x_reg_is_word(const struct emu_ad799x *m, uint8_t reg)
{
	switch (reg) {
	case EMU_AD799X_REG_RESULT:
		return true;
	case EMU_AD799X_REG_CONFIG:
		return m->part->kind == EMU_AD799X_POINTER16;
	case EMU_AD799X_REG_ALERT:
	case EMU_AD799X_REG_CYCLE:
		return false;
	default:
		return true;
	}
}

/* The limit register slot @reg names, or NULL if the part has none there. */
static uint16_t *emu_ad799x_limit_reg(struct emu_ad799x *m, uint8_t reg)
{
	int ch;

	if (reg < EMU_AD799X_REG_LIMIT0)
		return NULL;
	ch = (reg - EMU_AD799X_REG_LIMIT0) / 3;
	if (ch >= emu_ad799x_limit_chans(m->part))
		return NULL;
	return &m->limit[ch][(reg - EMU_AD799X_REG_LIMIT0) % 3];
}

/* The value of register @reg; a read of the result register converts (per command). */
static uint16_t emu_ad799x_reg_read(struct emu_ad799x *m, uint8_t reg)
{
	uint16_t *lim;

	switch (reg) {
	case EMU_AD799X_REG_RESULT:
		return emu_ad799x_next_result(m);
	case EMU_AD799X_REG_ALERT:
		return m->alert;
	case EMU_AD799X_REG_CONFIG:
		return m->config;
	case EMU_AD799X_REG_CYCLE:
		return m->cycle;
	default:
		lim = emu_ad799x_limit_reg(m, reg);
		return lim ? *lim : 0;	/* reserved addresses read 0 */
	}
}

static void emu_ad799x_reg_write(struct emu_ad799x *m, uint8_t reg, uint16_t val)
{
	uint16_t *lim;

	switch (reg) {
	case EMU_AD799X_REG_RESULT:
		break;	/* read-only */
	case EMU_AD799X_REG_ALERT:
		m->alert &= (uint8_t)~val;	/* a 1 clears that flag; 0xFF clears all */
		break;
	case EMU_AD799X_REG_CONFIG:
		m->config = val & emu_ad799x_config_mask(m->part);
		/* ALERT_EN with BUSY/ALERT: reset the pin and the status */
		if ((m->config & (EMU_AD799X_ALERT_EN | EMU_AD799X_BUSY_ALERT)) ==
		    (EMU_AD799X_ALERT_EN | EMU_AD799X_BUSY_ALERT))
			m->alert = 0;
		break;
	case EMU_AD799X_REG_CYCLE:
		m->cycle = val & EMU_AD799X_CYCLE_MASK;
		m->cycle_on = false;	/* the timer starts again from here */
		break;
	default:
		lim = emu_ad799x_limit_reg(m, reg);
		if (lim)	/* stored left-aligned; bits below the resolution don't exist */
			*lim = val & emu_ad799x_data_mask(m->part);
		break;
	}
}

/* The address pointer byte of a pointer part: set the pointer, start what the command asks. */
static void emu_ad799x_address(struct emu_ad799x *m, uint8_t b)
{
	unsigned int cmd = b >> EMU_AD799X_CHAN_SHIFT;

	m->pointer = b & 0x0f;
	m->conv_next = 0;
	if (m->part->kind == EMU_AD799X_POINTER8) {
		m->conv_mask = cmd & ((1u << m->part->ninputs) - 1);
	} else if (cmd & EMU_AD7998_CMD_SINGLE) {
		m->conv_mask = 1u << (cmd & 0x7);
	} else if (cmd == EMU_AD7998_CMD_SEQUENCE) {
		m->conv_mask = m->config >> EMU_AD799X_CHAN_SHIFT;
	} else {
		m->conv_mask = 0;
	}
}

static void emu_ad799x_write(struct emu_chip *chip, const uint8_t *buf, int len)
{
	struct emu_ad799x *m = emu_ad799x_from_chip(chip);

	if (len <= 0)
		return;
	emu_ad799x_cycle(m);
	if (m->part->kind == EMU_AD799X_NO_POINTER) {
		/* every byte is the configuration; its channel bits are the sequence */
		m->config = buf[len - 1];
		m->conv_mask = m->config >> EMU_AD799X_CHAN_SHIFT;
		if (!m->conv_mask)
			m->conv_mask = 1;	/* no channel selected: Vin0 */
		m->conv_next = 0;
		return;
	}
	emu_ad799x_address(m, buf[0]);
	if (len == 1)
		return;
	if (emu_ad799x_reg_is_word(m, m->pointer)) {
		if (len >= 3)	/* MSB first */
			emu_ad799x_reg_write(m, m->pointer, (uint16_t)(buf[1] << 8 | buf[2]));
	} else {
		emu_ad799x_reg_write(m, m->pointer, buf[1]);
	}
}

static void emu_ad799x_read(struct emu_chip *chip, uint8_t *buf, int len)
{
	struct emu_ad799x *m = emu_ad799x_from_chip(chip);
	uint16_t v;
	int i = 0;

	emu_ad799x_cycle(m);
	if (m->part->kind != EMU_AD799X_NO_POINTER &&
	    !emu_ad799x_reg_is_word(m, m->pointer)) {
		/* an 8-bit register: its byte, then zeros */
		for (i = 0; i < len; i++)
			buf[i] = i ? 0 : (uint8_t)emu_ad799x_reg_read(m, m->pointer);
		return;
	}
	while (i < len) {
		if (m->part->kind == EMU_AD799X_NO_POINTER)
			v = emu_ad799x_next_result(m);
		else
			v = emu_ad799x_reg_read(m, m->pointer);
		buf[i++] = (uint8_t)(v >> 8);
		if (i < len)
			buf[i++] = (uint8_t)v;
	}
}

/* ALERT: asserted while the alert output is on and a status bit is set (the ad7991/5/9 have none). */
static enum emu_irq_state emu_ad799x_irq_level(struct emu_chip *chip)
{
	struct emu_ad799x *m = emu_ad799x_from_chip(chip);

	if (m->part->kind == EMU_AD799X_NO_POINTER)
		return EMU_IRQ_DISABLED;
	emu_ad799x_cycle(m);
	if (!(m->config & EMU_AD799X_ALERT_EN))
		return EMU_IRQ_DISABLED;
	return m->alert ? EMU_IRQ_ASSERTED : EMU_IRQ_LOW;
}

static const struct emu_chip_ops emu_ad799x_ops = {
	.i2c_transfer = emu_chip_i2c_rw,
	.i2c_read = emu_ad799x_read,
	.i2c_write = emu_ad799x_write,
	.destroy = emu_chip_free,
	.irq_level = emu_ad799x_irq_level,
};

static void emu_ad799x_power_on(struct emu_ad799x *m)
{
	int ch;

	for (ch = 0; ch < EMU_AD799X_LIMIT_CHANS; ch++) {
		m->limit[ch][EMU_AD799X_DATA_LOW] = 0;
		m->limit[ch][EMU_AD799X_DATA_HIGH] = emu_ad799x_data_mask(m->part);
		m->limit[ch][EMU_AD799X_HYSTERESIS] = EMU_AD799X_HYST_POWER_ON;
		m->armed_low[ch] = true;
		m->armed_high[ch] = true;
	}
}

static int emu_ad799x_create(const struct emu_params *p, struct emu_chip **out,
			     char *err, size_t errlen)
{
	const struct emu_ad799x_part *part;
	struct emu_ad799x *m;
	int ret;

	ret = emu_params_part(p, EMU_AD799X_NPARTS, "an AD799x part", err, errlen);
	if (ret < 0)
		return ret;
	part = &emu_ad799x_parts[ret];
	m = emu_chip_alloc(sizeof(*m), &emu_ad799x_ops, part->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = m->in;
	m->chip.ninputs = EMU_AD799X_MAX_INPUTS;
	m->part = part;
	m->vref_mv = p->vref_mv;
	emu_ad799x_power_on(m);
	ret = emu_inputs_take_numbered(p, part->name, "voltage", m->in, part->ninputs, err, errlen);
	return emu_chip_done(&m->chip, ret, out);
}

static const struct emu_model emu_ad799x_model = {
	.name = "ad799x",
	.id_table = emu_ad799x_ids,
	.create = emu_ad799x_create,
};

EMU_MODEL_REGISTER(emu_ad799x_model);
