/*
 * emu_bh1750.c - model of the ROHM BH1710/BH1715/BH1721/BH1750/BH1751 light
 * sensors: no registers, one-byte opcodes in, the 16-bit result out as two
 * bare bytes (MSB first), as the datasheets' command tables give them.
 *
 * Opcodes: 0x00 power down, 0x01 power on, 0x07 reset (clears the result;
 * only while powered), 0x10/0x11 continuous H-/H2-resolution, 0x20/0x21
 * one-time H-/H2-resolution (the chip powers down after the one result; on
 * the BH1721 0x20 measures continuously, as the kernel driver's comment
 * says), 0x40 | MT[high] and 0x60 | MT[4:0] the two halves of MTreg (high
 * bits 7:5 on the 8-bit parts, 9:5 on the 10-bit BH1710/BH1721). The
 * L-resolution opcodes (0x13, 0x23) are accepted and ignored: not modelled.
 * A measurement takes MTreg x 1.74 ms (BH1750 class: 120 ms at the default
 * 69) or MTreg x 0.4 ms (BH1710 class: 120 ms at 300), the datasheets'
 * typical time; until it ends a read returns the previous result (0 after
 * power-up). Counts: lux x MTreg / 57.5 (BH1750 class: lux x 1.2 at 69) or
 * lux x MTreg / 250 (BH1710 class), doubled in H2 mode, truncated, clipped
 * at 65535. The BH1721's low-half opcode carries MT[4] only, its MT[3:0]
 * keeping their power-on 1100 (of 300), as the kernel's mask for it implies
 * [hedge: datasheet]; so the kernel's default 300 is what the chip holds.
 * Input "illuminance", in lux. Place in the flow: *chip* -> bus -> driver.
 * Must not: call drivers or the core, sleep, or keep global state.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_BH1750_OP_POWER_DOWN	0x00
#define EMU_BH1750_OP_POWER_ON		0x01
#define EMU_BH1750_OP_RESET		0x07
#define EMU_BH1750_OP_CONT_H		0x10
#define EMU_BH1750_OP_CONT_H2		0x11
#define EMU_BH1750_OP_ONCE_H		0x20
#define EMU_BH1750_OP_ONCE_H2		0x21
#define EMU_BH1750_OP_MT_MASK		0xe0
#define EMU_BH1750_OP_MT_HIGH		0x40
#define EMU_BH1750_OP_MT_LOW		0x60
#define EMU_BH1750_MT_LOW_BITS		0x1f

/**
 * struct emu_bh1750_part - what the parts differ in.
 * @mt_high_mask: the MTreg bits the high-half opcode carries, in the opcode.
 * @mt_low_mask: the MTreg bits the low-half opcode carries.
 * @step_s: measurement time per MTreg step.
 * @lux_mt_per_count: lux x MTreg for one count in H mode.
 * @once_is_continuous: 0x20 measures continuously (BH1721).
 */
struct emu_bh1750_part {
	uint16_t mt_default;
	uint8_t mt_high_mask;
	uint8_t mt_low_mask;
	double step_s;
	double lux_mt_per_count;
	bool once_is_continuous;
};

enum { EMU_BH1710, EMU_BH1721, EMU_BH1750 };

static const struct emu_bh1750_part emu_bh1750_parts[] = {
	[EMU_BH1710] = { 300, 0x1f, 0x1f, 0.0004, 250.0, false },
	[EMU_BH1721] = { 300, 0x1f, 0x10, 0.0004, 250.0, true },
	[EMU_BH1750] = { 69, 0x07, 0x1f, 0.00174, 57.5, false },
};

static const struct iio_device_id emu_bh1750_ids[] = {
	{ "bh1710", EMU_BH1710 },
	{ "bh1715", EMU_BH1750 },
	{ "bh1721", EMU_BH1721 },
	{ "bh1750", EMU_BH1750 },
	{ "bh1751", EMU_BH1750 },
	{ NULL, 0 }
};

/*
 * struct emu_bh1750 - one chip; the bus serialises transfers, so no lock.
 * @measuring: a measurement is under way, ending at @end_s.
 * @continuous: another starts when one ends.
 * @h2: H2 resolution (two counts per H count).
 */
struct emu_bh1750 {
	struct emu_chip chip;
	const struct emu_bh1750_part *part;
	struct emu_signal lux;
	bool powered;
	bool measuring;
	bool continuous;
	bool h2;
	uint16_t mtreg;
	double end_s;
	uint16_t result;
};

static struct emu_bh1750 *emu_bh1750_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_bh1750, chip);
}

static double emu_bh1750_period(const struct emu_bh1750 *m)
{
	return m->mtreg * m->part->step_s;
}

/* The counts for the light at @t_s with the current MTreg and resolution. */
static uint16_t emu_bh1750_counts(const struct emu_bh1750 *m, double t_s)
{
	double counts = emu_signal_sample(&m->lux, t_s) * m->mtreg / m->part->lux_mt_per_count;

	if (m->h2)
		counts *= 2.0;
	/* the epsilon absorbs binary fractions of exact products */
	counts = floor(counts + 1e-7);
	if (!(counts > 0.0))
		return 0;
	return counts >= 65535.0 ? 65535 : (uint16_t)counts;
}

/* Latch every measurement that has ended by @now; one-time mode then powers down. */
static void emu_bh1750_update(struct emu_bh1750 *m, double now)
{
	double period = emu_bh1750_period(m), n;

	if (!m->measuring || now < m->end_s)
		return;
	if (!m->continuous) {
		m->result = emu_bh1750_counts(m, m->end_s);
		m->measuring = false;
		m->powered = false;
		return;
	}
	/* the last period that ended is the one the register holds */
	n = period > 0.0 ? floor((now - m->end_s) / period + 1e-9) : 0.0;
	m->end_s += n * period;
	m->result = emu_bh1750_counts(m, m->end_s);
	m->end_s += period;
}

static void emu_bh1750_start(struct emu_bh1750 *m, bool continuous, bool h2, double now)
{
	m->powered = true;
	m->measuring = true;
	m->continuous = continuous;
	m->h2 = h2;
	m->end_s = now + emu_bh1750_period(m);
}

static void emu_bh1750_opcode(struct emu_bh1750 *m, uint8_t op, double now)
{
	const struct emu_bh1750_part *part = m->part;

	switch (op & EMU_BH1750_OP_MT_MASK) {
	case EMU_BH1750_OP_MT_HIGH:
		m->mtreg = (uint16_t)((m->mtreg & EMU_BH1750_MT_LOW_BITS) |
				      ((op & part->mt_high_mask) << 5));
		return;
	case EMU_BH1750_OP_MT_LOW:
		m->mtreg = (uint16_t)((m->mtreg & ~part->mt_low_mask) | (op & part->mt_low_mask));
		return;
	default:
		break;
	}
	switch (op) {
	case EMU_BH1750_OP_POWER_DOWN:
		m->powered = false;
		m->measuring = false;
		break;
	case EMU_BH1750_OP_POWER_ON:
		m->powered = true;
		break;
	case EMU_BH1750_OP_RESET:
		if (m->powered)
			m->result = 0;
		break;
	case EMU_BH1750_OP_CONT_H:
	case EMU_BH1750_OP_CONT_H2:
		emu_bh1750_start(m, true, op == EMU_BH1750_OP_CONT_H2, now);
		break;
	case EMU_BH1750_OP_ONCE_H:
	case EMU_BH1750_OP_ONCE_H2:
		emu_bh1750_start(m, part->once_is_continuous, op == EMU_BH1750_OP_ONCE_H2, now);
		break;
	default:
		break;	/* L resolution and undefined opcodes: not modelled */
	}
}

/*
 * One transaction: every written byte is an opcode; a read gets the result
 * MSB first and then 0xff (the bus floats once the chip has sent its two).
 */
static int emu_bh1750_i2c_transfer(struct emu_chip *chip, struct bus_i2c_msg *msgs, int n)
{
	struct emu_bh1750 *m = emu_bh1750_from_chip(chip);
	double now = emu_chip_now(chip);
	int i, j;

	for (i = 0; i < n; i++) {
		emu_bh1750_update(m, now);
		for (j = 0; j < msgs[i].len; j++) {
			if (!(msgs[i].flags & BUS_I2C_M_RD))
				emu_bh1750_opcode(m, msgs[i].buf[j], now);
			else if (j < 2)
				msgs[i].buf[j] = (uint8_t)(j == 0 ? m->result >> 8 : m->result);
			else
				msgs[i].buf[j] = 0xff;
		}
	}
	return n;
}

static const struct emu_chip_ops emu_bh1750_ops = {
	.i2c_transfer = emu_bh1750_i2c_transfer,
	.destroy = emu_chip_free,
};

/* emu_bh1750_create() - powered down, MTreg at the part's default, result 0. */
static int emu_bh1750_create(const struct emu_params *p, struct emu_chip **out, char *err,
			     size_t errlen)
{
	struct emu_bh1750 *m;
	int part, ret;

	part = emu_params_part(p, ARRAY_SIZE(emu_bh1750_parts), "a BH17xx part", err, errlen);
	if (part < 0)
		return part;
	m = emu_chip_alloc(sizeof(*m), &emu_bh1750_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = &m->lux;
	m->chip.ninputs = 1;
	m->part = &emu_bh1750_parts[part];
	m->mtreg = m->part->mt_default;
	ret = emu_inputs_take_one(p, p->id->name, "illuminance", "in lux", &m->lux, err, errlen);
	return emu_chip_done(&m->chip, ret, out);
}

static const struct emu_model emu_bh1750_model = {
	.name = "bh1750",
	.id_table = emu_bh1750_ids,
	.create = emu_bh1750_create,
};
EMU_MODEL_REGISTER(emu_bh1750_model);
