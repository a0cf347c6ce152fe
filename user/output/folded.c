// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks, as FlameGraph's stackcollapse-perf.pl writes them: the
 * thread's name, then the frames from the root to the leaf, joined by
 * ';', a space and the number of samples with that stack.  Lines are
 * sorted (byte order) and each stack appears once.  Names lose the
 * characters that would break the format (';' and line breaks).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/folded.h"
#include "util/array.h"

#define DW_FOLDED_MAX_FRAMES	4096

struct line {
	char *text;
	unsigned long count;
};

/**
 * dw_folded_name() - a name made safe for a folded line
 * @out:	output buffer
 * @size:	its size (> 0)
 * @name:	the name
 *
 * Context: any.  ';' becomes ':', control characters become '?'.
 */
void dw_folded_name(char *out, size_t size, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < size; i++) {
		unsigned char c = (unsigned char)name[i];

		out[i] = c == ';' ? ':' : c < 0x20 ? '?' : (char)c;
	}
	out[i] = '\0';
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text, ((const struct line *)b)->text);
}

/* Append @s to the growing buffer. */
static int put(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (DW_ARRAY_RESERVE(*buf, *cap, *len + n + 1, 256))
		return -ENOMEM;
	memcpy(*buf + *len, s, n + 1);
	*len += n;
	return 0;
}

/**
 * dw_folded_write() - write a profile as folded stacks
 * @f:		output
 * @p:		profile
 * @inline_frames: expand inlined functions
 *
 * Context: user space.
 * Return: 0, -ENOMEM, or -EIO if writing failed.
 */
int dw_folded_write(FILE *f, const struct dw_prof *p, int inline_frames)
{
	static uint32_t funcs[DW_FOLDED_MAX_FRAMES];
	struct line *lines = calloc(p->nr_samples ? p->nr_samples : 1, sizeof(*lines));
	size_t i, j, n, nr = 0;
	int err = 0;

	if (!lines)
		return -ENOMEM;
	for (i = 0; i < p->nr_samples && !err; i++) {
		const struct dw_prof_sample *s = &p->samples[i];
		char name[1024], *buf = NULL;
		size_t len = 0, cap = 0;

		dw_folded_name(name, sizeof(name), s->comm);
		err = put(&buf, &len, &cap, name);
		n = dw_prof_frames(p, s, inline_frames, funcs, DW_FOLDED_MAX_FRAMES);
		for (j = n; j-- > 0 && !err;) {
			dw_folded_name(name, sizeof(name), p->funcs[funcs[j]].name);
			err = put(&buf, &len, &cap, ";");
			if (!err)
				err = put(&buf, &len, &cap, name);
		}
		if (err) {
			free(buf);
			break;
		}
		lines[nr].text = buf;
		lines[nr++].count = 1;
	}
	if (!err) {
		qsort(lines, nr, sizeof(*lines), line_cmp);
		for (i = 0; i < nr; i = j) {
			unsigned long count = 0;

			for (j = i; j < nr && !strcmp(lines[j].text, lines[i].text); j++)
				count += lines[j].count;
			fprintf(f, "%s %lu\n", lines[i].text, count);
		}
		if (fflush(f) || ferror(f))
			err = -EIO;
	}
	for (i = 0; i < nr; i++)
		free(lines[i].text);
	free(lines);
	return err;
}
