/*
 * fuzz_server.c - libFuzzer target for the daemon's request paths, run
 * in-process: one iiowired (server/, without main.c) on a board with a
 * capturing device, an event source, an hrtimer and a sysfs trigger, kept
 * across inputs as a daemon under attack keeps its state.
 *
 * The first byte picks the face: the native TCP port (STREAM, CSTREAM,
 * UNSTREAM, SUBSCRIBE, WRITE of trigger files, ...), the iiod port (OPEN,
 * READBUF, WRITEBUF, SETTRIG, CLOSE with whatever sizes and masks), or a
 * WebSocket session (each line one message, as libwebsockets hands them
 * over). The rest is what the peer sends; then it half-closes, the loop
 * runs a bounded number of turns, and the peer goes while replies, blocks
 * and READBUFs may still be waiting: every end of a session's life meets
 * whatever the input left running. ASan and UBSan judge; the daemon must
 * also still answer a VERSION after each input (or refuse it in words
 * while --max-clients sessions wait out the READBUF timeouts inputs set).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "listener.h"
#include "session.h"
#include "srv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* loop turns an input gets before its peer goes, and after */
#define FUZZ_TURNS		64
#define FUZZ_CLOSE_TURNS	256

static const char fuzz_board[] =
	"{\"board\": \"fuzz\", \"buses\": {\"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"}},"
	" \"triggers\": [{\"type\": \"hrtimer\", \"name\": \"hrt0\", \"sampling_frequency\": 2000},"
	"  {\"type\": \"sysfs\", \"number\": 0}],"
	" \"devices\": [{\"driver\": \"iio_dummy\", \"name\": \"dummy0\"}, {\"driver\": \"iio_evgen\"},"
	"  {\"driver\": \"max1363\", \"bus\": \"i2c-0\", \"address\": \"0x34\"}]}";

static struct srv *fuzz_srv;
static int fuzz_port[2];	/* native, iiod */

static void fuzz_start(void)
{
	static char board_path[64];
	struct srv_config cfg = {
		.listen = { "127.0.0.1:0" }, .nlisten = 1,
		.iiod_listen = { "127.0.0.1:0" }, .niiod_listen = 1,
		.max_clients = 256, .log_level = SRV_LOG_ERROR, .io_timeout_ms = 200,
		.line_timeout_ms = 1000, .no_announce = true,
		.max_queued_bytes = 4u * 1024 * 1024,
	};
	char err[512];
	FILE *f;

	signal(SIGPIPE, SIG_IGN);	/* as main.c: a peer gone mid-write is an error return */
	snprintf(board_path, sizeof(board_path), "/tmp/iiowire-fuzz-%d.json", (int)getpid());
	f = fopen(board_path, "w");
	if (!f || fputs(fuzz_board, f) < 0 || fclose(f))
		abort();
	cfg.board_path = board_path;
	if (srv_create(&cfg, &fuzz_srv, err, sizeof(err)) || srv_start(fuzz_srv)) {
		fprintf(stderr, "fuzz_server: %s\n", err);
		abort();
	}
	unlink(board_path);
	fuzz_port[0] = srv_listener_port(fuzz_srv, &srv_proto_native, false);
	fuzz_port[1] = srv_listener_port(fuzz_srv, &srv_proto_iiod, false);
	if (!fuzz_port[0] || !fuzz_port[1])
		abort();
}

static void fuzz_turns(int n)
{
	while (n--)
		uv_run(&fuzz_srv->loop, UV_RUN_NOWAIT);
}

static int fuzz_connect(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) && errno != EINPROGRESS))
		abort();
	return fd;
}

/* What the daemon sent is read and dropped. Return: false at its end of stream. */
static bool fuzz_drain(int fd)
{
	char buf[65536];
	ssize_t n;

	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		;
	return n != 0;
}

/* A peer of a TCP face sends @data, half-closes, reads a while, and goes. */
static void fuzz_tcp(int port, const uint8_t *data, size_t size)
{
	int fd = fuzz_connect(port), i;
	size_t off = 0;
	ssize_t n;

	for (i = 0; i < FUZZ_TURNS && off < size; i++) {
		fuzz_turns(1);
		n = send(fd, data + off, size - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0)
			off += (size_t)n;
		fuzz_drain(fd);
	}
	shutdown(fd, SHUT_WR);
	for (i = 0; i < FUZZ_TURNS && fuzz_drain(fd); i++)
		fuzz_turns(1);
	close(fd);
}

/* The WebSocket row's transport, played: what is sent is dropped. */
static int fuzz_tx_send(struct srv_session *s)
{
	s->out.len = 0;
	return 0;
}

static size_t fuzz_tx_queued(const struct srv_session *s)
{
	(void)s;
	return 0;
}

static void fuzz_tx_rx(struct srv_session *s, bool on)
{
	(void)s;
	(void)on;
}

/* The WebSocket session of this input; NULL once it closed (as web.c's conn forgets it). */
static struct srv_session *fuzz_web_s;

static void fuzz_tx_close(struct srv_session *s)
{
	if (s == fuzz_web_s)
		fuzz_web_s = NULL;
}

static const struct srv_transport fuzz_tx = {
	.send = fuzz_tx_send, .queued = fuzz_tx_queued, .rx = fuzz_tx_rx, .close = fuzz_tx_close,
};

/* Each line of @data one message, framed as web.c hands them to the row. */
static void fuzz_web(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size, *nl;
	char rec[4 + 4096];
	uint32_t n;

	fuzz_web_s = srv_session_adopt(fuzz_srv, &srv_proto_web, &fuzz_tx, NULL, "127.0.0.1:1");
	while (fuzz_web_s && data < end) {
		nl = memchr(data, '\n', (size_t)(end - data));
		n = (uint32_t)((nl ? nl : end) - data);
		if (n > 4096)
			n = 4096;
		memcpy(rec, &n, sizeof(n));
		memcpy(rec + sizeof(n), data, n);
		srv_session_input(fuzz_web_s, rec, sizeof(n) + n);
		data += n + (nl && data + n == nl);
		fuzz_turns(4);
	}
	fuzz_turns(FUZZ_TURNS);
	if (fuzz_web_s)
		srv_session_close(fuzz_web_s);
}

/* The daemon still answers a fresh client (the loop turns until it does). */
static void fuzz_still_serving(void)
{
	int fd = fuzz_connect(fuzz_port[0]), i;
	char buf[256];
	size_t got = 0;
	ssize_t n;

	for (i = 0; i < 10 * FUZZ_CLOSE_TURNS && !memchr(buf, '\n', got); i++) {
		fuzz_turns(1);
		if (i == 1 && send(fd, "VERSION\n", 8, MSG_NOSIGNAL) != 8)
			abort();
		n = recv(fd, buf + got, sizeof(buf) - 1 - got, MSG_DONTWAIT);
		if (n > 0)
			got += (size_t)n;
		if (i > 1 && n == 0)
			break;
	}
	/* served, or refused in words: sessions whose READBUF waits out its TIMEOUT count */
	if (!(got >= 3 && memcmp(buf, "OK ", 3) == 0) && !(got >= 9 && !memcmp(buf, "ERR EBUSY", 9)))
		abort();
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_srv)
		fuzz_start();
	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		fuzz_tcp(fuzz_port[0], data + 1, size - 1);
		break;
	case 1:
		fuzz_tcp(fuzz_port[1], data + 1, size - 1);
		break;
	default:
		fuzz_web(data + 1, size - 1);
		break;
	}
	fuzz_turns(FUZZ_CLOSE_TURNS);
	fuzz_still_serving();
	return 0;
}
