// SPDX-License-Identifier: GPL-2.0
/*
 * qsort: a hot callback called from libc.  main -> a -> b -> c -> sort_once
 * -> qsort (libc) -> ... -> compare.
 * Unit: arrays of 2048 ints sorted.
 */
#include "workload.h"

#define N 2048

static int arr[N];

NOINLINE static int compare(const void *p, const void *q)
{
	int x = *(const int *)p, y = *(const int *)q;

	return (x > y) - (x < y);
}

NOINLINE static unsigned long sort_once(unsigned long x)
{
	int i;

	for (i = 0; i < N; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		arr[i] = (int)(x >> 33);
	}
	qsort(arr, N, sizeof(arr[0]), compare);
	return x + (unsigned long)arr[N / 2];
}

DW_BENCH_CHAIN(sort_once)

int main(int argc, char **argv)
{
	unsigned long long n;

	dw_bench_start(argc, argv);
	n = dw_bench_run(a);
	return dw_bench_done(n, "sorts");
}
