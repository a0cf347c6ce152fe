/* SPDX-License-Identifier: GPL-2.0 */
/* The text report: summary, top functions, call trees. */
#ifndef DW_REPORT_H
#define DW_REPORT_H

#include <stdio.h>

#include "analyze/profile.h"

enum dw_report_sort {
	DW_SORT_SELF,
	DW_SORT_TOTAL,
	DW_SORT_SAMPLES,
	DW_SORT_NAME,
};

struct dw_report_opts {
	const char *input;		/* shown in the title */
	enum dw_report_sort sort;
	int inline_frames;
	double percent_limit;		/* hide tree nodes and rows below this % */
	unsigned int max_rows;		/* functions listed (0: all) */
	unsigned int max_depth;		/* call tree levels (0: all) */
	int no_tree;
	const char *section;		/* a heading after the title, or NULL */
};

int dw_report_summary(FILE *f, const struct dw_prof *p);
int dw_report_write(FILE *f, const struct dw_prof *p, const struct dw_report_opts *o);
int dw_report_parse_sort(const char *s, enum dw_report_sort *sort);

#endif
