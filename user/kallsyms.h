/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel address -> symbol lookup from a kallsyms file (/proc/kallsyms). */
#ifndef DW_KALLSYMS_H
#define DW_KALLSYMS_H

#include <stdint.h>

struct dw_kallsyms;

/* Load text symbols from @path (NULL: /proc/kallsyms). NULL on error, errno set. */
struct dw_kallsyms *dw_kallsyms_load(const char *path);
/*
 * Symbol containing @addr, *@off its offset, *@mod the module name or
 * "kernel.kallsyms"; NULL if none does.
 */
const char *dw_kallsyms_lookup(const struct dw_kallsyms *k, uint64_t addr, uint64_t *off,
			       const char **mod);
void dw_kallsyms_free(struct dw_kallsyms *k);

#endif
