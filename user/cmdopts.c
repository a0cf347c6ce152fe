// SPDX-License-Identifier: GPL-2.0
/* The output files of the report-type subcommands. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cmdopts.h"
#include "capture/event.h"
#include "util/log.h"

/**
 * dw_opt_cpu_time() - --event: on-CPU or off-CPU samples only
 * @opt:	the option; @opt->offset is the int (dw_prof_opts.cpu_time) to set
 * @arg:	offcpu-time or off-cpu; a sampling event's name or on-cpu
 * @args:	the command's argument struct
 * @cmd:	the command, for the message
 *
 * Context: user space.
 * Return: 0, or -EINVAL with a message.
 */
int dw_opt_cpu_time(const struct dw_option *opt, const char *arg, void *args, const char *cmd)
{
	int *v = (int *)((char *)args + opt->offset);

	if (!strcmp(arg, DW_EVENT_OFFCPU_NAME) || !strcmp(arg, "off-cpu"))
		*v = DW_PROF_OFF_CPU;
	else if (dw_event_parse(arg) >= 0 || !strcmp(arg, "on-cpu"))
		*v = DW_PROF_ON_CPU;
	else {
		dw_cmd_warn(cmd, "--event wants %s, on-cpu, %s or off-cpu, not '%s'\n",
			    dw_event_names(), DW_EVENT_OFFCPU_NAME, arg);
		return -EINVAL;
	}
	return 0;
}

/**
 * dw_open_output() - open an output file, "-" or NULL meaning stdout
 * @cmd:	subcommand name, for messages
 * @path:	file name, "-" or NULL
 * @binary:	refuse to write binary data to a terminal
 * @f:		set to the stream
 *
 * Context: user space.
 * Return: 0, or -errno with a message (-ENOTTY: binary data to a terminal).
 */
int dw_open_output(const char *cmd, const char *path, int binary, FILE **f)
{
	if (!path || !strcmp(path, "-")) {
		if (binary && isatty(STDOUT_FILENO)) {
			dw_cmd_warn(cmd, "not writing binary data to a terminal: give -o FILE\n");
			return -ENOTTY;
		}
		*f = stdout;
		return 0;
	}
	*f = fopen(path, binary ? "wb" : "w");
	if (!*f) {
		int err = errno;

		dw_cmd_warn(cmd, "%s: %s\n", path, strerror(err));
		return -err;
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
 * Return: 0, or -errno (-EIO if none was set) with a message if anything
 * failed to be written.
 */
int dw_close_output(const char *cmd, const char *path, FILE *f)
{
	int bad = fflush(f) || ferror(f);

	if (f != stdout && fclose(f))
		bad = 1;
	if (bad) {
		int err = errno ? errno : EIO;

		dw_cmd_warn(cmd, "writing %s failed: %s\n", f == stdout ? "the output" : path,
			    strerror(err));
		return -err;
	}
	return 0;
}
