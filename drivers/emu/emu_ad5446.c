/*
 * emu_ad5446.c - register-level model of the AD5446-family one-output DACs
 * on SPI (AD5300 ... AD5662 and the TI parts the kernel lists with them)
 * and on I2C (AD5301/11/21, AD5602/12/22): one input shift register and
 * the DAC register it loads.
 *
 * A write is one word, MSB first: 16 bits (24 on the AD5660/AD5662), the
 * code in its bits above the part's shift; a chip select (SPI) or a write
 * message (I2C) of any other length is dropped, as SYNC raised early
 * aborts the datasheets' write. On the parts with power-down, the two bits
 * above the code are PD1:PD0 (01 = 1 kohm, 10 = 100 kohm to ground, 11 =
 * three-state): non-zero powers the output down and keeps the DAC
 * register, zero loads the code and powers up. On the others those bits
 * are control bits (the AD5446/53's C1:C0) that the model takes as "load
 * and update", the only mode the driver uses. The I2C parts read back the
 * same word. Inputs (mV): "VREF", the reference pin (VDD on the parts
 * whose reference is their supply), default the board's vref_mv; the
 * AD5620/40/60 use their internal 2.5 V or 1.25 V instead.
 * Place in the flow: *chip* -> bus -> driver. Must not call drivers or the core.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "iio_kit.h"

/* @bits of code above @shift, in @bytes; @pd: PD1:PD0 above the code; @int_mv: own reference */
struct emu_ad5446_part {
	uint8_t bits, shift, bytes;
	bool pd;
	uint16_t int_mv;
};

enum {
	EMU_AD5300, EMU_AD5310, EMU_AD5320, EMU_AD5444, EMU_AD5446, EMU_AD5450, EMU_AD5451,
	EMU_AD5541A, EMU_AD5512A, EMU_AD5553, EMU_AD5600, EMU_AD5601, EMU_AD5611, EMU_AD5621,
	EMU_AD5641, EMU_AD5620_2500, EMU_AD5620_1250, EMU_AD5640_2500, EMU_AD5640_1250,
	EMU_AD5660_2500, EMU_AD5660_1250, EMU_AD5662, EMU_AD5602, EMU_AD5612, EMU_AD5622,
	EMU_AD5446_NPARTS
};

static const struct emu_ad5446_part emu_ad5446_parts[EMU_AD5446_NPARTS] = {
	[EMU_AD5300] = { 8, 4, 2, true, 0 },	[EMU_AD5310] = { 10, 2, 2, true, 0 },
	[EMU_AD5320] = { 12, 0, 2, true, 0 },	[EMU_AD5444] = { 12, 2, 2, false, 0 },
	[EMU_AD5446] = { 14, 0, 2, false, 0 },	[EMU_AD5450] = { 8, 6, 2, false, 0 },
	[EMU_AD5451] = { 10, 4, 2, false, 0 },	[EMU_AD5541A] = { 16, 0, 2, false, 0 },
	[EMU_AD5512A] = { 12, 4, 2, false, 0 },	[EMU_AD5553] = { 14, 0, 2, false, 0 },
	[EMU_AD5600] = { 16, 0, 2, false, 0 },	[EMU_AD5601] = { 8, 6, 2, true, 0 },
	[EMU_AD5611] = { 10, 4, 2, true, 0 },	[EMU_AD5621] = { 12, 2, 2, true, 0 },
	[EMU_AD5641] = { 14, 0, 2, true, 0 },
	[EMU_AD5620_2500] = { 12, 2, 2, true, 2500 }, [EMU_AD5620_1250] = { 12, 2, 2, true, 1250 },
	[EMU_AD5640_2500] = { 14, 0, 2, true, 2500 }, [EMU_AD5640_1250] = { 14, 0, 2, true, 1250 },
	[EMU_AD5660_2500] = { 16, 0, 3, true, 2500 }, [EMU_AD5660_1250] = { 16, 0, 3, true, 1250 },
	[EMU_AD5662] = { 16, 0, 3, true, 0 },
	[EMU_AD5602] = { 8, 4, 2, true, 0 },	[EMU_AD5612] = { 10, 2, 2, true, 0 },
	[EMU_AD5622] = { 12, 0, 2, true, 0 },
};

static const struct iio_device_id emu_ad5446_ids[] = {
	{ "ad5300", EMU_AD5300 }, { "ad5310", EMU_AD5310 }, { "ad5320", EMU_AD5320 },
	{ "ad5444", EMU_AD5444 }, { "ad5446", EMU_AD5446 }, { "ad5450", EMU_AD5450 },
	{ "ad5451", EMU_AD5451 }, { "ad5452", EMU_AD5444 }, { "ad5453", EMU_AD5446 },
	{ "ad5512a", EMU_AD5512A }, { "ad5541a", EMU_AD5541A }, { "ad5542a", EMU_AD5541A },
	{ "ad5543", EMU_AD5541A }, { "ad5553", EMU_AD5553 }, { "ad5600", EMU_AD5600 },
	{ "ad5601", EMU_AD5601 }, { "ad5611", EMU_AD5611 }, { "ad5621", EMU_AD5621 },
	{ "ad5641", EMU_AD5641 },
	{ "ad5620-2500", EMU_AD5620_2500 }, { "ad5620-1250", EMU_AD5620_1250 },
	{ "ad5640-2500", EMU_AD5640_2500 }, { "ad5640-1250", EMU_AD5640_1250 },
	{ "ad5660-2500", EMU_AD5660_2500 }, { "ad5660-1250", EMU_AD5660_1250 },
	{ "ad5662", EMU_AD5662 },
	{ "dac081s101", EMU_AD5300 }, { "dac101s101", EMU_AD5310 },
	{ "dac121s101", EMU_AD5320 }, { "dac7512", EMU_AD5320 },
	{ "ad5301", EMU_AD5602 }, { "ad5311", EMU_AD5612 }, { "ad5321", EMU_AD5622 },
	{ "ad5602", EMU_AD5602 }, { "ad5612", EMU_AD5612 }, { "ad5622", EMU_AD5622 },
	{ NULL, 0 }
};

struct emu_ad5446 {
	struct emu_chip chip;
	const struct emu_ad5446_part *part;
	struct emu_signal vref;
	uint32_t word;		/* the last word taken, for the I2C read-back */
	unsigned int dac, powerdown;
};

static struct emu_ad5446 *emu_ad5446_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_ad5446, chip);
}

/* One whole word of @len bytes; any other length is dropped. */
static void emu_ad5446_word(struct emu_ad5446 *m, const uint8_t *buf, size_t len)
{
	const struct emu_ad5446_part *pt = m->part;
	uint32_t word = 0;
	unsigned int pd = 0;
	size_t i;

	if (len != pt->bytes)
		return;
	for (i = 0; i < len; i++)
		word = word << 8 | buf[i];
	m->word = word;
	if (pt->pd)
		pd = (word >> (pt->bits + pt->shift)) & 3;
	m->powerdown = pd;
	if (!pd)
		m->dac = (word >> pt->shift) & ((1u << pt->bits) - 1);
}

/* Every byte clocked under one chip select, as the shift register sees them. */
static int emu_ad5446_spi_transfer(struct emu_chip *chip, const struct bus_spi_transfer *xfers,
				   int n)
{
	struct emu_ad5446 *m = emu_ad5446_from_chip(chip);
	uint8_t frame[8];
	size_t len = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (xfers[i].rx_buf)
			memset(xfers[i].rx_buf, 0, xfers[i].len);	/* no SDO pin */
		if (xfers[i].tx_buf && len + xfers[i].len <= sizeof(frame))
			memcpy(frame + len, xfers[i].tx_buf, xfers[i].len);
		len += xfers[i].len;
	}
	if (len <= sizeof(frame))
		emu_ad5446_word(m, frame, len);
	return 0;
}

static void emu_ad5446_i2c_write(struct emu_chip *chip, const uint8_t *buf, int len)
{
	emu_ad5446_word(emu_ad5446_from_chip(chip), buf, (size_t)len);
}

static void emu_ad5446_i2c_read(struct emu_chip *chip, uint8_t *buf, int len)
{
	struct emu_ad5446 *m = emu_ad5446_from_chip(chip);
	int i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(i % 2 ? m->word : m->word >> 8);
}

static int emu_ad5446_dac_output(struct emu_chip *chip, int channel, struct emu_dac_state *out)
{
	struct emu_ad5446 *m = emu_ad5446_from_chip(chip);
	double ref = m->part->int_mv;

	if (channel != 0)
		return -ENODEV;
	if (!ref)
		ref = emu_signal_sample(&m->vref, emu_chip_now(chip));
	return emu_dac_fill(out, m->dac, m->powerdown, ref, m->part->bits);
}

static const struct emu_chip_ops emu_ad5446_ops = {
	.i2c_transfer = emu_chip_i2c_rw,
	.i2c_read = emu_ad5446_i2c_read,
	.i2c_write = emu_ad5446_i2c_write,
	.spi_transfer = emu_ad5446_spi_transfer,
	.destroy = emu_chip_free,
	.dac_output = emu_ad5446_dac_output,
};

/* Power-on: code 0, output on (the datasheets' power-on reset to zero scale). */
static int emu_ad5446_create(const struct emu_params *p, struct emu_chip **out, char *err,
			     size_t errlen)
{
	struct emu_input_slot vref = { "VREF", NULL, NULL };
	struct emu_ad5446 *m;
	const char *bad = "";
	int part, ret;

	part = emu_params_part(p, EMU_AD5446_NPARTS, "an AD5446-family part", err, errlen);
	if (part < 0)
		return part;
	m = emu_chip_alloc(sizeof(*m), &emu_ad5446_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->part = &emu_ad5446_parts[part];
	m->chip.inputs = &m->vref;
	m->chip.ninputs = 1;
	m->vref.value = p->vref_mv;
	vref.sig = &m->vref;
	ret = emu_inputs_take(p, &vref, 1, &bad);
	if (ret == -EINVAL)
		snprintf(err, errlen, "%s: no input '%s' (inputs: VREF)", m->chip.name, bad);
	else if (ret)
		snprintf(err, errlen, "%s: out of memory for input %s", m->chip.name, bad);
	return emu_chip_done(&m->chip, ret, out);
}

static const struct emu_model emu_ad5446_model = {
	.name = "ad5446",
	.id_table = emu_ad5446_ids,
	.create = emu_ad5446_create,
};
EMU_MODEL_REGISTER(emu_ad5446_model);
