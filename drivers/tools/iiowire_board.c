/*
 * iiowire_board.c - the iiowire-board tool: load a board file and show it
 * the way the kernel's sysfs would.
 *
 * It loads a board (default: the demo board) exactly as the daemon does and
 * prints every device and every attribute as grep . over every file of
 * /sys/bus/iio/devices/iio:deviceN shows them on a kernel with the same
 * chips (less dev and uevent: deviation K-18, maps/README.md), so the two
 * outputs can be compared line by line; with
 * --maps it prints the channel maps and what each consumer gets through
 * them; with --list-drivers it prints every chip name a board file may use
 * (iio_driver_list_print()). Place in the flow: a front end over board ->
 * core -> consumer, with no server in between. It only reads: it never
 * writes an attribute.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "iio_consumer.h"
#include "iio_core.h"

#define IIOWIRE_BOARD_SYSFS_DIR	"/sys/bus/iio/devices"

/* Exit codes: 0 all shown; 1 some attribute could not be read; 2 bad usage or board. */
enum {
	IIOWIRE_BOARD_EXIT_OK = 0,
	IIOWIRE_BOARD_EXIT_READ = 1,
	IIOWIRE_BOARD_EXIT_BOARD = 2,
};

static void iiowire_board_usage(FILE *f)
{
	char path[4096];

	if (board_default_path(path, sizeof(path)) < 0)
		snprintf(path, sizeof(path), "demo.json");
	fprintf(f,
		"usage: iiowire-board [--maps] [FILE]\n"
		"       iiowire-board --list-drivers | --version | --help\n"
		"Load a board file and print every IIO device and attribute as\n"
		"  grep . " IIOWIRE_BOARD_SYSFS_DIR "/iio:device*/*\n"
		"would on a kernel with the same chips (lines starting with '#' describe\n"
		"a device). With --maps, print the channel maps and every consumer's\n"
		"channels instead. With --list-drivers, print every chip name a board\n"
		"file may give as \"driver\": name, driver, bus.\n"
		"FILE defaults to %s\n"
		"($IIOWIRE_MAPS_DIR/demo.json when that is set).\n"
		"Exit status: 0 shown, 1 an attribute could not be read, 2 bad board.\n", path);
}

static const char *iiowire_board_or_none(const char *s)
{
	return s && s[0] ? s : "(none)";
}

static int iiowire_board_cmp_attr(const void *a, const void *b)
{
	const struct iio_attr *const *x = a, *const *y = b;

	/* the shell sorts a glob bytewise under LC_COLLATE=C */
	return strcmp((*x)->name, (*y)->name);
}

static int iiowire_board_cmp_dev(const void *a, const void *b)
{
	char x[32], y[32];

	snprintf(x, sizeof(x), "iio:device%d", iio_device_id(*(struct iio_dev *const *)a));
	snprintf(y, sizeof(y), "iio:device%d", iio_device_id(*(struct iio_dev *const *)b));
	return strcmp(x, y);
}

/* Print one attribute as grep prints a file: each non-empty line as "PATH:line". */
static int iiowire_board_show_attr(struct iio_dev *dev, const struct iio_attr *attr)
{
	char path[256], buf[IIO_VALUE_MAX_BYTES + 1];
	const char *line, *nl;
	ssize_t n;

	snprintf(path, sizeof(path), IIOWIRE_BOARD_SYSFS_DIR "/iio:device%d/%s",
		 iio_device_id(dev), attr->name);
	if (!(attr->mode & 0444)) {
		fprintf(stderr, "iiowire-board: %s: %s\n", path, strerror(EACCES));
		return 0;	/* grep would fail too: the file is write-only, not broken */
	}
	n = iio_attr_read(dev, attr, buf, sizeof(buf));
	if (n < 0) {
		fprintf(stderr, "iiowire-board: %s: %s\n", path, strerror((int)-n));
		return -1;
	}
	buf[n] = '\0';
	for (line = buf; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		if (nl == line)
			continue;
		printf("%s:%.*s\n", path, nl ? (int)(nl - line) : (int)strlen(line), line);
	}
	return 0;
}

static int iiowire_board_show_devices(const struct board *b)
{
	int ndev = iio_registry_count(b->reg), i, j, nattr, failed = 0;
	const struct iio_attr **attrs;
	struct iio_dev **devs;

	devs = calloc((size_t)ndev + 1, sizeof(*devs));
	if (!devs)
		return -ENOMEM;
	for (i = 0; i < ndev; i++)
		devs[i] = iio_registry_at(b->reg, i);
	qsort(devs, (size_t)ndev, sizeof(*devs), iiowire_board_cmp_dev);
	for (i = 0; i < ndev; i++) {
		struct iio_dev *d = devs[i];

		printf("# iio:device%d: name %s, label %s, hwid %s\n", iio_device_id(d),
		       iiowire_board_or_none(d->name), iiowire_board_or_none(d->label),
		       iiowire_board_or_none(d->hwid));
		nattr = iio_device_attr_count(d);
		attrs = calloc((size_t)nattr + 1, sizeof(*attrs));
		if (!attrs) {
			free(devs);
			return -ENOMEM;
		}
		for (j = 0; j < nattr; j++)
			attrs[j] = iio_device_attr_at(d, j);
		qsort(attrs, (size_t)nattr, sizeof(*attrs), iiowire_board_cmp_attr);
		for (j = 0; j < nattr; j++) {
			/* events/... live in a subdirectory, which the glob does not enter */
			if (strchr(attrs[j]->name, '/'))
				continue;
			if (iiowire_board_show_attr(d, attrs[j]))
				failed = 1;
		}
		free(attrs);
	}
	free(devs);
	return failed;
}

static void iiowire_board_show_channel(struct iio_channel *ch)
{
	enum iio_chan_type type;
	const char *tname = "?";
	int raw, processed, ret;

	if (iio_get_channel_type(ch, &type) == 0 && iio_chan_type_name(type))
		tname = iio_chan_type_name(type);
	printf("  %s: %s of iio:device%d (%s), %s", iiowire_board_or_none(ch->consumer_channel),
	       ch->provider_label, iio_device_id(ch->indio_dev),
	       iiowire_board_or_none(ch->indio_dev->hwid[0] ? ch->indio_dev->hwid :
				     ch->indio_dev->name), tname);
	ret = iio_read_channel_raw(ch, &raw);
	if (ret >= 0)
		printf(", raw %d", raw);
	else if (ret != -EINVAL)
		printf(", raw: %s", strerror(-ret));
	ret = iio_read_channel_processed(ch, &processed);
	if (ret >= 0)
		printf(", processed %d\n", processed);
	else
		printf(", processed: %s\n", strerror(-ret));
}

static int iiowire_board_show_maps(const struct board *b)
{
	int n = iio_registry_map_count(b->reg), i, j, ret;
	const struct iio_map *m, *prev;
	struct iio_channel *chans, *c;
	struct iio_dev *prov;
	bool seen;

	printf("# maps: consumer channel -> provider channel\n");
	for (i = 0; i < n; i++) {
		m = iio_registry_map_at(b->reg, i, &prov);
		printf("maps[%d]: %s %s -> %s %s (iio:device%d, %s)\n", i, m->consumer_dev_name,
		       m->consumer_channel, m->adc_dev_name, m->adc_channel_label,
		       iio_device_id(prov), iiowire_board_or_none(prov->name));
	}
	printf("# consumers: what iio_channel_get_all() gives each\n");
	for (i = 0; i < n; i++) {
		m = iio_registry_map_at(b->reg, i, NULL);
		seen = false;
		for (j = 0; j < i && !seen; j++) {
			prev = iio_registry_map_at(b->reg, j, NULL);
			seen = strcmp(prev->consumer_dev_name, m->consumer_dev_name) == 0;
		}
		if (seen)
			continue;
		ret = iio_channel_get_all(b->reg, m->consumer_dev_name, &chans);
		if (ret) {
			printf("%s: %s\n", m->consumer_dev_name, strerror(-ret));
			continue;
		}
		printf("%s:\n", m->consumer_dev_name);
		for (c = chans; c->indio_dev; c++)
			iiowire_board_show_channel(c);
		iio_channel_release_all(chans);
	}
	return 0;
}

int main(int argc, char **argv)
{
	char err[BOARD_ERR_MAX], dflt[4096];
	const char *file = NULL;
	bool maps = false;
	struct board *b;
	int i, pos, ret;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--maps") == 0) {
			maps = true;
		} else if (strcmp(argv[i], "--list-drivers") == 0) {
			ret = iio_driver_list_print(stdout);
			return ret < 0 ? IIOWIRE_BOARD_EXIT_BOARD : IIOWIRE_BOARD_EXIT_OK;
		} else if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
			printf("iiowire-board %s\n", IIOWIRE_VERSION);
			return IIOWIRE_BOARD_EXIT_OK;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			iiowire_board_usage(stdout);
			return IIOWIRE_BOARD_EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "iiowire-board: unknown option %s\n", argv[i]);
			iiowire_board_usage(stderr);
			return IIOWIRE_BOARD_EXIT_BOARD;
		} else if (!file) {
			file = argv[i];
		} else {
			iiowire_board_usage(stderr);
			return IIOWIRE_BOARD_EXIT_BOARD;
		}
	}
	if (!file) {
		if (board_default_path(dflt, sizeof(dflt)) < 0) {
			fprintf(stderr, "iiowire-board: default board path too long\n");
			return IIOWIRE_BOARD_EXIT_BOARD;
		}
		file = dflt;
	}
	b = board_load(file, err, sizeof(err));
	if (!b) {
		fprintf(stderr, "%s\n", err[0] ? err : file);
		return IIOWIRE_BOARD_EXIT_BOARD;
	}
	/* what loaded but is probably a mistake: on stderr, before the listing */
	for (pos = 0; board_note(b, &pos, err, sizeof(err)) > 0;)
		fprintf(stderr, "%s: warning: %s\n", file, err);
	ret = maps ? iiowire_board_show_maps(b) : iiowire_board_show_devices(b);
	board_destroy(b);
	if (ret < 0) {
		fprintf(stderr, "iiowire-board: %s\n", strerror(-ret));
		return IIOWIRE_BOARD_EXIT_BOARD;
	}
	return ret ? IIOWIRE_BOARD_EXIT_READ : IIOWIRE_BOARD_EXIT_OK;
}
