// SPDX-License-Identifier: GPL-2.0
/*
 * Stitching samples with user stacks: both arrival orders, cookie 0,
 * stacks that never came, duplicate and orphan stacks, shared cookies,
 * lost counts, and a large shuffled stream.
 */
#include <errno.h>
#include <stdlib.h>

#include "tap.h"
#include "mkrec.h"
#include "analyze/stitch.h"

#define MAXS	64

struct got {
	int n;
	__u64 sample_time[MAXS];
	__u64 stack_ip0[MAXS];		/* 0: no stack */
	int bad;			/* stack handed with the wrong cookie */
};

static void collect(const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u,
		    void *arg)
{
	struct got *g = arg;

	if (g->n >= MAXS)
		return;
	if (u && u->cookie != s->cookie)
		g->bad++;
	g->sample_time[g->n] = s->time;
	g->stack_ip0[g->n] = u ? (u->nr ? u->ips[0] : 1) : 0;
	g->n++;
}

static void add(struct dw_stitch *st, const struct dunwind_rec_header *rec)
{
	if (dw_stitch_add(st, rec))
		printf("# dw_stitch_add failed\n");
}

static void test_small(void)
{
	struct dw_stitch *st = dw_stitch_new();
	struct dw_stitch_counts c;
	struct got g = { 0 };
	union rec_buf b;

	add(st, mk_sample(&b, 10, 1, 5, 5, 2, 0xffff0000));	/* stack comes later */
	add(st, mk_stack(&b, 20, 5, 5, 3, 0x2000, 0));		/* stack came first */
	add(st, mk_stack(&b, 10, 5, 5, 3, 0x1000, 0));
	add(st, mk_sample(&b, 20, 2, 5, 5, 0, 0));
	add(st, mk_sample(&b, 0, 3, 5, 5, 1, 0xffff0000));	/* no user part */
	add(st, mk_sample(&b, 30, 4, 5, 5, 1, 0xffff0000));	/* its stack never comes */
	add(st, mk_sample(&b, 10, 5, 5, 5, 1, 0xffff0000));	/* shares cookie 10 */
	add(st, mk_stack(&b, 10, 5, 5, 3, 0x9000, 0));		/* duplicate of 10 */
	add(st, mk_stack(&b, 40, 5, 5, 3, 0x4000, 0));		/* orphan */
	add(st, mk_stack(&b, 0, 5, 5, 1, 0x5000, 0));		/* orphan, cookie 0 */
	add(st, mk_lost(&b, 3, 4));
	add(st, mk_lost(&b, 1, 0));
	add(st, mk_unknown(&b, 77, 16));			/* ignored */
	ok(dw_stitch_finish(st, collect, &g, &c) == 0, "finish");
	ok(g.n == 5 && g.sample_time[0] == 1 && g.sample_time[1] == 2 && g.sample_time[2] == 3 &&
	   g.sample_time[3] == 4 && g.sample_time[4] == 5, "every sample, in arrival order");
	ok(g.stack_ip0[0] == 0x1000, "sample before its stack is joined");
	ok(g.stack_ip0[1] == 0x2000, "sample after its stack is joined");
	ok(g.stack_ip0[2] == 0, "cookie 0: no user stack");
	ok(g.stack_ip0[3] == 0, "stack never came: handed out without one, not dropped");
	ok(g.stack_ip0[4] == 0x1000, "second sample of a cookie gets the same (first) stack");
	ok(g.bad == 0, "stacks always match their sample's cookie");
	ok(c.samples == 5 && c.user_stacks == 5 && c.joined == 3 && c.no_user == 1 &&
	   c.missing == 1, "sample counts: 5 samples, 3 joined, 1 without user part, 1 missing");
	ok(c.dup_stacks == 1 && c.orphan_stacks == 2,
	   "stack counts: 1 duplicate, 2 orphans (%lu, %lu)",
	   c.dup_stacks, c.orphan_stacks);
	ok(c.lost[0] == 8 && c.lost[DUNWIND_REC_SAMPLE] == 4 && c.lost[DUNWIND_REC_USER_STACK] == 4,
	   "lost records summed by type");
	memset(&g, 0, sizeof(g));
	dw_stitch_finish(st, collect, &g, &c);
	ok(g.n == 5 && c.joined == 3 && c.orphan_stacks == 2,
	   "finishing twice gives the same answer");
	mk_sample(&b, 1, 1, 1, 1, 0, 0)->size = 8;
	ok(dw_stitch_add(st, &b.hdr) == -EINVAL, "a malformed record is refused");
	dw_stitch_free(st);
}

static void test_large(void)
{
	enum { N = 200000 };
	struct dw_stitch *st = dw_stitch_new();
	struct dw_stitch_counts c;
	__u32 *order = malloc(2 * N * sizeof(*order));
	union rec_buf b;
	int i;

	/* 2N records: sample k and stack k (cookie k + 1), in random order. */
	for (i = 0; i < 2 * N; i++)
		order[i] = (__u32)i;
	srand(7);
	for (i = 2 * N - 1; i > 0; i--) {
		int j = rand() % (i + 1);
		__u32 t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < 2 * N; i++) {
		__u32 k = order[i] / 2;

		if (order[i] % 2)
			add(st, mk_stack(&b, k + 1ULL, 1, 1, 2, 0x1000 + k, 0));
		else
			add(st, mk_sample(&b, k + 1ULL, k, 1, 1, 0, 0));
	}
	dw_stitch_finish(st, NULL, NULL, &c);
	ok(c.samples == N && c.joined == N && c.missing == 0 && c.orphan_stacks == 0 &&
	   c.dup_stacks == 0, "200000 samples and stacks shuffled: all joined");
	dw_stitch_free(st);
	free(order);
}

int main(void)
{
	test_small();
	test_large();
	return tap_done();
}
