// SPDX-License-Identifier: GPL-2.0
/*
 * A chain of symbolizers for user addresses, asked in order, and the
 * context that holds what they read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/perfmap.h"
#include "symbols/symbolizer.h"

/* A process's perf map, read on first need. */
struct perfmap_ent {
	struct perfmap_ent *next;
	__u32 pid;
	struct dw_perfmap *map;		/* NULL: no map file */
	char *path;
};

struct dw_symctx {
	const struct dw_symbolizer *const *chain;
	struct dw_usnap *usnap;		/* the capture's user symbols, or NULL */
	char *perfmap_dir;
	struct perfmap_ent *perfmaps;
};

/**
 * dw_symctx_new() - a context for a chain of symbolizers
 * @chain:	NULL-terminated, in the order asked (not copied)
 * @usnap:	the capture's user symbol snapshot (not owned), or NULL
 * @perfmap_dir: where perf-PID.map files are read; NULL: /tmp
 *
 * Context: user space.
 * Return: the context, or NULL (ENOMEM).
 */
struct dw_symctx *dw_symctx_new(const struct dw_symbolizer *const *chain, struct dw_usnap *usnap,
				const char *perfmap_dir)
{
	struct dw_symctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->chain = chain;
	ctx->usnap = usnap;
	ctx->perfmap_dir = strdup(perfmap_dir ? perfmap_dir : "/tmp");
	if (!ctx->perfmap_dir) {
		free(ctx);
		return NULL;
	}
	return ctx;
}

/**
 * dw_symbolize() - ask the chain, in order, for the name of an address
 * @ctx:	context from dw_symctx_new()
 * @q:		the address
 * @a:		filled by the first symbolizer that answers
 *
 * Context: user space; a symbolizer may read a file the first time.
 * Return: 0, or -ENOENT if none answered.
 */
int dw_symbolize(struct dw_symctx *ctx, const struct dw_symq *q, struct dw_symans *a)
{
	const struct dw_symbolizer *const *s;

	for (s = ctx->chain; *s; s++) {
		memset(a, 0, sizeof(*a));
		if (!(*s)->lookup(ctx, q, a))
			return 0;
	}
	return -ENOENT;
}

/* The capture's snapshot the context was made with, or NULL. */
struct dw_usnap *dw_symctx_usnap(const struct dw_symctx *ctx)
{
	return ctx->usnap;
}

/*
 * Process @pid's perf map, read once per context; *@path its file name
 * (valid as long as @ctx).  NULL if there is none (or on ENOMEM).
 */
const struct dw_perfmap *dw_symctx_perfmap(struct dw_symctx *ctx, __u32 pid, const char **path)
{
	struct perfmap_ent *e;

	for (e = ctx->perfmaps; e; e = e->next)
		if (e->pid == pid)
			goto out;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	if (asprintf(&e->path, "%s/perf-%u.map", ctx->perfmap_dir, pid) < 0) {
		free(e);
		return NULL;
	}
	e->pid = pid;
	e->map = dw_perfmap_load(e->path);
	e->next = ctx->perfmaps;
	ctx->perfmaps = e;
out:
	*path = e->path;
	return e->map;
}

/**
 * dw_symctx_free() - free a context and the perf maps it read
 * @ctx:	context or NULL
 *
 * Context: user space; names it gave become invalid.
 */
void dw_symctx_free(struct dw_symctx *ctx)
{
	struct perfmap_ent *e, *next;

	if (!ctx)
		return;
	for (e = ctx->perfmaps; e; e = next) {
		next = e->next;
		dw_perfmap_free(e->map);
		free(e->path);
		free(e);
	}
	free(ctx->perfmap_dir);
	free(ctx);
}
