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
	ret = dunwind_arch_test_nmi_init();
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
	dunwind_arch_test_nmi_exit();
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
	u64 c0 = dunwind_cycles();	/* where local_clock() is dozens of instructions */
	struct dunwind_scratch *sc;
	unsigned int nr = 0;
	bool trunc = false;
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
		rec.user_ip = instruction_pointer(regs);
		dunwind_count(s, DW_CNT_SAMPLES_USER, 1);
	} else {
		if (s->kernel_stacks)
			nr = dunwind_arch_kernel_stack(regs, sc->ips[lvl],
						       s->cfg.max_kernel_frames, &trunc, NULL);
		else
			rec.flags |= DUNWIND_SAMPLE_KERNEL_HIDDEN;
		if (trunc)
			rec.flags |= DUNWIND_SAMPLE_KERNEL_TRUNC;
		if (!(current->flags & DUNWIND_PF_NO_USER) && current->mm)
			rec.user_ip = instruction_pointer(task_pt_regs(current));
	}
	if ((rec.flags & DUNWIND_SAMPLE_USER_MODE) && (s->cfg.flags & DUNWIND_CFG_SAMPLE_STACK)) {
		stash.time = rec.time;
		stash.user_ip = rec.user_ip;
		stash.period = rec.period;
		stash.cpu = rec.cpu;
		stash.flags = rec.flags;
		want = &stash;
	}
	/*
	 * In a system call where the thread's last walk started, its stack as
	 * that walk read it: the stack that walk wrote, under its cookie.
	 */
	if (!(rec.flags & DUNWIND_SAMPLE_USER_MODE) && !lvl)
		rec.cookie = dunwind_replay_sampled(s);
	if (rec.cookie) {
		rec.flags |= DUNWIND_SAMPLE_EARLIER_STACK;
		dunwind_count(s, DW_CNT_SAMPLES_EARLIER, 1);
	} else {
		rec.cookie = dunwind_cookie_stash(s, current, &rec.flags, want, &stashed);
	}
	if (!rec.cookie)
		dunwind_count(s, DW_CNT_SAMPLES_NO_USER, 1);
	rec.nr_kernel = nr;
	rec.hdr.size = dunwind_rec_sample_size(nr);
	/* A stashed sample is its walk's to write (kmod/sample_stack.c). */
	if (!stashed)
		dunwind_ring_write(&s->ring, &rec, sizeof(rec), sc->ips[lvl], nr * sizeof(u64));

	sc->busy[lvl] = 0;
	dunwind_count(s, DW_CNT_SAMPLES, 1);
	/* Interrupts off: on this CPU's clock throughout. */
	dunwind_count(s, DW_CNT_HANDLER_CYCLES, dunwind_cycles() - c0);
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

/**
 * dunwind_sample_test_nmi_hit() - the test NMI's sample (kmod/arch/)
 * @s:		the session dunwind_sample_test_nmi() armed it for
 * @regs:	the interrupted registers
 *
 * Context: NMI, current is the sampled thread.
 */
void dunwind_sample_test_nmi_hit(struct dunwind_session *s, struct pt_regs *regs)
{
	dunwind_sample(s, 1, regs);
}

/**
 * dunwind_sample_test_nmi() - sample current into @s from an NMI (test hook)
 * @s:	a started session; the caller keeps it started (holds its lock)
 *
 * The arch raises an NMI on this CPU and waits for its handler, which
 * samples current as a hardware event's overflow would: the NMI paths
 * (task_work from NMI, or the 6.1 irq_work bounce) without a PMU.
 *
 * Context: ioctl (process, may not sleep while armed).
 * Return: 0 once the handler ran, -EIO if no NMI arrived within 10 ms.
 */
int dunwind_sample_test_nmi(struct dunwind_session *s)
{
	return dunwind_arch_test_nmi(s);
}
