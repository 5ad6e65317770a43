/*
 * test_server_iiodb.c - libiio 1.0's binary protocol on iiowired's iiod
 * listener, live, byte for byte with raw sockets.
 *
 * After "BINARY" the client sends 8-byte headers (client id, opcode,
 * device number, code) and payloads, and reads RESPONSE headers tagged with
 * its client ids. Device numbers are computed here from the XML PRINT
 * gives (libiio 1.0 sorts devices by id), channel and attribute numbers from
 * the order PROTOCOL-iiod.md states; values are the board's (the same as
 * the text protocol's transcripts). Every limit is tried at N and N+1,
 * hostile frames must close only their own connection, and a stale number
 * (after a reload) is refused. libiio 1.0's own programs are
 * tests/test_libiio1.sh's.
 */
#include <endian.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "iiodtest.h"
#include "srvtest.h"
#include "testutil.h"

#define BT_BOARD							\
	"{\"board\": \"iiodb\", \"triggers\": [{\"type\": \"hrtimer\", \"name\": \"hrt0\","	\
	"  \"sampling_frequency\": 1000}],"				\
	" \"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"},"	\
	"  \"spi0\": {\"type\": \"spi\", \"backend\": \"emulated\"}},"		\
	" \"devices\": ["							\
	"  {\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"		\
	"  {\"driver\": \"iio_evgen\"},"					\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x35\","	\
	"   \"label\": \"adc\", \"emulate\": {\"AIN0\": 3300, \"AIN1\": 1800, \"AIN2\": 200}},"	\
	"  {\"driver\": \"ad5766\", \"bus\": \"spi0\", \"cs\": 0,"		\
	"   \"output-range-microvolts\": \"-20000000 0\"}]}"

/* Opcodes (libiio 1.0's iiod-responder.h order) */
enum { OP_RESPONSE, OP_PRINT, OP_TIMEOUT, OP_READ_ATTR, OP_READ_DBG_ATTR, OP_READ_BUF_ATTR,
	OP_READ_CHN_ATTR, OP_READ_DEV_EVT_ATTR, OP_READ_CHN_EVT_ATTR, OP_WRITE_ATTR,
	OP_WRITE_DBG_ATTR, OP_WRITE_BUF_ATTR, OP_WRITE_CHN_ATTR, OP_WRITE_DEV_EVT_ATTR,
	OP_WRITE_CHN_EVT_ATTR, OP_GETTRIG, OP_SETTRIG, OP_OPEN_BUFFER, OP_CLOSE_BUFFER,
	OP_ENABLE_BUFFER, OP_DISABLE_BUFFER, OP_CREATE_BLOCK, OP_FREE_BLOCK, OP_TRANSFER_BLOCK,
	OP_ENQUEUE_BLOCK_CYCLIC, OP_RETRY_DEQUEUE_BLOCK, OP_CREATE_EVSTREAM, OP_FREE_EVSTREAM,
	OP_READ_EVENT, OP_REG_READ, OP_REG_WRITE, OP_REFRESH_FORMAT, OP_NOP };

/* Limits as PROTOCOL-iiod.md states them */
#define BT_BLOCKS_MAX		64
#define BT_BLOCK_MAX_BYTES	(4 * 1024 * 1024)
#define BT_EVSTREAMS_MAX	32
#define BT_WRITE_MAX		16384
#define BT_SKIP_MAX		(1024 * 1024)

static struct iiodt d;
static char *bt_xml;

/* One RESPONSE. */
struct bt_resp {
	uint16_t id;
	int32_t code;
	char data[65536];
	size_t len;
};

static void bt_hdr(uint8_t *h, uint16_t id, uint8_t op, uint8_t dev, int32_t code)
{
	uint16_t i = htole16(id);
	uint32_t c = htole32((uint32_t)code);

	memcpy(h, &i, 2);
	h[2] = op;
	h[3] = dev;
	memcpy(h + 4, &c, 4);
}

/* Send a command with an optional 64-bit number and payload. */
static void bt_cmd(struct srvc *c, uint16_t id, uint8_t op, uint8_t dev, int32_t code,
		   const uint64_t *num, const void *data, size_t len)
{
	uint8_t h[8];
	uint64_t n;

	bt_hdr(h, id, op, dev, code);
	CU_ASSERT_EQUAL(srvc_send(c, h, 8), 0);
	if (num) {
		n = htole64(*num);
		CU_ASSERT_EQUAL(srvc_send(c, &n, 8), 0);
	}
	if (len)
		CU_ASSERT_EQUAL(srvc_send(c, data, len), 0);
}

/*
 * Read one RESPONSE; with @data, a positive code is the length of the data
 * that follows (else it is a number: a write's count, GETTRIG's device).
 * Return: true when a whole one came.
 */
static bool bt_resp_n(struct srvc *c, struct bt_resp *r, bool data)
{
	uint8_t h[8];
	uint32_t code;
	uint16_t id;

	if (iiodt_bytes(c, (char *)h, 8, SRVTEST_REPLY_MS) != 8 || h[2] != OP_RESPONSE)
		return false;
	memcpy(&id, h, 2);
	memcpy(&code, h + 4, 4);
	r->id = le16toh(id);
	r->code = (int32_t)le32toh(code);
	r->len = data && r->code > 0 ? (size_t)r->code : 0;
	if (r->len >= sizeof(r->data))
		return false;
	r->data[r->len] = '\0';
	return iiodt_bytes(c, r->data, r->len, SRVTEST_REPLY_MS) == r->len;
}

#define bt_resp(c, r)	bt_resp_n((c), (r), true)

/* A command with no payload and no data in its answer; its code. */
static int32_t bt_simple(struct srvc *c, uint16_t id, uint8_t op, uint8_t dev, int32_t code)
{
	struct bt_resp r;

	bt_cmd(c, id, op, dev, code, NULL, NULL, 0);
	if (!bt_resp_n(c, &r, false) || r.id != id)
		return -100000;
	return r.code;
}

/* A read: the value in @r, its code returned. */
static int32_t bt_read(struct srvc *c, uint8_t op, uint8_t dev, int arg1, int arg2,
		       struct bt_resp *r)
{
	bt_cmd(c, 0, op, dev, arg1 << 16 | arg2, NULL, NULL, 0);
	return bt_resp(c, r) && r->id == 0 ? r->code : -100000;
}

static int32_t bt_write(struct srvc *c, uint8_t op, uint8_t dev, int arg1, int arg2,
			const char *value, size_t len)
{
	uint64_t n = len;
	struct bt_resp r;

	bt_cmd(c, 0, op, dev, arg1 << 16 | arg2, &n, value, len);
	return bt_resp_n(c, &r, false) && r.id == 0 ? r.code : -100000;
}

/* Is the stream in step? A NOP must get exactly its 0. */
static bool bt_in_step(struct srvc *c)
{
	return bt_simple(c, 7, OP_NOP, 0, 0) == 0;
}

/* A connection switched to the binary protocol, its XML in @bt_xml. */
static struct srvc *bt_open(void)
{
	struct srvc *c = srvc_open(d.port);
	struct bt_resp *r = malloc(sizeof(*r));

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(srvc_sends(c, "BINARY\r\n"), 0);
	CU_ASSERT(iiodt_bytes(c, r->data, 2, SRVTEST_REPLY_MS) == 2 && !memcmp(r->data, "0\n", 2));
	bt_cmd(c, 1, OP_PRINT, 0, 0, NULL, NULL, 0);
	CU_ASSERT_FATAL(bt_resp(c, r) && r->id == 1 && r->code > 0);
	free(bt_xml);
	bt_xml = strdup(r->data);
	free(r);
	return c;
}

/* Device @id's number: libiio 1.0 sorts the XML's device ids with strcmp. */
static int bt_dev(const char *id)
{
	const char *p = bt_xml;
	char got[64];
	int n = 0, found = 0;

	while ((p = strstr(p, "<device id=\""))) {
		p += strlen("<device id=\"");
		snprintf(got, sizeof(got), "%.*s", (int)strcspn(p, "\""), p);
		n += strcmp(got, id) < 0;
		found |= !strcmp(got, id);
	}
	CU_ASSERT_FATAL(found);
	return n;
}

static int bt_suite_init(void)
{
	return iiodt_start(&d, BT_BOARD, NULL);
}

static int bt_suite_fini(void)
{
	int ret = srvtest_stop(&d.t);

	srvtest_fini(&d.t, ret != 0 || CU_get_number_of_failures() != 0);
	free(bt_xml);
	return ret;
}

/* ---- the context ---- */

static void test_iiodb_print(void)
{
	struct srvc *c = srvc_open(d.port);
	char buf[32];

	/* the text protocol first, as a 1.0 client may */
	CU_ASSERT_EQUAL(srvc_sends(c, "VERSION\r\n"), 0);
	CU_ASSERT(iiodt_bytes(c, buf, 13, SRVTEST_REPLY_MS) == 13 && !memcmp(buf, "0.24.iiowire\n", 13));
	srvc_close(c);
	c = bt_open();
	CU_ASSERT_PTR_NOT_NULL(strstr(bt_xml, "<?xml"));
	CU_ASSERT_PTR_NOT_NULL(strstr(bt_xml, "version-major=\"1\" version-minor=\"0\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(bt_xml, "<event-attribute name=\"thresh_rising_en\" "
					     "filename=\"in_voltage0_thresh_rising_en\"/>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(bt_xml, "<buffer index=\"0\" direction=\"in\">"
					     "<channel id=\"voltage0\" type=\"input\"/>"));
	CU_ASSERT_PTR_NULL(strstr(bt_xml, "<attribute name=\"direction\""));
	CU_ASSERT(bt_in_step(c));
	/* the answer carries the command's client id, whatever it is */
	CU_ASSERT_EQUAL(bt_simple(c, 0xfffe, OP_NOP, 0, 0), 0);
	CU_ASSERT_EQUAL(bt_simple(c, 3, OP_TIMEOUT, 0, 2500), 0);
	srvc_close(c);
}
TEST_CASE(test_iiodb_print, "BINARY, then PRINT: libiio 1.0's XML; NOP, TIMEOUT");

/* ---- attributes ---- */

static void test_iiodb_attrs(void)
{
	struct srvc *c = bt_open();
	int dummy = bt_dev("iio:device0"), adc = bt_dev("iio:device2");
	struct bt_resp r;

	/* voltage0 is channel 0; its attributes offset, raw, scale (by name) */
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_CHN_ATTR, (uint8_t)dummy, 1, 0, &r), 3);
	CU_ASSERT(!memcmp(r.data, "73\0", 3));
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_CHN_ATTR, (uint8_t)dummy, 0, 0, &r), 2);
	CU_ASSERT(!memcmp(r.data, "7\0", 2));
	/* max1238 AIN1 1800 mV: voltage1's raw (raw, scale) */
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_CHN_ATTR, (uint8_t)adc, 0, 1, &r), 5);
	CU_ASSERT(!memcmp(r.data, "1800\0", 5));
	/* device attributes by name: current_timestamp_clock first */
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_ATTR, (uint8_t)dummy, 0, 0, &r), 9);
	CU_ASSERT_STRING_EQUAL(r.data, "realtime");
	/* channel event attributes: thresh_rising_en, thresh_rising_value of voltage0 */
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_CHN_EVT_ATTR, (uint8_t)dummy, 1, 0, &r), 2);
	CU_ASSERT(!memcmp(r.data, "0\0", 2));
	CU_ASSERT_EQUAL(bt_write(c, OP_WRITE_CHN_EVT_ATTR, (uint8_t)dummy, 1, 0, "42", 3), 3);
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_CHN_EVT_ATTR, (uint8_t)dummy, 1, 0, &r), 3);
	CU_ASSERT(!memcmp(r.data, "42\0", 3));
	/* what does not exist: as iiod 1.0, -EINVAL; an unknown device -ENODEV */
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_CHN_ATTR, (uint8_t)dummy, 99, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_CHN_ATTR, (uint8_t)dummy, 0, 999, &r), -EINVAL);
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_DBG_ATTR, (uint8_t)dummy, 0, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_ATTR, 200, 0, 0, &r), -ENODEV);
	/* registers: no direct_reg_access file, as the kernel without one */
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_REG_READ, (uint8_t)dummy, 0x10), -ENOENT);
	/* the format by scan index: 1 is voltage1-voltage2 */
	CU_ASSERT_EQUAL(bt_read(c, OP_REFRESH_FORMAT, (uint8_t)dummy, 0, 1, &r), 12);
	CU_ASSERT_STRING_EQUAL(r.data, "le:s12/16>>0");
	CU_ASSERT(bt_in_step(c));
	srvc_close(c);
}
TEST_CASE(test_iiodb_attrs, "attributes of every kind by number, values as iiod 1.0 sends them");

/* A WRITE at the value limit is applied, one byte more is skipped; past the skip limit: closed. */
static void test_iiodb_write_limits(void)
{
	struct srvc *c = bt_open();
	int dummy = bt_dev("iio:device0");
	char *big = malloc(BT_WRITE_MAX + 1);

	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	memset(big, '1', BT_WRITE_MAX + 1);
	/* N bytes: taken and written (the driver refuses such a number) */
	CU_ASSERT_EQUAL(bt_write(c, OP_WRITE_CHN_EVT_ATTR, (uint8_t)dummy, 1, 0, big, BT_WRITE_MAX),
			-EINVAL);
	CU_ASSERT_EQUAL(bt_write(c, OP_WRITE_CHN_EVT_ATTR, (uint8_t)dummy, 1, 0, big,
				 BT_WRITE_MAX + 1), -EFBIG);
	CU_ASSERT(bt_in_step(c));
	free(big);
	/* a length past the skip limit cannot be followed: the connection closes */
	{
		uint64_t n = BT_SKIP_MAX + 1;

		bt_cmd(c, 0, OP_WRITE_ATTR, (uint8_t)dummy, 0, &n, NULL, 0);
		CU_ASSERT(srvc_closed(c, SRVTEST_REPLY_MS));
	}
	srvc_close(c);
	c = bt_open();
	CU_ASSERT(bt_in_step(c));
	srvc_close(c);
}
TEST_CASE(test_iiodb_write_limits, "WRITE values at the limit and past it, in step");

/* Frames that cannot be followed close their connection only. */
static void test_iiodb_hostile(void)
{
	static const uint8_t ops[] = { 200, OP_RESPONSE, OP_NOP + 1 };
	struct srvc *c, *other = bt_open();
	uint8_t h[8];
	size_t i;

	for (i = 0; i < sizeof(ops); i++) {
		c = bt_open();
		bt_hdr(h, 0, ops[i], 0, 0);
		CU_ASSERT_EQUAL(srvc_send(c, h, 8), 0);
		CU_ASSERT(srvc_closed(c, SRVTEST_REPLY_MS));
		srvc_close(c);
	}
	/* an OPEN_BUFFER of no device: its mask has no known length */
	c = bt_open();
	bt_hdr(h, 0, OP_OPEN_BUFFER, 250, 0);
	CU_ASSERT_EQUAL(srvc_send(c, h, 8), 0);
	CU_ASSERT(srvc_closed(c, SRVTEST_REPLY_MS));
	srvc_close(c);
	/* a header a byte at a time is one command */
	c = bt_open();
	bt_hdr(h, 9, OP_NOP, 0, 0);
	for (i = 0; i < 8; i++)
		CU_ASSERT_EQUAL(srvc_send(c, h + i, 1), 0);
	{
		struct bt_resp r;

		CU_ASSERT(bt_resp(c, &r) && r.id == 9 && r.code == 0);
	}
	CU_ASSERT(bt_in_step(c));
	srvc_close(c);
	CU_ASSERT(bt_in_step(other));
	srvc_close(other);
}
TEST_CASE(test_iiodb_hostile, "unknown opcodes, a client's RESPONSE, a maskless OPEN_BUFFER");

/* ---- buffers and blocks ---- */

/* Open dummy0's buffer on voltage0 (bit 0) and voltage1-voltage2 (bit 1). */
static void bt_open_buffer(struct srvc *c, int dev)
{
	uint32_t mask = htole32(0x3);
	struct bt_resp r;

	bt_cmd(c, 0, OP_OPEN_BUFFER, (uint8_t)dev, 0, NULL, &mask, 4);
	CU_ASSERT_FATAL(bt_resp(c, &r));
	CU_ASSERT_EQUAL(r.code, 4);
	CU_ASSERT(!memcmp(r.data, &mask, 4));
}

static void test_iiodb_blocks(void)
{
	struct srvc *c = bt_open();
	int dummy = bt_dev("iio:device0"), trig = bt_dev("trigger0"), i;
	uint64_t size = 4 * 16;		/* 16 scans of two 16-bit channels */
	struct bt_resp r;

	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_SETTRIG, (uint8_t)dummy, trig), 0);
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_GETTRIG, (uint8_t)dummy, 0), trig);
	bt_open_buffer(c, dummy);
	for (i = 0; i < 2; i++) {
		bt_cmd(c, (uint16_t)(i + 1), OP_CREATE_BLOCK, (uint8_t)dummy, i << 16, &size, NULL, 0);
		CU_ASSERT(bt_resp(c, &r) && r.id == i + 1 && r.code == 0);
	}
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_ENABLE_BUFFER, (uint8_t)dummy, 0), 0);
	for (i = 0; i < 2; i++)
		bt_cmd(c, (uint16_t)(i + 1), OP_TRANSFER_BLOCK, (uint8_t)dummy, i << 16, &size, NULL, 0);
	for (i = 0; i < 2; i++) {
		CU_ASSERT(bt_resp(c, &r) && r.id == i + 1 && r.code == (int32_t)size);
	}
	/* a cyclic enqueue of an input buffer, an unknown block: not enqueued (code << 16) */
	bt_cmd(c, 1, OP_ENQUEUE_BLOCK_CYCLIC, (uint8_t)dummy, 0, &size, NULL, 0);
	CU_ASSERT(bt_resp(c, &r) && r.code == -EINVAL * 65536);
	bt_cmd(c, 9, OP_TRANSFER_BLOCK, (uint8_t)dummy, 77 << 16, &size, NULL, 0);
	CU_ASSERT(bt_resp(c, &r) && r.id == 9 && r.code == -EBADF * 65536);
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_FREE_BLOCK, (uint8_t)dummy, 1 << 16), 0);
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_FREE_BLOCK, (uint8_t)dummy, 1 << 16), -EBADF);
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_CLOSE_BUFFER, (uint8_t)dummy, 0), 0);
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_CLOSE_BUFFER, (uint8_t)dummy, 0), -EBADF);
	CU_ASSERT(bt_in_step(c));
	srvc_close(c);
}
TEST_CASE(test_iiodb_blocks, "OPEN_BUFFER, blocks filled by the trigger, their errors");

static void test_iiodb_block_limits(void)
{
	struct srvc *c = bt_open();
	int dummy = bt_dev("iio:device0"), i;
	uint64_t size = BT_BLOCK_MAX_BYTES;
	struct bt_resp r;

	bt_open_buffer(c, dummy);
	/* the same buffer again: -EEXIST; a device has buffer 0 only: -ENODEV */
	{
		uint32_t mask = htole32(1);

		bt_cmd(c, 0, OP_OPEN_BUFFER, (uint8_t)dummy, 0, NULL, &mask, 4);
		CU_ASSERT(bt_resp(c, &r) && r.code == -EEXIST);
		bt_cmd(c, 0, OP_OPEN_BUFFER, (uint8_t)dummy, 1, NULL, &mask, 4);
		CU_ASSERT(bt_resp(c, &r) && r.code == -ENODEV);
	}
	bt_cmd(c, 1, OP_CREATE_BLOCK, (uint8_t)dummy, 0, &size, NULL, 0);
	CU_ASSERT(bt_resp(c, &r) && r.code == 0);
	size++;
	bt_cmd(c, 2, OP_CREATE_BLOCK, (uint8_t)dummy, 1 << 16, &size, NULL, 0);
	CU_ASSERT(bt_resp(c, &r) && r.code == -EINVAL);
	size = 64;
	for (i = 1; i < BT_BLOCKS_MAX; i++) {
		bt_cmd(c, (uint16_t)(i + 1), OP_CREATE_BLOCK, (uint8_t)dummy, i << 16, &size, NULL,
		       0);
		CU_ASSERT(bt_resp(c, &r) && r.code == 0);
	}
	bt_cmd(c, 200, OP_CREATE_BLOCK, (uint8_t)dummy, BT_BLOCKS_MAX << 16, &size, NULL, 0);
	CU_ASSERT(bt_resp(c, &r) && r.code == -ENOSPC);
	CU_ASSERT(bt_in_step(c));
	srvc_close(c);
}
TEST_CASE(test_iiodb_block_limits, "blocks per buffer and block size at N and N+1");

/* A block waits at most the TIMEOUT from when it is the head; then it may be retried. */
static void test_iiodb_block_timeout(void)
{
	struct srvc *c = bt_open();
	int dummy = bt_dev("iio:device0"), trig = bt_dev("trigger0");
	uint64_t size = 4 * 100000;	/* 100 s of scans at 1 kHz */
	struct bt_resp r;
	long t0;

	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_SETTRIG, (uint8_t)dummy, trig), 0);
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_TIMEOUT, 0, 200), 0);
	bt_open_buffer(c, dummy);
	bt_cmd(c, 1, OP_CREATE_BLOCK, (uint8_t)dummy, 0, &size, NULL, 0);
	CU_ASSERT(bt_resp(c, &r) && r.code == 0);
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_ENABLE_BUFFER, (uint8_t)dummy, 0), 0);
	t0 = srvtest_now_ms();
	bt_cmd(c, 1, OP_TRANSFER_BLOCK, (uint8_t)dummy, 0, &size, NULL, 0);
	/* enqueued, not dequeued: the low 16 bits set, as libiio reads a dequeue error */
	CU_ASSERT(bt_resp_n(c, &r, false) && r.id == 1 && r.code == -ETIMEDOUT);
	CU_ASSERT(srvtest_now_ms() - t0 >= 200);
	bt_cmd(c, 1, OP_RETRY_DEQUEUE_BLOCK, (uint8_t)dummy, 0, NULL, NULL, 0);
	CU_ASSERT(bt_resp_n(c, &r, false) && r.id == 1 && r.code == -ETIMEDOUT);
	CU_ASSERT(bt_in_step(c));
	srvc_close(c);
}
TEST_CASE(test_iiodb_block_timeout, "a block's wait is bounded by TIMEOUT; RETRY_DEQUEUE_BLOCK");

/* The native protocol's answer to @req (one line). */
static void bt_native(const char *req, char *out, size_t len)
{
	struct srvc *n = srvc_open(d.t.port);

	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT(srvc_req(n, req, out, len) > 0);
	srvc_close(n);
}

/* An output buffer: blocks answered once played, a cyclic one at once, the block limit. */
static void test_iiodb_output(void)
{
	struct srvc *c = bt_open();
	int dac = bt_dev("iio:device3"), trig = bt_dev("trigger0"), i, k;
	uint32_t mask = htole32(1);	/* voltage0 */
	uint16_t scans[20];
	uint64_t size = sizeof(scans), big = 1024 * 1024;
	struct bt_resp r;
	char out[256];

	CU_ASSERT_PTR_NOT_NULL(strstr(bt_xml, "<buffer index=\"0\" direction=\"out\">"));
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_SETTRIG, (uint8_t)dac, trig), 0);
	bt_cmd(c, 0, OP_OPEN_BUFFER, (uint8_t)dac, 0, NULL, &mask, 4);
	CU_ASSERT(bt_resp(c, &r) && r.code == 4);
	for (k = 0; k < 2; k++) {
		bt_cmd(c, (uint16_t)(k + 1), OP_CREATE_BLOCK, (uint8_t)dac, k << 16, &size, NULL, 0);
		CU_ASSERT(bt_resp_n(c, &r, false) && r.code == 0);
	}
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_ENABLE_BUFFER, (uint8_t)dac, 0), 0);
	/* two blocks: 1..20, 21..40 at 1 kHz; each answered 0 once its last scan played */
	for (k = 0; k < 2; k++) {
		for (i = 0; i < 20; i++)
			scans[i] = htole16((uint16_t)(20 * k + i + 1));
		bt_cmd(c, (uint16_t)(k + 1), OP_TRANSFER_BLOCK, (uint8_t)dac, k << 16, &size, scans,
		       sizeof(scans));
	}
	for (k = 0; k < 2; k++)
		CU_ASSERT(bt_resp_n(c, &r, false) && r.id == k + 1 && r.code == 0);
	bt_native("READ ad5766 out_voltage0_raw", out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "OK 40");
	/* not whole scans: not enqueued */
	size = 3;
	bt_cmd(c, 1, OP_TRANSFER_BLOCK, (uint8_t)dac, 0, &size, scans, 3);
	CU_ASSERT(bt_resp_n(c, &r, false) && r.code == -EINVAL * 65536);
	/* a cyclic block: answered once set; it repeats until the buffer closes */
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_CLOSE_BUFFER, (uint8_t)dac, 0), 0);
	bt_cmd(c, 0, OP_OPEN_BUFFER, (uint8_t)dac, 0, NULL, &mask, 4);
	CU_ASSERT(bt_resp(c, &r) && r.code == 4);
	size = sizeof(scans);
	bt_cmd(c, 1, OP_ENQUEUE_BLOCK_CYCLIC, (uint8_t)dac, 0, &size, scans, sizeof(scans));
	CU_ASSERT(bt_resp_n(c, &r, false) && r.id == 1 && r.code == 0);
	bt_cmd(c, 1, OP_ENQUEUE_BLOCK_CYCLIC, (uint8_t)dac, 0, &size, scans, sizeof(scans));
	CU_ASSERT(bt_resp_n(c, &r, false) && r.code == -EBUSY * 65536);
	/* blocks of the limit are taken, one byte more is refused; a transfer past it closes */
	CU_ASSERT(bt_in_step(c));
	bt_cmd(c, 2, OP_CREATE_BLOCK, (uint8_t)dac, 2 << 16, &big, NULL, 0);
	CU_ASSERT(bt_resp_n(c, &r, false) && r.code == 0);
	big++;
	bt_cmd(c, 3, OP_CREATE_BLOCK, (uint8_t)dac, 3 << 16, &big, NULL, 0);
	CU_ASSERT(bt_resp_n(c, &r, false) && r.code == -EINVAL);
	bt_cmd(c, 3, OP_TRANSFER_BLOCK, (uint8_t)dac, 2 << 16, &big, NULL, 0);
	CU_ASSERT(srvc_closed(c, SRVTEST_REPLY_MS));
	srvc_close(c);
	c = bt_open();
	CU_ASSERT(bt_in_step(c));
	srvc_close(c);
}
TEST_CASE(test_iiodb_output, "an output buffer's blocks played at the trigger's rate");

/* ---- events ---- */

static void bt_poke(const char *value)
{
	struct srvc *n = srvc_open(d.t.port);
	char req[64], out[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	snprintf(req, sizeof(req), "WRITE iio_evgen poke_ev0 %s", value);
	CU_ASSERT(srvc_req(n, req, out, sizeof(out)) > 0 && !strcmp(out, "OK"));
	srvc_close(n);
}

static void test_iiodb_events(void)
{
	struct srvc *c = bt_open();
	int dummy = bt_dev("iio:device0"), adc = bt_dev("iio:device2"), i;
	struct bt_resp r;
	uint64_t id;

	CU_ASSERT_EQUAL(bt_simple(c, 0xffff, OP_CREATE_EVSTREAM, (uint8_t)dummy, 0), 0);
	CU_ASSERT_EQUAL(bt_simple(c, 0xffff, OP_CREATE_EVSTREAM, (uint8_t)dummy, 0), -EEXIST);
	CU_ASSERT_EQUAL(bt_simple(c, 0xfff0, OP_CREATE_EVSTREAM, (uint8_t)adc, 0), -ENODEV);
	/* non-blocking with none waiting */
	CU_ASSERT_EQUAL(bt_simple(c, 0xffff, OP_READ_EVENT, (uint8_t)dummy, 1), -EAGAIN);
	/* blocking: answered when the event fires (voltage0, thresh, rising) */
	bt_cmd(c, 0xffff, OP_READ_EVENT, (uint8_t)dummy, 0, NULL, NULL, 0);
	bt_poke("0");
	CU_ASSERT_FATAL(bt_resp(c, &r));
	CU_ASSERT_EQUAL(r.id, 0xffff);
	CU_ASSERT_EQUAL(r.code, 16);
	memcpy(&id, r.data, 8);
	CU_ASSERT_EQUAL(le64toh(id), 0x0001000000000000ULL);
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_FREE_EVSTREAM, (uint8_t)dummy, 0xffff), 0);
	CU_ASSERT_EQUAL(bt_simple(c, 0, OP_FREE_EVSTREAM, (uint8_t)dummy, 0xffff), -EBADF);
	/* SRV_IIODB_EVSTREAMS_MAX streams, then one more */
	for (i = 0; i < BT_EVSTREAMS_MAX; i++)
		CU_ASSERT_EQUAL(bt_simple(c, (uint16_t)(0xff00 + i), OP_CREATE_EVSTREAM,
					  (uint8_t)dummy, 0), 0);
	CU_ASSERT_EQUAL(bt_simple(c, 0xfe00, OP_CREATE_EVSTREAM, (uint8_t)dummy, 0), -EBUSY);
	CU_ASSERT(bt_in_step(c));
	srvc_close(c);
}
TEST_CASE(test_iiodb_events, "event streams: an event per READ_EVENT, N and N+1 streams");

/* ---- the model changes ---- */

static void test_iiodb_stale(void)
{
	struct srvc *c = bt_open();
	int dummy = bt_dev("iio:device0");
	struct bt_resp r;

	kill(d.t.pid, SIGHUP);
	CU_ASSERT_FATAL(srvtest_log_wait(&d.t, "board reloaded", SRVTEST_START_MS));
	/* the numbers came from the old board's XML */
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_CHN_ATTR, (uint8_t)dummy, 1, 0, &r), -ESTALE);
	bt_cmd(c, 1, OP_PRINT, 0, 0, NULL, NULL, 0);
	CU_ASSERT(bt_resp(c, &r) && r.code > 0);
	CU_ASSERT_EQUAL(bt_read(c, OP_READ_CHN_ATTR, (uint8_t)dummy, 1, 0, &r), 3);
	srvc_close(c);
}
TEST_CASE(test_iiodb_stale, "after a reload, numbers from the old XML get -ESTALE until PRINT");

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	return test_main("server_iiodb", bt_suite_init, bt_suite_fini);
}
