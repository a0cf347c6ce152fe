// SPDX-License-Identifier: GPL-2.0
/*
 * forks: print "ready", wait for a line on stdin, then fork a child that
 * forks a grandchild; each prints "pid PID" and spins for MS milliseconds
 * in a frame-pointer chain (spin <- child_main <- main).  The parent only
 * waits, so every CPU sample of the tree after "go" comes from a process
 * created after that point.  Prints "done" once both are reaped, then
 * waits for stdin to close.
 *
 *   forks [MS]        default 1000 ms
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long spin_ms;
volatile unsigned long dw_forks_counter;

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

__attribute__((noipa, noinline)) static void spin(void)
{
	long end = ms_now() + spin_ms;
	unsigned long i;

	while (ms_now() < end)
		for (i = 0; i < 100000; i++)
			dw_forks_counter++;
}

/* In a new process: say who we are, fork one more level if asked, spin. */
__attribute__((noipa, noinline)) static void child_main(int levels)
{
	pid_t kid = -1;

	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	if (levels > 1) {
		kid = fork();
		if (kid == 0) {
			child_main(levels - 1);
			_exit(0);
		}
	}
	spin();
	if (kid > 0)
		waitpid(kid, NULL, 0);
}

int main(int argc, char **argv)
{
	char line[64];
	pid_t kid;

	spin_ms = argc > 1 ? atol(argv[1]) : 1000;
	alarm(120);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	kid = fork();
	if (kid < 0)
		return 1;
	if (kid == 0) {
		child_main(2);
		_exit(0);
	}
	waitpid(kid, NULL, 0);
	printf("done\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
