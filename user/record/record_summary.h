/* SPDX-License-Identifier: GPL-2.0 */
/* What 'dunwind record' says while (on a terminal) and after it records (dw_info()). */
#ifndef DW_RECORD_SUMMARY_H
#define DW_RECORD_SUMMARY_H

#include <stdio.h>

#include "record/recorder.h"

void dw_record_progress(FILE *tty, const struct dw_recorder *st, int done);
void dw_record_summary(const struct dw_recorder *st, const char *output, int off_cpu,
		       int system_wide, const struct dunwind_stats *ks, int have_stats);

#endif
