// SPDX-License-Identifier: GPL-2.0
/*
 * mix_main: main -> a -> lib_a (a shared library: see mix_lib.c) for the
 * tests that walk across programs and libraries unwound by different
 * methods.  Prints "ready" and spins in the library until killed or 120 s.
 */
#include <stdio.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa, noinline))

unsigned long lib_a(void);

NOIPA static unsigned long a(void)
{
	return lib_a() ^ 7;
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
