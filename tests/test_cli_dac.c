/*
 * test_cli_dac.c - the DACs through a live iiowired and the `iiowire`
 * command line: `iiowire write DEV out_voltage0_raw N` reaches the driver
 * and the chip on the daemon's emulated bus.
 *
 * What must hold: a write answers nothing and exit 0, and the value reads
 * back (the mcp4725 driver caches only what the chip took, K-85); out of
 * range is "iiowire: write: EINVAL" and exit 1, the value unchanged; a
 * chip that NACKs gives ENXIO, so the write does go out on the bus; the
 * powerdown files and store_eeprom work over the network; a max517-family
 * raw read is EINVAL as in the kernel while its write works; an SPI
 * ad5446-family part takes writes the same way. The daemon's models are
 * in another process: the pins themselves are checked by the suites on
 * the emulated bus and the shim (test_mcp4725, test_ad5446, test_shim_dac).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clienttest.h"

#define CD_CLI	IIOWIRE_BINARY_DIR "/client/iiowire"

static const char cd_board[] =
	"{\"board\": \"dactest\", \"buses\": {"
	"  \"i2c-0\": {\"type\": \"i2c\", \"backend\": \"emulated\"},"
	"  \"spi0\": {\"type\": \"spi\", \"backend\": \"emulated\"}},"
	" \"devices\": ["
	"  {\"driver\": \"mcp4725\", \"bus\": \"i2c-0\", \"address\": \"0x60\", \"label\": \"dac\","
	"   \"vdd_mv\": 3300, \"emulate\": {\"VDD\": 3300}},"
	"  {\"driver\": \"mcp4725\", \"bus\": \"i2c-0\", \"address\": \"0x61\", \"label\": \"deaf\","
	"   \"fault\": {\"mode\": \"nack\"}},"
	"  {\"driver\": \"max520\", \"bus\": \"i2c-0\", \"address\": \"0x28\", \"label\": \"quad\"},"
	"  {\"driver\": \"ad5300\", \"bus\": \"spi0\", \"cs\": 0, \"label\": \"spidac\","
	"   \"vref_mv\": 3300, \"spi-cpha\": 1}]}";

static struct ct_daemon cd_daemon;

/* `iiowire -a ADDRESS ARGS...`: its exit status; stdout and stderr in @out/@err. */
static int cd_cli(char *out, size_t outlen, char *err, size_t errlen, const char *a1,
		  const char *a2, const char *a3, const char *a4)
{
	const char *argv[] = { CD_CLI, "-a", cd_daemon.address, a1, a2, a3, a4, NULL };

	return ct_run(argv, out, outlen, err, errlen);
}

/* Row: a command, its exit status, stdout exactly, and text stderr must hold. */
struct cd_row {
	const char *cmd, *dev, *attr, *value;
	int status;
	const char *out, *err;
};

static const struct cd_row cd_rows[] = {
	{ "write", "dac", "out_voltage0_raw", "1234", 0, "", "" },
	{ "read", "dac", "out_voltage0_raw", NULL, 0, "1234\n", "" },
	{ "read", "dac", "out_voltage_scale", NULL, 0, "0.805664062\n", "" },
	{ "write", "dac", "out_voltage0_raw", "4095", 0, "", "" },
	{ "write", "dac", "out_voltage0_raw", "4096", 1, "", "iiowire: write: EINVAL" },
	{ "write", "dac", "out_voltage0_raw", "-1", 1, "", "iiowire: write: EINVAL" },
	/* an integer part past int, which the kernel would wrap (4096 + 2^32 to 4096): K-13 */
	{ "write", "dac", "out_voltage0_raw", "4294971392", 1, "", "iiowire: write: ERANGE" },
	{ "read", "dac", "out_voltage0_raw", NULL, 0, "4095\n", "" },
	{ "write", "dac", "out_voltage0_powerdown_mode", "100kohm_to_gnd", 0, "", "" },
	{ "write", "dac", "out_voltage0_powerdown", "1", 0, "", "" },
	{ "read", "dac", "out_voltage0_powerdown", NULL, 0, "1\n", "" },
	{ "read", "dac", "out_voltage_powerdown_mode_available", NULL, 0,
	  "1kohm_to_gnd 100kohm_to_gnd 500kohm_to_gnd\n", "" },
	{ "write", "dac", "out_voltage0_powerdown_mode", "2kohm", 1, "", "EINVAL" },
	{ "write", "dac", "out_voltage0_powerdown", "0", 0, "", "" },
	{ "write", "dac", "store_eeprom", "1", 0, "", "" },
	{ "read", "dac", "store_eeprom", NULL, 1, "", "EACCES" },
	/* the chip NACKs: the write went out on the bus */
	{ "write", "deaf", "out_voltage0_raw", "5", 1, "", "iiowire: write: ENXIO" },
	{ "write", "quad", "out_voltage3_raw", "200", 0, "", "" },
	{ "write", "quad", "out_voltage3_raw", "256", 1, "", "EINVAL" },
	{ "read", "quad", "out_voltage3_raw", NULL, 1, "", "EINVAL" },
	{ "read", "quad", "out_voltage3_scale", NULL, 0, "19.531250000\n", "" },
	{ "write", "spidac", "out_voltage0_raw", "255", 0, "", "" },
	{ "write", "spidac", "out_voltage0_raw", "256", 1, "", "EINVAL" },
	{ "read", "spidac", "out_voltage0_raw", NULL, 0, "255\n", "" },
	{ "read", "spidac", "out_voltage_scale", NULL, 0, "12.890625000\n", "" },
};

static void test_cli_writes(void)
{
	char out[512], err[512], row[128];
	size_t i;
	int st;

	/* the deaf chip is NACKing from its registration on, after its probe */
	for (i = 0; i < sizeof(cd_rows) / sizeof(cd_rows[0]); i++) {
		const struct cd_row *r = &cd_rows[i];

		snprintf(row, sizeof(row), "%s %s %s %s", r->cmd, r->dev, r->attr,
			 r->value ? r->value : "");
		st = cd_cli(out, sizeof(out), err, sizeof(err), r->cmd, r->dev, r->attr, r->value);
		TEST_ROW_ASSERT_GOT(st == r->status && strcmp(out, r->out) == 0 &&
				    strstr(err, r->err) != NULL, row, "status %d out '%s' err '%s'",
				    st, out, err);
	}
}
TEST_CASE(test_cli_writes, "iiowire write/read of DAC files through the daemon");

static int cd_init(void)
{
	return ct_daemon_start(&cd_daemon, cd_board, NULL) == 0 ? 0 : 1;
}

static int cd_cleanup(void)
{
	ct_daemon_stop(&cd_daemon);
	return 0;
}

TEST_MAIN("cli_dac", cd_init, cd_cleanup)
