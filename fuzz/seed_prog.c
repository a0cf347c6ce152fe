// SPDX-License-Identifier: GPL-2.0
/*
 * A small program for the ELF targets' seeds (gen-seeds builds it several
 * ways): frames with and without a frame pointer, alloca (CFA from %rbp),
 * an inlined function, a static and a weak symbol, a recursion.
 */
#include <alloca.h>
#include <string.h>

volatile int seed_sink;

static inline __attribute__((always_inline)) int seed_inl(int x)
{
	return x * 3 + seed_sink;
}

__attribute__((noinline)) int seed_alloca(int n)
{
	char *p = alloca((unsigned int)n & 0xff);

	memset(p, 1, (unsigned int)n & 0xff);
	return p[0] + seed_inl(n);
}

__attribute__((noinline, weak)) int seed_weak(int n)
{
	return n ? seed_weak(n - 1) + 1 : seed_alloca(n);
}

static __attribute__((noinline)) int seed_static(int n)
{
	return seed_weak(n) + seed_inl(n);
}

int main(int argc, char **argv)
{
	(void)argv;
	return seed_static(argc);
}
