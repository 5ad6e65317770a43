/*
 * test_shim_dac.c - the DAC drivers through the real backends on the test
 * shim's fake nodes: mcp4725/mcp4726, max520 and ad5622 through i2c-dev
 * (I2C_RDWR ioctls: the kernel drivers use i2c_master_send/recv, never
 * SMBus), ad5662 and ad5300 through spidev (SPI_IOC_MESSAGE), against the
 * same chip models as the emulated suites.
 *
 * What must hold: every attribute reads the same text (or errno) through
 * the real backend as through the emulated bus; the same writes put the
 * same code on the model's pin; the SPI mode the board asks for reaches the
 * node; mcp4725's store_eeprom polls RDY over real time; faults come back as
 * the same -errno; no fd stays open.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dactest.h"
#include "shim/shimsensor.h"

#define I2C_NODE	SHIM_DIR "/i2c-0"
#define SPI_NODE	SHIM_DIR "/spidev0.0"
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

struct dac_row {
	const char *part;
	enum bus_type type;
	uint16_t addr;
	struct sensortest_prop props[4];
	struct emu_input in[2];
	int nin;
	const char *raw;	/* attribute written */
	const char *value;
	unsigned int code;	/* what the pin then holds */
	int channel;
};

static const struct dac_row rows[] = {
	{ "mcp4725", BUS_I2C, 0x60, { { "vdd_mv", 3300 }, { NULL, 0 } },
	  { SENSORTEST_CONST("VDD", 3300) }, 1, "out_voltage0_raw", "1234", 1234, 0 },
	{ "mcp4726", BUS_I2C, 0x61, { { "vdd_mv", 3300 }, { "vref_mv", 2048 }, { NULL, 0 } },
	  { SENSORTEST_CONST("VREF", 2048) }, 1, "out_voltage0_raw", "4095", 4095, 0 },
	{ "max520", BUS_I2C, 0x28, { { "vref_mv", 4096 }, { NULL, 0 } },
	  { SENSORTEST_CONST("REF2", 4096) }, 1, "out_voltage2_raw", "200", 200, 2 },
	{ "ad5622", BUS_I2C, 0x0c, { { "vref_mv", 3000 }, { NULL, 0 } },
	  { SENSORTEST_CONST("VREF", 3000) }, 1, "out_voltage0_raw", "2049", 2049, 0 },
	{ "ad5662", BUS_SPI, 0, { { "vref_mv", 5000 }, { "spi-cpha", 1 }, { NULL, 0 } },
	  { SENSORTEST_CONST("VREF", 5000) }, 1, "out_voltage0_raw", "65535", 65535, 0 },
	{ "ad5300", BUS_SPI, 0, { { "vref_mv", 3300 }, { "spi-cpol", 1 }, { NULL, 0 } },
	  { SENSORTEST_CONST("VREF", 3300) }, 1, "out_voltage0_raw", "128", 128, 0 },
};

/* The row's chip on a fresh shim node, its driver through the real backend. */
static int shim_dac_setup(struct sensortest *st, const struct dac_row *r)
{
	bool spi = r->type == BUS_SPI;
	struct emu_chip *chip;
	struct bus *bus;
	int ret;

	memset(st, 0, sizeof(*st));
	shim_reset();
	ret = sensortest_model_create(r->part, r->in, r->nin, &chip, st->err, sizeof(st->err));
	if (!ret)
		ret = spi ? shim_spi_add(SPI_NODE, chip) : shim_i2c_add(I2C_NODE, r->addr, chip);
	if (!ret)
		ret = bus_create(bus_backend_find(spi ? "spidev" : "i2c-dev"), r->type, 0,
				 spi ? SPI_NODE : I2C_NODE, &bus);
	if (ret)
		return ret;
	return sensortest_setup_on(st, bus, r->part, r->addr, r->props);
}

/* The shim's model pin. */
static struct emu_dac_state shim_pin(const struct dac_row *r)
{
	struct emu_chip *chip = shim_chip(r->type == BUS_SPI ? SPI_NODE : I2C_NODE, r->addr);
	struct emu_dac_state s = { ~0u, ~0u, -1.0 };

	if (chip && chip->ops->dac_output)
		chip->ops->dac_output(chip, r->channel, &s);
	return s;
}

static void test_same_as_emulated(void)
{
	struct sensortest emu, dev;
	struct emu_dac_state a;
	uint32_t mode = 0;
	size_t i;

	for (i = 0; i < NROWS(rows); i++) {
		const struct dac_row *r = &rows[i];

		if (!dac_setup(&emu, r->type, r->part, r->addr, r->in, r->nin, r->props))
			continue;
		if (shim_dac_setup(&dev, r)) {
			TEST_ROW_ASSERT_GOT(0, r->part, "%s", dev.err);
			sensortest_teardown(&emu);
			continue;
		}
		TEST_ROW_ASSERT(iio_device_attr_count(dev.dev) == iio_device_attr_count(emu.dev),
				r->part);
		shimsensor_compare(emu.dev, dev.dev);
		TEST_ROW_ASSERT(sensortest_write(emu.dev, r->raw, r->value) == 0, r->part);
		TEST_ROW_ASSERT(sensortest_write(dev.dev, r->raw, r->value) == 0, r->part);
		a = dac_pin(&emu, r->channel);
		TEST_ROW_ASSERT(a.code == r->code && shim_pin(r).code == r->code &&
				shim_pin(r).mv == a.mv && a.mv > 0.0, r->part);
		shimsensor_compare(emu.dev, dev.dev);
		if (r->type == BUS_SPI) {
			TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_SPI_MESSAGE) == 1, r->part);
			shim_spi_settings(SPI_NODE, &mode, NULL, NULL);
			/* spi-cpha is SPI_CPHA (mode 1), spi-cpol SPI_CPOL (mode 2) */
			TEST_ROW_ASSERT(mode == (strcmp(r->part, "ad5662") ? 2u : 1u), r->part);
		} else {
			TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) > 0 &&
					shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) == 0, r->part);
		}
		shimsensor_teardown(&dev);
		sensortest_teardown(&emu);
		TEST_ROW_ASSERT(shim_open_fds() == 0, r->part);
	}
}
TEST_CASE(test_same_as_emulated, "same text and the same pin through i2c-dev/spidev as emulated");

/* store_eeprom over real time, and a fault's errno, through i2c-dev. */
static void test_eeprom_and_faults(void)
{
	static const struct emu_fault nack = { EMU_FAULT_NACK, 0, 0, 0 };
	static const struct emu_fault none = { EMU_FAULT_NONE, 0, 0, 0 };
	struct bus_i2c_client *c;
	struct sensortest st;
	uint8_t b[5];

	if (shim_dac_setup(&st, &rows[0])) {
		TEST_ROW_ASSERT_GOT(0, "mcp4725", "%s", st.err);
		return;
	}
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "291"), 0);	/* 0x123 */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "store_eeprom", "1"), 0);
	CU_ASSERT_FATAL(bus_i2c_client_create(st.bus, 0x60, &c) == 0);
	CU_ASSERT(bus_i2c_master_recv(c, b, 5) == 5 && (b[0] & 0x80) && b[3] == 0x01 &&
		  b[4] == 0x23);
	bus_i2c_client_destroy(c);
	CU_ASSERT_EQUAL(shim_set_fault(I2C_NODE, 0x60, &nack), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "5"), -ENXIO);
	CU_ASSERT_EQUAL(shim_set_fault(I2C_NODE, 0x60, &none), 0);
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_raw", "291\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "5"), 0);
	CU_ASSERT_EQUAL(shim_pin(&rows[0]).code, 5u);
	shimsensor_teardown(&st);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}
TEST_CASE(test_eeprom_and_faults, "mcp4725 through i2c-dev: store_eeprom, a NACK, recovery");

TEST_MAIN("shim_dac", NULL, NULL)
