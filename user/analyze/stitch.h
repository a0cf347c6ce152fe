/* SPDX-License-Identifier: GPL-2.0 */
/* Join SAMPLE and USER_STACK records by cookie, in either arrival order. */
#ifndef DW_STITCH_H
#define DW_STITCH_H

#include <linux/dunwind.h>

#include "capture/dispatch.h"

struct dw_stitch;

struct dw_stitch_counts {
	unsigned long samples;		/* SAMPLE (and SAMPLE_STACK) records seen */
	unsigned long user_stacks;	/* USER_STACK (and SAMPLE_STACK) records seen */
	unsigned long joined;		/* samples that got their user stack */
	unsigned long no_user;		/* samples with cookie 0 */
	unsigned long missing;		/* cookie != 0 but no USER_STACK came */
	unsigned long orphan_stacks;	/* USER_STACK no sample referenced */
	unsigned long dup_stacks;	/* a second USER_STACK for one cookie */
	unsigned long lost[DUNWIND_REC_MAX]; /* from LOST records */
};

struct dw_stitch *dw_stitch_new(void);
/* Its callbacks, @arg the stitcher, for readers that dispatch records themselves. */
extern const struct dw_rec_ops dw_stitch_ops;
/* Copy one checked record in. 0 or -errno (-ENOMEM). Unknown types are ignored. */
int dw_stitch_add(struct dw_stitch *st, const struct dunwind_rec_header *rec);
/*
 * Call @fn once per sample in arrival order with its user stack, or NULL
 * when none came (cookie 0, or lost).  Fills @counts if not NULL.
 */
typedef void (*dw_stitched_fn)(const struct dunwind_rec_sample *s,
			       const struct dunwind_rec_user_stack *u, void *arg);
int dw_stitch_finish(struct dw_stitch *st, dw_stitched_fn fn, void *arg,
		     struct dw_stitch_counts *counts);
void dw_stitch_free(struct dw_stitch *st);

#endif
