// SPDX-License-Identifier: GPL-2.0
/*
 * A live process's mapped file (procfile.h).  The build-id the module
 * recorded for the mapping decides which candidate is the mapped file;
 * without one, the first readable candidate is taken.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "symbols/dso.h"
#include "symbols/procfile.h"

/* Is @file readable and, if @build_id is given, that file? */
static int is_mapped_file(struct dw_dso_cache *c, const char *file,
			  const unsigned char *build_id, size_t build_id_size)
{
	struct dw_dso *d;

	if (access(file, R_OK))
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
	    is_mapped_file(c, buf, build_id, build_id_size))
		return DW_PROC_FILE_ROOT;
	if (snprintf(buf, len, "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, pid, start, end) <
	    (int)len && is_mapped_file(c, buf, build_id, build_id_size))
		return DW_PROC_FILE_MAPPED;
	snprintf(buf, len, "%s", path);
	return DW_PROC_FILE_NONE;
}
