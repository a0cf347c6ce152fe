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
						    const struct dunwind_urule *rule, long d,
						    unsigned long cfa)
{
	const long aux_off = rule->aux_off;

	if (rule->aux == DUNWIND_RULE_AUX_SAVED && aux_off <= -(long)sizeof(long) && d >= -aux_off) {
		st->aux = cfa + aux_off;
		st->aux_state = DUNWIND_AUX_AT;
	} else if (rule->aux != DUNWIND_RULE_AUX_KEPT) {
		st->aux_state = DUNWIND_AUX_LOST;
	}
}

/* Where dunwind_unwind_fast_loop() stopped. */
enum dunwind_fast_stop {
	DUNWIND_FAST_FRAME,	/* at a frame it cannot take: the full step's */
	DUNWIND_FAST_UNKEPT,	/* at a PC whose rule the slot's memo does not keep */
	DUNWIND_FAST_ROOT,	/* at the outermost frame: the walk is complete */
};

/*
 * dunwind_unwind_fast()'s loop, with @fp_only and @traced constants (each
 * caller gets its own copy): a walk not traced for a replay
 * (kmod/replay.c) runs no trace code.  The rule is read where it lies
 * (*@rulep, then the slot's memo's), never copied: a change of rules is a
 * lookup and a pointer.
 * In --fp-only walks each frame is first checked as dunwind_unwind_rule()
 * checks it before choosing frame pointers: no restorer, no entry code,
 * FP above SP.  Each frame is then dunwind_step()'s, on a caller frame in
 * an open window.
 * Return: where it stopped, *@rulep the last frame's rule.
 */
static __always_inline enum dunwind_fast_stop
dunwind_unwind_fast_loop(struct dunwind_unwind *st, const struct dunwind_urule **rulep,
			 bool fp_only, bool traced, u64 *ips, unsigned int *nrp, unsigned int cap)
{
	const struct dunwind_urule *rule = *rulep;
	const unsigned long hi = st->hi;
	const unsigned long *restorers = st->restorer;
	const unsigned long *restorers_end = restorers +
		min_t(unsigned int, st->nr_restorers, DUNWIND_MAX_RESTORERS);
	const unsigned long entry = st->entry, ld_entry = st->ld_entry;
	struct dunwind_frame f = { .ip = st->ip, .sp = st->sp, .fp = st->fp };
	struct dunwind_walk_trace *t = traced ? st->trace : NULL;
	enum dunwind_fast_stop stop = DUNWIND_FAST_FRAME;
	/* By pointer, not count: one register fewer in the loop. */
	u64 *out = ips + *nrp, *const end = ips + cap;
	u64 *run = out;		/* the first frame of this rule's run */
	long d = 0;		/* the last frame's CFA - SP */

	if (!dunwind_urule_fast(rule))
		return stop;
	while (out < end) {
		const unsigned long *p;
		unsigned long sp = f.sp;

		if (fp_only) {
			/* By pointer: no array bounds check (a call) in the window. */
			for (p = restorers; p < restorers_end && *p != f.ip; p++)
				;
			if (p < restorers_end || dunwind_unwind_near(f.ip - 1, entry) ||
			    dunwind_unwind_near(f.ip - 1, ld_entry) || !f.fp || f.fp < f.sp)
				break;
		} else if (f.ip - 1 < rule->pc_lo || f.ip - 1 >= rule->pc_hi) {
			/* The next rule, if the slot's memo keeps it: in the same window. */
			const struct dunwind_urule *next = dunwind_sframe_memo_kept(st->memo,
										    f.ip - 1);

			if (!next || !next->fast) {
				if (!next)
					stop = DUNWIND_FAST_UNKEPT;
				else if (!next->nodata && next->outermost)
					stop = DUNWIND_FAST_ROOT;
				break;
			}
			if (out != run)
				dunwind_unwind_fast_aux(st, rule, d, f.sp);
			rule = next;
			run = out;
		}
		/* A fault or a bound leaves the frame to the full step, which says so. */
		if (dunwind_step(rule, &f, rule->cfa_fp ? f.fp : f.sp, hi, false, true, t, true))
			break;
		*out++ = f.ip;
		d = f.sp - sp;
	}
	*rulep = rule;
	if (out == ips + *nrp)
		return stop;
	st->ip = f.ip;
	st->sp = f.sp;
	st->fp = f.fp;
	*nrp = out - ips;
	if (out != run)
		dunwind_unwind_fast_aux(st, rule, d, f.sp);
	return stop;
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
 * recursion), one the slot's memo keeps, another in the session's cache
 * for a mapping the walk already met (dunwind_sframe_rule_cached()), or
 * frame pointers in an --fp-only walk.  They are walked here, with the
 * stack opened for user access once per run of kept rules, with no
 * per-frame timing; each frame is dunwind_step()'s, as in
 * dunwind_unwind_step().  A frame whose table rule is the outermost
 * ends the walk here (STOP_END), as the full step would end it.  At the
 * first frame it cannot take (a rule not cached, a bound, a fault) it
 * stops with @st at the last frame it stored, and the full step takes
 * over from there, ending the walk where it must.
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
	struct dunwind_sframe_memo *memo = st->memo;
	const struct dunwind_urule *rule = &memo->rule;
	enum dunwind_fast_stop stop = DUNWIND_FAST_UNKEPT;
	const unsigned int nr0 = *nr;

	if (st->exact || st->done || st->last || *nr >= cap)
		return 0;
	if (st->s->cfg.flags & DUNWIND_CFG_FP_ONLY) {
		/* The table barrier looks in the memo, which --fp-only leaves empty. */
		if (memo->nr)
			return 0;
		/* Every frame pointer step checks both (dunwind_unwind_rule()). */
		if (!st->restorers_read)
			dunwind_unwind_restorers(st);
		if (!st->entries_read)
			dunwind_unwind_entries(st);
		if (!user_access_begin((const void __user *)st->sp, st->hi - st->sp))
			return 0;
		rule = &dunwind_fp_rule;
		dunwind_unwind_fast_loop(st, &rule, true, false, ips, nr, cap);
		user_access_end();
		if (*nr != nr0)
			st->method = &dunwind_unwind_methods[DUNWIND_METHOD_FP];
		return *nr - nr0;
	}
	while (stop == DUNWIND_FAST_UNKEPT) {
		const unsigned long pc = st->ip - 1;
		const unsigned int before = *nr;

		/* The rule for this frame: the last one's, the slot's memo's, or one cached. */
		if (pc < rule->pc_lo || pc >= rule->pc_hi) {
			rule = dunwind_sframe_memo_usable(memo, pc);
			if (!rule) {
				rule = &memo->rule;
				if (!dunwind_sframe_rule_cached(st->s, memo, pc))
					break;
			}
		}
		if (rule->outermost) {
			stop = DUNWIND_FAST_ROOT;
			break;
		}
		if (!user_access_begin((const void __user *)st->sp, st->hi - st->sp))
			break;
		if (st->trace && *nr <= DUNWIND_TRACE_FRAMES) {
			/*
			 * Traced up to one frame more than a trace keeps: a
			 * walk deeper than that is not kept for a replay
			 * (dunwind_replay_end()), so it goes on untraced
			 * (deep-fp's 104 frames: about 2,000 instructions a
			 * walk less).
			 */
			stop = dunwind_unwind_fast_loop(st, &rule, false, true, ips, nr,
							min(cap, DUNWIND_TRACE_FRAMES + 1));
			if (stop == DUNWIND_FAST_FRAME && *nr > DUNWIND_TRACE_FRAMES && *nr < cap)
				stop = dunwind_unwind_fast_loop(st, &rule, false, false, ips, nr, cap);
		} else {
			stop = dunwind_unwind_fast_loop(st, &rule, false, false, ips, nr, cap);
		}
		user_access_end();
		if (*nr != before)
			st->method = dunwind_table_method(rule);
	}
	/* The last frame's rule is @memo->rule, as dunwind_sframe_rule() leaves it. */
	if (rule != &memo->rule)
		memo->rule = *rule;
	/* The full step would end here too: the outermost frame's rule (kmod/unwind.c). */
	if (stop == DUNWIND_FAST_ROOT) {
		st->done = true;
		st->stop = DUNWIND_STOP_END;
	}
	return *nr - nr0;
}
