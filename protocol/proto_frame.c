/*
 * proto_frame.c - cutting a byte stream into request or reply lines.
 *
 * First step after the socket on both sides of the wire: bytes in, lines
 * out (LF or CRLF), with the line limit applied while bytes arrive, so an
 * endless line costs at most max_bytes + 1 bytes of memory and is refused
 * the moment it crosses the limit. A line that arrives whole in one read
 * is handed out in place, without a copy. This file does not look inside
 * a line (proto_request.c does) and never reads a socket.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto_priv.h"

/*
 * A line buffer bigger than this is given back once its line is done, so
 * that 10,000 idle connections do not each keep a page of old bytes.
 */
#define PROTO_SPLITTER_KEEP_BYTES	256

void proto_splitter_init(struct proto_splitter *sp, size_t max_bytes)
{
	sp->max_bytes = max_bytes ? max_bytes : PROTO_LINE_MAX_BYTES;
	sp->buf = NULL;
	sp->len = 0;
	sp->cap = 0;
	sp->discarding = false;
}

void proto_splitter_fini(struct proto_splitter *sp)
{
	if (!sp)
		return;
	free(sp->buf);
	sp->buf = NULL;
	sp->len = 0;
	sp->cap = 0;
	sp->discarding = false;
}

static int proto_splitter_hold(struct proto_splitter *sp, const char *data, size_t n)
{
	size_t cap;
	char *p;

	if (sp->len + n > sp->cap) {
		cap = sp->cap ? sp->cap : PROTO_SPLITTER_KEEP_BYTES;
		while (cap < sp->len + n)
			cap *= 2;
		/* never more than a full line, its CR and nothing else */
		if (cap > sp->max_bytes + 1)
			cap = sp->max_bytes + 1;
		p = realloc(sp->buf, cap);
		if (!p)
			return -ENOMEM;
		sp->buf = p;
		sp->cap = cap;
	}
	memcpy(sp->buf + sp->len, data, n);
	sp->len += n;
	return 0;
}

/* Does a line of @n bytes before its LF, whose last byte is @last, fit? */
static bool proto_splitter_fits(const struct proto_splitter *sp, size_t n, char last)
{
	return n <= sp->max_bytes || (n == sp->max_bytes + 1 && last == '\r');
}

int proto_splitter_next(struct proto_splitter *sp, const char *data, size_t len, size_t *used,
			const char **line, size_t *line_len)
{
	const char *nl;
	size_t n, total, skip = 0;
	char last;
	int ret;

	*used = 0;
	/* the previous line (if it was in buf) is released by this call */
	if (!sp->len && sp->cap > PROTO_SPLITTER_KEEP_BYTES) {
		free(sp->buf);
		sp->buf = NULL;
		sp->cap = 0;
	}
	if (sp->discarding) {
		nl = memchr(data, '\n', len);
		if (!nl) {
			*used = len;
			return 0;
		}
		skip = (size_t)(nl - data) + 1;
		sp->discarding = false;
		data += skip;
		len -= skip;
	}
	nl = memchr(data, '\n', len);
	if (!nl) {
		if (!len) {
			*used = skip;
			return 0;
		}
		total = sp->len + len;
		if (total > sp->max_bytes && !proto_splitter_fits(sp, total, data[len - 1])) {
			sp->len = 0;
			sp->discarding = true;
			*used = skip + len;
			return -E2BIG;
		}
		ret = proto_splitter_hold(sp, data, len);
		if (ret)
			return ret;
		*used = skip + len;
		return 0;
	}

	n = (size_t)(nl - data);
	*used = skip + n + 1;
	total = sp->len + n;
	last = n ? data[n - 1] : (sp->len ? sp->buf[sp->len - 1] : '\n');
	if (!proto_splitter_fits(sp, total, last)) {
		sp->len = 0;
		return -E2BIG;
	}
	if (!sp->len) {
		*line = data;
	} else {
		ret = proto_splitter_hold(sp, data, n);
		if (ret) {
			*used = skip;
			return ret;
		}
		*line = sp->buf;
		/* the bytes stay valid until the next call; only the count goes */
		sp->len = 0;
	}
	*line_len = total;
	if (last == '\r')
		(*line_len)--;
	return 1;
}

int proto_splitter_flush(struct proto_splitter *sp, const char **line, size_t *line_len)
{
	if (sp->discarding) {
		sp->discarding = false;
		return 0;
	}
	if (!sp->len)
		return 0;
	*line = sp->buf;
	*line_len = sp->len;
	if (sp->buf[sp->len - 1] == '\r')
		(*line_len)--;
	sp->len = 0;
	return 1;
}

size_t proto_splitter_pending(const struct proto_splitter *sp)
{
	return sp->len;
}

void proto_splitter_trim(struct proto_splitter *sp)
{
	if (sp->len)
		return;
	free(sp->buf);
	sp->buf = NULL;
	sp->cap = 0;
}
