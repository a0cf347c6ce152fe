/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dunwind module internals.
 *
 * Contexts, as used in the comments of every file:
 *   NMI/IRQ   the perf overflow handler (hardirq for cpu-clock, NMI for
 *             hardware events): no sleeping, no allocation, no faults.
 *   task_work the target thread on its way back to user space: may sleep,
 *             may fault on user memory.
 *   ioctl     a recorder's system call on the session file: may sleep.
 */
#ifndef DUNWIND_KMOD_H
#define DUNWIND_KMOD_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/sched/clock.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <linux/dunwind.h>
#include "sframe.h"
#include "elfread.h"
#include "compat.h"
#include "arch.h"

struct perf_event;
struct perf_sample_data;
struct pt_regs;
struct callback_head;
struct pid;
struct task_struct;
struct vm_area_struct;
struct mm_struct;
struct file;
struct poll_table_struct;
struct dunwind_interp;

/* kmod/ring.c: the mmap ring shared with the recorder. */
struct dunwind_ring {
	void *base;			/* vmalloc_user(): control page + data */
	struct dunwind_ring_ctrl *ctrl;
	u8 *data;
	u64 size;			/* data bytes, a power of two */
	u64 mask;
	u32 wakeup_bytes;
	/*
	 * Guards @head, @urgent_end, @lost_reported and the order in which
	 * space is handed out.  Taken with interrupts off; only trylock'ed
	 * in NMI.
	 */
	raw_spinlock_t lock;
	u64 head;
	u64 urgent_end;			/* end of the last MMAP record: poll()
					   is readable until the tail passes it */
	u64 lost_reported[DUNWIND_REC_MAX];
	atomic64_t lost[DUNWIND_REC_MAX];	/* cumulative, [0] = total */
	bool stopped;			/* readers drain below wakeup_bytes */
	wait_queue_head_t wq;
	struct irq_work wakeup;		/* wake @wq from NMI-safe context */
	struct user_struct *user;	/* charged @charged pages of locked_vm */
	unsigned long charged;
};

int dunwind_ring_init(struct dunwind_ring *r, u32 pages, u32 wakeup_bytes);
void dunwind_ring_free(struct dunwind_ring *r);
int dunwind_ring_write(struct dunwind_ring *r, const void *head, u32 head_len,
		       const void *tail, u32 tail_len);
int dunwind_ring_mmap(struct dunwind_ring *r, struct vm_area_struct *vma);
__poll_t dunwind_ring_poll(struct dunwind_ring *r, struct file *file,
			   struct poll_table_struct *pt);
void dunwind_ring_set_stopped(struct dunwind_ring *r, bool stopped);
void dunwind_ring_lost(struct dunwind_ring *r, u64 *lost);

/* kmod/pending.c: threads with a user walk queued but not yet run. */
struct dunwind_session;

/*
 * Who answers a slot's cookie (exactly one USER_STACK per cookie): the
 * walk, if it takes the slot while QUEUED; else STOP/close, which answers
 * it with DUNWIND_STOP_SESSION and leaves the late walk nothing to emit.
 * Moves by cmpxchg only: QUEUED -> WALKING -> DONE, QUEUED -> ANSWERED,
 * QUEUED -> DONE (the walk could not be queued).  A slot BORROWED by its
 * thread's switch out (kmod/replay.c, dunwind_replay_blocked()) owes no
 * cookie: only its memo is read, and it is released before the thread
 * stops running.
 */
enum {
	DUNWIND_SLOT_FREE,
	DUNWIND_SLOT_QUEUED,		/* the cookie is owed */
	DUNWIND_SLOT_WALKING,		/* the walk answers it */
	DUNWIND_SLOT_ANSWERED,		/* answered by STOP/close */
	DUNWIND_SLOT_DONE,		/* the walk answered it */
	DUNWIND_SLOT_BORROWED,		/* its memo is read by its thread's switch out */
};

/*
 * A sample that interrupted user mode, kept for its walk to write as one
 * SAMPLE_STACK (DUNWIND_CFG_SAMPLE_STACK) rather than written as a SAMPLE.
 */
struct dunwind_stash {
	u64 time;
	u64 user_ip;
	u64 period;
	u32 cpu;
	u32 flags;
};

/*
 * A slot's walk as queued task_work, allocated apart from the slot: close
 * can leave a walk still queued on a thread that stays in the kernel
 * behind in it (dunwind_walk_detach()), and the thread frees it.
 */
struct dunwind_walk_box {
	struct callback_head work;	/* first: the box is freed through it */
	struct dunwind_pending_slot *slot;
	atomic_t taken;			/* 1 once the walk or close owns it (xchg) */
};

/*
 * One mapping a walk found under the mmap lock, kept while its mm's
 * mappings do not change (kmod/vmacache.c): a pending slot's stack.
 */
struct dunwind_vma_memo {
	struct mm_struct *mm;		/* mmgrab()bed while here; NULL: empty */
	unsigned int seq;		/* @mm's mm_lock_seq when it was found */
	unsigned long start, end;
};

struct dunwind_pending_slot {
	struct task_struct *task;	/* owner; NULL when free (cmpxchg) */
	atomic_t state;			/* DUNWIND_SLOT_* */
	/*
	 * 1 while @stash holds the cookie's first sample, unwritten.  Set
	 * before the slot is QUEUED; taken (xchg to 0) by whoever writes it:
	 * the cookie's answer (one SAMPLE_STACK), or a second sample of the
	 * stay (a SAMPLE, before its own).
	 */
	atomic_t stashed;
	struct dunwind_stash stash;
	u64 cookie;
	u64 exec_id;			/* task's self_exec_id at the sample */
	struct dunwind_session *session;
	struct dunwind_walk_box *box;	/* NULL once close left it behind */
	struct callback_head kick;	/* close: wakes @task to run @work */
	struct irq_work bounce;		/* 6.1: queues @work after an NMI */
	/*
	 * Room for max_user_frames IPs (@ips) and for their SAMPLE_STACK
	 * coding (@code), each kmalloc'd by the slot's first walk that needs
	 * more than its stack frame holds (kmod/walk.c, kmod/sample_stack.c),
	 * then used by the walks of the slot's owners, one at a time; freed
	 * with the table.
	 */
	u64 *ips;
	u8 *code;
	/*
	 * The scratch of the slot's walks that meet an interpreter's eval
	 * loop (kmod/interp_stack.c): allocated by the first, then used as
	 * @ips is; freed with the table.
	 */
	void *interp;
	/*
	 * The stack mapping the slot's last walk found, for its owners' next
	 * walks, one at a time: a thread mostly takes the same slot again,
	 * and the session's mapping cache holds only a few of a process's
	 * thread stacks.
	 */
	struct dunwind_vma_memo stack;
	/*
	 * The mappings and last rule of the slot's last walk, for the next
	 * (struct dunwind_sframe_memo): kmalloc'd by its first walk, used
	 * as @ips is; freed with the table.
	 */
	struct dunwind_sframe_memo *memo;
};

struct dunwind_pending {
	struct dunwind_pending_slot *slots;
	/*
	 * Per slot index h: how many slots are owned by threads whose
	 * window starts at h (kmod/pending.c).
	 */
	atomic_t *homes;
	u32 mask;
};

int dunwind_pending_init(struct dunwind_pending *p, u32 nr);
void dunwind_pending_free(struct dunwind_pending *p);
struct dunwind_pending_slot *dunwind_pending_find(struct dunwind_pending *p,
						  struct task_struct *task);
struct dunwind_pending_slot *dunwind_pending_claim(struct dunwind_pending *p,
						   struct task_struct *task);
void dunwind_pending_release(struct dunwind_pending *p, struct dunwind_pending_slot *slot);

static inline bool dunwind_pending_move(struct dunwind_pending_slot *slot, int from, int to)
{
	return atomic_cmpxchg(&slot->state, from, to) == from;
}

/*
 * kmod/offcpu.c: threads of the target switched out while blocked, until
 * they are switched back in.  A slot is claimed (cmpxchg) by the blocking
 * thread in its switch out, and read and freed by the CPU that switches it
 * back in (or by STOP once the probe is gone): never both at once, since a
 * thread runs nowhere between the two.
 */
#define DUNWIND_OFFCPU_USER_FRAMES	32	/* DUNWIND_TRACE_FRAMES */

/*
 * The user stack of a block, known at its switch out: the walk its return
 * to user space would run, replayed there (kmod/replay.c).
 */
struct dunwind_offcpu_user {
	u64 cookie;			/* its USER_STACK is written under it; 0: not yet */
	u64 earlier;			/* current's cookie whose USER_STACK has @ips; 0: none */
	u16 nr;				/* IPs in @ips; 0: not known, walk */
	u8 methods, stop;		/* as struct dunwind_rec_user_stack's */
	u32 nr_by[3];			/* by method: the trace's (DUNWIND_METHOD_NR) */
	u64 ips[DUNWIND_OFFCPU_USER_FRAMES];
};

struct dunwind_offcpu_slot {
	struct task_struct *task;	/* referenced; NULL when free (cmpxchg) */
	u64 start;			/* switch out, CLOCK_MONOTONIC ns */
	u32 flags;			/* DUNWIND_SAMPLE_KERNEL_TRUNC */
	u32 nr;				/* kernel IPs in @ips */
	struct dunwind_offcpu_user user;
	u64 ips[];			/* max_kernel_frames */
};

struct dunwind_offcpu {
	void *slots;			/* @nr slots of @stride bytes */
	u32 mask;			/* @nr - 1 */
	u32 stride;
	bool on;			/* probe registered */
};

/*
 * kmod/mmap.c: a mapping as it was when looked up, the key of the caches
 * that remember what was found about it (MMAP reported, SFrame table).
 * A changed mapping has another key.  The file is named by its inode's
 * identity, never by a pointer that may be freed and reused by the next
 * file mapped there (dlclose, then dlopen at the same address).  No
 * padding: compared with memcmp().
 */
struct dunwind_vma_key {
	struct mm_struct *mm;		/* compared, never dereferenced */
	unsigned long start, end, pgoff;
	u64 ino;			/* 0: no file */
	u32 dev;			/* the inode's super block's s_dev */
	u32 igen;			/* i_generation: a reused inode number differs */
};

void dunwind_vma_key(struct vm_area_struct *vma, struct dunwind_vma_key *key);
bool dunwind_vma_key_holds(struct mm_struct *mm, const struct dunwind_vma_key *key);

static inline bool dunwind_vma_key_eq(const struct dunwind_vma_key *a,
				      const struct dunwind_vma_key *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* kmod/elf.c: ELF files read from user memory or a file (lib/elfread.h). */
int dunwind_uread(void *ctx, u64 off, void *dst, u32 len);
int dunwind_elf_parse_user(unsigned long ehdr, struct dunwind_elf_info *info);
unsigned long dunwind_elf_vdso(struct mm_struct *mm);
unsigned long dunwind_elf_mapped_header(struct mm_struct *mm, struct vm_area_struct *vma);
int dunwind_elf_parse_file(struct file *file, struct dunwind_elf_info *info);

/* kmod/interp.c: interpreters registered (Documentation/python.rst). */
int dunwind_interp_register(struct dunwind_session *s, const void __user *arg);
void dunwind_interp_free(struct dunwind_session *s);

/* kmod/sframe.c: SFrame tables found in the walked process's memory. */
#define DUNWIND_SFRAME_MAPS	64	/* mappings cached per session */
#define DUNWIND_SFRAME_SET_BITS	9	/* 512 sets of 2 rules cached per session */
#define DUNWIND_SFRAME_WAYS	2

enum {
	DUNWIND_SMAP_UNUSED,		/* cache slot never filled */
	DUNWIND_SMAP_NONE,		/* no .sframe for this mapping */
	DUNWIND_SMAP_BAD,		/* .sframe failed validation: not used */
	DUNWIND_SMAP_OK,		/* the mapping's own .sframe */
	DUNWIND_SMAP_REG,		/* a table registered for its file */
};

/* One executable mapping: its key, and its opened table when OK. */
struct dunwind_sframe_map {
	struct dunwind_vma_key key;	/* .dev, .ino: the registry's key too */
	u8 state;			/* DUNWIND_SMAP_* */
	struct dunwind_sframe_table table;	/* DUNWIND_SMAP_OK */
	u64 reg_serial;			/* DUNWIND_SMAP_REG: registry entry */
	u64 reg_gen;			/* DUNWIND_SMAP_NONE: registry as of then */
	unsigned long bias;		/* DUNWIND_SMAP_REG: run-time - ELF vaddr */
	bool want_table;		/* DUNWIND_SMAP_NONE: an ELF file with no
					   .sframe, that a registration can give
					   a table (the table barrier's case) */
	u64 epoch;			/* which build this is: its cached rules carry it */
	/*
	 * The mapping's MMAP record was written for this exec generation
	 * and process (kmod/mmap.c: dunwind_mmap_tag()); 0: not known.
	 */
	u64 reported;
};

/* The unwind rule for the PCs in [pc_lo, pc_hi). */
struct dunwind_urule {
	u64 pc_lo, pc_hi;
	s32 cfa_off, ra_off, fp_off, aux_off;
	u8 valid;
	u8 outermost;			/* RA undefined: the walk ends here */
	u8 cfa_fp;			/* CFA = FP + off, else SP + off (or ...) */
	u8 cfa_aux;			/* ... CFA = aux + off (DUNWIND_REG_RBX tables) */
	u8 ra_aux;			/* RA = aux (arm64: still in x30), else *(CFA + ra_off) */
	u8 fp_saved;			/* FP = *(CFA + fp_off), else unchanged */
	u8 aux;				/* DUNWIND_RULE_AUX_*: where the caller's aux is */
	u8 nodata;			/* cached: the table has no usable rule here */
	u8 smap;			/* the table's kind: DUNWIND_SMAP_OK or _REG */
	u8 fast;			/* dunwind_urule_fast(), where a slot's memo keeps it */
};

/*
 * Do @rule's slots lie below its CFA: RA's at CFA + ra_off, and FP's if
 * saved, at offsets of -8 or less?  A frame's step then needs only an
 * aligned CFA, not past the stack's end, with the slots it reads at or
 * above SP (kmod/unwind.h: dunwind_step()).  Context: any.
 */
static __always_inline bool dunwind_urule_slots_ok(const struct dunwind_urule *rule)
{
	return rule->ra_off <= -(int)sizeof(long) &&
	       (!rule->fp_saved || rule->fp_off <= -(int)sizeof(long));
}

/*
 * Can the walk's fast loop (kmod/unwind_fast.c) step by @rule: a usable
 * rule of a caller that is no root, with CFA and RA not in the aux
 * register and its slots below the CFA?  Worked out once where a slot's
 * memo keeps the rule (@fast), so that the loop's change of rules tests
 * one byte.  Context: any.
 */
static __always_inline bool dunwind_urule_fast(const struct dunwind_urule *rule)
{
	return !rule->nodata && !rule->outermost && !rule->cfa_aux && !rule->ra_aux &&
	       dunwind_urule_slots_ok(rule);
}

/*
 * dunwind_urule.aux: where the caller's aux register (struct
 * dunwind_uregs; a DUNWIND_REG_RBX table's register) is.  A table without
 * DUNWIND_REG_RBX, or FP, says LOST.
 */
#define DUNWIND_RULE_AUX_LOST	0	/* not known */
#define DUNWIND_RULE_AUX_KEPT	1	/* unchanged */
#define DUNWIND_RULE_AUX_SAVED	2	/* at CFA + aux_off */

/* A cached rule of the mapping built as @epoch (0: empty). */
struct dunwind_sframe_row_entry {
	struct dunwind_urule rule;
	u64 epoch;
};

/*
 * Rules are cached per session, not per mapping, in sets of
 * DUNWIND_SFRAME_WAYS by PC: two PCs of one walk that hash alike both stay
 * (a direct-mapped cache lost half the frames of a short walk to such
 * pairs, each a full lookup again at every walk).
 */
struct dunwind_sframe_cache {
	/*
	 * Guards writes of @maps, @rows and @epoch (inside @seq's write
	 * sections) and of @victim.  Lookups take no lock: they copy under
	 * @seq and copy again if a write raced (dunwind_sframe_cached(),
	 * dunwind_sframe_row_cached()), and only write @victim, a hint.
	 */
	spinlock_t lock;
	seqcount_spinlock_t seq;	/* pairs writers of @maps/@rows with lookups */
	struct dunwind_sframe_map *maps;	/* DUNWIND_SFRAME_MAPS */
	struct dunwind_sframe_row_entry *rows;	/* sets x DUNWIND_SFRAME_WAYS */
	u8 *victim;			/* per set: the way to replace next */
	u64 epoch;			/* the last mapping build's */
};

struct dunwind_walk_trace;

/* A rule a slot's memo keeps (struct dunwind_sframe_memo.rules). */
struct dunwind_memo_rule {
	struct dunwind_urule rule;
	u64 gen;			/* the memo's @rules_gen when it was put */
};

/*
 * The rules a slot's first frames were found by, by range: an interrupted
 * IP is seldom one of the return addresses @rules are set by.
 */
#define DUNWIND_MEMO_LEAVES	16

#define DUNWIND_MEMO_RULE_BITS	5	/* sets */
#define DUNWIND_MEMO_WAYS	2
#define DUNWIND_MEMO_RULES	(DUNWIND_MEMO_WAYS << DUNWIND_MEMO_RULE_BITS)
/* dunwind_sframe_memo_rule_put() moves way 0 to way 1. */
static_assert(DUNWIND_MEMO_WAYS == 2);

/*
 * The mappings one walk has looked up, to skip the mmap lock per frame
 * (and per mapping dunwind_mmap_report() checks), the last frame's rule,
 * and how many reads of tables in the process's memory it has made.
 * Only the counts and @rule's range are set at the start of a walk
 * (dunwind_sframe_memo_init()): @maps is read below @nr only.
 *
 * A pending slot keeps its last walk's memo for the slot's next walk
 * (kmod/unwind.c: dunwind_unwind_first_vmas()): its mappings and rules
 * still hold while the address space has not changed since (@kept_mm at
 * @kept_seq, as the slot's stack memo checks it) and no table was
 * registered (@kept_gen), the common case of a thread sampled again.
 * A slot's memo also keeps the rules its walks used (@rules, 2-way
 * set-associative by PC, valid while their @gen is the memo's @rules_gen):
 * a frame whose rule is there needs no lookup in the session's cache.  Two
 * ways: a walk through qsort met about 20 return addresses, and one-way
 * sets of 32 sent 4 of its 9 rule changes a walk to the session's cache.
 * The first frame's rule, for an interrupted IP anywhere in a function,
 * is looked for by range among the last DUNWIND_MEMO_LEAVES such rules
 * (@leaves: tables' rules, whose kind names their method), all valid while @leaves_gen is @rules_gen: a qsort walk's first lookup,
 * by both table methods and in the session's cache, was 680 of its 5,000
 * instructions, and its interrupted IPs fall in 16 rules or so (the
 * merge's body is cut by its early returns' pops).
 */
struct dunwind_sframe_memo {
	unsigned int nr, next;
	unsigned int reads;		/* bounded by DUNWIND_SFRAME_WALK_READS */
	unsigned int kept_seq;		/* the mm's sequence the memo is valid at */
	struct mm_struct *kept_mm;	/* not held: compared while the stack memo holds it */
	u64 kept_gen;			/* dunwind_registry_gen() at its walk's start */
	struct dunwind_memo_rule *rules;	/* DUNWIND_MEMO_RULES, or NULL */
	struct dunwind_urule *leaves;	/* DUNWIND_MEMO_LEAVES, or NULL */
	u64 leaves_gen;
	u8 next_leaf;
	/* The last walk's from a system call, and from user mode (kmod/replay.c), or NULL. */
	struct dunwind_walk_trace *trace, *utrace;
	u64 rules_gen;			/* bumped when the memo is emptied */
	/* The process's entry points (kmod/unwind.c), once a walk read them. */
	bool entries;
	unsigned long entry, ld_entry;
	/*
	 * The last two mappings the last walk's dunwind_mmap_report() found
	 * reported under @reported_tag (0: none), as [lo, lo + len): where a
	 * kept memo's next walk starts looking (kmod/mmap.c).
	 */
	unsigned long reported_lo[2], reported_len[2];
	u64 reported_tag;
	/*
	 * dunwind_sframe_rule()'s result: the last frame's rule, its range
	 * cut to the mapping it came from (empty after a frame with none).
	 * A frame at a PC it covers (recursion: one return address for
	 * every level) needs no mapping or cache lookup, nor a copy.
	 */
	struct dunwind_urule rule;
	struct dunwind_sframe_map maps[4];
};

/* Start a walk's memo empty.  Context: any. */
static inline void dunwind_sframe_memo_init(struct dunwind_sframe_memo *memo)
{
	memo->nr = 0;
	memo->next = 0;
	memo->reads = 0;
	memo->rule.pc_lo = 0;
	memo->rule.pc_hi = 0;
	memo->kept_mm = NULL;
	memo->rules_gen++;
	memo->entries = false;
	memo->reported_tag = 0;
}

/* The set where a slot's memo keeps the rule for @pc (struct dunwind_sframe_memo.rules). */
static inline struct dunwind_memo_rule *dunwind_sframe_memo_set(const struct dunwind_sframe_memo *memo,
								 unsigned long pc)
{
	return &memo->rules[hash_long(pc, DUNWIND_MEMO_RULE_BITS) * DUNWIND_MEMO_WAYS];
}

/*
 * The rule a slot's memo keeps for @pc (a usable one, or that there is
 * none), or NULL if it keeps none.  Context: any.
 */
static inline const struct dunwind_urule *dunwind_sframe_memo_kept(const struct dunwind_sframe_memo *memo,
								    unsigned long pc)
{
	const struct dunwind_memo_rule *e;
	unsigned int w;

	if (!memo->rules)
		return NULL;
	e = dunwind_sframe_memo_set(memo, pc);
	for (w = 0; w < DUNWIND_MEMO_WAYS; w++, e++)
		if (e->gen == memo->rules_gen && pc >= e->rule.pc_lo && pc < e->rule.pc_hi)
			return &e->rule;
	return NULL;
}

/* The usable rule a slot's memo keeps for @pc, or NULL.  Context: any. */
static inline const struct dunwind_urule *dunwind_sframe_memo_usable(const struct dunwind_sframe_memo *memo,
								      unsigned long pc)
{
	const struct dunwind_urule *rule = dunwind_sframe_memo_kept(memo, pc);

	return rule && !rule->nodata ? rule : NULL;
}

/**
 * dunwind_sframe_memo_find() - the mapping of the walk's memo that holds @pc
 * @memo:	the walk's memo
 * @pc:		the PC
 *
 * Context: any.
 * Return: the entry, or NULL if the walk has not looked it up.
 */
static inline struct dunwind_sframe_map *dunwind_sframe_memo_find(struct dunwind_sframe_memo *memo,
								  unsigned long pc)
{
	unsigned int i;

	for (i = 0; i < memo->nr; i++)
		if (pc >= memo->maps[i].key.start && pc < memo->maps[i].key.end)
			return &memo->maps[i];
	return NULL;
}

int dunwind_sframe_cache_init(struct dunwind_sframe_cache *c);
void dunwind_sframe_cache_free(struct dunwind_sframe_cache *c);
int dunwind_sframe_map(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
		       unsigned long pc, struct dunwind_sframe_map **out);
/* kmod/sframe_rule.c: the rule for a PC, from the table of its mapping. */
int dunwind_sframe_rule(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
			unsigned long pc, u8 state);
bool dunwind_sframe_rule_cached(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
				unsigned long pc);
int dunwind_sframe_memo_vma(struct dunwind_session *s, struct mm_struct *mm, unsigned long pc,
			    struct dunwind_sframe_map *m, unsigned long *ehdr);
bool dunwind_sframe_memo_vma_cached(struct dunwind_session *s, struct mm_struct *mm,
				    unsigned long pc, struct dunwind_sframe_map *m);
struct dunwind_sframe_map *dunwind_sframe_memo_add(struct dunwind_session *s,
						   struct dunwind_sframe_memo *memo,
						   const struct dunwind_sframe_map *found,
						   unsigned long ehdr);
void dunwind_sframe_reported(struct dunwind_session *s, const struct dunwind_sframe_map *m,
			     u64 tag);

/* kmod/vmacache.c: mappings walks found, kept while their mm's do not change. */
#define DUNWIND_VMA_CACHE_MMS	8	/* address spaces per session, by mm */
#define DUNWIND_VMA_CACHE_VMAS	8	/* mappings per address space */

struct dunwind_vma_cache_mm {
	struct mm_struct *mm;		/* mmgrab()bed while here; NULL: empty */
	unsigned int seq;		/* @mm's mm_lock_seq when @keys were found */
	unsigned int nr, next;
	struct dunwind_vma_key keys[DUNWIND_VMA_CACHE_VMAS];
};

struct dunwind_vma_cache {
	spinlock_t lock;		/* Guards @mms */
	struct dunwind_vma_cache_mm mms[DUNWIND_VMA_CACHE_MMS];
};

void dunwind_vma_cache_init(struct dunwind_vma_cache *c);
void dunwind_vma_cache_free(struct dunwind_vma_cache *c);
bool dunwind_vma_cache_find(struct dunwind_vma_cache *c, struct mm_struct *mm,
			    unsigned long addr, struct dunwind_vma_key *key);
void dunwind_vma_cache_add(struct dunwind_vma_cache *c, struct mm_struct *mm,
			   const struct dunwind_vma_key *key);
bool dunwind_vma_memo_find(const struct dunwind_vma_memo *m, struct mm_struct *mm,
			   unsigned long addr);
void dunwind_vma_memo_set(struct dunwind_vma_memo *m, struct mm_struct *mm,
			  const struct dunwind_vma_key *key);
void dunwind_vma_memo_free(struct dunwind_vma_memo *m);

/* kmod/mmap.c: MMAP records for the mappings user IPs fall in. */
#define DUNWIND_MMAP_SEEN	1024	/* mappings remembered as reported, per session */

struct dunwind_mmap_key {
	struct dunwind_vma_key vma;
	unsigned long gen;		/* the session's exec generation */
	unsigned long pid;		/* the process the record names */
};

struct dunwind_mmap_seen {
	spinlock_t lock;		/* Guards @keys */
	struct dunwind_mmap_key *keys;	/* DUNWIND_MMAP_SEEN, direct-mapped */
};

/* kmod/session.c: one open of /dev/dunwind. */
enum dunwind_counter {
	DW_CNT_SAMPLES,
	DW_CNT_SAMPLES_USER,
	DW_CNT_SAMPLES_DEFERRED,
	DW_CNT_SAMPLES_NO_USER,
	DW_CNT_WALKS,
	DW_CNT_USER_FRAMES,
	DW_CNT_FP_FRAMES,
	DW_CNT_SFRAME_FRAMES,
	DW_CNT_HANDLER_CYCLES,		/* dunwind_cycles(): dunwind_cycles_ns() */
	DW_CNT_WALK_NS,			/* dunwind_oncpu_since() */
	DW_CNT_FP_CYCLES,
	DW_CNT_SFRAME_CYCLES,
	DW_CNT_PENDING_FULL,
	DW_CNT_THREADS,
	DW_CNT_OFFCPU,
	DW_CNT_OFFCPU_SHORT,
	DW_CNT_OFFCPU_FULL,
	DW_CNT_BARRIER_WAITS,
	DW_CNT_BARRIER_MISSED,
	DW_CNT_BARRIER_NS,
	DW_CNT_WALK_SAMPLES,
	DW_CNT_WALKS_REPLAYED,
	DW_CNT_SAMPLES_EARLIER,
	DW_CNT_MAX,
};

/* kmod/barrier.c: walks waiting for the recorder's verdict on a file. */
struct dunwind_barrier_file {
	u64 ino;
	u32 dev;
	u8 state;
};

struct dunwind_barrier {
	spinlock_t lock;		/* Guards @files' entries and @closed */
	struct dunwind_barrier_file *files;	/* set at CONFIG, under @lock */
	bool closed;			/* STOP: no walk waits */
	struct pid *recorder;		/* CONFIG's caller: its walks never wait */
	wait_queue_head_t wq;		/* walks waiting for a verdict */
};

struct dunwind_session {
	struct kref ref;		/* the file + one per pending walk */
	/*
	 * Guards @configured, @started, @cfg, @cpus, @target, @events, @tasks, their
	 * counts, the allocation of @ring and @pending, and the writers of
	 * @interp and @nr_interp.  Taken in ioctl
	 * and release context only (never under a mmap_lock: walks fault with
	 * walk_sem held, and STOP waits for walk_sem under this lock).
	 * dunwind_mmap() reads @configured without it (acquire).
	 */
	struct mutex lock;
	bool configured;
	bool started;
	struct dunwind_config cfg;	/* normalised: defaults filled in */
	struct pid *target;
	struct perf_event **events;	/* ours, one per attached thread */
	struct task_struct **tasks;	/* threads handled, referenced */
	unsigned int nr_events;
	unsigned int nr_tasks;
	unsigned int cap;		/* of @events and of @tasks */
	struct dunwind_ring ring;
	struct dunwind_pending pending;
	/*
	 * Guards @ring, @sframe and @mmap_seen against being freed under a
	 * walk: walks hold it for reading while they walk and write, STOP
	 * and close take it for writing to wait for them.
	 */
	struct rw_semaphore walk_sem;
	atomic_t nr_queued;		/* walks queued, not yet run (task_work) */
	wait_queue_head_t drain_wq;	/* woken as @nr_queued drops */
	struct dunwind_sframe_cache sframe;
	struct dunwind_vma_cache vmas;	/* from creation to the last put */
	struct dunwind_offcpu offcpu;
	struct dunwind_barrier barrier;
	/* Tables this session registered; Guarded by dunwind_reg_lock (registry.c). */
	struct {
		dev_t dev;
		unsigned long ino;
	} *regs;
	unsigned int nr_regs, cap_regs;
	struct dunwind_mmap_seen mmap_seen;
	/*
	 * Interpreters registered (kmod/interp.c), @interp[0..@nr_interp):
	 * written under @lock, each slot before smp_store_release() of
	 * @nr_interp, which pairs with the walks' smp_load_acquire(); never
	 * changed after, freed at the last put (after every walk).
	 */
	struct dunwind_interp *interp[DUNWIND_INTERP_MAX_FILES];
	unsigned int nr_interp;
	atomic_t exec_gen;		/* bumped at every exec in the target */
	pid_t target_tgid;		/* init-namespace ids, set at START */
	pid_t target_tid;		/* 0 when following a thread group */
	bool children;			/* DUNWIND_CFG_CHILDREN: descendants too */
	bool system_wide;		/* DUNWIND_CFG_SYSTEM_WIDE: every task on @cpus */
	bool kernel_stacks;		/* perf's policy allows kernel stacks (perm.c) */
	cpumask_var_t cpus;		/* SYSTEM_WIDE: the CPUs sampled, set at CONFIG */
	struct xarray follow;		/* CHILDREN: followed tgids (follow.c), own lock */
	struct list_head events_node;	/* in events.c's started sessions, RCU */
	bool events_on;			/* on that list */
	atomic64_t cnt[DW_CNT_MAX];
};

/**
 * dunwind_copy_arg() - copy an extensible ioctl argument, its size first
 * @dst:	the kernel's struct
 * @size:	its size
 * @min:	the smallest size callers may pass (VER0)
 * @arg:	the user's struct
 *
 * Context: ioctl (may fault).
 * Return: 0; -EFAULT; -EINVAL (smaller than @min); -E2BIG (larger than a
 * page, or a non-zero tail the kernel does not know).
 */
static inline int dunwind_copy_arg(void *dst, size_t size, u32 min, const void __user *arg)
{
	u32 usize;

	if (get_user(usize, (const u32 __user *)arg))
		return -EFAULT;
	if (usize < min)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	return copy_struct_from_user(dst, size, arg, usize);
}

static inline void dunwind_count(struct dunwind_session *s, enum dunwind_counter c, u64 v)
{
	atomic64_add(v, &s->cnt[c]);
}

/* Cycles since @c0, 0 if the counter went back (a move to another CPU). */
static inline u64 dunwind_cycles_since(u64 c0, u64 now)
{
	return (s64)(now - c0) > 0 ? now - c0 : 0;
}

/*
 * A start of a span of current's time: the arch's cycle counter
 * (dunwind_cycles(), where local_clock() is dozens of instructions) and
 * the thread's run-queue waits so far.
 */
struct dunwind_oncpu {
	u64 cycles;
	u64 run_delay;
};

static inline void dunwind_oncpu_start(struct dunwind_oncpu *t)
{
	t->cycles = dunwind_cycles();
	t->run_delay = dunwind_task_run_delay(current);
}

/*
 * ns since dunwind_oncpu_start(@t), less the time current waited on a run
 * queue meanwhile (preempted, or woken and not yet running): the span's own
 * time, not other threads'.  Sleeps still count.
 * Context: the thread that started @t; process.
 */
static inline u64 dunwind_oncpu_since(const struct dunwind_oncpu *t)
{
	/* 0 if the counter went back (a move to another CPU), as the frame counters. */
	u64 ns = dunwind_cycles_ns(dunwind_cycles_since(t->cycles, dunwind_cycles()));
	u64 waited = dunwind_task_run_delay(current) - t->run_delay;

	return ns > waited ? ns - waited : 0;
}

struct dunwind_session *dunwind_session_new(void);
void dunwind_session_put(struct dunwind_session *s);
void dunwind_session_close(struct dunwind_session *s);
int dunwind_session_config(struct dunwind_session *s, const void __user *arg);
int dunwind_session_start(struct dunwind_session *s);
int dunwind_session_stop(struct dunwind_session *s);
int dunwind_session_test_nmi(struct dunwind_session *s);
int dunwind_session_stats(struct dunwind_session *s, void __user *arg);

/* kmod/attach.c: the session's perf events, on threads or CPUs. */
bool dunwind_task_has_event(struct dunwind_session *s, struct task_struct *task);
int dunwind_attach_task(struct dunwind_session *s, struct task_struct *task);
int dunwind_attach_group(struct dunwind_session *s, struct task_struct *leader);
int dunwind_attach_cpus(struct dunwind_session *s);
void dunwind_detach(struct dunwind_session *s);

int dunwind_mmap_init(struct dunwind_mmap_seen *seen);
void dunwind_mmap_free(struct dunwind_mmap_seen *seen);
u64 dunwind_mmap_report_tag(struct dunwind_session *s);
u64 dunwind_mmap_report(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
			const u64 *ips, unsigned int nr);

void dunwind_barrier_init(struct dunwind_barrier *b);
int dunwind_barrier_alloc(struct dunwind_barrier *b);
void dunwind_barrier_free(struct dunwind_barrier *b);
bool dunwind_barrier_claim(struct dunwind_barrier *b, u32 dev, u64 ino);
void dunwind_barrier_answer(struct dunwind_barrier *b, u32 dev, u64 ino);
void dunwind_barrier_wait(struct dunwind_session *s, u32 dev, u64 ino);
void dunwind_barrier_open(struct dunwind_barrier *b);
void dunwind_barrier_close(struct dunwind_barrier *b);
int dunwind_barrier_none(struct dunwind_session *s, const void __user *arg);

/* kmod/perm.c: perf_event_open()'s policy for who may profile what. */
int dunwind_perm_config(const struct dunwind_config *cfg, struct task_struct *task, bool *kernel);
int dunwind_perm_task(struct task_struct *task);
bool dunwind_perm_kernel_addresses(void);

/* kmod/ksym.c: DUNWIND_IOC_KSYM, a kernel address's symbol. */
int dunwind_ksym(void __user *arg);

/* kmod/sysctl.c: a /proc/sys value modules cannot read directly. */
int dunwind_sysctl_int(const char *path, int *val);

/* kmod/events.c: COMM, FORK and EXIT records from scheduler tracepoints. */
int dunwind_events_init(void);
void dunwind_events_exit(void);
void dunwind_events_start(struct dunwind_session *s);
void dunwind_events_stop(struct dunwind_session *s);
void dunwind_events_comm(struct dunwind_session *s, struct task_struct *task,
			 const char *comm, u16 misc);

/* kmod/follow.c: the processes a DUNWIND_CFG_CHILDREN session names in records. */
void dunwind_follow_init(struct dunwind_session *s);
void dunwind_follow_free(struct dunwind_session *s);
int dunwind_follow_add(struct dunwind_session *s, struct task_struct *task);
bool dunwind_follow_has(struct dunwind_session *s, struct task_struct *task);
void dunwind_follow_exit(struct dunwind_session *s, struct task_struct *task);

/* kmod/offcpu.c: off-CPU samples from the sched_switch tracepoint. */
int dunwind_offcpu_init(void);
int dunwind_offcpu_alloc(struct dunwind_offcpu *oc, const struct dunwind_config *cfg);
void dunwind_offcpu_free(struct dunwind_offcpu *oc);
int dunwind_offcpu_start(struct dunwind_session *s);
void dunwind_offcpu_stop(struct dunwind_session *s);

/* kmod/registry.c: SFrame tables registered by user space, per file. */
int dunwind_registry_register(struct dunwind_session *s, const void __user *arg);
void dunwind_registry_session_close(struct dunwind_session *s);
u64 dunwind_registry_lookup(dev_t dev, unsigned long ino, const u8 *build_id,
			    u32 build_id_size);
int dunwind_registry_find(dev_t dev, unsigned long ino, u64 serial, u64 vaddr,
			  struct dunwind_sframe_row *row);
void dunwind_registry_stats(u64 *tables, u64 *bytes);
u64 dunwind_registry_gen(void);
void dunwind_registry_exit(void);

/* kmod/sample.c: the overflow handler. */
#define DUNWIND_SAMPLE_MAX_FREQ	100000	/* Hz, whatever the kernel allows */
int dunwind_sample_init(void);
u32 dunwind_sample_max_rate(void);
void dunwind_sample_exit(void);
int dunwind_sample_test_nmi(struct dunwind_session *s);
void dunwind_sample_overflow(struct perf_event *event, struct perf_sample_data *data,
			     struct pt_regs *regs);
void dunwind_sample_test_nmi_hit(struct dunwind_session *s, struct pt_regs *regs);

/* kmod/cookie.c: a sample's cookie, and the walk that answers it. */
u64 dunwind_cookie(struct dunwind_session *s, struct task_struct *task, u32 *flags);
u64 dunwind_cookie_stash(struct dunwind_session *s, struct task_struct *task, u32 *flags,
			 const struct dunwind_stash *stash, bool *stashed);
u64 dunwind_cookie_answered(struct dunwind_session *s);

/* kmod/sample_stack.c: a sample and its user stack in one record. */
void dunwind_sample_stash_flush(struct dunwind_session *s, struct dunwind_pending_slot *slot,
				struct task_struct *task);
int dunwind_sample_stack_write(struct dunwind_session *s, struct dunwind_pending_slot *slot,
			       struct dunwind_rec_user_stack *us, const u64 *ips);

/* kmod/replay.c: a blocking thread's walk, replayed at its switch out. */
bool dunwind_replay_blocked(struct dunwind_session *s, struct dunwind_offcpu_user *out);
u64 dunwind_replay_sampled(struct dunwind_session *s);

/* kmod/walk.c: the deferred user walk. */
void dunwind_walk_work(struct callback_head *work);
int dunwind_walk_emit_replayed(struct dunwind_session *s, struct task_struct *task, u64 cookie,
			       const struct dunwind_offcpu_user *u, u64 now);
int dunwind_walk_emit_exited(struct dunwind_session *s, struct dunwind_pending_slot *slot,
			     u64 cookie, u8 stop);
void dunwind_walk_end_session(struct dunwind_session *s);
void dunwind_walk_drain(struct dunwind_session *s);
void dunwind_walk_detach(struct dunwind_session *s);

#endif /* DUNWIND_KMOD_H */
