/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86-64 instructions the gap scan (gap_scan.c) knows: their length
 * and what each does to SP, to FP's save slot and to control flow.  A
 * short list of what glue code without CFI uses; anything else is unknown.
 * The decoder is the architecture's: gap_insn_x86.c.
 */
#ifndef DW_SFRAME_GAP_INSN_H
#define DW_SFRAME_GAP_INSN_H

#include <stddef.h>
#include <linux/types.h>

/* What an instruction does to the stack and to control flow. */
enum dw_gap_kind {
	GI_PLAIN,		/* no effect on SP, FP's save slot or flow */
	GI_NOP,			/* padding: nop, int3 */
	GI_SP_ADD,		/* SP += imm (add/sub $imm, %rsp, push, pop) */
	GI_PUSH_FP,
	GI_POP_FP,
	GI_SET_FP,		/* mov %rsp, %rbp */
	GI_FP_CLOBBER,		/* another write to rbp */
	GI_SP_FROM_FP,		/* mov %rbp, %rsp */
	GI_LEAVE,
	GI_JCC,			/* to @target or on */
	GI_JMP,			/* to @target (or out of the gap) */
	GI_CALL,		/* returns after it */
	GI_RET,
	GI_END,			/* hlt, ud2, jmp *x: no next instruction here */
};

struct dw_gap_insn {
	unsigned int len;
	enum dw_gap_kind kind;
	long long imm;		/* GI_SP_ADD: the change of SP */
	long long rel;		/* GI_JCC, GI_JMP: target = next + rel */
	int has_rel;
};

int dw_gap_decode(const __u8 *p, size_t n, struct dw_gap_insn *in);
int dw_gap_insn_len(const __u8 *p, size_t n, int *nop);

#endif /* DW_SFRAME_GAP_INSN_H */
