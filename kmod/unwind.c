// SPDX-License-Identifier: GPL-2.0
/*
 * The user-unwind iterator: from the user registers saved at current's
 * kernel entry, frame by frame to the root, by the unwind information the
 * session has (SFrame: the file's own or a registered table; else frame
 * pointers), through signal frames, stopping with a reason
 * (enum dunwind_stop_reason).  Its state is struct dunwind_unwind
 * (kmod/unwind.h); its step, dunwind_step(), is shared with the fast path
 * (kmod/unwind_fast.c).  The architecture's part is in kmod/arch/.
 */
#include <linux/auxvec.h>
#include <linux/elf.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include "unwind.h"

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

/* End the walk: @stop says why.  Return: false, for "no caller frame". */
static bool dunwind_unwind_end(struct dunwind_unwind *st, u8 stop)
{
	st->done = true;
	st->stop = stop;
	return false;
}

/*
 * The sa_restorer of every handled signal that set SA_RESTORER, added to
 * @restorer[0..@nr) where it is not there yet.  Read without siglock
 * (which every thread of the process would contend for, with interrupts
 * off, at every walk): current's sighand is only replaced by its own
 * exec, and a sigaction() that races with the read can at worst make one
 * return address be taken for a restorer or not, as if the walk had run
 * just before or after it.  A frame taken for a signal frame is checked
 * as any other (dunwind_arch_sigframe()).  Return: the new count.
 */
static unsigned int dunwind_sa_restorers(unsigned long *restorer, unsigned int nr,
					 unsigned int max)
{
	const struct k_sigaction *action = current->sighand->action;
	unsigned int i, j;

	for (i = 0; i < _NSIG; i++) {
		const struct sigaction *sa = &action[i].sa;
		__sighandler_t handler = READ_ONCE(sa->sa_handler);
		unsigned long r;

		if (handler == SIG_DFL || handler == SIG_IGN ||
		    !(READ_ONCE(sa->sa_flags) & SA_RESTORER))
			continue;
		r = (unsigned long)READ_ONCE(sa->sa_restorer);
		for (j = 0; j < nr && restorer[j] != r; j++)
			;
		if (r && j == nr && j < max)
			restorer[nr++] = r;
	}
	return nr;
}

/*
 * The signal return trampolines this thread can return through: the
 * architecture's own (dunwind_arch_restorers()) and the handlers'; read
 * when first asked, once per walk.
 * Context: task_work of current.
 */
void dunwind_unwind_restorers(struct dunwind_unwind *st)
{
	unsigned int nr = dunwind_arch_restorers(st->restorer, DUNWIND_MAX_RESTORERS);

	/* The signal actions may change before the next walk: no replay. */
	dunwind_trace_poison(st->trace);
	st->restorers_read = true;
	st->nr_restorers = dunwind_sa_restorers(st->restorer, nr, DUNWIND_MAX_RESTORERS);
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
 * asked, once per walk (a walk that tables cover to its end never reads
 * them), and kept in the walk's memo, which the slot's next walk keeps
 * while the mappings have not changed.
 * Context: task_work of current (may fault).
 */
void dunwind_unwind_entries(struct dunwind_unwind *st)
{
	struct mm_struct *mm = current->mm;
	struct dunwind_sframe_memo *memo = st->memo;
	unsigned long base, e_entry, at;

	st->entries_read = true;
	if (memo->entries) {
		st->entry = memo->entry;
		st->ld_entry = memo->ld_entry;
		return;
	}
	base = dunwind_unwind_auxv(mm, AT_BASE);
	st->entry = dunwind_unwind_auxv(mm, AT_ENTRY);
	if (base) {
		at = base + offsetof(struct elf64_hdr, e_entry);
		if (get_user(e_entry, (const unsigned long __user *)at)) {
			dunwind_trace_poison(st->trace);
			return;		/* not kept: the next walk reads it again */
		}
		if (st->trace)
			dunwind_trace_read(st->trace, at, e_entry);
		st->ld_entry = base + e_entry;
	}
	memo->entry = st->entry;
	memo->ld_entry = st->ld_entry;
	memo->entries = true;
}

/* Is the frame at @st a new thread's first, at the root of its new stack? */
static bool dunwind_unwind_new_stack(const struct dunwind_unwind *st)
{
	return st->exact && dunwind_arch_new_stack(st->regs, st->ip, st->sp);
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
 * the ucontext at sp.  The interrupted registers come from it
 * (dunwind_arch_sigframe()); the next IP is exact, and may be on another
 * stack (sigaltstack).
 */
static bool dunwind_unwind_signal(struct dunwind_unwind *st)
{
	struct dunwind_uregs r;
	int ret;

	/* A signal frame's registers are many words: no replay. */
	dunwind_trace_poison(st->trace);
	if (st->signals++ >= 8)
		return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
	ret = dunwind_arch_sigframe(st->sp, st->fp, st->hi, &r);
	if (ret)
		return dunwind_unwind_end(st, ret == -EFAULT ? DUNWIND_STOP_FAULT :
					  DUNWIND_STOP_BAD_FRAME);
	st->ip = r.ip;
	st->sp = r.sp;
	st->fp = r.fp;
	st->aux = r.aux;
	st->aux_state = DUNWIND_AUX_VALUE;
	st->exact = true;
	st->sigframe = false;
	if (dunwind_stack_bounds(current->mm, st->sp, &st->lo, &st->hi))
		return dunwind_unwind_end(st, DUNWIND_STOP_BAD_FRAME);
	st->method = NULL;
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
	m = dunwind_sframe_memo_find(st->memo, st->exact ? st->ip : st->ip - 1);
	if (!m || m->state != DUNWIND_SMAP_NONE || !m->want_table ||
	    !dunwind_barrier_claim(&st->s->barrier, m->key.dev, m->key.ino))
		return false;
	st->wait_dev = m->key.dev;
	st->wait_ino = m->key.ino;
	return true;
}

static const struct dunwind_urule dunwind_fp_rule = DUNWIND_ARCH_FP_RULE;

/* The file's own .sframe (kmod/sframe.c). */
static int dunwind_unwind_sframe(struct dunwind_unwind *st, unsigned long pc,
				 const struct dunwind_urule **rule)
{
	*rule = &st->memo->rule;
	return dunwind_sframe_rule(st->s, st->memo, pc, DUNWIND_SMAP_OK);
}

/* A table the recorder registered for the file (kmod/registry.c). */
static int dunwind_unwind_registered(struct dunwind_unwind *st, unsigned long pc,
				     const struct dunwind_urule **rule)
{
	*rule = &st->memo->rule;
	return dunwind_sframe_rule(st->s, st->memo, pc, DUNWIND_SMAP_REG);
}

/*
 * Frame pointers, for code in a mapping that has no table at all.  FP 0
 * is a root only where that is known (the entry code); else no FP frame.
 */
static int dunwind_unwind_fp(struct dunwind_unwind *st, unsigned long pc,
			     const struct dunwind_urule **rule)
{
	if (!st->fp)
		return -ENODATA;
	if (st->fp < st->sp)
		return -EINVAL;
	*rule = &dunwind_fp_rule;
	return 0;
}

/*
 * The unwind methods, asked in this order for each frame.  The first that
 * knows the code at the PC (a table) answers it; the guesses (@guess)
 * only once the frame is known to be no root and no signal frame, and no
 * table covers its file.  An interpreter's frames would be one more
 * method that knows its code, before the tables.
 */
const struct dunwind_unwind_method dunwind_unwind_methods[DUNWIND_METHOD_NR] = {
	[DUNWIND_METHOD_SFRAME] = {
		.bit = DUNWIND_UNWIND_SFRAME, .cnt_frames = DW_CNT_SFRAME_FRAMES,
		.cnt_cycles = DW_CNT_SFRAME_CYCLES, .rule = dunwind_unwind_sframe,
	},
	[DUNWIND_METHOD_REGISTERED] = {
		.bit = DUNWIND_UNWIND_SFRAME, .cnt_frames = DW_CNT_SFRAME_FRAMES,
		.cnt_cycles = DW_CNT_SFRAME_CYCLES, .rule = dunwind_unwind_registered,
	},
	[DUNWIND_METHOD_FP] = {
		.bit = DUNWIND_UNWIND_FP, .cnt_frames = DW_CNT_FP_FRAMES,
		.cnt_cycles = DW_CNT_FP_CYCLES, .guess = true, .rule = dunwind_unwind_fp,
	},
};

#define DUNWIND_METHODS_END	(dunwind_unwind_methods + DUNWIND_METHOD_NR)

/*
 * Ask the methods that are (@guess) or are not guesses, in order, for the
 * rule for @pc.  Return: 0 with *@rule and @st->method set; -ENOENT if
 * none had one; the first other error (-ENODATA: the method's information
 * covers @pc but has no rule for it; -EINVAL: a bad frame; -EINTR).
 */
static int dunwind_unwind_ask(struct dunwind_unwind *st, unsigned long pc, bool guess,
			      const struct dunwind_urule **rule)
{
	const struct dunwind_unwind_method *m;
	int ret;

	for (m = dunwind_unwind_methods; m < DUNWIND_METHODS_END; m++) {
		if (m->guess != guess || !(st->allowed & m->bit))
			continue;
		ret = m->rule(st, pc, rule);
		if (ret == -ENOENT)
			continue;
		if (!ret)
			st->method = m;
		return ret;
	}
	return -ENOENT;
}

/*
 * Take @e, a table rule the slot's memo keeps, for the first frame, as
 * @memo->rule, unless the session does not allow its method.
 */
static bool dunwind_unwind_leaf_take(struct dunwind_unwind *st, const struct dunwind_urule *e,
				     const struct dunwind_urule **rule)
{
	const struct dunwind_unwind_method *m = dunwind_table_method(e);

	if (!(st->allowed & m->bit))
		return false;
	st->memo->rule = *e;
	*rule = &st->memo->rule;
	st->method = m;
	return true;
}

/*
 * The rule the slot's memo keeps for the first frame's @pc (struct
 * dunwind_sframe_memo: @leaves), as @memo->rule (the last frame's rule,
 * as the method's own lookup leaves it).  Return: true with *@rule and
 * @st->method set.
 */
static bool dunwind_unwind_leaf(struct dunwind_unwind *st, unsigned long pc,
				const struct dunwind_urule **rule)
{
	struct dunwind_sframe_memo *memo = st->memo;
	const struct dunwind_urule *e = memo->leaves;
	unsigned int i;

	if (!e || memo->leaves_gen != memo->rules_gen)
		return false;
	for (i = 0; i < DUNWIND_MEMO_LEAVES; i++, e++)
		if (pc >= e->pc_lo && pc < e->pc_hi)
			return dunwind_unwind_leaf_take(st, e, rule);
	return false;
}

/*
 * A first frame's rule among those the slot's memo keeps for return
 * addresses (struct dunwind_sframe_memo: @rules), by range: the row of a
 * function's body often holds its call sites too.  Asked where the
 * @leaves have none, before the methods (whose lookup of a PC not met
 * before reads the table: about 4,400 instructions for libc's merge).
 * Not where the memo was emptied since the last first frame was kept
 * (the mappings changed): the first frame is a walk's first lookup, so
 * none of its rules are kept yet.
 * Return: true with *@rule (@memo->rule) and @st->method set.
 */
static bool dunwind_unwind_leaf_kept(struct dunwind_unwind *st, unsigned long pc,
				     const struct dunwind_urule **rule)
{
	struct dunwind_sframe_memo *memo = st->memo;
	const struct dunwind_memo_rule *e = memo->rules;
	unsigned int i;

	if (!e || memo->leaves_gen != memo->rules_gen)
		return false;
	for (i = 0; i < DUNWIND_MEMO_RULES; i++, e++)
		if (e->gen == memo->rules_gen && !e->rule.nodata && pc >= e->rule.pc_lo &&
		    pc < e->rule.pc_hi)
			return dunwind_unwind_leaf_take(st, &e->rule, rule);
	return false;
}

/*
 * Keep @rule, a table's for the first frame (@st->method is the one its
 * kind names), in the slot's memo's @leaves.
 */
static void dunwind_unwind_leaf_put(struct dunwind_unwind *st, const struct dunwind_urule *rule)
{
	struct dunwind_sframe_memo *memo = st->memo;
	unsigned int i;

	if (!memo->leaves || st->method->guess || rule->pc_lo >= rule->pc_hi)
		return;
	/* The memo's rules were emptied since: so are its first frames'. */
	if (memo->leaves_gen != memo->rules_gen) {
		for (i = 0; i < DUNWIND_MEMO_LEAVES; i++)
			memo->leaves[i].pc_hi = memo->leaves[i].pc_lo = 0;
		memo->leaves_gen = memo->rules_gen;
		memo->next_leaf = 0;
	}
	i = memo->next_leaf % DUNWIND_MEMO_LEAVES;
	memo->leaves[i] = *rule;
	memo->next_leaf = i + 1;
}

/*
 * The rule that recovers the caller of the frame at @st, from the first
 * method that has one (dunwind_unwind_methods).  Return: true with *@rule
 * (valid until the next frame's) and @st->method set, or false with the
 * walk ended or, with @st->sigframe set, at a signal return trampoline.
 */
static bool dunwind_unwind_rule(struct dunwind_unwind *st, const struct dunwind_urule **rule)
{
	const unsigned long pc = st->exact ? st->ip : st->ip - 1;
	int ret;

	if (dunwind_unwind_new_stack(st))
		return dunwind_unwind_end(st, DUNWIND_STOP_END);
	if (st->exact && dunwind_unwind_leaf(st, pc, rule)) {
		ret = 0;
	} else if (st->exact && dunwind_unwind_leaf_kept(st, pc, rule)) {
		dunwind_unwind_leaf_put(st, *rule);
		ret = 0;
	} else {
		ret = dunwind_unwind_ask(st, pc, false, rule);
		if (!ret && st->exact)
			dunwind_unwind_leaf_put(st, *rule);
	}
	if (ret == -EINTR)
		return dunwind_unwind_end(st, DUNWIND_STOP_FAULT);
	if (!ret) {
		/* A table's rule for the first frame: where a walk from user mode replays. */
		if (st->exact && st->trace)
			dunwind_trace_first_rule(st->trace, (*rule)->pc_lo, (*rule)->pc_hi);
		if ((*rule)->outermost)
			return dunwind_unwind_end(st, DUNWIND_STOP_END);
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
	if (ret == -ENODATA) {
		/* Its code is read now: no replay. */
		dunwind_trace_poison(st->trace);
		/* A table without a row: a signal trampoline's CFI, or none. */
		if (dunwind_arch_at_sigreturn(st->ip, st->exact)) {
			st->sigframe = true;
			return false;
		}
		/* The file has a table, but not for this code: nothing recovers it. */
		return dunwind_unwind_end(st, DUNWIND_STOP_NO_INFO);
	}
	/* No table yet: the recorder may be about to register one. */
	if (dunwind_unwind_barrier(st))
		return dunwind_unwind_end(st, DUNWIND_STOP_NO_INFO);
	ret = dunwind_unwind_ask(st, pc, true, rule);
	if (!ret)
		return true;
	return dunwind_unwind_end(st, ret == -EINVAL ? DUNWIND_STOP_BAD_FRAME :
				  DUNWIND_STOP_NO_INFO);
}

/*
 * The frame's aux register, for a CFA based on it, read now if a callee
 * saved it.  Return: true with *@aux set, false if it is not known.
 */
static bool dunwind_unwind_aux(struct dunwind_unwind *st, unsigned long *aux)
{
	if (st->trace)
		st->trace->aux_used = true;
	if (st->aux_state == DUNWIND_AUX_AT) {
		/* Its address is the walk's, not the registers': not checked by a replay. */
		dunwind_trace_poison(st->trace);
		if (get_user(*aux, (const unsigned long __user *)st->aux))
			return false;
		st->aux = *aux;
		st->aux_state = DUNWIND_AUX_VALUE;
	}
	*aux = st->aux;
	return st->aux_state == DUNWIND_AUX_VALUE;
}

/*
 * The caller's aux register by @rule (a frame of CFA @cfa): unchanged, or
 * at a slot of this frame, remembered and read only if a CFA needs it; a
 * slot below SP in the interrupted frame was popped already (as for FP).
 */
static void dunwind_unwind_next_aux(struct dunwind_unwind *st, const struct dunwind_urule *rule,
				    unsigned long cfa)
{
	unsigned long at = cfa + (long)rule->aux_off;

	if (rule->aux == DUNWIND_RULE_AUX_KEPT ||
	    (rule->aux == DUNWIND_RULE_AUX_SAVED && st->exact && at < st->sp))
		return;
	if (rule->aux != DUNWIND_RULE_AUX_SAVED || at < st->sp || at > cfa - sizeof(long)) {
		st->aux_state = DUNWIND_AUX_LOST;
		return;
	}
	st->aux = at;
	st->aux_state = DUNWIND_AUX_AT;
}

/*
 * One frame: the caller's IP, SP and FP by the rule for the current IP
 * (dunwind_step(), whose checks the fast path makes too).
 */
static bool dunwind_unwind_step(struct dunwind_unwind *st)
{
	struct dunwind_frame f = { .ip = st->ip, .sp = st->sp, .fp = st->fp };
	const struct dunwind_urule *rule;
	unsigned long base = st->sp, lr = 0;
	u8 stop;

	if (!dunwind_unwind_rule(st, &rule))
		return st->sigframe && dunwind_unwind_signal(st);
	if (rule->cfa_fp)
		base = st->fp;
	else if (rule->cfa_aux && !dunwind_unwind_aux(st, &base))
		return dunwind_unwind_end(st, DUNWIND_STOP_NO_INFO);
	if (!rule->ra_aux)
		stop = dunwind_step(rule, &f, base, st->hi, st->exact, false, st->trace, false);
	else if (dunwind_unwind_aux(st, &lr))
		stop = dunwind_step_lr(rule, &f, base, st->hi, st->exact, lr, st->trace);
	else
		stop = DUNWIND_STOP_NO_INFO;
	/*
	 * A link register of 0 at the entry code is the root (AAPCS64: the
	 * outermost frame's LR is 0; exec starts with x30 = 0), even where
	 * the code's CFI marks the root only from a later instruction
	 * (glibc's ld.so _start).  Asked only of a step that failed so.
	 */
	if (stop == DUNWIND_STOP_BAD_FRAME && rule->ra_aux && !lr && st->exact &&
	    dunwind_unwind_at_entry(st))
		return dunwind_unwind_end(st, DUNWIND_STOP_END);
	if (stop)
		return dunwind_unwind_end(st, stop);
	/* f.sp is the CFA. */
	dunwind_unwind_next_aux(st, rule, f.sp);
	st->ip = f.ip;
	st->sp = f.sp;
	st->fp = f.fp;
	st->exact = false;
	return true;
}

/*
 * Is the slot's memo of its last walk still true here: the same address
 * space, unchanged since (the stack memo, just found valid for @mm, is at
 * the sequence the memo was kept at), and no table registered since?
 */
static bool dunwind_unwind_memo_kept(const struct dunwind_unwind *st, struct mm_struct *mm)
{
	const struct dunwind_sframe_memo *memo = st->memo;

	/* The walk's own memo (no slot's to be had) is not even initialized yet. */
	return memo != &st->own && memo->kept_mm == mm && memo->kept_seq == st->stack->seq &&
	       memo->kept_gen == st->reg_gen;
}

/*
 * Without the mm's sequence (DUNWIND_MM_SEQ 0, 6.1), may the slot's memo
 * of its last walk be checked under the mmap lock instead: the same
 * address space (held by the stack memo since, so not another at its
 * address), no table registered since, and every mapping its rules came
 * from still in @maps (none replaced: @next counts replacements)?
 */
static bool dunwind_unwind_memo_recheck(const struct dunwind_unwind *st, struct mm_struct *mm)
{
	const struct dunwind_sframe_memo *memo = st->memo;

	return !DUNWIND_MM_SEQ && memo != &st->own && st->stack->mm == mm &&
	       memo->kept_mm == mm && memo->kept_gen == st->reg_gen && !memo->next;
}

/*
 * Does each mapping of @memo still stand where it stood, the same?  Its
 * rules then still hold: they depend on nothing else.  A mapping that
 * moved, shrank, split or went fails.  Context: mmap lock held (read).
 */
static bool dunwind_unwind_memo_maps_hold(const struct dunwind_sframe_memo *memo,
					  struct mm_struct *mm)
{
	unsigned int i;

	for (i = 0; i < memo->nr; i++)
		if (!dunwind_vma_key_holds(mm, &memo->maps[i].key))
			return false;
	return true;
}

/*
 * The stack mapping, and the mapping of the first frame's IP into the
 * walk's memo: from the slot's memos (the stack, the last walk's
 * mappings) and the session's mapping cache when the process's mappings
 * did not change since a walk saw them, else under one mmap lock (the
 * lock and the tree walks are a good part of a short walk's cost).  The
 * memo is emptied here unless the slot's last walk left it true (by the
 * sequence; on 6.1 mapping by mapping, under the lock).
 * Return: 0, or -errno with no stack mapping known.
 */
static int dunwind_unwind_first_vmas(struct dunwind_unwind *st)
{
	const bool want_ip = !(st->s->cfg.flags & DUNWIND_CFG_FP_ONLY);
	struct mm_struct *mm = current->mm;
	struct dunwind_sframe_map found = {};
	struct dunwind_vma_key stack;
	struct vm_area_struct *vma;
	unsigned long ehdr = 0;
	bool have_ip = false, kept = false, recheck = false;
	int ret = -EFAULT;

	if (dunwind_vma_memo_find(st->stack, mm, st->sp)) {
		stack.start = st->stack->start;
		stack.end = st->stack->end;
		kept = dunwind_unwind_memo_kept(st, mm);
		st->kept = kept;
	} else if (!dunwind_vma_cache_find(&st->s->vmas, mm, st->sp, &stack)) {
		stack.end = 0;
	}
	if (kept) {
		st->memo->reads = 0;
		if (!want_ip || dunwind_sframe_memo_find(st->memo, st->ip)) {
			st->lo = stack.start;
			st->hi = stack.end;
			return 0;
		}
	} else if (dunwind_unwind_memo_recheck(st, mm)) {
		recheck = true;		/* under the lock below */
	} else {
		dunwind_sframe_memo_init(st->memo);
	}
	/* Never with @recheck: the session's mapping cache needs the sequence too. */
	if (!recheck && stack.end &&
	    (!want_ip || dunwind_sframe_memo_vma_cached(st->s, mm, st->ip, &found))) {
		st->lo = stack.start;
		st->hi = stack.end;
		if (want_ip)
			dunwind_sframe_memo_add(st->s, st->memo, &found, 0);
		return 0;
	}
	if (mmap_read_lock_killable(mm)) {
		if (recheck)
			dunwind_sframe_memo_init(st->memo);
		return -EINTR;
	}
	vma = find_vma(mm, st->sp);
	if (vma && vma->vm_start <= st->sp) {
		st->lo = vma->vm_start;
		st->hi = vma->vm_end;
		dunwind_vma_key(vma, &stack);
		dunwind_vma_cache_add(&st->s->vmas, mm, &stack);
		dunwind_vma_memo_set(st->stack, mm, &stack);
		ret = 0;
	}
	if (recheck) {
		/*
		 * Its MMAP check's two mappings came from anywhere, not only
		 * from @maps: that check starts afresh.
		 */
		kept = !ret && dunwind_unwind_memo_maps_hold(st->memo, mm);
		st->kept = kept;
		if (kept) {
			st->memo->reads = 0;
			st->memo->reported_tag = 0;
		} else {
			dunwind_sframe_memo_init(st->memo);
		}
	}
	if (!ret && want_ip && !(kept && dunwind_sframe_memo_find(st->memo, st->ip)))
		have_ip = !dunwind_sframe_memo_vma(st->s, mm, st->ip, &found, &ehdr);
	mmap_read_unlock(mm);
	if (have_ip)
		dunwind_sframe_memo_add(st->s, st->memo, &found, ehdr);
	return ret;
}

/**
 * dunwind_unwind_start() - the frame interrupted at current's kernel entry
 * @st:		iterator state, filled here
 * @s:		session (its caches and configuration)
 * @regs:	current's user registers
 * @stack:	the walk's slot's stack mapping memo
 * @memo:	the walk's slot's memo of its last walk (kept for the next by
 *		dunwind_unwind_keep()), or NULL: the walk has its own
 * @barrier:	may stop at a file without a table for the recorder's verdict
 *
 * Context: task_work of current (may sleep and fault).
 */
void dunwind_unwind_start(struct dunwind_unwind *st, struct dunwind_session *s,
			  struct pt_regs *regs, struct dunwind_vma_memo *stack,
			  struct dunwind_sframe_memo *memo, bool barrier)
{
	struct dunwind_uregs u;

	/* The memo's arrays are large and read only below its counts. */
	memset(st, 0, offsetof(struct dunwind_unwind, own));
	st->memo = memo ?: &st->own;
	if (!memo) {
		st->own.rules = NULL;
		st->own.leaves = NULL;
		st->own.trace = NULL;
		st->own.utrace = NULL;
	}
	/* Before any lookup: a registration during the walk voids the kept memo. */
	st->reg_gen = dunwind_registry_gen();
	st->s = s;
	st->barrier = barrier;
	st->regs = regs;
	st->stack = stack;
	/* --fp-only: no table is asked. */
	st->allowed = s->cfg.flags & DUNWIND_CFG_FP_ONLY ? DUNWIND_UNWIND_FP : U8_MAX;
	dunwind_arch_user_regs(regs, &u);
	st->ip = u.ip;
	st->sp = u.sp;
	st->fp = u.fp;
	st->aux = u.aux;
	st->aux_state = DUNWIND_AUX_VALUE;
	st->exact = true;
	if (dunwind_unwind_first_vmas(st)) {
		/* Still one frame: the IP is known. */
		st->last = true;
		st->stop = DUNWIND_STOP_BAD_FRAME;
	}
}

/**
 * dunwind_unwind_keep() - leave the walk's memo true for the slot's next walk
 * @st:		iterator state, the walk over
 *
 * Its mappings were looked up at the stack memo's sequence or later: the
 * next walk finds them true only where that sequence still holds.
 *
 * Context: task_work of current.
 */
void dunwind_unwind_keep(struct dunwind_unwind *st)
{
	struct mm_struct *mm = current->mm;

	if (st->memo == &st->own)
		return;
	st->memo->kept_mm = st->stack->mm == mm ? mm : NULL;
	st->memo->kept_seq = st->stack->seq;
	st->memo->kept_gen = st->reg_gen;
}

/**
 * dunwind_unwind_next() - move @st to the caller of its frame
 * @st:		iterator state; sets @st->done and @st->stop when there is none
 *
 * Context: task_work of current (may sleep and fault).
 */
void dunwind_unwind_next(struct dunwind_unwind *st)
{
	if (st->done)
		return;
	if (st->last) {
		dunwind_unwind_end(st, st->stop);
		return;
	}
	dunwind_unwind_step(st);
}
