/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AArch64 linker's PLT (plt_a64.c): known by its instructions, it
 * gets unwind rules although no linker writes CFI for it.
 */
#ifndef DW_SFRAME_PLT_A64_H
#define DW_SFRAME_PLT_A64_H

#include <stddef.h>
#include <linux/types.h>

/* PLT0, the lazy-binding header: 32 bytes; each stub after it: 16. */
#define DW_PLT_A64_HEADER	32
#define DW_PLT_A64_STUB		16
/* In PLT0, the push of x16 and x30 is the first instruction. */
#define DW_PLT_A64_PUSH_END	4

int dw_plt_a64_check(const __u8 *code, size_t size);

#endif
