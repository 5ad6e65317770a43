/*
 * emu_mcp320x.c - bit-level model of the Microchip SPI ADCs the mcp320x
 * driver serves: MCP3001/3201 (10/12 bits, one pseudo-differential input,
 * DS21293, DS21290), MCP3002/3202 (two inputs, DS21294, DS21034),
 * MCP3004/3008/3204/3208 (four or eight, DS21295, DS21298), MCP3301
 * (13-bit signed, DS21700) and MCP3550-50/-60, MCP3551, MCP3553 (22-bit
 * delta-sigma, DS21950).
 *
 * The chips have no registers: a frame under chip select is clocked bit by
 * bit, MOSI taken and MISO given on each clock (SPI mode 0,0; MISO reads 0
 * where the chip leaves it high-impedance). The successive approximation
 * parts sample at the frame's time.
 *  - MCP3x01, MCP3301: no MOSI; two clocks of sampling, a null bit, the
 *    result MSB first (the MCP3301: sign, then 12 bits), then the MCP3x01
 *    repeat it LSB first (B1 on), then zeros.
 *  - MCP3x02: leading zeros, a start bit, SGL/DIFF, ODD/SIGN, MSBF; the null
 *    bit on the next clock, the result MSB first, then (MSBF 0) LSB first.
 *  - MCP3x04/08: a start bit, SGL/DIFF, D2 D1 D0, one more sampling clock,
 *    then as the MCP3x02 with MSBF 0. Differential pair d: IN+ = CHd,
 *    IN- = CH(d xor 1).
 * Codes: 2^bits x (IN+ - IN-) / vref rounded down, 0 below 0, clipped at
 * full scale; the MCP3301 4096 x (IN+ - IN-) / vref, -4096..4095.
 *  - MCP355x: a chip select fall with no result pending starts a
 *    conversion (the datasheet's time plus 144 oscillator periods to leave
 *    shutdown); while it runs every bit reads 1 (SDO high: not ready); once
 *    done, a frame gives Data Ready (0), OVL, OVH and 22 bits of
 *    2^21 x (IN+ - IN-) / vref, up to 12 % past +/-vref (held there), in
 *    the 23-bit form of the datasheet's overrange; 25 clocks read it out.
 * Inputs (mV): "CH0".."CHn" on the multi-input parts, "IN+"/"IN-" on the
 * others, also "voltage0".. as the kernel numbers them. Reference: the
 * board's vref_mv, else EMU_MCP320X_DEFAULT_VREF_MV.
 * Place in the flow: *chip* -> bus -> driver. Must not call drivers or the
 * core, sleep, or keep global state.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "emu/emu.h"
#include "iio_kit.h"

/* a Raspberry Pi hat's 3.3 V, when the board gives no vref_mv */
#define EMU_MCP320X_DEFAULT_VREF_MV	3300
#define EMU_MCP320X_MAX_IN		8

enum emu_mcp320x_kind {
	EMU_MCP320X_ONE,	/* MCP3001, MCP3201: unsigned, LSB-first tail */
	EMU_MCP320X_SIGNED,	/* MCP3301 */
	EMU_MCP320X_TWO,	/* MCP3002, MCP3202: SGL, ODD, MSBF */
	EMU_MCP320X_MUX,	/* MCP3004/08, MCP3204/08: SGL, D2-D0, a sampling clock */
	EMU_MCP320X_DS,		/* MCP355x */
};

struct emu_mcp320x_part {
	enum emu_mcp320x_kind kind;
	int bits;
	int nin;
	double conv_s;		/* MCP355x: conversion plus wake-up */
};

/* wake-up: 144 periods of the internal oscillator (102.4, 122.88, 112.64 kHz) */
static const struct emu_mcp320x_part emu_mcp320x_parts[] = {
	{ EMU_MCP320X_ONE, 10, 2, 0 }, { EMU_MCP320X_TWO, 10, 2, 0 },
	{ EMU_MCP320X_MUX, 10, 4, 0 }, { EMU_MCP320X_MUX, 10, 8, 0 },
	{ EMU_MCP320X_ONE, 12, 2, 0 }, { EMU_MCP320X_TWO, 12, 2, 0 },
	{ EMU_MCP320X_MUX, 12, 4, 0 }, { EMU_MCP320X_MUX, 12, 8, 0 },
	{ EMU_MCP320X_SIGNED, 13, 2, 0 },
	{ EMU_MCP320X_DS, 22, 2, 0.080 + 144 / 102400.0 },
	{ EMU_MCP320X_DS, 22, 2, 0.06667 + 144 / 122880.0 },
	{ EMU_MCP320X_DS, 22, 2, 0.0731 + 144 / 112640.0 },
	{ EMU_MCP320X_DS, 22, 2, 0.01667 + 144 / 122880.0 },
};

enum emu_mcp320x_ds_state { EMU_MCP320X_IDLE, EMU_MCP320X_CONVERTING };

/*
 * One frame (a chip select assertion): @clk clocks so far; @start the
 * clock of the start bit (0: none yet); @cfg the command bits after it;
 * @out_at the clock of the null bit (0: not yet known); @word the result
 * as it is clocked out, @nbits long, @tail: repeated LSB first after it.
 */
struct emu_mcp320x_frame {
	int clk, start, ncfg, out_at, nbits;
	unsigned int cfg;
	uint32_t word;
	bool tail;
};

struct emu_mcp320x {
	struct emu_chip chip;
	const struct emu_mcp320x_part *part;
	double vref_mv;
	enum emu_mcp320x_ds_state ds;
	double t_start;
	bool pending;			/* MCP355x: a result not read out yet */
	uint32_t ds_word;		/* its 25 bits, Data Ready first */
	struct emu_signal in[EMU_MCP320X_MAX_IN];
};

static struct emu_mcp320x *emu_mcp320x_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_mcp320x, chip);
}

/* IN+ - IN- in units of vref / 2^@bits, rounded down; NaN reads as 0. */
static double emu_mcp320x_code(const struct emu_mcp320x *m, int pos, int neg, int bits, double t)
{
	double v = emu_signal_sample(&m->in[pos], t);
	double code;

	if (neg >= 0)
		v -= emu_signal_sample(&m->in[neg], t);
	code = floor(v * (double)(1L << bits) / m->vref_mv + 1e-9);
	return isnan(code) ? 0 : code;
}

static double emu_mcp320x_clip(double code, double lo, double hi)
{
	return code < lo ? lo : code > hi ? hi : code;
}

/* The successive approximation result of IN+ @pos against @neg (-1: ground). */
static void emu_mcp320x_sar(struct emu_mcp320x *m, struct emu_mcp320x_frame *f, int pos, int neg)
{
	int bits = m->part->bits;
	double t = emu_chip_now(&m->chip), code;

	if (m->part->kind == EMU_MCP320X_SIGNED) {
		code = emu_mcp320x_clip(emu_mcp320x_code(m, pos, neg, 12, t), -4096, 4095);
		f->word = (uint32_t)(int32_t)code & 0x1fff;
	} else {
		code = emu_mcp320x_code(m, pos, neg, bits, t);
		f->word = (uint32_t)emu_mcp320x_clip(code, 0, (double)((1L << bits) - 1));
	}
	f->nbits = bits;
	f->tail = m->part->kind != EMU_MCP320X_SIGNED;
}

/* MISO on clock @f->clk (1-based) of a successive approximation frame. */
static int emu_mcp320x_sar_out(const struct emu_mcp320x_frame *f)
{
	int i = f->clk - f->out_at;	/* 0: the null bit */

	if (!f->out_at || i <= 0)
		return 0;
	if (i <= f->nbits)
		return (int)(f->word >> (f->nbits - i)) & 1;
	i -= f->nbits;			/* LSB first from B1 */
	if (f->tail && i < f->nbits)
		return (int)(f->word >> i) & 1;
	return 0;
}

/* A multi-input part's command bits are in: select the input and sample. */
static void emu_mcp320x_command(struct emu_mcp320x *m, struct emu_mcp320x_frame *f)
{
	bool two = m->part->kind == EMU_MCP320X_TWO;
	int n = two ? 3 : 4;
	bool single = f->cfg >> (n - 1) & 1;
	int d = two ? (int)(f->cfg >> 1 & 1) : (int)(f->cfg & 7) & (m->part->nin - 1);

	emu_mcp320x_sar(m, f, d, single ? -1 : d ^ 1);
	/* MSBF set (MCP3x02) ends the frame's data after the MSB-first word */
	if (two && (f->cfg & 1))
		f->tail = false;
	/* the null bit follows MSBF; on the MCP3x04/08 one sampling clock first */
	f->out_at = f->clk + (two ? 1 : 2);
}

/* Take MOSI of clock @f->clk on a multi-input part. */
static void emu_mcp320x_take(struct emu_mcp320x *m, struct emu_mcp320x_frame *f, int mosi)
{
	int n = m->part->kind == EMU_MCP320X_TWO ? 3 : 4;

	if (!f->start) {
		if (mosi)
			f->start = f->clk;
		return;
	}
	if (f->ncfg >= n)
		return;
	f->cfg = f->cfg << 1 | (unsigned int)mosi;
	if (++f->ncfg == n)
		emu_mcp320x_command(m, f);
}

/* The MCP355x's state at a chip select fall: a finished conversion, or a new one. */
static void emu_mcp320x_ds_select(struct emu_mcp320x *m)
{
	double now = emu_chip_now(&m->chip), full = (double)(1L << 21);
	double over = floor(full * 0.12), done = m->t_start + m->part->conv_s, code;
	uint32_t bits24;

	if (m->ds == EMU_MCP320X_CONVERTING && now >= done - 1e-9) {
		code = emu_mcp320x_clip(emu_mcp320x_code(m, 0, 1, 21, done), -full - over,
					full + over - 1);
		bits24 = (uint32_t)(int32_t)code & 0x3fffff;
		if (code >= full)
			bits24 |= BIT(22);	/* OVH */
		if (code < -full)
			bits24 |= BIT(23);	/* OVL */
		m->ds_word = bits24;		/* Data Ready (bit 24) low */
		m->pending = true;
		m->ds = EMU_MCP320X_IDLE;
	} else if (m->ds == EMU_MCP320X_IDLE && !m->pending) {
		m->ds = EMU_MCP320X_CONVERTING;
		m->t_start = now;
	}
}

static int emu_mcp320x_ds_out(struct emu_mcp320x *m, const struct emu_mcp320x_frame *f)
{
	if (m->ds == EMU_MCP320X_CONVERTING || !m->pending || f->clk > 25)
		return 1;
	if (f->clk == 25)
		m->pending = false;	/* the last bit read: the result is gone */
	return (int)(m->ds_word >> (25 - f->clk)) & 1;
}

/* One clock: MISO out, MOSI in. */
static int emu_mcp320x_clock(struct emu_mcp320x *m, struct emu_mcp320x_frame *f, int mosi)
{
	int miso;

	f->clk++;
	switch (m->part->kind) {
	case EMU_MCP320X_DS:
		return emu_mcp320x_ds_out(m, f);
	case EMU_MCP320X_ONE:
	case EMU_MCP320X_SIGNED:
		return emu_mcp320x_sar_out(f);
	default:
		miso = emu_mcp320x_sar_out(f);
		emu_mcp320x_take(m, f, mosi);
		return miso;
	}
}

static int emu_mcp320x_spi(struct emu_chip *chip, const struct bus_spi_transfer *xfers, int n)
{
	struct emu_mcp320x *m = emu_mcp320x_from_chip(chip);
	struct emu_mcp320x_frame f = { 0 };
	uint32_t i;
	int x, b, mosi, miso;

	if (m->part->kind == EMU_MCP320X_DS)
		emu_mcp320x_ds_select(m);
	else if (m->part->kind != EMU_MCP320X_TWO && m->part->kind != EMU_MCP320X_MUX) {
		/* sampling starts at the chip select fall; the null bit is clock 3 */
		emu_mcp320x_sar(m, &f, 0, 1);
		f.out_at = 3;
	}
	for (x = 0; x < n; x++) {
		for (i = 0; i < xfers[x].len; i++) {
			uint8_t in = xfers[x].tx_buf ? xfers[x].tx_buf[i] : 0, out = 0;

			for (b = 7; b >= 0; b--) {
				mosi = in >> b & 1;
				miso = emu_mcp320x_clock(m, &f, mosi);
				out = (uint8_t)(out | miso << b);
			}
			if (xfers[x].rx_buf)
				xfers[x].rx_buf[i] = out;
		}
	}
	return 0;
}

static const struct emu_chip_ops emu_mcp320x_ops = {
	.spi_transfer = emu_mcp320x_spi,
	.destroy = emu_chip_free,
};

/* "CH0".."CHn" or "IN+"/"IN-", and "voltage0".. for each input. */
static int emu_mcp320x_inputs(struct emu_mcp320x *m, const struct emu_params *p, char *err,
			      size_t errlen)
{
	char keys[2 * EMU_MCP320X_MAX_IN][20];	/* "voltage" and any int */
	struct emu_input_slot slots[2 * EMU_MCP320X_MAX_IN];
	bool multi = m->part->kind == EMU_MCP320X_TWO || m->part->kind == EMU_MCP320X_MUX;
	int nin = m->part->nin, i, ret;
	const char *bad = "";

	for (i = 0; i < nin; i++) {
		if (multi)
			snprintf(keys[2 * i], sizeof(keys[0]), "CH%d", i);
		else
			snprintf(keys[2 * i], sizeof(keys[0]), "%s", i ? "IN-" : "IN+");
		snprintf(keys[2 * i + 1], sizeof(keys[0]), "voltage%d", i);
		slots[2 * i] = (struct emu_input_slot){ keys[2 * i], &m->in[i], NULL };
		slots[2 * i + 1] = (struct emu_input_slot){ keys[2 * i + 1], &m->in[i], NULL };
	}
	ret = emu_inputs_take(p, slots, 2 * nin, &bad);
	if (ret == -EINVAL)
		snprintf(err, errlen, "%s: no input '%s' (inputs: %s or voltage0..voltage%d, mV)",
			 p->id->name, bad, multi ? (nin == 2 ? "CH0..CH1" : nin == 4 ?
			 "CH0..CH3" : "CH0..CH7") : "IN+, IN-", nin - 1);
	else if (ret)
		snprintf(err, errlen, "%s: out of memory for input %s", p->id->name, bad);
	return ret;
}

static int emu_mcp320x_create(const struct emu_params *p, struct emu_chip **out, char *err,
			      size_t errlen)
{
	struct emu_mcp320x *m;
	int part, ret;

	part = emu_params_part(p, ARRAY_SIZE(emu_mcp320x_parts), "an MCP320x part", err, errlen);
	if (part < 0)
		return part;
	m = emu_chip_alloc(sizeof(*m), &emu_mcp320x_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = m->in;
	m->chip.ninputs = EMU_MCP320X_MAX_IN;
	m->part = &emu_mcp320x_parts[part];
	m->vref_mv = p->vref_mv > 0 ? p->vref_mv : EMU_MCP320X_DEFAULT_VREF_MV;
	ret = emu_mcp320x_inputs(m, p, err, errlen);
	return emu_chip_done(&m->chip, ret, out);
}

static const struct iio_device_id emu_mcp320x_ids[] = {
	{ "mcp3001", 0 }, { "mcp3002", 1 }, { "mcp3004", 2 }, { "mcp3008", 3 },
	{ "mcp3201", 4 }, { "mcp3202", 5 }, { "mcp3204", 6 }, { "mcp3208", 7 },
	{ "mcp3301", 8 }, { "mcp3550-50", 9 }, { "mcp3550-60", 10 }, { "mcp3551", 11 },
	{ "mcp3553", 12 }, { NULL, 0 }
};

static const struct emu_model emu_mcp320x_model = {
	.name = "mcp320x",
	.id_table = emu_mcp320x_ids,
	.create = emu_mcp320x_create,
};
EMU_MODEL_REGISTER(emu_mcp320x_model);
