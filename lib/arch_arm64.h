/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* arm64 (lib/arch.h): ELF's EM_AARCH64 and SFrame's AArch64 little-endian ABI. */
#ifndef DUNWIND_LIB_ARCH_ARM64_H
#define DUNWIND_LIB_ARCH_ARM64_H

#define DUNWIND_ARCH_ELF_MACHINE	183	/* EM_AARCH64 */
#define DUNWIND_ARCH_SFRAME_ABI		2	/* DUNWIND_SFRAME_ABI_AARCH64_LE */

#endif /* DUNWIND_LIB_ARCH_ARM64_H */
