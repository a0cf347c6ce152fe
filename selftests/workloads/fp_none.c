// SPDX-License-Identifier: GPL-2.0
/*
 * fp_none: code that no method can unwind: built without frame pointers,
 * without .eh_frame and without .sframe (see the Makefile), spinning with
 * the frame pointer (%rbp, arm64's x29) 0 as a frameless function may have it.  A frame-pointer walk sees
 * "rbp 0", which is no root here: the walk must say it had no unwind
 * information rather than call the stack complete.
 *
 * Prints "ready" and spins until killed or 120 s.
 */
#include <stdio.h>
#include <unistd.h>

__attribute__((noipa, noinline)) static void spin(void)
{
	unsigned long n;

	for (;;) {
		n = 1000000;
#if defined(__aarch64__)
		asm volatile("mov x29, xzr\n1:\tsubs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "x29", "cc");
#else
		asm volatile("xor %%ebp, %%ebp\n1:\tdec %0\n\tjnz 1b" : "+r"(n) : : "rbp", "cc");
#endif
	}
}

int main(void)
{
	alarm(120);
	printf("ready\n");
	fflush(stdout);
	spin();
	return 0;
}
