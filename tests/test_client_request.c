/*
 * test_client_request.c - libiiowire's request/reply exchange (client/request.c)
 * against a scripted fake daemon: what a real iiowired never does on cue.
 *
 * Each row scripts the fake's answer to one request (late, never, twice,
 * malformed, in text, with an event first, hanging up) and states what the
 * library call must return and how often the fake must have seen the request
 * (a read is sent again after a break, a write that may have arrived is not).
 * The fake answers with protocol/'s own encoders, so only the misbehaviour
 * is scripted, never the wire syntax.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "clienttest.h"
#include "iiowire_priv.h"

/* What the fake does with a request, by row. */
enum req_script {
	REQ_ANSWER,		/* "OK 42" */
	REQ_SILENT_ONCE,	/* no answer to the first; later the stale answer, then this one */
	REQ_EVENT_FIRST,	/* push an event, then answer */
	REQ_HANGUP_FIRST,	/* first connection: hang up without answering */
	REQ_BAD_JSON,		/* a JSON line that is no reply */
	REQ_TEXT_ERR,		/* "ERR EBUSY ..." in text: the connection refused */
	REQ_UNKNOWN_ERR,	/* an errno name this library does not know */
	REQ_KNOWN_ERR,		/* ENOTUNIQ with a message */
	REQ_GREETING,		/* an unsolicited text line first */
	REQ_HUGE,		/* a reply line over IIOWIRE_REPLY_MAX_BYTES */
};

struct req_state {
	enum req_script script;
	char stale_id[PROTO_ID_MAX_BYTES];
	int seen_write;
};

static void req_fake(struct ct_fake *f, const struct proto_request *req, struct proto_buf *out,
		     int conn)
{
	struct req_state *st = f->data;
	struct proto_request stale;
	struct proto_event ev = { .device = "dev", .attr = "a", .value = "7",
				  .timestamp_ns = 1234 };
	size_t n;
	char *big;

	if (req->op == PROTO_OP_WRITE)
		st->seen_write++;
	switch (st->script) {
	case REQ_SILENT_ONCE:
		if (!st->stale_id[0]) {
			snprintf(st->stale_id, sizeof(st->stale_id), "%s", req->id);
			return;
		}
		stale = *req;
		memcpy(stale.id, st->stale_id, sizeof(stale.id));
		proto_reply_value(out, &stale, "old", 3);
		break;
	case REQ_EVENT_FIRST:
		proto_event_encode(out, true, &ev);
		break;
	case REQ_HANGUP_FIRST:
		if (conn == 1) {
			f->hangup = true;
			return;
		}
		break;
	case REQ_BAD_JSON:
		proto_buf_printf(out, "{\"id\": %s, \"ok\": \"maybe\"\n", req->id);
		return;
	case REQ_TEXT_ERR:
		proto_buf_printf(out, "ERR EBUSY too many clients\r\n");
		f->hangup = true;
		return;
	case REQ_UNKNOWN_ERR:
		proto_buf_printf(out, "{\"id\": %s, \"ok\": false, \"error\": \"EWHATEVER\", "
				 "\"message\": \"new in 9.0\"}\n", req->id);
		return;
	case REQ_KNOWN_ERR:
		proto_reply_error(out, req, -ENOTUNIQ, "max1363 matches 2 devices");
		return;
	case REQ_GREETING:
		proto_buf_printf(out, "hello from a daemon of the future\r\n");
		break;
	case REQ_HUGE:
		n = IIOWIRE_REPLY_MAX_BYTES + 16;
		big = malloc(n);
		memset(big, 'x', n);
		proto_buf_printf(out, "{\"id\": %s, \"ok\": true, \"value\": \"", req->id);
		proto_buf_append(out, big, n);
		proto_buf_printf(out, "\"}\n");
		free(big);
		return;
	case REQ_ANSWER:
		break;
	}
	if (req->op == PROTO_OP_WRITE)
		proto_reply_ok(out, req);
	else
		proto_reply_value(out, req, "42", 2);
}

static void test_request_scripts(void)
{
	struct {
		const char *name;
		enum req_script script;
		bool write;
		int ret;		/* of the (last) call */
		const char *value;	/* read value on success */
		int conns;		/* connections the fake accepted */
		int writes;		/* WRITE requests the fake saw */
		int events;		/* events queued after the call */
	} rows[] = {
		{ "plain read", REQ_ANSWER, false, 2, "42", 1, 0, 0 },
		{ "plain write", REQ_ANSWER, true, 0, NULL, 1, 1, 0 },
		{ "event before the reply is queued", REQ_EVENT_FIRST, false, 2, "42", 1, 0, 1 },
		{ "read sent again after a hangup", REQ_HANGUP_FIRST, false, 2, "42", 2, 0, 0 },
		{ "write not sent again after a hangup", REQ_HANGUP_FIRST, true, -ECONNRESET, NULL,
		  1, 1, 0 },
		/* a stream out of step is dropped; a read tries once more on a fresh one */
		{ "JSON that is no reply", REQ_BAD_JSON, false, -EPROTO, NULL, 2, 0, 0 },
		{ "text ERR: connection refused", REQ_TEXT_ERR, false, -EBUSY, NULL, 1, 0, 0 },
		{ "unknown errno name", REQ_UNKNOWN_ERR, false, -EPROTO, NULL, 1, 0, 0 },
		{ "known errno name", REQ_KNOWN_ERR, false, -ENOTUNIQ, NULL, 1, 0, 0 },
		{ "text line before the reply", REQ_GREETING, false, 2, "42", 1, 0, 0 },
		{ "reply line too long", REQ_HUGE, false, -EMSGSIZE, NULL, 2, 0, 0 },
	};
	struct req_state st;
	struct ct_fake f;
	struct iiowire *w;
	char buf[64];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&st, 0, sizeof(st));
		st.script = rows[i].script;
		CU_ASSERT_EQUAL_FATAL(ct_fake_start(&f, req_fake, &st), 0);
		w = iiowire_connect(f.address, 2000);
		TEST_ROW_ASSERT(w != NULL, rows[i].name);
		if (!w) {
			ct_fake_stop(&f);
			continue;
		}
		buf[0] = '\0';
		if (rows[i].write)
			ret = iiowire_attr_write(w, "dev", "a", "1");
		else
			ret = iiowire_attr_read(w, "dev", "a", buf, sizeof(buf));
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		if (rows[i].value)
			TEST_ROW_ASSERT(strcmp(buf, rows[i].value) == 0, rows[i].name);
		TEST_ROW_ASSERT(ret >= 0 || *iiowire_errmsg(w), rows[i].name);
		TEST_ROW_ASSERT(f.conns == rows[i].conns, rows[i].name);
		TEST_ROW_ASSERT(st.seen_write == rows[i].writes, rows[i].name);
		TEST_ROW_ASSERT(iiowire_event_pending(w) == rows[i].events, rows[i].name);
		iiowire_close(w);
		ct_fake_stop(&f);
	}
}
TEST_CASE(test_request_scripts, "scripted replies");

static void test_request_messages(void)
{
	struct req_state st = { .script = REQ_KNOWN_ERR };
	struct ct_fake f;
	struct iiowire *w;

	CU_ASSERT_EQUAL_FATAL(ct_fake_start(&f, req_fake, &st), 0);
	w = iiowire_connect(f.address, 2000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dev", "a", (char[8]){ 0 }, 8), -ENOTUNIQ);
	CU_ASSERT_STRING_EQUAL(iiowire_errmsg(w), "max1363 matches 2 devices");
	st.script = REQ_TEXT_ERR;
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dev", "a", (char[8]){ 0 }, 8), -EBUSY);
	CU_ASSERT_STRING_EQUAL(iiowire_errmsg(w), "too many clients");
	iiowire_close(w);
	ct_fake_stop(&f);
}
TEST_CASE(test_request_messages, "error messages");

static void test_request_timeout_and_stale(void)
{
	struct req_state st = { .script = REQ_SILENT_ONCE };
	struct ct_fake f;
	struct iiowire *w;
	char buf[16];
	int64_t t0, took;

	CU_ASSERT_EQUAL_FATAL(ct_fake_start(&f, req_fake, &st), 0);
	w = iiowire_connect(f.address, 300);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	t0 = ct_now_ms();
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dev", "a", buf, sizeof(buf)), -ETIMEDOUT);
	took = ct_now_ms() - t0;
	CU_ASSERT(took >= 280 && took < 2000);
	/* the late answer to the first request comes before the second's: it is dropped */
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dev", "a", buf, sizeof(buf)), 2);
	CU_ASSERT_STRING_EQUAL(buf, "42");
	CU_ASSERT_EQUAL(f.conns, 1);
	iiowire_close(w);
	ct_fake_stop(&f);
}
TEST_CASE(test_request_timeout_and_stale, "timeout, then the stale reply is dropped");

static void test_request_too_long(void)
{
	struct req_state st = { .script = REQ_ANSWER };
	struct ct_fake f;
	struct iiowire *w;
	char *value;

	value = malloc(PROTO_LINE_MAX_BYTES + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(value);
	memset(value, '1', PROTO_LINE_MAX_BYTES);
	value[PROTO_LINE_MAX_BYTES] = '\0';
	CU_ASSERT_EQUAL_FATAL(ct_fake_start(&f, req_fake, &st), 0);
	w = iiowire_connect(f.address, 2000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(iiowire_attr_write(w, "dev", "a", value), -E2BIG);
	CU_ASSERT_EQUAL(st.seen_write, 0);
	/* the connection is still good */
	CU_ASSERT_EQUAL(iiowire_attr_write(w, "dev", "a", "1"), 0);
	CU_ASSERT_EQUAL(st.seen_write, 1);
	iiowire_close(w);
	ct_fake_stop(&f);
	free(value);
}
TEST_CASE(test_request_too_long, "request line too long");

/* The daemon dies between requests: the next read finds EOF before sending. */
static void test_request_eof_between(void)
{
	struct req_state st = { .script = REQ_ANSWER };
	struct ct_fake f;
	struct iiowire *w;
	char buf[16];

	CU_ASSERT_EQUAL_FATAL(ct_fake_start(&f, req_fake, &st), 0);
	f.close_after_reply = true;
	w = iiowire_connect(f.address, 2000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(iiowire_attr_read(w, "dev", "a", buf, sizeof(buf)), 2);
	ct_sleep_ms(50);
	/* a write is safe to send on a new connection when the old one was seen closed first */
	CU_ASSERT_EQUAL(iiowire_attr_write(w, "dev", "a", "1"), 0);
	CU_ASSERT_EQUAL(st.seen_write, 1);
	CU_ASSERT_EQUAL(iiowire_reconnect_count(w), 1);
	CU_ASSERT_EQUAL(f.conns, 2);
	iiowire_close(w);
	ct_fake_stop(&f);
}
TEST_CASE(test_request_eof_between, "EOF between requests");

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	return test_main("request", NULL, NULL);
}
