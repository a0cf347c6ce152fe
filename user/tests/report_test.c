// SPDX-License-Identifier: GPL-2.0
/*
 * The outputs end to end, on a synthetic capture built here: a kernel
 * symbol snapshot (DW_REC_KSYMS records), COMM and MMAP records, and
 * JIT-named user frames (/tmp/perf-PID.map) so that every name is fixed.
 * 'dunwind script', 'report' (text, --folded, --sort, filters) and the
 * speedscope and pprof decodings are compared with files in tests/golden; the
 * SVG flame graph is checked with xmllint and rendered with rsvg-convert.
 *
 * Regenerate the golden files (after checking the change by eye) with
 * DW_GOLDEN_UPDATE=1 tests/report_test.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "files.h"
#include "mkrec.h"
#include "capture/capture.h"
#include "capture/ksnap.h"
#include "selfmap.h"

/* Above pid_max (4194304): never a live process. */
#define G	4194401U

static char dir[] = "/tmp/dw_report_test.XXXXXX";
static char bin[PATH_MAX], golden[PATH_MAX], perfmap[64];

/* Run a shell command in the test directory; its exit status or -1. */
static int sh(const char *fmt, const char *arg)
{
	char cmd[4096], inner[3500];
	int st;

	snprintf(inner, sizeof(inner), fmt, arg);
	snprintf(cmd, sizeof(cmd), "cd %s && %s", dir, inner);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int have(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* Compare dir/@out with tests/golden/@name (or rewrite it when updating). */
static void expect_golden(struct __test_metadata *_metadata, const char *out, const char *name)
{
	char path[PATH_MAX + 64], gpath[PATH_MAX + 64];
	size_t n1, n2;
	char *got, *want;
	int same;

	snprintf(path, sizeof(path), "%s/%s", dir, out);
	snprintf(gpath, sizeof(gpath), "%s/%s", golden, name);
	got = read_file(path, &n1);
	if (getenv("DW_GOLDEN_UPDATE") && got) {
		write_text(gpath, got);
		printf("# updated %s\n", gpath);
	}
	want = read_file(gpath, &n2);
	same = got && want && n1 == n2 && !memcmp(got, want, n1);
	if (!same) {
		char cmd[2 * PATH_MAX + 200];

		snprintf(cmd, sizeof(cmd), "diff -u %s %s | head -40 | sed 's/^/# /'", gpath, path);
		if (system(cmd) < 0)
			printf("# diff failed\n");
	}
	free(got);
	free(want);
	EXPECT_TRUE(same) TH_LOG("%s differs from %s", out, gpath);
}

/* A USER_STACK with the given IPs. */
static struct dunwind_rec_header *stack(union rec_buf *b, __u64 cookie, __u32 tid, __u64 time,
					__u8 stop, int n, const __u64 *ips)
{
	int i;

	mk_stack(b, cookie, G, tid, (__u32)n, 0, stop);
	b->stack.time = time;
	for (i = 0; i < n; i++)
		b->stack.ips[i] = ips[i];
	return &b->hdr;
}

static int build_capture(const char *path, int zstd_level)
{
	static const __u64 chain[] = { 0x7f0000001010ULL, 0x7f0000002020ULL, 0x7f0000003030ULL,
				       0x7f0000004040ULL, 0x7f0000005050ULL };
	static const __u64 sys[] = { 0x7f0000003008ULL, 0x7f0000004040ULL, 0x7f0000005050ULL };
	static const __u64 anon[] = { 0x7f0000009000ULL, 0x7f0000005050ULL };
	/* one address, leaf then return address: next_fn+0, then callee_end+0x100 */
	static const __u64 edge[] = { 0x7f0000006100ULL, 0x7f0000006100ULL, 0x7f0000005050ULL };
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = (int)G, .sample_freq = 999 };
	struct dw_capture_writer w;
	union rec_buf b;
	char ks[PATH_MAX + 32], mods[PATH_MAX + 32];
	__u64 t = 5000000000ULL, cookie = 1;
	int i, n = 0;

	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	snprintf(mods, sizeof(mods), "%s/modules", dir);
	write_text(ks, "ffffffff81000000 T entry_SYSCALL_64\n"
		       "ffffffff81000800 D some_data\n"
		       "ffffffff81001000 T ksys_write\n"
		       "ffffffff81002000 t vfs_write\n"
		       "ffffffffc0001000 t dunwind_handler\t[dunwind]\n");
	write_text(mods, "dunwind 16384 0 - Live 0xffffffffc0000000 (O)\n");
	if (dw_capture_create(&w, path, &cfg) ||
	    (zstd_level && dw_capture_compress(&w, zstd_level)) || dw_ksnap_write(&w, ks, mods))
		return -1;
	n += !dw_capture_write(&w, mk_comm(&b, G, G + 1, 1, "fpchain", 0));
	n += !dw_capture_write(&w, mk_comm(&b, G, G + 2, 1, "worker", 0));
	n += !dw_capture_write(&w, mk_mmap(&b, G, 2, 0x7f0000000000ULL, 0x7f0000010000ULL, 0,
					   "//anon", 0));
	/* 8 samples in the leaf, user mode, complete stacks */
	for (i = 0; i < 8; i++, t += 1000000, cookie++) {
		n += !dw_capture_write(&w, mk_sample(&b, cookie, t, G, G + 1, 0, 0));
		n += !dw_capture_write(&w, stack(&b, cookie, G + 1, t + 1, DUNWIND_STOP_END, 5,
						 chain));
	}
	/* in a system call from b: kernel frames from the snapshot, one in a module */
	mk_sample(&b, cookie, t, G, G + 1, 3, 0);
	b.sample.ips[0] = 0xffffffffc0001004ULL;
	b.sample.ips[1] = 0xffffffff81002000ULL;	/* returns to vfs_write+0: ksys_write */
	b.sample.ips[2] = 0xffffffff81000020ULL;
	n += !dw_capture_write(&w, &b.hdr);
	n += !dw_capture_write(&w, stack(&b, cookie++, G + 1, t + 1, DUNWIND_STOP_END, 3, sys));
	t += 1000000;
	/* cut at max depth, then a stack that never came, then an unnamed frame */
	n += !dw_capture_write(&w, mk_sample(&b, cookie, t, G, G + 1, 0, 0));
	n += !dw_capture_write(&w, stack(&b, cookie++, G + 1, t + 1, DUNWIND_STOP_MAX_DEPTH, 2,
					 chain));
	t += 1000000;
	n += !dw_capture_write(&w, mk_sample(&b, cookie++, t, G, G + 1, 0, 0));
	t += 1000000;
	n += !dw_capture_write(&w, mk_sample(&b, cookie, t, G, G + 1, 0, 0));
	n += !dw_capture_write(&w, stack(&b, cookie++, G + 1, t + 1, DUNWIND_STOP_END, 2, anon));
	t += 1000000;
	/* the other thread: two samples in the leaf */
	for (i = 0; i < 2; i++, t += 1000000, cookie++) {
		n += !dw_capture_write(&w, mk_sample(&b, cookie, t, G, G + 2, 0, 0));
		n += !dw_capture_write(&w, stack(&b, cookie, G + 2, t + 1, DUNWIND_STOP_END, 5,
						 chain));
	}
	n += !dw_capture_write(&w, mk_sample(&b, cookie, t, G, G + 2, 0, 0));
	n += !dw_capture_write(&w, stack(&b, cookie++, G + 2, t + 1, DUNWIND_STOP_END, 3, edge));
	/* fixed so that the pprof decoding is stable */
	w.hdr.created_realtime_ns = 1700000000000000000ULL;
	if (dw_capture_close(&w))
		return -1;
	return n == 3 + 16 + 2 + 2 + 1 + 2 + 4 + 2 ? 0 : -1;
}

__attribute__((noinline, used)) int dw_report_test_leaf(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline, used)) int dw_report_test_mid(int x)
{
	return dw_report_test_leaf(x) + 1;
}

/* A capture whose user frames lie in this very program (an ELF with DWARF). */
static int build_elf_capture(const char *path, int bad_id)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = (int)G + 50, .sample_freq = 99 };
	static char self[4096];
	uint64_t start, end, pgoff;
	const __u64 base = 0x5000000000ULL;
	struct dw_capture_writer w;
	union rec_buf b;
	int i;

	if (!find_self((uintptr_t)dw_report_test_leaf, &start, &end, &pgoff, self))
		return -1;
	if (dw_capture_create(&w, path, &cfg))
		return -1;
	dw_capture_write(&w, mk_comm(&b, G + 50, G + 50, 1, "elfproc", 0));
	dw_capture_write(&w, mk_mmap(&b, G + 50, 2, base, base + (end - start), pgoff, self,
				     bad_id));
	for (i = 0; i < 3; i++) {
		dw_capture_write(&w, mk_sample(&b, 100 + i, 10 + i, G + 50, G + 50, 0, 0));
		mk_stack(&b, 100 + i, G + 50, G + 50, 2, 0, DUNWIND_STOP_END);
		b.stack.ips[0] = base + ((uintptr_t)dw_report_test_leaf - start) + 1;
		/* a return address one past mid's start: looked up at mid+0 */
		b.stack.ips[1] = base + ((uintptr_t)dw_report_test_mid - start) + 1;
		b.stack.time = 20;
		dw_capture_write(&w, &b.hdr);
	}
	return dw_capture_close(&w);
}

/* Run @fmt in the test directory with %s the dunwind binary; its exit status. */
static int dw(const char *fmt)
{
	return sh(fmt, bin);
}

/* The text of dir/@name, or NULL; free() it. */
static char *out_text(const char *name)
{
	char path[PATH_MAX + 64];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_file(path, &len);
}

/* Run @cmd, which must exit 0, and the text it left in dir/@name; free() it. */
static char *output_of(struct __test_metadata *_metadata, const char *cmd, const char *name)
{
	char *text;

	ASSERT_EQ(0, dw(cmd));
	text = out_text(name);
	ASSERT_NE(NULL, text);
	return text;
}

static int elf_ok;		/* elf.data and elf-other.data were built */

#define NEED(tool, why) do {						\
	if (!have(tool))						\
		SKIP(return, "%s is not installed%s", tool, why);	\
} while (0)

/* An output of the synthetic capture and its file in tests/golden. */
FIXTURE(output) {
};

FIXTURE_VARIANT(output) {
	const char *cmd;		/* %s: the dunwind binary */
	const char *out, *golden;
};

#define GOLDEN(_name, _cmd, _out, _golden) \
	FIXTURE_VARIANT_ADD(output, _name) { .cmd = _cmd, .out = _out, .golden = _golden }

GOLDEN(script, "%s script -i capture >script.out 2>script.err", "script.out", "script.txt");
GOLDEN(report, "%s report -i capture >report.out 2>report.err", "report.out", "report.txt");
GOLDEN(report_sort_total_comm,
       "%s report -i capture --sort total --no-tree --comm worker >report-worker.out",
       "report-worker.out", "report-worker.txt");
GOLDEN(report_folded, "%s report -i capture --folded >folded.out", "folded.out", "folded.txt");
GOLDEN(report_tid_folded, "%s report -i capture --tid 4194402 --folded >folded-tid.out",
       "folded-tid.out", "folded-tid.txt");
GOLDEN(speedscope, "%s report -i capture --format speedscope -o speedscope.json 2>/dev/null",
       "speedscope.json", "speedscope.json");
/* The same records compressed (record -z), in z/capture: every output is the same. */
GOLDEN(script_of_the_zstd_capture, "cd z && %s script -i capture >../script-z.out "
       "2>../script-z.err", "script-z.out", "script.txt");
GOLDEN(report_of_the_zstd_capture, "cd z && %s report -i capture >../report-z.out "
       "2>../report-z.err", "report-z.out", "report.txt");
GOLDEN(folded_of_the_zstd_capture, "cd z && %s report -i capture --folded >../folded-z.out",
       "folded-z.out", "folded.txt");

FIXTURE_SETUP(output)
{
}

FIXTURE_TEARDOWN(output)
{
}

TEST_F(output, exits_0)
{
	EXPECT_EQ(0, dw(variant->cmd));
}

TEST_F(output, matches_its_golden_file)
{
	ASSERT_EQ(0, dw(variant->cmd));
	expect_golden(_metadata, variant->out, variant->golden);
}

TEST(report_pid_of_another_process_has_no_stacks)
{
	char *text;

	text = output_of(_metadata, "%s report -i capture --pid 1 --folded >folded-pid.out "
			 "2>folded-pid.err", "folded-pid.out");
	EXPECT_STREQ("", text);
	free(text);
}

TEST(report_pid_of_another_process_says_all_were_filtered)
{
	char *text;

	dw("%s report -i capture --pid 1 --folded >folded-pid.out 2>folded-pid.err");
	text = out_text("folded-pid.err");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "0 samples (15 filtered out)")) TH_LOG("%s", text);
	free(text);
}

/* Schema, frames, one sampled profile per thread, weights add up, stacks root first. */
TEST(speedscope_json_is_valid)
{
	NEED("python3", "");
	ASSERT_EQ(0, dw("%s report -i capture --format speedscope -o speedscope.json "
			"2>/dev/null"));
	EXPECT_EQ(0, sh("python3 -c 'import json,sys\n"
			"d=json.load(open(\"speedscope.json\"))\n"
			"assert d[\"$schema\"]==\"https://www.speedscope.app/"
			"file-format-schema.json\"\n"
			"fr=d[\"shared\"][\"frames\"]\n"
			"assert all(isinstance(f[\"name\"],str) for f in fr)\n"
			"assert len(d[\"profiles\"])==2\n"
			"for p in d[\"profiles\"]:\n"
			"  assert p[\"type\"]==\"sampled\" and p[\"unit\"]==\"nanoseconds\"\n"
			"  assert len(p[\"samples\"])==len(p[\"weights\"])\n"
			"  assert p[\"endValue\"]==sum(p[\"weights\"]) and p[\"startValue\"]==0\n"
			"  assert all(0<=i<len(fr) for s in p[\"samples\"] for i in s)\n"
			"  assert all(fr[s[0]][\"name\"]==\"main\" or "
			"fr[s[0]][\"name\"].startswith(\"[trunc\") for s in p[\"samples\"] if s)\n"
			"  assert all(fr[s[-1]][\"name\"] in "
			"(\"leaf\",\"dunwind_handler\",\"next_fn\") or "
			"fr[s[-1]][\"name\"].startswith(\"[\") for s in p[\"samples\"] if s)\n"
			"' %s", ""));
}

TEST(pprof_writes_a_gzip_file)
{
	char path[PATH_MAX + 64];
	size_t len;
	char *text;

	ASSERT_EQ(0, dw("%s report -i capture --format pprof -o profile.pb.gz 2>/dev/null"));
	snprintf(path, sizeof(path), "%s/profile.pb.gz", dir);
	text = read_file(path, &len);
	ASSERT_NE(NULL, text);
	EXPECT_LT(18, len);
	EXPECT_EQ(0x1f, (unsigned char)text[0]);
	EXPECT_EQ(0x8b, (unsigned char)text[1]);
	free(text);
}

/* protoc --decode of the pprof file, into dir/pprof.out. */
static int decode_pprof(void)
{
	char proto[PATH_MAX], cmd[2 * PATH_MAX];

	if (dw("%s report -i capture --format pprof -o profile.pb.gz 2>/dev/null"))
		return -1;
	if (!realpath("output/profile.proto", proto))
		strcpy(proto, "output/profile.proto");
	snprintf(cmd, sizeof(cmd), "gzip -dc profile.pb.gz | protoc -I%.*s "
		 "--decode perftools.profiles.Profile %s >pprof.out 2>pprof.err",
		 (int)(strrchr(proto, '/') - proto), proto, strrchr(proto, '/') + 1);
	return sh("%s", cmd);
}

TEST(protoc_decodes_the_pprof_file_as_a_profile)
{
	NEED("protoc", " (Debian: protobuf-compiler)");
	EXPECT_EQ(0, decode_pprof());
}

TEST(pprof_decoding_matches_golden)
{
	NEED("protoc", " (Debian: protobuf-compiler)");
	ASSERT_EQ(0, decode_pprof());
	expect_golden(_metadata, "pprof.out", "pprof.txt");
}

#define FLAME "%s flamegraph -i capture -o flame.svg --title 'a <test> & more' 2>/dev/null"

TEST(flamegraph_exits_0)
{
	EXPECT_EQ(0, dw(FLAME));
}

/* The flame graph of the synthetic capture, as text. */
FIXTURE(svg) {
	char *text;
};

FIXTURE_SETUP(svg)
{
	self->text = NULL;
	ASSERT_EQ(0, dw(FLAME));
	self->text = out_text("flame.svg");
	ASSERT_NE(NULL, self->text);
}

FIXTURE_TEARDOWN(svg)
{
	free(self->text);
}

TEST_F(svg, holds_the_frames_the_marker_the_script_and_escaped_text)
{
	static const char *const want[] = {
		"data-name=\"leaf\"", "data-name=\"main\"", "[truncated: max-depth]",
		"function zoom(", "function search(", "a &lt;test&gt; &amp; more",
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *w = want[i];

		EXPECT_NE(NULL, strstr(self->text, w)) TH_LOG("not in the SVG: %s", w);
	}
}

TEST_F(svg, loads_nothing_from_outside)
{
	static const char *const never[] = { "href", "url(", "@import", "<script src", "<image" };
	size_t i;

	for (i = 0; i < sizeof(never) / sizeof(never[0]); i++) {
		const char *w = never[i];

		EXPECT_EQ(NULL, strstr(self->text, w)) TH_LOG("in the SVG: %s", w);
	}
}

TEST(the_svg_is_well_formed_xml)
{
	NEED("xmllint", " (Debian: libxml2-utils)");
	ASSERT_EQ(0, dw(FLAME));
	EXPECT_EQ(0, sh("xmllint --noout flame.svg 2>xmllint.err%s", ""));
}

TEST(the_svg_renders_to_a_png)
{
	char path[PATH_MAX + 64];
	struct stat sb;

	NEED("rsvg-convert", " (Debian: librsvg2-bin)");
	ASSERT_EQ(0, dw(FLAME));
	ASSERT_EQ(0, sh("rsvg-convert -o flame.png flame.svg 2>rsvg.err%s", ""));
	snprintf(path, sizeof(path), "%s/flame.png", dir);
	ASSERT_EQ(0, stat(path, &sb));
	EXPECT_LT(1000, sb.st_size);
	if (getenv("DW_KEEP_PNG"))
		sh("cp flame.png %s", getenv("DW_KEEP_PNG"));
}

/* Symbols from an ELF file with DWARF (this program), through MMAP records. */
#define NEED_ELF() do {							\
	if (!elf_ok)							\
		SKIP(return, "this program is not in /proc/self/maps");	\
} while (0)

TEST(elf_symbols_in_folded_stacks_with_the_return_address_in_its_call)
{
	char *text;

	NEED_ELF();
	text = output_of(_metadata, "%s report -i elf.data --folded >elf-folded.out 2>/dev/null",
			 "elf-folded.out");
	EXPECT_STREQ("elfproc;dw_report_test_mid;dw_report_test_leaf 3\n", text);
	free(text);
}

TEST(report_inline_gives_the_leaf_all_the_self_time)
{
	char *text;

	NEED_ELF();
	text = output_of(_metadata, "%s report -i elf.data --inline --no-tree >elf-report.out "
			 "2>/dev/null", "elf-report.out");
	EXPECT_NE(NULL, strstr(text, "100.00%  100.00%        3  dw_report_test_leaf ["))
		TH_LOG("%s", text);
	free(text);
}

TEST(pprof_names_the_source_file_from_dwarf)
{
	NEED_ELF();
	EXPECT_EQ(0, dw("%s report -i elf.data --format pprof -o elf.pb.gz 2>/dev/null && "
			"gzip -dc elf.pb.gz | grep -a -q report_test.c"));
}

TEST(the_flame_graph_of_elf_symbols)
{
	NEED_ELF();
	EXPECT_EQ(0, dw("%s flamegraph -i elf.data -o elf.svg 2>/dev/null && "
			"grep -q 'data-name=\"dw_report_test_mid\"' elf.svg"));
}

/* The recorded build-id is not this file's: said, and nothing misnamed. */
TEST(another_build_id_leaves_frames_unknown_file_plus_offset)
{
	char *text;

	NEED_ELF();
	text = output_of(_metadata, "%s report -i elf-other.data --folded >elf-other.out "
			 "2>elf-other.err", "elf-other.out");
	EXPECT_EQ(NULL, strstr(text, "dw_report_test"));
	EXPECT_NE(NULL, strstr(text, "elfproc;[unknown] (report_test+0x")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, " 3\n"));
	free(text);
}

TEST(another_build_id_is_reported_on_stderr)
{
	char *text;

	NEED_ELF();
	dw("%s report -i elf-other.data --folded >elf-other.out 2>elf-other.err");
	text = out_text("elf-other.err");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "not the recorded file: that had build-id eeeeeeee"))
		TH_LOG("%s", text);
	free(text);
}

/* Broken input and usage errors. */
TEST(report_of_a_missing_capture_exits_1_and_says_so)
{
	char *text;

	EXPECT_EQ(1, dw("%s report -i nothing-here 2>err.out"));
	text = out_text("err.out");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "no such file"));
	free(text);
}

TEST(sort_bogus_exits_2)
{
	EXPECT_EQ(2, dw("%s report -i capture --sort bogus 2>/dev/null"));
}

TEST(format_xml_exits_2)
{
	EXPECT_EQ(2, dw("%s report -i capture --format xml 2>/dev/null"));
}

TEST(dash_f_the_old_name_of_format_still_works)
{
	EXPECT_EQ(0, dw("%s report -i capture -F folded >/dev/null 2>&1"));
}

TEST(pid_x_exits_2)
{
	EXPECT_EQ(2, dw("%s report -i capture --pid x 2>/dev/null"));
}

static int made_dir;

/* The harness exits from test_harness_run(): clean up at exit. */
static void cleanup(void)
{
	unlink(perfmap);
	if (made_dir && !getenv("DW_KEEP"))
		sh("rm -rf %s", dir);
}

/* The captures every test reads, made once; then the tests. */
int main(int argc, char **argv)
{
	char path[PATH_MAX + 64];
	const char *dunwind = getenv("DUNWIND") ? getenv("DUNWIND") : "../out/dunwind";

	if (!realpath(dunwind, bin) || !realpath("tests/golden", golden) || !mkdtemp(dir)) {
		printf("Bail out! setup: the dunwind binary, tests/golden and a temp dir\n");
		return 1;
	}
	made_dir = 1;
	snprintf(perfmap, sizeof(perfmap), "/tmp/perf-%u.map", G);
	atexit(cleanup);
	write_text(perfmap, "7f0000001000 100 leaf\n7f0000002000 100 c\n7f0000003000 100 b\n"
			    "7f0000004000 100 a\n7f0000005000 100 main\n"
			    "7f0000006000 100 callee_end\n"
			    "7f0000006100 100 next_fn\n");
	snprintf(path, sizeof(path), "%s/capture", dir);
	if (build_capture(path, 0)) {
		printf("Bail out! could not build the synthetic capture\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/z", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/z/capture", dir);
	if (build_capture(path, 3)) {
		printf("Bail out! could not build the synthetic capture, compressed\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/elf.data", dir);
	elf_ok = !build_elf_capture(path, 0);
	snprintf(path, sizeof(path), "%s/elf-other.data", dir);
	elf_ok = elf_ok && !build_elf_capture(path, 1);
	return test_harness_run(argc, argv);
}
