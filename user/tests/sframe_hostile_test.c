// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile SFrame tables against the decoder (lib/sframe.c): valid tables
 * of the reference functions (sframe_mem.h), one field broken at a time
 * in the header, an FDE, an FRE or a v3 attribute, must be refused by
 * open or validate with the right error, and lookups in what open accepts
 * must fail cleanly.  Then every truncation, a read fault at every offset
 * and random bit flips; the cap on FREs per FDE.  The memory source
 * aborts on any read out of bounds.
 */
#include "kselftest_harness.h"
#include "sframe_mem.h"

static void put32(__u8 *p, __u32 v)
{
	p[0] = (__u8)v;
	p[1] = (__u8)(v >> 8);
	p[2] = (__u8)(v >> 16);
	p[3] = (__u8)(v >> 24);
}

static __u32 get32(const __u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

/* open, then validate; returns the first error. */
static int open_validate(const __u8 *p, size_t n)
{
	struct dunwind_sframe_table t;
	struct mem m;
	int err = open_mem(&t, &m, p, n, 0x400200);

	return err ? err : dunwind_sframe_validate(&t);
}

/* Lookups at many PCs never crash and stay consistent with what they say. */
static int find_sane(const __u8 *p, size_t n)
{
	struct dunwind_sframe_table t;
	struct dunwind_sframe_row r;
	struct mem m;
	__u64 pc;
	int good = 1, err;

	if (open_mem(&t, &m, p, n, 0x400200))
		return 1;
	for (pc = 0x400ff0; pc < 0x401700; pc += 3) {
		err = dunwind_sframe_find(&t, pc, &r);
		if (err == 0 && (pc < r.pc_lo || pc >= r.pc_hi || pc < r.func_start ||
				 pc - r.func_start >= r.func_size))
			good = 0;
		if (err > 0)
			good = 0;
	}
	return good;
}

/*
 * v2: the reference functions as v2 (header 28 bytes, 6 FDEs of 20 bytes
 * at 28, then the FREs); v3: all 7 as v3 (FDEs of 16 bytes, attributes in
 * the FRE sub-section); b: room for a mutated copy of either.
 */
FIXTURE(hostile) {
	__u8 *v2, *v3, *b;
	size_t len, l3;
	struct dunwind_sframe_table t;
	struct dunwind_sframe_row r;
	struct mem m;
};

FIXTURE_SETUP(hostile)
{
	struct dw_sframe_enc_opts o2 = { .version = 2, .flags = SORTED, .sec_vaddr = 0x400200 };
	struct dw_sframe_enc_opts o3 = { .version = 3, .flags = SORTED | PCREL,
					 .sec_vaddr = 0x400200 };

	ASSERT_EQ(0, dw_sframe_encode(&o2, funcs_base, N_BASE, &self->v2, &self->len));
	ASSERT_EQ(0, dw_sframe_encode(&o3, funcs_base, N_ALL, &self->v3, &self->l3));
	self->b = malloc(self->len > self->l3 ? self->len : self->l3);
	ASSERT_NE(NULL, self->b);
}

FIXTURE_TEARDOWN(hostile)
{
	free(self->v2);
	free(self->v3);
	free(self->b);
}

/* A fresh copy of the v2 (v3) table in b, to break. */
static __u8 *copy2(FIXTURE_DATA(hostile) *self)
{
	return memcpy(self->b, self->v2, self->len);
}

static __u8 *copy3(FIXTURE_DATA(hostile) *self)
{
	return memcpy(self->b, self->v3, self->l3);
}

#define REFUSED2(err) EXPECT_EQ(err, open_validate(self->b, self->len))
#define REFUSED3(err) EXPECT_EQ(err, open_validate(self->b, self->l3))

/* ---- the header ---- */

TEST_F(hostile, bad_magic_is_einval)
{
	copy2(self)[0] = 0x00;
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, big_endian_magic_is_eopnotsupp)
{
	copy2(self)[0] = 0xde;
	self->b[1] = 0xe2;
	REFUSED2(-DUNWIND_SFRAME_EOPNOTSUPP);
}

TEST_F(hostile, version_4_is_eopnotsupp)
{
	copy2(self)[2] = 4;
	REFUSED2(-DUNWIND_SFRAME_EOPNOTSUPP);
}

TEST_F(hostile, version_0_is_eopnotsupp)
{
	copy2(self)[2] = 0;
	REFUSED2(-DUNWIND_SFRAME_EOPNOTSUPP);
}

TEST_F(hostile, aarch64_le_is_eopnotsupp)
{
	copy2(self)[4] = DUNWIND_SFRAME_ABI_AARCH64_LE;
	REFUSED2(-DUNWIND_SFRAME_EOPNOTSUPP);
}

TEST_F(hostile, aarch64_be_is_eopnotsupp)
{
	copy2(self)[4] = DUNWIND_SFRAME_ABI_AARCH64_BE;
	REFUSED2(-DUNWIND_SFRAME_EOPNOTSUPP);
}

TEST_F(hostile, unknown_abi_is_einval)
{
	copy2(self)[4] = 77;
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, unknown_flag_is_einval)
{
	copy2(self)[3] |= 0x40;
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, v3_with_the_removed_frame_pointer_flag_is_einval)
{
	copy3(self)[3] |= DUNWIND_SFRAME_F_FRAME_POINTER;
	REFUSED3(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, no_fixed_ra_offset_is_einval)
{
	copy2(self)[6] = 0;
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, auxiliary_header_pushing_sub_sections_out_is_einval)
{
	copy2(self)[7] = 255;
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, num_fdes_2_32_minus_1_is_einval)
{
	put32(copy2(self) + 8, 0xffffffff);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, num_fres_huge_is_einval)
{
	put32(copy2(self) + 12, 0x7fffffff);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, num_fres_one_more_than_the_fdes_use_is_einval)
{
	put32(copy2(self) + 12, get32(self->v2 + 12) + 1);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, fre_len_past_the_end_is_einval)
{
	put32(copy2(self) + 16, get32(self->v2 + 16) + 1);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, fdeoff_past_the_end_is_einval)
{
	put32(copy2(self) + 20, 0xfffffff0);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, fre_sub_section_overlapping_the_fdes_is_einval)
{
	put32(copy2(self) + 24, 4);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, section_of_20_bytes_is_einval)
{
	EXPECT_EQ(-DUNWIND_SFRAME_EINVAL, open_validate(self->v2, 20));
}

/* ---- an FDE (v2: at 28 + 20 * i) ---- */

/* FDE1 starts where FDE0 does. */
TEST_F(hostile, sorted_flag_but_overlapping_fdes_is_einval)
{
	put32(copy2(self) + 28 + 20, get32(self->v2 + 28));
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

/* FDE0 starts where FDE2 does. */
TEST_F(hostile, sorted_flag_but_unsorted_fdes_is_einval)
{
	put32(copy2(self) + 28, get32(self->v2 + 28 + 40));
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, lookups_on_unsorted_fdes_stay_consistent)
{
	put32(copy2(self) + 28, get32(self->v2 + 28 + 40));
	EXPECT_TRUE(find_sane(self->b, self->len));
}

TEST_F(hostile, fde_fre_offset_out_of_bounds_is_einval)
{
	put32(copy2(self) + 28 + 8, 0x7fffffff);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, lookup_in_an_fde_with_its_fres_out_of_bounds_fails_cleanly)
{
	put32(copy2(self) + 28 + 8, 0x7fffffff);
	ASSERT_EQ(0, open_mem(&self->t, &self->m, self->b, self->len, 0x400200));
	EXPECT_EQ(-DUNWIND_SFRAME_EINVAL, dunwind_sframe_find(&self->t, 0x401000, &self->r));
}

TEST_F(hostile, fde_with_100000_fres_is_einval)
{
	put32(copy2(self) + 28 + 12, 100000);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

/* FDE2 is the PLT (PC mask). */
TEST_F(hostile, pc_mask_with_rep_size_0_is_einval)
{
	copy2(self)[28 + 40 + 17] = 0;
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, rep_size_0_fails_the_lookup_there_only)
{
	copy2(self)[28 + 40 + 17] = 0;
	ASSERT_EQ(0, open_mem(&self->t, &self->m, self->b, self->len, 0x400200));
	EXPECT_EQ(-DUNWIND_SFRAME_EINVAL, dunwind_sframe_find(&self->t, 0x401405, &self->r));
	EXPECT_EQ(0, dunwind_sframe_find(&self->t, 0x401001, &self->r));
}

TEST_F(hostile, fre_type_3_is_einval)
{
	copy2(self)[28 + 16] = (self->v2[28 + 16] & 0xf0) | 3;
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, function_size_overlapping_the_next_is_einval)
{
	put32(copy2(self) + 28 + 4, 0xfffffff0);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, start_address_below_0_is_einval)
{
	put32(copy2(self) + 28, 0x80000000);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

/* ---- an FRE: FDE0's start at 28 + 6 * 20: [start][info][words] ---- */

#define FRE0 (28 + 6 * 20)

TEST_F(hostile, fre_word_size_3_is_einval)
{
	copy2(self)[FRE0 + 1] |= 0x60;
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, three_data_words_in_an_amd64_default_fre_is_einval)
{
	copy2(self)[FRE0 + 1] = (__u8)((self->v2[FRE0 + 1] & ~0x1e) | 3 << 1);
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, fifteen_data_words_run_past_the_fres)
{
	copy2(self)[FRE0 + 1] |= 0x1e;
	EXPECT_NE(0, open_validate(self->b, self->len));
}

/* FRE1 starts at 0x50: after FRE2, past the function. */
TEST_F(hostile, fre_starts_out_of_order_or_past_the_function_is_einval)
{
	copy2(self)[FRE0 + 3] = 0x50;
	REFUSED2(-DUNWIND_SFRAME_EINVAL);
}

/* ---- v3: the flex function's attributes at the FRE sub-section + its fre_off ---- */

#define FDE6_V3 (28 + 6 * 16)

static size_t flex_attr(FIXTURE_DATA(hostile) *self)
{
	return 28 + N_ALL * 16 + get32(self->v3 + FDE6_V3 + 12);
}

TEST_F(hostile, v3_unknown_fde_type_is_eopnotsupp)
{
	copy3(self)[flex_attr(self) + 3] = 5;
	REFUSED3(-DUNWIND_SFRAME_EOPNOTSUPP);
}

TEST_F(hostile, v3_flex_control_word_with_a_reserved_bit_is_einval)
{
	copy3(self)[flex_attr(self) + 5 + 2] |= 4;
	REFUSED3(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, v3_flex_cfa_not_register_based_is_einval)
{
	copy3(self)[flex_attr(self) + 5 + 2] = 2;
	REFUSED3(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, v3_fre_count_too_large_is_einval)
{
	copy3(self)[flex_attr(self)] = 0xff;
	REFUSED3(-DUNWIND_SFRAME_EINVAL);
}

TEST_F(hostile, v3_attributes_out_of_bounds_is_einval)
{
	put32(copy3(self) + FDE6_V3 + 12, 0xfffffff0);
	REFUSED3(-DUNWIND_SFRAME_EINVAL);
}

/* ---- every truncation, every read fault, random flips ---- */

TEST_F(hostile, every_truncation_is_refused)
{
	size_t i, accepted = 0;

	for (i = 0; i < self->len; i++)
		accepted += open_validate(self->v2, i) == 0;
	for (i = 0; i < self->l3; i++)
		accepted += open_validate(self->v3, i) == 0;
	EXPECT_EQ(0, accepted);
	ksft_print_msg("%zu + %zu truncations\n", self->len, self->l3);
}

/* A failing read callback is passed up (-14), never a crash. */
TEST_F(hostile, read_faults_at_every_offset_return_the_callbacks_error)
{
	struct dunwind_sframe_table *t = &self->t;
	__u64 f;

	for (f = 0; f < self->len; f += 7) {
		int err = open_mem(t, &self->m, self->v2, self->len, 0x400200);

		self->m.fail_from = f;
		if (!err)
			err = dunwind_sframe_validate(t);
		EXPECT_TRUE(err == -14 || err == 0) TH_LOG("fault at %llu: %d",
							    (unsigned long long)f, err);
		if (!dunwind_sframe_open(t, &t->src, 0x400200)) {
			self->m.fail_from = f;
			err = dunwind_sframe_find(t, 0x401001, &self->r);
			EXPECT_TRUE(err == -14 || err == 0) TH_LOG("lookup, fault at %llu: %d",
								    (unsigned long long)f, err);
		}
	}
}

/* Random byte flips: never a crash, lookups consistent, some rejected. */
TEST_F(hostile, random_mutations_keep_lookups_consistent)
{
	unsigned int seed = 12345, k, rejected = 0, insane = 0;
	const unsigned int rounds = 20000;

	for (k = 0; k < rounds; k++) {
		const __u8 *base = (k & 1) ? self->v3 : self->v2;
		size_t bl = (k & 1) ? self->l3 : self->len;
		int flips = 1 + (int)(rand_r(&seed) % 4), q;

		memcpy(self->b, base, bl);
		for (q = 0; q < flips; q++)
			self->b[rand_r(&seed) % bl] ^= (__u8)(1u << (rand_r(&seed) % 8));
		if (open_validate(self->b, bl))
			rejected++;
		if (!find_sane(self->b, bl))
			insane++;
	}
	EXPECT_EQ(0, insane);
	EXPECT_LT(0, rejected);
	ksft_print_msg("%u random mutations, %u rejected\n", rounds, rejected);
}

/* ---- the cap on FREs per FDE: no lookup scans more ---- */

/* One function of @n FREs, 2 bytes apart; open + validate's answer. */
static int fres_in_one_fde(__u32 n)
{
	static struct dw_sframe_enc_row rows[DUNWIND_SFRAME_MAX_FDE_FRES + 1];
	struct dw_sframe_enc_opts o = { .version = 2, .flags = DUNWIND_SFRAME_F_FDE_SORTED,
					.sec_vaddr = 0x400200 };
	struct dw_sframe_enc_func f = { .start = 0x401000, .size = 2 * n, .nrows = n,
					.rows = rows };
	__u8 *out = NULL;
	size_t len = 0;
	__u32 i;
	int err;

	for (i = 0; i < n; i++) {
		rows[i].pc_off = 2 * i;
		rows[i].cfa = (struct dunwind_sframe_rule){ DUNWIND_SFRAME_RULE_REG,
							    DUNWIND_SFRAME_REG_SP, 0, 0,
							    8 + 8 * (i % 4) };
		rows[i].ra = (struct dunwind_sframe_rule){ DUNWIND_SFRAME_RULE_CFA, 0, 1, 0, -8 };
	}
	err = dw_sframe_encode(&o, &f, 1, &out, &len);
	if (err)
		return 1000 + err;	/* not an error the decoder gives */
	err = open_validate(out, len);
	free(out);
	return err;
}

TEST(fde_with_the_most_fres_allowed_is_accepted)
{
	EXPECT_EQ(0, fres_in_one_fde(DUNWIND_SFRAME_MAX_FDE_FRES));
}

TEST(fde_with_one_fre_too_many_is_einval)
{
	EXPECT_EQ(-DUNWIND_SFRAME_EINVAL, fres_in_one_fde(DUNWIND_SFRAME_MAX_FDE_FRES + 1));
}

TEST_HARNESS_MAIN
