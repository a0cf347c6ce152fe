/* SPDX-License-Identifier: GPL-2.0 */
/* speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json). */
#ifndef DW_SPEEDSCOPE_H
#define DW_SPEEDSCOPE_H

#include <stdio.h>

#include "analyze/profile.h"

int dw_speedscope_write(FILE *f, const struct dw_prof *p, const char *name, int inline_frames);
void dw_json_string(FILE *f, const char *s);

#endif
