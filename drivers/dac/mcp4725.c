/*
 * mcp4725.c - driver for the Microchip MCP4725 and MCP4726 12-bit I2C DACs:
 * one output, its power-down files and the EEPROM store, as Linux 6.1's
 * drivers/iio/dac/mcp4725.c (read in torvalds/linux's stored copy, a
 * later file whose channel, ext_info, attribute, id table and errors are
 * 6.1's; the probe's "failed to read DAC value" EOPNOTSUPP on an SMBus-only
 * adapter checked against Debian's 6.1.0-57 under QEMU, tests/kernel-rig/).
 * Place in the flow: bus -> *driver* -> core. Must not format values or log.
 *
 * Board properties stand for the kernel's regulators and device-tree keys:
 * "vdd_mv" is the vdd supply (without it the scale reads EINVAL, as the
 * kernel's dummy regulator does), "vref_mv" is a vref supply (the kernel's
 * vref-supply: the MCP4726 then takes its reference from the VREF pin; the
 * MCP4725 has none and is refused) and "vref_buffered" (0/1) the kernel's
 * microchip,vref-buffered.
 * The chip is written with the datasheet's commands: fast write (two bytes,
 * PD1:PD0 and D11:D8, then D7:D0), write volatile memory (0x40) and write
 * all memory (0x60: volatile and EEPROM, then RDY/BSY reads 0 until the
 * EEPROM cycle ends), each followed by D11:D4 and D3:D0 in the top nibble.
 * Where iiowire differs: a raw write that fails (out of range, or refused by
 * the chip) leaves the cached code as it was, where the kernel keeps the
 * value written and reads it back (K-85, maps/README.md).
 */
#include <errno.h>
#include <stdbool.h>

#include "iio_kit.h"
#include "iio_value.h"
#include "bus/bus.h"

#define MCP4725_CMD_WRITE_DAC		0x40	/* volatile: DAC, PD (and VREF on the 4726) */
#define MCP4725_CMD_WRITE_ALL		0x60	/* the same into the EEPROM too */
#define MCP4725_REF_SHIFT		3
#define MCP4725_PD_SHIFT_CMD		1	/* PD1:PD0 in a 0x40/0x60 command byte */
#define MCP4725_PD_SHIFT_FAST		4	/* ...and in a fast write's first byte */
#define MCP4725_STATUS_RDY		0x80
#define MCP4725_STATUS_PD		GENMASK(2, 1)
#define MCP4726_NV_REF			GENMASK(4, 3)
#define MCP4725_BITS			12
/* the kernel polls RDY every 20 ms, 20 times (the datasheet's write takes up to 50 ms) */
#define MCP4725_EEPROM_POLL_MS		20
#define MCP4725_EEPROM_TRIES		20

/* the VREF1:VREF0 codes the driver uses */
#define MCP472X_REF_VDD			0x00
#define MCP472X_REF_VREF_UNBUFFERED	0x02
#define MCP472X_REF_VREF_BUFFERED	0x03

enum mcp4725_part { mcp4725, mcp4726, MCP4725_NPARTS };

/*
 * struct mcp4725_state - what the kernel's struct mcp4725_data keeps.
 * @supply_mv: the reference's supply, vdd or vref by @ref_mode (0: none).
 */
struct mcp4725_state {
	struct bus_i2c_client *client;
	unsigned int ref_mode;
	int supply_mv;
	uint16_t dac_value;
	bool powerdown;
	unsigned int powerdown_mode;
};

static const char *const mcp4725_powerdown_modes[] = {
	"1kohm_to_gnd", "100kohm_to_gnd", "500kohm_to_gnd",
};
static const char *const mcp4726_powerdown_modes[] = {
	"1kohm_to_gnd", "125kohm_to_gnd", "640kohm_to_gnd",
};

static int mcp4725_send(struct mcp4725_state *st, const uint8_t *buf, int len)
{
	int ret = bus_i2c_master_send(st->client, buf, len);

	if (ret < 0)
		return ret;
	return ret == len ? 0 : -EIO;
}

/* A fast write: PD1:PD0 and the 12-bit code in two bytes. */
static int mcp4725_fast_write(struct mcp4725_state *st, unsigned int pd, unsigned int code)
{
	uint8_t buf[2] = {
		(uint8_t)((pd << MCP4725_PD_SHIFT_FAST) | ((code >> 8) & 0xf)),
		(uint8_t)(code & 0xff),
	};

	return mcp4725_send(st, buf, 2);
}

/* A 0x40/0x60 command: the command byte, D11:D4, D3:D0 in the top nibble. */
static int mcp4725_cmd_write(struct mcp4725_state *st, uint8_t cmd)
{
	uint8_t buf[3] = {
		cmd, (uint8_t)(st->dac_value >> 4), (uint8_t)((st->dac_value & 0xf) << 4),
	};

	return mcp4725_send(st, buf, 3);
}

/*
 * The kernel's suspend: power down with the chosen resistor (the code goes
 * to 0). The flag is set before the write is tried, as there.
 */
static int mcp4725_suspend(struct mcp4725_state *st)
{
	st->powerdown = true;
	return mcp4725_fast_write(st, st->powerdown_mode + 1, 0);
}

/* The kernel's resume: the cached code again, powered up. */
static int mcp4725_resume(struct mcp4725_state *st)
{
	st->powerdown = false;
	return mcp4725_fast_write(st, 0, st->dac_value);
}

/*
 * store_eeprom: a true word writes DAC, PD (and VREF) into the EEPROM too,
 * then polls RDY as the kernel does; a false one does nothing, and is
 * answered OK where the kernel's store returns 0 bytes taken (K-86).
 */
static int mcp4725_store_eeprom(struct iio_dev *indio_dev, uintptr_t priv, const char *buf,
				size_t len)
{
	struct mcp4725_state *st = iio_priv(indio_dev);
	int tries = MCP4725_EEPROM_TRIES;
	uint8_t status[3];
	bool state;
	int ret;

	(void)priv;
	(void)len;
	ret = iio_kstrtobool(buf, &state);
	if (ret < 0 || !state)
		return ret;
	ret = mcp4725_cmd_write(st, (uint8_t)(MCP4725_CMD_WRITE_ALL |
					      (st->ref_mode << MCP4725_REF_SHIFT) |
					      (st->powerdown ? (st->powerdown_mode + 1) <<
							       MCP4725_PD_SHIFT_CMD : 0)));
	if (ret < 0)
		return ret;
	while (tries--) {
		bus_msleep(st->client->bus, MCP4725_EEPROM_POLL_MS);
		ret = bus_i2c_master_recv(st->client, status, 3);
		if (ret < 0)
			return ret;
		if (ret != 3)
			return -EIO;
		if (status[0] & MCP4725_STATUS_RDY)
			break;
	}
	/* the kernel logs "mcp4725_store_eeprom() failed, incomplete" here */
	return tries < 0 ? -EIO : 0;
}

static const struct iio_dev_attr mcp4725_attrs[] = {
	{ .name = "store_eeprom", .write = mcp4725_store_eeprom },
	{ NULL, NULL, NULL, 0 },
};

static int mcp4725_get_powerdown_mode(struct iio_dev *indio_dev,
				      const struct iio_chan_spec *chan)
{
	(void)chan;
	return (int)((struct mcp4725_state *)iio_priv(indio_dev))->powerdown_mode;
}

static int mcp4725_set_powerdown_mode(struct iio_dev *indio_dev,
				      const struct iio_chan_spec *chan, unsigned int mode)
{
	(void)chan;
	((struct mcp4725_state *)iio_priv(indio_dev))->powerdown_mode = mode;
	return 0;
}

static int mcp4725_read_powerdown(struct iio_dev *indio_dev, uintptr_t priv,
				  const struct iio_chan_spec *chan, char *buf, size_t len)
{
	struct mcp4725_state *st = iio_priv(indio_dev);

	(void)priv;
	(void)chan;
	return iio_format_value(buf, len, IIO_VAL_INT, 1, (int[]){ st->powerdown });
}

static int mcp4725_write_powerdown(struct iio_dev *indio_dev, uintptr_t priv,
				   const struct iio_chan_spec *chan, const char *buf, size_t len)
{
	struct mcp4725_state *st = iio_priv(indio_dev);
	bool state;
	int ret;

	(void)priv;
	(void)chan;
	(void)len;
	ret = iio_kstrtobool(buf, &state);
	if (ret)
		return ret;
	return state ? mcp4725_suspend(st) : mcp4725_resume(st);
}

static const struct iio_enum mcp472x_powerdown_mode_enum[] = {
	[mcp4725] = { mcp4725_powerdown_modes, ARRAY_SIZE(mcp4725_powerdown_modes),
		      mcp4725_get_powerdown_mode, mcp4725_set_powerdown_mode },
	[mcp4726] = { mcp4726_powerdown_modes, ARRAY_SIZE(mcp4726_powerdown_modes),
		      mcp4725_get_powerdown_mode, mcp4725_set_powerdown_mode },
};

#define MCP4725_EXT_INFO(part) {						\
	{ .name = "powerdown", .shared = IIO_SEPARATE,				\
	  .read = mcp4725_read_powerdown, .write = mcp4725_write_powerdown },	\
	IIO_ENUM("powerdown_mode", IIO_SEPARATE, &mcp472x_powerdown_mode_enum[part]), \
	IIO_ENUM_AVAILABLE("powerdown_mode", IIO_SHARED_BY_TYPE,		\
			   &mcp472x_powerdown_mode_enum[part]),			\
	{ .name = NULL },							\
}

static const struct iio_chan_spec_ext_info mcp4725_ext_info[] = MCP4725_EXT_INFO(mcp4725);
static const struct iio_chan_spec_ext_info mcp4726_ext_info[] = MCP4725_EXT_INFO(mcp4726);

#define MCP472X_CHANNEL(ext) {							\
	.type = IIO_VOLTAGE, .indexed = 1, .output = 1, .channel = 0,		\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
	.ext_info = (ext),							\
}

static const struct iio_chan_spec mcp472x_channel[] = {
	[mcp4725] = MCP472X_CHANNEL(mcp4725_ext_info),
	[mcp4726] = MCP472X_CHANNEL(mcp4726_ext_info),
};

static int mcp4725_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			    int *val, int *val2, long mask)
{
	struct mcp4725_state *st = iio_priv(indio_dev);

	(void)chan;
	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		*val = st->dac_value;
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		/* the kernel's regulator_get_voltage() of a dummy supply: EINVAL */
		if (!st->supply_mv)
			return -EINVAL;
		return iio_scale_log2(st->supply_mv, MCP4725_BITS, val, val2);
	}
	return -EINVAL;
}

/*
 * A raw write is a fast write with PD1:PD0 = 00, so it powers the chip up
 * while the powerdown file keeps saying 1: the kernel's behaviour, kept.
 */
static int mcp4725_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			     int val, int val2, long mask)
{
	struct mcp4725_state *st = iio_priv(indio_dev);
	int ret;

	(void)chan;
	(void)val2;
	if (mask != IIO_CHAN_INFO_RAW)
		return -EINVAL;
	if (val < 0 || val >= (1 << MCP4725_BITS))
		return -EINVAL;
	ret = mcp4725_fast_write(st, 0, (unsigned int)val);
	if (ret == 0)
		st->dac_value = (uint16_t)val;	/* K-85: only what the chip took */
	return ret;
}

static const struct iio_info mcp4725_info = {
	.read_raw = mcp4725_read_raw,
	.write_raw = mcp4725_write_raw,
	.attrs = mcp4725_attrs,
};

/*
 * The reference as the kernel picks it from its platform data: the vref
 * supply when there is one (MCP4726 only), buffered or not, else vdd.
 */
static int mcp4725_probe_ref(const struct iio_probe *p, int part, struct mcp4725_state *st,
			     char *err, size_t errlen)
{
	int vdd_mv, vref_mv, buffered = 0, ret;

	ret = iio_probe_prop_mv(p, "vdd_mv", &vdd_mv, err, errlen);
	if (!ret)
		ret = iio_probe_prop_mv(p, "vref_mv", &vref_mv, err, errlen);
	if (ret)
		return ret;
	ret = iio_probe_prop_int(p, "vref_buffered", &buffered);
	if ((ret < 0 && ret != -ENOENT) || buffered < 0 || buffered > 1)
		return iio_probe_err(p, err, errlen, -EINVAL, "vref_buffered must be 0 or 1");
	if (part == mcp4725 && vref_mv)
		return iio_probe_err(p, err, errlen, -EINVAL,
				     "external reference is unavailable on MCP4725");
	if (!vref_mv && buffered)
		return iio_probe_err(p, err, errlen, -EINVAL,
				     "buffering is unavailable on the internal reference");
	if (!vref_mv) {
		st->ref_mode = MCP472X_REF_VDD;
		st->supply_mv = vdd_mv;
	} else {
		st->ref_mode = buffered ? MCP472X_REF_VREF_BUFFERED : MCP472X_REF_VREF_UNBUFFERED;
		st->supply_mv = vref_mv;
	}
	return 0;
}

/*
 * The chip's state as the kernel reads it at probe: status (PD bits), the
 * DAC register and, on the MCP4726, the EEPROM's configuration byte, whose
 * VREF bits are rewritten when they differ from the board's reference.
 */
static int mcp4725_probe_read(const struct iio_probe *p, int part, struct mcp4725_state *st,
			      char *err, size_t errlen)
{
	uint8_t in[4];
	unsigned int pd, ref;
	int ret;

	ret = bus_i2c_master_recv(st->client, in, part == mcp4725 ? 3 : 4);
	if (ret < 0)
		return iio_probe_err(p, err, errlen, ret, "failed to read DAC value");
	pd = FIELD_GET(MCP4725_STATUS_PD, in[0]);
	st->powerdown = pd > 0;
	st->powerdown_mode = pd ? pd - 1 : 2;	/* largest resistor to ground */
	st->dac_value = (uint16_t)((in[1] << 4) | (in[2] >> 4));
	if (part != mcp4726)
		return 0;
	ref = FIELD_GET(MCP4726_NV_REF, in[3]);
	if (ref == st->ref_mode)
		return 0;
	/*
	 * The kernel's mcp4726_set_cfg() ORs the powerdown flag (not its mode)
	 * in at bit 1: a powered-down chip goes to the 1 kohm mode. Kept.
	 */
	ret = mcp4725_cmd_write(st, (uint8_t)(MCP4725_CMD_WRITE_DAC |
					      (st->ref_mode << MCP4725_REF_SHIFT) |
					      (st->powerdown ? 1 << MCP4725_PD_SHIFT_CMD : 0)));
	if (ret < 0)
		return iio_probe_err(p, err, errlen, ret, "setting the voltage reference failed");
	return 0;
}

static int mcp4725_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			 size_t errlen)
{
	struct mcp4725_state *st;
	struct iio_dev *indio_dev;
	int part, ret;

	part = iio_probe_part(p, MCP4725_NPARTS, "MCP4725/6", err, errlen);
	if (part < 0)
		return part;
	indio_dev = iio_device_alloc(sizeof(*st));
	if (!indio_dev)
		return -ENOMEM;
	st = iio_priv(indio_dev);
	st->client = p->i2c;
	ret = mcp4725_probe_ref(p, part, st, err, errlen);
	if (!ret)
		ret = mcp4725_probe_read(p, part, st, err, errlen);
	if (ret) {
		iio_device_put(indio_dev);
		return ret;
	}
	iio_device_setup(indio_dev, p->id->name, &mcp472x_channel[part], 1, &mcp4725_info);
	indio_dev->label = p->label;
	*out = indio_dev;
	return 0;
}

static const struct iio_device_id mcp4725_id[] = {
	{ "mcp4725", mcp4725 }, { "mcp4726", mcp4726 }, { NULL, 0 }
};

/* 1100 A2 A1 A0: the MCP4725's A2 A1 and the MCP4726's A2..A0 are factory options */
static const unsigned short mcp4725_addresses[] = {
	0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, IIO_I2C_ADDR_END
};

static const struct iio_driver mcp4725_driver = {
	.name = "mcp4725",
	.bus = IIO_DRIVER_BUS_I2C,
	.id_table = mcp4725_id,
	.probe = mcp4725_probe,
	.address_list = mcp4725_addresses,
};
IIO_DRIVER_REGISTER(mcp4725_driver);
