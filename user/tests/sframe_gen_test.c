// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the SFrame generator (sframe_gen.c): whole tables for libc
 * and for a small program with known CFI, checked against libdw's CFI
 * (sframe_check.h), and hostile inputs.
 *
 * Generating and comparing a libc table takes seconds, so main() makes
 * every table once before the harness forks its tests; the tests only
 * look at the results.  The file under test is $DW_TEST_LIBC, default
 * /lib/x86_64-linux-gnu/libc.so.6.
 */
#include <errno.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "sframe_check.h"
#include "sframe/sframe_reg.h"

#define DEFAULT_LIBC	"/lib/x86_64-linux-gnu/libc.so.6"

/* The sanitizers' own: hands freed memory back to the system. */
void __sanitizer_purge_allocator(void) __attribute__((weak));

static char tmpdir[] = "/tmp/sframe_gen_test.XXXXXX";
static const char *libc;
static int libc_ok;		/* readable */

/* ---------- the whole-table checks, one case per file and format ---------- */

enum { C_LIBC_V2, C_LIBC_V3, C_LIBC_ABS, C_PROG, C_PROG_DBG, C_NR };

/* One generated table and what the checks found (made in main()). */
struct gen_case {
	const char *name;
	char path[300];
	unsigned int version, flags, step;
	const char *skip;		/* why it could not be made */
	int err, open_err, valid_err, cfi_err, nseg;
	struct dw_sframe_gen_result r;
	struct t_mem m;
	struct dunwind_sframe_table t;
	struct t_cmp k;
};

static struct gen_case cases[C_NR] = {
	[C_LIBC_V2] = { .name = "libc", .version = 2, .step = 1 },
	[C_LIBC_V3] = { .name = "libc", .version = 3, .step = 3 },
	[C_LIBC_ABS] = { .name = "libc abs", .version = 2, .flags = DW_SFRAME_GEN_ABS, .step = 7 },
	[C_PROG] = { .name = "prog", .version = 2, .step = 1 },
	[C_PROG_DBG] = { .name = "prog-dbg", .version = 3, .step = 1 },
};

/* Generate @c's table, open and validate it, compare every step-th PC with the CFI. */
static void case_make(struct gen_case *c)
{
	struct dw_sframe_gen_opts o = { .version = c->version, .flags = c->flags };
	struct t_cfi cfi;
	__u64 lo[8], hi[8];
	int i;

	c->err = dw_sframe_gen(c->path, &o, &c->r);
	if (c->err)
		return;
	c->open_err = t_open(&c->r, &c->m, &c->t);
	c->valid_err = c->open_err ? c->open_err : dunwind_sframe_validate(&c->t);
	c->cfi_err = t_cfi_open(&cfi, c->path);
	if (c->cfi_err)
		return;
	c->nseg = t_exec_ranges(&cfi, lo, hi, 8);
	for (i = 0; i < c->nseg; i++)
		t_compare(&cfi, &c->t, lo[i], hi[i], c->step, &c->k);
	printf("# %s v%u: %llu PCs checked, %llu covered (%.2f%%; %llu without CFI), "
	       "table %zu bytes, .eh_frame %llu, %.1f ms\n", c->name, c->version,
	       (unsigned long long)c->k.pcs, (unsigned long long)c->k.covered,
	       c->k.pcs ? 100.0 * (double)c->k.covered / (double)c->k.pcs : 0.0,
	       (unsigned long long)c->k.no_cfi, c->r.table_size,
	       (unsigned long long)c->r.stats.eh_frame_size, (double)c->r.stats.gen_ns / 1e6);
	t_cfi_close(&cfi);
}

FIXTURE(gen) {
	const struct gen_case *c;
};

FIXTURE_VARIANT(gen) {
	int id;
};

FIXTURE_VARIANT_ADD(gen, libc_v2) { .id = C_LIBC_V2 };
FIXTURE_VARIANT_ADD(gen, libc_v3) { .id = C_LIBC_V3 };
FIXTURE_VARIANT_ADD(gen, libc_abs) { .id = C_LIBC_ABS };
FIXTURE_VARIANT_ADD(gen, prog) { .id = C_PROG };
FIXTURE_VARIANT_ADD(gen, prog_dbg) { .id = C_PROG_DBG };

FIXTURE_SETUP(gen)
{
	self->c = &cases[variant->id];
	if (self->c->skip)
		SKIP(return, "%s", self->c->skip);
}

FIXTURE_TEARDOWN(gen)
{
}

TEST_F(gen, generated)
{
	EXPECT_EQ(0, self->c->err);
	EXPECT_NE(0, self->c->r.table_size);
}

TEST_F(gen, result_says_version_and_size)
{
	const struct gen_case *c = self->c;

	ASSERT_EQ(0, c->err);
	EXPECT_EQ(c->version, c->r.version);
	EXPECT_EQ(c->r.table_size, c->r.stats.table_size);
}

TEST_F(gen, decoder_opens_it)
{
	const struct gen_case *c = self->c;

	ASSERT_EQ(0, c->err);
	ASSERT_EQ(0, c->open_err);
	EXPECT_EQ(c->version, c->t.version);
	EXPECT_EQ(c->r.stats.sframe_fdes, c->t.num_fdes);
	EXPECT_EQ(c->r.stats.sframe_fres, c->t.num_fres);
	EXPECT_TRUE(c->t.flags & DUNWIND_SFRAME_F_FDE_SORTED);
	EXPECT_EQ(!(c->flags & DW_SFRAME_GEN_ABS),
		  !!(c->t.flags & DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL));
}

TEST_F(gen, every_fde_and_fre_validates)
{
	ASSERT_EQ(0, self->c->err);
	EXPECT_EQ(0, self->c->valid_err);
}

TEST_F(gen, pcs_across_executable_segments)
{
	ASSERT_EQ(0, self->c->err);
	ASSERT_EQ(0, self->c->cfi_err) TH_LOG("libdw cannot open %s", self->c->path);
	EXPECT_GT(self->c->nseg, 0);
	EXPECT_GT(self->c->k.pcs, 0);
}

TEST_F(gen, every_covered_rule_equals_the_cfi)
{
	const struct gen_case *c = self->c;

	ASSERT_EQ(0, c->err);
	ASSERT_EQ(0, c->cfi_err) TH_LOG("libdw cannot open %s", c->path);
	EXPECT_EQ(0, c->k.mismatches);
	EXPECT_EQ(0, c->k.bad_rows);
	EXPECT_EQ(0, c->k.errors);
}

TEST_F(gen, every_uncovered_pc_has_no_expressible_cfi)
{
	ASSERT_EQ(0, self->c->err);
	ASSERT_EQ(0, self->c->cfi_err) TH_LOG("libdw cannot open %s", self->c->path);
	EXPECT_EQ(0, self->c->k.missed);
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
	"\".size f_nocfi,.-f_nocfi\\n\"\n"
	/* A V8 builtin: no CFI, a frame set up after its first instruction. */
	"\".globl Builtins_DwTest\\n.type Builtins_DwTest,@function\\nBuiltins_DwTest:\\n\"\n"
	"\"mov %rdi,%rax\\npush %rbp\\nmov %rsp,%rbp\\npop %rbp\\nret\\n\"\n"
	"\".size Builtins_DwTest,.-Builtins_DwTest\\n\");\n"
	"void f_fp(void); void f_expr(void); void f_rareg(void); void f_outer(void);\n"
	"void f_r12(void); void f_nocfi(void);\n"
	"__attribute__((noinline)) int c_func(int x) { return x * 3 + 1; }\n"
	"int getpid(void);\n"
	"int main(int argc, char **argv) { (void)argv; return c_func(argc) == getpid() ? "
	"(f_fp(), 1) : 0; }\n";


static char bin_nobid[300];

/* The small program's symbols (made in main()). */
static struct {
	__u64 f_fp, f_expr, f_rareg, f_outer, f_r12, f_nocfi, v8, c_func, plt, dbg_c_func;
} sym;

/* Compile the small program three ways: 0, or why not. */
static const char *prog_build(void)
{
	char src[300], cmd[2048];
	const char *bin = cases[C_PROG].path, *dbg = cases[C_PROG_DBG].path;
	FILE *f;

	snprintf(src, sizeof(src), "%s/prog.c", tmpdir);
	f = fopen(src, "w");
	if (!f || fputs(t_prog, f) < 0 || fclose(f))
		return "cannot write the program's source in /tmp";
	snprintf(cmd, sizeof(cmd),
		 "cc -O1 -o %s %s 2>&1 && "
		 "cc -O1 -g -fno-asynchronous-unwind-tables -fno-exceptions -o %s %s 2>&1 && "
		 "cc -O1 -Wl,--build-id=none -o %s %s 2>&1",
		 bin, src, dbg, src, bin_nobid, src);
	if (system(cmd))
		return "cannot compile with cc: install gcc";
	sym.f_fp = t_sym(bin, "f_fp");
	sym.f_expr = t_sym(bin, "f_expr");
	sym.f_rareg = t_sym(bin, "f_rareg");
	sym.f_outer = t_sym(bin, "f_outer");
	sym.f_r12 = t_sym(bin, "f_r12");
	sym.f_nocfi = t_sym(bin, "f_nocfi");
	sym.v8 = t_sym(bin, "Builtins_DwTest");
	sym.c_func = t_sym(bin, "c_func");
	sym.plt = t_section(bin, ".plt");
	sym.dbg_c_func = t_sym(dbg, "c_func");
	return NULL;
}

FIXTURE(prog) {
	const struct dw_sframe_gen_result *r;
	struct dunwind_sframe_row row;
};

FIXTURE_SETUP(prog)
{
	const struct gen_case *c = &cases[C_PROG];

	if (c->skip)
		SKIP(return, "%s", c->skip);
	ASSERT_EQ(0, c->err);
	ASSERT_TRUE(sym.f_fp && sym.f_expr && sym.f_rareg && sym.f_outer && sym.f_r12 &&
		    sym.f_nocfi && sym.v8 && sym.c_func) TH_LOG("symbols of %s not found", c->path);
	self->r = &c->r;
}

FIXTURE_TEARDOWN(prog)
{
}

/* f_fp: push %rbp (1) mov %rsp,%rbp (3) nop nop pop %rbp (1) ret; the FP rule is kept. */
TEST_F(prog, f_fp_rows_follow_the_frame_setup)
{
	EXPECT_TRUE(t_rule(self->r, sym.f_fp, 7, 8, 0));
	EXPECT_TRUE(t_rule(self->r, sym.f_fp + 1, 7, 16, -16));
	EXPECT_TRUE(t_rule(self->r, sym.f_fp + 4, 6, 16, -16));
	EXPECT_TRUE(t_rule(self->r, sym.f_fp + 6, 6, 16, -16));
	EXPECT_TRUE(t_rule(self->r, sym.f_fp + 7, 7, 8, -16));
}

/* f_expr: nop | escape: nop nop | def_cfa: nop ret */
TEST_F(prog, f_expr_cfa_expression_range_uncovered)
{
	EXPECT_TRUE(t_rule(self->r, sym.f_expr, 7, 8, 0));
	EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, t_find(self->r, sym.f_expr + 1, &self->row));
	EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, t_find(self->r, sym.f_expr + 2, &self->row));
	EXPECT_TRUE(t_rule(self->r, sym.f_expr + 3, 7, 8, 0));
	EXPECT_TRUE(t_rule(self->r, sym.f_expr + 4, 7, 8, 0));
}

TEST_F(prog, f_rareg_ra_in_a_register_uncovered)
{
	EXPECT_TRUE(t_rule(self->r, sym.f_rareg, 7, 8, 0));
	EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, t_find(self->r, sym.f_rareg + 1, &self->row));
	EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, t_find(self->r, sym.f_rareg + 2, &self->row));
}

TEST_F(prog, f_outer_ra_undefined_is_outermost)
{
	ASSERT_EQ(0, t_find(self->r, sym.f_outer, &self->row));
	EXPECT_TRUE(self->row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF);
	ASSERT_EQ(0, t_find(self->r, sym.f_outer + 1, &self->row));
	EXPECT_TRUE(self->row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF);
}

TEST_F(prog, f_r12_cfa_in_r12_and_fp_in_rbx_uncovered)
{
	EXPECT_TRUE(t_rule(self->r, sym.f_r12, 7, 8, 0));
	EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, t_find(self->r, sym.f_r12 + 1, &self->row));
	EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, t_find(self->r, sym.f_r12 + 2, &self->row));
	EXPECT_TRUE(t_rule(self->r, sym.f_r12 + 3, 7, 8, 0));
}

TEST_F(prog, f_nocfi_uncovered)
{
	EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, t_find(self->r, sym.f_nocfi, &self->row));
}

/* Builtins_DwTest: mov (3) push %rbp (1) mov (3) pop %rbp (1) ret: FP's rule throughout. */
TEST_F(prog, v8_builtin_without_cfi_takes_the_fp_rule)
{
	EXPECT_TRUE(t_rule(self->r, sym.v8, 6, 16, -16));
	EXPECT_TRUE(t_rule(self->r, sym.v8 + 4, 6, 16, -16));
	EXPECT_TRUE(t_rule(self->r, sym.v8 + 8, 6, 16, -16));
	ASSERT_EQ(0, t_find(self->r, sym.v8, &self->row));
	EXPECT_EQ(sym.v8, self->row.pc_lo);
	EXPECT_EQ(sym.v8 + 9, self->row.pc_hi);
	EXPECT_EQ(9, self->r->stats.v8_bytes);
}

/* A lazy PLT entry (jmp *got 6, push 5, jmp 5): SP+8, then SP+16 after the push. */
TEST_F(prog, plt_entry_rows_by_pc_mask)
{
	if (!sym.plt)
		SKIP(return, "the toolchain made no .plt");
	EXPECT_TRUE(t_rule(self->r, sym.plt + 16, 7, 8, 0));
	EXPECT_TRUE(t_rule(self->r, sym.plt + 26, 7, 8, 0));
	EXPECT_TRUE(t_rule(self->r, sym.plt + 27, 7, 16, 0));
	EXPECT_TRUE(t_rule(self->r, sym.plt + 31, 7, 16, 0));
	ASSERT_EQ(0, t_find(self->r, sym.plt + 16, &self->row));
	EXPECT_EQ(sym.plt + 16, self->row.pc_lo);
	EXPECT_EQ(sym.plt + 27, self->row.pc_hi);
}

TEST_F(prog, statistics_count_each_reason)
{
	const struct dw_sframe_gen_stats *s = &self->r->stats;

	EXPECT_GE(s->why[DW_SFRAME_GEN_CFA_EXPR], 2);
	EXPECT_GE(s->why[DW_SFRAME_GEN_RA], 2);
	EXPECT_GE(s->why[DW_SFRAME_GEN_CFA_REG], 1);
	EXPECT_GE(s->why[DW_SFRAME_GEN_FP], 1);
	EXPECT_GE(s->outermost_bytes, 2);
	EXPECT_GE(s->why[DW_SFRAME_GEN_NO_CFI], 2);
}

/* .debug_frame only for the C functions of prog-dbg. */
TEST(prog_dbg_c_func_covered_from_debug_frame)
{
	const struct gen_case *c = &cases[C_PROG_DBG];
	struct dunwind_sframe_row row;

	if (c->skip)
		SKIP(return, "%s", c->skip);
	ASSERT_EQ(0, c->err);
	ASSERT_NE(0, sym.dbg_c_func);
	EXPECT_NE(0, c->r.stats.debug_frame_size);
	EXPECT_EQ(0, t_find(&c->r, sym.dbg_c_func, &row));
}

TEST(prog_dbg_no_debug_frame_leaves_c_func_uncovered)
{
	struct dw_sframe_gen_opts nodbg = { .flags = DW_SFRAME_GEN_NO_DEBUG_FRAME };
	const struct gen_case *c = &cases[C_PROG_DBG];
	struct dw_sframe_gen_result r;
	struct dunwind_sframe_row row;

	if (c->skip)
		SKIP(return, "%s", c->skip);
	ASSERT_NE(0, sym.dbg_c_func);
	ASSERT_EQ(0, dw_sframe_gen(c->path, &nodbg, &r));
	EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, t_find(&r, sym.dbg_c_func, &row));
	dw_sframe_gen_free(&r);
}

TEST(register_refuses_a_file_without_build_id)
{
	struct dw_sframe_reg_file rf;

	if (cases[C_PROG].skip)
		SKIP(return, "%s", cases[C_PROG].skip);
	EXPECT_EQ(-ENODATA, dw_sframe_register_file(-1, bin_nobid, NULL, &rf));
	EXPECT_EQ(DW_SFRAME_SRC_NONE, rf.source);
}

/*
 * .init and .fini have no CFI: covered from their instructions, entered at
 * their first byte (CFA = SP + 8), also where zero fill precedes them (as
 * before bash's .fini).  The file is $DW_TEST_BASH, default /bin/bash.
 */
TEST(init_and_fini_covered_at_their_start)
{
	const char *bin = getenv("DW_TEST_BASH") ? getenv("DW_TEST_BASH") : "/bin/bash";
	struct dw_sframe_gen_result r;
	__u64 init, fini;

	if (access(bin, R_OK))
		SKIP(return, "%s not readable: set DW_TEST_BASH", bin);
	init = t_section(bin, ".init");
	fini = t_section(bin, ".fini");
	ASSERT_TRUE(init && fini) TH_LOG("%s has no .init or .fini", bin);
	ASSERT_EQ(0, dw_sframe_gen(bin, NULL, &r));
	EXPECT_TRUE(t_rule(&r, init, DUNWIND_SFRAME_REG_SP, 8, 0));
	EXPECT_TRUE(t_rule(&r, fini, DUNWIND_SFRAME_REG_SP, 8, 0));
	dw_sframe_gen_free(&r);
}

/* ---------- a stripped library with V8 in it ---------- */

/*
 * A shared library, stripped, whose .text holds 600 KB without CFI (as
 * V8's embedded builtins in Debian's libnode.so.108), and, if @v8, V8's
 * v8::internal::Isolate::embedded_blob_code() in its .dynsym.  Its
 * stripped path in @lib, the blob's address in *@blob: NULL, or why not.
 */
static const char *v8lib_build(int v8, char *lib, size_t size, __u64 *blob)
{
	static const char src_text[] =
		"asm(\".text\\n.globl v8blob\\n.type v8blob,@function\\nv8blob:\\n\"\n"
		"\"push %rbp\\nmov %rsp,%rbp\\npop %rbp\\nret\\n.skip 600000, 0xcc\\n\"\n"
		"\".size v8blob,.-v8blob\\n\");\n"
		"int dw_lib_func(int x) { return x * 7; }\n"
		"#ifdef V8\n"
		"void _ZNK2v88internal7Isolate18embedded_blob_codeEv(void) {}\n"
		"#endif\n";
	char src[300], full[320], cmd[2048];
	FILE *f;

	snprintf(src, sizeof(src), "%s/v8lib.c", tmpdir);
	snprintf(full, sizeof(full), "%s/v8lib%d-full.so", tmpdir, v8);
	snprintf(lib, size, "%s/v8lib%d.so", tmpdir, v8);
	f = fopen(src, "w");
	if (!f || fputs(src_text, f) < 0 || fclose(f))
		return "cannot write the library's source in /tmp";
	snprintf(cmd, sizeof(cmd), "cc -shared -fPIC -O1 %s -o %s %s 2>&1 && strip -o %s %s 2>&1",
		 v8 ? "-DV8" : "", full, src, lib, full);
	if (system(cmd))
		return "cannot build a shared library with cc and strip: install gcc and binutils";
	*blob = t_sym(full, "v8blob");
	return *blob ? NULL : "the library's symbol v8blob not found";
}

FIXTURE(v8lib) {
	struct dw_sframe_gen_result r;
	__u64 blob;
	int made;
};

FIXTURE_VARIANT(v8lib) {
	int v8;
};

FIXTURE_VARIANT_ADD(v8lib, with_v8) { .v8 = 1 };
FIXTURE_VARIANT_ADD(v8lib, without_v8) { .v8 = 0 };

FIXTURE_SETUP(v8lib)
{
	char lib[300];
	const char *why = v8lib_build(variant->v8, lib, sizeof(lib), &self->blob);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, dw_sframe_gen(lib, NULL, &self->r));
	self->made = 1;
}

FIXTURE_TEARDOWN(v8lib)
{
	if (self->made)
		dw_sframe_gen_free(&self->r);
}

/*
 * The stripped library's largest gap without CFI gets FP's rule if V8 is
 * in it (its builtins), and nothing is guessed if not.
 */
TEST_F(v8lib, largest_gap_takes_the_fp_rule_only_with_v8)
{
	struct dunwind_sframe_row row;

	if (!variant->v8) {
		EXPECT_EQ(-DUNWIND_SFRAME_ENOENT, t_find(&self->r, self->blob + 300000, &row));
		EXPECT_EQ(0, self->r.stats.v8_bytes);
		return;
	}
	EXPECT_TRUE(t_rule(&self->r, self->blob, 6, 16, -16));
	EXPECT_TRUE(t_rule(&self->r, self->blob + 300000, 6, 16, -16));
	EXPECT_TRUE(t_rule(&self->r, self->blob + 600003, 6, 16, -16));
	EXPECT_LE(600004, self->r.stats.v8_bytes);
}

/* ---------- hostile inputs ---------- */

TEST(hostile_empty_file_is_not_elf)
{
	struct dw_sframe_gen_result r;
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "%s/empty", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	close(fd);
	EXPECT_EQ(-ENOEXEC, dw_sframe_gen(path, NULL, &r));
	EXPECT_EQ(NULL, r.table);
}

TEST(hostile_missing_file_is_enoent)
{
	struct dw_sframe_gen_result r;

	EXPECT_EQ(-ENOENT, dw_sframe_gen("/nonexistent/file", NULL, &r));
}

TEST(hostile_version_1_is_refused)
{
	struct dw_sframe_gen_opts bad = { .version = 1 };
	struct dw_sframe_gen_result r;

	if (!libc_ok)
		SKIP(return, "%s not readable: set DW_TEST_LIBC", libc);
	EXPECT_EQ(-EINVAL, dw_sframe_gen(libc, &bad, &r));
}

/*
 * A shared library's .text starts with crtstuff's functions, which have no
 * CFI, after the zero fill that follows .plt.got: the gap's scan starts at
 * .text, so __do_global_dtors_aux (run by dlclose) is covered from its entry.
 */
TEST(lib_crtstuff_after_zero_fill_covered)
{
	struct dw_sframe_gen_result r;
	char src[300], lib[300], cmd[1000];
	__u64 dtors;
	FILE *f;

	snprintf(src, sizeof(src), "%s/lib.c", tmpdir);
	snprintf(lib, sizeof(lib), "%s/lib.so", tmpdir);
	f = fopen(src, "w");
	ASSERT_NE(NULL, f);
	ASSERT_LE(0, fputs("int lib_f(int x) { return x + 1; }\n", f));
	ASSERT_EQ(0, fclose(f));
	snprintf(cmd, sizeof(cmd), "cc -O2 -fPIC -shared -o %s %s 2>&1", lib, src);
	if (system(cmd))
		SKIP(return, "cannot compile with cc: install gcc");
	dtors = t_sym(lib, "__do_global_dtors_aux");
	if (!dtors)
		SKIP(return, "the toolchain's crtstuff has no __do_global_dtors_aux");
	ASSERT_EQ(0, dw_sframe_gen(lib, NULL, &r));
	EXPECT_TRUE(t_rule(&r, dtors, 7, 8, 0)) TH_LOG("no SP+8 rule at its entry %#llx",
						      (unsigned long long)dtors);
	EXPECT_LT(0, r.stats.gap_bytes);
	dw_sframe_gen_free(&r);
}

TEST(hostile_truncated_libc_does_not_crash)
{
	struct dw_sframe_gen_result r;
	char path[300], cmd[700];
	int err;

	if (!libc_ok)
		SKIP(return, "%s not readable: set DW_TEST_LIBC", libc);
	snprintf(path, sizeof(path), "%s/trunc", tmpdir);
	snprintf(cmd, sizeof(cmd), "head -c 1800000 %s > %s", libc, path);
	ASSERT_EQ(0, system(cmd));
	err = dw_sframe_gen(path, NULL, &r);
	EXPECT_TRUE(err || r.table_size);
	dw_sframe_gen_free(&r);
}

int main(int argc, char **argv)
{
	const char *why;
	char cmd[300];
	int i, rc;

	elf_version(EV_CURRENT);
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "%s/xdg", tmpdir);
	setenv("XDG_CACHE_HOME", cmd, 1);	/* never the user's cache */
	libc = getenv("DW_TEST_LIBC") ? getenv("DW_TEST_LIBC") : DEFAULT_LIBC;
	libc_ok = !access(libc, R_OK);
	for (i = C_LIBC_V2; i <= C_LIBC_ABS; i++) {
		snprintf(cases[i].path, sizeof(cases[i].path), "%s", libc);
		cases[i].skip = libc_ok ? NULL : "libc not readable: set DW_TEST_LIBC";
	}
	snprintf(cases[C_PROG].path, sizeof(cases[C_PROG].path), "%s/prog", tmpdir);
	snprintf(cases[C_PROG_DBG].path, sizeof(cases[C_PROG_DBG].path), "%s/prog-dbg", tmpdir);
	snprintf(bin_nobid, sizeof(bin_nobid), "%s/prog-nobid", tmpdir);
	why = prog_build();
	cases[C_PROG].skip = cases[C_PROG_DBG].skip = why;
	for (i = 0; i < C_NR; i++)
		if (!cases[i].skip)
			case_make(&cases[i]);
	if (__sanitizer_purge_allocator)
		__sanitizer_purge_allocator();	/* fewer pages for each fork to copy */
	rc = test_harness_run(argc, argv);
	for (i = 0; i < C_NR; i++)
		if (!cases[i].skip && !cases[i].err)
			dw_sframe_gen_free(&cases[i].r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		printf("# could not remove %s\n", tmpdir);
	return rc;
}
