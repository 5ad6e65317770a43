/*
 * sensorsuite.h - sensor driver test cases written once for the I2C light
 * sensors and the SPI IMUs (test_tsl2563.c, test_adis16400.c): each is a
 * table of named rows the suite owns and a body here that brings the chip up
 * with sensortest.h and asserts. Also what a family's cases header
 * (tests/bmp280_cases.h, tests/bh1750_cases.h) needs to run one body on the
 * emulated bus and through the shim: struct sensorsuite_backend and the
 * bus fault rows. Header-only, as sensortest.h.
 */
#ifndef IIOWIRE_SENSORSUITE_H
#define IIOWIRE_SENSORSUITE_H

#include "testutil.h"
#include "sensortest.h"

/**
 * struct sensorsuite_fault_row - a fault armed on a bound device's chip
 * (@fault: after, count, hang_ms as in emu.h) and the -errno (@err) of the
 * access it hits.
 */
struct sensorsuite_fault_row {
	const char *name;
	struct emu_fault fault;
	int err;
};

/* arms nothing: clears the fault of a row */
static const struct emu_fault sensorsuite_no_fault = { EMU_FAULT_NONE, 0, 0, 0 };

/**
 * struct sensorsuite_backend - where a family's shared cases run: the
 * emulated bus (SENSORSUITE_EMULATED()) or a real backend on a shim node
 * (SHIMSENSOR_I2C() in tests/shim/shimsensor.h), the chip at @addr.
 * @node/@number: the shim node and the bus number it is opened as (shim only).
 * @setup: a model of @part with @in at @addr, its driver probed and
 *	registered. Return: 0, or -errno with st->err filled.
 * @set_fault: arm @fault on the chip of @st. Return: 0 or -errno.
 * @teardown: end what @setup brought up.
 * @open_fds: fds left open on the backend's nodes; NULL: it keeps none.
 */
struct sensorsuite_backend {
	uint16_t addr;
	const char *node;
	int number;
	int (*setup)(const struct sensorsuite_backend *be, struct sensortest *st,
		     const char *part, const struct emu_input *in, int nin);
	int (*set_fault)(const struct sensortest *st, const struct emu_fault *fault);
	void (*teardown)(struct sensortest *st);
	int (*open_fds)(void);
};

/* @setup on the emulated I2C bus 0, its clock frozen at 0 (only the driver's waits move it) */
static inline int sensorsuite_emu_setup(const struct sensorsuite_backend *be,
					struct sensortest *st, const char *part,
					const struct emu_input *in, int nin)
{
	return sensortest_setup(st, BUS_I2C, part, be->addr, in, nin, NULL, 0.0);
}

static inline int sensorsuite_emu_set_fault(const struct sensortest *st,
					    const struct emu_fault *fault)
{
	return emu_bus_set_fault(st->bus, st->addr, fault);
}

/* The emulated I2C bus 0 with the chip at @address. */
#define SENSORSUITE_EMULATED(address) {						\
	.addr = (address), .setup = sensorsuite_emu_setup,			\
	.set_fault = sensorsuite_emu_set_fault, .teardown = sensortest_teardown,	\
}

/**
 * sensorsuite_backend_up() - @part with @in brought up on @be; a failure is
 * one row assert naming the reason. Return: whether it is up.
 */
static inline bool sensorsuite_backend_up(const struct sensorsuite_backend *be,
					  struct sensortest *st, const char *part,
					  const struct emu_input *in, int nin)
{
	int ret = be->setup(be, st, part, in, nin);

	TEST_ROW_ASSERT(ret == 0, st->err);
	return ret == 0;
}

/** sensorsuite_backend_down() - tear @st down; the backend keeps no fd open after. */
static inline void sensorsuite_backend_down(const struct sensorsuite_backend *be,
					    struct sensortest *st)
{
	be->teardown(st);
	if (be->open_fds)
		CU_ASSERT_EQUAL(be->open_fds(), 0);
}

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
