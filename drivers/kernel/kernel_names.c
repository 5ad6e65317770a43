/*
 * kernel_names.c - what a kernel IIO file name and value say: the channel
 * of in_voltage0_raw, the scan layout of a _type file, a printed
 * number as IIO_VAL_* for consumers.
 *
 * The rules are libiio's local backend's (a channel attribute starts with
 * in_ or out_ and a known type, then an optional index, differential
 * partner and modifier), with the type and modifier names taken from the
 * ABI leaf's tables, never spelled here. Pure functions, no I/O.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iio_kit.h"
#include "iio_value.h"
#include "kernel/iio_kernel.h"

static const char *const kernel_names_dir[] = { "in_", "out_" };

static bool kernel_names_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *kernel_names_type_name(int i)
{
	return iio_chan_type_name((enum iio_chan_type)i);
}

static const char *kernel_names_mod_name(int i)
{
	return iio_modifier_name((enum iio_modifier)i);
}

/* After a type name: a digit, '_' or '-'. After a modifier: '_'. */
static bool kernel_names_after_type(char c)
{
	return kernel_names_digit(c) || c == '_' || c == '-';
}

static bool kernel_names_after_mod(char c)
{
	return c == '_';
}

/*
 * The longest name of table @name (entries @first to @count - 1) that @s
 * starts with, followed by a character @after accepts.
 * Return: its length (0: none), with its index in *@which.
 */
static size_t kernel_names_longest(const char *s, const char *(*name)(int), int first,
				   int count, bool (*after)(char), int *which)
{
	size_t best = 0, n;
	const char *nm;
	int i;

	for (i = first; i < count; i++) {
		nm = name(i);
		if (!nm)
			continue;
		n = strlen(nm);
		if (n > best && strncmp(s, nm, n) == 0 && after(s[n])) {
			best = n;
			*which = i;
		}
	}
	return best;
}

static size_t kernel_names_type(const char *s, enum iio_chan_type *type)
{
	int i = 0;
	size_t n = kernel_names_longest(s, kernel_names_type_name, 0, IIOWIRE_IIO_CHAN_TYPE_COUNT,
					kernel_names_after_type, &i);

	if (n)
		*type = (enum iio_chan_type)i;
	return n;
}

static size_t kernel_names_modifier(const char *s, int *mod)
{
	/* from 1: IIO_NO_MOD has no name */
	return kernel_names_longest(s, kernel_names_mod_name, 1, IIOWIRE_IIO_MODIFIER_COUNT,
				    kernel_names_after_mod, mod);
}

/* Digits at *@s into *@v, moving *@s past them. Return: true if there were any. */
static bool kernel_names_index(const char **s, int *v)
{
	long n = 0;

	if (!kernel_names_digit(**s))
		return false;
	while (kernel_names_digit(**s) && n < INT_MAX / 10)
		n = n * 10 + (*(*s)++ - '0');
	*v = (int)n;
	return true;
}

/* After the type: "-voltage1" of a differential pair, or "-voltage" of a shared one. */
static bool kernel_names_partner(const char **s, struct iio_chan_spec *c)
{
	enum iio_chan_type t2;
	size_t n;

	if (**s != '-')
		return true;
	n = kernel_names_type(*s + 1, &t2);
	if (!n || t2 != c->type)
		return false;
	*s += 1 + n;
	c->differential = 1;
	if (!kernel_names_index(s, &c->channel2))
		return !c->indexed;	/* in_voltage-voltage_scale: shared by the pairs */
	return c->indexed;
}

bool iio_kernel_chan_same(const struct iio_chan_spec *a, const struct iio_chan_spec *b)
{
	return a->output == b->output && a->type == b->type && a->indexed == b->indexed &&
	       a->channel == b->channel && a->differential == b->differential &&
	       a->channel2 == b->channel2 && a->modified == b->modified;
}

bool iio_kernel_name_parse(const char *name, struct iio_kernel_name *out)
{
	struct iio_chan_spec *c = &out->chan;
	const char *s = name;
	size_t n;
	int i;

	memset(out, 0, sizeof(*out));
	out->postfix = name;
	for (i = 0; i < (int)ARRAY_SIZE(kernel_names_dir); i++) {
		n = strlen(kernel_names_dir[i]);
		if (strncmp(s, kernel_names_dir[i], n) == 0)
			break;
	}
	if (i == (int)ARRAY_SIZE(kernel_names_dir))
		return false;
	c->output = i == 1;
	s += n;
	n = kernel_names_type(s, &c->type);
	if (!n)
		return false;
	s += n;
	c->indexed = kernel_names_index(&s, &c->channel);
	if (!kernel_names_partner(&s, c) || *s != '_' || !s[1])
		return false;
	s++;
	n = kernel_names_modifier(s, &c->channel2);
	if (n && !c->differential && s[n + 1]) {
		c->modified = 1;
		s += n + 1;
	} else {
		c->channel2 = c->differential ? c->channel2 : 0;
	}
	out->postfix = s;
	out->bare = !c->indexed && !c->modified;
	out->has_chan = true;
	return true;
}

static const char *kernel_names_evtype_name(int i)
{
	return iio_event_type_name((enum iio_event_type)i);
}

static const char *kernel_names_evdir_name(int i)
{
	return iio_event_dir_name((enum iio_event_direction)i);
}

static const char *kernel_names_evinfo_name(int i)
{
	/* the label file of read_event_label: one past the info table */
	return i == IIO_EV_INFO_COUNT ? "label" : iio_event_info_postfix((enum iio_event_info)i);
}

static bool kernel_names_at_end(char c)
{
	return c == '\0';
}

bool iio_kernel_event_postfix_parse(const char *postfix, struct iio_kernel_event_name *out)
{
	const char *s = postfix;
	int type = 0, dir = IIO_EV_DIR_NONE, info = 0;
	size_t n;

	/* "<type>_<dir>_<info>" or, for IIO_EV_DIR_NONE, "<type>_<info>" (iio_device_add_event()) */
	n = kernel_names_longest(s, kernel_names_evtype_name, 0, IIOWIRE_IIO_EV_TYPE_COUNT,
				 kernel_names_after_mod, &type);
	if (!n)
		return false;
	s += n + 1;
	n = kernel_names_longest(s, kernel_names_evdir_name, 0, IIOWIRE_IIO_EV_DIR_COUNT,
				 kernel_names_after_mod, &dir);
	if (n && kernel_names_longest(s + n + 1, kernel_names_evinfo_name, 0,
				      IIO_EV_INFO_COUNT + 1, kernel_names_at_end, &info)) {
		s += n + 1;
	} else {
		dir = IIO_EV_DIR_NONE;
		if (!kernel_names_longest(s, kernel_names_evinfo_name, 0, IIO_EV_INFO_COUNT + 1,
					  kernel_names_at_end, &info))
			return false;
	}
	out->type = (enum iio_event_type)type;
	out->dir = (enum iio_event_direction)dir;
	out->info = info == IIO_EV_INFO_COUNT ? -1 : info;
	return true;
}

int iio_kernel_scan_type_parse(const char *text, struct iio_scan_type *st)
{
	unsigned int bits, storage, shift, repeat = 0;
	char e, sign;
	int n = 0;

	/* "le:s12/16>>4" or "le:s12/16X2>>4" */
	if (sscanf(text, "%ce:%c%u/%u>>%u%n", &e, &sign, &bits, &storage, &shift, &n) != 5 &&
	    sscanf(text, "%ce:%c%u/%uX%u>>%u%n", &e, &sign, &bits, &storage, &repeat, &shift,
		   &n) != 6)
		return -EINVAL;
	if ((e != 'l' && e != 'b') || (sign != 's' && sign != 'u' && sign != 'S' && sign != 'U') ||
	    !bits || bits > 64 || !storage || storage > 64 || shift >= 64 || repeat > 255 ||
	    (text[n] && strcmp(text + n, "\n") != 0))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->endianness = e == 'b' ? IIO_BE : IIO_LE;
	st->sign = (char)(sign == 'S' || sign == 's' ? 's' : 'u');
	st->realbits = (uint8_t)bits;
	st->storagebits = (uint8_t)storage;
	st->shift = (uint8_t)shift;
	st->repeat = (uint8_t)repeat;
	return 0;
}

int iio_kernel_text_value(const char *text, int *val, int *val2)
{
	const char *dot = strchr(text, '.');
	size_t decimals = 0;

	if (dot)
		decimals = strspn(dot + 1, "0123456789");
	if (!dot) {
		if (iio_parse_value(text, IIO_VAL_INT, val, val2) < 0)
			return -EINVAL;
		return IIO_VAL_INT;
	}
	if (decimals <= 6) {
		if (iio_parse_value(text, IIO_VAL_INT_PLUS_MICRO, val, val2) < 0)
			return -EINVAL;
		return IIO_VAL_INT_PLUS_MICRO;
	}
	if (iio_parse_value(text, IIO_VAL_INT_PLUS_NANO, val, val2) < 0)
		return -EINVAL;
	return IIO_VAL_INT_PLUS_NANO;
}
