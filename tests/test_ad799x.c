/*
 * test_ad799x.c - the ad799x driver (drivers/adc/ad799x.c) against its chip
 * model on the emulated bus: every part's name, inputs and scale (default
 * supply and vref_mv), attribute sets without datasheet names, raw values,
 * saturation, the ad7991's external reference, one transfer a read, each
 * bus fault, and probe failures (no chip, bus errors, a different chip);
 * with an interrupt line, the model's ALERT reaching the event queue as
 * the kernel's codes (conversions by command and by the cycle timer,
 * hysteresis, the status cleared).
 * Tests are tables of named rows; the row name is what CUnit reports.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iio_event.h"
#include "testutil.h"
#include "sensortest.h"	/* sensortest_next_event() */

#define AD799X_TEST_ADDR	0x21

#define AD799X_CASES_BACKEND	(&chiptest_emulated)
#define AD799X_CASES_ADDR	AD799X_TEST_ADDR
#include "ad799x_cases.h"
#define NROWS(a)		CHIPSUITE_NROWS(a)

/* ---- every part ---- */

struct part_row {
	const char *name;
	int ninputs;
	const char *scale_vdd;		/* no vref_mv: 3300 mV over 2^bits */
	const char *scale_4096;		/* vref_mv 4096 */
	int raw_vdd;			/* voltage0 at 1000 mV, 3300 mV reference */
	int raw_4096;			/* the last input at 1500 mV, 4096 mV reference */
	unsigned long probe_transfers;	/* configuration write (+ read back) */
};

static const struct part_row part_rows[] = {
	{ "ad7991", 4, "0.805664062", "1.000000000", 1241, 1500, 1 },
	{ "ad7995", 4, "3.222656250", "4.000000000", 310, 375, 1 },
	{ "ad7999", 4, "12.890625000", "16.000000000", 77, 93, 1 },
	{ "ad7992", 2, "0.805664062", "1.000000000", 1241, 1500, 2 },
	{ "ad7993", 4, "3.222656250", "4.000000000", 310, 375, 2 },
	{ "ad7994", 4, "0.805664062", "1.000000000", 1241, 1500, 2 },
	{ "ad7997", 8, "3.222656250", "4.000000000", 310, 375, 2 },
	{ "ad7998", 8, "0.805664062", "1.000000000", 1241, 1500, 2 },
};

static void test_every_part(void)
{
	size_t r;
	int pass;

	for (r = 0; r < NROWS(part_rows); r++) {
		const struct part_row *row = &part_rows[r];

		/* pass 0: no vref_mv (the default supply); pass 1: vref_mv 4096 */
		for (pass = 0; pass < 2; pass++) {
			struct chiptest_props props = { pass == 1, 4096 };
			char last[24], want[32], buf[64];
			struct emu_input in[2];
			struct chiptest ct;
			int val = -1, ret;

			snprintf(last, sizeof(last), "voltage%d", row->ninputs - 1);
			in[0] = (struct emu_input)CHIPTEST_CONST("voltage0", 1000);
			in[1] = (struct emu_input)CHIPTEST_CONST(last, 1500);
			ret = chiptest_setup(&ct, row->name, AD799X_TEST_ADDR, in, 2, &props);
			TEST_ROW_ASSERT(ret == 0, row->name);
			if (ret) {
				fprintf(stderr, "%s: %s\n", row->name, ct.err);
				continue;
			}
			TEST_ROW_ASSERT(emu_bus_transfers(ct.bus, AD799X_TEST_ADDR) ==
					row->probe_transfers, row->name);
			snprintf(want, sizeof(want), "%s\n", row->name);
			TEST_ROW_ASSERT(chiptest_read(ct.dev, "name", buf, sizeof(buf)) > 0 &&
					strcmp(buf, want) == 0, row->name);
			TEST_ROW_ASSERT(chipsuite_count_attrs(ct.dev, "in_voltage%d_raw") ==
					row->ninputs, row->name);
			snprintf(want, sizeof(want), "%s\n",
				 pass ? row->scale_4096 : row->scale_vdd);
			TEST_ROW_ASSERT(chiptest_read(ct.dev, "in_voltage_scale", buf,
						      sizeof(buf)) > 0 && strcmp(buf, want) == 0,
					row->name);
			if (pass == 0) {
				TEST_ROW_ASSERT(chiptest_read_int(ct.dev, "in_voltage0_raw",
								  &val) == 0 &&
						val == row->raw_vdd, row->name);
			} else {
				snprintf(want, sizeof(want), "in_voltage%d_raw", row->ninputs - 1);
				TEST_ROW_ASSERT(chiptest_read_int(ct.dev, want, &val) == 0 &&
						val == row->raw_4096, row->name);
			}
			chiptest_teardown(&ct);
		}
	}
}
TEST_CASE(test_every_part, "every part: name, inputs, scale, raw");

/* ---- bus traffic ---- */

static void test_transfers(void)
{
	static const char *const parts[] = { "ad7991", "ad7994", "ad7998" };
	size_t p;

	for (p = 0; p < NROWS(parts); p++)
		chipsuite_transfers_vectors(&chiptest_emulated, parts[p], AD799X_TEST_ADDR,
					    NULL, 0, -1, "ad799x");
}
TEST_CASE(test_transfers, "one transfer a conversion");

/* ---- probe failures ---- */

static const struct chipsuite_probe_row probe_rows[] = {
	{ "ad7998, no chip", "ad7998", NULL, 0, EMU_FAULT_NONE, -ENXIO, "no answer (ENXIO)" },
	{ "ad7991, no chip", "ad7991", NULL, 0, EMU_FAULT_NONE, -ENXIO, "no answer (ENXIO)" },
	{ "ad7994, bus error", "ad7994", "ad7994", 0, EMU_FAULT_EIO, -EIO, "no answer (EIO)" },
	{ "ad7997, hung chip", "ad7997", "ad7997", 0, EMU_FAULT_HANG, -ETIMEDOUT,
	  "no answer (ETIMEDOUT)" },
	{ "ad7998 driver, max1363 chip", "ad7998", "max1363", 0, EMU_FAULT_NONE, -EIO,
	  "configuration reads back 0xf000, wrote 0x0000 (EIO)" },
	{ "ad7994 driver, max1363 chip", "ad7994", "max1363", 0, EMU_FAULT_NONE, -EIO,
	  "configuration reads back 0x00f0, wrote 0x0000 (EIO)" },
};

static void test_probe_failure(void)
{
	chipsuite_probe(&chiptest_emulated, AD799X_TEST_ADDR, probe_rows, NROWS(probe_rows));
}
TEST_CASE(test_probe_failure, "probe failures name bus and address");

/* ---- the ALERT line -> events ---- */

/* How long an event may take to come (the line is sampled every IIO_IRQ_EMU_POLL_US). */
#define AD799X_EVENT_WAIT_MS	2000

struct ad799x_alert_row {
	const char *name;
	const char *part;
	const char *const *writes;	/* attribute, value pairs, NULL-ended */
	const char *read;		/* a raw read that converts, or NULL (the cycle timer) */
	uint64_t code;
};

static const char *const alert_w_falling[] = {
	"events/in_voltage1_thresh_falling_value", "1200",
	"events/in_voltage1_thresh_falling_en", "1", NULL };
static const char *const alert_w_rising[] = {
	"events/in_voltage3_thresh_rising_value", "2999",
	"events/in_voltage3_thresh_rising_en", "1", NULL };
/* 10 bits: 3000 mV of 4096 is code 732; 700 is 2800 in the register */
static const char *const alert_w_cycle[] = {
	"events/in_voltage3_thresh_rising_value", "700",
	"events/in_voltage3_thresh_rising_en", "1",
	"events/sampling_frequency", "15625", NULL };

/* voltage1 at 1000 mV and voltage3 at 3000 mV on a 4096 mV reference */
static const struct ad799x_alert_row alert_rows[] = {
	{ "ad7998 voltage1 falling, by a raw read", "ad7998", alert_w_falling, "in_voltage1_raw",
	  0x0002000000000001ull },
	{ "ad7994 voltage3 rising, by a raw read", "ad7994", alert_w_rising, "in_voltage3_raw",
	  0x0001000000000003ull },
	{ "ad7993 voltage3 rising, 10 bits, by the cycle timer", "ad7993", alert_w_cycle, NULL,
	  0x0001000000000003ull },
};

static void ad799x_alert_one(const struct ad799x_alert_row *row)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("voltage1", 1000), CHIPTEST_CONST("voltage3", 3000),
	};
	struct chiptest_props props = { true, 4096, true };
	struct bus_i2c_client *chip;
	struct chiptest ct;
	char buf[32];
	int i;

	if (chiptest_setup(&ct, row->part, AD799X_TEST_ADDR, in, 2, &props) ||
	    bus_i2c_client_create(ct.bus, AD799X_TEST_ADDR, &chip)) {
		TEST_ROW_ASSERT(0, row->name);
		chiptest_teardown(&ct);
		return;
	}
	TEST_ROW_ASSERT(iio_event_open(ct.dev, chipsuite_event_wake, NULL) == 0, row->name);
	for (i = 0; row->writes[i]; i += 2)
		TEST_ROW_ASSERT(chiptest_write(ct.dev, row->writes[i], row->writes[i + 1]) == 0,
				row->name);
	if (row->read)
		TEST_ROW_ASSERT(chiptest_read(ct.dev, row->read, buf, sizeof(buf)) > 0, row->name);
	TEST_ROW_ASSERT(sensortest_next_event(ct.dev, AD799X_EVENT_WAIT_MS) == row->code, row->name);
	/* the handler cleared the status; the chip stays out of its window */
	TEST_ROW_ASSERT(bus_smbus_read_byte_data(chip, 0x1) == 0, row->name);
	if (row->read) {
		/* still past the limit, not back by the hysteresis: no new alert */
		TEST_ROW_ASSERT(chiptest_read(ct.dev, row->read, buf, sizeof(buf)) > 0, row->name);
		TEST_ROW_ASSERT(bus_smbus_read_byte_data(chip, 0x1) == 0, row->name);
	}
	bus_i2c_client_destroy(chip);
	chiptest_teardown(&ct);
}

static void test_alert_events(void)
{
	struct chiptest_props props = { true, 4096, false };
	struct chiptest ct;
	size_t r;

	for (r = 0; r < NROWS(alert_rows); r++)
		ad799x_alert_one(&alert_rows[r]);
	/* no line in the board: the noirq table, no event interface */
	CU_ASSERT_EQUAL_FATAL(chiptest_setup(&ct, "ad7998", AD799X_TEST_ADDR, NULL, 0, &props), 0);
	CU_ASSERT_PTR_NULL(iio_device_attr_find(ct.dev, "events/sampling_frequency"));
	CU_ASSERT_EQUAL(iio_event_open(ct.dev, chipsuite_event_wake, NULL), -ENODEV);
	chiptest_teardown(&ct);
}
TEST_CASE(test_alert_events, "ALERT -> the kernel's event codes; status cleared; no irq, no events");

/* ---- capture traffic: the kernel's one block read a scan ---- */

/*
 * @config: the configuration's channel bits after the enable (the scan
 * mask, timestamp bit included, as ad799x_update_scan_mode writes it;
 * -1: the part keeps it for its next command); @enable: transfers of the
 * enable.
 */
struct capture_traffic_row {
	const char *part;
	uint64_t mask;
	int conf_reg;
	int config;
	unsigned long enable;
};

static const struct capture_traffic_row capture_traffic_rows[] = {
	/* the timestamp's bit is written too (12, 8, 7 here) but no register keeps it */
	{ "ad7998", 0x9, 0x2, 0x090, 1 },
	{ "ad7994", 0x9, 0x2, 0x90, 1 },
	{ "ad7992", 0x2, 0x2, 0x20, 1 },
	{ "ad7991", 0x5, -1, -1, 0 },
};

static void capture_traffic_one(const struct capture_traffic_row *row)
{
	struct chiptest_props props = { true, 4096, false };
	struct chipsuite_reader r = { .buf = { .ops = &chipsuite_reader_ops, .mask = row->mask,
					       .timestamp = true } };
	struct bus_i2c_client *chip;
	struct iio_trigger *t;
	unsigned long before;
	struct chiptest ct;
	char err[160];
	int cfg, i;

	r.buf.priv = &r;
	if (chiptest_setup(&ct, row->part, AD799X_TEST_ADDR, NULL, 0, &props) ||
	    bus_i2c_client_create(ct.bus, AD799X_TEST_ADDR, &chip)) {
		TEST_ROW_ASSERT(0, row->part);
		chiptest_teardown(&ct);
		return;
	}
	TEST_ROW_ASSERT(iio_hrtimer_trigger_create(ct.reg, "hrt0", &t) == 0 &&
			iio_device_set_trigger(ct.dev, t) == 0, row->part);
	before = emu_bus_transfers(ct.bus, AD799X_TEST_ADDR);
	TEST_ROW_ASSERT(iio_buffer_attach(ct.dev, &r.buf, err, sizeof(err)) == 0, row->part);
	TEST_ROW_ASSERT(emu_bus_transfers(ct.bus, AD799X_TEST_ADDR) - before == row->enable,
			row->part);
	for (i = 0; i < CHIPSUITE_CAPTURE_SCANS; i++) {
		before = emu_bus_transfers(ct.bus, AD799X_TEST_ADDR);
		iio_trigger_poll(t, CHIPSUITE_CAPTURE_TS + i);
		iio_device_buffers_drain(ct.dev);
		/* one block read of every enabled result, whatever their number */
		TEST_ROW_ASSERT(emu_bus_transfers(ct.bus, AD799X_TEST_ADDR) - before == 1,
				row->part);
	}
	TEST_ROW_ASSERT(r.n == CHIPSUITE_CAPTURE_SCANS && !r.lost, row->part);
	iio_buffer_detach(ct.dev, &r.buf);
	if (row->conf_reg >= 0) {
		cfg = !strcmp(row->part, "ad7998") ? bus_smbus_read_word_swapped(chip, (uint8_t)row->conf_reg)
					 : bus_smbus_read_byte_data(chip, (uint8_t)row->conf_reg);
		TEST_ROW_ASSERT(cfg >= 0 && (cfg & 0x1ff0) == row->config, row->part);
		if (cfg < 0 || (cfg & 0x1ff0) != row->config)
			fprintf(stderr, "\n%s: config 0x%x\n", row->part, (unsigned int)cfg);
	}
	bus_i2c_client_destroy(chip);
	chiptest_teardown(&ct);
}

static void test_capture_traffic(void)
{
	size_t r;

	for (r = 0; r < NROWS(capture_traffic_rows); r++)
		capture_traffic_one(&capture_traffic_rows[r]);
}
TEST_CASE(test_capture_traffic,
	  "capture: the scan mask in the configuration, one block read a scan (kernel's)");

AD799X_CASES_TESTS("");

TEST_MAIN("ad799x", NULL, NULL)
