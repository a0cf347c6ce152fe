// SPDX-License-Identifier: GPL-2.0
/*
 * exec_exit: processes that exec or exit while sampled in the kernel.
 * Prints "ready", waits for a line on stdin, then ROUNDS times forks a
 * child that touches MIB MiB and creates 2000 POSIX timers, so that both
 * its execve() (begin_new_exec() deletes the timers, exec_mmap() drops
 * the old memory) and its exit (exit_itimers(), exit_mm()) spend a while
 * in the kernel: samples there queue walks that find the image gone.
 * Odd rounds exec this program again (which does the same and exits),
 * even rounds exit.  Prints "done" after the last child.
 *
 *   exec_exit [ROUNDS [MIB]]       defaults: 8 rounds, 32 MiB
 *   exec_exit --child MIB          (the exec'd child)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TIMERS	2000

/* Make the next exec or exit slow: memory to drop, timers to delete. */
static void weigh_down(size_t mib)
{
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	size_t len = mib << 20;
	timer_t t;
	char *p;
	int i;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		madvise(p, len, MADV_NOHUGEPAGE);
		memset(p, 1, len);
	}
	for (i = 0; i < TIMERS; i++)
		if (timer_create(CLOCK_MONOTONIC, &sev, &t))
			break;
}

int main(int argc, char **argv)
{
	unsigned long rounds = 8, mib = 32, r;
	char line[64], arg[32];

	if (argc == 3 && !strcmp(argv[1], "--child")) {
		weigh_down(strtoul(argv[2], NULL, 0));
		_exit(0);
	}
	if (argc > 1)
		rounds = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		mib = strtoul(argv[2], NULL, 0);
	snprintf(arg, sizeof(arg), "%lu", mib);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin)) {
		fprintf(stderr, "exec_exit: no \"go\" on stdin\n");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		pid_t pid = fork();

		/* Said on stderr (the test's log): stress_test sees only EPIPE. */
		if (pid < 0) {
			perror("exec_exit: fork");
			return 1;
		}
		if (!pid) {
			weigh_down(mib);
			if (r & 1)
				execl("/proc/self/exe", "exec_exit", "--child", arg, (char *)NULL);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	printf("done\n");
	fflush(stdout);
	return 0;
}
