/*
 * test_server_play.c - PLAY, LOOP and SEND against a live iiowired
 * (server/play.c; PROTOCOL.md's PLAY section) with an emulated ad5766.
 *
 * The reply as STREAM's; a block at N scans taken and N + 1 refused, a
 * byte count that is no whole number of scans refused; with an on-demand
 * trigger, exactly one scan played per trigger_now (read back over SPI),
 * the third block's reply held until the pops made room, then the
 * underruns of an empty queue counted in SEND's reply while the outputs
 * hold; a second writer EBUSY, a STREAM of the DAC refused, the other
 * clients answered while a writer waits; LOOP repeating its block; UNSTREAM
 * leaving the outputs as they were; a malformed SEND line closing the
 * connection; pacing by a 1 kHz trigger.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "srvtest.h"
#include "testutil.h"

#define PLAY_BOARD								\
	"{\"board\": \"play\", \"buses\": {"					\
	"  \"spi0\": {\"type\": \"spi\", \"backend\": \"emulated\"},"		\
	"  \"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"		\
	" \"triggers\": [{\"type\": \"hrtimer\", \"name\": \"hrt0\","		\
	"   \"sampling_frequency\": 1000}, {\"type\": \"sysfs\", \"number\": 0}],"	\
	" \"devices\": [{\"driver\": \"ad5766\", \"bus\": \"spi0\", \"cs\": 0,"	\
	"   \"output-range-microvolts\": \"-20000000 0\"},"			\
	"  {\"driver\": \"ad5767\", \"bus\": \"spi0\", \"cs\": 1,"		\
	"   \"output-range-microvolts\": \"-5000000 5000000\"},"		\
	"  {\"driver\": \"max1363\", \"bus\": \"i2c-0\", \"address\": \"0x34\","	\
	"   \"emulate\": {\"AIN0\": 1000}}]}"

static struct srvtest srv;

static int suite_init(void)
{
	return srvtest_suite_up(&srv, PLAY_BOARD, NULL);
}

static int suite_fini(void)
{
	return srvtest_suite_down(&srv);
}

/* Send @req and take its text reply: one line, or with @listing "OK <n>" and n lines. */
static const char *ask_as(struct srvc *c, const char *req, bool listing)
{
	static char got[4096];

	if (srvc_sends(c, req) || srvc_sends(c, "\n"))
		return "<no reply>";
	return srvc_got(srvc_reply(c, listing, got, sizeof(got)), got, sizeof(got)) < 0 ?
	       "<no reply>" : got;
}

/* A PLAY or LOOP: its listing. */
static const char *ask_play(struct srvc *c, const char *req)
{
	return ask_as(c, req, true);
}

static const char *ask(struct srvc *c, const char *req)
{
	return ask_as(c, req, false);
}

/* SEND @n two-channel scans of host-order u16 (le on this host, as _type says). */
static int send_scans(struct srvc *c, int id, const uint16_t (*scans)[2], int n)
{
	char head[64];
	int len = snprintf(head, sizeof(head), "SEND %d %d\n", id, n * 4);

	return srvc_send(c, head, (size_t)len) || srvc_send(c, scans, (size_t)n * 4) ? -1 : 0;
}

static const char *reply(struct srvc *c)
{
	static char got[512];

	return srvc_got(srvc_line(c, got, sizeof(got)), got, sizeof(got)) < 0 ? "<no reply>" :
	       got;
}

static long raw(struct srvc *c, int ch)
{
	char req[64];
	const char *r;

	snprintf(req, sizeof(req), "READ ad5766 out_voltage%d_raw", ch);
	r = ask(c, req);
	return strncmp(r, "OK ", 3) ? -1 : atol(r + 3);
}

static void fire(struct srvc *c, int n)
{
	while (n--)
		CU_ASSERT_STRING_EQUAL(ask(c, "WRITE sysfstrig0 trigger_now 1"), "OK");
}

static void test_play_reply(void)
{
	struct srvc *c = srvc_open(srv.port);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(ask_play(c, "PLAY ad5766 sysfstrig0 4 voltage0 voltage3"),
			       "OK 8\nstream 1\ndevice iio:device0\ntrigger sysfstrig0\nscans 4\n"
			       "format raw\nscan_bytes 4\nchannel voltage0 0 0 le:u16/16>>0\n"
			       "channel voltage3 3 2 le:u16/16>>0");
	CU_ASSERT_STRING_EQUAL(ask(c, "READ ad5766 buffer/direction"), "OK out");
	CU_ASSERT_STRING_EQUAL(ask(c, "UNSTREAM 1"), "OK");
	CU_ASSERT_STRING_EQUAL(ask(c, "{\"id\":5,\"op\":\"loop\",\"device\":\"ad5767\","
				      "\"trigger\":\"sysfstrig0\",\"scans\":2,\"channels\":"
				      "[\"voltage1\"]}"),
			       "{\"id\":5,\"ok\":true,\"stream\":{\"id\":2,\"device\":\"iio:device1\","
			       "\"trigger\":\"sysfstrig0\",\"scans\":2,\"format\":\"raw\","
			       "\"scan_bytes\":2,\"channels\":[{\"channel\":\"voltage1\",\"index\":1,"
			       "\"offset\":0,\"type\":\"le:u12/16>>4\"}]}}");
	CU_ASSERT_STRING_EQUAL(ask(c, "PLAY max1363 hrt0 4"),
			       "ERR EINVAL max1363 has no output buffer");
	CU_ASSERT_STRING_EQUAL(ask(c, "PLAY ad5766 hrt0 4 voltage16"),
			       "ERR ENOENT ad5766 has no output scan element voltage16");
	CU_ASSERT_STRING_EQUAL(ask(c, "PLAY ad5766 hrt0 4097"),
			       "ERR ERANGE scans: 4097 is out of range 1..4096");
	srvc_close(c);
}
TEST_CASE(test_play_reply, "PLAY/LOOP replies as STREAM's, in both spellings; errors");

static void test_play_steps(void)
{
	struct srvc *w = srvc_open(srv.port), *o = srvc_open(srv.port);
	uint16_t blk[5][2];
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	for (i = 0; i < 5; i++) {
		blk[i][0] = (uint16_t)(1000 * (i + 1));
		blk[i][1] = (uint16_t)(65535 - i);
	}
	CU_ASSERT(strncmp(ask_play(w, "PLAY ad5766 sysfstrig0 4 voltage0 voltage3"), "OK 8", 4) == 0);
	/* N + 1 scans, then bytes that are no whole scan: refused, the bytes read past */
	CU_ASSERT_EQUAL(send_scans(w, 1, blk, 5), 0);
	CU_ASSERT_STRING_EQUAL(reply(w), "ERR EINVAL SEND: 20 bytes is more than a block of 4 "
			       "scans (16 bytes)");
	CU_ASSERT_EQUAL(srvc_send(w, "SEND 1 3\nabc", 12), 0);
	CU_ASSERT_STRING_EQUAL(reply(w), "ERR EINVAL SEND: 3 bytes is not a whole number of "
			       "4-byte scans");
	CU_ASSERT_EQUAL(send_scans(w, 9, blk, 1), 0);
	CU_ASSERT_STRING_EQUAL(reply(w), "ERR ENOENT no stream 9");
	/* N scans: two blocks queue at once (8 scans), the third waits */
	CU_ASSERT_EQUAL(send_scans(w, 1, blk, 4), 0);
	CU_ASSERT_STRING_EQUAL(reply(w), "OK 0");
	CU_ASSERT_EQUAL(send_scans(w, 1, blk + 1, 4), 0);
	CU_ASSERT_STRING_EQUAL(reply(w), "OK 0");
	CU_ASSERT_EQUAL(send_scans(w, 1, blk, 4), 0);
	srvc_timeout(w, 300);
	CU_ASSERT_STRING_EQUAL(reply(w), "<no reply>");	/* held: no room */
	CU_ASSERT_STRING_EQUAL(ask(o, "READ ad5766 buffer/data_available"), "OK 8");
	CU_ASSERT_STRING_EQUAL(ask(o, "PLAY ad5766 - 4"),
			       "ERR EBUSY ad5766 plays one writer's scans at a time");
	CU_ASSERT_STRING_EQUAL(ask(o, "STREAM ad5766 - 4 raw"),
			       "ERR EINVAL ad5766 has an output buffer (PLAY plays it)");
	for (i = 0; i < 4; i++) {
		fire(o, 1);
		TEST_ROW_ASSERT(raw(o, 0) == blk[i][0], "voltage0 plays scan i");
		TEST_ROW_ASSERT(raw(o, 3) == blk[i][1], "voltage3 plays scan i");
	}
	srvc_timeout(w, 5000);
	CU_ASSERT_STRING_EQUAL(reply(w), "OK 0");	/* room made: the third is in */
	CU_ASSERT_STRING_EQUAL(ask(o, "READ ad5766 buffer/data_available"), "OK 8");
	fire(o, 8 + 3);	/* eight played, three find nothing */
	CU_ASSERT_EQUAL(raw(o, 0), blk[3][0]);	/* held at the last scan */
	CU_ASSERT_EQUAL(raw(o, 1), 0);
	CU_ASSERT_EQUAL(send_scans(w, 1, blk + 4, 1), 0);
	CU_ASSERT_STRING_EQUAL(reply(w), "OK 3");
	CU_ASSERT_STRING_EQUAL(ask(w, "UNSTREAM"), "OK");
	fire(o, 2);
	CU_ASSERT_EQUAL(raw(o, 0), blk[3][0]);	/* stopped: not played, held */
	CU_ASSERT(strncmp(ask_play(o, "PLAY ad5766 sysfstrig0 4"), "OK ", 3) == 0);	/* free again */
	srvc_close(w);
	srvc_close(o);
}
TEST_CASE(test_play_steps, "a scan per trigger, N/N+1, the third block held, underruns, EBUSY");

static void test_loop(void)
{
	const uint16_t blk[3][2] = { { 11, 12 }, { 21, 22 }, { 31, 32 } };
	struct srvc *c = srvc_open(srv.port);
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(strncmp(ask_play(c, "LOOP ad5766 sysfstrig0 3 voltage1 voltage2"), "OK 8", 4) == 0);
	CU_ASSERT_EQUAL(send_scans(c, 1, blk, 3), 0);
	CU_ASSERT_STRING_EQUAL(reply(c), "OK 0");
	CU_ASSERT_EQUAL(send_scans(c, 1, blk, 1), 0);
	CU_ASSERT_STRING_EQUAL(reply(c), "ERR EBUSY LOOP 1 plays its block already");
	for (i = 0; i < 7; i++) {
		fire(c, 1);
		TEST_ROW_ASSERT(raw(c, 1) == blk[i % 3][0] && raw(c, 2) == blk[i % 3][1], "cyclic");
	}
	srvc_close(c);	/* closing the connection stops it: the next writer gets the device */
	c = srvc_open(srv.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvtest_sleep_ms(100);
	CU_ASSERT(strncmp(ask_play(c, "PLAY ad5766 sysfstrig0 1"), "OK ", 3) == 0);
	srvc_close(c);
}
TEST_CASE(test_loop, "LOOP repeats one block; a second SEND EBUSY; a closed writer frees the DAC");

/* A fast writer at 1 kHz: 40 blocks of 25 scans take about a second, not less. */
static void test_paced(void)
{
	struct srvc *w = srvc_open(srv.port), *o = srvc_open(srv.port);
	static uint16_t blk[25][2];
	long t0, dt;
	int i, bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT(strncmp(ask_play(w, "PLAY ad5766 hrt0 25 voltage0 voltage3"), "OK 8", 4) == 0);
	srvc_timeout(w, 10000);
	t0 = srvtest_now_ms();
	for (i = 0; i < 40; i++) {
		bad += send_scans(w, 1, blk, 25) != 0 || strncmp(reply(w), "OK ", 3) != 0;
		if (i == 20)	/* another client meanwhile: answered */
			CU_ASSERT_STRING_EQUAL(ask(o, "READ ad5766 buffer/direction"), "OK out");
	}
	dt = srvtest_now_ms() - t0;
	CU_ASSERT_EQUAL(bad, 0);
	/* 1000 scans at 1 kHz with two blocks (50 scans) queued ahead: at least 950 ms */
	CU_ASSERT(dt >= 900);
	CU_ASSERT(dt < srvtest_ms(5000));
	fprintf(stderr, "[1000 scans paced by a 1 kHz trigger in %ld ms] ", dt);
	srvc_close(w);
	srvc_close(o);
}
TEST_CASE(test_paced, "a fast writer is paced by the trigger; others are answered meanwhile");

static void test_bad_send_line_closes(void)
{
	struct srvc *c = srvc_open(srv.port), *o = srvc_open(srv.port);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(srvc_sends(c, "SEND 1 x\n\x01\x02"), 0);
	CU_ASSERT_STRING_EQUAL(reply(c), "ERR EINVAL bytes: 'x' is not a decimal integer");
	CU_ASSERT(srvc_closed(c, 2000));
	CU_ASSERT_STRING_EQUAL(ask(o, "READ ad5766 name"), "OK ad5766");
	srvc_close(c);
	srvc_close(o);
}
TEST_CASE(test_bad_send_line_closes, "a SEND line not understood closes its connection only");

/* Last: a reload without the DAC ends its player (the held SEND fails, then STREAMEND). */
static void test_reload_ends(void)
{
	static const char no_dac[] =
		"{\"board\": \"play\", \"buses\": {\"i2c-0\": {\"type\": \"i2c\", "
		"\"backend\": \"emulated\"}}, \"triggers\": [{\"type\": \"sysfs\", "
		"\"number\": 0}], \"devices\": [{\"driver\": \"max1363\", \"bus\": "
		"\"i2c-0\", \"address\": \"0x34\"}]}";
	const uint16_t blk[2][2] = { { 1, 2 }, { 3, 4 } };
	struct srvc *c = srvc_open(srv.port);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(strncmp(ask_play(c, "PLAY ad5766 sysfstrig0 2 voltage0 voltage1"), "OK 8", 4) == 0);
	CU_ASSERT_EQUAL(send_scans(c, 1, blk, 2), 0);
	CU_ASSERT_STRING_EQUAL(reply(c), "OK 0");
	CU_ASSERT_EQUAL(send_scans(c, 1, blk, 2), 0);
	CU_ASSERT_STRING_EQUAL(reply(c), "OK 0");
	CU_ASSERT_EQUAL(send_scans(c, 1, blk, 2), 0);	/* held: no room */
	CU_ASSERT_FATAL(srvtest_rewrite_file(srv.board, no_dac) == 0);
	kill(srv.pid, SIGHUP);
	srvc_timeout(c, 10000);
	CU_ASSERT_STRING_EQUAL(reply(c), "ERR ENODEV iio:device0: device removed");
	CU_ASSERT_STRING_EQUAL(reply(c), "STREAMEND 1 ENODEV iio:device0: device removed");
	CU_ASSERT_EQUAL(send_scans(c, 1, blk, 1), 0);
	CU_ASSERT_STRING_EQUAL(reply(c), "ERR ENOENT no stream 1");
	srvc_close(c);
}
TEST_CASE(test_reload_ends, "a reload that removes the DAC: the held SEND fails, STREAMEND");

TEST_MAIN("server_play", suite_init, suite_fini)
