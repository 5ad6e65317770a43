/*
 * iio_near.h - how near a typed name is to a known one, for "did you mean"
 * hints: the board loader (chip names, board-file keys) and the command line
 * (devices, attributes, commands) give the same suggestions by one rule.
 * Part of the ABI leaf because both sides link it; it depends on libc only.
 */
#ifndef IIOWIRE_IIO_NEAR_H
#define IIOWIRE_IIO_NEAR_H

#include <stddef.h>

/*
 * Names this long or longer are never near anything: the distance row is on
 * the stack. Sysfs attribute names stay below it
 * ("in_voltage0-voltage1_thresh_rising_hysteresis" is 46 bytes).
 */
#define IIO_NEAR_NAME_MAX_BYTES		64
/* A candidate this many edits away or fewer is near. */
#define IIO_NEAR_EDITS_MAX		2
/* A typed prefix of a candidate is near when at least this long ("ad799"). */
#define IIO_NEAR_PREFIX_MIN_BYTES	3

/**
 * iio_name_edits() - the Levenshtein distance of two short names.
 * Return: the number of edits, or -1 when either is IIO_NEAR_NAME_MAX_BYTES
 * long or longer.
 */
int iio_name_edits(const char *a, const char *b);

/**
 * iio_name_nearness() - how near @cand is to the typed @name, smaller is
 * nearer: twice the edit distance when that is at most IIO_NEAR_EDITS_MAX,
 * one more than the farthest of those when @name is a prefix of @cand of
 * IIO_NEAR_PREFIX_MIN_BYTES or more.
 * Return: the nearness (>= 0), or -1 when @cand is not near at all.
 */
int iio_name_nearness(const char *name, const char *cand);

/** The largest nearness iio_name_nearness() returns. */
#define IIO_NEAR_FARTHEST		(2 * IIO_NEAR_EDITS_MAX + 1)

/**
 * iio_name_nearest() - the nearest of @n candidates to the typed @name (the
 * first of equally near ones); NULL entries are skipped.
 * Return: borrowed: one of @cands, or NULL when none is near or one equals
 * @name (nothing to suggest).
 */
const char *iio_name_nearest(const char *name, const char *const *cands, size_t n);

#endif /* IIOWIRE_IIO_NEAR_H */
