/* SPDX-License-Identifier: GPL-2.0 */
/* The file execvp() would run for a command name. */
#ifndef DW_EXEC_PATH_H
#define DW_EXEC_PATH_H

#include <stddef.h>

int dw_find_in_path(const char *name, char *buf, size_t len);

#endif
