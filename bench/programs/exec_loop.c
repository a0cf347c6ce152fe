// SPDX-License-Identifier: GPL-2.0
/*
 * exec_loop: compute for a while, then execve() itself with N - 1, until
 * N is 0: one process, N + 1 images.
 *
 *   exec_loop [N]        default 10
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long spin(unsigned long n)
{
	unsigned long i, x = 1;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;
	char arg[32];

	sink = spin(30000000);
	if (n <= 0)
		return 0;
	snprintf(arg, sizeof(arg), "%ld", n - 1);
	execl("/proc/self/exe", argv[0], arg, (char *)NULL);
	perror("exec_loop: execl");
	return 1;
}
