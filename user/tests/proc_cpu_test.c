// SPDX-License-Identifier: GPL-2.0
/* dw_proc_cpu_parse() and dw_proc_cpu_ns() (util/proc_cpu.c). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "util/proc_cpu.h"

/* Fields 1-17 of /proc/PID/stat with utime 7, stime 5, cutime 300, cstime 20. */
#define TAIL	" R 1 2 3 4 5 6 7 8 9 10 7 5 300 20 20 0 1 0 5 6 7\n"

TEST(own_time_is_utime_and_stime)
{
	unsigned long long t;

	ASSERT_EQ(0, dw_proc_cpu_parse("42 (threads-fp)" TAIL, 0, &t));
	EXPECT_EQ(12, t);
}

TEST(children_add_cutime_and_cstime)
{
	unsigned long long t;

	ASSERT_EQ(0, dw_proc_cpu_parse("42 (threads-fp)" TAIL, 1, &t));
	EXPECT_EQ(332, t);
}

TEST(a_name_with_spaces_and_parentheses_is_skipped_whole)
{
	unsigned long long t;

	ASSERT_EQ(0, dw_proc_cpu_parse("42 (a) 1 2 (b))" TAIL, 0, &t));
	EXPECT_EQ(12, t);
}

TEST(short_or_malformed_lines_are_einval)
{
	static const char *const bad[] = {
		"", "42 threads", "42 (x) R 1 2 3", "42 (x) R 1 2 3 4 5 6 7 8 9 10 7 x 300 20",
		"42 (x) R 1 2 3 4 5 6 7 8 9 10 7 5 300",
	};
	unsigned long long t;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(-EINVAL, dw_proc_cpu_parse(bad[i], 1, &t))
			TH_LOG("line %zu", i);
}

/* Burn CPU until this process's CPU time (from /proc) has grown; then exit. */
static void burn(void)
{
	unsigned long long t0 = 0, t = 0;
	volatile unsigned long x = 0;

	dw_proc_cpu_ns(getpid(), 0, &t0);
	while (!dw_proc_cpu_ns(getpid(), 0, &t) && t == t0)
		x++;
	_exit(0);
}

TEST(a_zombie_has_its_time_until_reaped)
{
	unsigned long long ns = 0;
	siginfo_t si;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid)
		burn();
	/* Wait for its exit but leave it a zombie. */
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	ASSERT_EQ(0, dw_proc_cpu_ns(pid, 0, &ns));
	EXPECT_LT(0, ns);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	EXPECT_EQ(-ENOENT, dw_proc_cpu_ns(pid, 0, &ns));
}

TEST_HARNESS_MAIN
