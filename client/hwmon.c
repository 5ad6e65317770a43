/*
 * hwmon.c - `iiowire-hwmon`, the bridge from a remote consumer's channels to
 * an hwmon device, as the kernel's iio_hwmon does for local ones.
 *
 * Place in the flow: iiowired -> wire -> libiiowire's consumer API ->
 * *iiowire-hwmon* -> DIR/class/hwmon/hwmonN/{name,in1_input,...} (read by the
 * Prometheus node exporter with --path.sysfs=DIR, or by lm-sensors through a
 * bind mount) and/or a sensors-like listing on stdout. Channels come from
 * iiowire_channel_get_all() in map order; types map to hwmon prefixes with
 * one counter per prefix starting at 1; values are processed values in hwmon
 * units (power mW -> µW). Every file is replaced atomically (write a temp
 * file, rename). When the daemon goes away the _input files are removed (the
 * values are stale) and the bridge reconnects; it never writes outside its
 * hwmonN directory and never talks the wire protocol itself.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iiowire.h"
#include "iiowire_tool.h"

#define HWMON_EXIT_OK		0
#define HWMON_EXIT_ERROR	1
#define HWMON_EXIT_USAGE	2

/* The kernel's iio_hwmon name when the device has no firmware node. */
#define HWMON_DEFAULT_NAME	"iio_hwmon"
#define HWMON_DEFAULT_INTERVAL_MS	1000
/* A file in our hwmonN directory that says whose it is, so a restart reuses it. */
#define HWMON_OWNER_FILE	".iiowire-hwmon"
/* Longest hwmon name; the kernel has no limit but sysfs pages hold 4096 bytes. */
#define HWMON_NAME_MAX_BYTES	64
/* Attribute file names: "humidity12_label" and the like. */
#define HWMON_FILE_MAX_BYTES	48

/*
 * The kernel's iio_hwmon type table (reference §5): IIO type -> hwmon prefix,
 * and the multiplier that turns the IIO unit into the hwmon one.
 */
static const struct hwmon_type {
	enum iio_chan_type type;
	const char *prefix;
	unsigned int mult;	/* power: IIO mW, hwmon µW */
	const char *unit;	/* for --print */
	int divisor;		/* hwmon unit -> printed unit */
} hwmon_types[] = {
	{ IIO_VOLTAGE, "in", 1, "V", 1000 },
	{ IIO_TEMP, "temp", 1, "C", 1000 },
	{ IIO_CURRENT, "curr", 1, "A", 1000 },
	{ IIO_POWER, "power", 1000, "W", 1000000 },
	{ IIO_HUMIDITYRELATIVE, "humidity", 1, "%RH", 1000 },
};
#define HWMON_NTYPES	(sizeof(hwmon_types) / sizeof(hwmon_types[0]))

/* One hwmon channel: a consumer channel with its prefix and number. */
struct hwmon_sensor {
	struct iiowire_channel *ch;		/* borrowed from hwmon.chs */
	const struct hwmon_type *type;
	char base[HWMON_FILE_MAX_BYTES];	/* "in1" */
	char label[HWMON_NAME_MAX_BYTES * 2];	/* the consumer channel name, or "" */
	bool have_value;
	int value;				/* hwmon units */
};

struct hwmon {
	/* options */
	const char *address;
	const char *consumer;
	const char *token_file;
	char name[HWMON_NAME_MAX_BYTES];
	const char *root;		/* NULL: no tree */
	int interval_ms;
	int timeout_ms;
	bool once;
	bool print;

	/* state */
	struct iiowire *w;		/* owned */
	struct iiowire_channel **chs;	/* owned */
	struct hwmon_sensor *sensors;	/* owned, nsensors of them */
	int nsensors;
	unsigned int probed_gen;	/* iiowire_reconnect_count() at probe */
	char dir[PATH_MAX];		/* ROOT/class/hwmon/hwmonN, "" until made */
	bool link_down;			/* the last pass could not reach the daemon */
	bool warned;			/* the current trouble was reported */
};

static void hwmon_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void hwmon_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("iiowire-hwmon: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char *hwmon_errname(int err)
{
	const char *n = iiowire_errno_name(err);

	return n ? n : "EIO";
}

/* ---- the tree --------------------------------------------------------- */

/* mkdir -p for @path. Return: 0, or -errno. */
static int hwmon_mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * Replace @dir/@file with @text atomically: readers see the old content or
 * the new one, never a half-written file. Return: 0, or -errno.
 */
static int hwmon_write_file(const char *dir, const char *file, const char *text)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	size_t len = strlen(text);
	int fd, ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, file) >= (int)sizeof(tmp) ||
	    snprintf(dst, sizeof(dst), "%s/%s", dir, file) >= (int)sizeof(dst))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && rename(tmp, dst) < 0)
		ret = -errno;
	if (ret < 0)
		unlink(tmp);
	return ret;
}

/* Remove @dir/@file if present. */
static void hwmon_remove_file(const char *dir, const char *file)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) < (int)sizeof(path))
		unlink(path);
}

/* Remove every regular file in @dir (ours: only called on our own hwmonN). */
static void hwmon_clear_dir(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_type == DT_REG)
			hwmon_remove_file(dir, de->d_name);
	closedir(d);
}

/* What our owner file holds: which daemon and consumer the directory mirrors. */
static void hwmon_owner_text(const struct hwmon *h, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s\n", h->consumer, h->w ? iiowire_address(h->w) :
		 (h->address ? h->address : ""));
}

/*
 * Pick DIR/class/hwmon/hwmonN: ours from an earlier run (its owner file
 * names the same consumer and daemon), else the lowest free N, as the hwmon
 * core numbers devices. Return: 0 with h->dir set, or -errno.
 */
static int hwmon_pick_dir(struct hwmon *h)
{
	char classdir[PATH_MAX], path[PATH_MAX], want[PATH_MAX + 64], have[PATH_MAX + 64];
	struct stat st;
	FILE *f;
	int n, ret;

	if (snprintf(classdir, sizeof(classdir), "%s/class/hwmon", h->root) >=
	    (int)sizeof(classdir))
		return -ENAMETOOLONG;
	ret = hwmon_mkdirs(classdir);
	if (ret < 0)
		return ret;
	hwmon_owner_text(h, want, sizeof(want));
	for (n = 0; n < INT_MAX; n++) {
		if (snprintf(path, sizeof(path), "%s/hwmon%d/%s", classdir, n, HWMON_OWNER_FILE) >=
		    (int)sizeof(path))
			return -ENAMETOOLONG;
		f = fopen(path, "re");
		if (f) {
			have[0] = '\0';
			if (!fgets(have, sizeof(have), f))
				have[0] = '\0';
			fclose(f);
			if (strcmp(have, want) == 0)
				break;
			continue;
		}
		if (snprintf(path, sizeof(path), "%s/hwmon%d", classdir, n) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		if (stat(path, &st) < 0 && errno == ENOENT)
			break;
	}
	if (snprintf(h->dir, sizeof(h->dir), "%s/hwmon%d", classdir, n) >= (int)sizeof(h->dir))
		return -ENAMETOOLONG;
	if (mkdir(h->dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return hwmon_write_file(h->dir, HWMON_OWNER_FILE, want);
}

/* Lay out the device: name, labels; values come with the first update. Return: 0, -errno. */
static int hwmon_tree_build(struct hwmon *h)
{
	char file[HWMON_FILE_MAX_BYTES + 8], text[HWMON_NAME_MAX_BYTES * 2 + 2];
	int i, ret;

	if (!h->root)
		return 0;
	if (!h->dir[0]) {
		ret = hwmon_pick_dir(h);
		if (ret < 0)
			return ret;
	}
	/* a re-probe may bring another channel set: start from an empty device */
	hwmon_clear_dir(h->dir);
	hwmon_owner_text(h, text, sizeof(text));
	ret = hwmon_write_file(h->dir, HWMON_OWNER_FILE, text);
	if (ret < 0)
		return ret;
	snprintf(text, sizeof(text), "%s\n", h->name);
	ret = hwmon_write_file(h->dir, "name", text);
	for (i = 0; i < h->nsensors && ret == 0; i++) {
		if (!h->sensors[i].label[0])
			continue;
		snprintf(file, sizeof(file), "%s_label", h->sensors[i].base);
		snprintf(text, sizeof(text), "%s\n", h->sensors[i].label);
		ret = hwmon_write_file(h->dir, file, text);
	}
	return ret;
}

/* Publish or withdraw one value. Return: 0, or -errno of the file system. */
static int hwmon_tree_value(const struct hwmon *h, const struct hwmon_sensor *s)
{
	char file[HWMON_FILE_MAX_BYTES + 8], text[16];

	if (!h->dir[0])
		return 0;
	snprintf(file, sizeof(file), "%s_input", s->base);
	if (!s->have_value) {
		/* a regular file cannot fail a read as hwmon would: no file says "no value" */
		hwmon_remove_file(h->dir, file);
		return 0;
	}
	snprintf(text, sizeof(text), "%d\n", s->value);
	return hwmon_write_file(h->dir, file, text);
}

/* Remove our device directory (clean exit: the device goes away, as on unbind). */
static void hwmon_tree_remove(struct hwmon *h)
{
	if (!h->dir[0])
		return;
	hwmon_clear_dir(h->dir);
	rmdir(h->dir);
	h->dir[0] = '\0';
}

/* ---- channels --------------------------------------------------------- */

static const struct hwmon_type *hwmon_type_find(enum iio_chan_type type)
{
	size_t i;

	for (i = 0; i < HWMON_NTYPES; i++)
		if (hwmon_types[i].type == type)
			return &hwmon_types[i];
	return NULL;
}

/* Mark every value stale (the daemon is away). */
static void hwmon_all_stale(struct hwmon *h)
{
	int i;

	for (i = 0; i < h->nsensors; i++) {
		h->sensors[i].have_value = false;
		hwmon_tree_value(h, &h->sensors[i]);
	}
}

static void hwmon_unprobe(struct hwmon *h)
{
	free(h->sensors);
	h->sensors = NULL;
	h->nsensors = 0;
	iiowire_channel_release_all(h->chs);
	h->chs = NULL;
}

/*
 * Get the consumer's channels and number them as iio_hwmon does. Unlike the
 * kernel, which refuses the whole device, a channel of a type hwmon has no
 * class for is skipped with a warning. Return: 0, or -errno.
 */
static int hwmon_probe(struct hwmon *h)
{
	int counters[HWMON_NTYPES] = { 0 };
	const struct hwmon_type *t;
	enum iio_chan_type type;
	struct hwmon_sensor *s;
	int i, n, ret;

	hwmon_all_stale(h);
	hwmon_unprobe(h);
	h->probed_gen = iiowire_reconnect_count(h->w);
	h->chs = iiowire_channel_get_all(h->w, h->consumer);
	if (!h->chs)
		return -errno;
	for (n = 0; h->chs[n]; n++)
		;
	h->sensors = calloc((size_t)n, sizeof(*h->sensors));
	if (!h->sensors)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ret = iiowire_get_channel_type(h->chs[i], &type);
		if (ret < 0)
			return ret;
		t = hwmon_type_find(type);
		if (!t) {
			hwmon_warn("%s: channel %s (%s %s, type %s) has no hwmon class: skipped",
				   h->consumer, *iiowire_channel_name(h->chs[i]) ?
				   iiowire_channel_name(h->chs[i]) : "-",
				   iiowire_channel_provider(h->chs[i]),
				   iiowire_channel_datasheet_name(h->chs[i]),
				   iiowire_chan_type_name(type) ?
				   iiowire_chan_type_name(type) : "?");
			continue;
		}
		s = &h->sensors[h->nsensors++];
		s->ch = h->chs[i];
		s->type = t;
		snprintf(s->base, sizeof(s->base), "%s%d", t->prefix, ++counters[t - hwmon_types]);
		snprintf(s->label, sizeof(s->label), "%s", iiowire_channel_name(h->chs[i]));
	}
	if (h->nsensors == 0) {
		hwmon_warn("%s: no channel of a type hwmon knows (in, temp, curr, power, humidity)",
			   h->consumer);
		return -ENODEV;
	}
	return hwmon_tree_build(h);
}

/* ---- one pass --------------------------------------------------------- */

/* Errors of a request that mean the daemon is out of reach, not that one channel failed. */
static bool hwmon_is_link_err(int err)
{
	return err == -ECONNREFUSED || err == -ECONNRESET || err == -ETIMEDOUT ||
	       err == -ENOTCONN || err == -EPIPE || err == -EHOSTUNREACH;
}

/* Print a sensors-like listing of the last values. */
static void hwmon_print(const struct hwmon *h)
{
	const struct hwmon_sensor *s;
	double v;
	int i;

	printf("%s-iiowire-0\nAdapter: iiowire %s, consumer %s\n", h->name,
	       h->w ? iiowire_address(h->w) : (h->address ? h->address : IIOWIRE_DEFAULT_ADDRESS),
	       h->consumer);
	for (i = 0; i < h->nsensors; i++) {
		s = &h->sensors[i];
		printf("%-14s", s->base);
		if (!s->have_value) {
			printf(" %12s", "N/A");
		} else {
			v = (double)s->value / s->type->divisor;
			if (s->type->type == IIO_TEMP)
				printf(" %+11.1f %s", v, s->type->unit);
			else if (s->type->type == IIO_HUMIDITYRELATIVE)
				printf(" %11.1f %s", v, s->type->unit);
			else
				printf(" %11.3f %s", v, s->type->unit);
		}
		if (s->label[0])
			printf("  (%s)", s->label);
		putchar('\n');
	}
	putchar('\n');
	fflush(stdout);
}

/*
 * Connect (if needed), probe (if needed), read every channel and publish.
 * Return: 0 when every value was read, or the first -errno.
 */
static int hwmon_pass(struct hwmon *h)
{
	struct hwmon_sensor *s;
	int i, ret, first = 0;

	h->link_down = false;
	if (!h->w) {
		h->w = iiowire_connect(h->address, h->timeout_ms);
		if (!h->w) {
			/* whatever connect says (ENOENT for a unix path too), the daemon is away */
			h->link_down = true;
			return -errno;
		}
		if (h->token_file) {
			ret = iiowire_auth_file(h->w, h->token_file);
			if (ret < 0)
				return ret;
		}
	}
	/* a reconnect may mean a new board: look the channels up again */
	if (!h->chs || h->probed_gen != iiowire_reconnect_count(h->w)) {
		ret = hwmon_probe(h);
		if (ret < 0) {
			h->link_down = hwmon_is_link_err(ret);
			hwmon_all_stale(h);
			/* the next pass probes again */
			hwmon_unprobe(h);
			return ret;
		}
	}
	for (i = 0; i < h->nsensors; i++) {
		s = &h->sensors[i];
		ret = iiowire_read_channel_processed_scale(s->ch, &s->value, s->type->mult);
		s->have_value = ret >= 0;
		if (ret < 0 && !first)
			first = ret;
		if (ret < 0 && hwmon_is_link_err(ret)) {
			h->link_down = true;
			hwmon_all_stale(h);
			return ret;
		}
		if (ret < 0 && !h->warned)
			hwmon_warn("%s: %s: %s", h->consumer, s->base, iiowire_errmsg(h->w));
		ret = hwmon_tree_value(h, s);
		if (ret < 0) {
			hwmon_warn("%s: %s", h->dir, iiowire_strerror(ret));
			return ret;
		}
	}
	return first;
}

/* Say once per outage what went wrong, and once that it is over. */
static void hwmon_report(struct hwmon *h, int ret)
{
	const char *msg = h->w && *iiowire_errmsg(h->w) ? iiowire_errmsg(h->w) :
			  iiowire_strerror(ret);

	if (ret < 0 && !h->warned) {
		hwmon_warn("%s: %s: %s%s", h->consumer, hwmon_errname(ret), msg,
			   h->link_down ? "; values marked stale, reconnecting" : "");
		h->warned = true;
	} else if (ret == 0 && h->warned) {
		hwmon_warn("%s: all values back", h->consumer);
		h->warned = false;
	}
}

/* Run passes every interval until SIGINT/SIGTERM. Return: the exit status. */
static int hwmon_loop(struct hwmon *h)
{
	struct pollfd pfd = { .events = POLLIN };
	struct signalfd_siginfo si;
	sigset_t set, old;
	int ret;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, &old) < 0)
		return HWMON_EXIT_ERROR;
	/* the signals wake the interval sleep; no handler, no global flag */
	pfd.fd = signalfd(-1, &set, SFD_CLOEXEC);
	if (pfd.fd < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return HWMON_EXIT_ERROR;
	}
	for (;;) {
		ret = hwmon_pass(h);
		hwmon_report(h, ret);
		if (h->print)
			hwmon_print(h);
		ret = poll(&pfd, 1, h->interval_ms);
		if (ret > 0)
			break;
	}
	/* take the signal, or unblocking would deliver it and kill us before cleanup */
	if (read(pfd.fd, &si, sizeof(si)) < 0)
		si.ssi_signo = 0;
	close(pfd.fd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	hwmon_tree_remove(h);
	return HWMON_EXIT_OK;
}

/* ---- options ---------------------------------------------------------- */

static void hwmon_usage(FILE *out)
{
	fprintf(out,
		"usage: iiowire-hwmon [-a ADDRESS] --consumer NAME [--name HWMON_NAME]\n"
		"                     [--sysfs-root DIR] [--interval MS] [--once] [--print]\n"
		"                     [--timeout MS] [--token-file FILE]\n"
		"\n"
		"Present the channels of a remote IIO consumer as an hwmon device, as the\n"
		"kernel's iio_hwmon does: voltage -> in, temp -> temp, current -> curr,\n"
		"power -> power (uW), humidityrelative -> humidity, each numbered from 1,\n"
		"<prefix><n>_input in hwmon units and <prefix><n>_label from the map's\n"
		"channel name. Other types are skipped with a warning.\n"
		"\n"
		"  -a, --address ADDRESS  iiowired's address (default $%s, else %s)\n"
		"  -c, --consumer NAME    the consumer (map consumer_dev_name), required\n"
		"  -n, --name NAME        the hwmon name (default %s; '-' becomes '_')\n"
		"  -r, --sysfs-root DIR   write DIR/class/hwmon/hwmonN/ (DIR stands for /sys)\n"
		"  -i, --interval MS      update period (default %d)\n"
		"  -1, --once             one update, then exit (the tree stays)\n"
		"  -p, --print            print a sensors-like listing each update (the\n"
		"                         default without --sysfs-root)\n"
		"  -t, --timeout MS       per-request timeout (default %d)\n"
		"  -k, --token-file FILE  token for AUTH (default $%s)\n"
		"  -h, --help             this text\n"
		"\n"
		"Values that cannot be read (daemon away, provider gone) lose their _input\n"
		"file until they can be read again. On SIGINT/SIGTERM the device directory\n"
		"is removed. Exit status: 0, 1 on an error (--once), 2 on a usage error.\n",
		IIOWIRE_ADDRESS_ENV, IIOWIRE_DEFAULT_ADDRESS, HWMON_DEFAULT_NAME,
		HWMON_DEFAULT_INTERVAL_MS, IIOWIRE_DEFAULT_TIMEOUT_MS, IIOWIRE_TOKEN_FILE_ENV);
}

static int hwmon_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int hwmon_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("iiowire-hwmon: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (try --help)\n", stderr);
	return HWMON_EXIT_USAGE;
}

/*
 * The hwmon core warns about names that are empty or hold '-', '*' or
 * blanks (libsensors splits chip names at '-'). The kernel's iio_hwmon turns
 * '-' into '_'; we do the same, and refuse the rest.
 * Return: 0 with @out set, or -EINVAL.
 */
static int hwmon_set_name(char *out, size_t len, const char *name)
{
	size_t i;

	if (!*name || strlen(name) >= len)
		return -EINVAL;
	for (i = 0; name[i]; i++) {
		if (name[i] == '*' || isspace((unsigned char)name[i]) ||
		    !isprint((unsigned char)name[i]))
			return -EINVAL;
		out[i] = name[i] == '-' ? '_' : name[i];
	}
	out[i] = '\0';
	if (strcmp(out, name) != 0)
		hwmon_warn("hwmon name '%s' used as '%s' ('-' is not allowed)", name, out);
	return 0;
}

static int hwmon_parse_ms(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v <= 0 || v > INT_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* Parsing went through: run. Any other parse result is the exit status. */
#define HWMON_PARSED	(-1)

/* The command line into @h. Return: HWMON_PARSED, or the status to exit with. */
static int hwmon_parse_args(struct hwmon *h, int argc, char **argv)
{
	static const struct option opts[] = {
		IIOWIRE_TOOL_COMMON_OPTIONS,
		{ "consumer", required_argument, NULL, 'c' },
		{ "name", required_argument, NULL, 'n' },
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "interval", required_argument, NULL, 'i' },
		{ "once", no_argument, NULL, '1' },
		{ "print", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "a:c:n:r:i:1pt:k:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			h->address = optarg;
			break;
		case 'c':
			h->consumer = optarg;
			break;
		case 'n':
			if (hwmon_set_name(h->name, sizeof(h->name), optarg) < 0)
				return hwmon_usage_error("'%s' is not a valid hwmon name", optarg);
			break;
		case 'r':
			h->root = optarg;
			break;
		case 'i':
			if (hwmon_parse_ms(optarg, &h->interval_ms) < 0)
				return hwmon_usage_error("--interval needs a positive number "
							 "of ms");
			break;
		case '1':
			h->once = true;
			break;
		case 'p':
			h->print = true;
			break;
		case 't':
			if (hwmon_parse_ms(optarg, &h->timeout_ms) < 0)
				return hwmon_usage_error("--timeout needs a positive number of ms");
			break;
		case 'k':
			h->token_file = optarg;
			break;
		case 'h':
			hwmon_usage(stdout);
			return HWMON_EXIT_OK;
		default:
			return hwmon_usage_error("bad option");
		}
	}
	if (optind < argc)
		return hwmon_usage_error("unexpected argument '%s'", argv[optind]);
	if (!h->consumer)
		return hwmon_usage_error("--consumer is required");
	if (!h->root)
		h->print = true;
	return HWMON_PARSED;
}

/* --once: one pass, reported. Return: the exit status. */
static int hwmon_once(struct hwmon *h)
{
	int ret = hwmon_pass(h);

	if (ret < 0)
		hwmon_warn("%s: %s: %s", h->consumer, hwmon_errname(ret),
			   h->w && *iiowire_errmsg(h->w) ? iiowire_errmsg(h->w) :
			   iiowire_strerror(ret));
	if (h->print && h->nsensors > 0)
		hwmon_print(h);
	return ret < 0 ? HWMON_EXIT_ERROR : HWMON_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct hwmon h = {
		.name = HWMON_DEFAULT_NAME,
		.interval_ms = HWMON_DEFAULT_INTERVAL_MS,
		.timeout_ms = IIOWIRE_DEFAULT_TIMEOUT_MS,
	};
	int ret;

	ret = hwmon_parse_args(&h, argc, argv);
	if (ret != HWMON_PARSED)
		return ret;
	ret = h.once ? hwmon_once(&h) : hwmon_loop(&h);
	hwmon_unprobe(&h);
	iiowire_close(h.w);
	return ret;
}
