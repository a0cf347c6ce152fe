/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dunwind subcommands.  Each lives in <verb>_cmd.c, parses its own options
 * by its table (argv[0] is the verb), returns the process exit status, and
 * exports its table and help as dw_<verb>_help: main.c prints the command
 * list, the man pages and the completion lists from them.
 */
#ifndef DW_COMMANDS_H
#define DW_COMMANDS_H

#include "util/options.h"

int dw_cmd_record(int argc, char **argv);
int dw_cmd_script(int argc, char **argv);
int dw_cmd_sframe(int argc, char **argv);
int dw_cmd_report(int argc, char **argv);
int dw_cmd_flamegraph(int argc, char **argv);

extern const struct dw_cmd_help dw_record_help;
extern const struct dw_cmd_help dw_script_help;
extern const struct dw_cmd_help dw_sframe_help;
extern const struct dw_cmd_help dw_report_help;
extern const struct dw_cmd_help dw_flamegraph_help;

#endif
