/*
 * emu_adis16400.c - register-level model of the ADIS16400 family of IMUs
 * (adis16300/05, 16334, 16350/54/55, 16360/62/64/65/67, 16400/05, 16445, 16448).
 *
 * Speaks the family's SPI protocol: every 16-bit frame is a command; a read
 * command (bit 7 clear, address in bits 6:0) makes the chip shift that
 * register out, MSB first, during the *next* frame; a write command (bit 7
 * set) stores its second byte into one byte of a register (even address =
 * low byte). Output registers carry new-data (bit 15) and error/alarm (bit
 * 14) flags above the sample on parts with 14-bit or narrower outputs.
 * PRODUCT_ID, SMPL_PRD, SENS_AVG, MSC_CTRL, DIAG_STAT, GLOB_CMD, SLP_CNT
 * and the offset registers behave as the datasheets describe. A read of
 * GLOB_CMD with chip select held is a burst: the next transfer gets every
 * output at once (see enum emu_adis16400_burst).
 * Place in the flow: *chip* -> bus -> driver. Inputs: see below.
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

/*
 * Inputs are keyed by the ABI stem of the channel they feed and given in the
 * ABI's processed unit: anglvel_x/y/z rad/s, accel_x/y/z m/s^2, magn_x/y/z
 * gauss, temp0 (or temp0_x/y/z) milli degrees C, voltage0_supply and
 * voltage1 (aux ADC) mV, incli_x/y degrees, pressure kPa. Two more drive the
 * chip's own state: "diag_stat" (the bits DIAG_STAT reports) and
 * "product_id" (what PRODUCT_ID reads, for a chip that is not what the board
 * says). A part takes only the inputs of the outputs it has.
 */

#define EMU_ADIS16400_WRITE		0x80
#define EMU_ADIS16400_ADDR_MASK		0x7f

#define EMU_ADIS16400_FLASH_CNT		0x00
#define EMU_ADIS16400_XGYRO_OFF		0x1a
#define EMU_ADIS16400_XACCL_OFF		0x20
#define EMU_ADIS16400_MSC_CTRL		0x34
#define EMU_ADIS16400_SMPL_PRD		0x36
#define EMU_ADIS16400_SENS_AVG		0x38
#define EMU_ADIS16400_SLP_CNT		0x3a
#define EMU_ADIS16400_DIAG_STAT		0x3c
#define EMU_ADIS16400_GLOB_CMD		0x3e
#define EMU_ADIS16400_AUX_DAC		0x4a
#define EMU_ADIS16400_LOT_ID1		0x52
#define EMU_ADIS16400_LOT_ID2		0x54
#define EMU_ADIS16400_PRODUCT_ID	0x56
#define EMU_ADIS16400_SERIAL_NUMBER	0x58
/* 16-bit registers at byte addresses 0x00..0x5e */
#define EMU_ADIS16400_NREGS		0x30

#define EMU_ADIS16400_ND		0x8000	/* new data since the last read */
#define EMU_ADIS16400_EA		0x4000	/* an error flag is set in DIAG_STAT */

#define EMU_ADIS16400_MSC_MEM_TEST	0x0800
#define EMU_ADIS16400_MSC_INT_SELF_TEST	0x0400
#define EMU_ADIS16400_GLOB_SW_RESET	0x80
#define EMU_ADIS16400_GLOB_FLASH_UPD	0x08
#define EMU_ADIS16400_GLOB_FAC_CALIB	0x02
#define EMU_ADIS16400_SMPL_TIME_BASE	0x80
#define EMU_ADIS16400_SMPL_NS_MASK	0x7f

/* Internal sample clock: 0.61035 ms or 18.921 ms time base; 819.2 SPS for 16334-style parts. */
#define EMU_ADIS16400_TB_FAST_HZ	1638.404
#define EMU_ADIS16400_TB_SLOW_HZ	52.851
#define EMU_ADIS16400_16334_HZ		819.2

/*
 * Fastest SCLK the chip follows: 2 MHz, but only 300 kHz while a 16400-style
 * part samples in its low-power range (divider >= 10 or the slow time base).
 */
#define EMU_ADIS16400_SCLK_MAX_HZ	2000000
#define EMU_ADIS16400_SCLK_LOW_POWER_HZ	300000
#define EMU_ADIS16400_LOW_POWER_NS	10

/* Timing comparisons allow for the rounding of the virtual clock's sums. */
#define EMU_ADIS16400_TIME_EPS_S	1e-6

#define EMU_ADIS16400_DEG		(3.14159265358979323846 / 180.0)
#define EMU_ADIS16400_G			9.80665

enum emu_adis16400_freq_style {
	EMU_ADIS16400_FREQ_16400,	/* SMPL_PRD = time base bit 7, divider 6:0 */
	EMU_ADIS16400_FREQ_16334,	/* SMPL_PRD = 819.2 SPS >> bits 15:8 */
};

/**
 * struct emu_adis16400_out - one output register.
 * @key: ABI stem of the input that feeds it.
 * @lsb: processed units per LSB (the datasheet sensitivity).
 * @zero: processed value at code 0 (25 or 31 degrees C for temperature).
 * @off_addr: offset register added inside the chip (calibbias), or 0.
 */
struct emu_adis16400_out {
	uint8_t addr;
	const char *key;
	uint8_t bits;
	bool is_signed;
	double lsb;
	double zero;
	uint8_t off_addr;
};

#define EMU_ADIS16400_OUT(a, k, b, s, l, z, o) \
	{ .addr = (a), .key = (k), .bits = (b), .is_signed = (s), .lsb = (l), .zero = (z), \
	  .off_addr = (o) }
#define EMU_ADIS16400_GYRO(a, k, b, dps, o) \
	EMU_ADIS16400_OUT(a, k, b, true, (dps) * EMU_ADIS16400_DEG, 0.0, o)
#define EMU_ADIS16400_ACCEL(a, k, b, mg, o) \
	EMU_ADIS16400_OUT(a, k, b, true, (mg) * 1e-3 * EMU_ADIS16400_G, 0.0, o)
#define EMU_ADIS16400_GYRO3(b, dps) \
	EMU_ADIS16400_GYRO(0x04, "anglvel_x", b, dps, 0x1a), \
	EMU_ADIS16400_GYRO(0x06, "anglvel_y", b, dps, 0x1c), \
	EMU_ADIS16400_GYRO(0x08, "anglvel_z", b, dps, 0x1e)
#define EMU_ADIS16400_ACCEL3(b, mg) \
	EMU_ADIS16400_ACCEL(0x0a, "accel_x", b, mg, 0x20), \
	EMU_ADIS16400_ACCEL(0x0c, "accel_y", b, mg, 0x22), \
	EMU_ADIS16400_ACCEL(0x0e, "accel_z", b, mg, 0x24)
/* magnetometers: 0.5 mgauss per LSB */
#define EMU_ADIS16400_MAGN3(b) \
	EMU_ADIS16400_OUT(0x10, "magn_x", b, true, 0.0005, 0.0, 0), \
	EMU_ADIS16400_OUT(0x12, "magn_y", b, true, 0.0005, 0.0, 0), \
	EMU_ADIS16400_OUT(0x14, "magn_z", b, true, 0.0005, 0.0, 0)
#define EMU_ADIS16400_TEMP(a, k, mc, zero_mc) \
	EMU_ADIS16400_OUT(a, k, 12, true, mc, zero_mc, 0)
/* power supply 2.418 mV and aux ADC 0.8058 mV per LSB, unsigned */
#define EMU_ADIS16400_SUPPLY(b) EMU_ADIS16400_OUT(0x02, "voltage0_supply", b, false, 2.418, 0.0, 0)
#define EMU_ADIS16400_AUX(a) EMU_ADIS16400_OUT(a, "voltage1", 12, false, 0.8058, 0.0, 0)

/* 16350/54/55 and 16360-16367: three gyro temperature sensors where 16400 has magnetometers */
#define EMU_ADIS16400_SET_C(dps, mg, mc) \
	EMU_ADIS16400_SUPPLY(12), EMU_ADIS16400_GYRO3(14, dps), EMU_ADIS16400_ACCEL3(14, mg), \
	EMU_ADIS16400_TEMP(0x10, "temp0_x", mc, 25000.0), \
	EMU_ADIS16400_TEMP(0x12, "temp0_y", mc, 25000.0), \
	EMU_ADIS16400_TEMP(0x14, "temp0_z", mc, 25000.0), \
	EMU_ADIS16400_AUX(0x16)

static const struct emu_adis16400_out emu_adis16400_outs_16300[] = {
	EMU_ADIS16400_SUPPLY(12),
	EMU_ADIS16400_GYRO(0x04, "anglvel_x", 14, 0.05, 0x1a),
	EMU_ADIS16400_ACCEL3(14, 0.6),
	EMU_ADIS16400_TEMP(0x10, "temp0", 140.0, 25000.0),
	/* pitch and roll: 13-bit, 0.044 degrees per LSB (datasheet value, unconfirmed) */
	EMU_ADIS16400_OUT(0x12, "incli_x", 13, true, 0.044, 0.0, 0),
	EMU_ADIS16400_OUT(0x14, "incli_y", 13, true, 0.044, 0.0, 0),
	EMU_ADIS16400_AUX(0x16),
};

static const struct emu_adis16400_out emu_adis16400_outs_16334[] = {
	EMU_ADIS16400_GYRO3(14, 0.05),
	EMU_ADIS16400_ACCEL3(14, 1.0),
	EMU_ADIS16400_TEMP(0x10, "temp0", 67.85, 25000.0),
};

static const struct emu_adis16400_out emu_adis16400_outs_16350[] = {
	EMU_ADIS16400_SET_C(0.07326, 2.522, 145.3),
};

static const struct emu_adis16400_out emu_adis16400_outs_16360[] = {
	EMU_ADIS16400_SET_C(0.05, 3.333, 136.0),
};

static const struct emu_adis16400_out emu_adis16400_outs_16362[] = {
	EMU_ADIS16400_SET_C(0.05, 0.333, 136.0),
};

static const struct emu_adis16400_out emu_adis16400_outs_16364[] = {
	EMU_ADIS16400_SET_C(0.05, 1.0, 136.0),
};

static const struct emu_adis16400_out emu_adis16400_outs_16367[] = {
	EMU_ADIS16400_SET_C(0.2, 3.333, 136.0),
};

static const struct emu_adis16400_out emu_adis16400_outs_16400[] = {
	EMU_ADIS16400_SUPPLY(14),
	EMU_ADIS16400_GYRO3(14, 0.05),
	EMU_ADIS16400_ACCEL3(14, 3.333),
	EMU_ADIS16400_MAGN3(14),
	EMU_ADIS16400_TEMP(0x16, "temp0", 140.0, 25000.0),
	EMU_ADIS16400_AUX(0x18),
};

static const struct emu_adis16400_out emu_adis16400_outs_16445[] = {
	EMU_ADIS16400_GYRO3(16, 0.01),
	EMU_ADIS16400_ACCEL3(16, 0.25),
	EMU_ADIS16400_TEMP(0x18, "temp0", 73.86, 31000.0),
};

static const struct emu_adis16400_out emu_adis16400_outs_16448[] = {
	EMU_ADIS16400_GYRO3(16, 0.04),
	EMU_ADIS16400_ACCEL3(16, 0.833),
	EMU_ADIS16400_MAGN3(16),
	/* barometer: 20 microbar = 0.002 kPa per LSB, unsigned (sea level is ~50660) */
	EMU_ADIS16400_OUT(0x16, "pressure", 16, false, 0.002, 0.0, 0),
	EMU_ADIS16400_TEMP(0x18, "temp0", 73.86, 31000.0),
};

/*
 * What a burst read sends [hedge: datasheets' burst tables, not read]: every
 * output in register order (the order of the outs tables), after DIAG_STAT on
 * the 16445/16448; zeros past the last output (set C's 11 words in the
 * kernel's 28-byte read). The 16334 and 1635x have no burst: the chip takes
 * the GLOB_CMD read as any other read.
 */
enum emu_adis16400_burst {
	EMU_ADIS16400_BURST_NONE,
	EMU_ADIS16400_BURST_OUTS,
	EMU_ADIS16400_BURST_DIAG,
};

/**
 * struct emu_adis16400_family - what parts sharing a register map share.
 * @wide: 16-bit outputs, which leave no room for the ND/EA flags.
 * @reset_ms/@self_test_ms: how long a software reset and the memory test
 *	keep the chip busy (the startup and test times the driver waits for).
 * @burst: what a burst read (a read of GLOB_CMD, chip select held) sends.
 */
struct emu_adis16400_family {
	const struct emu_adis16400_out *outs;
	int nouts;
	bool wide;
	enum emu_adis16400_burst burst;
	enum emu_adis16400_freq_style freq_style;
	unsigned int reset_ms;
	unsigned int self_test_ms;
};

#define EMU_ADIS16400_FAMILY(o, w, f, r, s, b) \
	{ .outs = (o), .nouts = (int)ARRAY_SIZE(o), .wide = (w), \
	  .freq_style = (f), .reset_ms = (r), .self_test_ms = (s), .burst = (b) }

enum {
	EMU_ADIS16400_FAM_16300,
	EMU_ADIS16400_FAM_16334,
	EMU_ADIS16400_FAM_16350,
	EMU_ADIS16400_FAM_16360,
	EMU_ADIS16400_FAM_16362,
	EMU_ADIS16400_FAM_16364,
	EMU_ADIS16400_FAM_16367,
	EMU_ADIS16400_FAM_16400,
	EMU_ADIS16400_FAM_16445,
	EMU_ADIS16400_FAM_16448,
};

/*
 * One family row: outputs, wide outputs, rate style, reset and self-test
 * times in ms, burst kind.
 */
#define EMU_ADIS16400_FAM(n, w, f, r, s, b)					\
	[EMU_ADIS16400_FAM_##n] = EMU_ADIS16400_FAMILY(emu_adis16400_outs_##n, w,	\
							EMU_ADIS16400_FREQ_##f, r, s,	\
							EMU_ADIS16400_BURST_##b)

static const struct emu_adis16400_family emu_adis16400_families[] = {
	EMU_ADIS16400_FAM(16300, false, 16400, 290, 290, OUTS),
	EMU_ADIS16400_FAM(16334, false, 16334, 60, 14, NONE),
	EMU_ADIS16400_FAM(16350, false, 16400, 290, 290, NONE),
	EMU_ADIS16400_FAM(16360, false, 16400, 290, 290, OUTS),
	EMU_ADIS16400_FAM(16362, false, 16400, 130, 12, OUTS),
	EMU_ADIS16400_FAM(16364, false, 16400, 130, 12, OUTS),
	EMU_ADIS16400_FAM(16367, false, 16400, 290, 290, OUTS),
	EMU_ADIS16400_FAM(16400, false, 16400, 170, 12, OUTS),
	EMU_ADIS16400_FAM(16445, true, 16334, 55, 16, DIAG),
	EMU_ADIS16400_FAM(16448, true, 16334, 90, 45, DIAG),
};

/* One part: its family and PRODUCT_ID (0: the part has no such register). */
struct emu_adis16400_part {
	int family;
	uint16_t prod_id;
};

static const struct emu_adis16400_part emu_adis16400_parts[] = {
	{ EMU_ADIS16400_FAM_16300, 16300 },
	{ EMU_ADIS16400_FAM_16300, 16305 },
	{ EMU_ADIS16400_FAM_16334, 16334 },
	{ EMU_ADIS16400_FAM_16350, 0 },
	{ EMU_ADIS16400_FAM_16350, 0 },
	{ EMU_ADIS16400_FAM_16350, 0 },
	{ EMU_ADIS16400_FAM_16360, 16360 },
	{ EMU_ADIS16400_FAM_16362, 16362 },
	{ EMU_ADIS16400_FAM_16364, 16364 },
	{ EMU_ADIS16400_FAM_16360, 16365 },
	{ EMU_ADIS16400_FAM_16367, 16367 },
	{ EMU_ADIS16400_FAM_16400, 16400 },
	{ EMU_ADIS16400_FAM_16400, 16405 },
	{ EMU_ADIS16400_FAM_16445, 16445 },
	{ EMU_ADIS16400_FAM_16448, 16448 },
};

/* driver_data: the row of emu_adis16400_parts[] */
static const struct iio_device_id emu_adis16400_ids[] = {
	{ "adis16300", 0 }, { "adis16305", 1 }, { "adis16334", 2 },
	{ "adis16350", 3 }, { "adis16354", 4 }, { "adis16355", 5 },
	{ "adis16360", 6 }, { "adis16362", 7 }, { "adis16364", 8 },
	{ "adis16365", 9 }, { "adis16367", 10 }, { "adis16400", 11 },
	{ "adis16405", 12 }, { "adis16445", 13 }, { "adis16448", 14 },
	{ NULL, 0 }
};

#define EMU_ADIS16400_MAX_OUTS	16

/* Power-on values of the registers a reset restores (from flash). */
#define EMU_ADIS16400_SMPL_PRD_DEFAULT	0x0001	/* 819.2 SPS on both clock styles */
#define EMU_ADIS16400_SENS_AVG_DEFAULT	0x0402	/* widest gyro range, 16 taps */
#define EMU_ADIS16400_MSC_CTRL_DEFAULT	0x0006	/* data ready on DIO1, active high */
/* Factory identification; arbitrary but fixed so tests can recognise them. */
#define EMU_ADIS16400_LOT1		0x1a2b
#define EMU_ADIS16400_LOT2		0x3c4d
#define EMU_ADIS16400_SERIAL		0x0042

/* The registers a user may write and flash keeps: offsets through AUX_DAC. */
#define EMU_ADIS16400_FLASH_FIRST	EMU_ADIS16400_XGYRO_OFF
#define EMU_ADIS16400_FLASH_LAST	EMU_ADIS16400_AUX_DAC

/**
 * struct emu_adis16400 - one chip. The bus serialises transfers, so no lock.
 * @in: one signal per output, parallel to family->outs (owned copies).
 * @flash: what a reset restores into the user registers.
 * @pending: the word the next frame shifts out (answer to the last read command).
 * @busy_until_s: virtual time until which a reset keeps the chip deaf.
 * @last_sample: per output, the sample index it was last read at (ND flag).
 */
struct emu_adis16400 {
	struct emu_chip chip;
	const struct emu_adis16400_family *fam;
	uint16_t prod_id;
	struct emu_signal in[EMU_ADIS16400_MAX_OUTS];
	struct emu_signal diag;
	struct emu_signal prod;
	bool have_diag;
	bool have_prod;
	uint16_t regs[EMU_ADIS16400_NREGS];
	uint16_t flash[EMU_ADIS16400_NREGS];
	uint16_t pending;
	double busy_until_s;
	double self_test_until_s;
	int64_t last_sample[EMU_ADIS16400_MAX_OUTS];
};

static struct emu_adis16400 *emu_adis16400_from_chip(struct emu_chip *chip)
{
	return (struct emu_adis16400 *)chip;
}

/* Output data rate set by SMPL_PRD, in Hz (0 when the divider stops it). */
static double emu_adis16400_rate_hz(const struct emu_adis16400 *st)
{
	uint16_t prd = st->regs[EMU_ADIS16400_SMPL_PRD / 2];
	unsigned int shift;

	if (st->fam->freq_style == EMU_ADIS16400_FREQ_16334) {
		shift = prd >> 8;
		return shift >= 32 ? 0.0 : EMU_ADIS16400_16334_HZ / (double)(1UL << shift);
	}
	return ((prd & EMU_ADIS16400_SMPL_TIME_BASE) ? EMU_ADIS16400_TB_SLOW_HZ :
						      EMU_ADIS16400_TB_FAST_HZ) /
	       (double)((prd & EMU_ADIS16400_SMPL_NS_MASK) + 1);
}

static uint32_t emu_adis16400_max_sclk_hz(const struct emu_adis16400 *st)
{
	uint16_t prd = st->regs[EMU_ADIS16400_SMPL_PRD / 2];

	if (st->fam->freq_style == EMU_ADIS16400_FREQ_16400 &&
	    ((prd & EMU_ADIS16400_SMPL_TIME_BASE) ||
	     (prd & EMU_ADIS16400_SMPL_NS_MASK) >= EMU_ADIS16400_LOW_POWER_NS))
		return EMU_ADIS16400_SCLK_LOW_POWER_HZ;
	return EMU_ADIS16400_SCLK_MAX_HZ;
}

static uint16_t emu_adis16400_diag(const struct emu_adis16400 *st, double now)
{
	return st->have_diag ? (uint16_t)(long)emu_signal_sample(&st->diag, now) : 0;
}

/*
 * The code an output register holds: the input at the last sample instant,
 * in LSBs from the zero point, plus the offset register (gyro and accel
 * only; one offset LSB taken as one output LSB, and the offset read as
 * 12-bit two's complement as the driver does: the datasheets' per-part
 * offset widths and weights are not modelled), clipped to the output width.
 */
static uint16_t emu_adis16400_output(struct emu_adis16400 *st, int i, double now)
{
	const struct emu_adis16400_out *out = &st->fam->outs[i];
	double rate = emu_adis16400_rate_hz(st);
	int64_t sample = rate > 0.0 ? (int64_t)floor(now * rate) : 0;
	double t = rate > 0.0 ? (double)sample / rate : now;
	double code, lo, hi;
	uint16_t word, off;

	code = round((emu_signal_sample(&st->in[i], t) - out->zero) / out->lsb);
	if (out->off_addr) {
		off = st->regs[out->off_addr / 2] & 0x0fff;
		code += (off & 0x0800) ? (double)off - 4096.0 : (double)off;
	}
	lo = out->is_signed ? -ldexp(1.0, out->bits - 1) : 0.0;
	hi = out->is_signed ? ldexp(1.0, out->bits - 1) - 1.0 : ldexp(1.0, out->bits) - 1.0;
	if (!(code >= lo))
		code = lo;
	if (code > hi)
		code = hi;
	word = (uint16_t)((int32_t)code & (int32_t)((1UL << out->bits) - 1));
	if (!st->fam->wide) {
		if (sample != st->last_sample[i])
			word |= EMU_ADIS16400_ND;
		if (emu_adis16400_diag(st, now))
			word |= EMU_ADIS16400_EA;
	}
	st->last_sample[i] = sample;
	return word;
}

/* Restore the user registers as a reset or power-up leaves them. */
static void emu_adis16400_load_flash(struct emu_adis16400 *st)
{
	int r;

	for (r = EMU_ADIS16400_FLASH_FIRST / 2; r <= EMU_ADIS16400_FLASH_LAST / 2; r++)
		st->regs[r] = st->flash[r];
	st->regs[EMU_ADIS16400_SLP_CNT / 2] = 0;
}

static uint16_t emu_adis16400_reg_read(struct emu_adis16400 *st, uint8_t addr, double now)
{
	int i;

	addr &= 0x7e;	/* the address LSB selects nothing on a read */
	for (i = 0; i < st->fam->nouts; i++)
		if (st->fam->outs[i].addr == addr)
			return emu_adis16400_output(st, i, now);
	switch (addr) {
	case EMU_ADIS16400_MSC_CTRL:
		if (now + EMU_ADIS16400_TIME_EPS_S >= st->self_test_until_s)
			st->regs[addr / 2] &= ~(EMU_ADIS16400_MSC_MEM_TEST |
						EMU_ADIS16400_MSC_INT_SELF_TEST);
		return st->regs[addr / 2];
	case EMU_ADIS16400_DIAG_STAT:
		return emu_adis16400_diag(st, now);
	case EMU_ADIS16400_PRODUCT_ID:
		if (st->have_prod)
			return (uint16_t)(long)emu_signal_sample(&st->prod, now);
		return st->prod_id;
	case EMU_ADIS16400_GLOB_CMD:
		return 0;
	default:
		return addr / 2 < EMU_ADIS16400_NREGS ? st->regs[addr / 2] : 0;
	}
}

static bool emu_adis16400_writable(uint8_t addr)
{
	addr &= 0x7e;
	return (addr >= EMU_ADIS16400_FLASH_FIRST && addr <= EMU_ADIS16400_FLASH_LAST &&
		addr != EMU_ADIS16400_DIAG_STAT && addr != EMU_ADIS16400_GLOB_CMD);
}

static void emu_adis16400_glob_cmd(struct emu_adis16400 *st, uint8_t cmd, double now)
{
	int r;

	if (cmd & EMU_ADIS16400_GLOB_FAC_CALIB) {
		for (r = EMU_ADIS16400_XGYRO_OFF / 2; r <= (EMU_ADIS16400_XACCL_OFF + 4) / 2; r++)
			st->regs[r] = 0;
	}
	if (cmd & EMU_ADIS16400_GLOB_FLASH_UPD) {
		for (r = EMU_ADIS16400_FLASH_FIRST / 2; r <= EMU_ADIS16400_FLASH_LAST / 2; r++)
			st->flash[r] = st->regs[r];
		st->regs[EMU_ADIS16400_FLASH_CNT / 2]++;
	}
	if (cmd & EMU_ADIS16400_GLOB_SW_RESET) {
		emu_adis16400_load_flash(st);
		st->busy_until_s = now + st->fam->reset_ms / 1000.0;
		st->self_test_until_s = 0.0;
	}
}

/* A write frame: one byte into one half of a register. */
static void emu_adis16400_reg_write(struct emu_adis16400 *st, uint8_t addr, uint8_t val,
				    double now)
{
	uint16_t *reg;

	if ((addr & 0x7e) == EMU_ADIS16400_GLOB_CMD) {
		if (!(addr & 1))
			emu_adis16400_glob_cmd(st, val, now);
		return;
	}
	if (!emu_adis16400_writable(addr))
		return;
	reg = &st->regs[(addr & 0x7e) / 2];
	if (addr & 1)
		*reg = (uint16_t)((*reg & 0x00ff) | (val << 8));
	else
		*reg = (uint16_t)((*reg & 0xff00) | val);
	if ((addr & 0x7e) == EMU_ADIS16400_MSC_CTRL &&
	    (*reg & (EMU_ADIS16400_MSC_MEM_TEST | EMU_ADIS16400_MSC_INT_SELF_TEST)))
		st->self_test_until_s = now + st->fam->self_test_ms / 1000.0;
}

/*
 * One 16-bit frame: shift out the pending answer, then act on the command.
 * A frame clocked faster than the chip can follow (@speed_hz; 0 = unknown,
 * taken as fine) is garbage both ways: the chip misreads the command and
 * the master reads all ones.
 */
static void emu_adis16400_frame(struct emu_adis16400 *st, const uint8_t *tx, uint8_t *rx,
				uint32_t speed_hz, double now)
{
	uint8_t cmd = tx ? tx[0] : 0, data = tx ? tx[1] : 0;
	uint16_t out = st->pending;

	if (speed_hz > emu_adis16400_max_sclk_hz(st)) {
		out = 0xffff;
		st->pending = 0xffff;
	} else if (now + EMU_ADIS16400_TIME_EPS_S < st->busy_until_s) {
		/* still starting up after a reset: the chip neither listens nor answers */
		out = 0;
		st->pending = 0;
	} else if (cmd & EMU_ADIS16400_WRITE) {
		emu_adis16400_reg_write(st, cmd & EMU_ADIS16400_ADDR_MASK, data, now);
		st->pending = 0;
	} else {
		st->pending = emu_adis16400_reg_read(st, cmd & EMU_ADIS16400_ADDR_MASK, now);
	}
	if (rx) {
		rx[0] = (uint8_t)(out >> 8);
		rx[1] = (uint8_t)(out & 0xff);
	}
}

/*
 * Was @x (just clocked) a burst command: one frame reading GLOB_CMD, chip
 * select held after it, on a bursting part that heard it?
 */
static bool emu_adis16400_is_burst(const struct emu_adis16400 *st,
				   const struct bus_spi_transfer *x, double now)
{
	return st->fam->burst != EMU_ADIS16400_BURST_NONE && x->len == 2 && x->tx_buf &&
	       x->tx_buf[0] == EMU_ADIS16400_GLOB_CMD && !x->cs_change &&
	       x->speed_hz <= emu_adis16400_max_sclk_hz(st) &&
	       now + EMU_ADIS16400_TIME_EPS_S >= st->busy_until_s;
}

/* The burst reply into @x's receive buffer, MSB first, zeros past the last output. */
static void emu_adis16400_burst(struct emu_adis16400 *st, const struct bus_spi_transfer *x,
				double now)
{
	uint32_t off = 0;
	uint16_t w;
	int i = st->fam->burst == EMU_ADIS16400_BURST_DIAG ? -1 : 0;

	for (; off + 1 < x->len; off += 2, i++) {
		if (i < 0)
			w = emu_adis16400_diag(st, now);
		else
			w = i < st->fam->nouts ? emu_adis16400_output(st, i, now) : 0;
		if (x->rx_buf) {
			x->rx_buf[off] = (uint8_t)(w >> 8);
			x->rx_buf[off + 1] = (uint8_t)w;
		}
	}
	st->pending = 0;
}

/*
 * Transfers under one chip select. Each transfer is a whole number of
 * frames (chip select toggles between frames; the answer to a read carries
 * over that toggle, and over separate calls, as on the wire). An odd
 * length cannot be a frame of this chip: -EINVAL.
 */
static int emu_adis16400_spi_transfer(struct emu_chip *chip, const struct bus_spi_transfer *xfers,
				      int n)
{
	struct emu_adis16400 *st = emu_adis16400_from_chip(chip);
	double now = emu_chip_now(chip);
	uint32_t off;
	int i;

	for (i = 0; i < n; i++)
		if (xfers[i].len % 2)
			return -EINVAL;
	for (i = 0; i < n; i++) {
		for (off = 0; off < xfers[i].len; off += 2)
			emu_adis16400_frame(st, xfers[i].tx_buf ? xfers[i].tx_buf + off : NULL,
					    xfers[i].rx_buf ? xfers[i].rx_buf + off : NULL,
					    xfers[i].speed_hz, now);
		if (i + 1 < n && emu_adis16400_is_burst(st, &xfers[i], now)) {
			emu_adis16400_burst(st, &xfers[i + 1], now);
			i++;
		}
	}
	return 0;
}

static void emu_adis16400_destroy(struct emu_chip *chip)
{
	struct emu_adis16400 *st = emu_adis16400_from_chip(chip);
	int i;

	for (i = 0; i < EMU_ADIS16400_MAX_OUTS; i++)
		emu_signal_fini(&st->in[i]);
	emu_signal_fini(&st->diag);
	emu_signal_fini(&st->prod);
	free(st);
}

/* The signal slot an input key feeds, or NULL if this part has no such input. */
/* The inputs a part takes: its outputs by ABI stem, then diag_stat and product_id. */
static int emu_adis16400_slots(struct emu_adis16400 *st, struct emu_input_slot *slots)
{
	int i;

	for (i = 0; i < st->fam->nouts; i++)
		slots[i] = (struct emu_input_slot){ st->fam->outs[i].key, &st->in[i], NULL };
	slots[i++] = (struct emu_input_slot){ "diag_stat", &st->diag, &st->have_diag };
	slots[i++] = (struct emu_input_slot){ "product_id", &st->prod, &st->have_prod };
	return i;
}

static void emu_adis16400_key_list(const struct emu_adis16400_family *fam, char *buf,
				   size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < fam->nouts && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s, ", fam->outs[i].key);
	if (used < len)
		snprintf(buf + used, len - used, "diag_stat, product_id");
}

static const struct emu_chip_ops emu_adis16400_ops = {
	.spi_transfer = emu_adis16400_spi_transfer,
	.destroy = emu_adis16400_destroy,
};

/*
 * emu_adis16400_create() - a chip that has finished its power-on start-up:
 * default sample rate (819.2 SPS), filter and MSC_CTRL, zero offsets, no
 * diagnostic flags. Inputs not given read 0 (25 or 31 degrees C for
 * temperature, whose zero point is code 0).
 */
static int emu_adis16400_create(const struct emu_params *p, struct emu_chip **out,
				char *err, size_t errlen)
{
	const struct iio_device_id *id = p->id;
	const struct emu_adis16400_part *part;
	struct emu_input_slot slots[EMU_ADIS16400_MAX_OUTS + 2];
	struct emu_adis16400 *st;
	const char *bad = "";
	char keys[400];
	int i, ret;

	if (!id)
		emu_model_find(p->name, &id);
	if (!id) {
		snprintf(err, errlen, "adis16400 model: unknown part \"%s\"", p->name);
		return -EINVAL;
	}
	part = &emu_adis16400_parts[id->driver_data];
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->chip.ops = &emu_adis16400_ops;
	st->chip.name = id->name;
	st->fam = &emu_adis16400_families[part->family];
	st->prod_id = part->prod_id;
	for (i = 0; i < EMU_ADIS16400_MAX_OUTS; i++) {
		st->in[i].kind = EMU_SIGNAL_CONST;
		st->in[i].value = st->fam->outs[i < st->fam->nouts ? i : 0].zero;
		st->last_sample[i] = -1;
	}
	ret = emu_inputs_take(p, slots, emu_adis16400_slots(st, slots), &bad);
	if (ret == -EINVAL) {
		emu_adis16400_key_list(st->fam, keys, sizeof(keys));
		snprintf(err, errlen, "%s: unknown input \"%s\" (valid: %s)", id->name, bad, keys);
		goto err_free_chip;
	}
	if (ret) {
		snprintf(err, errlen, "%s: out of memory copying inputs", id->name);
		goto err_free_chip;
	}
	st->flash[EMU_ADIS16400_MSC_CTRL / 2] = EMU_ADIS16400_MSC_CTRL_DEFAULT;
	st->flash[EMU_ADIS16400_SMPL_PRD / 2] = EMU_ADIS16400_SMPL_PRD_DEFAULT;
	st->flash[EMU_ADIS16400_SENS_AVG / 2] = EMU_ADIS16400_SENS_AVG_DEFAULT;
	emu_adis16400_load_flash(st);
	st->regs[EMU_ADIS16400_LOT_ID1 / 2] = EMU_ADIS16400_LOT1;
	st->regs[EMU_ADIS16400_LOT_ID2 / 2] = EMU_ADIS16400_LOT2;
	st->regs[EMU_ADIS16400_SERIAL_NUMBER / 2] = EMU_ADIS16400_SERIAL;
	*out = &st->chip;
	return 0;

err_free_chip:
	emu_adis16400_destroy(&st->chip);
	return ret;
}

static const struct emu_model emu_adis16400_model = {
	.name = "adis16400",
	.id_table = emu_adis16400_ids,
	.create = emu_adis16400_create,
};
EMU_MODEL_REGISTER(emu_adis16400_model);
