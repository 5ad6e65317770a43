/*
 * iiod_codec.c - the iiod text protocol: request lines in, framed replies
 * out (see iiod.h and PROTOCOL-iiod.md).
 *
 * A line is cut into blank-separated tokens, the first one picks a row of
 * the op table, and the row's argument shape is checked token by token.
 * Names are held to iiod's word pattern, so nothing that reaches the
 * server can name a path. The WRITE payload length is taken from the last
 * token before anything else is checked: the server must skip those bytes
 * even when it refuses the line, or the stream falls out of step (iiod
 * 0.24's own parser does not, and then reads the payload as commands).
 * Place in the flow: server -> *wire* -> libiio client. No I/O here, no
 * globals beyond const tables; it never looks a name up.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iiod.h"

/* The most tokens a request has: WRITE <dev> OUTPUT <chn> <attr> <len>. */
#define PROTO_IIOD_TOKENS_MAX	6

struct proto_iiod_tok {
	const char *s;
	size_t len;
};

/* One request: its keyword, a second spelling, and its usage for HELP. */
struct proto_iiod_op_row {
	const char *name;
	const char *alias;
	const char *usage;
};

static const struct proto_iiod_op_row proto_iiod_ops[PROTO_IIOD_OP_COUNT] = {
	[PROTO_IIOD_OP_HELP] = { "HELP", NULL, "HELP" },
	[PROTO_IIOD_OP_EXIT] = { "EXIT", "QUIT", "EXIT | QUIT" },
	[PROTO_IIOD_OP_VERSION] = { "VERSION", NULL, "VERSION" },
	[PROTO_IIOD_OP_PRINT] = { "PRINT", NULL, "PRINT" },
	[PROTO_IIOD_OP_ZPRINT] = { "ZPRINT", NULL, "ZPRINT" },
	[PROTO_IIOD_OP_BINARY] = { "BINARY", NULL, "BINARY" },
	[PROTO_IIOD_OP_TIMEOUT] = { "TIMEOUT", NULL, "TIMEOUT <ms>" },
	[PROTO_IIOD_OP_READ] = { "READ", NULL,
		"READ <dev> [DEBUG|BUFFER|INPUT <chn>|OUTPUT <chn>] [<attr>]" },
	[PROTO_IIOD_OP_WRITE] = { "WRITE", NULL,
		"WRITE <dev> [DEBUG|BUFFER|INPUT <chn>|OUTPUT <chn>] [<attr>] <bytes>" },
	[PROTO_IIOD_OP_GETTRIG] = { "GETTRIG", NULL, "GETTRIG <dev>" },
	[PROTO_IIOD_OP_SETTRIG] = { "SETTRIG", NULL, "SETTRIG <dev> [<trigger>]" },
	[PROTO_IIOD_OP_SET] = { "SET", NULL, "SET <dev> BUFFERS_COUNT <n>" },
	[PROTO_IIOD_OP_OPEN] = { "OPEN", NULL, "OPEN <dev> <samples> <mask> [CYCLIC]" },
	[PROTO_IIOD_OP_CLOSE] = { "CLOSE", NULL, "CLOSE <dev>" },
	[PROTO_IIOD_OP_READBUF] = { "READBUF", NULL, "READBUF <dev> <bytes>" },
	[PROTO_IIOD_OP_WRITEBUF] = { "WRITEBUF", NULL, "WRITEBUF <dev> <bytes>" },
};

const char *proto_iiod_op_name(enum proto_iiod_op op)
{
	if (op <= PROTO_IIOD_OP_NONE || op >= PROTO_IIOD_OP_COUNT)
		return NULL;
	return proto_iiod_ops[op].name;
}

/* ---- tokens ---- */

static bool proto_iiod_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Cut @line at blanks into @tok (at most PROTO_IIOD_TOKENS_MAX of them);
 * @last gets the last token even past that many.
 * Return: the number of tokens on the line, which may exceed what @tok holds.
 */
static int proto_iiod_tokenize(const char *line, size_t len, struct proto_iiod_tok *tok,
			       struct proto_iiod_tok *last)
{
	size_t i = 0, start;
	int n = 0;

	for (;;) {
		while (i < len && proto_iiod_is_blank(line[i]))
			i++;
		if (i == len)
			return n;
		start = i;
		while (i < len && !proto_iiod_is_blank(line[i]))
			i++;
		last->s = line + start;
		last->len = i - start;
		if (n < PROTO_IIOD_TOKENS_MAX)
			tok[n] = *last;
		if (n < INT32_MAX)
			n++;
	}
}

/* @tok is @kw in all upper case, or all lower case (iiod takes either, not a mix). */
static bool proto_iiod_is_kw(const struct proto_iiod_tok *tok, const char *kw)
{
	size_t i, n = strlen(kw);
	bool upper = true, lower = true;
	char c, k;

	if (tok->len != n)
		return false;
	for (i = 0; i < n; i++) {
		c = tok->s[i];
		k = kw[i];
		upper = upper && c == k;
		lower = lower && c == ((k >= 'A' && k <= 'Z') ? k - 'A' + 'a' : k);
	}
	return upper || lower;
}

static bool proto_iiod_is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

static bool proto_iiod_is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * iiod's name pattern: an optional "letters," or "iio:" prefix, then one or
 * more of [A-Za-z0-9_.-]. Copied NUL-terminated into @out.
 */
static int proto_iiod_name(const struct proto_iiod_tok *tok, char *out)
{
	size_t i = 0, j;

	if (!tok->len || tok->len > PROTO_IIOD_NAME_MAX_BYTES)
		return -EINVAL;
	if (tok->len > 4 && memcmp(tok->s, "iio:", 4) == 0) {
		i = 4;
	} else {
		for (j = 0; j < tok->len && proto_iiod_is_letter(tok->s[j]); j++)
			;
		if (j > 0 && j < tok->len && tok->s[j] == ',')
			i = j + 1;
	}
	if (i == tok->len)
		return -EINVAL;
	for (j = i; j < tok->len; j++)
		if (!proto_iiod_is_word_char(tok->s[j]))
			return -EINVAL;
	memcpy(out, tok->s, tok->len);
	out[tok->len] = '\0';
	return 0;
}

/* A decimal number. Return: 0, -EINVAL (not digits), -ERANGE (past UINT64_MAX). */
static int proto_iiod_number(const struct proto_iiod_tok *tok, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	unsigned int d;

	if (!tok->len)
		return -EINVAL;
	for (i = 0; i < tok->len; i++) {
		if (tok->s[i] < '0' || tok->s[i] > '9')
			return -EINVAL;
		d = (unsigned int)(tok->s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int proto_iiod_mask(const struct proto_iiod_tok *tok, char *out)
{
	size_t i;
	char c;

	if (!tok->len || tok->len > PROTO_IIOD_MASK_MAX_BYTES)
		return -EINVAL;
	for (i = 0; i < tok->len; i++) {
		c = tok->s[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
			return -EINVAL;
	}
	memcpy(out, tok->s, tok->len);
	out[tok->len] = '\0';
	return 0;
}

/* ---- request shapes ---- */

/*
 * What follows "<dev>" in READ and WRITE (WRITE's byte count already taken
 * off): nothing, <attr>, DEBUG|BUFFER [<attr>], INPUT|OUTPUT <chn> [<attr>].
 */
static int proto_iiod_target(struct proto_iiod_cmd *cmd, const struct proto_iiod_tok *t, int n)
{
	int i = 0;

	if (n > 0 && (proto_iiod_is_kw(&t[0], "DEBUG") || proto_iiod_is_kw(&t[0], "BUFFER"))) {
		cmd->target = proto_iiod_is_kw(&t[0], "DEBUG") ? PROTO_IIOD_TARGET_DEBUG :
			PROTO_IIOD_TARGET_BUFFER;
		i = 1;
	} else if (n > 0 && (proto_iiod_is_kw(&t[0], "INPUT") ||
			     proto_iiod_is_kw(&t[0], "OUTPUT"))) {
		cmd->target = PROTO_IIOD_TARGET_CHANNEL;
		cmd->output = proto_iiod_is_kw(&t[0], "OUTPUT");
		if (n < 2 || proto_iiod_name(&t[1], cmd->channel))
			return -EINVAL;
		i = 2;
	}
	if (i == n) {
		cmd->all = true;
		return 0;
	}
	if (n - i != 1)
		return -EINVAL;
	return proto_iiod_name(&t[i], cmd->attr);
}

/* Arguments after the keyword, per op. @t/@n: the tokens after the keyword. */
static int proto_iiod_args(struct proto_iiod_cmd *cmd, const struct proto_iiod_tok *t, int n)
{
	int ret;

	switch (cmd->op) {
	case PROTO_IIOD_OP_HELP:
	case PROTO_IIOD_OP_EXIT:
	case PROTO_IIOD_OP_VERSION:
	case PROTO_IIOD_OP_PRINT:
	case PROTO_IIOD_OP_ZPRINT:
	case PROTO_IIOD_OP_BINARY:
		return n == 0 ? 0 : -EINVAL;
	case PROTO_IIOD_OP_TIMEOUT:
		if (n != 1)
			return -EINVAL;
		return proto_iiod_number(&t[0], &cmd->num) ? -EINVAL : 0;
	case PROTO_IIOD_OP_GETTRIG:
	case PROTO_IIOD_OP_CLOSE:
		if (n != 1)
			return -EINVAL;
		return proto_iiod_name(&t[0], cmd->device);
	case PROTO_IIOD_OP_SETTRIG:
		if (n < 1 || n > 2 || proto_iiod_name(&t[0], cmd->device))
			return -EINVAL;
		return n == 2 ? proto_iiod_name(&t[1], cmd->trigger) : 0;
	case PROTO_IIOD_OP_SET:
		if (n != 3 || proto_iiod_name(&t[0], cmd->device) ||
		    !proto_iiod_is_kw(&t[1], "BUFFERS_COUNT"))
			return -EINVAL;
		return proto_iiod_number(&t[2], &cmd->num) ? -EINVAL : 0;
	case PROTO_IIOD_OP_OPEN:
		if (n < 3 || n > 4 || proto_iiod_name(&t[0], cmd->device) ||
		    proto_iiod_number(&t[1], &cmd->num) || proto_iiod_mask(&t[2], cmd->mask))
			return -EINVAL;
		if (n == 4 && !proto_iiod_is_kw(&t[3], "CYCLIC"))
			return -EINVAL;
		cmd->cyclic = n == 4;
		return 0;
	case PROTO_IIOD_OP_READBUF:
	case PROTO_IIOD_OP_WRITEBUF:
		if (n != 2 || proto_iiod_name(&t[0], cmd->device))
			return -EINVAL;
		return proto_iiod_number(&t[1], &cmd->num) ? -EINVAL : 0;
	case PROTO_IIOD_OP_READ:
		if (n < 1 || proto_iiod_name(&t[0], cmd->device))
			return -EINVAL;
		return proto_iiod_target(cmd, t + 1, n - 1);
	case PROTO_IIOD_OP_WRITE:
		if (n < 2 || proto_iiod_name(&t[0], cmd->device))
			return -EINVAL;
		ret = proto_iiod_number(&t[n - 1], &cmd->num);
		if (ret)
			return -EINVAL;
		return proto_iiod_target(cmd, t + 1, n - 2);
	default:
		return -EINVAL;
	}
}

int proto_iiod_parse(const char *line, size_t len, struct proto_iiod_cmd *cmd)
{
	struct proto_iiod_tok tok[PROTO_IIOD_TOKENS_MAX], last;
	const struct proto_iiod_op_row *row;
	int n, i;

	memset(cmd, 0, sizeof(*cmd));
	n = proto_iiod_tokenize(line, len, tok, &last);
	if (n == 0)
		return 0;	/* blank: PROTO_IIOD_OP_NONE */
	for (i = PROTO_IIOD_OP_NONE + 1; i < PROTO_IIOD_OP_COUNT; i++) {
		row = &proto_iiod_ops[i];
		if (proto_iiod_is_kw(&tok[0], row->name) ||
		    (row->alias && proto_iiod_is_kw(&tok[0], row->alias))) {
			cmd->op = (enum proto_iiod_op)i;
			break;
		}
	}
	/* before any other check: a refused WRITE's payload must still be skipped */
	if (cmd->op == PROTO_IIOD_OP_WRITE && n >= 2 &&
	    proto_iiod_number(&last, &cmd->payload) == -ERANGE)
		cmd->payload = UINT64_MAX;
	if (cmd->op == PROTO_IIOD_OP_NONE || n > PROTO_IIOD_TOKENS_MAX || memchr(line, '\0', len))
		return -EINVAL;
	return proto_iiod_args(cmd, tok + 1, n - 1);
}

/* ---- replies ---- */

int proto_iiod_reply_code(struct proto_buf *b, long long code)
{
	return proto_buf_printf(b, "%lld\n", code);
}

int proto_iiod_reply_data(struct proto_buf *b, const void *data, size_t len)
{
	size_t start = b->len;

	if (proto_buf_printf(b, "%zu\n", len) || proto_buf_append(b, data, len) ||
	    proto_buf_append(b, "\n", 1)) {
		proto_buf_truncate(b, start);
		return -ENOMEM;
	}
	return 0;
}

int proto_iiod_reply_value(struct proto_buf *b, const char *value, size_t len)
{
	size_t start = b->len;

	if (len && value[len - 1] == '\n')
		len--;
	/* the count takes in the NUL that stands where the newline was, as sysfs reads do */
	if (proto_buf_printf(b, "%zu\n", len + 1) || proto_buf_append(b, value, len) ||
	    proto_buf_append(b, "\0\n", 2)) {
		proto_buf_truncate(b, start);
		return -ENOMEM;
	}
	return 0;
}

int proto_iiod_reply_version(struct proto_buf *b)
{
	/* clients take exactly seven characters after the second dot */
	return proto_buf_printf(b, "%d.%d.%-7.7s\n", PROTO_IIOD_VERSION_MAJOR,
				PROTO_IIOD_VERSION_MINOR, PROTO_IIOD_VERSION_TAG);
}

int proto_iiod_reply_help(struct proto_buf *b)
{
	size_t start = b->len;
	int i;

	if (proto_buf_printf(b, "iiod protocol %d.%d (iiowire). Requests:\n",
			     PROTO_IIOD_VERSION_MAJOR, PROTO_IIOD_VERSION_MINOR))
		return -ENOMEM;
	for (i = PROTO_IIOD_OP_NONE + 1; i < PROTO_IIOD_OP_COUNT; i++) {
		if (proto_buf_printf(b, "\t%s\n", proto_iiod_ops[i].usage)) {
			proto_buf_truncate(b, start);
			return -ENOMEM;
		}
	}
	return 0;
}

size_t proto_iiod_value_len(const char *payload, size_t len)
{
	const char *nul;

	if (!len)
		return 0;	/* an empty payload may have no buffer at all */
	nul = memchr(payload, '\0', len);

	return nul ? (size_t)(nul - payload) : len;
}

/* ---- the "all attributes" layout ---- */

static size_t proto_iiod_pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int proto_iiod_all_append(struct proto_buf *b, long ret, const char *value)
{
	static const char zeros[4];
	size_t start = b->len, len = ret > 0 ? (size_t)ret : 0;
	uint32_t word = (uint32_t)(int32_t)ret;
	unsigned char be[4];

	if (ret > INT32_MAX || ret < INT32_MIN)
		return -EINVAL;
	be[0] = (unsigned char)(word >> 24);
	be[1] = (unsigned char)(word >> 16);
	be[2] = (unsigned char)(word >> 8);
	be[3] = (unsigned char)word;
	if (proto_buf_append(b, be, 4) || proto_buf_append(b, value, len) ||
	    proto_buf_append(b, zeros, proto_iiod_pad4(len) - len)) {
		proto_buf_truncate(b, start);
		return -ENOMEM;
	}
	return 0;
}

int proto_iiod_all_next(const char *data, size_t len, size_t *off, const char **value,
			size_t *vlen)
{
	const unsigned char *p;
	size_t left;
	int32_t v;

	*value = NULL;
	*vlen = 0;
	if (*off > len || len - *off < 4)
		return -EINVAL;
	p = (const unsigned char *)data + *off;
	v = (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
	*off += 4;
	left = len - *off;
	if (v <= 0)
		return 0;
	if ((size_t)v > left)
		return -EINVAL;
	*value = data + *off;
	*vlen = (size_t)v;
	/* the last entry's padding may be left off */
	*off += proto_iiod_pad4((size_t)v) <= left ? proto_iiod_pad4((size_t)v) : (size_t)v;
	return 0;
}
