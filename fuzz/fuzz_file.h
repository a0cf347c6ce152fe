/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the targets whose reader takes a file: the input as an anonymous
 * file (memfd), named /proc/self/fd/N for the readers that open a path.
 */
#ifndef DW_FUZZ_FILE_H
#define DW_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A memfd holding @data, its path in @path; -1 if that failed. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
