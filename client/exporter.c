/*
 * exporter.c - `iiowire-exporter`, a Prometheus exporter for iiowired:
 * /metrics reads the one daemon of -a, /probe?target=HOST:PORT any daemon
 * (the multi-target pattern of the blackbox and SNMP exporters), so one
 * exporter serves a fleet through Prometheus relabeling.
 *
 * Place in the flow: iiowired -> wire -> libiiowire -> fleet.c ->
 * *iiowire-exporter* -> HTTP (libmicrohttpd) -> Prometheus. Each scrape
 * opens its own connection in the HTTP connection's thread, reads every
 * consumer channel's processed value and writes it in base units
 * (iiowire_voltage_volts, iiowire_temperature_celsius, ...), labelled with
 * board, device, label, hwid, consumer and channel; the text format 0.0.4,
 * or OpenMetrics 1.0 when the Accept header asks for it. A channel whose
 * read fails has iiowire_channel_up 0 and no value (never a stale one). It
 * keeps no state between scrapes, probes host:port targets only (never a
 * unix socket named by an HTTP client) and never writes to a daemon.
 *
 * The AUTH token is a credential, and /probe's target is whatever an HTTP
 * client asks: so the token goes to the -a daemon and to /probe targets
 * matching a --probe-target pattern, never to others. With patterns, any
 * other target is refused (403) without a connection; without any, every
 * target is probed, without the token. $IIOWIRE_TOKEN_FILE is taken into
 * -k's place and removed from the environment at start, so that libiiowire
 * (which honours it on every connect) cannot send it anywhere else.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "exporter_deadline.h"
#include "fleet.h"
#include "iiowire.h"
#include "iiowire_tool.h"

#define EXP_EXIT_OK		0
#define EXP_EXIT_ERROR		1
#define EXP_EXIT_USAGE		2

#define EXP_DEFAULT_LISTEN	"127.0.0.1:9433"
/* HTTP connections served at once (one thread each). */
#define EXP_CONNECTIONS_MAX	64
/*
 * ...of them from one address: more are closed at once. A quarter, so that
 * one address sending slow headers leaves the rest to others; Prometheus
 * scrapes each target on its own connection, so a server probing more than
 * this many targets at the same moment needs a second address (or exporter).
 */
#define EXP_CONNECTIONS_PER_ADDR_MAX	16
/* An HTTP client silent this long is dropped (s); EXP_DEADLINE_S bounds a request. */
#define EXP_HTTP_TIMEOUT_S	30
/* Longest /probe target and board parameter. */
#define EXP_TARGET_MAX_BYTES	IIOWIRE_ADDRESS_MAX_BYTES
/* --probe-target patterns one exporter takes. */
#define EXP_PROBE_TARGETS_MAX	64
/* What is taken off Prometheus's scrape timeout, so the answer is in before it (ms). */
#define EXP_TIMEOUT_MARGIN_MS	500

static const char exp_ctype_text[] = "text/plain; version=0.0.4; charset=utf-8";
static const char exp_ctype_om[] = "application/openmetrics-text; version=1.0.0; charset=utf-8";

struct exp {
	struct exp_deadline *deadline;	/* the request deadline's watchdog */
	const char *address;		/* -a: the daemon of /metrics */
	const char *token_file;
	int timeout_ms;
	const char *listen;
	char board[FLEET_NAME_MAX_BYTES];
	const char *consumers[FLEET_CONSUMERS_MAX];
	int nconsumers;
	bool all_channels;		/* --all-channels: every device channel, not the maps' */
	const char *probe_targets[EXP_PROBE_TARGETS_MAX];	/* --probe-target */
	int nprobe_targets;		/* 0: every target probed, none with the token */
};

/* One scrape: where, how, and what came back. */
struct exp_scrape {
	const struct exp *e;
	const char *target;
	const char *board;
	const char *token_file;		/* NULL: this target does not get the token */
	int timeout_ms;
	bool om;			/* OpenMetrics */
	FILE *out;			/* open_memstream */
	bool up;
	int errors;			/* channels (or the daemon) that failed */
	struct fleet_set set;
	bool *ok;			/* per channel: the read worked */
	int64_t *milli;			/* per channel: its value */
};

#define exp_log(...)	tool_log("iiowire-exporter", __VA_ARGS__)

/* ---- the exposition ------------------------------------------------------ */

/* A label value, escaped as both formats want (backslash, quote, newline). */
static void exp_label(FILE *out, const char *name, const char *value, bool first)
{
	fprintf(out, "%s%s=\"", first ? "" : ",", name);
	for (; *value; value++) {
		if (*value == '\\' || *value == '"')
			fprintf(out, "\\%c", *value);
		else if (*value == '\n')
			fputs("\\n", out);
		else
			fputc(*value, out);
	}
	fputc('"', out);
}

/* HELP, TYPE and (OpenMetrics, with a unit) UNIT of one family. */
static void exp_family(struct exp_scrape *s, const char *name, const char *unit,
		       const char *help)
{
	fprintf(s->out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	if (s->om && unit)
		fprintf(s->out, "# UNIT %s %s\n", name, unit);
}

/* The labels of channel @c: board, device, label, hwid, consumer, channel. */
static void exp_chan_labels(struct exp_scrape *s, const struct fleet_chan *c)
{
	fputc('{', s->out);
	exp_label(s->out, "board", s->board, true);
	exp_label(s->out, "device", c->device, false);
	exp_label(s->out, "label", c->label, false);
	exp_label(s->out, "hwid", c->hwid, false);
	exp_label(s->out, "consumer", c->consumer, false);
	exp_label(s->out, "channel", c->channel, false);
	fputc('}', s->out);
}

/* The family name of @c: "iiowire_voltage_volts", or "iiowire_<type>" without a unit row. */
static void exp_name(char *out, size_t len, const struct fleet_chan *c)
{
	char type[FLEET_NAME_MAX_BYTES];

	if (c->unit->prom_name) {
		snprintf(out, len, "%s_%s", c->unit->prom_name, c->unit->prom_unit);
		return;
	}
	fleet_ident(type, sizeof(type), c->type_name);
	snprintf(out, len, "iiowire_%s", type);
}

/* Every value family, each once, with all its channels (families in first-seen order). */
static void exp_write_values(struct exp_scrape *s)
{
	char name[2 * FLEET_NAME_MAX_BYTES], other[2 * FLEET_NAME_MAX_BYTES];
	char text[FLEET_VALUE_MAX_BYTES];
	int i, j;

	for (i = 0; i < s->set.n; i++) {
		exp_name(name, sizeof(name), &s->set.chans[i]);
		for (j = 0; j < i; j++) {
			exp_name(other, sizeof(other), &s->set.chans[j]);
			if (strcmp(name, other) == 0)
				break;
		}
		if (j < i)
			continue;	/* written with its first channel */
		exp_family(s, name, s->set.chans[i].unit->prom_unit,
			   s->set.chans[i].unit->prom_name ?
			   "A consumer channel's processed value, in base units." :
			   "A consumer channel's processed value, in the kernel's unit.");
		for (j = i; j < s->set.n; j++) {
			exp_name(other, sizeof(other), &s->set.chans[j]);
			if (strcmp(name, other) != 0 || !s->ok[j] ||
			    fleet_format(text, sizeof(text), s->milli[j],
					 s->set.chans[j].unit->prom_div) < 0)
				continue;
			fputs(name, s->out);
			exp_chan_labels(s, &s->set.chans[j]);
			fprintf(s->out, " %s\n", text);
		}
	}
}

/* iiowire_channel_up, iiowire_up, the scrape's duration and errors; then # EOF (OpenMetrics). */
static void exp_write_meta(struct exp_scrape *s, double seconds)
{
	int i;

	if (s->set.n > 0) {
		exp_family(s, "iiowire_channel_up", NULL,
			   "1 if the channel was read in this scrape, 0 if its read failed.");
		for (i = 0; i < s->set.n; i++) {
			fputs("iiowire_channel_up", s->out);
			exp_chan_labels(s, &s->set.chans[i]);
			fprintf(s->out, " %d\n", s->ok[i] ? 1 : 0);
		}
	}
	exp_family(s, "iiowire_up", NULL, "1 if the daemon answered, 0 if not.");
	fputs("iiowire_up{", s->out);
	exp_label(s->out, "board", s->board, true);
	fprintf(s->out, "} %d\n", s->up ? 1 : 0);
	exp_family(s, "iiowire_scrape_duration_seconds", "seconds",
		   "How long reading the daemon took.");
	fputs("iiowire_scrape_duration_seconds{", s->out);
	exp_label(s->out, "board", s->board, true);
	fprintf(s->out, "} %.6f\n", seconds);
	exp_family(s, "iiowire_scrape_errors", NULL,
		   "Reads that failed in this scrape (the daemon counts as one).");
	fputs("iiowire_scrape_errors{", s->out);
	exp_label(s->out, "board", s->board, true);
	fprintf(s->out, "} %d\n", s->errors);
	if (s->om)
		fputs("# EOF\n", s->out);
}

/* ---- one scrape ----------------------------------------------------------- */

/*
 * Read the daemon: version (is it one?), channels, values.
 * Return: the connection (owned: the channels in s->set use it), or NULL.
 */
static struct iiowire *exp_read(struct exp_scrape *s)
{
	char msg[TOOL_MSG_MAX_BYTES];
	struct iiowire_version v;
	struct iiowire *w;
	int i, ret;

	w = tool_connect(s->target, s->timeout_ms, s->token_file, msg, sizeof(msg));
	ret = w ? iiowire_server_version(w, &v) : -errno;
	if (w && ret < 0)
		snprintf(msg, sizeof(msg), "not an iiowired: %s", iiowire_errmsg(w));
	msg[0] = ret < 0 ? msg[0] : '\0';
	if (ret == 0)
		ret = fleet_probe(w, s->e->consumers, s->e->nconsumers, s->e->all_channels,
				  &s->set, msg, sizeof(msg));
	if (ret >= 0 && !(s->ok = calloc((size_t)s->set.n + 1, sizeof(*s->ok))))
		ret = -ENOMEM;
	if (ret >= 0 && !(s->milli = calloc((size_t)s->set.n + 1, sizeof(*s->milli))))
		ret = -ENOMEM;
	if (ret < 0) {
		exp_log("%s: %s: %s", s->target ? s->target : IIOWIRE_DEFAULT_ADDRESS,
			tool_errname(ret), msg);
		s->errors++;
		fleet_release(&s->set);
		iiowire_close(w);
		return NULL;
	}
	s->up = true;
	for (i = 0; i < s->set.n; i++) {
		s->ok[i] = fleet_read(&s->set.chans[i], &s->milli[i]) == 0;
		if (!s->ok[i])
			s->errors++;
	}
	return w;
}

static double exp_seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Scrape and write the exposition. Return: owned text (free()), or NULL (ENOMEM). */
static char *exp_scrape_run(struct exp_scrape *s, size_t *len)
{
	struct iiowire *w;
	struct timespec t0;
	char *buf = NULL;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	s->out = open_memstream(&buf, len);
	if (!s->out)
		return NULL;
	w = exp_read(s);
	exp_write_values(s);
	exp_write_meta(s, exp_seconds_since(&t0));
	fleet_release(&s->set);
	iiowire_close(w);
	free(s->ok);
	free(s->milli);
	if (fclose(s->out) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- HTTP ------------------------------------------------------------------ */

static enum MHD_Result exp_reply(struct MHD_Connection *conn, unsigned int status,
				 const char *ctype, char *body, size_t len)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* A short text answer (errors, the index). */
static enum MHD_Result exp_text(struct MHD_Connection *conn, unsigned int status,
				const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static enum MHD_Result exp_text(struct MHD_Connection *conn, unsigned int status,
				const char *fmt, ...)
{
	char *body = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&body, fmt, ap);
	va_end(ap);
	if (n < 0)
		return MHD_NO;
	return exp_reply(conn, status, "text/plain; charset=utf-8", body, (size_t)n);
}

/* Whether the Accept header asks for OpenMetrics. */
static bool exp_wants_om(struct MHD_Connection *conn)
{
	const char *a = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						    MHD_HTTP_HEADER_ACCEPT);

	return a && strstr(a, "application/openmetrics-text");
}

/* The timeout of one scrape: ours, or less if Prometheus says it gives up sooner. */
static int exp_timeout(const struct exp *e, struct MHD_Connection *conn)
{
	const char *h = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						    "X-Prometheus-Scrape-Timeout-Seconds");
	double s = h ? strtod(h, NULL) : 0;
	int ms = (int)(s * 1000) - EXP_TIMEOUT_MARGIN_MS;

	return ms > 0 && ms < e->timeout_ms ? ms : e->timeout_ms;
}

/*
 * A /probe target: HOST:PORT or [V6]:PORT, printable, no "unix:" (an HTTP
 * client does not get to name a socket file on this host).
 * Return: NULL if fine, else why not.
 */
static const char *exp_target_refusal(const char *t)
{
	size_t i, n = strlen(t);

	if (n == 0 || n > EXP_TARGET_MAX_BYTES)
		return "empty or too long";
	if (strncmp(t, "unix:", 5) == 0)
		return "unix sockets are not probed (only HOST:PORT)";
	for (i = 0; i < n; i++)
		if (!isgraph((unsigned char)t[i]))
			return "blank or control character";
	return NULL;
}

/*
 * Does @target match @pattern piece by piece? Both are cut at '.' and ':' and
 * each piece is matched with fnmatch() (case-insensitive, as host names are),
 * so a '*' never spans a dot or a colon: "10.0.0.*:30432" matches
 * 10.0.0.7:30432, not 10.0.0.7.attacker.example:30432 nor 10.0.0.7:31337.
 */
static bool exp_target_match(const char *pattern, const char *target)
{
	char p[EXP_TARGET_MAX_BYTES + 1], t[EXP_TARGET_MAX_BYTES + 1];
	size_t pn, tn;

	for (;;) {
		pn = strcspn(pattern, ".:");
		tn = strcspn(target, ".:");
		if (pn >= sizeof(p) || tn >= sizeof(t))
			return false;
		snprintf(p, sizeof(p), "%.*s", (int)pn, pattern);
		snprintf(t, sizeof(t), "%.*s", (int)tn, target);
		if (fnmatch(p, t, FNM_CASEFOLD) != 0 || pattern[pn] != target[tn])
			return false;
		if (!pattern[pn])
			return true;
		pattern += pn + 1;
		target += tn + 1;
	}
}

/*
 * May /probe read @s->target, and with the token? Sets s->token_file.
 * Return: NULL if it may, else why not (403).
 */
static const char *exp_probe_allowed(struct exp_scrape *s)
{
	const struct exp *e = s->e;
	int i;

	s->token_file = NULL;
	if (!e->nprobe_targets)
		return NULL;
	for (i = 0; i < e->nprobe_targets; i++) {
		if (exp_target_match(e->probe_targets[i], s->target)) {
			s->token_file = e->token_file;
			return NULL;
		}
	}
	return "not a target this exporter probes (--probe-target)";
}

static enum MHD_Result exp_handle(void *data, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload, size_t *upload_size, void **state)
{
	const struct exp *e = data;
	struct exp_scrape s = { .e = e, .board = e->board };
	const char *why;
	size_t len = 0;
	char *body;

	(void)version;
	(void)upload;
	(void)upload_size;
	(void)state;
	exp_deadline_headers_done(e->deadline, conn);
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return exp_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET\n");
	if (strcmp(url, "/metrics") == 0) {
		s.target = e->address;
		s.token_file = e->token_file;
	} else if (strcmp(url, "/probe") == 0) {
		s.target = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "target");
		if (!s.target)
			return exp_text(conn, MHD_HTTP_BAD_REQUEST, "/probe needs ?target=HOST:PORT\n");
		why = exp_target_refusal(s.target);
		if (why)
			return exp_text(conn, MHD_HTTP_BAD_REQUEST, "target: %s\n", why);
		why = exp_probe_allowed(&s);
		if (why)
			return exp_text(conn, MHD_HTTP_FORBIDDEN, "target: %s\n", why);
		s.board = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "board");
		if (!s.board || exp_target_refusal(s.board))
			s.board = s.target;
	} else if (strcmp(url, "/") == 0) {
		return exp_text(conn, MHD_HTTP_OK, "iiowire-exporter: /metrics (the daemon of -a), "
				"/probe?target=HOST:PORT[&board=NAME]\n");
	} else {
		return exp_text(conn, MHD_HTTP_NOT_FOUND, "no such page: /metrics or /probe\n");
	}
	s.timeout_ms = exp_timeout(e, conn);
	s.om = exp_wants_om(conn);
	body = exp_scrape_run(&s, &len);
	if (!body)
		return exp_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	return exp_reply(conn, MHD_HTTP_OK, s.om ? exp_ctype_om : exp_ctype_text, body, len);
}

/* ---- options and main ------------------------------------------------------ */

static void exp_usage(FILE *out)
{
	fprintf(out,
		"usage: iiowire-exporter [--listen ADDR] [-a DAEMON] [--board NAME]\n"
		"                        [--consumer NAME]... [--timeout MS] [--token-file FILE]\n"
		"                        [--probe-target PATTERN]... [--all-channels]\n"
		"\n"
		"A Prometheus exporter for iiowired. GET /metrics reads the daemon of -a;\n"
		"GET /probe?target=HOST:PORT[&board=NAME] reads any daemon (the blackbox and\n"
		"SNMP exporters' multi-target pattern). Each consumer channel's processed value\n"
		"in base units (iiowire_voltage_volts, iiowire_temperature_celsius,\n"
		"iiowire_current_amperes, iiowire_power_watts, iiowire_illuminance_lux,\n"
		"iiowire_pressure_pascals, iiowire_humidity_ratio, ...) labelled board, device,\n"
		"label, hwid, consumer, channel; iiowire_channel_up, iiowire_up,\n"
		"iiowire_scrape_duration_seconds and iiowire_scrape_errors. OpenMetrics when\n"
		"the Accept header asks for application/openmetrics-text.\n"
		"\n"
		"  -l, --listen ADDR        HOST:PORT, [V6]:PORT or :PORT (all addresses);\n"
		"                           default %s\n"
		"  -a, --address DAEMON     the daemon of /metrics (default $%s, else %s)\n"
		"  -n, --board NAME         the board label of /metrics (default: host name;\n"
		"                           /probe: the board parameter, else the target)\n"
		"  -c, --consumer NAME      export only these consumers (repeatable, up to %d;\n"
		"                           default: every consumer the maps name; with no\n"
		"                           maps, every device channel, the consumer label\n"
		"                           being the device's label or name)\n"
		"      --all-channels       every device channel, as with no maps\n"
		"  -t, --timeout MS         per-request timeout of a scrape (default %d; less\n"
		"                           when Prometheus's scrape timeout is shorter)\n"
		"  -k, --token-file FILE    token for AUTH, sent to the daemon of -a and to the\n"
		"                           --probe-target ones only (default $%s)\n"
		"  -p, --probe-target PATTERN  a /probe target (HOST:PORT) to read with the token;\n"
		"                           globs matched piece by piece between dots and colons\n"
		"                           ('10.0.0.*:30432'); repeatable (up to %d). With any,\n"
		"                           other targets are refused (403); with none, every\n"
		"                           target is read, without the token\n"
		"  -h, --help               this text\n"
		"  -V, --version            the version\n"
		"\n"
		"At most %d HTTP connections at once, %d from one address (more are closed);\n"
		"a request's headers within %d s of the connection's start or the previous\n"
		"answer, else closed; a client silent for %d s is closed. Exit status: 0\n"
		"after SIGINT/SIGTERM, 1 if the address cannot be listened on, 2 on a usage\n"
		"error.\n",
		EXP_DEFAULT_LISTEN, IIOWIRE_ADDRESS_ENV, IIOWIRE_DEFAULT_ADDRESS, FLEET_CONSUMERS_MAX,
		IIOWIRE_DEFAULT_TIMEOUT_MS, IIOWIRE_TOKEN_FILE_ENV, EXP_PROBE_TARGETS_MAX,
		EXP_CONNECTIONS_MAX, EXP_CONNECTIONS_PER_ADDR_MAX, EXP_DEADLINE_S, EXP_HTTP_TIMEOUT_S);
}

#define exp_usage_error(...)	tool_usage_error("iiowire-exporter", __VA_ARGS__)

#define EXP_PARSED	(-1)

static int exp_parse_args(struct exp *e, int argc, char **argv)
{
	static const struct option opts[] = {
		IIOWIRE_TOOL_COMMON_OPTIONS,
		{ "listen", required_argument, NULL, 'l' },
		{ "board", required_argument, NULL, 'n' },
		{ "consumer", required_argument, NULL, 'c' },
		{ "probe-target", required_argument, NULL, 'p' },
		{ "all-channels", no_argument, NULL, 'A' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "a:t:k:hl:n:c:p:V", opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			e->address = optarg;
			break;
		case 't':
			if (tool_parse_ms(optarg, &e->timeout_ms) < 0)
				return exp_usage_error("--timeout needs a positive number of ms");
			break;
		case 'k':
			e->token_file = optarg;
			break;
		case 'l':
			e->listen = optarg;
			break;
		case 'n':
			if (!*optarg || strlen(optarg) >= sizeof(e->board) ||
			    exp_target_refusal(optarg))
				return exp_usage_error("--board: 1 to %zu printable bytes",
						       sizeof(e->board) - 1);
			snprintf(e->board, sizeof(e->board), "%s", optarg);
			break;
		case 'c':
			if (e->nconsumers == FLEET_CONSUMERS_MAX)
				return exp_usage_error("more than %d --consumer",
						       FLEET_CONSUMERS_MAX);
			e->consumers[e->nconsumers++] = optarg;
			break;
		case 'p':
			if (e->nprobe_targets == EXP_PROBE_TARGETS_MAX)
				return exp_usage_error("more than %d --probe-target",
						       EXP_PROBE_TARGETS_MAX);
			if (exp_target_refusal(optarg) || !strchr(optarg, ':'))
				return exp_usage_error("--probe-target '%s': not a HOST:PORT "
						       "pattern", optarg);
			e->probe_targets[e->nprobe_targets++] = optarg;
			break;
		case 'A':
			e->all_channels = true;
			break;
		case 'h':
			exp_usage(stdout);
			return EXP_EXIT_OK;
		case 'V':
			printf("iiowire-exporter %s (libmicrohttpd %s)\n", iiowire_lib_version(),
			       MHD_get_version());
			return EXP_EXIT_OK;
		default:
			return exp_usage_error("bad option");
		}
	}
	if (optind < argc)
		return exp_usage_error("unexpected argument '%s'", argv[optind]);
	return EXP_PARSED;
}

/*
 * --listen into an address: HOST:PORT, [V6]:PORT, :PORT.
 * Return: owned getaddrinfo() list (freeaddrinfo()), or NULL after reporting.
 */
static struct addrinfo *exp_listen_addr(const char *listen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	char host[256];
	const char *colon = strrchr(listen, ':');
	struct addrinfo *ai = NULL;
	int ret;

	if (!colon || !colon[1] || (size_t)(colon - listen) >= sizeof(host)) {
		exp_usage_error("--listen '%s': not HOST:PORT, [V6]:PORT or :PORT", listen);
		return NULL;
	}
	snprintf(host, sizeof(host), "%.*s", (int)(colon - listen), listen);
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	ret = getaddrinfo(host[0] ? host : NULL, colon + 1, &hints, &ai);
	if (ret != 0) {
		exp_usage_error("--listen '%s': %s", listen, gai_strerror(ret));
		return NULL;
	}
	return ai;
}

/* Serve until SIGINT/SIGTERM. Return: the exit status. */
static int exp_serve(struct exp *e)
{
	struct addrinfo *ai = exp_listen_addr(e->listen);
	struct pollfd pfd = { .events = POLLIN };
	struct MHD_Daemon *d;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
			     MHD_USE_ERROR_LOG;
	sigset_t old;

	if (!ai)
		return EXP_EXIT_USAGE;
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	pfd.fd = tool_signalfd_open(&old);
	if (pfd.fd < 0) {
		freeaddrinfo(ai);
		exp_log("signalfd: %s", strerror(-pfd.fd));
		return EXP_EXIT_ERROR;
	}
	e->deadline = exp_deadline_start();
	d = !e->deadline ? NULL :
	    MHD_start_daemon(flags, 0, NULL, NULL, exp_handle, e,
			     MHD_OPTION_SOCK_ADDR, ai->ai_addr,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)EXP_CONNECTIONS_MAX,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT,
			     (unsigned int)EXP_CONNECTIONS_PER_ADDR_MAX,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)EXP_HTTP_TIMEOUT_S,
			     MHD_OPTION_NOTIFY_CONNECTION, exp_deadline_notify, e->deadline,
			     MHD_OPTION_NOTIFY_COMPLETED, exp_deadline_completed, e->deadline,
			     MHD_OPTION_END);
	freeaddrinfo(ai);
	if (!d) {
		exp_log("--listen %s: cannot listen there (%s)", e->listen, strerror(errno));
		exp_deadline_stop(e->deadline);
		tool_signalfd_close(pfd.fd, &old);
		return EXP_EXIT_ERROR;
	}
	/* the ready line, as node_exporter's: where it listens, what /metrics reads */
	exp_log("listening on http://%s/metrics (daemon %s) and /probe?target=HOST:PORT",
		e->listen, e->address ? e->address : getenv(IIOWIRE_ADDRESS_ENV) ?
		getenv(IIOWIRE_ADDRESS_ENV) : IIOWIRE_DEFAULT_ADDRESS);
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
	MHD_stop_daemon(d);
	exp_deadline_stop(e->deadline);
	tool_signalfd_close(pfd.fd, &old);
	return EXP_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct exp e = { .timeout_ms = IIOWIRE_DEFAULT_TIMEOUT_MS, .listen = EXP_DEFAULT_LISTEN };
	int ret = exp_parse_args(&e, argc, argv);
	char *token = NULL;

	if (ret != EXP_PARSED)
		return ret;
	/* -k's default; then gone, so libiiowire's connect cannot send it to a /probe target */
	if (!e.token_file && getenv(IIOWIRE_TOKEN_FILE_ENV) && *getenv(IIOWIRE_TOKEN_FILE_ENV))
		e.token_file = getenv(IIOWIRE_TOKEN_FILE_ENV);
	if (e.token_file && !(token = strdup(e.token_file))) {
		exp_log("out of memory");
		return EXP_EXIT_ERROR;
	}
	e.token_file = token;
	unsetenv(IIOWIRE_TOKEN_FILE_ENV);
	if (!e.board[0] && gethostname(e.board, sizeof(e.board)) < 0)
		snprintf(e.board, sizeof(e.board), "localhost");
	e.board[sizeof(e.board) - 1] = '\0';
	ret = exp_serve(&e);
	free(token);
	return ret;
}
