// SPDX-License-Identifier: GPL-2.0
/*
 * A process's CPU time, all its threads, from /proc/PID/stat: utime and
 * stime (fields 14 and 15), and with its reaped children cutime and cstime
 * (16 and 17), in clock ticks.  Read while the process is a zombie (its
 * parent has not waited for it yet), they are its whole life's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/proc_cpu.h"

/**
 * dw_proc_cpu_parse() - the CPU time in a /proc/PID/stat line
 * @stat:	the line, NUL-terminated
 * @children:	add the reaped children's time
 * @ticks:	the time in clock ticks (sysconf(_SC_CLK_TCK))
 *
 * The command name (field 2) may hold spaces and parentheses: the fields
 * are counted from its last ')'.
 *
 * Context: user space.
 * Return: 0, or -EINVAL if the line has not the fields.
 */
int dw_proc_cpu_parse(const char *stat, int children, unsigned long long *ticks)
{
	const char *p = strrchr(stat, ')');
	unsigned long long v, sum = 0;
	char *end;
	int field;

	if (!p)
		return -EINVAL;
	p++;
	/* Field 3 (the state) follows the name; utime is field 14. */
	for (field = 3; field <= 17; field++) {
		while (*p == ' ')
			p++;
		if (!*p)
			return -EINVAL;
		if (field >= 14) {
			errno = 0;
			v = strtoull(p, &end, 10);
			if (end == p || errno || (*end != ' ' && *end != '\n' && *end))
				return -EINVAL;
			if (field <= 15 || children)
				sum += v;
			p = end;
			continue;
		}
		p += strcspn(p, " ");
	}
	*ticks = sum;
	return 0;
}

/**
 * dw_proc_cpu_ns() - the CPU time of process @pid in ns
 * @pid:	the process (its thread group)
 * @children:	add its reaped children's time
 * @ns:		the time
 *
 * Context: user space.
 * Return: 0, or -errno (-ENOENT: no such process, or already reaped).
 */
int dw_proc_cpu_ns(int pid, int children, unsigned long long *ns)
{
	char path[32], buf[1024];
	unsigned long long ticks;
	long hz = sysconf(_SC_CLK_TCK);
	ssize_t n;
	int fd, err;

	if (hz <= 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	err = dw_proc_cpu_parse(buf, children, &ticks);
	if (err)
		return err;
	*ns = ticks * (1000000000ULL / (unsigned long long)hz);
	return 0;
}
