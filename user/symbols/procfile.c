// SPDX-License-Identifier: GPL-2.0
/*
 * A live process's mapped file (procfile.h).  The build-id the module
 * recorded for the mapping decides which candidate is the mapped file;
 * without one, the first readable candidate is taken.
 *
 * Both are the owner's say, read by a recorder that may be root: only a
 * regular file is a candidate, and /proc/PID/root/PATH only when it is
 * the file PATH names inside that root (the kernel resolves an absolute
 * symbolic link under /proc/PID/root in the reader's root, which would
 * let a container's owner point the recorder at any file of the host).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "symbols/dso.h"
#include "symbols/procfile.h"

/*
 * Is @file (/proc/@pid/root@path) the file @path names with symbolic
 * links resolved inside the process's root?  Kernels without openat2()
 * (before 5.6) cannot say: yes, as before.
 */
static int same_in_root(int pid, const char *path, const char *file)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC,
				.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
	struct stat in, out;
	char root[32];
	int dfd, fd, same;

	snprintf(root, sizeof(root), "/proc/%d/root", pid);
	dfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	fd = (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));
	if (fd < 0) {
		same = errno == ENOSYS;
		close(dfd);
		return same;
	}
	same = !fstat(fd, &in) && !stat(file, &out) && in.st_dev == out.st_dev &&
	       in.st_ino == out.st_ino;
	close(fd);
	close(dfd);
	return same;
}

/* Is @file a readable regular file and, if @build_id is given, that file? */
static int is_mapped_file(struct dw_dso_cache *c, const char *file,
			  const unsigned char *build_id, size_t build_id_size)
{
	struct stat st;
	struct dw_dso *d;

	if (stat(file, &st) || !S_ISREG(st.st_mode) || access(file, R_OK))
		return 0;
	if (!build_id_size)
		return 1;
	d = dw_dso_get(c, file, build_id, build_id_size);
	return d && dw_dso_usable(d);
}

/**
 * dw_proc_file() - where to read the file process @pid maps at [@start, @end)
 * @c:		the cache that reads the candidates (with a @build_id)
 * @pid:	the process (alive)
 * @path:	the mapping's path as the process sees it (MMAP record)
 * @start:	the mapping's start
 * @end:	its end
 * @build_id:	the build-id recorded for it, or NULL
 * @build_id_size: its length
 * @buf:	set to the file to read
 * @len:	size of @buf
 *
 * Context: user space; reads the candidates' ELF headers (dso.c caches them).
 * Return: which candidate @buf holds; DW_PROC_FILE_NONE: @path itself (the
 * process is gone, or neither candidate is the mapped file: then @path
 * may be another file too, and dso.c's build-id check says so).
 */
enum dw_proc_file_how dw_proc_file(struct dw_dso_cache *c, int pid, const char *path,
				   uint64_t start, uint64_t end,
				   const unsigned char *build_id, size_t build_id_size,
				   char *buf, size_t len)
{
	if (path[0] == '/' && path[1] != '/' &&
	    snprintf(buf, len, "/proc/%d/root%s", pid, path) < (int)len &&
	    is_mapped_file(c, buf, build_id, build_id_size) && same_in_root(pid, path, buf))
		return DW_PROC_FILE_ROOT;
	if (snprintf(buf, len, "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, pid, start, end) <
	    (int)len && is_mapped_file(c, buf, build_id, build_id_size))
		return DW_PROC_FILE_MAPPED;
	snprintf(buf, len, "%s", path);
	return DW_PROC_FILE_NONE;
}
