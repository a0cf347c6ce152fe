/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JIT code named in a jitdump file (jit-PID.dump, perf's format: a header,
 * then time-stamped records of code loaded, moved and closed), so that an
 * address is named after the code that occupied it at a given time
 * (jitdump.c).
 */
#ifndef DW_JITDUMP_H
#define DW_JITDUMP_H

#include <stddef.h>
#include <stdint.h>

struct dw_jitdump;

/* Bounds on what is read of one file (jitdump.c): past them, the rest is left. */
#define DW_JITDUMP_MAX_BYTES	(1U << 30)
#define DW_JITDUMP_MAX_RECS	(4U << 20)
#define DW_JITDUMP_MAX_NAME	4096		/* longer names are cut */

/* A time no record has: "the last occupant". */
#define DW_JITDUMP_LATEST	UINT64_MAX

struct dw_jitdump *dw_jitdump_load(const char *path);
struct dw_jitdump *dw_jitdump_parse(const void *data, size_t len);
void dw_jitdump_set_bounds(size_t bytes, size_t recs);
const char *dw_jitdump_lookup(const struct dw_jitdump *j, uint64_t addr, uint64_t time,
			      uint64_t *start, uint64_t *size);
size_t dw_jitdump_count(const struct dw_jitdump *j);
void dw_jitdump_free(struct dw_jitdump *j);

#endif
