/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file another user may have planted for a recorder running as root
 * (a runtime's perf map or jitdump in /tmp): opened only when it is a
 * regular file owned by root or by the process's user (owned_file.c).
 */
#ifndef DW_OWNED_FILE_H
#define DW_OWNED_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

uid_t dw_owned_uid(const char *path, const char *pattern);
FILE *dw_owned_fopen(const char *path, uid_t owner, size_t max_bytes, const char *what);

#endif
