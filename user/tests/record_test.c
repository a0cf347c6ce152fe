// SPDX-License-Identifier: GPL-2.0
/* dunwind_rec_check() (lib/record.h): what the readers accept and refuse. */
#include "kselftest_harness.h"
#include "mkrec.h"

static union rec_buf b;
static struct dunwind_rec_sample *const s = &b.sample;
static struct dunwind_rec_user_stack *const u = &b.stack;

/* Samples */

TEST(a_sample_without_kernel_ips_is_valid)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 0, 0);

	EXPECT_EQ(0, dunwind_rec_check(r, r->size));
}

TEST(a_sample_header_is_64_bytes)
{
	EXPECT_EQ(64, mk_sample(&b, 1, 2, 3, 4, 0, 0)->size);
}

TEST(a_sample_with_3_kernel_ips_is_valid)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 3, 0x1000);

	EXPECT_EQ(0, dunwind_rec_check(r, r->size));
}

TEST(a_record_shorter_than_the_buffer_is_valid)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 3, 0x1000);

	EXPECT_EQ(0, dunwind_rec_check(r, r->size + 64));
}

TEST(a_record_longer_than_the_buffer_is_refused)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 3, 0x1000);

	EXPECT_NE(0, dunwind_rec_check(r, r->size - 8));
}

TEST(a_sample_with_the_maximum_kernel_ips_is_valid)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, DUNWIND_MAX_KERNEL_FRAMES, 0x1000);

	EXPECT_EQ(0, dunwind_rec_check(r, r->size));
}

TEST(a_sample_over_the_kernel_ip_limit_is_refused)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, DUNWIND_MAX_KERNEL_FRAMES + 1,
						 0x1000);

	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_sample_whose_nr_kernel_disagrees_with_its_size_is_refused)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 3, 0x1000);

	s->nr_kernel = 2;
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_sample_whose_nr_kernel_overruns_its_size_is_refused)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 3, 0x1000);

	s->nr_kernel = 4;
	EXPECT_NE(0, dunwind_rec_check(r, 256));
}

TEST(a_sample_shorter_than_its_fixed_part_is_refused)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 0, 0);

	r->size = 56;
	EXPECT_NE(0, dunwind_rec_check(r, 64));
}

/* Headers */

TEST(size_0_is_refused)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 0, 0);

	r->size = 0;
	EXPECT_NE(0, dunwind_rec_check(r, 64));
}

TEST(a_size_below_the_header_is_refused)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 0, 0);

	r->size = 4;
	EXPECT_NE(0, dunwind_rec_check(r, 64));
}

TEST(a_size_not_a_multiple_of_8_is_refused)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 0, 0);

	r->size = 60;
	EXPECT_NE(0, dunwind_rec_check(r, 64));
}

TEST(a_buffer_shorter_than_a_header_is_refused)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 0, 0);

	EXPECT_NE(0, dunwind_rec_check(r, 4));
}

TEST(a_busy_record_is_never_valid)
{
	struct dunwind_rec_header *r = mk_sample(&b, 1, 2, 3, 4, 0, 0);

	r->type = DUNWIND_REC_BUSY;
	EXPECT_NE(0, dunwind_rec_check(r, 64));
}

/* User stacks */

TEST(an_empty_user_stack_is_valid_and_40_bytes)
{
	struct dunwind_rec_header *r = mk_stack(&b, 7, 3, 4, 0, 0, DUNWIND_STOP_END);

	EXPECT_EQ(0, dunwind_rec_check(r, r->size));
	EXPECT_EQ(40, r->size);
}

TEST(a_user_stack_with_10_ips_is_valid)
{
	struct dunwind_rec_header *r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_FAULT);

	EXPECT_EQ(0, dunwind_rec_check(r, r->size));
}

TEST(a_user_stack_with_the_maximum_ips_is_valid)
{
	struct dunwind_rec_header *r = mk_stack(&b, 7, 3, 4, DUNWIND_MAX_USER_FRAMES, 0x400000,
						DUNWIND_STOP_MAX_DEPTH);

	EXPECT_EQ(0, dunwind_rec_check(r, r->size));
}

TEST(a_user_stack_over_the_frame_limit_is_refused)
{
	struct dunwind_rec_header *r = mk_stack(&b, 7, 3, 4, DUNWIND_MAX_USER_FRAMES, 0x400000,
						DUNWIND_STOP_MAX_DEPTH);

	u->nr = DUNWIND_MAX_USER_FRAMES + 1;
	u->nr_fp = u->nr;
	r->size = (__u16)dunwind_rec_user_stack_size(u->nr);
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_user_stack_whose_nr_disagrees_with_its_size_is_refused)
{
	struct dunwind_rec_header *r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_END);

	u->nr = 9;
	u->nr_fp = 9;
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_user_stack_with_an_unknown_stop_reason_is_refused)
{
	struct dunwind_rec_header *r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_MAX);

	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_user_stack_with_more_fp_and_sframe_frames_than_ips_is_refused)
{
	struct dunwind_rec_header *r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_END);

	u->nr_sframe = 1;
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_user_stack_split_between_fp_and_sframe_is_valid)
{
	struct dunwind_rec_header *r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_END);

	u->nr_fp = 5;
	u->nr_sframe = 5;
	EXPECT_EQ(0, dunwind_rec_check(r, r->size));
}

TEST(fp_and_sframe_counts_cannot_wrap_around)
{
	struct dunwind_rec_header *r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_END);

	u->nr_fp = 0xffff;
	u->nr_sframe = 0xffff;
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

/* Samples with their stack (SAMPLE_STACK) */

static const __u64 chain_ips[] = {
	0x55d0c0001234, 0x55d0c0001300, 0x55d0c00012a0, 0x7f3a1c029d90,
	0x7f3a1c029e40, 0x55d0c0001095, 0xffffffffffffffffull, 0,
};
#define CHAIN_NR	(sizeof(chain_ips) / sizeof(chain_ips[0]))

TEST(a_sample_stack_is_valid)
{
	struct dunwind_rec_header *r = mk_sample_stack(&b, 7, 1, 3, 4, chain_ips, CHAIN_NR);

	EXPECT_EQ(0, dunwind_rec_check(r, r->size));
}

TEST(a_sample_stacks_ips_decode_to_what_was_coded)
{
	const struct dunwind_rec_sample_stack *ss = (const void *)&b;
	__u64 got[CHAIN_NR];
	unsigned int i;

	mk_sample_stack(&b, 7, 1, 3, 4, chain_ips, CHAIN_NR);
	ASSERT_LT(0, dunwind_ipcode_decode(ss->ips, ss->hdr.size - sizeof(*ss), got, CHAIN_NR));
	for (i = 0; i < CHAIN_NR; i++)
		EXPECT_EQ(chain_ips[i], got[i]);
}

TEST(near_ips_take_a_few_bytes_each)
{
	/* 56 bytes, then 6 + 2 + 2 bytes for three IPs of one file: 72. */
	EXPECT_EQ(72, mk_sample_stack(&b, 7, 1, 3, 4, chain_ips, 3)->size);
}

TEST(a_sample_stack_without_ips_is_56_bytes)
{
	EXPECT_EQ(56, mk_sample_stack(&b, 7, 1, 3, 4, chain_ips, 0)->size);
}

TEST(a_sample_stack_claiming_more_ips_than_it_holds_is_refused)
{
	struct dunwind_rec_header *r = mk_sample_stack(&b, 7, 1, 3, 4, chain_ips, 3);

	((struct dunwind_rec_sample_stack *)r)->nr = 20;
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_sample_stack_with_an_ip_that_never_ends_is_refused)
{
	struct dunwind_rec_header *r = mk_sample_stack(&b, 7, 1, 3, 4, chain_ips, 1);
	struct dunwind_rec_sample_stack *ss = (void *)r;

	r->size = 56 + 16;
	memset(ss->ips, 0xff, 16);
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_sample_stack_with_non_zero_padding_is_refused)
{
	struct dunwind_rec_header *r = mk_sample_stack(&b, 7, 1, 3, 4, chain_ips, 3);

	((struct dunwind_rec_sample_stack *)r)->ips[15] = 1;
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_sample_stack_with_8_bytes_of_padding_is_refused)
{
	struct dunwind_rec_header *r = mk_sample_stack(&b, 7, 1, 3, 4, chain_ips, 3);

	r->size += 8;
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(a_sample_stack_with_more_fp_frames_than_ips_is_refused)
{
	struct dunwind_rec_header *r = mk_sample_stack(&b, 7, 1, 3, 4, chain_ips, 3);

	((struct dunwind_rec_sample_stack *)r)->nr_fp = 4;
	EXPECT_NE(0, dunwind_rec_check(r, r->size));
}

TEST(the_largest_sample_stack_fits_its_bound)
{
	static __u64 far[DUNWIND_MAX_USER_FRAMES];
	unsigned int i;

	for (i = 0; i < DUNWIND_MAX_USER_FRAMES; i++)
		far[i] = i % 2 ? 0 : ~0ull;
	EXPECT_GE(dunwind_rec_sample_stack_max(DUNWIND_MAX_USER_FRAMES),
		  mk_sample_stack(&b, 7, 1, 3, 4, far, DUNWIND_MAX_USER_FRAMES)->size);
}

/* LOST and unknown records */

TEST(a_lost_record_is_valid_and_80_bytes)
{
	struct dunwind_rec_header *r = mk_lost(&b, 1, 2);

	EXPECT_EQ(0, dunwind_rec_check(r, r->size));
	EXPECT_EQ(80, r->size);
}

TEST(a_lost_record_of_the_wrong_size_is_refused)
{
	struct dunwind_rec_header *r = mk_lost(&b, 1, 2);

	r->size = 88;
	EXPECT_NE(0, dunwind_rec_check(r, 88));
}

TEST(an_unknown_type_with_a_sound_header_is_skippable)
{
	EXPECT_EQ(0, dunwind_rec_check(mk_unknown(&b, 9, 24), 24));
}

TEST(an_unknown_type_with_a_bad_size_is_refused)
{
	EXPECT_NE(0, dunwind_rec_check(mk_unknown(&b, 9, 20), 24));
}

TEST_HARNESS_MAIN
