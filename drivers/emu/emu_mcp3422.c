/*
 * emu_mcp3422.c - register-level model of the Microchip MCP3421-MCP3428
 * delta-sigma I2C ADCs (datasheets DS22088 for the MCP3421-3424, DS22072
 * for the MCP3425, DS22226 for the MCP3426-3428).
 *
 * The chip's one register is the configuration byte: RDY (bit 7), C1-C0
 * the channel (6:5), O/C continuous (4), S1-S0 the rate (3:2: 240, 60, 15
 * and, on the MCP3421-3424, 3.75 SPS for 12, 14, 16 and 18 bits), G1-G0
 * the PGA (1:0: x1, x2, x4, x8); power-on value 0x90. A write is that byte
 * alone, with no register address. A read gives the output register, MSB
 * first (2 bytes, 3 at 18 bits, sign-extended into the unused top bits),
 * then the configuration byte for as long as the master reads on; its RDY
 * is 0 while the result is one not read yet.
 * Timing: in continuous mode a write restarts the conversions, which then
 * complete every 1/rate; in one-shot mode (O/C 0) a write with RDY set
 * starts one. Until the first completion after a write the output register
 * keeps the result before it (shown in the new rate's byte count: a model
 * choice, the datasheet does not say); the first transfer finds one of the
 * power-on setting, as the chip has been converting since. The code is
 * (CHn+ - CHn-) x PGA x 2^(bits-1) / 2.048 V, rounded down and clipped.
 * Inputs "CH1".."CHn" (the datasheet's differential pairs, in mV), also
 * "voltage0".. as the kernel numbers them; the MCP3421/3425 ignore C1-C0,
 * the two-input parts C1.
 * Place in the flow: *chip* -> bus -> driver. Must not call drivers or the
 * core, sleep, or keep global state.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_MCP3422_RDY		0x80
#define EMU_MCP3422_CH_MASK	0x60
#define EMU_MCP3422_CONT	0x10
#define EMU_MCP3422_RATE_MASK	0x0c
#define EMU_MCP3422_PGA_MASK	0x03
#define EMU_MCP3422_POR		0x90
#define EMU_MCP3422_REF_MV	2048.0
#define EMU_MCP3422_MAX_IN	4
#define EMU_MCP3422_NKEYS	(2 * EMU_MCP3422_MAX_IN)

struct emu_mcp3422 {
	struct emu_chip chip;
	int nin;			/* inputs: 1, 2 or 4 */
	bool has_18bit;			/* MCP3421-3424 */
	uint8_t config;			/* RDY kept 0 here; reads compute it */
	bool started;			/* false until the first transfer */
	double t_start;			/* when the current conversions began */
	long done;			/* conversions since t_start already in the register */
	bool pending;			/* a one-shot conversion is running */
	int32_t code;			/* the output register */
	bool unread;			/* RDY 0: the register holds a result not read yet */
	struct emu_signal in[EMU_MCP3422_MAX_IN];
};

static struct emu_mcp3422 *emu_mcp3422_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_mcp3422, chip);
}

/* S1-S0 as the part takes them: the MCP3425-3428 have no 18-bit mode (11 as 10). */
static int emu_mcp3422_rate(const struct emu_mcp3422 *m)
{
	int rate = (int)FIELD_GET(EMU_MCP3422_RATE_MASK, m->config);

	return rate == 3 && !m->has_18bit ? 2 : rate;
}

static int emu_mcp3422_bits(const struct emu_mcp3422 *m)
{
	return 12 + 2 * emu_mcp3422_rate(m);
}

static double emu_mcp3422_period_s(const struct emu_mcp3422 *m)
{
	static const double sps[] = { 240.0, 60.0, 15.0, 3.75 };

	return 1.0 / sps[emu_mcp3422_rate(m)];
}

/* One conversion of the selected input, sampled at @t. */
static int32_t emu_mcp3422_convert(const struct emu_mcp3422 *m, double t)
{
	int ch = (int)FIELD_GET(EMU_MCP3422_CH_MASK, m->config) & (m->nin - 1);
	int gain = 1 << (m->config & EMU_MCP3422_PGA_MASK);
	double full = (double)(1L << (emu_mcp3422_bits(m) - 1));
	double code = floor(emu_signal_sample(&m->in[ch], t) * gain * full /
			    EMU_MCP3422_REF_MV + 1e-9);

	if (isnan(code))
		code = 0;
	if (code > full - 1)
		code = full - 1;
	if (code < -full)
		code = -full;
	return (int32_t)code;
}

/* Bring the output register up to now: the latest conversion completed, if new. */
static void emu_mcp3422_update(struct emu_mcp3422 *m)
{
	double now = emu_chip_now(&m->chip), period = emu_mcp3422_period_s(m);
	long k;

	/*
	 * The chip has been converting since power-on: at the first transfer
	 * the output register holds a conversion in the power-on setting.
	 */
	if (!m->started) {
		m->started = true;
		m->t_start = now;
		m->code = emu_mcp3422_convert(m, now);
		m->unread = true;
	}
	if (!(m->config & EMU_MCP3422_CONT)) {
		if (m->pending && now >= m->t_start + period - 1e-9) {
			m->code = emu_mcp3422_convert(m, m->t_start + period);
			m->unread = true;
			m->pending = false;
		}
		return;
	}
	k = (long)floor((now - m->t_start) / period + 1e-9);
	if (k >= 1 && k > m->done) {
		m->code = emu_mcp3422_convert(m, m->t_start + (double)k * period);
		m->unread = true;
		m->done = k;
	}
}

static void emu_mcp3422_read(struct emu_chip *chip, uint8_t *buf, int len)
{
	struct emu_mcp3422 *m = emu_mcp3422_from_chip(chip);
	uint8_t out[4];
	int n = 0, i;
	uint32_t code;

	emu_mcp3422_update(m);
	code = (uint32_t)m->code;
	if (emu_mcp3422_bits(m) == 18)
		out[n++] = (uint8_t)(code >> 16);
	out[n++] = (uint8_t)(code >> 8);
	out[n++] = (uint8_t)code;
	out[n++] = (uint8_t)(m->config | (m->unread ? 0 : EMU_MCP3422_RDY));
	/* past the configuration byte the chip repeats it */
	for (i = 0; i < len; i++)
		buf[i] = out[i < n ? i : n - 1];
	if (len >= n - 1)
		m->unread = false;
}

static void emu_mcp3422_write(struct emu_chip *chip, const uint8_t *buf, int len)
{
	struct emu_mcp3422 *m = emu_mcp3422_from_chip(chip);

	if (len < 1)
		return;
	emu_mcp3422_update(m);
	/* the first byte is the configuration; later ones are ignored */
	m->config = buf[0] & (uint8_t)~EMU_MCP3422_RDY;
	m->t_start = emu_chip_now(chip);
	m->done = 0;
	m->pending = !(m->config & EMU_MCP3422_CONT) && (buf[0] & EMU_MCP3422_RDY);
}

static const struct emu_chip_ops emu_mcp3422_ops = {
	.i2c_transfer = emu_chip_i2c_rw,
	.i2c_read = emu_mcp3422_read,
	.i2c_write = emu_mcp3422_write,
	.destroy = emu_chip_free,
};

/* "CH1".."CHn" (datasheet) and "voltage0".. (the kernel's channels) for each input. */
static int emu_mcp3422_inputs(struct emu_mcp3422 *m, const struct emu_params *p, char *err,
			      size_t errlen)
{
	char keys[EMU_MCP3422_NKEYS][20];	/* "voltage" and any int */
	struct emu_input_slot slots[EMU_MCP3422_NKEYS];
	const char *bad = "";
	int i, ret;

	for (i = 0; i < m->nin; i++) {
		snprintf(keys[2 * i], sizeof(keys[0]), "CH%d", i + 1);
		snprintf(keys[2 * i + 1], sizeof(keys[0]), "voltage%d", i);
		slots[2 * i] = (struct emu_input_slot){ keys[2 * i], &m->in[i], NULL };
		slots[2 * i + 1] = (struct emu_input_slot){ keys[2 * i + 1], &m->in[i], NULL };
	}
	ret = emu_inputs_take(p, slots, 2 * m->nin, &bad);
	if (ret == -EINVAL)
		snprintf(err, errlen, "%s: no input '%s' (inputs: CH1..CH%d or voltage0..voltage%d, "
			 "mV)", p->id->name, bad, m->nin, m->nin - 1);
	else if (ret)
		snprintf(err, errlen, "%s: out of memory for input %s", p->id->name, bad);
	return ret;
}

static int emu_mcp3422_create(const struct emu_params *p, struct emu_chip **out, char *err,
			      size_t errlen)
{
	static const int nin[] = { 0, 1, 2, 2, 4, 1, 2, 2, 4 };
	struct emu_mcp3422 *m;
	int part, ret;

	part = emu_params_part(p, ARRAY_SIZE(nin), "an MCP342x part", err, errlen);
	if (part < 1)
		return part < 0 ? part : -EINVAL;
	m = emu_chip_alloc(sizeof(*m), &emu_mcp3422_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = m->in;
	m->chip.ninputs = EMU_MCP3422_MAX_IN;
	m->nin = nin[part];
	m->has_18bit = part <= 4;
	m->config = EMU_MCP3422_POR & (uint8_t)~EMU_MCP3422_RDY;
	ret = emu_mcp3422_inputs(m, p, err, errlen);
	return emu_chip_done(&m->chip, ret, out);
}

static const struct iio_device_id emu_mcp3422_ids[] = {
	{ "mcp3421", 1 }, { "mcp3422", 2 }, { "mcp3423", 3 }, { "mcp3424", 4 },
	{ "mcp3425", 5 }, { "mcp3426", 6 }, { "mcp3427", 7 }, { "mcp3428", 8 },
	{ NULL, 0 }
};

static const struct emu_model emu_mcp3422_model = {
	.name = "mcp3422",
	.id_table = emu_mcp3422_ids,
	.create = emu_mcp3422_create,
};
EMU_MODEL_REGISTER(emu_mcp3422_model);
