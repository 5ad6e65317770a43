/*
 * cli.c - `iiowire`, the command line of iiowired, for people and scripts.
 *
 * Place in the flow: a person or a script -> *iiowire* -> libiiowire -> wire
 * -> iiowired. One command per run (or many, through `iiowire shell`): each
 * is a row of cli_cmds[] that calls the public library API only, prints the
 * values alone on stdout (text, or JSON with --json) and reports errors on
 * stderr with their errno name; the exit status is 0 on success, 1 on an
 * error, 2 on a usage error. It never speaks the wire protocol itself and
 * keeps no state but the connection.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#if defined(IIOWIRE_HAVE_READLINE)
#include <readline/readline.h>
#include <readline/history.h>
#elif defined(IIOWIRE_HAVE_LIBEDIT)
#include <editline/readline.h>
#endif

#include <cjson/cJSON.h>

#include "cli_capture.h"
#include "cli_play.h"
#include "cli_hint.h"
#include "iio_near.h"
#include "iiowire.h"
#include "iiowire_tool.h"

/* Exit statuses. */
#define CLI_EXIT_OK		0
#define CLI_EXIT_ERROR		1
#define CLI_EXIT_USAGE		2

/* Longest attribute value printed (a sysfs page, with room for the NUL). */
#define CLI_VALUE_MAX_BYTES	4097
/* Strings cli_esc() can hand out before reusing a buffer (one printf's worth). */
#define CLI_ESC_SLOTS		8
/* A value escaped: each byte may become "\xNN" (4 bytes); longer text is cut. */
#define CLI_ESC_MAX_BYTES	(4 * CLI_VALUE_MAX_BYTES + 1)
/* Most words in one `iiowire shell` line. */
#define CLI_SHELL_MAX_ARGS	32
/* Longest `iiowire shell` line without readline. */
#define CLI_SHELL_LINE_MAX_BYTES	4096
/* Default WATCH interval of `iiowire watch`. */
#define CLI_WATCH_DEFAULT_INTERVAL_MS	1000
/* Pause between reconnect attempts while watching. */
#define CLI_WATCH_RETRY_MS	1000
/* A suggested name (device, attribute, consumer): never longer than a near one can be. */
#define CLI_NAME_HINT_MAX_BYTES	IIO_NEAR_NAME_MAX_BYTES

/* The run's settings and its one connection (made on first use). */
struct cli {
	const char *address;
	const char *token_file;
	int timeout_ms;
	bool json;
	bool in_shell;
	struct iiowire *w;
	/* the command running and its words, for cli_fail()'s "did you mean" */
	const char *cmd;
	int argc;
	char **argv;
};

struct cli_cmd {
	const char *name;
	int min_args;
	int max_args;		/* -1: no limit */
	const char *usage;
	const char *help;
	int (*run)(struct cli *c, int argc, char **argv);
};

static const struct cli_cmd cli_cmds[];

/* ---- output helpers --------------------------------------------------- */

/* Print @s as a JSON string (quotes included), escaped by cJSON; NULL is null. */
static void cli_json_str(const char *s)
{
	cJSON *str = s ? cJSON_CreateStringReference(s) : NULL;
	char *out = str ? cJSON_PrintUnformatted(str) : NULL;

	fputs(out ? out : "null", stdout);
	cJSON_free(out);
	cJSON_Delete(str);
}

/* `"key": "value"` with a leading comma unless @first. */
static void cli_json_kv(bool first, const char *key, const char *value)
{
	printf("%s\"%s\": ", first ? "" : ", ", key);
	cli_json_str(value);
}

/* The same for a member the wire leaves out when empty: nothing is printed then. */
static void cli_json_kv_opt(const char *key, const char *value)
{
	if (value && *value)
		cli_json_kv(false, key, value);
}

/* `"key": 12`; the key may come from the server (STATS), so it is escaped too. */
static void cli_json_ki(bool first, const char *key, long long value)
{
	fputs(first ? "" : ", ", stdout);
	cli_json_str(key);
	printf(": %lld", value);
}

/* ---- text from the server --------------------------------------------- */

static bool cli_is_c1(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

static bool cli_needs_esc(const unsigned char *p)
{
	return *p < 0x20 || *p == 0x7f || *p == '\\' || cli_is_c1(p);
}

/*
 * Text a server sent, made safe for a terminal and for line-based scripts:
 * control bytes (LF, ESC, BEL, DEL, ...) and the UTF-8 C1 controls print as
 * "\xNN" (C1: "\u00NN"), a backslash as "\\", so a hostile server can neither
 * inject a line nor a terminal escape, and what was sent can be told apart.
 * Return: @s when it needs nothing, else one of CLI_ESC_SLOTS static buffers
 * (valid until CLI_ESC_SLOTS more calls).
 */
static const char *cli_esc(const char *s)
{
	static char bufs[CLI_ESC_SLOTS][CLI_ESC_MAX_BYTES];
	static unsigned int next;
	const unsigned char *p;
	char *out, *o;
	size_t room;

	for (p = (const unsigned char *)s; *p && !cli_needs_esc(p); p++)
		;
	if (!*p)
		return s;
	out = bufs[next++ % CLI_ESC_SLOTS];
	for (o = out, p = (const unsigned char *)s; *p; p++) {
		room = CLI_ESC_MAX_BYTES - (size_t)(o - out);
		if (room < 8)
			break;
		if (*p == '\\')
			o += snprintf(o, room, "\\\\");
		else if (*p < 0x20 || *p == 0x7f)
			o += snprintf(o, room, "\\x%02x", *p);
		else if (cli_is_c1(p))
			o += snprintf(o, room, "\\u00%02x", *++p);
		else
			*o++ = (char)*p;
	}
	*o = '\0';
	return out;
}

/* Text columns: an absent or empty string prints as "-" so columns stay countable. */
static const char *cli_col(const char *s)
{
	return s && *s ? cli_esc(s) : "-";
}

/* Report a failed @what on stderr: "iiowire: read: ENOENT: message". Return: CLI_EXIT_ERROR. */
static int cli_fail(struct cli *c, const char *what, int err)
{
	const char *name = iiowire_errno_name(err);
	const char *msg = c->w ? iiowire_errmsg(c->w) : "";

	char near[CLI_NAME_HINT_MAX_BYTES];

	fprintf(stderr, "iiowire: %s: %s: %s\n", what, name ? name : "EIO",
		*msg ? cli_esc(msg) : iiowire_strerror(err));
	if (c->cmd && cli_hint_find(c->w, c->cmd, c->argc, c->argv, err, near, sizeof(near)))
		fprintf(stderr, "iiowire: did you mean '%s'?\n", cli_esc(near));
	return CLI_EXIT_ERROR;
}

/* Report a usage error. Return: CLI_EXIT_USAGE. */
static int cli_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("iiowire: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (try 'iiowire --help')\n", stderr);
	return CLI_EXIT_USAGE;
}

/* A decimal int in [min, max]. Return: 0, or -EINVAL. */
static int cli_parse_int(const char *s, long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno == ERANGE || v < min || v > max)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* Connect on first use. Return: 0, or CLI_EXIT_ERROR after reporting. */
static int cli_connect(struct cli *c)
{
	int ret;

	if (c->w)
		return 0;
	c->w = iiowire_connect(c->address, c->timeout_ms);
	if (!c->w) {
		ret = -errno;
		fprintf(stderr, "iiowire: connect %s: %s: %s\n",
			c->address ? c->address : (getenv(IIOWIRE_ADDRESS_ENV) ?
			getenv(IIOWIRE_ADDRESS_ENV) : IIOWIRE_DEFAULT_ADDRESS),
			iiowire_errno_name(ret) ? iiowire_errno_name(ret) : "EIO",
			*iiowire_connect_errmsg() ? iiowire_connect_errmsg() :
			iiowire_strerror(ret));
		return CLI_EXIT_ERROR;
	}
	if (c->token_file) {
		ret = iiowire_auth_file(c->w, c->token_file);
		if (ret < 0)
			return cli_fail(c, "auth", ret);
	}
	return 0;
}

/* ---- commands --------------------------------------------------------- */

/*
 * Print a listing of @n elements of @size bytes: one line each, or in JSON
 * one array of objects. @item prints one element's line or the members
 * inside its braces.
 */
static void cli_list_print(struct cli *c, const void *items, size_t size, int n,
			   void (*item)(struct cli *c, const void *elem))
{
	int i;

	if (c->json)
		putchar('[');
	for (i = 0; i < n; i++) {
		if (c->json)
			printf("%s{", i ? ", " : "");
		item(c, (const char *)items + (size_t)i * size);
		if (c->json)
			putchar('}');
	}
	if (c->json)
		puts("]");
}

/*
 * Finish a listing command: report @n < 0, else print the @n items and free
 * them (an iiowire_free() block). Return: the command's exit status.
 */
static int cli_list_finish(struct cli *c, const char *what, int n, void *items, size_t size,
			   void (*item)(struct cli *c, const void *elem))
{
	if (n < 0)
		return cli_fail(c, what, n);
	cli_list_print(c, items, size, n, item);
	iiowire_free(items);
	return CLI_EXIT_OK;
}

static void cli_device_item(struct cli *c, const void *elem)
{
	const struct iiowire_device *d = elem;

	if (!c->json) {
		printf("%s %s %s %s\n", cli_esc(d->id), cli_col(d->name), cli_col(d->hwid),
		       cli_col(d->label));
		return;
	}
	/* as the wire's DEVICES: label and hwid only when set */
	cli_json_kv(true, "id", d->id);
	cli_json_kv(false, "name", d->name);
	cli_json_kv_opt("label", d->label);
	cli_json_kv_opt("hwid", d->hwid);
}

static int cli_cmd_devices(struct cli *c, int argc, char **argv)
{
	struct iiowire_device *d;
	int n;

	(void)argc;
	(void)argv;
	n = iiowire_device_list(c->w, &d);
	/* an empty listing is no next step: say what is empty, what to edit (stderr: not a row) */
	if (n == 0 && !c->json)
		fprintf(stderr, "iiowire: the daemon's board has no devices: add them to its board "
			"file (the installed iiowired's is %s; the daemon's log names the one it "
			"loaded; maps/README.md shows how), then reload it (systemctl reload "
			"iiowired)\n", IIOWIRE_BOARD_FILE);
	return cli_list_finish(c, "devices", n, d, sizeof(*d), cli_device_item);
}

static int cli_cmd_device(struct cli *c, int argc, char **argv)
{
	struct iiowire_device *d;
	int ret;

	(void)argc;
	ret = iiowire_device_get_info(c->w, argv[0], &d);
	if (ret < 0)
		return cli_fail(c, "device", ret);
	if (c->json) {
		putchar('{');
		cli_device_item(c, d);
		cli_json_ki(false, "channels", d->num_channels);
		cli_json_ki(false, "attrs", d->num_attrs);
		puts("}");
	} else {
		/* the wire's key/value lines: label and hwid only when set */
		printf("id %s\nname %s\n", cli_esc(d->id), cli_col(d->name));
		if (*d->label)
			printf("label %s\n", cli_esc(d->label));
		if (*d->hwid)
			printf("hwid %s\n", cli_esc(d->hwid));
		printf("channels %d\nattrs %d\n", d->num_channels, d->num_attrs);
	}
	iiowire_free(d);
	return CLI_EXIT_OK;
}

static const char *cli_access(unsigned int access)
{
	switch (access & (IIOWIRE_ATTR_READ | IIOWIRE_ATTR_WRITE)) {
	case IIOWIRE_ATTR_READ | IIOWIRE_ATTR_WRITE:
		return "rw";
	case IIOWIRE_ATTR_WRITE:
		return "w";
	case IIOWIRE_ATTR_READ:
		return "r";
	default:
		return "-";
	}
}

static void cli_attr_item(struct cli *c, const void *elem)
{
	const struct iiowire_attr *a = elem;

	if (!c->json) {
		printf("%s %s\n", cli_esc(a->name), cli_access(a->access));
		return;
	}
	cli_json_kv(true, "name", a->name);
	cli_json_kv(false, "mode", cli_access(a->access));
}

static int cli_cmd_attrs(struct cli *c, int argc, char **argv)
{
	struct iiowire_attr *a;
	int n;

	(void)argc;
	n = iiowire_attr_list(c->w, argv[0], &a);
	return cli_list_finish(c, "attrs", n, a, sizeof(*a), cli_attr_item);
}

/* The attribute names of @ch joined by @sep; "-" when there are none (text). */
static void cli_chan_attrs(const struct iiowire_chan *ch, bool json)
{
	int j;

	if (!json && ch->num_attrs == 0)
		fputs("-", stdout);
	for (j = 0; j < ch->num_attrs; j++) {
		if (json) {
			fputs(j ? ", " : "", stdout);
			cli_json_str(ch->attrs[j]);
		} else {
			printf("%s%s", j ? "," : "", cli_esc(ch->attrs[j]));
		}
	}
}

/* One channel, in the wire's CHANNELS columns and member names (PROTOCOL.md). */
static void cli_chan_item(struct cli *c, const void *elem)
{
	const struct iiowire_chan *ch = elem;
	char index[16], index2[16];

	if (c->json) {
		cli_json_kv(true, "type", ch->type_name);
		if (ch->index >= 0)
			cli_json_ki(false, "index", ch->index);
		cli_json_kv_opt("modifier", ch->modifier);
		cli_json_kv_opt("datasheet_name", ch->datasheet_name);
		printf(", \"output\": %s, \"differential\": %s", ch->output ? "true" : "false",
		       ch->differential ? "true" : "false");
		if (ch->differential)
			cli_json_ki(false, "index2", ch->index2);
		fputs(", \"attributes\": [", stdout);
		cli_chan_attrs(ch, true);
		putchar(']');
		return;
	}
	snprintf(index, sizeof(index), ch->index < 0 ? "-" : "%d", ch->index);
	snprintf(index2, sizeof(index2), ch->differential ? "%d" : "-", ch->index2);
	printf("%s %s %s %s %s %s ", cli_col(ch->type_name), index, cli_col(ch->modifier),
	       cli_col(ch->datasheet_name), ch->output ? "out" : "in", index2);
	cli_chan_attrs(ch, false);
	putchar('\n');
}

static int cli_cmd_channels(struct cli *c, int argc, char **argv)
{
	struct iiowire_chan *ch;
	int n;

	(void)argc;
	n = iiowire_chan_list(c->w, argv[0], &ch);
	return cli_list_finish(c, "channels", n, ch, sizeof(*ch), cli_chan_item);
}

static int cli_cmd_read(struct cli *c, int argc, char **argv)
{
	char buf[CLI_VALUE_MAX_BYTES];
	int ret;

	(void)argc;
	ret = iiowire_attr_read(c->w, argv[0], argv[1], buf, sizeof(buf));
	if (ret < 0)
		return cli_fail(c, "read", ret);
	if (c->json) {
		putchar('{');
		cli_json_kv(true, "device", argv[0]);
		cli_json_kv(false, "attr", argv[1]);
		cli_json_kv(false, "value", buf);
		puts("}");
	} else {
		puts(cli_esc(buf));
	}
	return CLI_EXIT_OK;
}

static int cli_cmd_write(struct cli *c, int argc, char **argv)
{
	int ret;

	(void)argc;
	ret = iiowire_attr_write(c->w, argv[0], argv[1], argv[2]);
	if (ret < 0)
		return cli_fail(c, "write", ret);
	if (c->json)
		puts("{\"ok\": true}");
	return CLI_EXIT_OK;
}

static void cli_map_item(struct cli *c, const void *elem)
{
	const struct iiowire_map *m = elem;

	if (!c->json) {
		/* the wire's MAPS columns */
		printf("%s %s %s %s %s\n", cli_col(m->consumer), cli_col(m->consumer_channel),
		       cli_col(m->device), cli_col(m->datasheet_name), cli_col(m->provider));
		return;
	}
	cli_json_kv(true, "consumer", m->consumer);
	cli_json_kv_opt("channel", m->consumer_channel);
	cli_json_kv_opt("device", m->device);
	cli_json_kv(false, "datasheet_name", m->datasheet_name);
	cli_json_kv(false, "provider", m->provider);
}

static int cli_cmd_maps(struct cli *c, int argc, char **argv)
{
	struct iiowire_map *m;
	int n;

	(void)argc;
	(void)argv;
	n = iiowire_map_list(c->w, &m);
	return cli_list_finish(c, "maps", n, m, sizeof(*m), cli_map_item);
}

static void cli_consumer_item(struct cli *c, const void *elem)
{
	struct iiowire_channel *ch = *(struct iiowire_channel *const *)elem;
	const char *name = iiowire_channel_name(ch);
	enum iio_chan_type type;
	const char *tname;

	tname = iiowire_get_channel_type(ch, &type) < 0 ? NULL : iiowire_chan_type_name(type);
	if (!c->json) {
		printf("%s %s %s %s\n", cli_col(name), cli_col(iiowire_channel_provider(ch)),
		       cli_col(iiowire_channel_datasheet_name(ch)), cli_col(tname));
		return;
	}
	/* as the wire's CONSUMER: no channel member for an unnamed channel */
	if (*name)
		cli_json_kv(true, "channel", name);
	cli_json_kv(!*name, "device", iiowire_channel_provider(ch));
	cli_json_kv(false, "datasheet_name", iiowire_channel_datasheet_name(ch));
	cli_json_kv(false, "type", tname);
}

static int cli_cmd_consumer(struct cli *c, int argc, char **argv)
{
	struct iiowire_channel **chs;
	int n;

	(void)argc;
	chs = iiowire_channel_get_all(c->w, argv[0]);
	if (!chs)
		return cli_fail(c, "consumer", -errno);
	for (n = 0; chs[n]; n++)
		;
	cli_list_print(c, chs, sizeof(*chs), n, cli_consumer_item);
	iiowire_channel_release_all(chs);
	return CLI_EXIT_OK;
}

/* The CREAD kinds `iiowire cread` knows. */
enum cli_cread_what { CLI_CREAD_RAW, CLI_CREAD_PROCESSED, CLI_CREAD_SCALE, CLI_CREAD_OFFSET,
		      CLI_CREAD_TYPE, CLI_CREAD_LABEL };

static const char *const cli_cread_names[] = {
	[CLI_CREAD_RAW] = "raw", [CLI_CREAD_PROCESSED] = "processed",
	[CLI_CREAD_SCALE] = "scale", [CLI_CREAD_OFFSET] = "offset",
	[CLI_CREAD_TYPE] = "type", [CLI_CREAD_LABEL] = "label",
};

/* Print an int result of cread. */
static void cli_cread_print_int(struct cli *c, char **argv, const char *what, int val)
{
	if (!c->json) {
		printf("%d\n", val);
		return;
	}
	putchar('{');
	cli_json_kv(true, "consumer", argv[0]);
	cli_json_kv(false, "channel", argv[1]);
	cli_json_kv(false, "what", what);
	cli_json_ki(false, "value", val);
	puts("}");
}

/* Print a text result of cread, with the exact pair for scale and offset. */
static void cli_cread_print_text(struct cli *c, char **argv, const char *what, const char *text,
				 int format, int val, int val2)
{
	if (!c->json) {
		puts(cli_esc(text));
		return;
	}
	putchar('{');
	cli_json_kv(true, "consumer", argv[0]);
	cli_json_kv(false, "channel", argv[1]);
	cli_json_kv(false, "what", what);
	cli_json_kv(false, "value", text);
	if (format > 0) {
		cli_json_ki(false, "val", val);
		cli_json_ki(false, "val2", val2);
		cli_json_kv(false, "format", iiowire_val_type_name(format));
	}
	puts("}");
}

static int cli_cmd_cread(struct cli *c, int argc, char **argv)
{
	char text[CLI_VALUE_MAX_BYTES];
	struct iiowire_channel *ch;
	enum iio_chan_type type;
	int what = CLI_CREAD_PROCESSED, scale = 1, val = 0, val2 = 0, ret, i;
	const char *channel = strcmp(argv[1], "-") == 0 ? NULL : argv[1];

	if (argc >= 3) {
		what = -1;
		for (i = 0; i < (int)(sizeof(cli_cread_names) / sizeof(cli_cread_names[0])); i++)
			if (strcmp(argv[2], cli_cread_names[i]) == 0)
				what = i;
		if (what < 0)
			return cli_usage_error("cread: unknown kind '%s'", argv[2]);
	}
	if (argc == 4 && (what != CLI_CREAD_PROCESSED ||
			  cli_parse_int(argv[3], 1, INT_MAX, &scale) < 0))
		return cli_usage_error("cread: a multiplier (a positive int) goes with "
				       "'processed' only");
	ch = iiowire_channel_get(c->w, argv[0], channel);
	if (!ch)
		return cli_fail(c, "cread", -errno);
	switch (what) {
	case CLI_CREAD_RAW:
		ret = iiowire_read_channel_raw(ch, &val);
		if (ret >= 0)
			cli_cread_print_int(c, argv, cli_cread_names[what], val);
		break;
	case CLI_CREAD_PROCESSED:
		ret = iiowire_read_channel_processed_scale(ch, &val, (unsigned int)scale);
		if (ret >= 0)
			cli_cread_print_int(c, argv, cli_cread_names[what], val);
		break;
	case CLI_CREAD_SCALE:
	case CLI_CREAD_OFFSET:
		ret = what == CLI_CREAD_SCALE ? iiowire_read_channel_scale(ch, &val, &val2) :
						iiowire_read_channel_offset(ch, &val, &val2);
		if (ret >= 0) {
			int fmt = ret;

			ret = iiowire_format_value(text, sizeof(text), fmt, val, val2);
			if (ret >= 0)
				cli_cread_print_text(c, argv, cli_cread_names[what], text, fmt, val,
						     val2);
		}
		break;
	case CLI_CREAD_TYPE:
		ret = iiowire_get_channel_type(ch, &type);
		if (ret >= 0)
			cli_cread_print_text(c, argv, cli_cread_names[what],
					     cli_col(iiowire_chan_type_name(type)), 0, 0, 0);
		break;
	default:
		ret = iiowire_read_channel_label(ch, text, sizeof(text));
		if (ret >= 0)
			cli_cread_print_text(c, argv, cli_cread_names[what], text, 0, 0, 0);
		break;
	}
	if (ret < 0)
		ret = cli_fail(c, "cread", ret);
	else
		ret = CLI_EXIT_OK;
	iiowire_channel_release(ch);
	return ret;
}

/* Print one event; @one_attr: just the value, as `read` does. */
static void cli_watch_print(struct cli *c, const struct iiowire_event *ev, bool one_attr)
{
	const char *name;

	if (ev->error) {
		name = iiowire_errno_name(ev->error);
		fprintf(stderr, "iiowire: watch: %s %s: %s: %s\n", cli_esc(ev->device),
			cli_esc(ev->attr),
			name ? name : "EIO", iiowire_strerror(ev->error));
		return;
	}
	if (c->json) {
		putchar('{');
		cli_json_kv(true, "device", ev->device);
		cli_json_kv(false, "attr", ev->attr);
		cli_json_kv(false, "value", ev->value);
		printf(", \"timestamp_ns\": %" PRIu64 "}\n", ev->timestamp_ns);
	} else if (one_attr) {
		puts(cli_esc(ev->value));
	} else {
		printf("%s %s %s %" PRIu64 "\n", cli_esc(ev->device), cli_esc(ev->attr),
		       cli_esc(ev->value), ev->timestamp_ns);
	}
	fflush(stdout);
}

/*
 * Deliver events until @count (0: no limit) or a signal. A broken connection
 * is reconnected by the library; while the daemon stays away the loop tries
 * again every CLI_WATCH_RETRY_MS, saying so once per outage.
 * Return: CLI_EXIT_OK, or CLI_EXIT_ERROR.
 */
static int cli_watch_loop(struct cli *c, int sfd, long count, bool one_attr)
{
	struct signalfd_siginfo si;
	struct pollfd pfd[2];
	struct iiowire_event ev;
	bool outage = false;
	long seen = 0;
	int ret = 0, fd;

	while (count == 0 || seen < count) {
		fd = iiowire_fd(c->w);
		pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (iiowire_event_pending(c->w) == 0) {
			ret = poll(pfd, fd >= 0 ? 2 : 1, fd >= 0 ? -1 : CLI_WATCH_RETRY_MS);
			if (ret < 0 && errno != EINTR)
				return cli_fail(c, "watch", -errno);
			if (pfd[0].revents & POLLIN) {
				/* take it, so unblocking later does not deliver it */
				if (read(sfd, &si, sizeof(si)) < 0)
					si.ssi_signo = 0;
				return CLI_EXIT_OK;
			}
		}
		/* drain: queued events do not make the fd readable again */
		while (count == 0 || seen < count) {
			ret = iiowire_event_next(c->w, &ev, 0);
			if (ret <= 0)
				break;
			if (outage)
				fprintf(stderr, "iiowire: watch: connection back\n");
			outage = false;
			cli_watch_print(c, &ev, one_attr);
			seen++;
		}
		if (ret < 0) {
			if (!outage)
				fprintf(stderr, "iiowire: watch: %s: %s (retrying)\n",
					cli_col(iiowire_errno_name(ret)),
					cli_esc(iiowire_errmsg(c->w)));
			outage = true;
		}
	}
	return CLI_EXIT_OK;
}

/* Whether @word names one of the @n devices @d (id, name, label or hardware id). */
static bool cli_is_device(const struct iiowire_device *d, int n, const char *word)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(word, d[i].id) || !strcmp(word, d[i].name) ||
		    (*d[i].label && !strcmp(word, d[i].label)) ||
		    (*d[i].hwid && !strcmp(word, d[i].hwid)))
			return true;
	return false;
}

/*
 * Split `DEVICE ATTR... [DEVICE ATTR...]...` into groups: a word that names
 * a device starts a new group once the current one has an attribute; the
 * first word is always a device (an unknown one fails at WATCH, ENODEV).
 * @is_dev: set per word. Return: the number of attributes, or -EINVAL for a
 * device without any.
 */
static int cli_watch_groups(struct cli *c, int argc, char **argv, bool *is_dev)
{
	struct iiowire_device *d;
	int i, n, nattrs = 0, group_attrs = 0;

	n = iiowire_device_list(c->w, &d);
	if (n < 0)
		return n;
	for (i = 0; i < argc; i++) {
		is_dev[i] = i == 0 || (group_attrs > 0 && cli_is_device(d, n, argv[i]));
		if (is_dev[i] && i > 0 && group_attrs == 0)
			break;
		group_attrs = is_dev[i] ? 0 : group_attrs + 1;
		nattrs += !is_dev[i];
	}
	iiowire_free(d);
	return group_attrs == 0 ? -EINVAL : nattrs;
}

static int cli_cmd_watch(struct cli *c, int argc, char **argv)
{
	int interval = CLI_WATCH_DEFAULT_INTERVAL_MS, count = 0, i = 0, ret, sfd, nattrs;
	const char *device = NULL;
	bool is_dev[CLI_SHELL_MAX_ARGS * 4];
	sigset_t old;

	/* options inside the command: -n COUNT, -i INTERVAL_MS */
	while (i + 1 < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "-n") == 0 &&
		    cli_parse_int(argv[i + 1], 1, INT_MAX, &count) == 0)
			i += 2;
		else if (strcmp(argv[i], "-i") == 0 &&
			 cli_parse_int(argv[i + 1], 1, INT_MAX, &interval) == 0)
			i += 2;
		else
			return cli_usage_error("watch: bad option '%s %s'", argv[i], argv[i + 1]);
	}
	argc -= i;
	argv += i;
	if (argc > (int)(sizeof(is_dev) / sizeof(is_dev[0])))
		return cli_usage_error("watch: more than %zu words",
				       sizeof(is_dev) / sizeof(is_dev[0]));
	nattrs = argc < 2 ? -EINVAL : cli_watch_groups(c, argc, argv, is_dev);
	if (nattrs == -EINVAL)
		return cli_usage_error("watch needs DEVICE ATTR... (a device, then its "
				       "attributes; DEVICE ATTR pairs work too)");
	if (nattrs < 0)
		return cli_fail(c, "watch", nattrs);
	for (i = 0; i < argc; i++) {
		if (is_dev[i]) {
			device = argv[i];
			continue;
		}
		ret = iiowire_watch_start(c->w, device, argv[i], interval);
		if (ret < 0)
			return cli_fail(c, "watch", ret);
	}
	sfd = tool_signalfd_open(&old);
	if (sfd < 0)
		return cli_fail(c, "watch", sfd);
	ret = cli_watch_loop(c, sfd, count, nattrs == 1);
	tool_signalfd_close(sfd, &old);
	/* in the shell the connection lives on: stop the pushes */
	iiowire_watch_stop(c->w, NULL, NULL);
	return ret;
}

static int cli_cmd_capture(struct cli *c, int argc, char **argv)
{
	return cli_capture_run(c->w, argc, argv);
}

static int cli_cmd_play(struct cli *c, int argc, char **argv)
{
	return cli_play_run(c->w, argc, argv);
}

/*
 * Print one IIO event as iio_event_monitor does: its line on stdout, an
 * unknown code on stderr. Losses are iiowire's own, on stderr.
 */
static void cli_monitor_print(const struct iiowire_iio_event *ev)
{
	char line[256];

	if (ev->lost)
		fprintf(stderr, "iiowire: monitor: %" PRIu64 " events lost\n", ev->lost);
	if (iiowire_event_format(line, sizeof(line), ev))
		printf("%s\n", line);
	else
		fprintf(stderr, "%s\n", line);
	fflush(stdout);
}

/* Deliver events until @count (0: no limit), a signal or the stream's end. */
static int cli_monitor_loop(struct cli *c, struct iiowire_event_stream *st, int sfd, long count)
{
	struct signalfd_siginfo si;
	struct iiowire_iio_event ev;
	struct pollfd pfd[2];
	long seen = 0;
	int ret;

	while (count == 0 || seen < count) {
		ret = iiowire_event_stream_read(st, &ev, 0);
		if (ret == -ENODEV) {
			/* what the tool's perror says when its read fails so */
			fprintf(stderr, "Failed to read event from device: %s\n",
				strerror(ENODEV));
			return CLI_EXIT_ERROR;
		}
		if (ret < 0)
			return cli_fail(c, "monitor", ret);
		if (ret > 0) {
			cli_monitor_print(&ev);
			seen++;
			continue;
		}
		pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = iiowire_fd(c->w), .events = POLLIN };
		ret = poll(pfd, pfd[1].fd >= 0 ? 2 : 1, pfd[1].fd >= 0 ? -1 : CLI_WATCH_RETRY_MS);
		if (ret < 0 && errno != EINTR)
			return cli_fail(c, "monitor", -errno);
		if (pfd[0].revents & POLLIN) {
			if (read(sfd, &si, sizeof(si)) < 0)
				si.ssi_signo = 0;
			return CLI_EXIT_OK;
		}
		/* readable: the next read takes what came, without waiting */
		ret = iiowire_event_stream_read(st, &ev, pfd[1].fd >= 0 ? 0 : 1);
		if (ret > 0) {
			cli_monitor_print(&ev);
			seen++;
		} else if (ret < 0 && ret != -ENODEV) {
			return cli_fail(c, "monitor", ret);
		}
	}
	return CLI_EXIT_OK;
}

static int cli_cmd_monitor(struct cli *c, int argc, char **argv)
{
	struct iiowire_event_stream *st;
	struct iiowire_device *d;
	int count = 0, i = 0, ret, sfd, num;
	sigset_t old;

	if (argc >= 3 && strcmp(argv[0], "-n") == 0) {
		if (cli_parse_int(argv[1], 1, INT_MAX, &count) < 0)
			return cli_usage_error("monitor: bad count '%s'", argv[1]);
		i = 2;
	}
	if (argc - i != 1)
		return cli_usage_error("monitor needs one DEVICE");
	ret = iiowire_device_get_info(c->w, argv[i], &d);
	if (ret < 0)
		return cli_fail(c, "monitor", ret);
	/* the tool names a device found by name; one given as iio:deviceN it opens as it is */
	if (strcmp(argv[i], d->id) != 0 && sscanf(d->id, "iio:device%d", &num) == 1)
		printf("Found IIO device with name %s with device number %d\n", argv[i], num);
	iiowire_free(d);
	fflush(stdout);
	ret = iiowire_event_stream_open(c->w, argv[i], NULL, NULL, &st);
	if (ret == -ENODEV) {
		fprintf(stderr, "This device does not support events\n");
		return CLI_EXIT_ERROR;
	}
	if (ret < 0)
		return cli_fail(c, "monitor", ret);
	sfd = tool_signalfd_open(&old);
	if (sfd < 0) {
		iiowire_event_stream_close(st);
		return cli_fail(c, "monitor", sfd);
	}
	ret = cli_monitor_loop(c, st, sfd, count);
	tool_signalfd_close(sfd, &old);
	iiowire_event_stream_close(st);
	return ret;
}

static int cli_cmd_stats(struct cli *c, int argc, char **argv)
{
	struct iiowire_stat *s;
	int i, n;

	(void)argc;
	(void)argv;
	n = iiowire_stats(c->w, &s);
	if (n < 0)
		return cli_fail(c, "stats", n);
	if (c->json)
		putchar('{');
	for (i = 0; i < n; i++) {
		if (c->json)
			cli_json_ki(i == 0, s[i].name, s[i].value);
		else
			printf("%s %" PRId64 "\n", cli_esc(s[i].name), s[i].value);
	}
	if (c->json)
		puts("}");
	iiowire_free(s);
	return CLI_EXIT_OK;
}

static int cli_cmd_version(struct cli *c, int argc, char **argv)
{
	struct iiowire_version v;
	int ret;

	(void)argc;
	(void)argv;
	ret = iiowire_server_version(c->w, &v);
	if (ret < 0)
		return cli_fail(c, "version", ret);
	if (c->json) {
		putchar('{');
		cli_json_kv(true, "library", iiowire_lib_version());
		cli_json_kv(false, "server", v.server);
		printf(", \"proto_major\": %d, \"proto_minor\": %d}\n", v.proto_major,
		       v.proto_minor);
	} else {
		printf("library %s\nserver %s\nprotocol %d.%d\n", iiowire_lib_version(),
		       cli_esc(v.server),
		       v.proto_major, v.proto_minor);
	}
	return CLI_EXIT_OK;
}

static void cli_print_help(FILE *out)
{
	const struct cli_cmd *cmd;

	fprintf(out,
		"usage: iiowire [-a ADDRESS] [--json] [--timeout MS] [--token-file FILE]\n"
		"               COMMAND [ARG...]\n"
		"\n"
		"Talk to iiowired, the network server of Linux IIO sensors. Values go to\n"
		"stdout alone, errors to stderr as 'iiowire: COMMAND: ERRNO-NAME: message'.\n"
		"Exit status: 0 on success, 1 on an error, 2 on a usage error.\n"
		"\n"
		"options:\n"
		"  -a, --address ADDRESS  host:port, [v6]:port or unix:/path; default $%s,\n"
		"                         else %s\n"
		"  -j, --json             print JSON instead of text\n"
		"  -t, --timeout MS       per-request timeout (default %d ms)\n"
		"  -k, --token-file FILE  send the token on FILE's first line (AUTH); default\n"
		"                         $%s\n"
		"  -h, --help             this text\n"
		"  -V, --version          the library version\n"
		"\ncommands:\n",
		IIOWIRE_ADDRESS_ENV, IIOWIRE_DEFAULT_ADDRESS, IIOWIRE_DEFAULT_TIMEOUT_MS,
		IIOWIRE_TOKEN_FILE_ENV);
	for (cmd = cli_cmds; cmd->name; cmd++)
		fprintf(out, "  %-40s %s\n", cmd->usage, cmd->help);
	fprintf(out, "\nDEVICE is iio:deviceN, a name, a label or a hardware id. CHANNEL '-' is\n"
		     "the consumer's first channel. In 'watch', -n stops after COUNT values\n"
		     "(default: until Ctrl-C) and -i sets the interval (default %d ms);\n"
		     "in 'monitor', -n stops after COUNT events.\n",
		CLI_WATCH_DEFAULT_INTERVAL_MS);
	fprintf(out, "\n'capture' reads N scans of DEVICE's CHANNELs (ids such as voltage0,\n"
		     "accel_x, timestamp; none: all) and writes them to stdout. Options:\n"
		     "  -n N               scans to capture (required)\n"
		     "  --trigger T        make T the device's trigger (default: its current one)\n"
		     "  --format F         raw (the kernel's records), csv (a header line, then\n"
		     "                     processed values), json (one array per scan); default raw\n"
		     "  --rate HZ          set the trigger's sampling_frequency first (hrtimer)\n"
		     "  -b SCANS           scans per block, 1..%d (default min(N, %d))\n"
		     "  --consumer         DEVICE is a consumer; CHANNELs are its channel names\n"
		     "Each block must come within --timeout; a progress line goes to stderr when\n"
		     "it is a terminal.\n", IIOWIRE_STREAM_SCANS_MAX, CLI_CAPTURE_BLOCK_SCANS);
	fprintf(out, "\n'play' sends stdin to output DEVICE's CHANNELs (ids such as voltage0;\n"
		     "none: all), one scan per poll of its trigger, and waits until it is played.\n"
		     "Options:\n"
		     "  --format F         raw (the kernel's records, default) or csv (one line\n"
		     "                     per scan, each channel's raw code; a header is skipped)\n"
		     "  --trigger T        make T the device's trigger (default: its current one)\n"
		     "  -b SCANS           scans per block, 1..%d (default %d)\n"
		     "  --cyclic           play one block (at most -b scans) over and over until\n"
		     "                     SIGINT or SIGTERM\n", IIOWIRE_STREAM_SCANS_MAX,
		CLI_PLAY_BLOCK_SCANS);
}

static int cli_cmd_help(struct cli *c, int argc, char **argv)
{
	(void)c;
	(void)argc;
	(void)argv;
	cli_print_help(stdout);
	return CLI_EXIT_OK;
}

static int cli_run(struct cli *c, int argc, char **argv);

/* Split @line into words; "double quotes" keep blanks. Return: the count, or -E2BIG. */
static int cli_shell_split(char *line, char **argv, int max)
{
	int argc = 0;
	char *p = line, *out;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return argc;
		if (argc == max)
			return -E2BIG;
		argv[argc++] = out = p;
		while (*p && !isspace((unsigned char)*p)) {
			if (*p == '"') {
				for (p++; *p && *p != '"'; p++)
					*out++ = *p;
				if (*p)
					p++;
			} else {
				*out++ = *p++;
			}
		}
		if (*p)
			p++;
		*out = '\0';
	}
}

/* One line of input, or NULL at end of input. Owned: free(). */
static char *cli_shell_readline(bool tty)
{
#if defined(IIOWIRE_HAVE_READLINE) || defined(IIOWIRE_HAVE_LIBEDIT)
	char *line;

	if (tty) {
		line = readline("iiowire> ");
		if (line && *line)
			add_history(line);
		return line;
	}
#endif
	char *buf = malloc(CLI_SHELL_LINE_MAX_BYTES);

	if (!buf)
		return NULL;
	if (tty) {
		fputs("iiowire> ", stdout);
		fflush(stdout);
	}
	if (!fgets(buf, CLI_SHELL_LINE_MAX_BYTES, stdin)) {
		free(buf);
		return NULL;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	return buf;
}

static int cli_cmd_shell(struct cli *c, int argc, char **argv)
{
	char *line, *words[CLI_SHELL_MAX_ARGS];
	bool tty = isatty(STDIN_FILENO);
	int n, status = CLI_EXIT_OK;

	(void)argc;
	(void)argv;
	if (c->in_shell)
		return cli_usage_error("shell: already in the shell");
	c->in_shell = true;
	while ((line = cli_shell_readline(tty))) {
		n = cli_shell_split(line, words, CLI_SHELL_MAX_ARGS);
		if (n < 0) {
			status = cli_usage_error("shell: more than %d words", CLI_SHELL_MAX_ARGS);
		} else if (n > 0 && (strcmp(words[0], "quit") == 0 ||
				     strcmp(words[0], "exit") == 0)) {
			free(line);
			break;
		} else if (n > 0 && words[0][0] != '#') {
			status = cli_run(c, n, words);
		}
		fflush(stdout);
		free(line);
	}
	if (tty)
		putchar('\n');
	c->in_shell = false;
	/* the last command's status, so `iiowire shell < script` fails when it did */
	return status;
}

static const struct cli_cmd cli_cmds[] = {
	{ "devices", 0, 0, "devices", "list devices: id, name, hwid, label",
	  cli_cmd_devices },
	{ "device", 1, 1, "device DEVICE", "details of one device", cli_cmd_device },
	{ "attrs", 1, 1, "attrs DEVICE", "attributes: name, r/rw", cli_cmd_attrs },
	{ "channels", 1, 1, "channels DEVICE",
	  "channels: dir, type, index, modifier, datasheet name, attrs", cli_cmd_channels },
	{ "read", 2, 2, "read DEVICE ATTR", "an attribute's value", cli_cmd_read },
	{ "write", 3, 3, "write DEVICE ATTR VALUE", "write an attribute", cli_cmd_write },
	{ "maps", 0, 0, "maps",
	  "consumer maps: consumer, channel, provider, datasheet name, device", cli_cmd_maps },
	{ "consumer", 1, 1, "consumer NAME",
	  "a consumer's channels: channel, device, datasheet name, type", cli_cmd_consumer },
	{ "cread", 2, 4, "cread CONSUMER CHANNEL [KIND [MULT]]",
	  "KIND: raw, processed (default, times MULT), scale, offset, type, label",
	  cli_cmd_cread },
	{ "watch", 2, -1, "watch [-n COUNT] [-i MS] DEVICE ATTR...",
	  "print values as they are pushed", cli_cmd_watch },
	{ "capture", 1, -1, CLI_CAPTURE_USAGE, CLI_CAPTURE_HELP, cli_cmd_capture },
	{ "play", 1, -1, CLI_PLAY_USAGE, CLI_PLAY_HELP, cli_cmd_play },
	{ "monitor", 1, 3, "monitor [-n COUNT] DEVICE",
	  "IIO events, as iio_event_monitor prints them", cli_cmd_monitor },
	{ "stats", 0, 0, "stats", "the daemon's counters", cli_cmd_stats },
	{ "version", 0, 0, "version", "library, server and protocol versions", cli_cmd_version },
	{ "shell", 0, 0, "shell", "read commands from the terminal or stdin", cli_cmd_shell },
	{ "help", 0, 0, "help", "this text", cli_cmd_help },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

/* An unknown command, with the one it most likely meant. Return: CLI_EXIT_USAGE. */
static int cli_unknown_command(const char *typed)
{
	const char *names[sizeof(cli_cmds) / sizeof(cli_cmds[0])];
	const char *near;
	size_t n;

	for (n = 0; cli_cmds[n].name; n++)
		names[n] = cli_cmds[n].name;
	near = iio_name_nearest(typed, names, n);
	if (near)
		return cli_usage_error("unknown command '%s' (did you mean '%s'?)", cli_esc(typed),
				       near);
	return cli_usage_error("unknown command '%s'", cli_esc(typed));
}

/* Run one command line. Return: the exit status. */
static int cli_run(struct cli *c, int argc, char **argv)
{
	const struct cli_cmd *cmd;
	int ret;

	for (cmd = cli_cmds; cmd->name; cmd++)
		if (strcmp(cmd->name, argv[0]) == 0)
			break;
	if (!cmd->name)
		return cli_unknown_command(argv[0]);
	if (argc - 1 < cmd->min_args || (cmd->max_args >= 0 && argc - 1 > cmd->max_args))
		return cli_usage_error("usage: iiowire %s", cmd->usage);
	if (cmd->run != cli_cmd_help && cmd->run != cli_cmd_shell) {
		ret = cli_connect(c);
		if (ret)
			return ret;
	}
	c->cmd = cmd->name;
	c->argc = argc - 1;
	c->argv = argv + 1;
	ret = cmd->run(c, argc - 1, argv + 1);
	c->cmd = NULL;
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		IIOWIRE_TOOL_COMMON_OPTIONS,
		{ "json", no_argument, NULL, 'j' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli c = { .timeout_ms = IIOWIRE_DEFAULT_TIMEOUT_MS };
	int opt, ret;

	/* '+': options end at the command, so `watch -n 3` keeps its own -n */
	while ((opt = getopt_long(argc, argv, "+a:jt:k:hV", opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			c.address = optarg;
			break;
		case 'j':
			c.json = true;
			break;
		case 't':
			if (cli_parse_int(optarg, 1, INT_MAX, &c.timeout_ms) < 0)
				return cli_usage_error("--timeout needs a positive number of ms");
			break;
		case 'k':
			c.token_file = optarg;
			break;
		case 'h':
			cli_print_help(stdout);
			return CLI_EXIT_OK;
		case 'V':
			printf("iiowire %s\n", iiowire_lib_version());
			return CLI_EXIT_OK;
		default:
			return cli_usage_error("bad option");
		}
	}
	if (optind >= argc)
		return cli_usage_error("no command");
	ret = cli_run(&c, argc - optind, argv + optind);
	if (fflush(stdout) != 0 && ret == CLI_EXIT_OK) {
		fprintf(stderr, "iiowire: stdout: %s\n", strerror(errno));
		ret = CLI_EXIT_ERROR;
	}
	iiowire_close(c.w);
	return ret;
}
