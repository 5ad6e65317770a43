/*
 * emu_max517.c - register-level model of the Maxim MAX517/518/519/520/521
 * 8-bit I2C DACs: an input latch and a DAC latch per output.
 *
 * A write transaction is pairs of a command byte (R2 R1 R0 RST PD, then
 * the DAC address: A0 on the MAX517/518/519, A2..A0 on the MAX520/521)
 * and an output byte, which lands in the addressed input latch; every DAC
 * latch takes its input latch at the end of the transaction (the STOP), as
 * the datasheets say. A command byte without its output byte still acts:
 * RST zeroes every latch, PD powers the chip down (outputs 0 mV here) and
 * a command without PD powers it up again. The driver never reads; a read
 * gets 0xff, the bus nobody drives.
 * Inputs (mV): the reference pins, "REF0".."REFn" (one per output, but the
 * MAX521's REF4 serves OUT4..OUT7), the MAX518's "VDD"; each defaults to the
 * board's vref_mv, else 5000. Output N: its DAC latch over its reference.
 * Place in the flow: *chip* -> bus -> driver. Must not call drivers or the core.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_MAX517_BITS		8
#define EMU_MAX517_OUTPUTS	8
#define EMU_MAX517_REFS		5
#define EMU_MAX517_RST		BIT(4)
#define EMU_MAX517_PD		BIT(3)
#define EMU_MAX517_DEFAULT_MV	5000.0

enum { EMU_MAX517, EMU_MAX518, EMU_MAX519, EMU_MAX520, EMU_MAX521, EMU_MAX517_NPARTS };

/* outputs, references and address bits by part */
static const struct {
	int outputs, refs;
	uint8_t addr_mask;
} emu_max517_parts[EMU_MAX517_NPARTS] = {
	[EMU_MAX517] = { 1, 1, 0x1 }, [EMU_MAX518] = { 2, 1, 0x1 },
	[EMU_MAX519] = { 2, 2, 0x1 }, [EMU_MAX520] = { 4, 4, 0x7 },
	[EMU_MAX521] = { 8, 5, 0x7 },
};

static const struct iio_device_id emu_max517_ids[] = {
	{ "max517", EMU_MAX517 }, { "max518", EMU_MAX518 }, { "max519", EMU_MAX519 },
	{ "max520", EMU_MAX520 }, { "max521", EMU_MAX521 }, { NULL, 0 }
};

struct emu_max517 {
	struct emu_chip chip;
	int part;
	struct emu_signal ref[EMU_MAX517_REFS];
	uint8_t input[EMU_MAX517_OUTPUTS], dac[EMU_MAX517_OUTPUTS];
	bool powerdown;
};

static struct emu_max517 *emu_max517_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_max517, chip);
}

static void emu_max517_read(struct emu_chip *chip, uint8_t *buf, int len)
{
	(void)chip;
	memset(buf, 0xff, (size_t)len);
}

static void emu_max517_write(struct emu_chip *chip, const uint8_t *buf, int len)
{
	struct emu_max517 *m = emu_max517_from_chip(chip);
	int i, out, n = emu_max517_parts[m->part].outputs;

	for (i = 0; i < len; i += 2) {
		if (buf[i] & EMU_MAX517_RST) {
			memset(m->input, 0, sizeof(m->input));
			memset(m->dac, 0, sizeof(m->dac));
			continue;	/* the output byte after RST is ignored */
		}
		m->powerdown = buf[i] & EMU_MAX517_PD;
		out = buf[i] & emu_max517_parts[m->part].addr_mask;
		if (i + 1 < len && out < n)
			m->input[out] = buf[i + 1];
	}
	/* the STOP: every DAC latch takes its input latch */
	memcpy(m->dac, m->input, sizeof(m->dac));
}

static int emu_max517_dac_output(struct emu_chip *chip, int channel, struct emu_dac_state *out)
{
	struct emu_max517 *m = emu_max517_from_chip(chip);
	int ref = channel < EMU_MAX517_REFS ? channel : EMU_MAX517_REFS - 1;

	if (channel < 0 || channel >= emu_max517_parts[m->part].outputs)
		return -ENODEV;
	if (ref >= emu_max517_parts[m->part].refs)
		ref = 0;	/* the MAX518's VDD serves both outputs */
	return emu_dac_fill(out, m->dac[channel], m->powerdown,
			    emu_signal_sample(&m->ref[ref], emu_chip_now(chip)), EMU_MAX517_BITS);
}

static const struct emu_chip_ops emu_max517_ops = {
	.i2c_transfer = emu_chip_i2c_rw,
	.i2c_read = emu_max517_read,
	.i2c_write = emu_max517_write,
	.destroy = emu_chip_free,
	.dac_output = emu_max517_dac_output,
};

static int emu_max517_create(const struct emu_params *p, struct emu_chip **out, char *err,
			     size_t errlen)
{
	struct emu_max517 *m;
	const char *bad = "";
	int part, i, ret;

	part = emu_params_part(p, EMU_MAX517_NPARTS, "a MAX517-family part", err, errlen);
	if (part < 0)
		return part;
	m = emu_chip_alloc(sizeof(*m), &emu_max517_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->part = part;
	m->chip.inputs = m->ref;
	m->chip.ninputs = EMU_MAX517_REFS;
	for (i = 0; i < EMU_MAX517_REFS; i++)
		m->ref[i].value = p->vref_mv > 0 ? p->vref_mv : EMU_MAX517_DEFAULT_MV;
	if (part == EMU_MAX518) {
		const struct emu_input_slot vdd = { "VDD", &m->ref[0], NULL };

		ret = emu_inputs_take(p, &vdd, 1, &bad);
		if (ret == -EINVAL)
			snprintf(err, errlen, "%s: no input '%s' (inputs: VDD)", m->chip.name, bad);
		else if (ret)
			snprintf(err, errlen, "%s: out of memory for input %s", m->chip.name, bad);
	} else {
		ret = emu_inputs_take_numbered(p, m->chip.name, "REF", m->ref,
					       emu_max517_parts[part].refs, err, errlen);
	}
	return emu_chip_done(&m->chip, ret, out);
}

static const struct emu_model emu_max517_model = {
	.name = "max517",
	.id_table = emu_max517_ids,
	.create = emu_max517_create,
};
EMU_MODEL_REGISTER(emu_max517_model);
