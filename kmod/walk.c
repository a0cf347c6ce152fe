// SPDX-License-Identifier: GPL-2.0
/*
 * The deferred user walk.  Runs as task_work of the sampled thread on its
 * way back to user space, where user memory may be read and may fault:
 * one walk per cookie, emitting one USER_STACK.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/sched/signal.h>
#include <asm/sigcontext.h>
#include <asm/tsc.h>
#include <asm/ucontext.h>
#include <asm/unistd.h>
#include <linux/auxvec.h>
#include <linux/elf.h>
#include "dunwind.h"
#include "record.h"

/*
 * Frames a walk keeps in its own stack frame: most walks are shorter and
 * need no allocation; a deeper one moves to an array of @max that its
 * pending slot keeps for the slot's later deep walks
 * (dunwind_pending_slot.ips).
 */
#define DUNWIND_WALK_SMALL	32

struct dunwind_walk {
	u64 *ips;			/* the walker's small array, or *@big */
	u64 **big;			/* the slot's array of @max, or NULL */
	struct dunwind_vma_memo *stack;	/* the slot's stack mapping */
	unsigned int nr;
	unsigned int cap;		/* room at @ips */
	unsigned int max;
	unsigned int nr_fp;
	unsigned int nr_sframe;
	u8 methods;
	u8 stop;
};

/*
 * Room for @max frames, once the small array is full: the slot's array,
 * allocated at its first deep walk.  Return: 0, or -ENOMEM.
 */
static int dunwind_walk_grow(struct dunwind_walk *w)
{
	if (!*w->big)
		*w->big = kmalloc_array(w->max, sizeof(u64), GFP_KERNEL_ACCOUNT);
	if (!*w->big)
		return -ENOMEM;
	memcpy(*w->big, w->ips, w->nr * sizeof(u64));
	w->ips = *w->big;
	w->cap = w->max;
	return 0;
}

/*
 * The answer to @cookie: a USER_STACK, or with the cookie's first sample
 * still stashed in @slot (DUNWIND_CFG_SAMPLE_STACK), one SAMPLE_STACK.
 */
static int dunwind_walk_record(struct dunwind_session *s, struct dunwind_pending_slot *slot,
			       u64 cookie, const struct dunwind_walk *w)
{
	struct dunwind_rec_user_stack rec = {};

	rec.hdr.type = DUNWIND_REC_USER_STACK;
	rec.hdr.size = dunwind_rec_user_stack_size(w->nr);
	rec.cookie = cookie;
	rec.pid = task_tgid_nr(current);
	rec.tid = task_pid_nr(current);
	rec.nr = w->nr;
	rec.methods = w->methods;
	rec.stop = w->stop;
	rec.nr_fp = w->nr_fp;
	rec.nr_sframe = w->nr_sframe;
	/* Full barrier: the stash was written before @stashed was set. */
	if (slot && atomic_xchg(&slot->stashed, 0))
		return dunwind_sample_stack_write(s, slot, &rec, w->ips);
	/* A SAMPLE_STACK carries its sample's time: only this reads the clock. */
	rec.time = ktime_get_mono_fast_ns();
	return dunwind_ring_write(&s->ring, &rec, sizeof(rec), w->ips, w->nr * sizeof(u64));
}

/**
 * dunwind_walk_emit_exited() - USER_STACK with no frames for a thread that
 * will not return to user space
 * @s:		session
 * @slot:	the cookie's pending slot (its stashed sample is written
 *		too), or NULL
 * @cookie:	the sample's cookie
 * @stop:	DUNWIND_STOP_EXITED, DUNWIND_STOP_NO_MM or DUNWIND_STOP_SESSION
 *
 * Context: any, including NMI.
 * Return: 0, or -ENOSPC if the record was dropped (counted as lost).
 */
int dunwind_walk_emit_exited(struct dunwind_session *s, struct dunwind_pending_slot *slot,
			     u64 cookie, u8 stop)
{
	struct dunwind_walk w = { .stop = stop };

	return dunwind_walk_record(s, slot, cookie, &w);
}

/* Bounds of the stack mapping that contains @sp: [*lo, *hi). */
static int dunwind_stack_bounds(struct mm_struct *mm, unsigned long sp,
				unsigned long *lo, unsigned long *hi)
{
	struct vm_area_struct *vma;
	int ret = -EFAULT;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = find_vma(mm, sp);
	if (vma && vma->vm_start <= sp) {
		*lo = vma->vm_start;
		*hi = vma->vm_end;
		ret = 0;
	}
	mmap_read_unlock(mm);
	return ret;
}

#define DUNWIND_MAX_RESTORERS	4
/*
 * A return address this close after an entry point returns into the entry
 * code: the program's _start, or the loader's (_start, _dl_start_user).
 */
#define DUNWIND_ENTRY_BYTES	64

/*
 * An iterator over the user frames of current, in the shape of the kernel's
 * for_each_user_frame(): start() yields the frame interrupted at kernel
 * entry, each next() the caller of the last one, until @done is set with
 * @stop saying why: DUNWIND_STOP_END only where the unwind information
 * marks the outermost frame (RA undefined, a zero-offset FRE), at the
 * program's or the loader's entry code, or at a new thread's first
 * instruction after clone.
 */
struct dunwind_unwind {
	unsigned long ip, sp, fp;
	bool exact;			/* @ip was interrupted, not a return address */
	bool done;
	bool last;			/* start() knew no caller can follow */
	bool sigframe;			/* rule() found a signal return trampoline */
	u8 stop;			/* enum dunwind_stop_reason, once @done */
	u8 method;			/* DUNWIND_UNWIND_* that found this frame; 0: first */
	unsigned long lo, hi;		/* the stack mapping that holds @sp */
	unsigned long restorer[DUNWIND_MAX_RESTORERS];
	unsigned int nr_restorers;
	bool restorers_read;		/* @restorer is filled in */
	unsigned int signals;		/* signal frames crossed */
	bool entries_read;		/* @entry and @ld_entry are filled in */
	unsigned long entry;		/* AT_ENTRY: the program's _start; 0 unknown */
	unsigned long ld_entry;		/* the loader's entry point; 0 unknown, none */
	bool barrier;			/* may stop for a file's verdict (table barrier) */
	u32 wait_dev;			/* stopped for the verdict on this file ... */
	u64 wait_ino;			/* ... (0: did not) */
	/*
	 * The frame's %rbx, followed as DWARF unwinders follow callee-saved
	 * registers, for a CFA rule "rbx + off" (ld.so's lazy-binding
	 * trampoline realigns its stack): DUNWIND_BX_*.
	 */
	u8 bx_state;
	unsigned long bx;		/* the value, or the user address that holds it */
	struct dunwind_session *s;
	struct pt_regs *regs;		/* at kernel entry */
	struct dunwind_vma_memo *stack;	/* the slot's stack mapping (dunwind_walk.stack) */
	struct dunwind_sframe_memo memo;	/* last: start() zeroes all before it */
};

#define DUNWIND_BX_LOST		0	/* unknown */
#define DUNWIND_BX_VALUE	1	/* @bx is the value */
#define DUNWIND_BX_AT		2	/* saved at user address @bx, read when needed */

#define dunwind_for_each_user_frame(st, s, regs, stack, barrier) \
	for (dunwind_unwind_start(st, s, regs, stack, barrier); !(st)->done; \
	     dunwind_unwind_next(st))

/* End the walk: @stop says why.  Return: false, for "no caller frame". */
static bool dunwind_unwind_end(struct dunwind_unwind *st, u8 stop)
{
	st->done = true;
	st->stop = stop;
	return false;
}

/*
 * The signal return trampolines this thread can return through: the
 * sa_restorer of every handled signal (x86_64 requires SA_RESTORER).
 *
 * Read without siglock (which every thread of the process would contend
 * for, with interrupts off, at every walk): current's sighand is only
 * replaced by its own exec, and a sigaction() that races with the read
 * can at worst make one return address be taken for a restorer or not,
 * as if the walk had run just before or after it.  A frame taken for a
 * signal frame is checked as any other (dunwind_unwind_signal()).
 */
static void dunwind_unwind_restorers(struct dunwind_unwind *st)
{
	const struct k_sigaction *action = current->sighand->action;
	unsigned int i, j;

	st->restorers_read = true;
	for (i = 0; i < _NSIG; i++) {
		const struct sigaction *sa = &action[i].sa;
		__sighandler_t handler = READ_ONCE(sa->sa_handler);
		unsigned long r;

		if (handler == SIG_DFL || handler == SIG_IGN ||
		    !(READ_ONCE(sa->sa_flags) & SA_RESTORER))
			continue;
		r = (unsigned long)READ_ONCE(sa->sa_restorer);
		for (j = 0; j < st->nr_restorers && st->restorer[j] != r; j++)
			;
		if (r && j == st->nr_restorers && j < DUNWIND_MAX_RESTORERS)
			st->restorer[st->nr_restorers++] = r;
	}
}

/* Is @st's return address a restorer?  They are read when first asked, once per walk. */
static bool dunwind_unwind_is_restorer(struct dunwind_unwind *st)
{
	unsigned int i;

	if (!st->restorers_read)
		dunwind_unwind_restorers(st);
	for (i = 0; i < st->nr_restorers; i++)
		if (st->ip == st->restorer[i])
			return true;
	return false;
}

/*
 * The x86_64 signal return trampolines of the C libraries: rt_sigreturn,
 * "mov $15, %rax; syscall" (glibc's __restore_rt) or "mov $15, %eax;
 * syscall".  None changes SP, so SP is at the ucontext at each of their
 * instructions, as for a handler's return address into them.
 */
static const u8 dunwind_sigreturn_q[] = { 0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f, 0x05 };
static const u8 dunwind_sigreturn_l[] = { 0xb8, 0x0f, 0, 0, 0, 0x0f, 0x05 };

static bool dunwind_unwind_code_is(unsigned long at, const u8 *code, size_t len)
{
	u8 buf[sizeof(dunwind_sigreturn_q)];

	return !copy_from_user(buf, (const void __user *)at, len) && !memcmp(buf, code, len);
}

/*
 * Is the frame at @st in a signal return trampoline that is no handled
 * signal's sa_restorer now (the handler was reset since), or interrupted
 * in one (an exact IP: the handler had just returned)?  Read from the
 * code, only where no table has a rule (the trampolines' CFI is a signal
 * frame's, which SFrame does not describe).
 * Context: task_work of current (may fault).
 */
static bool dunwind_unwind_at_sigreturn(const struct dunwind_unwind *st)
{
	const size_t q = sizeof(dunwind_sigreturn_q), l = sizeof(dunwind_sigreturn_l);

	if (dunwind_unwind_code_is(st->ip, dunwind_sigreturn_q, q) ||
	    dunwind_unwind_code_is(st->ip, dunwind_sigreturn_l, l))
		return true;
	/* Interrupted at the syscall, the mov done. */
	return st->exact && (dunwind_unwind_code_is(st->ip - (q - 2), dunwind_sigreturn_q, q) ||
			     dunwind_unwind_code_is(st->ip - (l - 2), dunwind_sigreturn_l, l));
}

/* An entry of the auxiliary vector; 0 if none. */
static unsigned long dunwind_unwind_auxv(struct mm_struct *mm, unsigned long type)
{
	unsigned int i;

	for (i = 0; i + 1 < ARRAY_SIZE(mm->saved_auxv) && mm->saved_auxv[i] != AT_NULL; i += 2)
		if (mm->saved_auxv[i] == type)
			return mm->saved_auxv[i + 1];
	return 0;
}

/*
 * The entry points where the process's first instruction can lie: the
 * program's (AT_ENTRY) and, for a dynamic program, the loader's (its ELF
 * header's e_entry, read from its image at AT_BASE).  Read when first
 * asked, once per walk: a walk that tables cover to its end never reads
 * them.
 * Context: task_work of current (may fault).
 */
static void dunwind_unwind_entries(struct dunwind_unwind *st)
{
	struct mm_struct *mm = current->mm;
	unsigned long base = dunwind_unwind_auxv(mm, AT_BASE), e_entry;

	st->entries_read = true;
	st->entry = dunwind_unwind_auxv(mm, AT_ENTRY);
	if (base && !get_user(e_entry, (const unsigned long __user *)
			      (base + offsetof(struct elf64_hdr, e_entry))))
		st->ld_entry = base + e_entry;
}

/*
 * A task on a new stack that has not run a user instruction of its own
 * yet (a thread, or posix_spawn()'s child): its registers are the
 * creator's at clone3(), or at clone() with a stack (rsi), with 0 in rax,
 * and its stack is the new, empty one.  The IP after the syscall is its
 * root, whatever the creator's CFI says there (it describes the creator's
 * stack).  fork() (clone without a stack) copies the creator's stack,
 * which unwinds as usual.  glibc uses clone3 only with a new stack.
 */
static bool dunwind_unwind_new_stack(const struct dunwind_unwind *st)
{
	const struct pt_regs *regs = st->regs;

	if (!st->exact || st->ip != regs->ip || st->sp != regs->sp || regs->ax)
		return false;
	return regs->orig_ax == __NR_clone3 || (regs->orig_ax == __NR_clone && regs->si);
}

static __always_inline bool dunwind_unwind_near(unsigned long pc, unsigned long entry)
{
	return entry && pc >= entry && pc - entry < DUNWIND_ENTRY_BYTES;
}

/* Is the frame at @st in the process's entry code (_start, the loader's)? */
static bool dunwind_unwind_at_entry(struct dunwind_unwind *st)
{
	unsigned long pc = st->exact ? st->ip : st->ip - 1;

	if (!st->entries_read)
		dunwind_unwind_entries(st);
	return dunwind_unwind_near(pc, st->entry) || dunwind_unwind_near(pc, st->ld_entry);
}

/*
 * Step through a signal frame: the handler returned to the restorer with
 * the ucontext at sp.  The interrupted registers come from its mcontext;
 * the next IP is exact, and may be on another stack (sigaltstack).
 */
static bool dunwind_unwind_signal(struct dunwind_unwind *st)
{
	const unsigned long mc = st->sp + offsetof(struct ucontext, uc_mcontext);
	struct sigcontext sc;

	if (st->signals++ >= 8)
		return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
	if (mc < st->sp || mc > st->hi || st->hi - mc < sizeof(sc))
		return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
	if (copy_from_user(&sc, (const void __user *)mc, sizeof(sc)))
		return dunwind_unwind_end(st, DUNWIND_STOP_FAULT);
	if (!sc.ip || sc.ip >= TASK_SIZE_MAX)
		return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
	st->ip = sc.ip;
	st->sp = sc.sp;
	st->fp = sc.bp;
	st->bx = sc.bx;
	st->bx_state = DUNWIND_BX_VALUE;
	st->exact = true;
	st->sigframe = false;
	if (dunwind_stack_bounds(current->mm, st->sp, &st->lo, &st->hi))
		return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
	st->method = 0;
	return true;
}

/*
 * The table barrier: is the frame at @st in an ELF file with no table, on
 * which the recorder has not given its verdict, and no walk waited for it
 * yet?  Then the walk stops here, to wait for it and walk again.
 */
static bool dunwind_unwind_barrier(struct dunwind_unwind *st)
{
	const struct dunwind_sframe_map *m;

	if (!st->barrier || !(st->s->cfg.flags & DUNWIND_CFG_TABLE_BARRIER))
		return false;
	m = dunwind_sframe_memo_find(&st->memo, st->exact ? st->ip : st->ip - 1);
	if (!m || m->state != DUNWIND_SMAP_NONE || !m->want_table ||
	    !dunwind_barrier_claim(&st->s->barrier, m->key.dev, m->key.ino))
		return false;
	st->wait_dev = m->key.dev;
	st->wait_ino = m->key.ino;
	return true;
}

/* The frame-pointer rule: CFA = FP + 16, RA at CFA - 8, the caller's FP at CFA - 16. */
static const struct dunwind_urule dunwind_fp_rule = {
	.cfa_fp = 1, .cfa_off = 16, .ra_off = -8, .fp_saved = 1, .fp_off = -16,
};

/*
 * The rule that recovers the caller of the frame at @st: SFrame (the
 * file's own or a registered table) where it covers the IP; frame pointers
 * for code in a mapping that has no table at all.  Return: true with
 * *@rule (the memo's, or the FP rule: valid until the next frame's) and
 * @st->method set, or false with the walk ended or, with @st->sigframe
 * set, at a signal return trampoline.
 */
static bool dunwind_unwind_rule(struct dunwind_unwind *st, const struct dunwind_urule **rule)
{
	int ret = -ENOENT;

	if (dunwind_unwind_new_stack(st))
		return dunwind_unwind_end(st, DUNWIND_STOP_END);
	if (!(st->s->cfg.flags & DUNWIND_CFG_FP_ONLY))
		ret = dunwind_sframe_rule(st->s, &st->memo, st->exact ? st->ip : st->ip - 1);
	if (ret == -EINTR)
		return dunwind_unwind_end(st, DUNWIND_STOP_FAULT);
	if (!ret) {
		*rule = &st->memo.rule;
		if ((*rule)->outermost)
			return dunwind_unwind_end(st, DUNWIND_STOP_END);
		st->method = DUNWIND_UNWIND_SFRAME;
		return true;
	}
	/*
	 * No rule here: the entry code (_start, which a program's own
	 * .sframe leaves out: crt1.o has none) is the root, and a handler's
	 * return address into a restorer is a signal frame.  Asked only now,
	 * so that a walk that tables cover never reads the entry points or
	 * the signal actions; the entry first, met at the end of such walks.
	 */
	if (dunwind_unwind_at_entry(st))
		return dunwind_unwind_end(st, DUNWIND_STOP_END);
	if (!st->exact && dunwind_unwind_is_restorer(st)) {
		st->sigframe = true;
		return false;
	}
	/* A table without a row: a signal trampoline's CFI, or none. */
	if (ret == -ENODATA && dunwind_unwind_at_sigreturn(st)) {
		st->sigframe = true;
		return false;
	}
	/* The file has a table, but not for this code: nothing recovers it. */
	if (ret == -ENODATA)
		return dunwind_unwind_end(st, DUNWIND_STOP_NO_INFO);
	/* No table yet: the recorder may be about to register one. */
	if (dunwind_unwind_barrier(st))
		return dunwind_unwind_end(st, DUNWIND_STOP_NO_INFO);
	/* rbp 0 is a root only where that is known (above); else no FP frame. */
	if (!st->fp)
		return dunwind_unwind_end(st, DUNWIND_STOP_NO_INFO);
	if (st->fp < st->sp)
		return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
	*rule = &dunwind_fp_rule;
	st->method = DUNWIND_UNWIND_FP;
	return true;
}

/*
 * Two adjacent words of user memory at @at, in one user access window (a
 * frame's saved FP and return address): copy_from_user() costs several
 * times as many instructions for 16 bytes.  Return: false on a fault.
 * Context: faultable.
 */
static bool dunwind_unwind_read_pair(unsigned long at, unsigned long *lo, unsigned long *hi)
{
	const unsigned long __user *p = (const unsigned long __user *)at;

	if (!user_access_begin(p, 2 * sizeof(*p)))
		return false;
	unsafe_get_user(*lo, p, fault);
	unsafe_get_user(*hi, p + 1, fault);
	user_access_end();
	return true;
fault:
	user_access_end();
	return false;
}

/*
 * The frame's %rbx, for a CFA based on it, read now if a callee saved it.
 * Return: true with *@bx set, false if it is not known.
 */
static bool dunwind_unwind_bx(struct dunwind_unwind *st, unsigned long *bx)
{
	if (st->bx_state == DUNWIND_BX_AT) {
		if (get_user(*bx, (const unsigned long __user *)st->bx))
			return false;
		st->bx = *bx;
		st->bx_state = DUNWIND_BX_VALUE;
	}
	*bx = st->bx;
	return st->bx_state == DUNWIND_BX_VALUE;
}

/*
 * The caller's %rbx by @rule (a frame of CFA @cfa): unchanged, or at a
 * slot of this frame, remembered and read only if a CFA needs it; a slot
 * below SP in the interrupted frame was popped already (as for FP).
 */
static void dunwind_unwind_next_bx(struct dunwind_unwind *st, const struct dunwind_urule *rule,
				   unsigned long cfa)
{
	unsigned long at = cfa + (long)rule->rbx_off;

	if (rule->rbx == DUNWIND_RBX_KEPT || (rule->rbx == DUNWIND_RBX_SAVED && st->exact &&
					      at < st->sp))
		return;
	if (rule->rbx != DUNWIND_RBX_SAVED || at < st->sp || at > cfa - sizeof(long)) {
		st->bx_state = DUNWIND_BX_LOST;
		return;
	}
	st->bx = at;
	st->bx_state = DUNWIND_BX_AT;
}

/*
 * One frame: the caller's IP, SP and FP by the rule for the current IP.
 * The CFA must be 8-byte aligned, strictly above SP and inside the stack
 * mapping; the slots read lie below the CFA and at or above SP (a saved
 * rbp slot below SP in the interrupted frame was popped already: rbp kept).
 */
static bool dunwind_unwind_step(struct dunwind_unwind *st)
{
	const struct dunwind_urule *rule;
	unsigned long cfa, lo_addr, ra, fp, base = st->sp;
	bool fp_popped;

	if (!dunwind_unwind_rule(st, &rule))
		return st->sigframe && dunwind_unwind_signal(st);
	if (rule->cfa_fp)
		base = st->fp;
	else if (rule->cfa_rbx && !dunwind_unwind_bx(st, &base))
		return dunwind_unwind_end(st, DUNWIND_STOP_NO_INFO);
	cfa = base + (long)rule->cfa_off;
	if (cfa & (sizeof(long) - 1) || cfa <= st->sp || cfa > st->hi)
		return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);

	lo_addr = cfa + (long)rule->ra_off;
	/*
	 * In an epilogue after 'pop %rbp' the CFI still names rbp's slot
	 * (compilers emit no restore for it), now below SP: rbp holds the
	 * caller's value again.  Only where the IP is exact (the interrupted
	 * frame, a signal's): a caller stands at a call, where nothing was
	 * popped.
	 */
	fp_popped = rule->fp_saved && st->exact && cfa + (long)rule->fp_off < st->sp;
	if (rule->fp_saved && !fp_popped && rule->fp_off == rule->ra_off - 8) {
		lo_addr -= 8;
		if (lo_addr < st->sp || lo_addr > cfa - 2 * sizeof(long))
			return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
		if (!dunwind_unwind_read_pair(lo_addr, &fp, &ra))
			return dunwind_unwind_end(st, DUNWIND_STOP_FAULT);
	} else {
		if (lo_addr < st->sp || lo_addr > cfa - sizeof(long))
			return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
		if (get_user(ra, (const unsigned long __user *)lo_addr))
			return dunwind_unwind_end(st, DUNWIND_STOP_FAULT);
		fp = st->fp;
		if (rule->fp_saved && !fp_popped) {
			unsigned long at = cfa + (long)rule->fp_off;

			if (at < st->sp || at > cfa - sizeof(long))
				return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
			if (get_user(fp, (const unsigned long __user *)at))
				return dunwind_unwind_end(st, DUNWIND_STOP_FAULT);
		}
	}
	/* A zero or kernel return address is no frame: roots end above. */
	if (!ra || ra >= TASK_SIZE_MAX)
		return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
	dunwind_unwind_next_bx(st, rule, cfa);
	st->ip = ra;
	st->sp = cfa;
	st->fp = fp;
	st->exact = false;
	return true;
}

/*
 * The stack mapping, and the mapping of the first frame's IP into the
 * walk's memo: from the slot's memo (the stack) and the session's mapping
 * cache when the process's mappings did not change since a walk saw them,
 * else under one mmap lock (the lock and the tree walks are a good part
 * of a short walk's cost).  Return: 0, or -errno with no stack mapping
 * known.
 */
static int dunwind_unwind_first_vmas(struct dunwind_unwind *st)
{
	const bool want_ip = !(st->s->cfg.flags & DUNWIND_CFG_FP_ONLY);
	struct mm_struct *mm = current->mm;
	struct dunwind_sframe_map found = {};
	struct dunwind_vma_key stack;
	struct vm_area_struct *vma;
	unsigned long ehdr = 0;
	bool have_ip = false;
	int ret = -EFAULT;

	if (dunwind_vma_memo_find(st->stack, mm, st->sp)) {
		stack.start = st->stack->start;
		stack.end = st->stack->end;
	} else if (!dunwind_vma_cache_find(&st->s->vmas, mm, st->sp, &stack)) {
		stack.end = 0;
	}
	if (stack.end && (!want_ip || dunwind_sframe_memo_vma_cached(st->s, mm, st->ip, &found))) {
		st->lo = stack.start;
		st->hi = stack.end;
		if (want_ip)
			dunwind_sframe_memo_add(st->s, &st->memo, &found, 0);
		return 0;
	}
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = find_vma(mm, st->sp);
	if (vma && vma->vm_start <= st->sp) {
		st->lo = vma->vm_start;
		st->hi = vma->vm_end;
		dunwind_vma_key(vma, &stack);
		dunwind_vma_cache_add(&st->s->vmas, mm, &stack);
		dunwind_vma_memo_set(st->stack, mm, &stack);
		ret = 0;
	}
	if (!ret && want_ip)
		have_ip = !dunwind_sframe_memo_vma(st->s, mm, st->ip, &found, &ehdr);
	mmap_read_unlock(mm);
	if (have_ip)
		dunwind_sframe_memo_add(st->s, &st->memo, &found, ehdr);
	return ret;
}

/**
 * dunwind_unwind_start() - the frame interrupted at current's kernel entry
 * @st:		iterator state, filled here
 * @s:		session (its caches and configuration)
 * @regs:	current's user registers
 * @stack:	the walk's slot's stack mapping memo
 * @barrier:	may stop at a file without a table for the recorder's verdict
 *
 * Context: task_work of current (may sleep and fault).
 */
static void dunwind_unwind_start(struct dunwind_unwind *st, struct dunwind_session *s,
				 struct pt_regs *regs, struct dunwind_vma_memo *stack, bool barrier)
{
	/* The memo's arrays are large and read only below its counts. */
	memset(st, 0, offsetof(struct dunwind_unwind, memo));
	dunwind_sframe_memo_init(&st->memo);
	st->s = s;
	st->barrier = barrier;
	st->regs = regs;
	st->stack = stack;
	st->ip = regs->ip;
	st->sp = regs->sp;
	st->fp = regs->bp;
	st->bx = regs->bx;
	st->bx_state = DUNWIND_BX_VALUE;
	st->exact = true;
	if (dunwind_unwind_first_vmas(st)) {
		/* Still one frame: the IP is known. */
		st->last = true;
		st->stop = DUNWIND_STOP_BAD_FRAME;
	}
}

/**
 * dunwind_unwind_next() - move @st to the caller of its frame
 * @st:		iterator state; sets @st->done and @st->stop when there is none
 *
 * Context: task_work of current (may sleep and fault).
 */
static void dunwind_unwind_next(struct dunwind_unwind *st)
{
	if (st->done)
		return;
	if (st->last) {
		dunwind_unwind_end(st, st->stop);
		return;
	}
	dunwind_unwind_step(st);
}

/**
 * dunwind_cycles_ns() - TSC cycles counted by the walk as nanoseconds
 * @cycles:	a sum of get_cycles() differences
 *
 * Context: any.
 * Return: @cycles in ns at the boot CPU's TSC rate; 0 if it is unknown.
 */
u64 dunwind_cycles_ns(u64 cycles)
{
	return tsc_khz ? mul_u64_u32_div(cycles, NSEC_PER_MSEC, tsc_khz) : 0;
}

/* Cycles since @c0, 0 if the TSC went back (a move to another CPU). */
static u64 dunwind_cycles_since(u64 c0, u64 now)
{
	return (s64)(now - c0) > 0 ? now - c0 : 0;
}

/*
 * dunwind_walk_fast()'s loop, for one rule and with @fp_only a constant
 * (each caller gets its own copy): the rule's fields stay in registers.
 * In --fp-only walks each frame is first checked as dunwind_unwind_rule()
 * checks it before choosing frame pointers: no restorer, no entry code,
 * FP above SP.
 *
 * dunwind_unwind_step()'s bounds, with the rule's offsets fixed: a slot at
 * CFA + off lies in [SP, CFA - 8] when off <= -8 (checked once, before the
 * loop; a rule that fails it is the step's) and CFA - SP >= -off.  So a
 * frame needs only an aligned CFA with CFA - SP >= @dmin, the largest such
 * distance, and CFA <= the stack's end (so that CFA - SP cannot wrap).
 * Return: true if it stopped only at a frame the rule does not cover.
 */
static __always_inline bool dunwind_walk_fast_loop(struct dunwind_unwind *st,
						   const struct dunwind_urule *rule,
						   bool fp_only, u64 *ips,
						   unsigned int *nrp, unsigned int cap)
{
	/* lo <= PC < hi as one compare: PC - lo < hi - lo (an empty range holds none). */
	const unsigned long pc_lo = rule->pc_lo, pc_len = rule->pc_hi - rule->pc_lo;
	const unsigned long hi = st->hi;
	const long cfa_off = rule->cfa_off, ra_off = rule->ra_off;
	const long fp_off = rule->fp_off, rbx_off = rule->rbx_off;
	const long dmin = max(-ra_off, rule->fp_saved ? -fp_off : 0);
	const bool cfa_fp = rule->cfa_fp, fp_saved = rule->fp_saved;
	const unsigned long *restorers = st->restorer;
	const unsigned long *restorers_end = restorers +
		min_t(unsigned int, st->nr_restorers, DUNWIND_MAX_RESTORERS);
	const unsigned long entry = st->entry, ld_entry = st->ld_entry;
	unsigned long ip = st->ip, sp = st->sp, fp = st->fp;
	unsigned int nr = *nrp;
	bool other_rule = false;
	long d = 0;		/* the last frame's CFA - SP */

	if (ra_off > -(long)sizeof(long) || (fp_saved && fp_off > -(long)sizeof(long)))
		return false;
	while (nr < cap) {
		unsigned long cfa, ra, caller_fp = fp;
		const unsigned long *r;
		long cfa_d;

		if (fp_only) {
			/* By pointer: no array bounds check (a call) in the window. */
			for (r = restorers; r < restorers_end && *r != ip; r++)
				;
			if (r < restorers_end || dunwind_unwind_near(ip - 1, entry) ||
			    dunwind_unwind_near(ip - 1, ld_entry) || !fp || fp < sp)
				break;
		} else if (ip - 1 - pc_lo >= pc_len) {
			other_rule = true;
			break;
		}
		cfa = (cfa_fp ? fp : sp) + cfa_off;
		cfa_d = cfa - sp;
		if (cfa & (sizeof(long) - 1) || cfa > hi || cfa_d < dmin)
			break;
		unsafe_get_user(ra, (const unsigned long __user *)(cfa + ra_off), fault);
		if (fp_saved)
			unsafe_get_user(caller_fp, (const unsigned long __user *)(cfa + fp_off),
					fault);
		/* Neither 0 nor a kernel address, in one compare. */
		if (ra - 1 >= TASK_SIZE_MAX - 1)
			break;
		ips[nr++] = ra;
		ip = ra;
		sp = cfa;
		fp = caller_fp;
		d = cfa_d;
	}
	/* A fault leaves the frame to the full step, which says so. */
fault:
	if (nr == *nrp)
		return other_rule;
	st->ip = ip;
	st->sp = sp;
	st->fp = fp;
	*nrp = nr;
	/*
	 * %rbx as dunwind_unwind_next_bx() leaves it after each caller frame:
	 * with one rule for the run, the last frame's step decides (kept,
	 * lost, or saved at CFA + rbx_off if that slot lies in its frame).
	 */
	if (rule->rbx == DUNWIND_RBX_SAVED && rbx_off <= -(long)sizeof(long) && d >= -rbx_off) {
		st->bx = sp + rbx_off;
		st->bx_state = DUNWIND_BX_AT;
	} else if (rule->rbx != DUNWIND_RBX_KEPT) {
		st->bx_state = DUNWIND_BX_LOST;
	}
	return other_rule;
}

/**
 * dunwind_walk_fast() - the callers of @st's frame that a rule at hand
 * recovers, in one user access window
 * @st:		iterator at a caller frame (not exact), already in @w
 * @w:		the walk, filled up to its room (@w->cap)
 *
 * Once a process's tables and rules are cached, a walk is mostly frames
 * whose rule is at hand: the last frame's SFrame rule (every level of a
 * recursion), another rule in the session's cache for a mapping the walk
 * already met (dunwind_sframe_rule_cached()), or frame pointers in an
 * --fp-only walk.  They are walked here, runs of frames of one rule with
 * the stack opened for user access once, with no per-frame timing; each
 * frame is checked exactly as dunwind_unwind_step() checks it.  At the
 * first frame it cannot take (a rule not cached, a bound, a fault, a
 * root) it stops with @st at the last frame it stored, and the full step
 * takes over from there, ending the walk where it must.
 *
 * Not inlined: dunwind_walk_once()'s frame (the iterator and its memo)
 * would pass 2 KiB on KASAN kernels.
 *
 * Context: task_work of current (may fault).
 * Return: the frames added to @w.
 */
static noinline unsigned int dunwind_walk_fast(struct dunwind_unwind *st, struct dunwind_walk *w)
{
	const bool fp_only = st->s->cfg.flags & DUNWIND_CFG_FP_ONLY;
	const struct dunwind_urule *rule = &st->memo.rule;
	const unsigned int nr0 = w->nr;

	if (st->exact || st->done || st->last || w->nr >= w->cap)
		return 0;
	if (fp_only) {
		/* The table barrier looks in the memo, which --fp-only leaves empty. */
		if (st->memo.nr)
			return 0;
		/* Every frame pointer step checks both (dunwind_unwind_rule()). */
		if (!st->restorers_read)
			dunwind_unwind_restorers(st);
		if (!st->entries_read)
			dunwind_unwind_entries(st);
		if (!user_access_begin((const void __user *)st->sp, st->hi - st->sp))
			return 0;
		dunwind_walk_fast_loop(st, &dunwind_fp_rule, true, w->ips, &w->nr, w->cap);
		user_access_end();
	} else {
		bool more = true;

		while (more) {
			/* The rule for this frame: the last one's, or one cached. */
			if ((st->ip - 1 < rule->pc_lo || st->ip - 1 >= rule->pc_hi) &&
			    !dunwind_sframe_rule_cached(st->s, &st->memo, st->ip - 1))
				break;
			if (rule->outermost || rule->cfa_rbx ||
			    !user_access_begin((const void __user *)st->sp, st->hi - st->sp))
				break;
			more = dunwind_walk_fast_loop(st, rule, false, w->ips, &w->nr, w->cap);
			user_access_end();
		}
	}
	if (w->nr != nr0)
		st->method = fp_only ? DUNWIND_UNWIND_FP : DUNWIND_UNWIND_SFRAME;
	return w->nr - nr0;
}

/*
 * Walk from the user registers saved at kernel entry, frame by frame, into
 * @w (emptied first); *@wait_ino non-zero: stopped by the table barrier
 * at that file (and *@wait_dev).  Each frame is timed with the TSC, which is one
 * instruction to read where local_clock() is dozens (a deep walk read it
 * twice per frame).
 */
static void dunwind_walk_once(struct dunwind_session *s, struct pt_regs *regs,
			      struct dunwind_walk *w, bool barrier, u32 *wait_dev, u64 *wait_ino)
{
	/* dunwind_unwind_start() zeroes it: not twice (CONFIG_INIT_STACK_ALL_ZERO). */
	struct dunwind_unwind st __uninitialized;
	u64 c0 = get_cycles(), now;
	unsigned int nr;

	w->nr = 0;
	w->nr_fp = 0;
	w->nr_sframe = 0;
	w->methods = 0;
	w->stop = DUNWIND_STOP_MAX_DEPTH;
	dunwind_for_each_user_frame(&st, s, regs, w->stack, barrier) {
		if (w->nr == w->max)
			break;
		if (w->nr == w->cap && dunwind_walk_grow(w)) {
			w->stop = DUNWIND_STOP_FAULT;	/* no memory for more frames */
			break;
		}
		w->ips[w->nr++] = st.ip;
		/*
		 * This frame, then the callers the fast loop adds after it,
		 * all by the method that found it (the fast loop takes only
		 * the rule that found the frame before): timed together.
		 */
		nr = 1 + dunwind_walk_fast(&st, w);
		w->methods |= st.method;
		now = get_cycles();
		if (st.method == DUNWIND_UNWIND_FP) {
			w->nr_fp += nr;
			dunwind_count(s, DW_CNT_FP_CYCLES, dunwind_cycles_since(c0, now));
		} else if (st.method == DUNWIND_UNWIND_SFRAME) {
			w->nr_sframe += nr;
			dunwind_count(s, DW_CNT_SFRAME_CYCLES, dunwind_cycles_since(c0, now));
		}
		c0 = now;
	}
	if (st.done)
		w->stop = st.stop;
	/* Before the stack, so readers know its mappings first. */
	dunwind_mmap_report(s, &st.memo, w->ips, w->nr);
	*wait_dev = st.wait_dev;
	*wait_ino = st.wait_ino;
}

/*
 * dunwind_walk_unwait() - take @waited ns, which the thread spent on a run
 * queue during one dunwind_walk_once(), out of the per-frame counters
 * @s:		session
 * @waited:	the thread's run-queue waits over the walk, in ns (not 0)
 * @fp0:	DW_CNT_FP_CYCLES before the walk
 * @sf0:	DW_CNT_SFRAME_CYCLES before the walk
 *
 * A preempted walk's wait fell into the frame it was recovering, whose
 * method's counter grew the most meanwhile (the wait dwarfs a frame's own
 * cost).  Never more than that counter grew, so it cannot go below zero.
 * Context: task_work of the walked thread.
 */
static void dunwind_walk_unwait(struct dunwind_session *s, u64 waited, u64 fp0, u64 sf0)
{
	u64 fp = atomic64_read(&s->cnt[DW_CNT_FP_CYCLES]) - fp0;
	u64 sf = atomic64_read(&s->cnt[DW_CNT_SFRAME_CYCLES]) - sf0;
	u64 cycles = mul_u64_u32_div(waited, tsc_khz, NSEC_PER_MSEC);

	if (fp > sf)
		dunwind_count(s, DW_CNT_FP_CYCLES, -min(cycles, fp));
	else
		dunwind_count(s, DW_CNT_SFRAME_CYCLES, -min(cycles, sf));
}

/*
 * Files one walk may wait for (the table barrier), each once per
 * session: a stack through more libraries mapped just now is walked as
 * without the barrier past them.
 */
#define DUNWIND_WALK_BARRIERS	4

/*
 * Walk current's user stack into @w.  A walk stopped by the table barrier
 * at a file has written the MMAP records of its frames (the recorder is
 * woken for them); it waits for the recorder's verdict on that file and
 * walks again from the start: the registers and the stack are those of
 * the sample still, since the thread runs no user code meanwhile.
 */
static void dunwind_walk_frames(struct dunwind_session *s, struct pt_regs *regs,
				struct dunwind_walk *w)
{
	unsigned int round;
	u32 dev;
	u64 ino;

	might_fault();
	for (round = 0; ; round++) {
		u64 fp0 = atomic64_read(&s->cnt[DW_CNT_FP_CYCLES]);
		u64 sf0 = atomic64_read(&s->cnt[DW_CNT_SFRAME_CYCLES]);
		u64 delay = dunwind_task_run_delay(current), waited;

		dunwind_walk_once(s, regs, w, round < DUNWIND_WALK_BARRIERS, &dev, &ino);
		waited = dunwind_task_run_delay(current) - delay;
		if (waited)
			dunwind_walk_unwait(s, waited, fp0, sf0);
		if (!ino)
			break;
		dunwind_barrier_wait(s, dev, ino);
	}
	dunwind_count(s, DW_CNT_FP_FRAMES, w->nr_fp);
	dunwind_count(s, DW_CNT_SFRAME_FRAMES, w->nr_sframe);
}

/*
 * The walk of @slot's cookie, timed with the TSC (one instruction, where
 * local_clock() is dozens).
 */
static void dunwind_walk_user(struct dunwind_session *s, struct dunwind_pending_slot *slot)
{
	u64 cookie = slot->cookie, exec_id = slot->exec_id;
	struct dunwind_walk w = {
		.max = s->cfg.max_user_frames, .big = &slot->ips, .stack = &slot->stack,
	};
	/* Read only below @w.nr: not zeroed (CONFIG_INIT_STACK_ALL_ZERO). */
	u64 small[DUNWIND_WALK_SMALL] __uninitialized;
	struct dunwind_oncpu t0;

	dunwind_oncpu_start(&t0);
	/* An exec since the sample: the sampled image is gone. */
	if ((current->flags & PF_EXITING) || READ_ONCE(current->self_exec_id) != exec_id) {
		w.stop = DUNWIND_STOP_EXITED;
	} else if (!current->mm) {
		w.stop = DUNWIND_STOP_NO_MM;
	} else {
		/* A slot that walked deep before has room for any walk. */
		w.ips = slot->ips ? slot->ips : small;
		w.cap = slot->ips ? w.max : min_t(unsigned int, w.max, ARRAY_SIZE(small));
		dunwind_walk_frames(s, task_pt_regs(current), &w);
	}
	dunwind_walk_record(s, slot, cookie, &w);
	dunwind_count(s, DW_CNT_WALKS, 1);
	dunwind_count(s, DW_CNT_USER_FRAMES, w.nr);
	/* Not the time other threads ran while the walk was preempted. */
	dunwind_count(s, DW_CNT_WALK_NS, dunwind_oncpu_since(&t0));
}

/**
 * dunwind_walk_work() - task_work callback: walk and emit one USER_STACK
 * @work:	the callback_head in the box of the thread's pending slot
 *
 * The walk answers the slot's cookie only if it takes the slot while it is
 * still owed (DUNWIND_SLOT_QUEUED); a walk that runs after STOP or close
 * answered it emits nothing and touches nothing but its slot.
 *
 * Context: task_work of the sampled thread, on return to user space or in
 * do_exit() (PF_EXITING, no mm): may sleep and fault.
 */
void dunwind_walk_work(struct callback_head *work)
{
	struct dunwind_walk_box *box = container_of(work, struct dunwind_walk_box, work);
	struct dunwind_pending_slot *slot;
	struct dunwind_session *s;

	/*
	 * Close left this walk behind (dunwind_walk_detach()) after we read
	 * the callback: free the box and leave without sleeping, which
	 * dunwind_exit()'s synchronize_rcu_tasks() waits for.
	 */
	if (atomic_cmpxchg(&box->taken, 0, 1)) {
		/*
		 * Close claimed the box; its last store to it is the new
		 * callback (preemption off in between): wait for that store
		 * before freeing, so close never writes to a freed box.
		 */
		while (READ_ONCE(box->work.func) != DUNWIND_TASK_WORK_KFREE)
			cpu_relax();
		kfree(box);
		return;
	}
	slot = box->slot;
	s = slot->session;
	down_read(&s->walk_sem);
	if (dunwind_pending_move(slot, DUNWIND_SLOT_QUEUED, DUNWIND_SLOT_WALKING)) {
		dunwind_walk_user(s, slot);
		atomic_set(&slot->state, DUNWIND_SLOT_DONE);
	}
	up_read(&s->walk_sem);
	/* Samples until here shared the cookie; the next stay gets a new one. */
	dunwind_pending_release(&s->pending, slot);
	atomic_dec(&s->nr_queued);
	/*
	 * Close waits for @nr_queued to drop (dunwind_walk_drain()); no one
	 * else sleeps there.  The full barrier orders the decrement before
	 * the check, and pairs with the one in the waiter's
	 * set_current_state().
	 */
	if (wq_has_sleeper(&s->drain_wq))
		wake_up(&s->drain_wq);
	dunwind_session_put(s);
	/*
	 * The module reference taken when the walk was queued goes last.
	 * Only this function's epilogue runs after it, which dunwind_exit()
	 * waits for with synchronize_rcu_tasks().
	 */
	module_put(THIS_MODULE);
}

/**
 * dunwind_walk_end_session() - answer every cookie still owed, and wait
 * for the walks that are writing theirs
 * @s:	session, its overflow handlers stopped (no new slot is queued)
 *
 * A thread that sleeps in the kernel does not run its walk until it wakes:
 * its cookie is answered here, with no frames and stop reason SESSION,
 * and its late walk emits nothing.  When this returns, no walk writes to
 * the ring any more.
 *
 * Context: ioctl or release (may sleep), session lock held.
 */
void dunwind_walk_end_session(struct dunwind_session *s)
{
	struct dunwind_pending *p = &s->pending;
	u32 i;

	lockdep_assert_held(&s->lock);
	for (i = 0; i <= p->mask; i++) {
		struct dunwind_pending_slot *slot = &p->slots[i];

		/* 6.1: an NMI's bounce still to add its walk (a no-op if none). */
		if (DUNWIND_NMI_BOUNCE)
			irq_work_sync(&slot->bounce);
		/* Full barrier on success: @cookie was set before QUEUED. */
		if (dunwind_pending_move(slot, DUNWIND_SLOT_QUEUED, DUNWIND_SLOT_ANSWERED)) {
			dunwind_walk_emit_exited(s, slot, slot->cookie, DUNWIND_STOP_SESSION);
			dunwind_count(s, DW_CNT_WALKS, 1);
		}
		if (!(i & 1023))
			cond_resched();
	}
	/* Walks that took their slot before us hold walk_sem until written. */
	down_write(&s->walk_sem);
	up_write(&s->walk_sem);
}

/*
 * dunwind_walk_kick() - close's task_work on a thread with a walk queued
 *
 * Nothing to do: being added with TWA_SIGNAL woke the thread from an
 * interruptible sleep, so that its walk (queued earlier) runs now and
 * gives back the session and the module.
 *
 * Context: task_work of the thread.
 */
static void dunwind_walk_kick(struct callback_head *kick)
{
	struct dunwind_pending_slot *slot = container_of(kick, struct dunwind_pending_slot, kick);

	dunwind_session_put(slot->session);
	/* Last, as in dunwind_walk_work(). */
	module_put(THIS_MODULE);
}

/* How long close waits for woken threads to run their late walks. */
#define DUNWIND_DRAIN_JIFFIES	(2 * HZ)

/**
 * dunwind_walk_drain() - let the late walks run, so that nothing stays pinned
 * @s:	session, after dunwind_walk_end_session(), being closed
 *
 * Wakes every thread that still has a walk queued (TWA_SIGNAL, as io_uring
 * does: an interruptible sleep is interrupted and its system call restarts)
 * and waits, at most DUNWIND_DRAIN_JIFFIES, for those walks to run and
 * release the session and the module.  A thread that is stopped or sleeps
 * uninterruptibly keeps both until it runs.
 *
 * Context: release (may sleep), session lock held.
 */
void dunwind_walk_drain(struct dunwind_session *s)
{
	struct dunwind_pending *p = &s->pending;
	int self = 0;
	u32 i;

	lockdep_assert_held(&s->lock);
	for (i = 0; i <= p->mask; i++) {
		struct dunwind_pending_slot *slot = &p->slots[i];
		struct task_struct *task;

		/*
		 * A slot's thread cannot be freed while we read it under RCU:
		 * its walk clears @task before the thread exits, and a reader
		 * that began after the thread's reaping queued its final put
		 * sees that store.
		 */
		rcu_read_lock();
		task = READ_ONCE(slot->task);
		if (task == current)
			self++;		/* our own walk runs when we return */
		else if (task)
			get_task_struct(task);
		rcu_read_unlock();
		if (!task || task == current)
			continue;
		init_task_work(&slot->kick, dunwind_walk_kick);
		kref_get(&s->ref);
		__module_get(THIS_MODULE);
		if (task_work_add(task, &slot->kick, TWA_SIGNAL)) {
			/* Past its last task_work: its walk has run. */
			refcount_dec(&s->ref.refcount);	/* the file's reference remains */
			module_put(THIS_MODULE);
		}
		put_task_struct(task);
	}
	wait_event_timeout(s->drain_wq, atomic_read(&s->nr_queued) <= self,
			   DUNWIND_DRAIN_JIFFIES);
}

/**
 * dunwind_walk_detach() - leave the walks still queued behind, so that
 * nothing stays pinned
 * @s:	session, after dunwind_walk_end_session(), being closed
 *
 * A thread can stay in the kernel for seconds with its walk queued (a
 * large MAP_POPULATE, a sleep no signal interrupts), and task_work cannot
 * be taken back from a module.  Each such walk's callback becomes
 * kfree() of its box, which holds nothing of the session or the module:
 * the walk's references to both are dropped here, and the thread frees
 * the box whenever it runs its task_work.  A thread that read the old
 * callback first finds the box taken (dunwind_walk_work()).  Either way
 * the box is freed once, by its thread.
 *
 * Context: release (may sleep), session lock held.
 */
void dunwind_walk_detach(struct dunwind_session *s)
{
	struct dunwind_pending_slot *slot, *last = &s->pending.slots[s->pending.mask];

	lockdep_assert_held(&s->lock);
	for (slot = s->pending.slots; slot <= last; slot++) {
		struct dunwind_walk_box *box = slot->box;

		/* Free, or its walk took the box (it runs, or ran, and puts its own). */
		if (!READ_ONCE(slot->task))
			continue;
		/*
		 * The new callback is the last store to the box: once it is
		 * visible, or the walk sees the box claimed and waits for it,
		 * the thread may free the box.  Preemption off keeps that wait
		 * short.
		 */
		preempt_disable();
		if (atomic_cmpxchg(&box->taken, 0, 1)) {
			preempt_enable();
			continue;
		}
		slot->box = NULL;
		WRITE_ONCE(box->work.func, DUNWIND_TASK_WORK_KFREE);
		preempt_enable();
		atomic_dec(&s->nr_queued);
		refcount_dec(&s->ref.refcount);	/* the file's reference remains */
		module_put(THIS_MODULE);
	}
}
