/*
 * testchip.h - a tiny register-file chip model for the bus layer's tests.
 *
 * Not a real part: 256 byte registers behind a pointer, the shape of most
 * SMBus chips. I2C: a write message sets the pointer from its first byte and
 * stores the rest at pointer, pointer+1, ...; a read message returns bytes
 * from the pointer on. SPI: the first byte of a sync is an address (bit 7 set:
 * write), every later byte of the same sync reads or writes the next
 * register. It records the last transaction as it saw it on the wire, so
 * tests can check framing and byte order, and counts its own destruction so
 * tests can check who frees it. Used by test_bus.c and test_shim_bus.c only,
 * which also share testchip_do(): one bus helper named by a table row.
 */
#ifndef IIOWIRE_TESTCHIP_H
#define IIOWIRE_TESTCHIP_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bus/bus.h"
#include "emu/emu.h"

#define TESTCHIP_MSGS_MAX	4
#define TESTCHIP_BYTES_MAX	64

struct testchip_msg {
	uint16_t addr;
	uint16_t flags;
	uint16_t len;
	uint8_t data[TESTCHIP_BYTES_MAX];	/* written bytes, or what was read */
};

struct testchip {
	struct emu_chip base;
	uint8_t regs[256];
	uint8_t ptr;
	int *destroyed;		/* incremented by destroy, may be NULL */
	int last_n;		/* messages in the last I2C transaction */
	struct testchip_msg last[TESTCHIP_MSGS_MAX];
	int spi_syncs;
	uint32_t last_speed_hz;	/* of the first transfer of the last sync */
	uint8_t last_bits;
	int last_nxfers;
};

static inline int testchip_i2c(struct emu_chip *chip, struct bus_i2c_msg *msgs, int n)
{
	struct testchip *tc = (struct testchip *)chip;
	int i, j;

	tc->last_n = n;
	for (i = 0; i < n; i++) {
		struct testchip_msg *rec = i < TESTCHIP_MSGS_MAX ? &tc->last[i] : NULL;

		if (msgs[i].flags & BUS_I2C_M_RD) {
			for (j = 0; j < msgs[i].len; j++)
				msgs[i].buf[j] = tc->regs[tc->ptr++];
		} else {
			for (j = 0; j < msgs[i].len; j++) {
				if (j == 0)
					tc->ptr = msgs[i].buf[0];
				else
					tc->regs[tc->ptr++] = msgs[i].buf[j];
			}
		}
		if (rec) {
			rec->addr = msgs[i].addr;
			rec->flags = msgs[i].flags;
			rec->len = msgs[i].len;
			memcpy(rec->data, msgs[i].buf,
			       msgs[i].len < TESTCHIP_BYTES_MAX ? msgs[i].len : TESTCHIP_BYTES_MAX);
		}
	}
	return n;
}

static inline int testchip_spi(struct emu_chip *chip, const struct bus_spi_transfer *x, int n)
{
	struct testchip *tc = (struct testchip *)chip;
	int i, pos = 0;
	uint32_t j;
	uint8_t addr = 0, reg;

	tc->spi_syncs++;
	tc->last_speed_hz = x[0].speed_hz;
	tc->last_bits = x[0].bits_per_word;
	tc->last_nxfers = n;
	for (i = 0; i < n; i++) {
		for (j = 0; j < x[i].len; j++, pos++) {
			uint8_t tx = x[i].tx_buf ? x[i].tx_buf[j] : 0;
			uint8_t rx = 0;

			if (pos == 0) {
				addr = tx;
			} else {
				reg = (uint8_t)((addr & 0x7f) + pos - 1);
				if (addr & 0x80)
					tc->regs[reg] = tx;
				else
					rx = tc->regs[reg];
			}
			if (x[i].rx_buf)
				x[i].rx_buf[j] = rx;
		}
	}
	return 0;
}

static inline void testchip_destroy(struct emu_chip *chip)
{
	struct testchip *tc = (struct testchip *)chip;

	if (tc->destroyed)
		(*tc->destroyed)++;
	free(tc);
}

static const struct emu_chip_ops testchip_ops = {
	.i2c_transfer = testchip_i2c,
	.spi_transfer = testchip_spi,
	.destroy = testchip_destroy,
};

/* testchip_create() - regs[i] = i ^ 0x5a; owned: the bus or shim it is given to frees it. */
static inline struct testchip *testchip_create(int *destroyed)
{
	struct testchip *tc = calloc(1, sizeof(*tc));
	int i;

	if (!tc)
		return NULL;
	tc->base.ops = &testchip_ops;
	tc->base.name = "testchip";
	tc->destroyed = destroyed;
	for (i = 0; i < 256; i++)
		tc->regs[i] = (uint8_t)(i ^ 0x5a);
	return tc;
}

/* The bus helpers a test row can name. */
enum testchip_op {
	OP_WRITE_BYTE, OP_READ_BYTE, OP_WRITE_BYTE_DATA, OP_READ_BYTE_DATA, OP_WRITE_WORD,
	OP_READ_WORD, OP_WRITE_WORD_SWAPPED, OP_READ_WORD_SWAPPED, OP_WRITE_BLOCK,
	OP_READ_BLOCK, OP_READ_I2C_BLOCK, OP_MASTER_SEND, OP_MASTER_RECV, OP_TRANSFER,
};

/**
 * testchip_do() - run helper @op on @c. Writes take @cmd, @value and @len
 * bytes of 0x70 0xc1 0xc2 0xc3 (block writes from 0xc1 on); reads land in
 * @out; OP_TRANSFER writes @cmd, then reads @len bytes after a repeated start.
 * Return: what the helper returns.
 */
static inline int testchip_do(struct bus_i2c_client *c, enum testchip_op op, uint8_t cmd,
			      uint16_t value, uint8_t len, uint8_t *out)
{
	static const uint8_t payload[] = { 0x70, 0xc1, 0xc2, 0xc3 };
	struct bus_i2c_msg msgs[2] = {
		{ c->addr, 0, 1, &cmd }, { c->addr, BUS_I2C_M_RD, len, out },
	};

	switch (op) {
	case OP_WRITE_BYTE:
		return bus_smbus_write_byte(c, cmd);
	case OP_READ_BYTE:
		return bus_smbus_read_byte(c);
	case OP_WRITE_BYTE_DATA:
		return bus_smbus_write_byte_data(c, cmd, (uint8_t)value);
	case OP_READ_BYTE_DATA:
		return bus_smbus_read_byte_data(c, cmd);
	case OP_WRITE_WORD:
		return bus_smbus_write_word_data(c, cmd, value);
	case OP_READ_WORD:
		return bus_smbus_read_word_data(c, cmd);
	case OP_WRITE_WORD_SWAPPED:
		return bus_smbus_write_word_swapped(c, cmd, value);
	case OP_READ_WORD_SWAPPED:
		return bus_smbus_read_word_swapped(c, cmd);
	case OP_WRITE_BLOCK:
		return bus_smbus_write_block_data(c, cmd, len, &payload[1]);
	case OP_READ_BLOCK:
		return bus_smbus_read_block_data(c, cmd, out);
	case OP_READ_I2C_BLOCK:
		return bus_smbus_read_i2c_block_data(c, cmd, len, out);
	case OP_MASTER_SEND:
		return bus_i2c_master_send(c, payload, len);
	case OP_MASTER_RECV:
		return bus_i2c_master_recv(c, out, len);
	case OP_TRANSFER:
		return bus_i2c_transfer(c, msgs, 2);
	}
	return -EINVAL;
}

#endif /* IIOWIRE_TESTCHIP_H */
