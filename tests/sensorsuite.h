/*
 * sensorsuite.h - sensor driver test cases written once for the I2C light
 * sensors and the SPI IMUs (test_tsl2563.c, test_adis16400.c): each is a
 * table of named rows the suite owns and a body here that brings the chip up
 * with sensortest.h and asserts. Header-only, as sensortest.h.
 */
#ifndef IIOWIRE_SENSORSUITE_H
#define IIOWIRE_SENSORSUITE_H

#include "testutil.h"
#include "sensortest.h"

/**
 * struct sensorsuite_probe_row - a probe with a fault armed on the chip.
 * @chip: a model on the bus (false: the address is empty).
 * @fault: armed at the probed address (after, count, hang_ms as in emu.h).
 * @ret/@msg: the probe's -errno and a part of its message.
 */
struct sensorsuite_probe_row {
	const char *name;
	bool chip;
	struct emu_fault fault;
	int ret;
	const char *msg;
};

/**
 * struct sensorsuite_probe - where the probes of sensorsuite_probe_faults() run.
 * @type/@number: the emulated bus; @part/@addr: the driver probed and where.
 * @where: the device as every probe message names it ("tsl2563 at i2c-3 0x39").
 */
struct sensorsuite_probe {
	enum bus_type type;
	int number;
	const char *part;
	uint16_t addr;
	const char *where;
};

/** sensorsuite_probe_faults() - each row on a fresh emulated bus, virtual time 0. */
static inline void sensorsuite_probe_faults(const struct sensorsuite_probe *at,
					    const struct sensorsuite_probe_row *rows, size_t n)
{
	char err[SENSORTEST_ERR_MAX];
	struct emu_chip *chip;
	struct sensortest st;
	struct bus *bus;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = bus_create(bus_backend_find("emulated"), at->type, at->number, NULL, &bus);
		TEST_ROW_ASSERT(ret == 0, rows[i].name);
		if (ret)
			continue;
		emu_bus_set_time(bus, 0.0);
		if (rows[i].chip) {
			TEST_ROW_ASSERT(sensortest_model_create(at->part, NULL, 0, &chip, err,
								sizeof(err)) == 0, rows[i].name);
			TEST_ROW_ASSERT(emu_bus_attach(bus, at->addr, chip) == 0, rows[i].name);
			TEST_ROW_ASSERT(emu_bus_set_fault(bus, at->addr, &rows[i].fault) == 0,
					rows[i].name);
		}
		ret = sensortest_setup_on(&st, bus, at->part, at->addr, NULL);
		TEST_ROW_ASSERT(ret == rows[i].ret, rows[i].name);
		TEST_ROW_ASSERT(strstr(st.err, at->where) != NULL, rows[i].name);
		TEST_ROW_ASSERT(strstr(st.err, rows[i].msg) != NULL, rows[i].name);
		if (ret == 0)
			sensortest_teardown(&st);
	}
}

#endif /* IIOWIRE_SENSORSUITE_H */
