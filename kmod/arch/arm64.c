// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 (kmod/arch.h): signal frames (the restorers, the vDSO's sigtramp
 * and its code, the rt_sigframe), the generic timer's rate, the kernel
 * stack at a sample (the kernel's frame-record unwinder, through
 * stack_trace_save()) and the test NMI, which arm64 has no way to raise.
 */
#include <linux/compat.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>
#include <asm/arch_timer.h>
#include <asm/sigcontext.h>
#include <asm/sysreg.h>
#include <asm/ucontext.h>
#include "../dunwind.h"

/**
 * dunwind_cycles_ns() - counter ticks counted by the module as nanoseconds
 * @cycles:	a sum of dunwind_cycles() differences
 *
 * Context: any.
 * Return: @cycles in ns at the counter's rate (cntfrq_el0); 0 if it is unknown.
 */
u64 dunwind_cycles_ns(u64 cycles)
{
	u32 hz = arch_timer_get_cntfrq();

	/* A "negative" sum is no time (see the x86 one). */
	return hz && (s64)cycles >= 0 ? mul_u64_u32_div(cycles, NSEC_PER_SEC, hz) : 0;
}

/**
 * dunwind_ns_cycles() - nanoseconds as counter ticks
 * @ns:		a time span
 *
 * Context: any.
 * Return: @ns in ticks at the counter's rate; 0 if it is unknown.
 */
u64 dunwind_ns_cycles(u64 ns)
{
	return mul_u64_u32_div(ns, arch_timer_get_cntfrq(), NSEC_PER_SEC);
}

/*
 * The arm64 signal return trampoline, the vDSO's sigtramp as the C
 * libraries': "mov x8, #139 (__NR_rt_sigreturn); svc #0".  Neither
 * instruction changes SP, so SP is at the rt_sigframe at both.
 */
static const u32 dunwind_sigreturn[] = { 0xd2801168, 0xd4000001 };

/*
 * The sigtramp's offset in the vDSO, plus 1 (0: not found yet).  Every
 * 64-bit process maps the same vDSO image, so it is found once, in the
 * first process that asks, by its code: the arm64 headers give no
 * vdso_offset_sigtramp to a module.  Written once with the same value by
 * whoever finds it: no lock.
 */
static unsigned long dunwind_sigtramp_off;

#define DUNWIND_VDSO_SCAN	(4 * PAGE_SIZE)

static unsigned long dunwind_vdso_find_sigtramp(unsigned long base)
{
	u32 code[64];
	unsigned long at, i;

	/* Chunks overlap by one instruction; a fault ends the vDSO's text. */
	for (at = 0; at < DUNWIND_VDSO_SCAN; at += sizeof(code) - 4) {
		if (copy_from_user(code, (const void __user *)(base + at), sizeof(code)))
			return 0;
		for (i = 0; i + 1 < ARRAY_SIZE(code); i++)
			if (le32_to_cpu(code[i]) == dunwind_sigreturn[0] &&
			    le32_to_cpu(code[i + 1]) == dunwind_sigreturn[1])
				return at + i * 4 + 1;
	}
	return 0;
}

/* The vDSO's sigtramp in current; 0 if it has none (or is a 32-bit task). */
static unsigned long dunwind_vdso_sigtramp(void)
{
	unsigned long base = (unsigned long)current->mm->context.vdso;
	unsigned long off = READ_ONCE(dunwind_sigtramp_off);

	if (!base || is_compat_task())
		return 0;
	if (!off) {
		off = dunwind_vdso_find_sigtramp(base);
		if (!off)
			return 0;
		WRITE_ONCE(dunwind_sigtramp_off, off);
	}
	return base + off - 1;
}

/**
 * dunwind_arch_restorers() - signal return trampolines of the architecture
 * itself, beside the handlers' sa_restorer (kmod/unwind.c): the vDSO's
 * sigtramp (glibc's aarch64 port sets no SA_RESTORER: the kernel returns
 * through it)
 * @restorer:	filled with it
 * @max:	room at @restorer
 *
 * Context: task_work of current.
 * Return: how many were found (0 or 1).
 */
unsigned int dunwind_arch_restorers(unsigned long *restorer, unsigned int max)
{
	unsigned long tramp = dunwind_vdso_sigtramp();

	if (!tramp || !max)
		return 0;
	restorer[0] = tramp;
	return 1;
}

static bool dunwind_code_is_sigreturn(unsigned long at)
{
	u32 buf[ARRAY_SIZE(dunwind_sigreturn)];

	if (at & 3 || copy_from_user(buf, (const void __user *)at, sizeof(buf)))
		return false;
	return le32_to_cpu(buf[0]) == dunwind_sigreturn[0] &&
	       le32_to_cpu(buf[1]) == dunwind_sigreturn[1];
}

/**
 * dunwind_arch_at_sigreturn() - is @ip in a signal return trampoline?
 * @ip:		the frame's IP
 * @exact:	@ip was interrupted (a handler had just returned), not a
 *		return address
 *
 * Read from the code: the vDSO's sigtramp is no sa_restorer.
 *
 * Context: task_work of current (may fault).
 */
bool dunwind_arch_at_sigreturn(unsigned long ip, bool exact)
{
	/* A return address is the mov (the handler's x30); exact, the svc too. */
	return dunwind_code_is_sigreturn(ip) || (exact && dunwind_code_is_sigreturn(ip - 4));
}

/*
 * The kernel's struct rt_sigframe (arch/arm64/kernel/signal.c, in no
 * header): the siginfo, then the ucontext; its size as the kernel rounds
 * it when it has no records beyond __reserved.
 */
#define DUNWIND_RT_SIGFRAME_SIZE	ALIGN(sizeof(struct siginfo) + sizeof(struct ucontext), 16)

/* Where an rt_sigframe at @frame keeps the interrupted registers. */
#define DUNWIND_SIGCONTEXT(frame) \
	((frame) + sizeof(struct siginfo) + offsetof(struct ucontext, uc_mcontext))

/*
 * The part of the sigcontext read (struct sigcontext up to __reserved,
 * whose 4 KiB no stack frame of ours holds): the registers, and the
 * first record of __reserved, which the kernel always makes the FP/SIMD
 * one.
 */
struct dunwind_arm64_sigcontext {
	struct {
		__u64 fault_address;
		__u64 regs[31];
		__u64 sp;
		__u64 pc;
		__u64 pstate;
	} sc;
	struct _aarch64_ctx head;
};

static_assert(offsetof(struct sigcontext, __reserved) ==
	      ALIGN(sizeof(((struct dunwind_arm64_sigcontext *)0)->sc), 16));
static_assert(offsetof(struct sigcontext, pc) ==
	      offsetof(struct dunwind_arm64_sigcontext, sc.pc));

static int dunwind_read_sigcontext(unsigned long frame, unsigned long hi,
				   struct dunwind_arm64_sigcontext *c)
{
	const unsigned long mc = DUNWIND_SIGCONTEXT(frame);

	if (mc < frame || mc > hi || hi - mc < offsetof(struct sigcontext, __reserved) +
						sizeof(c->head))
		return -EINVAL;
	if (copy_from_user(&c->sc, (const void __user *)mc, sizeof(c->sc)) ||
	    copy_from_user(&c->head, (const void __user *)(mc + offsetof(struct sigcontext,
								       __reserved)),
			   sizeof(c->head)))
		return -EFAULT;
	if (c->head.magic != FPSIMD_MAGIC)
		return -EINVAL;
	return 0;
}

/**
 * dunwind_arch_sigframe() - the registers a signal frame saved
 * @sp:		SP at the restorer as the walk has it: the handler returned
 *		to it with the rt_sigframe (siginfo, then the ucontext) at
 *		SP, exactly so where a table recovered the handler's caller
 * @fp:		FP there: after a frame-pointer step, the handler's saved
 *		x29, which the kernel pointed at the frame record it put
 *		just above the rt_sigframe
 * @hi:		the end of the stack mapping that holds @sp
 * @r:		set to the interrupted registers (their IP is exact, and
 *		may be on another stack: sigaltstack); @r->aux is their x30
 *
 * An FP step's SP is no CFA on arm64 (the frame record lies at the bottom
 * of its frame), so the frame is looked for at @sp, then below @fp's
 * record (a frame with no SVE or SME state: one with more records is not
 * found, a bad frame).  It is known by its FP/SIMD record, which the
 * kernel writes first in every arm64 signal frame.
 *
 * Context: task_work of current (may fault).
 * Return: 0; -EINVAL for a frame out of the stack or a bad IP; -EFAULT.
 */
int dunwind_arch_sigframe(unsigned long sp, unsigned long fp, unsigned long hi,
			  struct dunwind_uregs *r)
{
	const unsigned long below = DUNWIND_RT_SIGFRAME_SIZE;
	struct dunwind_arm64_sigcontext c;
	int ret;

	ret = dunwind_read_sigcontext(sp, hi, &c);
	if (ret == -EINVAL && !(fp & 15) && fp > below && fp - below > sp && fp < hi)
		ret = dunwind_read_sigcontext(fp - below, hi, &c);
	if (ret)
		return ret;
	if (!c.sc.pc || c.sc.pc >= TASK_SIZE_MAX)
		return -EINVAL;
	r->ip = c.sc.pc;
	r->sp = c.sc.sp;
	r->fp = c.sc.regs[29];
	r->aux = c.sc.regs[30];
	return 0;
}

/* A leading frame to leave out: before @pc is met, or as @skip says. */
static unsigned int dunwind_kernel_stack_drop(const unsigned long *ips, unsigned int n,
					      unsigned long pc, bool (*skip)(unsigned long addr))
{
	unsigned int i;

	if (pc) {
		for (i = 0; i < n; i++)
			if (ips[i] == pc)
				return i;
		return 0;
	}
	for (i = 0; i < n && skip && skip(ips[i]); i++)
		;
	return i;
}

/**
 * dunwind_arch_kernel_stack() - kernel IPs, innermost first
 * @regs:	the interrupted registers (in the kernel), their IP first; or
 *		NULL: current's own stack, from the caller's frames
 * @ips:	filled
 * @max:	room at @ips, at least 1
 * @trunc:	set if the stack had more frames (or may have had: the
 *		handler's own frames share @ips' room)
 * @skip:	with @regs NULL, or NULL: true for a leading frame to leave
 *		out (the caller's own, a tracepoint's iterator)
 *
 * arm64 exports no unwinder that starts from @regs: stack_trace_save()
 * walks from here, across the exception's frame record (which holds the
 * interrupted PC), and the frames before @regs' PC are dropped.  If that
 * PC is not met, it is stored first, then the whole walk.
 *
 * Context: hardirq (@regs), or any (current's own stack).
 * Return: the IPs stored.
 */
unsigned int dunwind_arch_kernel_stack(struct pt_regs *regs, u64 *ips, unsigned int max,
				       bool *trunc, bool (*skip)(unsigned long addr))
{
	unsigned long *buf = (unsigned long *)ips;
	const unsigned long pc = regs ? instruction_pointer(regs) : 0;
	unsigned int n, drop;

	BUILD_BUG_ON(sizeof(*buf) != sizeof(*ips));
	n = stack_trace_save(buf, max, 0);
	if (n == max)
		*trunc = true;
	drop = dunwind_kernel_stack_drop(buf, n, pc, skip);
	if (pc && (!n || buf[drop] != pc)) {
		/* Not met: the PC, then what fits of the walk. */
		n = min(n, max - 1);
		memmove(buf + 1, buf, n * sizeof(*buf));
		buf[0] = pc;
		return n + 1;
	}
	memmove(buf, buf + drop, (n - drop) * sizeof(*buf));
	return n - drop;
}

/**
 * dunwind_arch_tls_base() - current's TLS register as user space set it
 *
 * TPIDR_EL0 is switched with the task (saved and loaded at context
 * switch), so while current runs, in user or kernel mode, it holds
 * current's.  glibc's pthread_self() is not this value on arm64 (the
 * thread pointer points past its struct pthread).
 * Context: task context of current (task_work).
 */
unsigned long dunwind_arch_tls_base(void)
{
	return read_sysreg(tpidr_el0);
}

/**
 * dunwind_arch_test_nmi_init() - nothing to register: arm64 has no NMI a
 * module can send itself (pseudo-NMIs are the GIC driver's own)
 *
 * Context: module init.
 * Return: 0.
 */
int dunwind_arch_test_nmi_init(void)
{
	return 0;
}

/**
 * dunwind_arch_test_nmi_exit() - mirrors dunwind_arch_test_nmi_init()
 *
 * Context: module exit.
 */
void dunwind_arch_test_nmi_exit(void)
{
}

/**
 * dunwind_arch_test_nmi() - sample current from an NMI (test hook)
 * @s:	a started session
 *
 * Context: ioctl.
 * Return: -EOPNOTSUPP: arm64 has no test NMI (DUNWIND_IOC_TEST_NMI's
 * callers skip).
 */
int dunwind_arch_test_nmi(struct dunwind_session *s)
{
	return -EOPNOTSUPP;
}
