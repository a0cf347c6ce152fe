/* SPDX-License-Identifier: GPL-2.0 */
/* JIT symbols from /tmp/perf-PID.map ("START SIZE NAME" lines, hex). */
#ifndef DW_PERFMAP_H
#define DW_PERFMAP_H

#include <stddef.h>
#include <stdint.h>

struct dw_perfmap;

/* Bounds on what is read of one file (perfmap.c): past them, the rest is left. */
#define DW_PERFMAP_MAX_BYTES	(256 << 20)
#define DW_PERFMAP_MAX_SYMS	(4 << 20)
#define DW_PERFMAP_MAX_NAME	4096		/* longer names are cut */

struct dw_perfmap *dw_perfmap_load(const char *path);
struct dw_perfmap *dw_perfmap_parse(const char *text, size_t len);
void dw_perfmap_set_bounds(size_t bytes, size_t syms);
const char *dw_perfmap_lookup(const struct dw_perfmap *m, uint64_t addr, uint64_t *off,
			      uint64_t *size);
void dw_perfmap_free(struct dw_perfmap *m);

#endif
