// SPDX-License-Identifier: GPL-2.0
/*
 * Samples taken in dunwind's own walk (DUNWIND_SAMPLE_IN_WALK): their
 * kernel part becomes one [dunwind] frame on top of the user stack, and the
 * report's summary counts them as profiler overhead.  A capture of three
 * samples sharing one cookie: two in the program's own system call, one in
 * the walk, each with kernel IPs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mkrec.h"
#include "analyze/profile.h"
#include "capture/capture.h"
#include "output/report.h"

#define G		4194601U
#define NR_USER		3
#define NR_KERNEL	4

static char dir[] = "/tmp/dw_walk_frame_test.XXXXXX";
static char cap[128];

static int write_capture(void)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = (int)G, .sample_freq = 99 };
	struct dw_capture_writer w;
	union rec_buf b;
	int err;

	if (!mkdtemp(dir))
		return -errno;
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	err = dw_capture_create(&w, cap, &cfg);
	if (err)
		return err;
	dw_capture_write(&w, mk_comm(&b, G, G, 1, "victim", 0));
	dw_capture_write(&w, mk_sample(&b, 7, 10, G, G, NR_KERNEL, 0xffffffff81000010ULL));
	dw_capture_write(&w, mk_sample(&b, 7, 11, G, G, NR_KERNEL, 0xffffffff81000010ULL));
	mk_sample(&b, 7, 12, G, G, NR_KERNEL, 0xffffffffc0001000ULL);
	b.sample.flags |= DUNWIND_SAMPLE_IN_WALK;
	dw_capture_write(&w, &b.hdr);
	dw_capture_write(&w, mk_stack(&b, 7, G, G, NR_USER, 0x7f0000001010ULL, DUNWIND_STOP_END));
	return dw_capture_close(&w);
}

FIXTURE(walk) {
	struct dw_prof *p;
	const struct dw_prof_sample *in_walk, *own;
};

FIXTURE_SETUP(walk)
{
	struct dw_prof_opts o = { .user_symbols = 0, .quiet = 1 };
	size_t i;

	strcpy(dir, "/tmp/dw_walk_frame_test.XXXXXX");
	ASSERT_EQ(0, write_capture());
	ASSERT_EQ(0, dw_prof_load(&self->p, cap, &o));
	ASSERT_EQ(3, self->p->nr_samples);
	self->in_walk = self->own = NULL;
	for (i = 0; i < self->p->nr_samples; i++) {
		const struct dw_prof_sample *s = &self->p->samples[i];

		if (s->flags & DUNWIND_SAMPLE_IN_WALK)
			self->in_walk = s;
		else
			self->own = s;
	}
	ASSERT_NE(NULL, self->in_walk);
	ASSERT_NE(NULL, self->own);
}

FIXTURE_TEARDOWN(walk)
{
	dw_prof_free(self->p);
	unlink(cap);
	rmdir(dir);
}

/* Its kernel IPs are gone: one [dunwind] marker, then the user frames. */
TEST_F(walk, kernel_part_is_one_dunwind_frame)
{
	const struct dw_prof *p = self->p;
	const struct dw_prof_loc *l = &p->locs[p->stack[self->in_walk->first]];

	ASSERT_EQ(1 + NR_USER, self->in_walk->nr);
	EXPECT_TRUE(l->marker);
	EXPECT_FALSE(l->kernel);
	EXPECT_STREQ(DW_PROF_WALK_FRAME, p->funcs[p->lines[l->first_line].func].name);
}

/* A sample of the program's own kernel work keeps its kernel frames. */
TEST_F(walk, other_samples_keep_their_kernel_frames)
{
	const struct dw_prof *p = self->p;

	ASSERT_EQ(NR_KERNEL + NR_USER, self->own->nr);
	EXPECT_TRUE(p->locs[p->stack[self->own->first]].kernel);
}

/* The summary says how many samples, and what share, the walk took. */
TEST_F(walk, summary_counts_the_overhead)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	char want[160];

	ASSERT_NE(NULL, f);
	EXPECT_EQ(1, self->p->in_walk);
	EXPECT_EQ(0, dw_report_summary(f, self->p));
	fclose(f);
	snprintf(want, sizeof(want), "# profiler overhead: 1 samples (%.1f %%) in dunwind's own walk",
		 100.0 / 3);
	EXPECT_NE(NULL, strstr(text, want)) TH_LOG("%s", text);
	free(text);
}

TEST_HARNESS_MAIN
