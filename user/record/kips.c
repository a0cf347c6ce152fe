// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel IPs a recording saw: collected as samples arrive, sorted and
 * deduplicated when the array fills and at the end.
 */
#include <stdlib.h>

#include "record/kips.h"
#include "util/array.h"

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * dw_kips_compact() - sort and deduplicate the kernel IPs collected so far
 * @k:	the set
 *
 * Context: user space.
 */
void dw_kips_compact(struct dw_kips *k)
{
	size_t i, n = 0;

	if (!k->nr)
		return;		/* nothing yet (and maybe no array) */
	qsort(k->ips, k->nr, sizeof(*k->ips), cmp_u64);
	for (i = 0; i < k->nr; i++)
		if (!n || k->ips[n - 1] != k->ips[i])
			k->ips[n++] = k->ips[i];
	k->nr = n;
}

/**
 * dw_kips_add() - remember the kernel IPs of a sample
 * @k:	the set
 * @s:	a sample record (checked)
 *
 * Out of memory sets @k->failed: the snapshot then stores every symbol.
 *
 * Context: user space.
 */
void dw_kips_add(struct dw_kips *k, const struct dunwind_rec_sample *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_kernel && !k->failed; i++) {
		if (k->nr == k->cap) {
			/* Full: deduplicate; grow only if that freed little. */
			dw_kips_compact(k);
			if ((!k->cap || k->nr > k->cap / 2) &&
			    DW_ARRAY_RESERVE(k->ips, k->cap, k->cap + 1, 4096)) {
				k->failed = 1;	/* then store every symbol */
				return;
			}
		}
		k->ips[k->nr++] = s->ips[i];
	}
}

/**
 * dw_kips_free() - free the set
 * @k:	the set
 *
 * Context: user space.
 */
void dw_kips_free(struct dw_kips *k)
{
	free(k->ips);
	k->ips = NULL;
	k->nr = k->cap = 0;
}
