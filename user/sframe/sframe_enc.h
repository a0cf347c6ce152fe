/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * SFrame encoder (user space only): writes v1, v2 (with or without
 * FDE_FUNC_START_PCREL) and v3 sections from decoded rows, for tests, the
 * fuzz corpus and `dunwind sframe encode`.
 */
#ifndef DW_SFRAME_ENC_H
#define DW_SFRAME_ENC_H

#include <stddef.h>
#include "sframe.h"

/*
 * One row: from @pc_off (offset from the function start, or in the block for
 * PC_MASK functions) until the next row.  @ra_undef marks an outermost
 * frame (no rules).  Rules use struct dunwind_sframe_rule as decoded: rows
 * that v1/v2 or a v3 default FDE cannot express need a v3 flex FDE.
 * AArch64 (dw_sframe_enc_opts.abi): registers by their DWARF numbers (31
 * SP, 29 FP), the RA either saved (RULE_CFA deref) or still in x30
 * (RULE_REG 30, no deref, off 0); @ra_mangled sets the FRE's mangled-RA
 * bit (signed by paciasp, DW_CFA_AARCH64_negate_ra_state).
 */
struct dw_sframe_enc_row {
	__u32 pc_off;
	int ra_undef;
	struct dunwind_sframe_rule cfa;
	struct dunwind_sframe_rule ra;
	struct dunwind_sframe_rule fp;
	/*
	 * dunwind's %rbx extension (DUNWIND_SFRAME_EXT_RBX, v3 flex only):
	 * @rbx RULE_CFA deref (saved at CFA + off), or @rbx_lost; neither
	 * writes no item (for an EXT_RBX reader: %rbx unchanged).
	 */
	struct dunwind_sframe_rule rbx;
	int rbx_lost;
	int ra_mangled;
};

struct dw_sframe_enc_func {
	__u64 start;			/* run-time address */
	__u32 size;
	__u8 pc_type;			/* DUNWIND_SFRAME_PC_INC or _MASK */
	__u8 rep_size;			/* PC_MASK block size (v2, v3) */
	__u8 signal;			/* v3 signal frame */
	__u32 nrows;
	const struct dw_sframe_enc_row *rows;
};

struct dw_sframe_enc_opts {
	__u8 version;			/* 1, 2, 3 */
	__u8 flags;			/* DUNWIND_SFRAME_F_*, written as given */
	__u8 abi;			/* 0 means AMD64 LE; or AARCH64 LE */
	__s8 fixed_fp;			/* header field, usually 0 */
	__s8 fixed_ra;			/* header field, 0 means -8 (AMD64) or tracked */
	__u8 auxhdr_len;		/* zero bytes of auxiliary header */
	__u8 min_word_size;		/* 0, 1, 2, 4: force wider data words */
	__u8 min_fre_type;		/* 0, 1, 2: force wider FRE start fields */
	__u64 sec_vaddr;		/* where the section will be mapped */
};

int dw_sframe_encode(const struct dw_sframe_enc_opts *o, const struct dw_sframe_enc_func *funcs,
		     __u32 nfuncs, __u8 **out, size_t *out_len);

#endif /* DW_SFRAME_ENC_H */
