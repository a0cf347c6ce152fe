/* SPDX-License-Identifier: GPL-2.0 */
/* libelf helpers user space shares (the module's reader is lib/elfread.c). */
#ifndef DW_UTIL_ELF_H
#define DW_UTIL_ELF_H

#include <gelf.h>

Elf_Scn *dw_elf_section(Elf *elf, const char *name, GElf_Shdr *sh);

#endif
