/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 (kmod/arch.h): registers, the clone check, the frame-pointer
 * rule, return addresses' pointer authentication codes and the clock,
 * inline where the walk's frame loop uses them.
 */
#ifndef DUNWIND_ARCH_ARM64_H
#define DUNWIND_ARCH_ARM64_H

#include <linux/ptrace.h>
#include <asm/compiler.h>
#include <asm/timex.h>
#include <asm/unistd.h>

/*
 * The user registers saved at kernel entry: PC, SP, x29 (the frame
 * pointer) and, as @aux, x30 (the link register, which holds the return
 * address until a prologue saves it).  Context: any.
 */
static inline void dunwind_arch_user_regs(const struct pt_regs *regs, struct dunwind_uregs *r)
{
	r->ip = regs->pc;
	r->sp = regs->sp;
	r->fp = regs->regs[29];
	r->aux = regs->regs[30];
}

/*
 * A task on a new stack that has not run a user instruction of its own
 * yet (a thread, or posix_spawn()'s child): its registers are the
 * creator's at clone3(), or at clone() with a stack (x1), with 0 in x0,
 * and its stack is the new, empty one.  The PC after the svc is its root.
 * fork() (clone without a stack) copies the creator's stack, which
 * unwinds as usual.  @ip and @sp: the frame the walk is at, with an
 * exact IP.  Context: any.
 */
static inline bool dunwind_arch_new_stack(const struct pt_regs *regs, unsigned long ip,
					  unsigned long sp)
{
	if (ip != regs->pc || sp != regs->sp || regs->regs[0])
		return false;
	return regs->syscallno == __NR_clone3 ||
	       (regs->syscallno == __NR_clone && regs->regs[1]);
}

/*
 * The frame-pointer rule, an initializer of struct dunwind_urule: x29
 * points at the frame record {caller's x29, x30}; CFA = FP + 16 (the
 * record's end: the true CFA may lie higher, past the frame's locals,
 * which no later step needs), the return address at CFA - 8, the
 * caller's FP at CFA - 16.
 */
#define DUNWIND_ARCH_FP_RULE \
	{ .cfa_fp = 1, .cfa_off = 16, .ra_off = -8, .fp_saved = 1, .fp_off = -16 }

/*
 * A return address as read from the stack, without the pointer
 * authentication code that a PAC-enabled prologue (paciasp) signed it
 * with: xpaclri where the CPU has it, a no-op where the kernel has no
 * pointer authentication (the bits are then never set).  Context: any.
 */
static __always_inline unsigned long dunwind_arch_user_ra(unsigned long ra)
{
	return ptrauth_strip_user_insn_pac(ra);
}

/*
 * The clock frames, walks and handlers are timed with: the generic
 * timer's virtual counter (cntvct_el0, what get_cycles() reads), at the
 * rate cntfrq_el0 says (dunwind_cycles_ns()).  Context: any.
 */
static inline u64 dunwind_cycles(void)
{
	return get_cycles();
}

#endif /* DUNWIND_ARCH_ARM64_H */
