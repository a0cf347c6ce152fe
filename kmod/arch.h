/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the module needs of the CPU architecture, one file per
 * architecture in kmod/arch/: the user registers a walk starts from,
 * signal frames (their trampolines and how to step through one), the
 * frame-pointer rule, the clock frames are timed with, the kernel stack
 * at a sample and the test NMI.  Each arch file provides every name
 * below; nothing else in the module names a register, a system call
 * number or a cycle counter.
 */
#ifndef DUNWIND_ARCH_H
#define DUNWIND_ARCH_H

#include <linux/types.h>

struct pt_regs;
struct dunwind_session;

/*
 * The user registers a walk follows: the ones every rule may name, and
 * one more (@aux): on x86_64 the one the arch's tables may use as a CFA
 * base (DUNWIND_SFRAME_REG_BX), on arm64 the link register x30.
 */
struct dunwind_uregs {
	unsigned long ip, sp, fp;
	unsigned long aux;
};

#if defined(CONFIG_X86_64)
#include "arch/x86.h"
#elif defined(CONFIG_ARM64)
#include "arch/arm64.h"
#else
#error "dunwind: no kmod/arch/ file for this architecture (x86_64 and arm64 so far)"
#endif

/* kmod/arch/<arch>.c: what needs more than an inline function. */
u64 dunwind_cycles_ns(u64 cycles);
u64 dunwind_ns_cycles(u64 ns);
unsigned int dunwind_arch_restorers(unsigned long *restorer, unsigned int max);
bool dunwind_arch_at_sigreturn(unsigned long ip, bool exact);
int dunwind_arch_sigframe(unsigned long sp, unsigned long fp, unsigned long hi,
			  struct dunwind_uregs *r);
unsigned int dunwind_arch_kernel_stack(struct pt_regs *regs, u64 *ips, unsigned int max,
				       bool *trunc, bool (*skip)(unsigned long addr));
unsigned long dunwind_arch_tls_base(void);
int dunwind_arch_test_nmi_init(void);
void dunwind_arch_test_nmi_exit(void);
int dunwind_arch_test_nmi(struct dunwind_session *s);

#endif /* DUNWIND_ARCH_H */
