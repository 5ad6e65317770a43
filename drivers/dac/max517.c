/*
 * max517.c - driver for the Maxim MAX517/518/519/520/521 8-bit I2C DACs
 * (one, two, two, four and eight outputs), as Linux 6.1's
 * drivers/iio/dac/max517.c (read in torvalds/linux's stored copy; listing
 * and scales checked against Debian's 6.1.0-57 under QEMU, tests/kernel-rig/):
 * each output has its raw and scale files; the driver only writes, so a
 * read of out_voltageN_raw is EINVAL as in the kernel (its read_raw knows
 * the scale alone). Nothing is sent at probe, as in the kernel.
 * Place in the flow: bus -> *driver* -> core. Must not format values or log.
 *
 * A write is the datasheets' two bytes: the command byte (R2 R1 R0 RST PD,
 * then the DAC address in the low bits: A0 on the MAX517/518/519, A2..A0 on
 * the MAX520/521), all zero but the address, then the code.
 * The references stand for the kernel's platform data: "vref_mv" for every
 * output, "vref<N>_mv" for output N; without either 5000 mV, the kernel's
 * value without platform data. The MAX518's reference is its VDD, which the
 * kernel takes as 5000 mV whatever the platform data says: it reads no key.
 * Where iiowire differs: the kernel's probe sets no name, so its device has
 * no `name` file (Debian 6.1.0-57 under QEMU: only out_voltageN_raw/_scale);
 * here the device is named by its id, as every other driver's (K-87).
 */
#include <errno.h>
#include <stdio.h>

#include "iio_kit.h"
#include "bus/bus.h"

#define MAX517_BITS		8
#define MAX517_MAX_CHANNELS	8
#define MAX517_DEFAULT_VREF_MV	5000

enum max517_part { max517, max518, max519, max520, max521, MAX517_NPARTS };

static const int max517_num_channels[MAX517_NPARTS] = {
	[max517] = 1, [max518] = 2, [max519] = 2, [max520] = 4, [max521] = 8,
};

struct max517_state {
	struct bus_i2c_client *client;
	int vref_mv[MAX517_MAX_CHANNELS];
};

static int max517_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			   int *val, int *val2, long mask)
{
	struct max517_state *st = iio_priv(indio_dev);

	if (mask != IIO_CHAN_INFO_SCALE)
		return -EINVAL;
	return iio_scale_log2(st->vref_mv[chan->channel], MAX517_BITS, val, val2);
}

static int max517_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int val, int val2, long mask)
{
	struct max517_state *st = iio_priv(indio_dev);
	uint8_t buf[2];
	int ret;

	(void)val2;
	if (mask != IIO_CHAN_INFO_RAW)
		return -EINVAL;
	if (val < 0 || val > 255)
		return -EINVAL;
	buf[0] = (uint8_t)chan->channel;
	buf[1] = (uint8_t)val;
	ret = bus_i2c_master_send(st->client, buf, 2);
	if (ret < 0)
		return ret;
	return ret == 2 ? 0 : -EIO;
}

static const struct iio_info max517_info = {
	.read_raw = max517_read_raw,
	.write_raw = max517_write_raw,
};

#define MAX517_CHANNEL(n) {							\
	.type = IIO_VOLTAGE, .indexed = 1, .output = 1, .channel = (n),	\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE),	\
}

static const struct iio_chan_spec max517_channels[MAX517_MAX_CHANNELS] = {
	MAX517_CHANNEL(0), MAX517_CHANNEL(1), MAX517_CHANNEL(2), MAX517_CHANNEL(3),
	MAX517_CHANNEL(4), MAX517_CHANNEL(5), MAX517_CHANNEL(6), MAX517_CHANNEL(7),
};

/* Output @n's reference: vref<n>_mv, else @dflt. 0 or -EINVAL. */
static int max517_probe_vref(const struct iio_probe *p, int n, int dflt, int *mv, char *err,
			     size_t errlen)
{
	char key[24];
	int ret;

	snprintf(key, sizeof(key), "vref%d_mv", n);
	ret = iio_probe_prop_mv(p, key, mv, err, errlen);
	if (!ret && !*mv)
		*mv = dflt;
	return ret;
}

static int max517_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			size_t errlen)
{
	struct max517_state *st;
	struct iio_dev *indio_dev;
	int part, vref_mv = 0, n, i, ret = 0;

	part = iio_probe_part(p, MAX517_NPARTS, "MAX517-family", err, errlen);
	if (part < 0)
		return part;
	if (part != max518) {
		ret = iio_probe_vref_mv(p, &vref_mv, err, errlen);
		if (ret < 0)
			return ret;
	}
	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	st->client = p->i2c;
	n = max517_num_channels[part];
	for (i = 0; i < n && !ret; i++) {
		st->vref_mv[i] = MAX517_DEFAULT_VREF_MV;
		if (part != max518)
			ret = max517_probe_vref(p, i, vref_mv ? vref_mv : MAX517_DEFAULT_VREF_MV,
						&st->vref_mv[i], err, errlen);
	}
	if (ret) {
		iio_device_put(indio_dev);
		return ret;
	}
	/* K-87: the kernel leaves the name unset */
	iio_device_setup(indio_dev, p->id->name, max517_channels, n, &max517_info);
	indio_dev->label = p->label;
	*out = indio_dev;
	return 0;
}

static const struct iio_device_id max517_id[] = {
	{ "max517", max517 }, { "max518", max518 }, { "max519", max519 },
	{ "max520", max520 }, { "max521", max521 }, { NULL, 0 }
};

/* 010 and the address pins each part has, all within 0x20-0x2f */
static const unsigned short max517_addresses[] = {
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f, IIO_I2C_ADDR_END
};

static const struct iio_driver max517_driver = {
	.name = "max517",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = max517_id,
	.probe = max517_probe,
	.address_list = max517_addresses,
};
IIO_DRIVER_REGISTER(max517_driver);
