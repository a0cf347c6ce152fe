/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file a live process has mapped, as that process sees it: through
 * /proc/PID/root (its mount namespace and root: containers), else
 * /proc/PID/map_files/START-END (the mapped inode itself, when the path is
 * gone or now names another file, as after a package upgrade).
 */
#ifndef DW_PROCFILE_H
#define DW_PROCFILE_H

#include <stddef.h>
#include <stdint.h>

struct dw_dso_cache;

/* What dw_proc_file() found. */
enum dw_proc_file_how {
	DW_PROC_FILE_ROOT,		/* /proc/PID/root/PATH */
	DW_PROC_FILE_MAPPED,		/* /proc/PID/map_files/START-END */
	DW_PROC_FILE_NONE,		/* neither is the mapped file: PATH as is */
};

enum dw_proc_file_how dw_proc_file(struct dw_dso_cache *c, int pid, const char *path,
				   uint64_t start, uint64_t end,
				   const unsigned char *build_id, size_t build_id_size,
				   char *buf, size_t len);

#endif
