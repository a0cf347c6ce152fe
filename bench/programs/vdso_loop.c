// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_loop: a thread and the main thread that read the clock in a tight
 * loop (clock_gettime and gettimeofday, both answered by the vDSO without
 * a system call), for SECS seconds; built like a distribution program (no
 * frame pointers: .eh_frame only), so a walk through the vDSO needs a
 * table for it to reach libc and the program's _start / clone3.  Prints
 * "ready" first (selftests/workload.c waits for it).
 *
 *   vdso_loop [SECS]        default 2
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long secs;
static volatile long sink;

static void *work(void *arg)
{
	struct timespec now, end;
	struct timeval tv;
	long n = 0;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += secs;
	do {
		gettimeofday(&tv, NULL);
		n += tv.tv_usec;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
		 (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	sink = n;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	secs = argc > 1 ? atol(argv[1]) : 2;
	printf("ready\n");
	fflush(stdout);
	if (pthread_create(&t, NULL, work, NULL))
		return 1;
	work(NULL);
	pthread_join(t, NULL);
	return 0;
}
