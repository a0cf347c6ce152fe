// SPDX-License-Identifier: GPL-2.0
/*
 * The SFrame rule for a PC (kmod/sframe.c found the table of its
 * mapping): read from the table, turned into the rule the walk follows,
 * and cached per session by PC (2-way set-associative, each rule tagged
 * with the epoch of the mapping build it came from).
 *
 * Context: task_work of the walked thread (may sleep and fault), but for
 * dunwind_sframe_rule_cached(), which does neither.
 */
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include "dunwind.h"
#include "sframe.h"
#include "../lib/arch.h"

/*
 * Reads of tables in the process's memory one walk may make: a lookup
 * costs about 2 log2(FDEs) + 2 FREs-before-the-PC reads, so a deep walk
 * of real code needs a few thousand; a table shaped to make each lookup
 * scan thousands of FREs stops being used for the rest of the walk (frame
 * pointers take over).
 */
#define DUNWIND_SFRAME_WALK_READS	8192

/* A lookup's reader: dunwind_uread() of a table, within the walk's budget. */
struct dunwind_sframe_budget {
	void *base;			/* the table's own src.ctx */
	struct dunwind_sframe_memo *memo;
};

static int dunwind_sframe_budget_read(void *ctx, u64 off, void *dst, u32 len)
{
	struct dunwind_sframe_budget *b = ctx;

	if (b->memo->reads >= DUNWIND_SFRAME_WALK_READS)
		return -E2BIG;
	b->memo->reads++;
	return dunwind_uread(b->base, off, dst, len);
}

/*
 * Where the caller's aux register (%rbx) is, by a row: known only from a DUNWIND_REG_RBX
 * table (dunwind_sframe_table.ext), which says so at every PC.
 */
static void dunwind_sframe_aux_rule(const struct dunwind_sframe_row *row, struct dunwind_urule *r)
{
	if (!(row->flags & DUNWIND_SFRAME_ROW_RBX) || (row->flags & DUNWIND_SFRAME_ROW_RBX_LOST))
		r->aux = DUNWIND_RULE_AUX_LOST;
	else if (row->rbx.kind == DUNWIND_SFRAME_RULE_UNDEF)
		r->aux = DUNWIND_RULE_AUX_KEPT;
	else if (row->rbx.kind == DUNWIND_SFRAME_RULE_CFA && row->rbx.deref)
		r->aux = DUNWIND_RULE_AUX_SAVED;
	else
		r->aux = DUNWIND_RULE_AUX_LOST;
	r->aux_off = row->rbx.off;
}

/*
 * Turn a decoded row into the rule the walk uses; -ENOENT for a signal
 * frame (the restorer check handles those), -ENODATA for a rule the walk
 * cannot follow.
 */
static int dunwind_sframe_to_rule(const struct dunwind_sframe_row *row, struct dunwind_urule *r)
{
	memset(r, 0, sizeof(*r));
	r->pc_lo = row->pc_lo;
	r->pc_hi = row->pc_hi;
	if (row->flags & DUNWIND_SFRAME_ROW_SIGNAL)
		return -ENOENT;		/* the restorer check handles those */
	if (row->flags & DUNWIND_SFRAME_ROW_RA_UNDEF) {
		r->outermost = 1;
		return 0;
	}
	if (row->cfa.kind != DUNWIND_SFRAME_RULE_REG || row->cfa.deref ||
	    (row->cfa.reg != DUNWIND_ARCH_SFRAME_REG_SP &&
	     row->cfa.reg != DUNWIND_ARCH_SFRAME_REG_FP &&
	     row->cfa.reg != DUNWIND_ARCH_SFRAME_REG_AUX))
		return -ENODATA;
	/* The RA in a slot of the frame, or (arm64) still in the link register. */
	if (row->ra.kind == DUNWIND_SFRAME_RULE_REG && !row->ra.deref && !row->ra.off &&
	    row->ra.reg == DUNWIND_ARCH_SFRAME_REG_AUX)
		r->ra_aux = 1;
	else if (row->ra.kind != DUNWIND_SFRAME_RULE_CFA || !row->ra.deref)
		return -ENODATA;
	r->cfa_fp = row->cfa.reg == DUNWIND_ARCH_SFRAME_REG_FP;
	r->cfa_aux = row->cfa.reg == DUNWIND_ARCH_SFRAME_REG_AUX;
	dunwind_sframe_aux_rule(row, r);
	r->cfa_off = row->cfa.off;
	r->ra_off = row->ra.off;
	if (row->fp.kind == DUNWIND_SFRAME_RULE_CFA && row->fp.deref) {
		r->fp_saved = 1;
		r->fp_off = row->fp.off;
	} else if (row->fp.kind != DUNWIND_SFRAME_RULE_UNDEF) {
		return -ENODATA;
	}
	return 0;
}

/*
 * The rule the memo keeps for @pc.  It came from one of the memo's
 * mappings, which still hold while the memo does (struct
 * dunwind_sframe_memo).  *@smap: the kind of table it came from.
 * Return: 0 with @memo->rule set to it; -ENODATA: the memo keeps that the
 * table has no usable rule for @pc (@memo->rule untouched); -ENOENT: the
 * memo keeps nothing for @pc.
 */
static int dunwind_sframe_memo_rule(struct dunwind_sframe_memo *memo, unsigned long pc, u8 *smap)
{
	const struct dunwind_urule *rule = dunwind_sframe_memo_kept(memo, pc);

	if (!rule)
		return -ENOENT;
	*smap = rule->smap;
	if (rule->nodata)
		return -ENODATA;
	memo->rule = *rule;
	return 0;
}

/* Keep @rule, found for @pc (its range cut to its mapping), in the memo. */
static void dunwind_sframe_memo_rule_put(struct dunwind_sframe_memo *memo, unsigned long pc,
					 const struct dunwind_urule *rule)
{
	struct dunwind_memo_rule *e;

	if (!memo->rules)
		return;
	e = dunwind_sframe_memo_set(memo, pc);
	/* The newest first: it takes an empty way, else the older one's. */
	if (e[0].gen == memo->rules_gen)
		e[1] = e[0];
	e[0].rule = *rule;
	e[0].rule.fast = dunwind_urule_fast(rule);
	e[0].gen = memo->rules_gen;
}

/*
 * The cached rule for @pc of the mapping built as @epoch, lockless: a
 * lookup that raced with a writer is made again.  The way to replace next
 * is only a hint, written without the lock.  Return: true on a hit.
 */
static bool dunwind_sframe_row_cached(struct dunwind_sframe_cache *c, u32 set_nr, u64 epoch,
				      unsigned long pc, struct dunwind_urule *rule)
{
	const struct dunwind_sframe_row_entry *set = &c->rows[set_nr * DUNWIND_SFRAME_WAYS];
	unsigned int seq;
	u32 w, hit;

	do {
		seq = read_seqcount_begin(&c->seq);
		for (hit = DUNWIND_SFRAME_WAYS, w = 0; w < DUNWIND_SFRAME_WAYS; w++) {
			if (set[w].epoch == epoch && pc >= set[w].rule.pc_lo &&
			    pc < set[w].rule.pc_hi) {
				*rule = set[w].rule;
				hit = w;
				break;
			}
		}
	} while (read_seqcount_retry(&c->seq, seq));
	if (hit == DUNWIND_SFRAME_WAYS)
		return false;
	WRITE_ONCE(c->victim[set_nr], (hit + 1) % DUNWIND_SFRAME_WAYS);
	return true;
}

/* Cut @rule, found in @m, to @m: a later frame of the walk may reuse it. */
static void dunwind_sframe_memo_keep(const struct dunwind_sframe_map *m, struct dunwind_urule *rule)
{
	rule->pc_lo = max_t(u64, rule->pc_lo, m->key.start);
	rule->pc_hi = min_t(u64, rule->pc_hi, m->key.end);
}

/* Keep in the memo that @pc of @m has no usable rule (@rule, marked nodata). */
static void dunwind_sframe_memo_nodata(struct dunwind_sframe_memo *memo,
				       const struct dunwind_sframe_map *m, unsigned long pc,
				       const struct dunwind_urule *rule)
{
	struct dunwind_urule cut = *rule;

	dunwind_sframe_memo_keep(m, &cut);
	dunwind_sframe_memo_rule_put(memo, pc, &cut);
}

/*
 * The cached answer for @pc of @m: 0 with *@rule set (cut to @m), -ENODATA
 * for a cached "no usable rule here", -ENOENT on a miss.
 */
static int dunwind_sframe_rule_hit(struct dunwind_sframe_cache *c,
				   const struct dunwind_sframe_map *m, unsigned long pc,
				   struct dunwind_urule *rule)
{
	if (!dunwind_sframe_row_cached(c, hash_long(pc, DUNWIND_SFRAME_SET_BITS), m->epoch, pc,
				       rule))
		return -ENOENT;
	if (rule->nodata)
		return -ENODATA;
	dunwind_sframe_memo_keep(m, rule);
	return 0;
}

/* Put @rule, of the mapping built as @epoch, in the row cache. */
static void dunwind_sframe_rule_add(struct dunwind_sframe_cache *c, u64 epoch, unsigned long pc,
				    const struct dunwind_urule *rule)
{
	u32 set_nr = hash_long(pc, DUNWIND_SFRAME_SET_BITS);
	struct dunwind_sframe_row_entry *set = &c->rows[set_nr * DUNWIND_SFRAME_WAYS];
	u32 w;

	spin_lock(&c->lock);
	w = READ_ONCE(c->victim[set_nr]);
	write_seqcount_begin(&c->seq);
	set[w].rule = *rule;
	set[w].epoch = epoch;
	write_seqcount_end(&c->seq);
	WRITE_ONCE(c->victim[set_nr], (w + 1) % DUNWIND_SFRAME_WAYS);
	spin_unlock(&c->lock);
}

/*
 * The table's row for @pc, read now (the file's .sframe in the process's
 * memory, within the walk's budget, or a registered table): 0 with *@row
 * set, -ENODATA if the table does not cover @pc, -EINTR, or another -errno
 * for a table that cannot answer.
 */
static int dunwind_sframe_row_read(struct dunwind_sframe_memo *memo,
				   const struct dunwind_sframe_map *m, unsigned long pc,
				   struct dunwind_sframe_row *row)
{
	int ret;

	if (m->state == DUNWIND_SMAP_REG) {
		ret = dunwind_registry_find(m->key.dev, m->key.ino, m->reg_serial, pc - m->bias, row);
		row->pc_lo += m->bias;
		row->pc_hi += m->bias;
	} else {
		struct dunwind_sframe_budget b = { .base = m->table.src.ctx, .memo = memo };
		struct dunwind_sframe_table t = m->table;

		t.src.ctx = &b;
		t.src.read = dunwind_sframe_budget_read;
		ret = dunwind_sframe_find(&t, pc, row);
	}
	return ret == -ENOENT ? -ENODATA : ret;
}

/*
 * dunwind_sframe_rule() for a PC the last frame's rule does not cover.
 * "No usable rule" is cached too, as a rule marked nodata: the row's range
 * for one the walk cannot follow, @pc alone where the table has no row
 * (code the table leaves out, such as crt1.o's _start in a program built
 * with --gsframe, is at the root of every walk: without it each walk
 * searched the table again).
 */
static int dunwind_sframe_rule_find(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
				    unsigned long pc, u8 state, struct dunwind_urule *rule)
{
	struct dunwind_sframe_cache *c = &s->sframe;
	/* Only a miss fills it: not zeroed at every lookup (INIT_STACK_ALL_ZERO). */
	struct dunwind_sframe_row row __uninitialized;
	struct dunwind_sframe_map *m;
	int ret;

	ret = dunwind_sframe_map(s, memo, pc, &m);
	if (ret)
		return ret == -EINTR ? ret : -ENOENT;
	if (m->state != state)
		return -ENOENT;
	ret = dunwind_sframe_rule_hit(c, m, pc, rule);
	if (ret == -ENODATA)
		dunwind_sframe_memo_nodata(memo, m, pc, rule);
	if (ret != -ENOENT)
		return ret;

	ret = dunwind_sframe_row_read(memo, m, pc, &row);
	if (ret == -ENODATA) {
		memset(rule, 0, sizeof(*rule));
		rule->pc_lo = pc;
		rule->pc_hi = pc + 1;
	} else if (ret) {
		return ret == -EINTR ? ret : -ENOENT;
	} else {
		ret = dunwind_sframe_to_rule(&row, rule);
		if (ret == -ENOENT)
			return ret;	/* a signal frame: not cached */
	}
	rule->valid = 1;
	rule->nodata = ret == -ENODATA;
	rule->smap = state;
	dunwind_sframe_rule_add(c, m->epoch, pc, rule);
	if (ret) {
		dunwind_sframe_memo_nodata(memo, m, pc, rule);
		return ret;
	}
	dunwind_sframe_memo_keep(m, rule);
	return 0;
}

/**
 * dunwind_sframe_rule_cached() - dunwind_sframe_rule() where the answer is
 * at hand: the mapping of @pc is in @memo and its rule in the cache
 * @s:		session (its rule cache)
 * @memo:	this walk's memo
 * @pc:		the PC (a return address minus one)
 *
 * The walk's fast loop asks this between two runs of frames of one rule:
 * it sleeps, faults and locks nothing, and it leaves every other case
 * (a cached "no rule" too) to dunwind_sframe_rule().
 *
 * Context: task_work (any context would do).
 * Return: true with @memo->rule set; false with @memo->rule's range
 * emptied (dunwind_sframe_rule() looks it up in full).
 */
bool dunwind_sframe_rule_cached(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
				unsigned long pc)
{
	const struct dunwind_sframe_map *m;
	u8 smap;
	int ret = dunwind_sframe_memo_rule(memo, pc, &smap);

	if (!ret)
		return true;
	m = ret == -ENOENT ? dunwind_sframe_memo_find(memo, pc) : NULL;
	if (m && (m->state == DUNWIND_SMAP_OK || m->state == DUNWIND_SMAP_REG) &&
	    !dunwind_sframe_rule_hit(&s->sframe, m, pc, &memo->rule)) {
		dunwind_sframe_memo_rule_put(memo, pc, &memo->rule);
		return true;
	}
	/* A lookup that raced with a writer may have written part of it. */
	memo->rule.pc_lo = 0;
	memo->rule.pc_hi = 0;
	return false;
}

/**
 * dunwind_sframe_rule() - the SFrame rule for @pc in current's address space
 * @s:		session (its caches)
 * @memo:	this walk's memo, dunwind_sframe_memo_init() at its start
 * @pc:		the PC to look up (a return address minus one for callers)
 * @state:	which table: DUNWIND_SMAP_OK (the file's own .sframe) or
 *		DUNWIND_SMAP_REG (one registered for the file)
 *
 * The rule is @memo->rule, valid until the next call: the last frame's
 * again where it covers @pc (the same mapping, kept by the memo to the
 * end of the walk, and the same table).
 *
 * Context: task_work (may sleep and fault).
 * Return: 0 with @memo->rule set; -ENODATA if the file at @pc has such a
 * table that has no usable rule for @pc; -ENOENT if it has none (no file,
 * no table or the other kind, an unusable .sframe, a table unregistered
 * since); -EINTR (fatal signal).
 */
int dunwind_sframe_rule(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
			unsigned long pc, u8 state)
{
	struct dunwind_urule *rule = &memo->rule;
	u8 smap;
	int ret;

	might_fault();
	if (pc >= rule->pc_lo && pc < rule->pc_hi)
		return rule->smap == state ? 0 : -ENOENT;
	/*
	 * Kept by the slot's memo: a usable rule is @memo->rule now (for the
	 * other kind of table, the next method finds it there).
	 */
	ret = dunwind_sframe_memo_rule(memo, pc, &smap);
	if (ret != -ENOENT)
		return smap == state ? ret : -ENOENT;
	ret = dunwind_sframe_rule_find(s, memo, pc, state, rule);
	if (ret) {
		/* A failed lookup may have written part of it: no range. */
		rule->pc_lo = 0;
		rule->pc_hi = 0;
	} else {
		dunwind_sframe_memo_rule_put(memo, pc, rule);
	}
	return ret;
}
