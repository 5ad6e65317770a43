/*
 * test_ad5766.c - the ad5766/ad5767 driver on its register model over an
 * emulated SPI bus, and through it the core's output direction: the
 * kernel's attribute set, scales and offsets from the span table, raw
 * values at N and N+1, the output range property, the dither files; then
 * buffered output: out_ scan elements, buffer/direction "out", a writer's
 * queue limited at its length (N taken, N+1 not), one scan popped per
 * trigger poll and loaded into the DAC registers (read back over SPI), an
 * empty buffer's pop counted as an underrun with the outputs held, the
 * writer woken once when the queue falls to half, one writer at a time
 * (EBUSY), an input reader refused (EPERM), and a cyclic block repeated.
 * Expected scales are the span over 2^bits computed here, not the driver's.
 */
#include <errno.h>
#include <string.h>

#include "testutil.h"
#include "sensortest.h"
#include "iio_buffer.h"
#include "iio_trigger.h"

#define AD_CS		0
#define AD_TS		1000
#define AD_NROWS(a)	(sizeof(a) / sizeof((a)[0]))

static const struct sensortest_prop range_m20_0[] = {
	{ "output-range-microvolts", 0, "-20000000 0" }, { NULL, 0, NULL } };
static const struct sensortest_prop range_m5_5[] = {
	{ "output-range-microvolts", 0, "-5000000 5000000" }, { NULL, 0, NULL } };

static void ad_setup(struct sensortest *st, const char *part, const struct sensortest_prop *pr)
{
	int ret = sensortest_setup(st, BUS_SPI, part, AD_CS, NULL, 0, pr, 0.0);

	if (ret)
		fprintf(stderr, "setup %s: %s\n", part, st->err);
	CU_ASSERT_EQUAL_FATAL(ret, 0);
}

static const char *ad_read(struct iio_dev *d, const char *name)
{
	static char buf[SENSORTEST_VALUE_MAX];

	if (sensortest_read(d, name, buf, sizeof(buf)) < 0)
		return "<err>";
	return buf;
}

static long ad_raw(struct iio_dev *d, int ch)
{
	char name[32];
	long v = -1;

	snprintf(name, sizeof(name), "out_voltage%d_raw", ch);
	CU_ASSERT_EQUAL(sensortest_read_int(d, name, &v), 0);
	return v;
}

/* ---- direct mode ---- */

static void test_attrs(void)
{
	struct sensortest st;
	const char *want[] = { "name", "out_voltage0_raw", "out_voltage_offset",
			       "out_voltage_scale", "out_voltage0_dither_enable" };
	size_t i;

	ad_setup(&st, "ad5766", range_m20_0);
	for (i = 0; i < AD_NROWS(want); i++)
		TEST_ROW_ASSERT(iio_device_attr_find(st.dev, want[i]) != NULL, want[i]);
	/* 16 channels x (raw + 5 dither files) + offset, scale, name, clock */
	CU_ASSERT_PTR_NOT_NULL(iio_device_attr_find(st.dev, "out_voltage15_dither_scale_available"));
	CU_ASSERT_PTR_NULL(iio_device_attr_find(st.dev, "out_voltage16_raw"));
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "name"), "ad5766\n");
	/* 20 V over 2^16 codes, the kernel's FRACTIONAL_LOG2 cut to nine places */
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage_scale"), "0.000305175\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage_offset"), "-20\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage3_dither_scale_available"),
			       "1 0.75 0.5 0.25\n");
	sensortest_teardown(&st);
	ad_setup(&st, "ad5767", range_m5_5);
	/* 10 V over 2^12 = 0.00244140625 */
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage_scale"), "0.002441406\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage_offset"), "-5\n");
	sensortest_teardown(&st);
}
TEST_CASE(test_attrs, "attribute names, span scale and offset of both parts");

static void test_raw_limits(void)
{
	struct sensortest st;

	ad_setup(&st, "ad5766", range_m20_0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "65535"), 0);
	CU_ASSERT_EQUAL(ad_raw(st.dev, 0), 65535);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "65536"), -EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "-1"), -EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage15_raw", "0"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage7_raw", "12345"), 0);
	CU_ASSERT_EQUAL(ad_raw(st.dev, 7), 12345);
	CU_ASSERT_EQUAL(ad_raw(st.dev, 0), 65535);	/* the others untouched */
	sensortest_teardown(&st);
	ad_setup(&st, "ad5767", range_m5_5);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage2_raw", "4095"), 0);
	CU_ASSERT_EQUAL(ad_raw(st.dev, 2), 4095);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage2_raw", "4096"), -EINVAL);
	CU_ASSERT_EQUAL(ad_raw(st.dev, 2), 4095);
	sensortest_teardown(&st);
}
TEST_CASE(test_raw_limits, "raw writes at 2^bits - 1 and 2^bits, read back over SPI");

static void test_output_range(void)
{
	static const struct { const char *text; int ret; const char *scale; } rows[] = {
		{ NULL, -EINVAL, NULL },
		{ "-20000000 1000000", -EINVAL, NULL },
		{ "-12000000 14000000", 0, "0.000396728\n" },	/* 26 V / 65536 */
		{ "-5999999 5999999", 0, "0.000152587\n" },	/* truncated to -5..5: 10/65536 */
		{ "-10000000 10000000 1", -EINVAL, NULL },
	};
	struct sensortest_prop pr[] = { { "output-range-microvolts", 0, NULL }, { NULL, 0, NULL } };
	struct sensortest st;
	size_t i;
	int ret;

	for (i = 0; i < AD_NROWS(rows); i++) {
		pr[0].str = rows[i].text;
		ret = sensortest_setup(&st, BUS_SPI, "ad5766", AD_CS, NULL, 0, pr, 0.0);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].text ? rows[i].text : "(none)");
		if (ret)
			continue;
		TEST_ROW_ASSERT(!strcmp(ad_read(st.dev, "out_voltage_scale"), rows[i].scale),
				rows[i].text);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_output_range, "output-range-microvolts: required, a span-table row, else EINVAL");

static void test_dither(void)
{
	struct sensortest st;

	ad_setup(&st, "ad5766", range_m20_0);
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage4_dither_enable"), "0\n");
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage4_dither_enable", "1"), 0);
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage4_dither_enable"), "1\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage5_dither_enable"), "0\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage4_dither_source"), "0\n");
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage4_dither_source", "y"), 0);
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage4_dither_source"), "1\n");
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage4_dither_invert", "2"), -EINVAL);
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage4_dither_scale"), "1\n");
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage4_dither_scale", "0.25\n"), 0);
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "out_voltage4_dither_scale"), "0.25\n");
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage4_dither_scale", "0.3"), -EINVAL);
	/* K-91: the dither words go to the dither registers, not DAC register 1 */
	CU_ASSERT_EQUAL(ad_raw(st.dev, 1), 0);
	sensortest_teardown(&st);
}
TEST_CASE(test_dither, "dither_enable/_invert/_source/_scale files; DAC registers untouched");

/* The output pin in mV, as the model drives it. */
static double ad_pin_mv(struct sensortest *st, int ch)
{
	struct emu_dac_state out = { 0 };

	CU_ASSERT_EQUAL(st->chip->ops->dac_output(st->chip, ch, &out), 0);
	return out.mv;
}

static void test_pins(void)
{
	struct sensortest st;

	ad_setup(&st, "ad5766", range_m20_0);
	/* -20 V + code x 20 V / 65536: the span register the probe wrote */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "32768"), 0);
	CU_ASSERT_DOUBLE_EQUAL(ad_pin_mv(&st, 0), -10000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(ad_pin_mv(&st, 1), -20000.0, 1e-6);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage1_raw", "65535"), 0);
	CU_ASSERT_DOUBLE_EQUAL(ad_pin_mv(&st, 1), -20000.0 + 65535 * 20000.0 / 65536, 1e-6);
	sensortest_teardown(&st);
	ad_setup(&st, "ad5767", range_m5_5);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage2_raw", "1024"), 0);
	CU_ASSERT_DOUBLE_EQUAL(ad_pin_mv(&st, 2), -2500.0, 1e-6);	/* -5 V + 1024 x 10 V / 4096 */
	sensortest_teardown(&st);
}
TEST_CASE(test_pins, "the output pins: the span register's range over the code");

/* ---- buffered output ---- */

struct ad_writer {
	struct iio_buffer buf;
	int ended;
};

static void ad_writer_end(struct iio_buffer *buf, int err)
{
	((struct ad_writer *)buf->priv)->ended = err;
}

static const struct iio_buffer_ops ad_writer_ops = { .end = ad_writer_end };

static void ad_writer_init(struct ad_writer *w, uint64_t mask, unsigned int length)
{
	memset(w, 0, sizeof(*w));
	w->buf.ops = &ad_writer_ops;
	w->buf.priv = w;
	w->buf.mask = mask;
	w->buf.direction = IIO_BUFFER_DIRECTION_OUT;
	w->buf.length = length;
}

static int ad_notified;

static void ad_notify(void *ctx)
{
	(void)ctx;
	ad_notified++;
}

static struct iio_trigger *ad_trigger(struct sensortest *st)
{
	struct iio_trigger *t = NULL;

	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(st->reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(sensortest_write(st->dev, "trigger/current_trigger", "hrt0"), 0);
	return t;
}

static void test_buffer_files(void)
{
	struct sensortest st;

	ad_setup(&st, "ad5767", range_m5_5);
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "buffer/direction"), "out\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "buffer0/direction"), "out\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "scan_elements/out_voltage9_type"),
			       iio_device_buffer_direction(st.dev) == IIO_BUFFER_DIRECTION_OUT &&
			       *(const uint8_t *)&(uint16_t){ 1 } ? "le:u12/16>>4\n" :
			       "be:u12/16>>4\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "scan_elements/out_voltage9_index"), "9\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "buffer0/out_voltage0_en"), "0\n");
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "buffer/data_available"), "0\n");
	CU_ASSERT_PTR_NULL(iio_device_attr_find(st.dev, "scan_elements/in_voltage0_en"));
	CU_ASSERT_EQUAL(iio_buffer_widest_mask(st.dev), 0xffff);
	sensortest_teardown(&st);
}
TEST_CASE(test_buffer_files, "out_ scan elements, direction out, data_available");

static void test_play(void)
{
	const uint16_t scans[5][2] = { { 100, 200 }, { 300, 400 }, { 500, 600 },
				       { 700, 800 }, { 900, 1000 } };
	struct ad_writer w, w2, r;
	struct iio_trigger *t;
	struct sensortest st;
	int i;

	ad_setup(&st, "ad5766", range_m20_0);
	t = ad_trigger(&st);
	iio_device_set_push_notify(st.dev, ad_notify, NULL);
	ad_writer_init(&w, 1u << 0 | 1u << 3, 4);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(st.dev, &w.buf, NULL, 0), 0);
	CU_ASSERT_EQUAL(w.buf.layout.bytes, 4);
	ad_writer_init(&w2, 1, 0);
	CU_ASSERT_EQUAL(iio_buffer_attach(st.dev, &w2.buf, NULL, 0), -EBUSY);
	ad_writer_init(&r, 1, 0);
	r.buf.direction = IIO_BUFFER_DIRECTION_IN;
	CU_ASSERT_EQUAL(iio_buffer_attach(st.dev, &r.buf, NULL, 0), -EPERM);
	/* length 4: four taken, the fifth not */
	CU_ASSERT_EQUAL(iio_buffer_write_scans(st.dev, &w.buf, scans, 5), 4);
	CU_ASSERT_EQUAL(iio_buffer_write_scans(st.dev, &w.buf, scans[4], 1), 0);
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "buffer/data_available"), "4\n");
	ad_notified = 0;
	for (i = 0; i < 4; i++) {
		iio_trigger_poll(t, AD_TS);
		TEST_ROW_ASSERT(ad_raw(st.dev, 0) == scans[i][0], "ch0");
		TEST_ROW_ASSERT(ad_raw(st.dev, 3) == scans[i][1], "ch3");
		TEST_ROW_ASSERT(ad_notified == (i >= 1), "woken once, at half");
	}
	CU_ASSERT_EQUAL(ad_raw(st.dev, 1), 0);
	/* the pins follow the LDAC: -20 V + 700 x 20 V / 65536 */
	CU_ASSERT_DOUBLE_EQUAL(ad_pin_mv(&st, 0), -20000.0 + 700 * 20000.0 / 65536, 1e-6);
	CU_ASSERT_EQUAL(iio_buffer_underruns(st.dev), 0);
	iio_trigger_poll(t, AD_TS);	/* empty: held, counted */
	iio_trigger_poll(t, AD_TS);
	CU_ASSERT_EQUAL(iio_buffer_underruns(st.dev), 2);
	CU_ASSERT_EQUAL(ad_raw(st.dev, 0), 700);
	CU_ASSERT_EQUAL(ad_raw(st.dev, 3), 800);
	CU_ASSERT_EQUAL(iio_buffer_write_scans(st.dev, &w.buf, scans[4], 1), 1);
	iio_trigger_poll(t, AD_TS);
	CU_ASSERT_EQUAL(ad_raw(st.dev, 0), 900);
	CU_ASSERT_EQUAL(iio_buffer_set_cyclic(st.dev, &w.buf, scans, 2), 0);	/* queue empty */
	iio_buffer_detach(st.dev, &w.buf);
	CU_ASSERT_EQUAL(iio_buffer_write_scans(st.dev, &w.buf, scans, 1), -EINVAL);
	CU_ASSERT_EQUAL(iio_buffer_attach(st.dev, &w2.buf, NULL, 0), 0);	/* the next writer */
	iio_buffer_detach(st.dev, &w2.buf);
	sensortest_teardown(&st);
}
TEST_CASE(test_play, "a scan per poll, N then N+1 queued, underruns hold, EBUSY, EPERM");

static void test_cyclic(void)
{
	const uint16_t block[3] = { 0x1230, 0x4560, 0x7890 };
	struct iio_trigger *t;
	struct sensortest st;
	struct ad_writer w;
	int i;

	ad_setup(&st, "ad5767", range_m5_5);
	t = ad_trigger(&st);
	ad_writer_init(&w, 1u << 15, 0);	/* K-92: channel 15 plays */
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(st.dev, &w.buf, NULL, 0), 0);
	CU_ASSERT_EQUAL(iio_buffer_set_cyclic(st.dev, &w.buf, block, 0), -EINVAL);
	CU_ASSERT_EQUAL(iio_buffer_set_cyclic(st.dev, &w.buf, block, IIO_SCAN_RING_SCANS + 1),
			-EINVAL);
	CU_ASSERT_EQUAL(iio_buffer_set_cyclic(st.dev, &w.buf, block, 3), 0);
	CU_ASSERT_EQUAL(iio_buffer_set_cyclic(st.dev, &w.buf, block, 3), -EBUSY);
	CU_ASSERT_EQUAL(iio_buffer_write_scans(st.dev, &w.buf, block, 1), -EBUSY);
	for (i = 0; i < 7; i++) {
		iio_trigger_poll(t, AD_TS);
		/* the storage word is the code shifted up by 4 */
		TEST_ROW_ASSERT(ad_raw(st.dev, 15) == block[i % 3] >> 4, "cyclic");
	}
	CU_ASSERT_EQUAL(iio_buffer_underruns(st.dev), 0);
	iio_buffer_detach(st.dev, &w.buf);
	/* a writer with scans queued cannot turn cyclic */
	CU_ASSERT_EQUAL(iio_buffer_attach(st.dev, &w.buf, NULL, 0), 0);
	CU_ASSERT_EQUAL(iio_buffer_write_scans(st.dev, &w.buf, block, 2), 2);
	CU_ASSERT_EQUAL(iio_buffer_set_cyclic(st.dev, &w.buf, block, 3), -EBUSY);
	iio_buffer_detach(st.dev, &w.buf);
	sensortest_teardown(&st);
}
TEST_CASE(test_cyclic, "a cyclic block repeats, no underrun, no writes beside it");

static void test_sysfs_enable(void)
{
	struct iio_trigger *t;
	struct sensortest st;

	ad_setup(&st, "ad5766", range_m20_0);
	t = ad_trigger(&st);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage1_raw", "4242"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "scan_elements/out_voltage1_en", "1"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "buffer/enable", "1"), 0);
	iio_trigger_poll(t, AD_TS);	/* nobody writes buffer 0: the pop finds nothing, */
	CU_ASSERT_EQUAL(iio_buffer_underruns(st.dev), 0);	/* not late: nothing was queued */
	CU_ASSERT_EQUAL(ad_raw(st.dev, 1), 4242);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "buffer/enable", "0"), 0);
	sensortest_teardown(&st);
}
TEST_CASE(test_sysfs_enable, "buffer/enable with no writer plays nothing, holds the output");

static void test_input_device_refuses_writer(void)
{
	struct sensortest st;
	struct ad_writer w;
	char err[128];
	struct iio_trigger *t = NULL;
	const struct sensortest_prop pr[] = { { NULL, 0, NULL } };
	const struct emu_input in[] = { SENSORTEST_CONST("AIN0", 0) };
	int ret;

	ret = sensortest_setup(&st, BUS_I2C, "max1363", 0x34, in, 1, pr, 0.0);
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(st.reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "trigger/current_trigger", "hrt0"), 0);
	ad_writer_init(&w, 1, 0);
	CU_ASSERT_EQUAL(iio_buffer_attach(st.dev, &w.buf, err, sizeof(err)), -EPERM);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "input buffer"));
	CU_ASSERT_STRING_EQUAL(ad_read(st.dev, "buffer/direction"), "in\n");
	sensortest_teardown(&st);
}
TEST_CASE(test_input_device_refuses_writer, "a writer on an input device is EPERM");

TEST_MAIN("ad5766", NULL, NULL)
