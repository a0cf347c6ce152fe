/* SPDX-License-Identifier: GPL-2.0 */
/* Copies of every record a selftest drained from a session, for checking. */
#ifndef DW_SELFTEST_RECORDS_H
#define DW_SELFTEST_RECORDS_H

#include <stddef.h>
#include <linux/dunwind.h>
#include "record/session.h"
#include "analyze/stitch.h"

struct dw_records {
	struct dunwind_rec_header **v;	/* in ring order */
	size_t n, cap;
	__u64 lost;			/* sum of lost[0] of LOST records */
	size_t nr_samples, nr_stacks;	/* a SAMPLE_STACK counts in both */
};

/* A session config for @pid (or @tid when @pid is 0) at @freq Hz, the rest default. */
void dw_records_config(struct dunwind_config *cfg, int pid, int tid, __u64 freq);
/*
 * Open a session with @cfg, start it, drain for @ms, stop it, drain 300 ms
 * more (pending walks finish) and close it; the records go to @r.  0 or
 * -errno; *@st (if not NULL) gets the final counters.
 */
int dw_records_profile(struct dw_records *r, const struct dunwind_config *cfg, int ms,
		       struct dunwind_stats *st);
/*
 * How dw_records_profile_opts() profiles: for @ms, then on in 500 ms steps
 * while fewer than @min_samples SAMPLE records came, up to @max_ms in all
 * (a loaded host gives the guest less CPU).  @before_start(session, @arg),
 * if set, runs after CONFIG and before START (e.g. to register SFrame
 * tables on the session); its non-zero return (-errno) aborts the profile.
 */
typedef int (*dw_records_hook)(struct dw_session *s, void *arg);
struct dw_records_opts {
	int ms, max_ms;
	size_t min_samples;
	dw_records_hook before_start;
	void *arg;
};
int dw_records_profile_opts(struct dw_records *r, const struct dunwind_config *cfg,
			    const struct dw_records_opts *o, struct dunwind_stats *st);
/* Drain what is in the ring now. Records copied, or -errno. */
int dw_records_drain(struct dw_session *s, struct dw_records *r);
/* Poll and drain for @ms milliseconds. 0 or -errno. */
int dw_records_collect(struct dw_session *s, struct dw_records *r, int ms);
/* USER_STACK records carrying @cookie: their number, the last one in *@last. */
size_t dw_records_stacks_for(const struct dw_records *r, __u64 cookie,
			     const struct dunwind_rec_user_stack **last);
/* SAMPLE records carrying @cookie. */
size_t dw_records_samples_for(const struct dw_records *r, __u64 cookie);
/*
 * SAMPLE records with a cookie but not exactly one USER_STACK for it (the
 * first 5 named on stdout); *@checked, if not NULL, gets those with a cookie.
 */
size_t dw_records_unanswered(const struct dw_records *r, size_t *checked);
/* Join samples with their stacks (user/analyze/stitch.h) and call @fn per sample. 0 or -errno. */
int dw_records_stitch(const struct dw_records *r, dw_stitched_fn fn, void *arg,
		      struct dw_stitch_counts *counts);
void dw_records_free(struct dw_records *r);

#endif
