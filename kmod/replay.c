// SPDX-License-Identifier: GPL-2.0
/*
 * A walk replayed: the frames of the slot's last walk, taken again where
 * this walk would find them again.  A walk is a function of the
 * registers it starts from, the address space's mappings and tables (the
 * slot's memo, kept only while they have not changed: struct
 * dunwind_sframe_memo) and the words it reads from user memory (its
 * trace: struct dunwind_walk_trace).  Where the registers are the same,
 * the memo is kept and every word read holds the same value still, the
 * walk would take the same steps to the same end: the trace's frames are
 * the answer, and where they were written already (the trace keeps the
 * cookie), that record is: a sample in such a system call, or a block
 * replayed as the thread switches out, names it.  A thread that blocks
 * again and again in the same call, or is sampled again and again in the
 * same system call, is walked by reading a few words of its stack and
 * comparing them.  A thread interrupted in its own code is seldom at the
 * same instruction twice, but often in the same frame with the same
 * stack (a loop): its walks are traced apart (the slot's second trace,
 * so as not to lose the system call's) and replayed at any IP the first
 * frame's table rule covers, which takes the same steps from the same
 * SP, FP and aux; a thread whose stack changes from sample to sample
 * soon traces one walk in 32 (dunwind_replay_missed()).  A thread that
 * blocks has its walk replayed as it switches out
 * (dunwind_replay_blocked()), with page faults disabled: nothing of its
 * user state can change before it runs.
 *
 * Context: task_work of the walked thread (may fault); the sched_switch
 * tracepoint for dunwind_replay_blocked(); the overflow handler for
 * dunwind_replay_sampled().
 */
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include "interp.h"
#include "unwind.h"

/*
 * Did current enter the kernel, where @st's walk starts, by a system call?
 * (On x86_64 an exception that pushes an error code, a page fault, looks
 * like one: its walks are traced too, and replayed only as any other, by
 * the words they read.)
 */
static bool dunwind_replay_syscall(const struct dunwind_unwind *st)
{
	return syscall_get_nr(current, st->regs) >= 0;
}

/*
 * Is @t, a trace of @memo, a walk to replay: kept at its end and not
 * emptied with the memo since (as its kept rules)?
 */
static struct dunwind_walk_trace *dunwind_replay_trace(const struct dunwind_sframe_memo *memo,
						       struct dunwind_walk_trace *t)
{
	return t && t->valid && t->gen == memo->rules_gen ? t : NULL;
}

/*
 * A replay of @t, a trace of a walk from user mode, missed: the next
 * 2^misses - 1 walks from user mode are not traced (one in 32 at most).
 */
static void dunwind_replay_missed(struct dunwind_walk_trace *t)
{
	if (t->misses < 5)
		t->misses++;
	t->skip = (1U << t->misses) - 1;
}

/*
 * The cookie of the record that holds @t's frames as current's stack,
 * or 0: another thread's record is never named for current.
 */
static u64 dunwind_replay_earlier(const struct dunwind_walk_trace *t)
{
	return t->cookie_tid == task_pid_nr(current) ? t->cookie : 0;
}

/* Is @addr's word inside [@lo, @hi)?  Both ends are page-aligned. */
static bool dunwind_replay_inside(unsigned long addr, unsigned long lo, unsigned long hi)
{
	return addr >= lo && addr < hi - sizeof(long) + 1;
}

/*
 * Do the trace's reads give the same words now?  Those in the stack
 * mapping [@lo, @hi) in one user access window, any other (the loader's
 * header, read for its entry point) alone.
 */
static bool dunwind_replay_reads(const struct dunwind_walk_trace *t, unsigned long lo,
				 unsigned long hi)
{
	const struct dunwind_trace_read *rd, *end = t->reads + t->nr_reads;
	unsigned long v;
	bool outside = false;

	if (!user_access_begin((const void __user *)lo, hi - lo))
		return false;
	for (rd = t->reads; rd < end; rd++) {
		if (!dunwind_replay_inside(rd->addr, lo, hi)) {
			outside = true;
			continue;
		}
		unsafe_get_user(v, (const unsigned long __user *)rd->addr, fault);
		if (v != rd->val)
			goto differ;
	}
	user_access_end();
	if (!outside)
		return true;
	for (rd = t->reads; rd < end; rd++) {
		if (dunwind_replay_inside(rd->addr, lo, hi))
			continue;
		if (get_user(v, (const unsigned long __user *)rd->addr) || v != rd->val)
			return false;
	}
	return true;
differ:
fault:
	user_access_end();
	return false;
}

/*
 * Does @t's walk start from these registers, and read what it read?
 * @regs are current's user registers at its kernel entry, whose values
 * are @u; [@lo, @hi) is the stack mapping.
 */
static bool dunwind_replay_match(const struct dunwind_walk_trace *t, struct pt_regs *regs,
				 const struct dunwind_uregs *u, unsigned long lo, unsigned long hi)
{
	/* From user mode any IP of the first frame's rule; an empty range holds none. */
	if ((t->user ? u->ip - t->pc_lo >= t->pc_hi - t->pc_lo : t->ip != u->ip) ||
	    t->sp != u->sp || (t->fp_used && t->fp != u->fp) ||
	    (t->aux_used && t->aux != u->aux))
		return false;
	/* A new thread's first frame ends its walk by registers the trace does not keep. */
	if (dunwind_arch_new_stack(regs, u->ip, u->sp))
		return false;
	return dunwind_replay_reads(t, lo, hi);
}

/**
 * dunwind_replay() - the slot's last walk, if this one would find the same
 * @st:		iterator just started (dunwind_unwind_start()) with the table
 *		barrier allowed
 * @ips:	where the frames go
 * @cap:	room at @ips
 *
 * A walk from a system call replays the slot's last walk from one; a walk
 * from user mode, the last traced from user mode, with its own IP first.
 *
 * Context: task_work of current (may fault).
 * Return: the trace whose frames are now at @ips (with its stop reason
 * and counts), or NULL: walk.
 */
struct dunwind_walk_trace *dunwind_replay(struct dunwind_unwind *st, u64 *ips, unsigned int cap)
{
	const bool user = !dunwind_replay_syscall(st);
	struct dunwind_walk_trace *t = dunwind_replay_trace(st->memo, user ? st->memo->utrace :
								   st->memo->trace);
	const struct dunwind_uregs u = { .ip = st->ip, .sp = st->sp, .fp = st->fp, .aux = st->aux };

	if (!t || !st->kept || st->done || st->last || t->nr > cap || (user && !t->nr))
		return NULL;
	if (!dunwind_replay_match(t, st->regs, &u, st->lo, st->hi)) {
		t->valid = false;
		if (user)
			dunwind_replay_missed(t);
		return NULL;
	}
	memcpy(ips, t->ips, t->nr * sizeof(u64));
	if (user) {
		ips[0] = u.ip;
		t->misses = 0;
	}
	return t;
}

/*
 * The trace of @slot (borrowed by current) if current's walk at its return
 * to user would replay it.  Read as dunwind_unwind_first_vmas() and
 * dunwind_replay() read it, with no lock: only a memo kept for this
 * address space at its present sequence, with no table registered since,
 * and a trace whose mappings were all reported under the present tag (no
 * MMAP record is written here).
 */
static const struct dunwind_walk_trace *dunwind_replay_current(struct dunwind_session *s,
							       struct dunwind_pending_slot *slot)
{
	const struct dunwind_sframe_memo *memo = slot->memo;
	struct pt_regs *regs = task_pt_regs(current);
	struct mm_struct *mm = current->mm;
	const struct dunwind_walk_trace *t;
	struct dunwind_uregs u;
	bool same;

	/* No sequence (6.1): a kept memo is only checked under the mmap lock. */
	if (!DUNWIND_MM_SEQ)
		return NULL;
	t = memo ? dunwind_replay_trace(memo, memo->trace) : NULL;
	if (!t || memo->kept_mm != mm || memo->kept_gen != dunwind_registry_gen() ||
	    syscall_get_nr(current, regs) < 0 || t->reported != dunwind_mmap_report_tag(s))
		return NULL;
	dunwind_arch_user_regs(regs, &u);
	if (!dunwind_vma_memo_find(&slot->stack, mm, u.sp) || memo->kept_seq != slot->stack.seq)
		return NULL;
	/* A word not in memory fails the read: the return's walk reads it. */
	pagefault_disable();
	same = dunwind_replay_match(t, regs, &u, slot->stack.start, slot->stack.end);
	pagefault_enable();
	return same ? t : NULL;
}

/* Current's walk at its return, if @slot's trace replays it, into @out. */
static bool dunwind_replay_slot(struct dunwind_session *s, struct dunwind_pending_slot *slot,
				struct dunwind_offcpu_user *out)
{
	const struct dunwind_walk_trace *t = dunwind_replay_current(s, slot);

	if (!t || t->nr > ARRAY_SIZE(out->ips))
		return false;
	memcpy(out->ips, t->ips, t->nr * sizeof(out->ips[0]));
	memcpy(out->nr_by, t->nr_by, sizeof(out->nr_by));
	out->earlier = dunwind_replay_earlier(t);
	out->methods = t->methods;
	out->stop = t->stop;
	out->nr = t->nr;
	return true;
}

/*
 * A pending slot for current to read a memo in, marked BORROWED (an NMI
 * meanwhile takes no cookie); NULL where a replay is not for here: a
 * thread that owns one (a walk owed for this stay) is left to it, and
 * interpreter frames are read after the walk, which may fault.
 */
static struct dunwind_pending_slot *dunwind_replay_borrow(struct dunwind_session *s)
{
	struct dunwind_pending_slot *slot;

	if (!current->mm || (current->flags & (DUNWIND_PF_NO_USER | PF_EXITING)) ||
	    dunwind_interp_any(s) || dunwind_pending_find(&s->pending, current))
		return NULL;
	slot = dunwind_pending_claim(&s->pending, current);
	if (slot)
		atomic_set(&slot->state, DUNWIND_SLOT_BORROWED);
	return slot;
}

/**
 * dunwind_replay_blocked() - current's user walk, replayed as it blocks
 * @s:		session with current's off-CPU sample to come
 * @out:	the frames, their counts and stop reason; @out->nr is 0 if
 *		not replayed
 *
 * A thread that blocks runs no user code until its return to user space:
 * the walk that its off-CPU sample would queue for that return reads
 * the stack as it is now.  Where the memo of the pending slot it would
 * take replays that walk, it is replayed here, off the thread's way
 * back: no cookie is owed, no task_work queued.  The slot is borrowed
 * (DUNWIND_SLOT_BORROWED) only while its memo is read: a thread that owns
 * one (a walk owed for this stay) is left to it.  The cost is counted as
 * the walk's.
 *
 * Context: the sched_switch tracepoint as current switches out (runqueue
 * lock held, interrupts off); page faults are disabled here.
 * Return: true if replayed.
 */
bool dunwind_replay_blocked(struct dunwind_session *s, struct dunwind_offcpu_user *out)
{
	const struct dunwind_unwind_method *m;
	struct dunwind_pending_slot *slot;
	u64 c0 = dunwind_cycles();
	bool ok;

	BUILD_BUG_ON(DUNWIND_OFFCPU_USER_FRAMES != DUNWIND_TRACE_FRAMES);
	BUILD_BUG_ON(ARRAY_SIZE(out->nr_by) != DUNWIND_METHOD_NR);
	out->nr = 0;
	out->cookie = 0;
	out->earlier = 0;
	slot = dunwind_replay_borrow(s);
	if (!slot)
		return false;
	ok = dunwind_replay_slot(s, slot, out);
	dunwind_pending_release(&s->pending, slot);
	if (!ok) {
		out->nr = 0;
		return false;
	}
	m = dunwind_methods_top(out->nr_by);
	c0 = dunwind_cycles_since(c0, dunwind_cycles());
	dunwind_count(s, m->cnt_cycles, c0);
	dunwind_count(s, DW_CNT_WALK_NS, dunwind_cycles_ns(c0));
	return true;
}

/**
 * dunwind_replay_sampled() - the earlier cookie of current's user stack
 * @s:		session sampling current in the kernel
 *
 * A thread sampled in a system call where its last walk started, the
 * words that walk read unchanged, has the user stack that walk wrote
 * (dunwind_replay_answered()): the sample names that cookie
 * (DUNWIND_SAMPLE_EARLIER_STACK) and nothing is queued for its return.
 * The slot is borrowed only while its memo is read, as for
 * dunwind_replay_blocked().  The cost is the handler's.
 *
 * Context: the overflow handler of current in hardirq (not NMI),
 * interrupted in the kernel; page faults are disabled here.
 * Return: the cookie, or 0: take one (dunwind_cookie_stash()).
 */
u64 dunwind_replay_sampled(struct dunwind_session *s)
{
	struct dunwind_pending_slot *slot;
	const struct dunwind_walk_trace *t;
	u64 cookie = 0;

	if (WARN_ON_ONCE(in_nmi()))
		return 0;
	slot = dunwind_replay_borrow(s);
	if (!slot)
		return 0;
	t = dunwind_replay_current(s, slot);
	if (t)
		cookie = dunwind_replay_earlier(t);
	dunwind_pending_release(&s->pending, slot);
	return cookie;
}

/**
 * dunwind_replay_begin() - trace the walk of @st for the slot's next walk
 * @st:		iterator just started, its walk not replayed
 *
 * A walk from a system call goes to the slot's trace of one; a walk from
 * user mode to the other, unless replays from there missed just before
 * (dunwind_replay_missed()).
 *
 * Context: task_work of current.
 */
void dunwind_replay_begin(struct dunwind_unwind *st)
{
	const bool user = !dunwind_replay_syscall(st);
	struct dunwind_walk_trace *t = user ? st->memo->utrace : st->memo->trace;

	if (!t)
		return;
	if (user && t->skip) {
		t->skip--;
		return;
	}
	t->valid = false;
	t->pc_lo = 0;
	t->pc_hi = 0;
	t->aux_used = false;
	t->fp_used = false;
	t->fp_src = DUNWIND_TRACE_FP_REGS;
	t->nr_reads = 0;
	t->reported = 0;
	t->cookie = 0;
	t->ip = st->ip;
	t->sp = st->sp;
	t->fp = st->fp;
	t->aux = st->aux;
	st->trace = t;
}

/**
 * dunwind_replay_end() - keep the walk just traced, if it can be replayed
 * @st:		iterator, its walk over (not stopped by the table barrier)
 * @ips:	its frames
 * @nr:		how many
 * @nr_by:	how many by method (DUNWIND_METHOD_NR)
 * @methods:	DUNWIND_UNWIND_* of the frames
 * @stop:	why it ended
 *
 * Context: task_work of current.
 * Return: the trace kept (its @reported for the caller to set), or NULL.
 */
struct dunwind_walk_trace *dunwind_replay_end(struct dunwind_unwind *st, const u64 *ips,
					      unsigned int nr, const unsigned int *nr_by, u8 methods,
					      u8 stop)
{
	struct dunwind_walk_trace *t = st->trace;
	unsigned int i;

	if (!t)
		return NULL;
	st->trace = NULL;
	if (t->nr_reads > DUNWIND_TRACE_READS || nr > DUNWIND_TRACE_FRAMES)
		return NULL;
	memcpy(t->ips, ips, nr * sizeof(u64));
	t->nr = nr;
	for (i = 0; i < DUNWIND_METHOD_NR; i++)
		t->nr_by[i] = nr_by[i];
	t->methods = methods;
	t->stop = stop;
	t->gen = st->memo->rules_gen;
	t->valid = true;
	return t;
}

/**
 * dunwind_replay_answered() - note that @cookie's record holds @t's frames
 * @t:		the trace whose frames a walk of current just wrote: replayed,
 *		or kept at the walk's end
 * @cookie:	the cookie that record (USER_STACK or SAMPLE_STACK) answers,
 *		written to the ring (not lost)
 *
 * A later sample of current replayed from @t (a block at its switch out,
 * or one taken in the system call the walk started from) names @cookie
 * instead of writing the same stack again (DUNWIND_SAMPLE_EARLIER_STACK).
 *
 * Context: task_work of current, its pending slot owned.
 */
void dunwind_replay_answered(struct dunwind_walk_trace *t, u64 cookie)
{
	/* A walk from user mode is not replayed in the kernel. */
	if (t->user)
		return;
	t->cookie = cookie;
	t->cookie_tid = task_pid_nr(current);
}
