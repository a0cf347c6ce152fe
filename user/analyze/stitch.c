// SPDX-License-Identifier: GPL-2.0
/*
 * Stitching: join each SAMPLE with the USER_STACK of the same cookie.
 * A SAMPLE_STACK is both, and answers later SAMPLEs of its cookie too.
 *
 * The two arrive in either order (a sample taken in user mode may be
 * written after the walk it triggered when CPUs race; usually the stack
 * comes later), so every record is kept until dw_stitch_finish().  Stacks
 * go into an array found through a hash table (util/htab.h) keyed by cookie;
 * samples into an array kept in arrival order.  Each record is copied once into an arena.
 * Total work is O(records).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "analyze/stitch.h"
#include "capture/dispatch.h"
#include "util/array.h"
#include "util/htab.h"

#define ARENA_CHUNK	(1U << 20)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	_Alignas(8) unsigned char mem[];
};

struct stack_slot {
	__u64 cookie;
	const struct dunwind_rec_user_stack *u;
	unsigned long refs;		/* samples joined with it */
};

struct dw_stitch {
	struct arena_chunk *chunks;
	const struct dunwind_rec_sample **samples;
	size_t nr_samples, cap_samples;
	struct stack_slot *stacks;
	size_t nr_stacks, cap_stacks;
	struct dw_htab stack_ht;	/* cookie -> index in stacks */
	struct dw_stitch_counts counts;
};

static void *arena_copy(struct dw_stitch *st, const void *src, size_t len)
{
	struct arena_chunk *c = st->chunks;
	void *dst;

	len = (len + 7) & ~(size_t)7;
	if (!c || c->cap - c->used < len) {
		size_t cap = len > ARENA_CHUNK ? len : ARENA_CHUNK;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = st->chunks;
		c->used = 0;
		c->cap = cap;
		st->chunks = c;
	}
	dst = c->mem + c->used;
	c->used += len;
	memcpy(dst, src, len);
	return dst;
}

static uint64_t cookie_hash(__u64 c)
{
	return dw_hash_bytes(&c, sizeof(c), DW_HASH_INIT);
}

static int cookie_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_stitch *st = ctx;

	return st->stacks[id].cookie == *(const __u64 *)key;
}

/* The stack with @cookie, or NULL. */
static struct stack_slot *stack_find(struct dw_stitch *st, __u64 cookie)
{
	long id = dw_htab_find(&st->stack_ht, cookie_hash(cookie), cookie_eq, st, &cookie);

	return id < 0 ? NULL : &st->stacks[id];
}

/**
 * dw_stitch_new() - an empty stitcher
 *
 * Context: user space.
 * Return: the stitcher, or NULL (errno ENOMEM).
 */
struct dw_stitch *dw_stitch_new(void)
{
	return calloc(1, sizeof(struct dw_stitch));
}

static int add_sample(const struct dunwind_rec_sample *rec, void *arg)
{
	struct dw_stitch *st = arg;
	const struct dunwind_rec_sample *s;

	if (DW_ARRAY_RESERVE(st->samples, st->cap_samples, st->nr_samples + 1, 4096))
		return -ENOMEM;
	s = arena_copy(st, rec, rec->hdr.size);
	if (!s)
		return -ENOMEM;
	st->samples[st->nr_samples++] = s;
	st->counts.samples++;
	return 0;
}

static int add_stack(const struct dunwind_rec_user_stack *u, void *arg)
{
	struct dw_stitch *st = arg;
	struct stack_slot *slot;

	st->counts.user_stacks++;
	if (u->cookie == 0) {
		/* No sample can refer to cookie 0. */
		st->counts.orphan_stacks++;
		return 0;
	}
	if (stack_find(st, u->cookie)) {
		st->counts.dup_stacks++;	/* keep the first */
		return 0;
	}
	if (DW_ARRAY_RESERVE(st->stacks, st->cap_stacks, st->nr_stacks + 1, 1024))
		return -ENOMEM;
	slot = &st->stacks[st->nr_stacks];
	slot->u = arena_copy(st, u, u->hdr.size);
	if (!slot->u ||
	    dw_htab_insert(&st->stack_ht, cookie_hash(u->cookie), (uint32_t)st->nr_stacks))
		return -ENOMEM;
	slot->cookie = u->cookie;
	slot->refs = 0;
	st->nr_stacks++;
	return 0;
}

/*
 * A SAMPLE_STACK: its sample and its stack, taken in as the SAMPLE and
 * USER_STACK it stands for (the stack's time is the sample's).
 */
static int add_sample_stack(const struct dunwind_rec_sample_stack *ss, void *arg)
{
	struct {
		struct dunwind_rec_user_stack u;
		__u64 ips[DUNWIND_MAX_USER_FRAMES];
	} stack = {};
	struct dunwind_rec_sample s = {};
	int err;

	s.hdr.type = DUNWIND_REC_SAMPLE;
	s.hdr.size = (__u16)dunwind_rec_sample_size(0);
	s.cookie = ss->cookie;
	s.time = ss->time;
	s.pid = ss->pid;
	s.tid = ss->tid;
	s.cpu = ss->cpu;
	s.flags = ss->flags;
	s.period = ss->period;
	if (dunwind_ipcode_decode(ss->ips, ss->hdr.size - sizeof(*ss), stack.ips, ss->nr) < 0)
		return -EINVAL;
	s.user_ip = ss->nr ? stack.ips[0] : 0;
	stack.u.hdr.type = DUNWIND_REC_USER_STACK;
	stack.u.hdr.size = (__u16)dunwind_rec_user_stack_size(ss->nr);
	stack.u.cookie = ss->cookie;
	stack.u.time = ss->time;
	stack.u.pid = ss->pid;
	stack.u.tid = ss->tid;
	stack.u.nr = ss->nr;
	stack.u.methods = ss->methods;
	stack.u.stop = ss->stop;
	stack.u.nr_fp = ss->nr_fp;
	stack.u.nr_sframe = ss->nr_sframe;
	err = add_sample(&s, arg);
	return err ? err : add_stack(&stack.u, arg);
}

static int add_lost(const struct dunwind_rec_lost *l, void *arg)
{
	struct dw_stitch *st = arg;
	int i;

	for (i = 0; i < DUNWIND_REC_MAX; i++)
		st->counts.lost[i] += l->lost[i];
	return 0;
}

/*
 * What the stitcher takes (@arg: the struct dw_stitch): SAMPLE and
 * USER_STACK records are kept, and a SAMPLE_STACK as the two it stands
 * for; LOST records are added to the lost counts; other types are ignored.
 */
const struct dw_rec_ops dw_stitch_ops = {
	.sample = add_sample,
	.user_stack = add_stack,
	.sample_stack = add_sample_stack,
	.lost = add_lost,
	.unknown = dw_rec_skip,
};

/**
 * dw_stitch_add() - take in one record
 * @st:		stitcher
 * @rec:	a record; copied if kept (dw_stitch_ops says which)
 *
 * Context: user space.
 * Return: 0; -EINVAL if @rec is malformed; -ENOMEM.
 */
int dw_stitch_add(struct dw_stitch *st, const struct dunwind_rec_header *rec)
{
	int err = dw_rec_dispatch(&dw_stitch_ops, rec, rec->size, st);

	return err == -EBADMSG ? -EINVAL : err;
}

/**
 * dw_stitch_finish() - report every sample with its user stack
 * @st:		stitcher; may be finished again (the counts are recomputed)
 * @fn:		called once per sample in arrival order, with its user stack
 *		or NULL (cookie 0, or the stack never came); may be NULL
 * @arg:	passed to @fn
 * @counts:	filled if not NULL
 *
 * Context: user space.
 * Return: 0.
 */
int dw_stitch_finish(struct dw_stitch *st, dw_stitched_fn fn, void *arg,
		     struct dw_stitch_counts *counts)
{
	struct dw_stitch_counts *c = &st->counts;
	size_t i;

	c->joined = c->no_user = c->missing = 0;
	for (i = 0; i < st->nr_stacks; i++)
		st->stacks[i].refs = 0;
	for (i = 0; i < st->nr_samples; i++) {
		const struct dunwind_rec_sample *s = st->samples[i];
		const struct dunwind_rec_user_stack *u = NULL;

		if (s->cookie == 0) {
			c->no_user++;
		} else {
			struct stack_slot *slot = stack_find(st, s->cookie);

			if (slot) {
				slot->refs++;
				u = slot->u;
				c->joined++;
			} else {
				c->missing++;
			}
		}
		if (fn)
			fn(s, u, arg);
	}
	/* Stacks with cookie 0 were counted as orphans when they came. */
	c->orphan_stacks = c->user_stacks - c->dup_stacks - st->nr_stacks;
	for (i = 0; i < st->nr_stacks; i++)
		if (!st->stacks[i].refs)
			c->orphan_stacks++;
	if (counts)
		*counts = *c;
	return 0;
}

/**
 * dw_stitch_free() - free the stitcher and every record it copied
 * @st:		stitcher or NULL
 *
 * Context: user space.
 */
void dw_stitch_free(struct dw_stitch *st)
{
	struct arena_chunk *c, *next;

	if (!st)
		return;
	for (c = st->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(st->samples);
	free(st->stacks);
	dw_htab_free(&st->stack_ht);
	free(st);
}
