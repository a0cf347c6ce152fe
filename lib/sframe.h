/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * SFrame (.sframe, PT_GNU_SFRAME) decoder shared by the kernel module and
 * user space.  Versions 1, 2 (with and without FDE_FUNC_START_PCREL) and 3
 * (default and flex FDEs), AMD64 little-endian only.
 *
 * Pure C: only <linux/types.h> types, no libc or kernel calls, no malloc,
 * no floating point, no division, every loop bounded by counts that were
 * checked against the section size.  Every byte of the table is read
 * through the caller's read callback, which may fail (user memory).
 * Documentation/sframe.rst describes the format and what is validated.
 */
#ifndef DUNWIND_LIB_SFRAME_H
#define DUNWIND_LIB_SFRAME_H

#include <linux/types.h>

/* Error codes, returned negated.  Same numbers as Linux errno. */
#define DUNWIND_SFRAME_ENOENT		2	/* no FDE/FRE covers the PC */
#define DUNWIND_SFRAME_EFAULT		14	/* read callback failed, or out of bounds */
#define DUNWIND_SFRAME_EINVAL		22	/* malformed table */
#define DUNWIND_SFRAME_EOPNOTSUPP	95	/* well-formed but not AMD64 LE / unknown version */

/* On-disk constants (binutils include/sframe.h). */
#define DUNWIND_SFRAME_MAGIC		0xdee2
/* The ELF program header of a loaded .sframe (binutils' PT_GNU_SFRAME). */
#define DUNWIND_SFRAME_PT_GNU		0x6474e554

#define DUNWIND_SFRAME_V1		1
#define DUNWIND_SFRAME_V2		2
#define DUNWIND_SFRAME_V3		3

#define DUNWIND_SFRAME_F_FDE_SORTED		0x1
#define DUNWIND_SFRAME_F_FRAME_POINTER		0x2	/* v1, v2 only */
#define DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL	0x4	/* v2 (binutils 2.45), v3 */

#define DUNWIND_SFRAME_ABI_AARCH64_BE	1
#define DUNWIND_SFRAME_ABI_AARCH64_LE	2
#define DUNWIND_SFRAME_ABI_AMD64_LE	3
#define DUNWIND_SFRAME_ABI_S390X_BE	4

#define DUNWIND_SFRAME_HDR_SIZE		28	/* without the auxiliary header */
#define DUNWIND_SFRAME_FDE_V1_SIZE	17
#define DUNWIND_SFRAME_FDE_V2_SIZE	20
#define DUNWIND_SFRAME_FDE_V3_SIZE	16	/* v3 FDE index entry */
#define DUNWIND_SFRAME_ATTR_V3_SIZE	5	/* v3 FDE attributes, before the FREs */

#define DUNWIND_SFRAME_PC_INC		0	/* FRE start: offset from function start */
#define DUNWIND_SFRAME_PC_MASK		1	/* FRE start: offset in a repeated block */
#define DUNWIND_SFRAME_FDE_DEFAULT	0	/* v3 info2 FDE type */
#define DUNWIND_SFRAME_FDE_FLEX		1
/* v1 has no repetition size field: AMD64 pltN entries are 16 bytes. */
#define DUNWIND_SFRAME_V1_REP_SIZE	16

#define DUNWIND_SFRAME_MAX_WORDS	15	/* 4-bit count in the FRE info byte */
/*
 * FREs one FDE may have: bounds the scan of a lookup.  Real functions have
 * a few dozen; a table claiming more is treated as malformed.
 */
#define DUNWIND_SFRAME_MAX_FDE_FRES	4096

/* DWARF register numbers (AMD64) used in rules. */
#define DUNWIND_SFRAME_REG_FP		6	/* %rbp */
#define DUNWIND_SFRAME_REG_SP		7	/* %rsp */

/*
 * struct dunwind_sframe_src - where the section bytes come from.
 * @read:	copy @len bytes at section offset @off into @dst; return 0 or a
 *		negative code (the decoder passes it up).  The decoder only asks
 *		for ranges inside [0, @size), at most 64 bytes at a time.
 * @ctx:	passed to @read.
 * @size:	section size in bytes.
 */
struct dunwind_sframe_src {
	int (*read)(void *ctx, __u64 off, void *dst, __u32 len);
	void *ctx;
	__u64 size;
};

/*
 * struct dunwind_sframe_table - an opened section (filled by _open()).
 * Offsets are from the start of the section.  Read-only after _open().
 */
struct dunwind_sframe_table {
	struct dunwind_sframe_src src;
	__u64 sec_vaddr;	/* run-time address of the section's first byte */
	__u8 version;
	__u8 flags;
	__u8 abi;
	__s8 fixed_fp;		/* header cfa_fixed_fp_offset, 0 = not fixed */
	__s8 fixed_ra;		/* header cfa_fixed_ra_offset (-8 on AMD64), 0 = tracked */
	__u8 auxhdr_len;
	__u8 fde_size;		/* 17, 20 or 16 */
	__u8 __pad;
	__u32 num_fdes;
	__u32 num_fres;
	__u32 fre_len;
	__u32 hdr_len;		/* 28 + auxhdr_len */
	__u64 fde_off;		/* first FDE */
	__u64 fre_off;		/* FRE sub-section */
};

/*
 * struct dunwind_sframe_fde - one decoded function descriptor.
 * @start:	absolute run-time address of the function (sec_vaddr applied).
 * @size:	function size in bytes; the FDE covers [start, start + size).
 * @num_fres:	number of FREs.
 * @fres_off:	section offset of the first FRE (after the v3 attributes).
 * @fre_type:	0, 1, 2: FRE start address is 1, 2 or 4 bytes.
 * @pc_type:	DUNWIND_SFRAME_PC_INC or DUNWIND_SFRAME_PC_MASK.
 * @fde_type:	DUNWIND_SFRAME_FDE_DEFAULT or (v3) DUNWIND_SFRAME_FDE_FLEX.
 * @rep_size:	repetition block size for PC_MASK (v1: 16), else as stored.
 * @signal:	v3 signal-frame bit.
 * @info, @info2: raw info bytes (info2 is 0 before v3).
 */
struct dunwind_sframe_fde {
	__u64 start;
	__u32 size;
	__u32 num_fres;
	__u64 fres_off;
	__u8 fre_type;
	__u8 pc_type;
	__u8 fde_type;
	__u8 rep_size;
	__u8 signal;
	__u8 info;
	__u8 info2;
	__u8 __pad;
};

/*
 * struct dunwind_sframe_fre - one raw frame row entry.
 * @start:	start offset from the function start (PC_INC) or in the block (PC_MASK).
 * @len:	bytes it occupies; the next FRE starts @len bytes later.
 * @info:	raw info byte (bit 0 CFA base SP/FP, bits 1-4 word count,
 *		bits 5-6 word size, bit 7 mangled RA).
 * @nwords:	number of data words.
 * @word_size:	1, 2 or 4.
 * @words:	data words, sign-extended.
 */
struct dunwind_sframe_fre {
	__u32 start;
	__u32 len;
	__u8 info;
	__u8 nwords;
	__u8 word_size;
	__u8 __pad;
	__s32 words[DUNWIND_SFRAME_MAX_WORDS];
};

/* How a value is recovered. */
#define DUNWIND_SFRAME_RULE_UNDEF	0	/* not saved: FP keeps its value; RA unknown */
#define DUNWIND_SFRAME_RULE_CFA		1	/* value = CFA + off, or *(CFA + off) if deref */
#define DUNWIND_SFRAME_RULE_REG		2	/* value = reg + off, or *(reg + off) if deref */

struct dunwind_sframe_rule {
	__u8 kind;		/* DUNWIND_SFRAME_RULE_* */
	__u8 reg;		/* DWARF register number for RULE_REG */
	__u8 deref;		/* 1: load 8 bytes at the computed address */
	__u8 __pad;
	__s32 off;
};

/* dunwind_sframe_row.flags */
#define DUNWIND_SFRAME_ROW_RA_UNDEF	0x1	/* outermost frame: stop unwinding */
#define DUNWIND_SFRAME_ROW_SIGNAL	0x2	/* v3 signal frame */
#define DUNWIND_SFRAME_ROW_FLEX		0x4	/* v3 flex FDE */
#define DUNWIND_SFRAME_ROW_MANGLED_RA	0x8	/* FRE info bit 7 (aarch64 meaning) */

/*
 * struct dunwind_sframe_row - the unwind rule for one PC.
 * @func_start, @func_size: the FDE that covers the PC.
 * @pc_lo, @pc_hi: the rule holds for every PC in [pc_lo, pc_hi) (for
 *		PC_MASK FDEs: within the current repetition block).
 * @flags:	DUNWIND_SFRAME_ROW_*.  With RA_UNDEF the rules are not set.
 * @cfa:	always RULE_REG.  Default FDEs: reg SP or FP, deref 0.
 * @ra:		default FDEs: RULE_CFA, deref 1, off = header fixed RA (-8).
 * @fp:		RULE_UNDEF (FP not saved: unchanged) or RULE_CFA deref 1.
 *
 * Typical AMD64 use: CFA = (cfa.reg == SP ? sp : fp) + cfa.off;
 * RA = *(CFA + ra.off); FP = fp.kind == RULE_UNDEF ? fp : *(CFA + fp.off);
 * caller's SP = CFA.  dunwind_sframe_row_simple() says whether that is all.
 */
struct dunwind_sframe_row {
	__u64 func_start;
	__u32 func_size;
	__u32 flags;
	__u64 pc_lo;
	__u64 pc_hi;
	struct dunwind_sframe_rule cfa;
	struct dunwind_sframe_rule ra;
	struct dunwind_sframe_rule fp;
};

int dunwind_sframe_open(struct dunwind_sframe_table *t, const struct dunwind_sframe_src *src,
			__u64 sec_vaddr);
int dunwind_sframe_get_fde(const struct dunwind_sframe_table *t, __u32 idx,
			   struct dunwind_sframe_fde *fde);
int dunwind_sframe_get_fre(const struct dunwind_sframe_table *t,
			   const struct dunwind_sframe_fde *fde, __u64 off,
			   struct dunwind_sframe_fre *fre);
int dunwind_sframe_fre_rules(const struct dunwind_sframe_table *t,
			     const struct dunwind_sframe_fde *fde,
			     const struct dunwind_sframe_fre *fre, struct dunwind_sframe_row *row);
int dunwind_sframe_find(const struct dunwind_sframe_table *t, __u64 pc,
			struct dunwind_sframe_row *row);
int dunwind_sframe_validate(const struct dunwind_sframe_table *t);

/*
 * dunwind_sframe_row_simple() - is @row the plain AMD64 case (CFA from SP or
 * FP without dereference, RA at CFA + ra.off, FP unchanged or at CFA + fp.off)?
 * Context: any.  Return: 1 if so, 0 if the caller needs the general rules.
 */
static inline int dunwind_sframe_row_simple(const struct dunwind_sframe_row *row)
{
	if (row->flags & DUNWIND_SFRAME_ROW_RA_UNDEF)
		return 1;
	return row->cfa.kind == DUNWIND_SFRAME_RULE_REG && !row->cfa.deref &&
	       (row->cfa.reg == DUNWIND_SFRAME_REG_SP || row->cfa.reg == DUNWIND_SFRAME_REG_FP) &&
	       row->ra.kind == DUNWIND_SFRAME_RULE_CFA && row->ra.deref &&
	       (row->fp.kind == DUNWIND_SFRAME_RULE_UNDEF ||
		(row->fp.kind == DUNWIND_SFRAME_RULE_CFA && row->fp.deref));
}

#endif /* DUNWIND_LIB_SFRAME_H */
