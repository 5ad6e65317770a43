/*
 * cli_play.c - `iiowire play`: scans from stdin to an output device, the
 * mirror of `iiowire capture` (capture.c): the kernel's raw records, or
 * CSV lines of raw codes (a column per channel in record order, as
 * `out_voltageN_raw` takes them; a header line is skipped), encoded here
 * into the records the daemon's PLAY reply describes. The device plays one
 * scan per poll of its trigger; the library's SEND waits while the daemon
 * has no room, so the file is paced by the trigger. At the end of the file
 * the command waits for the queue to drain (buffer/data_available), so the
 * last blocks are played before it stops. --cyclic sends one block and
 * keeps it playing until SIGINT or SIGTERM. Nothing here speaks the wire.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>

#include "cli_play.h"
#include "iiowire_tool.h"

#define CLI_PLAY_DRAIN_POLL_MS		20
#define CLI_PLAY_QUEUED_ATTR		"buffer/data_available"
#define CLI_PLAY_LINE_MAX		4096

struct cli_play {
	struct iiowire_play_config cfg;
	const char *channels[IIOWIRE_STREAM_CHANNELS_MAX + 1];
	int nchannels;
	bool csv;
	int block;
	/* the run */
	struct iiowire_stream *s;
	const struct iiowire_scan_channel *ch;
	int nch;
	size_t rec;
	uint8_t *buf;
	long long scans, underruns;
	long lineno;
};

static int cli_play_usage(const char *fmt, const char *arg)
{
	fputs("iiowire: play: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (try 'iiowire --help')\n", stderr);
	return CLI_PLAY_EXIT_USAGE;
}

static int cli_play_fail(int err, const char *msg)
{
	fprintf(stderr, "iiowire: play: %s: %s\n", tool_errname(err),
		msg && *msg ? msg : iiowire_strerror(err));
	return CLI_PLAY_EXIT_ERROR;
}

static int cli_play_option(struct cli_play *p, int argc, char **argv, int *i)
{
	const char *opt = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL;
	char *end;
	long n;

	if (!strcmp(opt, "--cyclic")) {
		p->cfg.cyclic = 1;
		return 0;
	}
	if (!val)
		return cli_play_usage("%s needs a value", opt);
	(*i)++;
	if (!strcmp(opt, "-b")) {
		errno = 0;
		n = strtol(val, &end, 10);
		if (*end || end == val || errno || n < 1 || n > IIOWIRE_STREAM_SCANS_MAX)
			return cli_play_usage("-b needs 1 to 4096 scans, not '%s'", val);
		p->block = (int)n;
	} else if (!strcmp(opt, "--trigger")) {
		p->cfg.trigger = val;
	} else if (!strcmp(opt, "--format")) {
		if (strcmp(val, "raw") && strcmp(val, "csv"))
			return cli_play_usage("--format is raw or csv, not '%s'", val);
		p->csv = !strcmp(val, "csv");
	} else {
		return cli_play_usage("unknown option '%s'", opt);
	}
	return 0;
}

static int cli_play_parse(struct cli_play *p, int argc, char **argv)
{
	int i, ret;

	for (i = 0; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			ret = cli_play_option(p, argc, argv, &i);
			if (ret)
				return ret;
		} else if (!p->cfg.device) {
			p->cfg.device = argv[i];
		} else if (p->nchannels == IIOWIRE_STREAM_CHANNELS_MAX) {
			return cli_play_usage("more than %s channels", "64");
		} else {
			p->channels[p->nchannels++] = argv[i];
		}
	}
	if (!p->cfg.device)
		return cli_play_usage("%s", "needs a DEVICE");
	p->cfg.channels = p->nchannels ? p->channels : NULL;
	p->cfg.scans = (unsigned int)(p->block ? p->block : CLI_PLAY_BLOCK_SCANS);
	return 0;
}

/* One raw code into its element, as _type lays it out. Return: 0 or -ERANGE. */
static int cli_play_put(const struct iiowire_scan_channel *c, long long v, uint8_t *at)
{
	long long lo = c->is_signed ? -(1LL << (c->realbits - 1)) : 0;
	long long hi = c->is_signed ? (1LL << (c->realbits - 1)) - 1 : (1LL << c->realbits) - 1;
	int bytes = c->storagebits / 8, i;
	uint64_t u;

	if (c->realbits >= 63 || v < lo || v > hi)
		return c->realbits >= 63 ? -EINVAL : -ERANGE;
	u = ((uint64_t)v & ((1ULL << c->realbits) - 1)) << c->shift;
	for (i = 0; i < bytes; i++)
		at[c->big_endian ? bytes - 1 - i : i] = (uint8_t)(u >> (8 * i));
	return 0;
}

/* A CSV line into a record. Return: 1, 0 (a header or empty line), or -errno (told). */
static int cli_play_csv_line(struct cli_play *p, char *line, uint8_t *rec)
{
	char *tok = line, *end;
	long long v;
	int i, ret;

	line[strcspn(line, "\r\n")] = '\0';
	if (!*line || (!isdigit((unsigned char)*line) && *line != '-'))
		return 0;
	memset(rec, 0, p->rec);
	for (i = 0; i < p->nch; i++) {
		errno = 0;
		v = strtoll(tok, &end, 10);
		if (end == tok || errno || (*end && *end != ',') || (i + 1 < p->nch && !*end)) {
			fprintf(stderr, "iiowire: play: line %ld: %d values of integers wanted\n",
				p->lineno, p->nch);
			return -EINVAL;
		}
		ret = cli_play_put(&p->ch[i], v, rec + p->ch[i].offset);
		if (ret) {
			fprintf(stderr, "iiowire: play: line %ld: %lld does not fit %s (%s)\n",
				p->lineno, v, p->ch[i].name, p->ch[i].type);
			return ret;
		}
		tok = *end ? end + 1 : end;
	}
	if (*tok) {
		fprintf(stderr, "iiowire: play: line %ld: more than %d values\n", p->lineno, p->nch);
		return -EINVAL;
	}
	return 1;
}

/* Up to a block of scans from stdin into p->buf. Return: scans, 0 at the end, -errno. */
static long cli_play_fill(struct cli_play *p)
{
	char line[CLI_PLAY_LINE_MAX];
	long n = 0;
	int ret;

	if (!p->csv)
		return (long)fread(p->buf, p->rec, p->cfg.scans, stdin);
	while (n < (long)p->cfg.scans && fgets(line, sizeof(line), stdin)) {
		p->lineno++;
		ret = cli_play_csv_line(p, line, p->buf + (size_t)n * p->rec);
		if (ret < 0)
			return ret;
		n += ret;
	}
	return n;
}

/* Until every queued scan is played (or the device stops answering). */
static void cli_play_drain(struct iiowire *w, struct cli_play *p)
{
	char text[32];

	while (iiowire_attr_read(w, p->cfg.device, CLI_PLAY_QUEUED_ATTR, text, sizeof(text)) > 0 &&
	       strcmp(text, "0"))
		usleep(CLI_PLAY_DRAIN_POLL_MS * 1000);
}

/* --cyclic: the block plays until SIGINT or SIGTERM. */
static void cli_play_hold(void)
{
	sigset_t old;
	int fd = tool_signalfd_open(&old);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (fd < 0)
		return;
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
	tool_signalfd_close(fd, &old);
}

static int cli_play_loop(struct iiowire *w, struct cli_play *p)
{
	long n;
	long long ret;

	while ((n = cli_play_fill(p)) > 0) {
		ret = iiowire_play_send(p->s, p->buf, (size_t)n * p->rec);
		if (ret < 0)
			return cli_play_fail((int)ret, iiowire_stream_errmsg(p->s));
		p->underruns = ret;
		p->scans += n;
		if (p->cfg.cyclic) {
			if (cli_play_fill(p) > 0)
				return cli_play_fail(-EINVAL, "--cyclic plays one block: the input "
						     "is longer than -b scans");
			cli_play_hold();
			return CLI_PLAY_EXIT_OK;
		}
	}
	if (n < 0 || ferror(stdin))
		return n < 0 ? CLI_PLAY_EXIT_ERROR : cli_play_fail(-EIO, "reading stdin");
	if (!p->csv && !feof(stdin))
		return cli_play_fail(-EIO, "reading stdin");
	cli_play_drain(w, p);
	if (p->underruns)
		fprintf(stderr, "iiowire: play: %lld scans, %lld polls found nothing to play "
			"(underruns)\n", p->scans, p->underruns);
	return CLI_PLAY_EXIT_OK;
}

int cli_play_run(struct iiowire *w, int argc, char **argv)
{
	struct cli_play p = { 0 };
	int ret;

	ret = cli_play_parse(&p, argc, argv);
	if (ret)
		return ret;
	p.s = iiowire_play_open(w, &p.cfg);
	if (!p.s)
		return cli_play_fail(-errno, iiowire_errmsg(w));
	iiowire_stream_set_timeout(p.s, -1);	/* a SEND waits as long as the trigger takes */
	p.nch = iiowire_stream_channels(p.s, &p.ch);
	p.rec = iiowire_stream_scan_bytes(p.s);
	p.buf = calloc(p.cfg.scans, p.rec);
	ret = p.buf ? cli_play_loop(w, &p) : cli_play_fail(-ENOMEM, NULL);
	free(p.buf);
	iiowire_stream_close(p.s);
	return ret;
}
