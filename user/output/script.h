/* SPDX-License-Identifier: GPL-2.0 */
/* One stitched, symbolised stack per sample, in the text format of 'perf script'. */
#ifndef DW_OUTPUT_SCRIPT_H
#define DW_OUTPUT_SCRIPT_H

#include <stdio.h>

#include "analyze/profile.h"

int dw_script_write(FILE *f, const struct dw_prof *p, int inline_frames);

#endif
