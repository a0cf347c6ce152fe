// SPDX-License-Identifier: GPL-2.0
/*
 * threads: print "ready", wait for a line on stdin, then start N threads that
 * each print "tid TID", wait until all exist (so that spinning threads do not
 * starve the creation of the rest) and spin for MS milliseconds, join them,
 * print "done" and wait for stdin to close.  The main thread only sleeps, so every CPU sample of this
 * process after "go" comes from a thread created after that point.
 *
 *   threads [N [MS]]        defaults: 2 threads, 1000 ms
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long spin_ms;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t all_created;
volatile unsigned long dw_threads_counter;

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

__attribute__((noipa, noinline)) static void *worker(void *arg)
{
	unsigned long i;
	long end;

	(void)arg;
	pthread_mutex_lock(&out_lock);
	printf("tid %d\n", (int)gettid());
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	pthread_barrier_wait(&all_created);
	end = ms_now() + spin_ms;
	while (ms_now() < end)
		for (i = 0; i < 100000; i++)
			dw_threads_counter++;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t tids[256];
	char line[64];
	int i;

	spin_ms = argc > 2 ? atol(argv[2]) : 1000;
	if (n < 1 || n > 256) {
		fprintf(stderr, "threads: 1..256 threads\n");
		return 2;
	}
	alarm(120);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	pthread_barrier_init(&all_created, NULL, (unsigned int)n + 1);
	for (i = 0; i < n; i++)
		if (pthread_create(&tids[i], NULL, worker, NULL)) {
			perror("threads: pthread_create");
			return 1;
		}
	pthread_barrier_wait(&all_created);
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	printf("done\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
