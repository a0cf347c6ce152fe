// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame tables of real binaries, built here with `gcc -Wa,--gsframe`
 * (binutils >= 2.40; else the tests skip): the decoder (lib/sframe.c)
 * opens and validates them, functions start at their symbols, every PC
 * looks up the same after re-encoding (user/sframe/sframe_enc.c) in each
 * version, and `dunwind sframe dump` prints what `objdump --sframe` does.
 * The tool is $DUNWIND (user/Makefile's test target sets it); without it
 * the tests of the tool skip.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "files.h"
#include "sframe_mem.h"
#include "elf_sframe.h"

static char dir[] = "/tmp/dw_sframe_XXXXXX";
static int made_dir;
static char tool[512];		/* "$DUNWIND sframe", or "" */

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

/* The binaries, built once by main() into dir/b<k>. */
static const struct bin {
	const char *src, *cc;
} bins[] = {
	{ "p.c", "gcc -O2 -fomit-frame-pointer -Wa,--gsframe" },
	{ "p.c", "gcc -O0 -fno-omit-frame-pointer -Wa,--gsframe" },
	{ "p.c", "gcc -O2 -fPIC -shared -Wa,--gsframe" },
	{ "s.S", "gcc -c -Wa,--gsframe" },
	{ "s.S", "gcc -shared -nostdlib -Wa,--gsframe" },
};
static int built[5];

/* The functions of table @t as the encoder takes them; free with free_funcs(). */
static struct dw_sframe_enc_func *decode_funcs(const struct dunwind_sframe_table *t)
{
	struct dw_sframe_enc_func *fs = calloc(t->num_fdes + 1, sizeof(*fs));
	struct dunwind_sframe_fde fde;
	struct dunwind_sframe_fre fre;
	struct dunwind_sframe_row row;
	__u32 i, j;

	for (i = 0; fs && i < t->num_fdes; i++) {
		struct dw_sframe_enc_row *rows;
		__u64 off;

		dunwind_sframe_get_fde(t, i, &fde);
		rows = calloc(fde.num_fres + 1, sizeof(*rows));
		fs[i] = (struct dw_sframe_enc_func){ fde.start, fde.size, fde.pc_type, fde.rep_size,
						     fde.signal, fde.num_fres, rows };
		off = fde.fres_off;
		for (j = 0; j < fde.num_fres; j++) {
			dunwind_sframe_get_fre(t, &fde, off, &fre);
			dunwind_sframe_fre_rules(t, &fde, &fre, &row);
			off += fre.len;
			rows[j].pc_off = fre.start;
			rows[j].ra_undef = !!(row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF);
			rows[j].cfa = row.cfa;
			rows[j].ra = row.ra;
			rows[j].fp = row.fp;
		}
	}
	return fs;
}

static void free_funcs(struct dw_sframe_enc_func *fs, __u32 n)
{
	__u32 i;

	for (i = 0; fs && i < n; i++)
		free((void *)fs[i].rows);
	free(fs);
}

/* Do @t and @t2 give the same row (or the same error) at @pc? */
static int same_lookup(const struct dunwind_sframe_table *t,
		       const struct dunwind_sframe_table *t2, __u64 pc)
{
	struct dunwind_sframe_row a, b;
	int e1 = dunwind_sframe_find(t, pc, &a);
	int e2 = dunwind_sframe_find(t2, pc, &b);

	if (e1 != e2) {
		ksft_print_msg("pc 0x%llx: %d, re-encoded %d\n", (unsigned long long)pc, e1, e2);
		return 0;
	}
	if (!e1 && (a.pc_lo != b.pc_lo || a.pc_hi != b.pc_hi || a.flags != b.flags ||
		    !rule_eq(&a.cfa, &b.cfa) || !rule_eq(&a.fp, &b.fp) || !rule_eq(&a.ra, &b.ra))) {
		ksft_print_msg("pc 0x%llx: the rows differ\n", (unsigned long long)pc);
		return 0;
	}
	return 1;
}

FIXTURE(real) {
	char path[64];
	__u8 *sec;
	size_t len;
	__u64 vaddr;
	struct dunwind_sframe_table t;
	struct mem m;
};

FIXTURE_VARIANT(real) {
	int k;			/* bins[k] */
	int c_program;		/* built from p.c: main, leaf, mid, va */
};

FIXTURE_VARIANT_ADD(real, O2_omit_fp) { .k = 0, .c_program = 1 };
FIXTURE_VARIANT_ADD(real, O0_frame_pointer) { .k = 1, .c_program = 1 };
FIXTURE_VARIANT_ADD(real, shared_lib) { .k = 2, .c_program = 1 };
FIXTURE_VARIANT_ADD(real, asm_object) { .k = 3 };
FIXTURE_VARIANT_ADD(real, asm_linked) { .k = 4 };

FIXTURE_SETUP(real)
{
	if (!built[variant->k])
		SKIP(return, "gcc -Wa,--gsframe unavailable (binutils >= 2.40 needed)");
	snprintf(self->path, sizeof(self->path), "%s/b%d", dir, variant->k);
	ASSERT_EQ(0, load_sframe(self->path, &self->sec, &self->len, &self->vaddr))
		TH_LOG("%s has no .sframe", self->path);
	ASSERT_EQ(0, open_mem(&self->t, &self->m, self->sec, self->len, self->vaddr));
}

FIXTURE_TEARDOWN(real)
{
	free(self->sec);
}

TEST_F(real, table_opens_and_validates)
{
	EXPECT_EQ(0, dunwind_sframe_validate(&self->t));
	ksft_print_msg("v%u table, %u FDEs, %u FREs\n", self->t.version, self->t.num_fdes,
		       self->t.num_fres);
}

/* main, leaf, mid and va start at their symbols, with CFA = sp+8. */
TEST_F(real, functions_start_at_their_symbols)
{
	char cmd[128], *nm, *c;
	int seen = 0;

	if (!variant->c_program)
		SKIP(return, "no C functions in the assembler source");
	snprintf(cmd, sizeof(cmd), "nm %s", self->path);
	nm = cmd_output(cmd);
	ASSERT_NE(NULL, nm);
	for (c = nm; *c; c = strchr(c, '\n') ? strchr(c, '\n') + 1 : "") {
		unsigned long long a;
		char ty, sym[128];
		struct dunwind_sframe_row r;

		if (sscanf(c, "%llx %c %127s", &a, &ty, sym) != 3 || (ty != 'T' && ty != 't') ||
		    (strcmp(sym, "main") && strcmp(sym, "leaf") && strcmp(sym, "mid") &&
		     strcmp(sym, "va")))
			continue;
		seen++;
		ASSERT_EQ(0, dunwind_sframe_find(&self->t, a, &r)) TH_LOG("%s", sym);
		EXPECT_EQ(a, r.func_start) TH_LOG("%s", sym);
		EXPECT_EQ(a, r.pc_lo) TH_LOG("%s", sym);
		EXPECT_EQ(SP, r.cfa.reg) TH_LOG("%s", sym);
		EXPECT_EQ(8, r.cfa.off) TH_LOG("%s", sym);
	}
	EXPECT_EQ(4, seen);
	free(nm);
}

TEST_F(real, dump_matches_objdump)
{
	char cmd[1024], *ours, *theirs, *c;

	if (!tool[0])
		SKIP(return, "no dunwind given (set DUNWIND)");
	snprintf(cmd, sizeof(cmd), "objdump --sframe=.sframe %s 2>/dev/null", self->path);
	theirs = cmd_output(cmd);
	c = theirs ? strstr(theirs, "Contents of the SFrame section") : NULL;
	if (!c) {
		free(theirs);
		SKIP(return, "objdump --sframe unavailable");
	}
	snprintf(cmd, sizeof(cmd), "%s dump %s", tool, self->path);
	ours = cmd_output(cmd);
	ASSERT_NE(NULL, ours);
	if (strcmp(ours, c)) {
		char a[128], b[128];

		snprintf(a, sizeof(a), "%s.ours", self->path);
		snprintf(b, sizeof(b), "%s.theirs", self->path);
		write_text(a, ours);
		write_text(b, c);
		ksft_print_msg("dump differs: diff %s %s\n", b, a);
	}
	EXPECT_STREQ(c, ours);
	free(theirs);
	free(ours);
}

/* `sframe encode --version 3` then `find --raw` on the bare section answers like the ELF. */
TEST_F(real, encoded_v3_section_answers_like_the_elf)
{
	char cmd[4096], *a, *b, pcs[2048] = "";
	struct dunwind_sframe_fde fde;
	size_t used = 0;
	__u32 i;

	if (!tool[0])
		SKIP(return, "no dunwind given (set DUNWIND)");
	if (!variant->c_program)
		SKIP(return, "checked on the C programs");
	for (i = 0; i < self->t.num_fdes && used + 64 < sizeof(pcs); i++) {
		ASSERT_EQ(0, dunwind_sframe_get_fde(&self->t, i, &fde));
		used += (size_t)snprintf(pcs + used, sizeof(pcs) - used, " 0x%llx 0x%llx",
					 (unsigned long long)fde.start + 1,
					 (unsigned long long)fde.start + fde.size - 1);
	}
	snprintf(cmd, sizeof(cmd),
		 "%s encode --version 3 -o %s.v3 %s >/dev/null && "
		 "%s find --raw --vaddr 0x%llx %s.v3%s",
		 tool, self->path, self->path, tool, (unsigned long long)self->vaddr, self->path,
		 pcs);
	b = cmd_output(cmd);
	snprintf(cmd, sizeof(cmd), "%s find %s%s", tool, self->path, pcs);
	a = cmd_output(cmd);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_STREQ(a, b);
	EXPECT_NE(NULL, strstr(a, "cfa=sp+8"));
	free(a);
	free(b);
}

/* Every PC of every function looks up the same in the table re-encoded as @ver/@flags. */
static void reencoded(struct __test_metadata *_metadata, FIXTURE_DATA(real) *self, __u8 ver,
		      __u8 flags)
{
	/* Keep "sorted" only if the original says so (objects are not). */
	struct dw_sframe_enc_opts o = { .version = ver,
					.flags = (__u8)((flags & ~SORTED) | (self->t.flags & SORTED)),
					.sec_vaddr = self->vaddr + 0x100000 };
	struct dw_sframe_enc_func *fs = decode_funcs(&self->t);
	struct dunwind_sframe_table t2;
	unsigned long pcs = 0, differ = 0;
	struct mem m2;
	__u8 *buf = NULL;
	size_t blen;
	__u32 i;
	__u64 pc;

	ASSERT_NE(NULL, fs);
	ASSERT_EQ(0, dw_sframe_encode(&o, fs, self->t.num_fdes, &buf, &blen));
	ASSERT_EQ(0, open_mem(&t2, &m2, buf, blen, o.sec_vaddr));
	EXPECT_EQ(0, dunwind_sframe_validate(&t2));
	/* Stop after a few differences: each one is a line of diagnostics. */
	for (i = 0; differ < 5 && i < self->t.num_fdes; i++)
		for (pc = fs[i].start ? fs[i].start - 1 : 0;
		     differ < 5 && pc <= fs[i].start + fs[i].size; pc++, pcs++)
			differ += !same_lookup(&self->t, &t2, pc);
	EXPECT_EQ(0, differ);
	ksft_print_msg("%lu PCs looked up\n", pcs);
	free(buf);
	free_funcs(fs, self->t.num_fdes);
}

TEST_F(real, reencoded_as_v1_looks_up_the_same)
{
	reencoded(_metadata, self, 1, SORTED);
}

TEST_F(real, reencoded_as_v2_looks_up_the_same)
{
	reencoded(_metadata, self, 2, SORTED);
}

TEST_F(real, reencoded_as_v2_pcrel_looks_up_the_same)
{
	reencoded(_metadata, self, 2, SORTED | PCREL);
}

TEST_F(real, reencoded_as_v3_looks_up_the_same)
{
	reencoded(_metadata, self, 3, SORTED | PCREL);
}

/* ---- the tool's errors ---- */

/* `sframe @args` with stderr, then "rc=N". */
static char *tool_says(const char *args)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1; echo rc=$?", tool, args);
	return cmd_output(cmd);
}

TEST(tool_reports_a_missing_file_exit_1)
{
	char *out;

	if (!tool[0])
		SKIP(return, "no dunwind given (set DUNWIND)");
	out = tool_says("dump /nonexistent");
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "No such file")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "rc=1")) TH_LOG("%s", out);
	free(out);
}

/* The dunwind binary itself has no .sframe. */
TEST(tool_says_how_to_get_an_sframe_section_exit_1)
{
	char args[600], *out;

	if (!tool[0])
		SKIP(return, "no dunwind given (set DUNWIND)");
	snprintf(args, sizeof(args), "dump %s", getenv("DUNWIND"));
	out = tool_says(args);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "no .sframe section")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "rc=1")) TH_LOG("%s", out);
	free(out);
}

TEST(tool_refuses_an_unknown_verb_exit_2)
{
	char *out;

	if (!tool[0])
		SKIP(return, "no dunwind given (set DUNWIND)");
	out = tool_says("frobnicate");
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "unknown verb")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "rc=2")) TH_LOG("%s", out);
	free(out);
}

/* The harness exits from test_harness_run(): remove the binaries at exit. */
static void remove_dir(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (made_dir && system(cmd))
		printf("# could not remove %s\n", dir);
}

/* Build every binary once; one that does not build skips its tests. */
static void build(void)
{
	char path[64], cmd[256];
	size_t k;

	snprintf(path, sizeof(path), "%s/p.c", dir);
	write_text(path, prog_c);
	snprintf(path, sizeof(path), "%s/s.S", dir);
	write_text(path, prog_s);
	for (k = 0; k < sizeof(bins) / sizeof(bins[0]); k++) {
		snprintf(cmd, sizeof(cmd), "cd %s && %s -o b%zu %s 2>/dev/null", dir, bins[k].cc,
			 k, bins[k].src);
		built[k] = system(cmd) == 0;
	}
}

int main(int argc, char **argv)
{
	const char *bin = getenv("DUNWIND");

	if (bin && bin[0])
		snprintf(tool, sizeof(tool), "%s sframe", bin);
	if (!mkdtemp(dir)) {
		printf("Bail out! cannot make a directory in /tmp\n");
		return 1;
	}
	made_dir = 1;
	atexit(remove_dir);
	build();
	return test_harness_run(argc, argv);
}
