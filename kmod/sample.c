// SPDX-License-Identifier: GPL-2.0
/*
 * The overflow handler: at each sample, record the kernel stack and the
 * thread's cookie, and queue the user walk the first time in a stay in the
 * kernel.  Runs in hardirq (cpu-clock) or NMI (hardware events) context:
 * nothing here sleeps, allocates or touches user memory.
 */
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/task_work.h>
#include <linux/timekeeping.h>
#include <linux/delay.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/tsc.h>
#include <asm/unwind.h>
#include "dunwind.h"
#include "record.h"

/*
 * Per-CPU scratch for kernel IPs, one per context level that can nest on a
 * CPU: [0] hardirq/softirq/task, [1] NMI.  @busy catches the impossible
 * nesting within one level.
 */
struct dunwind_scratch {
	u64 ips[2][DUNWIND_MAX_KERNEL_FRAMES];
	int busy[2];
};

static struct dunwind_scratch __percpu *dunwind_scratch;
/* Cookie sequence per CPU; a cookie is (seq << 16 | cpu), seq from 1. */
static DEFINE_PER_CPU(u64, dunwind_cookie_seq);
/*
 * DUNWIND_IOC_TEST_NMI: the session the next NMI on this CPU samples into.
 * Set by the ioctl with preemption off, taken (xchg) by the NMI handler.
 */
static DEFINE_PER_CPU(struct dunwind_session *, dunwind_nmi_test);

static int dunwind_nmi_test_handler(unsigned int type, struct pt_regs *regs);

/**
 * dunwind_sample_init() - allocate the per-CPU scratch buffers
 *
 * Context: module init.
 * Return: 0, or -ENOMEM.
 */
int dunwind_sample_init(void)
{
	int ret;

	dunwind_scratch = alloc_percpu(struct dunwind_scratch);
	if (!dunwind_scratch)
		return -ENOMEM;
	ret = register_nmi_handler(NMI_LOCAL, dunwind_nmi_test_handler, 0, "dunwind_test");
	if (ret)
		free_percpu(dunwind_scratch);
	return ret;
}

/**
 * dunwind_sample_exit() - free what dunwind_sample_init() allocated
 *
 * Context: module exit; no event may still exist.
 */
void dunwind_sample_exit(void)
{
	unregister_nmi_handler(NMI_LOCAL, "dunwind_test");
	free_percpu(dunwind_scratch);
}

/**
 * dunwind_sample_max_rate() - the kernel's perf_event_max_sample_rate now
 *
 * perf_event_open() refuses a frequency above this sysctl, which perf
 * lowers by itself when overflow handlers take too long; kernel counters
 * skip that check, so the session applies it.  The variable is not
 * exported: read the sysctl's file.
 *
 * Context: process (may sleep).
 * Return: the rate in Hz, or DUNWIND_SAMPLE_MAX_FREQ if it cannot be read.
 */
u32 dunwind_sample_max_rate(void)
{
	int rate;

	if (dunwind_sysctl_int("/proc/sys/kernel/perf_event_max_sample_rate", &rate) || rate <= 0)
		return DUNWIND_SAMPLE_MAX_FREQ;
	return min_t(u32, rate, DUNWIND_SAMPLE_MAX_FREQ);
}

static u64 dunwind_new_cookie(void)
{
	return (this_cpu_inc_return(dunwind_cookie_seq) << 16) |
	       (smp_processor_id() & 0xffff);
}

/* Kernel IPs of the interrupted context, innermost first, regs->ip first. */
static unsigned int dunwind_kernel_stack(struct pt_regs *regs, u64 *ips, unsigned int max,
					 u32 *flags)
{
	struct unwind_state state;
	unsigned int n = 0;

	ips[n++] = regs->ip;
	/* Starting from @regs skips the handler's own frames. */
	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr)
			break;
		if (n == max) {
			*flags |= DUNWIND_SAMPLE_KERNEL_TRUNC;
			break;
		}
		ips[n++] = addr;
	}
	return n;
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
	refcount_dec(&s->ref.refcount);	/* never the last: see dunwind_sample_cookie() */
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
 * dunwind_sample_cookie_stash() - dunwind_sample_cookie(), and with
 * @stash, keep the sample in a new cookie's slot for its walk to write
 * (*@stashed set: the caller writes no SAMPLE).
 */
static u64 dunwind_sample_cookie_stash(struct dunwind_session *s, struct task_struct *task,
				       u32 *flags, const struct dunwind_stash *stash,
				       bool *stashed)
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
	if (slot) {
		int state = atomic_read(&slot->state);

		/* STOP answered it already: this stay has no user part for us. */
		if (state == DUNWIND_SLOT_ANSWERED) {
			*flags |= DUNWIND_SAMPLE_NO_USER;
			return 0;
		}
		/* @task holds its slot through its walk: we interrupted that. */
		if (state == DUNWIND_SLOT_WALKING || state == DUNWIND_SLOT_DONE) {
			*flags |= DUNWIND_SAMPLE_IN_WALK;
			dunwind_count(s, DW_CNT_WALK_SAMPLES, 1);
		}
		/* The cookie is shared from now on: its first sample is a SAMPLE. */
		dunwind_sample_stash_flush(s, slot, task);
		return slot->cookie;
	}

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
	cookie = dunwind_new_cookie();
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
 * dunwind_sample_cookie() - the cookie for @task's user part
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
u64 dunwind_sample_cookie(struct dunwind_session *s, struct task_struct *task, u32 *flags)
{
	bool stashed = false;

	return dunwind_sample_cookie_stash(s, task, flags, NULL, &stashed);
}

/*
 * dunwind_sample() - one SAMPLE of current into @s, its user part deferred
 * @s:		session
 * @period:	the event's period (perf's sample data), or 1
 * @regs:	the interrupted registers
 *
 * Context: hardirq or NMI, current is the sampled thread.
 */
static void dunwind_sample(struct dunwind_session *s, u64 period, struct pt_regs *regs)
{
	struct dunwind_rec_sample rec = {};
	struct dunwind_stash stash, *want = NULL;
	bool stashed = false;
	u64 c0 = get_cycles();	/* one instruction, where local_clock() is dozens */
	struct dunwind_scratch *sc;
	unsigned int nr = 0;
	int lvl = in_nmi() ? 1 : 0;

	sc = this_cpu_ptr(dunwind_scratch);
	if (WARN_ON_ONCE(sc->busy[lvl]))
		return;
	sc->busy[lvl] = 1;

	rec.hdr.type = DUNWIND_REC_SAMPLE;
	rec.time = ktime_get_mono_fast_ns();
	rec.pid = task_tgid_nr(current);
	rec.tid = task_pid_nr(current);
	rec.cpu = smp_processor_id();
	rec.period = period;
	if (lvl)
		rec.flags |= DUNWIND_SAMPLE_NMI;
	if (user_mode(regs)) {
		rec.flags |= DUNWIND_SAMPLE_USER_MODE;
		rec.user_ip = regs->ip;
		dunwind_count(s, DW_CNT_SAMPLES_USER, 1);
	} else {
		if (s->kernel_stacks)
			nr = dunwind_kernel_stack(regs, sc->ips[lvl], s->cfg.max_kernel_frames,
						  &rec.flags);
		else
			rec.flags |= DUNWIND_SAMPLE_KERNEL_HIDDEN;
		if (!(current->flags & DUNWIND_PF_NO_USER) && current->mm)
			rec.user_ip = task_pt_regs(current)->ip;
	}
	if ((rec.flags & DUNWIND_SAMPLE_USER_MODE) && (s->cfg.flags & DUNWIND_CFG_SAMPLE_STACK)) {
		stash.time = rec.time;
		stash.user_ip = rec.user_ip;
		stash.period = rec.period;
		stash.cpu = rec.cpu;
		stash.flags = rec.flags;
		want = &stash;
	}
	rec.cookie = dunwind_sample_cookie_stash(s, current, &rec.flags, want, &stashed);
	if (!rec.cookie)
		dunwind_count(s, DW_CNT_SAMPLES_NO_USER, 1);
	rec.nr_kernel = nr;
	rec.hdr.size = dunwind_rec_sample_size(nr);
	/* A stashed sample is its walk's to write (kmod/sample_stack.c). */
	if (!stashed)
		dunwind_ring_write(&s->ring, &rec, sizeof(rec), sc->ips[lvl], nr * sizeof(u64));

	sc->busy[lvl] = 0;
	dunwind_count(s, DW_CNT_SAMPLES, 1);
	/* Interrupts off: on this CPU's TSC throughout. */
	dunwind_count(s, DW_CNT_HANDLER_CYCLES, get_cycles() - c0);
}

/**
 * dunwind_sample_overflow() - perf overflow handler of every dunwind event
 * @event:	the event (initial or inherited); its context is the session
 * @data:	perf's sample data (for the period)
 * @regs:	the interrupted registers
 *
 * Context: hardirq (the clocks) or NMI (hardware events), current is the
 * sampled thread.
 */
void dunwind_sample_overflow(struct perf_event *event, struct perf_sample_data *data,
			     struct pt_regs *regs)
{
	if (regs)
		dunwind_sample(event->overflow_handler_context, data->period, regs);
}

/* The NMI that dunwind_sample_test_nmi() raised, if this CPU has one armed. */
static int dunwind_nmi_test_handler(unsigned int type, struct pt_regs *regs)
{
	struct dunwind_session *s = this_cpu_xchg(dunwind_nmi_test, NULL);

	if (!s)
		return NMI_DONE;
	dunwind_sample(s, 1, regs);
	return NMI_HANDLED;
}

/**
 * dunwind_sample_test_nmi() - sample current into @s from an NMI (test hook)
 * @s:	a started session; the caller keeps it started (holds its lock)
 *
 * Sends an NMI to this CPU and waits for its handler, which samples
 * current as a hardware event's overflow would: the NMI paths (task_work
 * from NMI, or the 6.1 irq_work bounce) without a PMU.
 *
 * Context: ioctl (process, may not sleep while armed).
 * Return: 0 once the handler ran, -EIO if no NMI arrived within 10 ms.
 */
int dunwind_sample_test_nmi(struct dunwind_session *s)
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
