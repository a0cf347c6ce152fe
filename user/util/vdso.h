/* SPDX-License-Identifier: GPL-2.0 */
/*
 * This process's own vDSO image, as a file: the kernel maps the same
 * image into every 64-bit process it runs, so ours stands for theirs
 * wherever its build-id is theirs (the recorder generates the vDSO's
 * SFrame table from it and names [vdso] frames with its symbols).
 */
#ifndef DW_UTIL_VDSO_H
#define DW_UTIL_VDSO_H

#include <stddef.h>

/* The name MMAP records and /proc/PID/maps give the vDSO's mapping. */
#define DW_VDSO_NAME	"[vdso]"

int dw_vdso_fd(void);
const char *dw_vdso_file(void);

#endif
