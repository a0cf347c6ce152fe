// SPDX-License-Identifier: GPL-2.0
/*
 * Off-CPU samples (DUNWIND_CFG_OFF_CPU): the time a target thread spends
 * blocked, with the stack it blocked in.
 *
 * The sched_switch tracepoint sees both ends.  Switched out while not
 * runnable (in prev's own context): the thread claims a slot of the
 * session's off-CPU table and stores the time and its kernel stack there.
 * Switched back in (in the context of the thread it replaces, on the CPU
 * where it is about to run): the slot gives one SAMPLE, its period the
 * time off CPU, its user part a cookie whose walk runs at the thread's
 * return to user space (kmod/sample.c, kmod/walk.c), as for a sample
 * taken in the kernel.  A thread that blocks again where it blocked
 * before mostly has that walk replayed at its switch out
 * (dunwind_replay_blocked(): its stack cannot change before it returns),
 * and its USER_STACK written there (before its SAMPLE, under the cookie
 * the SAMPLE will carry; with --off-cpu-thresh, whose blocks may give no
 * sample, by the switch in after the SAMPLE): no task_work, and no walk
 * on the thread's way back to user space.  Where the replayed frames are
 * those of a USER_STACK the thread's walk already wrote (its trace's
 * cookie), the SAMPLE names that cookie (DUNWIND_SAMPLE_EARLIER_STACK)
 * and no USER_STACK is written at all: a thread blocking in the same
 * call again and again costs one record a block.  STOP turns the
 * slots of threads still blocked into samples of the time so far, whose
 * cookies STOP then answers (dunwind_walk_end_session()).
 *
 * The probe runs with the runqueue lock held and interrupts off: it only
 * claims slots (cmpxchg), reads the blocking thread's own stack with page
 * faults disabled (a word not in memory ends the replay), writes the ring
 * (which never blocks and wakes its reader through an irq_work), and
 * queues a task_work with TWA_RESUME (no lock, no IPI for a thread that is
 * not running).
 */
#include <linux/kallsyms.h>
#include <linux/hash.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include "dunwind.h"
#include "record.h"

#define DUNWIND_OFFCPU_PROBE	16	/* slots looked at per claim or lookup */

static struct tracepoint *dunwind_switch_tp;
/* The tracepoint's iterator (several probes): its frame is skipped too. */
static unsigned long dunwind_iter_start, dunwind_iter_end;

static void dunwind_offcpu_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		dunwind_switch_tp = tp;
}

/**
 * dunwind_offcpu_init() - find the sched_switch tracepoint and its iterator
 *
 * Context: module init.
 * Return: 0, or -ENOENT if the kernel has no sched_switch tracepoint.
 */
int dunwind_offcpu_init(void)
{
	char sym[KSYM_SYMBOL_LEN], *size;

	for_each_kernel_tracepoint(dunwind_offcpu_find, NULL);
	if (!dunwind_switch_tp) {
		pr_err("tracepoint sched_switch not found\n");
		return -ENOENT;
	}
	/* "__traceiter_sched_switch+0x0/0x5a": its start and size. */
	dunwind_iter_start = (unsigned long)dunwind_switch_tp->iterator;
	dunwind_iter_end = dunwind_iter_start;
	if (dunwind_iter_start && sprint_symbol(sym, dunwind_iter_start) > 0) {
		size = strchr(sym, '/');
		if (size && !kstrtoul(strsep(&size, " ") + 1, 16, &dunwind_iter_end))
			dunwind_iter_end += dunwind_iter_start;
		else
			dunwind_iter_end = dunwind_iter_start;
	}
	return 0;
}

/**
 * dunwind_offcpu_alloc() - the off-CPU table of a session
 * @oc:		table to set up
 * @cfg:	the session's normalised configuration: one slot per possible
 *		pending walk (max_pending), max_kernel_frames IPs each
 *
 * Context: ioctl (may sleep).
 * Return: 0 (nothing allocated without DUNWIND_CFG_OFF_CPU), or -ENOMEM.
 */
int dunwind_offcpu_alloc(struct dunwind_offcpu *oc, const struct dunwind_config *cfg)
{
	if (!(cfg->flags & DUNWIND_CFG_OFF_CPU))
		return 0;
	oc->stride = offsetof(struct dunwind_offcpu_slot, ips) +
		     cfg->max_kernel_frames * sizeof(u64);
	oc->slots = kvcalloc(cfg->max_pending, oc->stride, GFP_KERNEL_ACCOUNT);
	if (!oc->slots)
		return -ENOMEM;
	oc->mask = cfg->max_pending - 1;
	return 0;
}

/**
 * dunwind_offcpu_free() - free the table; dunwind_offcpu_stop() emptied it
 * @oc:		table
 *
 * Context: process.
 */
void dunwind_offcpu_free(struct dunwind_offcpu *oc)
{
	kvfree(oc->slots);
	oc->slots = NULL;
}

static struct dunwind_offcpu_slot *dunwind_offcpu_slot(struct dunwind_offcpu *oc, u32 i)
{
	return oc->slots + (size_t)(i & oc->mask) * oc->stride;
}

/* The slot @task holds, or NULL.  Only a thread that runs nowhere is looked up. */
static struct dunwind_offcpu_slot *dunwind_offcpu_lookup(struct dunwind_offcpu *oc,
							 struct task_struct *task)
{
	u32 h = hash_ptr(task, 32);
	int i;

	for (i = 0; i < DUNWIND_OFFCPU_PROBE; i++) {
		struct dunwind_offcpu_slot *slot = dunwind_offcpu_slot(oc, h + i);

		/* Only @task stores @task here, before it stopped running. */
		if (READ_ONCE(slot->task) == task)
			return slot;
	}
	return NULL;
}

/* A free slot for current, claimed; NULL if the window is full. */
static struct dunwind_offcpu_slot *dunwind_offcpu_claim(struct dunwind_offcpu *oc)
{
	u32 h = hash_ptr(current, 32);
	int i;

	for (i = 0; i < DUNWIND_OFFCPU_PROBE; i++) {
		struct dunwind_offcpu_slot *slot = dunwind_offcpu_slot(oc, h + i);

		/*
		 * Full barrier on success: the slot's fields are written after
		 * the claim.  Pairs with the store-release in
		 * dunwind_offcpu_release(): its last reader is done with it.
		 */
		if (!READ_ONCE(slot->task) && !cmpxchg(&slot->task, NULL, current))
			return slot;
	}
	return NULL;
}

static void dunwind_offcpu_release(struct dunwind_offcpu_slot *slot)
{
	/* Pairs with the cmpxchg in dunwind_offcpu_claim(). */
	smp_store_release(&slot->task, NULL);
}

/* This module's frames (the probe) and the tracepoint's iterator. */
static bool dunwind_offcpu_skip(unsigned long addr)
{
	return within_module(addr, THIS_MODULE) ||
	       (addr >= dunwind_iter_start && addr < dunwind_iter_end);
}

/*
 * Current's kernel stack, innermost first from the scheduler: this
 * module's frames (the probe) and the tracepoint's iterator are left out.
 */
static void dunwind_offcpu_stack(struct dunwind_offcpu_slot *slot, unsigned int max)
{
	bool trunc = false;

	slot->nr = dunwind_arch_kernel_stack(NULL, slot->ips, max, &trunc, dunwind_offcpu_skip);
	slot->flags = trunc ? DUNWIND_SAMPLE_KERNEL_TRUNC : 0;
}

/*
 * The SAMPLE for @slot's block, ended @now; frees the slot.  @task runs
 * nowhere (being switched in here), or the probe is gone (STOP, @open).
 */
static void dunwind_offcpu_emit(struct dunwind_session *s, struct dunwind_offcpu_slot *slot,
				struct task_struct *task, u64 now, bool open)
{
	struct dunwind_rec_sample rec = {};
	u64 period = now > slot->start ? now - slot->start : 0;
	bool replayed;

	if (!open && period < s->cfg.offcpu_thresh_ns) {
		dunwind_count(s, DW_CNT_OFFCPU_SHORT, 1);
		goto out_release;
	}
	rec.hdr.type = DUNWIND_REC_SAMPLE;
	rec.hdr.size = dunwind_rec_sample_size(slot->nr);
	rec.time = now;
	rec.pid = task_tgid_nr(task);
	rec.tid = task_pid_nr(task);
	rec.cpu = raw_smp_processor_id();
	rec.flags = slot->flags | DUNWIND_SAMPLE_OFF_CPU;
	if (open)
		rec.flags |= DUNWIND_SAMPLE_OFF_CPU_OPEN;
	rec.period = period;
	rec.nr_kernel = slot->nr;
	if (!(task->flags & DUNWIND_PF_NO_USER) && task->mm)
		rec.user_ip = instruction_pointer(task_pt_regs(task));
	/*
	 * Its user stack replayed at the switch out (written there, or now),
	 * or a walk at its return.  A thread woken since the probe went away
	 * (STOP) may be back in user space: a walk now would not show where
	 * it blocked.
	 */
	replayed = !slot->user.cookie && slot->user.nr && !(open && task_is_running(task)) &&
		   !dunwind_pending_find(&s->pending, task);
	if (slot->user.cookie)
		rec.cookie = slot->user.cookie;
	else if (replayed)
		rec.cookie = dunwind_cookie_answered(s);
	else if (open && task_is_running(task))
		rec.flags |= DUNWIND_SAMPLE_NO_USER;
	else
		rec.cookie = dunwind_cookie(s, task, &rec.flags);
	if (!rec.cookie)
		dunwind_count(s, DW_CNT_SAMPLES_NO_USER, 1);
	dunwind_ring_write(&s->ring, &rec, sizeof(rec), slot->ips, slot->nr * sizeof(u64));
	if (replayed)
		dunwind_walk_emit_replayed(s, task, rec.cookie, &slot->user, now);
	if (rec.flags & DUNWIND_SAMPLE_EARLIER_STACK)
		dunwind_count(s, DW_CNT_SAMPLES_EARLIER, 1);
	dunwind_count(s, DW_CNT_OFFCPU, 1);
out_release:
	/* At a switch in not the last reference: the thread is about to run. */
	put_task_struct(task);
	dunwind_offcpu_release(slot);
}

/*
 * Is @p, switched out or in on this CPU, one whose blocks are measured?
 * System-wide: every user thread, blocking on one of the session's CPUs
 * (it may wake on any).  With DUNWIND_CFG_CHILDREN: a thread of a
 * followed process (follow.c; an RCU lookup, fine under the runqueue lock).
 */
static bool dunwind_offcpu_ours(struct dunwind_session *s, struct task_struct *p)
{
	if (s->system_wide)
		return !(p->flags & DUNWIND_PF_NO_USER) && p->mm &&
		       cpumask_test_cpu(raw_smp_processor_id(), s->cpus);
	if (s->children)
		return dunwind_follow_has(s, p);
	if (s->target_tid)
		return task_pid_nr(p) == s->target_tid;
	return task_tgid_nr(p) == s->target_tgid;
}

/*
 * dunwind_tp_switch() - sched_switch: @prev blocks, @next comes back
 *
 * Context: the scheduler, in @prev's context; runqueue lock held,
 * interrupts off.
 */
static void dunwind_tp_switch(void *data, DUNWIND_TP_SWITCH_PROTO)
{
	struct dunwind_session *s = data;
	struct dunwind_offcpu *oc = &s->offcpu;
	struct dunwind_offcpu_slot *slot;
	bool replayed;

	/* Switched out while not runnable, not preempted, not dying: it blocks. */
	if (!preempt && prev_state != TASK_RUNNING && !(prev->flags & PF_EXITING) &&
	    dunwind_offcpu_ours(s, prev)) {
		slot = dunwind_offcpu_claim(oc);
		if (slot) {
			get_task_struct(prev);
			dunwind_offcpu_stack(slot, s->cfg.max_kernel_frames);
			slot->start = ktime_get_mono_fast_ns();
			/*
			 * A stack this thread's earlier walk wrote is named by
			 * its cookie.  Else, with no threshold every block gets
			 * its sample: its stack is written now, off the
			 * thread's way back.
			 */
			replayed = dunwind_replay_blocked(s, &slot->user);
			if (replayed && slot->user.earlier) {
				slot->user.cookie = slot->user.earlier;
				slot->flags |= DUNWIND_SAMPLE_EARLIER_STACK;
			} else if (replayed && !s->cfg.offcpu_thresh_ns) {
				slot->user.cookie = dunwind_cookie_answered(s);
				dunwind_walk_emit_replayed(s, prev, slot->user.cookie, &slot->user,
							   slot->start);
			}
		} else {
			dunwind_count(s, DW_CNT_OFFCPU_FULL, 1);
		}
	}
	if (s->system_wide ? !(next->flags & DUNWIND_PF_NO_USER) : dunwind_offcpu_ours(s, next)) {
		slot = dunwind_offcpu_lookup(oc, next);
		if (slot)
			dunwind_offcpu_emit(s, slot, next, ktime_get_mono_fast_ns(), false);
	}
}

/*
 * The probe is found by name (the tracepoint is not exported): the
 * kernel's typed wrapper checks its prototype at build time; never called.
 */
static void __maybe_unused dunwind_offcpu_typecheck(void)
{
	register_trace_sched_switch(dunwind_tp_switch, NULL);
}

/**
 * dunwind_offcpu_start() - register the session's sched_switch probe
 * @s:	session with DUNWIND_CFG_OFF_CPU, target ids set
 *
 * Context: ioctl (may sleep), session lock held.
 * Return: 0 (nothing to do without the flag), or the tracepoint core's error.
 */
int dunwind_offcpu_start(struct dunwind_session *s)
{
	int ret;

	lockdep_assert_held(&s->lock);
	if (!(s->cfg.flags & DUNWIND_CFG_OFF_CPU))
		return 0;
	ret = tracepoint_probe_register(dunwind_switch_tp, dunwind_tp_switch, s);
	if (!ret)
		s->offcpu.on = true;
	return ret;
}

/**
 * dunwind_offcpu_stop() - unregister the probe; still-blocked threads' samples
 * @s:	session
 *
 * Each thread still in the table gets its sample now, with the time so
 * far and DUNWIND_SAMPLE_OFF_CPU_OPEN: nothing is left pending.
 *
 * Context: ioctl or release (may sleep), session lock held.
 */
void dunwind_offcpu_stop(struct dunwind_session *s)
{
	struct dunwind_offcpu *oc = &s->offcpu;
	u64 now;
	u32 i;

	lockdep_assert_held(&s->lock);
	if (!oc->on)
		return;
	tracepoint_probe_unregister(dunwind_switch_tp, dunwind_tp_switch, s);
	/* No probe runs with @s after this: the table is ours alone. */
	tracepoint_synchronize_unregister();
	oc->on = false;
	now = ktime_get_mono_fast_ns();
	for (i = 0; i <= oc->mask; i++) {
		struct dunwind_offcpu_slot *slot = dunwind_offcpu_slot(oc, i);
		struct task_struct *task = READ_ONCE(slot->task);

		if (!task)
			continue;
		preempt_disable();
		dunwind_offcpu_emit(s, slot, task, now, true);
		preempt_enable();
	}
}
