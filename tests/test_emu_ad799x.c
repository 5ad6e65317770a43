/*
 * test_emu_ad799x.c - the AD799x chip model (drivers/emu/emu_ad799x.c) byte for
 * byte on an emulated bus, with no driver in between: conversion commands of
 * each interface, result words (alert flag, channel ID, left-aligned data),
 * the pointer registers (configuration 8/16-bit, alert status, cycle timer,
 * limits stored left-aligned), alerts with hysteresis, the ad7991's REF_SEL,
 * and input keys. Tests are tables of named rows; CUnit reports the row name.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "chipsuite.h"

#define EMU_TEST_ADDR	0x21
#define NROWS(a)	CHIPSUITE_NROWS(a)
#define MAX_STEPS	6

/* One transaction: a write, then (repeated start) a read when rxlen > 0. */
struct step {
	uint8_t tx[3];
	int txlen;
	int rxlen;
	uint8_t rx[6];
};

struct seq_row {
	const char *name;
	const char *part;
	struct step steps[MAX_STEPS];	/* ends at txlen 0 */
};

/*
 * Inputs voltage<n> = 100 * (n + 1) + 1 mV, vref_mv 4096: a 12-bit code is
 * the input in mV (0x065, 0x0c9, 0x12d, ...), a 10-bit one a quarter of it,
 * an 8-bit one a sixteenth. The ad7991/5/9 use that reference only with
 * REF_SEL (0x08) set, else VDD = 3300 mV.
 */
static const struct seq_row seq_rows[] = {
	{ "ad7998 converts channel 0", "ad7998",
	  { { { 0x80 }, 1, 2, { 0x00, 0x65 } } } },
	{ "ad7998 channel 5 carries its ID in 14:12", "ad7998",
	  { { { 0xd0 }, 1, 2, { 0x52, 0x59 } } } },
	{ "ad7997 result left-aligned to bit 11", "ad7997",
	  { { { 0xd0 }, 1, 2, { 0x52, 0x58 } } } },
	{ "ad7998 no command: the last result again", "ad7998",
	  { { { 0xa0 }, 1, 2, { 0x21, 0x2d } }, { { 0x00 }, 1, 2, { 0x21, 0x2d } } } },
	{ "ad7998 converts the configured sequence", "ad7998",
	  { { { 0x02, 0x00, 0x30 }, 3, 0, {0} }, { { 0x70 }, 1, 6,
	    { 0x00, 0x65, 0x10, 0xc9, 0x00, 0x65 } } } },
	{ "ad7998 16-bit configuration reads back", "ad7998",
	  { { { 0x02, 0x0f, 0xf8 }, 3, 0, {0} }, { { 0x02 }, 1, 2, { 0x0f, 0xf8 } } } },
	{ "ad7998 configuration bits 15:12 do not exist", "ad7998",
	  { { { 0x02, 0xff, 0xff }, 3, 0, {0} }, { { 0x02 }, 1, 2, { 0x0f, 0xff } } } },
	{ "ad7994 8-bit configuration reads back", "ad7994",
	  { { { 0x02, 0xf6 }, 2, 0, {0} }, { { 0x02 }, 1, 1, { 0xf6 } } } },
	{ "ad7992 has two channel bits", "ad7992",
	  { { { 0x02, 0xff }, 2, 0, {0} }, { { 0x02 }, 1, 1, { 0x3f } } } },
	{ "ad7992 channel bit 5 converts channel 1", "ad7992",
	  { { { 0x20 }, 1, 2, { 0x10, 0xc9 } } } },
	{ "ad7992 two channel bits convert both in turn", "ad7992",
	  { { { 0x30 }, 1, 4, { 0x00, 0x65, 0x10, 0xc9 } } } },
	{ "ad7993 channel 3, 10 bits", "ad7993",
	  { { { 0x80 }, 1, 2, { 0x31, 0x90 } } } },
	{ "ad7998 DATA_HIGH round trip", "ad7998",
	  { { { 0x05, 0x0a, 0xbc }, 3, 0, {0} }, { { 0x05 }, 1, 2, { 0x0a, 0xbc } } } },
	{ "ad7998 limits are 12 bits", "ad7998",
	  { { { 0x05, 0xfa, 0xbc }, 3, 0, {0} }, { { 0x05 }, 1, 2, { 0x0a, 0xbc } } } },
	{ "ad7997 limits keep only the 10 data bits", "ad7997",
	  { { { 0x0e, 0x0f, 0xff }, 3, 0, {0} }, { { 0x0e }, 1, 2, { 0x0f, 0xfc } } } },
	{ "ad7993 channel 3 hysteresis at 0xF", "ad7993",
	  { { { 0x0f, 0x00, 0x07 }, 3, 0, {0} }, { { 0x0f }, 1, 2, { 0x00, 0x04 } } } },
	{ "ad7992 has no channel 2 limits", "ad7992",
	  { { { 0x0a, 0x01, 0x23 }, 3, 0, {0} }, { { 0x0a }, 1, 2, { 0x00, 0x00 } } } },
	{ "power-on DATA_HIGH is full scale", "ad7994",
	  { { { 0x08 }, 1, 2, { 0x0f, 0xff } } } },
	{ "cycle timer keeps bits 2:0", "ad7998",
	  { { { 0x03, 0xff }, 2, 0, {0} }, { { 0x03 }, 1, 1, { 0x07 } } } },
	{ "ad7998 high alert: flag, status, clear", "ad7998",
	  { { { 0x05, 0x00, 0x50 }, 3, 0, {0} },
	    { { 0x80 }, 1, 2, { 0x80, 0x65 } },
	    { { 0x90 }, 1, 2, { 0x90, 0xc9 } },
	    { { 0x01 }, 1, 1, { 0x02 } },
	    { { 0x01, 0xff }, 2, 0, {0} },
	    { { 0x01 }, 1, 1, { 0x00 } } } },
	{ "ad7994 low alert on channel 1", "ad7994",
	  { { { 0x07, 0x01, 0x2c }, 3, 0, {0} },
	    { { 0x20 }, 1, 2, { 0x90, 0xc9 } },
	    { { 0x01 }, 1, 1, { 0x04 } },
	    { { 0x01, 0x04 }, 2, 0, {0} },
	    { { 0x10 }, 1, 2, { 0x00, 0x65 } } } },
	{ "channels 4-7 have no limits", "ad7998",
	  { { { 0xc0 }, 1, 2, { 0x41, 0xf5 } }, { { 0x01 }, 1, 1, { 0x00 } } } },
	{ "ad7991 without REF_SEL uses VDD", "ad7991",
	  { { { 0x10 }, 1, 2, { 0x00, 0x7d } } } },
	{ "ad7991 with REF_SEL uses vref", "ad7991",
	  { { { 0x18 }, 1, 2, { 0x00, 0x65 } } } },
	{ "ad7991 cycles through the selected channels", "ad7991",
	  { { { 0x38 }, 1, 6, { 0x00, 0x65, 0x10, 0xc9, 0x00, 0x65 } } } },
	{ "ad7991 no channel selected: Vin0", "ad7991",
	  { { { 0x08 }, 1, 2, { 0x00, 0x65 } } } },
	{ "ad7995 channel 3, 10 bits", "ad7995",
	  { { { 0x88 }, 1, 2, { 0x31, 0x90 } } } },
	{ "ad7999 channel 2, 8 bits", "ad7999",
	  { { { 0x48 }, 1, 2, { 0x21, 0x20 } } } },
};

/* One write, or write + repeated start + read; compares what came back. */
static int emu_test_step(struct bus_i2c_client *client, const struct step *s)
{
	uint8_t tx[3], rx[6];
	struct bus_i2c_msg msgs[2] = {
		{ .addr = client->addr, .flags = 0, .len = (uint16_t)s->txlen, .buf = tx },
		{ .addr = client->addr, .flags = BUS_I2C_M_RD, .len = (uint16_t)s->rxlen,
		  .buf = rx },
	};
	int n = s->rxlen ? 2 : 1, i;

	memcpy(tx, s->tx, sizeof(tx));
	memset(rx, 0x5a, sizeof(rx));
	if (bus_i2c_transfer(client, msgs, n) != n)
		return -EIO;
	if (memcmp(rx, s->rx, (size_t)s->rxlen) != 0) {
		fprintf(stderr, "  got");
		for (i = 0; i < s->rxlen; i++)
			fprintf(stderr, " %02x", rx[i]);
		fprintf(stderr, "\n");
		return -EINVAL;
	}
	return 0;
}

static void test_sequences(void)
{
	size_t r;
	int i;

	for (r = 0; r < NROWS(seq_rows); r++) {
		const struct seq_row *row = &seq_rows[r];
		struct emu_input in[8];
		char keys[8][24];
		struct bus_i2c_client *client;
		struct bus *bus;

		for (i = 0; i < 8; i++) {
			snprintf(keys[i], sizeof(keys[i]), "voltage%d", i);
			in[i] = (struct emu_input){ .key = keys[i],
				.sig = { .kind = EMU_SIGNAL_CONST, .value = 100.0 * (i + 1) + 1 } };
		}
		/* only the part's own inputs: 2, 4 or 8 */
		i = strcmp(row->part, "ad7992") == 0 ? 2 :
		    (strcmp(row->part, "ad7997") == 0 || strcmp(row->part, "ad7998") == 0) ? 8 : 4;
		if (chiptest_emu_client_open(row->part, EMU_TEST_ADDR, in, i, 4096, &bus,
					     &client)) {
			TEST_ROW_ASSERT(0, row->name);
			continue;
		}
		for (i = 0; i < MAX_STEPS && row->steps[i].txlen; i++) {
			int ret = emu_test_step(client, &row->steps[i]);

			if (ret)
				fprintf(stderr, "%s: step %d\n", row->name, i);
			TEST_ROW_ASSERT(ret == 0, row->name);
		}
		bus_i2c_client_destroy(client);
		bus_put(bus);
	}
}
TEST_CASE(test_sequences, "commands, registers and results, byte for byte");

struct hyst_row {
	const char *name;
	double t_s;		/* voltage0 ramps 100 mV a second */
	uint8_t status;		/* alert status after converting channel 0 */
};

/* DATA_HIGH 500 mV, HYSTERESIS 100 mV on channel 0; the status is cleared after each row. */
static const struct hyst_row hyst_rows[] = {
	{ "below the limit", 4.0, 0x00 },
	{ "crosses the limit", 6.0, 0x02 },
	{ "still above: no new alert", 5.5, 0x00 },
	{ "back inside the hysteresis band", 4.5, 0x00 },
	{ "above again, not re-armed", 6.0, 0x00 },
	{ "below limit minus hysteresis: re-armed", 3.5, 0x00 },
	{ "crosses again", 6.0, 0x02 },
};

static void test_hysteresis(void)
{
	struct emu_input in = {
		.key = "voltage0",
		.sig = { .kind = EMU_SIGNAL_RAMP, .offset = 0, .amplitude = 1000, .period_s = 10 },
	};
	static const uint8_t high[] = { 0x05, 0x01, 0xf4 }, hyst[] = { 0x06, 0x00, 0x64 };
	static const uint8_t conv[] = { 0x80 }, status[] = { 0x01 }, clear[] = { 0x01, 0xff };
	struct bus_i2c_client *client;
	struct bus *bus;
	uint8_t rx[2];
	size_t r;

	CU_ASSERT_FATAL(chiptest_emu_client_open("ad7998", EMU_TEST_ADDR, &in, 1, 4096, &bus,
						 &client) == 0);
	CU_ASSERT_EQUAL(bus_i2c_master_send(client, high, 3), 3);
	CU_ASSERT_EQUAL(bus_i2c_master_send(client, hyst, 3), 3);
	for (r = 0; r < NROWS(hyst_rows); r++) {
		emu_bus_set_time(bus, hyst_rows[r].t_s);
		TEST_ROW_ASSERT(bus_i2c_master_send(client, conv, 1) == 1, hyst_rows[r].name);
		TEST_ROW_ASSERT(bus_i2c_master_recv(client, rx, 2) == 2, hyst_rows[r].name);
		TEST_ROW_ASSERT(bus_i2c_master_send(client, status, 1) == 1, hyst_rows[r].name);
		TEST_ROW_ASSERT(bus_i2c_master_recv(client, rx, 1) == 1, hyst_rows[r].name);
		TEST_ROW_ASSERT(rx[0] == hyst_rows[r].status, hyst_rows[r].name);
		TEST_ROW_ASSERT(bus_i2c_master_send(client, clear, 2) == 2, hyst_rows[r].name);
	}
	bus_i2c_client_destroy(client);
	bus_put(bus);
}
TEST_CASE(test_hysteresis, "alerts re-arm through hysteresis");

static const struct chipsuite_key_row key_rows[] = {
	{ "voltage7 on 8 inputs", "ad7998", "voltage7", 0, "" },
	{ "voltage8 on 8 inputs", "ad7998", "voltage8", -EINVAL, "voltage0..voltage7" },
	{ "voltage2 on 2 inputs", "ad7992", "voltage2", -EINVAL, "voltage0..voltage1" },
	{ "a datasheet name is not a key here", "ad7991", "AIN0", -EINVAL, "voltage0..voltage3" },
	{ "the attribute name is not a key", "ad7994", "in_voltage0_raw", -EINVAL,
	  "voltage0..voltage3" },
};

static void test_input_keys(void)
{
	chipsuite_input_keys(key_rows, NROWS(key_rows));
}
TEST_CASE(test_input_keys, "input keys are ABI stems");

/* The model and the driver know the same eight parts. */
static void test_part_list(void)
{
	chipsuite_part_list("ad7998", 8);
}
TEST_CASE(test_part_list, "the eight parts of model and driver");

TEST_MAIN("emu_ad799x", NULL, NULL)
