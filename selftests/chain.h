/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Match stitched user stacks against a call-chain pattern, for the SFrame
 * selftests: which samples count, how many carry the expected chain, and
 * which unwinding methods their stacks used.
 */
#ifndef DW_SELFTEST_CHAIN_H
#define DW_SELFTEST_CHAIN_H

#include <stddef.h>
#include "records.h"
#include "symbols/symtab.h"

/*
 * One element of a pattern, matched innermost first: between @min and @max
 * consecutive frames (both 0: exactly one) whose function is @func (NULL:
 * any) and whose file's path contains @dso (NULL: any).  Matching is
 * greedy, so consecutive elements must not match the same frames.
 */
struct dw_frame_pat {
	const char *func;
	const char *dso;
	int min, max;
};

/* Pattern elements: one frame in @f; in @f inside a file named like @d; n..m frames. */
#define DW_FN(f)		{ .func = (f), .dso = NULL, .min = 0, .max = 0 }
#define DW_FN_IN(f, d)		{ .func = (f), .dso = (d), .min = 0, .max = 0 }
#define DW_FN_N(f, n, m)	{ .func = (f), .dso = NULL, .min = (n), .max = (m) }
#define DW_IN_N(d, n, m)	{ .func = NULL, .dso = (d), .min = (n), .max = (m) }

/* Which samples are judged (all conditions hold). */
struct dw_chain_opts {
	const struct dw_frame_pat *want;
	int nr_want;
	int pid;
	const char *in_func;	/* user_ip in this function (NULL: any) */
	const char *in_dso;	/* and in a file whose path contains this (NULL: any) */
	int window;		/* every sample between the first and last such one */
	int kernel_only;	/* only samples taken in the kernel (nr_kernel > 0) */
};

struct dw_chain_result {
	size_t samples;		/* samples of @pid */
	size_t judged;		/* selected by the options */
	size_t matched;		/* of those, stacks that carry the pattern */
	size_t matched_sframe;	/* matched with nr_sframe > 0 */
	size_t matched_both;	/* matched with nr_sframe > 0 and nr_fp > 0 */
	size_t with_sframe;	/* judged stacks with nr_sframe > 0 */
	size_t reach_main;	/* judged stacks with a frame in main() */
	size_t max_nr;		/* deepest judged stack */
	size_t stopped[DUNWIND_STOP_MAX];	/* judged stacks by why the walk stopped */
	size_t shown;		/* mismatches printed */
};

/*
 * Stitch @r and judge the samples of @o->pid (names from @maps) against
 * @o->want; print the first few mismatches as TAP comments.
 * 0 or -errno (-ENOMEM).
 */
int dw_chain_check(const struct dw_records *r, const struct dw_maps *maps,
		   const struct dw_chain_opts *o, struct dw_chain_result *res);
/* Frame @i of @u as "func" ("?" if unknown), return addresses looked up at -1. */
const char *dw_chain_frame(const struct dw_maps *maps, const struct dunwind_rec_user_stack *u,
			   int i, const char **dso);

#endif
