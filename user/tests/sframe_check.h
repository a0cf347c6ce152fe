/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checking generated SFrame tables (sframe_gen.c) against libdw's CFI:
 * the tables are decoded with the shared decoder (lib/sframe.h) and
 * compared, PC by PC, with what libdw's CFI evaluator says there.  The
 * comparison evaluates both sides numerically on two made-up register
 * states (so a rule based on the wrong register or offset shows), instead
 * of re-deriving the generator's mapping.  Used by sframe_gen_test.c and
 * sframe_cache_test.c.
 */
#ifndef DW_TEST_SFRAME_CHECK_H
#define DW_TEST_SFRAME_CHECK_H

#include <fcntl.h>
#include <gelf.h>
#include <elfutils/libdw.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sframe.h"
#include "sframe/sframe_gen.h"

#define T_OP_BREG6		0x76
#define T_OP_BREG7		0x77
#define T_OP_PLUS_UCONST	0x23
#define T_OP_BREGX		0x92
#define T_OP_CFA		0x9c
#define T_OP_STACK_VALUE	0x9f

/* ---------- the oracle: libdw's CFI, evaluated on a made-up state ---------- */

/* K_EXPR: a CFA expression the oracle could evaluate (SFrame may cover it). */
enum { K_NO_CFI, K_INEXPR, K_OUTER, K_RULE, K_EXPR };
enum { FP_SAME, FP_AT };

struct t_regs {
	__u64 sp, fp;
};

struct t_val {
	int kind;
	__u64 cfa, ra_addr;
	int fp_kind;
	__u64 fp_addr;
};

static const struct t_regs t_states[2] = {
	{ .sp = 0x7ffe00001000ull, .fp = 0x7ffe00009000ull },
	{ .sp = 0x500000002000ull, .fp = 0x500000000100ull },
};

struct t_cfi {
	Elf *elf;
	int fd;
	Dwarf *dw;
	Dwarf_CFI *eh, *dbg;
};

static int t_cfi_open(struct t_cfi *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->fd = open(path, O_RDONLY);
	if (c->fd < 0)
		return -1;
	c->elf = elf_begin(c->fd, ELF_C_READ_MMAP, NULL);
	if (!c->elf)
		return -1;
	c->eh = dwarf_getcfi_elf(c->elf);
	c->dw = dwarf_begin_elf(c->elf, DWARF_C_READ, NULL);
	if (c->dw)
		c->dbg = dwarf_getcfi(c->dw);
	return 0;
}

static void t_cfi_close(struct t_cfi *c)
{
	if (c->eh)
		dwarf_cfi_end(c->eh);
	if (c->dw)
		dwarf_end(c->dw);
	if (c->elf)
		elf_end(c->elf);
	if (c->fd >= 0)
		close(c->fd);
}

/* An address "CFA + k" from a register rule: 1 and *addr, or 0. */
static int t_at_cfa(const Dwarf_Op *ops, size_t n, __u64 cfa, __u64 *addr)
{
	if (!ops || !n || ops[0].atom != T_OP_CFA)
		return 0;
	if (n == 1) {
		*addr = cfa;
		return 1;
	}
	if (n == 2 && ops[1].atom == T_OP_PLUS_UCONST) {
		*addr = cfa + ops[1].number;
		return 1;
	}
	return 0;
}

/* Evaluate a CFA expression using only SP, FP and the PC; 0 on success. */
static int t_eval(const Dwarf_Op *ops, size_t n, __u64 pc, const struct t_regs *s, __u64 *val)
{
	__u64 st[16], a, b;
	size_t i, sp = 0;
	unsigned int op;

	for (i = 0; i < n; i++) {
		op = ops[i].atom;
		if (sp >= 15)
			return -1;
		if (op >= 0x30 && op <= 0x4f) {			/* DW_OP_litN */
			st[sp++] = op - 0x30;
		} else if (op == 0x76 || op == 0x77 || op == 0x80) {	/* breg6, 7, 16 */
			st[sp++] = (op == 0x76 ? s->fp : op == 0x77 ? s->sp : pc) + ops[i].number;
		} else if (op == T_OP_PLUS_UCONST && sp >= 1) {
			st[sp - 1] += ops[i].number;
		} else if ((op == 0x1a || op == 0x2a || op == 0x24 || op == 0x22) && sp >= 2) {
			b = st[--sp];
			a = st[sp - 1];
			st[sp - 1] = op == 0x1a ? (a & b) : op == 0x2a ? ((__s64)a >= (__s64)b) :
				     op == 0x24 ? (b < 64 ? a << b : 0) : a + b;
		} else {
			return -1;
		}
	}
	if (sp != 1)
		return -1;
	*val = st[0];
	return 0;
}

/* What libdw's CFI says at @pc, evaluated on state @s. */
static void t_oracle(const struct t_cfi *c, __u64 pc, const struct t_regs *s, struct t_val *v)
{
	Dwarf_Frame *f;
	Dwarf_Op mem[3], *ops;
	Dwarf_Addr lo, hi;
	size_t n;
	bool sig;
	int ra;
	__s64 off;
	__u64 base, a;
	int expr = 0;

	memset(v, 0, sizeof(*v));
	if ((!c->eh || dwarf_cfi_addrframe(c->eh, pc, &f)) &&
	    (!c->dbg || dwarf_cfi_addrframe(c->dbg, pc, &f))) {
		v->kind = K_NO_CFI;
		return;
	}
	v->kind = K_INEXPR;
	ra = dwarf_frame_info(f, &lo, &hi, &sig);
	if (ra != 16 || sig || dwarf_frame_register(f, 16, mem, &ops, &n))
		goto out;
	if (!n && ops == mem) {
		v->kind = K_OUTER;
		goto out;
	}
	if (dwarf_frame_cfa(f, &ops, &n) || !n)
		goto out;
	if (n == 1 && ops[0].atom == T_OP_BREGX && (ops[0].number == 6 || ops[0].number == 7)) {
		base = ops[0].number == 7 ? s->sp : s->fp;
		off = (__s64)ops[0].number2;
	} else if (n == 1 && (ops[0].atom == T_OP_BREG6 || ops[0].atom == T_OP_BREG7)) {
		base = ops[0].atom == T_OP_BREG7 ? s->sp : s->fp;
		off = (__s64)ops[0].number;
	} else if (!t_eval(ops, n, pc, s, &v->cfa)) {
		expr = 1;
		base = v->cfa;
		off = 0;
	} else {
		goto out;
	}
	if (off < INT32_MIN || off > INT32_MAX)
		goto out;
	v->cfa = base + (__u64)off;
	if (dwarf_frame_register(f, 16, mem, &ops, &n) || !t_at_cfa(ops, n, v->cfa, &v->ra_addr) ||
	    v->ra_addr != v->cfa - 8)
		goto out;
	/* The caller's SP must be the CFA (a value, not a location). */
	if (dwarf_frame_register(f, 7, mem, &ops, &n) || n < 2 ||
	    ops[n - 1].atom != T_OP_STACK_VALUE || !t_at_cfa(ops, n - 1, v->cfa, &a) ||
	    a != v->cfa)
		goto out;
	if (dwarf_frame_register(f, 6, mem, &ops, &n))
		goto out;
	if (!n) {
		v->fp_kind = FP_SAME;
	} else if (t_at_cfa(ops, n, v->cfa, &v->fp_addr) &&
		   (__s64)(v->fp_addr - v->cfa) >= INT32_MIN &&
		   (__s64)(v->fp_addr - v->cfa) <= INT32_MAX) {
		v->fp_kind = FP_AT;
	} else {
		goto out;
	}
	v->kind = expr ? K_EXPR : K_RULE;
out:
	free(f);
}

/* The same from a decoded SFrame row. */
static void t_sframe_val(const struct dunwind_sframe_row *row, const struct t_regs *s,
			 struct t_val *v)
{
	memset(v, 0, sizeof(*v));
	if (row->flags & DUNWIND_SFRAME_ROW_RA_UNDEF) {
		v->kind = K_OUTER;
		return;
	}
	if (!dunwind_sframe_row_simple(row)) {
		v->kind = K_INEXPR;
		return;
	}
	v->kind = K_RULE;
	v->cfa = (row->cfa.reg == DUNWIND_SFRAME_REG_SP ? s->sp : s->fp) +
		 (__u64)(__s64)row->cfa.off;
	v->ra_addr = v->cfa + (__u64)(__s64)row->ra.off;
	if (row->fp.kind == DUNWIND_SFRAME_RULE_CFA) {
		v->fp_kind = FP_AT;
		v->fp_addr = v->cfa + (__u64)(__s64)row->fp.off;
	}
}

/* @a from the CFI, @b from SFrame. */
static int t_same(const struct t_val *a, const struct t_val *b)
{
	int ak = a->kind == K_EXPR ? K_RULE : a->kind;

	if (ak != b->kind)
		return 0;
	if (ak != K_RULE)
		return 1;
	return a->cfa == b->cfa && a->ra_addr == b->ra_addr && a->fp_kind == b->fp_kind &&
	       (a->fp_kind != FP_AT || a->fp_addr == b->fp_addr);
}

/* ---------- decoding a generated table from memory ---------- */

struct t_mem {
	const __u8 *p;
	size_t n;
};

static int t_mem_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	const struct t_mem *m = ctx;

	if (off > m->n || len > m->n - off)
		return -DUNWIND_SFRAME_EFAULT;
	memcpy(dst, m->p + off, len);
	return 0;
}

static int t_open(const struct dw_sframe_gen_result *r, struct t_mem *m,
		  struct dunwind_sframe_table *t)
{
	struct dunwind_sframe_src src = { .read = t_mem_read, .ctx = m };

	m->p = r->table;
	m->n = r->table_size;
	src.size = r->table_size;
	return dunwind_sframe_open(t, &src, r->sec_vaddr);
}

struct t_cmp {
	__u64 pcs, covered, mismatches, missed, bad_rows, errors, no_cfi;
};

/* Compare table and CFI at every @step-th PC of [lo, hi). */
static void t_compare(const struct t_cfi *c, const struct dunwind_sframe_table *t, __u64 lo,
		      __u64 hi, unsigned int step, struct t_cmp *k)
{
	struct dunwind_sframe_row row;
	struct t_val want, got;
	__u64 pc;
	int err, i, shown = 0;

	for (pc = lo; pc < hi; pc += step) {
		k->pcs++;
		err = dunwind_sframe_find(t, pc, &row);
		t_oracle(c, pc, &t_states[0], &want);
		if (err == -DUNWIND_SFRAME_ENOENT) {
			/* Uncovered: CFI must be absent or not expressible. */
			if (want.kind == K_RULE || want.kind == K_OUTER) {
				if (shown++ < 5)
					printf("# %#llx: uncovered but CFI is expressible\n",
					       (unsigned long long)pc);
				k->missed++;
			}
			continue;
		}
		if (err) {
			k->errors++;
			continue;
		}
		k->covered++;
		/* Code without CFI, covered from its instructions: gap_scan_test. */
		if (want.kind == K_NO_CFI) {
			k->no_cfi++;
			continue;
		}
		if (pc < row.pc_lo || pc >= row.pc_hi || pc < row.func_start ||
		    pc - row.func_start >= row.func_size)
			k->bad_rows++;
		for (i = 0; i < 2; i++) {
			if (i)
				t_oracle(c, pc, &t_states[i], &want);
			t_sframe_val(&row, &t_states[i], &got);
			if (!t_same(&want, &got)) {
				if (shown++ < 5)
					printf("# %#llx: sframe kind %d cfa %#llx fp %d/%#llx, "
					       "CFI kind %d cfa %#llx fp %d/%#llx\n",
					       (unsigned long long)pc, got.kind,
					       (unsigned long long)got.cfa, got.fp_kind,
					       (unsigned long long)got.fp_addr, want.kind,
					       (unsigned long long)want.cfa, want.fp_kind,
					       (unsigned long long)want.fp_addr);
				k->mismatches++;
				break;
			}
		}
	}
}

/* Executable PT_LOAD ranges of @path (up to 8). */
static int t_exec_ranges(const struct t_cfi *c, __u64 *lo, __u64 *hi, int max)
{
	size_t phnum, i;
	GElf_Phdr ph;
	int n = 0;

	if (elf_getphdrnum(c->elf, &phnum))
		return 0;
	for (i = 0; i < phnum && n < max; i++) {
		if (gelf_getphdr(c->elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X)) {
			lo[n] = ph.p_vaddr;
			hi[n] = ph.p_vaddr + ph.p_memsz;
			n++;
		}
	}
	return n;
}

/* Generate @path in @version, validate, and compare every @step-th PC. */
/* Address of symbol @name in @path (0 if not found). */
static __u64 t_sym(const char *path, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *d;
	__u64 addr = 0;
	size_t i;
	int fd = open(path, O_RDONLY);
	Elf *e;

	if (fd < 0)
		return 0;
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !addr && (scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			const char *n;

			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			n = elf_strptr(e, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, name)) {
				addr = sym.st_value;
				break;
			}
		}
	}
	elf_end(e);
	close(fd);
	return addr;
}

/* Address of section @name in @path (0 if not found). */
static __u64 t_section(const char *path, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr;
	__u64 addr = 0;
	int fd = open(path, O_RDONLY);
	Elf *e;

	if (fd < 0)
		return 0;
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !elf_getshdrstrndx(e, &shstr) && (scn = elf_nextscn(e, scn))) {
		const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstr, sh.sh_name) : NULL;

		if (n && !strcmp(n, name)) {
			addr = sh.sh_addr;
			break;
		}
	}
	elf_end(e);
	close(fd);
	return addr;
}

/* Rule at @pc in @r's table: 0 and @row, or the decoder's error. */
static int t_find(const struct dw_sframe_gen_result *r, __u64 pc, struct dunwind_sframe_row *row)
{
	struct dunwind_sframe_table t;
	struct t_mem m;
	int err = t_open(r, &m, &t);

	return err ? err : dunwind_sframe_find(&t, pc, row);
}

static int t_rule(const struct dw_sframe_gen_result *r, __u64 pc, int reg, int off, int fp_off)
{
	struct dunwind_sframe_row row;

	if (t_find(r, pc, &row) || (row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF) ||
	    !dunwind_sframe_row_simple(&row))
		return 0;
	if (row.cfa.reg != reg || row.cfa.off != off || row.ra.off != -8)
		return 0;
	if (!fp_off)
		return row.fp.kind == DUNWIND_SFRAME_RULE_UNDEF;
	return row.fp.kind == DUNWIND_SFRAME_RULE_CFA && row.fp.off == fp_off;
}

#endif
