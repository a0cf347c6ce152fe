// SPDX-License-Identifier: GPL-2.0
/*
 * The encoder (user/sframe/sframe_enc.c) writing AArch64 tables, read back
 * by the decoder (lib/sframe.c, dunwind_sframe_open_abi()): the RA still in
 * x30 or saved, the FP saved with it, CFA from SP or x29, the mangled-RA
 * bit, an outermost row; in each version that can say it, and a row that
 * only a v3 flex FDE can say (FP saved, RA still in x30).
 */
#include <errno.h>

#include "kselftest_harness.h"
#include "sframe_mem.h"

#define A64_SP	DUNWIND_SFRAME_A64_REG_SP
#define A64_FP	DUNWIND_SFRAME_A64_REG_FP
#define A64_LR	DUNWIND_SFRAME_A64_REG_LR
#define IN_LR	R_REG(A64_LR, 0, 0)

/* The rows of f as gcc -mbranch-protection=pac-ret writes its CFI. */
static const struct dw_sframe_enc_row a64_rows_f[] = {
	{ 0, 0, R_REG(A64_SP, 0, 0), IN_LR, R_UNDEF, R_UNDEF, 0, 0 },
	{ 4, 0, R_REG(A64_SP, 0, 0), IN_LR, R_UNDEF, R_UNDEF, 0, 1 },
	{ 8, 0, R_REG(A64_SP, 0, 32), R_CFA(1, -24), R_CFA(1, -32), R_UNDEF, 0, 1 },
	{ 12, 0, R_REG(A64_FP, 0, 32), R_CFA(1, -24), R_CFA(1, -32), R_UNDEF, 0, 1 },
	{ 20, 0, R_REG(A64_SP, 0, 0), IN_LR, R_UNDEF, R_UNDEF, 0, 1 },
	{ 24, 0, R_REG(A64_SP, 0, 0), IN_LR, R_UNDEF, R_UNDEF, 0, 0 },
};
static const struct dw_sframe_enc_row a64_rows_k[] = {	/* RA saved, FP not; wide offsets */
	{ 0, 0, R_REG(A64_SP, 0, 0), IN_LR, R_UNDEF, R_UNDEF, 0, 0 },
	{ 4, 0, R_REG(A64_SP, 0, 4096), IN_LR, R_UNDEF, R_UNDEF, 0, 0 },
	{ 8, 0, R_REG(A64_SP, 0, 4096), R_CFA(1, -4088), R_UNDEF, R_UNDEF, 0, 0 },
};
static const struct dw_sframe_enc_row a64_rows_outer[] = { ROW_OUTER(0) };
static const struct dw_sframe_enc_row a64_rows_fp_only[] = {	/* v3 flex only */
	{ 0, 0, R_REG(A64_SP, 0, 0), IN_LR, R_UNDEF, R_UNDEF, 0, 0 },
	{ 4, 0, R_REG(A64_SP, 0, 16), IN_LR, R_CFA(1, -16), R_UNDEF, 0, 0 },
};

static const struct dw_sframe_enc_func a64_funcs[] = {
	{ 0x4002a0, 28, 0, 0, 0, NROWS(a64_rows_f), a64_rows_f },
	{ 0x4002cc, 8, 0, 0, 0, NROWS(a64_rows_outer), a64_rows_outer },
	{ 0x4002d4, 20, 0, 0, 0, NROWS(a64_rows_k), a64_rows_k },
	{ 0x400300, 16, 0, 0, 0, NROWS(a64_rows_fp_only), a64_rows_fp_only },
};
#define A64_N_DEFAULT	3	/* the functions every version can encode */

/* Encode @n functions as AArch64 of @version, open and validate; 0 or -errno. */
static int a64_encode(__u8 version, __u32 n, __u8 **p, size_t *len,
		      struct dunwind_sframe_table *t, struct mem *m)
{
	struct dw_sframe_enc_opts o = {
		.version = version, .flags = SORTED | (version > 1 ? PCREL : 0),
		.abi = DUNWIND_SFRAME_ABI_AARCH64_LE, .sec_vaddr = 0x400400,
	};
	struct dunwind_sframe_src src = { mem_read, m, 0 };
	int err = dw_sframe_encode(&o, a64_funcs, n, p, len);

	if (err)
		return err;
	m->p = *p;
	m->n = *len;
	m->fail_from = *len;
	src.size = *len;
	err = dunwind_sframe_open_abi(t, &src, o.sec_vaddr, DUNWIND_SFRAME_ABI_AARCH64_LE);
	return err ? err : dunwind_sframe_validate(t);
}

/* Every row of the first @n functions looks up as encoded. */
static void expect_rows(struct __test_metadata *_metadata, const struct dunwind_sframe_table *t,
			__u32 n)
{
	struct dunwind_sframe_row row;
	__u32 i, j;

	for (i = 0; i < n; i++) {
		const struct dw_sframe_enc_func *f = &a64_funcs[i];

		for (j = 0; j < f->nrows; j++) {
			const struct dw_sframe_enc_row *r = &f->rows[j];

			ASSERT_EQ(0, dunwind_sframe_find(t, f->start + r->pc_off, &row));
			if (r->ra_undef) {
				EXPECT_TRUE(row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF);
				continue;
			}
			EXPECT_TRUE(rule_eq(&r->cfa, &row.cfa)) TH_LOG("f%u row %u: CFA", i, j);
			EXPECT_TRUE(rule_eq(&r->ra, &row.ra)) TH_LOG("f%u row %u: RA", i, j);
			EXPECT_TRUE(rule_eq(&r->fp, &row.fp)) TH_LOG("f%u row %u: FP", i, j);
			EXPECT_EQ(!!r->ra_mangled, !!(row.flags & DUNWIND_SFRAME_ROW_MANGLED_RA))
				TH_LOG("f%u row %u: mangled RA", i, j);
		}
	}
}

TEST(every_version_round_trips)
{
	struct dunwind_sframe_table t;
	struct mem m;
	__u8 *p, v;
	size_t len;

	for (v = DUNWIND_SFRAME_V1; v <= DUNWIND_SFRAME_V3; v++) {
		ASSERT_EQ(0, a64_encode(v, A64_N_DEFAULT, &p, &len, &t, &m)) TH_LOG("v%u", v);
		EXPECT_EQ(DUNWIND_SFRAME_ABI_AARCH64_LE, t.abi);
		EXPECT_EQ(0, t.fixed_ra) TH_LOG("v%u: the RA is tracked, not fixed", v);
		expect_rows(_metadata, &t, A64_N_DEFAULT);
		free(p);
	}
}

TEST(fp_saved_with_ra_in_lr_needs_flex)
{
	struct dunwind_sframe_table t;
	struct dunwind_sframe_fde fde;
	struct mem m;
	size_t len;
	__u8 *p;

	EXPECT_EQ(-EINVAL, a64_encode(DUNWIND_SFRAME_V2, 4, &p, &len, &t, &m));
	ASSERT_EQ(0, a64_encode(DUNWIND_SFRAME_V3, 4, &p, &len, &t, &m));
	ASSERT_EQ(0, dunwind_sframe_get_fde(&t, 3, &fde));
	EXPECT_EQ(DUNWIND_SFRAME_FDE_FLEX, fde.fde_type);
	ASSERT_EQ(0, dunwind_sframe_get_fde(&t, 0, &fde));
	EXPECT_EQ(DUNWIND_SFRAME_FDE_DEFAULT, fde.fde_type);
	expect_rows(_metadata, &t, 4);
	free(p);
}

/* Only the words an FRE needs: CFA alone while the RA is in x30, then RA, then FP. */
TEST(default_fres_carry_cfa_ra_fp)
{
	struct dunwind_sframe_table t;
	struct dunwind_sframe_fde fde;
	struct dunwind_sframe_fre fre;
	struct mem m;
	size_t len;
	__u8 *p;

	ASSERT_EQ(0, a64_encode(DUNWIND_SFRAME_V3, A64_N_DEFAULT, &p, &len, &t, &m));
	ASSERT_EQ(0, dunwind_sframe_get_fde(&t, 0, &fde));
	ASSERT_EQ(0, dunwind_sframe_get_fre(&t, &fde, fde.fres_off, &fre));
	EXPECT_EQ(1, fre.nwords);
	EXPECT_EQ(1, fre.info & 1);		/* CFA from SP */
	ASSERT_EQ(0, dunwind_sframe_get_fre(&t, &fde, fde.fres_off + 3 + 3, &fre));
	EXPECT_EQ(8, fre.start);
	EXPECT_EQ(3, fre.nwords);
	EXPECT_EQ(-24, fre.words[1]);
	EXPECT_EQ(-32, fre.words[2]);
	EXPECT_EQ(0x80, fre.info & 0x80);
	free(p);
}

/* An AArch64 table is not an AMD64 one: the x86 walk never takes it. */
TEST(another_abi_refuses_it)
{
	struct dunwind_sframe_table t;
	struct dunwind_sframe_src src;
	struct mem m;
	size_t len;
	__u8 *p;

	ASSERT_EQ(0, a64_encode(DUNWIND_SFRAME_V3, A64_N_DEFAULT, &p, &len, &t, &m));
	src = t.src;
	EXPECT_EQ(-EOPNOTSUPP, dunwind_sframe_open_abi(&t, &src, 0x400400,
						       DUNWIND_SFRAME_ABI_AMD64_LE));
	free(p);
}

TEST_HARNESS_MAIN
