/*
 * test_iio_rescale.c - the analog front-end driver (drivers/afe/iio_rescale.c)
 * on boards with an emulated MAX1363, AD7998 and TSL2563 and the dummy:
 * attribute names, scales for each kind of front end digit for digit as the
 * kernel's iio-rescale prints them, offsets only where the front end has
 * one, processed-only sources, raw values passed through, processed values
 * through maps, board errors, and -ENODEV once the ADC underneath is gone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "board.h"
#include "iio_core.h"
#include "iio_consumer.h"

/* max1363: 2048 mV internal reference over 12 bits (FRACTIONAL_LOG2 2048/12) */
#define RT_ADC "{\"driver\": \"max1363\", \"bus\": \"i2c-0\", \"address\": \"0x34\", " \
	"\"label\": \"adc\", \"emulate\": {\"AIN0\": 1000, \"AIN1\": 1100, \"AIN3\": 625}}"
/* ad7998 without vref_mv: 3300 mV over 12 bits (K-8) */
#define RT_ADC2 "{\"driver\": \"ad7998\", \"bus\": \"i2c-0\", \"address\": \"0x21\", " \
	"\"label\": \"adc2\", \"emulate\": {\"voltage0\": 1000, \"voltage1\": 2403}}"
/* tsl2563: illuminance0 is processed only */
#define RT_LIGHT "{\"driver\": \"tsl2563\", \"bus\": \"i2c-0\", \"address\": \"0x39\", " \
	"\"label\": \"light\", \"emulate\": {\"broadband\": 1000, \"ir\": 200}}"
/* iio_dummy: in_voltage0 raw 73, offset 7, scale 0.001333 (INT_PLUS_MICRO) */
#define RT_DUMMY "{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"}"

/* The front end's channel type, from its driver name. */
static const char *rt_chan(const char *afe)
{
	if (strstr(afe, "divider"))
		return "voltage0";
	if (strstr(afe, "temperature"))
		return "temp0";
	return "current0";
}

static struct board *rt_load(const char *afe, char *err)
{
	char json[4096];

	snprintf(json, sizeof(json),
		 "{\"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}}, "
		 "\"devices\": [" RT_ADC ", " RT_ADC2 ", " RT_LIGHT ", " RT_DUMMY ", %s], "
		 "\"maps\": [{\"adc_dev_name\": \"afe\", \"adc_channel_label\": \"%s\", "
		 "\"consumer_dev_name\": \"hw\", \"consumer_channel\": \"c\"}]}",
		 afe, rt_chan(afe));
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

#define RT_AFE(drv, dev, chan, props) "{\"driver\": \"" drv "\", \"name\": \"afe\", " \
	"\"io_device\": \"" dev "\", \"io_channel\": \"" chan "\", " props "}"

/*
 * One front end: its raw, scale and offset attributes as the kernel prints
 * them ("" for an attribute it does not have) and a mapped consumer's
 * processed value. The digits come from the kernel's rescale_process_scale()
 * and rescale_process_offset() worked by hand for these sources.
 */
struct rt_kind {
	const char *name;
	const char *afe;
	const char *raw, *scale, *offset;
	int processed;		/* iio_read_channel_processed_scale() with @mult */
	unsigned int mult;
};

static const struct rt_kind rt_kinds[] = {
	/* AIN3 625 mV at 0.5 mV/LSB = 1250; x2 (1e6 / (10000 * 50)) -> 1250 mA */
	{ "amplifier", RT_AFE("current-sense-amplifier", "adc", "AIN3",
			      "\"sense_resistor_micro_ohms\": 10000, \"sense_gain_mult\": 50"),
	  "1250\n", "1.000000000\n", "", 1250, 1 },
	/* 100 mOhm shunt: 0.5 mV/LSB x 10 = 5 mA/LSB */
	{ "shunt", RT_AFE("current-sense-shunt", "0-0034", "AIN3",
			  "\"shunt_resistor_micro_ohms\": 100000"),
	  "1250\n", "5.000000000\n", "", 6250, 1 },
	/* 1:3 divider on AIN0 (1000 mV): the input saw 3000 mV */
	{ "divider", RT_AFE("voltage-divider", "adc", "AIN0",
			    "\"full_ohms\": 30000, \"output_ohms\": 10000"),
	  "2000\n", "1.500000000\n", "", 3000, 1 },
	/*
	 * 7 uOhm over 2048/2^12: the kernel divides 2048e9 by 7, multiplies by
	 * 1e6, then splits by 4096: 71428.571428466 (exact: ...571428571)
	 */
	{ "log2 divide then multiply", RT_AFE("current-sense-shunt", "adc", "AIN0",
					      "\"shunt_resistor_micro_ohms\": 7"),
	  "2000\n", "71428.571428466\n", "", 142857142, 1 },
	/* dummy voltage0 (raw 73, offset 7, 0.001333): 6 decimals, its offset not carried */
	{ "INT_PLUS_MICRO source, its offset dropped", RT_AFE("voltage-divider", "dummy0", "voltage0",
			"\"full_ohms\": 3, \"output_ohms\": 1"),
	  "73\n", "0.003999\n", "", 291927, 1000000 },
	/* PT1000 at 1 mA, 3908 ppm/K: ratio 250000/977, offset -1000 mV = -2000 LSB */
	{ "temperature-sense-rtd", RT_AFE("temperature-sense-rtd", "adc", "AIN1",
			"\"excitation_current_microamp\": 1000, \"alpha_ppm_per_celsius\": 3908, "
			"\"r_naught_ohms\": 1000"),
	  "2200\n", "127.942681640\n", "-2000\n", 25588, 1 },
	/*
	 * AD590 (1 uA/K) into 8060 Ohm, -273.15 C: ratio 1e6/8060,
	 * offset -2201 mV = -2731 LSB at 3300/2^12; 2403 mV is 25.089 C
	 */
	{ "temperature-transducer", RT_AFE("temperature-transducer", "adc2", "voltage1",
			"\"sense_offset_millicelsius\": -273150, \"sense_resistor_ohms\": 8060, "
			"\"alpha_ppm_per_celsius\": 1"),
	  "2982\n", "99.958320312\n", "-2731\n", 25089, 1 },
	/* tsl2563 illuminance0 is processed only: raw is the lux, scale 1/1 x 3 */
	{ "processed-only source", RT_AFE("voltage-divider", "light", "illuminance0",
			"\"full_ohms\": 30000, \"output_ohms\": 10000"),
	  "25\n", "3.000000000\n", "", 75, 1 },
	/*
	 * 1 uOhm over 3300/2^12: the kernel's 3300e6 leaves int and it prints
	 * -242911.937500000; iiowire prints the right value (K-9)
	 */
	{ "kernel overflow, right value", RT_AFE("current-sense-shunt", "adc2", "voltage0",
			"\"shunt_resistor_micro_ohms\": 1"),
	  "1241\n", "805664.062500000\n", "", 999829101, 1 },
};

static int rt_check_attr(struct board *b, const char *chan, const char *suffix, const char *want,
			 const char *row)
{
	char attr[64], buf[64];

	snprintf(attr, sizeof(attr), "in_%s_%s", chan, suffix);
	rt_read(b, attr, buf, sizeof(buf));
	if (strcmp(buf, want) == 0)
		return 1;
	fprintf(stderr, "%s: %s is '%s', want '%s'\n", row, attr, buf, want);
	return 0;
}

static void test_kinds(void)
{
	char err[BOARD_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(rt_kinds) / sizeof(rt_kinds[0]); i++) {
		const struct rt_kind *k = &rt_kinds[i];
		struct board *b = rt_load(k->afe, err);
		const char *chan = rt_chan(k->afe);
		struct iio_channel *ch = NULL;
		int val = 0;

		TEST_ROW_ASSERT(b != NULL, k->name);
		if (!b) {
			fprintf(stderr, "%s: %s\n", k->name, err);
			continue;
		}
		TEST_ROW_ASSERT(rt_check_attr(b, chan, "raw", k->raw, k->name), k->name);
		TEST_ROW_ASSERT(rt_check_attr(b, chan, "scale", k->scale, k->name), k->name);
		TEST_ROW_ASSERT(rt_check_attr(b, chan, "offset", k->offset, k->name), k->name);
		TEST_ROW_ASSERT(iio_channel_get(b->reg, "hw", "c", &ch) == 0, k->name);
		if (ch) {
			TEST_ROW_ASSERT(iio_read_channel_processed_scale(ch, &val, k->mult) >= 0 &&
					val == k->processed, k->name);
			if (val != k->processed)
				fprintf(stderr, "%s: processed %d, want %d\n", k->name, val,
					k->processed);
			iio_channel_release(ch);
		}
		board_destroy(b);
	}
}
TEST_CASE(test_kinds, "front-end kinds: raw, scale and offset digit for digit, processed");

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
		{ "nothing to rescale", RT_AFE("voltage-divider", "dummy0", "accel_x",
					       "\"full_ohms\": 2, \"output_ohms\": 1"),
		  "dummy0 accel_x has neither a raw value with a scale or offset nor a processed" },
		{ "transducer without alpha", RT_AFE("temperature-transducer", "adc", "AIN0",
						     "\"sense_resistor_ohms\": 8060"),
		  "needs positive alpha_ppm_per_celsius" },
		{ "rtd without r0", RT_AFE("temperature-sense-rtd", "adc", "AIN0",
			"\"excitation_current_microamp\": 1000, \"alpha_ppm_per_celsius\": 3908"),
		  "needs positive excitation_current_microamp, alpha_ppm_per_celsius and "
		  "r_naught_ohms" },
		/* r0 * iexc * alpha / 10^6 is 0: the kernel's message */
		{ "rtd ratio zero", RT_AFE("temperature-sense-rtd", "adc", "AIN0",
			"\"excitation_current_microamp\": 10, \"alpha_ppm_per_celsius\": 1, "
			"\"r_naught_ohms\": 100"), "invalid scaling factor 1/0" },
		/* the kernel's u32 r0 * iexc * alpha: 65536^2 is one past it, so it would wrap */
		{ "rtd product past u32", RT_AFE("temperature-sense-rtd", "adc", "AIN0",
			"\"excitation_current_microamp\": 65536, \"alpha_ppm_per_celsius\": 1, "
			"\"r_naught_ohms\": 65536"), "ratio does not fit the kernel's 32-bit" },
		/* the kernel's s32 denominator 3 * (2^31 - 1) would wrap */
		{ "amplifier ratio past s32", RT_AFE("current-sense-amplifier", "adc", "AIN0",
			"\"sense_resistor_micro_ohms\": 3, \"sense_gain_mult\": 2147483647"),
		  "ratio does not fit the kernel's 32-bit" },
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

/* The last figures the kernel's 32-bit ratio arithmetic holds still bind. */
static void test_limits(void)
{
	static const struct { const char *name; const char *afe; const char *scale; } rows[] = {
		/* r0 * iexc * alpha = 65535 * 65537 = 2^32 - 1: tmp 4294, ratio 500000/2147 */
		{ "rtd product at u32 max", RT_AFE("temperature-sense-rtd", "adc", "AIN0",
			"\"excitation_current_microamp\": 65537, \"alpha_ppm_per_celsius\": 1, "
			"\"r_naught_ohms\": 65535"), "116.441546264\n" },
		/* denominator 2^31 - 1, the largest s32 */
		{ "amplifier denominator at s32 max", RT_AFE("current-sense-amplifier", "adc", "AIN0",
			"\"sense_resistor_micro_ohms\": 1, \"sense_gain_mult\": 2147483647"),
		  "0.000232666\n" },
	};
	char err[BOARD_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct board *b = rt_load(rows[i].afe, err);

		TEST_ROW_ASSERT(b != NULL, rows[i].name);
		if (!b) {
			fprintf(stderr, "%s: %s\n", rows[i].name, err);
			continue;
		}
		TEST_ROW_ASSERT(rt_check_attr(b, rt_chan(rows[i].afe), "scale", rows[i].scale,
					      rows[i].name), rows[i].name);
		board_destroy(b);
	}
}
TEST_CASE(test_limits, "ratio limits at the kernel's 32-bit bounds");

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
