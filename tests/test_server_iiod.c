/*
 * test_server_iiod.c - iiowired's iiod (libiio 0.24) listener, live.
 *
 * Starts the built daemon (srvtest.h) with --iiod-listen on a port the
 * kernel picks and a board of iio_dummy plus the emulated MAX1238 at
 * 0-0035, then talks to it twice: byte for byte with raw sockets (a table
 * of request/reply transcripts, each followed by a VERSION that proves the
 * stream is still in step; PRINT as valid XML; EXIT, half-close, bounded
 * WRITE, limits, read-only, authentication, reload, a hung bus, a software
 * buffer without a trigger), and with
 * the real libiio tools: iio_info, iio_attr and the Python bindings, which
 * must list and read exactly what the board has. Those three are skipped
 * with a message when they are not installed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iiod.h"
#include "iiodtest.h"
#include "srvtest.h"
#include "testutil.h"

/* Channel ids as libiio groups them: exact, by the rules of PROTOCOL-iiod.md. */
#define IIODT_BOARD							\
	"{\"board\": \"iiodtest\", \"description\": \"iiod <listener> & test\","	\
	" \"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"	\
	" \"devices\": ["							\
	"  {\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"		\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x35\","	\
	"   \"label\": \"adc\", \"emulate\": {\"AIN0\": 3300, \"AIN1\": 1800, \"AIN2\": 200}}]}"

/* The same with an hrtimer trigger. */
#define IIODT_BOARD_TRIG						\
	"{\"board\": \"iiodtrig\", \"triggers\": [{\"type\": \"hrtimer\", \"name\": \"hrt0\","	\
	"  \"sampling_frequency\": 1000}],"				\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"}]}"

/* The same plus a chip that hangs every transfer, on a bus of its own. */
#define IIODT_BOARD_HUNG						\
	"{\"board\": \"iiodhung\","						\
	" \"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"},"	\
	"  \"i2c-1\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"	\
	" \"devices\": ["							\
	"  {\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"		\
	"  {\"driver\": \"max1238\", \"bus\": \"i2c-1\", \"address\": \"0x36\","	\
	"   \"label\": \"hung\", \"fault\": {\"mode\": \"hang\", \"hang_ms\": 600}}]}"

#define IIODT_SYNC	"VERSION\r\n"
#define IIODT_SYNC_REPLY "0.24.iiowire\n"
/* The integer line of a reply, empty lines skipped as libiio does. */
static long iiodt_int(struct srvc *c)
{
	char line[64];
	ssize_t n;

	do {
		n = srvc_line(c, line, sizeof(line));
	} while (n == 0);
	return n < 0 ? -100000 + (long)n : strtol(line, NULL, 10);
}

/*
 * True when @want arrives (within SRVTEST_REPLY_MS) and, with @quiet_ms,
 * nothing more within that time.
 */
static bool iiodt_expect(struct srvc *c, const char *want, size_t len, int quiet_ms)
{
	char *got = malloc(len + 1);
	char extra;
	bool ok;

	if (!got)
		return false;
	ok = iiodt_bytes(c, got, len, SRVTEST_REPLY_MS) == len && memcmp(got, want, len) == 0;
	free(got);
	if (ok && quiet_ms)
		ok = iiodt_bytes(c, &extra, 1, quiet_ms) == 0;
	return ok;
}

/* Send a literal, embedded NULs included. */
#define IIODT_SEND(c, lit)	srvc_send((c), (lit), sizeof(lit) - 1)
/* Expect a literal reply, embedded NULs included. */
#define IIODT_EXPECT(c, lit)	iiodt_expect((c), (lit), sizeof(lit) - 1, 0)

/* Is the stream still in step? A VERSION must get exactly its answer. */
static bool iiodt_in_step(struct srvc *c)
{
	return srvc_sends(c, IIODT_SYNC) == 0 &&
	       iiodt_expect(c, IIODT_SYNC_REPLY, strlen(IIODT_SYNC_REPLY), 50);
}

/* A new client on @d's iiod port answers in step: there is room, and the server is sane. */
static void iiodt_fresh_in_step(struct iiodt *d)
{
	struct srvc *c = srvc_open(d->port);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(iiodt_in_step(c));
	srvc_close(c);
}

/* ---- transcripts ---- */

struct iiodt_row {
	const char *name;
	const char *req;
	size_t req_len;
	const char *then;	/* sent 100 ms later (a payload in its own segment), or NULL */
	const char *reply;
	size_t reply_len;
};

/* @q and @r are literals: their sizes count embedded NULs */
#define ROW(n, q, r)		{ n, q, sizeof(q) - 1, NULL, r, sizeof(r) - 1 }
#define ROWT(n, q, t, r)	{ n, q, sizeof(q) - 1, t, r, sizeof(r) - 1 }

/* In order on one connection: WRITEs change what later READs see. */
static const struct iiodt_row iiodt_rows[] = {
	ROW("VERSION", "VERSION\r\n", "0.24.iiowire\n"),
	ROW("I-2 empty lines get nothing", "\r\n\r\n  \r\n", ""),
	ROW("TIMEOUT as the client sends it", "TIMEOUT 2500\r\n", "0\n"),
	ROW("I-5 READ channel attribute: value, NUL, newline",
	    "READ iio:device0 INPUT voltage0 raw\r\n", "3\n73\0\n"),
	ROW("READ by device name", "READ dummy0 INPUT voltage0 offset\r\n",
	    "2\n7\0\n"),
	ROW("READ by device label", "READ adc INPUT voltage1 raw\r\n",
	    "5\n1800\0\n"),
	ROW("READ modified channel", "READ iio:device0 INPUT accel_x calibscale\r\n",
	    "9\n0.000100\0\n"),
	ROW("READ channel without an index", "READ iio:device0 INPUT steps input\r\n",
	    "3\n47\0\n"),
	ROW("READ shared by type, differential", "READ max1238 INPUT voltage0-voltage1 scale\r\n",
	    "12\n1.000000000\0\n"),
	ROW("READ shared by type, single-ended", "READ iio:device1 INPUT voltage2 scale\r\n",
	    "12\n1.000000000\0\n"),
	ROW("READ device attribute", "READ iio:device0 in_sampling_frequency\r\n",
	    "12\n3.000000033\0\n"),
	ROW("READ a file the XML leaves out (as iiod)", "READ iio:device0 name\r\n",
	    "7\ndummy0\0\n"),
	ROW("I-1 read in lower case, LF only", "read iio:device0 input accel_x raw\n",
	    "3\n34\0\n"),
	ROW("READ unknown device", "READ nodev x\r\n", "-19\n"),
	ROW("READ unknown channel", "READ iio:device1 INPUT voltage99 raw\r\n", "-6\n"),
	ROW("READ input-only channel as output", "READ iio:device0 OUTPUT accel_x raw\r\n",
	    "-6\n"),
	ROW("READ unknown attribute", "READ iio:device0 INPUT voltage0 nothing\r\n", "-2\n"),
	ROW("READ debug attribute: no debugfs", "READ iio:device0 DEBUG direct_reg_access\r\n",
	    "-2\n"),
	ROW("READ buffer attribute: no buffer", "READ iio:device0 BUFFER data_available\r\n",
	    "-2\n"),
	ROW("READ all debug attributes: none", "READ iio:device0 DEBUG\r\n", "0\n\n"),
	ROW("READ all of a channel", "READ iio:device0 INPUT voltage0\r\n",
	    "32\n\0\0\0\x02" "7\0\0\0" "\0\0\0\x03" "73\0\0" "\0\0\0\x09" "0.001333\0\0\0\0\n"),
	ROW("WRITE: payload with its NUL, count back",
	    "WRITE iio:device0 OUTPUT voltage0 raw 5\r\n1234\0", "5\n"),
	ROW("READ what was written", "READ iio:device0 OUTPUT voltage0 raw\r\n",
	    "5\n1234\0\n"),
	ROWT("WRITE payload in its own segment", "WRITE iio:device0 OUTPUT voltage0 raw 3\r\n",
	     "987", "3\n"),
	ROW("READ it back", "READ dummy0 OUTPUT voltage0 raw\r\n",
	    "4\n987\0\n"),
	ROW("WRITE refused by the driver", "WRITE iio:device0 OUTPUT voltage0 raw 4\r\nabc\0",
	    "-22\n"),
	ROW("WRITE the driver refuses (raw of an input)",
	    "WRITE iio:device0 INPUT accel_x raw 2\r\n5\0", "-22\n"),
	ROW("I-8 WRITE to an unknown device: payload skipped, not run",
	    "WRITE nodev x 9\r\nVERSION\r\n", "-19\n"),
	ROW("I-7 I-8 WRITE with a bad name: payload skipped",
	    "WRITE iio:device0 a/b 7\r\nPRINT\r\n", "-22\n"),
	ROW("WRITE of zero bytes: nothing follows the line",
	    "WRITE iio:device0 current_timestamp_clock 0\r\n", "-22\n"),
	ROW("WRITE a device attribute", "WRITE dummy0 current_timestamp_clock 10\r\nmonotonic\0",
	    "10\n"),
	ROW("READ it back", "READ iio:device0 current_timestamp_clock\r\n", "10\nmonotonic\0\n"),
	ROW("READ all device attributes", "READ iio:device0\r\n",
	    "32\n\0\0\0\x0a" "monotonic\0\0\0" "\0\0\0\x0c" "3.000000033\0\n"),
	ROW("WRITE all of a channel", "WRITE iio:device0 OUTPUT voltage0 8\r\n\0\0\0\x04" "555\0",
	    "8\n"),
	ROW("READ what write-all wrote", "READ iio:device0 OUTPUT voltage0 raw\r\n", "4\n555\0\n"),
	ROW("WRITE all, an entry past the end", "WRITE iio:device0 OUTPUT voltage0 4\r\n\0\0\0\x09",
	    "-22\n"),
	ROW("WRITE all, a negative entry leaves it be", "WRITE iio:device0 OUTPUT voltage0 4\r\n"
	    "\xff\xff\xff\xea", "4\n"),
	ROW("READ it unchanged", "READ iio:device0 OUTPUT voltage0 raw\r\n", "4\n555\0\n"),
	ROW("unknown command", "FROB iio:device0\r\n", "-22\n"),
	ROW("I-1 mixed-case keyword", "Read iio:device0 name\r\n", "-22\n"),
	ROW("ZPRINT: no zstd, the client falls back", "ZPRINT\r\n", "-22\n"),
	ROW("GETTRIG: no trigger set", "GETTRIG iio:device0\r\n", "0\n"),
	ROW("GETTRIG unknown device", "GETTRIG nodev\r\n", "-19\n"),
	ROW("SETTRIG", "SETTRIG iio:device0 trigger0\r\n", "-2\n"),
	ROW("SET BUFFERS_COUNT", "SET iio:device0 BUFFERS_COUNT 4\r\n", "0\n"),
	ROW("SET BUFFERS_COUNT 0", "SET iio:device0 BUFFERS_COUNT 0\r\n", "-22\n"),
	ROW("OPEN without a trigger", "OPEN iio:device0 8 00000003\r\n", "-22\n"),
	ROW("OPEN: mask of the wrong length", "OPEN iio:device0 8 0003\r\n", "-22\n"),
	ROW("OPEN unknown device", "OPEN nodev 8 00000003\r\n", "-19\n"),
	ROW("READBUF without OPEN", "READBUF iio:device0 32\r\n", "-9\n"),
	ROW("CLOSE without OPEN", "CLOSE iio:device0\r\n", "-6\n"),
	ROW("I-6 pipelined requests answered in order",
	    "VERSION\r\nTIMEOUT 5\r\nREAD iio:device0 INPUT accel_x raw\r\nGETTRIG iio:device1\r\n",
	    "0.24.iiowire\n0\n3\n34\0\n0\n"),
};

static void iiodt_send_row(struct srvc *c, const struct iiodt_row *r)
{
	srvc_send(c, r->req, r->req_len);
	if (r->then) {
		srvtest_sleep_ms(100);
		srvc_sends(c, r->then);
	}
}

static void test_iiod_transcripts(void)
{
	const struct iiodt_row *r;
	struct iiodt d;
	struct srvc *c;
	size_t i;
	bool ok = true;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, NULL), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (i = 0; i < sizeof(iiodt_rows) / sizeof(iiodt_rows[0]); i++) {
		r = &iiodt_rows[i];
		iiodt_send_row(c, r);
		TEST_ROW_ASSERT(iiodt_expect(c, r->reply, r->reply_len, 0), r->name);
		TEST_ROW_ASSERT(iiodt_in_step(c), r->name);
		ok = ok && !CU_get_number_of_failures();
	}
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_stop(&d.t), 0);
	srvtest_fini(&d.t, !ok);
}
TEST_CASE(test_iiod_transcripts,
	  "I-1..I-8 transcripts: every request, byte for byte, stream in step");

/* PRINT: a valid XML context naming every device and channel of the board. */
static const char *const iiodt_xml_rows[] = {
	"<?xml version=\"1.0\" encoding=\"utf-8\"?><!DOCTYPE context [",
	"version-major=\"0\" version-minor=\"24\" version-git=\"iiowire\"",
	"board iiodtest, iiod &lt;listener&gt; &amp; test\"",
	"<context-attribute name=\"iiowire,board\" value=\"iiodtest\"/>",
	"<device id=\"iio:device0\" name=\"dummy0\">",
	"<channel id=\"voltage0\" type=\"input\"><scan-element index=\"0\" "
	"format=\"le:u13/16&gt;&gt;0\"/>"
	"<attribute name=\"offset\" filename=\"in_voltage0_offset\"/>"
	"<attribute name=\"raw\" filename=\"in_voltage0_raw\"/><attribute name=\"scale\" "
	"filename=\"in_voltage0_scale\"/></channel>",
	"<channel id=\"voltage1-voltage2\" type=\"input\"><scan-element index=\"1\" "
	"format=\"le:s12/16&gt;&gt;0\"/><attribute name=\"raw\" "
	"filename=\"in_voltage1-voltage2_raw\"/><attribute name=\"scale\" "
	"filename=\"in_voltage-voltage_scale\"/></channel>",
	"<channel id=\"accel_x\" type=\"input\"><scan-element index=\"3\"",
	"<channel id=\"timestamp\" type=\"input\"><scan-element index=\"4\" "
	"format=\"le:S64/64&gt;&gt;0\"/></channel>",
	"<channel id=\"voltage0\" type=\"output\"><attribute name=\"raw\" "
	"filename=\"out_voltage0_raw\"/></channel>",
	"<channel id=\"activity_running\" type=\"input\"><attribute name=\"input\" "
	"filename=\"in_activity_running_input\"/></channel>",
	"<channel id=\"steps\" type=\"input\"><attribute name=\"calibheight\" "
	"filename=\"in_steps_calibheight\"/><attribute name=\"en\" filename=\"in_steps_en\"/>"
	"<attribute name=\"input\" filename=\"in_steps_input\"/></channel>",
	"<attribute name=\"current_timestamp_clock\"/><attribute name=\"in_sampling_frequency\"/>"
	"</device>",
	"<device id=\"iio:device1\" name=\"max1238\" label=\"adc\">",
	"<channel id=\"voltage11-voltage10\" type=\"input\"><scan-element index=\"23\" "
	"format=\"be:s12/16&gt;&gt;0\"/><attribute name=\"raw\" "
	"filename=\"in_voltage11-voltage10_raw\"/><attribute name=\"scale\" "
	"filename=\"in_voltage-voltage_scale\"/></channel>",
	"<channel id=\"voltage11\" type=\"input\"><scan-element index=\"11\" "
	"format=\"be:u12/16&gt;&gt;0\"/><attribute name=\"raw\" filename=\"in_voltage11_raw\"/>"
	"<attribute name=\"scale\" filename=\"in_voltage_scale\"/></channel>",
	"<attribute name=\"current_timestamp_clock\"/></device></context>",
};

/* Count of @needle in @hay. */
static int iiodt_count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void test_iiod_print(void)
{
	char path[] = "/tmp/iiowire-iiod-print-XXXXXX", cmd[128];
	struct iiodt d;
	struct srvc *c;
	char *xml;
	long n;
	size_t i;
	int fd;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, NULL), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "PRINT\r\n");
	n = iiodt_int(c);
	CU_ASSERT_FATAL(n > 1000 && n < 1000000);
	xml = calloc(1, (size_t)n + 2);
	CU_ASSERT_FATAL(iiodt_bytes(c, xml, (size_t)n + 1, SRVTEST_REPLY_MS) == (size_t)n + 1);
	/* the length does not count the newline that ends the frame */
	CU_ASSERT_EQUAL(xml[n], '\n');
	xml[n] = '\0';
	CU_ASSERT_EQUAL(strlen(xml), (size_t)n);
	CU_ASSERT_PTR_NULL(strchr(xml, '\n'));
	for (i = 0; i < sizeof(iiodt_xml_rows) / sizeof(iiodt_xml_rows[0]); i++)
		TEST_ROW_ASSERT(strstr(xml, iiodt_xml_rows[i]) != NULL, iiodt_xml_rows[i]);
	CU_ASSERT_EQUAL(iiodt_count(xml, "<device "), 2);
	/* dummy0: 9 channels; max1238: 12 single-ended, 12 differential, the timestamp */
	CU_ASSERT_EQUAL(iiodt_count(xml, "<channel "), 9 + 25);
	CU_ASSERT_EQUAL(iiodt_count(xml, "type=\"output\""), 1);
	/* shared-by-direction stays a device attribute: no "sampling" pseudo-channel */
	CU_ASSERT_PTR_NULL(strstr(xml, "id=\"sampling\""));
	/* a differential channel does not get the single-ended in_voltage_scale too */
	CU_ASSERT_EQUAL(iiodt_count(xml, "filename=\"in_voltage_scale\""), 12);
	CU_ASSERT(iiodt_in_step(c));

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, xml, (size_t)n), n);
	close(fd);
	if (system("command -v xmllint >/dev/null 2>&1") == 0) {
		/* against the inline DTD, as libiio's client parses it */
		snprintf(cmd, sizeof(cmd), "xmllint --valid --noout %s", path);
		CU_ASSERT_EQUAL(system(cmd), 0);
	} else {
		fprintf(stderr, "xmllint not installed: PRINT not validated against its DTD\n");
	}
	unlink(path);
	free(xml);
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_stop(&d.t), 0);
	srvtest_fini(&d.t, false);
}
TEST_CASE(test_iiod_print, "I-4 PRINT: valid XML with every device and channel");

/* HELP is free text for people: no integer line, and the stream goes on. */
static void test_iiod_help(void)
{
	char buf[4096];
	struct iiodt d;
	struct srvc *c;
	size_t got;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, NULL), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "HELP\r\n" IIODT_SYNC);
	got = iiodt_bytes(c, buf, sizeof(buf) - 1, 500);
	buf[got] = '\0';
	CU_ASSERT(got > strlen(IIODT_SYNC_REPLY));
	CU_ASSERT(buf[0] < '0' || buf[0] > '9');
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "READ <dev>"));
	CU_ASSERT(got > strlen(IIODT_SYNC_REPLY) &&
		  strcmp(buf + got - strlen(IIODT_SYNC_REPLY), IIODT_SYNC_REPLY) == 0);
	srvc_close(c);
	CU_ASSERT_EQUAL(srvtest_stop(&d.t), 0);
	srvtest_fini(&d.t, false);
}
TEST_CASE(test_iiod_help, "I-3 HELP: free text");

/* ---- connection ends ---- */

struct iiodt_end_row {
	const char *name;
	const char *send;
	bool shut_wr;		/* half-close right after sending */
	const char *reply;	/* everything that comes before the server closes */
};

static const struct iiodt_end_row iiodt_end_rows[] = {
	{ "EXIT: no reply, closed", "EXIT\r\n", false, "" },
	{ "QUIT in lower case", "quit\r\n", false, "" },
	{ "EXIT then FIN at once is still EXIT", "EXIT\r\n", true, "" },
	{ "EXIT as the client sends it, after a request", "TIMEOUT 1\r\n\r\nEXIT\r\n", false,
	  "0\n" },
	{ "half-close: answered, then closed (no -22 stream)", "VERSION\r\n", true,
	  "0.24.iiowire\n" },
	{ "half-close with nothing asked", "", true, "" },
	{ "half-close after a last line without its newline", "VERSION\r\nTIMEOUT 3", true,
	  "0.24.iiowire\n0\n" },
	{ "half-close in the middle of a WRITE payload",
	  "WRITE iio:device0 OUTPUT voltage0 raw 10\r\n12", true, "" },
	{ "nothing after EXIT is read", "EXIT\r\nVERSION\r\n", false, "" },
	{ "B8 a refused WRITEBUF's pipelined payload is not run as commands",
	  "WRITEBUF iio:device0 23\r\nREAD iio:device0 name\r\n", false, "-38\n" },
	{ "B8 the same for an unknown device", "WRITEBUF nodev 9\r\nVERSION\r\n", false,
	  "-19\n" },
	/* its samples would come in a later packet: none can be read once it is closed */
	{ "B8 a refused WRITEBUF with nothing behind it yet: answered, then closed",
	  "WRITEBUF iio:device0 32\r\n", false, "-38\n" },
};

static void test_iiod_ends(void)
{
	const struct iiodt_end_row *r;
	char buf[256];
	struct iiodt d;
	struct srvc *c;
	size_t i, got;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, NULL), 0);
	for (i = 0; i < sizeof(iiodt_end_rows) / sizeof(iiodt_end_rows[0]); i++) {
		r = &iiodt_end_rows[i];
		c = srvc_open(d.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		srvc_sends(c, r->send);
		if (r->shut_wr)
			shutdown(c->fd, SHUT_WR);
		/* everything up to the close: a server that loops would fill the buffer */
		got = iiodt_bytes(c, buf, sizeof(buf), 2000);
		TEST_ROW_ASSERT(got == strlen(r->reply) && memcmp(buf, r->reply, got) == 0,
				r->name);
		TEST_ROW_ASSERT(srvc_closed(c, 1000), r->name);
		srvc_close(c);
	}
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_ends, "I-9 EXIT and half-close end the connection cleanly");

/* ---- limits ---- */

static void test_iiod_write_limits(void)
{
	size_t big = PROTO_IIOD_WRITE_MAX_BYTES + 1;
	char line[128], *payload;
	struct iiodt d;
	struct srvc *c;

	payload = malloc(PROTO_IIOD_SKIP_MAX_BYTES + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(payload);
	memset(payload, 'A', PROTO_IIOD_SKIP_MAX_BYTES + 1);
	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, NULL), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);

	/* at the limit: taken in and handed to the attribute (which refuses the text) */
	snprintf(line, sizeof(line), "WRITE iio:device0 OUTPUT voltage0 raw %d\r\n",
		 PROTO_IIOD_WRITE_MAX_BYTES);
	srvc_sends(c, line);
	srvc_send(c, payload, PROTO_IIOD_WRITE_MAX_BYTES);
	CU_ASSERT_EQUAL(iiodt_int(c), -EINVAL);
	CU_ASSERT(iiodt_in_step(c));
	/* one past it: -EFBIG, the bytes read and dropped */
	snprintf(line, sizeof(line), "WRITE iio:device0 OUTPUT voltage0 raw %zu\r\n", big);
	srvc_sends(c, line);
	srvc_send(c, payload, big);
	CU_ASSERT_EQUAL(iiodt_int(c), -EFBIG);
	CU_ASSERT(iiodt_in_step(c));
	/* the most that is still skipped */
	snprintf(line, sizeof(line), "WRITE iio:device0 x %d\r\n", PROTO_IIOD_SKIP_MAX_BYTES);
	srvc_sends(c, line);
	srvc_send(c, payload, PROTO_IIOD_SKIP_MAX_BYTES);
	CU_ASSERT_EQUAL(iiodt_int(c), -EFBIG);
	CU_ASSERT(iiodt_in_step(c));
	/* past that: -EFBIG and the connection is closed, nothing is read */
	snprintf(line, sizeof(line), "WRITE iio:device0 OUTPUT voltage0 raw %d\r\n",
		 PROTO_IIOD_SKIP_MAX_BYTES + 1);
	srvc_sends(c, line);
	CU_ASSERT_EQUAL(iiodt_int(c), -EFBIG);
	CU_ASSERT(srvc_closed(c, 2000));
	srvc_close(c);
	/* a length no 64-bit number holds: the same */
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "WRITE iio:device0 x 99999999999999999999999\r\n");
	CU_ASSERT_EQUAL(iiodt_int(c), -EFBIG);
	CU_ASSERT(srvc_closed(c, 2000));
	srvc_close(c);
	/* a request line past PROTO_IIOD_LINE_MAX_BYTES: -E2BIG, closed */
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "READ iio:device0 ");
	srvc_send(c, payload, PROTO_IIOD_LINE_MAX_BYTES);
	CU_ASSERT_EQUAL(iiodt_int(c), -E2BIG);
	CU_ASSERT(srvc_closed(c, 2000));
	srvc_close(c);
	/* ... and one of exactly the limit is a request (an unknown attribute) */
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "READ dummy0 ");
	srvc_send(c, payload, PROTO_IIOD_LINE_MAX_BYTES - strlen("READ dummy0 "));
	srvc_sends(c, "\r\n");
	CU_ASSERT_EQUAL(iiodt_int(c), -EINVAL);	/* a 1012-byte name is no name */
	CU_ASSERT(iiodt_in_step(c));
	srvc_close(c);

	iiodt_stop(&d);
	free(payload);
}
TEST_CASE(test_iiod_write_limits, "I-8 WRITE payload and request line limits");

static void test_iiod_read_only(void)
{
	static const char *const args[] = { "--read-only", NULL };
	struct iiodt d;
	struct srvc *c;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, args), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	IIODT_SEND(c, "WRITE iio:device0 OUTPUT voltage0 raw 4\r\n555\0");
	CU_ASSERT(IIODT_EXPECT(c, "-13\n"));
	CU_ASSERT(iiodt_in_step(c));
	/* refused before the name is looked at, payload skipped all the same */
	srvc_sends(c, "WRITE nodev x 4\r\nEXIT");
	CU_ASSERT(IIODT_EXPECT(c, "-13\n"));
	CU_ASSERT(iiodt_in_step(c));
	/* nothing changed, and reads still work */
	srvc_sends(c, "READ iio:device0 OUTPUT voltage0 raw\r\n");
	CU_ASSERT(IIODT_EXPECT(c, "2\n0\0\n"));
	/* an OPEN enables the buffer: a write, whatever the mask */
	IIODT_SEND(c, "OPEN iio:device0 8 00000001\r\n");
	CU_ASSERT(IIODT_EXPECT(c, "-13\n"));
	CU_ASSERT(iiodt_in_step(c));
	srvc_close(c);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_read_only,
	  "I-8 --read-only: WRITE and OPEN get -EACCES, a WRITE's payload skipped");

/* An INA219 on a 0.1 ohm shunt carrying 1 A: its shunt register holds 10000 (0x2710). */
#define IIODT_BOARD_INA							\
	"{\"board\": \"iiodina\","						\
	" \"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"	\
	" \"devices\": [{\"driver\": \"ina219\", \"bus\": \"i2c-0\", \"address\": \"0x40\","	\
	"  \"shunt-resistor\": 100000,"						\
	"  \"emulate\": {\"current\": 1000, \"vbus\": 12000, \"rshunt\": 100000}}]}"

/*
 * A software buffer (ina2xx-adc's kfifo, which its driver fills): no
 * trigger/, so GETTRIG and SETTRIG are -2 as iiod's are, and OPEN needs no
 * trigger; READBUF gets the driver's own scans, the shunt register as read.
 */
static void test_iiod_software_buffer(void)
{
	static const char want[] = "8\n00000001\n\x10\x27\x10\x27\x10\x27\x10\x27";
	struct iiodt d;
	struct srvc *c;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD_INA, NULL), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "GETTRIG iio:device0\r\nSETTRIG iio:device0\r\n");
	CU_ASSERT(IIODT_EXPECT(c, "-2\n-2\n"));
	srvc_sends(c, "OPEN iio:device0 8 00000001\r\n");
	CU_ASSERT(IIODT_EXPECT(c, "0\n"));
	srvc_sends(c, "READBUF iio:device0 8\r\n");
	CU_ASSERT(iiodt_expect(c, want, sizeof(want) - 1, 0));
	srvc_sends(c, "CLOSE iio:device0\r\n");
	CU_ASSERT(IIODT_EXPECT(c, "0\n"));
	CU_ASSERT(iiodt_in_step(c));
	srvc_close(c);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_software_buffer,
	  "a software buffer (ina219): GETTRIG/SETTRIG -2, OPEN without a trigger, READBUF");

/* --allow-write: only matching attributes; the rest -EACCES, payload skipped. */
static void test_iiod_allow_write(void)
{
	static const char *const args[] = { "--allow-write", "dummy0:out_voltage*_raw", NULL };
	struct iiodt d;
	struct srvc *c;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, args), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	IIODT_SEND(c, "WRITE iio:device0 OUTPUT voltage0 raw 4\r\n777\0");
	CU_ASSERT(IIODT_EXPECT(c, "4\n"));
	IIODT_SEND(c, "WRITE iio:device0 current_timestamp_clock 10\r\nmonotonic\0");
	CU_ASSERT(IIODT_EXPECT(c, "-13\n"));
	CU_ASSERT(iiodt_in_step(c));
	/* write-all is refused whole when one of its attributes is not allowed */
	IIODT_SEND(c, "WRITE iio:device0 20\r\n\0\0\0\x0a" "monotonic\0\0\0" "\xff\xff\xff\xff");
	CU_ASSERT(IIODT_EXPECT(c, "-13\n"));
	CU_ASSERT(iiodt_in_step(c));
	srvc_sends(c, "READ iio:device0 OUTPUT voltage0 raw\r\nREAD iio:device0 "
		   "current_timestamp_clock\r\n");
	CU_ASSERT(IIODT_EXPECT(c, "4\n777\0\n9\nrealtime\0\n"));
	srvc_close(c);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_allow_write, "--allow-write applies to iiod WRITE");

/* A trigger's file under --allow-write (by its name); a trigger added on the native port is in the next PRINT. */
static void test_iiod_trigger_policy_and_added(void)
{
	static const char *const args[] = { "--allow-write", "hrt0:sampling_frequency",
					    "--allow-write", "iio_sysfs_trigger:add_trigger", NULL };
	static const char board[] =
		"{\"board\": \"iiodtrig\", \"triggers\": [{\"type\": \"hrtimer\", \"name\": \"hrt0\"},"
		" {\"type\": \"sysfs\", \"number\": 0}],"
		" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"}]}";
	struct srvc *c, *n;
	struct iiodt d;
	char line[128], *xml;
	long len;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, board, args), 0);
	c = srvc_open(d.port);
	n = srvc_open(d.t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	IIODT_SEND(c, "WRITE trigger0 sampling_frequency 4\r\n250\0");
	CU_ASSERT(IIODT_EXPECT(c, "4\n"));
	IIODT_SEND(c, "WRITE trigger1 trigger_now 2\r\n1\0");
	CU_ASSERT(IIODT_EXPECT(c, "-13\n"));
	CU_ASSERT(iiodt_in_step(c));
	CU_ASSERT(srvc_req(n, "READ hrt0 sampling_frequency", line, sizeof(line)) > 0);
	CU_ASSERT_STRING_EQUAL(line, "OK 250.000000");
	CU_ASSERT(srvc_req(n, "WRITE iio_sysfs_trigger add_trigger 5", line, sizeof(line)) > 0);
	CU_ASSERT_STRING_EQUAL(line, "OK");
	srvc_sends(c, "PRINT\r\n");
	len = iiodt_int(c);
	CU_ASSERT_FATAL(len > 100 && len < 1000000);
	xml = calloc(1, (size_t)len + 2);
	CU_ASSERT_FATAL(xml != NULL);
	CU_ASSERT(iiodt_bytes(c, xml, (size_t)len + 1, SRVTEST_REPLY_MS) == (size_t)len + 1);
	CU_ASSERT(strstr(xml, "id=\"trigger2\" name=\"sysfstrig5\"") != NULL);
	/* the board's iio_sysfs_trigger, listed as iiod lists the kernel's: no name, its files */
	CU_ASSERT(strstr(xml, "<device id=\"iio_sysfs_trigger\"><attribute name=\"add_trigger\"/>"
			 "<attribute name=\"remove_trigger\"/></device>") != NULL);
	free(xml);
	srvc_close(n);
	srvc_close(c);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_trigger_policy_and_added,
	  "--allow-write names a trigger for iiod WRITE; an added trigger is in the next PRINT");

/* --max-clients counts iiod and native clients together. */
static void test_iiod_max_clients(void)
{
	static const char *const args[] = { "--max-clients", "1", NULL };
	char line[256];
	struct iiodt d;
	struct srvc *a, *b, *n;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, args), 0);
	a = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT(iiodt_in_step(a));
	/* the second one gets -EBUSY as the answer to whatever it asks first */
	b = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	srvc_sends(b, "PRINT\r\n");
	CU_ASSERT(IIODT_EXPECT(b, "-16\n"));
	CU_ASSERT(srvc_closed(b, 2000));
	srvc_close(b);
	n = srvc_open(d.t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT(srvc_line(n, line, sizeof(line)) > 0 && strstr(line, "EBUSY"));
	srvc_close(n);
	/* once the first leaves, there is room again */
	srvc_close(a);
	srvtest_sleep_ms(200);
	iiodt_fresh_in_step(&d);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_max_clients, "--max-clients counts iiod clients");

/* ---- options ---- */

struct iiodt_opt_row {
	const char *name;
	const char *args[6];
	bool token;		/* also --auth-token-file */
	int exit;		/* -1: starts and serves */
	const char *log;	/* what the log must say */
};

static const struct iiodt_opt_row iiodt_opt_rows[] = {
	{ "a token without --iiod-unauthenticated", { "--iiod-listen", "127.0.0.1:0" }, true,
	  2, "--iiod-unauthenticated" },
	{ "a token with --iiod-unauthenticated",
	  { "--iiod-listen", "127.0.0.1:0", "--iiod-unauthenticated" }, true, -1,
	  IIODT_LISTEN_LOG },
	{ "a port alone is loopback", { "--iiod-listen", "0" }, false, -1, IIODT_LISTEN_LOG },
	{ ":PORT is loopback", { "--iiod-listen", ":0" }, false, -1, IIODT_LISTEN_LOG },
	{ "malformed address", { "--iiod-listen", "127.0.0.1:port" }, false, 2,
	  "not PORT, :PORT" },
	{ "bare IPv6 address", { "--iiod-listen", "::1:0" }, false, 2, "not PORT, :PORT" },
	{ "port past 65535", { "--iiod-listen", "70000" }, false, 2, "not PORT" },
	{ "help lists the options", { "--help" }, false, 0, NULL },
};

static void test_iiod_options(void)
{
	const struct iiodt_opt_row *r;
	const char *argv[12];
	char token[] = "/tmp/iiowire-iiod-token-XXXXXX", out[8192];
	struct srvtest t;
	FILE *p;
	size_t i, got;
	int n, fd, ret;

	fd = mkstemp(token);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, "open sesame, sixteen\n", 21), 21);
	fchmod(fd, 0600);
	close(fd);
	for (i = 0; i < sizeof(iiodt_opt_rows) / sizeof(iiodt_opt_rows[0]); i++) {
		r = &iiodt_opt_rows[i];
		if (r->exit == 0) {
			/* --help: the iiod options and limits are listed */
			p = popen(SRVTEST_BINARY " --help", "r");
			CU_ASSERT_PTR_NOT_NULL_FATAL(p);
			got = fread(out, 1, sizeof(out) - 1, p);
			out[got] = '\0';
			TEST_ROW_ASSERT(pclose(p) == 0, r->name);
			TEST_ROW_ASSERT(strstr(out, "--iiod-listen") && strstr(out,
					"--iiod-unauthenticated") && strstr(out, "16384"), r->name);
			continue;
		}
		n = 0;
		while (n < 6 && r->args[n]) {
			argv[n] = r->args[n];
			n++;
		}
		if (r->token) {
			argv[n++] = "--auth-token-file";
			argv[n++] = token;
		}
		argv[n] = NULL;
		ret = srvtest_start(&t, IIODT_BOARD, argv);
		if (r->exit < 0) {
			TEST_ROW_ASSERT(ret == 0, r->name);
			TEST_ROW_ASSERT(srvtest_log_wait(&t, r->log, SRVTEST_START_MS), r->name);
			/* loopback, never the wildcard address */
			TEST_ROW_ASSERT(!strstr(t.log, "clients on 0.0.0.0") &&
					!strstr(t.log, "clients on [::]:"), r->name);
			TEST_ROW_ASSERT(srvtest_stop(&t) == 0, r->name);
		} else {
			TEST_ROW_ASSERT(ret == -ECHILD, r->name);
			TEST_ROW_ASSERT(srvtest_wait(&t, SRVTEST_STOP_MS) == r->exit, r->name);
			TEST_ROW_ASSERT(strstr(t.log, r->log) != NULL, r->name);
		}
		srvtest_fini(&t, CU_get_number_of_failures() != 0);
	}
	unlink(token);
}
TEST_CASE(test_iiod_options, "options: authentication, loopback, malformed addresses");

/* An iiod address in use: nothing is served, exit status 1, the reason logged. */
static void test_iiod_addr_in_use(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t slen = sizeof(sin);
	const char *argv[3];
	char spec[32];
	struct srvtest t;
	int fd, ret;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0 && listen(fd, 1) == 0);
	CU_ASSERT_FATAL(getsockname(fd, (struct sockaddr *)&sin, &slen) == 0);
	snprintf(spec, sizeof(spec), "127.0.0.1:%u", ntohs(sin.sin_port));
	argv[0] = "--iiod-listen";
	argv[1] = spec;
	argv[2] = NULL;
	ret = srvtest_start(&t, IIODT_BOARD, argv);
	/* the native listener may already have been announced when the iiod one fails */
	CU_ASSERT(ret == 0 || ret == -ECHILD);
	CU_ASSERT_EQUAL(srvtest_wait(&t, SRVTEST_STOP_MS), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.log, "address already in use"));
	CU_ASSERT_PTR_NULL(strstr(t.log, "did not close cleanly"));
	srvtest_fini(&t, CU_get_number_of_failures() != 0);
	close(fd);
}
TEST_CASE(test_iiod_addr_in_use, "an iiod address in use: exit status 1");

/* ---- reload, a hung bus, shutdown ---- */

static void test_iiod_reload(void)
{
	char board[sizeof(IIODT_BOARD) + 16], *at;
	struct iiodt d;
	struct srvc *c;
	char *xml;
	long n;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, NULL), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "READ adc INPUT voltage0 raw\r\n");
	CU_ASSERT(IIODT_EXPECT(c, "5\n3300\0\n"));
	/* same board, the dummy renamed and AIN0 changed */
	snprintf(board, sizeof(board), "%s", IIODT_BOARD);
	at = strstr(board, "\"dummy0\"");
	memcpy(at, "\"dummyX\"", 8);
	at = strstr(board, "3300");
	memcpy(at, "1234", 4);
	CU_ASSERT_EQUAL_FATAL(srvtest_rewrite_file(d.t.board, board), 0);
	kill(d.t.pid, SIGHUP);
	CU_ASSERT_FATAL(srvtest_log_wait(&d.t, "board reloaded", SRVTEST_START_MS));
	/* the same connection sees the new board */
	srvc_sends(c, "READ adc INPUT voltage0 raw\r\n");
	CU_ASSERT(IIODT_EXPECT(c, "5\n1234\0\n"));
	srvc_sends(c, "READ dummy0 name\r\nREAD dummyX name\r\n");
	CU_ASSERT(IIODT_EXPECT(c, "-19\n7\ndummyX\0\n"));
	srvc_sends(c, "PRINT\r\n");
	n = iiodt_int(c);
	CU_ASSERT_FATAL(n > 0);
	xml = calloc(1, (size_t)n + 2);
	CU_ASSERT_FATAL(iiodt_bytes(c, xml, (size_t)n + 1, SRVTEST_REPLY_MS) == (size_t)n + 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<device id=\"iio:device0\" name=\"dummyX\">"));
	CU_ASSERT_PTR_NULL(strstr(xml, "dummy0"));
	free(xml);
	srvc_close(c);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_reload, "SIGHUP reload: the new board is served");

/* A chip that hangs delays only its own requests; the loop keeps answering. */
static void test_iiod_hung_bus(void)
{
	static const char *const args[] = { "--io-timeout-ms", "200", NULL };
	struct iiodt d;
	struct srvc *a, *b;
	long t0, t1, t2;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD_HUNG, args), 0);
	a = srvc_open(d.port);
	b = srvc_open(d.port);
	CU_ASSERT_FATAL(a && b);
	t0 = srvtest_now_ms();
	srvc_sends(a, "READ hung INPUT voltage0 raw\r\nREAD dummy0 INPUT accel_x raw\r\n");
	/* meanwhile another client is answered at once */
	srvtest_sleep_ms(20);
	srvc_sends(b, "READ dummy0 INPUT voltage0 raw\r\n");
	CU_ASSERT(IIODT_EXPECT(b, "3\n73\0\n"));
	t1 = srvtest_now_ms();
	CU_ASSERT(t1 - t0 < srvtest_ms(150));
	/* the hung read times out; the request behind it comes after, in order */
	CU_ASSERT(IIODT_EXPECT(a, "-110\n3\n34\0\n"));
	t2 = srvtest_now_ms();
	CU_ASSERT(t2 - t0 >= 190);
	CU_ASSERT(t2 - t0 < srvtest_ms(2000));
	CU_ASSERT(iiodt_in_step(a));
	/* a client that leaves while its request hangs costs nothing */
	srvc_sends(b, "READ hung INPUT voltage1 raw\r\n");
	srvc_close(b);
	srvc_close(a);
	srvtest_sleep_ms(300);
	iiodt_fresh_in_step(&d);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_hung_bus, "a hung bus delays only its own requests");

/* SIGTERM with iiod clients connected, one of them waiting on a hung bus: exit 0. */
static void test_iiod_shutdown(void)
{
	struct iiodt d;
	struct srvc *a, *b;

	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD_HUNG, NULL), 0);
	a = srvc_open(d.port);
	b = srvc_open(d.port);
	CU_ASSERT_FATAL(a && b);
	CU_ASSERT(iiodt_in_step(a));
	srvc_sends(b, "READ hung INPUT voltage0 raw\r\n");
	srvtest_sleep_ms(50);
	kill(d.t.pid, SIGTERM);
	CU_ASSERT_EQUAL(srvtest_wait(&d.t, SRVTEST_STOP_MS), 0);
	/* the waiting one got an answer (cancelled or timed out), then the close */
	CU_ASSERT(iiodt_int(b) < 0);
	CU_ASSERT(srvc_closed(a, 1000));
	CU_ASSERT(srvc_closed(b, 1000));
	CU_ASSERT_PTR_NULL(strstr(d.t.log, "did not close cleanly"));
	srvc_close(a);
	srvc_close(b);
	srvtest_fini(&d.t, CU_get_number_of_failures() != 0);
}
TEST_CASE(test_iiod_shutdown, "SIGTERM with clients connected");

/* ---- lifetimes and limits of OPEN (server/README.md, "Who owns what") ---- */

/* A trigger that fires only when written, so nothing arrives unasked. */
#define IIODT_BOARD_SYSFS						\
	"{\"board\": \"iiodsysfs\", \"triggers\": [{\"type\": \"sysfs\", \"number\": 0}],"	\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"}]}"
/* SRV_STREAM_READERS_MAX (server/stream.h) */
#define IIODT_READERS_MAX	256

/* Start on IIODT_BOARD_SYSFS with dummy0 on sysfstrig0; @n: a native client. Return: 0 or -errno. */
static int iiodt_start_sysfs(struct iiodt *d, struct srvc **n)
{
	char line[128];
	int ret;

	/* freed memory poisoned: a use after free crashes a release build too */
	setenv("MALLOC_PERTURB_", "165", 1);
	ret = iiodt_start(d, IIODT_BOARD_SYSFS, NULL);
	unsetenv("MALLOC_PERTURB_");
	if (ret)
		return ret;
	*n = srvc_open(d->t.port);
	if (!*n || srvc_req(*n, "WRITE dummy0 trigger/current_trigger sysfstrig0", line,
			    sizeof(line)) < 0 || strcmp(line, "OK"))
		return -EIO;
	return 0;
}

/*
 * Issue 26's second way in: a READBUF waits on a half-closed connection
 * when its trigger is removed. Its answer completes the last reply, which
 * closes the session in the middle of ending the capture's readers.
 */
/*
 * On @d (iiodt_start_sysfs(), @n its native client): @c OPENs dummy0 and
 * sends @then (a READBUF, and what follows it), half-closing after it if
 * @half; then the trigger goes. Return: the READBUF's answer, which the
 * capture's end gives (-ENODEV; -EBADF had the READBUF come after it).
 */
static long iiodt_readbuf_trigger_gone(struct srvc *c, struct srvc *n, const char *then,
				       bool half)
{
	char line[128];

	/* the READBUF outlasts the wait below, however slow the daemon (valgrind) */
	IIODT_SEND(c, "TIMEOUT 600000\r\nOPEN iio:device0 8 00000001\r\n");
	CU_ASSERT_EQUAL(iiodt_int(c), 0);
	CU_ASSERT_EQUAL(iiodt_int(c), 0);
	srvc_sends(c, then);
	if (half)
		shutdown(c->fd, SHUT_WR);
	srvtest_sleep_ms(srvtest_ms(300));	/* the READBUF waits, what follows is seen */
	CU_ASSERT(srvc_req(n, "WRITE iio_sysfs_trigger remove_trigger 0", line,
			   sizeof(line)) > 0 && strcmp(line, "OK") == 0);
	return iiodt_int(c);
}

static void test_iiod_halfclose_trigger_gone(void)
{
	struct srvc *c, *n = NULL;
	struct iiodt d;
	char line[128];
	long code;

	CU_ASSERT_EQUAL_FATAL(iiodt_start_sysfs(&d, &n), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	code = iiodt_readbuf_trigger_gone(c, n, "READBUF iio:device0 64\r\n", true);
	CU_ASSERT(code == -ENODEV || code == -EBADF);
	CU_ASSERT(srvc_closed(c, 2000));
	CU_ASSERT(srvc_req(n, "VERSION", line, sizeof(line)) > 0 &&
		  strncmp(line, "OK iiowire", 10) == 0);
	srvc_close(c);
	srvc_close(n);
	iiodt_fresh_in_step(&d);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_halfclose_trigger_gone,
	  "OPEN, READBUF, half-close, remove_trigger: answered and closed, the daemon serves on");

/*
 * The fuzz target's find: a CLOSE pipelined behind a waiting READBUF. The
 * capture's end answers the READBUF; the CLOSE behind it must not run
 * inside that answer (it frees the reader being ended), but on the next turn.
 */
static void test_iiod_close_behind_readbuf(void)
{
	struct srvc *c, *n = NULL;
	struct iiodt d;
	long code;

	CU_ASSERT_EQUAL_FATAL(iiodt_start_sysfs(&d, &n), 0);
	c = srvc_open(d.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	code = iiodt_readbuf_trigger_gone(c, n, "READBUF iio:device0 64\r\nCLOSE iio:device0\r\n",
					  false);
	CU_ASSERT(code == -ENODEV || code == -EBADF);
	CU_ASSERT_EQUAL(iiodt_int(c), -ENXIO);	/* the CLOSE: that reader ended already */
	CU_ASSERT(iiodt_in_step(c));
	srvc_close(c);
	srvc_close(n);
	iiodt_fresh_in_step(&d);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_close_behind_readbuf,
	  "a CLOSE pipelined behind a READBUF the trigger's removal answers: in order, no crash");

/* SRV_STREAM_READERS_MAX OPENs of one device work, one more is -EBUSY, as a STREAM's */
static void test_iiod_open_limit(void)
{
	static struct srvc *c[IIODT_READERS_MAX + 1];
	struct srvc *n = NULL;
	struct iiodt d;
	int i, ok = 0;

	srvtest_raise_nofile();
	CU_ASSERT_EQUAL_FATAL(iiodt_start_sysfs(&d, &n), 0);
	for (i = 0; i <= IIODT_READERS_MAX; i++) {
		c[i] = srvc_open(d.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c[i]);
		IIODT_SEND(c[i], "OPEN iio:device0 8 00000001\r\n");
		if (i < IIODT_READERS_MAX)
			ok += iiodt_int(c[i]) == 0;
	}
	CU_ASSERT_EQUAL(ok, IIODT_READERS_MAX);
	CU_ASSERT_EQUAL(iiodt_int(c[IIODT_READERS_MAX]), -EBUSY);
	/* one goes: its place is free again */
	srvc_close(c[0]);
	c[0] = NULL;
	srvtest_sleep_ms(srvtest_ms(200));
	IIODT_SEND(c[IIODT_READERS_MAX], "OPEN iio:device0 8 00000001\r\n");
	CU_ASSERT_EQUAL(iiodt_int(c[IIODT_READERS_MAX]), 0);
	for (i = 0; i <= IIODT_READERS_MAX; i++)
		srvc_close(c[i]);
	srvc_close(n);
	iiodt_fresh_in_step(&d);
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_open_limit, "256 OPENs of a device work, the 257th is -EBUSY");

/* ---- the real libiio clients ---- */

/* Run @cmd, its output (stdout and stderr) into @out. Return: exit status, -1 if not run. */
static int iiodt_run(const char *cmd, char *out, size_t outlen)
{
	char full[1024];
	size_t got;
	FILE *p;
	int st;

	snprintf(full, sizeof(full), "%s 2>&1", cmd);
	p = popen(full, "r");
	if (!p)
		return -1;
	got = fread(out, 1, outlen - 1, p);
	out[got] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool iiodt_have(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

/* What iio_info must print for the board: every device and every channel. */
static const char *const iiodt_info_rows[] = {
	"IIO context has 2 devices:",
	"Backend version: 0.24 (git tag: iiowire)",
	"iiowire,board: iiodtest",
	"\tiio:device0: dummy0 (buffer capable)\n\t\t9 channels found:\n",
	"\t\t\tvoltage0:  (input, index: 0, format: le:u13/16>>0)\n"
	"\t\t\t3 channel-specific attributes found:\n"
	"\t\t\t\tattr  0: offset value: 7\n"
	"\t\t\t\tattr  1: raw value: 73\n"
	"\t\t\t\tattr  2: scale value: 0.001333\n",
	"\t\t\tvoltage1-voltage2:  (input, index: 1, format: le:s12/16>>0)\n"
	"\t\t\t2 channel-specific attributes found:\n"
	"\t\t\t\tattr  0: raw value: 33\n"
	"\t\t\t\tattr  1: scale value: 0.000001344\n",
	"\t\t\tvoltage3-voltage4:  (input, index: 2, format: le:s11/16>>0)\n",
	"\t\t\taccel_x:  (input, index: 3, format: le:S16/16>>0)\n",
	"\t\t\ttimestamp:  (input, index: 4, format: le:S64/64>>0)\n",
	"\t\t\tvoltage0:  (output)\n\t\t\t1 channel-specific attributes found:\n"
	"\t\t\t\tattr  0: raw value: 0\n",
	"\t\t\tactivity_running:  (input)\n",
	"\t\t\tactivity_walking:  (input)\n",
	"\t\t\tsteps:  (input)\n\t\t\t3 channel-specific attributes found:\n"
	"\t\t\t\tattr  0: calibheight value: 0\n\t\t\t\tattr  1: en value: 0\n"
	"\t\t\t\tattr  2: input value: 47\n",
	"\t\t2 device-specific attributes found:\n"
	"\t\t\t\tattr  0: current_timestamp_clock value: realtime\n"
	"\t\t\t\tattr  1: in_sampling_frequency value: 3.000000033\n",
	"\tiio:device1: max1238 (label: adc) (buffer capable)\n\t\t25 channels found:\n",
	"\t\t\tvoltage0:  (input, index: 0, format: be:u12/16>>0)\n"
	"\t\t\t2 channel-specific attributes found:\n"
	"\t\t\t\tattr  0: raw value: 3300\n"
	"\t\t\t\tattr  1: scale value: 1.000000000\n",
	"\t\t\t\tattr  0: raw value: 1800\n",
	"\t\t\tvoltage0-voltage1:  (input, index: 12, format: be:s12/16>>0)\n"
	"\t\t\t2 channel-specific attributes found:\n"
	"\t\t\t\tattr  0: raw value: 1500\n",
	"\t\t\ttimestamp:  (input, index: 24, format: le:S64/64>>0)\n",
	"No trigger assigned to device",
};

static void test_iiod_iio_info(void)
{
	char cmd[256], needle[64], *out;
	struct iiodt d;
	size_t i;
	int k;

	if (!iiodt_have("iio_info")) {
		fprintf(stderr, "iio_info not installed (Debian: libiio-utils): skipped\n");
		return;
	}
	out = malloc(256 * 1024);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, NULL), 0);
	snprintf(cmd, sizeof(cmd), "timeout 60 iio_info -u ip:127.0.0.1:%d", d.port);
	CU_ASSERT_EQUAL(iiodt_run(cmd, out, 256 * 1024), 0);
	for (i = 0; i < sizeof(iiodt_info_rows) / sizeof(iiodt_info_rows[0]); i++)
		TEST_ROW_ASSERT(strstr(out, iiodt_info_rows[i]) != NULL, iiodt_info_rows[i]);
	/* every channel of the MAX1238: 12 single-ended, 6 pairs both ways */
	for (k = 0; k < 12; k++) {
		snprintf(needle, sizeof(needle), "\t\t\tvoltage%d:  (input, index: %d,", k, k);
		TEST_ROW_ASSERT(strstr(out, needle) != NULL, "max1238 single-ended channels");
		snprintf(needle, sizeof(needle), "\t\t\tvoltage%d-voltage%d:  (input", k,
			 k % 2 ? k - 1 : k + 1);
		TEST_ROW_ASSERT(strstr(out, needle) != NULL, "max1238 differential channels");
	}
	/* nothing on stderr: no DTD warning, no error */
	CU_ASSERT_PTR_NULL(strstr(out, "ERROR"));
	CU_ASSERT_PTR_NULL(strstr(out, "DTD"));
	iiodt_stop(&d);
	if (CU_get_number_of_failures())
		fprintf(stderr, "---- iio_info ----\n%s----\n", out);
	free(out);
}
TEST_CASE(test_iiod_iio_info, "iio_info lists every device and channel");

/*
 * iio_readdev through the listener (the smoke test; the byte-exact runs per
 * driver are tests/test_readdev.sh's): the dummy's fixed table in the
 * kernel's record, 8 samples in two READBUFs of 4, the client's own mask.
 */
static void test_iiod_readdev(void)
{
	static const unsigned char rec[8] = { 0x07, 0x00, 0x58, 0x01, 0, 0, 0, 0 };
	char cmd[256], *out;
	struct srvc *c;
	struct iiodt d;
	int i, n;

	if (!iiodt_have("iio_readdev")) {
		fprintf(stderr, "iio_readdev not installed (Debian: libiio-utils): skipped\n");
		return;
	}
	out = malloc(64 * 1024);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD_TRIG, NULL), 0);
	/* -t: the trigger device in the XML, its sampling_frequency written, SETTRIG */
	snprintf(cmd, sizeof(cmd), "timeout 20 iio_readdev -u ip:127.0.0.1:%d -t hrt0 -b 4 -s 8 "
		 "dummy0 voltage0 accel_x timestamp 2>/dev/null", d.port);
	n = iiodt_run(cmd, out, 64 * 1024) == 0 ? 128 : -1;
	for (i = 0; n == 128 && i < 8; i++)
		TEST_ROW_ASSERT(memcmp(out + 16 * i, rec, 8) == 0, "dummy0 record");
	CU_ASSERT_EQUAL(n, 128);
	/* what iio_readdev did, seen from the native side */
	c = srvc_open(d.t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(srvc_req(c, "READ dummy0 trigger/current_trigger", cmd, sizeof(cmd)) > 0);
	CU_ASSERT_STRING_EQUAL(cmd, "OK hrt0");
	srvc_close(c);
	iiodt_stop(&d);
	free(out);
}
TEST_CASE(test_iiod_readdev, "iio_readdev reads the kernel's record through the listener");

struct iiodt_attr_row {
	const char *name;
	const char *args;	/* after "iio_attr -u ip:...:PORT" */
	int exit;
	const char *out;	/* exact output */
};

/* In order: the write is read back by the rows after it. */
static const struct iiodt_attr_row iiodt_attr_rows[] = {
	{ "channel attribute", "-i -c dummy0 voltage0 raw", 0, "73\n" },
	{ "modified channel", "-c dummy0 accel_x calibbias", 0, "-7\n" },
	{ "MAX1238 AIN0", "-c max1238 voltage0 raw", 0, "3300\n" },
	{ "MAX1238 AIN0 - AIN1", "-c max1238 voltage0-voltage1 raw", 0, "1500\n" },
	{ "shared scale", "-c max1238 voltage2 scale", 0, "1.000000000\n" },
	{ "device attribute", "-d dummy0 in_sampling_frequency", 0, "3.000000033\n" },
	{ "write the DAC", "-o -c dummy0 voltage0 raw 321", 0, "321\n" },
	{ "read it back", "-o -c dummy0 voltage0 raw", 0, "321\n" },
	{ "write refused by the driver", "-o -c dummy0 voltage0 raw nonsense", 1, NULL },
	{ "value kept after the refusal", "-o -c dummy0 voltage0 raw", 0, "321\n" },
	{ "unknown attribute, refused by the client", "-c dummy0 voltage0 nothing", 1, NULL },
};

static void test_iiod_iio_attr(void)
{
	const struct iiodt_attr_row *r;
	char cmd[256], out[4096];
	struct iiodt d;
	size_t i;
	int ret;

	if (!iiodt_have("iio_attr")) {
		fprintf(stderr, "iio_attr not installed (Debian: libiio-utils): skipped\n");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, NULL), 0);
	for (i = 0; i < sizeof(iiodt_attr_rows) / sizeof(iiodt_attr_rows[0]); i++) {
		r = &iiodt_attr_rows[i];
		snprintf(cmd, sizeof(cmd), "timeout 30 iio_attr -u ip:127.0.0.1:%d %s", d.port,
			 r->args);
		ret = iiodt_run(cmd, out, sizeof(out));
		TEST_ROW_ASSERT(r->exit ? ret != 0 && ret != 124 : ret == 0, r->name);
		if (r->out)
			TEST_ROW_ASSERT(strcmp(out, r->out) == 0, r->name);
	}
	iiodt_stop(&d);
}
TEST_CASE(test_iiod_iio_attr, "iio_attr reads and writes exact values");

/* The Python bindings: the same values, and a write through attrs[...].value. */
static const char iiodt_py[] =
	"import iio, sys\n"
	"ctx = iio.Context('ip:127.0.0.1:' + sys.argv[1])\n"
	"print(len(ctx.devices), ctx.version[0], ctx.version[1], ctx.version[2])\n"
	"d = ctx.find_device('dummy0')\n"
	"print(d.id, d.name, len(d.channels))\n"
	"print(d.find_channel('voltage0').attrs['raw'].value)\n"
	"print(d.find_channel('voltage0').attrs['scale'].value)\n"
	"print(d.attrs['in_sampling_frequency'].value)\n"
	"a = ctx.find_device('max1238')\n"
	"print(a.label, len(a.channels))\n"
	"print(a.find_channel('voltage1').attrs['raw'].value)\n"
	"o = d.find_channel('voltage0', True)\n"
	"o.attrs['raw'].value = '4321'\n"
	"print(o.attrs['raw'].value)\n"
	"print(sorted(c.id for c in d.channels if not c.output))\n";

static const char iiodt_py_out[] =
	"2 0 24 iiowire\n"
	"iio:device0 dummy0 9\n"
	"73\n"
	"0.001333\n"
	"3.000000033\n"
	"adc 25\n"
	"1800\n"
	"4321\n"
	"['accel_x', 'activity_running', 'activity_walking', 'steps', 'timestamp', 'voltage0', "
	"'voltage1-voltage2', 'voltage3-voltage4']\n";

static void test_iiod_python(void)
{
	static const char *const pythons[] = { "/usr/bin/python3", "python3", NULL };
	char cmd[512], out[4096], script[] = "/tmp/iiowire-iiod-py-XXXXXX";
	const char *py = NULL;
	struct iiodt d;
	int i, fd;

	for (i = 0; pythons[i] && !py; i++) {
		snprintf(cmd, sizeof(cmd), "%s -c 'import iio' >/dev/null 2>&1", pythons[i]);
		if (system(cmd) == 0)
			py = pythons[i];
	}
	if (!py) {
		fprintf(stderr, "python3 with libiio bindings not installed "
			"(Debian: python3-libiio): skipped\n");
		return;
	}
	fd = mkstemp(script);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, iiodt_py, strlen(iiodt_py)), (ssize_t)strlen(iiodt_py));
	close(fd);
	CU_ASSERT_EQUAL_FATAL(iiodt_start(&d, IIODT_BOARD, NULL), 0);
	snprintf(cmd, sizeof(cmd), "timeout 60 %s %s %d", py, script, d.port);
	CU_ASSERT_EQUAL(iiodt_run(cmd, out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, iiodt_py_out);
	iiodt_stop(&d);
	if (CU_get_number_of_failures())
		fprintf(stderr, "---- python ----\n%s----\n", out);
	unlink(script);
}
TEST_CASE(test_iiod_python, "Python bindings read and write the same values");

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	return test_main("server_iiod", NULL, NULL);
}
