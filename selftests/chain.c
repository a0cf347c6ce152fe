// SPDX-License-Identifier: GPL-2.0
/* Judge stitched user stacks against a call-chain pattern (see chain.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"

#define CHAIN_SHOW	5	/* mismatching stacks to print */
#define CHAIN_SHOW_FRAMES 12

/* One judged sample: kept until the window is known. */
struct chain_one {
	unsigned char in_func, selected, matched, sframe, both, main;
	unsigned char stop;	/* DUNWIND_STOP_*, or DUNWIND_STOP_MAX: no user stack */
};

struct chain_ctx {
	const struct dw_maps *maps;
	const struct dw_chain_opts *o;
	struct dw_chain_result *res;
	struct chain_one *v;
	size_t n, cap;
	int err;
};

/**
 * dw_chain_frame() - the function of user frame @i of @u
 * Context: user space.  *@dso (if not NULL) gets the file or NULL.
 * Return: the name, or "?" when no symbol covers it.
 */
const char *dw_chain_frame(const struct dw_maps *maps, const struct dunwind_rec_user_stack *u,
			   int i, const char **dso)
{
	const char *d = NULL, *name;
	uint64_t off;

	name = dw_maps_lookup(maps, u->ips[i] - (i ? 1 : 0), &off, &d);
	if (dso)
		*dso = d;
	return name ? name : "?";
}

static int frame_is(const struct dw_maps *maps, const struct dunwind_rec_user_stack *u, int i,
		    const struct dw_frame_pat *p)
{
	const char *dso, *name = dw_chain_frame(maps, u, i, &dso);

	if (p->func && strcmp(name, p->func))
		return 0;
	if (p->dso && (!dso || !strstr(dso, p->dso)))
		return 0;
	return 1;
}

static int chain_matches(const struct dw_maps *maps, const struct dunwind_rec_user_stack *u,
			 const struct dw_frame_pat *want, int nr_want)
{
	int i = 0, k;

	for (k = 0; k < nr_want; k++) {
		int min = want[k].min, max = want[k].max, n = 0;

		if (!min && !max)
			min = max = 1;
		while (n < max && i < u->nr && frame_is(maps, u, i, &want[k])) {
			n++;
			i++;
		}
		if (n < min)
			return 0;
	}
	return 1;
}

static void show(const struct chain_ctx *c, const struct dunwind_rec_sample *s,
		 const struct dunwind_rec_user_stack *u)
{
	char line[768];
	int i, len = 0;

	if (!u) {
		fprintf(stderr, "# sample tid %u ip %#llx cookie %llu flags %#x: no user stack\n",
			s->tid, (unsigned long long)s->user_ip, (unsigned long long)s->cookie,
			s->flags);
		return;
	}
	line[0] = '\0';
	for (i = 0; i < u->nr && i < CHAIN_SHOW_FRAMES; i++) {
		int n = snprintf(line + len, sizeof(line) - len, " %s",
				 dw_chain_frame(c->maps, u, i, NULL));

		if (n < 0 || n >= (int)sizeof(line) - len)
			break;	/* truncated: what fits is printed */
		len += n;
	}
	fprintf(stderr, "# ip %#llx kernel %u: %u frames (fp %u sframe %u) stop %u:%s%s\n",
		(unsigned long long)s->user_ip, s->nr_kernel, u->nr, u->nr_fp, u->nr_sframe,
		u->stop, line, u->nr > CHAIN_SHOW_FRAMES ? " ..." : "");
}

static void judge(const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u,
		  void *arg)
{
	struct chain_ctx *c = arg;
	const struct dw_chain_opts *o = c->o;
	struct chain_one *one;
	const char *name = NULL, *dso = NULL;
	uint64_t off;
	int i;

	if (c->err || s->pid != (__u32)o->pid)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 4096;
		void *v = realloc(c->v, cap * sizeof(*c->v));

		if (!v) {
			c->err = -ENOMEM;
			return;
		}
		c->v = v;
		c->cap = cap;
	}
	one = &c->v[c->n++];
	memset(one, 0, sizeof(*one));
	if (s->user_ip)
		name = dw_maps_lookup(c->maps, s->user_ip, &off, &dso);
	one->in_func = (!o->in_func || (name && !strcmp(name, o->in_func))) &&
		       (!o->in_dso || (dso && strstr(dso, o->in_dso)));
	one->selected = (!o->kernel_only || s->nr_kernel > 0) && (o->window || one->in_func);
	one->stop = DUNWIND_STOP_MAX;
	if (!u)
		return;
	if (u->stop < DUNWIND_STOP_MAX)
		one->stop = u->stop;
	one->matched = chain_matches(c->maps, u, o->want, o->nr_want);
	one->sframe = u->nr_sframe > 0;
	one->both = u->nr_sframe > 0 && u->nr_fp > 0;
	for (i = 0; i < u->nr && !one->main; i++)
		one->main = !strcmp(dw_chain_frame(c->maps, u, i, NULL), "main");
	if (one->selected && u->nr > c->res->max_nr)
		c->res->max_nr = u->nr;
	/* Mismatches are shown only for samples that will surely be judged. */
	if (one->selected && one->in_func && !one->matched && c->res->shown < CHAIN_SHOW) {
		c->res->shown++;
		show(c, s, u);
	}
}

/**
 * dw_chain_check() - judge the samples of a profile against a pattern
 * Context: user space.
 * Return: 0, -ENOMEM, or dw_records_stitch()'s -errno.
 */
int dw_chain_check(const struct dw_records *r, const struct dw_maps *maps,
		   const struct dw_chain_opts *o, struct dw_chain_result *res)
{
	struct chain_ctx c = { .maps = maps, .o = o, .res = res };
	size_t i, first = 0, last = 0;
	int found = 0, ret;

	memset(res, 0, sizeof(*res));
	ret = dw_records_stitch(r, judge, &c, NULL);
	if (!ret)
		ret = c.err;
	if (ret) {
		free(c.v);
		return ret;
	}
	res->samples = c.n;
	for (i = 0; i < c.n; i++) {
		if (!c.v[i].in_func || !c.v[i].selected)
			continue;
		if (!found)
			first = i;
		last = i;
		found = 1;
	}
	for (i = first; found && i <= last; i++) {
		const struct chain_one *one = &c.v[i];

		if (!one->selected || (!o->window && !one->in_func))
			continue;
		res->judged++;
		res->matched += one->matched;
		res->matched_sframe += one->matched && one->sframe;
		res->matched_both += one->matched && one->both;
		res->with_sframe += one->sframe;
		res->reach_main += one->main;
		if (one->stop < DUNWIND_STOP_MAX)
			res->stopped[one->stop]++;
	}
	free(c.v);
	return 0;
}
