// SPDX-License-Identifier: GPL-2.0
/*
 * The mappings earlier walks of a process looked up under its mmap lock,
 * kept per session and per address space for as long as that address
 * space's mappings do not change: a walk of the same program then finds
 * its stack and code mappings without the mmap lock and the tree walks.
 *
 * "Do not change" is the mm's mm_lock_seq, a seqcount every mmap write
 * lock makes odd while held and even again at unlock (kmod/compat.h:
 * dunwind_mm_seq_begin()).  Every change of a mapping (mmap, munmap,
 * mprotect, mremap, stack growth, a dlclose/dlopen at the same address)
 * holds that lock for writing, so an entry recorded at sequence S under
 * the read lock still describes the mappings while the sequence reads S:
 * a walk that finds S uses the mappings as they were just before any
 * writer that begins after its check, as a walk holding the read lock
 * until then would.  exec makes a new mm.  An entry keeps its mm_struct
 * (mmgrab(), not the address space), so that no other mm can be at its
 * address with the same sequence.  Kernels with no such sequence (6.1)
 * keep nothing: every walk takes the mmap lock.
 *
 * A pending slot also keeps the stack mapping of its last walk
 * (dunwind_vma_memo, by the same rule): a thread mostly takes the same
 * slot again, so a process with more threads than the cache holds
 * mappings still finds each thread's stack without the lock.
 *
 * Context: task_work of the walked thread (may sleep and fault).
 */
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/spinlock.h>
#include "dunwind.h"

/**
 * dunwind_vma_cache_init() - start a session's mapping cache empty
 * @c:	the cache, in a new session
 *
 * Context: process.
 */
void dunwind_vma_cache_init(struct dunwind_vma_cache *c)
{
	spin_lock_init(&c->lock);
	memset(c->mms, 0, sizeof(c->mms));
}

/**
 * dunwind_vma_cache_free() - let go of the address spaces the cache holds
 * @c:	the cache; no walk may use it
 *
 * Context: process.
 */
void dunwind_vma_cache_free(struct dunwind_vma_cache *c)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c->mms); i++) {
		if (c->mms[i].mm)
			mmdrop(c->mms[i].mm);
		c->mms[i].mm = NULL;
	}
}

static struct dunwind_vma_cache_mm *dunwind_vma_cache_slot(struct dunwind_vma_cache *c,
							   const struct mm_struct *mm)
{
	return &c->mms[hash_ptr(mm, ilog2(DUNWIND_VMA_CACHE_MMS))];
}

/**
 * dunwind_vma_cache_find() - the mapping of @mm that holds @addr, as a
 * walk saw it under the mmap lock, if @mm's mappings have not changed since
 * @c:		the session's cache
 * @mm:		current's address space, its mmap lock not held
 * @addr:	the address
 * @key:	result, on a hit
 *
 * Context: task_work (process, preemptible).
 * Return: true on a hit.
 */
bool dunwind_vma_cache_find(struct dunwind_vma_cache *c, struct mm_struct *mm,
			    unsigned long addr, struct dunwind_vma_key *key)
{
	struct dunwind_vma_cache_mm *e = dunwind_vma_cache_slot(c, mm);
	unsigned int seq, i;
	bool hit = false;

	/* A writer holds the lock now, or this kernel has no sequence. */
	if (!dunwind_mm_seq_begin(mm, &seq))
		return false;
	spin_lock(&c->lock);
	if (e->mm == mm && e->seq == seq) {
		for (i = 0; i < e->nr; i++) {
			if (addr >= e->keys[i].start && addr < e->keys[i].end) {
				*key = e->keys[i];
				hit = true;
				break;
			}
		}
	}
	spin_unlock(&c->lock);
	return hit;
}

/**
 * dunwind_vma_cache_add() - remember a mapping found under the mmap lock
 * @c:		the session's cache
 * @mm:		current's address space, its mmap lock held (read)
 * @key:	the mapping's key (dunwind_vma_key())
 *
 * Under the read lock the sequence is even and cannot move: entries
 * recorded at another sequence describe older mappings and go.
 *
 * Context: task_work (process), mmap lock held (read).
 */
void dunwind_vma_cache_add(struct dunwind_vma_cache *c, struct mm_struct *mm,
			   const struct dunwind_vma_key *key)
{
	struct dunwind_vma_cache_mm *e = dunwind_vma_cache_slot(c, mm);
	struct mm_struct *old = NULL;
	unsigned int seq, i;

	mmap_assert_locked(mm);
	if (!dunwind_mm_seq_begin(mm, &seq))
		return;
	spin_lock(&c->lock);
	if (e->mm != mm) {
		old = e->mm;
		mmgrab(mm);
		e->mm = mm;
		e->seq = seq + 1;	/* not @seq: emptied just below */
	}
	if (e->seq != seq) {
		e->seq = seq;
		e->nr = 0;
		e->next = 0;
	}
	for (i = 0; i < e->nr && !dunwind_vma_key_eq(&e->keys[i], key); i++)
		;
	if (i == e->nr) {
		if (e->nr < ARRAY_SIZE(e->keys))
			i = e->nr++;
		else
			i = e->next++ % ARRAY_SIZE(e->keys);
		e->keys[i] = *key;
	}
	spin_unlock(&c->lock);
	/* An exited process's mm may go now: __mmdrop() takes no mmap lock. */
	if (old)
		mmdrop(old);
}

/**
 * dunwind_vma_memo_find() - does @m hold @addr of @mm, its mappings
 * unchanged since @m was set?
 * @m:		the memo (a pending slot's stack), used by one walk at a time
 * @mm:		current's address space, its mmap lock not held
 * @addr:	the address
 *
 * The session's cache holds DUNWIND_VMA_CACHE_VMAS mappings of a
 * process: with more threads than that (each its own stack mapping)
 * walking in turn, each walk would miss it and take the mmap lock.
 *
 * Context: task_work (process, preemptible).
 * Return: true on a hit: [@m->start, @m->end) is the mapping.
 */
bool dunwind_vma_memo_find(const struct dunwind_vma_memo *m, struct mm_struct *mm,
			   unsigned long addr)
{
	unsigned int seq;

	return m->mm == mm && dunwind_mm_seq_begin(mm, &seq) && seq == m->seq &&
	       addr >= m->start && addr < m->end;
}

/**
 * dunwind_vma_memo_set() - remember a mapping found under the mmap lock
 * @m:		the memo, used by one walk at a time
 * @mm:		current's address space, its mmap lock held (read)
 * @key:	the mapping's key (dunwind_vma_key())
 *
 * As for dunwind_vma_cache_add(), @mm stays grabbed while @m names it, so
 * that no other mm can be at its address with the same sequence.
 *
 * Context: task_work (process), mmap lock held (read).
 */
void dunwind_vma_memo_set(struct dunwind_vma_memo *m, struct mm_struct *mm,
			  const struct dunwind_vma_key *key)
{
	unsigned int seq;

	mmap_assert_locked(mm);
	/* No sequence (6.1): @mm held all the same, for the kept memo's check. */
	if (!dunwind_mm_seq_begin(mm, &seq))
		seq = 0;
	if (m->mm != mm) {
		/* Another mm: __mmdrop() takes no mmap lock. */
		dunwind_vma_memo_free(m);
		mmgrab(mm);
		m->mm = mm;
	}
	m->seq = seq;
	m->start = key->start;
	m->end = key->end;
}

/**
 * dunwind_vma_memo_free() - let go of the address space @m holds
 * @m:	the memo; no walk may use it
 *
 * Context: process.
 */
void dunwind_vma_memo_free(struct dunwind_vma_memo *m)
{
	if (m->mm)
		mmdrop(m->mm);
	m->mm = NULL;
}
