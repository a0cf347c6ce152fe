// SPDX-License-Identifier: GPL-2.0
/*
 * The deferred user walk.  Runs as task_work of the sampled thread on its
 * way back to user space, where user memory may be read and may fault:
 * one walk per cookie, emitting one USER_STACK.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/mm.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include "dunwind.h"
#include "record.h"

struct dunwind_walk {
	u64 *ips;
	unsigned int nr;
	unsigned int max;
	unsigned int nr_fp;
	u8 methods;
	u8 stop;
};

static int dunwind_walk_record(struct dunwind_session *s, u64 cookie,
			       const struct dunwind_walk *w)
{
	struct dunwind_rec_user_stack rec = {};

	rec.hdr.type = DUNWIND_REC_USER_STACK;
	rec.hdr.size = dunwind_rec_user_stack_size(w->nr);
	rec.cookie = cookie;
	rec.time = ktime_get_mono_fast_ns();
	rec.pid = task_tgid_nr(current);
	rec.tid = task_pid_nr(current);
	rec.nr = w->nr;
	rec.methods = w->methods;
	rec.stop = w->stop;
	rec.nr_fp = w->nr_fp;
	return dunwind_ring_write(&s->ring, &rec, sizeof(rec), w->ips, w->nr * sizeof(u64));
}

/**
 * dunwind_walk_emit_exited() - USER_STACK with no frames for a thread that
 * will not return to user space
 * @s:		session
 * @cookie:	the sample's cookie
 * @stop:	DUNWIND_STOP_EXITED or DUNWIND_STOP_NO_MM
 *
 * Context: any, including NMI.
 * Return: 0, or -ENOSPC if the record was dropped (counted as lost).
 */
int dunwind_walk_emit_exited(struct dunwind_session *s, u64 cookie, u8 stop)
{
	struct dunwind_walk w = { .stop = stop };

	return dunwind_walk_record(s, cookie, &w);
}

/* Bounds of the stack mapping that contains @sp: [*lo, *hi). */
static int dunwind_stack_bounds(struct mm_struct *mm, unsigned long sp,
				unsigned long *lo, unsigned long *hi)
{
	struct vm_area_struct *vma;
	int ret = -EFAULT;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = find_vma(mm, sp);
	if (vma && vma->vm_start <= sp) {
		*lo = sp;
		*hi = vma->vm_end;
		ret = 0;
	}
	mmap_read_unlock(mm);
	return ret;
}

/*
 * Frame-pointer walk from the user registers saved at kernel entry.
 * Each frame is {saved fp, return address} at fp; frames must be 8-byte
 * aligned, strictly above the previous one and inside the stack mapping.
 */
static void dunwind_walk_fp(struct dunwind_session *s, struct pt_regs *regs,
			    struct dunwind_walk *w)
{
	unsigned long fp = regs->bp, lo, hi;
	u64 t0 = local_clock();
	unsigned int first = w->nr;

	might_fault();
	if (dunwind_stack_bounds(current->mm, regs->sp, &lo, &hi)) {
		w->stop = DUNWIND_STOP_BAD_FRAME;
		return;
	}
	for (;;) {
		unsigned long frame[2];

		if (!fp) {
			w->stop = DUNWIND_STOP_END;
			break;
		}
		if (w->nr == w->max) {
			w->stop = DUNWIND_STOP_MAX_DEPTH;
			break;
		}
		if (fp & (sizeof(long) - 1) || fp < lo || fp > hi - sizeof(frame)) {
			w->stop = DUNWIND_STOP_BAD_FRAME;
			break;
		}
		if (copy_from_user(frame, (const void __user *)fp, sizeof(frame))) {
			w->stop = DUNWIND_STOP_FAULT;
			break;
		}
		if (!frame[1]) {
			w->stop = DUNWIND_STOP_END;
			break;
		}
		if (frame[1] >= TASK_SIZE_MAX) {
			w->stop = DUNWIND_STOP_BAD_FRAME;
			break;
		}
		w->ips[w->nr++] = frame[1];
		lo = fp + sizeof(frame);
		fp = frame[0];
	}
	if (w->nr > first) {
		w->methods |= DUNWIND_UNWIND_FP;
		w->nr_fp += w->nr - first;
		dunwind_count(s, DW_CNT_FP_FRAMES, w->nr - first);
		dunwind_count(s, DW_CNT_FP_NS, local_clock() - t0);
	}
}

static void dunwind_walk_user(struct dunwind_session *s, u64 cookie)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct dunwind_walk w = { .max = s->cfg.max_user_frames };
	u64 t0 = local_clock();

	if (current->flags & PF_EXITING) {
		w.stop = DUNWIND_STOP_EXITED;
	} else if (!current->mm) {
		w.stop = DUNWIND_STOP_NO_MM;
	} else {
		w.ips = kmalloc_array(w.max, sizeof(u64), GFP_KERNEL);
		if (!w.ips) {
			/* No memory for the frames: still account for the cookie. */
			w.stop = DUNWIND_STOP_FAULT;
		} else {
			w.ips[w.nr++] = regs->ip;
			dunwind_walk_fp(s, regs, &w);
		}
	}
	dunwind_walk_record(s, cookie, &w);
	dunwind_count(s, DW_CNT_WALKS, 1);
	dunwind_count(s, DW_CNT_USER_FRAMES, w.nr);
	dunwind_count(s, DW_CNT_WALK_NS, local_clock() - t0);
	kfree(w.ips);
}

/**
 * dunwind_walk_work() - task_work callback: walk and emit one USER_STACK
 * @work:	the callback_head in the thread's pending slot
 *
 * Context: task_work of the sampled thread, on return to user space or in
 * do_exit() (PF_EXITING, no mm): may sleep and fault.
 */
void dunwind_walk_work(struct callback_head *work)
{
	struct dunwind_pending_slot *slot = container_of(work, struct dunwind_pending_slot, work);
	struct dunwind_session *s = slot->session;
	u64 cookie = slot->cookie;

	if (!READ_ONCE(s->closed))
		dunwind_walk_user(s, cookie);
	/* Samples until here shared the cookie; the next stay gets a new one. */
	dunwind_pending_release(slot);
	dunwind_session_put(s);
	/*
	 * Drop the module reference taken when the walk was queued, last:
	 * only this function's epilogue runs after it.
	 */
	module_put(THIS_MODULE);
}
