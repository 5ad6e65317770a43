/*
 * emu_bmp280.c - register-level model of the Bosch BMP085/BMP180, BMP280,
 * BME280 and BMP380 pressure sensors (I2C).
 *
 * Transfers as the datasheets give them: a write is a register address and
 * its data, then further address/data pairs; a read returns consecutive
 * registers from the last address. Each part holds its calibration NVM (the
 * BMP280 and BMP180 datasheets' worked examples, a real BME280's humidity
 * words, a made-up but plausible BMP380 set), its chip id, the control
 * registers and the data registers, which read their reset values (the
 * "skipped" 0x80000) until a measurement has finished:
 * - BMP280/BME280: sleep, forced (one measurement) and normal mode (one every
 *   measurement time + t_standby); the datasheet's maximum measurement time;
 *   a skipped channel (oversampling 0) reads 0x80000 (0x8000 humidity);
 *   resolution 16 + (osrs - 1) bits, pressure 20 with the IIR filter on.
 * - BMP180: a ctrl_meas write with SCO starts one conversion (temperature
 *   4.5 ms, pressure 4.5/7.5/13.5/25.5 ms by oss); SCO reads 1 until it ends.
 * - BMP380: CMD (soft reset; an unknown command sets cmd_err), STATUS
 *   cmd_rdy, ERR (cleared on read; conf_err when a measurement outlasts the
 *   ODR period in normal mode), PWR_CTRL sleep/forced/normal, OSR, ODR.
 * Inputs: "temp" (m°C), "pressure" (kPa), "humidityrelative" (m%RH, bme280)
 * as the ABI reports them, turned into ADC codes by inverting the datasheet's
 * floating-point compensation (a different formula from the driver's integer
 * one, so that tests check the driver against the datasheet); or the ADC
 * codes themselves, "adc_T", "adc_P", "adc_H" (for the BMP180 "UT" and "UP",
 * UP as at oss 0: oss N reads UP << N), which override the former.
 * Not modelled: the IIR filter's smoothing (only its resolution), the BMP380's
 * FIFO, interrupts and resolution by oversampling.
 * Place in the flow: *chip* -> bus -> driver. Must not: call drivers or the
 * core, sleep, or keep global state.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "iio_kit.h"

enum emu_bmp280_gen { EMU_BMP180, EMU_BMP280, EMU_BME280, EMU_BMP380 };

/* inputs: physical (ABI units) first, then the raw codes that override them */
enum { EMU_BMP_TEMP, EMU_BMP_PRESS, EMU_BMP_HUMID, EMU_BMP_ADC_T, EMU_BMP_ADC_P,
       EMU_BMP_ADC_H, EMU_BMP_NIN };

#define EMU_BMP280_REG_CALIB		0x88
#define EMU_BMP280_REG_H1		0xa1
#define EMU_BMP280_REG_ID		0xd0
#define EMU_BMP280_REG_RESET		0xe0
#define EMU_BMP280_REG_H2		0xe1
#define EMU_BMP280_REG_CTRL_HUM		0xf2
#define EMU_BMP280_REG_STATUS		0xf3
#define EMU_BMP280_REG_CTRL_MEAS	0xf4
#define EMU_BMP280_REG_CONFIG		0xf5
#define EMU_BMP280_REG_DATA		0xf7	/* press[3], temp[3], hum[2] */
#define EMU_BMP280_STATUS_MEASURING	BIT(3)
#define EMU_BMP280_SOFT_RESET		0xb6
#define EMU_BMP280_SKIPPED		0x80000

#define EMU_BMP180_REG_CALIB		0xaa
#define EMU_BMP180_REG_OUT		0xf6
#define EMU_BMP180_SCO			BIT(5)
#define EMU_BMP180_MEAS_TEMP		0x0e
#define EMU_BMP180_MEAS_PRESS		0x14

#define EMU_BMP380_REG_ERR		0x02
#define EMU_BMP380_REG_STATUS		0x03
#define EMU_BMP380_REG_DATA		0x04	/* press[3], temp[3], little endian */
#define EMU_BMP380_REG_PWR_CTRL		0x1b
#define EMU_BMP380_REG_OSR		0x1c
#define EMU_BMP380_REG_ODR		0x1d
#define EMU_BMP380_REG_CALIB		0x31
#define EMU_BMP380_REG_CMD		0x7e
#define EMU_BMP380_STATUS_CMD_RDY	BIT(4)
#define EMU_BMP380_STATUS_DRDY		(BIT(5) | BIT(6))
#define EMU_BMP380_ERR_CMD		BIT(1)
#define EMU_BMP380_ERR_CONF		BIT(2)

/* the BMP280 datasheet's example NVM (3.12), T1..P9 */
static const int emu_bmp280_cal[12] = { 27504, 26435, -1000, 36477, -10685, 3024, 2855, 140,
					-7, 15500, -14600, 6000 };
/* a BME280's humidity words: H1, H2, H3, H4, H5, H6 */
static const int emu_bme280_hum[6] = { 75, 370, 0, 309, 50, 30 };
/* the BMP180 datasheet's example (3.5): AC1..AC6, B1, B2, MB, MC, MD */
static const int emu_bmp180_cal[11] = { 408, -72, -14383, 32741, 32757, 23153, 6190, 4, -32768,
					-8711, 2868 };
/* BMP380: T1 T2 T3 P1 P2 P3 P4 P5 P6 P7 P8 P9 P10 P11, with their byte widths */
static const int emu_bmp380_cal[14] = { 27700, 19000, -10, 20000, -5000, 30, 0, 10000, 3000, 10,
					-5, 16000, 10, -60 };
static const int emu_bmp380_width[14] = { 2, 2, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 1, 1 };

struct emu_bmp280 {
	struct emu_chip chip;
	enum emu_bmp280_gen gen;
	struct emu_signal in[EMU_BMP_NIN];
	bool given[EMU_BMP_NIN];
	uint8_t regs[256];
	uint8_t ptr;
	double start_s;		/* the measurement (or mode) started here */
	bool busy;		/* a forced / BMP180 measurement is under way */
	double next_s;		/* BMP280/BMP380 normal mode: the next one ends here */
};

static struct emu_bmp280 *emu_bmp280_from_chip(struct emu_chip *chip)
{
	return container_of(chip, struct emu_bmp280, chip);
}

static int emu_bmp_le16(const uint8_t *r, int reg, bool sign)
{
	int v = r[reg] | r[reg + 1] << 8;

	return sign ? (int16_t)v : v;
}

static int emu_bmp_be16(const uint8_t *r, int reg, bool sign)
{
	int v = r[reg] << 8 | r[reg + 1];

	return sign ? (int16_t)v : v;
}

/* ---- the datasheets' floating-point compensation, forward ---- */

/* BMP280 3.12: degC, with t_fine */
static double emu_bmp280_temp(const uint8_t *r, double adc, double *t_fine)
{
	double t1 = emu_bmp_le16(r, 0x88, false), t2 = emu_bmp_le16(r, 0x8a, true);
	double t3 = emu_bmp_le16(r, 0x8c, true);
	double v1 = (adc / 16384.0 - t1 / 1024.0) * t2;
	double v2 = (adc / 131072.0 - t1 / 8192.0) * (adc / 131072.0 - t1 / 8192.0) * t3;

	*t_fine = v1 + v2;
	return *t_fine / 5120.0;
}

/* BMP280 3.12: Pa */
static double emu_bmp280_press(const uint8_t *r, double adc, double t_fine)
{
	double p1 = emu_bmp_le16(r, 0x8e, false), v1 = t_fine / 2.0 - 64000.0, v2, p;
	double k[10];
	int i;

	for (i = 2; i <= 9; i++)
		k[i] = emu_bmp_le16(r, 0x8e + 2 * (i - 1), true);
	v2 = v1 * v1 * k[6] / 32768.0 + v1 * k[5] * 2.0;
	v2 = v2 / 4.0 + k[4] * 65536.0;
	v1 = (k[3] * v1 * v1 / 524288.0 + k[2] * v1) / 524288.0;
	v1 = (1.0 + v1 / 32768.0) * p1;
	if (v1 == 0.0)
		return 0.0;
	p = (1048576.0 - adc - v2 / 4096.0) * 6250.0 / v1;
	return p + (k[9] * p * p / 2147483648.0 + p * k[8] / 32768.0 + k[7]) / 16.0;
}

/* BME280 4.2.3: %RH, 0..100 */
static double emu_bme280_humid(const uint8_t *r, double adc, double t_fine)
{
	double h1 = r[0xa1], h2 = emu_bmp_le16(r, 0xe1, true), h3 = r[0xe3];
	double h4 = sign_extend32((uint32_t)(r[0xe4] << 4 | (r[0xe5] & 0xf)), 11);
	double h5 = sign_extend32((uint32_t)(r[0xe6] << 4 | r[0xe5] >> 4), 11);
	double h6 = (int8_t)r[0xe7], v = t_fine - 76800.0;

	v = (adc - (h4 * 64.0 + h5 / 16384.0 * v)) *
	    (h2 / 65536.0 * (1.0 + h6 / 67108864.0 * v * (1.0 + h3 / 67108864.0 * v)));
	v *= 1.0 - h1 * v / 524288.0;
	return v < 0.0 ? 0.0 : v > 100.0 ? 100.0 : v;
}

/* BMP180 3.5 without the integer truncations: degC, with B5 */
static double emu_bmp180_temp(const uint8_t *r, double ut, double *b5)
{
	double x1 = (ut - emu_bmp_be16(r, 0xb4, false)) * emu_bmp_be16(r, 0xb2, false) / 32768.0;
	double x2 = emu_bmp_be16(r, 0xbc, true) * 2048.0 / (x1 + emu_bmp_be16(r, 0xbe, true));

	*b5 = x1 + x2;
	return (*b5 + 8.0) / 160.0;
}

/* BMP180 3.5 likewise: Pa, for UP at @oss */
static double emu_bmp180_press(const uint8_t *r, double up, double b5, int oss)
{
	double b6 = b5 - 4000.0, x3, b3, b4, b7, p;

	x3 = emu_bmp_be16(r, 0xb8, true) * (b6 * b6 / 4096.0) / 2048.0 +
	     emu_bmp_be16(r, 0xac, true) * b6 / 2048.0;
	b3 = ((emu_bmp_be16(r, 0xaa, true) * 4.0 + x3) * (1 << oss) + 2.0) / 4.0;
	x3 = (emu_bmp_be16(r, 0xae, true) * b6 / 8192.0 +
	      emu_bmp_be16(r, 0xb6, true) * (b6 * b6 / 4096.0) / 65536.0 + 2.0) / 4.0;
	b4 = emu_bmp_be16(r, 0xb0, false) * (x3 + 32768.0) / 32768.0;
	b7 = (up - b3) * (50000 >> oss);
	p = b7 * 2.0 / b4;
	return p + (p * p / 65536.0 * 3038.0 / 65536.0 - 7357.0 * p / 65536.0 + 3791.0) / 16.0;
}

/* the BMP380's NVM word @i (0..13), as emu_bmp380_cal[] lays them out */
static double emu_bmp380_par(const uint8_t *r, int i)
{
	int reg = EMU_BMP380_REG_CALIB, j;

	for (j = 0; j < i; j++)
		reg += emu_bmp380_width[j];
	if (emu_bmp380_width[i] == 1)
		return (int8_t)r[reg];
	/* T1, T2, P5, P6 are unsigned */
	return emu_bmp_le16(r, reg, !(i == 0 || i == 1 || i == 7 || i == 8));
}

/* BMP380 datasheet 9.2: degC */
static double emu_bmp380_temp(const uint8_t *r, double adc, double *t_lin)
{
	double d = adc - emu_bmp380_par(r, 0) * 256.0;

	*t_lin = d * emu_bmp380_par(r, 1) / 1073741824.0 +
		 d * d * emu_bmp380_par(r, 2) / 281474976710656.0;
	return *t_lin;
}

/* BMP380 datasheet 9.3: Pa */
static double emu_bmp380_press(const uint8_t *r, double up, double t)
{
	double p[12], o1, o2, o3;
	int i;

	for (i = 1; i <= 11; i++)
		p[i] = emu_bmp380_par(r, i + 2);
	p[1] = (p[1] - 16384.0) / 1048576.0;
	p[2] = (p[2] - 16384.0) / 536870912.0;
	p[3] /= 4294967296.0;
	p[4] /= 137438953472.0;
	p[5] *= 8.0;
	p[6] /= 64.0;
	p[7] /= 256.0;
	p[8] /= 32768.0;
	p[9] /= 281474976710656.0;
	p[10] /= 281474976710656.0;
	p[11] /= 36893488147419103232.0;
	o1 = p[5] + p[6] * t + p[7] * t * t + p[8] * t * t * t;
	o2 = up * (p[1] + p[2] * t + p[3] * t * t + p[4] * t * t * t);
	o3 = up * up * (p[9] + p[10] * t) + up * up * up * p[11];
	return o1 + o2 + o3;
}

/* ---- inversion: the code whose value is nearest @want ---- */

/* @aux: t_fine (t_lin for the BMP380, B5 for the BMP180), then the BMP180's oss */
typedef double (*emu_bmp_fwd)(const struct emu_bmp280 *m, double code, const double aux[2]);

/* Bisection over [0, @max]: @f is monotonic there (either way). */
static uint32_t emu_bmp_invert(const struct emu_bmp280 *m, emu_bmp_fwd f, const double aux[2],
			       double want, uint32_t max)
{
	uint32_t lo = 0, hi = max;
	bool rising = f(m, max, aux) > f(m, 0, aux);

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if ((f(m, mid, aux) < want) == rising)
			lo = mid;
		else
			hi = mid;
	}
	return fabs(f(m, lo, aux) - want) <= fabs(f(m, hi, aux) - want) ? lo : hi;
}

static double emu_bmp_fwd_temp(const struct emu_bmp280 *m, double code, const double aux[2])
{
	double fine;

	(void)aux;
	if (m->gen == EMU_BMP180)
		return emu_bmp180_temp(m->regs, code, &fine);
	if (m->gen == EMU_BMP380)
		return emu_bmp380_temp(m->regs, code, &fine);
	return emu_bmp280_temp(m->regs, code, &fine);
}

static double emu_bmp_fwd_press(const struct emu_bmp280 *m, double code, const double aux[2])
{
	if (m->gen == EMU_BMP180)
		return emu_bmp180_press(m->regs, code, aux[0], (int)aux[1]);
	if (m->gen == EMU_BMP380)
		return emu_bmp380_press(m->regs, code, aux[0]);
	return emu_bmp280_press(m->regs, code, aux[0]);
}

static double emu_bmp_fwd_humid(const struct emu_bmp280 *m, double code, const double aux[2])
{
	return emu_bme280_humid(m->regs, code, aux[0]);
}

/* input @i at @t, rounded to a code within [0, @max] when it is a raw one */
static uint32_t emu_bmp_raw(const struct emu_bmp280 *m, int i, double t, uint32_t max)
{
	double v = emu_signal_sample(&m->in[i], t);

	return v <= 0 ? 0 : v >= max ? max : (uint32_t)lround(v);
}

/*
 * The ADC codes of a measurement at @t: temperature first, since the
 * pressure and humidity codes depend on the temperature the chip saw.
 * @oss: the BMP180's pressure oversampling.
 */
static void emu_bmp_codes(const struct emu_bmp280 *m, double t, int oss, uint32_t codes[3])
{
	uint32_t max = m->gen == EMU_BMP180 ? 0xffff : m->gen == EMU_BMP380 ? 0xffffff : 0xfffff;
	double aux[2] = { 0, oss }, fine;

	codes[0] = m->given[EMU_BMP_ADC_T] ? emu_bmp_raw(m, EMU_BMP_ADC_T, t, max) :
		   emu_bmp_invert(m, emu_bmp_fwd_temp, aux,
				  emu_signal_sample(&m->in[EMU_BMP_TEMP], t) / 1000.0, max);
	if (m->gen == EMU_BMP180)
		emu_bmp180_temp(m->regs, codes[0], &fine);
	else if (m->gen == EMU_BMP380)
		emu_bmp380_temp(m->regs, codes[0], &fine);
	else
		emu_bmp280_temp(m->regs, codes[0], &fine);
	aux[0] = fine;
	if (m->gen == EMU_BMP180 && m->given[EMU_BMP_ADC_P])
		codes[1] = emu_bmp_raw(m, EMU_BMP_ADC_P, t, 0xffff) << oss;
	else if (m->given[EMU_BMP_ADC_P])
		codes[1] = emu_bmp_raw(m, EMU_BMP_ADC_P, t, max);
	else
		codes[1] = emu_bmp_invert(m, emu_bmp_fwd_press, aux,
					  emu_signal_sample(&m->in[EMU_BMP_PRESS], t) * 1000.0,
					  m->gen == EMU_BMP180 ? 0x7ffffU >> (3 - oss) : max);
	codes[2] = m->given[EMU_BMP_ADC_H] ? emu_bmp_raw(m, EMU_BMP_ADC_H, t, 0xffff) :
		   emu_bmp_invert(m, emu_bmp_fwd_humid, aux,
				  emu_signal_sample(&m->in[EMU_BMP_HUMID], t) / 1000.0, 0xffff);
}

/* ---- BMP280 / BME280 ---- */

/* oversampling count of a 3-bit osrs field: 0 skips, 1..5 = 1x..16x, 6 and 7 = 16x */
static int emu_bmp280_os(unsigned int osrs)
{
	return osrs ? 1 << (osrs > 5 ? 4 : osrs - 1) : 0;
}

/* the datasheet's maximum measurement time (BME280 9.1), seconds */
static double emu_bmp280_tmeas(const struct emu_bmp280 *m)
{
	uint8_t meas = m->regs[EMU_BMP280_REG_CTRL_MEAS];
	int os_p = emu_bmp280_os(meas >> 2 & 7), os_h = emu_bmp280_os(m->regs[EMU_BMP280_REG_CTRL_HUM] & 7);
	double ms = 1.25 + 2.3 * emu_bmp280_os(meas >> 5);

	if (os_p)
		ms += 2.3 * os_p + 0.575;
	if (m->gen == EMU_BME280 && os_h)
		ms += 2.3 * os_h + 0.575;
	return ms / 1000.0;
}

/* normal mode: t_standby from config bits 7:5 (the BME280's last two differ) */
static double emu_bmp280_cycle(const struct emu_bmp280 *m)
{
	static const double bmp280_sb[] = { 0.5, 62.5, 125, 250, 500, 1000, 2000, 4000 };
	static const double bme280_sb[] = { 0.5, 62.5, 125, 250, 500, 1000, 10, 20 };
	unsigned int sb = m->regs[EMU_BMP280_REG_CONFIG] >> 5;

	return emu_bmp280_tmeas(m) + (m->gen == EMU_BME280 ? bme280_sb[sb] : bmp280_sb[sb]) / 1000.0;
}

static void emu_bmp280_put20(uint8_t *r, uint32_t v)
{
	r[0] = (uint8_t)(v >> 12);
	r[1] = (uint8_t)(v >> 4);
	r[2] = (uint8_t)(v << 4);
}

/*
 * A measurement that ended at @t lands in the data registers: 16 + (osrs - 1)
 * bits (the pressure 20 with the filter on), skipped channels their markers.
 */
static void emu_bmp280_latch(struct emu_bmp280 *m, double t)
{
	uint8_t meas = m->regs[EMU_BMP280_REG_CTRL_MEAS], *d = &m->regs[EMU_BMP280_REG_DATA];
	unsigned int osrs_t = meas >> 5, osrs_p = meas >> 2 & 7;
	unsigned int osrs_h = m->regs[EMU_BMP280_REG_CTRL_HUM] & 7;
	unsigned int bits_p = (m->regs[EMU_BMP280_REG_CONFIG] & 0x1c) ? 20 : 15 + (osrs_p > 5 ? 5 : osrs_p);
	uint32_t codes[3];

	emu_bmp_codes(m, t, 0, codes);
	emu_bmp280_put20(d, osrs_p ? codes[1] & ~((1U << (20 - bits_p)) - 1) : EMU_BMP280_SKIPPED);
	emu_bmp280_put20(d + 3, osrs_t ? codes[0] & ~((1U << (5 - (osrs_t > 5 ? 5 : osrs_t))) - 1) :
			 EMU_BMP280_SKIPPED);
	if (m->gen != EMU_BME280)
		return;
	codes[2] = osrs_h ? codes[2] : 0x8000;
	d[6] = (uint8_t)(codes[2] >> 8);
	d[7] = (uint8_t)codes[2];
}

/* bring the chip to @now: a forced measurement ends, normal mode's latest lands */
static void emu_bmp280_update(struct emu_bmp280 *m, double now)
{
	uint8_t *meas = &m->regs[EMU_BMP280_REG_CTRL_MEAS];
	double cycle;

	if (m->busy && now >= m->start_s + emu_bmp280_tmeas(m)) {
		emu_bmp280_latch(m, m->start_s + emu_bmp280_tmeas(m));
		m->busy = false;
		*meas &= (uint8_t)~3;	/* back to sleep */
	}
	if ((*meas & 3) != 3 || now < m->next_s)
		return;
	cycle = emu_bmp280_cycle(m);
	m->next_s += floor((now - m->next_s) / cycle) * cycle;
	emu_bmp280_latch(m, m->next_s);
	m->next_s += cycle;
}

/* power-on values: sleep, data registers "skipped"; NVM and id stay */
static void emu_bmp280_reset(struct emu_bmp280 *m)
{
	memset(&m->regs[EMU_BMP280_REG_CTRL_HUM], 0, 0x100 - EMU_BMP280_REG_CTRL_HUM);
	emu_bmp280_put20(&m->regs[EMU_BMP280_REG_DATA], EMU_BMP280_SKIPPED);
	emu_bmp280_put20(&m->regs[EMU_BMP280_REG_DATA + 3], EMU_BMP280_SKIPPED);
	if (m->gen == EMU_BME280)
		m->regs[EMU_BMP280_REG_DATA + 6] = 0x80;
	m->busy = false;
}

static void emu_bmp280_write(struct emu_bmp280 *m, uint8_t reg, uint8_t val, double now)
{
	emu_bmp280_update(m, now);
	switch (reg) {
	case EMU_BMP280_REG_RESET:
		if (val == EMU_BMP280_SOFT_RESET)
			emu_bmp280_reset(m);
		return;
	case EMU_BMP280_REG_CTRL_HUM:
		if (m->gen == EMU_BME280)
			m->regs[reg] = val & 7;
		return;
	case EMU_BMP280_REG_CONFIG:
		m->regs[reg] = val & 0xfd;
		return;
	case EMU_BMP280_REG_CTRL_MEAS:
		m->regs[reg] = val;
		/* a new mode or new settings start from now */
		m->busy = (val & 3) == 1 || (val & 3) == 2;
		m->start_s = now;
		m->next_s = now + emu_bmp280_tmeas(m);
		return;
	default:
		return;		/* read-only */
	}
}

static uint8_t emu_bmp280_read(struct emu_bmp280 *m, uint8_t reg, double now)
{
	emu_bmp280_update(m, now);
	if (reg != EMU_BMP280_REG_STATUS)
		return m->regs[reg];
	if (m->busy || ((m->regs[EMU_BMP280_REG_CTRL_MEAS] & 3) == 3 &&
			now >= m->next_s - emu_bmp280_tmeas(m)))
		return EMU_BMP280_STATUS_MEASURING;
	return 0;
}

/* ---- BMP180 ---- */

/* maximum conversion time of the measurement ctrl_meas @v asks for, seconds */
static double emu_bmp180_tconv(uint8_t v)
{
	static const double press_ms[] = { 4.5, 7.5, 13.5, 25.5 };

	return ((v & 0x1f) == EMU_BMP180_MEAS_PRESS ? press_ms[v >> 6] : 4.5) / 1000.0;
}

static void emu_bmp180_update(struct emu_bmp280 *m, double now)
{
	uint8_t meas = m->regs[EMU_BMP280_REG_CTRL_MEAS], *out = &m->regs[EMU_BMP180_REG_OUT];
	double end = m->start_s + emu_bmp180_tconv(meas);
	int oss = meas >> 6;
	uint32_t codes[3];

	if (!m->busy || now < end)
		return;
	m->busy = false;
	m->regs[EMU_BMP280_REG_CTRL_MEAS] &= (uint8_t)~EMU_BMP180_SCO;
	emu_bmp_codes(m, end, oss, codes);
	if ((meas & 0x1f) == EMU_BMP180_MEAS_TEMP) {
		out[0] = (uint8_t)(codes[0] >> 8);
		out[1] = (uint8_t)codes[0];
	} else if ((meas & 0x1f) == EMU_BMP180_MEAS_PRESS) {
		codes[1] <<= 8 - oss;
		out[0] = (uint8_t)(codes[1] >> 16);
		out[1] = (uint8_t)(codes[1] >> 8);
		out[2] = (uint8_t)codes[1];
	}
}

static void emu_bmp180_reset(struct emu_bmp280 *m)
{
	m->regs[EMU_BMP280_REG_CTRL_MEAS] = 0;
	m->regs[EMU_BMP180_REG_OUT] = 0x80;
	m->regs[EMU_BMP180_REG_OUT + 1] = 0;
	m->regs[EMU_BMP180_REG_OUT + 2] = 0;
	m->busy = false;
}

static void emu_bmp180_write(struct emu_bmp280 *m, uint8_t reg, uint8_t val, double now)
{
	emu_bmp180_update(m, now);
	if (reg == EMU_BMP280_REG_RESET && val == EMU_BMP280_SOFT_RESET) {
		emu_bmp180_reset(m);
	} else if (reg == EMU_BMP280_REG_CTRL_MEAS) {
		m->regs[reg] = val;
		m->busy = val & EMU_BMP180_SCO;
		m->start_s = now;
	}
}

static uint8_t emu_bmp180_read(struct emu_bmp280 *m, uint8_t reg, double now)
{
	emu_bmp180_update(m, now);
	return m->regs[reg];
}

/* ---- BMP380 ---- */

/* measurement time of the enabled sensors (datasheet 3.9.1), seconds */
static double emu_bmp380_tconv(const struct emu_bmp280 *m)
{
	uint8_t pwr = m->regs[EMU_BMP380_REG_PWR_CTRL], osr = m->regs[EMU_BMP380_REG_OSR];
	double us = 234;

	if (pwr & 1)
		us += 392 + 2020.0 * (1 << (osr & 7));
	if (pwr & 2)
		us += 163 + 2020.0 * (1 << (osr >> 3 & 7));
	return us / 1e6;
}

/* the normal mode's period: 5 ms << ODR_SEL (17 at most) */
static double emu_bmp380_period(const struct emu_bmp280 *m)
{
	unsigned int odr = m->regs[EMU_BMP380_REG_ODR] & 0x1f;

	return 0.005 * (1 << (odr > 17 ? 17 : odr));
}

static void emu_bmp380_latch(struct emu_bmp280 *m, double t)
{
	uint8_t pwr = m->regs[EMU_BMP380_REG_PWR_CTRL], *d = &m->regs[EMU_BMP380_REG_DATA];
	uint32_t codes[3];
	int i;

	emu_bmp_codes(m, t, 0, codes);
	for (i = 0; i < 3; i++) {
		if (pwr & 1)
			d[i] = (uint8_t)(codes[1] >> (8 * i));
		if (pwr & 2)
			d[3 + i] = (uint8_t)(codes[0] >> (8 * i));
	}
	m->regs[EMU_BMP380_REG_STATUS] |= (uint8_t)((pwr & 1) << 5 | (pwr & 2) << 5);
}

static void emu_bmp380_update(struct emu_bmp280 *m, double now)
{
	uint8_t *pwr = &m->regs[EMU_BMP380_REG_PWR_CTRL];
	double period;

	if (m->busy && now >= m->start_s + emu_bmp380_tconv(m)) {
		emu_bmp380_latch(m, m->start_s + emu_bmp380_tconv(m));
		m->busy = false;
		*pwr &= (uint8_t)~0x30;		/* forced: back to sleep */
	}
	if ((*pwr >> 4 & 3) != 3 || now < m->next_s)
		return;
	period = emu_bmp380_period(m);
	m->next_s += floor((now - m->next_s) / period) * period;
	emu_bmp380_latch(m, m->next_s);
	m->next_s += period;
}

/* power-on values (datasheet 4.3); the NVM and chip id stay */
static void emu_bmp380_reset(struct emu_bmp280 *m)
{
	static const uint8_t data[6] = { 0, 0, 0x80, 0, 0, 0x80 };

	m->regs[EMU_BMP380_REG_ERR] = 0;
	m->regs[EMU_BMP380_REG_STATUS] = EMU_BMP380_STATUS_CMD_RDY;
	memcpy(&m->regs[EMU_BMP380_REG_DATA], data, sizeof(data));
	memset(&m->regs[0x15], 0, 0x20 - 0x15);
	m->regs[0x15] = 0x01;				/* FIFO watermark */
	m->regs[0x17] = m->regs[0x18] = m->regs[0x19] = 0x02;
	m->regs[EMU_BMP380_REG_OSR] = 0x02;
	m->busy = false;
}

/* the power mode field just written: a forced measurement, or normal mode if it fits */
static void emu_bmp380_mode(struct emu_bmp280 *m, double now)
{
	unsigned int mode = m->regs[EMU_BMP380_REG_PWR_CTRL] >> 4 & 3;

	m->busy = mode == 1 || mode == 2;
	m->start_s = now;
	if (mode != 3)
		return;
	if (emu_bmp380_tconv(m) > emu_bmp380_period(m)) {
		/* the chip refuses the setting: conf_err, and it stays asleep */
		m->regs[EMU_BMP380_REG_ERR] |= EMU_BMP380_ERR_CONF;
		m->regs[EMU_BMP380_REG_PWR_CTRL] &= (uint8_t)~0x30;
		return;
	}
	m->next_s = now + emu_bmp380_tconv(m);
}

static void emu_bmp380_write(struct emu_bmp280 *m, uint8_t reg, uint8_t val, double now)
{
	emu_bmp380_update(m, now);
	switch (reg) {
	case EMU_BMP380_REG_CMD:
		if (val == EMU_BMP280_SOFT_RESET)
			emu_bmp380_reset(m);
		else if (val != 0x00 && val != 0x34 && val != 0xb0)	/* nop, extmode, fifo flush */
			m->regs[EMU_BMP380_REG_ERR] |= EMU_BMP380_ERR_CMD;
		return;
	case EMU_BMP380_REG_PWR_CTRL:
		m->regs[reg] = val & 0x33;
		emu_bmp380_mode(m, now);
		return;
	case EMU_BMP380_REG_OSR:
		m->regs[reg] = val & 0x3f;
		return;
	case EMU_BMP380_REG_ODR:
		m->regs[reg] = val & 0x1f;
		return;
	case 0x15: case 0x16: case 0x17: case 0x18: case 0x19: case 0x1a: case 0x1f:
		m->regs[reg] = val;	/* FIFO, interrupt, interface, filter: kept, not acted on */
		return;
	default:
		return;
	}
}

/* ERR clears on read; a data register read clears its drdy bit */
static uint8_t emu_bmp380_read(struct emu_bmp280 *m, uint8_t reg, double now)
{
	uint8_t v;

	emu_bmp380_update(m, now);
	v = m->regs[reg];
	if (reg == EMU_BMP380_REG_ERR)
		m->regs[reg] = 0;
	else if (reg >= EMU_BMP380_REG_DATA && reg < EMU_BMP380_REG_DATA + 6)
		m->regs[EMU_BMP380_REG_STATUS] &= (uint8_t)~(reg < 0x07 ? BIT(5) : BIT(6));
	return v;
}

/* ---- transfers ---- */

static uint8_t emu_bmp_read_reg(struct emu_bmp280 *m, uint8_t reg, double now)
{
	if (m->gen == EMU_BMP180)
		return emu_bmp180_read(m, reg, now);
	if (m->gen == EMU_BMP380)
		return emu_bmp380_read(m, reg, now);
	return emu_bmp280_read(m, reg, now);
}

static void emu_bmp_write_reg(struct emu_bmp280 *m, uint8_t reg, uint8_t val, double now)
{
	if (m->gen == EMU_BMP180)
		emu_bmp180_write(m, reg, val, now);
	else if (m->gen == EMU_BMP380)
		emu_bmp380_write(m, reg, val, now);
	else
		emu_bmp280_write(m, reg, val, now);
}

/*
 * A write message is an address, its data, then address/data pairs; a read
 * returns registers from the last address on (the address moves along).
 */
static int emu_bmp_i2c_transfer(struct emu_chip *chip, struct bus_i2c_msg *msgs, int n)
{
	struct emu_bmp280 *m = emu_bmp280_from_chip(chip);
	double now = emu_chip_now(chip);
	int i, j;

	for (i = 0; i < n; i++) {
		struct bus_i2c_msg *msg = &msgs[i];

		if (msg->flags & BUS_I2C_M_RD) {
			for (j = 0; j < msg->len; j++)
				msg->buf[j] = emu_bmp_read_reg(m, m->ptr++, now);
			continue;
		}
		for (j = 0; j + 1 < msg->len; j += 2)
			emu_bmp_write_reg(m, msg->buf[j], msg->buf[j + 1], now);
		if (msg->len)
			m->ptr = msg->buf[msg->len & 1 ? msg->len - 1 : 0];
	}
	return n;
}

static const struct emu_chip_ops emu_bmp280_ops = {
	.i2c_transfer = emu_bmp_i2c_transfer,
	.destroy = emu_chip_free,
};

/* ---- creation ---- */

/* the part's NVM and chip id, as emu_bmp*_cal[] give them */
static void emu_bmp_nvm(struct emu_bmp280 *m)
{
	uint8_t *r = m->regs;
	int i, reg;

	if (m->gen == EMU_BMP180) {
		for (i = 0; i < 11; i++) {
			r[EMU_BMP180_REG_CALIB + 2 * i] = (uint8_t)(emu_bmp180_cal[i] >> 8);
			r[EMU_BMP180_REG_CALIB + 2 * i + 1] = (uint8_t)emu_bmp180_cal[i];
		}
		r[EMU_BMP280_REG_ID] = 0x55;
		return;
	}
	if (m->gen == EMU_BMP380) {
		for (i = 0, reg = EMU_BMP380_REG_CALIB; i < 14; reg += emu_bmp380_width[i++]) {
			r[reg] = (uint8_t)emu_bmp380_cal[i];
			if (emu_bmp380_width[i] == 2)
				r[reg + 1] = (uint8_t)(emu_bmp380_cal[i] >> 8);
		}
		r[0x00] = 0x50;
		r[0x01] = 0x01;
		return;
	}
	for (i = 0; i < 12; i++) {
		r[EMU_BMP280_REG_CALIB + 2 * i] = (uint8_t)emu_bmp280_cal[i];
		r[EMU_BMP280_REG_CALIB + 2 * i + 1] = (uint8_t)(emu_bmp280_cal[i] >> 8);
	}
	r[EMU_BMP280_REG_ID] = m->gen == EMU_BME280 ? 0x60 : 0x58;
	if (m->gen != EMU_BME280)
		return;
	r[EMU_BMP280_REG_H1] = (uint8_t)emu_bme280_hum[0];
	r[EMU_BMP280_REG_H2] = (uint8_t)emu_bme280_hum[1];
	r[EMU_BMP280_REG_H2 + 1] = (uint8_t)(emu_bme280_hum[1] >> 8);
	r[0xe3] = (uint8_t)emu_bme280_hum[2];
	r[0xe4] = (uint8_t)(emu_bme280_hum[3] >> 4);
	r[0xe5] = (uint8_t)((emu_bme280_hum[3] & 0xf) | (emu_bme280_hum[4] & 0xf) << 4);
	r[0xe6] = (uint8_t)(emu_bme280_hum[4] >> 4);
	r[0xe7] = (uint8_t)emu_bme280_hum[5];
}

static const struct iio_device_id emu_bmp280_ids[] = {
	{ "bmp085", EMU_BMP180 }, { "bmp180", EMU_BMP180 }, { "bmp280", EMU_BMP280 },
	{ "bme280", EMU_BME280 }, { "bmp380", EMU_BMP380 }, { NULL, 0 }
};

/* the inputs a part takes: humidity only on the BME280, UT/UP only on the BMP180 */
static int emu_bmp_slots(struct emu_bmp280 *m, struct emu_input_slot *s)
{
	int n = 0;

	s[n++] = (struct emu_input_slot){ "temp", &m->in[EMU_BMP_TEMP], NULL };
	s[n++] = (struct emu_input_slot){ "pressure", &m->in[EMU_BMP_PRESS], NULL };
	s[n++] = (struct emu_input_slot){ "adc_T", &m->in[EMU_BMP_ADC_T], &m->given[EMU_BMP_ADC_T] };
	s[n++] = (struct emu_input_slot){ "adc_P", &m->in[EMU_BMP_ADC_P], &m->given[EMU_BMP_ADC_P] };
	if (m->gen == EMU_BME280) {
		s[n++] = (struct emu_input_slot){ "humidityrelative", &m->in[EMU_BMP_HUMID], NULL };
		s[n++] = (struct emu_input_slot){ "adc_H", &m->in[EMU_BMP_ADC_H],
						  &m->given[EMU_BMP_ADC_H] };
	}
	if (m->gen == EMU_BMP180) {
		s[n++] = (struct emu_input_slot){ "UT", &m->in[EMU_BMP_ADC_T],
						  &m->given[EMU_BMP_ADC_T] };
		s[n++] = (struct emu_input_slot){ "UP", &m->in[EMU_BMP_ADC_P],
						  &m->given[EMU_BMP_ADC_P] };
	}
	return n;
}

/*
 * emu_bmp280_create() - a part in its power-on state (sleep, data registers
 * "skipped"), 25 degC, 101.325 kPa and 50 %RH unless the board says otherwise.
 */
static int emu_bmp280_create(const struct emu_params *p, struct emu_chip **out, char *err,
			     size_t errlen)
{
	struct emu_input_slot slots[8];
	const char *bad = "";
	struct emu_bmp280 *m;
	int n, ret;

	ret = emu_params_part(p, 4, "a BMP280 family part", err, errlen);
	if (ret < 0)
		return ret;
	m = emu_chip_alloc(sizeof(*m), &emu_bmp280_ops, p->id->name);
	if (!m)
		return -ENOMEM;
	m->chip.inputs = m->in;
	m->chip.ninputs = EMU_BMP_NIN;
	m->gen = (enum emu_bmp280_gen)ret;
	m->in[EMU_BMP_TEMP].value = 25000;
	m->in[EMU_BMP_PRESS].value = 101.325;
	m->in[EMU_BMP_HUMID].value = 50000;
	emu_bmp_nvm(m);
	if (m->gen == EMU_BMP180)
		emu_bmp180_reset(m);
	else if (m->gen == EMU_BMP380)
		emu_bmp380_reset(m);
	else
		emu_bmp280_reset(m);
	n = emu_bmp_slots(m, slots);
	ret = emu_inputs_take(p, slots, n, &bad);
	if (ret == -EINVAL)
		snprintf(err, errlen, "%s: unknown input \"%s\" (valid: temp in m°C, pressure in kPa%s, "
			 "adc_T, adc_P%s)", p->id->name, bad,
			 m->gen == EMU_BME280 ? ", humidityrelative in m%RH" : "",
			 m->gen == EMU_BME280 ? ", adc_H" : m->gen == EMU_BMP180 ? ", UT, UP" : "");
	else if (ret)
		snprintf(err, errlen, "%s: out of memory copying inputs", p->id->name);
	return emu_chip_done(&m->chip, ret, out);
}

static const struct emu_model emu_bmp280_model = {
	.name = "bmp280",
	.id_table = emu_bmp280_ids,
	.create = emu_bmp280_create,
};
EMU_MODEL_REGISTER(emu_bmp280_model);
