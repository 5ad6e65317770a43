/*
 * board_priv.h - what the board loader's three files share; nobody else
 * includes it.
 *
 * board.c reads buses, devices and maps and binds them; board_json.c holds
 * the JSON side (syntax checks, typed getters that name the path and the
 * expected type, the property view a probe reads); board_emu.c turns a
 * device's "emulate" and "fault" objects into a chip model on an emulated
 * bus. Every error is one message "FILE: PATH: what" made by board_err(),
 * and every function that fails returns -EINVAL (or -ENOENT for an
 * optional key that is absent) with that message set.
 */
#ifndef IIOWIRE_BOARD_PRIV_H
#define IIOWIRE_BOARD_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "board.h"

struct bus;
struct bus_ops;
struct emu_fault;

/* Limits of a board file; each is documented in maps/README.md. */
#define BOARD_FILE_MAX_BYTES		(1024 * 1024)
#define BOARD_JSON_DEPTH_MAX		16	/* the schema itself needs 6 */
#define BOARD_DEVICES_MAX		256
#define BOARD_BUSES_MAX			64
#define BOARD_MAPS_MAX			1024
#define BOARD_DEVICE_KEYS_MAX		64
#define BOARD_EMULATE_INPUTS_MAX	64
#define BOARD_LABEL_MAX_BYTES		63	/* device label and name, without the NUL */
#define BOARD_BUS_NUMBER_MAX		1023
#define BOARD_SPI_CS_MAX		255
#define BOARD_PATH_MAX			256	/* a JSON path in a message */
#define BOARD_DEFAULT_FILE		"demo.json"

/* What the loader keeps per device: the strings the device borrows, and where it sits. */
struct board_dev {
	struct iio_dev *dev;	/* borrowed from the registry */
	char *label;		/* owned: the device's label points here */
	int bus;		/* index into buses, -1 when bus-less */
	int addr;		/* I2C address or SPI chip select */
};

/* The public struct board and what only the loader sees. */
struct board_priv {
	struct board b;		/* first: board_destroy() casts back */
	struct board_dev *devs;
	int ndevs;
};

/* One load in progress: where errors go and what they are relative to. */
struct board_ctx {
	const char *origin;	/* the file name as given, or the string's origin */
	const char *basedir;	/* for relative CSV paths */
	char *err;
	size_t errlen;
	struct board_priv *bp;
	const struct bus_ops *emu_ops;
	/* bit j of wired[i]: a model on bus i reads a DAC on bus j (no cycles) */
	uint64_t wired[BOARD_BUSES_MAX];
};

/* The device-object view a driver's probe reads through iio_probe_prop_*(). */
struct board_props {
	const cJSON *obj;
	bool used[BOARD_DEVICE_KEYS_MAX];	/* by child position */
};

/* ---- board_json.c ---- */

/**
 * board_near_key() - before "@key: missing": a key of @obj that is @key
 * misspelt (two edits or fewer; one for a key of up to 4 bytes) is named as
 * the unknown key it is.
 * Return: -EINVAL with the message set, or 0 when there is none.
 */
int board_near_key(struct board_ctx *ctx, const cJSON *obj, const char *path, const char *key);

/** board_err() - set "ORIGIN: PATH: message". Return: -EINVAL. */
__attribute__((format(printf, 3, 4)))
int board_err(struct board_ctx *ctx, const char *path, const char *fmt, ...);
/** board_json_type() - "an object", "a string", ... for messages; static. */
const char *board_json_type(const cJSON *item);
/** board_path_key()/board_path_index() - @base + ".key" / "[i]", cut to @len. */
void board_path_key(char *out, size_t len, const char *base, const char *key);
void board_path_index(char *out, size_t len, const char *base, int i);
/**
 * board_parse() - check the text (NUL bytes, nesting, open strings) and parse it.
 * Return: the owned tree (cJSON_Delete()), or NULL with "FILE:LINE:COL: ..." set.
 */
cJSON *board_parse(struct board_ctx *ctx, const char *text, size_t len);
/**
 * board_check_keys() - every key of @obj unique and, unless @known is NULL,
 * in @known or marked in @used (by position; may be NULL). "comment" always goes.
 * Return: 0 or -EINVAL.
 */
int board_check_keys(struct board_ctx *ctx, const cJSON *obj, const char *path,
		     const char *const *known, const bool *used);
/**
 * board_get_string()/_int()/_double()/_object()/_array() - read @key of @obj,
 * naming "PATH.key" and the type wanted in the message. @maxlen 0: any length. A string
 * holding a control character (0x01-0x1f, 0x7f) is refused.
 * Return: 0, -ENOENT when absent and optional (board_get_double() sets
 * @dflt and returns 0), -EINVAL with the message set.
 */
int board_get_string(struct board_ctx *ctx, const cJSON *obj, const char *path,
		     const char *key, bool required, size_t maxlen, const char **out);
int board_get_int(struct board_ctx *ctx, const cJSON *obj, const char *path,
		  const char *key, bool required, long min, long max, long *out);
int board_get_double(struct board_ctx *ctx, const cJSON *obj, const char *path,
		     const char *key, bool required, double dflt, double *out);
int board_get_object(struct board_ctx *ctx, const cJSON *obj, const char *path,
		     const char *key, const cJSON **out);
int board_get_array(struct board_ctx *ctx, const cJSON *obj, const char *key, int max,
		    const cJSON **out);
/** board_is_integer() - @it is a whole number in [min, max]; *out set when it is. */
bool board_is_integer(const cJSON *it, long min, long max, long *out);
/** board_is_integer_or_string() - as board_is_integer(), or a C-notation string ("0x35"). */
bool board_is_integer_or_string(const cJSON *it, long min, long max, long *out);
/** board_prop_int()/board_prop_str() - struct iio_probe's property lookups over board_props. */
int board_prop_int(const void *props, const char *key, int *val);
int board_prop_str(const void *props, const char *key, const char **val);

/* ---- board_emu.c ---- */

/**
 * board_emulate() - create the chip model named @driver from the device's
 * "emulate" object and attach it at @addr of the emulated @bus.
 * Return: 0 or -EINVAL (message set); the bus owns the chip once attached.
 */
int board_emulate(struct board_ctx *ctx, const cJSON *obj, const char *path,
		  const char *driver, struct bus *bus, int addr, int vref_mv);
/**
 * board_parse_fault() - read a "fault" object into @fault; @from_probe says
 * whether it is armed before the probe ("from": "probe") or after loading.
 * Return: 0 or -EINVAL.
 */
int board_parse_fault(struct board_ctx *ctx, const cJSON *fobj, const char *path,
		      struct emu_fault *fault, bool *from_probe);

#endif /* IIOWIRE_BOARD_PRIV_H */
