/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One ELF file and its debug info (libdwfl): symbols (.symtab/.dynsym,
 * also those of a separate debug file), DWARF source lines and inline
 * frames.  Debug info is found by .gnu_debuglink, under the debug
 * directories' .build-id/xx/yyyy.debug, and through debuginfod.  Files
 * are cached by build-id (else by path) in a struct dw_dso_cache, with
 * where to look (--symfs, --debug-dirs): each profile or recording has
 * its own.
 */
#ifndef DW_DSO_H
#define DW_DSO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DW_DSO_MAX_INLINE	16

/* One source-level frame of an address: a function and where in it. */
struct dw_srcframe {
	const char *func;		/* NULL: unknown */
	const char *file;		/* NULL: unknown */
	int line;			/* 0: unknown */
};

/*
 * What an address is.  @name/@off: the ELF symbol.  @start/@size: the
 * function's link-time range: the symbol's, or, with no symbol (@name
 * NULL, @fde 1), that of the .eh_frame/.debug_frame FDE holding the
 * address, so that a stripped function is still one function; @size 0:
 * unknown.  @frames[0] is the
 * innermost inlined function (its file:line is the address's), the last
 * is the real function with the line of the address in it; one frame when
 * nothing is inlined there.  @nr_frames 0: no DWARF for the address.
 */
struct dw_symres {
	const char *name;
	uint64_t off;
	uint64_t start, size;
	int fde;
	unsigned int nr_frames;
	struct dw_srcframe frames[DW_DSO_MAX_INLINE];
};

struct dw_dso;
struct dw_dso_cache;

/* Resolve source lines and inline frames too (slower; needs DWARF). */
#define DW_DSO_SRC	(1U << 0)

int dw_dso_path_is_image(const char *path);
struct dw_dso_cache *dw_dso_cache_new(void);
struct dw_dso *dw_dso_get(struct dw_dso_cache *c, const char *path,
			  const unsigned char *build_id, size_t build_id_size);
struct dw_dso *dw_dso_read_as(struct dw_dso_cache *c, dev_t dev, ino_t ino,
			      const unsigned char *build_id, size_t build_id_size);
const char *dw_dso_path(const struct dw_dso *d);
int dw_dso_stale(const struct dw_dso *d);
int dw_dso_usable(const struct dw_dso *d);
int dw_dso_build_id(const struct dw_dso *d, const unsigned char **id);
int dw_dso_file_to_vaddr(const struct dw_dso *d, uint64_t foff, uint64_t *vaddr);
int dw_dso_resolve(struct dw_dso *d, uint64_t vaddr, unsigned int flags, struct dw_symres *res);
int dw_dso_set_debug_dirs(struct dw_dso_cache *c, const char *dirs);
int dw_dso_set_symfs(struct dw_dso_cache *c, const char *dir);
void dw_dso_set_quiet(struct dw_dso_cache *c, int quiet);
void dw_dso_cache_free(struct dw_dso_cache *c);

#endif
