/*
 * emu_signal.c - the analog inputs of emulated chips: constant, sine, ramp,
 * seeded noise and CSV traces, sampled on a bus's virtual clock, and the
 * pin of an emulated DAC (a board's closed loop).
 *
 * Place in the flow: *signal* -> chip model -> emulated bus -> driver. A
 * model asks for its input's value at "now" when the driver starts a
 * conversion; the same signal and time always give the same value (noise
 * included: it is a hash of the seed and the millisecond, not a random
 * stream), so tests can predict readings. Signals know no chip, no unit and
 * no clock; they never saturate or quantise - that is the model's job.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"

/* Longest CSV line we accept, in bytes (a "t,value" line is a few dozen). */
#define EMU_CSV_LINE_MAX_BYTES	256
/* Most points in one CSV trace. */
#define EMU_CSV_POINTS_MAX	1000000

/* splitmix64's finaliser: a well-mixed 64-bit hash of one word. */
static uint64_t emu_signal_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A uniform in (0, 1] from 53 hash bits; never 0, so log() is safe. */
static double emu_signal_unit(uint64_t h)
{
	return ((double)(h >> 11) + 1.0) / 9007199254740992.0;
}

/*
 * Gaussian noise, one value per millisecond of virtual time: the
 * (seed, millisecond) pair is hashed into two uniforms and Box-Muller turns
 * them into a standard normal, so any t is reproducible without state.
 */
static double emu_signal_noise(const struct emu_signal *sig, double t_s)
{
	int64_t ms = (int64_t)floor(t_s * 1000.0);
	uint64_t h1 = emu_signal_mix(sig->seed ^ emu_signal_mix((uint64_t)ms));
	uint64_t h2 = emu_signal_mix(h1);
	double u1 = emu_signal_unit(h1), u2 = emu_signal_unit(h2);

	return sig->offset + sig->amplitude * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* Linear interpolation of the trace, looped over its duration. O(log n). */
static double emu_signal_csv(const struct emu_signal *sig, double t_s)
{
	const double *t = sig->csv_t, *v = sig->csv_v;
	int n = sig->csv_n, lo, hi;
	double span, x, f;

	if (n <= 0 || !t || !v)
		return 0.0;
	span = t[n - 1] - t[0];
	if (n == 1 || span <= 0)
		return v[0];
	x = fmod(t_s - t[0], span);
	if (x < 0)
		x += span;
	x += t[0];
	/* find lo with t[lo] <= x < t[lo + 1] */
	lo = 0;
	hi = n - 1;
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if (t[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	f = (x - t[lo]) / (t[hi] - t[lo]);
	return v[lo] + f * (v[hi] - v[lo]);
}

/*
 * A DAC's pin now, whatever the time asked: the wire carries what the DAC
 * drives at the moment the ADC converts. A DAC that went away reads 0 mV.
 */
static double emu_signal_dac_mv(const struct emu_signal *sig)
{
	struct emu_dac_state s;
	int ret;

	if (sig->dac_same_bus)
		ret = emu_bus_dac_output_locked(sig->dac_bus, sig->dac_addr, sig->dac_channel, &s);
	else
		ret = emu_bus_dac_output(sig->dac_bus, sig->dac_addr, sig->dac_channel, &s);
	return ret ? 0.0 : s.mv;
}

/**
 * emu_signal_sample() - the signal's value at @t_s seconds of virtual time.
 * A periodic signal with a period <= 0 stays at its offset.
 * Return: the value in the input's unit.
 */
bool emu_signal_timed(const struct emu_signal *sig)
{
	return sig && sig->kind != EMU_SIGNAL_CONST;
}

double emu_signal_sample(const struct emu_signal *sig, double t_s)
{
	double x;

	if (!sig)
		return 0.0;
	switch (sig->kind) {
	case EMU_SIGNAL_CONST:
		return sig->value;
	case EMU_SIGNAL_SINE:
		if (sig->period_s <= 0)
			return sig->offset;
		return sig->offset +
		       sig->amplitude * sin(2.0 * M_PI * (t_s / sig->period_s) + sig->phase);
	case EMU_SIGNAL_RAMP:
		if (sig->period_s <= 0)
			return sig->offset;
		x = fmod(t_s, sig->period_s);
		if (x < 0)
			x += sig->period_s;
		return sig->offset + sig->amplitude * (x / sig->period_s);
	case EMU_SIGNAL_NOISE:
		return emu_signal_noise(sig, t_s);
	case EMU_SIGNAL_CSV:
		return emu_signal_csv(sig, t_s);
	case EMU_SIGNAL_DAC:
		return emu_signal_dac_mv(sig);
	}
	return 0.0;
}

/* Parse "t,value" with optional blanks; 0 or -EINVAL. */
static int emu_signal_parse_pair(const char *line, double *t, double *v)
{
	char *end;

	*t = strtod(line, &end);
	if (end == line)
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end != ',')
		return -EINVAL;
	line = end + 1;
	*v = strtod(line, &end);
	if (end == line)
		return -EINVAL;
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	if (*end != '\0' || !isfinite(*t) || !isfinite(*v))
		return -EINVAL;
	return 0;
}

/* Append one point, growing the arrays geometrically. */
static int emu_signal_push(double **t, double **v, int *n, int *cap, double tv, double vv)
{
	double *nt, *nv;
	int ncap;

	if (*n == *cap) {
		if (*cap >= EMU_CSV_POINTS_MAX)
			return -EFBIG;
		ncap = *cap ? *cap * 2 : 64;
		nt = realloc(*t, (size_t)ncap * sizeof(double));
		if (!nt)
			return -ENOMEM;
		*t = nt;
		nv = realloc(*v, (size_t)ncap * sizeof(double));
		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	(*t)[*n] = tv;
	(*v)[*n] = vv;
	(*n)++;
	return 0;
}

/* A trace being read: its points so far, and whether a caption may still come. */
struct emu_csv_trace {
	const char *path;
	double *t, *v;
	int n, cap;
	bool header_ok;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int emu_csv_err(struct emu_csv_trace *tr, int ret, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (tr->err && tr->errlen)
		snprintf(tr->err, tr->errlen, "%s%s", tr->path, msg);
	return ret;
}

/* One line of the file (without checking its length). Return: 0 or -errno, message set. */
static int emu_csv_line(struct emu_csv_trace *tr, const char *line, int lineno)
{
	const char *p = line;
	double tv, vv;
	int ret;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
		return 0;
	if (emu_signal_parse_pair(p, &tv, &vv) < 0) {
		/* a "t,value" caption is fine once, before any point */
		if (tr->header_ok && !strpbrk(p, "0123456789")) {
			tr->header_ok = false;
			return 0;
		}
		return emu_csv_err(tr, -EINVAL, ":%d: expected \"t,value\" numbers", lineno);
	}
	tr->header_ok = false;
	if (tr->n && tv <= tr->t[tr->n - 1])
		return emu_csv_err(tr, -EINVAL, ":%d: time %g does not follow %g", lineno, tv,
				   tr->t[tr->n - 1]);
	ret = emu_signal_push(&tr->t, &tr->v, &tr->n, &tr->cap, tv, vv);
	if (ret < 0)
		return emu_csv_err(tr, ret, ":%d: %s", lineno, strerror(-ret));
	return 0;
}

/* Every line of @f into @tr. Return: 0 or -errno, message set. */
static int emu_csv_read(struct emu_csv_trace *tr, FILE *f)
{
	char line[EMU_CSV_LINE_MAX_BYTES];
	int lineno = 0, ret;

	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			return emu_csv_err(tr, -EINVAL, ":%d: line longer than %d bytes", lineno,
					   EMU_CSV_LINE_MAX_BYTES - 2);
		ret = emu_csv_line(tr, line, lineno);
		if (ret < 0)
			return ret;
	}
	if (ferror(f))
		return emu_csv_err(tr, -EIO, ": read error");
	if (tr->n == 0)
		return emu_csv_err(tr, -EINVAL, ":%d: no \"t,value\" points", lineno);
	return 0;
}

/**
 * emu_signal_load_csv() - make @sig a CSV trace from the "t,value" lines of
 * @path ('#' starts a comment, blank lines are skipped, one header line of
 * non-numbers may come first, times must increase strictly).
 * @err: filled with "PATH:LINE: problem" on failure.
 * Return: 0 with @sig's arrays owned by @sig (emu_signal_fini()), or -errno
 * (-ENOENT and friends from opening, -EINVAL for a bad line or an empty
 * trace); on failure @sig is unchanged.
 */
int emu_signal_load_csv(struct emu_signal *sig, const char *path, char *err, size_t errlen)
{
	struct emu_csv_trace tr = {
		.path = path, .header_ok = true, .err = err, .errlen = errlen,
	};
	FILE *f;
	int ret;

	if (!sig || !path)
		return -EINVAL;
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		return emu_csv_err(&tr, ret, ": %s", strerror(-ret));
	}
	ret = emu_csv_read(&tr, f);
	fclose(f);
	if (ret < 0) {
		free(tr.t);
		free(tr.v);
		return ret;
	}
	emu_signal_fini(sig);
	sig->kind = EMU_SIGNAL_CSV;
	sig->csv_t = tr.t;
	sig->csv_v = tr.v;
	sig->csv_n = tr.n;
	return 0;
}

/**
 * emu_signal_copy() - make @dst a deep copy of @src (CSV arrays included),
 * for models that keep the inputs they were created with.
 * Return: 0 with @dst owning its arrays (emu_signal_fini()), or -ENOMEM
 * with @dst zeroed.
 */
int emu_signal_copy(struct emu_signal *dst, const struct emu_signal *src)
{
	size_t bytes;

	*dst = *src;
	dst->csv_t = NULL;
	dst->csv_v = NULL;
	dst->csv_n = 0;
	if (src->kind == EMU_SIGNAL_DAC && !src->dac_same_bus)
		bus_get(src->dac_bus);
	if (src->kind != EMU_SIGNAL_CSV || src->csv_n <= 0 || !src->csv_t || !src->csv_v)
		return 0;
	bytes = (size_t)src->csv_n * sizeof(double);
	dst->csv_t = malloc(bytes);
	dst->csv_v = malloc(bytes);
	if (!dst->csv_t || !dst->csv_v) {
		free(dst->csv_t);
		free(dst->csv_v);
		memset(dst, 0, sizeof(*dst));
		return -ENOMEM;
	}
	memcpy(dst->csv_t, src->csv_t, bytes);
	memcpy(dst->csv_v, src->csv_v, bytes);
	dst->csv_n = src->csv_n;
	return 0;
}

int emu_signal_dac(struct emu_signal *sig, struct bus *bus, uint16_t addr, int channel,
		   const struct bus *reader_bus)
{
	struct emu_dac_state s;
	int ret;

	ret = emu_bus_dac_output(bus, addr, channel, &s);
	if (ret)
		return ret;
	emu_signal_fini(sig);
	memset(sig, 0, sizeof(*sig));
	sig->kind = EMU_SIGNAL_DAC;
	sig->dac_addr = addr;
	sig->dac_channel = channel;
	/* no reference on the reader's own bus: the bus would hold itself */
	sig->dac_same_bus = bus == reader_bus;
	sig->dac_bus = sig->dac_same_bus ? bus : bus_get(bus);
	return 0;
}

/* emu_signal_fini() - partner of emu_signal_load_csv()/_copy()/_dac(); NULL-safe. */
void emu_signal_fini(struct emu_signal *sig)
{
	if (!sig)
		return;
	if (sig->kind == EMU_SIGNAL_DAC && !sig->dac_same_bus)
		bus_put(sig->dac_bus);
	sig->dac_bus = NULL;
	free(sig->csv_t);
	free(sig->csv_v);
	sig->csv_t = NULL;
	sig->csv_v = NULL;
	sig->csv_n = 0;
}
