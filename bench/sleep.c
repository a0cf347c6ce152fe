// SPDX-License-Identifier: GPL-2.0
/*
 * sleep: a blocking (off-CPU) loop.  main -> a -> b -> c -> nap ->
 * nanosleep (libc) of 20 us.  Only the on-CPU part (syscall entry and exit,
 * timer setup, the wake-up) is sampled.
 * Unit: sleeps.
 */
#include <time.h>

#include "workload.h"

NOINLINE static unsigned long nap(unsigned long x)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 20000 };

	return (unsigned long)nanosleep(&ts, NULL) + x;
}

DW_BENCH_CHAIN(nap)

int main(int argc, char **argv)
{
	unsigned long long n;

	dw_bench_start(argc, argv);
	n = dw_bench_run(a);
	return dw_bench_done(n, "sleeps");
}
