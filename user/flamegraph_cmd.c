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

enum { OPT_TITLE = DW_OPT_FIRST_OWN, OPT_WIDTH };

static void flamegraph_usage(FILE *f)
{
	fprintf(f, "usage: dunwind flamegraph [options]\n" DW_COMMON_USAGE
		"  -o, --output FILE      the SVG (default flamegraph.svg; - for stdout)\n"
		"      --title TEXT       title (default: \"Flame Graph: <capture>\")\n"
		"      --width PX         image width (default 1200)\n");
}

static int do_flamegraph(const char *input, const struct dw_prof_opts *po,
			 struct dw_flamegraph_opts *fo, const char *output)
{
	char err[512], title[512];
	struct dw_prof *p;
	FILE *f;
	int e;

	if (dw_prof_load(&p, input, po, err, sizeof(err))) {
		fprintf(stderr, "dunwind flamegraph: %s\n", err);
		return 1;
	}
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
	static const struct option longopts[] = {
		DW_COMMON_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ 0 }
	};
	struct dw_prof_opts po = { .user_symbols = 1 };
	struct dw_flamegraph_opts fo = { 0 };
	const char *input = "dunwind.data", *output = "flamegraph.svg";
	unsigned long w;
	char *end;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, DW_COMMON_SHORTOPTS "o:", longopts, NULL)) != -1) {
		r = dw_common_opt("flamegraph", c, optarg, &po, &input);
		if (r < 0)
			return 2;
		if (r)
			continue;
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case OPT_TITLE:
			fo.title = optarg;
			break;
		case OPT_WIDTH:
			errno = 0;
			w = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || w < 200 || w > 100000) {
				fprintf(stderr, "dunwind flamegraph: --width wants 200 to 100000 "
					"pixels, not '%s'\n", optarg);
				return 2;
			}
			fo.width = (unsigned int)w;
			break;
		case 'h':
			flamegraph_usage(stdout);
			return 0;
		default:
			flamegraph_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dunwind flamegraph: unexpected argument '%s'\n", argv[optind]);
		flamegraph_usage(stderr);
		return 2;
	}
	fo.inline_frames = po.inline_frames;
	return do_flamegraph(input, &po, &fo, output);
}
