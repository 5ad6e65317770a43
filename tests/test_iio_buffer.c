/*
 * test_iio_buffer.c - buffered capture in the core (drivers/iio_buffer*.c,
 * iio_trigger.c) with the iio_dummy and max1363 drivers on their models:
 * the scan_elements/, buffer/, buffer0/ and trigger/ files with the kernel's
 * texts and errors (buffers-triggers-events-facts §1.1-1.3, §2), the scan
 * layout of iio_compute_scan_bytes, the exact record bytes for given model
 * inputs (§1.5), the union of several readers matched against max1363's
 * scan masks with a demux per reader, and the triggers' files.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iio.h"
#include "iio_buffer.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "testutil.h"
#include "chiptest.h"

#define TB_RECS_MAX	16
#define TB_NROWS(a)	(sizeof(a) / sizeof((a)[0]))

/* A reader that keeps the records it gets. */
struct tb_reader {
	struct iio_buffer buf;
	int n;
	int calls;	/* store_n() calls */
	uint64_t lost;
	int ended;
	uint8_t rec[TB_RECS_MAX][IIO_SCAN_BYTES_MAX];
	uint8_t last[IIO_SCAN_BYTES_MAX];
};

static void tb_store(struct iio_buffer *buf, const uint8_t *rec, uint64_t lost)
{
	struct tb_reader *r = buf->priv;

	r->lost += lost;
	if (r->n < TB_RECS_MAX)
		memcpy(r->rec[r->n], rec, (size_t)buf->layout.bytes);
	memcpy(r->last, rec, (size_t)buf->layout.bytes);
	r->n++;
}

static void tb_end(struct iio_buffer *buf, int err)
{
	struct tb_reader *r = buf->priv;

	r->ended = err;
}

static const struct iio_buffer_ops tb_ops = { .store = tb_store, .end = tb_end };

/* A reader that takes stretches of records (store_n), keeping them as tb_store() does. */
static void tb_store_n(struct iio_buffer *buf, const uint8_t *recs, unsigned int n, uint64_t lost)
{
	struct tb_reader *r = buf->priv;
	unsigned int i;

	r->calls++;
	for (i = 0; i < n; i++)
		tb_store(buf, recs + i * (size_t)buf->layout.bytes, i ? 0 : lost);
}

static const struct iio_buffer_ops tb_ops_n = { .store = tb_store, .store_n = tb_store_n,
						 .end = tb_end };

static void tb_reader_init(struct tb_reader *r, uint64_t mask, bool ts)
{
	memset(r, 0, sizeof(*r));
	r->buf.ops = &tb_ops;
	r->buf.priv = r;
	r->buf.mask = mask;
	r->buf.timestamp = ts;
}

static struct iio_dev *tb_dummy(struct iio_registry **reg)
{
	const struct iio_device_id *id = NULL;
	const struct iio_driver *drv = iio_driver_find("iio_dummy", &id);
	struct iio_probe p = { .id = id, .name = "dummy0" };
	struct iio_dev *d = NULL;
	char err[128];

	*reg = iio_registry_create();
	CU_ASSERT_PTR_NOT_NULL_FATAL(drv);
	CU_ASSERT_EQUAL_FATAL(drv->probe(&p, &d, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(iio_device_register(*reg, d, err, sizeof(err)), 0);
	return d;
}

static int tb_write(struct iio_dev *d, const char *name, const char *text)
{
	const struct iio_attr *a = iio_device_attr_find(d, name);

	if (!a)
		return -ENOENT;
	return iio_attr_write(d, a, text, strlen(text));
}

static const char *tb_read(struct iio_dev *d, const char *name)
{
	static char buf[256];
	const struct iio_attr *a = iio_device_attr_find(d, name);
	ssize_t n;

	if (!a)
		return "<none>";
	n = iio_attr_read(d, a, buf, sizeof(buf));
	if (n < 0)
		snprintf(buf, sizeof(buf), "<%zd>", n);
	return buf;
}

/* ---- the files ---- */

struct tb_file_row {
	const char *name;
	unsigned int mode;
	const char *value;
};

static const struct tb_file_row dummy_files[] = {
	{ "scan_elements/in_voltage0_en", 0644, "0\n" },
	{ "scan_elements/in_voltage0_index", 0444, "0\n" },
	{ "scan_elements/in_voltage0_type", 0444, "le:u13/16>>0\n" },
	{ "scan_elements/in_voltage1-voltage2_type", 0444, "le:s12/16>>0\n" },
	{ "scan_elements/in_voltage3-voltage4_index", 0444, "2\n" },
	{ "scan_elements/in_voltage3-voltage4_type", 0444, "le:s11/16>>0\n" },
	{ "scan_elements/in_accel_x_index", 0444, "3\n" },
	{ "scan_elements/in_accel_x_type", 0444, "le:s16/16>>0\n" },
	{ "scan_elements/in_timestamp_en", 0644, "0\n" },
	{ "scan_elements/in_timestamp_index", 0444, "4\n" },
	{ "scan_elements/in_timestamp_type", 0444, "le:s64/64>>0\n" },
	{ "buffer/length", 0644, "2\n" },
	{ "buffer/enable", 0644, "0\n" },
	{ "buffer/watermark", 0644, "1\n" },
	{ "buffer/data_available", 0444, "0\n" },
	{ "buffer/direction", 0444, "in\n" },
	{ "buffer0/length", 0644, "2\n" },
	{ "buffer0/in_accel_x_en", 0644, "0\n" },
	{ "trigger/current_trigger", 0644, "" },
};

static void test_dummy_files(void)
{
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);
	size_t i;

	for (i = 0; i < TB_NROWS(dummy_files); i++) {
		const struct iio_attr *a = iio_device_attr_find(d, dummy_files[i].name);

		TEST_ROW_ASSERT(a != NULL, dummy_files[i].name);
		if (!a)
			continue;
		TEST_ROW_ASSERT(a->mode == dummy_files[i].mode, dummy_files[i].name);
		TEST_ROW_ASSERT(strcmp(tb_read(d, dummy_files[i].name), dummy_files[i].value) == 0,
				dummy_files[i].name);
	}
	/* the output channel and the processed-only ones have no scan element */
	CU_ASSERT_PTR_NULL(iio_device_attr_find(d, "scan_elements/out_voltage0_en"));
	CU_ASSERT_PTR_NULL(iio_device_attr_find(d, "scan_elements/in_steps_en"));
	/* ATTRS stays the device directory: the buffer files are apart */
	CU_ASSERT(iio_device_buffer_attr_count(d) > 0);
	iio_registry_destroy(reg);
}
TEST_CASE(test_dummy_files, "dummy: scan_elements/, buffer/, buffer0/, trigger/ as the kernel's");

struct tb_write_row {
	const char *name;
	const char *attr;
	const char *text;
	int ret;
	const char *after;
};

static const struct tb_write_row write_rows[] = {
	{ "en 1", "scan_elements/in_voltage0_en", "1", 0, "1\n" },
	{ "en y (kstrtobool)", "scan_elements/in_voltage0_en", "y\n", 0, "1\n" },
	{ "en off", "scan_elements/in_voltage0_en", "off", 0, "0\n" },
	{ "en junk", "scan_elements/in_voltage0_en", "maybe", -EINVAL, "0\n" },
	{ "length 1 becomes 2", "buffer/length", "1", 0, "2\n" },
	{ "length 64", "buffer/length", "64\n", 0, "64\n" },
	{ "length base 10 only", "buffer/length", "0x10", -EINVAL, "2\n" },
	{ "length -1", "buffer/length", "-1", -EINVAL, "2\n" },
	{ "watermark 0", "buffer/watermark", "0", -EINVAL, "1\n" },
	{ "watermark above length", "buffer/watermark", "3", -EINVAL, "1\n" },
	{ "watermark 2", "buffer/watermark", "2", 0, "2\n" },
	{ "enable without mask", "buffer/enable", "1", -EINVAL, "0\n" },
	{ "data_available read-only", "buffer/data_available", "1", -EACCES, "0\n" },
	{ "index read-only", "scan_elements/in_voltage0_index", "1", -EACCES, "0\n" },
	{ "unknown trigger clears", "trigger/current_trigger", "nosuch\n", 0, "" },
};

static void test_dummy_writes(void)
{
	size_t i;

	for (i = 0; i < TB_NROWS(write_rows); i++) {
		const struct tb_write_row *row = &write_rows[i];
		struct iio_registry *reg;
		struct iio_dev *d = tb_dummy(&reg);
		int ret = tb_write(d, row->attr, row->text);

		TEST_ROW_ASSERT(ret == row->ret, row->name);
		TEST_ROW_ASSERT(strcmp(tb_read(d, row->attr), row->after) == 0, row->name);
		iio_registry_destroy(reg);
	}
}
TEST_CASE(test_dummy_writes, "buffer files: every write rule, fresh device per row");

/* length stays when the same; watermark follows a smaller length */
static void test_length_lowers_watermark(void)
{
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);

	CU_ASSERT_EQUAL(tb_write(d, "buffer/length", "8"), 0);
	CU_ASSERT_EQUAL(tb_write(d, "buffer/watermark", "8"), 0);
	CU_ASSERT_EQUAL(tb_write(d, "buffer0/length", "4"), 0);
	CU_ASSERT_STRING_EQUAL(tb_read(d, "buffer/watermark"), "4\n");
	CU_ASSERT_STRING_EQUAL(tb_read(d, "buffer0/watermark"), "4\n");
	iio_registry_destroy(reg);
}
TEST_CASE(test_length_lowers_watermark, "buffer/length below watermark lowers it; buffer0/ is buffer/");

/* ---- layout ---- */

static void test_layout(void)
{
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);
	struct iio_scan_layout l;

	CU_ASSERT_EQUAL(iio_scan_layout_compute(d, 0xf, true, &l), 0);
	CU_ASSERT_EQUAL(l.bytes, 16);
	CU_ASSERT_EQUAL(l.n, 5);
	CU_ASSERT_EQUAL(l.offset[4], 8);
	CU_ASSERT_EQUAL(iio_scan_layout_compute(d, 0x9, false, &l), 0);
	CU_ASSERT_EQUAL(l.bytes, 4);
	CU_ASSERT_EQUAL(l.offset[1], 2);
	CU_ASSERT_EQUAL(iio_scan_layout_compute(d, 0x1, true, &l), 0);
	CU_ASSERT_EQUAL(l.bytes, 16);	/* 2 + pad 6 + 8 */
	CU_ASSERT_EQUAL(iio_scan_layout_compute(d, 0, true, &l), -EINVAL);
	CU_ASSERT_EQUAL(iio_scan_layout_compute(d, 1ULL << 9, false, &l), -EINVAL);
	iio_registry_destroy(reg);
}
TEST_CASE(test_layout, "iio_compute_scan_bytes: alignment, timestamp last, total padding");

/* ---- capture on the dummy (§1.5: fixed table) ---- */

static const uint8_t ts_bytes[8] = { 0x00, 0x00, 0x2A, 0x36, 0xFE, 0x9C, 0x97, 0x17 };
#define TB_TS	1700000000000000000LL

static void test_dummy_capture(void)
{
	static const uint8_t all[16] = { 0x07, 0x00, 0xDF, 0xFF, 0xFE, 0xFF, 0x58, 0x01 };
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);
	struct iio_trigger *t;
	struct tb_reader r;
	char err[128];

	tb_reader_init(&r, 0xf, true);
	CU_ASSERT_EQUAL(iio_buffer_attach(d, &r.buf, err, sizeof(err)), -EINVAL);
	CU_ASSERT(strstr(err, "no trigger") != NULL);
	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(tb_write(d, "trigger/current_trigger", "hrt0\n"), 0);
	CU_ASSERT_STRING_EQUAL(tb_read(d, "trigger/current_trigger"), "hrt0\n");
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(d, &r.buf, err, sizeof(err)), 0);
	/* buffered mode: direct reads and trigger changes are refused */
	CU_ASSERT_STRING_EQUAL(tb_read(d, "in_voltage0_raw"), "<-16>");
	CU_ASSERT_EQUAL(tb_write(d, "trigger/current_trigger", "x"), -EBUSY);
	iio_trigger_poll(t, TB_TS);
	iio_trigger_poll(t, TB_TS);
	CU_ASSERT_EQUAL(iio_device_buffers_drain(d), 2);
	CU_ASSERT_EQUAL_FATAL(r.n, 2);
	CU_ASSERT_EQUAL(memcmp(r.rec[0], all, 8), 0);
	CU_ASSERT_EQUAL(memcmp(r.rec[1] + 8, ts_bytes, 8), 0);
	iio_buffer_detach(d, &r.buf);
	CU_ASSERT_STRING_EQUAL(tb_read(d, "in_voltage0_raw"), "73\n");
	iio_registry_destroy(reg);
}
TEST_CASE(test_dummy_capture, "dummy: no trigger is EINVAL; the fixed table in the kernel's bytes");

/* voltage0 + accel_x + ts on the dummy (no scan masks: the active scan is the union) */
static void test_dummy_two_readers(void)
{
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);
	struct tb_reader a, b;
	struct iio_trigger *t;
	char err[128];

	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(iio_device_set_trigger(d, t), 0);
	tb_reader_init(&a, 0x9, true);
	tb_reader_init(&b, 0x4, false);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(d, &a.buf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(d, &b.buf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(a.buf.layout.bytes, 16);
	CU_ASSERT_EQUAL(b.buf.layout.bytes, 2);
	iio_trigger_poll(t, TB_TS);
	iio_device_buffers_drain(d);
	CU_ASSERT_EQUAL_FATAL(a.n, 1);
	CU_ASSERT_EQUAL_FATAL(b.n, 1);
	{
		static const uint8_t want_a[8] = { 0x07, 0x00, 0x58, 0x01, 0, 0, 0, 0 };

		CU_ASSERT_EQUAL(memcmp(a.rec[0], want_a, 8), 0);
		CU_ASSERT_EQUAL(memcmp(a.rec[0] + 8, ts_bytes, 8), 0);
		CU_ASSERT_EQUAL(b.rec[0][0], 0xFE);
		CU_ASSERT_EQUAL(b.rec[0][1], 0xFF);
	}
	/* the second reader leaves: the first keeps its record */
	iio_buffer_detach(d, &b.buf);
	iio_trigger_poll(t, TB_TS);
	iio_device_buffers_drain(d);
	CU_ASSERT_EQUAL(a.n, 2);
	CU_ASSERT_EQUAL(memcmp(a.rec[1] + 8, ts_bytes, 8), 0);
	CU_ASSERT_EQUAL(b.n, 1);
	/* the device goes: the reader ends with ENODEV */
	iio_device_unregister(reg, d);
	CU_ASSERT_EQUAL(a.ended, -ENODEV);
	iio_registry_destroy(reg);
}
TEST_CASE(test_dummy_two_readers, "two readers, own records (demux, zero padding), ENODEV at removal");

/*
 * iio_push_scans(), a kernel device's batch, and the drain's stretches: the
 * ring wraps, the newest past it are counted lost (once, before the next
 * record), a reader of the active record gets a stretch a call (two when the
 * ring wraps), a demuxed one a record a call.
 */
static void test_push_scans(void)
{
	static uint16_t scans[IIO_SCAN_RING_SCANS + 5][2];
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);
	struct iio_trigger *t;
	struct tb_reader a, b;
	char err[128];
	uint16_t v[2];
	int i;

	for (i = 0; i < (int)TB_NROWS(scans); i++) {
		scans[i][0] = (uint16_t)i;
		scans[i][1] = (uint16_t)(i + 1000);
	}
	CU_ASSERT_EQUAL(iio_push_scans(d, scans, 3), -EINVAL);	/* not capturing */
	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(iio_device_set_trigger(d, t), 0);
	tb_reader_init(&a, 0x5, false);		/* voltage0, voltage3-voltage4: the active record */
	a.buf.ops = &tb_ops_n;
	tb_reader_init(&b, 0x4, false);		/* voltage3-voltage4: demuxed */
	b.buf.ops = &tb_ops_n;
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(d, &a.buf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(d, &b.buf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(a.buf.layout.bytes, 4);
	iio_device_lock(d);
	CU_ASSERT_EQUAL(iio_push_scans(d, scans, 3), 3);
	iio_device_unlock(d);
	CU_ASSERT_EQUAL(iio_device_buffers_drain(d), 3);
	CU_ASSERT_EQUAL_FATAL(a.n, 3);
	CU_ASSERT_EQUAL(a.calls, 1);
	CU_ASSERT_EQUAL(b.calls, 0);
	CU_ASSERT_EQUAL_FATAL(b.n, 3);
	memcpy(v, a.rec[2], 4);
	CU_ASSERT(v[0] == 2 && v[1] == 1002);
	memcpy(v, b.rec[2], 2);
	CU_ASSERT_EQUAL(v[0], 1002);
	CU_ASSERT_EQUAL(a.lost + b.lost, 0);
	/* from slot 3: the copy wraps; a full ring takes IIO_SCAN_RING_SCANS and counts 5+1 lost */
	iio_device_lock(d);
	CU_ASSERT_EQUAL(iio_push_scans(d, scans, IIO_SCAN_RING_SCANS + 5), IIO_SCAN_RING_SCANS);
	CU_ASSERT_EQUAL(iio_push_scans(d, scans, 1), 0);
	iio_device_unlock(d);
	CU_ASSERT_EQUAL(iio_device_buffers_drain(d), IIO_SCAN_RING_SCANS);
	CU_ASSERT_EQUAL(a.calls, 3);
	CU_ASSERT_EQUAL(a.n, 3 + IIO_SCAN_RING_SCANS);
	CU_ASSERT_EQUAL(b.n, 3 + IIO_SCAN_RING_SCANS);
	CU_ASSERT_EQUAL(a.lost, 6);
	CU_ASSERT_EQUAL(b.lost, 6);
	memcpy(v, a.rec[3], 4);
	CU_ASSERT(v[0] == 0 && v[1] == 1000);
	memcpy(v, a.last, 4);
	CU_ASSERT_EQUAL(v[0], IIO_SCAN_RING_SCANS - 1);
	memcpy(v, b.last, 2);
	CU_ASSERT_EQUAL(v[0], (uint16_t)(IIO_SCAN_RING_SCANS - 1 + 1000));
	/* nothing new: no call, the count stays for the next record */
	CU_ASSERT_EQUAL(iio_device_buffers_drain(d), 0);
	CU_ASSERT_EQUAL(a.calls, 3);
	iio_buffer_detach(d, &b.buf);
	iio_buffer_detach(d, &a.buf);
	iio_registry_destroy(reg);
}
TEST_CASE(test_push_scans, "a batch of records: the ring wraps, the newest past it lost, stretches to readers");

/* Write @n records (voltage0 = @first + i, voltage3-voltage4 = 7) at @at, as a reader thread would. */
static void tb_fill(uint8_t *at, unsigned int n, unsigned int first)
{
	uint16_t v[2];
	unsigned int i;

	for (i = 0; i < n; i++) {
		v[0] = (uint16_t)(first + i);
		v[1] = 7;
		memcpy(at + i * sizeof(v), v, sizeof(v));
	}
}

/*
 * iio_push_room()/iio_push_commit(), a kernel capture's read straight into
 * the ring: a whole read's room or none, a shorter stretch where the ring
 * ends and the rest from its beginning, nothing seen before the commit.
 */
static void test_push_room(void)
{
	static uint16_t fill[IIO_SCAN_RING_SCANS][2];
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);
	struct iio_trigger *t;
	struct tb_reader a;
	uint8_t *p, *q;
	unsigned int n;
	char err[128];
	uint16_t v[2];

	CU_ASSERT_PTR_NULL(iio_push_room(d, 100, &n));	/* not capturing */
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(iio_device_set_trigger(d, t), 0);
	tb_reader_init(&a, 0x5, false);
	a.buf.ops = &tb_ops_n;
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(d, &a.buf, err, sizeof(err)), 0);
	p = iio_push_room(d, 100, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(n, 100);
	tb_fill(p, 100, 0);
	CU_ASSERT_EQUAL(iio_device_buffers_drain(d), 0);	/* not committed yet */
	iio_push_commit(d, 100);
	CU_ASSERT_EQUAL(iio_device_buffers_drain(d), 100);
	CU_ASSERT_EQUAL_FATAL(a.n, 100);
	memcpy(v, a.rec[15], 4);
	CU_ASSERT(v[0] == 15 && v[1] == 7);
	memcpy(v, a.last, 4);
	CU_ASSERT(v[0] == 99 && v[1] == 7);
	/* to 10 records before the ring's end: a read of 100 gets those 10, then 90 from slot 0 */
	iio_device_lock(d);
	CU_ASSERT_EQUAL(iio_push_scans(d, fill, IIO_SCAN_RING_SCANS - 110), IIO_SCAN_RING_SCANS - 110);
	iio_device_unlock(d);
	CU_ASSERT_EQUAL(iio_device_buffers_drain(d), IIO_SCAN_RING_SCANS - 110);
	q = iio_push_room(d, 100, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT_EQUAL_FATAL(n, 10);
	CU_ASSERT(q == p + (IIO_SCAN_RING_SCANS - 10) * 4);
	tb_fill(q, 10, 1000);
	iio_push_commit(d, 10);
	CU_ASSERT(iio_push_room(d, 100, &n) == p);
	CU_ASSERT_EQUAL_FATAL(n, 100);
	tb_fill(p, 90, 1010);
	iio_push_commit(d, 90);
	CU_ASSERT_EQUAL(iio_device_buffers_drain(d), 100);
	memcpy(v, a.last, 4);
	CU_ASSERT(v[0] == 1099 && v[1] == 7);
	CU_ASSERT_EQUAL(a.lost, 0);
	/*
	 * 99 free records: no room for a read of 100 (the copy path counts what
	 * is lost), 99 yes: the head is 9 before the ring's end (2 x 16384 - 9)
	 */
	iio_device_lock(d);
	CU_ASSERT_EQUAL(iio_push_scans(d, fill, IIO_SCAN_RING_SCANS - 99), IIO_SCAN_RING_SCANS - 99);
	iio_device_unlock(d);
	CU_ASSERT_PTR_NULL(iio_push_room(d, 100, &n));
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NOT_NULL(iio_push_room(d, 99, &n));
	CU_ASSERT_EQUAL(n, 9);
	iio_buffer_detach(d, &a.buf);
	CU_ASSERT_PTR_NULL(iio_push_room(d, 1, &n));
	iio_registry_destroy(reg);
}
TEST_CASE(test_push_room, "a read straight into the ring: a whole read's room or none, split where the ring ends");

/* buffer/enable with the sysfs kfifo: data_available counts, full drops new */
static void test_sysfs_enable(void)
{
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);
	struct iio_trigger *t;
	int i;

	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(tb_write(d, "trigger/current_trigger", "hrt0"), 0);
	CU_ASSERT_EQUAL(tb_write(d, "scan_elements/in_voltage0_en", "1"), 0);
	CU_ASSERT_EQUAL(tb_write(d, "buffer/length", "3"), 0);
	CU_ASSERT_EQUAL(tb_write(d, "buffer/enable", "1"), 0);
	CU_ASSERT_EQUAL(tb_write(d, "buffer/enable", "1"), 0);	/* same state: no-op */
	CU_ASSERT_STRING_EQUAL(tb_read(d, "buffer0/enable"), "1\n");
	CU_ASSERT_EQUAL(tb_write(d, "scan_elements/in_voltage0_en", "0"), -EBUSY);
	CU_ASSERT_EQUAL(tb_write(d, "buffer/length", "8"), -EBUSY);
	CU_ASSERT_EQUAL(tb_write(d, "buffer/length", "3"), 0);	/* same value */
	CU_ASSERT_EQUAL(tb_write(d, "buffer/watermark", "1"), -EBUSY);
	for (i = 0; i < 6; i++)
		iio_trigger_poll(t, TB_TS);
	iio_device_buffers_drain(d);
	CU_ASSERT_STRING_EQUAL(tb_read(d, "buffer/data_available"), "4\n");	/* kfifo of 4 */
	CU_ASSERT_EQUAL(tb_write(d, "buffer/enable", "0"), 0);
	CU_ASSERT_STRING_EQUAL(tb_read(d, "buffer/enable"), "0\n");
	iio_registry_destroy(reg);
}
TEST_CASE(test_sysfs_enable, "buffer/enable: EBUSY rules while on, kfifo rounds up and drops new");

/* ---- triggers ---- */

static void test_triggers(void)
{
	struct iio_registry *reg = iio_registry_create();
	struct iio_trigger *h, *t;
	char buf[64];

	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(reg, "hrt0", &h), 0);
	CU_ASSERT_EQUAL(iio_hrtimer_trigger_create(reg, "hrt0", &t), -EEXIST);
	CU_ASSERT_EQUAL(h->id, 0);
	CU_ASSERT(iio_trigger_attr_read(h, "sampling_frequency", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "100.000000\n");
	CU_ASSERT_EQUAL(iio_trigger_attr_write(h, "sampling_frequency", "0.5", 0), 0);
	iio_trigger_attr_read(h, "sampling_frequency", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "0.500000\n");
	CU_ASSERT_EQUAL(iio_trigger_period_ns(h), 2000000000ULL);
	CU_ASSERT_EQUAL(iio_trigger_attr_write(h, "sampling_frequency", "0", 0), -EINVAL);
	CU_ASSERT_EQUAL(iio_trigger_attr_write(h, "sampling_frequency", "-1", 0), -ERANGE);
	CU_ASSERT_EQUAL(iio_sysfs_trigger_install(reg), 0);
	CU_ASSERT_EQUAL(iio_trigger_ctl_attr_mode(reg, "add_trigger"), 0200);
	CU_ASSERT_EQUAL(iio_trigger_ctl_attr_read(reg, "add_trigger", buf, sizeof(buf)), -EACCES);
	CU_ASSERT_EQUAL(iio_trigger_ctl_attr_write(reg, "add_trigger", "x3"), -EINVAL);
	CU_ASSERT_EQUAL(iio_trigger_ctl_attr_write(reg, "add_trigger", "3\n"), 0);
	CU_ASSERT_EQUAL(iio_trigger_ctl_attr_write(reg, "add_trigger", "3"), -EINVAL);
	t = iio_trigger_find(reg, "sysfstrig3");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(t->id, 1);
	CU_ASSERT_PTR_EQUAL(iio_trigger_find(reg, "trigger1"), t);
	CU_ASSERT_EQUAL(iio_trigger_attr_read(t, "trigger_now", buf, sizeof(buf)), -EACCES);
	CU_ASSERT_EQUAL(iio_trigger_caps(t), IIO_TRIGGER_ON_DEMAND);
	CU_ASSERT_EQUAL(iio_trigger_caps(h), IIO_TRIGGER_TIMED);
	CU_ASSERT_EQUAL(iio_trigger_period_ns(t), 0);
	CU_ASSERT_EQUAL(iio_trigger_ctl_attr_write(reg, "remove_trigger", "4"), -EINVAL);
	CU_ASSERT_EQUAL(iio_trigger_ctl_attr_write(reg, "remove_trigger", "3"), 0);
	CU_ASSERT_PTR_NULL(iio_trigger_find(reg, "sysfstrig3"));
	iio_registry_destroy(reg);
}
TEST_CASE(test_triggers, "hrtimer sampling_frequency, sysfs add/remove, lowest free triggerN");

/* A kernel trigger's ops (kernel_trig.c's shape): counts its releases. */
static int tb_ktrig_released;
static const char *const tb_ktrig_files[] = { "name", NULL };

static const char *const *tb_ktrig_names(const struct iio_trigger *trig)
{
	(void)trig;
	return tb_ktrig_files;
}

static unsigned int tb_ktrig_mode(const struct iio_trigger *trig, const char *attr)
{
	(void)trig;
	return strcmp(attr, "name") == 0 ? 0444 : 0;
}

static int tb_ktrig_read(struct iio_trigger *trig, const char *attr, char *buf, size_t len)
{
	(void)attr;
	return snprintf(buf, len, "%s\n", trig->name);
}

static int tb_ktrig_write(struct iio_trigger *trig, const char *attr, const char *text,
			  int64_t now_ns)
{
	(void)now_ns;
	(void)trig;
	(void)attr;
	(void)text;
	return -EACCES;
}

static void tb_ktrig_release(struct iio_trigger *trig)
{
	(void)trig;
	tb_ktrig_released++;
}

static const struct iio_trigger_ops tb_ktrig_ops = {
	.type = "test-external", .caps = IIO_TRIGGER_EXTERNAL,
	.attr_names = tb_ktrig_names, .attr_mode = tb_ktrig_mode, .attr_read = tb_ktrig_read,
	.attr_write = tb_ktrig_write, .release = tb_ktrig_release,
};

static void test_kernel_triggers(void)
{
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);
	struct iio_trigger *k, *u;
	char buf[64];

	tb_ktrig_released = 0;
	CU_ASSERT_EQUAL(iio_trigger_register(reg, "k", -2, &tb_ktrig_ops, NULL, &k), -EINVAL);
	CU_ASSERT_EQUAL(tb_ktrig_released, 1);	/* its state released on failure too */
	tb_ktrig_released = 0;
	CU_ASSERT_EQUAL_FATAL(iio_trigger_register(reg, "khrt", 3, &tb_ktrig_ops, NULL, &k), 0);
	CU_ASSERT_EQUAL(k->id, 3);	/* the kernel's number */
	/* its number or its name taken: refused, its private data released */
	CU_ASSERT_EQUAL(iio_trigger_register(reg, "other", 3, &tb_ktrig_ops, NULL, NULL), -EEXIST);
	CU_ASSERT_EQUAL(iio_trigger_register(reg, "khrt", 4, &tb_ktrig_ops, NULL, NULL), -EEXIST);
	CU_ASSERT_EQUAL(tb_ktrig_released, 2);
	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(reg, "uhrt", &u), 0);
	CU_ASSERT_EQUAL(u->id, 0);	/* the board's take the lowest free */
	CU_ASSERT(iio_trigger_attr_read(k, "name", buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "khrt\n");
	CU_ASSERT_EQUAL(iio_trigger_attr_mode(k, "name"), 0444);
	CU_ASSERT_EQUAL(iio_trigger_attr_write(k, "name", "x", 0), -EACCES);
	/* a userspace device's buffer takes no kernel trigger (the kernel's does: test_kernel.sh) */
	CU_ASSERT_EQUAL(iio_device_set_trigger(d, k), -EINVAL);
	CU_ASSERT_EQUAL(iio_device_set_trigger(d, u), 0);
	iio_registry_destroy(reg);
	CU_ASSERT_EQUAL(tb_ktrig_released, 3);
}
TEST_CASE(test_kernel_triggers, "kernel triggers: their own number, ops, release, no userspace device");

/*
 * A current_trigger store on its way (a worker holding a reference) while the
 * loop removes the trigger: the store answers -ENODEV, nothing points at the
 * freed trigger, and the references held keep it alive until they go.
 */
static void test_trigger_removed_under_store(void)
{
	struct iio_registry *reg;
	struct iio_dev *d = tb_dummy(&reg);
	struct iio_trigger *t, *held;

	CU_ASSERT_EQUAL_FATAL(iio_sysfs_trigger_install(reg), 0);
	CU_ASSERT_EQUAL_FATAL(iio_trigger_ctl_attr_write(reg, "add_trigger", "7"), 0);
	t = iio_trigger_find(reg, "sysfstrig7");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(tb_write(d, "trigger/current_trigger", "sysfstrig7\n"), 0);
	CU_ASSERT_PTR_EQUAL(iio_device_current_trigger(d), t);
	held = iio_trigger_find_get(reg, "sysfstrig7");
	CU_ASSERT_PTR_EQUAL_FATAL(held, t);
	CU_ASSERT_PTR_NULL(iio_trigger_find_get(reg, "trigger0"));	/* names only */
	CU_ASSERT_EQUAL(iio_trigger_ctl_attr_write(reg, "remove_trigger", "7"), 0);
	CU_ASSERT_PTR_NULL(iio_device_current_trigger(d));	/* cleared with it */
	CU_ASSERT_EQUAL(iio_device_set_trigger(d, held), -ENODEV);
	CU_ASSERT_PTR_NULL(iio_device_current_trigger(d));
	CU_ASSERT_STRING_EQUAL(held->name, "sysfstrig7");	/* still ours to read */
	iio_trigger_put(held);
	iio_registry_destroy(reg);
}
TEST_CASE(test_trigger_removed_under_store, "a trigger removed while a current_trigger store holds it: -ENODEV");

/* ---- max1363 on its model (§1.5) ---- */

static struct iio_dev *tb_max1363(struct iio_registry **reg, struct bus **bus)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("AIN0", 1000), CHIPTEST_CONST("AIN1", 291 / 2.0),
		CHIPTEST_CONST("AIN2", 2047.5), CHIPTEST_CONST("AIN3", 0),
	};
	struct iio_dev *d = NULL;
	char err[128];

	*reg = iio_registry_create();
	CU_ASSERT_EQUAL_FATAL(chiptest_emu_bus_create(0, bus), 0);
	CU_ASSERT_EQUAL_FATAL(chiptest_chip_attach(*bus, "max1363", 0x34, in, 4, 0, err,
						   sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(chiptest_probe(*bus, *reg, "max1363", 0x34, NULL, &d, err,
					     sizeof(err)), 0);
	return d;
}

static void test_max1363_capture(void)
{
	/* AIN0..3 = 2000, 0x123, 4095, 0 counts, with the chip's 1s in the top nibble */
	static const uint8_t all[8] = { 0xF7, 0xD0, 0xF1, 0x23, 0xFF, 0xFF, 0xF0, 0x00 };
	static const uint8_t sub[8] = { 0xF1, 0x23, 0xF0, 0x00, 0, 0, 0, 0 };
	struct iio_registry *reg;
	struct bus *bus;
	struct iio_dev *d = tb_max1363(&reg, &bus);
	struct tb_reader a, b, c;
	struct iio_trigger *t;
	char err[160];

	CU_ASSERT_STRING_EQUAL(tb_read(d, "scan_elements/in_voltage0_type"), "be:u12/16>>0\n");
	CU_ASSERT_STRING_EQUAL(tb_read(d, "scan_elements/in_voltage0-voltage1_type"),
			       "be:s12/16>>0\n");
	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(iio_device_set_trigger(d, t), 0);
	tb_reader_init(&a, 0xf, true);
	tb_reader_init(&b, 0xa, true);	/* voltage1, voltage3: runs s0to3 and demuxes */
	tb_reader_init(&c, 0x11, false);	/* voltage0 + voltage0-voltage1: no mode */
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(d, &b.buf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(d, &a.buf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(iio_buffer_attach(d, &c.buf, err, sizeof(err)), -EINVAL);
	CU_ASSERT(strstr(err, "available_scan_masks") != NULL);
	iio_trigger_poll(t, TB_TS);
	iio_device_buffers_drain(d);
	CU_ASSERT_EQUAL_FATAL(a.n, 1);
	CU_ASSERT_EQUAL_FATAL(b.n, 1);
	CU_ASSERT_EQUAL(memcmp(a.rec[0], all, 8), 0);
	CU_ASSERT_EQUAL(memcmp(a.rec[0] + 8, ts_bytes, 8), 0);
	CU_ASSERT_EQUAL(memcmp(b.rec[0], sub, 8), 0);
	CU_ASSERT_EQUAL(memcmp(b.rec[0] + 8, ts_bytes, 8), 0);
	CU_ASSERT_EQUAL(iio_scan_element_value(a.buf.layout.chan[0], a.rec[0]), 2000);
	CU_ASSERT_STRING_EQUAL(tb_read(d, "in_voltage0_raw"), "<-16>");
	iio_buffer_detach(d, &a.buf);
	iio_buffer_detach(d, &b.buf);
	CU_ASSERT_STRING_EQUAL(tb_read(d, "in_voltage0_raw"), "2000\n");
	/* the sysfs subset test: voltage0, then a differential channel, is refused */
	CU_ASSERT_EQUAL(tb_write(d, "scan_elements/in_voltage0_en", "1"), 0);
	CU_ASSERT_EQUAL(tb_write(d, "scan_elements/in_voltage0-voltage1_en", "1"), -EINVAL);
	iio_registry_destroy(reg);
	bus_put(bus);
}
TEST_CASE(test_max1363_capture,
	  "max1363: union s0to3, demuxed subset, impossible set EINVAL, raw bytes unmasked");

/* ad799x (§1.5): no scan masks, each word MSB first with its channel-ID nibble */
static void test_ad7998_capture(void)
{
	static const struct emu_input in[] = {
		CHIPTEST_CONST("voltage0", 1000), CHIPTEST_CONST("voltage3", 3000),
	};
	static const struct chiptest_props props = { .has_vref = true, .vref_mv = 4096 };
	struct iio_registry *reg = iio_registry_create();
	struct iio_dev *d = NULL;
	struct iio_trigger *t;
	struct tb_reader r;
	struct bus *bus;
	char err[160];

	CU_ASSERT_EQUAL_FATAL(chiptest_emu_bus_create(0, &bus), 0);
	CU_ASSERT_EQUAL_FATAL(chiptest_chip_attach(bus, "ad7998", 0x21, in, 2, 4096, err,
						   sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(chiptest_probe(bus, reg, "ad7998", 0x21, &props, &d, err,
					     sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(iio_hrtimer_trigger_create(reg, "hrt0", &t), 0);
	CU_ASSERT_EQUAL(iio_device_set_trigger(d, t), 0);
	tb_reader_init(&r, 0x9, true);
	CU_ASSERT_EQUAL_FATAL(iio_buffer_attach(d, &r.buf, err, sizeof(err)), 0);
	iio_trigger_poll(t, TB_TS);
	iio_device_buffers_drain(d);
	CU_ASSERT_EQUAL_FATAL(r.n, 1);
	/* 1000 mV and 3000 mV of 4096 over 12 bits: 1000 and 3000 counts; IDs 0 and 3 */
	CU_ASSERT_EQUAL(r.rec[0][0], 0x03);
	CU_ASSERT_EQUAL(r.rec[0][1], 0xE8);
	CU_ASSERT_EQUAL(r.rec[0][2], 0x3B);
	CU_ASSERT_EQUAL(r.rec[0][3], 0xB8);
	CU_ASSERT_EQUAL(memcmp(r.rec[0] + 8, ts_bytes, 8), 0);
	CU_ASSERT_EQUAL(iio_scan_element_value(r.buf.layout.chan[1], r.rec[0] + 2), 3000);
	iio_buffer_detach(d, &r.buf);
	iio_registry_destroy(reg);
	bus_put(bus);
}
TEST_CASE(test_ad7998_capture, "ad7998: the enabled words with their channel-ID nibble");

TEST_MAIN("iio_buffer", NULL, NULL)
