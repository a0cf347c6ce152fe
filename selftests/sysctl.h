/* SPDX-License-Identifier: GPL-2.0 */
/* Set a /proc/sys value for a test and put it back (ioctl_test, ksym_test). */
#ifndef DW_SELFTEST_SYSCTL_H
#define DW_SELFTEST_SYSCTL_H

/* Write @val to @path, its old value in *@old. 0 or -errno (-EIO: unreadable). */
int dw_sysctl_swap(const char *path, long val, long *old);

#endif
