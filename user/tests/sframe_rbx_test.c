// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind's %rbx extension of generated SFrame v3 tables
 * (DUNWIND_SFRAME_EXT_RBX, Documentation/sframe.rst): encoding and
 * decoding of the fourth flex item, its refusal where the extension is not
 * on and in hostile shapes, and the generator's rows for the dynamic
 * loader (whose lazy-binding trampoline has CFA = %rbx + N) checked at
 * every PC against libdw's CFI.  The loader is $DW_TEST_LDSO, default
 * /lib64/ld-linux-x86-64.so.2.
 */
#include <errno.h>

#include "kselftest_harness.h"
/* This test uses a few of the shared checks' helpers only. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "sframe_check.h"
#include "sframe/sframe_enc.h"

#define DEFAULT_LDSO	"/lib64/ld-linux-x86-64.so.2"
#define T_REG_BX	3

/* A trampoline-like function: push %rbx; mov %rsp,%rbx; CFA = %rbx + 32. */
static const struct dw_sframe_enc_row tramp[] = {
	{ .pc_off = 0, .cfa = { DUNWIND_SFRAME_RULE_REG, DUNWIND_SFRAME_REG_SP, 0, 0, 24 },
	  .ra = { DUNWIND_SFRAME_RULE_CFA, 0, 1, 0, -8 } },
	{ .pc_off = 1, .cfa = { DUNWIND_SFRAME_RULE_REG, DUNWIND_SFRAME_REG_SP, 0, 0, 32 },
	  .ra = { DUNWIND_SFRAME_RULE_CFA, 0, 1, 0, -8 },
	  .rbx = { DUNWIND_SFRAME_RULE_CFA, 0, 1, 0, -32 } },
	{ .pc_off = 4, .cfa = { DUNWIND_SFRAME_RULE_REG, DUNWIND_SFRAME_REG_BX, 0, 0, 32 },
	  .ra = { DUNWIND_SFRAME_RULE_CFA, 0, 1, 0, -8 },
	  .rbx = { DUNWIND_SFRAME_RULE_CFA, 0, 1, 0, -32 } },
	{ .pc_off = 9, .cfa = { DUNWIND_SFRAME_RULE_REG, DUNWIND_SFRAME_REG_SP, 0, 0, 32 },
	  .ra = { DUNWIND_SFRAME_RULE_CFA, 0, 1, 0, -8 },
	  .fp = { DUNWIND_SFRAME_RULE_CFA, 0, 1, 0, -24 }, .rbx_lost = 1 },
};

static const struct dw_sframe_enc_func funcs[] = {
	{ .start = 0x401000, .size = 16, .nrows = 4, .rows = tramp },
};

static const struct dw_sframe_enc_opts v3 = {
	.version = 3, .flags = DUNWIND_SFRAME_F_FDE_SORTED | DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL,
	.sec_vaddr = 0x400000,
};

FIXTURE(enc)
{
	__u8 *sec;
	size_t len;
	struct t_mem m;
	struct dunwind_sframe_table t;
};

FIXTURE_SETUP(enc)
{
	struct dunwind_sframe_src src = { .read = t_mem_read, .ctx = &self->m };

	ASSERT_EQ(0, dw_sframe_encode(&v3, funcs, 1, &self->sec, &self->len));
	self->m.p = self->sec;
	self->m.n = self->len;
	src.size = self->len;
	ASSERT_EQ(0, dunwind_sframe_open(&self->t, &src, v3.sec_vaddr));
	self->t.ext = DUNWIND_SFRAME_EXT_RBX;
}

FIXTURE_TEARDOWN(enc)
{
	free(self->sec);
}

/* Each row reads back as written: CFA on %rbx, %rbx saved, kept, lost. */
TEST_F(enc, rows_read_back)
{
	struct dunwind_sframe_row r;

	ASSERT_EQ(0, dunwind_sframe_validate(&self->t));
	ASSERT_EQ(0, dunwind_sframe_find(&self->t, 0x401000, &r));
	EXPECT_TRUE(r.flags & DUNWIND_SFRAME_ROW_RBX);
	EXPECT_FALSE(r.flags & DUNWIND_SFRAME_ROW_RBX_LOST);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_UNDEF, r.rbx.kind);
	ASSERT_EQ(0, dunwind_sframe_find(&self->t, 0x401005, &r));
	EXPECT_EQ(DUNWIND_SFRAME_REG_BX, r.cfa.reg);
	EXPECT_EQ(32, r.cfa.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_CFA, r.rbx.kind);
	EXPECT_EQ(1, r.rbx.deref);
	EXPECT_EQ(-32, r.rbx.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_UNDEF, r.fp.kind);
	ASSERT_EQ(0, dunwind_sframe_find(&self->t, 0x40100a, &r));
	EXPECT_TRUE(r.flags & DUNWIND_SFRAME_ROW_RBX_LOST);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_CFA, r.fp.kind);
	EXPECT_EQ(-24, r.fp.off);
}

/* A table not registered with the extension: the fourth item is malformed. */
TEST_F(enc, fourth_item_invalid_without_ext)
{
	struct dunwind_sframe_row r;

	self->t.ext = 0;
	EXPECT_EQ(-DUNWIND_SFRAME_EINVAL, dunwind_sframe_validate(&self->t));
	ASSERT_EQ(0, dunwind_sframe_find(&self->t, 0x401000, &r));
	EXPECT_FALSE(r.flags & DUNWIND_SFRAME_ROW_RBX);
}

/* Where FRE @nth (0-based) of the only function ends; 0 if unreadable. */
static size_t fre_end(const struct dunwind_sframe_table *t, unsigned int nth)
{
	struct dunwind_sframe_fde fde;
	struct dunwind_sframe_fre fre;
	__u64 off;
	unsigned int j;

	if (dunwind_sframe_get_fde(t, 0, &fde))
		return 0;
	off = fde.fres_off;
	for (j = 0; j <= nth; j++) {
		if (dunwind_sframe_get_fre(t, &fde, off, &fre))
			return 0;
		off += fre.len;
	}
	return (size_t)off;
}

/* Hostile %rbx items: an unknown control word, a lost word with a tail. */
TEST_F(enc, hostile_items_rejected)
{
	size_t end2 = fre_end(&self->t, 2), end3 = fre_end(&self->t, 3);

	ASSERT_LT(0, end2);
	ASSERT_LT(end2, end3);
	/* FRE 2 ends with (2, -32), FRE 3 with the lost word (4), 1-byte words. */
	ASSERT_EQ(2, self->sec[end2 - 2]);
	ASSERT_EQ(DUNWIND_SFRAME_RBX_LOST, self->sec[end3 - 1]);
	self->sec[end2 - 2] = 3;	/* register based: no such %rbx rule */
	EXPECT_EQ(-DUNWIND_SFRAME_EINVAL, dunwind_sframe_validate(&self->t));
	self->sec[end2 - 2] = 0;	/* padding is no %rbx rule either */
	EXPECT_EQ(-DUNWIND_SFRAME_EINVAL, dunwind_sframe_validate(&self->t));
	self->sec[end2 - 2] = 2;
	ASSERT_EQ(0, dunwind_sframe_validate(&self->t));
	self->sec[end2 - 2] = DUNWIND_SFRAME_RBX_LOST;	/* lost, then one word too many */
	EXPECT_EQ(-DUNWIND_SFRAME_EINVAL, dunwind_sframe_validate(&self->t));
	self->sec[end2 - 2] = 2;
	self->sec[end3 - 1] = 6;	/* lost | deref: unknown */
	EXPECT_EQ(-DUNWIND_SFRAME_EINVAL, dunwind_sframe_validate(&self->t));
}

/* The encoder: a %rbx rule that is not "saved at CFA + N" cannot be written. */
TEST(encoder_refuses_other_rbx_rules)
{
	struct dw_sframe_enc_row rows[1] = { tramp[2] };
	struct dw_sframe_enc_func f = { .start = 0x401000, .size = 16, .nrows = 1, .rows = rows };
	__u8 *sec = NULL;
	size_t len;

	rows[0].rbx.kind = DUNWIND_SFRAME_RULE_REG;
	EXPECT_EQ(-EINVAL, dw_sframe_encode(&v3, &f, 1, &sec, &len));
	free(sec);
}

/* ---------- the generator on the dynamic loader, against libdw ---------- */

/* What libdw says of %rbx and the CFA at @pc: what the table must say. */
struct t_rbx {
	int cfa_bx;			/* CFA = %rbx + cfa_off */
	__s64 cfa_off;
	int saved, lost;
	__s64 off;
};

static int t_rbx_cfi(const struct t_cfi *c, __u64 pc, struct t_rbx *x)
{
	Dwarf_Op mem[3], *ops;
	Dwarf_Frame *f;
	size_t n;
	int err = -1;

	memset(x, 0, sizeof(*x));
	if (!c->eh || dwarf_cfi_addrframe(c->eh, pc, &f))
		return -1;
	if (dwarf_frame_register(f, T_REG_BX, mem, &ops, &n))
		goto out;
	err = 0;
	if (n == 0)
		goto cfa;
	if (n <= 2 && ops[0].atom == T_OP_CFA &&
	    (n == 1 || ops[1].atom == 0x23 /* DW_OP_plus_uconst */)) {
		x->saved = 1;
		x->off = n == 1 ? 0 : (__s64)ops[1].number;
	} else {
		x->lost = 1;
	}
cfa:
	if (!dwarf_frame_cfa(f, &ops, &n) && n == 1 && ops[0].atom == T_OP_BREGX &&
	    ops[0].number == T_REG_BX) {
		x->cfa_bx = 1;
		x->cfa_off = (__s64)ops[0].number2;
	}
out:
	free(f);
	return err;
}

FIXTURE(ldso)
{
	const char *path;
	struct dw_sframe_gen_result r;
	struct t_mem m;
	struct dunwind_sframe_table t;
	struct t_cfi cfi;
};

FIXTURE_SETUP(ldso)
{
	struct dw_sframe_gen_opts o = { .version = 3, .flags = DW_SFRAME_GEN_RBX };
	int err;

	self->path = getenv("DW_TEST_LDSO") ? getenv("DW_TEST_LDSO") : DEFAULT_LDSO;
	self->cfi.fd = -1;
	if (access(self->path, R_OK))
		SKIP(return, "%s not readable: set DW_TEST_LDSO", self->path);
	err = dw_sframe_gen(self->path, &o, &self->r);
	ASSERT_EQ(0, err) TH_LOG("generating %s: %s", self->path, strerror(-err));
	ASSERT_EQ(DUNWIND_SFRAME_EXT_RBX, self->r.ext);
	ASSERT_EQ(0, t_open(&self->r, &self->m, &self->t));
	self->t.ext = DUNWIND_SFRAME_EXT_RBX;
	ASSERT_EQ(0, dunwind_sframe_validate(&self->t));
	ASSERT_EQ(0, t_cfi_open(&self->cfi, self->path));
}

FIXTURE_TEARDOWN(ldso)
{
	dw_sframe_gen_free(&self->r);
	if (self->cfi.fd >= 0)
		t_cfi_close(&self->cfi);
}

/* Does @row say what libdw says (@x) of the CFA's base and of %rbx? */
static int t_rbx_same(const struct dunwind_sframe_row *row, const struct t_rbx *x)
{
	if (row->flags & DUNWIND_SFRAME_ROW_RA_UNDEF)
		return 1;
	if (!(row->flags & DUNWIND_SFRAME_ROW_RBX))
		return 0;
	if (x->cfa_bx != (row->cfa.reg == DUNWIND_SFRAME_REG_BX) ||
	    (x->cfa_bx && x->cfa_off != row->cfa.off))
		return 0;
	if (x->lost)
		return !!(row->flags & DUNWIND_SFRAME_ROW_RBX_LOST);
	if (row->flags & DUNWIND_SFRAME_ROW_RBX_LOST)
		return 0;
	if (!x->saved)
		return row->rbx.kind == DUNWIND_SFRAME_RULE_UNDEF;
	return row->rbx.kind == DUNWIND_SFRAME_RULE_CFA && row->rbx.deref && row->rbx.off == x->off;
}

/*
 * At every PC with CFI that the table covers, the table says what the CFI
 * says of %rbx; and the loader has a CFA based on %rbx that is covered.
 */
TEST_F(ldso, rbx_rows_match_cfi)
{
	__u64 lo[8], hi[8], pc, pcs = 0, bad = 0, bx_pcs = 0;
	struct dunwind_sframe_row row;
	struct t_rbx x;
	int i, nr = t_exec_ranges(&self->cfi, lo, hi, 8);

	ASSERT_LT(0, nr);
	for (i = 0; i < nr; i++) {
		for (pc = lo[i]; pc < hi[i]; pc++) {
			if (t_rbx_cfi(&self->cfi, pc, &x) ||
			    dunwind_sframe_find(&self->t, pc, &row))
				continue;
			pcs++;
			bx_pcs += x.cfa_bx;
			if (!t_rbx_same(&row, &x) && bad++ < 5)
				TH_LOG("%#llx: table and CFI differ on %%rbx", (unsigned long long)pc);
		}
	}
	printf("# %llu PCs compared, %llu with CFA = %%rbx + N\n", (unsigned long long)pcs,
	       (unsigned long long)bx_pcs);
	EXPECT_EQ(0, bad);
	EXPECT_LT(0, bx_pcs) TH_LOG("no CFA based on %%rbx in %s", self->path);
}

/* The extension is v3's: asked of v2 it is refused. */
TEST(gen_rbx_needs_v3)
{
	struct dw_sframe_gen_opts o = { .version = 2, .flags = DW_SFRAME_GEN_RBX };
	struct dw_sframe_gen_result r;

	EXPECT_EQ(-EINVAL, dw_sframe_gen_fd(-1, &o, &r));
}

TEST_HARNESS_MAIN
