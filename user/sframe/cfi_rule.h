/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One PC's DWARF CFI as an SFrame rule (AMD64): the CFA as SP, FP (or, for
 * the %rbx extension, %rbx) plus an offset, the RA at CFA-8, FP saved at an
 * offset or not, where %rbx is, the lazy PLT pattern, the outermost frame;
 * or the reason SFrame cannot say it.  AArch64 (dw_cfi_classify_a64()):
 * the CFA as SP (31) or x29 plus an offset, the RA (x30) saved at an offset
 * or still in x30, x29 saved at an offset or not.  Used
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
#define CFI_A64_REG_FP	29
#define CFI_A64_REG_LR	30
#define CFI_A64_REG_SP	31

/* The SFrame meaning of one PC, or why there is none. */
struct dw_cfi_rule {
	int why;		/* -1: expressible; else enum dw_sframe_gen_why */
	int outermost;		/* RA undefined */
	int fp_undef;		/* CFI says FP undefined; emitted as not saved */
	__u8 cfa_reg;
	__s32 cfa_off;
	int ra_in_lr;		/* AArch64: the RA still in x30 */
	__s32 ra_off;		/* AArch64: RA saved at CFA + ra_off; 0: AMD64's CFA - 8 */
	int fp_saved;
	__s32 fp_off;
	int plt;		/* lazy PLT: CFA = SP + cfa_off (+ 8 from plt_thr on) */
	__u32 plt_thr;
	int rbx_saved;		/* %rbx saved at CFA + rbx_off */
	__s32 rbx_off;
	int rbx_lost;		/* %rbx neither unchanged nor saved at an offset */
};

void dw_cfi_classify(Dwarf_Frame *f, int ra_reg, bool signal, struct dw_cfi_rule *r);
void dw_cfi_classify_a64(Dwarf_Frame *f, int ra_reg, bool signal, struct dw_cfi_rule *r);
void dw_cfi_no_rbx(struct dw_cfi_rule *r);
void dw_cfi_enc_row(const struct dw_cfi_rule *g, __u32 pc_off, struct dw_sframe_enc_row *e);

#endif
