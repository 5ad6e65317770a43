/*
 * iio_value.c - the one place where IIO values become text and text becomes
 * values, plus the raw -> processed arithmetic of the consumer interface.
 *
 * Place in the flow: driver read_raw (type, ints) -> *this formatter* -> core
 * attribute text -> server/wire; and wire/user text -> *this parser* ->
 * (val, val2) -> driver write_raw. The client library links the same code, so
 * both ends of the wire agree to the digit.
 *
 * Every rule, quirk included, follows the kernel's sysfs ABI as summed up in
 * reference/kernel-iio-facts.md sections 2 and 3.2 (industrialio-core.c,
 * inkern.c, lib/kstrtox.c). Pure functions: no allocation, no I/O, no
 * locking, no logging. On error, outputs are left untouched. Part of the
 * leaf library (drivers/abi/): it includes nothing of the tree but iio_types.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "iio_value.h"

#define IIO_VALUE_MICRO		1000000LL
#define IIO_VALUE_NANO		1000000000LL

/*
 * Arithmetic helpers. The kernel is built with wrapping signed overflow and
 * relies on it in a few corners (abs(INT_MIN), huge multipliers); C does not
 * allow that, so we wrap explicitly through unsigned types.
 */
static int64_t iio_value_mul64(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* Store an s64 into an int the way the kernel's implicit conversion does (mod 2^32). */
static int iio_value_trunc32(int64_t v)
{
	return (int)(uint32_t)(uint64_t)v;
}

/* |v| for an int, computed in 32 bits: abs(INT_MIN) stays INT_MIN as in the kernel. */
static int iio_value_abs32(int v)
{
	return v < 0 ? (int)(0u - (unsigned int)v) : v;
}

/* Truncating s64 division that does not trap on INT64_MIN / -1 (wraps instead). */
static int64_t iio_value_div64(int64_t a, int64_t b)
{
	if (b == -1)
		return (int64_t)(0ull - (uint64_t)a);
	return a / b;
}

/*
 * Shift counts outside 0..width-1 are undefined in C; the kernel leaves them
 * to the CPU, and x86-64 masks the count to the operand width. We do the same
 * so a bogus val2 gives the kernel's x86 answer instead of undefined behaviour.
 */
static int64_t iio_value_sar64(int64_t v, int shift)
{
	return v >> (shift & 63);
}

/* The formatter's sign-symmetric shift: rounds toward zero, unlike >>. */
static int64_t iio_value_shift_toward_zero(int64_t v, int shift)
{
	if (v < 0)
		return -(int64_t)((uint64_t)(0ull - (uint64_t)v) >> (shift & 63));
	return v >> (shift & 63);
}

static int64_t iio_value_s64_from_pair(int lo, int hi)
{
	return (int64_t)(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo);
}

static void iio_value_s64_to_pair(int64_t v, int *lo, int *hi)
{
	*lo = (int)(uint32_t)(uint64_t)v;
	*hi = (int)(uint32_t)((uint64_t)v >> 32);
}

static int64_t iio_value_pow10(int digits)
{
	int64_t p = 1;

	while (digits-- > 0)
		p *= 10;
	return p;
}

/*
 * Output cursor. @cap is the usable size including the NUL; once a write
 * does not fit, @overflow sticks and later writes are dropped.
 */
struct iio_value_out {
	char *buf;
	size_t cap;
	size_t len;
	bool overflow;
};

static void iio_value_out_init(struct iio_value_out *o, char *buf, size_t len)
{
	o->buf = buf;
	o->cap = len < IIO_VALUE_MAX_BYTES ? len : IIO_VALUE_MAX_BYTES;
	o->len = 0;
	o->overflow = false;
	if (o->cap)
		buf[0] = '\0';
}

__attribute__((format(printf, 2, 3)))
static void iio_value_emit(struct iio_value_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->cap > o->len ? o->cap - o->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0 || o->len + (size_t)n + 1 > o->cap) {
		o->overflow = true;
		if (o->cap)
			o->buf[o->len] = '\0';
		return;
	}
	o->len += (size_t)n;
}

/*
 * A signed decimal without printf: INT is what nearly every READ formats,
 * and vsnprintf's parsing was a tenth of the daemon's time per request.
 */
static void iio_value_emit_int(struct iio_value_out *o, int64_t v)
{
	char tmp[24];
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	int i = (int)sizeof(tmp);
	size_t n;

	if (o->overflow)
		return;
	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	n = sizeof(tmp) - (size_t)i;
	if (o->len + n + 1 > o->cap) {
		o->overflow = true;
		if (o->cap)
			o->buf[o->len] = '\0';
		return;
	}
	memcpy(o->buf + o->len, tmp + i, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/* One raw byte, NUL included: "%c" of 0 still counts one character in the kernel. */
static void iio_value_emit_byte(struct iio_value_out *o, unsigned char c)
{
	if (o->overflow)
		return;
	if (o->len + 2 > o->cap) {
		o->overflow = true;
		return;
	}
	o->buf[o->len++] = (char)c;
	o->buf[o->len] = '\0';
}

/* Integer part and 9 decimals of a value already scaled by 1e9 (FRACTIONAL, LOG2). */
static void iio_value_emit_nano(struct iio_value_out *o, int64_t scaled)
{
	int whole = iio_value_trunc32(scaled / IIO_VALUE_NANO);
	int64_t rem = scaled % IIO_VALUE_NANO;
	unsigned int frac = (unsigned int)(rem < 0 ? -rem : rem);

	/* "-0." must be spelled out: the integer part alone cannot carry the sign */
	if (scaled < 0 && whole == 0)
		iio_value_emit(o, "-0.%09u", frac);
	else
		iio_value_emit(o, "%d.%09u", whole, frac);
}

/* INT_PLUS_MICRO/NANO: the sign comes from val2 when it is negative, even if val > 0. */
static void iio_value_emit_plus(struct iio_value_out *o, int val, int val2, bool nano,
				const char *suffix)
{
	if (val2 < 0)
		iio_value_emit(o, nano ? "-%d.%09u%s" : "-%d.%06u%s", iio_value_abs32(val),
			       0u - (unsigned int)val2, suffix);
	else
		iio_value_emit(o, nano ? "%d.%09u%s" : "%d.%06u%s", val, (unsigned int)val2,
			       suffix);
}

static void iio_value_emit_decimal64(struct iio_value_out *o, int64_t v, int digits)
{
	int64_t p = iio_value_pow10(digits);
	int64_t whole = v / p;
	int64_t rem = v % p;
	long long frac = rem < 0 ? -rem : rem;

	if (whole == 0 && rem < 0)
		iio_value_emit(o, "-0.%0*lld", digits, frac);
	else
		iio_value_emit(o, "%lld.%0*lld", (long long)whole, digits, frac);
}

/* Number of ints a type reads from vals (INT_MULTIPLE reads @size). */
static int iio_value_needed(int type)
{
	switch (type) {
	case IIO_VAL_INT:
	case IIO_VAL_CHAR:
		return 1;
	case IIO_VAL_INT_MULTIPLE:
		return 0;
	default:
		return iio_val_type_name(type) ? 2 : 0;
	}
}

/* The value without its newline; unknown types print nothing, as the kernel does. */
static int iio_value_format_one(struct iio_value_out *o, int type, int size, const int *vals)
{
	int i;

	if (size < iio_value_needed(type))
		return -EINVAL;

	switch (type) {
	case IIO_VAL_INT:
		iio_value_emit_int(o, vals[0]);
		break;
	case IIO_VAL_INT_PLUS_MICRO:
		iio_value_emit_plus(o, vals[0], vals[1], false, "");
		break;
	case IIO_VAL_INT_PLUS_MICRO_DB:
		iio_value_emit_plus(o, vals[0], vals[1], false, " dB");
		break;
	case IIO_VAL_INT_PLUS_NANO:
		iio_value_emit_plus(o, vals[0], vals[1], true, "");
		break;
	case IIO_VAL_FRACTIONAL:
		/* the kernel would divide by zero here */
		if (vals[1] == 0)
			return -EINVAL;
		iio_value_emit_nano(o, (int64_t)vals[0] * IIO_VALUE_NANO / vals[1]);
		break;
	case IIO_VAL_FRACTIONAL_LOG2:
		iio_value_emit_nano(o, iio_value_shift_toward_zero((int64_t)vals[0] *
								   IIO_VALUE_NANO, vals[1]));
		break;
	case IIO_VAL_INT_MULTIPLE:
		for (i = 0; i < size; i++)
			iio_value_emit(o, "%d ", vals[i]);
		break;
	case IIO_VAL_CHAR:
		/* mainline builds with unsigned char: the low byte, as is */
		iio_value_emit_byte(o, (unsigned char)vals[0]);
		break;
	case IIO_VAL_INT_64:
		iio_value_emit(o, "%lld", (long long)iio_value_s64_from_pair(vals[0], vals[1]));
		break;
	case IIO_VAL_DECIMAL64_MILLI:
	case IIO_VAL_DECIMAL64_MICRO:
	case IIO_VAL_DECIMAL64_NANO:
	case IIO_VAL_DECIMAL64_PICO:
		iio_value_emit_decimal64(o, iio_value_s64_from_pair(vals[0], vals[1]),
					 type - IIO_VAL_DECIMAL64_BASE);
		break;
	default:
		break;
	}
	return 0;
}

int iio_format_value(char *buf, size_t len, int type, int size, const int *vals)
{
	struct iio_value_out o;
	int ret;

	iio_value_out_init(&o, buf, len);
	ret = iio_value_format_one(&o, type, size, vals);
	if (ret < 0)
		return ret;
	iio_value_emit_byte(&o, '\n');
	if (o.overflow)
		return -EFBIG;
	return (int)o.len;
}

int iio_format_avail(char *buf, size_t len, int avail, int type, const int *vals, int length)
{
	int stride = type == IIO_VAL_INT ? 1 : 2;
	struct iio_value_out o;
	int i, ret;

	if (avail == IIO_AVAIL_RANGE) {
		/* the kernel reads min, step, max whatever length says; we insist they exist */
		if (length < 3 * stride)
			return -EINVAL;
		length = 3 * stride;
	} else if (avail != IIO_AVAIL_LIST) {
		return -EINVAL;
	}

	iio_value_out_init(&o, buf, len);
	if (avail == IIO_AVAIL_RANGE)
		iio_value_emit(&o, "[");
	for (i = 0; i <= length - stride; i += stride) {
		if (i)
			iio_value_emit(&o, " ");
		ret = iio_value_format_one(&o, type, stride, &vals[i]);
		if (ret < 0)
			return ret;
	}
	iio_value_emit(&o, avail == IIO_AVAIL_RANGE ? "]\n" : "\n");
	if (o.overflow)
		return -EFBIG;
	return (int)o.len;
}

/*
 * Unsigned integer parsing in the manner of the kernel's kstrtoull() family:
 * base 0 picks 16 for "0x" followed by a hex digit, 8 for a leading 0, else
 * 10; one trailing '\n' is allowed; overflow and empty input are errors.
 */
static unsigned int iio_value_digit(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned int)(c - '0');
	c = (char)(c | 0x20);
	if (c >= 'a' && c <= 'f')
		return (unsigned int)(c - 'a' + 10);
	return 16;
}

/* Parse up to @max digits (0 = no limit) onto *res; Return: digits used, -ERANGE on overflow. */
static int iio_value_parse_digits(const char **sp, unsigned int base, unsigned int max,
				  uint64_t *res)
{
	const char *s = *sp;
	bool overflow = false;
	uint64_t r = *res;
	unsigned int d;
	int n = 0;

	while ((d = iio_value_digit(*s)) < base && (max == 0 || (unsigned int)n < max)) {
		if (__builtin_mul_overflow(r, base, &r) || __builtin_add_overflow(r, d, &r))
			overflow = true;
		s++;
		n++;
	}
	*sp = s;
	*res = r;
	return overflow ? -ERANGE : n;
}

static int iio_value_end_ok(const char *s)
{
	if (*s == '\n')
		s++;
	return *s == '\0' ? 0 : -EINVAL;
}

static int iio_value_kstrtoull(const char *s, uint64_t *res)
{
	unsigned int base = 10;
	uint64_t r = 0;
	int n;

	if (s[0] == '0') {
		if ((s[1] | 0x20) == 'x' && iio_value_digit(s[2]) < 16) {
			base = 16;
			s += 2;
		} else {
			base = 8;
		}
	}
	n = iio_value_parse_digits(&s, base, 0, &r);
	if (n <= 0)
		return -EINVAL;
	if (iio_value_end_ok(s))
		return -EINVAL;
	*res = r;
	return 0;
}

int iio_kstrtobool(const char *s, bool *res)
{
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N' || s[1] == 'f' || s[1] == 'F') {
			*res = s[1] == 'n' || s[1] == 'N';
			return 0;
		}
		return -EINVAL;
	default:
		return -EINVAL;
	}
}

int iio_kstrtoul10(const char *s, unsigned long *res)
{
	uint64_t r = 0;
	int n;

	if (s[0] == '+')
		s++;
	n = iio_value_parse_digits(&s, 10, 0, &r);
	if (n == -ERANGE || (n > 0 && r > ULONG_MAX))
		return -ERANGE;
	if (n <= 0 || iio_value_end_ok(s))
		return -EINVAL;
	*res = (unsigned long)r;
	return 0;
}

static int iio_value_kstrtoll(const char *s, int64_t *res)
{
	uint64_t u;

	if (s[0] == '-') {
		if (iio_value_kstrtoull(s + 1, &u))
			return -EINVAL;
		if (u > (uint64_t)INT64_MAX + 1)
			return -EINVAL;
		*res = (int64_t)(0ull - u);
		return 0;
	}
	if (s[0] == '+')
		s++;
	if (iio_value_kstrtoull(s, &u) || u > (uint64_t)INT64_MAX)
		return -EINVAL;
	*res = (int64_t)u;
	return 0;
}

static int iio_value_kstrtoint(const char *s, int *res)
{
	int64_t v;

	if (iio_value_kstrtoll(s, &v) || v < INT_MIN || v > INT_MAX)
		return -EINVAL;
	*res = (int)v;
	return 0;
}

/*
 * kstrtodec64(): "[+-][int][.frac][\n]" scaled by 10^digits; digits past the
 * scale are dropped; at least one digit somewhere; overflow is an error.
 */
static int iio_value_kstrtodec64(const char *s, int digits, int64_t *res)
{
	bool negative = false;
	uint64_t r = 0, p;
	int nint, nfrac = 0;

	if (s[0] == '-') {
		negative = true;
		s++;
	} else if (s[0] == '+') {
		s++;
	}
	nint = iio_value_parse_digits(&s, 10, 0, &r);
	if (nint < 0)
		return -EINVAL;
	if (*s == '.') {
		s++;
		nfrac = digits ? iio_value_parse_digits(&s, 10, (unsigned int)digits, &r) : 0;
		if (nfrac < 0)
			return -EINVAL;
	}
	if (!nint && !nfrac && !(*s >= '0' && *s <= '9'))
		return -EINVAL;
	while (*s >= '0' && *s <= '9')
		s++;
	if (iio_value_end_ok(s))
		return -EINVAL;
	p = (uint64_t)iio_value_pow10(digits - nfrac);
	if (__builtin_mul_overflow(r, p, &r))
		return -EINVAL;
	if (negative) {
		if (r > (uint64_t)INT64_MAX + 1)
			return -EINVAL;
		*res = (int64_t)(0ull - r);
	} else {
		if (r > (uint64_t)INT64_MAX)
			return -EINVAL;
		*res = (int64_t)r;
	}
	return 0;
}

/*
 * Fixed point "[-+]digits[.digits][\n]". Overflow of the integer part wraps
 * unchecked, as in the kernel; with @scale_db a "dB" or " dB" anywhere after
 * the sign is skipped. -0.5 keeps its sign in the fraction: (0, -500000).
 */
static int iio_value_fixpoint(const char *str, int fract_mult, bool scale_db,
			      int *integer, int *fract)
{
	unsigned int i = 0, f = 0, mult = (unsigned int)fract_mult;
	bool integer_part = true, negative = false;

	if (fract_mult == 0) {
		int v;

		if (iio_value_kstrtoint(str, &v))
			return -EINVAL;
		*integer = v;
		*fract = 0;
		return 0;
	}

	if (*str == '-') {
		negative = true;
		str++;
	} else if (*str == '+') {
		str++;
	}

	while (*str) {
		if (*str >= '0' && *str <= '9') {
			if (integer_part) {
				i = i * 10 + (unsigned int)(*str - '0');
			} else {
				f += mult * (unsigned int)(*str - '0');
				mult = (unsigned int)((int)mult / 10);
			}
		} else if (*str == '\n') {
			if (str[1] != '\0')
				return -EINVAL;
			break;
		} else if (scale_db && strncmp(str, " dB", 3) == 0) {
			str += 3;
			continue;
		} else if (scale_db && strncmp(str, "dB", 2) == 0) {
			str += 2;
			continue;
		} else if (*str == '.' && integer_part) {
			integer_part = false;
		} else {
			return -EINVAL;
		}
		str++;
	}

	if (negative) {
		if (i)
			i = 0u - i;
		else
			f = 0u - f;
	}
	*integer = (int)i;
	*fract = (int)f;
	return 0;
}

int iio_str_to_fixpoint(const char *str, int fract_mult, int *integer, int *fract)
{
	return iio_value_fixpoint(str, fract_mult, false, integer, fract);
}

int iio_parse_value(const char *str, int fmt, int *val, int *val2)
{
	int64_t v64;

	switch (fmt) {
	case IIO_VAL_INT:
		return iio_value_fixpoint(str, 0, false, val, val2);
	case IIO_VAL_INT_PLUS_MICRO:
		return iio_value_fixpoint(str, 100000, false, val, val2);
	case IIO_VAL_INT_PLUS_MICRO_DB:
		return iio_value_fixpoint(str, 100000, true, val, val2);
	case IIO_VAL_INT_PLUS_NANO:
		return iio_value_fixpoint(str, 100000000, false, val, val2);
	case IIO_VAL_CHAR:
		/* any first character, whitespace included, as sscanf("%c") takes it */
		if (str[0] == '\0')
			return -EINVAL;
		*val = (unsigned char)str[0];
		*val2 = 0;
		return 0;
	case IIO_VAL_INT_64:
		if (iio_value_kstrtoll(str, &v64))
			return -EINVAL;
		iio_value_s64_to_pair(v64, val, val2);
		return 0;
	case IIO_VAL_DECIMAL64_MILLI:
	case IIO_VAL_DECIMAL64_MICRO:
	case IIO_VAL_DECIMAL64_NANO:
	case IIO_VAL_DECIMAL64_PICO:
		if (iio_value_kstrtodec64(str, fmt - IIO_VAL_DECIMAL64_BASE, &v64))
			return -EINVAL;
		iio_value_s64_to_pair(v64, val, val2);
		return 0;
	default:
		return -EINVAL;
	}
}

bool iio_value_int_part_fits(const char *str)
{
	bool negative = *str == '-';
	uint64_t i = 0;

	if (*str == '-' || *str == '+')
		str++;
	for (; *str >= '0' && *str <= '9'; str++) {
		i = i * 10 + (uint64_t)(*str - '0');
		if (i > (uint64_t)INT_MAX + 1)
			return false;
	}
	return negative || i <= (uint64_t)INT_MAX;
}

int iio_parse_value_checked(const char *str, int fmt, int *val, int *val2)
{
	int v = 0, v2 = 0, ret;

	ret = iio_parse_value(str, fmt, &v, &v2);
	if (ret < 0)
		return ret;
	switch (fmt) {
	case IIO_VAL_INT_PLUS_MICRO:
	case IIO_VAL_INT_PLUS_MICRO_DB:
	case IIO_VAL_INT_PLUS_NANO:
		if (!iio_value_int_part_fits(str))
			return -ERANGE;
		break;
	default:
		break;
	}
	*val = v;
	*val2 = v2;
	return 0;
}

/*
 * Truncation to int happens after each step, as the kernel stores every
 * partial result in its int *result.
 */
int iio_multiply_value(int *result, int64_t multiplier, int type, int val, int val2)
{
	int64_t den;
	int r;

	switch (type) {
	case IIO_VAL_INT:
		r = iio_value_trunc32(iio_value_mul64(multiplier, val));
		break;
	case IIO_VAL_INT_PLUS_MICRO:
	case IIO_VAL_INT_PLUS_NANO:
		den = type == IIO_VAL_INT_PLUS_MICRO ? IIO_VALUE_MICRO : IIO_VALUE_NANO;
		/* |val| in 64 bits (the 2026 fix), so INT_MIN scales correctly */
		r = iio_value_trunc32(iio_value_mul64(multiplier, val < 0 ? -(int64_t)val : val));
		r = iio_value_trunc32((int64_t)r +
				      iio_value_mul64(multiplier,
						      val2 < 0 ? -(int64_t)val2 : val2) / den);
		/* the 6.18 fix: a scale of -1.5 is (-1, 500000), so either part's sign counts */
		if (val < 0 || val2 < 0)
			r = iio_value_trunc32(-(int64_t)r);
		break;
	case IIO_VAL_FRACTIONAL:
		if (val2 == 0)
			return -EINVAL;
		r = iio_value_trunc32(iio_value_div64(iio_value_mul64(multiplier, val), val2));
		break;
	case IIO_VAL_FRACTIONAL_LOG2:
		/* arithmetic shift: floors negatives, unlike the formatter */
		r = iio_value_trunc32(iio_value_sar64(iio_value_mul64(multiplier, val), val2));
		break;
	default:
		return -EINVAL;
	}
	*result = r;
	return IIO_VAL_INT;
}

int iio_offset_to_int(int type, int val, int val2, int *offset)
{
	switch (type) {
	case IIO_VAL_INT:
	case IIO_VAL_INT_PLUS_MICRO:
	case IIO_VAL_INT_PLUS_NANO:
		/* the fraction of a MICRO/NANO offset is dropped, not rounded */
		*offset = val;
		return 0;
	case IIO_VAL_FRACTIONAL:
		/* both would trap in the kernel: refuse them */
		if (val2 == 0 || (val == INT_MIN && val2 == -1))
			return -EINVAL;
		*offset = val / val2;
		return 0;
	case IIO_VAL_FRACTIONAL_LOG2:
		*offset = val >> (val2 & 31);
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * Whether @m x (val, val2 as @type), computed without truncation, fits in an
 * int. The kernel truncates each step and hands a consumer the wrapped
 * value; over the network a processed value that wrapped is refused
 * (-ERANGE) instead (PROTOCOL.md, CREAD). 128 bits hold every product here.
 */
static bool iio_value_processed_fits(__int128 m, int type, int val, int val2)
{
	__int128 v;

	switch (type) {
	case IIO_VAL_INT_PLUS_MICRO:
	case IIO_VAL_INT_PLUS_NANO:
		v = (__int128)(val < 0 ? -(int64_t)val : val) * m +
		    (__int128)(val2 < 0 ? -(int64_t)val2 : val2) * m /
		    (type == IIO_VAL_INT_PLUS_MICRO ? IIO_VALUE_MICRO : IIO_VALUE_NANO);
		break;
	case IIO_VAL_FRACTIONAL:
		v = val2 ? m * val / val2 : 0;
		break;
	case IIO_VAL_FRACTIONAL_LOG2:
		v = (m * val) >> (val2 & 127);
		break;
	default:
		v = m * val;
		break;
	}
	return v >= INT_MIN && v <= INT_MAX;
}

int iio_multiply_value_checked(int *result, int64_t multiplier, int type, int val, int val2)
{
	int out, ret = iio_multiply_value(&out, multiplier, type, val, val2);

	if (ret < 0)
		return ret;
	if (!iio_value_processed_fits(multiplier, type, val, val2))
		return -ERANGE;
	*result = out;
	return ret;
}

int iio_raw_to_processed(int raw, int has_offset, int offset_type, int oval, int oval2,
			 int has_scale, int scale_type, int sval, int sval2,
			 unsigned int scale_mult, int *processed)
{
	int64_t r = raw;
	int offset, out, ret;

	if (has_offset) {
		ret = iio_offset_to_int(offset_type, oval, oval2, &offset);
		if (ret < 0)
			return ret;
		r += offset;
	}
	/* since 6.18 the offset counts on the no-scale path too */
	if (!has_scale) {
		if (!iio_value_processed_fits(r * (__int128)scale_mult, IIO_VAL_INT, 1, 0))
			return -ERANGE;
		*processed = iio_value_trunc32(iio_value_mul64(r, scale_mult));
		return 0;
	}
	ret = iio_multiply_value(&out, iio_value_mul64(r, scale_mult), scale_type, sval, sval2);
	if (ret < 0)
		return ret;
	if (!iio_value_processed_fits(r * (__int128)scale_mult, scale_type, sval, sval2))
		return -ERANGE;
	*processed = out;
	return 0;
}
