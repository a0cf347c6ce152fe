// SPDX-License-Identifier: GPL-2.0
/*
 * Stitching samples with user stacks: both arrival orders, cookie 0,
 * stacks that never came, duplicate and orphan stacks, shared cookies,
 * lost counts, and a large shuffled stream.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "mkrec.h"
#include "analyze/stitch.h"

#define MAXS	64

struct got {
	int n;
	__u64 sample_time[MAXS];
	__u64 stack_ip0[MAXS];		/* 0: no stack */
	int bad;			/* stack handed with the wrong cookie */
};

static void collect(const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u,
		    void *arg)
{
	struct got *g = arg;

	if (g->n >= MAXS)
		return;
	if (u && u->cookie != s->cookie)
		g->bad++;
	g->sample_time[g->n] = s->time;
	g->stack_ip0[g->n] = u ? (u->nr ? u->ips[0] : 1) : 0;
	g->n++;
}

static void add(struct dw_stitch *st, const struct dunwind_rec_header *rec)
{
	if (dw_stitch_add(st, rec))
		ksft_print_msg("dw_stitch_add failed\n");
}

/* The small stream: both arrival orders, cookie 0, a missing, duplicate and orphan stack. */
FIXTURE(small) {
	struct dw_stitch *st;
	struct dw_stitch_counts c;
	struct got g;
	int finished;
};

FIXTURE_SETUP(small)
{
	union rec_buf b;

	memset(&self->g, 0, sizeof(self->g));
	self->st = dw_stitch_new();
	ASSERT_NE(NULL, self->st);
	add(self->st, mk_sample(&b, 10, 1, 5, 5, 2, 0xffff0000));	/* stack comes later */
	add(self->st, mk_stack(&b, 20, 5, 5, 3, 0x2000, 0));		/* stack came first */
	add(self->st, mk_stack(&b, 10, 5, 5, 3, 0x1000, 0));
	add(self->st, mk_sample(&b, 20, 2, 5, 5, 0, 0));
	add(self->st, mk_sample(&b, 0, 3, 5, 5, 1, 0xffff0000));	/* no user part */
	add(self->st, mk_sample(&b, 30, 4, 5, 5, 1, 0xffff0000));	/* its stack never comes */
	add(self->st, mk_sample(&b, 10, 5, 5, 5, 1, 0xffff0000));	/* shares cookie 10 */
	add(self->st, mk_stack(&b, 10, 5, 5, 3, 0x9000, 0));		/* duplicate of 10 */
	add(self->st, mk_stack(&b, 40, 5, 5, 3, 0x4000, 0));		/* orphan */
	add(self->st, mk_stack(&b, 0, 5, 5, 1, 0x5000, 0));		/* orphan, cookie 0 */
	add(self->st, mk_lost(&b, 3, 4));
	add(self->st, mk_lost(&b, 1, 0));
	add(self->st, mk_unknown(&b, 77, 16));			/* ignored */
	self->finished = dw_stitch_finish(self->st, collect, &self->g, &self->c);
}

FIXTURE_TEARDOWN(small)
{
	dw_stitch_free(self->st);
}

TEST_F(small, finishes)
{
	EXPECT_EQ(0, self->finished);
}

TEST_F(small, every_sample_in_arrival_order)
{
	int i;

	ASSERT_EQ(5, self->g.n);
	for (i = 0; i < 5; i++)
		EXPECT_EQ((__u64)i + 1, self->g.sample_time[i]);
}

TEST_F(small, a_sample_before_its_stack_is_joined)
{
	EXPECT_EQ(0x1000ull, self->g.stack_ip0[0]);
}

TEST_F(small, a_sample_after_its_stack_is_joined)
{
	EXPECT_EQ(0x2000ull, self->g.stack_ip0[1]);
}

TEST_F(small, cookie_0_has_no_user_stack)
{
	EXPECT_EQ(0ull, self->g.stack_ip0[2]);
}

TEST_F(small, a_stack_that_never_came_leaves_the_sample_without_one_not_dropped)
{
	EXPECT_EQ(0ull, self->g.stack_ip0[3]);
}

TEST_F(small, the_second_sample_of_a_cookie_gets_the_same_first_stack)
{
	EXPECT_EQ(0x1000ull, self->g.stack_ip0[4]);
}

TEST_F(small, stacks_always_match_their_samples_cookie)
{
	EXPECT_EQ(0, self->g.bad);
}

TEST_F(small, sample_counts)
{
	EXPECT_EQ(5ul, self->c.samples);
	EXPECT_EQ(5ul, self->c.user_stacks);
	EXPECT_EQ(3ul, self->c.joined);
	EXPECT_EQ(1ul, self->c.no_user);
	EXPECT_EQ(1ul, self->c.missing);
}

TEST_F(small, stack_counts_one_duplicate_two_orphans)
{
	EXPECT_EQ(1ul, self->c.dup_stacks);
	EXPECT_EQ(2ul, self->c.orphan_stacks);
}

TEST_F(small, lost_records_are_summed_by_type)
{
	EXPECT_EQ(8ul, self->c.lost[0]);
	EXPECT_EQ(4ul, self->c.lost[DUNWIND_REC_SAMPLE]);
	EXPECT_EQ(4ul, self->c.lost[DUNWIND_REC_USER_STACK]);
}

TEST_F(small, finishing_twice_gives_the_same_answer)
{
	memset(&self->g, 0, sizeof(self->g));
	EXPECT_EQ(0, dw_stitch_finish(self->st, collect, &self->g, &self->c));
	EXPECT_EQ(5, self->g.n);
	EXPECT_EQ(3ul, self->c.joined);
	EXPECT_EQ(2ul, self->c.orphan_stacks);
}

TEST_F(small, a_malformed_record_is_refused)
{
	union rec_buf b;

	mk_sample(&b, 1, 1, 1, 1, 0, 0)->size = 8;
	EXPECT_EQ(-EINVAL, dw_stitch_add(self->st, &b.hdr));
}

/* SAMPLE_STACK: a sample and its stack in one record. */
FIXTURE(combined) {
	struct dw_stitch *st;
	struct dw_stitch_counts c;
	struct got g;
};

FIXTURE_SETUP(combined)
{
	static const __u64 ips[] = { 0x401234, 0x401300, 0x7f0000029d90 };
	union rec_buf b;

	memset(&self->g, 0, sizeof(self->g));
	self->st = dw_stitch_new();
	ASSERT_NE(NULL, self->st);
	add(self->st, mk_sample_stack(&b, 10, 1, 5, 5, ips, 3));
	add(self->st, mk_sample(&b, 10, 2, 5, 5, 1, 0xffff0000));	/* same stay, later */
	add(self->st, mk_sample_stack(&b, 20, 3, 5, 5, ips, 0));	/* no frames */
	dw_stitch_finish(self->st, collect, &self->g, &self->c);
}

FIXTURE_TEARDOWN(combined)
{
	dw_stitch_free(self->st);
}

TEST_F(combined, is_a_sample_joined_with_its_decoded_stack)
{
	ASSERT_EQ(3, self->g.n);
	EXPECT_EQ(1ull, self->g.sample_time[0]);
	EXPECT_EQ(0x401234ull, self->g.stack_ip0[0]);
}

TEST_F(combined, answers_a_later_sample_of_its_cookie)
{
	EXPECT_EQ(0x401234ull, self->g.stack_ip0[1]);
	EXPECT_EQ(0, self->g.bad);
}

TEST_F(combined, counts_as_a_sample_and_a_user_stack)
{
	EXPECT_EQ(3ul, self->c.samples);
	EXPECT_EQ(2ul, self->c.user_stacks);
	EXPECT_EQ(3ul, self->c.joined);
	EXPECT_EQ(0ul, self->c.orphan_stacks);
}

TEST_F(combined, without_frames_is_a_stack_of_none)
{
	EXPECT_EQ(1ull, self->g.stack_ip0[2]);	/* collect()'s mark for nr 0 */
}

/*
 * Off-CPU samples of one thread naming the stack its earlier walk wrote
 * (DUNWIND_SAMPLE_EARLIER_STACK), other stacks between: each is joined to
 * that stack, none missing.
 */
TEST(samples_naming_an_earlier_stack_are_joined_to_it)
{
	struct dw_stitch *st = dw_stitch_new();
	struct dw_stitch_counts c;
	struct got g = {};
	union rec_buf b;
	int i;

	ASSERT_NE(NULL, st);
	add(st, mk_stack(&b, 7, 5, 6, 3, 0x7000, 0));
	add(st, mk_sample(&b, 7, 1, 5, 6, 1, 0xffff0000));
	add(st, mk_stack(&b, 8, 5, 5, 3, 0x8000, 0));	/* another thread's */
	add(st, mk_sample(&b, 8, 2, 5, 5, 1, 0xffff0000));
	for (i = 0; i < 3; i++) {
		mk_sample(&b, 7, 3 + i, 5, 6, 1, 0xffff0000);
		b.sample.flags = DUNWIND_SAMPLE_OFF_CPU | DUNWIND_SAMPLE_EARLIER_STACK;
		add(st, &b.sample.hdr);
	}
	dw_stitch_finish(st, collect, &g, &c);
	ASSERT_EQ(5, g.n);
	EXPECT_EQ(0x7000ull, g.stack_ip0[2]);
	EXPECT_EQ(0x7000ull, g.stack_ip0[3]);
	EXPECT_EQ(0x7000ull, g.stack_ip0[4]);
	EXPECT_EQ(0, g.bad);
	EXPECT_EQ(5ul, c.joined);
	EXPECT_EQ(0ul, c.missing);
	EXPECT_EQ(0ul, c.dup_stacks);
	dw_stitch_free(st);
}

TEST(large_shuffled_stream_all_joined)
{
	enum { N = 200000 };
	struct dw_stitch *st = dw_stitch_new();
	struct dw_stitch_counts c;
	__u32 *order = malloc(2 * N * sizeof(*order));
	union rec_buf b;
	int i;

	ASSERT_NE(NULL, st);
	ASSERT_NE(NULL, order);
	/* 2N records: sample k and stack k (cookie k + 1), in random order. */
	for (i = 0; i < 2 * N; i++)
		order[i] = (__u32)i;
	srand(7);
	for (i = 2 * N - 1; i > 0; i--) {
		int j = rand() % (i + 1);
		__u32 t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < 2 * N; i++) {
		__u32 k = order[i] / 2;

		if (order[i] % 2)
			add(st, mk_stack(&b, k + 1ULL, 1, 1, 2, 0x1000 + k, 0));
		else
			add(st, mk_sample(&b, k + 1ULL, k, 1, 1, 0, 0));
	}
	dw_stitch_finish(st, NULL, NULL, &c);
	EXPECT_EQ((unsigned long)N, c.samples);
	EXPECT_EQ((unsigned long)N, c.joined);
	EXPECT_EQ(0ul, c.missing);
	EXPECT_EQ(0ul, c.orphan_stacks);
	EXPECT_EQ(0ul, c.dup_stacks);
	dw_stitch_free(st);
	free(order);
}

TEST_HARNESS_MAIN
