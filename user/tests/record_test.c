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
