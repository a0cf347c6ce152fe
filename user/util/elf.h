/* SPDX-License-Identifier: GPL-2.0 */
/* libelf helpers user space shares (the module's reader is lib/elfread.c). */
#ifndef DW_UTIL_ELF_H
#define DW_UTIL_ELF_H

#include <stddef.h>
#include <gelf.h>
#include <linux/types.h>

/* An address range [lo, hi). */
struct dw_elf_range {
	__u64 lo, hi;
};

/* The bytes of the executable segment read last, at [lo, hi). */
struct dw_elf_seg {
	const __u8 *bytes;
	__u64 lo, hi;
};

Elf_Scn *dw_elf_section(Elf *elf, const char *name, GElf_Shdr *sh);
int dw_elf_exec_ranges(Elf *elf, struct dw_elf_range *rg, size_t max, size_t *n, __u64 *base);
const __u8 *dw_elf_exec_bytes(Elf *elf, __u64 lo, __u64 hi, struct dw_elf_seg *seg);

#endif
