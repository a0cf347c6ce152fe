// SPDX-License-Identifier: GPL-2.0
/*
 * dw_gap_scan() (sframe/gap_scan.c): rules for code without CFI from its
 * instructions, on byte sequences written out here: glibc's clone3()
 * parent tail, crtstuff's __do_global_dtors_aux, and what must leave a gap
 * alone.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "sframe/gap_insn.h"
#include "sframe/gap_scan.h"

#define BASE	0x1000ull

/* The row that holds at @pc, or NULL. */
static const struct dw_gap_row *row_at(const struct dw_gap_scan *s, __u64 pc)
{
	size_t i;

	for (i = 0; i < s->nrows; i++)
		if (pc >= s->rows[i].lo && pc < s->rows[i].hi)
			return &s->rows[i];
	return NULL;
}

/*
 * glibc 2.36 __clone3 from its syscall on: the CFI ends before the
 * syscall, the child's part (at +10) has its own FDE.
 *   syscall; test %rax,%rax; jl err(+0x1f); je child(+10); ret
 */
static const __u8 clone3_parent[] = {
	0x0f, 0x05, 0x48, 0x85, 0xc0, 0x7c, 0x18, 0x74, 0x01, 0xc3,
};

TEST(clone3_parent_tail_is_sp_plus_8_when_entered_from_its_cfi)
{
	struct dw_gap_scan s;
	__u64 pc;

	ASSERT_EQ(0, dw_gap_scan(clone3_parent, BASE, BASE + sizeof(clone3_parent), 1, &s));
	for (pc = BASE; pc < BASE + sizeof(clone3_parent); pc++) {
		const struct dw_gap_row *r = row_at(&s, pc);

		ASSERT_NE(NULL, r) TH_LOG("no row at +%llu", pc - BASE);
		EXPECT_EQ(CFI_REG_SP, r->rule.cfa_reg);
		EXPECT_EQ(8, r->rule.cfa_off);
		EXPECT_EQ(0, r->rule.fp_saved);
	}
	dw_gap_scan_free(&s);
}

TEST(real_code_at_a_gap_start_needs_the_cfi_before_it)
{
	struct dw_gap_scan s;

	EXPECT_EQ(-ENOENT, dw_gap_scan(clone3_parent, BASE, BASE + sizeof(clone3_parent), 0, &s));
	EXPECT_EQ(0, s.nrows);
}

/* crtstuff's __do_global_dtors_aux (GCC 12), after 4 bytes of padding. */
static const __u8 dtors_aux[] = {
	0x0f, 0x1f, 0x40, 0x00,				/* nopl 0x0(%rax) */
	0xf3, 0x0f, 0x1e, 0xfa,				/* +4 endbr64 */
	0x80, 0x3d, 0x45, 0x2e, 0x00, 0x00, 0x00,	/* +8 cmpb $0,x(%rip) */
	0x75, 0x2b,					/* +15 jne +0x3c */
	0x55,						/* +17 push %rbp */
	0x48, 0x83, 0x3d, 0xca, 0x2d, 0x00, 0x00, 0x00,	/* +18 cmpq $0,x(%rip) */
	0x48, 0x89, 0xe5,				/* +26 mov %rsp,%rbp */
	0x74, 0x0c,					/* +29 je +0x2b */
	0x48, 0x8b, 0x3d, 0x26, 0x2e, 0x00, 0x00,	/* +31 mov x(%rip),%rdi */
	0xe8, 0x89, 0xfe, 0xff, 0xff,			/* +38 call */
	0xe8, 0x64, 0xff, 0xff, 0xff,			/* +43 call */
	0xc6, 0x05, 0x1d, 0x2e, 0x00, 0x00, 0x01,	/* +48 movb $1,x(%rip) */
	0x5d,						/* +55 pop %rbp */
	0xc3,						/* +56 ret */
	0x0f, 0x1f, 0x00,				/* +57 nopl (%rax) */
	0xc3,						/* +60 ret */
};

TEST(crtstuff_dtors_aux_after_padding_follows_push_and_pop)
{
	struct dw_gap_scan s;
	const struct dw_gap_row *r;

	ASSERT_EQ(0, dw_gap_scan(dtors_aux, BASE, BASE + sizeof(dtors_aux), 0, &s));
	EXPECT_EQ(NULL, row_at(&s, BASE));		/* padding */
	r = row_at(&s, BASE + 4);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(8, r->rule.cfa_off);
	r = row_at(&s, BASE + 43);			/* the return address of a call */
	ASSERT_NE(NULL, r);
	EXPECT_EQ(16, r->rule.cfa_off);
	EXPECT_EQ(1, r->rule.fp_saved);
	EXPECT_EQ(-16, r->rule.fp_off);
	r = row_at(&s, BASE + 56);			/* ret, after pop %rbp */
	ASSERT_NE(NULL, r);
	EXPECT_EQ(8, r->rule.cfa_off);
	EXPECT_EQ(0, r->rule.fp_saved);
	EXPECT_EQ(NULL, row_at(&s, BASE + 57));	/* padding again */
	r = row_at(&s, BASE + 60);			/* the jne's target */
	ASSERT_NE(NULL, r);
	EXPECT_EQ(8, r->rule.cfa_off);
	dw_gap_scan_free(&s);
}

TEST(sub_and_add_on_sp_move_the_height)
{
	/* _init: endbr64; sub $8,%rsp; call x; add $8,%rsp; ret */
	static const __u8 code[] = {
		0x90, 0xf3, 0x0f, 0x1e, 0xfa, 0x48, 0x83, 0xec, 0x08,
		0xe8, 0, 0, 0, 0, 0x48, 0x83, 0xc4, 0x08, 0xc3,
	};
	struct dw_gap_scan s;

	ASSERT_EQ(0, dw_gap_scan(code, BASE, BASE + sizeof(code), 0, &s));
	ASSERT_NE(NULL, row_at(&s, BASE + 14));
	EXPECT_EQ(16, row_at(&s, BASE + 14)->rule.cfa_off);
	EXPECT_EQ(8, row_at(&s, BASE + 18)->rule.cfa_off);
	dw_gap_scan_free(&s);
}

/* Code that must leave the gap alone: each after one byte of padding. */
FIXTURE(left_alone) {};
FIXTURE_SETUP(left_alone) {}
FIXTURE_TEARDOWN(left_alone) {}

FIXTURE_VARIANT(left_alone) {
	const __u8 *code;
	size_t size;
};

/* push %rbp; ret: a ret off the return address. */
static const __u8 ret_off[] = { 0x90, 0x55, 0xc3 };
/* je over a push: the join has heights 8 and 16. */
static const __u8 two_heights[] = { 0x90, 0x74, 0x01, 0x50, 0x58, 0xc3 };
/* cpuid: not an instruction the scan knows. */
static const __u8 unknown[] = { 0x90, 0x0f, 0xa2, 0xc3 };
/* mov %rax,(%rsp): could overwrite the return address. */
static const __u8 store_sp[] = { 0x90, 0x48, 0x89, 0x04, 0x24, 0xc3 };

FIXTURE_VARIANT_ADD(left_alone, ret_off_the_return_address) {
	.code = ret_off, .size = sizeof(ret_off),
};
FIXTURE_VARIANT_ADD(left_alone, two_heights_at_one_instruction) {
	.code = two_heights, .size = sizeof(two_heights),
};
FIXTURE_VARIANT_ADD(left_alone, unknown_instruction) {
	.code = unknown, .size = sizeof(unknown),
};
FIXTURE_VARIANT_ADD(left_alone, store_through_sp) {
	.code = store_sp, .size = sizeof(store_sp),
};

TEST_F(left_alone, the_gap_gets_no_row)
{
	struct dw_gap_scan s;

	EXPECT_EQ(-ENOENT, dw_gap_scan(variant->code, BASE, BASE + variant->size, 0, &s));
	EXPECT_EQ(0, s.nrows);
}

TEST(a_load_through_sp_is_no_write)
{
	/* mov 0x8(%rsp),%r10 */
	static const __u8 code[] = { 0x90, 0x4c, 0x8b, 0x54, 0x24, 0x08, 0xc3 };
	struct dw_gap_scan s;

	ASSERT_EQ(0, dw_gap_scan(code, BASE, BASE + sizeof(code), 0, &s));
	EXPECT_EQ(2, s.nrows);
	dw_gap_scan_free(&s);
}

TEST(zero_fill_is_no_code)
{
	static const __u8 code[16];
	struct dw_gap_scan s;

	EXPECT_EQ(-ENOENT, dw_gap_scan(code, BASE, BASE + sizeof(code), 1, &s));
}

TEST(instruction_lengths)
{
	static const __u8 endbr[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const __u8 cs_nopw[] = { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 };
	static const __u8 movabs[] = { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 };
	int nop = 0;

	EXPECT_EQ(4, dw_gap_insn_len(endbr, sizeof(endbr), &nop));
	EXPECT_EQ(0, nop);
	EXPECT_EQ(10, dw_gap_insn_len(cs_nopw, sizeof(cs_nopw), &nop));
	EXPECT_EQ(1, nop);
	EXPECT_EQ(10, dw_gap_insn_len(movabs, sizeof(movabs), NULL));
	EXPECT_EQ(-ENOENT, dw_gap_insn_len(movabs, 5, NULL));
}

TEST_HARNESS_MAIN
