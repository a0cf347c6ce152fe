// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame for user walks: find the .sframe section of the ELF file that
 * maps an IP, read it in place from the process's memory (never copied
 * into the kernel), and look up the rule for a PC.  The decoder itself is
 * lib/sframe.c, shared with user space.
 *
 * Two caches per session, both bounded and allocated at CONFIG:
 *  - mappings: DUNWIND_SFRAME_MAPS executable mappings, keyed by
 *    (mm, start, end, pgoff, device, inode, generation), with the opened
 *    table (whose build-id the registry matched) or the
 *    verdict that the mapping has none or a bad one;
 *  - rows: decoded rules by PC, 2-way set-associative, each tagged with
 *    the epoch of the mapping build it came from (unique per session).
 * Lookups take no lock (a seqcount tells them to copy again if a build or
 * a new row was written meanwhile); only those writes take the cache lock.
 * A changed mapping has another key, so stale entries are never used: a
 * rebuilt slot has a new epoch and the old one's rules simply age out.  A
 * reused mm pointer with the same file at the same place gets the same
 * answer, which holds for any process.
 *
 * Context: task_work of the walked thread (may sleep and fault).  The table
 * lives in user memory that its owner may change at any time: every read is
 * bounded and fault-tolerant, and validation only decides whether to use it.
 * Only small tables are validated whole when first met; a larger one (which
 * the process may point us at to make every walk slow) is checked piece by
 * piece as lookups read it, which the decoder does anyway, so one lookup
 * costs O(log FDEs + FREs of one function) reads whatever the table's size.
 */
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "dunwind.h"
#include "sframe.h"

/*
 * Tables up to this size are validated whole when first met (about 10,000
 * reads at most); larger ones lazily.
 */
#define DUNWIND_SFRAME_EAGER_MAX	(16 * 1024)
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

/**
 * dunwind_sframe_cache_init() - allocate a session's SFrame caches
 * @c:	cache
 *
 * Context: ioctl (may sleep).
 * Return: 0, or -ENOMEM.
 */
int dunwind_sframe_cache_init(struct dunwind_sframe_cache *c)
{
	spin_lock_init(&c->lock);
	seqcount_spinlock_init(&c->seq, &c->lock);
	c->maps = kvcalloc(DUNWIND_SFRAME_MAPS, sizeof(*c->maps), GFP_KERNEL_ACCOUNT);
	c->rows = kvcalloc(DUNWIND_SFRAME_WAYS << DUNWIND_SFRAME_SET_BITS, sizeof(*c->rows),
			   GFP_KERNEL_ACCOUNT);
	c->victim = kvcalloc(1 << DUNWIND_SFRAME_SET_BITS, sizeof(*c->victim), GFP_KERNEL_ACCOUNT);
	c->epoch = 0;
	if (c->maps && c->rows && c->victim)
		return 0;
	dunwind_sframe_cache_free(c);
	return -ENOMEM;
}

/**
 * dunwind_sframe_cache_free() - free what dunwind_sframe_cache_init() allocated
 * @c:	cache; no walk may use it
 *
 * Context: process.
 */
void dunwind_sframe_cache_free(struct dunwind_sframe_cache *c)
{
	kvfree(c->victim);
	kvfree(c->rows);
	kvfree(c->maps);
	c->victim = NULL;
	c->rows = NULL;
	c->maps = NULL;
}

static u32 dunwind_sframe_slot(const struct dunwind_sframe_map *m)
{
	return hash_long(m->key.start ^ (unsigned long)m->key.mm, 32) % DUNWIND_SFRAME_MAPS;
}

/*
 * The session cache's entry for @m's key, copied to @m: true on a hit.
 * Lockless: a copy that raced with a writer is taken again.
 */
static bool dunwind_sframe_cached(struct dunwind_sframe_cache *c, struct dunwind_sframe_map *m)
{
	const struct dunwind_sframe_map *e = &c->maps[dunwind_sframe_slot(m)];
	struct dunwind_sframe_map copy;
	unsigned int seq;
	bool hit;

	do {
		seq = read_seqcount_begin(&c->seq);
		hit = e->state && dunwind_vma_key_eq(&e->key, &m->key);
		if (hit)
			copy = *e;
	} while (read_seqcount_retry(&c->seq, seq));
	if (!hit || (copy.state == DUNWIND_SMAP_NONE && copy.reg_gen != dunwind_registry_gen()))
		return false;
	*m = copy;
	return true;
}

/**
 * dunwind_sframe_memo_vma() - the mapping that contains @pc, as the
 * session cache knows it
 * @s:		session
 * @mm:		current's address space, its mmap lock held (read)
 * @pc:		the PC
 * @m:		result: the cached entry, or only its key (state
 *		DUNWIND_SMAP_UNUSED) if the cache has none
 * @ehdr:	result, for an entry to build: the address where the file's
 *		offset 0 is mapped (the ELF header), or 0 if it is not an
 *		executable file mapping laid out the usual way
 *
 * The walk looks up its first frame's mapping under the same lock as its
 * stack's; dunwind_sframe_memo_add() then puts it in the walk's memo.
 *
 * Context: mmap lock held (read).
 * Return: 0, or -ENOENT (no mapping at @pc).
 */
int dunwind_sframe_memo_vma(struct dunwind_session *s, struct mm_struct *mm, unsigned long pc,
			    struct dunwind_sframe_map *m, unsigned long *ehdr)
{
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	*ehdr = 0;
	vma = find_vma(mm, pc);
	if (!vma || vma->vm_start > pc)
		return -ENOENT;
	dunwind_vma_key(vma, &m->key);
	dunwind_vma_cache_add(&s->vmas, mm, &m->key);
	m->state = DUNWIND_SMAP_UNUSED;
	/* A known mapping needs no second tree walk for its header. */
	if (dunwind_sframe_cached(&s->sframe, m))
		return 0;
	if (vma->vm_flags & VM_EXEC)
		*ehdr = dunwind_elf_mapped_header(mm, vma);
	return 0;
}

/**
 * dunwind_sframe_memo_vma_cached() - dunwind_sframe_memo_vma() without the
 * mmap lock, for a mapping the session's mapping cache holds (its mm
 * unchanged since) and its SFrame cache knows
 * @s:		session
 * @mm:		current's address space, its mmap lock not held
 * @pc:		the PC
 * @m:		result, on a hit: the SFrame cache's entry
 *
 * Context: task_work (process, preemptible).
 * Return: true on a hit; false: look it up under the lock.
 */
bool dunwind_sframe_memo_vma_cached(struct dunwind_session *s, struct mm_struct *mm,
				    unsigned long pc, struct dunwind_sframe_map *m)
{
	if (!dunwind_vma_cache_find(&s->vmas, mm, pc, &m->key))
		return false;
	return dunwind_sframe_cached(&s->sframe, m);
}

/* dunwind_sframe_memo_vma() under the mmap lock.  Return: 0, -ENOENT, -EINTR. */
static int dunwind_sframe_lookup_vma(struct dunwind_session *s, struct mm_struct *mm,
				     unsigned long pc, struct dunwind_sframe_map *m,
				     unsigned long *ehdr)
{
	int ret;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	ret = dunwind_sframe_memo_vma(s, mm, pc, m, ehdr);
	mmap_read_unlock(mm);
	return ret;
}

/* Fill @m (key already set) with the mapping's table, or its verdict. */
static void dunwind_sframe_build(struct dunwind_sframe_map *m, unsigned long ehdr)
{
	struct dunwind_sframe_src src = { .read = dunwind_uread };
	struct dunwind_elf_info info;
	unsigned long sec;
	int ret;

	m->state = DUNWIND_SMAP_NONE;
	m->want_table = false;
	m->reported = 0;
	m->reg_gen = dunwind_registry_gen();
	if (!ehdr || dunwind_elf_parse_user(ehdr, &info))
		return;
	if (!info.sframe_size) {
		/* A table generated from the file's .eh_frame, if registered. */
		m->reg_serial = dunwind_registry_lookup(m->key.dev, m->key.ino,
							info.build_id_size ? info.build_id : NULL,
							info.build_id_size);
		if (m->reg_serial) {
			m->bias = ehdr - info.load_vaddr;
			m->state = DUNWIND_SMAP_REG;
		}
		m->want_table = !m->reg_serial && m->key.ino;
		return;
	}
	sec = ehdr + (info.sframe_vaddr - info.load_vaddr);
	if (sec < ehdr)
		return;
	src.ctx = (void *)sec;
	src.size = info.sframe_size;
	ret = dunwind_sframe_open(&m->table, &src, sec);
	/* Unsorted tables would be scanned linearly at every frame. */
	if (!ret && !(m->table.flags & DUNWIND_SFRAME_F_FDE_SORTED))
		ret = -DUNWIND_SFRAME_EINVAL;
	if (!ret && info.sframe_size <= DUNWIND_SFRAME_EAGER_MAX)
		ret = dunwind_sframe_validate(&m->table);
	if (ret == -EINTR)
		return;		/* dying: no verdict, nothing cached worth keeping */
	if (ret) {
		m->state = DUNWIND_SMAP_BAD;
		pr_warn_ratelimited("pid %d: unusable .sframe at %#lx (error %d): walking that code with frame pointers\n",
				    task_tgid_nr(current), sec, ret);
		return;
	}
	m->state = DUNWIND_SMAP_OK;
}

/**
 * dunwind_sframe_memo_add() - put a mapping looked up by
 * dunwind_sframe_memo_vma() in the walk's memo, its table built now (and
 * cached) if the session cache had none
 * @s:		session
 * @memo:	the walk's memo
 * @found:	dunwind_sframe_memo_vma()'s entry
 * @ehdr:	dunwind_sframe_memo_vma()'s
 *
 * Context: task_work (may sleep and fault), mmap lock not held.
 * Return: the memo's entry.
 */
struct dunwind_sframe_map *dunwind_sframe_memo_add(struct dunwind_session *s,
						   struct dunwind_sframe_memo *memo,
						   const struct dunwind_sframe_map *found,
						   unsigned long ehdr)
{
	struct dunwind_sframe_cache *c = &s->sframe;
	struct dunwind_sframe_map *m;

	if (memo->nr < ARRAY_SIZE(memo->maps))
		m = &memo->maps[memo->nr++];
	else
		m = &memo->maps[memo->next++ % ARRAY_SIZE(memo->maps)];
	*m = *found;
	if (m->state != DUNWIND_SMAP_UNUSED)
		return m;

	dunwind_sframe_build(m, ehdr);
	spin_lock(&c->lock);
	write_seqcount_begin(&c->seq);
	m->epoch = ++c->epoch;
	c->maps[dunwind_sframe_slot(m)] = *m;
	write_seqcount_end(&c->seq);
	spin_unlock(&c->lock);
	return m;
}

/**
 * dunwind_sframe_memo_find() - the mapping of the walk's memo that holds @pc
 * @memo:	the walk's memo
 * @pc:		the PC
 *
 * Context: any.
 * Return: the entry, or NULL if the walk has not looked it up.
 */
const struct dunwind_sframe_map *dunwind_sframe_memo_find(const struct dunwind_sframe_memo *memo,
							  unsigned long pc)
{
	unsigned int i;

	for (i = 0; i < memo->nr; i++)
		if (pc >= memo->maps[i].key.start && pc < memo->maps[i].key.end)
			return &memo->maps[i];
	return NULL;
}

/**
 * dunwind_sframe_reported() - note in the session cache that a mapping's
 * MMAP record was written
 * @s:		session
 * @m:		the walk's memo entry of the mapping
 * @tag:	the exec generation and process it was written for
 *
 * Only the cache's entry of the same build (@m's epoch) is noted: a
 * rebuilt entry starts unknown, and the set of reported mappings answers.
 *
 * Context: task_work (process, preemptible).
 */
void dunwind_sframe_reported(struct dunwind_session *s, const struct dunwind_sframe_map *m,
			     u64 tag)
{
	struct dunwind_sframe_cache *c = &s->sframe;
	struct dunwind_sframe_map *e = &c->maps[dunwind_sframe_slot(m)];

	spin_lock(&c->lock);
	if (e->state && e->epoch == m->epoch && dunwind_vma_key_eq(&e->key, &m->key)) {
		write_seqcount_begin(&c->seq);
		e->reported = tag;
		write_seqcount_end(&c->seq);
	}
	spin_unlock(&c->lock);
}

/*
 * The mapping for @pc looked up now and added to the per-walk memo.  Apart
 * from dunwind_sframe_map(), whose memo hit (nearly every frame) then
 * neither zeroes nor reserves the entry it would copy.
 * Return: 0 with *@out set, or -errno.
 */
static noinline int dunwind_sframe_map_new(struct dunwind_session *s,
					   struct dunwind_sframe_memo *memo, unsigned long pc,
					   struct dunwind_sframe_map **out)
{
	struct dunwind_sframe_map found = {};
	unsigned long ehdr = 0;
	int ret;

	if (!dunwind_sframe_memo_vma_cached(s, current->mm, pc, &found)) {
		ret = dunwind_sframe_lookup_vma(s, current->mm, pc, &found, &ehdr);
		if (ret)
			return ret;
	}
	*out = dunwind_sframe_memo_add(s, memo, &found, ehdr);
	return 0;
}

/*
 * The mapping for @pc, from the per-walk memo, or looked up now and added
 * to it.  Return: 0 with *@out set, or -errno.
 */
static int dunwind_sframe_map(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
			      unsigned long pc, struct dunwind_sframe_map **out)
{
	*out = (struct dunwind_sframe_map *)dunwind_sframe_memo_find(memo, pc);
	if (*out)
		return 0;
	return dunwind_sframe_map_new(s, memo, pc, out);
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
	    (row->cfa.reg != DUNWIND_SFRAME_REG_SP && row->cfa.reg != DUNWIND_SFRAME_REG_FP &&
	     row->cfa.reg != DUNWIND_SFRAME_REG_BX))
		return -ENODATA;
	if (row->ra.kind != DUNWIND_SFRAME_RULE_CFA || !row->ra.deref)
		return -ENODATA;
	r->cfa_fp = row->cfa.reg == DUNWIND_SFRAME_REG_FP;
	r->cfa_aux = row->cfa.reg == DUNWIND_SFRAME_REG_BX;
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
	if (ret)
		return ret;
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
	const struct dunwind_sframe_map *m = dunwind_sframe_memo_find(memo, pc);

	if (m && (m->state == DUNWIND_SMAP_OK || m->state == DUNWIND_SMAP_REG) &&
	    !dunwind_sframe_rule_hit(&s->sframe, m, pc, &memo->rule))
		return true;
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
	int ret;

	might_fault();
	if (pc >= rule->pc_lo && pc < rule->pc_hi)
		return rule->smap == state ? 0 : -ENOENT;
	ret = dunwind_sframe_rule_find(s, memo, pc, state, rule);
	if (ret) {
		/* A failed lookup may have written part of it: no range. */
		rule->pc_lo = 0;
		rule->pc_hi = 0;
	}
	return ret;
}
