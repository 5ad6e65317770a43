/*
 * test_shim_bus.c - the real backends (bus_i2cdev.c, bus_spidev.c) through
 * the test shim's fake /dev nodes, against the emulated backend.
 *
 * What must hold: the same request gives the same result and leaves the chip
 * in the same state whether it goes through the emulated backend or through
 * i2c-dev/spidev ioctls; it really goes through ioctl (the shim's counters);
 * the I2C_SLAVE address is cached; spidev settings are written only when
 * they change; a spidev node refuses another chip select; opens and closes
 * pair up; faults and NACKs come back as the same -errno. Also checks the
 * shim itself: calls on ordinary fds pass through untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "testutil.h"
#include "testchip.h"
#include "shim/shim.h"
#include "bus/bus.h"

#define I2C_NODE	SHIM_DIR "/i2c-4"
#define SPI_NODE	SHIM_DIR "/spidev1.2"
#define SPI_CS		2
#define ADDR		0x39

/* Requests and what each costs in ioctls on i2c-dev (the address is already selected). */
static const struct test_row {
	const char *name;
	enum testchip_op op;
	uint8_t cmd;
	uint16_t value;
	uint8_t len;
	unsigned long smbus, rdwr;
} test_rows[] = {
	{ "write_byte", OP_WRITE_BYTE, 0x22, 0, 0, 1, 0 },
	{ "read_byte", OP_READ_BYTE, 0, 0, 0, 1, 0 },
	{ "write_byte_data", OP_WRITE_BYTE_DATA, 0x10, 0xa5, 0, 1, 0 },
	{ "read_byte_data", OP_READ_BYTE_DATA, 0x10, 0, 0, 1, 0 },
	{ "write_word_data", OP_WRITE_WORD, 0x30, 0x1234, 0, 1, 0 },
	{ "read_word_data", OP_READ_WORD, 0x30, 0, 0, 1, 0 },
	{ "write_word_swapped", OP_WRITE_WORD_SWAPPED, 0x32, 0xbeef, 0, 1, 0 },
	{ "read_word_swapped", OP_READ_WORD_SWAPPED, 0x32, 0, 0, 1, 0 },
	{ "write_block_data", OP_WRITE_BLOCK, 0x60, 0, 3, 1, 0 },
	{ "read_block_data", OP_READ_BLOCK, 0x60, 0, 0, 1, 0 },
	{ "read_i2c_block_data", OP_READ_I2C_BLOCK, 0x61, 0, 4, 1, 0 },
	{ "master_send", OP_MASTER_SEND, 0x70, 0, 3, 0, 1 },
	{ "master_recv", OP_MASTER_RECV, 0, 0, 5, 0, 1 },
	{ "transfer: write, restart, read", OP_TRANSFER, 0x20, 0, 2, 0, 1 },
};

static void test_i2c_pair(struct bus **emu, struct bus_i2c_client **ce, struct testchip **te,
			  struct bus **dev, struct bus_i2c_client **cd, struct testchip **td)
{
	shim_reset();
	*te = testchip_create(NULL);
	*td = testchip_create(NULL);
	CU_ASSERT_FATAL(*te && *td);
	CU_ASSERT_FATAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 4, NULL, emu) == 0);
	CU_ASSERT_FATAL(emu_bus_attach(*emu, ADDR, &(*te)->base) == 0);
	CU_ASSERT_FATAL(shim_i2c_add(I2C_NODE, ADDR, &(*td)->base) == 0);
	CU_ASSERT_FATAL(bus_create(bus_backend_find("i2c-dev"), BUS_I2C, 4, I2C_NODE, dev) == 0);
	CU_ASSERT_FATAL(bus_i2c_client_create(*emu, ADDR, ce) == 0);
	CU_ASSERT_FATAL(bus_i2c_client_create(*dev, ADDR, cd) == 0);
}

/* Every request, in sequence, on both backends: same results, same chip state. */
static void test_i2cdev_matches_emulated(void)
{
	struct bus *emu, *dev;
	struct bus_i2c_client *ce, *cd;
	struct testchip *te, *td;
	size_t i;

	test_i2c_pair(&emu, &ce, &te, &dev, &cd, &td);
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_FUNCS) == 1);	/* checked at open */
	CU_ASSERT(dev->may_block == true);
	CU_ASSERT(emu->may_block == false);
	for (i = 0; i < sizeof(test_rows) / sizeof(test_rows[0]); i++) {
		uint8_t oe[40], od[40];
		unsigned long smbus0 = shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS);
		unsigned long rdwr0 = shim_ioctl_count(SHIM_IOCTL_I2C_RDWR);
		int re, rd;

		memset(oe, 0xee, sizeof(oe));
		memset(od, 0xdd, sizeof(od));
		re = testchip_do(ce, test_rows[i].op, test_rows[i].cmd, test_rows[i].value,
				 test_rows[i].len, oe);
		rd = testchip_do(cd, test_rows[i].op, test_rows[i].cmd, test_rows[i].value,
				 test_rows[i].len, od);
		TEST_ROW_ASSERT(re >= 0, test_rows[i].name);
		TEST_ROW_ASSERT(re == rd, test_rows[i].name);
		if (test_rows[i].op == OP_READ_BLOCK || test_rows[i].op == OP_READ_I2C_BLOCK ||
		    test_rows[i].op == OP_MASTER_RECV || test_rows[i].op == OP_TRANSFER)
			TEST_ROW_ASSERT(memcmp(oe, od, re > 0 && re < 40 ? (size_t)re :
					       test_rows[i].len) == 0, test_rows[i].name);
		TEST_ROW_ASSERT(memcmp(te->regs, td->regs, sizeof(te->regs)) == 0, test_rows[i].name);
		TEST_ROW_ASSERT(te->ptr == td->ptr, test_rows[i].name);
		TEST_ROW_ASSERT(te->last_n == td->last_n, test_rows[i].name);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SMBUS) - smbus0 == test_rows[i].smbus,
				test_rows[i].name);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) - rdwr0 == test_rows[i].rdwr,
				test_rows[i].name);
	}
	/* one chip, one address: selected once and cached */
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SLAVE) == 1);
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_SLAVE_FORCE) == 0);
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_OTHER) == 0);
	bus_i2c_client_destroy(ce);
	bus_i2c_client_destroy(cd);
	bus_put(emu);
	bus_put(dev);
	shim_reset();
}
TEST_CASE(test_i2cdev_matches_emulated, "i2c-dev gives what emulated gives, via ioctl");

/* Errors come back as the same -errno on both backends. */
static void test_i2cdev_errors(void)
{
	static const struct {
		const char *name;
		struct emu_fault fault;
		uint16_t addr;
		int expect[3];		/* three read_byte_data, 0 = a value */
	} erows[] = {
		{ "empty address NACKs", { EMU_FAULT_NONE, 0, 0, 0 }, 0x50,
		  { -ENXIO, -ENXIO, -ENXIO } },
		{ "NACK after 1, once", { EMU_FAULT_NACK, 1, 1, 0 }, ADDR, { 0, -ENXIO, 0 } },
		{ "EIO until cleared", { EMU_FAULT_EIO, 0, 0, 0 }, ADDR, { -EIO, -EIO, -EIO } },
		{ "HANG 20 ms, twice", { EMU_FAULT_HANG, 0, 2, 20 }, ADDR,
		  { -ETIMEDOUT, -ETIMEDOUT, 0 } },
	};
	size_t i;
	int k;

	for (i = 0; i < sizeof(erows) / sizeof(erows[0]); i++) {
		struct bus *emu, *dev;
		struct bus_i2c_client *ce, *cd;
		struct testchip *te, *td;

		test_i2c_pair(&emu, &ce, &te, &dev, &cd, &td);
		ce->addr = cd->addr = erows[i].addr;
		if (erows[i].fault.mode != EMU_FAULT_NONE) {
			TEST_ROW_ASSERT(emu_bus_set_fault(emu, ADDR, &erows[i].fault) == 0,
					erows[i].name);
			TEST_ROW_ASSERT(shim_set_fault(I2C_NODE, ADDR, &erows[i].fault) == 0,
					erows[i].name);
		}
		for (k = 0; k < 3; k++) {
			int re = bus_smbus_read_byte_data(ce, 0x20);
			int rd = bus_smbus_read_byte_data(cd, 0x20);

			TEST_ROW_ASSERT(re == rd, erows[i].name);
			if (erows[i].expect[k])
				TEST_ROW_ASSERT(rd == erows[i].expect[k], erows[i].name);
			else
				TEST_ROW_ASSERT(rd == (0x20 ^ 0x5a), erows[i].name);
		}
		bus_i2c_client_destroy(ce);
		bus_i2c_client_destroy(cd);
		bus_put(emu);
		bus_put(dev);
	}
	CU_ASSERT(shim_set_fault(I2C_NODE, 0x51, &erows[1].fault) == -ENOENT);
	CU_ASSERT(shim_set_fault("/nope", ADDR, &erows[1].fault) == -ENOENT);
	shim_reset();
}
TEST_CASE(test_i2cdev_errors, "i2c-dev errors match emulated");

struct test_hang_arg {
	struct bus_i2c_client *c;
	int ret;
};

static void *test_hang_thread(void *p)
{
	struct test_hang_arg *a = p;

	a->ret = bus_smbus_read_byte_data(a->c, 0x20);
	return NULL;
}

static void test_i2cdev_hang_cleared(void)
{
	struct bus *emu, *dev;
	struct bus_i2c_client *ce, *cd;
	struct testchip *te, *td;
	struct emu_fault hang = { EMU_FAULT_HANG, 0, 0, 0 }, none = { EMU_FAULT_NONE, 0, 0, 0 };
	struct timespec ms100 = { 0, 100000000L }, t0, t1;
	struct test_hang_arg arg = { 0 };
	pthread_t th;

	test_i2c_pair(&emu, &ce, &te, &dev, &cd, &td);
	CU_ASSERT(shim_set_fault(I2C_NODE, ADDR, &hang) == 0);
	arg.c = cd;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_FATAL(pthread_create(&th, NULL, test_hang_thread, &arg) == 0);
	nanosleep(&ms100, NULL);
	CU_ASSERT(shim_set_fault(I2C_NODE, ADDR, &none) == 0);
	pthread_join(th, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CU_ASSERT(arg.ret == -ETIMEDOUT);
	CU_ASSERT(t1.tv_sec - t0.tv_sec < 5);
	CU_ASSERT(bus_smbus_read_byte_data(cd, 0x20) == (0x20 ^ 0x5a));
	bus_i2c_client_destroy(ce);
	bus_i2c_client_destroy(cd);
	bus_put(emu);
	bus_put(dev);
	shim_reset();
}
TEST_CASE(test_i2cdev_hang_cleared, "i2c-dev hang cleared from another thread");

/* Opens and closes pair up; wrong nodes are refused at open. */
static void test_open_close(void)
{
	static const struct {
		const char *name;
		const char *backend;
		enum bus_type type;
		const char *path;
		int expect;
	} orows[] = {
		{ "i2c-dev on its node", "i2c-dev", BUS_I2C, I2C_NODE, 0 },
		{ "spidev on its node", "spidev", BUS_SPI, SPI_NODE, 0 },
		{ "i2c-dev on a spidev node", "i2c-dev", BUS_I2C, SPI_NODE, -ENODEV },
		{ "spidev on an i2c node", "spidev", BUS_SPI, I2C_NODE, -ENODEV },
		{ "unregistered path", "i2c-dev", BUS_I2C, SHIM_DIR "/i2c-9", -ENOENT },
	};
	size_t i;

	shim_reset();
	CU_ASSERT_FATAL(shim_i2c_add(I2C_NODE, ADDR, &testchip_create(NULL)->base) == 0);
	CU_ASSERT_FATAL(shim_spi_add(SPI_NODE, &testchip_create(NULL)->base) == 0);
	for (i = 0; i < sizeof(orows) / sizeof(orows[0]); i++) {
		struct bus *bus = NULL;
		unsigned long opens = shim_open_count(orows[i].path);
		int ret = bus_create(bus_backend_find(orows[i].backend), orows[i].type, 0,
				     orows[i].path, &bus);

		TEST_ROW_ASSERT(ret == orows[i].expect, orows[i].name);
		if (orows[i].expect != -ENOENT)
			TEST_ROW_ASSERT(shim_open_count(orows[i].path) == opens + 1,
					orows[i].name);
		TEST_ROW_ASSERT(shim_open_fds() == (ret == 0), orows[i].name);
		bus_put(bus);
		TEST_ROW_ASSERT(shim_open_fds() == 0, orows[i].name);
	}
	shim_reset();
}
TEST_CASE(test_open_close, "opens and closes pair up");

/* The shim's own contract: registration rules and pass-through of ordinary fds. */
static void test_shim_itself(void)
{
	int destroyed = 0, fds[2], avail = -1;
	struct testchip *a = testchip_create(&destroyed);

	shim_reset();
	CU_ASSERT(shim_i2c_add(I2C_NODE, ADDR, &a->base) == 0);
	CU_ASSERT(shim_chip(I2C_NODE, ADDR) == &a->base);
	CU_ASSERT(a->base.clock != NULL);
	CU_ASSERT(shim_i2c_add(I2C_NODE, ADDR, &testchip_create(&destroyed)->base) == -EBUSY);
	CU_ASSERT(destroyed == 1);
	CU_ASSERT(shim_i2c_add(I2C_NODE, 0x80, &testchip_create(&destroyed)->base) == -EINVAL);
	CU_ASSERT(shim_spi_add(I2C_NODE, &testchip_create(&destroyed)->base) == -EINVAL);
	CU_ASSERT(destroyed == 3);
	shim_set_time(7.5);
	CU_ASSERT_DOUBLE_EQUAL(emu_chip_now(&a->base), 7.5, 1e-12);
	shim_set_time(-1);
	/* ordinary fds: the real calls */
	CU_ASSERT_FATAL(pipe(fds) == 0);
	CU_ASSERT(write(fds[1], "abc", 3) == 3);
	CU_ASSERT(ioctl(fds[0], FIONREAD, &avail) == 0);
	CU_ASSERT(avail == 3);
	CU_ASSERT(close(fds[0]) == 0);
	CU_ASSERT(close(fds[1]) == 0);
	CU_ASSERT(open("/nonexistent/x", O_RDONLY) == -1 && errno == ENOENT);
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_OTHER) == 0);
	shim_reset();
	CU_ASSERT(destroyed == 4);
	CU_ASSERT(shim_chip(I2C_NODE, ADDR) == NULL);
}
TEST_CASE(test_shim_itself, "the shim's own rules");

/* spidev: same data as emulated; settings written only when they change; cs checked. */
static void test_spidev(void)
{
	struct bus *emu, *dev;
	struct bus_spi_device *se, *sd, *wrong = NULL;
	struct testchip *te = testchip_create(NULL), *td = testchip_create(NULL);
	uint8_t wr[4] = { 0x80 | 0x08, 1, 2, 3 }, addr = 0x07, re[5], rd[5];
	struct bus_spi_transfer xe[2] = {
		{ .tx_buf = &addr, .len = 1 }, { .rx_buf = re, .len = 5 },
	};
	struct bus_spi_transfer xd[2] = {
		{ .tx_buf = &addr, .len = 1 }, { .rx_buf = rd, .len = 5 },
	};
	uint32_t mode, speed;
	uint8_t bits;
	static const struct {
		const char *name;
		uint32_t mode;
		uint32_t speed;
		unsigned long wr_mode, wr_speed;	/* cumulative WR ioctls after the row */
	} srows[] = {
		{ "first sync sets mode 3 and 1 MHz", 3, 1000000, 1, 1 },
		{ "same settings: no ioctl", 3, 1000000, 1, 1 },
		{ "new speed only", 3, 2000000, 1, 2 },
		{ "new mode only", 0, 2000000, 2, 2 },
	};
	size_t i;

	shim_reset();
	CU_ASSERT_FATAL(bus_create(bus_backend_find("emulated"), BUS_SPI, 1, NULL, &emu) == 0);
	CU_ASSERT_FATAL(emu_bus_attach(emu, SPI_CS, &te->base) == 0);
	CU_ASSERT_FATAL(shim_spi_add(SPI_NODE, &td->base) == 0);
	CU_ASSERT_FATAL(bus_create(bus_backend_find("spidev"), BUS_SPI, 1, SPI_NODE, &dev) == 0);
	CU_ASSERT(dev->may_block == true);
	CU_ASSERT(bus_spi_device_create(dev, SPI_CS + 1, &wrong) == -EINVAL && !wrong);
	CU_ASSERT_FATAL(bus_spi_device_create(emu, SPI_CS, &se) == 0);
	CU_ASSERT_FATAL(bus_spi_device_create(dev, SPI_CS, &sd) == 0);
	CU_ASSERT(bus_spi_write(se, wr, 4) == 0);
	CU_ASSERT(bus_spi_write(sd, wr, 4) == 0);
	for (i = 0; i < sizeof(srows) / sizeof(srows[0]); i++) {
		unsigned long msgs = shim_ioctl_count(SHIM_IOCTL_SPI_MESSAGE);

		se->mode = sd->mode = srows[i].mode;
		se->max_speed_hz = sd->max_speed_hz = srows[i].speed;
		memset(re, 0, sizeof(re));
		memset(rd, 0xff, sizeof(rd));
		TEST_ROW_ASSERT(bus_spi_sync(se, xe, 2) == 0, srows[i].name);
		TEST_ROW_ASSERT(bus_spi_sync(sd, xd, 2) == 0, srows[i].name);
		TEST_ROW_ASSERT(memcmp(re, rd, sizeof(re)) == 0, srows[i].name);
		TEST_ROW_ASSERT(rd[1] == 1 && rd[3] == 3, srows[i].name);
		TEST_ROW_ASSERT(td->last_speed_hz == srows[i].speed, srows[i].name);
		TEST_ROW_ASSERT(td->last_nxfers == 2, srows[i].name);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_SPI_MESSAGE) == msgs + 1,
				srows[i].name);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_SPI_WR_MODE) == srows[i].wr_mode,
				srows[i].name);
		TEST_ROW_ASSERT(shim_ioctl_count(SHIM_IOCTL_SPI_WR_MAX_SPEED_HZ) ==
				srows[i].wr_speed, srows[i].name);
		TEST_ROW_ASSERT(shim_spi_settings(SPI_NODE, &mode, &speed, &bits) == 0,
				srows[i].name);
		TEST_ROW_ASSERT(mode == srows[i].mode && speed == srows[i].speed && bits == 8,
				srows[i].name);
	}
	CU_ASSERT(memcmp(te->regs, td->regs, sizeof(te->regs)) == 0);
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_SPI_RD_MODE) == 1);	/* read once at open */
	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_SPI_WR_BITS_PER_WORD) == 0);
	bus_spi_device_destroy(se);
	bus_spi_device_destroy(sd);
	bus_put(emu);
	bus_put(dev);
	CU_ASSERT(shim_open_fds() == 0);
	shim_reset();
}
TEST_CASE(test_spidev, "spidev gives what emulated gives");

TEST_MAIN("shim_bus", NULL, NULL)
