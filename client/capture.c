/*
 * capture.c - `iiowire capture`: N scans of a device's (or a consumer's)
 * channels to stdout, as the kernel's raw records, CSV lines or JSON arrays.
 *
 * Place in the flow: a person or a script -> iiowire (cli.c parses the
 * global options and hands the command here) -> libiiowire's stream API
 * -> iiowired. The values are decoded by the daemon (csv, json) with the
 * kernel's arithmetic, or written untouched (raw), so what a script reads
 * is what a capture of the kernel's /dev/iio:deviceN would give. --rate
 * writes the trigger's sampling_frequency first (an hrtimer trigger's).
 * A progress line goes to stderr, when it is a terminal, for captures
 * longer than CLI_CAPTURE_PROGRESS_AFTER_MS. Nothing here speaks the wire.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli_capture.h"
#include "iiowire_tool.h"

/* The progress line starts after this long, and is redrawn at most this often. */
#define CLI_CAPTURE_PROGRESS_AFTER_MS	1000
#define CLI_CAPTURE_PROGRESS_EVERY_MS	200
/* The trigger attribute --rate writes, and the device attribute naming the trigger. */
#define CLI_CAPTURE_RATE_ATTR		"sampling_frequency"
#define CLI_CAPTURE_CURRENT_TRIGGER	"trigger/current_trigger"

static const char *const cli_capture_formats[] = {
	[IIOWIRE_STREAM_RAW] = "raw",
	[IIOWIRE_STREAM_CSV] = "csv",
	[IIOWIRE_STREAM_JSON] = "json",
};

struct cli_capture {
	struct iiowire_stream_config cfg;
	const char *channels[IIOWIRE_STREAM_CHANNELS_MAX + 1];
	int nchannels;
	long long count;	/* -n */
	const char *rate;	/* --rate, as given */
	int block;		/* -b, 0: default */
	/* the run */
	long long done;
	uint64_t lost;
	int64_t start_ms, drawn_ms;
	bool progress;		/* stderr is a terminal */
	bool drawn;		/* a progress line is on screen */
};

static int cli_capture_usage(const char *fmt, const char *arg)
{
	fputs("iiowire: capture: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (try 'iiowire --help')\n", stderr);
	return CLI_CAPTURE_EXIT_USAGE;
}

/* "iiowire: capture: ENODEV: message". Return: CLI_CAPTURE_EXIT_ERROR. */
static int cli_capture_fail(const char *what, int err, const char *msg)
{
	fprintf(stderr, "iiowire: capture: %s%s%s: %s\n", what ? what : "", what ? ": " : "",
		tool_errname(err), msg && *msg ? msg : iiowire_strerror(err));
	return CLI_CAPTURE_EXIT_ERROR;
}

static int cli_capture_format(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(cli_capture_formats) / sizeof(cli_capture_formats[0]); i++)
		if (!strcmp(s, cli_capture_formats[i]))
			return (int)i;
	return -EINVAL;
}

/* One option with its value at argv[*i]; Return: 0, or the usage exit status. */
static int cli_capture_option(struct cli_capture *cap, int argc, char **argv, int *i)
{
	const char *opt = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL;
	char *end;
	long long n;

	if (!strcmp(opt, "--consumer")) {
		cap->cfg.consumer = "";	/* the name is the first word */
		return 0;
	}
	if (!val)
		return cli_capture_usage("%s needs a value", opt);
	(*i)++;
	if (!strcmp(opt, "-n") || !strcmp(opt, "-b")) {
		errno = 0;
		n = strtoll(val, &end, 10);
		if (*end || end == val || errno || n < 1 ||
		    (opt[1] == 'b' && n > IIOWIRE_STREAM_SCANS_MAX))
			return cli_capture_usage(opt[1] == 'n' ? "-n needs a count >= 1, not '%s'" :
						 "-b needs 1 to 4096 scans, not '%s'", val);
		if (opt[1] == 'n')
			cap->count = n;
		else
			cap->block = (int)n;
	} else if (!strcmp(opt, "--trigger")) {
		cap->cfg.trigger = val;
	} else if (!strcmp(opt, "--format")) {
		cap->cfg.format = cli_capture_format(val);
		if (cap->cfg.format < 0)
			return cli_capture_usage("--format is raw, csv or json, not '%s'", val);
	} else if (!strcmp(opt, "--rate")) {
		cap->rate = val;
	} else {
		return cli_capture_usage("unknown option '%s'", opt);
	}
	return 0;
}

/* DEVICE [CHANNEL...] with options anywhere. Return: 0, or the usage exit status. */
static int cli_capture_parse(struct cli_capture *cap, int argc, char **argv)
{
	const char *name = NULL;
	int i, ret;

	for (i = 0; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			ret = cli_capture_option(cap, argc, argv, &i);
			if (ret)
				return ret;
		} else if (!name) {
			name = argv[i];
		} else if (cap->nchannels == IIOWIRE_STREAM_CHANNELS_MAX) {
			return cli_capture_usage("more than %s channels", "64");
		} else {
			cap->channels[cap->nchannels++] = argv[i];
		}
	}
	if (!name)
		return cli_capture_usage("%s", "needs a DEVICE (or --consumer NAME)");
	if (!cap->count)
		return cli_capture_usage("%s", "needs -n COUNT");
	if (cap->cfg.consumer)
		cap->cfg.consumer = name;
	else
		cap->cfg.device = name;
	cap->cfg.channels = cap->nchannels ? cap->channels : NULL;
	cap->cfg.scans = (unsigned int)(cap->block ? cap->block :
			 cap->count < CLI_CAPTURE_BLOCK_SCANS ? cap->count :
			 CLI_CAPTURE_BLOCK_SCANS);
	return 0;
}

/* --rate: the trigger's sampling_frequency, the named trigger or the device's current one. */
static int cli_capture_set_rate(struct iiowire *w, struct cli_capture *cap)
{
	char current[256];
	const char *trig = cap->cfg.trigger;
	int ret;

	if (!trig && cap->cfg.consumer)
		return cli_capture_usage("%s", "--rate with --consumer needs --trigger");
	if (!trig) {
		ret = iiowire_attr_read(w, cap->cfg.device, CLI_CAPTURE_CURRENT_TRIGGER, current,
					sizeof(current));
		if (ret < 0)
			return cli_capture_fail("rate", ret, iiowire_errmsg(w));
		if (!ret)
			return cli_capture_fail("rate", -EINVAL, "the device has no current "
						"trigger: give --trigger");
		trig = current;
	}
	/* a trigger is a device "triggerN" (PROTOCOL.md, DEVICES) with its files */
	ret = iiowire_attr_write(w, trig, CLI_CAPTURE_RATE_ATTR, cap->rate);
	if (ret == -ENOENT)
		return cli_capture_fail("rate", ret, "the trigger has no sampling_frequency "
					"(--rate is for hrtimer triggers)");
	if (ret < 0)
		return cli_capture_fail("rate", ret, iiowire_errmsg(w));
	return 0;
}

/* The "captured N/M scans" line on stderr, redrawn in place; @final ends it. */
static void cli_capture_progress(struct cli_capture *cap, bool final)
{
	int64_t now = tool_now_ms();

	if (!cap->progress || (!final && (now - cap->start_ms < CLI_CAPTURE_PROGRESS_AFTER_MS ||
					  now - cap->drawn_ms < CLI_CAPTURE_PROGRESS_EVERY_MS)))
		return;
	if (final && !cap->drawn)
		return;
	fprintf(stderr, "\rcaptured %lld/%lld scans (%lld%%), %" PRIu64 " lost%s", cap->done,
		cap->count, cap->done * 100 / cap->count, cap->lost, final ? "\n" : "");
	cap->drawn = true;
	cap->drawn_ms = now;
}

/* CSV: the header line, the channel names in record order. */
static void cli_capture_csv_header(struct iiowire_stream *s)
{
	const struct iiowire_scan_channel *ch;
	int n = iiowire_stream_channels(s, &ch), i;

	for (i = 0; i < n; i++)
		printf("%s%s", i ? "," : "", ch[i].name);
	putchar('\n');
}

/* Write the first @want scans of @blk in the stream's format. Return: scans written. */
static long long cli_capture_write(struct iiowire_stream *s, int format,
				   const struct iiowire_block *blk, long long want)
{
	const char *p = blk->data, *end = p + blk->bytes, *nl;
	long long n = 0;
	cJSON *arr, *scan;
	char *text;

	if (format == IIOWIRE_STREAM_RAW) {
		n = want < blk->scans ? want : blk->scans;
		fwrite(p, iiowire_stream_scan_bytes(s), (size_t)n, stdout);
		return n;
	}
	if (format == IIOWIRE_STREAM_CSV) {
		for (; n < want && p < end && (nl = memchr(p, '\n', (size_t)(end - p))); n++) {
			fwrite(p, 1, (size_t)(nl - p + 1), stdout);
			p = nl + 1;
		}
		return n;
	}
	arr = cJSON_ParseWithLength(p, blk->bytes);
	cJSON_ArrayForEach(scan, arr) {
		if (n == want)
			break;
		text = cJSON_PrintUnformatted(scan);
		if (text)
			puts(text);
		cJSON_free(text);
		n++;
	}
	cJSON_Delete(arr);
	return n;
}

/* Read blocks until -n scans are out. Return: the exit status. */
static int cli_capture_loop(struct cli_capture *cap, struct iiowire_stream *s)
{
	struct iiowire_block blk;
	int ret;

	cap->start_ms = tool_now_ms();
	cap->progress = isatty(STDERR_FILENO);
	if (cap->cfg.format == IIOWIRE_STREAM_CSV)
		cli_capture_csv_header(s);
	while (cap->done < cap->count) {
		ret = iiowire_stream_read(s, &blk);
		if (ret < 0) {
			cli_capture_progress(cap, true);
			return cli_capture_fail(NULL, ret, iiowire_stream_errmsg(s));
		}
		cap->lost += blk.lost;
		cap->done += cli_capture_write(s, cap->cfg.format, &blk, cap->count - cap->done);
		cli_capture_progress(cap, false);
	}
	cli_capture_progress(cap, true);
	if (cap->lost)
		fprintf(stderr, "iiowire: capture: %" PRIu64 " scans lost (read too slowly)\n",
			cap->lost);
	return CLI_CAPTURE_EXIT_OK;
}

int cli_capture_run(struct iiowire *w, int argc, char **argv)
{
	struct cli_capture cap = { 0 };
	struct iiowire_stream *s;
	int ret;

	ret = cli_capture_parse(&cap, argc, argv);
	if (ret)
		return ret;
	if (cap.rate) {
		ret = cli_capture_set_rate(w, &cap);
		if (ret)
			return ret;
	}
	s = iiowire_stream_open(w, &cap.cfg);
	if (!s)
		return cli_capture_fail(NULL, -errno, iiowire_errmsg(w));
	/* a block must come within the connection's timeout, whatever its size */
	ret = cli_capture_loop(&cap, s);
	iiowire_stream_close(s);
	return ret;
}
