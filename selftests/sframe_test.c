// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_test: user walks with SFrame (.sframe from the assembler): exact
 * chains without frame pointers (also from an epilogue after 'pop %rbp'),
 * across a program and a library unwound by different methods, 300 frames
 * deep, the fallback to frame pointers when a binary's .sframe is corrupt,
 * and the per-method cost counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "arch.h"
#include "chain.h"
#include "records.h"
#include "symbols/symtab.h"
#include "workload.h"

#define FREQ		1000	/* Hz */
#define PROFILE_MS	6000
#define MAX_MS		20000	/* profile longer until enough samples came */
#define MIN_JUDGED	1000	/* steady-state samples, at least */

/* The chain of fp_chain.c (sf_chain, sf_fpchain and its corrupted copies). */
static const struct dw_frame_pat chain_want[] = {
	DW_FN("leaf"), DW_FN("c"), DW_FN("b"), DW_FN("a"), DW_FN("main"),
};

/* mix_main.c calling mix_lib.c. */
static const struct dw_frame_pat mix_want[] = {
	DW_FN_IN("lib_leaf", "libmix_"), DW_FN_IN("lib_b", "libmix_"),
	DW_FN_IN("lib_a", "libmix_"), DW_FN_IN("a", "mix_"), DW_FN_IN("main", "mix_"),
};

/* deep.c: spin under 300 rec() frames under main. */
static const struct dw_frame_pat deep_want[] = {
	DW_FN("spin"), DW_FN_N("rec", 300, 300), DW_FN("main"),
};

struct profile {
	const char *prog;
	const char *missing;		/* why prog may not be built (NULL: old binutils) */
	unsigned int flags;		/* DUNWIND_CFG_* */
	unsigned int max_user_frames;	/* 0: default */
	int freq, ms;
	size_t min_judged;		/* samples the test needs (0: MIN_JUDGED) */
	struct dw_chain_opts opts;	/* pid filled in */
};

/*
 * Run workloads/@p->prog, profile it and judge its stacks into *@res (and
 * the session's final counters into *@st).  Return: 0, or 1 when the test
 * was skipped (workload not built) or failed an assertion.
 */
static int profile_chain(struct __test_metadata *_metadata, struct profile *p,
			 struct dw_chain_result *res, struct dunwind_stats *st)
{
	/* Twice the samples judged at least, unless the guest is starved for long. */
	struct dw_records_opts o = {
		.max_ms = MAX_MS, .min_samples = 2 * (p->min_judged ? p->min_judged : MIN_JUDGED),
	};
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_maps *maps;
	char path[4096];
	int ret;

	ASSERT_EQ(0, dw_workload_path(p->prog, path, sizeof(path)));
	if (access(path, X_OK))
		SKIP(return 1, "%s not built: %s", p->prog,
		     p->missing ? p->missing : DW_NO_GSFRAME_WORKLOAD);
	ret = dw_workload_start(&w, p->prog, NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start workload %s: %s", p->prog, strerror(-ret));
	maps = dw_maps_load(NULL, w.pid);
	if (!maps)
		dw_workload_stop(&w);
	ASSERT_NE(NULL, maps) TH_LOG("cannot read the symbols of %s", p->prog);
	dw_records_config(&cfg, w.pid, 0, p->freq ? p->freq : FREQ);
	cfg.flags = p->flags;
	cfg.max_user_frames = p->max_user_frames;
	o.ms = p->ms ? p->ms : PROFILE_MS;
	ret = dw_records_profile_opts(&r, &cfg, &o, st);
	dw_workload_stop(&w);
	if (ret) {
		dw_maps_free(maps);
		dw_records_free(&r);
	}
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));
	EXPECT_EQ(0, r.lost) TH_LOG("%llu records lost", (unsigned long long)r.lost);
	p->opts.pid = w.pid;
	ret = dw_chain_check(&r, maps, &p->opts, res);
	dw_maps_free(maps);
	dw_records_free(&r);
	ASSERT_EQ(0, ret) TH_LOG("stitching failed: %s", strerror(-ret));
	TH_LOG("%s: %zu samples, judged %zu, chain %zu, chain+sframe %zu, chain+both %zu, "
	       "with sframe %zu, deepest %zu", p->prog, res->samples, res->judged, res->matched,
	       res->matched_sframe, res->matched_both, res->with_sframe, res->max_nr);
	return 0;
}

FIXTURE(sframe) {
	int unused;
};

FIXTURE_SETUP(sframe)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(sframe)
{
}

/*
 * Profile @prog (@flags: DUNWIND_CFG_*) and judge its steady-state stacks,
 * the samples in @in_func and between, against @want into *@res.  Return:
 * 0, or 1 when the test was skipped or failed (too few samples included).
 */
static int profile_steady(struct __test_metadata *_metadata, const char *prog,
			  unsigned int flags, const struct dw_frame_pat *want, int nr_want,
			  const char *in_func, struct dw_chain_result *res)
{
	struct profile p = { .prog = prog, .flags = flags,
			     .opts = { .want = want, .nr_want = nr_want, .in_func = in_func,
				       .window = 1 } };

	if (profile_chain(_metadata, &p, res, NULL))
		return 1;
	EXPECT_GE(res->judged, MIN_JUDGED) TH_LOG("too few samples in %s()", in_func);
	return res->judged < MIN_JUDGED;
}

/*
 * Profile @prog, fp_chain.c built without frame pointers (@missing: why it
 * may not be built), and expect leaf, c, b, a, main by SFrame in 99 % of
 * its steady-state stacks.
 */
static void expect_sframe_chain(struct __test_metadata *_metadata, const char *prog,
				const char *missing)
{
	struct profile p = { .prog = prog, .missing = missing,
			     .opts = { .want = chain_want, .nr_want = 5, .in_func = "leaf",
				       .window = 1 } };
	struct dw_chain_result res;

	if (profile_chain(_metadata, &p, &res, NULL))
		return;
	EXPECT_GE(res.judged, MIN_JUDGED) TH_LOG("too few samples in leaf()");
	EXPECT_GE(res.matched_sframe * 100, res.judged * 99)
		TH_LOG("only %zu of %zu steady-state stacks of %s are leaf,c,b,a,main by SFrame",
		       res.matched_sframe, res.judged, prog);
}

/* No frame pointers anywhere: SFrame alone gives leaf, c, b, a, main. */
TEST_F_TIMEOUT(sframe, sframe_chain, 90)
{
	expect_sframe_chain(_metadata, "sf_chain", NULL);
}

/*
 * The leaf spins after 'pop %rbp', where its SFrame row still names rbp's
 * slot, below SP: the walk keeps rbp and goes on to main.
 */
TEST_F_TIMEOUT(sframe, sframe_epilogue_after_pop_rbp, 90)
{
	expect_sframe_chain(_metadata, "sf_epilogue", NULL);
}

#if defined(DW_ARCH_NO_TOOLCHAIN3)
#define NO_V3	DW_ARCH_NO_TOOLCHAIN3
#else
#define NO_V3	"Debian unstable's toolchain (SFrame v3) not fetched: tools/toolchain fetch"
#endif

/* The chain built by gcc 16 / binutils 2.47: SFrame version 3, as complete. */
TEST_F_TIMEOUT(sframe, sframe_v3_chain, 90)
{
	expect_sframe_chain(_metadata, "sf3_chain", NO_V3);
}

/* sf_gap's chain as far as its table goes: b() has no row. */
static const struct dw_frame_pat gap_want[] = {
	DW_FN("leaf"), DW_FN("c"), DW_FN("b"),
};

/*
 * A PC the program's own table leaves out (b(): assembly without CFI, no
 * frame pointer) ends the walk there, "no unwind info", at every walk:
 * the first from the table, the later ones from the rule cache, which
 * keeps such answers too.  Nothing is made up past it.
 */
TEST_F_TIMEOUT(sframe, table_gap_ends_every_walk, 90)
{
	struct dw_chain_result res;

	if (profile_steady(_metadata, "sf_gap", 0, gap_want, 3, "leaf", &res))
		return;
	EXPECT_GE(res.matched_sframe * 100, res.judged * 99)
		TH_LOG("only %zu of %zu steady-state stacks are leaf,c,b by SFrame",
		       res.matched_sframe, res.judged);
	EXPECT_GE(res.stopped[DUNWIND_STOP_NO_INFO] * 100, res.judged * 99)
		TH_LOG("only %zu of %zu stacks stopped for no unwind info at b()",
		       res.stopped[DUNWIND_STOP_NO_INFO], res.judged);
	EXPECT_EQ(3, res.max_nr) TH_LOG("a walk went past b(): %zu frames", res.max_nr);
}

/* The same binary walked with frame pointers only: the chain is lost. */
TEST_F_TIMEOUT(sframe, sframe_chain_fp_only, 90)
{
	struct dw_chain_result res;

	if (profile_steady(_metadata, "sf_chain", DUNWIND_CFG_FP_ONLY, chain_want, 5, "leaf",
			   &res))
		return;
	EXPECT_LE(res.matched * 100, res.judged * 5)
		TH_LOG("%zu of %zu frame-pointer stacks found the chain without frame pointers",
		       res.matched, res.judged);
	EXPECT_EQ(0, res.with_sframe) TH_LOG("FP_ONLY stacks used SFrame");
}

/* Program with frame pointers, library with SFrame only. */
TEST_F_TIMEOUT(sframe, mixed_fp_main_sframe_lib, 90)
{
	struct dw_chain_result res;

	if (profile_steady(_metadata, "mix_fp_main", 0, mix_want, 5, "lib_leaf", &res))
		return;
	EXPECT_GE(res.matched_both * 100, res.judged * 99)
		TH_LOG("only %zu of %zu stacks are lib_leaf,lib_b,lib_a,a,main using both methods",
		       res.matched_both, res.judged);
}

/* Program with SFrame only, library with frame pointers and no .sframe. */
TEST_F_TIMEOUT(sframe, mixed_sframe_main_fp_lib, 90)
{
	struct dw_chain_result res;

	if (profile_steady(_metadata, "mix_sf_main", 0, mix_want, 5, "lib_leaf", &res))
		return;
	EXPECT_GE(res.matched_both * 100, res.judged * 99)
		TH_LOG("only %zu of %zu stacks are lib_leaf,lib_b,lib_a,a,main using both methods",
		       res.matched_both, res.judged);
}

/* 300 frames of ~200 bytes (~64 KiB of stack): the walk reaches main. */
TEST_F_TIMEOUT(sframe, deep_recursion, 120)
{
	struct profile p = { .prog = "deep", .max_user_frames = DUNWIND_MAX_USER_FRAMES,
			     .freq = 500, .ms = 5000, .min_judged = MIN_JUDGED / 2,
			     .opts = { .want = deep_want, .nr_want = 3, .in_func = "spin",
				       .window = 1 } };
	struct dw_chain_result res;

	if (profile_chain(_metadata, &p, &res, NULL))
		return;
	EXPECT_GE(res.judged, p.min_judged) TH_LOG("too few samples in spin()");
	EXPECT_GE(res.max_nr, 302);
	EXPECT_GE(res.matched_sframe * 100, res.judged * 99)
		TH_LOG("only %zu of %zu stacks are spin, 300 x rec, main", res.matched_sframe,
		       res.judged);
}

/* 300 frames of version 3 SFrame (gcc 16): complete to main. */
TEST_F_TIMEOUT(sframe, deep_recursion_v3, 120)
{
	struct profile p = { .prog = "sf3_deep", .missing = NO_V3,
			     .max_user_frames = DUNWIND_MAX_USER_FRAMES,
			     .freq = 500, .ms = 5000, .min_judged = MIN_JUDGED / 2,
			     .opts = { .want = deep_want, .nr_want = 3, .in_func = "spin",
				       .window = 1 } };
	struct dw_chain_result res;

	if (profile_chain(_metadata, &p, &res, NULL))
		return;
	EXPECT_GE(res.judged, p.min_judged) TH_LOG("too few samples in spin()");
	EXPECT_GE(res.max_nr, 302);
	EXPECT_GE(res.matched_sframe * 100, res.judged * 99)
		TH_LOG("only %zu of %zu stacks are spin, 300 x rec, main", res.matched_sframe,
		       res.judged);
}

/* The control for the corrupt_sframe tests: the intact binary does use SFrame. */
TEST_F_TIMEOUT(sframe, sframe_with_fp_uses_sframe, 90)
{
	struct profile p = { .prog = "sf_fpchain",
			     .opts = { .want = chain_want, .nr_want = 5, .in_func = "leaf",
				       .window = 1 } };
	struct dw_chain_result res;

	if (profile_chain(_metadata, &p, &res, NULL))
		return;
	EXPECT_GE(res.judged, MIN_JUDGED) TH_LOG("too few samples in leaf()");
	EXPECT_GE(res.matched_sframe * 100, res.judged * 99)
		TH_LOG("only %zu of %zu stacks are leaf,c,b,a,main by SFrame", res.matched_sframe,
		       res.judged);
}

/*
 * The cost of a frame by each method (DUNWIND_IOC_STATS), on the program
 * with frame pointers calling the SFrame library: logged for comparison.
 */
TEST_F_TIMEOUT(sframe, method_cost, 90)
{
	struct profile p = { .prog = "mix_fp_main",
			     .opts = { .want = mix_want, .nr_want = 5, .in_func = "lib_leaf",
				       .window = 1 } };
	struct dw_chain_result res;
	struct dunwind_stats st;

	if (profile_chain(_metadata, &p, &res, &st))
		return;
	TH_LOG("walks %llu: %llu ns per walk", (unsigned long long)st.walks,
	       (unsigned long long)(st.walks ? st.walk_ns / st.walks : 0));
	TH_LOG("fp: %llu ns / %llu frames = %llu ns per frame", (unsigned long long)st.fp_ns,
	       (unsigned long long)st.fp_frames,
	       (unsigned long long)(st.fp_frames ? st.fp_ns / st.fp_frames : 0));
	TH_LOG("sframe: %llu ns / %llu frames = %llu ns per frame",
	       (unsigned long long)st.sframe_ns, (unsigned long long)st.sframe_frames,
	       (unsigned long long)(st.sframe_frames ? st.sframe_ns / st.sframe_frames : 0));
	EXPECT_GT(st.sframe_frames, 0);
}

/* A binary with frame pointers whose .sframe is corrupt in one way. */
FIXTURE(corrupt) {
	int unused;
};

FIXTURE_VARIANT(corrupt) {
	const char *prog;
};

FIXTURE_VARIANT_ADD(corrupt, counts) { .prog = "sf_bad_counts" };
FIXTURE_VARIANT_ADD(corrupt, unsorted) { .prog = "sf_bad_unsorted" };
FIXTURE_VARIANT_ADD(corrupt, offsets) { .prog = "sf_bad_offsets" };

FIXTURE_SETUP(corrupt)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(corrupt)
{
}

/* Whether the kernel log has the "unusable .sframe" line for @pid. */
static int klog_has_unusable(int pid)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, want[64];
	int n, found = 0;

	if (len <= 0)
		return -1;
	buf = malloc(len + 1);
	if (!buf)
		return -1;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (n >= 0) {
		buf[n] = '\0';
		snprintf(want, sizeof(want), "pid %d: unusable .sframe", pid);
		found = !!strstr(buf, want);
	}
	free(buf);
	return n < 0 ? -1 : found;
}

/* The walk ignores the corrupt table and still sees the frame-pointer chain. */
TEST_F_TIMEOUT(corrupt, corrupt_sframe_falls_back_to_fp, 90)
{
	struct profile p = { .prog = variant->prog,
			     .opts = { .want = chain_want, .nr_want = 5, .in_func = "leaf",
				       .window = 1 } };
	struct dw_chain_result res;

	if (profile_chain(_metadata, &p, &res, NULL))
		return;
	TH_LOG("kernel log names pid %d's unusable .sframe: %d", p.opts.pid,
	       klog_has_unusable(p.opts.pid));
	EXPECT_GE(res.judged, MIN_JUDGED) TH_LOG("too few samples in leaf()");
	EXPECT_GE(res.matched * 100, res.judged * 99)
		TH_LOG("only %zu of %zu stacks are leaf,c,b,a,main", res.matched, res.judged);
	EXPECT_EQ(0, res.with_sframe) TH_LOG("the corrupt .sframe was used");
}

/* The chain of sframe_huge.c. */
static const struct dw_frame_pat huge_want[] = {
	DW_FN("spin"), DW_FN("middle"), DW_FN("main"),
};

/*
 * The longest a walk kept a thread from user space: for samples taken in
 * user mode the walk runs at the interrupt's return, so the time from the
 * SAMPLE to its USER_STACK is the walk's.  In ns, 0 if none.
 */
static __u64 worst_user_walk(const struct dw_records *r)
{
	const struct dunwind_rec_user_stack *u;
	__u64 worst = 0;
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)r->v[i];

		if (sm->hdr.type != DUNWIND_REC_SAMPLE || !(sm->flags & DUNWIND_SAMPLE_USER_MODE) ||
		    dw_records_stacks_for(r, sm->cookie, &u) != 1 || u->time < sm->time)
			continue;
		if (u->time - sm->time > worst)
			worst = u->time - sm->time;
	}
	return worst;
}

/*
 * A program points its own in-memory ELF header at a 63 MiB SFrame table
 * (well-formed, one FDE per byte of its image).  Walks use it without
 * reading it whole: stacks still come out right, through the table, and
 * every cookie is answered once.  The worst walk time is logged (the
 * figure in Documentation/testing.rst), not judged.
 */
TEST_F_TIMEOUT(sframe, huge_table_in_own_memory, 120)
{
	struct dw_records_opts o = { .ms = 3000, .max_ms = 20000, .min_samples = 400 };
	struct dw_chain_opts co = { .want = huge_want, .nr_want = 3, .in_func = "spin",
				    .window = 1 };
	struct dw_chain_result res = { 0 };
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dunwind_stats st;
	struct dw_workload w;
	struct dw_maps *maps;
	size_t bad;
	int ret;

	ret = dw_workload_start(&w, "sframe_huge", NULL, 60000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start sframe_huge: %s", strerror(-ret));
	maps = dw_maps_load(NULL, w.pid);
	if (!maps)
		dw_workload_stop(&w);
	ASSERT_NE(NULL, maps) TH_LOG("cannot read the symbols of sframe_huge");
	dw_records_config(&cfg, w.pid, 0, FREQ);
	ret = dw_records_profile_opts(&r, &cfg, &o, &st);
	dw_workload_stop(&w);
	if (!ret) {
		co.pid = w.pid;
		ret = dw_chain_check(&r, maps, &co, &res);
	}
	dw_maps_free(maps);
	if (ret)
		dw_records_free(&r);
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));
	bad = dw_records_unanswered(&r, NULL);
	EXPECT_EQ(0, bad) TH_LOG("%zu samples without exactly one USER_STACK", bad);
	EXPECT_EQ(st.samples_deferred, st.walks);
	EXPECT_GE(res.judged, 100) TH_LOG("too few samples in spin()");
	EXPECT_GE(res.matched_sframe * 100, res.judged * 95)
		TH_LOG("only %zu of %zu stacks are spin,middle,main through the table",
		       res.matched_sframe, res.judged);
	TH_LOG("%zu samples, %llu walks, mean walk %llu us, worst user-mode walk %llu us",
	       r.nr_samples, (unsigned long long)st.walks,
	       (unsigned long long)(st.walks ? st.walk_ns / st.walks / 1000 : 0),
	       (unsigned long long)(worst_user_walk(&r) / 1000));
	dw_records_free(&r);
}

TEST_HARNESS_MAIN
