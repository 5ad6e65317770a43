/*
 * board_json.c - the JSON side of board files: syntax, typed getters, and
 * the property view a probe reads.
 *
 * Before cJSON parses, the text is checked for what it would accept or
 * choke on (NUL bytes, nesting deeper than any board needs, a string left
 * open), so a syntax error names FILE:LINE:COL and quotes what stands
 * there. After it, every read of a key goes through a getter that names
 * the JSON path and the type wanted ("devices[0].vref_mv: expected an
 * integer from 1 to 2147483647, not a string"). Place in the flow: used by
 * board.c and board_emu.c only; cJSON never leaves the board loader, and
 * nothing here knows what a bus or a device is.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_priv.h"
#include "iio.h"
#include "iio_near.h"

int board_err(struct board_ctx *ctx, const char *path, const char *fmt, ...)
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

const char *board_json_type(const cJSON *item)
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
void board_path_key(char *out, size_t len, const char *base, const char *key)
{
	/* a path longer than the buffer is cut; it only ever ends up in a message */
	if (snprintf(out, len, "%s%s%s", base, base[0] ? "." : "", key) >= (int)len)
		out[len - 1] = '\0';
}

void board_path_index(char *out, size_t len, const char *base, int i)
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

/*
 * What a scan outside strings finds for the messages cJSON's error pointer
 * cannot give: cJSON stops at the byte it could not take, which is after
 * the place to fix when a comma or a closing bracket is missing.
 * @comma: the first comma only blanks separate from a '}' or ']' (JSON has
 *	no trailing commas; cJSON's position for one is the next line's), or -1.
 * @mismatch: the first '}' or ']' that does not close the innermost open
 *	bracket, the length when the text ends with one open, or -1.
 * @open: that innermost open bracket's offset.
 * @inner: the innermost open bracket at the scan's stop offset, or 0.
 */
struct board_syntax {
	long comma;
	long mismatch;
	size_t open;
	char inner;
};

/* Scan @text as struct board_syntax says; @stop: the offset @inner is for. */
static void board_syntax_scan(const char *text, size_t len, size_t stop, struct board_syntax *syn)
{
	size_t stack[BOARD_JSON_DEPTH_MAX], i, j;
	bool in_str = false;
	int depth = 0;

	*syn = (struct board_syntax){ .comma = -1, .mismatch = -1 };
	for (i = 0; i < len && syn->mismatch < 0; i++) {
		if (i == stop)
			syn->inner = depth ? text[stack[depth - 1]] : 0;
		if (in_str) {
			if (text[i] == '\\')
				i++;
			else if (text[i] == '"')
				in_str = false;
			continue;
		}
		if (text[i] == '"') {
			in_str = true;
		} else if ((text[i] == '{' || text[i] == '[') && depth < BOARD_JSON_DEPTH_MAX) {
			stack[depth++] = i;
		} else if ((text[i] == '}' || text[i] == ']') && depth > 0) {
			/* '{' + 2 is '}', '[' + 2 is ']' */
			if (text[stack[depth - 1]] + 2 != text[i]) {
				syn->mismatch = (long)i;
				syn->open = stack[depth - 1];
			}
			depth--;
		} else if (text[i] == ',' && syn->comma < 0) {
			for (j = i + 1; j < len && strchr(" \t\r\n", text[j]); j++)
				;
			if (j < len && (text[j] == '}' || text[j] == ']'))
				syn->comma = (long)i;
		}
	}
	if (syn->mismatch < 0 && depth > 0) {
		syn->mismatch = (long)len;
		syn->open = stack[depth - 1];
	}
}

/* Just past the last non-blank byte before @off: where a missing comma or bracket goes. */
static size_t board_after_prev(const char *text, size_t off)
{
	while (off > 0 && strchr(" \t\r\n", text[off - 1]))
		off--;
	return off;
}

/* A bracket left open: name it and where it opened, at the place its closer belongs. */
static int board_err_unclosed(struct board_ctx *ctx, const char *text, size_t len,
			      const struct board_syntax *syn)
{
	char want = text[syn->open] + 2, near[24];
	int line, col;

	board_line_col(text, syn->open, &line, &col);
	if ((size_t)syn->mismatch >= len)
		return board_err_at(ctx, text, len, "JSON syntax error: unexpected end of file: "
				    "missing '%c' (the '%c' at %d:%d is still open)", want,
				    text[syn->open], line, col);
	board_excerpt(text, len, (size_t)syn->mismatch, near, sizeof(near));
	return board_err_at(ctx, text, board_after_prev(text, (size_t)syn->mismatch),
			    "JSON syntax error: missing '%c' (the '%c' at %d:%d is still open) "
			    "before '%s'", want, text[syn->open], line, col, near);
}

/*
 * cJSON stopped at @off, where a value or key starts right after another
 * value ended: a comma is missing before it, or, after an object's key, a
 * colon. Return: -EINVAL after the message, or 0 when it is neither.
 */
static int board_err_missing_sep(struct board_ctx *ctx, const char *text, size_t len, size_t off)
{
	size_t prev = board_after_prev(text, off), q;
	struct board_syntax syn;
	char near[24];

	if (prev == 0 || !strchr("\"{[-0123456789tfn", text[off]) ||
	    !strchr("\"}]0123456789el", text[prev - 1]))
		return 0;
	board_excerpt(text, len, off, near, sizeof(near));
	if (text[prev - 1] == '"') {
		/* a string after '{' or ',' in an object is a key */
		q = prev - 1;
		while (q > 0 && !(text[q - 1] == '"' && (q < 2 || text[q - 2] != '\\')))
			q--;
		board_syntax_scan(text, len, q ? q - 1 : 0, &syn);
		q = q ? board_after_prev(text, q - 1) : 0;
		if (syn.inner == '{' && q > 0 && (text[q - 1] == '{' || text[q - 1] == ','))
			return board_err_at(ctx, text, off, "JSON syntax error: missing ':' after "
					    "the key, at '%s'", near);
	}
	return board_err_at(ctx, text, prev, "JSON syntax error: missing comma before '%s'",
			    near);
}

cJSON *board_parse(struct board_ctx *ctx, const char *text, size_t len)
{
	struct board_syntax syn;
	const char *end = NULL;
	char near[24];
	size_t off;
	cJSON *root;

	if (board_check_text(ctx, text, len))
		return NULL;
	root = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (!root) {
		board_syntax_scan(text, len, len, &syn);
		if (syn.comma >= 0) {
			board_err_at(ctx, text, (size_t)syn.comma, "JSON syntax error: a comma "
				     "before the end of an object or array");
			return NULL;
		}
		off = end && end >= text ? (size_t)(end - text) : 0;
		/* cJSON reports the last byte when it ran off the end */
		while (off < len && strchr(" \t\r\n", text[off]))
			off++;
		if (off + 1 == len && end == text + len - 1 && text[off] != '}' && text[off] != ']')
			off = len;
		/* a bracket left open before where cJSON stopped is the first thing to fix */
		if (syn.mismatch >= 0 && (size_t)syn.mismatch <= off) {
			board_err_unclosed(ctx, text, len, &syn);
			return NULL;
		}
		if (off >= len) {
			board_err_at(ctx, text, len, "JSON syntax error: unexpected end of file");
			return NULL;
		}
		if (board_err_missing_sep(ctx, text, len, off))
			return NULL;
		board_excerpt(text, len, off, near, sizeof(near));
		board_err_at(ctx, text, off, "JSON syntax error at '%s'", near);
		return NULL;
	}
	off = (size_t)(end - text);
	while (off < len && strchr(" \t\r\n", text[off]))
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
int board_check_keys(struct board_ctx *ctx, const cJSON *obj, const char *path,
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

int board_near_key(struct board_ctx *ctx, const cJSON *obj, const char *path, const char *key)
{
	char p[BOARD_PATH_MAX];
	/* a short key is near other short keys ("bus", "cs"): one edit for it */
	int d, most = strlen(key) <= 4 ? 1 : 2;
	const cJSON *it;

	cJSON_ArrayForEach(it, obj) {
		if (!it->string || strcmp(it->string, key) == 0)
			continue;
		d = iio_name_edits(it->string, key);
		if (d > 0 && d <= most) {
			board_path_key(p, sizeof(p), path, it->string);
			return board_err(ctx, p, "unknown key (did you mean \"%s\"?)", key);
		}
	}
	return 0;
}

/*
 * The first step of every getter: @key of @obj into *@it and its path into
 * @p. Return: 0, -ENOENT when absent and optional, -EINVAL when required
 * (a misspelt key, "adress", is reported as the unknown key it is).
 */
static int board_get_item(struct board_ctx *ctx, const cJSON *obj, const char *path,
			  const char *key, bool required, char *p, const cJSON **it)
{
	*it = cJSON_GetObjectItemCaseSensitive(obj, key);
	board_path_key(p, BOARD_PATH_MAX, path, key);
	if (*it)
		return 0;
	if (!required)
		return -ENOENT;
	return board_near_key(ctx, obj, path, key) ?: board_err(ctx, p, "missing");
}

/* Return: 0, -ENOENT when absent and optional, -EINVAL (message set). */
int board_get_string(struct board_ctx *ctx, const cJSON *obj, const char *path,
		     const char *key, bool required, size_t maxlen, const char **out)
{
	char p[BOARD_PATH_MAX];
	const cJSON *it;
	size_t i;
	int ret;

	ret = board_get_item(ctx, obj, path, key, required, p, &it);
	if (ret)
		return ret;
	if (!cJSON_IsString(it))
		return board_err(ctx, p, "expected a string, not %s", board_json_type(it));
	if (!it->valuestring[0])
		return board_err(ctx, p, "empty string");
	if (maxlen && strlen(it->valuestring) > maxlen)
		return board_err(ctx, p, "longer than %zu characters", maxlen);
	/* names and labels reach listings, XML and terminals: no control bytes in them */
	for (i = 0; it->valuestring[i]; i++)
		if ((unsigned char)it->valuestring[i] < 0x20 || it->valuestring[i] == 0x7f)
			return board_err(ctx, p, "control character 0x%02x at byte %zu",
					 (unsigned int)(unsigned char)it->valuestring[i], i + 1);
	*out = it->valuestring;
	return 0;
}

bool board_is_integer(const cJSON *it, long min, long max, long *out)
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
bool board_is_integer_or_string(const cJSON *it, long min, long max, long *out)
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

int board_get_int(struct board_ctx *ctx, const cJSON *obj, const char *path,
		  const char *key, bool required, long min, long max, long *out)
{
	char p[BOARD_PATH_MAX];
	const cJSON *it;
	int ret;

	ret = board_get_item(ctx, obj, path, key, required, p, &it);
	if (ret)
		return ret;
	if (!board_is_integer(it, min, max, out))
		return board_err(ctx, p, "expected an integer from %ld to %ld, not %s", min, max,
				 cJSON_IsNumber(it) ? "this number" : board_json_type(it));
	return 0;
}

int board_get_double(struct board_ctx *ctx, const cJSON *obj, const char *path,
		     const char *key, bool required, double dflt, double *out)
{
	char p[BOARD_PATH_MAX];
	const cJSON *it;
	int ret;

	*out = dflt;
	ret = board_get_item(ctx, obj, path, key, required, p, &it);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
		return board_err(ctx, p, "expected a number, not %s", board_json_type(it));
	*out = it->valuedouble;
	return 0;
}

int board_get_object(struct board_ctx *ctx, const cJSON *obj, const char *path,
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

int board_get_array(struct board_ctx *ctx, const cJSON *obj, const char *key, int max,
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

int board_prop_int(const void *props, const char *key, int *val)
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

int board_prop_str(const void *props, const char *key, const char **val)
{
	const cJSON *it = board_props_find(props, key);

	if (!it)
		return -ENOENT;
	if (!cJSON_IsString(it))
		return -EINVAL;
	*val = it->valuestring;
	return 0;
}
