// SPDX-License-Identifier: GPL-2.0
/* An SFrame table as text: see sframe_print.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sframe/sframe_file.h"
#include "sframe/sframe_print.h"

/**
 * dw_sframe_fmt_rule() - a rule as objdump --sframe writes flex rows
 * @buf, @n:	where
 * @r:		the rule
 *
 * Context: any.
 */
void dw_sframe_fmt_rule(char *buf, size_t n, const struct dunwind_sframe_rule *r)
{
	char reg[16];
	const char *name = "c";

	if (r->kind == DUNWIND_SFRAME_RULE_REG) {
		if (r->reg == DUNWIND_SFRAME_REG_SP)
			name = "sp";
		else if (r->reg == DUNWIND_SFRAME_REG_FP)
			name = "fp";
		else {
			snprintf(reg, sizeof(reg), "r%u", r->reg);
			name = reg;
		}
	}
	if (r->deref)
		snprintf(buf, n, "(%s%+d)", name, r->off);
	else
		snprintf(buf, n, "%s%+d", name, r->off);
}

static void print_header(FILE *f, const struct dunwind_sframe_table *t, const char *secname)
{
	static const char *const vname[] = { "NULL", "SFRAME_VERSION_1", "SFRAME_VERSION_2",
					     "SFRAME_VERSION_3" };
	static const struct { __u8 bit; const char *name; } fl[] = {
		{ DUNWIND_SFRAME_F_FDE_SORTED, "SFRAME_F_FDE_SORTED" },
		{ DUNWIND_SFRAME_F_FRAME_POINTER, "SFRAME_F_FRAME_POINTER" },
		{ DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL, "SFRAME_F_FDE_FUNC_START_PCREL" },
	};
	const char *prefix = "Flags: ";
	__u8 flags = t->flags;
	size_t i;

	fprintf(f, "Contents of the SFrame section %s:\n", secname);
	fprintf(f, "  Header :\n\n");
	fprintf(f, "    Version: %s\n", vname[t->version]);
	if (!flags)
		fprintf(f, "%11sNONE\n", prefix);
	for (i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
		if (!(flags & fl[i].bit))
			continue;
		flags &= (__u8)~fl[i].bit;
		fprintf(f, "%11s%s%s\n", prefix, fl[i].name, flags ? "," : "");
		prefix = " ";
	}
	if (flags)
		fprintf(f, "%11s%d\n", prefix, flags);
	/* binutils 2.40 (v1) did not print the fixed offsets; later ones do. */
	if (t->version > DUNWIND_SFRAME_V1) {
		if (t->fixed_fp)
			fprintf(f, "    CFA fixed FP offset: %d\n", t->fixed_fp);
		if (t->fixed_ra)
			fprintf(f, "    CFA fixed RA offset: %d\n", t->fixed_ra);
	}
	fprintf(f, "    Num FDEs: %u\n", t->num_fdes);
	fprintf(f, "    Num FREs: %u\n", t->num_fres);
}

/**
 * dw_sframe_fmt_rbx() - where %rbx is by an EXT_RBX table's row: "u"
 * unchanged, "x" not recoverable, "c+N" saved at CFA + N
 * @buf, @n:	where
 * @row:	the row (with DUNWIND_SFRAME_ROW_RBX)
 *
 * Context: any.
 */
void dw_sframe_fmt_rbx(char *buf, size_t n, const struct dunwind_sframe_row *row)
{
	if (row->flags & DUNWIND_SFRAME_ROW_RBX_LOST)
		snprintf(buf, n, "x");
	else if (row->rbx.kind == DUNWIND_SFRAME_RULE_UNDEF)
		snprintf(buf, n, "u");
	else
		snprintf(buf, n, "c%+d", row->rbx.off);
}

/* One row's rules, after its address: CFA, FP, RA (and RBX) columns. */
static void print_row(FILE *f, const struct dunwind_sframe_table *t,
		      const struct dunwind_sframe_row *row)
{
	char cfa[48], fp[48], ra[48], rbx[48] = "";

	if (row->flags & DUNWIND_SFRAME_ROW_RA_UNDEF) {
		fprintf(f, "  RA undefined");
		return;
	}
	if (!(row->flags & DUNWIND_SFRAME_ROW_FLEX)) {
		snprintf(cfa, sizeof(cfa), "%s+%d",
			 row->cfa.reg == DUNWIND_SFRAME_REG_SP ? "sp" : "fp", row->cfa.off);
		if (row->fp.kind == DUNWIND_SFRAME_RULE_UNDEF)
			snprintf(fp, sizeof(fp), "u");
		else
			snprintf(fp, sizeof(fp), "c%+d", row->fp.off);
		/* binutils 2.40 printed 'u' for AMD64's untracked RA, later 'f'. */
		snprintf(ra, sizeof(ra), "%s", t->version == DUNWIND_SFRAME_V1 ? "u" : "f");
	} else {
		dw_sframe_fmt_rule(cfa, sizeof(cfa), &row->cfa);
		if (row->fp.kind == DUNWIND_SFRAME_RULE_UNDEF)
			snprintf(fp, sizeof(fp), "u");
		else
			dw_sframe_fmt_rule(fp, sizeof(fp), &row->fp);
		if (row->ra.kind == DUNWIND_SFRAME_RULE_CFA && row->ra.deref &&
		    row->ra.off == t->fixed_ra)
			snprintf(ra, sizeof(ra), "f");
		else
			dw_sframe_fmt_rule(ra, sizeof(ra), &row->ra);
	}
	strcat(ra, (row->flags & DUNWIND_SFRAME_ROW_MANGLED_RA) ? "[s]" : "   ");
	if (row->flags & DUNWIND_SFRAME_ROW_RBX)
		dw_sframe_fmt_rbx(rbx, sizeof(rbx), row);
	fprintf(f, "  %-10s%-10s%-13s%s", cfa, fp, ra, rbx);
}

/**
 * dw_sframe_print() - a table as objdump --sframe prints it
 * @f:		where
 * @t:		the open table
 * @secname:	the section's name for the title
 *
 * binutils 2.40's layout for v1 tables, later binutils' for v2 and v3.
 *
 * Context: user space.
 * Return: 0, or the decoder's error for a row it cannot read (what came
 * before is printed).
 */
int dw_sframe_print(FILE *f, const struct dunwind_sframe_table *t, const char *secname)
{
	struct dunwind_sframe_fde fde;
	struct dunwind_sframe_fre fre;
	struct dunwind_sframe_row row;
	__u32 i, j;
	__u64 off;
	int err;

	print_header(f, t, secname);
	fprintf(f, "\n  Function Index :\n");
	for (i = 0; i < t->num_fdes; i++) {
		err = dunwind_sframe_get_fde(t, i, &fde);
		if (err) {
			fprintf(f, "\n    func idx [%u]: unreadable: %s\n", i, dw_sframe_strerror(err));
			return err;
		}
		fprintf(f, "\n    func idx [%u]: pc = 0x%" PRIx64 ", size = %u bytes", i,
		       (uint64_t)fde.start, fde.size);
		if (fde.signal || fde.fde_type == DUNWIND_SFRAME_FDE_FLEX)
			fprintf(f, ", attr = \"%s%s\"", fde.signal ? "S" : "",
			       fde.fde_type == DUNWIND_SFRAME_FDE_FLEX ? "F" : "");
		fprintf(f, "\n    %-7s%-8s %-10s%-10s%-13s%s", "STARTPC",
		       fde.pc_type == DUNWIND_SFRAME_PC_MASK ? "[m]" : "   ", "CFA", "FP", "RA",
		       (t->ext & DUNWIND_SFRAME_EXT_RBX) ? "RBX" : "");
		off = fde.fres_off;
		for (j = 0; j < fde.num_fres; j++) {
			__u64 pc;

			err = dunwind_sframe_get_fre(t, &fde, off, &fre);
			if (!err)
				err = dunwind_sframe_fre_rules(t, &fde, &fre, &row);
			if (err) {
				fprintf(f, "\n    FRE %u unreadable: %s\n", j, dw_sframe_strerror(err));
				return err;
			}
			off += fre.len;
			pc = fde.pc_type == DUNWIND_SFRAME_PC_MASK ? fre.start
								   : fde.start + fre.start;
			fprintf(f, "\n    %016" PRIx64, (uint64_t)pc);
			print_row(f, t, &row);
		}
		fprintf(f, "\n");
	}
	return 0;
}
