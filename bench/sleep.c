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

NOINLINE static unsigned long c(unsigned long x)
{
	return nap(x + 3) ^ 3;
}

NOINLINE static unsigned long b(unsigned long x)
{
	return c(x + 2) ^ 2;
}

NOINLINE static unsigned long a(unsigned long x)
{
	return b(x + 1) ^ 1;
}

int main(int argc, char **argv)
{
	unsigned long long n = 0;
	unsigned long x = 1;

	dw_bench_start(argc, argv);
	dw_bench_loop(1);
	while (!dw_bench_stop) {
		x = a(x);
		n++;
	}
	dw_bench_loop(0);
	return dw_bench_done(n, "sleeps");
}
