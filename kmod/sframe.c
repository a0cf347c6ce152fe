// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame for user walks: find the .sframe section of the ELF file that
 * maps an IP, to be read in place from the process's memory (never copied
 * into the kernel), or the table registered for it; the rule for a PC is
 * looked up in it by kmod/sframe_rule.c.  The decoder itself is
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

/**
 * dunwind_sframe_map() - the mapping of @pc, with its table or the verdict
 * that it has none
 * @s:		session (its mapping cache)
 * @memo:	this walk's memo
 * @pc:		a PC of current's
 * @out:	set to the memo's entry
 *
 * From the per-walk memo, or looked up now and added to it.
 * Context: task_work (may sleep and fault).
 * Return: 0 with *@out set, or -errno (-EINTR: fatal signal).
 */
int dunwind_sframe_map(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
		       unsigned long pc, struct dunwind_sframe_map **out)
{
	*out = dunwind_sframe_memo_find(memo, pc);
	if (*out)
		return 0;
	return dunwind_sframe_map_new(s, memo, pc, out);
}
