// SPDX-License-Identifier: GPL-2.0
/*
 * read_loop: read(/dev/zero, 16 MiB) in a loop, so the thread spends long
 * single stays in the kernel (several samples per kernel entry, one cookie).
 * Prints "ready" and loops until killed or 120 s.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define LEN (16UL << 20)

int main(void)
{
	char *buf;
	int fd;

	fd = open("/dev/zero", O_RDONLY);
	buf = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		   -1, 0);
	if (fd < 0 || buf == MAP_FAILED) {
		perror("read_loop");
		return 1;
	}
	alarm(120);
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		if (read(fd, buf, LEN) < 0) {
			perror("read_loop: read");
			return 1;
		}
	}
}
