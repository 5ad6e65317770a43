/*
 * test_board.c - drivers/board.c: board files in, registries out, and every
 * error class with its exact message.
 *
 * A test chip (an I2C driver and its register model, and an SPI twin)
 * lives in this file and counts its live devices and chip models, so every
 * failed load can be checked to leave nothing behind: no device (remove()
 * ran for each probed one), no chip model (its bus was closed), no leak
 * (ASan). The shipped boards (stargate2.json, demo.json) load with the
 * real max1238 driver and give the values their emulate blocks promise on
 * a frozen clock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "board.h"
#include "bus/bus.h"
#include "emu/emu.h"
#include "iio.h"
#include "iio_consumer.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "testutil.h"

/* ---- the test chip: register 0 reads 0x5a, register 1 + n reads input CHn (0..255) ---- */

#define TCHIP_ID		0x5a
#define TCHIP_NINPUTS		2

/* Live objects, so a test can see that an unwinding load left none (test instrumentation). */
static int tchip_live_devices;
static int tchip_live_chips;

struct tchip_model {
	struct emu_chip chip;	/* first */
	uint8_t ptr;
	struct emu_signal in[TCHIP_NINPUTS];
};

static uint8_t tchip_model_reg(struct tchip_model *m, uint8_t reg)
{
	double v;

	if (reg == 0)
		return TCHIP_ID;
	if (reg > TCHIP_NINPUTS)
		return 0xff;
	v = emu_signal_sample(&m->in[reg - 1], emu_chip_now(&m->chip));
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static int tchip_model_i2c(struct emu_chip *chip, struct bus_i2c_msg *msgs, int n)
{
	struct tchip_model *m = (struct tchip_model *)chip;
	int i, j;

	for (i = 0; i < n; i++) {
		if (!(msgs[i].flags & BUS_I2C_M_RD)) {
			if (msgs[i].len)
				m->ptr = msgs[i].buf[0];
			continue;
		}
		for (j = 0; j < msgs[i].len; j++)
			msgs[i].buf[j] = tchip_model_reg(m, m->ptr);
	}
	return n;
}

/* SPI twin: tx [0x80 | reg, 0], rx [x, value] */
static int tchip_model_spi(struct emu_chip *chip, const struct bus_spi_transfer *xfers, int n)
{
	struct tchip_model *m = (struct tchip_model *)chip;
	int i;

	for (i = 0; i < n; i++) {
		if (xfers[i].tx_buf && xfers[i].len)
			m->ptr = xfers[i].tx_buf[0] & 0x7f;
		if (xfers[i].rx_buf && xfers[i].len >= 2)
			xfers[i].rx_buf[1] = tchip_model_reg(m, m->ptr);
	}
	return 0;
}

static void tchip_model_destroy(struct emu_chip *chip)
{
	struct tchip_model *m = (struct tchip_model *)chip;
	int i;

	for (i = 0; i < TCHIP_NINPUTS; i++)
		emu_signal_fini(&m->in[i]);
	free(m);
	tchip_live_chips--;
}

static const struct emu_chip_ops tchip_model_ops = {
	.i2c_transfer = tchip_model_i2c,
	.spi_transfer = tchip_model_spi,
	.destroy = tchip_model_destroy,
};

static int tchip_model_create(const struct emu_params *p, struct emu_chip **out, char *err,
			      size_t errlen)
{
	static const char *const keys[TCHIP_NINPUTS] = { "CH0", "CH1" };
	struct tchip_model *m;
	int i, k;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->chip.ops = &tchip_model_ops;
	m->chip.name = p->name;
	for (i = 0; i < p->ninputs; i++) {
		for (k = 0; k < TCHIP_NINPUTS; k++)
			if (strcmp(p->inputs[i].key, keys[k]) == 0)
				break;
		if (k == TCHIP_NINPUTS) {
			snprintf(err, errlen, "%s: no input '%s' (inputs: CH0, CH1)", p->name,
				 p->inputs[i].key);
			for (k = 0; k < TCHIP_NINPUTS; k++)
				emu_signal_fini(&m->in[k]);
			free(m);
			return -EINVAL;
		}
		emu_signal_copy(&m->in[k], &p->inputs[i].sig);
	}
	tchip_live_chips++;
	*out = &m->chip;
	return 0;
}

static const struct iio_device_id tchip_model_id[] = {
	{ "tchip", 0 }, { "tchip_dup", 1 }, { "tchip_spi", 2 }, { NULL, 0 },
};

static const struct emu_model tchip_model = {
	.name = "tchip",
	.id_table = tchip_model_id,
	.create = tchip_model_create,
};
EMU_MODEL_REGISTER(tchip_model);

struct tchip_state {
	struct bus_i2c_client *i2c;	/* borrowed: the device owns it */
	struct bus_spi_device *spi;
	int gain;
};

static const struct iio_chan_spec tchip_chans[] = {
	{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 0, .datasheet_name = "CH0",
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 1, .datasheet_name = "CH1",
	  .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
};

/* two unindexed temp channels: in_temp_raw twice, registration fails with -EBUSY */
static const struct iio_chan_spec tchip_dup_chans[] = {
	{ .type = IIO_TEMP, .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
	{ .type = IIO_TEMP, .info_mask_separate = BIT(IIO_CHAN_INFO_RAW) },
};

static int tchip_read_reg(struct tchip_state *st, uint8_t reg)
{
	uint8_t tx[2] = { 0x80 | reg, 0 }, rx[2] = { 0, 0 };
	struct bus_spi_transfer x = { .tx_buf = tx, .rx_buf = rx, .len = 2 };
	int ret;

	if (st->i2c)
		return bus_smbus_read_byte_data(st->i2c, reg);
	ret = bus_spi_sync(st->spi, &x, 1);
	return ret < 0 ? ret : rx[1];
}

static int tchip_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			  int *val, int *val2, long mask)
{
	struct tchip_state *st = iio_priv(indio_dev);
	int ret;

	(void)val2;
	if (mask != IIO_CHAN_INFO_RAW)
		return -EINVAL;
	ret = tchip_read_reg(st, (uint8_t)(1 + chan->channel));
	if (ret < 0)
		return ret;
	*val = ret * st->gain;
	return IIO_VAL_INT;
}

static const struct iio_info tchip_info = {
	.read_raw = tchip_read_raw,
};

static int tchip_probe(const struct iio_probe *p, struct iio_dev **out, char *err, size_t errlen)
{
	struct tchip_state *st;
	struct iio_dev *d;
	int ret, gain = 1;

	if (!p->i2c && !p->spi) {
		snprintf(err, errlen, "%s: needs a bus", p->name);
		return -EINVAL;
	}
	ret = iio_probe_prop_int(p, "gain", &gain);
	if (ret && ret != -ENOENT)
		return ret;
	d = iio_device_alloc(sizeof(*st));
	if (!d)
		return -ENOMEM;
	st = iio_priv(d);
	st->i2c = p->i2c;
	st->spi = p->spi;
	st->gain = gain;
	ret = tchip_read_reg(st, 0);
	if (ret != TCHIP_ID) {
		iio_device_put(d);
		snprintf(err, errlen, "%s: no chip (%d)", p->name, ret);
		return ret < 0 ? ret : -ENODEV;
	}
	d->name = p->id->name;
	d->channels = p->id->driver_data == 1 ? tchip_dup_chans : tchip_chans;
	d->num_channels = 2;
	d->info = &tchip_info;
	tchip_live_devices++;
	*out = d;
	return 0;
}

static void tchip_remove(struct iio_dev *indio_dev)
{
	(void)indio_dev;
	tchip_live_devices--;
}

static const struct iio_driver tchip_driver = {
	.name = "tchip",
	.id_table = tchip_model_id,
	.probe = tchip_probe,
	.remove = tchip_remove,
};
IIO_DRIVER_REGISTER(tchip_driver);

/* ---- helpers ---- */

static struct board *tboard_load(const char *json, char *err)
{
	return board_load_string(json, "t.json", err, BOARD_ERR_MAX);
}

static int tboard_read_int(struct iio_dev *d, const char *attr, int *val)
{
	const struct iio_attr *a = iio_device_attr_find(d, attr);
	char buf[64];
	ssize_t n;

	if (!a)
		return -ENOENT;
	n = iio_attr_read(d, a, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	*val = atoi(buf);
	return 0;
}

static void tboard_assert_nothing_left(const char *row)
{
	TEST_ROW_ASSERT(tchip_live_devices == 0, row);
	TEST_ROW_ASSERT(tchip_live_chips == 0, row);
}

/* ---- the shipped boards ---- */

struct tboard_sample_row {
	const char *name;
	double t_s;
	const char *consumer_channel;
	int processed;	/* mV */
};

static void test_stargate2(void)
{
	static const struct tboard_sample_row rows[] = {
		{ "AIN1 sine at t=0", 0, "testchan1", 1800 },
		{ "AIN1 sine at a quarter period", 5, "testchan1", 2400 },
		{ "AIN1 sine at three quarters", 15, "testchan1", 1200 },
		{ "AIN2 ramp at t=0", 0, "testchan2", 200 },
		{ "AIN2 ramp at a quarter", 15, "testchan2", 1100 },
	};
	char err[BOARD_ERR_MAX];
	struct board *b = board_load(test_path("maps/stargate2.json"), err, sizeof(err));
	const struct iio_map *m;
	struct iio_channel *ch;
	struct iio_dev *d, *prov;
	struct bus *bus;
	size_t i;
	int val;

	if (!b)
		fprintf(stderr, "stargate2: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->name, "stargate2");
	CU_ASSERT_EQUAL(iio_registry_count(b->reg), 1);
	d = iio_registry_at(b->reg, 0);
	CU_ASSERT_STRING_EQUAL(d->name, "max1238");
	CU_ASSERT_STRING_EQUAL(d->hwid, "0-0035");
	CU_ASSERT_STRING_EQUAL(d->label, "stargate2-adc");
	CU_ASSERT_EQUAL(iio_device_id(d), 0);
	CU_ASSERT_PTR_EQUAL(iio_device_driver(d), iio_driver_find("max1238", NULL));
	CU_ASSERT_EQUAL(iio_registry_map_count(b->reg), 2);
	m = iio_registry_map_at(b->reg, 1, &prov);
	CU_ASSERT_PTR_EQUAL(prov, d);
	CU_ASSERT_STRING_EQUAL(m->adc_dev_name, "0-0035");
	CU_ASSERT_STRING_EQUAL(m->adc_channel_label, "AIN2");
	CU_ASSERT_STRING_EQUAL(m->consumer_dev_name, "iio_hwmon.0");
	CU_ASSERT_STRING_EQUAL(m->consumer_channel, "testchan2");
	bus = board_find_bus(b, "i2c-0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(bus);
	CU_ASSERT_PTR_NULL(board_find_bus(b, "i2c-1"));
	/* a constant input, through sysfs: 3300 mV at 1 mV per count */
	CU_ASSERT_EQUAL(tboard_read_int(d, "in_voltage0_raw", &val), 0);
	CU_ASSERT_EQUAL(val, 3300);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		emu_bus_set_time(bus, rows[i].t_s);
		TEST_ROW_ASSERT(iio_channel_get(b->reg, "iio_hwmon.0", rows[i].consumer_channel,
						&ch) == 0, rows[i].name);
		val = -1;
		TEST_ROW_ASSERT(iio_read_channel_processed(ch, &val) == 0, rows[i].name);
		TEST_ROW_ASSERT(val == rows[i].processed, rows[i].name);
		iio_channel_release(ch);
	}
	board_destroy(b);
}
TEST_CASE(test_stargate2, "stargate2.json: max1238 at 0-0035 and its maps");

static void test_demo(void)
{
	char err[BOARD_ERR_MAX], path[4096];
	struct board *b = board_load(test_path("maps/demo.json"), err, sizeof(err));
	struct iio_dev *d;
	int val;

	if (!b)
		fprintf(stderr, "demo: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->name, "demo");
	CU_ASSERT_EQUAL(iio_registry_find(b->reg, "dummy0", &d, NULL, 0), 0);
	CU_ASSERT_EQUAL(iio_device_id(d), 0);
	CU_ASSERT_EQUAL(tboard_read_int(d, "in_voltage0_raw", &val), 0);
	CU_ASSERT_EQUAL(val, 73);
	CU_ASSERT_EQUAL(iio_registry_find(b->reg, "0-0035", &d, NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(d->name, "max1238");
	CU_ASSERT(iio_registry_map_count(b->reg) >= 2);
	board_destroy(b);

	/* without an installed copy the default is the source tree's demo board */
	unsetenv("IIOWIRE_MAPS_DIR");
	CU_ASSERT(board_default_path(path, sizeof(path)) > 0);
	CU_ASSERT_EQUAL(access(path, R_OK), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(path, "demo.json"));
	setenv("IIOWIRE_MAPS_DIR", "/opt/boards", 1);
	CU_ASSERT(board_default_path(path, sizeof(path)) > 0);
	CU_ASSERT_STRING_EQUAL(path, "/opt/boards/demo.json");
	CU_ASSERT_EQUAL(board_default_path(path, 8), -ENAMETOOLONG);
	unsetenv("IIOWIRE_MAPS_DIR");
}
TEST_CASE(test_demo, "demo.json and the default path");

/* maps/bmp280.json: four parts on two buses, the datasheet's example through the board */
static void test_bmp280_board(void)
{
	static const char *const hwids[] = { "1-0076", "1-0077", "2-0077", "2-0076" };
	static const char *const names[] = { "bmp280", "bme280", "bmp180", "bmp380" };
	char err[BOARD_ERR_MAX];
	struct board *b = board_load(test_path("maps/bmp280.json"), err, sizeof(err));
	struct iio_dev *d;
	size_t i;
	int val;

	if (!b)
		fprintf(stderr, "bmp280: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(iio_registry_count(b->reg), 4);
	for (i = 0; i < 4; i++) {
		TEST_ROW_ASSERT(iio_registry_find(b->reg, hwids[i], &d, NULL, 0) == 0, hwids[i]);
		TEST_ROW_ASSERT(strcmp(d->name, names[i]) == 0, hwids[i]);
	}
	CU_ASSERT_EQUAL(iio_registry_find(b->reg, "1-0076", &d, NULL, 0), 0);
	/* the BMP280 datasheet's 25.08 degC */
	CU_ASSERT_EQUAL(tboard_read_int(d, "in_temp_input", &val), 0);
	CU_ASSERT_EQUAL(val, 25080);
	board_destroy(b);
}
TEST_CASE(test_bmp280_board, "bmp280.json: the bmp280 family on two buses");

/* ---- errors: each class with its exact message ---- */

struct tboard_err_row {
	const char *name;
	const char *json;
	const char *err;	/* exact, or a prefix when the row says so */
	bool prefix;
};

#define TB_BUS	"\"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}}"
#define TB_CHIP	"{\"driver\": \"tchip\", \"bus\": \"i2c-0\", \"address\": \"0x10\"}"

static const struct tboard_err_row tboard_errors[] = {
	/* syntax: FILE:LINE:COLUMN */
	{ "syntax: bad token", "{\"board\": \"x\",\n  \"devices\": [:]}",
	  "t.json:2:15: JSON syntax error at ':]}'" },
	{ "syntax: a ']' closing a '{'", "{\"board\": \"x\",\n  \"devices\": [}",
	  "t.json:2:15: JSON syntax error: missing ']' (the '[' at 2:14 is still open) "
	  "before '}'" },
	/* issue 29: a missing '}' is reported where it belongs, not at the ']' after it */
	{ "syntax: missing '}' before ']'",
	  "{\"devices\": [{\"driver\": \"x\"\n ],\n \"board\": \"x\"}",
	  "t.json:1:28: JSON syntax error: missing '}' (the '{' at 1:14 is still open) "
	  "before '],'" },
	{ "syntax: missing comma between members",
	  "{\"board\": \"x\"\n \"devices\": []}",
	  "t.json:1:14: JSON syntax error: missing comma before '\"devices\": []}'" },
	{ "syntax: missing comma between elements", "{\"devices\": [{} {}]}",
	  "t.json:1:16: JSON syntax error: missing comma before '{}]}'" },
	{ "syntax: missing comma after a number", "{\"a\": [1 2]}",
	  "t.json:1:9: JSON syntax error: missing comma before '2]}'" },
	{ "syntax: two strings in an array: a comma, not a colon", "{\"a\": [\"x\", \"y\" \"z\"]}",
	  "t.json:1:16: JSON syntax error: missing comma before '\"z\"]}'" },
	{ "syntax: missing colon", "{\"a\" 1}",
	  "t.json:1:6: JSON syntax error: missing ':' after the key, at '1}'" },
	{ "syntax: end of file", "{\"board\": \"x\",\n", "t.json:2:1: JSON syntax error: "
	  "unexpected end of file: missing '}' (the '{' at 1:1 is still open)" },
	{ "syntax: string never closed", "{\"board\": \"abc\n}",
	  "t.json:1:11: JSON syntax error: string never closed" },
	{ "syntax: empty", "", "t.json:1:1: JSON syntax error: unexpected end of file" },
	{ "syntax: text after the end", "{}\n{}",
	  "t.json:2:1: JSON syntax error: text after the end at '{}'" },
	{ "syntax: too deep", "[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]",
	  "t.json:1:17: nested deeper than 16 levels" },
	{ "syntax: brackets in strings do not nest", "{\"board\": \"[[[[[[[[[[[[[[[[[[\", \"x\": 1}",
	  "t.json: x: unknown key" },
	/* top level */
	{ "top level not an object", "[1]", "t.json: top level: expected an object, not an array" },
	{ "unknown top-level key", "{\"bord\": \"x\"}", "t.json: bord: unknown key" },
	{ "duplicate key", "{\"board\": \"x\", \"board\": \"y\"}", "t.json: board: duplicate key" },
	{ "board not a string", "{\"board\": 1}",
	  "t.json: board: expected a string, not a number" },
	{ "board name too long",
	  "{\"board\": \"0123456789012345678901234567890123456789012345678901234567890123\"}",
	  "t.json: board: longer than 63 characters" },
	{ "devices not an array", "{\"devices\": {}}",
	  "t.json: devices: expected an array, not an object" },
	{ "maps not an array", "{\"maps\": 1}", "t.json: maps: expected an array, not a number" },
	/* buses */
	{ "buses not an object", "{\"buses\": []}",
	  "t.json: buses: expected an object, not an array" },
	{ "bus name", "{\"buses\": {\"i2c0\": {\"backend\": \"emulated\"}}}",
	  "t.json: buses.i2c0: a bus is named i2c-N or spiN (N from 0 to 1023)" },
	{ "bus number with a leading zero", "{\"buses\": {\"spi01\": {\"backend\": \"emulated\"}}}",
	  "t.json: buses.spi01: a bus is named i2c-N or spiN (N from 0 to 1023)" },
	{ "bus not an object", "{\"buses\": {\"i2c-0\": \"emulated\"}}",
	  "t.json: buses.i2c-0: expected an object, not a string" },
	{ "bus type mismatch", "{\"buses\": {\"spi0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}}}",
	  "t.json: buses.spi0.type: \"i2c\" does not match the bus name spi0 (\"spi\")" },
	{ "bus backend missing", "{\"buses\": {\"i2c-0\": {\"type\": \"i2c\"}}}",
	  "t.json: buses.i2c-0.backend: missing" },
	{ "bus backend unknown", "{\"buses\": {\"i2c-0\": {\"backend\": \"usb\"}}}",
	  "t.json: buses.i2c-0.backend: unknown backend usb (emulated, i2c-dev, spidev)" },
	{ "bus backend of the other type", "{\"buses\": {\"i2c-0\": {\"backend\": \"spidev\", "
	  "\"device\": \"/dev/spidev0.0\"}}}",
	  "t.json: buses.i2c-0.backend: spidev cannot drive i2c-0" },
	{ "bus device missing", "{\"buses\": {\"i2c-1\": {\"backend\": \"i2c-dev\"}}}",
	  "t.json: buses.i2c-1.device: missing" },
	{ "bus device absent", "{\"buses\": {\"i2c-1\": {\"backend\": \"i2c-dev\", "
	  "\"device\": \"/nonexistent/i2c-1\"}}}",
	  "t.json: buses.i2c-1.device: cannot open /nonexistent/i2c-1: No such file or directory" },
	{ "bus unknown key", "{\"buses\": {\"i2c-0\": {\"backend\": \"emulated\", \"speed\": 1}}}",
	  "t.json: buses.i2c-0.speed: unknown key" },
	/* devices */
	{ "device not an object", "{\"devices\": [1]}",
	  "t.json: devices[0]: expected an object, not a number" },
	{ "driver missing", "{\"devices\": [{}]}", "t.json: devices[0].driver: missing" },
	{ "unknown driver", "{\"devices\": [{\"driver\": \"iio_dummy\"}, {\"driver\": \"iio_dummy\"},"
	  " {\"driver\": \"max9999\"}]}", "t.json: devices[2].driver: unknown driver max9999" },
	{ "unknown bus", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": \"i2c-5\", "
	  "\"address\": 16}]}", "t.json: devices[0].bus: no bus i2c-5 in \"buses\"" },
	{ "address missing", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": \"i2c-0\"}]}",
	  "t.json: devices[0].address: missing (the chip's 7-bit I2C address)" },
	{ "address out of range", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": \"0x99\"}]}",
	  "t.json: devices[0].address: expected a 7-bit I2C address (\"0x35\" or 53)" },
	{ "address not a number", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": \"0x1g\"}]}",
	  "t.json: devices[0].address: expected a 7-bit I2C address (\"0x35\" or 53)" },
	{ "address without a bus", "{\"devices\": [{\"driver\": \"iio_dummy\", \"address\": 5}]}",
	  "t.json: devices[0].address: given without a \"bus\"" },
	{ "cs on an I2C bus", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": \"i2c-0\", "
	  "\"cs\": 0}]}", "t.json: devices[0].cs: a chip select is for SPI; i2c-0 is I2C" },
	{ "address on an SPI bus", "{\"buses\": {\"spi0\": {\"backend\": \"emulated\"}}, \"devices\": "
	  "[{\"driver\": \"tchip_spi\", \"bus\": \"spi0\", \"address\": 1}]}",
	  "t.json: devices[0].address: an SPI device has a \"cs\", not an address" },
	{ "cs missing", "{\"buses\": {\"spi0\": {\"backend\": \"emulated\"}}, \"devices\": "
	  "[{\"driver\": \"tchip_spi\", \"bus\": \"spi0\"}]}",
	  "t.json: devices[0].cs: missing (the chip select on spi0)" },
	{ "address taken", "{" TB_BUS ", \"devices\": [" TB_CHIP ", {\"driver\": \"iio_dummy\"}, "
	  "{\"driver\": \"tchip\", \"bus\": \"i2c-0\", \"address\": 16}]}",
	  "t.json: devices[2].address: address 0-0010 is taken by devices[0]" },
	{ "label too long", "{\"devices\": [{\"driver\": \"iio_dummy\", \"label\": "
	  "\"0123456789012345678901234567890123456789012345678901234567890123\"}]}",
	  "t.json: devices[0].label: longer than 63 characters" },
	{ "label empty", "{\"devices\": [{\"driver\": \"iio_dummy\", \"label\": \"\"}]}",
	  "t.json: devices[0].label: empty string" },
	{ "B6 label with an ESC", "{\"devices\": [{\"driver\": \"iio_dummy\", \"label\": "
	  "\"ok\\u001b[2J\"}]}",
	  "t.json: devices[0].label: control character 0x1b at byte 3" },
	{ "B6 name with a LF", "{\"devices\": [{\"driver\": \"iio_dummy\", \"name\": "
	  "\"a\\nb\"}]}",
	  "t.json: devices[0].name: control character 0x0a at byte 2" },
	{ "B6 board name with a BEL", "{\"board\": \"\\u0007x\"}",
	  "t.json: board: control character 0x07 at byte 1" },
	{ "name on a driver named by its id", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", "
	  "\"bus\": \"i2c-0\", \"address\": 16, \"name\": \"x\"}]}",
	  "t.json: devices[0].name: tchip is named by its id, as in the kernel; use \"label\"" },
	{ "name not a string", "{\"devices\": [{\"driver\": \"iio_dummy\", \"name\": 5}]}",
	  "t.json: devices[0].name: expected a string, not a number" },
	{ "vref_mv zero", "{\"devices\": [{\"driver\": \"iio_dummy\", \"vref_mv\": 0}]}",
	  "t.json: devices[0].vref_mv: expected an integer from 1 to 2147483647, not this number" },
	{ "vref_mv a string", "{\"devices\": [{\"driver\": \"iio_dummy\", \"vref_mv\": \"5\"}]}",
	  "t.json: devices[0].vref_mv: expected an integer from 1 to 2147483647, not a string" },
	{ "emulate off an emulated bus", "{\"devices\": [{\"driver\": \"iio_dummy\", \"emulate\": {}}]}",
	  "t.json: devices[0].emulate: only for a device on an emulated bus" },
	{ "fault off an emulated bus", "{\"devices\": [{\"driver\": \"iio_dummy\", \"fault\": {}}]}",
	  "t.json: devices[0].fault: only for a device on an emulated bus" },
	{ "unknown device key", "{\"devices\": [{\"driver\": \"iio_dummy\", \"adress\": 5}]}",
	  "t.json: devices[0].adress: unknown key" },
	{ "duplicate device key", "{\"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"a\", "
	  "\"name\": \"b\"}]}", "t.json: devices[0].name: duplicate key" },
	{ "no chip model", "{" TB_BUS ", \"devices\": [{\"driver\": \"iio_dummy\", \"bus\": \"i2c-0\", "
	  "\"address\": 1}]}", "t.json: devices[0].driver: no chip model of iio_dummy to emulate" },
	{ "probe fails", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": \"i2c-0\", "
	  "\"address\": 16, \"fault\": {\"mode\": \"nack\", \"from\": \"probe\"}}]}",
	  "t.json: devices[0]: tchip: no chip (-6)" },
	{ "driver refuses a property", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"gain\": \"high\"}]}",
	  "t.json: devices[0]: Invalid argument" },
	{ "registration fails", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip_dup\", \"bus\": "
	  "\"i2c-0\", \"address\": 16}]}", "t.json: devices[0]: cannot register tchip_dup: ", true },
	/* emulate */
	{ "emulate not an object", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": 5}]}",
	  "t.json: devices[0].emulate: expected an object, not a number" },
	{ "emulate unknown input", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH7\": 1}}]}",
	  "t.json: devices[0].emulate: tchip: no input 'CH7' (inputs: CH0, CH1)" },
	{ "emulate value not a signal", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH0\": \"high\"}}]}",
	  "t.json: devices[0].emulate.CH0: expected a number or one of {\"sine\": {...}}, "
	  "{\"ramp\": {...}}, {\"noise\": {...}}, {\"csv\": {...}}, {\"dac\": \"DEVICE:voltageN\"}" },
	{ "unknown signal", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH0\": {\"square\": {}}}}]}",
	  "t.json: devices[0].emulate.CH0.square: unknown signal (sine, ramp, noise, csv, dac)" },
	{ "sine without a period", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH0\": {\"sine\": {\"amplitude\": 1}}}}]}",
	  "t.json: devices[0].emulate.CH0.sine.period_s: missing" },
	{ "sine with period 0", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH0\": {\"sine\": {\"amplitude\": 1, "
	  "\"period_s\": 0}}}}]}", "t.json: devices[0].emulate.CH0.sine.period_s: must be greater "
	  "than 0" },
	{ "sine misspelt key", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH0\": {\"sine\": {\"amplitud\": 1}}}}]}",
	  "t.json: devices[0].emulate.CH0.sine.amplitud: unknown key" },
	{ "ramp without to", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH1\": {\"ramp\": {\"from\": 1, "
	  "\"period_s\": 2}}}}]}", "t.json: devices[0].emulate.CH1.ramp.to: missing" },
	{ "noise stddev negative", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH1\": {\"noise\": {\"stddev\": -1}}}}]}",
	  "t.json: devices[0].emulate.CH1.noise.stddev: must not be negative" },
	{ "noise seed negative", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH1\": {\"noise\": {\"stddev\": 1, "
	  "\"seed\": -1}}}}]}", "t.json: devices[0].emulate.CH1.noise.seed: expected an integer "
	  "from 0 to 9223372036854775807, not this number" },
	{ "csv file absent", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH1\": {\"csv\": {\"file\": "
	  "\"no-such.csv\"}}}}]}",
	  "t.json: devices[0].emulate.CH1.csv.file: ./no-such.csv: No such file or directory" },
	{ "emulate duplicate input", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH1\": 1, \"CH1\": 2}}]}",
	  "t.json: devices[0].emulate.CH1: duplicate key" },
	/* faults */
	{ "fault mode unknown", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"fault\": {\"mode\": \"smoke\"}}]}",
	  "t.json: devices[0].fault.mode: unknown mode smoke (nack, eio, hang)" },
	{ "fault mode missing", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"fault\": {\"after\": 1}}]}",
	  "t.json: devices[0].fault.mode: missing" },
	{ "fault after negative", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"fault\": {\"mode\": \"eio\", \"after\": -1}}]}",
	  "t.json: devices[0].fault.after: expected an integer from 0 to 4294967295, "
	  "not this number" },
	{ "fault from what", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
	  "\"i2c-0\", \"address\": 16, \"fault\": {\"mode\": \"eio\", \"from\": \"boot\"}}]}",
	  "t.json: devices[0].fault.from: expected \"probe\" or \"load\"" },
	/* maps */
	{ "map not an object", "{\"maps\": [\"x\"]}", "t.json: maps[0]: expected an object, "
	  "not a string" },
	{ "map key missing", "{" TB_BUS ", \"devices\": [" TB_CHIP "], \"maps\": [{\"adc_dev_name\": "
	  "\"0-0010\", \"adc_channel_label\": \"CH0\", \"consumer_dev_name\": \"c\"}]}",
	  "t.json: maps[0].consumer_channel: missing" },
	{ "map names no device", "{" TB_BUS ", \"devices\": [" TB_CHIP "], \"maps\": ["
	  "{\"adc_dev_name\": \"0-0010\", \"adc_channel_label\": \"CH0\", \"consumer_dev_name\": "
	  "\"c\", \"consumer_channel\": \"a\"}, {\"adc_dev_name\": \"0-0036\", "
	  "\"adc_channel_label\": \"CH0\", \"consumer_dev_name\": \"c\", \"consumer_channel\": "
	  "\"b\"}]}", "t.json: maps[1].adc_dev_name: no device 0-0036" },
	{ "map provider ambiguous", "{\"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"d\"}, "
	  "{\"driver\": \"iio_dummy\", \"name\": \"d\"}], \"maps\": [{\"adc_dev_name\": \"d\", "
	  "\"adc_channel_label\": \"x\", \"consumer_dev_name\": \"c\", \"consumer_channel\": "
	  "\"a\"}]}", "t.json: maps[0].adc_dev_name: d is ambiguous: iio:device0 (d), "
	  "iio:device1 (d)" },
	{ "map label not a datasheet name", "{" TB_BUS ", \"devices\": [" TB_CHIP "], \"maps\": ["
	  "{\"adc_dev_name\": \"tchip\", \"adc_channel_label\": \"CH9\", \"consumer_dev_name\": "
	  "\"c\", \"consumer_channel\": \"a\"}]}",
	  "t.json: maps[0].adc_channel_label: tchip (tchip) has no channel CH9 (it has CH0, CH1)" },
	{ "map to a provider without names, by an id it lacks", "{\"devices\": [{\"driver\": "
	  "\"iio_dummy\", \"name\": \"d\"}], \"maps\": [{\"adc_dev_name\": \"iio:device0\", "
	  "\"adc_channel_label\": \"voltage9\", \"consumer_dev_name\": \"c\", "
	  "\"consumer_channel\": \"a\"}]}",
	  "t.json: maps[0].adc_channel_label: iio:device0 (d) has no channel voltage9 (it has "
	  "voltage0, voltage1-voltage2, voltage3-voltage4, accel_x, voltage0, steps, "
	  "activity_running, activity_walking)" },
	{ "map twice", "{" TB_BUS ", \"devices\": [" TB_CHIP "], \"maps\": ["
	  "{\"adc_dev_name\": \"0-0010\", \"adc_channel_label\": \"CH0\", \"consumer_dev_name\": "
	  "\"c\", \"consumer_channel\": \"a\"}, {\"adc_dev_name\": \"0-0010\", "
	  "\"adc_channel_label\": \"CH1\", \"consumer_dev_name\": \"c\", \"consumer_channel\": "
	  "\"a\"}]}", "t.json: maps[1]: c a is already mapped by maps[0]" },
	{ "map unknown key", "{\"maps\": [{\"adc_dev\": 1}]}", "t.json: maps[0].adc_dev: unknown key" },
};

static void test_errors(void)
{
	const size_t n = sizeof(tboard_errors) / sizeof(tboard_errors[0]);
	const struct tboard_err_row *r;
	char err[BOARD_ERR_MAX];
	struct board *b;
	size_t i;
	bool ok;

	for (i = 0; i < n; i++) {
		r = &tboard_errors[i];
		strcpy(err, "untouched");
		b = tboard_load(r->json, err);
		TEST_ROW_ASSERT(b == NULL, r->name);
		board_destroy(b);
		ok = r->prefix ? strncmp(err, r->err, strlen(r->err)) == 0 : strcmp(err, r->err) == 0;
		if (!ok)
			fprintf(stderr, "\n  row \"%s\":\n    got  %s\n    want %s\n", r->name, err,
				r->err);
		TEST_ROW_ASSERT(ok, r->name);
		tboard_assert_nothing_left(r->name);
	}
}
TEST_CASE(test_errors, "every error class, exact message, nothing left");

/* ---- file errors ---- */

static char tboard_dir[64];

/* Write @text (@len bytes, or up to its NUL when @len is 0) to a file of the temp dir. */
static const char *tboard_write(const char *name, const char *text, size_t len)
{
	static char path[128];
	FILE *f;

	if (!len)
		len = strlen(text);
	snprintf(path, sizeof(path), "%s/%s", tboard_dir, name);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

static void test_file_errors(void)
{
	char err[BOARD_ERR_MAX], want[BOARD_ERR_MAX], *big;
	const char *path;
	struct board *b;
	size_t max = 1024 * 1024;

	snprintf(tboard_dir, sizeof(tboard_dir), "/tmp/iiowire-tboard-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tboard_dir));

	CU_ASSERT_PTR_NULL(board_load("/nonexistent/x.json", err, sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err, "board file /nonexistent/x.json: No such file or directory");
	CU_ASSERT_PTR_NULL(board_load(tboard_dir, err, sizeof(err)));
	snprintf(want, sizeof(want), "board file %s: Is a directory", tboard_dir);
	CU_ASSERT_STRING_EQUAL(err, want);

	path = tboard_write("nul.json", "{\"board\":\n \"a\0b\"}", 18);
	CU_ASSERT_PTR_NULL(board_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:2:4: NUL byte in the file", path);
	CU_ASSERT_STRING_EQUAL(err, want);

	/* the size limit: exactly 1 MiB loads, one byte more does not */
	big = malloc(max + 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	memset(big, ' ', max + 1);
	big[0] = '{';
	big[max - 1] = '}';
	path = tboard_write("max.json", big, max);
	b = board_load(path, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL(b);
	board_destroy(b);
	path = tboard_write("big.json", big, max + 1);
	CU_ASSERT_PTR_NULL(board_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: top level: larger than 1048576 bytes", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(big);

	/* a CSV trace is found next to the board file, whatever the working directory */
	tboard_write("trace.csv", "t,value\n0,10\n10,110\n", 0);
	path = tboard_write("csv.json", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": "
			    "\"i2c-0\", \"address\": 16, \"emulate\": {\"CH1\": {\"csv\": "
			    "{\"file\": \"trace.csv\"}}}}]}", 0);
	b = board_load(path, err, sizeof(err));
	if (!b)
		fprintf(stderr, "csv: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->name, "csv");
	{
		struct iio_dev *d = iio_registry_at(b->reg, 0);
		int val;

		emu_bus_set_time(board_find_bus(b, "i2c-0"), 5);
		CU_ASSERT_EQUAL(tboard_read_int(d, "in_voltage1_raw", &val), 0);
		CU_ASSERT_EQUAL(val, 60);
	}
	board_destroy(b);
	tboard_assert_nothing_left("csv");
	/* the CSV's own error comes through with its line */
	tboard_write("bad.csv", "0,1\nzz\n", 0);
	path = tboard_write("badcsv.json", "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", "
			    "\"bus\": \"i2c-0\", \"address\": 16, \"emulate\": {\"CH1\": {\"csv\": "
			    "{\"file\": \"bad.csv\"}}}}]}", 0);
	CU_ASSERT_PTR_NULL(board_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: devices[0].emulate.CH1.csv.file: %s/bad.csv:2:", path,
		 tboard_dir);
	CU_ASSERT_EQUAL(strncmp(err, want, strlen(want)), 0);
	tboard_assert_nothing_left("bad csv");
}
TEST_CASE(test_file_errors, "file errors, size limit, CSV next to the board");

/* ---- what a good load gives, and what a failed one leaves ---- */

static void test_good_load(void)
{
	static const char json[] =
		"{\"board\": \"bench\", \"description\": \"two chips and a dummy\","
		" \"buses\": {\"i2c-3\": {\"type\": \"i2c\", \"backend\": \"emulated\"},"
		"             \"spi1\": {\"type\": \"spi\", \"backend\": \"emulated\"}},"
		" \"devices\": ["
		"  {\"driver\": \"tchip\", \"bus\": \"i2c-3\", \"address\": 53, \"label\": \"left\","
		"   \"gain\": 2, \"emulate\": {\"CH0\": 21, \"CH1\": {\"ramp\": {\"from\": 0, "
		"\"to\": 100, \"period_s\": 10}}}},"
		"  {\"driver\": \"iio_dummy\", \"name\": \"dummy9\", \"label\": \"bench-dummy\","
		"   \"comment\": \"no bus\"},"
		"  {\"driver\": \"tchip_spi\", \"bus\": \"spi1\", \"cs\": 2, \"emulate\": {\"CH0\": 7},"
		"   \"fault\": {\"mode\": \"eio\", \"after\": 1, \"count\": 1}}],"
		" \"maps\": [{\"adc_dev_name\": \"left\", \"adc_channel_label\": \"CH0\","
		"   \"consumer_dev_name\": \"iio_hwmon.0\", \"consumer_channel\": \"a\"},"
		"  {\"adc_dev_name\": \"spi1.2\", \"adc_channel_label\": \"CH0\","
		"   \"consumer_dev_name\": \"iio_hwmon.0\", \"consumer_channel\": \"b\"}]}";
	char err[BOARD_ERR_MAX];
	struct board *b = tboard_load(json, err);
	struct iio_channel *all;
	struct iio_dev *d;
	int val;

	if (!b)
		fprintf(stderr, "good: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->name, "bench");
	CU_ASSERT_STRING_EQUAL(b->description, "two chips and a dummy");
	CU_ASSERT_EQUAL(b->nbuses, 2);
	CU_ASSERT_STRING_EQUAL(b->bus_names[1], "spi1");
	CU_ASSERT_EQUAL(board_find_bus(b, "spi1")->number, 1);
	CU_ASSERT_EQUAL(iio_registry_count(b->reg), 3);
	CU_ASSERT_EQUAL(tchip_live_devices, 2);
	CU_ASSERT_EQUAL(tchip_live_chips, 2);

	d = iio_registry_at(b->reg, 0);
	CU_ASSERT_STRING_EQUAL(d->hwid, "3-0035");
	CU_ASSERT_STRING_EQUAL(d->label, "left");
	CU_ASSERT_EQUAL(iio_device_id(d), 0);
	/* the driver read "gain" (so it was no unknown key) and uses it */
	CU_ASSERT_EQUAL(tboard_read_int(d, "in_voltage0_raw", &val), 0);
	CU_ASSERT_EQUAL(val, 42);
	emu_bus_set_time(board_find_bus(b, "i2c-3"), 2.5);
	CU_ASSERT_EQUAL(tboard_read_int(d, "in_voltage1_raw", &val), 0);
	CU_ASSERT_EQUAL(val, 50);

	d = iio_registry_at(b->reg, 1);
	CU_ASSERT_STRING_EQUAL(d->name, "dummy9");
	CU_ASSERT_STRING_EQUAL(d->label, "bench-dummy");
	CU_ASSERT_STRING_EQUAL(d->hwid, "");

	/* the fault was armed after the probe: one good transfer, one EIO, then good again */
	d = iio_registry_at(b->reg, 2);
	CU_ASSERT_STRING_EQUAL(d->hwid, "spi1.2");
	CU_ASSERT_EQUAL(tboard_read_int(d, "in_voltage0_raw", &val), 0);
	CU_ASSERT_EQUAL(val, 7);
	CU_ASSERT_EQUAL(tboard_read_int(d, "in_voltage0_raw", &val), -EIO);
	CU_ASSERT_EQUAL(tboard_read_int(d, "in_voltage0_raw", &val), 0);

	CU_ASSERT_EQUAL_FATAL(iio_channel_get_all(b->reg, "iio_hwmon.0", &all), 0);
	CU_ASSERT_EQUAL(iio_read_channel_raw(&all[0], &val), IIO_VAL_INT);
	CU_ASSERT_EQUAL(val, 42);
	CU_ASSERT_STRING_EQUAL(all[1].indio_dev->hwid, "spi1.2");
	/* a consumer outlives the board: -ENODEV, and the board's strings are not left dangling */
	board_destroy(b);
	CU_ASSERT_EQUAL(tchip_live_devices, 0);
	CU_ASSERT_EQUAL(iio_read_channel_raw(&all[0], &val), -ENODEV);
	CU_ASSERT_PTR_NULL(all[0].indio_dev->label);
	iio_channel_release_all(all);
	tboard_assert_nothing_left("good load");
}
TEST_CASE(test_good_load, "a good load: buses, devices, labels, faults, maps");

/* Failures after some devices and buses exist: each must unwind all of them. */
static void test_failed_load_leaves_nothing(void)
{
	static const struct {
		const char *name;
		const char *json;
		int devices_before;	/* tchips probed before the failure */
	} rows[] = {
		{ "bad map after three devices",
		  "{" TB_BUS ", \"devices\": [" TB_CHIP ", {\"driver\": \"iio_dummy\"},"
		  " {\"driver\": \"tchip\", \"bus\": \"i2c-0\", \"address\": 17}],"
		  " \"maps\": [{\"adc_dev_name\": \"x\", \"adc_channel_label\": \"CH0\","
		  " \"consumer_dev_name\": \"c\", \"consumer_channel\": \"a\"}]}", 2 },
		{ "probe fails on the second chip",
		  "{" TB_BUS ", \"devices\": [" TB_CHIP ", {\"driver\": \"tchip\", \"bus\": \"i2c-0\","
		  " \"address\": 17, \"fault\": {\"mode\": \"eio\", \"from\": \"probe\"}}]}", 1 },
		{ "registration fails on the second chip",
		  "{" TB_BUS ", \"devices\": [" TB_CHIP ", {\"driver\": \"tchip_dup\", \"bus\": \"i2c-0\","
		  " \"address\": 17}]}", 2 },
		{ "unknown key after the probe read its own",
		  "{" TB_BUS ", \"devices\": [" TB_CHIP ", {\"driver\": \"tchip\", \"bus\": \"i2c-0\","
		  " \"address\": 17, \"gain\": 3, \"gian\": 3}]}", 2 },
		{ "second bus fails to open",
		  "{\"buses\": {\"i2c-0\": {\"backend\": \"emulated\"}, \"i2c-1\": {\"backend\": "
		  "\"i2c-dev\", \"device\": \"/nonexistent\"}}}", 0 },
		{ "chip model refuses an input on the second chip",
		  "{" TB_BUS ", \"devices\": [" TB_CHIP ", {\"driver\": \"tchip\", \"bus\": \"i2c-0\","
		  " \"address\": 17, \"emulate\": {\"AIN0\": 1}}]}", 1 },
		{ "bad device after a good one",
		  "{" TB_BUS ", \"devices\": [" TB_CHIP ", {\"driver\": \"max9999\"}]}", 1 },
	};
	char err[BOARD_ERR_MAX];
	struct board *b;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		b = tboard_load(rows[i].json, err);
		TEST_ROW_ASSERT(b == NULL, rows[i].name);
		TEST_ROW_ASSERT(strncmp(err, "t.json", 6) == 0, rows[i].name);
		tboard_assert_nothing_left(rows[i].name);
		board_destroy(b);
	}
	/* and the same boards minus their fault load fine, so the rows did reach that far */
	b = tboard_load("{" TB_BUS ", \"devices\": [" TB_CHIP ", {\"driver\": \"iio_dummy\"},"
			" {\"driver\": \"tchip\", \"bus\": \"i2c-0\", \"address\": 17, \"gain\": 3}]}",
			err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(tchip_live_devices, 2);
	board_destroy(b);
	tboard_assert_nothing_left("control");
}
TEST_CASE(test_failed_load_leaves_nothing, "a failed load after devices exist leaves nothing");

static void test_props_and_addresses(void)
{
	static const struct {
		const char *name;
		const char *address;
		const char *hwid;
	} rows[] = {
		{ "hex string", "\"0x35\"", "0-0035" },
		{ "integer", "53", "0-0035" },
		{ "decimal string", "\"53\"", "0-0035" },
		{ "lowest", "0", "0-0000" },
		{ "highest", "127", "0-007f" },
	};
	char json[512], err[BOARD_ERR_MAX];
	struct board *b;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(json, sizeof(json), "{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", "
			 "\"bus\": \"i2c-0\", \"address\": %s}]}", rows[i].address);
		b = tboard_load(json, err);
		TEST_ROW_ASSERT(b != NULL, rows[i].name);
		if (b)
			TEST_ROW_ASSERT(strcmp(iio_registry_at(b->reg, 0)->hwid, rows[i].hwid) == 0,
					rows[i].name);
		board_destroy(b);
	}
	/* a property given as a C-notation string reads as an integer */
	b = tboard_load("{" TB_BUS ", \"devices\": [{\"driver\": \"tchip\", \"bus\": \"i2c-0\", "
			"\"address\": 1, \"gain\": \"0x3\", \"emulate\": {\"CH0\": 5}}]}", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	{
		int val;

		CU_ASSERT_EQUAL(tboard_read_int(iio_registry_at(b->reg, 0), "in_voltage0_raw", &val),
				0);
		CU_ASSERT_EQUAL(val, 15);
	}
	board_destroy(b);
	/* an unnamed board is named after its origin */
	b = board_load_string("{}", "boards/lab-bench.json", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->name, "lab-bench");
	CU_ASSERT_EQUAL(iio_registry_count(b->reg), 0);
	board_destroy(b);
	board_destroy(NULL);
	CU_ASSERT_PTR_NULL(board_find_bus(NULL, "i2c-0"));
}
TEST_CASE(test_props_and_addresses, "addresses and properties");

static int tboard_cleanup(void)
{
	char cmd[128];

	if (tboard_dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tboard_dir);
		if (system(cmd) != 0)
			return 1;
	}
	return 0;
}

TEST_MAIN("board", NULL, tboard_cleanup)
