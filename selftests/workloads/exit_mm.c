// SPDX-License-Identifier: GPL-2.0
/*
 * exit_mm: a process whose exit is slow.  It touches MIB MiB of anonymous
 * memory (4 KiB pages, no THP: a big exit_mm()) and creates TIMERS POSIX
 * timers (exit_itimers() deletes them one by one), prints "ready", waits for
 * a line on stdin, keeps touching the memory for MS milliseconds, prints
 * "exiting" and exits.
 *
 * Why the timers: since Linux 6.x do_exit() detaches perf events
 * (perf_event_exit_task()) before exit_mm(), so a profiler can only sample
 * the exit between exit_signals() (PF_EXITING) and that point, where
 * exit_itimers() runs.
 *
 *   exit_mm [MIB [MS [TIMERS]]]      defaults: 256 MiB, 300 ms, 20000 timers
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* @n timers that never fire; each needs a pending-signal slot, so lift the limit. */
static int make_timers(long n)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	timer_t id;
	long i;

	if (setrlimit(RLIMIT_SIGPENDING, &rl)) {
		rl.rlim_cur = rl.rlim_max = n + 1024;
		setrlimit(RLIMIT_SIGPENDING, &rl);
	}
	for (i = 0; i < n; i++)
		if (timer_create(CLOCK_MONOTONIC, &sev, &id)) {
			perror("exit_mm: timer_create");
			return -1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256;
	long ms = argc > 2 ? strtol(argv[2], NULL, 0) : 300;
	long timers = argc > 3 ? strtol(argv[3], NULL, 0) : 20000;
	unsigned long len = mib << 20, i;
	volatile char *mem;
	char line[64];
	long end;

	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* EINVAL: a kernel without transparent huge pages has none to avoid. */
	if (mem == MAP_FAILED ||
	    (madvise((void *)mem, len, MADV_NOHUGEPAGE) && errno != EINVAL)) {
		perror("exit_mm");
		return 1;
	}
	for (i = 0; i < len; i += 4096)
		mem[i] = 1;
	if (make_timers(timers))
		return 1;
	alarm(120);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	end = ms_now() + ms;
	while (ms_now() < end)
		for (i = 0; i < len; i += 4096 * 64)
			mem[i]++;
	printf("exiting\n");
	fflush(stdout);
	_exit(0);
}
