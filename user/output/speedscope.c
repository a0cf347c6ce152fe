// SPDX-License-Identifier: GPL-2.0
/*
 * speedscope JSON: one "sampled" profile per thread (named "COMM PID/TID"),
 * in nanoseconds of CPU time; every sample is a stack of indices into the
 * shared frame list, root first, weighted by its period.  A frame's file
 * is its source file when DWARF gave one, else the binary.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/speedscope.h"

#define DW_SPEEDSCOPE_MAX_FRAMES	4096

/**
 * dw_json_string() - write @s as a JSON string literal
 * @f:		output
 * @s:		NUL-terminated bytes (UTF-8 passes through)
 *
 * Context: any.
 */
void dw_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/**
 * dw_speedscope_write() - write the profile as a speedscope file
 * @f:		output
 * @p:		profile
 * @name:	the file's name (shown by speedscope)
 * @inline_frames: expand inlined functions
 *
 * Context: user space.
 * Return: 0, -ENOMEM, or -EIO if writing failed.
 */
int dw_speedscope_write(FILE *f, const struct dw_prof *p, const char *name, int inline_frames)
{
	static uint32_t funcs[DW_SPEEDSCOPE_MAX_FRAMES];
	char *done = calloc(p->nr_samples ? p->nr_samples : 1, 1);
	size_t i, j, k, n;
	int first_profile = 1;

	if (!done)
		return -ENOMEM;
	fprintf(f, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
		"\"exporter\":\"dunwind\",\"name\":");
	dw_json_string(f, name);
	fprintf(f, ",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[");
	for (i = 0; i < p->nr_funcs; i++) {
		const struct dw_prof_func *fn = &p->funcs[i];
		const char *file = fn->file ? fn->file : fn->dso;

		fprintf(f, "%s\n{\"name\":", i ? "," : "");
		dw_json_string(f, fn->name);
		if (file) {
			fprintf(f, ",\"file\":");
			dw_json_string(f, file);
		}
		fputc('}', f);
	}
	fprintf(f, "]},\n\"profiles\":[");
	/* One profile per thread, in order of first sample; samples in capture order. */
	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s0 = &p->samples[i];
		unsigned long long end = 0;
		char title[128];
		int first = 1;

		if (done[i])
			continue;
		for (j = i; j < p->nr_samples; j++)
			if (p->samples[j].tid == s0->tid && p->samples[j].pid == s0->pid)
				end += p->samples[j].period;
		snprintf(title, sizeof(title), "%s %u/%u", s0->comm, s0->pid, s0->tid);
		fprintf(f, "%s\n{\"type\":\"sampled\",\"name\":", first_profile ? "" : ",");
		first_profile = 0;
		dw_json_string(f, title);
		fprintf(f, ",\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":%llu,\n"
			"\"samples\":[", end);
		for (j = i; j < p->nr_samples; j++) {
			const struct dw_prof_sample *s = &p->samples[j];

			if (s->tid != s0->tid || s->pid != s0->pid)
				continue;
			n = dw_prof_frames(p, s, inline_frames, funcs, DW_SPEEDSCOPE_MAX_FRAMES);
			fprintf(f, "%s[", first ? "" : ",");
			for (k = n; k-- > 0;)
				fprintf(f, "%" PRIu32 "%s", funcs[k], k ? "," : "");
			fputc(']', f);
			first = 0;
		}
		fprintf(f, "],\n\"weights\":[");
		first = 1;
		for (j = i; j < p->nr_samples; j++) {
			const struct dw_prof_sample *s = &p->samples[j];

			if (s->tid != s0->tid || s->pid != s0->pid)
				continue;
			fprintf(f, "%s%llu", first ? "" : ",", (unsigned long long)s->period);
			first = 0;
			done[j] = 1;
		}
		fprintf(f, "]}");
	}
	fprintf(f, "]}\n");
	free(done);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
