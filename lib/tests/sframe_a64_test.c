// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for lib/sframe.c on AArch64 tables: the section binutils 2.47
 * (`aarch64-linux-gnu-as --gsframe`, Debian unstable's
 * binutils-aarch64-linux-gnu, linked with its ld -shared) wrote for the
 * three functions below.  What `objdump --sframe` prints of it is what the
 * decoder must say: the RA tracked per row (in x30 until a prologue saves
 * it), the FP where saved, CFA from SP (x31) or FP (x29), the mangled-RA
 * bit of paciasp, an RA undefined for the outermost frame.
 *
 *	f:  .cfi_startproc                   g:  .cfi_startproc
 *	    paciasp                              .cfi_undefined 30
 *	    .cfi_negate_ra_state                 nop
 *	    stp x29, x30, [sp, -32]!             bl h
 *	    .cfi_def_cfa_offset 32               .cfi_endproc
 *	    .cfi_offset 29, -32
 *	    .cfi_offset 30, -24              k:  .cfi_startproc
 *	    mov x29, sp                          sub sp, sp, 4096
 *	    .cfi_def_cfa_register 29             .cfi_def_cfa_offset 4096
 *	    bl g                                 str x30, [sp, 8]
 *	    ldp x29, x30, [sp], 32               .cfi_offset 30, -4088
 *	    .cfi_restore 30                      nop
 *	    .cfi_restore 29                      add sp, sp, 4096
 *	    .cfi_def_cfa 31, 0                   .cfi_def_cfa_offset 0
 *	    autiasp                              ret
 *	    .cfi_negate_ra_state                 .cfi_endproc
 *	    ret
 *	    .cfi_endproc
 *
 * f is at 0x2a0 (28 bytes), g at 0x2cc, k at 0x2d4; the section at 0x370.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "sframe.h"
#include "arch.h"

#define SEC_VADDR	0x370
#define F		0x2a0
#define G		0x2cc
#define K		0x2d4

static const __u8 a64_sframe[134] = {
	0xe2, 0xde, 0x03, 0x05, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
	0x0b, 0x00, 0x00, 0x00, 0x3a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x30, 0x00, 0x00, 0x00, 0x14, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x1c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0x08, 0x00, 0x00, 0x00, 0x1b, 0x00, 0x00, 0x00,
	0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x14, 0x00, 0x00, 0x00,
	0x22, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00,
	0x04, 0x83, 0x00, 0x08, 0x87, 0x20, 0xe8, 0xe0, 0x0c, 0x86, 0x20, 0xe8,
	0xe0, 0x14, 0x83, 0x00, 0x18, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x04, 0x23,
	0x00, 0x10, 0x08, 0x25, 0x00, 0x10, 0x08, 0xf0, 0x10, 0x25, 0x00, 0x00,
	0x08, 0xf0,
};

/* Section offset of f's FRE at 0x2a8 (sp+32, c-24, c-32: info 0x87). */
#define F_STP_FRE_INFO	0x58

/* A byte buffer source that aborts on a read out of bounds or over 64 bytes. */
struct buf {
	const __u8 *p;
	size_t n;
};

static int buf_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	struct buf *b = ctx;

	if (len > 64 || off > b->n || len > b->n - off)
		abort();
	memcpy(dst, b->p + off, len);
	return 0;
}

FIXTURE(a64)
{
	__u8 sec[sizeof(a64_sframe)];
	struct buf b;
	struct dunwind_sframe_src src;
	struct dunwind_sframe_table t;
	struct dunwind_sframe_row r;
};

FIXTURE_SETUP(a64)
{
	memcpy(self->sec, a64_sframe, sizeof(self->sec));
	self->b.p = self->sec;
	self->b.n = sizeof(self->sec);
	self->src.read = buf_read;
	self->src.ctx = &self->b;
	self->src.size = sizeof(self->sec);
	ASSERT_EQ(0, dunwind_sframe_open_abi(&self->t, &self->src, SEC_VADDR,
					     DUNWIND_SFRAME_ABI_AARCH64_LE));
}

FIXTURE_TEARDOWN(a64)
{
}

TEST_F(a64, opens_and_validates)
{
	EXPECT_EQ(3, self->t.version);
	EXPECT_EQ(3, self->t.num_fdes);
	EXPECT_EQ(11, self->t.num_fres);
	EXPECT_EQ(0, self->t.fixed_ra);
	EXPECT_EQ(DUNWIND_SFRAME_A64_REG_SP, self->t.reg_sp);
	EXPECT_EQ(DUNWIND_SFRAME_A64_REG_FP, self->t.reg_fp);
	EXPECT_EQ(DUNWIND_SFRAME_A64_REG_LR, self->t.reg_ra);
	EXPECT_EQ(0, dunwind_sframe_validate(&self->t));
}

TEST_F(a64, another_abi_is_not_supported)
{
	struct dunwind_sframe_table t;

	EXPECT_EQ(-EOPNOTSUPP, dunwind_sframe_open_abi(&t, &self->src, SEC_VADDR,
						       DUNWIND_SFRAME_ABI_AMD64_LE));
	/* The ABI the library is built for is the one _open() takes. */
	EXPECT_EQ(DUNWIND_ARCH_SFRAME_ABI == DUNWIND_SFRAME_ABI_AARCH64_LE ? 0 : -EOPNOTSUPP,
		  dunwind_sframe_open(&t, &self->src, SEC_VADDR));
}

TEST_F(a64, functions_start_at_their_symbols)
{
	struct dunwind_sframe_fde fde;

	ASSERT_EQ(0, dunwind_sframe_get_fde(&self->t, 0, &fde));
	EXPECT_EQ(F, fde.start);
	EXPECT_EQ(28, fde.size);
	ASSERT_EQ(0, dunwind_sframe_get_fde(&self->t, 1, &fde));
	EXPECT_EQ(G, fde.start);
	ASSERT_EQ(0, dunwind_sframe_get_fde(&self->t, 2, &fde));
	EXPECT_EQ(K, fde.start);
	EXPECT_EQ(20, fde.size);
}

TEST_F(a64, entry_ra_in_link_register)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t, F, r));
	EXPECT_EQ(DUNWIND_SFRAME_RULE_REG, r->cfa.kind);
	EXPECT_EQ(DUNWIND_SFRAME_A64_REG_SP, r->cfa.reg);
	EXPECT_EQ(0, r->cfa.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_REG, r->ra.kind);
	EXPECT_EQ(DUNWIND_SFRAME_A64_REG_LR, r->ra.reg);
	EXPECT_EQ(0, r->ra.deref);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_UNDEF, r->fp.kind);
	EXPECT_EQ(0, r->flags & DUNWIND_SFRAME_ROW_MANGLED_RA);
	EXPECT_EQ(F, r->pc_lo);
	EXPECT_EQ(F + 4, r->pc_hi);
}

TEST_F(a64, paciasp_marks_the_ra_mangled)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t, F + 4, r));
	EXPECT_TRUE(r->flags & DUNWIND_SFRAME_ROW_MANGLED_RA);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_REG, r->ra.kind);
	EXPECT_EQ(DUNWIND_SFRAME_A64_REG_LR, r->ra.reg);
	/* autiasp authenticated it again: the last row is plain. */
	ASSERT_EQ(0, dunwind_sframe_find(&self->t, F + 24, r));
	EXPECT_EQ(0, r->flags & DUNWIND_SFRAME_ROW_MANGLED_RA);
}

TEST_F(a64, frame_record_saved_ra_then_fp)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t, F + 8, r));
	EXPECT_EQ(DUNWIND_SFRAME_A64_REG_SP, r->cfa.reg);
	EXPECT_EQ(32, r->cfa.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_CFA, r->ra.kind);
	EXPECT_EQ(1, r->ra.deref);
	EXPECT_EQ(-24, r->ra.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_CFA, r->fp.kind);
	EXPECT_EQ(1, r->fp.deref);
	EXPECT_EQ(-32, r->fp.off);
	EXPECT_TRUE(r->flags & DUNWIND_SFRAME_ROW_MANGLED_RA);
}

TEST_F(a64, cfa_from_x29)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t, F + 0x10, r));
	EXPECT_EQ(DUNWIND_SFRAME_A64_REG_FP, r->cfa.reg);
	EXPECT_EQ(32, r->cfa.off);
	EXPECT_EQ(-24, r->ra.off);
	EXPECT_EQ(-32, r->fp.off);
	EXPECT_EQ(F + 0xc, r->pc_lo);
	EXPECT_EQ(F + 0x14, r->pc_hi);
}

TEST_F(a64, undefined_ra_is_the_root)
{
	ASSERT_EQ(0, dunwind_sframe_find(&self->t, G + 4, &self->r));
	EXPECT_TRUE(self->r.flags & DUNWIND_SFRAME_ROW_RA_UNDEF);
}

TEST_F(a64, ra_saved_without_fp)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t, K + 0xc, r));
	EXPECT_EQ(DUNWIND_SFRAME_A64_REG_SP, r->cfa.reg);
	EXPECT_EQ(4096, r->cfa.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_CFA, r->ra.kind);
	EXPECT_EQ(-4088, r->ra.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_UNDEF, r->fp.kind);
}

TEST_F(a64, no_fre_past_the_function)
{
	EXPECT_EQ(-ENOENT, dunwind_sframe_find(&self->t, K + 20, &self->r));
}

/* CFA, RA, FP is all an AArch64 default FRE can say: a fourth word is malformed. */
TEST_F(a64, four_words_are_malformed)
{
	ASSERT_EQ(0x87, self->sec[F_STP_FRE_INFO]);
	self->sec[F_STP_FRE_INFO] = 0x89;	/* 4 one-byte words: eats the next FRE's start */
	EXPECT_EQ(-EINVAL, dunwind_sframe_validate(&self->t));
	EXPECT_EQ(-EINVAL, dunwind_sframe_find(&self->t, F + 8, &self->r));
}

/* An AMD64 table must fix the RA's slot in its header; an AArch64 one need not. */
TEST_F(a64, amd64_header_without_ra_slot_is_malformed)
{
	struct dunwind_sframe_table t;

	self->sec[4] = DUNWIND_SFRAME_ABI_AMD64_LE;
	EXPECT_EQ(-EINVAL, dunwind_sframe_open_abi(&t, &self->src, SEC_VADDR,
						   DUNWIND_SFRAME_ABI_AMD64_LE));
}

TEST_HARNESS_MAIN
