/*
 * alloc.c - libiiowire's one-allocation listings and iiowire_free().
 *
 * Place in the flow: the API files (device.c, consumer.c) build the arrays
 * they hand to programs here: one malloc() holds the array of structs and,
 * after it, every string the structs point to, so a program frees a whole
 * listing with one iiowire_free(). This file only packs memory: it must not
 * know what the structs mean and never talks to the socket.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "iiowire_priv.h"

/**
 * iiowire_pack_init() - reserve one block for @array_bytes of structs and
 * @string_bytes of strings (their lengths plus NULs, counted by the caller).
 * The array part is zeroed. Pair: iiowire_pack_finish() hands the block
 * over, iiowire_pack_fini() frees it if it was not handed over.
 * Return: 0, or -ENOMEM.
 */
int iiowire_pack_init(struct iiowire_pack *p, size_t array_bytes, size_t string_bytes)
{
	/* strings start aligned so the array part may hold any type */
	size_t head = (array_bytes + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);

	p->size = head + string_bytes + 1;
	p->base = calloc(1, p->size);
	if (!p->base)
		return -ENOMEM;
	p->used = head;
	return 0;
}

/**
 * iiowire_pack_str() - copy @s into the block; NULL stays NULL.
 * Return: the copy inside the block; "" if the caller undercounted (never
 * overflows).
 */
const char *iiowire_pack_str(struct iiowire_pack *p, const char *s)
{
	size_t n;
	char *dst;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	if (p->used + n > p->size)
		return p->base + p->size - 1;	/* the block's last byte is always NUL */
	dst = p->base + p->used;
	memcpy(dst, s, n);
	p->used += n;
	return dst;
}

/** iiowire_pack_len() - bytes a string takes in a block: length and NUL, 0 for NULL. */
size_t iiowire_pack_len(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

/** iiowire_pack_finish() - hand the block over. Return: owned: free with iiowire_free(). */
void *iiowire_pack_finish(struct iiowire_pack *p)
{
	void *base = p->base;

	p->base = NULL;
	return base;
}

/** iiowire_pack_fini() - free a block that was not handed over; idempotent. */
void iiowire_pack_fini(struct iiowire_pack *p)
{
	free(p->base);
	p->base = NULL;
}

/**
 * iiowire_free() - free an owned listing or string from the library.
 * @p: NULL, or a pointer the library documented as "free with iiowire_free()".
 */
IIOWIRE_EXPORT void iiowire_free(void *p)
{
	free(p);
}
