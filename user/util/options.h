/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command options from one table per command (perf's OPT_* idea): the
 * table drives getopt_long(), prints -h, and is what the man pages and the
 * bash completion are generated from.  Nothing else lists a command's
 * options.
 *
 * A table's values are offsets into the command's own argument struct, so
 * that the tables are constant and main.c can reach every command's table
 * (dunwind --man CMD, --list-opts).
 *
 *	struct report_args { const char *output; int tree; };
 *	static const struct dw_option report_options[] = {
 *		OPT_STRING('o', "output", struct report_args, output, "FILE", "write there"),
 *		OPT_END(),
 *	};
 */
#ifndef DW_UTIL_OPTIONS_H
#define DW_UTIL_OPTIONS_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

enum dw_opt_type {
	DW_OPT_END,
	DW_OPT_BOOL,		/* int = 1 */
	DW_OPT_SET_INT,		/* int = .def */
	DW_OPT_BIT,		/* unsigned int |= .def */
	DW_OPT_STRING,		/* const char * = the argument */
	DW_OPT_INT,		/* int in [.min, .max] */
	DW_OPT_UINT,		/* unsigned int in [.min, .max] */
	DW_OPT_ULL,		/* unsigned long long in [.min, .max] */
	DW_OPT_CALLBACK,	/* .cb(the argument) */
};

/* Option flags. */
#define DW_OPTF_HIDDEN		(1u << 0)	/* accepted, not in -h, man page or completion */
#define DW_OPTF_ANY_BASE	(1u << 1)	/* numbers: 0x... and 0... too */
/* DW_OPT_CALLBACK: the argument may be left out (-zN, --name[=N]); NULL then. */
#define DW_OPTF_OPTIONAL_ARG	(1u << 2)

struct dw_option;

/*
 * A callback parses @arg into @args (the command's argument struct).
 * Return: 0, or -EINVAL after saying what is wrong on stderr.
 */
typedef int (*dw_opt_cb)(const struct dw_option *opt, const char *arg, void *args,
			 const char *cmd);

struct dw_option {
	enum dw_opt_type type;
	int short_name;			/* 0: none */
	const char *long_name;		/* NULL: none */
	size_t offset;			/* into the argument struct */
	const char *argh;		/* the argument's name in -h ("FILE"); NULL: none */
	const char *help;		/* one sentence; -h wraps it */
	unsigned long long min, max;	/* numbers */
	long long def;			/* DW_OPT_SET_INT, DW_OPT_BIT */
	dw_opt_cb cb;
	const char *(*values)(void);	/* the values it takes, appended to help */
	unsigned int flags;		/* DW_OPTF_* */
};

/* A command: its options and the text of its -h and man page. */
struct dw_cmd_help {
	const char *name;		/* "report", "sframe" */
	const char *summary;		/* one line: dunwind -h, the man page's NAME */
	const char *const *usage;	/* synopsis lines after "dunwind ", NULL-ended */
	const char *doc;		/* paragraphs ('\n\n' apart) after the options */
	const struct dw_option *options;
	unsigned int flags;		/* DW_PARSE_* */
};

/* Parse flags. */
#define DW_PARSE_STOP_AT_NON_OPTION	(1u << 0)	/* [--] CMD ARGS... follows */
#define DW_PARSE_NO_ARGS		(1u << 1)	/* options only: others are errors */

/* dw_parse_options() returns this when it printed what was asked (-h ...). */
#define DW_OPT_HANDLED	(-ECANCELED)

int dw_parse_options(int argc, char **argv, const struct dw_cmd_help *cmd, void *args);
void dw_options_usage(FILE *f, const struct dw_cmd_help *cmd);
void dw_options_help(FILE *f, const struct dw_cmd_help *cmd);
void dw_options_man(FILE *f, const struct dw_cmd_help *cmd, const char *version);
void dw_options_list(FILE *f, const struct dw_cmd_help *cmd);

/* The exit status for dw_parse_options()'s negative returns: 0 after -h, 2 otherwise. */
static inline int dw_opt_exit(int r)
{
	return r == DW_OPT_HANDLED ? 0 : 2;
}

/* The offset of @m in @T, checked to be of type @type at compile time. */
#define DW_OPT_OFF(T, m, type) \
	(offsetof(T, m) + 0 * sizeof(struct { \
		_Static_assert(__builtin_types_compatible_p(__typeof__(((T *)0)->m), type), \
			       #T "." #m " is not " #type); \
		int dummy; }))

#define OPT_END() { .type = DW_OPT_END }
#define OPT_BOOL(s, l, T, m, h) \
	{ .type = DW_OPT_BOOL, .short_name = (s), .long_name = (l), \
	  .offset = DW_OPT_OFF(T, m, int), .help = (h) }
#define OPT_SET_INT(s, l, T, m, v, h) \
	{ .type = DW_OPT_SET_INT, .short_name = (s), .long_name = (l), \
	  .offset = DW_OPT_OFF(T, m, int), .def = (v), .help = (h) }
#define OPT_BIT(s, l, T, m, bit, h) \
	{ .type = DW_OPT_BIT, .short_name = (s), .long_name = (l), \
	  .offset = DW_OPT_OFF(T, m, unsigned int), .def = (bit), .help = (h) }
#define OPT_STRING(s, l, T, m, a, h) \
	{ .type = DW_OPT_STRING, .short_name = (s), .long_name = (l), \
	  .offset = DW_OPT_OFF(T, m, const char *), .argh = (a), .help = (h) }
#define OPT_INT(s, l, T, m, a, lo, hi, h) \
	{ .type = DW_OPT_INT, .short_name = (s), .long_name = (l), \
	  .offset = DW_OPT_OFF(T, m, int), .argh = (a), .min = (lo), .max = (hi), .help = (h) }
#define OPT_UINT(s, l, T, m, a, lo, hi, h) \
	{ .type = DW_OPT_UINT, .short_name = (s), .long_name = (l), \
	  .offset = DW_OPT_OFF(T, m, unsigned int), .argh = (a), .min = (lo), .max = (hi), \
	  .help = (h) }
#define OPT_ULL(s, l, T, m, a, lo, hi, h) \
	{ .type = DW_OPT_ULL, .short_name = (s), .long_name = (l), \
	  .offset = DW_OPT_OFF(T, m, unsigned long long), .argh = (a), .min = (lo), \
	  .max = (hi), .help = (h) }
#define OPT_CALLBACK(s, l, a, fn, h) \
	{ .type = DW_OPT_CALLBACK, .short_name = (s), .long_name = (l), .argh = (a), \
	  .cb = (fn), .help = (h) }

#endif
