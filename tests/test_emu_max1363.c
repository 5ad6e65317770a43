/*
 * test_emu_max1363.c - the MAX1363-family chip model (drivers/emu/emu_max1363.c)
 * byte for byte on an emulated bus, with no driver in between: setup and
 * configuration bytes, every scan mode, differential pairs both ways,
 * bipolar codes, the three references, result framing (high bits set,
 * 8-bit parts one byte), saturation, input keys, and the part list.
 * Tests are tables of named rows; the row name is what CUnit reports.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "chipsuite.h"

#define EMU_TEST_ADDR	0x35
#define NROWS(a)	CHIPSUITE_NROWS(a)

/* AIN<n> = 100 * (n + 1) mV for every input the part has */
static int emu_test_inputs(int ninputs, struct emu_input *in, char keys[][24])
{
	int i;

	for (i = 0; i < ninputs; i++) {
		snprintf(keys[i], 24, "AIN%d", i);
		in[i] = (struct emu_input){ .key = keys[i],
			.sig = { .kind = EMU_SIGNAL_CONST, .value = 100.0 * (i + 1) } };
	}
	return ninputs;
}

struct bytes_row {
	const char *name;
	const char *part;
	int ninputs;
	int vref_mv;		/* the board's external reference, 0: none */
	uint8_t tx[2];		/* first write (0 bytes: none) */
	int txlen;
	uint8_t tx2[2];		/* second write, its own transaction */
	int tx2len;
	int rxlen;
	uint8_t rx[24];
};

/*
 * max1363: 12 bits, internal 2048 mV (code = 2 x mV), VDD taken as 3300 mV.
 * max1236/max1238/max11644: 12 bits, 4096 mV (code = mV). max1036: 8 bits,
 * 16 mV a code. max1136 and max11608: 10 bits, 4 mV a code.
 */
static const struct bytes_row bytes_rows[] = {
	{ "power-on: VDD reference, scan AIN0..AIN3", "max1363", 4, 0, {0}, 0, {0}, 0, 8,
	  { 0xf0, 0x7c, 0xf0, 0xf8, 0xf1, 0x74, 0xf1, 0xf0 } },
	{ "internal reference, scan to CS 3", "max1363", 4, 0, { 0xd2, 0x07 }, 2, {0}, 0, 8,
	  { 0xf0, 0xc8, 0xf1, 0x90, 0xf2, 0x58, 0xf3, 0x20 } },
	{ "AIN2 once, read twice over", "max1363", 4, 0, { 0xd2, 0x65 }, 2, {0}, 0, 4,
	  { 0xf2, 0x58, 0xf2, 0x58 } },
	{ "configuration before setup in one write", "max1363", 4, 0, { 0x65, 0xd2 }, 2, {0}, 0,
	  2, { 0xf2, 0x58 } },
	{ "setup and configuration in two writes", "max1363", 4, 0, { 0xd2 }, 1, { 0x65 }, 1, 2,
	  { 0xf2, 0x58 } },
	{ "AIN1 eight times", "max1363", 4, 0, { 0xd2, 0x23 }, 2, {0}, 0, 16,
	  { 0xf1, 0x90, 0xf1, 0x90, 0xf1, 0x90, 0xf1, 0x90,
	    0xf1, 0x90, 0xf1, 0x90, 0xf1, 0x90, 0xf1, 0x90 } },
	{ "AIN0-AIN1 below zero reads 0", "max1363", 4, 0, { 0xd2, 0x60 }, 2, {0}, 0, 2,
	  { 0xf0, 0x00 } },
	{ "AIN1-AIN0", "max1363", 4, 0, { 0xd2, 0x62 }, 2, {0}, 0, 2, { 0xf0, 0xc8 } },
	{ "AIN3-AIN2", "max1363", 4, 0, { 0xd2, 0x66 }, 2, {0}, 0, 2, { 0xf0, 0xc8 } },
	{ "AIN2-AIN3 below zero reads 0", "max1363", 4, 0, { 0xd2, 0x64 }, 2, {0}, 0, 2,
	  { 0xf0, 0x00 } },
	{ "differential scan to CS 3: 1-0 then 3-2", "max1363", 4, 0, { 0xd2, 0x06 }, 2, {0}, 0,
	  4, { 0xf0, 0xc8, 0xf0, 0xc8 } },
	{ "differential scan to CS 2: 0-1 then 2-3", "max1363", 4, 0, { 0xd2, 0x04 }, 2, {0}, 0,
	  4, { 0xf0, 0x00, 0xf0, 0x00 } },
	{ "bipolar AIN0-AIN1 is two's complement", "max1363", 4, 0, { 0xd6, 0x60 }, 2, {0}, 0, 2,
	  { 0xff, 0x38 } },
	{ "bipolar AIN1-AIN0", "max1363", 4, 0, { 0xd6, 0x62 }, 2, {0}, 0, 2, { 0xf0, 0xc8 } },
	{ "bipolar does not touch single-ended", "max1363", 4, 0, { 0xd6, 0x61 }, 2, {0}, 0, 2,
	  { 0xf0, 0xc8 } },
	{ "external reference selected, vref 2500", "max1363", 4, 2500, { 0xa2, 0x61 }, 2, {0}, 0,
	  2, { 0xf0, 0xa3 } },
	{ "external reference selected, none given: VDD", "max1363", 4, 0, { 0xa2, 0x61 }, 2,
	  {0}, 0, 2, { 0xf0, 0x7c } },
	{ "internal reference selected, board vref unused", "max1363", 4, 2500, { 0xd2, 0x61 }, 2,
	  {0}, 0, 2, { 0xf0, 0xc8 } },
	{ "VDD reference selected", "max1363", 4, 2500, { 0x82, 0x61 }, 2, {0}, 0, 2,
	  { 0xf0, 0x7c } },
	{ "setup with RST=0 restores the power-on scan", "max1363", 4, 0, { 0xd2, 0x65 }, 2,
	  { 0xd0 }, 1, 8, { 0xf0, 0xc8, 0xf1, 0x90, 0xf2, 0x58, 0xf3, 0x20 } },
	{ "4 inputs ignore the high CS bits", "max1363", 4, 0, { 0xd2, 0x6d }, 2, {0}, 0, 2,
	  { 0xf2, 0x58 } },
	{ "monitor-mode code converts CS once (monitor not modelled)", "max1363", 4, 0,
	  { 0xd2, 0x47 }, 2, {0}, 0, 4, { 0xf3, 0x20, 0xf3, 0x20 } },
	{ "max1236 scans from the mid input AIN2", "max1236", 4, 0, { 0xd2, 0x47 }, 2, {0}, 0, 4,
	  { 0xf1, 0x2c, 0xf1, 0x90 } },
	{ "max1238 scans from the mid input AIN6", "max1238", 12, 0, { 0xd2, 0x57 }, 2, {0}, 0, 12,
	  { 0xf2, 0xbc, 0xf3, 0x20, 0xf3, 0x84, 0xf3, 0xe8, 0xf4, 0x4c, 0xf4, 0xb0 } },
	{ "max1238 scan to CS 11", "max1238", 12, 0, { 0xd2, 0x17 }, 2, {0}, 0, 24,
	  { 0xf0, 0x64, 0xf0, 0xc8, 0xf1, 0x2c, 0xf1, 0x90, 0xf1, 0xf4, 0xf2, 0x58,
	    0xf2, 0xbc, 0xf3, 0x20, 0xf3, 0x84, 0xf3, 0xe8, 0xf4, 0x4c, 0xf4, 0xb0 } },
	{ "max1238 reserved CS 12 reads AIN11", "max1238", 12, 0, { 0xd2, 0x79 }, 2, {0}, 0, 2,
	  { 0xf4, 0xb0 } },
	{ "max1238 AIN11-AIN10", "max1238", 12, 0, { 0xd2, 0x76 }, 2, {0}, 0, 2, { 0xf0, 0x64 } },
	{ "max1036 8 bits: one byte a result", "max1036", 4, 0, { 0xd2, 0x07 }, 2, {0}, 0, 4,
	  { 0x06, 0x0c, 0x12, 0x19 } },
	{ "max1136 10 bits: six high ones", "max1136", 4, 0, { 0xd2, 0x61 }, 2, {0}, 0, 2,
	  { 0xfc, 0x19 } },
	{ "max11608 scans from AIN6", "max11608", 8, 0, { 0xd2, 0x4f }, 2, {0}, 0, 4,
	  { 0xfc, 0xaf, 0xfc, 0xc8 } },
	{ "max11644 scan to CS 1", "max11644", 2, 0, { 0xd2, 0x03 }, 2, {0}, 0, 4,
	  { 0xf0, 0x64, 0xf0, 0xc8 } },
	{ "max11644 AIN1-AIN0", "max11644", 2, 0, { 0xd2, 0x62 }, 2, {0}, 0, 2, { 0xf0, 0x64 } },
	{ "max11644 ignores CS bits above CS0", "max11644", 2, 0, { 0xd2, 0x67 }, 2, {0}, 0, 2,
	  { 0xf0, 0xc8 } },
};

/* An emulated bus with the part at EMU_TEST_ADDR and a client on it. */

static void test_bytes(void)
{
	size_t r;

	for (r = 0; r < NROWS(bytes_rows); r++) {
		const struct bytes_row *row = &bytes_rows[r];
		struct emu_input in[12];
		char keys[12][24];
		struct bus_i2c_client *client;
		struct bus *bus;
		uint8_t rx[24];
		int i;

		emu_test_inputs(row->ninputs, in, keys);
		if (chiptest_emu_client_open(row->part, EMU_TEST_ADDR, in, row->ninputs,
					     row->vref_mv, &bus, &client)) {
			TEST_ROW_ASSERT(0, row->name);
			continue;
		}
		if (row->txlen)
			TEST_ROW_ASSERT(bus_i2c_master_send(client, row->tx, row->txlen) ==
					row->txlen, row->name);
		if (row->tx2len)
			TEST_ROW_ASSERT(bus_i2c_master_send(client, row->tx2, row->tx2len) ==
					row->tx2len, row->name);
		memset(rx, 0x5a, sizeof(rx));
		TEST_ROW_ASSERT(bus_i2c_master_recv(client, rx, row->rxlen) == row->rxlen,
				row->name);
		TEST_ROW_ASSERT(memcmp(rx, row->rx, (size_t)row->rxlen) == 0, row->name);
		if (memcmp(rx, row->rx, (size_t)row->rxlen) != 0) {
			fprintf(stderr, "%s: got", row->name);
			for (i = 0; i < row->rxlen; i++)
				fprintf(stderr, " %02x", rx[i]);
			fprintf(stderr, "\n");
		}
		bus_i2c_client_destroy(client);
		bus_put(bus);
	}
}
TEST_CASE(test_bytes, "setup/config bytes and scans, byte for byte");

struct clip_row {
	const char *name;
	const char *part;
	uint8_t config;
	double ain0_mv;
	double ain1_mv;
	int rxlen;
	uint8_t rx[2];
};

/* Internal reference (0xD2) throughout: max1363 2048 mV 12 bits, max1036 4096 mV 8 bits. */
static const struct clip_row clip_rows[] = {
	{ "at the reference: all ones", "max1363", 0x61, 2048, 0, 2, { 0xff, 0xff } },
	{ "above the reference", "max1363", 0x61, 9000, 0, 2, { 0xff, 0xff } },
	{ "one code below the reference", "max1363", 0x61, 2047, 0, 2, { 0xff, 0xfe } },
	{ "negative input", "max1363", 0x61, -500, 0, 2, { 0xf0, 0x00 } },
	{ "difference above the reference", "max1363", 0x60, 3000, 500, 2, { 0xff, 0xff } },
	{ "bipolar clips at +ref/2", "max1363", 0x60, 1500, 0, 2, { 0xf7, 0xff } },
	{ "8 bits above the reference", "max1036", 0x61, 5000, 0, 1, { 0xff } },
	{ "8 bits negative", "max1036", 0x61, -5000, 0, 1, { 0x00 } },
};

static void test_clipping(void)
{
	size_t r;

	for (r = 0; r < NROWS(clip_rows); r++) {
		const struct clip_row *row = &clip_rows[r];
		struct emu_input in[2] = {
			CHIPTEST_CONST("AIN0", row->ain0_mv), CHIPTEST_CONST("AIN1", row->ain1_mv),
		};
		/* the bipolar row sets BIP/UNI in the setup byte */
		uint8_t tx[2] = { strstr(row->name, "bipolar") ? 0xd6 : 0xd2, row->config };
		struct bus_i2c_client *client;
		struct bus *bus;
		uint8_t rx[2] = { 0x5a, 0x5a };

		if (chiptest_emu_client_open(row->part, EMU_TEST_ADDR, in, 2, 0, &bus, &client)) {
			TEST_ROW_ASSERT(0, row->name);
			continue;
		}
		TEST_ROW_ASSERT(bus_i2c_master_send(client, tx, 2) == 2, row->name);
		TEST_ROW_ASSERT(bus_i2c_master_recv(client, rx, row->rxlen) == row->rxlen,
				row->name);
		TEST_ROW_ASSERT(memcmp(rx, row->rx, (size_t)row->rxlen) == 0, row->name);
		bus_i2c_client_destroy(client);
		bus_put(bus);
	}
}
TEST_CASE(test_clipping, "clipping at full scale and zero");

static const struct chipsuite_key_row key_rows[] = {
	{ "AIN3 on 4 inputs", "max1363", "AIN3", 0, "" },
	{ "AIN4 on 4 inputs", "max1363", "AIN4", -EINVAL, "AIN0..AIN3" },
	{ "AIN11 on 12 inputs", "max1238", "AIN11", 0, "" },
	{ "AIN12 on 12 inputs", "max1238", "AIN12", -EINVAL, "AIN0..AIN11" },
	{ "AIN2 on 2 inputs", "max11644", "AIN2", -EINVAL, "AIN0..AIN1" },
	{ "ABI stem is not a key here", "max1238", "voltage0", -EINVAL, "AIN0..AIN11" },
	{ "lower case", "max11608", "ain0", -EINVAL, "AIN0..AIN7" },
};

static void test_input_keys(void)
{
	chipsuite_input_keys(key_rows, NROWS(key_rows));
}
TEST_CASE(test_input_keys, "input keys are datasheet names");

/* The model and the driver know the same 38 parts. */
static void test_part_list(void)
{
	chipsuite_part_list("max1363", 38);
	CU_ASSERT_PTR_NULL(emu_model_find("max1240", NULL));
}
TEST_CASE(test_part_list, "the 38 parts of model and driver");

/* Signals are sampled on the bus's virtual clock at each read. */
static void test_signal_time(void)
{
	struct emu_input in = {
		.key = "AIN0",
		.sig = { .kind = EMU_SIGNAL_RAMP, .offset = 0, .amplitude = 1000, .period_s = 10 },
	};
	static const uint8_t tx[2] = { 0xd2, 0x61 };
	struct bus_i2c_client *client;
	struct bus *bus;
	uint8_t rx[2];

	CU_ASSERT_FATAL(chiptest_emu_client_open("max1238", EMU_TEST_ADDR, &in, 1, 0, &bus,
						 &client) == 0);
	CU_ASSERT_EQUAL(bus_i2c_master_send(client, tx, 2), 2);
	emu_bus_set_time(bus, 2.5);	/* 250 mV */
	CU_ASSERT_EQUAL(bus_i2c_master_recv(client, rx, 2), 2);
	CU_ASSERT_EQUAL((rx[0] & 0x0f) << 8 | rx[1], 250);
	emu_bus_set_time(bus, 7.0);	/* 700 mV */
	CU_ASSERT_EQUAL(bus_i2c_master_recv(client, rx, 2), 2);
	CU_ASSERT_EQUAL((rx[0] & 0x0f) << 8 | rx[1], 700);
	bus_i2c_client_destroy(client);
	bus_put(bus);
}
TEST_CASE(test_signal_time, "inputs follow virtual time");

TEST_MAIN("emu_max1363", NULL, NULL)
