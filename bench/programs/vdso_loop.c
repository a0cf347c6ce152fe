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

static double secs;
static volatile long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *work(void *arg)
{
	double end = now() + secs;
	struct timeval tv;
	long n = 0;

	(void)arg;
	while (now() < end) {
		gettimeofday(&tv, NULL);
		n += tv.tv_usec;
	}
	sink = n;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	secs = argc > 1 ? atof(argv[1]) : 2;
	printf("ready\n");
	fflush(stdout);
	if (pthread_create(&t, NULL, work, NULL))
		return 1;
	work(NULL);
	pthread_join(t, NULL);
	return 0;
}
