// SPDX-License-Identifier: GPL-2.0
/*
 * Interpreter frames in a user stack (Documentation/abi.rst, "Interpreter
 * frames").  After the native walk of a session that registered an
 * interpreter, each native IP is looked up: one in a registered eval-loop
 * range gets, after it, the interpreter frames of its C-level call of the
 * eval loop.  The thread's chain is read once per walk, by lib/interp.c,
 * from the first eval-loop frame's file.  The lookup takes the mmap lock
 * only when the mappings it met last time (kept in the pending slot's
 * scratch) changed.
 *
 * Context: task_work of the walked thread (may sleep and fault).
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "interp.h"

/* Eval-loop calls one stack may hold frames for; the deeper ones get none. */
#define DUNWIND_INTERP_CALLS	128

/* What the scan found: the eval-loop IPs of one registration. */
struct dunwind_interp_scan {
	const struct dunwind_interp *reg;	/* the first eval-loop IP's file */
	u64 runtime;				/* its runtime's address in this process */
	unsigned int nr;
	u16 idx[DUNWIND_INTERP_CALLS];		/* indices in the stack, ascending */
};

/*
 * One mapping as the scan saw it.  A mapping of a registered file keeps
 * its eval-loop ranges as addresses in it (the file's ELF ranges plus its
 * load bias there), so that each IP costs a compare per range.
 */
struct dunwind_interp_map {
	unsigned long start, end;
	const struct dunwind_interp *reg;	/* its file's registration, or NULL */
	u64 bias;				/* the file's load bias here */
	u32 nr_eval;				/* 0 without @reg */
	struct {
		u64 lo, len;			/* [lo, lo + len), mod 2^64 */
	} eval[DUNWIND_INTERP_MAX_RANGES];
};

/* Mappings a slot's scratch remembers: a stack's text is in a few. */
#define DUNWIND_INTERP_MAPS	8

/*
 * struct dunwind_interp_scratch - what the walks of one pending slot that
 * meet an eval loop work in: allocated by the first, kept for the slot's
 * later walks, freed with the table (dunwind_interp_scratch_free()).  The
 * walk that owns the slot (DUNWIND_SLOT_WALKING) is its only user: no
 * lock.
 *
 * @maps are the mappings the last scan under the mmap lock found, valid
 * while @mm's mappings do not change (its mm_lock_seq is still @seq, see
 * kmod/vmacache.c) and the session registered no other file (@nr_interp):
 * later scans of the same mappings take no lock.  @mm is grabbed while
 * named, so that no other mm can be at its address with the same sequence.
 */
struct dunwind_interp_scratch {
	struct mm_struct *mm;
	unsigned int seq;
	unsigned int nr_interp;
	unsigned int nr_maps;
	struct dunwind_interp_map maps[DUNWIND_INTERP_MAPS];
	u64 out[];		/* the merged stack (@max), then the chain's frames */
};

/*
 * @map of @vma, of the file @reg registered (or NULL): the IP at @pc is at
 * ELF address pc - start + off - text_offset + text_vaddr, so an ELF range
 * [r0, r1) is [r0 + bias, r1 + bias) here.
 */
static void dunwind_interp_map_set(struct dunwind_interp_map *map, const struct vm_area_struct *vma,
				   const struct dunwind_interp *reg)
{
	u32 i;

	map->start = vma->vm_start;
	map->end = vma->vm_end;
	map->reg = reg;
	map->nr_eval = reg ? reg->nr_ranges : 0;
	if (!reg)
		return;
	map->bias = vma->vm_start - ((u64)vma->vm_pgoff << PAGE_SHIFT) + reg->text_offset -
		    reg->text_vaddr;
	for (i = 0; i < map->nr_eval; i++) {
		map->eval[i].lo = reg->ranges[i][0] + map->bias;
		map->eval[i].len = reg->ranges[i][1] - reg->ranges[i][0];
	}
}

/* @vma as the scan sees it, in @map.  Context: mmap lock held. */
static void dunwind_interp_vma(struct dunwind_session *s, struct vm_area_struct *vma,
			       struct dunwind_interp_map *map)
{
	const struct dunwind_interp *reg = NULL;
	const struct inode *inode;

	if (vma->vm_file) {
		inode = dunwind_vma_file_inode(vma->vm_file);
		reg = dunwind_interp_find(s, inode->i_sb->s_dev, inode->i_ino);
	}
	dunwind_interp_map_set(map, vma, reg);
}

/* IP @i, at @pc in @map: an eval-loop IP of the scan's file? */
static __always_inline void dunwind_interp_scan_ip(struct dunwind_interp_scan *sc,
						   const struct dunwind_interp_map *map,
						   unsigned long pc, unsigned int i)
{
	u32 k;

	if (!map->nr_eval || (sc->nr && map->reg != sc->reg))
		return;
	for (k = 0; k < map->nr_eval; k++) {
		if (pc - map->eval[k].lo < map->eval[k].len) {
			if (!sc->nr) {
				sc->reg = map->reg;
				sc->runtime = map->reg->desc.runtime_vaddr + map->bias;
			}
			sc->idx[sc->nr++] = i;
			return;
		}
	}
}

/* A return address (every IP but the first) is looked up in its call. */
static unsigned long dunwind_interp_pc(const u64 *ips, unsigned int i)
{
	return i ? ips[i] - 1 : ips[i];
}

/* The map of @x that holds @pc, after a look at @map (the last one found). */
static const struct dunwind_interp_map *dunwind_interp_map_find(const struct dunwind_interp_scratch *x,
								 const struct dunwind_interp_map *map,
								 unsigned long pc)
{
	unsigned int k;

	if (map && pc >= map->start && pc < map->end)
		return map;
	for (k = 0; k < x->nr_maps; k++)
		if (pc >= x->maps[k].start && pc < x->maps[k].end)
			return &x->maps[k];
	return NULL;
}

/*
 * The scan from @x's maps, without a lock.  Return: false if they are not
 * current's mappings now or miss an IP (the scan is then to be done under
 * the lock).
 */
static bool dunwind_interp_scan_memo(struct dunwind_session *s, struct dunwind_interp_scratch *x,
				     const u64 *ips, unsigned int nr, struct dunwind_interp_scan *sc)
{
	const struct dunwind_interp_map *map = NULL;
	unsigned long pc;
	unsigned int i, seq;

	if (x->mm != current->mm || !dunwind_mm_seq_begin(x->mm, &seq) || seq != x->seq ||
	    READ_ONCE(s->nr_interp) != x->nr_interp)
		return false;
	for (i = 0; i < nr && sc->nr < DUNWIND_INTERP_CALLS; i++) {
		pc = dunwind_interp_pc(ips, i);
		map = dunwind_interp_map_find(x, map, pc);
		if (!map) {
			sc->nr = 0;
			return false;
		}
		dunwind_interp_scan_ip(sc, map, pc, i);
	}
	return true;
}

/*
 * The maps of the scan that holds @mm's mmap lock are to be remembered in
 * @x (if any): emptied, at @mm's sequence.  False if @mm has none (6.1).
 */
static bool dunwind_interp_memo_reset(struct dunwind_session *s, struct dunwind_interp_scratch *x,
				      struct mm_struct *mm)
{
	unsigned int seq;

	if (!x || !dunwind_mm_seq_begin(mm, &seq))
		return false;
	if (x->mm != mm) {
		/* Another mm: __mmdrop() takes no mmap lock. */
		if (x->mm)
			mmdrop(x->mm);
		mmgrab(mm);
		x->mm = mm;
	}
	x->seq = seq;
	x->nr_interp = READ_ONCE(s->nr_interp);
	x->nr_maps = 0;
	return true;
}

/*
 * Find the eval-loop IPs of @ips.  Only IPs in the first one's file count:
 * one chain is read per walk.  Without @x's maps (@x: the slot's scratch,
 * or NULL), under the mmap lock, remembering the mappings met in @x.
 * Return: 0, or -EINTR.
 */
static int dunwind_interp_scan(struct dunwind_session *s, struct dunwind_interp_scratch *x,
			       const u64 *ips, unsigned int nr, struct dunwind_interp_scan *sc)
{
	const struct dunwind_interp_map *map = NULL;
	struct mm_struct *mm = current->mm;
	struct dunwind_interp_map one, *add;
	struct vm_area_struct *vma;
	unsigned long pc;
	unsigned int i;
	bool memo;

	sc->nr = 0;
	if (x && dunwind_interp_scan_memo(s, x, ips, nr, sc))
		return 0;
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	memo = dunwind_interp_memo_reset(s, x, mm);
	for (i = 0; i < nr && sc->nr < DUNWIND_INTERP_CALLS; i++) {
		pc = dunwind_interp_pc(ips, i);
		map = memo ? dunwind_interp_map_find(x, map, pc) :
		      map && pc >= map->start && pc < map->end ? map : NULL;
		if (!map) {
			vma = find_vma(mm, pc);
			if (!vma || vma->vm_start > pc)
				continue;
			add = memo && x->nr_maps < DUNWIND_INTERP_MAPS ? &x->maps[x->nr_maps++] : &one;
			dunwind_interp_vma(s, vma, add);
			map = add;
		}
		dunwind_interp_scan_ip(sc, map, pc, i);
	}
	mmap_read_unlock(mm);
	return 0;
}

/* Where the merge of native and interpreter entries stands. */
struct dunwind_interp_merge {
	u64 *out;
	unsigned int n, max;
	const struct dunwind_interp_frame *f;
	unsigned int fi, nf;
	int reason;			/* the chain's enum dunwind_interp_stop */
	bool trunc;			/* @max cut the stack */
	unsigned int added;		/* interpreter entries in @out */
};

/*
 * The frames of one eval-loop call after its native IP: up to and
 * including the next entry frame; where the chain ended early inside this
 * call, its STOP entry.
 */
static void dunwind_interp_call(struct dunwind_interp_merge *m)
{
	const struct dunwind_interp_frame *f;
	u64 payload;

	while (m->fi < m->nf) {
		if (m->n + 2 > m->max) {
			m->trunc = true;
			return;
		}
		f = &m->f[m->fi++];
		payload = (u32)f->insn | (u64)(f->flags & DUNWIND_INTERP_FRAME_ENTRY) << 32;
		m->out[m->n++] = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_FRAME, payload);
		m->out[m->n++] = f->code;
		m->added += 2;
		if (f->flags & DUNWIND_INTERP_FRAME_ENTRY)
			return;
	}
	if (m->reason != DUNWIND_INTERP_STOP_END) {
		if (m->n == m->max) {
			m->trunc = true;
			return;
		}
		m->out[m->n++] = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_STOP, m->reason);
		m->added++;
		m->reason = DUNWIND_INTERP_STOP_END;	/* said once */
	}
}

/* Native IPs and, after each eval-loop IP of @sc, its call's frames. */
static void dunwind_interp_merge(struct dunwind_interp_merge *m, const u64 *ips,
				 unsigned int nr, const struct dunwind_interp_scan *sc)
{
	unsigned int i, k = 0;

	for (i = 0; i < nr && !m->trunc; i++) {
		if (m->n == m->max) {
			m->trunc = true;
			break;
		}
		m->out[m->n++] = ips[i];
		if (k < sc->nr && sc->idx[k] == i) {
			k++;
			dunwind_interp_call(m);
		}
	}
}

/* Reads of one chain between two chances to reschedule. */
#define DUNWIND_INTERP_RESCHED	64

/*
 * The walker's reader (lib/interp.h): whole words, 8-aligned, in one user
 * access window, where copy_from_user() costs several times as many
 * instructions (the walker's reads are words but for a 4-byte MATCH, and
 * a pointer followed may be misaligned: those take dunwind_uread()).
 * @ctx counts the chain's reads.  A fatal signal ends the chain.
 *
 * Context: task_work of current (may sleep and fault).
 * Return: 0, -EFAULT or -EINTR.
 */
static int dunwind_interp_uread(void *ctx, u64 addr, void *dst, u32 len)
{
	const u64 __user *src = (const u64 __user *)(unsigned long)addr;
	unsigned int *reads = ctx;
	u64 *to = dst;
	u32 i;

	if ((addr | len | (unsigned long)dst) & 7 || len > DUNWIND_INTERP_FRAME_MAX)
		return dunwind_uread(NULL, addr, dst, len);
	if (fatal_signal_pending(current))
		return -EINTR;
	if (++*reads % DUNWIND_INTERP_RESCHED == 0)
		cond_resched();
	if (!user_access_begin(src, len))
		return -EFAULT;
	for (i = 0; i < len / 8; i++)
		unsafe_get_user(to[i], &src[i], fault);
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

/* Read the chain of @sc's interpreter: its frames in @m, newest first. */
static void dunwind_interp_chain(const struct dunwind_interp_scan *sc,
				 struct dunwind_interp_frame *f, unsigned int cap,
				 struct dunwind_interp_merge *m)
{
	unsigned int reads = 0;
	const struct dunwind_interp_mem mem = { .read = dunwind_interp_uread, .ctx = &reads };
	struct dunwind_interp_env env = {};
	u32 nf = 0;

	/* The thread's id as it sees itself (gettid(), CPython's native_thread_id). */
	env.base[DUNWIND_INTERP_BASE_RUNTIME] = sc->runtime;
	env.base[DUNWIND_INTERP_BASE_TLS] = dunwind_arch_tls_base();
	env.key[DUNWIND_INTERP_KEY_TID] = task_pid_vnr(current);
	env.key[DUNWIND_INTERP_KEY_TLS] = env.base[DUNWIND_INTERP_BASE_TLS];
	/* Validated at registration (kmod/interp.c), never changed since. */
	m->reason = dunwind_interp_walk_valid(&sc->reg->desc, &env, &mem, f, cap, &nf);
	m->f = f;
	m->nf = nf;
}

/* The scratch for stacks of @entries and chains of @cap frames. */
static size_t dunwind_interp_scratch_size(unsigned int entries, unsigned int cap)
{
	return sizeof(struct dunwind_interp_scratch) + entries * sizeof(u64) +
	       max(cap, 1U) * sizeof(struct dunwind_interp_frame);
}

/**
 * dunwind_interp_stack() - a native stack with its interpreter frames
 * @s:		session, with an interpreter registered (dunwind_interp_any())
 * @scratch:	the walk's pending slot's scratch (dunwind_pending_slot.interp),
 *		allocated here at the slot's first walk that meets an eval
 *		loop and kept for its later ones, as the slot's IP array is;
 *		freed with the table.  Only the walk that owns the slot uses it.
 * @ips:	the native walk's IPs, innermost first
 * @nr:		how many
 * @max:	entries the stack may hold (max_user_frames, the session's:
 *		the same for every walk of the slot)
 * @nr_out:	set to the entries of the result
 * @trunc:	set if @max cut native IPs off the result
 *
 * Context: task_work of current (may sleep and fault), current->mm set.
 * Return: the merged stack, *@nr_out entries in *@scratch (room for @max),
 * valid until the slot's next walk: the caller's stack from then; NULL if nothing is added (no IP in an eval loop, a
 * thread without frames, no memory, a fatal signal): the native stack
 * stands.
 */
u64 *dunwind_interp_stack(struct dunwind_session *s, void **scratch, const u64 *ips,
			  unsigned int nr, unsigned int max, unsigned int *nr_out, bool *trunc)
{
	struct dunwind_interp_merge m = { .max = max };
	unsigned int cap = min_t(unsigned int, max / 2, DUNWIND_INTERP_MAX_FRAMES);
	struct dunwind_interp_scratch *x = *scratch;
	struct dunwind_interp_scan sc;

	if (dunwind_interp_scan(s, x, ips, nr, &sc) || !sc.nr)
		return NULL;
	if (!x) {
		x = kzalloc(dunwind_interp_scratch_size(max, cap), GFP_KERNEL_ACCOUNT);
		if (!x)
			return NULL;
		*scratch = x;
	}
	m.out = x->out;
	dunwind_interp_chain(&sc, (struct dunwind_interp_frame *)(x->out + max), cap, &m);
	dunwind_interp_merge(&m, ips, nr, &sc);
	if (!m.added)
		return NULL;	/* a thread without frames: nothing to add */
	*nr_out = m.n;
	*trunc = m.trunc;
	return m.out;
}

/**
 * dunwind_interp_scratch_free() - free a pending slot's scratch
 * @scratch:	dunwind_pending_slot.interp, or NULL; no walk may use it
 *
 * Context: process.
 */
void dunwind_interp_scratch_free(void *scratch)
{
	struct dunwind_interp_scratch *x = scratch;

	if (!x)
		return;
	if (x->mm)
		mmdrop(x->mm);
	kfree(x);
}
