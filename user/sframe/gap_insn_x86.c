// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 instructions the gap scan knows (see gap_insn.h): legacy prefixes
 * 0x66 and 0x2e, one REX, then a short list of one- and two-byte opcodes.
 * A store through SP or FP, or a write to SP other than push, pop,
 * add/sub $imm and mov %rbp, %rsp, makes an instruction unknown: it could
 * change the height or a saved slot in a way the scan cannot follow.
 */
#include <errno.h>
#include <string.h>

#include "sframe/gap_insn.h"

struct gap_modrm {
	unsigned int len;	/* ModRM, SIB, displacement */
	int mem;		/* a memory operand */
	int unsafe_store;	/* a memory operand based on SP or FP */
	unsigned int reg, rm;	/* with REX.R, REX.B */
};

/* The ModRM operand at @p (@n bytes left).  0, or -1 if cut short. */
static int gap_modrm(const __u8 *p, size_t n, unsigned int rex, struct gap_modrm *m)
{
	unsigned int mod, rm;

	if (!n)
		return -1;
	mod = p[0] >> 6;
	rm = p[0] & 7;
	m->reg = ((p[0] >> 3) & 7) | (rex & 4 ? 8 : 0);
	m->rm = rm | (rex & 1 ? 8 : 0);
	m->mem = mod != 3;
	m->unsafe_store = m->mem && (rm == 4 || (rm == 5 && mod != 0));
	m->len = 1;
	if (mod == 3)
		return 0;
	if (rm == 4) {
		if (n < 2)
			return -1;
		m->len++;
		if (mod == 0 && (p[1] & 7) == 5)
			m->len += 4;
	} else if (mod == 0 && rm == 5) {
		m->len += 4;			/* RIP-relative */
	}
	if (mod == 1)
		m->len += 1;
	else if (mod == 2)
		m->len += 4;
	return m->len <= n ? 0 : -1;
}

/* The effect of writing the r/m (@to_rm) or reg operand.  0, or -1 if unsafe. */
static int gap_dest(const struct gap_modrm *m, int to_rm, struct dw_gap_insn *in)
{
	unsigned int r = to_rm ? m->rm : m->reg;

	if (to_rm && m->mem)
		return m->unsafe_store ? -1 : 0;
	if (r == 4)
		return -1;			/* SP: only the forms decoded apart */
	if (r == 5)
		in->kind = GI_FP_CLOBBER;
	return 0;
}

static long long gap_imm(const __u8 *p, unsigned int size)
{
	if (size == 1)
		return (signed char)p[0];
	if (size == 2)
		return (short)(p[0] | p[1] << 8);
	return (int)((__u32)p[0] | (__u32)p[1] << 8 | (__u32)p[2] << 16 | (__u32)p[3] << 24);
}

/* Group 1 (0x80, 0x81, 0x83): add/sub on SP change the height, cmp writes nothing. */
static int gap_group1(const struct gap_modrm *m, unsigned int rex, const __u8 *imm,
		      unsigned int isz, struct dw_gap_insn *in)
{
	unsigned int op = m->reg & 7;

	if (!m->mem && m->rm == 4) {
		if (!(rex & 8) || (op != 0 && op != 5))
			return -1;
		in->kind = GI_SP_ADD;
		in->imm = op == 0 ? -gap_imm(imm, isz) : gap_imm(imm, isz);
		return 0;
	}
	return op == 7 ? 0 : gap_dest(m, 1, in);
}

/* Two-byte opcodes (0x0f xx) at @p, after the 0x0f. */
static int gap_decode_0f(const __u8 *p, size_t n, unsigned int rex, struct dw_gap_insn *in)
{
	struct gap_modrm m;
	__u8 op;

	if (!n)
		return -1;
	op = p[0];
	if (op == 0x05 || op == 0x0b) {		/* syscall; ud2 */
		in->kind = op == 0x05 ? GI_PLAIN : GI_END;
		in->len += 1;
		return 0;
	}
	if (op >= 0x80 && op <= 0x8f) {		/* jcc rel32 */
		if (n < 5)
			return -1;
		in->kind = GI_JCC;
		in->rel = gap_imm(p + 1, 4);
		in->has_rel = 1;
		in->len += 5;
		return 0;
	}
	if (gap_modrm(p + 1, n - 1, rex, &m))
		return -1;
	in->len += 1 + m.len;
	if (op == 0x1f) {			/* nop r/m: no access */
		in->kind = GI_NOP;
		return 0;
	}
	if ((op >= 0x40 && op <= 0x4f) || op == 0xaf || op == 0xb6 || op == 0xb7 ||
	    op == 0xbe || op == 0xbf)		/* cmovcc, imul, movzx, movsx: to reg */
		return gap_dest(&m, 0, in);
	if (op >= 0x90 && op <= 0x9f)		/* setcc r/m8 */
		return gap_dest(&m, 1, in);
	return -1;
}

/* Opcodes with a ModRM operand and no effect but a write to one operand. */
static int gap_decode_modrm(const __u8 *p, size_t n, unsigned int rex, int osz16,
			    struct dw_gap_insn *in)
{
	__u8 op = p[0];
	struct gap_modrm m;
	unsigned int isz = 0, sub;

	if (gap_modrm(p + 1, n - 1, rex, &m))
		return -1;
	sub = m.reg & 7;
	if (op == 0x80 || op == 0x83 || op == 0xc0 || op == 0xc1 || op == 0xc6)
		isz = 1;
	else if (op == 0x81 || op == 0xc7)
		isz = osz16 ? 2 : 4;
	else if (op == 0xf6 && sub < 2)
		isz = 1;
	else if (op == 0xf7 && sub < 2)
		isz = osz16 ? 2 : 4;
	if (1 + m.len + isz > n)
		return -1;
	in->len += 1 + m.len + isz;
	/* ALU: add, or, adc, sbb, and, sub, xor, cmp (not 00 00: zero fill) */
	if (op < 0x40 && (op & 7) < 4 && op) {
		if ((op >> 3) == 7)
			return 0;		/* cmp */
		return gap_dest(&m, !(op & 2), in);
	}
	if (op == 0x84 || op == 0x85)
		return 0;			/* test */
	if (op >= 0x88 && op <= 0x8b) {		/* mov */
		if (op == 0x89 && !m.mem && m.reg == 4 && m.rm == 5 && (rex & 8))
			in->kind = GI_SET_FP;	/* mov %rsp, %rbp */
		else if (op == 0x89 && !m.mem && m.reg == 5 && m.rm == 4 && (rex & 8))
			in->kind = GI_SP_FROM_FP;	/* mov %rbp, %rsp */
		else
			return gap_dest(&m, !(op & 2), in);
		return 0;
	}
	if (op == 0x8d || op == 0x63)		/* lea, movsxd */
		return m.mem || op == 0x63 ? gap_dest(&m, 0, in) : -1;
	if (op >= 0x80 && op <= 0x83)
		return op == 0x82 ? -1 : gap_group1(&m, rex, p + 1 + m.len, isz, in);
	if (op == 0xc6 || op == 0xc7)
		return sub ? -1 : gap_dest(&m, 1, in);
	if (op == 0xc0 || op == 0xc1 || op == 0xd0 || op == 0xd1 || op == 0xd2 || op == 0xd3)
		return sub == 6 ? -1 : gap_dest(&m, 1, in);	/* shifts, rotates */
	if (op == 0xf6 || op == 0xf7)		/* test, not, neg, mul, div */
		return sub == 1 ? -1 : sub == 2 || sub == 3 ? gap_dest(&m, 1, in) : 0;
	if (op == 0xff) {
		if (sub == 2)
			in->kind = GI_CALL;	/* call *x */
		else if (sub == 4)
			in->kind = GI_END;	/* jmp *x: out of the gap */
		else if (sub < 2)
			return gap_dest(&m, 1, in);	/* inc, dec */
		else
			return -1;
		return 0;
	}
	return -1;
}

/* One-byte opcodes without ModRM.  1 if not one of them. */
static int gap_decode_short(const __u8 *p, size_t n, unsigned int rex, int osz16,
			    struct dw_gap_insn *in)
{
	__u8 op = p[0];
	unsigned int r = (op & 7) | (rex & 1 ? 8 : 0), isz;

	if (op >= 0x50 && op <= 0x5f) {		/* push, pop */
		if (osz16 || r == 4)
			return -1;
		in->kind = r == 5 ? (op < 0x58 ? GI_PUSH_FP : GI_POP_FP) : GI_SP_ADD;
		in->imm = op < 0x58 ? 8 : -8;
		in->len += 1;
		return 0;
	}
	if (op >= 0xb8 && op <= 0xbf) {		/* mov $imm, reg */
		isz = rex & 8 ? 8 : osz16 ? 2 : 4;
		if (r == 4 || 1 + isz > n)
			return -1;
		in->kind = r == 5 ? GI_FP_CLOBBER : GI_PLAIN;
		in->len += 1 + isz;
		return 0;
	}
	if ((op >= 0x70 && op <= 0x7f) || op == 0xeb || op == 0xe9 || op == 0xe8) {
		isz = op == 0xe9 || op == 0xe8 ? 4 : 1;
		if (1 + isz > n)
			return -1;
		in->kind = op == 0xe8 ? GI_CALL : op >= 0xe9 ? GI_JMP : GI_JCC;
		in->rel = gap_imm(p + 1, isz);
		in->has_rel = op != 0xe8;
		in->len += 1 + isz;
		return 0;
	}
	switch (op) {
	case 0x90: in->kind = rex & 1 ? GI_PLAIN : GI_NOP; break;
	case 0xcc: in->kind = GI_NOP; break;
	case 0xc3: in->kind = GI_RET; break;
	case 0xc9: in->kind = GI_LEAVE; break;
	case 0xf4: in->kind = GI_END; break;
	case 0x98: case 0x99: in->kind = GI_PLAIN; break;	/* cltq, cqto */
	default: return 1;
	}
	in->len += 1;
	return 0;
}

/**
 * dw_gap_decode() - what the instruction at @p does to the stack and the flow
 * @p:		its bytes
 * @n:		bytes available
 * @in:		set
 *
 * Context: any.
 * Return: 0, or -1: not one of the instructions the scan knows.
 */
int dw_gap_decode(const __u8 *p, size_t n, struct dw_gap_insn *in)
{
	unsigned int i = 0, rex = 0;
	int osz16 = 0, ret;

	memset(in, 0, sizeof(*in));
	while (i < n && i < 4 && (p[i] == 0x66 || p[i] == 0x2e)) {
		osz16 |= p[i] == 0x66;
		i++;
	}
	if (i + 4 <= n && p[i] == 0xf3 && p[i + 1] == 0x0f && p[i + 2] == 0x1e && p[i + 3] == 0xfa) {
		in->len = i + 4;		/* endbr64 */
		in->kind = GI_PLAIN;
		return 0;
	}
	if (i < n && (p[i] & 0xf0) == 0x40)
		rex = p[i++];
	if (i >= n)
		return -1;
	in->len = i;
	if (p[i] == 0x0f) {
		in->len = i + 1;
		return gap_decode_0f(p + i + 1, n - i - 1, rex, in);
	}
	ret = gap_decode_short(p + i, n - i, rex, osz16, in);
	if (ret <= 0)
		return ret;
	return gap_decode_modrm(p + i, n - i, rex, osz16, in);
}

/**
 * dw_gap_insn_len() - the length of a known instruction
 * @p:		its bytes
 * @n:		bytes available
 * @nop:	set: it is padding (nop, int3); may be NULL
 *
 * Context: any.
 * Return: its length, or -ENOENT if it is none the scan knows.
 */
int dw_gap_insn_len(const __u8 *p, size_t n, int *nop)
{
	struct dw_gap_insn in;

	if (dw_gap_decode(p, n, &in))
		return -ENOENT;
	if (nop)
		*nop = in.kind == GI_NOP;
	return (int)in.len;
}

