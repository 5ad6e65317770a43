/*
 * test_shim_max1363.c - the max1363 driver through the real i2c-dev backend
 * (bus_i2cdev.c) on the test shim's fake /dev/i2c-0, against the same chip
 * model the emulated tests use.
 *
 * What must hold: every attribute reads the same text through i2c-dev as
 * through the emulated backend; the driver's traffic is plain I2C
 * (I2C_RDWR ioctls, no SMBus) with a mode switch only when needed; faults
 * come back as the same -errno and the next read works; probe without a
 * chip names bus and address; consumers on the stargate2 map get mV; the
 * bus leaves no fd open. Tests are tables of named rows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "chiptest.h"
#include "iio_consumer.h"
#include "shim/shim.h"

#define SHIM_NODE	SHIM_DIR "/i2c-0"
#define SHIM_ADDR	0x35
#define NROWS(a)	(sizeof(a) / sizeof((a)[0]))

/* The device through i2c-dev: a shim node with the model, the bus, the registered driver. */
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

/* @part: the model put on the node (NULL: none); the driver probed is always @driver. */
static int shimdev_setup(struct shimdev *sd, const char *part, const char *driver,
			 const struct emu_input *in, int nin, const struct chiptest_props *props)
{
	int vref = props && props->has_vref && props->vref_mv > 0 ? props->vref_mv : 0;
	struct emu_chip *chip;
	int ret;

	memset(sd, 0, sizeof(*sd));
	shim_reset();
	if (part) {
		ret = chiptest_model_create(part, in, nin, vref, &chip, sd->err, sizeof(sd->err));
		if (ret < 0)
			return ret;
		ret = shim_i2c_add(SHIM_NODE, SHIM_ADDR, chip);
	} else {
		/* an adapter with nothing at our address */
		ret = chiptest_model_create("max1363", NULL, 0, 0, &chip, sd->err, sizeof(sd->err));
		if (ret == 0)
			ret = shim_i2c_add(SHIM_NODE, SHIM_ADDR + 1, chip);
	}
	if (ret < 0)
		return ret;
	ret = bus_create(bus_backend_find("i2c-dev"), BUS_I2C, 0, SHIM_NODE, &sd->bus);
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

/* ---- same text through both backends ---- */

struct same_row {
	const char *part;
	int ninputs;
	bool has_vref;
	int vref_mv;
};

static const struct same_row same_rows[] = {
	{ "max1363", 4, false, 0 },
	{ "max1238", 12, false, 0 },
	{ "max1238", 12, true, 2500 },
	{ "max1036", 4, false, 0 },
	{ "max11614", 8, false, 0 },
	{ "max11647", 2, true, 3000 },
};

static void test_same_as_emulated(void)
{
	size_t r;
	int i;

	for (r = 0; r < NROWS(same_rows); r++) {
		const struct same_row *row = &same_rows[r];
		struct chiptest_props props = { row->has_vref, row->vref_mv };
		struct emu_input in[12];
		char keys[12][24];
		struct shimdev sd;
		struct chiptest ct;
		int compared = 0;

		/* spread over the range, some pairs negative, one input past full scale */
		for (i = 0; i < row->ninputs; i++) {
			snprintf(keys[i], sizeof(keys[i]), "AIN%d", i);
			in[i] = (struct emu_input){ .key = keys[i],
				.sig = { .kind = EMU_SIGNAL_CONST,
					 .value = i == row->ninputs - 1 ? 9999 :
						  333.3 * ((i * 7) % 12) } };
		}
		if (chiptest_setup(&ct, row->part, SHIM_ADDR, in, row->ninputs, &props)) {
			TEST_ROW_ASSERT(0, row->part);
			continue;
		}
		if (shimdev_setup(&sd, row->part, row->part, in, row->ninputs, &props)) {
			TEST_ROW_ASSERT(0, row->part);
			chiptest_teardown(&ct);
			continue;
		}
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
		/* singles, both pair directions, two scales, name, timestamp clock */
		TEST_ROW_ASSERT(compared == 2 * row->ninputs + 4, row->part);
		/* all of it was plain I2C: the driver never asked for SMBus */
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) > 0, row->part);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) == 0, row->part);
		shimdev_teardown(&sd);
		chiptest_teardown(&ct);
	}
}

/* ---- mode switches, counted in ioctls ---- */

struct mode_row {
	const char *attr;
	unsigned long rdwr;	/* 2: [setup, config] then the read; 1: the read */
	int value;
};

/* max1238, 1 mV a code: AIN0 1000, AIN1 400 */
static const struct mode_row mode_rows[] = {
	{ "in_voltage0_raw", 2, 1000 },
	{ "in_voltage0_raw", 1, 1000 },
	{ "in_voltage1_raw", 2, 400 },
	{ "in_voltage0-voltage1_raw", 2, 600 },
	{ "in_voltage0-voltage1_raw", 1, 600 },
	{ "in_voltage1-voltage0_raw", 2, 0 },
	{ "in_voltage0_raw", 2, 1000 },
};

static void test_mode_switch(void)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 400),
	};
	struct shimdev sd;
	unsigned long before;
	char buf[64];
	size_t r;
	int val;

	CU_ASSERT_FATAL(shimdev_setup(&sd, "max1238", "max1238", in, 2, NULL) == 0);
	/* probe: one I2C_RDWR with [setup, config] */
	CU_ASSERT_EQUAL(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR), 1);
	for (r = 0; r < NROWS(mode_rows); r++) {
		before = shim_ioctl_count(SHIM_IOCTL_I2C_RDWR);
		val = -1;
		TEST_ROW_ASSERT(chiptest_read_int(sd.dev, mode_rows[r].attr, &val) == 0 &&
				val == mode_rows[r].value, mode_rows[r].attr);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) - before == mode_rows[r].rdwr,
				mode_rows[r].attr);
	}
	before = shim_ioctl_count(SHIM_IOCTL_I2C_RDWR);
	CU_ASSERT(chiptest_read(sd.dev, "in_voltage_scale", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "1.000000000\n");
	CU_ASSERT_EQUAL(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR), before);
	shimdev_teardown(&sd);
}

/* ---- faults ---- */

struct fault_row {
	const char *name;
	enum emu_fault_mode mode;
	bool primed;
	int expect;
	unsigned long recover;	/* I2C_RDWR ioctls of the read after the fault */
};

static const struct fault_row fault_rows[] = {
	{ "NACK on the mode switch", EMU_FAULT_NACK, false, -ENXIO, 2 },
	{ "NACK on the result read", EMU_FAULT_NACK, true, -ENXIO, 1 },
	{ "EIO on the mode switch", EMU_FAULT_EIO, false, -EIO, 2 },
	{ "EIO on the result read", EMU_FAULT_EIO, true, -EIO, 1 },
	{ "HANG on the mode switch", EMU_FAULT_HANG, false, -ETIMEDOUT, 2 },
	{ "HANG on the result read", EMU_FAULT_HANG, true, -ETIMEDOUT, 1 },
};

static void test_faults(void)
{
	size_t r;

	for (r = 0; r < NROWS(fault_rows); r++) {
		const struct fault_row *row = &fault_rows[r];
		struct emu_fault fault = {
			.mode = row->mode, .after = 0, .count = 1, .hang_ms = 30,
		};
		struct emu_input in = CHIPTEST_CONST("AIN0", 1500);
		struct shimdev sd;
		unsigned long before;
		char buf[64];
		int val = -1;

		if (shimdev_setup(&sd, "max1238", "max1238", &in, 1, NULL)) {
			TEST_ROW_ASSERT(0, row->name);
			continue;
		}
		if (row->primed)
			TEST_ROW_ASSERT(chiptest_read_int(sd.dev, "in_voltage0_raw", &val) == 0,
					row->name);
		TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, SHIM_ADDR, &fault) == 0, row->name);
		TEST_ROW_ASSERT(chiptest_read(sd.dev, "in_voltage0_raw", buf, sizeof(buf)) ==
				row->expect, row->name);
		before = shim_ioctl_count(SHIM_IOCTL_I2C_RDWR);
		val = -1;
		TEST_ROW_ASSERT(chiptest_read_int(sd.dev, "in_voltage0_raw", &val) == 0 &&
				val == 1500, row->name);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) - before == row->recover,
				row->name);
		shimdev_teardown(&sd);
	}
}

/* ---- probe ---- */

struct probe_row {
	const char *name;
	const char *part;	/* model on the node at the address; NULL: none */
	enum emu_fault_mode fault;
	int expect;
	const char *message;
};

static const struct probe_row probe_rows[] = {
	{ "no chip at the address", NULL, EMU_FAULT_NONE, -ENXIO,
	  "max1238 at 0-0035: no answer (ENXIO)" },
	{ "chip that NACKs", "max1238", EMU_FAULT_NACK, -ENXIO,
	  "max1238 at 0-0035: no answer (ENXIO)" },
	{ "bus error", "max1238", EMU_FAULT_EIO, -EIO, "max1238 at 0-0035: no answer (EIO)" },
	{ "chip present", "max1238", EMU_FAULT_NONE, 0, "" },
};

static void test_probe(void)
{
	size_t r;

	for (r = 0; r < NROWS(probe_rows); r++) {
		const struct probe_row *row = &probe_rows[r];
		struct emu_fault fault = { .mode = row->fault };
		struct emu_chip *chip = NULL;
		struct iio_registry *reg = iio_registry_create();
		struct iio_dev *dev = NULL;
		char err[CHIPTEST_ERR_MAX] = "";
		struct bus *bus = NULL;
		int ret;

		shim_reset();
		CU_ASSERT_FATAL(reg != NULL);
		CU_ASSERT_FATAL(chiptest_model_create("max1238", NULL, 0, 0, &chip, err,
						      sizeof(err)) == 0);
		CU_ASSERT_FATAL(shim_i2c_add(SHIM_NODE, row->part ? SHIM_ADDR : 0x36, chip) == 0);
		if (row->fault != EMU_FAULT_NONE)
			TEST_ROW_ASSERT(shim_set_fault(SHIM_NODE, SHIM_ADDR, &fault) == 0,
					row->name);
		CU_ASSERT_FATAL(bus_create(bus_backend_find("i2c-dev"), BUS_I2C, 0, SHIM_NODE,
					   &bus) == 0);
		ret = chiptest_probe(bus, reg, "max1238", SHIM_ADDR, NULL, &dev, err, sizeof(err));
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

/* ---- consumers ---- */

static void test_consumer_stargate2(void)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("AIN1", 1200), CHIPTEST_CONST("AIN2", 800),
	};
	static const struct iio_map maps[] = {
		{ "0-0035", "AIN1", "iio_hwmon.0", "testchan1" },
		{ "0-0035", "AIN2", "iio_hwmon.0", "testchan2" },
	};
	struct iio_channel *c1 = NULL, *c2 = NULL;
	struct shimdev sd;
	int val = -1;

	CU_ASSERT_FATAL(shimdev_setup(&sd, "max1238", "max1238", in, 2, NULL) == 0);
	CU_ASSERT_STRING_EQUAL(sd.dev->hwid, "0-0035");
	CU_ASSERT_TRUE(iio_device_may_block(sd.dev));
	CU_ASSERT_EQUAL_FATAL(iio_map_array_register(sd.reg, sd.dev, maps, 2), 0);
	CU_ASSERT_EQUAL_FATAL(iio_channel_get(sd.reg, "iio_hwmon.0", "testchan1", &c1), 0);
	CU_ASSERT_EQUAL_FATAL(iio_channel_get(sd.reg, "iio_hwmon.0", "testchan2", &c2), 0);
	CU_ASSERT(iio_read_channel_processed(c1, &val) >= 0);
	CU_ASSERT_EQUAL(val, 1200);
	CU_ASSERT(iio_read_channel_processed(c2, &val) >= 0);
	CU_ASSERT_EQUAL(val, 800);
	iio_channel_release(c1);
	iio_channel_release(c2);
	shimdev_teardown(&sd);
	CU_ASSERT_EQUAL(shim_open_fds(), 0);
}

static CU_TestInfo shim_max1363_tests[] = {
	{ "same text through i2c-dev as emulated", test_same_as_emulated },
	{ "mode switch only when needed (I2C_RDWR count)", test_mode_switch },
	{ "faults through i2c-dev: error, then recovery", test_faults },
	{ "probe through i2c-dev", test_probe },
	{ "consumer API on the stargate2 map", test_consumer_stargate2 },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return test_run("shim_max1363", NULL, NULL, shim_max1363_tests);
}
