/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* x86_64 (lib/arch.h): ELF's EM_X86_64 and SFrame's AMD64 little-endian ABI. */
#ifndef DUNWIND_LIB_ARCH_X86_H
#define DUNWIND_LIB_ARCH_X86_H

#define DUNWIND_ARCH_ELF_MACHINE	62	/* EM_X86_64 */
#define DUNWIND_ARCH_SFRAME_ABI		3	/* DUNWIND_SFRAME_ABI_AMD64_LE */

#endif /* DUNWIND_LIB_ARCH_X86_H */
