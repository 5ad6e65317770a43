/*
 * emu_max1363.c - register-level model of the MAX1363 family of I2C ADCs
 * (max1036..max1039, max1136..max1139, max1236..max1239, max1361..max1364,
 * max11600..max11617, max11644..max11647: 38 parts, 2 to 12 inputs, 8 to 12 bits).
 *
 * The chip has no register pointer: every byte the master writes is a setup
 * byte (bit 7 set) or a configuration byte (bit 7 clear), and every read
 * returns conversion results for the scan the configuration selects, one
 * result per scanned input, MSB first, with the unused high bits sent as 1s
 * (8-bit parts send one byte per result). Inputs are signals keyed by
 * datasheet name (AIN0..AIN11) in mV, sampled on the bus's virtual clock.
 * Place in the flow: *chip* -> bus (emulated backend or the i2c-dev shim).
 * It must not call drivers, the core or the server. Monitor mode (max1361-4):
 * a setup byte with MONITOR SETUP is followed by the monitor setup byte
 * (INT enable, delay, alarm resets) and, in the same write, 3 threshold
 * bytes per monitored input; while the configuration says monitor scan the
 * chip compares AIN0..CS with them on the virtual clock, latches alarm bits
 * (falling 0-3, rising 4-7), holds INT asserted while any is set, and a
 * read returns the alarm byte.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "iio_kit.h"

#define EMU_MAX1363_MAX_INPUTS	12
/* the longest scan is 12 results (or 8 repeats of one input) */
#define EMU_MAX1363_MAX_SCAN	12

/* setup byte (bit 7 = 1) */
#define EMU_MAX1363_SETUP		0x80
#define EMU_MAX1363_SETUP_SEL_MASK	0x60	/* SEL2:SEL1 pick the reference */
#define EMU_MAX1363_SETUP_REF_VDD	0x00
#define EMU_MAX1363_SETUP_REF_EXT	0x20
#define EMU_MAX1363_SETUP_BIPOLAR	0x04
#define EMU_MAX1363_SETUP_NORESET	0x02
/* configuration byte (bit 7 = 0) */
#define EMU_MAX1363_CONF_SCAN_SHIFT	5
#define EMU_MAX1363_CONF_CS_SHIFT	1
#define EMU_MAX1363_CONF_CS_MASK	0x0f
#define EMU_MAX1363_CONF_SGL		0x01

enum emu_max1363_scan {
	EMU_MAX1363_SCAN_TO_CS,		/* AIN0 (or the first pair) up to CS */
	EMU_MAX1363_SCAN_CS_X8,		/* CS eight times */
	EMU_MAX1363_SCAN_MID_TO_CS,	/* mid input up to CS; monitor mode on max1361-4 */
	EMU_MAX1363_SCAN_CS_ONCE,	/* CS once */
};

/* monitor mode: setup bit 0 announces the monitor setup byte */
#define EMU_MAX1363_SETUP_MONITOR	0x01
#define EMU_MAX1363_MON_INTEN		0x01
#define EMU_MAX1363_MON_RESET		0xf0	/* one bit per alarm pair, channels 0-3 */
#define EMU_MAX1363_MON_CHANNELS	4
#define EMU_MAX1363_THRESH_MAX		0xfff

/* power-on setup byte: VDD reference, internal clock, unipolar, no reset */
#define EMU_MAX1363_SETUP_POWER_ON	0x82

/**
 * struct emu_max1363_part - what tells the parts apart.
 * @vdd_mv: the supply we assume: the 4.096 V-reference parts are the 5 V
 *	versions, the 2.048 V ones the 3 V versions (datasheet supply ranges).
 *	It is the reference when the setup byte selects VDD, or an external
 *	reference that the board did not give (an open REF pin reads as VDD here).
 * @mid: first input of the "mid to CS" scan (SCAN = 10), 0 where the part
 *	has no such scan (2-input parts) or uses the code for monitor mode.
 * @monitor: max1361-4, whose SCAN = 10 is monitor mode (modelled as "CS once").
 */
struct emu_max1363_part {
	const char *name;
	uint8_t ninputs;
	uint8_t bits;
	uint16_t int_vref_mv;
	uint16_t vdd_mv;
	uint8_t mid;
	bool monitor;
};

#define EMU_MAX1363_PART(_name, _n, _bits, _vref, _mid, _mon)		\
	{ .name = #_name, .ninputs = _n, .bits = _bits, .int_vref_mv = _vref,	\
	  .vdd_mv = (_vref) == 4096 ? 5000 : 3300, .mid = _mid, .monitor = _mon }

static const struct emu_max1363_part emu_max1363_parts[] = {
	EMU_MAX1363_PART(max1361, 4, 10, 2048, 0, true),
	EMU_MAX1363_PART(max1362, 4, 10, 4096, 0, true),
	EMU_MAX1363_PART(max1363, 4, 12, 2048, 0, true),
	EMU_MAX1363_PART(max1364, 4, 12, 4096, 0, true),
	EMU_MAX1363_PART(max1036, 4, 8, 4096, 2, false),
	EMU_MAX1363_PART(max1037, 4, 8, 2048, 2, false),
	EMU_MAX1363_PART(max1038, 12, 8, 4096, 6, false),
	EMU_MAX1363_PART(max1039, 12, 8, 2048, 6, false),
	EMU_MAX1363_PART(max1136, 4, 10, 4096, 2, false),
	EMU_MAX1363_PART(max1137, 4, 10, 2048, 2, false),
	EMU_MAX1363_PART(max1138, 12, 10, 4096, 6, false),
	EMU_MAX1363_PART(max1139, 12, 10, 2048, 6, false),
	EMU_MAX1363_PART(max1236, 4, 12, 4096, 2, false),
	EMU_MAX1363_PART(max1237, 4, 12, 2048, 2, false),
	EMU_MAX1363_PART(max1238, 12, 12, 4096, 6, false),
	EMU_MAX1363_PART(max1239, 12, 12, 2048, 6, false),
	EMU_MAX1363_PART(max11600, 4, 8, 4096, 2, false),
	EMU_MAX1363_PART(max11601, 4, 8, 2048, 2, false),
	EMU_MAX1363_PART(max11602, 8, 8, 4096, 6, false),
	EMU_MAX1363_PART(max11603, 8, 8, 2048, 6, false),
	EMU_MAX1363_PART(max11604, 12, 8, 4096, 6, false),
	EMU_MAX1363_PART(max11605, 12, 8, 2048, 6, false),
	EMU_MAX1363_PART(max11606, 4, 10, 4096, 2, false),
	EMU_MAX1363_PART(max11607, 4, 10, 2048, 2, false),
	EMU_MAX1363_PART(max11608, 8, 10, 4096, 6, false),
	EMU_MAX1363_PART(max11609, 8, 10, 2048, 6, false),
	EMU_MAX1363_PART(max11610, 12, 10, 4096, 6, false),
	EMU_MAX1363_PART(max11611, 12, 10, 2048, 6, false),
	EMU_MAX1363_PART(max11612, 4, 12, 4096, 2, false),
	EMU_MAX1363_PART(max11613, 4, 12, 2048, 2, false),
	EMU_MAX1363_PART(max11614, 8, 12, 4096, 6, false),
	EMU_MAX1363_PART(max11615, 8, 12, 2048, 6, false),
	EMU_MAX1363_PART(max11616, 12, 12, 4096, 6, false),
	EMU_MAX1363_PART(max11617, 12, 12, 2048, 6, false),
	EMU_MAX1363_PART(max11644, 2, 12, 4096, 0, false),
	EMU_MAX1363_PART(max11645, 2, 12, 2048, 0, false),
	EMU_MAX1363_PART(max11646, 2, 10, 4096, 0, false),
	EMU_MAX1363_PART(max11647, 2, 10, 2048, 0, false),
};

#define EMU_MAX1363_NPARTS	ARRAY_SIZE(emu_max1363_parts)

/* driver_data is the row of emu_max1363_parts[] */
static const struct iio_device_id emu_max1363_ids[] = {
	{ "max1361", 0 }, { "max1362", 1 }, { "max1363", 2 }, { "max1364", 3 },
	{ "max1036", 4 }, { "max1037", 5 }, { "max1038", 6 }, { "max1039", 7 },
	{ "max1136", 8 }, { "max1137", 9 }, { "max1138", 10 }, { "max1139", 11 },
	{ "max1236", 12 }, { "max1237", 13 }, { "max1238", 14 }, { "max1239", 15 },
	{ "max11600", 16 }, { "max11601", 17 }, { "max11602", 18 }, { "max11603", 19 },
	{ "max11604", 20 }, { "max11605", 21 }, { "max11606", 22 }, { "max11607", 23 },
	{ "max11608", 24 }, { "max11609", 25 }, { "max11610", 26 }, { "max11611", 27 },
	{ "max11612", 28 }, { "max11613", 29 }, { "max11614", 30 }, { "max11615", 31 },
	{ "max11616", 32 }, { "max11617", 33 }, { "max11644", 34 }, { "max11645", 35 },
	{ "max11646", 36 }, { "max11647", 37 },
	{ NULL, 0 }
};

/**
 * struct emu_max1363 - one chip.
 * @vref_mv: the board's external reference (0: none connected).
 * @in: the inputs, AIN0 first; an input the board left out is 0 mV.
 * @mon_setup: the monitor setup byte; @lo/@hi: 12-bit thresholds per input.
 * @alarm: latched alarms: bit n falling on AINn, bit 4+n rising.
 */
struct emu_max1363 {
	struct emu_chip chip;		/* first: the bus hands us this */
	const struct emu_max1363_part *part;
	uint8_t setup;
	uint8_t config;
	int vref_mv;
	struct emu_signal in[EMU_MAX1363_MAX_INPUTS];
	uint8_t mon_setup;
	uint16_t lo[EMU_MAX1363_MON_CHANNELS];
	uint16_t hi[EMU_MAX1363_MON_CHANNELS];
	uint8_t alarm;
};

/* one conversion of a scan: @neg < 0 for single-ended */
struct emu_max1363_conv {
	int pos;
	int neg;
};

static struct emu_max1363 *emu_max1363_from_chip(struct emu_chip *chip)
{
	return (struct emu_max1363 *)chip;
}

/* Power-on configuration: scan from AIN0 to the last input, single-ended. */
static uint8_t emu_max1363_config_default(const struct emu_max1363_part *part)
{
	return (uint8_t)(((part->ninputs - 1) << EMU_MAX1363_CONF_CS_SHIFT) |
			 EMU_MAX1363_CONF_SGL);
}

/* The reference the current setup byte selects, in mV. */
static double emu_max1363_ref_mv(const struct emu_max1363 *m)
{
	switch (m->setup & EMU_MAX1363_SETUP_SEL_MASK) {
	case EMU_MAX1363_SETUP_REF_VDD:
		return m->part->vdd_mv;
	case EMU_MAX1363_SETUP_REF_EXT:
		return m->vref_mv > 0 ? m->vref_mv : m->part->vdd_mv;
	default:
		return m->part->int_vref_mv;
	}
}

/*
 * The channel select field as the part decodes it: parts with fewer inputs
 * ignore the high CS bits; codes past the last input of a 12-input part are
 * reserved and read the last input here.
 */
static int emu_max1363_cs(const struct emu_max1363 *m)
{
	int cs = (m->config >> EMU_MAX1363_CONF_CS_SHIFT) & EMU_MAX1363_CONF_CS_MASK;
	int n = m->part->ninputs;

	if (n <= 2)
		cs &= 1;
	else if (n <= 4)
		cs &= 3;
	else if (n <= 8)
		cs &= 7;
	return cs < n ? cs : n - 1;
}

/*
 * Build the conversions a read returns, in order. Differential pairs are
 * (even, odd) when CS is even and (odd, even) when CS is odd: CS names the
 * positive input. Return: the number of conversions (1..12).
 */
static int emu_max1363_scan(const struct emu_max1363 *m, struct emu_max1363_conv *seq)
{
	bool sgl = m->config & EMU_MAX1363_CONF_SGL;
	int scan = (m->config >> EMU_MAX1363_CONF_SCAN_SHIFT) & 3;
	int cs = emu_max1363_cs(m);
	int step = sgl ? 1 : 2;
	int first, c, n = 0;

	if (scan == EMU_MAX1363_SCAN_MID_TO_CS && (m->part->monitor || !m->part->mid))
		scan = EMU_MAX1363_SCAN_CS_ONCE;

	switch (scan) {
	case EMU_MAX1363_SCAN_CS_X8:
		for (n = 0; n < 8; n++)
			seq[n] = (struct emu_max1363_conv){ cs, sgl ? -1 : cs ^ 1 };
		return n;
	case EMU_MAX1363_SCAN_CS_ONCE:
		seq[0] = (struct emu_max1363_conv){ cs, sgl ? -1 : cs ^ 1 };
		return 1;
	case EMU_MAX1363_SCAN_MID_TO_CS:
		first = m->part->mid;
		break;
	default:
		first = 0;
		break;
	}
	if (!sgl)
		first |= cs & 1;
	if (cs < first)
		cs = first;	/* a scan always converts at least its first input */
	for (c = first; c <= cs && n < EMU_MAX1363_MAX_SCAN; c += step)
		seq[n++] = (struct emu_max1363_conv){ c, sgl ? -1 : c ^ 1 };
	return n;
}

/*
 * One conversion, as the code the chip sends. Unipolar: 0 for any input at
 * or below 0 (a negative difference too), all ones at or above the
 * reference. Bipolar applies to differential pairs only: two's complement
 * over +/- ref/2.
 */
static unsigned int emu_max1363_convert(const struct emu_max1363 *m,
					const struct emu_max1363_conv *cv, double t)
{
	int bits = m->part->bits;
	double v = emu_signal_sample(&m->in[cv->pos], t);
	double code;
	long lo = 0, hi = (1L << bits) - 1;

	if (cv->neg >= 0)
		v -= emu_signal_sample(&m->in[cv->neg], t);
	/* the small bias keeps exact multiples of an LSB on their own code */
	code = floor(v * (double)(1L << bits) / emu_max1363_ref_mv(m) + 1e-9);
	if (cv->neg >= 0 && (m->setup & EMU_MAX1363_SETUP_BIPOLAR)) {
		lo = -(1L << (bits - 1));
		hi = (1L << (bits - 1)) - 1;
	}
	if (isnan(code) || code < lo)
		code = lo;
	if (code > hi)
		code = hi;
	return (unsigned int)((long)code & ((1L << bits) - 1));
}

/* Monitor mode is on: a monitoring part, its setup and the monitor scan. */
static bool emu_max1363_monitoring(const struct emu_max1363 *m)
{
	return m->part->monitor && (m->setup & EMU_MAX1363_SETUP_MONITOR) &&
	       ((m->config >> EMU_MAX1363_CONF_SCAN_SHIFT) & 3) == EMU_MAX1363_SCAN_MID_TO_CS;
}

/* Compare AIN0..CS with their thresholds now; alarms latch until reset. */
static void emu_max1363_monitor(struct emu_max1363 *m)
{
	struct emu_max1363_conv cv = { 0, -1 };
	double t = emu_chip_now(&m->chip);
	int last = emu_max1363_cs(m), bits = m->part->bits;
	unsigned int code;

	if (last >= EMU_MAX1363_MON_CHANNELS)
		last = EMU_MAX1363_MON_CHANNELS - 1;
	for (cv.pos = 0; cv.pos <= last; cv.pos++) {
		/* the comparison is on 12 bits: a shorter result is left-aligned */
		code = emu_max1363_convert(m, &cv, t) << (12 - bits);
		if (code > m->hi[cv.pos])
			m->alarm |= (uint8_t)(0x10 << cv.pos);
		if (code < m->lo[cv.pos])
			m->alarm |= (uint8_t)(1 << cv.pos);
	}
}

/* INT: asserted while monitoring with the interrupt on and any alarm latched. */
static enum emu_irq_state emu_max1363_irq_level(struct emu_chip *chip)
{
	struct emu_max1363 *m = emu_max1363_from_chip(chip);

	if (!emu_max1363_monitoring(m) || !(m->mon_setup & EMU_MAX1363_MON_INTEN))
		return EMU_IRQ_DISABLED;
	emu_max1363_monitor(m);
	return m->alarm ? EMU_IRQ_ASSERTED : EMU_IRQ_LOW;
}

/* The time of a conversion of @seq, read from the clock only if an input there moves. */
static double emu_max1363_scan_time(struct emu_max1363 *m, const struct emu_max1363_conv *seq,
				    int nconv)
{
	int k;

	for (k = 0; k < nconv; k++)
		if (emu_signal_timed(&m->in[seq[k].pos]) ||
		    (seq[k].neg >= 0 && emu_signal_timed(&m->in[seq[k].neg])))
			return emu_chip_now(&m->chip);
	return 0;
}

/* A read: whole scans, repeated for as many bytes as the master clocks. */
static void emu_max1363_read(struct emu_chip *chip, uint8_t *buf, int len)
{
	struct emu_max1363 *m = emu_max1363_from_chip(chip);
	struct emu_max1363_conv seq[EMU_MAX1363_MAX_SCAN];
	int bits = m->part->bits;
	int nconv = emu_max1363_scan(m, seq);
	double t = emu_max1363_scan_time(m, seq, nconv);
	uint8_t ones = (uint8_t)(0xff << (bits - 8));
	unsigned int code;
	int i = 0, k = 0;

	if (emu_max1363_monitoring(m)) {
		/* in monitor mode a read returns the alarm status, every byte */
		emu_max1363_monitor(m);
		memset(buf, m->alarm, (size_t)len);
		return;
	}
	while (i < len) {
		code = emu_max1363_convert(m, &seq[k], t);
		k = (k + 1) % nconv;
		if (bits == 8) {
			buf[i++] = (uint8_t)code;
			continue;
		}
		buf[i++] = ones | (uint8_t)(code >> 8);
		if (i < len)
			buf[i++] = (uint8_t)code;
	}
}

/*
 * The monitor setup byte at @buf[0], then up to four channels' thresholds
 * (lo 11-4, lo 3-0 | hi 11-8, hi 7-0). Return: the bytes used.
 */
static int emu_max1363_write_monitor(struct emu_max1363 *m, const uint8_t *buf, int len)
{
	int used = 1, c;

	m->mon_setup = buf[0];
	/* RESET bits clear the alarms of their channel */
	for (c = 0; c < EMU_MAX1363_MON_CHANNELS; c++)
		if (buf[0] & (0x10 << c))
			m->alarm &= (uint8_t)~((1 << c) | (0x10 << c));
	for (c = 0; c < EMU_MAX1363_MON_CHANNELS && used + 3 <= len; c++, used += 3) {
		m->lo[c] = (uint16_t)((buf[used] << 4) | (buf[used + 1] >> 4));
		m->hi[c] = (uint16_t)(((buf[used + 1] & 0x0f) << 8) | buf[used + 2]);
	}
	return used;
}

/* A write: each byte is a setup or a configuration byte, told apart by bit 7. */
static void emu_max1363_write(struct emu_chip *chip, const uint8_t *buf, int len)
{
	struct emu_max1363 *m = emu_max1363_from_chip(chip);
	int i;

	for (i = 0; i < len; i++) {
		if ((buf[i] & EMU_MAX1363_SETUP) && (buf[i] & EMU_MAX1363_SETUP_MONITOR) &&
		    m->part->monitor && i + 1 < len) {
			m->setup = buf[i];
			i += emu_max1363_write_monitor(m, &buf[i + 1], len - i - 1);
		} else if (buf[i] & EMU_MAX1363_SETUP) {
			m->setup = buf[i];
			/* RST = 0 puts the configuration back to its power-on value */
			if (!(buf[i] & EMU_MAX1363_SETUP_NORESET))
				m->config = emu_max1363_config_default(m->part);
		} else {
			m->config = buf[i];
		}
	}
}

static const struct emu_chip_ops emu_max1363_ops = {
	.i2c_transfer = emu_chip_i2c_rw,
	.i2c_read = emu_max1363_read,
	.i2c_write = emu_max1363_write,
	.destroy = emu_chip_free,
	.irq_level = emu_max1363_irq_level,
};

static int emu_max1363_create(const struct emu_params *p, struct emu_chip **out,
			      char *err, size_t errlen)
{
	const struct emu_max1363_part *part;
	struct emu_max1363 *m;
	int ret;

	ret = emu_params_part(p, EMU_MAX1363_NPARTS, "a MAX1363-family part", err, errlen);
	if (ret < 0)
		return ret;
	part = &emu_max1363_parts[ret];
	m = emu_chip_alloc(sizeof(*m), &emu_max1363_ops, part->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = m->in;
	m->chip.ninputs = EMU_MAX1363_MAX_INPUTS;
	m->part = part;
	m->setup = EMU_MAX1363_SETUP_POWER_ON;
	m->config = emu_max1363_config_default(part);
	m->vref_mv = p->vref_mv;
	for (ret = 0; ret < EMU_MAX1363_MON_CHANNELS; ret++)
		m->hi[ret] = EMU_MAX1363_THRESH_MAX;
	ret = emu_inputs_take_numbered(p, part->name, "AIN", m->in, part->ninputs, err, errlen);
	return emu_chip_done(&m->chip, ret, out);
}

static const struct emu_model emu_max1363_model = {
	.name = "max1363",
	.id_table = emu_max1363_ids,
	.create = emu_max1363_create,
};

EMU_MODEL_REGISTER(emu_max1363_model);
