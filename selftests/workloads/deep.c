// SPDX-License-Identifier: GPL-2.0
/*
 * deep: main -> rec(300) -> rec(299) -> ... -> rec(1) -> spin: 300 frames of
 * about 200 bytes each (some 64 KiB of stack) under a spinning leaf, for the
 * deep SFrame walk.  Prints "ready" and spins until killed or 120 s.
 *
 *   deep [DEPTH]	(1..4000 rec() frames; default 300)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa, noinline))
#define DEPTH 300

volatile unsigned long dw_deep_stop;

NOIPA static unsigned long spin(void)
{
	unsigned long i = 0;

	while (!dw_deep_stop)
		i++;
	return i;
}

/* The array keeps ~200 bytes per frame; using r after the call keeps it a call. */
NOIPA static unsigned long rec(int n)
{
	volatile char buf[200];
	unsigned long r;

	buf[n % 200] = (char)n;
	r = n > 1 ? rec(n - 1) : spin();
	buf[(n + 1) % 200] = (char)r;
	return r + buf[n % 200];
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : DEPTH;
	unsigned long r;

	if (depth < 1 || depth > 4000) {
		fprintf(stderr, "deep: DEPTH must be 1..4000\n");
		return 2;
	}
	alarm(120);
	printf("ready\n");
	fflush(stdout);
	r = rec(depth);
	return r == 42;
}
