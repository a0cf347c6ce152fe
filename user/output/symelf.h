/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small ELF file that holds only names: a .symtab of functions and a
 * GNU build-id note, for perf's build-id directory (perfdata_debug.c).
 */
#ifndef DW_SYMELF_H
#define DW_SYMELF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dw_symelf_func {
	uint64_t addr;		/* its start, as perf looks it up (a file offset) */
	uint64_t size;		/* > 0 */
	const char *name;
};

int dw_symelf_write(FILE *f, const unsigned char *build_id, size_t build_id_size,
		    const struct dw_symelf_func *funcs, size_t nr);

#endif
