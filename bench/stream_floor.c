/*
 * stream_floor.c - stream-floor, the physical limit for a scan stream on
 * this machine: a bare libuv server that writes the bytes a capture would
 * send, as fast as each client reads them, with no device, no capture and
 * no fan-out behind it.
 *
 * Place in the flow: beside iiowired, measured by the same client
 * (stream-bench) in the same run, as echo_uv is the floor of the request
 * benchmark. It sends what it is given: a block file (one block exactly as
 * iiowired sent it, header line and scans, captured by `stream-bench -D`)
 * or a synthetic block of -s SCAN bytes x -b SCANS behind a header line.
 * Three ways of sending: flat out once a client sent its first line (the
 * throughput floor), HZ blocks a second on a 1 ms timer with a CLOCK_REALTIME
 * timestamp in the last 8 bytes of every scan (-r HZ, the latency floor),
 * or iiod READBUF replies (-i, the floor of the iiod listener: every
 * "READBUF dev N" gets "N\n", the mask line and N bytes; any other line
 * gets "0\n"). It parses nothing else and must not grow into a server.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

/* Bytes pre-rendered for the flat-out mode: blocks back to back, at least this much. */
#define FLOOR_BATCH_MIN_BYTES	(256 * 1024)
/* The largest block (file or synthetic) and the largest READBUF it answers. */
#define FLOOR_BLOCK_MAX_BYTES	(16 * 1024 * 1024)
#define FLOOR_LINE_MAX_BYTES	256
#define FLOOR_TS_BYTES		8

enum floor_mode {
	FLOOR_FLAT,	/* write blocks as fast as the client reads */
	FLOOR_PACED,	/* HZ blocks a second, timestamps filled in */
	FLOOR_IIOD,	/* answer READBUF lines */
};

struct floor {
	enum floor_mode mode;
	int port;
	double rate_hz;
	char *block;		/* one block: header line and scans */
	size_t block_len;
	size_t header_len;	/* bytes of the header line, '\n' included */
	size_t scan_bytes;
	char *batch;		/* flat: blocks back to back; iiod: scan bytes */
	size_t batch_len;
	char mask[72];		/* iiod: the mask line, '\n' included */
	char header[64];	/* the default synthetic header */
	uv_loop_t *loop;
	char rbuf[64 * 1024];
};

struct floor_client {
	uv_tcp_t tcp;
	struct floor *f;
	bool started;		/* flat/paced: the first line came */
	bool writing;		/* flat: a uv_write is in flight */
	uv_timer_t timer;	/* paced: ticks every ms */
	uint64_t start_ns;	/* paced: uv_hrtime() of the first line */
	uint64_t sent;		/* paced: blocks sent */
	char line[FLOOR_LINE_MAX_BYTES];
	size_t line_len;
	uint64_t owed;		/* iiod: READBUF bytes not yet queued */
};

struct floor_write {
	uv_write_t req;
	char *own;		/* freed in the callback, or NULL for static bytes */
};

static void floor_client_free(uv_handle_t *h)
{
	struct floor_client *c = h->data;

	/* the timer is closed first when there is one: free at the tcp's close */
	if (h == (uv_handle_t *)&c->tcp)
		free(c);
}

static void floor_client_close(struct floor_client *c)
{
	if (uv_is_closing((uv_handle_t *)&c->tcp))
		return;
	if (c->f->mode == FLOOR_PACED && c->started)
		uv_close((uv_handle_t *)&c->timer, NULL);
	uv_close((uv_handle_t *)&c->tcp, floor_client_free);
}

static void floor_flat_more(struct floor_client *c);

static void floor_written(uv_write_t *req, int status)
{
	struct floor_write *w = (struct floor_write *)req;
	struct floor_client *c = req->handle->data;

	free(w->own);
	free(w);
	if (status < 0) {
		floor_client_close(c);
		return;
	}
	if (c->f->mode == FLOOR_FLAT) {
		c->writing = false;
		floor_flat_more(c);
	}
}

/* Queue @len bytes at @p; @own is freed once written (NULL: static). Return: 0 or -1. */
static int floor_queue(struct floor_client *c, const char *p, size_t len, char *own)
{
	struct floor_write *w = malloc(sizeof(*w));
	uv_buf_t b = uv_buf_init((char *)p, (unsigned int)len);

	if (!w || uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, floor_written) < 0) {
		free(w);
		free(own);
		floor_client_close(c);
		return -1;
	}
	w->own = own;
	return 0;
}

/* Flat out: what the kernel takes now, then one queued write for the rest of a batch. */
static void floor_flat_more(struct floor_client *c)
{
	struct floor *f = c->f;
	uv_buf_t b;
	int r;

	while (!c->writing && !uv_is_closing((uv_handle_t *)&c->tcp)) {
		b = uv_buf_init(f->batch, (unsigned int)f->batch_len);
		r = uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
		if (r == UV_EAGAIN)
			r = 0;
		if (r < 0) {
			floor_client_close(c);
			return;
		}
		if ((size_t)r == f->batch_len)
			continue;
		c->writing = true;
		floor_queue(c, f->batch + r, f->batch_len - (size_t)r, NULL);
	}
}

static uint64_t floor_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Paced: one block, every scan's last 8 bytes the time now, little-endian as the kernel's. */
static void floor_paced_block(struct floor_client *c)
{
	struct floor *f = c->f;
	char *copy = malloc(f->block_len);
	uint64_t now = floor_realtime_ns();
	size_t off;
	int i;

	if (!copy) {
		floor_client_close(c);
		return;
	}
	memcpy(copy, f->block, f->block_len);
	for (off = f->header_len + f->scan_bytes; off <= f->block_len; off += f->scan_bytes)
		for (i = 0; i < FLOOR_TS_BYTES; i++)
			copy[off - FLOOR_TS_BYTES + (size_t)i] = (char)(now >> (8 * i));
	floor_queue(c, copy, f->block_len, copy);
}

/*
 * A tick: the blocks due since the start at the rate (a late tick sends the
 * ones it missed), so the rate holds where libuv's repeat would drift.
 */
static void floor_tick(uv_timer_t *t)
{
	struct floor_client *c = t->data;
	uint64_t due = (uint64_t)((double)(uv_hrtime() - c->start_ns) / 1e9 * c->f->rate_hz);

	while (c->sent < due && !uv_is_closing((uv_handle_t *)&c->tcp)) {
		floor_paced_block(c);
		c->sent++;
	}
}

static void floor_start(struct floor_client *c)
{
	struct floor *f = c->f;
	uint64_t period_ms;

	c->started = true;
	if (f->mode == FLOOR_FLAT) {
		floor_flat_more(c);
		return;
	}
	/* libuv timers tick in whole milliseconds; each tick sends what is due */
	period_ms = (uint64_t)(1000.0 / f->rate_hz);
	c->start_ns = uv_hrtime();
	uv_timer_init(f->loop, &c->timer);
	c->timer.data = c;
	uv_timer_start(&c->timer, floor_tick, period_ms ? period_ms : 1, period_ms ? period_ms : 1);
}

/* iiod: one command line. READBUF gets its bytes in chunks of at most one batch. */
static void floor_iiod_line(struct floor_client *c, const char *line)
{
	struct floor *f = c->f;
	unsigned long long n;
	char dev[128], head[32];
	bool first = true;

	if (sscanf(line, "READBUF %127s %llu", dev, &n) != 2) {
		floor_queue(c, "0\n", 2, NULL);
		return;
	}
	if (n > FLOOR_BLOCK_MAX_BYTES) {
		floor_queue(c, "-22\n", 4, NULL);
		return;
	}
	n -= n % f->scan_bytes;
	c->owed = n;
	while (c->owed && !uv_is_closing((uv_handle_t *)&c->tcp)) {
		size_t len = c->owed < f->batch_len ? (size_t)c->owed : f->batch_len;
		char *h;

		snprintf(head, sizeof(head), "%zu\n", len);
		h = malloc(strlen(head) + sizeof(f->mask));
		if (!h)
			return;
		strcpy(h, head);
		if (first)
			strcat(h, f->mask);
		first = false;
		floor_queue(c, h, strlen(h), h);
		floor_queue(c, f->batch, len, NULL);
		c->owed -= len;
	}
	if (n == 0)
		floor_queue(c, "0\n", 2, NULL);
}

static void floor_alloc(uv_handle_t *h, size_t size, uv_buf_t *buf)
{
	struct floor_client *c = h->data;

	(void)size;
	/* one loop thread, and a read callback always follows its allocation */
	*buf = uv_buf_init(c->f->rbuf, sizeof(c->f->rbuf));
}

static void floor_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct floor_client *c = s->data;
	ssize_t i;

	if (nread < 0) {
		floor_client_close(c);
		return;
	}
	for (i = 0; i < nread; i++) {
		char ch = buf->base[i];

		if (ch != '\n') {
			if (c->line_len < sizeof(c->line) - 1 && ch != '\r')
				c->line[c->line_len++] = ch;
			continue;
		}
		c->line[c->line_len] = '\0';
		c->line_len = 0;
		if (c->f->mode == FLOOR_IIOD)
			floor_iiod_line(c, c->line);
		else if (!c->started)
			floor_start(c);
	}
}

static void floor_connection(uv_stream_t *server, int status)
{
	struct floor *f = server->data;
	struct floor_client *c;

	if (status < 0)
		return;
	c = calloc(1, sizeof(*c));
	if (!c)
		return;
	c->f = f;
	c->tcp.data = c;
	uv_tcp_init(f->loop, &c->tcp);
	if (uv_accept(server, (uv_stream_t *)&c->tcp) < 0) {
		uv_close((uv_handle_t *)&c->tcp, floor_client_free);
		return;
	}
	uv_tcp_nodelay(&c->tcp, 1);
	uv_read_start((uv_stream_t *)&c->tcp, floor_alloc, floor_read);
}

/* The block from -f FILE, as captured. Return: 0, or -1 with a message printed. */
static int floor_load_block(struct floor *f, const char *path)
{
	FILE *fp = fopen(path, "rb");
	long len;

	if (!fp || fseek(fp, 0, SEEK_END) || (len = ftell(fp)) <= 0 ||
	    len > FLOOR_BLOCK_MAX_BYTES || fseek(fp, 0, SEEK_SET)) {
		fprintf(stderr, "stream-floor: %s: unreadable, empty or over %d bytes\n", path,
			FLOOR_BLOCK_MAX_BYTES);
		if (fp)
			fclose(fp);
		return -1;
	}
	f->block = malloc((size_t)len);
	if (!f->block || fread(f->block, 1, (size_t)len, fp) != (size_t)len) {
		fclose(fp);
		return -1;
	}
	fclose(fp);
	f->block_len = (size_t)len;
	return 0;
}

/* A synthetic block: @header, '\n', @scans scans of a counting byte pattern. */
static int floor_make_block(struct floor *f, const char *header, unsigned long scans)
{
	size_t hl = strlen(header), i, data = scans * f->scan_bytes;

	if (!scans || data > FLOOR_BLOCK_MAX_BYTES)
		return -1;
	f->block_len = hl + 1 + data;
	f->block = malloc(f->block_len);
	if (!f->block)
		return -1;
	memcpy(f->block, header, hl);
	f->block[hl] = '\n';
	for (i = 0; i < data; i++)
		f->block[hl + 1 + i] = (char)i;
	return 0;
}

/* flat: whole blocks up to FLOOR_BATCH_MIN_BYTES; iiod: the scans alone, as many. */
static int floor_make_batch(struct floor *f)
{
	const char *unit = f->block;
	size_t ulen = f->block_len, n, i;
	char *nl = memchr(f->block, '\n', f->block_len);

	f->header_len = nl ? (size_t)(nl - f->block) + 1 : 0;
	if (f->mode != FLOOR_FLAT && (f->block_len - f->header_len) % f->scan_bytes) {
		fprintf(stderr, "stream-floor: the block is no whole number of %zu-byte scans\n",
			f->scan_bytes);
		return -1;
	}
	if (f->mode == FLOOR_IIOD) {
		unit = f->block + f->header_len;
		ulen = f->block_len - f->header_len;
	}
	n = (FLOOR_BATCH_MIN_BYTES + ulen - 1) / ulen;
	f->batch_len = n * ulen;
	f->batch = malloc(f->batch_len);
	if (!f->batch)
		return -1;
	for (i = 0; i < n; i++)
		memcpy(f->batch + i * ulen, unit, ulen);
	return 0;
}

static void floor_usage(FILE *out)
{
	fprintf(out,
"usage: stream-floor [-p PORT] (-f BLOCKFILE | -b SCANS [-H HEADER]) -s SCAN_BYTES\n"
"                    [-r HZ | -i [-M MASK]]\n"
"The floor of a scan stream: writes one block over and over, as fast as the client reads.\n"
"  -p PORT      listen on 127.0.0.1:PORT (default 30592)\n"
"  -f FILE      the block to send: a header line and its scans, as iiowired sent them\n"
"  -b SCANS     a synthetic block of SCANS scans instead (bytes 0, 1, 2, ...)\n"
"  -H HEADER    the synthetic block's header line (default 'BLOCK 1 SCANS BYTES 0')\n"
"  -s BYTES     bytes per scan\n"
"  -r HZ        HZ blocks a second (timer ticks of whole ms), CLOCK_REALTIME in each scan's\n"
"               last 8 bytes\n"
"  -i           answer iiod READBUF lines (other lines get '0')\n"
"  -M MASK      the mask line of READBUF replies (default 0000000f)\n");
}

static int floor_parse(struct floor *f, int argc, char **argv)
{
	const char *file = NULL, *header = NULL, *mask = "0000000f";
	unsigned long scans = 0;
	int c;

	f->port = 30592;
	while ((c = getopt(argc, argv, "p:f:b:H:s:r:iM:h")) != -1) {
		switch (c) {
		case 'p': f->port = atoi(optarg); break;
		case 'f': file = optarg; break;
		case 'b': scans = strtoul(optarg, NULL, 10); break;
		case 'H': header = optarg; break;
		case 's': f->scan_bytes = strtoul(optarg, NULL, 10); break;
		case 'r': f->mode = FLOOR_PACED; f->rate_hz = atof(optarg); break;
		case 'i': f->mode = FLOOR_IIOD; break;
		case 'M': mask = optarg; break;
		case 'h': floor_usage(stdout); exit(0);
		default: return -1;
		}
	}
	if (f->port <= 0 || f->port > 65535 || !f->scan_bytes ||
	    f->scan_bytes > FLOOR_BLOCK_MAX_BYTES || (f->mode == FLOOR_PACED && f->rate_hz <= 0) ||
	    !file == !scans || strlen(mask) + 2 > sizeof(f->mask))
		return -1;
	snprintf(f->mask, sizeof(f->mask), "%s\n", mask);
	if (!file && !header) {
		snprintf(f->header, sizeof(f->header), "BLOCK 1 %lu %lu 0", scans,
			 scans * f->scan_bytes);
		header = f->header;
	}
	if (file ? floor_load_block(f, file) : floor_make_block(f, header, scans))
		return -1;
	return floor_make_batch(f);
}

int main(int argc, char **argv)
{
	static struct floor f;
	struct sockaddr_in addr;
	uv_tcp_t server;
	int r;

	if (floor_parse(&f, argc, argv)) {
		floor_usage(stderr);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	f.loop = uv_default_loop();
	uv_tcp_init(f.loop, &server);
	server.data = &f;
	uv_ip4_addr("127.0.0.1", f.port, &addr);
	r = uv_tcp_bind(&server, (const struct sockaddr *)&addr, 0);
	if (!r)
		r = uv_listen((uv_stream_t *)&server, 1024, floor_connection);
	if (r) {
		fprintf(stderr, "stream-floor: listen on %d: %s\n", f.port, uv_strerror(r));
		return 1;
	}
	fprintf(stderr, "stream-floor: listening on 127.0.0.1:%d\n", f.port);
	return uv_run(f.loop, UV_RUN_DEFAULT);
}
