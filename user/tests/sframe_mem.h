/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SFrame tables in memory for the decoder tests (lib/sframe.c): a read
 * callback that aborts on any read out of bounds or wider than 64 bytes
 * and can fail from an offset on, the reference functions the encoder
 * (user/sframe/sframe_enc.c) is given, and rule comparison.  Used by the
 * sframe_*_test.c that decode tables they encoded or mutated.
 */
#ifndef DW_TEST_SFRAME_MEM_H
#define DW_TEST_SFRAME_MEM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sframe.h"
#include "sframe/sframe_enc.h"

/* A table in memory; reads touching [fail_from, n) fail with -14 (EFAULT). */
struct mem {
	const __u8 *p;
	size_t n;
	__u64 fail_from;	/* reads touching [fail_from, n) fail; n = never */
	unsigned long reads;
};

static inline int mem_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	struct mem *m = ctx;

	m->reads++;
	if (off > m->n || len > m->n - off) {
		fprintf(stderr, "decoder read out of bounds: off %llu len %u size %zu\n",
			(unsigned long long)off, len, m->n);
		abort();
	}
	if (len > 64) {
		fprintf(stderr, "decoder read %u bytes at once\n", len);
		abort();
	}
	if (off + len > m->fail_from)
		return -14;
	memcpy(dst, m->p + off, len);
	return 0;
}

static inline int open_mem(struct dunwind_sframe_table *t, struct mem *m, const __u8 *p,
			   size_t n, __u64 vaddr)
{
	struct dunwind_sframe_src src = { mem_read, m, n };

	m->p = p;
	m->n = n;
	m->fail_from = n;
	m->reads = 0;
	return dunwind_sframe_open(t, &src, vaddr);
}

/* ---- the reference functions, as the encoder is given them ---- */

#define SP DUNWIND_SFRAME_REG_SP
#define FP DUNWIND_SFRAME_REG_FP
#define R_UNDEF { DUNWIND_SFRAME_RULE_UNDEF, 0, 0, 0, 0 }
#define R_REG(r, d, o) { DUNWIND_SFRAME_RULE_REG, r, d, 0, o }
#define R_CFA(d, o) { DUNWIND_SFRAME_RULE_CFA, 0, d, 0, o }
#define ROW(pc, reg, cfaoff) \
	{ pc, 0, R_REG(reg, 0, cfaoff), R_CFA(1, -8), R_UNDEF, R_UNDEF, 0, 0 }
#define ROWF(pc, reg, cfaoff, fpoff) \
	{ pc, 0, R_REG(reg, 0, cfaoff), R_CFA(1, -8), R_CFA(1, fpoff), R_UNDEF, 0, 0 }
#define ROW_OUTER(pc) { pc, 1, R_UNDEF, R_UNDEF, R_UNDEF, R_UNDEF, 0, 0 }

static const struct dw_sframe_enc_row rows_f0[] = {
	ROW(0, SP, 8), ROWF(1, SP, 16, -16), ROWF(4, FP, 16, -16), ROWF(0x3f, SP, 8, -16),
};
static const struct dw_sframe_enc_row rows_f1[] = {
	/* 2-byte starts, wide offsets */
	ROW(0, SP, 8),
	ROW(0x120, SP, 0x1000),
	ROWF(0x200, SP, 0x12345, -0x11000),
	ROW(0x2ff, SP, 8),
};
static const struct dw_sframe_enc_row rows_plt[] = { ROW(0, SP, 8), ROW(0xb, SP, 16) };
static const struct dw_sframe_enc_row rows_outer[] = { ROW_OUTER(0), ROW(4, SP, 8) };
static const struct dw_sframe_enc_row rows_late[] = { ROW(4, SP, 8), ROW(6, SP, 16) };
static const struct dw_sframe_enc_row rows_big[] = {	/* 4-byte starts */
	ROW(0, SP, 8), ROW(0x10005, SP, 24), ROW(0x1ffff, SP, 8),
};
static const struct dw_sframe_enc_row rows_flex[] = {	/* v3 only: DRAP-like */
	ROW(0, SP, 8),
	{ 2, 0, R_REG(10, 0, 0), R_CFA(1, -8), R_UNDEF, R_UNDEF, 0, 0 },
	{ 6, 0, R_REG(10, 0, 0), R_CFA(1, -8), R_CFA(1, -16), R_UNDEF, 0, 0 },
	{ 9, 0, R_REG(FP, 1, -8), R_CFA(1, -8), R_CFA(1, -16), R_UNDEF, 0, 0 },
	{ 0xc, 0, R_REG(SP, 0, 8), R_REG(11, 0, 0), R_REG(3, 1, 16), R_UNDEF, 0, 0 },
	ROW(0xe, SP, 8),
};

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))

static const struct dw_sframe_enc_func funcs_base[] = {
	{ 0x401000, 0x40, 0, 0, 0, NROWS(rows_f0), rows_f0 },
	{ 0x401100, 0x300, 0, 0, 0, NROWS(rows_f1), rows_f1 },
	{ 0x401400, 0x30, DUNWIND_SFRAME_PC_MASK, 16, 0, NROWS(rows_plt), rows_plt },
	{ 0x401500, 0x10, 0, 0, 0, NROWS(rows_outer), rows_outer },
	{ 0x401600, 0x20, 0, 0, 0, NROWS(rows_late), rows_late },
	{ 0x402000, 0x20000, 0, 0, 0, NROWS(rows_big), rows_big },
	{ 0x430000, 0x10, 0, 0, 1, NROWS(rows_flex), rows_flex },	/* v3 only */
};
#define N_BASE 6		/* the functions every version can encode */
#define N_ALL 7			/* and the v3-only flex one */

#define SORTED DUNWIND_SFRAME_F_FDE_SORTED
#define PCREL DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL

/* Do two rules say the same (the fields that matter for their kind)? */
static inline int rule_eq(const struct dunwind_sframe_rule *a,
			  const struct dunwind_sframe_rule *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == DUNWIND_SFRAME_RULE_UNDEF)
		return 1;
	return a->deref == b->deref && a->off == b->off &&
	       (a->kind != DUNWIND_SFRAME_RULE_REG || a->reg == b->reg);
}

#endif
