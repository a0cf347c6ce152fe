// SPDX-License-Identifier: GPL-2.0
/*
 * fp_chain: a CPU-bound call chain main -> a -> b -> c -> leaf for the frame
 * pointer tests.  Built with frame pointers everywhere; with -DFRAMELESS_LEAF
 * the leaf touches no stack, so the compiler gives it no frame and an FP walk
 * that starts inside it cannot see c (the Makefile checks both shapes with
 * objdump).  Prints "ready" on stdout just before entering the chain, then
 * spins until killed (or 120 s, SIGALRM).
 */
#include <stdio.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa, noinline))

volatile unsigned long dw_fp_stop;
volatile unsigned long dw_fp_counter;

#ifdef FRAMELESS_LEAF
/* No locals: everything lives in globals and registers, no push %rbp. */
NOIPA static unsigned long leaf(void)
{
	while (!dw_fp_stop)
		dw_fp_counter++;
	return dw_fp_counter;
}
#else
/* A volatile local array forces a stack frame: push %rbp; mov %rsp,%rbp. */
NOIPA static unsigned long leaf(void)
{
	volatile unsigned long buf[16];
	unsigned long i = 0;

	buf[0] = 0;
	while (!dw_fp_stop) {
		buf[i & 15] += i;
		i++;
	}
	return buf[0];
}
#endif

/* Each caller uses the result, so no call becomes a tail jump. */
NOIPA static unsigned long c(void)
{
	return leaf() + 3;
}

NOIPA static unsigned long b(void)
{
	return c() * 5;
}

NOIPA static unsigned long a(void)
{
	return b() ^ 7;
}

int main(void)
{
	unsigned long r;

	alarm(120);
	printf("ready\n");
	fflush(stdout);
	r = a();
	return r == 42;
}
