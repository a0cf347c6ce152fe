/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What must hold after any session, however it was loaded (stress_test):
 * every SAMPLE with a cookie has exactly one USER_STACK, and the module's
 * memory is gone after close.  A SAMPLE_STACK counts as a SAMPLE and as
 * the USER_STACK of its cookie.  Fast enough for 10^5 records.
 */
#ifndef DW_SELFTEST_INVARIANTS_H
#define DW_SELFTEST_INVARIANTS_H

#include <stddef.h>
#include <linux/dunwind.h>
#include "records.h"

struct dw_invariants {
	size_t samples;			/* SAMPLE and SAMPLE_STACK records */
	size_t samples_cookie;		/* of those, with a cookie */
	size_t no_stack;		/* of those, with no USER_STACK */
	size_t stacks;			/* USER_STACK and SAMPLE_STACK records */
	size_t sample_stacks;		/* SAMPLE_STACK records */
	size_t dup_cookies;		/* cookies with more than one USER_STACK */
	size_t stops[DUNWIND_STOP_MAX];	/* USER_STACKs by stop reason */
	__u64 lost[8];			/* sum of the LOST records */
	__u64 worst_user_walk_ns;	/* see dw_invariants_scan() */
};

/*
 * Count what the @n records at @v say about the invariants.  The worst
 * user walk: for samples taken in user mode the walk runs at the
 * interrupt's return, so the time from the SAMPLE to its USER_STACK is
 * the walk's.  0 or -ENOMEM.
 */
int dw_invariants_scan(const struct dunwind_rec_header *const *v, size_t n,
		       struct dw_invariants *inv);
/* The same for the records a selftest drained. */
int dw_invariants_scan_records(const struct dw_records *r, struct dw_invariants *inv);
/* Bytes of vmalloc areas the dunwind module holds (/proc/vmallocinfo), or -errno. */
long long dw_vmalloc_bytes(void);
/*
 * Wait up to @ms for the module's vmalloc bytes to fall to @baseline or
 * below (a closed session's memory may go with a late walk).  The last
 * value read, or -errno.
 */
long long dw_vmalloc_settle(long long baseline, int ms);

#endif
