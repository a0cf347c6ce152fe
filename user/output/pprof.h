/* SPDX-License-Identifier: GPL-2.0 */
/* pprof's profile.proto, gzipped (user/output/profile.proto lists the fields). */
#ifndef DW_PPROF_H
#define DW_PPROF_H

#include <stdio.h>

#include "analyze/profile.h"

int dw_pprof_write(FILE *f, const struct dw_prof *p, int inline_frames, int gzip);

#endif
