/* SPDX-License-Identifier: GPL-2.0 */
/* Brendan Gregg's folded stacks: "comm;root;...;leaf COUNT" per line. */
#ifndef DW_FOLDED_H
#define DW_FOLDED_H

#include <stdio.h>

#include "analyze/profile.h"

int dw_folded_write(FILE *f, const struct dw_prof *p, int inline_frames);
void dw_folded_name(char *out, size_t size, const char *name);

#endif
