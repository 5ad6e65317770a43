/*
 * mcp320x_cases.h - what test_mcp320x.c (emulated SPI bus) and
 * test_shim_mcp320x.c (spidev through the shim) share: bringing up a part
 * with its model's reference and the board's vref_mv on either backend,
 * and the bus-fault case both run. Header-only, as sensortest.h.
 *
 * Instantiated once per suite: the including file defines
 * MCP320X_CASES_BACKEND (a const struct mcp320x_backend *) first, and puts
 * MCP320X_CASES_TESTS(where); at file scope after its own tests; @where
 * ("" or, e.g., " (spidev)") ends each test's name.
 */
#ifndef IIOWIRE_MCP320X_CASES_H
#define IIOWIRE_MCP320X_CASES_H

#include "sensortest.h"

#define MCP320X_CASES_CS	0

/**
 * struct mcp320x_backend - where the chip sits.
 * @open: take @chip (also on failure) and open the bus it is on. Return: 0 or -errno.
 * @set_fault: arm @fault on the chip. @close: after the bus is dropped (may be NULL).
 * @open_fds: fds left on the backend's nodes (may be NULL: none kept).
 */
struct mcp320x_backend {
	const char *name;
	int (*open)(struct emu_chip *chip, struct bus **bus);
	int (*set_fault)(struct bus *bus, const struct emu_fault *fault);
	void (*close)(void);
	int (*open_fds)(void);
};

/* The emulated SPI bus 0, its clock frozen at 0: conversions end by the driver's waits. */
static inline int mcp320x_emu_open(struct emu_chip *chip, struct bus **bus)
{
	int ret = bus_create(bus_backend_find("emulated"), BUS_SPI, 0, NULL, bus);

	if (ret < 0) {
		chip->ops->destroy(chip);
		return ret;
	}
	emu_bus_set_time(*bus, 0);
	ret = emu_bus_attach(*bus, MCP320X_CASES_CS, chip);
	if (ret < 0)
		bus_put(*bus);
	return ret;
}

static inline int mcp320x_emu_set_fault(struct bus *bus, const struct emu_fault *fault)
{
	return emu_bus_set_fault(bus, MCP320X_CASES_CS, fault);
}

static const struct mcp320x_backend mcp320x_emulated = {
	.name = "emulated", .open = mcp320x_emu_open, .set_fault = mcp320x_emu_set_fault,
};

/**
 * mcp320x_setup() - a model of @chip_part given @vref_mv (0: none) and the
 * driver of @part probed with that vref_mv as the board's (none for 0).
 * Return: 0, or -errno with st->err filled; end with mcp320x_teardown().
 */
static inline int mcp320x_setup(struct sensortest *st, const struct mcp320x_backend *be,
				const char *chip_part, const char *part,
				const struct emu_input *in, int nin, int vref_mv)
{
	const struct iio_device_id *id = NULL;
	const struct emu_model *model = emu_model_find(chip_part, &id);
	struct emu_params params = {
		.name = chip_part, .id = id, .inputs = in, .ninputs = nin, .vref_mv = vref_mv,
	};
	const struct sensortest_prop props[] = { { "vref_mv", vref_mv }, { NULL, 0 } };
	struct emu_chip *chip;
	struct bus *bus;
	int ret;

	memset(st, 0, sizeof(*st));
	if (!model)
		return -ENOENT;
	ret = model->create(&params, &chip, st->err, sizeof(st->err));
	if (ret == 0)
		ret = be->open(chip, &bus);
	if (ret < 0)
		return ret;
	return sensortest_setup_on(st, bus, part, MCP320X_CASES_CS, vref_mv ? props : NULL);
}

static inline void mcp320x_teardown(struct sensortest *st, const struct mcp320x_backend *be)
{
	sensortest_teardown(st);
	if (be->close)
		be->close();
}

/* Faults on a bound device: the bus's -errno, then the value read before. */
static inline void mcp320x_case_faults(const struct mcp320x_backend *be)
{
	static const struct {
		const char *part, *attr;
		struct emu_fault fault;
		int err;
	} rows[] = {
		{ "mcp3008", "in_voltage0_raw", { EMU_FAULT_NACK, 0, 1, 0 }, -ENXIO },
		{ "mcp3008", "in_voltage0_raw", { EMU_FAULT_EIO, 0, 1, 0 }, -EIO },
		{ "mcp3008", "in_voltage0_raw", { EMU_FAULT_HANG, 0, 1, 20 }, -ETIMEDOUT },
		{ "mcp3201", "in_voltage0-voltage1_raw", { EMU_FAULT_EIO, 0, 1, 0 }, -EIO },
		{ "mcp3553", "in_voltage0-voltage1_raw", { EMU_FAULT_EIO, 0, 1, 0 }, -EIO },
		{ "mcp3553", "in_voltage0-voltage1_raw", { EMU_FAULT_EIO, 1, 1, 0 }, -EIO },
	};
	static const struct emu_input in[] = {
		SENSORTEST_CONST("voltage0", 2048), SENSORTEST_CONST("voltage1", 0),
	};
	struct sensortest st;
	char buf[32];
	size_t r;
	long v = 0, want;

	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		if (mcp320x_setup(&st, be, rows[r].part, rows[r].part, in, 2, 4096)) {
			TEST_ROW_ASSERT(0, st.err);
			continue;
		}
		/* half of vref: 512 of 10 bits, 2048 of 12, 2^20 of the 21-bit scale */
		want = strcmp(rows[r].part, "mcp3008") == 0 ? 512 :
		       strcmp(rows[r].part, "mcp3201") == 0 ? 2048 : 1048576;
		TEST_ROW_ASSERT(be->set_fault(st.bus, &rows[r].fault) == 0, rows[r].part);
		TEST_ROW_ASSERT(sensortest_read(st.dev, rows[r].attr, buf, sizeof(buf)) ==
				rows[r].err, rows[r].part);
		TEST_ROW_ASSERT_GOT(sensortest_read_int(st.dev, rows[r].attr, &v) == 0 && v == want,
				    rows[r].part, "%ld", v);
		mcp320x_teardown(&st, be);
		TEST_ROW_ASSERT(!be->open_fds || be->open_fds() == 0, rows[r].part);
	}
}

#define MCP320X_CASES_TESTS(where)						\
static void mcp320x_test_faults(void)						\
{										\
	mcp320x_case_faults(MCP320X_CASES_BACKEND);				\
}										\
TEST_CASE(mcp320x_test_faults, "faults: the bus's errors, then a right value" where)

#endif /* IIOWIRE_MCP320X_CASES_H */
