/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Naming a user address: a chain of symbolizers asked in order, the first
 * that answers wins; each answers with a name or says "not mine".  What
 * they read (the capture's snapshot, the perf maps read so far) is in a
 * context, so two profiles never share it.  The chain a profile asks is
 * prof_user_symbolizers[] (analyze/locations.c).
 */
#ifndef DW_SYMBOLIZER_H
#define DW_SYMBOLIZER_H

#include <linux/types.h>
#include <stdint.h>

#include "symbols/symtab.h"

struct dw_usnap;
struct dw_symctx;

/* The question: one user address of a process. */
struct dw_symq {
	__u32 pid;
	uint64_t addr;			/* as looked up (a return address moved back) */
	const struct dw_mapres *map;	/* its mapping and the mapped file's own symbol */
	int image;			/* that mapping is an ELF image (dw_dso_path_is_image) */
};

/*
 * The answer.  @name: the function, a linker symbol to demangle when
 * @mangled; NULL for a function known only by its range, which starts at
 * file offset @fstart.  @off: the address's offset in it.  @dso: where
 * the name comes from when not the mapped file (a perf map), else NULL.
 * @src: source lines and inline frames, or NULL.  @snapshot: the capture's
 * snapshot named it.  @sr and @buf: room for a symbolizer's answer.
 */
struct dw_symans {
	const char *name;
	int mangled;
	uint64_t off, fstart;
	const char *dso;
	const struct dw_symres *src;
	int snapshot;
	struct dw_symres sr;
	char buf[64];
};

/* One symbolizer: @lookup answers 0 (filled @a) or -ENOENT ("not mine"). */
struct dw_symbolizer {
	const char *name;
	int (*lookup)(struct dw_symctx *ctx, const struct dw_symq *q, struct dw_symans *a);
};

/* Members read from the mapped file (sym_file.c) and the perf map here (sym_perfmap.c). */
extern const struct dw_symbolizer dw_sym_elf, dw_sym_fde, dw_sym_perfmap;

struct dw_symctx *dw_symctx_new(const struct dw_symbolizer *const *chain, struct dw_usnap *usnap,
				const char *perfmap_dir);
int dw_symbolize(struct dw_symctx *ctx, const struct dw_symq *q, struct dw_symans *a);
void dw_symctx_free(struct dw_symctx *ctx);

/* For the members (symbolizer.c, sym_*.c). */
struct dw_usnap *dw_symctx_usnap(const struct dw_symctx *ctx);
const struct dw_perfmap *dw_symctx_perfmap(struct dw_symctx *ctx, __u32 pid, const char **path);

#endif
