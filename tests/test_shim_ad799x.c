/*
 * test_shim_ad799x.c - the ad799x driver through the real i2c-dev backend
 * (bus_i2cdev.c) on the test shim's fake /dev/i2c-1, against the same chip
 * model the emulated tests use.
 *
 * What must hold: every attribute of every part reads the same text through
 * i2c-dev as through the emulated backend; the driver's traffic is SMBus
 * (one I2C_SMBUS ioctl a conversion, the I2C_SLAVE address set once); faults
 * come back as the same -errno and the next read works; probe names bus and
 * address when the chip is missing or is not what it should be; no fd is
 * left open. Tests are tables of named rows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "chiptest.h"
#include "shim/shim.h"

#define SHIM_NODE	SHIM_DIR "/i2c-1"
#define SHIM_ADDR	0x22
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

struct shimdev {
	struct bus *bus;
	struct iio_registry *reg;
	struct iio_dev *dev;
	char err[CHIPTEST_ERR_MAX];
};

static void shimdev_teardown(struct shimdev *sd)
{
	iio_registry_destroy(sd->reg);
	bus_put(sd->bus);
	sd->reg = NULL;
	sd->bus = NULL;
	shim_reset();
}

/* The model @part on the node, the driver @driver probed at the same address. */
static int shimdev_setup(struct shimdev *sd, const char *part, const char *driver,
			 const struct emu_input *in, int nin, const struct chiptest_props *props)
{
	int vref = props && props->has_vref && props->vref_mv > 0 ? props->vref_mv : 0;
	struct emu_chip *chip;
	int ret;

	memset(sd, 0, sizeof(*sd));
	shim_reset();
	ret = chiptest_model_create(part, in, nin, vref, &chip, sd->err, sizeof(sd->err));
	if (ret < 0)
		return ret;
	ret = shim_i2c_add(SHIM_NODE, SHIM_ADDR, chip);
	if (ret < 0)
		return ret;
	ret = bus_create(bus_backend_find("i2c-dev"), BUS_I2C, 1, SHIM_NODE, &sd->bus);
	if (ret < 0)
		goto err_teardown;
	sd->reg = iio_registry_create();
	if (!sd->reg) {
		ret = -ENOMEM;
		goto err_teardown;
	}
	ret = chiptest_probe(sd->bus, sd->reg, driver, SHIM_ADDR, props, &sd->dev, sd->err,
			     sizeof(sd->err));
	if (ret < 0)
		goto err_teardown;
	return 0;

err_teardown:
	shimdev_teardown(sd);
	return ret;
}

/* ---- same text through both backends, every part ---- */

struct same_row {
	const char *part;
	int ninputs;
	bool has_vref;
	int vref_mv;
};

static const struct same_row same_rows[] = {
	{ "ad7991", 4, false, 0 }, { "ad7991", 4, true, 2048 },
	{ "ad7995", 4, false, 0 }, { "ad7999", 4, true, 3000 },
	{ "ad7992", 2, false, 0 }, { "ad7993", 4, true, 5000 },
	{ "ad7994", 4, false, 0 }, { "ad7997", 8, true, 4096 },
	{ "ad7998", 8, false, 0 }, { "ad7998", 8, true, 2500 },
};

static void test_same_as_emulated(void)
{
	size_t r;
	int i;

	for (r = 0; r < NROWS(same_rows); r++) {
		const struct same_row *row = &same_rows[r];
		struct chiptest_props props = { row->has_vref, row->vref_mv };
		struct emu_input in[8];
		char keys[8][24];
		struct shimdev sd;
		struct chiptest ct;
		unsigned long smbus;
		int compared = 0;

		for (i = 0; i < row->ninputs; i++) {
			snprintf(keys[i], sizeof(keys[i]), "voltage%d", i);
			in[i] = (struct emu_input){ .key = keys[i],
				.sig = { .kind = EMU_SIGNAL_CONST,
					 .value = i == row->ninputs - 1 ? -5 : 617.7 * (i + 1) } };
		}
		if (chiptest_setup(&ct, row->part, SHIM_ADDR, in, row->ninputs, &props)) {
			TEST_ROW_ASSERT(0, row->part);
			continue;
		}
		if (shimdev_setup(&sd, row->part, row->part, in, row->ninputs, &props)) {
			TEST_ROW_ASSERT(0, sd.err);
			chiptest_teardown(&ct);
			continue;
		}
		smbus = shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS);
		CU_ASSERT_EQUAL(iio_device_attr_count(sd.dev), iio_device_attr_count(ct.dev));
		for (i = 0; i < iio_device_attr_count(ct.dev); i++) {
			const struct iio_attr *a = iio_device_attr_at(ct.dev, i);
			char via_emu[64], via_dev[64];
			ssize_t n1 = chiptest_read(ct.dev, a->name, via_emu, sizeof(via_emu));
			ssize_t n2 = chiptest_read(sd.dev, a->name, via_dev, sizeof(via_dev));

			TEST_ROW_ASSERT(n1 > 0 && n1 == n2 && strcmp(via_emu, via_dev) == 0,
					a->name);
			compared++;
		}
		/* inputs, scale, name, timestamp clock */
		TEST_ROW_ASSERT(compared == row->ninputs + 3, row->part);
		/* one I2C_SMBUS ioctl a conversion, the address selected once, no raw I2C */
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) - smbus ==
				(unsigned long)row->ninputs, row->part);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SLAVE) +
				shim_ioctl_count(SHIM_IOCTL_I2C_SLAVE_FORCE) == 1, row->part);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) == 0, row->part);
		shimdev_teardown(&sd);
		chiptest_teardown(&ct);
	}
}

/* ---- faults ---- */

struct fault_row {
	const char *name;
	const char *part;
	enum emu_fault_mode mode;
	int expect;
};

static const struct fault_row fault_rows[] = {
	{ "ad7998 NACK", "ad7998", EMU_FAULT_NACK, -ENXIO },
	{ "ad7998 EIO", "ad7998", EMU_FAULT_EIO, -EIO },
	{ "ad7998 HANG", "ad7998", EMU_FAULT_HANG, -ETIMEDOUT },
	{ "ad7991 NACK", "ad7991", EMU_FAULT_NACK, -ENXIO },
	{ "ad7993 EIO", "ad7993", EMU_FAULT_EIO, -EIO },
	{ "ad7999 HANG", "ad7999", EMU_FAULT_HANG, -ETIMEDOUT },
};

static void test_faults(void)
{
	size_t r;

	for (r = 0; r < NROWS(fault_rows); r++) {
		const struct fault_row *row = &fault_rows[r];
		struct emu_fault fault = {
			.mode = row->mode, .after = 0, .count = 1, .hang_ms = 30,
		};
		struct chiptest_props props = { true, 4096 };
		struct emu_input in = CHIPTEST_CONST("voltage2", 2048);
		struct shimdev sd;
		char buf[64];
		int val = -1;

		if (shimdev_setup(&sd, row->part, row->part, &in, 1, &props)) {
			TEST_ROW_ASSERT(0, row->name);
			continue;
		}
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, SHIM_ADDR, &fault) == 0, row->name);
		TEST_ROW_ASSERT(chiptest_read(sd.dev, "in_voltage2_raw", buf, sizeof(buf)) ==
				row->expect, row->name);
		TEST_ROW_ASSERT(chiptest_read_int(sd.dev, "in_voltage2_raw", &val) == 0, row->name);
		/* 2048 mV on a 4096 mV reference: half scale at 12, 10 or 8 bits */
		TEST_ROW_ASSERT(val == (strcmp(row->part, "ad7993") == 0 ? 512 :
					strcmp(row->part, "ad7999") == 0 ? 128 : 2048), row->name);
		shimdev_teardown(&sd);
	}
}

/* ---- probe ---- */

struct probe_row {
	const char *name;
	const char *driver;
	const char *chip;		/* model at the address; NULL: at another address */
	enum emu_fault_mode fault;
	int expect;
	const char *message;
};

static const struct probe_row probe_rows[] = {
	{ "ad7998, no chip at the address", "ad7998", NULL, EMU_FAULT_NONE, -ENXIO,
	  "ad7998 at 1-0022: no answer (ENXIO)" },
	{ "ad7991, no chip at the address", "ad7991", NULL, EMU_FAULT_NONE, -ENXIO,
	  "ad7991 at 1-0022: no answer (ENXIO)" },
	{ "ad7992, bus error", "ad7992", "ad7992", EMU_FAULT_EIO, -EIO,
	  "ad7992 at 1-0022: no answer (EIO)" },
	{ "ad7997 driver, max1363 chip", "ad7997", "max1363", EMU_FAULT_NONE, -EIO,
	  "ad7997 at 1-0022: configuration reads back 0xf000, wrote 0x0000 (EIO)" },
	{ "ad7994, present", "ad7994", "ad7994", EMU_FAULT_NONE, 0, "" },
};

static void test_probe(void)
{
	size_t r;

	for (r = 0; r < NROWS(probe_rows); r++) {
		const struct probe_row *row = &probe_rows[r];
		struct emu_fault fault = { .mode = row->fault };
		struct iio_registry *reg = iio_registry_create();
		struct emu_chip *chip = NULL;
		struct iio_dev *dev = NULL;
		char err[CHIPTEST_ERR_MAX] = "";
		struct bus *bus = NULL;
		int ret;

		shim_reset();
		CU_ASSERT_FATAL(reg != NULL);
		CU_ASSERT_FATAL(chiptest_model_create(row->chip ? row->chip : "ad7998", NULL, 0, 0,
						      &chip, err, sizeof(err)) == 0);
		CU_ASSERT_FATAL(shim_i2c_add(SHIM_NODE, row->chip ? SHIM_ADDR : 0x23, chip) == 0);
		if (row->fault != EMU_FAULT_NONE)
			TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, SHIM_ADDR, &fault) == 0,
					row->name);
		CU_ASSERT_FATAL(bus_create(bus_backend_find("i2c-dev"), BUS_I2C, 1, SHIM_NODE,
					   &bus) == 0);
		ret = chiptest_probe(bus, reg, row->driver, SHIM_ADDR, NULL, &dev, err,
				     sizeof(err));
		TEST_ROW_ASSERT(ret == row->expect, row->name);
		TEST_ROW_ASSERT(strcmp(err, row->message) == 0, row->name);
		if (strcmp(err, row->message) != 0)
			fprintf(stderr, "%s: message \"%s\"\n", row->name, err);
		TEST_ROW_ASSERT(iio_registry_count(reg) == (ret == 0), row->name);
		iio_registry_destroy(reg);
		bus_put(bus);
		TEST_ROW_ASSERT(shim_open_fds() == 0, row->name);
		shim_reset();
	}
}

static CU_TestInfo shim_ad799x_tests[] = {
	{ "same text through i2c-dev as emulated, every part", test_same_as_emulated },
	{ "faults through i2c-dev: error, then recovery", test_faults },
	{ "probe through i2c-dev", test_probe },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return test_run("shim_ad799x", NULL, NULL, shim_ad799x_tests);
}
