/*
 * test_iiod_xml.c - how server/iiod_xml.c groups a device's attributes
 * into libiio channels, and the XML it writes.
 *
 * A device is built from a table of channel specs covering each naming
 * case of the kernel ABI (indexed, modified, a modifier with '_' in it,
 * extend_name, differential, unindexed, output, timestamp, every sharing
 * level and scan type layouts), registered with the real core, and the
 * model is compared with the grouping PROTOCOL-iiod.md describes, row by
 * row: channel id, direction, name, scan element, and each short name with
 * the file it stands for. The file under test is compiled into this suite.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iio.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "testutil.h"

#include "../server/iiod_xml.c"

static int xt_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan, int *val,
		       int *val2, long mask)
{
	(void)indio_dev;
	(void)chan;
	(void)val2;
	(void)mask;
	*val = 1;
	return IIO_VAL_INT;
}

static const struct iio_info xt_info = { .read_raw = xt_read_raw };

static int xt_handler(struct iio_dev *indio_dev, int64_t ts)
{
	(void)indio_dev;
	(void)ts;
	return 0;
}

/* scan elements exist only with a buffer, as the kernel's scan_elements/ */
static const struct iio_buffer_setup xt_buffer = { .handler = xt_handler };

#define XT_RAW		BIT(IIO_CHAN_INFO_RAW)
#define XT_SCALE	BIT(IIO_CHAN_INFO_SCALE)

static const struct iio_chan_spec xt_chans[] = {
	{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 0, .extend_name = "vccint",
	  .info_mask_separate = XT_RAW | XT_SCALE, .scan_index = 0,
	  .scan_type = { .sign = 'u', .realbits = 12, .storagebits = 16, .endianness = IIO_BE } },
	{ .type = IIO_VOLTAGE, .indexed = 1, .channel = 1, .info_mask_separate = XT_RAW,
	  .info_mask_shared_by_type = XT_SCALE, .scan_index = 1,
	  .scan_type = { .sign = 's', .realbits = 16, .storagebits = 16, .repeat = 2,
			 .endianness = IIO_LE } },
	{ .type = IIO_VOLTAGE, .indexed = 1, .differential = 1, .channel = 2, .channel2 = 3,
	  .info_mask_separate = XT_RAW, .info_mask_shared_by_type = XT_SCALE, .scan_index = 2,
	  .scan_type = { .sign = 's', .realbits = 12, .storagebits = 16, .shift = 4,
			 .endianness = IIO_CPU } },
	{ .type = IIO_ACCEL, .modified = 1, .channel2 = IIO_MOD_X,
	  .info_mask_separate = XT_RAW, .info_mask_shared_by_type = XT_SCALE,
	  .info_mask_shared_by_dir = BIT(IIO_CHAN_INFO_SAMP_FREQ), .scan_index = 3,
	  .scan_type = { .sign = 's', .realbits = 16, .storagebits = 16, .endianness = IIO_BE } },
	{ .type = IIO_ACCEL, .indexed = 1, .channel = 2, .modified = 1, .channel2 = IIO_MOD_Z,
	  .info_mask_separate = XT_RAW, .info_mask_shared_by_type = XT_SCALE, .scan_index = -1 },
	{ .type = IIO_ACCEL, .modified = 1, .channel2 = IIO_MOD_LINEAR_X,
	  .info_mask_separate = XT_RAW, .scan_index = -1 },
	{ .type = IIO_TEMP, .info_mask_separate = BIT(IIO_CHAN_INFO_PROCESSED),
	  .scan_index = -1 },
	{ .type = IIO_VOLTAGE, .output = 1, .indexed = 1, .channel = 0,
	  .info_mask_separate = XT_RAW, .info_mask_shared_by_type = XT_SCALE,
	  .info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ), .scan_index = -1 },
	{ .type = IIO_TIMESTAMP, .channel = -1, .scan_index = 4,
	  .scan_type = { .sign = 's', .realbits = 64, .storagebits = 64 } },
};

/* One expected channel: its attributes as "short=file" pairs, in XML order. */
struct xt_chan_row {
	const char *id;
	bool output;
	const char *name;
	int scan_index;
	const char *format;
	const char *attrs[4];
};

static const struct xt_chan_row xt_chan_rows[] = {
	{ "voltage0", false, "vccint", 0, "be:u12/16>>0",
	  { "label=in_voltage0_vccint_label", "raw=in_voltage0_vccint_raw",
	    "scale=in_voltage0_vccint_scale" } },
	{ "voltage1", false, NULL, 1, "le:S16/16X2>>0",
	  { "raw=in_voltage1_raw", "scale=in_voltage_scale" } },
	/* differential: the "-type" shared name only, not in_voltage_scale too */
	{ "voltage2-voltage3", false, NULL, 2,
	  __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "be:s12/16>>4" : "le:s12/16>>4",
	  { "raw=in_voltage2-voltage3_raw", "scale=in_voltage-voltage_scale" } },
	{ "accel_x", false, NULL, 3, "be:S16/16>>0",
	  { "raw=in_accel_x_raw", "scale=in_accel_scale" } },
	{ "timestamp", false, NULL, 4, "le:S64/64>>0", { NULL } },
	/* unscanned channels follow in the order they were made */
	{ "accel2_z", false, NULL, -1, "", { "raw=in_accel2_z_raw", "scale=in_accel_scale" } },
	/* a by-type name covers every channel of the type, declared or not (ABI) */
	{ "accel_linear_x", false, NULL, -1, "",
	  { "raw=in_accel_linear_x_raw", "scale=in_accel_scale" } },
	{ "voltage0", true, NULL, -1, "", { "raw=out_voltage0_raw", "scale=out_voltage_scale" } },
	{ "temp", false, NULL, -1, "", { "input=in_temp_input" } },
};

/* Shared by direction and by all stay device attributes, sorted by name. */
static const char *const xt_dev_attrs[] = {
	"current_timestamp_clock", "in_sampling_frequency", "sampling_frequency",
};

struct xt_fixture {
	struct iio_registry *reg;
	struct srv_iiod_ctx *ctx;
};

static int xt_setup(struct xt_fixture *f, const char *label, bool buffered)
{
	static const struct srv_iiod_ctx_attr attrs[] = { { "k", "v<&>" } };
	struct iio_dev *d;
	char err[256];

	f->reg = iio_registry_create();
	d = iio_device_alloc(0);
	if (!f->reg || !d)
		return -ENOMEM;
	d->name = "xmltest";
	d->label = label;
	d->channels = xt_chans;
	d->num_channels = (int)(sizeof(xt_chans) / sizeof(xt_chans[0]));
	d->info = &xt_info;
	if (buffered && iio_triggered_buffer_setup(d, &xt_buffer, NULL)) {
		iio_device_put(d);
		return -ENOMEM;
	}
	if (iio_device_register(f->reg, d, err, sizeof(err))) {
		fprintf(stderr, "register: %s\n", err);
		iio_device_put(d);
		return -EINVAL;
	}
	return srv_iiod_ctx_create(f->reg, NULL, "a \"quoted\" description", attrs, 1, &f->ctx);
}

static void xt_teardown(struct xt_fixture *f)
{
	srv_iiod_ctx_destroy(f->ctx);
	iio_registry_destroy(f->reg);
}

static void test_xml_grouping(void)
{
	const struct xt_chan_row *r;
	const struct srv_iiod_chan *c;
	const struct srv_iiod_dev *d;
	struct xt_fixture f;
	char pair[256];
	size_t i, n = sizeof(xt_chan_rows) / sizeof(xt_chan_rows[0]);
	int k, na;

	CU_ASSERT_EQUAL_FATAL(xt_setup(&f, "imu", true), 0);
	CU_ASSERT_EQUAL_FATAL(f.ctx->ndevs, 1);
	d = &f.ctx->devs[0];
	CU_ASSERT_STRING_EQUAL(d->id, "iio:device0");
	CU_ASSERT_EQUAL(d->nchans, (int)n);
	for (i = 0; i < n && i < (size_t)d->nchans; i++) {
		r = &xt_chan_rows[i];
		c = &d->chans[i];
		TEST_ROW_ASSERT(strcmp(c->id, r->id) == 0, r->id);
		TEST_ROW_ASSERT(c->output == r->output, r->id);
		TEST_ROW_ASSERT(r->name ? c->name && strcmp(c->name, r->name) == 0 : !c->name,
				r->id);
		TEST_ROW_ASSERT(c->scan_index == r->scan_index, r->id);
		TEST_ROW_ASSERT(strcmp(c->format, r->format) == 0, r->id);
		for (na = 0; na < 4 && r->attrs[na]; na++)
			;
		TEST_ROW_ASSERT(c->nattrs == na, r->id);
		for (k = 0; k < na && k < c->nattrs; k++) {
			snprintf(pair, sizeof(pair), "%s=%s", c->attrs[k].name,
				 c->attrs[k].attr->name);
			TEST_ROW_ASSERT(strcmp(pair, r->attrs[k]) == 0, r->attrs[k]);
		}
	}
	CU_ASSERT_EQUAL(d->nattrs, 3);
	for (k = 0; k < d->nattrs && k < 3; k++)
		TEST_ROW_ASSERT(strcmp(d->attrs[k]->name, xt_dev_attrs[k]) == 0, xt_dev_attrs[k]);
	xt_teardown(&f);
}
TEST_CASE(test_xml_grouping, "channels grouped from attribute names");

/*
 * Without a buffer there is no scan_elements/: no channel is a scan
 * element, and the soft timestamp, which has no other file, is no channel
 * (Debian's iiod over the 6.1 opt3001 on the QEMU rig: one channel).
 */
static void test_xml_unbuffered(void)
{
	const struct srv_iiod_dev *d;
	struct xt_fixture f;
	int k;

	CU_ASSERT_EQUAL_FATAL(xt_setup(&f, NULL, false), 0);
	d = &f.ctx->devs[0];
	CU_ASSERT_EQUAL(d->nchans, (int)(sizeof(xt_chan_rows) / sizeof(xt_chan_rows[0])) - 1);
	for (k = 0; k < d->nchans; k++) {
		TEST_ROW_ASSERT(strcmp(d->chans[k].id, "timestamp") != 0, d->chans[k].id);
		TEST_ROW_ASSERT(d->chans[k].scan_index == -1 && !d->chans[k].format[0],
				d->chans[k].id);
	}
	xt_teardown(&f);
}
TEST_CASE(test_xml_unbuffered, "no buffer: no scan elements, no timestamp channel");

struct xt_find_row {
	const char *name;
	const char *dev;
	const char *chan;	/* NULL: a device attribute */
	bool output;
	const char *attr;
	const char *file;	/* NULL: not found */
};

static const struct xt_find_row xt_find_rows[] = {
	{ "by id", "iio:device0", "voltage1", false, "raw", "in_voltage1_raw" },
	{ "by label", "imu", "accel_x", false, "scale", "in_accel_scale" },
	{ "by name", "xmltest", "voltage0", true, "raw", "out_voltage0_raw" },
	{ "channel by its name", "xmltest", "vccint", false, "raw", "in_voltage0_vccint_raw" },
	{ "input and output apart", "xmltest", "voltage0", false, "raw",
	  "in_voltage0_vccint_raw" },
	{ "output only has what it has", "xmltest", "voltage0", true, "label", NULL },
	{ "device attribute", "xmltest", NULL, false, "sampling_frequency",
	  "sampling_frequency" },
	{ "device attribute by a channel's file name", "xmltest", NULL, false,
	  "in_voltage1_raw", "in_voltage1_raw" },
	{ "name is found although the XML leaves it out", "xmltest", NULL, false, "name",
	  "name" },
	{ "unknown attribute", "xmltest", NULL, false, "nothing", NULL },
	{ "short name is no device attribute", "xmltest", NULL, false, "raw", NULL },
	{ "unknown device", "nodev", NULL, false, "name", NULL },
	{ "unknown channel", "xmltest", "voltage9", false, "raw", NULL },
};

static void test_xml_find(void)
{
	const struct xt_find_row *r;
	const struct srv_iiod_dev *d;
	const struct srv_iiod_chan *c;
	const struct iio_attr *a;
	struct xt_fixture f;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(xt_setup(&f, "imu", true), 0);
	for (i = 0; i < sizeof(xt_find_rows) / sizeof(xt_find_rows[0]); i++) {
		r = &xt_find_rows[i];
		a = NULL;
		d = srv_iiod_ctx_find_dev(f.ctx, r->dev);
		if (d && r->chan) {
			c = srv_iiod_dev_find_chan(d, r->chan, r->output);
			a = c ? srv_iiod_chan_find_attr(c, r->attr) : NULL;
		} else if (d) {
			a = srv_iiod_dev_find_attr(d, r->attr);
		}
		TEST_ROW_ASSERT(r->file ? a && strcmp(a->name, r->file) == 0 : !a, r->name);
	}
	xt_teardown(&f);
}
TEST_CASE(test_xml_find, "device, channel and attribute lookups");

/* The XML of @ctx is valid against its DTD (when xmllint is installed). */
static void xt_xmllint(const struct srv_iiod_ctx *ctx)
{
	char path[] = "/tmp/iiowire-iiod-xml-XXXXXX", cmd[128];
	int fd;

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, ctx->xml, ctx->xml_len), (ssize_t)ctx->xml_len);
	close(fd);
	if (system("command -v xmllint >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "xmllint --valid --noout %s", path);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	unlink(path);
}

static void test_xml_text(void)
{
	struct xt_fixture f;
	const char *xml;

	CU_ASSERT_EQUAL_FATAL(xt_setup(&f, "a&b<c>\"d'", true), 0);
	xml = f.ctx->xml;
	CU_ASSERT_EQUAL(strlen(xml), f.ctx->xml_len);
	CU_ASSERT_PTR_NULL(strchr(xml, '\n'));
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<device id=\"iio:device0\" name=\"xmltest\" "
				     "label=\"a&amp;b&lt;c&gt;&quot;d&apos;\">"));
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "description=\"a &quot;quoted&quot; description\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<context-attribute name=\"k\" "
				     "value=\"v&lt;&amp;&gt;\"/>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<channel id=\"voltage0\" type=\"input\" "
				     "name=\"vccint\">"
				     "<scan-element index=\"0\" format=\"be:u12/16&gt;&gt;0\"/>"
				     "<attribute name=\"label\" "
				     "filename=\"in_voltage0_vccint_label\"/>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<attribute name=\"sampling_frequency\"/></device>"
				     "</context>"));
	/* the name element goes into the device element, never as an attribute */
	CU_ASSERT_PTR_NULL(strstr(xml, "<attribute name=\"name\""));
	xt_xmllint(f.ctx);
	xt_teardown(&f);
}
TEST_CASE(test_xml_text, "XML text: escaping, element order, DTD");

/*
 * B6: control characters in a label keep the XML well-formed: TAB, LF, CR
 * and DEL as character references (an attribute value would fold the raw
 * ones to spaces), the rest, which XML 1.0 cannot carry at all, as U+FFFD.
 */
static void test_xml_control(void)
{
	struct xt_fixture f;

	CU_ASSERT_EQUAL_FATAL(xt_setup(&f, "a\tb\nc\rd\x1b[2J\x07" "e\x7f", true), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(f.ctx->xml, " label=\"a&#x9;b&#xA;c&#xD;d&#xFFFD;[2J"
					   "&#xFFFD;e&#x7F;\">"));
	xt_xmllint(f.ctx);
	xt_teardown(&f);
}
TEST_CASE(test_xml_control, "B6 XML text: control characters in a label stay well-formed");

/* An empty registry still makes a valid, empty context. */
static void test_xml_empty(void)
{
	struct iio_registry *reg = iio_registry_create();
	struct srv_iiod_ctx *ctx;

	CU_ASSERT_PTR_NOT_NULL_FATAL(reg);
	CU_ASSERT_EQUAL_FATAL(srv_iiod_ctx_create(reg, NULL, NULL, NULL, 0, &ctx), 0);
	CU_ASSERT_EQUAL(ctx->ndevs, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(ctx->xml, "version-git=\"iiowire\"></context>"));
	CU_ASSERT_PTR_NULL(strstr(ctx->xml, "description="));
	CU_ASSERT_PTR_NULL(srv_iiod_ctx_find_dev(ctx, "iio:device0"));
	srv_iiod_ctx_destroy(ctx);
	srv_iiod_ctx_destroy(NULL);
	iio_registry_destroy(reg);
}
TEST_CASE(test_xml_empty, "empty registry");

TEST_MAIN("iiod_xml", NULL, NULL)
