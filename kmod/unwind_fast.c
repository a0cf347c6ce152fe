// SPDX-License-Identifier: GPL-2.0
/*
 * The walk's fast path: runs of caller frames whose rule is at hand, in
 * one user access window, by the iterator's own step (dunwind_step()).
 */
#include <linux/sched.h>
#include <linux/uaccess.h>
#include "unwind.h"

static const struct dunwind_urule dunwind_fp_rule = DUNWIND_ARCH_FP_RULE;

/*
 * The aux register as dunwind_unwind_next_aux() leaves it after a run of
 * caller frames of one rule: the last frame's step decides (kept, lost,
 * or saved at CFA + aux_off if that slot lies in its frame, CFA - SP = @d).
 */
static __always_inline void dunwind_unwind_fast_aux(struct dunwind_unwind *st,
						    const struct dunwind_urule *rule, long aux_off,
						    long d, unsigned long cfa)
{
	if (rule->aux == DUNWIND_RULE_AUX_SAVED && aux_off <= -(long)sizeof(long) && d >= -aux_off) {
		st->aux = cfa + aux_off;
		st->aux_state = DUNWIND_AUX_AT;
	} else if (rule->aux != DUNWIND_RULE_AUX_KEPT) {
		st->aux_state = DUNWIND_AUX_LOST;
	}
}

/*
 * dunwind_unwind_fast()'s loop, for one rule and with @fp_only and @traced
 * constants (each caller gets its own copy): the rule's fields stay in
 * registers, and a walk not traced for a replay (kmod/replay.c) runs no
 * trace code.
 * In --fp-only walks each frame is first checked as dunwind_unwind_rule()
 * checks it before choosing frame pointers: no restorer, no entry code,
 * FP above SP.  Each frame is then dunwind_step()'s, on a caller frame in
 * an open window.
 * Return: true if it stopped only at a frame the rule does not cover.
 */
static __always_inline bool dunwind_unwind_fast_loop(struct dunwind_unwind *st,
						     struct dunwind_urule *rule,
						     bool fp_only, bool traced, u64 *ips,
						     unsigned int *nrp, unsigned int cap)
{
	/* lo <= PC < hi as one compare: PC - lo < hi - lo (an empty range holds none). */
	unsigned long pc_lo = rule->pc_lo, pc_len = rule->pc_hi - rule->pc_lo;
	const unsigned long hi = st->hi;
	long aux_off = rule->aux_off;
	const unsigned long *restorers = st->restorer;
	const unsigned long *restorers_end = restorers +
		min_t(unsigned int, st->nr_restorers, DUNWIND_MAX_RESTORERS);
	const unsigned long entry = st->entry, ld_entry = st->ld_entry;
	struct dunwind_frame f = { .ip = st->ip, .sp = st->sp, .fp = st->fp };
	struct dunwind_walk_trace *t = traced ? st->trace : NULL;
	struct dunwind_step_rule r;
	unsigned int nr = *nrp, run = nr;	/* @run: the first frame of this rule's run */
	bool other_rule = false;
	long d = 0;		/* the last frame's CFA - SP */

	dunwind_step_rule(rule, &r);
	if (!r.slots_ok)
		return false;
	while (nr < cap) {
		const unsigned long *p;
		unsigned long sp = f.sp;

		if (fp_only) {
			/* By pointer: no array bounds check (a call) in the window. */
			for (p = restorers; p < restorers_end && *p != f.ip; p++)
				;
			if (p < restorers_end || dunwind_unwind_near(f.ip - 1, entry) ||
			    dunwind_unwind_near(f.ip - 1, ld_entry) || !f.fp || f.fp < f.sp)
				break;
		} else if (f.ip - 1 - pc_lo >= pc_len) {
			/*
			 * The next rule, if the slot's memo keeps one the loop
			 * can run: taken here, in the same window.
			 */
			const struct dunwind_urule *next = dunwind_sframe_memo_usable(st->memo,
										      f.ip - 1);

			other_rule = true;
			if (!next || next->outermost || next->cfa_aux || next->ra_aux)
				break;
			if (nr != run)
				dunwind_unwind_fast_aux(st, rule, aux_off, d, f.sp);
			*rule = *next;
			dunwind_step_rule(rule, &r);
			if (!r.slots_ok)
				break;
			pc_lo = rule->pc_lo;
			pc_len = rule->pc_hi - rule->pc_lo;
			aux_off = rule->aux_off;
			run = nr;
			other_rule = false;
		}
		/* A fault or a bound leaves the frame to the full step, which says so. */
		if (dunwind_step(&r, &f, r.cfa_fp ? f.fp : f.sp, hi, false, true, t))
			break;
		ips[nr++] = f.ip;
		d = f.sp - sp;
	}
	if (nr == *nrp)
		return other_rule;
	st->ip = f.ip;
	st->sp = f.sp;
	st->fp = f.fp;
	*nrp = nr;
	if (nr != run)
		dunwind_unwind_fast_aux(st, rule, aux_off, d, f.sp);
	return other_rule;
}

/**
 * dunwind_unwind_fast() - the callers of @st's frame that a rule at hand
 * recovers, in one user access window
 * @st:		iterator at a caller frame (not exact), already in @ips
 * @ips:	the walk's IPs
 * @nr:		how many @ips holds; grows up to @cap
 * @cap:	room at @ips
 *
 * Once a process's tables and rules are cached, a walk is mostly frames
 * whose rule is at hand: the last frame's SFrame rule (every level of a
 * recursion), another rule in the session's cache for a mapping the walk
 * already met (dunwind_sframe_rule_cached()), or frame pointers in an
 * --fp-only walk.  They are walked here, runs of frames of one rule with
 * the stack opened for user access once, with no per-frame timing; each
 * frame is dunwind_step()'s, as in dunwind_unwind_step().  At the
 * first frame it cannot take (a rule not cached, a bound, a fault, a
 * root) it stops with @st at the last frame it stored, and the full step
 * takes over from there, ending the walk where it must.
 *
 * Apart from dunwind_walk_once() (another file: never inlined), whose
 * frame (the iterator and its memo) would pass 2 KiB on KASAN kernels.
 *
 * Context: task_work of current (may fault).
 * Return: the frames added to @ips.
 */
unsigned int dunwind_unwind_fast(struct dunwind_unwind *st, u64 *ips, unsigned int *nr,
				 unsigned int cap)
{
	const bool fp_only = st->s->cfg.flags & DUNWIND_CFG_FP_ONLY;
	struct dunwind_urule *rule = &st->memo->rule;
	const unsigned int nr0 = *nr;

	if (st->exact || st->done || st->last || *nr >= cap)
		return 0;
	if (fp_only) {
		struct dunwind_urule fp_rule = dunwind_fp_rule;

		/* The table barrier looks in the memo, which --fp-only leaves empty. */
		if (st->memo->nr)
			return 0;
		/* Every frame pointer step checks both (dunwind_unwind_rule()). */
		if (!st->restorers_read)
			dunwind_unwind_restorers(st);
		if (!st->entries_read)
			dunwind_unwind_entries(st);
		if (!user_access_begin((const void __user *)st->sp, st->hi - st->sp))
			return 0;
		dunwind_unwind_fast_loop(st, &fp_rule, true, false, ips, nr, cap);
		user_access_end();
	} else {
		bool more = true;

		while (more) {
			/* The rule for this frame: the last one's, or one cached. */
			if ((st->ip - 1 < rule->pc_lo || st->ip - 1 >= rule->pc_hi) &&
			    !dunwind_sframe_rule_cached(st->s, st->memo, st->ip - 1))
				break;
			if (rule->outermost || rule->cfa_aux || rule->ra_aux ||
			    !user_access_begin((const void __user *)st->sp, st->hi - st->sp))
				break;
			if (st->trace)
				more = dunwind_unwind_fast_loop(st, rule, false, true, ips, nr, cap);
			else
				more = dunwind_unwind_fast_loop(st, rule, false, false, ips, nr, cap);
			user_access_end();
		}
	}
	if (*nr != nr0)
		st->method = fp_only ? &dunwind_unwind_methods[DUNWIND_METHOD_FP] :
				       dunwind_table_method(rule);
	return *nr - nr0;
}
