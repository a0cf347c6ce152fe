/* SPDX-License-Identifier: GPL-2.0 */
/* A file's PLT stubs, "func@plt" (plt.c). */
#ifndef DW_SYMBOLS_PLT_H
#define DW_SYMBOLS_PLT_H

#include <stddef.h>
#include <stdint.h>
#include <gelf.h>
#include <elfutils/libdwfl.h>

#include "symbols/dso.h"

struct dw_plt {
	int read;			/* the sections were read (zeroed if unusable) */
	struct dw_plt_sec { uint64_t start, size, entsize; size_t first; } sec[2];
	char **names;			/* by .rela.plt index; NULL: no symbol */
	size_t nr_names;
	Elf_Data *lazy;			/* .plt's bytes: each stub pushes its index */
};

void dw_plt_resolve(struct dw_plt *p, Dwfl_Module *mod, uint64_t vaddr, struct dw_symres *res);
void dw_plt_free(struct dw_plt *p);

#endif
