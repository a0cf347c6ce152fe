// SPDX-License-Identifier: GPL-2.0
/*
 * chain: CPU-bound known chain main -> a -> b -> c -> leaf; leaf spins.
 * Unit: calls of a().
 */
#include "workload.h"

NOINLINE static unsigned long leaf(unsigned long x)
{
	return dw_bench_spin(x, 20000);
}

NOINLINE static unsigned long c(unsigned long x)
{
	return leaf(x + 3) ^ 3;
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
	return dw_bench_done(n, "calls");
}
