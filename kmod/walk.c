// SPDX-License-Identifier: GPL-2.0
/*
 * The deferred user walk.  Runs as task_work of the sampled thread on its
 * way back to user space, where user memory may be read and may fault:
 * one walk per cookie, emitting one USER_STACK.
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/timekeeping.h>
#include "interp.h"
#include "record.h"
#include "unwind.h"

/*
 * Frames a walk keeps in its own stack frame: most walks are shorter and
 * need no allocation; a deeper one moves to an array of @max that its
 * pending slot keeps for the slot's later deep walks
 * (dunwind_pending_slot.ips).
 */
#define DUNWIND_WALK_SMALL	32

struct dunwind_walk {
	u64 *ips;			/* the walker's small array, *@big, or *@interp's stack */
	u64 **big;			/* the slot's array of @max, or NULL */
	void **interp;			/* the slot's interpreter scratch */
	struct dunwind_vma_memo *stack;	/* the slot's stack mapping */
	struct dunwind_sframe_memo *memo;	/* the slot's last walk's, or NULL */
	struct dunwind_walk_trace *trace;	/* the memo's trace that @ips are the frames of */
	unsigned int nr;
	unsigned int cap;		/* room at @ips */
	unsigned int max;
	unsigned int nr_by[DUNWIND_METHOD_NR];	/* frames by method (dunwind_unwind_methods) */
	u64 cycles_by[DUNWIND_METHOD_NR];	/* their cost in one dunwind_walk_once() */
	u8 methods;
	u8 stop;
};

/*
 * Room for @max frames, once the small array is full: the slot's array,
 * allocated at its first deep walk.  Return: 0, or -ENOMEM.
 */
static int dunwind_walk_grow(struct dunwind_walk *w)
{
	if (!*w->big)
		*w->big = kmalloc_array(w->max, sizeof(u64), GFP_KERNEL_ACCOUNT);
	if (!*w->big)
		return -ENOMEM;
	memcpy(*w->big, w->ips, w->nr * sizeof(u64));
	w->ips = *w->big;
	w->cap = w->max;
	return 0;
}

/*
 * A pending slot's memo of its walks (struct dunwind_sframe_memo), with
 * room for the rules it keeps (by return address, and its first frames')
 * and its last walks' traces (kmod/replay.c):
 * from a system call and from user mode;
 * none kept yet.  Return: it, or NULL.
 */
static struct dunwind_sframe_memo *dunwind_walk_memo_alloc(void)
{
	struct dunwind_sframe_memo *memo;
	const size_t size = sizeof(*memo) + DUNWIND_MEMO_RULES * sizeof(*memo->rules) +
			    DUNWIND_MEMO_LEAVES * sizeof(*memo->leaves) + 2 * sizeof(*memo->trace);

	/* One object of the 8 KiB slab per slot. */
	BUILD_BUG_ON(size > 8192);
	memo = kzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!memo)
		return NULL;
	memo->rules = (struct dunwind_memo_rule *)(memo + 1);
	memo->leaves = (struct dunwind_urule *)(memo->rules + DUNWIND_MEMO_RULES);
	memo->trace = (struct dunwind_walk_trace *)(memo->leaves + DUNWIND_MEMO_LEAVES);
	memo->utrace = memo->trace + 1;
	memo->utrace->user = true;
	return memo;
}

/* The fixed part of @task's USER_STACK of @nr frames but its time and counts. */
static void dunwind_user_stack_init(struct dunwind_rec_user_stack *rec, struct task_struct *task,
				    u64 cookie, u16 nr, u8 methods, u8 stop)
{
	rec->hdr.type = DUNWIND_REC_USER_STACK;
	rec->hdr.size = dunwind_rec_user_stack_size(nr);
	rec->cookie = cookie;
	rec->pid = task_tgid_nr(task);
	rec->tid = task_pid_nr(task);
	rec->nr = nr;
	rec->methods = methods;
	rec->stop = stop;
}

/*
 * The answer to @cookie: a USER_STACK, or with the cookie's first sample
 * still stashed in @slot (DUNWIND_CFG_SAMPLE_STACK), one SAMPLE_STACK.
 */
static int dunwind_walk_record(struct dunwind_session *s, struct dunwind_pending_slot *slot,
			       u64 cookie, const struct dunwind_walk *w)
{
	struct dunwind_rec_user_stack rec = {};

	dunwind_user_stack_init(&rec, current, cookie, w->nr, w->methods, w->stop);
	rec.nr_fp = dunwind_methods_nr(w->nr_by, DUNWIND_UNWIND_FP);
	rec.nr_sframe = dunwind_methods_nr(w->nr_by, DUNWIND_UNWIND_SFRAME);
	/* Full barrier: the stash was written before @stashed was set. */
	if (slot && atomic_xchg(&slot->stashed, 0))
		return dunwind_sample_stack_write(s, slot, &rec, w->ips);
	/* A SAMPLE_STACK carries its sample's time: only this reads the clock. */
	rec.time = ktime_get_mono_fast_ns();
	return dunwind_ring_write(&s->ring, &rec, sizeof(rec), w->ips, w->nr * sizeof(u64));
}

/**
 * dunwind_walk_emit_exited() - USER_STACK with no frames for a thread that
 * will not return to user space
 * @s:		session
 * @slot:	the cookie's pending slot (its stashed sample is written
 *		too), or NULL
 * @cookie:	the sample's cookie
 * @stop:	DUNWIND_STOP_EXITED, DUNWIND_STOP_NO_MM or DUNWIND_STOP_SESSION
 *
 * Context: any, including NMI.
 * Return: 0, or -ENOSPC if the record was dropped (counted as lost).
 */
int dunwind_walk_emit_exited(struct dunwind_session *s, struct dunwind_pending_slot *slot,
			     u64 cookie, u8 stop)
{
	struct dunwind_walk w = { .stop = stop };

	return dunwind_walk_record(s, slot, cookie, &w);
}

/**
 * dunwind_walk_emit_replayed() - the USER_STACK of a walk replayed at the
 * switch out of a blocking thread (dunwind_replay_blocked())
 * @s:		session
 * @task:	the thread: current switching out, or running nowhere
 *		(being switched in, or blocked at STOP)
 * @cookie:	its off-CPU sample's (dunwind_cookie_answered())
 * @u:		the walk
 * @now:	the time of the record: the start or the end of the block
 *
 * Counted as a walk, a replayed one.
 *
 * Context: the sched_switch tracepoint, or ioctl (STOP).
 * Return: 0, or -ENOSPC if the record was dropped (counted as lost).
 */
int dunwind_walk_emit_replayed(struct dunwind_session *s, struct task_struct *task, u64 cookie,
			       const struct dunwind_offcpu_user *u, u64 now)
{
	struct dunwind_rec_user_stack rec = {};

	dunwind_user_stack_init(&rec, task, cookie, u->nr, u->methods, u->stop);
	rec.time = now;
	rec.nr_fp = dunwind_methods_nr(u->nr_by, DUNWIND_UNWIND_FP);
	rec.nr_sframe = dunwind_methods_nr(u->nr_by, DUNWIND_UNWIND_SFRAME);
	dunwind_methods_count(s, u->nr_by);
	dunwind_count(s, DW_CNT_WALKS, 1);
	dunwind_count(s, DW_CNT_WALKS_REPLAYED, 1);
	dunwind_count(s, DW_CNT_USER_FRAMES, u->nr);
	return dunwind_ring_write(&s->ring, &rec, sizeof(rec), u->ips, u->nr * sizeof(u64));
}

/*
 * The frames of the slot's last walk, if this one would find the same
 * (kmod/replay.c), into @w, their cost since @c0 counted under the method
 * that found most of them.  Return: the trace replayed, or NULL.
 */
static struct dunwind_walk_trace *dunwind_walk_replay(struct dunwind_unwind *st,
						      struct dunwind_walk *w, u64 c0)
{
	struct dunwind_walk_trace *t = dunwind_replay(st, w->ips, w->cap);

	if (!t)
		return NULL;
	w->nr = t->nr;
	memcpy(w->nr_by, t->nr_by, sizeof(w->nr_by));
	w->methods = t->methods;
	w->stop = t->stop;
	if (t->nr)
		w->cycles_by[dunwind_methods_top(t->nr_by) - dunwind_unwind_methods] +=
			dunwind_cycles_since(c0, dunwind_cycles());
	return t;
}

/*
 * Walk from the user registers saved at kernel entry, frame by frame, into
 * @w (emptied first); *@wait_ino non-zero: stopped by the table barrier
 * at that file (and *@wait_dev).  Each frame is timed with the arch's
 * cycle counter (dunwind_cycles()), a few instructions to read where
 * local_clock() is dozens (a deep walk read it twice per frame).
 */
static void dunwind_walk_once(struct dunwind_session *s, struct pt_regs *regs,
			      struct dunwind_walk *w, bool barrier, u32 *wait_dev, u64 *wait_ino)
{
	/* dunwind_unwind_start() zeroes it: not twice (CONFIG_INIT_STACK_ALL_ZERO). */
	struct dunwind_unwind st __uninitialized;
	struct dunwind_walk_trace *t = NULL;
	u64 c0 = dunwind_cycles(), now;
	const struct dunwind_unwind_method *m;
	unsigned int nr;

	w->nr = 0;
	memset(w->nr_by, 0, sizeof(w->nr_by));
	memset(w->cycles_by, 0, sizeof(w->cycles_by));
	w->methods = 0;
	w->stop = DUNWIND_STOP_MAX_DEPTH;
	dunwind_unwind_start(&st, s, regs, w->stack, w->memo, barrier);
	/* Replayed and traced only where the barrier may stop it, as at its first round. */
	t = barrier ? dunwind_walk_replay(&st, w, c0) : NULL;
	if (t) {
		dunwind_count(s, DW_CNT_WALKS_REPLAYED, 1);
		goto report;
	}
	if (barrier)
		dunwind_replay_begin(&st);
	for (; !st.done; dunwind_unwind_next(&st)) {
		if (w->nr == w->max)
			break;
		if (w->nr == w->cap && dunwind_walk_grow(w)) {
			w->stop = DUNWIND_STOP_FAULT;	/* no memory for more frames */
			dunwind_trace_poison(st.trace);	/* the next may have it */
			break;
		}
		w->ips[w->nr++] = st.ip;
		/*
		 * This frame by the method that found it, then the callers
		 * the fast loop adds after it by the rule it ran (a table's,
		 * after a frame-pointer step out of a table's gap), timed
		 * together under the latter.
		 */
		m = st.method;
		if (m) {
			w->methods |= m->bit;
			w->nr_by[m - dunwind_unwind_methods]++;
		}
		nr = dunwind_unwind_fast(&st, w->ips, &w->nr, w->cap);
		now = dunwind_cycles();
		m = st.method;
		if (m && nr) {
			w->methods |= m->bit;
			w->nr_by[m - dunwind_unwind_methods] += nr;
		}
		if (m)
			w->cycles_by[m - dunwind_unwind_methods] += dunwind_cycles_since(c0, now);
		c0 = now;
	}
	if (st.done)
		w->stop = st.stop;
	if (!st.wait_ino)
		t = dunwind_replay_end(&st, w->ips, w->nr, w->nr_by, w->methods, w->stop);
report:
	/*
	 * Before the stack, so readers know its mappings first: a replay
	 * has the frames of a walk whose mappings were all reported under
	 * the same tag, unless one could not be.
	 */
	if (!t || t->reported != dunwind_mmap_report_tag(s)) {
		u64 tag = dunwind_mmap_report(s, st.memo, w->ips, w->nr);

		if (t)
			t->reported = tag;
	}
	dunwind_unwind_keep(&st);
	w->trace = t;
	*wait_dev = st.wait_dev;
	*wait_ino = st.wait_ino;
}

/*
 * dunwind_walk_cycles() - count the cost of one dunwind_walk_once() by
 * method, less @waited ns the thread spent on a run queue meanwhile
 * @s:		session
 * @w:		the walk, its cycles_by[] just filled
 * @waited:	the thread's run-queue waits over the walk, in ns
 *
 * A preempted walk's wait fell into the frame it was recovering, whose
 * method's cost grew the most (the wait dwarfs a frame's own cost): it
 * comes out of that method's, never more than the walk itself counted
 * there, so the session's counters only grow.
 * Context: task_work of the walked thread.
 */
static void dunwind_walk_cycles(struct dunwind_session *s, struct dunwind_walk *w, u64 waited)
{
	unsigned int i, top = 0;

	for (i = 1; i < DUNWIND_METHOD_NR; i++)
		if (w->cycles_by[i] > w->cycles_by[top])
			top = i;
	if (waited)
		w->cycles_by[top] -= min(dunwind_ns_cycles(waited), w->cycles_by[top]);
	for (i = 0; i < DUNWIND_METHOD_NR; i++)
		if (w->cycles_by[i])
			dunwind_count(s, dunwind_unwind_methods[i].cnt_cycles, w->cycles_by[i]);
}

/*
 * Put the interpreter frames of @w's eval-loop frames into @w
 * (kmod/interp_stack.c), in the slot's scratch, which @w's stack then
 * is until the slot's next walk: only for a session with an interpreter
 * registered, else one load and a branch.
 */
static void dunwind_walk_interp(struct dunwind_session *s, struct dunwind_walk *w)
{
	unsigned int nr;
	u64 *ips;
	bool trunc;

	if (!dunwind_interp_any(s))
		return;
	ips = dunwind_interp_stack(s, w->interp, w->ips, w->nr, w->max, &nr, &trunc);
	if (!ips)
		return;
	/* The stack is the scratch's now: not copied back (@max entries there too). */
	w->ips = ips;
	w->cap = w->max;
	w->nr = nr;
	w->methods |= DUNWIND_UNWIND_INTERP;
	w->trace = NULL;	/* the trace has the native frames only */
	if (trunc)
		w->stop = DUNWIND_STOP_MAX_DEPTH;
}

/*
 * Files one walk may wait for (the table barrier), each once per
 * session: a stack through more libraries mapped just now is walked as
 * without the barrier past them.
 */
#define DUNWIND_WALK_BARRIERS	4

/*
 * Walk current's user stack into @w.  A walk stopped by the table barrier
 * at a file has written the MMAP records of its frames (the recorder is
 * woken for them); it waits for the recorder's verdict on that file and
 * walks again from the start: the registers and the stack are those of
 * the sample still, since the thread runs no user code meanwhile.
 */
static void dunwind_walk_frames(struct dunwind_session *s, struct pt_regs *regs,
				struct dunwind_walk *w)
{
	unsigned int round;
	u32 dev;
	u64 ino;

	might_fault();
	for (round = 0; ; round++) {
		u64 delay = dunwind_task_run_delay(current);

		dunwind_walk_once(s, regs, w, round < DUNWIND_WALK_BARRIERS, &dev, &ino);
		dunwind_walk_cycles(s, w, dunwind_task_run_delay(current) - delay);
		if (!ino)
			break;
		dunwind_barrier_wait(s, dev, ino);
	}
	dunwind_walk_interp(s, w);
	dunwind_methods_count(s, w->nr_by);
}

/*
 * The walk of @slot's cookie, timed with the arch's cycle counter
 * (dunwind_oncpu_start()).
 */
static void dunwind_walk_user(struct dunwind_session *s, struct dunwind_pending_slot *slot)
{
	u64 cookie = slot->cookie, exec_id = slot->exec_id;
	struct dunwind_walk w = {
		.max = s->cfg.max_user_frames, .big = &slot->ips, .stack = &slot->stack,
		.interp = &slot->interp,
	};
	/* Read only below @w.nr: not zeroed (CONFIG_INIT_STACK_ALL_ZERO). */
	u64 small[DUNWIND_WALK_SMALL] __uninitialized;
	struct dunwind_oncpu t0;

	dunwind_oncpu_start(&t0);
	/* An exec since the sample: the sampled image is gone. */
	if ((current->flags & PF_EXITING) || READ_ONCE(current->self_exec_id) != exec_id) {
		w.stop = DUNWIND_STOP_EXITED;
	} else if (!current->mm) {
		w.stop = DUNWIND_STOP_NO_MM;
	} else {
		/* Its last walk's mappings, if still true, for this one. */
		if (!slot->memo)
			slot->memo = dunwind_walk_memo_alloc();
		w.memo = slot->memo;
		/* A slot that walked deep before has room for any walk. */
		w.ips = slot->ips ? slot->ips : small;
		w.cap = slot->ips ? w.max : min_t(unsigned int, w.max, ARRAY_SIZE(small));
		dunwind_walk_frames(s, task_pt_regs(current), &w);
	}
	if (!dunwind_walk_record(s, slot, cookie, &w) && w.trace)
		dunwind_replay_answered(w.trace, cookie);
	dunwind_count(s, DW_CNT_WALKS, 1);
	dunwind_count(s, DW_CNT_USER_FRAMES, w.nr);
	/* Not the time other threads ran while the walk was preempted. */
	dunwind_count(s, DW_CNT_WALK_NS, dunwind_oncpu_since(&t0));
}

/**
 * dunwind_walk_work() - task_work callback: walk and emit one USER_STACK
 * @work:	the callback_head in the box of the thread's pending slot
 *
 * The walk answers the slot's cookie only if it takes the slot while it is
 * still owed (DUNWIND_SLOT_QUEUED); a walk that runs after STOP or close
 * answered it emits nothing and touches nothing but its slot.
 *
 * Context: task_work of the sampled thread, on return to user space or in
 * do_exit() (PF_EXITING, no mm): may sleep and fault.
 */
void dunwind_walk_work(struct callback_head *work)
{
	struct dunwind_walk_box *box = container_of(work, struct dunwind_walk_box, work);
	struct dunwind_pending_slot *slot;
	struct dunwind_session *s;

	/*
	 * Close left this walk behind (dunwind_walk_detach()) after we read
	 * the callback: free the box and leave without sleeping, which
	 * dunwind_exit()'s synchronize_rcu_tasks() waits for.
	 */
	if (atomic_cmpxchg(&box->taken, 0, 1)) {
		/*
		 * Close claimed the box; its last store to it is the new
		 * callback (preemption off in between): wait for that store
		 * before freeing, so close never writes to a freed box.
		 */
		while (READ_ONCE(box->work.func) != DUNWIND_TASK_WORK_KFREE)
			cpu_relax();
		kfree(box);
		return;
	}
	slot = box->slot;
	s = slot->session;
	down_read(&s->walk_sem);
	if (dunwind_pending_move(slot, DUNWIND_SLOT_QUEUED, DUNWIND_SLOT_WALKING)) {
		dunwind_walk_user(s, slot);
		atomic_set(&slot->state, DUNWIND_SLOT_DONE);
	}
	up_read(&s->walk_sem);
	/* Samples until here shared the cookie; the next stay gets a new one. */
	dunwind_pending_release(&s->pending, slot);
	atomic_dec(&s->nr_queued);
	/*
	 * Close waits for @nr_queued to drop (dunwind_walk_drain()); no one
	 * else sleeps there.  The full barrier orders the decrement before
	 * the check, and pairs with the one in the waiter's
	 * set_current_state().
	 */
	if (wq_has_sleeper(&s->drain_wq))
		wake_up(&s->drain_wq);
	dunwind_session_put(s);
	/*
	 * The module reference taken when the walk was queued goes last.
	 * Only this function's epilogue runs after it, which dunwind_exit()
	 * waits for with synchronize_rcu_tasks().
	 */
	module_put(THIS_MODULE);
}

/**
 * dunwind_walk_end_session() - answer every cookie still owed, and wait
 * for the walks that are writing theirs
 * @s:	session, its overflow handlers stopped (no new slot is queued)
 *
 * A thread that sleeps in the kernel does not run its walk until it wakes:
 * its cookie is answered here, with no frames and stop reason SESSION,
 * and its late walk emits nothing.  When this returns, no walk writes to
 * the ring any more.
 *
 * Context: ioctl or release (may sleep), session lock held.
 */
void dunwind_walk_end_session(struct dunwind_session *s)
{
	struct dunwind_pending *p = &s->pending;
	u32 i;

	lockdep_assert_held(&s->lock);
	for (i = 0; i <= p->mask; i++) {
		struct dunwind_pending_slot *slot = &p->slots[i];

		/* 6.1: an NMI's bounce still to add its walk (a no-op if none). */
		if (DUNWIND_NMI_BOUNCE)
			irq_work_sync(&slot->bounce);
		/* Full barrier on success: @cookie was set before QUEUED. */
		if (dunwind_pending_move(slot, DUNWIND_SLOT_QUEUED, DUNWIND_SLOT_ANSWERED)) {
			dunwind_walk_emit_exited(s, slot, slot->cookie, DUNWIND_STOP_SESSION);
			dunwind_count(s, DW_CNT_WALKS, 1);
		}
		if (!(i & 1023))
			cond_resched();
	}
	/* Walks that took their slot before us hold walk_sem until written. */
	down_write(&s->walk_sem);
	up_write(&s->walk_sem);
}

/*
 * dunwind_walk_kick() - close's task_work on a thread with a walk queued
 *
 * Nothing to do: being added with TWA_SIGNAL woke the thread from an
 * interruptible sleep, so that its walk (queued earlier) runs now and
 * gives back the session and the module.
 *
 * Context: task_work of the thread.
 */
static void dunwind_walk_kick(struct callback_head *kick)
{
	struct dunwind_pending_slot *slot = container_of(kick, struct dunwind_pending_slot, kick);

	dunwind_session_put(slot->session);
	/* Last, as in dunwind_walk_work(). */
	module_put(THIS_MODULE);
}

/* How long close waits for woken threads to run their late walks. */
#define DUNWIND_DRAIN_JIFFIES	(2 * HZ)

/**
 * dunwind_walk_drain() - let the late walks run, so that nothing stays pinned
 * @s:	session, after dunwind_walk_end_session(), being closed
 *
 * Wakes every thread that still has a walk queued (TWA_SIGNAL, as io_uring
 * does: an interruptible sleep is interrupted and its system call restarts)
 * and waits, at most DUNWIND_DRAIN_JIFFIES, for those walks to run and
 * release the session and the module.  A thread that is stopped or sleeps
 * uninterruptibly keeps both until it runs.
 *
 * Context: release (may sleep), session lock held.
 */
void dunwind_walk_drain(struct dunwind_session *s)
{
	struct dunwind_pending *p = &s->pending;
	int self = 0;
	u32 i;

	lockdep_assert_held(&s->lock);
	for (i = 0; i <= p->mask; i++) {
		struct dunwind_pending_slot *slot = &p->slots[i];
		struct task_struct *task;

		/*
		 * A slot's thread cannot be freed while we read it under RCU:
		 * its walk clears @task before the thread exits, and a reader
		 * that began after the thread's reaping queued its final put
		 * sees that store.
		 */
		rcu_read_lock();
		task = READ_ONCE(slot->task);
		if (task == current)
			self++;		/* our own walk runs when we return */
		else if (task)
			get_task_struct(task);
		rcu_read_unlock();
		if (!task || task == current)
			continue;
		init_task_work(&slot->kick, dunwind_walk_kick);
		kref_get(&s->ref);
		__module_get(THIS_MODULE);
		if (task_work_add(task, &slot->kick, TWA_SIGNAL)) {
			/* Past its last task_work: its walk has run. */
			refcount_dec(&s->ref.refcount);	/* the file's reference remains */
			module_put(THIS_MODULE);
		}
		put_task_struct(task);
	}
	wait_event_timeout(s->drain_wq, atomic_read(&s->nr_queued) <= self,
			   DUNWIND_DRAIN_JIFFIES);
}

/**
 * dunwind_walk_detach() - leave the walks still queued behind, so that
 * nothing stays pinned
 * @s:	session, after dunwind_walk_end_session(), being closed
 *
 * A thread can stay in the kernel for seconds with its walk queued (a
 * large MAP_POPULATE, a sleep no signal interrupts), and task_work cannot
 * be taken back from a module.  Each such walk's callback becomes
 * kfree() of its box, which holds nothing of the session or the module:
 * the walk's references to both are dropped here, and the thread frees
 * the box whenever it runs its task_work.  A thread that read the old
 * callback first finds the box taken (dunwind_walk_work()).  Either way
 * the box is freed once, by its thread.
 *
 * Context: release (may sleep), session lock held.
 */
void dunwind_walk_detach(struct dunwind_session *s)
{
	struct dunwind_pending_slot *slot, *last = &s->pending.slots[s->pending.mask];

	lockdep_assert_held(&s->lock);
	for (slot = s->pending.slots; slot <= last; slot++) {
		struct dunwind_walk_box *box = slot->box;

		/* Free, or its walk took the box (it runs, or ran, and puts its own). */
		if (!READ_ONCE(slot->task))
			continue;
		/*
		 * The new callback is the last store to the box: once it is
		 * visible, or the walk sees the box claimed and waits for it,
		 * the thread may free the box.  Preemption off keeps that wait
		 * short.
		 */
		preempt_disable();
		if (atomic_cmpxchg(&box->taken, 0, 1)) {
			preempt_enable();
			continue;
		}
		slot->box = NULL;
		WRITE_ONCE(box->work.func, DUNWIND_TASK_WORK_KFREE);
		preempt_enable();
		atomic_dec(&s->nr_queued);
		refcount_dec(&s->ref.refcount);	/* the file's reference remains */
		module_put(THIS_MODULE);
	}
}
