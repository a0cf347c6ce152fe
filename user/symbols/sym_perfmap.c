// SPDX-License-Identifier: GPL-2.0
/* The symbolizer for JIT code from the perf map here (perfmap.h): PATH/perf-PID.map. */
#include <errno.h>

#include "symbols/perfmap.h"
#include "symbols/symbolizer.h"

static int perfmap_lookup(struct dw_symctx *ctx, const struct dw_symq *q, struct dw_symans *a)
{
	const struct dw_perfmap *pm;
	const char *path;

	if (q->image || !(pm = dw_symctx_perfmap(ctx, q->pid, &path)))
		return -ENOENT;
	a->name = dw_perfmap_lookup(pm, q->addr, &a->off, NULL);
	if (!a->name)
		return -ENOENT;
	a->dso = path;
	return 0;
}

const struct dw_symbolizer dw_sym_perfmap = { .name = "perfmap", .lookup = perfmap_lookup };
