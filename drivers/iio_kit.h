/*
 * iio_kit.h - the driver kit: bit and field helpers and probe messages.
 *
 * What every driver would otherwise write again, in the spirit of the
 * kernel's <linux/bits.h>, <linux/bitfield.h>, <linux/bitops.h>,
 * <linux/container_of.h> and dev_err_probe(): ARRAY_SIZE, BIT, GENMASK,
 * FIELD_PREP/FIELD_GET, sign_extend32, container_of, and one way to say why
 * a probe failed that names the device, where it sits and the errno.
 * Place in the flow: included by drivers and chip models (bus -> *driver*);
 * it has no state, formats no values and never logs.
 */
#ifndef IIOWIRE_IIO_KIT_H
#define IIOWIRE_IIO_KIT_H

#include <stddef.h>
#include <stdint.h>

#include "iio.h"

/* Number of elements of a true array; a pointer argument does not compile. */
#define IIO_KIT_IS_ARRAY(a)							\
	(!__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])))
#define ARRAY_SIZE(a)								\
	(sizeof(a) / sizeof((a)[0]) +						\
	 0 * sizeof(struct { int _a : IIO_KIT_IS_ARRAY(a) ? 1 : -1; }))

#ifndef BIT
#define BIT(n)		(1UL << (n))
#endif
#define BIT_ULL(n)	(1ULL << (n))

/* Bits @h down to @l set, both included: GENMASK(7, 4) is 0xf0. */
#define GENMASK(h, l)		\
	((~0UL << (l)) & (~0UL >> (8 * sizeof(unsigned long) - 1 - (h))))
#define GENMASK_ULL(h, l)	\
	((~0ULL << (l)) & (~0ULL >> (8 * sizeof(unsigned long long) - 1 - (h))))

/* Place @val in the field @mask (a constant, contiguous) / take the field back out. */
#define FIELD_PREP(mask, val)	\
	(((unsigned long long)(val) << __builtin_ctzll(mask)) & (unsigned long long)(mask))
#define FIELD_GET(mask, reg)	\
	((__typeof__(mask))(((unsigned long long)(reg) & (unsigned long long)(mask)) >>	\
			    __builtin_ctzll(mask)))

/* The structure that holds @ptr as its @member. */
#define container_of(ptr, type, member)						\
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/**
 * sign_extend32() - treat bit @index of @value as the sign bit.
 * Return: @value with bits above @index copies of it (index 11: a 12-bit
 * two's complement field).
 */
static inline int32_t sign_extend32(uint32_t value, int index)
{
	uint8_t shift = (uint8_t)(31 - index);

	return (int32_t)(value << shift) >> shift;
}

/*
 * The software timestamp channel at scan index @si, as the kernel's
 * IIO_CHAN_SOFT_TIMESTAMP: s64 nanoseconds, last in every scan.
 */
#define IIO_CHAN_SOFT_TIMESTAMP(si) {						\
	.type = IIO_TIMESTAMP,							\
	.channel = -1,								\
	.scan_index = (si),							\
	.scan_type = { .sign = 's', .realbits = 64, .storagebits = 64 },	\
}

/*
 * One threshold event in direction @dir with its value and enable files
 * (in_voltage0_thresh_rising_value/_en): most drivers' events are a pair of
 * these, rising and falling.
 */
#define IIO_EVENT_SPEC_THRESH(_dir) {						\
	.type = IIO_EV_TYPE_THRESH,						\
	.dir = (_dir),								\
	.mask_separate = BIT(IIO_EV_INFO_VALUE) | BIT(IIO_EV_INFO_ENABLE),	\
}

/**
 * iio_device_setup() - what every probe fills in before handing the device
 * back: @name (static or in the device's private state: it must outlive
 * the device), the channel table and the callbacks.
 */
static inline void iio_device_setup(struct iio_dev *indio_dev, const char *name,
				    const struct iio_chan_spec *channels, int num_channels,
				    const struct iio_info *info)
{
	indio_dev->name = name;
	indio_dev->channels = channels;
	indio_dev->num_channels = num_channels;
	indio_dev->info = info;
}

/**
 * iio_scale_log2() - an ADC's scale: @vref_mv over 2^@bits codes, in mV.
 * Return: IIO_VAL_FRACTIONAL_LOG2, for read_raw to return.
 */
static inline int iio_scale_log2(int vref_mv, int bits, int *val, int *val2)
{
	*val = vref_mv;
	*val2 = bits;
	return IIO_VAL_FRACTIONAL_LOG2;
}

/**
 * iio_errno_name() - "ENXIO" for -ENXIO (or ENXIO), for messages; the number
 * ("errno 1234") when libc has no name for it.
 * Return: a static string, or @buf.
 */
const char *iio_errno_name(int err, char *buf, size_t len);

/**
 * iio_probe_hwid() - the hardware id the device will have: "0-0035" for an
 * I2C client, "spi0.1" for an SPI device, "" without a bus. The core builds
 * every hardware id here; the device's own (iio_dev.hwid) is the same text.
 * Return: the length written to @buf (truncated to fit).
 */
int iio_probe_hwid(const struct iio_probe *p, char *buf, size_t len);

/**
 * iio_probe_part() - the row of a driver's chip table @p's id names, for
 * drivers whose id table carries the row in driver_data.
 * @nparts: rows in the table; @family: for the message ("no such AD799x part").
 * Return: the row, or -EINVAL with @err filled.
 */
int iio_probe_part(const struct iio_probe *p, size_t nparts, const char *family, char *err,
		   size_t errlen);

/**
 * iio_probe_adc() - how a table-driven ADC's probe starts: iio_probe_part(),
 * then the board's optional vref_mv (iio_probe_vref_mv(): 0 when absent).
 * Return: the row, or -EINVAL with @err filled.
 */
int iio_probe_adc(const struct iio_probe *p, size_t nparts, const char *family, int *vref_mv,
		  char *err, size_t errlen);

/**
 * iio_probe_err() - say why a probe failed, the way dev_err_probe() does:
 * "NAME at HWID: MESSAGE (ENAME)", for example "ad7998 at 0-0021: no answer
 * (ENXIO)"; without a bus "NAME: MESSAGE (ENAME)". The " (ENAME)" part is
 * left out when @ret is not negative.
 * @err, @errlen: the probe's message buffer; NULL or 0 writes nothing.
 * @ret: the -errno the probe returns.
 * Return: @ret, so that a probe can "return iio_probe_err(...);".
 */
__attribute__((format(printf, 5, 6)))
int iio_probe_err(const struct iio_probe *p, char *err, size_t errlen, int ret,
		  const char *fmt, ...);

/**
 * iio_probe_err_bus() - as iio_probe_err(), with the place spelled as a
 * board file names it: "tsl2563 at i2c-3 0x39: ..." or "adis16400 at spi0
 * chip select 1: ...". The tsl2563 and adis16400 drivers have always said it
 * so, and their users' tests read it.
 * Return: @ret.
 */
__attribute__((format(printf, 5, 6)))
int iio_probe_err_bus(const struct iio_probe *p, char *err, size_t errlen, int ret,
		      const char *fmt, ...);

/**
 * struct iio_enum - an ext_info attribute whose value is one of fixed words
 * (powerdown_mode), as the kernel's struct iio_enum: @get gives the index
 * of the word to print, @set takes the index of the word written.
 * IIO_ENUM() makes the attribute, IIO_ENUM_AVAILABLE() its "_available"
 * list; @private of each points at the struct iio_enum.
 */
struct iio_enum {
	const char *const *items;
	unsigned int num_items;
	int (*get)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan);
	int (*set)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
		   unsigned int item);
};

/* iio_enum_read/_write/_available_read() - the ext_info callbacks the macros use. */
int iio_enum_read(struct iio_dev *indio_dev, uintptr_t priv, const struct iio_chan_spec *chan,
		  char *buf, size_t len);
int iio_enum_write(struct iio_dev *indio_dev, uintptr_t priv, const struct iio_chan_spec *chan,
		   const char *buf, size_t len);
int iio_enum_available_read(struct iio_dev *indio_dev, uintptr_t priv,
			    const struct iio_chan_spec *chan, char *buf, size_t len);

#define IIO_ENUM(_name, _shared, _e) {						\
	.name = (_name), .shared = (_shared),					\
	.read = iio_enum_read, .write = iio_enum_write,				\
	.private = (uintptr_t)(_e),						\
}
#define IIO_ENUM_AVAILABLE(_name, _shared, _e) {				\
	.name = (_name "_available"), .shared = (_shared),			\
	.read = iio_enum_available_read, .private = (uintptr_t)(_e),		\
}

#endif /* IIOWIRE_IIO_KIT_H */
