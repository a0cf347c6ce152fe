// SPDX-License-Identifier: GPL-2.0
/* dunwind flamegraph: write a capture's profile as an interactive SVG flame graph. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopts.h"
#include "commands.h"
#include "output/flamegraph.h"
#include "analyze/profile.h"

struct flamegraph_args {
	struct dw_common_args c;
	struct dw_flamegraph_opts fo;
	const char *output;
};

static const struct dw_option flamegraph_options[] = {
	DW_COMMON_OPTIONS(struct flamegraph_args),
	OPT_STRING('o', "output", struct flamegraph_args, output, "FILE",
		   "the SVG (default flamegraph.svg; - for stdout)"),
	OPT_STRING(0, "title", struct flamegraph_args, fo.title, "TEXT",
		   "title (default: \"Flame Graph: <capture>\")"),
	OPT_UINT(0, "width", struct flamegraph_args, fo.width, "PX", 200, 100000,
		 "image width in pixels (default 1200)"),
	OPT_END(),
};

const struct dw_cmd_help dw_flamegraph_help = {
	.name = "flamegraph",
	.summary = "write an interactive SVG flame graph of a capture",
	.usage = (const char *const[]){ "flamegraph [options]", NULL },
	.doc = "Writes the capture's profile as one SVG file that needs nothing else: a frame's "
	       "details on hover, a click zooms into a frame, Search highlights the frames "
	       "whose name matches a regular expression.",
	.options = flamegraph_options,
	.flags = DW_PARSE_NO_ARGS,
};

static int do_flamegraph(const char *input, const struct dw_prof_opts *po,
			 struct dw_flamegraph_opts *fo, const char *output)
{
	char title[512];
	struct dw_prof *p;
	FILE *f;
	int e;

	if (dw_prof_load(&p, input, po))
		return 1;
	if (!fo->title) {
		snprintf(title, sizeof(title), "Flame Graph: %s", input);
		fo->title = title;
	}
	if (dw_open_output("flamegraph", output, 0, &f)) {
		dw_prof_free(p);
		return 1;
	}
	e = dw_flamegraph_write(f, p, fo);
	if (!po->quiet && strcmp(output, "-"))
		fprintf(stderr, "dunwind flamegraph: %zu samples written to %s\n", p->nr_samples,
			output);
	dw_prof_free(p);
	if (e == -ENOMEM)
		fprintf(stderr, "dunwind flamegraph: out of memory\n");
	return dw_close_output("flamegraph", output, f) || e ? 1 : 0;
}

/**
 * dw_cmd_flamegraph() - the 'flamegraph' subcommand
 * @argc:	argument count, argv[0] is "flamegraph"
 * @argv:	arguments
 *
 * Context: user space.
 * Return: the exit status: 0, 1 if the capture cannot be read or the SVG
 * written, 2 for a usage error.
 */
int dw_cmd_flamegraph(int argc, char **argv)
{
	struct flamegraph_args a = { .c = DW_COMMON_ARGS_INIT, .output = "flamegraph.svg" };
	int r;

	r = dw_parse_options(argc, argv, &dw_flamegraph_help, &a);
	if (r < 0)
		return dw_opt_exit(r);
	a.fo.inline_frames = a.c.po.inline_frames;
	return do_flamegraph(a.c.input, &a.c.po, &a.fo, a.output);
}
