// SPDX-License-Identifier: GPL-2.0
/*
 * Python frames in perf.data.  perf names a user address by the file
 * mapped there; a Python frame has no such file, so the export makes one:
 * every distinct Python frame name of the profile ("qualname
 * (file.py:LINE)", as the other outputs print it) is a function of its
 * own, PERFDATA_PY_SLOT bytes at a file offset of its own, in a file that
 * exists only in the export's build-id directory (perfdata_debug.c writes
 * it with symelf.c).  Its build-id is made from the names, so that the
 * same names give the same file.  Each process with Python frames maps it
 * (one MMAP2, perfdata_events.c) at PERFDATA_PY_GAP above the highest
 * user address of the capture (its mappings and its frames), where no
 * process has anything; its Python frames are then addresses in it, in
 * the callchain where the recorded stack has them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/perfdata_priv.h"
#include "util/htab.h"

/* The names sorted: the file does not depend on the order they were met. */
static int name_cmp(const void *a, const void *b, void *arg)
{
	const struct dw_prof *p = arg;

	return strcmp(p->locs[*(const size_t *)a].sym, p->locs[*(const size_t *)b].sym);
}

/* 20 bytes from the names, in their order. */
static void names_id(struct perfdata_py *py)
{
	uint64_t h[3] = { DW_HASH_INIT, DW_HASH_INIT ^ 0x5079, DW_HASH_INIT ^ 0x7079746e };
	size_t i, k;

	for (i = 0; i < py->nr; i++)
		for (k = 0; k < 3; k++)
			h[k] = dw_hash_bytes(py->funcs[i].name, strlen(py->funcs[i].name) + 1, h[k]);
	for (k = 0; k < 3; k++)
		h[k] = dw_hash_bytes(&py->nr, sizeof(py->nr), h[k]);
	memcpy(py->build_id, h, sizeof(py->build_id));
}

/**
 * perfdata_py_build() - the Python frames' file: a symbol per distinct
 *	name, and each Python location's offset in the file
 * @py:		zeroed; free with perfdata_py_free() whatever the result
 * @p:		profile
 *
 * Context: user space.
 * Return: 0 (@py->nr 0: no Python frame), or -ENOMEM.
 */
int perfdata_py_build(struct perfdata_py *py, const struct dw_prof *p)
{
	size_t *idx, i, n = 0;

	for (i = 0; i < p->nr_locs; i++)
		n += p->locs[i].python && p->locs[i].sym;
	if (!n)
		return 0;
	idx = malloc(n * sizeof(*idx));
	py->off = calloc(p->nr_locs, sizeof(*py->off));
	py->funcs = malloc(n * sizeof(*py->funcs));
	if (!idx || !py->off || !py->funcs) {
		free(idx);
		return -ENOMEM;
	}
	for (i = 0, n = 0; i < p->nr_locs; i++)
		if (p->locs[i].python && p->locs[i].sym)
			idx[n++] = i;
	qsort_r(idx, n, sizeof(*idx), name_cmp, (void *)p);
	for (i = 0; i < n; i++) {
		const char *name = p->locs[idx[i]].sym;

		if (!py->nr || strcmp(py->funcs[py->nr - 1].name, name)) {
			py->funcs[py->nr].addr = PERFDATA_PY_TEXT + py->nr * PERFDATA_PY_SLOT;
			py->funcs[py->nr].size = PERFDATA_PY_SLOT;
			py->funcs[py->nr++].name = name;
		}
		py->off[idx[i]] = py->funcs[py->nr - 1].addr;
	}
	py->size = PERFDATA_PY_TEXT + py->nr * PERFDATA_PY_SLOT;
	names_id(py);
	free(idx);
	return 0;
}

/*
 * perfdata_py_base() - where every process maps the Python frames' file:
 * PERFDATA_PY_GAP above the highest end of @p's MMAP records and of its
 * user frames, on a PERFDATA_PY_GAP boundary.
 */
__u64 perfdata_py_base(const struct dw_prof *p)
{
	const struct dunwind_rec_header *rec;
	__u64 top = 0;
	size_t i, off;

	for (off = 0; off + sizeof(*rec) <= p->tasks.len; off += rec->size) {
		rec = (const void *)(p->tasks.p + off);
		if (rec->size < sizeof(*rec))
			break;		/* the profile's own copies: cannot be */
		if (rec->type == DUNWIND_REC_MMAP && rec->size >= sizeof(struct dunwind_rec_mmap) &&
		    ((const struct dunwind_rec_mmap *)rec)->end > top)
			top = ((const struct dunwind_rec_mmap *)rec)->end;
	}
	for (i = 0; i < p->nr_locs; i++)
		if (!p->locs[i].kernel && !p->locs[i].marker && !p->locs[i].python &&
		    p->locs[i].ip > top)
			top = p->locs[i].ip;
	return (top | (PERFDATA_PY_GAP - 1)) + 1 + PERFDATA_PY_GAP;
}

/* perfdata_py_free() - free what perfdata_py_build() made. */
void perfdata_py_free(struct perfdata_py *py)
{
	free(py->off);
	free(py->funcs);
}
