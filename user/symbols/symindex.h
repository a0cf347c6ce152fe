/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One file's symbols sorted by address, for dw_dso_resolve(): libdwfl's
 * dwfl_module_addrinfo() goes through every symbol of the file for each
 * address, and a file's first answer for each of thousands of addresses
 * (a capture of a shell loop; a big library) paid that each time.  Built
 * on the first lookup, from the same symbols, with the same choice; its
 * names are the file's (libdwfl's) and live as long as its Dwfl.
 */
#ifndef DW_SYMINDEX_H
#define DW_SYMINDEX_H

#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdwfl.h>

struct dw_symindex_ent;

struct dw_symindex {
	struct dw_symindex_ent *sized;	/* st_size > 0, by start */
	size_t nr_sized;
	struct dw_symindex_ent *labels;	/* st_size 0 (assembly labels), by start */
	size_t nr_labels;
	int first_global;		/* libdwfl's: locals come before it */
	int state;			/* 0 not built, 1 built, -1 could not be */
};

const char *dw_symindex_lookup(struct dw_symindex *x, Dwfl_Module *mod, Dwarf_Addr addr,
			       GElf_Off *off, GElf_Sym *sym);
void dw_symindex_free(struct dw_symindex *x);

#endif
