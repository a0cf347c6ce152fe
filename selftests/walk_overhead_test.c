// SPDX-License-Identifier: GPL-2.0
/*
 * walk_overhead_test: samples that interrupt dunwind's own user walk are
 * flagged DUNWIND_SAMPLE_IN_WALK and counted in walk_samples, and no other
 * sample is.  The walks are made expensive (a 300-frame SFrame stack, no
 * frame pointers, sampled at 10 kHz) so that samples land in them; the
 * profiles are added up until enough did (a walk of recursion is cheap:
 * its frames share the last frame's rule, and a debug kernel lowers
 * kernel.perf_event_max_sample_rate to a few hundred samples a second).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "symbols/kallsyms.h"
#include "kselftest_harness.h"
#include "arch.h"
#include "records.h"
#include "workload.h"

#define PERIOD_NS	100000ULL	/* 10 kHz of CPU time */
#define PROFILE_MS	3000
#define MIN_INNER	10		/* samples inside the walk's frame loop, at least */
#define ATTEMPTS	12		/* profiles added up to reach MIN_INNER */
#define DEPTH		"1000"		/* rec() frames of workloads/deep */
#define SHOW_BAD	5

/*
 * The walk: dunwind_walk_work() from the moment it takes its pending slot
 * to the moment it gives it back; its frame loop (dunwind_unwind_fast(),
 * never inlined) and dunwind_sframe_rule() run only there (inside it,
 * while the slot is held), so a sample with either on its kernel stack
 * interrupted the walk for certain.
 */
#define WALK_FN		"dunwind_walk_work"
#define INNER_FN	"dunwind_unwind_fast"
#define INNER_FN2	"dunwind_sframe_rule"

struct verdicts {
	size_t samples, flagged, inner, inner_flagged, outside_flagged, trunc, caller_lost;
};

/* Does a kernel frame of @s lie in the function @fn of the module? */
static int has_frame(const struct dw_kallsyms *ks, const struct dunwind_rec_sample *s,
		     const char *fn)
{
	uint64_t off;
	const char *mod, *name;
	int i;

	for (i = 0; i < s->nr_kernel; i++) {
		name = dw_kallsyms_lookup(ks, s->ips[i], &off, &mod);
		if (name && !strcmp(name, fn))
			return 1;
	}
	return 0;
}

/*
 * Is the walk's frame of @s lost to the kernel's stack walk?  On arm64
 * the kernel's stack walk follows frame records from x29, which in a
 * function's prologue and epilogue, in a leaf that stores none, or in a
 * module's PLT veneer to the kernel, is still (or again) its caller's.
 * A function the walk called (the module's, or the kernel's such as
 * up_read()) interrupted in such a place loses dunwind_walk_work(),
 * whose return address is then only in x30:
 * - the sample interrupted it: the frame after the interrupted one is
 *   task_work_run();
 * - an interrupt came there and the sample later, in the softirqs run
 *   on the interrupt's way out: the exception's frame (el1h_64_irq and
 *   the like) is followed by the interrupted PC, then task_work_run().
 * Which task_work callback called it is unknowable then, so such
 * samples are not judged.  x86's ORC unwinder knows each instruction's
 * frame, so there this never happens.
 */
static int caller_lost(const struct dw_kallsyms *ks, const struct dunwind_rec_sample *s)
{
#if defined(__aarch64__)
	const char *mod, *name, *before = NULL, *prev = NULL;
	uint64_t off;
	int i;

	for (i = 0; i < s->nr_kernel; i++) {
		name = dw_kallsyms_lookup(ks, s->ips[i], &off, &mod);
		if (name && !strcmp(name, "task_work_run"))
			break;
		before = prev;
		prev = name;
	}
	if (i == s->nr_kernel || i == 0)
		return 0;
	return i == 1 || (before && !strncmp(before, "el1h_64_", 8));
#else
	(void)ks;
	(void)s;
	return 0;
#endif
}

/* A flagged sample without the walk's frame: its kernel frames, named. */
static void show_outside(struct __test_metadata *_metadata, const struct dw_kallsyms *ks,
			 const struct dunwind_rec_sample *s, const char *what)
{
	const char *mod, *name;
	uint64_t off;
	int i;

	TH_LOG("flagged sample %s: %u kernel frames, flags %#x, user ip %#llx",
	       what, s->nr_kernel, s->flags, (unsigned long long)s->user_ip);
	for (i = 0; i < s->nr_kernel; i++) {
		name = dw_kallsyms_lookup(ks, s->ips[i], &off, &mod);
		TH_LOG("  %#llx %s+%#llx%s%s%s", (unsigned long long)s->ips[i], name ? name : "?",
		       (unsigned long long)off, mod ? " [" : "", mod ? mod : "", mod ? "]" : "");
	}
}

static void classify(struct __test_metadata *_metadata, const struct dw_kallsyms *ks,
		     const struct dw_records *r, int pid, struct verdicts *v)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_sample *s = (const void *)r->v[i];
		int flagged, inner, walk;

		if (r->v[i]->type != DUNWIND_REC_SAMPLE || s->pid != (__u32)pid)
			continue;
		v->samples++;
		flagged = !!(s->flags & DUNWIND_SAMPLE_IN_WALK);
		inner = has_frame(ks, s, INNER_FN) || has_frame(ks, s, INNER_FN2);
		walk = has_frame(ks, s, WALK_FN);
		v->flagged += flagged;
		v->inner += inner;
		v->inner_flagged += inner && flagged;
		/* A stack cut at max_kernel_frames may have lost its walk frame. */
		if (flagged && !walk && (s->flags & DUNWIND_SAMPLE_KERNEL_TRUNC)) {
			v->trunc++;
		} else if (flagged && !walk && caller_lost(ks, s)) {
			if (v->caller_lost++ < SHOW_BAD)
				show_outside(_metadata, ks, s, "its walk frame lost");
		} else if (flagged && !walk) {
			if (v->outside_flagged++ < SHOW_BAD)
				show_outside(_metadata, ks, s, "outside the walk");
		}
		if (inner && !flagged && v->inner - v->inner_flagged <= SHOW_BAD)
			TH_LOG("unflagged sample in %s or %s: flags %#x, cookie %llu", INNER_FN,
			       INNER_FN2, s->flags, (unsigned long long)s->cookie);
	}
}

FIXTURE(walk) {
	struct dw_records r;
	struct dw_kallsyms *ks;
	struct dunwind_stats st;	/* the last profile's */
	struct verdicts v;		/* all profiles' */
	__u64 walk_samples, lost;	/* all profiles' */
};

/*
 * Profile workloads/deep until enough samples landed in the walk's
 * lookups, adding up the verdicts and the module's walk_samples.
 */
FIXTURE_SETUP(walk)
{
	const char *argv[] = { DEPTH, NULL };
	char path[4096];
	int attempt, ret;

	memset(&self->r, 0, sizeof(self->r));
	self->ks = NULL;
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	if (dw_workload_path("deep", path, sizeof(path)) || access(path, X_OK))
		SKIP(return, "no workloads/deep: %s", DW_NO_GSFRAME_WORKLOAD);
	self->ks = dw_kallsyms_load(NULL);
	ASSERT_NE(NULL, self->ks) TH_LOG("cannot read /proc/kallsyms: %s", strerror(errno));
	memset(&self->v, 0, sizeof(self->v));
	self->walk_samples = self->lost = 0;
	for (attempt = 0; attempt < ATTEMPTS && self->v.inner < MIN_INNER; attempt++) {
		struct dunwind_config cfg;
		struct dw_workload w;

		dw_records_free(&self->r);
		ret = dw_workload_start(&w, "deep", argv, 10000);
		ASSERT_EQ(0, ret) TH_LOG("cannot start deep: %s", strerror(-ret));
		dw_records_config(&cfg, w.pid, 0, 0);
		cfg.sample_period = PERIOD_NS;
		cfg.ring_pages = 4096;
		cfg.max_user_frames = DUNWIND_MAX_USER_FRAMES;
		cfg.max_kernel_frames = DUNWIND_MAX_KERNEL_FRAMES;
		memset(&self->st, 0, sizeof(self->st));
		ret = dw_records_profile(&self->r, &cfg, PROFILE_MS, &self->st);
		classify(_metadata, self->ks, &self->r, w.pid, &self->v);
		dw_workload_stop(&w);
		ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));
		self->walk_samples += self->st.walk_samples;
		self->lost += self->r.lost;
		TH_LOG("after %d profiles: %zu samples, %zu flagged in the walk, %zu in %s "
		       "or %s (%zu flagged), %zu flagged outside it, %zu with the "
		       "walk's frame lost (arm64: a callee without its frame record), "
		       "walk_samples %llu",
		       attempt + 1, self->v.samples, self->v.flagged, self->v.inner, INNER_FN,
		       INNER_FN2,
		       self->v.inner_flagged, self->v.outside_flagged, self->v.caller_lost,
		       (unsigned long long)self->walk_samples);
	}
	ASSERT_EQ(0, self->lost) TH_LOG("records lost: the checks need all of them");
	ASSERT_GE(self->v.inner, MIN_INNER)
		TH_LOG("too few samples in the walk to check its classification");
}

FIXTURE_TEARDOWN(walk)
{
	dw_records_free(&self->r);
	dw_kallsyms_free(self->ks);
}

/* Every sample taken inside the walk's frame loop or lookups carries the flag. */
TEST_F_TIMEOUT(walk, samples_in_the_walk_are_flagged, 300)
{
	EXPECT_EQ(self->v.inner, self->v.inner_flagged);
}

/* No sample whose kernel stack is outside dunwind_walk_work() carries it. */
TEST_F_TIMEOUT(walk, no_sample_outside_the_walk_is_flagged, 300)
{
	EXPECT_EQ(0, self->v.outside_flagged);
}

/* walk_samples counts exactly the flagged samples. */
TEST_F_TIMEOUT(walk, stats_count_the_flagged_samples, 300)
{
	EXPECT_LE(DUNWIND_STATS_SIZE_VER4, self->st.size);
	EXPECT_EQ(self->v.flagged, self->walk_samples);
}

TEST_HARNESS_MAIN
