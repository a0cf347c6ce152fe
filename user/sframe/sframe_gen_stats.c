// SPDX-License-Identifier: GPL-2.0
/* The statistics of an SFrame generation, by name and as text (sframe_gen.h). */
#include <stdio.h>

#include "sframe/sframe_gen.h"

/**
 * dw_sframe_gen_why_name() - short name of an enum dw_sframe_gen_why.
 * @why:	the reason.
 *
 * Context: any.
 * Return: a static string ("?" for an unknown value).
 */
const char *dw_sframe_gen_why_name(unsigned int why)
{
	static const char *const names[DW_SFRAME_GEN_WHY_MAX] = {
		[DW_SFRAME_GEN_NO_CFI] = "no CFI",
		[DW_SFRAME_GEN_CFA_EXPR] = "CFA expression",
		[DW_SFRAME_GEN_CFA_REG] = "CFA not SP/FP based",
		[DW_SFRAME_GEN_RANGE] = "offset out of range",
		[DW_SFRAME_GEN_RA] = "RA not at CFA-8",
		[DW_SFRAME_GEN_FP] = "FP rule not expressible",
		[DW_SFRAME_GEN_SP] = "SP not the CFA",
		[DW_SFRAME_GEN_SIGNAL] = "signal frame",
		[DW_SFRAME_GEN_BAD_CFI] = "CFI not evaluable",
	};

	return why < DW_SFRAME_GEN_WHY_MAX ? names[why] : "?";
}

static double pct(__u64 a, __u64 b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/**
 * dw_sframe_gen_print_stats() - print a result's statistics, one per line.
 * @f:	output stream.
 * @r:	a successful result.
 *
 * Context: user space.
 */
void dw_sframe_gen_print_stats(FILE *f, const struct dw_sframe_gen_result *r)
{
	const struct dw_sframe_gen_stats *s = &r->stats;
	unsigned int i;

	fprintf(f, "sframe v%u, sec_vaddr %#llx: %llu bytes (%.1f%% of .eh_frame %llu)\n",
		r->version, (unsigned long long)r->sec_vaddr, (unsigned long long)s->table_size,
		pct(s->table_size, s->eh_frame_size), (unsigned long long)s->eh_frame_size);
	fprintf(f, "functions: %llu DWARF FDEs, %llu CFI rows -> %llu SFrame FDEs, %llu FREs\n",
		(unsigned long long)s->dwarf_fdes, (unsigned long long)s->dwarf_rows,
		(unsigned long long)s->sframe_fdes, (unsigned long long)s->sframe_fres);
	fprintf(f, "covered: %llu of %llu executable bytes (%.2f%%); .text %.2f%%; "
		"with CFI %.2f%%\n",
		(unsigned long long)s->covered_bytes, (unsigned long long)s->exec_bytes,
		pct(s->covered_bytes, s->exec_bytes),
		pct(s->text_covered_bytes, s->text_bytes),
		pct(s->cfi_bytes, s->exec_bytes));
	if (s->gap_bytes)
		fprintf(f, "covered without CFI: %llu bytes (their instructions followed)\n",
			(unsigned long long)s->gap_bytes);
	if (s->v8_bytes)
		fprintf(f, "covered as V8 builtins: %llu bytes (CFA = FP + 16)\n",
			(unsigned long long)s->v8_bytes);
	for (i = 0; i < DW_SFRAME_GEN_WHY_MAX; i++)
		if (s->why[i])
			fprintf(f, "uncovered: %llu bytes: %s\n", (unsigned long long)s->why[i],
				dw_sframe_gen_why_name(i));
	if (s->outermost_bytes || s->fp_undef_bytes)
		fprintf(f, "outermost (RA undefined): %llu bytes; FP undefined: %llu bytes\n",
			(unsigned long long)s->outermost_bytes,
			(unsigned long long)s->fp_undef_bytes);
	fprintf(f, "time: %.1f ms\n", (double)s->gen_ns / 1e6);
}
