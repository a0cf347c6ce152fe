// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind: record complete user-space call stacks with the dunwind module
 * and print them.  Dispatches to one dw_cmd_<verb>() per subcommand; the
 * commands' option tables also give dunwind(1) and dunwind-<verb>(1) and
 * the lists the bash completion is made of (--man, --list-cmds, and each
 * command's --list-opts: for the build, not in -h).
 */
#include <stdio.h>
#include <string.h>
#include <linux/dunwind.h>

#include "commands.h"
#include "version.h"		/* generated: DW_VERSION, git describe */

struct command {
	int (*fn)(int argc, char **argv);
	const struct dw_cmd_help *help;
};

static const struct command commands[] = {
	{ dw_cmd_record, &dw_record_help },
	{ dw_cmd_script, &dw_script_help },
	{ dw_cmd_report, &dw_report_help },
	{ dw_cmd_flamegraph, &dw_flamegraph_help },
	{ dw_cmd_sframe, &dw_sframe_help },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char *const main_usage[] = {
	"<command> [options]",
	"--version",
	"--help",
	NULL
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: dunwind <command> [options]\n\ncommands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].help->name, commands[i].help->summary);
	fprintf(f, "\n'dunwind <command> -h' describes a command's options; "
		"'dunwind --version' prints the version.\n");
}

static void version(void)
{
	printf("dunwind %s (ABI %d)\n", DW_VERSION, DUNWIND_ABI_VERSION);
}

/* dunwind(1): the commands, each with its own page. */
static void man(FILE *f)
{
	size_t i;

	fprintf(f, ".TH DUNWIND 1 \"\" \"dunwind %s\" \"dunwind manual\"\n", DW_VERSION);
	fprintf(f, ".SH NAME\ndunwind \\- complete user\\-space call stacks for profilers\n");
	fprintf(f, ".SH SYNOPSIS\n.nf\n");
	for (i = 0; main_usage[i]; i++)
		fprintf(f, "\\fBdunwind\\fR %s\n", !strcmp(main_usage[i], "--version") ?
			"\\-\\-version" : !strcmp(main_usage[i], "--help") ? "\\-\\-help" :
			main_usage[i]);
	fprintf(f, ".fi\n.SH DESCRIPTION\n"
		"A kernel module samples a target and, when a sampled thread returns to user "
		"space, walks its user stack once (SFrame, SFrame generated from .eh_frame, or "
		"frame pointers).  \\fBdunwind record\\fR writes both to a capture file; the "
		"other commands stitch samples to their user stacks and print or draw them.\n");
	fprintf(f, ".SH COMMANDS\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, ".TP\n\\fBdunwind\\-%s\\fR(1)\n%s\n", commands[i].help->name,
			commands[i].help->summary);
	fprintf(f, ".SH OPTIONS\n.TP\n\\fB\\-\\-version\\fR\nprint the version and the "
		"module ABI it speaks\n.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nlist the commands\n");
	fprintf(f, ".SH SEE ALSO\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "\\fBdunwind\\-%s\\fR(1)%s", commands[i].help->name,
			i + 1 < NR_COMMANDS ? ",\n" : "\n");
}

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].help->name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *c;
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		version();
		return 0;
	}
	if (!strcmp(argv[1], "--list-cmds")) {
		for (i = 0; i < NR_COMMANDS; i++)
			printf("%s%c", commands[i].help->name, i + 1 < NR_COMMANDS ? ' ' : '\n');
		return 0;
	}
	if (!strcmp(argv[1], "--man")) {
		if (argc == 2) {
			man(stdout);
			return 0;
		}
		c = find(argv[2]);
		if (c)
			dw_options_man(stdout, c->help, DW_VERSION);
		return c ? 0 : 2;
	}
	c = find(argv[1]);
	if (c)
		return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "dunwind: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
