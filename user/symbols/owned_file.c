// SPDX-License-Identifier: GPL-2.0
/*
 * Files a runtime writes for profilers (perf maps, jitdumps) belong to the
 * profiled process's user and sit in world-writable places: a recorder
 * running as root must not follow a symbolic link planted there, read a
 * FIFO or a device, or trust a file someone else wrote.  The checks are
 * made on an O_PATH descriptor, before anything of the file is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/owned_file.h"
#include "util/log.h"

/**
 * dw_owned_uid() - the user who may own @path besides root
 * @path:	e.g. /tmp/perf-1234.map
 * @pattern:	its base name as a scanf() format with one %u (the pid) and
 *		a %n at the end, e.g. "perf-%u.map%n"
 *
 * Context: user space.
 * Return: the uid of the process the name gives, else (a process gone, a
 * name without a pid) ours.
 */
uid_t dw_owned_uid(const char *path, const char *pattern)
{
	const char *base = strrchr(path, '/');
	unsigned int pid;
	char proc[32];
	struct stat st;
	int end = 0;

	base = base ? base + 1 : path;
	if (sscanf(base, pattern, &pid, &end) == 1 && end && !base[end]) {
		snprintf(proc, sizeof(proc), "/proc/%u", pid);
		if (!stat(proc, &st))
			return st.st_uid;
	}
	return geteuid();
}

/**
 * dw_owned_fopen() - open a file another user may have planted
 * @path:	the file
 * @owner:	the user who may own it besides root (dw_owned_uid())
 * @max_bytes:	larger files are refused
 * @what:	what it holds, for the message ("JIT symbols")
 *
 * Context: user space, blocking.
 * Return: the file open for reading, or NULL with errno set (from open(),
 * EPERM: refused, with a message naming @path and why).
 */
FILE *dw_owned_fopen(const char *path, uid_t owner, size_t max_bytes, const char *what)
{
	char self[64], why[96];
	struct stat st;
	FILE *f;
	int fd, rfd;

	/* O_PATH: nothing of a device's or FIFO's is run before the checks. */
	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode))
		snprintf(why, sizeof(why), "%s", S_ISLNK(st.st_mode) ? "a symbolic link" :
			 "not a regular file");
	else if (st.st_uid && st.st_uid != owner)
		snprintf(why, sizeof(why), "owned by uid %u, not by the process's user (uid %u)",
			 (unsigned int)st.st_uid, (unsigned int)owner);
	else if ((size_t)st.st_size > max_bytes)
		snprintf(why, sizeof(why), "larger than %zu bytes", max_bytes);
	else
		why[0] = '\0';
	if (why[0]) {
		dw_warn("%s: %s: its %s are not read\n", path, why, what);
		close(fd);
		errno = EPERM;
		return NULL;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	rfd = open(self, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	close(fd);
	if (rfd < 0)
		return NULL;
	f = fdopen(rfd, "r");
	if (!f)
		close(rfd);
	return f;
}
