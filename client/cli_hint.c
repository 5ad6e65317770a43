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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_hint.h"
#include "iio_near.h"

/*
 * The name nearest to @typed among @n listing entries of @size bytes, each
 * with strings at the @noffs offsets @offs ("" entries skipped). The
 * listing is libiiowire's (an owned array, freed by the caller).
 * Return: whether one was near (then in @buf).
 */
static bool cli_hint_pick(const char *typed, const void *items, int n, size_t size,
			  const size_t *offs, size_t noffs, char *buf, size_t len)
{
	const char **cands, *s, *near = NULL;
	size_t i, k;

	if (n <= 0)
		return false;
	cands = calloc((size_t)n * noffs, sizeof(*cands));
	if (!cands)
		return false;
	for (i = 0; i < (size_t)n; i++)
		for (k = 0; k < noffs; k++) {
			s = *(const char *const *)((const char *)items + i * size + offs[k]);
			cands[i * noffs + k] = s && *s ? s : NULL;
		}
	near = iio_name_nearest(typed, cands, (size_t)n * noffs);
	if (near)
		snprintf(buf, len, "%s", near);
	free(cands);
	return near != NULL;
}

/*
 * The device name (id, name, label, hardware id) near @typed; none when @typed
 * names one, or is itself an id ("iio:device42": its number is a choice, not
 * a typo, and iio:device4 would be another device, not the one meant).
 */
static bool cli_hint_device(struct iiowire *w, const char *typed, char *buf, size_t len)
{
	static const size_t offs[] = {
		offsetof(struct iiowire_device, id), offsetof(struct iiowire_device, name),
		offsetof(struct iiowire_device, label), offsetof(struct iiowire_device, hwid),
	};
	struct iiowire_device *d = NULL;
	int num, end = 0, n;
	bool found;

	if (sscanf(typed, "iio:device%d%n", &num, &end) == 1 && typed[end] == '\0')
		return false;
	n = iiowire_device_list(w, &d);
	found = cli_hint_pick(typed, d, n, sizeof(*d), offs, sizeof(offs) / sizeof(offs[0]), buf,
			      len);

	iiowire_free(d);
	return found;
}

/* The attribute of @device near @typed. */
static bool cli_hint_attr(struct iiowire *w, const char *device, const char *typed, char *buf,
			  size_t len)
{
	static const size_t offs[] = { offsetof(struct iiowire_attr, name) };
	struct iiowire_attr *a = NULL;
	int n = iiowire_attr_list(w, device, &a);
	bool found = cli_hint_pick(typed, a, n, sizeof(*a), offs, 1, buf, len);

	iiowire_free(a);
	return found;
}

/* The consumer (of the maps) near @typed. */
static bool cli_hint_consumer(struct iiowire *w, const char *typed, char *buf, size_t len)
{
	static const size_t offs[] = { offsetof(struct iiowire_map, consumer) };
	struct iiowire_map *m = NULL;
	int n = iiowire_map_list(w, &m);
	bool found = cli_hint_pick(typed, m, n, sizeof(*m), offs, 1, buf, len);

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
	/*
	 * The device is the first word that is not an option or its number (watch,
	 * monitor and capture take options first); one that names a device (its
	 * file gone, not it) gets no hint
	 */
	for (i = 0; i < argc; i++)
		if (argv[i][0] != '-' && strspn(argv[i], "0123456789") != strlen(argv[i]))
			return cli_hint_device(w, argv[i], buf, len);
	return false;
}
