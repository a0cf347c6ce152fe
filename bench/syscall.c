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

DW_BENCH_CHAIN(do_write)

int main(int argc, char **argv)
{
	unsigned long long n;

	dw_bench_start(argc, argv);
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0) {
		perror("/dev/null");
		return 1;
	}
	n = dw_bench_run(a);
	return dw_bench_done(n, "writes");
}
