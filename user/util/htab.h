/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One hash table, once: open addressing over indices.  The keys live in
 * the caller's own arrays; the table holds each key's hash and index, and
 * asks the caller's @eq whether the index at a slot holds the key.
 *
 *	long id = dw_htab_find(&t->ht, h, name_eq, t, name);
 *	if (id < 0) {
 *		id = t->nr++;	(append the key to the array first)
 *		if (dw_htab_insert(&t->ht, h, id))
 *			return -ENOMEM;
 *	}
 *
 * Hashes are FNV-1a, 64-bit: chain them from DW_HASH_INIT.
 */
#ifndef DW_UTIL_HTAB_H
#define DW_UTIL_HTAB_H

#include <stddef.h>
#include <stdint.h>

#define DW_HASH_INIT	0xcbf29ce484222325ULL

struct dw_htab_slot {
	uint64_t hash;
	uint32_t id1;			/* index + 1; 0: free */
};

struct dw_htab {
	struct dw_htab_slot *slot;
	size_t cap, n;
};

/* Does index @id of @ctx's keys hold @key? */
typedef int (*dw_htab_eq)(const void *ctx, uint32_t id, const void *key);

long dw_htab_find(const struct dw_htab *h, uint64_t hash, dw_htab_eq eq, const void *ctx,
		  const void *key);
int dw_htab_insert(struct dw_htab *h, uint64_t hash, uint32_t id);
void dw_htab_free(struct dw_htab *h);

uint64_t dw_hash_bytes(const void *buf, size_t len, uint64_t h);
uint64_t dw_hash_ptr(const void *p, uint64_t h);

#endif
