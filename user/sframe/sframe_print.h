/* SPDX-License-Identifier: GPL-2.0 */
/* An SFrame table as text, in objdump --sframe's layout. */
#ifndef DW_SFRAME_PRINT_H
#define DW_SFRAME_PRINT_H

#include <stdio.h>

#include "sframe.h"

void dw_sframe_fmt_rule(char *buf, size_t n, const struct dunwind_sframe_rule *r);
void dw_sframe_fmt_rbx(char *buf, size_t n, const struct dunwind_sframe_row *row);
int dw_sframe_print(FILE *f, const struct dunwind_sframe_table *t, const char *secname);

#endif
