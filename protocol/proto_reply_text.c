/*
 * proto_reply_text.c - the item lines of text listings back into structs.
 *
 * A text listing is "OK <count>" (decoded by proto_reply_decode()) and then
 * <count> item lines, each fed to proto_reply_decode_more(). The client
 * library speaks JSON and never reads these, so this file is not in
 * libiiowire: it is the iiowire_proto_text library, linked by the tests and
 * the fuzzer that check the text spelling round-trips. One row per listing
 * op says how many fields a line needs and which function stores it.
 * Decoded strings live in the reply's arena, as in proto_reply_decode.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto_priv.h"

/* Most fields a text listing line has (CHANNELS); extra ones are ignored. */
#define PROTO_TEXT_FIELDS_MAX	8

/* DEVICE's "key value" lines: which member of struct proto_device_info each key fills. */
static const struct proto_reply_text_key {
	const char *key;
	bool is_int;		/* an int member, else a const char * one */
	size_t off;
} proto_reply_text_device_keys[] = {
	{ "id", false, offsetof(struct proto_device_info, id) },
	{ "name", false, offsetof(struct proto_device_info, name) },
	{ "label", false, offsetof(struct proto_device_info, label) },
	{ "hwid", false, offsetof(struct proto_device_info, hwid) },
	{ "channels", true, offsetof(struct proto_device_info, num_channels) },
	{ "attrs", true, offsetof(struct proto_device_info, num_attrs) },
};

/* One "key value" line of DEVICE into r->devices[0]. Return: 0 or -EPROTO. */
static int proto_reply_text_device_kv(struct proto_reply *r, char *line)
{
	char *d = (char *)&r->devices[0];
	char *sp = strchr(line, ' ');
	const char *value = sp ? sp + 1 : "";
	const struct proto_reply_text_key *k;

	if (sp)
		*sp = '\0';
	for (k = proto_reply_text_device_keys; k < proto_reply_text_device_keys +
	     sizeof(proto_reply_text_device_keys) / sizeof(*k); k++) {
		if (strcmp(line, k->key))
			continue;
		if (k->is_int)
			return proto_reply_int(value, (int *)(void *)(d + k->off));
		*(const char **)(void *)(d + k->off) = value;
		return 0;
	}
	return 0;	/* a key from a later minor version */
}

static int proto_reply_text_attrs_list(struct proto_reply *r, struct proto_channel_info *ch,
				       char *list)
{
	const char **arr;
	char *p;
	int n = 1, k;

	if (!strcmp(list, "-"))
		return 0;
	for (p = list; *p; p++)
		n += *p == ',';
	arr = proto_arena_alloc(r->arena, (size_t)n * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	for (k = 0, p = list; k < n; k++) {
		arr[k] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
	}
	ch->attrs = arr;
	ch->nattrs = n;
	return 0;
}

/*
 * The per-op stores. Each gets the line's fields (for HELP and DEVICE, the
 * whole line as f[0]) and adds its item. Return: 0, -ENOMEM or -EPROTO.
 */
static int proto_reply_text_help(struct proto_reply *r, char **f, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	if (PROTO_REPLY_GROW(r, lines))
		return -ENOMEM;
	r->lines[r->nitems++] = f[0];
	return 0;
}

static int proto_reply_text_device(struct proto_reply *r, char **f, char *err, size_t errlen)
{
	if (proto_reply_text_device_kv(r, f[0]))
		return proto_reply_bad(err, errlen, "DEVICE count");
	return 0;
}

static int proto_reply_text_devices(struct proto_reply *r, char **f, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	if (PROTO_REPLY_GROW(r, devices))
		return -ENOMEM;
	r->devices[r->nitems++] = (struct proto_device_info){
		.id = f[0], .name = f[1], .label = proto_reply_opt(f[3]),
		.hwid = proto_reply_opt(f[2]), .num_channels = -1, .num_attrs = -1 };
	return 0;
}

static int proto_reply_text_attrs(struct proto_reply *r, char **f, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	if (PROTO_REPLY_GROW(r, attrs))
		return -ENOMEM;
	r->attrs[r->nitems].name = f[0];
	r->attrs[r->nitems++].mode = (strchr(f[1], 'r') ? PROTO_ATTR_R : 0) |
				     (strchr(f[1], 'w') ? PROTO_ATTR_W : 0);
	return 0;
}

static int proto_reply_text_channels(struct proto_reply *r, char **f, char *err, size_t errlen)
{
	struct proto_channel_info *ch;
	int ret;

	if (PROTO_REPLY_GROW(r, channels))
		return -ENOMEM;
	ch = &r->channels[r->nitems];
	ch->type = f[0];
	ch->index = -1;
	if (proto_reply_opt(f[1]) && proto_reply_int(f[1], &ch->index))
		return proto_reply_bad(err, errlen, "channel index");
	ch->modifier = proto_reply_opt(f[2]);
	ch->datasheet_name = proto_reply_opt(f[3]);
	ch->output = !strcmp(f[4], "out");
	ch->differential = proto_reply_opt(f[5]) != NULL;
	if (ch->differential && proto_reply_int(f[5], &ch->index2))
		return proto_reply_bad(err, errlen, "channel index2");
	ret = proto_reply_text_attrs_list(r, ch, f[6]);
	if (!ret)
		r->nitems++;
	return ret;
}

static int proto_reply_text_maps(struct proto_reply *r, char **f, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	if (PROTO_REPLY_GROW(r, maps))
		return -ENOMEM;
	r->maps[r->nitems++] = (struct proto_map_info){
		f[0], proto_reply_opt(f[1]), proto_reply_opt(f[2]),
		proto_reply_opt(f[3]), proto_reply_opt(f[4]) };
	return 0;
}

static int proto_reply_text_consumer(struct proto_reply *r, char **f, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	if (PROTO_REPLY_GROW(r, consumer))
		return -ENOMEM;
	r->consumer[r->nitems++] = (struct proto_consumer_info){
		proto_reply_opt(f[0]), proto_reply_opt(f[1]),
		proto_reply_opt(f[2]), proto_reply_opt(f[3]) };
	return 0;
}

static int proto_reply_text_stats(struct proto_reply *r, char **f, char *err, size_t errlen)
{
	char *end;

	if (PROTO_REPLY_GROW(r, stats))
		return -ENOMEM;
	errno = 0;
	r->stats[r->nitems].name = f[0];
	r->stats[r->nitems].value = strtoll(f[1], &end, 10);
	if (errno || *end || end == f[1])
		return proto_reply_bad(err, errlen, "STATS value");
	r->nitems++;
	return 0;
}

/**
 * struct proto_reply_text_row - how one listing op's item lines are read.
 * @nfields: fields a line needs; 0 takes the whole line, unsplit.
 * @short_line: the complaint for a line with fewer fields.
 * @store: adds the item.
 */
struct proto_reply_text_row {
	int nfields;
	const char *short_line;
	int (*store)(struct proto_reply *r, char **f, char *err, size_t errlen);
};

static const struct proto_reply_text_row proto_reply_text_rows[PROTO_OP_COUNT] = {
	[PROTO_OP_HELP] = { .store = proto_reply_text_help },
	[PROTO_OP_DEVICE] = { .store = proto_reply_text_device },
	[PROTO_OP_DEVICES] = { 4, "DEVICES line needs 4 fields", proto_reply_text_devices },
	[PROTO_OP_ATTRS] = { 2, "ATTRS line needs 2 fields", proto_reply_text_attrs },
	[PROTO_OP_CHANNELS] = { 7, "CHANNELS line needs 7 fields", proto_reply_text_channels },
	[PROTO_OP_MAPS] = { 5, "MAPS line needs 5 fields", proto_reply_text_maps },
	[PROTO_OP_CONSUMER] = { 4, "CONSUMER line needs 4 fields", proto_reply_text_consumer },
	[PROTO_OP_STATS] = { 2, "STATS line needs 2 fields", proto_reply_text_stats },
};

/* One item line (an arena copy, cut in place) of the listing @r awaits. */
static int proto_reply_text_item(struct proto_reply *r, char *line, char *err, size_t errlen)
{
	const struct proto_reply_text_row *row = NULL;
	char *f[PROTO_TEXT_FIELDS_MAX] = { line };

	if ((int)r->op > PROTO_OP_NONE && r->op < PROTO_OP_COUNT)
		row = &proto_reply_text_rows[r->op];
	if (!row || !row->store)
		return proto_reply_bad(err, errlen, "no listing for this request");
	if (row->nfields &&
	    proto_reply_split(line, f, PROTO_TEXT_FIELDS_MAX) < row->nfields)
		return proto_reply_bad(err, errlen, row->short_line);
	return row->store(r, f, err, errlen);
}

int proto_reply_decode_more(struct proto_reply *r, const char *line, size_t len,
			    char *err, size_t errlen)
{
	char *copy;
	int ret;

	if (r->pending <= 0 || !r->arena)
		return proto_reply_bad(err, errlen, "no listing line expected");
	if (proto_line_check(line, len, err, errlen))
		return -EPROTO;
	copy = proto_reply_dup(r, line, len);
	if (!copy)
		return -ENOMEM;
	ret = proto_reply_text_item(r, copy, err, errlen);
	if (ret)
		return ret;
	return --r->pending;
}
