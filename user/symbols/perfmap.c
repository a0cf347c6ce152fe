// SPDX-License-Identifier: GPL-2.0
/*
 * perf's JIT map: a runtime that generates code writes /tmp/perf-PID.map,
 * one "START SIZE NAME" line per function (START and SIZE in hex, with or
 * without 0x; NAME may hold spaces).  Later lines win for the same range,
 * as code is regenerated; we keep the last entry with a given start.
 *
 * The file is the process owner's, read by a recorder that may run as
 * root: it is opened only when it is a regular file (not a symbolic link,
 * FIFO or device) owned by the process's user (or root), and read up to
 * DW_PERFMAP_MAX_BYTES and DW_PERFMAP_MAX_SYMS; a message names the file
 * and what it broke.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/owned_file.h"
#include "symbols/perfmap.h"
#include "util/array.h"
#include "util/log.h"
#include "util/search.h"
#include "util/text.h"

struct pm_sym {
	uint64_t start, size;
	size_t seq;			/* line number: later wins */
	char *name;
};

struct dw_perfmap {
	struct pm_sym *syms;
	size_t nr;
};

static int pm_cmp(const void *a, const void *b)
{
	const struct pm_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The map being read, and where. */
struct pm_reader {
	struct dw_perfmap *m;
	size_t cap, seq;
	size_t bytes;			/* read so far */
	const char *path;		/* for messages */
};

/* The bounds in force (dw_perfmap_set_bounds()). */
static size_t max_bytes = DW_PERFMAP_MAX_BYTES, max_syms = DW_PERFMAP_MAX_SYMS;

/* Stop at a bound: say which.  Return: 1, to stop dw_text_lines(). */
static int pm_full(struct pm_reader *r, size_t max, const char *what)
{
	dw_warn("%s: more than %zu %s: its JIT symbols are read up to there\n",
		r->path, max, what);
	return 1;
}

/* One "START SIZE NAME" line; malformed ones are skipped.  0 or -ENOMEM. */
static int pm_line(char *line, void *arg)
{
	struct pm_reader *r = arg;
	struct dw_perfmap *m = r->m;
	unsigned long long start, size;
	int pos = 0;
	char *name;

	r->seq++;
	r->bytes += strlen(line);
	if (r->bytes > max_bytes)
		return pm_full(r, max_bytes, "bytes");
	if (m->nr >= max_syms)
		return pm_full(r, max_syms, "entries");
	if (sscanf(line, "%llx %llx %n", &start, &size, &pos) < 2 || !pos || !size ||
	    start + size < start)
		return 0;
	name = line + pos;
	name[strcspn(name, "\n")] = '\0';
	if (!*name)
		return 0;
	if (strlen(name) > DW_PERFMAP_MAX_NAME)
		name[DW_PERFMAP_MAX_NAME] = '\0';
	if (DW_ARRAY_RESERVE(m->syms, r->cap, m->nr + 1, 64))
		return -ENOMEM;
	m->syms[m->nr].name = strdup(name);
	if (!m->syms[m->nr].name)
		return -ENOMEM;
	m->syms[m->nr].start = start;
	m->syms[m->nr].size = size;
	m->syms[m->nr++].seq = r->seq;
	return 0;
}

/* Read the lines of @f (closed here; NULL: errno says why). */
static struct dw_perfmap *pm_read(FILE *f, const char *path)
{
	struct pm_reader r = { .path = path };
	struct dw_perfmap *m;
	size_t i, j;

	if (!f)
		return NULL;
	m = r.m = calloc(1, sizeof(*m));
	if (!m || dw_text_lines(f, pm_line, &r) < 0) {
		if (!m)
			fclose(f);
		dw_perfmap_free(m);
		errno = ENOMEM;
		return NULL;
	}
	if (m->nr)
		qsort(m->syms, m->nr, sizeof(*m->syms), pm_cmp);
	/* Keep the latest entry of each start. */
	for (i = 0, j = 0; i < m->nr; i++) {
		if (i + 1 < m->nr && m->syms[i + 1].start == m->syms[i].start) {
			free(m->syms[i].name);
			continue;
		}
		m->syms[j++] = m->syms[i];
	}
	m->nr = j;
	return m;
}

/**
 * dw_perfmap_load() - read a perf map file
 * @path:	e.g. /tmp/perf-1234.map
 *
 * Only a regular file that root or the user of process 1234 owns is read
 * (ours when there is no such process), not a link, FIFO or device: a
 * message says why another is not.
 *
 * Context: user space, blocking I/O.  Malformed lines are skipped.
 * Return: the map, or NULL with errno set (from open(), EPERM: refused,
 * ENOMEM).
 */
struct dw_perfmap *dw_perfmap_load(const char *path)
{
	return pm_read(dw_owned_fopen(path, dw_owned_uid(path, "perf-%u.map%n"), max_bytes,
				      "JIT symbols"), path);
}

/**
 * dw_perfmap_parse() - read perf map text held in memory
 * @text:	the text
 * @len:	its length, > 0
 *
 * Context: user space.
 * Return: as dw_perfmap_load().
 */
struct dw_perfmap *dw_perfmap_parse(const char *text, size_t len)
{
	return pm_read(dw_text_open(text, len, EINVAL), "(perf map text)");
}

/**
 * dw_perfmap_set_bounds() - change what is read of one map
 * @bytes:	bytes of text (0: DW_PERFMAP_MAX_BYTES)
 * @syms:	entries (0: DW_PERFMAP_MAX_SYMS)
 *
 * Context: user space, before any load (tests use smaller bounds).
 */
void dw_perfmap_set_bounds(size_t bytes, size_t syms)
{
	max_bytes = bytes ? bytes : DW_PERFMAP_MAX_BYTES;
	max_syms = syms ? syms : DW_PERFMAP_MAX_SYMS;
}

/**
 * dw_perfmap_lookup() - the JIT function holding @addr
 * @m:		map
 * @addr:	user address
 * @off:	set to the offset in the function (if not NULL)
 * @size:	set to the function's size (if not NULL)
 *
 * Context: user space; O(log n).
 * Return: the name (valid until dw_perfmap_free()), or NULL.
 */
const char *dw_perfmap_lookup(const struct dw_perfmap *m, uint64_t addr, uint64_t *off,
			      uint64_t *size)
{
	size_t lo = DW_UPPER_BOUND(m->syms, m->nr, start, addr);
	const struct pm_sym *s;

	if (!lo)
		return NULL;
	s = &m->syms[lo - 1];
	if (addr - s->start >= s->size)
		return NULL;
	if (off)
		*off = addr - s->start;
	if (size)
		*size = s->size;
	return s->name;
}

/**
 * dw_perfmap_free() - free a map
 * @m:		map or NULL
 *
 * Context: user space.
 */
void dw_perfmap_free(struct dw_perfmap *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++)
		free(m->syms[i].name);
	free(m->syms);
	free(m);
}
