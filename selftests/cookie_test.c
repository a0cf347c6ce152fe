// SPDX-License-Identifier: GPL-2.0
/*
 * cookie_test: samples taken during one long stay in the kernel (a 16 MiB
 * read of /dev/zero) share one cookie, and cookies join samples to user
 * stacks one-to-one.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "records.h"
#include "workload.h"

#if defined(__aarch64__)
/* 48-bit VAs (Debian's arm64 kernels): the kernel's half starts at the linear map. */
#define KERNEL_START	0xffff000000000000ULL
#define USER_END	0x0001000000000000ULL
#else
#define KERNEL_START	0xffff800000000000ULL
#define USER_END	0x0000800000000000ULL
#endif

FIXTURE(read_loop) {
	struct dw_records r;
	int pid;
};

/* Profile read_loop for 2 s at 1 kHz; every test checks one property. */
FIXTURE_SETUP(read_loop)
{
	/* 100 samples at least, however starved the guest is. */
	struct dw_records_opts o = { .ms = 2000, .max_ms = 15000, .min_samples = 200 };
	struct dunwind_config cfg;
	struct dw_workload w;
	int ret;

	memset(&self->r, 0, sizeof(self->r));
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	ret = dw_workload_start(&w, "read_loop", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start read_loop: %s", strerror(-ret));
	self->pid = w.pid;
	dw_records_config(&cfg, w.pid, 0, 1000);
	ret = dw_records_profile_opts(&self->r, &cfg, &o, NULL);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));
	ASSERT_EQ(0, self->r.lost) TH_LOG("%llu records lost: the checks need all of them",
					  (unsigned long long)self->r.lost);
	ASSERT_GE(self->r.nr_samples, 100) TH_LOG("only %zu samples", self->r.nr_samples);
}

FIXTURE_TEARDOWN(read_loop)
{
	dw_records_free(&self->r);
}

TEST_F_TIMEOUT(read_loop, one_kernel_entry_shares_a_cookie, 120)
{
	size_t i, best = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *s = (const void *)self->r.v[i];
		size_t n;

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE || !s->cookie)
			continue;
		n = dw_records_samples_for(&self->r, s->cookie);
		if (n > best)
			best = n;
	}
	TH_LOG("%zu samples, at most %zu per cookie", self->r.nr_samples, best);
	EXPECT_GE(best, 2);
}

TEST_F_TIMEOUT(read_loop, every_cookie_has_exactly_one_user_stack, 120)
{
	size_t checked, bad = dw_records_unanswered(&self->r, &checked);

	EXPECT_GE(checked, 100);
	EXPECT_EQ(0, bad);
}

TEST_F_TIMEOUT(read_loop, every_user_stack_is_referenced, 120)
{
	size_t i, bad = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_user_stack *u = (const void *)self->r.v[i];

		if (self->r.v[i]->type != DUNWIND_REC_USER_STACK)
			continue;
		if (!u->cookie || !dw_records_samples_for(&self->r, u->cookie)) {
			if (bad++ < 5)
				TH_LOG("user stack with cookie %llu has no sample",
				       (unsigned long long)u->cookie);
		}
	}
	EXPECT_GE(self->r.nr_stacks, 10);
	EXPECT_EQ(0, bad);
}

TEST_F_TIMEOUT(read_loop, kernel_mode_samples_have_kernel_ips, 120)
{
	size_t i, kernel = 0, bad = 0;
	int j;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *s = (const void *)self->r.v[i];
		int ok = 1;

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE)
			continue;
		if (s->flags & DUNWIND_SAMPLE_USER_MODE) {
			ok = s->nr_kernel == 0 && s->user_ip && s->user_ip < USER_END;
		} else {
			kernel++;
			ok = s->nr_kernel > 0;
			for (j = 0; ok && j < s->nr_kernel; j++)
				ok = s->ips[j] >= KERNEL_START;
		}
		if (!ok && bad++ < 5)
			TH_LOG("sample flags %#x user_ip %#llx nr_kernel %u ips[0] %#llx", s->flags,
			       (unsigned long long)s->user_ip, s->nr_kernel,
			       (unsigned long long)(s->nr_kernel ? s->ips[0] : 0));
	}
	TH_LOG("%zu of %zu samples in kernel mode", kernel, self->r.nr_samples);
	EXPECT_GE(kernel, 10) TH_LOG("read_loop should spend most of its time in read()");
	EXPECT_EQ(0, bad);
}

TEST_F_TIMEOUT(read_loop, samples_name_the_target, 120)
{
	size_t i, bad = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *s = (const void *)self->r.v[i];

		if (self->r.v[i]->type == DUNWIND_REC_SAMPLE &&
		    (s->pid != (__u32)self->pid || s->tid != (__u32)self->pid))
			bad++;
	}
	EXPECT_EQ(0, bad);
}

TEST_HARNESS_MAIN
