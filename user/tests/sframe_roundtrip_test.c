// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame round trips: the reference functions (sframe_mem.h) encoded by
 * user/sframe/sframe_enc.c in every version and layout the decoder reads
 * (lib/sframe.c), then looked up at every boundary of every row and
 * compared with a model of the tables as the encoder was given them; a
 * few lookups spelled out; what the encoder refuses.
 */
#include <errno.h>

#include "kselftest_harness.h"
#include "sframe_mem.h"

/* ---- the model: which row of the given functions covers a PC ---- */

struct model_hit {
	const struct dw_sframe_enc_func *f;
	const struct dw_sframe_enc_row *r;
	__u64 lo, hi;
};

static int model_find(const struct dw_sframe_enc_func *fs, int n, __u64 pc, struct model_hit *h)
{
	int i;
	__u32 j;

	for (i = 0; i < n; i++) {
		const struct dw_sframe_enc_func *f = &fs[i];
		__u64 key, block = 0, limit = f->size, next;

		if (pc < f->start || pc - f->start >= f->size)
			continue;
		key = pc - f->start;
		if (f->pc_type == DUNWIND_SFRAME_PC_MASK) {
			block = key - key % f->rep_size;
			key -= block;
			limit = f->size - block < f->rep_size ? f->size - block : f->rep_size;
		}
		h->r = NULL;
		next = limit;
		for (j = 0; j < f->nrows; j++) {
			if (f->rows[j].pc_off > key) {
				next = f->rows[j].pc_off;
				break;
			}
			h->r = &f->rows[j];
		}
		if (!h->r)
			return -DUNWIND_SFRAME_ENOENT;
		h->f = f;
		h->lo = f->start + block + h->r->pc_off;
		h->hi = f->start + block + (next < limit ? next : limit);
		return 0;
	}
	return -DUNWIND_SFRAME_ENOENT;
}

/* Decoder and model agree at @pc?  Prints the first disagreement. */
static int agree(const struct dunwind_sframe_table *t, const struct dw_sframe_enc_func *fs, int n,
		 __u64 pc, const char *what)
{
	struct dunwind_sframe_row row;
	struct model_hit h;
	int e1 = dunwind_sframe_find(t, pc, &row), e2 = model_find(fs, n, pc, &h);

	if (e1 != e2) {
		ksft_print_msg("%s: pc 0x%llx: decoder %d, model %d\n", what,
			       (unsigned long long)pc, e1, e2);
		return 0;
	}
	if (e1)
		return 1;
	if (row.func_start != h.f->start || row.func_size != h.f->size || row.pc_lo != h.lo ||
	    row.pc_hi != h.hi) {
		ksft_print_msg("%s: pc 0x%llx: range [%llx,%llx) want [%llx,%llx)\n", what,
			       (unsigned long long)pc, (unsigned long long)row.pc_lo,
			       (unsigned long long)row.pc_hi, (unsigned long long)h.lo,
			       (unsigned long long)h.hi);
		return 0;
	}
	if (!!(row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF) != !!h.r->ra_undef) {
		ksft_print_msg("%s: pc 0x%llx: RA undefined mismatch\n", what,
			       (unsigned long long)pc);
		return 0;
	}
	if (h.r->ra_undef)
		return 1;
	if (!rule_eq(&row.cfa, &h.r->cfa) || !rule_eq(&row.ra, &h.r->ra) ||
	    !rule_eq(&row.fp, &h.r->fp)) {
		ksft_print_msg("%s: pc 0x%llx: rules cfa %d/%d/%d ra %d/%d fp %d/%d differ\n",
			       what, (unsigned long long)pc, row.cfa.kind, row.cfa.reg,
			       row.cfa.off, row.ra.kind, row.ra.off, row.fp.kind, row.fp.off);
		return 0;
	}
	return 1;
}

/* Every interesting PC around function @f: its edges and each row's edges in each block. */
static int check_func(const struct dunwind_sframe_table *t, const struct dw_sframe_enc_func *fs,
		      int n, const struct dw_sframe_enc_func *f, const char *what, int *checked)
{
	__u64 blocks[3] = { 0, 0, 0 }, pcs[8];
	int nb = 1, b, good = 1, k;
	__u32 j;

	if (f->pc_type == DUNWIND_SFRAME_PC_MASK) {
		blocks[1] = f->rep_size;
		blocks[2] = (f->size - 1) / f->rep_size * f->rep_size;
		nb = 3;
	}
	pcs[0] = f->start - 1;
	pcs[1] = f->start;
	pcs[2] = f->start + f->size - 1;
	pcs[3] = f->start + f->size;
	for (k = 0; k < 4; k++, (*checked)++)
		good &= agree(t, fs, n, pcs[k], what);
	for (b = 0; b < nb; b++) {
		for (j = 0; j < f->nrows; j++) {
			__u64 base = f->start + blocks[b] + f->rows[j].pc_off;
			__u64 next = j + 1 < f->nrows
					     ? f->start + blocks[b] + f->rows[j + 1].pc_off
					     : f->start + blocks[b] +
						       (f->pc_type ? f->rep_size : f->size);

			pcs[0] = base - 1;
			pcs[1] = base;
			pcs[2] = base + 1;
			pcs[3] = next - 1;
			pcs[4] = next;
			for (k = 0; k < 5; k++, (*checked)++)
				good &= agree(t, fs, n, pcs[k], what);
		}
	}
	return good;
}

/* ---- round trips: every version and layout, every function ---- */

FIXTURE(roundtrip) {
	struct dw_sframe_enc_func fs[N_ALL];
	int n, enc_err, open_err;
	__u8 *buf;
	size_t len;
	struct dunwind_sframe_table t;
	struct mem m;
};

FIXTURE_VARIANT(roundtrip) {
	const char *name;
	struct dw_sframe_enc_opts o;
	int reverse;		/* write FDEs in reverse (unsorted) order */
};

FIXTURE_VARIANT_ADD(roundtrip, v1) {
	"v1", { .version = 1, .flags = SORTED, .sec_vaddr = 0x400200 }, 0
};
FIXTURE_VARIANT_ADD(roundtrip, v2) {
	"v2", { .version = 2, .flags = SORTED, .sec_vaddr = 0x400200 }, 0
};
FIXTURE_VARIANT_ADD(roundtrip, v2_pcrel) {
	"v2+PCREL", { .version = 2, .flags = SORTED | PCREL, .sec_vaddr = 0x400200 }, 0
};
FIXTURE_VARIANT_ADD(roundtrip, v3) {
	"v3", { .version = 3, .flags = SORTED | PCREL, .sec_vaddr = 0x400200 }, 0
};
FIXTURE_VARIANT_ADD(roundtrip, v3_abs) {
	"v3-abs", { .version = 3, .flags = SORTED, .sec_vaddr = 0x500000 }, 0
};
FIXTURE_VARIANT_ADD(roundtrip, v2_unsorted) {
	"v2-unsorted", { .version = 2, .flags = 0, .sec_vaddr = 0x400200 }, 1
};
FIXTURE_VARIANT_ADD(roundtrip, v3_unsorted) {
	"v3-unsorted", { .version = 3, .flags = PCREL, .sec_vaddr = 0x400200 }, 1
};
FIXTURE_VARIANT_ADD(roundtrip, v2_pcrel_wide) {
	"v2+PCREL-wide", { .version = 2, .flags = SORTED | PCREL, .sec_vaddr = 0x400200,
			   .min_word_size = 4, .min_fre_type = 2 }, 0
};
FIXTURE_VARIANT_ADD(roundtrip, v3_aux_2byte) {
	"v3-aux-2byte", { .version = 3, .flags = SORTED | PCREL, .sec_vaddr = 0x7f0000000000,
			  .min_word_size = 2, .min_fre_type = 1, .auxhdr_len = 9 }, 0
};
FIXTURE_VARIANT_ADD(roundtrip, v1_fixedfp0) {
	"v1-fixedfp0", { .version = 1, .flags = SORTED | DUNWIND_SFRAME_F_FRAME_POINTER,
			 .sec_vaddr = 0x1000 }, 0
};

/* The reference functions (v3: the flex one too) encoded, then opened. */
FIXTURE_SETUP(roundtrip)
{
	int i;

	self->n = variant->o.version == 3 ? N_ALL : N_BASE;
	for (i = 0; i < self->n; i++)
		self->fs[i] = funcs_base[variant->reverse ? self->n - 1 - i : i];
	self->enc_err = dw_sframe_encode(&variant->o, self->fs, (__u32)self->n, &self->buf,
					 &self->len);
	self->open_err = self->enc_err ? self->enc_err :
			 open_mem(&self->t, &self->m, self->buf, self->len, variant->o.sec_vaddr);
}

FIXTURE_TEARDOWN(roundtrip)
{
	free(self->buf);
}

TEST_F(roundtrip, encoder_writes_the_functions)
{
	ASSERT_EQ(0, self->enc_err);
	ksft_print_msg("%s: %d functions in %zu bytes\n", variant->name, self->n, self->len);
}

TEST_F(roundtrip, open_accepts_it)
{
	ASSERT_EQ(0, self->enc_err);
	ASSERT_EQ(0, self->open_err);
	EXPECT_EQ(variant->o.version, self->t.version);
	EXPECT_EQ((__u32)self->n, self->t.num_fdes);
	EXPECT_EQ(variant->o.flags, self->t.flags);
}

TEST_F(roundtrip, validate_accepts_it)
{
	ASSERT_EQ(0, self->open_err);
	EXPECT_EQ(0, dunwind_sframe_validate(&self->t));
}

/* Lookups at every boundary of funcs_base[@k] agree with the model. */
static void check_ref_func(struct __test_metadata *_metadata, FIXTURE_DATA(roundtrip) *self,
			   const FIXTURE_VARIANT(roundtrip) *variant, int k)
{
	int checked = 0;

	ASSERT_EQ(0, self->open_err);
	EXPECT_TRUE(check_func(&self->t, self->fs, self->n, &funcs_base[k], variant->name,
			       &checked));
	ksft_print_msg("%s: func 0x%llx (%u rows): %d boundary PCs checked\n", variant->name,
		       (unsigned long long)funcs_base[k].start, funcs_base[k].nrows, checked);
}

/* fp-based CFA after a push and a mov, 1-byte row starts. */
TEST_F(roundtrip, fp_function_looks_up_like_the_model)
{
	check_ref_func(_metadata, self, variant, 0);
}

/* 2-byte row starts and offsets that need 4 bytes. */
TEST_F(roundtrip, wide_offsets_look_up_like_the_model)
{
	check_ref_func(_metadata, self, variant, 1);
}

/* A PLT-like function whose rows repeat every 16 bytes (PC mask). */
TEST_F(roundtrip, pc_mask_blocks_look_up_like_the_model)
{
	check_ref_func(_metadata, self, variant, 2);
}

/* An outermost frame (RA undefined) before an ordinary row. */
TEST_F(roundtrip, outermost_frame_looks_up_like_the_model)
{
	check_ref_func(_metadata, self, variant, 3);
}

/* A function whose first row starts after its first byte. */
TEST_F(roundtrip, late_first_row_looks_up_like_the_model)
{
	check_ref_func(_metadata, self, variant, 4);
}

/* A 128 KiB function: 4-byte row starts. */
TEST_F(roundtrip, four_byte_starts_look_up_like_the_model)
{
	check_ref_func(_metadata, self, variant, 5);
}

/* v3's flex rows: CFA in another register, dereferenced, RA and FP in registers. */
TEST_F(roundtrip, flex_rows_look_up_like_the_model)
{
	if (variant->o.version != 3)
		SKIP(return, "flex rows need SFrame v3 (this is v%u)", variant->o.version);
	check_ref_func(_metadata, self, variant, 6);
}

TEST_F(roundtrip, gaps_and_far_addresses_are_not_covered)
{
	static const __u64 far[] = { 0, 1, 0x401040, 0x4010ff, 0x401530, 0x401620, 0x401fff,
				     0x430010, 0xffffffffffffffffull, 0x400200 };
	size_t k;

	ASSERT_EQ(0, self->open_err);
	for (k = 0; k < sizeof(far) / sizeof(far[0]); k++)
		EXPECT_TRUE(agree(&self->t, self->fs, self->n, far[k], variant->name));
}

/* ---- single lookups, spelled out ---- */

FIXTURE(spot) {
	__u8 *b1, *b3;
	struct dunwind_sframe_table t1, t3;	/* v1 and v3 of the reference functions */
	struct mem m1, m3;
	struct dunwind_sframe_row r;
};

FIXTURE_SETUP(spot)
{
	struct dw_sframe_enc_opts o1 = { .version = 1, .flags = SORTED, .sec_vaddr = 0x400200 };
	struct dw_sframe_enc_opts o3 = { .version = 3, .flags = SORTED | PCREL,
					 .sec_vaddr = 0x400200 };
	size_t l1, l3;

	ASSERT_EQ(0, dw_sframe_encode(&o1, funcs_base, N_BASE, &self->b1, &l1));
	ASSERT_EQ(0, open_mem(&self->t1, &self->m1, self->b1, l1, o1.sec_vaddr));
	ASSERT_EQ(0, dw_sframe_encode(&o3, funcs_base, N_ALL, &self->b3, &l3));
	ASSERT_EQ(0, open_mem(&self->t3, &self->m3, self->b3, l3, o3.sec_vaddr));
}

FIXTURE_TEARDOWN(spot)
{
	free(self->b1);
	free(self->b3);
}

/* 0x401001 is sp+16, fp at cfa-16, ra at cfa-8, row [0x401001,0x401004). */
TEST_F(spot, after_push_cfa_is_sp_16)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t1, 0x401001, r));
	EXPECT_EQ(SP, r->cfa.reg);
	EXPECT_EQ(16, r->cfa.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_CFA, r->fp.kind);
	EXPECT_EQ(-16, r->fp.off);
	EXPECT_EQ(-8, r->ra.off);
	EXPECT_EQ(0x401001, r->pc_lo);
	EXPECT_EQ(0x401004, r->pc_hi);
	EXPECT_TRUE(dunwind_sframe_row_simple(r));
}

TEST_F(spot, after_mov_cfa_is_fp_16)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t1, 0x40103e, r));
	EXPECT_EQ(FP, r->cfa.reg);
	EXPECT_EQ(16, r->cfa.off);
	EXPECT_EQ(0x401004, r->pc_lo);
	EXPECT_EQ(0x40103f, r->pc_hi);
}

/* 0x40141c is block 1, +0xc: sp+16 in [0x40141b, 0x401420). */
TEST_F(spot, pc_mask_second_block)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t1, 0x40141c, r));
	EXPECT_EQ(16, r->cfa.off);
	EXPECT_EQ(0x40141b, r->pc_lo);
	EXPECT_EQ(0x401420, r->pc_hi);
}

/* 0x40142a is block 2, +0xa: sp+8. */
TEST_F(spot, pc_mask_third_block)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t1, 0x40142a, r));
	EXPECT_EQ(8, r->cfa.off);
	EXPECT_EQ(0x401420, r->pc_lo);
}

TEST_F(spot, outermost_frame_has_ra_undefined)
{
	ASSERT_EQ(0, dunwind_sframe_find(&self->t1, 0x401502, &self->r));
	EXPECT_TRUE(self->r.flags & DUNWIND_SFRAME_ROW_RA_UNDEF);
}

/* A function whose first row starts late: 0x401603 not covered, 0x401604 is. */
TEST_F(spot, before_the_first_row_is_not_covered)
{
	EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, dunwind_sframe_find(&self->t1, 0x401603, &self->r));
	EXPECT_EQ(0, dunwind_sframe_find(&self->t1, 0x401604, &self->r));
}

/* 4-byte FRE starts: 0x412005 is sp+24 until 0x421fff. */
TEST_F(spot, four_byte_starts)
{
	ASSERT_EQ(0, dunwind_sframe_find(&self->t1, 0x412005, &self->r));
	EXPECT_EQ(24, self->r.cfa.off);
	EXPECT_EQ(0x421fff, self->r.pc_hi);
}

/* v3 flex: 0x430003's CFA is r10, in a signal frame. */
TEST_F(spot, v3_flex_cfa_in_r10)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t3, 0x430003, r));
	EXPECT_TRUE(r->flags & DUNWIND_SFRAME_ROW_FLEX);
	EXPECT_TRUE(r->flags & DUNWIND_SFRAME_ROW_SIGNAL);
	EXPECT_EQ(10, r->cfa.reg);
	EXPECT_FALSE(r->cfa.deref);
	EXPECT_FALSE(dunwind_sframe_row_simple(r));
}

/* v3 flex: 0x430009's CFA = *(fp-8). */
TEST_F(spot, v3_flex_cfa_dereferenced)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t3, 0x430009, r));
	EXPECT_EQ(FP, r->cfa.reg);
	EXPECT_TRUE(r->cfa.deref);
	EXPECT_EQ(-8, r->cfa.off);
	EXPECT_EQ(-16, r->fp.off);
}

/* v3 flex: at 0x43000c RA is in r11, FP = *(rbx+16). */
TEST_F(spot, v3_flex_ra_and_fp_in_registers)
{
	struct dunwind_sframe_row *r = &self->r;

	ASSERT_EQ(0, dunwind_sframe_find(&self->t3, 0x43000c, r));
	EXPECT_EQ(DUNWIND_SFRAME_RULE_REG, r->ra.kind);
	EXPECT_EQ(11, r->ra.reg);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_REG, r->fp.kind);
	EXPECT_EQ(3, r->fp.reg);
	EXPECT_TRUE(r->fp.deref);
}

/* ---- what the encoder refuses ---- */

TEST(encoder_refuses_flex_rows_before_v3)
{
	struct dw_sframe_enc_opts o = { .version = 2, .flags = SORTED, .sec_vaddr = 0x1000 };
	__u8 *buf = NULL;
	size_t len;

	EXPECT_EQ(-EINVAL, dw_sframe_encode(&o, &funcs_base[6], 1, &buf, &len));
	free(buf);
}

TEST(encoder_refuses_v2_start_beyond_32_bit_reach)
{
	struct dw_sframe_enc_opts o = { .version = 2, .flags = SORTED, .sec_vaddr = 0x1000 };
	struct dw_sframe_enc_func f = funcs_base[0];
	__u8 *buf = NULL;
	size_t len;

	f.start = 0x1000 + 0x100000000ull;
	EXPECT_EQ(-ERANGE, dw_sframe_encode(&o, &f, 1, &buf, &len));
	free(buf);
}

TEST(encoder_v3_reaches_a_64_bit_start)
{
	struct dw_sframe_enc_opts o = { .version = 3, .flags = SORTED, .sec_vaddr = 0x1000 };
	struct dw_sframe_enc_func f = funcs_base[0];
	__u8 *buf = NULL;
	size_t len;

	f.start = 0x1000 + 0x100000000ull;
	EXPECT_EQ(0, dw_sframe_encode(&o, &f, 1, &buf, &len));
	free(buf);
}

TEST_HARNESS_MAIN
