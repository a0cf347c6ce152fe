/* SPDX-License-Identifier: GPL-2.0 */
/* Address -> function lookup in a process's mappings (libdwfl, see dso.h). */
#ifndef DW_SYMTAB_H
#define DW_SYMTAB_H

#include <stdint.h>

#include "symbols/dso.h"

struct dw_maps;

/* What dw_maps_resolve() found for an address. */
struct dw_mapres {
	int mapped;			/* a mapping covers the address */
	const char *dso;		/* its path ("//anon", "[heap]"...), or NULL */
	uint64_t start, end, pgoff;	/* the mapping */
	uint64_t foff;			/* the address's offset in the file */
	const unsigned char *build_id;	/* recorded, else the file's */
	size_t build_id_size;
	int stale;			/* the file is not the one recorded */
	uint64_t fstart;		/* file offset of the function's start: of */
					/* the symbol, or of its FDE (sym.fde) */
	struct dw_symres sym;		/* symbol, source, inline frames */
};

/*
 * Snapshot /proc/@pid/maps and the symbols of every mapped ELF file, read
 * into cache @c (NULL: one of the snapshot's own).  NULL on error (errno set).
 */
struct dw_maps *dw_maps_load(struct dw_dso_cache *c, int pid);
/*
 * Name of the function containing @addr, with *@off its offset and *@dso
 * the mapped file's path; NULL if no mapping or symbol covers it.
 */
const char *dw_maps_lookup(const struct dw_maps *m, uint64_t addr, uint64_t *off, const char **dso);
int dw_maps_resolve(const struct dw_maps *m, uint64_t addr, unsigned int flags,
		    struct dw_mapres *r);
void dw_maps_free(struct dw_maps *m);

/* An empty set for mappings known otherwise (a capture's MMAP records), files read into @c. */
struct dw_maps *dw_maps_new(struct dw_dso_cache *c);
/*
 * Add [@start, @end) mapping @path at file offset @pgoff, replacing what it
 * overlaps; the same mapping again (range, offset, path, non-empty build-id)
 * keeps the file read for it before if that file has the build-id.  A
 * non-empty @build_id that the file no longer has disables its symbols.
 * 0, -EINVAL or -ENOMEM.
 */
int dw_maps_add(struct dw_maps *m, uint64_t start, uint64_t end, uint64_t pgoff, const char *path,
		const unsigned char *build_id, size_t build_id_size);
int dw_maps_add_file(struct dw_maps *m, uint64_t start, uint64_t end, uint64_t pgoff,
		     const char *path, const char *file, const unsigned char *build_id,
		     size_t build_id_size);

#endif
