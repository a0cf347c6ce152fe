// SPDX-License-Identifier: GPL-2.0
/* One PC's DWARF CFI as an SFrame rule: see cfi_rule.h. */
#include <stdint.h>
#include <string.h>

#include "sframe.h"
#include "sframe/cfi_rule.h"
#include "sframe/sframe_gen.h"

/* DWARF operations libdw uses to describe CFI rules. */
#define CFI_OP_PLUS_UCONST	0x23
#define CFI_OP_BREGX		0x92
#define CFI_OP_CALL_FRAME_CFA	0x9c
#define CFI_OP_STACK_VALUE	0x9f

/* Signed view of a DWARF operand that libdw stores unsigned. */
static __s64 cfi_s64(Dwarf_Word v)
{
	return (__s64)v;
}

static int cfi_fits32(__s64 v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/*
 * "Where a register is saved" from dwarf_frame_register(): 1 and *off for
 * offset(N) (stored at CFA + N), 0 for anything else.
 */
static int cfi_offset_rule(const Dwarf_Op *ops, size_t nops, __s64 *off)
{
	if (!ops || nops < 1 || nops > 2 || ops[0].atom != CFI_OP_CALL_FRAME_CFA)
		return 0;
	if (nops == 1) {
		*off = 0;
		return 1;
	}
	if (ops[1].atom != CFI_OP_PLUS_UCONST)
		return 0;
	*off = cfi_s64(ops[1].number);
	return 1;
}

/* Is the caller's SP the CFA (val_offset(0), the x86-64 ABI default)? */
static int cfi_sp_is_cfa(const Dwarf_Op *ops, size_t nops)
{
	if (!ops || nops < 2 || nops > 3 || ops[0].atom != CFI_OP_CALL_FRAME_CFA ||
	    ops[nops - 1].atom != CFI_OP_STACK_VALUE)
		return 0;
	return nops == 2 || (ops[1].atom == CFI_OP_PLUS_UCONST && ops[1].number == 0);
}

/*
 * The CFA of x86-64 lazy PLT entries (binutils): SP + K while the PC is in
 * the first N bytes of its 16-byte entry, SP + K + 8 after the push:
 *   DW_OP_breg7 K; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and; DW_OP_litN;
 *   DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus
 * SFrame says the same with a PC-mask FDE of 16-byte blocks.
 */
static int cfi_plt_cfa(const Dwarf_Op *ops, size_t nops, __s32 *k, __u32 *thr)
{
	static const __u8 want[9] = { 0x77, 0x80, 0x3f, 0x1a, 0, 0x2a, 0x33, 0x24, 0x22 };
	size_t i;

	if (nops != 9)
		return 0;
	for (i = 0; i < 9; i++)
		if (i != 4 && ops[i].atom != want[i])
			return 0;
	if (ops[4].atom < 0x30 || ops[4].atom > 0x3f || ops[1].number ||
	    !cfi_fits32(cfi_s64(ops[0].number)) || cfi_s64(ops[0].number) > INT32_MAX - 8)
		return 0;
	*k = (__s32)cfi_s64(ops[0].number);
	*thr = (__u32)(ops[4].atom - 0x30);
	return 1;
}

/*
 * Where the caller's %rbx is: unchanged, saved at CFA + N, or anything
 * else (in another register, an expression): lost.  "Undefined" is what
 * libdw says for a callee-saved register the CFI never names (it applies
 * no ABI default), so it means unchanged, as for FP, and as libgcc's
 * unwinder keeps such a register's value.
 */
static void cfi_rbx(Dwarf_Frame *f, struct dw_cfi_rule *r)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	__s64 off;

	if (dwarf_frame_register(f, CFI_REG_BX, mem, &ops, &nops)) {
		r->rbx_lost = 1;
		return;
	}
	if (nops == 0)
		return;
	if (!cfi_offset_rule(ops, nops, &off) || !cfi_fits32(off)) {
		r->rbx_lost = 1;
		return;
	}
	r->rbx_saved = 1;
	r->rbx_off = (__s32)off;
}

/**
 * dw_cfi_classify() - what one PC's CFI means for an SFrame row
 * @f:		libdw's frame for the PC
 * @ra_reg:	the return address column
 * @signal:	the FDE is a signal frame's
 * @r:		set: the rule, or in @r->why the reason SFrame cannot express it
 *
 * Context: user space.
 */
void dw_cfi_classify(Dwarf_Frame *f, int ra_reg, bool signal, struct dw_cfi_rule *r)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	__s64 off;

	memset(r, 0, sizeof(*r));
	r->why = -1;
	if (signal) {
		r->why = DW_SFRAME_GEN_SIGNAL;
		return;
	}
	if (ra_reg != CFI_REG_RA) {
		r->why = DW_SFRAME_GEN_RA;
		return;
	}
	if (dwarf_frame_register(f, CFI_REG_RA, mem, &ops, &nops)) {
		r->why = DW_SFRAME_GEN_BAD_CFI;
		return;
	}
	if (nops == 0 && ops == mem) {
		/* RA undefined: the outermost frame (_start, thread start). */
		r->outermost = 1;
		return;
	}
	if (!cfi_offset_rule(ops, nops, &off) || off != -8) {
		r->why = DW_SFRAME_GEN_RA;
		return;
	}
	if (dwarf_frame_cfa(f, &ops, &nops)) {
		r->why = DW_SFRAME_GEN_BAD_CFI;
		return;
	}
	if (cfi_plt_cfa(ops, nops, &r->cfa_off, &r->plt_thr)) {
		r->plt = 1;
		r->cfa_reg = CFI_REG_SP;
	} else if (nops != 1 || ops[0].atom != CFI_OP_BREGX) {
		r->why = DW_SFRAME_GEN_CFA_EXPR;
		return;
	} else if (ops[0].number != CFI_REG_SP && ops[0].number != CFI_REG_FP &&
		   ops[0].number != CFI_REG_BX) {
		r->why = DW_SFRAME_GEN_CFA_REG;
		return;
	} else if (!cfi_fits32(cfi_s64(ops[0].number2))) {
		r->why = DW_SFRAME_GEN_RANGE;
		return;
	} else {
		r->cfa_reg = (__u8)ops[0].number;
		r->cfa_off = (__s32)cfi_s64(ops[0].number2);
	}
	if (dwarf_frame_register(f, CFI_REG_SP, mem, &ops, &nops)) {
		r->why = DW_SFRAME_GEN_BAD_CFI;
		return;
	}
	if (!cfi_sp_is_cfa(ops, nops)) {
		r->why = DW_SFRAME_GEN_SP;
		return;
	}
	cfi_rbx(f, r);
	if (dwarf_frame_register(f, CFI_REG_FP, mem, &ops, &nops)) {
		r->why = DW_SFRAME_GEN_BAD_CFI;
		return;
	}
	if (nops == 0) {
		/* same_value (ops NULL) or undefined (ops == mem): not saved. */
		r->fp_undef = ops == mem;
		return;
	}
	if (!cfi_offset_rule(ops, nops, &off)) {
		r->why = DW_SFRAME_GEN_FP;
		return;
	}
	if (!cfi_fits32(off)) {
		r->why = DW_SFRAME_GEN_RANGE;
		return;
	}
	r->fp_saved = 1;
	r->fp_off = (__s32)off;
}

/*
 * An AArch64 CFA: x31 (SP) or x29 plus an offset.  Return: -1, or the
 * reason (enum dw_sframe_gen_why) SFrame cannot say it.
 */
static int cfi_a64_cfa(Dwarf_Frame *f, struct dw_cfi_rule *r)
{
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_frame_cfa(f, &ops, &nops))
		return DW_SFRAME_GEN_BAD_CFI;
	if (nops != 1 || ops[0].atom != CFI_OP_BREGX)
		return DW_SFRAME_GEN_CFA_EXPR;
	if (ops[0].number != CFI_A64_REG_SP && ops[0].number != CFI_A64_REG_FP)
		return DW_SFRAME_GEN_CFA_REG;
	if (!cfi_fits32(cfi_s64(ops[0].number2)))
		return DW_SFRAME_GEN_RANGE;
	r->cfa_reg = (__u8)ops[0].number;
	r->cfa_off = (__s32)cfi_s64(ops[0].number2);
	return -1;
}

/*
 * Where a register (x30, x29) is: undefined (*@undef), in itself (libdw's
 * "same value": *@saved 0) or saved at CFA + *@off (*@saved 1).  Return:
 * -1, or @why (or another reason) when SFrame cannot say it.
 */
static int cfi_a64_reg(Dwarf_Frame *f, int reg, int why, int *undef, int *saved, __s32 *off)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	__s64 o;

	*undef = 0;
	*saved = 0;
	if (dwarf_frame_register(f, reg, mem, &ops, &nops))
		return DW_SFRAME_GEN_BAD_CFI;
	if (nops == 0) {
		*undef = ops == mem;
		return -1;
	}
	if (!cfi_offset_rule(ops, nops, &o) || !o)
		return why;
	if (!cfi_fits32(o))
		return DW_SFRAME_GEN_RANGE;
	*saved = 1;
	*off = (__s32)o;
	return -1;
}

/*
 * The caller's SP is the CFA, and a function keeps its slots below it: a
 * slot at CFA + k, k >= 0, lies in a push made after the call, by a
 * trampoline that branched here (PLT0: "stp x16, x30, [sp, #-16]!").  The
 * caller's SP is then above that push, which AAPCS64's 16-byte SP
 * alignment makes ALIGN(k + 8, 16) long: the CFA moves up by it, the slots
 * keep their addresses.  Return: -1, or the reason SFrame cannot say it.
 */
static int cfi_a64_above(struct dw_cfi_rule *r)
{
	__s64 top = -8, delta;

	if (!r->ra_in_lr && r->ra_off > top)
		top = r->ra_off;
	if (r->fp_saved && r->fp_off > top)
		top = r->fp_off;
	if (top < 0)
		return -1;
	delta = (top + 8 + 15) & ~(__s64)15;
	if (!cfi_fits32((__s64)r->cfa_off + delta))
		return DW_SFRAME_GEN_RANGE;
	r->cfa_off += (__s32)delta;
	if (!r->ra_in_lr)
		r->ra_off -= (__s32)delta;
	if (r->fp_saved)
		r->fp_off -= (__s32)delta;
	return -1;
}

/**
 * dw_cfi_classify_a64() - dw_cfi_classify() for AArch64's CFI
 * @f, @ra_reg, @signal, @r: as for dw_cfi_classify(); the RA column is x30.
 *
 * x30 undefined is the outermost frame; x30 with no rule (libdw: the same
 * value) has the RA still in x30.  As binutils' --gsframe, a row with x29
 * saved but x30 not is not said (an SFrame default FRE cannot skip the
 * RA).  DW_CFA_AARCH64_negate_ra_state leaves no trace: libdw does not
 * say it, and the walk strips every RA's PAC.
 *
 * A slot at or above the CFA (cfi_a64_above()) was pushed between the call
 * and the code, as glibc's lazy PLT0 pushes x16 and x30 before it branches
 * to _dl_runtime_resolve, whose CFI keeps CFA = SP at its entry: the CFA is
 * raised past the push.
 *
 * Context: user space.
 */
void dw_cfi_classify_a64(Dwarf_Frame *f, int ra_reg, bool signal, struct dw_cfi_rule *r)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	int undef, saved;

	memset(r, 0, sizeof(*r));
	if (signal || ra_reg != CFI_A64_REG_LR) {
		r->why = signal ? DW_SFRAME_GEN_SIGNAL : DW_SFRAME_GEN_RA;
		return;
	}
	r->why = cfi_a64_reg(f, CFI_A64_REG_LR, DW_SFRAME_GEN_RA, &undef, &saved, &r->ra_off);
	if (r->why >= 0)
		return;
	if (undef) {
		r->outermost = 1;	/* _start, a thread's start */
		return;
	}
	r->ra_in_lr = !saved;
	r->why = cfi_a64_cfa(f, r);
	if (r->why >= 0)
		return;
	if (dwarf_frame_register(f, CFI_A64_REG_SP, mem, &ops, &nops)) {
		r->why = DW_SFRAME_GEN_BAD_CFI;
		return;
	}
	if (!cfi_sp_is_cfa(ops, nops)) {
		r->why = DW_SFRAME_GEN_SP;
		return;
	}
	r->why = cfi_a64_reg(f, CFI_A64_REG_FP, DW_SFRAME_GEN_FP, &r->fp_undef, &r->fp_saved,
			     &r->fp_off);
	if (r->why < 0 && r->fp_saved && r->ra_in_lr)
		r->why = DW_SFRAME_GEN_FP;
	if (r->why < 0)
		r->why = cfi_a64_above(r);
}

/**
 * dw_cfi_no_rbx() - @r for a table without the %rbx extension: nothing
 * said about %rbx, and a CFA based on it is not expressible
 * @r:		a classified rule
 *
 * Context: any.
 */
void dw_cfi_no_rbx(struct dw_cfi_rule *r)
{
	if (r->why < 0 && !r->outermost && r->cfa_reg == CFI_REG_BX)
		r->why = DW_SFRAME_GEN_CFA_REG;
	r->rbx_saved = 0;
	r->rbx_off = 0;
	r->rbx_lost = 0;
}

/**
 * dw_cfi_enc_row() - an expressible rule as an encoder row
 * @g:		the rule (@g->why == -1)
 * @pc_off:	the row's start within its function
 * @e:		set
 *
 * Context: any.
 */
void dw_cfi_enc_row(const struct dw_cfi_rule *g, __u32 pc_off, struct dw_sframe_enc_row *e)
{
	memset(e, 0, sizeof(*e));
	e->pc_off = pc_off;
	if (g->outermost) {
		e->ra_undef = 1;
		return;
	}
	e->cfa.kind = DUNWIND_SFRAME_RULE_REG;
	e->cfa.reg = g->cfa_reg;
	e->cfa.off = g->cfa_off;
	e->ra.kind = DUNWIND_SFRAME_RULE_CFA;
	e->ra.deref = 1;
	e->ra.off = g->ra_off ? g->ra_off : -8;
	if (g->ra_in_lr) {
		e->ra.kind = DUNWIND_SFRAME_RULE_REG;
		e->ra.reg = CFI_A64_REG_LR;
		e->ra.deref = 0;
		e->ra.off = 0;
	}
	if (g->fp_saved) {
		e->fp.kind = DUNWIND_SFRAME_RULE_CFA;
		e->fp.deref = 1;
		e->fp.off = g->fp_off;
	}
	e->rbx_lost = g->rbx_lost;
	if (g->rbx_saved) {
		e->rbx.kind = DUNWIND_SFRAME_RULE_CFA;
		e->rbx.deref = 1;
		e->rbx.off = g->rbx_off;
	}
}
