// SPDX-License-Identifier: GPL-2.0
/* The hash table of indices and FNV-1a: see htab.h. */
#include <errno.h>
#include <stdlib.h>

#include "util/htab.h"

#define DW_HTAB_FIRST	1024	/* slots of a first table; it doubles from there */

/**
 * dw_hash_bytes() - FNV-1a over @len bytes, chained from @h
 * @buf:	the bytes
 * @len:	how many
 * @h:		DW_HASH_INIT, or the hash of what came before
 *
 * Context: any.
 * Return: the hash.
 */
uint64_t dw_hash_bytes(const void *buf, size_t len, uint64_t h)
{
	const unsigned char *b = buf;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

/* dw_hash_ptr() - dw_hash_bytes() over the pointer @p itself (not what it points to). */
uint64_t dw_hash_ptr(const void *p, uint64_t h)
{
	uintptr_t v = (uintptr_t)p;

	return dw_hash_bytes(&v, sizeof(v), h);
}

/**
 * dw_htab_find() - the index of @key
 * @h:		table
 * @hash:	@key's hash
 * @eq:		compares an index of @ctx's keys with @key
 * @ctx:	passed to @eq
 * @key:	passed to @eq
 *
 * Context: user space.
 * Return: the index, or -ENOENT if @key is not in the table.
 */
long dw_htab_find(const struct dw_htab *h, uint64_t hash, dw_htab_eq eq, const void *ctx,
		  const void *key)
{
	size_t i;

	if (!h->cap)
		return -ENOENT;
	for (i = hash & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		if (!h->slot[i].id1)
			return -ENOENT;
		if (h->slot[i].hash == hash && eq(ctx, h->slot[i].id1 - 1, key))
			return h->slot[i].id1 - 1;
	}
}

/* Double @h (or make its first slots); 0 or -ENOMEM with @h as it was. */
static int htab_grow(struct dw_htab *h)
{
	size_t ncap = h->cap ? h->cap * 2 : DW_HTAB_FIRST, i, j;
	struct dw_htab_slot *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (j = 0; j < h->cap; j++) {
		if (!h->slot[j].id1)
			continue;
		for (i = h->slot[j].hash & (ncap - 1); ns[i].id1; i = (i + 1) & (ncap - 1))
			;
		ns[i] = h->slot[j];
	}
	free(h->slot);
	h->slot = ns;
	h->cap = ncap;
	return 0;
}

/**
 * dw_htab_insert() - add index @id with @hash
 * @h:		table; grows to stay at most half full
 * @hash:	the hash of the key at @id
 * @id:		an index not in the table yet
 *
 * Context: user space.
 * Return: 0, or -ENOMEM with @h as it was.
 */
int dw_htab_insert(struct dw_htab *h, uint64_t hash, uint32_t id)
{
	size_t i;

	if ((h->n + 1) * 2 > h->cap && htab_grow(h))
		return -ENOMEM;
	for (i = hash & (h->cap - 1); h->slot[i].id1; i = (i + 1) & (h->cap - 1))
		;
	h->slot[i].hash = hash;
	h->slot[i].id1 = id + 1;
	h->n++;
	return 0;
}

/* dw_htab_free() - free @h's slots; it is then empty. */
void dw_htab_free(struct dw_htab *h)
{
	free(h->slot);
	h->slot = NULL;
	h->cap = h->n = 0;
}
