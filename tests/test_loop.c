/*
 * test_loop.c - the closed loop of the emulated boards: an ADC input wired
 * to a DAC's output pin ({"dac": "DEVICE:voltageN"}, maps/README.md), on
 * the demo board and on boards built to break it.
 *
 * What must hold: a ramp played through maps/demo.json's loop-dac (AD5766,
 * -5..+5 V) and captured by loop-adc (a MAX1237 of the max1363 driver, 2048
 * mV internal reference) on the same trigger is the ramp through both
 * chips' scales within one
 * ADC LSB, computed here from the datasheets (DAC: -5000 + code x 10000 /
 * 2^16 mV; ADC: floor(mV x 2^12 / 2048)); with the DAC's output enabled
 * first each scan sees the code of its own poll, with the capture enabled
 * first it sees the previous poll's (one scan late: the consumers of one
 * trigger run in turn). A same-bus wire reads without deadlocking; the
 * errors (no such device, voltage15/voltage16 of a 16-output DAC, an input,
 * a device that is no emulated DAC, a cycle of buses) are refused with
 * their path.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "sensortest.h"
#include "board.h"
#include "iio_buffer.h"
#include "iio_kit.h"
#include "iio_trigger.h"

#define LOOP_SCANS	64
#define LOOP_CODE0	32768	/* 0 V on the -5..+5 V span */
#define LOOP_STEP	200	/* DAC codes per scan: 30.5 mV, about 61 ADC LSBs */
#define LOOP_ADC_LSB_MV	(2048.0 / 4096)

struct loop_reader {
	struct iio_buffer buf;
	unsigned int code[LOOP_SCANS + 2];
	int n;
};

static void loop_store(struct iio_buffer *buf, const uint8_t *rec, uint64_t lost)
{
	struct loop_reader *r = buf->priv;

	(void)lost;
	/* the MAX1237's scan element: be:u12/16 */
	if (r->n < LOOP_SCANS + 2)
		r->code[r->n] = ((unsigned int)rec[0] << 8 | rec[1]) & 0xfff;
	r->n++;
}

static void loop_end(struct iio_buffer *buf, int err)
{
	(void)buf;
	(void)err;
}

static const struct iio_buffer_ops loop_reader_ops = { .store = loop_store, .end = loop_end };
static const struct iio_buffer_ops loop_writer_ops = { .end = loop_end };

/* The DAC's pin for @code: the AD5766 span -5..+5 V over 2^16 codes. */
static double loop_dac_mv(unsigned int code)
{
	return -5000.0 + code * 10000.0 / 65536.0;
}

/* What the MAX1237 converts @mv to: unipolar, clamped to 0..4095. */
static unsigned int loop_adc_code(double mv)
{
	double c = floor(mv * 4096.0 / 2048.0);

	return c < 0 ? 0 : c > 4095 ? 4095 : (unsigned int)c;
}

static struct iio_dev *loop_dev(struct board *b, const char *label)
{
	struct iio_dev *d = NULL;

	CU_ASSERT_EQUAL_FATAL(iio_registry_find(b->reg, label, &d, NULL, 0), 0);
	return d;
}

/*
 * Play the ramp on demo.json's loop-dac voltage0 and capture loop-adc's
 * AIN0 on hrt0; @dac_first enables the output before the capture.
 * @r gets the ADC codes, one per poll (LOOP_SCANS + 1 polls).
 */
static void loop_run(bool dac_first, struct loop_reader *r)
{
	uint16_t ramp[LOOP_SCANS];
	struct iio_buffer w = { .ops = &loop_writer_ops, .mask = 1,
				.direction = IIO_BUFFER_DIRECTION_OUT, .length = LOOP_SCANS };
	char err[BOARD_ERR_MAX];
	struct board *b = board_load(test_path("maps/demo.json"), err, sizeof(err));
	struct iio_dev *dac, *adc;
	struct iio_trigger *t;
	int i;

	if (!b)
		fprintf(stderr, "demo.json: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	dac = loop_dev(b, "loop-dac");
	adc = loop_dev(b, "loop-adc");
	t = iio_trigger_find(b->reg, "hrt0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(iio_device_set_trigger(dac, t), 0);
	CU_ASSERT_EQUAL(iio_device_set_trigger(adc, t), 0);
	memset(r, 0, sizeof(*r));
	r->buf = (struct iio_buffer){ .ops = &loop_reader_ops, .mask = 1, .priv = r };
	for (i = 0; i < LOOP_SCANS; i++)
		ramp[i] = (uint16_t)(LOOP_CODE0 + i * LOOP_STEP);
	/* the trigger runs its consumers in the order their buffers were enabled */
	if (!dac_first)
		CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(adc, &r->buf, NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(dac, &w, NULL, 0), 0);
	if (dac_first)
		CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(adc, &r->buf, NULL, 0), 0);
	CU_ASSERT_EQUAL(iio_buffer_write_scans(dac, &w, ramp, LOOP_SCANS), LOOP_SCANS);
	for (i = 0; i <= LOOP_SCANS; i++) {
		iio_trigger_poll(t, 1000000LL * (i + 1));
		iio_device_buffers_drain(adc);
	}
	CU_ASSERT_EQUAL(r->n, LOOP_SCANS + 1);
	CU_ASSERT_EQUAL(iio_buffer_underruns(dac), 1);	/* the last poll found the queue empty */
	iio_buffer_detach(adc, &r->buf);
	iio_buffer_detach(dac, &w);
	board_destroy(b);
}

/* Poll @i captured code @code: within one ADC LSB of DAC code @dac's pin, and its exact code. */
static bool loop_matches(unsigned int code, unsigned int dac)
{
	double mv = loop_dac_mv(dac);

	return code == loop_adc_code(mv) && fabs(code * LOOP_ADC_LSB_MV - mv) < LOOP_ADC_LSB_MV;
}

static void test_ramp_same_scan(void)
{
	struct loop_reader r;
	int i;

	loop_run(true, &r);
	for (i = 0; i < LOOP_SCANS; i++)
		TEST_ROW_ASSERT(loop_matches(r.code[i], LOOP_CODE0 + i * LOOP_STEP), "scan");
	/* the DAC holds its last code on an underrun: so does the loop */
	CU_ASSERT(loop_matches(r.code[LOOP_SCANS], LOOP_CODE0 + (LOOP_SCANS - 1) * LOOP_STEP));
	/* 63 x 200 codes: 1922.6 mV, code 3845 (floor(1922.607 x 2)) */
	CU_ASSERT_EQUAL(r.code[LOOP_SCANS - 1], 3845);
}
TEST_CASE(test_ramp_same_scan, "a ramp played through loop-dac is loop-adc's capture, same poll");

static void test_ramp_one_late(void)
{
	struct loop_reader r;
	int i;

	loop_run(false, &r);
	/* the first poll converts before the DAC's first pop: the probe's code 0, -5 V, reads 0 */
	CU_ASSERT_EQUAL(r.code[0], 0);
	for (i = 1; i <= LOOP_SCANS; i++)
		TEST_ROW_ASSERT(loop_matches(r.code[i], LOOP_CODE0 + (i - 1) * LOOP_STEP), "scan");
}
TEST_CASE(test_ramp_one_late, "capture enabled first: each scan is the previous poll's code");

/* Write @code to @dac's out_voltage0_raw, then read @adc's in_voltage0_raw: does it read @want? */
static bool loop_through(struct board *b, const char *dac, const char *code, const char *adc,
			 const char *want)
{
	char buf[SENSORTEST_VALUE_MAX] = "";

	if (sensortest_write(loop_dev(b, dac), "out_voltage0_raw", code) ||
	    sensortest_read(loop_dev(b, adc), "in_voltage0_raw", buf, sizeof(buf)) < 0 ||
	    strcmp(buf, want)) {
		fprintf(stderr, "\n%s %s -> %s: read '%s', want '%s'\n", dac, code, adc, buf, want);
		return false;
	}
	return true;
}

static void test_demo_write(void)
{
	char err[BOARD_ERR_MAX];
	struct board *b = board_load(test_path("maps/demo.json"), err, sizeof(err));

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	/* maps/README.md's example: -5000 + 40960 x 10000 / 65536 = 1250 mV, 2500 x 0.5 mV */
	CU_ASSERT(loop_through(b, "loop-dac", "40960", "loop-adc", "2500\n"));
	/* the span's top, +5 V - 1 LSB, is past the ADC's 2048 mV: it clamps to full scale */
	CU_ASSERT(loop_through(b, "loop-dac", "65535", "loop-adc", "4095\n"));
	/* below 0 V the unipolar input reads 0 */
	CU_ASSERT(loop_through(b, "loop-dac", "32767", "loop-adc", "0\n"));
	board_destroy(b);
}
TEST_CASE(test_demo_write, "demo.json: out_voltage0_raw on loop-dac is in_voltage0_raw on loop-adc");

/* A board of @devices on i2c-0 and spi0; NULL (with the message in @err) if refused. */
static struct board *loop_board(const char *devices, char *err, size_t errlen)
{
	char json[2048];

	snprintf(json, sizeof(json),
		 "{\"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}, "
		 "\"spi0\": {\"type\": \"spi\", \"backend\": \"emulated\"}}, "
		 "\"devices\": [{\"driver\": \"ad5622\", \"bus\": \"i2c-0\", \"address\": 12, "
		 "\"label\": \"i2c-dac\", \"vref_mv\": 2048}, "
		 "{\"driver\": \"ad5766\", \"bus\": \"spi0\", \"cs\": 0, \"label\": \"spi-dac\", "
		 "\"output-range-microvolts\": \"-5000000 5000000\"}, %s]}", devices);
	return board_load_string(json, "t.json", err, errlen);
}

#define LOOP_ADC(label, wire)							\
	"{\"driver\": \"max1363\", \"bus\": \"i2c-0\", \"address\": 52, \"label\": \"" label "\", " \
	"\"emulate\": {\"AIN0\": {\"dac\": \"" wire "\"}}}"
#define LOOP_SPI_ADC(wire)							\
	"{\"driver\": \"mcp3202\", \"bus\": \"spi0\", \"cs\": 1, \"vref_mv\": 3300, "	\
	"\"emulate\": {\"CH0\": {\"dac\": \"" wire "\"}}}"

static void test_same_bus(void)
{
	char err[BOARD_ERR_MAX];
	struct board *b = loop_board(LOOP_ADC("adc", "i2c-dac:voltage0"), err, sizeof(err));

	if (!b)
		fprintf(stderr, "%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	/* AD5622, 12 bits over 2048 mV: code 3000 is 1500 mV, the MAX1363's code 3000 */
	CU_ASSERT(loop_through(b, "i2c-dac", "3000", "adc", "3000\n"));
	board_destroy(b);
}
TEST_CASE(test_same_bus, "a DAC and the ADC it feeds on one bus: no deadlock, the pin's value");

struct loop_err_row {
	const char *what;
	const char *devices;
	const char *err;	/* NULL: loads */
};

static const struct loop_err_row loop_err_rows[] = {
	{ "voltage15 of 16 outputs (N)", LOOP_ADC("adc", "spi-dac:voltage15"), NULL },
	{ "voltage16 (N+1)", LOOP_ADC("adc", "spi-dac:voltage16"),
	  "t.json: devices[2].emulate.AIN0.dac: ad5766 has no channel voltage16 (outputs: " },
	{ "no such device", LOOP_ADC("adc", "nodac:voltage0"),
	  "t.json: devices[2].emulate.AIN0.dac: no device nodac before this one" },
	{ "not DEVICE:CHANNEL", LOOP_ADC("adc", "spi-dac"),
	  "t.json: devices[2].emulate.AIN0.dac: expected \"DEVICE:voltageN\", a DAC's output" },
	{ "an input", LOOP_ADC("adc", "i2c-dac:voltage0") ", " LOOP_SPI_ADC("adc:voltage1"),
	  "t.json: devices[3].emulate.CH0.dac: max1363's voltage1 is an input, not an output "
	  "(outputs: none)" },
	{ "no emulated DAC", "{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"}, "
	  LOOP_ADC("adc", "dummy0:voltage0"),
	  "t.json: devices[3].emulate.AIN0.dac: dummy0 is no DAC model on an emulated bus" },
	{ "one way across buses", LOOP_ADC("adc", "spi-dac:voltage0") ", "
	  LOOP_SPI_ADC("spi-dac:voltage1"), NULL },
	{ "a cycle of buses", LOOP_ADC("adc", "spi-dac:voltage0") ", "
	  LOOP_SPI_ADC("i2c-dac:voltage0"),
	  "t.json: devices[3].emulate.CH0.dac: i2c-dac:voltage0 closes a cycle: bus i2c-0 "
	  "already reads a DAC on spi0" },
};

static void test_errors(void)
{
	char err[BOARD_ERR_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(loop_err_rows); i++) {
		const struct loop_err_row *row = &loop_err_rows[i];
		struct board *b;

		err[0] = '\0';
		b = loop_board(row->devices, err, sizeof(err));
		if (row->err ? b || strncmp(err, row->err, strlen(row->err)) : !b)
			fprintf(stderr, "\n%s: %s\n", row->what, err);
		TEST_ROW_ASSERT(row->err ? !b && !strncmp(err, row->err, strlen(row->err)) : !!b,
				row->what);
		board_destroy(b);
	}
}
TEST_CASE(test_errors, "the dac key's errors, with their paths");

TEST_MAIN("loop", NULL, NULL)
