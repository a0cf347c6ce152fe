/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The formats 'dunwind report' writes a profile in, in one table: the
 * command's --format, its help, the man page and the bash completion
 * (generated from the option table) all read it.
 */
#ifndef DW_OUTPUT_FORMAT_H
#define DW_OUTPUT_FORMAT_H

#include <stdio.h>

#include "analyze/profile.h"
#include "output/report.h"

/* What a writer may need besides the profile. */
struct dw_output_args {
	const char *input;		/* the capture's name */
	const struct dw_report_opts *ro;	/* the text report's options */
	int inline_frames;		/* inlined functions as frames */
};

/*
 * struct dw_output_format - one output format
 * @name:	its --format name
 * @binary:	not text: never written to a terminal
 * @text:	the report for people (on- and off-CPU apart; no count line)
 * @src:	wants source lines (and so DWARF read)
 * @file:	needs a file, not a pipe (-o)
 * @kallsyms:	its kernel symbols go beside, to OUTPUT.kallsyms
 * @write:	write @p to @f: 0 or -errno (-ENOMEM, -EIO; perf: -E2BIG)
 */
struct dw_output_format {
	const char *name;
	int binary, text, src, file, kallsyms;
	int (*write)(FILE *f, const struct dw_prof *p, const struct dw_output_args *a);
};

extern const struct dw_output_format dw_output_formats[];
const struct dw_output_format *dw_output_find(const char *name);
const char *dw_output_names(void);

#endif
