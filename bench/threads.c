// SPDX-License-Identifier: GPL-2.0
/*
 * threads: 8 threads each running worker -> a -> b -> c -> leaf; leaf
 * spins.  main only creates and joins them.
 * Unit: calls of a(), all threads together.
 */
#include <pthread.h>

#include "workload.h"

#define NR_THREADS 8

NOINLINE static unsigned long leaf(unsigned long x)
{
	return dw_bench_spin(x, 20000);
}

DW_BENCH_CHAIN(leaf)

NOINLINE static void *worker(void *arg)
{
	*(unsigned long long *)arg = dw_bench_run(a);
	return arg;
}

int main(int argc, char **argv)
{
	unsigned long long count[NR_THREADS] = { 0 }, n = 0;
	pthread_t t[NR_THREADS];
	sigset_t set;
	int i, err;

	dw_bench_start(argc, argv);
	/* SIGALRM goes to main (blocked in the workers, which inherit the mask). */
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	for (i = 0; i < NR_THREADS; i++) {
		err = pthread_create(&t[i], NULL, worker, &count[i]);
		if (err) {
			fprintf(stderr, "threads: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	for (i = 0; i < NR_THREADS; i++) {
		pthread_join(t[i], NULL);
		n += count[i];
	}
	return dw_bench_done(n, "calls");
}
