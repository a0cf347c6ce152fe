// SPDX-License-Identifier: GPL-2.0
/*
 * Symbolizers that read the mapped file here (dso.c, through the
 * mapping's dw_maps_resolve()): its symbol, else its FDE's range.
 */
#include <errno.h>

#include "symbols/symbolizer.h"

/* The file's symbol (.symtab/.dynsym, debug file, PLT stub). */
static int elf_lookup(struct dw_symctx *ctx, const struct dw_symq *q, struct dw_symans *a)
{
	(void)ctx;
	if (!q->map->sym.name)
		return -ENOENT;
	a->name = q->map->sym.name;
	a->mangled = 1;
	a->off = q->map->sym.off;
	a->src = &q->map->sym;
	return 0;
}

/* No symbol: still one function, the one its FDE describes. */
static int fde_lookup(struct dw_symctx *ctx, const struct dw_symq *q, struct dw_symans *a)
{
	(void)ctx;
	if (!q->image || !q->map->sym.fde)
		return -ENOENT;
	a->fstart = q->map->fstart;
	a->src = &q->map->sym;
	return 0;
}

const struct dw_symbolizer dw_sym_elf = { .name = "elf", .lookup = elf_lookup };
const struct dw_symbolizer dw_sym_fde = { .name = "fde", .lookup = fde_lookup };
