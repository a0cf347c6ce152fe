// SPDX-License-Identifier: GPL-2.0
/* Collect and query the records a selftest drained (see records.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "records.h"

/**
 * dw_records_config() - a minimal valid session config
 * Context: user space.  Exactly one of @pid, @tid should be non-zero.
 */
void dw_records_config(struct dunwind_config *cfg, int pid, int tid, __u64 freq)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->pid = pid;
	cfg->tid = tid;
	cfg->sample_freq = freq;
	cfg->ring_pages = 1024;
}

static int add_record(const struct dunwind_rec_header *rec, void *arg)
{
	struct dw_records *r = arg;
	struct dunwind_rec_header *copy;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		void *v = realloc(r->v, cap * sizeof(*r->v));

		if (!v)
			return -ENOMEM;
		r->v = v;
		r->cap = cap;
	}
	copy = malloc(rec->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec, rec->size);
	r->v[r->n++] = copy;
	if (rec->type == DUNWIND_REC_LOST)
		r->lost += ((const struct dunwind_rec_lost *)rec)->lost[0];
	else if (rec->type == DUNWIND_REC_SAMPLE)
		r->nr_samples++;
	else if (rec->type == DUNWIND_REC_USER_STACK)
		r->nr_stacks++;
	if (rec->type == DUNWIND_REC_SAMPLE_STACK) {
		r->nr_samples++;
		r->nr_stacks++;
	}
	return 0;
}

/**
 * dw_records_drain() - copy every committed record out of the ring
 * Context: user space.
 * Return: records copied, -ENOMEM, or dw_session_drain()'s -errno.
 */
int dw_records_drain(struct dw_session *s, struct dw_records *r)
{
	return dw_session_drain(s, add_record, r);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/**
 * dw_records_collect() - poll and drain the session for @ms milliseconds
 * Context: user space.
 * Return: 0 or -errno from draining.
 */
int dw_records_collect(struct dw_session *s, struct dw_records *r, int ms)
{
	long end = now_ms() + ms;
	int ret;

	for (;;) {
		long left = end - now_ms();

		ret = dw_records_drain(s, r);
		if (ret < 0)
			return ret;
		if (left <= 0)
			return 0;
		/* A hung-up ring (target gone) still gets drained until @ms. */
		if (dw_session_poll(s, left < 50 ? (int)left : 50) < 0)
			usleep(20000);
	}
}

/**
 * dw_records_profile() - one whole session: configure, start, drain, stop
 * Context: user space.  The target keeps running; the caller stops it.
 * Return: 0, or the first -errno of open, start, drain, stop or stats.
 */
int dw_records_profile(struct dw_records *r, const struct dunwind_config *cfg, int ms,
		       struct dunwind_stats *st)
{
	const struct dw_records_opts o = { .ms = ms };

	return dw_records_profile_opts(r, cfg, &o, st);
}

/**
 * dw_records_profile_opts() - dw_records_profile() until enough samples came,
 * with a call before START
 * Context: user space.  The target keeps running; the caller stops it.
 * Return: 0, @o->before_start's non-zero value, or the first -errno of
 * open, start, drain, stop or stats.
 */
int dw_records_profile_opts(struct dw_records *r, const struct dunwind_config *cfg,
			    const struct dw_records_opts *o, struct dunwind_stats *st)
{
	struct dw_session s;
	int ret, ms;

	ret = dw_session_open(&s, NULL, cfg);
	if (ret)
		return ret;
	ret = o->before_start ? o->before_start(&s, o->arg) : 0;
	if (!ret)
		ret = dw_session_start(&s);
	if (!ret)
		ret = dw_records_collect(&s, r, o->ms);
	for (ms = o->ms; !ret && r->nr_samples < o->min_samples && ms < o->max_ms; ms += 500)
		ret = dw_records_collect(&s, r, 500);
	if (!ret)
		ret = dw_session_stop(&s);
	if (!ret)
		ret = dw_records_collect(&s, r, 300);
	if (!ret && st) {
		memset(st, 0, sizeof(*st));
		st->size = sizeof(*st);
		ret = dw_session_stats(&s, st);
	}
	dw_session_close(&s);
	return ret;
}

/**
 * dw_records_stacks_for() - the USER_STACK records that carry @cookie
 * Context: user space.
 * Return: how many there are; *@last (if not NULL) is the last one or NULL.
 */
size_t dw_records_stacks_for(const struct dw_records *r, __u64 cookie,
			     const struct dunwind_rec_user_stack **last)
{
	size_t i, n = 0;

	if (last)
		*last = NULL;
	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_user_stack *u = (const void *)r->v[i];

		if (r->v[i]->type != DUNWIND_REC_USER_STACK || u->cookie != cookie)
			continue;
		n++;
		if (last)
			*last = u;
	}
	return n;
}

/**
 * dw_records_samples_for() - how many SAMPLE records carry @cookie
 * Context: user space.
 * Return: the count.
 */
size_t dw_records_samples_for(const struct dw_records *r, __u64 cookie)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_sample *s = (const void *)r->v[i];

		if (r->v[i]->type == DUNWIND_REC_SAMPLE && s->cookie == cookie)
			n++;
	}
	return n;
}

/**
 * dw_records_unanswered() - samples that promised a user stack and did not get one
 * @checked: if not NULL, gets the number of SAMPLE records with a cookie
 * Context: user space.  Names the first 5 on stdout, as TAP comments.
 * Return: the SAMPLE records with a cookie that not exactly one USER_STACK carries.
 */
size_t dw_records_unanswered(const struct dw_records *r, size_t *checked)
{
	size_t i, n, bad = 0, seen = 0;

	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_sample *s = (const void *)r->v[i];

		if (r->v[i]->type != DUNWIND_REC_SAMPLE || !s->cookie)
			continue;
		seen++;
		n = dw_records_stacks_for(r, s->cookie, NULL);
		if (n != 1 && bad++ < 5)
			printf("# tid %u cookie %llu flags %#x: %zu user stacks\n", s->tid,
			       (unsigned long long)s->cookie, s->flags, n);
	}
	if (checked)
		*checked = seen;
	return bad;
}

/**
 * dw_records_stitch() - join samples and user stacks with user/analyze/stitch.c
 * Context: user space.  @fn sees each sample once, in ring order.
 * Return: 0, -ENOMEM, or dw_stitch_add()/dw_stitch_finish()'s -errno.
 */
int dw_records_stitch(const struct dw_records *r, dw_stitched_fn fn, void *arg,
		      struct dw_stitch_counts *counts)
{
	struct dw_stitch *st = dw_stitch_new();
	size_t i;
	int ret = 0;

	if (!st)
		return -ENOMEM;
	for (i = 0; i < r->n && !ret; i++)
		ret = dw_stitch_add(st, r->v[i]);
	if (!ret)
		ret = dw_stitch_finish(st, fn, arg, counts);
	dw_stitch_free(st);
	return ret;
}

/**
 * dw_records_free() - free every copy and reset @r
 * Context: user space.
 */
void dw_records_free(struct dw_records *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i]);
	free(r->v);
	memset(r, 0, sizeof(*r));
}
