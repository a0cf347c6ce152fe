/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels dunwind supports, in one place:
 * Linux 6.1 (Debian 12), 6.12 (Debian 12 backports) and 7.2 (Debian
 * unstable).  Each branch names the kernel that needs it.
 *
 * Most branches test LINUX_VERSION_CODE.  Six test what the kernel's own
 * headers declare, probed by kmod/Kbuild (DUNWIND_HAVE_*), because the
 * version that brought or removed them is not one a distribution kernel
 * can be trusted to report (backports): TWA_NMI_CURRENT, TWAF_NO_ALLOC,
 * the group_dead argument of sched_process_exit, an exported
 * perf_allow_kernel(), task->exec_state and mm->mm_lock_seq as a seqcount.
 */
#ifndef DUNWIND_COMPAT_H
#define DUNWIND_COMPAT_H

#include <linux/version.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/task_work.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "dunwind needs Linux 6.1 or later (tested: 6.1, 6.12, 7.2); this kernel is older"
#endif

/*
 * Threads with no user stack of their own: kernel threads and, from 6.4,
 * user workers (io_uring, vhost).  On 6.1 the io_uring workers are
 * PF_IO_WORKER and vhost workers are kernel threads.
 */
#ifdef PF_USER_WORKER
#define DUNWIND_PF_NO_USER	(PF_KTHREAD | PF_USER_WORKER)
#else
#define DUNWIND_PF_NO_USER	(PF_KTHREAD | PF_IO_WORKER)		/* 6.1 */
#endif

/*
 * A task's perf context holding events of a hardware (@hw) or software
 * PMU: one context for all from 6.2, one per PMU kind on 6.1.
 */
static inline struct perf_event_context *
dunwind_task_perf_ctx(struct task_struct *task, bool hw)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	return rcu_dereference(task->perf_event_ctxp);
#else
	return rcu_dereference(task->perf_event_ctxp[hw ? perf_hw_context :	/* 6.1 */
							perf_sw_context]);
#endif
}

/* vma->vm_flags is read-only from 6.3; 6.1 writes it directly. */
static inline void dunwind_vm_flags_mod(struct vm_area_struct *vma,
					unsigned long set, unsigned long clear)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;			/* 6.1 */
#endif
}

/*
 * How the overflow handler queues a walk on current from IRQ context:
 * TWA_RESUME, and on 6.12 with TWAF_NO_ALLOC, which keeps KASAN from
 * allocating its aux stack there (7.2 no longer allocates, and dropped the
 * flag).
 */
#ifdef DUNWIND_HAVE_TWAF_NO_ALLOC
#define DUNWIND_TWA_IRQ		(TWA_RESUME | TWAF_NO_ALLOC)		/* 6.12 */
#else
#define DUNWIND_TWA_IRQ		TWA_RESUME				/* 6.1, 7.2 */
#endif

/*
 * From NMI, 6.12 and 7.2 queue task_work on current with TWA_NMI_CURRENT.
 * 6.1 cannot: kmod/sample.c bounces through an irq_work and adds the walk
 * from there (DUNWIND_NMI_BOUNCE).
 */
#ifdef DUNWIND_HAVE_TWA_NMI_CURRENT
#define DUNWIND_NMI_BOUNCE	0
#define DUNWIND_TWA_NMI		TWA_NMI_CURRENT				/* 6.12, 7.2 */
#else
#define DUNWIND_NMI_BOUNCE	1					/* 6.1 */
#define DUNWIND_TWA_NMI		TWA_RESUME	/* unused: NMIs bounce */
#endif

/*
 * Tracepoint probe prototypes (after the probe's data pointer).
 * sched_process_exit gained group_dead on 7.2.  The probes are checked
 * against the kernel's own declarations in kmod/events.c.
 */
#ifdef DUNWIND_TP_EXIT_GROUP_DEAD
#define DUNWIND_TP_EXIT_PROTO	struct task_struct *p, bool group_dead	/* 7.2 */
#else
#define DUNWIND_TP_EXIT_PROTO	struct task_struct *p			/* 6.1, 6.12 */
#endif

/*
 * Files as user space sees them.  On overlayfs a mapping's vm_file is the
 * real (upper or lower) file, not the overlay's:
 * - from 6.8 it is a backing file that knows the overlay's path and inode
 *   (file_user_path(), file_user_inode()), and /proc/PID/maps shows those;
 * - on 6.1 overlayfs opened the real file under the overlay's path
 *   (open_with_fake_path()): f_path is the overlay's, file_inode() the real
 *   inode, and /proc/PID/maps shows that path with that inode.
 * dunwind_vma_file_inode() is the inode a mapping is keyed and reported by
 * (as /proc/PID/maps shows it); dunwind_reg_file_inode() the same inode for
 * a file the recorder opened to register its table: the file itself from
 * 6.8, the real inode below an overlay's dentry (d_real_inode()) on 6.1.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
static inline const struct inode *dunwind_vma_file_inode(const struct file *f)
{
	return file_user_inode(f);					/* 6.12, 7.2 */
}

static inline const struct path *dunwind_vma_file_path(const struct file *f)
{
	return file_user_path(f);					/* 6.12, 7.2 */
}

static inline const struct inode *dunwind_reg_file_inode(const struct file *f)
{
	return file_user_inode(f);					/* 6.12, 7.2 */
}
#else
static inline const struct inode *dunwind_vma_file_inode(const struct file *f)
{
	return file_inode(f);						/* 6.1 */
}

static inline const struct path *dunwind_vma_file_path(const struct file *f)
{
	return &f->f_path;						/* 6.1 */
}

static inline const struct inode *dunwind_reg_file_inode(const struct file *f)
{
	return d_real_inode(f->f_path.dentry);				/* 6.1 */
}
#endif

/*
 * May samples carry kernel stacks?  6.12's and 7.2's perf_allow_kernel()
 * is exported and also asks the LSM (security_perf_event_open(), itself not
 * exported); 6.1's is inline over a variable modules cannot reach, so the
 * caller's @paranoid (INT_MIN: privileged) decides alone there.
 * Return: 0 or -EACCES.
 */
static inline int dunwind_perf_allow_kernel(int paranoid)
{
#ifdef DUNWIND_HAVE_PERF_ALLOW_KERNEL
	return perf_allow_kernel();					/* 6.12, 7.2 */
#else
	return paranoid > 1 && !perfmon_capable() ? -EACCES : 0;	/* 6.1 */
#endif
}

/*
 * Is @task's exec state dumpable by its owner (no setuid program, no
 * prctl(PR_SET_DUMPABLE, 0))?  ptrace's READ check asks the same.  7.2
 * keeps it in task->exec_state; 6.1 and 6.12 in the mm's flags.
 * Context: process.
 */
#ifdef DUNWIND_HAVE_TASK_EXEC_STATE
#include <linux/sched/exec_state.h>
static inline bool dunwind_task_dumpable(struct task_struct *task)
{
	const struct task_exec_state *st;
	bool ok;

	rcu_read_lock();
	st = rcu_dereference(task->exec_state);
	ok = st && READ_ONCE(st->dumpable) == TASK_DUMPABLE_OWNER;	/* 7.2 */
	rcu_read_unlock();
	return ok;
}
#else
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
static inline bool dunwind_task_dumpable(struct task_struct *task)
{
	struct mm_struct *mm = get_task_mm(task);
	bool ok = true;

	if (mm) {
		ok = get_dumpable(mm) == SUID_DUMP_USER;		/* 6.1, 6.12 */
		mmput(mm);
	}
	return ok;
}
#endif

/*
 * Close leaves a walk still queued behind by making its task_work callback
 * kfree() of its box (kmod/walk.c, dunwind_walk_detach()): a call through
 * a pointer to another function type, the same on x86_64 (one pointer
 * argument, no result), which Clang's kCFI would trap.  With kCFI close
 * lets the walks run instead, and a thread that stays in the kernel keeps
 * the module until it returns (dunwind_walk_drain()).
 */
#ifdef CONFIG_CFI_CLANG
#define DUNWIND_DETACH_WALKS		0
#define DUNWIND_TASK_WORK_KFREE		NULL
#else
#define DUNWIND_DETACH_WALKS		1				/* 6.1, 6.12, 7.2 */
#define DUNWIND_TASK_WORK_KFREE		((task_work_func_t)(void *)kfree)
#endif

/* sched_switch: the same on 6.1, 6.12 and 7.2 (prev_state since 5.18). */
#define DUNWIND_TP_SWITCH_PROTO	bool preempt, struct task_struct *prev,		\
				struct task_struct *next, unsigned int prev_state

/*
 * The sequence of an mm's mmap write lock (kmod/vmacache.c): odd while a
 * writer holds the lock, bumped at its lock and unlock.  7.2 has it, and
 * Debian's 6.12 (backported from 6.13) with CONFIG_PER_VMA_LOCK; 6.1 has
 * none (DUNWIND_MM_SEQ 0): nothing is cached across the lock, and a
 * slot's kept memo is checked mapping by mapping under it
 * (kmod/unwind.c: dunwind_unwind_memo_recheck()).  raw_read_seqcount()'s read barrier
 * pairs with the smp_wmb() of do_raw_write_seqcount_begin()/_end() in
 * mmap_write_lock()/mmap_write_unlock(): mappings read after an even
 * sequence are those of that sequence.
 * Return: true with *@seq set if no writer holds the lock.
 */
#if defined(DUNWIND_HAVE_MM_LOCK_SEQCOUNT) && defined(CONFIG_PER_VMA_LOCK)
#define DUNWIND_MM_SEQ		1					/* 6.12, 7.2 */
#else
#define DUNWIND_MM_SEQ		0					/* 6.1 */
#endif

static inline bool dunwind_mm_seq_begin(struct mm_struct *mm, unsigned int *seq)
{
#if DUNWIND_MM_SEQ
	*seq = raw_read_seqcount(&mm->mm_lock_seq);			/* 6.12, 7.2 */
	return !(*seq & 1);
#else
	return false;							/* 6.1 */
#endif
}

/*
 * ns @task has waited runnable on a run queue, in all (preempted, or woken
 * and not yet running), updated when it gets a CPU again; 0 without
 * CONFIG_SCHED_INFO (Debian's kernels have it; the 6.12-debug build not).
 */
static inline u64 dunwind_task_run_delay(struct task_struct *task)
{
#ifdef CONFIG_SCHED_INFO
	return READ_ONCE(task->sched_info.run_delay);			/* 6.1, 6.12, 7.2 */
#else
	return 0;
#endif
}

#endif /* DUNWIND_COMPAT_H */
