// SPDX-License-Identifier: GPL-2.0
/*
 * deep: recursion deeper than 8 KiB of stack.  main -> a -> descend x 100
 * -> deep_leaf; each descend frame holds a 192-byte buffer (about 200 bytes
 * per frame, 20 KiB in all), deep_leaf spins at the bottom.  100 frames, not
 * more: perf (kernel.perf_event_max_stack = 127) and dunwind (--max-stack
 * 128) cut longer stacks by default, for reasons unrelated to unwinding.
 * Unit: descents (calls of a()).
 */
#include "workload.h"

#define DEPTH 100

NOINLINE static unsigned long deep_leaf(unsigned long x)
{
	return dw_bench_spin(x, 200000);
}

NOINLINE static unsigned long descend(unsigned long x, int depth)
{
	volatile unsigned char buf[192];
	unsigned long r;

	buf[depth % sizeof(buf)] = (unsigned char)x;
	if (depth == 0)
		r = deep_leaf(x);
	else
		r = descend(x + 1, depth - 1);
	return r + buf[depth % sizeof(buf)];
}

NOINLINE static unsigned long a(unsigned long x)
{
	return descend(x, DEPTH - 1) ^ 1;
}

int main(int argc, char **argv)
{
	unsigned long long n;

	dw_bench_start(argc, argv);
	n = dw_bench_run(a);
	return dw_bench_done(n, "descents");
}
