/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data: the stitched profile as a file 'perf report' and 'perf
 * script' read (Documentation/reports.rst says what goes in it).
 */
#ifndef DW_PERFDATA_H
#define DW_PERFDATA_H

#include <stdio.h>

#include "analyze/profile.h"

int dw_perfdata_write(FILE *f, const struct dw_prof *p);
int dw_perfdata_write_kallsyms(FILE *f, const struct dw_prof *p);
int dw_perfdata_has_kernel(const struct dw_prof *p);
int dw_perfdata_write_debug(const struct dw_prof *p, const char *dir);

#endif
