/*
 * proto_json.c - the pre-scan of a JSON line, before cJSON parses it.
 *
 * cJSON parses nested values by recursion and cuts strings at "\u0000";
 * it also keeps numbers only as doubles, so an "id" such as
 * 12345678901234567890 could not be echoed as written. One flat pass here
 * bounds the nesting (PROTO_JSON_DEPTH_MAX: a line nested 100,000 deep is
 * refused after reading up to depth 9, with no recursion), refuses
 * "\u0000", and notes where the top-level "id" and "value" values are in
 * the raw text.
 * Used for requests (server) and replies (client). It checks no grammar:
 * that is cJSON's job, right after.
 */
#include <errno.h>
#include <string.h>

#include "proto_priv.h"

enum proto_json_state {
	PROTO_JSON_KEY,		/* top level: before or in a key */
	PROTO_JSON_COLON,	/* top level: after a key */
	PROTO_JSON_VALUE,	/* top level: after the colon */
};

/* The top-level keys whose raw value text the scan records. */
enum proto_json_key { PROTO_JSON_KEY_OTHER, PROTO_JSON_KEY_ID, PROTO_JSON_KEY_VALUE };

struct proto_json_walk {
	enum proto_json_state st;
	enum proto_json_key key;
	bool val_started;
	size_t val_start;
	bool in_str;		/* inside a string (key or value, any depth) */
	bool top_obj;		/* the line is an object: its members are tracked */
	size_t key_start;
	int depth;
};

static void proto_json_value_start(struct proto_json_walk *w, size_t i)
{
	if (w->st == PROTO_JSON_VALUE && !w->val_started) {
		w->val_started = true;
		w->val_start = i;
	}
}

/* A top-level value ends at byte @end (a ',' or the closing '}'). */
static void proto_json_value_end(struct proto_json_walk *w, const char *s, size_t end,
				 struct proto_json_scan *out)
{
	if (w->st != PROTO_JSON_VALUE || !w->val_started || w->key == PROTO_JSON_KEY_OTHER)
		goto out_reset;
	while (end > w->val_start && (s[end - 1] == ' ' || s[end - 1] == '\t' ||
				      s[end - 1] == '\r' || s[end - 1] == '\n'))
		end--;
	if (w->key == PROTO_JSON_KEY_ID && !out->has_id) {
		out->has_id = true;
		out->id_off = w->val_start;
		out->id_len = end - w->val_start;
		out->id_scalar = s[w->val_start] != '{' && s[w->val_start] != '[';
	} else if (w->key == PROTO_JSON_KEY_VALUE && !out->has_value) {
		out->has_value = true;
		out->value_off = w->val_start;
		out->value_len = end - w->val_start;
	}
out_reset:
	w->key = PROTO_JSON_KEY_OTHER;
	w->val_started = false;
}

/*
 * Byte *@i of a string: an escape skips the byte after it, a quote ends the
 * string (and names a top-level key). Return: 0, or -EINVAL for "\u0000".
 */
static int proto_json_string_byte(struct proto_json_walk *w, const char *s, size_t len,
				  size_t *i, char *err, size_t errlen)
{
	if (s[*i] == '\\') {
		if (*i + 5 < len && s[*i + 1] == 'u' && !memcmp(s + *i + 2, "0000", 4)) {
			proto_msg(err, errlen, "\\u0000 in a JSON string at offset %zu", *i);
			return -EINVAL;
		}
		(*i)++;	/* the escaped byte cannot end the string */
		return 0;
	}
	if (s[*i] != '"')
		return 0;
	w->in_str = false;
	if (w->top_obj && w->depth == 1 && w->st == PROTO_JSON_KEY) {
		if (*i - w->key_start == 2 && !memcmp(s + w->key_start, "id", 2))
			w->key = PROTO_JSON_KEY_ID;
		else if (*i - w->key_start == 5 && !memcmp(s + w->key_start, "value", 5))
			w->key = PROTO_JSON_KEY_VALUE;
		else
			w->key = PROTO_JSON_KEY_OTHER;
		w->st = PROTO_JSON_COLON;
	}
	return 0;
}

int proto_json_scan(const char *s, size_t len, int max_depth, struct proto_json_scan *out,
		    char *err, size_t errlen)
{
	struct proto_json_walk w = { .st = PROTO_JSON_KEY };
	size_t i;
	char c;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < len; i++) {
		c = s[i];
		if (w.in_str) {
			if (proto_json_string_byte(&w, s, len, &i, err, errlen))
				return -EINVAL;
			continue;
		}
		switch (c) {
		case '"':
			w.in_str = true;
			if (w.top_obj && w.depth == 1) {
				if (w.st == PROTO_JSON_KEY)
					w.key_start = i + 1;
				else
					proto_json_value_start(&w, i);
			}
			break;
		case '{':
		case '[':
			if (w.top_obj && w.depth == 1)
				proto_json_value_start(&w, i);
			if (++w.depth > max_depth) {
				proto_msg(err, errlen, "JSON nested deeper than %d levels",
					  max_depth);
				return -EINVAL;
			}
			if (w.depth == 1 && i == 0)
				w.top_obj = c == '{';
			break;
		case '}':
		case ']':
			if (w.top_obj && w.depth == 1)
				proto_json_value_end(&w, s, i, out);
			if (w.depth > 0)
				w.depth--;
			break;
		case ',':
			if (w.top_obj && w.depth == 1) {
				proto_json_value_end(&w, s, i, out);
				w.st = PROTO_JSON_KEY;
			}
			break;
		case ':':
			if (w.top_obj && w.depth == 1 && w.st == PROTO_JSON_COLON) {
				w.st = PROTO_JSON_VALUE;
				w.val_started = false;
			}
			break;
		case ' ':
		case '\t':
		case '\r':
		case '\n':
			break;
		default:
			if (w.top_obj && w.depth == 1)
				proto_json_value_start(&w, i);
			break;
		}
	}
	return 0;
}
