// SPDX-License-Identifier: GPL-2.0
/*
 * demo: a small program for 'make demo' with a few distinct call paths
 * (user-mode number crunching, sorting through libc's qsort, and system
 * calls), built as Debian builds its programs (no frame pointers, .eh_frame
 * only), that runs for SECONDS (default 2) and exits.
 *
 *   demo [SECONDS]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

NOINLINE static int is_prime(unsigned long n)
{
	unsigned long d;

	if (n < 2)
		return 0;
	for (d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

NOINLINE static unsigned long count_primes(unsigned long lo, unsigned long hi)
{
	unsigned long n, c = 0;

	for (n = lo; n < hi; n++)
		c += is_prime(n);
	return c;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

NOINLINE static unsigned long sort_numbers(unsigned long seed)
{
	static unsigned long v[20000];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		v[i] = seed >> 16;
	}
	qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), cmp_ulong);
	return v[0];
}

NOINLINE static unsigned long read_zeroes(int fd)
{
	static char buf[1 << 20];
	unsigned long sum = 0;
	int i;

	for (i = 0; i < 4; i++)
		if (read(fd, buf, sizeof(buf)) > 0)
			sum += (unsigned char)buf[i];
	return sum;
}

NOINLINE static unsigned long one_round(int fd, unsigned long round)
{
	return count_primes(round * 1000, round * 1000 + 3000) + sort_numbers(round) +
	       read_zeroes(fd);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0, end = now() + secs;
	unsigned long round = 1, sink = 0;
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0) {
		perror("demo: /dev/zero");
		return 1;
	}
	while (now() < end)
		sink += one_round(fd, round++);
	printf("demo: %lu rounds (%lu)\n", round - 1, sink & 0xff);
	return 0;
}
