/*
 * emu_ads1015.c - register-level model of the TI ADS1015 (12 bits), ADS1115
 * (16 bits) and TLA2024 (12 bits, no comparator) I2C ADCs.
 *
 * Four registers behind a pointer byte, each 16 bits MSB first: conversion
 * (0x00, read-only, the result left-aligned: the 12-bit parts read 0 in bits
 * 3:0), config (0x01, power-on 0x8583), Lo_thresh (0x02, 0x8000) and
 * Hi_thresh (0x03, 0x7FFF); the TLA2024 has only the first two. A write of
 * [pointer] points, [pointer, MSB, LSB] writes; a read gives the pointed
 * register, again and again.
 *
 * Conversions take 1/DR on the bus's virtual clock (the data-rate tables of
 * the datasheets). In continuous mode (MODE 0) one follows another, each with
 * the configuration in force when it began, so a configuration written
 * mid-conversion shows in the result after next; in single-shot mode (MODE 1,
 * power-down) a write with OS set starts one, OS reads 0 until it is done.
 * The input is AINp - AINn as MUX selects (AINx - GND for codes 4-7) from
 * the inputs "AIN0".."AIN3" in mV; the code is floor(V / LSB), LSB = FSR /
 * 2^(bits-1), clipped to the signed range.
 *
 * The comparator (ADS1015/ADS1115) checks each result: in traditional mode
 * ALERT/RDY asserts after COMP_QUE+1 (1, 2, 4) results above Hi_thresh and,
 * unlatched, releases at one below Lo_thresh; in window mode above Hi or
 * below Lo asserts and a result inside releases. Latched (COMP_LAT), it holds
 * until the conversion register is read. COMP_QUE 11 switches it off (the
 * pin high-Z). The conversion-ready use of the pin (Hi_thresh MSB 1, Lo
 * MSB 0) is not modelled: it is compared as thresholds. Conversions between
 * transfers are caught up at each transfer and each look at the pin.
 * Place in the flow: *chip* -> bus. It must not call drivers, the core or
 * the server.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_ADS1015_INPUTS	4

#define EMU_ADS1015_REG_CONV	0x00
#define EMU_ADS1015_REG_CONFIG	0x01
#define EMU_ADS1015_REG_LO	0x02
#define EMU_ADS1015_REG_HI	0x03

#define EMU_ADS1015_CFG_OS	BIT(15)
#define EMU_ADS1015_CFG_MUX	GENMASK(14, 12)
#define EMU_ADS1015_CFG_PGA	GENMASK(11, 9)
#define EMU_ADS1015_CFG_MODE	BIT(8)
#define EMU_ADS1015_CFG_DR	GENMASK(7, 5)
#define EMU_ADS1015_CFG_COMP_MODE BIT(4)
#define EMU_ADS1015_CFG_COMP_LAT BIT(2)
#define EMU_ADS1015_CFG_COMP_QUE GENMASK(1, 0)
#define EMU_ADS1015_COMP_OFF	3

#define EMU_ADS1015_CONFIG_RESET	0x8583
#define EMU_ADS1015_LO_RESET		0x8000
#define EMU_ADS1015_HI_RESET		0x7fff
/* results caught up at once at most; older conversion instants are skipped */
#define EMU_ADS1015_CATCHUP		256

static const double emu_ads1015_fsr_mv[] = { 6144, 4096, 2048, 1024, 512, 256, 256, 256 };
static const double emu_ads1015_sps[] = { 128, 250, 490, 920, 1600, 2400, 3300, 3300 };
static const double emu_ads1115_sps[] = { 8, 16, 32, 64, 128, 250, 475, 860 };

struct emu_ads1015_part {
	int bits;
	const double *sps;
	bool comparator;
};

static const struct emu_ads1015_part emu_ads1015_parts[] = {
	{ 12, emu_ads1015_sps, true },	/* ads1015 */
	{ 16, emu_ads1115_sps, true },	/* ads1115 */
	{ 12, emu_ads1015_sps, false },	/* tla2024 */
};

static const struct iio_device_id emu_ads1015_ids[] = {
	{ "ads1015", 0 }, { "ads1115", 1 }, { "tla2024", 2 }, { NULL, 0 }
};

/**
 * struct emu_ads1015 - one chip.
 * @converting/@conv_end/@conv_cfg: a conversion is under way, when it ends
 *	(virtual seconds) and the configuration it began with.
 * @count: consecutive results past the comparator's limit.
 * @alert: the ALERT/RDY pin asserted.
 */
struct emu_ads1015 {
	struct emu_chip chip;		/* first: the bus hands us this */
	const struct emu_ads1015_part *part;
	uint8_t ptr;
	uint16_t config, conv, lo, hi;
	bool converting;
	double conv_end;
	uint16_t conv_cfg;
	int count;
	bool alert;
	struct emu_signal in[EMU_ADS1015_INPUTS];
};

static struct emu_ads1015 *emu_ads1015_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_ads1015, chip);
}

static double emu_ads1015_period(const struct emu_ads1015 *m, uint16_t cfg)
{
	return 1.0 / m->part->sps[FIELD_GET(EMU_ADS1015_CFG_DR, cfg)];
}

/* AINp - AINn of MUX code @mux at @t, mV. */
static double emu_ads1015_input(const struct emu_ads1015 *m, unsigned int mux, double t)
{
	static const int pos[8] = { 0, 0, 1, 2, 0, 1, 2, 3 };
	static const int neg[4] = { 1, 3, 3, 3 };
	double v = emu_signal_sample(&m->in[pos[mux]], t);

	return mux < 4 ? v - emu_signal_sample(&m->in[neg[mux]], t) : v;
}

/* The conversion register's value for configuration @cfg at @t: left-aligned two's complement. */
static uint16_t emu_ads1015_code(const struct emu_ads1015 *m, uint16_t cfg, double t)
{
	int bits = m->part->bits;
	double half = (double)(1L << (bits - 1));
	double lsb = emu_ads1015_fsr_mv[FIELD_GET(EMU_ADS1015_CFG_PGA, cfg)] / half;
	double code = floor(emu_ads1015_input(m, FIELD_GET(EMU_ADS1015_CFG_MUX, cfg), t) / lsb +
			    1e-9);

	if (isnan(code))
		code = 0;
	if (code > half - 1)
		code = half - 1;
	if (code < -half)
		code = -half;
	return (uint16_t)((uint32_t)(int32_t)code << (16 - bits));
}

/* A threshold as the comparator sees it: the 12-bit parts ignore bits 3:0. */
static int emu_ads1015_limit(const struct emu_ads1015 *m, uint16_t reg)
{
	return (int16_t)(reg & (uint16_t)~((1u << (16 - m->part->bits)) - 1));
}

/* The comparator's look at a new result. */
static void emu_ads1015_compare(struct emu_ads1015 *m)
{
	int v = (int16_t)m->conv;
	int hi = emu_ads1015_limit(m, m->hi), lo = emu_ads1015_limit(m, m->lo);
	unsigned int que = FIELD_GET(EMU_ADS1015_CFG_COMP_QUE, m->config);
	bool window = m->config & EMU_ADS1015_CFG_COMP_MODE, past, back;

	if (!m->part->comparator || que == EMU_ADS1015_COMP_OFF) {
		m->count = 0;
		m->alert = false;
		return;
	}
	past = v > hi || (window && v < lo);
	back = window ? !past : v < lo;
	m->count = past ? m->count + 1 : 0;
	if (past && m->count >= 1 << que)
		m->alert = true;
	else if (back && !(m->config & EMU_ADS1015_CFG_COMP_LAT))
		m->alert = false;
}

/* Conversions that have ended by now: results, the comparator, the next one in continuous mode. */
static void emu_ads1015_catch_up(struct emu_ads1015 *m)
{
	double now = emu_chip_now(&m->chip), period;
	long n;

	while (m->converting && m->conv_end <= now) {
		period = emu_ads1015_period(m, m->conv_cfg);
		n = (long)floor((now - m->conv_end) / period);
		if (n > EMU_ADS1015_CATCHUP && !(m->config & EMU_ADS1015_CFG_MODE) &&
		    m->conv_cfg == m->config)
			m->conv_end += (double)(n - EMU_ADS1015_CATCHUP) * period;
		m->conv = emu_ads1015_code(m, m->conv_cfg, m->conv_end);
		emu_ads1015_compare(m);
		if (m->config & EMU_ADS1015_CFG_MODE) {
			m->converting = false;
			break;
		}
		m->conv_cfg = m->config;
		m->conv_end += emu_ads1015_period(m, m->config);
	}
}

static void emu_ads1015_start(struct emu_ads1015 *m)
{
	m->converting = true;
	m->conv_cfg = m->config;
	m->conv_end = emu_chip_now(&m->chip) + emu_ads1015_period(m, m->config);
}

static void emu_ads1015_write_config(struct emu_ads1015 *m, uint16_t val)
{
	/* OS is a command, not a setting */
	m->config = val & (uint16_t)~EMU_ADS1015_CFG_OS;
	if (!m->part->comparator)	/* the TLA2024's bits 4:0 are reserved, 0x03 */
		m->config = (m->config & (uint16_t)~GENMASK(4, 0)) | EMU_ADS1015_COMP_OFF;
	if (FIELD_GET(EMU_ADS1015_CFG_COMP_QUE, m->config) == EMU_ADS1015_COMP_OFF) {
		m->alert = false;
		m->count = 0;
	}
	if (m->converting)
		return;	/* the settings take effect with the next conversion */
	if (!(m->config & EMU_ADS1015_CFG_MODE) || (val & EMU_ADS1015_CFG_OS))
		emu_ads1015_start(m);
}

static uint16_t *emu_ads1015_reg(struct emu_ads1015 *m, uint8_t reg)
{
	if (reg == EMU_ADS1015_REG_LO && m->part->comparator)
		return &m->lo;
	if (reg == EMU_ADS1015_REG_HI && m->part->comparator)
		return &m->hi;
	return NULL;
}

static void emu_ads1015_write(struct emu_chip *chip, const uint8_t *buf, int len)
{
	struct emu_ads1015 *m = emu_ads1015_from_chip(chip);
	uint16_t val, *reg;

	if (len <= 0)
		return;
	emu_ads1015_catch_up(m);
	m->ptr = buf[0] & 0x03;
	if (len < 3)
		return;
	val = (uint16_t)(buf[1] << 8 | buf[2]);
	if (m->ptr == EMU_ADS1015_REG_CONFIG) {
		emu_ads1015_write_config(m, val);
		return;
	}
	reg = emu_ads1015_reg(m, m->ptr);
	if (reg)
		*reg = val;
}

static uint16_t emu_ads1015_reg_read(struct emu_ads1015 *m)
{
	uint16_t *reg;

	switch (m->ptr) {
	case EMU_ADS1015_REG_CONV:
		/* a read of the result releases a latched ALERT/RDY */
		if (m->config & EMU_ADS1015_CFG_COMP_LAT)
			m->alert = false;
		return m->conv;
	case EMU_ADS1015_REG_CONFIG:
		return m->converting ? m->config : m->config | EMU_ADS1015_CFG_OS;
	default:
		reg = emu_ads1015_reg(m, m->ptr);
		return reg ? *reg : 0;	/* the TLA2024 has nothing there */
	}
}

static void emu_ads1015_read(struct emu_chip *chip, uint8_t *buf, int len)
{
	struct emu_ads1015 *m = emu_ads1015_from_chip(chip);
	uint16_t v;
	int i;

	emu_ads1015_catch_up(m);
	v = emu_ads1015_reg_read(m);
	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(i % 2 ? v : v >> 8);
}

static enum emu_irq_state emu_ads1015_irq_level(struct emu_chip *chip)
{
	struct emu_ads1015 *m = emu_ads1015_from_chip(chip);

	emu_ads1015_catch_up(m);
	if (!m->part->comparator ||
	    FIELD_GET(EMU_ADS1015_CFG_COMP_QUE, m->config) == EMU_ADS1015_COMP_OFF)
		return EMU_IRQ_DISABLED;
	return m->alert ? EMU_IRQ_ASSERTED : EMU_IRQ_LOW;
}

static const struct emu_chip_ops emu_ads1015_ops = {
	.i2c_transfer = emu_chip_i2c_rw,
	.i2c_read = emu_ads1015_read,
	.i2c_write = emu_ads1015_write,
	.destroy = emu_chip_free,
	.irq_level = emu_ads1015_irq_level,
};

static int emu_ads1015_create(const struct emu_params *p, struct emu_chip **out, char *err,
			      size_t errlen)
{
	struct emu_ads1015 *m;
	int part, ret;

	part = emu_params_part(p, ARRAY_SIZE(emu_ads1015_parts), "an ADS1015 part", err, errlen);
	if (part < 0)
		return part;
	/* zeroed: every input a constant 0 mV, the conversion register 0 */
	m = emu_chip_alloc(sizeof(*m), &emu_ads1015_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = m->in;
	m->chip.ninputs = EMU_ADS1015_INPUTS;
	m->part = &emu_ads1015_parts[part];
	/* power-on: single-shot (powered down), nothing converting */
	m->config = EMU_ADS1015_CONFIG_RESET & (uint16_t)~EMU_ADS1015_CFG_OS;
	m->lo = EMU_ADS1015_LO_RESET;
	m->hi = EMU_ADS1015_HI_RESET;
	ret = emu_inputs_take_numbered(p, m->chip.name, "AIN", m->in, EMU_ADS1015_INPUTS, err,
				       errlen);
	return emu_chip_done(&m->chip, ret, out);
}

static const struct emu_model emu_ads1015_model = {
	.name = "ads1015",
	.id_table = emu_ads1015_ids,
	.create = emu_ads1015_create,
};

EMU_MODEL_REGISTER(emu_ads1015_model);
