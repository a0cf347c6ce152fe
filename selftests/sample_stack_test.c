// SPDX-License-Identifier: GPL-2.0
/*
 * sample_stack_test: with DUNWIND_CFG_SAMPLE_STACK a sample taken in user
 * mode comes with its user stack in one SAMPLE_STACK record, whose coded
 * IPs are the chain; every cookie still has exactly one answer, and the
 * counters agree with the records.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "invariants.h"
#include "records.h"
#include "record.h"
#include "symbols/symtab.h"
#include "workload.h"

FIXTURE(chain) {
	struct dw_records r;
	struct dw_invariants inv;
	struct dunwind_stats st;
	struct dw_maps *maps;
	int pid;
};

/* Profile fp_chain (user mode nearly always) for 2 s at 1 kHz. */
FIXTURE_SETUP(chain)
{
	struct dw_records_opts o = { .ms = 2000, .max_ms = 15000, .min_samples = 200 };
	struct dunwind_config cfg;
	struct dw_workload w;
	int ret;

	memset(&self->r, 0, sizeof(self->r));
	self->maps = NULL;
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	ret = dw_workload_start(&w, "fp_chain", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start fp_chain: %s", strerror(-ret));
	self->pid = w.pid;
	self->maps = dw_maps_load(NULL, w.pid);
	dw_records_config(&cfg, w.pid, 0, 1000);
	cfg.flags = DUNWIND_CFG_SAMPLE_STACK;
	self->st.size = sizeof(self->st);
	ret = dw_records_profile_opts(&self->r, &cfg, &o, &self->st);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));
	ASSERT_NE(NULL, self->maps) TH_LOG("cannot read the symbols of fp_chain");
	ASSERT_EQ(0, dw_invariants_scan_records(&self->r, &self->inv));
}

FIXTURE_TEARDOWN(chain)
{
	dw_maps_free(self->maps);
	dw_records_free(&self->r);
}

TEST_F_TIMEOUT(chain, user_mode_samples_come_as_one_record, 120)
{
	size_t i, two = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *s = (const void *)self->r.v[i];

		if (self->r.v[i]->type == DUNWIND_REC_SAMPLE && (s->flags & DUNWIND_SAMPLE_USER_MODE))
			two++;
	}
	TH_LOG("%zu samples: %zu in SAMPLE_STACKs, %zu user-mode SAMPLEs", self->inv.samples,
	       self->inv.sample_stacks, two);
	/* A user-mode SAMPLE only where a second sample came during its walk. */
	EXPECT_GT(self->inv.sample_stacks, two);
}

TEST_F_TIMEOUT(chain, every_cookie_has_exactly_one_answer, 120)
{
	EXPECT_EQ(0, self->inv.no_stack);
	EXPECT_EQ(0, self->inv.dup_cookies);
}

TEST_F_TIMEOUT(chain, counters_count_a_sample_stack_as_a_sample_and_a_walk, 120)
{
	EXPECT_EQ(self->st.samples, self->inv.samples + self->inv.lost[DUNWIND_REC_SAMPLE]);
	EXPECT_EQ(self->st.walks, self->inv.stacks + self->inv.lost[DUNWIND_REC_USER_STACK]);
}

TEST_F_TIMEOUT(chain, the_coded_ips_are_the_chain, 120)
{
	static const char *const want[] = { "leaf", "c", "b", "a", "main" };
	__u64 ips[DUNWIND_MAX_USER_FRAMES];
	size_t i, judged = 0, good = 0;
	int k;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample_stack *ss = (const void *)self->r.v[i];
		const char *name;
		uint64_t off;

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE_STACK || ss->nr < 5)
			continue;
		ASSERT_LT(0, dunwind_ipcode_decode(ss->ips, ss->hdr.size - sizeof(*ss), ips, ss->nr));
		name = dw_maps_lookup(self->maps, ips[0], &off, NULL);
		if (!name || strcmp(name, "leaf"))
			continue;
		judged++;
		for (k = 0; k < 5; k++) {
			name = dw_maps_lookup(self->maps, ips[k] - (k ? 1 : 0), &off, NULL);
			if (!name || strcmp(name, want[k]))
				break;
		}
		good += k == 5;
	}
	TH_LOG("%zu SAMPLE_STACKs in leaf, %zu with leaf c b a main", judged, good);
	EXPECT_GE(judged, 50);
	EXPECT_GE(good * 100, judged * 99);
}

/* The ring must hold two of the largest SAMPLE_STACKs (10 bytes an IP). */
TEST(a_ring_too_small_for_two_sample_stacks_is_refused)
{
	struct dunwind_config cfg;
	int fd;

	fd = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		SKIP(return, "cannot open %s: is the module loaded?", DUNWIND_DEVICE);
	/* 4 pages hold two USER_STACKs of 900 IPs (7240 bytes), not two SAMPLE_STACKs (9056). */
	dw_records_config(&cfg, getpid(), 0, 1000);
	cfg.ring_pages = 4;
	cfg.max_user_frames = 900;
	cfg.flags = DUNWIND_CFG_SAMPLE_STACK;
	EXPECT_EQ(-1, ioctl(fd, DUNWIND_IOC_CONFIG, &cfg));
	EXPECT_EQ(EINVAL, errno);
	cfg.flags = 0;
	EXPECT_EQ(0, ioctl(fd, DUNWIND_IOC_CONFIG, &cfg)) TH_LOG("%s", strerror(errno));
	close(fd);
}

TEST_HARNESS_MAIN
