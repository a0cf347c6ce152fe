/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interpreters registered for files (kmod/interp.c) and their frames put
 * into user stacks (kmod/interp_stack.c).  Documentation/python.rst.
 */
#ifndef DUNWIND_INTERP_H
#define DUNWIND_INTERP_H

#include "dunwind.h"
#include "../lib/interp.h"

/*
 * struct dunwind_interp - one registration (struct dunwind_interp_reg),
 * checked and copied; never changed once published.
 */
struct dunwind_interp {
	dev_t dev;
	unsigned long ino;
	u32 nr_ranges;
	u64 ranges[DUNWIND_INTERP_MAX_RANGES][2];	/* ELF vaddrs, [start, end) */
	u64 text_vaddr, text_offset;
	struct dunwind_interp_desc desc;
};

/**
 * dunwind_interp_any() - has the session registered an interpreter?
 * @s:	session
 *
 * One load and a branch for the walks of sessions without one.
 * Context: any.
 */
static inline bool dunwind_interp_any(const struct dunwind_session *s)
{
	return READ_ONCE(s->nr_interp);
}

const struct dunwind_interp *dunwind_interp_find(const struct dunwind_session *s, dev_t dev,
						 unsigned long ino);
u64 *dunwind_interp_stack(struct dunwind_session *s, void **scratch, const u64 *ips,
			  unsigned int nr, unsigned int max, unsigned int *nr_out, bool *trunc);
void dunwind_interp_scratch_free(void *scratch);

#endif /* DUNWIND_INTERP_H */
