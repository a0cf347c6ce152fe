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

#include "tap.h"
#include "mkrec.h"
#include "capture/capture.h"
#include "capture/ksnap.h"
#include "selfmap.h"

/* Above pid_max (4194304): never a live process. */
#define G	4194401U

static char dir[] = "/tmp/dw_report_test.XXXXXX";
static char bin[PATH_MAX], golden[PATH_MAX], perfmap[64];

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
			*len = (size_t)n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

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
static void check_golden(const char *out, const char *name, const char *what)
{
	char path[PATH_MAX + 64], gpath[PATH_MAX + 64];
	size_t n1, n2;
	char *got, *want;

	snprintf(path, sizeof(path), "%s/%s", dir, out);
	snprintf(gpath, sizeof(gpath), "%s/%s", golden, name);
	got = read_file(path, &n1);
	if (getenv("DW_GOLDEN_UPDATE") && got) {
		write_text(gpath, got);
		printf("# updated %s\n", gpath);
	}
	want = read_file(gpath, &n2);
	if (!ok(got && want && n1 == n2 && !memcmp(got, want, n1), "%s matches %s", what, name)) {
		char cmd[2 * PATH_MAX + 200];

		snprintf(cmd, sizeof(cmd), "diff -u %s %s | head -40 | sed 's/^/# /'", gpath, path);
		if (system(cmd) < 0)
			printf("# diff failed\n");
	}
	free(got);
	free(want);
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

static int build_capture(const char *path)
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
	if (dw_capture_create(&w, path, &cfg) || dw_ksnap_write(&w, ks, mods))
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

int main(void)
{
	char cap[PATH_MAX + 32], path[PATH_MAX + 64];
	const char *dunwind = getenv("DUNWIND") ? getenv("DUNWIND") : "../out/dunwind";
	size_t len;
	char *text;
	int rc;

	if (!realpath(dunwind, bin) || !realpath("tests/golden", golden) || !mkdtemp(dir)) {
		printf("not ok 1 - setup: dunwind binary, tests/golden and a temp dir\n");
		return 1;
	}
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	snprintf(perfmap, sizeof(perfmap), "/tmp/perf-%u.map", G);
	write_text(perfmap, "7f0000001000 100 leaf\n7f0000002000 100 c\n7f0000003000 100 b\n"
			    "7f0000004000 100 a\n7f0000005000 100 main\n"
			    "7f0000006000 100 callee_end\n"
			    "7f0000006100 100 next_fn\n");
	ok(build_capture(cap) == 0, "build a synthetic capture with a kernel symbol snapshot");

	rc = sh("%s script -i capture >script.out 2>script.err", bin);
	ok(rc == 0, "script exits 0");
	check_golden("script.out", "script.txt", "script");
	rc = sh("%s report -i capture >report.out 2>report.err", bin);
	ok(rc == 0, "report exits 0");
	check_golden("report.out", "report.txt", "report");
	rc = sh("%s report -i capture --sort total --no-tree --comm worker "
		">report-worker.out", bin);
	ok(rc == 0, "report --sort total --comm exits 0");
	check_golden("report-worker.out", "report-worker.txt", "report --sort total --comm");
	rc = sh("%s report -i capture --folded >folded.out", bin);
	ok(rc == 0, "report --folded exits 0");
	check_golden("folded.out", "folded.txt", "report --folded");
	rc = sh("%s report -i capture --tid 4194402 --folded >folded-tid.out", bin);
	check_golden("folded-tid.out", "folded-tid.txt", "report --tid --folded");
	rc = sh("%s report -i capture --pid 1 --folded >folded-pid.out 2>folded-pid.err", bin);
	text = read_file(strcat(strcpy(path, dir), "/folded-pid.out"), &len);
	ok(rc == 0 && text && len == 0, "report --pid of another process: no stacks");
	free(text);
	text = read_file(strcat(strcpy(path, dir), "/folded-pid.err"), &len);
	ok(text && strstr(text, "0 samples (15 filtered out)"), "... and says all were filtered");
	free(text);
	rc = sh("%s report -i capture --format speedscope -o speedscope.json 2>/dev/null", bin);
	ok(rc == 0, "report --format speedscope exits 0");
	check_golden("speedscope.json", "speedscope.json", "speedscope");
	if (have("python3")) {
		rc = sh("python3 -c 'import json,sys\n"
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
			"' %s", "");
		ok(rc == 0, "speedscope JSON: schema, frames, one sampled profile per thread, "
		   "weights add up, stacks root first");
	} else {
		tap_skip("speedscope JSON validates", "python3 is not installed");
	}

	rc = sh("%s report -i capture --format pprof -o profile.pb.gz 2>/dev/null", bin);
	text = read_file(strcat(strcpy(path, dir), "/profile.pb.gz"), &len);
	ok(rc == 0 && text && len > 18 && (unsigned char)text[0] == 0x1f &&
	   (unsigned char)text[1] == 0x8b, "report --format pprof writes a gzip file");
	free(text);
	if (have("protoc")) {
		char proto[PATH_MAX];

		if (!realpath("output/profile.proto", proto))
			strcpy(proto, "output/profile.proto");
		snprintf(path, sizeof(path), "gzip -dc profile.pb.gz | protoc -I%.*s "
			 "--decode perftools.profiles.Profile %s >pprof.out 2>pprof.err",
			 (int)(strrchr(proto, '/') - proto), proto, strrchr(proto, '/') + 1);
		rc = sh("%s", path);
		ok(rc == 0, "protoc decodes the pprof file as perftools.profiles.Profile");
		check_golden("pprof.out", "pprof.txt", "pprof decoding");
	} else {
		tap_skip("protoc decodes the pprof file", "protoc is not installed "
			 "(Debian: protobuf-compiler)");
	}

	rc = sh("%s flamegraph -i capture -o flame.svg --title 'a <test> & more' 2>/dev/null", bin);
	ok(rc == 0, "flamegraph exits 0");
	text = read_file(strcat(strcpy(path, dir), "/flame.svg"), &len);
	ok(text && strstr(text, "data-name=\"leaf\"") && strstr(text, "data-name=\"main\"") &&
	   strstr(text, "[truncated: max-depth]") && strstr(text, "function zoom(") &&
	   strstr(text, "function search(") && strstr(text, "a &lt;test&gt; &amp; more"),
	   "the SVG holds the frames, the marker, the zoom and search script, escaped text");
	ok(text && !strstr(text, "href") && !strstr(text, "url(") && !strstr(text, "@import") &&
	   !strstr(text, "<script src") && !strstr(text, "<image"),
	   "the SVG loads nothing from outside (no href, url(), @import, script src, image)");
	free(text);
	if (have("xmllint")) {
		rc = sh("xmllint --noout flame.svg 2>xmllint.err%s", "");
		ok(rc == 0, "the SVG is well-formed XML (xmllint)");
	} else {
		tap_skip("the SVG is well-formed XML", "xmllint is not installed "
			 "(Debian: libxml2-utils)");
	}
	if (have("rsvg-convert")) {
		struct stat sb;

		rc = sh("rsvg-convert -o flame.png flame.svg 2>rsvg.err%s", "");
		snprintf(path, sizeof(path), "%s/flame.png", dir);
		ok(rc == 0 && !stat(path, &sb) && sb.st_size > 1000,
		   "the SVG renders to a PNG (rsvg-convert)");
		if (getenv("DW_KEEP_PNG"))
			sh("cp flame.png %s", getenv("DW_KEEP_PNG"));
	} else {
		tap_skip("the SVG renders", "rsvg-convert is not installed (Debian: librsvg2-bin)");
	}

	/* Symbols from an ELF file with DWARF, through MMAP records */
	if (!build_elf_capture(strcat(strcpy(path, dir), "/elf.data"), 0)) {
		rc = sh("%s report -i elf.data --folded >elf-folded.out 2>/dev/null", bin);
		text = read_file(strcat(strcpy(path, dir), "/elf-folded.out"), &len);
		ok(rc == 0 && text &&
		   !strcmp(text, "elfproc;dw_report_test_mid;dw_report_test_leaf 3\n"),
		   "ELF symbols in folded stacks, the return address adjusted into its call");
		if (text && strcmp(text, "elfproc;dw_report_test_mid;dw_report_test_leaf 3\n"))
			printf("# got: %s", text);
		free(text);
		rc = sh("%s report -i elf.data --inline --no-tree >elf-report.out 2>/dev/null",
			bin);
		text = read_file(strcat(strcpy(path, dir), "/elf-report.out"), &len);
		ok(rc == 0 && text &&
		   strstr(text, "100.00%  100.00%        3  dw_report_test_leaf ["),
		   "report --inline: the leaf has 100%% self");
		free(text);
		rc = sh("%s report -i elf.data --format pprof -o elf.pb.gz 2>/dev/null && "
			"gzip -dc elf.pb.gz | grep -a -q report_test.c", bin);
		ok(rc == 0, "pprof names the source file from DWARF");
		rc = sh("%s flamegraph -i elf.data -o elf.svg 2>/dev/null && "
			"grep -q 'data-name=\"dw_report_test_mid\"' elf.svg", bin);
		ok(rc == 0, "the flame graph of ELF symbols");
		/* The recorded build-id is not this file's: said, and nothing misnamed. */
		build_elf_capture(strcat(strcpy(path, dir), "/elf.data"), 1);
		rc = sh("%s report -i elf.data --folded >elf-folded.out 2>elf.err", bin);
		text = read_file(strcat(strcpy(path, dir), "/elf-folded.out"), &len);
		ok(rc == 0 && text && !strstr(text, "dw_report_test") &&
		   strstr(text, "elfproc;[unknown] (report_test+0x") &&
		   strstr(text, " 3\n"), "a file with another build-id: frames stay "
		   "[unknown] (file+0xoff)");
		free(text);
		text = read_file(strcat(strcpy(path, dir), "/elf.err"), &len);
		ok(text && strstr(text, "not the recorded file: that had build-id eeeeeeee"),
		   "a file with another build-id: reported on stderr");
		free(text);
	} else {
		tap_skip("ELF symbols", "this program is not in /proc/self/maps");
	}

	/* Broken input and usage errors */
	rc = sh("%s report -i nothing-here 2>err.out", bin);
	text = read_file(strcat(strcpy(path, dir), "/err.out"), &len);
	ok(rc == 1 && text && strstr(text, "no such file"), "report of a missing capture: exit 1");
	free(text);
	ok(sh("%s report -i capture --sort bogus 2>/dev/null", bin) == 2, "--sort bogus: exit 2");
	ok(sh("%s report -i capture --format xml 2>/dev/null", bin) == 2, "--format xml: exit 2");
	ok(sh("%s report -i capture -F folded >/dev/null 2>&1", bin) == 0,
	   "-F, the old name of --format, still works");
	ok(sh("%s report -i capture --pid x 2>/dev/null", bin) == 2, "--pid x: exit 2");

	unlink(perfmap);
	if (!getenv("DW_KEEP"))
		sh("rm -rf %s", dir);
	return tap_done();
}
