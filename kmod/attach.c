// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching a session's perf events: to the target's threads (one event
 * each, which threads created later inherit) or, system-wide, to its CPUs;
 * and releasing them.  The session's configuration and its life are
 * kmod/session.c's.
 */
#include <linux/bsearch.h>
#include <linux/cpumask.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "dunwind.h"

/* perf's type and config for each DUNWIND_EVENT_*. */
static const struct {
	u32 type;
	u64 config;
} dunwind_events[DUNWIND_EVENT_MAX] = {
	[DUNWIND_EVENT_CPU_CLOCK]	= { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	[DUNWIND_EVENT_TASK_CLOCK]	= { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	[DUNWIND_EVENT_CYCLES]		= { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[DUNWIND_EVENT_INSTRUCTIONS]	= { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	[DUNWIND_EVENT_CACHE_MISSES]	= { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	[DUNWIND_EVENT_BRANCH_MISSES]	= { PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};

/**
 * dunwind_task_has_event() - does @task carry one of @s's events?
 * @s:		session
 * @task:	a thread; its own event, or one inherited from the thread
 *		or process that created it
 *
 * Context: any but NMI (takes the perf context's lock).
 */
bool dunwind_task_has_event(struct dunwind_session *s, struct task_struct *task)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	unsigned long flags;
	bool found = false;

	rcu_read_lock();
	ctx = dunwind_task_perf_ctx(task, dunwind_events[s->cfg.event].type == PERF_TYPE_HARDWARE);
	if (ctx) {
		/* ctx->lock guards ctx->event_list; the ctx is RCU-freed. */
		raw_spin_lock_irqsave(&ctx->lock, flags);
		list_for_each_entry(event, &ctx->event_list, event_entry) {
			if (event->overflow_handler_context == s) {
				found = true;
				break;
			}
		}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	rcu_read_unlock();
	return found;
}

/* Orders task pointers, for sort() and bsearch() of @tasks. */
static int dunwind_task_cmp(const void *a, const void *b)
{
	const struct task_struct *x = *(const struct task_struct * const *)a;
	const struct task_struct *y = *(const struct task_struct * const *)b;

	return x < y ? -1 : x > y;
}

/* Is @task handled?  @tasks must be sorted (dunwind_attach_group()). */
static bool dunwind_attach_seen(struct dunwind_session *s, struct task_struct *task)
{
	lockdep_assert_held(&s->lock);
	return bsearch(&task, s->tasks, s->nr_tasks, sizeof(*s->tasks), dunwind_task_cmp);
}

/* Grow @events and @tasks so that one more of each fits. */
static int dunwind_attach_grow(struct dunwind_session *s)
{
	unsigned int cap;
	void *p;

	lockdep_assert_held(&s->lock);
	if (s->nr_tasks < s->cap)
		return 0;
	cap = max(16u, s->cap * 2);
	p = krealloc_array(s->events, cap, sizeof(*s->events), GFP_KERNEL_ACCOUNT);
	if (!p)
		return -ENOMEM;
	s->events = p;
	p = krealloc_array(s->tasks, cap, sizeof(*s->tasks), GFP_KERNEL_ACCOUNT);
	if (!p)
		return -ENOMEM;
	s->tasks = p;
	s->cap = cap;
	return 0;
}

/* The perf attributes of @s's events. */
static void dunwind_attach_attr(struct dunwind_session *s, struct perf_event_attr *attr)
{
	*attr = (struct perf_event_attr) {
		.type = dunwind_events[s->cfg.event].type,
		.size = sizeof(*attr),
		.config = dunwind_events[s->cfg.event].config,
		.freq = !!s->cfg.sample_freq,
		/* New threads; with CHILDREN new processes too (perf's inherit). */
		.inherit = !!s->cfg.pid,
		.inherit_thread = s->cfg.pid && !(s->cfg.flags & DUNWIND_CFG_CHILDREN),
		.disabled = !!(s->cfg.flags & DUNWIND_CFG_ENABLE_ON_EXEC),
		.enable_on_exec = !!(s->cfg.flags & DUNWIND_CFG_ENABLE_ON_EXEC),
	};
	if (s->cfg.sample_freq)
		attr->sample_freq = s->cfg.sample_freq;
	else
		attr->sample_period = s->cfg.sample_period;
}

/**
 * dunwind_attach_task() - note @task as handled and, unless it already
 * inherited one of our events from the thread that created it, attach a
 * new event to it
 * @s:		session, its lock held
 * @task:	a thread of the target
 *
 * Context: ioctl (may sleep).
 * Return: 0, -ENOMEM, or perf's error.
 */
int dunwind_attach_task(struct dunwind_session *s, struct task_struct *task)
{
	struct perf_event_attr attr;
	struct perf_event *event;
	int ret;

	lockdep_assert_held(&s->lock);
	ret = dunwind_attach_grow(s);
	if (ret)
		return ret;
	dunwind_attach_attr(s, &attr);
	if (!dunwind_task_has_event(s, task)) {
		event = perf_event_create_kernel_counter(&attr, -1, task,
							 dunwind_sample_overflow, s);
		if (IS_ERR(event))
			return PTR_ERR(event);
		s->events[s->nr_events++] = event;
		dunwind_count(s, DW_CNT_THREADS, 1);
	}
	get_task_struct(task);
	s->tasks[s->nr_tasks++] = task;
	dunwind_events_comm(s, task, NULL, 0);
	return 0;
}

/**
 * dunwind_detach() - release every event and thread of @s, stop its probes
 * @s:		session, its lock held
 *
 * Context: ioctl or release (may sleep).
 */
void dunwind_detach(struct dunwind_session *s)
{
	unsigned int i;

	lockdep_assert_held(&s->lock);
	dunwind_events_stop(s);
	/* Releasing a parent event releases the events its threads inherited. */
	for (i = 0; i < s->nr_events; i++)
		perf_event_release_kernel(s->events[i]);
	for (i = 0; i < s->nr_tasks; i++)
		put_task_struct(s->tasks[i]);
	s->nr_events = 0;
	s->nr_tasks = 0;
	/* Overflow handlers in flight (NMI, IRQ) have returned after this. */
	synchronize_rcu();
	/* Last: threads still blocked get their samples, no handler races them. */
	dunwind_offcpu_stop(s);
}

/*
 * Take a reference on up to @max threads of @leader's group that are not
 * handled yet, into @batch.  Return: how many.
 */
static unsigned int dunwind_attach_unseen(struct dunwind_session *s,
					   struct task_struct *leader,
					   struct task_struct **batch, unsigned int max)
{
	struct task_struct *t;
	unsigned int n = 0;

	rcu_read_lock();
	for_each_thread(leader, t) {
		if (n == max)
			break;
		if ((t->flags & PF_EXITING) || dunwind_attach_seen(s, t))
			continue;
		get_task_struct(t);
		batch[n++] = t;
	}
	rcu_read_unlock();
	return n;
}

/**
 * dunwind_attach_group() - attach to every thread of @leader's group
 * @s:		session, its lock held
 * @leader:	the target process
 *
 * Threads created by an attached
 * thread inherit its event; threads created by a not-yet-attached one are
 * found by a later pass.  A pass that finds nothing new ends it.  Each
 * pass takes every thread not handled yet (as many as the group had when
 * it began, and a few more), and @tasks is kept sorted between passes:
 * a pass costs O(n log n), and there are two unless the group keeps
 * growing (a former batch of 64 threads per pass was O(n^3) in all).
 *
 * Context: ioctl (may sleep).
 * Return: 0; -ESRCH (no thread left); -ENOMEM; or perf's error.
 */
int dunwind_attach_group(struct dunwind_session *s, struct task_struct *leader)
{
	struct task_struct **batch = NULL;
	unsigned int max = 0, n, i;
	int pass, ret = 0;

	lockdep_assert_held(&s->lock);
	for (pass = 0; pass < 10000 && !ret; pass++) {
		unsigned int want = READ_ONCE(leader->signal->nr_threads) + 16;

		if (want > max) {
			kvfree(batch);
			batch = kvmalloc_array(want, sizeof(*batch), GFP_KERNEL);
			if (!batch)
				return -ENOMEM;
			max = want;
		}
		sort(s->tasks, s->nr_tasks, sizeof(*s->tasks), dunwind_task_cmp, NULL);
		n = dunwind_attach_unseen(s, leader, batch, max);
		if (!n)
			break;
		for (i = 0; i < n; i++) {
			if (!ret) {
				ret = dunwind_attach_task(s, batch[i]);
				/* A thread that began exiting meanwhile is no error. */
				if (ret == -ESRCH)
					ret = 0;
			}
			put_task_struct(batch[i]);
			if (!(i & 255))
				cond_resched();
		}
	}
	kvfree(batch);
	if (!ret && !s->nr_events)
		ret = -ESRCH;
	return ret;
}

/**
 * dunwind_attach_cpus() - system-wide: one event per CPU of the session's
 * set that is online, and a COMM record for every thread there is
 * @s:		session, its lock held
 *
 * Context: ioctl (may sleep).
 * Return: 0; -ENODEV (a CPU the caller named is offline, or none is
 * online); -ENOMEM; or perf's error.
 */
int dunwind_attach_cpus(struct dunwind_session *s)
{
	struct task_struct *g, *t;
	struct perf_event_attr attr;
	struct perf_event *event;
	unsigned int cpu;
	int ret;

	lockdep_assert_held(&s->lock);
	dunwind_attach_attr(s, &attr);
	for_each_cpu(cpu, s->cpus) {
		if (!cpu_online(cpu)) {
			if (s->cfg.cpus)
				return -ENODEV;
			continue;
		}
		ret = dunwind_attach_grow(s);
		if (ret)
			return ret;
		event = perf_event_create_kernel_counter(&attr, cpu, NULL,
							 dunwind_sample_overflow, s);
		if (IS_ERR(event))
			return PTR_ERR(event);
		s->events[s->nr_events++] = event;
	}
	if (!s->nr_events)
		return -ENODEV;
	rcu_read_lock();
	for_each_process_thread(g, t) {
		dunwind_events_comm(s, t, NULL, 0);
		dunwind_count(s, DW_CNT_THREADS, 1);
	}
	rcu_read_unlock();
	return 0;
}

