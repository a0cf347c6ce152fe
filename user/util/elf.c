// SPDX-License-Identifier: GPL-2.0
/* libelf helpers: see elf.h. */
#include <string.h>

#include "util/elf.h"

/**
 * dw_elf_section() - an ELF file's section by name
 * @elf:	the file
 * @name:	".text", ".sframe", ...
 * @sh:		set to its header
 *
 * Context: user space.
 * Return: the section, or NULL if there is none of that name.
 */
Elf_Scn *dw_elf_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *n;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}
