/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What DWARF says about an address: source frames, the FDE's range, and the
 * entry point's routine that has none (dwarf.c).
 */
#ifndef DW_SYMBOLS_DWARF_H
#define DW_SYMBOLS_DWARF_H

#include <gelf.h>
#include <elfutils/libdwfl.h>
#include <linux/types.h>

#include "symbols/dso.h"

/* A file's FDE starts (.eh_frame_hdr's table), read on first need. */
struct dw_fdes {
	int read;
	__u64 *starts;			/* sorted */
	size_t n;
};

void dw_dwarf_src(Dwfl_Module *mod, Dwarf_Addr addr, struct dw_symres *res);
void dw_dwarf_fde(Dwfl_Module *mod, struct dw_fdes *fdes, GElf_Addr bias, Dwarf_Addr addr,
		  struct dw_symres *res);
void dw_dwarf_entry(Dwfl_Module *mod, struct dw_fdes *fdes, __u64 vaddr, struct dw_symres *res);
void dw_dwarf_fdes_free(struct dw_fdes *fdes);

#endif
