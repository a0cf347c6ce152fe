// SPDX-License-Identifier: GPL-2.0
/*
 * A sample and its user stack in one record (DUNWIND_CFG_SAMPLE_STACK).
 *
 * A sample that interrupted user mode and took a new cookie is not
 * written by the overflow handler: it waits in the thread's pending slot
 * (@stash), and the walk that answers the cookie writes one SAMPLE_STACK
 * (56 bytes and the IPs coded by lib/ipcode.h) instead of a SAMPLE and a
 * USER_STACK (104 bytes and 8 a frame).  Whoever takes @stashed first
 * writes the sample: the answer, or a second sample of the same stay,
 * which writes it as a SAMPLE (then the cookie is shared and the answer
 * is a USER_STACK).
 */
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include "dunwind.h"
#include "record.h"

/*
 * IPs whose coded form fits in the writer's stack frame; a longer stack is
 * coded in the slot's array (dunwind_pending_slot.code).
 */
#define DUNWIND_SAMPLE_STACK_SMALL	32

/* The stashed sample of @slot as a SAMPLE of @pid/@tid; @slot->stashed taken. */
static int dunwind_stash_write(struct dunwind_session *s, struct dunwind_pending_slot *slot,
			       u32 pid, u32 tid)
{
	struct dunwind_rec_sample rec = {};

	rec.hdr.type = DUNWIND_REC_SAMPLE;
	rec.hdr.size = dunwind_rec_sample_size(0);
	rec.cookie = slot->cookie;
	rec.time = slot->stash.time;
	rec.pid = pid;
	rec.tid = tid;
	rec.cpu = slot->stash.cpu;
	rec.flags = slot->stash.flags;
	rec.user_ip = slot->stash.user_ip;
	rec.period = slot->stash.period;
	return dunwind_ring_write(&s->ring, &rec, sizeof(rec), NULL, 0);
}

/**
 * dunwind_sample_stash_flush() - write @slot's stashed sample as a SAMPLE
 * @s:		session
 * @slot:	@task's slot, whose cookie another sample is about to share
 * @task:	current, or a thread running nowhere (being switched in)
 *
 * Nothing if no sample is stashed (none was, or the answer took it).
 *
 * Context: NMI/IRQ (overflow handler of @task), sched_switch.
 */
void dunwind_sample_stash_flush(struct dunwind_session *s, struct dunwind_pending_slot *slot,
				struct task_struct *task)
{
	/* Full barrier: the stash was written before @stashed was set. */
	if (atomic_xchg(&slot->stashed, 0))
		dunwind_stash_write(s, slot, task_tgid_nr(task), task_pid_nr(task));
}

/**
 * dunwind_sample_stack_write() - answer @slot's cookie together with its
 * stashed sample
 * @s:		session
 * @slot:	the slot; the caller took @slot->stashed
 * @us:		the USER_STACK the answer would be (header, cookie, counts);
 *		its time is set here if it is written
 * @ips:	its @us->nr IPs
 *
 * One SAMPLE_STACK; a SAMPLE and the USER_STACK where it would carry no
 * IP (an answer without frames: the SAMPLE keeps the sample's user IP),
 * or no memory codes the IPs.
 *
 * Context: task_work of @slot's thread (the walk; may sleep) when @us->nr
 * is not 0; else any, including NMI.
 * Return: 0, or -ENOSPC if a record was dropped (counted as lost).
 */
int dunwind_sample_stack_write(struct dunwind_session *s, struct dunwind_pending_slot *slot,
			       struct dunwind_rec_user_stack *us, const u64 *ips)
{
	/* Written before read: not zeroed (CONFIG_INIT_STACK_ALL_ZERO). */
	u8 small[DUNWIND_SAMPLE_STACK_SMALL * DUNWIND_IPCODE_MAX + 8] __uninitialized;
	struct dunwind_rec_sample_stack rec = {};
	u8 *buf = NULL;
	u32 len;
	int ret;

	if (us->nr <= DUNWIND_SAMPLE_STACK_SMALL) {
		buf = small;
	} else {
		/* Kept for the slot's later deep walks, as its IP array. */
		if (!slot->code)
			slot->code = kmalloc(s->cfg.max_user_frames * DUNWIND_IPCODE_MAX + 8,
					     GFP_KERNEL_ACCOUNT);
		buf = slot->code;
	}
	if (!us->nr || !buf) {
		ret = dunwind_stash_write(s, slot, us->pid, us->tid);
		us->time = ktime_get_mono_fast_ns();
		return dunwind_ring_write(&s->ring, us, sizeof(*us), ips,
					  us->nr * sizeof(u64)) ?: ret;
	}
	len = dunwind_ipcode_encode(buf, ips, us->nr);
	memset(buf + len, 0, 8);
	rec.hdr.type = DUNWIND_REC_SAMPLE_STACK;
	rec.hdr.size = dunwind_rec_sample_stack_size(len);
	rec.cookie = slot->cookie;
	rec.time = slot->stash.time;
	rec.pid = us->pid;
	rec.tid = us->tid;
	rec.cpu = slot->stash.cpu;
	rec.flags = slot->stash.flags;
	rec.period = slot->stash.period;
	rec.nr = us->nr;
	rec.methods = us->methods;
	rec.stop = us->stop;
	rec.nr_fp = us->nr_fp;
	rec.nr_sframe = us->nr_sframe;
	return dunwind_ring_write(&s->ring, &rec, sizeof(rec), buf, rec.hdr.size - sizeof(rec));
}
