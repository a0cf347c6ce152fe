// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for lib/sframe.c (decoder) against user/sframe/sframe_enc.c
 * (encoder): the round trips need the encoder, so they live in user/tests.
 *
 *   DUNWIND=path/to/dunwind sframe_test
 *
 * With $DUNWIND (user/Makefile's test target sets it), real binaries
 * built here with `gcc -Wa,--gsframe` are dumped and compared with
 * `objdump --sframe`.  Prints `ok N - name` / `not ok N - name` and a final
 * `N passed, N failed, N skipped` line; exits 1 on any failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sframe.h"
#include "sframe/sframe_enc.h"

static int n_test, n_pass, n_fail, n_skip;

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	n_test++;
	if (cond)
		n_pass++;
	else
		n_fail++;
	printf("%sok %d - ", cond ? "" : "not ", n_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void skip(const char *name, const char *why)
{
	n_test++;
	n_skip++;
	printf("ok %d - %s # SKIP %s\n", n_test, name, why);
}

/* ---- memory source with an optional failing range ---- */

struct mem {
	const __u8 *p;
	size_t n;
	__u64 fail_from;	/* reads touching [fail_from, n) fail; n = never */
	unsigned long reads;
};

static int mem_read(void *ctx, __u64 off, void *dst, __u32 len)
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

static int open_mem(struct dunwind_sframe_table *t, struct mem *m, const __u8 *p, size_t n,
		    __u64 vaddr)
{
	struct dunwind_sframe_src src = { mem_read, m, n };

	m->p = p;
	m->n = n;
	m->fail_from = n;
	m->reads = 0;
	return dunwind_sframe_open(t, &src, vaddr);
}

/* ---- the reference model: tables as the encoder was given them ---- */

#define SP DUNWIND_SFRAME_REG_SP
#define FP DUNWIND_SFRAME_REG_FP
#define R_UNDEF { DUNWIND_SFRAME_RULE_UNDEF, 0, 0, 0, 0 }
#define R_REG(r, d, o) { DUNWIND_SFRAME_RULE_REG, r, d, 0, o }
#define R_CFA(d, o) { DUNWIND_SFRAME_RULE_CFA, 0, d, 0, o }
#define ROW(pc, reg, cfaoff) \
	{ pc, 0, R_REG(reg, 0, cfaoff), R_CFA(1, -8), R_UNDEF, R_UNDEF, 0 }
#define ROWF(pc, reg, cfaoff, fpoff) \
	{ pc, 0, R_REG(reg, 0, cfaoff), R_CFA(1, -8), R_CFA(1, fpoff), R_UNDEF, 0 }
#define ROW_OUTER(pc) { pc, 1, R_UNDEF, R_UNDEF, R_UNDEF, R_UNDEF, 0 }

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
	{ 2, 0, R_REG(10, 0, 0), R_CFA(1, -8), R_UNDEF, R_UNDEF, 0 },
	{ 6, 0, R_REG(10, 0, 0), R_CFA(1, -8), R_CFA(1, -16), R_UNDEF, 0 },
	{ 9, 0, R_REG(FP, 1, -8), R_CFA(1, -8), R_CFA(1, -16), R_UNDEF, 0 },
	{ 0xc, 0, R_REG(SP, 0, 8), R_REG(11, 0, 0), R_REG(3, 1, 16), R_UNDEF, 0 },
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
#define N_BASE 6
#define N_ALL 7

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

static int rule_eq(const struct dunwind_sframe_rule *a, const struct dunwind_sframe_rule *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == DUNWIND_SFRAME_RULE_UNDEF)
		return 1;
	return a->deref == b->deref && a->off == b->off &&
	       (a->kind != DUNWIND_SFRAME_RULE_REG || a->reg == b->reg);
}

/* Decoder and model agree at @pc?  Prints the first disagreement. */
static int agree(const struct dunwind_sframe_table *t, const struct dw_sframe_enc_func *fs, int n,
		 __u64 pc, const char *what)
{
	struct dunwind_sframe_row row;
	struct model_hit h;
	int e1 = dunwind_sframe_find(t, pc, &row), e2 = model_find(fs, n, pc, &h);

	if (e1 != e2) {
		printf("# %s: pc 0x%llx: decoder %d, model %d\n", what, (unsigned long long)pc, e1,
		       e2);
		return 0;
	}
	if (e1)
		return 1;
	if (row.func_start != h.f->start || row.func_size != h.f->size || row.pc_lo != h.lo ||
	    row.pc_hi != h.hi) {
		printf("# %s: pc 0x%llx: range [%llx,%llx) want [%llx,%llx)\n", what,
		       (unsigned long long)pc, (unsigned long long)row.pc_lo,
		       (unsigned long long)row.pc_hi, (unsigned long long)h.lo,
		       (unsigned long long)h.hi);
		return 0;
	}
	if (!!(row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF) != !!h.r->ra_undef) {
		printf("# %s: pc 0x%llx: RA undefined mismatch\n", what, (unsigned long long)pc);
		return 0;
	}
	if (h.r->ra_undef)
		return 1;
	if (!rule_eq(&row.cfa, &h.r->cfa) || !rule_eq(&row.ra, &h.r->ra) ||
	    !rule_eq(&row.fp, &h.r->fp)) {
		printf("# %s: pc 0x%llx: rules cfa %d/%d/%d ra %d/%d fp %d/%d differ\n", what,
		       (unsigned long long)pc, row.cfa.kind, row.cfa.reg, row.cfa.off,
		       row.ra.kind, row.ra.off, row.fp.kind, row.fp.off);
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

struct variant {
	const char *name;
	struct dw_sframe_enc_opts o;
	int reverse;		/* write FDEs in reverse (unsorted) order */
};

#define SORTED DUNWIND_SFRAME_F_FDE_SORTED
#define PCREL DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL

static const struct variant variants[] = {
	{ "v1", { .version = 1, .flags = SORTED, .sec_vaddr = 0x400200 }, 0 },
	{ "v2", { .version = 2, .flags = SORTED, .sec_vaddr = 0x400200 }, 0 },
	{ "v2+PCREL", { .version = 2, .flags = SORTED | PCREL, .sec_vaddr = 0x400200 }, 0 },
	{ "v3", { .version = 3, .flags = SORTED | PCREL, .sec_vaddr = 0x400200 }, 0 },
	{ "v3-abs", { .version = 3, .flags = SORTED, .sec_vaddr = 0x500000 }, 0 },
	{ "v2-unsorted", { .version = 2, .flags = 0, .sec_vaddr = 0x400200 }, 1 },
	{ "v3-unsorted", { .version = 3, .flags = PCREL, .sec_vaddr = 0x400200 }, 1 },
	{ "v2+PCREL-wide", { .version = 2, .flags = SORTED | PCREL, .sec_vaddr = 0x400200,
			     .min_word_size = 4, .min_fre_type = 2 }, 0 },
	{ "v3-aux-2byte", { .version = 3, .flags = SORTED | PCREL, .sec_vaddr = 0x7f0000000000,
			    .min_word_size = 2, .min_fre_type = 1, .auxhdr_len = 9 }, 0 },
	{ "v1-fixedfp0", { .version = 1, .flags = SORTED | DUNWIND_SFRAME_F_FRAME_POINTER,
			   .sec_vaddr = 0x1000 }, 0 },
};

static int encode_variant(const struct variant *v, struct dw_sframe_enc_func *fs, int *n,
			  __u8 **out, size_t *len)
{
	int i;

	*n = v->o.version == 3 ? N_ALL : N_BASE;
	for (i = 0; i < *n; i++)
		fs[i] = funcs_base[v->reverse ? *n - 1 - i : i];
	return dw_sframe_encode(&v->o, fs, (__u32)*n, out, len);
}

static void test_roundtrip(void)
{
	size_t vi;

	for (vi = 0; vi < sizeof(variants) / sizeof(variants[0]); vi++) {
		const struct variant *v = &variants[vi];
		struct dw_sframe_enc_func fs[N_ALL];
		struct dunwind_sframe_table t;
		struct mem m;
		__u8 *buf = NULL;
		size_t len = 0;
		int n, i, err, checked = 0;

		err = encode_variant(v, fs, &n, &buf, &len);
		ok(!err, "%s: encoder writes %d functions (%zu bytes)", v->name, n, len);
		if (err)
			continue;
		err = open_mem(&t, &m, buf, len, v->o.sec_vaddr);
		ok(!err && t.version == v->o.version && t.num_fdes == (__u32)n &&
		   t.flags == v->o.flags, "%s: open accepts it (version %u, %u FDEs)", v->name,
		   t.version, t.num_fdes);
		ok(dunwind_sframe_validate(&t) == 0, "%s: validate accepts it", v->name);
		for (i = 0; i < n; i++)
			ok(check_func(&t, fs, n, &fs[i], v->name, &checked),
			   "%s: lookups at every boundary of func 0x%llx (%u rows)", v->name,
			   (unsigned long long)fs[i].start, fs[i].nrows);
		/* Gaps, and far away. */
		{
			__u64 far[] = { 0, 1, 0x401040, 0x4010ff, 0x401530, 0x401620, 0x401fff,
					0x430010, 0xffffffffffffffffull, 0x400200 };
			int good = 1;
			size_t k;

			for (k = 0; k < sizeof(far) / sizeof(far[0]); k++)
				good &= agree(&t, fs, n, far[k], v->name);
			ok(good, "%s: gaps between functions and far addresses are not covered",
			   v->name);
		}
		printf("# %s: %d boundary PCs checked\n", v->name, checked);
		free(buf);
	}
}

static void test_spot(void)
{
	const struct variant *v = &variants[0];
	struct dw_sframe_enc_func fs[N_ALL];
	struct dunwind_sframe_table t;
	struct dunwind_sframe_row r;
	struct mem m;
	__u8 *buf = NULL;
	size_t len;
	int n;

	if (encode_variant(v, fs, &n, &buf, &len) || open_mem(&t, &m, buf, len, 0x400200)) {
		ok(0, "spot: encode/open v1");
		return;
	}
	ok(!dunwind_sframe_find(&t, 0x401001, &r) && r.cfa.reg == SP && r.cfa.off == 16 &&
	   r.fp.kind == DUNWIND_SFRAME_RULE_CFA && r.fp.off == -16 && r.ra.off == -8 &&
	   r.pc_lo == 0x401001 && r.pc_hi == 0x401004 && dunwind_sframe_row_simple(&r),
	   "spot: 0x401001 is sp+16, fp at cfa-16, ra at cfa-8, row [0x401001,0x401004)");
	ok(!dunwind_sframe_find(&t, 0x40103e, &r) && r.cfa.reg == FP && r.cfa.off == 16 &&
	   r.pc_lo == 0x401004 && r.pc_hi == 0x40103f, "spot: 0x40103e is fp+16");
	ok(!dunwind_sframe_find(&t, 0x40141c, &r) && r.cfa.off == 16 && r.pc_lo == 0x40141b &&
	   r.pc_hi == 0x401420, "spot: PLT mask: 0x40141c (block 1, +0xc) is sp+16 in [..1b,..20)");
	ok(!dunwind_sframe_find(&t, 0x40142a, &r) && r.cfa.off == 8 && r.pc_lo == 0x401420,
	   "spot: PLT mask: 0x40142a (block 2, +0xa) is sp+8");
	ok(!dunwind_sframe_find(&t, 0x401502, &r) && (r.flags & DUNWIND_SFRAME_ROW_RA_UNDEF),
	   "spot: 0x401502 is an outermost frame (RA undefined)");
	ok(dunwind_sframe_find(&t, 0x401603, &r) == -DUNWIND_SFRAME_ENOENT &&
	   !dunwind_sframe_find(&t, 0x401604, &r),
	   "spot: a function whose first row starts late: 0x401603 not covered, 0x401604 is");
	ok(!dunwind_sframe_find(&t, 0x412005, &r) && r.cfa.off == 24 && r.pc_hi == 0x421fff,
	   "spot: 4-byte FRE starts: 0x412005 is sp+24 until 0x421fff");
	free(buf);

	v = &variants[3];
	if (encode_variant(v, fs, &n, &buf, &len) || open_mem(&t, &m, buf, len, v->o.sec_vaddr)) {
		ok(0, "spot: encode/open v3");
		return;
	}
	ok(!dunwind_sframe_find(&t, 0x430003, &r) && (r.flags & DUNWIND_SFRAME_ROW_FLEX) &&
	   (r.flags & DUNWIND_SFRAME_ROW_SIGNAL) && r.cfa.reg == 10 && !r.cfa.deref &&
	   !dunwind_sframe_row_simple(&r), "spot: v3 flex: 0x430003 CFA = r10, signal frame");
	ok(!dunwind_sframe_find(&t, 0x430009, &r) && r.cfa.reg == FP && r.cfa.deref &&
	   r.cfa.off == -8 && r.fp.off == -16, "spot: v3 flex: 0x430009 CFA = *(fp-8)");
	ok(!dunwind_sframe_find(&t, 0x43000c, &r) && r.ra.kind == DUNWIND_SFRAME_RULE_REG &&
	   r.ra.reg == 11 && r.fp.kind == DUNWIND_SFRAME_RULE_REG && r.fp.reg == 3 && r.fp.deref,
	   "spot: v3 flex: 0x43000c RA in r11, FP = *(rbx+16)");
	free(buf);
}

static void test_encoder_limits(void)
{
	struct dw_sframe_enc_opts o = { .version = 2, .flags = SORTED, .sec_vaddr = 0x1000 };
	struct dw_sframe_enc_func f = funcs_base[6];
	__u8 *buf = NULL;
	size_t len;

	ok(dw_sframe_encode(&o, &f, 1, &buf, &len) == -EINVAL,
	   "encoder refuses flex rows before v3");
	f = funcs_base[0];
	f.start = 0x1000 + 0x100000000ull;
	ok(dw_sframe_encode(&o, &f, 1, &buf, &len) == -ERANGE,
	   "encoder refuses a v2 start address beyond 32-bit reach");
	o.version = 3;
	ok(dw_sframe_encode(&o, &f, 1, &buf, &len) == 0, "v3 reaches it (64-bit start)");
	free(buf);
}

/* ---- hostile tables ---- */

static __u8 *valid_table(int version, __u8 flags, size_t *len)
{
	struct dw_sframe_enc_opts o = { .version = (__u8)version, .flags = flags,
					.sec_vaddr = 0x400200 };
	__u8 *buf = NULL;

	if (dw_sframe_encode(&o, funcs_base, version == 3 ? N_ALL : N_BASE, &buf, len))
		abort();
	return buf;
}

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

/* An FDE with more FREs than DUNWIND_SFRAME_MAX_FDE_FRES is refused, so no lookup scans more. */
static void test_fre_cap(void)
{
	static struct dw_sframe_enc_row rows[DUNWIND_SFRAME_MAX_FDE_FRES + 1];
	struct dw_sframe_enc_opts o = { .version = 2, .flags = DUNWIND_SFRAME_F_FDE_SORTED,
					.sec_vaddr = 0x400200 };
	struct dw_sframe_enc_func f = { .start = 0x401000, .size = 2 * (DUNWIND_SFRAME_MAX_FDE_FRES + 1) };
	__u32 i, n;

	for (i = 0; i < DUNWIND_SFRAME_MAX_FDE_FRES + 1; i++) {
		rows[i].pc_off = 2 * i;
		rows[i].cfa = (struct dunwind_sframe_rule){ DUNWIND_SFRAME_RULE_REG,
							    DUNWIND_SFRAME_REG_SP, 0, 0, 8 + 8 * (i % 4) };
		rows[i].ra = (struct dunwind_sframe_rule){ DUNWIND_SFRAME_RULE_CFA, 0, 1, 0, -8 };
	}
	for (n = DUNWIND_SFRAME_MAX_FDE_FRES; n <= DUNWIND_SFRAME_MAX_FDE_FRES + 1; n++) {
		__u8 *out = NULL;
		size_t len = 0;
		int err;

		f.nrows = n;
		f.rows = rows;
		if (dw_sframe_encode(&o, &f, 1, &out, &len)) {
			ok(0, "fre cap: encode %u rows", n);
			continue;
		}
		err = open_validate(out, len);
		if (n == DUNWIND_SFRAME_MAX_FDE_FRES)
			ok(err == 0, "fre cap: an FDE with %u FREs is accepted (%d)", n, err);
		else
			ok(err == -DUNWIND_SFRAME_EINVAL, "fre cap: an FDE with %u FREs -> EINVAL (%d)",
			   n, err);
		free(out);
	}
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

static void test_hostile(void)
{
	size_t len, l3, i;
	__u8 *v2 = valid_table(2, SORTED, &len), *v3 = valid_table(3, SORTED | PCREL, &l3);
	__u8 *b = malloc(len > l3 ? len : l3);
	struct dunwind_sframe_table t;
	struct dunwind_sframe_row r;
	struct mem m;
	int all;

#define MUT(base, blen, stmt) do { memcpy(b, base, blen); stmt; } while (0)
	MUT(v2, len, b[0] = 0x00);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL, "hostile: bad magic -> EINVAL");
	MUT(v2, len, (b[0] = 0xde, b[1] = 0xe2));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EOPNOTSUPP,
	   "hostile: big-endian magic -> EOPNOTSUPP");
	MUT(v2, len, b[2] = 4);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EOPNOTSUPP, "hostile: version 4 -> EOPNOTSUPP");
	MUT(v2, len, b[2] = 0);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EOPNOTSUPP, "hostile: version 0 -> EOPNOTSUPP");
	MUT(v2, len, b[4] = DUNWIND_SFRAME_ABI_AARCH64_LE);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EOPNOTSUPP,
	   "hostile: aarch64 LE -> EOPNOTSUPP");
	MUT(v2, len, b[4] = DUNWIND_SFRAME_ABI_AARCH64_BE);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EOPNOTSUPP,
	   "hostile: aarch64 BE -> EOPNOTSUPP");
	MUT(v2, len, b[4] = 77);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL, "hostile: unknown ABI -> EINVAL");
	MUT(v2, len, b[3] |= 0x40);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL, "hostile: unknown flag -> EINVAL");
	MUT(v3, l3, b[3] |= DUNWIND_SFRAME_F_FRAME_POINTER);
	ok(open_validate(b, l3) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: v3 with the removed FRAME_POINTER flag -> EINVAL");
	MUT(v2, len, b[6] = 0);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: no fixed RA offset -> EINVAL");
	MUT(v2, len, b[7] = 255);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: auxiliary header pushes sub-sections out -> EINVAL");
	MUT(v2, len, put32(b + 8, 0xffffffff));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL, "hostile: num_fdes 2^32-1 -> EINVAL");
	MUT(v2, len, put32(b + 12, 0x7fffffff));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL, "hostile: num_fres huge -> EINVAL");
	MUT(v2, len, put32(b + 12, get32(b + 12) + 1));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: num_fres one more than the FDEs use -> EINVAL");
	MUT(v2, len, put32(b + 16, get32(b + 16) + 1));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: fre_len past the end -> EINVAL");
	MUT(v2, len, put32(b + 20, 0xfffffff0));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: fdeoff past the end -> EINVAL");
	MUT(v2, len, put32(b + 24, 4));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: FRE sub-section overlapping the FDEs -> EINVAL");
	ok(open_validate(v2, 20) == -DUNWIND_SFRAME_EINVAL, "hostile: 20-byte section -> EINVAL");

	/* FDE level (v2 FDEs at 28 + 20*i). */
	MUT(v2, len, (put32(b + 28 + 20, get32(b + 28)))); /* FDE1 start = FDE0 start */
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: sorted flag but overlapping FDEs -> EINVAL");
	MUT(v2, len, (put32(b + 28, get32(b + 28 + 40))));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: sorted flag but unsorted FDEs -> EINVAL");
	ok(find_sane(b, len), "hostile: lookups on the unsorted table stay consistent");
	MUT(v2, len, put32(b + 28 + 8, 0x7fffffff));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: FDE FRE offset out of bounds");
	open_mem(&t, &m, b, len, 0x400200);
	ok(dunwind_sframe_find(&t, 0x401000, &r) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: lookup in that FDE fails cleanly");
	MUT(v2, len, put32(b + 28 + 12, 100000));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: FDE with 100000 FREs -> EINVAL");
	MUT(v2, len, b[28 + 40 + 17] = 0);		/* FDE2 is the PLT (mask) */
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL, "hostile: PC mask with rep size 0");
	open_mem(&t, &m, b, len, 0x400200);
	ok(dunwind_sframe_find(&t, 0x401405, &r) == -DUNWIND_SFRAME_EINVAL &&
	   dunwind_sframe_find(&t, 0x401001, &r) == 0,
	   "hostile: rep size 0: lookup there fails, elsewhere works");
	MUT(v2, len, b[28 + 16] = (b[28 + 16] & 0xf0) | 3);
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL, "hostile: FRE type 3 -> EINVAL");
	MUT(v2, len, put32(b + 28 + 4, 0xfffffff0));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: function size overlapping the next -> EINVAL");
	MUT(v2, len, put32(b + 28, 0x80000000));
	ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
	   "hostile: start address below 0 -> EINVAL");

	/* FRE level: FREs of FDE0 start at 28 + 6*20: [start][info][words]. */
	{
		size_t fre0 = 28 + 6 * 20;

		MUT(v2, len, b[fre0 + 1] |= 0x60);
		ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL, "hostile: FRE word size 3");
		MUT(v2, len, b[fre0 + 1] = (__u8)((b[fre0 + 1] & ~0x1e) | 3 << 1));
		ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
		   "hostile: 3 data words in an AMD64 default FRE");
		MUT(v2, len, b[fre0 + 1] |= 0x1e);
		ok(open_validate(b, len) != 0, "hostile: 15 data words run past the FREs");
		MUT(v2, len, b[fre0 + 3] = 0x50);	/* FRE1 start 0x50 > FRE2 start, > size */
		ok(open_validate(b, len) == -DUNWIND_SFRAME_EINVAL,
		   "hostile: FRE starts out of order / past the function");
	}
	/* v3: attributes at FRE sub-section + fre_off. */
	{
		size_t fre_sub = 28 + N_ALL * 16,
		       flex_attr = fre_sub + get32(v3 + 28 + 6 * 16 + 12);

		MUT(v3, l3, b[flex_attr + 3] = 5);
		ok(open_validate(b, l3) == -DUNWIND_SFRAME_EOPNOTSUPP,
		   "hostile: v3 unknown FDE type -> EOPNOTSUPP");
		MUT(v3, l3, b[flex_attr + 5 + 2] |= 4);		/* reserved control bit */
		ok(open_validate(b, l3) == -DUNWIND_SFRAME_EINVAL,
		   "hostile: v3 flex control word with a reserved bit -> EINVAL");
		MUT(v3, l3, b[flex_attr + 5 + 2] = 2);		/* CFA not register based */
		ok(open_validate(b, l3) == -DUNWIND_SFRAME_EINVAL,
		   "hostile: v3 flex CFA not register based -> EINVAL");
		MUT(v3, l3, b[flex_attr] = 0xff);
		ok(open_validate(b, l3) == -DUNWIND_SFRAME_EINVAL,
		   "hostile: v3 FRE count too large");
		MUT(v3, l3, put32(b + 28 + 6 * 16 + 12, 0xfffffff0));
		ok(open_validate(b, l3) == -DUNWIND_SFRAME_EINVAL,
		   "hostile: v3 attributes out of bounds");
	}
	/* Every truncation of valid tables is rejected by open or validate. */
	all = 1;
	for (i = 0; i < len; i++)
		if (open_validate(v2, i) == 0)
			all = 0;
	for (i = 0; i < l3; i++)
		if (open_validate(v3, i) == 0)
			all = 0;
	ok(all, "hostile: all %zu + %zu truncations rejected", len, l3);
	/* A failing read callback is passed up, never a crash. */
	{
		int good = 1;
		__u64 f;

		for (f = 0; f < len; f += 7) {
			int err = open_mem(&t, &m, v2, len, 0x400200);

			m.fail_from = f;
			if (!err)
				err = dunwind_sframe_validate(&t);
			if (err != -14 && err != 0)
				good = 0;
			if (!dunwind_sframe_open(&t, &t.src, 0x400200)) {
				m.fail_from = f;
				err = dunwind_sframe_find(&t, 0x401001, &r);
				if (err && err != -14)
					good = 0;
			}
		}
		ok(good, "hostile: read faults at every offset return the callback's -14");
	}
	/* Random byte flips: never crash, lookups consistent, some rejected. */
	{
		unsigned int seed = 12345, k, rejected = 0, good = 1;
		const int rounds = 20000;

		for (k = 0; k < (unsigned int)rounds; k++) {
			const __u8 *base = (k & 1) ? v3 : v2;
			size_t bl = (k & 1) ? l3 : len;
			int flips = 1 + (int)(rand_r(&seed) % 4), q;

			memcpy(b, base, bl);
			for (q = 0; q < flips; q++)
				b[rand_r(&seed) % bl] ^= (__u8)(1u << (rand_r(&seed) % 8));
			if (open_validate(b, bl))
				rejected++;
			if (!find_sane(b, bl))
				good = 0;
		}
		ok(good && rejected > 0, "hostile: %d random mutations: no crash, lookups "
		   "consistent, %u rejected", rounds, rejected);
	}
	free(v2);
	free(v3);
	free(b);
}

/* ---- real binaries built here ---- */

static int run(const char *cmd)
{
	int rc = system(cmd);

	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

static char *slurp_cmd(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 4096, n = 0, r;
	char *s = malloc(cap);

	if (!p || !s) {
		free(s);
		if (p)
			pclose(p);
		return NULL;
	}
	while ((r = fread(s + n, 1, cap - n - 1, p)) > 0) {
		n += r;
		if (n + 1 == cap) {
			cap *= 2;
			s = realloc(s, cap);
			if (!s)
				abort();
		}
	}
	s[n] = 0;
	if (pclose(p) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

/* Load .sframe of an ELF file with libelf. */
static int load_sframe(const char *path, __u8 **data, size_t *len, __u64 *vaddr)
{
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int fd = open(path, O_RDONLY), err = -ENOENT;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_getshdrstrndx(e, &shstrndx) == 0) {
		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;
			const char *name;

			if (!gelf_getshdr(scn, &sh))
				continue;
			name = elf_strptr(e, shstrndx, sh.sh_name);
			if (!name || strcmp(name, ".sframe"))
				continue;
			d = elf_getdata(scn, NULL);
			if (!d)
				break;
			*data = malloc(d->d_size);
			memcpy(*data, d->d_buf, d->d_size);
			*len = d->d_size;
			*vaddr = sh.sh_addr;
			err = 0;
			break;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return err;
}

static const char *prog_c =
	"#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n"
	"int __attribute__((noinline)) leaf(int x) { return x * 3 + 1; }\n"
	"int __attribute__((noinline)) mid(int n) { char buf[256]; int s = 0;\n"
	"  memset(buf, n, sizeof buf); for (int i = 0; i < n; i++) s += leaf(buf[i % 256]);\n"
	"  return s; }\n"
	"static int __attribute__((noinline)) big(int n) { volatile char a[70000];\n"
	"  for (int i = 0; i < n; i++) a[i % 70000] = (char)i; return a[n % 70000]; }\n"
	"int __attribute__((noinline)) va(int n, ...) { char *p = alloca(n + 16);\n"
	"  memset(p, 1, n + 16); return p[n]; }\n"
	"int main(int argc, char **argv) { (void)argv;\n"
	"  printf(\"%d %d %d\\n\", mid(argc * 100), big(argc), va(argc * 40));\n"
	"  return 0; }\n";

static const char *prog_s =
	"\t.text\n\t.globl f\n\t.type f,@function\nf:\n\t.cfi_startproc\n"
	"\tpush %rbp\n\t.cfi_def_cfa_offset 16\n\t.cfi_offset %rbp, -16\n"
	"\tmov %rsp, %rbp\n\t.cfi_def_cfa_register %rbp\n\t.rept 300\n\tnop\n\t.endr\n"
	"\tleave\n\t.cfi_def_cfa %rsp, 8\n\tret\n\t.cfi_endproc\n\t.size f, .-f\n"
	"\t.globl g\n\t.type g,@function\ng:\n\t.cfi_startproc\n\tsub $4096, %rsp\n"
	"\t.cfi_adjust_cfa_offset 4096\n\t.rept 70000\n\tnop\n\t.endr\n\tadd $4096, %rsp\n"
	"\t.cfi_adjust_cfa_offset -4096\n\tret\n\t.cfi_endproc\n\t.size g, .-g\n";

/* Every PC of every function: original and re-encoded tables give the same rows. */
static void reencode_check(const char *name, const __u8 *sec, size_t len, __u64 vaddr)
{
	static const struct { const char *n; __u8 ver, flags; } to[] = {
		{ "v1", 1, SORTED }, { "v2", 2, SORTED }, { "v2+PCREL", 2, SORTED | PCREL },
		{ "v3", 3, SORTED | PCREL },
	};
	struct dunwind_sframe_table t, t2;
	struct dunwind_sframe_fde fde;
	struct dunwind_sframe_fre fre;
	struct dunwind_sframe_row row;
	struct dw_sframe_enc_func *fs;
	struct mem m, m2;
	size_t k;
	__u32 i, j;

	if (open_mem(&t, &m, sec, len, vaddr)) {
		ok(0, "%s: reopen", name);
		return;
	}
	fs = calloc(t.num_fdes + 1, sizeof(*fs));
	for (i = 0; i < t.num_fdes; i++) {
		struct dw_sframe_enc_row *rows;
		__u64 off;

		dunwind_sframe_get_fde(&t, i, &fde);
		rows = calloc(fde.num_fres + 1, sizeof(*rows));
		fs[i] = (struct dw_sframe_enc_func){ fde.start, fde.size, fde.pc_type, fde.rep_size,
						     fde.signal, fde.num_fres, rows };
		off = fde.fres_off;
		for (j = 0; j < fde.num_fres; j++) {
			dunwind_sframe_get_fre(&t, &fde, off, &fre);
			dunwind_sframe_fre_rules(&t, &fde, &fre, &row);
			off += fre.len;
			rows[j].pc_off = fre.start;
			rows[j].ra_undef = !!(row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF);
			rows[j].cfa = row.cfa;
			rows[j].ra = row.ra;
			rows[j].fp = row.fp;
		}
	}
	for (k = 0; k < sizeof(to) / sizeof(to[0]); k++) {
		/* Keep "sorted" only if the original says so (objects are not). */
		struct dw_sframe_enc_opts o = {
			.version = to[k].ver,
			.flags = (__u8)((to[k].flags & ~SORTED) | (t.flags & SORTED)),
			.sec_vaddr = vaddr + 0x100000 };
		__u8 *buf = NULL;
		size_t blen;
		int good = 1, err;
		unsigned long pcs = 0;

		err = dw_sframe_encode(&o, fs, t.num_fdes, &buf, &blen);
		if (!err)
			err = open_mem(&t2, &m2, buf, blen, o.sec_vaddr);
		if (!err)
			err = dunwind_sframe_validate(&t2);
		if (err)
			printf("# %s -> %s: error %d\n", name, to[k].n, err);
		for (i = 0; !err && i < t.num_fdes; i++) {
			__u64 pc;

			for (pc = fs[i].start ? fs[i].start - 1 : 0; pc <= fs[i].start + fs[i].size;
			     pc++, pcs++) {
				struct dunwind_sframe_row a, b;
				int e1 = dunwind_sframe_find(&t, pc, &a);
				int e2 = dunwind_sframe_find(&t2, pc, &b);

				if (e1 != e2 || (!e1 && (a.pc_lo != b.pc_lo || a.pc_hi != b.pc_hi ||
							 a.flags != b.flags ||
							 !rule_eq(&a.cfa, &b.cfa) ||
							 !rule_eq(&a.fp, &b.fp) ||
							 !rule_eq(&a.ra, &b.ra)))) {
					if (good)
						printf("# %s -> %s: pc 0x%llx differs (%d/%d)\n",
						       name, to[k].n, (unsigned long long)pc, e1,
						       e2);
					good = 0;
				}
			}
		}
		ok(!err && good, "%s: re-encoded as %s, all %lu PCs look up the same", name,
		   to[k].n, pcs);
		free(buf);
	}
	for (i = 0; i < t.num_fdes; i++)
		free((void *)fs[i].rows);
	free(fs);
}

static void test_real(const char *tool)
{
	char dir[] = "/tmp/dw_sframe_XXXXXX", cmd[4096], path[512];
	static const struct { const char *name, *src, *cc; } bins[] = {
		{ "O2-omit-fp", "p.c", "gcc -O2 -fomit-frame-pointer -Wa,--gsframe" },
		{ "O0-frame-pointer", "p.c", "gcc -O0 -fno-omit-frame-pointer -Wa,--gsframe" },
		{ "shared-lib", "p.c", "gcc -O2 -fPIC -shared -Wa,--gsframe" },
		{ "asm-object", "s.S", "gcc -c -Wa,--gsframe" },
		{ "asm-linked", "s.S", "gcc -shared -nostdlib -Wa,--gsframe" },
	};
	size_t k;
	FILE *fp;

	if (!mkdtemp(dir)) {
		skip("real binaries", "mkdtemp failed");
		return;
	}
	snprintf(path, sizeof(path), "%s/p.c", dir);
	fp = fopen(path, "w");
	fputs(prog_c, fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/s.S", dir);
	fp = fopen(path, "w");
	fputs(prog_s, fp);
	fclose(fp);
	for (k = 0; k < sizeof(bins) / sizeof(bins[0]); k++) {
		char name[64], *ours, *theirs, *c;
		__u8 *sec = NULL;
		size_t len;
		__u64 vaddr;
		struct dunwind_sframe_table t;
		struct mem m;
		int err;

		snprintf(name, sizeof(name), "real %s", bins[k].name);
		snprintf(cmd, sizeof(cmd), "cd %s && %s -o b%zu %s 2>/dev/null", dir, bins[k].cc, k,
			 bins[k].src);
		if (run(cmd) != 0) {
			skip(name, "gcc -Wa,--gsframe unavailable (binutils >= 2.40 needed)");
			continue;
		}
		snprintf(path, sizeof(path), "%s/b%zu", dir, k);
		if (load_sframe(path, &sec, &len, &vaddr)) {
			ok(0, "%s: has .sframe", name);
			continue;
		}
		memset(&t, 0, sizeof(t));
		err = open_mem(&t, &m, sec, len, vaddr);
		if (!err)
			err = dunwind_sframe_validate(&t);
		ok(!err, "%s: v%u table (%u FDEs, %u FREs) opens and validates", name, t.version,
		   t.num_fdes, t.num_fres);
		if (k == 0) {
			/* Functions start where the symbol table says. */
			char *nm;
			int good = 1, seen = 0;

			snprintf(cmd, sizeof(cmd), "nm %s", path);
			nm = slurp_cmd(cmd);
			for (c = nm; c && *c; c = strchr(c, '\n') ? strchr(c, '\n') + 1 : "") {
				unsigned long long a;
				char ty, sym[128];
				struct dunwind_sframe_row r;

				if (sscanf(c, "%llx %c %127s", &a, &ty, sym) != 3 ||
				    (ty != 'T' && ty != 't') || (strcmp(sym, "main") &&
				    strcmp(sym, "leaf") && strcmp(sym, "mid") && strcmp(sym, "va")))
					continue;
				seen++;
				if (dunwind_sframe_find(&t, a, &r) || r.func_start != a ||
				    r.pc_lo != a || r.cfa.reg != SP || r.cfa.off != 8)
					good = 0;
			}
			ok(nm && good && seen == 4, "%s: main/leaf/mid/va start at their symbols "
			   "with CFA = sp+8 (%d checked)", name, seen);
			free(nm);
		}
		if (!tool) {
			skip(name, "no dunwind given (set DUNWIND)");
		} else {
			snprintf(cmd, sizeof(cmd), "objdump --sframe=.sframe %s 2>/dev/null", path);
			theirs = slurp_cmd(cmd);
			snprintf(cmd, sizeof(cmd), "%s dump %s", tool, path);
			ours = slurp_cmd(cmd);
			c = theirs ? strstr(theirs, "Contents of the SFrame section") : NULL;
			if (!c) {
				skip(name, "objdump --sframe unavailable");
			} else {
				int same = ours && !strcmp(ours, c);

				if (!same && ours) {
					char a[512], b[512];

					snprintf(a, sizeof(a), "%s/ours%zu", dir, k);
					snprintf(b, sizeof(b), "%s/theirs%zu", dir, k);
					fp = fopen(a, "w");
					fputs(ours, fp);
					fclose(fp);
					fp = fopen(b, "w");
					fputs(c, fp);
					fclose(fp);
					printf("# dump differs: diff %s %s\n", b, a);
				}
				ok(same, "%s: `dunwind sframe dump` matches `objdump --sframe`",
				   name);
			}
			free(theirs);
			free(ours);
		}
		if (tool && k == 0) {
			/* `encode` then `find` on the bare v3 section answers like the ELF. */
			char *a = NULL, *b = NULL, pcs[2048] = "";
			struct dunwind_sframe_fde fde;
			__u32 i;
			size_t used = 0;

			for (i = 0; i < t.num_fdes && used + 64 < sizeof(pcs); i++) {
				if (dunwind_sframe_get_fde(&t, i, &fde))
					break;
				used += (size_t)snprintf(
					pcs + used, sizeof(pcs) - used, " 0x%llx 0x%llx",
					(unsigned long long)fde.start + 1,
					(unsigned long long)fde.start + fde.size - 1);
			}
			snprintf(cmd, sizeof(cmd),
				 "%s encode --version 3 -o %s/b0.v3 %s >/dev/null && "
				 "%s find --raw --vaddr 0x%llx %s/b0.v3%s",
				 tool, dir, path, tool, (unsigned long long)vaddr, dir, pcs);
			b = slurp_cmd(cmd);
			snprintf(cmd, sizeof(cmd), "%s find %s%s", tool, path, pcs);
			a = slurp_cmd(cmd);
			ok(a && b && !strcmp(a, b) && strstr(a, "cfa=sp+8"),
			   "%s: `sframe encode --version 3` + `find --raw` answers like the ELF",
			   name);
			free(a);
			free(b);
		}
		reencode_check(name, sec, len, vaddr);
		free(sec);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	run(cmd);
}

static void test_tool(const char *tool, const char *bin)
{
	char cmd[2048], *out;

	if (!tool) {
		skip("tool", "no dunwind given (set DUNWIND)");
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s dump /nonexistent 2>&1; echo rc=$?", tool);
	out = slurp_cmd(cmd);
	ok(out && strstr(out, "No such file") && strstr(out, "rc=1"),
	   "tool: missing file is reported, exit 1");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s dump %s 2>&1; echo rc=$?", tool, bin);
	out = slurp_cmd(cmd);
	ok(out && strstr(out, "no .sframe section") && strstr(out, "rc=1"),
	   "tool: ELF without .sframe says how to get one");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s frobnicate 2>&1; echo rc=$?", tool);
	out = slurp_cmd(cmd);
	ok(out && strstr(out, "unknown verb") && strstr(out, "rc=2"), "tool: unknown verb, exit 2");
	free(out);
}

int main(void)
{
	const char *bin = getenv("DUNWIND");
	char tool_buf[512];
	const char *tool = NULL;

	if (bin && bin[0]) {
		snprintf(tool_buf, sizeof(tool_buf), "%s sframe", bin);
		tool = tool_buf;
	}

	test_roundtrip();
	test_spot();
	test_encoder_limits();
	test_hostile();
	test_fre_cap();
	test_tool(tool, bin);
	test_real(tool);
	printf("%d passed, %d failed, %d skipped\n", n_pass, n_fail, n_skip);
	return n_fail ? 1 : 0;
}
