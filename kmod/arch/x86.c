// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 (kmod/arch.h): signal frames (the restorers, the sigreturn
 * trampolines' code, the ucontext), the TSC's rate, the kernel stack at a
 * sample (the kernel's ORC or frame-pointer unwinder) and the test NMI
 * (a self-IPI).
 */
#include <linux/delay.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <asm/apic.h>
#include <asm/fsgsbase.h>
#include <asm/nmi.h>
#include <asm/sigcontext.h>
#include <asm/tsc.h>
#include <asm/ucontext.h>
#include <asm/unwind.h>
#include "../dunwind.h"

/**
 * dunwind_cycles_ns() - TSC cycles counted by the module as nanoseconds
 * @cycles:	a sum of dunwind_cycles() differences
 *
 * A sum that reads "negative" (it should not: differences are clamped
 * at 0, and a walk takes its waits only out of what it counted itself)
 * is no time, not 2^64 cycles.  Divided first, so that no
 * value traps: mul_u64_u32_div()'s x86 div faults (#DE) when the
 * quotient passes 64 bits, as a sum of -233 million cycles at 363 MHz did.
 *
 * Context: any.
 * Return: @cycles in ns at the boot CPU's TSC rate; 0 if it is unknown
 * or @cycles is negative.
 */
u64 dunwind_cycles_ns(u64 cycles)
{
	u32 rem;
	u64 q;

	if (!tsc_khz || (s64)cycles < 0)
		return 0;
	q = div_u64_rem(cycles, tsc_khz, &rem);
	return q * NSEC_PER_MSEC + div_u64((u64)rem * NSEC_PER_MSEC, tsc_khz);
}

/**
 * dunwind_ns_cycles() - nanoseconds as TSC cycles
 * @ns:		a time span
 *
 * Context: any.
 * Return: @ns in cycles at the boot CPU's TSC rate; 0 if it is unknown.
 */
u64 dunwind_ns_cycles(u64 ns)
{
	return mul_u64_u32_div(ns, tsc_khz, NSEC_PER_MSEC);
}

/**
 * dunwind_arch_restorers() - signal return trampolines of the architecture
 * itself, beside the handlers' sa_restorer (kmod/unwind.c): none on x86_64,
 * which requires SA_RESTORER
 * @restorer:	room for them
 * @max:	its size
 *
 * Context: task_work of current.
 * Return: 0.
 */
unsigned int dunwind_arch_restorers(unsigned long *restorer, unsigned int max)
{
	return 0;
}

/*
 * The x86_64 signal return trampolines of the C libraries: rt_sigreturn,
 * "mov $15, %rax; syscall" (glibc's __restore_rt) or "mov $15, %eax;
 * syscall".  None changes SP, so SP is at the ucontext at each of their
 * instructions, as for a handler's return address into them.
 */
/**
 * dunwind_arch_tls_base() - current's TLS base as user space set it (%fs)
 *
 * The kernel does not use %fs: while current runs, in user or kernel
 * mode, the CPU's FS base is its own (switched at context switch).
 * Context: task context of current (task_work), preemptible.
 */
unsigned long dunwind_arch_tls_base(void)
{
	unsigned long base;

	preempt_disable();
	base = x86_fsbase_read_cpu();
	preempt_enable();
	return base;
}

static const u8 dunwind_sigreturn_q[] = { 0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f, 0x05 };
static const u8 dunwind_sigreturn_l[] = { 0xb8, 0x0f, 0, 0, 0, 0x0f, 0x05 };

static bool dunwind_code_is(unsigned long at, const u8 *code, size_t len)
{
	u8 buf[sizeof(dunwind_sigreturn_q)];

	return !copy_from_user(buf, (const void __user *)at, len) && !memcmp(buf, code, len);
}

/**
 * dunwind_arch_at_sigreturn() - is @ip in a signal return trampoline?
 * @ip:		the frame's IP
 * @exact:	@ip was interrupted (a handler had just returned), not a
 *		return address
 *
 * For a trampoline that is no handled signal's sa_restorer now (the
 * handler was reset since), read from the code.
 *
 * Context: task_work of current (may fault).
 */
bool dunwind_arch_at_sigreturn(unsigned long ip, bool exact)
{
	const size_t q = sizeof(dunwind_sigreturn_q), l = sizeof(dunwind_sigreturn_l);

	if (dunwind_code_is(ip, dunwind_sigreturn_q, q) ||
	    dunwind_code_is(ip, dunwind_sigreturn_l, l))
		return true;
	/* Interrupted at the syscall, the mov done. */
	return exact && (dunwind_code_is(ip - (q - 2), dunwind_sigreturn_q, q) ||
			 dunwind_code_is(ip - (l - 2), dunwind_sigreturn_l, l));
}

/**
 * dunwind_arch_sigframe() - the registers a signal frame saved
 * @sp:		SP at the restorer: the handler returned to it with the
 *		ucontext at @sp
 * @fp:		FP there (unused: x86_64's SP is exact at every step)
 * @hi:		the end of the stack mapping that holds @sp
 * @r:		set to the interrupted registers (their IP is exact, and
 *		may be on another stack: sigaltstack)
 *
 * Context: task_work of current (may fault).
 * Return: 0; -EINVAL for a frame out of the stack or a bad IP; -EFAULT.
 */
int dunwind_arch_sigframe(unsigned long sp, unsigned long fp, unsigned long hi,
			  struct dunwind_uregs *r)
{
	const unsigned long mc = sp + offsetof(struct ucontext, uc_mcontext);
	struct sigcontext sc;

	if (mc < sp || mc > hi || hi - mc < sizeof(sc))
		return -EINVAL;
	if (copy_from_user(&sc, (const void __user *)mc, sizeof(sc)))
		return -EFAULT;
	if (!sc.ip || sc.ip >= TASK_SIZE_MAX)
		return -EINVAL;
	r->ip = sc.ip;
	r->sp = sc.sp;
	r->fp = sc.bp;
	r->aux = sc.bx;
	return 0;
}

/**
 * dunwind_arch_kernel_stack() - kernel IPs, innermost first
 * @regs:	the interrupted registers (in the kernel), their IP first; or
 *		NULL: current's own stack, from the caller's frames
 * @ips:	filled
 * @max:	room at @ips, at least 1
 * @trunc:	set if the stack had more frames
 * @skip:	with @regs NULL, or NULL: true for a leading frame to leave
 *		out (the caller's own, a tracepoint's iterator)
 *
 * Context: hardirq or NMI (@regs), or any (current's own stack).
 * Return: the IPs stored.
 */
unsigned int dunwind_arch_kernel_stack(struct pt_regs *regs, u64 *ips, unsigned int max,
				       bool *trunc, bool (*skip)(unsigned long addr))
{
	struct unwind_state state;
	unsigned int n = 0;

	if (regs)
		ips[n++] = regs->ip;
	/* Starting from @regs skips the handler's own frames. */
	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr)
			break;
		if (!n && skip && skip(addr))
			continue;
		if (n == max) {
			*trunc = true;
			break;
		}
		ips[n++] = addr;
	}
	return n;
}

/*
 * DUNWIND_IOC_TEST_NMI: the session the next NMI on this CPU samples into.
 * Set by the ioctl with preemption off, taken (xchg) by the NMI handler.
 */
static DEFINE_PER_CPU(struct dunwind_session *, dunwind_nmi_test);

/* The NMI that dunwind_arch_test_nmi() raised, if this CPU has one armed. */
static int dunwind_nmi_test_handler(unsigned int type, struct pt_regs *regs)
{
	struct dunwind_session *s = this_cpu_xchg(dunwind_nmi_test, NULL);

	if (!s)
		return NMI_DONE;
	dunwind_sample_test_nmi_hit(s, regs);
	return NMI_HANDLED;
}

/**
 * dunwind_arch_test_nmi_init() - register the test NMI's handler
 *
 * Context: module init.
 * Return: 0, or -errno.
 */
int dunwind_arch_test_nmi_init(void)
{
	return register_nmi_handler(NMI_LOCAL, dunwind_nmi_test_handler, 0, "dunwind_test");
}

/**
 * dunwind_arch_test_nmi_exit() - unregister it
 *
 * Context: module exit.
 */
void dunwind_arch_test_nmi_exit(void)
{
	unregister_nmi_handler(NMI_LOCAL, "dunwind_test");
}

/**
 * dunwind_arch_test_nmi() - sample current into @s from an NMI (test hook)
 * @s:	a started session; the caller keeps it started (holds its lock)
 *
 * Sends an NMI to this CPU and waits for its handler, which samples
 * current as a hardware event's overflow would: the NMI paths (task_work
 * from NMI, or the 6.1 irq_work bounce) without a PMU.
 *
 * Context: ioctl (process, may not sleep while armed).
 * Return: 0 once the handler ran, -EIO if no NMI arrived within 10 ms.
 */
int dunwind_arch_test_nmi(struct dunwind_session *s)
{
	int i, ret = -EIO;

	preempt_disable();
	this_cpu_write(dunwind_nmi_test, s);
	apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
	for (i = 0; i < 10000 && this_cpu_read(dunwind_nmi_test); i++)
		udelay(1);
	/* Taken by the handler, or disarmed here if the NMI never came. */
	if (!this_cpu_xchg(dunwind_nmi_test, NULL))
		ret = 0;
	preempt_enable();
	return ret;
}
