/*
 * test_mcp4725.c - the mcp4725 driver (MCP4725, MCP4726) on the emulated
 * bus against its chip model.
 *
 * What must hold: the kernel's files (out_voltage0_raw, out_voltage_scale,
 * out_voltage0_powerdown, out_voltage0_powerdown_mode, the shared
 * _available list, store_eeprom write-only); a raw write lands in the
 * chip's DAC register as the datasheet frames it (read back over the bus:
 * D11..D4, then D3..D0 in the top nibble) and the pin gives code * ref /
 * 4096; 4095 is taken, 4096 and -1 are EINVAL and change nothing (K-85);
 * the scale is the reference over 2^12, EINVAL without one; power-down
 * pulls the pin to ground with the chosen resistor's PD code and power-up
 * restores the code; store_eeprom writes the EEPROM and waits out RDY
 * (25 ms in the model: the driver's second 20 ms poll finds it ready);
 * the MCP4726's reference selection and its probe-time rewrite of the
 * EEPROM's VREF bits; the probe's read of the chip's state; no chip, no device.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dactest.h"

#define MCP_ADDR	0x60

static const struct sensortest_prop vdd_3300[] = { { "vdd_mv", 3300 }, { NULL, 0 } };
static const struct emu_input in_3300[] = { SENSORTEST_CONST("VDD", 3300) };

/* The chip's own bytes through a second client: status, DAC, EEPROM. */
static bool mcp_peek(struct sensortest *st, uint8_t *buf, int len)
{
	struct bus_i2c_client *c;
	int ret;

	if (bus_i2c_client_create(st->bus, MCP_ADDR, &c))
		return false;
	ret = bus_i2c_master_recv(c, buf, len);
	bus_i2c_client_destroy(c);
	return ret == len;
}

static bool mcp_send(struct sensortest *st, const uint8_t *buf, int len)
{
	struct bus_i2c_client *c;
	int ret;

	if (bus_i2c_client_create(st->bus, MCP_ADDR, &c))
		return false;
	ret = bus_i2c_master_send(c, buf, len);
	bus_i2c_client_destroy(c);
	return ret == len;
}

static void test_attributes(void)
{
	static const char *const want[] = {
		"name", "out_voltage0_raw", "out_voltage_scale", "out_voltage0_powerdown",
		"out_voltage0_powerdown_mode", "out_voltage_powerdown_mode_available",
		"store_eeprom", NULL,
	};
	static const struct { const char *part, *avail; } rows[] = {
		{ "mcp4725", "1kohm_to_gnd 100kohm_to_gnd 500kohm_to_gnd\n" },
		{ "mcp4726", "1kohm_to_gnd 125kohm_to_gnd 640kohm_to_gnd\n" },
	};
	struct sensortest st;
	char why[128], buf[16];
	size_t r;

	for (r = 0; r < 2; r++) {
		if (!dac_setup(&st, BUS_I2C, rows[r].part, MCP_ADDR, in_3300, 1, vdd_3300))
			continue;
		TEST_ROW_ASSERT_GOT(sensortest_same_attrs(st.dev, want, why, sizeof(why)),
				    rows[r].part, "%s", why);
		TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage_powerdown_mode_available",
					  rows[r].avail), rows[r].part);
		/* 3300 mV / 4096 = 0.8056640625, truncated to nine digits */
		TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage_scale", "0.805664062\n"),
				rows[r].part);
		/* power-on EEPROM: code 0, PD 00: powered, mode the largest resistor */
		TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage0_raw", "0\n"), rows[r].part);
		TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown", "0\n"), rows[r].part);
		TEST_ROW_ASSERT(sensortest_read(st.dev, "store_eeprom", buf, sizeof(buf)) ==
				-EACCES, rows[r].part);
		sensortest_teardown(&st);
	}
}
TEST_CASE(test_attributes, "the kernel's files, modes by part, scale 3300/2^12");

static void test_raw_write(void)
{
	struct sensortest st;
	uint8_t b[5];

	if (!dac_setup(&st, BUS_I2C, "mcp4725", MCP_ADDR, in_3300, 1, vdd_3300))
		return;
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "1234"), 0);
	/* 1234 = 0x4d2: D11..D4 0x4d, D3..D0 0x2 in the top nibble; RDY and POR set */
	CU_ASSERT(mcp_peek(&st, b, 3) && b[0] == 0xc0 && b[1] == 0x4d && b[2] == 0x20);
	CU_ASSERT(dac_pin_is(&st, 0, 1234, 3300, 12));
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_raw", "1234\n"));
	/* the limits: 4095 is full scale, 4096 and -1 are refused and change nothing (K-85) */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "4095"), 0);
	CU_ASSERT(dac_pin_is(&st, 0, 4095, 3300, 12));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "4096"), -EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "-1"), -EINVAL);
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_raw", "4095\n"));
	CU_ASSERT(dac_pin_is(&st, 0, 4095, 3300, 12));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "0"), 0);
	CU_ASSERT(dac_pin_is(&st, 0, 0, 3300, 12));
	/* a NACK: the errno, and the cached code stays what the chip holds (K-85) */
	CU_ASSERT_EQUAL(emu_bus_set_fault(st.bus, MCP_ADDR,
					  &(struct emu_fault){ EMU_FAULT_NACK, 0, 1, 0 }), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "100"), -ENXIO);
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_raw", "0\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "100"), 0);
	CU_ASSERT(dac_pin_is(&st, 0, 100, 3300, 12));
	/* the scale is the chip's: no write of it */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage_scale", "1"), -EINVAL);
	sensortest_teardown(&st);
}
TEST_CASE(test_raw_write, "raw writes: the chip's framing, the pin, 4095/4096, K-85");

static void test_powerdown(void)
{
	static const struct { const char *mode; unsigned int pd; } rows[] = {
		{ "1kohm_to_gnd", 1 }, { "100kohm_to_gnd", 2 }, { "500kohm_to_gnd\n", 3 },
	};
	struct sensortest st;
	struct emu_dac_state s;
	size_t r;

	if (!dac_setup(&st, BUS_I2C, "mcp4725", MCP_ADDR, in_3300, 1, vdd_3300))
		return;
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown_mode", "500kohm_to_gnd\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "2048"), 0);
	for (r = 0; r < 3; r++) {
		TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_powerdown_mode",
						 rows[r].mode) == 0, rows[r].mode);
		TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_powerdown", "1") == 0,
				rows[r].mode);
		s = dac_pin(&st, 0);
		/* the kernel's power-down is a fast write of the PD bits with code 0 */
		TEST_ROW_ASSERT(s.powerdown == rows[r].pd && s.code == 0 && s.mv == 0.0,
				rows[r].mode);
		TEST_ROW_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown", "1\n"), rows[r].mode);
		TEST_ROW_ASSERT(sensortest_write(st.dev, "out_voltage0_powerdown", "n") == 0,
				rows[r].mode);
		TEST_ROW_ASSERT(dac_pin_is(&st, 0, 2048, 3300, 12), rows[r].mode);
	}
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown_mode", "125kohm_to_gnd"),
			-EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown_mode", "1kohm"), -EINVAL);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown", "x"), -EINVAL);
	/* kstrtobool's words: "on" powers down, "off" up */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown", "on"), 0);
	CU_ASSERT(dac_pin(&st, 0).powerdown == 3);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown", "off"), 0);
	CU_ASSERT(dac_pin_is(&st, 0, 2048, 3300, 12));
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown_mode", "500kohm_to_gnd\n"));
	/* the kernel's raw write is a fast write with PD 00: it powers the chip up, flag stays */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown", "1"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "10"), 0);
	CU_ASSERT(dac_pin_is(&st, 0, 10, 3300, 12));
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown", "1\n"));
	sensortest_teardown(&st);
}
TEST_CASE(test_powerdown, "powerdown: PD codes by mode, pin to ground, power-up restores");

static void test_store_eeprom(void)
{
	struct sensortest st;
	unsigned long before;
	uint8_t b[5];

	if (!dac_setup(&st, BUS_I2C, "mcp4725", MCP_ADDR, in_3300, 1, vdd_3300))
		return;
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "2748"), 0);	/* 0xabc */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown_mode", "100kohm_to_gnd"),
			0);
	/* a false word writes nothing */
	before = emu_bus_transfers(st.bus, MCP_ADDR);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "store_eeprom", "0"), 0);
	CU_ASSERT_EQUAL(emu_bus_transfers(st.bus, MCP_ADDR), before);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "store_eeprom", "maybe"), -EINVAL);
	/* the write, then two polls: busy at 20 ms, ready at 40 ms (25 ms write) */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "store_eeprom", "1"), 0);
	CU_ASSERT_EQUAL(emu_bus_transfers(st.bus, MCP_ADDR), before + 3);
	/* EEPROM bytes: [0 PD1 PD0 0 D11..D8] [D7..D0]: powered, code 0xabc */
	CU_ASSERT(mcp_peek(&st, b, 5) && b[3] == 0x0a && b[4] == 0xbc);
	/* powered down, the EEPROM keeps the PD bits of the mode (10: 100 kohm) */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown", "1"), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "store_eeprom", "y"), 0);
	CU_ASSERT(mcp_peek(&st, b, 5) && b[3] == 0x4a && b[4] == 0xbc);
	/* the store returned after RDY: it reads 1; an EEPROM write of our own makes it 0 */
	CU_ASSERT(mcp_peek(&st, b, 1) && (b[0] & 0x80));
	CU_ASSERT(mcp_send(&st, (const uint8_t[]){ 0x60, 0xab, 0xc0 }, 3));
	CU_ASSERT(mcp_peek(&st, b, 1) && !(b[0] & 0x80));
	bus_msleep(st.bus, 25);	/* the datasheet's typical write time */
	CU_ASSERT(mcp_peek(&st, b, 1) && (b[0] & 0x80));
	/* a poll that fails: its errno */
	CU_ASSERT_EQUAL(emu_bus_set_fault(st.bus, MCP_ADDR,
					  &(struct emu_fault){ EMU_FAULT_EIO, 1, 1, 0 }), 0);
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "store_eeprom", "1"), -EIO);
	sensortest_teardown(&st);
}
TEST_CASE(test_store_eeprom, "store_eeprom: the EEPROM's bytes, PD bits, RDY polls");

/* The MCP4726's reference: VDD, or VREF buffered or not; the probe rewrites the EEPROM's. */
static void test_mcp4726_vref(void)
{
	static const struct sensortest_prop vref[] = {
		{ "vdd_mv", 3300 }, { "vref_mv", 2048 }, { "vref_buffered", 1 }, { NULL, 0 },
	};
	static const struct emu_input in[] = {
		SENSORTEST_CONST("VDD", 3300), SENSORTEST_CONST("VREF", 2048),
	};
	struct sensortest st;
	uint8_t b[6];

	if (!dac_setup(&st, BUS_I2C, "mcp4726", MCP_ADDR, in, 2, vref))
		return;
	/* the EEPROM said VDD (00): the probe wrote 11, buffered VREF, to the volatile bits */
	CU_ASSERT(mcp_peek(&st, b, 6) && (b[0] & 0x18) == 0x18 && (b[3] & 0x18) == 0);
	CU_ASSERT(dac_reads(st.dev, "out_voltage_scale", "0.500000000\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_raw", "1000"), 0);
	CU_ASSERT(dac_pin_is(&st, 0, 1000, 2048, 12));
	/* store_eeprom carries VREF1:VREF0 = 11 into the EEPROM */
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "store_eeprom", "1"), 0);
	CU_ASSERT(mcp_peek(&st, b, 6) && (b[3] & 0x18) == 0x18 && b[4] == 0x3e && b[5] == 0x80);
	sensortest_teardown(&st);
}
TEST_CASE(test_mcp4726_vref, "mcp4726: VREF pin, probe-time reference rewrite, EEPROM");

static void test_probe_errors(void)
{
	static const struct {
		const char *part;
		struct sensortest_prop props[3];
		const char *msg;
	} rows[] = {
		{ "mcp4725", { { "vref_mv", 2048 }, { NULL, 0 } },
		  "external reference is unavailable on MCP4725" },
		{ "mcp4726", { { "vref_buffered", 1 }, { NULL, 0 } },
		  "buffering is unavailable on the internal reference" },
		{ "mcp4726", { { "vref_mv", 2048 }, { "vref_buffered", 2 }, { NULL, 0 } },
		  "vref_buffered must be 0 or 1" },
		{ "mcp4725", { { "vdd_mv", 0 }, { NULL, 0 } }, "vdd_mv must be a positive integer" },
	};
	struct sensortest st;
	struct bus *bus;
	size_t r;

	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		TEST_ROW_ASSERT(sensortest_setup(&st, BUS_I2C, rows[r].part, MCP_ADDR, NULL, 0,
						 rows[r].props, 0.0) == -EINVAL, rows[r].msg);
		TEST_ROW_ASSERT_GOT(strstr(st.err, rows[r].msg) != NULL, rows[r].msg, "%s",
				    st.err);
	}
	/* no vdd supply: the scale is the dummy regulator's EINVAL */
	if (dac_setup(&st, BUS_I2C, "mcp4725", MCP_ADDR, NULL, 0, NULL)) {
		CU_ASSERT(sensortest_read(st.dev, "out_voltage_scale", (char[32]){ 0 }, 32) ==
			  -EINVAL);
		sensortest_teardown(&st);
	}
	/* no chip at the address: the probe's read is NACKed, with the kernel's message */
	CU_ASSERT_FATAL(bus_create(bus_backend_find("emulated"), BUS_I2C, 0, NULL, &bus) == 0);
	CU_ASSERT_EQUAL(sensortest_setup_on(&st, bus, "mcp4725", MCP_ADDR, NULL), -ENXIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(st.err, "mcp4725 at 0-0060: failed to read DAC value (ENXIO)"));
}
TEST_CASE(test_probe_errors, "probe: the kernel's reference checks and messages");

/* The probe reads the chip's state: code, PD bits (a powered-down chip stays so). */
static void test_probe_reads_state(void)
{
	static const struct emu_input in[] = {
		SENSORTEST_CONST("VDD", 5000), SENSORTEST_CONST("eeprom_code", 3000),
		SENSORTEST_CONST("eeprom_config", 0x02),	/* PD 01: 1 kohm */
	};
	static const struct sensortest_prop vdd[] = { { "vdd_mv", 5000 }, { NULL, 0 } };
	struct sensortest st;

	if (!dac_setup(&st, BUS_I2C, "mcp4725", MCP_ADDR, in, 3, vdd))
		return;
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_raw", "3000\n"));
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown", "1\n"));
	CU_ASSERT(dac_reads(st.dev, "out_voltage0_powerdown_mode", "1kohm_to_gnd\n"));
	CU_ASSERT_EQUAL(sensortest_write(st.dev, "out_voltage0_powerdown", "0"), 0);
	CU_ASSERT(dac_pin_is(&st, 0, 3000, 5000, 12));
	sensortest_teardown(&st);
}
TEST_CASE(test_probe_reads_state, "probe: code and power-down state read from the chip");

TEST_MAIN("mcp4725", NULL, NULL)
