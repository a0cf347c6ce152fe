/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Debug info and executables by build-id from debuginfod servers, through
 * libdebuginfod (loaded with dlopen, so dunwind runs without it), only
 * when DEBUGINFOD_URLS is set.
 */
#ifndef DW_DEBUGINFOD_H
#define DW_DEBUGINFOD_H

#include <stddef.h>

enum dw_debuginfod_kind {
	DW_DEBUGINFOD_DEBUGINFO,
	DW_DEBUGINFOD_EXECUTABLE,
};

int dw_debuginfod_find(enum dw_debuginfod_kind kind, const unsigned char *build_id,
		       size_t build_id_size, char **path);
int dw_debuginfod_enabled(void);
void dw_debuginfod_close(void);

#endif
