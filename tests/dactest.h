/*
 * dactest.h - what the DAC suites share on top of sensortest.h: a DAC
 * brought up on an emulated bus with a frozen clock, its attributes read
 * as text, its model's output pin (struct emu_dac_state) and the scale text
 * the kernel prints for vref_mv / 2^bits, computed here from the kernel's
 * IIO_VAL_FRACTIONAL_LOG2 rule (value * 10^9 >> bits, nine digits
 * truncated), not by the code under test. Header-only, as sensortest.h.
 */
#ifndef IIOWIRE_TEST_DACTEST_H
#define IIOWIRE_TEST_DACTEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "sensortest.h"

/* Bring @part up at @addr on an emulated bus of @type (clock frozen at 0). */
static inline bool dac_setup(struct sensortest *st, enum bus_type type, const char *part,
			     uint16_t addr, const struct emu_input *in, int nin,
			     const struct sensortest_prop *props)
{
	int ret = sensortest_setup(st, type, part, addr, in, nin, props, 0.0);

	if (ret)
		fprintf(stderr, "%s: %s (%d)\n", part, st->err, ret);
	CU_ASSERT_EQUAL(ret, 0);
	return ret == 0;
}

/* Does attribute @name read exactly @want? */
static inline bool dac_reads(struct iio_dev *dev, const char *name, const char *want)
{
	char buf[SENSORTEST_VALUE_MAX];

	if (sensortest_read(dev, name, buf, sizeof(buf)) < 0)
		return false;
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "%s: read '%s', want '%s'\n", name, buf, want);
	return strcmp(buf, want) == 0;
}

/* Output @channel of the model at @addr; a zeroed state with code ~0u when there is none. */
static inline struct emu_dac_state dac_pin(struct sensortest *st, int channel)
{
	struct emu_dac_state s = { ~0u, ~0u, -1.0 };

	if (emu_bus_dac_output(st->bus, st->addr, channel, &s))
		s.code = ~0u;
	return s;
}

/* The pin reads @code, powered up, at @code * @ref_mv / 2^@bits. */
static inline bool dac_pin_is(struct sensortest *st, int channel, unsigned int code,
			      double ref_mv, int bits)
{
	struct emu_dac_state s = dac_pin(st, channel);
	double want = code * ref_mv / ldexp(1.0, bits);

	if (s.code != code || s.powerdown || fabs(s.mv - want) > 1e-9)
		fprintf(stderr, "pin %d: code %u pd %u %.6f mV, want code %u %.6f mV\n",
			channel, s.code, s.powerdown, s.mv, code, want);
	return s.code == code && !s.powerdown && fabs(s.mv - want) <= 1e-9;
}

/* The kernel's text for IIO_VAL_FRACTIONAL_LOG2 (@mv, @bits), with its newline. */
static inline const char *dac_scale_text(char *buf, size_t len, int mv, int bits)
{
	long long nano = ((long long)mv * 1000000000LL) >> bits;

	snprintf(buf, len, "%lld.%09lld\n", nano / 1000000000LL, nano % 1000000000LL);
	return buf;
}

#endif /* IIOWIRE_TEST_DACTEST_H */
