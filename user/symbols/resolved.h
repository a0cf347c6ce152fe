/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The answers of dw_dso_resolve() for one file, kept by address: libdwfl
 * finds an address's symbol by going through every symbol of the file,
 * and a capture of a shell loop asks the same few hundred addresses of
 * the same files once per process (hundreds of processes).  The answers'
 * strings are the file's (libdwfl's): they live as long as its Dwfl, and
 * so must the memo (dso.c frees both together).
 */
#ifndef DW_RESOLVED_H
#define DW_RESOLVED_H

#include <stddef.h>
#include <stdint.h>

#include "symbols/dso.h"
#include "util/htab.h"

/* Answers kept per file at most: then it answers from the kept only. */
#define DW_RESOLVED_MAX		65536

struct dw_resolved_ent;

struct dw_resolved {
	struct dw_resolved_ent *ents;
	size_t nr, cap;
	struct dw_srcframe *frames;	/* the answers' frames, each answer's in a row */
	size_t nr_frames, cap_frames;
	struct dw_htab ht;		/* (address, flags) -> index into @ents */
};

int dw_resolved_find(const struct dw_resolved *m, uint64_t vaddr, unsigned int flags,
		     struct dw_symres *res);
void dw_resolved_add(struct dw_resolved *m, uint64_t vaddr, unsigned int flags,
		     const struct dw_symres *res);
void dw_resolved_free(struct dw_resolved *m);

#endif
