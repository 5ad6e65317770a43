/*
 * test_client_stream.c - libiiowire's streams (client/stream.c) against a scripted
 * fake daemon: the open (reply, channels, scale and offset through the
 * caller's connection), raw, csv and json blocks, a block that arrives in
 * pieces across a read timeout, STREAMEND, a connection that breaks, error
 * replies, and bad configurations refused before anything is sent.
 *
 * The fake serves every connection at once from one thread (a stream has a
 * connection of its own beside the caller's) and answers by the request's
 * "op": canned CHANNELS/READ/CREAD replies, and for STREAM the test's reply
 * and then its chunks, each sent a given time after the previous one. The
 * live daemon's streams are tested by tests/test_capture.sh and
 * tests/test_libiio_stream.sh; this suite owns the byte-level cases a real
 * daemon does not produce on demand.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "iiowire.h"
#include "testutil.h"

#define FK_CONNS_MAX	8
#define FK_CHUNKS_MAX	8

/* Bytes sent @after_ms after the previous chunk (or the STREAM reply); NULL data: hang up. */
struct fk_chunk {
	const char *data;
	size_t len;
	int after_ms;
};

struct fk {
	int lfd, port;
	char address[32];
	pthread_t thread;
	int stop[2];
	const char *stream_reply;	/* the answer to STREAM/CSTREAM */
	struct fk_chunk chunks[FK_CHUNKS_MAX];
	int nchunks;
	_Atomic int unstreams;		/* UNSTREAM requests seen */
	_Atomic int streams;		/* STREAM/CSTREAM requests seen */
};

struct fk_conn {
	int fd;
	char line[4096];
	size_t len;
	int next_chunk;			/* -1: not a stream connection */
	int64_t due_ms;
};

static int64_t fk_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void fk_send(int fd, const char *s, size_t len)
{
	if (send(fd, s, len, MSG_NOSIGNAL) < 0)
		return;
}

/* The dummy-like device of these tests: voltage0 (scale, offset), accel_x (no scale). */
static const char fk_channels[] =
	"\"channels\":[{\"type\":\"voltage\",\"index\":0,\"output\":false,\"differential\":false,"
	"\"attributes\":[\"in_voltage0_raw\",\"in_voltage0_scale\",\"in_voltage0_offset\"]},"
	"{\"type\":\"accel\",\"modifier\":\"x\",\"output\":false,\"differential\":false,"
	"\"attributes\":[\"in_accel_x_raw\",\"in_accel_x_calibscale\"]},"
	"{\"type\":\"timestamp\",\"output\":false,\"differential\":false,\"attributes\":[]}]";

/* One request line: canned answers by op; STREAM starts the chunk script. */
static void fk_line(struct fk *f, struct fk_conn *c, const char *line)
{
	char out[8192], id[32] = "null";
	const char *p = strstr(line, "\"id\":");

	if (p)
		snprintf(id, sizeof(id), "%.*s", (int)strcspn(p + 5, ",}"), p + 5);
	if (strstr(line, "\"op\":\"stream\"") || strstr(line, "\"op\":\"cstream\"")) {
		f->streams++;
		snprintf(out, sizeof(out), f->stream_reply, id);
		fk_send(c->fd, out, strlen(out));
		c->next_chunk = 0;
		c->due_ms = fk_now_ms() + (f->nchunks ? f->chunks[0].after_ms : 0);
		return;
	}
	if (strstr(line, "\"op\":\"unstream\"")) {
		f->unstreams++;
		snprintf(out, sizeof(out), "{\"id\":%s,\"ok\":true}\n", id);
	} else if (strstr(line, "\"op\":\"channels\"")) {
		snprintf(out, sizeof(out), "{\"id\":%s,\"ok\":true,%s}\n", id, fk_channels);
	} else if (strstr(line, "in_voltage0_scale")) {
		snprintf(out, sizeof(out), "{\"id\":%s,\"ok\":true,\"value\":\"0.001333\"}\n", id);
	} else if (strstr(line, "in_voltage0_offset")) {
		snprintf(out, sizeof(out), "{\"id\":%s,\"ok\":true,\"value\":\"7\"}\n", id);
	} else if (strstr(line, "\"op\":\"cread\"") && strstr(line, "\"scale\"")) {
		snprintf(out, sizeof(out), "{\"id\":%s,\"ok\":true,\"value\":\"0.333333333\","
			 "\"val\":1,\"val2\":3,\"format\":\"FRACTIONAL\"}\n", id);
	} else if (strstr(line, "\"op\":\"cread\"") && strstr(line, "\"type\"")) {
		snprintf(out, sizeof(out), "{\"id\":%s,\"ok\":true,\"value\":\"voltage\"}\n", id);
	} else if (strstr(line, "\"op\":\"cread\"")) {
		snprintf(out, sizeof(out), "{\"id\":%s,\"ok\":false,\"error\":\"EINVAL\"}\n", id);
	} else if (strstr(line, "\"op\":\"consumer\"")) {
		snprintf(out, sizeof(out), "{\"id\":%s,\"ok\":true,\"channels\":[{\"channel\":"
			 "\"vin\",\"device\":\"iio:device0\",\"datasheet_name\":\"AIN0\","
			 "\"type\":\"voltage\"}]}\n", id);
	} else {
		snprintf(out, sizeof(out), "{\"id\":%s,\"ok\":false,\"error\":\"ENOSYS\"}\n", id);
	}
	fk_send(c->fd, out, strlen(out));
}

/* Input on @c: whole lines to fk_line(). Return: false when the peer is gone. */
static bool fk_input(struct fk *f, struct fk_conn *c)
{
	char buf[4096];
	ssize_t n = recv(c->fd, buf, sizeof(buf), 0);
	ssize_t i;

	if (n <= 0)
		return false;
	for (i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (c->len < sizeof(c->line) - 1)
				c->line[c->len++] = buf[i];
			continue;
		}
		c->line[c->len] = '\0';
		c->len = 0;
		fk_line(f, c, c->line);
	}
	return true;
}

/* The next chunk of a stream connection when it is due. Return: false to hang up. */
static bool fk_chunk_due(struct fk *f, struct fk_conn *c, int64_t now)
{
	const struct fk_chunk *ch;

	while (c->next_chunk >= 0 && c->next_chunk < f->nchunks && now >= c->due_ms) {
		ch = &f->chunks[c->next_chunk++];
		if (!ch->data)
			return false;
		fk_send(c->fd, ch->data, ch->len);
		if (c->next_chunk < f->nchunks)
			c->due_ms = now + f->chunks[c->next_chunk].after_ms;
	}
	return true;
}

/* Poll timeout until the earliest due chunk. */
static int fk_wait_ms(struct fk *f, struct fk_conn *conns, int n, int64_t now)
{
	int64_t wait = -1;
	int i;

	for (i = 0; i < n; i++)
		if (conns[i].next_chunk >= 0 && conns[i].next_chunk < f->nchunks &&
		    (wait < 0 || conns[i].due_ms - now < wait))
			wait = conns[i].due_ms > now ? conns[i].due_ms - now : 0;
	return (int)wait;
}

static void *fk_main(void *arg)
{
	struct fk *f = arg;
	struct fk_conn conns[FK_CONNS_MAX];
	struct pollfd pfd[FK_CONNS_MAX + 2];
	int n = 0, i, fd;

	for (;;) {
		pfd[0] = (struct pollfd){ .fd = f->stop[0], .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = f->lfd, .events = POLLIN };
		for (i = 0; i < n; i++)
			pfd[i + 2] = (struct pollfd){ .fd = conns[i].fd, .events = POLLIN };
		if (poll(pfd, (nfds_t)n + 2, fk_wait_ms(f, conns, n, fk_now_ms())) < 0)
			continue;
		/* input first: an UNSTREAM sent just before the stop is counted */
		for (i = n - 1; i >= 0; i--) {
			bool alive = !(pfd[i + 2].revents & (POLLIN | POLLHUP)) ||
				     fk_input(f, &conns[i]);

			if (alive && fk_chunk_due(f, &conns[i], fk_now_ms()))
				continue;
			close(conns[i].fd);
			conns[i] = conns[--n];
		}
		if (pfd[0].revents)
			break;
		if ((pfd[1].revents & POLLIN) && n < FK_CONNS_MAX) {
			fd = accept4(f->lfd, NULL, NULL, SOCK_CLOEXEC);
			if (fd >= 0)
				conns[n++] = (struct fk_conn){ .fd = fd, .next_chunk = -1 };
		}
	}
	for (i = 0; i < n; i++)
		close(conns[i].fd);
	return NULL;
}

static void fk_start(struct fk *f)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	f->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CU_ASSERT_FATAL(f->lfd >= 0 && bind(f->lfd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
			listen(f->lfd, 8) == 0 &&
			getsockname(f->lfd, (struct sockaddr *)&sa, &len) == 0 &&
			pipe2(f->stop, O_CLOEXEC) == 0);
	f->port = ntohs(sa.sin_port);
	snprintf(f->address, sizeof(f->address), "127.0.0.1:%d", f->port);
	CU_ASSERT_FATAL(pthread_create(&f->thread, NULL, fk_main, f) == 0);
}

static void fk_stop(struct fk *f)
{
	if (write(f->stop[1], "x", 1) == 1)
		pthread_join(f->thread, NULL);
	close(f->stop[0]);
	close(f->stop[1]);
	close(f->lfd);
}

#define FK_CHUNK(s, ms)	{ (s), sizeof(s) - 1, (ms) }
#define FK_HANGUP(ms)	{ NULL, 0, (ms) }

/* S-1's dummy stream: voltage0 (le:u13/16) and accel_x (le:s16/16), 4-byte records. */
#define FK_REPLY(fmt)								\
	"{\"id\":%s,\"ok\":true,\"stream\":{\"id\":3,\"device\":\"iio:device0\","	\
	"\"trigger\":\"hrt0\",\"scans\":2,\"format\":\"" fmt "\",\"scan_bytes\":4,"	\
	"\"channels\":[{\"channel\":\"voltage0\",\"index\":0,\"offset\":0,\"type\":"	\
	"\"le:u13/16>>0\"},{\"channel\":\"accel_x\",\"index\":3,\"offset\":2,\"type\":"	\
	"\"le:s16/16>>0\"}]}}\n"

static const char *const fk_chans[] = { "voltage0", "accel_x", NULL };

/* Connect to the fake, open the stream of @cfg (default: the dummy's). */
static struct iiowire_stream *fk_open(struct fk *f, struct iiowire **w,
				      const struct iiowire_stream_config *cfg)
{
	struct iiowire_stream_config dflt = { .device = "dummy0", .channels = fk_chans,
					      .trigger = "hrt0", .scans = 2 };

	fk_start(f);
	*w = iiowire_connect(f->address, 2000);
	CU_ASSERT_FATAL(*w != NULL);
	return iiowire_stream_open(*w, cfg ? cfg : &dflt);
}

static void fk_close(struct fk *f, struct iiowire *w, struct iiowire_stream *s)
{
	iiowire_stream_close(s);
	iiowire_close(w);
	fk_stop(f);
}

static const char blk_raw[] = "{\"block\":{\"stream\":3,\"scans\":2,\"bytes\":8,\"lost\":0}}\n"
			      "\x07\x00\x58\x01\x07\x00\xA8\xFE";
static const char blk_raw_lost[] = "BLOCK 3 1 4 5\n\x08\x00\x00\x00";

static void test_raw(void)
{
	struct fk f = { .stream_reply = FK_REPLY("raw"),
			.chunks = { FK_CHUNK(blk_raw, 0), FK_CHUNK(blk_raw_lost, 0) },
			.nchunks = 2 };
	const struct iiowire_scan_channel *ch;
	struct iiowire_block b;
	struct iiowire *w;
	struct iiowire_stream *s = fk_open(&f, &w, NULL);
	int64_t raw;
	int val;

	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT(iiowire_stream_channels(s, &ch) == 2 && iiowire_stream_scan_bytes(s) == 4);
	CU_ASSERT(!strcmp(iiowire_stream_device(s), "iio:device0") &&
		  !strcmp(iiowire_stream_trigger(s), "hrt0"));
	CU_ASSERT(!strcmp(ch[0].name, "voltage0") && ch[0].realbits == 13 && !ch[0].is_signed);
	CU_ASSERT(ch[0].has_scale && ch[0].scale_type == IIO_VAL_INT_PLUS_MICRO &&
		  ch[0].scale_val == 0 && ch[0].scale_val2 == 1333);
	CU_ASSERT(ch[0].has_offset && ch[0].offset_type == IIO_VAL_INT && ch[0].offset_val == 7);
	CU_ASSERT(!strcmp(ch[1].name, "accel_x") && ch[1].offset == 2 && !ch[1].has_scale);
	CU_ASSERT(iiowire_stream_read(s, &b) == 0 && b.scans == 2 && b.bytes == 8 && !b.lost);
	CU_ASSERT(!memcmp(b.data, "\x07\x00\x58\x01\x07\x00\xA8\xFE", 8));
	CU_ASSERT(iiowire_scan_raw(s, b.data, 0, &raw) == 0 && raw == 7);
	CU_ASSERT(iiowire_scan_raw(s, (const char *)b.data + 4, 1, &raw) == 0 && raw == -344);
	/* (7 + 7) x 0.001333 mV is 18 uV; accel_x has no scale: its raw value */
	CU_ASSERT(iiowire_scan_processed(s, b.data, 0, &val, 1000) == 0 && val == 18);
	CU_ASSERT(iiowire_scan_processed(s, b.data, 1, &val, 1) == 0 && val == 344);
	CU_ASSERT(iiowire_scan_processed(s, b.data, 2, &val, 1) == -EINVAL);
	CU_ASSERT(iiowire_stream_read(s, &b) == 0 && b.scans == 1 && b.lost == 5);
	CU_ASSERT(iiowire_stream_fd(s) >= 0);
	fk_close(&f, w, s);
	CU_ASSERT(f.unstreams == 1);
}
TEST_CASE(test_raw, "raw blocks in both header spellings, decoded elements, lost counts");

static const char part1[] = "{\"block\":{\"stream\":3,\"scans\":2,\"bytes\":8,\"lost\":0}}\n\x07\x00";
static const char part2[] = "\x58\x01\x07\x00\xA8\xFE";

static void test_partial(void)
{
	struct fk f = { .stream_reply = FK_REPLY("raw"),
			.chunks = { FK_CHUNK(part1, 0), FK_CHUNK(part2, 400) }, .nchunks = 2 };
	struct iiowire_block b;
	struct iiowire *w;
	struct iiowire_stream *s = fk_open(&f, &w, NULL);

	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT(iiowire_stream_set_timeout(s, 0) == -EINVAL);
	CU_ASSERT(iiowire_stream_set_timeout(s, 100) == 0);
	CU_ASSERT(iiowire_stream_read(s, &b) == -ETIMEDOUT);
	/* the half block is kept: the next read finishes it */
	CU_ASSERT(iiowire_stream_set_timeout(s, 5000) == 0);
	CU_ASSERT(iiowire_stream_read(s, &b) == 0 && b.bytes == 8);
	CU_ASSERT(b.bytes == 8 && !memcmp(b.data, "\x07\x00\x58\x01\x07\x00\xA8\xFE", 8));
	fk_close(&f, w, s);
}
TEST_CASE(test_partial, "a block in pieces across a read timeout is kept and finished");

static const char end_line[] = "STREAMEND 3 ENODEV dummy0 removed by a board reload\n";

static void test_end(void)
{
	struct fk f = { .stream_reply = FK_REPLY("raw"),
			.chunks = { FK_CHUNK(blk_raw, 0), FK_CHUNK(end_line, 0) }, .nchunks = 2 };
	struct iiowire_block b;
	struct iiowire *w;
	struct iiowire_stream *s = fk_open(&f, &w, NULL);

	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT(iiowire_stream_read(s, &b) == 0);
	CU_ASSERT(iiowire_stream_read(s, &b) == -ENODEV);
	CU_ASSERT_STRING_EQUAL(iiowire_stream_errmsg(s), "dummy0 removed by a board reload");
	CU_ASSERT(iiowire_stream_read(s, &b) == -ENODEV);
	CU_ASSERT(iiowire_stream_fd(s) == -ENOTCONN);
	fk_close(&f, w, s);
	/* an ended stream sends no UNSTREAM */
	CU_ASSERT(f.unstreams == 0);
}
TEST_CASE(test_end, "STREAMEND ends the stream with its error on every later read");

static void test_hangup(void)
{
	struct fk f = { .stream_reply = FK_REPLY("raw"),
			.chunks = { FK_CHUNK(part1, 0), FK_HANGUP(0) }, .nchunks = 2 };
	struct iiowire_block b;
	struct iiowire *w;
	struct iiowire_stream *s = fk_open(&f, &w, NULL);

	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT(iiowire_stream_read(s, &b) == -ECONNRESET);
	CU_ASSERT(iiowire_stream_read(s, &b) == -ECONNRESET);
	/* the caller's connection is untouched */
	CU_ASSERT(iiowire_attr_read_longlong(w, "dummy0", "in_voltage0_offset",
					     &(long long){ 0 }) == 0);
	fk_close(&f, w, s);
}
TEST_CASE(test_hangup, "a connection that breaks mid-block ends the stream, not the caller's");

static const char blk_csv[] = "{\"block\":{\"stream\":3,\"scans\":2,\"bytes\":11,\"lost\":0}}\n"
			      "0,344\n0,-5\n";
static const char blk_json[] = "{\"block\":{\"stream\":3,\"scans\":2,\"lost\":1,\"values\":"
			       "[[0,344],[0,-5]]}}\n";

static void test_text_formats(void)
{
	struct fk f = { .stream_reply = FK_REPLY("csv"), .chunks = { FK_CHUNK(blk_csv, 0) },
			.nchunks = 1 };
	struct iiowire_stream_config cfg = { .device = "dummy0", .channels = fk_chans,
					     .scans = 2, .format = IIOWIRE_STREAM_CSV };
	struct iiowire_block b;
	struct iiowire *w;
	struct iiowire_stream *s = fk_open(&f, &w, &cfg);

	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT(iiowire_stream_read(s, &b) == 0 && b.bytes == 11 && b.scans == 2);
	CU_ASSERT(b.bytes == 11 && !memcmp(b.data, "0,344\n0,-5\n", 11));
	fk_close(&f, w, s);

	f = (struct fk){ .stream_reply = FK_REPLY("json"), .chunks = { FK_CHUNK(blk_json, 0) },
			 .nchunks = 1 };
	cfg.format = IIOWIRE_STREAM_JSON;
	s = fk_open(&f, &w, &cfg);
	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT(iiowire_stream_read(s, &b) == 0 && b.lost == 1);
	CU_ASSERT(b.bytes == 16 && !memcmp(b.data, "[[0,344],[0,-5]]", 16));
	fk_close(&f, w, s);

	/* a reply in another format than asked is no reply to this request */
	f = (struct fk){ .stream_reply = FK_REPLY("raw") };
	s = fk_open(&f, &w, &cfg);
	CU_ASSERT(s == NULL && errno == EPROTO);
	fk_close(&f, w, s);
}
TEST_CASE(test_text_formats, "csv and json blocks come as the daemon decoded them");

/* A consumer's channel with a FRACTIONAL scale of 1/3: exact, where "0.333333333" is not. */
#define FK_REPLY_CONSUMER							\
	"{\"id\":%s,\"ok\":true,\"stream\":{\"id\":1,\"device\":\"iio:device2\","	\
	"\"trigger\":\"hrt0\",\"scans\":1,\"format\":\"raw\",\"scan_bytes\":2,"	\
	"\"channels\":[{\"channel\":\"vin\",\"index\":0,\"offset\":0,\"type\":"	\
	"\"be:s12/16>>0\"}]}}\n"

static void test_consumer(void)
{
	static const char blk[] = "BLOCK 1 1 2 0\n\xF0\x03";
	struct fk f = { .stream_reply = FK_REPLY_CONSUMER, .chunks = { FK_CHUNK(blk, 0) },
			.nchunks = 1 };
	struct iiowire_stream_config cfg = { .consumer = "meter" };
	const struct iiowire_scan_channel *ch;
	struct iiowire_block b;
	struct iiowire *w;
	struct iiowire_stream *s = fk_open(&f, &w, &cfg);
	int val;

	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT(iiowire_stream_channels(s, &ch) == 1 && ch[0].has_scale &&
		  ch[0].scale_type == IIO_VAL_FRACTIONAL && ch[0].scale_val2 == 3 &&
		  !ch[0].has_offset);
	CU_ASSERT(iiowire_stream_read(s, &b) == 0);
	/* 0xF003: the top nibble is not the value; 3 x 1/3 is 1, as the kernel computes */
	CU_ASSERT(iiowire_scan_processed(s, b.data, 0, &val, 1) == 0 && val == 1);
	fk_close(&f, w, s);
}
TEST_CASE(test_consumer, "a consumer's stream takes the exact scale through the consumer API");

static void test_refused(void)
{
	struct fk f = { .stream_reply = "{\"id\":%s,\"ok\":false,\"error\":\"EINVAL\",\"message\":"
					"\"no scan mode has voltage0 and voltage0-voltage1\"}\n" };
	const char *many[IIOWIRE_STREAM_CHANNELS_MAX + 2];
	struct iiowire_stream_config bad[] = {
		{ .device = "dummy0", .consumer = "meter" },
		{ .scans = 1 },
		{ .device = "dummy0", .scans = IIOWIRE_STREAM_SCANS_MAX + 1 },
		{ .device = "dummy0", .format = 7 },
		{ .device = "dummy0", .channels = many },
	};
	struct iiowire *w;
	struct iiowire_stream *s = fk_open(&f, &w, NULL);
	size_t i;

	CU_ASSERT(s == NULL && errno == EINVAL);
	CU_ASSERT_STRING_EQUAL(iiowire_errmsg(w),
			       "no scan mode has voltage0 and voltage0-voltage1");
	CU_ASSERT(f.streams == 1);
	for (i = 0; i < IIOWIRE_STREAM_CHANNELS_MAX + 1; i++)
		many[i] = "voltage0";
	many[i] = NULL;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		TEST_ROW_ASSERT(iiowire_stream_open(w, &bad[i]) == NULL && errno == EINVAL,
				"bad config");
	}
	/* 64 channels are fine: the daemon is asked (and refuses here) */
	many[IIOWIRE_STREAM_CHANNELS_MAX] = NULL;
	CU_ASSERT(iiowire_stream_open(w, &bad[4]) == NULL && errno == EINVAL);
	CU_ASSERT(f.streams == 2);
	CU_ASSERT(iiowire_stream_open(w, NULL) == NULL && errno == EINVAL);
	fk_close(&f, w, NULL);
}
TEST_CASE(test_refused, "an error reply and bad configurations: NULL, errno, the message");

TEST_MAIN("stream", NULL, NULL)
