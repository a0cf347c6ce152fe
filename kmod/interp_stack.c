// SPDX-License-Identifier: GPL-2.0
/*
 * Interpreter frames in a user stack (Documentation/abi.rst, "Interpreter
 * frames").  After the native walk of a session that registered an
 * interpreter, each native IP is looked up: one in a registered eval-loop
 * range gets, after it, the interpreter frames of its C-level call of the
 * eval loop.  The thread's chain is read once per walk, by lib/interp.c,
 * from the first eval-loop frame's file.
 *
 * Context: task_work of the walked thread (may sleep and fault).
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
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
 * Is @pc, in @vma of the file @reg registered, in an eval-loop range?
 * Sets *@bias to the file's load bias.  Context: mmap lock held.
 */
static bool dunwind_interp_in_eval(const struct dunwind_interp *reg,
				   const struct vm_area_struct *vma, unsigned long pc, u64 *bias)
{
	u64 off = pc - vma->vm_start + ((u64)vma->vm_pgoff << PAGE_SHIFT);
	u64 vaddr = off - reg->text_offset + reg->text_vaddr;
	u32 i;

	for (i = 0; i < reg->nr_ranges; i++) {
		if (vaddr - reg->ranges[i][0] < reg->ranges[i][1] - reg->ranges[i][0]) {
			*bias = pc - vaddr;
			return true;
		}
	}
	return false;
}

/* The registration of @vma's file, if any.  Context: mmap lock held. */
static const struct dunwind_interp *dunwind_interp_vma(struct dunwind_session *s,
						       struct vm_area_struct *vma)
{
	const struct inode *inode;

	if (!vma->vm_file)
		return NULL;
	inode = dunwind_vma_file_inode(vma->vm_file);
	return dunwind_interp_find(s, inode->i_sb->s_dev, inode->i_ino);
}

/*
 * Find the eval-loop IPs of @ips.  A return address (every IP but the
 * first) is looked up one byte back, in its call.  Only IPs in the first
 * one's file count: one chain is read per walk.
 * Return: 0, or -EINTR.
 */
static int dunwind_interp_scan(struct dunwind_session *s, const u64 *ips, unsigned int nr,
			       struct dunwind_interp_scan *sc)
{
	const struct dunwind_interp *reg = NULL;
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma = NULL;
	unsigned long pc;
	unsigned int i;
	u64 bias;

	sc->nr = 0;
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	for (i = 0; i < nr && sc->nr < DUNWIND_INTERP_CALLS; i++) {
		pc = i ? ips[i] - 1 : ips[i];
		if (!vma || pc < vma->vm_start || pc >= vma->vm_end) {
			vma = find_vma(mm, pc);
			if (vma && vma->vm_start > pc)
				vma = NULL;
			reg = vma ? dunwind_interp_vma(s, vma) : NULL;
		}
		if (!reg || (sc->nr && reg != sc->reg) || !dunwind_interp_in_eval(reg, vma, pc, &bias))
			continue;
		if (!sc->nr) {
			sc->reg = reg;
			sc->runtime = reg->desc.runtime_vaddr + bias;
		}
		sc->idx[sc->nr++] = i;
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

/* Read the chain of @sc's interpreter: its frames in @m, newest first. */
static void dunwind_interp_chain(const struct dunwind_interp_scan *sc,
				 struct dunwind_interp_frame *f, unsigned int cap,
				 struct dunwind_interp_merge *m)
{
	const struct dunwind_interp_mem mem = { .read = dunwind_uread, .ctx = NULL };
	struct dunwind_interp_env env = {};
	u32 nf = 0;

	/* The thread's id as it sees itself (gettid(), CPython's native_thread_id). */
	env.base[DUNWIND_INTERP_BASE_RUNTIME] = sc->runtime;
	env.base[DUNWIND_INTERP_BASE_TLS] = dunwind_arch_tls_base();
	env.key[DUNWIND_INTERP_KEY_TID] = task_pid_vnr(current);
	env.key[DUNWIND_INTERP_KEY_TLS] = env.base[DUNWIND_INTERP_BASE_TLS];
	m->reason = dunwind_interp_walk(&sc->reg->desc, &env, &mem, f, cap, &nf);
	/* The descriptor was validated at registration: no -EINVAL here. */
	if (WARN_ON_ONCE(m->reason < 0))
		m->reason = DUNWIND_INTERP_STOP_BOUND;
	m->f = f;
	m->nf = nf;
}

/*
 * The scratch of a slot's walks with interpreter frames: the merged stack
 * (@entries) and, after it, the chain's frames (@cap).
 */
static size_t dunwind_interp_scratch_size(unsigned int entries, unsigned int cap)
{
	return entries * sizeof(u64) + max(cap, 1U) * sizeof(struct dunwind_interp_frame);
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
 * Return: the merged stack, *@nr_out entries in *@scratch, valid until the
 * slot's next walk; NULL if nothing is added (no IP in an eval loop, a
 * thread without frames, no memory, a fatal signal): the native stack
 * stands.
 */
const u64 *dunwind_interp_stack(struct dunwind_session *s, void **scratch, const u64 *ips,
				unsigned int nr, unsigned int max, unsigned int *nr_out, bool *trunc)
{
	struct dunwind_interp_merge m = { .max = max };
	unsigned int cap = min_t(unsigned int, max / 2, DUNWIND_INTERP_MAX_FRAMES);
	struct dunwind_interp_scan sc;

	if (dunwind_interp_scan(s, ips, nr, &sc) || !sc.nr)
		return NULL;
	if (!*scratch)
		*scratch = kmalloc(dunwind_interp_scratch_size(max, cap), GFP_KERNEL_ACCOUNT);
	if (!*scratch)
		return NULL;
	m.out = *scratch;
	dunwind_interp_chain(&sc, (struct dunwind_interp_frame *)(m.out + max), cap, &m);
	dunwind_interp_merge(&m, ips, nr, &sc);
	if (!m.added)
		return NULL;	/* a thread without frames: nothing to add */
	*nr_out = m.n;
	*trunc = m.trunc;
	return m.out;
}
