// SPDX-License-Identifier: GPL-2.0
/*
 * scribble_test: user stacks that change while they are walked
 * (workloads/stack_scribble: threads rewriting their own and each other's
 * frames with random words, unmapped and kernel pointers, loops) are walked
 * to a bound, every sample is answered once, and each truncation is
 * counted by its reason.  Once by frame pointers, once by SFrame tables
 * generated for the program and libc.  On the debug kernel (KASAN,
 * lockdep) tools/vm/run fails the run on any report in the kernel log.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "invariants.h"
#include "records.h"
#include "sframe/sframe_reg.h"
#include "workload.h"

#define FREQ		1000	/* Hz */
#define MAX_FRAMES	64	/* max_user_frames of the session */

static const char *const stop_names[DUNWIND_STOP_MAX] = {
	"end", "max_depth", "fault", "bad_frame", "exited", "no_mm", "no_info", "session",
};

struct reg_arg {
	int pid;
	int err;
	unsigned int failed;
};

/* Tables for every file of the workload before START: walks go by SFrame. */
static int reg_hook(struct dw_session *s, void *arg)
{
	struct reg_arg *a = arg;
	struct dw_sframe_reg_opts o = { .flags = DW_SFRAME_REG_NO_CACHE };
	struct dw_sframe_reg_pid p;

	a->err = dw_sframe_register_pid(s->fd, a->pid, &o, &p);
	a->failed = a->err ? 0 : p.failed;
	if (!a->err)
		dw_sframe_reg_pid_free(&p);
	return a->err;
}

FIXTURE(scribble) {
	struct dw_workload w;
};

FIXTURE_VARIANT(scribble) {
	int sframe;
};

FIXTURE_VARIANT_ADD(scribble, fp) { .sframe = 0 };
FIXTURE_VARIANT_ADD(scribble, sframe) { .sframe = 1 };

FIXTURE_SETUP(scribble)
{
	static const char *const argv[] = { "4", NULL };
	int ret;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	ret = dw_workload_start(&self->w, "stack_scribble", argv, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start stack_scribble: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(scribble)
{
	if (self->w.pid > 0)
		dw_workload_stop(&self->w);
}

/*
 * Every walk of a scribbled stack stops within MAX_FRAMES frames with a
 * known reason; the module answered every sample exactly once; and the
 * scribbling did truncate walks (else nothing was tested).
 */
TEST_F_TIMEOUT(scribble, walks_bounded_and_counted, 180)
{
	struct reg_arg a = { .pid = self->w.pid };
	struct dw_records_opts o = { .ms = 3000, .max_ms = 30000, .min_samples = 500,
				     .before_start = variant->sframe ? reg_hook : NULL, .arg = &a };
	struct dw_records r = { 0 };
	struct dw_invariants inv = { 0 };
	struct dunwind_stats st = { .size = sizeof(st) };
	struct dunwind_config cfg;
	size_t i, over = 0, truncated;
	int ret;

	dw_records_config(&cfg, self->w.pid, 0, FREQ);
	cfg.max_user_frames = MAX_FRAMES;
	ret = dw_records_profile_opts(&r, &cfg, &o, &st);
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s (registration: %s)", strerror(-ret),
				 dw_sframe_reg_strerror(a.err));
	ASSERT_EQ(0, dw_invariants_scan_records(&r, &inv));

	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_user_stack *u = (const void *)r.v[i];

		if (r.v[i]->type == DUNWIND_REC_USER_STACK && u->nr > MAX_FRAMES)
			over++;
	}
	truncated = inv.stops[DUNWIND_STOP_FAULT] + inv.stops[DUNWIND_STOP_BAD_FRAME] +
		    inv.stops[DUNWIND_STOP_MAX_DEPTH] + inv.stops[DUNWIND_STOP_NO_INFO];
	printf("# FIGURE scribble %s: %zu stacks, %llu walks, %llu frames, %llu by SFrame, "
	       "%llu lost; stops:", variant->sframe ? "sframe" : "fp", inv.stacks,
	       (unsigned long long)st.walks, (unsigned long long)st.user_frames,
	       (unsigned long long)st.sframe_frames, (unsigned long long)st.lost[0]);
	for (i = 0; i < DUNWIND_STOP_MAX; i++)
		printf(" %s=%zu", stop_names[i], inv.stops[i]);
	printf("\n");

	EXPECT_EQ(0, over) TH_LOG("%zu stacks longer than max_user_frames %d", over, MAX_FRAMES);
	EXPECT_EQ(0, inv.dup_cookies);
	EXPECT_EQ(st.samples_deferred, st.walks);
	EXPECT_LE(inv.no_stack, st.lost[0]) TH_LOG("%zu samples without their stack", inv.no_stack);
	EXPECT_GE(inv.stacks, 200);
	EXPECT_GE(truncated, inv.stacks / 10)
		TH_LOG("only %zu of %zu walks truncated: the scribbling did not reach them",
		       truncated, inv.stacks);
	if (variant->sframe)
		EXPECT_GT(st.sframe_frames, 0) TH_LOG("no frame recovered by SFrame (%u files failed)",
						      a.failed);
	free(r.v);
}

TEST_HARNESS_MAIN
