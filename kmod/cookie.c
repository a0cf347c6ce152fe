// SPDX-License-Identifier: GPL-2.0
/*
 * The cookie: what a sample carries of its thread's user part.  Samples of
 * one stay in the kernel share one cookie; the first of the stay takes a
 * pending slot and queues the walk that answers it (kmod/walk.c) on the
 * thread's return to user space.  Called from the overflow handler
 * (hardirq or NMI), the sched_switch tracepoint (kmod/offcpu.c) and STOP:
 * nothing here sleeps, allocates or touches user memory.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/task_work.h>
#include "dunwind.h"

/* Cookie sequence per CPU; a cookie is (seq << 16 | cpu), seq from 1. */
static DEFINE_PER_CPU(u64, dunwind_cookie_seq);

static u64 dunwind_new_cookie(void)
{
	return (this_cpu_inc_return(dunwind_cookie_seq) << 16) |
	       (smp_processor_id() & 0xffff);
}

/*
 * Queue @slot's walk on its thread with @mode; if the thread is past
 * exit_task_work() and will never run it, free the slot and answer its
 * cookie now (stop reason exited), unless STOP answered it first.
 * Context: hardirq, or NMI of the slot's own thread (TWA_NMI_CURRENT).
 * Return: true when the walk is queued.
 */
static bool dunwind_queue_walk(struct dunwind_pending_slot *slot, int mode)
{
	struct dunwind_session *s = slot->session;
	u64 cookie = slot->cookie;

	if (!task_work_add(slot->task, &slot->box->work, mode))
		return true;
	if (dunwind_pending_move(slot, DUNWIND_SLOT_QUEUED, DUNWIND_SLOT_DONE)) {
		slot->stash.flags |= DUNWIND_SAMPLE_EXITING;
		dunwind_walk_emit_exited(s, slot, cookie, DUNWIND_STOP_EXITED);
		dunwind_count(s, DW_CNT_WALKS, 1);
	}
	dunwind_pending_release(&s->pending, slot);
	/* No one waits for this yet: close waits only after the handlers stopped. */
	atomic_dec(&s->nr_queued);
	refcount_dec(&s->ref.refcount);	/* never the last: see dunwind_cookie_new_walk() */
	module_put(THIS_MODULE);
	return false;
}

/*
 * dunwind_nmi_bounce() - add the walk an NMI could not add itself (6.1)
 *
 * Runs from the self-IPI that irq_work_queue() raised in the NMI, before
 * this CPU next enables interrupts for long: the thread cannot have been
 * freed (its task_struct is RCU-freed, and this CPU has not passed a
 * quiescent state since the NMI).  The sample's cookie is already in the
 * ring; if the walk cannot be queued, dunwind_queue_walk() answers it.
 *
 * Context: hardirq (irq_work).
 */
static void dunwind_nmi_bounce(struct irq_work *iw)
{
	dunwind_queue_walk(container_of(iw, struct dunwind_pending_slot, bounce), TWA_RESUME);
}

/*
 * The cookie of @slot, @task's walk for this stay already queued: shared
 * from now on, so that its first sample becomes a SAMPLE; 0 if STOP
 * answered it already (this stay has no user part for us).
 */
static u64 dunwind_cookie_pending(struct dunwind_session *s, struct dunwind_pending_slot *slot,
				  struct task_struct *task, u32 *flags)
{
	int state = atomic_read(&slot->state);

	/*
	 * An NMI in @task's switch out, which reads the slot's memo
	 * (dunwind_replay_blocked()): no cookie to share, none to take.
	 */
	if (state == DUNWIND_SLOT_BORROWED) {
		*flags |= DUNWIND_SAMPLE_NO_USER;
		return 0;
	}
	if (state == DUNWIND_SLOT_ANSWERED) {
		*flags |= DUNWIND_SAMPLE_NO_USER;
		return 0;
	}
	/* @task holds its slot through its walk: we interrupted that. */
	if (state == DUNWIND_SLOT_WALKING || state == DUNWIND_SLOT_DONE) {
		*flags |= DUNWIND_SAMPLE_IN_WALK;
		dunwind_count(s, DW_CNT_WALK_SAMPLES, 1);
	}
	dunwind_sample_stash_flush(s, slot, task);
	return slot->cookie;
}

/*
 * A new cookie in @slot, just claimed for @task, with its walk queued
 * (and @stash kept for it to write, *@stashed set).
 */
static u64 dunwind_cookie_new_walk(struct dunwind_session *s, struct dunwind_pending_slot *slot,
				   struct task_struct *task, u32 *flags,
				   const struct dunwind_stash *stash, bool *stashed)
{
	u64 cookie = dunwind_new_cookie();

	slot->cookie = cookie;
	slot->exec_id = READ_ONCE(task->self_exec_id);
	slot->session = s;
	init_task_work(&slot->box->work, dunwind_walk_work);
	atomic_set(&slot->box->taken, 0);
	/*
	 * The walk holds the session and the module until it has run: no
	 * task_work may run module code after unload.  The file holds both
	 * while events exist, so these cannot be the first references.
	 */
	kref_get(&s->ref);
	__module_get(THIS_MODULE);
	atomic_inc(&s->nr_queued);
	dunwind_count(s, DW_CNT_SAMPLES_DEFERRED, 1);
	if (stash) {
		slot->stash = *stash;
		atomic_set(&slot->stashed, 1);
		*stashed = true;
	}
	/*
	 * The cookie is owed (and the stash set).  Pairs with the cmpxchg of
	 * STOP/close and walk.
	 */
	atomic_set_release(&slot->state, DUNWIND_SLOT_QUEUED);
	if (in_nmi() && DUNWIND_NMI_BOUNCE) {
		/* 6.1: no task_work from NMI; add it from an irq_work. */
		init_irq_work(&slot->bounce, dunwind_nmi_bounce);
		irq_work_queue(&slot->bounce);
	} else if (!dunwind_queue_walk(slot, in_nmi() ? DUNWIND_TWA_NMI : DUNWIND_TWA_IRQ)) {
		/* The slot is free again: only the local copy of the cookie holds. */
		*flags |= DUNWIND_SAMPLE_EXITING;
	}
	return cookie;
}

/**
 * dunwind_cookie_stash() - dunwind_cookie(), and with @stash, keep the
 * sample in a new cookie's slot for its walk to write
 * @s:		session
 * @task:	as for dunwind_cookie()
 * @flags:	as for dunwind_cookie()
 * @stash:	the sample (it interrupted user mode), or NULL
 * @stashed:	set if @stash was kept: the caller writes no SAMPLE
 *
 * Context: as dunwind_cookie().
 * Return: as dunwind_cookie().
 */
u64 dunwind_cookie_stash(struct dunwind_session *s, struct task_struct *task, u32 *flags,
			 const struct dunwind_stash *stash, bool *stashed)
{
	struct dunwind_pending_slot *slot;
	u64 cookie;

	if ((task->flags & DUNWIND_PF_NO_USER) || !task->mm) {
		*flags |= DUNWIND_SAMPLE_NO_USER;
		if (task->flags & DUNWIND_PF_NO_USER)
			*flags |= DUNWIND_SAMPLE_KERNEL_THREAD;
		return 0;
	}
	slot = dunwind_pending_find(&s->pending, task);
	if (slot)
		return dunwind_cookie_pending(s, slot, task, flags);

	if (task->flags & PF_EXITING) {
		/*
		 * No return to user will come: say so now, under a cookie,
		 * counted as a walk answered at once (one per cookie).
		 */
		cookie = dunwind_new_cookie();
		*flags |= DUNWIND_SAMPLE_EXITING;
		dunwind_count(s, DW_CNT_SAMPLES_DEFERRED, 1);
		dunwind_walk_emit_exited(s, NULL, cookie, DUNWIND_STOP_EXITED);
		dunwind_count(s, DW_CNT_WALKS, 1);
		return cookie;
	}

	slot = dunwind_pending_claim(&s->pending, task);
	if (!slot) {
		*flags |= DUNWIND_SAMPLE_NO_USER | DUNWIND_SAMPLE_PENDING_FULL;
		dunwind_count(s, DW_CNT_PENDING_FULL, 1);
		return 0;
	}
	return dunwind_cookie_new_walk(s, slot, task, flags, stash, stashed);
}

/**
 * dunwind_cookie_answered() - a new cookie whose answer the caller writes
 * now, with no walk: an off-CPU sample whose user stack its switch out
 * replayed (kmod/offcpu.c), the thread owning no pending slot
 * @s:		session
 *
 * Context: the sched_switch tracepoint, or ioctl (STOP).
 * Return: the cookie, counted as deferred (one per USER_STACK).
 */
u64 dunwind_cookie_answered(struct dunwind_session *s)
{
	dunwind_count(s, DW_CNT_SAMPLES_DEFERRED, 1);
	return dunwind_new_cookie();
}

/**
 * dunwind_cookie() - the cookie for @task's user part
 * @s:		session
 * @task:	current (overflow handler), or a target thread not running
 *		anywhere: being switched in here (kmod/offcpu.c), or blocked
 *		once the session's handlers and probes are gone (STOP)
 * @flags:	DUNWIND_SAMPLE_* to add to when there is no user part, or
 *		when @task is running its walk (IN_WALK)
 *
 * The pending one if a walk is queued for this stay in the kernel, else a
 * new one with a walk queued now.  The slot's state is read by @task's own
 * interrupt or while @task runs nowhere, so @task's own stores to it (the
 * walk's) are seen without a barrier.
 *
 * Context: hardirq or NMI (current), the sched_switch tracepoint, or ioctl.
 * Return: the cookie, or 0 with @flags saying why there is no user part.
 */
u64 dunwind_cookie(struct dunwind_session *s, struct task_struct *task, u32 *flags)
{
	bool stashed = false;

	return dunwind_cookie_stash(s, task, flags, NULL, &stashed);
}
