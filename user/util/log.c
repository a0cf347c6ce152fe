// SPDX-License-Identifier: GPL-2.0
/* The library's messages, through one print callback (log.h). */
#include <errno.h>
#include <stdio.h>

#include "util/log.h"

/* Warnings and information on stderr, as the commands print them. */
static int print_stderr(enum dw_print_level level, const char *fmt, va_list args)
{
	if (level == DW_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static dw_print_fn_t print_fn = print_stderr;

dw_print_fn_t dw_set_print(dw_print_fn_t fn)
{
	dw_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void dw_print(enum dw_print_level level, const char *fmt, ...)
{
	va_list args;
	int saved = errno;

	if (!print_fn)
		return;
	va_start(args, fmt);
	print_fn(level, fmt, args);
	va_end(args);
	errno = saved;
}
