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

DW_BENCH_CHAIN(leaf)

int main(int argc, char **argv)
{
	unsigned long long n;

	dw_bench_start(argc, argv);
	n = dw_bench_run(a);
	return dw_bench_done(n, "calls");
}
