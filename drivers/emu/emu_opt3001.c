/*
 * emu_opt3001.c - register-level model of the TI OPT3001 ambient light
 * sensor, from the datasheet's register map and comparison modes.
 *
 * A write of [pointer] selects a register, [pointer, MSB, LSB] writes it; a
 * read returns the selected register MSB first (SMBus words byte-swapped,
 * as the kernel's _swapped calls expect). Registers: RESULT 0x00 (E[15:12],
 * R[11:0], lux = 0.01 x 2^E x R), CONFIGURATION 0x01 (reset 0xc810), LOW
 * LIMIT 0x02 (reset 0xc000), HIGH LIMIT 0x03 (reset 0xbfff), manufacturer
 * ID 0x7e (0x5449, "TI"), device ID 0x7f (0x3001); other pointers read 0.
 * Conversions take 100 ms (CT 0) or 800 ms (CT 1); M = 01 makes one and
 * returns to shutdown, M = 1x converts back to back. At each end: RESULT
 * (automatic range RN = 12: the smallest exponent whose 40.95 x 2^E lux
 * holds the light; RN 0..11 fixes E, with OVF past it; ME hides E in
 * RESULT for a fixed range), CRF set, and the comparison with the limits:
 * a result above HIGH (below LOW) for FC's 1/2/4/8 conversions in a row
 * sets FH (FL). Latched mode (L = 1) keeps them, and INT active, until
 * CONFIGURATION is read; transparent mode (L = 0) sets FH above HIGH and
 * clears it below LOW, with INT following FH (FL mirrors it) [hedge:
 * datasheet, FL in transparent mode]. With LOW LIMIT's top two exponent
 * bits set, INT instead reports every conversion's end (until CONFIGURATION
 * is read or written) and LOW is not compared. Reading CONFIGURATION
 * clears CRF; so does writing it with M other than shutdown.
 * INT is the board's "irq": "emulated" line, asserted while active (low,
 * or high with POL). Input "illuminance", in lux.
 * Place in the flow: *chip* -> bus -> driver.
 * Must not: call drivers or the core, sleep, or keep global state.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_OPT3001_REG_RESULT		0x00
#define EMU_OPT3001_REG_CONFIG		0x01
#define EMU_OPT3001_REG_LOW		0x02
#define EMU_OPT3001_REG_HIGH		0x03
#define EMU_OPT3001_REG_MANUF		0x7e
#define EMU_OPT3001_REG_DEVICE		0x7f

#define EMU_OPT3001_MANUF_ID		0x5449
#define EMU_OPT3001_DEVICE_ID		0x3001
#define EMU_OPT3001_CONFIG_RESET	0xc810
#define EMU_OPT3001_LOW_RESET		0xc000
#define EMU_OPT3001_HIGH_RESET		0xbfff

#define EMU_OPT3001_RN			GENMASK(15, 12)
#define EMU_OPT3001_CT			BIT(11)
#define EMU_OPT3001_M			GENMASK(10, 9)
#define EMU_OPT3001_OVF			BIT(8)
#define EMU_OPT3001_CRF			BIT(7)
#define EMU_OPT3001_FH			BIT(6)
#define EMU_OPT3001_FL			BIT(5)
#define EMU_OPT3001_L			BIT(4)
#define EMU_OPT3001_POL			BIT(3)
#define EMU_OPT3001_ME			BIT(2)
#define EMU_OPT3001_FC			GENMASK(1, 0)
/* OVF, CRF, FH and FL are the chip's; a write keeps them */
#define EMU_OPT3001_FLAGS		GENMASK(8, 5)

#define EMU_OPT3001_M_SHUTDOWN		0
#define EMU_OPT3001_M_SINGLE		1
#define EMU_OPT3001_RN_AUTO		12
#define EMU_OPT3001_E_MAX		11
#define EMU_OPT3001_R_MAX		4095
#define EMU_OPT3001_LSB_LUX		0.01
/* LOW LIMIT exponents 12..15 (top bits 11): end-of-conversion reporting */
#define EMU_OPT3001_EOC_EXPONENT	12

/* conversions caught up at once at most (a test that jumps the clock) */
#define EMU_OPT3001_CATCHUP		64.0

static const struct iio_device_id emu_opt3001_ids[] = {
	{ "opt3001", 0 },
	{ NULL, 0 }
};

/*
 * struct emu_opt3001 - one chip; the bus serialises transfers, so no lock.
 * @end_s: when the conversion under way ends (while M is not shutdown).
 * @over/@under: conversions in a row above HIGH / below LOW.
 * @eoc: an end-of-conversion report is pending on INT.
 * @int_active: the window comparison drives INT active.
 */
struct emu_opt3001 {
	struct emu_chip chip;
	struct emu_signal lux;
	uint8_t ptr;
	uint16_t config, low, high, result;
	double end_s;
	unsigned int over, under;
	bool eoc;
	bool int_active;
};

static struct emu_opt3001 *emu_opt3001_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_opt3001, chip);
}

static double emu_opt3001_conv_s(const struct emu_opt3001 *m)
{
	return m->config & EMU_OPT3001_CT ? 0.8 : 0.1;
}

/* E and R of @lux in the configured range; *ovf when it does not fit. */
static uint16_t emu_opt3001_encode(const struct emu_opt3001 *m, double lux, bool *ovf)
{
	unsigned int rn = FIELD_GET(EMU_OPT3001_RN, m->config), e = 0;
	double r;

	if (!(lux > 0.0))
		lux = 0.0;
	if (rn <= EMU_OPT3001_E_MAX)
		e = rn;
	else
		while (e < EMU_OPT3001_E_MAX &&
		       lux > EMU_OPT3001_LSB_LUX * EMU_OPT3001_R_MAX * (double)(1U << e))
			e++;
	/* a converter truncates; the epsilon absorbs binary fractions */
	r = floor(lux / (EMU_OPT3001_LSB_LUX * (double)(1U << e)) + 1e-7);
	*ovf = r > EMU_OPT3001_R_MAX;
	if (*ovf)
		r = EMU_OPT3001_R_MAX;
	return (uint16_t)(e << 12 | (unsigned int)r);
}

/* A register in E/R form as 0.01-lux steps, for comparing. */
static uint32_t emu_opt3001_steps(uint16_t reg)
{
	return (uint32_t)(reg & 0xfff) << (reg >> 12);
}

static void emu_opt3001_flag(struct emu_opt3001 *m, uint16_t flag, bool on)
{
	m->config = (uint16_t)(on ? m->config | flag : m->config & ~flag);
}

/* The window comparison after a conversion, by FC, L and the EOC setting. */
static void emu_opt3001_compare(struct emu_opt3001 *m, uint16_t raw)
{
	static const unsigned int faults[] = { 1, 2, 4, 8 };
	unsigned int need = faults[FIELD_GET(EMU_OPT3001_FC, m->config)];
	bool eoc = (m->low >> 12) >= EMU_OPT3001_EOC_EXPONENT;
	uint32_t v = emu_opt3001_steps(raw);

	m->over = v > emu_opt3001_steps(m->high) ? m->over + 1 : 0;
	m->under = !eoc && v < emu_opt3001_steps(m->low) ? m->under + 1 : 0;
	if (eoc)
		m->eoc = true;
	if (m->config & EMU_OPT3001_L) {
		if (m->over >= need)
			emu_opt3001_flag(m, EMU_OPT3001_FH, true);
		if (m->under >= need)
			emu_opt3001_flag(m, EMU_OPT3001_FL, true);
		m->int_active = m->config & (EMU_OPT3001_FH | EMU_OPT3001_FL);
		return;
	}
	if (m->over >= need) {
		emu_opt3001_flag(m, EMU_OPT3001_FH, true);
		emu_opt3001_flag(m, EMU_OPT3001_FL, false);
	} else if (m->under >= need) {
		emu_opt3001_flag(m, EMU_OPT3001_FH, false);
		emu_opt3001_flag(m, EMU_OPT3001_FL, true);
	}
	m->int_active = m->config & EMU_OPT3001_FH;
}

/* One conversion ended at @t_s: RESULT, the flags, and single-shot's return to shutdown. */
static void emu_opt3001_convert(struct emu_opt3001 *m, double t_s)
{
	bool ovf;
	uint16_t raw = emu_opt3001_encode(m, emu_signal_sample(&m->lux, t_s), &ovf);

	/* what is compared has its exponent, whatever ME hides in RESULT */
	m->result = raw;
	if ((m->config & EMU_OPT3001_ME) &&
	    FIELD_GET(EMU_OPT3001_RN, m->config) <= EMU_OPT3001_E_MAX)
		m->result &= 0xfff;
	emu_opt3001_flag(m, EMU_OPT3001_OVF, ovf);
	emu_opt3001_flag(m, EMU_OPT3001_CRF, true);
	emu_opt3001_compare(m, raw);
	if (FIELD_GET(EMU_OPT3001_M, m->config) == EMU_OPT3001_M_SINGLE)
		m->config &= (uint16_t)~EMU_OPT3001_M;
}

/* Every conversion that has ended by @now. */
static void emu_opt3001_update(struct emu_opt3001 *m, double now)
{
	double k;

	if (now < m->end_s - emu_opt3001_conv_s(m)) {
		/* a test moved the clock back: start over from there */
		m->end_s = now + emu_opt3001_conv_s(m);
		return;
	}
	for (k = 0.0; k < EMU_OPT3001_CATCHUP; k += 1.0) {
		if (FIELD_GET(EMU_OPT3001_M, m->config) == EMU_OPT3001_M_SHUTDOWN ||
		    now + 1e-9 < m->end_s)
			return;
		emu_opt3001_convert(m, m->end_s);
		m->end_s += emu_opt3001_conv_s(m);
	}
	/* too far behind: the rest are skipped, the next ends a period from now */
	m->end_s = now + emu_opt3001_conv_s(m);
}

/* A read of the selected register; CONFIGURATION's read clears what it reports. */
static uint16_t emu_opt3001_reg_read(struct emu_opt3001 *m)
{
	uint16_t v;

	switch (m->ptr) {
	case EMU_OPT3001_REG_RESULT:
		return m->result;
	case EMU_OPT3001_REG_CONFIG:
		v = m->config;
		m->config &= (uint16_t)~EMU_OPT3001_CRF;
		m->eoc = false;
		if (m->config & EMU_OPT3001_L) {
			m->config &= (uint16_t)~(EMU_OPT3001_FH | EMU_OPT3001_FL);
			m->int_active = false;
		}
		return v;
	case EMU_OPT3001_REG_LOW:
		return m->low;
	case EMU_OPT3001_REG_HIGH:
		return m->high;
	case EMU_OPT3001_REG_MANUF:
		return EMU_OPT3001_MANUF_ID;
	case EMU_OPT3001_REG_DEVICE:
		return EMU_OPT3001_DEVICE_ID;
	default:
		return 0;
	}
}

/*
 * CONFIGURATION written: the flags stay the chip's; a mode other than
 * shutdown clears CRF and the EOC report, and starts a conversion when it
 * asks for one (single shot) or when conversions were not running.
 */
static void emu_opt3001_write_config(struct emu_opt3001 *m, uint16_t val, double now)
{
	unsigned int old_m = FIELD_GET(EMU_OPT3001_M, m->config);
	unsigned int new_m = FIELD_GET(EMU_OPT3001_M, val);

	m->config = (uint16_t)((m->config & EMU_OPT3001_FLAGS) | (val & ~EMU_OPT3001_FLAGS));
	if (new_m == EMU_OPT3001_M_SHUTDOWN)
		return;
	m->config &= (uint16_t)~EMU_OPT3001_CRF;
	m->eoc = false;
	if (new_m == EMU_OPT3001_M_SINGLE || old_m == EMU_OPT3001_M_SHUTDOWN ||
	    old_m == EMU_OPT3001_M_SINGLE) {
		m->end_s = now + emu_opt3001_conv_s(m);
		m->over = 0;
		m->under = 0;
	}
}

static void emu_opt3001_reg_write(struct emu_opt3001 *m, uint16_t val, double now)
{
	switch (m->ptr) {
	case EMU_OPT3001_REG_CONFIG:
		emu_opt3001_write_config(m, val, now);
		break;
	case EMU_OPT3001_REG_LOW:
		m->low = val;
		break;
	case EMU_OPT3001_REG_HIGH:
		m->high = val;
		break;
	default:
		break;	/* RESULT and the IDs are read-only */
	}
}

/*
 * One transaction: a write's first byte is the pointer, two more write the
 * register MSB first (a lone data byte is dropped); a read returns the
 * selected register MSB first, over again for longer reads.
 */
static int emu_opt3001_i2c_transfer(struct emu_chip *chip, struct bus_i2c_msg *msgs, int n)
{
	struct emu_opt3001 *m = emu_opt3001_from_chip(chip);
	double now = emu_chip_now(chip);
	uint16_t v;
	int i, j;

	emu_opt3001_update(m, now);
	for (i = 0; i < n; i++) {
		struct bus_i2c_msg *msg = &msgs[i];

		if (msg->flags & BUS_I2C_M_RD) {
			v = emu_opt3001_reg_read(m);
			for (j = 0; j < msg->len; j++)
				msg->buf[j] = (uint8_t)(j % 2 ? v : v >> 8);
			continue;
		}
		if (msg->len == 0)
			continue;	/* SMBus quick command: address ACK only */
		m->ptr = msg->buf[0];
		if (msg->len >= 3)
			emu_opt3001_reg_write(m, (uint16_t)(msg->buf[1] << 8 | msg->buf[2]), now);
	}
	return n;
}

/* INT: active while a latched or transparent flag or an EOC report drives it. */
static enum emu_irq_state emu_opt3001_irq_level(struct emu_chip *chip)
{
	struct emu_opt3001 *m = emu_opt3001_from_chip(chip);

	emu_opt3001_update(m, emu_chip_now(chip));
	if (m->int_active || m->eoc)
		return EMU_IRQ_ASSERTED;
	if (FIELD_GET(EMU_OPT3001_M, m->config) == EMU_OPT3001_M_SHUTDOWN)
		return EMU_IRQ_DISABLED;
	return EMU_IRQ_LOW;
}

static const struct emu_chip_ops emu_opt3001_ops = {
	.i2c_transfer = emu_opt3001_i2c_transfer,
	.destroy = emu_chip_free,
	.irq_level = emu_opt3001_irq_level,
};

/* emu_opt3001_create() - the chip at power-on: shut down, reset register values. */
static int emu_opt3001_create(const struct emu_params *p, struct emu_chip **out, char *err,
			      size_t errlen)
{
	struct emu_opt3001 *m;
	int ret;

	if (emu_params_part(p, 1, "an OPT3001", err, errlen) < 0)
		return -EINVAL;
	m = emu_chip_alloc(sizeof(*m), &emu_opt3001_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = &m->lux;
	m->chip.ninputs = 1;
	m->config = EMU_OPT3001_CONFIG_RESET;
	m->low = EMU_OPT3001_LOW_RESET;
	m->high = EMU_OPT3001_HIGH_RESET;
	ret = emu_inputs_take_one(p, p->id->name, "illuminance", "in lux", &m->lux, err, errlen);
	return emu_chip_done(&m->chip, ret, out);
}

static const struct emu_model emu_opt3001_model = {
	.name = "opt3001",
	.id_table = emu_opt3001_ids,
	.create = emu_opt3001_create,
};
EMU_MODEL_REGISTER(emu_opt3001_model);
