// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind: record complete user-space call stacks with the dunwind module
 * and print them.  Dispatches to one dw_cmd_<verb>() per subcommand.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "record", dw_cmd_record, "profile a command or process, write dunwind.data" },
	{ "script", dw_cmd_script, "print the stitched stacks of a capture (perf script style)" },
	{ "report", dw_cmd_report, "top functions, call trees; folded, speedscope, pprof" },
	{ "flamegraph", dw_cmd_flamegraph, "write an interactive SVG flame graph of a capture" },
	{ "sframe", dw_cmd_sframe, "dump, look up, encode or generate (from .eh_frame) SFrame tables" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: dunwind <command> [options]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].fn)
			fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'dunwind <command> -h' describes a command's options.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].fn && !strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "dunwind: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
