// SPDX-License-Identifier: GPL-2.0
/*
 * Who may profile what: perf_event_open()'s policy, applied by the module
 * because perf_event_create_kernel_counter() applies none of it.
 *
 * With CAP_PERFMON (or CAP_SYS_ADMIN) everything, as before.  Without,
 * kernel.perf_event_paranoid decides, as for perf:
 *   > 2 (Debian's 3)  nothing;
 *   2                 the caller's own processes, user stacks only (samples
 *                     taken in the kernel carry no kernel stack and are
 *                     flagged DUNWIND_SAMPLE_KERNEL_HIDDEN);
 *   1                 and kernel stacks;
 *   0                 and system-wide sessions;
 *   -1                and off-CPU sampling (sched_switch, a tracepoint).
 * A target is the caller's own when the caller could read it with ptrace
 * (PTRACE_MODE_READ_REALCREDS): same real uid and gid as all of the
 * target's, or CAP_SYS_PTRACE over it, and a dumpable target.
 *
 * Naming kernel addresses (DUNWIND_IOC_KSYM) is /proc/kallsyms's policy.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include "dunwind.h"

/* kernel.perf_event_paranoid; INT_MAX (forbid all) when it cannot be read. */
static int dunwind_perf_paranoid(void)
{
	int val;

	if (dunwind_sysctl_int("/proc/sys/kernel/perf_event_paranoid", &val))
		return INT_MAX;
	return val;
}

/*
 * May current read @task as ptrace's PTRACE_MODE_READ_REALCREDS allows
 * (ptrace_may_access() is not exported): its own thread group; else the
 * caller's real uid and gid equal all of the target's, or the caller has
 * CAP_SYS_PTRACE in the target's user namespace; and a target whose mm is
 * not dumpable (setuid, prctl) needs that capability too.
 */
static bool dunwind_perm_may_read(struct task_struct *task)
{
	const struct cred *cred = current_cred(), *tcred;
	bool same, cap;

	if (same_thread_group(task, current))
		return true;
	tcred = get_task_cred(task);
	same = uid_eq(cred->uid, tcred->euid) && uid_eq(cred->uid, tcred->suid) &&
	       uid_eq(cred->uid, tcred->uid) && gid_eq(cred->gid, tcred->egid) &&
	       gid_eq(cred->gid, tcred->sgid) && gid_eq(cred->gid, tcred->gid);
	cap = ns_capable_noaudit(tcred->user_ns, CAP_SYS_PTRACE);
	put_cred(tcred);
	return cap || (same && dunwind_task_dumpable(task));
}

/**
 * dunwind_perm_config() - may the caller configure what @cfg asks for?
 * @cfg:	the checked configuration
 * @task:	its target (pid or tid), or NULL when system-wide
 * @kernel:	set to whether samples may carry kernel stacks
 *
 * Context: ioctl (may sleep).
 * Return: 0; -EACCES when kernel.perf_event_paranoid or the target's
 * owner forbids it (see the top of this file).
 */
int dunwind_perm_config(const struct dunwind_config *cfg, struct task_struct *task, bool *kernel)
{
	int paranoid;

	if (perfmon_capable()) {
		/* With the capability, the LSM's word on kernel data (6.12, 7.2). */
		*kernel = !dunwind_perf_allow_kernel(INT_MIN);
		return 0;
	}
	paranoid = dunwind_perf_paranoid();
	if (paranoid > 2)
		return -EACCES;
	if ((cfg->flags & DUNWIND_CFG_SYSTEM_WIDE) && paranoid > 0)
		return -EACCES;
	if ((cfg->flags & DUNWIND_CFG_OFF_CPU) && paranoid > -1)
		return -EACCES;
	if (task && !dunwind_perm_may_read(task))
		return -EACCES;
	*kernel = !dunwind_perf_allow_kernel(paranoid);
	return 0;
}

/**
 * dunwind_perm_task() - may the caller (still) profile @task?
 * @task:	the target, when START attaches to it
 *
 * CONFIG checked the target; by START it may have run a setuid program.
 * Context: ioctl (may sleep).
 * Return: 0 or -EACCES.
 */
int dunwind_perm_task(struct task_struct *task)
{
	if (perfmon_capable() || dunwind_perm_may_read(task))
		return 0;
	return -EACCES;
}

/**
 * dunwind_perm_kernel_addresses() - may the caller see kernel addresses?
 *
 * As /proc/kallsyms decides for its reader (kallsyms_show_value(), not
 * exported): kernel.kptr_restrict 0 and kernel.perf_event_paranoid at
 * most 1; else CAP_SYSLOG, with kptr_restrict at most 1.  A sysctl that
 * cannot be read forbids.
 * Context: ioctl (may sleep).
 * Return: true if it may.
 */
bool dunwind_perm_kernel_addresses(void)
{
	int restrict_ptr;

	if (dunwind_sysctl_int("/proc/sys/kernel/kptr_restrict", &restrict_ptr))
		return false;
	if (!restrict_ptr && dunwind_perf_paranoid() <= 1)
		return true;
	return restrict_ptr <= 1 && ns_capable_noaudit(&init_user_ns, CAP_SYSLOG);
}
