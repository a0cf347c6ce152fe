// SPDX-License-Identifier: GPL-2.0
/*
 * The processes a DUNWIND_CFG_CHILDREN session follows: the target and
 * every process created by one it follows, by tgid, from START until the
 * process's last thread exits.
 *
 * Perf's inheritance decides what is sampled; this set only lets the
 * tracepoint probes (kmod/events.c) name the same processes in COMM, FORK
 * and EXIT records.  A task's inherited event cannot tell: on 6.1 and
 * 6.12 perf_event_exit_task() removes it before sched_process_exit fires.
 */
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/xarray.h>
#include "dunwind.h"

/**
 * dunwind_follow_init() - an empty set
 * @s:	session being configured
 *
 * Context: ioctl.
 */
void dunwind_follow_init(struct dunwind_session *s)
{
	xa_init(&s->follow);
}

/**
 * dunwind_follow_free() - forget every process
 * @s:	session; its probes are unregistered
 *
 * Context: process (the session's last reference).
 */
void dunwind_follow_free(struct dunwind_session *s)
{
	xa_destroy(&s->follow);
}

/**
 * dunwind_follow_add() - follow the process of @task from now on
 * @s:		session
 * @task:	a thread of the process
 *
 * Context: ioctl, or a tracepoint probe (process context, preemption off).
 * Return: 0, or -ENOMEM (then the process gets no COMM, FORK or EXIT
 * records; it is sampled all the same).
 */
int dunwind_follow_add(struct dunwind_session *s, struct task_struct *task)
{
	return xa_err(xa_store(&s->follow, task_tgid_nr(task), xa_mk_value(1), GFP_ATOMIC));
}

/**
 * dunwind_follow_has() - is the process of @task followed?
 * @s:		session
 * @task:	a thread
 *
 * Context: any but NMI.
 */
bool dunwind_follow_has(struct dunwind_session *s, struct task_struct *task)
{
	return xa_load(&s->follow, task_tgid_nr(task)) != NULL;
}

/**
 * dunwind_follow_exit() - @task exits: forget its process if it was the last thread
 * @s:		session
 * @task:	the exiting thread, past the decrement of its signal's live count
 *
 * Context: the sched_process_exit probe.
 */
void dunwind_follow_exit(struct dunwind_session *s, struct task_struct *task)
{
	if (!atomic_read(&task->signal->live))
		xa_erase(&s->follow, task_tgid_nr(task));
}
