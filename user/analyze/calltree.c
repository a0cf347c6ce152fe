// SPDX-License-Identifier: GPL-2.0
/*
 * Call trees: each sample's function list (leaf first) is walked from the
 * root end (top-down) or the leaf end (inverted) and merged into the tree
 * node by node; a node's children are found by a hash of (parent, func).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/calltree.h"
#include "util/array.h"
#include "util/htab.h"

#define DW_TREE_MAX_DEPTH	4096

struct child_key {
	uint32_t parent, func;
};

static uint64_t key_hash(uint32_t parent, uint32_t func)
{
	struct child_key k = { parent, func };

	return dw_hash_bytes(&k, sizeof(k), DW_HASH_INIT);
}

static int child_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_tree_node *n = &((const struct dw_tree *)ctx)->nodes[id];
	const struct child_key *k = key;

	return n->parent == k->parent && n->func == k->func;
}

/* The child of @parent (index + 1, 0: root level) for @func; created if new. */
static long child(struct dw_tree *t, struct dw_htab *h, uint32_t parent, uint32_t func)
{
	struct child_key k = { parent, func };
	uint64_t hash = key_hash(parent, func);
	struct dw_tree_node *n;
	long id = dw_htab_find(h, hash, child_eq, t, &k);

	if (id >= 0)
		return id;
	if (DW_ARRAY_RESERVE(t->nodes, t->cap, t->nr + 1, 1024) ||
	    dw_htab_insert(h, hash, (uint32_t)t->nr))
		return -ENOMEM;
	n = &t->nodes[t->nr];
	memset(n, 0, sizeof(*n));
	n->func = func;
	n->parent = parent;
	n->depth = parent ? t->nodes[parent - 1].depth + 1 : 0;
	if (parent) {
		n->next = t->nodes[parent - 1].first_child;
		t->nodes[parent - 1].first_child = (uint32_t)t->nr + 1;
	} else {
		n->next = t->first_root;
		t->first_root = (uint32_t)t->nr + 1;
	}
	return (long)t->nr++;
}

/**
 * dw_tree_build() - merge a profile's stacks into a call tree
 * @t:		tree to fill (zeroed by the caller or freed before)
 * @p:		profile
 * @inline_frames: expand inlined functions
 * @inverted:	roots are the leaves (a callers view) instead of the outermost frames
 *
 * Context: user space.  Samples without any frame are counted in
 * @t->total only.
 * Return: 0 or -ENOMEM (the tree is then freed).
 */
int dw_tree_build(struct dw_tree *t, const struct dw_prof *p, int inline_frames, int inverted)
{
	static uint32_t funcs[DW_TREE_MAX_DEPTH];
	struct dw_htab h = { 0 };
	size_t i, n, j;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s = &p->samples[i];
		uint32_t parent = 0;

		t->total += s->period;
		n = dw_prof_frames(p, s, inline_frames, funcs, DW_TREE_MAX_DEPTH);
		for (j = 0; j < n; j++) {
			uint32_t f = inverted ? funcs[j] : funcs[n - 1 - j];
			long c = child(t, &h, parent, f);

			if (c < 0) {
				dw_htab_free(&h);
				dw_tree_free(t);
				return -ENOMEM;
			}
			t->nodes[c].total += s->period;
			if (s->flags & DUNWIND_SAMPLE_OFF_CPU)
				t->nodes[c].off += s->period;
			t->nodes[c].samples++;
			if (j == n - 1)
				t->nodes[c].self += s->period;
			parent = (uint32_t)c + 1;
		}
	}
	dw_htab_free(&h);
	return 0;
}

/* What node_cmp() orders by: qsort_r()'s context. */
struct node_order {
	const struct dw_prof *prof;
	const struct dw_tree *tree;
	int by_name;
};

static int node_cmp(const void *a, const void *b, void *ctx)
{
	const struct node_order *o = ctx;
	const struct dw_tree_node *x = &o->tree->nodes[*(const uint32_t *)a - 1];
	const struct dw_tree_node *y = &o->tree->nodes[*(const uint32_t *)b - 1];

	if (!o->by_name && x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(o->prof->funcs[x->func].name, o->prof->funcs[y->func].name);
}

/* Sort one sibling list starting at *@head, in order @o. */
static int sort_list(struct dw_tree *t, uint32_t *head, struct node_order *o)
{
	uint32_t *v, c;
	size_t n = 0, i;

	for (c = *head; c; c = t->nodes[c - 1].next)
		n++;
	if (n < 2)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (c = *head, i = 0; c; c = t->nodes[c - 1].next)
		v[i++] = c;
	qsort_r(v, n, sizeof(*v), node_cmp, o);
	*head = v[0];
	for (i = 0; i + 1 < n; i++)
		t->nodes[v[i] - 1].next = v[i + 1];
	t->nodes[v[n - 1] - 1].next = 0;
	free(v);
	return 0;
}

/**
 * dw_tree_sort() - order every sibling list
 * @t:		tree
 * @p:		its profile (for the names)
 * @by_name:	by name only (flame graphs); else by total weight, then name
 *
 * Context: user space.  On ENOMEM a list stays unsorted.
 */
void dw_tree_sort(struct dw_tree *t, const struct dw_prof *p, int by_name)
{
	struct node_order o = { .prof = p, .tree = t, .by_name = by_name };
	size_t i;

	sort_list(t, &t->first_root, &o);
	for (i = 0; i < t->nr; i++)
		sort_list(t, &t->nodes[i].first_child, &o);
}

/**
 * dw_tree_free() - free a tree's nodes
 * @t:		tree
 *
 * Context: user space.
 */
void dw_tree_free(struct dw_tree *t)
{
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}
