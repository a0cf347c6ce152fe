/* SPDX-License-Identifier: GPL-2.0 */
/* CPU lists as the kernel writes them ("0-3,8,10-11") into a byte bitmap. */
#ifndef DW_CPULIST_H
#define DW_CPULIST_H

#include <stddef.h>

int dw_cpulist_parse(const char *s, unsigned char *bits, size_t size, size_t *used);

#endif
