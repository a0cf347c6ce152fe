// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap ring: one control page and a power-of-two data area, shared
 * with the recorder.  Many producers (overflow handlers on any CPU, walks
 * in task_work), one consumer (the recorder).
 *
 * Space is handed out under @lock in position order; the record is then
 * filled outside the lock and published by storing its type last.  The
 * recorder stops at the first record still DUNWIND_REC_BUSY, so records
 * committed out of order are read in position order.  See the protocol
 * comment in uapi/linux/dunwind.h; each barrier below names its pair.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/preempt.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/vmalloc.h>
#include <linux/timekeeping.h>
#include "dunwind.h"

/* Ring pages of every session, all users: at most a quarter of RAM. */
static atomic_long_t dunwind_ring_pages_total;

/*
 * Charge @pages to the caller, as perf charges its ring buffers and
 * io_uring its pinned pages: against the user's RLIMIT_MEMLOCK in
 * user->locked_vm (not with CAP_IPC_LOCK), and against the global cap.
 * Return: 0, or -ENOMEM with nothing charged.
 */
static int dunwind_ring_charge(struct dunwind_ring *r, unsigned long pages)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	struct user_struct *user = get_current_user();
	long cur;

	if (atomic_long_add_return(pages, &dunwind_ring_pages_total) > totalram_pages() / 4)
		goto out_total;
	if (!capable(CAP_IPC_LOCK)) {
		cur = atomic_long_read(&user->locked_vm);
		do {
			if (cur + pages > limit)
				goto out_total;
		} while (!atomic_long_try_cmpxchg(&user->locked_vm, &cur, cur + pages));
		r->charged = pages;
	}
	r->user = user;
	return 0;

out_total:
	atomic_long_sub(pages, &dunwind_ring_pages_total);
	free_uid(user);
	return -ENOMEM;
}

static void dunwind_ring_uncharge(struct dunwind_ring *r, unsigned long pages)
{
	atomic_long_sub(r->charged, &r->user->locked_vm);
	atomic_long_sub(pages, &dunwind_ring_pages_total);
	free_uid(r->user);
	r->user = NULL;
	r->charged = 0;
}

static void dunwind_ring_wakeup(struct irq_work *work)
{
	struct dunwind_ring *r = container_of(work, struct dunwind_ring, wakeup);

	wake_up_all(&r->wq);
}

/**
 * dunwind_ring_init() - allocate a ring of @pages data pages
 * @r:			ring to set up
 * @pages:		data pages, a power of two (checked by the caller)
 * @wakeup_bytes:	unread bytes at which poll() reports readable; 0: size/4
 *
 * The pages (and the control page) are charged to the caller's user
 * (RLIMIT_MEMLOCK, as perf's ring buffers) and to a global cap.
 *
 * Context: ioctl (may sleep), the configuring process.
 * Return: 0, or -ENOMEM (no memory, or over the user's or the global limit).
 */
int dunwind_ring_init(struct dunwind_ring *r, u32 pages, u32 wakeup_bytes)
{
	int ret;

	r->size = (u64)pages << PAGE_SHIFT;
	r->mask = r->size - 1;
	ret = dunwind_ring_charge(r, pages + 1);
	if (ret)
		return ret;
	r->base = vmalloc_user(PAGE_SIZE + r->size);
	if (!r->base) {
		dunwind_ring_uncharge(r, pages + 1);
		return -ENOMEM;
	}
	r->ctrl = r->base;
	r->data = (u8 *)r->base + PAGE_SIZE;
	r->ctrl->size = sizeof(*r->ctrl);
	r->ctrl->version = DUNWIND_ABI_VERSION;
	r->ctrl->data_offset = PAGE_SIZE;
	r->ctrl->data_size = r->size;
	r->wakeup_bytes = wakeup_bytes && wakeup_bytes < r->size ? wakeup_bytes : r->size / 4;
	raw_spin_lock_init(&r->lock);
	init_waitqueue_head(&r->wq);
	init_irq_work(&r->wakeup, dunwind_ring_wakeup);
	return 0;
}

/**
 * dunwind_ring_free() - free a ring set up by dunwind_ring_init()
 * @r: ring; no producer may still use it
 *
 * Context: process (may sleep: waits for a queued wakeup to finish).
 */
void dunwind_ring_free(struct dunwind_ring *r)
{
	if (!r->base)
		return;
	irq_work_sync(&r->wakeup);
	vfree(r->base);
	r->base = NULL;
	dunwind_ring_uncharge(r, (r->size >> PAGE_SHIFT) + 1);
}

/*
 * Copy @words u64s to @dst.  Word by word: memcpy() may be "rep movsb",
 * a string instruction that a CPU emulator (QEMU TCG, the benchmarks'
 * exact mode) executes, and counts, byte by byte.
 */
static void dunwind_ring_copy_words(u64 *dst, const u64 *src, u64 words)
{
	u64 i;

	for (i = 0; i < words; i++)
		dst[i] = src[i];
}

/*
 * Copy @len bytes to data position @pos, wrapping at the end of the area;
 * @pos and @len are multiples of 8, as the ring's size.
 */
static void dunwind_ring_copy(struct dunwind_ring *r, u64 pos, const void *src, u32 len)
{
	u64 off = pos & r->mask;
	u64 first = min_t(u64, len, r->size - off);

	dunwind_ring_copy_words((u64 *)(r->data + off), src, first / 8);
	if (first < len)
		dunwind_ring_copy_words((u64 *)r->data, (const u64 *)src + first / 8,
					(len - first) / 8);
}

static u64 dunwind_ring_used(struct dunwind_ring *r)
{
	/* Pairs with the recorder's store-release of data_tail. */
	u64 tail = smp_load_acquire(&r->ctrl->data_tail);
	u64 used = r->head - tail;

	/* A tail past head or too far behind is the reader's bug: treat as full. */
	return used > r->size ? r->size : used;
}

/*
 * Write a LOST record if drops happened since the last one and it fits.
 * Called with @lock held; the record is complete before the lock drops.
 * Return: the room left (@avail, less the record if it was written).
 */
static u64 dunwind_ring_flush_lost(struct dunwind_ring *r, u64 avail, u32 need)
{
	/* Zeroed only when written: every record's write comes here. */
	struct dunwind_rec_lost rec __uninitialized;
	struct dunwind_rec_header *hdr;
	u64 total = atomic64_read(&r->lost[0]);
	int i;

	lockdep_assert_held(&r->lock);
	if (total == r->lost_reported[0] || avail < sizeof(rec) + need)
		return avail;
	memset(&rec, 0, sizeof(rec));
	rec.hdr.size = sizeof(rec);
	rec.time = ktime_get_mono_fast_ns();
	for (i = 0; i < DUNWIND_REC_MAX; i++) {
		u64 now = atomic64_read(&r->lost[i]);

		rec.lost[i] = now - r->lost_reported[i];
		r->lost_reported[i] = now;
	}
	hdr = (void *)(r->data + (r->head & r->mask));
	dunwind_ring_copy(r, r->head, &rec, sizeof(rec));
	/* Pairs with the recorder's load-acquire of hdr->type. */
	smp_store_release(&hdr->type, DUNWIND_REC_LOST);
	r->head += sizeof(rec);
	return avail - sizeof(rec);
}

static void dunwind_ring_drop(struct dunwind_ring *r, u32 type)
{
	/* A SAMPLE_STACK is a SAMPLE and a USER_STACK to those who count. */
	if (type == DUNWIND_REC_SAMPLE_STACK) {
		atomic64_add(2, &r->lost[0]);
		atomic64_inc(&r->lost[DUNWIND_REC_SAMPLE]);
		atomic64_inc(&r->lost[DUNWIND_REC_USER_STACK]);
		return;
	}
	atomic64_inc(&r->lost[0]);
	atomic64_inc(&r->lost[type < DUNWIND_REC_MAX ? type : 0]);
}

/**
 * dunwind_ring_write() - append one record, never blocking
 * @r:		ring
 * @head:	the record's fixed part, starting with its header; hdr->type
 *		and hdr->size (== @head_len + @tail_len) set by the caller
 * @head_len:	bytes at @head, a multiple of 8
 * @tail:	the variable part (IP array), may be NULL if @tail_len is 0
 * @tail_len:	bytes at @tail, a multiple of 8
 *
 * Not preemptible from reservation to commit: a writer preempted there
 * would hold every later record back from the reader.
 *
 * Context: any, including NMI (where a contended lock drops the record).
 * Return: 0, or -ENOSPC if the record was dropped (and counted as lost).
 */
int dunwind_ring_write(struct dunwind_ring *r, const void *head, u32 head_len,
		       const void *tail, u32 tail_len)
{
	const struct dunwind_rec_header *src = head;
	struct dunwind_rec_header *hdr;
	u32 len = head_len + tail_len;
	unsigned long flags;
	u64 pos, avail;
	bool urgent;

	if (WARN_ON_ONCE(len != src->size || len % 8 || len > r->size / 2))
		return -EINVAL;
	guard(preempt)();
	if (in_nmi()) {
		if (!raw_spin_trylock_irqsave(&r->lock, flags)) {
			dunwind_ring_drop(r, src->type);
			return -ENOSPC;
		}
	} else {
		raw_spin_lock_irqsave(&r->lock, flags);
	}
	avail = dunwind_ring_flush_lost(r, r->size - dunwind_ring_used(r), len);
	if (avail < len) {
		raw_spin_unlock_irqrestore(&r->lock, flags);
		dunwind_ring_drop(r, src->type);
		return -ENOSPC;
	}
	pos = r->head;
	hdr = (void *)(r->data + (pos & r->mask));
	WRITE_ONCE(hdr->type, DUNWIND_REC_BUSY);
	r->head = pos + len;
	urgent = src->type == DUNWIND_REC_MMAP;
	if (urgent)
		WRITE_ONCE(r->urgent_end, r->head);
	/*
	 * Publish the reservation; the BUSY type is visible before the new
	 * head.  Pairs with the recorder's load-acquire of data_head.
	 */
	smp_store_release(&r->ctrl->data_head, r->head);
	raw_spin_unlock_irqrestore(&r->lock, flags);

	/* The header never wraps: positions are 8-aligned, size >= PAGE_SIZE. */
	hdr->misc = src->misc;
	hdr->size = src->size;
	dunwind_ring_copy(r, pos + sizeof(*hdr), src + 1, head_len - sizeof(*hdr));
	if (tail_len)
		dunwind_ring_copy(r, pos + head_len, tail, tail_len);
	/* Commit.  Pairs with the recorder's load-acquire of hdr->type. */
	smp_store_release(&hdr->type, src->type);

	/* A new mapping wakes the reader at once: it may need its table. */
	if (urgent || dunwind_ring_used(r) >= r->wakeup_bytes)
		irq_work_queue(&r->wakeup);
	return 0;
}

/**
 * dunwind_ring_set_stopped() - say whether sampling has stopped
 * @r:		ring
 * @stopped:	true: poll() reports any unread byte, and readers are woken
 *
 * Context: process.
 */
void dunwind_ring_set_stopped(struct dunwind_ring *r, bool stopped)
{
	WRITE_ONCE(r->stopped, stopped);
	if (stopped)
		wake_up_all(&r->wq);
}

/**
 * dunwind_ring_lost() - cumulative dropped records by type
 * @r:		ring
 * @lost:	DUNWIND_REC_MAX counters to fill
 *
 * Context: any.
 */
void dunwind_ring_lost(struct dunwind_ring *r, u64 *lost)
{
	int i;

	for (i = 0; i < DUNWIND_REC_MAX; i++)
		lost[i] = atomic64_read(&r->lost[i]);
}

/**
 * dunwind_ring_mmap() - map the control page and data area into user space
 * @r:		ring
 * @vma:	must start at offset 0, be shared, and cover exactly the ring
 *
 * Context: mmap (may sleep).
 * Return: 0, or -EINVAL for any other offset, length or a private mapping.
 */
int dunwind_ring_mmap(struct dunwind_ring *r, struct vm_area_struct *vma)
{
	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != PAGE_SIZE + r->size ||
	    !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	dunwind_vm_flags_mod(vma, VM_DONTCOPY, VM_MAYEXEC);
	return remap_vmalloc_range(vma, r->base, 0);
}

/**
 * dunwind_ring_poll() - readable once wakeup_bytes are unread, an MMAP record
 *			 is unread, or any byte once stopped
 * @r:		ring
 * @file:	the session file
 * @pt:		poll table
 *
 * Context: poll (may sleep).
 * Return: EPOLLIN | EPOLLRDNORM when readable, else 0.
 */
__poll_t dunwind_ring_poll(struct dunwind_ring *r, struct file *file,
			   struct poll_table_struct *pt)
{
	u64 head, tail, used;
	bool urgent;

	poll_wait(file, &r->wq, pt);
	/* Our own head, not the control page's copy, which user space can write. */
	head = READ_ONCE(r->head);
	tail = READ_ONCE(r->ctrl->data_tail);
	used = head - tail;
	/* An unread MMAP record: its end lies between the tail and the head. */
	urgent = READ_ONCE(r->urgent_end) - tail - 1 < used;
	if (used && (used >= r->wakeup_bytes || urgent || READ_ONCE(r->stopped)))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}
