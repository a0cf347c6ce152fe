// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for lib/interp.c, the interpreter frame walker: chains built
 * here in a synthetic address space (an arena at a fake address) with a
 * CPython 3.11-like layout, then broken on purpose: cycles, bounds,
 * misaligned pointers, reads that fail, malformed descriptors.  Every read
 * the walker makes is checked to stay within DUNWIND_INTERP_FRAME_MAX bytes
 * and counted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "interp.h"

#define ARENA_BASE	0x7f0000100000ULL
#define ARENA_SIZE	(4U << 20)
#define TID		4242

/* The 3.11-like layout the tests build (offsets as Debian's 3.11 has them). */
#define RT_INTERP_HEAD	40
#define IS_NEXT		0
#define IS_THREADS	16
#define TS_NEXT		8
#define TS_CFRAME	56
#define TS_TID		160
#define CF_CURRENT	8
#define FR_CODE		32
#define FR_PREV		48
#define FR_INSN		56
#define FR_ENTRY	68
#define CO_INSN		184

struct arena {
	__u8 *p;
	__u64 top;		/* next free offset */
	__u64 fail_at;		/* a read touching this address fails (0: none) */
	unsigned long reads;
};

static int arena_read(void *ctx, __u64 addr, void *dst, __u32 len)
{
	struct arena *a = ctx;

	if (len > DUNWIND_INTERP_FRAME_MAX)
		abort();
	a->reads++;
	if (a->fail_at && a->fail_at >= addr && a->fail_at < addr + len)
		return -EFAULT;
	if (addr < ARENA_BASE || addr - ARENA_BASE > ARENA_SIZE ||
	    len > ARENA_SIZE - (addr - ARENA_BASE))
		return -EFAULT;
	memcpy(dst, a->p + (addr - ARENA_BASE), len);
	return 0;
}

static __u64 arena_alloc(struct arena *a, __u64 size)
{
	__u64 at = ARENA_BASE + a->top;

	a->top = (a->top + size + 15) & ~15ULL;
	if (a->top > ARENA_SIZE)
		abort();
	return at;
}

static void put(struct arena *a, __u64 addr, __u64 v, unsigned int size)
{
	memcpy(a->p + (addr - ARENA_BASE), &v, size);
}

static void desc_311(struct dunwind_interp_desc *d)
{
	static const struct dunwind_interp_step prog[] = {
		{ .op = DUNWIND_INTERP_OP_BASE, .arg = DUNWIND_INTERP_BASE_RUNTIME },
		{ .op = DUNWIND_INTERP_OP_DEREF, .arg = RT_INTERP_HEAD },
		{ .op = DUNWIND_INTERP_OP_EACH, .arg = IS_NEXT, .imm = 8 },
		{ .op = DUNWIND_INTERP_OP_DEREF, .arg = IS_THREADS },
		{ .op = DUNWIND_INTERP_OP_EACH, .arg = TS_NEXT, .imm = 64 },
		{ .op = DUNWIND_INTERP_OP_MATCH, .size = 8, .arg = TS_TID,
		  .flags = DUNWIND_INTERP_KEY_TID },
		{ .op = DUNWIND_INTERP_OP_DEREF, .arg = TS_CFRAME },
		{ .op = DUNWIND_INTERP_OP_DEREF, .arg = CF_CURRENT },
	};

	memset(d, 0, sizeof(*d));
	d->size = sizeof(*d);
	d->kind = DUNWIND_INTERP_CPYTHON;
	d->version = 0x030b02;
	d->nr_steps = sizeof(prog) / sizeof(prog[0]);
	memcpy(d->steps, prog, sizeof(prog));
	d->frame_code = FR_CODE;
	d->frame_prev = FR_PREV;
	d->frame_insn = FR_INSN;
	d->code_insn = CO_INSN;
	d->insn_align = 2;
	d->entry_off = FR_ENTRY;
	d->entry_size = 1;
	d->entry_mask = 1;
	d->entry_value = 1;
}

/* A process image: runtime, interpreters, thread states, frames. */
FIXTURE(interp) {
	struct arena a;
	struct dunwind_interp_desc d;
	struct dunwind_interp_env env;
	struct dunwind_interp_mem mem;
	struct dunwind_interp_frame out[DUNWIND_INTERP_MAX_FRAMES + 8];
	__u64 runtime, tstate, cframe;
	__u32 nr;
};

/* A frame of @code at instruction offset @insn, calling nothing yet. */
static __u64 new_frame(struct arena *a, __u64 code, __s64 insn, __u64 prev, int entry)
{
	__u64 f = arena_alloc(a, 80);

	put(a, f + FR_CODE, code, 8);
	put(a, f + FR_INSN, code + CO_INSN + (__u64)insn, 8);
	put(a, f + FR_PREV, prev, 8);
	put(a, f + FR_ENTRY, (__u64)entry, 1);
	return f;
}

static __u64 new_code(struct arena *a)
{
	return arena_alloc(a, 256);
}

/* Two interpreters; the second's second thread is TID. */
FIXTURE_SETUP(interp)
{
	__u64 is1, is2, ts1, ts2, ts3, cf_other;

	self->a.p = calloc(1, ARENA_SIZE);
	ASSERT_NE(NULL, self->a.p);
	desc_311(&self->d);
	self->runtime = arena_alloc(&self->a, 256);
	is1 = arena_alloc(&self->a, 64);
	is2 = arena_alloc(&self->a, 64);
	ts1 = arena_alloc(&self->a, 256);
	ts2 = arena_alloc(&self->a, 256);
	ts3 = arena_alloc(&self->a, 256);
	self->cframe = arena_alloc(&self->a, 32);
	cf_other = arena_alloc(&self->a, 32);
	put(&self->a, self->runtime + RT_INTERP_HEAD, is1, 8);
	put(&self->a, is1 + IS_NEXT, is2, 8);
	put(&self->a, is1 + IS_THREADS, ts1, 8);
	put(&self->a, is2 + IS_THREADS, ts2, 8);
	put(&self->a, ts1 + TS_TID, 1, 8);
	put(&self->a, ts1 + TS_CFRAME, cf_other, 8);
	put(&self->a, ts2 + TS_NEXT, ts3, 8);
	put(&self->a, ts2 + TS_TID, 2, 8);
	put(&self->a, ts2 + TS_CFRAME, cf_other, 8);
	put(&self->a, ts3 + TS_TID, TID, 8);
	put(&self->a, ts3 + TS_CFRAME, self->cframe, 8);
	put(&self->a, cf_other + CF_CURRENT,
	    new_frame(&self->a, new_code(&self->a), 0, 0, 1), 8);
	self->tstate = ts3;
	self->env.base[DUNWIND_INTERP_BASE_RUNTIME] = self->runtime;
	self->env.key[DUNWIND_INTERP_KEY_TID] = TID;
	self->mem.read = arena_read;
	self->mem.ctx = &self->a;
}

FIXTURE_TEARDOWN(interp)
{
	free(self->a.p);
}

/* A chain of @n frames, each of its own code; the newest is returned. */
static __u64 chain(struct arena *a, unsigned int n, __u64 *codes)
{
	__u64 prev = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		codes[i] = new_code(a);
		prev = new_frame(a, codes[i], 2 * i, prev, i == 0);
	}
	return prev;
}

static int walk(struct _test_data_interp *self, __u32 max)
{
	return dunwind_interp_walk(&self->d, &self->env, &self->mem, self->out, max, &self->nr);
}

TEST_F(interp, good_chain_newest_first)
{
	__u64 codes[5];
	unsigned int i;

	put(&self->a, self->cframe + CF_CURRENT, chain(&self->a, 5, codes), 8);
	ASSERT_EQ(0, dunwind_interp_validate(&self->d));
	ASSERT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 64));
	ASSERT_EQ(5, self->nr);
	for (i = 0; i < 5; i++) {
		EXPECT_EQ(codes[4 - i], self->out[i].code);
		EXPECT_EQ(2 * (4 - i), self->out[i].insn);
		EXPECT_EQ(i == 4 ? DUNWIND_INTERP_FRAME_ENTRY : 0, self->out[i].flags);
	}
}

TEST_F(interp, frame_just_pushed_has_negative_offset)
{
	__u64 code = new_code(&self->a);

	put(&self->a, self->cframe + CF_CURRENT, new_frame(&self->a, code, -2, 0, 0), 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 8));
	ASSERT_EQ(1, self->nr);
	EXPECT_EQ(-2, self->out[0].insn);
}

TEST_F(interp, thread_not_in_any_list)
{
	self->env.key[DUNWIND_INTERP_KEY_TID] = 99;
	ASSERT_EQ(DUNWIND_INTERP_STOP_NO_THREAD, walk(self, 8));
	EXPECT_EQ(0, self->nr);
}

TEST_F(interp, thread_with_no_frame_ends_empty)
{
	ASSERT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 8));
	EXPECT_EQ(0, self->nr);
}

TEST_F(interp, runtime_without_interpreters)
{
	put(&self->a, self->runtime + RT_INTERP_HEAD, 0, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_NO_THREAD, walk(self, 8));
	EXPECT_EQ(0, self->nr);
}

TEST_F(interp, shim_frames_mark_entries_and_are_not_emitted)
{
	__u64 c1 = new_code(&self->a), c2 = new_code(&self->a), c3 = new_code(&self->a);
	__u64 f3 = new_frame(&self->a, c3, 4, 0, 0);
	__u64 shim = new_frame(&self->a, 0, 0, f3, 4);
	__u64 f2 = new_frame(&self->a, c2, 6, shim, 0);
	__u64 f1 = new_frame(&self->a, c1, 8, f2, 0);

	/* 3.14: owner >= FRAME_OWNED_BY_INTERPRETER (3) is a shim. */
	self->d.entry_cmp = DUNWIND_INTERP_CMP_GE;
	self->d.entry_flags = DUNWIND_INTERP_ENTRY_SHIM;
	self->d.entry_mask = 0xff;
	self->d.entry_value = 3;
	put(&self->a, self->cframe + CF_CURRENT, f1, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 8));
	ASSERT_EQ(3, self->nr);
	EXPECT_EQ(c1, self->out[0].code);
	EXPECT_EQ(0, self->out[0].flags);
	EXPECT_EQ(c2, self->out[1].code);
	EXPECT_EQ(DUNWIND_INTERP_FRAME_ENTRY, self->out[1].flags);
	EXPECT_EQ(c3, self->out[2].code);
	EXPECT_EQ(4, self->out[2].insn);
}

TEST_F(interp, tagged_code_pointer_is_cleared)
{
	__u64 code = new_code(&self->a);
	__u64 f = new_frame(&self->a, code, 10, 0, 0);

	put(&self->a, f + FR_CODE, code | 1, 8);
	self->d.code_tag_mask = 1;
	put(&self->a, self->cframe + CF_CURRENT, f, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 8));
	ASSERT_EQ(1, self->nr);
	EXPECT_EQ(code, self->out[0].code);
	self->d.code_tag_mask = 0;
	ASSERT_EQ(DUNWIND_INTERP_STOP_BAD_FRAME, walk(self, 8));
}

TEST_F(interp, tls_program_without_match)
{
	__u64 tls = arena_alloc(&self->a, 64) + 32, codes[2];

	/* tstate = *(fs - 16); frame = tstate->cframe->current_frame */
	memset(self->d.steps, 0, sizeof(self->d.steps));
	self->d.steps[0] = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_BASE,
		.arg = DUNWIND_INTERP_BASE_TLS, .imm = -16 };
	self->d.steps[1] = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_DEREF };
	self->d.steps[2] = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_DEREF,
		.arg = TS_CFRAME };
	self->d.steps[3] = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_DEREF,
		.arg = CF_CURRENT };
	self->d.nr_steps = 4;
	self->env.base[DUNWIND_INTERP_BASE_TLS] = tls;
	put(&self->a, tls - 16, self->tstate, 8);
	put(&self->a, self->cframe + CF_CURRENT, chain(&self->a, 2, codes), 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 8));
	ASSERT_EQ(2, self->nr);
	EXPECT_EQ(codes[1], self->out[0].code);
	put(&self->a, tls - 16, 0, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 8));
	EXPECT_EQ(0, self->nr);
}

TEST_F(interp, four_byte_match)
{
	self->d.steps[5].size = 4;
	self->env.key[DUNWIND_INTERP_KEY_TID] = TID | 0x100000000ULL;
	put(&self->a, self->cframe + CF_CURRENT,
	    new_frame(&self->a, new_code(&self->a), 0, 0, 0), 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 8));
	EXPECT_EQ(1, self->nr);
}

TEST_F(interp, cycle_is_reported_with_the_frames_before)
{
	__u64 c[3];
	__u64 f3 = new_frame(&self->a, (c[2] = new_code(&self->a)), 0, 0, 0);
	__u64 f2 = new_frame(&self->a, (c[1] = new_code(&self->a)), 0, f3, 0);
	__u64 f1 = new_frame(&self->a, (c[0] = new_code(&self->a)), 0, f2, 0);

	put(&self->a, f3 + FR_PREV, f2, 8);
	put(&self->a, self->cframe + CF_CURRENT, f1, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_CYCLE, walk(self, 64));
	EXPECT_GE(self->nr, 3);
	EXPECT_LE(self->nr, 8);
	EXPECT_EQ(c[0], self->out[0].code);
	EXPECT_EQ(c[2], self->out[2].code);
}

TEST_F(interp, self_cycle)
{
	__u64 f = new_frame(&self->a, new_code(&self->a), 0, 0, 0);

	put(&self->a, f + FR_PREV, f, 8);
	put(&self->a, self->cframe + CF_CURRENT, f, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_CYCLE, walk(self, 64));
	EXPECT_EQ(1, self->nr);
}

TEST_F(interp, long_cycle_ends_before_the_array_fills)
{
	__u64 codes[300], newest = chain(&self->a, 300, codes), f = newest;
	unsigned int i;

	/* The oldest frame calls back into the middle of the chain. */
	for (i = 0; i < 299; i++)
		memcpy(&f, self->a.p + (f - ARENA_BASE) + FR_PREV, 8);
	put(&self->a, f + FR_PREV, newest, 8);
	put(&self->a, self->cframe + CF_CURRENT, newest, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_CYCLE, walk(self, DUNWIND_INTERP_MAX_FRAMES));
	/* Brent: caught within a power of two past the cycle, plus its length. */
	EXPECT_LE(self->nr, 512 + 300);
}

TEST_F(interp, max_depth_is_the_callers_array)
{
	__u64 codes[50];

	put(&self->a, self->cframe + CF_CURRENT, chain(&self->a, 50, codes), 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_MAX_DEPTH, walk(self, 10));
	EXPECT_EQ(10, self->nr);
	EXPECT_EQ(codes[49], self->out[0].code);
	EXPECT_EQ(DUNWIND_INTERP_STOP_MAX_DEPTH, walk(self, 0));
	EXPECT_EQ(0, self->nr);
}

TEST_F(interp, frames_are_bounded_whatever_the_caller_asks)
{
	static __u64 codes[DUNWIND_INTERP_MAX_FRAMES + 5];

	put(&self->a, self->cframe + CF_CURRENT,
	    chain(&self->a, DUNWIND_INTERP_MAX_FRAMES + 5, codes), 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_MAX_DEPTH,
		  walk(self, DUNWIND_INTERP_MAX_FRAMES + 8));
	EXPECT_EQ(DUNWIND_INTERP_MAX_FRAMES, self->nr);
	EXPECT_LE(self->a.reads, DUNWIND_INTERP_MAX_FRAMES + 16);
}

TEST_F(interp, shim_only_chain_is_bounded)
{
	__u64 f = new_frame(&self->a, 0, 0, 0, 1), prev = f;
	unsigned int i;

	/* A long chain of shims emits nothing and must still end. */
	self->d.entry_flags = DUNWIND_INTERP_ENTRY_SHIM;
	for (i = 0; i < 2 * DUNWIND_INTERP_MAX_FRAMES + 10; i++)
		prev = new_frame(&self->a, 0, 0, prev, 1);
	put(&self->a, self->cframe + CF_CURRENT, prev, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_BOUND, walk(self, 8));
	EXPECT_EQ(0, self->nr);
}

TEST_F(interp, thread_list_longer_than_its_bound)
{
	__u64 ts = self->tstate, next;
	unsigned int i;

	/* 100 threads before ours; the descriptor allows 64 per list. */
	for (i = 0; i < 100; i++) {
		next = arena_alloc(&self->a, 256);
		put(&self->a, ts + TS_NEXT, next, 8);
		put(&self->a, ts + TS_TID, 1000 + i, 8);
		ts = next;
	}
	put(&self->a, ts + TS_TID, TID, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_BOUND, walk(self, 8));
	self->d.steps[4].imm = 200;
	ASSERT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 8));
}

TEST_F(interp, cyclic_thread_list_is_bounded)
{
	put(&self->a, self->tstate + TS_TID, 7, 8);
	put(&self->a, self->tstate + TS_NEXT, self->tstate, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_BOUND, walk(self, 8));
	EXPECT_LE(self->a.reads, 2 * 64 + 16);
}

TEST_F(interp, misaligned_pointers_are_bad_frames)
{
	__u64 code = new_code(&self->a), f = new_frame(&self->a, code, 4, 0, 0);

	put(&self->a, self->cframe + CF_CURRENT, f + 4, 8);
	EXPECT_EQ(DUNWIND_INTERP_STOP_BAD_FRAME, walk(self, 8));
	put(&self->a, self->cframe + CF_CURRENT, f, 8);
	put(&self->a, f + FR_CODE, code + 4, 8);
	EXPECT_EQ(DUNWIND_INTERP_STOP_BAD_FRAME, walk(self, 8));
	put(&self->a, f + FR_CODE, 0, 8);
	EXPECT_EQ(DUNWIND_INTERP_STOP_BAD_FRAME, walk(self, 8));
	put(&self->a, f + FR_CODE, code, 8);
	put(&self->a, f + FR_INSN, code + CO_INSN + 3, 8);
	EXPECT_EQ(DUNWIND_INTERP_STOP_BAD_FRAME, walk(self, 8));
	EXPECT_EQ(0, self->nr);
}

TEST_F(interp, instruction_out_of_range_is_a_bad_frame)
{
	__u64 code = new_code(&self->a), f = new_frame(&self->a, code, 0, 0, 0);

	put(&self->a, self->cframe + CF_CURRENT, f, 8);
	put(&self->a, f + FR_INSN, code + CO_INSN - 18, 8);
	EXPECT_EQ(DUNWIND_INTERP_STOP_BAD_FRAME, walk(self, 8));
	put(&self->a, f + FR_INSN, code + CO_INSN + DUNWIND_INTERP_MAX_INSN, 8);
	EXPECT_EQ(DUNWIND_INTERP_STOP_BAD_FRAME, walk(self, 8));
	put(&self->a, f + FR_INSN, 0, 8);
	EXPECT_EQ(DUNWIND_INTERP_STOP_BAD_FRAME, walk(self, 8));
	put(&self->a, f + FR_INSN, code + CO_INSN + DUNWIND_INTERP_MAX_INSN - 2, 8);
	EXPECT_EQ(DUNWIND_INTERP_STOP_END, walk(self, 8));
	EXPECT_EQ(DUNWIND_INTERP_MAX_INSN - 2, self->out[0].insn);
	/* A code address whose first instruction would wrap around. */
	put(&self->a, f + FR_CODE, ~7ULL, 8);
	EXPECT_EQ(DUNWIND_INTERP_STOP_BAD_FRAME, walk(self, 8));
}

TEST_F(interp, failed_reads_keep_the_frames_before)
{
	__u64 codes[4], newest = chain(&self->a, 4, codes), f2;

	put(&self->a, self->cframe + CF_CURRENT, newest, 8);
	memcpy(&f2, self->a.p + (newest - ARENA_BASE) + FR_PREV, 8);
	self->a.fail_at = f2 + FR_CODE;
	ASSERT_EQ(DUNWIND_INTERP_STOP_FAULT, walk(self, 8));
	EXPECT_EQ(1, self->nr);
	EXPECT_EQ(codes[3], self->out[0].code);
	/* A previous pointer into nowhere. */
	self->a.fail_at = 0;
	put(&self->a, newest + FR_PREV, 0x1000, 8);
	ASSERT_EQ(DUNWIND_INTERP_STOP_FAULT, walk(self, 8));
	EXPECT_EQ(1, self->nr);
	/* Failures on the way to the thread state. */
	self->a.fail_at = self->runtime + RT_INTERP_HEAD;
	ASSERT_EQ(DUNWIND_INTERP_STOP_FAULT, walk(self, 8));
	self->a.fail_at = self->tstate + TS_TID;
	ASSERT_EQ(DUNWIND_INTERP_STOP_FAULT, walk(self, 8));
	EXPECT_EQ(0, self->nr);
	/* An address whose read would wrap. */
	self->a.fail_at = 0;
	self->env.base[DUNWIND_INTERP_BASE_RUNTIME] = ~0ULL - 8;
	ASSERT_EQ(DUNWIND_INTERP_STOP_FAULT, walk(self, 8));
}

/* One way to break a valid descriptor. */
struct breakage {
	const char *what;
	void (*apply)(struct dunwind_interp_desc *d);
};

#define BREAK(name, stmt) \
	static void break_##name(struct dunwind_interp_desc *d) { stmt; }
BREAK(size, d->size = DUNWIND_INTERP_DESC_SIZE_VER0 - 8)
BREAK(flags, d->flags = 1)
BREAK(kind, d->kind = 0)
BREAK(reserved0, d->__reserved0 = 1)
BREAK(reserved, d->__reserved[3] = 1)
BREAK(no_steps, d->nr_steps = 0)
BREAK(too_many_steps, d->nr_steps = DUNWIND_INTERP_MAX_STEPS + 1)
BREAK(unused_step_set, d->steps[DUNWIND_INTERP_MAX_STEPS - 1].arg = 8)
BREAK(first_not_base, d->steps[0].op = DUNWIND_INTERP_OP_DEREF)
BREAK(second_base, d->steps[1].op = DUNWIND_INTERP_OP_BASE)
BREAK(unknown_op, d->steps[3].op = 9)
BREAK(unknown_base, d->steps[0].arg = 2)
BREAK(deref_unaligned, d->steps[1].arg = 41)
BREAK(deref_far, d->steps[1].arg = DUNWIND_INTERP_MAX_OFF + 8)
BREAK(deref_imm, d->steps[1].imm = 1)
BREAK(deref_size, d->steps[1].size = 8)
BREAK(each_no_bound, d->steps[2].imm = 0)
BREAK(each_big_bound, d->steps[2].imm = DUNWIND_INTERP_MAX_ITER + 1)
BREAK(each_unaligned, d->steps[4].arg = 12)
BREAK(match_size, d->steps[5].size = 2)
BREAK(match_unaligned, d->steps[5].arg = 164)
BREAK(match_key, d->steps[5].flags = 2)
BREAK(match_imm, d->steps[5].imm = 5)
BREAK(loop_without_match, d->nr_steps = 5)
BREAK(three_loops, d->steps[3] = d->steps[2])
BREAK(frame_code_unaligned, d->frame_code = 33)
BREAK(frame_prev_far, d->frame_prev = DUNWIND_INTERP_FRAME_MAX)
BREAK(frame_insn_unaligned, d->frame_insn = 4)
BREAK(tag_mask, d->code_tag_mask = 8)
BREAK(code_insn_far, d->code_insn = DUNWIND_INTERP_MAX_OFF + 1)
BREAK(insn_align, d->insn_align = 3)
BREAK(insn_align_zero, d->insn_align = 0)
BREAK(entry_size, d->entry_size = 3)
BREAK(entry_unaligned, d->entry_size = 2; d->entry_off = 69; d->entry_mask = 1)
BREAK(entry_far, d->entry_off = DUNWIND_INTERP_FRAME_MAX)
BREAK(entry_mask_zero, d->entry_mask = 0; d->entry_value = 0)
BREAK(entry_mask_wide, d->entry_mask = 0x100)
BREAK(entry_value_outside, d->entry_value = 2)
BREAK(entry_cmp, d->entry_cmp = 2)
BREAK(entry_flags, d->entry_flags = 2)

static const struct breakage breakages[] = {
#define B(name) { #name, break_##name }
	B(size), B(flags), B(kind), B(reserved0), B(reserved), B(no_steps),
	B(too_many_steps), B(unused_step_set), B(first_not_base), B(second_base),
	B(unknown_op), B(unknown_base), B(deref_unaligned), B(deref_far), B(deref_imm),
	B(deref_size), B(each_no_bound), B(each_big_bound), B(each_unaligned),
	B(match_size), B(match_unaligned), B(match_key), B(match_imm),
	B(loop_without_match), B(three_loops), B(frame_code_unaligned), B(frame_prev_far),
	B(frame_insn_unaligned), B(tag_mask), B(code_insn_far), B(insn_align),
	B(insn_align_zero), B(entry_size), B(entry_unaligned), B(entry_far),
	B(entry_mask_zero), B(entry_mask_wide), B(entry_value_outside), B(entry_cmp),
	B(entry_flags),
#undef B
};

TEST_F(interp, malformed_descriptors_are_rejected_before_any_read)
{
	unsigned int i;

	for (i = 0; i < sizeof(breakages) / sizeof(breakages[0]); i++) {
		desc_311(&self->d);
		breakages[i].apply(&self->d);
		self->a.reads = 0;
		EXPECT_EQ(-EINVAL, dunwind_interp_validate(&self->d))
			TH_LOG("%s was accepted", breakages[i].what);
		EXPECT_EQ(-EINVAL, walk(self, 8));
		EXPECT_EQ(0, self->a.reads);
		EXPECT_EQ(0, self->nr);
	}
}

TEST(two_nested_loops_are_valid)
{
	struct dunwind_interp_desc d;

	desc_311(&d);
	ASSERT_EQ(0, dunwind_interp_validate(&d));
	d.size = DUNWIND_INTERP_DESC_SIZE_VER0 + 16;
	ASSERT_EQ(0, dunwind_interp_validate(&d));
}

/* xorshift: reproducible noise. */
static __u64 rnd(__u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

TEST_F(interp, random_memory_never_escapes_the_bounds)
{
	__u64 seed = 0x9e3779b97f4a7c15ULL, v;
	unsigned int round, i;
	int r;

	for (round = 0; round < 300; round++) {
		/* Pointer-like noise: most words point back into the arena. */
		for (i = 0; i < 64 * 1024; i += 8) {
			v = rnd(&seed);
			if (v & 1)
				v = ARENA_BASE + (v >> 8) % (128 * 1024);
			if (v & 2)
				v &= ~7ULL;
			memcpy(self->a.p + i, &v, 8);
		}
		self->env.key[DUNWIND_INTERP_KEY_TID] = rnd(&seed) & 0xff;
		self->a.reads = 0;
		r = walk(self, 64);
		ASSERT_GE(r, 0);
		ASSERT_LT(r, DUNWIND_INTERP_STOP_MAX);
		ASSERT_LE(self->nr, 64);
		ASSERT_LE(self->a.reads, DUNWIND_INTERP_MAX_READS);
	}
}

TEST(ip_interp_entries_are_never_user_ips)
{
	__u64 f = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_FRAME,
				    (__u32)-16 | (1ULL << 32));
	__u64 s = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_STOP, DUNWIND_INTERP_STOP_CYCLE);

	ASSERT_TRUE(DUNWIND_IP_IS_INTERP(f));
	ASSERT_EQ(DUNWIND_IP_INTERP_KIND(f), DUNWIND_IP_INTERP_FRAME);
	ASSERT_EQ((__s32)(__u32)f, -16);
	ASSERT_EQ((f >> 32) & 1, 1);
	ASSERT_EQ(DUNWIND_IP_INTERP_KIND(s), DUNWIND_IP_INTERP_STOP);
	ASSERT_EQ(s & 0xff, DUNWIND_INTERP_STOP_CYCLE);
	/* No user address (below 2^56), nor 0 or -1, carries the tag. */
	ASSERT_FALSE(DUNWIND_IP_IS_INTERP((1ULL << 56) - 1));
	ASSERT_FALSE(DUNWIND_IP_IS_INTERP(0x7fffffffe000ULL));
	ASSERT_FALSE(DUNWIND_IP_IS_INTERP(0));
	ASSERT_FALSE(DUNWIND_IP_IS_INTERP(~0ULL));
}

TEST_HARNESS_MAIN
