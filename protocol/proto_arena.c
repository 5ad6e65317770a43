/*
 * proto_arena.c - the string arena behind a decoded reply.
 *
 * A decoded reply (proto_reply_decode.c) holds many small strings: names,
 * values, attribute lists. They live in chunks of one arena and go away
 * together in proto_reply_fini(), so the client never frees them one by
 * one. Client side of the wire only; no I/O, no shared state.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto_priv.h"

/* Chunk size: a typical listing fits in one or two. */
#define PROTO_ARENA_CHUNK_BYTES	4096

struct proto_arena_chunk {
	struct proto_arena_chunk *next;
	size_t size;
	size_t used;
	_Alignas(max_align_t) char data[];
};

struct proto_arena {
	struct proto_arena_chunk *head;
};

struct proto_arena *proto_arena_create(void)
{
	return calloc(1, sizeof(struct proto_arena));
}

void proto_arena_destroy(struct proto_arena *a)
{
	struct proto_arena_chunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void *proto_arena_alloc(struct proto_arena *a, size_t size)
{
	struct proto_arena_chunk *c = a->head;
	size_t off, csize;
	void *p;

	off = c ? (c->used + sizeof(void *) - 1) & ~(sizeof(void *) - 1) : 0;
	if (!c || size > c->size || off > c->size - size) {
		if (size > SIZE_MAX - sizeof(*c) - PROTO_ARENA_CHUNK_BYTES)
			return NULL;
		csize = size > PROTO_ARENA_CHUNK_BYTES ? size : PROTO_ARENA_CHUNK_BYTES;
		c = malloc(sizeof(*c) + csize);
		if (!c)
			return NULL;
		c->size = csize;
		c->used = 0;
		c->next = a->head;
		a->head = c;
		off = 0;
	}
	p = c->data + off;
	c->used = off + size;
	memset(p, 0, size);
	return p;
}

char *proto_arena_strndup(struct proto_arena *a, const char *s, size_t len)
{
	char *p;

	if (len == SIZE_MAX)
		return NULL;
	p = proto_arena_alloc(a, len + 1);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
