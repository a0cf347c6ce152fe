// SPDX-License-Identifier: GPL-2.0
/* This process's own vDSO image as a file: see vdso.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/maps.h"
#include "util/vdso.h"

static int vdso_fd = -1;
static int vdso_err;
static char vdso_path[64];

/* Our [vdso] mapping, which starts with the image: [*start, *end). 0 or -errno. */
static int vdso_range(unsigned long long *start, unsigned long long *end)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	const struct dw_maps_line *l;
	struct dw_proc_maps it;
	int err = -ENOENT;

	if (!base)
		return -ENOENT;
	if (dw_proc_maps_open(&it, 0))
		return -ENOENT;
	while ((l = dw_proc_maps_next(&it)))
		if (l->start == base && !strcmp(l->path, DW_VDSO_NAME)) {
			*start = l->start;
			*end = l->end;
			err = 0;
			break;
		}
	dw_proc_maps_close(&it);
	return err;
}

/* Copy the image into a memory file.  Return: its fd, or -errno. */
static int vdso_copy(void)
{
	unsigned long long start, end;
	ssize_t n;
	int fd, err;

	err = vdso_range(&start, &end);
	if (err)
		return err;
	fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, (const void *)(unsigned long)start, (size_t)(end - start));
	if (n != (ssize_t)(end - start)) {
		err = n < 0 ? -errno : -EIO;
		close(fd);
		return err;
	}
	return fd;
}

/**
 * dw_vdso_fd() - a file holding this process's vDSO image
 *
 * Made once, kept open for the life of the process; read it with pread().
 * Context: user space.
 * Return: the file descriptor, or -errno (-ENOENT: no vDSO).
 */
int dw_vdso_fd(void)
{
	if (vdso_fd < 0 && !vdso_err) {
		vdso_fd = vdso_copy();
		if (vdso_fd < 0)
			vdso_err = vdso_fd;
	}
	return vdso_fd < 0 ? vdso_err : vdso_fd;
}

/**
 * dw_vdso_file() - a path that opens dw_vdso_fd()'s file
 *
 * Context: user space.
 * Return: "/proc/self/fd/N", or NULL (no vDSO image; errno set).
 */
const char *dw_vdso_file(void)
{
	int fd = dw_vdso_fd();

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	snprintf(vdso_path, sizeof(vdso_path), "/proc/self/fd/%d", fd);
	return vdso_path;
}
