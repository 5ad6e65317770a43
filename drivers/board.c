/*
 * board.c - board files: JSON in, a registry of probed devices out.
 *
 * A board file says which buses exist (emulated, /dev/i2c-N, spidev), which
 * chip sits where, what an emulated chip's inputs do, and which consumer
 * channels map to which provider channels (schema: maps/README.md). Loading
 * opens the buses, creates chip models on emulated buses, probes every
 * device with the driver whose id table names it, registers it, then checks
 * and registers the maps. Place in the flow: it assembles bus -> driver ->
 * core before the server starts. Loading is all or nothing: any error
 * unwinds every device and bus and returns one message "FILE: PATH: what"
 * (or "FILE:LINE:COL: ..." for JSON syntax). cJSON never leaves this file,
 * and nothing here logs or touches a chip directly.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "board.h"
#include "bus/bus.h"
#include "emu/emu.h"
#include "iio.h"
#include "iio_core.h"

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
	char *name;		/* owned when a driver kept the borrowed board name */
	int bus;		/* index into buses, -1 when bus-less */
	int addr;		/* I2C address or SPI chip select */
};

/* The public struct board and what only this file sees. */
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
};

/* The device-object view a driver's probe reads through iio_probe_prop_*(). */
struct board_props {
	const cJSON *obj;
	bool used[BOARD_DEVICE_KEYS_MAX];	/* by child position */
};

__attribute__((format(printf, 3, 4)))
static int board_err(struct board_ctx *ctx, const char *path, const char *fmt, ...)
{
	char msg[BOARD_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->err && ctx->errlen)
		snprintf(ctx->err, ctx->errlen, "%s: %s: %s", ctx->origin, path, msg);
	return -EINVAL;
}

static const char *board_json_type(const cJSON *item)
{
	if (cJSON_IsObject(item))
		return "an object";
	if (cJSON_IsArray(item))
		return "an array";
	if (cJSON_IsString(item))
		return "a string";
	if (cJSON_IsNumber(item))
		return "a number";
	if (cJSON_IsBool(item))
		return "a boolean";
	if (cJSON_IsNull(item))
		return "null";
	return "invalid";
}

/* Append ".key" or "[i]" to a JSON path. */
static void board_path_key(char *out, size_t len, const char *base, const char *key)
{
	/* a path longer than the buffer is cut; it only ever ends up in a message */
	if (snprintf(out, len, "%s%s%s", base, base[0] ? "." : "", key) >= (int)len)
		out[len - 1] = '\0';
}

static void board_path_index(char *out, size_t len, const char *base, int i)
{
	if (snprintf(out, len, "%s[%d]", base, i) >= (int)len)
		out[len - 1] = '\0';
}

/* ---- syntax: size, bytes, nesting, then cJSON ---- */

/* Line and column (both from 1, column in bytes) of @off in @text. */
static void board_line_col(const char *text, size_t off, int *line, int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

__attribute__((format(printf, 4, 5)))
static int board_err_at(struct board_ctx *ctx, const char *text, size_t off, const char *fmt, ...)
{
	char msg[BOARD_ERR_MAX];
	va_list ap;
	int line, col;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	board_line_col(text, off, &line, &col);
	if (ctx->err && ctx->errlen)
		snprintf(ctx->err, ctx->errlen, "%s:%d:%d: %s", ctx->origin, line, col, msg);
	return -EINVAL;
}

/*
 * Reject what cJSON would accept or choke on before it parses: NUL bytes,
 * nesting deeper than the schema can use (cJSON's own limit is 1000, far
 * past any board) and a string left open. Strings are skipped so brackets
 * inside them count for nothing.
 */
static int board_check_text(struct board_ctx *ctx, const char *text, size_t len)
{
	bool in_string = false, escaped = false;
	size_t i, string_start = 0;
	int depth = 0;

	for (i = 0; i < len; i++) {
		char c = text[i];

		if (c == '\0')
			return board_err_at(ctx, text, i, "NUL byte in the file");
		if (in_string) {
			if (escaped)
				escaped = false;
			else if (c == '\\')
				escaped = true;
			else if (c == '"')
				in_string = false;
			continue;
		}
		if (c == '"') {
			in_string = true;
			string_start = i;
		} else if (c == '{' || c == '[') {
			if (++depth > BOARD_JSON_DEPTH_MAX)
				return board_err_at(ctx, text, i, "nested deeper than %d levels",
						    BOARD_JSON_DEPTH_MAX);
		} else if (c == '}' || c == ']') {
			depth--;
		}
	}
	/* cJSON would point past the opening quote; the quote itself is what needs fixing */
	if (in_string)
		return board_err_at(ctx, text, string_start,
				    "JSON syntax error: string never closed");
	return 0;
}

/* Quote what stands at the error position: up to 16 printable bytes of one line. */
static void board_excerpt(const char *text, size_t len, size_t off, char *out, size_t outlen)
{
	size_t n = 0;

	while (off + n < len && n < 16 && n + 1 < outlen && text[off + n] != '\n' &&
	       text[off + n] != '\r') {
		char c = text[off + n];

		out[n] = (c >= 0x20 && c < 0x7f) ? c : '?';
		n++;
	}
	out[n] = '\0';
}

static cJSON *board_parse(struct board_ctx *ctx, const char *text, size_t len)
{
	const char *end = NULL;
	char near[24];
	size_t off;
	cJSON *root;

	if (board_check_text(ctx, text, len))
		return NULL;
	root = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (!root) {
		off = end && end >= text ? (size_t)(end - text) : 0;
		/* cJSON reports the last byte when it ran off the end */
		while (off < len && (text[off] == ' ' || text[off] == '\t' || text[off] == '\r' ||
				     text[off] == '\n'))
			off++;
		if (off >= len || (off + 1 == len && len > 0 && end && end == text + len - 1 &&
				   text[off] != '}' && text[off] != ']')) {
			board_err_at(ctx, text, len, "JSON syntax error: unexpected end of file");
			return NULL;
		}
		board_excerpt(text, len, off, near, sizeof(near));
		board_err_at(ctx, text, off, "JSON syntax error at '%s'", near);
		return NULL;
	}
	off = (size_t)(end - text);
	while (off < len && (text[off] == ' ' || text[off] == '\t' || text[off] == '\r' ||
			     text[off] == '\n'))
		off++;
	if (off < len) {
		board_excerpt(text, len, off, near, sizeof(near));
		board_err_at(ctx, text, off, "JSON syntax error: text after the end at '%s'", near);
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

/* ---- typed getters: each names the path and the expected type ---- */

static bool board_key_in(const char *key, const char *const *keys)
{
	for (; *keys; keys++)
		if (strcmp(*keys, key) == 0)
			return true;
	return false;
}

/*
 * Every key of @obj must be unique and, unless @known is NULL (any key goes),
 * either in @known or marked in @used (by position; @used may be NULL).
 * "comment" is allowed everywhere.
 */
static int board_check_keys(struct board_ctx *ctx, const cJSON *obj, const char *path,
			    const char *const *known, const bool *used)
{
	const cJSON *a, *b;
	char p[BOARD_PATH_MAX];
	int i = 0;

	cJSON_ArrayForEach(a, obj) {
		board_path_key(p, sizeof(p), path, a->string);
		for (b = obj->child; b != a; b = b->next)
			if (strcmp(a->string, b->string) == 0)
				return board_err(ctx, p, "duplicate key");
		if (known && strcmp(a->string, "comment") != 0 && !board_key_in(a->string, known) &&
		    !(used && i < BOARD_DEVICE_KEYS_MAX && used[i]))
			return board_err(ctx, p, "unknown key");
		i++;
	}
	return 0;
}

/* Return: 0, -ENOENT when absent and optional, -EINVAL (message set). */
static int board_get_string(struct board_ctx *ctx, const cJSON *obj, const char *path,
			    const char *key, bool required, size_t maxlen, const char **out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[BOARD_PATH_MAX];

	board_path_key(p, sizeof(p), path, key);
	if (!it) {
		if (required)
			return board_err(ctx, p, "missing");
		return -ENOENT;
	}
	if (!cJSON_IsString(it))
		return board_err(ctx, p, "expected a string, not %s", board_json_type(it));
	if (!it->valuestring[0])
		return board_err(ctx, p, "empty string");
	if (maxlen && strlen(it->valuestring) > maxlen)
		return board_err(ctx, p, "longer than %zu characters", maxlen);
	*out = it->valuestring;
	return 0;
}

static bool board_is_integer(const cJSON *it, long min, long max, long *out)
{
	double d;

	if (!cJSON_IsNumber(it))
		return false;
	d = it->valuedouble;
	if (!isfinite(d) || d != floor(d) || d < (double)min || d > (double)max)
		return false;
	*out = (long)d;
	return true;
}

/* A number, or a string in C notation ("0x35", "53"), within [min, max]. */
static bool board_is_integer_or_string(const cJSON *it, long min, long max, long *out)
{
	const char *s;
	char *endp;
	long v;

	if (cJSON_IsNumber(it))
		return board_is_integer(it, min, max, out);
	if (!cJSON_IsString(it))
		return false;
	s = it->valuestring;
	if (!s[0] || s[0] == ' ' || s[0] == '-' || s[0] == '+')
		return false;
	errno = 0;
	v = strtol(s, &endp, 0);
	if (errno || *endp || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static int board_get_int(struct board_ctx *ctx, const cJSON *obj, const char *path,
			 const char *key, bool required, long min, long max, long *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[BOARD_PATH_MAX];

	board_path_key(p, sizeof(p), path, key);
	if (!it) {
		if (required)
			return board_err(ctx, p, "missing");
		return -ENOENT;
	}
	if (!board_is_integer(it, min, max, out))
		return board_err(ctx, p, "expected an integer from %ld to %ld, not %s", min, max,
				 cJSON_IsNumber(it) ? "this number" : board_json_type(it));
	return 0;
}

static int board_get_double(struct board_ctx *ctx, const cJSON *obj, const char *path,
			    const char *key, bool required, double dflt, double *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[BOARD_PATH_MAX];

	board_path_key(p, sizeof(p), path, key);
	if (!it) {
		*out = dflt;
		return required ? board_err(ctx, p, "missing") : 0;
	}
	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
		return board_err(ctx, p, "expected a number, not %s", board_json_type(it));
	*out = it->valuedouble;
	return 0;
}

static int board_get_object(struct board_ctx *ctx, const cJSON *obj, const char *path,
			    const char *key, const cJSON **out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[BOARD_PATH_MAX];

	*out = NULL;
	if (!it)
		return -ENOENT;
	board_path_key(p, sizeof(p), path, key);
	if (!cJSON_IsObject(it))
		return board_err(ctx, p, "expected an object, not %s", board_json_type(it));
	*out = it;
	return 0;
}

static int board_get_array(struct board_ctx *ctx, const cJSON *obj, const char *key, int max,
			   const cJSON **out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (!it)
		return -ENOENT;
	if (!cJSON_IsArray(it))
		return board_err(ctx, key, "expected an array, not %s", board_json_type(it));
	if (cJSON_GetArraySize(it) > max)
		return board_err(ctx, key, "more than %d entries", max);
	*out = it;
	return 0;
}

/* ---- probe properties: the driver reads its device object ---- */

static const cJSON *board_props_find(const void *props, const char *key)
{
	struct board_props *bp = (struct board_props *)props;
	const cJSON *it;
	int i = 0;

	cJSON_ArrayForEach(it, bp->obj) {
		if (strcmp(it->string, key) == 0) {
			if (i < BOARD_DEVICE_KEYS_MAX)
				bp->used[i] = true;
			return it;
		}
		i++;
	}
	return NULL;
}

static int board_prop_int(const void *props, const char *key, int *val)
{
	const cJSON *it = board_props_find(props, key);
	long v;

	if (!it)
		return -ENOENT;
	if (!board_is_integer_or_string(it, INT_MIN, INT_MAX, &v))
		return -EINVAL;
	*val = (int)v;
	return 0;
}

static int board_prop_str(const void *props, const char *key, const char **val)
{
	const cJSON *it = board_props_find(props, key);

	if (!it)
		return -ENOENT;
	if (!cJSON_IsString(it))
		return -EINVAL;
	*val = it->valuestring;
	return 0;
}

/* ---- buses ---- */

/* "i2c-N" or "spiN", N decimal without leading zeros. Return: 0 or -EINVAL. */
static int board_parse_bus_key(const char *key, enum bus_type *type, int *number)
{
	const char *p;
	long n = 0;

	if (strncmp(key, "i2c-", 4) == 0) {
		*type = BUS_I2C;
		p = key + 4;
	} else if (strncmp(key, "spi", 3) == 0) {
		*type = BUS_SPI;
		p = key + 3;
	} else {
		return -EINVAL;
	}
	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1]))
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		n = n * 10 + (*p - '0');
		if (n > BOARD_BUS_NUMBER_MAX)
			return -EINVAL;
	}
	*number = (int)n;
	return 0;
}

static int board_open_bus(struct board_ctx *ctx, const cJSON *obj)
{
	static const char *const known[] = { "type", "backend", "device", NULL };
	struct board *b = &ctx->bp->b;
	const char *type_s = NULL, *backend = NULL, *device = NULL;
	char path[BOARD_PATH_MAX], p[BOARD_PATH_MAX];
	const struct bus_ops *ops;
	enum bus_type type;
	struct bus *bus;
	int number, ret;

	board_path_key(path, sizeof(path), "buses", obj->string);
	if (board_parse_bus_key(obj->string, &type, &number))
		return board_err(ctx, path, "a bus is named i2c-N or spiN (N from 0 to %d)",
				 BOARD_BUS_NUMBER_MAX);
	if (!cJSON_IsObject(obj))
		return board_err(ctx, path, "expected an object, not %s", board_json_type(obj));
	ret = board_check_keys(ctx, obj, path, known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, obj, path, "type", false, 0, &type_s);
	if (ret == -EINVAL)
		return ret;
	board_path_key(p, sizeof(p), path, "type");
	if (type_s && strcmp(type_s, type == BUS_I2C ? "i2c" : "spi") != 0)
		return board_err(ctx, p, "\"%s\" does not match the bus name %s (\"%s\")", type_s,
				 obj->string, type == BUS_I2C ? "i2c" : "spi");
	ret = board_get_string(ctx, obj, path, "backend", true, 0, &backend);
	if (ret)
		return ret;
	board_path_key(p, sizeof(p), path, "backend");
	ops = bus_backend_find(backend);
	if (!ops)
		return board_err(ctx, p, "unknown backend %s (emulated, i2c-dev, spidev)", backend);
	if ((type == BUS_I2C && strcmp(backend, "spidev") == 0) ||
	    (type == BUS_SPI && strcmp(backend, "i2c-dev") == 0))
		return board_err(ctx, p, "%s cannot drive %s", backend, obj->string);
	ret = board_get_string(ctx, obj, path, "device", ops != ctx->emu_ops, PATH_MAX, &device);
	if (ret == -EINVAL)
		return ret;
	ret = bus_create(ops, type, number, device, &bus);
	if (ret) {
		board_path_key(p, sizeof(p), path, device ? "device" : "backend");
		return board_err(ctx, p, "cannot open %s: %s", device ? device : backend,
				 strerror(-ret));
	}
	b->bus_names[b->nbuses] = strdup(obj->string);
	b->buses[b->nbuses++] = bus;
	if (!b->bus_names[b->nbuses - 1])
		return board_err(ctx, path, "%s", strerror(ENOMEM));
	return 0;
}

static int board_open_buses(struct board_ctx *ctx, const cJSON *root)
{
	struct board *b = &ctx->bp->b;
	const cJSON *buses, *it;
	int n, ret;

	ret = board_get_object(ctx, root, "", "buses", &buses);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	/* every key is a bus name, checked by board_open_bus(); only duplicates here */
	ret = board_check_keys(ctx, buses, "buses", NULL, NULL);
	if (ret)
		return ret;
	n = cJSON_GetArraySize(buses);
	if (n > BOARD_BUSES_MAX)
		return board_err(ctx, "buses", "more than %d buses", BOARD_BUSES_MAX);
	b->buses = calloc((size_t)n + 1, sizeof(*b->buses));
	b->bus_names = calloc((size_t)n + 1, sizeof(*b->bus_names));
	if (!b->buses || !b->bus_names)
		return board_err(ctx, "buses", "%s", strerror(ENOMEM));
	cJSON_ArrayForEach(it, buses) {
		ret = board_open_bus(ctx, it);
		if (ret)
			return ret;
	}
	return 0;
}

static int board_bus_index(const struct board *b, const char *key)
{
	int i;

	for (i = 0; i < b->nbuses; i++)
		if (strcmp(b->bus_names[i], key) == 0)
			return i;
	return -1;
}

struct bus *board_find_bus(const struct board *b, const char *key)
{
	int i;

	if (!b || !key)
		return NULL;
	i = board_bus_index(b, key);
	return i < 0 ? NULL : b->buses[i];
}

/* ---- emulated inputs ---- */

static int board_signal_csv(struct board_ctx *ctx, const cJSON *spec, const char *path,
			    struct emu_signal *sig)
{
	static const char *const known[] = { "file", NULL };
	char full[PATH_MAX], p[BOARD_PATH_MAX], cerr[BOARD_ERR_MAX];
	const char *file;
	int ret;

	ret = board_check_keys(ctx, spec, path, known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, spec, path, "file", true, 0, &file);
	if (ret)
		return ret;
	board_path_key(p, sizeof(p), path, "file");
	/* relative to the board file, so a board and its traces move together */
	if (file[0] == '/')
		ret = snprintf(full, sizeof(full), "%s", file);
	else
		ret = snprintf(full, sizeof(full), "%s/%s", ctx->basedir, file);
	if (ret >= (int)sizeof(full))
		return board_err(ctx, p, "path too long");
	cerr[0] = '\0';
	ret = emu_signal_load_csv(sig, full, cerr, sizeof(cerr));
	if (ret)
		return board_err(ctx, p, "%s", cerr[0] ? cerr : strerror(-ret));
	return 0;
}

/* One emulate value: a number (constant) or {"sine"|"ramp"|"noise"|"csv": {...}}. */
static int board_parse_signal(struct board_ctx *ctx, const cJSON *val, const char *path,
			      struct emu_signal *sig)
{
	static const char *const sine_keys[] = { "offset", "amplitude", "period_s", "phase", NULL };
	static const char *const ramp_keys[] = { "from", "to", "period_s", NULL };
	static const char *const noise_keys[] = { "mean", "stddev", "seed", NULL };
	const cJSON *spec;
	char p[BOARD_PATH_MAX], kp[BOARD_PATH_MAX];
	double from, to;
	long seed = 0;
	int ret;

	memset(sig, 0, sizeof(*sig));
	if (cJSON_IsNumber(val)) {
		if (!isfinite(val->valuedouble))
			return board_err(ctx, path, "not a finite number");
		sig->kind = EMU_SIGNAL_CONST;
		sig->value = val->valuedouble;
		return 0;
	}
	if (!cJSON_IsObject(val) || cJSON_GetArraySize(val) != 1 || !cJSON_IsObject(val->child))
		return board_err(ctx, path, "expected a number or one of {\"sine\": {...}}, "
				 "{\"ramp\": {...}}, {\"noise\": {...}}, {\"csv\": {...}}");
	spec = val->child;
	board_path_key(p, sizeof(p), path, spec->string);
	if (strcmp(spec->string, "sine") == 0) {
		sig->kind = EMU_SIGNAL_SINE;
		ret = board_check_keys(ctx, spec, p, sine_keys, NULL);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "offset", false, 0, &sig->offset);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "amplitude", true, 0, &sig->amplitude);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "period_s", true, 0, &sig->period_s);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "phase", false, 0, &sig->phase);
	} else if (strcmp(spec->string, "ramp") == 0) {
		sig->kind = EMU_SIGNAL_RAMP;
		ret = board_check_keys(ctx, spec, p, ramp_keys, NULL);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "from", true, 0, &from);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "to", true, 0, &to);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "period_s", true, 0, &sig->period_s);
		if (!ret) {
			sig->offset = from;
			sig->amplitude = to - from;
		}
	} else if (strcmp(spec->string, "noise") == 0) {
		sig->kind = EMU_SIGNAL_NOISE;
		ret = board_check_keys(ctx, spec, p, noise_keys, NULL);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "mean", false, 0, &sig->offset);
		if (!ret)
			ret = board_get_double(ctx, spec, p, "stddev", true, 0, &sig->amplitude);
		if (!ret && sig->amplitude < 0) {
			board_path_key(kp, sizeof(kp), p, "stddev");
			ret = board_err(ctx, kp, "must not be negative");
		}
		if (!ret) {
			ret = board_get_int(ctx, spec, p, "seed", false, 0, LONG_MAX, &seed);
			ret = ret == -ENOENT ? 0 : ret;
			sig->seed = (uint64_t)seed;
		}
		return ret;
	} else if (strcmp(spec->string, "csv") == 0) {
		return board_signal_csv(ctx, spec, p, sig);
	} else {
		return board_err(ctx, p, "unknown signal (sine, ramp, noise, csv)");
	}
	if (!ret && !(sig->period_s > 0)) {
		board_path_key(kp, sizeof(kp), p, "period_s");
		ret = board_err(ctx, kp, "must be greater than 0");
	}
	return ret;
}

static void board_free_inputs(struct emu_input *in, int n)
{
	int i;

	for (i = 0; i < n; i++)
		emu_signal_fini(&in[i].sig);
	free(in);
}

/* Create the chip model for device @d (JSON @obj) and place it on its emulated bus. */
static int board_emulate(struct board_ctx *ctx, const cJSON *obj, const char *path,
			 const char *driver, struct bus *bus, int addr, int vref_mv)
{
	const struct iio_device_id *id = NULL;
	const struct emu_model *model;
	struct emu_input *inputs = NULL;
	struct emu_params params;
	struct emu_chip *chip = NULL;
	const cJSON *emulate, *it;
	char p[BOARD_PATH_MAX], cerr[BOARD_ERR_MAX];
	int n = 0, ret;

	board_path_key(p, sizeof(p), path, "driver");
	model = emu_model_find(driver, &id);
	if (!model)
		return board_err(ctx, p, "no chip model of %s to emulate", driver);
	ret = board_get_object(ctx, obj, path, "emulate", &emulate);
	if (ret == -EINVAL)
		return ret;
	if (emulate) {
		board_path_key(p, sizeof(p), path, "emulate");
		/* input keys are the model's business; only duplicates are ours */
		ret = board_check_keys(ctx, emulate, p, NULL, NULL);
		if (ret)
			return ret;
		if (cJSON_GetArraySize(emulate) > BOARD_EMULATE_INPUTS_MAX)
			return board_err(ctx, p, "more than %d inputs", BOARD_EMULATE_INPUTS_MAX);
		inputs = calloc((size_t)cJSON_GetArraySize(emulate) + 1, sizeof(*inputs));
		if (!inputs)
			return board_err(ctx, p, "%s", strerror(ENOMEM));
		cJSON_ArrayForEach(it, emulate) {
			char ip[BOARD_PATH_MAX];

			if (strcmp(it->string, "comment") == 0)
				continue;
			board_path_key(ip, sizeof(ip), p, it->string);
			inputs[n].key = it->string;
			ret = board_parse_signal(ctx, it, ip, &inputs[n].sig);
			n++;
			if (ret)
				goto err_free_inputs;
		}
	}
	params = (struct emu_params){ .name = driver, .id = id, .inputs = inputs,
				      .ninputs = n, .vref_mv = vref_mv };
	cerr[0] = '\0';
	ret = model->create(&params, &chip, cerr, sizeof(cerr));
	if (ret) {
		board_path_key(p, sizeof(p), path, emulate ? "emulate" : "driver");
		ret = board_err(ctx, p, "%s", cerr[0] ? cerr : strerror(-ret));
		goto err_free_inputs;
	}
	/* the bus owns the chip from here on, even when attaching fails */
	ret = emu_bus_attach(bus, (uint16_t)addr, chip);
	if (ret) {
		board_path_key(p, sizeof(p), path, bus->type == BUS_SPI ? "cs" : "address");
		ret = board_err(ctx, p, "cannot place the chip model: %s", strerror(-ret));
		goto err_free_inputs;
	}
	board_free_inputs(inputs, n);
	return 0;

err_free_inputs:
	board_free_inputs(inputs, n);
	return -EINVAL;
}

/* Parse "fault": {"mode", "after", "count", "hang_ms", "from"}; @from_probe says when to arm. */
static int board_parse_fault(struct board_ctx *ctx, const cJSON *fobj, const char *path,
			     struct emu_fault *fault, bool *from_probe)
{
	static const char *const known[] = { "mode", "after", "count", "hang_ms", "from", NULL };
	static const char *const modes[] = {
		[EMU_FAULT_NACK] = "nack", [EMU_FAULT_EIO] = "eio", [EMU_FAULT_HANG] = "hang",
	};
	const char *mode, *from = NULL;
	char p[BOARD_PATH_MAX];
	long v;
	int ret, m;

	memset(fault, 0, sizeof(*fault));
	ret = board_check_keys(ctx, fobj, path, known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, fobj, path, "mode", true, 0, &mode);
	if (ret)
		return ret;
	for (m = EMU_FAULT_NACK; m <= EMU_FAULT_HANG; m++)
		if (strcmp(mode, modes[m]) == 0)
			break;
	board_path_key(p, sizeof(p), path, "mode");
	if (m > EMU_FAULT_HANG)
		return board_err(ctx, p, "unknown mode %s (nack, eio, hang)", mode);
	fault->mode = (enum emu_fault_mode)m;
	ret = board_get_int(ctx, fobj, path, "after", false, 0, UINT_MAX, &v);
	if (ret == -EINVAL)
		return ret;
	fault->after = ret ? 0 : (unsigned int)v;
	ret = board_get_int(ctx, fobj, path, "count", false, 0, UINT_MAX, &v);
	if (ret == -EINVAL)
		return ret;
	fault->count = ret ? 0 : (unsigned int)v;
	ret = board_get_int(ctx, fobj, path, "hang_ms", false, 1, INT_MAX, &v);
	if (ret == -EINVAL)
		return ret;
	fault->hang_ms = ret ? 0 : (unsigned int)v;
	ret = board_get_string(ctx, fobj, path, "from", false, 0, &from);
	if (ret == -EINVAL)
		return ret;
	board_path_key(p, sizeof(p), path, "from");
	if (from && strcmp(from, "probe") != 0 && strcmp(from, "load") != 0)
		return board_err(ctx, p, "expected \"probe\" or \"load\"");
	*from_probe = from && strcmp(from, "probe") == 0;
	return 0;
}

/* ---- devices ---- */

/* Where a device sits, read from "bus" and "address"/"cs". */
struct board_place {
	int bus;		/* index, -1 when bus-less */
	int addr;
	bool emulated;
};

static int board_device_place(struct board_ctx *ctx, const cJSON *obj, const char *path,
			      struct board_place *pl)
{
	const struct board *b = &ctx->bp->b;
	const cJSON *addr = cJSON_GetObjectItemCaseSensitive(obj, "address");
	const cJSON *cs = cJSON_GetObjectItemCaseSensitive(obj, "cs");
	const char *busname;
	char p[BOARD_PATH_MAX];
	struct bus *bus;
	long v;
	int i, ret;

	pl->bus = -1;
	pl->addr = 0;
	pl->emulated = false;
	ret = board_get_string(ctx, obj, path, "bus", false, 0, &busname);
	if (ret == -EINVAL)
		return ret;
	if (ret == -ENOENT) {
		if (addr || cs) {
			board_path_key(p, sizeof(p), path, addr ? "address" : "cs");
			return board_err(ctx, p, "given without a \"bus\"");
		}
		return 0;
	}
	board_path_key(p, sizeof(p), path, "bus");
	pl->bus = board_bus_index(b, busname);
	if (pl->bus < 0)
		return board_err(ctx, p, "no bus %s in \"buses\"", busname);
	bus = b->buses[pl->bus];
	pl->emulated = bus->ops == ctx->emu_ops;
	if (bus->type == BUS_I2C) {
		board_path_key(p, sizeof(p), path, cs ? "cs" : "address");
		if (cs)
			return board_err(ctx, p, "a chip select is for SPI; %s is I2C", busname);
		if (!addr)
			return board_err(ctx, p, "missing (the chip's 7-bit I2C address)");
		if (!board_is_integer_or_string(addr, 0, 0x7f, &v))
			return board_err(ctx, p, "expected a 7-bit I2C address (\"0x35\" or 53)");
	} else {
		board_path_key(p, sizeof(p), path, addr ? "address" : "cs");
		if (addr)
			return board_err(ctx, p, "an SPI device has a \"cs\", not an address");
		if (!cs)
			return board_err(ctx, p, "missing (the chip select on %s)", busname);
		if (!board_is_integer(cs, 0, BOARD_SPI_CS_MAX, &v))
			return board_err(ctx, p, "expected a chip select from 0 to %d",
					 BOARD_SPI_CS_MAX);
	}
	pl->addr = (int)v;
	for (i = 0; i < ctx->bp->ndevs; i++) {
		if (ctx->bp->devs[i].bus == pl->bus && ctx->bp->devs[i].addr == pl->addr)
			return board_err(ctx, p, "%s %d-%04x is taken by devices[%d]",
					 bus->type == BUS_I2C ? "address" : "chip select",
					 bus->number, pl->addr, i);
	}
	return 0;
}

static char *board_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/*
 * Probe the device described by @obj with @drv and register it. The bus
 * client passes to the device on success; everything else unwinds here.
 */
static int board_add_device(struct board_ctx *ctx, const cJSON *obj, const char *path, int idx)
{
	static const char *const known[] = {
		"driver", "bus", "address", "cs", "label", "name", "vref_mv", "emulate", "fault",
		NULL,
	};
	struct board_priv *bp = ctx->bp;
	struct board_dev *bd = &bp->devs[idx];
	const struct iio_device_id *id = NULL;
	const struct iio_driver *drv;
	const char *driver, *label = NULL, *name = NULL;
	struct bus_i2c_client *i2c = NULL;
	struct bus_spi_device *spi = NULL;
	struct board_props props = { .obj = obj };
	struct iio_probe probe;
	struct iio_dev *dev = NULL;
	struct board_place pl;
	struct emu_fault fault;
	const cJSON *fobj;
	char p[BOARD_PATH_MAX], perr[BOARD_ERR_MAX];
	struct bus *bus = NULL;
	bool fault_from_probe = false;
	long vref = 0;
	int ret, i;

	if (!cJSON_IsObject(obj))
		return board_err(ctx, path, "expected an object, not %s", board_json_type(obj));
	if (cJSON_GetArraySize(obj) > BOARD_DEVICE_KEYS_MAX)
		return board_err(ctx, path, "more than %d keys", BOARD_DEVICE_KEYS_MAX);
	/* duplicates now; unknown keys once the driver has read what it wants */
	ret = board_check_keys(ctx, obj, path, NULL, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, obj, path, "driver", true, 0, &driver);
	if (ret)
		return ret;
	drv = iio_driver_find(driver, &id);
	if (!drv) {
		board_path_key(p, sizeof(p), path, "driver");
		return board_err(ctx, p, "unknown driver %s", driver);
	}
	ret = board_device_place(ctx, obj, path, &pl);
	if (ret)
		return ret;
	if (pl.bus >= 0)
		bus = bp->b.buses[pl.bus];
	ret = board_get_string(ctx, obj, path, "label", false, BOARD_LABEL_MAX_BYTES, &label);
	if (ret == -EINVAL)
		return ret;
	ret = board_get_string(ctx, obj, path, "name", false, BOARD_LABEL_MAX_BYTES, &name);
	if (ret == -EINVAL)
		return ret;
	ret = board_get_int(ctx, obj, path, "vref_mv", false, 1, INT_MAX, &vref);
	if (ret == -EINVAL)
		return ret;
	for (i = 0; i < 2 && !pl.emulated; i++) {
		const char *key = i ? "fault" : "emulate";

		board_path_key(p, sizeof(p), path, key);
		if (cJSON_GetObjectItemCaseSensitive(obj, key))
			return board_err(ctx, p, "only for a device on an emulated bus");
	}
	ret = board_get_object(ctx, obj, path, "fault", &fobj);
	if (ret == -EINVAL)
		return ret;
	if (fobj) {
		board_path_key(p, sizeof(p), path, "fault");
		ret = board_parse_fault(ctx, fobj, p, &fault, &fault_from_probe);
		if (ret)
			return ret;
	}

	bd->bus = pl.bus;
	bd->addr = pl.addr;
	if (pl.emulated) {
		ret = board_emulate(ctx, obj, path, driver, bus, pl.addr, (int)vref);
		if (ret)
			return ret;
		if (fobj && fault_from_probe && emu_bus_set_fault(bus, (uint16_t)pl.addr, &fault))
			return board_err(ctx, p, "cannot arm the fault");
	}
	ret = 0;
	if (bus && bus->type == BUS_I2C)
		ret = bus_i2c_client_create(bus, (uint16_t)pl.addr, &i2c);
	else if (bus)
		ret = bus_spi_device_create(bus, pl.addr, &spi);
	if (ret) {
		board_path_key(p, sizeof(p), path, bus->type == BUS_I2C ? "address" : "cs");
		return board_err(ctx, p, "%s", strerror(-ret));
	}

	probe = (struct iio_probe){
		.id = id, .name = name ? name : id->name, .label = label, .i2c = i2c, .spi = spi,
		.props = &props, .prop_int = board_prop_int, .prop_str = board_prop_str,
		.reg = ctx->bp->b.reg,
	};
	perr[0] = '\0';
	ret = drv->probe(&probe, &dev, perr, sizeof(perr));
	if (ret || !dev) {
		ret = board_err(ctx, path, "%s", perr[0] ? perr :
				ret ? strerror(-ret) : "the driver made no device");
		goto err_destroy_client;
	}
	/* from here the final put runs the driver's remove() */
	iio_device_set_driver(dev, drv);
	ret = board_check_keys(ctx, obj, path, known, props.used);
	if (ret)
		goto err_put_dev;
	if (i2c)
		iio_device_set_i2c(dev, i2c);
	if (spi)
		iio_device_set_spi(dev, spi);
	i2c = NULL;	/* the device's now: the final put destroys it */
	spi = NULL;
	/* the JSON goes away after loading: keep what the device points at */
	bd->label = board_strdup(label);
	bd->name = name && dev->name == name ? strdup(name) : NULL;
	if ((label && !bd->label) || (name && dev->name == name && !bd->name)) {
		ret = board_err(ctx, path, "%s", strerror(ENOMEM));
		goto err_put_dev;
	}
	if (label)
		dev->label = bd->label;
	if (bd->name)
		dev->name = bd->name;
	ret = iio_device_register(bp->b.reg, dev, perr, sizeof(perr));
	if (ret) {
		ret = board_err(ctx, path, "cannot register %s: %s", driver,
				perr[0] ? perr : strerror(-ret));
		goto err_put_dev;
	}
	bd->dev = dev;
	bp->ndevs++;
	if (fobj && !fault_from_probe && emu_bus_set_fault(bus, (uint16_t)pl.addr, &fault)) {
		board_path_key(p, sizeof(p), path, "fault");
		return board_err(ctx, p, "cannot arm the fault");
	}
	return 0;

err_put_dev:
	iio_device_put(dev);
	free(bd->label);
	free(bd->name);
	memset(bd, 0, sizeof(*bd));
err_destroy_client:
	bus_i2c_client_destroy(i2c);
	bus_spi_device_destroy(spi);
	return ret;
}

static int board_add_devices(struct board_ctx *ctx, const cJSON *root)
{
	const cJSON *devices, *it;
	char path[BOARD_PATH_MAX];
	int i = 0, ret;

	ret = board_get_array(ctx, root, "devices", BOARD_DEVICES_MAX, &devices);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	ctx->bp->devs = calloc((size_t)cJSON_GetArraySize(devices) + 1, sizeof(*ctx->bp->devs));
	if (!ctx->bp->devs)
		return board_err(ctx, "devices", "%s", strerror(ENOMEM));
	cJSON_ArrayForEach(it, devices) {
		board_path_index(path, sizeof(path), "devices", i);
		ret = board_add_device(ctx, it, path, i);
		if (ret)
			return ret;
		i++;
	}
	return 0;
}

/* ---- maps ---- */

/* "AIN0, AIN1, ..." of what maps can name on the provider, for the error message. */
static void board_list_channel_labels(const struct iio_dev *dev, char *out, size_t len)
{
	char id[IIO_ATTR_NAME_MAX];
	size_t used = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < dev->num_channels && used < len; i++) {
		const struct iio_chan_spec *chan = &dev->channels[i];
		const char *label = chan->datasheet_name;

		if (!label) {
			if (chan->channel < 0 || chan->type == IIO_TIMESTAMP ||
			    iio_chan_id(id, sizeof(id), chan) < 0)
				continue;
			label = id;
		}
		used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "", label);
	}
}

static int board_add_map(struct board_ctx *ctx, const cJSON *obj, const char *path, int idx)
{
	static const char *const known[] = {
		"adc_dev_name", "adc_channel_label", "consumer_dev_name", "consumer_channel", NULL,
	};
	struct iio_registry *reg = ctx->bp->b.reg;
	const struct iio_map *other;
	struct iio_map map;
	struct iio_dev *dev;
	char p[BOARD_PATH_MAX], msg[BOARD_ERR_MAX / 2];
	int ret, i;

	if (!cJSON_IsObject(obj))
		return board_err(ctx, path, "expected an object, not %s", board_json_type(obj));
	ret = board_check_keys(ctx, obj, path, known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, obj, path, "adc_dev_name", true, 0, &map.adc_dev_name);
	if (!ret)
		ret = board_get_string(ctx, obj, path, "adc_channel_label", true, 0,
				       &map.adc_channel_label);
	if (!ret)
		ret = board_get_string(ctx, obj, path, "consumer_dev_name", true, 0,
				       &map.consumer_dev_name);
	if (!ret)
		ret = board_get_string(ctx, obj, path, "consumer_channel", true, 0,
				       &map.consumer_channel);
	if (ret)
		return ret;
	board_path_key(p, sizeof(p), path, "adc_dev_name");
	ret = iio_registry_find(reg, map.adc_dev_name, &dev, msg, sizeof(msg));
	if (ret == -ENOTUNIQ)
		return board_err(ctx, p, "%s is ambiguous: %s", map.adc_dev_name, msg);
	if (ret)
		return board_err(ctx, p, "no device %s", map.adc_dev_name);
	board_path_key(p, sizeof(p), path, "adc_channel_label");
	if (!iio_device_find_channel(dev, map.adc_channel_label)) {
		board_list_channel_labels(dev, msg, sizeof(msg));
		if (!msg[0])
			return board_err(ctx, p, "%s (%s) names no channels, so no map can reach it",
					 map.adc_dev_name, dev->name);
		return board_err(ctx, p, "%s (%s) has no channel %s (it has %s)",
				 map.adc_dev_name, dev->name, map.adc_channel_label, msg);
	}
	/* a second map of one consumer channel would never be found: say so */
	for (i = 0; i < idx; i++) {
		other = iio_registry_map_at(reg, i, NULL);
		if (other && strcmp(other->consumer_dev_name, map.consumer_dev_name) == 0 &&
		    strcmp(other->consumer_channel, map.consumer_channel) == 0)
			return board_err(ctx, path, "%s %s is already mapped by maps[%d]",
					 map.consumer_dev_name, map.consumer_channel, i);
	}
	ret = iio_map_array_register(reg, dev, &map, 1);
	if (ret)
		return board_err(ctx, path, "%s", strerror(-ret));
	return 0;
}

static int board_add_maps(struct board_ctx *ctx, const cJSON *root)
{
	const cJSON *maps, *it;
	char path[BOARD_PATH_MAX];
	int i = 0, ret;

	ret = board_get_array(ctx, root, "maps", BOARD_MAPS_MAX, &maps);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	cJSON_ArrayForEach(it, maps) {
		board_path_index(path, sizeof(path), "maps", i);
		ret = board_add_map(ctx, it, path, i);
		if (ret)
			return ret;
		i++;
	}
	return 0;
}

/* ---- loading ---- */

static int board_header(struct board_ctx *ctx, const cJSON *root)
{
	static const char *const known[] = { "board", "description", "buses", "devices", "maps",
					     NULL };
	struct board *b = &ctx->bp->b;
	const char *name = NULL, *desc = NULL, *base;
	int ret;

	if (!cJSON_IsObject(root))
		return board_err(ctx, "top level", "expected an object, not %s",
				 board_json_type(root));
	ret = board_check_keys(ctx, root, "", known, NULL);
	if (ret)
		return ret;
	ret = board_get_string(ctx, root, "", "board", false, sizeof(b->name) - 1, &name);
	if (ret == -EINVAL)
		return ret;
	ret = board_get_string(ctx, root, "", "description", false, sizeof(b->description) - 1,
			       &desc);
	if (ret == -EINVAL)
		return ret;
	if (name) {
		snprintf(b->name, sizeof(b->name), "%s", name);
	} else {
		/* unnamed: the file's base name without ".json" */
		base = strrchr(ctx->origin, '/');
		base = base ? base + 1 : ctx->origin;
		snprintf(b->name, sizeof(b->name), "%.*s", (int)strcspn(base, "."), base);
	}
	snprintf(b->description, sizeof(b->description), "%s", desc ? desc : "");
	return 0;
}

static struct board *board_load_text(const char *text, size_t len, const char *origin,
				     const char *basedir, char *err, size_t errlen)
{
	struct board_ctx ctx = {
		.origin = origin, .basedir = basedir, .err = err, .errlen = errlen,
		.emu_ops = bus_backend_find("emulated"),
	};
	cJSON *root;

	if (err && errlen)
		err[0] = '\0';
	if (len > BOARD_FILE_MAX_BYTES) {
		board_err(&ctx, "top level", "larger than %d bytes", BOARD_FILE_MAX_BYTES);
		return NULL;
	}
	root = board_parse(&ctx, text, len);
	if (!root)
		return NULL;
	ctx.bp = calloc(1, sizeof(*ctx.bp));
	if (!ctx.bp) {
		board_err(&ctx, "top level", "%s", strerror(ENOMEM));
		goto err_free_json;
	}
	ctx.bp->b.reg = iio_registry_create();
	if (!ctx.bp->b.reg) {
		board_err(&ctx, "top level", "%s", strerror(ENOMEM));
		goto err_destroy_board;
	}
	if (board_header(&ctx, root) || board_open_buses(&ctx, root) ||
	    board_add_devices(&ctx, root) || board_add_maps(&ctx, root))
		goto err_destroy_board;
	cJSON_Delete(root);
	return &ctx.bp->b;

err_destroy_board:
	/* devices, maps and buses all hang off the board: one teardown undoes any prefix */
	board_destroy(ctx.bp ? &ctx.bp->b : NULL);
err_free_json:
	cJSON_Delete(root);
	return NULL;
}

struct board *board_load_string(const char *json, const char *origin, char *err, size_t errlen)
{
	if (!origin)
		origin = "(string)";
	if (!json) {
		if (err && errlen)
			snprintf(err, errlen, "%s: top level: no text", origin);
		return NULL;
	}
	return board_load_text(json, strlen(json), origin, ".", err, errlen);
}

struct board *board_load(const char *path, char *err, size_t errlen)
{
	char *text = NULL, *dir = NULL, *slash;
	struct board *b = NULL;
	struct stat st;
	size_t len = 0;
	ssize_t n;
	FILE *f;

	if (err && errlen)
		err[0] = '\0';
	if (!path)
		return NULL;
	f = fopen(path, "re");
	if (!f) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		goto err_close;
	}
	/* one byte more than the limit tells "too large" from "exactly the limit" */
	text = malloc(BOARD_FILE_MAX_BYTES + 2);
	if (!text) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		goto err_close;
	}
	while (len <= BOARD_FILE_MAX_BYTES &&
	       (n = (ssize_t)fread(text + len, 1, BOARD_FILE_MAX_BYTES + 1 - len, f)) > 0)
		len += (size_t)n;
	if (ferror(f)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(EIO));
		goto err_free_text;
	}
	text[len] = '\0';
	dir = strdup(path);
	if (!dir) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		goto err_free_text;
	}
	slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	b = board_load_text(text, len, path, dir, err, errlen);
	free(dir);
err_free_text:
	free(text);
err_close:
	fclose(f);
	return b;
}

void board_destroy(struct board *b)
{
	struct board_priv *bp = (struct board_priv *)b;
	struct iio_dev **held;
	int i, n;

	if (!b)
		return;
	/*
	 * A consumer may still hold a device past this point: pin each one,
	 * unregister them all (now gone, remove() done), and only then take
	 * back the label and name strings the devices borrowed from us.
	 */
	n = bp->ndevs;
	held = calloc((size_t)n + 1, sizeof(*held));
	for (i = 0; held && i < n; i++)
		held[i] = iio_device_get(bp->devs[i].dev);
	iio_registry_destroy(b->reg);
	for (i = 0; i < n; i++) {
		struct iio_dev *dev = bp->devs[i].dev;

		iio_device_lock(dev);
		if (bp->devs[i].label && dev->label == bp->devs[i].label)
			dev->label = NULL;
		if (bp->devs[i].name && dev->name == bp->devs[i].name)
			dev->name = "";
		iio_device_unlock(dev);
		free(bp->devs[i].label);
		free(bp->devs[i].name);
	}
	for (i = 0; held && i < n; i++)
		iio_device_put(held[i]);
	free(held);
	free(bp->devs);
	for (i = 0; i < b->nbuses; i++) {
		bus_put(b->buses[i]);
		free(b->bus_names[i]);
	}
	free(b->buses);
	free(b->bus_names);
	free(bp);
}

int board_default_path(char *buf, size_t len)
{
	const char *env = getenv("IIOWIRE_MAPS_DIR");
	const char *src = __FILE__;
	const char *tail = "drivers/board.c";
	size_t srclen = strlen(src), taillen = strlen(tail);
	int n;

	if (env && env[0])
		n = snprintf(buf, len, "%s/%s", env, BOARD_DEFAULT_FILE);
	else
		n = snprintf(buf, len, "%s/%s", IIOWIRE_MAPS_DIR, BOARD_DEFAULT_FILE);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if ((env && env[0]) || access(buf, R_OK) == 0)
		return n;
	/* not installed: a build run from its tree uses the tree's maps/ */
	if (src[0] == '/' && srclen > taillen && strcmp(src + srclen - taillen, tail) == 0) {
		n = snprintf(buf, len, "%.*smaps/%s", (int)(srclen - taillen), src,
			     BOARD_DEFAULT_FILE);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		if (access(buf, R_OK) == 0)
			return n;
	}
	n = snprintf(buf, len, "%s/%s", IIOWIRE_MAPS_DIR, BOARD_DEFAULT_FILE);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
}
