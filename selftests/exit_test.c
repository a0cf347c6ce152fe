// SPDX-License-Identifier: GPL-2.0
/*
 * exit_test: a target that exits while sampled.  Samples taken on the way
 * out still get a user stack (stop EXITED or NO_MM) or say they have none,
 * and the session outlives its target.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "symbols/kallsyms.h"
#include "kselftest_harness.h"
#include "records.h"
#include "workload.h"

#define PERIOD_NS	100000ULL	/* 10 kHz: some samples in do_exit() */
#define ATTEMPTS	3

/*
 * Was @s taken on the way out: flagged so, or with do_exit() on its kernel
 * stack (a sample early in exit_group() may have queued a walk before
 * PF_EXITING, and later ones share its cookie, unflagged)?
 */
static int in_exit_path(const struct dw_kallsyms *ks, const struct dunwind_rec_sample *s)
{
	uint64_t off;
	const char *mod, *name;
	int i;

	if (s->flags & (DUNWIND_SAMPLE_EXITING | DUNWIND_SAMPLE_NO_USER))
		return 1;
	for (i = 0; i < s->nr_kernel; i++) {
		name = dw_kallsyms_lookup(ks, s->ips[i], &off, &mod);
		if (name && !strcmp(name, "do_exit"))
			return 1;
	}
	return 0;
}

/* Sample @pid every PERIOD_NS of CPU time into a 16 MiB ring: nothing lost. */
static void exit_config(struct dunwind_config *cfg, int pid)
{
	dw_records_config(cfg, pid, 0, 0);
	cfg->sample_freq = 0;
	cfg->sample_period = PERIOD_NS;
	cfg->ring_pages = 4096;
}

FIXTURE(exiting) {
	struct dw_records r;
	struct dw_kallsyms *ks;
	struct dunwind_stats st, after;	/* before and after STOP */
	int stop_ret, stats_ret, after_ret, exited, nr_exiting;
};

/*
 * Sample exit_mm (256 MiB, 20000 timers: see workloads/exit_mm.c) until it
 * exits by itself, then keep the session going: drain, read the counters
 * and stop it.  Retries (at most ATTEMPTS) until a sample lands in the exit
 * path.
 */
FIXTURE_SETUP(exiting)
{
	const char *argv[] = { "256", "300", NULL };
	int attempt, ret;
	size_t i;

	memset(&self->r, 0, sizeof(self->r));
	self->ks = NULL;
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	self->ks = dw_kallsyms_load(NULL);
	ASSERT_NE(NULL, self->ks) TH_LOG("cannot read /proc/kallsyms: %s", strerror(errno));
	for (attempt = 0; attempt < ATTEMPTS; attempt++) {
		struct dunwind_config cfg;
		struct dw_workload w;
		struct dw_session s;
		int left;

		dw_records_free(&self->r);
		ret = dw_workload_start(&w, "exit_mm", argv, 30000);
		ASSERT_EQ(0, ret) TH_LOG("cannot start exit_mm: %s", strerror(-ret));
		exit_config(&cfg, w.pid);
		ret = dw_session_open(&s, NULL, &cfg);
		if (!ret)
			ret = dw_session_start(&s);
		if (!ret)
			ret = dw_workload_send(&w, "go");
		if (ret)
			dw_workload_stop(&w);
		ASSERT_EQ(0, ret) TH_LOG("session: %s", strerror(-ret));
		for (left = 300; left > 0 && dw_workload_wait(&w, 0); left--)
			ASSERT_EQ(0, dw_records_collect(&s, &self->r, 100));
		self->exited = w.reaped;
		dw_workload_stop(&w);
		/* The target is gone: the session must keep working. */
		ASSERT_EQ(0, dw_records_collect(&s, &self->r, 300));
		memset(&self->st, 0, sizeof(self->st));
		self->st.size = sizeof(self->st);
		self->stats_ret = dw_session_stats(&s, &self->st);
		self->stop_ret = dw_session_stop(&s);
		ASSERT_EQ(0, dw_records_collect(&s, &self->r, 200));
		memset(&self->after, 0, sizeof(self->after));
		self->after.size = sizeof(self->after);
		self->after_ret = dw_session_stats(&s, &self->after);
		dw_session_close(&s);

		self->nr_exiting = 0;
		for (i = 0; i < self->r.n; i++) {
			const struct dunwind_rec_sample *sm = (const void *)self->r.v[i];

			if (self->r.v[i]->type == DUNWIND_REC_SAMPLE && in_exit_path(self->ks, sm))
				self->nr_exiting++;
		}
		TH_LOG("attempt %d: %zu samples, %d in the exit path, %zu stacks, lost %llu",
		       attempt + 1, self->r.nr_samples, self->nr_exiting, self->r.nr_stacks,
		       (unsigned long long)self->r.lost);
		if (self->nr_exiting)
			break;
	}
	ASSERT_TRUE(self->exited) TH_LOG("exit_mm did not exit within 30 s");
	ASSERT_EQ(0, self->r.lost) TH_LOG("records lost: the checks need all of them");
}

FIXTURE_TEARDOWN(exiting)
{
	dw_records_free(&self->r);
	dw_kallsyms_free(self->ks);
}

/*
 * Samples in the exit path (flagged EXITING or NO_USER, or with do_exit()
 * on their kernel stack) either carry a cookie whose one stack stops with
 * EXITED or NO_MM (the walk could not run), or carry none (NO_USER).
 */
TEST_F_TIMEOUT(exiting, exit_path_samples_say_why_they_have_no_user_stack, 120)
{
	size_t i, bad = 0;

	ASSERT_GT(self->nr_exiting, 0)
		TH_LOG("no sample in do_exit() in %d attempts", ATTEMPTS);
	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *s = (const void *)self->r.v[i];
		const struct dunwind_rec_user_stack *u;
		int ok;

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE || !in_exit_path(self->ks, s))
			continue;
		u = NULL;
		if (s->flags & DUNWIND_SAMPLE_NO_USER) {
			ok = !s->cookie;
		} else {
			ok = dw_records_stacks_for(&self->r, s->cookie, &u) == 1 &&
			     (u->stop == DUNWIND_STOP_EXITED || u->stop == DUNWIND_STOP_NO_MM);
		}
		if (!ok && bad++ < 5)
			TH_LOG("exiting sample cookie %llu flags %#x: stack %s stop %d",
			       (unsigned long long)s->cookie, s->flags,
			       s->cookie && u ? "present" : "absent",
			       s->cookie && u ? u->stop : -1);
	}
	EXPECT_EQ(0, bad);
}

/* Every sample that promised a user stack (cookie != 0) got exactly one. */
TEST_F_TIMEOUT(exiting, no_sample_left_without_its_stack, 120)
{
	EXPECT_GE(self->r.nr_samples, 10);
	EXPECT_EQ(0, dw_records_unanswered(&self->r, NULL));
}

/* After the target exited, STATS and STOP still succeed. */
TEST_F_TIMEOUT(exiting, session_survives_target_exit, 120)
{
	EXPECT_EQ(0, self->stats_ret);
	EXPECT_EQ(0, self->stop_ret);
	EXPECT_EQ(self->r.nr_samples, self->st.samples)
		TH_LOG("STATS counts %llu samples, the ring had %zu",
		       (unsigned long long)self->st.samples, self->r.nr_samples);
}

/*
 * Once STOP returned, every cookie is counted as one walk: walks equals
 * samples_deferred and the USER_STACK records (none was lost), the
 * exiting thread's stacks answered at once included.
 */
TEST_F_TIMEOUT(exiting, walks_count_every_user_stack, 120)
{
	ASSERT_EQ(0, self->after_ret);
	EXPECT_EQ(self->after.samples_deferred, self->after.walks);
	EXPECT_EQ(self->r.nr_stacks, self->after.walks)
		TH_LOG("%zu USER_STACK records, %llu walks counted", self->r.nr_stacks,
		       (unsigned long long)self->after.walks);
}

FIXTURE(killed) {
	int unused;
};

FIXTURE_SETUP(killed)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(killed)
{
}

/*
 * SIGKILL a target in the middle of long reads (walks pending): every sample
 * with a cookie still gets exactly one user stack, and the session goes on.
 */
TEST_F_TIMEOUT(killed, killed_target_leaves_no_sample_without_its_stack, 60)
{
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	size_t bad, checked;
	int ret;

	ret = dw_workload_start(&w, "read_loop", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start read_loop: %s", strerror(-ret));
	exit_config(&cfg, w.pid);
	ret = dw_session_open(&s, NULL, &cfg);
	if (!ret)
		ret = dw_session_start(&s);
	if (!ret)
		ret = dw_records_collect(&s, &r, 700);
	dw_workload_stop(&w);	/* SIGKILL, while sampled */
	if (!ret)
		ret = dw_records_collect(&s, &r, 300);
	if (!ret)
		ret = dw_session_stop(&s);
	if (!ret)
		ret = dw_records_collect(&s, &r, 200);
	dw_session_close(&s);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	ASSERT_EQ(0, r.lost) TH_LOG("records lost: the check needs all of them");
	bad = dw_records_unanswered(&r, &checked);
	TH_LOG("%zu samples with a cookie", checked);
	EXPECT_GE(checked, 50);
	EXPECT_EQ(0, bad);
	dw_records_free(&r);
}

/* Fork a child that waits for a byte on *@go, then runs @fn.  pid or -errno. */
static pid_t fork_waiting(int *go, void (*fn)(void))
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		close(p[1]);
		if (read(p[0], &c, 1) == 1 && fn)
			fn();
		_exit(0);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* The process that gets the exited target's number: renames itself, exits. */
static void reused_body(void)
{
	prctl(PR_SET_NAME, "dw_reused");
}

/*
 * Make the next fork() in this pid namespace get @pid (ns_last_pid).
 * 0, or -errno (no permission, no such file).
 */
static int next_pid_is(pid_t pid)
{
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	char buf[32];
	int len, ret = 0;

	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%d", (int)pid - 1);
	if (write(fd, buf, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * The target exits and its pid number goes to a new process (another
 * user's, it could be): the session reports nothing about it (COMM, EXIT).
 */
TEST(reused_pid_is_not_the_target)
{
	struct dunwind_config cfg;
	struct dw_records r = { 0 };
	struct dw_session s;
	int go, go2 = -1, status, ret, tries, exits = 0, renamed = 0;
	pid_t target, reused = -1;
	size_t i;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	target = fork_waiting(&go, NULL);
	ASSERT_LT(0, target);
	dw_records_config(&cfg, target, 0, 1000);
	ret = dw_session_open(&s, NULL, &cfg);
	if (!ret)
		ret = dw_session_start(&s);
	if (ret)
		kill(target, SIGKILL);
	ASSERT_EQ(0, ret) TH_LOG("session: %s", strerror(-ret));
	close(go);
	ASSERT_EQ(target, waitpid(target, &status, 0));

	/* The same number for a new process: retried, other forks may race. */
	for (tries = 0; tries < 20 && reused != target; tries++) {
		if (reused > 0) {
			close(go2);
			waitpid(reused, &status, 0);
		}
		ret = next_pid_is(target);
		if (ret)
			break;
		reused = fork_waiting(&go2, reused_body);
	}
	if (ret || reused != target) {
		dw_session_close(&s);
		if (reused > 0) {
			close(go2);
			waitpid(reused, &status, 0);
		}
	}
	if (ret)
		SKIP(return, "cannot choose the next pid: %s", strerror(-ret));
	ASSERT_EQ(target, reused) TH_LOG("pid %d was not reused", (int)target);
	close(go2);
	ASSERT_EQ(reused, waitpid(reused, &status, 0));

	ASSERT_EQ(0, dw_session_stop(&s));
	ASSERT_LE(0, dw_records_drain(&s, &r));
	dw_session_close(&s);
	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_comm *c = (const void *)r.v[i];
		const struct dunwind_rec_task *t = (const void *)r.v[i];

		if (c->hdr.type == DUNWIND_REC_COMM && !strcmp(c->comm, "dw_reused"))
			renamed++;
		if (t->hdr.type == DUNWIND_REC_EXIT && (pid_t)t->tid == target)
			exits++;
	}
	dw_records_free(&r);
	EXPECT_EQ(0, renamed) TH_LOG("the new process's rename reached the session");
	EXPECT_EQ(1, exits) TH_LOG("%d EXIT records for pid %d: only the target's belongs",
				   exits, (int)target);
}

TEST_HARNESS_MAIN
