/* SPDX-License-Identifier: GPL-2.0 */
/*
 * .eh_frame_hdr: where it is in an ELF file and the sorted function starts
 * of its binary-search table (every DWARF FDE's start), which the SFrame
 * generator uses to split code into functions.
 */
#ifndef DW_EHFRAME_HDR_H
#define DW_EHFRAME_HDR_H

#include <gelf.h>
#include <stddef.h>
#include <linux/types.h>

#define EHFRAME_HDR_MAX_STARTS	(1u << 24)

int dw_ehframe_hdr_find(Elf *elf, const __u8 **b, size_t *len, __u64 *vaddr);
int dw_ehframe_hdr_starts(const __u8 *b, size_t len, __u64 hdr_vaddr, __u64 **starts,
			  size_t *n);

#endif
