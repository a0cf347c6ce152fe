// SPDX-License-Identifier: GPL-2.0
/*
 * The stacks of a profile in the format of 'perf script' (its default
 * fields with +pid), so that FlameGraph's stackcollapse-perf.pl, speedscope
 * and the Firefox Profiler read them unchanged:
 *
 *	COMM PID/TID [CPU] SECS.USECS: PERIOD EVENT:	(off-CPU: offcpu-time, ns)
 *		ffffffff81234567 sym+0x12 ([kernel.kallsyms])	kernel, leaf first
 *		            1234 sym+0x34 (/path/to/dso)	then user frames
 *		            9999 [unknown] (/path/to/dso)	no symbol
 *		               0 [truncated: fault] ([truncated])	a stack cut short
 *	<blank line>
 *
 * The widths are perf's (PID %5u, TID %-5u, seconds %5llu, PERIOD %10llu, a
 * space after "EVENT:"), and so is a user frame's address: its offset in the
 * file it is mapped from, not the address in the process, so that the
 * same frame prints the same in every run.  perf.data exports compare
 * equal line by line under 'perf script -F +pid' (tools/clients_test);
 * dunwind's own frames (the truncation markers, [dunwind]) are the
 * difference.
 *
 * With inline frames, an address inside inlined code gives one line per
 * function, innermost first, all with the same address.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "capture/event.h"
#include "output/script.h"
#include "symbols/dso.h"

/* A JIT's symbol file (perf-PID.map) names anonymous memory, no file. */
static int is_perf_map(const char *dso)
{
	const char *base = strrchr(dso, '/');
	unsigned int pid;
	int end = 0;

	base = base ? base + 1 : dso;
	return sscanf(base, "perf-%u.map%n", &pid, &end) == 1 && end && !base[end];
}

/*
 * The address perf prints: a user frame's offset in the file (or vDSO) it
 * is mapped from; the address itself in the kernel, anonymous memory and
 * JIT code.
 */
static uint64_t loc_addr(const struct dw_prof_loc *l)
{
	if (l->kernel || !l->mapping || !l->dso || !dw_dso_path_is_image(l->dso) ||
	    is_perf_map(l->dso))
		return l->ip;
	return l->dso_off;
}

static void print_loc(FILE *f, const struct dw_prof *p, const struct dw_prof_loc *l,
		      int inline_frames)
{
	uint32_t j;

	if (l->marker || l->python) {
		fprintf(f, "\t%16" PRIx64 " %s (%s)\n", l->ip,
			p->funcs[p->lines[l->first_line].func].name, l->dso);
		return;
	}
	if (!l->sym) {
		fprintf(f, "\t%16" PRIx64 " [unknown] (%s)\n", loc_addr(l),
			l->dso ? l->dso : "[unknown]");
		return;
	}
	/* Inlined callees first (no offset: they have no symbol of their own). */
	for (j = 0; inline_frames && j + 1 < l->nr_lines; j++)
		fprintf(f, "\t%16" PRIx64 " %s (%s)\n", loc_addr(l),
			p->funcs[p->lines[l->first_line + j].func].name, l->dso);
	fprintf(f, "\t%16" PRIx64 " %s+0x%" PRIx64 " (%s)\n", loc_addr(l), l->sym, l->off,
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

		fprintf(f, "%s %5u/%-5u [%03u] %5llu.%06llu: %10llu %s: \n", s->comm, s->pid, s->tid,
			s->cpu, (unsigned long long)(s->time / 1000000000ULL),
			(unsigned long long)(s->time % 1000000000ULL / 1000),
			(unsigned long long)s->period, dw_sample_event_name(p->hdr.event, s->flags));
		for (j = 0; j < s->nr; j++)
			print_loc(f, p, &p->locs[p->stack[s->first + j]], inline_frames);
		fprintf(f, "\n");
	}
	return ferror(f) ? -EIO : 0;
}
