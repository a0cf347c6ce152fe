/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A profile's stacks merged into a tree of functions: top-down (roots are
 * the outermost callers, children the callees) or inverted (roots are the
 * leaves, children their callers).  Weights are sample periods (ns).
 */
#ifndef DW_CALLTREE_H
#define DW_CALLTREE_H

#include <stdint.h>

#include "analyze/profile.h"

struct dw_tree_node {
	uint32_t func;			/* index in the profile's funcs */
	uint32_t parent;		/* index + 1; 0 for a root */
	uint32_t first_child;		/* index + 1; 0 for none */
	uint32_t next;			/* next sibling, index + 1 */
	uint32_t depth;
	uint64_t total, self;		/* period of the samples through / ending here */
	uint64_t off;			/* of @total, off-CPU samples' (ns off CPU) */
	unsigned long samples;		/* samples through here */
};

struct dw_tree {
	struct dw_tree_node *nodes;
	size_t nr, cap;
	uint32_t first_root;		/* index + 1 */
	uint64_t total;			/* period of all samples */
};

int dw_tree_build(struct dw_tree *t, const struct dw_prof *p, int inline_frames, int inverted);
void dw_tree_sort(struct dw_tree *t, const struct dw_prof *p, int by_name);
void dw_tree_free(struct dw_tree *t);

#endif
