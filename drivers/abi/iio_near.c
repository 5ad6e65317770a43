/*
 * iio_near.c - "did you mean": edit distance and nearness of short names
 * (see iio_near.h). One rule for every hint the tree gives, so the board
 * loader and the command line suggest alike. Pure computation: no
 * allocation, no I/O.
 */
#include <string.h>

#include "iio_near.h"

int iio_name_edits(const char *a, const char *b)
{
	int row[IIO_NEAR_NAME_MAX_BYTES + 1];
	size_t i, j, la = strlen(a), lb = strlen(b);
	int diag, up;

	if (la >= IIO_NEAR_NAME_MAX_BYTES || lb >= IIO_NEAR_NAME_MAX_BYTES)
		return -1;
	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

int iio_name_nearness(const char *name, const char *cand)
{
	int d = iio_name_edits(name, cand);

	if (d >= 0 && d <= IIO_NEAR_EDITS_MAX)
		return 2 * d;
	/* "ad799" means one of the ad799x parts: a long enough prefix is near */
	if (strlen(name) >= IIO_NEAR_PREFIX_MIN_BYTES && strlen(cand) < IIO_NEAR_NAME_MAX_BYTES &&
	    strncmp(cand, name, strlen(name)) == 0)
		return IIO_NEAR_FARTHEST;
	return -1;
}

const char *iio_name_nearest(const char *name, const char *const *cands, size_t n)
{
	const char *best = NULL;
	int d, bestd = IIO_NEAR_FARTHEST + 1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!cands[i])
			continue;
		d = iio_name_nearness(name, cands[i]);
		if (d == 0)
			return NULL;
		if (d > 0 && d < bestd) {
			best = cands[i];
			bestd = d;
		}
	}
	return best;
}
