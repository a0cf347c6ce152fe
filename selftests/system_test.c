// SPDX-License-Identifier: GPL-2.0
/*
 * system_test: DUNWIND_CFG_SYSTEM_WIDE sessions: every task on the chosen
 * CPUs is sampled, a process started after START included (with its user
 * stack and its FORK and COMM records), kernel threads are flagged and
 * have no user part, only the CPUs asked for are sampled, and the
 * configurations that make no sense are refused; 'dunwind record -a'
 * samples the machine while its command waits for its tables.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "capture/capture.h"
#include "records.h"
#include "workload.h"

/* fp_chain's samples wanted before the session stops (2 s at most each round). */
#define WANT_SAMPLES	20
#define MAX_ROUNDS	20

static void sw_config(struct dunwind_config *cfg)
{
	dw_records_config(cfg, 0, 0, 999);
	cfg->flags = DUNWIND_CFG_SYSTEM_WIDE;
}

static size_t samples_of(const struct dw_records *r, int pid)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->v[i]->type == DUNWIND_REC_SAMPLE &&
		     ((const struct dunwind_rec_sample *)r->v[i])->pid == (__u32)pid;
	return n;
}

/*
 * Start a system-wide session on @cfg, then fp_chain (pinned to @cpu when
 * >= 0), collect until it has WANT_SAMPLES samples, stop both.  0, 1 when
 * the module does not know the flag (-EINVAL at CONFIG), or -errno.
 */
static int profile_new_process(const struct dunwind_config *cfg, int cpu, struct dw_records *r,
			       int *pid)
{
	struct dw_workload w;
	struct dw_session s;
	int ret, round;

	ret = dw_session_open(&s, NULL, cfg);
	if (ret == -EINVAL)
		return 1;
	if (ret)
		return ret;
	ret = dw_session_start(&s);
	if (ret)
		goto out_close;
	/* Started after START: system-wide sessions need no target. */
	ret = dw_workload_start(&w, "fp_chain", NULL, 10000);
	if (ret)
		goto out_close;
	*pid = w.pid;
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(w.pid, sizeof(set), &set))
			ret = -errno;
	}
	for (round = 0; !ret && round < MAX_ROUNDS && samples_of(r, w.pid) < WANT_SAMPLES;
	     round++)
		ret = dw_records_collect(&s, r, 100);
	dw_workload_stop(&w);
	if (!ret)
		ret = dw_session_stop(&s);
	if (!ret)
		ret = dw_records_collect(&s, r, 300);
out_close:
	dw_session_close(&s);
	return ret;
}

FIXTURE(sw) {
	struct dw_records r;
	int pid;
};

FIXTURE_SETUP(sw)
{
	struct dunwind_config cfg;
	int ret;

	memset(&self->r, 0, sizeof(self->r));
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	sw_config(&cfg);
	ret = profile_new_process(&cfg, -1, &self->r, &self->pid);
	if (ret == 1)
		SKIP(return, "the module refuses DUNWIND_CFG_SYSTEM_WIDE: load the one built "
		     "from this tree");
	ASSERT_EQ(0, ret) TH_LOG("profile: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(sw)
{
	dw_records_free(&self->r);
}

/* Its samples reach its user code: a stack of at least main and the chain. */
TEST_F(sw, a_process_started_after_start_is_sampled_with_user_stacks)
{
	size_t i, with_stack = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *s = (const void *)self->r.v[i];
		const struct dunwind_rec_user_stack *u;

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE || s->pid != (__u32)self->pid ||
		    !s->cookie)
			continue;
		if (dw_records_stacks_for(&self->r, s->cookie, &u) == 1 && u->nr >= 4)
			with_stack++;
	}
	EXPECT_LE(1, with_stack) TH_LOG("%zu samples of pid %d, none with a user stack",
					samples_of(&self->r, self->pid), self->pid);
}

/* It is named: a FORK from its parent and a COMM at its exec. */
TEST_F(sw, a_process_started_after_start_gets_fork_and_exec_comm)
{
	int fork = 0, comm = 0;
	size_t i;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_header *h = self->r.v[i];

		if (h->type == DUNWIND_REC_FORK &&
		    ((const struct dunwind_rec_task *)h)->tid == (__u32)self->pid)
			fork = 1;
		if (h->type == DUNWIND_REC_COMM && (h->misc & DUNWIND_COMM_EXEC) &&
		    ((const struct dunwind_rec_comm *)h)->pid == (__u32)self->pid &&
		    !strcmp(((const struct dunwind_rec_comm *)h)->comm, "fp_chain"))
			comm = 1;
	}
	EXPECT_EQ(1, fork);
	EXPECT_EQ(1, comm);
}

/*
 * Kernel threads and the idle task are sampled (one CPU idles while
 * fp_chain spins on the other) with their kernel stack and no user part.
 */
TEST_F(sw, kernel_threads_are_flagged_with_no_user_part)
{
	size_t i, kthread = 0, bad = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *s = (const void *)self->r.v[i];

		if (self->r.v[i]->type != DUNWIND_REC_SAMPLE ||
		    !(s->flags & DUNWIND_SAMPLE_KERNEL_THREAD))
			continue;
		kthread++;
		if (s->cookie || !(s->flags & DUNWIND_SAMPLE_NO_USER) || !s->nr_kernel)
			bad++;
	}
	EXPECT_LE(1, kthread);
	EXPECT_EQ(0, bad);
}

/* The samples of the process itself never carry the kernel-thread flag. */
TEST_F(sw, user_processes_are_not_flagged_as_kernel_threads)
{
	size_t i, bad = 0;

	for (i = 0; i < self->r.n; i++) {
		const struct dunwind_rec_sample *s = (const void *)self->r.v[i];

		if (self->r.v[i]->type == DUNWIND_REC_SAMPLE && s->pid == (__u32)self->pid &&
		    (s->flags & DUNWIND_SAMPLE_KERNEL_THREAD))
			bad++;
	}
	EXPECT_LE(1, samples_of(&self->r, self->pid));
	EXPECT_EQ(0, bad);
}

/* With CPU 0 only: every sample is from CPU 0, the pinned process's too. */
TEST(system_wide_samples_only_the_cpus_asked_for)
{
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	unsigned char cpus[1] = { 1 };
	size_t i, other = 0;
	int ret, pid = 0;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	sw_config(&cfg);
	cfg.cpus = (__u64)(unsigned long)cpus;
	cfg.cpus_size = sizeof(cpus);
	ret = profile_new_process(&cfg, 0, &r, &pid);
	if (ret == 1)
		SKIP(return, "the module refuses DUNWIND_CFG_SYSTEM_WIDE");
	ASSERT_EQ(0, ret) TH_LOG("profile: %s", strerror(-ret));
	for (i = 0; i < r.n; i++)
		other += r.v[i]->type == DUNWIND_REC_SAMPLE &&
			 !(((const struct dunwind_rec_sample *)r.v[i])->flags &
			   DUNWIND_SAMPLE_OFF_CPU) &&
			 ((const struct dunwind_rec_sample *)r.v[i])->cpu != 0;
	EXPECT_LE(1, samples_of(&r, pid));
	EXPECT_EQ(0, other);
	dw_records_free(&r);
}

static int config_errno(const struct dunwind_config *cfg)
{
	int fd = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, DUNWIND_IOC_CONFIG, cfg) ? -errno : 0;
	close(fd);
	return ret;
}

/* A module that knows the flag: an empty system-wide config is accepted. */
static int knows_system_wide(void)
{
	struct dunwind_config cfg;

	sw_config(&cfg);
	return !config_errno(&cfg);
}

TEST(system_wide_with_a_pid_is_einval)
{
	struct dunwind_config cfg;

	if (access(DUNWIND_DEVICE, F_OK) || !knows_system_wide())
		SKIP(return, "no module with DUNWIND_CFG_SYSTEM_WIDE");
	sw_config(&cfg);
	cfg.pid = getpid();
	EXPECT_EQ(-EINVAL, config_errno(&cfg));
}

TEST(system_wide_with_children_is_einval)
{
	struct dunwind_config cfg;

	if (access(DUNWIND_DEVICE, F_OK) || !knows_system_wide())
		SKIP(return, "no module with DUNWIND_CFG_SYSTEM_WIDE");
	sw_config(&cfg);
	cfg.flags |= DUNWIND_CFG_CHILDREN;
	EXPECT_EQ(-EINVAL, config_errno(&cfg));
}

TEST(cpus_without_system_wide_is_einval)
{
	unsigned char cpus[1] = { 1 };
	struct dunwind_config cfg;

	if (access(DUNWIND_DEVICE, F_OK) || !knows_system_wide())
		SKIP(return, "no module with DUNWIND_CFG_SYSTEM_WIDE");
	dw_records_config(&cfg, getpid(), 0, 999);
	cfg.cpus = (__u64)(unsigned long)cpus;
	cfg.cpus_size = sizeof(cpus);
	EXPECT_EQ(-EINVAL, config_errno(&cfg));
}

/* CPU 4095 is not possible in the 2-CPU guest (nor on most machines). */
TEST(a_cpu_that_is_not_possible_is_einval)
{
	unsigned char cpus[DUNWIND_MAX_CPUS_SIZE] = { 0 };
	struct dunwind_config cfg;

	if (access(DUNWIND_DEVICE, F_OK) || !knows_system_wide())
		SKIP(return, "no module with DUNWIND_CFG_SYSTEM_WIDE");
	if (sysconf(_SC_NPROCESSORS_CONF) >= 4096)
		SKIP(return, "this machine may have CPU 4095");
	sw_config(&cfg);
	cpus[511] = 0x80;
	cfg.cpus = (__u64)(unsigned long)cpus;
	cfg.cpus_size = sizeof(cpus);
	EXPECT_EQ(-EINVAL, config_errno(&cfg));
}

TEST(an_empty_cpu_set_is_einval)
{
	unsigned char cpus[8] = { 0 };
	struct dunwind_config cfg;

	if (access(DUNWIND_DEVICE, F_OK) || !knows_system_wide())
		SKIP(return, "no module with DUNWIND_CFG_SYSTEM_WIDE");
	sw_config(&cfg);
	cfg.cpus = (__u64)(unsigned long)cpus;
	cfg.cpus_size = sizeof(cpus);
	EXPECT_EQ(-EINVAL, config_errno(&cfg));
}

/*
 * The tool: 'dunwind record -a -- CMD' runs CMD, stops at its end with
 * its exit status, and writes a capture of a system-wide session holding
 * kernel-thread samples and user samples with a user part (CMD spins).
 */
TEST(record_a_writes_a_system_wide_capture)
{
	const char *path = "/tmp/system_test.data";
	struct dw_capture_reader r;
	const struct dunwind_rec_header *h;
	size_t kthread = 0, user = 0;
	int st;

	if (access(DUNWIND_DEVICE, F_OK) || !knows_system_wide())
		SKIP(return, "no module with DUNWIND_CFG_SYSTEM_WIDE");
	if (system("command -v dunwind >/dev/null 2>&1"))
		SKIP(return, "no dunwind in PATH (tools/vm/run adds out/dunwind)");
	st = system("dunwind record -a -f -o /tmp/system_test.data --no-symbol-snapshot "
		    "--no-kallsyms -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; "
		    "exit 3' 2>/dev/null");
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(3, WEXITSTATUS(st));
	ASSERT_EQ(0, dw_capture_open(&r, path));
	EXPECT_TRUE(r.hdr.config_flags & DUNWIND_CFG_SYSTEM_WIDE);
	while ((h = dw_capture_next(&r))) {
		const struct dunwind_rec_sample *s = (const void *)h;

		if (h->type != DUNWIND_REC_SAMPLE)
			continue;
		kthread += !!(s->flags & DUNWIND_SAMPLE_KERNEL_THREAD);
		user += s->cookie != 0;
	}
	dw_capture_release(&r);
	unlink(path);
	EXPECT_LE(1, kthread);
	EXPECT_LE(1, user);
}

/*
 * 'dunwind record -a -- CMD' samples the machine from START while CMD
 * waits for its programs' tables: with an empty table cache (libc's table
 * is generated, seconds under TCG), samples come before CMD's exec.
 */
TEST(record_a_samples_the_machine_while_its_command_waits_for_tables)
{
	const char *path = "/tmp/system_test_wait.data";
	struct dw_capture_reader r;
	const struct dunwind_rec_header *h;
	__u64 exec_time = 0;
	size_t before = 0, i, nr = 0, cap = 0;
	__u64 *times = NULL;
	char cmd[512];
	int st;

	if (access(DUNWIND_DEVICE, F_OK) || !knows_system_wide())
		SKIP(return, "no module with DUNWIND_CFG_SYSTEM_WIDE");
	if (system("command -v dunwind >/dev/null 2>&1"))
		SKIP(return, "no dunwind in PATH (tools/vm/run adds out/dunwind)");
	/* A program of its own name, whose closure (libc) needs a table. */
	ASSERT_EQ(0, system("cp /bin/bash /tmp/dwwaitcmd"));
	snprintf(cmd, sizeof(cmd), "rm -rf /tmp/system_test_cache && "
		 "XDG_CACHE_HOME=/tmp/system_test_cache dunwind record -a -f -o %s "
		 "--no-symbol-snapshot --no-kallsyms -- /tmp/dwwaitcmd -c true 2>/dev/null",
		 path);
	st = system(cmd);
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(0, WEXITSTATUS(st));
	ASSERT_EQ(0, dw_capture_open(&r, path));
	while ((h = dw_capture_next(&r))) {
		const struct dunwind_rec_comm *c = (const void *)h;
		const struct dunwind_rec_sample *s = (const void *)h;

		if (h->type == DUNWIND_REC_COMM && (h->misc & DUNWIND_COMM_EXEC) &&
		    !strcmp(c->comm, "dwwaitcmd") && !exec_time)
			exec_time = c->time;
		if (h->type != DUNWIND_REC_SAMPLE)
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 1024;
			times = realloc(times, cap * sizeof(*times));
			ASSERT_NE(NULL, times);
		}
		times[nr++] = s->time;
	}
	dw_capture_release(&r);
	unlink(path);
	system("rm -rf /tmp/system_test_cache /tmp/dwwaitcmd");
	ASSERT_NE(0, exec_time) TH_LOG("no exec COMM record of the command");
	for (i = 0; i < nr; i++)
		before += times[i] < exec_time;
	free(times);
	/* About 2 a ms while the tables are made; a few ms' worth without. */
	EXPECT_LE(100, before) TH_LOG("%zu of %zu samples before the command's exec", before, nr);
}

TEST_HARNESS_MAIN
