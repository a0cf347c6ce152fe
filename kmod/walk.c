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
#include <linux/sched/signal.h>
#include <asm/sigcontext.h>
#include <asm/ucontext.h>
#include "dunwind.h"
#include "record.h"

struct dunwind_walk {
	u64 *ips;
	unsigned int nr;
	unsigned int max;
	unsigned int nr_fp;
	unsigned int nr_sframe;
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
	rec.nr_sframe = w->nr_sframe;
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
		*lo = vma->vm_start;
		*hi = vma->vm_end;
		ret = 0;
	}
	mmap_read_unlock(mm);
	return ret;
}

#define DUNWIND_MAX_RESTORERS	4

/* The user register state of the frame being unwound. */
struct dunwind_uframe {
	unsigned long ip, sp, fp;
	bool exact;			/* @ip was interrupted, not a return address */
	unsigned long lo, hi;		/* the stack mapping that holds @sp */
	unsigned long restorer[DUNWIND_MAX_RESTORERS];
	unsigned int nr_restorers;
	unsigned int signals;		/* signal frames crossed */
};

/*
 * The signal return trampolines this thread can return through: the
 * sa_restorer of every handled signal (x86_64 requires SA_RESTORER).
 */
static void dunwind_walk_restorers(struct dunwind_uframe *f)
{
	struct sighand_struct *sh = current->sighand;
	unsigned int i, j;

	spin_lock_irq(&sh->siglock);
	for (i = 0; i < _NSIG; i++) {
		const struct sigaction *sa = &sh->action[i].sa;
		unsigned long r = (unsigned long)sa->sa_restorer;

		if (sa->sa_handler == SIG_DFL || sa->sa_handler == SIG_IGN ||
		    !(sa->sa_flags & SA_RESTORER) || !r)
			continue;
		for (j = 0; j < f->nr_restorers && f->restorer[j] != r; j++)
			;
		if (j == f->nr_restorers && j < DUNWIND_MAX_RESTORERS)
			f->restorer[f->nr_restorers++] = r;
	}
	spin_unlock_irq(&sh->siglock);
}

static bool dunwind_walk_is_restorer(const struct dunwind_uframe *f)
{
	unsigned int i;

	for (i = 0; i < f->nr_restorers; i++)
		if (f->ip == f->restorer[i])
			return true;
	return false;
}

/*
 * Step through a signal frame: the handler returned to the restorer with
 * the ucontext at sp.  The interrupted registers come from its mcontext;
 * the next IP is exact, and may be on another stack (sigaltstack).
 */
static u8 dunwind_walk_signal(struct dunwind_uframe *f)
{
	const unsigned long mc = f->sp + offsetof(struct ucontext, uc_mcontext);
	struct sigcontext sc;

	if (f->signals++ >= 8)
		return DUNWIND_STOP_BAD_FRAME;
	if (mc < f->sp || mc > f->hi || f->hi - mc < sizeof(sc))
		return DUNWIND_STOP_BAD_FRAME;
	if (copy_from_user(&sc, (const void __user *)mc, sizeof(sc)))
		return DUNWIND_STOP_FAULT;
	if (!sc.ip || sc.ip >= TASK_SIZE_MAX)
		return DUNWIND_STOP_BAD_FRAME;
	f->ip = sc.ip;
	f->sp = sc.sp;
	f->fp = sc.bp;
	f->exact = true;
	if (dunwind_stack_bounds(current->mm, f->sp, &f->lo, &f->hi))
		return DUNWIND_STOP_BAD_FRAME;
	return DUNWIND_STOP_MAX;	/* go on */
}

/*
 * One frame: the caller's IP, SP and FP from the rule for @f->ip: SFrame
 * if it covers the IP, else the frame-pointer rule.  The CFA must be
 * 8-byte aligned, strictly above SP and inside the stack mapping.
 * Return: DUNWIND_STOP_MAX to go on (with *@method set), else why to stop.
 */
static u8 dunwind_walk_step(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
			    struct dunwind_uframe *f, u8 *method)
{
	static const struct dunwind_urule fp_rule = {
		.cfa_fp = 1, .cfa_off = 16, .ra_off = -8, .fp_saved = 1, .fp_off = -16,
	};
	struct dunwind_urule rule;
	unsigned long cfa, lo_addr, frame[2], ra, fp;
	int ret = -ENOENT;

	if (!(s->cfg.flags & DUNWIND_CFG_FP_ONLY))
		ret = dunwind_sframe_rule(s, memo, f->exact ? f->ip : f->ip - 1, &rule);
	if (ret == -EINTR)
		return DUNWIND_STOP_FAULT;
	if (!ret) {
		if (rule.outermost)
			return DUNWIND_STOP_END;
		*method = DUNWIND_UNWIND_SFRAME;
	} else {
		if (!f->fp)
			return DUNWIND_STOP_END;
		if (f->fp < f->sp)
			return DUNWIND_STOP_BAD_FRAME;
		rule = fp_rule;
		*method = DUNWIND_UNWIND_FP;
	}
	cfa = (rule.cfa_fp ? f->fp : f->sp) + (long)rule.cfa_off;
	if (cfa & (sizeof(long) - 1) || cfa <= f->sp || cfa > f->hi)
		return DUNWIND_STOP_BAD_FRAME;

	/* The slots read are below the CFA and at or above SP. */
	lo_addr = cfa + (long)rule.ra_off;
	if (rule.fp_saved && rule.fp_off == rule.ra_off - 8) {
		lo_addr -= 8;
		if (lo_addr < f->sp || lo_addr > cfa - sizeof(frame))
			return DUNWIND_STOP_BAD_FRAME;
		if (copy_from_user(frame, (const void __user *)lo_addr, sizeof(frame)))
			return DUNWIND_STOP_FAULT;
		fp = frame[0];
		ra = frame[1];
	} else {
		if (lo_addr < f->sp || lo_addr > cfa - sizeof(long))
			return DUNWIND_STOP_BAD_FRAME;
		if (get_user(ra, (const unsigned long __user *)lo_addr))
			return DUNWIND_STOP_FAULT;
		fp = f->fp;
		if (rule.fp_saved) {
			unsigned long at = cfa + (long)rule.fp_off;

			if (at < f->sp || at > cfa - sizeof(long))
				return DUNWIND_STOP_BAD_FRAME;
			if (get_user(fp, (const unsigned long __user *)at))
				return DUNWIND_STOP_FAULT;
		}
	}
	if (!ra)
		return DUNWIND_STOP_END;
	if (ra >= TASK_SIZE_MAX)
		return DUNWIND_STOP_BAD_FRAME;
	f->ip = ra;
	f->sp = cfa;
	f->fp = fp;
	f->exact = false;
	return DUNWIND_STOP_MAX;
}

/*
 * Walk from the user registers saved at kernel entry, frame by frame.
 * Signal frames are crossed when their return address is one of the
 * thread's restorers.
 */
static void dunwind_walk_frames(struct dunwind_session *s, struct pt_regs *regs,
				struct dunwind_walk *w)
{
	struct dunwind_sframe_memo memo = {};
	struct dunwind_uframe f = {
		.ip = regs->ip, .sp = regs->sp, .fp = regs->bp, .exact = true,
	};
	u8 stop;

	might_fault();
	w->ips[w->nr++] = f.ip;
	if (dunwind_stack_bounds(current->mm, f.sp, &f.lo, &f.hi)) {
		w->stop = DUNWIND_STOP_BAD_FRAME;
		return;
	}
	dunwind_walk_restorers(&f);
	for (;;) {
		u64 t0 = local_clock();
		u8 method = 0;

		if (w->nr == w->max) {
			stop = DUNWIND_STOP_MAX_DEPTH;
			break;
		}
		if (!f.exact && dunwind_walk_is_restorer(&f))
			stop = dunwind_walk_signal(&f);
		else
			stop = dunwind_walk_step(s, &memo, &f, &method);
		if (stop != DUNWIND_STOP_MAX)
			break;
		w->ips[w->nr++] = f.ip;
		w->methods |= method;
		if (method == DUNWIND_UNWIND_FP) {
			w->nr_fp++;
			dunwind_count(s, DW_CNT_FP_NS, local_clock() - t0);
		} else if (method == DUNWIND_UNWIND_SFRAME) {
			w->nr_sframe++;
			dunwind_count(s, DW_CNT_SFRAME_NS, local_clock() - t0);
		}
	}
	w->stop = stop;
	dunwind_count(s, DW_CNT_FP_FRAMES, w->nr_fp);
	dunwind_count(s, DW_CNT_SFRAME_FRAMES, w->nr_sframe);
}

static void dunwind_walk_user(struct dunwind_session *s, u64 cookie)
{
	struct dunwind_walk w = { .max = s->cfg.max_user_frames };
	u64 t0 = local_clock();

	if (current->flags & PF_EXITING) {
		w.stop = DUNWIND_STOP_EXITED;
	} else if (!current->mm) {
		w.stop = DUNWIND_STOP_NO_MM;
	} else {
		w.ips = kmalloc_array(w.max, sizeof(u64), GFP_KERNEL);
		if (w.ips) {
			dunwind_walk_frames(s, task_pt_regs(current), &w);
			/* Before the stack, so readers know its mappings first. */
			dunwind_mmap_report(s, w.ips, w.nr);
		} else
			w.stop = DUNWIND_STOP_FAULT;	/* no memory for the frames */
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
