// SPDX-License-Identifier: GPL-2.0
/*
 * 'dunwind report' text: what the capture holds (samples, lost records,
 * truncated stacks, why and in which files, unwinding methods), the functions by self and
 * total share of the sampled CPU time, and two call trees: top-down
 * (callers -> callees) and inverted (each leaf function -> its callers).
 *
 * Self: the function was the leaf of the sample.  Total: the function is
 * anywhere in the sample's stack (a recursive function counts once).
 * Percentages are of the period (CPU time) of the samples kept; off-CPU
 * samples weigh their time blocked ('report' shows them apart).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/calltree.h"
#include "capture/event.h"
#include "output/report.h"
#include "util/array.h"

#define DW_REPORT_MAX_FRAMES	4096

struct func_stat {
	uint32_t func;
	uint64_t self, total;
	unsigned long samples;		/* samples through the function */
	size_t last_sample;		/* to count a function once per sample */
};

/* What stat_cmp() orders by: qsort_r()'s context. */
struct stat_order {
	enum dw_report_sort key;
	const struct dw_prof *prof;
};

static int stat_cmp(const void *a, const void *b, void *ctx)
{
	const struct func_stat *x = a, *y = b;
	const struct stat_order *o = ctx;
	const struct dw_prof *p = o->prof;
	int c = 0;

	switch (o->key) {
	case DW_SORT_SELF:
		c = x->self != y->self ? (x->self > y->self ? -1 : 1) : 0;
		if (!c && x->total != y->total)
			c = x->total > y->total ? -1 : 1;
		break;
	case DW_SORT_TOTAL:
		c = x->total != y->total ? (x->total > y->total ? -1 : 1) : 0;
		if (!c && x->self != y->self)
			c = x->self > y->self ? -1 : 1;
		break;
	case DW_SORT_SAMPLES:
		c = x->samples != y->samples ? (x->samples > y->samples ? -1 : 1) : 0;
		break;
	case DW_SORT_NAME:
		break;
	}
	if (!c)
		c = strcmp(p->funcs[x->func].name, p->funcs[y->func].name);
	if (!c)
		c = strcmp(p->funcs[x->func].dso ? p->funcs[x->func].dso : "",
			   p->funcs[y->func].dso ? p->funcs[y->func].dso : "");
	return c;
}

/**
 * dw_report_parse_sort() - parse a --sort key
 * @s:		"self", "total", "samples" or "name"
 * @sort:	set on success
 *
 * Context: any.
 * Return: 0, or -EINVAL for another word.
 */
int dw_report_parse_sort(const char *s, enum dw_report_sort *sort)
{
	static const char *const names[] = { "self", "total", "samples", "name" };
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*sort = (enum dw_report_sort)i;
			return 0;
		}
	return -EINVAL;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

#define DW_REPORT_TOP_DSOS	5

struct dso_count {
	const char *dso;
	unsigned long n;
};

/* The file a truncated stack stops in: its outermost user frame's; NULL if none. */
static const char *trunc_dso(const struct dw_prof *p, const struct dw_prof_sample *s)
{
	uint32_t i;

	for (i = s->nr; i-- > 0;) {
		const struct dw_prof_loc *l = &p->locs[p->stack[s->first + i]];

		if (l->marker)
			continue;
		if (l->kernel)
			return NULL;
		return l->dso ? l->dso : "[unknown]";
	}
	return NULL;
}

static int dso_count_cmp(const void *a, const void *b)
{
	const struct dso_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->dso, y->dso);
}

/* One line: the files truncated user stacks stop in, most frequent first. */
static int report_trunc_dsos(FILE *f, const struct dw_prof *p)
{
	struct dso_count *v = NULL;
	size_t i, j, n = 0, cap = 0;

	for (i = 0; i < p->nr_samples; i++) {
		const char *dso;

		if (p->samples[i].stop == DUNWIND_STOP_END)
			continue;
		dso = trunc_dso(p, &p->samples[i]);
		if (!dso)
			continue;
		for (j = 0; j < n && strcmp(v[j].dso, dso); j++)
			;
		if (j == n) {
			if (DW_ARRAY_RESERVE(v, cap, n + 1, 16)) {
				free(v);
				return -ENOMEM;
			}
			v[n].dso = dso;
			v[n++].n = 0;
		}
		v[j].n++;
	}
	if (n) {
		qsort(v, n, sizeof(*v), dso_count_cmp);
		fprintf(f, "# truncated stacks stop in:");
		for (j = 0; j < n && j < DW_REPORT_TOP_DSOS; j++)
			fprintf(f, "%s %lu %s", j ? "," : "", v[j].n, v[j].dso);
		if (n > DW_REPORT_TOP_DSOS)
			fprintf(f, ", %zu more files", n - DW_REPORT_TOP_DSOS);
		fprintf(f, "\n");
	}
	free(v);
	return 0;
}

/**
 * dw_report_summary() - what the capture holds, as '#' comment lines
 * @f:		output
 * @p:		profile
 *
 * Context: user space.
 * Return: 0, -EIO if writing failed, or -ENOMEM.
 */
int dw_report_summary(FILE *f, const struct dw_prof *p)
{
	const struct dw_stitch_counts *c = &p->counts;
	unsigned long stacks = 0;
	int i, any = 0;

	fprintf(f, "# samples: %zu kept (%lu in the capture, %lu filtered out), %.3f ms of CPU "
		"time\n", p->nr_samples, c->samples, p->filtered,
		(double)(p->total_period - p->offcpu_period) / 1e6);
	if (p->offcpu)
		fprintf(f, "# off-CPU: %lu of them (%s), %.3f ms blocked; %lu still blocked at the "
			"end (the time until then)\n", p->offcpu, DW_EVENT_OFFCPU_NAME,
			(double)p->offcpu_period / 1e6, p->offcpu_open);
	fprintf(f, "# stitching: %lu with their user stack, %lu without a user part, %lu user "
		"stack missing; %lu orphan and %lu duplicate user stacks\n",
		c->joined, c->no_user, c->missing, c->orphan_stacks, c->dup_stacks);
	fprintf(f, "# lost: %lu records (%lu samples, %lu user stacks, %lu other)\n",
		c->lost[0], c->lost[DUNWIND_REC_SAMPLE], c->lost[DUNWIND_REC_USER_STACK],
		c->lost[0] - c->lost[DUNWIND_REC_SAMPLE] - c->lost[DUNWIND_REC_USER_STACK]);
	fprintf(f, "# truncated stacks:");
	for (i = 1; i < DW_PROF_STOP_NR; i++) {
		if (!p->stops[i])
			continue;
		fprintf(f, "%s %lu %s", any ? "," : "", p->stops[i], dw_prof_stop_name(i));
		any = 1;
	}
	fprintf(f, "%s (%lu complete)", any ? "" : " none", p->stops[DUNWIND_STOP_END]);
	if (p->kernel_trunc)
		fprintf(f, "; %lu kernel stacks cut at max_kernel_frames", p->kernel_trunc);
	fprintf(f, "\n");
	if (p->in_walk)
		fprintf(f, "# profiler overhead: %lu samples (%.1f %%) in dunwind's own walk, shown as "
			"one %s frame on top of the user stack\n", p->in_walk,
			100.0 * (double)p->in_walk / (double)p->nr_samples, DW_PROF_WALK_FRAME);
	if (report_trunc_dsos(f, p))
		return -ENOMEM;
	/* Stacks with a method this reader does not know count in the total only. */
	for (i = 0; i < 1 << DUNWIND_UNWIND_NR; i++)
		stacks += p->stacks_by_method[i];
	fprintf(f, "# unwinding: %lu user stacks: %lu frame pointers only, %lu SFrame only, %lu "
		"both, %lu neither; %llu user frames: nr_fp %llu, nr_sframe %llu\n",
		stacks, p->stacks_by_method[DUNWIND_UNWIND_FP],
		p->stacks_by_method[DUNWIND_UNWIND_SFRAME],
		p->stacks_by_method[DUNWIND_UNWIND_FP | DUNWIND_UNWIND_SFRAME],
		p->stacks_by_method[0], p->user_frames, p->nr_fp, p->nr_sframe);
	fprintf(f, "# kernel symbols: %s\n", p->ksyms_from);
	fprintf(f, "# user symbols: %s", p->usyms_from);
	if (p->usyms_used || p->unnamed)
		fprintf(f, "; %lu locations named from the snapshot, %lu unnamed", p->usyms_used,
			p->unnamed);
	fprintf(f, "\n");
	if (p->skipped)
		fprintf(f, "# skipped %lu records of unknown type\n", p->skipped);
	return ferror(f) ? -EIO : 0;
}

/*
 * "NAME [DSO]", the DSO by its base name as in "[unknown] (libc.so.6+0x...)"
 * and "libc.so.6+0xSTART": one label style for every frame; names that
 * already say their file stand alone.
 */
static void func_label(char *out, size_t size, const struct dw_prof_func *fn)
{
	const char *base = fn->dso ? strrchr(fn->dso, '/') : NULL;
	size_t n;

	base = base && base[1] && fn->dso[0] == '/' ? base + 1 : fn->dso;
	n = base ? strlen(base) : 0;
	if (!fn->dso || !strcmp(fn->dso, DW_PROF_MARKER_DSO) || !strcmp(fn->dso, fn->name) ||
	    !strncmp(fn->name, "[unknown] (", 11) ||
	    (!strncmp(fn->name, base, n) && !strncmp(fn->name + n, "+0x", 3)))
		snprintf(out, size, "%s", fn->name);
	else if (fn->dso[0] == '[')
		snprintf(out, size, "%s %s", fn->name, fn->dso);
	else
		snprintf(out, size, "%s [%s]", fn->name, base);
}

static void print_tree(FILE *f, const struct dw_prof *p, const struct dw_tree *t,
		       const struct dw_report_opts *o, int inverted)
{
	uint32_t c = t->first_root;
	char label[1200];

	/* Depth-first: a node's first child, else its next sibling or an ancestor's. */
	while (c) {
		const struct dw_tree_node *n = &t->nodes[c - 1];
		int show = pct(n->total, t->total) >= o->percent_limit &&
			   (!o->max_depth || n->depth < o->max_depth);

		if (show) {
			func_label(label, sizeof(label), &p->funcs[n->func]);
			if (inverted)
				fprintf(f, "%7.2f%%  %*s%s\n", pct(n->total, t->total),
					(int)(2 * n->depth), "", label);
			else
				fprintf(f, "%7.2f%% %7.2f%%  %*s%s\n", pct(n->total, t->total),
					pct(n->self, t->total), (int)(2 * n->depth), "", label);
		}
		if (show && n->first_child) {
			c = n->first_child;
			continue;
		}
		while (c && !t->nodes[c - 1].next)
			c = t->nodes[c - 1].parent;
		if (c)
			c = t->nodes[c - 1].next;
	}
}

/**
 * dw_report_write() - the whole text report
 * @f:		output
 * @p:		profile
 * @o:		options
 *
 * Context: user space.
 * Return: 0, -ENOMEM, or -EIO if writing failed.
 */
int dw_report_write(FILE *f, const struct dw_prof *p, const struct dw_report_opts *o)
{
	static uint32_t funcs[DW_REPORT_MAX_FRAMES];
	struct func_stat *st = calloc(p->nr_funcs ? p->nr_funcs : 1, sizeof(*st));
	struct dw_tree t;
	char label[1200];
	size_t i, j, n;
	unsigned int rows = 0;

	if (!st)
		return -ENOMEM;
	fprintf(f, "# dunwind report of %s\n", o->input);
	if (o->section)
		fprintf(f, "# %s\n", o->section);
	dw_report_summary(f, p);
	for (i = 0; i < p->nr_funcs; i++) {
		st[i].func = (uint32_t)i;
		st[i].last_sample = SIZE_MAX;
	}
	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s = &p->samples[i];

		n = dw_prof_frames(p, s, o->inline_frames, funcs, DW_REPORT_MAX_FRAMES);
		if (n)
			st[funcs[0]].self += s->period;
		for (j = 0; j < n; j++) {
			struct func_stat *fs = &st[funcs[j]];

			if (fs->last_sample == i)
				continue;
			fs->last_sample = i;
			fs->total += s->period;
			fs->samples++;
		}
	}
	qsort_r(st, p->nr_funcs, sizeof(*st), stat_cmp,
		&(struct stat_order){ .key = o->sort, .prof = p });
	fprintf(f, "#\n#    Self    Total  Samples  Function [DSO]\n");
	for (i = 0; i < p->nr_funcs; i++) {
		if (!st[i].total || (o->max_rows && rows >= o->max_rows))
			continue;
		if (pct(o->sort == DW_SORT_SELF ? st[i].self : st[i].total, p->total_period) <
		    o->percent_limit && o->sort != DW_SORT_NAME)
			continue;
		func_label(label, sizeof(label), &p->funcs[st[i].func]);
		fprintf(f, "%7.2f%% %7.2f%% %8lu  %s\n", pct(st[i].self, p->total_period),
			pct(st[i].total, p->total_period), st[i].samples, label);
		rows++;
	}
	free(st);
	if (o->no_tree)
		return ferror(f) ? -EIO : 0;
	if (dw_tree_build(&t, p, o->inline_frames, 0))
		return -ENOMEM;
	dw_tree_sort(&t, p, 0);
	fprintf(f, "#\n# Call tree, callers -> callees (total%%, self%%):\n");
	print_tree(f, p, &t, o, 0);
	dw_tree_free(&t);
	if (dw_tree_build(&t, p, o->inline_frames, 1))
		return -ENOMEM;
	dw_tree_sort(&t, p, 0);
	fprintf(f, "#\n# Callers, leaf functions <- their callers (share of samples ending "
		"there through each caller):\n");
	print_tree(f, p, &t, o, 1);
	dw_tree_free(&t);
	return ferror(f) ? -EIO : 0;
}
