/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dunwind subcommands.  Each lives in <verb>_cmd.c, parses its own options
 * (argv[0] is the verb) and returns the process exit status.
 */
#ifndef DW_COMMANDS_H
#define DW_COMMANDS_H

int dw_cmd_record(int argc, char **argv);
int dw_cmd_script(int argc, char **argv);
int dw_cmd_sframe(int argc, char **argv);
int dw_cmd_report(int argc, char **argv);
int dw_cmd_flamegraph(int argc, char **argv);

#endif
