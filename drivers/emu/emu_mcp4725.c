/*
 * emu_mcp4725.c - register-level model of the Microchip MCP4725 and MCP4726
 * 12-bit I2C DACs: the DAC register, the configuration bits and the EEPROM.
 *
 * Writes, by the first byte's top bits (datasheets' "write commands"):
 * 00 a fast write, pairs of [0 0 PD1 PD0 D11..D8][D7..D0]; 010 write the
 * volatile memory and 011 write it and the EEPROM, triplets of [C2 C1 C0
 * VREF1 VREF0 PD1 PD0 G][D11..D4][D3..D0 0000] (the MCP4725 has no VREF or
 * G bits: they are don't-care there); on the MCP4726, 100 writes the
 * configuration bits alone. An EEPROM write keeps RDY/BSY at 0 for 25 ms
 * of the bus's clock (the datasheets' typical write time); the model does
 * not refuse other writes meanwhile. A read returns [RDY POR 0 VREF1 VREF0
 * PD1 PD0 G][D11..D4][D3..D0 0000] and then the EEPROM: on the MCP4725
 * [0 PD1 PD0 0 D11..D8][D7..D0], on the MCP4726 the same three-byte form as
 * the volatile part; longer reads start over. At power-on the volatile
 * memory is loaded from the EEPROM.
 * Inputs (mV, or codes): "VDD" (default 5000), "VREF" (the MCP4726's pin,
 * default the board's vref_mv), "eeprom_code" and "eeprom_config" (the
 * EEPROM's DAC code and configuration byte at power-on, default 0). The
 * output follows the DAC register over VDD, or over VREF (times 2 with G)
 * when VREF1 is set; powered down it is pulled to ground (0 mV).
 * Place in the flow: *chip* -> bus -> driver. Must not call drivers or the core.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_MCP4725_BITS		12
#define EMU_MCP4725_EEPROM_WRITE_S	0.025
#define EMU_MCP4725_DEFAULT_VDD_MV	5000.0
#define EMU_MCP4725_RDY			0x80
#define EMU_MCP4725_POR			0x40
#define EMU_MCP4725_CFG_VREF		GENMASK(4, 3)
#define EMU_MCP4725_CFG_PD		GENMASK(2, 1)
#define EMU_MCP4725_CFG_GAIN		BIT(0)

enum { EMU_MCP4725_IN_VDD, EMU_MCP4725_IN_VREF, EMU_MCP4725_IN_CODE, EMU_MCP4725_IN_CONFIG,
       EMU_MCP4725_NIN };

static const struct iio_device_id emu_mcp4725_ids[] = {
	{ "mcp4725", 0 }, { "mcp4726", 1 }, { NULL, 0 }
};

/*
 * struct emu_mcp4725 - one chip; the bus serialises transfers, so no lock.
 * @cfg/@nv_cfg: the configuration bits in the MCP4726's byte layout
 *	(VREF1:VREF0, PD1:PD0, G), volatile and in the EEPROM.
 */
struct emu_mcp4725 {
	struct emu_chip chip;
	bool mcp4726;
	struct emu_signal in[EMU_MCP4725_NIN];
	uint16_t dac, nv_dac;
	uint8_t cfg, nv_cfg;
	double busy_until_s;
};

static struct emu_mcp4725 *emu_mcp4725_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_mcp4725, chip);
}

/* The configuration bits a write may set: the MCP4725 has PD1:PD0 only. */
static uint8_t emu_mcp4725_cfg_mask(const struct emu_mcp4725 *m)
{
	return m->mcp4726 ? (EMU_MCP4725_CFG_VREF | EMU_MCP4725_CFG_PD | EMU_MCP4725_CFG_GAIN) :
			    EMU_MCP4725_CFG_PD;
}

/* One byte of a read at position @i of the repeating sequence. */
static uint8_t emu_mcp4725_read_byte(const struct emu_mcp4725 *m, int i, uint8_t status)
{
	int period = m->mcp4726 ? 6 : 5;

	switch (i % period) {
	case 0:
		return status | m->cfg;
	case 1:
		return (uint8_t)(m->dac >> 4);
	case 2:
		return (uint8_t)((m->dac & 0xf) << 4);
	case 3:
		if (m->mcp4726)
			return status | m->nv_cfg;
		return (uint8_t)((FIELD_GET(EMU_MCP4725_CFG_PD, m->nv_cfg) << 5) |
				 (m->nv_dac >> 8));
	case 4:
		return m->mcp4726 ? (uint8_t)(m->nv_dac >> 4) : (uint8_t)(m->nv_dac & 0xff);
	default:
		return (uint8_t)((m->nv_dac & 0xf) << 4);
	}
}

static void emu_mcp4725_read(struct emu_chip *chip, uint8_t *buf, int len)
{
	struct emu_mcp4725 *m = emu_mcp4725_from_chip(chip);
	uint8_t status = EMU_MCP4725_POR;
	int i;

	if (emu_chip_now(chip) >= m->busy_until_s)
		status |= EMU_MCP4725_RDY;
	for (i = 0; i < len; i++)
		buf[i] = emu_mcp4725_read_byte(m, i, status);
}

/* A 010/011 triplet: configuration and code, and the EEPROM too for 011. */
static void emu_mcp4725_write_memory(struct emu_mcp4725 *m, const uint8_t *b)
{
	m->cfg = b[0] & emu_mcp4725_cfg_mask(m);
	m->dac = (uint16_t)((b[1] << 4) | (b[2] >> 4));
	if ((b[0] & 0xe0) != 0x60)
		return;
	m->nv_cfg = m->cfg;
	m->nv_dac = m->dac;
	m->busy_until_s = emu_chip_now(&m->chip) + EMU_MCP4725_EEPROM_WRITE_S;
}

static void emu_mcp4725_write(struct emu_chip *chip, const uint8_t *buf, int len)
{
	struct emu_mcp4725 *m = emu_mcp4725_from_chip(chip);
	int i;

	if (len < 1)
		return;
	switch (buf[0] & 0xe0) {
	case 0x00:
	case 0x20:	/* fast writes, repeated in pairs */
		for (i = 0; i + 1 < len; i += 2) {
			m->cfg = (uint8_t)((m->cfg & ~EMU_MCP4725_CFG_PD) |
					   FIELD_PREP(EMU_MCP4725_CFG_PD, (buf[i] >> 4) & 3));
			m->dac = (uint16_t)(((buf[i] & 0xf) << 8) | buf[i + 1]);
		}
		break;
	case 0x40:
	case 0x60:	/* memory writes, repeated in triplets */
		for (i = 0; i + 2 < len; i += 3)
			emu_mcp4725_write_memory(m, buf + i);
		break;
	case 0x80:	/* MCP4726: the configuration bits alone */
		if (m->mcp4726)
			m->cfg = buf[0] & emu_mcp4725_cfg_mask(m);
		break;
	default:	/* reserved commands: ignored */
		break;
	}
}

static int emu_mcp4725_dac_output(struct emu_chip *chip, int channel, struct emu_dac_state *out)
{
	struct emu_mcp4725 *m = emu_mcp4725_from_chip(chip);
	double now = emu_chip_now(chip), ref;

	if (channel != 0)
		return -ENODEV;
	if (FIELD_GET(EMU_MCP4725_CFG_VREF, m->cfg) & 2) {
		ref = emu_signal_sample(&m->in[EMU_MCP4725_IN_VREF], now);
		if (m->cfg & EMU_MCP4725_CFG_GAIN)
			ref *= 2.0;
	} else {
		ref = emu_signal_sample(&m->in[EMU_MCP4725_IN_VDD], now);
	}
	return emu_dac_fill(out, m->dac, FIELD_GET(EMU_MCP4725_CFG_PD, m->cfg), ref,
			    EMU_MCP4725_BITS);
}

static const struct emu_chip_ops emu_mcp4725_ops = {
	.i2c_transfer = emu_chip_i2c_rw,
	.i2c_read = emu_mcp4725_read,
	.i2c_write = emu_mcp4725_write,
	.destroy = emu_chip_free,
	.dac_output = emu_mcp4725_dac_output,
};

/* The inputs by name; the MCP4725 has no VREF pin. */
static int emu_mcp4725_inputs(const struct emu_params *p, struct emu_mcp4725 *m,
			      const char **bad)
{
	const struct emu_input_slot slots[] = {
		{ "VDD", &m->in[EMU_MCP4725_IN_VDD], NULL },
		{ "eeprom_code", &m->in[EMU_MCP4725_IN_CODE], NULL },
		{ "eeprom_config", &m->in[EMU_MCP4725_IN_CONFIG], NULL },
		{ "VREF", &m->in[EMU_MCP4725_IN_VREF], NULL },
	};

	return emu_inputs_take(p, slots, m->mcp4726 ? 4 : 3, bad);
}

/* Power-on: the EEPROM's contents (inputs eeprom_code/_config) load the volatile memory. */
static int emu_mcp4725_create(const struct emu_params *p, struct emu_chip **out, char *err,
			      size_t errlen)
{
	struct emu_mcp4725 *m;
	const char *bad = "";
	int part, ret;

	part = emu_params_part(p, 2, "an MCP4725/6 part", err, errlen);
	if (part < 0)
		return part;
	m = emu_chip_alloc(sizeof(*m), &emu_mcp4725_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = m->in;
	m->chip.ninputs = EMU_MCP4725_NIN;
	m->mcp4726 = part == 1;
	m->in[EMU_MCP4725_IN_VDD].value = EMU_MCP4725_DEFAULT_VDD_MV;
	m->in[EMU_MCP4725_IN_VREF].value = p->vref_mv;
	ret = emu_mcp4725_inputs(p, m, &bad);
	if (ret == -EINVAL)
		snprintf(err, errlen, "%s: no input '%s' (inputs: VDD, eeprom_code, "
			 "eeprom_config%s)", m->chip.name, bad, m->mcp4726 ? ", VREF" : "");
	else if (ret)
		snprintf(err, errlen, "%s: out of memory for input %s", m->chip.name, bad);
	m->nv_dac = (uint16_t)emu_signal_sample(&m->in[EMU_MCP4725_IN_CODE], 0.0) & 0xfff;
	m->nv_cfg = (uint8_t)emu_signal_sample(&m->in[EMU_MCP4725_IN_CONFIG], 0.0) &
		    emu_mcp4725_cfg_mask(m);
	m->dac = m->nv_dac;
	m->cfg = m->nv_cfg;
	return emu_chip_done(&m->chip, ret, out);
}

static const struct emu_model emu_mcp4725_model = {
	.name = "mcp4725",
	.id_table = emu_mcp4725_ids,
	.create = emu_mcp4725_create,
};
EMU_MODEL_REGISTER(emu_mcp4725_model);
