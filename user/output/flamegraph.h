/* SPDX-License-Identifier: GPL-2.0 */
/* A self-contained interactive flame graph (SVG with its own script). */
#ifndef DW_FLAMEGRAPH_H
#define DW_FLAMEGRAPH_H

#include <stdio.h>

#include "analyze/profile.h"

struct dw_flamegraph_opts {
	const char *title;
	unsigned int width;		/* pixels; 0: 1200 */
	int inline_frames;
};

int dw_flamegraph_write(FILE *f, const struct dw_prof *p, const struct dw_flamegraph_opts *o);

#endif
