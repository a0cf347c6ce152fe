/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* arm64 (lib/arch.h): ELF's EM_AARCH64, SFrame's AArch64 little-endian ABI and its registers. */
#ifndef DUNWIND_LIB_ARCH_ARM64_H
#define DUNWIND_LIB_ARCH_ARM64_H

#define DUNWIND_ARCH_ELF_MACHINE	183	/* EM_AARCH64 */
#define DUNWIND_ARCH_SFRAME_ABI		2	/* DUNWIND_SFRAME_ABI_AARCH64_LE */
/* The DWARF numbers of SP, FP and the walk's aux register (x30, the RA until saved). */
#define DUNWIND_ARCH_SFRAME_REG_SP	31	/* DUNWIND_SFRAME_A64_REG_SP */
#define DUNWIND_ARCH_SFRAME_REG_FP	29	/* DUNWIND_SFRAME_A64_REG_FP */
#define DUNWIND_ARCH_SFRAME_REG_AUX	30	/* DUNWIND_SFRAME_A64_REG_LR */

#endif /* DUNWIND_LIB_ARCH_ARM64_H */
