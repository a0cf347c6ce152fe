/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The library's messages, through one print callback (libbpf's model).
 * Library code never writes to stderr or stdout itself: it says what
 * went wrong, and what to do, with dw_warn() (or dw_info(), dw_debug())
 * and returns -errno (or NULL with errno set).  The callback decides
 * where a message goes; the default prints warnings and information to
 * stderr and drops debug messages.  Commands may install their own with
 * dw_set_print().  Documentation/userspace.rst has the whole rule.
 */
#ifndef DW_UTIL_LOG_H
#define DW_UTIL_LOG_H

#include <stdarg.h>

enum dw_print_level {
	DW_WARN,	/* something failed or is missing: says what to do */
	DW_INFO,	/* what a command did (summaries) */
	DW_DEBUG,	/* details for whoever debugs dunwind */
};

/* One whole message, its prefix and its newline included. */
typedef int (*dw_print_fn_t)(enum dw_print_level level, const char *fmt, va_list args);

/**
 * dw_set_print() - where the library's messages go from now on
 * @fn:		the callback; NULL silences them
 *
 * Return: the callback installed before.
 * Context: user space, not thread-safe (set it before the work starts).
 */
dw_print_fn_t dw_set_print(dw_print_fn_t fn);

/* dw_print() - one message at @level through the callback. */
void dw_print(enum dw_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The usual prefix, "dunwind: "; a command's own is "dunwind <command>: ". */
#define dw_warn(fmt, ...)	dw_print(DW_WARN, "dunwind: " fmt, ##__VA_ARGS__)
#define dw_info(fmt, ...)	dw_print(DW_INFO, "dunwind: " fmt, ##__VA_ARGS__)
#define dw_debug(fmt, ...)	dw_print(DW_DEBUG, "dunwind: " fmt, ##__VA_ARGS__)
#define dw_cmd_warn(cmd, fmt, ...) \
	dw_print(DW_WARN, "dunwind %s: " fmt, cmd, ##__VA_ARGS__)

#endif
