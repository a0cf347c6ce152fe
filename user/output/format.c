// SPDX-License-Identifier: GPL-2.0
/* The output formats of 'dunwind report' (output/format.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/folded.h"
#include "output/format.h"
#include "output/perfdata.h"
#include "output/pprof.h"
#include "output/speedscope.h"
#include "util/log.h"

static int write_text(FILE *f, const struct dw_prof *p, const struct dw_output_args *a)
{
	return dw_report_write(f, p, a->ro);
}

static int write_folded(FILE *f, const struct dw_prof *p, const struct dw_output_args *a)
{
	return dw_folded_write(f, p, a->inline_frames);
}

static int write_speedscope(FILE *f, const struct dw_prof *p, const struct dw_output_args *a)
{
	return dw_speedscope_write(f, p, a->input, a->inline_frames);
}

static int write_pprof(FILE *f, const struct dw_prof *p, const struct dw_output_args *a)
{
	return dw_pprof_write(f, p, a->inline_frames, 1);
}

static int write_perf(FILE *f, const struct dw_prof *p, const struct dw_output_args *a)
{
	int e = dw_perfdata_write(f, p);

	(void)a;
	if (e == -E2BIG)
		dw_cmd_warn("report", "a sample's stack is too deep for a perf record (64 KiB)\n");
	return e;
}

/* The first is the default; a NULL @name ends the table. */
const struct dw_output_format dw_output_formats[] = {
	{ .name = "text", .text = 1, .write = write_text },
	{ .name = "folded", .write = write_folded },
	{ .name = "speedscope", .src = 1, .write = write_speedscope },
	{ .name = "pprof", .binary = 1, .src = 1, .write = write_pprof },
	{ .name = "perf", .binary = 1, .file = 1, .kallsyms = 1, .write = write_perf },
	{ 0 }
};

/**
 * dw_output_find() - the format called @name
 * @name:	a --format value
 *
 * Context: any.
 * Return: its entry in dw_output_formats, or NULL.
 */
const struct dw_output_format *dw_output_find(const char *name)
{
	const struct dw_output_format *o;

	for (o = dw_output_formats; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/**
 * dw_output_names() - the formats' names, for help and messages
 *
 * Context: any; not reentrant the first time.
 * Return: "text, folded, ..." (static).
 */
const char *dw_output_names(void)
{
	static char names[128];
	const struct dw_output_format *o;
	size_t n = 0;

	if (names[0])
		return names;
	for (o = dw_output_formats; o->name && n < sizeof(names); o++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
				      o->name);
	return names;
}
