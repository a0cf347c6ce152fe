/* SPDX-License-Identifier: GPL-2.0 */
/* What DWARF says about an address: source frames, the FDE's range (dwarf.c). */
#ifndef DW_SYMBOLS_DWARF_H
#define DW_SYMBOLS_DWARF_H

#include <gelf.h>
#include <elfutils/libdwfl.h>

#include "symbols/dso.h"

void dw_dwarf_src(Dwfl_Module *mod, Dwarf_Addr addr, struct dw_symres *res);
void dw_dwarf_fde(Dwfl_Module *mod, GElf_Addr bias, Dwarf_Addr addr, struct dw_symres *res);

#endif
