/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel address -> symbol lookup from a kallsyms file (/proc/kallsyms). */
#ifndef DW_KALLSYMS_H
#define DW_KALLSYMS_H

#include <stddef.h>
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
/* The same from kallsyms text in memory. */
struct dw_kallsyms *dw_kallsyms_parse(const char *text, size_t len);
/* A table without symbols (a snapshot none was needed for); NULL: ENOMEM. */
struct dw_kallsyms *dw_kallsyms_empty(void);
/* Module extents from /proc/modules text; modules added or -ENOMEM. */
int dw_kallsyms_add_modules(struct dw_kallsyms *k, const char *text, size_t len);
/* The module holding @addr (*@off from its start), or NULL. */
const char *dw_kallsyms_module(const struct dw_kallsyms *k, uint64_t addr, uint64_t *off);
void dw_kallsyms_free(struct dw_kallsyms *k);

#endif
