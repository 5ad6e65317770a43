/*
 * bench_hist.h - the latency histogram of the benchmark tools (iiowire-bench,
 * stream-bench): log-linear buckets, 64 per doubling, values in ns, and
 * quantiles read from them.
 *
 * Header-only and libc-only, so every bench/ program includes it by path and
 * builds with a bare cc. The tools measure; nothing here judges a figure.
 */
#ifndef IIOWIRE_BENCH_HIST_H
#define IIOWIRE_BENCH_HIST_H

#include <stdint.h>

/* values in ns, 64 sub-buckets per power of two up to 2^40 ns (18 min) */
#define BENCH_SUB_BITS		6
#define BENCH_SUB		(1 << BENCH_SUB_BITS)
#define BENCH_OCTAVES		41
#define BENCH_BUCKETS		(BENCH_OCTAVES * BENCH_SUB)

struct bench_hist {
	uint64_t count[BENCH_BUCKETS];
	uint64_t n;
	uint64_t max;
};

static inline int bench_bucket(uint64_t v)
{
	int octave = 0;

	/* values below BENCH_SUB are exact; above, 64 buckets per doubling */
	while ((v >> octave) >= 2 * BENCH_SUB && octave < BENCH_OCTAVES - 2)
		octave++;
	if (v < BENCH_SUB)
		return (int)v;
	return (octave + 1) * BENCH_SUB + (int)((v >> octave) - BENCH_SUB);
}

/* The lowest value a bucket holds (its upper end is the next bucket's). */
static inline uint64_t bench_bucket_value(int b)
{
	int octave = b / BENCH_SUB - 1;

	if (b < BENCH_SUB)
		return (uint64_t)b;
	return ((uint64_t)(b % BENCH_SUB) + BENCH_SUB) << octave;
}

static inline void bench_hist_add(struct bench_hist *h, uint64_t v)
{
	int b = bench_bucket(v);

	if (b >= BENCH_BUCKETS)
		b = BENCH_BUCKETS - 1;
	h->count[b]++;
	h->n++;
	if (v > h->max)
		h->max = v;
}

/* The value at quantile @q (0..1), in ns: the middle of its bucket. */
static inline double bench_hist_q(const struct bench_hist *h, double q)
{
	uint64_t want = (uint64_t)(q * (double)h->n), seen = 0;
	int b;

	if (!h->n)
		return 0;
	if (want >= h->n)
		want = h->n - 1;
	for (b = 0; b < BENCH_BUCKETS; b++) {
		seen += h->count[b];
		if (seen > want) {
			uint64_t lo = bench_bucket_value(b), hi = bench_bucket_value(b + 1);

			return b + 1 < BENCH_BUCKETS ? (double)(lo + hi) / 2 : (double)lo;
		}
	}
	return (double)h->max;
}

#endif /* IIOWIRE_BENCH_HIST_H */
