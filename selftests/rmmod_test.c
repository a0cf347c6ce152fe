// SPDX-License-Identifier: GPL-2.0
/*
 * rmmod_test: the module cannot be removed while a session is open, can be
 * once it is closed (even while a sampled thread sleeps in the kernel with
 * its walk queued), and loads again (from $DUNWIND_KO) for later tests.
 * Runs last in the suite: it unloads the module.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "module.h"
#include "records.h"
#include "workload.h"

/*
 * Upper bounds of waits for a condition, in ms: generous, for a TCG guest
 * starved by a loaded host (each wait ends as soon as its condition holds).
 * What they tell apart is "soon" from "never": a module pinned by the
 * walks left queued at close stays busy for ever; a thread that never
 * sleeps again never does.
 */
#define UNLOAD_MS	30000	/* delete_module() stops being busy after close */
#define DEVICE_MS	10000	/* /dev/dunwind opens after finit_module() */
#define SETTLE_MS	60000	/* poll_block's threads all in their last poll() */

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

FIXTURE(rmmod) {
	const char *ko;
};

FIXTURE_SETUP(rmmod)
{
	self->ko = getenv("DUNWIND_KO");
	if (!self->ko || !*self->ko)
		SKIP(return, "DUNWIND_KO is not set: cannot re-load the module after unloading it");
	/* An earlier test killed between unload and re-load leaves none. */
	if (access(DUNWIND_DEVICE, F_OK))
		dw_module_load(self->ko);
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(rmmod)
{
	/* Leave the module loaded whatever happened. */
	if (self->ko && access(DUNWIND_DEVICE, F_OK))
		dw_module_load(self->ko);
}

/*
 * The unload waits for an RCU Tasks grace period while read_loop still runs,
 * mostly in the kernel: on a TCG guest starved by a loaded host that took
 * more than 60 s once (6.1), so the bound is generous.
 */
TEST_F_TIMEOUT(rmmod, busy_while_open_then_unloads_and_reloads, 240)
{
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	int ret, fd;

	/* A live session with samples in flight. */
	ret = dw_workload_start(&w, "read_loop", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start read_loop: %s", strerror(-ret));
	dw_records_config(&cfg, w.pid, 0, 1000);
	ret = dw_session_open(&s, NULL, &cfg);
	if (!ret)
		ret = dw_session_start(&s);
	if (!ret)
		ret = dw_records_collect(&s, &r, 300);
	if (ret)
		dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session: %s", strerror(-ret));

	ret = dw_module_unload();
	EXPECT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY)
		TH_LOG("delete_module with a session open: %d (%s)", ret, strerror(-ret));
	ASSERT_EQ(0, access(DUNWIND_DEVICE, F_OK));

	/* Close with the target still running: pending walks may hold the module a while. */
	dw_session_close(&s);
	ret = dw_module_unload_wait(UNLOAD_MS, NULL);
	dw_workload_stop(&w);
	EXPECT_EQ(0, ret) TH_LOG("delete_module after close: %s", strerror(-ret));
	EXPECT_TRUE(r.nr_samples > 0);
	dw_records_free(&r);

	if (!ret) {
		EXPECT_NE(0, access(DUNWIND_DEVICE, F_OK))
			TH_LOG("device still there after unload");
		ret = dw_module_load(self->ko);
		ASSERT_EQ(0, ret) TH_LOG("finit_module(%s): %s", self->ko, strerror(-ret));
	}
	fd = dw_device_wait(DEVICE_MS);
	ASSERT_GE(fd, 0) TH_LOG("no usable %s after re-loading: %s", DUNWIND_DEVICE,
				strerror(-fd));
	close(fd);
}

/* Threads of @pid not asleep (state other than S), or -errno. */
static int threads_awake(pid_t pid)
{
	char path[320], buf[512];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		const char *st;
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;	/* gone meanwhile */
		st = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (!st || st[1] != ' ' || st[2] != 'S')
			n++;
	}
	closedir(dir);
	return n;
}

/* USER_STACK records with stop reason @stop. */
static size_t stacks_with_stop(const struct dw_records *r, __u8 stop)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		if (r->v[i]->type == DUNWIND_REC_USER_STACK &&
		    ((const struct dunwind_rec_user_stack *)r->v[i])->stop == stop)
			n++;
	return n;
}

#define BLOCKED_THREADS	32

/*
 * 32 threads sampled in poll() just before it blocks for ever: their walks
 * stay queued.  STOP answers each of their cookies (stop reason SESSION),
 * every sample's cookie gets exactly one USER_STACK, and after close the
 * module unloads at once while the threads still sleep.
 */
TEST_F_TIMEOUT(rmmod, blocked_walks_answered_then_unloads, 300)
{
	const char *argv[] = { "32", NULL };
	struct dunwind_stats before, after;
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	__u64 owed, lost_samples;
	size_t bad;
	int ret, tries, awake = -1;
	long end;

	ret = dw_workload_start(&w, "poll_block", argv, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start poll_block: %s", strerror(-ret));
	dw_records_config(&cfg, w.pid, 0, 0);
	cfg.sample_freq = 0;
	cfg.sample_period = 100000;	/* ns of CPU time: 10 kHz */
	cfg.ring_pages = 4096;
	ret = dw_session_open(&s, NULL, &cfg);
	if (!ret)
		ret = dw_session_start(&s);
	if (!ret)
		ret = dw_workload_send(&w, "go");
	/* Until it says "blocking" (-ETIMEDOUT if not within SETTLE_MS)... */
	end = now_ms() + SETTLE_MS;
	while (!ret) {
		ret = dw_records_collect(&s, &r, 100);
		if (!ret)
			ret = dw_workload_expect(&w, "blocking", 100);
		if (ret == -ETIMEDOUT && now_ms() < end)
			ret = 0;
		else if (!ret)
			break;
	}
	/* ... and every thread sleeps in its last poll(). */
	while (!ret) {
		awake = threads_awake(w.pid);
		if (awake <= 0 || now_ms() >= end)
			break;
		ret = dw_records_collect(&s, &r, 50);
	}
	if (ret || awake) {
		dw_session_close(&s);
		dw_workload_stop(&w);
	}
	ASSERT_EQ(0, ret) TH_LOG("session, or \"blocking\" within %d ms: %s", SETTLE_MS,
				 strerror(-ret));
	ASSERT_EQ(0, awake) TH_LOG("%d threads of poll_block still awake", awake);

	ASSERT_EQ(0, dw_session_stats(&s, &before));
	owed = before.samples_deferred - before.walks;
	EXPECT_NE(0, owed) TH_LOG("no thread was sampled with its walk still queued");
	ASSERT_EQ(0, dw_session_stop(&s));
	ASSERT_LE(0, dw_records_drain(&s, &r));
	ASSERT_EQ(0, dw_session_stats(&s, &after));

	/* Every cookie answered exactly once, the sleepers' with SESSION. */
	bad = dw_records_unanswered(&r, NULL);
	EXPECT_EQ(0, bad) TH_LOG("%zu samples without exactly one USER_STACK", bad);
	EXPECT_EQ(after.samples_deferred, after.walks);
	EXPECT_GE(stacks_with_stop(&r, DUNWIND_STOP_SESSION), owed);
	lost_samples = after.lost[DUNWIND_REC_SAMPLE];
	EXPECT_EQ(r.lost, after.lost[0]);
	EXPECT_EQ(after.samples, r.nr_samples + lost_samples);
	TH_LOG("%zu samples, %llu deferred, %llu owed at STOP, %zu answered SESSION",
	       r.nr_samples, (unsigned long long)after.samples_deferred,
	       (unsigned long long)owed, stacks_with_stop(&r, DUNWIND_STOP_SESSION));
	dw_records_free(&r);

	/*
	 * Close leaves the sleepers' queued walks behind: the module unloads
	 * while they sleep on (a module they pinned would stay EWOULDBLOCK
	 * for ever).  Where close wakes them instead (kCFI kernels), their
	 * wake-ups take a moment on a loaded host: up to UNLOAD_MS.
	 */
	dw_session_close(&s);
	ret = dw_module_unload_wait(UNLOAD_MS, &tries);
	EXPECT_EQ(0, ret) TH_LOG("delete_module after close (%d tries): %s", tries,
				 strerror(-ret));
	EXPECT_EQ(0, kill(w.pid, 0)) TH_LOG("poll_block died");
	for (end = now_ms() + SETTLE_MS; (awake = threads_awake(w.pid)) > 0 && now_ms() < end;)
		usleep(20000);
	EXPECT_EQ(0, awake) TH_LOG("poll_block's threads do not sleep again");
	dw_workload_stop(&w);
	if (!ret) {
		ret = dw_module_load(self->ko);
		ASSERT_EQ(0, ret) TH_LOG("finit_module(%s): %s", self->ko, strerror(-ret));
		ret = dw_device_wait(DEVICE_MS);
		ASSERT_LE(0, ret) TH_LOG("no usable %s after re-loading", DUNWIND_DEVICE);
		close(ret);
	}
}

TEST_HARNESS_MAIN
