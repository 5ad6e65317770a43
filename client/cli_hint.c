/*
 * cli_hint.c - "did you mean" after a command line's ENODEV or ENOENT:
 * `iiowire read max136 in_voltage0_raw` says which device is near "max136".
 *
 * Place in the flow: cli.c (a failed command) -> *cli_hint.c* -> libiiowire
 * listings (DEVICES, ATTRS, MAPS) -> the ABI leaf's iio_name_nearest(), the
 * rule the board loader suggests chip names by, so both answer alike. Runs
 * only after a failure, so its extra requests cost nothing on success; it
 * prints nothing (cli.c does, escaped) and a failed listing means no hint.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_hint.h"
#include "iio_near.h"

/* Each device's four names: id, name, label, hardware id. */
#define CLI_HINT_DEVICE_NAMES	4

/* @near (or nothing) into @buf. Return: whether there was one. */
static bool cli_hint_put(const char *near, char *buf, size_t len)
{
	if (!near)
		return false;
	snprintf(buf, len, "%s", near);
	return true;
}

/* The device name near @typed; none when @typed names a device. */
static bool cli_hint_device(struct iiowire *w, const char *typed, char *buf, size_t len)
{
	struct iiowire_device *d = NULL;
	const char **cands;
	bool found = false;
	int i, n = iiowire_device_list(w, &d);

	if (n <= 0)
		return false;
	cands = calloc((size_t)n * CLI_HINT_DEVICE_NAMES, sizeof(*cands));
	for (i = 0; cands && i < n; i++) {
		cands[CLI_HINT_DEVICE_NAMES * i] = d[i].id;
		cands[CLI_HINT_DEVICE_NAMES * i + 1] = d[i].name;
		cands[CLI_HINT_DEVICE_NAMES * i + 2] = *d[i].label ? d[i].label : NULL;
		cands[CLI_HINT_DEVICE_NAMES * i + 3] = *d[i].hwid ? d[i].hwid : NULL;
	}
	if (cands)
		found = cli_hint_put(iio_name_nearest(typed, cands,
						      (size_t)n * CLI_HINT_DEVICE_NAMES), buf, len);
	free(cands);
	iiowire_free(d);
	return found;
}

/* The attribute of @device near @typed. */
static bool cli_hint_attr(struct iiowire *w, const char *device, const char *typed, char *buf,
			  size_t len)
{
	struct iiowire_attr *a = NULL;
	const char **cands;
	bool found = false;
	int i, n = iiowire_attr_list(w, device, &a);

	if (n <= 0)
		return false;
	cands = calloc((size_t)n, sizeof(*cands));
	for (i = 0; cands && i < n; i++)
		cands[i] = a[i].name;
	if (cands)
		found = cli_hint_put(iio_name_nearest(typed, cands, (size_t)n), buf, len);
	free(cands);
	iiowire_free(a);
	return found;
}

/* The consumer (of the maps) near @typed. */
static bool cli_hint_consumer(struct iiowire *w, const char *typed, char *buf, size_t len)
{
	struct iiowire_map *m = NULL;
	const char **cands;
	bool found = false;
	int i, n = iiowire_map_list(w, &m);

	if (n <= 0)
		return false;
	cands = calloc((size_t)n, sizeof(*cands));
	for (i = 0; cands && i < n; i++)
		cands[i] = m[i].consumer;
	if (cands)
		found = cli_hint_put(iio_name_nearest(typed, cands, (size_t)n), buf, len);
	free(cands);
	iiowire_free(m);
	return found;
}

bool cli_hint_find(struct iiowire *w, const char *cmd, int argc, char **argv, int err,
		   char *buf, size_t len)
{
	int i;

	if (len)
		buf[0] = '\0';
	if (!w || argc < 1)
		return false;
	if (!strcmp(cmd, "consumer") || !strcmp(cmd, "cread"))
		return err == -ENODEV && cli_hint_consumer(w, argv[0], buf, len);
	/* read and write name DEVICE ATTR: their ENOENT is the attribute's */
	if (err == -ENOENT && argc >= 2 && (!strcmp(cmd, "read") || !strcmp(cmd, "write")))
		return cli_hint_attr(w, argv[0], argv[1], buf, len);
	if (err != -ENODEV)
		return false;
	/* watch, monitor and capture take options first: the first word near a device */
	for (i = 0; i < argc; i++)
		if (argv[i][0] != '-' && cli_hint_device(w, argv[i], buf, len))
			return true;
	return false;
}
