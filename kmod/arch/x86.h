/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64 (kmod/arch.h): registers, the clone check, the frame-pointer
 * rule and the clock, inline where the walk's frame loop uses them.
 */
#ifndef DUNWIND_ARCH_X86_H
#define DUNWIND_ARCH_X86_H

#include <linux/ptrace.h>
#include <asm/timex.h>
#include <asm/unistd.h>

/* The user registers saved at kernel entry.  Context: any. */
static inline void dunwind_arch_user_regs(const struct pt_regs *regs, struct dunwind_uregs *r)
{
	r->ip = regs->ip;
	r->sp = regs->sp;
	r->fp = regs->bp;
	r->aux = regs->bx;
}

/*
 * A task on a new stack that has not run a user instruction of its own
 * yet (a thread, or posix_spawn()'s child): its registers are the
 * creator's at clone3(), or at clone() with a stack (rsi), with 0 in rax,
 * and its stack is the new, empty one.  The IP after the syscall is its
 * root, whatever the creator's CFI says there (it describes the creator's
 * stack).  fork() (clone without a stack) copies the creator's stack,
 * which unwinds as usual.  glibc uses clone3 only with a new stack.
 * @ip and @sp: the frame the walk is at, with an exact IP.
 * Context: any.
 */
static inline bool dunwind_arch_new_stack(const struct pt_regs *regs, unsigned long ip,
					  unsigned long sp)
{
	if (ip != regs->ip || sp != regs->sp || regs->ax)
		return false;
	return regs->orig_ax == __NR_clone3 || (regs->orig_ax == __NR_clone && regs->si);
}

/*
 * The frame-pointer rule, an initializer of struct dunwind_urule: CFA =
 * FP + 16, the return address at CFA - 8, the caller's FP at CFA - 16.
 */
#define DUNWIND_ARCH_FP_RULE \
	{ .cfa_fp = 1, .cfa_off = 16, .ra_off = -8, .fp_saved = 1, .fp_off = -16 }

/* A return address as read from the stack: x86_64 signs none.  Context: any. */
static __always_inline unsigned long dunwind_arch_user_ra(unsigned long ra)
{
	return ra;
}

/*
 * The clock frames, walks and handlers are timed with: the TSC, one
 * instruction to read where local_clock() is dozens.  Differences taken
 * on two CPUs may go back (dunwind_cycles_since()); dunwind_cycles_ns()
 * turns a sum into ns.  Context: any.
 */
static inline u64 dunwind_cycles(void)
{
	return get_cycles();
}

#endif /* DUNWIND_ARCH_X86_H */
