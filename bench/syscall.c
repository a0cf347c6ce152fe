// SPDX-License-Identifier: GPL-2.0
/*
 * syscall: a syscall-heavy loop.  main -> a -> b -> c -> do_write -> write
 * (libc) of one byte to /dev/null.
 * Unit: write(2) calls.
 */
#include <fcntl.h>
#include <unistd.h>

#include "workload.h"

static int fd;

NOINLINE static unsigned long do_write(unsigned long x)
{
	char byte = (char)x;

	return (unsigned long)write(fd, &byte, 1) + x;
}

NOINLINE static unsigned long c(unsigned long x)
{
	return do_write(x + 3) ^ 3;
}

NOINLINE static unsigned long b(unsigned long x)
{
	return c(x + 2) ^ 2;
}

NOINLINE static unsigned long a(unsigned long x)
{
	return b(x + 1) ^ 1;
}

int main(int argc, char **argv)
{
	unsigned long long n = 0;
	unsigned long x = 1;

	dw_bench_start(argc, argv);
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0) {
		perror("/dev/null");
		return 1;
	}
	dw_bench_loop(1);
	while (!dw_bench_stop) {
		x = a(x);
		n++;
	}
	dw_bench_loop(0);
	return dw_bench_done(n, "writes");
}
