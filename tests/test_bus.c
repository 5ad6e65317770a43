/*
 * test_bus.c - the bus seam (bus.c) through the emulated backend (bus_emu.c).
 *
 * What must hold: backends are found by name; references close the backend
 * exactly once; an empty address NACKs (-ENXIO) for every helper; SMBus
 * requests reach a chip framed as the SMBus spec says (command write, repeated
 * start, read; words little endian, "swapped" words big endian); SPI syncs
 * keep chip select across transfers and get the device's settings; faults
 * fire after their 'after' transfers for 'count' transfers; a hang ends when
 * cleared from another thread; the virtual clock moves with bus_msleep().
 * Each test is a table of named rows; the chip is tests/testchip.h.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "testutil.h"
#include "testchip.h"
#include "bus/bus.h"
#include "emu/emu.h"

#define TEST_ADDR	0x48
#define TEST_EMPTY	0x50

static double test_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* An emulated I2C bus 0 with a testchip at TEST_ADDR and a client on it. */
static void test_emu_i2c(struct bus **bus, struct bus_i2c_client **c, struct testchip **tc,
			 int *destroyed)
{
	CU_ASSERT_FATAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 0, NULL, bus) == 0);
	*tc = testchip_create(destroyed);
	CU_ASSERT_FATAL(*tc != NULL);
	CU_ASSERT_FATAL(emu_bus_attach(*bus, TEST_ADDR, &(*tc)->base) == 0);
	CU_ASSERT_FATAL(bus_i2c_client_create(*bus, TEST_ADDR, c) == 0);
}

static void test_backend_find(void)
{
	static const struct {
		const char *name;
		const char *backend;
		const char *expect;	/* ops->name, NULL for none */
	} rows[] = {
		{ "emulated", "emulated", "emulated" },
		{ "i2c-dev", "i2c-dev", "i2c-dev" },
		{ "spidev", "spidev", "spidev" },
		{ "unknown", "i2c", NULL },
		{ "case matters", "Emulated", NULL },
		{ "NULL", NULL, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct bus_ops *ops = bus_backend_find(rows[i].backend);

		if (!rows[i].expect)
			TEST_ROW_ASSERT(ops == NULL, rows[i].name);
		else
			TEST_ROW_ASSERT(ops && strcmp(ops->name, rows[i].expect) == 0,
					rows[i].name);
	}
}
TEST_CASE(test_backend_find, "backend lookup by name");

static void test_create_errors(void)
{
	static const struct {
		const char *name;
		const char *backend;
		enum bus_type type;
		const char *device;
		int expect;
	} rows[] = {
		{ "i2c-dev missing node", "i2c-dev", BUS_I2C, "/nonexistent/i2c-9", -ENOENT },
		{ "i2c-dev on an SPI bus", "i2c-dev", BUS_SPI, "/dev/null", -EINVAL },
		{ "spidev on an I2C bus", "spidev", BUS_I2C, "/dev/null", -EINVAL },
		{ "spidev missing node", "spidev", BUS_SPI, "/nonexistent/spidev0.0", -ENOENT },
		{ "i2c-dev on a non-i2c node", "i2c-dev", BUS_I2C, "/dev/null", -ENODEV },
		{ "emulated i2c", "emulated", BUS_I2C, NULL, 0 },
		{ "emulated spi", "emulated", BUS_SPI, "ignored", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct bus *bus = (struct bus *)1;
		int ret = bus_create(bus_backend_find(rows[i].backend), rows[i].type, 0,
				     rows[i].device, &bus);

		TEST_ROW_ASSERT(ret == rows[i].expect, rows[i].name);
		TEST_ROW_ASSERT(ret == 0 ? bus != NULL : bus == NULL, rows[i].name);
		bus_put(bus);
	}
	bus_put(NULL);	/* NULL-safe */
}
TEST_CASE(test_create_errors, "bus_create errors per backend");

/* A do-nothing backend that counts its closes: for the reference rules. */
static int test_closes;
static int test_nop_open(struct bus *bus, const char *device)
{
	(void)bus;
	(void)device;
	return 0;
}
static void test_nop_close(struct bus *bus)
{
	(void)bus;
	test_closes++;
}
static const struct bus_ops test_nop_ops = {
	.name = "nop", .open = test_nop_open, .close = test_nop_close,
};

static void test_refs(void)
{
	struct bus *bus;
	struct bus_i2c_client *c;
	struct bus_spi_device *spi;
	struct emu_chip dummy = { .ops = NULL };

	test_closes = 0;
	CU_ASSERT_FATAL(bus_create(&test_nop_ops, BUS_I2C, 3, "x", &bus) == 0);
	CU_ASSERT(bus_get(bus) == bus);
	bus_put(bus);
	CU_ASSERT(test_closes == 0);
	CU_ASSERT(bus_i2c_client_create(bus, 0x35, &c) == 0);
	CU_ASSERT(bus_spi_device_create(bus, 0, &spi) == -EINVAL);
	CU_ASSERT(spi == NULL);
	/* not an emulated bus: no chips here */
	CU_ASSERT(emu_bus_attach(bus, 0x10, &dummy) == -EINVAL);
	CU_ASSERT(bus_i2c_transfer(c, NULL, 1) == -EINVAL);
	CU_ASSERT(bus_smbus_read_byte_data(c, 0) == -EOPNOTSUPP);
	bus_put(bus);
	CU_ASSERT(test_closes == 0);	/* the client still holds it */
	bus_i2c_client_destroy(c);
	CU_ASSERT(test_closes == 1);
	bus_i2c_client_destroy(NULL);
	bus_spi_device_destroy(NULL);
}
TEST_CASE(test_refs, "references close the backend once");

static void test_client_addr(void)
{
	static const struct {
		const char *name;
		uint16_t addr;
		int expect;
	} rows[] = {
		{ "lowest", 0x00, 0 },
		{ "typical", 0x35, 0 },
		{ "highest 7-bit", 0x7f, 0 },
		{ "ten-bit", 0x80, -EINVAL },
	};
	struct bus *bus;
	size_t i;

	CU_ASSERT_FATAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 0, NULL, &bus) == 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct bus_i2c_client *c = NULL;

		TEST_ROW_ASSERT(bus_i2c_client_create(bus, rows[i].addr, &c) == rows[i].expect,
				rows[i].name);
		bus_i2c_client_destroy(c);
	}
	bus_put(bus);
}
TEST_CASE(test_client_addr, "client addresses are 7-bit");

/* Every helper at an address nobody answers: the NACK of a real bus. */
static void test_nack_empty(void)
{
	struct bus *bus;
	struct bus_i2c_client *c;
	struct testchip *tc;
	int destroyed = 0;
	uint8_t buf[8] = { 0 };
	struct bus_i2c_msg msg = { .addr = TEST_EMPTY, .flags = 0, .len = 1, .buf = buf };
	struct {
		const char *name;
		int ret;
	} rows[13];
	int i = 0;

	test_emu_i2c(&bus, &c, &tc, &destroyed);
	c->addr = TEST_EMPTY;
	rows[i].name = "transfer";
	rows[i++].ret = bus_i2c_transfer(c, &msg, 1);
	rows[i].name = "master_send";
	rows[i++].ret = bus_i2c_master_send(c, buf, 2);
	rows[i].name = "master_recv";
	rows[i++].ret = bus_i2c_master_recv(c, buf, 2);
	rows[i].name = "write_byte";
	rows[i++].ret = bus_smbus_write_byte(c, 1);
	rows[i].name = "read_byte";
	rows[i++].ret = bus_smbus_read_byte(c);
	rows[i].name = "write_byte_data";
	rows[i++].ret = bus_smbus_write_byte_data(c, 1, 2);
	rows[i].name = "read_byte_data";
	rows[i++].ret = bus_smbus_read_byte_data(c, 1);
	rows[i].name = "write_word_data";
	rows[i++].ret = bus_smbus_write_word_data(c, 1, 2);
	rows[i].name = "read_word_data";
	rows[i++].ret = bus_smbus_read_word_data(c, 1);
	rows[i].name = "read_word_swapped";
	rows[i++].ret = bus_smbus_read_word_swapped(c, 1);
	rows[i].name = "read_block_data";
	rows[i++].ret = bus_smbus_read_block_data(c, 1, buf);
	rows[i].name = "write_block_data";
	rows[i++].ret = bus_smbus_write_block_data(c, 1, 2, buf);
	rows[i].name = "read_i2c_block_data";
	rows[i++].ret = bus_smbus_read_i2c_block_data(c, 1, 2, buf);
	for (i = 0; i < (int)(sizeof(rows) / sizeof(rows[0])); i++)
		TEST_ROW_ASSERT(rows[i].ret == -ENXIO, rows[i].name);
	CU_ASSERT(emu_bus_transfers(bus, TEST_EMPTY) == 0);
	CU_ASSERT(tc->last_n == 0);	/* nothing reached the chip next door */
	bus_i2c_client_destroy(c);
	bus_put(bus);
	CU_ASSERT(destroyed == 1);
}
TEST_CASE(test_nack_empty, "empty address NACKs for every helper");

/*
 * SMBus framing and byte order. The chip starts with regs[i] = i ^ 0x5a, so
 * regs[0x20] = 0x7a, regs[0x21] = 0x7b, regs[0x40] = 0x1a (a block count of 26).
 */
static const struct test_smbus_row {
	const char *name;
	enum testchip_op op;
	uint8_t cmd;
	uint16_t value;
	uint8_t len;
	int expect;			/* return value */
	int wire_n;			/* messages the chip saw */
	uint16_t wire_len[2];
	uint8_t wire0[4];		/* the first message's bytes (up to 4) */
	int nregs;
	uint8_t regs[3];		/* regs[cmd..] afterwards */
	int nout;
	uint8_t out[3];			/* values[0..] (block reads) */
} test_smbus_rows[] = {
	{ "write_byte: command only", OP_WRITE_BYTE, 0x21, 0, 0, 0, 1, { 1 }, { 0x21 },
	  1, { 0x21 ^ 0x5a } },
	{ "read_byte: read at the pointer", OP_READ_BYTE, 0, 0, 0, 0x5a, 1, { 1 }, { 0x5a } },
	{ "write_byte_data", OP_WRITE_BYTE_DATA, 0x10, 0xa5, 0, 0, 1, { 2 }, { 0x10, 0xa5 },
	  2, { 0xa5, 0x11 ^ 0x5a } },
	{ "read_byte_data: cmd, restart, read", OP_READ_BYTE_DATA, 0x20, 0, 0, 0x7a, 2, { 1, 1 },
	  { 0x20 } },
	{ "write_word_data: low byte first", OP_WRITE_WORD, 0x30, 0x1234, 0, 0, 1, { 3 },
	  { 0x30, 0x34, 0x12 }, 2, { 0x34, 0x12 } },
	{ "read_word_data: little endian", OP_READ_WORD, 0x20, 0, 0, 0x7b7a, 2, { 1, 2 },
	  { 0x20 } },
	{ "write_word_swapped: high byte first", OP_WRITE_WORD_SWAPPED, 0x30, 0x1234, 0, 0, 1,
	  { 3 }, { 0x30, 0x12, 0x34 }, 2, { 0x12, 0x34 } },
	{ "read_word_swapped: big endian", OP_READ_WORD_SWAPPED, 0x20, 0, 0, 0x7a7b, 2, { 1, 2 },
	  { 0x20 } },
	{ "write_block_data: count first", OP_WRITE_BLOCK, 0x60, 0, 2, 0, 1, { 4 },
	  { 0x60, 2, 0xc1, 0xc2 }, 3, { 2, 0xc1, 0xc2 } },
	{ "read_block_data: count from the chip", OP_READ_BLOCK, 0x40, 0, 0, 26, 2, { 1, 33 },
	  { 0x40 }, 0, { 0 }, 3, { 0x41 ^ 0x5a, 0x42 ^ 0x5a, 0x43 ^ 0x5a } },
	{ "read_i2c_block_data: caller's length", OP_READ_I2C_BLOCK, 0x10, 0, 3, 3, 2, { 1, 3 },
	  { 0x10 }, 0, { 0 }, 3, { 0x10 ^ 0x5a, 0x11 ^ 0x5a, 0x12 ^ 0x5a } },
	{ "master_send: one plain write", OP_MASTER_SEND, 0x70, 0, 3, 3, 1, { 3 },
	  { 0x70, 0xc1, 0xc2 }, 2, { 0xc1, 0xc2 } },
	{ "master_recv: one plain read", OP_MASTER_RECV, 0, 0, 2, 2, 1, { 2 }, { 0x5a, 0x5b },
	  0, { 0 }, 2, { 0x5a, 0x5b } },
};

/* Run one row against a fresh chip whose pointer is 0; check what the chip saw. */
static void test_smbus_check(struct bus_i2c_client *c, struct testchip *tc,
			     const struct test_smbus_row *r)
{
	uint8_t out[BUS_SMBUS_BLOCK_MAX] = { 0 };
	int i, ret;

	for (i = 0; i < 256; i++)
		tc->regs[i] = (uint8_t)(i ^ 0x5a);
	tc->ptr = 0;
	tc->last_n = 0;
	ret = testchip_do(c, r->op, r->cmd, r->value, r->len, out);
	TEST_ROW_ASSERT(ret == r->expect, r->name);
	TEST_ROW_ASSERT(tc->last_n == r->wire_n, r->name);
	for (i = 0; i < r->wire_n && i < 2; i++) {
		TEST_ROW_ASSERT(tc->last[i].len == r->wire_len[i], r->name);
		TEST_ROW_ASSERT(tc->last[i].addr == TEST_ADDR, r->name);
		/* reads are the last message, and only reads */
		TEST_ROW_ASSERT(!!(tc->last[i].flags & BUS_I2C_M_RD) ==
				(r->op == OP_READ_BYTE || r->op == OP_MASTER_RECV ||
				 (i == 1)), r->name);
	}
	for (i = 0; i < r->wire_len[0] && i < 4 && r->wire_n; i++)
		TEST_ROW_ASSERT(tc->last[0].data[i] == r->wire0[i], r->name);
	for (i = 0; i < r->nregs; i++)
		TEST_ROW_ASSERT(tc->regs[(uint8_t)(r->cmd + i)] == r->regs[i], r->name);
	for (i = 0; i < r->nout; i++)
		TEST_ROW_ASSERT(out[i] == r->out[i], r->name);
	if (r->op == OP_WRITE_BYTE)
		TEST_ROW_ASSERT(tc->ptr == r->cmd, r->name);
}

static void test_smbus_emulation(void)
{
	struct bus *bus;
	struct bus_i2c_client *c;
	struct testchip *tc;
	int destroyed = 0;
	size_t i;

	test_emu_i2c(&bus, &c, &tc, &destroyed);
	for (i = 0; i < sizeof(test_smbus_rows) / sizeof(test_smbus_rows[0]); i++)
		test_smbus_check(c, tc, &test_smbus_rows[i]);
	bus_i2c_client_destroy(c);
	bus_put(bus);
	CU_ASSERT(destroyed == 1);
}
TEST_CASE(test_smbus_emulation, "SMBus framing and byte order");

static void test_smbus_limits(void)
{
	static const uint8_t big[40];
	uint8_t out[BUS_SMBUS_BLOCK_MAX];
	struct bus *bus;
	struct bus_i2c_client *c;
	struct testchip *tc;
	int destroyed = 0;
	const struct {
		const char *name;
		int ret;
		int expect;
	} *row, rows_fn[] = {
		{ "block write of 0 bytes", 0, -EINVAL },
		{ "block write of 33 bytes", 0, -EINVAL },
		{ "block write of 32 bytes", 0, 0 },
		{ "i2c block read of 0 bytes", 0, -EINVAL },
		{ "i2c block read of 40 bytes is cut to 32", 0, 32 },
		{ "block read with count 0 from the chip", 0, -EPROTO },
		{ "block read with count 33 from the chip", 0, -EPROTO },
		{ "master send of -1 bytes", 0, -EINVAL },
	};
	int got[8];
	size_t i;

	test_emu_i2c(&bus, &c, &tc, &destroyed);
	got[0] = bus_smbus_write_block_data(c, 0x10, 0, big);
	got[1] = bus_smbus_write_block_data(c, 0x10, 33, big);
	got[2] = bus_smbus_write_block_data(c, 0x10, 32, big);
	got[3] = bus_smbus_read_i2c_block_data(c, 0x10, 0, out);
	got[4] = bus_smbus_read_i2c_block_data(c, 0x10, 40, out);
	tc->regs[0x80] = 0;
	got[5] = bus_smbus_read_block_data(c, 0x80, out);
	tc->regs[0x80] = 33;
	got[6] = bus_smbus_read_block_data(c, 0x80, out);
	got[7] = bus_i2c_master_send(c, big, -1);
	for (i = 0; i < sizeof(rows_fn) / sizeof(rows_fn[0]); i++) {
		row = &rows_fn[i];
		TEST_ROW_ASSERT(got[i] == row->expect, row->name);
	}
	bus_i2c_client_destroy(c);
	bus_put(bus);
}
TEST_CASE(test_smbus_limits, "SMBus length limits");

/* A combined transaction to two chips: each run of messages goes to its own. */
static void test_transfer_two_chips(void)
{
	struct bus *bus;
	struct bus_i2c_client *c;
	struct testchip *tc, *other = testchip_create(NULL);
	int destroyed = 0;
	uint8_t w1[] = { 0x05 }, r1[1], w2[] = { 0x06 }, r2[1];
	struct bus_i2c_msg msgs[] = {
		{ TEST_ADDR, 0, 1, w1 }, { TEST_ADDR, BUS_I2C_M_RD, 1, r1 },
		{ TEST_ADDR + 1, 0, 1, w2 }, { TEST_ADDR + 1, BUS_I2C_M_RD, 1, r2 },
	};

	test_emu_i2c(&bus, &c, &tc, &destroyed);
	other->regs[0x06] = 0xee;
	CU_ASSERT_FATAL(emu_bus_attach(bus, TEST_ADDR + 1, &other->base) == 0);
	CU_ASSERT(bus_i2c_transfer(c, msgs, 4) == 4);
	CU_ASSERT(r1[0] == (0x05 ^ 0x5a));
	CU_ASSERT(r2[0] == 0xee);
	CU_ASSERT(emu_bus_transfers(bus, TEST_ADDR) == 1);
	CU_ASSERT(emu_bus_transfers(bus, TEST_ADDR + 1) == 1);
	CU_ASSERT(emu_bus_chip(bus, TEST_ADDR + 1) == &other->base);
	CU_ASSERT(emu_bus_chip(bus, TEST_EMPTY) == NULL);
	bus_i2c_client_destroy(c);
	bus_put(bus);
}
TEST_CASE(test_transfer_two_chips, "one transaction, two chips");

static void test_attach(void)
{
	struct bus *bus;
	int destroyed = 0;
	struct testchip *a = testchip_create(&destroyed), *b = testchip_create(&destroyed);
	struct testchip *s = testchip_create(&destroyed);

	CU_ASSERT_FATAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 1, NULL, &bus) == 0);
	CU_ASSERT(emu_bus_attach(bus, 0x20, &a->base) == 0);
	CU_ASSERT(a->base.clock != NULL);
	/* taken: the second chip is refused and, being the bus's anyway, freed */
	CU_ASSERT(emu_bus_attach(bus, 0x20, &b->base) == -EBUSY);
	CU_ASSERT(destroyed == 1);
	CU_ASSERT(emu_bus_attach(bus, 0x20, NULL) == -EINVAL);
	CU_ASSERT(emu_bus_attach(NULL, 0x21, &s->base) == -EINVAL);
	CU_ASSERT(destroyed == 2);
	CU_ASSERT(emu_bus_chip(bus, 0x20) == &a->base);
	bus_put(bus);
	CU_ASSERT(destroyed == 3);	/* chips go with the bus */
}
TEST_CASE(test_attach, "attach: busy, ownership, destroy on close");

/* Fault rows: five read_byte_data calls after arming; what each returns (0 = ok). */
static void test_faults(void)
{
	static const struct {
		const char *name;
		struct emu_fault fault;
		int expect[5];
		bool may_block;
	} rows[] = {
		{ "none", { EMU_FAULT_NONE, 0, 0, 0 }, { 0, 0, 0, 0, 0 }, false },
		{ "NACK until cleared", { EMU_FAULT_NACK, 0, 0, 0 },
		  { -ENXIO, -ENXIO, -ENXIO, -ENXIO, -ENXIO }, false },
		{ "NACK after 2, once", { EMU_FAULT_NACK, 2, 1, 0 }, { 0, 0, -ENXIO, 0, 0 },
		  false },
		{ "EIO after 1, twice", { EMU_FAULT_EIO, 1, 2, 0 }, { 0, -EIO, -EIO, 0, 0 },
		  false },
		{ "EIO after 4", { EMU_FAULT_EIO, 4, 0, 0 }, { 0, 0, 0, 0, -EIO }, false },
		{ "HANG 30 ms, once", { EMU_FAULT_HANG, 0, 1, 30 }, { -ETIMEDOUT, 0, 0, 0, 0 },
		  true },
		{ "HANG 20 ms after 3, twice", { EMU_FAULT_HANG, 3, 2, 20 },
		  { 0, 0, 0, -ETIMEDOUT, -ETIMEDOUT }, true },
	};
	size_t i;
	int k;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct bus *bus;
		struct bus_i2c_client *c;
		struct testchip *tc;
		int destroyed = 0;

		test_emu_i2c(&bus, &c, &tc, &destroyed);
		TEST_ROW_ASSERT(emu_bus_set_fault(bus, TEST_ADDR, &rows[i].fault) == 0,
				rows[i].name);
		TEST_ROW_ASSERT(bus->may_block == rows[i].may_block, rows[i].name);
		for (k = 0; k < 5; k++) {
			double t0 = test_mono_s();
			int ret = bus_smbus_read_byte_data(c, 0x20);
			double dt = test_mono_s() - t0;

			if (rows[i].expect[k] == 0)
				TEST_ROW_ASSERT(ret == 0x7a, rows[i].name);
			else
				TEST_ROW_ASSERT(ret == rows[i].expect[k], rows[i].name);
			if (rows[i].expect[k] == -ETIMEDOUT)
				TEST_ROW_ASSERT(dt >= rows[i].fault.hang_ms / 1000.0 - 0.002,
						rows[i].name);
		}
		/* every attempt counts as a transfer, failed or not */
		TEST_ROW_ASSERT(emu_bus_transfers(bus, TEST_ADDR) == 5, rows[i].name);
		bus_i2c_client_destroy(c);
		bus_put(bus);
	}
}
TEST_CASE(test_faults, "faults: mode, after, count");

static void test_fault_clear_and_errors(void)
{
	struct bus *bus;
	struct bus_i2c_client *c;
	struct testchip *tc;
	int destroyed = 0;
	struct emu_fault nack = { EMU_FAULT_NACK, 0, 0, 0 }, none = { EMU_FAULT_NONE, 0, 0, 0 };
	struct emu_fault bad = { (enum emu_fault_mode)9, 0, 0, 0 };
	struct emu_fault hang = { EMU_FAULT_HANG, 0, 0, 0 };

	test_emu_i2c(&bus, &c, &tc, &destroyed);
	CU_ASSERT(emu_bus_set_fault(bus, TEST_ADDR, &nack) == 0);
	CU_ASSERT(bus_smbus_read_byte_data(c, 0x20) == -ENXIO);
	CU_ASSERT(emu_bus_set_fault(bus, TEST_ADDR, &none) == 0);
	CU_ASSERT(bus_smbus_read_byte_data(c, 0x20) == 0x7a);
	CU_ASSERT(emu_bus_set_fault(bus, TEST_ADDR, &bad) == -EINVAL);
	CU_ASSERT(emu_bus_set_fault(bus, TEST_ADDR, NULL) == -EINVAL);
	CU_ASSERT(emu_bus_set_fault(NULL, TEST_ADDR, &nack) == -EINVAL);
	/* a fault on the neighbour leaves this chip alone */
	CU_ASSERT(emu_bus_set_fault(bus, TEST_EMPTY, &nack) == 0);
	CU_ASSERT(bus_smbus_read_byte_data(c, 0x20) == 0x7a);
	/* may_block follows armed hangs */
	CU_ASSERT(emu_bus_set_fault(bus, TEST_EMPTY, &hang) == 0);
	CU_ASSERT(bus->may_block == true);
	CU_ASSERT(emu_bus_set_fault(bus, TEST_EMPTY, &none) == 0);
	CU_ASSERT(bus->may_block == false);
	bus_i2c_client_destroy(c);
	bus_put(bus);
}
TEST_CASE(test_fault_clear_and_errors, "faults: clear, errors, may_block");

struct test_hang_arg {
	struct bus_i2c_client *c;
	int ret;
	int done;
};

static void *test_hang_thread(void *p)
{
	struct test_hang_arg *a = p;

	a->ret = bus_smbus_read_byte_data(a->c, 0x20);
	__atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A hang (default 60 s) is cleared from another thread while the transfer holds the bus. */
static void test_hang_cleared(void)
{
	struct bus *bus;
	struct bus_i2c_client *c;
	struct testchip *tc;
	int destroyed = 0;
	struct emu_fault hang = { EMU_FAULT_HANG, 0, 0, 0 }, none = { EMU_FAULT_NONE, 0, 0, 0 };
	struct test_hang_arg arg = { 0 };
	struct timespec ms50 = { 0, 50000000L };
	pthread_t th;
	double t0;

	test_emu_i2c(&bus, &c, &tc, &destroyed);
	CU_ASSERT(emu_bus_set_fault(bus, TEST_ADDR, &hang) == 0);
	arg.c = c;
	t0 = test_mono_s();
	CU_ASSERT_FATAL(pthread_create(&th, NULL, test_hang_thread, &arg) == 0);
	nanosleep(&ms50, NULL);
	nanosleep(&ms50, NULL);
	CU_ASSERT(__atomic_load_n(&arg.done, __ATOMIC_ACQUIRE) == 0);
	/* must not wait for the hung transfer's bus lock */
	CU_ASSERT(emu_bus_set_fault(bus, TEST_ADDR, &none) == 0);
	pthread_join(th, NULL);
	CU_ASSERT(arg.ret == -ETIMEDOUT);
	CU_ASSERT(test_mono_s() - t0 < 5.0);
	CU_ASSERT(bus_smbus_read_byte_data(c, 0x20) == 0x7a);
	bus_i2c_client_destroy(c);
	bus_put(bus);
}
TEST_CASE(test_hang_cleared, "hang cleared from another thread");

static void test_clock(void)
{
	struct bus *bus;
	struct testchip *tc = testchip_create(NULL);
	const struct emu_clock *clk;
	double t, real0, v;

	CU_ASSERT_FATAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 0, NULL, &bus) == 0);
	CU_ASSERT_FATAL(emu_bus_attach(bus, TEST_ADDR, &tc->base) == 0);
	clk = tc->base.clock;
	CU_ASSERT_FATAL(clk != NULL);

	/* running: starts near 0, msleep adds without sleeping */
	t = emu_chip_now(&tc->base);
	CU_ASSERT(t >= 0 && t < 1.0);
	real0 = test_mono_s();
	bus_msleep(bus, 5000);
	v = emu_chip_now(&tc->base);
	CU_ASSERT(v - t >= 5.0 && v - t < 6.0);
	CU_ASSERT(test_mono_s() - real0 < 0.5);

	/* frozen: exact, and moved only by msleep */
	emu_bus_set_time(bus, 10.0);
	CU_ASSERT_DOUBLE_EQUAL(emu_chip_now(&tc->base), 10.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(emu_chip_now(&tc->base), 10.0, 1e-12);
	bus_msleep(bus, 250);
	CU_ASSERT_DOUBLE_EQUAL(clk->now(clk), 10.25, 1e-9);

	/* running again from where it stood, never backwards */
	emu_bus_set_time(bus, -1);
	v = emu_chip_now(&tc->base);
	CU_ASSERT(v >= 10.25 && v < 11.0);
	bus_put(bus);

	/* a real bus sleeps for real */
	real0 = test_mono_s();
	bus_msleep(NULL, 20);
	CU_ASSERT(test_mono_s() - real0 >= 0.019);
}
TEST_CASE(test_clock, "virtual clock");

static void test_spi(void)
{
	struct bus *bus, *i2c;
	struct bus_spi_device *spi, *empty, *wrong = (struct bus_spi_device *)1;
	int destroyed = 0;
	struct testchip *tc = testchip_create(&destroyed);
	uint8_t cmd[2] = { 0x10, 0 }, rx[2], tail[3];
	uint8_t wr[3] = { 0x80 | 0x20, 0xaa, 0xbb };
	struct bus_spi_transfer two[2] = {
		{ .tx_buf = cmd, .rx_buf = rx, .len = 2 },
		{ .rx_buf = tail, .len = 3, .speed_hz = 12345, .bits_per_word = 16 },
	};

	CU_ASSERT_FATAL(bus_create(bus_backend_find("emulated"), BUS_SPI, 0, NULL, &bus) == 0);
	CU_ASSERT_FATAL(emu_bus_attach(bus, 1, &tc->base) == 0);
	CU_ASSERT_FATAL(bus_spi_device_create(bus, 1, &spi) == 0);
	CU_ASSERT_FATAL(bus_spi_device_create(bus, 2, &empty) == 0);
	spi->max_speed_hz = 2000000;
	spi->bits_per_word = 8;

	CU_ASSERT(bus_spi_sync(spi, two, 2) == 0);
	TEST_ROW_ASSERT(rx[1] == (0x10 ^ 0x5a), "full duplex: address then data");
	TEST_ROW_ASSERT(tail[0] == (0x11 ^ 0x5a) && tail[2] == (0x13 ^ 0x5a) &&
			tc->last_nxfers == 2, "chip select held across transfers");
	TEST_ROW_ASSERT(tc->last_speed_hz == 2000000 && tc->last_bits == 8,
			"0 speed/bits mean the device's");
	CU_ASSERT(bus_spi_write(spi, wr, 3) == 0);
	CU_ASSERT(bus_spi_sync(spi, &(struct bus_spi_transfer){ .tx_buf = cmd, .len = 1 }, 1) == 0);
	cmd[0] = 0x20;
	CU_ASSERT(bus_spi_sync(spi, two, 1) == 0);
	TEST_ROW_ASSERT(rx[1] == 0xaa && tc->regs[0x21] == 0xbb, "write then read back");
	TEST_ROW_ASSERT(bus_spi_write(empty, wr, 3) == -ENXIO, "empty chip select NACKs");
	CU_ASSERT_FATAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 0, NULL, &i2c) == 0);
	TEST_ROW_ASSERT(bus_spi_device_create(i2c, 0, &wrong) == -EINVAL && wrong == NULL,
			"spi device on an i2c bus");
	CU_ASSERT(bus_spi_read(spi, rx, 0) == -EINVAL);
	CU_ASSERT(bus_spi_sync(spi, two, 0) == -EINVAL);
	bus_put(i2c);
	bus_spi_device_destroy(empty);
	bus_spi_device_destroy(spi);
	CU_ASSERT(destroyed == 0);
	bus_put(bus);
	CU_ASSERT(destroyed == 1);
}
TEST_CASE(test_spi, "SPI sync through the emulated bus");

TEST_MAIN("bus", NULL, NULL)
