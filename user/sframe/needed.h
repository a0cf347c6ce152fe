/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files a program maps before its first instruction runs: its
 * interpreter (PT_INTERP) and the DT_NEEDED closure of its libraries,
 * found where the loader would look.  The recorder registers SFrame
 * tables for them before it starts a command, so that no sample in them
 * comes before their table.
 */
#ifndef DW_SFRAME_NEEDED_H
#define DW_SFRAME_NEEDED_H

#include <stddef.h>

/*
 * struct dw_needed - a program and what it needs, breadth first.
 * @paths:	malloc()ed absolute paths; [0] is the program itself.
 * @n:		how many.
 */
struct dw_needed {
	char **paths;
	size_t n, cap;
};

/*
 * dw_needed_closure() - @program, its interpreter and its DT_NEEDED closure
 * @program:	path of an x86-64 ELF executable or library
 * @out:	zeroed by the caller; filled, freed with dw_needed_free()
 *
 * Libraries are searched like glibc's loader does: DT_RPATH (when there
 * is no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH, the directories of
 * /etc/ld.so.conf (and what it includes), then the default ones; $ORIGIN
 * is expanded.  A library not found is left out.  At most 512 files.
 * Return: 0; -ENOEXEC if @program is not an x86-64 ELF file; -ENOENT;
 * -ENOMEM (@out holds what was found until then).
 */
int dw_needed_closure(const char *program, struct dw_needed *out);
void dw_needed_free(struct dw_needed *n);

#endif /* DW_SFRAME_NEEDED_H */
