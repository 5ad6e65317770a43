/*
 * proto_buf.c - the growable output buffer and the escapers that write
 * values and messages into it.
 *
 * Every reply and request line is built here: encoders append, then the
 * caller hands the bytes to its writer (proto_buf_steal() when the write
 * outlives the buffer). The escapers are what keeps one line one line:
 * JSON strings escape control characters and replace invalid UTF-8, text
 * fields replace control characters with spaces. Pure memory work: no
 * I/O, no limits (output limits are the server's, on what it queues).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto_priv.h"

/* First allocation; doubling from here keeps appends amortised O(1). */
#define PROTO_BUF_MIN_BYTES	256

void proto_buf_init(struct proto_buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void proto_buf_fini(struct proto_buf *b)
{
	if (!b)
		return;
	free(b->data);
	proto_buf_init(b);
}

static int proto_buf_reserve(struct proto_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (extra > SIZE_MAX - b->len - 1)
		return -ENOMEM;
	need = b->len + extra;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : PROTO_BUF_MIN_BYTES;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

int proto_buf_append(struct proto_buf *b, const void *p, size_t n)
{
	int ret;

	if (!n)
		return 0;
	ret = proto_buf_reserve(b, n);
	if (ret)
		return ret;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

int proto_buf_printf(struct proto_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	/* +1: vsnprintf writes a NUL, which stays outside len */
	ret = proto_buf_reserve(b, (size_t)n + 1);
	if (ret)
		return ret;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void proto_buf_truncate(struct proto_buf *b, size_t len)
{
	if (len < b->len)
		b->len = len;
}

char *proto_buf_steal(struct proto_buf *b, size_t *len)
{
	char *p = b->data;

	*len = b->len;
	if (!b->len) {
		proto_buf_fini(b);
		return NULL;
	}
	proto_buf_init(b);
	return p;
}

/*
 * Length of the valid UTF-8 sequence at @s (1..4), or 0 if the bytes there
 * are not one (overlong forms, surrogates and values past U+10FFFF are not).
 */
static size_t proto_utf8_seq(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	size_t n, i;
	unsigned int cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * How many bytes at the start of @s are printable ASCII (0x20-0x7e), 8 at a
 * time: a byte's high bit is set in w, w - 0x20 or w + 1 exactly when it is
 * outside the range (a borrow or carry between bytes comes only from a byte
 * that is itself outside). Requests are nearly all such bytes.
 */
static size_t proto_ascii_run(const unsigned char *s, size_t len)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	size_t i = 0;
	uint64_t w;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		if ((w | (w - 0x20 * ones) | (w + ones)) & high)
			break;
	}
	while (i < len && s[i] >= 0x20 && s[i] < 0x7f)
		i++;
	return i;
}

int proto_line_check(const char *s, size_t len, char *err, size_t errlen)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		i += proto_ascii_run(u + i, len - i);
		if (i == len)
			break;
		if (u[i] == 0) {
			proto_msg(err, errlen, "NUL byte at offset %zu", i);
			return -EINVAL;
		}
		if (proto_is_ctrl(u[i]) && u[i] != '\t') {
			proto_msg(err, errlen, "control character 0x%02x at offset %zu", u[i], i);
			return -EINVAL;
		}
		n = proto_utf8_seq(u + i, len - i);
		if (!n) {
			proto_msg(err, errlen, "invalid UTF-8 at offset %zu", i);
			return -EINVAL;
		}
		i += n;
	}
	return 0;
}

int proto_buf_json_str(struct proto_buf *b, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, start, n;
	char esc[8];
	int ret;

	ret = proto_buf_append(b, "\"", 1);
	while (!ret && i < len) {
		/* copy the longest run that needs no escaping in one go */
		start = i;
		while (i < len && u[i] >= 0x20 && u[i] != '"' && u[i] != '\\' && u[i] != 0x7f) {
			n = proto_utf8_seq(u + i, len - i);
			if (!n)
				break;
			i += n;
		}
		ret = proto_buf_append(b, s + start, i - start);
		if (ret || i == len)
			break;
		if (u[i] == '"' || u[i] == '\\') {
			esc[0] = '\\';
			esc[1] = (char)u[i];
			ret = proto_buf_append(b, esc, 2);
		} else if (u[i] == '\n') {
			ret = proto_buf_append(b, "\\n", 2);
		} else if (u[i] == '\r') {
			ret = proto_buf_append(b, "\\r", 2);
		} else if (u[i] == '\t') {
			ret = proto_buf_append(b, "\\t", 2);
		} else if (u[i] && proto_is_ctrl(u[i])) {
			snprintf(esc, sizeof(esc), "\\u%04x", u[i]);
			ret = proto_buf_append(b, esc, 6);
		} else {
			/*
			 * a byte that starts no valid sequence, or NUL (decoders,
			 * ours included, refuse "\u0000"): U+FFFD
			 */
			ret = proto_buf_append(b, "\xef\xbf\xbd", 3);
		}
		i++;
	}
	if (!ret)
		ret = proto_buf_append(b, "\"", 1);
	return ret;
}

int proto_buf_text(struct proto_buf *b, const char *s, size_t len, bool no_blank)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, start = 0, n;
	const char *repl;
	int ret;

	if (!s || !len)
		return proto_buf_append(b, "-", 1);
	while (i < len) {
		n = proto_utf8_seq(u + i, len - i);
		if (!n)
			repl = "\xef\xbf\xbd";	/* U+FFFD for a byte that starts nothing */
		else if (proto_is_ctrl(u[i]))
			repl = " ";
		else if (no_blank && proto_is_blank(s[i]))
			repl = "_";
		else {
			i += n;
			continue;
		}
		ret = proto_buf_append(b, s + start, i - start);
		if (!ret)
			ret = proto_buf_append(b, repl, strlen(repl));
		if (ret)
			return ret;
		i++;
		start = i;
	}
	return proto_buf_append(b, s + start, len - start);
}

void proto_msg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
