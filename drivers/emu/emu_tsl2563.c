/*
 * emu_tsl2563.c - register-level model of the TAOS TSL2560/1/2/3 light sensors.
 *
 * Answers I2C transactions the way the chip does: a byte with bit 7 set is
 * the COMMAND byte (register in bits 3:0, bit 6 clears the interrupt), later
 * bytes of the same transaction write or read consecutive registers, so the
 * SMBus byte, word (little endian) and send-byte forms all work. CONTROL
 * powers the ADCs; TIMING sets gain (1x/16x) and integration (13.7/101/402
 * ms); DATA0/DATA1 latch a conversion at the end of every integration period
 * of the bus's virtual clock, and read 0 while powered down.
 * The INT output (level mode: DATA0 outside the threshold window for
 * PERSIST integrations, or every one with PERSIST 0) is the board's
 * "irq": "emulated" line, held until a COMMAND byte with CLEAR.
 * Place in the flow: *chip* -> bus -> driver. Inputs "broadband" and "ir"
 * are counts as the chip would give them at 402 ms and 16x.
 * Must not: call drivers or the core, sleep, or keep global state.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_TSL2563_CMD			0x80
#define EMU_TSL2563_CMD_CLEAR		0x40
#define EMU_TSL2563_CMD_REG_MASK	0x0f

#define EMU_TSL2563_REG_CONTROL		0x0
#define EMU_TSL2563_REG_TIMING		0x1
#define EMU_TSL2563_REG_THRESHLOWLOW	0x2
#define EMU_TSL2563_REG_THRESHHIGHHIGH	0x5
#define EMU_TSL2563_REG_INTERRUPT	0x6
#define EMU_TSL2563_REG_ID		0xa
#define EMU_TSL2563_REG_DATA0LOW	0xc
#define EMU_TSL2563_REG_DATA1HIGH	0xf
#define EMU_TSL2563_NREGS		16

#define EMU_TSL2563_POWER_MASK		0x03
#define EMU_TSL2563_POWER_ON		0x03
#define EMU_TSL2563_TIMING_GAIN16	0x10
#define EMU_TSL2563_TIMING_MANUAL	0x08
#define EMU_TSL2563_TIMING_INTEG_MASK	0x03
#define EMU_TSL2563_TIMING_WRITABLE	0x1b
#define EMU_TSL2563_TIMING_DEFAULT	0x02	/* datasheet power-on value: 402 ms, 1x */
#define EMU_TSL2563_INT_WRITABLE	0x3f
#define EMU_TSL2563_INTR_LEVEL		0x10
#define EMU_TSL2563_INTR_MASK		0x30
#define EMU_TSL2563_PERSIST_MASK	0x0f

/* The 16x gain is what the inputs are expressed at; 1x divides by this. */
#define EMU_TSL2563_GAIN_RATIO		16.0

/*
 * Integration settings. The counts scale with the number of internal
 * oscillator periods the ADC integrates: 322 at 402 ms, 81 at 101 ms and 11
 * at 13.7 ms (the datasheet's lux-formula scale factors 322/81 and 322/11).
 * The short integrations also clip below 65535, because the counter cannot
 * count faster than the 402 ms full scale allows (datasheet: 5047 and 37177).
 */
struct emu_tsl2563_integ {
	double period_s;
	double ticks;		/* of 322 at the nominal 402 ms */
	unsigned int max_count;
};

static const struct emu_tsl2563_integ emu_tsl2563_integs[] = {
	[0] = { .period_s = 0.0137, .ticks = 11.0, .max_count = 5047 },
	[1] = { .period_s = 0.101, .ticks = 81.0, .max_count = 37177 },
	[2] = { .period_s = 0.402, .ticks = 322.0, .max_count = 65535 },
};

#define EMU_TSL2563_FULL_TICKS		322.0

/* integrations caught up at once at most (a test that jumps the clock); older ones are skipped */
#define EMU_TSL2563_CATCHUP		64.0

/* Input keys: the documented names first, then the ABI stems they feed. */
enum emu_tsl2563_input {
	EMU_TSL2563_IN_BROADBAND,
	EMU_TSL2563_IN_IR,
	EMU_TSL2563_IN_COUNT
};

struct emu_tsl2563_key {
	const char *key;
	enum emu_tsl2563_input input;
};

static const struct emu_tsl2563_key emu_tsl2563_keys[] = {
	{ "broadband", EMU_TSL2563_IN_BROADBAND },
	{ "ir", EMU_TSL2563_IN_IR },
	{ "intensity_both", EMU_TSL2563_IN_BROADBAND },
	{ "intensity_ir", EMU_TSL2563_IN_IR },
};

#define EMU_TSL2563_NKEYS	((int)ARRAY_SIZE(emu_tsl2563_keys))

/*
 * Part numbers for the ID register (PARTNO in bits 7:4, REVNO 3:0), T/FN/CL
 * package. TSL2561 = 0x50 is what datasheet and common code agree on and
 * TSL2560 = 0x40 follows the same datasheet table; the TSL2562/3 values
 * continue that numbering and are not confirmed (the driver never checks).
 */
static const struct iio_device_id emu_tsl2563_ids[] = {
	{ "tsl2560", 0x40 },
	{ "tsl2561", 0x50 },
	{ "tsl2562", 0x60 },
	{ "tsl2563", 0x70 },
	{ NULL, 0 }
};

/*
 * struct emu_tsl2563 - one chip. The bus serialises every transfer, so no
 * lock: all fields are touched only from inside a transfer (or create).
 */
struct emu_tsl2563 {
	struct emu_chip chip;
	struct emu_signal in[EMU_TSL2563_IN_COUNT];	/* owned copies */
	uint8_t regs[EMU_TSL2563_NREGS];
	uint8_t ptr;			/* register selected by the last COMMAND byte */
	bool powered;
	double cycle_start_s;		/* start of the integration under way */
	uint16_t data0, data1;		/* latched by the last finished integration */
	unsigned int persist_count;	/* consecutive out-of-window cycles */
	bool irq_pending;		/* the level INT line; cleared by CMD|CLEAR */
};

static struct emu_tsl2563 *emu_tsl2563_from_chip(struct emu_chip *chip)
{
	return (struct emu_tsl2563 *)chip;
}

/* Counts one channel gives for input @value with the current TIMING. */
static uint16_t emu_tsl2563_counts(double value, uint8_t timing)
{
	const struct emu_tsl2563_integ *integ;
	double counts;

	integ = &emu_tsl2563_integs[timing & EMU_TSL2563_TIMING_INTEG_MASK];
	counts = value * integ->ticks / EMU_TSL2563_FULL_TICKS;
	if (!(timing & EMU_TSL2563_TIMING_GAIN16))
		counts /= EMU_TSL2563_GAIN_RATIO;
	/* an integrating counter truncates; the epsilon absorbs binary fractions */
	counts = floor(counts + 1e-7);
	if (!(counts > 0.0))
		return 0;
	if (counts >= integ->max_count)
		return (uint16_t)integ->max_count;
	return (uint16_t)counts;
}

/* The interrupt logic of the datasheet: level mode, channel 0 against the window. */
static void emu_tsl2563_check_irq(struct emu_tsl2563 *st)
{
	uint8_t intr = st->regs[EMU_TSL2563_REG_INTERRUPT];
	uint16_t low = st->regs[2] | (st->regs[3] << 8);
	uint16_t high = st->regs[4] | (st->regs[5] << 8);
	unsigned int persist = intr & EMU_TSL2563_PERSIST_MASK;

	if ((intr & EMU_TSL2563_INTR_MASK) != EMU_TSL2563_INTR_LEVEL)
		return;
	/* PERSIST 0: every finished integration interrupts */
	if (persist == 0) {
		st->irq_pending = true;
		return;
	}
	if (st->data0 < low || st->data0 > high)
		st->persist_count++;
	else
		st->persist_count = 0;
	if (st->persist_count >= persist)
		st->irq_pending = true;
}

/*
 * Bring the data registers up to virtual time @now: every integration period
 * finished since the last call latches the inputs sampled at its end (and
 * counts for the interrupt; the registers keep the last one's). With
 * INTEG = 3 (manual) nothing finishes on its own; the model does not emulate
 * the MANUAL start/stop bit and simply keeps the last data.
 */
static void emu_tsl2563_update(struct emu_tsl2563 *st, double now)
{
	uint8_t timing = st->regs[EMU_TSL2563_REG_TIMING];
	const struct emu_tsl2563_integ *integ;
	double periods, end = 0.0, k;

	if (!st->powered || (timing & EMU_TSL2563_TIMING_INTEG_MASK) == 3)
		return;
	if (now < st->cycle_start_s) {
		/* a test moved the clock back: start over from there */
		st->cycle_start_s = now;
		return;
	}
	integ = &emu_tsl2563_integs[timing & EMU_TSL2563_TIMING_INTEG_MASK];
	/* the tolerance keeps a wait of exactly one period from missing it */
	periods = floor((now - st->cycle_start_s) / integ->period_s + 1e-9);
	if (periods < 1.0)
		return;
	/* each finished integration counts for the interrupt's persistence */
	if (periods > EMU_TSL2563_CATCHUP)
		st->cycle_start_s += (periods - EMU_TSL2563_CATCHUP) * integ->period_s;
	for (k = 1.0; k <= fmin(periods, EMU_TSL2563_CATCHUP); k += 1.0) {
		end = st->cycle_start_s + k * integ->period_s;
		st->data0 = emu_tsl2563_counts(
			emu_signal_sample(&st->in[EMU_TSL2563_IN_BROADBAND], end), timing);
		st->data1 = emu_tsl2563_counts(
			emu_signal_sample(&st->in[EMU_TSL2563_IN_IR], end), timing);
		emu_tsl2563_check_irq(st);
	}
	st->cycle_start_s = end;
}

static uint8_t emu_tsl2563_reg_read(struct emu_tsl2563 *st, uint8_t reg)
{
	switch (reg) {
	case EMU_TSL2563_REG_CONTROL:
		return st->regs[reg] & EMU_TSL2563_POWER_MASK;
	case EMU_TSL2563_REG_DATA0LOW:
		return st->powered ? st->data0 & 0xff : 0;
	case EMU_TSL2563_REG_DATA0LOW + 1:
		return st->powered ? st->data0 >> 8 : 0;
	case EMU_TSL2563_REG_DATA1HIGH - 1:
		return st->powered ? st->data1 & 0xff : 0;
	case EMU_TSL2563_REG_DATA1HIGH:
		return st->powered ? st->data1 >> 8 : 0;
	default:
		/* reserved registers (7, 8, 9, 0xb) hold 0 and ignore writes */
		return st->regs[reg];
	}
}

static void emu_tsl2563_reg_write(struct emu_tsl2563 *st, uint8_t reg, uint8_t val, double now)
{
	bool on;

	switch (reg) {
	case EMU_TSL2563_REG_CONTROL:
		st->regs[reg] = val & EMU_TSL2563_POWER_MASK;
		on = (val & EMU_TSL2563_POWER_MASK) == EMU_TSL2563_POWER_ON;
		if (on && !st->powered) {
			/* the first integration starts now; until it ends DATA reads 0 */
			st->cycle_start_s = now;
			st->data0 = 0;
			st->data1 = 0;
			st->persist_count = 0;
		}
		st->powered = on;
		break;
	case EMU_TSL2563_REG_TIMING:
		val &= EMU_TSL2563_TIMING_WRITABLE;
		if (val != st->regs[reg]) {
			/* a new gain or time restarts the integration; old data stays latched */
			st->regs[reg] = val;
			st->cycle_start_s = now;
		}
		break;
	case EMU_TSL2563_REG_THRESHLOWLOW ... EMU_TSL2563_REG_THRESHHIGHHIGH:
		st->regs[reg] = val;
		break;
	case EMU_TSL2563_REG_INTERRUPT:
		st->regs[reg] = val & EMU_TSL2563_INT_WRITABLE;
		st->persist_count = 0;
		break;
	default:
		/* ID, data and reserved registers are read-only */
		break;
	}
}

/* A COMMAND byte: select the register; CLEAR drops the pending interrupt. */
static void emu_tsl2563_command(struct emu_tsl2563 *st, uint8_t cmd)
{
	st->ptr = cmd & EMU_TSL2563_CMD_REG_MASK;
	if (cmd & EMU_TSL2563_CMD_CLEAR)
		st->irq_pending = false;
}

/*
 * One combined transaction. A write message starts with the COMMAND byte
 * (a first byte without bit 7 is refused with a NACK: the datasheet gives
 * it no meaning); further bytes go to consecutive registers. A read message
 * returns consecutive registers from the selected one, so an SMBus word read
 * of DATA0LOW gets the low byte first. The register pointer stays selected
 * across transactions ("receive byte" reads it again).
 */
static int emu_tsl2563_i2c_transfer(struct emu_chip *chip, struct bus_i2c_msg *msgs, int n)
{
	struct emu_tsl2563 *st = emu_tsl2563_from_chip(chip);
	double now = emu_chip_now(chip);
	int i, j;

	emu_tsl2563_update(st, now);
	for (i = 0; i < n; i++) {
		struct bus_i2c_msg *m = &msgs[i];

		if (m->flags & BUS_I2C_M_RD) {
			for (j = 0; j < m->len; j++) {
				m->buf[j] = emu_tsl2563_reg_read(st, st->ptr);
				st->ptr = (st->ptr + 1) & EMU_TSL2563_CMD_REG_MASK;
			}
			continue;
		}
		if (m->len == 0)
			continue;	/* SMBus quick command: address ACK only */
		if (!(m->buf[0] & EMU_TSL2563_CMD))
			return -ENXIO;
		emu_tsl2563_command(st, m->buf[0]);
		for (j = 1; j < m->len; j++) {
			emu_tsl2563_reg_write(st, st->ptr, m->buf[j], now);
			st->ptr = (st->ptr + 1) & EMU_TSL2563_CMD_REG_MASK;
		}
	}
	return n;
}

/* INT: the level output, brought up to now; held until a COMMAND with CLEAR. */
static enum emu_irq_state emu_tsl2563_irq_level(struct emu_chip *chip)
{
	struct emu_tsl2563 *st = emu_tsl2563_from_chip(chip);

	emu_tsl2563_update(st, emu_chip_now(chip));
	if (st->irq_pending)
		return EMU_IRQ_ASSERTED;
	/* a pending INT outlives its enable (held until CLEAR), so only then off */
	if ((st->regs[EMU_TSL2563_REG_INTERRUPT] & EMU_TSL2563_INTR_MASK) !=
	    EMU_TSL2563_INTR_LEVEL)
		return EMU_IRQ_DISABLED;
	return EMU_IRQ_LOW;
}

static const struct emu_chip_ops emu_tsl2563_ops = {
	.i2c_transfer = emu_tsl2563_i2c_transfer,
	.destroy = emu_chip_free,
	.irq_level = emu_tsl2563_irq_level,
};

/*
 * emu_tsl2563_create() - a chip in its power-on state: powered down, TIMING
 * 402 ms at 1x, thresholds and interrupt 0, ID by part. Inputs that are not
 * given read 0 counts.
 */
static int emu_tsl2563_create(const struct emu_params *p, struct emu_chip **out,
			      char *err, size_t errlen)
{
	struct emu_input_slot slots[ARRAY_SIZE(emu_tsl2563_keys)];
	const struct iio_device_id *id = p->id;
	const char *bad = "";
	struct emu_tsl2563 *st;
	int i, ret;

	if (!id)
		emu_model_find(p->name, &id);
	if (!id) {
		snprintf(err, errlen, "tsl2563 model: unknown part \"%s\"", p->name);
		return -EINVAL;
	}
	/* zeroed: every input a constant 0 counts */
	st = emu_chip_alloc(sizeof(*st), &emu_tsl2563_ops, id->name);
	if (!st)
		return -ENOMEM;
	st->chip.inputs = st->in;
	st->chip.ninputs = EMU_TSL2563_IN_COUNT;
	for (i = 0; i < EMU_TSL2563_NKEYS; i++)
		slots[i] = (struct emu_input_slot){ emu_tsl2563_keys[i].key,
						    &st->in[emu_tsl2563_keys[i].input], NULL };
	ret = emu_inputs_take(p, slots, EMU_TSL2563_NKEYS, &bad);
	if (ret == -EINVAL)
		snprintf(err, errlen, "%s: unknown input \"%s\" (valid: broadband, ir, "
			 "intensity_both, intensity_ir; counts at 402 ms and 16x)", id->name, bad);
	else if (ret)
		snprintf(err, errlen, "%s: out of memory copying inputs", id->name);
	st->regs[EMU_TSL2563_REG_TIMING] = EMU_TSL2563_TIMING_DEFAULT;
	st->regs[EMU_TSL2563_REG_ID] = (uint8_t)id->driver_data;
	return emu_chip_done(&st->chip, ret, out);
}

static const struct emu_model emu_tsl2563_model = {
	.name = "tsl2563",
	.id_table = emu_tsl2563_ids,
	.create = emu_tsl2563_create,
};
EMU_MODEL_REGISTER(emu_tsl2563_model);
