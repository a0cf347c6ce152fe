// SPDX-License-Identifier: GPL-2.0
/* The answers of dw_dso_resolve() kept by address: see resolved.h. */
#include <stdlib.h>
#include <string.h>

#include "symbols/resolved.h"
#include "util/array.h"

struct dw_resolved_ent {
	uint64_t vaddr;
	unsigned int flags;
	unsigned int nr_frames;
	size_t first_frame;		/* index into dw_resolved.frames */
	const char *name;
	uint64_t off, start, size;
	int fde;
};

struct resolved_key {
	uint64_t vaddr;
	unsigned int flags;
};

static uint64_t key_hash(const struct resolved_key *k)
{
	return dw_hash_bytes(&k->flags, sizeof(k->flags),
			     dw_hash_bytes(&k->vaddr, sizeof(k->vaddr), DW_HASH_INIT));
}

static int key_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_resolved *m = ctx;
	const struct resolved_key *k = key;

	return m->ents[id].vaddr == k->vaddr && m->ents[id].flags == k->flags;
}

/**
 * dw_resolved_find() - the kept answer for @vaddr asked with @flags
 * @m:		the file's memo
 * @vaddr:	link-time address, as given to dw_dso_resolve()
 * @flags:	as given to dw_dso_resolve()
 * @res:	filled as dw_dso_resolve() filled it, if kept
 *
 * Context: user space.
 * Return: 1 if kept (then @res is the answer), 0 if not.
 */
int dw_resolved_find(const struct dw_resolved *m, uint64_t vaddr, unsigned int flags,
		     struct dw_symres *res)
{
	const struct resolved_key k = { .vaddr = vaddr, .flags = flags };
	const struct dw_resolved_ent *e;
	long id = dw_htab_find(&m->ht, key_hash(&k), key_eq, m, &k);

	if (id < 0)
		return 0;
	e = &m->ents[id];
	memset(res, 0, sizeof(*res));
	res->name = e->name;
	res->off = e->off;
	res->start = e->start;
	res->size = e->size;
	res->fde = e->fde;
	res->nr_frames = e->nr_frames;
	if (e->nr_frames)
		memcpy(res->frames, m->frames + e->first_frame,
		       e->nr_frames * sizeof(res->frames[0]));
	return 1;
}

/**
 * dw_resolved_add() - keep dw_dso_resolve()'s answer for @vaddr and @flags
 * @m:		the file's memo
 * @vaddr:	link-time address
 * @flags:	the flags it was asked with
 * @res:	the answer (its strings the file's)
 *
 * Not kept past DW_RESOLVED_MAX answers, or without memory: the memo only
 * saves time, and an answer not kept is found again.
 *
 * Context: user space.
 */
void dw_resolved_add(struct dw_resolved *m, uint64_t vaddr, unsigned int flags,
		     const struct dw_symres *res)
{
	const struct resolved_key k = { .vaddr = vaddr, .flags = flags };
	unsigned int nr = res->nr_frames < DW_DSO_MAX_INLINE ? res->nr_frames : DW_DSO_MAX_INLINE;
	struct dw_resolved_ent *e;

	if (m->nr >= DW_RESOLVED_MAX ||
	    DW_ARRAY_RESERVE(m->ents, m->cap, m->nr + 1, 256) ||
	    DW_ARRAY_RESERVE(m->frames, m->cap_frames, m->nr_frames + nr, 256) ||
	    dw_htab_insert(&m->ht, key_hash(&k), (uint32_t)m->nr))
		return;
	e = &m->ents[m->nr++];
	e->vaddr = vaddr;
	e->flags = flags;
	e->nr_frames = nr;
	e->first_frame = m->nr_frames;
	e->name = res->name;
	e->off = res->off;
	e->start = res->start;
	e->size = res->size;
	e->fde = res->fde;
	if (nr)
		memcpy(m->frames + m->nr_frames, res->frames, nr * sizeof(res->frames[0]));
	m->nr_frames += nr;
}

/**
 * dw_resolved_free() - forget every kept answer
 * @m:		the memo (empty again, ready for use)
 *
 * Context: user space.
 */
void dw_resolved_free(struct dw_resolved *m)
{
	free(m->ents);
	free(m->frames);
	dw_htab_free(&m->ht);
	memset(m, 0, sizeof(*m));
}
