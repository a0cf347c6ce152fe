/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JIT code names for the user symbol snapshot (usnap_jit.c): each
 * process's perf map and jitdump, read when it execs or exits and at the
 * end, checked against the recording's mapping records.
 */
#ifndef DW_USNAP_JIT_H
#define DW_USNAP_JIT_H

#include <stdint.h>
#include <linux/dunwind.h>

struct dw_procs;
struct dw_usnap_jit;

/* What was read and refused, for the record summary and tests. */
struct dw_usnap_jit_stats {
	unsigned long maps, jitdumps;	/* files read */
	unsigned long stale;		/* processes whose files were refused as stale */
};

struct dw_usnap_jit *dw_usnap_jit_new(const char *dir);
int dw_usnap_jit_mmap(struct dw_usnap_jit *j, const struct dunwind_rec_mmap *m);
int dw_usnap_jit_fork(struct dw_usnap_jit *j, const struct dunwind_rec_task *t);
int dw_usnap_jit_read(struct dw_usnap_jit *j, __u32 pid, __u64 time, int exec);
const char *dw_usnap_jit_lookup(struct dw_usnap_jit *j, const struct dw_procs *procs, __u32 pid,
				__u64 time, uint64_t addr, uint64_t *start, uint64_t *size);
void dw_usnap_jit_stats(const struct dw_usnap_jit *j, struct dw_usnap_jit_stats *st);
void dw_usnap_jit_free(struct dw_usnap_jit *j);

#endif
