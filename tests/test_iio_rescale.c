/*
 * test_iio_rescale.c - the analog front-end driver (drivers/afe/iio_rescale.c)
 * on boards with an emulated MAX1363: attribute names, scales for each kind
 * of front end, raw values passed through, processed values through maps,
 * board errors, and -ENODEV once the ADC underneath is gone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "board.h"
#include "iio_core.h"
#include "iio_consumer.h"

#define RT_ADC "{\"driver\": \"max1363\", \"bus\": \"i2c-0\", \"address\": \"0x34\", " \
	"\"label\": \"adc\", \"emulate\": {\"AIN0\": 1000, \"AIN3\": 625}}"

static struct board *rt_load(const char *afe, char *err)
{
	char json[2048];

	snprintf(json, sizeof(json),
		 "{\"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}}, "
		 "\"devices\": [" RT_ADC ", %s], \"maps\": [{\"adc_dev_name\": \"afe\", "
		 "\"adc_channel_label\": \"%s\", \"consumer_dev_name\": \"hw\", "
		 "\"consumer_channel\": \"c\"}]}",
		 afe, strstr(afe, "divider") ? "voltage0" : "current0");
	return board_load_string(json, "rt.json", err, BOARD_ERR_MAX);
}

static void rt_read(struct board *b, const char *attr, char *buf, size_t len)
{
	struct iio_dev *dev = NULL;
	const struct iio_attr *a;

	buf[0] = '\0';
	if (iio_registry_find(b->reg, "afe", &dev, NULL, 0))
		return;
	a = iio_device_attr_find(dev, attr);
	if (!a || iio_attr_read(dev, a, buf, len) < 0)
		buf[0] = '\0';
}

static void test_kinds(void)
{
	static const struct {
		const char *name;
		const char *afe;
		const char *raw_attr, *raw;
		const char *scale_attr, *scale;
		int processed;
	} rows[] = {
		/* AIN3 625 mV at 0.5 mV/LSB = 1250; x2 (1e6 / (10000 * 50)) -> 1250 mA */
		{ "amplifier", "{\"driver\": \"current-sense-amplifier\", \"name\": \"afe\", "
		  "\"io_device\": \"adc\", \"io_channel\": \"AIN3\", "
		  "\"sense_resistor_micro_ohms\": 10000, \"sense_gain_mult\": 50}",
		  "in_current0_raw", "1250\n", "in_current0_scale", "1.000000000\n", 1250 },
		/* 100 mOhm shunt: 0.5 mV/LSB x 10 = 5 mA/LSB */
		{ "shunt", "{\"driver\": \"current-sense-shunt\", \"name\": \"afe\", "
		  "\"io_device\": \"0-0034\", \"io_channel\": \"AIN3\", "
		  "\"shunt_resistor_micro_ohms\": 100000}",
		  "in_current0_raw", "1250\n", "in_current0_scale", "5.000000000\n", 6250 },
		/* 1:3 divider on AIN0 (1000 mV): the input saw 3000 mV */
		{ "divider", "{\"driver\": \"voltage-divider\", \"name\": \"afe\", "
		  "\"io_device\": \"adc\", \"io_channel\": \"AIN0\", "
		  "\"full_ohms\": 30000, \"output_ohms\": 10000}",
		  "in_voltage0_raw", "2000\n", "in_voltage0_scale", "1.500000000\n", 3000 },
	};
	char err[BOARD_ERR_MAX], buf[64];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct board *b = rt_load(rows[i].afe, err);
		struct iio_channel *ch = NULL;
		int val = 0;

		TEST_ROW_ASSERT(b != NULL, rows[i].name);
		if (!b) {
			fprintf(stderr, "%s: %s\n", rows[i].name, err);
			continue;
		}
		rt_read(b, rows[i].raw_attr, buf, sizeof(buf));
		TEST_ROW_ASSERT(strcmp(buf, rows[i].raw) == 0, rows[i].name);
		rt_read(b, rows[i].scale_attr, buf, sizeof(buf));
		TEST_ROW_ASSERT(strcmp(buf, rows[i].scale) == 0, rows[i].name);
		TEST_ROW_ASSERT(iio_channel_get(b->reg, "hw", "c", &ch) == 0, rows[i].name);
		if (ch) {
			TEST_ROW_ASSERT(iio_read_channel_processed(ch, &val) >= 0 &&
					val == rows[i].processed, rows[i].name);
			iio_channel_release(ch);
		}
		board_destroy(b);
	}
}
TEST_CASE(test_kinds, "front-end kinds: names, raw, scale, processed");

static void test_errors(void)
{
	static const struct { const char *name; const char *afe; const char *msg; } rows[] = {
		{ "no source", "{\"driver\": \"current-sense-shunt\", \"name\": \"afe\", "
		  "\"shunt_resistor_micro_ohms\": 1000}", "needs io_device and io_channel" },
		{ "unknown channel", "{\"driver\": \"current-sense-shunt\", \"name\": \"afe\", "
		  "\"io_device\": \"adc\", \"io_channel\": \"AIN9\", "
		  "\"shunt_resistor_micro_ohms\": 1000}", "io_channel AIN9: no such channel" },
		{ "unknown device", "{\"driver\": \"current-sense-shunt\", \"name\": \"afe\", "
		  "\"io_device\": \"nope\", \"io_channel\": \"AIN0\", "
		  "\"shunt_resistor_micro_ohms\": 1000}", "io_device nope io_channel AIN0: no such device" },
		{ "zero shunt", "{\"driver\": \"current-sense-shunt\", \"name\": \"afe\", "
		  "\"io_device\": \"adc\", \"io_channel\": \"AIN0\", "
		  "\"shunt_resistor_micro_ohms\": 0}", "needs positive shunt_resistor_micro_ohms" },
		{ "divider upside down", "{\"driver\": \"voltage-divider\", \"name\": \"afe\", "
		  "\"io_device\": \"adc\", \"io_channel\": \"AIN0\", "
		  "\"full_ohms\": 10, \"output_ohms\": 20}", "full_ohms and output_ohms" },
	};
	char err[BOARD_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct board *b = rt_load(rows[i].afe, err);

		TEST_ROW_ASSERT(b == NULL && strstr(err, rows[i].msg) != NULL, rows[i].name);
		if (b || !strstr(err, rows[i].msg))
			fprintf(stderr, "%s: got '%s'\n", rows[i].name, err);
		board_destroy(b);
	}
}
TEST_CASE(test_errors, "board errors");

/* The ADC goes away under a held front-end channel: -ENODEV, no dangling pointer. */
static void test_source_gone(void)
{
	char err[BOARD_ERR_MAX], buf[64];
	struct board *b = rt_load("{\"driver\": \"current-sense-shunt\", \"name\": \"afe\", "
				  "\"io_device\": \"adc\", \"io_channel\": \"AIN3\", "
				  "\"shunt_resistor_micro_ohms\": 100000}", err);
	struct iio_dev *adc = NULL, *afe = NULL;
	const struct iio_attr *a;
	int val;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(iio_registry_find(b->reg, "adc", &adc, NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(iio_registry_find(b->reg, "afe", &afe, NULL, 0), 0);
	CU_ASSERT_TRUE(iio_device_may_block(afe) == iio_device_may_block(adc));
	CU_ASSERT_PTR_EQUAL(iio_device_bus_key(afe), iio_device_bus_key(adc));
	iio_device_get(afe);
	iio_device_unregister(b->reg, adc);
	a = iio_device_attr_find(afe, "in_current0_raw");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(iio_attr_read(afe, a, buf, sizeof(buf)), -ENODEV);
	(void)val;
	board_destroy(b);
	/* the front end outlives the board while referenced, and stays harmless */
	CU_ASSERT_EQUAL(iio_attr_read(afe, a, buf, sizeof(buf)), -ENODEV);
	iio_device_put(afe);
}
TEST_CASE(test_source_gone, "source gone");

TEST_MAIN("iio_rescale", NULL, NULL)
