/*
 * bmp280.c - driver for the Bosch BMP085/BMP180, BMP280, BME280 and BMP380
 * pressure sensors (I2C), as Linux 6.1's drivers/iio/pressure/bmp280-core.c,
 * bmp280-i2c.c, bmp280-regmap.c and bmp280.h (Debian's 6.1.192, read for this
 * file) expose them: in_pressure_input (kPa), in_temp_input (milli degC),
 * in_humidityrelative_input (milli percent, bme280) and their
 * oversampling_ratio files; the bmp380's sampling_frequency and
 * filter_low_pass_3db_frequency. Each part's calibration NVM is read at probe
 * and every reading goes through the datasheet's integer compensation exactly
 * as the kernel computes it, wrap-arounds and all.
 * No `_available` files: 6.1's channels set no info_mask_*_available bit, so
 * its read_avail is never asked (6.2 added them); we follow 6.1.
 * All five ids of the 6.1 I2C table are here; bmp085 is a bmp180 (the kernel's
 * EOC interrupt of the bmp085 is not taken: conversions are waited out, as the
 * kernel does without one). The kernel's runtime PM (regulators off after
 * 200 ms idle, chip_config again on resume) has nothing to switch here.
 * The channels have no scan elements, so iiod's XML lists them in this
 * table's order, where the kernel's libiio follows kernfs (K-61).
 * Place in the flow: bus -> *driver* -> core. Waits go through bus_msleep().
 * Must not: format text, log, or spell attribute names.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "iio_kit.h"
#include "bus/bus.h"

#define BMP280_REG_ID			0xd0
#define BMP280_REG_COMP_TEMP_START	0x88
#define BMP280_CONTIGUOUS_CALIB_REGS	24	/* T1..T3, P1..P9: little-endian words */
#define BMP280_REG_COMP_H1		0xa1
#define BMP280_REG_COMP_H2		0xe1
#define BMP280_REG_COMP_H3		0xe3
#define BMP280_REG_COMP_H4		0xe4
#define BMP280_REG_COMP_H5		0xe5
#define BMP280_REG_COMP_H6		0xe7
#define BMP280_REG_CTRL_HUMIDITY	0xf2
#define BMP280_REG_CTRL_MEAS		0xf4
#define BMP280_REG_CONFIG		0xf5
#define BMP280_REG_PRESS_MSB		0xf7
#define BMP280_REG_TEMP_MSB		0xfa
#define BMP280_REG_HUMIDITY_MSB		0xfd

#define BMP280_OSRS_HUMIDITY_MASK	GENMASK(2, 0)
#define BMP280_OSRS_TEMP_MASK		GENMASK(7, 5)
#define BMP280_OSRS_PRESS_MASK		GENMASK(4, 2)
#define BMP280_MODE_MASK		GENMASK(1, 0)
#define BMP280_MODE_NORMAL		3
#define BMP280_FILTER_MASK		GENMASK(4, 2)
#define BMP280_FILTER_4X		2
#define BMP280_COMP_H5_MASK		GENMASK(15, 4)
#define BMP280_MEAS_TRIM_MASK		GENMASK(24, 4)
#define BMP280_TEMP_SKIPPED		0x80000
#define BMP280_PRESS_SKIPPED		0x80000
#define BMP280_HUMIDITY_SKIPPED		0x8000

#define BMP180_REG_CALIB_START		0xaa
#define BMP180_REG_CALIB_COUNT		22	/* AC1..MD: big-endian words */
#define BMP180_REG_OUT_MSB		0xf6
#define BMP180_MEAS_CTRL_MASK		GENMASK(4, 0)
#define BMP180_MEAS_TEMP		0x0e
#define BMP180_MEAS_PRESS		0x14
#define BMP180_MEAS_SCO			BIT(5)
#define BMP180_OSRS_PRESS_MASK		GENMASK(7, 6)
#define BMP180_TEMP_WAIT_MS		5	/* the kernel's 4500 us, in whole ms */

#define BMP380_REG_ID			0x00
#define BMP380_REG_ERROR		0x02
#define BMP380_REG_STATUS		0x03
#define BMP380_REG_PRESS_XLSB		0x04
#define BMP380_REG_TEMP_XLSB		0x07
#define BMP380_REG_POWER_CONTROL	0x1b
#define BMP380_REG_OSR			0x1c
#define BMP380_REG_ODR			0x1d
#define BMP380_REG_CONFIG		0x1f
#define BMP380_REG_CALIB_TEMP_START	0x31
#define BMP380_CALIB_REG_COUNT		21
#define BMP380_REG_CMD			0x7e
#define BMP380_CMD_SOFT_RESET		0xb6
#define BMP380_STATUS_CMD_RDY		BIT(4)
#define BMP380_ERR_CMD			BIT(1)
#define BMP380_ERR_CONF			BIT(2)
#define BMP380_CTRL_SENSORS_MASK	GENMASK(1, 0)	/* press_en, temp_en */
#define BMP380_MODE_MASK		GENMASK(5, 4)
#define BMP380_MODE_SLEEP		0
#define BMP380_MODE_NORMAL		3
#define BMP380_OSRS_TEMP_MASK		GENMASK(5, 3)
#define BMP380_OSRS_PRESS_MASK		GENMASK(2, 0)
#define BMP380_ODRS_MASK		GENMASK(4, 0)
#define BMP380_FILTER_MASK		GENMASK(3, 1)
#define BMP380_SKIPPED			0x800000
#define BMP380_MIN_TEMP			-4000
#define BMP380_MAX_TEMP			8500
#define BMP380_MIN_PRES			3000000
#define BMP380_MAX_PRES			12500000
#define BMP380_CMD_WAIT_MS		2	/* start_up_time, 2000 us */
#define BMP380_CONF_WAIT_MS		80	/* the longest measurement, datasheet 3.9.1 */

#define BMP085_CHIP_ID			0x55	/* the bmp180's */
#define BMP280_CHIP_ID			0x58
#define BME280_CHIP_ID			0x60
#define BMP380_CHIP_ID			0x50
#define BMP280_START_UP_MS		2

struct bmp280_data;

/* the measurands with an oversampling ratio: rows of bmp280_chip_info.os and bmp280_data.os */
enum bmp280_meas { BMP280_TEMP, BMP280_PRESS, BMP280_HUMID, BMP280_NMEAS };

/*
 * struct bmp280_os - one measurand's oversampling on one generation: the
 * ratios it takes (powers of two; none for a measurand the part lacks), its
 * default as log2, and the register field the ratio is written to (0 where
 * nothing is written: the bmp180's temperature).
 */
struct bmp280_os {
	const int *avail;
	int n;
	int dflt;
	uint8_t field;
};

#define BMP280_OS(_avail, _dflt, _field)					\
	{ (_avail), (int)ARRAY_SIZE(_avail), (_dflt), (_field) }

/*
 * struct bmp280_chip_info - one generation, as the kernel's table: the
 * oversampling of each measurand, the bmp380's output data rates and IIR
 * filter, and its register access.
 */
struct bmp280_chip_info {
	uint8_t id_reg;
	const struct iio_chan_spec *channels;
	int num_channels;
	struct bmp280_os os[BMP280_NMEAS];
	const int *iir_avail;
	int n_iir, iir_default;
	const int (*odr_avail)[2];
	int n_odr, odr_default;
	int (*preinit)(struct bmp280_data *data);
	unsigned int (*first_ms)(const struct bmp280_data *data);
	int (*chip_config)(struct bmp280_data *data);
	/* a reading: the ADC code, compensated, scaled to the ABI's unit */
	int (*read_adc_temp)(struct bmp280_data *data, int32_t *adc);
	int (*comp_temp)(struct bmp280_data *data, int32_t adc, int32_t *comp);
	int temp_mult;		/* the compensated value to milli degC */
	int (*read_adc_press)(struct bmp280_data *data, int32_t *adc);
	int (*comp_press)(struct bmp280_data *data, int32_t adc, uint32_t *comp);
	int press_div;		/* the compensated value over this is kPa */
	int (*read_humid)(struct bmp280_data *data, int *val, int *val2);
	int (*read_calib)(struct bmp280_data *data);
};

/* Each generation's NVM words, signed and widths as the kernel keeps them. */
struct bmp280_calib {
	uint16_t T1;
	int16_t T2, T3;
	uint16_t P1;
	int16_t P2, P3, P4, P5, P6, P7, P8, P9;
	uint8_t H1, H3;
	int16_t H2, H4, H5;
	int8_t H6;
};

struct bmp180_calib {
	int16_t AC1, AC2, AC3;
	uint16_t AC4, AC5, AC6;
	int16_t B1, B2, MB, MC, MD;
};

struct bmp380_calib {
	uint16_t T1, T2, P5, P6;
	int8_t T3, P3, P4, P7, P8, P10, P11;
	int16_t P1, P2, P9;
};

/**
 * struct bmp280_data - per-device state (iio_priv()); callbacks run under the
 * device lock. @os: log2 of the oversampling ratios, @odr: row of the
 * bmp380's rate table, @iir: row of its filter table, @t_fine: the
 * temperature carried into the pressure and humidity formulas.
 */
struct bmp280_data {
	struct bus_i2c_client *client;
	const struct bmp280_chip_info *info;
	union {
		struct bmp280_calib bmp280;
		struct bmp180_calib bmp180;
		struct bmp380_calib bmp380;
	} calib;
	int os[BMP280_NMEAS];
	int iir, odr;
	int32_t t_fine;
};

#define BMP280_CHAN(_type, _shared_by_all) {					\
	.type = (_type),							\
	.info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED) |			\
			      BIT(IIO_CHAN_INFO_OVERSAMPLING_RATIO),		\
	.info_mask_shared_by_all = (_shared_by_all),				\
}

/* pressure, temperature, humidity: bmp180/bmp280 take the first two */
static const struct iio_chan_spec bmp280_channels[] = {
	BMP280_CHAN(IIO_PRESSURE, 0),
	BMP280_CHAN(IIO_TEMP, 0),
	BMP280_CHAN(IIO_HUMIDITYRELATIVE, 0),
};

#define BMP380_SHARED	(BIT(IIO_CHAN_INFO_SAMP_FREQ) |				\
			 BIT(IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY))

static const struct iio_chan_spec bmp380_channels[] = {
	BMP280_CHAN(IIO_PRESSURE, BMP380_SHARED),
	BMP280_CHAN(IIO_TEMP, BMP380_SHARED),
};

/* ---- register access: the kernel's regmap, 8-bit registers ---- */

static int bmp280_read_reg(struct bmp280_data *data, uint8_t reg)
{
	return bus_smbus_read_byte_data(data->client, reg);
}

static int bmp280_write_reg(struct bmp280_data *data, uint8_t reg, uint8_t val)
{
	return bus_smbus_write_byte_data(data->client, reg, val);
}

/* regmap_bulk_read(): @len consecutive registers, all or an error */
static int bmp280_bulk_read(struct bmp280_data *data, uint8_t reg, uint8_t *buf, uint8_t len)
{
	int ret = bus_smbus_read_i2c_block_data(data->client, reg, len, buf);

	if (ret < 0)
		return ret;
	return ret == len ? 0 : -EIO;
}

/*
 * regmap_update_bits_check(): read, replace the @mask bits with @val, write
 * only when that changes the register (or always, with @force: the kernel's
 * regmap_write_bits()). @changed (may be NULL): whether it did.
 */
static int bmp280_update_bits(struct bmp280_data *data, uint8_t reg, uint8_t mask, uint8_t val,
			      bool force, bool *changed)
{
	int old = bmp280_read_reg(data, reg);
	uint8_t new;

	if (old < 0)
		return old;
	new = (uint8_t)((old & ~mask) | (val & mask));
	if (changed)
		*changed = new != old;
	if (new == old && !force)
		return 0;
	return bmp280_write_reg(data, reg, new);
}

static uint32_t bmp280_get_be24(const uint8_t *b)
{
	return (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | b[2];
}

static uint32_t bmp280_get_le24(const uint8_t *b)
{
	return (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

static uint16_t bmp280_get_le16(const uint8_t *b)
{
	return (uint16_t)(b[1] << 8 | b[0]);
}

static uint16_t bmp280_get_be16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

/* the kernel's s32 arithmetic wraps (-fno-strict-overflow): so does ours, without UB */
static int32_t bmp280_s32(int64_t v)
{
	return (int32_t)(uint32_t)(uint64_t)v;
}

/* ...and its s64 arithmetic: a * b, a + b, a - b modulo 2^64 */
static int64_t bmp280_mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

static int64_t bmp280_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t bmp280_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

/*
 * @n calibration words from @reg on, in one bulk read: little-endian (the
 * BMP280's) or, with @be, big-endian (the BMP180's).
 */
static int bmp280_read_words(struct bmp280_data *data, uint8_t reg, uint16_t *w, size_t n,
			     bool be)
{
	uint8_t buf[BMP280_CONTIGUOUS_CALIB_REGS];
	size_t i;
	int ret;

	if (2 * n > sizeof(buf))
		return -EINVAL;
	ret = bmp280_bulk_read(data, reg, buf, (uint8_t)(2 * n));
	if (ret < 0)
		return ret;
	for (i = 0; i < n; i++)
		w[i] = be ? bmp280_get_be16(&buf[2 * i]) : bmp280_get_le16(&buf[2 * i]);
	return 0;
}

/* ---- BMP280 / BME280 ---- */

static int bmp280_read_calib(struct bmp280_data *data)
{
	struct bmp280_calib *c = &data->calib.bmp280;
	uint16_t w[BMP280_CONTIGUOUS_CALIB_REGS / 2];
	int ret;

	ret = bmp280_read_words(data, BMP280_REG_COMP_TEMP_START, w, ARRAY_SIZE(w), false);
	if (ret < 0)
		return ret;
	c->T1 = w[0];
	c->T2 = (int16_t)w[1];
	c->T3 = (int16_t)w[2];
	c->P1 = w[3];
	c->P2 = (int16_t)w[4];
	c->P3 = (int16_t)w[5];
	c->P4 = (int16_t)w[6];
	c->P5 = (int16_t)w[7];
	c->P6 = (int16_t)w[8];
	c->P7 = (int16_t)w[9];
	c->P8 = (int16_t)w[10];
	c->P9 = (int16_t)w[11];
	return 0;
}

/* @len registers from @reg: a single byte read for one, as the kernel's regmap_read() */
static int bmp280_read_regs(struct bmp280_data *data, uint8_t reg, uint8_t *buf, uint8_t len)
{
	int ret;

	if (len > 1)
		return bmp280_bulk_read(data, reg, buf, len);
	ret = bmp280_read_reg(data, reg);
	if (ret < 0)
		return ret;
	buf[0] = (uint8_t)ret;
	return 0;
}

/*
 * The humidity words sit apart, two of them 12-bit fields sharing 0xe5:
 * read one by one in the kernel's order and widths.
 */
static int bme280_read_calib(struct bmp280_data *data)
{
	static const struct {
		uint8_t reg, len;
	} rd[] = {
		{ BMP280_REG_COMP_H1, 1 }, { BMP280_REG_COMP_H2, 2 }, { BMP280_REG_COMP_H3, 1 },
		{ BMP280_REG_COMP_H4, 2 }, { BMP280_REG_COMP_H5, 2 }, { BMP280_REG_COMP_H6, 1 },
	};
	struct bmp280_calib *c = &data->calib.bmp280;
	uint8_t b[ARRAY_SIZE(rd)][2];
	size_t i;
	int ret;

	ret = bmp280_read_calib(data);
	for (i = 0; ret >= 0 && i < ARRAY_SIZE(rd); i++)
		ret = bmp280_read_regs(data, rd[i].reg, b[i], rd[i].len);
	if (ret < 0)
		return ret;
	c->H1 = b[0][0];
	c->H2 = (int16_t)bmp280_get_le16(b[1]);
	c->H3 = b[2][0];
	c->H4 = (int16_t)sign_extend32(((bmp280_get_be16(b[3]) >> 4) & 0xff0) |
				       (bmp280_get_be16(b[3]) & 0xf), 11);
	c->H5 = (int16_t)sign_extend32(FIELD_GET(BMP280_COMP_H5_MASK, bmp280_get_le16(b[4])), 11);
	c->H6 = (int8_t)b[5][0];
	return 0;
}

/* Datasheet 3.11.3: 0.01 degC; t_fine kept for pressure and humidity. */
static int bmp280_compensate_temp(struct bmp280_data *data, int32_t adc, int32_t *comp)
{
	const struct bmp280_calib *c = &data->calib.bmp280;
	int64_t d = (adc >> 4) - (int32_t)c->T1;
	int32_t var1, var2;

	var1 = bmp280_s32(((int64_t)(adc >> 3) - 2 * (int32_t)c->T1) * c->T2) >> 11;
	var2 = bmp280_s32((int64_t)(bmp280_s32(d * d) >> 12) * c->T3) >> 14;
	data->t_fine = bmp280_s32((int64_t)var1 + var2);
	*comp = bmp280_s32((int64_t)data->t_fine * 5 + 128) >> 8;
	return 0;
}

/*
 * Datasheet 3.11.3, 64-bit version: Pa in Q24.8, 0 where the divisor is 0.
 * Wrapping products and sums, as the kernel's s64 ones for extreme codes.
 */
static int bmp280_compensate_press(struct bmp280_data *data, int32_t adc, uint32_t *comp)
{
	const struct bmp280_calib *c = &data->calib.bmp280;
	int64_t var1, var2, p;

	var1 = (int64_t)data->t_fine - 128000;
	var2 = bmp280_mul(bmp280_mul(var1, var1), c->P6);
	var2 = bmp280_add(var2, bmp280_mul(bmp280_mul(var1, c->P5), INT64_C(1) << 17));
	var2 = bmp280_add(var2, bmp280_mul(c->P4, INT64_C(1) << 35));
	var1 = bmp280_add(bmp280_mul(bmp280_mul(var1, var1), c->P3) >> 8,
			  bmp280_mul(bmp280_mul(var1, c->P2), INT64_C(1) << 12));
	var1 = bmp280_mul(bmp280_add(INT64_C(1) << 47, var1), c->P1) >> 33;
	*comp = 0;
	if (var1 == 0)
		return 0;
	p = bmp280_mul(bmp280_sub(bmp280_mul(INT64_C(1048576) - adc, INT64_C(1) << 31), var2),
		       3125);
	/* INT64_MIN / -1 is the one quotient that does not fit */
	p = var1 == -1 ? bmp280_sub(0, p) : p / var1;
	var1 = bmp280_mul(bmp280_mul(c->P9, p >> 13), p >> 13) >> 25;
	var2 = bmp280_mul(c->P8, p) >> 19;
	p = bmp280_add(bmp280_add(bmp280_add(p, var1), var2) >> 8, (int64_t)c->P7 * 16);
	*comp = (uint32_t)p;
	return 0;
}

/* BME280 datasheet 4.2.3: %RH in Q22.10, clamped to 0..100. */
static uint32_t bmp280_compensate_humidity(struct bmp280_data *data, int32_t adc)
{
	const struct bmp280_calib *c = &data->calib.bmp280;
	int32_t v = bmp280_s32((int64_t)data->t_fine - 76800);
	int32_t a, b;

	a = bmp280_s32((int64_t)adc * 16384 - (int64_t)c->H4 * 1048576 - (int64_t)c->H5 * v +
		       16384) >> 15;
	b = bmp280_s32((int64_t)v * c->H6) >> 10;
	b = bmp280_s32((int64_t)b * ((bmp280_s32((int64_t)v * c->H3) >> 11) + 32768)) >> 10;
	b = bmp280_s32((int64_t)(b + 2097152) * c->H2 + 8192) >> 14;
	v = bmp280_s32((int64_t)a * b);
	a = bmp280_s32((int64_t)(v >> 15) * (v >> 15));
	b = bmp280_s32((int64_t)(a >> 7) * c->H1) >> 4;
	v = bmp280_s32((int64_t)v - b);
	if (v < 0)
		v = 0;
	if (v > 419430400)
		v = 419430400;
	return (uint32_t)v >> 12;
}

/*
 * A data register triple, or -EIO for the chip's "skipped" marker: the
 * BMP280's 20 bits, MSB first and left-aligned; the BMP380's 24, LSB first.
 */
static int bmp280_read_adc(struct bmp280_data *data, uint8_t reg, bool bmp380, int32_t *adc)
{
	uint8_t buf[3];
	int ret;

	ret = bmp280_bulk_read(data, reg, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	if (bmp380) {
		*adc = (int32_t)bmp280_get_le24(buf);
		return *adc == BMP380_SKIPPED ? -EIO : 0;
	}
	*adc = (int32_t)FIELD_GET(BMP280_MEAS_TRIM_MASK, bmp280_get_be24(buf));
	return *adc == BMP280_TEMP_SKIPPED ? -EIO : 0;
}

static int bmp280_adc_temp(struct bmp280_data *data, int32_t *adc)
{
	return bmp280_read_adc(data, BMP280_REG_TEMP_MSB, false, adc);
}

static int bmp280_adc_press(struct bmp280_data *data, int32_t *adc)
{
	return bmp280_read_adc(data, BMP280_REG_PRESS_MSB, false, adc);
}

/* milli degC, any generation; with @val NULL only t_fine, for the other two */
static int bmp280_read_temp(struct bmp280_data *data, int *val)
{
	int32_t adc, comp;
	int ret;

	ret = data->info->read_adc_temp(data, &adc);
	if (ret < 0)
		return ret;
	ret = data->info->comp_temp(data, adc, &comp);
	if (ret < 0 || !val)
		return ret;
	*val = comp * data->info->temp_mult;
	return IIO_VAL_INT;
}

/* kPa: bmp280 Q24.8 Pa over 256000, bmp180 Pa over 1000, bmp380 cPa over 100000 */
static int bmp280_read_press(struct bmp280_data *data, int *val, int *val2)
{
	uint32_t comp;
	int32_t adc;
	int ret;

	ret = bmp280_read_temp(data, NULL);
	if (ret < 0)
		return ret;
	ret = data->info->read_adc_press(data, &adc);
	if (ret < 0)
		return ret;
	ret = data->info->comp_press(data, adc, &comp);
	if (ret < 0)
		return ret;
	*val = (int)comp;
	*val2 = data->info->press_div;
	return IIO_VAL_FRACTIONAL;
}

/* milli percent: Q22.10 %RH * 1000 / 1024, in u32 as the kernel */
static int bmp280_read_humid(struct bmp280_data *data, int *val, int *val2)
{
	uint8_t buf[2];
	int32_t adc;
	int ret;

	(void)val2;
	ret = bmp280_read_temp(data, NULL);
	if (ret < 0)
		return ret;
	ret = bmp280_bulk_read(data, BMP280_REG_HUMIDITY_MSB, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	adc = bmp280_get_be16(buf);
	if (adc == BMP280_HUMIDITY_SKIPPED)
		return -EIO;
	*val = (int)(bmp280_compensate_humidity(data, adc) * 1000U / 1024U);
	return IIO_VAL_INT;
}

/* measurand @m's ratio placed in its register field: log2, plus @skip where 0 is "skipped" */
static uint8_t bmp280_os_bits(const struct bmp280_data *data, enum bmp280_meas m, int skip)
{
	return (uint8_t)FIELD_PREP(data->info->os[m].field, data->os[m] + skip);
}

/* the temperature and pressure fields, which share a register on the BMP280 and BMP380 */
static uint8_t bmp280_os_fields(const struct bmp280_data *data)
{
	return data->info->os[BMP280_TEMP].field | data->info->os[BMP280_PRESS].field;
}

/*
 * Normal mode at the chosen ratios (0 is "skip" on these chips: +1). The
 * kernel means the filter to be 4x but passes BMP280_FILTER_4X unshifted,
 * which the field's mask (bits 4:2) clears: the filter stays off, and the
 * QEMU rig shows config untouched. We write what the kernel writes.
 */
static int bmp280_chip_config(struct bmp280_data *data)
{
	uint8_t osrs = bmp280_os_bits(data, BMP280_TEMP, 1) | bmp280_os_bits(data, BMP280_PRESS, 1);
	int ret;

	ret = bmp280_update_bits(data, BMP280_REG_CTRL_MEAS,
				 bmp280_os_fields(data) | BMP280_MODE_MASK, osrs | BMP280_MODE_NORMAL,
				 true, NULL);
	if (ret < 0)
		return ret;
	return bmp280_update_bits(data, BMP280_REG_CONFIG, BMP280_FILTER_MASK, BMP280_FILTER_4X,
				  false, NULL);
}

/* ctrl_hum takes effect only with the next ctrl_meas write: it goes first */
static int bme280_chip_config(struct bmp280_data *data)
{
	int ret = bmp280_update_bits(data, BMP280_REG_CTRL_HUMIDITY,
				     data->info->os[BMP280_HUMID].field,
				     bmp280_os_bits(data, BMP280_HUMID, 1), false, NULL);

	return ret < 0 ? ret : bmp280_chip_config(data);
}

/*
 * The first measurement after probe, at most (BME280 datasheet 9.1): until it
 * ends the data registers hold the "skipped" marker and the kernel's reads
 * fail with EIO for up to 43 ms (bmp280) or 81 ms (bme280). We wait it out
 * at probe instead (K-62).
 */
static unsigned int bmp280_first_ms(const struct bmp280_data *data)
{
	const int *os = data->os;
	unsigned int us = 1250 + 2300U * (1U << os[BMP280_TEMP]) +
			  2300U * (1U << os[BMP280_PRESS]) + 575;

	if (data->info->read_humid)
		us += 2300U * (1U << os[BMP280_HUMID]) + 575;
	return (us + 999) / 1000;
}

static const int bmp280_oversampling_avail[] = { 1, 2, 4, 8, 16 };

/*
 * What the BMP280 and BME280 share; the BME280 adds humidity. Defaults:
 * temperature 2x, pressure 16x, humidity 16x (log2).
 */
#define BMP280_GENERATION							\
	.id_reg = BMP280_REG_ID, .channels = bmp280_channels,			\
	.os[BMP280_TEMP] = BMP280_OS(bmp280_oversampling_avail, 1, BMP280_OSRS_TEMP_MASK), \
	.os[BMP280_PRESS] = BMP280_OS(bmp280_oversampling_avail, 4, BMP280_OSRS_PRESS_MASK), \
	.first_ms = bmp280_first_ms,						\
	.read_adc_temp = bmp280_adc_temp, .comp_temp = bmp280_compensate_temp,	\
	.temp_mult = 10, .read_adc_press = bmp280_adc_press,			\
	.comp_press = bmp280_compensate_press, .press_div = 256000

static const struct bmp280_chip_info bmp280_chip_info = {
	BMP280_GENERATION,
	.num_channels = 2,
	.chip_config = bmp280_chip_config,
	.read_calib = bmp280_read_calib,
};

static const struct bmp280_chip_info bme280_chip_info = {
	BMP280_GENERATION,
	.num_channels = 3,
	.os[BMP280_HUMID] = BMP280_OS(bmp280_oversampling_avail, 4, BMP280_OSRS_HUMIDITY_MASK),
	.chip_config = bme280_chip_config,
	.read_humid = bmp280_read_humid, .read_calib = bme280_read_calib,
};

/* ---- BMP085 / BMP180: one conversion per reading, started and waited out ---- */

/*
 * Start a conversion with @ctrl_meas (SCO set), wait its maximum time and
 * check that the chip cleared SCO: still set is EIO, as the kernel's.
 */
static int bmp180_measure(struct bmp280_data *data, uint8_t ctrl_meas)
{
	/* the kernel's 4500/7500/13500/25500 us by oss, rounded up to ms */
	static const unsigned int press_ms[] = { 5, 8, 14, 26 };
	int ret;

	ret = bmp280_write_reg(data, BMP280_REG_CTRL_MEAS, ctrl_meas);
	if (ret < 0)
		return ret;
	if (FIELD_GET(BMP180_MEAS_CTRL_MASK, ctrl_meas) == BMP180_MEAS_TEMP)
		bus_msleep(data->client->bus, BMP180_TEMP_WAIT_MS);
	else
		bus_msleep(data->client->bus, press_ms[data->os[BMP280_PRESS]]);
	ret = bmp280_read_reg(data, BMP280_REG_CTRL_MEAS);
	if (ret < 0)
		return ret;
	return (ret & BMP180_MEAS_SCO) ? -EIO : 0;
}

/* None of the words may be 0 or 0xffff (an unprogrammed or absent NVM): EIO. */
static int bmp180_read_calib(struct bmp280_data *data)
{
	struct bmp180_calib *c = &data->calib.bmp180;
	uint16_t w[BMP180_REG_CALIB_COUNT / 2];
	size_t i;
	int ret;

	ret = bmp280_read_words(data, BMP180_REG_CALIB_START, w, ARRAY_SIZE(w), true);
	if (ret < 0)
		return ret;
	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (w[i] == 0 || w[i] == 0xffff)
			return -EIO;
	c->AC1 = (int16_t)w[0];
	c->AC2 = (int16_t)w[1];
	c->AC3 = (int16_t)w[2];
	c->AC4 = w[3];
	c->AC5 = w[4];
	c->AC6 = w[5];
	c->B1 = (int16_t)w[6];
	c->B2 = (int16_t)w[7];
	c->MB = (int16_t)w[8];
	c->MC = (int16_t)w[9];
	c->MD = (int16_t)w[10];
	return 0;
}

/*
 * Datasheet 3.5: 0.1 degC. A divisor of 0 (x1 + MD, only with a corrupt
 * NVM) is EINVAL where the kernel would trap (K-60).
 */
static int bmp180_compensate_temp(struct bmp280_data *data, int32_t adc, int32_t *comp)
{
	const struct bmp180_calib *c = &data->calib.bmp180;
	int32_t x1, x2;

	x1 = bmp280_s32(((int64_t)adc - c->AC6) * c->AC5) >> 15;
	if (x1 + c->MD == 0)
		return -EINVAL;
	x2 = (c->MC * 2048) / (x1 + c->MD);
	data->t_fine = x1 + x2;
	*comp = (data->t_fine + 8) >> 4;
	return 0;
}

/* A conversion of @what (BMP180_MEAS_*), then its @len result bytes into @buf. */
static int bmp180_convert(struct bmp280_data *data, uint8_t what, uint8_t osrs, uint8_t *buf,
			  uint8_t len)
{
	int ret;

	ret = bmp180_measure(data, (uint8_t)FIELD_PREP(BMP180_MEAS_CTRL_MASK, what) | osrs |
				   BMP180_MEAS_SCO);
	if (ret < 0)
		return ret;
	return bmp280_bulk_read(data, BMP180_REG_OUT_MSB, buf, len);
}

static int bmp180_adc_temp(struct bmp280_data *data, int32_t *adc)
{
	uint8_t buf[2];
	int ret;

	ret = bmp180_convert(data, BMP180_MEAS_TEMP, 0, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	*adc = bmp280_get_be16(buf);
	return 0;
}

/*
 * Datasheet 3.5 (with the later B3 correction): Pa. The kernel's mix of
 * s32 and u32 steps is kept as it is; B4 = 0 (a corrupt NVM) is EINVAL
 * where the kernel would trap (K-60).
 */
static int bmp180_compensate_press(struct bmp280_data *data, int32_t adc, uint32_t *comp)
{
	const struct bmp180_calib *c = &data->calib.bmp180;
	int32_t oss = data->os[BMP280_PRESS];
	int32_t x1, x2, x3, p, b3, b6 = data->t_fine - 4000;
	int32_t b6sq = bmp280_s32((int64_t)b6 * b6) >> 12;
	uint32_t b4, b7;

	x1 = bmp280_s32((int64_t)c->B2 * b6sq) >> 11;
	x2 = bmp280_s32((int64_t)c->AC2 * b6) >> 11;
	x3 = x1 + x2;
	b3 = bmp280_s32((((int64_t)c->AC1 * 4 + x3) * (1 << oss)) + 2) / 4;
	x1 = bmp280_s32((int64_t)c->AC3 * b6) >> 13;
	x2 = bmp280_s32((int64_t)c->B1 * b6sq) >> 16;
	x3 = (x1 + x2 + 2) >> 2;
	b4 = (c->AC4 * (uint32_t)(x3 + 32768)) >> 15;
	if (b4 == 0)
		return -EINVAL;
	b7 = ((uint32_t)adc - (uint32_t)b3) * (uint32_t)(50000 >> oss);
	if (b7 < 0x80000000U)
		p = (int32_t)((b7 * 2) / b4);
	else
		p = (int32_t)((b7 / b4) * 2);
	x1 = bmp280_s32((int64_t)(p >> 8) * (p >> 8));
	x1 = bmp280_s32((int64_t)x1 * 3038) >> 16;
	x2 = bmp280_s32((int64_t)-7357 * p) >> 16;
	*comp = (uint32_t)p + (uint32_t)((x1 + x2 + 3791) >> 4);
	return 0;
}

/* UP: 16 to 19 bits by oversampling */
static int bmp180_adc_press(struct bmp280_data *data, int32_t *adc)
{
	uint8_t buf[3];
	int ret;

	ret = bmp180_convert(data, BMP180_MEAS_PRESS, bmp280_os_bits(data, BMP280_PRESS, 0), buf,
			     sizeof(buf));
	if (ret < 0)
		return ret;
	*adc = (int32_t)(bmp280_get_be24(buf) >> (8 - data->os[BMP280_PRESS]));
	return 0;
}

/* Nothing to program: each conversion carries its own settings. */
static int bmp180_chip_config(struct bmp280_data *data)
{
	(void)data;
	return 0;
}

static const int bmp180_oversampling_temp_avail[] = { 1 };
static const int bmp180_oversampling_press_avail[] = { 1, 2, 4, 8 };

static const struct bmp280_chip_info bmp180_chip_info = {
	.id_reg = BMP280_REG_ID,
	.channels = bmp280_channels, .num_channels = 2,
	/* the temperature's one ratio is written nowhere; the pressure's, with each conversion */
	.os[BMP280_TEMP] = BMP280_OS(bmp180_oversampling_temp_avail, 0, 0),
	.os[BMP280_PRESS] = BMP280_OS(bmp180_oversampling_press_avail, 3, BMP180_OSRS_PRESS_MASK),
	.chip_config = bmp180_chip_config,
	.read_adc_temp = bmp180_adc_temp, .comp_temp = bmp180_compensate_temp, .temp_mult = 100,
	.read_adc_press = bmp180_adc_press, .comp_press = bmp180_compensate_press,
	.press_div = 1000,
	.read_calib = bmp180_read_calib,
};

/* ---- BMP380 ---- */

/* @ms for the chip to act, then its ERR_REG: the @err bit set is EINVAL */
static int bmp380_wait_error(struct bmp280_data *data, unsigned int ms, uint8_t err)
{
	int ret;

	bus_msleep(data->client->bus, ms);
	ret = bmp280_read_reg(data, BMP380_REG_ERROR);
	if (ret < 0)
		return ret;
	return (ret & err) ? -EINVAL : 0;
}

/*
 * A command through CMD: the chip must say it is ready, then gets the
 * start-up time; a command it refused sets cmd_err (EINVAL).
 */
static int bmp380_cmd(struct bmp280_data *data, uint8_t cmd)
{
	int ret = bmp280_read_reg(data, BMP380_REG_STATUS);

	if (ret < 0)
		return ret;
	if (!(ret & BMP380_STATUS_CMD_RDY))
		return -EBUSY;
	ret = bmp280_write_reg(data, BMP380_REG_CMD, cmd);
	if (ret < 0)
		return ret;
	return bmp380_wait_error(data, BMP380_CMD_WAIT_MS, BMP380_ERR_CMD);
}

/* the chip needs a soft reset before it is configured */
static int bmp380_preinit(struct bmp280_data *data)
{
	return bmp380_cmd(data, BMP380_CMD_SOFT_RESET);
}

static int bmp380_read_calib(struct bmp280_data *data)
{
	struct bmp380_calib *c = &data->calib.bmp380;
	uint8_t b[BMP380_CALIB_REG_COUNT];
	int ret;

	ret = bmp280_bulk_read(data, BMP380_REG_CALIB_TEMP_START, b, sizeof(b));
	if (ret < 0)
		return ret;
	c->T1 = bmp280_get_le16(&b[0]);
	c->T2 = bmp280_get_le16(&b[2]);
	c->T3 = (int8_t)b[4];
	c->P1 = (int16_t)bmp280_get_le16(&b[5]);
	c->P2 = (int16_t)bmp280_get_le16(&b[7]);
	c->P3 = (int8_t)b[9];
	c->P4 = (int8_t)b[10];
	c->P5 = bmp280_get_le16(&b[11]);
	c->P6 = bmp280_get_le16(&b[13]);
	c->P7 = (int8_t)b[15];
	c->P8 = (int8_t)b[16];
	c->P9 = (int16_t)bmp280_get_le16(&b[17]);
	c->P10 = (int8_t)b[19];
	c->P11 = (int8_t)b[20];
	return 0;
}

/* Datasheet appendix 9 / Bosch's BMP3 API, 64-bit: 0.01 degC, clamped. */
static int bmp380_compensate_temp(struct bmp280_data *data, int32_t adc, int32_t *comp_out)
{
	const struct bmp380_calib *c = &data->calib.bmp380;
	int64_t var1 = (int64_t)adc - (int64_t)c->T1 * 256;
	int64_t var6 = (var1 * c->T2 * (INT64_C(1) << 18) + var1 * var1 * c->T3) >> 32;
	int64_t comp = (var6 * 25) >> 14;

	data->t_fine = (int32_t)var6;
	if (comp < BMP380_MIN_TEMP)
		comp = BMP380_MIN_TEMP;
	if (comp > BMP380_MAX_TEMP)
		comp = BMP380_MAX_TEMP;
	*comp_out = (int32_t)comp;
	return 0;
}

/*
 * Datasheet 9.3 / BMP3 API, 64-bit: centipascal, clamped to 30..125 kPa.
 * Wrapping products and sums, as the kernel's s64 ones for extreme codes.
 */
static int bmp380_compensate_press(struct bmp280_data *data, int32_t adc, uint32_t *comp_out)
{
	const struct bmp380_calib *c = &data->calib.bmp380;
	int64_t t = data->t_fine, p = adc;
	int64_t t2 = bmp280_mul(t, t), t3 = bmp280_mul(t2 >> 6, t) >> 8;
	int64_t offset, sens, var1, var3, var4, var5;
	uint32_t comp;

	offset = bmp280_add(bmp280_add(bmp280_mul(c->P5, INT64_C(1) << 47),
				       bmp280_mul(c->P8, t3) >> 5),
			    bmp280_add(bmp280_mul(bmp280_mul(c->P7, t2), 16),
				       bmp280_mul(bmp280_mul(c->P6, t), INT64_C(1) << 22)));
	sens = bmp280_add(bmp280_add(bmp280_mul((int64_t)c->P1 - (1 << 14), INT64_C(1) << 46),
				     bmp280_mul(c->P4, t3) >> 5),
			  bmp280_add(bmp280_mul(bmp280_mul(c->P3, t2), 4),
				     bmp280_mul((int64_t)c->P2 - (1 << 14),
						bmp280_mul(t, INT64_C(1) << 21))));
	var1 = bmp280_mul(sens >> 24, p);
	var3 = bmp280_add(bmp280_mul(c->P10, t), bmp280_mul(c->P9, 65536));
	var4 = bmp280_mul(var3, p) >> 13;
	/* /10 then *10: the kernel's guard against p * var4 overflowing */
	var5 = bmp280_mul(bmp280_mul(p, var4 / 10) >> 9, 10);
	var3 = bmp280_mul(bmp280_mul(c->P11, bmp280_mul(p, p)) >> 16, p) >> 7;
	var4 = bmp280_add(bmp280_add(offset >> 2, var1), bmp280_add(var5, var3));
	comp = (uint32_t)(((uint64_t)var4 * 25) >> 40);
	if (comp < BMP380_MIN_PRES)
		comp = BMP380_MIN_PRES;
	if (comp > BMP380_MAX_PRES)
		comp = BMP380_MAX_PRES;
	*comp_out = comp;
	return 0;
}

static int bmp380_adc_temp(struct bmp280_data *data, int32_t *adc)
{
	return bmp280_read_adc(data, BMP380_REG_TEMP_XLSB, true, adc);
}

static int bmp380_adc_press(struct bmp280_data *data, int32_t *adc)
{
	return bmp280_read_adc(data, BMP380_REG_PRESS_XLSB, true, adc);
}

/* Sleep, then normal mode again, so a new setting starts a fresh cycle; then check it. */
static int bmp380_restart(struct bmp280_data *data)
{
	int ret;

	ret = bmp280_update_bits(data, BMP380_REG_POWER_CONTROL, BMP380_MODE_MASK,
				 FIELD_PREP(BMP380_MODE_MASK, BMP380_MODE_SLEEP), true, NULL);
	if (ret < 0)
		return ret;
	bus_msleep(data->client->bus, BMP380_CMD_WAIT_MS);
	ret = bmp280_update_bits(data, BMP380_REG_POWER_CONTROL, BMP380_MODE_MASK,
				 FIELD_PREP(BMP380_MODE_MASK, BMP380_MODE_NORMAL), true, NULL);
	if (ret < 0)
		return ret;
	/* a measurement longer than the output period: conf_err */
	return bmp380_wait_error(data, BMP380_CONF_WAIT_MS, BMP380_ERR_CONF);
}

/*
 * Both sensors on; oversampling, rate and filter written where they differ,
 * and only then the measurement loop restarted (the kernel's order).
 */
static int bmp380_chip_config(struct bmp280_data *data)
{
	bool change = false, aux;
	int ret;

	ret = bmp280_update_bits(data, BMP380_REG_POWER_CONTROL, BMP380_CTRL_SENSORS_MASK,
				 BMP380_CTRL_SENSORS_MASK, false, NULL);
	if (ret < 0)
		return ret;
	ret = bmp280_update_bits(data, BMP380_REG_OSR, bmp280_os_fields(data),
				 bmp280_os_bits(data, BMP280_TEMP, 0) |
				 bmp280_os_bits(data, BMP280_PRESS, 0), false, &aux);
	if (ret < 0)
		return ret;
	change |= aux;
	ret = bmp280_update_bits(data, BMP380_REG_ODR, BMP380_ODRS_MASK, (uint8_t)data->odr,
				 false, &aux);
	if (ret < 0)
		return ret;
	change |= aux;
	ret = bmp280_update_bits(data, BMP380_REG_CONFIG, BMP380_FILTER_MASK,
				 (uint8_t)FIELD_PREP(BMP380_FILTER_MASK, data->iir), false, &aux);
	if (ret < 0)
		return ret;
	change |= aux;
	return change ? bmp380_restart(data) : 0;
}

static const int bmp380_oversampling_avail[] = { 1, 2, 4, 8, 16, 32 };
static const int bmp380_iir_filter_coeffs_avail[] = { 1, 2, 4, 8, 16, 32, 64, 128 };

/* ODR_SEL 0..17: 200 Hz halving down to 1/655.36 Hz, as the kernel rounds them */
static const int bmp380_odr_table[][2] = {
	{ 200, 0 }, { 100, 0 }, { 50, 0 }, { 25, 0 }, { 12, 500000 }, { 6, 250000 },
	{ 3, 125000 }, { 1, 562500 }, { 0, 781250 }, { 0, 390625 }, { 0, 195313 },
	{ 0, 97656 }, { 0, 48828 }, { 0, 24414 }, { 0, 12207 }, { 0, 6104 }, { 0, 3052 },
	{ 0, 1526 },
};

/* defaults: temperature 1x, pressure 4x, 50 Hz, filter coefficient 3 */
static const struct bmp280_chip_info bmp380_chip_info = {
	.id_reg = BMP380_REG_ID,
	.channels = bmp380_channels, .num_channels = 2,
	.os[BMP280_TEMP] = BMP280_OS(bmp380_oversampling_avail, 0, BMP380_OSRS_TEMP_MASK),
	.os[BMP280_PRESS] = BMP280_OS(bmp380_oversampling_avail, 2, BMP380_OSRS_PRESS_MASK),
	.iir_avail = bmp380_iir_filter_coeffs_avail, .n_iir = 8, .iir_default = 2,
	.odr_avail = bmp380_odr_table, .n_odr = (int)ARRAY_SIZE(bmp380_odr_table),
	.odr_default = 2,
	.preinit = bmp380_preinit,
	.chip_config = bmp380_chip_config,
	.read_adc_temp = bmp380_adc_temp, .comp_temp = bmp380_compensate_temp, .temp_mult = 10,
	.read_adc_press = bmp380_adc_press, .comp_press = bmp380_compensate_press,
	.press_div = 100000,
	.read_calib = bmp380_read_calib,
};

/* ---- the IIO side, shared ---- */

static int bmp280_read_processed(struct bmp280_data *data, const struct iio_chan_spec *chan,
				 int *val, int *val2)
{
	switch (chan->type) {
	case IIO_HUMIDITYRELATIVE:
		return data->info->read_humid(data, val, val2);
	case IIO_PRESSURE:
		return bmp280_read_press(data, val, val2);
	case IIO_TEMP:
		return bmp280_read_temp(data, val);
	default:
		return -EINVAL;
	}
}

/* the oversampling row of a channel type, or -EINVAL */
static int bmp280_os_row(enum iio_chan_type type)
{
	switch (type) {
	case IIO_HUMIDITYRELATIVE:
		return BMP280_HUMID;
	case IIO_PRESSURE:
		return BMP280_PRESS;
	case IIO_TEMP:
		return BMP280_TEMP;
	default:
		return -EINVAL;
	}
}

static int bmp280_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   int *val, int *val2, long mask)
{
	struct bmp280_data *data = iio_priv(indio_dev);
	int m;

	switch (mask) {
	case IIO_CHAN_INFO_PROCESSED:
		return bmp280_read_processed(data, chan, val, val2);
	case IIO_CHAN_INFO_OVERSAMPLING_RATIO:
		m = bmp280_os_row(chan->type);
		if (m < 0)
			return m;
		*val = 1 << data->os[m];
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SAMP_FREQ:
		if (!data->info->odr_avail)
			return -EINVAL;
		*val = data->info->odr_avail[data->odr][0];
		*val2 = data->info->odr_avail[data->odr][1];
		return IIO_VAL_INT_PLUS_MICRO;
	case IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY:
		if (!data->info->iir_avail)
			return -EINVAL;
		*val = (1 << data->iir) - 1;
		return IIO_VAL_INT;
	default:
		return -EINVAL;
	}
}

/*
 * Set *@field to @value and program the chip; on failure put the old value
 * back and program that again, so the chip is left as it was known.
 */
static int bmp280_apply(struct bmp280_data *data, int *field, int value)
{
	int prev = *field, ret;

	*field = value;
	ret = data->info->chip_config(data);
	if (ret) {
		*field = prev;
		data->info->chip_config(data);
	}
	return ret;
}

/* the row of @val in @avail (n entries), or -1 */
static int bmp280_avail_index(const int *avail, int n, int val)
{
	int i;

	for (i = 0; i < n; i++)
		if (avail[i] == val)
			return i;
	return -1;
}

static int bmp280_write_oversampling(struct bmp280_data *data, enum iio_chan_type type, int val)
{
	int m = bmp280_os_row(type);

	if (m < 0)
		return m;
	if (bmp280_avail_index(data->info->os[m].avail, data->info->os[m].n, val) < 0)
		return -EINVAL;
	/* the avail lists are powers of two: log2 of the ratio */
	return bmp280_apply(data, &data->os[m], __builtin_ctz((unsigned int)val));
}

static int bmp280_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int val, int val2, long mask)
{
	struct bmp280_data *data = iio_priv(indio_dev);
	const struct bmp280_chip_info *info = data->info;
	int i;

	switch (mask) {
	case IIO_CHAN_INFO_OVERSAMPLING_RATIO:
		return bmp280_write_oversampling(data, chan->type, val);
	case IIO_CHAN_INFO_SAMP_FREQ:
		for (i = 0; i < info->n_odr; i++)
			if (info->odr_avail[i][0] == val && info->odr_avail[i][1] == val2)
				return bmp280_apply(data, &data->odr, i);
		return -EINVAL;
	case IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY:
		/* the file shows coefficient - 1 */
		i = val < INT32_MAX ? bmp280_avail_index(info->iir_avail, info->n_iir, val + 1) : -1;
		return i < 0 ? -EINVAL : bmp280_apply(data, &data->iir, i);
	default:
		return -EINVAL;
	}
}

static const struct iio_info bmp280_info = {
	.read_raw = bmp280_read_raw,
	.write_raw = bmp280_write_raw,
};

enum bmp280_part { bmp085, bmp180, bmp280, bme280, bmp380, BMP280_NPARTS };

static const struct {
	const struct bmp280_chip_info *info;
	uint8_t chip_id;
} bmp280_parts[] = {
	[bmp085] = { &bmp180_chip_info, BMP085_CHIP_ID },
	[bmp180] = { &bmp180_chip_info, BMP085_CHIP_ID },
	[bmp280] = { &bmp280_chip_info, BMP280_CHIP_ID },
	[bme280] = { &bme280_chip_info, BME280_CHIP_ID },
	[bmp380] = { &bmp380_chip_info, BMP380_CHIP_ID },
};

/* The chip id, the bmp380's soft reset, the settings, then the NVM: the kernel's order. */
static int bmp280_init_chip(const struct iio_probe *p, struct bmp280_data *data,
			    uint8_t chip_id, char *err, size_t errlen)
{
	int ret;

	/* the kernel's start-up wait after enabling the supplies */
	bus_msleep(data->client->bus, BMP280_START_UP_MS);
	ret = bmp280_read_reg(data, data->info->id_reg);
	if (ret < 0)
		return iio_probe_err(p, err, errlen, ret, "no answer");
	if (ret != chip_id)
		return iio_probe_err(p, err, errlen, -EINVAL, "bad chip id: expected %x got %x",
				     chip_id, (unsigned int)ret);
	if (data->info->preinit) {
		ret = data->info->preinit(data);
		if (ret < 0)
			return iio_probe_err(p, err, errlen, ret, "soft reset failed");
	}
	ret = data->info->chip_config(data);
	if (ret < 0)
		return iio_probe_err(p, err, errlen, ret, "failed to configure the chip");
	ret = data->info->read_calib(data);
	if (ret < 0)
		return iio_probe_err(p, err, errlen, ret,
				     "failed to read calibration coefficients");
	if (data->info->first_ms)
		bus_msleep(data->client->bus, data->info->first_ms(data));
	return 0;
}

static int bmp280_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			size_t errlen)
{
	const struct bmp280_chip_info *info;
	struct iio_dev *indio_dev;
	struct bmp280_data *data;
	int part, ret, m;

	part = iio_probe_part(p, BMP280_NPARTS, "BMP280", err, errlen);
	if (part < 0)
		return part;
	info = bmp280_parts[part].info;
	indio_dev = iio_device_alloc(sizeof(*data));
	if (!indio_dev)
		return -ENOMEM;
	data = iio_priv(indio_dev);
	data->client = p->i2c;
	data->info = info;
	for (m = 0; m < BMP280_NMEAS; m++)
		data->os[m] = info->os[m].dflt;
	data->iir = info->iir_default;
	data->odr = info->odr_default;
	ret = bmp280_init_chip(p, data, bmp280_parts[part].chip_id, err, errlen);
	if (ret < 0) {
		iio_device_put(indio_dev);
		return ret;
	}
	iio_device_setup(indio_dev, p->id->name, info->channels, info->num_channels,
			 &bmp280_info);
	indio_dev->label = p->label;
	*out = indio_dev;
	return 0;
}

/* the 6.1 I2C id table, in its order */
static const struct iio_device_id bmp280_id[] = {
	{ "bmp085", bmp085 },
	{ "bmp180", bmp180 },
	{ "bmp280", bmp280 },
	{ "bme280", bme280 },
	{ "bmp380", bmp380 },
	{ NULL, 0 }
};

static const struct iio_driver bmp280_driver = {
	.name = "bmp280",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = bmp280_id,
	.probe = bmp280_probe,
};
IIO_DRIVER_REGISTER(bmp280_driver);
