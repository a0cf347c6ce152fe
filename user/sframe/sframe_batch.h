/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Many files' SFrame tables at once: dw_sframe_register_file() of each,
 * on helper threads beside the caller, so that a cold cache costs the
 * generation of the largest files on every CPU, not their sum on one.
 */
#ifndef DW_SFRAME_BATCH_H
#define DW_SFRAME_BATCH_H

#include <stdatomic.h>
#include <stddef.h>

#include "sframe/sframe_reg.h"

/* Helper threads at most, beside the caller. */
#define DW_SFRAME_BATCH_HELPERS_MAX	7

/*
 * struct dw_sframe_batch_item - one file of a batch.
 * @path:	the file (not copied: it must outlive the batch).
 * @flags:	DW_SFRAME_REG_* of its own, or-ed into the batch's.
 * @err:	out: dw_sframe_register_file()'s return.
 * @res:	out: what it says of the file (@res.path is @path).
 * @state:	private.
 */
struct dw_sframe_batch_item {
	const char *path;
	unsigned int flags;
	int err;
	struct dw_sframe_reg_file res;
	atomic_int state;
};

/*
 * struct dw_sframe_batch - a batch to run.
 * @dev_fd:	the session (< 0: generate and cache only, as
 *		dw_sframe_register_file()).
 * @opts:	options for every file (the cache); may be NULL.
 * @items, @n:	the files, taken in order.
 * @helpers:	threads beside the caller (at most
 *		DW_SFRAME_BATCH_HELPERS_MAX; 0: the caller alone).
 * @done:	called in the caller's thread for each file once its table
 *		was made (or failed), in any order.
 * @tick:	called in the caller's thread between two files, and every
 *		few ms while it waits for the helpers; may set *@stop.
 * @stop:	non-zero: no file is started any more (those running finish).
 * @arg:	for @done and @tick.
 */
struct dw_sframe_batch {
	int dev_fd;
	const struct dw_sframe_reg_opts *opts;
	struct dw_sframe_batch_item *items;
	size_t n;
	unsigned int helpers;
	void (*done)(void *arg, struct dw_sframe_batch_item *it);
	void (*tick)(void *arg);
	const int *stop;
	void *arg;
};

unsigned int dw_sframe_batch_helpers(void);
size_t dw_sframe_batch_run(const struct dw_sframe_batch *b);

#endif /* DW_SFRAME_BATCH_H */
