/*
 * main.c - iiowired's command line: options, process limits, then the server.
 *
 * Every option is checked before anything is opened: a bad option, a bad
 * number or a board file that does not load is one line on stderr and exit
 * status 2, with nothing listening. Exit 1 is for failures after that
 * (an address in use), 0 for a clean stop on SIGTERM/SIGINT. The soft
 * RLIMIT_NOFILE is raised to the hard one so --max-clients can be honoured.
 * Place in the flow: the process's entry; all serving is in server.c and
 * the files it uses. No globals: the configuration lives on main's stack.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "acl.h"
#include "board.h"
#include "kernel/iio_kernel.h"
#include "busq.h"
#include "events.h"
#include "iio.h"
#include "iio_event.h"
#include "iiod_proto.h"
#include "listener.h"
#include "proto.h"
#include "session.h"
#include "srv.h"
#include "stream.h"
#include "iio_buffer.h"
#include "web.h"
#include "web_guard.h"

#define SRV_MAIN_EXIT_USAGE	2
/* descriptors kept for listeners, logs, bus devices and libuv's own use */
#define SRV_MAIN_FD_RESERVE	64

/* The limits and the rest of --help, after the options. */
static void srv_main_usage_limits(FILE *out)
{
	fprintf(out,
"\n"
"Limits: request line %d bytes (E2BIG, then close); output queued per client: reading\n"
"stops at %d bytes, closed above %d bytes for %d ms or above %d bytes; %d requests per\n"
"client waiting on a bus; %d queued per bus; listen backlog %d; wrong AUTH: %d per\n"
"connection, answered after %d ms, %d ms apart in all; each holds its address (Unix\n"
"sockets: one) %d ms, from the %dth on twice as long each time, at most %d ms.\n"
"kernel devices: at most %d, each with at most %d files, %d channels and %d events;\n"
"kernel triggers: at most %d files each, %d triggers.\n"
"Streams: %d per connection, %d readers per device, %d scans per block; a reader's blocks\n"
"wait while the client has %d bytes unsent, %d bytes of them at most (then the oldest\n"
"are dropped, counted); a trigger drives %d devices.\n"
"WebSocket (--http-listen): a message %d bytes (E2BIG, then close), frames taken %d\n"
"bytes at a time; HTTP headers %d bytes in all, %d connections reading headers at once,\n"
"%d per address in HTTP (more are closed), %d s for a whole HTTP request.\n"
"IIO events (SUBSCRIBE): %d devices per client; %d events held per subscription while\n"
"the client has %d bytes unsent (then its oldest are dropped, counted); %d per device.\n"
"Signals: SIGTERM/SIGINT finish in-flight replies and exit 0; SIGHUP reloads the board\n"
"(and rescans the kernel's devices; a kernel uevent does too).\n"
"systemd: sockets it passes (iiowired.socket; FileDescriptorName=iiod for libiio's)\n"
"replace the default listeners; readiness is notified (Type=notify).\n",
		PROTO_LINE_MAX_BYTES, SRV_OUT_PAUSE_BYTES,
		SRV_OUT_SOFT_BYTES, SRV_OUT_SOFT_MS, SRV_OUT_HARD_BYTES, SRV_SESSION_INFLIGHT_MAX,
		SRV_BUSQ_DEPTH_MAX, SRV_LISTEN_BACKLOG, SRV_AUTH_ATTEMPTS_MAX, SRV_AUTH_FAIL_DELAY_MS,
		SRV_AUTH_FAIL_GLOBAL_MS, SRV_AUTH_FAIL_DELAY_MS, SRV_AUTH_PENALTY_FREE + 1,
		SRV_AUTH_PENALTY_MAX_MS, IIO_KERNEL_DEVICES_MAX, IIO_KERNEL_FILES_MAX,
		IIO_KERNEL_CHANNELS_MAX, IIO_KERNEL_EVENTS_MAX, IIO_KERNEL_TRIGGER_FILES_MAX,
		IIO_TRIGGERS_MAX, SRV_STREAM_MAX_PER_SESSION, SRV_STREAM_READERS_MAX,
		PROTO_STREAM_SCANS_MAX, SRV_STREAM_OUT_BYTES, SRV_STREAM_QUEUE_BYTES,
		IIO_TRIGGER_CONSUMERS_MAX,
		SRV_WEB_MESSAGE_MAX_BYTES, SRV_WEB_RX_CHUNK_BYTES, SRV_WEB_HEADER_MAX_BYTES,
		SRV_WEB_HEADER_POOL, SRV_WEB_HTTP_PER_ADDR_MAX, SRV_WEB_HTTP_TIMEOUT_S,
		SRV_EVENT_SUBS_MAX_PER_SESSION,
		SRV_EVENT_QUEUE_MAX, SRV_EVENT_OUT_MAX_BYTES, IIO_EVENT_QUEUE_LEN);
}

static void srv_main_usage(FILE *out, const char *default_board)
{
	fprintf(out,
"usage: iiowired [OPTION]...\n"
"Serve the IIO devices of a board file over TCP (text or JSON lines; see PROTOCOL.md).\n"
"\n"
"  -l, --listen ADDR         listen on HOST:PORT, [IPV6]:PORT or unix:PATH; repeatable\n"
"                            (default 127.0.0.1:%d and [::1]:%d)\n"
"  -b, --board FILE          board file (default %s)\n"
"      --read-only           refuse every WRITE with EACCES, and every capture (enabling\n"
"                            a buffer is a write of buffer/enable)\n"
"      --allow-write DEV:ATTR  allow WRITE only to matching attributes (others EACCES);\n"
"                            globs, DEV is an id, name, label or hardware id; repeatable\n"
"                            (at most %d), e.g. --allow-write 'dummy0:out_voltage*_raw'\n"
"      --max-clients N       connections served at once; one more gets ERR EBUSY\n"
"                            (default %d, at most the open-file limit less %d)\n"
"      --auth-token-file F   require AUTH <token> (F must be mode 600 or stricter and\n"
"                            hold one line of %d to 255 bytes)\n"
"      --io-timeout-ms MS    a request's wait for its bus, queueing included (default %d)\n"
"      --line-timeout-ms MS  an unfinished request line is dropped after MS (default %d;\n"
"                            0: never)\n"
"      --idle-timeout-ms MS  close a connection with no request for MS (default %d: never)\n"
"      --max-queued-bytes N  bytes every stream and event queue may hold together; past\n"
"                            it the biggest queue drops by its own rule, counted (default\n"
"                            %u)\n"
"      --log-level LEVEL     error, warn, info (default) or debug\n"
"      --no-announce         do not announce the listeners over DNS-SD (avahi-daemon)\n"
"      --kernel              serve every kernel IIO device (%s/%s) too; with no\n"
"                            --board, only those; a board names one with\n"
"                            {\"driver\": \"kernel\", \"device\": NAME|LABEL|iio:deviceN}\n"
"      --sysfs-root DIR      where sysfs is, for kernel devices (default /sys)\n"
"      --dev-root DIR        where their device nodes are (default /dev; for buffered\n"
"                            capture, not mirrored yet)\n"
"      --http-listen ADDR    serve the web page, /healthz and the WebSocket /ws on PORT,\n"
"                            :PORT (loopback), HOST:PORT or [IPV6]:PORT; repeatable (at\n"
"                            most %d); off by default\n"
"      --http-origin ORIGIN  a page origin (http://host:port, or *) that may open the\n"
"                            WebSocket besides the page's own; repeatable (at most %d)\n"
"      --http-host NAME      a Host (name, address; * for any) the HTTP face answers besides\n"
"                            localhost and its own names and addresses (others get 403:\n"
"                            DNS rebinding); repeatable (at most %d)\n"
"      --list-drivers        print every chip name a board file may use, and exit\n"
"  -V, --version             print the version and exit\n"
"  -h, --help                print this help and exit\n",
		SRV_DEFAULT_PORT, SRV_DEFAULT_PORT, default_board, SRV_ALLOW_WRITE_MAX,
		SRV_DEFAULT_MAX_CLIENTS,
		SRV_MAIN_FD_RESERVE, SRV_AUTH_TOKEN_MIN_BYTES, SRV_DEFAULT_IO_TIMEOUT_MS,
		SRV_DEFAULT_LINE_TIMEOUT_MS,
		SRV_DEFAULT_IDLE_TIMEOUT_MS, SRV_QUEUED_BYTES_DEFAULT, iio_kernel_sysfs_root(),
		IIO_KERNEL_BUS_DIR, SRV_HTTP_LISTEN_MAX, SRV_HTTP_ORIGIN_MAX, SRV_HTTP_HOST_MAX);
	srv_main_usage_limits(out);
}

/* Parse a whole decimal number in [@min, @max]. Return: 0 or -EINVAL. */
static int srv_main_uint(const char *opt, const char *arg, unsigned long min, unsigned long max,
			 unsigned int *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "iiowired: --%s: '%s' is not a number from %lu to %lu\n", opt, arg,
			min, max);
		return -EINVAL;
	}
	*out = (unsigned int)v;
	return 0;
}

/*
 * struct srv_main_opt - one long option and what it does to the
 * configuration. @set: NULL for a number in [@min, @max] stored at @off
 * (an unsigned int of struct srv_config); @val: getopt's code ('l', or a
 * code past the characters).
 */
struct srv_main_opt {
	const char *name;
	int has_arg;
	int val;
	int (*set)(struct srv_config *cfg, const char *arg);
	unsigned long min, max;
	size_t off;
};

/* Append @arg to @list (at most @max, counted in *@n), checked as @opt's address. */
static int srv_main_listen(const struct srv_listen_opt *opt, const char **list, int *n, int max,
			   const char *arg)
{
	char err[256];

	if (*n == max) {
		fprintf(stderr, "iiowired: at most %d %s options\n", max, opt->option);
		return -EINVAL;
	}
	if (srv_listener_check(opt, arg, err, sizeof(err))) {
		fprintf(stderr, "iiowired: %s\n", err);
		return -EINVAL;
	}
	list[(*n)++] = arg;
	return 0;
}

/* Append @arg to @list (at most @max, counted in *@n) once @check takes it; @opt for errors. */
static int srv_main_append(const char *opt, const char **list, int *n, int max, const char *arg,
			   int (*check)(const char *arg, char *err, size_t errlen))
{
	char err[256];

	if (*n == max) {
		fprintf(stderr, "iiowired: at most %d %s options\n", max, opt);
		return -EINVAL;
	}
	if (check(arg, err, sizeof(err))) {
		fprintf(stderr, "iiowired: %s\n", err);
		return -EINVAL;
	}
	list[(*n)++] = arg;
	return 0;
}

static int srv_main_set_listen(struct srv_config *cfg, const char *arg)
{
	return srv_main_listen(&srv_listen_native, cfg->listen, &cfg->nlisten, SRV_LISTEN_MAX, arg);
}

static int srv_main_set_http_listen(struct srv_config *cfg, const char *arg)
{
	return srv_main_listen(&srv_listen_http, cfg->http_listen, &cfg->nhttp_listen,
			       SRV_HTTP_LISTEN_MAX, arg);
}

/* "*", or a browser's Origin: http[s]://HOST[:PORT], no path. */
static int srv_main_set_http_origin(struct srv_config *cfg, const char *arg)
{
	const char *host = NULL;

	if (cfg->nhttp_origin == SRV_HTTP_ORIGIN_MAX) {
		fprintf(stderr, "iiowired: at most %d --http-origin options\n", SRV_HTTP_ORIGIN_MAX);
		return -EINVAL;
	}
	if (!strncmp(arg, "http://", 7))
		host = arg + 7;
	else if (!strncmp(arg, "https://", 8))
		host = arg + 8;
	if (strcmp(arg, "*") && (!host || !*host || strpbrk(host, "/ \t") ||
				 strlen(arg) >= 256)) {
		fprintf(stderr, "iiowired: --http-origin %s: not '*' or http[s]://HOST[:PORT] "
			"(as a browser sends it, no path)\n", arg);
		return -EINVAL;
	}
	cfg->http_origin[cfg->nhttp_origin++] = arg;
	return 0;
}

static int srv_main_set_http_host(struct srv_config *cfg, const char *arg)
{
	return srv_main_append("--http-host", cfg->http_host, &cfg->nhttp_host, SRV_HTTP_HOST_MAX,
			       arg, srv_web_host_check);
}

static int srv_main_set_iiod_listen(struct srv_config *cfg, const char *arg)
{
	return srv_main_listen(&srv_listen_iiod, cfg->iiod_listen, &cfg->niiod_listen,
			       SRV_IIOD_LISTEN_MAX, arg);
}

static int srv_main_set_board(struct srv_config *cfg, const char *arg)
{
	cfg->board_path = arg;
	return 0;
}

static int srv_main_set_read_only(struct srv_config *cfg, const char *arg)
{
	(void)arg;
	cfg->read_only = true;
	return 0;
}

static int srv_main_set_allow_write(struct srv_config *cfg, const char *arg)
{
	return srv_main_append("--allow-write", cfg->allow_write, &cfg->nallow_write,
			       SRV_ALLOW_WRITE_MAX, arg, srv_acl_check);
}

static int srv_main_set_log_level(struct srv_config *cfg, const char *arg)
{
	int lvl = srv_log_level_parse(arg);

	if (lvl < 0) {
		fprintf(stderr, "iiowired: --log-level: '%s' is not error, warn, info or debug\n",
			arg);
		return -EINVAL;
	}
	cfg->log_level = (enum srv_log_level)lvl;
	return 0;
}

static int srv_main_set_auth_token_file(struct srv_config *cfg, const char *arg)
{
	cfg->auth_token_file = arg;
	return 0;
}

static int srv_main_set_no_announce(struct srv_config *cfg, const char *arg)
{
	(void)arg;
	cfg->no_announce = true;
	return 0;
}

static int srv_main_set_kernel(struct srv_config *cfg, const char *arg)
{
	(void)arg;
	cfg->kernel = true;
	iio_kernel_set_all(true);
	return 0;
}

/* --sysfs-root / --dev-root: an existing directory, kept by the kernel backend. */
static int srv_main_root(const char *opt, const char *arg, const char *sysfs, const char *dev)
{
	struct stat st;

	if (stat(arg, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iiowired: --%s: '%s' is not a directory\n", opt, arg);
		return -EINVAL;
	}
	if (iio_kernel_set_roots(sysfs, dev)) {
		fprintf(stderr, "iiowired: --%s: longer than %d bytes\n", opt,
			IIO_KERNEL_ROOT_MAX - 1);
		return -EINVAL;
	}
	return 0;
}

static int srv_main_set_sysfs_root(struct srv_config *cfg, const char *arg)
{
	(void)cfg;
	return srv_main_root("sysfs-root", arg, arg, NULL);
}

static int srv_main_set_dev_root(struct srv_config *cfg, const char *arg)
{
	(void)cfg;
	return srv_main_root("dev-root", arg, NULL, arg);
}

static int srv_main_set_iiod_unauth(struct srv_config *cfg, const char *arg)
{
	(void)arg;
	cfg->iiod_unauthenticated = true;
	return 0;
}

#define SRV_MAIN_UINT(nm, lo, hi, field)						\
	{ .name = (nm), .has_arg = required_argument, .min = (lo), .max = (hi),		\
	  .off = offsetof(struct srv_config, field) }

/* Every option; getopt's codes for those without a letter are 0x100 + row. */
static const struct srv_main_opt srv_main_opts[] = {
	{ "listen", required_argument, 'l', srv_main_set_listen },
	{ "board", required_argument, 'b', srv_main_set_board },
	{ "read-only", no_argument, 0, srv_main_set_read_only },
	{ "allow-write", required_argument, 0, srv_main_set_allow_write },
	SRV_MAIN_UINT("max-clients", 1, SRV_MAX_CLIENTS_LIMIT, max_clients),
	{ "log-level", required_argument, 0, srv_main_set_log_level },
	{ "auth-token-file", required_argument, 0, srv_main_set_auth_token_file },
	SRV_MAIN_UINT("io-timeout-ms", 1, SRV_TIMEOUT_MS_LIMIT, io_timeout_ms),
	SRV_MAIN_UINT("line-timeout-ms", 0, SRV_TIMEOUT_MS_LIMIT, line_timeout_ms),
	SRV_MAIN_UINT("idle-timeout-ms", 0, SRV_TIMEOUT_MS_LIMIT, idle_timeout_ms),
	SRV_MAIN_UINT("max-queued-bytes", 1, UINT_MAX, max_queued_bytes),
	{ "iiod-listen", required_argument, 0, srv_main_set_iiod_listen },
	{ "iiod-unauthenticated", no_argument, 0, srv_main_set_iiod_unauth },
	{ "no-announce", no_argument, 0, srv_main_set_no_announce },
	{ "kernel", no_argument, 0, srv_main_set_kernel },
	{ "sysfs-root", required_argument, 0, srv_main_set_sysfs_root },
	{ "dev-root", required_argument, 0, srv_main_set_dev_root },
	{ "http-listen", required_argument, 0, srv_main_set_http_listen },
	{ "http-origin", required_argument, 0, srv_main_set_http_origin },
	{ "http-host", required_argument, 0, srv_main_set_http_host },
	{ "list-drivers", no_argument, 'L', NULL },
	{ "version", no_argument, 'V', NULL },
	{ "help", no_argument, 'h', NULL },
};

#define SRV_MAIN_NOPTS	(sizeof(srv_main_opts) / sizeof(srv_main_opts[0]))
#define SRV_MAIN_OPT_BASE	0x100

/* getopt's code for row @i. */
static int srv_main_opt_val(size_t i)
{
	return srv_main_opts[i].val ? srv_main_opts[i].val : SRV_MAIN_OPT_BASE + (int)i;
}

/* Apply the option getopt returned as @c. Return: 0, or -EINVAL (said on stderr). */
static int srv_main_apply(struct srv_config *cfg, int c, const char *arg)
{
	const struct srv_main_opt *o;
	size_t i;

	for (i = 0; i < SRV_MAIN_NOPTS; i++) {
		if (srv_main_opt_val(i) != c)
			continue;
		o = &srv_main_opts[i];
		if (o->set)
			return o->set(cfg, arg);
		return srv_main_uint(o->name, arg, o->min, o->max,
				     (unsigned int *)((char *)cfg + o->off));
	}
	return -EINVAL;
}

/* The rules between options, once all are read. Return: 0 or -EINVAL. */
static int srv_main_check(const struct srv_config *cfg, int argc, char **argv)
{
	if (optind < argc) {
		fprintf(stderr, "iiowired: unexpected argument '%s' (try --help)\n", argv[optind]);
		return -EINVAL;
	}
	if (cfg->read_only && cfg->nallow_write) {
		/* one of them is a mistake: say so rather than guess which */
		fprintf(stderr, "iiowired: --read-only and --allow-write contradict each other\n");
		return -EINVAL;
	}
	return 0;
}

/*
 * Return: 0 to run, 1 when --help/--version/--list-drivers answered,
 * -EINVAL on a bad option, -EIO when the list could not be written.
 */
static int srv_main_parse(struct srv_config *cfg, int argc, char **argv,
			  const char *default_board)
{
	struct option lopts[SRV_MAIN_NOPTS + 1];
	size_t i;
	int c;

	for (i = 0; i < SRV_MAIN_NOPTS; i++)
		lopts[i] = (struct option){ srv_main_opts[i].name, srv_main_opts[i].has_arg, NULL,
					    srv_main_opt_val(i) };
	lopts[i] = (struct option){ NULL, 0, NULL, 0 };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:b:Vh", lopts, NULL)) != -1) {
		if (c == 'V') {
			printf("iiowired %s (protocol %d.%d)\n", IIOWIRE_VERSION,
			       PROTO_VERSION_MAJOR, PROTO_VERSION_MINOR);
			return 1;
		}
		if (c == 'L')
			return iio_driver_list_print(stdout) < 0 ? -EIO : 1;
		if (c == 'h') {
			srv_main_usage(stdout, default_board);
			srv_iiod_usage(stdout);
			return 1;
		}
		if (c == ':' || c == '?') {
			/* getopt is silenced (opterr = 0): one line, ours */
			fprintf(stderr, "iiowired: %s '%s' (try --help)\n",
				c == ':' ? "missing argument to" : "unknown option",
				argv[optind - 1]);
			return -EINVAL;
		}
		if (srv_main_apply(cfg, c, optarg))
			return -EINVAL;
	}
	return srv_main_check(cfg, argc, argv);
}

/* Raise the soft open-file limit to the hard one; cap max_clients by it. */
static void srv_main_nofile(struct srv_config *cfg, bool explicit_max)
{
	struct rlimit rl;
	rlim_t room;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur <= SRV_MAIN_FD_RESERVE)
		return;
	room = rl.rlim_cur - SRV_MAIN_FD_RESERVE;
	if (cfg->max_clients > room) {
		if (explicit_max)
			fprintf(stderr, "iiowired: --max-clients %u lowered to %llu (open-file "
				"limit %llu)\n", cfg->max_clients, (unsigned long long)room,
				(unsigned long long)rl.rlim_cur);
		cfg->max_clients = (unsigned int)room;
	}
}

/* The kernel backend's warnings (a bus entry linking out of the tree), from any thread. */
static void srv_main_kernel_warn(void *data, const char *msg)
{
	srv_warn(data, "--kernel: %s", msg);
}

int main(int argc, char **argv)
{
	struct srv_config cfg = {
		.max_clients = SRV_DEFAULT_MAX_CLIENTS,
		.log_level = SRV_LOG_INFO,
		.io_timeout_ms = SRV_DEFAULT_IO_TIMEOUT_MS,
		.line_timeout_ms = SRV_DEFAULT_LINE_TIMEOUT_MS,
		.idle_timeout_ms = SRV_DEFAULT_IDLE_TIMEOUT_MS,
		.max_queued_bytes = SRV_QUEUED_BYTES_DEFAULT,
	};
	char default_board[PATH_MAX], err[BOARD_ERR_MAX + 64];
	struct srv_log klog;
	struct srv *srv;
	int ret;

	if (board_default_path(default_board, sizeof(default_board)) < 0)
		snprintf(default_board, sizeof(default_board), "demo.json");
	ret = srv_main_parse(&cfg, argc, argv, default_board);
	if (ret)
		return ret > 0 ? 0 : SRV_MAIN_EXIT_USAGE;
	if (srv_iiod_config_check(&cfg, err, sizeof(err))) {
		fprintf(stderr, "iiowired: %s\n", err);
		return SRV_MAIN_EXIT_USAGE;
	}
	/* --kernel alone serves the kernel's devices only, not the demo board */
	if (!cfg.board_path && !cfg.kernel)
		cfg.board_path = default_board;
	srv_main_nofile(&cfg, cfg.max_clients != SRV_DEFAULT_MAX_CLIENTS);
	/* a peer that vanishes mid-write is an error return, not a signal */
	signal(SIGPIPE, SIG_IGN);
	/*
	 * A reload asked for while the board loads or the sockets are bound
	 * (systemd, a hotplug test) must not end the daemon: SIGHUP is ignored
	 * until srv_start() installs the loop's handler, which replaces this.
	 */
	signal(SIGHUP, SIG_IGN);

	/* its own log at the daemon's level: the first board load (in srv_create()) warns too */
	srv_log_init(&klog, cfg.log_level);
	iio_kernel_set_warn(srv_main_kernel_warn, &klog);
	err[0] = '\0';
	ret = srv_create(&cfg, &srv, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "iiowired: %s\n", err[0] ? err : strerror(-ret));
		return SRV_MAIN_EXIT_USAGE;
	}
	ret = srv_start(srv);
	if (ret < 0) {
		srv_destroy(srv);
		return 1;
	}
	ret = srv_run(srv);
	srv_destroy(srv);
	return ret < 0 ? 1 : 0;
}
