/*
 * emu_ad5766.c - register-level model of the AD5766/AD5767 16-channel SPI
 * DACs: per channel an input register and the DAC register it loads, the
 * span, dither and software-reset commands.
 *
 * A frame is 24 bits under one chip select, MSB first: command in bits
 * 23:20, DAC address in 19:16, data in 15:0; a chip select of any other
 * length is dropped (SYNC raised early aborts the write). Commands: 0x1n
 * writes input register n, 0x2n writes input and DAC register n, 0x30 is
 * the software LDAC (each set data bit loads that channel's DAC register
 * from its input register), 0x40 the span (bits 2:0, the driver's
 * ad5766_span_tbl index), 0x51 the dither power-down bits, 0x60 writes
 * every input and DAC register, 0x70 with code 0x1234 resets everything
 * (any other code is ignored), 0x8n asks for DAC register n, shifted out
 * on SDO in the last 16 bits of the next frame, 0x90/0xa0 the dither
 * source words, 0xb0 the inversion bits, 0xc0/0xd0 the dither scales.
 * The AD5767 has the same map with 12-bit codes left-aligned (bits 15:4).
 * No inputs. Each output pin (dac_output) is its DAC register's code over
 * the span the span register selects: min + code / 2^bits x (max - min).
 * Place in the flow: *chip* -> bus -> driver. Must not call drivers or the core.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_AD5766_NCH		16
#define EMU_AD5766_RESET_CODE	0x1234

static const struct iio_device_id emu_ad5766_ids[] = {
	{ "ad5766", 16 },
	{ "ad5767", 12 },
	{ NULL, 0 }
};

/* The span register's codes, in volts (the datasheet's output ranges). */
static const struct { int min, max; } emu_ad5766_spans[8] = {
	{ -20, 0 }, { -16, 0 }, { -10, 0 }, { -12, 14 },
	{ -16, 10 }, { -10, 6 }, { -5, 5 }, { -10, 10 },
};

struct emu_ad5766 {
	struct emu_chip chip;
	unsigned int bits;
	uint16_t in[EMU_AD5766_NCH];
	uint16_t dac[EMU_AD5766_NCH];
	uint16_t span, pwr_dither, inv_dither;
	uint16_t dither_sig[2], dither_scale[2];
	int readback;		/* the DAC register the next frame shifts out, or -1 */
};

static struct emu_ad5766 *emu_ad5766_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_ad5766, chip);
}

static void emu_ad5766_reset(struct emu_ad5766 *m)
{
	memset(m->in, 0, sizeof(m->in));
	memset(m->dac, 0, sizeof(m->dac));
	m->span = m->pwr_dither = m->inv_dither = 0;
	memset(m->dither_sig, 0, sizeof(m->dither_sig));
	memset(m->dither_scale, 0, sizeof(m->dither_scale));
	m->readback = -1;
}

/* The code as the chip keeps it: the AD5767's low 4 bits do not exist. */
static uint16_t emu_ad5766_code(const struct emu_ad5766 *m, uint16_t data)
{
	return (uint16_t)(data & (0xffffu << (16 - m->bits)));
}

static void emu_ad5766_command(struct emu_ad5766 *m, uint8_t cmd, uint16_t data)
{
	unsigned int n = cmd & 0xf, i;

	switch (cmd >> 4) {
	case 0x1:
		m->in[n] = emu_ad5766_code(m, data);
		break;
	case 0x2:
		m->in[n] = m->dac[n] = emu_ad5766_code(m, data);
		break;
	case 0x3:
		for (i = 0; i < EMU_AD5766_NCH; i++)
			if (data & (1u << i))
				m->dac[i] = m->in[i];
		break;
	case 0x4:
		m->span = data & 7;
		break;
	case 0x5:
		m->pwr_dither = data;
		break;
	case 0x6:
		for (i = 0; i < EMU_AD5766_NCH; i++)
			m->in[i] = m->dac[i] = emu_ad5766_code(m, data);
		break;
	case 0x7:
		if (data == EMU_AD5766_RESET_CODE)
			emu_ad5766_reset(m);
		break;
	case 0x8:
		m->readback = (int)n;
		break;
	case 0x9: case 0xa:
		m->dither_sig[(cmd >> 4) - 0x9] = data;
		break;
	case 0xb:
		m->inv_dither = data;
		break;
	case 0xc: case 0xd:
		m->dither_scale[(cmd >> 4) - 0xc] = data;
		break;
	}
}

/* One chip select: SDO carries an asked-for register, then the frame is taken. */
static int emu_ad5766_spi_transfer(struct emu_chip *chip, const struct bus_spi_transfer *xfers,
				   int n)
{
	struct emu_ad5766 *m = emu_ad5766_from_chip(chip);
	uint8_t frame[3] = { 0 }, sdo[3] = { 0 };
	size_t len = 0, k;
	int i, rb = m->readback;

	if (rb >= 0) {
		sdo[1] = (uint8_t)(m->dac[rb] >> 8);
		sdo[2] = (uint8_t)m->dac[rb];
	}
	m->readback = -1;
	for (i = 0; i < n; i++) {
		for (k = 0; k < xfers[i].len; k++, len++) {
			if (xfers[i].rx_buf)
				((uint8_t *)xfers[i].rx_buf)[k] = len < 3 ? sdo[len] : 0;
			if (xfers[i].tx_buf && len < 3)
				frame[len] = ((const uint8_t *)xfers[i].tx_buf)[k];
		}
	}
	if (len == 3)
		emu_ad5766_command(m, frame[0], (uint16_t)(frame[1] << 8 | frame[2]));
	return 0;
}

static int emu_ad5766_dac_output(struct emu_chip *chip, int channel, struct emu_dac_state *out)
{
	struct emu_ad5766 *m = emu_ad5766_from_chip(chip);
	unsigned int code;
	int lo, hi;

	if (channel < 0 || channel >= EMU_AD5766_NCH)
		return -ENODEV;
	code = m->dac[channel] >> (16 - m->bits);
	lo = emu_ad5766_spans[m->span].min;
	hi = emu_ad5766_spans[m->span].max;
	out->code = code;
	out->powerdown = 0;
	out->mv = 1000.0 * (lo + (double)code * (hi - lo) / (double)(1u << m->bits));
	return 0;
}

static const struct emu_chip_ops emu_ad5766_ops = {
	.spi_transfer = emu_ad5766_spi_transfer,
	.destroy = emu_chip_free,
	.dac_output = emu_ad5766_dac_output,
};

static int emu_ad5766_create(const struct emu_params *p, struct emu_chip **out, char *err,
			     size_t errlen)
{
	struct emu_ad5766 *m;

	if (p->ninputs) {
		snprintf(err, errlen, "%s: no input '%s' (the chip has none)", p->name,
			 p->inputs[0].key);
		return -EINVAL;
	}
	m = emu_chip_alloc(sizeof(*m), &emu_ad5766_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->bits = (unsigned int)p->id->driver_data;
	emu_ad5766_reset(m);
	return emu_chip_done(&m->chip, 0, out);
}

static const struct emu_model emu_ad5766_model = {
	.name = "ad5766",
	.id_table = emu_ad5766_ids,
	.create = emu_ad5766_create,
};
EMU_MODEL_REGISTER(emu_ad5766_model);
