// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame generator: DWARF CFI -> AMD64 SFrame (see sframe_gen.h and
 * Documentation/sframe-gen.rst).
 *
 * Every executable byte of the file is visited once, row by row, through
 * libdw's CFI evaluator (dwarf_cfi_addrframe): .eh_frame first, then
 * .debug_frame.  A row becomes an SFrame row only if SFrame says exactly
 * the same thing (CFA = SP or FP + offset, RA at CFA - 8, FP unchanged or
 * at CFA + offset, caller's SP = CFA); a run of such rows inside one DWARF
 * FDE becomes one SFrame FDE.  Anything else ends the run, so the PC range
 * stays uncovered and the unwinder falls back there.
 *
 * Code with no CFI at all, between two FDEs, gets rules from its
 * instructions where they can be followed (gap_scan.c): the parent's side
 * of glibc's clone()/clone3() after the syscall, crtstuff's functions.
 * On AArch64 only the linker's PLT does (plt_a64.c).  V8's embedded
 * builtins (Node.js's Builtins_* functions) have no CFI and instructions
 * no scan follows; V8 keeps the frame pointer in all of its code, so they
 * get its rule (gen_v8()).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <elfutils/libdw.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sframe.h"
#include "sframe/sframe_enc.h"
#include "sframe/sframe_gen.h"
#include "sframe/cfi_rule.h"
#include "util/ehframe_hdr.h"
#include "sframe/gap_scan.h"
#include "sframe/plt_a64.h"
#include "util/clock.h"
#include "util/elf.h"
#include "util/array.h"
#include "util/search.h"

#define GEN_MAX_ROWS	0xffff		/* v3 FRE count per FDE */
#define GEN_MAX_RANGES	64
#define GEN_V8_MIN_GAP	(512U << 10)	/* a stripped V8's builtins: at least this */

struct gen_ctx {
	struct dw_sframe_gen_stats *st;
	Elf *elf;
	struct dw_elf_seg seg;		/* the executable segment last read */
	Dwarf_CFI *eh, *dbg;
	__u64 *starts;			/* sorted DWARF FDE starts, or NULL */
	size_t nstarts, next_idx;
	struct dw_elf_range text;
	struct dw_elf_range v8;		/* V8's embedded builtins, or empty */
	int v8_lib;			/* V8 is in the file, its builtins unnamed */
	int v8_survey;			/* first pass: find the largest gap, emit nothing */
	struct dw_elf_range v8_gap;	/* the largest gap without CFI in .text */
	/* Output being built. */
	struct dw_sframe_enc_func *funcs;
	size_t nfuncs, cap_funcs;
	struct dw_sframe_enc_row *rows;
	size_t nrows, cap_rows;
	size_t *func_row0;		/* first row index of each function */
	size_t cap_row0;
	/* The run being built: rows [run_row0, nrows) starting at run_start. */
	int in_run;
	__u64 run_start, run_end;
	size_t run_row0;
	/* The last CFI row seen ends at @prev_hi; it is a function's entry state. */
	__u64 prev_hi;
	int prev_entry;
	int rbx;			/* DW_SFRAME_GEN_RBX: say where %rbx is */
	int a64;			/* an AArch64 file: its CFI, no gap scan, no %rbx */
	__u64 deadline;			/* dw_now_ns() past which to give up */
	unsigned int steps;		/* rows and gaps visited since the last look at the clock */
};

/*
 * Past the time bound?  The clock is read every 16 steps: one step of a
 * hostile FDE (tens of thousands of rows, each found by running its CFA
 * program from the start) can take milliseconds, more in an emulator.
 */
static int gen_late(struct gen_ctx *c)
{
	if (++c->steps & 15)
		return 0;
	return dw_now_ns() > c->deadline ? -ETIME : 0;
}

static int gen_same_row(const struct dw_sframe_enc_row *a, const struct dw_sframe_enc_row *b)
{
	if (a->ra_undef || b->ra_undef)
		return a->ra_undef == b->ra_undef;
	/* AArch64 rows track the RA: in x30, or saved at an offset. */
	return a->cfa.reg == b->cfa.reg && a->cfa.off == b->cfa.off &&
	       a->ra.kind == b->ra.kind && a->ra.reg == b->ra.reg && a->ra.off == b->ra.off &&
	       a->fp.kind == b->fp.kind && a->fp.off == b->fp.off &&
	       a->rbx.kind == b->rbx.kind && a->rbx.off == b->rbx.off &&
	       a->rbx_lost == b->rbx_lost;
}

static int gen_push_row(struct gen_ctx *c, const struct dw_sframe_enc_row *e)
{
	if (DW_ARRAY_RESERVE(c->rows, c->cap_rows, c->nrows + 1, 4096))
		return -ENOMEM;
	c->rows[c->nrows++] = *e;
	return 0;
}

/* Append a function whose rows are [row0, c->nrows). */
static int gen_push_func(struct gen_ctx *c, __u64 start, __u64 end, size_t row0, __u8 pc_type)
{
	struct dw_sframe_enc_func *f;

	if (DW_ARRAY_RESERVE(c->funcs, c->cap_funcs, c->nfuncs + 1, 1024) ||
	    DW_ARRAY_RESERVE(c->func_row0, c->cap_row0, c->nfuncs + 1, 1024))
		return -ENOMEM;
	f = &c->funcs[c->nfuncs];
	memset(f, 0, sizeof(*f));
	f->start = start;
	f->size = (__u32)(end - start);
	f->pc_type = pc_type;
	if (pc_type == DUNWIND_SFRAME_PC_MASK)
		f->rep_size = 16;
	f->nrows = (__u32)(c->nrows - row0);
	c->func_row0[c->nfuncs] = row0;
	c->nfuncs++;
	c->st->covered_bytes += f->size;
	return 0;
}

/* Close the run being built into one SFrame function. */
static int gen_end_run(struct gen_ctx *c)
{
	if (!c->in_run)
		return 0;
	c->in_run = 0;
	return gen_push_func(c, c->run_start, c->run_end, c->run_row0, DUNWIND_SFRAME_PC_INC);
}

/* A lazy PLT row [lo, hi): its own PC-mask function of 16-byte blocks. */
static int gen_add_plt(struct gen_ctx *c, const struct dw_cfi_rule *g, __u64 lo, __u64 hi)
{
	struct dw_sframe_enc_row e;
	size_t row0 = c->nrows;
	int err;

	dw_cfi_enc_row(g, 0, &e);
	if (g->plt_thr) {
		err = gen_push_row(c, &e);
		if (err)
			return err;
	}
	e.pc_off = g->plt_thr;
	e.cfa.off += 8;
	err = gen_push_row(c, &e);
	if (err)
		return err;
	return gen_push_func(c, lo, hi, row0, DUNWIND_SFRAME_PC_MASK);
}

/* Add the expressible row [lo, hi) to the current run (starting one if needed). */
static int gen_add_row(struct gen_ctx *c, const struct dw_cfi_rule *g, __u64 lo, __u64 hi)
{
	struct dw_sframe_enc_row e;
	int err;

	/* Split before a run gets too long for one FDE. */
	if (c->in_run && (c->nrows - c->run_row0 >= GEN_MAX_ROWS ||
			  hi - c->run_start > UINT32_MAX)) {
		err = gen_end_run(c);
		if (err)
			return err;
	}
	if (!c->in_run) {
		c->in_run = 1;
		c->run_start = lo;
		c->run_row0 = c->nrows;
	}
	dw_cfi_enc_row(g, (__u32)(lo - c->run_start), &e);
	c->run_end = hi;
	if (c->nrows > c->run_row0 && gen_same_row(&c->rows[c->nrows - 1], &e))
		return 0;
	return gen_push_row(c, &e);
}

/* Bytes of [lo, hi) inside .text. */
static __u64 gen_in_text(const struct gen_ctx *c, __u64 lo, __u64 hi)
{
	__u64 a = lo > c->text.lo ? lo : c->text.lo;
	__u64 b = hi < c->text.hi ? hi : c->text.hi;

	return b > a ? b - a : 0;
}

/* Is @pc the start of a DWARF FDE (from .eh_frame_hdr)?  PCs only grow. */
static int gen_is_fde_start(struct gen_ctx *c, __u64 pc)
{
	while (c->next_idx < c->nstarts && c->starts[c->next_idx] < pc)
		c->next_idx++;
	return c->next_idx < c->nstarts && c->starts[c->next_idx] == pc;
}

/* First FDE start above @pc, or @limit. */
static __u64 gen_next_start(const struct gen_ctx *c, __u64 pc, __u64 limit)
{
	size_t lo = dw_upper_bound(c->starts, c->nstarts, sizeof(*c->starts), 0, pc);

	return lo < c->nstarts && c->starts[lo] < limit ? c->starts[lo] : limit;
}

/* The CFI row at @pc from .eh_frame, else .debug_frame. */
static int gen_frame(struct gen_ctx *c, __u64 pc, Dwarf_Frame **f)
{
	if (c->eh && !dwarf_cfi_addrframe(c->eh, pc, f))
		return 0;
	if (c->dbg && !dwarf_cfi_addrframe(c->dbg, pc, f))
		return 0;
	return -ENOENT;
}

/* Is @pc the start of an executable section (a function's entry)? */
static int gen_is_section_start(const struct gen_ctx *c, __u64 pc)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(c->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    (sh.sh_flags & SHF_EXECINSTR) && sh.sh_size && sh.sh_addr == pc)
			return 1;
	return 0;
}

/*
 * The first executable section start above @pc, or @limit: a gap is
 * scanned up to it, so that the section's first function is an entry
 * whatever lies between the sections (zero fill, which is no code).
 */
static __u64 gen_next_section(const struct gen_ctx *c, __u64 pc, __u64 limit)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(c->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    (sh.sh_flags & SHF_EXECINSTR) && sh.sh_size && sh.sh_addr > pc &&
		    sh.sh_addr < limit)
			limit = sh.sh_addr;
	return limit;
}

/* Rules for [lo, hi), which has no CFI, from its instructions.  Bytes covered in *@n. */
static int gen_gap(struct gen_ctx *c, __u64 lo, __u64 hi, __u64 *n)
{
	const __u8 *code = dw_elf_exec_bytes(c->elf, lo, hi, &c->seg);
	struct dw_gap_scan gs;
	size_t i;
	int err;

	*n = 0;
	if (!code)
		return 0;
	err = dw_gap_scan(code, lo, hi,
			  (c->prev_entry && c->prev_hi == lo) || gen_is_section_start(c, lo), &gs);
	if (err)
		return err == -ENOMEM ? err : 0;
	for (i = 0; i < gs.nrows && !err; i++) {
		const struct dw_gap_row *r = &gs.rows[i];
		struct dw_cfi_rule g = r->rule;

		/* Instructions say nothing sure about %rbx. */
		g.rbx_lost = c->rbx;
		/* Padding between two functions: one SFrame FDE each. */
		if (c->in_run && c->run_end != r->lo)
			err = gen_end_run(c);
		if (!err)
			err = gen_add_row(c, &g, r->lo, r->hi);
		*n += r->hi - r->lo;
		c->st->text_covered_bytes += gen_in_text(c, r->lo, r->hi);
	}
	if (!err)
		err = gen_end_run(c);
	c->st->gap_bytes += *n;
	dw_gap_scan_free(&gs);
	return err;
}

/* The symbols of the file's section of type @type (SHT_SYMTAB, SHT_DYNSYM), each to @fn. */
static void gen_syms(struct gen_ctx *c, Elf64_Word type,
		     void (*fn)(struct gen_ctx *c, const GElf_Sym *sym, const char *name))
{
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Sym sym;
	const char *name;
	size_t i, n;

	while ((scn = elf_nextscn(c->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			break;
	if (!scn || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
		return;
	n = d->d_size / sh.sh_entsize;
	for (i = 0; i < n && i <= INT_MAX; i++) {
		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		name = elf_strptr(c->elf, sh.sh_link, sym.st_name);
		if (name)
			fn(c, &sym, name);
	}
}

/* A Builtins_* function: the builtins' extent grows to hold it. */
static void gen_v8_builtin(struct gen_ctx *c, const GElf_Sym *sym, const char *name)
{
	if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || !sym->st_size ||
	    sym->st_value + sym->st_size < sym->st_value || strncmp(name, "Builtins_", 9))
		return;
	if (c->v8.hi <= c->v8.lo || sym->st_value < c->v8.lo)
		c->v8.lo = sym->st_value;
	if (sym->st_value + sym->st_size > c->v8.hi)
		c->v8.hi = sym->st_value + sym->st_size;
}

/* V8 itself (v8::internal::Isolate::embedded_blob_code()), defined here. */
static void gen_v8_isolate(struct gen_ctx *c, const GElf_Sym *sym, const char *name)
{
	if (sym->st_shndx != SHN_UNDEF && !strcmp(name, "_ZNK2v88internal7Isolate18embedded_blob_codeEv"))
		c->v8_lib = 1;
}

/*
 * V8's embedded builtins (its "embedded blob"): the extent of the file's
 * Builtins_* functions in .symtab.  A stripped file (Debian's
 * libnode.so.108) has no .symtab; if its .dynsym says V8 is in it, the
 * blob is found by a first pass over the file instead (gen_elf(): its
 * largest gap without CFI).  Only where there is no CFI is anything made
 * of either (gen_no_cfi()), so a hostile symbol table can at most give
 * FP rules to code without any.
 */
static void gen_find_v8(struct gen_ctx *c)
{
	gen_syms(c, SHT_SYMTAB, gen_v8_builtin);
	if (c->v8.hi <= c->v8.lo)
		gen_syms(c, SHT_DYNSYM, gen_v8_isolate);
}

/*
 * [lo, hi) inside V8's embedded builtins, which have no CFI: V8 keeps %rbp
 * as the frame pointer in every builtin and in the code it compiles (its
 * own stack walker relies on it), so the caller is at CFA = FP + 16, RA at
 * CFA - 8, the caller's FP at CFA - 16.  A builtin's first instructions,
 * before its push of %rbp, are not told apart: a sample there loses the
 * builtin's caller, one frame, and walks on to the same root.
 */
static int gen_v8(struct gen_ctx *c, __u64 lo, __u64 hi)
{
	struct dw_cfi_rule g = { .why = -1, .cfa_reg = CFI_REG_FP, .cfa_off = 16,
				 .fp_saved = 1, .fp_off = -16, .rbx_lost = c->rbx };
	int err = gen_add_row(c, &g, lo, hi);

	if (!err)
		err = gen_end_run(c);
	c->st->v8_bytes += hi - lo;
	c->st->text_covered_bytes += gen_in_text(c, lo, hi);
	return err;
}

/*
 * AArch64: the linker's .plt, if it begins in [@lo, *@hi) and is the
 * standard one (plt_a64.c), gets two FDEs: PLT0 (the RA in x30 until its
 * push of x16 and x30, then at CFA - 8 with CFA = SP + 16) and the stubs
 * (CFA = SP, the RA in x30).  *@hi moves past it; its bytes in *@n.
 */
static int gen_a64_plt(struct gen_ctx *c, __u64 lo, __u64 *hi, __u64 *n)
{
	struct dw_cfi_rule in_lr = { .why = -1, .cfa_reg = CFI_A64_REG_SP, .ra_in_lr = 1 };
	struct dw_cfi_rule pushed = { .why = -1, .cfa_reg = CFI_A64_REG_SP, .cfa_off = 16,
				      .ra_off = -8 };
	const __u8 *code;
	__u64 plt, end, stubs;
	GElf_Shdr sh;
	int err;

	*n = 0;
	if (!dw_elf_section(c->elf, ".plt", &sh) || sh.sh_type != SHT_PROGBITS ||
	    !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_addr < lo || sh.sh_addr >= *hi ||
	    sh.sh_size > UINT32_MAX)
		return 0;
	plt = sh.sh_addr;
	end = plt + sh.sh_size;
	stubs = plt + DW_PLT_A64_HEADER;
	code = dw_elf_exec_bytes(c->elf, plt, end, &c->seg);
	if (!code || dw_plt_a64_check(code, sh.sh_size))
		return 0;
	err = gen_end_run(c);
	if (!err)
		err = gen_add_row(c, &in_lr, plt, plt + DW_PLT_A64_PUSH_END);
	if (!err)
		err = gen_add_row(c, &pushed, plt + DW_PLT_A64_PUSH_END, stubs);
	if (!err)
		err = gen_end_run(c);
	if (!err && stubs < end)
		err = gen_add_row(c, &in_lr, stubs, end);
	if (!err)
		err = gen_end_run(c);
	if (err)
		return err;
	*n = end - plt;
	c->st->gap_bytes += *n;
	c->st->text_covered_bytes += gen_in_text(c, plt, end);
	if (*hi < end)
		*hi = end;
	return 0;
}

/*
 * No CFI at @pc: to the next FDE, covered from the instructions if they
 * allow, section by section (zero fill before .fini must not hide it).
 */
static int gen_no_cfi(struct gen_ctx *c, const struct dw_elf_range *rg, __u64 pc, __u64 *hi)
{
	__u64 n = 0, m, a, b;
	int err = gen_end_run(c);

	if (err)
		return err;
	/* With only .eh_frame (indexed), jump to the next FDE. */
	*hi = c->starts && !c->dbg ? gen_next_start(c, pc, rg->hi) : pc + 1;
	if (c->v8_survey) {
		a = pc > c->text.lo ? pc : c->text.lo;
		b = *hi < c->text.hi ? *hi : c->text.hi;
		if (b > a && b - a > c->v8_gap.hi - c->v8_gap.lo) {
			c->v8_gap.lo = a;
			c->v8_gap.hi = b;
		}
		return 0;
	}
	/* AArch64 gaps stay uncovered, never guessed, but for the linker's PLT. */
	if (c->a64)
		err = gen_a64_plt(c, pc, hi, &n);
	for (a = pc; c->starts && !c->dbg && !c->a64 && !err && a < *hi; a = b, n += m) {
		b = gen_next_section(c, a, *hi);
		if (a >= c->v8.lo && a < c->v8.hi) {
			b = b < c->v8.hi ? b : c->v8.hi;
			m = b - a;
			err = gen_v8(c, a, b);
			continue;
		}
		if (a < c->v8.lo && b > c->v8.lo)
			b = c->v8.lo;
		err = gen_gap(c, a, b, &m);
	}
	c->st->why[DW_SFRAME_GEN_NO_CFI] += *hi - pc - n;
	c->prev_entry = 0;
	return err;
}

/* Visit every byte of one executable range. */
static int gen_range(struct gen_ctx *c, const struct dw_elf_range *rg)
{
	__u64 pc = rg->lo, lo, hi;
	struct dw_cfi_rule g;
	Dwarf_Frame *f;
	Dwarf_Addr s, e;
	bool signal;
	int ra, err;

	c->next_idx = 0;
	c->prev_entry = 0;
	while (pc < rg->hi) {
		err = gen_late(c);
		if (err)
			return err;
		if (gen_frame(c, pc, &f)) {
			err = gen_no_cfi(c, rg, pc, &hi);
			if (err)
				return err;
			pc = hi;
			continue;
		}
		ra = dwarf_frame_info(f, &s, &e, &signal);
		lo = pc;
		hi = e > pc && e <= rg->hi ? e : e > rg->hi ? rg->hi : pc + 1;
		if (ra < 0)
			g.why = DW_SFRAME_GEN_BAD_CFI;
		else if (c->a64)
			dw_cfi_classify_a64(f, ra, signal, &g);
		else
			dw_cfi_classify(f, ra, signal, &g);
		if (!c->rbx)
			dw_cfi_no_rbx(&g);
		free(f);
		c->st->dwarf_rows++;
		c->st->cfi_bytes += hi - lo;
		if (s == lo && gen_is_fde_start(c, lo)) {
			err = gen_end_run(c);
			if (err)
				return err;
		}
		/* PC-mask blocks count from the function start: keep them aligned. */
		if (g.why < 0 && g.plt && ((lo & 15) || hi - lo > UINT32_MAX))
			g.why = DW_SFRAME_GEN_CFA_EXPR;
		if (g.why >= 0 || g.plt) {
			err = gen_end_run(c);
			if (err)
				return err;
		}
		c->prev_hi = hi;
		c->prev_entry = g.why < 0 && !g.plt && !g.outermost && g.cfa_reg == CFI_REG_SP &&
				g.cfa_off == 8 && !g.fp_saved;
		if (g.why >= 0) {
			c->st->why[g.why] += hi - lo;
		} else {
			err = g.plt ? gen_add_plt(c, &g, lo, hi) : gen_add_row(c, &g, lo, hi);
			if (err)
				return err;
			if (g.outermost)
				c->st->outermost_bytes += hi - lo;
			if (g.fp_undef)
				c->st->fp_undef_bytes += hi - lo;
			c->st->text_covered_bytes += gen_in_text(c, lo, hi);
		}
		pc = hi;
	}
	return gen_end_run(c);
}

/*
 * A stripped file with V8 in it (gen_find_v8()): its embedded builtins
 * are its largest gap without CFI in .text, if that is at least
 * GEN_V8_MIN_GAP.  In Debian's libnode.so.108 that gap is 1,419,752
 * bytes: the 1571 builtins its perf map names, then the bytecode
 * handlers; the next largest is 41 bytes.  A first pass over the file
 * finds it and keeps nothing else.
 */
static int gen_v8_survey(struct gen_ctx *c, const struct dw_elf_range *rg, size_t nrg)
{
	struct dw_sframe_gen_stats st = *c->st;
	size_t i;
	int err = 0;

	c->v8_survey = 1;
	for (i = 0; i < nrg && !err; i++)
		err = gen_range(c, &rg[i]);
	c->v8_survey = 0;
	*c->st = st;
	c->nfuncs = 0;
	c->nrows = 0;
	c->in_run = 0;
	if (!err && c->v8_gap.hi - c->v8_gap.lo >= GEN_V8_MIN_GAP)
		c->v8 = c->v8_gap;
	return err;
}

/*
 * The executable ranges of @elf in @rg, their bytes counted in @st;
 * -EFBIG past DW_SFRAME_GEN_MAX_EXEC (every byte is visited, and a
 * segment's size in memory is the file's say).
 */
static int gen_exec_ranges(Elf *elf, struct dw_elf_range *rg, size_t *nrg, __u64 *base,
			   struct dw_sframe_gen_stats *st)
{
	int err = dw_elf_exec_ranges(elf, rg, GEN_MAX_RANGES, nrg, base);
	size_t i;

	if (err)
		return err;
	for (i = 0; i < *nrg; i++)
		st->exec_bytes += rg[i].hi - rg[i].lo;
	return st->exec_bytes > DW_SFRAME_GEN_MAX_EXEC ? -EFBIG : 0;
}

static int gen_elf(Elf *elf, const struct dw_sframe_gen_opts *o, struct dw_sframe_gen_result *r)
{
	struct dw_sframe_enc_opts eo = { 0 };
	struct dw_elf_range rg[GEN_MAX_RANGES];
	struct gen_ctx c = { .st = &r->stats, .elf = elf, .rbx = !!(o->flags & DW_SFRAME_GEN_RBX) };
	Dwarf *dw = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	const __u8 *hb;
	size_t nrg = 0, hlen, i;
	__u64 base, hvaddr;
	int err;

	if (!gelf_getehdr(elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    (eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		return -ENOEXEC;
	/* AArch64: SFrame has no %rbx; no instruction decoder for the gaps. */
	c.a64 = eh.e_machine == EM_AARCH64;
	if (c.a64)
		c.rbx = 0;
	err = gen_exec_ranges(elf, rg, &nrg, &base, &r->stats);
	if (err)
		return err;
	c.deadline = dw_now_ns() + (o->max_ms ? o->max_ms : DW_SFRAME_GEN_MAX_MS) * 1000000ULL;
	if (dw_elf_section(elf, ".text", &sh) && sh.sh_type == SHT_PROGBITS) {
		c.text.lo = sh.sh_addr;
		c.text.hi = sh.sh_addr + sh.sh_size;
		r->stats.text_bytes = sh.sh_size;
	}
	if (dw_elf_section(elf, ".eh_frame", &sh))
		r->stats.eh_frame_size = sh.sh_size;
	if (dw_elf_section(elf, ".debug_frame", &sh))
		r->stats.debug_frame_size = sh.sh_size;

	if (!c.a64)
		gen_find_v8(&c);
	c.eh = dwarf_getcfi_elf(elf);
	if (!(o->flags & DW_SFRAME_GEN_NO_DEBUG_FRAME) && r->stats.debug_frame_size) {
		dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		if (dw)
			c.dbg = dwarf_getcfi(dw);
	}
	if (!c.eh && !c.dbg) {
		err = -ENODATA;
		goto out;
	}
	if (c.eh && !dw_ehframe_hdr_find(elf, &hb, &hlen, &hvaddr)) {
		err = dw_ehframe_hdr_starts(hb, hlen, hvaddr, &c.starts, &c.nstarts);
		c.st->dwarf_fdes = c.nstarts;
		if (err)
			goto out;
	}
	if (c.v8_lib && c.starts && !c.dbg) {
		err = gen_v8_survey(&c, rg, nrg);
		if (err)
			goto out;
	}
	for (i = 0; i < nrg; i++) {
		err = gen_range(&c, &rg[i]);
		if (err)
			goto out;
	}
	if (!c.starts)
		r->stats.dwarf_fdes = c.nfuncs;
	for (i = 0; i < c.nfuncs; i++)
		c.funcs[i].rows = c.rows + c.func_row0[i];

	eo.version = (__u8)r->version;
	eo.flags = DUNWIND_SFRAME_F_FDE_SORTED;
	if (!(o->flags & DW_SFRAME_GEN_ABS))
		eo.flags |= DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL;
	eo.sec_vaddr = base;
	eo.abi = c.a64 ? DUNWIND_SFRAME_ABI_AARCH64_LE : DUNWIND_SFRAME_ABI_AMD64_LE;
	err = dw_sframe_encode(&eo, c.funcs, (__u32)c.nfuncs, &r->table, &r->table_size);
	if (err)
		goto out;
	r->sec_vaddr = base;
	r->ext = c.rbx ? DUNWIND_SFRAME_EXT_RBX : 0;
	r->stats.sframe_fdes = c.nfuncs;
	r->stats.sframe_fres = c.nrows;
	r->stats.table_size = r->table_size;
out:
	if (c.eh)
		dwarf_cfi_end(c.eh);
	if (dw)
		dwarf_end(dw);
	free(c.starts);
	free(c.funcs);
	free(c.func_row0);
	free(c.rows);
	return err;
}

/**
 * dw_sframe_gen_fd() - generate an SFrame section for an open ELF file.
 * @fd:	the file, opened for reading (not closed; its offset is not used).
 * @o:	options (NULL: v2, PC-relative, .eh_frame and .debug_frame).
 * @r:	result; zeroed first.  On success free with dw_sframe_gen_free().
 *
 * Context: user space; reads the file with libelf/libdw, allocates.
 * Return: 0; -EINVAL for bad options (DW_SFRAME_GEN_RBX needs v3); -ENOEXEC
 * if not an x86-64 or AArch64 (little-endian) ET_EXEC or ET_DYN ELF file with
 * an executable PT_LOAD (AArch64: an AArch64 table, DW_SFRAME_GEN_RBX
 * ignored, gaps without CFI left uncovered); -ENODATA without any CFI;
 * -EFBIG if its executable segments hold more than DW_SFRAME_GEN_MAX_EXEC
 * bytes; -ETIME if it took longer than @o->max_ms;
 * -ERANGE if a v2 function start is beyond 2 GiB of the lowest executable
 * address; -ENOSYS if libelf is unusable; -ENOMEM.
 */
int dw_sframe_gen_fd(int fd, const struct dw_sframe_gen_opts *o, struct dw_sframe_gen_result *r)
{
	static const struct dw_sframe_gen_opts def;
	__u64 t0 = dw_now_ns();
	Elf *elf;
	int err;

	memset(r, 0, sizeof(*r));
	if (!o)
		o = &def;
	if ((o->version && o->version != DUNWIND_SFRAME_V2 && o->version != DUNWIND_SFRAME_V3) ||
	    (o->flags & ~DW_SFRAME_GEN_ALL))
		return -EINVAL;
	r->version = o->version ? o->version : DUNWIND_SFRAME_V2;
	if ((o->flags & DW_SFRAME_GEN_RBX) && r->version != DUNWIND_SFRAME_V3)
		return -EINVAL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return -ENOEXEC;
	if (elf_kind(elf) != ELF_K_ELF)
		err = -ENOEXEC;
	else
		err = gen_elf(elf, o, r);
	elf_end(elf);
	r->stats.gen_ns = dw_now_ns() - t0;
	if (err) {
		free(r->table);
		r->table = NULL;
		r->table_size = 0;
	}
	return err;
}

/**
 * dw_sframe_gen() - generate an SFrame section for the ELF file at @path.
 * @path:	the file.
 * @o, @r:	as for dw_sframe_gen_fd().
 *
 * Context: user space.
 * Return: as dw_sframe_gen_fd(), or -errno from open().
 */
int dw_sframe_gen(const char *path, const struct dw_sframe_gen_opts *o,
		  struct dw_sframe_gen_result *r)
{
	int fd, err;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = dw_sframe_gen_fd(fd, o, r);
	close(fd);
	return err;
}

/**
 * dw_sframe_gen_free() - release a result's table.
 * @r:	result of dw_sframe_gen*() (success or not); may be zeroed.
 *
 * Context: user space.
 */
void dw_sframe_gen_free(struct dw_sframe_gen_result *r)
{
	free(r->table);
	r->table = NULL;
	r->table_size = 0;
}
