// SPDX-License-Identifier: GPL-2.0
/*
 * Symbolisation of user addresses: a process's mappings (a snapshot of
 * /proc/PID/maps, or a capture's MMAP records) and, for file mappings,
 * the files' symbols and debug info (dso.c, libdwfl).
 *
 * An address in a mapping [start, end) at file offset @off lies at file
 * offset addr - start + off; the PT_LOAD segment holding that file offset
 * turns it into the ELF's link-time address (file offset - p_offset +
 * p_vaddr), the space symbols live in.  This is the same for ET_EXEC and
 * for PIE/shared objects, whatever their load bias.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/dso.h"
#include "util/vdso.h"
#include "symbols/procfile.h"
#include "symbols/symtab.h"
#include "util/maps.h"
#include "util/array.h"
#include "util/search.h"

/* Mapped paths, owned by the set. */
struct dw_path {
	struct dw_path *next;
	char path[];
};

struct dw_map {
	uint64_t start, end, offset;
	struct dw_dso *dso;		/* NULL: anonymous or not a file */
	const char *path;
	unsigned char build_id[20];	/* as recorded; size 0: not recorded */
	size_t build_id_size;
};

struct dw_maps {
	struct dw_map *maps;		/* sorted by start, non-overlapping */
	size_t nr_maps, cap_maps;
	struct dw_path *paths;
	struct dw_dso_cache *dsos;	/* where the mapped files are read */
	struct dw_dso_cache *own;	/* @dsos, when the set owns it */
};

static const char *keep_path(struct dw_maps *m, const char *path)
{
	struct dw_path *p;
	size_t len = strlen(path) + 1;

	for (p = m->paths; p; p = p->next)
		if (!strcmp(p->path, path))
			return p->path;
	p = malloc(sizeof(*p) + len);
	if (!p)
		return NULL;
	memcpy(p->path, path, len);
	p->next = m->paths;
	m->paths = p;
	return p->path;
}

/*
 * The file of a live process's mapping (procfile.h): as the process sees it
 * (mount namespaces), else the mapped inode (the path is gone or names
 * another file), else the path as we see it.
 */
static struct dw_dso *live_dso(struct dw_dso_cache *c, int pid, const struct dw_maps_line *l)
{
	char file[4200];

	dw_proc_file(c, pid, l->path, l->start, l->end, NULL, 0, file, sizeof(file));
	return dw_dso_get(c, file, NULL, 0);
}

static int map_cmp(const void *a, const void *b)
{
	const struct dw_map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/**
 * dw_maps_load() - snapshot the executable mappings of @pid and their symbols
 * @c:		cache to read the files into, or NULL for one the snapshot owns
 * @pid:	process id; 0 means the caller
 *
 * Context: user space, reads /proc and the mapped files (may be slow for
 * large binaries).  Files that cannot be read or are not ELF are kept as
 * mappings without symbols.
 * Return: the snapshot, or NULL with errno set (ENOENT/ESRCH: no such
 * process, EACCES: not allowed to read its maps, ENOMEM).
 */
struct dw_maps *dw_maps_load(struct dw_dso_cache *c, int pid)
{
	const struct dw_maps_line *l;
	struct dw_proc_maps it;
	struct dw_maps *m;
	size_t cap = 0;
	int err;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = ENOSYS;
		return NULL;
	}
	if (pid == 0)
		pid = getpid();
	err = dw_proc_maps_open(&it, pid);
	if (err) {
		errno = -err;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m || (!c && !(m->own = c = dw_dso_cache_new())))
		goto fail;
	m->dsos = c;
	while ((l = dw_proc_maps_next(&it))) {
		struct dw_map *map;

		if (!strchr(l->perms, 'x'))
			continue;
		if (DW_ARRAY_RESERVE(m->maps, cap, m->nr_maps + 1, 64))
			goto fail;
		map = &m->maps[m->nr_maps];
		*map = (struct dw_map){ .start = l->start, .end = l->end, .offset = l->offset };
		if (l->path[0] == '/' || !strcmp(l->path, DW_VDSO_NAME)) {
			map->dso = l->path[0] == '/' ? live_dso(c, pid, l) :
				   dw_dso_get(c, l->path, NULL, 0);
			map->path = keep_path(m, l->path);
			if (!map->dso || !map->path)
				goto fail;
		} else if (l->path[0]) {
			map->path = keep_path(m, l->path);
			if (!map->path)
				goto fail;
		}
		m->nr_maps++;
	}
	dw_proc_maps_close(&it);
	qsort(m->maps, m->nr_maps, sizeof(*m->maps), map_cmp);
	m->cap_maps = cap;
	return m;
fail:
	dw_proc_maps_close(&it);
	dw_maps_free(m);
	errno = ENOMEM;
	return NULL;
}

/**
 * dw_maps_new() - an empty set of mappings, filled with dw_maps_add()
 * @c:		cache to read the mapped files into (outlives the set)
 *
 * Context: user space.  For captures: the mappings come from MMAP records,
 * not from /proc.
 * Return: the set, or NULL (errno ENOMEM, or ENOSYS if libelf is unusable).
 */
struct dw_maps *dw_maps_new(struct dw_dso_cache *c)
{
	struct dw_maps *m;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = ENOSYS;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (m)
		m->dsos = c;
	return m;
}

/* Make room for @n more mappings. */
static int maps_reserve(struct dw_maps *m, size_t n)
{
	return DW_ARRAY_RESERVE(m->maps, m->cap_maps, m->nr_maps + n, 16);
}

/**
 * dw_maps_add() - add a file mapping; it replaces what it overlaps
 * @m:		set from dw_maps_new()
 * @start:	first address
 * @end:	end address (exclusive); must be above @start
 * @pgoff:	file offset mapped at @start
 * @path:	the file; read now (once per path) for its symbols.  NULL,
 *		"//anon" or not absolute ("[heap]"): a mapping without symbols
 * @build_id:	the mapped file's GNU build-id, or NULL; if the file at
 *		@path now has another one, it is not used for symbols
 * @build_id_size: bytes of @build_id, 0..20
 *
 * Context: user space, reads @path.  O(number of mappings).
 * Return: 0, -EINVAL for an empty range, -ENOMEM.
 */
int dw_maps_add(struct dw_maps *m, uint64_t start, uint64_t end, uint64_t pgoff, const char *path,
		const unsigned char *build_id, size_t build_id_size)
{
	return dw_maps_add_file(m, start, end, pgoff, path, NULL, build_id, build_id_size);
}

/*
 * Is @nm (with @path and @build_id) a mapping @m holds already, the same
 * range of the same file (its build-id), whose file was read and is that
 * file?  Then a new record of it (the module may report a mapping again)
 * has nothing to add, and the file read first stays: it was read while
 * the process mapped it, where a late record may find the process gone
 * (no /proc/PID/root, no map_files) and only another file at @path.
 */
static int same_mapping_read(const struct dw_maps *m, const struct dw_map *nm, const char *path,
			     const unsigned char *build_id, size_t build_id_size)
{
	size_t i;

	if (!path || !build_id_size)
		return 0;
	for (i = 0; i < m->nr_maps; i++) {
		const struct dw_map *o = &m->maps[i];

		if (o->start == nm->start && o->end == nm->end && o->offset == nm->offset &&
		    o->path && !strcmp(o->path, path) && o->build_id_size == build_id_size &&
		    !memcmp(o->build_id, build_id, build_id_size))
			return o->dso && dw_dso_usable(o->dso);
	}
	return 0;
}

/**
 * dw_maps_add_file() - dw_maps_add(), reading the file from elsewhere
 * @m, @start, @end, @pgoff, @path, @build_id, @build_id_size: as for
 *		dw_maps_add(); @path names the mapping
 * @file:	what to read for @path's symbols (a /proc/PID/root or
 *		map_files path of a live process); NULL: @path
 *
 * Context and return: as dw_maps_add().
 */
int dw_maps_add_file(struct dw_maps *m, uint64_t start, uint64_t end, uint64_t pgoff,
		     const char *path, const char *file, const unsigned char *build_id,
		     size_t build_id_size)
{
	struct dw_map nm = { .start = start, .end = end, .offset = pgoff };
	size_t i, j, at;

	if (start >= end || build_id_size > 20)
		return -EINVAL;
	if (same_mapping_read(m, &nm, path, build_id, build_id_size))
		return 0;
	if (path && dw_dso_path_is_image(path)) {
		nm.dso = dw_dso_get(m->dsos, file ? file : path, build_id, build_id_size);
		if (!nm.dso)
			return -ENOMEM;
	}
	if (path) {
		nm.path = keep_path(m, path);
		if (!nm.path)
			return -ENOMEM;
	}
	if (build_id_size)
		memcpy(nm.build_id, build_id, build_id_size);
	nm.build_id_size = build_id_size;
	/* At most one old mapping is split in two: room for two more. */
	if (maps_reserve(m, 2))
		return -ENOMEM;
	for (i = 0; i < m->nr_maps; i++) {
		struct dw_map *o = &m->maps[i];

		if (o->start < start && o->end > end) {
			/* @nm lies inside @o, which overlaps nothing else. */
			struct dw_map right = *o;

			right.offset += end - o->start;
			right.start = end;
			o->end = start;
			memmove(&m->maps[i + 3], &m->maps[i + 1],
				(m->nr_maps - i - 1) * sizeof(nm));
			m->maps[i + 1] = nm;
			m->maps[i + 2] = right;
			m->nr_maps += 2;
			return 0;
		}
	}
	for (i = 0, j = 0; i < m->nr_maps; i++) {
		struct dw_map o = m->maps[i];

		if (o.end <= start || o.start >= end) {
			m->maps[j++] = o;
		} else if (o.start < start) {
			o.end = start;
			m->maps[j++] = o;
		} else if (o.end > end) {
			o.offset += end - o.start;
			o.start = end;
			m->maps[j++] = o;
		}
		/* else: entirely covered, dropped */
	}
	m->nr_maps = j;
	for (at = 0; at < m->nr_maps && m->maps[at].start < start; at++)
		;
	memmove(&m->maps[at + 1], &m->maps[at], (m->nr_maps - at) * sizeof(nm));
	m->maps[at] = nm;
	m->nr_maps++;
	return 0;
}

/**
 * dw_maps_resolve() - everything known about a user address
 * @m:		mappings
 * @addr:	user address, as it is to be looked up (a return address
 *		already moved back into its call instruction)
 * @flags:	DW_DSO_SRC for source lines and inline frames
 * @r:		filled: the mapping (if any), the file offset, the symbol
 *
 * Context: user space; O(log n) plus libdw's lookups.
 * Return: 0 if a symbol covers @addr, -ENOENT if a mapping does but no
 * symbol (or the file is stale: @r->stale), -ESRCH if no mapping does.
 */
int dw_maps_resolve(const struct dw_maps *m, uint64_t addr, unsigned int flags,
		    struct dw_mapres *r)
{
	const struct dw_map *map;
	size_t lo = DW_UPPER_BOUND(m->maps, m->nr_maps, start, addr);
	uint64_t vaddr;
	int err;

	memset(r, 0, sizeof(*r));
	if (lo == 0 || addr >= m->maps[lo - 1].end)
		return -ESRCH;
	map = &m->maps[lo - 1];
	r->mapped = 1;
	r->dso = map->path;
	r->start = map->start;
	r->end = map->end;
	r->pgoff = map->offset;
	r->foff = addr - map->start + map->offset;
	r->build_id = map->build_id;
	r->build_id_size = map->build_id_size;
	if (map->dso && !r->build_id_size)
		r->build_id_size = (size_t)dw_dso_build_id(map->dso, &r->build_id);
	if (!map->dso)
		return -ENOENT;
	r->stale = dw_dso_stale(map->dso);
	if (r->stale || dw_dso_file_to_vaddr(map->dso, r->foff, &vaddr))
		return -ENOENT;
	err = dw_dso_resolve(map->dso, vaddr, flags, &r->sym);
	if (r->sym.name || r->sym.fde)
		r->fstart = r->foff - (vaddr - r->sym.start);
	return err;
}

/**
 * dw_maps_lookup() - the function containing @addr
 * @m:		snapshot from dw_maps_load()
 * @addr:	user address
 * @off:	set to @addr's offset in the function (if not NULL)
 * @dso:	set to the mapped file's path when a file mapping covers @addr,
 *		even if no symbol does; else NULL (if not NULL)
 *
 * Context: user space; O(log n).
 * Return: the function's name, valid until dw_dso_cache_free(); NULL if no
 * mapping or symbol covers @addr.
 */
const char *dw_maps_lookup(const struct dw_maps *m, uint64_t addr, uint64_t *off,
			   const char **dso)
{
	struct dw_mapres r;
	int err = dw_maps_resolve(m, addr, 0, &r);

	if (dso)
		*dso = r.dso;
	if (err)
		return NULL;
	if (off)
		*off = r.sym.off;
	return r.sym.name;
}

/**
 * dw_maps_free() - free a snapshot
 * @m:		snapshot or NULL
 *
 * Context: user space.
 */
void dw_maps_free(struct dw_maps *m)
{
	struct dw_path *p, *next;

	if (!m)
		return;
	for (p = m->paths; p; p = next) {
		next = p->next;
		free(p);
	}
	free(m->maps);
	dw_dso_cache_free(m->own);
	free(m);
}
