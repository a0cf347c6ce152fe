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
#include "commands.h"
#include "output/folded.h"
#include "output/perfdata.h"
#include "output/pprof.h"
#include "analyze/profile.h"
#include "output/report.h"
#include "output/speedscope.h"

enum report_format { FMT_TEXT, FMT_FOLDED, FMT_SPEEDSCOPE, FMT_PPROF, FMT_PERF };

enum {
	OPT_SORT = DW_OPT_FIRST_OWN,
	OPT_FOLDED,
	OPT_FORMAT,
	OPT_PERCENT,
	OPT_MAX_ROWS,
	OPT_MAX_DEPTH,
	OPT_NO_TREE,
};

static void report_usage(FILE *f)
{
	fprintf(f, "usage: dunwind report [options]\n" DW_COMMON_USAGE
		"  -s, --sort KEY         order functions by self (default), total, samples,\n"
		"                         or name\n"
		"      --folded           folded stacks (same as --format folded)\n"
		"  -F, --format FMT       text (default), folded, speedscope, pprof or perf\n"
		"                         (perf.data for perf report/script; needs -o)\n"
		"  -o, --output FILE      write there (default stdout; pprof: a file or a pipe)\n"
		"      --percent-limit P  hide functions and tree nodes under P %% (default 0.5)\n"
		"      --max-rows N       list at most N functions (default 40, 0: all)\n"
		"      --max-depth N      call tree levels (default 0: all)\n"
		"      --no-tree          no call trees\n");
}

static int parse_uint(const char *opt, const char *s, unsigned int *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || n > 1000000) {
		fprintf(stderr, "dunwind report: %s wants a number from 0 to 1000000, not '%s'\n",
			opt, s);
		return -1;
	}
	*v = (unsigned int)n;
	return 0;
}

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

static int do_report(const char *input, const struct dw_prof_opts *po,
		     const struct dw_report_opts *ro, enum report_format fmt, const char *output)
{
	struct dw_prof *p;
	char err[512];
	FILE *f;
	int e = 0;

	if (fmt == FMT_PERF && (!output || !strcmp(output, "-"))) {
		fprintf(stderr, "dunwind report: --format perf writes a file: give -o FILE "
			"(e.g. -o perf.data)\n");
		return 2;
	}
	if (dw_open_output("report", output, fmt == FMT_PPROF || fmt == FMT_PERF, &f))
		return 1;
	if (dw_prof_load(&p, input, po, err, sizeof(err))) {
		fprintf(stderr, "dunwind report: %s\n", err);
		if (f != stdout)
			fclose(f);
		return 1;
	}
	switch (fmt) {
	case FMT_TEXT:
		e = dw_report_write(f, p, ro);
		break;
	case FMT_FOLDED:
		e = dw_folded_write(f, p, po->inline_frames);
		break;
	case FMT_SPEEDSCOPE:
		e = dw_speedscope_write(f, p, input, po->inline_frames);
		break;
	case FMT_PPROF:
		e = dw_pprof_write(f, p, po->inline_frames, 1);
		break;
	case FMT_PERF:
		e = dw_perfdata_write(f, p, input);
		if (!e && dw_perfdata_has_kernel(p))
			e = write_kallsyms(p, output, po->quiet);
		break;
	}
	if (fmt != FMT_TEXT && !po->quiet) {
		fprintf(stderr, "dunwind report: %zu samples", p->nr_samples);
		if (p->filtered)
			fprintf(stderr, " (%lu filtered out)", p->filtered);
		if (output && strcmp(output, "-"))
			fprintf(stderr, " written to %s", output);
		fprintf(stderr, "\n");
	}
	dw_prof_free(p);
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
	static const struct option longopts[] = {
		DW_COMMON_LONGOPTS,
		{ "sort", required_argument, NULL, 's' },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "percent-limit", required_argument, NULL, OPT_PERCENT },
		{ "max-rows", required_argument, NULL, OPT_MAX_ROWS },
		{ "max-depth", required_argument, NULL, OPT_MAX_DEPTH },
		{ "no-tree", no_argument, NULL, OPT_NO_TREE },
		{ 0 }
	};
	struct dw_prof_opts po = { .user_symbols = 1 };
	struct dw_report_opts ro = { .percent_limit = 0.5, .max_rows = 40 };
	enum report_format fmt = FMT_TEXT;
	const char *input = "dunwind.data", *output = NULL;
	char *end;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, DW_COMMON_SHORTOPTS "s:F:o:", longopts, NULL)) != -1) {
		r = dw_common_opt("report", c, optarg, &po, &input);
		if (r < 0)
			return 2;
		if (r)
			continue;
		switch (c) {
		case 's':
			if (dw_report_parse_sort(optarg, &ro.sort)) {
				fprintf(stderr, "dunwind report: --sort wants self, total, samples "
					"or name, not '%s'\n", optarg);
				return 2;
			}
			break;
		case OPT_FOLDED:
			fmt = FMT_FOLDED;
			break;
		case 'F':
			if (!strcmp(optarg, "text"))
				fmt = FMT_TEXT;
			else if (!strcmp(optarg, "folded"))
				fmt = FMT_FOLDED;
			else if (!strcmp(optarg, "speedscope"))
				fmt = FMT_SPEEDSCOPE;
			else if (!strcmp(optarg, "pprof"))
				fmt = FMT_PPROF;
			else if (!strcmp(optarg, "perf"))
				fmt = FMT_PERF;
			else {
				fprintf(stderr, "dunwind report: --format wants text, folded, "
					"speedscope, pprof or perf, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_PERCENT:
			errno = 0;
			ro.percent_limit = strtod(optarg, &end);
			if (errno || end == optarg || *end || ro.percent_limit < 0 ||
			    ro.percent_limit > 100) {
				fprintf(stderr, "dunwind report: --percent-limit wants a number "
					"from 0 to 100, not '%s'\n", optarg);
				return 2;
			}
			break;
		case OPT_MAX_ROWS:
			if (parse_uint("--max-rows", optarg, &ro.max_rows))
				return 2;
			break;
		case OPT_MAX_DEPTH:
			if (parse_uint("--max-depth", optarg, &ro.max_depth))
				return 2;
			break;
		case OPT_NO_TREE:
			ro.no_tree = 1;
			break;
		case 'h':
			report_usage(stdout);
			return 0;
		default:
			report_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dunwind report: unexpected argument '%s'\n", argv[optind]);
		report_usage(stderr);
		return 2;
	}
	po.src = fmt == FMT_PPROF || fmt == FMT_SPEEDSCOPE;
	ro.input = input;
	ro.inline_frames = po.inline_frames;
	return do_report(input, &po, &ro, fmt, output);
}
