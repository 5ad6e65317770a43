/*
 * board.h - board files: buses, devices, emulated inputs and channel maps
 * from one JSON file (schema in maps/README.md).
 *
 * Loading is all or nothing: the buses are opened, every device probed by
 * the driver whose id table names it, every map checked against a provider
 * datasheet_name, and only then is a registry handed back. Errors name the
 * file, the JSON path and the problem ("maps[1].adc_dev_name: no device
 * 0-0036"). cJSON stays inside board.c.
 */
#ifndef IIOWIRE_BOARD_H
#define IIOWIRE_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include "iio_registry.h"

struct bus;

/** Longest board-file error message we build. */
#define BOARD_ERR_MAX	512

/**
 * struct board - a loaded board: the registry and the buses it opened.
 * Make with board_load()/board_load_string(), end with board_destroy().
 */
struct board {
	char name[64];
	char description[256];
	struct iio_registry *reg;
	struct bus **buses;
	char **bus_names;
	int nbuses;
	bool names_source;	/* an entry names a source's device ({"driver": "kernel"}) */
};

/**
 * board_load() - read and bring up a board file.
 * @err: BOARD_ERR_MAX bytes for "FILE: PATH: what is wrong".
 * Return: owned board (board_destroy()), or NULL with @err filled; a failed
 * load leaves nothing registered and no bus open.
 */
struct board *board_load(const char *path, char *err, size_t errlen);
/** board_load_string() - as board_load() from text; @origin names it in errors. */
struct board *board_load_string(const char *json, const char *origin, char *err, size_t errlen);
/** board_destroy() - unregister every device, close every bus; NULL-safe. */
void board_destroy(struct board *b);
/** board_find_bus() - an opened bus by its key ("i2c-0"); borrowed; NULL if none. */
struct bus *board_find_bus(const struct board *b, const char *key);

/**
 * board_default_path() - the default board, demo.json: in $IIOWIRE_MAPS_DIR
 * when that is set, else in the installed maps directory when it is there,
 * else in the source tree the build came from.
 * Return: the length written to @buf, or -ENAMETOOLONG.
 */
int board_default_path(char *buf, size_t len);

/**
 * board_note() - the next note on a loaded board: something that loaded but
 * is probably a mistake (an I2C address unlikely for its chip, such as a
 * datasheet's 8-bit address: iio_driver_addr_note()). Iterate from *@pos = 0.
 * @buf: caller's, "max1238 at 0-0072 (adc1): 0x72 is ...".
 * Return: 1 with @buf filled and *@pos advanced, 0 when there is no more.
 */
int board_note(const struct board *b, int *pos, char *buf, size_t len);

#endif /* IIOWIRE_BOARD_H */
