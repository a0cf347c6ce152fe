/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SFrame generator: turns an ELF file's DWARF CFI (.eh_frame, and
 * .debug_frame if present) into an AMD64 SFrame section (v2 or v3) for the
 * PCs whose rule SFrame can express, leaving the rest uncovered.
 * Documentation/sframe-gen.rst describes what is generated and why.
 */
#ifndef DW_SFRAME_GEN_H
#define DW_SFRAME_GEN_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

/* dw_sframe_gen_opts.flags */
#define DW_SFRAME_GEN_NO_DEBUG_FRAME	(1U << 0)	/* ignore .debug_frame */
#define DW_SFRAME_GEN_ABS		(1U << 1)	/* no FDE_FUNC_START_PCREL */
/* v3 only: dunwind's %rbx extension (DUNWIND_SFRAME_EXT_RBX, sframe.rst) */
#define DW_SFRAME_GEN_RBX		(1U << 2)
#define DW_SFRAME_GEN_ALL		(DW_SFRAME_GEN_NO_DEBUG_FRAME | DW_SFRAME_GEN_ABS | \
					 DW_SFRAME_GEN_RBX)

/*
 * Bounds on one file (its owner controls it, the recorder may be root):
 * the executable bytes it may claim (every one is visited) and the time
 * its table may take; past either there is no table for it.
 */
#define DW_SFRAME_GEN_MAX_EXEC	(1ULL << 30)
#define DW_SFRAME_GEN_MAX_MS	20000U

/*
 * struct dw_sframe_gen_opts - what to generate.
 * @version:	DUNWIND_SFRAME_V2 or DUNWIND_SFRAME_V3; 0 means v2.
 * @flags:	DW_SFRAME_GEN_*.
 * @max_ms:	give up after this long (-ETIME); 0: DW_SFRAME_GEN_MAX_MS.
 */
struct dw_sframe_gen_opts {
	unsigned int version;
	unsigned int flags;
	unsigned int max_ms;
};

/* Why a byte of executable code is not covered (dw_sframe_gen_stats.why[]). */
enum dw_sframe_gen_why {
	DW_SFRAME_GEN_NO_CFI = 0,	/* no CFI row at all (not in any FDE) */
	DW_SFRAME_GEN_CFA_EXPR,		/* CFA is a DWARF expression / unknown */
	DW_SFRAME_GEN_CFA_REG,		/* CFA from a register other than SP/FP */
	DW_SFRAME_GEN_RANGE,		/* an offset does not fit 32 bits */
	DW_SFRAME_GEN_RA,		/* RA not at CFA-8, or RA column not 16 */
	DW_SFRAME_GEN_FP,		/* FP in a register, an expression, a value */
	DW_SFRAME_GEN_SP,		/* caller's SP is not the CFA */
	DW_SFRAME_GEN_SIGNAL,		/* signal trampoline frame */
	DW_SFRAME_GEN_BAD_CFI,		/* libdw failed to evaluate the row */
	DW_SFRAME_GEN_WHY_MAX,
};

/*
 * struct dw_sframe_gen_stats - what was generated.
 * @exec_bytes:		bytes of PF_X PT_LOAD segments (memory size).
 * @text_bytes:		size of the .text section (0 if none).
 * @cfi_bytes:		executable bytes that have a CFI row.
 * @covered_bytes:	executable bytes an SFrame FDE covers (incl. outermost).
 * @outermost_bytes:	of those, bytes whose row says "RA undefined".
 * @fp_undef_bytes:	of those, bytes where CFI says FP is undefined (emitted
 *			as "FP not saved").
 * @text_covered_bytes:	covered bytes inside .text.
 * @gap_bytes:		of the covered bytes, those without CFI whose rules
 *			come from following their instructions (gap_scan.c;
 *			AArch64: the linker's PLT, plt_a64.c).
 * @v8_bytes:		of the covered bytes, V8's embedded builtins (no CFI;
 *			their frames found from FP, as V8 keeps it).
 * @why:		uncovered executable bytes by enum dw_sframe_gen_why.
 * @dwarf_fdes:		DWARF FDEs seen (.eh_frame_hdr entries, else row runs).
 * @dwarf_rows:		DWARF CFI rows read.
 * @sframe_fdes, @sframe_fres: what the section holds.
 * @eh_frame_size, @debug_frame_size: input section sizes (0 if absent).
 * @table_size:		output size.
 * @gen_ns:		wall time of dw_sframe_gen*() (CLOCK_MONOTONIC).
 */
struct dw_sframe_gen_stats {
	__u64 exec_bytes;
	__u64 text_bytes;
	__u64 cfi_bytes;
	__u64 covered_bytes;
	__u64 outermost_bytes;
	__u64 fp_undef_bytes;
	__u64 text_covered_bytes;
	__u64 gap_bytes;
	__u64 v8_bytes;
	__u64 why[DW_SFRAME_GEN_WHY_MAX];
	__u64 dwarf_fdes;
	__u64 dwarf_rows;
	__u64 sframe_fdes;
	__u64 sframe_fres;
	__u64 eh_frame_size;
	__u64 debug_frame_size;
	__u64 table_size;
	__u64 gen_ns;
};

/*
 * struct dw_sframe_gen_result - output of dw_sframe_gen*().
 * @table:	malloc()ed SFrame section; free with dw_sframe_gen_free().
 * @table_size:	its size in bytes.
 * @sec_vaddr:	the ELF virtual address the table's PC fields are relative
 *		to (pass it to dunwind_sframe_open() and as
 *		dunwind_sframe_reg.sec_vaddr): the lowest address of an
 *		executable PT_LOAD, so every function is close to it.
 * @version:	SFrame version written.
 * @ext:	DUNWIND_SFRAME_EXT_* the table carries (set the same in the
 *		decoder's table, and DUNWIND_REG_RBX when registering).
 * @stats:	statistics.
 */
struct dw_sframe_gen_result {
	__u8 *table;
	size_t table_size;
	__u64 sec_vaddr;
	unsigned int version;
	unsigned int ext;
	struct dw_sframe_gen_stats stats;
};

int dw_sframe_gen(const char *path, const struct dw_sframe_gen_opts *o,
		  struct dw_sframe_gen_result *r);
int dw_sframe_gen_fd(int fd, const struct dw_sframe_gen_opts *o, struct dw_sframe_gen_result *r);
void dw_sframe_gen_free(struct dw_sframe_gen_result *r);
const char *dw_sframe_gen_why_name(unsigned int why);
void dw_sframe_gen_print_stats(FILE *f, const struct dw_sframe_gen_result *r);

#endif /* DW_SFRAME_GEN_H */
