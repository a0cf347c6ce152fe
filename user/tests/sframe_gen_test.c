// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the SFrame generator (sframe_gen.c) and of registration's
 * cache (sframe_reg.c, without a module: dev_fd < 0, or a non-dunwind fd).
 *
 * The generated tables are decoded with the shared decoder (lib/sframe.h)
 * and compared, PC by PC, with what libdw's CFI evaluator says there.  The
 * comparison evaluates both sides numerically on two made-up register
 * states (so a rule based on the wrong register or offset shows), instead
 * of re-deriving the generator's mapping.
 *
 * Usage: sframe_gen_test [LIBC]   (default /lib/x86_64-linux-gnu/libc.so.6)
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <elfutils/libdw.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sframe.h"
#include "sframe/sframe_gen.h"
#include "sframe/sframe_reg.h"
#include "tap.h"

#define T_OP_BREG6		0x76
#define T_OP_BREG7		0x77
#define T_OP_PLUS_UCONST	0x23
#define T_OP_BREGX		0x92
#define T_OP_CFA		0x9c
#define T_OP_STACK_VALUE	0x9f

static char tmpdir[256];

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
	__u64 pcs, covered, mismatches, missed, bad_rows, errors;
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
static void t_check_file(const char *name, const char *path, unsigned int version,
			 unsigned int flags, unsigned int step, struct dw_sframe_gen_result *out)
{
	struct dw_sframe_gen_opts o = { .version = version, .flags = flags };
	struct dw_sframe_gen_result r;
	struct dunwind_sframe_table t;
	struct t_cmp k = { 0 };
	struct t_cfi c;
	struct t_mem m;
	__u64 lo[8], hi[8];
	int err, n, i;

	err = dw_sframe_gen(path, &o, &r);
	if (!ok(!err && r.table_size, "%s v%u: generated (%d)", name, version, err))
		return;
	ok(r.version == version && r.stats.table_size == r.table_size,
	   "%s v%u: result says version %u, size %zu", name, version, r.version, r.table_size);
	err = t_open(&r, &m, &t);
	ok(!err && t.version == version && t.num_fdes == r.stats.sframe_fdes &&
	   t.num_fres == r.stats.sframe_fres && (t.flags & DUNWIND_SFRAME_F_FDE_SORTED) &&
	   !!(t.flags & DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL) == !(flags & DW_SFRAME_GEN_ABS),
	   "%s v%u: decoder opens it: %u FDEs, %u FREs, flags %#x (%d)", name, version,
	   t.num_fdes, t.num_fres, t.flags, err);
	ok(!err && !dunwind_sframe_validate(&t), "%s v%u: every FDE and FRE validates", name,
	   version);
	if (t_cfi_open(&c, path)) {
		ok(0, "%s: libdw opens it", name);
	} else {
		n = t_exec_ranges(&c, lo, hi, 8);
		for (i = 0; i < n; i++)
			t_compare(&c, &t, lo[i], hi[i], step, &k);
		printf("# %s v%u: %llu PCs checked, %llu covered (%.2f%%), table %zu bytes, "
		       ".eh_frame %llu, %.1f ms\n", name, version, (unsigned long long)k.pcs,
		       (unsigned long long)k.covered,
		       k.pcs ? 100.0 * (double)k.covered / (double)k.pcs : 0.0, r.table_size,
		       (unsigned long long)r.stats.eh_frame_size, (double)r.stats.gen_ns / 1e6);
		ok(n > 0 && k.pcs > 0, "%s: %llu PCs across %d executable segments", name,
		   (unsigned long long)k.pcs, n);
		ok(!k.mismatches && !k.bad_rows && !k.errors,
		   "%s v%u: every covered PC's rule equals the CFI's (%llu mismatches, "
		   "%llu bad ranges, %llu errors)", name, version,
		   (unsigned long long)k.mismatches, (unsigned long long)k.bad_rows,
		   (unsigned long long)k.errors);
		ok(!k.missed, "%s v%u: every uncovered PC has no CFI or an inexpressible rule "
		   "(%llu missed)", name, version, (unsigned long long)k.missed);
		t_cfi_close(&c);
	}
	if (out)
		*out = r;
	else
		dw_sframe_gen_free(&r);
}

/* ---------- a small binary with known CFI ---------- */

static const char t_prog[] =
	"asm(\".text\\n\"\n"
	"\".globl f_fp\\n.type f_fp,@function\\nf_fp:\\n.cfi_startproc\\n\"\n"
	"\"push %rbp\\n.cfi_def_cfa_offset 16\\n.cfi_offset rbp,-16\\n\"\n"
	"\"mov %rsp,%rbp\\n.cfi_def_cfa_register rbp\\nnop\\nnop\\n\"\n"
	"\"pop %rbp\\n.cfi_def_cfa rsp,8\\nret\\n.cfi_endproc\\n.size f_fp,.-f_fp\\n\"\n"
	/* CFA expression in the middle: only that part is uncovered. */
	"\".globl f_expr\\n.type f_expr,@function\\nf_expr:\\n.cfi_startproc\\nnop\\n\"\n"
	"\".cfi_escape 0x0f,0x03,0x77,0x08,0x06\\nnop\\nnop\\n\"\n"
	"\".cfi_def_cfa rsp,8\\nnop\\nret\\n.cfi_endproc\\n.size f_expr,.-f_expr\\n\"\n"
	/* RA in a register. */
	"\".globl f_rareg\\n.type f_rareg,@function\\nf_rareg:\\n.cfi_startproc\\nnop\\n\"\n"
	"\".cfi_register rip,rax\\nnop\\nret\\n.cfi_endproc\\n.size f_rareg,.-f_rareg\\n\"\n"
	/* Outermost frame. */
	"\".globl f_outer\\n.type f_outer,@function\\nf_outer:\\n.cfi_startproc\\n\"\n"
	"\".cfi_undefined rip\\nnop\\nret\\n.cfi_endproc\\n.size f_outer,.-f_outer\\n\"\n"
	/* CFA in r12, then FP saved in rbx. */
	"\".globl f_r12\\n.type f_r12,@function\\nf_r12:\\n.cfi_startproc\\nnop\\n\"\n"
	"\".cfi_def_cfa r12,8\\nnop\\n.cfi_def_cfa rsp,8\\n.cfi_register rbp,rbx\\nnop\\n\"\n"
	"\".cfi_restore rbp\\nnop\\nret\\n.cfi_endproc\\n.size f_r12,.-f_r12\\n\"\n"
	/* No CFI at all. */
	"\".globl f_nocfi\\n.type f_nocfi,@function\\nf_nocfi:\\nnop\\nret\\n\"\n"
	"\".size f_nocfi,.-f_nocfi\\n\");\n"
	"void f_fp(void); void f_expr(void); void f_rareg(void); void f_outer(void);\n"
	"void f_r12(void); void f_nocfi(void);\n"
	"__attribute__((noinline)) int c_func(int x) { return x * 3 + 1; }\n"
	"int getpid(void);\n"
	"int main(int argc, char **argv) { (void)argv; return c_func(argc) == getpid() ? "
	"(f_fp(), 1) : 0; }\n";

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

static void t_small(void)
{
	char src[300], bin[300], dbg[300], nobid[300], cmd[2048];
	struct dw_sframe_gen_result r;
	struct dw_sframe_gen_opts nodbg = { .flags = DW_SFRAME_GEN_NO_DEBUG_FRAME };
	struct dunwind_sframe_row row;
	struct dw_sframe_reg_file rf;
	__u64 f_fp, f_expr, f_rareg, f_outer, f_r12, f_nocfi, c_func, plt;
	FILE *f;
	int err;

	snprintf(src, sizeof(src), "%s/prog.c", tmpdir);
	snprintf(bin, sizeof(bin), "%s/prog", tmpdir);
	snprintf(dbg, sizeof(dbg), "%s/prog-dbg", tmpdir);
	snprintf(nobid, sizeof(nobid), "%s/prog-nobid", tmpdir);
	f = fopen(src, "w");
	if (!f || fputs(t_prog, f) < 0 || fclose(f)) {
		ok(0, "write %s", src);
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "cc -O1 -o %s %s 2>&1 && "
		 "cc -O1 -g -fno-asynchronous-unwind-tables -fno-exceptions -o %s %s 2>&1 && "
		 "cc -O1 -Wl,--build-id=none -o %s %s 2>&1",
		 bin, src, dbg, src, nobid, src);
	if (system(cmd)) {
		tap_skip("small binary", "cannot compile with cc: install gcc");
		return;
	}
	t_check_file("prog", bin, 2, 0, 1, &r);
	f_fp = t_sym(bin, "f_fp");
	f_expr = t_sym(bin, "f_expr");
	f_rareg = t_sym(bin, "f_rareg");
	f_outer = t_sym(bin, "f_outer");
	f_r12 = t_sym(bin, "f_r12");
	f_nocfi = t_sym(bin, "f_nocfi");
	c_func = t_sym(bin, "c_func");
	if (!ok(f_fp && f_expr && f_rareg && f_outer && f_r12 && f_nocfi && c_func,
		"prog: symbols found")) {
		dw_sframe_gen_free(&r);
		return;
	}
	/* f_fp: push %rbp (1) mov %rsp,%rbp (3) nop nop pop %rbp (1) ret */
	ok(t_rule(&r, f_fp, 7, 8, 0) && t_rule(&r, f_fp + 1, 7, 16, -16) &&
	   t_rule(&r, f_fp + 4, 6, 16, -16) && t_rule(&r, f_fp + 6, 6, 16, -16) &&
	   t_rule(&r, f_fp + 7, 7, 8, -16),
	   "prog: f_fp rows: SP+8, SP+16/FP@-16, FP+16, SP+8 (FP rule kept, as the CFI says)");
	/* f_expr: nop | escape: nop nop | def_cfa: nop ret */
	ok(t_rule(&r, f_expr, 7, 8, 0) &&
	   t_find(&r, f_expr + 1, &row) == -DUNWIND_SFRAME_ENOENT &&
	   t_find(&r, f_expr + 2, &row) == -DUNWIND_SFRAME_ENOENT &&
	   t_rule(&r, f_expr + 3, 7, 8, 0) && t_rule(&r, f_expr + 4, 7, 8, 0),
	   "prog: f_expr: CFA expression range uncovered, the function split around it");
	ok(t_rule(&r, f_rareg, 7, 8, 0) &&
	   t_find(&r, f_rareg + 1, &row) == -DUNWIND_SFRAME_ENOENT &&
	   t_find(&r, f_rareg + 2, &row) == -DUNWIND_SFRAME_ENOENT,
	   "prog: f_rareg: RA in a register is uncovered");
	ok(!t_find(&r, f_outer, &row) && (row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF) &&
	   !t_find(&r, f_outer + 1, &row) && (row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF),
	   "prog: f_outer: RA undefined becomes an outermost row");
	ok(t_rule(&r, f_r12, 7, 8, 0) && t_find(&r, f_r12 + 1, &row) == -DUNWIND_SFRAME_ENOENT &&
	   t_find(&r, f_r12 + 2, &row) == -DUNWIND_SFRAME_ENOENT && t_rule(&r, f_r12 + 3, 7, 8, 0),
	   "prog: f_r12: CFA in r12 and FP in rbx uncovered, FP restored covered");
	ok(t_find(&r, f_nocfi, &row) == -DUNWIND_SFRAME_ENOENT,
	   "prog: f_nocfi: no CFI, no coverage");
	/* A lazy PLT entry (jmp *got 6, push 5, jmp 5): SP+8, then SP+16 after the push. */
	plt = t_section(bin, ".plt");
	if (!plt) {
		tap_skip("prog: lazy PLT", "the toolchain made no .plt");
	} else {
		ok(t_rule(&r, plt + 16, 7, 8, 0) && t_rule(&r, plt + 26, 7, 8, 0) &&
		   t_rule(&r, plt + 27, 7, 16, 0) && t_rule(&r, plt + 31, 7, 16, 0) &&
		   !t_find(&r, plt + 16, &row) && row.pc_lo == plt + 16 && row.pc_hi == plt + 27,
		   "prog: PLT entry: PC-mask rows SP+8 until the push, SP+16 after");
	}
	ok(r.stats.why[DW_SFRAME_GEN_CFA_EXPR] >= 2 && r.stats.why[DW_SFRAME_GEN_RA] >= 2 &&
	   r.stats.why[DW_SFRAME_GEN_CFA_REG] >= 1 && r.stats.why[DW_SFRAME_GEN_FP] >= 1 &&
	   r.stats.outermost_bytes >= 2 && r.stats.why[DW_SFRAME_GEN_NO_CFI] >= 2,
	   "prog: statistics count each reason (expr %llu, ra %llu, cfa reg %llu, fp %llu)",
	   (unsigned long long)r.stats.why[DW_SFRAME_GEN_CFA_EXPR],
	   (unsigned long long)r.stats.why[DW_SFRAME_GEN_RA],
	   (unsigned long long)r.stats.why[DW_SFRAME_GEN_CFA_REG],
	   (unsigned long long)r.stats.why[DW_SFRAME_GEN_FP]);
	dw_sframe_gen_free(&r);

	/* .debug_frame only for the C functions. */
	t_check_file("prog-dbg", dbg, 3, 0, 1, &r);
	c_func = t_sym(dbg, "c_func");
	ok(r.stats.debug_frame_size && c_func && !t_find(&r, c_func, &row),
	   "prog-dbg: c_func covered from .debug_frame (%llu bytes)",
	   (unsigned long long)r.stats.debug_frame_size);
	dw_sframe_gen_free(&r);
	err = dw_sframe_gen(dbg, &nodbg, &r);
	ok(!err && c_func && t_find(&r, c_func, &row) == -DUNWIND_SFRAME_ENOENT,
	   "prog-dbg: NO_DEBUG_FRAME leaves c_func uncovered (%d)", err);
	dw_sframe_gen_free(&r);

	err = dw_sframe_register_file(-1, nobid, NULL, &rf);
	ok(err == -ENODATA && rf.source == DW_SFRAME_SRC_NONE,
	   "register: a file without build-id is refused with ENODATA (%d)", err);
}

/* ---------- hostile inputs ---------- */

static void t_hostile(const char *libc)
{
	struct dw_sframe_gen_opts bad = { .version = 1 };
	struct dw_sframe_gen_result r;
	char path[300], cmd[700];
	int err, fd;

	snprintf(path, sizeof(path), "%s/empty", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0)
		close(fd);
	err = dw_sframe_gen(path, NULL, &r);
	ok(err == -ENOEXEC && !r.table, "hostile: empty file: ENOEXEC (%d)", err);
	err = dw_sframe_gen("/nonexistent/file", NULL, &r);
	ok(err == -ENOENT, "hostile: missing file: ENOENT (%d)", err);
	err = dw_sframe_gen(libc, &bad, &r);
	ok(err == -EINVAL, "hostile: version 1 refused: EINVAL (%d)", err);
	snprintf(path, sizeof(path), "%s/trunc", tmpdir);
	snprintf(cmd, sizeof(cmd), "head -c 1800000 %s > %s", libc, path);
	if (system(cmd)) {
		tap_skip("hostile: truncated libc", "head failed");
		return;
	}
	err = dw_sframe_gen(path, NULL, &r);
	ok(err || r.table_size, "hostile: truncated libc: no crash (%d)", err);
	dw_sframe_gen_free(&r);
}

/* ---------- registration and cache (no module) ---------- */

static int t_cache_file(const struct dw_sframe_reg_file *f, char *buf, size_t len)
{
	char dir[256];
	size_t n;
	__u32 i;

	if (dw_sframe_cache_dir(NULL, dir, sizeof(dir)))
		return -1;
	n = (size_t)snprintf(buf, len, "%s/", dir);
	for (i = 0; i < f->build_id_size && n + 3 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%02x", f->build_id[i]);
	return 0;
}

static void t_register(const char *libc)
{
	struct dw_sframe_reg_opts v3 = { .version = 3 };
	struct dw_sframe_reg_opts badc = { .cache_dir = "/dev/null/sub" };
	struct dw_sframe_reg_opts noc = { .flags = DW_SFRAME_REG_NO_CACHE };
	struct dw_sframe_reg_file a, b;
	struct dw_sframe_reg_pid p;
	struct dw_sframe_gen_result g;
	char env[300], cpath[400];
	struct stat st;
	unsigned int i, libc_seen = 0, libc_mapped = 0;
	int err, fd;
	FILE *f;

	snprintf(env, sizeof(env), "%s/xdg", tmpdir);
	setenv("XDG_CACHE_HOME", env, 1);

	err = dw_sframe_register_file(-1, libc, NULL, &a);
	ok(!err && a.source == DW_SFRAME_SRC_GENERATED && !a.cache_err && a.table_size &&
	   a.build_id_size == 20, "register: libc generated (%d, cache %d, %llu bytes)", err,
	   a.cache_err, (unsigned long long)a.table_size);
	ok(!t_cache_file(&a, cpath, sizeof(cpath)) && !stat(cpath, &st) && S_ISREG(st.st_mode) &&
	   (st.st_mode & 0777) == 0600 && (__u64)st.st_size > a.table_size,
	   "register: cache entry %s written, mode 0600", cpath);
	err = dw_sframe_register_file(-1, libc, NULL, &b);
	ok(!err && b.source == DW_SFRAME_SRC_CACHE && b.table_size == a.table_size && !b.gen_ns,
	   "register: second time loaded from the cache (%d, %.2f ms vs %.2f ms generating)",
	   err, (double)b.load_ns / 1e6, (double)a.gen_ns / 1e6);
	/* The cached table is byte for byte what the generator makes. */
	err = dw_sframe_gen(libc, NULL, &g);
	f = fopen(cpath, "rb");
	if (f && !err) {
		__u8 *buf = malloc(g.table_size);
		long hdr = st.st_size - (long)g.table_size;

		ok(buf && hdr > 0 && !fseek(f, hdr, SEEK_SET) &&
		   fread(buf, 1, g.table_size, f) == g.table_size &&
		   !memcmp(buf, g.table, g.table_size), "register: cached table equals generated");
		free(buf);
	} else {
		ok(0, "register: cached table readable (%d)", err);
	}
	if (f)
		fclose(f);
	dw_sframe_gen_free(&g);

	/* Corrupt one byte of the table: detected, regenerated, rewritten. */
	fd = open(cpath, O_RDWR);
	if (fd >= 0) {
		__u8 x;

		if (pread(fd, &x, 1, st.st_size - 3) == 1) {
			x ^= 0x5a;
			if (pwrite(fd, &x, 1, st.st_size - 3) != 1)
				x = 0;
		}
		close(fd);
	}
	err = dw_sframe_register_file(-1, libc, NULL, &b);
	ok(!err && b.source == DW_SFRAME_SRC_GENERATED && b.cache_err == -EBADMSG,
	   "register: corrupt cache entry regenerated (%d, cache %d)", err, b.cache_err);
	err = dw_sframe_register_file(-1, libc, NULL, &b);
	ok(!err && b.source == DW_SFRAME_SRC_CACHE, "register: ... and rewritten (%d)", err);
	/* Truncated entry. */
	if (truncate(cpath, 40))
		err = -errno;
	err = dw_sframe_register_file(-1, libc, NULL, &b);
	ok(!err && b.source == DW_SFRAME_SRC_GENERATED && b.cache_err == -EBADMSG,
	   "register: truncated cache entry regenerated (%d)", err);
	/* Another version is another table. */
	err = dw_sframe_register_file(-1, libc, &v3, &b);
	ok(!err && b.source == DW_SFRAME_SRC_GENERATED && b.table_size != a.table_size,
	   "register: v3 asked, v2 cached: regenerated (%d)", err);
	err = dw_sframe_register_file(-1, libc, &v3, &b);
	ok(!err && b.source == DW_SFRAME_SRC_CACHE, "register: v3 then from the cache (%d)", err);
	err = dw_sframe_register_file(-1, libc, &badc, &b);
	ok(!err && b.source == DW_SFRAME_SRC_GENERATED && b.cache_err,
	   "register: unwritable cache is skipped (%d, cache %d: %s)", err, b.cache_err,
	   strerror(-b.cache_err));
	err = dw_sframe_register_file(-1, libc, &noc, &b);
	ok(!err && b.source == DW_SFRAME_SRC_GENERATED && !b.cache_err,
	   "register: NO_CACHE generates (%d)", err);

	/* A fd that is not a dunwind session: the ioctl fails like an old module. */
	fd = open("/dev/null", O_RDWR);
	err = dw_sframe_register_file(fd, libc, NULL, &b);
	ok(err == -ENOTTY && strstr(dw_sframe_reg_strerror(err), "too old"),
	   "register: ENOTTY from the ioctl is reported: %s", dw_sframe_reg_strerror(err));
	err = dw_sframe_register_pid(fd, getpid(), NULL, &p);
	ok(err == -ENOTTY && p.nfiles >= 1, "register pid: stops at ENOTTY (%d, %u files)", err,
	   p.nfiles);
	dw_sframe_reg_pid_free(&p);
	if (fd >= 0)
		close(fd);

	err = dw_sframe_register_pid(-1, getpid(), NULL, &p);
	for (i = 0; i < p.nfiles; i++) {
		printf("# %s: %s%s, %llu bytes, cache %d\n", p.files[i].path,
		       p.files[i].skipped ? "skipped (has .sframe)" :
		       dw_sframe_reg_strerror(p.files[i].err),
		       p.files[i].source == DW_SFRAME_SRC_CACHE ? " (cache)" :
		       p.files[i].source == DW_SFRAME_SRC_GENERATED ? " (generated)" : "",
		       (unsigned long long)p.files[i].table_size, p.files[i].cache_err);
		if (p.files[i].build_id_size == a.build_id_size &&
		    !memcmp(p.files[i].build_id, a.build_id, a.build_id_size)) {
			libc_mapped = 1;
			libc_seen = p.files[i].source == DW_SFRAME_SRC_CACHE && !p.files[i].err;
		}
	}
	printf("# pid: %u files, %u prepared, %u skipped, %u failed; %u generated (%.1f ms), "
	       "%u from cache (%.1f ms)\n", p.nfiles, p.registered, p.skipped, p.failed,
	       p.generated, (double)p.gen_ns / 1e6, p.from_cache, (double)p.load_ns / 1e6);
	/* The file under test came from the cache if this process maps it. */
	ok(!err && p.nfiles >= 2 && libc_seen == libc_mapped &&
	   p.registered + p.skipped + p.failed == p.nfiles,
	   "register pid: own process: %u files, %s (%d)", p.nfiles,
	   libc_mapped ? "libc from the cache" : "the file under test is not mapped here", err);
	dw_sframe_reg_pid_free(&p);
	err = dw_sframe_register_pid(-1, getpid(), NULL, &p);
	ok(!err && p.generated == 0 && p.from_cache == p.registered,
	   "register pid: second time all %u from the cache (%.1f ms)", p.from_cache,
	   (double)p.load_ns / 1e6);
	dw_sframe_reg_pid_free(&p);
	err = dw_sframe_register_pid(-1, 0x3fffffff, NULL, &p);
	ok(err == -ESRCH, "register pid: no such process: ESRCH (%d)", err);
	dw_sframe_reg_pid_free(&p);
}

int main(int argc, char **argv)
{
	const char *libc = argc > 1 ? argv[1] : "/lib/x86_64-linux-gnu/libc.so.6";
	char cmd[300];
	int rc;

	elf_version(EV_CURRENT);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sframe_gen_test.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	if (access(libc, R_OK)) {
		tap_skip("libc", "%s not readable", libc);
	} else {
		t_check_file("libc", libc, 2, 0, 1, NULL);
		t_check_file("libc", libc, 3, 0, 3, NULL);
		t_check_file("libc abs", libc, 2, DW_SFRAME_GEN_ABS, 7, NULL);
		t_hostile(libc);
		t_register(libc);
	}
	t_small();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		printf("# could not remove %s\n", tmpdir);
	rc = tap_done();
	printf("%d passed, %d failed\n", tap_count - tap_failed, tap_failed);
	return rc;
}
