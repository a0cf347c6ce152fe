// SPDX-License-Identifier: GPL-2.0
/*
 * dw_prof_load() and every output on hostile captures: a small capture
 * (kernel symbol snapshot, COMM, MMAP, samples, stacks) is truncated at
 * every record boundary and has every byte flipped three ways; each
 * variant must either be refused with a message or load and go through
 * every output without a sanitizer report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "files.h"
#include "mkrec.h"
#include "capture/capture.h"
#include "output/flamegraph.h"
#include "output/folded.h"
#include "capture/ksnap.h"
#include "output/pprof.h"
#include "analyze/profile.h"
#include "output/report.h"
#include "output/speedscope.h"
#include "util/log.h"

#define G	4194501U

static char dir[] = "/tmp/dw_profile_test.XXXXXX";
static char cap[128], var[128];

static int warnings;

/* Counts the library's warnings, prints none (hundreds of hostile captures). */
static int count_warnings(enum dw_print_level level, const char *fmt, va_list args)
{
	(void)fmt;
	(void)args;
	warnings += level == DW_WARN;
	return 0;
}

/*
 * Load @path and run every output into /dev/null.  1 loaded, 0 refused
 * (-errno, and a warning said why), -1 bad (refused without a word).
 */
static int exercise(const char *path, FILE *null)
{
	struct dw_prof_opts o = { .user_symbols = 1, .src = 1, .inline_frames = 1, .quiet = 1 };
	struct dw_report_opts ro = { .input = path, .percent_limit = 0 };
	struct dw_flamegraph_opts fo = { .title = "t" };
	dw_print_fn_t old = dw_set_print(count_warnings);
	struct dw_prof *p;
	int e;

	warnings = 0;
	e = dw_prof_load(&p, path, &o);
	dw_set_print(old);
	if (e)
		return e < 0 && warnings ? 0 : -1;
	dw_report_write(null, p, &ro);
	dw_folded_write(null, p, 1);
	dw_flamegraph_write(null, p, &fo);
	dw_speedscope_write(null, p, "x", 1);
	dw_pprof_write(null, p, 1, 0);
	dw_prof_free(p);
	return 1;
}

/* A small capture in @dir: snapshot, COMM, MMAP, samples, stacks, a LOST record. */
static int write_capture(void)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = (int)G, .sample_freq = 99 };
	struct dw_capture_writer w;
	union rec_buf b;
	char ks[160], pm[64];

	if (!mkdtemp(dir))
		return -errno;
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	snprintf(var, sizeof(var), "%s/variant", dir);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	snprintf(pm, sizeof(pm), "/tmp/perf-%u.map", G);
	write_file(ks, "ffffffff81000000 T a_fn\nffffffff81001000 t b_fn\t[m]\n", 50);
	write_file(pm, "7f0000001000 100 jit_leaf\n7f0000002000 100 jit_main\n", 50);
	dw_capture_create(&w, cap, &cfg);
	dw_ksnap_write(&w, ks, NULL);
	dw_capture_write(&w, mk_comm(&b, G, G, 1, "victim", 0));
	dw_capture_write(&w, mk_mmap(&b, G, 2, 0x7f0000000000ULL, 0x7f0000010000ULL, 0, "//anon",
				     0));
	dw_capture_write(&w, mk_mmap(&b, G, 2, 0x5500000000ULL, 0x5500010000ULL, 0,
				     "/nonexistent/lib.so", 1));
	dw_capture_write(&w, mk_sample(&b, 1, 10, G, G, 2, 0xffffffff81000010ULL));
	dw_capture_write(&w, mk_stack(&b, 1, G, G, 3, 0x7f0000001010ULL, DUNWIND_STOP_END));
	dw_capture_write(&w, mk_sample(&b, 2, 11, G, G, 0, 0));
	dw_capture_write(&w, mk_stack(&b, 2, G, G, 2, 0x5500000100ULL, DUNWIND_STOP_FAULT));
	dw_capture_write(&w, mk_sample(&b, 3, 12, G, G, 1, 0xffffffff81001004ULL));
	dw_capture_write(&w, mk_lost(&b, 1, 1));
	return dw_capture_close(&w);
}

FIXTURE(capture) {
	unsigned char *file;
	size_t len;
	FILE *null;
	int written;
};

FIXTURE_SETUP(capture)
{
	char ks[160], pm[64];
	FILE *f;
	long n;

	strcpy(dir, "/tmp/dw_profile_test.XXXXXX");
	self->written = write_capture();
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	snprintf(pm, sizeof(pm), "/tmp/perf-%u.map", G);
	unlink(ks);
	self->null = fopen("/dev/null", "w");
	ASSERT_NE(NULL, self->null);
	self->file = NULL;
	f = fopen(cap, "rb");
	ASSERT_NE(NULL, f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	self->len = n > 0 ? (size_t)n : 0;
	self->file = malloc(self->len + 1);
	ASSERT_NE(NULL, self->file);
	ASSERT_EQ(self->len, fread(self->file, 1, self->len, f));
	fclose(f);
}

FIXTURE_TEARDOWN(capture)
{
	char pm[64];

	snprintf(pm, sizeof(pm), "/tmp/perf-%u.map", G);
	unlink(pm);
	unlink(cap);
	unlink(var);
	rmdir(dir);
	free(self->file);
	if (self->null)
		fclose(self->null);
}

TEST_F(capture, the_small_capture_is_written)
{
	EXPECT_EQ(0, self->written);
}

TEST_F(capture, it_reads_back_whole)
{
	EXPECT_GT(self->len, 64u);
}

TEST_F(capture, the_intact_capture_loads_and_goes_through_every_output)
{
	EXPECT_EQ(1, exercise(cap, self->null));
}

/* Records start 8-aligned: cut at each.  (Slow under the sanitizers: no 30 s limit.) */
TEST_F_TIMEOUT(capture, every_truncation_is_refused_with_a_reason_or_loads, 600)
{
	size_t i, cuts = 0, bad = 0;

	for (i = 0; i < self->len; i += 8, cuts++) {
		write_file(var, self->file, i);
		if (exercise(var, self->null) < 0)
			bad++;
	}
	EXPECT_EQ(0u, bad) TH_LOG("%zu of %zu truncations neither refused nor loaded", bad, cuts);
}

TEST_F_TIMEOUT(capture, every_byte_flip_is_refused_with_a_reason_or_loads, 600)
{
	static const unsigned char flips[] = { 0x01, 0x80, 0xff };
	size_t i, bad = 0, loaded = 0, refused = 0;
	int k, r;

	for (i = 0; i < self->len; i++) {
		for (k = 0; k < 3; k++) {
			self->file[i] ^= flips[k];
			write_file(var, self->file, self->len);
			r = exercise(var, self->null);
			self->file[i] ^= flips[k];
			if (r < 0)
				bad++;
			else if (r)
				loaded++;
			else
				refused++;
		}
	}
	EXPECT_EQ(0u, bad) TH_LOG("%zu x 3 flips: %zu refused, %zu loaded, %zu bad", self->len,
				  refused, loaded, bad);
}

/*
 * A stack whose methods has a bit this reader does not know (a method a
 * later module adds, DUNWIND_UNWIND_NR) is counted apart, never as a
 * frame-pointer or SFrame stack, and in the report's total.
 */
TEST(a_method_bit_the_reader_does_not_know_is_counted_apart)
{
	static const __u8 methods[] = { DUNWIND_UNWIND_FP, DUNWIND_UNWIND_FP | 1 << 2, 1 << 7 };
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = (int)G, .sample_freq = 99 };
	char d[] = "/tmp/dw_profile_methods.XXXXXX", path[64], *text = NULL;
	struct dw_prof_opts o = { .quiet = 1 };
	struct dw_capture_writer w;
	struct dw_prof *p;
	union rec_buf b;
	size_t len = 0;
	unsigned int i;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(d));
	snprintf(path, sizeof(path), "%s/capture", d);
	ASSERT_EQ(0, dw_capture_create(&w, path, &cfg));
	dw_capture_write(&w, mk_comm(&b, G, G, 1, "victim", 0));
	for (i = 0; i < 3; i++) {
		dw_capture_write(&w, mk_sample(&b, i + 1, 10 + i, G, G, 0, 0));
		mk_stack(&b, i + 1, G, G, 2, 0x7f0000001010ULL, DUNWIND_STOP_END);
		b.stack.methods = methods[i];
		dw_capture_write(&w, &b.stack.hdr);
	}
	ASSERT_EQ(0, dw_capture_close(&w));
	ASSERT_EQ(0, dw_prof_load(&p, path, &o));
	EXPECT_EQ(1, p->stacks_by_method[DUNWIND_UNWIND_FP]);
	EXPECT_EQ(1, p->stacks_by_method[DUNWIND_UNWIND_FP | 1 << 2]);
	EXPECT_EQ(1, p->stacks_by_method[1 << 7]);
	EXPECT_EQ(0, p->stacks_by_method[0]);
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, dw_report_summary(f, p));
	fclose(f);
	EXPECT_NE(NULL, strstr(text, "# unwinding: 3 user stacks: 1 frame pointers only, 0 SFrame "
				     "only, 0 both, 0 neither;")) TH_LOG("%s", text);
	free(text);
	dw_prof_free(p);
	unlink(path);
	rmdir(d);
}

TEST_HARNESS_MAIN
