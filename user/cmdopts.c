// SPDX-License-Identifier: GPL-2.0
/* Parsing of the options shared by the report-type subcommands; output files. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdopts.h"

static int parse_id(const char *cmd, const char *opt, const char *s, int *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n <= 0 || n > INT_MAX) {
		fprintf(stderr, "dunwind %s: %s wants a positive number, not '%s'\n", cmd, opt, s);
		return -1;
	}
	*v = (int)n;
	return 0;
}

/**
 * dw_common_opt() - handle one of the shared options
 * @cmd:	subcommand name, for messages
 * @c:		getopt_long()'s return value
 * @arg:	optarg
 * @o:		profile options to set
 * @input:	set by -i
 *
 * Context: user space.
 * Return: 1 handled, 0 not a shared option, -1 bad value (a message was
 * printed).  -h is not handled here.
 */
int dw_common_opt(const char *cmd, int c, const char *arg, struct dw_prof_opts *o,
		  const char **input)
{
	switch (c) {
	case 'i':
		*input = arg;
		return 1;
	case 'k':
		o->kallsyms = arg;
		return 1;
	case 'q':
	case DW_OPT_QUIET:
		o->quiet = 1;
		return 1;
	case DW_OPT_INLINE:
		o->inline_frames = 1;
		return 1;
	case DW_OPT_DEBUG_DIR:
		o->debug_dirs = arg;
		return 1;
	case DW_OPT_NO_USER_SYMBOLS:
		o->user_symbols = 0;
		return 1;
	case DW_OPT_PID:
		return parse_id(cmd, "--pid", arg, &o->pid) ? -1 : 1;
	case DW_OPT_TID:
		return parse_id(cmd, "--tid", arg, &o->tid) ? -1 : 1;
	case DW_OPT_COMM:
		o->comm = arg;
		return 1;
	default:
		return 0;
	}
}

/**
 * dw_open_output() - open an output file, "-" or NULL meaning stdout
 * @cmd:	subcommand name, for messages
 * @path:	file name, "-" or NULL
 * @binary:	refuse to write binary data to a terminal
 * @f:		set to the stream
 *
 * Context: user space.
 * Return: 0, or -1 with a message.
 */
int dw_open_output(const char *cmd, const char *path, int binary, FILE **f)
{
	if (!path || !strcmp(path, "-")) {
		if (binary && isatty(STDOUT_FILENO)) {
			fprintf(stderr, "dunwind %s: not writing binary data to a terminal: give "
				"-o FILE\n", cmd);
			return -1;
		}
		*f = stdout;
		return 0;
	}
	*f = fopen(path, binary ? "wb" : "w");
	if (!*f) {
		fprintf(stderr, "dunwind %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	return 0;
}

/**
 * dw_close_output() - flush and close an output from dw_open_output()
 * @cmd:	subcommand name, for messages
 * @path:	its name (NULL or "-": stdout, flushed only)
 * @f:		the stream
 *
 * Context: user space.
 * Return: 0, or -1 with a message if anything failed to be written.
 */
int dw_close_output(const char *cmd, const char *path, FILE *f)
{
	int bad = fflush(f) || ferror(f);

	if (f != stdout && fclose(f))
		bad = 1;
	if (bad) {
		fprintf(stderr, "dunwind %s: writing %s failed: %s\n", cmd,
			f == stdout ? "the output" : path, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
