// SPDX-License-Identifier: GPL-2.0
/*
 * The stacks of a profile in the format of 'perf script', so that
 * FlameGraph's stackcollapse-perf.pl and speedscope read them unchanged:
 *
 *	COMM PID/TID [CPU] SECS.USECS: PERIOD EVENT:	(off-CPU: offcpu-time, ns)
 *		ffffffff81234567 sym+0x12 ([kernel.kallsyms])	kernel, leaf first
 *		    55d0c0de1234 sym+0x34 (/path/to/dso)	then user frames
 *		    55d0c0de9999 [unknown] (/path/to/dso+0x9999)	no symbol
 *		               0 [truncated: fault] ([truncated])	a stack cut short
 *	<blank line>
 *
 * With inline frames, an address inside inlined code gives one line per
 * function, innermost first, all with the same address.
 */
#include <errno.h>
#include <inttypes.h>

#include "capture/event.h"
#include "output/script.h"

static void print_loc(FILE *f, const struct dw_prof *p, const struct dw_prof_loc *l,
		      int inline_frames)
{
	uint32_t j;

	if (l->marker) {
		fprintf(f, "\t%16" PRIx64 " %s (%s)\n", (uint64_t)0,
			p->funcs[p->lines[l->first_line].func].name, l->dso);
		return;
	}
	if (!l->sym) {
		if (l->dso && !l->kernel)
			fprintf(f, "\t%16" PRIx64 " [unknown] (%s+0x%" PRIx64 ")\n", l->ip, l->dso,
				l->dso_off);
		else
			fprintf(f, "\t%16" PRIx64 " [unknown] (%s)\n", l->ip,
				l->dso ? l->dso : "[unknown]");
		return;
	}
	/* Inlined callees first (no offset: they have no symbol of their own). */
	for (j = 0; inline_frames && j + 1 < l->nr_lines; j++)
		fprintf(f, "\t%16" PRIx64 " %s (%s)\n", l->ip,
			p->funcs[p->lines[l->first_line + j].func].name, l->dso);
	fprintf(f, "\t%16" PRIx64 " %s+0x%" PRIx64 " (%s)\n", l->ip, l->sym, l->off,
		l->dso ? l->dso : "[unknown]");
}

/**
 * dw_script_write() - every sample and its stack, as 'perf script' prints them
 * @f:		the output
 * @p:		profile
 * @inline_frames: a line per inlined function
 *
 * Context: user space.
 * Return: 0, or -EIO if @f failed.
 */
int dw_script_write(FILE *f, const struct dw_prof *p, int inline_frames)
{
	size_t i;
	uint32_t j;

	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s = &p->samples[i];

		fprintf(f, "%s %u/%u [%03u] %llu.%06llu: %llu %s:\n", s->comm, s->pid, s->tid,
			s->cpu, (unsigned long long)(s->time / 1000000000ULL),
			(unsigned long long)(s->time % 1000000000ULL / 1000),
			(unsigned long long)s->period, dw_sample_event_name(p->hdr.event, s->flags));
		for (j = 0; j < s->nr; j++)
			print_loc(f, p, &p->locs[p->stack[s->first + j]], inline_frames);
		fprintf(f, "\n");
	}
	return ferror(f) ? -EIO : 0;
}
