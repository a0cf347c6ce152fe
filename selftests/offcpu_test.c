// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu_test: off-CPU samples (DUNWIND_CFG_OFF_CPU).  This thread blocks
 * NR_SLEEPS times in nanosleep from a known call chain, through a raw
 * system call in its own code (the test needs no table for libc); each
 * block must give one SAMPLE flagged OFF_CPU, weighted by the time off
 * CPU, whose user stack holds the chain.  A thread still blocked at STOP
 * gets a sample marked OPEN; short blocks under the threshold give none.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "arch.h"
#include "records.h"

#define NR_SLEEPS	10
#define SLEEP_NS	20000000ULL	/* 20 ms */

static unsigned long sleep_ret;		/* where the leaf returns into its caller */

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec;
}

/* nanosleep by a raw system call: the user IP at kernel entry is here. */
static long __attribute__((noinline)) offcpu_leaf(__u64 ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	sleep_ret = (unsigned long)__builtin_return_address(0);
	return dw_raw_nanosleep(&ts);
}

static long __attribute__((noinline)) offcpu_caller(int n, __u64 ns)
{
	long ret = 0;
	int i;

	for (i = 0; i < n && !ret; i++)
		ret = offcpu_leaf(ns);
	__asm__ volatile("" ::: "memory");	/* not a tail call */
	return ret;
}

FIXTURE(offcpu) {
	struct dw_session s;
	struct dw_records r;
	struct dunwind_stats st;
	__u64 t0, t1;			/* around the sleeps, measured here */
};

/* Off-CPU on this thread, the clock's own samples few. */
static int offcpu_open(struct dw_session *s, __u64 thresh_ns)
{
	struct dunwind_config cfg;

	dw_records_config(&cfg, 0, gettid(), 10);
	cfg.flags |= DUNWIND_CFG_OFF_CPU;
	cfg.offcpu_thresh_ns = thresh_ns;
	return dw_session_open(s, NULL, &cfg);
}

FIXTURE_SETUP(offcpu)
{
	int ret;

	memset(&self->r, 0, sizeof(self->r));
	self->s.fd = -1;
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	ret = offcpu_open(&self->s, 0);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ASSERT_EQ(0, dw_session_start(&self->s));
	self->t0 = mono_ns();
	ASSERT_EQ(0, offcpu_caller(NR_SLEEPS, SLEEP_NS));
	self->t1 = mono_ns();
	ASSERT_EQ(0, dw_session_stop(&self->s));
	ret = dw_records_drain(&self->s, &self->r);
	ASSERT_LE(0, ret) TH_LOG("drain: %s", strerror(-ret));
	self->st.size = sizeof(self->st);
	ASSERT_EQ(0, ioctl(self->s.fd, DUNWIND_IOC_STATS, &self->st));
}

FIXTURE_TEARDOWN(offcpu)
{
	if (self->s.fd >= 0)
		dw_session_close(&self->s);
	dw_records_free(&self->r);
}

static int is_offcpu(const struct dunwind_rec_header *h)
{
	const struct dunwind_rec_sample *sm = (const void *)h;

	return h->type == DUNWIND_REC_SAMPLE && (sm->flags & DUNWIND_SAMPLE_OFF_CPU);
}

/*
 * An off-CPU sample that ended while the sleeps ran (STOP may block too).
 * The thread runs when it reads t0, so a block that ended at t0 (the
 * clock's same reading) began before it: START's own (the debug kernel
 * once blocked 12 ms there), not a sleep's.  Every block that ends after
 * t0 began after it.
 */
static int in_sleeps(const struct dunwind_rec_header *h, __u64 t0, __u64 t1)
{
	const struct dunwind_rec_sample *sm = (const void *)h;

	return is_offcpu(h) && sm->time > t0 && sm->time <= t1;
}

/* Does @us hold the return into offcpu_caller? */
static int in_chain(const struct dunwind_rec_user_stack *us)
{
	unsigned int j;

	for (j = 0; us && j < us->nr; j++)
		if (us->ips[j] == sleep_ret)
			return 1;
	return 0;
}

/*
 * The sleeps' blocks are sampled, weighted by their time: the off-CPU
 * samples that ended while they ran number at least NR_SLEEPS (a sleep
 * woken early and blocking again is two blocks), weigh at least the time
 * asked for and no more than this thread measured around them, and none
 * is open.
 */
TEST_F(offcpu, each_block_is_one_sample_weighted_by_its_time)
{
	__u64 sum = 0, n = 0;
	size_t i;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];

		if (!in_sleeps(self->r.v[i], self->t0, self->t1))
			continue;
		n++;
		sum += sm->period;
		EXPECT_EQ((__u32)gettid(), sm->tid);
		EXPECT_FALSE(sm->flags & DUNWIND_SAMPLE_OFF_CPU_OPEN);
		EXPECT_GT(sm->nr_kernel, 0);
	}
	EXPECT_GE(n, NR_SLEEPS);
	EXPECT_GE(sum, NR_SLEEPS * SLEEP_NS);
	EXPECT_LE(sum, self->t1 - self->t0) {
		/* Which block was long? */
		for (i = 0; i < self->r.n; i++) {
			const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];

			if (in_sleeps(self->r.v[i], self->t0, self->t1))
				TH_LOG("block ended at t0 + %llu ns on cpu %u: %llu ns",
				       (unsigned long long)(sm->time - self->t0), sm->cpu,
				       (unsigned long long)sm->period);
		}
	}
	EXPECT_LE(n, self->st.offcpu_samples);
	EXPECT_EQ(0, self->st.offcpu_full);
}

/*
 * Their user stacks were walked at the return to user: the chain is in
 * each sample of a nanosleep (its user IP the system call's return).  A
 * block elsewhere in the window (seen once on the debug kernel, a 5-frame
 * stack without the chain: a page fault that slept?) is said, not failed.
 */
TEST_F(offcpu, each_sample_gets_the_user_stack_it_blocked_in)
{
	const struct dunwind_rec_user_stack *us;
	__u64 sys_ip = 0;
	size_t i, n = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];

		us = NULL;
		if (!in_sleeps(self->r.v[i], self->t0, self->t1))
			continue;
		ASSERT_NE(0, sm->cookie) TH_LOG("flags %#x", sm->flags);
		ASSERT_EQ(1, dw_records_stacks_for(&self->r, sm->cookie, &us));
		if (in_chain(us)) {
			sys_ip = sm->user_ip;
			n++;
		}
	}
	EXPECT_GE(n, NR_SLEEPS);
	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];

		us = NULL;
		if (!in_sleeps(self->r.v[i], self->t0, self->t1) ||
		    dw_records_stacks_for(&self->r, sm->cookie, &us) != 1 || in_chain(us))
			continue;
		TH_LOG("a block without the chain: user IP %#llx, %u frames, %llu ns, kernel IP "
		       "%#llx", (unsigned long long)sm->user_ip, us->nr,
		       (unsigned long long)sm->period,
		       sm->nr_kernel ? (unsigned long long)sm->ips[0] : 0ULL);
		EXPECT_NE(sys_ip, sm->user_ip) TH_LOG("a nanosleep's stack without its chain");
	}
}

/* Blocks shorter than the threshold give no sample, only a count. */
TEST(offcpu_threshold_skips_short_blocks)
{
	struct dw_session s;
	struct dw_records r = { 0 };
	struct dunwind_stats st = { .size = sizeof(st) };
	size_t i, n = 0;
	int ret;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	ret = offcpu_open(&s, 60ULL * 1000000000ULL);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ASSERT_EQ(0, dw_session_start(&s));
	ASSERT_EQ(0, offcpu_caller(NR_SLEEPS, SLEEP_NS / 10));
	ASSERT_EQ(0, dw_session_stop(&s));
	ASSERT_LE(0, dw_records_drain(&s, &r));
	ASSERT_EQ(0, ioctl(s.fd, DUNWIND_IOC_STATS, &st));
	for (i = 0; i < r.n; i++)
		n += is_offcpu(r.v[i]);
	EXPECT_EQ(0, n);
	EXPECT_EQ(0, st.offcpu_samples);
	EXPECT_GE(st.offcpu_short, NR_SLEEPS);
	dw_session_close(&s);
	dw_records_free(&r);
}

/*
 * A process blocked in read(2) when the session stops: its sample comes at
 * STOP, marked open, with the time so far; STOP answers its cookie like
 * every other still owed (stop reason SESSION): nothing is left pending.
 */
TEST(offcpu_still_blocked_at_stop_is_sampled_open)
{
	struct dunwind_config cfg;
	struct dw_session s;
	struct dw_records r = { 0 };
	const struct dunwind_rec_sample *open = NULL;
	const struct dunwind_rec_user_stack *us = NULL;
	int to_child[2], child, status;
	size_t i, nopen = 0;
	char c = 0;
	int ret;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	ASSERT_EQ(0, pipe(to_child));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		/* Block, take one byte, block again until the second. */
		close(to_child[1]);
		if (read(to_child[0], &c, 1) != 1 || read(to_child[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(to_child[0]);
	dw_records_config(&cfg, child, 0, 10);
	cfg.flags |= DUNWIND_CFG_OFF_CPU;
	ret = dw_session_open(&s, NULL, &cfg);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ASSERT_EQ(0, dw_session_start(&s));
	/* Blocked at START counts from the next block: wake it once. */
	ASSERT_EQ(1, write(to_child[1], &c, 1));
	usleep(200000);
	ASSERT_EQ(0, dw_session_stop(&s));
	ASSERT_EQ(1, write(to_child[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, dw_records_collect(&s, &r, 300));
	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)r.v[i];

		if (is_offcpu(r.v[i]) && (sm->flags & DUNWIND_SAMPLE_OFF_CPU_OPEN)) {
			open = sm;
			nopen++;
		}
	}
	ASSERT_EQ(1, nopen);
	EXPECT_EQ((__u32)child, open->tid);
	/* It blocked again at once, and the sleep above lasted this long at least. */
	EXPECT_GE(open->period, 100000000ULL);
	EXPECT_GT(open->nr_kernel, 0);
	ASSERT_NE(0, open->cookie) TH_LOG("flags %#x", open->flags);
	ASSERT_EQ(1, dw_records_stacks_for(&r, open->cookie, &us));
	EXPECT_TRUE(us->stop == DUNWIND_STOP_SESSION || us->nr > 0)
		TH_LOG("stop %u, %u frames", us->stop, us->nr);
	dw_session_close(&s);
	dw_records_free(&r);
}

/*
 * With DUNWIND_CFG_CHILDREN, the blocks of a process the target creates
 * after START are sampled too: the child (named by its FORK record)
 * sleeps CHILD_SLEEPS times, each block at least one off-CPU sample.
 */
#define CHILD_SLEEPS	5

TEST(offcpu_follows_child_processes)
{
	struct dunwind_config cfg;
	struct dw_session s;
	struct dw_records r = { 0 };
	int go[2], parent, status, ret;
	__u32 child = 0;
	size_t i, n = 0;
	char c = 0;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	ASSERT_EQ(0, pipe(go));
	parent = fork();
	ASSERT_LE(0, parent);
	if (!parent) {
		int k, pid;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		pid = fork();
		if (pid < 0)
			_exit(1);
		if (!pid) {
			for (k = 0; k < CHILD_SLEEPS; k++)
				usleep(20000);
			_exit(0);
		}
		_exit(waitpid(pid, &k, 0) == pid && WIFEXITED(k) && !WEXITSTATUS(k) ? 0 : 1);
	}
	close(go[0]);
	dw_records_config(&cfg, parent, 0, 10);
	cfg.flags |= DUNWIND_CFG_OFF_CPU | DUNWIND_CFG_CHILDREN;
	ret = dw_session_open(&s, NULL, &cfg);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ASSERT_EQ(0, dw_session_start(&s));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(parent, waitpid(parent, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, dw_session_stop(&s));
	ASSERT_EQ(0, dw_records_collect(&s, &r, 300));
	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_task *t = (const void *)r.v[i];

		if (r.v[i]->type == DUNWIND_REC_FORK && t->ppid == (__u32)parent &&
		    t->pid != (__u32)parent)
			child = t->pid;
	}
	ASSERT_NE(0, child) TH_LOG("no FORK record of the child");
	for (i = 0; i < r.n; i++)
		n += is_offcpu(r.v[i]) &&
		     ((const struct dunwind_rec_sample *)r.v[i])->pid == child;
	EXPECT_GE(n, CHILD_SLEEPS);
	dw_session_close(&s);
	dw_records_free(&r);
	close(go[1]);
}

/* The threshold means nothing without the flag: refused. */
TEST(offcpu_threshold_needs_the_flag)
{
	struct dunwind_config cfg;
	struct dw_session s;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	dw_records_config(&cfg, 0, gettid(), 10);
	cfg.offcpu_thresh_ns = 1000;
	EXPECT_EQ(-EINVAL, dw_session_open(&s, NULL, &cfg));
}

TEST_HARNESS_MAIN
