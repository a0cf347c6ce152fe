/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unwind rules for x86-64 code the CFI leaves out, read from the code
 * itself: every path from an entry is followed instruction by instruction
 * while each instruction is one whose effect on SP, on the saved FP and on
 * the return address slot is known (a small list: see gap_scan.c), so that
 * the CFA is SP plus a known height at each of them.  Anything else (an
 * unknown instruction, two heights at one instruction, a ret off the
 * return address) and nothing is said for the code: the generator
 * (sframe_gen.c) leaves it uncovered, as before.
 */
#ifndef DW_SFRAME_GAP_SCAN_H
#define DW_SFRAME_GAP_SCAN_H

#include <stddef.h>
#include <linux/types.h>

#include "sframe/cfi_rule.h"

/* One instruction's rule: [lo, hi), CFA = SP + @rule.cfa_off. */
struct dw_gap_row {
	__u64 lo, hi;
	struct dw_cfi_rule rule;
};

/* A gap's scan: malloc'ed @rows by address (free with dw_gap_scan_free()). */
struct dw_gap_scan {
	struct dw_gap_row *rows;
	size_t nrows;
};

int dw_gap_scan(const __u8 *code, __u64 lo, __u64 hi, int entry,
		struct dw_gap_scan *out);
void dw_gap_scan_free(struct dw_gap_scan *s);

#endif /* DW_SFRAME_GAP_SCAN_H */
