/*
 * fuzz_board.c - libFuzzer target for the board-file loader.
 *
 * Arbitrary bytes go to board_load_string(): every input must either load
 * (and then tear down cleanly) or fail with a non-empty error message that
 * names the origin, never crash, leak or leave devices registered. Inputs
 * that would open real device nodes are skipped.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[BOARD_ERR_MAX];
	struct board *b;
	char *json;

	/*
	 * Real backends open and ioctl whatever device node the input names;
	 * keep the fuzzer on emulated buses (escapes could spell the names).
	 */
	if (memmem(data, size, "i2c-dev", 7) || memmem(data, size, "spidev", 6) ||
	    memmem(data, size, "\\u", 2))
		return 0;
	json = malloc(size + 1);
	if (!json)
		return 0;
	memcpy(json, data, size);
	json[size] = '\0';
	err[0] = '\0';
	b = board_load_string(json, "fuzz.json", err, sizeof(err));
	if (!b && strncmp(err, "fuzz.json", 9) != 0)
		abort();	/* every error names its origin */
	board_destroy(b);
	free(json);
	return 0;
}
