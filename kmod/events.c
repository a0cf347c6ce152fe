// SPDX-License-Identifier: GPL-2.0
/*
 * COMM, FORK and EXIT records, from the scheduler's tracepoints, so that a
 * capture names its threads and knows when they came and went.
 *
 * The tracepoints are found by name at module load (their symbols are
 * not exported) and the probes registered then, once: registering one
 * patches the kernel's text and waits for RCU, 40 to 57 ms of a START
 * under QEMU for the four when each session registered its own.  A
 * started session joins a list the probes walk; probes run in the traced
 * task's context with preemption off and only write to the ring (which
 * never blocks).  With no session started a probe reads one list head.
 */
#include <linux/binfmts.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include <trace/events/task.h>
#include "dunwind.h"

/*
 * The started sessions that want COMM, FORK and EXIT records, by
 * events_node.  Guards: dunwind_events_lock for writers; the probes walk
 * it under RCU, so a session leaves it a grace period before it is freed
 * (dunwind_detach()).
 */
static LIST_HEAD(dunwind_events_sessions);
static DEFINE_MUTEX(dunwind_events_lock);

/* Run @fn(session, args...) for each started session; probe context. */
#define dunwind_events_each(fn, ...)						\
	do {									\
		struct dunwind_session *__s;					\
										\
		rcu_read_lock();						\
		list_for_each_entry_rcu(__s, &dunwind_events_sessions, events_node) \
			fn(__s, __VA_ARGS__);					\
		rcu_read_unlock();						\
	} while (0)

/*
 * Is @p the session's target thread, or a thread of its target group (with
 * DUNWIND_CFG_CHILDREN: a thread of a followed process, follow.c; with
 * DUNWIND_CFG_SYSTEM_WIDE: any task)?
 * By struct pid, never by number: the session holds its target's struct
 * pid, so once the target is gone and its number is reused, the new
 * process (maybe another user's) has another struct pid and is not ours.
 */
static bool dunwind_events_ours(struct dunwind_session *s, struct task_struct *p)
{
	if (s->system_wide)
		return true;
	if (s->children)
		return dunwind_follow_has(s, p);
	if (s->target_tid)
		return task_pid(p) == s->target;
	return task_tgid(p) == s->target;
}

static void dunwind_events_task(struct dunwind_session *s, u32 type, struct task_struct *p,
				struct task_struct *parent)
{
	struct dunwind_rec_task rec = {
		.hdr = { .type = type, .size = sizeof(rec) },
		.time = ktime_get_mono_fast_ns(),
		.pid = task_tgid_nr(p),
		.tid = task_pid_nr(p),
	};

	if (parent) {
		rec.ppid = task_tgid_nr(parent);
		rec.ptid = task_pid_nr(parent);
	}
	dunwind_ring_write(&s->ring, &rec, sizeof(rec), NULL, 0);
}

/**
 * dunwind_events_comm() - write a COMM record
 * @s:		session
 * @task:	the thread
 * @comm:	its name (at most TASK_COMM_LEN bytes are used), or NULL for
 *		@task's current name
 * @misc:	DUNWIND_COMM_EXEC or 0
 *
 * Context: process, or a tracepoint in @task's context; not NMI.
 */
void dunwind_events_comm(struct dunwind_session *s, struct task_struct *task,
			 const char *comm, u16 misc)
{
	struct dunwind_rec_comm rec = {
		.hdr = { .type = DUNWIND_REC_COMM, .misc = misc, .size = sizeof(rec) },
		.time = ktime_get_mono_fast_ns(),
		.pid = task_tgid_nr(task),
		.tid = task_pid_nr(task),
	};

	BUILD_BUG_ON(sizeof(rec.comm) != TASK_COMM_LEN);
	if (comm)
		strscpy_pad(rec.comm, comm, sizeof(rec.comm));
	else
		get_task_comm(rec.comm, task);
	dunwind_ring_write(&s->ring, &rec, sizeof(rec), NULL, 0);
}

/* Is the new task @child followed (threads; with CHILDREN processes too)? */
static bool dunwind_events_new_ours(struct dunwind_session *s, struct task_struct *child)
{
	if (s->system_wide)
		return true;
	if (s->target_tid)
		return false;
	if (!s->children || !thread_group_leader(child))
		return dunwind_events_ours(s, child);
	/* A new process: followed when it inherited one of our events. */
	return dunwind_task_has_event(s, child) && !dunwind_follow_add(s, child);
}

static void dunwind_events_on_fork(struct dunwind_session *s, struct task_struct *parent,
				   struct task_struct *child)
{
	if (!dunwind_events_new_ours(s, child))
		return;
	/* The child inherited the creating thread's event. */
	dunwind_count(s, DW_CNT_THREADS, 1);
	dunwind_events_task(s, DUNWIND_REC_FORK, child, parent);
	dunwind_events_comm(s, child, parent->comm, 0);
}

static void dunwind_events_on_exit(struct dunwind_session *s, struct task_struct *p)
{
	if (!dunwind_events_ours(s, p))
		return;
	dunwind_events_task(s, DUNWIND_REC_EXIT, p, NULL);
	if (s->children)
		dunwind_follow_exit(s, p);
}

static void dunwind_events_on_exec(struct dunwind_session *s, struct task_struct *p)
{
	if (!dunwind_events_ours(s, p))
		return;
	/* Earlier MMAP records of this process no longer hold. */
	atomic_inc(&s->exec_gen);
	dunwind_events_comm(s, p, NULL, DUNWIND_COMM_EXEC);
}

static void dunwind_events_on_rename(struct dunwind_session *s, struct task_struct *task,
				  const char *comm)
{
	if (dunwind_events_ours(s, task))
		dunwind_events_comm(s, task, comm, 0);
}

/* The probes, registered at module load with NULL data. */
static void dunwind_tp_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	dunwind_events_each(dunwind_events_on_fork, parent, child);
}

static void dunwind_tp_exit(void *data, DUNWIND_TP_EXIT_PROTO)
{
	dunwind_events_each(dunwind_events_on_exit, p);
}

static void dunwind_tp_exec(void *data, struct task_struct *p, pid_t old_pid,
			    struct linux_binprm *bprm)
{
	dunwind_events_each(dunwind_events_on_exec, p);
}

static void dunwind_tp_rename(void *data, struct task_struct *task, const char *comm)
{
	dunwind_events_each(dunwind_events_on_rename, task, comm);
}

/*
 * The probes are found by name (the tracepoints are not exported), so
 * nothing would check their prototypes: a probe with the wrong arguments
 * reads garbage, and faults on kCFI kernels.  Calling the kernel's typed
 * register_trace_*() wrappers here makes the compiler check each one; the
 * function is never called or emitted.
 */
static void __maybe_unused dunwind_events_typecheck(void)
{
	register_trace_sched_process_fork(dunwind_tp_fork, NULL);
	register_trace_sched_process_exit(dunwind_tp_exit, NULL);
	register_trace_sched_process_exec(dunwind_tp_exec, NULL);
	register_trace_task_rename(dunwind_tp_rename, NULL);
}

static struct dunwind_tracepoint {
	const char *name;
	void *probe;
	struct tracepoint *tp;
} dunwind_tracepoints[] = {
	{ "sched_process_fork", dunwind_tp_fork },
	{ "sched_process_exit", dunwind_tp_exit },
	{ "sched_process_exec", dunwind_tp_exec },
	{ "task_rename", dunwind_tp_rename },
};

static void dunwind_events_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dunwind_tracepoints); i++)
		if (!strcmp(tp->name, dunwind_tracepoints[i].name))
			dunwind_tracepoints[i].tp = tp;
}

static void dunwind_events_unregister(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(dunwind_tracepoints[n].tp,
					    dunwind_tracepoints[n].probe, NULL);
	/* No probe runs after this. */
	tracepoint_synchronize_unregister();
}

/**
 * dunwind_events_init() - find the tracepoints by name, register the probes
 *
 * Context: module init (may sleep).
 * Return: 0, -ENOENT if one is missing (a kernel without them), or the
 * tracepoint core's error (nothing left registered).
 */
int dunwind_events_init(void)
{
	unsigned int i;
	int ret;

	for_each_kernel_tracepoint(dunwind_events_find, NULL);
	for (i = 0; i < ARRAY_SIZE(dunwind_tracepoints); i++) {
		if (!dunwind_tracepoints[i].tp) {
			pr_err("tracepoint %s not found\n", dunwind_tracepoints[i].name);
			return -ENOENT;
		}
	}
	for (i = 0; i < ARRAY_SIZE(dunwind_tracepoints); i++) {
		ret = tracepoint_probe_register(dunwind_tracepoints[i].tp,
						dunwind_tracepoints[i].probe, NULL);
		if (ret) {
			dunwind_events_unregister(i);
			return ret;
		}
	}
	return 0;
}

/**
 * dunwind_events_exit() - unregister the probes and wait for them
 *
 * Context: module exit (may sleep), every session freed.
 */
void dunwind_events_exit(void)
{
	WARN_ON_ONCE(!list_empty(&dunwind_events_sessions));
	dunwind_events_unregister(ARRAY_SIZE(dunwind_tracepoints));
}

/**
 * dunwind_events_start() - the probes write @s's records from now on
 * @s:	session, with target_tgid/target_tid set
 *
 * Context: ioctl (may sleep), session lock held.
 */
void dunwind_events_start(struct dunwind_session *s)
{
	lockdep_assert_held(&s->lock);
	/* START runs once until STOP, whose detach took @s off. */
	if (WARN_ON_ONCE(s->events_on))
		return;
	mutex_lock(&dunwind_events_lock);
	list_add_tail_rcu(&s->events_node, &dunwind_events_sessions);
	mutex_unlock(&dunwind_events_lock);
	s->events_on = true;
}

/**
 * dunwind_events_stop() - the probes write no more of @s's records
 * @s:	session
 *
 * A probe that found @s may still be writing: the caller waits for a
 * grace period before @s can join again or be freed (dunwind_detach()).
 *
 * Context: ioctl or release (may sleep), session lock held.
 */
void dunwind_events_stop(struct dunwind_session *s)
{
	lockdep_assert_held(&s->lock);
	if (!s->events_on)
		return;
	mutex_lock(&dunwind_events_lock);
	list_del_rcu(&s->events_node);
	mutex_unlock(&dunwind_events_lock);
	s->events_on = false;
}
