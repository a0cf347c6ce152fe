// SPDX-License-Identifier: GPL-2.0
/*
 * The symbolizers (symbols/symbolizer.h) that read the capture's user
 * symbol snapshot (usnap.h):
 * the recorded file's functions when the file here names nothing (not
 * the recorded one, absent, or stripped), and the recorded perf maps of
 * processes with JIT code.
 */
#include <errno.h>
#include <stdio.h>

#include "capture/usnap.h"
#include "symbols/symbolizer.h"

static int file_lookup(struct dw_symctx *ctx, const struct dw_symq *q, struct dw_symans *a)
{
	const struct dw_usnap *u = dw_symctx_usnap(ctx);
	const struct dw_mapres *r = q->map;

	if (!u || !q->image || dw_usnap_lookup(u, r->build_id, r->build_id_size, r->dso, r->foff,
					       &a->sr))
		return -ENOENT;
	/* A named function beats an FDE range found here. */
	if (!a->sr.name && r->sym.fde)
		return -ENOENT;
	a->name = a->sr.name;
	a->mangled = 1;
	a->off = a->sr.off;
	a->fstart = a->sr.start;
	a->src = &a->sr;
	a->snapshot = 1;
	return 0;
}

/* JIT code lives in anonymous memory, or outside any recorded mapping. */
static int jit_lookup(struct dw_symctx *ctx, const struct dw_symq *q, struct dw_symans *a)
{
	const struct dw_usnap *u = dw_symctx_usnap(ctx);

	if (!u || q->image || dw_usnap_lookup_jit(u, q->pid, q->addr, &a->sr) || !a->sr.name)
		return -ENOENT;
	a->name = a->sr.name;
	a->off = a->sr.off;
	snprintf(a->buf, sizeof(a->buf), "/tmp/perf-%u.map", q->pid);
	a->dso = a->buf;
	a->snapshot = 1;
	return 0;
}

const struct dw_symbolizer dw_sym_snapshot = { .name = "snapshot", .lookup = file_lookup };
const struct dw_symbolizer dw_sym_snapshot_jit = { .name = "snapshot-jit", .lookup = jit_lookup };
