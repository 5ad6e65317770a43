/*
 * test_server_busq.c - device I/O off the loop against a live iiowired
 * (server/busq.c, server/dispatch.c's routing, server/session.c's slots).
 *
 * Emulated chips armed to hang stand in for a dead I2C chip: a hung bus
 * answers ETIMEDOUT after --io-timeout-ms while another bus (and the loop)
 * keeps answering at once; requests queued behind the hung one time out
 * too; a chip that comes back serves the next request; replies keep their
 * order on a connection even though device I/O finishes out of order; the
 * per-bus queue limit answers EBUSY; a client that leaves with requests in
 * flight leaves nothing broken; and the daemon still exits 0 on SIGTERM
 * with a worker stuck in a transfer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srvtest.h"
#include "testutil.h"

#define IO_TIMEOUT_MS	400

/*
 * i2c-0: "hung", every transfer hangs 1500 ms. i2c-1: "good". i2c-2:
 * "slow", its first transfer hangs 250 ms (less than the I/O timeout).
 * i2c-3: "flaky", its first transfer hangs 600 ms (more than the timeout;
 * a request sent when it times out still has 200 ms to spare when the chip
 * lets go), then the chip is fine again.
 */
#define BUS(n)	"\"i2c-" #n "\": {\"type\": \"i2c\", \"backend\": \"emulated\"}"
#define ADC(bus, label, extra)							\
	"{\"driver\": \"max1238\", \"bus\": \"i2c-" #bus "\", \"address\": \"0x35\","	\
	" \"label\": \"" label "\", \"emulate\": {\"AIN0\": 1234}" extra "}"
#define HANG(ms, count)								\
	", \"fault\": {\"mode\": \"hang\", \"hang_ms\": " #ms ", \"count\": " #count "}"

#define BUSQ_BOARD								\
	"{\"board\": \"busq\", \"buses\": {" BUS(0) "," BUS(1) "," BUS(2) "," BUS(3) "},"	\
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"		\
	ADC(0, "hung", HANG(1500, 0)) "," ADC(1, "good", "") ","			\
	ADC(2, "slow", HANG(250, 1)) "," ADC(3, "flaky", HANG(600, 1)) "]}"

#define HUNG_TIMEOUT							\
	"ERR ETIMEDOUT hung in_voltage0_raw: no answer from the bus within 400 ms"

static struct srvtest srv;

static int suite_init(void)
{
	const char *const args[] = { "--io-timeout-ms", "400", NULL };

	return srvtest_suite_up(&srv, BUSQ_BOARD, args);
}

static int suite_fini(void)
{
	long t0 = srvtest_now_ms();
	int ret;

	/* the hung chip still holds its worker: shutdown waits for it, then exits 0 */
	ret = srvtest_down(&srv);
	if (ret != 0 || srvtest_now_ms() - t0 > srvtest_ms(5000))
		fprintf(stderr, "\nexit %d after %ld ms\n", ret, srvtest_now_ms() - t0);
	return ret == 0 ? 0 : -1;
}

/* A hung bus answers ETIMEDOUT on time; the other bus and the loop answer meanwhile. */
static void test_hung_bus(void)
{
	static const struct {
		const char *name;
		const char *req;
		const char *want;
	} others[] = {
		{ "another bus", "READ good in_voltage0_raw", "OK 1234" },
		{ "a bus-less device", "READ dummy0 in_voltage0_raw", "OK 73" },
		{ "a listing", "DEVICE hung", "OK 6" },
	};
	struct srvc *h = srvc_open(srv.port), *o = srvc_open(srv.port);
	char got[256];
	long t0, lat;
	size_t i;
	int k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	t0 = srvtest_now_ms();
	/* three on the hung bus: the first hangs, the others wait behind it */
	srvc_sends(h, "READ hung in_voltage0_raw\nREAD hung in_voltage0_raw\n"
		   "READ hung in_voltage0_raw\n");
	srvtest_sleep_ms(50);
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		long s = srvtest_now_ms();

		TEST_ROW_ASSERT(srvc_req(o, others[i].req, got, sizeof(got)) > 0, others[i].name);
		lat = srvtest_now_ms() - s;
		TEST_ROW_ASSERT(strcmp(got, others[i].want) == 0, others[i].name);
		TEST_ROW_ASSERT(lat < srvtest_ms(200), others[i].name);
		if (!strncmp(got, "OK ", 3) && atoi(got + 3) > 0 && i == 2)
			for (k = atoi(got + 3); k > 0; k--)
				srvc_line(o, got, sizeof(got));
	}
	for (k = 0; k < 3; k++) {
		CU_ASSERT(srvc_line(h, got, sizeof(got)) > 0);
		CU_ASSERT_STRING_EQUAL(got, HUNG_TIMEOUT);
	}
	lat = srvtest_now_ms() - t0;
	/* each timed out IO_TIMEOUT_MS after it was sent, not after the 1500 ms hang */
	CU_ASSERT(lat >= IO_TIMEOUT_MS && lat < srvtest_ms(1400));
	srvc_close(h);
	srvc_close(o);
}
TEST_CASE(test_hung_bus, "hung bus: ETIMEDOUT, other buses answer");

/* The chip comes back: the request after the timed-out one gets a value. */
static void test_recovers(void)
{
	struct srvc *c = srvc_open(srv.port);
	char got[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(srvc_req(c, "READ flaky in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got,
		"ERR ETIMEDOUT flaky in_voltage0_raw: no answer from the bus within 400 ms");
	/* the worker is still in the 600 ms hang: this one queues behind it, then runs */
	CU_ASSERT(srvc_req(c, "READ flaky in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 1234");
	CU_ASSERT(srvc_req(c, "READ flaky in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 1234");
	srvc_close(c);
}
TEST_CASE(test_recovers, "a chip that comes back");

/* P-5: a slow first request, fast ones after it: replies in request order. */
static void test_order(void)
{
	static const char *const want[] = {
		"ERR ETIMEDOUT slow in_voltage0_raw: device timed out",
		"OK 1234",
		"{\"id\":2,\"ok\":true,\"value\":\"73\"}",
		"OK 2",
		"iio:device0 dummy0 - -",
	};
	struct srvc *c = srvc_open(srv.port);
	char got[512];
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(c, "READ slow in_voltage0_raw\nREAD good in_voltage0_raw\n"
		   "{\"id\":2,\"op\":\"read\",\"device\":\"dummy0\",\"attr\":\"in_voltage0_raw\"}\n"
		   "CONSUMER nobody\n");
	for (i = 0; i < 3; i++) {
		CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
		CU_ASSERT_STRING_EQUAL(got, want[i]);
	}
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR ENODEV no channel map for consumer nobody");
	srvc_close(c);
}
TEST_CASE(test_order, "replies in order across buses");

/* SRV_BUSQ_DEPTH_MAX (256) requests may wait for one bus; the next is EBUSY. */
static void test_queue_full(void)
{
	enum { CONNS = 5, PER = 64 };	/* 320 > 256; 64 = SRV_SESSION_INFLIGHT_MAX */
	struct srvc *c[CONNS];
	char line[64 * 32], got[256];
	int i, k, busy = 0, timedout = 0, other = 0;

	line[0] = '\0';
	for (k = 0; k < PER; k++)
		strcat(line, "READ hung in_voltage0_raw\n");
	for (i = 0; i < CONNS; i++) {
		c[i] = srvc_open(srv.port);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c[i]);
		srvc_sends(c[i], line);
	}
	for (i = 0; i < CONNS; i++) {
		for (k = 0; k < PER; k++) {
			if (srvc_line(c[i], got, sizeof(got)) < 0) {
				other++;
				break;
			}
			if (strcmp(got, HUNG_TIMEOUT) == 0)
				timedout++;
			else if (strcmp(got, "ERR EBUSY hung in_voltage0_raw: bus i2c-0 has 256 "
					 "requests queued") == 0)
				busy++;
			else if (other++ == 0)
				fprintf(stderr, "\nunexpected: %s\n", got);
		}
		srvc_close(c[i]);
	}
	CU_ASSERT_EQUAL(other, 0);
	CU_ASSERT(busy >= CONNS * PER - 256);
	CU_ASSERT(timedout >= 1);
	CU_ASSERT_EQUAL(busy + timedout, CONNS * PER);
}
TEST_CASE(test_queue_full, "bus queue full: EBUSY");

/* A client leaves with requests on the hung bus: their results go nowhere, safely. */
static void test_leave_in_flight(void)
{
	struct srvc *gone = srvc_open(srv.port), *c = srvc_open(srv.port);
	char got[256];
	long queue = -1, end;

	CU_ASSERT_PTR_NOT_NULL_FATAL(gone);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvc_sends(gone, "READ hung in_voltage0_raw\nWRITE hung in_voltage0_raw 1\n"
		   "READ hung in_voltage0_raw\n");
	srvtest_sleep_ms(50);
	srvc_close(gone);
	CU_ASSERT(srvc_req(c, "READ good in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 1234");
	CU_ASSERT(srvc_stat(c, "bus.i2c-0.timeouts") >= 1);
	/* once the chip lets go, the queue drains to nothing */
	for (end = srvtest_now_ms() + 6000; srvtest_now_ms() < end; srvtest_sleep_ms(100)) {
		queue = srvc_stat(c, "bus.i2c-0.queue");
		if (queue == 0)
			break;
	}
	CU_ASSERT_EQUAL(queue, 0);
	srvc_close(c);
}
TEST_CASE(test_leave_in_flight, "client leaves with requests in flight");

TEST_MAIN("server bus workers", suite_init, suite_fini)
