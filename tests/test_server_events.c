/*
 * test_server_events.c - SUBSCRIBE, UNSUBSCRIBE and pushed IIO events
 * against a live iiowired (server/events.c), with iio_evgen as the source.
 *
 * Event lines in both spellings with the code and iio_event_monitor's
 * fields; filters by channel and event type; the request errors; the
 * per-connection limit at N and N+1; never inside a listing; a client
 * that never reads loses its own oldest events, counted, while another
 * gets every event and answers at once; a reload that removes the device
 * ends the stream with ENODEV and one that keeps it carries it on. The
 * chip alerts of max1363, ad7998 (ALERT, by a conversion of the cycle
 * timer) and tsl2563 (INT) reach the subscriber with the kernel's codes.
 */
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srvtest.h"
#include "testutil.h"

/* Subscriptions one connection may hold (server/events.h). */
#define TEV_SUBS_MAX	32

static struct srvtest srv;
static char tev_sock[108], tev_listen[128];
static char tev_board_json[8192];
static char tev_small_json[512];

static void tev_boards(void)
{
	size_t n = 0;
	int i;

	n += (size_t)snprintf(tev_board_json + n, sizeof(tev_board_json) - n,
			      "{\"board\": \"events\", \"buses\": {\"i2c-0\": {\"type\": \"i2c\","
			      " \"backend\": \"emulated\"}}, \"devices\": ["
			      "{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"},"
			      "{\"driver\": \"iio_evgen\"},"
			      /* AIN0 1500 mV is code 3000 of 4096: above a rising 2000 */
			      "{\"driver\": \"max1363\", \"bus\": \"i2c-0\", \"address\": \"0x34\","
			      " \"label\": \"mon\", \"irq\": \"emulated\","
			      " \"emulate\": {\"AIN0\": 1500, \"AIN1\": 500, \"AIN2\": 1000}},"
			      "{\"driver\": \"max1363\", \"bus\": \"i2c-0\", \"address\": \"0x35\","
			      " \"label\": \"noirq\", \"emulate\": {\"AIN0\": 1500}},"
			      /* voltage3 3000 mV of 4096: code 3000 */
			      "{\"driver\": \"ad7998\", \"bus\": \"i2c-0\", \"address\": \"0x21\","
			      " \"label\": \"alert\", \"irq\": \"emulated\", \"vref_mv\": 4096,"
			      " \"emulate\": {\"voltage3\": 3000}},"
			      /* 1000 counts of broadband light */
			      "{\"driver\": \"tsl2563\", \"bus\": \"i2c-0\", \"address\": \"0x39\","
			      " \"label\": \"light\", \"irq\": \"emulated\","
			      " \"emulate\": {\"broadband\": 1000, \"ir\": 200}}");
	/* one more dummy than a connection may subscribe to, beside dummy0 */
	for (i = 1; i <= TEV_SUBS_MAX; i++)
		n += (size_t)snprintf(tev_board_json + n, sizeof(tev_board_json) - n,
				      ",{\"driver\": \"iio_dummy\", \"name\": \"d%d\"}", i);
	snprintf(tev_board_json + n, sizeof(tev_board_json) - n, "]}");
	snprintf(tev_small_json, sizeof(tev_small_json),
		 "{\"board\": \"small\", \"devices\": [{\"driver\": \"iio_evgen\"},"
		 "{\"driver\": \"iio_dummy\", \"name\": \"other\"}]}");
}

/*
 * A unix socket as well: the kernel holds little for a reader that stops
 * (no TCP autotuning), so a stalled client's backlog reaches the daemon.
 */
static int suite_init(void)
{
	const char *const args[] = { "--listen", tev_listen, NULL };

	tev_boards();
	snprintf(tev_sock, sizeof(tev_sock), "/tmp/iiowire-evtest-%d.sock", (int)getpid());
	snprintf(tev_listen, sizeof(tev_listen), "unix:%s", tev_sock);
	return srvtest_suite_up(&srv, tev_board_json, args);
}

static int suite_fini(void)
{
	return srvtest_suite_down(&srv);
}

static struct srvc *tev_open(void)
{
	struct srvc *c = srvc_open(srv.port);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	return c;
}

static struct srvc *tev_open_unix(void)
{
	struct srvc *c = srvc_open_unix(tev_sock);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	return c;
}

static void tev_expect(struct srvc *c, const char *req, const char *want)
{
	char got[1024];

	CU_ASSERT(srvc_req(c, req, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "\n%s\n  got  %s\n  want %s\n", req, got, want);
}

/* The next line with the timestamp field replaced by T (text: "time: <ts>,"). */
static void tev_line_t(struct srvc *c, char *out, size_t len)
{
	char raw[1024], *p, *q;

	out[0] = '\0';
	if (srvc_line(c, raw, sizeof(raw)) < 0)
		return;
	p = strstr(raw, "time: ");
	if (!p) {
		p = strstr(raw, "\"timestamp\":");
		if (!p) {
			snprintf(out, len, "%s", raw);
			return;
		}
		p += strlen("\"timestamp\":");
	} else {
		p += strlen("time: ");
	}
	q = p;
	while (*q >= '0' && *q <= '9')
		q++;
	snprintf(out, len, "%.*sT%s", (int)(p - raw), raw, q);
}

static void tev_poke(struct srvc *c, const char *value)
{
	char req[64];

	snprintf(req, sizeof(req), "WRITE iio_evgen poke_ev0 %s", value);
	tev_expect(c, req, "OK");
}

static void test_event_lines(void)
{
	struct srvc *t = tev_open(), *j = tev_open(), *p = tev_open();
	char got[1024];

	tev_expect(t, "SUBSCRIBE dummy0", "OK");
	tev_expect(j, "{\"id\":1,\"op\":\"subscribe\",\"device\":\"dummy0\"}", "{\"id\":1,\"ok\":true}");
	tev_poke(p, "0");
	tev_poke(p, "1");
	tev_poke(p, "2");	/* walking 4 < value 0: the handler pushes nothing */
	tev_poke(p, "3");
	tev_line_t(t, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "IIOEVENT dummy0 0x0001000000000000 time: T, type: voltage, "
			       "channel: 0, evtype: thresh, direction: rising");
	tev_line_t(t, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "IIOEVENT dummy0 0x00011b1300000000 time: T, type: "
			       "activity(running), channel: 0, evtype: thresh, direction: rising");
	tev_line_t(t, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "IIOEVENT dummy0 0x0503001400000000 time: T, type: steps, "
			       "channel: 0, evtype: change");
	tev_line_t(j, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "{\"iio_event\":{\"device\":\"dummy0\",\"id\":\"0x0001000000000000\","
			       "\"timestamp\":T,\"type\":\"voltage\",\"channel\":0,"
			       "\"evtype\":\"thresh\",\"direction\":\"rising\"}}");
	tev_line_t(j, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "{\"iio_event\":{\"device\":\"dummy0\",\"id\":\"0x00011b1300000000\","
			       "\"timestamp\":T,\"type\":\"activity\",\"modifier\":\"running\","
			       "\"channel\":0,\"evtype\":\"thresh\",\"direction\":\"rising\"}}");
	tev_line_t(j, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "{\"iio_event\":{\"device\":\"dummy0\",\"id\":\"0x0503001400000000\","
			       "\"timestamp\":T,\"type\":\"steps\",\"channel\":0,\"evtype\":\"change\"}}");
	tev_expect(t, "UNSUBSCRIBE dummy0", "OK");
	tev_expect(t, "UNSUBSCRIBE dummy0", "ERR ENOENT no subscription to dummy0");
	tev_poke(p, "0");
	/* nothing more for t: the next line is the answer to this */
	tev_expect(t, "VERSION", "OK iiowire " IIOWIRE_VERSION " proto 1.0");
	srvc_close(t);
	srvc_close(j);
	srvc_close(p);
}
TEST_CASE(test_event_lines, "IIOEVENT lines, text and JSON, in the device's order");

static void test_filters_and_errors(void)
{
	struct srvc *c = tev_open(), *p = tev_open();
	char got[1024];

	tev_expect(c, "SUBSCRIBE dummy0 activity_running", "OK");
	tev_poke(p, "0");
	tev_poke(p, "1");
	tev_poke(p, "3");
	tev_line_t(c, got, sizeof(got));
	CU_ASSERT(strstr(got, "type: activity(running),") != NULL);
	/* the same device again changes the filter: now every change event */
	tev_expect(c, "SUBSCRIBE dummy0 * change", "OK");
	tev_poke(p, "1");
	tev_poke(p, "3");
	tev_line_t(c, got, sizeof(got));
	CU_ASSERT(strstr(got, "type: steps,") != NULL);
	tev_expect(c, "UNSUBSCRIBE", "OK");
	tev_expect(c, "SUBSCRIBE nosuch", "ERR ENODEV no device nosuch");
	tev_expect(c, "SUBSCRIBE iio_evgen", "ERR ENODEV iio_evgen does not support events");
	tev_expect(c, "SUBSCRIBE dummy0 voltage1-voltage2",
		   "ERR ENOENT dummy0 has no channel voltage1-voltage2 with events");
	tev_expect(c, "SUBSCRIBE dummy0 * gesture", "ERR ENOENT dummy0 has no gesture events");
	tev_expect(c, "SUBSCRIBE dummy0 voltage0 change",
		   "ERR ENOENT dummy0 has no change events on voltage0");
	tev_expect(c, "SUBSCRIBE dummy0 * bogus",
		   "ERR EINVAL evtype: unknown 'bogus' (thresh, mag, roc, change, ...)");
	tev_expect(c, "SUBSCRIBE", "ERR EINVAL SUBSCRIBE: missing <dev> (usage: SUBSCRIBE <dev> "
		   "[<channel> [<evtype>]])");
	/* an event a part lacks cannot be enabled: there is no such file */
	tev_expect(c, "WRITE dummy0 events/in_voltage0_thresh_falling_en 1",
		   "ERR ENOENT dummy0 has no attribute events/in_voltage0_thresh_falling_en");
	tev_expect(c, "WRITE dummy0 events/in_voltage0_thresh_rising_value 12x",
		   "ERR EINVAL dummy0 events/in_voltage0_thresh_rising_value: invalid argument");
	tev_expect(c, "WRITE dummy0 events/in_steps_change_en maybe",
		   "ERR EINVAL dummy0 events/in_steps_change_en: invalid argument");
	tev_expect(c, "WRITE iio_evgen poke_ev0 -1",
		   "ERR EINVAL iio_evgen poke_ev0: invalid argument");
	srvc_close(c);
	srvc_close(p);
}
TEST_CASE(test_filters_and_errors, "filters by channel and type; bad requests and writes");

static void test_limit(void)
{
	struct srvc *c = tev_open();
	char req[64], want[96];
	int i;

	tev_expect(c, "SUBSCRIBE dummy0", "OK");
	for (i = 1; i < TEV_SUBS_MAX; i++) {
		snprintf(req, sizeof(req), "SUBSCRIBE d%d", i);
		tev_expect(c, req, "OK");
	}
	snprintf(req, sizeof(req), "SUBSCRIBE d%d", TEV_SUBS_MAX);
	snprintf(want, sizeof(want), "ERR EBUSY at most %d subscriptions per connection",
		 TEV_SUBS_MAX);
	tev_expect(c, req, want);
	/* one gone makes room again */
	tev_expect(c, "UNSUBSCRIBE d1", "OK");
	tev_expect(c, req, "OK");
	srvc_close(c);
}
TEST_CASE(test_limit, "subscriptions per connection: N work, N+1 is EBUSY");

static void test_not_inside_listings(void)
{
	enum { ROUNDS = 50, ATTRS = 25 };
	struct srvc *c = tev_open();
	char got[1024], *batch = malloc(ROUNDS * 64);
	size_t n = 0;
	int i, k, events = 0, bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(batch);
	tev_expect(c, "SUBSCRIBE dummy0 voltage0", "OK");
	for (i = 0; i < ROUNDS; i++)
		n += (size_t)sprintf(batch + n, "WRITE iio_evgen poke_ev0 0\nATTRS dummy0\n");
	CU_ASSERT_EQUAL_FATAL(srvc_send(c, batch, n), 0);
	for (i = 0; i < ROUNDS && !bad;) {
		CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
		if (!strncmp(got, "IIOEVENT ", 9)) {
			events++;
			continue;
		}
		if (!strcmp(got, "OK"))
			continue;
		bad = strcmp(got, "OK 25") != 0;
		for (k = 0; k < ATTRS && !bad; k++) {
			CU_ASSERT_FATAL(srvc_line(c, got, sizeof(got)) > 0);
			bad = !strncmp(got, "IIOEVENT", 8);
		}
		i++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	while (events < ROUNDS && srvc_line(c, got, sizeof(got)) > 0)
		events += !strncmp(got, "IIOEVENT ", 9);
	CU_ASSERT_EQUAL(events, ROUNDS);
	free(batch);
	srvc_close(c);
}
TEST_CASE(test_not_inside_listings, "an event never lands inside a listing");

/* Count a subscriber's events and reported losses until @want are accounted for. */
static void tev_account(struct srvc *c, long want, long *events, long *lost)
{
	char got[1024];
	const char *p;

	*events = 0;
	*lost = 0;
	srvc_timeout(c, 3000);
	while (*events + *lost < want && srvc_line(c, got, sizeof(got)) > 0) {
		if (!strncmp(got, "IIOEVENT ", 9))
			(*events)++;
		else if ((p = strstr(got, "IIOEVENTLOST dummy0 ")) == got)
			*lost += strtol(p + 20, NULL, 10);
	}
	srvc_timeout(c, SRVTEST_REPLY_MS);
}

static void test_slow_reader(void)
{
	enum { N = 20000, BATCH = 100 };
	struct srvc *slow = tev_open_unix(), *fast = tev_open(), *p = tev_open();
	char got[256], *batch = malloc(BATCH * 32);
	long ev_fast = 0, lost_fast = 0, ev_slow, lost_slow, got_fast, got_lost;
	int i, b;
	size_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(batch);
	tev_expect(slow, "SUBSCRIBE dummy0", "OK");
	tev_expect(fast, "SUBSCRIBE dummy0", "OK");
	for (b = 0; b < N / BATCH; b++) {
		for (n = 0, i = 0; i < BATCH; i++)
			n += (size_t)sprintf(batch + n, "WRITE iio_evgen poke_ev0 3\n");
		CU_ASSERT_EQUAL_FATAL(srvc_send(p, batch, n), 0);
		for (i = 0; i < BATCH; i++)
			CU_ASSERT_FATAL(srvc_line(p, got, sizeof(got)) > 0);
		/* the fast one keeps up as it goes; the slow one never reads */
		tev_account(fast, 1, &got_fast, &got_lost);
		ev_fast += got_fast;
		lost_fast += got_lost;
	}
	tev_account(fast, N - ev_fast - lost_fast, &got_fast, &got_lost);
	ev_fast += got_fast;
	lost_fast += got_lost;
	/* every event reached the reader, or was counted (the device's queue, K-40) */
	CU_ASSERT_EQUAL(ev_fast + lost_fast, N);
	CU_ASSERT(ev_fast >= N / 2);
	/* the stalled one did not hold anyone up and is still served */
	tev_expect(fast, "VERSION", "OK iiowire " IIOWIRE_VERSION " proto 1.0");
	tev_account(slow, N, &ev_slow, &lost_slow);
	CU_ASSERT_EQUAL(ev_slow + lost_slow, N);
	CU_ASSERT(lost_slow > 0);
	CU_ASSERT(ev_slow < N);
	if (ev_fast + lost_fast != N || ev_fast < N / 2 || !lost_slow)
		fprintf(stderr, "\nfast %ld+%ld lost, slow %ld+%ld lost\n", ev_fast, lost_fast,
			ev_slow, lost_slow);
	tev_expect(slow, "VERSION", "OK iiowire " IIOWIRE_VERSION " proto 1.0");
	free(batch);
	srvc_close(slow);
	srvc_close(fast);
	srvc_close(p);
}
TEST_CASE(test_slow_reader, "a reader that stalls loses its oldest, counted; others get all");

/* The max1363 monitor's files, as the kernel's driver answers them. */
static void test_max1363_rules(void)
{
	static const struct {
		const char *req;
		const char *want;
	} rows[] = {
		{ "READ mon events/sampling_frequency_available",
		  "OK 133000 665000 33300 16600 8300 4200 2000 1000" },
		{ "READ mon events/sampling_frequency", "OK 133000" },
		{ "WRITE mon events/sampling_frequency 999",
		  "ERR EINVAL mon events/sampling_frequency: invalid argument" },
		{ "WRITE mon events/sampling_frequency 1000", "OK" },
		{ "READ mon events/sampling_frequency", "OK 1000" },
		/* 12 bits: 4095 is the largest value, one more is refused; negative is kept */
		{ "WRITE mon events/in_voltage3_thresh_rising_value 4095", "OK" },
		{ "WRITE mon events/in_voltage3_thresh_rising_value 4096",
		  "ERR EINVAL mon events/in_voltage3_thresh_rising_value: invalid argument" },
		{ "WRITE mon events/in_voltage3_thresh_falling_value -5", "OK" },
		{ "READ mon events/in_voltage3_thresh_falling_value", "OK -5" },
		/* thresholds shared by voltage1 and voltage1-voltage0: the positive input's */
		{ "WRITE mon events/in_voltage1-voltage0_thresh_rising_value 3000", "OK" },
		{ "READ mon events/in_voltage1_thresh_rising_value", "OK 3000" },
		{ "READ mon events/in_voltage1_thresh_rising_en", "OK 0" },
		/* channel 2 alone may be enabled; it reads its bit */
		{ "WRITE mon events/in_voltage2_thresh_rising_en 1", "OK" },
		{ "READ mon events/in_voltage2_thresh_rising_en", "OK 4" },
		{ "READ mon in_voltage0_raw",
		  "ERR EBUSY mon in_voltage0_raw: device or resource busy" },
		/* channel 3 with any event on, its own other direction too: EBUSY */
		{ "WRITE mon events/in_voltage3_thresh_falling_en 1",
		  "ERR EBUSY mon events/in_voltage3_thresh_falling_en: device or resource busy" },
		{ "WRITE mon events/in_voltage2_thresh_falling_en 1",
		  "ERR EBUSY mon events/in_voltage2_thresh_falling_en: device or resource busy" },
		/* channels 0 and 1 always pass */
		{ "WRITE mon events/in_voltage1_thresh_falling_en 1", "OK" },
		{ "READ mon events/in_voltage1-voltage0_thresh_falling_en", "OK 2" },
		{ "WRITE mon events/in_voltage1_thresh_falling_en 0", "OK" },
		{ "WRITE mon events/in_voltage2_thresh_rising_en 0", "OK" },
		/* all off: conversions are the reader's again */
		{ "READ mon in_voltage2_raw", "OK 2000" },
		/* the parts without monitor mode have no such files */
		{ "READ noirq events/in_voltage0_thresh_rising_en", "OK 0" },
		{ "WRITE mon events/in_voltage0_thresh_either_en 1",
		  "ERR ENOENT mon has no attribute events/in_voltage0_thresh_either_en" },
	};
	struct srvc *c = tev_open();
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		tev_expect(c, rows[i].req, rows[i].want);
	srvc_close(c);
}
TEST_CASE(test_max1363_rules, "max1363 monitor: values, enables, the channel 2/3 rule, EBUSY");

/*
 * The model's alert reaches the subscriber as the driver's event; an input
 * that stays out of the window interrupts at every sample (a storm), and
 * the daemon goes on answering everyone. Without an irq nothing comes.
 */
static void test_max1363_alert(void)
{
	struct srvc *c = tev_open(), *q = tev_open(), *n = tev_open();
	long t0, events = 0;
	char got[1024];
	int i;

	tev_expect(c, "SUBSCRIBE mon", "OK");
	tev_expect(n, "SUBSCRIBE noirq", "OK");
	tev_expect(c, "WRITE mon events/in_voltage0_thresh_rising_value 2000", "OK");
	tev_expect(c, "WRITE mon events/in_voltage0_thresh_rising_en 1", "OK");
	tev_line_t(c, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "IIOEVENT mon 0x0001000000000000 time: T, type: voltage, "
			       "channel: 0, evtype: thresh, direction: rising");
	tev_expect(n, "WRITE noirq events/in_voltage0_thresh_rising_value 2000", "OK");
	tev_expect(n, "WRITE noirq events/in_voltage0_thresh_rising_en 1", "OK");
	/* the storm goes on; others are answered at once */
	for (i = 0; i < 20; i++) {
		t0 = srvtest_now_ms();
		tev_expect(q, "VERSION", "OK iiowire " IIOWIRE_VERSION " proto 1.0");
		CU_ASSERT(srvtest_now_ms() - t0 < srvtest_ms(500));
		srvtest_sleep_ms(10);
	}
	/* the reply comes behind the events already pushed */
	CU_ASSERT_EQUAL(srvc_sends(c, "WRITE mon events/in_voltage0_thresh_rising_en 0\n"), 0);
	while (srvc_line(c, got, sizeof(got)) > 0 && strcmp(got, "OK"))
		events += !strncmp(got, "IIOEVENT mon ", 13);
	CU_ASSERT(events >= 10);
	/* the part without an interrupt line delivered nothing; its next line is the reply */
	tev_expect(n, "WRITE noirq events/in_voltage0_thresh_rising_en 0", "OK");
	srvc_close(c);
	srvc_close(q);
	srvc_close(n);
}
TEST_CASE(test_max1363_alert, "max1363 alert -> event; a storm leaves the daemon responsive");

/* Send @req and read until its "OK", counting the @dev events pushed before it. */
static long tev_drain_until_ok(struct srvc *c, const char *req, const char *dev)
{
	char got[1024], prefix[64];
	long events = 0;

	snprintf(prefix, sizeof(prefix), "IIOEVENT %s ", dev);
	CU_ASSERT_EQUAL(srvc_sends(c, req), 0);
	while (srvc_line(c, got, sizeof(got)) > 0 && strcmp(got, "OK"))
		events += !strncmp(got, prefix, strlen(prefix));
	CU_ASSERT_STRING_EQUAL(got, "OK");
	return events;
}

/*
 * ad7998: the kernel's errors over the wire, then the cycle timer converts
 * voltage3 past its rising threshold and ALERT brings the kernel's code.
 * tsl2563: INT after four integrations out of the window.
 */
static void test_ad799x_tsl2563_alerts(void)
{
	static const struct {
		const char *req;
		const char *want;
	} rows[] = {
		{ "WRITE alert events/in_voltage3_thresh_rising_value 4096",
		  "ERR EINVAL alert events/in_voltage3_thresh_rising_value: invalid argument" },
		{ "WRITE alert events/in_voltage3_thresh_rising_value -1",
		  "ERR EINVAL alert events/in_voltage3_thresh_rising_value: invalid argument" },
		{ "WRITE alert events/in_voltage4_thresh_rising_en 1",
		  "ERR ENOENT alert has no attribute events/in_voltage4_thresh_rising_en" },
		{ "WRITE alert events/sampling_frequency 1953",
		  "ERR EINVAL alert events/sampling_frequency: invalid argument" },
		{ "READ alert events/sampling_frequency_available",
		  "OK 15625 7812 3906 1953 976 488 244 0" },
		{ "READ alert events/in_voltage3_thresh_either_hysteresis", "OK 8" },
		{ "WRITE alert events/in_voltage3_thresh_rising_value 2999", "OK" },
		{ "WRITE alert events/in_voltage3_thresh_rising_en 1", "OK" },
		{ "READ alert events/in_voltage3_thresh_falling_en", "OK 1" },
		{ "WRITE alert events/sampling_frequency 244", "OK" },
	};
	struct srvc *c = tev_open();
	char got[1024];
	size_t i;

	tev_expect(c, "SUBSCRIBE alert", "OK");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		tev_expect(c, rows[i].req, rows[i].want);
	tev_line_t(c, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "IIOEVENT alert 0x0001000000000003 time: T, type: voltage, "
			       "channel: 3, evtype: thresh, direction: rising");
	/* hysteresis: the input stays up, no second alert before the reply */
	CU_ASSERT_EQUAL(tev_drain_until_ok(c, "WRITE alert events/sampling_frequency 0\n",
					   "alert"), 0);
	tev_expect(c, "WRITE alert events/in_voltage3_thresh_rising_en 0", "OK");
	tev_expect(c, "READ alert events/sampling_frequency", "OK 0");

	tev_expect(c, "SUBSCRIBE light", "OK");
	tev_expect(c, "READ light events/in_intensity_both_thresh_rising_value", "OK 65535");
	tev_expect(c, "WRITE light events/in_intensity_both_thresh_rising_value 70000", "OK");
	tev_expect(c, "READ light events/in_intensity_both_thresh_rising_value", "OK 4464");
	tev_expect(c, "WRITE light events/in_intensity_both_thresh_rising_value 500", "OK");
	tev_expect(c, "WRITE light events/in_intensity_both_thresh_falling_en 1", "OK");
	tev_expect(c, "READ light events/in_intensity_both_thresh_rising_en", "OK 1");
	tev_line_t(c, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "IIOEVENT light 0x0000000700000000 time: T, type: intensity, "
			       "channel: 0, evtype: thresh, direction: either");
	/* out of the window it interrupts each integration; off, the reply ends them */
	tev_drain_until_ok(c, "WRITE light events/in_intensity_both_thresh_rising_en 0\n", "light");
	tev_expect(c, "READ light events/in_intensity_both_thresh_falling_en", "OK 0");
	srvc_close(c);
}
TEST_CASE(test_ad799x_tsl2563_alerts, "ad7998 ALERT and tsl2563 INT -> the kernel's codes");

/* A GPIO line the board names but the system cannot give fails the load, naming it. */
static void test_gpio_line_refused(void)
{
	static const char board[] =
		"{\"board\": \"gpio\", \"buses\": {\"i2c-0\": {\"type\": \"i2c\","
		" \"backend\": \"emulated\"}}, \"devices\": [{\"driver\": \"max1363\","
		" \"bus\": \"i2c-0\", \"address\": \"0x34\","
		" \"irq\": {\"chip\": \"gpiochip77\", \"line\": 17}}]}";
	struct srvtest t;

	CU_ASSERT_EQUAL(srvtest_start(&t, board, NULL), -ECHILD);
	CU_ASSERT(strstr(t.log, "devices[0]") != NULL);
	CU_ASSERT(strstr(t.log, "irq: cannot open GPIO chip gpiochip77") != NULL);
	if (!strstr(t.log, "gpiochip77"))
		fprintf(stderr, "\n%s\n", t.log);
	srvtest_fini(&t, false);
}
TEST_CASE(test_gpio_line_refused, "a GPIO line that cannot be requested: board error naming it");

static void test_reload_ends_stream(void)
{
	struct srvc *c = tev_open(), *keep = tev_open(), *p;
	long reloads, end;
	char got[1024];

	tev_expect(c, "SUBSCRIBE dummy0", "OK");
	tev_expect(keep, "SUBSCRIBE iio:device1", "ERR ENODEV iio:device1 does not support events");
	CU_ASSERT_FATAL(srvtest_rewrite_file(srv.board, tev_small_json) == 0);
	kill(srv.pid, SIGHUP);
	CU_ASSERT(srvc_line(c, got, sizeof(got)) > 0);
	CU_ASSERT_STRING_EQUAL(got, "IIOEVENTEND dummy0 ENODEV device left the board");
	/* the stream ended: pokes of the new board's dummy do not reach it */
	tev_expect(c, "UNSUBSCRIBE dummy0", "ERR ENODEV no device dummy0");
	tev_expect(keep, "SUBSCRIBE other", "OK");
	p = tev_open();
	reloads = srvc_stat(p, "reloads");
	CU_ASSERT_FATAL(srvtest_rewrite_file(srv.board, tev_small_json) == 0);
	kill(srv.pid, SIGHUP);
	for (end = srvtest_now_ms() + 5000; srvc_stat(p, "reloads") == reloads &&
	     srvtest_now_ms() < end;)
		srvtest_sleep_ms(20);
	CU_ASSERT(srvc_stat(p, "reloads") == reloads + 1);
	/* a reload that keeps the name carries the subscription to the new device */
	tev_poke(p, "0");
	tev_line_t(keep, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "IIOEVENT other 0x0001000000000000 time: T, type: voltage, "
			       "channel: 0, evtype: thresh, direction: rising");
	CU_ASSERT_FATAL(srvtest_rewrite_file(srv.board, tev_board_json) == 0);
	kill(srv.pid, SIGHUP);
	srvc_close(p);
	srvc_close(c);
	srvc_close(keep);
}
TEST_CASE(test_reload_ends_stream, "a reload ends a removed device's stream (ENODEV), keeps others");

TEST_MAIN("server events", suite_init, suite_fini)
