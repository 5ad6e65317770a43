/*
 * test_server_faults.c - chip and bus faults through a live iiowired, and
 * the daemon going away under load (issue "Hardening", chip and bus faults).
 *
 * Emulated chips armed with faults stand in for broken hardware: a NACK is
 * ENXIO and an I/O error EIO, over the wire and through libiiowire; a hung
 * transfer is ETIMEDOUT after --io-timeout-ms while another bus answers at
 * once, and the bus serves again when the chip lets go (a hang with a
 * count) or when a SIGHUP reload brings the chip back healthy. A provider
 * that vanishes in a reload makes a consumer channel libiiowire holds
 * return ENODEV, and the same handle reads again after the next reload;
 * a request in flight on the vanishing device gets an answer. Last, the
 * daemon is restarted on the same port under four libiiowire clients:
 * they see connection errors only while it is down, then reconnect.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iiowire.h"
#include "srvtest.h"
#include "srvvectors.h"
#include "testutil.h"

#define IO_TIMEOUT_MS	300

#define BUS(n)	"\"i2c-" #n "\": {\"type\": \"i2c\", \"backend\": \"emulated\"}"
#define ADC(bus, addr, label, extra)						\
	"{\"driver\": \"max1238\", \"bus\": \"i2c-" #bus "\", \"address\": \"" addr "\","	\
	" \"label\": \"" label "\", \"emulate\": {\"AIN0\": 1234, \"AIN1\": 1800}" extra "}"
#define FAULT(mode)	", \"fault\": {\"mode\": \"" mode "\"}"
#define HANG(ms, count)							\
	", \"fault\": {\"mode\": \"hang\", \"hang_ms\": " #ms ", \"count\": " #count "}"
#define MAP(prov, label, chan)							\
	"{\"adc_dev_name\": \"" prov "\", \"adc_channel_label\": \"" label "\","	\
	" \"consumer_dev_name\": \"hwmon0\", \"consumer_channel\": \"" chan "\"}"

/*
 * i2c-0: "adc", healthy (the other bus that must keep answering).
 * i2c-1: "nacker" never acknowledges, "eio" breaks every transfer.
 * i2c-2: "flaky": its first two transfers hang 900 ms (past the timeout).
 * i2c-3: "stuck": every transfer hangs 400 ms, until a reload cures it.
 * i2c-4: "slowgone": hangs 300 ms per transfer, removed by a reload.
 */
#define FAULT_DEVICES								\
	ADC(0, "0x35", "adc", "") "," ADC(1, "0x35", "nacker", FAULT("nack")) ","	\
	ADC(1, "0x36", "eio", FAULT("eio")) "," ADC(2, "0x35", "flaky", HANG(900, 2)) ","
#define FAULT_BOARD								\
	"{\"board\": \"faults\", \"buses\": {" BUS(0) "," BUS(1) "," BUS(2) "," BUS(3) ","	\
	BUS(4) "}, \"devices\": [" FAULT_DEVICES					\
	ADC(3, "0x35", "stuck", HANG(400, 0)) "," ADC(4, "0x35", "slowgone", HANG(300, 0)) "],"	\
	" \"maps\": [" MAP("0-0035", "AIN1", "vin") "," MAP("1-0035", "AIN0", "bad") "]}"
/* The same board once the NACKing and the stuck chips are healthy again. */
#define FAULT_BOARD_CURED							\
	"{\"board\": \"cured\", \"buses\": {" BUS(0) "," BUS(1) "," BUS(2) "," BUS(3) ","	\
	BUS(4) "}, \"devices\": ["						\
	ADC(0, "0x35", "adc", "") "," ADC(1, "0x35", "nacker", "") ","		\
	ADC(1, "0x36", "eio", FAULT("eio")) "," ADC(2, "0x35", "flaky", "") ","		\
	ADC(3, "0x35", "stuck", "") "," ADC(4, "0x35", "slowgone", HANG(300, 0)) "],"	\
	" \"maps\": [" MAP("0-0035", "AIN1", "vin") "," MAP("1-0035", "AIN0", "bad") "]}"
/* Without the ADC that provides hwmon0's vin (nor its map), nor slowgone. */
#define FAULT_BOARD_GONE							\
	"{\"board\": \"gone\", \"buses\": {" BUS(1) "}, \"devices\": ["		\
	ADC(1, "0x35", "nacker", "") "]}"

static bool flt_start(struct srvtest *t, const char *board, const char *const *args)
{
	static const char *const def[] = { "--io-timeout-ms", "300", NULL };

	return srvtest_up(t, board ? board : FAULT_BOARD, args ? args : def);
}

static void flt_stop(struct srvtest *t)
{
	CU_ASSERT_EQUAL(srvtest_down(t), 0);
}

/* valgrind runs the daemon 20-50x slower: time limits grow with it */
static long flt_ms(long ms)
{
	return srvtest_slow() ? 10 * ms : ms;
}

/* Rewrite the board file, SIGHUP, and wait for the daemon to say it swapped boards. */
static bool flt_reload(struct srvtest *t, const char *board)
{
	size_t before = t->loglen;
	long end = srvtest_now_ms() + flt_ms(5000);

	if (srvtest_rewrite_file(t->board, board))
		return false;
	kill(t->pid, SIGHUP);
	while (srvtest_now_ms() < end) {
		if (before > t->loglen)
			before = 0;	/* the log helper dropped old lines */
		if (strstr(t->log + before, "board reloaded"))
			return true;
		if (strstr(t->log + before, "reload failed"))
			return false;
		srvtest_read_log(t, 50);
	}
	return false;
}

static struct iiowire *flt_connect(int port)
{
	char addr[64];

	snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
	return iiowire_connect(addr, (int)flt_ms(3000));
}

/* ---- chip errors ---- */

static void test_chip_errors(void)
{
	struct srvtest t;
	struct srvc *c;
	struct iiowire *w;
	char got[512];

	CU_ASSERT_FATAL(flt_start(&t, NULL, NULL));
	c = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	srvvec_run(c, "server_faults_chip_errors.txt", NULL);
	srvc_close(c);
	/* libiiowire hands the errno on */
	w = flt_connect(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "nacker", "in_voltage0_raw", got, sizeof(got)),
			-ENXIO);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "eio", "in_voltage0_raw", got, sizeof(got)), -EIO);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "adc", "in_voltage0_raw", got, sizeof(got)), 4);
	iiowire_close(w);
	flt_stop(&t);
}
TEST_CASE(test_chip_errors, "NACK is ENXIO, a broken transfer EIO");

/* ---- a hung transfer ---- */

/*
 * "flaky" hangs its first two transfers for 900 ms: requests time out at
 * IO_TIMEOUT_MS while the other bus answers at once; when the chip lets go,
 * the bus serves again at normal speed.
 */
static void test_hang_recovers(void)
{
	struct srvtest t;
	struct srvc *c, *o;
	char got[512];
	long t0, took, lat, end;
	int oks = 0;

	CU_ASSERT_FATAL(flt_start(&t, NULL, NULL));
	c = srvc_open(t.port);
	o = srvc_open(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	t0 = srvtest_now_ms();
	srvc_sends(c, "READ flaky in_voltage0_raw\n");
	/* meanwhile, another bus */
	srvtest_sleep_ms(50);
	lat = srvtest_now_ms();
	CU_ASSERT(srvc_req(o, "READ adc in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 1234");
	CU_ASSERT(srvtest_now_ms() - lat < flt_ms(200));
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	took = srvtest_now_ms() - t0;
	CU_ASSERT_STRING_EQUAL(got, "ERR ETIMEDOUT flaky in_voltage0_raw: no answer from the bus "
			       "within 300 ms");
	/* on time: the bus timeout, not the 900 ms the chip hangs */
	CU_ASSERT(took >= IO_TIMEOUT_MS - 20 && took < flt_ms(800));
	/* the chip comes back: the bus answers again, and at normal speed */
	for (end = srvtest_now_ms() + flt_ms(5000); srvtest_now_ms() < end && oks < 5;) {
		lat = srvtest_now_ms();
		CU_ASSERT_FATAL(srvc_req(c, "READ flaky in_voltage0_raw", got, sizeof(got)) > 0);
		lat = srvtest_now_ms() - lat;
		if (strcmp(got, "OK 1234") == 0) {
			/* the first may have waited for the hang to end; the rest must not */
			if (oks++)
				CU_ASSERT(lat < flt_ms(100));
		} else {
			CU_ASSERT(oks == 0);	/* once back, it stays back */
			CU_ASSERT(strncmp(got, "ERR ETIMEDOUT flaky", 19) == 0);
			srvtest_sleep_ms(100);
		}
	}
	CU_ASSERT_EQUAL(oks, 5);
	CU_ASSERT(srvtest_now_ms() - t0 < flt_ms(3000));
	srvc_close(c);
	srvc_close(o);
	flt_stop(&t);
}
TEST_CASE(test_hang_recovers, "hung transfer: ETIMEDOUT on time, the bus recovers");

/*
 * Faults that never end by themselves end when a reload brings the chips
 * back healthy; a consumer channel held through libiiowire reads again.
 */
static void test_fault_cleared_by_reload(void)
{
	struct iiowire_channel *bad;
	struct srvtest t;
	struct iiowire *w;
	struct srvc *c;
	char got[512];
	int val = 0;

	CU_ASSERT_FATAL(flt_start(&t, NULL, NULL));
	c = srvc_open(t.port);
	w = flt_connect(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	bad = iiowire_channel_get(w, "hwmon0", "bad");
	CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
	CU_ASSERT_EQUAL(iiowire_read_channel_raw(bad, &val), -ENXIO);
	CU_ASSERT(srvc_req(c, "READ stuck in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR ETIMEDOUT stuck in_voltage0_raw: no answer from the bus "
			       "within 300 ms");
	CU_ASSERT_FATAL(flt_reload(&t, FAULT_BOARD_CURED));
	CU_ASSERT(srvc_req(c, "READ stuck in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 1234");
	CU_ASSERT(srvc_req(c, "READ nacker in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 1234");
	CU_ASSERT(iiowire_read_channel_raw(bad, &val) > 0);
	CU_ASSERT_EQUAL(val, 1234);
	/* the chip left broken is still broken */
	CU_ASSERT(srvc_req(c, "READ eio in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR EIO eio in_voltage0_raw: input/output error");
	iiowire_channel_release(bad);
	iiowire_close(w);
	srvc_close(c);
	flt_stop(&t);
}
TEST_CASE(test_fault_cleared_by_reload, "faults cured by a reload");

/* ---- a provider that vanishes ---- */

static void test_device_vanishes(void)
{
	struct iiowire_channel *vin;
	struct srvtest t;
	struct iiowire *w;
	struct srvc *c, *inflight;
	char got[512];
	int val = 0;

	CU_ASSERT_FATAL(flt_start(&t, NULL, NULL));
	c = srvc_open(t.port);
	inflight = srvc_open(t.port);
	w = flt_connect(t.port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(inflight);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	vin = iiowire_channel_get(w, "hwmon0", "vin");
	CU_ASSERT_PTR_NOT_NULL_FATAL(vin);
	CU_ASSERT(iiowire_read_channel_raw(vin, &val) > 0);
	CU_ASSERT_EQUAL(val, 1800);
	/* a READ on its way to a chip that the reload removes */
	srvc_sends(inflight, "READ slowgone in_voltage0_raw\n");
	srvtest_sleep_ms(20);
	CU_ASSERT_FATAL(flt_reload(&t, FAULT_BOARD_GONE));
	/* it is answered (the chip timed out, or it is gone), not lost */
	CU_ASSERT(srvc_line(inflight, got, sizeof(got)) > 0);
	CU_ASSERT(strncmp(got, "ERR ETIMEDOUT slowgone", 22) == 0 ||
		  strncmp(got, "ERR ENODEV slowgone", 19) == 0);
	CU_ASSERT(srvc_req(inflight, "READ slowgone in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR ENODEV no device slowgone");
	/* the held channel's provider is gone: ENODEV, as a kernel consumer sees */
	CU_ASSERT_EQUAL(iiowire_read_channel_raw(vin, &val), -ENODEV);
	CU_ASSERT(srvc_req(c, "CREAD hwmon0 vin raw", got, sizeof(got)) > 0);
	/* the new board has no maps: the consumer itself is gone */
	CU_ASSERT_STRING_EQUAL(got, "ERR ENODEV no consumer hwmon0: no channel map names it");
	CU_ASSERT(srvc_req(c, "READ adc in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "ERR ENODEV no device adc");
	/* it comes back with the next reload, and the same handle reads again */
	CU_ASSERT_FATAL(flt_reload(&t, FAULT_BOARD));
	val = 0;
	CU_ASSERT(iiowire_read_channel_raw(vin, &val) > 0);
	CU_ASSERT_EQUAL(val, 1800);
	CU_ASSERT(srvc_req(c, "READ adc in_voltage0_raw", got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "OK 1234");
	iiowire_channel_release(vin);
	iiowire_close(w);
	srvc_close(inflight);
	srvc_close(c);
	flt_stop(&t);
}
TEST_CASE(test_device_vanishes, "a provider vanishes and comes back");

/* ---- restart under load ---- */

struct flt_client {
	pthread_t thread;
	int port;
	int *stop;		/* __atomic */
	int *restarted;		/* __atomic: the new daemon is up */
	long ok_before, ok_after;
	long wrong;		/* answers with a wrong value: never allowed */
	long errors;
	int bad_err;		/* an error other than the connection's going */
	unsigned int reconnects;
};

static bool flt_conn_err(int err)
{
	switch (-err) {
	case ECONNREFUSED:
	case ECONNRESET:
	case EPIPE:
	case ENOTCONN:
	case ESHUTDOWN:
	case ECANCELED:
		return true;
	}
	return false;
}

static void *flt_client_main(void *arg)
{
	struct flt_client *cl = arg;
	struct iiowire_channel *vin = NULL;
	struct iiowire *w = flt_connect(cl->port);
	char buf[64];
	long n = 0;
	int ret, val, after;

	if (!w) {
		cl->bad_err = errno;
		return NULL;
	}
	vin = iiowire_channel_get(w, "hwmon0", "vin");
	while (!__atomic_load_n(cl->stop, __ATOMIC_ACQUIRE)) {
		after = __atomic_load_n(cl->restarted, __ATOMIC_ACQUIRE);
		if (vin && ++n % 4 == 0) {
			ret = iiowire_read_channel_raw(vin, &val);
			if (ret > 0 && val != 1800)
				cl->wrong++;
		} else {
			ret = iiowire_attr_read(w, "adc", "in_voltage0_raw", buf, sizeof(buf));
			if (ret > 0 && strcmp(buf, "1234") != 0)
				cl->wrong++;
		}
		if (ret > 0 && after)
			cl->ok_after++;
		else if (ret > 0)
			cl->ok_before++;
		if (ret < 0) {
			cl->errors++;
			if (!flt_conn_err(ret) && !cl->bad_err)
				cl->bad_err = -ret;
			srvtest_sleep_ms(10);	/* the daemon is away: do not spin */
		}
	}
	cl->reconnects = iiowire_reconnect_count(w);
	iiowire_channel_release(vin);
	iiowire_close(w);
	return NULL;
}

/* A port nobody listens on right now. */
static int flt_free_port(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sin, &len) == 0)
		port = ntohs(sin.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static void test_restart_under_load(void)
{
	enum { N = 4 };
	struct flt_client cl[N];
	char listen[64];
	const char *args[] = { "--listen", listen, "--io-timeout-ms", "300", NULL };
	struct srvtest t;
	int stop = 0, restarted = 0, port, i;

	port = flt_free_port();
	CU_ASSERT_FATAL(port > 0);
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	CU_ASSERT_FATAL(flt_start(&t, NULL, args));
	memset(cl, 0, sizeof(cl));
	for (i = 0; i < N; i++) {
		cl[i].port = port;
		cl[i].stop = &stop;
		cl[i].restarted = &restarted;
		CU_ASSERT_FATAL(pthread_create(&cl[i].thread, NULL, flt_client_main, &cl[i]) == 0);
	}
	srvtest_sleep_ms(flt_ms(300));
	/* SIGTERM under load: in-flight replies go out, exit 0 */
	CU_ASSERT_EQUAL(srvtest_stop(&t), 0);
	srvtest_fini(&t, false);
	srvtest_sleep_ms(300);
	CU_ASSERT_FATAL(flt_start(&t, NULL, args));
	__atomic_store_n(&restarted, 1, __ATOMIC_RELEASE);
	srvtest_sleep_ms(flt_ms(700));
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < N; i++) {
		pthread_join(cl[i].thread, NULL);
		CU_ASSERT(cl[i].ok_before > 0);
		CU_ASSERT(cl[i].ok_after > 0);
		CU_ASSERT(cl[i].reconnects >= 1);
		CU_ASSERT_EQUAL(cl[i].wrong, 0);
		CU_ASSERT_EQUAL(cl[i].bad_err, 0);
		if (!cl[i].ok_after || cl[i].bad_err || cl[i].wrong)
			fprintf(stderr, "\nclient %d: %ld ok before, %ld after, %ld errors (%s), "
				"%ld wrong, %u reconnects\n", i, cl[i].ok_before, cl[i].ok_after,
				cl[i].errors, cl[i].bad_err ? strerror(cl[i].bad_err) : "-",
				cl[i].wrong, cl[i].reconnects);
	}
	flt_stop(&t);
}
TEST_CASE(test_restart_under_load, "daemon restart under client load");

TEST_MAIN("server faults", NULL, NULL)
