// SPDX-License-Identifier: GPL-2.0
/*
 * One option table per command: parsing (through getopt_long), -h, the
 * man page and the list the bash completion is made of.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/num.h"
#include "util/options.h"

#define HELP_COL	25	/* where the help text of an option starts */
#define HELP_WIDTH	79	/* and where -h wraps it */
#define VAL_BASE	256	/* getopt_long() value of option i: VAL_BASE + i */
#define VAL_LIST_OPTS	(VAL_BASE - 1)

static size_t nr_options(const struct dw_option *o)
{
	size_t n = 0;

	while (o[n].type != DW_OPT_END)
		n++;
	return n;
}

static int takes_arg(const struct dw_option *o)
{
	return o->type >= DW_OPT_STRING;
}

/* getopt_long()'s has_arg for @o. */
static int arg_kind(const struct dw_option *o)
{
	if (!takes_arg(o))
		return no_argument;
	return o->flags & DW_OPTF_OPTIONAL_ARG ? optional_argument : required_argument;
}

/* The name as the user wrote it in messages: the long one when there is one. */
static void opt_name(const struct dw_option *o, char *buf, size_t len)
{
	if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
}

static int bad_number(const struct dw_option *o, const char *cmd, const char *arg, int err,
		      long long lo)
{
	char name[64];

	opt_name(o, name, sizeof(name));
	if (err == -ERANGE || o->type == DW_OPT_INT)
		dw_cmd_warn(cmd, "%s wants a number from %lld to %llu, not '%s'\n", name, lo,
			    o->max, arg);
	else
		dw_cmd_warn(cmd, "%s wants a number, not '%s'\n", name, arg);
	return -EINVAL;
}

static int set_value(const struct dw_option *o, const char *arg, void *args, const char *cmd)
{
	char *p = (char *)args + o->offset;
	int base = o->flags & DW_OPTF_ANY_BASE ? 0 : 10;
	unsigned long long v;
	int err;

	switch (o->type) {
	case DW_OPT_BOOL:
		*(int *)p = 1;
		return 0;
	case DW_OPT_SET_INT:
		*(int *)p = (int)o->def;
		return 0;
	case DW_OPT_BIT:
		*(unsigned int *)p |= (unsigned int)o->def;
		return 0;
	case DW_OPT_STRING:
		*(const char **)p = arg;
		return 0;
	case DW_OPT_CALLBACK:
		return o->cb(o, arg, args, cmd);
	case DW_OPT_INT:
	case DW_OPT_UINT:
	case DW_OPT_ULL:
		err = dw_parse_ull(arg, base, o->min, o->max, &v);
		if (err)
			return bad_number(o, cmd, arg, err, (long long)o->min);
		if (o->type == DW_OPT_INT)
			*(int *)p = (int)v;
		else if (o->type == DW_OPT_UINT)
			*(unsigned int *)p = (unsigned int)v;
		else
			*(unsigned long long *)p = v;
		return 0;
	case DW_OPT_END:
		break;
	}
	return -EINVAL;
}

/* After a usage error: the usage, as a warning (through the print callback). */
static void usage_warn(const struct dw_cmd_help *cmd)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	dw_options_usage(f, cmd);
	if (!fclose(f) && len)
		dw_print(DW_WARN, "%s", text);
	free(text);
}

/**
 * dw_parse_options() - parse a command's arguments by its table
 * @argc, @argv:	argv[0] is the command's name
 * @cmd:		the command: its table and help
 * @args:		the argument struct the table's offsets point into
 *
 * -h/--help prints the help on stdout; --list-opts (for the completion,
 * not in -h) prints the long options (the table's own output).  A usage
 * error says what is wrong, and the usage, through dw_warn() (util/log.h).
 *
 * Context: user space; uses getopt_long()'s globals.
 * Return: the index of the first argument that is not an option, or
 * DW_OPT_HANDLED after -h or --list-opts, or -EINVAL after a usage error;
 * dw_opt_exit() turns the last two into an exit status.
 */
int dw_parse_options(int argc, char **argv, const struct dw_cmd_help *cmd, void *args)
{
	const struct dw_option *opts = cmd->options;
	size_t i, n = nr_options(opts), ns = 0, nl = 0;
	struct option *lo;
	char *so;
	int c, ret = -EINVAL;

	lo = calloc(n + 3, sizeof(*lo));
	so = malloc(3 * n + 3);
	if (!lo || !so) {
		dw_cmd_warn(cmd->name, "out of memory\n");
		goto out;
	}
	if (cmd->flags & DW_PARSE_STOP_AT_NON_OPTION)
		so[ns++] = '+';
	so[ns++] = 'h';
	for (i = 0; i < n; i++) {
		if (opts[i].short_name) {
			so[ns++] = (char)opts[i].short_name;
			if (arg_kind(&opts[i]) != no_argument)
				so[ns++] = ':';
			if (arg_kind(&opts[i]) == optional_argument)
				so[ns++] = ':';
		}
		if (opts[i].long_name)
			lo[nl++] = (struct option){ opts[i].long_name, arg_kind(&opts[i]), NULL,
				(int)(VAL_BASE + i) };
	}
	so[ns] = 0;
	lo[nl++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[nl++] = (struct option){ "list-opts", no_argument, NULL, VAL_LIST_OPTS };

	optind = 0;		/* 0: getopt_long() starts over, with this optstring */
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h') {
			dw_options_help(stdout, cmd);
			ret = DW_OPT_HANDLED;
			goto out;
		}
		if (c == VAL_LIST_OPTS) {
			dw_options_list(stdout, cmd);
			ret = DW_OPT_HANDLED;
			goto out;
		}
		if (c < VAL_BASE)
			for (i = 0; i < n && opts[i].short_name != c; i++)
				;
		else
			i = (size_t)(c - VAL_BASE);
		if (i >= n) {		/* '?': getopt_long() said what */
			usage_warn(cmd);
			goto out;
		}
		if (set_value(&opts[i], optarg, args, cmd->name))
			goto out;
	}
	ret = optind;
	if ((cmd->flags & DW_PARSE_NO_ARGS) && optind < argc) {
		dw_cmd_warn(cmd->name, "unexpected argument '%s'\n", argv[optind]);
		usage_warn(cmd);
		ret = -EINVAL;
	}
out:
	free(lo);
	free(so);
	return ret;
}

/**
 * dw_options_usage() - the usage lines and a pointer to -h
 * @f:		where
 * @cmd:	the command
 *
 * Context: user space.
 */
void dw_options_usage(FILE *f, const struct dw_cmd_help *cmd)
{
	size_t i;

	for (i = 0; cmd->usage[i]; i++)
		fprintf(f, "%s dunwind %s\n", i ? "      " : "usage:", cmd->usage[i]);
}

/* -h, --help: every command has it; not in the tables. */
static const struct dw_option help_option = {
	.type = DW_OPT_BOOL, .short_name = 'h', .long_name = "help",
	.help = "print the options and exit",
};

/* The option's name column: "  -o, --output FILE", "  -z, --level[=N]". */
static int opt_column(char *buf, size_t len, const struct dw_option *o)
{
	const char *argh = o->argh ? o->argh : "";
	const char *sp = o->argh ? " " : "", *end = "";

	if (o->argh && (o->flags & DW_OPTF_OPTIONAL_ARG)) {
		sp = o->long_name ? "[=" : "[";
		end = "]";
	}
	if (o->short_name && o->long_name)
		return snprintf(buf, len, "  -%c, --%s%s%s%s", o->short_name, o->long_name, sp,
				argh, end);
	if (o->long_name)
		return snprintf(buf, len, "      --%s%s%s%s", o->long_name, sp, argh, end);
	return snprintf(buf, len, "  -%c%s%s%s", o->short_name, sp, argh, end);
}

/* The whole help text of @o: its sentence and the values it takes. */
static void opt_help(char *buf, size_t len, const struct dw_option *o)
{
	if (o->values)
		snprintf(buf, len, "%s (one of: %s)", o->help, o->values());
	else
		snprintf(buf, len, "%s", o->help);
}

/* Print @text from column @col, wrapped at HELP_WIDTH, each line indented to @col. */
static void wrap(FILE *f, const char *text, int col)
{
	const char *p = text;
	int at = col;

	while (*p) {
		const char *w = p + strcspn(p, " ");
		int wl = (int)(w - p);

		if (at > col && at + 1 + wl > HELP_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fwrite(p, 1, (size_t)wl, f);
		at += wl;
		p = w + strspn(w, " ");
	}
	fputc('\n', f);
}

/**
 * dw_options_help() - print -h: usage, every option not hidden, the notes
 * @f:		where
 * @cmd:	the command
 *
 * Context: user space.
 */
void dw_options_help(FILE *f, const struct dw_cmd_help *cmd)
{
	const struct dw_option *o;
	char col[128], text[1024];
	int w;

	dw_options_usage(f, cmd);
	for (o = cmd->options;; o++) {
		if (o->type == DW_OPT_END)
			o = &help_option;
		if (!(o->flags & DW_OPTF_HIDDEN)) {
			w = opt_column(col, sizeof(col), o);
			opt_help(text, sizeof(text), o);
			if (w + 2 > HELP_COL)
				fprintf(f, "%s\n%*s", col, HELP_COL, "");
			else
				fprintf(f, "%-*s", HELP_COL, col);
			wrap(f, text, HELP_COL);
		}
		if (o == &help_option)
			break;
	}
	if (cmd->doc) {
		fprintf(f, "\n");
		wrap(f, cmd->doc, 0);
	}
}

/* @s in troff: backslashes and dashes escaped, no control line. */
static void troff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\n' && s[1] == '\n') {
			fputs("\n.PP\n", f);
			s++;
			if (s[1] == '.' || s[1] == '\'')
				fputs("\\&", f);
		} else
			fputc(*s, f);
	}
}

/**
 * dw_options_man() - the command's man page, dunwind-NAME(1), in troff
 * @f:		where
 * @cmd:	the command
 * @version:	dunwind's version, for the page's footer
 *
 * Context: user space.
 */
void dw_options_man(FILE *f, const struct dw_cmd_help *cmd, const char *version)
{
	const struct dw_option *o;
	char text[1024];
	size_t i;

	fprintf(f, ".TH DUNWIND\\-");
	for (i = 0; cmd->name[i]; i++)
		fputc(toupper((unsigned char)cmd->name[i]), f);
	fprintf(f, " 1 \"\" \"dunwind %s\" \"dunwind manual\"\n", version);
	fprintf(f, ".SH NAME\ndunwind\\-");
	troff(f, cmd->name);
	fprintf(f, " \\- ");
	troff(f, cmd->summary);
	fprintf(f, "\n.SH SYNOPSIS\n.nf\n");
	for (i = 0; cmd->usage[i]; i++) {
		fprintf(f, "\\fBdunwind\\fR ");
		troff(f, cmd->usage[i]);
		fprintf(f, "\n");
	}
	fprintf(f, ".fi\n");
	if (cmd->doc) {
		fprintf(f, ".SH DESCRIPTION\n");
		troff(f, cmd->doc);
		fprintf(f, "\n");
	}
	fprintf(f, ".SH OPTIONS\n");
	for (o = cmd->options; o->type != DW_OPT_END; o++) {
		if (o->flags & DW_OPTF_HIDDEN)
			continue;
		fprintf(f, ".TP\n");
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR%s", o->short_name, o->long_name ? ", " : "");
		if (o->long_name) {
			fprintf(f, "\\fB\\-\\-");
			troff(f, o->long_name);
			fprintf(f, "\\fR");
		}
		if (o->argh) {
			int opt = !!(o->flags & DW_OPTF_OPTIONAL_ARG);

			fprintf(f, opt ? "[=\\fI" : " \\fI");
			troff(f, o->argh);
			fprintf(f, opt ? "\\fR]" : "\\fR");
		}
		fprintf(f, "\n");
		opt_help(text, sizeof(text), o);
		troff(f, text);
		fprintf(f, "\n");
	}
	fprintf(f, ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n");
	troff(f, help_option.help);
	fprintf(f, "\n");
	fprintf(f, ".SH SEE ALSO\n\\fBdunwind\\fR(1)\n");
}

/**
 * dw_options_list() - the options on one line, for the bash completion
 * @f:		where
 * @cmd:	the command
 *
 * Then one line per option that takes one of a list of values:
 * "= -F --format: text folded ...".
 *
 * Context: user space.
 */
void dw_options_list(FILE *f, const struct dw_cmd_help *cmd)
{
	const struct dw_option *o;
	const char *v;

	for (o = cmd->options; o->type != DW_OPT_END; o++) {
		if (o->flags & DW_OPTF_HIDDEN)
			continue;
		if (o->short_name)
			fprintf(f, "-%c ", o->short_name);
		if (o->long_name)
			fprintf(f, "--%s ", o->long_name);
	}
	fprintf(f, "-h --help\n");
	for (o = cmd->options; o->type != DW_OPT_END; o++) {
		if ((o->flags & DW_OPTF_HIDDEN) || !o->values || !(v = o->values()))
			continue;
		fputc('=', f);
		if (o->short_name)
			fprintf(f, " -%c", o->short_name);
		if (o->long_name)
			fprintf(f, " --%s", o->long_name);
		fputc(':', f);
		fputc(' ', f);
		for (; *v; v++)		/* "a, b, c": the words only */
			if (*v != ',')
				fputc(*v, f);
		fputc('\n', f);
	}
}
