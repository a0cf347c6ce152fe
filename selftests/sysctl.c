// SPDX-License-Identifier: GPL-2.0
/* Set a /proc/sys value for a test and put it back (see sysctl.h). */
#include <errno.h>
#include <stdio.h>

#include "sysctl.h"

/**
 * dw_sysctl_swap() - write a /proc/sys value, reading the old one first
 * @path:	e.g. "/proc/sys/kernel/kptr_restrict"
 * @val:	the new value
 * @old:	set to the value before
 *
 * Context: user space, root for most files.
 * Return: 0 or -errno; -EIO if the old value is not a number.
 */
int dw_sysctl_swap(const char *path, long val, long *old)
{
	char buf[32];
	FILE *f = fopen(path, "r+");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%ld", old) != 1)
		ret = -EIO;
	else if (fseek(f, 0, SEEK_SET) || fprintf(f, "%ld\n", val) < 0 || fflush(f))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
