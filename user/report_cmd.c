// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind report: the profile of a capture as text (summary, top
 * functions, call trees), or as folded stacks, speedscope JSON, pprof or
 * perf.data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopts.h"
#include "capture/event.h"
#include "commands.h"
#include "output/format.h"
#include "output/perfdata.h"
#include "analyze/profile.h"
#include "output/report.h"
#include "util/num.h"

struct report_args {
	struct dw_common_args c;
	struct dw_report_opts ro;
	int folded;			/* --folded, unless a --format came after it */
	const struct dw_output_format *fmt;	/* NULL: the first, text */
	const char *output;
};

static const char *sort_values(void)
{
	return "self, total, samples, name";
}

static int opt_format(const struct dw_option *opt, const char *arg, void *args,
		      const char *cmd)
{
	struct report_args *a = args;

	(void)opt;
	a->fmt = dw_output_find(arg);
	a->folded = 0;
	if (a->fmt)
		return 0;
	fprintf(stderr, "dunwind %s: --format wants %s, not '%s'\n", cmd, dw_output_names(),
		arg);
	return -EINVAL;
}

static int opt_sort(const struct dw_option *opt, const char *arg, void *args, const char *cmd)
{
	struct report_args *a = args;

	(void)opt;
	if (!dw_report_parse_sort(arg, &a->ro.sort))
		return 0;
	fprintf(stderr, "dunwind %s: --sort wants %s, not '%s'\n", cmd, sort_values(), arg);
	return -EINVAL;
}

static int opt_percent(const struct dw_option *opt, const char *arg, void *args,
		       const char *cmd)
{
	struct report_args *a = args;

	(void)opt;
	if (!dw_parse_double(arg, 0, 100, &a->ro.percent_limit))
		return 0;
	fprintf(stderr, "dunwind %s: --percent-limit wants a number from 0 to 100, not '%s'\n",
		cmd, arg);
	return -EINVAL;
}

static const struct dw_option report_options[] = {
	DW_COMMON_OPTIONS(struct report_args),
	{ .type = DW_OPT_CALLBACK, .short_name = 's', .long_name = "sort", .argh = "KEY",
	  .cb = opt_sort, .values = sort_values,
	  .help = "order functions by KEY, self by default" },
	OPT_BOOL(0, "folded", struct report_args, folded, "folded stacks (same as --format folded)"),
	{ .type = DW_OPT_CALLBACK, .long_name = "format", .argh = "FMT", .cb = opt_format,
	  .values = dw_output_names,
	  .help = "output format, text by default; perf writes perf.data for perf report "
		  "and perf script (needs -o)" },
	/* -F was --format's short name; record's -F is the frequency: it goes. */
	{ .type = DW_OPT_CALLBACK, .short_name = 'F', .argh = "FMT", .cb = opt_format,
	  .flags = DW_OPTF_HIDDEN, .help = "old name of --format" },
	OPT_STRING('o', "output", struct report_args, output, "FILE",
		   "write there (default stdout; pprof: a file or a pipe)"),
	OPT_CALLBACK(0, "percent-limit", "P", opt_percent,
		     "hide functions and tree nodes under P % (default 0.5)"),
	OPT_UINT(0, "max-rows", struct report_args, ro.max_rows, "N", 0, 1000000,
		 "list at most N functions (default 40, 0: all)"),
	OPT_UINT(0, "max-depth", struct report_args, ro.max_depth, "N", 0, 1000000,
		 "call tree levels (default 0: all)"),
	OPT_BOOL(0, "no-tree", struct report_args, ro.no_tree, "no call trees"),
	OPT_END(),
};

const struct dw_cmd_help dw_report_help = {
	.name = "report",
	.summary = "top functions, call trees; folded, speedscope, pprof, perf.data",
	.usage = (const char *const[]){ "report [options]", NULL },
	.doc = "Reads a capture (dunwind record) and prints a summary, the functions with "
	       "the most samples and call trees, or writes the profile as folded stacks, "
	       "speedscope JSON, gzipped pprof or perf.data. The old short name of --format, "
	       "-F, is still accepted for now; it goes, as record's -F is the sampling "
	       "frequency.",
	.options = report_options,
	.flags = DW_PARSE_NO_ARGS,
};

/*
 * perf.data's kernel symbols: OUTPUT.kallsyms, for perf's --kallsyms (the
 * recording kernel's symbols are not on this machine).
 */
static int write_kallsyms(const struct dw_prof *p, const char *output, int quiet)
{
	char path[4096];
	FILE *f;
	int e;

	if ((size_t)snprintf(path, sizeof(path), "%s.kallsyms", output) >= sizeof(path))
		return -ENAMETOOLONG;
	if (dw_open_output("report", path, 0, &f))
		return -EIO;
	e = dw_perfdata_write_kallsyms(f, p);
	if (dw_close_output("report", path, f) && !e)
		e = -EIO;
	if (!e && !quiet)
		fprintf(stderr, "dunwind report: kernel symbols in %s: perf report -i %s "
			"--kallsyms %s\n", path, output, path);
	return e;
}

/*
 * perf.data's names for a machine without the recorded programs:
 * OUTPUT.debug, a build-id directory for perf's --buildid-dir.
 */
static int write_debug_dir(const struct dw_prof *p, const char *output, int quiet)
{
	char dir[4096];
	int n;

	if ((size_t)snprintf(dir, sizeof(dir), "%s.debug", output) >= sizeof(dir))
		return -ENAMETOOLONG;
	n = dw_perfdata_write_debug(p, dir);
	if (n < 0) {
		fprintf(stderr, "dunwind report: writing %s: %s\n", dir, strerror(-n));
		return n;
	}
	if (!quiet)
		fprintf(stderr, "dunwind report: names for where the programs are not in %s: "
			"perf --buildid-dir %s report -i %s\n", dir, dir, output);
	return 0;
}

/*
 * The text report of a capture with off-CPU samples: on-CPU time first,
 * then time blocked, each its own report (their weights do not add up).
 */
static int do_report_apart(FILE *f, const char *input, const struct dw_prof_opts *po,
			   const struct dw_report_opts *ro)
{
	struct dw_prof_opts one = *po;
	struct dw_report_opts r = *ro;
	char head[128];
	struct dw_prof *p;
	int e;

	one.cpu_time = DW_PROF_ON_CPU;
	if (dw_prof_load(&p, input, &one))
		return -EINVAL;		/* said */
	if (p->offcpu_seen) {
		snprintf(head, sizeof(head), "On-CPU: %s samples (--event %s for these only)",
			 dw_event_name(p->hdr.event), dw_event_name(p->hdr.event));
		r.section = head;
	}
	e = dw_report_write(f, p, &r);
	if (e || !p->offcpu_seen) {
		dw_prof_free(p);
		return e;
	}
	dw_prof_free(p);
	one.cpu_time = DW_PROF_OFF_CPU;
	one.read_before = 1;	/* a cut capture was said once */
	if (dw_prof_load(&p, input, &one))
		return -EINVAL;		/* said */
	fprintf(f, "#\n");
	r.section = "Off-CPU: time blocked, " DW_EVENT_OFFCPU_NAME " samples (--event "
		    DW_EVENT_OFFCPU_NAME " for these only)";
	e = dw_report_write(f, p, &r);
	dw_prof_free(p);
	return e;
}

/* The count line of a format for tools, on stderr. */
static void say_written(const struct dw_prof *p, const char *output)
{
	fprintf(stderr, "dunwind report: %zu samples", p->nr_samples);
	if (p->filtered)
		fprintf(stderr, " (%lu filtered out)", p->filtered);
	if (output && strcmp(output, "-"))
		fprintf(stderr, " written to %s", output);
	fprintf(stderr, "\n");
}

/* The profile of @input in @fmt to @f: 0, or -errno (said, but -ENOMEM). */
static int write_profile(FILE *f, const char *input, const struct dw_prof_opts *po,
			 const struct dw_report_opts *ro, const struct dw_output_format *fmt,
			 const char *output)
{
	struct dw_output_args oa = { .input = input, .ro = ro,
				     .inline_frames = po->inline_frames };
	struct dw_prof *p;
	int e;

	if (fmt->text && po->cpu_time == DW_PROF_ALL)
		return do_report_apart(f, input, po, ro);
	if (dw_prof_load(&p, input, po))
		return -EINVAL;		/* said */
	e = fmt->write(f, p, &oa);
	if (!e && fmt->kallsyms && dw_perfdata_has_kernel(p))
		e = write_kallsyms(p, output, po->quiet);
	if (!e && fmt->kallsyms)
		e = write_debug_dir(p, output, po->quiet);
	if (!fmt->text && !po->quiet)
		say_written(p, output);
	dw_prof_free(p);
	return e;
}

static int do_report(const char *input, const struct dw_prof_opts *po,
		     const struct dw_report_opts *ro, const struct dw_output_format *fmt,
		     const char *output)
{
	FILE *f;
	int e;

	if (fmt->file && (!output || !strcmp(output, "-"))) {
		fprintf(stderr, "dunwind report: --format %s writes a file: give -o FILE "
			"(e.g. -o perf.data)\n", fmt->name);
		return 2;
	}
	if (dw_open_output("report", output, fmt->binary, &f))
		return 1;
	e = write_profile(f, input, po, ro, fmt, output);
	if (e == -ENOMEM)
		fprintf(stderr, "dunwind report: out of memory\n");
	if (dw_close_output("report", output, f) || e)
		return 1;
	return 0;
}

/**
 * dw_cmd_report() - the 'report' subcommand
 * @argc:	argument count, argv[0] is "report"
 * @argv:	arguments
 *
 * Context: user space.
 * Return: the exit status: 0, 1 if the capture cannot be read or the
 * output written, 2 for a usage error.
 */
int dw_cmd_report(int argc, char **argv)
{
	struct report_args a = {
		.c = DW_COMMON_ARGS_INIT,
		.ro = { .percent_limit = 0.5, .max_rows = 40 },
	};
	int r;

	r = dw_parse_options(argc, argv, &dw_report_help, &a);
	if (r < 0)
		return dw_opt_exit(r);
	if (a.folded)
		a.fmt = dw_output_find("folded");
	else if (!a.fmt)
		a.fmt = dw_output_formats;
	a.c.po.src = a.fmt->src;
	a.ro.input = a.c.input;
	a.ro.inline_frames = a.c.po.inline_frames;
	return do_report(a.c.input, &a.c.po, &a.ro, a.fmt, a.output);
}
