/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One PC's DWARF CFI as an SFrame rule (AMD64): the CFA as SP, FP (or, for
 * the %rbx extension, %rbx) plus an offset, the RA at CFA-8, FP saved at an
 * offset or not, where %rbx is, the lazy PLT pattern, the outermost frame;
 * or the reason SFrame cannot say it.  Used
 * by the generator (sframe_gen.c) for every PC range of the CFI.
 */
#ifndef DW_SFRAME_CFI_RULE_H
#define DW_SFRAME_CFI_RULE_H

#include <stdbool.h>
#include <elfutils/libdw.h>
#include <linux/types.h>

#include "sframe/sframe_enc.h"

#define CFI_REG_BX	3
#define CFI_REG_FP	6
#define CFI_REG_SP	7
#define CFI_REG_RA	16

/* The SFrame meaning of one PC, or why there is none. */
struct dw_cfi_rule {
	int why;		/* -1: expressible; else enum dw_sframe_gen_why */
	int outermost;		/* RA undefined */
	int fp_undef;		/* CFI says FP undefined; emitted as not saved */
	__u8 cfa_reg;
	__s32 cfa_off;
	int fp_saved;
	__s32 fp_off;
	int plt;		/* lazy PLT: CFA = SP + cfa_off (+ 8 from plt_thr on) */
	__u32 plt_thr;
	int rbx_saved;		/* %rbx saved at CFA + rbx_off */
	__s32 rbx_off;
	int rbx_lost;		/* %rbx neither unchanged nor saved at an offset */
};

void dw_cfi_classify(Dwarf_Frame *f, int ra_reg, bool signal, struct dw_cfi_rule *r);
void dw_cfi_no_rbx(struct dw_cfi_rule *r);
void dw_cfi_enc_row(const struct dw_cfi_rule *g, __u32 pc_off, struct dw_sframe_enc_row *e);

#endif
