// SPDX-License-Identifier: GPL-2.0
/*
 * session_test: what a session follows and when: threads created after
 * START, child processes (DUNWIND_CFG_CHILDREN), two sessions on one target,
 * nothing after STOP, poll() readiness.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "records.h"
#include "workload.h"

FIXTURE(session) {
	int unused;
};

FIXTURE_SETUP(session)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(session)
{
}

/* Samples with a user stack, of @pid, from a thread other than the leader. */
static size_t count_new_thread_stacks(const struct dw_records *r, int pid)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_sample *s = (const void *)r->v[i];
		const struct dunwind_rec_user_stack *u;

		if (r->v[i]->type != DUNWIND_REC_SAMPLE || s->pid != (__u32)pid ||
		    s->tid == (__u32)pid || !s->cookie)
			continue;
		if (dw_records_stacks_for(r, s->cookie, &u) == 1 && u->nr >= 2 &&
		    u->tid == s->tid)
			n++;
	}
	return n;
}

/*
 * Profile the threads workload: START, then it creates 2 threads that spin
 * for 1 s.  Fills @r with the records and @st with the counters read once
 * the threads are done.  0 or -errno; *@pid gets the target's pid.
 */
static int profile_new_threads(struct dw_records *r, struct dunwind_stats *st, int *pid)
{
	const char *argv[] = { "2", "1000", NULL };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	int ret;

	ret = dw_workload_start(&w, "threads", argv, 10000);
	if (ret)
		return ret;
	*pid = w.pid;
	dw_records_config(&cfg, w.pid, 0, 1000);
	ret = dw_session_open(&s, NULL, &cfg);
	if (ret) {
		dw_workload_stop(&w);
		return ret;
	}
	ret = dw_session_start(&s);
	if (!ret)
		ret = dw_workload_send(&w, "go");
	if (!ret)
		ret = dw_records_collect(&s, r, 500);
	if (!ret)
		ret = dw_workload_expect(&w, "done", 20000);
	if (!ret) {
		memset(st, 0, sizeof(*st));
		st->size = sizeof(*st);
		ret = dw_session_stats(&s, st);
	}
	/*
	 * End the workload before the last drain: its main thread may be
	 * blocked in read() with a walk pending, which runs as it dies.
	 */
	dw_workload_stop(&w);
	if (!ret)
		ret = dw_session_stop(&s);
	if (!ret)
		ret = dw_records_collect(&s, r, 300);
	dw_session_close(&s);
	return ret;
}

/* A pid target's threads created after START are sampled, with user stacks. */
TEST_F_TIMEOUT(session, threads_created_after_start_are_sampled, 60)
{
	struct dw_records r = { 0 };
	struct dunwind_stats st;
	int ret, pid = 0;
	size_t n;

	ret = profile_new_threads(&r, &st, &pid);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	n = count_new_thread_stacks(&r, pid);
	TH_LOG("%zu samples, %zu from new threads with a stack", r.nr_samples, n);
	EXPECT_GE(n, 10);
	dw_records_free(&r);
}

/* The threads counter includes the threads that inherited the event. */
TEST_F_TIMEOUT(session, stats_count_inherited_threads, 60)
{
	struct dw_records r = { 0 };
	struct dunwind_stats st;
	int ret, pid = 0;

	ret = profile_new_threads(&r, &st, &pid);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	EXPECT_GE(st.threads, 3)
		TH_LOG("stats.threads %llu: the leader and 2 new threads had the event",
		       (unsigned long long)st.threads);
	dw_records_free(&r);
}

/* Threads that exit while sampled leave no sample without its user stack. */
TEST_F_TIMEOUT(session, exiting_threads_leave_no_sample_without_its_stack, 60)
{
	struct dw_records r = { 0 };
	struct dunwind_stats st;
	size_t bad, checked;
	int ret, pid = 0;

	ret = profile_new_threads(&r, &st, &pid);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	ASSERT_EQ(0, r.lost) TH_LOG("records lost: the check needs all of them");
	bad = dw_records_unanswered(&r, &checked);
	EXPECT_GE(checked, 10);
	EXPECT_EQ(0, bad);
	dw_records_free(&r);
}

/* A tid target: samples of that thread only, none of its siblings. */
TEST_F_TIMEOUT(session, tid_target_samples_only_that_thread, 120)
{
	/* Long enough for a starved guest: the profile stops at 40 samples. */
	const char *argv[] = { "2", "20000", NULL };
	struct dw_records_opts o = { .ms = 800, .max_ms = 15000, .min_samples = 40 };
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	size_t i, mine = 0, other = 0;
	char line[64];
	int ret, tid = 0;

	ret = dw_workload_start(&w, "threads", argv, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start threads: %s", strerror(-ret));
	ret = dw_workload_send(&w, "go");
	while (!ret && !tid) {
		ret = dw_workload_line(&w, line, sizeof(line), 10000);
		if (!ret && sscanf(line, "tid %d", &tid) != 1)
			tid = 0;
	}
	if (ret) {
		dw_workload_stop(&w);
		ASSERT_EQ(0, ret) TH_LOG("no tid from the workload: %s", strerror(-ret));
	}
	dw_records_config(&cfg, 0, tid, 1000);
	ret = dw_records_profile_opts(&r, &cfg, &o, NULL);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)r.v[i];

		if (r.v[i]->type != DUNWIND_REC_SAMPLE)
			continue;
		if (sm->tid == (__u32)tid && sm->pid == (__u32)w.pid)
			mine++;
		else
			other++;
	}
	TH_LOG("tid %d: %zu samples of it, %zu of others", tid, mine, other);
	/* Sampled until 40 samples came (or 15 s): its sibling spins as long. */
	EXPECT_GE(mine, 20);
	EXPECT_EQ(0, other);
	dw_records_free(&r);
}

/* User stacks of @pid's samples that have a user stack with >= 3 frames. */
static size_t count_full_stacks(const struct dw_records *r, int pid)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_sample *s = (const void *)r->v[i];
		const struct dunwind_rec_user_stack *u;

		if (r->v[i]->type != DUNWIND_REC_SAMPLE || s->pid != (__u32)pid || !s->cookie)
			continue;
		if (dw_records_stacks_for(r, s->cookie, &u) == 1 && u->nr >= 3)
			n++;
	}
	return n;
}

/* Two sessions on one target both get samples with user stacks. */
TEST_F_TIMEOUT(session, second_session_on_same_target, 60)
{
	struct dw_records r1 = { 0 }, r2 = { 0 };
	struct dunwind_config cfg;
	struct dw_session s1, s2;
	struct dw_workload w;
	size_t n1, n2;
	int ret, i;

	ret = dw_workload_start(&w, "fp_chain", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start fp_chain: %s", strerror(-ret));
	dw_records_config(&cfg, w.pid, 0, 500);
	ret = dw_session_open(&s1, NULL, &cfg);
	if (ret) {
		dw_workload_stop(&w);
		ASSERT_EQ(0, ret);
	}
	ret = dw_session_open(&s2, NULL, &cfg);
	if (!ret) {
		ret = dw_session_start(&s1);
		if (!ret)
			ret = dw_session_start(&s2);
		for (i = 0; !ret && i < 20; i++) {
			ret = dw_records_collect(&s1, &r1, 50);
			if (!ret)
				ret = dw_records_collect(&s2, &r2, 50);
		}
		if (!ret)
			ret = dw_session_stop(&s1);
		if (!ret)
			ret = dw_session_stop(&s2);
		if (!ret)
			ret = dw_records_collect(&s1, &r1, 200);
		if (!ret)
			ret = dw_records_collect(&s2, &r2, 100);
		dw_session_close(&s2);
	}
	dw_session_close(&s1);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	n1 = count_full_stacks(&r1, w.pid);
	n2 = count_full_stacks(&r2, w.pid);
	TH_LOG("session 1: %zu samples, %zu with stacks; session 2: %zu, %zu", r1.nr_samples,
	       n1, r2.nr_samples, n2);
	EXPECT_GE(n1, 50);
	EXPECT_GE(n2, 50);
	dw_records_free(&r1);
	dw_records_free(&r2);
}

/* After STOP (and its pending walks) the ring gets no more samples. */
TEST_F_TIMEOUT(session, no_samples_after_stop, 60)
{
	struct dw_records before = { 0 }, after = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	int ret;

	ret = dw_workload_start(&w, "fp_chain", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start fp_chain: %s", strerror(-ret));
	dw_records_config(&cfg, w.pid, 0, 1000);
	ret = dw_session_open(&s, NULL, &cfg);
	if (ret) {
		dw_workload_stop(&w);
		ASSERT_EQ(0, ret);
	}
	ret = dw_session_start(&s);
	if (!ret)
		ret = dw_records_collect(&s, &before, 500);
	if (!ret)
		ret = dw_session_stop(&s);
	if (!ret)
		ret = dw_records_collect(&s, &before, 300);
	if (!ret)
		ret = dw_records_collect(&s, &after, 700);
	dw_session_close(&s);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	EXPECT_GE(before.nr_samples, 50);
	EXPECT_EQ(0, after.nr_samples);
	EXPECT_EQ(0, after.nr_stacks);
	dw_records_free(&before);
	dw_records_free(&after);
}

/*
 * A child that spins for 300 ms of its CPU time, then execs a shell loop,
 * profiled from before its exec.  Returns 0 or -errno; @pre gets the
 * samples taken before the child called execl() (it sends that
 * CLOCK_MONOTONIC time, the clock of record times, just before it), @post
 * the others.
 */
static int profile_across_exec(__u32 flags, size_t *pre, size_t *post, int *saw_exec)
{
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_session s;
	__u64 exec_call = 0;
	int go[2], when[2], ret, status;
	size_t i;
	pid_t pid;

	if (pipe(go))
		return -errno;
	if (pipe2(when, O_CLOEXEC)) {
		ret = -errno;
		close(go[0]);
		close(go[1]);
		return ret;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(go[0]);
		close(go[1]);
		close(when[0]);
		close(when[1]);
		return ret;
	}
	if (!pid) {
		struct timespec t0, t;
		__u64 ns;
		char c;

		close(go[1]);
		close(when[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		/*
		 * 300 ms of its own CPU time (about 300 samples at 1 kHz),
		 * however little of the host the guest gets.
		 */
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		do
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 300);
		clock_gettime(CLOCK_MONOTONIC, &t);
		ns = (__u64)t.tv_sec * 1000000000ULL + t.tv_nsec;
		if (write(when[1], &ns, sizeof(ns)) != sizeof(ns))
			_exit(1);
		execl("/bin/sh", "sh", "-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done",
		      (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	close(when[1]);
	dw_records_config(&cfg, pid, 0, 1000);
	cfg.flags = flags;
	ret = dw_session_open(&s, NULL, &cfg);
	if (!ret) {
		ret = dw_session_start(&s);
		if (!ret && write(go[1], "g", 1) != 1)
			ret = -errno;
		if (!ret)
			ret = dw_records_collect(&s, &r, 5000);
		dw_session_close(&s);
	}
	close(go[1]);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	if (!ret && read(when[0], &exec_call, sizeof(exec_call)) != sizeof(exec_call))
		ret = -EPROTO;	/* the child never got to its exec */
	close(when[0]);
	if (ret) {
		dw_records_free(&r);
		return ret;
	}
	*saw_exec = 0;
	for (i = 0; i < r.n; i++) {
		if (r.v[i]->type == DUNWIND_REC_COMM && (r.v[i]->misc & DUNWIND_COMM_EXEC))
			*saw_exec = 1;
	}
	*pre = *post = 0;
	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_sample *sm = (const void *)r.v[i];

		if (r.v[i]->type != DUNWIND_REC_SAMPLE)
			continue;
		if (sm->time < exec_call)
			(*pre)++;
		else
			(*post)++;
	}
	dw_records_free(&r);
	return 0;
}

/* DUNWIND_CFG_ENABLE_ON_EXEC: nothing is sampled before the target's exec. */
TEST_F_TIMEOUT(session, enable_on_exec_samples_only_after_exec, 60)
{
	size_t pre, post;
	int ret, saw_exec;

	ret = profile_across_exec(DUNWIND_CFG_ENABLE_ON_EXEC, &pre, &post, &saw_exec);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	ASSERT_TRUE(saw_exec) TH_LOG("no COMM record with DUNWIND_COMM_EXEC");
	TH_LOG("%zu samples before the exec, %zu after", pre, post);
	EXPECT_EQ(0, pre);
	EXPECT_GE(post, 20);
}

/*
 * Without it, the 300 ms of CPU before the exec are sampled (the check
 * above can fail).  A starved guest delivers fewer timer samples than its
 * CPU time says: ask for a few, not for the 300.
 */
TEST_F_TIMEOUT(session, without_enable_on_exec_samples_start_at_start, 60)
{
	size_t pre, post;
	int ret, saw_exec;

	ret = profile_across_exec(0, &pre, &post, &saw_exec);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	ASSERT_TRUE(saw_exec) TH_LOG("no COMM record with DUNWIND_COMM_EXEC");
	TH_LOG("%zu samples before the exec, %zu after", pre, post);
	EXPECT_GE(pre, 10);
}

/*
 * A ring nobody drains fills up: the module drops records, counts them,
 * and writes a LOST record once there is room again.
 */
TEST_F_TIMEOUT(session, full_ring_reports_lost_records, 60)
{
	struct dunwind_stats st = { .size = sizeof(st) };
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	int ret;

	ret = dw_workload_start(&w, "read_loop", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start read_loop: %s", strerror(-ret));
	dw_records_config(&cfg, w.pid, 0, 0);
	cfg.sample_period = 200000;
	cfg.ring_pages = 1;
	ret = dw_session_open(&s, NULL, &cfg);
	if (ret) {
		dw_workload_stop(&w);
		ASSERT_EQ(0, ret);
	}
	ret = dw_session_start(&s);
	if (!ret) {
		usleep(1000000);	/* fill the ring: nobody drains */
		ret = dw_records_drain(&s, &r);
	}
	if (ret >= 0)
		ret = dw_records_collect(&s, &r, 300);
	if (!ret)
		ret = dw_session_stop(&s);
	if (!ret)
		ret = dw_records_collect(&s, &r, 200);
	if (!ret)
		ret = dw_session_stats(&s, &st);
	dw_session_close(&s);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	TH_LOG("%zu samples, %llu lost in LOST records, %llu lost in STATS", r.nr_samples,
	       (unsigned long long)r.lost, (unsigned long long)st.lost[0]);
	EXPECT_GT(r.lost, 0);
	EXPECT_GE(st.lost[0], r.lost);
	dw_records_free(&r);
}


/* What profile_forks() saw of the process tree the forks workload made. */
struct fork_tree {
	int pid[3];			/* the target, its child, its grandchild */
	size_t samples[3];		/* SAMPLE records of each */
	size_t stacks[3];		/* of those, with a user stack of >= 3 frames */
	size_t forks[3];		/* FORK records naming it as the new process */
	int fork_parent_ok[3];		/* its FORK names its parent process */
	size_t comms[3], exits[3];	/* COMM and EXIT records of it */
};

/* Add up @r's records of the three processes of @t into @t. */
static void tally_forks(const struct dw_records *r, struct fork_tree *t)
{
	size_t i;
	int k;

	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_header *h = r->v[i];
		const struct dunwind_rec_sample *sm = (const void *)h;
		const struct dunwind_rec_task *tk = (const void *)h;
		const struct dunwind_rec_comm *c = (const void *)h;
		const struct dunwind_rec_user_stack *u;

		for (k = 0; k < 3; k++) {
			if (h->type == DUNWIND_REC_SAMPLE && sm->pid == (__u32)t->pid[k]) {
				t->samples[k]++;
				if (sm->cookie && dw_records_stacks_for(r, sm->cookie, &u) == 1 &&
				    u->nr >= 3)
					t->stacks[k]++;
			}
			if (h->type == DUNWIND_REC_FORK && tk->pid == (__u32)t->pid[k] &&
			    tk->pid != tk->ppid) {
				t->forks[k]++;
				t->fork_parent_ok[k] = k && tk->ppid == (__u32)t->pid[k - 1];
			}
			if (h->type == DUNWIND_REC_COMM && c->pid == (__u32)t->pid[k])
				t->comms[k]++;
			if (h->type == DUNWIND_REC_EXIT && tk->pid == (__u32)t->pid[k])
				t->exits[k]++;
		}
	}
}

/*
 * Profile the forks workload with @flags in @nr sessions at once (1 or 2):
 * START, then it forks a child that forks a grandchild; both spin for
 * 800 ms.  Fills @t[@nr], one per session.  0 or -errno.
 */
static int profile_forks_in(__u32 flags, struct fork_tree *t, int nr)
{
	const char *argv[] = { "800", NULL };
	struct dw_records r[2] = { { 0 }, { 0 } };
	int ret = 0, n = 1, k, j, opened = 0;
	struct dunwind_config cfg;
	struct dw_session s[2];
	struct dw_workload w;
	char line[64];

	memset(t, 0, nr * sizeof(*t));
	ret = dw_workload_start(&w, "forks", argv, 10000);
	if (ret)
		return ret;
	dw_records_config(&cfg, w.pid, 0, 1000);
	cfg.flags = flags;
	for (j = 0; !ret && j < nr; j++) {
		ret = dw_session_open(&s[j], NULL, &cfg);
		opened += !ret;
	}
	for (j = 0; !ret && j < nr; j++)
		ret = dw_session_start(&s[j]);
	if (!ret)
		ret = dw_workload_send(&w, "go");
	while (!ret) {
		ret = dw_workload_line(&w, line, sizeof(line), 20000);
		if (ret || !strcmp(line, "done"))
			break;
		if (n < 3 && sscanf(line, "pid %d", &t[0].pid[n]) == 1)
			n++;
		for (j = 0; !ret && j < nr; j++)
			ret = dw_records_drain(&s[j], &r[j]) < 0 ? -EIO : 0;
	}
	for (j = 0; !ret && j < nr; j++)
		ret = dw_session_stop(&s[j]);
	for (j = 0; !ret && j < nr; j++)
		ret = dw_records_collect(&s[j], &r[j], 300);
	for (j = 0; j < opened; j++)
		dw_session_close(&s[j]);
	dw_workload_stop(&w);
	if (!ret && n != 3)
		ret = -ESRCH;
	for (j = 0; j < nr; j++) {
		t[j].pid[0] = w.pid;
		for (k = 1; k < 3; k++)
			t[j].pid[k] = t[0].pid[k];
		if (!ret)
			tally_forks(&r[j], &t[j]);
		dw_records_free(&r[j]);
	}
	return ret;
}

static int profile_forks(__u32 flags, struct fork_tree *t)
{
	return profile_forks_in(flags, t, 1);
}

/* DUNWIND_CFG_CHILDREN: a child and a grandchild are sampled, with user stacks. */
TEST_F_TIMEOUT(session, children_and_grandchildren_are_sampled, 60)
{
	struct fork_tree t;
	int ret, k;

	ret = profile_forks(DUNWIND_CFG_CHILDREN, &t);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	for (k = 0; k < 3; k++)
		TH_LOG("pid %d: %zu samples, %zu with stacks", t.pid[k], t.samples[k],
		       t.stacks[k]);
	/* They share 2 vCPUs with each other and us: a fraction of 800 ms each. */
	EXPECT_GE(t.stacks[1], 20);
	EXPECT_GE(t.stacks[2], 20);
}

/* DUNWIND_CFG_CHILDREN: each new process gets FORK (naming its parent), COMM and EXIT. */
TEST_F_TIMEOUT(session, children_get_fork_comm_and_exit_records, 60)
{
	struct fork_tree t;
	int ret, k;

	ret = profile_forks(DUNWIND_CFG_CHILDREN, &t);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	for (k = 1; k < 3; k++) {
		EXPECT_EQ(1, t.forks[k]) TH_LOG("pid %d: %zu FORK records", t.pid[k], t.forks[k]);
		EXPECT_TRUE(t.fork_parent_ok[k]) TH_LOG("pid %d: FORK names another parent",
							t.pid[k]);
		EXPECT_GE(t.comms[k], 1);
		EXPECT_EQ(1, t.exits[k]);
	}
	EXPECT_EQ(0, t.forks[0]);
}

/*
 * Two sessions on one tree of processes: each gets its own FORK, COMM and
 * EXIT records of each new process, once (the module's probes serve every
 * started session).
 */
TEST_F_TIMEOUT(session, two_sessions_each_get_fork_comm_and_exit_records, 60)
{
	struct fork_tree t[2];
	int ret, j, k;

	ret = profile_forks_in(DUNWIND_CFG_CHILDREN, t, 2);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	for (j = 0; j < 2; j++) {
		for (k = 1; k < 3; k++) {
			EXPECT_EQ(1, t[j].forks[k]) TH_LOG("session %d, pid %d: %zu FORK records",
							   j + 1, t[j].pid[k], t[j].forks[k]);
			EXPECT_TRUE(t[j].fork_parent_ok[k]);
			EXPECT_GE(t[j].comms[k], 1);
			EXPECT_EQ(1, t[j].exits[k]) TH_LOG("session %d, pid %d: %zu EXIT records",
							   j + 1, t[j].pid[k], t[j].exits[k]);
		}
		EXPECT_EQ(0, t[j].forks[0]);
	}
}

/* Without DUNWIND_CFG_CHILDREN a pid target's child processes are not followed. */
TEST_F_TIMEOUT(session, children_not_followed_without_the_flag, 60)
{
	struct fork_tree t;
	int ret, k;

	ret = profile_forks(0, &t);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	for (k = 1; k < 3; k++) {
		EXPECT_EQ(0, t.samples[k]);
		EXPECT_EQ(0, t.forks[k]);
		EXPECT_EQ(0, t.comms[k]);
		EXPECT_EQ(0, t.exits[k]);
	}
}

/*
 * poll() is readable as soon as an MMAP record is unread, long before
 * wakeup_bytes are (the recorder registers tables for new mappings): the
 * first walks of fp_chain report its mappings.
 */
TEST_F_TIMEOUT(session, unread_mmap_record_makes_poll_readable, 60)
{
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	__u64 used = 0;
	size_t i, mmaps = 0;
	int ready, ret;

	ret = dw_workload_start(&w, "fp_chain", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start fp_chain: %s", strerror(-ret));
	dw_records_config(&cfg, w.pid, 0, 1000);
	cfg.ring_pages = 1024;
	cfg.wakeup_bytes = 3 << 20;	/* about 20 s of this target's records */
	ret = dw_session_open(&s, NULL, &cfg);
	if (ret) {
		dw_workload_stop(&w);
		ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	}
	ret = dw_session_start(&s);
	ready = ret ? ret : dw_session_poll(&s, 10000);
	if (ready == 1) {
		used = __atomic_load_n(&s.ctrl->data_head, __ATOMIC_ACQUIRE) -
		       __atomic_load_n(&s.ctrl->data_tail, __ATOMIC_RELAXED);
		ret = dw_records_drain(&s, &r);
	}
	dw_session_stop(&s);
	dw_session_close(&s);
	dw_workload_stop(&w);
	ASSERT_EQ(1, ready) TH_LOG("poll: %d (%s)", ready, ready < 0 ? strerror(-ready) : "timeout");
	ASSERT_LE(0, ret) TH_LOG("drain: %s", strerror(-ret));
	for (i = 0; i < r.n; i++)
		mmaps += r.v[i]->type == DUNWIND_REC_MMAP;
	EXPECT_LT(used, (__u64)cfg.wakeup_bytes) TH_LOG("readable by the watermark, not a mapping");
	EXPECT_GT(mmaps, 0) TH_LOG("readable without an MMAP record among %zu records", r.n);
	dw_records_free(&r);
}

TEST_HARNESS_MAIN
