// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind script: print one stitched, symbolised stack per sample in the
 * format of 'perf script' (output/script.c writes it), and the capture's
 * counts on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopts.h"
#include "commands.h"
#include "analyze/profile.h"
#include "output/report.h"
#include "output/script.h"

struct script_args {
	struct dw_common_args c;
	int summary;
};

static const struct dw_option script_options[] = {
	DW_COMMON_OPTIONS(struct script_args),
	OPT_BOOL(0, "show-summary", struct script_args, summary,
		 "print the capture summary (as in report) on stderr"),
	OPT_END(),
};

const struct dw_cmd_help dw_script_help = {
	.name = "script",
	.summary = "print the stitched stacks of a capture (perf script style)",
	.usage = (const char *const[]){ "script [options]", NULL },
	.doc = "Prints one stack per sample, kernel frames first, then the user frames, in "
	       "the text format of perf script, which FlameGraph's stackcollapse-perf.pl and "
	       "speedscope read. Counts of samples, user stacks and lost records go to stderr.",
	.options = script_options,
	.flags = DW_PARSE_NO_ARGS,
};

static int do_script(const char *input, const struct dw_prof_opts *o, int show_summary)
{
	struct dw_prof *p;
	int ret = 0;

	if (dw_prof_load(&p, input, o))
		return 1;
	if (p->live_refused && !o->quiet)
		fprintf(stderr, "dunwind script: %s was recorded during another boot: %lu "
			"processes without MMAP or COMM records stay unnamed\n", input,
			p->live_refused);
	if (!strncmp(p->ksyms_from, "none", 4) && !o->quiet)
		fprintf(stderr, "dunwind script: no kernel symbols (%s): kernel addresses stay "
			"raw\n", p->ksyms_from + 6);
	dw_script_write(stdout, p, o->inline_frames);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "dunwind script: writing the output: %s\n", strerror(errno));
		ret = 1;
	}
	fprintf(stderr, "dunwind script: %lu samples: %lu with their user stack, "
		"%lu without a user part, %lu user stack missing\n",
		p->counts.samples, p->counts.joined, p->counts.no_user, p->counts.missing);
	fprintf(stderr, "dunwind script: %lu user stacks (%lu orphan, %lu duplicate); "
		"lost %lu records (%lu samples, %lu user stacks)",
		p->counts.user_stacks, p->counts.orphan_stacks, p->counts.dup_stacks,
		p->counts.lost[0], p->counts.lost[DUNWIND_REC_SAMPLE],
		p->counts.lost[DUNWIND_REC_USER_STACK]);
	if (p->skipped)
		fprintf(stderr, "; skipped %lu records of unknown type", p->skipped);
	if (p->filtered)
		fprintf(stderr, "; %lu samples filtered out", p->filtered);
	if (p->in_walk)
		fprintf(stderr, "; %lu samples in dunwind's own walk (shown as %s)", p->in_walk,
			DW_PROF_WALK_FRAME);
	fprintf(stderr, "\n");
	if (show_summary)
		dw_report_summary(stderr, p);
	dw_prof_free(p);
	return ret;
}

/**
 * dw_cmd_script() - the 'script' subcommand
 * @argc:	argument count, argv[0] is "script"
 * @argv:	arguments
 *
 * Context: user space.
 * Return: the exit status: 0, 1 if the capture cannot be read, 2 for a
 * usage error.
 */
int dw_cmd_script(int argc, char **argv)
{
	struct script_args a = { .c = DW_COMMON_ARGS_INIT };
	int r;

	r = dw_parse_options(argc, argv, &dw_script_help, &a);
	if (r < 0)
		return dw_opt_exit(r);
	return do_script(a.c.input, &a.c.po, a.summary);
}
