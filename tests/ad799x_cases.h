/*
 * ad799x_cases.h - the ad799x cases that test_ad799x.c (emulated bus) and
 * test_shim_ad799x.c (i2c-dev through the shim) both run, each on its own
 * struct chiptest_backend: bus faults, each followed by a right read.
 * Header-only, as chipsuite.h.
 */
#ifndef IIOWIRE_AD799X_CASES_H
#define IIOWIRE_AD799X_CASES_H

#include "chipsuite.h"

/* One input @key at @mv on a 4096 mV reference; after the fault @attr reads @value. */
#define AD799X_FAULT(name, part, mode, expect, key, mv, attr, value)		\
	{ name, { name, part, 4096, key, mv, attr, value }, mode, false, expect, -1 }

/* voltage1 at 1234 mV: 1234 at 12 bits, 1234 / 4 at 10 */
#define AD799X_FAULT1(name, part, mode, expect, value)				\
	AD799X_FAULT(name, part, mode, expect, "voltage1", 1234, "in_voltage1_raw", value)

/* voltage2 at 2048 mV: half scale at 12, 10 or 8 bits */
#define AD799X_FAULT2(name, part, mode, expect, value)				\
	AD799X_FAULT(name, part, mode, expect, "voltage2", 2048, "in_voltage2_raw", value)

static const struct chipsuite_fault_row ad799x_fault_rows[] = {
	AD799X_FAULT1("ad7998 NACK", "ad7998", EMU_FAULT_NACK, -ENXIO, 1234),
	AD799X_FAULT1("ad7998 EIO", "ad7998", EMU_FAULT_EIO, -EIO, 1234),
	AD799X_FAULT1("ad7998 HANG", "ad7998", EMU_FAULT_HANG, -ETIMEDOUT, 1234),
	AD799X_FAULT1("ad7991 NACK", "ad7991", EMU_FAULT_NACK, -ENXIO, 1234),
	AD799X_FAULT1("ad7992 EIO", "ad7992", EMU_FAULT_EIO, -EIO, 1234),
	AD799X_FAULT1("ad7995 HANG", "ad7995", EMU_FAULT_HANG, -ETIMEDOUT, 308),
	AD799X_FAULT2("ad7998 NACK, voltage2", "ad7998", EMU_FAULT_NACK, -ENXIO, 2048),
	AD799X_FAULT2("ad7998 EIO, voltage2", "ad7998", EMU_FAULT_EIO, -EIO, 2048),
	AD799X_FAULT2("ad7998 HANG, voltage2", "ad7998", EMU_FAULT_HANG, -ETIMEDOUT, 2048),
	AD799X_FAULT2("ad7991 NACK, voltage2", "ad7991", EMU_FAULT_NACK, -ENXIO, 2048),
	AD799X_FAULT2("ad7993 EIO", "ad7993", EMU_FAULT_EIO, -EIO, 512),
	AD799X_FAULT2("ad7999 HANG", "ad7999", EMU_FAULT_HANG, -ETIMEDOUT, 128),
};

/** ad799x_faults() - every fault row on @be, the chip at @addr. */
static inline void ad799x_faults(const struct chiptest_backend *be, uint16_t addr)
{
	chipsuite_faults(be, addr, ad799x_fault_rows, CHIPSUITE_NROWS(ad799x_fault_rows));
}

#endif /* IIOWIRE_AD799X_CASES_H */
