/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* x86_64 (lib/arch.h): ELF's EM_X86_64, SFrame's AMD64 little-endian ABI and its registers. */
#ifndef DUNWIND_LIB_ARCH_X86_H
#define DUNWIND_LIB_ARCH_X86_H

#define DUNWIND_ARCH_ELF_MACHINE	62	/* EM_X86_64 */
#define DUNWIND_ARCH_SFRAME_ABI		3	/* DUNWIND_SFRAME_ABI_AMD64_LE */
/* The DWARF numbers of SP, FP and the walk's aux register (%rbx). */
#define DUNWIND_ARCH_SFRAME_REG_SP	7	/* DUNWIND_SFRAME_REG_SP */
#define DUNWIND_ARCH_SFRAME_REG_FP	6	/* DUNWIND_SFRAME_REG_FP */
#define DUNWIND_ARCH_SFRAME_REG_AUX	3	/* DUNWIND_SFRAME_REG_BX */

#endif /* DUNWIND_LIB_ARCH_X86_H */
