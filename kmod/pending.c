// SPDX-License-Identifier: GPL-2.0
/*
 * The pending table: one slot per thread that has a user walk queued
 * (task_work added, not yet run).  A slot carries the thread's cookie for
 * its current stay in the kernel and the callback_head of its walk.
 *
 * Only the owning thread inserts and removes its own slot: insertion in
 * its overflow handler (NMI/IRQ), removal at the end of its walk
 * (task_work).  Other threads only race to claim free slots, by cmpxchg.
 * Off-CPU samples insert for a thread that runs nowhere (being switched
 * in, or blocked at STOP after the handlers are gone), which then cannot
 * insert for itself at the same time.
 * Lookups probe a bounded window of DUNWIND_PENDING_PROBE slots, so the
 * table needs no tombstones and no lock.  A window's home count says how
 * many slots threads whose window starts there own: a thread that finds
 * its window's count at 0 owns none, and need not probe (most samples:
 * the first of a stay in the kernel).
 */
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "dunwind.h"
#include "interp.h"

#define DUNWIND_PENDING_PROBE	16

/**
 * dunwind_pending_init() - allocate a table of @nr slots
 * @p:	table
 * @nr:	slots, a power of two >= DUNWIND_PENDING_PROBE
 *
 * Context: ioctl (may sleep).
 * Return: 0, or -ENOMEM.
 */
int dunwind_pending_init(struct dunwind_pending *p, u32 nr)
{
	u32 i;

	p->mask = nr - 1;
	p->slots = kvcalloc(nr, sizeof(*p->slots), GFP_KERNEL_ACCOUNT);
	p->homes = kvcalloc(nr, sizeof(*p->homes), GFP_KERNEL_ACCOUNT);
	if (!p->slots || !p->homes) {
		dunwind_pending_free(p);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		struct dunwind_walk_box *box = kzalloc(sizeof(*box), GFP_KERNEL_ACCOUNT);

		if (!box) {
			dunwind_pending_free(p);
			return -ENOMEM;
		}
		box->slot = &p->slots[i];
		p->slots[i].box = box;
	}
	return 0;
}

/**
 * dunwind_pending_free() - free the table and its walks' boxes; no slot may be in use
 * @p:	table
 *
 * Context: process.
 */
void dunwind_pending_free(struct dunwind_pending *p)
{
	u32 i;

	/* Boxes close left behind are their threads' to free. */
	for (i = 0; p->slots && i <= p->mask; i++) {
		kfree(p->slots[i].box);
		kfree(p->slots[i].ips);
		kfree(p->slots[i].code);
		kfree(p->slots[i].memo);
		dunwind_interp_scratch_free(p->slots[i].interp);
		dunwind_vma_memo_free(&p->slots[i].stack);
	}
	kvfree(p->slots);
	kvfree(p->homes);
	p->slots = NULL;
	p->homes = NULL;
}

static u32 dunwind_pending_hash(struct dunwind_pending *p, struct task_struct *task)
{
	return hash_ptr(task, 32) & p->mask;
}

/**
 * dunwind_pending_find() - the slot @task owns, if it has a walk pending
 * @p:		table
 * @task:	the thread (see Context)
 *
 * Context: NMI/IRQ (overflow handler) of @task itself, or @task runs nowhere.
 * Return: the slot, or NULL.
 */
struct dunwind_pending_slot *dunwind_pending_find(struct dunwind_pending *p,
						  struct task_struct *task)
{
	u32 h = dunwind_pending_hash(p, task);
	int i;

	/*
	 * @task's own claim counted itself here before this (its own
	 * handler, or before it ran again), and only its release uncounts
	 * it: 0 means @task owns no slot.
	 */
	if (!atomic_read(&p->homes[h]))
		return NULL;
	for (i = 0; i < DUNWIND_PENDING_PROBE; i++) {
		struct dunwind_pending_slot *slot = &p->slots[(h + i) & p->mask];

		/* Only @task stores @task here, so a plain read suffices. */
		if (READ_ONCE(slot->task) == task)
			return slot;
	}
	return NULL;
}

/**
 * dunwind_pending_claim() - take a free slot for @task
 * @p:		table
 * @task:	the thread (see Context), which must not own a slot already
 *
 * Context: NMI/IRQ (overflow handler) of @task itself, or @task runs nowhere.
 * Return: the slot, now owned by @task, or NULL if the window is full.
 */
struct dunwind_pending_slot *dunwind_pending_claim(struct dunwind_pending *p,
						   struct task_struct *task)
{
	u32 h = dunwind_pending_hash(p, task);
	int i;

	for (i = 0; i < DUNWIND_PENDING_PROBE; i++) {
		struct dunwind_pending_slot *slot = &p->slots[(h + i) & p->mask];

		/*
		 * Full barrier on success: our later writes to the slot are
		 * ordered after the claim.  Pairs with the store-release in
		 * dunwind_pending_release(), so the previous owner is done
		 * with the slot before we reuse it.
		 */
		if (!READ_ONCE(slot->task) && !cmpxchg(&slot->task, NULL, task)) {
			atomic_inc(&p->homes[h]);
			return slot;
		}
	}
	return NULL;
}

/**
 * dunwind_pending_release() - give a slot back
 * @p:		its table
 * @slot:	owned by current; not touched again by the caller
 *
 * Context: task_work of the owner (or its overflow handler on failure).
 */
void dunwind_pending_release(struct dunwind_pending *p, struct dunwind_pending_slot *slot)
{
	atomic_dec(&p->homes[dunwind_pending_hash(p, slot->task)]);
	atomic_set(&slot->state, DUNWIND_SLOT_FREE);
	atomic_set(&slot->stashed, 0);	/* every answer took it; a sample stays no longer */
	/* Pairs with the cmpxchg in dunwind_pending_claim(). */
	smp_store_release(&slot->task, NULL);
}
