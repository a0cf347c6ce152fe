// SPDX-License-Identifier: GPL-2.0
/*
 * elapsed CMD [ARGS...]: run CMD and print "elapsed_ns N" on stderr, N its
 * CLOCK_MONOTONIC time from fork to exit; exits with CMD's status.  In
 * exact mode (tools/vm/run --icount) 1 ns is one instruction executed, or
 * the guest idling; bench/guest times whole 'dunwind record' commands
 * with it (the fixed cost of a recording).
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0;
	pid_t pid;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: elapsed CMD [ARGS...]\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("elapsed: fork");
		return 1;
	}
	if (!pid) {
		execvp(argv[1], argv + 1);
		perror("elapsed: exec");
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0) {
		perror("elapsed: waitpid");
		return 1;
	}
	fprintf(stderr, "elapsed_ns %lld\n", now_ns() - t0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
