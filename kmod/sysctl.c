// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a sysctl the kernel does not export to modules (perf's
 * perf_event_paranoid and perf_event_max_sample_rate) through its file.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "dunwind.h"

/**
 * dunwind_sysctl_int() - the integer in a /proc/sys file
 * @path:	e.g. "/proc/sys/kernel/perf_event_paranoid"
 * @val:	where the value goes
 *
 * Opened in the caller's mount namespace, as the caller would see it.
 * Context: process (may sleep).
 * Return: 0; -errno from opening or reading it; -EINVAL if not a number.
 */
int dunwind_sysctl_int(const char *path, int *val)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	char buf[24] = {};
	loff_t pos = 0;
	ssize_t n;
	int ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	ret = kstrtoint(strim(buf), 10, val);
	return ret ? -EINVAL : 0;
}
