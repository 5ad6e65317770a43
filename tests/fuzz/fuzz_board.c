/*
 * fuzz_board.c - libFuzzer target for the board-file loader.
 *
 * Arbitrary bytes go to board_load_string(): every input must either load
 * (and then tear down cleanly) or fail with a non-empty error message that
 * names the origin, never crash, leak or leave devices registered.
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
