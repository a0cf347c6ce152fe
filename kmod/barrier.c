// SPDX-License-Identifier: GPL-2.0
/*
 * The table barrier (DUNWIND_CFG_TABLE_BARRIER): a walk that meets code
 * of an ELF file with no unwind table, and for which the recorder has not
 * said yet whether it will register one, waits for its verdict and walks
 * again, so that a library mapped late (dlopen) is unwound from its first
 * sample rather than after the recorder caught up.
 *
 * Per session, a bounded open-addressed set of files (device, inode):
 * PENDING while walks wait for the file's verdict (every walk that meets
 * it then waits too), ANSWERED once the recorder gave it (a registration,
 * or DUNWIND_IOC_SFRAME_NONE), EXPIRED once a wait ended without it (no
 * walk waits for that file again).  Nothing is ever removed; a full set
 * makes no walk wait and remembers no verdict.
 */
#include <linux/hash.h>
#include <linux/kdev_t.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include "dunwind.h"

#define DUNWIND_BARRIER_FILES	1024	/* files remembered per session, a power of 2 */
#define DUNWIND_BARRIER_PROBES	16	/* slots tried per file */

enum {
	DUNWIND_BARRIER_EMPTY,
	DUNWIND_BARRIER_PENDING,	/* walks wait for its verdict */
	DUNWIND_BARRIER_EXPIRED,	/* a wait for it ended without one */
	DUNWIND_BARRIER_ANSWERED,	/* the recorder's verdict came */
};

/**
 * dunwind_barrier_init() - a session's set, before CONFIG
 * @b:	the session's barrier
 *
 * Context: open.
 */
void dunwind_barrier_init(struct dunwind_barrier *b)
{
	spin_lock_init(&b->lock);
	init_waitqueue_head(&b->wq);
}

/**
 * dunwind_barrier_alloc() - the set of files of a barrier session
 * @b:	the session's barrier
 *
 * The caller is the recorder: its own walks (a system-wide session samples
 * it too) never wait for the verdicts it would give.
 * Context: ioctl (CONFIG, may sleep).
 * Return: 0, or -ENOMEM.
 */
int dunwind_barrier_alloc(struct dunwind_barrier *b)
{
	struct dunwind_barrier_file *files;

	files = kvcalloc(DUNWIND_BARRIER_FILES, sizeof(*files), GFP_KERNEL_ACCOUNT);
	if (!files)
		return -ENOMEM;
	spin_lock(&b->lock);
	b->files = files;
	spin_unlock(&b->lock);
	b->recorder = get_pid(task_tgid(current));
	return 0;
}

/**
 * dunwind_barrier_free() - free what dunwind_barrier_alloc() allocated
 * @b:	the session's barrier; no walk or ioctl uses it
 *
 * Context: process.
 */
void dunwind_barrier_free(struct dunwind_barrier *b)
{
	kvfree(b->files);
	b->files = NULL;
	put_pid(b->recorder);
	b->recorder = NULL;
}

/*
 * The slot of (@dev, @ino), or a free one to put it in; NULL when the set
 * holds neither within DUNWIND_BARRIER_PROBES slots (or has no room).
 */
static struct dunwind_barrier_file *dunwind_barrier_slot(struct dunwind_barrier *b, u32 dev,
							 u64 ino)
{
	u32 h = hash_64(ino ^ ((u64)dev << 32), 32), i;

	lockdep_assert_held(&b->lock);
	if (!b->files)
		return NULL;
	for (i = 0; i < DUNWIND_BARRIER_PROBES; i++) {
		struct dunwind_barrier_file *f = &b->files[(h + i) & (DUNWIND_BARRIER_FILES - 1)];

		if (f->state == DUNWIND_BARRIER_EMPTY || (f->dev == dev && f->ino == ino))
			return f;
	}
	return NULL;
}

/**
 * dunwind_barrier_claim() - should a walk wait for the verdict on a file?
 * @b:		the session's barrier
 * @dev:	the file's device (s_dev), as MMAP records name it
 * @ino:	its inode number
 *
 * True while no verdict came and no wait for it expired: the file is
 * then PENDING, and the caller must call dunwind_barrier_wait() for it.
 * Context: task_work (any but NMI).
 */
bool dunwind_barrier_claim(struct dunwind_barrier *b, u32 dev, u64 ino)
{
	struct dunwind_barrier_file *f;
	bool claimed = false;

	if (task_tgid(current) == b->recorder)
		return false;
	spin_lock(&b->lock);
	f = b->closed ? NULL : dunwind_barrier_slot(b, dev, ino);
	if (f && (f->state == DUNWIND_BARRIER_EMPTY || f->state == DUNWIND_BARRIER_PENDING)) {
		f->dev = dev;
		f->ino = ino;
		f->state = DUNWIND_BARRIER_PENDING;
		claimed = true;
	}
	spin_unlock(&b->lock);
	return claimed;
}

/**
 * dunwind_barrier_answer() - the recorder's verdict on a file came
 * @b:		the session's barrier
 * @dev:	the file's device (s_dev)
 * @ino:	its inode number
 *
 * Wakes the walks waiting for it.
 * Context: ioctl (any but NMI).
 */
void dunwind_barrier_answer(struct dunwind_barrier *b, u32 dev, u64 ino)
{
	struct dunwind_barrier_file *f;

	spin_lock(&b->lock);
	f = dunwind_barrier_slot(b, dev, ino);
	if (f) {
		f->dev = dev;
		f->ino = ino;
		/* Pairs with the waiter's spin_lock() in dunwind_barrier_done(). */
		f->state = DUNWIND_BARRIER_ANSWERED;
	}
	spin_unlock(&b->lock);
	if (f)
		wake_up_all(&b->wq);
}

/* Has the verdict on (@dev, @ino) come (or expired), or the session stopped? */
static bool dunwind_barrier_done(struct dunwind_barrier *b, u32 dev, u64 ino)
{
	struct dunwind_barrier_file *f;
	bool done;

	spin_lock(&b->lock);
	f = dunwind_barrier_slot(b, dev, ino);
	done = b->closed || !f || f->state != DUNWIND_BARRIER_PENDING;
	spin_unlock(&b->lock);
	return done;
}

/* After a wait: did the verdict come?  If not, no walk waits for it again. */
static bool dunwind_barrier_settle(struct dunwind_barrier *b, u32 dev, u64 ino)
{
	struct dunwind_barrier_file *f;
	bool answered;

	spin_lock(&b->lock);
	f = dunwind_barrier_slot(b, dev, ino);
	answered = f && f->state == DUNWIND_BARRIER_ANSWERED;
	if (f && f->state == DUNWIND_BARRIER_PENDING)
		f->state = DUNWIND_BARRIER_EXPIRED;
	spin_unlock(&b->lock);
	return answered;
}

/**
 * dunwind_barrier_wait() - wait for the recorder's verdict on a file
 * @s:		session
 * @dev:	the file's device (s_dev), claimed by dunwind_barrier_claim()
 * @ino:	its inode number
 *
 * Killable, at most the session's barrier_ms; counted in the session's
 * barrier counters.
 * Context: task_work of the walked thread, no lock held (sleeps).
 */
void dunwind_barrier_wait(struct dunwind_session *s, u32 dev, u64 ino)
{
	struct dunwind_barrier *b = &s->barrier;
	struct dunwind_oncpu t0;

	dunwind_oncpu_start(&t0);
	might_sleep();
	wait_event_killable_timeout(b->wq, dunwind_barrier_done(b, dev, ino),
				    msecs_to_jiffies(s->cfg.barrier_ms));
	dunwind_count(s, DW_CNT_BARRIER_WAITS, 1);
	/* A timeout, a fatal signal, STOP, or another walk's timeout. */
	if (!dunwind_barrier_settle(b, dev, ino))
		dunwind_count(s, DW_CNT_BARRIER_MISSED, 1);
	/* Of the walk's time (dunwind_walk_user()): run-queue waits are out. */
	dunwind_count(s, DW_CNT_BARRIER_NS, dunwind_oncpu_since(&t0));
}

/**
 * dunwind_barrier_open() - let walks wait (START)
 * @b:	the session's barrier
 *
 * Context: ioctl.
 */
void dunwind_barrier_open(struct dunwind_barrier *b)
{
	spin_lock(&b->lock);
	b->closed = false;
	spin_unlock(&b->lock);
}

/**
 * dunwind_barrier_close() - end every wait, and let no walk wait (STOP)
 * @b:	the session's barrier
 *
 * STOP waits for the walks, and the recorder that would answer them is
 * the one calling it.
 * Context: ioctl or release.
 */
void dunwind_barrier_close(struct dunwind_barrier *b)
{
	spin_lock(&b->lock);
	b->closed = true;
	spin_unlock(&b->lock);
	wake_up_all(&b->wq);
}

/**
 * dunwind_barrier_none() - DUNWIND_IOC_SFRAME_NONE
 * @s:		session
 * @arg:	struct dunwind_sframe_none in user memory
 *
 * Context: ioctl (may fault).
 * Return: 0, or -errno as documented in uapi/linux/dunwind.h.
 */
int dunwind_barrier_none(struct dunwind_session *s, const void __user *arg)
{
	struct dunwind_sframe_none n;
	int ret;

	ret = dunwind_copy_arg(&n, sizeof(n), DUNWIND_SFRAME_NONE_SIZE_VER0, arg);
	if (ret)
		return ret;
	if (n.flags || memchr_inv(n.__reserved, 0, sizeof(n.__reserved)) || !n.ino ||
	    n.dev_major >= (1U << (32 - MINORBITS)) || n.dev_minor > MINORMASK)
		return -EINVAL;
	/* Pairs with smp_store_release() in dunwind_session_config(). */
	if (!smp_load_acquire(&s->configured))
		return -EINVAL;
	dunwind_barrier_answer(&s->barrier, MKDEV(n.dev_major, n.dev_minor), n.ino);
	return 0;
}
