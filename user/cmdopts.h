/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every report-type subcommand (script, report, flamegraph) shares:
 * the input, where symbols come from, which samples to keep (options from
 * DW_COMMON_OPTIONS), and the output file.
 */
#ifndef DW_CMDOPTS_H
#define DW_CMDOPTS_H

#include <limits.h>
#include <stdio.h>

#include "analyze/profile.h"
#include "util/options.h"

struct dw_common_args {
	struct dw_prof_opts po;
	const char *input;
};

#define DW_COMMON_ARGS_INIT { .po = { .user_symbols = 1 }, .input = "dunwind.data" }

/* The shared options of a command whose argument struct @T has them in .c. */
#define DW_COMMON_OPTIONS(T) \
	OPT_STRING('i', "input", T, c.input, "FILE", "capture file (default dunwind.data)"), \
	OPT_STRING('k', "kallsyms", T, c.po.kallsyms, "FILE", \
		   "kernel symbols from FILE instead of the capture's snapshot"), \
	OPT_BOOL(0, "inline", T, c.po.inline_frames, "show inlined functions as frames (DWARF)"), \
	OPT_STRING(0, "debug-dir", T, c.po.debug_dirs, "DIRS", \
		   "more directories (colon-separated) holding debug files or executables " \
		   "(.build-id/xx/yyyy[.debug], debuglink names)"), \
	OPT_STRING(0, "symfs", T, c.po.symfs, "DIR", \
		   "read the mapped files under DIR (a copy of the recording machine's root): " \
		   "/usr/bin/x as DIR/usr/bin/x"), \
	OPT_BOOL(0, "no-demangle", T, c.po.no_demangle, \
		 "keep C++ and Rust symbol names as in the file"), \
	OPT_SET_INT(0, "no-user-symbols", T, c.po.user_symbols, 0, \
		    "leave user addresses unnamed (no ELF files are read)"), \
	OPT_INT(0, "pid", T, c.po.pid, "PID", 1, INT_MAX, "keep only samples of this process"), \
	OPT_INT(0, "tid", T, c.po.tid, "TID", 1, INT_MAX, "keep only samples of this thread"), \
	OPT_STRING(0, "comm", T, c.po.comm, "NAME", "keep only samples of threads with this name"), \
	OPT_BOOL('q', "quiet", T, c.po.quiet, "no warnings about files that could not be named"), \
	{ .type = DW_OPT_CALLBACK, .long_name = "event", .argh = "EVENT", \
	  .offset = DW_OPT_OFF(T, c.po.cpu_time, int), .cb = dw_opt_cpu_time, \
	  .help = "keep only on-CPU samples (the sampling event's name, or on-cpu) or " \
		  "off-CPU ones (offcpu-time, or off-cpu)" }

int dw_opt_cpu_time(const struct dw_option *opt, const char *arg, void *args, const char *cmd);
int dw_open_output(const char *cmd, const char *path, int binary, FILE **f);
int dw_close_output(const char *cmd, const char *path, FILE *f);

#endif
