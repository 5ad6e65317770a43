/*
 * test_board_note.c - notes on a loaded board (drivers/board_note.c) and
 * the address rule behind them (iio_driver_addr_note(), drivers/iio_driver.c):
 * a datasheet's 8-bit I2C address loads on an emulated bus, with a note
 * naming the 7-bit one; the reserved range 0x78-0x7f at N and N+1.
 */
#include <string.h>

#include "board.h"
#include "iio.h"
#include "testutil.h"

#define TBN_BOARD(devices)							\
	"{\"board\": \"t\", \"buses\": {\"i2c-0\": {\"type\": \"i2c\", "		\
	"\"backend\": \"emulated\"}}, \"devices\": [" devices "]}"

/* The notes of @json, joined by '\n' into @out. Return: how many, or -1 if it did not load. */
static int tbn_notes(const char *json, char *out, size_t len)
{
	char err[BOARD_ERR_MAX], note[BOARD_ERR_MAX];
	struct board *b = board_load_string(json, "t.json", err, sizeof(err));
	int pos = 0, n = 0;
	size_t used = 0;

	if (!b) {
		fprintf(stderr, "\n%s\n", err);
		return -1;
	}
	out[0] = '\0';
	while (board_note(b, &pos, note, sizeof(note)) > 0 && used < len) {
		used += (size_t)snprintf(out + used, len - used, "%s%s", n ? "\n" : "", note);
		n++;
	}
	board_destroy(b);
	return n;
}

static void test_notes(void)
{
	static const struct {
		const char *name;
		const char *json;
		int count;
		const char *want;	/* exact */
	} rows[] = {
		{ "a datasheet address: no note",
		  TBN_BOARD("{\"driver\": \"tsl2561\", \"bus\": \"i2c-0\", \"address\": \"0x39\"}"),
		  0, "" },
		{ "8-bit address of a listed one: the 7-bit one named",
		  TBN_BOARD("{\"driver\": \"tsl2561\", \"bus\": \"i2c-0\", \"address\": \"0x72\","
			    " \"label\": \"lux\"}"), 1,
		  "tsl2561 at 0-0072 (lux): 0x72 is not an address the tsl2563 family's "
		  "datasheets give (0x29, 0x39, 0x49); 0x72 is 0x39 shifted left one bit, a "
		  "datasheet's 8-bit address: a board file wants the 7-bit 0x39" },
		{ "outside the list, not a shifted one",
		  TBN_BOARD("{\"driver\": \"tsl2561\", \"bus\": \"i2c-0\", \"address\": \"0x50\"}"),
		  1, "tsl2561 at 0-0050: 0x50 is not an address the tsl2563 family's datasheets "
		  "give (0x29, 0x39, 0x49)" },
		{ "no list, 0x77 (IIO_I2C_ADDR_DEVICE_MAX): no note",
		  TBN_BOARD("{\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x77\"}"),
		  0, "" },
		{ "no list, 0x78 (one past): reserved",
		  TBN_BOARD("{\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x78\"}"),
		  1, "max1238 at 0-0078: 0x78 is in I2C's reserved range 0x78-0x7f: an 8-bit "
		  "datasheet address? The 7-bit one would be 0x3c" },
		{ "two notes, in device order, a good device between them",
		  TBN_BOARD("{\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x7a\"},"
			    "{\"driver\": \"max1238\", \"bus\": \"i2c-0\", \"address\": \"0x35\"},"
			    "{\"driver\": \"tsl2563\", \"bus\": \"i2c-0\", \"address\": 82}"), 2,
		  "max1238 at 0-007a: 0x7a is in I2C's reserved range 0x78-0x7f: an 8-bit "
		  "datasheet address? The 7-bit one would be 0x3d\n"
		  "tsl2563 at 0-0052: 0x52 is not an address the tsl2563 family's datasheets "
		  "give (0x29, 0x39, 0x49); 0x52 is 0x29 shifted left one bit, a datasheet's "
		  "8-bit address: a board file wants the 7-bit 0x29" },
	};
	char got[2 * BOARD_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int n = tbn_notes(rows[i].json, got, sizeof(got));

		if (n != rows[i].count || strcmp(got, rows[i].want) != 0)
			fprintf(stderr, "\n  row \"%s\": %d notes\n    got  %s\n    want %s\n",
				rows[i].name, n, got, rows[i].want);
		TEST_ROW_ASSERT(n == rows[i].count, rows[i].name);
		TEST_ROW_ASSERT(strcmp(got, rows[i].want) == 0, rows[i].name);
	}
}
TEST_CASE(test_notes, "notes on addresses that load but are unlikely");

TEST_MAIN("board_note", NULL, NULL);
