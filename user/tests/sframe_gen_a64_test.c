// SPDX-License-Identifier: GPL-2.0
/*
 * The generator (user/sframe/sframe_gen.c) on AArch64 files: a program
 * built here with the cross compiler (aarch64-linux-gnu-gcc, frame
 * pointers omitted, return addresses signed with pac-ret, -Wa,--gsframe)
 * gets from its .eh_frame an AArch64 table that answers like the
 * assembler's own .sframe at every PC both cover (CFA from SP or x29, the
 * RA in x30 or saved, x29 saved or not); gaps without CFI stay uncovered
 * but for the linker's PLT, whose stubs get rows; x30 saved after the CFA
 * moved is a row of its own;
 * a slot that CFI puts above the CFA (glibc's lazy-binding resolver) moves
 * the CFA above it;
 * Debian's arm64 libc (tools/arm64-sysroot) gets a table that validates.
 * Without the cross compiler (or the sysroot) the tests SKIP.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "files.h"
#include "sframe_mem.h"
#include "elf_sframe.h"
#include "sframe/sframe_gen.h"

static const char *prog_c =
	"#include <stdio.h>\n#include <string.h>\n"
	"int __attribute__((noinline)) leaf(int x) { return x * 3 + 1; }\n"
	"int __attribute__((noinline)) mid(int n) { char buf[256]; int s = 0;\n"
	"  memset(buf, n, sizeof buf); for (int i = 0; i < n; i++) s += leaf(buf[i % 256]);\n"
	"  return s; }\n"
	"static int __attribute__((noinline)) big(int n) { volatile char a[70000];\n"
	"  for (int i = 0; i < n; i++) a[i % 70000] = (char)i; return a[n % 70000]; }\n"
	"int main(int argc, char **argv) { (void)argv;\n"
	"  printf(\"%d %d\\n\", mid(argc * 100), big(argc)); return 0; }\n";

/* A function without CFI: assembly the generator must leave uncovered. */
static const char *nocfi_s =
	"\t.text\n\t.globl nocfi\n\t.type nocfi, %function\nnocfi:\n"
	"\tstr x30, [sp, -16]!\n\tbl leaf\n\tldr x30, [sp], 16\n\tret\n\t.size nocfi, .-nocfi\n";

static char dir[] = "/tmp/dw_sframe_gen_a64_XXXXXX";
static char bin[512];

/* Build the program once; "" in bin if the cross compiler is missing. */
static int build(void)
{
	char cmd[2048], src[600], asm_src[600];

	if (bin[0])
		return 0;
	if (system("aarch64-linux-gnu-gcc --version >/dev/null 2>&1"))
		return -1;
	if (!mkdtemp(dir))
		return -1;
	snprintf(src, sizeof(src), "%s/p.c", dir);
	snprintf(asm_src, sizeof(asm_src), "%s/n.s", dir);
	if (write_text(src, prog_c) || write_text(asm_src, nocfi_s))
		return -1;
	snprintf(bin, sizeof(bin), "%s/p", dir);
	snprintf(cmd, sizeof(cmd), "aarch64-linux-gnu-gcc -O2 -fomit-frame-pointer "
		 "-fno-optimize-sibling-calls -mbranch-protection=pac-ret -Wa,--gsframe "
		 "-o %s %s %s >/dev/null 2>&1", bin, src, asm_src);
	if (system(cmd)) {
		bin[0] = 0;
		return -1;
	}
	return 0;
}

static int open_a64(struct dunwind_sframe_table *t, struct mem *m, const __u8 *p, size_t n,
		    __u64 vaddr)
{
	struct dunwind_sframe_src src = { mem_read, m, n };

	m->p = p;
	m->n = n;
	m->fail_from = n;
	m->reads = 0;
	return dunwind_sframe_open_abi(t, &src, vaddr, DUNWIND_SFRAME_ABI_AARCH64_LE);
}

TEST(generated_rows_answer_like_the_assemblers)
{
	struct dunwind_sframe_table as_t, gen_t;
	struct dw_sframe_gen_result r;
	struct dw_sframe_gen_opts o = { .version = DUNWIND_SFRAME_V3 };
	struct dunwind_sframe_fde fde;
	struct mem as_m, gen_m;
	size_t len, compared = 0, saved_ra = 0, in_lr = 0;
	__u64 vaddr, pc;
	__u8 *as_sec;
	__u32 i;

	if (build())
		SKIP(return, "no aarch64-linux-gnu-gcc with --gsframe: apt-get install "
			     "gcc-aarch64-linux-gnu");
	ASSERT_EQ(0, load_sframe(bin, &as_sec, &len, &vaddr));
	ASSERT_EQ(0, open_a64(&as_t, &as_m, as_sec, len, vaddr));
	ASSERT_EQ(0, dw_sframe_gen(bin, &o, &r));
	ASSERT_EQ(0, open_a64(&gen_t, &gen_m, r.table, r.table_size, r.sec_vaddr));
	ASSERT_EQ(0, dunwind_sframe_validate(&gen_t));
	EXPECT_EQ(0, r.ext);
	for (i = 0; i < as_t.num_fdes; i++) {
		ASSERT_EQ(0, dunwind_sframe_get_fde(&as_t, i, &fde));
		for (pc = fde.start; pc < fde.start + fde.size; pc += 4) {
			struct dunwind_sframe_row a, g;

			ASSERT_EQ(0, dunwind_sframe_find(&as_t, pc, &a));
			ASSERT_EQ(0, dunwind_sframe_find(&gen_t, pc, &g)) TH_LOG("pc %#llx", pc);
			EXPECT_TRUE(rule_eq(&a.cfa, &g.cfa)) TH_LOG("pc %#llx: CFA", pc);
			EXPECT_TRUE(rule_eq(&a.ra, &g.ra)) TH_LOG("pc %#llx: RA", pc);
			EXPECT_TRUE(rule_eq(&a.fp, &g.fp)) TH_LOG("pc %#llx: FP", pc);
			compared++;
			saved_ra += a.ra.kind == DUNWIND_SFRAME_RULE_CFA;
			in_lr += a.ra.kind == DUNWIND_SFRAME_RULE_REG;
		}
	}
	TH_LOG("%zu PCs compared: RA saved at %zu, in x30 at %zu", compared, saved_ra, in_lr);
	EXPECT_GT(saved_ra, 0);
	EXPECT_GT(in_lr, 0);
	free(as_sec);
	dw_sframe_gen_free(&r);
}

TEST(gap_without_cfi_stays_uncovered)
{
	struct dw_sframe_gen_result r;
	struct dunwind_sframe_table t;
	struct dunwind_sframe_row row;
	char cmd[1024], *out;
	struct mem m;
	__u64 nocfi;

	if (build())
		SKIP(return, "no aarch64-linux-gnu-gcc: apt-get install gcc-aarch64-linux-gnu");
	snprintf(cmd, sizeof(cmd), "aarch64-linux-gnu-nm %s | sed -n 's/ T nocfi$//p'", bin);
	out = cmd_output(cmd);
	ASSERT_NE(NULL, out);
	nocfi = strtoull(out, NULL, 16);
	free(out);
	ASSERT_NE(0, nocfi);
	ASSERT_EQ(0, dw_sframe_gen(bin, NULL, &r));
	ASSERT_EQ(0, open_a64(&t, &m, r.table, r.table_size, r.sec_vaddr));
	EXPECT_EQ(-ENOENT, dunwind_sframe_find(&t, nocfi + 4, &row));
	/* The linker's PLT is the only code without CFI that gets rows. */
	snprintf(cmd, sizeof(cmd), "readelf -SW %s | sed -n 's/.* \\.plt  *PROGBITS  *[0-9a-f]*"
		 "  *[0-9a-f]*  *\\([0-9a-f]*\\) .*/\\1/p'", bin);
	out = cmd_output(cmd);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(strtoull(out, NULL, 16), r.stats.gap_bytes);
	free(out);
	dw_sframe_gen_free(&r);
}

/*
 * glibc's aarch64 lazy-binding resolver's CFI: PLT0 pushed x16 and x30
 * ("stp x16, x30, [sp, #-16]!") before branching here, and the CFI keeps
 * CFA = SP at entry with x30 saved at CFA + 8, above the CFA.
 */
static const char *pushed_s =
	"\t.text\n\t.globl resolver\n\t.type resolver, %function\nresolver:\n"
	"\t.cfi_startproc\n\t.cfi_rel_offset x30, 8\n"
	"\tstp x8, x9, [sp, -32]!\n\t.cfi_adjust_cfa_offset 32\n"
	"\tnop\n"
	"\tldp x8, x9, [sp], 32\n\t.cfi_adjust_cfa_offset -32\n"
	"\tldp x16, x30, [sp], 16\n\tbr x16\n\t.cfi_endproc\n\t.size resolver, .-resolver\n";

/* The rule at @pc: CFA = SP + @cfa, the RA at CFA + @ra, x29 unchanged. */
static void expect_sp_rule(struct __test_metadata *_metadata, const struct dunwind_sframe_table *t,
			   __u64 pc, __s32 cfa, __s32 ra)
{
	struct dunwind_sframe_row row;

	ASSERT_EQ(0, dunwind_sframe_find(t, pc, &row)) TH_LOG("pc %#llx", pc);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_REG, row.cfa.kind);
	EXPECT_EQ(31, row.cfa.reg);
	EXPECT_EQ(cfa, row.cfa.off) TH_LOG("pc %#llx: CFA = SP + %d", pc, row.cfa.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_CFA, row.ra.kind);
	EXPECT_EQ(1, row.ra.deref);
	EXPECT_EQ(ra, row.ra.off) TH_LOG("pc %#llx: RA at CFA + %d", pc, row.ra.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_UNDEF, row.fp.kind);
}

TEST(slot_above_the_cfa_raises_it)
{
	struct dw_sframe_gen_result r;
	struct dunwind_sframe_table t;
	char rdir[] = "/tmp/dw_sframe_gen_a64_r_XXXXXX";
	char cmd[2048], src[600], so[600], *out;
	struct mem m;
	__u64 at;

	/* Assembled and linked without a C library: the cross binutils suffice. */
	if (system("aarch64-linux-gnu-gcc --version >/dev/null 2>&1"))
		SKIP(return, "no aarch64-linux-gnu-gcc: apt-get install gcc-aarch64-linux-gnu");
	ASSERT_NE(NULL, mkdtemp(rdir));
	snprintf(src, sizeof(src), "%s/r.s", rdir);
	snprintf(so, sizeof(so), "%s/r.so", rdir);
	ASSERT_EQ(0, write_text(src, pushed_s));
	snprintf(cmd, sizeof(cmd), "aarch64-linux-gnu-gcc -shared -nostdlib -o %s %s && "
		 "aarch64-linux-gnu-nm %s | sed -n 's/ T resolver$//p'", so, src, so);
	out = cmd_output(cmd);
	ASSERT_NE(NULL, out);
	at = strtoull(out, NULL, 16);
	free(out);
	ASSERT_NE(0, at);
	ASSERT_EQ(0, dw_sframe_gen(so, NULL, &r));
	ASSERT_EQ(0, open_a64(&t, &m, r.table, r.table_size, r.sec_vaddr));
	ASSERT_EQ(0, dunwind_sframe_validate(&t));
	/* The caller's SP is above PLT0's 16 bytes; x30's slot stays where it is. */
	expect_sp_rule(_metadata, &t, at, 16, -8);
	expect_sp_rule(_metadata, &t, at + 4, 48, -8);
	expect_sp_rule(_metadata, &t, at + 8, 48, -8);
	expect_sp_rule(_metadata, &t, at + 12, 16, -8);
	dw_sframe_gen_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", rdir);
	EXPECT_EQ(0, system(cmd));
}

/* The rule at @pc: CFA = SP + @cfa, the RA still in x30. */
static void expect_in_lr(struct __test_metadata *_metadata, const struct dunwind_sframe_table *t,
			 __u64 pc, __s32 cfa)
{
	struct dunwind_sframe_row row;

	ASSERT_EQ(0, dunwind_sframe_find(t, pc, &row)) TH_LOG("pc %#llx", pc);
	EXPECT_EQ(31, row.cfa.reg);
	EXPECT_EQ(cfa, row.cfa.off) TH_LOG("pc %#llx: CFA = SP + %d", pc, row.cfa.off);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_REG, row.ra.kind) TH_LOG("pc %#llx", pc);
	EXPECT_EQ(30, row.ra.reg);
	EXPECT_EQ(DUNWIND_SFRAME_RULE_UNDEF, row.fp.kind);
}

/*
 * The linker writes no CFI for .plt: its standard stubs get CFA = SP and
 * the RA in x30; PLT0 the same until its push of x16 and x30.
 */
TEST(plt_stubs_get_rows)
{
	char rdir[] = "/tmp/dw_sframe_gen_a64_p_XXXXXX";
	char cmd[2048], src[600], so[600], *out;
	struct dw_sframe_gen_result r;
	struct dunwind_sframe_table t;
	struct mem m;
	__u64 plt;

	if (system("aarch64-linux-gnu-gcc --version >/dev/null 2>&1"))
		SKIP(return, "no aarch64-linux-gnu-gcc: apt-get install gcc-aarch64-linux-gnu");
	ASSERT_NE(NULL, mkdtemp(rdir));
	snprintf(src, sizeof(src), "%s/p.s", rdir);
	snprintf(so, sizeof(so), "%s/p.so", rdir);
	ASSERT_EQ(0, write_text(src, "\t.text\n\t.globl f\n\t.type f, %function\nf:\n"
				"\t.cfi_startproc\n\tstp x29, x30, [sp, -16]!\n"
				"\t.cfi_def_cfa_offset 16\n\t.cfi_offset 29, -16\n"
				"\t.cfi_offset 30, -8\n\tbl ext_fn\n\tbl ext_gn\n"
				"\tldp x29, x30, [sp], 16\n\t.cfi_restore 30\n\t.cfi_restore 29\n"
				"\t.cfi_def_cfa_offset 0\n\tret\n\t.cfi_endproc\n"
				"\t.size f, .-f\n"));
	snprintf(cmd, sizeof(cmd), "aarch64-linux-gnu-gcc -shared -nostdlib -o %s %s && "
		 "aarch64-linux-gnu-objdump -d %s | sed -n 's/^\\([0-9a-f]*\\) <\\.plt>:$/\\1/p'",
		 so, src, so);
	out = cmd_output(cmd);
	ASSERT_NE(NULL, out);
	plt = strtoull(out, NULL, 16);
	free(out);
	ASSERT_NE(0, plt);
	ASSERT_EQ(0, dw_sframe_gen(so, NULL, &r));
	ASSERT_EQ(0, open_a64(&t, &m, r.table, r.table_size, r.sec_vaddr));
	ASSERT_EQ(0, dunwind_sframe_validate(&t));
	EXPECT_EQ(32 + 2 * 16, r.stats.gap_bytes);
	expect_in_lr(_metadata, &t, plt, 0);
	expect_sp_rule(_metadata, &t, plt + 4, 16, -8);
	expect_sp_rule(_metadata, &t, plt + 28, 16, -8);
	expect_in_lr(_metadata, &t, plt + 32, 0);
	expect_in_lr(_metadata, &t, plt + 44, 0);
	expect_in_lr(_metadata, &t, plt + 48 + 12, 0);
	dw_sframe_gen_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", rdir);
	EXPECT_EQ(0, system(cmd));
}

/*
 * x30 saved one instruction after the CFA moved (gcc without frame
 * pointers: "stp x19, x20, [sp, -64]!" then "str x30, [sp, 16]"): two rows
 * with the same CFA, the RA in x30 then saved.
 */
static const char *ra_later_s =
	"\t.text\n\t.globl f\n\t.type f, %function\nf:\n\t.cfi_startproc\n"
	"\tstp x19, x20, [sp, -64]!\n\t.cfi_def_cfa_offset 64\n"
	"\t.cfi_offset 19, -64\n\t.cfi_offset 20, -56\n"
	"\tstr x30, [sp, 16]\n\t.cfi_offset 30, -48\n"
	"\tnop\n\tldr x30, [sp, 16]\n\t.cfi_restore 30\n"
	"\tldp x19, x20, [sp], 64\n\t.cfi_restore 20\n\t.cfi_restore 19\n"
	"\t.cfi_def_cfa_offset 0\n\tret\n\t.cfi_endproc\n\t.size f, .-f\n";

TEST(ra_saved_after_the_cfa_moved_is_a_row_of_its_own)
{
	char rdir[] = "/tmp/dw_sframe_gen_a64_l_XXXXXX";
	char cmd[2048], src[600], so[600], *out;
	struct dw_sframe_gen_result r;
	struct dunwind_sframe_table t;
	struct mem m;
	__u64 f;

	if (system("aarch64-linux-gnu-gcc --version >/dev/null 2>&1"))
		SKIP(return, "no aarch64-linux-gnu-gcc: apt-get install gcc-aarch64-linux-gnu");
	ASSERT_NE(NULL, mkdtemp(rdir));
	snprintf(src, sizeof(src), "%s/l.s", rdir);
	snprintf(so, sizeof(so), "%s/l.so", rdir);
	ASSERT_EQ(0, write_text(src, ra_later_s));
	snprintf(cmd, sizeof(cmd), "aarch64-linux-gnu-gcc -shared -nostdlib -o %s %s && "
		 "aarch64-linux-gnu-nm %s | sed -n 's/ T f$//p'", so, src, so);
	out = cmd_output(cmd);
	ASSERT_NE(NULL, out);
	f = strtoull(out, NULL, 16);
	free(out);
	ASSERT_NE(0, f);
	ASSERT_EQ(0, dw_sframe_gen(so, NULL, &r));
	ASSERT_EQ(0, open_a64(&t, &m, r.table, r.table_size, r.sec_vaddr));
	expect_in_lr(_metadata, &t, f, 0);
	{
		struct dunwind_sframe_row row;

		ASSERT_EQ(0, dunwind_sframe_find(&t, f + 4, &row));
		EXPECT_EQ(64, row.cfa.off);
		EXPECT_EQ(DUNWIND_SFRAME_RULE_REG, row.ra.kind) TH_LOG("x30 not saved yet");
	}
	expect_sp_rule(_metadata, &t, f + 8, 64, -48);
	expect_sp_rule(_metadata, &t, f + 12, 64, -48);
	dw_sframe_gen_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", rdir);
	EXPECT_EQ(0, system(cmd));
}

TEST(debian_arm64_libc)
{
	char *root = cmd_output("../tools/arm64-sysroot path 2>/dev/null");
	struct dw_sframe_gen_result r;
	struct dunwind_sframe_table t;
	char path[1024];
	struct mem m;

	if (!root || !*root) {
		free(root);
		SKIP(return, "no arm64 sysroot: tools/arm64-sysroot fetch");
	}
	root[strcspn(root, "\n")] = 0;
	snprintf(path, sizeof(path), "%s/lib/aarch64-linux-gnu/libc.so.6", root);
	free(root);
	ASSERT_EQ(0, dw_sframe_gen(path, NULL, &r));
	ASSERT_EQ(0, open_a64(&t, &m, r.table, r.table_size, r.sec_vaddr));
	EXPECT_EQ(0, dunwind_sframe_validate(&t));
	TH_LOG("libc.so.6: %u FDEs, %u FREs, .text %.1f%% covered", t.num_fdes, t.num_fres,
	       r.stats.text_bytes ? 100.0 * r.stats.text_covered_bytes / r.stats.text_bytes : 0);
	EXPECT_GE(r.stats.text_covered_bytes * 100, r.stats.text_bytes * 95);
	dw_sframe_gen_free(&r);
}

TEST_HARNESS_MAIN
