// SPDX-License-Identifier: GPL-2.0
/*
 * replay_test: a walk from the same registers as the thread's last walk
 * takes that walk's frames only where the words of the stack it read are
 * the same (kmod/replay.c).  This thread blocks NR_BLOCKS times in
 * nanosleep (off-CPU samples, a raw system call in its own code) from
 *
 *	leaf <- mid <- loop <- outer_a or outer_b <- the test
 *
 * whose frames are alike, so every block starts its walk from the same
 * registers.  Blocking from outer_a each time, the walks are replayed;
 * blocking from outer_a and outer_b in turn, only the return address into
 * outer_* differs (the third word the walk reads), and each stack must
 * still name its own caller.  A walk replayed is mostly replayed as the
 * thread blocks, at its switch out, and then names the stack its last
 * walk wrote (DUNWIND_SAMPLE_EARLIER_STACK).  The program has its own .sframe
 * (-Wa,--gsframe) and the walks stop at MAX_FRAMES, before libc, which has
 * no table here.  A nanosleep whose timer fires before the thread
 * switches out (a VM whose vCPU the host held up) does not block and
 * gives no sample: the loop counts the calls that blocked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <link.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "arch.h"
#include "records.h"

#define NR_BLOCKS	40
#define BLOCK_NS	1000000ULL	/* 1 ms */
#define MAX_FRAMES	5		/* leaf, mid, loop, outer_*, the test */
#define OUTER_AT	3		/* the stack entry of the return into outer_* */

static unsigned long loop_ret;		/* where loop returns into its caller */
static unsigned long ret_a, ret_b;	/* ... that is, into outer_a, outer_b */
static int blocked;			/* calls of leaf that blocked */

/* The thread's voluntary context switches so far. */
static long nvcsw(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

/* nanosleep by a raw system call: the user IP at kernel entry is here. */
static long __attribute__((noinline)) leaf(__u64 ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)ns };

	return dw_raw_nanosleep(&ts);
}

static long __attribute__((noinline)) mid(__u64 ns)
{
	long ret = leaf(ns);

	__asm__ volatile("" ::: "memory");	/* not a tail call */
	return ret;
}

static long __attribute__((noinline)) loop(int n, __u64 ns)
{
	long ret = 0;
	int i;

	loop_ret = (unsigned long)__builtin_return_address(0);
	for (i = 0; i < n && !ret; i++) {
		long sw = nvcsw();

		ret = mid(ns);
		blocked += nvcsw() != sw;
	}
	__asm__ volatile("" ::: "memory");
	return ret;
}

/* Two callers alike: the same frame, so loop runs at the same stack depth. */
static long __attribute__((noinline)) outer_a(int n)
{
	long ret = loop(n, BLOCK_NS);

	ret_a = loop_ret;
	__asm__ volatile("" ::: "memory");
	return ret;
}

static long __attribute__((noinline)) outer_b(int n)
{
	long ret = loop(n, BLOCK_NS);

	ret_b = loop_ret;
	__asm__ volatile("" ::: "memory");
	return ret;
}

FIXTURE(replay) {
	struct dw_session s;
	struct dw_records r;
	struct dunwind_stats st;
};

/*
 * Every block gives a sample (its walk replayed at the switch out), or
 * only blocks of THRESH_NS or more (so a walk replayed at the switch out
 * is written at the switch in, after the sample).
 */
FIXTURE_VARIANT(replay) {
	__u64 thresh_ns;
};

#define THRESH_NS	100000ULL	/* 100 us: every 1 ms block passes */

FIXTURE_VARIANT_ADD(replay, every_block) { .thresh_ns = 0 };
FIXTURE_VARIANT_ADD(replay, thresh) { .thresh_ns = THRESH_NS };

FIXTURE_SETUP(replay)
{
	struct dunwind_config cfg;
	int ret;

	memset(&self->r, 0, sizeof(self->r));
	self->s.fd = -1;
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	dw_records_config(&cfg, 0, gettid(), 10);
	cfg.flags |= DUNWIND_CFG_OFF_CPU;
	cfg.offcpu_thresh_ns = variant->thresh_ns;
	cfg.max_user_frames = MAX_FRAMES;
	ret = dw_session_open(&self->s, NULL, &cfg);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ASSERT_EQ(0, dw_session_start(&self->s));
}

FIXTURE_TEARDOWN(replay)
{
	if (self->s.fd >= 0)
		dw_session_close(&self->s);
	dw_records_free(&self->r);
}

/* Stop, and take the records and the counters. */
static void replay_collect(struct __test_metadata *_metadata, FIXTURE_DATA(replay) *self)
{
	ASSERT_EQ(0, dw_session_stop(&self->s));
	ASSERT_LE(0, dw_records_drain(&self->s, &self->r));
	self->st.size = sizeof(self->st);
	ASSERT_EQ(0, ioctl(self->s.fd, DUNWIND_IOC_STATS, &self->st));
}

/*
 * The stacks of the blocks in the loop, by the caller they name at
 * OUTER_AT: *@a into outer_a, *@b into outer_b, *@other the blocks in
 * the loop (leaf's system call) that name neither.  Return: how many of
 * them were found by SFrame.
 */
static size_t replay_count(FIXTURE_DATA(replay) *self, size_t *a, size_t *b, size_t *other)
{
	size_t i, sframe = 0;
	__u64 sys_ip = 0;

	*a = *b = *other = 0;
	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];
		const struct dunwind_rec_user_stack *us = NULL;

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE ||
		    !(sm->flags & DUNWIND_SAMPLE_OFF_CPU) || !sm->cookie ||
		    dw_records_stacks_for(&self->r, sm->cookie, &us) != 1 || us->nr < 2)
			continue;
		/* leaf's system call: the blocks of the loop. */
		if (!sys_ip && us->nr == MAX_FRAMES && us->ips[OUTER_AT] == ret_a)
			sys_ip = sm->user_ip;
		if (sm->user_ip != us->ips[0])
			continue;
		if (us->nr == MAX_FRAMES && us->ips[OUTER_AT] == ret_a)
			(*a)++;
		else if (us->nr == MAX_FRAMES && us->ips[OUTER_AT] == ret_b)
			(*b)++;
		else if (sys_ip && sm->user_ip == sys_ip)
			(*other)++;
		sframe += us->nr_sframe > 0;
	}
	return sframe;
}

/* Block NR_BLOCKS times from outer_a, then stop and take the records. */
static void replay_from_a(struct __test_metadata *_metadata, FIXTURE_DATA(replay) *self)
{
	ASSERT_EQ(0, outer_a(NR_BLOCKS));
	replay_collect(_metadata, self);
}

/* Did fewer than half of the calls of leaf block?  Then the test skips. */
static bool replay_too_few_blocked(void)
{
	return blocked < NR_BLOCKS / 2;
}

#define SKIP_SLOW_VM()								\
	SKIP(return, "%d of %d nanosleeps blocked: their timers fired before the "	\
	     "thread switched out (a VM held up by its host)", blocked, NR_BLOCKS)

/* Does this kernel give the module an address space's change sequence? */
static int have_mm_seq(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	return !uname(&u) && sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
	       (major > 6 || (major == 6 && minor >= 12));
}

/*
 * Blocking again and again from the same stack: after the first, the
 * walks are replayed, and every stack still names outer_a.
 */
TEST_F(replay, same_stack_again_is_replayed)
{
	size_t a, b, other;

	replay_from_a(_metadata, self);
	if (replay_too_few_blocked())
		SKIP_SLOW_VM();
	if (!replay_count(self, &a, &b, &other))
		SKIP(return, "no stack by SFrame: is this test built with -Wa,--gsframe?");
	EXPECT_GE(a, (size_t)blocked);
	EXPECT_EQ(0, b);
	EXPECT_EQ(0, other);
	EXPECT_GE(self->st.walks_replayed + self->st.samples_earlier, (__u64)blocked / 2)
		TH_LOG("%llu of %llu walks replayed, %llu blocks named an earlier stack",
		       (unsigned long long)self->st.walks_replayed,
		       (unsigned long long)self->st.walks,
		       (unsigned long long)self->st.samples_earlier);
}

/*
 * Blocking again from the same stack, the walk is replayed as the thread
 * blocks (the stack cannot change before it returns): its USER_STACK is
 * written at the block's start, or with a threshold at its end with the
 * sample's own time, where a walk at the return to user space ends after
 * its sample.
 */
TEST_F(replay, same_stack_again_is_replayed_as_it_blocks)
{
	size_t i, at_block = 0, blocks = 0;

	replay_from_a(_metadata, self);
	if (replay_too_few_blocked())
		SKIP_SLOW_VM();
	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];
		const struct dunwind_rec_user_stack *us = NULL;

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE ||
		    !(sm->flags & DUNWIND_SAMPLE_OFF_CPU) || !sm->cookie ||
		    dw_records_stacks_for(&self->r, sm->cookie, &us) != 1 ||
		    us->nr != MAX_FRAMES || us->ips[OUTER_AT] != ret_a)
			continue;
		blocks++;
		if (sm->flags & DUNWIND_SAMPLE_EARLIER_STACK)
			at_block += us->time <= sm->time - sm->period;
		else if (variant->thresh_ns)
			at_block += us->time == sm->time;
		else
			at_block += us->time <= sm->time - sm->period;
	}
	EXPECT_GE(blocks, (size_t)blocked)
		TH_LOG("%d of %d calls blocked; off-CPU samples %llu (%llu short, %llu not "
		       "measured), %llu records lost", blocked, NR_BLOCKS,
		       (unsigned long long)self->st.offcpu_samples,
		       (unsigned long long)self->st.offcpu_short,
		       (unsigned long long)self->st.offcpu_full, (unsigned long long)self->r.lost);
	if (!at_block && !have_mm_seq())
		SKIP(return, "kernel before 6.12: no mm_lock_seq, so no walk is replayed at a switch out");
	EXPECT_GE(at_block, (size_t)blocked / 2)
		TH_LOG("%zu of %zu blocks' walks replayed as they blocked", at_block, blocks);
}

/*
 * Blocking again from the same stack, a block whose replayed frames are
 * those of a stack the thread's walk wrote before names that stack's
 * cookie and writes none: each such sample's one stack is of this thread,
 * written before the block began, and fewer stacks than samples come.
 */
TEST_F(replay, same_stack_again_names_the_earlier_stack)
{
	size_t i, flagged = 0, right = 0, samples = 0, stacks = 0;

	replay_from_a(_metadata, self);
	if (replay_too_few_blocked())
		SKIP_SLOW_VM();
	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];
		const struct dunwind_rec_user_stack *us = NULL;

		stacks += self->r.v[i]->type == DUNWIND_REC_USER_STACK;
		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE ||
		    !(sm->flags & DUNWIND_SAMPLE_OFF_CPU))
			continue;
		samples++;
		if (!(sm->flags & DUNWIND_SAMPLE_EARLIER_STACK))
			continue;
		flagged++;
		if (dw_records_stacks_for(&self->r, sm->cookie, &us) == 1 &&
		    us->tid == sm->tid && us->time <= sm->time - sm->period &&
		    us->nr == MAX_FRAMES && us->ips[OUTER_AT] == ret_a)
			right++;
	}
	EXPECT_EQ(flagged, self->st.samples_earlier);
	EXPECT_EQ(right, flagged);
	if (!flagged && !have_mm_seq())
		SKIP(return, "kernel before 6.12: no mm_lock_seq, so no sample names an earlier stack");
	EXPECT_GE(flagged, (size_t)blocked / 2)
		TH_LOG("%zu of %zu off-CPU samples named an earlier stack (%zu stacks)",
		       flagged, samples, stacks);
	EXPECT_LT(stacks, samples);
}

/*
 * Blocking from outer_a and outer_b in turn: the same registers each
 * time, one word of the stack different; no stack names the other's
 * caller.
 */
TEST_F(replay, a_changed_word_is_not_replayed)
{
	size_t a, b, other;
	int i, was, blocked_a = 0, blocked_b = 0;

	for (i = 0; i < NR_BLOCKS; i++) {
		was = blocked;
		if (i & 1) {
			ASSERT_EQ(0, outer_b(1));
			blocked_b += blocked - was;
		} else {
			ASSERT_EQ(0, outer_a(1));
			blocked_a += blocked - was;
		}
	}
	replay_collect(_metadata, self);
	if (replay_too_few_blocked())
		SKIP_SLOW_VM();
	if (!replay_count(self, &a, &b, &other))
		SKIP(return, "no stack by SFrame: is this test built with -Wa,--gsframe?");
	EXPECT_GE(a, (size_t)blocked_a);
	EXPECT_GE(b, (size_t)blocked_b);
	EXPECT_EQ(0, other);
	/* Each block's stack is its own: as many of each as there were blocks. */
	EXPECT_LE(a, NR_BLOCKS / 2 + 4);
	EXPECT_LE(b, NR_BLOCKS / 2 + 4);
}

/* Open a session sampling this thread at 1 kHz, walks of @max_frames, and start it. */
static void replay_sampled(struct __test_metadata *_metadata, struct dw_session *s,
			   __u32 max_frames)
{
	struct dunwind_config cfg;
	int ret;

	dw_records_config(&cfg, 0, gettid(), 1000);
	cfg.max_user_frames = max_frames;
	ret = dw_session_open(s, NULL, &cfg);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ASSERT_EQ(0, dw_session_start(s));
}

/* read(2) of /dev/zero by a raw system call: the IP at kernel entry is here. */
static long __attribute__((noinline)) read_leaf(int fd, void *buf, unsigned long len)
{
	return dw_raw_read(fd, buf, len);
}

static long __attribute__((noinline)) read_mid(int fd, void *buf, unsigned long len)
{
	long ret = read_leaf(fd, buf, len);

	__asm__ volatile("" ::: "memory");	/* not a tail call */
	return ret;
}

/* Read until @ns of this thread's CPU time have passed. */
static long __attribute__((noinline)) read_loop(int fd, void *buf, unsigned long len, __u64 ns)
{
	struct timespec t0, t;
	long ret = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		ret = read_mid(fd, buf, len);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while (ret > 0 && (__u64)(t.tv_sec - t0.tv_sec) * 1000000000ULL + t.tv_nsec -
		 t0.tv_nsec < ns);
	__asm__ volatile("" ::: "memory");
	return ret;
}

#define READ_LEN	(256 * 1024)
#define READ_NS		1000000000ULL	/* 1 s of CPU time */

/*
 * Sampled again and again in the same system call from the same stack:
 * the samples in the kernel name the stack a walk from there wrote
 * (DUNWIND_SAMPLE_EARLIER_STACK), its first IP the sample's user IP, one
 * USER_STACK of the same thread written before the sample; fewer stacks
 * than samples come.
 */
TEST(a_system_call_sampled_again_names_the_earlier_stack)
{
	size_t i, in_kernel = 0, flagged = 0, right = 0, stacks = 0, sframe = 0;
	struct dunwind_stats st = { .size = sizeof(st) };
	struct dw_records r = {};
	struct dw_session s = { .fd = -1 };
	void *buf = malloc(READ_LEN);
	int fd = open("/dev/zero", O_RDONLY);

	ASSERT_NE(NULL, buf);
	ASSERT_LE(0, fd);
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	replay_sampled(_metadata, &s, MAX_FRAMES);
	ASSERT_LT(0, read_loop(fd, buf, READ_LEN, READ_NS));
	ASSERT_EQ(0, dw_session_stop(&s));
	ASSERT_LE(0, dw_records_drain(&s, &r));
	ASSERT_EQ(0, ioctl(s.fd, DUNWIND_IOC_STATS, &st));
	dw_session_close(&s);
	close(fd);
	free(buf);
	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)r.v[i];
		const struct dunwind_rec_user_stack *us = NULL;

		if (r.v[i]->type == DUNWIND_REC_USER_STACK) {
			stacks++;
			sframe += ((const struct dunwind_rec_user_stack *)sm)->nr_sframe > 0;
		}
		if (r.v[i]->type != DUNWIND_REC_SAMPLE || (sm->flags & DUNWIND_SAMPLE_USER_MODE))
			continue;
		in_kernel++;
		if (!(sm->flags & DUNWIND_SAMPLE_EARLIER_STACK))
			continue;
		flagged++;
		if (dw_records_stacks_for(&r, sm->cookie, &us) == 1 && us->tid == sm->tid &&
		    us->time < sm->time && us->nr == MAX_FRAMES && us->ips[0] == sm->user_ip)
			right++;
	}
	dw_records_free(&r);
	TH_LOG("%zu samples in the kernel, %zu named an earlier stack, %zu stacks", in_kernel,
	       flagged, stacks);
	EXPECT_EQ(flagged, st.samples_earlier);
	EXPECT_EQ(right, flagged);
	if (!sframe)
		SKIP(return, "no stack by SFrame: is this test built with -Wa,--gsframe?");
	if (in_kernel < 20)
		SKIP(return, "%zu samples in read(2): too few to judge", in_kernel);
	if (!flagged && !have_mm_seq())
		SKIP(return, "kernel before 6.12: no mm_lock_seq, so no sample names an earlier stack");
	EXPECT_GE(flagged, in_kernel / 2);
	EXPECT_LT(stacks, in_kernel);
}

#define SPIN_ITERS	(1U << 20)
#define SPIN_NS		1000000000ULL	/* 1 s of CPU time */
#define SPIN_FRAMES	3		/* spin, spin_loop, the test */

static unsigned long spin_ret;		/* where spin returns into spin_loop */

/*
 * Arithmetic in one rule of .sframe past its prologue: the IP moves, the
 * stack not.  Two branches (kept so by the empty asm), so that the IP
 * moves even where interrupts come only between basic blocks (QEMU TCG).
 */
static __u64 __attribute__((noinline)) spin(__u64 n)
{
	__u64 x = n;

	spin_ret = (unsigned long)__builtin_return_address(0);
	while (n--) {
		if (n & 1) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			__asm__ volatile("" : "+r"(x));
		} else {
			x ^= x >> 7;
			__asm__ volatile("" : "+r"(x));
		}
	}
	return x;
}

/* This thread's CPU time, in ns. */
static __u64 thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (__u64)t.tv_sec * 1000000000ULL + (__u64)t.tv_nsec;
}

/* Spin until @ns of this thread's CPU time have passed. */
static __u64 __attribute__((noinline)) spin_loop(__u64 ns)
{
	__u64 x = 0, t0 = thread_cpu_ns();

	do
		x += spin(SPIN_ITERS);
	while (thread_cpu_ns() - t0 < ns);
	__asm__ volatile("" ::: "memory");
	return x;
}

struct spin_count {
	size_t in_spin;		/* user-mode samples whose stack returns into spin_loop */
	size_t own_ip;		/* ... whose stack starts at the sample's own IP */
	size_t same_outer;	/* ... with the first one's callers */
	size_t moved;		/* ... with another first IP than the one before */
	__u64 outer, last_ip;
};

static void spin_judge(const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u,
		       void *arg)
{
	struct spin_count *c = arg;

	if (!u || !(s->flags & DUNWIND_SAMPLE_USER_MODE) || u->nr != SPIN_FRAMES ||
	    u->ips[1] != spin_ret)
		return;
	if (!c->in_spin++)
		c->outer = u->ips[2];
	c->own_ip += u->ips[0] == s->user_ip;
	c->same_outer += u->ips[2] == c->outer;
	c->moved += c->in_spin > 1 && u->ips[0] != c->last_ip;
	c->last_ip = u->ips[0];
}

/*
 * Sample this thread in user mode while @work runs for SPIN_NS of its CPU
 * time, walks of @max_frames, then hand each sample and its user stack to
 * @judge and the session's counters to *@st.
 */
static void replay_user_run(struct __test_metadata *_metadata, __u32 max_frames,
			    __u64 (*work)(__u64 ns), dw_stitched_fn judge, void *arg,
			    struct dunwind_stats *st)
{
	struct dw_records r = {};
	struct dw_session s = { .fd = -1 };

	replay_sampled(_metadata, &s, max_frames);
	work(SPIN_NS);
	ASSERT_EQ(0, dw_session_stop(&s));
	ASSERT_LE(0, dw_records_drain(&s, &r));
	ASSERT_EQ(0, ioctl(s.fd, DUNWIND_IOC_STATS, st));
	dw_session_close(&s);
	ASSERT_EQ(0, dw_records_stitch(&r, judge, arg, NULL));
	dw_records_free(&r);
}

/*
 * Sampled again and again in user mode, in the same frame past its
 * prologue, at an IP that moves: the walks are replayed (same SP, FP and
 * words, any IP of the first frame's rule), and each stack starts at its
 * own sample's IP, with the same callers.
 */
TEST(an_ip_anywhere_in_the_same_frame_is_replayed)
{
	struct dunwind_stats st = { .size = sizeof(st) };
	struct spin_count c = {};

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	replay_user_run(_metadata, SPIN_FRAMES, spin_loop, spin_judge, &c, &st);
	TH_LOG("%zu samples in spin, %zu at another IP than the last; %llu of %llu walks replayed",
	       c.in_spin, c.moved, (unsigned long long)st.walks_replayed,
	       (unsigned long long)st.walks);
	EXPECT_EQ(c.in_spin, c.own_ip);
	EXPECT_EQ(c.in_spin, c.same_outer);
	if (!c.in_spin)
		SKIP(return, "no stack by SFrame through spin: is this test built with -Wa,--gsframe?");
	if (c.in_spin < 20)
		SKIP(return, "%zu samples in spin: too few to judge", c.in_spin);
	EXPECT_GT(c.moved, c.in_spin / 4);
	EXPECT_GE(st.walks_replayed, (__u64)c.in_spin / 2);
}

/*
 * Two leaves of unlike frames (no frame pointer: one with no frame, one
 * with 144 bytes of it on x86_64), in a section of their own so that a
 * sample's IP says it is in one, called in turn for a few thousand
 * iterations each, far less than a sample period: many walks from user mode start in the other leaf than the last
 * walk (no replay), and each must take its own leaf's rule, which the
 * slot keeps by range for its later first frames (struct
 * dunwind_sframe_memo: @leaves).  Another leaf's rule would put the CFA
 * 144 bytes off (x86_64: the return address read there is no call site;
 * arm64: the leaves' return address is in x30, but two_leaves' is read
 * from its frame, found from that CFA).
 */
#define LEAF_ITERS	(1U << 12)
#define LEAF_FRAMES	3		/* a leaf, two_leaves, the test */

static unsigned long leaf_ret[2];	/* where each leaf returns into two_leaves */
static unsigned long two_ret;		/* where two_leaves returns into the test */
extern const char __start_dwleaves[], __stop_dwleaves[];

#define DW_LEAF __attribute__((noinline, section("dwleaves"), optimize("omit-frame-pointer")))

static DW_LEAF __u64 leaf_small(__u64 n)
{
	__u64 x = n;

	leaf_ret[0] = (unsigned long)__builtin_return_address(0);
	while (n--) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static DW_LEAF __u64 leaf_big(__u64 n)
{
	volatile unsigned char pad[256];
	__u64 x = n;

	leaf_ret[1] = (unsigned long)__builtin_return_address(0);
	pad[0] = (unsigned char)n;
	while (n--) {
		x = x * 6364136223846793005ULL + pad[n & 255];
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

/* Each leaf in turn until @ns of this thread's CPU time have passed. */
static __u64 __attribute__((noinline)) two_leaves(__u64 ns)
{
	__u64 x = 0, t0 = thread_cpu_ns();

	two_ret = (unsigned long)__builtin_return_address(0);
	do {
		x += leaf_small(LEAF_ITERS);
		x += leaf_big(LEAF_ITERS);
	} while (thread_cpu_ns() - t0 < ns);
	__asm__ volatile("" ::: "memory");
	return x;
}

struct leaf_count {
	size_t in_leaf;		/* user-mode samples at an IP of either leaf */
	size_t right;		/* ... whose walk found two_leaves and the test after it */
	size_t other_leaf;	/* ... whose last one was in the other leaf */
	__u64 last_ret;
};

static void leaf_judge(const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u,
		       void *arg)
{
	struct leaf_count *c = arg;
	const char *ip = (const char *)(unsigned long)s->user_ip;

	if (!u || !(s->flags & DUNWIND_SAMPLE_USER_MODE) || ip < __start_dwleaves ||
	    ip >= __stop_dwleaves)
		return;
	c->in_leaf++;
	if (u->nr != LEAF_FRAMES || u->ips[0] != s->user_ip ||
	    (u->ips[1] != leaf_ret[0] && u->ips[1] != leaf_ret[1]) || u->ips[2] != two_ret)
		return;
	c->right++;
	c->other_leaf += c->last_ret && u->ips[1] != c->last_ret;
	c->last_ret = u->ips[1];
}

/*
 * Sampled in user mode in two leaves of unlike frames by turns: every
 * stack that starts in a leaf goes on to its caller, the first frame
 * recovered by its own leaf's rule whichever the slot's last walk used.
 */
TEST(first_frames_in_two_leaves_take_each_ones_rule)
{
	struct dunwind_stats st = { .size = sizeof(st) };
	struct leaf_count c = {};

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
#ifndef DW_GSFRAME
	SKIP(return, "built without -Wa,--gsframe: no table covers the leaves");
#endif
	replay_user_run(_metadata, LEAF_FRAMES, two_leaves, leaf_judge, &c, &st);
	TH_LOG("%zu samples in the leaves, %zu walked to their caller, %zu after the other leaf; "
	       "%llu of %llu walks replayed", c.in_leaf, c.right, c.other_leaf,
	       (unsigned long long)st.walks_replayed, (unsigned long long)st.walks);
	if (c.in_leaf < 20)
		SKIP(return, "%zu samples in the leaves: too few to judge", c.in_leaf);
	EXPECT_EQ(c.in_leaf, c.right);
	EXPECT_GT(c.other_leaf, c.right / 8);
}

/*
 * More functions than the slot keeps first frames' rules for, each with
 * a frame of its own size (64 to 1280 bytes, no frame pointer), in a
 * section of their own, run by turns: each first calls tick() from its
 * body for a while, then spins in that body.  The walks of tick's
 * samples step through the return address into the body, whose rule (the
 * body's row: the call site's and the loop's) the slot's memo keeps; the
 * first samples in the body after the other functions' turns find that
 * rule by range among the kept ones (struct dunwind_sframe_memo: @rules),
 * the leaves having forgotten it.  Another function's rule would put the
 * CFA off by a multiple of 64 bytes.
 */
#define BODY_FNS	20		/* more than DUNWIND_MEMO_LEAVES */
#define BODY_FRAMES	3		/* a body, body_turns, the test */
#define BODY_TICK_NS	2000000ULL	/* CPU time in tick() calls, each turn */
#define BODY_SPIN_NS	4000000ULL	/* ... then in the body */

static unsigned long body_ret;		/* where the bodies return into body_turns */
static unsigned long turns_ret;		/* where body_turns returns */
extern const char __start_dwbody[], __stop_dwbody[];

static __u64 __attribute__((noinline)) tick(__u64 x)
{
	unsigned int i;

	for (i = 0; i < 256; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

#define DW_BODY_FN(k)									\
static __attribute__((noinline, section("dwbody"), optimize("omit-frame-pointer")))	\
__u64 body_##k(__u64 x)									\
{											\
	volatile unsigned char pad[64 * (k + 1)];					\
	__u64 t0 = thread_cpu_ns();							\
	unsigned int i;									\
											\
	body_ret = (unsigned long)__builtin_return_address(0);				\
	pad[0] = (unsigned char)x;							\
	do										\
		x = tick(x);								\
	while (thread_cpu_ns() - t0 < BODY_TICK_NS);					\
	t0 = thread_cpu_ns();								\
	do {										\
		for (i = 0; i < 4096; i++) {						\
			x = x * 6364136223846793005ULL + pad[i % sizeof(pad)];		\
			__asm__ volatile("" : "+r"(x));					\
		}									\
	} while (thread_cpu_ns() - t0 < BODY_SPIN_NS);					\
	return x;									\
}

DW_BODY_FN(0) DW_BODY_FN(1) DW_BODY_FN(2) DW_BODY_FN(3) DW_BODY_FN(4)
DW_BODY_FN(5) DW_BODY_FN(6) DW_BODY_FN(7) DW_BODY_FN(8) DW_BODY_FN(9)
DW_BODY_FN(10) DW_BODY_FN(11) DW_BODY_FN(12) DW_BODY_FN(13) DW_BODY_FN(14)
DW_BODY_FN(15) DW_BODY_FN(16) DW_BODY_FN(17) DW_BODY_FN(18) DW_BODY_FN(19)

static __u64 (*const bodies[BODY_FNS])(__u64) = {
	body_0, body_1, body_2, body_3, body_4, body_5, body_6, body_7, body_8, body_9,
	body_10, body_11, body_12, body_13, body_14, body_15, body_16, body_17, body_18, body_19,
};

/* Each body's turn in order until @ns of this thread's CPU time have passed. */
static __u64 __attribute__((noinline)) body_turns(__u64 ns)
{
	__u64 x = 0, t0 = thread_cpu_ns();
	unsigned int k;

	turns_ret = (unsigned long)__builtin_return_address(0);
	do {
		for (k = 0; k < BODY_FNS; k++)
			x += bodies[k](x);
	} while (thread_cpu_ns() - t0 < ns);
	__asm__ volatile("" ::: "memory");
	return x;
}

struct body_count {
	size_t in_body;		/* user-mode samples at an IP of a body */
	size_t right;		/* ... whose walk found body_turns and the test after it */
	__u32 seen;		/* the bodies walked right from, a bit each */
};

static void body_judge(const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u,
		       void *arg)
{
	struct body_count *c = arg;
	const char *ip = (const char *)(unsigned long)s->user_ip;
	unsigned int k, best = 0;
	unsigned long at;

	if (!u || !(s->flags & DUNWIND_SAMPLE_USER_MODE) || ip < __start_dwbody ||
	    ip >= __stop_dwbody)
		return;
	c->in_body++;
	if (u->nr != BODY_FRAMES || u->ips[0] != s->user_ip || u->ips[1] != body_ret ||
	    u->ips[2] != turns_ret)
		return;
	c->right++;
	/* The body it was in: the last that starts at or below its IP. */
	for (k = 0, at = 0; k < BODY_FNS; k++)
		if ((unsigned long)bodies[k] <= s->user_ip && (unsigned long)bodies[k] >= at) {
			at = (unsigned long)bodies[k];
			best = k;
		}
	c->seen |= 1U << best;
}

/*
 * Sampled in user mode in the bodies of more functions than the slot
 * keeps first frames' rules for, each after calls out of that body:
 * every stack that starts in a body goes on to its caller, the first
 * frame recovered by its own function's rule.
 */
TEST(a_first_frame_in_a_body_it_called_out_of_takes_that_bodys_rule)
{
	struct dunwind_stats st = { .size = sizeof(st) };
	struct body_count c = {};

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
#ifndef DW_GSFRAME
	SKIP(return, "built without -Wa,--gsframe: no table covers the bodies");
#endif
	replay_user_run(_metadata, BODY_FRAMES, body_turns, body_judge, &c, &st);
	TH_LOG("%zu samples in the bodies, %zu walked to their caller, from %d of %d bodies",
	       c.in_body, c.right, __builtin_popcount(c.seen), BODY_FNS);
	if (c.in_body < 40)
		SKIP(return, "%zu samples in the bodies: too few to judge", c.in_body);
	EXPECT_EQ(c.in_body, c.right);
	EXPECT_GT(__builtin_popcount(c.seen), 16);
}

/*
 * Two leaves of unlike frames (no frame pointer: none and 912 bytes of
 * it on x86_64, the red zone holding the rest), a page apart in this
 * program's file, each at the start of a page (section "dwswap").  The
 * test maps the whole file a second time,
 * read-only and executable, at one address and then a page lower, by
 * turns: the same address then holds the one leaf and then the other, in
 * another mapping of the same file.  Each leaf is called there, at that
 * one address, from one call site.  A walk whose slot kept the last
 * turn's mapping and rules (struct dunwind_sframe_memo), not seeing that
 * the mapping was replaced, would take the other leaf's rule and put the
 * CFA 912 bytes off.  On 6.12 and 7.2 the mm's sequence tells that the
 * mappings changed; on 6.1 the slot's mappings are checked one by one
 * (kmod/unwind.c: dunwind_unwind_memo_maps_hold()).
 */
#define SWAP_PAGE	4096UL
#define SWAP_TURN_NS	10000000ULL	/* 10 ms of CPU time a turn */
#define SWAP_TURNS	256		/* at most; SPIN_NS is 100 turns */
#define SWAP_FRAMES	3		/* a leaf, swap_turns, the test */

#define DW_SWAP __attribute__((noinline, section("dwswap"), aligned(4096), \
			       optimize("omit-frame-pointer")))

/* No global is touched: they run from another mapping of the file. */
static DW_SWAP __u64 swap_small(__u64 n, unsigned long *ret)
{
	__u64 x = n;

	*ret = (unsigned long)__builtin_return_address(0);
	while (n--) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static DW_SWAP __u64 swap_big(__u64 n, unsigned long *ret)
{
	volatile unsigned char pad[1024];
	__u64 x = n;

	*ret = (unsigned long)__builtin_return_address(0);
	pad[0] = (unsigned char)n;
	while (n--) {
		x = x * 6364136223846793005ULL + pad[n & 1023];
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

struct swap_run {
	char *area;		/* reserved: the file's length and a page */
	size_t len;		/* the file's length, in pages */
	int fd;			/* this program's file */
	unsigned long lo_off;	/* the lower leaf's offset in the file */
	bool lo_small;		/* ... and whether it is swap_small */
	unsigned long leaf_ret;	/* where the leaves return into swap_turns */
	unsigned long turns_ret;	/* where swap_turns returns */
	__u64 at[SWAP_TURNS];	/* each turn's start, CLOCK_MONOTONIC ns */
	unsigned int turns;
	int err;		/* swap_map()'s, if a turn could not map the file */
};

static struct swap_run swap;

/*
 * The file offset of this program's code at @addr (0 if its segment's
 * offset is not its address), and whether its .sframe is at its address.
 */
struct swap_find {
	unsigned long addr, off;
	bool sframe_linear;	/* PT_GNU_SFRAME lies at its own address in the file */
};

static int swap_find_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct swap_find *f = arg;
	unsigned long v = f->addr - info->dlpi_addr;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == 0x6474e554 /* PT_GNU_SFRAME */)
			f->sframe_linear = ph->p_offset == ph->p_vaddr;
		if (ph->p_type == PT_LOAD && v >= ph->p_vaddr && v < ph->p_vaddr + ph->p_memsz &&
		    ph->p_offset == ph->p_vaddr)
			f->off = v;
	}
	return 1;	/* the program is first */
}

/* The file mapped again at the area's page @k (0 or 1), the rest of the area inaccessible. */
static int swap_map(unsigned int k)
{
	if (mmap(swap.area, swap.len + SWAP_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0) == MAP_FAILED ||
	    mmap(swap.area + k * SWAP_PAGE, swap.len, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED,
		 swap.fd, 0) == MAP_FAILED)
		return -errno;
	return 0;
}

/* Turns of the two leaves at one address until @ns of this thread's CPU time have passed. */
static __u64 __attribute__((noinline)) swap_turns(__u64 ns)
{
	/* Page 1: the lower leaf at the area's page 1 + its offset; page 0: the other. */
	__u64 (*leaf)(__u64, unsigned long *) =
		(void *)(swap.area + SWAP_PAGE + swap.lo_off);
	__u64 x = 0, t0 = thread_cpu_ns(), t;
	struct timespec now;

	swap.turns_ret = (unsigned long)__builtin_return_address(0);
	do {
		swap.err = swap_map(swap.turns % 2 ? 0 : 1);
		if (swap.err)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &now);
		swap.at[swap.turns++] = now.tv_sec * 1000000000ULL + now.tv_nsec;
		t = thread_cpu_ns();
		do
			x += leaf(LEAF_ITERS, &swap.leaf_ret);
		while (thread_cpu_ns() - t < SWAP_TURN_NS);
	} while (thread_cpu_ns() - t0 < ns && swap.turns < SWAP_TURNS);
	__asm__ volatile("" ::: "memory");
	return x;
}

struct swap_count {
	size_t in_leaf[2];	/* user-mode samples in the leaf, by turn: the lower leaf's, the other's */
	size_t right[2];	/* ... whose walk found swap_turns and the test after it */
};

static void swap_judge(const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u,
		       void *arg)
{
	char *leaf = swap.area + SWAP_PAGE + swap.lo_off;
	struct swap_count *c = arg;
	const char *ip = (const char *)(unsigned long)s->user_ip;
	unsigned int turn = 0;

	if (!u || !(s->flags & DUNWIND_SAMPLE_USER_MODE) || ip < leaf || ip >= leaf + SWAP_PAGE)
		return;
	while (turn + 1 < swap.turns && swap.at[turn + 1] <= s->time)
		turn++;
	c->in_leaf[turn % 2]++;
	if (u->nr != SWAP_FRAMES || u->ips[0] != s->user_ip || u->ips[1] != swap.leaf_ret ||
	    u->ips[2] != swap.turns_ret)
		return;
	c->right[turn % 2]++;
}

/*
 * Sampled in user mode in two leaves of unlike frames that take turns at
 * one address, in a mapping of the file replaced at each turn: every
 * stack that starts there goes on to its caller, by the rule of the leaf
 * mapped there then.
 */
TEST(a_mapping_replaced_at_the_same_address_is_walked_by_its_own_rules)
{
	struct dunwind_stats st = { .size = sizeof(st) };
	struct swap_find f = { .addr = (unsigned long)swap_small };
	unsigned long small_off, big_off;
	struct swap_count c = {};
	struct stat sb;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
#ifndef DW_GSFRAME
	SKIP(return, "built without -Wa,--gsframe: no table covers the leaves");
#endif
	dl_iterate_phdr(swap_find_phdr, &f);
	small_off = f.off;
	f.addr = (unsigned long)swap_big;
	f.off = 0;
	dl_iterate_phdr(swap_find_phdr, &f);
	big_off = f.off;
	/* The build's layout, the same at every run: a failure here is the test's. */
	ASSERT_TRUE(small_off && big_off && f.sframe_linear)
		TH_LOG("the leaves' code or .sframe is not at its own address in the file");
	ASSERT_EQ(SWAP_PAGE, small_off > big_off ? small_off - big_off : big_off - small_off);
	swap.lo_small = small_off < big_off;
	swap.lo_off = swap.lo_small ? small_off : big_off;
	swap.fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, swap.fd);
	ASSERT_EQ(0, fstat(swap.fd, &sb));
	swap.len = (sb.st_size + SWAP_PAGE - 1) & ~(SWAP_PAGE - 1);
	swap.area = mmap(NULL, swap.len + SWAP_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, swap.area);
	replay_user_run(_metadata, SWAP_FRAMES, swap_turns, swap_judge, &c, &st);
	munmap(swap.area, swap.len + SWAP_PAGE);
	close(swap.fd);
	ASSERT_EQ(0, swap.err) TH_LOG("mapping the file again: %s", strerror(-swap.err));
	ASSERT_GE(swap.turns, 4U);
	TH_LOG("%u turns; samples in %s: %zu, %zu walked to its caller; in %s: %zu, %zu",
	       swap.turns, swap.lo_small ? "swap_small" : "swap_big", c.in_leaf[0], c.right[0],
	       swap.lo_small ? "swap_big" : "swap_small", c.in_leaf[1], c.right[1]);
	if (c.in_leaf[0] < 20 || c.in_leaf[1] < 20)
		SKIP(return, "%zu and %zu samples in the leaves: too few to judge",
		     c.in_leaf[0], c.in_leaf[1]);
	EXPECT_EQ(c.in_leaf[0], c.right[0]);
	EXPECT_EQ(c.in_leaf[1], c.right[1]);
}

TEST_HARNESS_MAIN
