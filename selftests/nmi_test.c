// SPDX-License-Identifier: GPL-2.0
/*
 * nmi_test: the NMI path (hardware events overflow in NMI) without a PMU.
 * DUNWIND_IOC_TEST_NMI raises an NMI on the caller's CPU whose handler
 * samples the caller as an overflow would: the walk must be queued from
 * NMI (TWA_NMI_CURRENT; on 6.1 through an irq_work) and answer the
 * sample's cookie when the ioctl returns to user space.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "records.h"

#define NR_NMIS		64

FIXTURE(nmi) {
	struct dw_session s;
	struct dw_records r;
	int nmis;
};

/*
 * A session on this thread at a low rate (the clock's own samples are few
 * and not in NMI); NR_NMIS test NMIs from a call chain of our own.
 */
static int __attribute__((noinline)) nmi_leaf(struct dw_session *s)
{
	int ret = ioctl(s->fd, DUNWIND_IOC_TEST_NMI, 0) ? -errno : 0;

	__asm__ volatile("" ::: "memory");	/* not a tail call */
	return ret;
}

static int __attribute__((noinline)) nmi_caller(struct dw_session *s, int *done)
{
	int i, ret = 0;

	for (i = 0; i < NR_NMIS && !ret; i++) {
		ret = nmi_leaf(s);
		*done += !ret;
	}
	__asm__ volatile("" ::: "memory");
	return ret;
}

FIXTURE_SETUP(nmi)
{
	struct dunwind_config cfg;
	int ret;

	memset(&self->r, 0, sizeof(self->r));
	self->s.fd = -1;
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	dw_records_config(&cfg, 0, gettid(), 10);
	ret = dw_session_open(&self->s, NULL, &cfg);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ret = dw_session_start(&self->s);
	ASSERT_EQ(0, ret) TH_LOG("start: %s", strerror(-ret));
	ret = nmi_caller(&self->s, &self->nmis);
	if (ret == -EIO)
		SKIP(return, "no NMI reached this CPU (no self-NMI in this machine's APIC?)");
	if (ret == -EOPNOTSUPP)
		SKIP(return, "no test NMI on this architecture (arm64: a module cannot raise one)");
	ASSERT_EQ(0, ret) TH_LOG("DUNWIND_IOC_TEST_NMI: %s", strerror(-ret));
	ASSERT_EQ(0, dw_session_stop(&self->s));
	ret = dw_records_drain(&self->s, &self->r);
	ASSERT_LE(0, ret) TH_LOG("drain: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(nmi)
{
	if (self->s.fd >= 0)
		dw_session_close(&self->s);
	dw_records_free(&self->r);
}

/* Each test NMI wrote one SAMPLE flagged as taken in NMI, in kernel mode. */
TEST_F(nmi, each_nmi_is_one_kernel_mode_sample)
{
	size_t i, nmi = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE || !(sm->flags & DUNWIND_SAMPLE_NMI))
			continue;
		nmi++;
		EXPECT_FALSE(sm->flags & DUNWIND_SAMPLE_USER_MODE);
		EXPECT_GT(sm->nr_kernel, 0);
		EXPECT_NE(0, sm->user_ip);
	}
	EXPECT_EQ(NR_NMIS, self->nmis);
	EXPECT_EQ((size_t)self->nmis, nmi) TH_LOG("%zu NMI samples for %d NMIs", nmi, self->nmis);
}

/*
 * The walk queued from NMI ran at the ioctl's return: every NMI sample's
 * cookie has exactly one USER_STACK, with frames, not cut by the session.
 */
TEST_F(nmi, each_nmi_sample_gets_its_user_stack)
{
	size_t i, nmi = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];
		const struct dunwind_rec_user_stack *us = NULL;

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE || !(sm->flags & DUNWIND_SAMPLE_NMI))
			continue;
		nmi++;
		ASSERT_NE(0, sm->cookie) TH_LOG("NMI sample without a cookie (flags %#x)", sm->flags);
		ASSERT_EQ(1, dw_records_stacks_for(&self->r, sm->cookie, &us))
			TH_LOG("cookie %#llx", (unsigned long long)sm->cookie);
		EXPECT_GT(us->nr, 0);
		EXPECT_NE(DUNWIND_STOP_EXITED, us->stop);
	}
	EXPECT_EQ((size_t)self->nmis, nmi);
}

/* Without START the hook refuses: nothing to sample into. */
TEST(nmi_needs_a_started_session)
{
	struct dunwind_config cfg;
	struct dw_session s;
	int ret;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	dw_records_config(&cfg, 0, gettid(), 10);
	ret = dw_session_open(&s, NULL, &cfg);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	EXPECT_EQ(-1, ioctl(s.fd, DUNWIND_IOC_TEST_NMI, 0));
	EXPECT_EQ(EINVAL, errno);
	dw_session_close(&s);
}

TEST_HARNESS_MAIN
