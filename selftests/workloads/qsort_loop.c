// SPDX-License-Identifier: GPL-2.0
/*
 * qsort_loop: main -> sorter -> qsort (libc) -> cmp, over and over.  The
 * comparator is slow on purpose so most samples land in it, under libc
 * frames that have no frame pointers and no .sframe.  Prints "ready" and
 * loops until killed or 120 s; 'qsort_loop SECONDS' exits 0 after SECONDS
 * (container_test runs it under 'dunwind record -- CMD', which ends with it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa, noinline))
#define NR 512

volatile unsigned long dw_qsort_work;

/*
 * The volatile local array gives cmp a frame (push %rbp), so a frame-pointer
 * walk gets past it into libc and is lost only there.
 */
NOIPA static int cmp(const void *pa, const void *pb)
{
	int x = *(const int *)pa, y = *(const int *)pb;
	volatile unsigned long buf[4];
	int i;

	buf[0] = 0;
	for (i = 0; i < 64; i++)
		buf[i & 3] += i;
	dw_qsort_work += buf[0];
	return (x > y) - (x < y);
}

NOIPA static unsigned long sorter(int *v, unsigned int seed)
{
	int i;

	for (i = 0; i < NR; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (int)(seed >> 8);
	}
	qsort(v, NR, sizeof(*v), cmp);
	return (unsigned long)v[0] + v[NR - 1];
}

int main(int argc, char **argv)
{
	static int v[NR];
	unsigned long sum = 0;
	unsigned int seed = 1;
	time_t end = argc > 1 ? time(NULL) + atoi(argv[1]) : 0;

	alarm(120);
	printf("ready\n");
	fflush(stdout);
	while (!end || time(NULL) < end)
		sum += sorter(v, seed++);
	return sum == 42;
}
