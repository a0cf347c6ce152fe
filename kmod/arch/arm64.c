// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 (kmod/arch.h): signal frames (the restorers, the vDSO's sigtramp
 * and its code, the rt_sigframe), the generic timer's rate, the kernel
 * stack at a sample (the kernel's frame-record unwinder, through
 * stack_trace_save()) and the test NMI, which arm64 has no way to raise.
 */
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>
#include <asm/arch_timer.h>
#include <asm/sigcontext.h>
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

	return hz ? mul_u64_u32_div(cycles, NSEC_PER_SEC, hz) : 0;
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

/**
 * dunwind_arch_restorers() - the signal return trampolines current can
 * return through: the sa_restorer of every handled signal that set
 * SA_RESTORER (glibc's aarch64 port sets none: the kernel then returns
 * through the vDSO's sigtramp, which dunwind_arch_at_sigreturn() knows
 * by its code)
 * @restorer:	filled with distinct addresses
 * @max:	room at @restorer
 *
 * Read without siglock, as on x86_64 (kmod/arch/x86.c says why that is
 * safe): a frame taken for a signal frame is checked as any other.
 *
 * Context: task_work of current.
 * Return: how many were found (at most @max).
 */
unsigned int dunwind_arch_restorers(unsigned long *restorer, unsigned int max)
{
	const struct k_sigaction *action = current->sighand->action;
	unsigned int i, j, nr = 0;

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
 * The arm64 signal return trampoline, the vDSO's sigtramp as the C
 * libraries': "mov x8, #139 (__NR_rt_sigreturn); svc #0".  Neither
 * instruction changes SP, so SP is at the rt_sigframe at both.
 */
static const u32 dunwind_sigreturn[] = { 0xd2801168, 0xd4000001 };

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
 * @sp:		SP at the restorer: the handler returned to it with the
 *		rt_sigframe (siginfo, then the ucontext) at @sp
 * @hi:		the end of the stack mapping that holds @sp
 * @r:		set to the interrupted registers (their IP is exact, and
 *		may be on another stack: sigaltstack); @r->aux is their x30
 *
 * The frame is known by its FP/SIMD record, which the kernel writes first
 * in every arm64 signal frame.
 *
 * Context: task_work of current (may fault).
 * Return: 0; -EINVAL for a frame out of the stack or a bad IP; -EFAULT.
 */
int dunwind_arch_sigframe(unsigned long sp, unsigned long hi, struct dunwind_uregs *r)
{
	struct dunwind_arm64_sigcontext c;
	int ret;

	ret = dunwind_read_sigcontext(sp, hi, &c);
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
