/*
 * mcp3422_cases.h - the mcp3422 cases that test_mcp3422.c (emulated bus)
 * and test_shim_mcp3422.c (i2c-dev through the shim) both run, each on its
 * own struct chiptest_backend: bus faults with the kernel's errors and
 * their recovery, and a probe that finds no chip. Header-only, as
 * chipsuite.h.
 *
 * Instantiated once per suite: the including file defines
 * MCP3422_CASES_BACKEND (a const struct chiptest_backend *) first, and puts
 * MCP3422_CASES_TESTS(where); at file scope after its own tests; @where
 * ("" or, e.g., " (i2c-dev)") ends each test's name.
 */
#ifndef IIOWIRE_MCP3422_CASES_H
#define IIOWIRE_MCP3422_CASES_H

#include "chipsuite.h"

#define MCP3422_CASES_ADDR	0x68

/*
 * Bus failures: a failed read is EINVAL whatever the bus said (the kernel's
 * read_raw), a failed write is the bus's errno; then a right value. The
 * failed writes never reach the chip, so channel 0 stays selected and its
 * conversions go on: the next read needs no wait.
 */
static inline void mcp3422_case_faults(const struct chiptest_backend *be)
{
	static const struct {
		const char *name, *attr, *val;
		struct emu_fault fault;
		int err;
	} rows[] = {
		{ "NACK on a read", "in_voltage0_raw", NULL, { EMU_FAULT_NACK, 0, 1, 0 }, -EINVAL },
		{ "EIO on a read", "in_voltage0_raw", NULL, { EMU_FAULT_EIO, 0, 1, 0 }, -EINVAL },
		{ "hang on a read", "in_voltage0_raw", NULL, { EMU_FAULT_HANG, 0, 1, 20 }, -EINVAL },
		{ "NACK on a switch", "in_voltage1_raw", NULL, { EMU_FAULT_NACK, 0, 1, 0 },
		  -EINVAL },
		{ "NACK on a scale write", "in_voltage0_scale", "0.001",
		  { EMU_FAULT_NACK, 0, 1, 0 }, -ENXIO },
		{ "EIO on a rate write", "in_voltage_sampling_frequency", "60",
		  { EMU_FAULT_EIO, 0, 1, 0 }, -EIO },
	};
	static const struct emu_input in[] = { CHIPTEST_CONST("CH1", 42.5) };
	struct chiptest ct;
	char buf[32];
	size_t r;
	int v, ret;

	CU_ASSERT_EQUAL_FATAL(chiptest_open(&ct, be, "mcp3424", MCP3422_CASES_ADDR, in, 1, NULL),
			      0);
	for (r = 0; r < CHIPSUITE_NROWS(rows); r++) {
		TEST_ROW_ASSERT(be->set_fault(be, ct.bus, MCP3422_CASES_ADDR, &rows[r].fault) == 0,
				rows[r].name);
		ret = rows[r].val ? chiptest_write(ct.dev, rows[r].attr, rows[r].val) :
				    (int)chiptest_read(ct.dev, rows[r].attr, buf, sizeof(buf));
		TEST_ROW_ASSERT_GOT(ret == rows[r].err, rows[r].name, "%d", ret);
		v = 0;
		TEST_ROW_ASSERT_GOT(chiptest_read_int(ct.dev, "in_voltage0_raw", &v) == 0 && v == 42,
				    rows[r].name, "%d", v);
	}
	chiptest_teardown(&ct);
	CU_ASSERT_EQUAL(be->open_fds ? be->open_fds() : 0, 0);
}

/* A chip at 0x69 only: the probe at 0x68 gets no answer and names bus and address. */
static inline void mcp3422_case_no_chip(const struct chiptest_backend *be)
{
	struct iio_registry *reg = iio_registry_create();
	struct iio_dev *dev = NULL;
	char err[CHIPTEST_ERR_MAX];
	struct bus *bus = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(reg);
	CU_ASSERT_EQUAL_FATAL(be->open(be, "mcp3422", MCP3422_CASES_ADDR + 1, NULL, 0, 0, &bus,
				       err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(chiptest_probe(bus, reg, "mcp3422", MCP3422_CASES_ADDR, NULL, &dev, err,
				       sizeof(err)), -ENXIO);
	CU_ASSERT_STRING_EQUAL(err, "mcp3422 at 0-0068: no answer (ENXIO)");
	iio_registry_destroy(reg);
	bus_put(bus);
	if (be->close)
		be->close(be);
	CU_ASSERT_EQUAL(be->open_fds ? be->open_fds() : 0, 0);
}

#define MCP3422_CASES_TESTS(where)						\
static void mcp3422_test_faults(void)						\
{										\
	mcp3422_case_faults(MCP3422_CASES_BACKEND);				\
}										\
TEST_CASE(mcp3422_test_faults, "faults: the kernel's errors, then recovery" where);	\
static void mcp3422_test_no_chip(void)						\
{										\
	mcp3422_case_no_chip(MCP3422_CASES_BACKEND);				\
}										\
TEST_CASE(mcp3422_test_no_chip, "no chip at the address" where)

#endif /* IIOWIRE_MCP3422_CASES_H */
