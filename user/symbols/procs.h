/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a capture says about the target's processes: thread names (COMM)
 * and mappings (MMAP), over time, so that samples are named and their
 * user frames symbolised as they were when recorded.
 */
#ifndef DW_PROCS_H
#define DW_PROCS_H

#include <stdint.h>
#include <linux/dunwind.h>

#include "symbols/symtab.h"

struct dw_procs;

struct dw_procs *dw_procs_new(struct dw_dso_cache *c);
/*
 * Take in one COMM or MMAP record checked by dw_rec_dispatch() (records
 * come in capture order); an MMAP record's file is read from @file (a
 * live process's view; NULL: its path).  0 or -ENOMEM.
 */
int dw_procs_add_comm(struct dw_procs *p, const struct dunwind_rec_comm *c);
int dw_procs_add_mmap(struct dw_procs *p, const struct dunwind_rec_mmap *m, const char *file);
/* Name of thread @tid at @time (its latest name at or before @time), or NULL. */
const char *dw_procs_comm(struct dw_procs *p, __u32 tid, __u64 time);
/* Did the capture describe any mapping of process @pid? */
int dw_procs_has_maps(const struct dw_procs *p, __u32 pid);
/*
 * Function containing @addr in process @pid as mapped at @time: as
 * dw_maps_lookup().  NULL (and *@dso NULL) if no MMAP record covers it.
 */
const char *dw_procs_lookup(const struct dw_procs *p, __u32 pid, __u64 time, __u64 addr,
			    uint64_t *off, const char **dso);
/* Identity of @pid's image (exec) current at @time, or NULL. */
const void *dw_procs_image(const struct dw_procs *p, __u32 pid, __u64 time);
/* Everything known about @addr of @pid at @time: as dw_maps_resolve(). */
int dw_procs_resolve(const struct dw_procs *p, __u32 pid, __u64 time, __u64 addr,
		     unsigned int flags, struct dw_mapres *r);
void dw_procs_free(struct dw_procs *p);

#endif
