/*
 * adis16400.c - driver for the ADIS16400 family of inertial sensors (SPI):
 * adis16300/05, 16334, 16350/54/55, 16360/62/64/65/67, 16400/05, 16445, 16448.
 *
 * Per part a chip_info row: the kernel's channel set (supply, gyro, accel,
 * magnetometer, temperature, aux ADC, inclinometer, barometer as the part
 * has them) with scale, offset, calibbias, sampling_frequency and low-pass
 * filter attributes of the same names, sharing and formats as the kernel's
 * drivers/iio/imu/adis16400.c, plus read_raw/write_raw over the family's
 * 16-bit SPI register protocol (a read answers in the next frame; writes go
 * a byte at a time). Probe resets and self-tests the chip and checks its
 * PRODUCT_ID.
 * Place in the flow: bus -> *driver* -> core. Waits use bus_msleep().
 * Must not: format text, log, or spell attribute names (the core does).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/spi/spidev.h>

#include "iio_kit.h"
#include "iio_buffer.h"
#include "bus/bus.h"

#define ADIS16400_WRITE			0x80
#define ADIS16400_READ_MASK		0x7f

#define ADIS16400_FLASH_CNT		0x00
#define ADIS16400_SUPPLY_OUT		0x02
#define ADIS16400_XGYRO_OUT		0x04
#define ADIS16400_YGYRO_OUT		0x06
#define ADIS16400_ZGYRO_OUT		0x08
#define ADIS16400_XACCL_OUT		0x0a
#define ADIS16400_YACCL_OUT		0x0c
#define ADIS16400_ZACCL_OUT		0x0e
#define ADIS16400_XMAGN_OUT		0x10
#define ADIS16400_YMAGN_OUT		0x12
#define ADIS16400_ZMAGN_OUT		0x14
#define ADIS16400_TEMP_OUT		0x16
#define ADIS16400_AUX_ADC		0x18
/* 1635x/1636x: gyro temperatures where the 16400 has magnetometers */
#define ADIS16350_XTEMP_OUT		0x10
#define ADIS16350_YTEMP_OUT		0x12
#define ADIS16350_ZTEMP_OUT		0x14
#define ADIS16300_PITCH_OUT		0x12
#define ADIS16300_ROLL_OUT		0x14
#define ADIS16300_AUX_ADC		0x16
#define ADIS16448_BARO_OUT		0x16
#define ADIS16448_TEMP_OUT		0x18

#define ADIS16400_XGYRO_OFF		0x1a
#define ADIS16400_YGYRO_OFF		0x1c
#define ADIS16400_ZGYRO_OFF		0x1e
#define ADIS16400_XACCL_OFF		0x20
#define ADIS16400_YACCL_OFF		0x22
#define ADIS16400_ZACCL_OFF		0x24
#define ADIS16400_MSC_CTRL		0x34
#define ADIS16400_SMPL_PRD		0x36
#define ADIS16400_SENS_AVG		0x38
#define ADIS16400_SLP_CNT		0x3a
#define ADIS16400_DIAG_STAT		0x3c
#define ADIS16400_GLOB_CMD		0x3e
#define ADIS16400_PRODUCT_ID		0x56

#define ADIS16400_MSC_CTRL_MEM_TEST		0x0800
#define ADIS16400_MSC_CTRL_DATA_RDY_EN		0x0004
#define ADIS16400_MSC_CTRL_DATA_RDY_POL_HIGH	0x0002
#define ADIS16400_MSC_CTRL_DATA_RDY_DIO2	0x0001
#define ADIS16400_GLOB_CMD_SW_RESET		0x80
#define ADIS16400_SLP_CNT_POWER_OFF		0x0100
#define ADIS16400_SMPL_PRD_TIME_BASE		0x80
#define ADIS16400_SMPL_PRD_DIV_MASK		0x7f
#define ADIS16334_RATE_DIV_SHIFT		8
#define ADIS16334_RATE_INT_CLK			0x0001
#define ADIS16400_SENS_AVG_FILTER_MASK		0x0007
/* every DIAG_STAT bit but bit 7 (unused) fails the power-up check */
#define ADIS16400_DIAG_STAT_ERROR_MASK		0xff7f

#define ADIS16400_SPI_SLOW_HZ		300000
#define ADIS16400_SPI_FAST_HZ		2000000
/* the burst's clock ceiling (the lib's burst_max_speed_hz) */
#define ADIS16400_SPI_BURST_HZ		1000000
/* the longest burst reply of the family, bytes */
#define ADIS16400_BURST_MAX		28
/* the chip needs this pause after each 16-bit frame */
#define ADIS16400_FRAME_DELAY_US	50

/* Sample clocks in mHz: 1638.404 and 52.851 Hz time bases; 819.2 Hz base. */
#define ADIS16400_TB_FAST_MHZ		1638404
#define ADIS16400_TB_SLOW_MHZ		52851
#define ADIS16334_BASE_MHZ		819200

#define ADIS16400_HAS_PROD_ID		BIT(0)
#define ADIS16400_NO_BURST		BIT(1)
#define ADIS16400_HAS_SLOW_MODE		BIT(2)
#define ADIS16400_HAS_SERIAL_NUMBER	BIT(3)
#define ADIS16400_BURST_DIAG_STAT	BIT(4)
/* the sets of them the parts have, as the chip table names them */
#define ADIS16400_F_PID_SLOW_SN		(ADIS16400_HAS_PROD_ID | ADIS16400_HAS_SLOW_MODE |	\
					 ADIS16400_HAS_SERIAL_NUMBER)
#define ADIS16400_F_PID_NOBURST_SN	(ADIS16400_HAS_PROD_ID | ADIS16400_NO_BURST |		\
					 ADIS16400_HAS_SERIAL_NUMBER)
#define ADIS16400_F_NOBURST_SLOW	(ADIS16400_NO_BURST | ADIS16400_HAS_SLOW_MODE)
#define ADIS16400_F_PID_SLOW		(ADIS16400_HAS_PROD_ID | ADIS16400_HAS_SLOW_MODE)
#define ADIS16400_F_PID_SN_DIAG		(ADIS16400_HAS_PROD_ID | ADIS16400_HAS_SERIAL_NUMBER |	\
					 ADIS16400_BURST_DIAG_STAT)

/* Scan indices, shared by every part (the calibbias register follows from them). */
enum adis16400_scan {
	ADIS16400_SCAN_SUPPLY,
	ADIS16400_SCAN_GYRO_X,
	ADIS16400_SCAN_GYRO_Y,
	ADIS16400_SCAN_GYRO_Z,
	ADIS16400_SCAN_ACC_X,
	ADIS16400_SCAN_ACC_Y,
	ADIS16400_SCAN_ACC_Z,
	ADIS16400_SCAN_MAGN_X,
	ADIS16400_SCAN_MAGN_Y,
	ADIS16400_SCAN_MAGN_Z,
	ADIS16400_SCAN_BARO,
	ADIS16350_SCAN_TEMP_X,
	ADIS16350_SCAN_TEMP_Y,
	ADIS16350_SCAN_TEMP_Z,
	ADIS16300_SCAN_INCLI_X,
	ADIS16300_SCAN_INCLI_Y,
	ADIS16400_SCAN_ADC,
	ADIS16400_SCAN_TIMESTAMP,
};

/* Offset (calibbias) register per scan index; 0 where the channel has none. */
static const uint8_t adis16400_calibbias_reg[] = {
	[ADIS16400_SCAN_GYRO_X] = ADIS16400_XGYRO_OFF,
	[ADIS16400_SCAN_GYRO_Y] = ADIS16400_YGYRO_OFF,
	[ADIS16400_SCAN_GYRO_Z] = ADIS16400_ZGYRO_OFF,
	[ADIS16400_SCAN_ACC_X] = ADIS16400_XACCL_OFF,
	[ADIS16400_SCAN_ACC_Y] = ADIS16400_YACCL_OFF,
	[ADIS16400_SCAN_ACC_Z] = ADIS16400_ZACCL_OFF,
	[ADIS16400_SCAN_TIMESTAMP] = 0,
};

/*
 * Low-pass 3 dB point = sample rate / divisor, by SENS_AVG bits 2:0. Setting
 * 0 is a special case and 7 is not a valid setting; both as in the kernel.
 */
static const unsigned int adis16400_3db_divisors[] = { 2, 6, 12, 25, 50, 100, 200, 200 };

#define ADIS16400_NDIVISORS ARRAY_SIZE(adis16400_3db_divisors)

/* ---- channel templates (all: 16-bit big-endian storage, sampling_frequency shared by all) ---- */

#define ADIS16400_SCAN(s, b) \
	{ .sign = (s), .realbits = (b), .storagebits = 16, .shift = 0, .endianness = IIO_BE }

#define ADIS16400_VOLTAGE_CHAN(addr, bits, name, si, chn) {				\
	.type = IIO_VOLTAGE, .indexed = 1, .channel = (chn), .extend_name = (name),	\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE),	\
	.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ),			\
	.address = (addr), .scan_index = (si), .scan_type = ADIS16400_SCAN('u', bits),	\
}
#define ADIS16400_SUPPLY_CHAN(addr, bits) \
	ADIS16400_VOLTAGE_CHAN(addr, bits, "supply", ADIS16400_SCAN_SUPPLY, 0)
#define ADIS16400_AUX_ADC_CHAN(addr, bits) \
	ADIS16400_VOLTAGE_CHAN(addr, bits, NULL, ADIS16400_SCAN_ADC, 1)

/* gyro and accel: raw and calibbias per axis; scale and low-pass per type */
#define ADIS16400_MOTION_CHAN(t, mod, addr, bits, si) {					\
	.type = (t), .modified = 1, .channel2 = (mod),					\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_CALIBBIAS),	\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE) |				\
		BIT(IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY),			\
	.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ),			\
	.address = (addr), .scan_index = (si), .scan_type = ADIS16400_SCAN('s', bits),	\
}
#define ADIS16400_GYRO_CHAN(mod, addr, bits) \
	ADIS16400_MOTION_CHAN(IIO_ANGL_VEL, IIO_MOD_##mod, addr, bits, ADIS16400_SCAN_GYRO_##mod)
#define ADIS16400_ACCEL_CHAN(mod, addr, bits) \
	ADIS16400_MOTION_CHAN(IIO_ACCEL, IIO_MOD_##mod, addr, bits, ADIS16400_SCAN_ACC_##mod)

#define ADIS16400_MAGN_CHAN(mod, addr, bits) {						\
	.type = IIO_MAGN, .modified = 1, .channel2 = IIO_MOD_##mod,			\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),					\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE) |				\
		BIT(IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY),			\
	.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ),			\
	.address = (addr), .scan_index = ADIS16400_SCAN_MAGN_##mod,			\
	.scan_type = ADIS16400_SCAN('s', bits),						\
}

/* one of three temperature sensors: not modified, the axis is an extend_name */
#define ADIS16400_MOD_TEMP_CHAN(axis, addr, bits, si) {					\
	.type = IIO_TEMP, .indexed = 1, .channel = 0, .extend_name = (axis),		\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_OFFSET) |	\
		BIT(IIO_CHAN_INFO_SCALE),						\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY),	\
	.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ),			\
	.address = (addr), .scan_index = (si), .scan_type = ADIS16400_SCAN('s', bits),	\
}

#define ADIS16400_TEMP_CHAN(addr, bits) {						\
	.type = IIO_TEMP, .indexed = 1, .channel = 0,					\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_OFFSET) |	\
		BIT(IIO_CHAN_INFO_SCALE),						\
	.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ),			\
	.address = (addr), .scan_index = ADIS16350_SCAN_TEMP_X,				\
	.scan_type = ADIS16400_SCAN('s', bits),						\
}

#define ADIS16400_INCLI_CHAN(mod, addr, bits) {						\
	.type = IIO_INCLI, .modified = 1, .channel2 = IIO_MOD_##mod,			\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),					\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),				\
	.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ),			\
	.address = (addr), .scan_index = ADIS16300_SCAN_INCLI_##mod,			\
	.scan_type = ADIS16400_SCAN('s', bits),						\
}

/* a scan-only channel: no attributes of its own, but it gives the device current_timestamp_clock */
#define ADIS16400_TIMESTAMP_CHAN {							\
	.type = IIO_TIMESTAMP, .channel = -1, .scan_index = ADIS16400_SCAN_TIMESTAMP,	\
	.scan_type = { .sign = 's', .realbits = 64, .storagebits = 64 },		\
}

/* the three axes of a gyro, accelerometer or magnetometer at @bits */
#define ADIS16400_XYZ(kind, reg, bits)						\
	ADIS16400_##kind##_CHAN(X, ADIS16400_X##reg##_OUT, bits),		\
	ADIS16400_##kind##_CHAN(Y, ADIS16400_Y##reg##_OUT, bits),		\
	ADIS16400_##kind##_CHAN(Z, ADIS16400_Z##reg##_OUT, bits)

static const struct iio_chan_spec adis16400_channels[] = {
	ADIS16400_SUPPLY_CHAN(ADIS16400_SUPPLY_OUT, 14),
	ADIS16400_XYZ(GYRO, GYRO, 14),
	ADIS16400_XYZ(ACCEL, ACCL, 14),
	ADIS16400_XYZ(MAGN, MAGN, 14),
	ADIS16400_TEMP_CHAN(ADIS16400_TEMP_OUT, 12),
	ADIS16400_AUX_ADC_CHAN(ADIS16400_AUX_ADC, 12),
	ADIS16400_TIMESTAMP_CHAN,
};

/*
 * 1635x/1636x: as the kernel declares them, magn channels read the same
 * registers as the three temperature channels (these parts have no
 * magnetometer, so in_magn_*_raw shows temperature codes as 14-bit values).
 */
static const struct iio_chan_spec adis16350_channels[] = {
	ADIS16400_SUPPLY_CHAN(ADIS16400_SUPPLY_OUT, 12),
	ADIS16400_XYZ(GYRO, GYRO, 14),
	ADIS16400_XYZ(ACCEL, ACCL, 14),
	ADIS16400_XYZ(MAGN, MAGN, 14),
	ADIS16400_AUX_ADC_CHAN(ADIS16300_AUX_ADC, 12),
	ADIS16400_MOD_TEMP_CHAN("x", ADIS16350_XTEMP_OUT, 12, ADIS16350_SCAN_TEMP_X),
	ADIS16400_MOD_TEMP_CHAN("y", ADIS16350_YTEMP_OUT, 12, ADIS16350_SCAN_TEMP_Y),
	ADIS16400_MOD_TEMP_CHAN("z", ADIS16350_ZTEMP_OUT, 12, ADIS16350_SCAN_TEMP_Z),
	ADIS16400_TIMESTAMP_CHAN,
};

static const struct iio_chan_spec adis16300_channels[] = {
	ADIS16400_SUPPLY_CHAN(ADIS16400_SUPPLY_OUT, 12),
	ADIS16400_GYRO_CHAN(X, ADIS16400_XGYRO_OUT, 14),
	ADIS16400_XYZ(ACCEL, ACCL, 14),
	ADIS16400_TEMP_CHAN(ADIS16350_XTEMP_OUT, 12),
	ADIS16400_AUX_ADC_CHAN(ADIS16300_AUX_ADC, 12),
	ADIS16400_INCLI_CHAN(X, ADIS16300_PITCH_OUT, 13),
	ADIS16400_INCLI_CHAN(Y, ADIS16300_ROLL_OUT, 13),
	ADIS16400_TIMESTAMP_CHAN,
};

static const struct iio_chan_spec adis16334_channels[] = {
	ADIS16400_XYZ(GYRO, GYRO, 14),
	ADIS16400_XYZ(ACCEL, ACCL, 14),
	ADIS16400_TEMP_CHAN(ADIS16350_XTEMP_OUT, 12),
	ADIS16400_TIMESTAMP_CHAN,
};

static const struct iio_chan_spec adis16445_channels[] = {
	ADIS16400_XYZ(GYRO, GYRO, 16),
	ADIS16400_XYZ(ACCEL, ACCL, 16),
	ADIS16400_TEMP_CHAN(ADIS16448_TEMP_OUT, 12),
	ADIS16400_TIMESTAMP_CHAN,
};

static const struct iio_chan_spec adis16448_channels[] = {
	ADIS16400_XYZ(GYRO, GYRO, 16),
	ADIS16400_XYZ(ACCEL, ACCL, 16),
	ADIS16400_XYZ(MAGN, MAGN, 16),
	{
		/*
		 * BARO_OUT is unsigned (20 ubar per LSB, so sea level is about
		 * 50660). The kernel declares it signed 16-bit, which makes
		 * every pressure above 65.5 kPa read negative; we read it as
		 * the chip gives it (deviation K-6, maps/README.md).
		 */
		.type = IIO_PRESSURE,
		.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
		.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),
		.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ),
		.address = ADIS16448_BARO_OUT,
		.scan_index = ADIS16400_SCAN_BARO,
		.scan_type = ADIS16400_SCAN('u', 16),
	},
	ADIS16400_TEMP_CHAN(ADIS16448_TEMP_OUT, 12),
	ADIS16400_TIMESTAMP_CHAN,
};

#define ADIS16400_CHANS(c)	.channels = (c), .num_channels = (int)ARRAY_SIZE(c)

enum adis16400_freq_style {
	ADIS16400_FREQ_16400,	/* SMPL_PRD low byte: time base bit 7, divider 6:0 */
	ADIS16400_FREQ_16334,	/* SMPL_PRD high byte: 819.2 Hz >> n */
};

/**
 * struct adis16400_chip_info - one row per distinct part behaviour.
 * @gyro_scale_micro: rad/s per LSB in micro units, rounded as the kernel's
 *	degree-to-radian conversion does ((udeg * 314159 + 9000000) / 18000000).
 * @accel_scale_micro: m/s^2 per LSB in micro units (ug * 980665 / 100000).
 * @temp_scale_nano: milli degrees C per LSB, in nano units.
 * @temp_offset: LSBs from 0 degrees C to the code-0 point (25 or 31 C).
 * @incli_scale_micro: degrees per LSB in micro units, 0 if no inclinometer.
 * @reset_ms/@self_test_ms: how long a software reset and the memory self
 *	test take.
 * @burst_len: bytes of the burst reply (the kernel's burst_len); 0: no
 *	burst here, buffered scans read register by register.
 */
struct adis16400_chip_info {
	const struct iio_chan_spec *channels;
	int num_channels;
	unsigned long flags;
	unsigned int gyro_scale_micro;
	unsigned int accel_scale_micro;
	int temp_scale_nano;
	int temp_offset;
	unsigned int incli_scale_micro;
	enum adis16400_freq_style freq_style;
	unsigned int reset_ms;
	unsigned int self_test_ms;
	unsigned int burst_len;
};

enum adis16400_variant {
	ADIS16300,
	ADIS16334,
	ADIS16350,
	ADIS16360,
	ADIS16362,
	ADIS16364,
	ADIS16367,
	ADIS16400,
	ADIS16445,
	ADIS16448,
};

/*
 * One part's row: its channel table (adisNNNNN_channels), its flags
 * (ADIS16400_F_*), gyro and accel scales (micro), temperature scale (milli
 * degrees C per LSB, micro units) and the temperature at code 0 (degrees C),
 * sample-rate style (ADIS16400_FREQ_*), reset and self-test times (ms), then
 * any further fields.
 */
#define ADIS16400_CHIP(chans, f, gyro, accel, temp_micro, zero_c, freq, reset, test, ...)	\
	{ ADIS16400_CHANS(adis##chans##_channels), .flags = ADIS16400_F_##f,			\
	  .gyro_scale_micro = (gyro), .accel_scale_micro = (accel),				\
	  .temp_scale_nano = (temp_micro) * 1000,						\
	  .temp_offset = (zero_c) * 1000000 / (temp_micro),					\
	  .freq_style = ADIS16400_FREQ_##freq, .reset_ms = (reset), .self_test_ms = (test),	\
	  __VA_ARGS__ }

static const struct adis16400_chip_info adis16400_chips[] = {
	/* gyro 0.05 deg/s, accel 0.6 mg, temperature 0.14 C */
	/*
	 * 0.044 deg per LSB (datasheet, unconfirmed). The kernel
	 * declares in_incli_scale but its read_raw has no case for
	 * it, so the file fails with EINVAL there; we give the value
	 * (deviation K-4, maps/README.md).
	 */
	[ADIS16300] = ADIS16400_CHIP(16300, PID_SLOW_SN, 873, 5884, 140000, 25, 16400, 290, 290,
				     .incli_scale_micro = 44000, .burst_len = 18),
	/* gyro 0.05 deg/s, accel 1 mg, temperature 0.06785 C */
	[ADIS16334] = ADIS16400_CHIP(16334, PID_NOBURST_SN, 873, 9806, 67850, 25, 16334, 60, 14),
	/* gyro 0.07326 deg/s, accel 2.522 mg, temperature 0.1453 C */
	[ADIS16350] = ADIS16400_CHIP(16350, NOBURST_SLOW, 1279, 24732, 145300, 25, 16400, 290, 290),
	/*
	 * Set C: the kernel bursts 28 bytes into its 14 scan slots, but the
	 * chip's burst has 11 words [hedge: datasheet]: temp0_x's slot gets
	 * AUX_ADC, temp0_y/z's and aux's what follows. No burst_len here: we
	 * read register by register (deviation K-50, maps/README.md).
	 */
	/* gyro 0.05 deg/s, accel 3.333 mg, temperature 0.136 C */
	[ADIS16360] = ADIS16400_CHIP(16350, PID_SLOW_SN, 873, 32685, 136000, 25, 16400, 290, 290),
	/* gyro 0.05 deg/s, accel 0.333 mg, temperature 0.136 C */
	[ADIS16362] = ADIS16400_CHIP(16350, PID_SLOW_SN, 873, 3265, 136000, 25, 16400, 130, 12),
	/* gyro 0.05 deg/s, accel 1 mg, temperature 0.136 C */
	[ADIS16364] = ADIS16400_CHIP(16350, PID_SLOW_SN, 873, 9806, 136000, 25, 16400, 130, 12),
	/* accel 3.333 mg, temperature 0.136 C */
	/*
	 * 0.2 deg/s, as the kernel's own comment says; its constant
	 * is 2000 udeg (0.002 deg/s), which prints 0.000035
	 * (deviation K-5, maps/README.md).
	 */
	[ADIS16367] = ADIS16400_CHIP(16350, PID_SLOW_SN, 3491, 32685, 136000, 25, 16400, 290, 290),
	/* gyro 0.05 deg/s, accel 3.333 mg, temperature 0.14 C */
	[ADIS16400] = ADIS16400_CHIP(16400, PID_SLOW, 873, 32685, 140000, 25, 16400, 170, 12,
				     .burst_len = 24),
	/* gyro 0.01 deg/s, accel 0.25 mg, temperature 0.07386 C */
	[ADIS16445] = ADIS16400_CHIP(16445, PID_SN_DIAG, 175, 2451, 73860, 31, 16334, 55, 16,
				     .burst_len = 16),
	/* gyro 0.04 deg/s, accel 0.833 mg, temperature 0.07386 C */
	[ADIS16448] = ADIS16400_CHIP(16448, PID_SN_DIAG, 698, 8168, 73860, 31, 16334, 90, 45,
				     .burst_len = 24),
};

/**
 * struct adis16400_state - per-device state, reached with iio_priv(). All
 * callbacks run under the device lock, which also keeps each
 * read-modify-write of a register whole.
 * @spi: borrowed; the device owns it after probe (iio_device_set_spi()).
 * @filt_int: the last requested filter frequency (integer Hz). Kept as the
 *	kernel keeps it; like the kernel, a later rate change does not reapply it.
 * @scan_masks: for a bursting part, its one available scan mask (every
 *	non-timestamp channel), 0-ended.
 */
struct adis16400_state {
	const struct adis16400_chip_info *variant;
	struct bus_spi_device *spi;
	int filt_int;
	uint64_t scan_masks[2];
	/* the data-ready rate, mHz, as last read or written: the trigger's pace (atomic word) */
	int rate_mhz;
};

/* ---- register access: 16-bit frames, a read answered in the following frame ---- */

static int adis16400_read_reg_16(struct adis16400_state *st, uint8_t reg, uint16_t *val)
{
	uint8_t tx[2] = { reg & ADIS16400_READ_MASK, 0 };
	uint8_t rx[2] = { 0, 0 };
	const struct bus_spi_transfer xfers[] = {
		{ .tx_buf = tx, .len = 2, .cs_change = 1, .delay_usecs = ADIS16400_FRAME_DELAY_US },
		/* the answer frame sends zeros, i.e. itself a harmless read of 0x00 */
		{ .rx_buf = rx, .len = 2, .delay_usecs = ADIS16400_FRAME_DELAY_US },
	};
	int ret;

	ret = bus_spi_sync(st->spi, xfers, 2);
	if (ret < 0)
		return ret;
	*val = (uint16_t)((rx[0] << 8) | rx[1]);
	return 0;
}

static int adis16400_write_reg_8(struct adis16400_state *st, uint8_t reg, uint8_t val)
{
	uint8_t tx[2] = { ADIS16400_WRITE | reg, val };
	const struct bus_spi_transfer xfer = {
		.tx_buf = tx, .len = 2, .delay_usecs = ADIS16400_FRAME_DELAY_US,
	};

	return bus_spi_sync(st->spi, &xfer, 1);
}

/* A 16-bit register is written a byte at a time, low byte (even address) first. */
static int adis16400_write_reg_16(struct adis16400_state *st, uint8_t reg, uint16_t val)
{
	uint8_t tx[4] = { ADIS16400_WRITE | reg, val & 0xff,
			  ADIS16400_WRITE | (reg + 1), val >> 8 };
	const struct bus_spi_transfer xfers[] = {
		{ .tx_buf = tx, .len = 2, .cs_change = 1, .delay_usecs = ADIS16400_FRAME_DELAY_US },
		{ .tx_buf = tx + 2, .len = 2, .delay_usecs = ADIS16400_FRAME_DELAY_US },
	};

	return bus_spi_sync(st->spi, xfers, 2);
}

/* ---- sample rate and filter ---- */

/* Sample rate in mHz from SMPL_PRD, or -errno. */
static int adis16400_get_freq(struct adis16400_state *st)
{
	unsigned int shift;
	int base;
	uint16_t t;
	int ret;

	ret = adis16400_read_reg_16(st, ADIS16400_SMPL_PRD, &t);
	if (ret < 0)
		return ret;
	if (st->variant->freq_style == ADIS16400_FREQ_16334) {
		shift = t >> ADIS16334_RATE_DIV_SHIFT;
		/* the kernel shifts by up to 255 bits; past 19 the rate is 0 anyway */
		return shift >= 20 ? 0 : ADIS16334_BASE_MHZ >> shift;
	}
	base = (t & ADIS16400_SMPL_PRD_TIME_BASE) ? ADIS16400_TB_SLOW_MHZ : ADIS16400_TB_FAST_MHZ;
	return base / ((t & ADIS16400_SMPL_PRD_DIV_MASK) + 1);
}

/*
 * Program the rate closest at or above @freq mHz the divider allows, as the
 * kernel computes it (in the slow time base the divider is not decremented,
 * so 1 Hz reads back 0.997 Hz). 16400-style parts also get their SPI clock
 * lowered to 300 kHz when the chip goes into its low-power sample rates.
 */
static int adis16400_set_freq(struct adis16400_state *st, unsigned int freq)
{
	uint32_t speed;
	unsigned int t;
	uint8_t val = 0;
	int ret;

	if (st->variant->freq_style == ADIS16400_FREQ_16334) {
		t = 0;
		if (freq < ADIS16334_BASE_MHZ) {
			for (unsigned int q = ADIS16334_BASE_MHZ / freq; q > 1; q >>= 1)
				t++;
		}
		if (t > 0x31)
			t = 0x31;
		return adis16400_write_reg_16(st, ADIS16400_SMPL_PRD,
					      (uint16_t)((t << ADIS16334_RATE_DIV_SHIFT) |
							 ADIS16334_RATE_INT_CLK));
	}
	t = ADIS16400_TB_FAST_MHZ / freq;
	if (t >= 128) {
		val |= ADIS16400_SMPL_PRD_TIME_BASE;
		t = ADIS16400_TB_SLOW_MHZ / freq;
		if (t >= 128)
			t = 127;
	} else if (t != 0) {
		t--;
	}
	val |= (uint8_t)t;
	if (t >= 0x0a || (val & ADIS16400_SMPL_PRD_TIME_BASE))
		speed = ADIS16400_SPI_SLOW_HZ;
	else
		speed = ADIS16400_SPI_FAST_HZ;
	/*
	 * The write must go at a clock both the old and the new rate allow:
	 * slow down before entering the low-power range, speed up only after
	 * leaving it. (The kernel raises the clock first, so its write out of
	 * the low-power range goes at 2 MHz to a chip that follows 300 kHz.)
	 */
	if (speed < st->spi->max_speed_hz)
		st->spi->max_speed_hz = speed;
	ret = adis16400_write_reg_8(st, ADIS16400_SMPL_PRD, val);
	if (ret < 0)
		return ret;
	st->spi->max_speed_hz = speed;
	return 0;
}

/* Remember the chip's rate for the data-ready trigger (a failed read keeps the last). */
static void adis16400_cache_rate(struct adis16400_state *st)
{
	int mhz = adis16400_get_freq(st);

	if (mhz > 0)
		__atomic_store_n(&st->rate_mhz, mhz, __ATOMIC_RELAXED);
}

/* Choose the largest averaging whose 3 dB point still reaches @val mHz. */
static int adis16400_set_filter(struct adis16400_state *st, int sps, int val)
{
	uint16_t val16;
	int i, ret;

	for (i = (int)ADIS16400_NDIVISORS - 1; i >= 1; i--)
		if (sps / (int)adis16400_3db_divisors[i] >= val)
			break;
	ret = adis16400_read_reg_16(st, ADIS16400_SENS_AVG, &val16);
	if (ret < 0)
		return ret;
	return adis16400_write_reg_16(st, ADIS16400_SENS_AVG,
				      (uint16_t)((val16 & ~ADIS16400_SENS_AVG_FILTER_MASK) | i));
}

/* mHz as INT_PLUS_MICRO ("819.202000") */
static int adis16400_mhz_to_val(int mhz, int *val, int *val2)
{
	*val = mhz / 1000;
	*val2 = (mhz % 1000) * 1000;
	return IIO_VAL_INT_PLUS_MICRO;
}

/* The scale of @chan's type (every scale is below 1 but the supply's and the temperature's). */
static int adis16400_read_scale(const struct adis16400_chip_info *ci,
				const struct iio_chan_spec *chan, int *val, int *val2)
{
	*val = 0;
	switch (chan->type) {
	case IIO_ANGL_VEL:
		*val2 = (int)ci->gyro_scale_micro;
		break;
	case IIO_VOLTAGE:
		if (chan->channel == 0) {
			*val = 2;
			*val2 = 418000;	/* 2.418 mV */
		} else {
			*val2 = 805800;	/* 0.8058 mV */
		}
		break;
	case IIO_ACCEL:
		*val2 = (int)ci->accel_scale_micro;
		break;
	case IIO_MAGN:
		*val2 = 500;		/* 0.5 mgauss */
		break;
	case IIO_TEMP:
		*val = ci->temp_scale_nano / 1000000;
		*val2 = ci->temp_scale_nano % 1000000;
		break;
	case IIO_PRESSURE:
		*val2 = 2000;		/* 20 ubar = 0.002 kPa */
		break;
	case IIO_INCLI:
		if (!ci->incli_scale_micro)
			return -EINVAL;
		*val2 = (int)ci->incli_scale_micro;
		break;
	default:
		return -EINVAL;
	}
	return IIO_VAL_INT_PLUS_MICRO;
}

/* The calibbias register of @chan, or 0 when it has none. */
static uint8_t adis16400_calibbias_reg_of(const struct iio_chan_spec *chan)
{
	if (chan->scan_index < 0 || chan->scan_index >= (int)sizeof(adis16400_calibbias_reg))
		return 0;
	return adis16400_calibbias_reg[chan->scan_index];
}

/*
 * The kernel's sampling_frequency and low-pass reads test get_freq()'s
 * result with "if (ret)", so a valid (positive) rate becomes read_raw's
 * return code and the file reads as a bare newline. We return the value,
 * as the driver evidently intends and as older kernels did.
 * Deviation K-3 (maps/README.md).
 */
static int adis16400_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			      int *val, int *val2, long info)
{
	struct adis16400_state *st = iio_priv(indio_dev);
	const struct adis16400_chip_info *ci = st->variant;
	uint8_t reg;
	uint16_t val16;
	int ret;

	switch (info) {
	case IIO_CHAN_INFO_RAW:
		ret = adis16400_read_reg_16(st, (uint8_t)chan->address, &val16);
		if (ret < 0)
			return ret;
		/* bits above realbits are the new-data and error flags */
		if (chan->scan_type.sign == 's')
			*val = sign_extend32(val16, chan->scan_type.realbits - 1);
		else
			*val = val16 & (int)GENMASK(chan->scan_type.realbits - 1, 0);
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		return adis16400_read_scale(ci, chan, val, val2);
	case IIO_CHAN_INFO_CALIBBIAS:
		reg = adis16400_calibbias_reg_of(chan);
		if (!reg)
			return -EINVAL;
		ret = adis16400_read_reg_16(st, reg, &val16);
		if (ret < 0)
			return ret;
		/* 12-bit two's complement on every part, as the kernel reads it */
		*val = sign_extend32(val16, 11);
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_OFFSET:
		*val = ci->temp_offset;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY:
		ret = adis16400_read_reg_16(st, ADIS16400_SENS_AVG, &val16);
		if (ret < 0)
			return ret;
		ret = adis16400_get_freq(st);
		if (ret < 0)
			return ret;
		return adis16400_mhz_to_val(ret / (int)adis16400_3db_divisors[val16 & 0x07],
					    val, val2);
	case IIO_CHAN_INFO_SAMP_FREQ:
		ret = adis16400_get_freq(st);
		if (ret < 0)
			return ret;
		return adis16400_mhz_to_val(ret, val, val2);
	default:
		return -EINVAL;
	}
}

/*
 * Writable: calibbias (integer part, truncated to 16 bits with no range
 * check, as the kernel does: 3000 reads back as -1096), the low-pass filter
 * and the sampling frequency (both in Hz with micro precision).
 */
static int adis16400_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			       int val, int val2, long info)
{
	struct adis16400_state *st = iio_priv(indio_dev);
	int sps;

	switch (info) {
	case IIO_CHAN_INFO_CALIBBIAS:
		if (!adis16400_calibbias_reg_of(chan))
			return -EINVAL;
		return adis16400_write_reg_16(st, adis16400_calibbias_reg_of(chan),
					      (uint16_t)val);
	case IIO_CHAN_INFO_LOW_PASS_FILTER_3DB_FREQUENCY:
		st->filt_int = val;
		sps = adis16400_get_freq(st);
		if (sps < 0)
			return sps;
		return adis16400_set_filter(st, sps, val * 1000 + val2 / 1000);
	case IIO_CHAN_INFO_SAMP_FREQ:
		sps = val * 1000 + val2 / 1000;
		if (sps <= 0)
			return -EINVAL;
		sps = adis16400_set_freq(st, (unsigned int)sps);
		if (!sps)
			adis16400_cache_rate(st);
		return sps;
	default:
		return -EINVAL;
	}
}

/* ---- buffered capture and the data-ready trigger ---- */

/*
 * The enabled channels' registers, one 16-bit read each, big-endian with the
 * ND/EA flag bits as the chip sends them (the kernel does not mask buffered
 * data): the words the kernel's chained frames get on NO_BURST parts
 * (adis_update_scan_mode), and ours for set C (deviation K-50, maps/README.md).
 */
static int adis16400_read_scan(struct iio_dev *indio_dev, uint64_t active, uint8_t *data)
{
	struct adis16400_state *st = iio_priv(indio_dev);
	const struct iio_chan_spec *c;
	int idx, k, j = 0, ret;
	uint16_t v;

	for (idx = 0; idx < IIO_SCAN_INDEX_MAX && j + 2 <= IIO_SCAN_BYTES_MAX - 8; idx++) {
		if (!(active & BIT_ULL(idx)))
			continue;
		for (k = 0; k < indio_dev->num_channels; k++) {
			c = &indio_dev->channels[k];
			if (c->scan_index != idx || c->type == IIO_TIMESTAMP)
				continue;
			ret = adis16400_read_reg_16(st, (uint8_t)c->address, &v);
			if (ret < 0)
				return ret;
			data[j++] = (uint8_t)(v >> 8);
			data[j++] = (uint8_t)v;
			break;
		}
	}
	return 0;
}

/*
 * One burst (adis_update_scan_mode_burst): a read frame of GLOB_CMD, then,
 * chip select held, one transfer of burst_len bytes; on BURST_DIAG_STAT parts
 * the first word is DIAG_STAT and is skipped. As the kernel's handler, the
 * rest goes to the scan as it came, so burst word k fills scan slot k (the
 * burst's register order is the scan index order on the parts that burst
 * here) and the core demuxes each reader's channels. The kernel sets each
 * burst transfer to 1 MHz (burst_max_speed_hz, which the SPI core clamps only
 * to the controller), also when low-power rates keep the device at 300 kHz;
 * we take the lower of the two (deviation K-51, maps/README.md). The scan's
 * padding stays zero (K-52).
 */
static int adis16400_read_burst(struct adis16400_state *st, uint64_t active, uint8_t *data)
{
	const struct adis16400_chip_info *ci = st->variant;
	uint8_t tx[2] = { ADIS16400_GLOB_CMD & ADIS16400_READ_MASK, 0 };
	uint8_t rx[ADIS16400_BURST_MAX];
	uint32_t hz = st->spi->max_speed_hz < ADIS16400_SPI_BURST_HZ ? st->spi->max_speed_hz :
								      ADIS16400_SPI_BURST_HZ;
	const struct bus_spi_transfer xfers[] = {
		{ .tx_buf = tx, .len = 2, .speed_hz = hz },
		{ .rx_buf = rx, .len = ci->burst_len, .speed_hz = hz },
	};
	size_t skip = (ci->flags & ADIS16400_BURST_DIAG_STAT) ? 2 : 0;
	size_t n = 2 * (size_t)__builtin_popcountll(active);
	int ret;

	ret = bus_spi_sync(st->spi, xfers, 2);
	if (ret < 0)
		return ret;
	/* the active mask is the one available mask, whose words the burst holds */
	memcpy(data, rx + skip, n <= ci->burst_len - skip ? n : ci->burst_len - skip);
	return 0;
}

/* One scan for the core, which demuxes it to each reader's mask. */
static int adis16400_trigger_handler(struct iio_dev *indio_dev, int64_t ts)
{
	struct adis16400_state *st = iio_priv(indio_dev);
	uint64_t active = iio_buffer_active_mask(indio_dev);
	uint8_t data[IIO_SCAN_BYTES_MAX] = { 0 };
	int ret;

	if (st->scan_masks[0])
		ret = adis16400_read_burst(st, active, data);
	else
		ret = adis16400_read_scan(indio_dev, active, data);
	if (ret < 0)
		return ret;
	iio_push_to_buffers_with_timestamp(indio_dev, data, ts);
	return 0;
}

/* The trigger's pace, from the cache: the loop asks often and must not touch the bus. */
static int adis16400_dr_period(struct iio_dev *indio_dev, uint64_t *period_ns)
{
	const struct adis16400_state *st = iio_priv(indio_dev);
	int mhz = __atomic_load_n(&st->rate_mhz, __ATOMIC_RELAXED);

	if (mhz <= 0)
		return -EINVAL;
	*period_ns = 1000000000000ULL / (uint64_t)mhz;
	return 0;
}

static const struct iio_buffer_setup adis16400_buffer_setup = {
	.handler = adis16400_trigger_handler,
};

static const struct iio_info adis16400_info = {
	.read_raw = adis16400_read_raw,
	.write_raw = adis16400_write_raw,
};

/* ---- probe ---- */

/* Names of the DIAG_STAT error bits, by bit. */
static const char *const adis16400_diag_names[16] = {
	[15] = "Z accel self-test", [14] = "Y accel self-test", [13] = "X accel self-test",
	[12] = "X gyro self-test", [11] = "Y gyro self-test", [10] = "Z gyro self-test",
	[9] = "alarm 2", [8] = "alarm 1", [6] = "flash checksum", [5] = "self test",
	[4] = "sensor overrange", [3] = "SPI failure", [2] = "flash update",
	[1] = "supply above 5.25 V", [0] = "supply below 4.75 V",
};

static void adis16400_diag_text(uint16_t status, char *buf, size_t len)
{
	size_t used = 0;
	int bit;

	buf[0] = '\0';
	for (bit = 15; bit >= 0 && used < len; bit--) {
		if (!(status & ADIS16400_DIAG_STAT_ERROR_MASK & BIT(bit)))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
					 adis16400_diag_names[bit]);
	}
}

/*
 * The start-up the kernel's ADIS library and driver perform: software
 * reset, memory self-test, DIAG_STAT check, data-ready output off. A bus
 * error, or any DIAG_STAT error flag after the self-test, refuses the chip.
 */
static int adis16400_initial_startup(struct adis16400_state *st, const struct iio_probe *p,
				     char *err, size_t errlen)
{
	const struct adis16400_chip_info *ci = st->variant;
	char why[128];
	uint16_t status, msc;
	int ret;

	ret = adis16400_write_reg_8(st, ADIS16400_GLOB_CMD, ADIS16400_GLOB_CMD_SW_RESET);
	if (ret < 0)
		goto err_bus;
	bus_msleep(st->spi->bus, ci->reset_ms);
	ret = adis16400_write_reg_16(st, ADIS16400_MSC_CTRL, ADIS16400_MSC_CTRL_MEM_TEST);
	if (ret < 0)
		goto err_bus;
	bus_msleep(st->spi->bus, ci->self_test_ms);
	ret = adis16400_read_reg_16(st, ADIS16400_DIAG_STAT, &status);
	if (ret < 0)
		goto err_bus;
	if (status & ADIS16400_DIAG_STAT_ERROR_MASK) {
		adis16400_diag_text(status, why, sizeof(why));
		return iio_probe_err_bus(p, err, errlen, -EIO,
					 "power-up self test failed: DIAG_STAT 0x%04x (%s)",
					 status, why);
	}
	ret = adis16400_read_reg_16(st, ADIS16400_MSC_CTRL, &msc);
	if (ret < 0)
		goto err_bus;
	msc |= ADIS16400_MSC_CTRL_DATA_RDY_POL_HIGH;
	msc &= (uint16_t)~(ADIS16400_MSC_CTRL_DATA_RDY_DIO2 | ADIS16400_MSC_CTRL_DATA_RDY_EN);
	ret = adis16400_write_reg_16(st, ADIS16400_MSC_CTRL, msc);
	if (ret < 0)
		goto err_bus;
	return 0;

err_bus:
	return iio_probe_err_bus(p, err, errlen, ret, "no answer during reset and self test");
}

/*
 * PRODUCT_ID must equal the part number in the id name ("adis16405" ->
 * 16405). The kernel only warns on a mismatch and binds anyway; we refuse
 * the device, because a board naming the wrong part gets the wrong scales
 * (and a dead or unwired chip reads 0x0000 or 0xffff here).
 */
static int adis16400_check_product_id(struct adis16400_state *st, const struct iio_probe *p,
				      char *err, size_t errlen)
{
	const char *name = p->id->name;
	unsigned int device_id;
	uint16_t prod_id;
	int ret;

	if (sscanf(name, "adis%u", &device_id) != 1)
		return iio_probe_err_bus(p, err, errlen, -EINVAL,
					 "cannot tell the part number from \"%s\"", name);
	ret = adis16400_read_reg_16(st, ADIS16400_PRODUCT_ID, &prod_id);
	if (ret < 0)
		return iio_probe_err_bus(p, err, errlen, ret, "reading PRODUCT_ID failed");
	/* the kernel only warns: deviation K-7 (maps/README.md) */
	if (prod_id != device_id)
		return iio_probe_err_bus(p, err, errlen, -ENODEV, "PRODUCT_ID reads %u (0x%04x), "
					 "expected %u: wrong part or no chip", prod_id, prod_id,
					 device_id);
	return 0;
}

/*
 * adis16400_probe() - bring the chip up as the kernel does: SPI mode 3 at
 * 300 kHz (parts with a low-power mode) or 2 MHz, reset and self-test,
 * product id check, then 2 MHz if the sample rate allows it.
 */
static int adis16400_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			   size_t errlen)
{
	const struct adis16400_chip_info *ci;
	struct adis16400_state *st;
	struct iio_dev *indio_dev;
	uint16_t smpl_prd;
	int ret;

	ret = iio_probe_part(p, ARRAY_SIZE(adis16400_chips), "ADIS16400-family", err, errlen);
	if (ret < 0)
		return ret;
	ci = &adis16400_chips[ret];

	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	st->variant = ci;
	st->spi = p->spi;
	st->spi->mode = SPI_MODE_3;
	st->spi->bits_per_word = 8;
	st->spi->max_speed_hz = (ci->flags & ADIS16400_HAS_SLOW_MODE) ? ADIS16400_SPI_SLOW_HZ :
									ADIS16400_SPI_FAST_HZ;

	ret = adis16400_initial_startup(st, p, err, errlen);
	if (ret < 0)
		goto err_put_dev;
	if (ci->flags & ADIS16400_HAS_PROD_ID) {
		ret = adis16400_check_product_id(st, p, err, errlen);
		if (ret < 0)
			goto err_put_dev;
	}
	if (ci->flags & ADIS16400_HAS_SLOW_MODE) {
		ret = adis16400_read_reg_16(st, ADIS16400_SMPL_PRD, &smpl_prd);
		if (ret < 0) {
			iio_probe_err_bus(p, err, errlen, ret, "reading SMPL_PRD failed");
			goto err_put_dev;
		}
		/*
		 * The kernel looks at the divider only; the slow time base is
		 * low-power too (its own set_freq says so), so check both.
		 */
		if ((smpl_prd & ADIS16400_SMPL_PRD_DIV_MASK) < 0x0a &&
		    !(smpl_prd & ADIS16400_SMPL_PRD_TIME_BASE))
			st->spi->max_speed_hz = ADIS16400_SPI_FAST_HZ;
	}

	iio_device_setup(indio_dev, p->id->name, ci->channels,
			 ci->num_channels, &adis16400_info);
	indio_dev->label = p->label;
	adis16400_cache_rate(st);
	/*
	 * As the kernel, a part without NO_BURST captures every channel at
	 * once (set C's rows have no burst_len here: K-50).
	 */
	if (ci->burst_len) {
		st->scan_masks[0] = iio_buffer_widest_mask(indio_dev);
		st->scan_masks[1] = 0;
	}
	/* its data-ready trigger "<name>-dev<N>", as devm_adis_probe_trigger */
	if (iio_triggered_buffer_setup(indio_dev, &adis16400_buffer_setup,
				       st->scan_masks[0] ? st->scan_masks : NULL) ||
	    iio_device_trigger_setup(indio_dev, adis16400_dr_period)) {
		ret = -ENOMEM;
		goto err_put_dev;
	}
	*out = indio_dev;
	return 0;

err_put_dev:
	iio_device_put(indio_dev);
	return ret;
}

/* adis16400_remove() - put the chip to sleep (SLP_CNT power-off); errors have nobody to tell. */
static void adis16400_remove(struct iio_dev *indio_dev)
{
	struct adis16400_state *st = iio_priv(indio_dev);

	adis16400_write_reg_16(st, ADIS16400_SLP_CNT, ADIS16400_SLP_CNT_POWER_OFF);
}

static const struct iio_device_id adis16400_id[] = {
	{ "adis16300", ADIS16300 },
	{ "adis16305", ADIS16300 },
	{ "adis16334", ADIS16334 },
	{ "adis16350", ADIS16350 },
	{ "adis16354", ADIS16350 },
	{ "adis16355", ADIS16350 },
	{ "adis16360", ADIS16360 },
	{ "adis16362", ADIS16362 },
	{ "adis16364", ADIS16364 },
	{ "adis16365", ADIS16360 },
	{ "adis16367", ADIS16367 },
	{ "adis16400", ADIS16400 },
	{ "adis16405", ADIS16400 },
	{ "adis16445", ADIS16445 },
	{ "adis16448", ADIS16448 },
	{ NULL, 0 }
};

static const struct iio_driver adis16400_driver = {
	.name = "adis16400",
	.bus = IIO_DRIVER_BUS_SPI,
	.id_table = adis16400_id,
	.probe = adis16400_probe, .remove = adis16400_remove,
};
IIO_DRIVER_REGISTER(adis16400_driver);
