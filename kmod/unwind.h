/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user-unwind iterator (kmod/unwind.c) and its fast path
 * (kmod/unwind_fast.c), which share one step definition: dunwind_step().
 */
#ifndef DUNWIND_UNWIND_H
#define DUNWIND_UNWIND_H

#include <linux/minmax.h>
#include <linux/uaccess.h>
#include "dunwind.h"

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
	u8 allowed;			/* DUNWIND_UNWIND_* the session lets the walk use */
	/* The method that found this frame; NULL: the first, or a signal's. */
	const struct dunwind_unwind_method *method;
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
	 * The frame's aux register (struct dunwind_uregs), followed as DWARF
	 * unwinders follow callee-saved registers, for a CFA rule "aux + off"
	 * (x86_64: ld.so's lazy-binding trampoline realigns its stack from
	 * %rbx): DUNWIND_AUX_*.
	 */
	u8 aux_state;
	unsigned long aux;		/* the value, or the user address that holds it */
	struct dunwind_session *s;
	struct pt_regs *regs;		/* at kernel entry */
	struct dunwind_vma_memo *stack;	/* the slot's stack mapping (dunwind_walk.stack) */
	u64 reg_gen;			/* dunwind_registry_gen() at the start */
	struct dunwind_sframe_memo *memo;	/* the slot's kept memo, or @own */
	bool kept;			/* @memo is the slot's last walk's, still true */
	struct dunwind_walk_trace *trace;	/* this walk's reads, or NULL */
	struct dunwind_sframe_memo own;	/* last: start() zeroes all before it */
};

/**
 * struct dunwind_unwind_method - one way of finding a frame's rule
 * @bit:	its DUNWIND_UNWIND_* bit in the records' @methods
 * @guess:	a method that does not know the code (frame pointers): asked
 *		only once the frame is known to be no root, no signal frame,
 *		and in no file that a table covers
 * @cnt_frames:	the session counter of the frames it found
 * @cnt_cycles:	... and of their cost (dunwind_cycles())
 * @rule:	the rule for @pc at @st's frame: 0 with *@rule set;
 *		-ENOENT if the method knows nothing of @pc (the next is
 *		asked); -ENODATA if it knows @pc has no rule; -EINVAL for a
 *		frame it sees is bad; -EINTR
 *
 * Context of @rule: task_work of current (may sleep and fault).
 */
struct dunwind_unwind_method {
	u8 bit;
	bool guess;
	enum dunwind_counter cnt_frames, cnt_cycles;
	int (*rule)(struct dunwind_unwind *st, unsigned long pc,
		    const struct dunwind_urule **rule);
};

/* dunwind_unwind_methods[], in the order they are asked. */
enum {
	DUNWIND_METHOD_SFRAME,		/* the file's own .sframe */
	DUNWIND_METHOD_REGISTERED,	/* a table registered for the file */
	DUNWIND_METHOD_FP,		/* frame pointers */
	DUNWIND_METHOD_NR,
};

extern const struct dunwind_unwind_method dunwind_unwind_methods[DUNWIND_METHOD_NR];

/*
 * A walk's frames by method (@nr_by[DUNWIND_METHOD_NR]): those of the
 * methods with DUNWIND_UNWIND_* @bit, and the method that found most
 * (whose counter a replay's cost goes to).  Context: any.
 */
static inline unsigned int dunwind_methods_nr(const u32 *nr_by, u8 bit)
{
	unsigned int i, nr = 0;

	for (i = 0; i < DUNWIND_METHOD_NR; i++)
		if (dunwind_unwind_methods[i].bit == bit)
			nr += nr_by[i];
	return nr;
}

static inline const struct dunwind_unwind_method *dunwind_methods_top(const u32 *nr_by)
{
	unsigned int i, top = 0;

	for (i = 1; i < DUNWIND_METHOD_NR; i++)
		if (nr_by[i] > nr_by[top])
			top = i;
	return &dunwind_unwind_methods[top];
}

/* The method a table's @rule came from, by its kind.  Context: any. */
static inline const struct dunwind_unwind_method *dunwind_table_method(const struct dunwind_urule *rule)
{
	return &dunwind_unwind_methods[rule->smap == DUNWIND_SMAP_REG ? DUNWIND_METHOD_REGISTERED :
				       DUNWIND_METHOD_SFRAME];
}

/* Count @nr_by's frames under their methods' counters.  Context: any. */
static inline void dunwind_methods_count(struct dunwind_session *s, const u32 *nr_by)
{
	unsigned int i;

	for (i = 0; i < DUNWIND_METHOD_NR; i++)
		if (nr_by[i])
			dunwind_count(s, dunwind_unwind_methods[i].cnt_frames, nr_by[i]);
}

/*
 * What a walk read of user memory, and what it found (kmod/replay.c).  A
 * walk from the same registers in the same address space (its slot's memo
 * kept: struct dunwind_sframe_memo) that reads the same words at the same
 * addresses finds the same frames: the slot's next walk from those
 * registers reads them again, compares, and takes the frames.  More than
 * DUNWIND_TRACE_READS reads (@nr_reads past it) also marks a walk that
 * cannot be replayed: one that faulted, crossed a signal frame, read the
 * signal actions, or read the aux register from memory.
 */
#define DUNWIND_TRACE_READS	64
#define DUNWIND_TRACE_FRAMES	32

struct dunwind_trace_read {
	unsigned long addr, val;
};

struct dunwind_walk_trace {
	unsigned long ip, sp, fp, aux;	/* the registers the walk started from */
	/*
	 * A walk from user mode (@user): any IP in [@pc_lo, @pc_hi), the
	 * range of the first frame's table rule, takes the same steps from
	 * the same SP, FP and aux (a replay puts its own IP first).  Empty:
	 * no table rule for the first frame, no replay.  A replay that
	 * misses (@misses in a row) leaves the next 2^@misses - 1 walks of
	 * user mode untraced (@skip), so that a thread whose stack changes
	 * from sample to sample seldom pays for a trace.
	 */
	bool user;
	unsigned long pc_lo, pc_hi;
	u8 skip, misses;
	bool valid;			/* a walk to replay is here ... */
	u64 gen;			/* ... while this is the memo's @rules_gen */
	bool aux_used;			/* ... that used @aux */
	bool fp_used;			/* ... that used @fp (a CFA based on it) */
	/*
	 * The frame's FP: @fp still (DUNWIND_TRACE_FP_REGS), or the word read
	 * at @fp_at (_READ), noted as a read of the trace only once a CFA is
	 * based on it (_NOTED): a saved %rbp that nothing uses is no input.
	 */
	u8 fp_src;
	unsigned long fp_at, fp_val;
	u8 stop, methods;
	u32 nr_reads;
	u32 nr;				/* its frames, in @ips */
	u32 nr_by[DUNWIND_METHOD_NR];	/* by method, as struct dunwind_walk's */
	/*
	 * The tag every mapping of @ips was reported under
	 * (dunwind_mmap_report()); 0: not known.  A replay under the same
	 * tag reports nothing.
	 */
	u64 reported;
	/*
	 * A cookie whose record, written, holds @ips as the stack of thread
	 * @cookie_tid (dunwind_replay_answered()); 0: none.  A sample of that
	 * thread replayed from this trace names it (DUNWIND_SAMPLE_EARLIER_STACK).
	 */
	u64 cookie;
	pid_t cookie_tid;
	struct dunwind_trace_read reads[DUNWIND_TRACE_READS];
	u64 ips[DUNWIND_TRACE_FRAMES];
};

#define DUNWIND_TRACE_FP_REGS	0
#define DUNWIND_TRACE_FP_READ	1
#define DUNWIND_TRACE_FP_NOTED	2

/* Note a read of @val at user address @addr in @t.  Context: any. */
static __always_inline void dunwind_trace_read(struct dunwind_walk_trace *t, unsigned long addr,
					       unsigned long val)
{
	/* By pointer: no array bounds check (a call) in a user access window. */
	struct dunwind_trace_read *rd = t->reads + t->nr_reads;

	if (t->nr_reads < DUNWIND_TRACE_READS) {
		rd->addr = addr;
		rd->val = val;
	}
	t->nr_reads++;
}

/* A step bases its CFA on the frame's FP: that FP is an input.  Context: any. */
static __always_inline void dunwind_trace_fp(struct dunwind_walk_trace *t)
{
	if (t->fp_src == DUNWIND_TRACE_FP_REGS) {
		t->fp_used = true;
	} else if (t->fp_src == DUNWIND_TRACE_FP_READ) {
		dunwind_trace_read(t, t->fp_at, t->fp_val);
		t->fp_src = DUNWIND_TRACE_FP_NOTED;
	}
}

/* A step read the caller's FP, @val at @at: an input once a CFA is based on it. */
static __always_inline void dunwind_trace_fp_read(struct dunwind_walk_trace *t, unsigned long at,
						  unsigned long val)
{
	t->fp_at = at;
	t->fp_val = val;
	t->fp_src = DUNWIND_TRACE_FP_READ;
}

/*
 * The first frame's rule of a traced walk, found by a table for @pc_lo
 * <= PC < @pc_hi: the range a walk from user mode replays at.  Context: any.
 */
static inline void dunwind_trace_first_rule(struct dunwind_walk_trace *t, u64 pc_lo, u64 pc_hi)
{
	if (t && t->pc_lo == t->pc_hi) {
		t->pc_lo = pc_lo;
		t->pc_hi = pc_hi;
	}
}

/* The walk of @t depends on what a replay cannot check.  Context: any. */
static inline void dunwind_trace_poison(struct dunwind_walk_trace *t)
{
	if (t)
		t->nr_reads = DUNWIND_TRACE_READS + 1;
}

#define DUNWIND_AUX_LOST	0	/* unknown */
#define DUNWIND_AUX_VALUE	1	/* @aux is the value */
#define DUNWIND_AUX_AT		2	/* saved at user address @aux, read when needed */

void dunwind_unwind_start(struct dunwind_unwind *st, struct dunwind_session *s,
			  struct pt_regs *regs, struct dunwind_vma_memo *stack,
			  struct dunwind_sframe_memo *memo, bool barrier);
void dunwind_unwind_next(struct dunwind_unwind *st);
void dunwind_unwind_keep(struct dunwind_unwind *st);
struct dunwind_walk_trace *dunwind_replay(struct dunwind_unwind *st, u64 *ips, unsigned int cap);
void dunwind_replay_begin(struct dunwind_unwind *st);
void dunwind_replay_answered(struct dunwind_walk_trace *t, u64 cookie);
struct dunwind_walk_trace *dunwind_replay_end(struct dunwind_unwind *st, const u64 *ips,
					      unsigned int nr, const unsigned int *nr_by, u8 methods,
					      u8 stop);
void dunwind_unwind_restorers(struct dunwind_unwind *st);
void dunwind_unwind_entries(struct dunwind_unwind *st);
unsigned int dunwind_unwind_fast(struct dunwind_unwind *st, u64 *ips, unsigned int *nr,
				 unsigned int cap);

static __always_inline bool dunwind_unwind_near(unsigned long pc, unsigned long entry)
{
	return entry && pc >= entry && pc - entry < DUNWIND_ENTRY_BYTES;
}

/* A frame: where a step starts and what it yields. */
struct dunwind_frame {
	unsigned long ip, sp, fp;
};

/**
 * dunwind_step() - the caller of frame @f by @rule: the walk's one step
 * @rule:	the rule (its CFA's base register: @base)
 * @f:		the frame, set to its caller on success
 * @base:	the value of the CFA's base register (SP, FP or aux)
 * @hi:		the end of the stack mapping that holds @f->sp
 * @exact:	@f->ip was interrupted, not a return address
 * @open:	the caller holds a user access window over [@f->sp, @hi)
 * @t:		the walk's trace (its reads are noted), or NULL
 * @checked:	the caller found dunwind_urule_slots_ok(@rule) already (the
 *		fast loop, once per rule)
 *
 * The CFA must be 8-byte aligned, strictly above SP and inside the stack
 * mapping; the slots read lie below the CFA and at or above SP.  In an
 * epilogue after the pop of FP the rule still names FP's slot (compilers
 * emit no restore for it), now below SP: FP holds the caller's value
 * again.  Only where the IP is exact (the interrupted frame, a signal's):
 * a caller stands at a call, where nothing was popped.  Both slots are
 * read in one user access window (copy_from_user() costs several times as
 * many instructions for 16 bytes).  The full step (kmod/unwind.c) and the
 * fast loop (kmod/unwind_fast.c, with @exact, @open and @checked
 * constants) call it, the fast loop with @rule in memory, not copied to
 * the stack: a run of frames changes rules often (qsort's merge: at 9 of
 * 14 frames), and each change was a copy of the rule and its offsets.
 *
 * Context: faultable.
 * Return: 0, or DUNWIND_STOP_BAD_FRAME or DUNWIND_STOP_FAULT with @f
 * unchanged.
 */
static __always_inline u8 dunwind_step(const struct dunwind_urule *rule, struct dunwind_frame *f,
				       unsigned long base, unsigned long hi, bool exact, bool open,
				       struct dunwind_walk_trace *t, bool checked)
{
	const long ra_off = rule->ra_off, fp_off = rule->fp_off;
	const unsigned long cfa = base + (long)rule->cfa_off;
	const bool fp_read = rule->fp_saved && !(exact && cfa + fp_off < f->sp);
	/* The lowest slot read; CFA - SP cannot wrap: both lie in the stack mapping. */
	const long lo_off = fp_read ? min(ra_off, fp_off) : ra_off, d = cfa - f->sp;
	unsigned long ra, fp = f->fp;

	/* Even a frame found bad by its CFA depends on the FP it is based on. */
	if (t && rule->cfa_fp)
		dunwind_trace_fp(t);
	if ((!checked && !dunwind_urule_slots_ok(rule)) || cfa & (sizeof(long) - 1) || cfa > hi ||
	    d + lo_off < 0)
		return DUNWIND_STOP_BAD_FRAME;
	if (!open && !user_access_begin((const void __user *)(cfa + lo_off), -lo_off))
		return DUNWIND_STOP_FAULT;
	unsafe_get_user(ra, (const unsigned long __user *)(cfa + ra_off), fault);
	if (fp_read)
		unsafe_get_user(fp, (const unsigned long __user *)(cfa + fp_off), fault);
	if (!open)
		user_access_end();
	if (t) {
		dunwind_trace_read(t, cfa + ra_off, ra);
		if (fp_read)
			dunwind_trace_fp_read(t, cfa + fp_off, fp);
	}
	ra = dunwind_arch_user_ra(ra);
	/* A zero or kernel return address is no frame (roots end before a step): one compare. */
	if (ra - 1 >= TASK_SIZE_MAX - 1)
		return DUNWIND_STOP_BAD_FRAME;
	f->ip = ra;
	f->sp = cfa;
	f->fp = fp;
	return 0;
fault:
	if (!open)
		user_access_end();
	dunwind_trace_poison(t);
	return DUNWIND_STOP_FAULT;
}

/**
 * dunwind_step_lr() - dunwind_step() for a rule whose RA is still in the
 * link register (rule->ra_aux: arm64 before a prologue saved x30, after
 * an epilogue restored it)
 * @rule, @f, @base, @hi: as for dunwind_step()
 * @lr:		the frame's link register, known (the interrupted frame's or a
 *		signal frame's)
 * @t:		as for dunwind_step()
 *
 * The CFA must be 8-byte aligned, at or above SP (a function entered has
 * CFA = SP) and inside the stack mapping; a saved FP's slot lies in
 * [SP, CFA - 8] (or, where the IP is exact, below SP: popped already).
 *
 * Context: faultable.
 * Return: 0, or DUNWIND_STOP_BAD_FRAME or DUNWIND_STOP_FAULT with @f
 * unchanged.
 */
static inline u8 dunwind_step_lr(const struct dunwind_urule *rule, struct dunwind_frame *f,
				 unsigned long base, unsigned long hi, bool exact,
				 unsigned long lr, struct dunwind_walk_trace *t)
{
	const unsigned long cfa = base + (long)rule->cfa_off;
	const unsigned long fp_at = cfa + (long)rule->fp_off;
	unsigned long ra = dunwind_arch_user_ra(lr), fp = f->fp;

	if (t && rule->cfa_fp)
		dunwind_trace_fp(t);
	if (cfa & (sizeof(long) - 1) || cfa > hi || cfa < f->sp)
		return DUNWIND_STOP_BAD_FRAME;
	if (rule->fp_saved && !(exact && fp_at < f->sp)) {
		if (rule->fp_off > -(int)sizeof(long) || fp_at < f->sp)
			return DUNWIND_STOP_BAD_FRAME;
		if (get_user(fp, (const unsigned long __user *)fp_at)) {
			dunwind_trace_poison(t);
			return DUNWIND_STOP_FAULT;
		}
		if (t)
			dunwind_trace_fp_read(t, fp_at, fp);
	}
	if (ra - 1 >= TASK_SIZE_MAX - 1)
		return DUNWIND_STOP_BAD_FRAME;
	f->ip = ra;
	f->sp = cfa;
	f->fp = fp;
	return 0;
}

#endif /* DUNWIND_UNWIND_H */
