/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options every report-type subcommand (script, report, flamegraph)
 * shares: the input, where symbols come from, and which samples to keep.
 */
#ifndef DW_CMDOPTS_H
#define DW_CMDOPTS_H

#include <getopt.h>
#include <stdio.h>

#include "analyze/profile.h"

enum {
	DW_OPT_INLINE = 1000,
	DW_OPT_DEBUG_DIR,
	DW_OPT_NO_USER_SYMBOLS,
	DW_OPT_PID,
	DW_OPT_TID,
	DW_OPT_COMM,
	DW_OPT_QUIET,
	DW_OPT_FIRST_OWN,		/* subcommands number their own options from here */
};

#define DW_COMMON_LONGOPTS \
	{ "input", required_argument, NULL, 'i' }, \
	{ "kallsyms", required_argument, NULL, 'k' }, \
	{ "inline", no_argument, NULL, DW_OPT_INLINE }, \
	{ "debug-dir", required_argument, NULL, DW_OPT_DEBUG_DIR }, \
	{ "no-user-symbols", no_argument, NULL, DW_OPT_NO_USER_SYMBOLS }, \
	{ "pid", required_argument, NULL, DW_OPT_PID }, \
	{ "tid", required_argument, NULL, DW_OPT_TID }, \
	{ "comm", required_argument, NULL, DW_OPT_COMM }, \
	{ "quiet", no_argument, NULL, DW_OPT_QUIET }, \
	{ "help", no_argument, NULL, 'h' }

#define DW_COMMON_SHORTOPTS "i:k:hq"

#define DW_COMMON_USAGE \
	"  -i, --input FILE       capture file (default dunwind.data)\n" \
	"  -k, --kallsyms FILE    kernel symbols from FILE instead of the capture's snapshot\n" \
	"      --inline           show inlined functions as frames (DWARF)\n" \
	"      --debug-dir DIRS   more directories (colon-separated) holding debug files\n" \
	"                         (.build-id/xx/yyyy.debug or debuglink names)\n" \
	"      --no-user-symbols  leave user addresses unnamed (no ELF files are read)\n" \
	"      --pid PID          keep only samples of this process\n" \
	"      --tid TID          keep only samples of this thread\n" \
	"      --comm NAME        keep only samples of threads with this name\n" \
	"  -q, --quiet            no warnings about files that changed\n"

int dw_common_opt(const char *cmd, int c, const char *arg, struct dw_prof_opts *o,
		  const char **input);
int dw_open_output(const char *cmd, const char *path, int binary, FILE **f);
int dw_close_output(const char *cmd, const char *path, FILE *f);

#endif
